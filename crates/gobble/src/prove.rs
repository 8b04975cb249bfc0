//! Proving the best boards: an exhaustive branch and bound over board classes.
//!
//! A *class* gives every cell a set of letters (a mask over `0..26`); it
//! stands for every board that picks one letter per cell from those sets.
//! The letters are split into a few *buckets*, and the search starts from
//! every assignment of one bucket per cell, keeping one assignment of each
//! set of symmetric ones (a board and its mirror images score the same).
//!
//! For a class, [`Prover::bound`] is an upper bound on the score of each of
//! its boards: the sum, over every word path the trie allows, of its points,
//! where at each step the best letter of the next cell is taken on its own
//! (the "max, no mark" bound). A board's score counts each distinct word
//! once, and each of its words has at least one path, so its score is at most
//! the sum over its paths, which each step's maximum only raises. A class
//! whose bound is below the target holds no board worth reporting; otherwise
//! the first cell (centre outwards) with more than one letter is split into
//! its letters and each part is bounded again, until a class is one board,
//! scored exactly by [`Solver`].
//!
//! This is the simplest correct form of the method of danvk's
//! hybrid-boggle; its "orderly trees" (which share the bound's work across
//! the splits) are the next step (see `docs/notes/prove-progress.md`).

use crate::board::{Board, Size, QU};
use crate::scoring::{Scoring, MAX_WORD_LEN};
use crate::solver::Solver;
use crate::trie::{Trie, WORD};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The default buckets (hybrid-boggle's four for 3x3): rare consonants,
/// vowels, common consonants, the rest. Each letter is in exactly one.
pub const DEFAULT_BUCKETS: &str = "bdfgjqvwxz,aeiou,lnrsy,chkmpt";

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
    /// Classes (top-level or split) whose bound was computed.
    pub bounds: u64,
    /// Trie steps taken while computing bounds.
    pub bound_steps: u64,
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
    neighbours: Vec<Vec<usize>>,
    /// Cells in the order they are split: centre outwards.
    order: Vec<usize>,
    buckets: Vec<u32>,
}

/// The symmetries of the board, as cell permutations (`p[i]` is where cell `i` goes).
fn symmetries(size: Size) -> Vec<Vec<usize>> {
    let (w, h) = (size.width, size.height);
    let mut out = Vec::new();
    // Each of (transpose, flip rows, flip columns); transposes only map a
    // square onto itself.
    for t in 0..8u8 {
        let (transpose, flip_r, flip_c) = (t & 4 != 0, t & 2 != 0, t & 1 != 0);
        if transpose && w != h {
            continue;
        }
        let p = (0..w * h)
            .map(|i| {
                let (mut r, mut c) = (i / w, i % w);
                if transpose {
                    (r, c) = (c, r);
                }
                if flip_r {
                    r = h - 1 - r;
                }
                if flip_c {
                    c = w - 1 - c;
                }
                r * w + c
            })
            .collect();
        out.push(p);
    }
    out
}

impl<'t> Prover<'t> {
    /// A prover using `buckets` (letter masks) for its top-level classes.
    pub fn new(trie: &'t Trie, size: Size, scoring: Scoring, buckets: Vec<u32>) -> Self {
        let n = size.cells();
        let neighbours = (0..n)
            .map(|i| Board::neighbours(size, i).collect())
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
        Prover {
            trie,
            size,
            scoring,
            points: scoring.table(size),
            neighbours,
            order,
            buckets,
        }
    }

    /// Number of top-level classes before symmetry.
    pub fn raw_classes(&self) -> u64 {
        (self.buckets.len() as u64).saturating_pow(self.size.cells() as u32)
    }

    /// The bucket assignment numbered `k` (base `buckets.len()` digits, cell 0 lowest).
    fn assignment(&self, mut k: u64) -> Vec<u8> {
        let b = self.buckets.len() as u64;
        (0..self.size.cells())
            .map(|_| {
                let d = (k % b) as u8;
                k /= b;
                d
            })
            .collect()
    }

    /// Whether assignment `k` is the least of its symmetric images (the one searched).
    pub fn is_canonical(&self, k: u64, syms: &[Vec<usize>]) -> bool {
        let a = self.assignment(k);
        let b = self.buckets.len() as u64;
        syms.iter().all(|p| {
            let mut img = vec![0u8; a.len()];
            for (i, &d) in a.iter().enumerate() {
                img[p[i]] = d;
            }
            let v = img.iter().rev().fold(0u64, |acc, &d| acc * b + d as u64);
            v >= k
        })
    }

    /// The upper bound on every board of the class `masks` (see the module docs).
    pub fn bound(&self, masks: &[u32], steps: &mut u64) -> u32 {
        let mut total = 0;
        for cell in 0..masks.len() {
            let mut best = 0;
            for l in letters(masks[cell]) {
                if let Some(child) = self.trie.child(0, l) {
                    let v = self.walk(masks, cell, child, step_len(l), 1u64 << cell, steps);
                    best = best.max(v);
                }
            }
            total += best;
        }
        total
    }

    fn walk(
        &self,
        masks: &[u32],
        cell: usize,
        node: u32,
        len: usize,
        used: u64,
        steps: &mut u64,
    ) -> u32 {
        *steps += 1;
        let n = self.trie.nodes[node as usize];
        let mut sum = if n.mask & WORD != 0 {
            self.points[len]
        } else {
            0
        };
        if n.mask & !WORD == 0 {
            return sum;
        }
        for &nb in &self.neighbours[cell] {
            if used & (1u64 << nb) != 0 {
                continue;
            }
            let mut best = 0;
            for l in letters(masks[nb] & n.mask) {
                let child = n.base + (n.mask & ((1u32 << l) - 1)).count_ones();
                let v = self.walk(
                    masks,
                    nb,
                    child,
                    len + step_len(l),
                    used | (1u64 << nb),
                    steps,
                );
                best = best.max(v);
            }
            sum += best;
        }
        sum
    }

    /// Every board of the class `masks` scoring at least `above`, appended to `found`.
    pub fn break_class(
        &self,
        masks: &mut [u32],
        above: u32,
        solver: &mut Solver,
        stats: &mut ProofStats,
        found: &mut Vec<Found>,
    ) {
        let Some(&cell) = self.order.iter().find(|&&c| masks[c].count_ones() > 1) else {
            stats.boards_scored += 1;
            let board = Board::from_cells(
                self.size,
                masks.iter().map(|m| m.trailing_zeros() as u8).collect(),
            );
            let score = solver.score(&board).score;
            if score >= above {
                found.push(Found {
                    board: board.letters(),
                    score,
                });
            }
            return;
        };
        stats.bounds += 1;
        if self.bound(masks, &mut stats.bound_steps) < above {
            return;
        }
        let whole = masks[cell];
        for l in letters(whole) {
            masks[cell] = 1 << l;
            self.break_class(masks, above, solver, stats, found);
        }
        masks[cell] = whole;
    }

    /// Breaks top-level class `k` (an assignment number).
    pub fn break_assignment(
        &self,
        k: u64,
        above: u32,
        solver: &mut Solver,
        stats: &mut ProofStats,
        found: &mut Vec<Found>,
    ) {
        let mut masks: Vec<u32> = self
            .assignment(k)
            .iter()
            .map(|&d| self.buckets[d as usize])
            .collect();
        self.break_class(&mut masks, above, solver, stats, found);
    }

    /// Runs the whole proof on `threads` threads: every board (up to
    /// symmetry) scoring at least `above`, best first, with the statistics.
    /// `skip(k)` says a class was finished before (a checkpoint); `done(k)`
    /// is called as each class finishes, with the boards it found. `stop`
    /// ends the search early (the result is then incomplete).
    pub fn prove(
        &self,
        above: u32,
        threads: usize,
        skip: &(dyn Fn(u64) -> bool + Sync),
        done: &(dyn Fn(u64, &[Found]) + Sync),
        stop: &AtomicBool,
    ) -> (Vec<Found>, ProofStats) {
        let syms = symmetries(self.size);
        let total = self.raw_classes();
        let next = AtomicU64::new(0);
        let classes = AtomicUsize::new(0);
        let all = Mutex::new((Vec::new(), ProofStats::default()));
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| {
                    let mut solver = Solver::new(self.trie, self.scoring);
                    let mut stats = ProofStats::default();
                    let mut mine = Vec::new();
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= total {
                            break;
                        }
                        if !self.is_canonical(k, &syms) {
                            continue;
                        }
                        classes.fetch_add(1, Ordering::Relaxed);
                        if skip(k) {
                            continue;
                        }
                        let mut here = Vec::new();
                        self.break_assignment(k, above, &mut solver, &mut stats, &mut here);
                        let here = self.canonical(here, &syms);
                        done(k, &here);
                        mine.extend(here);
                    }
                    let mut g = all.lock().unwrap();
                    g.0.extend(mine);
                    g.1.bounds += stats.bounds;
                    g.1.bound_steps += stats.bound_steps;
                    g.1.boards_scored += stats.boards_scored;
                });
            }
        });
        let (found, mut stats) = all.into_inner().unwrap();
        stats.classes = classes.load(Ordering::Relaxed) as u64;
        let mut found = self.canonical(found, &syms);
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

    /// The number of top-level classes after symmetry (for progress bars).
    pub fn canonical_classes(&self) -> u64 {
        let syms = symmetries(self.size);
        (0..self.raw_classes())
            .filter(|&k| self.is_canonical(k, &syms))
            .count() as u64
    }
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
            let mut steps = 0;
            // Every class over the two buckets, plus the class of everything.
            for k in 0..p.raw_classes() {
                let masks: Vec<u32> = p
                    .assignment(k)
                    .iter()
                    .map(|&d| p.buckets[d as usize])
                    .collect();
                let bound = p.bound(&masks, &mut steps);
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
            let bound = p.bound(&everything, &mut steps);
            assert!(boards.iter().all(|(_, s)| bound >= *s));
        }
    }

    #[test]
    fn proof_finds_exactly_the_brute_force_boards() {
        let trie = Trie::new(WORDS);
        for (w, h, alphabet, buckets) in [
            (2, 2, "aest", "ae,st"),
            (3, 2, "aest", "ae,s,t"),
            (2, 3, "aestr", "aes,tr"),
        ] {
            let size = Size::new(w, h).unwrap();
            let a: Vec<u8> = alphabet.bytes().map(|c| c - b'a').collect();
            let boards = brute(&trie, size, &a);
            let best = boards.iter().map(|b| b.1).max().unwrap();
            let p = Prover::new(
                &trie,
                size,
                Scoring::Boggle,
                parse_buckets(buckets).unwrap(),
            );
            for above in [best, best.saturating_sub(2).max(1)] {
                let (found, stats) =
                    p.prove(above, 2, &|_| false, &|_, _| {}, &AtomicBool::new(false));
                assert!(stats.classes > 0 && stats.classes <= p.raw_classes());
                // The proof keeps one board of each symmetric set; compare
                // the sets of canonical forms.
                let syms = symmetries(size);
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
