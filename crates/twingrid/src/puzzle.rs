//! Puzzles: a turn of a game whose highest-scoring word and column beats
//! every other placement by a clear margin.
//!
//! A puzzle is found in a game between two Easy bots from a seed (their
//! random scoring words make varied grids): before
//! each word, every placement of every dictionary word is scored
//! ([`crate::bot::placements`], the same scoring as the game's), and the
//! turns where the best word leads every other word by at least
//! [`parlor_core::LEAD_POINTS`] points and a fifth are candidates; one is chosen at random. The proof
//! is the best placements in order with their scores. A player solves the
//! puzzle with a placement that scores the most (the best word, at any
//! column where it scores that).

use crate::bot::{placements, Query, Table};
use crate::{Action, Placement, TwinGrids};
use parlor_core::selfplay::{agents_for, positions_where};
use parlor_core::{
    Budget, Game, GameRng, Judged, Level, Match, PuzzleBook, PuzzleKind, Resources, Seat, Seed,
    ToAct, Viewer,
};
use serde::{Deserialize, Serialize};

/// How many of the best placements a proof lists.
const LISTED: usize = 10;

/// A placement and its score, as a proof lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scored {
    /// The word.
    pub word: String,
    /// Its first letter's column, from 0.
    pub column: usize,
    /// The turn's score.
    pub score: u32,
}

/// The proof of a Twin Grids puzzle: the best placements, best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    /// The best placements in order (at most ten).
    pub best: Vec<Scored>,
}

/// The kinds of Twin Grids puzzles.
pub const KINDS: &[PuzzleKind] = &[PuzzleKind {
    name: "best-word",
    about: "the turn's highest-scoring word and column, default rules",
    answer: parlor_core::Answer::FirstMove,
}];

/// Twin Grids' puzzles for hosts ([`parlor_core::Extras::puzzles`]).
pub const BOOK: PuzzleBook = PuzzleBook {
    kinds: KINDS,
    find,
    check,
    judge,
};

/// The best placements for the seat to play in `table`, best first.
fn best_of(
    game: &TwinGrids,
    seat: Seat,
    resources: &Resources,
    k: usize,
) -> Result<Vec<Scored>, String> {
    let view = game.view(Viewer::Seat(seat));
    let role = view.role.ok_or("the seat has no role")?;
    let table = Table::from_view(&view, role).ok_or("the grids cannot be read")?;
    let config = game.config();
    let lexicon = resources
        .lexicon(&config.lexicon)
        .map_err(|e| e.to_string())?;
    let words = resources
        .counted_words(&config.lexicon, config.width)
        .map_err(|e| e.to_string())?;
    let allowed = |w: &str| table.allows(w);
    let q = Query {
        against: &table.against,
        first: table.first,
        anagram_bonus: table.anagram_bonus,
        vertical: table.vertical,
        k,
    };
    Ok(placements(&words, &table.mine, &lexicon, &q, &allowed)
        .into_iter()
        .map(|p| Scored {
            word: p.word,
            column: p.column,
            score: p.score,
        })
        .collect())
}

/// Whether the best word leads every other word by the margin (the best
/// word may score the most at several columns: each of them solves).
fn lead(best: &[Scored]) -> bool {
    let Some(first) = best.first() else {
        return false;
    };
    let next = best
        .iter()
        .find(|s| s.word != first.word)
        .map_or(0, |s| s.score);
    parlor_core::clear_lead(first.score, next)
}

/// The seat to play a word now, if it is that moment.
fn playing(game: &TwinGrids) -> Option<Seat> {
    let ToAct::One(seat) = game.to_act() else {
        return None;
    };
    (game.view(Viewer::Seat(seat)).phase == "turn").then_some(seat)
}

fn find(
    kind: &str,
    seed: Seed,
    resources: &Resources,
) -> Result<Option<parlor_core::Puzzle>, String> {
    BOOK.kind(kind)?;
    let config = crate::Config::default();
    let mut table =
        Match::<TwinGrids>::new(config.clone(), seed, resources).map_err(|e| e.to_string())?;
    let mut bots = agents_for(&table, &[Level::Easy, Level::Easy], seed, resources)
        .map_err(|e| e.to_string())?;
    let mut candidates = positions_where(&mut table, &mut bots, |m| match playing(m.state()) {
        Some(seat) => best_of(m.state(), seat, resources, LISTED).map(|b| lead(&b)),
        None => Ok(false),
    })?;
    if candidates.is_empty() {
        return Ok(None);
    }
    let mut rng = GameRng::from_seed(seed);
    let record = candidates.swap_remove(rng.below(candidates.len()));
    let at = Match::replay(&record, resources).map_err(|e| e.to_string())?;
    let seat = playing(at.state()).ok_or("not a word's turn")?;
    let best = best_of(at.state(), seat, resources, LISTED)?;
    let first = best.first().ok_or("no placement")?;
    let view = at.state().view(Viewer::Seat(seat));
    Ok(Some(parlor_core::Puzzle {
        game: TwinGrids::INFO.name.to_string(),
        kind: kind.to_string(),
        seed,
        record: serde_json::to_value(&record).map_err(|e| e.to_string())?,
        seat: seat.0,
        key: key_of(&view).ok_or("the grids cannot be read")?,
        answers: answers(&best),
        themes: themes(&view, first),
        proof_size: best.len() as u64,
        proof: serde_json::to_value(Proof { best }).map_err(|e| e.to_string())?,
    }))
}

/// The placements that solve: every one with the best score.
fn answers(best: &[Scored]) -> Vec<String> {
    best.iter()
        .filter(|s| Some(s.score) == best.first().map(|f| f.score))
        .map(|s| format!("{} at column {}", s.word.to_uppercase(), s.column + 1))
        .collect()
}

/// What makes two puzzles the same: the grid written on, the word it is
/// scored against, and the words already played.
fn key_of(view: &crate::View) -> Option<String> {
    let role = view.role?;
    let table = Table::from_view(view, role)?;
    Some(format!(
        "{}|{}|{}|{}",
        view.grids[role].join("/"),
        table.against,
        table.first,
        table.played.join(",")
    ))
}

/// What a puzzle teaches: a long word, a word down the columns, the anagram.
fn themes(view: &crate::View, best: &Scored) -> Vec<String> {
    let mut themes = Vec::new();
    if best.word.len() + 2 >= view.config.width {
        themes.push("a long word".to_string());
    }
    let against = view.last[1 - view.role.unwrap_or(0)]
        .clone()
        .unwrap_or_else(|| view.opening.clone());
    let mut a: Vec<u8> = against.bytes().collect();
    let mut b: Vec<u8> = best.word.bytes().collect();
    a.sort_unstable();
    b.sort_unstable();
    if a == b {
        themes.push("the anagram".to_string());
    }
    themes
}

/// The table at the puzzle's position, and the seat to play.
fn unpack(
    puzzle: &parlor_core::Puzzle,
    resources: &Resources,
) -> Result<(Proof, Match<TwinGrids>, Seat), String> {
    let (proof, table): (Proof, Match<TwinGrids>) = puzzle.open(resources)?;
    let seat = playing(table.state()).ok_or("the record does not stop before a word")?;
    if seat.0 != puzzle.seat {
        return Err(format!(
            "the seat to play is {}, not {}",
            seat.0, puzzle.seat
        ));
    }
    Ok((proof, table, seat))
}

fn check(puzzle: &parlor_core::Puzzle, resources: &Resources) -> Result<(), String> {
    let (proof, table, seat) = unpack(puzzle, resources)?;
    let best = best_of(table.state(), seat, resources, LISTED)?;
    if best != proof.best {
        return Err(format!(
            "the proof does not hold: the best placements are {:?}",
            best.iter()
                .map(|s| (&s.word, s.column, s.score))
                .collect::<Vec<_>>()
        ));
    }
    if !lead(&best) {
        return Err("the proof does not hold: the best does not lead by the margin".into());
    }
    // The game's own scoring gives the answer its score.
    let first = &best[0];
    let scored = table
        .state()
        .assist(
            Viewer::Seat(seat),
            &Placement {
                word: first.word.clone(),
                column: first.column,
            },
            &Budget::UNLIMITED,
        )
        .map_err(|e| e.to_string())?;
    if scored.score.score != first.score || scored.refusal.is_some() {
        return Err(format!(
            "the proof does not hold: the game scores {} at column {} {}",
            first.word,
            first.column + 1,
            scored.score.score
        ));
    }
    if puzzle.answers != answers(&best) {
        return Err(format!(
            "the puzzle's answer {:?} is not its proof's",
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
    let (proof, table, seat) = unpack(puzzle, resources)?;
    let (word, column) = match serde_json::from_value::<Action>(action.clone()) {
        Ok(Action::Play { word, column }) => (word, column),
        _ => {
            return Err(
                "a puzzle's answer is a word and a column: {\"type\": \"play\", \"word\": \"cat\", \"column\": 0}".into(),
            )
        }
    };
    let best = proof.best.first().ok_or("the proof lists no placement")?;
    let scored = table
        .state()
        .assist(
            Viewer::Seat(seat),
            &Placement { word, column },
            &Budget::UNLIMITED,
        )
        .map_err(|e| e.to_string())?;
    let lexicon = resources
        .lexicon(&table.state().config().lexicon)
        .map_err(|e| e.to_string())?;
    let shown = format!("{} at column {}", scored.word.to_uppercase(), column + 1);
    let judged = if let Some(refusal) = scored.refusal {
        Judged {
            solved: false,
            why: format!("{shown} is refused: {refusal}"),
        }
    } else if !lexicon.contains(&scored.word) {
        Judged {
            solved: false,
            why: format!(
                "{shown}: {} is not in the dictionary",
                scored.word.to_uppercase()
            ),
        }
    } else if scored.score.score == best.score {
        Judged {
            solved: true,
            why: format!("{shown} scores {}, the most this turn", best.score),
        }
    } else {
        Judged {
            solved: false,
            why: format!(
                "{shown} scores {}; a placement this turn scores {}",
                scored.score.score, best.score
            ),
        }
    };
    Ok(judged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_is_found_proved_and_judged() {
        let resources = Resources::embedded();
        let puzzle = (1..20)
            .find_map(|seed| find("best-word", seed, &resources).unwrap())
            .expect("a puzzle in 20 games");
        check(&puzzle, &resources).unwrap();
        assert_eq!(
            find("best-word", puzzle.seed, &resources).unwrap(),
            Some(puzzle.clone())
        );
        let proof: Proof = serde_json::from_value(puzzle.proof.clone()).unwrap();
        let play =
            |s: &Scored| serde_json::json!({"type": "play", "word": s.word, "column": s.column});
        let right = judge(&puzzle, &play(&proof.best[0]), &resources).unwrap();
        assert!(right.solved, "{right:?}");
        let other = proof
            .best
            .iter()
            .find(|s| s.word != proof.best[0].word)
            .unwrap();
        let second = judge(&puzzle, &play(other), &resources).unwrap();
        assert!(!second.solved);
        assert!(
            second.why.contains(&proof.best[0].score.to_string()),
            "{second:?}"
        );
        let fake = judge(
            &puzzle,
            &serde_json::json!({"type": "play", "word": "qzqz", "column": 0}),
            &resources,
        )
        .unwrap();
        assert!(
            !fake.solved && fake.why.contains("not in the dictionary"),
            "{fake:?}"
        );
        assert!(judge(&puzzle, &serde_json::json!("challenge"), &resources).is_err());
        let mut wrong = puzzle.clone();
        let mut p = proof.clone();
        p.best[0].score += 1;
        wrong.proof = serde_json::to_value(p).unwrap();
        assert!(check(&wrong, &resources)
            .unwrap_err()
            .contains("does not hold"));
    }
}
