//! Puzzles: a string where the player to move wins and only one or two
//! plays keep the win, on the game's word list.
//!
//! A puzzle is found by random play from the empty string (default rules,
//! two players): before each play, the solver ([`crate::Solution`], the
//! one the game's helper answers with) says whether the player to move
//! wins and which plays keep the win. The strings with at least four
//! different plays of which one or two keep the win are candidates; one is
//! chosen at random. The proof is every play with the solver's verdict, and
//! for each play that gives the win away a reply that wins for the
//! opponent. After the answer the player plays it out against perfect
//! defence, as in any game.

use crate::hint::{hint, HintMove};
use crate::{Action, WordSprout};
use parlor_core::{
    Actor, Game, GameRng, Judged, Match, PuzzleBook, PuzzleKind, Resources, Seat, Seed, ToAct,
};
use serde::{Deserialize, Serialize};

/// The most plays that may keep the win for the string to be a puzzle (all
/// of them are answers).
const MOST_ANSWERS: usize = 2;
/// The fewest different plays a puzzle's string offers.
const FEWEST_PLAYS: usize = 4;

/// The solver's verdict on one play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// The string after the play.
    pub string: String,
    /// Whether it keeps the win for its player.
    pub wins: bool,
    /// A goal word the string is part of.
    pub goal: String,
    /// For a play that gives the win away: the opponent's winning reply.
    pub refutation: Option<String>,
}

/// The proof of a Word Sprout puzzle: the string and every play from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    /// The central string of the puzzle.
    pub string: String,
    /// Every different play, with its verdict.
    pub plays: Vec<Verdict>,
}

/// The kinds of Word Sprout puzzles.
pub const KINDS: &[PuzzleKind] = &[PuzzleKind {
    name: "keep-the-win",
    about: "the one or two letters that keep the win, default rules, two players",
    answer: parlor_core::Answer::FirstMoveThenWin,
}];

/// Word Sprout's puzzles for hosts ([`parlor_core::Extras::puzzles`]).
pub const BOOK: PuzzleBook = PuzzleBook {
    kinds: KINDS,
    find,
    check,
    judge,
};

/// The seat to play now, if one seat is to play.
fn playing(game: &WordSprout) -> Option<Seat> {
    match game.to_act() {
        ToAct::One(seat) => Some(seat),
        _ => None,
    }
}

/// Every different play from the table's string, with the solver's
/// verdicts; with `refute`, each losing play's refutation too (only a
/// proof needs them: the search asks for the verdicts before every play).
fn verdicts(game: &WordSprout, refute: bool) -> Result<Vec<Verdict>, String> {
    let judge = game.judge();
    let solution = judge.solution();
    let language = judge.language();
    let moves = hint(language, game.string(), Some(&solution)).map_err(|e| e.to_string())?;
    let mut out: Vec<Verdict> = Vec::new();
    for m in moves {
        if out.iter().any(|v| v.string == m.result) {
            continue;
        }
        let wins = m.wins == Some(true);
        let refutation = if wins || !refute {
            None
        } else {
            hint(language, &m.result, Some(&solution))
                .map_err(|e| e.to_string())?
                .into_iter()
                .find(|r| r.wins == Some(true))
                .map(|r: HintMove| r.result)
        };
        out.push(Verdict {
            goal: m.goal_words.first().cloned().unwrap_or_default(),
            string: m.result,
            wins,
            refutation,
        });
    }
    Ok(out)
}

/// Whether the plays make a puzzle.
fn is_puzzle(plays: &[Verdict]) -> bool {
    let keeping = plays.iter().filter(|v| v.wins).count();
    plays.len() >= FEWEST_PLAYS && (1..=MOST_ANSWERS).contains(&keeping)
}

fn find(
    kind: &str,
    seed: Seed,
    resources: &Resources,
) -> Result<Option<parlor_core::Puzzle>, String> {
    BOOK.kind(kind)?;
    let config = crate::Config::default();
    let mut table = Match::<WordSprout>::new(config, seed, resources).map_err(|e| e.to_string())?;
    let mut rng = GameRng::from_seed(seed);
    let mut candidates = Vec::new();
    while let Some(seat) = playing(table.state()) {
        let plays = verdicts(table.state(), false)?;
        if plays.is_empty() {
            break;
        }
        if is_puzzle(&plays) {
            candidates.push(table.record().clone());
        }
        let next = plays[rng.below(plays.len())].string.clone();
        table
            .apply(Actor::Seat(seat), Action::Play { string: next })
            .map_err(|e| e.to_string())?;
    }
    if candidates.is_empty() {
        return Ok(None);
    }
    let record = candidates.swap_remove(rng.below(candidates.len()));
    let at = Match::replay(&record, resources).map_err(|e| e.to_string())?;
    let seat = playing(at.state()).ok_or("nobody to play")?;
    let plays = verdicts(at.state(), true)?;
    let string = at.state().string().to_string();
    let answers: Vec<String> = plays
        .iter()
        .filter(|v| v.wins)
        .map(|v| v.string.to_uppercase())
        .collect();
    let themes = themes(&string, &plays);
    Ok(Some(parlor_core::Puzzle {
        game: WordSprout::INFO.name.to_string(),
        kind: kind.to_string(),
        seed,
        record: serde_json::to_value(&record).map_err(|e| e.to_string())?,
        seat: seat.0,
        key: string.clone(),
        answers,
        themes,
        proof_size: plays.len() as u64,
        proof: serde_json::to_value(Proof { string, plays }).map_err(|e| e.to_string())?,
    }))
}

/// What a puzzle teaches: the first letter, where the winning letter goes
/// (in front, at the end, inside), one play among many.
fn themes(string: &str, plays: &[Verdict]) -> Vec<String> {
    let mut themes = Vec::new();
    if string.is_empty() {
        themes.push("the first letter".to_string());
    }
    for v in plays.iter().filter(|v| v.wins) {
        let theme = if string.is_empty() || v.string.len() != string.len() + 1 {
            continue;
        } else if v.string.ends_with(string) {
            "a letter in front"
        } else if v.string.starts_with(string) {
            "a letter at the end"
        } else {
            "a letter inside"
        };
        if !themes.iter().any(|t| t == theme) {
            themes.push(theme.to_string());
        }
    }
    if plays.len() >= 12 {
        themes.push("one play among many".to_string());
    }
    themes
}

/// The table at the puzzle's position, and the seat to play.
fn unpack(
    puzzle: &parlor_core::Puzzle,
    resources: &Resources,
) -> Result<(Proof, Match<WordSprout>, Seat), String> {
    let (proof, table): (Proof, Match<WordSprout>) = puzzle.open(resources)?;
    let seat = playing(table.state()).ok_or("the record does not stop before a play")?;
    if seat.0 != puzzle.seat || table.state().string() != proof.string {
        return Err("the puzzle's record does not lead to its proof's string".into());
    }
    Ok((proof, table, seat))
}

fn check(puzzle: &parlor_core::Puzzle, resources: &Resources) -> Result<(), String> {
    let (proof, table, _) = unpack(puzzle, resources)?;
    let plays = verdicts(table.state(), true)?;
    if plays != proof.plays {
        return Err("the proof does not hold: the solver's verdicts differ".into());
    }
    if !is_puzzle(&plays) {
        return Err("the proof does not hold: not one or two plays keep the win".into());
    }
    let answers: Vec<String> = plays
        .iter()
        .filter(|v| v.wins)
        .map(|v| v.string.to_uppercase())
        .collect();
    if puzzle.answers != answers {
        return Err(format!(
            "the puzzle's answers {:?} are not its proof's",
            puzzle.answers
        ));
    }
    Ok(())
}

fn judge(
    puzzle: &parlor_core::Puzzle,
    action: &serde_json::Value,
    resources: &Resources,
) -> Result<Judged, String> {
    let (proof, mut table, seat) = unpack(puzzle, resources)?;
    let action: Action = serde_json::from_value(action.clone()).map_err(|_| {
        "a puzzle's answer is a play: {\"type\": \"play\", \"string\": \"omat\"}".to_string()
    })?;
    if !matches!(action, Action::Play { .. }) {
        return Err(
            "a puzzle's answer is a play: {\"type\": \"play\", \"string\": \"omat\"}".into(),
        );
    }
    // The game judges the play: a string that is no play is refused as at
    // the table.
    table
        .apply(Actor::Seat(seat), action)
        .map_err(|e| e.to_string())?;
    let after = table.state().string().to_string();
    let verdict = proof
        .plays
        .iter()
        .find(|v| v.string == after)
        .ok_or("the play is not among the proof's plays")?;
    let shown = after.to_uppercase();
    Ok(if verdict.wins {
        Judged {
            solved: true,
            why: format!(
                "{shown} keeps the win (towards {}); now play it out",
                verdict.goal.to_uppercase()
            ),
        }
    } else {
        Judged {
            solved: false,
            why: match &verdict.refutation {
                Some(reply) => format!(
                    "{shown} gives the win away: the opponent answers {} and wins",
                    reply.to_uppercase()
                ),
                None => format!("{shown} gives the win away"),
            },
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_is_found_proved_and_judged() {
        let resources = Resources::embedded();
        let puzzle = (1..30)
            .find_map(|seed| find("keep-the-win", seed, &resources).unwrap())
            .expect("a puzzle in 30 games");
        check(&puzzle, &resources).unwrap();
        assert_eq!(
            find("keep-the-win", puzzle.seed, &resources).unwrap(),
            Some(puzzle.clone())
        );
        let proof: Proof = serde_json::from_value(puzzle.proof.clone()).unwrap();
        for v in &proof.plays {
            let judged = judge(
                &puzzle,
                &serde_json::json!({"type": "play", "string": v.string}),
                &resources,
            )
            .unwrap();
            assert_eq!(judged.solved, v.wins, "{judged:?}");
            if let Some(r) = &v.refutation {
                assert!(judged.why.contains(&r.to_uppercase()), "{judged:?}");
            }
        }
        let bad = judge(
            &puzzle,
            &serde_json::json!({"type": "play", "string": "qqqqzz"}),
            &resources,
        );
        assert!(bad.is_err());
        assert!(judge(&puzzle, &serde_json::json!({"type": "concede"}), &resources).is_err());
        let mut changed = puzzle.clone();
        let mut p = proof.clone();
        for v in &mut p.plays {
            v.wins = !v.wins;
        }
        changed.proof = serde_json::to_value(p).unwrap();
        assert!(check(&changed, &resources)
            .unwrap_err()
            .contains("does not hold"));
    }
}
