//! The plurals excluded by rule "no plurals" ([`Rule::NoPlurals`]).
//!
//! The rule: no goal word may be a plural ending in "s" or "es", unless the
//! word is justified on other grounds ("bikes" is a form of the verb "to
//! bike"). Deciding that needs part-of-speech data; the list here is derived
//! from WordNet 3.0 (Princeton University, Debian package `wordnet-base`) by
//! `scripts/build-plurals` over the embedded `en-large` list (which contains
//! `en`), and is embedded as `data/wordsprout/plurals-en-large.txt`, WordNet's
//! licence beside it.
//!
//! A word is excluded when WordNet knows it as a noun plural (its noun
//! exception list, or its own suffix rules leading to a noun lemma) and
//! not otherwise: it is no lemma of its own ("news", "glasses") and no verb
//! form ("bikes", and also "cats", since WordNet has the verb "to cat").
//! Words WordNet does not know are kept, and so are the words of other lists
//! that are not in `en-large`: the rule only removes what the data shows to
//! be a plural.
//!
//! [`Rule::NoPlurals`]: crate::rules::Rule::NoPlurals

use std::sync::OnceLock;

const TEXT: &str = include_str!("../../../data/wordsprout/plurals-en-large.txt");

/// The excluded plurals: sorted, distinct, lowercase a-z.
#[derive(Debug)]
pub struct Plurals {
    words: Vec<&'static str>,
}

impl Plurals {
    /// Whether `word` (lowercase) is an excluded plural.
    pub fn contains(&self, word: &str) -> bool {
        self.words.binary_search(&word).is_ok()
    }

    /// Number of excluded words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Never true for the embedded list.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The excluded words, ascending.
    pub fn words(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.words.iter().copied()
    }
}

/// The embedded list of excluded plurals (parsed once).
pub fn excluded() -> &'static Plurals {
    static LIST: OnceLock<Plurals> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut words: Vec<&'static str> = TEXT
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        words.sort_unstable();
        words.dedup();
        Plurals { words }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_s_examples() {
        let p = excluded();
        assert!(p.contains("tomatoes") && p.contains("apples") && p.contains("ideas"));
        // Justified otherwise: a verb form, a lemma of its own, not a plural at all.
        for w in ["bikes", "news", "glasses", "gas", "bus", "is", "always"] {
            assert!(!p.contains(w), "{w} should be allowed");
        }
        assert!(p.len() > 20_000);
    }
}
