//! Proving the best boards: an exhaustive branch and bound over board classes.
//!
//! A *class* gives every cell a set of letters (a mask over `0..26`); it
//! stands for every board that picks one letter per cell from those sets.
//! The letters are split into a few *buckets*, and the search starts from
//! every assignment of one bucket per cell, keeping one assignment of each
//! set of symmetric ones (a board and its mirror images score the same).
//!
//! For a class, [`Prover::bound`] is an upper bound on the score of each of
//! its boards, from the class's orderly tree (hybrid-boggle's idea, written
//! anew; see [`Tree`]). The cells are then forced to each of their letters
//! in split order (centre outwards), each forced class bounded from the same
//! tree, until a class whose bound is below the target is dropped or a
//! class is one board, scored exactly by [`Solver`]. Classes that differ
//! only in their last split positions' buckets share one tree and are
//! forced together, one 16-bit lane each ([`Prover::with_merged`]).

use crate::board::{Board, Size, QU};
use crate::scoring::{Scoring, MAX_WORD_LEN};
use crate::solver::Solver;
use crate::trie::{Trie, WORD};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The default buckets (hybrid-boggle's four for 3x3): rare consonants,
/// vowels, common consonants, the rest. Each letter is in exactly one.
pub const DEFAULT_BUCKETS: &str = "bdfgjqvwxz,aeiou,lnrsy,chkmpt";

/// The buckets a proof of `size` uses unless told otherwise: one set for
/// every cell, then other sets for some cells (a selector for
/// [`parse_cells`] and its buckets), applied in turn. Fewer buckets mean
/// fewer tree builds but larger trees; these were the fastest measured
/// (docs/rules/gobble.md, "Proving the best boards"): vowels against the
/// rest up to 3x3; the four with coarser corners up to 3x4 (a uniform
/// sample predicts 2.7x less CPU than hybrid-boggle's three buckets, whose
/// vowel-centred classes take seconds each, and less than five buckets,
/// whose extra tree builds cost more than their tighter bounds save), and
/// on 3x4 the three coarser buckets on the ring next to the centre (the
/// middle cells of the long sides: fewer classes, and their bounds barely
/// loosen); the four otherwise.
pub fn default_buckets(size: Size) -> (&'static str, &'static [(&'static str, &'static str)]) {
    const CORNERS: (&str, &str) = ("corners", "aeiosuy,bcdfghjklmnpqrtvwxz");
    const RING1: (&str, &str) = ("ring1", "aeijou,bcdfgmpqvwxz,hklnrsty");
    match (size.cells(), size.width.min(size.height)) {
        (0..=9, _) => ("aeiou,bcdfghjklmnpqrstvwxyz", &[]),
        (12, 3) => (DEFAULT_BUCKETS, &[CORNERS, RING1]),
        (10..=12, _) => (DEFAULT_BUCKETS, &[CORNERS]),
        _ => (DEFAULT_BUCKETS, &[]),
    }
}

/// Each cell's ring: cells at the same distance from the board's centre
/// share one, numbered from 0 at the centre. A ring is a union of sets of
/// mirror images (every symmetry keeps distances), so buckets given per
/// ring never tell mirror images apart; the last ring of a rectangle is
/// its corners.
pub fn rings(size: Size) -> Vec<usize> {
    let far = |i: usize| {
        let (r, c) = ((i / size.width) as i64, (i % size.width) as i64);
        (2 * r - (size.height as i64 - 1)).pow(2) + (2 * c - (size.width as i64 - 1)).pow(2)
    };
    let mut distances: Vec<i64> = (0..size.cells()).map(far).collect();
    distances.sort_unstable();
    distances.dedup();
    (0..size.cells())
        .map(|i| distances.binary_search(&far(i)).unwrap_or(0))
        .collect()
}

/// The cells a selector names: `+`-separated cell numbers (row-major from
/// 0), `ringK` (see [`rings`]) or `corners`; each cell once, in order.
pub fn parse_cells(size: Size, text: &str) -> Result<Vec<usize>, BucketError> {
    let n = size.cells();
    let ring = rings(size);
    let mut cells = Vec::new();
    for item in text.split('+') {
        let item = item.trim();
        if item == "corners" {
            let (w, h) = (size.width, size.height);
            cells.extend([0, w - 1, (h - 1) * w, h * w - 1]);
        } else if let Some(k) = item.strip_prefix("ring") {
            let k: usize = k.parse().map_err(|_| {
                BucketError(format!(
                    "{item:?}: a ring is ring0, ring1, ... (0 the centre)"
                ))
            })?;
            let before = cells.len();
            cells.extend((0..n).filter(|&i| ring[i] == k));
            if cells.len() == before {
                return Err(BucketError(format!(
                    "{item}: a {size} board has rings 0 to {}",
                    ring.iter().max().unwrap_or(&0)
                )));
            }
        } else {
            match item.parse::<usize>() {
                Ok(i) if i < n => cells.push(i),
                _ => {
                    return Err(BucketError(format!(
                        "{item:?}: cells are numbers 0 to {} (row-major), ringK or corners, joined by +",
                        n - 1
                    )))
                }
            }
        }
    }
    cells.sort_unstable();
    cells.dedup();
    Ok(cells)
}

/// Buckets as text, each bucket's letters in order: the form a checkpoint
/// header names them in, so that the same buckets written differently
/// still resume and different ones never do.
pub fn buckets_text(buckets: &[u32]) -> String {
    buckets
        .iter()
        .map(|&m| letters(m).map(|l| (b'a' + l) as char).collect::<String>())
        .collect::<Vec<_>>()
        .join(",")
}

/// Why a set of buckets was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BucketError(pub String);

impl std::fmt::Display for BucketError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BucketError {}

/// Parses buckets written as comma-separated groups of letters (`q` is the
/// Qu cell); no letter may be in two buckets. A letter in no bucket is never
/// placed, so a complete proof needs all 26 (small alphabets are for tests).
pub fn parse_buckets(text: &str) -> Result<Vec<u32>, BucketError> {
    let mut out = Vec::new();
    let mut seen = 0u32;
    for group in text.split(',') {
        let mut mask = 0u32;
        for c in group.trim().chars() {
            if !c.is_ascii_alphabetic() {
                return Err(BucketError(format!(
                    "buckets are letters a-z in comma-separated groups; {c:?} is not a letter"
                )));
            }
            let bit = 1u32 << (c.to_ascii_lowercase() as u8 - b'a');
            if seen & bit != 0 {
                return Err(BucketError(format!(
                    "letter {c} is in two buckets; each letter belongs to exactly one"
                )));
            }
            seen |= bit;
            mask |= bit;
        }
        if mask == 0 {
            return Err(BucketError("a bucket is empty".into()));
        }
        out.push(mask);
    }
    if out.len() > 16 {
        return Err(BucketError("at most 16 buckets".into()));
    }
    Ok(out)
}

/// What was found and how much work it took.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ProofStats {
    /// Top-level classes (bucket assignments) in the search, after symmetry.
    pub classes: u64,
    /// Bounds computed: one per top-level class from its tree, one per
    /// forced letter after that (for all the classes forced together).
    pub bounds: u64,
    /// Orderly tree nodes built (sum and choice nodes, over every class).
    pub tree_nodes: u64,
    /// Boards scored exactly.
    pub boards_scored: u64,
}

/// One board scoring at least the target.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Found {
    /// Letters in row-major order (`q` = Qu).
    pub board: String,
    /// Its exact score.
    pub score: u32,
}

/// The branch-and-bound prover for one size, trie and scoring.
pub struct Prover<'t> {
    trie: &'t Trie,
    size: Size,
    scoring: Scoring,
    points: [u32; MAX_WORD_LEN + 1],
    /// Per cell, its neighbours (bit per cell).
    neighbour_cells: Vec<u64>,
    /// Cells in the order they are split: centre outwards.
    order: Vec<usize>,
    /// Each cell's place in `order`.
    position: Vec<usize>,
    /// Each cell's buckets (corners may have their own).
    cell_buckets: Vec<Vec<u32>>,
    /// How many of the last split positions one tree serves (see
    /// [`Prover::with_merged`]).
    merged: usize,
    /// The most word paths one tree is built from (see
    /// [`Prover::with_tree_paths`]).
    tree_paths: usize,
    /// Whether word paths fit [`ShortPath`]: at most
    /// [`SHORT_PATH_CELLS`] cells and every word's points in 16 bits.
    short_paths: bool,
    /// Whether the fast twins of the hot functions may run (see [`hot`]).
    fast: Option<FastInstructions>,
}

/// `v`'s allocation, emptied, as a vector of `B`; a new, empty one where
/// the two cannot share it (another alignment, or not a whole number of
/// `B`s).
///
/// A tree's buffers are most of a proof's memory, and a large tree's
/// phases need different ones: its word paths (and the sort's room for
/// them) only until it is built, its lanes only after. So one allocation
/// serves both, handed from phase to phase and never given back: a buffer
/// given back to the system is cleared page by page by the kernel when it
/// is taken again, which cost a capped 3x4 proof a twentieth more CPU.
fn recast<A: Copy, B: Copy>(mut v: Vec<A>) -> Vec<B> {
    let bytes = v.capacity() * size_of::<A>();
    if bytes == 0 || align_of::<A>() != align_of::<B>() || !bytes.is_multiple_of(size_of::<B>()) {
        return Vec::new();
    }
    v.clear();
    let mut v = std::mem::ManuallyDrop::new(v);
    // SAFETY: the pointer was allocated by the global allocator for
    // `bytes` bytes at `A`'s alignment, which is `B`'s; `bytes` is a whole
    // number of `B`s; the length is 0, so nothing is read as a `B`.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<B>(), 0, bytes / size_of::<B>()) }
}

// The types a tree's allocation is handed between (see [`recast`]) share
// one alignment, so the hand-over never falls back to a new allocation.
const _: () = assert!(align_of::<ShortPath>() == align_of::<LaneRow>());
const _: () = assert!(align_of::<WordPath>() == align_of::<LaneRow>());

/// A class's word paths by the letters they take at split positions 0 and
/// 1 (31 where they do not pass): what a split of a class too large for
/// one tree is planned from (see [`Prover::break_planned`]).
type Counts = [[u64; 32]; 32];

/// Where a dictionary walk puts the word paths it finds: up to `most` in
/// `paths`, and when there are more, all of them counted, in `over`. A walk
/// that outgrows `most` keeps in `paths` only the paths a split of the
/// class would share (see [`Shared`]), while they fit: the widest such set
/// that does. Beside them it keeps every path through some of the first
/// split cell's letters ([`Over::first`]), as many as fit, so that one part
/// of the split needs no walk of its own. A walk for one part of a split
/// leaves the shared ones out.
struct Sink<'a, P> {
    paths: &'a mut Vec<P>,
    most: usize,
    over: Box<Over>,
    /// Whether more than `most` paths were found.
    over_cap: bool,
    /// The shared paths left out (they are built already).
    skip: Option<Shared>,
    /// The shifts of split positions 0 and 1 in a path's key.
    shifts: [usize; 2],
}

/// A walk that found more word paths than one tree may hold: their
/// [`Counts`], and which ones it kept.
#[derive(Debug)]
struct Over {
    counts: Counts,
    /// The shared paths kept.
    kept: Shared,
    /// The letters of split position 0 whose paths were all kept too
    /// (none unless `kept` is [`Shared::MissFirst`]).
    first: u32,
}

impl Over {
    /// Whether a path with letters `a` and `b` at split positions 0 and 1
    /// was kept.
    fn keeps(&self, a: usize, b: usize) -> bool {
        self.kept.holds(a, b) || self.first >> a & 1 != 0
    }

    /// How many paths pass letter `a` at split position 0.
    fn through(&self, a: usize) -> u64 {
        self.counts[a].iter().sum()
    }
}

/// The word paths of a class that every part of its split has (see
/// [`Prover::break_planned`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shared {
    /// Those that miss split position 0, when the parts split only it.
    MissFirst,
    /// Those that miss split positions 0 and 1.
    MissBoth,
    /// None kept: too many.
    Lost,
}

/// The roots of a tree whose part's own root is `part_root` (see
/// [`Tree::part_root`]): the first sum node, then that one.
fn roots(part_root: Option<u32>) -> impl Iterator<Item = usize> {
    std::iter::once(0).chain(part_root.map(|r| r as usize))
}

/// The letter field of a word path that does not pass a split position.
const NOT_PASSED: usize = 31;

impl Shared {
    /// Whether a path with letters `a` and `b` at split positions 0 and 1
    /// is shared.
    fn holds(self, a: usize, b: usize) -> bool {
        match self {
            Shared::MissFirst => a == NOT_PASSED,
            Shared::MissBoth => a == NOT_PASSED && b == NOT_PASSED,
            Shared::Lost => false,
        }
    }
}

/// The shifts of split positions 0 and 1 in the key of a path through
/// `n` cells (position 0 twice when there is only one).
fn split_shifts(n: usize) -> [usize; 2] {
    let shift = |p: usize| 5 * (n - 1 - p.min(n - 1));
    [shift(0), shift(1)]
}

/// The letters of `p` at split positions 0 and 1 (see [`split_shifts`]).
fn split_letters<P: Path>(p: &P, [s0, s1]: [usize; 2]) -> (usize, usize) {
    (p.letter(s0) as usize, p.letter(s1) as usize)
}

/// Keeps in `paths` only those of the shared set `kept`, the split
/// positions' shifts being `shifts` (see [`split_shifts`]).
fn retain_shared<P: Path>(paths: &mut Vec<P>, kept: Shared, shifts: [usize; 2]) {
    paths.retain(|p| {
        let (a, b) = split_letters(p, shifts);
        kept.holds(a, b)
    });
}

impl<P: Path> Sink<'_, P> {
    /// Keeps in `paths` only those [`Over::keeps`] says.
    fn retain_kept(&mut self) {
        let (over, shifts) = (&self.over, self.shifts);
        self.paths.retain(|p| {
            let (a, b) = split_letters(p, shifts);
            over.keeps(a, b)
        });
    }

    /// Makes room by keeping fewer paths: those of the letter of split
    /// position 0 with the fewest paths so far are let go (so the kept
    /// letters hold as many paths as they can), and once none is left,
    /// the narrower shared set, or none.
    fn keep_fewer(&mut self) {
        let over = &mut self.over;
        let fewest = letters(over.first)
            .map(|l| (over.through(l as usize), l))
            .filter(|&(c, _)| c > 0)
            .min();
        match fewest {
            Some((_, l)) => over.first &= !(1 << l),
            None => {
                over.first = 0;
                over.kept = match over.kept {
                    Shared::MissFirst => Shared::MissBoth,
                    _ => Shared::Lost,
                };
            }
        }
        self.retain_kept();
    }

    /// Takes one word path the walk found: inlined into the walk for the
    /// common case (a whole tree's walk with room left), where it is one
    /// push, as it was before trees had a cap.
    #[inline(always)]
    fn take(&mut self, p: P) {
        if self.skip.is_none() && !self.over_cap && self.paths.len() < self.most {
            self.paths.push(p);
            return;
        }
        self.take_rest(p);
    }

    #[cold]
    #[inline(never)]
    fn take_rest(&mut self, p: P) {
        let (a, b) = split_letters(&p, self.shifts);
        if self.skip.is_some_and(|s| s.holds(a, b)) {
            return;
        }
        if !self.over_cap {
            if self.paths.len() < self.most {
                self.paths.push(p);
                return;
            }
            self.over_cap = true;
            for q in self.paths.iter() {
                let (a, b) = split_letters(q, self.shifts);
                self.over.counts[a][b] += 1;
            }
            if self.skip.is_some() {
                self.retain_kept();
            }
        }
        self.over.counts[a][b] += 1;
        // Past `most` the kept paths cannot make a piece of a tree: then
        // fewer are kept, or none.
        while self.over.keeps(a, b) {
            if self.paths.len() < self.most {
                self.paths.push(p);
                break;
            }
            self.keep_fewer();
        }
    }
}

/// Which piece of a tree a build makes (see [`Prover::break_planned`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    /// The whole tree of a class.
    Whole,
    /// A group's shared paths, from those the walk that found its class
    /// too large kept: a piece of every part's tree.
    Shared(Shared),
    /// The paths of one part that are not shared, beside the shared piece
    /// already built.
    Part(Shared),
    /// The shared piece ([`Shared::MissFirst`]) and beside it the part of
    /// the letters of [`Over::first`], both from the paths the walk that
    /// found the class too large kept: that part's tree, with no walk.
    Kept,
}

/// The most word paths one tree is built from unless told otherwise (see
/// [`Prover::with_tree_paths`]).
pub const DEFAULT_TREE_PATHS: usize = 5_000_000;

/// The most cells a proof handles: a word path's letters are packed five
/// bits per cell into a `u128`.
pub const MAX_PROVE_CELLS: usize = 25;

/// One word path through a class, wide enough for any board.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(16))]
struct WordPath {
    /// Five bits per split position, position 0 highest: the letter the
    /// path takes there, or 31 where it does not pass. Sorting by it puts
    /// paths sharing their first choices together, and the path with no
    /// choice left last.
    key: u128,
    /// The split positions the path uses (bit per position).
    used: u32,
    /// The word's trie node (its identity).
    word: u32,
    points: u32,
}

/// One word path through a class of at most [`SHORT_PATH_CELLS`] cells:
/// the same fields as [`WordPath`] in half the bytes (16 instead of 32),
/// since building a 3x4 tree writes, sorts (six passes over the records)
/// and reads millions of them.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(16))]
struct ShortPath {
    /// As [`WordPath::key`]: 12 cells take 60 bits.
    key: u64,
    word: u32,
    /// A path's points fit (see [`Prover::new`]); a sum of several words'
    /// that would not is kept as a second record with the same key.
    points: u16,
    used: u16,
}

/// The most cells a [`ShortPath`] holds.
const SHORT_PATH_CELLS: usize = 12;

/// What collecting, sorting and building read of a word path, so one code
/// serves both widths.
trait Path: Copy + Default {
    /// The key's type: the narrowest that holds it, since the trie walk
    /// updates one per step.
    type Key: PathKey;
    fn new(key: Self::Key, used: u32, word: u32, points: u32) -> Self;
    /// The key's low 64 bits (the radix sort's digits).
    fn low(&self) -> u64;
    fn key(&self) -> u128;
    /// The five bits at `shift`: the letter at one split position, or 31.
    fn letter(&self, shift: usize) -> u32;
    fn used(&self) -> u32;
    fn word(&self) -> u32;
    fn points(&self) -> u32;
    /// Adds `points` to the record's, or says it cannot hold the sum.
    fn add_points(&mut self, points: u32) -> bool;
}

/// A word path's key as the trie walk builds it (see [`WordPath::key`]).
trait PathKey: Copy {
    /// Every one of `n` positions unused (31).
    fn none(n: usize) -> Self;
    /// The key with `letter` at the position whose five bits start at `shift`.
    fn with(self, shift: usize, letter: u8) -> Self;
}

impl PathKey for u128 {
    fn none(n: usize) -> Self {
        (1u128 << (5 * n)) - 1
    }
    fn with(self, shift: usize, letter: u8) -> Self {
        (self & !(31u128 << shift)) | (letter as u128) << shift
    }
}

impl PathKey for u64 {
    /// Only for `n` up to [`SHORT_PATH_CELLS`].
    fn none(n: usize) -> Self {
        (1u64 << (5 * n)) - 1
    }
    fn with(self, shift: usize, letter: u8) -> Self {
        (self & !(31u64 << shift)) | (letter as u64) << shift
    }
}

impl Path for WordPath {
    type Key = u128;
    fn new(key: u128, used: u32, word: u32, points: u32) -> Self {
        WordPath {
            key,
            used,
            word,
            points,
        }
    }
    fn low(&self) -> u64 {
        self.key as u64
    }
    fn key(&self) -> u128 {
        self.key
    }
    fn letter(&self, shift: usize) -> u32 {
        (self.key >> shift) as u32 & 31
    }
    fn used(&self) -> u32 {
        self.used
    }
    fn word(&self) -> u32 {
        self.word
    }
    fn points(&self) -> u32 {
        self.points
    }
    fn add_points(&mut self, points: u32) -> bool {
        match self.points.checked_add(points) {
            Some(p) => self.points = p,
            None => return false,
        }
        true
    }
}

impl Path for ShortPath {
    type Key = u64;
    /// Only for keys of at most [`SHORT_PATH_CELLS`] cells and points
    /// that fit in 16 bits (the prover checks both once).
    fn new(key: u64, used: u32, word: u32, points: u32) -> Self {
        ShortPath {
            key,
            word,
            points: points as u16,
            used: used as u16,
        }
    }
    fn low(&self) -> u64 {
        self.key
    }
    fn key(&self) -> u128 {
        self.key as u128
    }
    fn letter(&self, shift: usize) -> u32 {
        (self.key >> shift) as u32 & 31
    }
    fn used(&self) -> u32 {
        self.used as u32
    }
    fn word(&self) -> u32 {
        self.word
    }
    fn points(&self) -> u32 {
        self.points as u32
    }
    fn add_points(&mut self, points: u32) -> bool {
        match u16::try_from(points)
            .ok()
            .and_then(|p| self.points.checked_add(p))
        {
            Some(p) => self.points = p,
            None => return false,
        }
        true
    }
}

/// A sum node: points certain once the choices above it are made, plus the
/// choices below, contiguous in [`Tree::choices`]. A sum node with no
/// choice below is a leaf, kept as its points alone (see [`ChoiceNode`]).
#[derive(Clone, Copy, Debug, Default)]
struct SumNode {
    points: u32,
    first: u32,
    len: u32,
}

/// A choice node: the letter of the cell at split position `pos`; one sum
/// node per letter in `letters`, in letter order: those of the letters in
/// `leaves` are leaves, whose points are contiguous in [`Tree::leaves`]
/// from `first_leaf`, and the others are contiguous in [`Tree::sums`] from
/// `first`. Nearly half of a tree's sum nodes are leaves (0.9 a word path
/// on 3x4 against 1.05 others), and a leaf's bound in every lane is its
/// points where the lane allows its letter: kept as 4 bytes, not as a sum
/// node and its lanes (44 bytes), a tree takes a quarter less memory.
///
/// The split position shares a word with the letters (at most 25 cells, 26
/// letters): a choice node of 16 bytes instead of 20, 1.35 of them a word
/// path on 3x4, takes a fifteenth off a tree.
#[derive(Clone, Copy, Debug, Default)]
struct ChoiceNode {
    /// The letters in bits 0-25, the split position from [`POS_SHIFT`].
    letters_pos: u32,
    leaves: u32,
    first: u32,
    first_leaf: u32,
}

/// Where a [`ChoiceNode`]'s split position starts in its letters' word.
const POS_SHIFT: u32 = 27;
const _: () = assert!(MAX_PROVE_CELLS <= 1 << (32 - POS_SHIFT) && 26 <= POS_SHIFT);

impl ChoiceNode {
    fn new(pos: usize, letters: u32, leaves: u32, first: u32, first_leaf: u32) -> Self {
        debug_assert!(pos < 1 << (32 - POS_SHIFT) && letters < 1 << POS_SHIFT);
        ChoiceNode {
            letters_pos: letters | (pos as u32) << POS_SHIFT,
            leaves,
            first,
            first_leaf,
        }
    }

    /// The split position of its cell.
    #[inline(always)]
    fn pos(&self) -> usize {
        (self.letters_pos >> POS_SHIFT) as usize
    }

    /// Its letters, as a mask.
    #[inline(always)]
    fn letters(&self) -> u32 {
        self.letters_pos & ((1 << POS_SHIFT) - 1)
    }
}

/// Where the sum node of one letter of a choice is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Child {
    /// A sum node with choices, in [`Tree::sums`].
    Inner(u32),
    /// A leaf, in [`Tree::leaves`].
    Leaf(u32),
}

/// The orderly tree of a class (hybrid-boggle's idea; our own code).
///
/// Every word path is written as the (cell, letter) choices it makes, in
/// the fixed split order of the cells, and the paths form a tree whose sum
/// nodes add up their children and whose choice nodes pick one letter of a
/// cell. The bound of a sum node is its points plus the bounds of its
/// choices; that of a choice node, the best of its letters. Because cells
/// come in one fixed order on every path, forcing the first cell of the
/// order only ever replaces choice nodes by one of their children, so the
/// forced class's bound comes from the same tree with no walk of the trie.
#[derive(Default)]
pub struct Tree {
    /// The word paths of boards up to [`SHORT_PATH_CELLS`] cells, and the
    /// radix sort's room for them (see [`sort_and_merge`]).
    short: Vec<ShortPath>,
    /// Those of larger boards.
    wide: Vec<WordPath>,
    /// The sum nodes that have choices below them; the first is the root.
    sums: Vec<SumNode>,
    choices: Vec<ChoiceNode>,
    /// The points of the leaves (see [`ChoiceNode`]).
    leaves: Vec<u32>,
    /// Per sum node with choices, its bound in each lane (see
    /// [`Prover::fill_lanes`]). A choice node's bound (the best of its
    /// letters') is read only while filling these, so it is not kept; nor
    /// is a leaf's, which is its points in the lanes that allow its letter.
    /// Built in the allocation the word paths were (see [`recast`]).
    sum_lanes: Vec<LaneRow>,
    /// Per split position and letter, the lanes whose class allows it.
    allow: Vec<u16>,
    /// The same as a lane-wise select: all ones in those lanes.
    select: Vec<Lanes>,
    /// The sum nodes, choice nodes and leaves of a shared piece, which
    /// come first.
    shared_len: [usize; 3],
    /// The root of a part's own piece, built after the shared piece: the
    /// tree is then the two roots' choices and points together.
    part_root: Option<u32>,
}

impl Tree {
    /// The roots: the first sum node, and a part's own root if any.
    fn roots(&self) -> impl Iterator<Item = usize> {
        roots(self.part_root)
    }

    /// Starts a root and returns its index: the first, on an emptied
    /// tree, or beside the shared piece (see `shared_len`) a part's own.
    fn start_root(&mut self, beside_shared: bool) -> usize {
        if beside_shared {
            let [sums, choices, leaves] = self.shared_len;
            self.sums.truncate(sums);
            self.choices.truncate(choices);
            self.leaves.truncate(leaves);
            self.part_root = Some(self.sums.len() as u32);
        } else {
            self.sums.clear();
            self.choices.clear();
            self.leaves.clear();
            self.part_root = None;
        }
        self.sums.push(SumNode::default());
        self.sums.len() - 1
    }

    /// Marks the nodes built so far as the shared piece that parts' own
    /// roots are built beside.
    fn mark_shared(&mut self) {
        self.shared_len = [self.sums.len(), self.choices.len(), self.leaves.len()];
    }

    /// Its nodes: sum nodes (leaves too) and choice nodes.
    fn nodes(&self) -> usize {
        self.sums.len() + self.leaves.len() + self.choices.len()
    }

    /// `lanes` in the lanes that allow letter `l` at split position
    /// `pos`, 0 in the others.
    #[inline(always)]
    fn allowed(&self, pos: usize, l: u8, mut lanes: Lanes) -> Lanes {
        for (x, m) in lanes.iter_mut().zip(&self.select[pos * 26 + l as usize]) {
            *x &= m;
        }
        lanes
    }

    /// The bound in every lane of a leaf of letter `l` at split position
    /// `pos` whose points are `points`.
    #[inline(always)]
    fn leaf_lanes(&self, pos: usize, l: u8, points: u32) -> Lanes {
        self.allowed(pos, l, [points_lane(points); LANES])
    }
}

/// A choice node waiting on the stack of its split position during
/// forcing: its letters and first sum node, copied from the tree when it
/// is pushed. The scans of a stack (every forced class reads all later
/// stacks) then go straight from the stack to the subtrees' lanes; going
/// through the choice node first cost a second cache miss per entry.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    letters: u32,
    leaves: u32,
    first: u32,
    first_leaf: u32,
}

impl Waiting {
    fn of(c: &ChoiceNode) -> Self {
        Waiting {
            letters: c.letters(),
            leaves: c.leaves,
            first: c.first,
            first_leaf: c.first_leaf,
        }
    }

    /// The letters whose sum nodes have choices.
    #[inline(always)]
    fn inner(&self) -> u32 {
        self.letters & !self.leaves
    }

    /// Where the sum node of letter `l` (one of `letters`) is.
    #[inline(always)]
    fn child(&self, l: u8) -> Child {
        let below = (1u32 << l) - 1;
        if self.leaves >> l & 1 != 0 {
            Child::Leaf(self.first_leaf + (self.leaves & below).count_ones())
        } else {
            Child::Inner(self.first + (self.inner() & below).count_ones())
        }
    }
}

/// A thread's reusable buffers.
pub struct Work<'t> {
    solver: Solver<'t>,
    tree: Tree,
    /// Per split position, the choices waiting there (see [`Prover::force`]).
    stacks: Vec<Vec<Waiting>>,
    /// Per split position, its stack summed per letter.
    ahead: Vec<Ahead>,
    /// Per depth of forcing and split position, the [`Ahead`] a forced
    /// letter changed, to put back for the next letter (`depth * n + pos`).
    saved: Vec<Ahead>,
    /// A forcing's sum nodes of the forced letter, then their choices
    /// (first, count): see [`Prover::force`].
    forced: Vec<[u32; 2]>,
    cells: Vec<u8>,
}

impl<'t> Work<'t> {
    /// Buffers for proofs over `trie` with `scoring`.
    pub fn new(trie: &'t Trie, scoring: Scoring) -> Self {
        Work {
            solver: Solver::new(trie, scoring),
            tree: Tree::default(),
            stacks: Vec::new(),
            ahead: Vec::new(),
            saved: Vec::new(),
            forced: Vec::new(),
            cells: Vec::new(),
        }
    }
}

/// How many classes one tree bounds and forces at once: a `u16` bound per
/// class, sixteen to a 256-bit row.
pub const LANES: usize = 16;

/// One bound per class of a set. Bounds saturate at `u16::MAX`, which is
/// then read as "at least that": a proof compares them with its target
/// capped to `u16::MAX`, so a saturated bound never prunes.
type Lanes = [u16; LANES];

/// A sum node's [`Lanes`], aligned as word paths are, so that one
/// allocation holds a tree's paths and then its lanes (see [`recast`]).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct LaneRow(Lanes);

#[inline(always)]
fn add(a: &mut Lanes, b: &Lanes) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.saturating_add(*y);
    }
}

/// The lanes whose bound reaches `cap`, one bit each.
#[inline(always)]
fn at_least(a: &Lanes, cap: u16) -> u16 {
    a.iter()
        .enumerate()
        .fold(0, |m, (i, &x)| m | (u16::from(x >= cap) << i))
}

/// All ones in the lanes of `mask`, zeros elsewhere.
fn lane_select(mask: u16) -> Lanes {
    std::array::from_fn(|i| if mask >> i & 1 != 0 { u16::MAX } else { 0 })
}

#[inline(always)]
fn points_lane(points: u32) -> u16 {
    points.min(u16::MAX as u32) as u16
}

/// What one forcing of a set of lanes reads and fills.
struct Forcing<'a, 'w, 't> {
    /// The tree's (coarse) class.
    masks: &'a [u32],
    above: u32,
    /// `above` capped to what a lane holds.
    cap: u16,
    work: &'w mut Work<'t>,
    stats: &'a mut ProofStats,
    /// Per lane, the boards found.
    found: &'a mut [Vec<Found>],
}

/// A group split into parts (see [`Prover::break_group`]): what every
/// part is forced with, and the boards found so far, one list per class.
struct Group<'a, 'w> {
    ks: &'a [u64],
    above: u32,
    work: &'a mut Work<'w>,
    stats: &'a mut ProofStats,
    stop: &'a AtomicBool,
    found: &'a mut [Vec<Found>],
}

/// The split positions from `depth` on that word path `p` uses (a bit
/// each): 0 when it makes no choice there.
#[inline(always)]
fn later_choices<P: Path>(p: &P, depth: usize) -> u32 {
    p.used() & u32::MAX.checked_shl(depth as u32).unwrap_or(0)
}

/// The proof's hot recursive functions (a tree's build and fill, the
/// dictionary walk and the forcing), written once and compiled twice, as
/// the solver's walk is: plainly, and on x86-64 with the instructions they
/// live on (`popcnt` for a child's index among its letters, `tzcnt` and
/// `blsr` for letter sets, AVX2 for sixteen lanes at once), which a default
/// build may not assume. [`Prover`] picks one at run time by what the
/// processor has (see [`FastInstructions`]); the binary still runs
/// anywhere. (A 3x4 proof built for those instructions throughout took 5
/// to 12% less CPU; these copies take about half of that off.)
macro_rules! hot {
    ($(#[$attr:meta])* $build_sum:ident, $fill_sum:ident, $descend:ident, $force:ident) => {
        /// Fills sum node `at` from `paths` (sorted, each distinct, all equal on
        /// the positions before `depth`); returns its bound.
        $(#[$attr])*
        fn $build_sum<P: Path>(
            paths: &[P],
            depth: usize,
            n: usize,
            at: usize,
            tree: &mut Tree,
        ) -> u32 {
            let mut paths = paths;
            let mut points = 0u32;
            let later = |p: &P| later_choices(p, depth);
            // The paths with no choice left sort last (all their later fields are
            // 31); there are several only when one record could not hold their
            // points (see [`Path::add_points`]).
            while let Some(last) = paths.last() {
                if later(last) != 0 {
                    break;
                }
                points = points.saturating_add(last.points());
                paths = &paths[..paths.len() - 1];
            }
            // One choice node per next position used, in position order. Sorted
            // keys put a position's letter before 31 (unused), so the paths' next
            // positions never decrease and each letter's paths are a run: runs are
            // found by galloping, not by reading every path at every depth (that
            // read made building O(paths x cells)).
            let next = |p: &P| later(p).trailing_zeros();
            let mut ends = [0u32; MAX_PROVE_CELLS];
            let mut groups = 0;
            let mut start = 0;
            while start < paths.len() {
                let q = next(&paths[start]);
                start += run_len(&paths[start..], |p| next(p) == q);
                ends[groups] = start as u32;
                groups += 1;
            }
            let first = tree.choices.len();
            tree.choices.resize(first + groups, ChoiceNode::default());
            let mut bound = points;
            let mut start = 0;
            for (g, &end) in ends[..groups].iter().enumerate() {
                let end = end as usize;
                let group = &paths[start..end];
                let q = next(&group[0]);
                let shift = 5 * (n - 1 - q as usize);
                let letter = |p: &P| p.letter(shift);
                // Each letter's run: its end, by the letter's rank. A run whose
                // first path makes no later choice is a leaf: no path of the run
                // does, since those sort last.
                let below = q as usize + 1;
                let leaf = |p: &P| later_choices(p, below) == 0;
                let mut runs = [0u32; 26];
                let mut mask = 0u32;
                let mut leaves = 0u32;
                let mut count = 0;
                let mut s = 0;
                while s < group.len() {
                    let l = letter(&group[s]);
                    if leaf(&group[s]) {
                        leaves |= 1 << l;
                    }
                    s += run_len(&group[s..], |p| letter(p) == l);
                    mask |= 1 << l;
                    runs[count] = s as u32;
                    count += 1;
                }
                let sums = tree.sums.len();
                tree.sums.resize(
                    sums + (mask & !leaves).count_ones() as usize,
                    SumNode::default(),
                );
                let first_leaf = tree.leaves.len();
                tree.leaves
                    .resize(first_leaf + leaves.count_ones() as usize, 0);
                let (mut inner, mut leaf_at) = (sums, first_leaf);
                let mut best = 0;
                let mut s = 0;
                for (&e, l) in runs[..count].iter().zip(letters(mask)) {
                    let e = e as usize;
                    let run = &group[s..e];
                    let bound = if leaves >> l & 1 != 0 {
                        let points = run.iter().fold(0u32, |t, p| t.saturating_add(p.points()));
                        tree.leaves[leaf_at] = points;
                        leaf_at += 1;
                        points
                    } else {
                        inner += 1;
                        $build_sum(run, below, n, inner - 1, tree)
                    };
                    best = best.max(bound);
                    s = e;
                }
                tree.choices[first + g] =
                    ChoiceNode::new(q as usize, mask, leaves, sums as u32, first_leaf as u32);
                bound = bound.saturating_add(best);
                start = end;
            }
            tree.sums[at] = SumNode {
                points,
                first: first as u32,
                len: groups as u32,
            };
            bound
        }

        /// The lanes of sum node `at` (its points plus, per choice below it, the
        /// best of that choice's letters a lane allows), after filling those of
        /// every sum node below it: depth first, so a choice's lanes live on the
        /// call stack only while its parent's are summed. The tree's nodes were
        /// laid out in this order, so the walk reads its arrays front to back.
        $(#[$attr])*
        fn $fill_sum(at: usize, tree: &Tree, sum_lanes: &mut [LaneRow]) -> Lanes {
            let s = tree.sums[at];
            let mut total = [points_lane(s.points); LANES];
            for choice in &tree.choices[s.first as usize..(s.first + s.len) as usize] {
                let pos = choice.pos();
                let w = Waiting::of(choice);
                let mut best = [0; LANES];
                for l in letters(w.letters) {
                    let b = match w.child(l) {
                        Child::Leaf(i) => tree.leaf_lanes(pos, l, tree.leaves[i as usize]),
                        Child::Inner(child) => {
                            let lanes = $fill_sum(child as usize, tree, sum_lanes);
                            let b = tree.allowed(pos, l, lanes);
                            sum_lanes[child as usize] = LaneRow(b);
                            b
                        }
                    };
                    for (x, y) in best.iter_mut().zip(&b) {
                        *x = (*x).max(*y);
                    }
                }
                add(&mut total, &best);
            }
            total
        }

        impl Prover<'_> {
            #[allow(clippy::too_many_arguments)]
            $(#[$attr])*
            fn $descend<P: Path>(
                &self,
                masks: &[u32],
                cell: usize,
                letter: u8,
                node: u32,
                len: usize,
                used_cells: u64,
                key: P::Key,
                used: u32,
                sink: &mut Sink<P>,
            ) {
                let pos = self.position[cell];
                let shift = 5 * (masks.len() - 1 - pos);
                let key = key.with(shift, letter);
                let used = used | 1 << pos;
                let used_cells = used_cells | 1 << cell;
                let n = self.trie.nodes[node as usize];
                if n.mask & WORD != 0 && self.points[len] > 0 {
                    sink.take(Path::new(key, used, node, self.points[len]));
                }
                let next = n.mask & !WORD;
                if next == 0 {
                    return;
                }
                // The children are contiguous: ask for them now, while the
                // neighbours' letters are matched against them.
                prefetch(&self.trie.nodes, n.base as usize);
                let mut free = self.neighbour_cells[cell] & !used_cells;
                while free != 0 {
                    let nb = free.trailing_zeros() as usize;
                    free &= free - 1;
                    for l in letters(masks[nb] & next) {
                        let child = n.base + (n.mask & ((1u32 << l) - 1)).count_ones();
                        self.$descend(
                            masks,
                            nb,
                            l,
                            child,
                            len + step_len(l),
                            used_cells,
                            key,
                            used,
                            sink,
                        );
                    }
                }
            }

            /// Forces the cell at split position `depth` to each of its letters in
            /// turn, for the classes in the lanes of `live` at once: each choice
            /// node of that cell (all of them are on the stack of that position,
            /// since every path reaches its cells in split order) gives up the
            /// subtree of the letter, whose points are now certain and whose own
            /// choices join the stacks of later positions. A lane's bound is the
            /// certain points plus, for each later position, the most its stacked
            /// choices give together for one letter in that lane; a letter goes
            /// on in the lanes that allow it and whose bound reaches the target.
            $(#[$attr])*
            fn $force(&self, at: &mut Forcing, depth: usize, points: u32, live: u16) {
                let n = at.masks.len();
                if depth == n {
                    // Each merged cell's letter is in one bucket, so one class is
                    // left: the board's own.
                    at.stats.boards_scored += 1;
                    let board = Board::from_cells(self.size, at.work.cells.clone());
                    let score = at.work.solver.score(&board).score;
                    if score >= at.above {
                        at.found[live.trailing_zeros() as usize].push(Found {
                            board: board.letters(),
                            score,
                        });
                    }
                    return;
                }
                let cell = self.order[depth];
                // The later cells' part of every letter's bound. A board puts one
                // letter on each later cell, so the choices stacked there give at
                // most the sum of their subtrees for the best single letter: the
                // max of sums, not the sum of each choice's own best letter. One
                // more look at those stacks per forced class, repaid many times
                // over: on the heaviest 3x4 groups it drops most classes several
                // cells earlier (6x fewer bounds).
                let mut rest = [points_lane(points); LANES];
                for p in depth + 1..n {
                    add(&mut rest, &at.work.ahead[p].best);
                }
                let mut tops = [0u32; MAX_PROVE_CELLS];
                for (top, stack) in tops.iter_mut().zip(&at.work.stacks).skip(depth + 1) {
                    *top = stack.len() as u32;
                }
                // The later positions whose sums a letter changed, kept here
                // as they were on entry (see [`Work::saved`]).
                let mut saved = 0u32;
                let base = depth * n;
                for l in letters(at.masks[cell]) {
                    at.stats.bounds += 1;
                    let ok = live & at.work.tree.allow[depth * 26 + l as usize];
                    if ok == 0 {
                        continue;
                    }
                    // Forcing letter `l` swaps each choice waiting on this cell
                    // for its `l` subtree, so the forced bound is the rest plus
                    // those subtrees' bounds. Most letters fall below the target
                    // here, before any of their choices is pushed.
                    let mut bound = rest;
                    add(
                        &mut bound,
                        &at.work.ahead[depth].letter(&at.work.tree, depth, l),
                    );
                    let go = ok & at_least(&bound, at.cap);
                    if go == 0 {
                        continue;
                    }
                    let mut got = points;
                    let Work {
                        tree,
                        stacks,
                        ahead,
                        saved: kept,
                        forced,
                        ..
                    } = &mut *at.work;
                    // In passes, so that each pass's cache misses are all under
                    // way at once: the forced sum nodes asked for, then read
                    // (their choices asked for), then the choices pushed (their
                    // subtrees' lanes asked for), then those lanes added to the
                    // sums of their positions. Reading each in turn waited on a
                    // miss per step. A leaf adds its points in the first pass and
                    // has no choices to push.
                    forced.clear();
                    for c in &stacks[depth] {
                        if c.letters & (1 << l) != 0 {
                            match c.child(l) {
                                Child::Leaf(i) => got += tree.leaves[i as usize],
                                Child::Inner(s) => {
                                    prefetch(&tree.sums, s as usize);
                                    forced.push([s, 0]);
                                }
                            }
                        }
                    }
                    for f in forced.iter_mut() {
                        let s = tree.sums[f[0] as usize];
                        got += s.points;
                        if s.len > 0 {
                            prefetch(&tree.choices, s.first as usize);
                            prefetch(&tree.choices, (s.first + s.len - 1) as usize);
                        }
                        *f = [s.first, s.len];
                    }
                    for &[first, len] in forced.iter() {
                        for k in first..first + len {
                            let choice = &tree.choices[k as usize];
                            let w = Waiting::of(choice);
                            prefetch_lanes(tree, &w);
                            stacks[choice.pos()].push(w);
                        }
                    }
                    let mut changed = 0u32;
                    for p in depth + 1..n {
                        let new = &stacks[p][tops[p] as usize..];
                        if new.is_empty() {
                            continue;
                        }
                        if saved >> p & 1 == 0 {
                            kept[base + p] = ahead[p];
                            saved |= 1 << p;
                        }
                        changed |= 1 << p;
                        ahead[p].extend(tree, new, p);
                    }
                    at.work.cells[cell] = l;
                    self.$force(at, depth + 1, got, go);
                    let Work {
                        stacks,
                        ahead,
                        saved: kept,
                        ..
                    } = &mut *at.work;
                    for p in letters(changed) {
                        let p = p as usize;
                        stacks[p].truncate(tops[p] as usize);
                        ahead[p] = kept[base + p];
                    }
                }
            }
        }
    };
}

hot!(build_sum_plain, fill_sum_plain, descend_plain, force_plain);
#[cfg(target_arch = "x86_64")]
hot!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    build_sum_fast,
    fill_sum_fast,
    descend_fast,
    force_fast
);

/// This processor has the instructions of the proof's fast functions (see
/// [`hot`]): only [`FastInstructions::detect`] makes one, after asking.
#[derive(Clone, Copy, Debug)]
struct FastInstructions(());

impl FastInstructions {
    fn detect() -> Option<Self> {
        crate::solver::has_fast_instructions().then_some(FastInstructions(()))
    }
}

/// [`build_sum_plain`], or its fast twin where `fast` says the processor
/// has its instructions.
fn build_sum<P: Path>(
    fast: Option<FastInstructions>,
    paths: &[P],
    depth: usize,
    n: usize,
    at: usize,
    tree: &mut Tree,
) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if fast.is_some() {
        // SAFETY: a `FastInstructions` exists only where the processor has
        // the instructions `build_sum_fast` is compiled with.
        return unsafe { build_sum_fast(paths, depth, n, at, tree) };
    }
    let _ = fast;
    build_sum_plain(paths, depth, n, at, tree)
}

/// [`fill_sum_plain`], or its fast twin (see [`build_sum`]).
fn fill_sum(
    fast: Option<FastInstructions>,
    at: usize,
    tree: &Tree,
    sum_lanes: &mut [LaneRow],
) -> Lanes {
    #[cfg(target_arch = "x86_64")]
    if fast.is_some() {
        // SAFETY: as in `build_sum`.
        return unsafe { fill_sum_fast(at, tree, sum_lanes) };
    }
    let _ = fast;
    fill_sum_plain(at, tree, sum_lanes)
}

/// The length of the run of `items` that `same` holds for, which starts
/// at `items[0]` (taken to hold) and is followed only by items it does not
/// hold for: doubling steps, then a binary search, so a short run costs a
/// few reads and a long one a logarithm.
fn run_len<T>(items: &[T], same: impl Fn(&T) -> bool) -> usize {
    let mut len = 1;
    let mut step = 1;
    loop {
        let probe = len + step - 1;
        if probe >= items.len() {
            return len + items[len..].partition_point(&same);
        }
        if !same(&items[probe]) {
            return len + items[len..probe].partition_point(&same);
        }
        len = probe + 1;
        step *= 2;
    }
}

/// The letters of `mask` packed into as few parts as keep `base` plus the
/// `count` of each letter in a part within `most` (first fit, largest
/// first): each part's letters, and whether it fits (a letter that does
/// not fit alone is a part of its own).
fn pack(mask: u32, count: impl Fn(usize) -> u64, base: u64, most: u64) -> Vec<(u32, bool)> {
    let mut items: Vec<(u64, u8)> = letters(mask).map(|l| (count(l as usize), l)).collect();
    items.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut parts: Vec<(u32, u64)> = Vec::new();
    let mut alone = Vec::new();
    for (c, l) in items {
        if base + c > most {
            alone.push((1u32 << l, false));
        } else if let Some(p) = parts.iter_mut().find(|p| base + p.1 + c <= most) {
            p.0 |= 1 << l;
            p.1 += c;
        } else {
            parts.push((1 << l, c));
        }
    }
    parts
        .into_iter()
        .map(|(m, _)| (m, true))
        .chain(alone)
        .collect()
}

impl<'t> Prover<'t> {
    /// A prover using `buckets` (letter masks) for its top-level classes.
    pub fn new(trie: &'t Trie, size: Size, scoring: Scoring, buckets: Vec<u32>) -> Self {
        let n = size.cells();
        let neighbour_cells = (0..n)
            .map(|i| Board::neighbours(size, i).fold(0u64, |m, nb| m | 1 << nb))
            .collect();
        // Centre outwards: the central cells take part in the most paths, so
        // fixing them first shrinks the bound fastest.
        let (cr, cc) = (
            (size.height as f64 - 1.0) / 2.0,
            (size.width as f64 - 1.0) / 2.0,
        );
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            let d = |i: usize| {
                let (r, c) = ((i / size.width) as f64, (i % size.width) as f64);
                (r - cr).powi(2) + (c - cc).powi(2)
            };
            d(a).partial_cmp(&d(b)).unwrap().then(a.cmp(&b))
        });
        // Measured (docs/rules/gobble.md): on 3x4 a tree per group of
        // corner buckets is 2.7x faster than one per class; on 3x3, whose
        // class trees are already large, it cuts the time by a fifth but
        // takes 2.5x the memory (5 GB on two threads), so it stays off.
        let merged = if n >= 10 {
            outer_shell(size, &order)
        } else {
            0
        };
        let mut position = vec![0; n];
        for (p, &cell) in order.iter().enumerate() {
            position[cell] = p;
        }
        let points = scoring.table(size);
        let short_paths = n <= SHORT_PATH_CELLS && points.iter().all(|&p| p <= u16::MAX as u32);
        Prover {
            trie,
            size,
            scoring,
            points,
            neighbour_cells,
            order,
            position,
            cell_buckets: vec![buckets; n],
            merged,
            tree_paths: DEFAULT_TREE_PATHS,
            short_paths,
            fast: FastInstructions::detect(),
        }
    }

    /// The same prover with only the plain hot functions (see [`hot`]), to
    /// check them where the fast ones would run.
    #[cfg(test)]
    fn with_plain(mut self) -> Self {
        self.fast = None;
        self
    }

    /// The same prover building no tree from more than `most` word paths
    /// (as the dictionary walk finds them, before a word's paths through
    /// the same letters are merged): a larger group is split (see
    /// [`Prover::break_group`]). Memory grows with a tree's paths; the
    /// boards found and the classes covered do not depend on it.
    pub fn with_tree_paths(mut self, most: usize) -> Self {
        self.tree_paths = most.max(1);
        self
    }

    /// The same prover with [`WordPath`] records whatever the board's size
    /// (to test that both widths build the same trees).
    #[cfg(test)]
    fn with_wide_paths(mut self) -> Self {
        self.short_paths = false;
        self
    }

    /// The same prover building one tree for every class that differs only
    /// in the buckets of the last `merged` split positions (a *group*: the
    /// classes numbered alike but for their lowest digits): the tree of the
    /// group's coarse class, whose merged cells take every letter of their
    /// buckets, is built once, and each class of the group is bounded and
    /// forced on it by [`Prover::restrict`]. A word path is then collected
    /// and sorted once per group instead of once per class that allows it.
    /// The default merges the outermost cells (the corners of a rectangle):
    /// they come last in the split order, so their letters change the
    /// fewest paths and every symmetry keeps them together. `0` builds a
    /// tree per class.
    pub fn with_merged(mut self, merged: usize) -> Self {
        self.merged = merged.min(self.order.len());
        self
    }

    /// The same prover with other buckets for the four corner cells (fewer
    /// neighbours, so fewer words run through them: coarser buckets there
    /// cut the number of classes at little cost in bound).
    pub fn with_corner_buckets(self, corner: Vec<u32>) -> Self {
        let (w, h) = (self.size.width, self.size.height);
        self.with_cell_buckets(&[0, w - 1, (h - 1) * w, h * w - 1], corner)
    }

    /// The same prover with `buckets` for each of `cells` (numbers past the
    /// last cell are ignored). The class numbering gives each cell's digit
    /// its own base, and only the mirror images that map every cell to one
    /// with the same buckets are used to skip classes (see
    /// [`Prover::symmetries`]), so any cells may have any buckets.
    pub fn with_cell_buckets(mut self, cells: &[usize], buckets: Vec<u32>) -> Self {
        for &cell in cells {
            if let Some(b) = self.cell_buckets.get_mut(cell) {
                *b = buckets.clone();
            }
        }
        self
    }

    /// Each cell's buckets, row-major.
    pub fn cell_buckets(&self) -> &[Vec<u32>] {
        &self.cell_buckets
    }

    /// The mirror images under which the classes are closed: those that map
    /// every cell to a cell with the same buckets (all of the board's when
    /// the buckets are given per ring). Skipping a class that is the image
    /// of a smaller one is sound only under these: the image of a class is
    /// then again a class, its digits read in the same bases.
    pub fn symmetries(&self) -> Vec<Vec<usize>> {
        let mut syms = self.size.symmetries();
        syms.retain(|p| (0..p.len()).all(|i| self.cell_buckets[p[i]] == self.cell_buckets[i]));
        syms
    }

    /// Number of top-level classes before symmetry (the product of each
    /// cell's bucket count, saturating).
    pub fn raw_classes(&self) -> u64 {
        self.cell_buckets
            .iter()
            .fold(1u64, |a, b| a.saturating_mul(b.len() as u64))
    }

    /// The bucket assignment numbered `k`: one digit per cell, each in
    /// base its cell's number of buckets, the first cell of the split order
    /// highest and the last lowest, so that the classes of a group (see
    /// [`Prover::with_merged`]) are consecutive numbers.
    fn assignment(&self, mut k: u64) -> Vec<u8> {
        let mut a = vec![0u8; self.order.len()];
        for &cell in self.order.iter().rev() {
            let base = self.cell_buckets[cell].len() as u64;
            a[cell] = (k % base) as u8;
            k /= base;
        }
        a
    }

    /// The number of assignment `a` (the inverse of [`Prover::assignment`]).
    fn number(&self, a: &[u8]) -> u64 {
        self.order.iter().fold(0u64, |acc, &cell| {
            acc * self.cell_buckets[cell].len() as u64 + a[cell] as u64
        })
    }

    /// The class of assignment `k`: each cell's letters.
    pub fn class(&self, k: u64) -> Vec<u32> {
        self.assignment(k)
            .iter()
            .zip(&self.cell_buckets)
            .map(|(&d, b)| b[d as usize])
            .collect()
    }

    /// How many consecutive class numbers share one tree: the product of
    /// the bucket counts of the last `merged` split positions.
    pub fn group_len(&self) -> u64 {
        self.order[self.order.len() - self.merged..]
            .iter()
            .map(|&cell| self.cell_buckets[cell].len() as u64)
            .product()
    }

    /// The coarse class of the group holding class `k`: its letters, with
    /// every letter of its buckets on each merged cell.
    fn group_class(&self, k: u64) -> Vec<u32> {
        let mut masks = self.class(k);
        for &cell in &self.order[self.order.len() - self.merged..] {
            masks[cell] = self.cell_buckets[cell].iter().fold(0, |m, b| m | b);
        }
        masks
    }

    /// Whether assignment `k` is the least of its symmetric images (the one
    /// searched) under `syms`, from [`Prover::symmetries`]: those keep each
    /// cell's buckets, so an image is again an assignment with each cell's
    /// own base.
    pub fn is_canonical(&self, k: u64, syms: &[Vec<usize>]) -> bool {
        let a = self.assignment(k);
        let mut img = vec![0u8; a.len()];
        syms.iter().all(|p| {
            for (i, &d) in a.iter().enumerate() {
                img[p[i]] = d;
            }
            self.number(&img) >= k
        })
    }

    /// Every word path of the class `masks`, each as the letters it takes
    /// at the split positions it uses, sorted, with a word's paths through
    /// the same letters counted once (see [`Tree`]).
    /// If there are more than `most`, the walk goes on only counting them,
    /// and their [`Counts`] are returned instead.
    /// A walk over the cap leaves the shared paths it kept, unsorted, in
    /// `paths` (see [`Sink`]); those of `skip` are left out.
    fn collect<P: Path>(
        &self,
        masks: &[u32],
        most: usize,
        skip: Option<Shared>,
        paths: &mut Vec<P>,
    ) -> Result<(), Box<Over>> {
        paths.clear();
        let n = masks.len();
        let none = P::Key::none(n);
        let mut sink = Sink {
            paths,
            most,
            over: Box::new(Over {
                counts: [[0; 32]; 32],
                kept: Shared::MissFirst,
                // A part's walk keeps no letters: it is not split by plan.
                first: if skip.is_none() {
                    masks[self.order[0]]
                } else {
                    0
                },
            }),
            over_cap: false,
            skip,
            shifts: split_shifts(n),
        };
        for (cell, &mask) in masks.iter().enumerate() {
            for l in letters(mask) {
                if let Some(child) = self.trie.child(0, l) {
                    let len = step_len(l);
                    #[cfg(target_arch = "x86_64")]
                    if self.fast.is_some() {
                        // SAFETY: `fast` is set only where the processor
                        // has the instructions `descend_fast` is compiled
                        // with.
                        unsafe {
                            self.descend_fast(masks, cell, l, child, len, 0, none, 0, &mut sink)
                        };
                        continue;
                    }
                    self.descend_plain(masks, cell, l, child, len, 0, none, 0, &mut sink);
                }
            }
        }
        if sink.over_cap {
            return Err(sink.over);
        }
        sort_and_merge(sink.paths, n);
        Ok(())
    }

    /// Builds the orderly tree of the class `masks` into `tree` and
    /// returns its bound, unless the class has more than `most` word paths:
    /// then their [`Counts`].
    fn build(&self, masks: &[u32], most: usize, tree: &mut Tree) -> Result<u32, Box<Over>> {
        self.build_piece(masks, most, Piece::Whole, tree)
    }

    /// Builds one [`Piece`] of the tree of the class `masks` into `tree`
    /// and returns its bound, unless its walk finds more than `most` word
    /// paths: then their [`Counts`].
    fn build_piece(
        &self,
        masks: &[u32],
        most: usize,
        piece: Piece,
        tree: &mut Tree,
    ) -> Result<u32, Box<Over>> {
        if self.short_paths {
            let mut paths = std::mem::take(&mut tree.short);
            let bound = self.build_from(masks, most, piece, &mut paths, tree);
            tree.short = paths;
            bound
        } else {
            let mut paths = std::mem::take(&mut tree.wide);
            let bound = self.build_from(masks, most, piece, &mut paths, tree);
            tree.wide = paths;
            bound
        }
    }

    fn build_from<P: Path>(
        &self,
        masks: &[u32],
        most: usize,
        piece: Piece,
        paths: &mut Vec<P>,
        tree: &mut Tree,
    ) -> Result<u32, Box<Over>> {
        // The last tree's lanes are done with: their allocation takes the
        // paths, unless the paths are still needed (a shared piece is
        // built from those its class's walk kept).
        let lanes = std::mem::take(&mut tree.sum_lanes);
        if !matches!(piece, Piece::Shared(_) | Piece::Kept)
            && lanes.capacity() * size_of::<LaneRow>() > paths.capacity() * size_of::<P>()
        {
            *paths = recast(lanes);
        }
        let n = masks.len();
        match piece {
            Piece::Whole => self.collect(masks, most, None, paths)?,
            Piece::Part(shared) => self.collect(masks, most, Some(shared), paths)?,
            // The paths are those the last walk kept (the wider set when
            // it could).
            Piece::Shared(shared) => {
                retain_shared(paths, shared, split_shifts(n));
                sort_and_merge(paths, n)
            }
            Piece::Kept => sort_and_merge(paths, n),
        }
        let own = match piece {
            // Position 0 is a key's highest digit and a path that misses it
            // holds the greatest letter field there: sorted, the kept
            // letters' paths come first, then the shared ones, which are
            // built first, as a shared piece.
            Piece::Kept => {
                let shift = split_shifts(n)[0];
                debug_assert!(paths.iter().all(|p| {
                    let a = p.letter(shift) as usize;
                    a == NOT_PASSED || masks[self.order[0]] >> a & 1 != 0
                }));
                let own = paths.partition_point(|p| p.letter(shift) as usize != NOT_PASSED);
                let at = tree.start_root(false);
                build_sum(self.fast, &paths[own..], 0, n, at, tree);
                tree.mark_shared();
                own
            }
            _ => paths.len(),
        };
        let at = tree.start_root(matches!(piece, Piece::Part(_) | Piece::Kept));
        let b = build_sum(self.fast, &paths[..own], 0, n, at, tree);
        match piece {
            Piece::Whole => tree.shared_len = [0; 3],
            Piece::Shared(_) => tree.mark_shared(),
            Piece::Part(_) | Piece::Kept => {}
        }
        tree.sum_lanes = recast(std::mem::take(paths));
        Ok(b)
    }

    /// The upper bound on every board of the class `masks`: its orderly
    /// tree's (see [`Tree`]).
    pub fn bound(&self, masks: &[u32]) -> u32 {
        self.build(masks, usize::MAX, &mut Tree::default())
            .unwrap_or(u32::MAX)
    }

    /// The bounds of up to [`LANES`] classes (each cell's letters a subset
    /// of the tree's class), one lane each, from the tree in `tree`: a
    /// subtree under a letter a class does not allow bounds to 0 in its
    /// lane, the rest as in the class's own tree. So every lane holds
    /// exactly the bounds of its class's tree (a path of the coarse class
    /// is a path of the class or passes a forbidden letter), at the cost of
    /// one pass over the tree instead of a build per class. Children come
    /// after their parents in the tree's arrays, so one backward pass sees
    /// every node after its children. Returns the root's lanes.
    fn fill_lanes(&self, classes: &[Vec<u32>], tree: &mut Tree) -> Lanes {
        let n = self.order.len();
        // For each split position and letter: which lanes allow it, as a
        // bit mask and as a lane-wise select.
        tree.allow.clear();
        tree.allow.resize(n * 26, 0);
        for (lane, masks) in classes.iter().enumerate() {
            for (p, &cell) in self.order.iter().enumerate() {
                for l in letters(masks[cell]) {
                    tree.allow[p * 26 + l as usize] |= 1 << lane;
                }
            }
        }
        tree.select.clear();
        tree.select
            .extend(tree.allow.iter().map(|&m| lane_select(m)));
        let mut sum_lanes = std::mem::take(&mut tree.sum_lanes);
        sum_lanes.clear();
        sum_lanes.resize(tree.sums.len(), LaneRow::default());
        let mut bound = [0; LANES];
        for r in tree.roots() {
            let lanes = fill_sum(self.fast, r, tree, &mut sum_lanes);
            sum_lanes[r] = LaneRow(lanes);
            add(&mut bound, &lanes);
        }
        tree.sum_lanes = sum_lanes;
        bound
    }

    /// Every class of `ks` (canonical class numbers of one group), one
    /// tree for all, [`LANES`] classes bounded and forced at once;
    /// `done(k, boards)` as each finishes. Stops between sets of lanes
    /// when `stop` is set.
    ///
    /// A group whose coarse class has more word paths than one tree may be
    /// built from ([`Prover::with_tree_paths`]) is split instead: the
    /// letters of its first cell in split order are shared between two
    /// classes, each with its own tree (split again while still too
    /// large), and the group's classes are forced on each. The tree of a
    /// class with fewer letters on a cell is exactly what forcing that cell
    /// leaves of the larger tree, so the same boards are found; the paths
    /// that do not pass the cell are walked once per part. Then the group's
    /// classes are done only when every part is, and a stop abandons the
    /// whole group.
    #[allow(clippy::too_many_arguments)]
    fn break_group(
        &self,
        ks: &[u64],
        above: u32,
        work: &mut Work,
        stats: &mut ProofStats,
        stop: &AtomicBool,
        done: &mut dyn FnMut(u64, Vec<Found>),
    ) {
        let Some(&first) = ks.first() else {
            return;
        };
        let mut coarse = self.group_class(first);
        let over = match self.build(&coarse, self.tree_paths, &mut work.tree) {
            Err(over) => over,
            Ok(_) => {
                stats.tree_nodes += work.tree.nodes() as u64;
                for ks in ks.chunks(LANES) {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let mut found = vec![Vec::new(); ks.len()];
                    self.force_lanes(&coarse, ks, above, work, stats, &mut found);
                    for (&k, f) in ks.iter().zip(found) {
                        done(k, f);
                    }
                }
                return;
            }
        };
        let mut found = vec![Vec::new(); ks.len()];
        let mut group = Group {
            ks,
            above,
            work,
            stats,
            stop,
            found: &mut found,
        };
        if self.break_planned(&mut coarse, &over, &mut group) {
            for (&k, f) in ks.iter().zip(found) {
                done(k, f);
            }
        }
    }

    /// The classes of `ks` (one group's, at most [`LANES`]) restricted to
    /// `masks`, bounded and forced on the tree of `masks` in `work`, their
    /// boards added to `found` (one list per class).
    fn force_lanes(
        &self,
        masks: &[u32],
        ks: &[u64],
        above: u32,
        work: &mut Work,
        stats: &mut ProofStats,
        found: &mut [Vec<Found>],
    ) {
        let n = self.order.len();
        let cap = above.min(u16::MAX as u32) as u16;
        let classes: Vec<Vec<u32>> = ks.iter().map(|&k| self.class(k)).collect();
        let root = self.fill_lanes(&classes, &mut work.tree);
        stats.bounds += ks.len() as u64;
        let live = at_least(&root, cap) & ((1u32 << ks.len()) - 1) as u16;
        if live == 0 {
            return;
        }
        work.stacks.resize_with(n, Vec::new);
        for s in &mut work.stacks {
            s.clear();
        }
        work.cells.clear();
        work.cells.resize(n, 0);
        let mut points = 0u32;
        for r in work.tree.roots() {
            let r = work.tree.sums[r];
            points = points.saturating_add(r.points);
            for choice in &work.tree.choices[r.first as usize..(r.first + r.len) as usize] {
                work.stacks[choice.pos()].push(Waiting::of(choice));
            }
        }
        work.ahead.clear();
        work.ahead.resize(n, Ahead::default());
        for (pos, (ahead, stack)) in work.ahead.iter_mut().zip(&work.stacks).enumerate() {
            ahead.extend(&work.tree, stack, pos);
        }
        work.saved.resize(n * n, Ahead::default());
        let mut at = Forcing {
            masks,
            above,
            cap,
            work,
            stats,
            found,
        };
        #[cfg(target_arch = "x86_64")]
        if self.fast.is_some() {
            // SAFETY: as in `collect`.
            unsafe { self.force_fast(&mut at, 0, points, live) };
            return;
        }
        self.force_plain(&mut at, 0, points, live);
    }

    /// The group on the class `masks`, too large for one tree, in parts
    /// planned from its paths' counts (`over`): the letters of the cell at split
    /// position 0 are packed into as few parts as keep each part's paths
    /// (those that miss the cell, plus those through its letters in the
    /// part) within [`Prover::with_tree_paths`], and a letter too large
    /// alone has the letters of the cell at position 1 packed alike. A
    /// class's paths are exactly those counts, so each part fits at once.
    ///
    /// The paths that miss the split cells are the same in every part
    /// (those that miss position 0 when no part splits position 1, else
    /// those that miss both): the walk that found the class too large kept
    /// them, and they are built once, as a shared piece of the tree; each
    /// part then walks for, sorts and builds only its own paths beside it.
    /// The two pieces make exactly the part's own tree: a part's own path
    /// makes its first choice at a split cell and a shared one later, so
    /// no node below the root holds both.
    ///
    /// The walk also kept every path through some letters of position 0
    /// ([`Over::first`]): when the other letters pack into parts that fit,
    /// those letters are one more part, built from what the walk kept with
    /// the shared piece ([`Piece::Kept`]) and forced first, and only the
    /// others walk again.
    ///
    /// A part still too large (a single letter on both cells) is halved
    /// further by [`Prover::break_split`], after the others. `false` if
    /// stopped before the end.
    fn break_planned(&self, masks: &mut [u32], over: &Over, group: &mut Group) -> bool {
        if masks.len() < 2 {
            return self.force_part(masks, group);
        }
        let most = self.tree_paths as u64;
        let (c0, c1) = (self.order[0], self.order[1]);
        let (all0, all1) = (masks[c0], masks[c1]);
        const NONE: usize = NOT_PASSED;
        let counts = &over.counts;
        let row = |a: usize| over.through(a);
        // (letters on the cell at position 0, at position 1, fits)
        let mut parts = Vec::new();
        // The letters whose paths the walk kept are a part already built
        // but for sorting, when the other letters make parts of their own.
        let first = if over.kept == Shared::MissFirst {
            over.first & all0
        } else {
            0
        };
        let others = pack(all0 & !first, row, row(NONE), most);
        let from_kept = first != 0 && others.iter().all(|&(_, fits)| fits);
        let planned = if from_kept {
            others
        } else {
            pack(all0, row, row(NONE), most)
        };
        for (part0, fits) in planned {
            if fits {
                parts.push((part0, all1, true));
            } else {
                // One letter, too many paths with it: split the next cell.
                let l = part0.trailing_zeros() as usize;
                let col = |b: usize| counts[l][b] + counts[NONE][b];
                for (part1, fits) in pack(all1, col, col(NONE), most) {
                    parts.push((part0, part1, fits));
                }
            }
        }
        // A part fits only if its shared paths do, and then the walk kept
        // them all.
        let shared = if over.kept == Shared::MissFirst && parts.iter().all(|p| p.1 == all1) {
            Shared::MissFirst
        } else if over.kept != Shared::Lost && parts.iter().any(|p| p.2) {
            Shared::MissBoth
        } else {
            Shared::Lost
        };
        let mut finished = true;
        if from_kept {
            masks[c0] = first;
            finished = self
                .force_tree(masks, usize::MAX, Piece::Kept, group)
                .expect("the kept part is built from kept paths, without a walk");
        } else if shared != Shared::Lost {
            let work = &mut *group.work;
            self.build_piece(masks, usize::MAX, Piece::Shared(shared), &mut work.tree)
                .expect("a shared piece is built from kept paths, without a walk");
            group.stats.tree_nodes += work.tree.nodes() as u64;
        }
        let mut rest = Vec::new();
        for &(part0, part1, fits) in &parts {
            if !finished {
                break;
            }
            masks[c0] = part0;
            masks[c1] = part1;
            if !fits || shared == Shared::Lost {
                rest.push((part0, part1));
                continue;
            }
            match self.force_tree(masks, self.tree_paths, Piece::Part(shared), group) {
                Ok(f) => finished = f,
                // Not by the counts; forced whole below, to be safe.
                Err(_) => rest.push((part0, part1)),
            }
            if !finished {
                break;
            }
        }
        if finished {
            for (part0, part1) in rest {
                masks[c0] = part0;
                masks[c1] = part1;
                finished = self.force_part(masks, group);
                if !finished {
                    break;
                }
            }
        }
        masks[c0] = all0;
        masks[c1] = all1;
        finished
    }

    /// The group on the class `masks`, too large for one tree, in parts:
    /// the letters of the first cell in split order that has more than one
    /// are halved, and each half is forced by [`Prover::force_part`]
    /// (see [`Prover::break_group`]); `false` if stopped before the end.
    /// Halves rather than single letters: each part walks again the paths
    /// that miss the cell, so the fewer parts the better.
    fn break_split(&self, masks: &mut [u32], group: &mut Group) -> bool {
        let Some(&cell) = self.order.iter().find(|&&c| masks[c].count_ones() > 1) else {
            // One board: nothing is left to split.
            return matches!(
                self.force_tree(masks, usize::MAX, Piece::Whole, group),
                Ok(true)
            );
        };
        let all = masks[cell];
        let mut low = 0;
        let mut rest = all;
        for _ in 0..all.count_ones().div_ceil(2) {
            low |= rest & rest.wrapping_neg();
            rest &= rest - 1;
        }
        let mut finished = true;
        for part in [low, rest] {
            masks[cell] = part;
            finished = self.force_part(masks, group);
            if !finished {
                break;
            }
        }
        masks[cell] = all;
        finished
    }

    /// The group on the class `masks` forced on one tree if it fits, else
    /// halved by [`Prover::break_split`]; `false` if stopped before the
    /// end.
    fn force_part(&self, masks: &mut [u32], group: &mut Group) -> bool {
        match self.force_tree(masks, self.tree_paths, Piece::Whole, group) {
            Ok(finished) => finished,
            Err(_) => self.break_split(masks, group),
        }
    }

    /// The group on the class `masks` forced on one tree (its `piece`
    /// built, see [`Piece`]), unless the walk finds more than `most` word
    /// paths (then their [`Counts`]); `Ok(false)` if stopped before the end.
    fn force_tree(
        &self,
        masks: &[u32],
        most: usize,
        piece: Piece,
        group: &mut Group,
    ) -> Result<bool, Box<Over>> {
        let Group {
            ks,
            above,
            work,
            stats,
            stop,
            found,
        } = group;
        self.build_piece(masks, most, piece, &mut work.tree)?;
        let tree = &work.tree;
        // A kept piece's tree holds its shared piece, built with it.
        let built_before = match piece {
            Piece::Kept => 0,
            _ => tree.shared_len.iter().sum::<usize>(),
        };
        stats.tree_nodes += (tree.nodes() - built_before) as u64;
        for (ks, found) in ks.chunks(LANES).zip(found.chunks_mut(LANES)) {
            if stop.load(Ordering::Relaxed) {
                return Ok(false);
            }
            self.force_lanes(masks, ks, *above, work, stats, found);
        }
        Ok(true)
    }

    /// Runs the proof of the classes numbered in `range` (assignment
    /// numbers; those not the least of their mirror images are skipped, so
    /// `0..raw_classes()` is the whole proof) on `threads` threads: every
    /// board (up to symmetry) scoring at least `above`, best first, with the
    /// statistics.
    /// `skip(k)` says a class was finished before (a checkpoint); `done(k)`
    /// is called as each class finishes, with the boards it found. `stop`
    /// ends the search early (the result is then incomplete).
    pub fn prove(
        &self,
        above: u32,
        threads: usize,
        range: std::ops::Range<u64>,
        skip: &(dyn Fn(u64) -> bool + Sync),
        done: &(dyn Fn(u64, &[Found]) + Sync),
        stop: &AtomicBool,
    ) -> (Vec<Found>, ProofStats) {
        let total = range.end.min(self.raw_classes());
        let group = self.group_len();
        let first = range.start / group;
        // Threads take whole groups, so each tree serves all its classes.
        let unit = |i: u64| {
            let g = first.checked_add(i)?;
            let from = g.checked_mul(group)?.max(range.start);
            let to = g.saturating_add(1).saturating_mul(group).min(total);
            (from < total).then_some(from..to)
        };
        self.prove_units(above, threads, &unit, skip, done, stop)
    }

    /// The proof of only the `samples` groups (see [`Prover::group_len`])
    /// spread evenly over all of them: group `(2i + 1) * G / (2 * samples)`
    /// for `i` in `0..samples`, where `G` is the number of groups, each
    /// whole, in one run as a whole proof does them (a yardstick: their
    /// cost times `G / samples` estimates the whole proof's). Returns the
    /// groups' first class numbers too.
    pub fn prove_sample(
        &self,
        above: u32,
        threads: usize,
        samples: u64,
        stop: &AtomicBool,
    ) -> (Vec<Found>, ProofStats, Vec<u64>) {
        let group = self.group_len();
        let groups = self.raw_classes() / group;
        let samples = samples.min(groups);
        let starts: Vec<u64> = (0..samples)
            .map(|i| ((2 * i + 1) as u128 * groups as u128 / (2 * samples) as u128) as u64 * group)
            .collect();
        let unit = |i: u64| {
            let &from = starts.get(usize::try_from(i).ok()?)?;
            Some(from..from + group)
        };
        let (found, stats) = self.prove_units(above, threads, &unit, &|_| false, &|_, _| {}, stop);
        (found, stats, starts)
    }

    /// The groups (see [`Prover::group_len`]) of work unit `unit` of
    /// `units`, in increasing order: the same partition on every run with
    /// the same size and buckets, each group in exactly one unit.
    ///
    /// A group costs a tree build and the forcing of its classes, and its
    /// classes that are mirror images of smaller ones cost nothing; so a
    /// group weighs `group_len` (its tree) plus its searched classes, or 0
    /// when it has none. The groups are dealt in number order, each to the
    /// unit that weighs least so far, so every unit gets an even share of
    /// each run of class numbers: the highest digits are the central cells,
    /// whose letters make a class costly or cheap. Ties go by a fixed hash
    /// of the group and the unit, not by unit number: going round in turn,
    /// unit K would get every group whose lowest digits (the cells dealt
    /// last) read K modulo the number of units; on 3x4 in 16 units, one
    /// pair of buckets on the middles of the short sides each.
    pub fn unit_groups(&self, units: u64, unit: u64) -> Vec<u64> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let units = units.max(1);
        let group = self.group_len();
        let syms = self.symmetries();
        let tie = |g: u64, u: u64| mix64(g.wrapping_mul(units).wrapping_add(u));
        let mut loads: BinaryHeap<Reverse<(u64, u64, u64)>> = (0..units)
            .map(|u| Reverse((0, tie(u64::MAX, u), u)))
            .collect();
        let mut mine = Vec::new();
        let closed = self.merged_cells_closed(&syms);
        for g in 0..self.raw_classes() / group {
            let searched = self.searched_in_group(g, &syms, closed);
            let to = if searched == 0 {
                // Free: spread for tidiness, the balance is unchanged.
                g % units
            } else {
                let Reverse((load, _, u)) = loads.pop().expect("at least one unit");
                loads.push(Reverse((load + group + searched, tie(g, u), u)));
                u
            };
            if to == unit {
                mine.push(g);
            }
        }
        mine
    }

    /// Whether every symmetry of `syms` maps the merged cells (the last
    /// split positions, see [`Prover::with_merged`]) onto themselves: then
    /// the image of a group's classes is again one group's classes.
    fn merged_cells_closed(&self, syms: &[Vec<usize>]) -> bool {
        let n = self.order.len();
        let merged = &self.order[n - self.merged..];
        syms.iter()
            .all(|p| merged.iter().all(|&c| merged.contains(&p[c])))
    }

    /// How many classes of group `g` are the least of their images under
    /// `syms` (searched). With the merged cells `closed` under them, an
    /// image's group number is decided by the group's own digits: a smaller
    /// one leaves no class of the group searched, a larger one every class,
    /// and only the symmetries that map the group onto itself are tried on
    /// each class. So the count costs a few symmetries per group, not per
    /// class (a 4x4 proof has 4^16 classes in groups of 256).
    fn searched_in_group(&self, g: u64, syms: &[Vec<usize>], closed: bool) -> u64 {
        let group = self.group_len();
        let classes = g * group..(g + 1) * group;
        if !closed {
            return classes.filter(|&k| self.is_canonical(k, syms)).count() as u64;
        }
        // The group's first class has every merged digit 0, and so has its
        // image: the image's number divided by `group_len` is its group.
        let a = self.assignment(g * group);
        let mut img = vec![0u8; a.len()];
        let mut onto_itself = Vec::new();
        for p in syms {
            for (i, &d) in a.iter().enumerate() {
                img[p[i]] = d;
            }
            match (self.number(&img) / group).cmp(&g) {
                std::cmp::Ordering::Less => return 0,
                std::cmp::Ordering::Equal => onto_itself.push(p.clone()),
                std::cmp::Ordering::Greater => {}
            }
        }
        if onto_itself.len() <= 1 {
            // Only the identity: every class is the least of its images.
            return group;
        }
        classes
            .filter(|&k| self.is_canonical(k, &onto_itself))
            .count() as u64
    }

    /// The classes searched in `groups` (those that are the least of their
    /// mirror images): their count and a checksum (FNV-1a over each class
    /// number's 8 little-endian bytes, in the order given), so that the
    /// results of work units can be checked to cover each class once.
    pub fn coverage(&self, groups: &[u64]) -> (u64, u64) {
        let group = self.group_len();
        let syms = self.symmetries();
        let mut count = 0;
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for &g in groups {
            for k in g * group..(g + 1) * group {
                if self.is_canonical(k, &syms) {
                    count += 1;
                    for b in k.to_le_bytes() {
                        hash = (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3);
                    }
                }
            }
        }
        (count, hash)
    }

    /// The proof of the classes of `groups` (group numbers, see
    /// [`Prover::group_len`]; a work unit's from [`Prover::unit_groups`]),
    /// with `skip`, `done` and `stop` as [`Prover::prove`] takes them.
    pub fn prove_groups(
        &self,
        above: u32,
        threads: usize,
        groups: &[u64],
        skip: &(dyn Fn(u64) -> bool + Sync),
        done: &(dyn Fn(u64, &[Found]) + Sync),
        stop: &AtomicBool,
    ) -> (Vec<Found>, ProofStats) {
        let group = self.group_len();
        let all = self.raw_classes() / group;
        let unit = |i: u64| {
            let &g = groups.get(usize::try_from(i).ok()?)?;
            (g < all).then(|| g * group..(g + 1) * group)
        };
        self.prove_units(above, threads, &unit, skip, done, stop)
    }

    /// The proof of the class ranges `unit(0)`, `unit(1)`, ... up to the
    /// first `None`, each within one group, taken by the threads in turn.
    fn prove_units(
        &self,
        above: u32,
        threads: usize,
        unit: &(dyn Fn(u64) -> Option<std::ops::Range<u64>> + Sync),
        skip: &(dyn Fn(u64) -> bool + Sync),
        done: &(dyn Fn(u64, &[Found]) + Sync),
        stop: &AtomicBool,
    ) -> (Vec<Found>, ProofStats) {
        // Classes are skipped under the symmetries that keep every cell's
        // buckets; boards are reported under all of the board's.
        let syms = self.symmetries();
        let board_syms = self.size.symmetries();
        let next = AtomicU64::new(0);
        let classes = AtomicUsize::new(0);
        let all = Mutex::new((Vec::new(), ProofStats::default()));
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| {
                    let mut work = Work::new(self.trie, self.scoring);
                    let mut stats = ProofStats::default();
                    let mut mine = Vec::new();
                    let mut ks = Vec::new();
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let Some(classes_here) = unit(next.fetch_add(1, Ordering::Relaxed)) else {
                            break;
                        };
                        ks.clear();
                        for k in classes_here {
                            if self.is_canonical(k, &syms) {
                                classes.fetch_add(1, Ordering::Relaxed);
                                if !skip(k) {
                                    ks.push(k);
                                }
                            }
                        }
                        self.break_group(
                            &ks,
                            above,
                            &mut work,
                            &mut stats,
                            stop,
                            &mut |k, here| {
                                let here = self.canonical(here, &board_syms);
                                done(k, &here);
                                mine.extend(here);
                            },
                        );
                    }
                    let mut g = all.lock().unwrap();
                    g.0.extend(mine);
                    g.1.bounds += stats.bounds;
                    g.1.tree_nodes += stats.tree_nodes;
                    g.1.boards_scored += stats.boards_scored;
                });
            }
        });
        let (found, mut stats) = all.into_inner().unwrap();
        stats.classes = classes.load(Ordering::Relaxed) as u64;
        let mut found = self.canonical(found, &board_syms);
        found.sort_by(|a, b| b.score.cmp(&a.score).then(a.board.cmp(&b.board)));
        (found, stats)
    }

    /// Each board by the least of its mirror images, each once, in board
    /// order: a class equal to its own mirror image holds a board and its
    /// image, and a set must be reported once.
    fn canonical(&self, found: Vec<Found>, syms: &[Vec<usize>]) -> Vec<Found> {
        let mut out: Vec<Found> = found
            .into_iter()
            .map(|f| {
                let b = Board::parse(&f.board, Some(self.size)).expect("a found board parses");
                Found {
                    board: Board::from_cells(self.size, canonical_cells(b.cells(), syms)).letters(),
                    score: f.score,
                }
            })
            .collect();
        out.sort_by(|a, b| a.board.cmp(&b.board));
        out.dedup();
        out
    }

    /// The number of top-level classes in `range` after symmetry (for progress bars).
    pub fn canonical_classes(&self, range: std::ops::Range<u64>) -> u64 {
        let syms = self.symmetries();
        (range.start..range.end.min(self.raw_classes()))
            .filter(|&k| self.is_canonical(k, &syms))
            .count() as u64
    }
}

/// SplitMix64's finaliser: a fixed, well-mixed hash of a number.
fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The most that the choice nodes `stack` (all of the cell at split
/// position `pos`) give a board together, per lane: the best over letters
/// of the sum of their subtrees' bounds under that letter (a lane's
/// forbidden letters bound to 0).
#[cfg(test)]
fn best_letter(tree: &Tree, stack: &[Waiting], pos: usize) -> Lanes {
    let mut ahead = Ahead::default();
    ahead.extend(tree, stack, pos);
    ahead.best
}

/// The choice nodes waiting on the stack of one split position, summed
/// per letter: what forcing each letter on that cell puts in their
/// place. Kept beside the stack as choices are pushed, so that bounding a
/// forced class reads one row per letter and position instead of every
/// waiting choice's subtrees: an entry pushed near the root was otherwise
/// read again by every forcing below it.
#[derive(Clone, Copy)]
struct Ahead {
    /// Per letter, the sum of the lanes of the subtrees with choices.
    inner: [Lanes; 26],
    /// Per letter, the leaves' points: a leaf's bound is its points in
    /// the lanes that allow its letter, so they are summed here and put
    /// in those lanes when read.
    leaves: [u32; 26],
    /// The letters of some choice added.
    letters: u32,
    /// The most the choices give a board together, per lane (see
    /// [`Ahead::refresh`]): a stack changes far less often than it is read.
    best: Lanes,
}

impl Default for Ahead {
    fn default() -> Self {
        Ahead {
            inner: [[0; LANES]; 26],
            leaves: [0; 26],
            letters: 0,
            best: [0; LANES],
        }
    }
}

impl Ahead {
    /// Adds the choices `new`, pushed on the stack of split position
    /// `pos`, and works out the best letter again once, after them.
    #[inline(always)]
    fn extend(&mut self, tree: &Tree, new: &[Waiting], pos: usize) {
        for c in new {
            self.add(tree, c);
        }
        self.refresh(tree, pos);
    }

    /// Adds the waiting choice `c` (bounds saturate, so the order in
    /// which choices are added does not matter).
    #[inline(always)]
    fn add(&mut self, tree: &Tree, c: &Waiting) {
        self.letters |= c.letters;
        for (k, l) in letters(c.inner()).enumerate() {
            // Summed in a copy: in place, the compiler could not tell the
            // row from the tree's lanes and added one lane at a time.
            let mut row = self.inner[l as usize];
            add(&mut row, &tree.sum_lanes[c.first as usize + k].0);
            self.inner[l as usize] = row;
        }
        for (k, l) in letters(c.leaves).enumerate() {
            let points = tree.leaves[c.first_leaf as usize + k];
            self.leaves[l as usize] = self.leaves[l as usize].saturating_add(points);
        }
    }

    /// The sum of the bounds of the subtrees that forcing letter `l` on
    /// the cell at split position `pos` puts in place of the choices.
    #[inline(always)]
    fn letter(&self, tree: &Tree, pos: usize, l: u8) -> Lanes {
        let mut lanes = self.inner[l as usize];
        let points = self.leaves[l as usize];
        if points > 0 {
            add(&mut lanes, &tree.leaf_lanes(pos, l, points));
        }
        lanes
    }

    /// Works out again the most the choices give a board together, per
    /// lane: the best over letters of [`Ahead::letter`].
    #[inline(always)]
    fn refresh(&mut self, tree: &Tree, pos: usize) {
        let mut best = [0u16; LANES];
        for l in letters(self.letters) {
            let row = self.letter(tree, pos, l);
            for (x, y) in best.iter_mut().zip(&row) {
                *x = (*x).max(*y);
            }
        }
        self.best = best;
    }
}

/// Asks the cache for the first lanes of the waiting choice `c`'s
/// subtrees and its leaves' points, which adding it to its position's
/// [`Ahead`] reads once the forced letter's choices are all pushed (a
/// choice sits anywhere in the tree, so nearly every one is a miss).
#[inline]
fn prefetch_lanes(tree: &Tree, c: &Waiting) {
    if c.inner() != 0 {
        prefetch(&tree.sum_lanes, c.first as usize);
    }
    if c.leaves != 0 {
        prefetch(&tree.leaves, c.first_leaf as usize);
    }
}

/// Asks the cache for `items[i]`, if there is one (a hint: nothing is read).
#[inline]
fn prefetch<T>(items: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = items.get(i) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch only hints the cache: it reads nothing the
        // program sees and never faults (the address is in bounds anyway).
        unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, i);
}

/// Sorts word paths by key, and those of one key by word (so that one
/// word's paths through the same letters are neighbours), where keys use
/// the low `bits` bits. Up to 12 cells (60 bits) a least-significant-digit
/// radix sort on [`DIGIT_BITS`]-bit digits, skipping the digits every key
/// shares, then the short runs of equal keys sorted by word: building the
/// tree of a 3x4 class sorts millions of paths, and a comparison sort of
/// them took 13% of the proof. Larger boards compare.
///
/// The radix sort's room for the records is the back of `paths` itself,
/// which grows to twice their number: one allocation holds them and their
/// copy (see [`recast`]).
fn sort_paths<P: Path>(paths: &mut Vec<P>, bits: u32) {
    const BUCKETS: usize = 1 << DIGIT_BITS;
    const MAX_PASSES: usize = 64usize.div_ceil(DIGIT_BITS as usize);
    if bits > 64 {
        paths.sort_unstable_by_key(|p| (p.key(), p.word()));
        return;
    }
    let passes = bits.div_ceil(DIGIT_BITS) as usize;
    let digit = |k: u64, d: usize| (k >> (DIGIT_BITS as usize * d)) as usize & (BUCKETS - 1);
    let n = paths.len();
    let mut counts = [[0u32; BUCKETS]; MAX_PASSES];
    for p in paths.iter() {
        let k = p.low();
        for (d, c) in counts[..passes].iter_mut().enumerate() {
            c[digit(k, d)] += 1;
        }
    }
    // A digit every key shares moves nothing.
    let shared = |c: &[u32; BUCKETS]| c.iter().any(|&x| x as usize == n);
    if !counts[..passes].iter().all(shared) {
        paths.resize(2 * n, P::default());
    }
    let (front, back) = paths.split_at_mut(n);
    let mut swapped = false;
    for (d, c) in counts[..passes].iter().enumerate() {
        if shared(c) {
            continue;
        }
        let mut at = [0u32; BUCKETS];
        let mut sum = 0;
        for (a, &x) in at.iter_mut().zip(c) {
            *a = sum;
            sum += x;
        }
        let (src, dst) = if swapped {
            (&*back, &mut *front)
        } else {
            (&*front, &mut *back)
        };
        for p in src {
            let b = digit(p.low(), d);
            dst[at[b] as usize] = *p;
            at[b] += 1;
        }
        swapped = !swapped;
    }
    if swapped {
        front.copy_from_slice(back);
    }
    paths.truncate(n);
    let mut s = 0;
    while s < n {
        let key = paths[s].low();
        let e = s + paths[s..]
            .iter()
            .position(|p| p.low() != key)
            .unwrap_or(n - s);
        if e - s > 1 {
            paths[s..e].sort_unstable_by_key(|p| p.word());
        }
        s = e;
    }
}

/// The width of the radix sort's digits: two cells' letters. Sorting six
/// million 3x4 paths took about a fifth less time than on bytes (eight
/// passes) and than on 11-bit digits (more buckets than the cache holds
/// well).
const DIGIT_BITS: u32 = 10;

/// Merges sorted word paths with equal keys. A board counts each word once
/// however many paths spell it; paths of one word through the same letters
/// at the same cells are one path to the bound. Different words through
/// the same letters share one record, their points added (a second record
/// with the same key where one cannot hold the sum).
fn dedup_paths<P: Path>(paths: &mut Vec<P>) {
    let mut kept = 0;
    let mut last_word = u32::MAX;
    for i in 0..paths.len() {
        let p = paths[i];
        if kept > 0 && paths[kept - 1].key() == p.key() {
            if p.word() == last_word {
                continue;
            }
            last_word = p.word();
            if paths[kept - 1].add_points(p.points()) {
                continue;
            }
        }
        last_word = p.word();
        paths[kept] = p;
        kept += 1;
    }
    paths.truncate(kept);
}

/// Sorts word paths of a class of `n` cells and merges those of one key
/// (see [`sort_paths`], [`dedup_paths`]).
fn sort_and_merge<P: Path>(paths: &mut Vec<P>, n: usize) {
    sort_paths(paths, 5 * n as u32);
    dedup_paths(paths);
}

/// The least of a board's symmetric images.
fn canonical_cells(cells: &[u8], syms: &[Vec<usize>]) -> Vec<u8> {
    syms.iter()
        .map(|p| {
            let mut img = vec![0u8; cells.len()];
            for (i, &c) in cells.iter().enumerate() {
                img[p[i]] = c;
            }
            img
        })
        .min()
        .expect("the identity is a symmetry")
}

/// How many cells lie farthest from the centre (the corners of a
/// rectangle wider and taller than two): the last ones in the split order.
fn outer_shell(size: Size, order: &[usize]) -> usize {
    let ring = rings(size);
    let last = ring[order[order.len() - 1]];
    ring.iter().filter(|&&r| r == last).count()
}

fn step_len(l: u8) -> usize {
    if l == QU {
        2
    } else {
        1
    }
}

fn letters(mut mask: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask & ((1 << 26) - 1) == 0 {
            return None;
        }
        let l = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        Some(l)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDS: &[&str] = &[
        "ate", "eat", "tea", "eta", "tee", "set", "sea", "see", "sat", "tat", "teas", "eats",
        "seat", "east", "sate", "teat", "test", "tees", "seas", "sets", "tests", "state", "taste",
        "tease", "setae", "estate", "testes", "sees", "ease", "eases",
    ];

    fn brute(trie: &Trie, size: Size, alphabet: &[u8]) -> Vec<(Vec<u8>, u32)> {
        let mut solver = Solver::new(trie, Scoring::Boggle);
        let n = size.cells();
        let total = alphabet.len().pow(n as u32);
        (0..total)
            .map(|mut k| {
                let cells: Vec<u8> = (0..n)
                    .map(|_| {
                        let c = alphabet[k % alphabet.len()];
                        k /= alphabet.len();
                        c
                    })
                    .collect();
                let s = solver.score(&Board::from_cells(size, cells.clone())).score;
                (cells, s)
            })
            .collect()
    }

    fn mask_of(s: &str) -> u32 {
        s.bytes().fold(0, |m, c| m | 1 << (c - b'a'))
    }

    #[test]
    fn bound_is_never_below_a_boards_score() {
        let trie = Trie::new(WORDS);
        for (w, h) in [(2, 2), (3, 2)] {
            let size = Size::new(w, h).unwrap();
            let p = Prover::new(
                &trie,
                size,
                Scoring::Boggle,
                vec![mask_of("ae"), mask_of("st")],
            );
            let boards = brute(&trie, size, b"aest".map(|c| c - b'a').as_slice());
            // Every class over the two buckets, plus the class of everything.
            for k in 0..p.raw_classes() {
                let masks = p.class(k);
                let bound = p.bound(&masks);
                for (cells, score) in &boards {
                    if cells.iter().zip(&masks).all(|(&c, &m)| m & (1 << c) != 0) {
                        assert!(
                            bound >= *score,
                            "class {masks:?} bound {bound} < {score} for {cells:?}"
                        );
                    }
                }
            }
            let everything = vec![mask_of("aest"); size.cells()];
            let bound = p.bound(&everything);
            assert!(boards.iter().all(|(_, s)| bound >= *s));
            // A class of one board: the tree still bounds it, and its bound
            // is more than its score only through words spelled two ways.
            for (cells, score) in &boards {
                let one: Vec<u32> = cells.iter().map(|&c| 1 << c).collect();
                assert!(p.bound(&one) >= *score);
            }
        }
    }

    #[test]
    fn proof_finds_exactly_the_brute_force_boards() {
        let trie = Trie::new(WORDS);
        for (w, h, alphabet, buckets) in [
            (2, 2, "aest", "ae,st"),
            (3, 2, "aest", "ae,s,t"),
            (2, 3, "aestr", "aes,tr"),
            // Paths that miss the two central cells: split groups share them.
            (4, 2, "aest", "ae,st"),
        ] {
            let size = Size::new(w, h).unwrap();
            let a: Vec<u8> = alphabet.bytes().map(|c| c - b'a').collect();
            let boards = brute(&trie, size, &a);
            let best = boards.iter().map(|b| b.1).max().unwrap();
            // (merged corners, target, most paths to a tree: a few force
            // splits down to single boards, on merged cells too)
            // Caps at which groups are split with and without a shared
            // piece; at the best score, any path left out of a tree loses
            // the best board.
            let split = [15, 25, 35, 50, 70, 100, 140].map(|most| (0, best, most));
            for (merged, above, most) in [
                (0, best, usize::MAX),
                (0, best.saturating_sub(2).max(1), usize::MAX),
                (2, best.saturating_sub(1).max(1), usize::MAX),
                (size.cells(), best.saturating_sub(2).max(1), usize::MAX),
                (0, best.saturating_sub(2).max(1), 1),
                (2, best.saturating_sub(1).max(1), 3),
                (size.cells(), best.saturating_sub(2).max(1), 1),
                (size.cells(), best.saturating_sub(2).max(1), 12),
                (0, best.saturating_sub(3).max(1), 20),
                (0, best.saturating_sub(3).max(1), 40),
                (2, best.saturating_sub(3).max(1), 80),
                (size.cells(), best.saturating_sub(3).max(1), 160),
            ]
            .into_iter()
            .chain(split)
            {
                let make = || {
                    Prover::new(
                        &trie,
                        size,
                        Scoring::Boggle,
                        parse_buckets(buckets).unwrap(),
                    )
                    .with_merged(merged)
                    .with_tree_paths(most)
                };
                let p = make();
                let run = |p: &Prover| {
                    p.prove(
                        above,
                        2,
                        0..u64::MAX,
                        &|_| false,
                        &|_, _| {},
                        &AtomicBool::new(false),
                    )
                };
                let (found, stats) = run(&p);
                assert!(stats.classes > 0 && stats.classes <= p.raw_classes());
                // The plain hot functions do exactly what the fast ones do
                // (where this processor has them).
                let (plain, plain_stats) = run(&make().with_plain());
                assert_eq!(by_least_image(&plain, size), by_least_image(&found, size));
                assert_eq!(
                    (
                        plain_stats.bounds,
                        plain_stats.tree_nodes,
                        plain_stats.boards_scored
                    ),
                    (stats.bounds, stats.tree_nodes, stats.boards_scored),
                    "{w}x{h} above {above}"
                );
                // The proof keeps one board of each symmetric set; compare
                // the sets of canonical forms.
                let syms = size.symmetries();
                let canon = |cells: &[u8]| canonical_cells(cells, &syms);
                let mut want: Vec<(Vec<u8>, u32)> = boards
                    .iter()
                    .filter(|b| b.1 >= above)
                    .map(|b| (canon(&b.0), b.1))
                    .collect();
                want.sort();
                want.dedup();
                assert!(
                    !want.is_empty() && best >= 3,
                    "the test dictionary makes scoring boards"
                );
                let mut got: Vec<(Vec<u8>, u32)> = found
                    .iter()
                    .map(|f| {
                        (
                            canon(Board::parse(&f.board, Some(size)).unwrap().cells()),
                            f.score,
                        )
                    })
                    .collect();
                got.sort();
                let len = got.len();
                got.dedup();
                assert_eq!(got.len(), len, "a symmetric set was reported twice");
                assert_eq!(got, want, "{w}x{h} above {above}");
            }
        }
    }

    /// The boards a proof finds, by their least mirror images (all of the
    /// board's symmetries), sorted.
    fn proved(
        p: &Prover,
        size: Size,
        above: u32,
        range: std::ops::Range<u64>,
    ) -> Vec<(Vec<u8>, u32)> {
        let (found, _) = p.prove(
            above,
            2,
            range,
            &|_| false,
            &|_, _| {},
            &AtomicBool::new(false),
        );
        by_least_image(&found, size)
    }

    /// Found boards by their least mirror images (all of the board's
    /// symmetries), sorted.
    fn by_least_image(found: &[Found], size: Size) -> Vec<(Vec<u8>, u32)> {
        let syms = size.symmetries();
        let mut got: Vec<(Vec<u8>, u32)> = found
            .iter()
            .map(|f| {
                let b = Board::parse(&f.board, Some(size)).unwrap();
                (canonical_cells(b.cells(), &syms), f.score)
            })
            .collect();
        got.sort();
        got
    }

    /// Buckets per cell, with unequal counts: per ring (every mirror image
    /// kept), and on single cells that mirror images tell apart (only the
    /// images keeping each cell's buckets skip classes). The proof finds
    /// exactly the brute force's boards, whole and split into class ranges
    /// at every group boundary and elsewhere.
    #[test]
    fn per_cell_buckets_prove_exactly_the_brute_force_boards() {
        let trie = Trie::new(WORDS);
        let a: Vec<u8> = b"aest".map(|c| c - b'a').to_vec();
        for (w, h, cells, merged, syms_kept) in [
            (3, 2, "ring0", 0, 4),
            (3, 2, "ring0", 4, 4),
            (3, 2, "0", 0, 1),
            (3, 2, "0+2", 4, 2),
            (3, 2, "0+5", 2, 2),
            (2, 2, "0+3", 0, 4),
            (2, 2, "1", 0, 2),
            (2, 3, "ring0+0", 2, 1),
        ] {
            let size = Size::new(w, h).unwrap();
            let boards = brute(&trie, size, &a);
            let best = boards.iter().map(|b| b.1).max().unwrap();
            let above = best.saturating_sub(2).max(1);
            let syms = size.symmetries();
            let mut want: Vec<(Vec<u8>, u32)> = boards
                .iter()
                .filter(|b| b.1 >= above)
                .map(|b| (canonical_cells(&b.0, &syms), b.1))
                .collect();
            want.sort();
            want.dedup();
            let p = Prover::new(
                &trie,
                size,
                Scoring::Boggle,
                parse_buckets("ae,st").unwrap(),
            )
            .with_cell_buckets(
                &parse_cells(size, cells).unwrap(),
                parse_buckets("a,e,st").unwrap(),
            )
            .with_merged(merged);
            assert_eq!(p.symmetries().len(), syms_kept, "{w}x{h} {cells}");
            assert_eq!(p.raw_classes() % p.group_len(), 0);
            let tag = format!("{w}x{h} {cells} merged {merged}");
            assert_eq!(proved(&p, size, above, 0..u64::MAX), want, "{tag}");
            // Work units: the union of ranges is the proof.
            let n = p.raw_classes();
            let mut got = Vec::new();
            for (from, to) in [(0, n / 3), (n / 3, n / 3 + 1), (n / 3 + 1, n)] {
                got.extend(proved(&p, size, above, from..to));
            }
            got.sort();
            got.dedup();
            assert_eq!(got, want, "{tag}, in ranges");
            // Every class number's assignment reads back to the number, in
            // each cell's own base, and canonical classes are one per set
            // of images under the kept symmetries.
            let kept = p.symmetries();
            let mut seen = std::collections::HashSet::new();
            for k in 0..n {
                let asg = p.assignment(k);
                assert_eq!(p.number(&asg), k);
                for (cell, &d) in asg.iter().enumerate() {
                    assert!((d as usize) < p.cell_buckets()[cell].len());
                }
                let least = kept
                    .iter()
                    .map(|q| {
                        let mut img = vec![0u8; asg.len()];
                        for (i, &d) in asg.iter().enumerate() {
                            img[q[i]] = d;
                        }
                        p.number(&img)
                    })
                    .min()
                    .unwrap();
                assert_eq!(p.is_canonical(k, &kept), least == k);
                seen.insert(least);
            }
            assert_eq!(p.canonical_classes(0..n), seen.len() as u64);
            // The sample of every group is the whole proof too.
            let (found, _, starts) = p.prove_sample(above, 2, u64::MAX, &AtomicBool::new(false));
            assert_eq!(starts.len() as u64, n / p.group_len());
            assert_eq!(by_least_image(&found, size), want, "{tag}, sampled");
            // Counting a group's searched classes by its own digits agrees
            // with trying every class.
            for g in 0..n / p.group_len() {
                let slow = p.searched_in_group(g, &kept, false);
                let closed = p.merged_cells_closed(&kept);
                assert_eq!(
                    p.searched_in_group(g, &kept, closed),
                    slow,
                    "{tag}, group {g}"
                );
            }
            // Work units: every group in exactly one unit, the units' boards
            // the proof's, their coverage adding up to every searched class.
            let groups = n / p.group_len();
            for units in [1, 3, 7, 16] {
                let mut all = Vec::new();
                let mut got = Vec::new();
                let mut covered = 0;
                for u in 0..units {
                    let mine = p.unit_groups(units, u);
                    assert_eq!(mine, p.unit_groups(units, u), "{tag}: the same every time");
                    assert!(mine.windows(2).all(|w| w[0] < w[1]));
                    covered += p.coverage(&mine).0;
                    let (found, _) = p.prove_groups(
                        above,
                        2,
                        &mine,
                        &|_| false,
                        &|_, _| {},
                        &AtomicBool::new(false),
                    );
                    got.extend(by_least_image(&found, size));
                    all.extend(mine);
                }
                all.sort_unstable();
                assert_eq!(all, (0..groups).collect::<Vec<_>>(), "{tag}, {units} units");
                assert_eq!(covered, p.canonical_classes(0..n));
                assert_eq!(p.coverage(&(0..groups).collect::<Vec<_>>()).0, covered);
                got.sort();
                got.dedup();
                assert_eq!(got, want, "{tag}, {units} units");
            }
        }
    }

    /// Units deal the groups that hold searched classes in turn: no unit
    /// weighs more than another by more than one group.
    #[test]
    fn units_weigh_alike() {
        let trie = Trie::new(WORDS);
        let size = Size::new(3, 3).unwrap();
        let p = Prover::new(
            &trie,
            size,
            Scoring::Boggle,
            parse_buckets("ae,st").unwrap(),
        );
        let syms = p.symmetries();
        for units in [2, 5, 16] {
            let counts: Vec<u64> = (0..units)
                .map(|u| {
                    let mine = p.unit_groups(units, u);
                    let searched =
                        mine.iter().filter(|&&g| p.is_canonical(g, &syms)).count() as u64;
                    assert_eq!(p.coverage(&mine).0, searched);
                    searched
                })
                .collect();
            let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
            assert!(hi - lo <= 1, "{units} units: {counts:?}");
            assert_eq!(
                counts.iter().sum::<u64>(),
                p.canonical_classes(0..p.raw_classes())
            );
        }
        // Where every group weighs the same (no mirror image is skipped),
        // no unit gets only the groups of one residue of the lowest digits.
        let small = Size::new(3, 2).unwrap();
        let p = Prover::new(
            &trie,
            small,
            Scoring::Boggle,
            parse_buckets("ae,st").unwrap(),
        )
        .with_cell_buckets(&[0], parse_buckets("a,e,st").unwrap())
        .with_merged(0);
        assert_eq!(p.symmetries().len(), 1);
        for units in [4, 8] {
            for u in 0..units {
                let mine = p.unit_groups(units, u);
                assert_eq!(mine.len() as u64, p.raw_classes() / units);
                let residues: std::collections::HashSet<u64> =
                    mine.iter().map(|g| g % units).collect();
                assert!(residues.len() > 1, "{units} units: unit {u} has {mine:?}");
            }
        }
        // With the corners merged (closed under all 8 symmetries) and with
        // two cells that are not, the count by group agrees with every class's.
        for merged in [4, 2] {
            let p = Prover::new(
                &trie,
                size,
                Scoring::Boggle,
                parse_buckets("a,e,st").unwrap(),
            )
            .with_merged(merged);
            let syms = p.symmetries();
            assert_eq!(p.merged_cells_closed(&syms), merged == 4);
            let mut total = 0;
            for g in 0..p.raw_classes() / p.group_len() {
                let fast = p.searched_in_group(g, &syms, p.merged_cells_closed(&syms));
                assert_eq!(
                    fast,
                    p.searched_in_group(g, &syms, false),
                    "merged {merged}, group {g}"
                );
                total += fast;
            }
            assert_eq!(total, p.canonical_classes(0..p.raw_classes()));
        }
    }

    #[test]
    fn cells_are_named_by_number_ring_or_corners() {
        let size = Size::new(4, 3).unwrap();
        assert_eq!(rings(size), vec![3, 1, 1, 3, 2, 0, 0, 2, 3, 1, 1, 3]);
        assert_eq!(parse_cells(size, "ring1").unwrap(), vec![1, 2, 9, 10]);
        assert_eq!(parse_cells(size, "corners").unwrap(), vec![0, 3, 8, 11]);
        assert_eq!(parse_cells(size, "ring3").unwrap(), vec![0, 3, 8, 11]);
        assert_eq!(parse_cells(size, "7+ring0+4").unwrap(), vec![4, 5, 6, 7]);
        for bad in ["12", "ring4", "ring", "x", "", "1+", "-1"] {
            assert!(parse_cells(size, bad).is_err(), "{bad:?}");
        }
        let square = Size::new(4, 4).unwrap();
        assert_eq!(parse_cells(square, "ring1").unwrap().len(), 8);
        assert_eq!(buckets_text(&parse_buckets("ea,TS,b").unwrap()), "ae,st,b");
        // The 3x4 default: corners coarser, the ring next to the centre on
        // three buckets; every mirror image still keeps each cell's buckets.
        let trie = Trie::new(WORDS);
        for size in [Size::new(4, 3).unwrap(), Size::new(3, 4).unwrap()] {
            let (base, cells) = default_buckets(size);
            let mut p = Prover::new(&trie, size, Scoring::Boggle, parse_buckets(base).unwrap());
            for (sel, b) in cells {
                p = p
                    .with_cell_buckets(&parse_cells(size, sel).unwrap(), parse_buckets(b).unwrap());
            }
            assert_eq!(p.symmetries().len(), 4);
            assert_eq!(p.raw_classes(), 4u64.pow(4) * 3u64.pow(4) * 2u64.pow(4));
            assert_eq!(p.group_len(), 16);
        }
    }

    /// After forcing the first cells of a class on the stacks, the bound
    /// with each later cell's stacked choices taken at their best single
    /// letter is at least every board's score in the forced class, and
    /// never above the bound with each choice at its own best letter.
    #[test]
    fn best_letter_bound_is_never_below_a_boards_score() {
        let trie = Trie::new(WORDS);
        for (w, h, buckets) in [(2, 2, "ae,st"), (3, 2, "ae,st"), (2, 3, "a,e,st")] {
            let size = Size::new(w, h).unwrap();
            let p = Prover::new(
                &trie,
                size,
                Scoring::Boggle,
                parse_buckets(buckets).unwrap(),
            )
            .with_merged(0);
            let n = size.cells();
            let boards = brute(&trie, size, b"aest".map(|c| c - b'a').as_slice());
            let mut tree = Tree::default();
            let mut tighter = 0;
            for k in 0..p.raw_classes() {
                let class = p.class(k);
                p.build(&class, usize::MAX, &mut tree).unwrap();
                p.fill_lanes(std::slice::from_ref(&class), &mut tree);
                // Every forcing of the first `depth` cells, on the stacks.
                let mut todo = vec![(0usize, class.clone(), tree.sums[0].points, vec![0u32])];
                while let Some((depth, masks, points, roots)) = todo.pop() {
                    // The stacks: choices below the forced letters' sums.
                    let mut stacks = vec![Vec::new(); n];
                    for &s in &roots {
                        let s = tree.sums[s as usize];
                        for c in s.first..s.first + s.len {
                            let choice = &tree.choices[c as usize];
                            stacks[choice.pos()].push((c, Waiting::of(choice)));
                        }
                    }
                    let mut tight = u32::from(points_lane(points));
                    let mut loose = tight;
                    for (pos, stack) in stacks.iter().enumerate().skip(depth) {
                        let waiting: Vec<Waiting> = stack.iter().map(|&(_, w)| w).collect();
                        tight += u32::from(best_letter(&tree, &waiting, pos)[0]);
                        // Each choice at its own best letter.
                        let lane = |w: &Waiting, l: u8| match w.child(l) {
                            Child::Leaf(i) => tree.leaf_lanes(pos, l, tree.leaves[i as usize])[0],
                            Child::Inner(s) => tree.sum_lanes[s as usize].0[0],
                        };
                        loose += stack
                            .iter()
                            .map(|&(_, w)| {
                                letters(w.letters)
                                    .map(|l| u32::from(lane(&w, l)))
                                    .max()
                                    .unwrap_or(0)
                            })
                            .sum::<u32>();
                    }
                    assert!(tight <= loose);
                    tighter += usize::from(tight < loose);
                    for (b, score) in &boards {
                        if b.iter().zip(&masks).all(|(&l, &m)| m & 1 << l != 0) {
                            assert!(tight >= *score, "{masks:?} {b:?}: {tight} < {score}");
                        }
                    }
                    if depth == n {
                        continue;
                    }
                    let cell = p.order[depth];
                    for l in letters(masks[cell]) {
                        let mut next = roots.clone();
                        let mut got = points;
                        let mut forced = Vec::new();
                        for &(_, c) in &stacks[depth] {
                            if c.letters & 1 << l != 0 {
                                match c.child(l) {
                                    Child::Leaf(i) => got += tree.leaves[i as usize],
                                    Child::Inner(s) => {
                                        got += tree.sums[s as usize].points;
                                        forced.push(s);
                                    }
                                }
                            }
                        }
                        // The choices of the roots that are not at `depth`
                        // stay; those at `depth` give way to `forced`.
                        let mut m = masks.clone();
                        m[cell] = 1 << l;
                        next.extend(forced);
                        todo.push((depth + 1, m, got, next));
                    }
                }
            }
            assert!(
                tighter > 0,
                "{w}x{h}: the best-letter bound never tightened"
            );
        }
    }

    /// Each lane of a group's tree holds exactly the bound of its class's
    /// own tree, whatever the merged cells, and that bound is at least the
    /// best board of the class.
    #[test]
    fn lanes_bound_each_class_as_its_own_tree() {
        let trie = Trie::new(WORDS);
        let size = Size::new(3, 2).unwrap();
        let boards = brute(&trie, size, b"aest".map(|c| c - b'a').as_slice());
        for merged in [0, 2, 4, 6] {
            let p = Prover::new(
                &trie,
                size,
                Scoring::Boggle,
                parse_buckets("a,e,st").unwrap(),
            )
            .with_merged(merged);
            assert_eq!(p.raw_classes() % p.group_len(), 0);
            let mut tree = Tree::default();
            for g in 0..p.raw_classes() / p.group_len() {
                let ks: Vec<u64> = (g * p.group_len()..(g + 1) * p.group_len()).collect();
                p.build(&p.group_class(ks[0]), usize::MAX, &mut tree)
                    .unwrap();
                for ks in ks.chunks(LANES) {
                    let classes: Vec<Vec<u32>> = ks.iter().map(|&k| p.class(k)).collect();
                    let root = p.fill_lanes(&classes, &mut tree);
                    for (lane, masks) in classes.iter().enumerate() {
                        let own = p.bound(masks);
                        assert_eq!(root[lane] as u32, own, "merged {merged}, class {masks:?}");
                        let best = boards
                            .iter()
                            .filter(|(c, _)| c.iter().zip(masks).all(|(&l, &m)| m & 1 << l != 0))
                            .map(|b| b.1)
                            .max()
                            .unwrap_or(0);
                        assert!(own >= best);
                    }
                    assert!(root[ks.len()..].iter().all(|&b| b == 0));
                }
            }
        }
    }

    /// That `tree`, built in pieces, is the tree of the class `part`: the
    /// same nodes but for the second root, and the same lanes for every
    /// class of `ks` within `part`. Returns the part's bound.
    fn assert_pieces_make_the_parts_tree(
        p: &Prover,
        tree: &mut Tree,
        part: &[u32],
        ks: &[u64],
        at: &str,
    ) -> u32 {
        let mut whole = Tree::default();
        let bound = p.build(part, usize::MAX, &mut whole).unwrap();
        assert_eq!(tree.sums.len(), whole.sums.len() + 1, "{at}");
        assert_eq!(tree.choices.len(), whole.choices.len(), "{at}");
        assert_eq!(tree.leaves.len(), whole.leaves.len(), "{at}");
        for ks in ks.chunks(LANES) {
            let classes: Vec<Vec<u32>> = ks
                .iter()
                .map(|&k| p.class(k).iter().zip(part).map(|(c, m)| c & m).collect())
                .collect();
            assert_eq!(
                p.fill_lanes(&classes, tree),
                p.fill_lanes(&classes, &mut whole),
                "{at}"
            );
        }
        bound
    }

    /// A split part's tree made of the group's shared piece and the
    /// part's own piece is the part's whole tree: the same bound, the same
    /// nodes (but for the second root) and the same lanes for every class,
    /// for each part in turn on one shared piece, with either shared set.
    /// A walk over the cap keeps the widest shared set that fits, and the
    /// paths of as many letters of the first split cell as fit beside it;
    /// those make their part's tree.
    #[test]
    fn a_shared_piece_and_a_part_make_the_parts_tree() {
        let trie = Trie::new(WORDS);
        for (w, h, buckets) in [(3, 2, "ae,st"), (2, 3, "aes,tr"), (3, 3, "aeiou,rst,lnd")] {
            let size = Size::new(w, h).unwrap();
            let p = Prover::new(
                &trie,
                size,
                Scoring::Boggle,
                parse_buckets(buckets).unwrap(),
            )
            .with_merged(2);
            let (c0, c1) = (p.order[0], p.order[1]);
            let mut split = 0;
            let mut kept_parts = 0;
            for g in 0..p.raw_classes() / p.group_len() {
                let ks: Vec<u64> = (g * p.group_len()..(g + 1) * p.group_len()).collect();
                let coarse = p.group_class(ks[0]);
                let mut tree = Tree::default();
                let Err(over) = p.build(&coarse, 0, &mut tree) else {
                    continue; // no word at all
                };
                let counts = over.counts;
                let total: u64 = counts.iter().flatten().sum();
                let count = |kind: Shared| -> u64 {
                    (0..32)
                        .flat_map(|a| (0..32).map(move |b| (a, b)))
                        .filter(|&(a, b)| kind.holds(a, b))
                        .map(|(a, b)| counts[a][b])
                        .sum()
                };
                let (first, both) = (count(Shared::MissFirst), count(Shared::MissBoth));
                // A walk over the cap keeps the widest shared set that fits.
                for (most, kept, len) in [
                    (total - 1, Shared::MissFirst, first),
                    (first.wrapping_sub(1), Shared::MissBoth, both),
                    (both.wrapping_sub(1), Shared::Lost, 0),
                ] {
                    let Ok(most) = usize::try_from(most) else {
                        continue;
                    };
                    if most >= total as usize
                        || (kept == Shared::MissFirst && first > most as u64)
                        || (kept == Shared::MissBoth
                            && (first <= most as u64 || both > most as u64))
                    {
                        continue;
                    }
                    let over = p.build(&coarse, most, &mut tree).unwrap_err();
                    assert_eq!(over.kept, kept, "{w}x{h} group {g}, {most} paths");
                    // Beside them, every path through the kept letters of
                    // the first split cell, within the cap.
                    assert_eq!(over.first & !coarse[c0], 0);
                    assert!(over.first == 0 || kept == Shared::MissFirst);
                    let through: u64 = letters(over.first).map(|l| over.through(l as usize)).sum();
                    assert_eq!(tree.short.len() as u64, len + through, "the walk kept them");
                    assert!(tree.short.len() <= most);
                    let shifts = split_shifts(coarse.len());
                    assert!(tree.short.iter().all(|q| {
                        let (a, b) = split_letters(q, shifts);
                        over.keeps(a, b)
                    }));
                }
                // The letters the walk kept make their part's tree with
                // no walk of its own: the same nodes (but for the second
                // root) and lanes as the part's whole tree.
                let over = p.build(&coarse, total as usize - 1, &mut tree).unwrap_err();
                if over.kept == Shared::MissFirst && over.first != 0 {
                    kept_parts += 1;
                    let mut part = coarse.clone();
                    part[c0] = over.first;
                    p.build_piece(&part, usize::MAX, Piece::Kept, &mut tree)
                        .unwrap();
                    let at = format!("{w}x{h} group {g}, kept {:b}", over.first);
                    assert_pieces_make_the_parts_tree(&p, &mut tree, &part, &ks, &at);
                }
                for (kind, part1s) in [
                    (Shared::MissFirst, vec![coarse[c1]]),
                    (
                        Shared::MissBoth,
                        vec![coarse[c1], coarse[c1] & coarse[c1].wrapping_neg()],
                    ),
                ] {
                    if count(kind) == total {
                        continue;
                    }
                    let over = p.build(&coarse, total as usize - 1, &mut tree).unwrap_err();
                    if over.kept != Shared::MissFirst {
                        continue;
                    }
                    split += 1;
                    let shared_bound = p
                        .build_piece(&coarse, usize::MAX, Piece::Shared(kind), &mut tree)
                        .unwrap();
                    for l0 in letters(coarse[c0]) {
                        for &part1 in &part1s {
                            let mut part = coarse.clone();
                            part[c0] = 1 << l0;
                            part[c1] = part1;
                            let own = p
                                .build_piece(&part, usize::MAX, Piece::Part(kind), &mut tree)
                                .unwrap();
                            let at = format!("{w}x{h} group {g}, {kind:?}");
                            let bound =
                                assert_pieces_make_the_parts_tree(&p, &mut tree, &part, &ks, &at);
                            assert_eq!(shared_bound + own, bound, "{at}");
                        }
                    }
                }
            }
            assert!(
                split > 0,
                "{w}x{h}: some group has paths through the split cells"
            );
            assert!(
                kept_parts > 0,
                "{w}x{h}: some walk over the cap kept a letter"
            );
        }
    }

    /// `run_len` finds every run's end as a linear scan does: runs of
    /// every length from 1 to past a few doublings, at the start, middle
    /// and end of a slice.
    #[test]
    fn run_len_matches_a_linear_scan() {
        for lens in [
            vec![1],
            vec![1, 1, 1],
            vec![2, 3, 4, 5, 6, 7, 8, 9],
            vec![100, 1, 31, 32, 33, 2],
            vec![64, 63, 65, 127, 128, 129],
        ] {
            let items: Vec<usize> = lens
                .iter()
                .enumerate()
                .flat_map(|(i, &n)| std::iter::repeat_n(i, n))
                .collect();
            let mut start = 0;
            for &n in &lens {
                let v = items[start];
                assert_eq!(run_len(&items[start..], |&x| x == v), n, "{lens:?}");
                start += n;
            }
            assert_eq!(start, items.len());
        }
    }

    /// A tree's one allocation passes from word paths to lanes and back
    /// whole, in place; what cannot share it starts a new one.
    #[test]
    fn recast_hands_one_allocation_between_phases() {
        let mut paths: Vec<ShortPath> = Vec::with_capacity(1000);
        paths.push(ShortPath::default());
        let at = paths.as_ptr() as usize;
        let lanes: Vec<LaneRow> = recast(paths);
        assert_eq!(
            (lanes.as_ptr() as usize, lanes.len(), lanes.capacity()),
            (at, 0, 500)
        );
        let wide: Vec<WordPath> = recast(lanes);
        assert_eq!((wide.as_ptr() as usize, wide.capacity()), (at, 500));
        let short: Vec<ShortPath> = recast(wide);
        assert_eq!((short.as_ptr() as usize, short.capacity()), (at, 1000));
        // An odd number of short paths is no whole number of lanes.
        let odd: Vec<ShortPath> = Vec::with_capacity(7);
        assert_eq!(odd.capacity(), 7);
        assert_eq!(recast::<_, LaneRow>(odd).capacity(), 0);
        assert_eq!(recast::<ShortPath, LaneRow>(Vec::new()).capacity(), 0);
    }

    /// The radix sort orders paths as the comparison sort does (by key,
    /// then word), with few distinct digits, shared digits and many equal keys.
    #[test]
    fn radix_sort_orders_paths_by_key_then_word() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (len, bits, spread) in [
            (0, 60, 60),
            (1, 60, 60),
            (5000, 60, 60),
            (5000, 60, 9),
            (3000, 20, 20),
            (4000, 125, 125),
        ] {
            let mut paths: Vec<WordPath> = (0..len)
                .map(|_| {
                    let high = if bits > 64 { (next() as u128) << 64 } else { 0 };
                    let key = (high | next() as u128) & ((1u128 << spread) - 1)
                        | (0b10110u128 << (bits - 5));
                    WordPath::new(key, 0, (next() % 7) as u32, 1)
                })
                .collect();
            let mut want = paths.clone();
            want.sort_by_key(|p| (p.key, p.word));
            sort_paths(&mut paths, bits);
            assert_eq!(paths.len(), want.len());
            assert!(
                paths
                    .iter()
                    .zip(&want)
                    .all(|(a, b)| (a.key, a.word) == (b.key, b.word)),
                "{len} {bits} {spread}"
            );
            // The short records, where the keys fit them, sort alike.
            if bits <= 5 * SHORT_PATH_CELLS as u32 {
                let mut short: Vec<ShortPath> = paths
                    .iter()
                    .rev()
                    .map(|p| ShortPath::new(p.key as u64, 0, p.word, 1))
                    .collect();
                sort_paths(&mut short, bits);
                assert!(
                    short
                        .iter()
                        .zip(&want)
                        .all(|(a, b)| (a.key as u128, a.word) == (b.key, b.word)),
                    "short {len} {bits} {spread}"
                );
            }
        }
    }

    /// Short and wide word paths build the same tree for every class of
    /// small boards (the proof tests run on short ones only).
    #[test]
    fn short_and_wide_paths_build_the_same_trees() {
        let trie = Trie::new(WORDS);
        for (w, h) in [(2, 2), (3, 2), (2, 3)] {
            let size = Size::new(w, h).unwrap();
            let buckets = parse_buckets("a,e,st").unwrap();
            let short = Prover::new(&trie, size, Scoring::Boggle, buckets.clone());
            let wide = Prover::new(&trie, size, Scoring::Boggle, buckets).with_wide_paths();
            assert!(short.short_paths && !wide.short_paths);
            let (mut a, mut b) = (Tree::default(), Tree::default());
            for k in 0..short.raw_classes() {
                let masks = short.class(k);
                assert_eq!(
                    short.build(&masks, usize::MAX, &mut a).unwrap(),
                    wide.build(&masks, usize::MAX, &mut b).unwrap()
                );
                let sums = |t: &Tree| {
                    t.sums
                        .iter()
                        .map(|s| (s.points, s.first, s.len))
                        .collect::<Vec<_>>()
                };
                let choices = |t: &Tree| {
                    t.choices
                        .iter()
                        .map(|c| (c.pos(), c.letters(), c.leaves, c.first, c.first_leaf))
                        .collect::<Vec<_>>()
                };
                assert_eq!(sums(&a), sums(&b), "{size} {masks:?}");
                assert_eq!(choices(&a), choices(&b), "{size} {masks:?}");
                assert_eq!(a.leaves, b.leaves, "{size} {masks:?}");
                assert_eq!(a.short.len(), b.wide.len());
            }
        }
    }

    /// Points one short record cannot hold go to a second record with the
    /// same key, and the tree counts both.
    #[test]
    fn short_paths_keep_points_past_sixteen_bits_in_a_second_record() {
        let key = (0b00011u128 << 5) | 31;
        let mut paths = vec![
            ShortPath::new(key as u64, 0b01, 7, 40_000),
            ShortPath::new(key as u64, 0b01, 8, 30_000),
            ShortPath::new(key as u64, 0b01, 8, 30_000),
            ShortPath::new(key as u64, 0b01, 9, 5),
        ];
        dedup_paths(&mut paths);
        let points: Vec<u32> = paths.iter().map(|p| p.points()).collect();
        assert_eq!(points, [40_000, 30_005]);
        let mut tree = Tree::default();
        tree.sums.push(SumNode::default());
        assert_eq!(
            build_sum(FastInstructions::detect(), &paths, 0, 2, 0, &mut tree),
            70_005
        );
        tree.sums.truncate(1);
        tree.leaves.clear();
        tree.choices.clear();
        assert_eq!(build_sum_plain(&paths, 0, 2, 0, &mut tree), 70_005);
        let mut wide = vec![
            WordPath::new(key, 0b01, 7, 40_000),
            WordPath::new(key, 0b01, 8, 30_000),
            WordPath::new(key, 0b01, 9, 5),
        ];
        dedup_paths(&mut wide);
        assert_eq!(wide.len(), 1);
        assert_eq!(wide[0].points, 70_005);
    }

    /// A prefetch past the end (the last entries of a stack ask for
    /// entries that are not there) or of an empty array does nothing.
    #[test]
    fn prefetch_out_of_bounds_is_only_skipped() {
        let tree = Tree::default();
        prefetch(&tree.sums, 0);
        prefetch(&[1u8, 2, 3], 3);
        prefetch(&[1u8, 2, 3], usize::MAX);
        prefetch_lanes(
            &tree,
            &Waiting {
                letters: 3,
                leaves: 2,
                first: u32::MAX,
                first_leaf: u32::MAX,
            },
        );
    }

    #[test]
    fn buckets_are_checked() {
        assert_eq!(
            parse_buckets(DEFAULT_BUCKETS)
                .unwrap()
                .iter()
                .fold(0, |a, m| a | m),
            (1 << 26) - 1
        );
        assert!(parse_buckets("ab,bc").is_err());
        assert!(parse_buckets("ab,,c").is_err());
        assert!(parse_buckets("a1").is_err());
    }
}
