//! Searching for the highest-scoring board: simulated annealing with
//! restarts, each run finished by hill climbing, on several threads.
//!
//! A run starts from a board of random letters (drawn with the
//! [`LETTER_WEIGHTS`]), then for `iterations` steps proposes a move — change
//! one cell's letter, or swap two cells — and accepts it if it does not
//! lower the score, or else with probability `exp(Δ / T)`; the temperature
//! `T` falls geometrically from `t_start` to `t_end`. The run ends with a
//! hill climb: every single-cell change and every swap is tried, the best
//! improvement taken, until none improves. Threads run independent runs
//! and share the best board found.

use crate::board::{Board, Size};
use crate::scoring::Scoring;
use crate::solver::Solver;
use crate::trie::Trie;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Relative weights of the letters `a`..`z` when drawing random letters
/// (roughly the letter frequencies of the classic dice; `q` = Qu is rare).
pub const LETTER_WEIGHTS: [u32; 26] = [
    12, 3, 4, 5, 16, 2, 3, 4, 10, 1, 1, 7, 3, 9, 9, 3, 1, 9, 10, 10, 4, 2, 2, 1, 2, 1,
];

/// Parameters of the search.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Board size.
    pub size: Size,
    /// Scoring rule to maximise.
    pub scoring: Scoring,
    /// Wall-time budget.
    pub time: Duration,
    /// Seed of the first thread (thread `k` uses `seed + k`).
    pub seed: u64,
    /// Threads (at least 1).
    pub threads: usize,
    /// Stop as soon as a board scores at least this much.
    pub target: Option<u32>,
    /// Annealing steps per run.
    pub iterations: u32,
    /// Starting temperature.
    pub t_start: f64,
    /// Final temperature.
    pub t_end: f64,
}

impl SearchConfig {
    /// Defaults tuned for 4x4 boards: 40,000 steps a run, T from 60 to 1.
    pub fn new(size: Size, scoring: Scoring, time: Duration, seed: u64, threads: usize) -> Self {
        SearchConfig {
            size,
            scoring,
            time,
            seed,
            threads: threads.max(1),
            target: None,
            iterations: 40_000,
            t_start: 60.0,
            t_end: 1.0,
        }
    }
}

/// The best board found so far, and how the search went.
#[derive(Clone, Debug)]
pub struct SearchStatus {
    /// Best board.
    pub board: Board,
    /// Its score.
    pub score: u32,
    /// Its number of words.
    pub words: u32,
    /// When it was first reached, from the start.
    pub found_after: Duration,
    /// Boards scored so far, all threads.
    pub evaluations: u64,
    /// Annealing runs finished so far, all threads.
    pub runs: u64,
    /// Time since the start.
    pub elapsed: Duration,
}

struct Shared {
    best: Mutex<Option<SearchStatus>>,
    evaluations: AtomicU64,
    runs: AtomicU64,
    stop: AtomicBool,
    start: Instant,
}

/// Runs the search until its time is up, the target is reached, or `cancel`
/// is set; `report` is called (from any thread) with each new best board and
/// about every 100 ms from the first thread with the current status.
pub fn search(
    trie: &Trie,
    config: &SearchConfig,
    cancel: &AtomicBool,
    report: &(dyn Fn(&SearchStatus) + Sync),
) -> SearchStatus {
    let shared = Shared {
        best: Mutex::new(None),
        evaluations: AtomicU64::new(0),
        runs: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        start: Instant::now(),
    };
    std::thread::scope(|s| {
        for k in 0..config.threads.max(1) {
            let shared = &shared;
            s.spawn(move || worker(trie, config, k, shared, cancel, report));
        }
    });
    let mut best = shared
        .best
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .expect("at least one board scored");
    best.evaluations = shared.evaluations.load(Ordering::Relaxed);
    best.runs = shared.runs.load(Ordering::Relaxed);
    best.elapsed = shared.start.elapsed();
    best
}

fn random_letter(rng: &mut ChaCha8Rng) -> u8 {
    let total: u32 = LETTER_WEIGHTS.iter().sum();
    let mut x = rng.gen_range(0..total);
    for (l, &w) in LETTER_WEIGHTS.iter().enumerate() {
        if x < w {
            return l as u8;
        }
        x -= w;
    }
    4
}

fn worker(
    trie: &Trie,
    config: &SearchConfig,
    k: usize,
    shared: &Shared,
    cancel: &AtomicBool,
    report: &(dyn Fn(&SearchStatus) + Sync),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed.wrapping_add(k as u64));
    let mut solver = Solver::new(trie, config.scoring);
    let n = config.size.cells();
    let deadline = shared.start + config.time;
    let mut evals: u64 = 0;
    let mut last_report = Instant::now();
    let done = |evals: &mut u64| {
        shared
            .evaluations
            .fetch_add(std::mem::take(evals), Ordering::Relaxed);
        shared.stop.load(Ordering::Relaxed)
            || cancel.load(Ordering::Relaxed)
            || Instant::now() >= deadline
    };
    let offer = |board: &Board, score: u32, words: u32| {
        let mut best = shared.best.lock().unwrap_or_else(|e| e.into_inner());
        if !matches!(best.as_ref(), Some(b) if score <= b.score) {
            let status = SearchStatus {
                board: board.clone(),
                score,
                words,
                found_after: shared.start.elapsed(),
                evaluations: shared.evaluations.load(Ordering::Relaxed),
                runs: shared.runs.load(Ordering::Relaxed),
                elapsed: shared.start.elapsed(),
            };
            *best = Some(status.clone());
            drop(best);
            report(&status);
            if config.target.is_some_and(|t| score >= t) {
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
    };
    let decay = (config.t_end / config.t_start).powf(1.0 / f64::from(config.iterations.max(1)));
    'runs: loop {
        let mut board = Board::from_cells(
            config.size,
            (0..n).map(|_| random_letter(&mut rng)).collect(),
        );
        let mut cur = solver.score(&board);
        evals += 1;
        let mut run_best = cur.score;
        offer(&board, cur.score, cur.count);
        let mut t = config.t_start;
        for step in 0..config.iterations {
            if step % 1024 == 0 {
                if done(&mut evals) {
                    break 'runs;
                }
                if k == 0 && last_report.elapsed() >= Duration::from_millis(100) {
                    last_report = Instant::now();
                    if let Some(mut st) = shared
                        .best
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .clone()
                    {
                        st.evaluations = shared.evaluations.load(Ordering::Relaxed);
                        st.runs = shared.runs.load(Ordering::Relaxed);
                        st.elapsed = shared.start.elapsed();
                        report(&st);
                    }
                }
            }
            let mut next = board.clone();
            if rng.gen_bool(0.5) {
                let c = rng.gen_range(0..n);
                let mut l = random_letter(&mut rng);
                while l == next.cells()[c] {
                    l = random_letter(&mut rng);
                }
                next.set(c, l);
            } else {
                let a = rng.gen_range(0..n);
                let b = rng.gen_range(0..n);
                let (la, lb) = (next.cells()[a], next.cells()[b]);
                if la == lb {
                    continue;
                }
                next.set(a, lb);
                next.set(b, la);
            }
            let s = solver.score(&next);
            evals += 1;
            let delta = f64::from(s.score) - f64::from(cur.score);
            if delta >= 0.0 || rng.gen::<f64>() < (delta / t).exp() {
                board = next;
                cur = s;
                if cur.score > run_best {
                    run_best = cur.score;
                    offer(&board, cur.score, cur.count);
                }
            }
            t *= decay;
        }
        // Hill climb to a local maximum.
        loop {
            let mut best_move: Option<(Board, crate::solver::Tally)> = None;
            let mut consider = |cand: Board, solver: &mut Solver<'_>, evals: &mut u64| {
                let s = solver.score(&cand);
                *evals += 1;
                let bar = best_move.as_ref().map_or(cur.score, |b| b.1.score);
                if s.score > bar {
                    best_move = Some((cand, s));
                }
            };
            for c in 0..n {
                for l in 0..26u8 {
                    if l != board.cells()[c] {
                        let mut cand = board.clone();
                        cand.set(c, l);
                        consider(cand, &mut solver, &mut evals);
                    }
                }
            }
            for a in 0..n {
                for b in a + 1..n {
                    if board.cells()[a] != board.cells()[b] {
                        let mut cand = board.clone();
                        let (la, lb) = (cand.cells()[a], cand.cells()[b]);
                        cand.set(a, lb);
                        cand.set(b, la);
                        consider(cand, &mut solver, &mut evals);
                    }
                }
            }
            match best_move {
                Some((b, s)) => {
                    board = b;
                    cur = s;
                }
                None => break,
            }
            if done(&mut evals) {
                break;
            }
        }
        offer(&board, cur.score, cur.count);
        shared.runs.fetch_add(1, Ordering::Relaxed);
    }
    let _ = done(&mut evals);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_only_word_board() {
        let trie = Trie::new(["cat", "cats", "act", "acts", "scat", "tacs"]);
        let mut cfg = SearchConfig::new(
            Size::square(2),
            Scoring::Gobble,
            Duration::from_secs(5),
            1,
            2,
        );
        cfg.iterations = 500;
        cfg.target = Some(2 + 2 + 1 + 1 + 2 + 2);
        let st = search(&trie, &cfg, &AtomicBool::new(false), &|_| {});
        assert_eq!(st.score, 10, "{:?}", st.board);
    }
}
