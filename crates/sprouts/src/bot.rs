//! The computer player: the solver where it answers in time, a greedy
//! player where it does not.
//!
//! | level | how it chooses |
//! | --- | --- |
//! | easy | at random |
//! | medium | greedy: takes a move that ends the game in its favour, avoids one that ends it against it |
//! | hard | the solver for up to a quarter of its budget (at most 2 s), else greedy |
//! | best | the solver for its whole budget, else greedy |
//!
//! With the solver, the player first asks who wins from the position it is
//! to move in; that fills the solver's tables, after which asking about each
//! move's result costs little. A move after which the opponent loses is a
//! winning move and is played. When every move loses, or the time runs out
//! before a winning move is found, it falls back to the greedy choice among
//! the moves not proved to lose (or among all of them). So it is perfect
//! whenever the solver answers within the budget, and never worse than the
//! greedy player.

use crate::game::{Action, Sprouts};
use crate::moves::successors;
use crate::position::Position;
use crate::solve::{Query, Solver};
use crate::wgosa::{resolve, WgosaMove};
use parlor_core::{Agent, AgentContext, GameRng, Level};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Entries the solver's tables may hold between decisions before they are
/// cleared: a long game on many spots must not grow a bot without bound
/// (a server holds one per bot seat of every live game). What one decision
/// adds is bounded by its time budget.
const MAX_TABLE_ENTRIES: usize = 200_000;

/// The most `hard` thinks per move.
const HARD_LIMIT: Duration = Duration::from_secs(2);

/// A computer player at one level.
pub(crate) struct Player {
    misere: bool,
    level: Level,
    rng: GameRng,
    solver: Solver,
}

impl Player {
    pub(crate) fn new(misere: bool, level: Level, rng: GameRng) -> Player {
        Player {
            misere,
            level,
            rng,
            solver: Solver::new(),
        }
    }

    /// Whether the player to move in `p` can win at once: at normal play,
    /// by a move after which nobody can move. (At misère, ending the game
    /// loses, so there is no such threat.)
    fn wins_at_once(&self, p: &Position) -> bool {
        !self.misere && successors(p).iter().any(|(_, child, _)| !child.has_move())
    }

    /// The position each legal move leads to (`None` where the text does
    /// not resolve, which a listed move always does).
    fn children(here: &Position, legal: &[Action]) -> Vec<(Action, Option<Position>)> {
        legal
            .iter()
            .map(|a| {
                let child = match a.text().strip_prefix('=') {
                    Some(t) => Position::parse(t).ok(),
                    None => a
                        .text()
                        .parse::<WgosaMove>()
                        .ok()
                        .and_then(|wm| resolve(here, &wm).ok().map(|(_, p)| p)),
                };
                (a.clone(), child)
            })
            .collect()
    }

    /// The solver's verdict on each move, for as long as `stop` is down:
    /// a winning move as soon as one is found, else the moves proved to
    /// lose.
    fn solve(
        &mut self,
        here: &Position,
        moves: &[(Action, Option<Position>)],
        stop: &AtomicBool,
    ) -> Verdict {
        let query = Query {
            misere: self.misere,
            ..Query::default()
        };
        let mut losing = Vec::new();
        // Who wins from here: afterwards the moves' results are mostly in
        // the tables. Too large a position for the solver: no verdict.
        match self.solver.solve_until(here, &query, stop) {
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => return Verdict::Unknown(losing),
        }
        for (action, child) in moves {
            let Some(child) = child else { continue };
            if !child.has_move() {
                // The game ends with this move.
                if self.misere {
                    losing.push(action.clone());
                    continue;
                }
                return Verdict::Win(action.clone());
            }
            match self.solver.solve_until(child, &query, stop) {
                // The opponent, to move, loses: a winning move.
                Ok(Some(a)) if !a.first_player_wins => return Verdict::Win(action.clone()),
                Ok(Some(_)) => losing.push(action.clone()),
                Ok(None) | Err(_) => return Verdict::Unknown(losing),
            }
        }
        Verdict::Lost
    }

    /// The greedy choice among `moves`: a move that ends the game in its
    /// favour, else one that does not let the opponent end it at once (from
    /// `hard` up), else any.
    fn greedy(&mut self, moves: &[(Action, Option<Position>)], avoid: &[Action]) -> Option<Action> {
        let mut good = Vec::new();
        let mut fair = Vec::new();
        let mut bad = Vec::new();
        for (a, child) in moves {
            let Some(child) = child else {
                fair.push(a.clone());
                continue;
            };
            if !child.has_move() {
                if self.misere {
                    bad.push(a.clone());
                } else {
                    good.push(a.clone());
                }
            } else if avoid.contains(a) || (self.level >= Level::Hard && self.wins_at_once(child)) {
                bad.push(a.clone());
            } else {
                fair.push(a.clone());
            }
        }
        for v in [&good, &fair, &bad] {
            if !v.is_empty() {
                return Some(v[self.rng.below(v.len())].clone());
            }
        }
        None
    }
}

/// Runs `f` with a stop flag that a watchdog raises when `budget` is
/// exhausted (or cancelled), after `limit` if one is given, and, with
/// `quarter`, once a quarter of the budget's time is spent. The solver
/// checks the flag as it goes.
pub(crate) fn within<T>(
    budget: &parlor_core::Budget,
    limit: Option<Duration>,
    quarter: bool,
    f: impl FnOnce(&AtomicBool) -> T,
) -> T {
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                let elapsed = started.elapsed();
                let out = budget.exhausted(started, 0)
                    || limit.is_some_and(|l| elapsed >= l)
                    || (quarter
                        && started
                            .checked_sub(elapsed * 3)
                            .is_some_and(|s| budget.exhausted(s, 0)));
                if out {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        let r = f(&stop);
        done.store(true, Ordering::Relaxed);
        r
    })
}

/// What the solver found in the time it had.
enum Verdict {
    /// This move wins.
    Win(Action),
    /// Every move loses: the position is lost.
    Lost,
    /// Time ran out (or the position is too large); these moves lose.
    Unknown(Vec<Action>),
}

impl Agent<Sprouts> for Player {
    fn choose(&mut self, ctx: &AgentContext<'_, Sprouts>) -> Option<Action> {
        let legal = ctx.legal?;
        if legal.is_empty() {
            return None;
        }
        if self.level == Level::Easy {
            return Some(legal[self.rng.below(legal.len())].clone());
        }
        let Ok(here) = Position::parse(&ctx.view.position) else {
            return Some(legal[self.rng.below(legal.len())].clone());
        };
        let mut moves = Self::children(&here, legal);
        // A random order, so that among equal moves the choice varies.
        for i in (1..moves.len()).rev() {
            let j = self.rng.below(i + 1);
            moves.swap(i, j);
        }
        if self.level < Level::Hard {
            return self.greedy(&moves, &[]);
        }
        let limit = (self.level == Level::Hard).then_some(HARD_LIMIT);
        let quarter = self.level == Level::Hard;
        let verdict = within(&ctx.budget, limit, quarter, |stop| {
            self.solve(&here, &moves, stop)
        });
        let (t, m) = self.solver.table_sizes();
        if t + m > MAX_TABLE_ENTRIES {
            self.solver.clear();
        }
        match verdict {
            Verdict::Win(a) => Some(a),
            Verdict::Lost => self.greedy(&moves, &[]),
            Verdict::Unknown(losing) => self.greedy(&moves, &losing),
        }
    }
}
