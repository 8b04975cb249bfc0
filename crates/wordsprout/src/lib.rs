//! Word Sprout: a Superghost-like word game with many optional rules, its
//! rules engine, the helper ("what could I have played?") and perfect play.
//!
//! Players take turns adding one letter anywhere in a central string; at the
//! end of each turn the string must be a substring of a valid goal word; a
//! player who cannot play is out; the last player left wins. Around that
//! core, the original page adds tiles, out-of-turn play, challenges and
//! bluffs, undoing a losing play, and a family of variants: metamorphism
//! (a match of rounds whose winners change the rules), eight rules on valid
//! strings, open challenges, vowels that reverse the order of play, teams,
//! vowel collections, and a 2-D game.
//!
//! Rules source: "Word Sprout" (first published 3 Oct 2000), kept as
//! `shared/sources/wordsprout.txt`. The rules as implemented, with every
//! interpretation of an ambiguous rule stated and justified, are in
//! `docs/rules/wordsprout.md`.
//!
//! # The pieces
//!
//! | module | what |
//! | --- | --- |
//! | [`rules`] | [`Rule`] (one optional rule, named as on the command line), [`RuleSet`], [`Pot`], [`Vowels`] |
//! | [`game`] | [`WordSprout`], the table, implementing [`parlor_core::Game`]: [`Config`], [`Action`], [`Event`], [`View`], [`Error`] |
//! | [`language`] | which strings and goal words are valid under the string rules, exactly |
//! | [`judge`] | the game's adapter to the language, shared by every game on a host |
//! | [`board`] | the 2-D variant's grid: crossings, new strings, holes |
//! | [`solve`], [`hint`] | perfect play and the helper |
//! | [`bot`] | the computer players, easy to best |
//! | [`plurals`] | the plurals `no-plurals` refuses |
//! | [`conformance`] | the shared suite's configs and extra actions for this game |
//!
//! # Parameters ([`Config`])
//!
//! | name | type | default | meaning |
//! | --- | --- | --- | --- |
//! | `players` | integer | 2 | seats, 2 to 10 |
//! | `lexicon` | string | `"en"` | the word list, by name (embedded, or added by the host) |
//! | `rules` | list of rule names | `["out-of-turn", "challenge", "undo-losing-play"]` | the optional rules on at the start |
//! | `pot` | string | `"a9 b2 c2 d4 e12 ..."` (98 tiles) | the tiles, with rule `tiles` |
//! | `vowels` | string | `"aeiou"` | the vowels, for every rule that names them |
//! | `teams` | list of lists of seats | none | with rule `teams`: every seat in one team |
//! | `rounds` | integer | 1; 3 with metamorphism or persistent collections | rounds in a match |
//!
//! # Example
//!
//! The worked example of the rules page, on a word list where "bombastic"
//! has no extension: player 2 cannot play on, bluffs, is caught; player 1
//! wins.
//!
//! ```
//! use parlor_core::{Actor, Game, Match, Resources, Seat, ToAct};
//! use parlor_lexicon::Lexicon;
//! use parlor_wordsprout::{Action, Config, WordSprout};
//! use std::sync::Arc;
//!
//! let (words, _) = Lexicon::from_words("example", ["oat", "tomato", "wombat", "bombastic", "overwhelming"]).unwrap();
//! let resources = Resources::embedded().with_lexicon(Arc::new(words));
//! let config = Config { lexicon: "example".into(), ..Config::default() };
//! let mut game = Match::<WordSprout>::new(config, 0, &resources).unwrap();
//! let plays = ["o", "oa", "oat", "omat", "ombat", "ombast", "bombast", "bombasti", "bombastic"];
//! for (turn, s) in plays.iter().enumerate() {
//!     let seat = Actor::Seat(Seat(turn % 2));
//!     game.apply(seat, Action::Play { string: s.to_string() }).unwrap();
//! }
//! // A bluff is accepted (challenges are on by default) ...
//! game.apply(Actor::Seat(Seat(1)), Action::Play { string: "bombastics".into() }).unwrap();
//! // ... and caught: player 2 cannot name a goal word, goes out, the bluff is undone.
//! game.apply(Actor::Seat(Seat(0)), Action::Challenge).unwrap();
//! game.apply(Actor::Seat(Seat(1)), Action::Concede).unwrap();
//! assert_eq!(game.state().to_act(), ToAct::Over);
//! assert_eq!(game.state().outcome().unwrap().winners(), &[Seat(0)]);
//! ```
//!
//! # Changing it
//!
//! A rule changes in `docs/rules/wordsprout.md` first, then in [`game`] and,
//! for a rule on valid strings, in [`language`]. The analysis is checked
//! against a plain reference implementation on random word lists
//! (`tests/analysis_reference.rs`) and golden answers
//! (`tests/analysis_golden.rs`); the game by its own tests and the conformance
//! suite (`tests/conformance.rs` through [`conformance`], also `parlor
//! conformance wordsprout`). A setting that makes derived data grow (a rule on
//! valid strings) must be bounded by what `Resources` may hold.
#![deny(missing_docs)]

pub mod board;
pub mod bot;
pub mod conformance;
pub mod game;
pub mod hint;
pub mod judge;
pub mod language;
pub mod plurals;
pub mod puzzle;
pub mod rules;
pub mod solve;

pub use game::{
    Action, Config, Error, Event, HelperPage, HelperQuery, OutReason, Phase, View, WinReason,
    WordSprout,
};
pub use language::{Language, Move};
pub use rules::{Pot, Rule, RuleSet, Vowels};
pub use solve::Solution;
