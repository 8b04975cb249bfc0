//! The contract every parlor game keeps, and the bookkeeping they share.
//!
//! A game is three things: a [`Game::Config`] (its rules and variants, plain
//! serde data checked by [`Game::new`]), a [`Game::Action`] (what one seat
//! submits), and the state itself, a type implementing [`Game`]. The state
//! answers who may act ([`ToAct`]: one seat, several seats at once, chance, or
//! nobody because the game is over), applies an action completely or not at
//! all, shows each seat only what that seat may see ([`Game::view`]), and
//! ranks the seats at the end ([`Outcome`]).
//!
//! Around that contract this crate keeps what every game would otherwise
//! write again:
//!
//! - [`Match`] wraps a state and records every accepted action, so that a
//!   [`Record`] (config + seed + ordered actions, JSON, versioned) replays to
//!   the identical state. Chance is resolved by the state from its own seeded
//!   [`GameRng`], never from outside, which is what makes replay exact.
//! - [`Registry`] erases the types: the CLI and the server host any game by
//!   name, over JSON actions and views, without knowing the game.
//! - [`Agent`] is the one trait every computer player implements, with a
//!   [`Budget`] of time and nodes and a [`Level`] of difficulty. Agents see
//!   what their seat sees and nothing more.
//! - [`Resources`] hands games the word lists they need by name, so a config
//!   stays plain data and a record names the list it was played with.
//! - [`conformance`] is the shared test suite each game runs: random play
//!   in which every listed action must be accepted, the game must end within
//!   its declared bound, secrets must stay out of other seats' views and
//!   events, records must replay (with their times, clocks included), and
//!   hostile JSON and out-of-turn submissions must be refused cleanly.
//!
//! Actors, not only seats, submit actions: [`Actor::Referee`] stands for the
//! host (a round clock running out, a player leaving). An action from a seat
//! that may not act now is still given to the game, because in some games
//! (Word Sprout's out-of-turn play) that is a move with consequences; games
//! where it is not reject it with their own error.
//!
//! # Example
//!
//! ```
//! use parlor_core::{Actor, Game, Match, Record, Resources, Seat, ToAct};
//! # use parlor_core::doc_nim::Nim;
//! let resources = Resources::embedded();
//! let mut m = Match::<Nim>::new(Default::default(), 7, &resources).unwrap();
//! assert_eq!(m.state().to_act(), ToAct::One(Seat(0)));
//! m.apply(Actor::Seat(Seat(0)), 3).unwrap();
//! assert!(m.apply(Actor::Seat(Seat(0)), 1).is_err(), "not seat 0's turn");
//! let json = m.record().to_json();
//! let again = Match::<Nim>::replay(&Record::from_json(&json).unwrap(), &resources).unwrap();
//! assert_eq!(again.state(), m.state());
//! ```
#![deny(missing_docs)]

mod agent;
mod clock;
pub mod conformance;
#[doc(hidden)]
pub mod doc_nim;
mod game;
mod record;
mod registry;
mod resources;
mod rng;
pub mod sealed_bid;
mod seat;

pub use agent::{Agent, AgentContext, Budget, Cancel, Level, RandomAgent};
pub use clock::{ClockView, Clocks, Expiry, RoundView, SeatClockView, Step, TimeControl, Timer};
pub use game::{
    ConfigError, Deadline, ErrorKind, Game, GameError, GameInfo, Needs, Outcome, Setting,
    SettingKind, SettingOption, WordListNeed,
};
pub use record::{LexiconStamp, Match, Record, RecordError, RecordedAction, RECORD_VERSION};
pub use registry::{ActionError, Applied, DynAgent, DynMatch, GameEntry, Registry, RegistryError};
pub use resources::{ResourceError, Resources};
pub use rng::{GameRng, Seed, RANDOMNESS_VERSION};
pub use seat::{Actor, Seat, ToAct, Viewer};
