//! Word Sprout (being written): see `rules` for the rule set.
#![deny(missing_docs)]

pub mod bot;
pub mod game;
pub mod judge;
pub mod hint;
pub mod language;
pub mod plurals;
pub mod solve;
pub mod rules;

pub use game::{Action, Config, Error, Event, OutReason, Phase, View, WinReason, WordSprout};
pub use rules::{Pot, Rule, RuleSet, Vowels};
pub use language::{Language, Move};
pub use solve::Solution;
