//! The language of a table: which strings may stand at the end of a turn,
//! which words are valid goal words, and which plays are legal.
//!
//! Only the rules that shape strings ([`Rule::shapes_strings`]) matter here:
//! tiles, the eight "valid strings" rules. Everything else (challenges,
//! play order, vowel collections, teams, metamorphism, 2-D) changes how a
//! table plays, not which strings are valid, and is ignored.
//!
//! # Definitions
//!
//! * **Static goal words** `G0`: the words of the lexicon that the pot can
//!   spell (with [`Rule::Tiles`]) and that are not excluded plurals (with
//!   [`Rule::NoPlurals`], see [`crate::plurals`]).
//! * **Justified strings** `J(G)` for a set of goal words `G`: every
//!   substring of a word of `G` (core rules); only the words themselves
//!   ([`Rule::WholeWords`]); every string that becomes a substring of a word
//!   of `G` by adding vowels anywhere ([`Rule::VowelFill`]); with both,
//!   every string that becomes a whole word of `G` by adding vowels.
//! * **String conditions** (on the string alone): with
//!   [`Rule::ConsonantStart`] a string of three letters or fewer has no
//!   vowel (the first three letters played are exactly the letters of the
//!   string of length 3); with [`Rule::VowelCap`] no string has more vowels
//!   than consonants.
//! * **Valid strings** `V(G)`: the empty string (the start) and the
//!   justified strings that meet the string conditions.
//! * **Legal moves** from `s`: insert one letter anywhere; the result must
//!   be valid. With [`Rule::NoFrontConsonant`], once `s` has three letters or
//!   more, a consonant may not be inserted before the first letter (an
//!   insertion that gives the same string at another place is legal: `bcd`
//!   to `bbcd` puts the `b` second). With [`Rule::PalindromeLock`], `s` is
//!   *locked* when it has at least three letters and is a palindrome (before
//!   the lock one letter is played a turn, so the string at the end of the
//!   third turn has three letters); from a locked string every result must
//!   be a palindrome, and one or two letters may be inserted.
//! * **Reachable strings** `R(G)`: the valid strings reached from `""` by
//!   legal moves.
//! * **Goal words**: the greatest fixpoint of `G ← G ∩ R(G)` from `G0` (a
//!   word is kept only if the string of the word itself is reachable when
//!   only the words kept so far justify strings). With
//!   [`Rule::UnreachableGoals`], `G = G0`. When no rule restricts moves or
//!   strings (only tiles, no-plurals, vowel-fill are on), every valid string
//!   is reachable by appending its letters one by one (each prefix of a
//!   justified string is justified), so `G = G0` at once.
//!
//! # Example
//!
//! ```
//! use parlor_lexicon::Lexicon;
//! use parlor_wordsprout::language::Language;
//! use parlor_wordsprout::rules::{Pot, RuleSet, Vowels};
//!
//! let (lex, _) = Lexicon::from_words("t", ["tomato", "aromatic"]).unwrap();
//! let lang = Language::new(&lex, &RuleSet::core(), &Pot::STANDARD, &Vowels::default());
//! assert!(lang.is_valid("omat") && !lang.is_valid("tot"));
//! assert_eq!(lang.goal_words("omat"), ["aromatic", "tomato"]);
//! assert!(lang.is_legal_move("oat", "omat"));
//! ```

pub(crate) mod table;

use crate::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_lexicon::Lexicon;
use std::sync::{Arc, OnceLock};
pub(crate) use table::{Level, REACH, VALID};

/// One legal play from a string.
///
/// `position` is the gap of the original string where `letter` goes: 0 is
/// before its first letter, `len` after its last. For a two-letter play
/// (palindrome lock) `second` is `(gap, letter)` of the other letter, again a
/// gap of the ORIGINAL string, with `position <= gap`; when both go into the
/// same gap, `letter` comes first. So the result is
/// `s[..p] + letter + s[p..q] + second_letter + s[q..]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Move {
    /// Gap of the original string receiving `letter` (0..=len).
    pub position: usize,
    /// The letter played, a-z.
    pub letter: char,
    /// The second letter of a two-letter play: its gap in the original string and the letter.
    pub second: Option<(usize, char)>,
    /// The string after the play.
    pub result: String,
}

/// Rule switches read once.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flags {
    pub(crate) whole_words: bool,
    pub(crate) vowel_fill: bool,
    pub(crate) consonant_start: bool,
    pub(crate) vowel_cap: bool,
    pub(crate) no_front: bool,
    pub(crate) pal_lock: bool,
    pub(crate) unreachable_goals: bool,
    pub(crate) vowels: u32,
}

impl Flags {
    #[inline]
    pub(crate) fn vowel(&self, c: u8) -> bool {
        self.vowels & (1 << (c - b'a')) != 0
    }

    /// Whether some rule can make a justified string unreachable.
    pub(crate) fn restricts(&self) -> bool {
        self.whole_words || self.consonant_start || self.vowel_cap || self.no_front || self.pal_lock
    }

    /// The string conditions.
    #[inline]
    pub(crate) fn string_ok(&self, s: &[u8]) -> bool {
        if self.consonant_start && s.len() <= 3 && s.iter().any(|&c| self.vowel(c)) {
            return false;
        }
        if self.vowel_cap && 2 * s.iter().filter(|&&c| self.vowel(c)).count() > s.len() {
            return false;
        }
        true
    }

    /// Whether `s` is locked by the palindrome rule.
    #[inline]
    pub(crate) fn locked(&self, s: &[u8]) -> bool {
        self.pal_lock && s.len() >= 3 && is_palindrome(s)
    }

    /// Whether inserting `letter` into gap `gap` of a string of `from_len`
    /// letters is forbidden by no-front-consonant.
    #[inline]
    pub(crate) fn front_forbidden(&self, from_len: usize, gap: usize, letter: u8) -> bool {
        self.no_front && from_len >= 3 && gap == 0 && !self.vowel(letter)
    }

    /// Calls `f(parent, legal)` for every string `s` one deletion away from
    /// `t`, where `legal` tells whether some insertion realising `s -> t` is
    /// a legal move shape (validity of `s` and `t` is the caller's). Within a
    /// run of equal letters only the first deletion is reported (they give
    /// the same parent), with legality over the whole run.
    #[inline]
    pub(crate) fn parents1(&self, t: &[u8], buf: &mut [u8], mut f: impl FnMut(&[u8], bool)) {
        let n = t.len();
        let t_pal = !self.pal_lock || is_palindrome(t);
        for i in 0..n {
            if i > 0 && t[i] == t[i - 1] {
                continue;
            }
            buf[..i].copy_from_slice(&t[..i]);
            buf[i..n - 1].copy_from_slice(&t[i + 1..]);
            let s = &buf[..n - 1];
            let mut legal = true;
            if !t_pal && self.locked(s) {
                legal = false;
            }
            if i == 0 && self.front_forbidden(n - 1, 0, t[0]) && !(n >= 2 && t[1] == t[0]) {
                legal = false;
            }
            f(s, legal);
        }
    }

    /// Calls `f(parent)` for every locked `s` two deletions away from `t`
    /// by a legal two-letter play (palindrome lock only); a parent may be
    /// reported more than once.
    #[inline]
    pub(crate) fn parents2(&self, t: &[u8], buf: &mut [u8], mut f: impl FnMut(&[u8])) {
        let n = t.len();
        if !self.pal_lock || n < 5 || !is_palindrome(t) {
            return;
        }
        for i in 0..n {
            for j in i + 1..n {
                // Letter t[i] goes into gap i of s, t[j] into gap j - 1.
                if self.front_forbidden(n - 2, i, t[i]) || self.front_forbidden(n - 2, j - 1, t[j])
                {
                    continue;
                }
                let mut k = 0;
                for (x, &c) in t.iter().enumerate() {
                    if x != i && x != j {
                        buf[k] = c;
                        k += 1;
                    }
                }
                let s = &buf[..n - 2];
                if self.locked(s) {
                    f(s);
                }
            }
        }
    }
}

/// Whether `s` reads the same both ways.
pub(crate) fn is_palindrome(s: &[u8]) -> bool {
    s.iter().eq(s.iter().rev())
}

/// All valid strings by length, with reachability.
pub(crate) struct Levels {
    pub(crate) levels: Vec<Level>,
}

impl Levels {
    #[inline]
    pub(crate) fn flags(&self, s: &[u8]) -> u8 {
        match self.levels.get(s.len()) {
            Some(l) => l.find(s).map_or(0, |slot| l.flags[slot]),
            None => 0,
        }
    }
}

/// The valid strings, goal words and legal moves of a table.
///
/// Built once per lexicon, string rules, pot and vowels (see the module
/// documentation for the definitions); `Send + Sync`, cheap to share behind
/// an `Arc`. Every valid string is held in a compact hash set, so that
/// [`is_valid`](Language::is_valid) is one lookup and the solver walks the
/// same sets.
///
/// Cost (release build): under the core rules, about 60 ms and 25 MB for
/// `en`, 130 ms and 55 MB for `en-large`. Restricting rules add one
/// reachability pass per fixpoint round (under a second or two on
/// `en-large`); `vowel-fill` multiplies the valid strings by twenty or so
/// (16 million for `en`, over a gigabyte). For a handful of queries, use
/// [`new_lazy`](Language::new_lazy).
///
/// Strings given to its methods are case-insensitive ASCII letters; a
/// string with anything else is simply not valid.
pub struct Language {
    rules: RuleSet,
    pot: Pot,
    vowels: Vowels,
    pub(crate) flags: Flags,
    /// The word list, whose suffix array answers "which words contain s"
    /// in time proportional to the answer (a clone shares the list).
    lexicon: Lexicon,
    /// Goal words, ascending, each followed by `\n`.
    goal_text: String,
    /// Start of each goal word in `goal_text`, plus its length at the end.
    goal_starts: Vec<u32>,
    static_goals: usize,
    rounds: usize,
    /// Every valid string; built at once by [`Language::new`], on first
    /// need by [`Language::new_lazy`].
    full: OnceLock<Arc<Levels>>,
    /// For a lazy language, single lengths built on demand for queries.
    lazy: Option<Vec<OnceLock<Level>>>,
}

impl std::fmt::Debug for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Language")
            .field("rules", &self.rules)
            .field("goal_words", &self.goal_count())
            .field(
                "valid_strings",
                &self.full.get().map(|_| self.valid_count()),
            )
            .finish()
    }
}

impl parlor_core::Derived for Language {
    /// [`heap_size`](Language::heap_size) (the word list is shared, not counted).
    fn bytes(&self) -> usize {
        std::mem::size_of::<Language>() + self.heap_size()
    }
}

/// Lowercases `s` into a byte vector if it is ASCII letters only.
pub(crate) fn normalise(s: &str) -> Option<Vec<u8>> {
    if s.bytes().all(|b| b.is_ascii_alphabetic()) {
        Some(s.bytes().map(|b| b.to_ascii_lowercase()).collect())
    } else {
        None
    }
}

impl Language {
    /// Builds the language of `lexicon` under the string-shaping rules of
    /// `rules` (the others are ignored); `pot` matters only with
    /// [`Rule::Tiles`].
    pub fn new(lexicon: &Lexicon, rules: &RuleSet, pot: &Pot, vowels: &Vowels) -> Language {
        Language::build(lexicon, rules, pot, vowels, false, usize::MAX).expect("no bound on bytes")
    }

    /// Like [`new`](Language::new), but gives up (`None`) as soon as the
    /// valid strings take more than `max_bytes` (as [`heap_size`]
    /// counts them, checked after each length is built): a host that
    /// keeps at most so many bytes learns that these settings do not fit
    /// without paying for the whole build.
    ///
    /// [`heap_size`]: Language::heap_size
    pub fn new_within(
        lexicon: &Lexicon,
        rules: &RuleSet,
        pot: &Pot,
        vowels: &Vowels,
        max_bytes: usize,
    ) -> Option<Language> {
        Language::build(lexicon, rules, pot, vowels, false, max_bytes)
            .filter(|l| l.heap_size() <= max_bytes)
    }

    /// Like [`new`](Language::new), but when no rule restricts strings or
    /// plays (so that no fixpoint is needed: only tiles, no-plurals,
    /// vowel-fill, unreachable-goals) the valid strings are built only when
    /// first needed: a query about strings of one length builds that length
    /// alone, and solving or counting builds everything. Cheaper for a few
    /// queries (the helper: one length), dearer for many; answers are the
    /// same. With a restricting rule this is [`new`](Language::new).
    pub fn new_lazy(lexicon: &Lexicon, rules: &RuleSet, pot: &Pot, vowels: &Vowels) -> Language {
        Language::build(lexicon, rules, pot, vowels, true, usize::MAX).expect("no bound on bytes")
    }

    /// `None` once the valid strings take more than `max_bytes`.
    fn build(
        lexicon: &Lexicon,
        rules: &RuleSet,
        pot: &Pot,
        vowels: &Vowels,
        lazy: bool,
        max_bytes: usize,
    ) -> Option<Language> {
        let rules = rules.string_rules();
        let flags = Flags {
            whole_words: rules.has(Rule::WholeWords),
            vowel_fill: rules.has(Rule::VowelFill),
            consonant_start: rules.has(Rule::ConsonantStart),
            vowel_cap: rules.has(Rule::VowelCap),
            no_front: rules.has(Rule::NoFrontConsonant),
            pal_lock: rules.has(Rule::PalindromeLock),
            unreachable_goals: rules.has(Rule::UnreachableGoals),
            vowels: vowels.letters().iter().fold(0, |m, &c| m | 1 << (c - b'a')),
        };
        let tiles = rules.has(Rule::Tiles);
        let no_plurals = rules.has(Rule::NoPlurals);
        let plurals = if no_plurals {
            Some(crate::plurals::excluded())
        } else {
            None
        };
        let mut goals: Vec<&[u8]> = lexicon
            .words()
            .filter(|w| !tiles || pot.can_spell(w.as_bytes()))
            .filter(|w| !plurals.is_some_and(|p| p.contains(w)))
            .map(str::as_bytes)
            .collect();
        let static_goals = goals.len();
        let lazy = lazy && !flags.restricts();
        let mut rounds = 0;
        let levels = if lazy {
            None
        } else {
            Some(loop {
                rounds += 1;
                let mut levels = build_levels(&goals, &flags, max_bytes)?;
                if !flags.restricts() {
                    for level in &mut levels {
                        for f in &mut level.flags {
                            if *f & VALID != 0 {
                                *f |= REACH;
                            }
                        }
                    }
                    break levels;
                }
                mark_reachable(&mut levels, &flags);
                if flags.unreachable_goals {
                    break levels;
                }
                let kept: Vec<&[u8]> = goals
                    .iter()
                    .copied()
                    .filter(|w| {
                        levels
                            .get(w.len())
                            .and_then(|l| l.find(w).map(|slot| l.flags[slot] & REACH != 0))
                            .unwrap_or(false)
                    })
                    .collect();
                if kept.len() == goals.len() {
                    break levels;
                }
                goals = kept;
            })
        };
        let mut goal_text = String::with_capacity(goals.iter().map(|w| w.len() + 1).sum());
        let mut goal_starts = Vec::with_capacity(goals.len() + 1);
        for w in &goals {
            goal_starts.push(goal_text.len() as u32);
            goal_text.push_str(std::str::from_utf8(w).expect("a-z"));
            goal_text.push('\n');
        }
        goal_starts.push(goal_text.len() as u32);
        let max = goals.iter().map(|w| w.len()).max().unwrap_or(0);
        let full = OnceLock::new();
        if let Some(levels) = levels {
            let _ = full.set(Arc::new(Levels { levels }));
        }
        Some(Language {
            rules,
            pot: *pot,
            vowels: vowels.clone(),
            flags,
            lexicon: lexicon.clone(),
            goal_text,
            goal_starts,
            static_goals,
            rounds: rounds.max(1),
            full,
            lazy: lazy.then(|| (0..=max).map(|_| OnceLock::new()).collect()),
        })
    }

    fn goal_slices(&self) -> Vec<&[u8]> {
        self.goals().map(str::as_bytes).collect()
    }

    /// Every valid string (built now if this language is lazy).
    pub(crate) fn levels(&self) -> &Arc<Levels> {
        self.full.get_or_init(|| {
            // Only lazy languages get here: no rule restricts, all valid
            // strings are reachable.
            let mut levels =
                build_levels(&self.goal_slices(), &self.flags, usize::MAX).expect("no bound");
            for level in &mut levels {
                for f in &mut level.flags {
                    if *f & VALID != 0 {
                        *f |= REACH;
                    }
                }
            }
            Arc::new(Levels { levels })
        })
    }

    /// The valid strings of one length, without building the others if
    /// this language is lazy and they are not built yet.
    pub(crate) fn level(&self, len: usize) -> Option<&Level> {
        if let Some(full) = self.full.get() {
            return full.levels.get(len);
        }
        match &self.lazy {
            None => self.levels().levels.get(len),
            Some(lazy) => {
                let cell = lazy.get(len)?;
                Some(cell.get_or_init(|| one_level(&self.goal_slices(), len, &self.flags)))
            }
        }
    }

    fn flags_of(&self, s: &[u8]) -> u8 {
        match self.level(s.len()) {
            Some(l) => l.find(s).map_or(0, |slot| l.flags[slot]),
            None => 0,
        }
    }

    /// The string-shaping rules in force (the others were dropped).
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The pot (meaningful only with [`Rule::Tiles`]).
    pub fn pot(&self) -> &Pot {
        &self.pot
    }

    /// The vowels.
    pub fn vowels(&self) -> &Vowels {
        &self.vowels
    }

    /// Number of goal words.
    pub fn goal_count(&self) -> usize {
        self.goal_starts.len() - 1
    }

    /// Number of words passing the static filters (tiles, no-plurals),
    /// before reachability removed any.
    pub fn static_goal_count(&self) -> usize {
        self.static_goals
    }

    /// How many times the valid strings were computed before the goal
    /// words stopped changing (1 when nothing needed removing).
    pub fn fixpoint_rounds(&self) -> usize {
        self.rounds
    }

    fn goal(&self, i: usize) -> &str {
        &self.goal_text[self.goal_starts[i] as usize..self.goal_starts[i + 1] as usize - 1]
    }

    /// The goal words, ascending.
    pub fn goals(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.goal_count()).map(move |i| self.goal(i))
    }

    /// Number of valid strings, counting the empty start.
    pub fn valid_count(&self) -> usize {
        self.levels()
            .levels
            .iter()
            .map(|l| l.flags.iter().filter(|&&f| f & VALID != 0).count())
            .sum()
    }

    /// Number of valid strings reachable from the empty string by legal
    /// moves, counting the empty start: the positions of the game.
    pub fn reachable_count(&self) -> usize {
        self.levels()
            .levels
            .iter()
            .map(|l| l.flags.iter().filter(|&&f| f & REACH != 0).count())
            .sum()
    }

    /// Approximate heap bytes held by the valid-string sets (built now if
    /// this language is lazy) and the goal words.
    pub fn heap_size(&self) -> usize {
        self.levels()
            .levels
            .iter()
            .map(Level::heap_size)
            .sum::<usize>()
            + self.goal_text.capacity()
            + 4 * self.goal_starts.capacity()
    }

    /// Whether `s` may stand at the end of a turn: it is the empty start, or
    /// it is justified by a goal word and meets the string conditions. (It
    /// need not be reachable: after a bluff the table may stand anywhere.)
    pub fn is_valid(&self, s: &str) -> bool {
        normalise(s).is_some_and(|s| self.flags_of(&s) & VALID != 0)
    }

    /// Whether `s` is valid and reachable from the empty string by legal moves.
    pub fn is_reachable(&self, s: &str) -> bool {
        normalise(s).is_some_and(|s| self.flags_of(&s) & REACH != 0)
    }

    /// Whether `s` is locked by the palindrome rule (rule on, at least three
    /// letters, a palindrome): every later string must be a palindrome and
    /// one or two letters may be played.
    pub fn is_locked(&self, s: &str) -> bool {
        normalise(s).is_some_and(|s| self.flags.locked(&s))
    }

    /// Whether `w` is a valid goal word (static filters, and unless
    /// unreachable-goals, reachable).
    pub fn is_goal_word(&self, w: &str) -> bool {
        let Some(w) = normalise(w) else { return false };
        let w = std::str::from_utf8(&w).expect("ascii");
        let (mut lo, mut hi) = (0, self.goal_count());
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.goal(mid).cmp(w) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Equal => return true,
                std::cmp::Ordering::Greater => hi = mid,
            }
        }
        false
    }

    /// The valid goal words that justify `s`, ascending: those containing it
    /// (under whole-words: equal to it; under vowel-fill: containing it, or
    /// equal to it, once vowels are added). Empty when `s` is not letters.
    /// This does not check the string conditions: for an invalid `s` it says
    /// which words would have justified it.
    pub fn goal_words(&self, s: &str) -> Vec<&str> {
        let Some(s) = normalise(s) else {
            return Vec::new();
        };
        let f = &self.flags;
        if s.is_empty() {
            return self.goals().collect();
        }
        match (f.whole_words, f.vowel_fill) {
            (true, false) => {
                let s = std::str::from_utf8(&s).expect("ascii");
                self.goals().filter(|w| *w == s).collect()
            }
            (false, false) => {
                // The list's suffix array finds the words containing s
                // without reading the whole list (bots and the referee ask
                // this for every play); goal words are those of them that
                // survived tiles, plurals and reachability.
                let needle = std::str::from_utf8(&s).expect("ascii");
                let words = self.lexicon.words_containing(needle);
                if self.goal_count() == self.lexicon.len() {
                    words
                } else {
                    words.into_iter().filter(|w| self.is_goal_word(w)).collect()
                }
            }
            (whole, true) => self
                .goals()
                .filter(|w| vowel_fill_match(&s, w.as_bytes(), whole, f))
                .collect(),
        }
    }

    /// How many valid goal words justify `s`: the length of
    /// [`Language::goal_words`], without listing them where the list's
    /// substring index can count them (no rule removes goal words, no
    /// whole-words, no vowel-fill) — the bots ask this for every play they
    /// weigh.
    pub fn goal_word_count(&self, s: &str) -> usize {
        let f = &self.flags;
        if !f.whole_words && !f.vowel_fill && self.goal_count() == self.lexicon.len() {
            match normalise(s) {
                Some(s) => self
                    .lexicon
                    .count_words_containing(std::str::from_utf8(&s).expect("ascii")),
                None => 0,
            }
        } else {
            self.goal_words(s).len()
        }
    }

    /// The legal plays from `s`, one per distinct result (the one with the
    /// smallest `(position, letter, second)`, so the leftmost insertion),
    /// sorted by that key (`None` before `Some`: with the same first letter
    /// a one-letter play comes first). `s` need not be valid itself
    /// (after a bluff); it must be letters, else there is no play.
    pub fn moves(&self, s: &str) -> Vec<Move> {
        let Some(s) = normalise(s) else {
            return Vec::new();
        };
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        each_child(
            &|len| self.level(len),
            &self.flags,
            &s,
            |p, c, second, t, _| {
                if seen.insert(t.to_vec()) {
                    out.push(Move {
                        position: p,
                        letter: c as char,
                        second: second.map(|(q, c2)| (q, c2 as char)),
                        result: String::from_utf8(t.to_vec()).expect("ascii"),
                    });
                }
                true
            },
        );
        out
    }

    /// Whether some legal play turns `from` into `to` and `to` is valid.
    /// `from` need not be valid (after a bluff).
    pub fn is_legal_move(&self, from: &str, to: &str) -> bool {
        let (Some(s), Some(t)) = (normalise(from), normalise(to)) else {
            return false;
        };
        if self.flags_of(&t) & VALID == 0 {
            return false;
        }
        let f = &self.flags;
        let n = s.len();
        if t.len() == n + 1 {
            if f.locked(&s) && !is_palindrome(&t) {
                return false;
            }
            (0..t.len())
                .any(|i| t[..i] == s[..i] && t[i + 1..] == s[i..] && !f.front_forbidden(n, i, t[i]))
        } else if t.len() == n + 2 && f.locked(&s) && is_palindrome(&t) {
            (0..t.len()).any(|i| {
                (i + 1..t.len()).any(|j| {
                    t[..i] == s[..i]
                        && t[i + 1..j] == s[i..j - 1]
                        && t[j + 1..] == s[j - 1..]
                        && !f.front_forbidden(n, i, t[i])
                        && !f.front_forbidden(n, j - 1, t[j])
                })
            })
        } else {
            false
        }
    }

    /// Structural check only: `to` is `from` with between 1 and
    /// `max_letters` letters inserted (`from` is a subsequence of `to`).
    /// Case-insensitive; used to accept bluffs, which need not be valid.
    pub fn is_insertion(from: &str, to: &str, max_letters: usize) -> bool {
        let (Some(s), Some(t)) = (normalise(from), normalise(to)) else {
            return false;
        };
        if t.len() <= s.len() || t.len() - s.len() > max_letters {
            return false;
        }
        let mut it = t.iter();
        s.iter().all(|c| it.any(|d| d == c))
    }
}

/// Calls `f(position, letter, second, result, slot)` for every legal play
/// from `s` whose result is valid, in the order of [`Move`]s: by position,
/// then letter, then (two-letter plays, locked strings only) second gap and
/// letter, one-letter play first. A result reached by several plays is
/// reported each time. `f` returns false to stop.
pub(crate) fn each_child<'a>(
    level: &dyn Fn(usize) -> Option<&'a Level>,
    f: &Flags,
    s: &[u8],
    mut cb: impl FnMut(usize, u8, Option<(usize, u8)>, &[u8], usize) -> bool,
) {
    let n = s.len();
    let locked = f.locked(s);
    let mut t = Vec::with_capacity(n + 2);
    let Some(l1) = level(n + 1) else { return };
    let l2 = if locked { level(n + 2) } else { None };
    for p in 0..=n {
        for c in b'a'..=b'z' {
            if f.front_forbidden(n, p, c) {
                continue;
            }
            t.clear();
            t.extend_from_slice(&s[..p]);
            t.push(c);
            t.extend_from_slice(&s[p..]);
            if !locked || is_palindrome(&t) {
                if let Some(slot) = l1.find(&t) {
                    if l1.flags[slot] & VALID != 0 && !cb(p, c, None, &t, slot) {
                        return;
                    }
                }
            }
            // Two-letter plays from a locked string: `c` at gap p, the second
            // letter at gap q >= p of the original string. The result must be
            // a palindrome; trying all 26 second letters keeps this exact.
            let Some(l2) = l2.filter(|_| locked) else {
                continue;
            };
            for q in p..=n {
                for c2 in b'a'..=b'z' {
                    if f.front_forbidden(n, q, c2) {
                        continue;
                    }
                    t.clear();
                    t.extend_from_slice(&s[..p]);
                    t.push(c);
                    t.extend_from_slice(&s[p..q]);
                    t.push(c2);
                    t.extend_from_slice(&s[q..]);
                    if !is_palindrome(&t) {
                        continue;
                    }
                    if let Some(slot) = l2.find(&t) {
                        if l2.flags[slot] & VALID != 0 && !cb(p, c, Some((q, c2)), &t, slot) {
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// Whether adding vowels to `s` makes it a substring of `w` (or, `whole`,
/// `w` itself). Greedy matching is exact here: matching each letter at the
/// earliest place leaves only vowels behind whenever a later place would.
pub(crate) fn vowel_fill_match(s: &[u8], w: &[u8], whole: bool, f: &Flags) -> bool {
    if s.len() > w.len() {
        return false;
    }
    let starts: Box<dyn Iterator<Item = usize>> = if whole {
        // The skipped letters before the first must all be vowels.
        Box::new((0..w.len()).take_while(move |&p| p == 0 || f.vowel(w[p - 1])))
    } else {
        Box::new(0..w.len())
    };
    'start: for p in starts {
        if w[p] != s[0] {
            continue;
        }
        let mut q = p + 1;
        for &c in &s[1..] {
            loop {
                if q >= w.len() {
                    continue 'start;
                }
                if w[q] == c {
                    q += 1;
                    break;
                }
                if !f.vowel(w[q]) {
                    continue 'start;
                }
                q += 1;
            }
        }
        if !whole || w[q..].iter().all(|&c| f.vowel(c)) {
            return true;
        }
    }
    false
}

/// The valid strings for goal words `goals` (sorted), unsealed reachability.
/// `None` as soon as the levels built take more than `max_bytes` (their
/// flags, a byte a slot, counted before they are made).
fn build_levels(goals: &[&[u8]], f: &Flags, max_bytes: usize) -> Option<Vec<Level>> {
    let max = goals.iter().map(|w| w.len()).max().unwrap_or(0);
    // Longest first: the words of each length, then what one deletion makes
    // of every justified string one letter longer: its prefix and suffix
    // (unless whole words), each string without one of its vowels (vowel
    // fill). Every justified string shorter than its word is one of these:
    // put back one letter it lacks (the one just outside it, or a dropped
    // vowel) and the result is justified too.
    let mut by_len: Vec<Vec<&[u8]>> = vec![Vec::new(); max + 1];
    for &w in goals {
        by_len[w.len()].push(w);
    }
    let ends = !f.whole_words;
    let vowels = if f.vowel_fill { f.vowels } else { 0 };
    let mut levels: Vec<Level> = (0..=max).map(Level::new).collect();
    let mut bytes = 0;
    for len in (1..=max).rev() {
        let (lower, upper) = levels.split_at_mut(len + 1);
        let level = &mut lower[len];
        // Typically about half the prefixes and suffixes above are new.
        level.reserve(upper.first().map_or(0, Level::len) + by_len[len].len());
        for w in &by_len[len] {
            level.insert(w);
        }
        if len < max && (ends || vowels != 0) {
            table::derive_from(&upper[0], level, ends, vowels);
        }
        bytes += level.heap_size() + level.slots();
        if bytes > max_bytes {
            return None;
        }
    }
    let check = f.consonant_start || f.vowel_cap;
    let ok = |s: &[u8]| f.string_ok(s);
    for level in &mut levels {
        level.seal(if check { Some(&ok) } else { None });
    }
    Some(levels)
}

/// The valid strings of one length when no rule restricts (a lazy
/// language): every one is reachable.
fn one_level(goals: &[&[u8]], len: usize, f: &Flags) -> Level {
    debug_assert!(!f.restricts());
    let mut level = if !f.vowel_fill {
        if f.whole_words {
            let mut level = Level::new(len);
            for w in goals.iter().filter(|w| w.len() == len) {
                level.insert(w);
            }
            level.seal(None);
            level
        } else {
            table::windows_level(goals, len)
        }
    } else {
        let mut level = Level::new(len);
        let mut buf = Vec::with_capacity(len);
        for &w in goals.iter().filter(|w| w.len() >= len) {
            let starts = if f.whole_words {
                w.iter().take_while(|&&c| f.vowel(c)).count() + 1
            } else {
                w.len()
            };
            for i in 0..starts.min(w.len()) {
                vf_walk(w, i, len, &mut buf, &mut level, f);
            }
        }
        level.seal(None);
        level
    };
    for flag in &mut level.flags {
        if *flag & VALID != 0 {
            *flag |= REACH;
        }
    }
    level
}

/// Keeps `w[i]` after `buf`, then every way to go on (dropping only vowels
/// between kept letters) until `len` letters are kept.
fn vf_walk(w: &[u8], i: usize, len: usize, buf: &mut Vec<u8>, level: &mut Level, f: &Flags) {
    buf.push(w[i]);
    if buf.len() == len {
        if !f.whole_words || w[i + 1..].iter().all(|&c| f.vowel(c)) {
            level.insert(buf);
        }
    } else {
        let mut k = i + 1;
        while k < w.len() {
            vf_walk(w, k, len, buf, level, f);
            if !f.vowel(w[k]) {
                break;
            }
            k += 1;
        }
    }
    buf.pop();
}

/// Sets [`REACH`] on every valid string reachable from `""`.
fn mark_reachable(levels: &mut [Level], f: &Flags) {
    levels[0].flags[0] |= REACH;
    let mut t = vec![0u8; levels.len()];
    let mut buf = vec![0u8; levels.len()];
    for len in 1..levels.len() {
        let (below, rest) = levels.split_at_mut(len);
        let level = &mut rest[0];
        if !f.no_front && !f.pal_lock && table::reach_packed(level, &below[len - 1]) {
            continue;
        }
        for slot in 0..level.slots() {
            if level.flags[slot] & VALID == 0 || !level.get(slot, &mut t) {
                continue;
            }
            let t = &t[..len];
            let mut reach = false;
            let l1 = &below[len - 1];
            f.parents1(t, &mut buf, |s, legal| {
                if legal && !reach {
                    if let Some(ps) = l1.find(s) {
                        if l1.flags[ps] & REACH != 0 {
                            reach = true;
                        }
                    }
                }
            });
            if !reach && len >= 2 {
                let l2 = &below[len - 2];
                f.parents2(t, &mut buf, |s| {
                    if !reach {
                        if let Some(ps) = l2.find(s) {
                            if l2.flags[ps] & REACH != 0 {
                                reach = true;
                            }
                        }
                    }
                });
            }
            if reach {
                level.flags[slot] |= REACH;
            }
        }
    }
}
