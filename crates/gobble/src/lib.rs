//! Gobble: a Boggle-like word grid game.
//!
//! Players search a grid of letters (4x4, 5x5 or 6x6; any rectangle for
//! analysis) for words spelled along paths of touching cells (8 directions,
//! each cell at most once per word). One die face, "Qu", fills a single cell
//! and counts as two letters. Rules source: Peter Hosey's Gobble
//! (`shared/sources/gobble.txt`); the rules as implemented, with every
//! interpretation and the exact board algorithm, are in `docs/rules/gobble.md`.
//!
//! | parameter | type | default |
//! | --- | --- | --- |
//! | size | [`Size`] | 4x4 |
//! | dice | [`DiceSet`] | `1987` (4x4), `1979` (5x5), `gobble6` (6x6) |
//! | scoring | [`Scoring`] | `gobble` (min 3 on 4x4, 4 on larger; min length = 1 point, +1 a letter) |
//! | round time | seconds | 180 |
//!
//! Every board is named by a [`Keyphrase`] of four EFF list words; the
//! board is rolled from the dice with the [`SeedRandom`] generator (the ARC4
//! generator of seedrandom.js) seeded with the keyphrase.
//!
//! ```
//! use parlor_gobble::{Board, DiceSet, Keyphrase, Scoring, Solver, Trie};
//! let key: Keyphrase = "abacus abdomen abide zoom".parse().unwrap();
//! let board = DiceSet::named("1987").unwrap().board_for_seed(&key.normalised());
//! let trie = Trie::new(["spot", "pots", "stop", "tops"]);
//! let mut solver = Solver::new(&trie, Scoring::Gobble);
//! let tally = solver.score(&board);
//! assert_eq!(tally.count as usize, solver.words(&board).len());
//! let fixed = Board::parse("SOPT", None).unwrap();
//! assert_eq!(solver.score(&fixed).count, 4);
//! ```
//!
//! The pieces:
//!
//! - [`Board`], [`Size`], [`DiceSet`], [`Keyphrase`], [`SeedRandom`]: boards
//!   and how a keyphrase names one (bit-exact with seedrandom.js).
//! - [`Trie`] and [`Solver`]: every word on a board, its path and points,
//!   or just the total ([`Solver::score`], the fast path); [`mod@bench`] scores
//!   many boards, [`search`] looks for the best board, [`prove`] proves
//!   that no board of a size scores more than a bound.
//! - [`game`]: [`Gobble`], the `parlor_core::Game` — simultaneous search,
//!   entry checks, unique-word scoring — and its bots; [`conformance`], the
//!   shared suite's configs and extra actions for this game.
//!
//! This crate does no I/O: word lists come in as iterators of words.
//!
//! # Changing it
//!
//! A rule changes in `docs/rules/gobble.md` first, then in [`game`], with a
//! golden test from the document. Boards must stay bit-exact with
//! seedrandom.js and the published dice (`tests/boards.rs`): a change to how
//! a keyphrase rolls a board changes every stored game. The solver is checked
//! against a brute force (`tests/brute_force.rs`) and ENABLE2K's known scores
//! (`tests/enable2k.rs`), the game by the conformance suite
//! (`tests/conformance.rs`, also `parlor conformance gobble`); speed is
//! measured with `parlor gobble bench` (`docs/performance.md`).
#![deny(missing_docs)]

pub mod bench;
mod board;
pub mod client;
pub mod conformance;
mod dice;
pub mod game;
mod keyphrase;
pub mod prove;
pub mod puzzle;
mod rng;
mod scoring;
pub mod search;
mod solver;
mod trie;

pub use board::{Board, BoardError, Size, MAX_CELLS, QU};
pub use dice::{uniform_board, DiceError, DiceSet, DICE_SETS};
pub use game::{EntryError, Gobble, GobbleAction, GobbleConfig, GobbleEvent, GobbleView};
pub use keyphrase::{closest, wordlist, Keyphrase, KeyphraseError, KEYPHRASE_WORDS};
pub use rng::SeedRandom;
pub use scoring::{Scoring, ScoringError, MAX_WORD_LEN};
pub use solver::{FoundWord, Solver, Tally, WalkKind};
pub use trie::{board_form, Trie};
