//! Twin Grids: Nick Bentley's two-grid word game (posted to
//! rec.games.abstract in 2009, never published, no name of its own).
//! `docs/rules/twingrid.md` gives the rules as implemented and every
//! reading of what the posting leaves open.
//!
//! Each player writes a word in the next row of their own grid; it scores
//! the letters it shares with the opponent's last word times the longest
//! word it forms down a column ([`grid`]). The opening word is drawn from
//! the dictionary, player 1 gives points to either side, and the pie rule
//! lets player 2 choose a side ([`TwinGrids`]).
//!
//! ```
//! use parlor_twingrid::grid::{shared, Grid, Vertical};
//! let lexicon = parlor_lexicon::Lexicon::embedded("en").unwrap();
//! let mut grid = Grid::new(9);
//! grid.write("tan", 1);
//! // cat with its t under the a of tan: "at" down column 2 (and "ta" down column 1).
//! let s = grid.score("cat", 0, "tact", 10, &lexicon, Vertical::EveryRun);
//! assert_eq!((s.shared, s.longest_vertical, s.score), (3, 2, 6));
//! assert_eq!(shared("tact", "that").0, 3);
//! ```
//!
//! | module | what |
//! | --- | --- |
//! | [`grid`] | a player's grid, a placement's score (shared letters, vertical words) |
//! | [`TwinGrids`] | the game for `parlor-core` hosts: the opening, the pie rule, challenges |
//! | [`bot`] | the computer player |
//! | [`conformance`] | the shared suite's configs and extra actions for this game |
//!
//! # Changing it
//!
//! A rule or a reading changes in `docs/rules/twingrid.md` first, then in the
//! game, with a test in `tests/game.rs`; the conformance suite
//! (`tests/conformance.rs`, also `parlor conformance twingrid`) holds the game
//! to the contract. Placements are scored here only, never again in a page.
#![deny(missing_docs)]

pub mod bot;
pub mod conformance;
mod game;
pub mod grid;
pub mod puzzle;
mod turns;

pub use game::{Placement, PlacementScore, View};
pub use turns::{Action, Config, Error, Turn, TwinGrids};
