//! After a game: the solver's verdict on every move.
//!
//! For each position of the game (the start, then after each move) the
//! solver says whether the player to move wins with perfect play, as far as
//! it answers within the budget. A move is a mistake when its player could
//! win before it and cannot after it (the opponent, to move, then wins).
//! Positions are solved from the last one back to the start: the late ones
//! are small, and what they teach the solver's tables makes the earlier
//! ones cheaper.

use crate::position::Position;
use crate::solve::{Query, Solver};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};

/// The verdict on one move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveVerdict {
    /// The move's number, from 1.
    pub number: usize,
    /// Its player: 0 (first) or 1 (second).
    pub seat: usize,
    /// The move as written.
    pub text: String,
    /// Whether its player could win (with perfect play) before it; `None`
    /// where the solver did not answer in time (or the position is too
    /// large for it).
    pub could_win: Option<bool>,
    /// Whether its player can still win after it.
    pub wins_after: Option<bool>,
    /// A winning position given away: could win before, cannot after.
    pub mistake: bool,
}

/// The verdicts on a game's moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// Whether the first player wins from the start with perfect play.
    pub first_player_wins: Option<bool>,
    /// One verdict per move, in order.
    pub moves: Vec<MoveVerdict>,
    /// Whether every position was answered (false: the budget ran out).
    pub complete: bool,
}

/// The verdicts on the moves `texts` that led through `positions` (the
/// start, then one position after each move), at normal or misère play,
/// until `stop` is raised.
pub fn analyse(
    positions: &[Position],
    texts: &[String],
    misere: bool,
    stop: &AtomicBool,
) -> Analysis {
    let solver = Solver::new();
    let query = Query {
        misere,
        ..Query::default()
    };
    // Whether the player to move in each position wins.
    let mut wins: Vec<Option<bool>> = vec![None; positions.len()];
    for (i, p) in positions.iter().enumerate().rev() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        wins[i] = if !p.has_move() {
            // Nobody can move: the player to move has lost at normal play,
            // and won at misère (the other made the last move).
            Some(misere)
        } else {
            solver
                .solve_until(p, &query, stop)
                .ok()
                .flatten()
                .map(|a| a.first_player_wins)
        };
    }
    let moves = texts
        .iter()
        .enumerate()
        .take(positions.len().saturating_sub(1))
        .map(|(i, text)| {
            let could_win = wins[i];
            let wins_after = wins[i + 1].map(|opponent| !opponent);
            MoveVerdict {
                number: i + 1,
                seat: i % 2,
                text: text.clone(),
                could_win,
                wins_after,
                mistake: could_win == Some(true) && wins_after == Some(false),
            }
        })
        .collect();
    Analysis {
        first_player_wins: wins.first().copied().flatten(),
        complete: wins.iter().all(Option::is_some),
        moves,
    }
}

/// [`analyse`] within `budget`: positions not answered when it is
/// exhausted (or cancelled) are left unknown.
pub fn analyse_within(
    positions: &[Position],
    texts: &[String],
    misere: bool,
    budget: &parlor_core::Budget,
) -> Analysis {
    crate::bot::within(budget, None, false, |stop| {
        analyse(positions, texts, misere, stop)
    })
}
