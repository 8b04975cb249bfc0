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
//! The contract in more detail:
//!
//! - **Refusals say what kind they are.** A game's errors implement
//!   [`GameError`]: a sentence for people and an [`ErrorKind`] for machines
//!   (`not_your_turn`, `illegal`, `unknown_word`, ...), so a client can grey
//!   out a button and show the sentence. A config the game cannot be played
//!   with is a [`ConfigError`] of one line that says what is accepted.
//! - **Events are private too.** An action's events may hold hidden
//!   information ("player 2 drew 7h"); [`Game::event_view`] says what each
//!   viewer may see of each one, and the registry hands hosts the events of
//!   an action already projected for every viewer ([`Applied`]). Hidden
//!   information leaves a state only through [`Game::view`] and
//!   [`Game::event_view`].
//! - **Settings declare themselves.** [`Game::needs`] tells the host what a
//!   config needs before the game exists (its seat count, its word lists by
//!   role: [`Needs`]); [`Game::settings`] describes the config field by
//!   field ([`Setting`], [`SettingKind`]) so a lobby draws any game's form
//!   without knowing the game.
//! - **Games end.** [`Game::action_bound`] bounds how many actions a game
//!   accepts, and the conformance suite holds the game to it.
//! - **The game never reads the time.** A clock the rules need (Gobble's
//!   round) is a [`Deadline`] the game asks the host to keep
//!   ([`Game::deadline`]). The players' time controls ([`TimeControl`]:
//!   banks, increment, delay, a turn clock, an absent countdown) are host
//!   settings, kept by [`Clocks`], a pure model driven by the times the host
//!   stores with every action, so clocks replay as exactly as games do.
//!
//! Around that contract this crate keeps what every game would otherwise
//! write again:
//!
//! - [`Match`] wraps a state and records every accepted action, so that a
//!   [`Record`] (config + seed + ordered actions, JSON, versioned) replays to
//!   the identical state. Chance is resolved by the state from its own seeded
//!   [`GameRng`], never from outside, which is what makes replay exact; the
//!   record names the sampling algorithms it was drawn with
//!   ([`RANDOMNESS_VERSION`]) and the word lists it was played with
//!   ([`LexiconStamp`]).
//! - [`Registry`] erases the types: the CLI and the server host any game by
//!   name, over JSON actions and views ([`GameEntry`], [`DynMatch`]), without
//!   knowing the game. A game registered with its [`Extras`] also brings its
//!   conformance suites ([`conformance::DynSuite`]) and, where it lists no
//!   actions, those a client that sees only its views may try
//!   ([`ViewActions`]).
//! - [`Agent`] is the one trait every computer player implements, with a
//!   [`Level`] of difficulty. Agents see what their seat sees and nothing
//!   more: its view, its legal actions, and the events of each action as
//!   [`Game::event_view`] shows them to that seat ([`Agent::observe`]). A
//!   host keeps one agent per seat for the life of the game ([`DynAgent`]);
//!   one built after a restart catches up from the game's history.
//! - [`Budget`] bounds a decision or a helper's answer ([`Game::assist`]) in
//!   time and search nodes, and carries a [`Cancel`] flag the host raises to
//!   stop work nobody waits for any more; searches check
//!   [`Budget::exhausted`].
//! - [`Resources`] hands games the word lists they need by name, so a config
//!   stays plain data and a record names the list it was played with.
//! - [`conformance`] is the shared test suite each game runs: random play
//!   in which every listed action must be accepted, the game must end within
//!   its declared bound, secrets must stay out of other seats' views and
//!   events, records must replay (with their times, clocks included), and
//!   hostile JSON and out-of-turn submissions must be refused cleanly.
//!
//! Actors, not only seats, submit actions: [`Actor::Referee`] stands for the
//! host (a round clock running out, a player leaving: [`Game::forfeit`]). An
//! action from a seat that may not act now is still given to the game,
//! because in some games (Word Sprout's out-of-turn play) that is a move
//! with consequences; games where it is not reject it with their own error.
//!
//! [`sealed_bid`] is a complete small game that uses most of the API (a
//! simultaneous phase, hidden bids, chance, a referee action, a bot): the
//! example to copy. `docs/adding-a-game.md` in the repository walks through
//! adding a game, step by step, with it as the running example.
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
//!
//! Hosting a game by name, over JSON: seat 0's secret bid reaches seat 0
//! whole, and the others learn only that a bid was placed.
//!
//! ```
//! use parlor_core::{sealed_bid::SealedBid, Actor, Registry, Resources, Seat, Viewer};
//! use serde_json::json;
//! let mut registry = Registry::new();
//! registry.register::<SealedBid>();
//! let resources = Resources::embedded();
//! let entry = registry.get("sealed-bid").unwrap();
//! let mut m = entry.new_match(&json!({"pile": 5}), 1, &resources).unwrap();
//! let applied = m.apply_json(Actor::Seat(Seat(0)), &json!({"bid": 2})).unwrap();
//! let mine = &applied.for_viewer(Viewer::Seat(Seat(0)))[0];
//! assert_eq!(mine, &json!({"bid_placed": {"seat": 0, "bid": 2}}));
//! for other in [Viewer::Seat(Seat(1)), Viewer::Spectator] {
//!     assert_eq!(applied.for_viewer(other)[0], json!({"bid_placed": {"seat": 0}}));
//! }
//! let refused = m.apply_json(Actor::Seat(Seat(0)), &json!({"take": 1})).unwrap_err();
//! assert_eq!(refused.kind, parlor_core::ErrorKind::NotYourTurn);
//! ```
//!
//! # Changing the contract
//!
//! Every game implements [`Game`], and the server and the CLI reach games only
//! through [`Registry`]: a change to the trait is a change to every game
//! crate, to the registry's type erasure, and to `docs/adding-a-game.md`,
//! whose example is checked against the code by the server's
//! `tests/adding_a_game.rs`. A check every game must pass belongs in
//! [`conformance`] (with a game in `tests/conformance_catches.rs` that breaks
//! it, so the check is shown to catch it). The draws of [`GameRng`] are part
//! of every stored record: changing them means a new [`RANDOMNESS_VERSION`].
#![deny(missing_docs)]

mod agent;
mod clock;
pub mod conformance;
#[doc(hidden)]
pub mod doc_nim;
mod game;
mod helper;
mod puzzle;
mod record;
mod registry;
mod resources;
mod rng;
pub mod sealed_bid;
mod seat;
pub mod selfplay;

pub use agent::{Agent, AgentContext, Budget, Cancel, Level, RandomAgent};
pub use clock::{ClockView, Clocks, Expiry, RoundView, SeatClockView, Step, TimeControl, Timer};
pub use game::{
    events_seen_by, ConfigError, Deadline, ErrorKind, Game, GameError, GameInfo, Needs, Outcome,
    Preset, ScoreWords, Setting, SettingKind, SettingOption, WordListNeed,
};
pub use helper::{HelpError, NoHelper, Query};
pub use puzzle::{
    clear_lead, of_the_day, Answer, CheckPuzzle, FindPuzzle, JudgePuzzle, Judged, Puzzle,
    PuzzleBook, PuzzleKind, LEAD_POINTS,
};
pub use record::{LexiconStamp, Match, Record, RecordError, RecordedAction, RECORD_VERSION};
pub use registry::{
    ActionError, Applied, DynAgent, DynMatch, Extras, GameEntry, Registry, RegistryError,
    ViewActions, ViewActionsFor,
};
pub use resources::{human_bytes, Derived, NoRoom, ResourceError, Resources};
pub use rng::{GameRng, Seed, RANDOMNESS_VERSION};
pub use seat::{Actor, Seat, ToAct, Viewer};
