//! Who wins from here: a Sprouts solver for normal and misère play, with
//! nimbers for normal play.
//!
//! # The idea
//!
//! The solver keeps its own form of a position ([`land`]): only live
//! corners, regions that can still host a line, and the position split
//! into **lands**, groups of regions that share no live spot and so are
//! independent games. Each land is a short canonical byte string, so equal
//! parts met in different positions are looked up, not searched again.
//!
//! Normal play adds lands up: a position's nimber is the XOR of its lands'
//! nimbers, and the search only ever plays one land at a time beside a nim
//! heap standing for the others ([`search`]). Misère play does not add up;
//! its search walks whole positions, still made of canonical lands.
//!
//! Every answer found goes into tables shared by the threads of a run and
//! by later runs on the same [`Solver`]; [`Solver::export`] and
//! [`Solver::import`] carry them to a file and back (the caller does the
//! file I/O).
//!
//! # Example
//!
//! ```
//! use parlor_sprouts::solve::{Query, Solver};
//! let solver = Solver::new();
//! let q = Query { nimber: true, ..Query::default() };
//! let a = solver.solve_start(3, &q).unwrap();
//! assert!(a.first_player_wins);
//! assert_eq!(a.nimber, Some(1));
//! let m = solver.solve_start(2, &Query { misere: true, ..Query::default() }).unwrap();
//! assert!(!m.first_player_wins);
//! ```
//!
//! # Limits
//!
//! Start positions up to [`MAX_SPOTS`] spots and positions with up to
//! [`MAX_LIVES`] lives are accepted; normal play up to 19 spots and
//! misère up to 11 take seconds to a minute (misère 12 ten minutes and
//! 3.7 GiB), and beyond that answers may take a long time (a lost start
//! is far harder than a won one). Misère tables keep whole positions
//! and grow fastest.

mod land;
mod search;

use crate::position::{Position, Spot};
use land::{check_key, finish, show, unshow, Key, Work, LAND};
use search::{join, Search, Tables};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most starting spots [`Solver::solve_start`] accepts.
pub const MAX_SPOTS: u32 = 30;
/// The most lives (over all live spots) a position given to
/// [`Solver::solve`] may have.
pub const MAX_LIVES: usize = 90;
/// The most threads a search uses.
pub const MAX_THREADS: usize = 64;

/// What to find out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// Misère play (the last player to move loses) instead of normal play.
    pub misere: bool,
    /// Also the nimber (normal play only).
    pub nimber: bool,
    /// Search threads (1 to [`MAX_THREADS`]).
    pub threads: usize,
}

impl Default for Query {
    fn default() -> Self {
        Query {
            misere: false,
            nimber: false,
            threads: 1,
        }
    }
}

/// An answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Whether the player to move wins with perfect play.
    pub first_player_wins: bool,
    /// The position's nimber, when asked (normal play).
    pub nimber: Option<u32>,
    /// Lands and positions expanded (move lists generated) for this answer.
    pub positions: u64,
}

/// Why a question cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// Too many starting spots.
    #[error("{spots} spots is too many; the solver takes 1 to {MAX_SPOTS}")]
    TooManySpots {
        /// Asked.
        spots: u32,
    },
    /// No spot at all.
    #[error("a game needs at least one spot")]
    NoSpots,
    /// A position too large to search.
    #[error("the position has {lives} lives; the solver takes at most {MAX_LIVES}")]
    TooManyLives {
        /// Lives of the position.
        lives: usize,
    },
    /// Nimbers belong to normal play.
    #[error("nimbers are defined for normal play only; drop --nimber or --misere")]
    NimberInMisere,
    /// Bad thread count.
    #[error("threads run from 1 to {MAX_THREADS}, not {threads}")]
    Threads {
        /// Asked.
        threads: usize,
    },
    /// A table file line that cannot be read.
    #[error("table line {line}: {reason}; the file must be one written by `--db`")]
    Table {
        /// Line number from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// The solver: its tables live as long as it does, so questions asked of
/// one solver share their work.
#[derive(Default)]
pub struct Solver {
    tables: Tables,
}

/// The lands of a position, reduced and canonical.
fn lands_of(position: &Position) -> Result<Vec<Key>, SolveError> {
    let mut ids: HashMap<Spot, u8> = HashMap::new();
    let mut lives: Vec<u8> = Vec::new();
    let mut total = 0usize;
    for s in position.spots() {
        let l = position.lives(s);
        if l > 0 {
            total += l;
            if total > MAX_LIVES {
                return Err(SolveError::TooManyLives {
                    lives: position.total_lives(),
                });
            }
            ids.insert(s, lives.len() as u8);
            lives.push(l as u8);
        }
    }
    let regions = position
        .rows()
        .iter()
        .map(|row| {
            row.iter()
                .map(|stack| stack.iter().filter_map(|c| ids.get(c).copied()).collect())
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    finish(Work { regions, lives }, &mut out);
    out.sort_unstable();
    Ok(out)
}

/// The solver's reduced form of a position: its lands, canonical, joined
/// by `+` (empty when no move is left). Names (`A`, `B`, ...) are spots
/// with one life and two usable corners; `0`, `1`, `2` are spots with
/// three, two and one lives seen once; `.` separates boundaries and `/`
/// regions.
///
/// ```
/// use parlor_sprouts::{solve::reduced, Position};
/// assert_eq!(reduced(&Position::start(2)).unwrap(), "0.0");
/// let p = Position::parse("5,1,3,2,4/5,4,1/6,2,3/6,3,1,4,2").unwrap();
/// assert_eq!(reduced(&p).unwrap(), "");
/// ```
pub fn reduced(position: &Position) -> Result<String, SolveError> {
    Ok(show(&join(&lands_of(position)?)))
}

impl Solver {
    /// A solver with empty tables.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Solves the start position with `spots` isolated spots.
    pub fn solve_start(&self, spots: u32, query: &Query) -> Result<Answer, SolveError> {
        if spots == 0 {
            return Err(SolveError::NoSpots);
        }
        if spots > MAX_SPOTS {
            return Err(SolveError::TooManySpots { spots });
        }
        self.solve(&Position::start(spots), query)
    }

    /// Solves a position (the player to move is "first"). What earlier
    /// questions proved is used; the proof numbers their searches left
    /// are not (see the comment inside).
    pub fn solve(&self, position: &Position, query: &Query) -> Result<Answer, SolveError> {
        if query.misere && query.nimber {
            return Err(SolveError::NimberInMisere);
        }
        if query.threads == 0 || query.threads > MAX_THREADS {
            return Err(SolveError::Threads {
                threads: query.threads,
            });
        }
        // Which lands get stand-ins instead of keys depends on the keys
        // this thread has made (see `land::settle`): each question starts
        // from none, so its search is the same whatever was asked before.
        land::forget_keys();
        let lands = lands_of(position)?;
        // Each question starts with no proof and disproof numbers: those
        // left by the search from another root steer the next one into
        // parts that were hard there (n = 8 after 1..7 in one process made
        // 13,404 positions, 7,005 from empty tables, 6,454 this way). What
        // is proved (nimbers, wins, option lists) is kept.
        self.tables.forget_guides();
        let (result, positions) = if query.misere {
            self.run(query.threads, |s| s.misere_win(&lands).map(|w| (w, None)))
        } else if query.nimber {
            self.run(query.threads, |s| {
                s.sum_nimber(&lands).map(|n| (n != 0, Some(n)))
            })
        } else {
            self.run(query.threads, |s| {
                s.sum_loses(&lands, 0).map(|l| (!l, None))
            })
        };
        let (first_player_wins, nimber) = result;
        Ok(Answer {
            first_player_wins,
            nimber,
            positions,
        })
    }

    /// Like [`solve`](Solver::solve) on one thread, but gives up (`None`)
    /// once `stop` is raised: for a player with a time budget. What was
    /// learnt before stopping stays in the tables, so asking again goes on
    /// from there.
    pub fn solve_until(
        &self,
        position: &Position,
        query: &Query,
        stop: &AtomicBool,
    ) -> Result<Option<Answer>, SolveError> {
        if query.misere && query.nimber {
            return Err(SolveError::NimberInMisere);
        }
        land::forget_keys();
        let lands = lands_of(position)?;
        let mut s = Search::new(&self.tables, stop, 0, 1);
        let result = if query.misere {
            s.misere_win(&lands).map(|w| (w, None))
        } else if query.nimber {
            s.sum_nimber(&lands).map(|n| (n != 0, Some(n)))
        } else {
            s.sum_loses(&lands, 0).map(|l| (!l, None))
        };
        Ok(result.map(|(first_player_wins, nimber)| Answer {
            first_player_wins,
            nimber,
            positions: s.nodes,
        }))
    }

    /// Runs one search on `threads` threads sharing the tables; the first
    /// to finish stops the others. Returns the answer and the nodes
    /// expanded by all threads.
    fn run<T: Send>(
        &self,
        threads: usize,
        f: impl Fn(&mut Search) -> Option<T> + Sync,
    ) -> (T, u64) {
        let stop = AtomicBool::new(false);
        if threads <= 1 {
            let mut s = Search::new(&self.tables, &stop, 0, 1);
            // Never stopped, so always an answer; the loop only satisfies
            // the type (a stopped search is retried, which cannot happen).
            loop {
                if let Some(r) = f(&mut s) {
                    return (r, s.nodes);
                }
            }
        }
        let results: Vec<(Option<T>, u64)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let (f, stop, tables) = (&f, &stop, &self.tables);
                    scope.spawn(move || {
                        let mut s = Search::new(tables, stop, t, threads);
                        let r = f(&mut s);
                        if r.is_some() {
                            stop.store(true, Ordering::Relaxed);
                        }
                        (r, s.nodes)
                    })
                })
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        let nodes = results.iter().map(|r| r.1).sum();
        match results.into_iter().find_map(|r| r.0) {
            Some(r) => (r, nodes),
            // Every thread panicked or stopped without an answer (cannot
            // happen: the one that stops the others has its answer); search
            // again on this thread.
            None => {
                let (r, n) = self.run(1, f);
                (r, nodes + n)
            }
        }
    }

    /// Entries in the tables: (lands with something known, misère positions).
    pub fn table_sizes(&self) -> (usize, usize) {
        self.tables.sizes()
    }

    /// Forgets everything learned.
    pub fn clear(&self) {
        self.tables.clear();
    }

    /// The tables as text, one fact a line: `n NIMBER LAND` (a land's
    /// nimber) and `m 0|1 POSITION` (a misère outcome, 1 if the player to
    /// move wins), in the reduced form of [`reduced`].
    pub fn export(&self) -> String {
        let mut lines: Vec<String> = Vec::new();
        for m in &self.tables.lands {
            let m = m.lock().unwrap_or_else(|e| e.into_inner());
            for (k, e) in m.iter() {
                // A stand-in's facts are its key's too (see `land::settle`).
                if e.nim != u8::MAX && !land::is_stand_in(k) {
                    lines.push(format!("n {} {}", e.nim, show(k)));
                }
            }
        }
        for m in &self.tables.misere {
            let m = m.lock().unwrap_or_else(|e| e.into_inner());
            for (k, &w) in m.iter() {
                lines.push(format!("m {} {}", u8::from(w), show(k)));
            }
        }
        lines.sort();
        let mut out = String::from("# parlor sprouts solver table v1\n");
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
        out
    }

    /// Adds the facts of a text written by [`Solver::export`]; returns how
    /// many were read. Nothing is added if any line is bad.
    pub fn import(&self, text: &str) -> Result<usize, SolveError> {
        let mut nims: Vec<(Key, u32)> = Vec::new();
        let mut mis: Vec<(Vec<u8>, bool)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let bad = |reason: &str| SolveError::Table {
                line: i + 1,
                reason: reason.to_string(),
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split(' ');
            let (Some(kind), Some(value), Some(body), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(bad("expected three fields: kind, value, position"));
            };
            let bytes = unshow(body).map_err(|e| bad(&e))?;
            if bytes.len() > 4096 {
                return Err(bad("position too long"));
            }
            // Re-derive the canonical form so tables from other versions of
            // the key writer still land on today's keys.
            let mut lands: Vec<Key> = Vec::new();
            for part in bytes.split(|&b| b == LAND) {
                check_key(part).map_err(|e| bad(&e))?;
                finish(land::parse(part), &mut lands);
            }
            lands.sort_unstable();
            match kind {
                "n" => {
                    let n: u32 = value.parse().map_err(|_| bad("bad nimber"))?;
                    if n > 250 {
                        return Err(bad("nimber out of range"));
                    }
                    match <[Key; 1]>::try_from(lands) {
                        Ok([l]) => nims.push((l, n)),
                        Err(_) => return Err(bad("not a single land")),
                    }
                }
                "m" => {
                    let w = match value {
                        "0" => false,
                        "1" => true,
                        _ => return Err(bad("misère outcome is 0 or 1")),
                    };
                    mis.push((join(&lands), w));
                }
                _ => return Err(bad("kind is n or m")),
            }
        }
        let count = nims.len() + mis.len();
        for (l, n) in nims {
            self.tables.set_nim(&l, n);
        }
        for (p, w) in mis {
            self.tables.misere_set(&p, w);
        }
        Ok(count)
    }
}

#[cfg(test)]
mod tests;
