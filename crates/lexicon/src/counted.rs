//! A list's words with their letters counted, for games that ask "which
//! words can these letters make?" of every word at once (WORDCHAIN's best
//! plays, Twin Grids' placements): one pass over 32-byte counts, which the
//! compiler turns into a few vector instructions a word.

use crate::Lexicon;

/// The words of a list up to a length, each with its letters counted.
/// Words keep the list's (ascending) order: the lower number is the lesser
/// word.
pub struct CountedWords {
    text: String,
    starts: Vec<u32>,
    counts: Vec<[u8; 32]>,
}

impl CountedWords {
    /// Counts the letters of every word of `lexicon` of 2 to `max_len`
    /// letters.
    pub fn new(lexicon: &Lexicon, max_len: usize) -> CountedWords {
        let mut out = CountedWords {
            text: String::new(),
            starts: vec![0],
            counts: Vec::new(),
        };
        for w in lexicon.words() {
            if w.len() < 2 || w.len() > max_len {
                continue;
            }
            let mut c = [0u8; 32];
            for b in w.bytes() {
                c[usize::from(b - b'a')] += 1;
            }
            out.text.push_str(w);
            out.starts.push(out.text.len() as u32);
            out.counts.push(c);
        }
        out
    }

    /// The number of words.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Word `i`.
    pub fn word(&self, i: usize) -> &str {
        &self.text[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// The length of word `i`.
    pub fn word_len(&self, i: usize) -> usize {
        (self.starts[i + 1] - self.starts[i]) as usize
    }

    /// The letters of word `i`, counted (lane `k` for letter `a + k`;
    /// lanes 26..32 are 0).
    pub fn counts(&self, i: usize) -> &[u8; 32] {
        &self.counts[i]
    }

    /// Every word's counts, in order.
    pub fn all_counts(&self) -> &[[u8; 32]] {
        &self.counts
    }

    /// Approximate bytes held.
    pub fn heap_size(&self) -> usize {
        self.text.len() + self.starts.len() * 4 + self.counts.len() * 32
    }
}

impl std::fmt::Debug for CountedWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CountedWords({} words)", self.len())
    }
}

/// Letters `need` has beyond `have`: the sum of the lanes' shortfalls.
#[inline]
pub fn shortfall(need: &[u8; 32], have: &[u8; 32]) -> u32 {
    let mut sum = 0u32;
    for i in 0..32 {
        sum += u32::from(need[i].saturating_sub(have[i]));
    }
    sum
}

/// Letters two counts share: the sum of the lanes' minimums (the size of
/// the multiset intersection).
#[inline]
pub fn common(a: &[u8; 32], b: &[u8; 32]) -> u32 {
    let mut sum = 0u32;
    for i in 0..32 {
        sum += u32::from(a[i].min(b[i]));
    }
    sum
}

/// The letters of `word` counted as [`CountedWords`] counts them
/// (letters outside a-z ignored).
pub fn count_letters(word: &str) -> [u8; 32] {
    let mut c = [0u8; 32];
    for b in word.bytes().filter(u8::is_ascii_lowercase) {
        c[usize::from(b - b'a')] = c[usize::from(b - b'a')].saturating_add(1);
    }
    c
}
