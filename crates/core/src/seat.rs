//! Who sits at the table, who acts, who looks.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A place at the table, numbered from 0 in play order.
///
/// Shown to people as "player 1", "player 2", ...
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub usize);

impl Seat {
    /// The seat's index, from 0.
    pub fn index(self) -> usize {
        self.0
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0 + 1)
    }
}

/// Who submits an action: a seat, or the host acting as referee (a clock
/// running out, a player resigning on disconnect, the end of a round).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Actor {
    /// A player's seat.
    Seat(Seat),
    /// The host, on behalf of the rules (timers, adjudication).
    Referee,
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Seat(s) => s.fmt(f),
            Actor::Referee => f.write_str("the referee"),
        }
    }
}

/// Who looks at the state: a seat sees its own hidden information, a
/// spectator sees only what is public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Viewer {
    /// A player, who sees what that seat may see.
    Seat(Seat),
    /// Anyone else: public information only.
    Spectator,
}

/// Who may act now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToAct {
    /// One seat moves (the usual turn).
    One(Seat),
    /// Several seats act at the same time, in any order (a simultaneous
    /// phase such as Gobble's search or sealed bids). Lists the seats that
    /// may still act.
    Simultaneous(Vec<Seat>),
    /// The game resolves a random event from its own generator; hosts call
    /// [`crate::Game::resolve_chance`] (a [`crate::Match`] does it for them).
    Chance,
    /// Nobody: the game is over.
    Over,
}

impl ToAct {
    /// Whether `seat` is among those who may act now.
    pub fn includes(&self, seat: Seat) -> bool {
        match self {
            ToAct::One(s) => *s == seat,
            ToAct::Simultaneous(v) => v.contains(&seat),
            ToAct::Chance | ToAct::Over => false,
        }
    }

    /// The seats that may act now (empty for chance and game over).
    pub fn seats(&self) -> Vec<Seat> {
        match self {
            ToAct::One(s) => vec![*s],
            ToAct::Simultaneous(v) => v.clone(),
            ToAct::Chance | ToAct::Over => Vec::new(),
        }
    }
}
