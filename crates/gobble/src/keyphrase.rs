//! Keyphrases: four words from the EFF large diceware list that name a board.

use diceware_wordlists::EFF_LONG_WORDLIST;
use parlor_core::GameRng;
use std::fmt;
use std::str::FromStr;

/// Words in a keyphrase.
pub const KEYPHRASE_WORDS: usize = 4;

/// The EFF large word list (7,776 words) keyphrases draw from.
pub fn wordlist() -> &'static [&'static str] {
    &EFF_LONG_WORDLIST
}

/// Four EFF list words naming a board. Displayed (and normalised, as the
/// generator's seed) as the lowercase words joined by single spaces.
///
/// ```
/// use parlor_gobble::Keyphrase;
/// let k: Keyphrase = "Abacus-zoom  Yo-yo  EVOLVE".parse().unwrap();
/// assert_eq!(k.to_string(), "abacus zoom yo-yo evolve");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Keyphrase {
    words: [u16; KEYPHRASE_WORDS],
}

/// Why a keyphrase was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeyphraseError {
    /// A word not in the list, with the closest list words.
    #[error("{word:?} is not a keyphrase word; closest: {}", suggestions.join(", "))]
    UnknownWord {
        /// The word as written (lowercased).
        word: String,
        /// Closest list words (edit distance).
        suggestions: Vec<String>,
    },
    /// The wrong number of words.
    #[error("a keyphrase has {KEYPHRASE_WORDS} words from the EFF large list, separated by spaces or hyphens; found {found} in {text:?}")]
    WrongCount {
        /// The phrase as given.
        text: String,
        /// Words found.
        found: usize,
    },
    /// Longer than any keyphrase can be: refused before any other work.
    #[error("a keyphrase is at most {MAX_KEYPHRASE_LEN} characters (four words from the EFF large list); this one is longer")]
    TooLong {
        /// Its length in characters (counted up to the limit and a little past).
        found: usize,
    },
    /// Hyphens make two readings possible.
    #[error("keyphrase {text:?} can be read as {a:?} or {b:?}; separate its words with spaces")]
    Ambiguous {
        /// The phrase as given.
        text: String,
        /// One reading.
        a: String,
        /// Another reading.
        b: String,
    },
}

/// The longest keyphrase text accepted: four words of the list (at most
/// nine letters each) with generous room for spaces and hyphens. Anything
/// longer is refused before it is lowercased, split or compared, so the
/// work on a hostile phrase is bounded.
pub const MAX_KEYPHRASE_LEN: usize = 120;

/// Suggestions are looked for only for words up to this long: the edit
/// distance to 7,776 list words costs time in the word's length.
const MAX_SUGGESTED_LEN: usize = 24;

fn index_of(word: &str) -> Option<u16> {
    static INDEX: std::sync::OnceLock<std::collections::HashMap<&'static str, u16>> =
        std::sync::OnceLock::new();
    INDEX
        .get_or_init(|| {
            EFF_LONG_WORDLIST
                .iter()
                .enumerate()
                .map(|(i, w)| (*w, i as u16))
                .collect()
        })
        .get(word)
        .copied()
}

impl Keyphrase {
    /// The keyphrase of four list indices (`0..7776`).
    pub fn from_indices(words: [u16; KEYPHRASE_WORDS]) -> Self {
        assert!(words
            .iter()
            .all(|&w| (w as usize) < EFF_LONG_WORDLIST.len()));
        Keyphrase { words }
    }

    /// A fresh keyphrase: four independent uniform draws from the list.
    ///
    /// A game without a keyphrase in its config takes this one from its seed,
    /// so these draws are part of what a record replays.
    pub fn random(rng: &mut GameRng) -> Self {
        let mut words = [0u16; KEYPHRASE_WORDS];
        for w in &mut words {
            *w = rng.below(EFF_LONG_WORDLIST.len()) as u16;
        }
        Keyphrase { words }
    }

    /// The words.
    pub fn words(&self) -> [&'static str; KEYPHRASE_WORDS] {
        self.words.map(|i| EFF_LONG_WORDLIST[i as usize])
    }

    /// The list indices.
    pub fn indices(&self) -> [u16; KEYPHRASE_WORDS] {
        self.words
    }

    /// Parses a keyphrase: words separated by whitespace or hyphens, any case.
    /// The list's own hyphenated words (`yo-yo`, `t-shirt`, `drop-down`,
    /// `felt-tip`) are read whole where that gives four words.
    pub fn parse(text: &str) -> Result<Self, KeyphraseError> {
        let found = text.chars().take(MAX_KEYPHRASE_LEN + 1).count();
        if found > MAX_KEYPHRASE_LEN {
            return Err(KeyphraseError::TooLong { found });
        }
        let lower = text.to_lowercase();
        // Tokens split on whitespace; inside a token, parts split on '-'.
        let tokens: Vec<Vec<&str>> = lower
            .split_whitespace()
            .map(|t| t.split('-').filter(|p| !p.is_empty()).collect::<Vec<_>>())
            .filter(|t: &Vec<&str>| !t.is_empty())
            .collect();
        // Four words are at most eight hyphen-separated parts; refusing more
        // early also bounds the number of readings below.
        let parts: usize = tokens.iter().map(Vec::len).sum();
        if parts > 2 * KEYPHRASE_WORDS || parts == 0 {
            return Err(KeyphraseError::WrongCount {
                text: text.to_string(),
                found: parts,
            });
        }
        // All readings: within a token, a part may join the next one when the
        // joined word is in the list.
        let mut readings: Vec<Vec<String>> = vec![Vec::new()];
        for tok in &tokens {
            let mut next = Vec::new();
            for r in &readings {
                for split in token_readings(tok) {
                    let mut r2 = r.clone();
                    r2.extend(split);
                    if r2.len() <= KEYPHRASE_WORDS + 8 {
                        next.push(r2);
                    }
                }
            }
            readings = next;
            readings.truncate(64);
        }
        let valid: Vec<&Vec<String>> = readings
            .iter()
            .filter(|r| r.len() == KEYPHRASE_WORDS && r.iter().all(|w| index_of(w).is_some()))
            .collect();
        match valid.as_slice() {
            [one] => {
                let mut words = [0u16; KEYPHRASE_WORDS];
                for (slot, w) in words.iter_mut().zip(one.iter()) {
                    *slot = index_of(w).expect("checked");
                }
                Ok(Keyphrase { words })
            }
            [a, b, ..] => Err(KeyphraseError::Ambiguous {
                text: text.to_string(),
                a: a.join(" "),
                b: b.join(" "),
            }),
            [] => {
                // Name the first unknown word of the most joined reading.
                let first = &readings[0];
                if let Some(bad) = first.iter().find(|w| index_of(w).is_none()) {
                    return Err(KeyphraseError::UnknownWord {
                        word: bad.clone(),
                        suggestions: closest(bad, 3),
                    });
                }
                Err(KeyphraseError::WrongCount {
                    text: text.to_string(),
                    found: first.len(),
                })
            }
        }
    }

    /// The normalised form: lowercase list words joined by single spaces.
    /// This exact string seeds the board generator.
    pub fn normalised(&self) -> String {
        self.words().join(" ")
    }
}

/// The readings of one hyphen-split token, most joined first.
fn token_readings(parts: &[&str]) -> Vec<Vec<String>> {
    if parts.is_empty() {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    if parts.len() >= 2 {
        let joined = format!("{}-{}", parts[0], parts[1]);
        if index_of(&joined).is_some() {
            for rest in token_readings(&parts[2..]) {
                let mut r = vec![joined.clone()];
                r.extend(rest);
                out.push(r);
            }
        }
    }
    for rest in token_readings(&parts[1..]) {
        let mut r = vec![parts[0].to_string()];
        r.extend(rest);
        out.push(r);
    }
    out
}

/// The `n` list words closest to `word` by edit distance (ties in list order).
///
/// Empty for a word longer than any list word could be mistyped into.
pub fn closest(word: &str, n: usize) -> Vec<String> {
    if word.chars().count() > MAX_SUGGESTED_LEN {
        return Vec::new();
    }
    let mut scored: Vec<(usize, usize, &str)> = EFF_LONG_WORDLIST
        .iter()
        .enumerate()
        .map(|(i, w)| (levenshtein(word, w), i, *w))
        .collect();
    scored.sort_unstable();
    scored
        .into_iter()
        .take(n)
        .map(|(_, _, w)| w.to_string())
        .collect()
}

fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let sub = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

impl fmt::Display for Keyphrase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.normalised())
    }
}

impl FromStr for Keyphrase {
    type Err = KeyphraseError;
    fn from_str(s: &str) -> Result<Self, KeyphraseError> {
        Keyphrase::parse(s)
    }
}

impl serde::Serialize for Keyphrase {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.normalised())
    }
}

impl<'de> serde::Deserialize<'de> for Keyphrase {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Keyphrase::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A hostile phrase is refused before any work: no lowercasing of
    /// 60,000 characters, no edit distance against the list.
    #[test]
    fn long_phrases_are_refused_up_front() {
        let long = "a".repeat(60_000);
        assert!(matches!(
            Keyphrase::parse(&long),
            Err(KeyphraseError::TooLong { .. })
        ));
        let e = Keyphrase::parse(&format!("{} b c", "x".repeat(100))).unwrap_err();
        assert!(e.to_string().contains("is not a keyphrase word"), "{e}");
        assert!(closest(&"x".repeat(100), 3).is_empty());
        assert!(Keyphrase::parse(&"abacus ".repeat(17)).is_err());
        let fits = format!("abacus{}abdomen abdominal abide", " ".repeat(80));
        assert!(Keyphrase::parse(&fits).is_ok());
    }

    #[test]
    fn list_is_sorted_and_complete() {
        assert_eq!(EFF_LONG_WORDLIST.len(), 7776);
        for (i, w) in EFF_LONG_WORDLIST.iter().enumerate() {
            assert_eq!(index_of(w), Some(i as u16), "{w} appears once");
        }
    }

    #[test]
    fn random_keyphrases_of_old_records_stay() {
        // Printed by `Keyphrase::random` over rand 0.8.8's `gen_range`. Games
        // recorded without a keyphrase take their board from these, so they
        // must stay whatever draws the indices.
        #[rustfmt::skip]
        let cases: [(u64, [u16; 4], &str); 7] = [
            (0, [5513, 3623, 5436, 467], "roulette language reword bakeshop"),
            (1, [3129, 625, 4638, 1705], "handwash bootie phrase depict"),
            (7, [1227, 1306, 5476, 5651], "condense corned ritalin scallop"),
            (42, [5302, 7389, 3324, 4878], "repayment uphold hypocrisy profile"),
            (2024, [1298, 7639, 5332, 7059], "copper wifi reputably underling"),
            (0xdead_beef, [7745, 4508, 45, 1960], "yin party activator dragonish"),
            (u64::MAX, [5319, 2961, 3365, 5119], "reprise gradually immorally reboot"),
        ];
        for (seed, indices, text) in cases {
            let k = Keyphrase::random(&mut GameRng::from_seed(seed));
            assert_eq!(k.indices(), indices, "seed {seed}");
            assert_eq!(k.normalised(), text, "seed {seed}");
        }
    }

    #[test]
    fn parse_forms() {
        let k = Keyphrase::parse("abacus abdomen abide zoom").unwrap();
        assert_eq!(Keyphrase::parse("ABACUS-abdomen-Abide   zoom").unwrap(), k);
        assert_eq!(k.normalised(), "abacus abdomen abide zoom");
        let y = Keyphrase::parse("yo-yo t-shirt abacus zoom").unwrap();
        assert_eq!(y.words(), ["yo-yo", "t-shirt", "abacus", "zoom"]);
    }

    #[test]
    fn errors_name_the_word() {
        match Keyphrase::parse("abacus abdomen abidee zoom") {
            Err(KeyphraseError::UnknownWord { word, suggestions }) => {
                assert_eq!(word, "abidee");
                assert!(suggestions.contains(&"abide".to_string()));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            Keyphrase::parse("abacus zoom"),
            Err(KeyphraseError::WrongCount { found: 2, .. })
        ));
        assert!(Keyphrase::parse("").is_err());
        let long = vec!["yo"; 30].join("-");
        assert!(matches!(
            Keyphrase::parse(&long),
            Err(KeyphraseError::WrongCount { found: 30, .. })
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn display_parses_back(a in 0u16..7776, b in 0u16..7776, c in 0u16..7776, d in 0u16..7776) {
            let k = Keyphrase::from_indices([a, b, c, d]);
            prop_assert_eq!(Keyphrase::parse(&k.to_string()).unwrap(), k);
        }

        #[test]
        fn arbitrary_text_never_panics(s in "\\PC{0,60}") {
            let _ = Keyphrase::parse(&s);
        }
    }
}
