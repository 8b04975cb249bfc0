//! Finding every word on a board.
//!
//! [`Solver::score`] is the fast path (total points and word count only);
//! [`Solver::words`] also returns each word with one path that spells it.
//!
//! The search is a depth-first walk of the board and the [`Trie`] together.
//! Before each board the solver builds, for every cell, a table from letter
//! to the set of neighbouring cells showing that letter (a `u64` of cells),
//! and the mask of letters among the cell's neighbours. At a trie node on a
//! cell, the letters worth trying are `node.mask & neighbour_letters[cell]`
//! — letters absent from the neighbourhood (and so from most of the trie) are
//! never looked at — and for each such letter the cells to visit are
//! `cells_with[cell][letter] & !used`. Words are counted once per board with
//! one bit per trie node (48 KB for ENABLE2K, so it stays in cache), set on
//! the first find and cleared after the board from the list of words found.

use crate::board::{Board, Size, QU};
use crate::scoring::{Scoring, MAX_WORD_LEN};
use crate::trie::{Node, Trie, WORD};

/// One word found on a board.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FoundWord {
    /// The word, lowercase (`qu` spelled out).
    pub word: String,
    /// Its points under the scoring used.
    pub points: u32,
    /// One path that spells it: cell indices, row-major.
    pub path: Vec<usize>,
}

/// Totals for one board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Sum of the points of every distinct word.
    pub score: u32,
    /// Number of distinct words.
    pub count: u32,
}

/// A reusable board solver over one trie (one per thread).
pub struct Solver<'t> {
    trie: &'t Trie,
    scoring: Scoring,
    /// One bit per trie node: found on this board.
    found: Vec<u64>,
    /// The nodes whose bit is set, to clear after the board.
    found_list: Vec<u32>,
    size: Option<Size>,
    /// The neighbours of each cell, one bit per cell.
    neighbours: Vec<u64>,
    points: [u32; MAX_WORD_LEN + 1],
    /// cells_with[cell * 26 + letter]: neighbours of `cell` showing `letter`.
    cells_with: Vec<u64>,
    /// Letters shown by the neighbours of each cell.
    near_letters: Vec<u32>,
    /// Whether the walk may use `popcnt`, `tzcnt` and friends.
    bit_instructions: bool,
}

struct Walk<'a> {
    nodes: &'a [Node],
    found: &'a mut [u64],
    found_list: &'a mut Vec<u32>,
    cells_with: &'a [u64],
    near_letters: &'a [u32],
    points: &'a [u32; MAX_WORD_LEN + 1],
    tally: Tally,
}

/// The walk, written once and compiled twice: plainly, and (on x86-64)
/// with the bit instructions that its inner loop lives on (`popcnt` for
/// the child index, `tzcnt`/`blsr` for the letter and cell sets), which
/// a default build may not assume. [`Solver`] picks the second at run
/// time when the processor has them; the binary still runs anywhere.
macro_rules! walk {
    ($(#[$attr:meta])* $expand:ident, $(#[$rattr:meta])* $walk_board:ident) => {
        impl Walk<'_> {
            /// Extends the words of trie `node`, standing on `cell` with `used`
            /// cells and `len` letters so far, by the `letters` worth trying
            /// (`node.mask & near_letters[cell]`, not empty).
            ///
            /// Each child is looked at once, in the parent: its word is counted
            /// as soon as any free cell shows its letter, and the walk goes on
            /// into a cell only when the child has a letter next to that cell.
            /// Most steps of a search end there, so they cost no call.
            ///
            /// The indexing is unchecked: child indices are built in range,
            /// `cell` and every cell of `cells_with` are cells of the prepared
            /// board, letters are `< 26` and `len <= 2 * cells <= MAX_WORD_LEN`;
            /// `Solver::score` sets up every table with those sizes first.
            $(#[$attr])*
            fn $expand(&mut self, node: Node, cell: usize, used: u64, len: usize, mut letters: u32) {
                debug_assert!(cell < self.near_letters.len() && len <= MAX_WORD_LEN);
                while letters != 0 {
                    let l = letters.trailing_zeros();
                    letters &= letters - 1;
                    // SAFETY: cell < cells and l < 26.
                    let mut cells =
                        unsafe { *self.cells_with.get_unchecked(cell * 26 + l as usize) } & !used;
                    if cells == 0 {
                        continue;
                    }
                    let n = node.base + (node.mask & ((1u32 << l) - 1)).count_ones();
                    debug_assert!((n as usize) < self.nodes.len());
                    // SAFETY: n is a child index of the trie.
                    let child = unsafe { *self.nodes.get_unchecked(n as usize) };
                    let len = len + if l == QU as u32 { 2 } else { 1 };
                    if child.mask & WORD != 0 {
                        self.found_word(n, len);
                    }
                    while cells != 0 {
                        let d = cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        // SAFETY: d is a cell of the board.
                        let next = child.mask & unsafe { *self.near_letters.get_unchecked(d) };
                        if next != 0 {
                            self.$expand(child, d, used | (1u64 << d), len, next);
                        }
                    }
                }
            }

            /// Starts the walk from every cell of the board.
            $(#[$rattr])*
            fn $walk_board(&mut self, root: Node, cells: &[u8]) {
                for (c, &l) in cells.iter().enumerate() {
                    if root.mask & (1 << l) != 0 {
                        let n = root.base + (root.mask & ((1u32 << l) - 1)).count_ones();
                        let child = self.nodes[n as usize];
                        let next = child.mask & self.near_letters[c];
                        if next != 0 {
                            self.$expand(child, c, 1u64 << c, if l == QU { 2 } else { 1 }, next);
                        }
                    }
                }
            }
        }
    };
}

impl Walk<'_> {
    /// Counts the word at trie node `n` (of `len` letters) unless it is too
    /// short or already found on this board.
    #[inline(always)]
    fn found_word(&mut self, n: u32, len: usize) {
        // SAFETY: len <= MAX_WORD_LEN; n < nodes.len() <= 64 * found.len().
        let p = unsafe { *self.points.get_unchecked(len) };
        let bits = unsafe { self.found.get_unchecked_mut(n as usize >> 6) };
        let bit = 1u64 << (n & 63);
        if p != 0 && *bits & bit == 0 {
            *bits |= bit;
            self.found_list.push(n);
            self.tally.score += p;
            self.tally.count += 1;
        }
    }
}

walk!(
    #[inline(always)]
    expand,
    walk_board
);
#[cfg(target_arch = "x86_64")]
walk!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    expand_bmi,
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    walk_board_bmi
);

/// Whether this processor has the instructions of the fast walk.
fn has_bit_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl<'t> Solver<'t> {
    /// A solver over `trie` with `scoring`.
    pub fn new(trie: &'t Trie, scoring: Scoring) -> Self {
        Solver {
            trie,
            scoring,
            found: vec![0; trie.nodes.len().div_ceil(64)],
            found_list: Vec::with_capacity(4096),
            size: None,
            neighbours: Vec::new(),
            points: [0; MAX_WORD_LEN + 1],
            cells_with: Vec::new(),
            near_letters: Vec::new(),
            bit_instructions: has_bit_instructions(),
        }
    }

    /// The scoring in use.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    fn prepare(&mut self, board: &Board) {
        let size = board.size();
        if self.size != Some(size) {
            self.size = Some(size);
            self.neighbours = (0..size.cells())
                .map(|i| Board::neighbours(size, i).fold(0u64, |m, n| m | 1 << n))
                .collect();
            self.points = self.scoring.table(size);
            self.cells_with = vec![0; size.cells() * 26];
            self.near_letters = vec![0; size.cells()];
        }
        let cells = board.cells();
        for (c, &nbrs) in self.neighbours.iter().enumerate() {
            let row = &mut self.cells_with[c * 26..c * 26 + 26];
            let mut near = 0u32;
            let mut m = nbrs;
            while m != 0 {
                let n = m.trailing_zeros() as usize;
                m &= m - 1;
                let l = cells[n];
                row[l as usize] |= 1u64 << n;
                near |= 1 << l;
            }
            self.near_letters[c] = near;
        }
    }

    /// Clears the tables `prepare` filled: only the rows of letters next to
    /// each cell were set.
    fn finish(&mut self) {
        for (c, &near) in self.near_letters.iter().enumerate() {
            let mut m = near;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                self.cells_with[c * 26 + l] = 0;
            }
        }
    }

    /// Total points and number of distinct words on `board`.
    pub fn score(&mut self, board: &Board) -> Tally {
        self.prepare(board);
        let mut walk = Walk {
            nodes: &self.trie.nodes,
            found: &mut self.found,
            found_list: &mut self.found_list,
            cells_with: &self.cells_with,
            near_letters: &self.near_letters,
            points: &self.points,
            tally: Tally::default(),
        };
        let root = self.trie.nodes[0];
        #[cfg(target_arch = "x86_64")]
        if self.bit_instructions {
            // SAFETY: the processor has these instructions (checked once
            // in `Solver::new`).
            unsafe { walk.walk_board_bmi(root, board.cells()) };
        } else {
            walk.walk_board(root, board.cells());
        }
        #[cfg(not(target_arch = "x86_64"))]
        walk.walk_board(root, board.cells());
        let tally = walk.tally;
        for &n in &self.found_list {
            self.found[n as usize >> 6] = 0;
        }
        self.found_list.clear();
        self.finish();
        tally
    }

    /// Every word on `board` with its points and one path (the first found
    /// searching from cells in row-major order, neighbours in row-major
    /// order), sorted alphabetically.
    pub fn words(&mut self, board: &Board) -> Vec<FoundWord> {
        let size = board.size();
        let points = self.scoring.table(size);
        let neighbours: Vec<Vec<usize>> = (0..size.cells())
            .map(|i| Board::neighbours(size, i).collect())
            .collect();
        let mut found: std::collections::BTreeMap<String, FoundWord> = Default::default();
        let mut path = Vec::new();
        #[allow(clippy::too_many_arguments)]
        fn go(
            trie: &Trie,
            board: &Board,
            nbrs: &[Vec<usize>],
            points: &[u32],
            n: u32,
            cell: usize,
            len: usize,
            path: &mut Vec<usize>,
            found: &mut std::collections::BTreeMap<String, FoundWord>,
        ) {
            path.push(cell);
            if trie.nodes[n as usize].mask & WORD != 0 && points[len] != 0 {
                let word: String = path
                    .iter()
                    .map(|&c| {
                        if board.cells()[c] == QU {
                            "qu".to_string()
                        } else {
                            ((b'a' + board.cells()[c]) as char).to_string()
                        }
                    })
                    .collect();
                found.entry(word.clone()).or_insert_with(|| FoundWord {
                    word,
                    points: points[len],
                    path: path.clone(),
                });
            }
            for &d in &nbrs[cell] {
                if path.contains(&d) {
                    continue;
                }
                let l = board.cells()[d];
                if let Some(child) = trie.child(n, l) {
                    go(
                        trie,
                        board,
                        nbrs,
                        points,
                        child,
                        d,
                        len + if l == QU { 2 } else { 1 },
                        path,
                        found,
                    );
                }
            }
            path.pop();
        }
        for (c, &l) in board.cells().iter().enumerate() {
            if let Some(child) = self.trie.child(0, l) {
                go(
                    self.trie,
                    board,
                    &neighbours,
                    &points,
                    child,
                    c,
                    if l == QU { 2 } else { 1 },
                    &mut path,
                    &mut found,
                );
            }
        }
        found.into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both compilations of the walk give the same totals (on a processor
    /// without the bit instructions only the plain one runs).
    #[test]
    fn plain_and_bit_instruction_walks_agree() {
        use crate::bench::{random_boards, Dist};
        let words: Vec<String> = (0..3000u32)
            .map(|i| {
                let mut w = String::new();
                let mut x = i.wrapping_mul(2_654_435_761);
                for _ in 0..3 + (i % 6) {
                    w.push((b'a' + (x % 26) as u8) as char);
                    x /= 7;
                }
                w
            })
            .chain(["quit", "equal", "tea", "eat", "seat", "tease"].map(String::from))
            .collect();
        let trie = Trie::new(words.iter().map(String::as_str));
        for size in [Size::square(4), Size::square(5), Size::square(6)] {
            let boards = random_boards(300, "walks", &Dist::Uniform, size);
            let mut plain = Solver::new(&trie, Scoring::Boggle);
            plain.bit_instructions = false;
            let mut fast = Solver::new(&trie, Scoring::Boggle);
            let (mut sum, mut words) = (0, 0);
            for b in &boards {
                let t = plain.score(b);
                assert_eq!(t, fast.score(b), "{b:?}");
                assert_eq!(t.count as usize, plain.words(b).len());
                sum += t.score;
                words += t.count;
            }
            assert!(sum > 0 && words > 0, "the boards have words to find");
        }
    }

    #[test]
    fn spot_example_from_the_rules() {
        // Upper-left "S O / P T" from the original rules: SPOT, POTS, POT, STOP, TOP, TOPS.
        let trie = Trie::new([
            "spot", "pots", "pot", "stop", "top", "tops", "post", "opts", "so",
        ]);
        let board = Board::parse("so pt", None).unwrap();
        let mut s = Solver::new(&trie, Scoring::Gobble);
        let words: Vec<String> = s.words(&board).into_iter().map(|w| w.word).collect();
        assert_eq!(
            words,
            ["opts", "post", "pot", "pots", "spot", "stop", "top", "tops"]
        );
        let t = s.score(&board);
        assert_eq!(t.count, 8);
        assert_eq!(t.score, 6 * 2 + 2);
        assert_eq!(s.score(&board), t, "stamps reset between boards");
    }

    #[test]
    fn qu_counts_two_letters() {
        let trie = Trie::new(["quit", "quits", "qat"]);
        let board = Board::parse("quits", Some(Size::new(4, 1).unwrap())).unwrap();
        let mut s = Solver::new(&trie, Scoring::Gobble);
        let w = s.words(&board);
        assert_eq!(w.len(), 2);
        assert_eq!(w[0].word, "quit");
        assert_eq!(w[0].points, 2);
        assert_eq!(w[0].path, vec![0, 1, 2]);
        assert_eq!(
            s.score(&board),
            Tally {
                score: 2 + 3,
                count: 2
            }
        );
    }
}
