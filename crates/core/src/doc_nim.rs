//! A tiny complete game used by this crate's examples and tests: Nim with
//! one pile, take 1 to 3 stones, whoever takes the last stone wins.

use crate::{
    Actor, ConfigError, ErrorKind, Game, GameError, GameInfo, Needs, Outcome, Resources, Seat,
    Seed, ToAct, Viewer,
};
use serde::{Deserialize, Serialize};

/// The rules: the starting pile and the most one turn may take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NimConfig {
    /// Stones at the start.
    pub pile: u32,
    /// The most stones one turn may take.
    pub max_take: u32,
}

impl Default for NimConfig {
    fn default() -> Self {
        NimConfig {
            pile: 21,
            max_take: 3,
        }
    }
}

/// A refused Nim move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NimError {
    /// Not this seat's turn.
    #[error("it is {expected}'s turn, not {got}'s")]
    NotYourTurn {
        /// Whose turn it is.
        expected: Seat,
        /// Who tried.
        got: Actor,
    },
    /// Too many or too few stones.
    #[error("take between 1 and {max} stones, not {took}")]
    BadTake {
        /// The most allowed now.
        max: u32,
        /// What was asked.
        took: u32,
    },
    /// The game is over.
    #[error("the game is over")]
    Over,
}

impl GameError for NimError {
    fn kind(&self) -> ErrorKind {
        match self {
            NimError::NotYourTurn { .. } => ErrorKind::NotYourTurn,
            NimError::BadTake { .. } => ErrorKind::Illegal,
            NimError::Over => ErrorKind::GameOver,
        }
    }
}

/// A Nim state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Nim {
    config: NimConfig,
    pile: u32,
    turn: Seat,
    winner: Option<Seat>,
}

impl Game for Nim {
    type Config = NimConfig;
    type Action = u32;
    type View = Nim;
    type Event = String;
    type Error = NimError;
    type Query = crate::NoHelper;
    type Answer = crate::NoHelper;

    const INFO: GameInfo = GameInfo {
        name: "nim",
        title: "Nim",
        min_seats: 2,
        max_seats: 2,
    };

    fn new(config: &NimConfig, _seed: Seed, _: &Resources) -> Result<Self, ConfigError> {
        if config.pile == 0 || config.max_take == 0 {
            return Err(ConfigError::new("pile and max_take must be at least 1"));
        }
        Ok(Nim {
            config: config.clone(),
            pile: config.pile,
            turn: Seat(0),
            winner: None,
        })
    }
    fn config(&self) -> &NimConfig {
        &self.config
    }
    fn needs(_: &NimConfig) -> Needs {
        Needs::seats(2)
    }
    fn action_bound(&self) -> usize {
        // Every turn takes at least one stone.
        self.pile as usize
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_act(&self) -> ToAct {
        if self.winner.is_some() {
            ToAct::Over
        } else {
            ToAct::One(self.turn)
        }
    }
    fn legal_actions(&self, seat: Seat) -> Option<Vec<u32>> {
        if self.winner.is_some() || seat != self.turn {
            return Some(Vec::new());
        }
        Some((1..=self.config.max_take.min(self.pile)).collect())
    }
    fn apply(&mut self, actor: Actor, take: u32) -> Result<Vec<String>, NimError> {
        if self.winner.is_some() {
            return Err(NimError::Over);
        }
        if actor != Actor::Seat(self.turn) {
            return Err(NimError::NotYourTurn {
                expected: self.turn,
                got: actor,
            });
        }
        let max = self.config.max_take.min(self.pile);
        if take == 0 || take > max {
            return Err(NimError::BadTake { max, took: take });
        }
        self.pile -= take;
        if self.pile == 0 {
            self.winner = Some(self.turn);
        }
        self.turn = Seat(1 - self.turn.0);
        Ok(vec![format!("took {take}")])
    }
    fn view(&self, _: Viewer) -> Nim {
        self.clone()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(|w| Outcome {
            ranking: vec![vec![w], vec![Seat(1 - w.0)]],
            scores: None,
        })
    }
}

/// The conformance suite for `config`, with out-of-range takes and moves
/// out of turn as extra actions.
pub fn conformance_suite(config: NimConfig) -> crate::conformance::Suite<'static, Nim> {
    crate::conformance::Suite::new(config).extra(0.1, |g: &Nim, rng: &mut crate::GameRng| {
        let actor = match rng.below(3) {
            0 => Actor::Referee,
            n => Actor::Seat(Seat(n - 1)),
        };
        Some((actor, rng.below(g.config.max_take as usize + 3) as u32))
    })
}
