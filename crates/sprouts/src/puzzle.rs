//! Puzzles: a position where the player to move wins and exactly one class
//! of moves keeps the win, proved by the solver.
//!
//! A puzzle is found by random play from the start (the moves of the
//! record that leads to it), and stored with its proof: the solver's
//! verdict on every class of moves ([`successors`]), and for each move that
//! gives the win away a reply that wins for the opponent (the refutation a
//! player is shown). [`Puzzle::check`] proves a stored puzzle again from its
//! record alone.
//!
//! ```
//! use parlor_core::{GameRng, Judged, PuzzleBook, PuzzleKind};
//! use parlor_sprouts::puzzle::{find, Puzzle};
//! use parlor_sprouts::solve::Solver;
//! let solver = Solver::new();
//! let mut rng = GameRng::from_seed(7);
//! let puzzle: Puzzle = (0..50)
//!     .find_map(|_| find(&solver, 4, false, &mut rng).unwrap())
//!     .expect("a puzzle in 50 random games of 4 spots");
//! assert!(puzzle.moves.iter().filter(|m| m.wins).count() == 1);
//! puzzle.check().unwrap();
//! ```

use crate::moves::successors;
use crate::position::Position;
use crate::solve::{Query, SolveError, Solver};
use crate::wgosa::{describe, Record, RecordError};
use parlor_core::{GameRng, Judged, PuzzleBook, PuzzleKind};
use serde::{Deserialize, Serialize};

/// A position with one winning class of moves, and its proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// The game that leads to the position (`4+ 1(5)2 3(6)4`): its header
    /// gives the spots and normal or misère play.
    pub record: String,
    /// Every class of moves in the position, the winning one among them.
    pub moves: Vec<Verdict>,
    /// Positions the solver expanded to prove it: a first measure of how
    /// hard the puzzle is, before players' ratings say more.
    pub proof_size: u64,
}

/// The solver's verdict on one class of moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// The move, written in WGOSA.
    pub mv: String,
    /// Whether it keeps the win for its player.
    pub wins: bool,
    /// For a move that gives the win away: a reply that wins for the
    /// opponent (none where the move ends the game, lost at misère play).
    pub refutation: Option<String>,
}

/// Why a puzzle cannot be found or proved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// The record does not replay.
    #[error("the puzzle's record: {0}")]
    Record(#[from] RecordError),
    /// The record cannot be read.
    #[error("the puzzle's record: {0}")]
    Notation(#[from] crate::wgosa::NotationError),
    /// The position is too large for the solver.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A move of the position has no written form.
    #[error("a move of the position has no WGOSA form")]
    Unwritten,
    /// What is stored is not what the solver proves.
    #[error("the proof does not hold: {0}")]
    Disproved(String),
}

impl Puzzle {
    /// The winning move.
    pub fn answer(&self) -> &str {
        self.moves
            .iter()
            .find(|v| v.wins)
            .map_or("", |v| v.mv.as_str())
    }

    /// Whether misère play (from the record's header).
    pub fn misere(&self) -> bool {
        self.record
            .split_whitespace()
            .next()
            .is_some_and(|h| h.ends_with('-'))
    }

    /// Proves the puzzle again from its record: the same classes of moves,
    /// exactly one of them winning, each refutation a winning reply.
    pub fn check(&self) -> Result<(), PuzzleError> {
        let record: Record = self.record.parse()?;
        let position = position_of(&record)?;
        let proved = prove(&position, record.misere)?;
        let solver = Solver::new();
        let solver = &solver;
        let again = |v: &[Verdict]| {
            let mut m: Vec<(String, bool)> = v.iter().map(|x| (x.mv.clone(), x.wins)).collect();
            m.sort();
            m
        };
        if again(&proved.0) != again(&self.moves) {
            return Err(PuzzleError::Disproved(format!(
                "the solver gives {:?}",
                again(&proved.0)
            )));
        }
        if self.moves.iter().filter(|v| v.wins).count() != 1 {
            return Err(PuzzleError::Disproved(
                "not exactly one winning class of moves".into(),
            ));
        }
        for v in self.moves.iter().filter(|v| !v.wins) {
            let Some(reply) = &v.refutation else {
                continue;
            };
            let mut line = record.clone();
            line.result = None;
            line.moves
                .push(v.mv.parse().map_err(PuzzleError::Notation)?);
            line.moves
                .push(reply.parse().map_err(PuzzleError::Notation)?);
            let after = line.replay()?;
            let end = after.positions.last().cloned().unwrap_or(position.clone());
            // The refutation wins for the opponent: its player to move
            // again (the puzzle's side) loses from there.
            if wins(solver, &end, record.misere)? {
                return Err(PuzzleError::Disproved(format!(
                    "{reply} does not refute {}",
                    v.mv
                )));
            }
        }
        Ok(())
    }
}

/// The position a record leads to, as its moves' written forms draw it
/// (the form a puzzle's moves are written in).
fn position_of(record: &Record) -> Result<Position, PuzzleError> {
    Ok(record
        .replay()?
        .positions
        .pop()
        .unwrap_or_else(|| Position::start(record.spots)))
}

/// Whether the player to move in `position` wins with perfect play, and
/// the positions the solver expanded to say so.
fn solve(solver: &Solver, position: &Position, misere: bool) -> Result<(bool, u64), PuzzleError> {
    if !position.has_move() {
        // Nobody can move: the player to move lost at normal play, and won
        // at misère (the other made the last move).
        return Ok((misere, 0));
    }
    let query = Query {
        misere,
        ..Query::default()
    };
    let answer = solver.solve(position, &query)?;
    Ok((answer.first_player_wins, answer.positions))
}

/// Whether the player to move in `position` wins with perfect play.
fn wins(solver: &Solver, position: &Position, misere: bool) -> Result<bool, PuzzleError> {
    Ok(solve(solver, position, misere)?.0)
}

/// The verdict on every class of moves of `position`, with refutations,
/// and the positions a solver with empty tables expanded for the verdicts
/// (so that the figure depends on the puzzle alone).
fn prove(position: &Position, misere: bool) -> Result<(Vec<Verdict>, u64), PuzzleError> {
    let solver = Solver::new();
    let solver = &solver;
    let mut size = 0;
    let mut verdicts = Vec::new();
    for (mv, after, _) in successors(position) {
        let text = describe(position, &mv)
            .ok_or(PuzzleError::Unwritten)?
            .to_string();
        let (opponent_wins, expanded) = solve(solver, &after, misere)?;
        size += expanded;
        let keeps = !opponent_wins;
        let refutation = if keeps || !after.has_move() {
            None
        } else {
            let mut found = None;
            for (reply, next, _) in successors(&after) {
                if !wins(solver, &next, misere)? {
                    found = Some(
                        describe(&after, &reply)
                            .ok_or(PuzzleError::Unwritten)?
                            .to_string(),
                    );
                    break;
                }
            }
            found
        };
        verdicts.push(Verdict {
            mv: text,
            wins: keeps,
            refutation,
        });
    }
    Ok((verdicts, size))
}

/// One random game of `spots` spots, looked at before each move: of the
/// positions with at least two classes of moves where exactly one keeps
/// the win for the player to move, one chosen at random, as a puzzle
/// (`None` if the game had none). Choosing among them all, not the first,
/// keeps the start position (a puzzle at some sizes) from being every
/// seed's answer.
pub fn find(
    solver: &Solver,
    spots: u32,
    misere: bool,
    rng: &mut GameRng,
) -> Result<Option<Puzzle>, PuzzleError> {
    let mut position = Position::start(spots);
    let mut record = Record {
        spots,
        misere,
        players: None,
        moves: Vec::new(),
        result: None,
    };
    let mut candidates: Vec<Record> = Vec::new();
    loop {
        let next = successors(&position);
        if next.is_empty() {
            break;
        }
        if next.len() >= 2 && wins(solver, &position, misere)? {
            let mut keeping = 0;
            for (_, after, _) in &next {
                if !wins(solver, after, misere)? {
                    keeping += 1;
                }
            }
            if keeping == 1 {
                candidates.push(record.clone());
            }
        }
        let (mv, after, _) = next[rng.below(next.len())].clone();
        record
            .moves
            .push(describe(&position, &mv).ok_or(PuzzleError::Unwritten)?);
        position = after;
    }
    if candidates.is_empty() {
        return Ok(None);
    }
    let chosen = candidates.swap_remove(rng.below(candidates.len()));
    // Proved on the position the record's text draws, which is where a
    // player (and `check`) starts from.
    let (moves, proof_size) = prove(&position_of(&chosen)?, misere)?;
    if moves.iter().filter(|v| v.wins).count() != 1 {
        return Ok(None);
    }
    Ok(Some(Puzzle {
        record: chosen.to_string(),
        moves,
        proof_size,
    }))
}

/// What makes two puzzles the same: the position up to equivalence, and
/// the play.
pub fn key(puzzle: &Puzzle) -> Result<String, PuzzleError> {
    let record: Record = puzzle.record.parse()?;
    Ok(format!(
        "{}{}",
        if record.misere { "-" } else { "+" },
        crate::canonical_reduced(&position_of(&record)?).as_str()
    ))
}

/// The kinds of Sprouts puzzles: normal and misère play, from a few
/// starting spots (the larger, the longer the solver's proof).
pub const KINDS: &[PuzzleKind] = &[
    PuzzleKind {
        name: "normal-4",
        about: "normal play, a game of 4 spots",
        answer: parlor_core::Answer::FirstMoveThenWin,
    },
    PuzzleKind {
        name: "normal-5",
        about: "normal play, a game of 5 spots",
        answer: parlor_core::Answer::FirstMoveThenWin,
    },
    PuzzleKind {
        name: "normal-6",
        about: "normal play, a game of 6 spots",
        answer: parlor_core::Answer::FirstMoveThenWin,
    },
    PuzzleKind {
        name: "misere-4",
        about: "misère play (the last move loses), a game of 4 spots",
        answer: parlor_core::Answer::FirstMoveThenWin,
    },
    PuzzleKind {
        name: "misere-5",
        about: "misère play (the last move loses), a game of 5 spots",
        answer: parlor_core::Answer::FirstMoveThenWin,
    },
];

/// Sprouts' puzzles for hosts ([`parlor_core::Extras::puzzles`]).
pub const BOOK: PuzzleBook = PuzzleBook {
    kinds: KINDS,
    find: find_hosted,
    check: check_hosted,
    judge: judge_hosted,
};

/// The spots and the play of a kind (`normal-5`).
fn kind_of(kind: &str) -> Result<(u32, bool), String> {
    BOOK.kind(kind)?;
    let (play, spots) = kind.split_once('-').unwrap_or_default();
    Ok((spots.parse().unwrap_or(4), play == "misere"))
}

/// What a puzzle teaches, read from its answer: a loop, an enclosure, the
/// last move.
fn themes(puzzle: &Puzzle) -> Vec<String> {
    let answer = puzzle.answer();
    let mut themes = Vec::new();
    if let Ok(m) = answer.parse::<crate::WgosaMove>() {
        let text = m.to_string();
        let ends: Vec<&str> = text
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .collect();
        if ends.first() == ends.get(2) {
            themes.push("draw a loop".to_string());
        }
        if text.contains('[') {
            themes.push("enclose spots".to_string());
        }
    }
    if puzzle.moves.len() >= 10 {
        themes.push("one move among many".to_string());
    }
    themes
}

fn find_hosted(
    kind: &str,
    seed: parlor_core::Seed,
    resources: &parlor_core::Resources,
) -> Result<Option<parlor_core::Puzzle>, String> {
    let (spots, misere) = kind_of(kind)?;
    let solver = Solver::new();
    let mut rng = GameRng::from_seed(seed);
    let Some(found) = find(&solver, spots, misere, &mut rng).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    let table = table_of(&found, resources)?;
    Ok(Some(parlor_core::Puzzle {
        game: <crate::Sprouts as parlor_core::Game>::INFO.name.to_string(),
        kind: kind.to_string(),
        seed,
        record: serde_json::to_value(table.record()).map_err(|e| e.to_string())?,
        seat: table.record().actions.len() % 2,
        key: key(&found).map_err(|e| e.to_string())?,
        answers: vec![found.answer().to_string()],
        themes: themes(&found),
        proof_size: found.proof_size,
        proof: serde_json::to_value(&found).map_err(|e| e.to_string())?,
    }))
}

/// The table at the puzzle's position: a new game whose moves are the
/// record's, each as its text.
fn table_of(
    puzzle: &Puzzle,
    resources: &parlor_core::Resources,
) -> Result<parlor_core::Match<crate::Sprouts>, String> {
    use parlor_core::{Actor, Seat};
    let record: Record = puzzle
        .record
        .parse()
        .map_err(|e: crate::wgosa::NotationError| e.to_string())?;
    let config = crate::game::Config {
        spots: record.spots,
        misere: record.misere,
        start: None,
    };
    let mut table = parlor_core::Match::new(config, 0, resources).map_err(|e| e.to_string())?;
    for (i, m) in record.moves.iter().enumerate() {
        table
            .apply(
                Actor::Seat(Seat(i % 2)),
                crate::game::Action::new(m.to_string()),
            )
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
    }
    Ok(table)
}

/// The game's puzzle inside a host's, and the table at its position (the
/// host's record, replayed, must be that table's).
fn unpack(
    puzzle: &parlor_core::Puzzle,
    resources: &parlor_core::Resources,
) -> Result<(Puzzle, parlor_core::Match<crate::Sprouts>), String> {
    let inner: Puzzle = serde_json::from_value(puzzle.proof.clone())
        .map_err(|e| format!("not a Sprouts puzzle's proof: {e}"))?;
    let table = table_of(&inner, resources)?;
    if serde_json::to_value(table.record()).ok().as_ref() != Some(&puzzle.record) {
        return Err("the puzzle's record is not its proof's game".into());
    }
    Ok((inner, table))
}

fn check_hosted(
    puzzle: &parlor_core::Puzzle,
    resources: &parlor_core::Resources,
) -> Result<(), String> {
    let (inner, _) = unpack(puzzle, resources)?;
    inner.check().map_err(|e| e.to_string())?;
    if puzzle.answers != [inner.answer()] {
        return Err(format!(
            "the puzzle's answer {:?} is not its proof's {:?}",
            puzzle.answers,
            inner.answer()
        ));
    }
    Ok(())
}

fn judge_hosted(
    puzzle: &parlor_core::Puzzle,
    action: &serde_json::Value,
    resources: &parlor_core::Resources,
) -> Result<Judged, String> {
    use parlor_core::{Actor, Seat};
    let (inner, mut table) = unpack(puzzle, resources)?;
    let action: crate::game::Action = serde_json::from_value(action.clone()).map_err(|e| {
        format!("not a Sprouts move: {e}; a move is WGOSA text (\"1(4)2\") or a drawn curve")
    })?;
    let before = table.state().position().clone();
    table
        .apply(Actor::Seat(Seat(puzzle.seat)), action)
        .map_err(|e| e.to_string())?;
    let played = crate::canonical_reduced(table.state().position());
    // The verdict on the class of moves the player's move is in.
    for v in &inner.moves {
        let Ok(m) = v.mv.parse::<crate::WgosaMove>() else {
            continue;
        };
        let Ok((_, after)) = crate::resolve(&before, &m) else {
            continue;
        };
        if crate::canonical_reduced(&after) != played {
            continue;
        }
        let why = if v.wins {
            format!(
                "{}: the only move that keeps the win; now win it against perfect defence",
                v.mv
            )
        } else {
            match &v.refutation {
                Some(reply) => format!("{} gives the win away: the opponent answers {reply} and wins", v.mv),
                None => format!("{} gives the win away: it is the last move, and at misère play the last move loses", v.mv),
            }
        };
        return Ok(Judged {
            solved: v.wins,
            why,
        });
    }
    Err("the move is in none of the position's classes of moves".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn some(spots: u32, misere: bool, seed: u64) -> Vec<Puzzle> {
        let solver = Solver::new();
        let mut rng = GameRng::from_seed(seed);
        (0..40)
            .filter_map(|_| find(&solver, spots, misere, &mut rng).unwrap())
            .collect()
    }

    #[test]
    fn every_puzzle_found_has_one_winning_class_and_proves_again() {
        for (spots, misere) in [(3, false), (4, false), (5, false), (3, true), (4, true)] {
            let found = some(spots, misere, 11);
            assert!(!found.is_empty(), "{spots} spots, misère {misere}");
            for p in &found {
                assert_eq!(p.moves.iter().filter(|v| v.wins).count(), 1, "{p:?}");
                assert!(p.moves.len() >= 2);
                assert_eq!(p.misere(), misere);
                assert!(
                    p.moves
                        .iter()
                        .all(|v| v.wins || v.refutation.is_some() || misere),
                    "{p:?}"
                );
                p.check().unwrap();
            }
        }
    }

    #[test]
    fn a_puzzle_whose_proof_was_changed_is_refused() {
        let p = some(4, false, 3).remove(0);
        let mut swapped = p.clone();
        for v in &mut swapped.moves {
            v.wins = !v.wins;
        }
        assert!(matches!(swapped.check(), Err(PuzzleError::Disproved(_))));
        let mut dropped = p.clone();
        dropped.moves.pop();
        assert!(matches!(dropped.check(), Err(PuzzleError::Disproved(_))));
        if let Some(wrong) = p.moves.iter().position(|v| v.refutation.is_some()) {
            // A refutation that is the losing move's own class replayed is
            // not a reply that wins: replace it by every other reply until
            // one does not refute.
            let mut bad = p.clone();
            let record: Record = p.record.parse().unwrap();
            let mut line = record.clone();
            line.moves.push(p.moves[wrong].mv.parse().unwrap());
            let after = line.replay().unwrap().positions.last().cloned().unwrap();
            let solver = Solver::new();
            let losing_reply = successors(&after)
                .into_iter()
                .find(|(_, next, _)| wins(&solver, next, false).unwrap())
                .map(|(m, _, _)| describe(&after, &m).unwrap().to_string());
            if let Some(reply) = losing_reply {
                bad.moves[wrong].refutation = Some(reply);
                assert!(matches!(bad.check(), Err(PuzzleError::Disproved(_))));
            }
        }
        let mut broken = p;
        broken.record.push_str(" 1(99)1");
        assert!(broken.check().is_err());
    }

    #[test]
    fn the_same_seed_finds_the_same_puzzles() {
        assert_eq!(some(5, false, 42), some(5, false, 42));
    }

    #[test]
    fn the_book_finds_checks_and_judges_each_kind() {
        let resources = parlor_core::Resources::default();
        for kind in KINDS {
            let puzzle = (0..60)
                .find_map(|seed| (BOOK.find)(kind.name, seed, &resources).unwrap())
                .unwrap_or_else(|| panic!("a {} puzzle in 60 seeds", kind.name));
            assert_eq!(puzzle.kind, kind.name);
            // Found again from its seed, the same.
            assert_eq!(
                (BOOK.find)(kind.name, puzzle.seed, &resources).unwrap(),
                Some(puzzle.clone())
            );
            (BOOK.check)(&puzzle, &resources).unwrap();
            // The record replays to the table at the position, the seat to
            // move the puzzle's.
            let record: parlor_core::Record<crate::Sprouts> =
                serde_json::from_value(puzzle.record.clone()).unwrap();
            let table = parlor_core::Match::replay(&record, &resources).unwrap();
            assert_eq!(
                parlor_core::Game::to_act(table.state()),
                parlor_core::ToAct::One(parlor_core::Seat(puzzle.seat))
            );
            let inner: Puzzle = serde_json::from_value(puzzle.proof.clone()).unwrap();
            for v in &inner.moves {
                let judged = (BOOK.judge)(&puzzle, &serde_json::json!(v.mv), &resources).unwrap();
                assert_eq!(judged.solved, v.wins, "{}: {judged:?}", v.mv);
                if let Some(reply) = &v.refutation {
                    assert!(judged.why.contains(reply.as_str()), "{judged:?}");
                }
            }
            let mut wrong = puzzle.clone();
            wrong.answers = vec!["1(99)1".into()];
            assert!((BOOK.check)(&wrong, &resources).is_err());
        }
        assert!((BOOK.find)("normal-40", 1, &resources)
            .unwrap_err()
            .contains("normal-4"));
    }

    #[test]
    fn a_move_that_is_not_one_is_refused_in_one_line() {
        let resources = parlor_core::Resources::default();
        let puzzle = (0..60)
            .find_map(|seed| (BOOK.find)("normal-4", seed, &resources).unwrap())
            .unwrap();
        for bad in [
            serde_json::json!(17),
            serde_json::json!("9(99)9"),
            serde_json::json!({"curve": "no"}),
        ] {
            let e = (BOOK.judge)(&puzzle, &bad, &resources).unwrap_err();
            assert!(!e.contains('\n') && !e.is_empty(), "{e}");
        }
    }
}
