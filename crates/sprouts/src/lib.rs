//! Sprouts, Conway and Paterson's pencil game, in the card formulation of
//! the World Game of Sprouts Association, with game records in WGOSA
//! notation.
//!
//! Rules source: Josh Purinton, "How to Play Sprouts with Playing Cards"
//! (WGOSA), kept as `shared/sources/sprouts.txt`, building on Dan Hoey's
//! boundary-list notation; the record notation is summarised in
//! `shared/sources/wgosa-notation.md`. The rules as implemented, and every
//! interpretation where the sources are silent, are in
//! `docs/rules/sprouts.md`.
//!
//! # The idea
//!
//! A Sprouts drawing is stored as the boundaries of its regions. A
//! [`Position`] is a list of **rows** (regions); a row holds **stacks**
//! (boundaries); a stack is a cyclic sequence of **cards** (the spots met
//! walking round the boundary). A spot has three cards, its three lives;
//! one with all three on the table is dead. A line between two boundaries
//! of a region is a **joining move** ([`Move::Join`]); a curve from a
//! boundary back to itself, which cuts the region in two, is a **dividing
//! move** ([`Move::Divide`]). [`apply`] plays either step by step, as the
//! card rules say.
//!
//! # The pieces
//!
//! | module | what |
//! | --- | --- |
//! | [`position`] | [`Setup`] (parsed text), [`Position`] (checked), their errors |
//! | [`moves`] | [`Move`], [`apply`], [`successors`] / [`legal_moves`] |
//! | [`canon`] | [`canonical`] (equivalence up to cuts, order, renumbering, mirroring), [`labelled_key`] (numbers kept) |
//! | [`wgosa`] | [`WgosaMove`], [`resolve`], [`describe`], [`Record`] |
//! | [`words`] | [`in_words`]: a move told in words ("joined 4 to 3 with new spot 7, enclosing spot 1") |
//! | [`game`] | [`Sprouts`], the table, implementing [`parlor_core::Game`], and its computer players |
//! | [`solve`] | the solver: who wins from a position with perfect play, nimbers, misère play |
//! | [`analysis`] | the solver's verdict on every move of a game (the table's helper) |
//! | [`drawing`] | the picture: a drawn line read as a move, a move given as text routed as a line |
//!
//! # For a solver
//!
//! [`successors`] lists a position's moves once per class of equivalent
//! results, each with the position it leads to and its
//! [`canonical_reduced`] key (cuts, order, renumbering, mirroring and dead
//! boundaries factored out), ready for a transposition table;
//! [`Position::has_move`] tells a terminal position without listing moves;
//! [`Position::lives_map`] counts every spot's lives in one pass. Keys are
//! text; [`solve`] reduces positions further (dead spots, independent
//! regions) into a form of its own before keying them.
//!
//! # Parameters ([`game::Config`])
//!
//! | name | type | default | meaning |
//! | --- | --- | --- | --- |
//! | `spots` | integer | 3 | starting spots, 1 to 32 |
//! | `misere` | bool | false | the last player to move loses |
//!
//! # Example
//!
//! The card document's game, move by move:
//!
//! ```
//! use parlor_sprouts::{canonical, Position, Record};
//! let record = Record::parse("2+ 1(3)2 1(4)2 1(5)4 2(6)3").unwrap();
//! let replay = record.replay().unwrap();
//! let last = replay.positions.last().unwrap();
//! let expected = Position::parse("5,1,3,2,4/5,4,1/6,2,3/6,3,1,4,2").unwrap();
//! assert_eq!(canonical(last), canonical(&expected));
//! assert!(!last.has_move());
//! ```
//!
//! Legal moves, one per class of equivalent results:
//!
//! ```
//! use parlor_sprouts::{describe, successors, Position};
//! let p = Position::start(3);
//! let written: Vec<String> = successors(&p)
//!     .iter()
//!     .map(|(mv, _, _)| describe(&p, mv).unwrap().to_string())
//!     .collect();
//! assert_eq!(written.len(), 3); // a join, a loop with 2 and 3 together, a loop between them
//! ```
//!
//! # Changing it
//!
//! A rule or an interpretation changes in `docs/rules/sprouts.md` first.
//! Moves are checked against the card document's examples and by property
//! tests (`tests/play.rs`: random play, canonical forms, records, parsers
//! fed junk); the solver's moves must stay the same set as [`successors`]
//! and its answers those published (`solve`'s own tests). The drawing is tested by replaying
//! random games through the router and the stroke reader
//! (`tests/drawing_route.rs`, `tests/drawing_stroke.rs`); the table by the
//! conformance suite (`tests/conformance.rs`, also `parlor conformance
//! sprouts`). Solver speed: `parlor sprouts solve` (`docs/performance.md`).
#![deny(missing_docs)]

pub mod analysis;
mod bot;
pub mod canon;
pub mod drawing;
pub mod game;
pub mod moves;
pub mod position;
pub mod puzzle;
pub mod solve;
pub mod wgosa;
pub mod words;

pub use canon::{canonical, canonical_reduced, labelled_key, Canonical};
pub use game::{Action, Config, Sprouts, SproutsAnswer, SproutsQuery};
pub use moves::{apply, legal_moves, successors, Move, MoveError};
pub use position::{ParseError, Position, PositionError, PositionTextError, Setup, Spot};
pub use wgosa::{
    describe, read, resolve, Ambiguity, Reading, Record, RecordError, Refusal, Replay, RuleError,
    WgosaMove, Winner,
};
pub use words::{in_words, MoveWords};
