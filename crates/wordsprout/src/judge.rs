//! The game's referee for words: which plays are valid under the active
//! string rules, and which goal words justify a string.
//!
//! A thin adapter over the analysis crate's language (the exact set of
//! valid strings under the string-shaping rules), shared through
//! [`parlor_core::Resources::derived`] so that every game and bot on one
//! host playing with the same word list, string rules, pot and vowels uses
//! one copy.

use crate::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_core::Resources;
use parlor_lexicon::Lexicon;
use std::sync::Arc;

use crate::language::Language;
use crate::solve::{solve_players, PlayersSolution, Solution};

/// The letters `to` has that `from` lacks (as a multiset), alphabetical.
pub fn inserted_letters(from: &str, to: &str) -> Vec<u8> {
    let mut counts = [0i32; 26];
    for &c in to.as_bytes() {
        counts[(c - b'a') as usize] += 1;
    }
    for &c in from.as_bytes() {
        counts[(c - b'a') as usize] -= 1;
    }
    let mut out = Vec::new();
    for (i, &n) in counts.iter().enumerate() {
        for _ in 0..n.max(0) {
            out.push(b'a' + i as u8);
        }
    }
    out
}

/// The validity oracle of one table: word list + string rules + pot + vowels.
#[derive(Clone)]
pub struct Judge {
    lang: Arc<Language>,
    key: String,
    resources: Resources,
}

impl std::fmt::Debug for Judge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Judge")
    }
}

/// The key under which a language is shared in [`Resources`].
pub fn language_key(lexicon: &Lexicon, rules: &RuleSet, pot: &Pot, vowels: &Vowels) -> String {
    let rules = rules.string_rules();
    let names: Vec<&str> = rules.0.iter().map(|r| r.name()).collect();
    let pot = if rules.has(Rule::Tiles) {
        pot.to_string()
    } else {
        String::new()
    };
    format!(
        "wordsprout/language/{:016x}/{}/{}/{}",
        lexicon.fingerprint(),
        names.join(","),
        pot,
        String::from(vowels.clone())
    )
}

impl Judge {
    /// The judge for these rules, built once per host and key.
    pub fn new(
        resources: &Resources,
        lexicon: &Lexicon,
        rules: &RuleSet,
        pot: &Pot,
        vowels: &Vowels,
    ) -> Judge {
        let key = language_key(lexicon, rules, pot, vowels);
        let string_rules = rules.string_rules();
        let lang = resources.derived(&key, || Language::new(lexicon, &string_rules, pot, vowels));
        Judge {
            lang,
            key,
            resources: resources.clone(),
        }
    }

    /// The two-player solution of this language, solved once per host.
    pub fn solution(&self) -> Arc<Solution> {
        let lang = self.lang.clone();
        self.resources
            .derived(&format!("{}/solution", self.key), move || {
                Solution::solve(&lang)
            })
    }

    /// The `players`-player solution (max^n, see [`PlayersSolution`]), solved once per host.
    pub fn players_solution(&self, players: usize) -> Arc<PlayersSolution> {
        let lang = self.lang.clone();
        self.resources
            .derived(&format!("{}/solution{players}", self.key), move || {
                solve_players(&lang, players)
            })
    }

    /// Whether plays from `s` may add two letters (palindrome lock).
    pub fn is_locked(&self, s: &str) -> bool {
        self.lang.is_locked(s)
    }

    /// The shared language.
    pub fn language(&self) -> &Arc<Language> {
        &self.lang
    }

    /// Whether `s` may stand at the end of a turn.
    pub fn is_valid(&self, s: &str) -> bool {
        self.lang.is_valid(s)
    }

    /// Whether going from `from` to `to` is a valid play.
    pub fn is_legal_move(&self, from: &str, to: &str) -> bool {
        self.lang.is_legal_move(from, to)
    }

    /// Valid goal words that justify `s`, ascending.
    pub fn goal_words(&self, s: &str) -> Vec<&str> {
        self.lang.goal_words(s)
    }

    /// How many valid goal words justify `s` (see
    /// [`Language::goal_word_count`]).
    pub fn goal_word_count(&self, s: &str) -> usize {
        self.lang.goal_word_count(s)
    }

    /// Whether `w` names a valid goal word.
    pub fn is_goal_word(&self, w: &str) -> bool {
        self.lang.is_goal_word(w)
    }

    /// The distinct results of the valid plays from `s`.
    pub fn moves(&self, s: &str) -> Vec<String> {
        self.lang.moves(s).into_iter().map(|m| m.result).collect()
    }
}
