//! Walking the word list one letter at a time.

use crate::FstBytes;
use fst::raw::{Fst, Node};
use std::fmt;

/// A position in the prefix tree of a [`Lexicon`](crate::Lexicon): the
/// words that start with some prefix.
///
/// Start at [`Lexicon::root`](crate::Lexicon::root) (the empty prefix) and
/// step with [`child`](Cursor::child); a step fails as soon as no word starts
/// with the longer prefix, which is what prunes a grid search. Each step
/// costs one small table look-up, independent of the size of the list.
/// A cursor is `Copy`, so keeping one per cell on a search stack is free.
///
/// ```
/// let lex = parlor_lexicon::Lexicon::embedded("en")?;
/// let qu = lex.root().child(b'q').and_then(|c| c.child(b'u')).unwrap();
/// assert!(!qu.is_word() && qu.has_children() && qu.depth() == 2);
/// assert!(qu.walk(b"iz").unwrap().is_word());   // "quiz"
/// assert!(qu.child(b'q').is_none());             // no word starts with "quq"
/// # Ok::<(), parlor_lexicon::LexiconError>(())
/// ```
#[derive(Clone, Copy)]
pub struct Cursor<'a> {
    fst: &'a Fst<FstBytes>,
    node: Node<'a>,
    depth: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn root(fst: &'a Fst<FstBytes>) -> Cursor<'a> {
        Cursor {
            fst,
            node: fst.root(),
            depth: 0,
        }
    }

    /// The cursor one letter deeper, or `None` if no word starts with the
    /// current prefix followed by `letter`. Letters are bytes `b'a'..=b'z'`;
    /// any other byte gives `None`.
    #[inline]
    pub fn child(&self, letter: u8) -> Option<Cursor<'a>> {
        let i = self.node.find_input(letter)?;
        Some(Cursor {
            fst: self.fst,
            node: self.fst.node(self.node.transition_addr(i)),
            depth: self.depth + 1,
        })
    }

    /// Follows several letters in turn (`child` for each); `None` as soon as
    /// one step fails.
    pub fn walk(&self, letters: &[u8]) -> Option<Cursor<'a>> {
        letters.iter().try_fold(*self, |c, &b| c.child(b))
    }

    /// Whether the prefix walked so far is itself a word.
    #[inline]
    pub fn is_word(&self) -> bool {
        self.node.is_final()
    }

    /// Whether some longer word starts with the prefix walked so far.
    #[inline]
    pub fn has_children(&self) -> bool {
        !self.node.is_empty()
    }

    /// Number of letters walked from the root.
    #[inline]
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The letters that can follow, each with its cursor, in ascending order.
    pub fn children(&self) -> impl Iterator<Item = (u8, Cursor<'a>)> + 'a {
        let (fst, node, depth) = (self.fst, self.node, self.depth);
        (0..node.len()).map(move |i| {
            let t = node.transition(i);
            (
                t.inp,
                Cursor {
                    fst,
                    node: fst.node(t.addr),
                    depth: depth + 1,
                },
            )
        })
    }
}

impl fmt::Debug for Cursor<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cursor")
            .field("depth", &self.depth)
            .field("is_word", &self.is_word())
            .field("has_children", &self.has_children())
            .finish()
    }
}
