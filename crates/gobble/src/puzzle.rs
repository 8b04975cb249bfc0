//! Puzzles: a board whose longest words are few, to be found within the
//! round's time.
//!
//! A puzzle is the board a seed gives (its keyphrase chosen by the seed),
//! played alone for two minutes. The solver lists every word of the board
//! ([`crate::Gobble::all_words`]); the board is a puzzle when its longest
//! words have at least [`LEAST_LONGEST`] letters and there are at most
//! [`MOST_ANSWERS`] of them. Any of them solves it.

use crate::{Gobble, GobbleAction, GobbleConfig};
use parlor_core::{Actor, Game, Judged, Match, PuzzleBook, PuzzleKind, Resources, Seat, Seed};
use serde::{Deserialize, Serialize};

/// The shortest a puzzle's longest words may be.
pub const LEAST_LONGEST: usize = 6;
/// The most longest words a puzzle's board may hold.
pub const MOST_ANSWERS: usize = 3;
/// The time to find one, in seconds.
pub const SECONDS: u32 = 120;

/// The proof of a Gobble puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    /// The board, as written (`ABCD/EFGH/...`).
    pub board: String,
    /// The length of its longest words.
    pub longest: usize,
    /// How many words the board holds in all.
    pub words: usize,
}

/// The kinds of Gobble puzzles.
pub const KINDS: &[PuzzleKind] = &[
    PuzzleKind {
        name: "longest-4x4",
        about: "a longest word of a 4x4 board, within two minutes",
        answer: parlor_core::Answer::AnyMove,
    },
    PuzzleKind {
        name: "longest-5x5",
        about: "a longest word of a 5x5 board, within two minutes",
        answer: parlor_core::Answer::AnyMove,
    },
];

/// Gobble's puzzles for hosts ([`parlor_core::Extras::puzzles`]).
pub const BOOK: PuzzleBook = PuzzleBook {
    kinds: KINDS,
    find,
    check,
    judge,
};

fn config_of(kind: &str) -> Result<GobbleConfig, String> {
    BOOK.kind(kind)?;
    Ok(GobbleConfig {
        seats: 1,
        size: if kind.ends_with("5x5") { 5 } else { 4 },
        seconds: SECONDS,
        ..GobbleConfig::default()
    })
}

/// The longest words of the board, their length, and the count of all.
fn longest(game: &Gobble) -> (Vec<String>, usize, usize) {
    let all: Vec<&str> = game.all_words().map(|w| w.word.as_str()).collect();
    let most = all.iter().map(|w| w.len()).max().unwrap_or(0);
    let mut words: Vec<String> = all
        .iter()
        .filter(|w| w.len() == most)
        .map(|w| w.to_string())
        .collect();
    words.sort();
    (words, most, all.len())
}

fn find(
    kind: &str,
    seed: Seed,
    resources: &Resources,
) -> Result<Option<parlor_core::Puzzle>, String> {
    let config = config_of(kind)?;
    let table = Match::<Gobble>::new(config, seed, resources).map_err(|e| e.to_string())?;
    let (answers, most, count) = longest(table.state());
    if most < LEAST_LONGEST || answers.is_empty() || answers.len() > MOST_ANSWERS {
        return Ok(None);
    }
    let board = table.state().board().to_string();
    let mut themes = vec![format!("{most} letters")];
    if answers.iter().any(|w| w.contains("qu")) {
        themes.push("the Qu cell".to_string());
    }
    Ok(Some(parlor_core::Puzzle {
        game: Gobble::INFO.name.to_string(),
        kind: kind.to_string(),
        seed,
        record: serde_json::to_value(table.record()).map_err(|e| e.to_string())?,
        seat: 0,
        key: board.clone(),
        answers: answers.iter().map(|w| w.to_uppercase()).collect(),
        themes,
        proof_size: count as u64,
        proof: serde_json::to_value(Proof {
            board,
            longest: most,
            words: count,
        })
        .map_err(|e| e.to_string())?,
    }))
}

/// The table at the puzzle's board.
fn unpack(
    puzzle: &parlor_core::Puzzle,
    resources: &Resources,
) -> Result<(Proof, Match<Gobble>), String> {
    let (proof, table): (Proof, Match<Gobble>) = puzzle.open(resources)?;
    if table.state().board().to_string() != proof.board {
        return Err("the puzzle's record does not deal its proof's board".into());
    }
    Ok((proof, table))
}

fn check(puzzle: &parlor_core::Puzzle, resources: &Resources) -> Result<(), String> {
    let (proof, table) = unpack(puzzle, resources)?;
    let (answers, most, count) = longest(table.state());
    if (most, count) != (proof.longest, proof.words) {
        return Err(format!(
            "the proof does not hold: the board's longest words have {most} letters, {count} words in all"
        ));
    }
    let answers: Vec<String> = answers.iter().map(|w| w.to_uppercase()).collect();
    if puzzle.answers != answers || answers.len() > MOST_ANSWERS || most < LEAST_LONGEST {
        return Err(format!(
            "the proof does not hold: the longest words are {answers:?}"
        ));
    }
    Ok(())
}

fn judge(
    puzzle: &parlor_core::Puzzle,
    action: &serde_json::Value,
    resources: &Resources,
) -> Result<Judged, String> {
    let (proof, mut table) = unpack(puzzle, resources)?;
    let Ok(GobbleAction::Enter { word }) = serde_json::from_value::<GobbleAction>(action.clone())
    else {
        return Err(
            "a puzzle's answer is a word: {\"type\": \"enter\", \"word\": \"stone\"}".into(),
        );
    };
    // The game judges the word: on the board, in the list, long enough.
    Ok(
        match table.apply(
            Actor::Seat(Seat(0)),
            GobbleAction::Enter { word: word.clone() },
        ) {
            Err(e) => Judged {
                solved: false,
                why: e.to_string(),
            },
            Ok(_) => {
                let found = word.trim().to_ascii_lowercase();
                let letters = found.len();
                if letters == proof.longest {
                    Judged {
                        solved: true,
                        why: format!(
                            "{}: {letters} letters, as long as this board's words go",
                            found.to_uppercase()
                        ),
                    }
                } else {
                    Judged {
                        solved: false,
                        why: format!(
                            "{}: {letters} letters; this board's longest words have {}",
                            found.to_uppercase(),
                            proof.longest
                        ),
                    }
                }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_is_found_proved_and_judged() {
        let resources = Resources::embedded();
        for kind in KINDS {
            let puzzle = (1..200)
                .find_map(|seed| find(kind.name, seed, &resources).unwrap())
                .unwrap_or_else(|| panic!("a {} puzzle in 200 boards", kind.name));
            check(&puzzle, &resources).unwrap();
            let proof: Proof = serde_json::from_value(puzzle.proof.clone()).unwrap();
            let enter = |w: &str| serde_json::json!({"type": "enter", "word": w});
            for answer in &puzzle.answers {
                assert!(
                    judge(&puzzle, &enter(&answer.to_lowercase()), &resources)
                        .unwrap()
                        .solved
                );
            }
            let table = unpack(&puzzle, &resources).unwrap().1;
            if let Some(short) = table
                .state()
                .all_words()
                .find(|w| w.word.len() < proof.longest)
            {
                let j = judge(&puzzle, &enter(&short.word), &resources).unwrap();
                assert!(
                    !j.solved && j.why.contains(&proof.longest.to_string()),
                    "{j:?}"
                );
            }
            let off = judge(&puzzle, &enter("zzzzzz"), &resources).unwrap();
            assert!(!off.solved, "{off:?}");
            assert!(judge(&puzzle, &serde_json::json!({"type": "done"}), &resources).is_err());
            let mut changed = puzzle.clone();
            changed.answers.push("NOTAWORD".into());
            assert!(check(&changed, &resources).is_err());
        }
    }
}
