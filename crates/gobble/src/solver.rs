//! Finding every word on a board.
//!
//! [`Solver::score`] is the fast path (total points and word count only);
//! [`Solver::words`] also returns each word with one path that spells it.
//!
//! The fast path walks the board and the [`Trie`] together, breadth first:
//! one level holds every partial word of one length still worth extending,
//! as a [`Step`] (its trie node, the cell it ends on, the cells it uses).
//! A depth-first walk does the same work, but on random boards its time
//! goes mostly on mispredicted branches (whether to go deeper, whether a
//! word ends here, how many letters follow), and none of them is
//! predictable. Level by level, each step's extensions are written out
//! without those branches: a step is always written to the next level but
//! only kept (the write position advanced) when it can go on, and a word
//! is always written to a list of hits but only kept when it scores. The
//! trie loads of one level are independent, so the processor overlaps
//! their cache misses too. A level is extended at most [`CHUNK`] steps at
//! a time, each chunk followed to its words' ends before the next, so the
//! memory held stays small on any board and list. On this project's benchmarks that is about 1.7
//! times the depth-first walk.
//!
//! Before each board the solver notes, for every cell, the letters of its
//! neighbours: as a mask (letters absent from a cell's neighbourhood cut
//! off most of the trie) and as shifts that find, in one vector operation,
//! which neighbours' letters are children of a trie node. After the walk,
//! the hits are counted once each with one bit per trie node (48 KB for
//! ENABLE2K), set on the first hit and cleared from the same list; the
//! bits are touched for words only.

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
    /// The words the walk met and not yet settled, with repeats: trie node
    /// and points.
    hits: Vec<u64>,
    /// The nodes whose found bit is set, to clear after the board.
    found_list: Vec<u32>,
    /// Scratch space for the walk: one level of steps per word length.
    levels: Vec<Vec<Step>>,
    size: Option<Size>,
    /// The neighbours of each cell.
    neighbours: Vec<Neighbours>,
    points: [u32; MAX_WORD_LEN + 1],
    /// For each cell, `31 - letter` of each neighbour (see [`Neighbours`]).
    shifts: Vec<[u32; 8]>,
    /// Letters shown by the neighbours of each cell.
    near_letters: Vec<u32>,
    /// For each cell, the cells of every subset of its first four
    /// neighbours (by their bits in neighbour order), then of its last
    /// four: the AVX2 walk's way from neighbour order to cells.
    cell_bits: Vec<[u64; 32]>,
    /// Which compiled walk runs.
    walk: WalkKind,
    /// [`Solver::score_letters`]: the words met through its cell, by
    /// letter (trie node and points), and one bit per trie node to count
    /// each once.
    tagged: Vec<Vec<u64>>,
    seen: Vec<u64>,
}

/// The compiled versions of the walk. They find the same words; they
/// differ in the instructions that pick the neighbours continuing a prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WalkKind {
    /// No special instructions: eight shifts a step. Runs anywhere.
    Plain,
    /// AVX2 for all eight neighbours at once, then `pdep` from neighbour
    /// order to cells. `pdep` is one fast instruction on Intel since
    /// Haswell and AMD since Zen 3, but microcoded (tens of cycles) on
    /// AMD before Zen 3.
    Avx2Pdep,
    /// AVX2 for all eight neighbours at once, then two lookups in small
    /// per-cell tables from neighbour order to cells: no `pdep`.
    Avx2,
}

impl WalkKind {
    /// Every walk, in the order `--walk` lists them.
    pub const ALL: [WalkKind; 3] = [WalkKind::Plain, WalkKind::Avx2, WalkKind::Avx2Pdep];

    /// The walk's name: `plain`, `avx2` or `avx2-pdep`.
    pub fn name(self) -> &'static str {
        match self {
            WalkKind::Plain => "plain",
            WalkKind::Avx2Pdep => "avx2-pdep",
            WalkKind::Avx2 => "avx2",
        }
    }

    /// Reads a walk's name.
    pub fn parse(name: &str) -> Option<WalkKind> {
        WalkKind::ALL.into_iter().find(|w| w.name() == name)
    }

    /// Whether this processor can run the walk.
    pub fn runs_here(self) -> bool {
        match self {
            WalkKind::Plain => true,
            WalkKind::Avx2Pdep | WalkKind::Avx2 => has_fast_instructions(),
        }
    }

    /// The walk this processor runs fastest: the plain one without AVX2
    /// and BMI2; otherwise `pdep` only where it is one fast instruction.
    pub fn best_here() -> WalkKind {
        if !has_fast_instructions() {
            WalkKind::Plain
        } else if slow_pdep() {
            WalkKind::Avx2
        } else {
            WalkKind::Avx2Pdep
        }
    }
}

impl std::fmt::Display for WalkKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A partial word on the board: the trie node it reaches, the cell it ends
/// on, the cells it uses and its length in letters (Qu counting two).
#[derive(Clone, Copy, Debug, Default)]
struct Step {
    used: u64,
    node: Node,
    cell: u8,
    len: u8,
}

/// The neighbours of one cell: as a set, and as a list in increasing order
/// padded to eight with cell 0 (whose shift, 32, selects nothing).
#[derive(Clone, Copy, Debug, Default)]
struct Neighbours {
    mask: u64,
    cells: [u8; 8],
}

/// Steps extended at a time: a larger level is extended a chunk at a
/// time, each chunk's partial words followed to their ends before the
/// next chunk's, so that a board and list spelling words along billions of
/// paths (one letter everywhere, a list of long words of that letter) take
/// long, as any search would, but never run out of memory: at most a
/// chunk's extensions per word length are held.
const CHUNK: usize = 1 << 13;
/// Hits held before they are settled against the found bits.
const HITS_HELD: usize = 1 << 16;

/// One board's walk: the solver's tables, borrowed.
struct Walk<'a> {
    nodes: &'a [Node],
    hits: &'a mut Vec<u64>,
    found: &'a mut [u64],
    found_list: &'a mut Vec<u32>,
    tally: Tally,
    letters: &'a [u8],
    near_letters: &'a [u32],
    neighbours: &'a [Neighbours],
    shifts: &'a [[u32; 8]],
    cell_bits: &'a [[u64; 32]],
    points: &'a [u32; MAX_WORD_LEN + 1],
}

/// The walk, written once and compiled three times (see [`WalkKind`]):
/// plainly, and (on x86-64) twice with the instructions its inner loop
/// lives on (AVX2 to find which neighbours continue a prefix, with or
/// without `pdep`; `popcnt` for the child index, `tzcnt`/`blsr` for cell
/// sets), which a default build may not assume. [`Solver`] picks one at
/// run time by what the processor has and runs fast; the binary still
/// runs anywhere.
macro_rules! walk {
    ($(#[$attr:meta])* $walk:ident, $extend:ident, $children:ident) => {
        impl Walk<'_> {
            /// Finds every word on the board, level by level (see the module
            /// docs), with `levels` as scratch space.
            $(#[$attr])*
            fn $walk(&mut self, root: Node, levels: &mut Vec<Vec<Step>>) {
                if levels.is_empty() {
                    levels.push(Vec::new());
                }
                let level = &mut levels[0];
                level.clear();
                for (c, &l) in self.letters.iter().enumerate() {
                    if root.mask & (1 << l) != 0 {
                        let n = root.base + (root.mask & ((1u32 << l) - 1)).count_ones();
                        let node = self.nodes[n as usize];
                        if node.mask & self.near_letters[c] != 0 {
                            let len = if l == QU { 2 } else { 1 };
                            level.push(Step { used: 1 << c, node, cell: c as u8, len });
                        }
                    }
                }
                self.$extend(levels, 0);
            }

            /// Extends `levels[depth]`, a chunk at a time (see [`CHUNK`]),
            /// into `levels[depth + 1]`, and follows each chunk's
            /// extensions to their ends.
            ///
            /// The indexing is unchecked: child indices are built in range,
            /// every cell is a cell of the prepared board, letters are `< 26`
            /// and lengths are `<= 2 * cells <= MAX_WORD_LEN`; `Solver::score`
            /// sets up every table with those sizes first.
            $(#[$attr])*
            fn $extend(&mut self, levels: &mut Vec<Vec<Step>>, depth: usize) {
                if levels.len() <= depth + 1 {
                    levels.push(Vec::new());
                }
                let level = std::mem::take(&mut levels[depth]);
                let (nodes, letters, near_letters, points) =
                    (self.nodes, self.letters, self.near_letters, self.points);
                for chunk in level.chunks(CHUNK) {
                    if self.hits.len() > HITS_HELD {
                        self.settle();
                    }
                    let next = &mut levels[depth + 1];
                    next.clear();
                    // A step has at most eight extensions, each at most one word.
                    next.reserve(chunk.len() * 8);
                    self.hits.reserve(chunk.len() * 8);
                    let out = next.as_mut_ptr();
                    let mut kept = 0;
                    // SAFETY: in the allocation, just past its last hit.
                    let hits = unsafe { self.hits.as_mut_ptr().add(self.hits.len()) };
                    let mut noted = 0;
                    for step in chunk {
                        let node = step.node;
                        let mut cells = self.$children(node.mask, step.cell as usize) & !step.used;
                        while cells != 0 {
                            let d = cells.trailing_zeros() as usize;
                            cells &= cells - 1;
                            debug_assert!(d < letters.len());
                            // SAFETY: d is a cell of the board.
                            let l = u32::from(unsafe { *letters.get_unchecked(d) });
                            let n = node.base + (node.mask & ((1u32 << l) - 1)).count_ones();
                            debug_assert!((n as usize) < nodes.len());
                            // SAFETY: n is a child index of the trie.
                            let child = unsafe { *nodes.get_unchecked(n as usize) };
                            let len = step.len + if l == QU as u32 { 2 } else { 1 };
                            // A word is noted without a branch: always
                            // written, kept only when it scores. Whether it
                            // is new is settled later (`settle`).
                            debug_assert!(usize::from(len) <= MAX_WORD_LEN);
                            // SAFETY: len <= MAX_WORD_LEN.
                            let p = unsafe { *points.get_unchecked(usize::from(len)) } * (child.mask >> 31);
                            // SAFETY: fewer than `chunk.len() * 8` hits are
                            // written, and `hits` has room for them.
                            unsafe { hits.add(noted).write(u64::from(n) | u64::from(p) << 32) };
                            noted += usize::from(p != 0);
                            // SAFETY: d is a cell of the board.
                            let goes_on = child.mask & unsafe { *near_letters.get_unchecked(d) } != 0;
                            // SAFETY: as for the hits.
                            unsafe {
                                out.add(kept).write(Step {
                                    used: step.used | (1 << d),
                                    node: child,
                                    cell: d as u8,
                                    len,
                                })
                            };
                            kept += usize::from(goes_on);
                        }
                    }
                    // SAFETY: the first `kept` steps and `noted` more hits
                    // were written.
                    unsafe {
                        next.set_len(kept);
                        self.hits.set_len(self.hits.len() + noted);
                    }
                    if kept != 0 {
                        self.$extend(levels, depth + 1);
                    }
                }
                levels[depth] = level;
            }
        }
    };
}

impl Walk<'_> {
    /// Counts the hits noted so far that are new on this board, and
    /// forgets them.
    fn settle(&mut self) {
        // Without a branch, as in the walk: whether a hit is new is as
        // unpredictable as anything there.
        self.found_list.reserve(self.hits.len());
        let list = self.found_list.as_mut_ptr();
        let mut listed = self.found_list.len();
        for &hit in self.hits.iter() {
            let n = hit as u32;
            let bits = &mut self.found[n as usize >> 6];
            let bit = 1u64 << (n & 63);
            let new = u32::from(*bits & bit == 0);
            *bits |= bit;
            // SAFETY: room for one entry per hit was reserved above.
            unsafe { list.add(listed).write(n) };
            listed += new as usize;
            self.tally.score += (hit >> 32) as u32 * new;
            self.tally.count += new;
        }
        // SAFETY: the first `listed` entries are written.
        unsafe { self.found_list.set_len(listed) };
        self.hits.clear();
    }
}

walk!(walk_plain, extend_plain, children);
#[cfg(target_arch = "x86_64")]
walk!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    walk_avx2_pdep,
    extend_avx2_pdep,
    children_avx2_pdep
);
#[cfg(target_arch = "x86_64")]
walk!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    walk_avx2,
    extend_avx2,
    children_avx2
);

impl Walk<'_> {
    /// The neighbours of `cell` whose letter is in `mask`: each letter's bit
    /// moved to bit 31 by the neighbour's shift (`31 - letter`, or 32 for
    /// padding, which selects nothing).
    #[inline(always)]
    fn children(&self, mask: u32, cell: usize) -> u64 {
        debug_assert!(cell < self.neighbours.len());
        // SAFETY: cell is a cell of the board.
        let (nbrs, shifts) = unsafe {
            (
                self.neighbours.get_unchecked(cell),
                self.shifts.get_unchecked(cell),
            )
        };
        shifts.iter().zip(nbrs.cells).fold(0u64, |m, (&shift, d)| {
            m | ((u64::from(mask) << shift >> 31) & 1) << d
        })
    }

    /// [`Walk::children`] with AVX2 (all eight neighbours at once) and
    /// `pdep` (from neighbour order to cells).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi2")]
    #[inline]
    fn children_avx2_pdep(&self, mask: u32, cell: usize) -> u64 {
        use std::arch::x86_64::*;
        debug_assert!(cell < self.neighbours.len());
        // SAFETY: cell is a cell of the board.
        let (nbrs, shifts) = unsafe {
            (
                self.neighbours.get_unchecked(cell),
                self.shifts.get_unchecked(cell),
            )
        };
        // SAFETY: a row of shifts is eight u32s, 32 bytes.
        let shifts = unsafe { _mm256_loadu_si256(shifts.as_ptr().cast::<__m256i>()) };
        let top = _mm256_sllv_epi32(_mm256_set1_epi32(mask as i32), shifts);
        let bits = _mm256_movemask_ps(_mm256_castsi256_ps(top)) as u32;
        _pdep_u64(u64::from(bits), nbrs.mask)
    }

    /// [`Walk::children`] with AVX2 and no `pdep`: the eight neighbours'
    /// bits in neighbour order, as for `pdep`, then moved to cells by two
    /// small tables, one for each four neighbours.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    fn children_avx2(&self, mask: u32, cell: usize) -> u64 {
        use std::arch::x86_64::*;
        debug_assert!(cell < self.cell_bits.len());
        // SAFETY: cell is a cell of the board.
        let (table, shifts) = unsafe {
            (
                self.cell_bits.get_unchecked(cell),
                self.shifts.get_unchecked(cell),
            )
        };
        // SAFETY: a row of shifts is eight u32s, 32 bytes.
        let shifts = unsafe { _mm256_loadu_si256(shifts.as_ptr().cast::<__m256i>()) };
        let top = _mm256_sllv_epi32(_mm256_set1_epi32(mask as i32), shifts);
        let bits = _mm256_movemask_ps(_mm256_castsi256_ps(top)) as usize;
        // SAFETY: bits < 256, so both indices are below 32.
        unsafe { *table.get_unchecked(bits & 15) | *table.get_unchecked(16 + (bits >> 4)) }
    }
}

/// Whether `pdep` is microcoded here: AMD processors before Zen 3
/// (families below 0x19) take tens of cycles for it, where Intel and later
/// AMD take one.
fn slow_pdep() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        let vendor = __cpuid(0);
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
        let signature = __cpuid(1).eax;
        let family = (signature >> 8) & 0xf;
        let family = if family == 0xf {
            family + ((signature >> 20) & 0xff)
        } else {
            family
        };
        amd && family < 0x19
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this processor has the instructions of the fast walk.
pub(crate) fn has_fast_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The depth-first walk of [`Solver::score_letters`].
struct Letters<'a> {
    nodes: &'a [Node],
    letters: &'a [u8],
    neighbours: &'a [Neighbours],
    /// Letters shown by the neighbours of each cell, every letter for the
    /// neighbours of the cell that takes every letter.
    near_letters: [u32; 64],
    points: &'a [u32; MAX_WORD_LEN + 1],
    /// The cell that takes every letter.
    cell: usize,
    /// Words found on paths that avoid the cell, one bit per trie node.
    found: &'a mut [u64],
    found_list: &'a mut Vec<u32>,
    /// Their tally.
    base: Tally,
    /// Words found through the cell, by its letter: points << 32 | node.
    tagged: &'a mut [Vec<u64>],
}

/// No letter yet at the cell that takes every letter.
const UNTAGGED: u8 = 26;

impl Letters<'_> {
    /// Walks every path that starts at cell `c`.
    fn start(&mut self, root: Node, c: usize) {
        if c == self.cell {
            for l in 0..26u8 {
                if root.mask & 1 << l != 0 {
                    self.enter(root, c, l, 0, 0, l);
                }
            }
        } else {
            let l = self.letters[c];
            self.enter(root, c, l, 0, 0, UNTAGGED);
        }
    }

    /// Goes from a prefix at trie node `node` (of `len` letters, over the
    /// cells `used`) to cell `c` read as letter `l`.
    fn enter(&mut self, node: Node, c: usize, l: u8, used: u64, len: usize, tag: u8) {
        if node.mask & (1 << l) == 0 {
            return;
        }
        let n = node.base + (node.mask & ((1u32 << l) - 1)).count_ones();
        let child = self.nodes[n as usize];
        let len = len + if l == QU { 2 } else { 1 };
        let used = used | 1 << c;
        if child.mask & WORD != 0 && self.points[len] != 0 {
            let p = self.points[len];
            if tag == UNTAGGED {
                let bits = &mut self.found[n as usize >> 6];
                let bit = 1u64 << (n & 63);
                if *bits & bit == 0 {
                    *bits |= bit;
                    self.found_list.push(n);
                    self.base.score += p;
                    self.base.count += 1;
                }
            } else {
                self.tagged[usize::from(tag)].push(u64::from(p) << 32 | u64::from(n));
            }
        }
        if child.mask & self.near_letters[c] == 0 {
            return;
        }
        let nbrs = self.neighbours[c];
        let mut cells = nbrs.mask & !used;
        while cells != 0 {
            let d = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            if d == self.cell {
                // Only an untagged path can reach the cell: a tagged one
                // has used it.
                let mut ls = child.mask & !WORD;
                while ls != 0 {
                    let l = ls.trailing_zeros() as u8;
                    ls &= ls - 1;
                    self.enter(child, d, l, used, len, l);
                }
            } else if child.mask & 1 << self.letters[d] != 0 {
                self.enter(child, d, self.letters[d], used, len, tag);
            }
        }
    }
}

impl<'t> Solver<'t> {
    /// A solver over `trie` with `scoring`.
    pub fn new(trie: &'t Trie, scoring: Scoring) -> Self {
        Solver {
            trie,
            scoring,
            found: vec![0; trie.nodes.len().div_ceil(64)],
            hits: Vec::new(),
            found_list: Vec::new(),
            levels: Vec::new(),
            size: None,
            neighbours: Vec::new(),
            points: [0; MAX_WORD_LEN + 1],
            shifts: Vec::new(),
            near_letters: Vec::new(),
            cell_bits: Vec::new(),
            walk: WalkKind::best_here(),
            tagged: vec![Vec::new(); 26],
            seen: Vec::new(),
        }
    }

    /// The same solver running `walk` instead of the one chosen for this
    /// processor, or `None` if the processor cannot run it.
    pub fn with_walk(mut self, walk: WalkKind) -> Option<Self> {
        walk.runs_here().then(|| {
            self.walk = walk;
            self
        })
    }

    /// The walk this solver runs.
    pub fn walk(&self) -> WalkKind {
        self.walk
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
                .map(|i| {
                    let mut n = Neighbours::default();
                    for (k, c) in Board::neighbours(size, i).enumerate() {
                        n.mask |= 1 << c;
                        n.cells[k] = c as u8;
                    }
                    n
                })
                .collect();
            self.points = self.scoring.table(size);
            self.shifts = vec![[32; 8]; size.cells()];
            self.near_letters = vec![0; size.cells()];
            self.cell_bits = self
                .neighbours
                .iter()
                .map(|n| {
                    let count = n.mask.count_ones() as usize;
                    let mut table = [0; 32];
                    for (i, cells) in table.iter_mut().enumerate() {
                        let (half, subset) = (i / 16, i % 16);
                        for k in 0..4 {
                            let slot = 4 * half + k;
                            if subset & (1 << k) != 0 && slot < count {
                                *cells |= 1 << n.cells[slot];
                            }
                        }
                    }
                    table
                })
                .collect();
        }
        let cells = board.cells();
        for (c, nbrs) in self.neighbours.iter().enumerate() {
            let shifts = &mut self.shifts[c];
            let mut near = 0u32;
            for k in 0..nbrs.mask.count_ones() as usize {
                let l = cells[nbrs.cells[k] as usize];
                shifts[k] = 31 - u32::from(l);
                near |= 1 << l;
            }
            self.near_letters[c] = near;
        }
    }

    /// Total points and number of distinct words on `board`.
    pub fn score(&mut self, board: &Board) -> Tally {
        self.prepare(board);
        let mut walk = Walk {
            nodes: &self.trie.nodes,
            hits: &mut self.hits,
            found: &mut self.found,
            found_list: &mut self.found_list,
            tally: Tally::default(),
            letters: board.cells(),
            near_letters: &self.near_letters,
            neighbours: &self.neighbours,
            shifts: &self.shifts,
            cell_bits: &self.cell_bits,
            points: &self.points,
        };
        let root = self.trie.nodes[0];
        match self.walk {
            // SAFETY (both AVX2 walks): the processor has their
            // instructions (`WalkKind::runs_here`, checked whenever the
            // walk is set).
            #[cfg(target_arch = "x86_64")]
            WalkKind::Avx2Pdep => unsafe { walk.walk_avx2_pdep(root, &mut self.levels) },
            #[cfg(target_arch = "x86_64")]
            WalkKind::Avx2 => unsafe { walk.walk_avx2(root, &mut self.levels) },
            _ => walk.walk_plain(root, &mut self.levels),
        }
        walk.settle();
        let tally = walk.tally;
        for &n in &self.found_list {
            self.found[n as usize >> 6] = 0;
        }
        self.found_list.clear();
        tally
    }

    /// The totals of the 26 boards that differ from `board` at most in
    /// `cell`: entry `l` is the board with `cell` set to letter `l` (so the
    /// entry of the cell's own letter is `board`'s own tally).
    ///
    /// One depth-first walk serves all 26: paths that avoid `cell` are
    /// walked once, and a path that reaches it goes on with each letter
    /// the trie allows there, tagged with that letter. A word found
    /// without the cell counts on every board; a word found only through
    /// the cell counts on the boards of the letters it was found with. On
    /// a high-scoring 5x5 board this costs a few boards' scoring, against
    /// 25 for scoring each change alone.
    pub fn score_letters(&mut self, board: &Board, cell: usize) -> [Tally; 26] {
        assert!(cell < board.cells().len(), "cell {cell} is on the board");
        self.prepare(board);
        let mut tagged = std::mem::take(&mut self.tagged);
        let mut near_letters = [0u32; 64];
        for (c, near) in self.near_letters.iter().enumerate() {
            near_letters[c] = if self.neighbours[c].mask & 1 << cell != 0 {
                (1 << 26) - 1
            } else {
                *near
            };
        }
        let mut letters = Letters {
            nodes: &self.trie.nodes,
            letters: board.cells(),
            neighbours: &self.neighbours,
            near_letters,
            points: &self.points,
            cell,
            found: &mut self.found,
            found_list: &mut self.found_list,
            base: Tally::default(),
            tagged: &mut tagged[..],
        };
        let root = self.trie.nodes[0];
        for c in 0..board.cells().len() {
            letters.start(root, c);
        }
        let base = letters.base;
        let mut out = [base; 26];
        // Each word met through the cell counts once per letter, and only
        // where the walk that avoids the cell did not find it.
        self.seen.resize(self.found.len(), 0);
        for (list, tally) in tagged.iter_mut().zip(out.iter_mut()) {
            for &t in list.iter() {
                let n = t as u32;
                let (w, bit) = (n as usize >> 6, 1u64 << (n & 63));
                if (self.found[w] | self.seen[w]) & bit == 0 {
                    self.seen[w] |= bit;
                    tally.score += (t >> 32) as u32;
                    tally.count += 1;
                }
            }
            for &t in list.iter() {
                self.seen[t as u32 as usize >> 6] = 0;
            }
            list.clear();
        }
        for &n in &self.found_list {
            self.found[n as usize >> 6] = 0;
        }
        self.found_list.clear();
        self.tagged = tagged;
        out
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

    /// Every compilation of the walk gives the same totals (on a
    /// processor without the bit instructions only the plain one runs).
    #[test]
    fn every_walk_agrees() {
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
        // 8x8 puts cells in the high half of the 64-bit cell sets.
        for size in [
            Size::square(4),
            Size::square(5),
            Size::square(6),
            Size::square(8),
        ] {
            let boards = random_boards(300, "walks", &Dist::Uniform, size);
            let mut plain = Solver::new(&trie, Scoring::Boggle)
                .with_walk(WalkKind::Plain)
                .unwrap();
            let mut others: Vec<Solver> = WalkKind::ALL
                .into_iter()
                .filter_map(|w| Solver::new(&trie, Scoring::Boggle).with_walk(w))
                .collect();
            let (mut sum, mut words) = (0, 0);
            for b in &boards {
                let t = plain.score(b);
                for other in &mut others {
                    assert_eq!(t, other.score(b), "{} on {b:?}", other.walk());
                }
                assert_eq!(t.count as usize, plain.words(b).len());
                sum += t.score;
                words += t.count;
            }
            assert!(sum > 0 && words > 0, "the boards have words to find");
        }
    }

    /// Every letter at one cell, in one walk, gives each board's own
    /// totals (random boards of several sizes, every cell, a list with Qu
    /// words and words of every length).
    #[test]
    fn score_letters_matches_scoring_each_board() {
        use crate::bench::{random_boards, Dist};
        let words: Vec<String> = (0..4000u32)
            .map(|i| {
                let mut w = String::new();
                let mut x = i.wrapping_mul(2_654_435_761);
                for _ in 0..3 + (i % 7) {
                    w.push((b'a' + (x % 12) as u8 * 2 % 26) as char);
                    x /= 5;
                }
                w
            })
            .chain(["quit", "equal", "tea", "eat", "seat", "tease", "eats"].map(String::from))
            .collect();
        let trie = Trie::new(words.iter().map(String::as_str));
        for (size, scoring) in [
            (Size::square(3), Scoring::Gobble),
            (Size::square(4), Scoring::Boggle),
            (Size::square(5), Scoring::Gobble),
            (Size::new(5, 3).unwrap(), Scoring::Boggle),
        ] {
            let mut s = Solver::new(&trie, scoring);
            let mut one = Solver::new(&trie, scoring);
            let mut total = 0;
            for b in random_boards(12, "letters", &Dist::Uniform, size) {
                for cell in 0..size.cells() {
                    let all = s.score_letters(&b, cell);
                    for l in 0..26u8 {
                        let mut v = b.clone();
                        v.set(cell, l);
                        assert_eq!(
                            all[l as usize],
                            one.score(&v),
                            "{} cell {cell} = {l}",
                            b.letters()
                        );
                        total += all[l as usize].score;
                    }
                }
                assert_eq!(s.score(&b), one.score(&b), "solver state cleared");
            }
            assert!(total > 0, "the boards have words");
        }
    }

    /// One letter everywhere and words of only that letter: levels far
    /// larger than a chunk, extended a chunk at a time, same totals.
    #[test]
    fn huge_levels_are_walked_in_chunks() {
        let words: Vec<String> = (3..=12).map(|n| "e".repeat(n)).collect();
        let trie = Trie::new(words.iter().map(String::as_str));
        let board = Board::parse(&"e".repeat(12), Some(Size::new(4, 3).unwrap())).unwrap();
        for walk in WalkKind::ALL.into_iter().filter(|w| w.runs_here()) {
            let mut s = Solver::new(&trie, Scoring::Gobble).with_walk(walk).unwrap();
            let t = s.score(&board);
            assert_eq!(t.count, 10, "every word from 3 to 12 letters");
            assert_eq!(t.score, (1..=10).sum::<u32>());
            assert_eq!(s.score(&board), t, "found bits cleared between boards");
            assert!(s.levels.iter().map(Vec::capacity).max().unwrap() <= 8 * CHUNK);
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
