//! Scoring many boards: the `gobble bench` workload, single or multi-threaded.

use crate::board::{Board, Size};
use crate::dice::{uniform_board, DiceSet};
use crate::rng::SeedRandom;
use crate::scoring::Scoring;
use crate::solver::Solver;
use crate::trie::Trie;
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

/// Scores every board with `threads` threads (at least 1; boards are split
/// into contiguous chunks), timing the scoring only.
pub fn score_boards(
    trie: &Trie,
    scoring: Scoring,
    boards: &[Board],
    threads: usize,
) -> BenchReport {
    let threads = threads.max(1).min(boards.len().max(1));
    let start = Instant::now();
    let (score_sum, word_sum) = if threads == 1 {
        sum_chunk(trie, scoring, boards)
    } else {
        let chunk = boards.len().div_ceil(threads);
        std::thread::scope(|s| {
            let handles: Vec<_> = boards
                .chunks(chunk)
                .map(|c| s.spawn(move || sum_chunk(trie, scoring, c)))
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
    }
}

fn sum_chunk(trie: &Trie, scoring: Scoring, boards: &[Board]) -> (u64, u64) {
    let mut solver = Solver::new(trie, scoring);
    let mut s = 0u64;
    let mut w = 0u64;
    for b in boards {
        let t = solver.score(b);
        s += u64::from(t.score);
        w += u64::from(t.count);
    }
    (s, w)
}
