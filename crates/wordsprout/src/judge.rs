//! The game's referee for words: which plays are valid under the active
//! string rules, and which goal words justify a string.
//!
//! A thin adapter over the analysis crate's language (the exact set of
//! valid strings under the string-shaping rules), shared through
//! [`parlor_core::Resources::derived`] so that every game and bot on one
//! host playing with the same word list, string rules, pot and vowels uses
//! one copy.

use crate::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_core::{ConfigError, ErrorKind, NoRoom, Resources};
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

/// What a language depends on, and nothing else: the string rules, the
/// pot only with tiles, the vowels only with a rule that tells vowels from
/// consonants. Settings that differ elsewhere share one language (a host
/// would otherwise build a new one, tens of megabytes, for every spelling
/// of an irrelevant setting).
fn effective(rules: &RuleSet, pot: &Pot, vowels: &Vowels) -> (RuleSet, Pot, Vowels) {
    let rules = rules.string_rules();
    let pot = if rules.has(Rule::Tiles) {
        *pot
    } else {
        Pot::default()
    };
    let vowel_rules = [
        Rule::VowelFill,
        Rule::VowelCap,
        Rule::ConsonantStart,
        Rule::NoFrontConsonant,
    ];
    let vowels = if vowel_rules.iter().any(|&r| rules.has(r)) {
        vowels.clone()
    } else {
        Vowels::default()
    };
    (rules, pot, vowels)
}

/// The key under which a language is shared in [`Resources`].
pub fn language_key(lexicon: &Lexicon, rules: &RuleSet, pot: &Pot, vowels: &Vowels) -> String {
    let (rules, pot, vowels) = effective(rules, pot, vowels);
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
        String::from(vowels)
    )
}

/// The longest word list `vowel-fill` is played on. Vowel fill makes
/// about twenty times the valid strings of the same list (`en`, 111,593
/// words: 16 million strings, about 1 GB and 40 s to build): past this
/// many words its strings would not fit a host's default bound for shared
/// data (256 MiB), and finding that out by building costs seconds of a
/// core per attempt (each rule set metamorphism may switch to is another).
pub const VOWEL_FILL_MAX_WORDS: usize = 20_000;

/// Why these rules are too costly on `lexicon`, before anything is built:
/// `vowel-fill` on a list longer than [`VOWEL_FILL_MAX_WORDS`].
pub fn too_costly(lexicon: &Lexicon, rules: &RuleSet) -> Option<ConfigError> {
    (rules.has(Rule::VowelFill) && lexicon.len() > VOWEL_FILL_MAX_WORDS).then(|| {
        ConfigError::new(format!(
            "vowel-fill is accepted on word lists of at most {VOWEL_FILL_MAX_WORDS} words \
             (it makes about twenty times the valid strings); word list {} has {}",
            lexicon.name(),
            lexicon.len()
        ))
    })
}

impl Judge {
    /// The judge for these rules, built once per host and key.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] when the valid strings of these rules would take
    /// more than the host keeps for shared data ([`Resources::derived_limit`]):
    /// kind `bad_setting`; or more than the room live games leave of it
    /// now: kind `busy`. The build stops as soon as it knows. Rules
    /// [`too_costly`] for the list are refused before any build.
    pub fn new(
        resources: &Resources,
        lexicon: &Lexicon,
        rules: &RuleSet,
        pot: &Pot,
        vowels: &Vowels,
    ) -> Result<Judge, ConfigError> {
        if let Some(refused) = too_costly(lexicon, rules) {
            return Err(refused);
        }
        let key = language_key(lexicon, rules, pot, vowels);
        let (string_rules, pot, vowels) = effective(rules, pot, vowels);
        let lang = resources
            .try_derived(&key, |max_bytes| {
                Language::new_within(lexicon, &string_rules, &pot, &vowels, max_bytes)
            })
            .map_err(|refused| {
                let mut what = vec![format!("word list {}", lexicon.name())];
                let names: Vec<&str> = string_rules.0.iter().map(|r| r.name()).collect();
                what.push(if names.is_empty() {
                    "the core rules".to_string()
                } else {
                    format!("rules {}", names.join(", "))
                });
                if string_rules.has(Rule::Tiles) {
                    what.push(format!("pot {pot}"));
                }
                if vowels != Vowels::default() {
                    what.push(format!("vowels {}", String::from(vowels.clone())));
                }
                match refused {
                    NoRoom::TooBig { limit } => ConfigError::new(format!(
                        "Word Sprout's valid strings for {} would take more than {}, the most \
                         this server keeps for data shared by games; accepted: rules and word \
                         lists whose strings fit (vowel-fill multiplies them by about twenty)",
                        what.join(", "),
                        parlor_core::human_bytes(limit)
                    )),
                    full @ (NoRoom::Full { .. } | NoRoom::Share { .. }) => ConfigError::with_kind(
                        ErrorKind::Busy,
                        format!(
                            "Word Sprout's valid strings for {} do not fit now: {full}; try \
                             again when games have ended, or choose rules that other games \
                             use already",
                            what.join(", ")
                        ),
                    ),
                }
            })?;
        Ok(Judge {
            lang,
            key,
            resources: resources.clone(),
        })
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

#[cfg(test)]
mod cost_tests {
    use super::*;

    /// Vowel fill on a full list is refused at once, with one line that
    /// says what is accepted; on a short list it is played.
    #[test]
    fn vowel_fill_on_a_long_list_is_refused_before_any_build() {
        let r = Resources::embedded();
        let en = Lexicon::embedded("en").unwrap();
        let rules = RuleSet(vec![Rule::VowelFill, Rule::OutOfTurn].into_iter().collect());
        let err = Judge::new(&r, &en, &rules, &Pot::STANDARD, &Vowels::default()).unwrap_err();
        assert_eq!(err.kind, parlor_core::ErrorKind::BadSetting);
        assert_eq!(
            err.message,
            "vowel-fill is accepted on word lists of at most 20000 words (it makes about \
             twenty times the valid strings); word list en has 111593"
        );
        assert_eq!(r.derived_count(), 0, "nothing was built");
        let (short, _) = Lexicon::from_words("t", ["oat", "tomato", "bombastic"]).unwrap();
        assert!(Judge::new(&r, &short, &rules, &Pot::STANDARD, &Vowels::default()).is_ok());
    }
}

#[cfg(test)]
mod key_tests {
    use super::*;

    fn judge(r: &Resources, lex: &Lexicon, rules: &[Rule], pot: &str, vowels: &str) -> Judge {
        let rules = RuleSet(rules.iter().copied().collect());
        let pot: Pot = pot.parse().unwrap();
        let vowels = Vowels::try_from(vowels.to_string()).unwrap();
        Judge::new(r, lex, &rules, &pot, &vowels).unwrap()
    }

    /// Settings that cannot change the language share one: a host is not
    /// made to build a new one for every spelling of the vowels.
    #[test]
    fn settings_that_change_nothing_share_one_language() {
        let r = Resources::embedded();
        let (lex, _) = Lexicon::from_words("t", ["oat", "tomato", "bombastic"]).unwrap();
        let a = judge(&r, &lex, &[Rule::Challenge], "a1 b1", "aeiou");
        let b = judge(&r, &lex, &[Rule::OutOfTurn], "a2 z9", "aeiouy");
        assert!(Arc::ptr_eq(a.language(), b.language()));
        assert_eq!(r.derived_count(), 1);
        // Vowels matter with vowel-cap, the pot with tiles.
        let c = judge(&r, &lex, &[Rule::VowelCap], "a1", "aeiouy");
        let d = judge(&r, &lex, &[Rule::VowelCap], "a1", "aeiou");
        assert!(!Arc::ptr_eq(c.language(), d.language()));
        let e = judge(&r, &lex, &[Rule::Tiles], "a1 b1", "aeiou");
        let f = judge(&r, &lex, &[Rule::Tiles], "a2 b1", "aeiou");
        assert!(!Arc::ptr_eq(e.language(), f.language()));
        assert_eq!(r.derived_count(), 5);
    }

    /// Settings whose valid strings would not fit the host's bound are
    /// refused with one line.
    #[test]
    fn settings_that_do_not_fit_are_refused() {
        use parlor_core::{ErrorKind, Game};
        let r = Resources::embedded().with_derived_limit(64 * 1024);
        let en = Lexicon::embedded("en").unwrap();
        let err = Judge::new(
            &r,
            &en,
            &RuleSet(vec![Rule::VowelCap, Rule::Challenge].into_iter().collect()),
            &Pot::STANDARD,
            &Vowels::try_from("aeiouy".to_string()).unwrap(),
        )
        .unwrap_err();
        assert_eq!(err.kind, ErrorKind::BadSetting);
        assert_eq!(
            err.message,
            "Word Sprout's valid strings for word list en, rules vowel-cap, vowels aeiouy \
             would take more than 64 KiB, the most this server keeps for data shared by games; \
             accepted: rules and word lists whose strings fit (vowel-fill multiplies them by \
             about twenty)"
        );
        assert!(!err.message.contains('\n'));
        // Through the game: the same refusal, as a config error.
        let config = crate::Config::default();
        let err = crate::WordSprout::new(&config, 1, &r).unwrap_err();
        assert_eq!(err.kind, ErrorKind::BadSetting);
        assert!(err.message.contains("would take more than 64 KiB"), "{err}");
        // A small list fits.
        let (lex, _) = Lexicon::from_words("t", ["oat", "tomato", "bombastic"]).unwrap();
        assert!(Judge::new(
            &r,
            &lex,
            &RuleSet::core(),
            &Pot::STANDARD,
            &Vowels::default()
        )
        .is_ok());
        assert!(r.derived_bytes() <= 64 * 1024);
    }
}
