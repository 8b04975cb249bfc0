//! The solver's dictionary: a compact trie of 8-byte nodes.
//!
//! Each node is a `u32` mask (bits 0..26: which letters have a child, bit 31:
//! a word ends here) and the `u32` index of its first child; a node's
//! children are contiguous, in letter order, so the child for letter `l` is
//! `base + popcount(mask & ((1 << l) - 1))`. Nodes are laid out
//! breadth first, so the shallow nodes that every search touches share a few
//! kilobytes of cache.
//!
//! Words are normalised on the way in: ASCII letters only (others are
//! skipped), lowercased, at least 3 letters; `qu` becomes the single Qu
//! letter `q`, and a word with a `q` not followed by `u` is dropped since no
//! board can spell it.

/// Bit of [`Node::mask`] marking the end of a word.
pub(crate) const WORD: u32 = 1 << 31;
const LETTERS: u32 = (1 << 26) - 1;

#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(8))]
pub(crate) struct Node {
    pub(crate) mask: u32,
    pub(crate) base: u32,
}

/// A trie over a word list, ready for board search (see the module docs).
#[derive(Clone, Debug)]
pub struct Trie {
    pub(crate) nodes: Vec<Node>,
    words: usize,
}

impl parlor_core::Derived for Trie {
    fn bytes(&self) -> usize {
        std::mem::size_of::<Trie>() + self.nodes.capacity() * std::mem::size_of::<Node>()
    }
}

/// Normalises one word for the trie: `None` when no board can spell it.
pub fn board_form(word: &str) -> Option<Vec<u8>> {
    let b = word.as_bytes();
    if b.len() < 3 {
        return None;
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i].to_ascii_lowercase();
        if !c.is_ascii_lowercase() {
            return None;
        }
        if c == b'q' {
            if b.get(i + 1).map(|u| u.to_ascii_lowercase()) != Some(b'u') {
                return None;
            }
            i += 1;
        }
        out.push(c - b'a');
        i += 1;
    }
    Some(out)
}

impl Trie {
    /// Builds the trie from any words (see the module docs for which are kept).
    pub fn new<I, S>(words: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut list: Vec<Vec<u8>> = words
            .into_iter()
            .filter_map(|w| board_form(w.as_ref()))
            .collect();
        list.sort_unstable();
        list.dedup();
        let refs: Vec<&[u8]> = list.iter().map(|w| w.as_slice()).collect();
        let mut nodes = vec![Node::default()];
        // Breadth first: the shallow nodes every board search touches sit
        // together at the front of the array, in a few cache-friendly KB.
        let mut queue = std::collections::VecDeque::from([(0usize, 0usize, &refs[..])]);
        while let Some((at, depth, words)) = queue.pop_front() {
            for (k, group) in fill(words, depth, at, &mut nodes).into_iter().enumerate() {
                let base = nodes[at].base as usize;
                queue.push_back((base + k, depth + 1, group));
            }
        }
        Trie {
            nodes,
            words: list.len(),
        }
    }

    /// Number of distinct (normalised) words.
    pub fn len(&self) -> usize {
        self.words
    }

    /// Whether the trie holds no word.
    pub fn is_empty(&self) -> bool {
        self.words == 0
    }

    /// Number of nodes (each 8 bytes).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The node reached by a board-form word (letters `0..26`, `q` = Qu).
    pub(crate) fn walk(&self, letters: &[u8]) -> Option<u32> {
        let mut n = 0u32;
        for &l in letters {
            n = self.child(n, l)?;
        }
        Some(n)
    }

    #[inline]
    pub(crate) fn child(&self, n: u32, l: u8) -> Option<u32> {
        let node = self.nodes[n as usize];
        if node.mask & (1 << l) == 0 {
            return None;
        }
        Some(node.base + (node.mask & ((1u32 << l) - 1)).count_ones())
    }

    /// Whether `word` (any case, `qu` as written) is in the trie.
    pub fn contains(&self, word: &str) -> bool {
        board_form(word)
            .and_then(|w| self.walk(&w))
            .is_some_and(|n| self.nodes[n as usize].mask & WORD != 0)
    }
}

/// Fills node `at` for the sorted, distinct `words` that share their first
/// `depth` letters, allocates its children at the end of `nodes`, and returns
/// the words under each child, in letter order.
fn fill<'w>(
    words: &'w [&'w [u8]],
    depth: usize,
    at: usize,
    nodes: &mut Vec<Node>,
) -> Vec<&'w [&'w [u8]]> {
    let mut rest = words;
    let mut mask = 0u32;
    if rest.first().is_some_and(|w| w.len() == depth) {
        mask |= WORD;
        rest = &rest[1..];
    }
    let mut groups: Vec<&[&[u8]]> = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let l = rest[i][depth];
        let mut j = i + 1;
        while j < rest.len() && rest[j][depth] == l {
            j += 1;
        }
        groups.push(&rest[i..j]);
        mask |= 1 << l;
        i = j;
    }
    let base = nodes.len();
    nodes.resize(base + groups.len(), Node::default());
    nodes[at] = Node {
        mask,
        base: base as u32,
    };
    debug_assert_eq!((mask & LETTERS).count_ones() as usize, groups.len());
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalisation() {
        assert_eq!(board_form("Quit"), Some(vec![16, 8, 19]));
        assert_eq!(board_form("qat"), None);
        assert_eq!(board_form("at"), None);
        assert_eq!(board_form("don't"), None);
        let t = Trie::new(["cat", "cats", "quit", "qat", "Dog", "cat"]);
        assert_eq!(t.len(), 4);
        assert!(t.contains("cat") && t.contains("CATS") && t.contains("quit") && t.contains("dog"));
        assert!(!t.contains("ca") && !t.contains("qat") && !t.contains("catsx"));
    }
}
