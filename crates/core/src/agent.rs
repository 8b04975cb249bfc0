//! Computer players.

use crate::{Game, GameRng, Seat, Seed};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How strongly a computer player plays.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Plays legal moves with little foresight; blunders often.
    Easy,
    /// Sees simple threats; blunders sometimes.
    Medium,
    /// Strong, with the occasional human-looking slip.
    Hard,
    /// The strongest play the game's agent knows (perfect where solved).
    #[default]
    Best,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Best];
}

impl std::str::FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "easy" | "1" => Ok(Level::Easy),
            "medium" | "2" => Ok(Level::Medium),
            "hard" | "3" => Ok(Level::Hard),
            "best" | "perfect" | "4" => Ok(Level::Best),
            _ => Err(format!(
                "unknown level {s:?}: expected easy, medium, hard or best (or 1-4)"
            )),
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Best => "best",
        })
    }
}

/// A flag a host raises to stop a search it no longer wants (the game
/// moved on, the client went away, the server is shutting down). Clones
/// share the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not yet raised.
    pub fn new() -> Self {
        Cancel::default()
    }

    /// Raises the flag: every search holding a clone stops at its next check.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is raised.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl PartialEq for Cancel {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}

/// How much an agent or a helper may spend on one decision or answer:
/// wall-clock time, search nodes, and a flag the host may raise to stop it.
/// A search checks [`Budget::exhausted`] often (every few thousand nodes)
/// and returns the best it has when it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock limit for the decision.
    pub time: Option<Duration>,
    /// Limit on search nodes (positions visited) for the decision.
    pub nodes: Option<u64>,
    /// Raised by the host to stop the search now.
    pub cancel: Option<Cancel>,
}

impl Budget {
    /// No limit: the agent decides how long to think.
    pub const UNLIMITED: Budget = Budget {
        time: None,
        nodes: None,
        cancel: None,
    };

    /// A time limit only.
    pub fn time(limit: Duration) -> Budget {
        Budget {
            time: Some(limit),
            ..Budget::UNLIMITED
        }
    }

    /// A node limit only.
    pub fn nodes(limit: u64) -> Budget {
        Budget {
            nodes: Some(limit),
            ..Budget::UNLIMITED
        }
    }

    /// This budget, stopped early when `cancel` is raised.
    pub fn with_cancel(mut self, cancel: Cancel) -> Budget {
        self.cancel = Some(cancel);
        self
    }

    /// Whether the host has cancelled the search.
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
    }

    /// Whether a search that started at `started` and has visited `nodes`
    /// must stop.
    pub fn exhausted(&self, started: Instant, nodes: u64) -> bool {
        self.nodes.is_some_and(|n| nodes >= n)
            || self.cancelled()
            || self.time.is_some_and(|t| started.elapsed() >= t)
    }
}

/// What an agent is given to decide: its seat, what that seat sees, and the
/// seat's legal actions where the game can list them. Never the state.
pub struct AgentContext<'a, G: Game> {
    /// The seat the agent plays.
    pub seat: Seat,
    /// What that seat may see.
    pub view: &'a G::View,
    /// The seat's legal actions, where listable.
    pub legal: Option<&'a [G::Action]>,
    /// The spending limit for this decision.
    pub budget: Budget,
}

/// A computer player.
pub trait Agent<G: Game>: Send {
    /// Chooses an action for `ctx.seat`, or `None` to pass on the chance to
    /// act (for example in a simultaneous phase it has finished).
    fn choose(&mut self, ctx: &AgentContext<'_, G>) -> Option<G::Action>;

    /// What its seat was shown of one accepted action: the events as
    /// [`Game::event_view`] gives them to that seat, in order, including
    /// those of its own actions. Agents that remember (a card counter)
    /// keep what they need; the default forgets.
    fn observe(&mut self, seat: Seat, events: &[G::Event]) {
        let _ = (seat, events);
    }
}

/// Plays uniformly at random among the legal actions.
pub struct RandomAgent {
    rng: GameRng,
}

impl RandomAgent {
    /// A random player with its own seed.
    pub fn new(seed: Seed) -> Self {
        RandomAgent {
            rng: GameRng::from_seed(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn choose(&mut self, ctx: &AgentContext<'_, G>) -> Option<G::Action> {
        let legal = ctx.legal?;
        if legal.is_empty() {
            return None;
        }
        Some(legal[self.rng.below(legal.len())].clone())
    }
}
