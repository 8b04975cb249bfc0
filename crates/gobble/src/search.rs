//! Searching for the highest-scoring board: iterated local search from
//! random letters, with an elite pool of the best local maxima, on several
//! threads (optionally with simulated annealing in each run).
//!
//! A *run* takes one board to a local maximum by hill climbing: each cell
//! in turn takes its best letter — all 26 scored in one walk of the board
//! ([`Solver::score_letters`], a few boards' cost instead of 25) — until
//! no cell improves; then the first improving swap of two cells is taken
//! and the cells are tried again, until neither a letter nor a swap
//! improves.
//!
//! Runs start in two ways. A *fresh* run starts from random letters (drawn
//! with the [`LETTER_WEIGHTS`]). Once the elite pool is full, a share of
//! the runs (`elite_share`) instead starts from one of its boards with
//! `kick` random moves applied (a new letter for a cell, or a swap): the
//! best boards of a basin lie a few moves apart, separated by lower
//! ground that a climb cannot cross, and a kicked restart crosses it for
//! the cost of one climb, while the fresh runs keep finding new basins.
//! The pool keeps the best distinct local maxima (boards equal under a
//! rotation or reflection count once), shared by every thread.
//!
//! Before its climb a run may anneal (`iterations` steps for a fresh run,
//! `elite_iterations` for a restart; none by default): propose a random
//! move, accept it if it does not lower the score or else with
//! probability `exp(Δ / T)`, `T` falling geometrically to `t_end`.
//! Measured on 4x4 and 5x5 boards, the plain restarts reached the best
//! boards sooner for the same number of boards scored.
//!
//! Nothing in the search knows any particular board: every run begins from
//! random letters or from a board an earlier run found.

use crate::board::{Board, Size};
use crate::scoring::Scoring;
use crate::solver::{Solver, Tally};
use crate::trie::Trie;
use rand::seq::SliceRandom;
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
    /// Stop after this many runs (all threads). With one thread and no
    /// time limit reached, the search is then reproducible from its seed.
    pub max_runs: Option<u64>,
    /// Annealing steps of a fresh run.
    pub iterations: u32,
    /// Starting temperature of a fresh run.
    pub t_start: f64,
    /// Final temperature of every run.
    pub t_end: f64,
    /// Local maxima that runs restart from: the best `elite` found (0:
    /// every run is fresh).
    pub elite: usize,
    /// Best distinct local maxima kept for [`SearchStatus::elite`] (the
    /// pool holds the larger of this and `elite`).
    pub keep: usize,
    /// Share of the runs that start from an elite board, once the pool
    /// is full.
    pub elite_share: f64,
    /// Random moves applied to an elite board before its run.
    pub kick: u32,
    /// Starting temperature of a run from an elite board.
    pub reheat: f64,
    /// Annealing steps of a run from an elite board.
    pub elite_iterations: u32,
}

impl SearchConfig {
    /// Defaults for `size`, measured on 4x4 and 5x5 boards with ENABLE2K
    /// (see `docs/rules/gobble.md`): fresh runs climb straight from random
    /// letters (no annealing: the climb's sweeps of every letter at each
    /// cell are cheap enough that restarting often wins), and four in five
    /// runs restart from one of the 8 best local maxima with about one
    /// cell in six changed. The annealing temperatures apply when
    /// `iterations` or `elite_iterations` is set above 0.
    pub fn new(size: Size, scoring: Scoring, time: Duration, seed: u64, threads: usize) -> Self {
        let cells = size.cells() as u32;
        let scale = f64::from(cells) / 16.0;
        SearchConfig {
            size,
            scoring,
            time,
            seed,
            threads: threads.max(1),
            target: None,
            max_runs: None,
            iterations: 0,
            t_start: 60.0 * scale,
            t_end: 1.0,
            elite: 8,
            keep: 1,
            elite_share: 0.8,
            kick: (cells / 6).max(2),
            reheat: 15.0 * scale,
            elite_iterations: 0,
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
    /// Runs finished so far, all threads.
    pub runs: u64,
    /// Time since the start.
    pub elapsed: Duration,
    /// The elite pool: the best distinct local maxima, best first, with
    /// their scores.
    pub elite: Vec<(Board, u32)>,
}

/// One board of the elite pool.
struct Elite {
    board: Board,
    /// The board's form under rotations and reflections, to tell copies.
    key: Vec<u8>,
    score: u32,
}

struct Shared {
    best: Mutex<Option<SearchStatus>>,
    /// The best score so far, readable without the lock.
    best_score: AtomicU64,
    elite: Mutex<Vec<Elite>>,
    evaluations: AtomicU64,
    runs: AtomicU64,
    started_runs: AtomicU64,
    stop: AtomicBool,
    start: Instant,
}

/// Runs the search until its time is up, the target or the run limit is
/// reached, or `cancel` is set; `report` is called (from any thread) with
/// each new best board and about every 100 ms from the first thread with
/// the current status.
pub fn search(
    trie: &Trie,
    config: &SearchConfig,
    cancel: &AtomicBool,
    report: &(dyn Fn(&SearchStatus) + Sync),
) -> SearchStatus {
    let shared = Shared {
        best: Mutex::new(None),
        best_score: AtomicU64::new(0),
        elite: Mutex::new(Vec::new()),
        evaluations: AtomicU64::new(0),
        runs: AtomicU64::new(0),
        started_runs: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        start: Instant::now(),
    };
    std::thread::scope(|s| {
        for k in 0..config.threads.max(1) {
            let shared = &shared;
            s.spawn(move || Worker::new(trie, config, k, shared, cancel, report).work());
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
    best.elite = shared
        .elite
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|e| (e.board, e.score))
        .collect();
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

/// The least of the board's forms under its symmetries: equal for boards
/// that are rotations or reflections of each other (and score the same).
fn symmetric_key(board: &Board, maps: &[Vec<usize>]) -> Vec<u8> {
    let cells = board.cells();
    maps.iter()
        .map(|m| m.iter().map(|&i| cells[i]).collect::<Vec<u8>>())
        .min()
        .unwrap_or_else(|| cells.to_vec())
}

/// One thread's state.
struct Worker<'a, 't> {
    config: &'a SearchConfig,
    k: usize,
    shared: &'a Shared,
    cancel: &'a AtomicBool,
    report: &'a (dyn Fn(&SearchStatus) + Sync),
    rng: ChaCha8Rng,
    solver: Solver<'t>,
    symmetries: Vec<Vec<usize>>,
    deadline: Instant,
    /// Boards scored and not yet added to the shared count.
    evals: u64,
    last_report: Instant,
    stopped: bool,
}

impl<'a, 't> Worker<'a, 't> {
    fn new(
        trie: &'t Trie,
        config: &'a SearchConfig,
        k: usize,
        shared: &'a Shared,
        cancel: &'a AtomicBool,
        report: &'a (dyn Fn(&SearchStatus) + Sync),
    ) -> Self {
        Worker {
            config,
            k,
            shared,
            cancel,
            report,
            rng: ChaCha8Rng::seed_from_u64(config.seed.wrapping_add(k as u64)),
            solver: Solver::new(trie, config.scoring),
            symmetries: config.size.symmetries(),
            deadline: shared.start + config.time,
            evals: 0,
            last_report: Instant::now(),
            stopped: false,
        }
    }

    fn score(&mut self, board: &Board) -> Tally {
        self.evals += 1;
        self.solver.score(board)
    }

    /// Whether to stop, checked every so often; adds this thread's count
    /// of boards to the shared one, and has the first thread report.
    fn done(&mut self) -> bool {
        let shared = self.shared;
        shared
            .evaluations
            .fetch_add(std::mem::take(&mut self.evals), Ordering::Relaxed);
        if self.k == 0 && self.last_report.elapsed() >= Duration::from_millis(100) {
            self.last_report = Instant::now();
            let status = shared
                .best
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
            if let Some(mut st) = status {
                st.evaluations = shared.evaluations.load(Ordering::Relaxed);
                st.runs = shared.runs.load(Ordering::Relaxed);
                st.elapsed = shared.start.elapsed();
                (self.report)(&st);
            }
        }
        self.stopped = self.stopped
            || shared.stop.load(Ordering::Relaxed)
            || self.cancel.load(Ordering::Relaxed)
            || Instant::now() >= self.deadline;
        self.stopped
    }

    /// Offers a board as the best so far.
    fn offer(&self, board: &Board, tally: Tally) {
        let shared = self.shared;
        let mut best = shared.best.lock().unwrap_or_else(|e| e.into_inner());
        if matches!(best.as_ref(), Some(b) if tally.score <= b.score) {
            return;
        }
        let status = SearchStatus {
            board: board.clone(),
            score: tally.score,
            words: tally.count,
            found_after: shared.start.elapsed(),
            evaluations: shared.evaluations.load(Ordering::Relaxed),
            runs: shared.runs.load(Ordering::Relaxed),
            elapsed: shared.start.elapsed(),
            elite: Vec::new(),
        };
        *best = Some(status.clone());
        shared
            .best_score
            .store(u64::from(tally.score), Ordering::Relaxed);
        drop(best);
        (self.report)(&status);
        if self.config.target.is_some_and(|t| tally.score >= t) {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Adds a local maximum to the elite pool, unless a symmetric copy is
    /// there or the pool is full of better boards.
    fn offer_elite(&self, board: &Board, score: u32) {
        let cap = self.config.elite.max(self.config.keep);
        if cap == 0 {
            return;
        }
        let key = symmetric_key(board, &self.symmetries);
        let mut pool = self.shared.elite.lock().unwrap_or_else(|e| e.into_inner());
        if pool.iter().any(|e| e.key == key) {
            return;
        }
        if pool.len() >= cap && pool.last().is_some_and(|e| e.score >= score) {
            return;
        }
        let at = pool.partition_point(|e| e.score >= score);
        pool.insert(
            at,
            Elite {
                board: board.clone(),
                key,
                score,
            },
        );
        pool.truncate(cap);
    }

    /// An elite board to start a run from, if this run should.
    fn pick_elite(&mut self) -> Option<Board> {
        let cfg = self.config;
        if cfg.elite == 0 || !self.rng.gen_bool(cfg.elite_share.clamp(0.0, 1.0)) {
            return None;
        }
        let pool = self.shared.elite.lock().unwrap_or_else(|e| e.into_inner());
        // Only once the pool is full: the first boards found are no better
        // than a fresh run's start.
        if pool.len() < cfg.elite {
            return None;
        }
        let i = self.rng.gen_range(0..cfg.elite);
        Some(pool[i].board.clone())
    }

    /// A random move: a new letter for one cell, or two cells swapped.
    fn mutate(&mut self, board: &mut Board) {
        let n = board.cells().len();
        loop {
            if n < 2 || self.rng.gen_bool(0.5) {
                let c = self.rng.gen_range(0..n);
                let l = random_letter(&mut self.rng);
                if l != board.cells()[c] {
                    board.set(c, l);
                    return;
                }
            } else {
                let a = self.rng.gen_range(0..n);
                let b = self.rng.gen_range(0..n);
                let (la, lb) = (board.cells()[a], board.cells()[b]);
                if la != lb {
                    board.set(a, lb);
                    board.set(b, la);
                    return;
                }
            }
        }
    }

    fn work(mut self) {
        let cfg = self.config;
        let n = cfg.size.cells();
        loop {
            if self.done() {
                break;
            }
            let runs = &self.shared.started_runs;
            if cfg
                .max_runs
                .is_some_and(|m| runs.fetch_add(1, Ordering::Relaxed) >= m)
            {
                break;
            }
            let (board, t_start, iterations) = match self.pick_elite() {
                Some(mut board) => {
                    for _ in 0..cfg.kick {
                        self.mutate(&mut board);
                    }
                    (board, cfg.reheat, cfg.elite_iterations)
                }
                None => {
                    let cells = (0..n).map(|_| random_letter(&mut self.rng)).collect();
                    (
                        Board::from_cells(cfg.size, cells),
                        cfg.t_start,
                        cfg.iterations,
                    )
                }
            };
            let Some((board, tally)) = self.anneal(board, t_start, iterations) else {
                break;
            };
            let Some((board, tally)) = self.climb(board, tally) else {
                break;
            };
            self.offer(&board, tally);
            self.offer_elite(&board, tally.score);
            self.shared.runs.fetch_add(1, Ordering::Relaxed);
        }
        self.done();
    }

    /// Anneals `board` from `t_start` to the final temperature; `None` if
    /// the search stopped meanwhile (its best board is offered anyway).
    fn anneal(
        &mut self,
        mut board: Board,
        t_start: f64,
        iterations: u32,
    ) -> Option<(Board, Tally)> {
        let t_end = self.config.t_end.min(t_start);
        let decay = (t_end / t_start).powf(1.0 / f64::from(iterations.max(1)));
        let mut cur = self.score(&board);
        let mut best = (board.clone(), cur);
        let best_score = &self.shared.best_score;
        if u64::from(cur.score) > best_score.load(Ordering::Relaxed) {
            self.offer(&board, cur);
        }
        let mut t = t_start;
        let mut next = board.clone();
        for step in 0..iterations {
            if step % 256 == 0 && self.done() {
                self.offer(&best.0, best.1);
                return None;
            }
            next.clone_from(&board);
            self.mutate(&mut next);
            let s = self.score(&next);
            let delta = f64::from(s.score) - f64::from(cur.score);
            if delta >= 0.0 || self.rng.gen::<f64>() < (delta / t).exp() {
                std::mem::swap(&mut board, &mut next);
                cur = s;
                if cur.score > best.1.score {
                    best = (board.clone(), cur);
                    // Shown as soon as found, for the progress line.
                    if u64::from(cur.score) > best_score.load(Ordering::Relaxed) {
                        self.offer(&board, cur);
                    }
                }
            }
            t *= decay;
        }
        // The run's best board, not where the walk ended: at the last,
        // cold steps they are close, and the best is the better start for
        // the climb.
        Some(best)
    }

    /// Hill-climbs to a local maximum: each cell in turn (in a random
    /// order) takes its best letter, all 26 scored in one walk
    /// ([`Solver::score_letters`]), until no cell improves; then the first
    /// improving swap, if any, is taken and the cells tried again. `None`
    /// if the search stopped meanwhile (its best board is offered anyway).
    fn climb(&mut self, mut board: Board, mut cur: Tally) -> Option<(Board, Tally)> {
        let n = board.cells().len();
        let mut order: Vec<usize> = (0..n).collect();
        let mut pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect();
        loop {
            // Letters: sweep until a whole sweep changes nothing.
            let mut still = 0;
            while still < n {
                order.shuffle(&mut self.rng);
                for &c in &order {
                    if self.done() {
                        self.offer(&board, cur);
                        return None;
                    }
                    let all = self.solver.score_letters(&board, c);
                    self.evals += 26;
                    let (l, s) = (0..26u8)
                        .map(|l| (l, all[usize::from(l)]))
                        .max_by_key(|&(l, s)| (s.score, l == board.cells()[c]))
                        .expect("26 letters");
                    if s.score > cur.score {
                        board.set(c, l);
                        cur = s;
                        still = 0;
                    } else {
                        still += 1;
                        if still >= n {
                            break;
                        }
                    }
                }
            }
            // Swaps: the first that improves.
            pairs.shuffle(&mut self.rng);
            let mut improved = false;
            let mut cand = board.clone();
            for (i, &(a, b)) in pairs.iter().enumerate() {
                let (la, lb) = (board.cells()[a], board.cells()[b]);
                if la == lb {
                    continue;
                }
                if i % 64 == 0 && self.done() {
                    self.offer(&board, cur);
                    return None;
                }
                cand.set(a, lb);
                cand.set(b, la);
                let s = self.score(&cand);
                if s.score > cur.score {
                    board = cand;
                    cur = s;
                    improved = true;
                    break;
                }
                cand.set(a, la);
                cand.set(b, lb);
            }
            if !improved {
                return Some((board, cur));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet() -> impl Fn(&SearchStatus) + Sync {
        |_: &SearchStatus| {}
    }

    /// A search that stops by its run count, on one thread: repeatable.
    fn by_runs(size: Size, scoring: Scoring, seed: u64, runs: u64) -> SearchConfig {
        let mut cfg = SearchConfig::new(size, scoring, Duration::from_secs(3600), seed, 1);
        cfg.max_runs = Some(runs);
        cfg.keep = 8;
        cfg
    }

    #[test]
    fn finds_the_only_word_board() {
        let trie = Trie::new(["cat", "cats", "act", "acts", "scat", "tacs"]);
        let mut cfg = by_runs(Size::square(2), Scoring::Gobble, 1, 50);
        cfg.threads = 2;
        cfg.target = Some(2 + 2 + 1 + 1 + 2 + 2);
        let st = search(&trie, &cfg, &AtomicBool::new(false), &quiet());
        assert_eq!(st.score, 10, "{:?}", st.board);
    }

    /// Every board of a 3x3 grid over a few letters, scored one by one:
    /// the search, from random letters, reaches the same best score.
    #[test]
    fn reaches_the_brute_force_optimum() {
        let words = [
            "sat", "set", "tea", "eat", "ate", "eta", "seat", "east", "teas", "sate", "eats",
            "etas", "seta", "test", "tests", "state", "states", "taste", "tastes", "asset",
            "assets", "tease", "teases", "estate", "estates", "sea", "seas", "tat", "tats", "see",
            "sees", "tee", "tees", "teat", "teats", "ease", "eases", "setae", "tsetse",
        ];
        let trie = Trie::new(words);
        let size = Size::square(3);
        // Letters outside the words are all alike (they end every path),
        // so `b` stands for all of them.
        let alphabet = [0u8, 1, 4, 18, 19];
        let mut solver = Solver::new(&trie, Scoring::Boggle);
        let mut best = 0;
        let mut cells = vec![0u8; 9];
        for mut code in 0..alphabet.len().pow(9) {
            for c in cells.iter_mut() {
                *c = alphabet[code % alphabet.len()];
                code /= alphabet.len();
            }
            best = best.max(solver.score(&Board::from_cells(size, cells.clone())).score);
        }
        assert!(best > 40, "a board with many words: {best}");
        for seed in 1..=3 {
            let cfg = by_runs(size, Scoring::Boggle, seed, 40);
            let st = search(&trie, &cfg, &AtomicBool::new(false), &quiet());
            assert_eq!(st.score, best, "seed {seed}: {}", st.board.letters());
        }
    }

    /// What the search reports is what the solver says of its boards, and
    /// a seed with one thread and a run limit gives the same search again.
    #[test]
    fn reports_solver_scores_and_repeats() {
        let lexicon = parlor_lexicon::Lexicon::embedded(parlor_lexicon::DEFAULT).unwrap();
        let trie = Trie::new(lexicon.words());
        let size = Size::new(4, 3).unwrap();
        let mut cfg = by_runs(size, Scoring::Gobble, 7, 6);
        cfg.elite = 2;
        let st = search(&trie, &cfg, &AtomicBool::new(false), &quiet());
        let mut solver = Solver::new(&trie, Scoring::Gobble);
        let t = solver.score(&st.board);
        assert_eq!((st.score, st.words), (t.score, t.count));
        assert_eq!(st.runs, 6);
        assert!(!st.elite.is_empty() && st.elite.len() <= 8);
        assert_eq!(st.elite[0].1, st.score, "the best board heads the pool");
        for w in st.elite.windows(2) {
            assert!(w[0].1 >= w[1].1, "best first");
        }
        for (b, s) in &st.elite {
            assert_eq!(solver.score(b).score, *s, "{}", b.letters());
        }
        let again = search(&trie, &cfg, &AtomicBool::new(false), &quiet());
        assert_eq!(again.board, st.board);
        assert_eq!(again.evaluations, st.evaluations);
    }

    #[test]
    fn symmetric_boards_share_a_key() {
        for size in [Size::square(4), Size::new(4, 3).unwrap()] {
            let maps = size.symmetries();
            assert_eq!(maps.len(), if size.width == size.height { 8 } else { 4 });
            let board = Board::from_cells(size, (0..size.cells() as u8).collect());
            let key = symmetric_key(&board, &maps);
            let mut keys = std::collections::HashSet::new();
            for m in &maps {
                let moved = Board::from_cells(size, m.iter().map(|&i| board.cells()[i]).collect());
                assert_eq!(symmetric_key(&moved, &maps), key);
                keys.insert(moved.letters());
            }
            assert_eq!(
                keys.len(),
                maps.len(),
                "distinct letters: every map moves them"
            );
        }
    }
}
