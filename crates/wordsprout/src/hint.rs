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
    /// The goal words that justify `result`, ascending (from
    /// [`hint_page`], only the first of them).
    pub goal_words: Vec<String>,
    /// How many goal words justify `result`.
    pub goal_count: usize,
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
        .map(|m| hint_move(language, solution, m, usize::MAX))
        .collect())
}

/// One page of [`hint`]'s plays: how many there are in all, and those from
/// the `offset`th (from 0), at most `limit` of them, each with at most
/// `words` of its goal words (and their count). A host answering people
/// sends a page: from a short string on a large list the whole answer runs
/// to megabytes (every word of the list, under each of 26 plays).
///
/// # Errors
///
/// [`NotLetters`] if `s` has anything but ASCII letters.
///
/// ```
/// use parlor_lexicon::Lexicon;
/// use parlor_wordsprout::{hint::hint_page, Language, Pot, RuleSet, Vowels};
/// let (lex, _) = Lexicon::from_words("t", ["tomato", "aromatic", "automat"]).unwrap();
/// let lang = Language::new(&lex, &RuleSet::core(), &Pot::STANDARD, &Vowels::default());
/// let page = hint_page(&lang, "omat", None, 1, 2, 1).unwrap();
/// assert_eq!(page.total, 4);
/// let results: Vec<&str> = page.moves.iter().map(|p| p.result.as_str()).collect();
/// assert_eq!(results, ["tomat", "omati"]);
/// assert_eq!((page.moves[0].goal_words.len(), page.moves[0].goal_count), (1, 2));
/// ```
pub fn hint_page(
    language: &Language,
    s: &str,
    solution: Option<&Solution>,
    offset: usize,
    limit: usize,
    words: usize,
) -> Result<HintPage, NotLetters> {
    let Some(norm) = normalise(s) else {
        return Err(NotLetters {
            given: s.to_string(),
        });
    };
    let norm = String::from_utf8(norm).expect("ascii");
    let all = language.moves(&norm);
    let total = all.len();
    let moves = all
        .into_iter()
        .skip(offset)
        .take(limit)
        .map(|m| hint_move(language, solution, m, words))
        .collect();
    Ok(HintPage { total, moves })
}

/// A page of plays (see [`hint_page`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HintPage {
    /// Plays in all, on every page.
    pub total: usize,
    /// This page's plays.
    pub moves: Vec<HintMove>,
}

fn hint_move(
    language: &Language,
    solution: Option<&Solution>,
    m: crate::language::Move,
    words: usize,
) -> HintMove {
    let goal_words = language.goal_words(&m.result);
    HintMove {
        goal_count: goal_words.len(),
        goal_words: goal_words
            .into_iter()
            .take(words)
            .map(String::from)
            .collect(),
        wins: solution.and_then(|sol| sol.wins(&m.result)).map(|w| !w),
        position: m.position,
        letter: m.letter,
        second: m.second,
        result: m.result,
    }
}
