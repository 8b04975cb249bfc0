//! Word lists for parlor's games: load one, then ask it questions.
//!
//! Every word game in parlor needs the same few questions answered about a
//! list of words, and needs them answered fast enough to run inside a search:
//!
//! | question | method | used by |
//! | --- | --- | --- |
//! | is this a word? | [`Lexicon::contains`] | all games |
//! | can a word start with this? (letter by letter) | [`Lexicon::root`], [`Cursor`] | Gobble's grid search |
//! | is this inside some word? which words? | [`Lexicon::has_substring`], [`Lexicon::words_containing`] | Word Sprout |
//! | which words can these letters make? | [`Lexicon::formable`] | WORDCHAIN |
//! | which words fit `?a??e`? | [`Lexicon::matching`] | Twin Grids |
//!
//! # Words
//!
//! A [`Lexicon`] is a set of distinct words made of the 26 lowercase letters
//! `a`-`z`, kept in byte-wise ascending order. Two lists come compiled in
//! ([`EMBEDDED`]), so nothing needs setting up:
//!
//! * `en` ([`DEFAULT`]): SCOWL's English and American words of sizes 10 to
//!   70, 111,593 words: what a large dictionary holds.
//! * `en-large`: the same up to size 80, 242,844 words, rare words included.
//!
//! Any other list is loaded from text with [`Lexicon::from_bytes`] (one word
//! per line) or [`Lexicon::from_words`]. This crate reads no files: callers
//! read them and hand over the bytes. Loading trims each line, ignores blank
//! lines and lines starting with `#`, skips a line with an upper-case letter
//! (`Oslo`, `XXL`: proper nouns, which the games' rules exclude; a list
//! written in capitals is loaded with [`Case::Fold`]), and skips every other
//! line that is not made of a-z only — a word with an apostrophe, a digit,
//! an accented letter or invalid UTF-8 — or is longer than
//! [`MAX_WORD_LEN`] (64) letters. Skipped lines are counted
//! in the [`LoadReport`], never dropped silently, and a list with no words
//! left is an error ([`LexiconError::Empty`]). Non-ASCII letters are not
//! case-folded (`É` is not `é`, and neither is in a-z anyway).
//!
//! A lexicon is cheap to clone (an [`Arc`] inside) and is `Send + Sync`, so
//! one loaded list serves every game and thread of a process.
//! [`Lexicon::fingerprint`] identifies the exact list, so that a game record
//! made with one list can tell when it is replayed with another.
//!
//! # Example
//!
//! ```
//! use parlor_lexicon::Lexicon;
//!
//! let en = Lexicon::embedded("en")?;
//! assert!(en.contains("tomato"));
//! assert!(en.has_substring("omat"));
//! assert!(en.words_containing("omat").contains(&"tomato"));
//! assert!(en.formable("tmotoa", 0).contains(&"tomato"));
//! assert!(en.matching("t?m?to")?.contains(&"tomato"));
//!
//! let (mine, report) = Lexicon::from_bytes("mine", b"# my list\ntomato\npotato\nit's\n")?;
//! assert_eq!(mine.words().collect::<Vec<_>>(), ["potato", "tomato"]);
//! assert_eq!((report.words, report.skipped), (2, 1));
//! assert_eq!(report.first_skipped.as_deref(), Some("it's"));
//!
//! // Walking a prefix letter by letter, as a grid search does.
//! let t = mine.root().child(b't').unwrap();
//! assert!(t.child(b'x').is_none());
//! assert!(t.walk(b"omato").unwrap().is_word());
//! # Ok::<(), parlor_lexicon::LexiconError>(())
//! ```
//!
//! # How the questions are answered, and why so
//!
//! The words live once, in one string (`word\n` after `word\n`), with a
//! table of where each starts. Every query returns `&str` slices of that
//! string, in ascending order; around it sit one index per kind of question,
//! each chosen for what that question needs:
//!
//! * **Membership and prefix walk: a finite state transducer** ([`fst`]).
//!   An FST is a minimal automaton over the sorted words: it shares prefixes
//!   like a trie *and* suffixes (every `-ness`, `-ing`, `-ation` is stored
//!   once), so `en-large` fits in about a megabyte, while a pointer trie
//!   would take tens. One step of [`Cursor::child`] looks at one small node,
//!   whatever the size of the list, which is what a grid search calls
//!   millions of times; binary search over the sorted words would pay
//!   `log n` string comparisons per step instead. Built at load from the
//!   sorted words, in linear time; for the embedded lists `build.rs` builds
//!   it at compile time, which makes loading them six times faster.
//! * **Substrings: a suffix array**, built on first use (a
//!   [`OnceLock`]) so that loading stays fast for games that never ask.
//!   It lists every position of every word, ordered by the rest of that word
//!   from there; the words containing `s` are exactly those with a position
//!   whose rest starts with `s`, and those positions sit together, so
//!   [`Lexicon::has_substring`] is two binary searches (`O(|s| log N)`, `N`
//!   the number of letters) and [`Lexicon::words_containing`] adds the
//!   matches. It costs 4 bytes per letter (9 MB for `en-large`) and is built by
//!   sorting on packed 8-letter keys. A suffix automaton would answer
//!   `has_substring` in `O(|s|)` but takes several times the memory and gives
//!   no cheap way to list the words.
//! * **Formable words: letter-set signatures.** Each word keeps a 26-bit
//!   mask of the letters it uses. A word needs at least one wildcard per
//!   letter of its mask that is missing from the rack, so a popcount rejects
//!   almost every word before its letters are counted. One linear pass over
//!   compact arrays: predictable, and with any number of wildcards (where
//!   a tree search over the FST would branch on every blank).
//! * **Patterns: length buckets.** The words of each length are listed
//!   apart; a pattern scans only its own length, rejecting first on the mask
//!   of the fixed letters, then checking the fixed positions.
//!
//! # Costs
//!
//! Every query's time, beside a naive scan, is measured by `cargo bench -p
//! parlor-lexicon` (which also checks every answer against the scan); the
//! current figures are in `docs/performance.md`. In short: a membership
//! test or a cursor step costs a fraction of a microsecond, a substring
//! query microseconds, a formable or pattern query a fraction of a
//! millisecond, and loading `en-large` tens of milliseconds.
//!
//! # Limits
//!
//! * Letters are a-z only: no digits, no apostrophes, no accents.
//!   [`contains`](Lexicon::contains), the cursor and the substring queries
//!   find nothing for anything else and do not fold case (the caller
//!   lowercases what a player typed); [`formable`](Lexicon::formable) and
//!   [`matching`](Lexicon::matching) take letters in either case.
//! * Words have at most [`MAX_WORD_LEN`] (64) letters, and the whole list,
//!   with one separator per word, must stay under 4 GiB.
//! * Memory for `en-large`: 6.7 MB (2.5 MB of text, 1 MB each of word
//!   offsets, letter masks and length buckets, 0.8 MB of FST), plus 9.2 MB
//!   once a substring query has run. `en`: 3.1 MB, then 7.0 MB.
//!
//! [`Arc`]: std::sync::Arc
//! [`OnceLock`]: std::sync::OnceLock
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod counted;
mod cursor;
mod error;
mod load;
mod suffix;

use std::borrow::Cow;
use std::fmt;
use std::sync::{Arc, OnceLock};

use fst::raw::Fst;

pub use counted::{common, count_letters, shortfall, CountedWords};
pub use cursor::Cursor;
pub use error::LexiconError;
pub use load::{Case, LoadReport, FIRST_SKIPPED_MAX, MAX_WORD_LEN};
use suffix::SuffixArray;

/// Names of the word lists compiled into this crate, for
/// [`Lexicon::embedded`].
pub const EMBEDDED: &[&str] = &["en", "en-large"];

/// The name of the embedded list used when nothing else is asked for.
pub const DEFAULT: &str = "en";

/// The text of each embedded list, in the order of [`EMBEDDED`].
const EMBEDDED_TEXT: [&str; 2] = [
    include_str!("../../../data/lexicon/en.txt"),
    include_str!("../../../data/lexicon/en-large.txt"),
];

/// The FST of each embedded list, built from the same text by `build.rs`.
const EMBEDDED_FST: [&[u8]; 2] = [
    include_bytes!(concat!(env!("OUT_DIR"), "/en.fst")),
    include_bytes!(concat!(env!("OUT_DIR"), "/en-large.fst")),
];

/// The bytes of an FST: built at load, or compiled in for embedded lists.
type FstBytes = Cow<'static, [u8]>;

/// A list of words, with indexes for the questions games ask.
///
/// Invariants: the words are distinct, non-empty, made of `a`-`z` only and
/// kept in byte-wise ascending order; there is at least one. Every query
/// that returns words returns them in that order. Cloning is cheap (the
/// data is shared).
#[derive(Clone)]
pub struct Lexicon {
    inner: Arc<Inner>,
}

struct Inner {
    name: String,
    /// Every word followed by `\n`, in order.
    text: String,
    /// Start of each word in `text`, plus `text.len()` at the end: word `i`
    /// is `text[starts[i]..starts[i + 1] - 1]`.
    starts: Vec<u32>,
    /// Letters used by each word, bit `c - b'a'` for letter `c`.
    masks: Vec<u32>,
    /// Indices of the words of each length, ascending; `by_len[0]` is empty.
    by_len: Vec<Vec<u32>>,
    /// Index of the first longest word.
    longest: usize,
    fingerprint: u64,
    fst: Fst<FstBytes>,
    suffixes: OnceLock<SuffixArray>,
    /// How many words contain each string of one or two letters (see
    /// [`short_index`]).
    short_counts: OnceLock<Vec<u32>>,
}

/// The slot of a one- or two-letter string in `short_counts`: `a`..`z`
/// first, then `aa`..`zz`.
fn short_index(s: &[u8]) -> usize {
    match *s {
        [a] => usize::from(a - b'a'),
        [a, b] => 26 + usize::from(a - b'a') * 26 + usize::from(b - b'a'),
        _ => unreachable!("one or two letters"),
    }
}

/// FNV-1a, 64 bits.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn letter_mask(word: &[u8]) -> u32 {
    word.iter().fold(0, |m, &b| m | 1 << (b - b'a'))
}

impl Lexicon {
    /// One of the lists compiled in, by name (see [`EMBEDDED`]).
    ///
    /// The first call for a name builds the list (a few milliseconds);
    /// later calls return a clone of the same shared list.
    ///
    /// ```
    /// use parlor_lexicon::{Lexicon, LexiconError, DEFAULT};
    /// assert_eq!(Lexicon::embedded(DEFAULT)?.len(), 111_593);
    /// assert!(matches!(Lexicon::embedded("fr"), Err(LexiconError::UnknownEmbedded { .. })));
    /// # Ok::<(), LexiconError>(())
    /// ```
    pub fn embedded(name: &str) -> Result<Lexicon, LexiconError> {
        static CACHE: [OnceLock<Lexicon>; 2] = [OnceLock::new(), OnceLock::new()];
        let Some(i) = EMBEDDED.iter().position(|&n| n == name) else {
            return Err(LexiconError::UnknownEmbedded {
                name: name.to_string(),
                known: EMBEDDED.to_vec(),
            });
        };
        let lex = CACHE[i].get_or_init(|| {
            let mut builder = load::Builder::new(Case::Fold);
            builder.push_text(EMBEDDED_TEXT[i].as_bytes());
            let (lex, report) = Lexicon::build(EMBEDDED[i].into(), builder, Some(EMBEDDED_FST[i]))
                .expect("embedded word lists are not empty");
            debug_assert_eq!((report.skipped, report.duplicates), (0, 0));
            debug_assert_eq!(report.capitalised, 0);
            lex
        });
        Ok(lex.clone())
    }

    /// Loads a list from text: one word per line.
    ///
    /// Lines are trimmed of ASCII white space (so `\r\n` ends are fine);
    /// blank lines and lines starting with `#` are ignored; a line with an
    /// upper-case letter (`Oslo`, `XXL`: a proper noun, which the games'
    /// rules exclude) is skipped and counted in
    /// [`LoadReport::capitalised`]; any other line that is not made of
    /// `a`-`z` only (including a line that is not valid UTF-8), or is
    /// longer than [`MAX_WORD_LEN`], is skipped and counted in
    /// [`LoadReport::skipped`]. Repeated words are kept once and counted. A
    /// UTF-8 byte order mark at the start is ignored. Never panics,
    /// whatever the bytes. For a list written in capitals, see
    /// [`from_bytes_with_case`](Lexicon::from_bytes_with_case).
    ///
    /// # Errors
    ///
    /// [`LexiconError::Empty`] if no word is left,
    /// [`LexiconError::TooLarge`] past 4 GiB of words.
    pub fn from_bytes(
        name: impl Into<String>,
        bytes: &[u8],
    ) -> Result<(Lexicon, LoadReport), LexiconError> {
        Lexicon::from_bytes_with_case(name, bytes, Case::SkipCapitalised)
    }

    /// Like [`from_bytes`](Lexicon::from_bytes), with capitalised lines
    /// treated as `case` says: [`Case::Fold`] lowercases them.
    ///
    /// ```
    /// use parlor_lexicon::{Case, Lexicon};
    /// let text = b"Oslo\nXXL\noslo\ncat\n";
    /// let (lex, report) = Lexicon::from_bytes("t", text)?;
    /// assert_eq!(lex.words().collect::<Vec<_>>(), ["cat", "oslo"]);
    /// assert_eq!(report.capitalised, 2);
    /// let (lex, _) = Lexicon::from_bytes_with_case("t", text, Case::Fold)?;
    /// assert_eq!(lex.words().collect::<Vec<_>>(), ["cat", "oslo", "xxl"]);
    /// let (lex, _) = Lexicon::from_bytes_with_case("t", b"CAT\nDOG\n", Case::Auto)?;
    /// assert_eq!(lex.words().collect::<Vec<_>>(), ["cat", "dog"]);
    /// # Ok::<(), parlor_lexicon::LexiconError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As for [`from_bytes`](Lexicon::from_bytes).
    pub fn from_bytes_with_case(
        name: impl Into<String>,
        bytes: &[u8],
        case: Case,
    ) -> Result<(Lexicon, LoadReport), LexiconError> {
        let mut builder = load::Builder::new(case.resolve(load::lines(bytes)));
        builder.push_text(bytes);
        Lexicon::build(name.into(), builder, None)
    }

    /// Loads a list from separate words, each treated exactly like one line
    /// of [`from_bytes`](Lexicon::from_bytes) (trimmed; skipped and counted
    /// if capitalised or not a-z; blank and `#` items ignored).
    ///
    /// ```
    /// let (lex, report) = parlor_lexicon::Lexicon::from_words("t", ["b", "A", "a", "a", "no way"])?;
    /// assert_eq!(lex.words().collect::<Vec<_>>(), ["a", "b"]);
    /// assert_eq!((report.duplicates, report.skipped, report.capitalised), (1, 1, 1));
    /// # Ok::<(), parlor_lexicon::LexiconError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As for [`from_bytes`](Lexicon::from_bytes).
    pub fn from_words<I, S>(
        name: impl Into<String>,
        words: I,
    ) -> Result<(Lexicon, LoadReport), LexiconError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Lexicon::from_words_with_case(name, words, Case::SkipCapitalised)
    }

    /// Like [`from_words`](Lexicon::from_words), with capitalised words
    /// treated as `case` says.
    ///
    /// # Errors
    ///
    /// As for [`from_bytes`](Lexicon::from_bytes).
    pub fn from_words_with_case<I, S>(
        name: impl Into<String>,
        words: I,
        case: Case,
    ) -> Result<(Lexicon, LoadReport), LexiconError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let words: Vec<S> = words.into_iter().collect();
        let case = case.resolve(words.iter().map(|w| w.as_ref().as_bytes()));
        let mut builder = load::Builder::new(case);
        for word in &words {
            builder.push_line(word.as_ref().as_bytes());
        }
        Lexicon::build(name.into(), builder, None)
    }

    /// The lexicon of the words in `builder`; `fst`, if given, must be the
    /// FST of exactly those words (as `build.rs` makes for embedded lists).
    fn build(
        name: String,
        builder: load::Builder,
        fst: Option<&'static [u8]>,
    ) -> Result<(Lexicon, LoadReport), LexiconError> {
        let (text, report) = builder.finish();
        if report.words == 0 {
            return Err(LexiconError::Empty {
                name,
                skipped: report.skipped,
                capitalised: report.capitalised,
            });
        }
        if u32::try_from(text.len()).is_err() {
            return Err(LexiconError::TooLarge {
                name,
                bytes: text.len(),
            });
        }
        let bytes = text.as_bytes();
        let mut starts = Vec::with_capacity(report.words + 1);
        let mut masks = Vec::with_capacity(report.words);
        let mut by_len: Vec<Vec<u32>> = Vec::new();
        let mut longest = 0;
        let mut longest_len = 0;
        let mut start = 0;
        for (i, word) in bytes[..bytes.len() - 1].split(|&b| b == b'\n').enumerate() {
            starts.push(start as u32);
            masks.push(letter_mask(word));
            if by_len.len() <= word.len() {
                by_len.resize_with(word.len() + 1, Vec::new);
            }
            by_len[word.len()].push(i as u32);
            if word.len() > longest_len {
                longest_len = word.len();
                longest = i;
            }
            start += word.len() + 1;
        }
        starts.push(bytes.len() as u32);
        let fst = match fst {
            Some(compiled) => {
                Fst::new(Cow::Borrowed(compiled)).expect("build.rs makes a valid FST")
            }
            None => {
                let built = Fst::from_iter_set(bytes[..bytes.len() - 1].split(|&b| b == b'\n'))
                    .expect("words are sorted and distinct");
                Fst::new(Cow::Owned(built.into_inner())).expect("a just built FST is valid")
            }
        };
        let inner = Inner {
            fingerprint: fnv1a64(&bytes[..bytes.len() - 1]),
            name,
            text,
            starts,
            masks,
            by_len,
            longest,
            fst,
            suffixes: OnceLock::new(),
            short_counts: OnceLock::new(),
        };
        Ok((
            Lexicon {
                inner: Arc::new(inner),
            },
            report,
        ))
    }

    /// The name given at load (for embedded lists, their [`EMBEDDED`] name).
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// Number of words (never 0).
    pub fn len(&self) -> usize {
        self.inner.masks.len()
    }

    /// Always `false`: a lexicon holds at least one word. Here for the
    /// `len`/`is_empty` pair.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Word number `i` in ascending order.
    fn word(&self, i: usize) -> &str {
        let s = &self.inner.starts;
        &self.inner.text[s[i] as usize..s[i + 1] as usize - 1]
    }

    /// All the words, ascending, distinct, lowercase a-z.
    pub fn words(&self) -> impl ExactSizeIterator<Item = &str> + DoubleEndedIterator + '_ {
        (0..self.len()).map(move |i| self.word(i))
    }

    /// The first longest word in ascending order.
    pub fn longest(&self) -> &str {
        self.word(self.inner.longest)
    }

    /// A stable 64-bit hash of the word list: FNV-1a over the words in
    /// ascending order joined by `\n` (no final `\n`). The name plays no part.
    /// Game records keep it to notice a replay with a different list.
    pub fn fingerprint(&self) -> u64 {
        self.inner.fingerprint
    }

    /// Whether `word` is in the list (exactly: no case folding).
    pub fn contains(&self, word: &str) -> bool {
        self.inner.fst.contains_key(word.as_bytes())
    }

    /// The cursor at the empty prefix, to walk words letter by letter.
    pub fn root(&self) -> Cursor<'_> {
        Cursor::root(&self.inner.fst)
    }

    /// The cursor after walking `prefix`, or `None` if no word starts with it.
    pub fn prefix(&self, prefix: &str) -> Option<Cursor<'_>> {
        self.root().walk(prefix.as_bytes())
    }

    fn suffixes(&self) -> &SuffixArray {
        self.inner
            .suffixes
            .get_or_init(|| SuffixArray::build(self.inner.text.as_bytes(), &self.inner.starts))
    }

    /// Builds the substring index now rather than at the first substring
    /// query (for example on a background thread, or before timing).
    pub fn prepare_substrings(&self) {
        self.suffixes();
    }

    /// Whether `s` appears inside some word (a word is inside itself, and
    /// `""` is inside every word). Builds the substring index on first use.
    ///
    /// ```
    /// let en = parlor_lexicon::Lexicon::embedded("en")?;
    /// assert!(en.has_substring("omat") && en.has_substring("tomato") && en.has_substring(""));
    /// assert!(!en.has_substring("qzx") && !en.has_substring("OMAT"));
    /// # Ok::<(), parlor_lexicon::LexiconError>(())
    /// ```
    pub fn has_substring(&self, s: &str) -> bool {
        let s = s.as_bytes();
        if s.is_empty() {
            return true;
        }
        if !s.iter().all(u8::is_ascii_lowercase) {
            return false;
        }
        self.suffixes().contains(self.inner.text.as_bytes(), s)
    }

    /// How many words contain `s`: the length of
    /// [`Lexicon::words_containing`], without listing them (a game's bot may
    /// ask this for every play it considers). One and two letters are read
    /// from a table built on first use; longer strings count the distinct
    /// words among their places in the substring index.
    ///
    /// ```
    /// let (l, _) = parlor_lexicon::Lexicon::from_words("t", ["tomato", "atom", "moat"]).unwrap();
    /// assert_eq!(l.count_words_containing("at"), 3);
    /// assert_eq!(l.count_words_containing("ma"), 1);
    /// assert_eq!(l.count_words_containing("o"), 3);
    /// assert_eq!(l.count_words_containing("tom"), 2);
    /// ```
    pub fn count_words_containing(&self, s: &str) -> usize {
        let s = s.as_bytes();
        if s.is_empty() {
            return self.len();
        }
        if !s.iter().all(u8::is_ascii_lowercase) {
            return 0;
        }
        if s.len() <= 2 {
            return self.short_counts()[short_index(s)] as usize;
        }
        let starts = &self.inner.starts;
        let sa = self.suffixes();
        let hits = sa.range(self.inner.text.as_bytes(), s);
        // A string of three letters or more appears in most words once, so
        // the hits are few: their word numbers, sorted, say how many words.
        let mut found: Vec<u32> = hits.iter().map(|&p| sa.word_of(starts, p) as u32).collect();
        found.sort_unstable();
        found.dedup();
        found.len()
    }

    fn short_counts(&self) -> &[u32] {
        self.inner.short_counts.get_or_init(|| {
            let mut counts = vec![0u32; 26 + 26 * 26];
            let mut seen: Vec<usize> = Vec::with_capacity(2 * MAX_WORD_LEN);
            for w in self.words() {
                let w = w.as_bytes();
                seen.clear();
                seen.extend(w.windows(1).chain(w.windows(2)).map(short_index));
                seen.sort_unstable();
                seen.dedup();
                for &i in &seen {
                    counts[i] += 1;
                }
            }
            counts
        })
    }

    /// The words in which `s` appears, ascending and distinct (every word
    /// for `""`). Builds the substring index on first use.
    pub fn words_containing(&self, s: &str) -> Vec<&str> {
        let s = s.as_bytes();
        if s.is_empty() {
            return self.words().collect();
        }
        if !s.iter().all(u8::is_ascii_lowercase) {
            return Vec::new();
        }
        let starts = &self.inner.starts;
        let sa = self.suffixes();
        let hits = sa.range(self.inner.text.as_bytes(), s);
        if hits.len() < 4096 {
            // Few hits: sort their word indices.
            let mut found: Vec<u32> = hits.iter().map(|&p| sa.word_of(starts, p) as u32).collect();
            found.sort_unstable();
            found.dedup();
            found.into_iter().map(|i| self.word(i as usize)).collect()
        } else {
            // Many hits: mark words in a bit set, read it back in order.
            let mut seen = vec![0u64; self.len().div_ceil(64)];
            for &p in hits {
                let w = sa.word_of(starts, p);
                seen[w / 64] |= 1 << (w % 64);
            }
            let mut out = Vec::new();
            for (k, &bits) in seen.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    out.push(self.word(k * 64 + bits.trailing_zeros() as usize));
                    bits &= bits - 1;
                }
            }
            out
        }
    }

    /// The words that can be spelt from `letters` plus at most `wildcards`
    /// blanks, each letter and blank used at most once: every word whose
    /// letters form a sub-multiset of `letters` after at most `wildcards` of
    /// them are replaced by blanks. Ascending.
    ///
    /// In `letters`, ASCII letters count in either case, `?` and `.` count as
    /// extra blanks, anything else is ignored.
    ///
    /// ```
    /// let en = parlor_lexicon::Lexicon::embedded("en")?;
    /// let words = en.formable("tac", 0);
    /// assert!(words.contains(&"act") && words.contains(&"cat") && !words.contains(&"tact"));
    /// assert!(en.formable("tac", 1).contains(&"tact"));
    /// assert_eq!(en.formable("tac?", 0), en.formable("tac", 1));
    /// # Ok::<(), parlor_lexicon::LexiconError>(())
    /// ```
    pub fn formable(&self, letters: &str, wildcards: usize) -> Vec<&str> {
        let mut have = [0usize; 26];
        let mut blanks = wildcards;
        for b in letters.bytes() {
            match b.to_ascii_lowercase() {
                c @ b'a'..=b'z' => have[usize::from(c - b'a')] += 1,
                b'?' | b'.' => blanks = blanks.saturating_add(1),
                _ => {}
            }
        }
        let have_mask = have
            .iter()
            .enumerate()
            .fold(0u32, |m, (i, &n)| if n > 0 { m | 1 << i } else { m });
        let budget = have.iter().sum::<usize>().saturating_add(blanks);
        let text = self.inner.text.as_bytes();
        let starts = &self.inner.starts;
        let mut out = Vec::new();
        let mut need = [0usize; 26];
        for (i, &mask) in self.inner.masks.iter().enumerate() {
            if (mask & !have_mask).count_ones() as usize > blanks {
                continue;
            }
            let word = &text[starts[i] as usize..starts[i + 1] as usize - 1];
            if word.len() > budget {
                continue;
            }
            // Count the letters the rack lacks; stop once past the blanks.
            need.fill(0);
            let mut missing = 0;
            for &c in word {
                let k = usize::from(c - b'a');
                need[k] += 1;
                if need[k] > have[k] {
                    missing += 1;
                    if missing > blanks {
                        break;
                    }
                }
            }
            if missing <= blanks {
                out.push(self.word(i));
            }
        }
        out
    }

    /// The words as long as `pattern` that have its fixed letters where it
    /// has them: `?` or `.` stands for any letter, `a`-`z` (either case) for
    /// itself. Ascending.
    ///
    /// ```
    /// let en = parlor_lexicon::Lexicon::embedded("en")?;
    /// assert!(en.matching("qu?z")?.contains(&"quiz"));
    /// assert!(en.matching("Q..Z")?.contains(&"quiz"));
    /// assert!(en.matching("qu*z").is_err());
    /// # Ok::<(), parlor_lexicon::LexiconError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`LexiconError::BadPattern`] naming the first character that is
    /// neither a letter nor a joker.
    pub fn matching(&self, pattern: &str) -> Result<Vec<&str>, LexiconError> {
        let mut fixed: Vec<(usize, u8)> = Vec::new();
        let mut len = 0;
        for (index, ch) in pattern.chars().enumerate() {
            match ch {
                '?' | '.' => {}
                'a'..='z' | 'A'..='Z' => fixed.push((index, ch.to_ascii_lowercase() as u8)),
                found => {
                    return Err(LexiconError::BadPattern {
                        pattern: pattern.to_string(),
                        index,
                        found,
                    })
                }
            }
            len += 1;
        }
        let Some(bucket) = self.inner.by_len.get(len) else {
            return Ok(Vec::new());
        };
        let want: u32 = fixed.iter().fold(0, |m, &(_, c)| m | 1 << (c - b'a'));
        let text = self.inner.text.as_bytes();
        let starts = &self.inner.starts;
        Ok(bucket
            .iter()
            .filter(|&&i| {
                let i = i as usize;
                if self.inner.masks[i] & want != want {
                    return false;
                }
                let word = &text[starts[i] as usize..];
                fixed.iter().all(|&(k, c)| word[k] == c)
            })
            .map(|&i| self.word(i as usize))
            .collect())
    }

    /// Approximate heap bytes held, including the substring index if built.
    pub fn heap_size(&self) -> usize {
        let inner = &self.inner;
        inner.text.capacity()
            + inner.starts.capacity() * 4
            + inner.masks.capacity() * 4
            + inner.by_len.iter().map(|b| b.capacity() * 4).sum::<usize>()
            + match inner.fst.as_inner() {
                Cow::Owned(bytes) => bytes.capacity(),
                Cow::Borrowed(_) => 0, // compiled into the binary
            }
            + inner.suffixes.get().map_or(0, SuffixArray::heap_size)
    }
}

impl fmt::Debug for Lexicon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lexicon")
            .field("name", &self.name())
            .field("len", &self.len())
            .field("fingerprint", &format_args!("{:016x}", self.fingerprint()))
            .finish()
    }
}

#[cfg(test)]
mod tests;
