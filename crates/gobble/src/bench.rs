//! Scoring many boards: the `gobble bench` workload, single or multi-threaded.

use crate::board::{Board, Size};
use crate::dice::{uniform_board, DiceSet};
use crate::rng::SeedRandom;
use crate::scoring::Scoring;
use crate::solver::{Solver, WalkKind};
use crate::trie::Trie;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How random benchmark boards are drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dist {
    /// Each cell an independent uniform letter `a`–`z` (`q` = Qu).
    Uniform,
    /// Rolled from a dice set (shuffle, then one face per die).
    Dice(DiceSet),
}

/// `n` random boards: one [`SeedRandom`] seeded with `seed`, drawing the boards
/// one after another (uniform: `floor(rng() * 26)` per cell; dice: the board
/// algorithm of [`DiceSet::roll`]).
pub fn random_boards(n: usize, seed: &str, dist: &Dist, size: Size) -> Vec<Board> {
    let mut rng = SeedRandom::new(seed);
    (0..n)
        .map(|_| match dist {
            Dist::Uniform => uniform_board(size, &mut rng),
            Dist::Dice(set) => set.roll(&mut rng),
        })
        .collect()
}

/// The result of scoring a batch of boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BenchReport {
    /// Boards scored.
    pub boards: u64,
    /// Sum of the boards' scores (the checksum).
    pub score_sum: u64,
    /// Sum of the boards' word counts.
    pub word_sum: u64,
    /// Wall time of the scoring alone.
    #[serde(serialize_with = "secs")]
    pub elapsed: Duration,
    /// Threads used.
    pub threads: usize,
    /// The walk that scored them.
    pub walk: WalkKind,
}

fn secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl BenchReport {
    /// Boards per second.
    pub fn rate(&self) -> f64 {
        self.boards as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Scores every board with `threads` threads (at least 1) and `walk` (the
/// plain walk if this processor cannot run it), timing the scoring only.
/// Threads take batches of 1,024 boards from a shared counter, so a thread
/// slowed by other work on the machine does not hold the others.
pub fn score_boards(
    trie: &Trie,
    scoring: Scoring,
    boards: &[Board],
    threads: usize,
    walk: WalkKind,
) -> BenchReport {
    let walk = if walk.runs_here() {
        walk
    } else {
        WalkKind::Plain
    };
    let solver = || {
        Solver::new(trie, scoring)
            .with_walk(walk)
            .expect("a walk that runs here")
    };
    const BATCH: usize = 1024;
    let threads = threads.max(1).min(boards.len().div_ceil(BATCH).max(1));
    let start = Instant::now();
    let (score_sum, word_sum) = if threads == 1 {
        sum_chunk(solver(), boards)
    } else {
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    s.spawn(|| {
                        let mut solver = solver();
                        let mut sums = (0u64, 0u64);
                        loop {
                            let k = next.fetch_add(1, Ordering::Relaxed) * BATCH;
                            if k >= boards.len() {
                                break sums;
                            }
                            for b in &boards[k..(k + BATCH).min(boards.len())] {
                                let t = solver.score(b);
                                sums.0 += u64::from(t.score);
                                sums.1 += u64::from(t.count);
                            }
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("bench thread"))
                .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
        })
    };
    BenchReport {
        boards: boards.len() as u64,
        score_sum,
        word_sum,
        elapsed: start.elapsed(),
        threads,
        walk,
    }
}

fn sum_chunk(mut solver: Solver, boards: &[Board]) -> (u64, u64) {
    let mut s = 0u64;
    let mut w = 0u64;
    for b in boards {
        let t = solver.score(b);
        s += u64::from(t.score);
        w += u64::from(t.count);
    }
    (s, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_agree_with_one_thread() {
        let trie = Trie::new([
            "tea", "eat", "ate", "sat", "seat", "east", "teas", "rate", "tear", "star", "rats",
        ]);
        let boards = random_boards(5000, "x", &Dist::Uniform, Size::square(3));
        let one = score_boards(&trie, Scoring::Boggle, &boards, 1, WalkKind::best_here());
        let four = score_boards(&trie, Scoring::Boggle, &boards, 4, WalkKind::best_here());
        assert_eq!(
            (one.score_sum, one.word_sum),
            (four.score_sum, four.word_sum)
        );
        assert!(one.score_sum > 0);
        assert_eq!(four.threads, 4);
        assert_eq!(one.boards, 5000);
    }
}
