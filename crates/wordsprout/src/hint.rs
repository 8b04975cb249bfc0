//! The helper: "what could I have played?"
//!
//! Given a string, [`hint`] lists every legal play under the active rules
//! (one per distinct resulting string, the leftmost insertion reported), and
//! for each the goal words that justify the result; given a [`Solution`], it
//! also says whether each play wins for the player who makes it.
//!
//! ```
//! use parlor_lexicon::Lexicon;
//! use parlor_wordsprout::{hint::hint, Language, Pot, RuleSet, Vowels};
//! let (lex, _) = Lexicon::from_words("t", ["tomato", "aromatic"]).unwrap();
//! let lang = Language::new(&lex, &RuleSet::core(), &Pot::STANDARD, &Vowels::default());
//! let plays = hint(&lang, "OMAT", None).unwrap();
//! let results: Vec<&str> = plays.iter().map(|p| p.result.as_str()).collect();
//! assert_eq!(results, ["romat", "tomat", "omati", "omato"]);
//! assert_eq!(plays[0].goal_words, ["aromatic"]);
//! ```

use crate::language::{normalise, Language};
use crate::solve::Solution;
use serde::Serialize;

/// One legal play with its justification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HintMove {
    /// Gap of the original string receiving `letter` (0 = before the first letter).
    pub position: usize,
    /// The letter played.
    pub letter: char,
    /// The other letter of a two-letter play (palindrome lock): its gap in
    /// the original string and the letter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second: Option<(usize, char)>,
    /// The string after the play.
    pub result: String,
    /// The goal words that justify `result`, ascending.
    pub goal_words: Vec<String>,
    /// With a solution: whether the play wins for the player who makes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wins: Option<bool>,
}

/// A string that is not made of letters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{given:?} is not a Word Sprout string: use the letters a-z only (any case)")]
pub struct NotLetters {
    /// What was given.
    pub given: String,
}

/// Every legal play from `s` (case-insensitive), in the order of
/// [`Language::moves`], with the goal words justifying each result and,
/// given `solution`, whether it wins for the player making it.
///
/// # Errors
///
/// [`NotLetters`] if `s` has anything but ASCII letters.
pub fn hint(
    language: &Language,
    s: &str,
    solution: Option<&Solution>,
) -> Result<Vec<HintMove>, NotLetters> {
    let Some(norm) = normalise(s) else {
        return Err(NotLetters {
            given: s.to_string(),
        });
    };
    let norm = String::from_utf8(norm).expect("ascii");
    Ok(language
        .moves(&norm)
        .into_iter()
        .map(|m| HintMove {
            goal_words: language
                .goal_words(&m.result)
                .into_iter()
                .map(String::from)
                .collect(),
            wins: solution.and_then(|sol| sol.wins(&m.result)).map(|w| !w),
            position: m.position,
            letter: m.letter,
            second: m.second,
            result: m.result,
        })
        .collect())
}
