//! A suffix array over the word text, for substring queries.
//!
//! The text is `word\n word\n ...` (without the spaces). Every position that
//! holds a letter starts one *truncated suffix*: the letters from there to
//! the end of that word. The array lists those positions in the byte-wise
//! order of their truncated suffixes, so all the suffixes that start with a
//! string `s` form one contiguous run, found by two binary searches; each
//! suffix in the run is the tail of a word containing `s`.
//!
//! Building: the first eight letters of each suffix are packed into a `u64`
//! (big-endian, zero after the end of the word, and letters are never zero)
//! so that comparing keys compares those eight letters in order; an unstable
//! sort on `(key, position)` does almost all the work, and only runs of equal
//! keys whose suffixes are longer than eight letters get sorted again on their
//! whole tails. For `en-large` (2.2 million suffixes) this takes a fraction
//! of a second in a release build; see `benches/queries.rs`.

use std::cmp::Ordering;

/// Positions of the letters of `text`, ordered by truncated suffix.
pub(crate) struct SuffixArray {
    positions: Vec<u32>,
    /// `blocks[b]` is the index of the word holding text position
    /// `b * BLOCK`, so that [`word_of`](SuffixArray::word_of) needs only a
    /// short forward scan (a block holds a handful of word starts).
    blocks: Vec<u32>,
}

/// Text bytes per entry of `SuffixArray::blocks`.
const BLOCK: usize = 64;

/// The truncated suffix starting at `pos`: the letters up to the next `\n`.
fn suffix(text: &[u8], pos: u32) -> &[u8] {
    let tail = &text[pos as usize..];
    let end = tail.iter().position(|&b| b == b'\n').unwrap_or(tail.len());
    &tail[..end]
}

impl SuffixArray {
    /// Builds the array for canonical text (words of a-z, each followed by `\n`).
    /// Offsets must fit in `u32`, which the caller checks.
    pub(crate) fn build(text: &[u8], starts: &[u32]) -> SuffixArray {
        let letters = text.iter().filter(|&&b| b != b'\n').count();
        let mut keyed: Vec<(u64, u32)> = Vec::with_capacity(letters);
        // Walk each word backwards: the key of the suffix at `i` is the key
        // at `i + 1` shifted down one byte with `word[i]` on top.
        let mut start = 0;
        while start < text.len() {
            let len = text[start..]
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(text.len() - start);
            let word = &text[start..start + len];
            let mut key: u64 = 0;
            for i in (0..len).rev() {
                // Prepend word[i]: the new key holds word[i..i+8].
                key = (key >> 8) | (u64::from(word[i]) << 56);
                keyed.push((key, (start + i) as u32));
            }
            start += len + 1;
        }
        keyed.sort_unstable();

        // Refine runs of equal keys whose suffixes go past eight letters.
        let mut i = 0;
        while i < keyed.len() {
            let key = keyed[i].0;
            let mut j = i + 1;
            while j < keyed.len() && keyed[j].0 == key {
                j += 1;
            }
            if j - i > 1 && key & 0xff != 0 {
                keyed[i..j].sort_unstable_by(|a, b| suffix(text, a.1).cmp(suffix(text, b.1)));
            }
            i = j;
        }
        let mut blocks = Vec::with_capacity(text.len() / BLOCK + 1);
        let mut word = 0;
        for b in (0..text.len()).step_by(BLOCK) {
            while starts[word + 1] as usize <= b {
                word += 1;
            }
            blocks.push(word as u32);
        }
        SuffixArray {
            positions: keyed.into_iter().map(|(_, p)| p).collect(),
            blocks,
        }
    }

    /// The index of the word holding text position `pos`, given the word
    /// starts (with the end sentinel) the array was built with.
    #[inline]
    pub(crate) fn word_of(&self, starts: &[u32], pos: u32) -> usize {
        let mut word = self.blocks[pos as usize / BLOCK] as usize;
        while starts[word + 1] <= pos {
            word += 1;
        }
        word
    }

    /// The positions of all the suffixes that start with `s` (non-empty, a-z).
    pub(crate) fn range<'s>(&'s self, text: &[u8], s: &[u8]) -> &'s [u32] {
        // Compare a suffix cut to |s| letters against s: Less, Equal (s is a
        // prefix of the suffix) or Greater.
        let cmp = |&pos: &u32| -> Ordering {
            let suf = suffix(text, pos);
            let cut = &suf[..suf.len().min(s.len())];
            cut.cmp(s)
        };
        let lo = self.positions.partition_point(|p| cmp(p) == Ordering::Less);
        let rest = &self.positions[lo..];
        let len = rest.partition_point(|p| cmp(p) == Ordering::Equal);
        &rest[..len]
    }

    /// Whether some suffix starts with `s` (non-empty, a-z).
    pub(crate) fn contains(&self, text: &[u8], s: &[u8]) -> bool {
        let lo = self.positions.partition_point(|&p| suffix(text, p) < s);
        self.positions
            .get(lo)
            .is_some_and(|&p| suffix(text, p).starts_with(s))
    }

    /// Bytes used by the array.
    pub(crate) fn heap_size(&self) -> usize {
        (self.positions.capacity() + self.blocks.capacity()) * std::mem::size_of::<u32>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_like_a_naive_sort() {
        let text = b"banana\nbandana\nabracadabra\nabracadabras\na\nnan\n";
        let starts = [0, 7, 15, 27, 40, 42, 46];
        let sa = SuffixArray::build(text, &starts);
        for (pos, &b) in text.iter().enumerate() {
            let w = sa.word_of(&starts, pos as u32);
            assert!(
                starts[w] as usize <= pos && pos < starts[w + 1] as usize,
                "{pos} {b}"
            );
        }
        let mut naive: Vec<u32> = (0..text.len() as u32)
            .filter(|&p| text[p as usize] != b'\n')
            .collect();
        naive.sort_by(|&a, &b| suffix(text, a).cmp(suffix(text, b)));
        let got: Vec<&[u8]> = sa.positions.iter().map(|&p| suffix(text, p)).collect();
        let want: Vec<&[u8]> = naive.iter().map(|&p| suffix(text, p)).collect();
        assert_eq!(got, want);
        assert!(sa.contains(text, b"cadabras"));
        assert!(!sa.contains(text, b"cadabrax"));
        assert_eq!(sa.range(text, b"ana").len(), 3); // banana twice, bandana once
        assert_eq!(sa.range(text, b"abracadabra").len(), 2);
        assert_eq!(sa.range(text, b"zz").len(), 0);
    }
}
