//! WORDCHAIN: players form a chain of words from the cards in their hands,
//! each word beginning on the last card of the word before (the link
//! card). The rules are the original WORDCHAIN rules (`docs/rules/wordchain.md`
//! says how parlor reads each one).
//!
//! | module | what |
//! | --- | --- |
//! | [`card`] | letters, suits, colours, Multicards and the card notation (`Kh`, `*Eh`) |
//! | [`pack`] | the consonant and vowel decks, read from a text a house may replace |
//! | [`scoring`] | a word's score, rules A–N, step by step |
//! | [`best`] | every play a hand can make, by score and by tactical value |
//! | [`config`] | the table's rules and house rules |
//! | [`WordChain`] | the game, hidden hands and all, for `parlor-core` hosts |
//! | [`bot`] | computer players |
//! | [`conformance`] | the shared suite's configs and extra actions for this game |
//!
//! Parameters ([`Config`], all with defaults):
//!
//! | field | default | what |
//! | --- | --- | --- |
//! | `players` | 2 | 2 to 8 |
//! | `hand`, `consonants` | 12, 6 | cards dealt, of them from the consonant deck |
//! | `scoring` | `standard` | or `simple` (a point a card) |
//! | `dice` | 0 | 0, 1 or 2 dice |
//! | `challenges` | on | plays may be challenged; bluffs allowed |
//! | `target` | 1000 | the agreed score that ends the game |
//! | `turn_limit`, `minutes`, `deals` | 400, none, 1 | other agreed ends |
//! | `link_bonus` | `same_letter` | rule J's reading: `same_letter`, `link_first` or `off` |
//! | `passes_end` | off | house rule: a full round of passes ends the deal |
//!
//! ```
//! use parlor_wordchain::{card::parse_cards, scoring::{score, ScoreRules}};
//! // KNOP on the link K: 11 + 14 + 15 + 16 = 56, letters rising (+15%): 65.
//! let cards: Vec<_> = parse_cards("Kh Nc Od Ps").unwrap().iter().map(|c| c.played().unwrap()).collect();
//! assert_eq!(score(&cards, 0, 5, &ScoreRules::default()).score, 65);
//! ```
//!
//! # Changing it
//!
//! A rule or a house rule changes in `docs/rules/wordchain.md` first, then
//! here, with a test of the scoring step by step. `tests/best.rs` checks the best plays
//! against a plain search; the conformance suite (`tests/conformance.rs`, also
//! `parlor conformance wordchain`) holds the game to the contract, hidden
//! hands included.
#![deny(missing_docs)]

pub mod best;
pub mod bot;
pub mod card;
pub mod config;
pub mod conformance;
mod game;
pub use game::{PlayPreview, PlayQuery};
pub mod pack;
pub mod puzzle;
pub mod scoring;
#[cfg(test)]
mod tests;
mod turns;
mod view;

pub use config::Config;
pub use turns::{Action, Error, Event, LogEntry, WordCards, WordChain, WordPlayed, MAX_WORD_CARDS};
pub use view::{PendingView, SeatView, View};
