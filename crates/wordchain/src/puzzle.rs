//! Puzzles: a hand whose best play by score beats every other word by a
//! clear margin.
//!
//! A puzzle is found in a game between two Easy bots from a seed: before
//! each turn, every word the hand and the link card can form is scored
//! ([`crate::bot::search_view`], the bot's exact search, with each word's
//! best cards), and the turns where the best word leads every other word by
//! [`parlor_core::clear_lead`] are candidates; one is chosen at random. The
//! proof is the best plays in order with their cards and scores. A player
//! solves the puzzle with a play that scores the most, as the game's own
//! helper scores it, of words the dictionary holds.

use crate::best::Play;
use crate::bot::search_view;
use crate::{Action, PlayPreview, PlayQuery, WordCards, WordChain};
use parlor_core::selfplay::{agents_for, positions_where};
use parlor_core::{
    Budget, Game, GameRng, Judged, Level, Match, PuzzleBook, PuzzleKind, Resources, Seat, Seed,
    ToAct, Viewer,
};
use serde::{Deserialize, Serialize};

/// How many of the best plays a proof lists.
const LISTED: usize = 10;

/// A play as a proof lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scored {
    /// The word.
    pub word: String,
    /// The cards in order, in the card notation, Multicards named.
    pub cards: Vec<String>,
    /// Where the link card stands.
    pub link: usize,
    /// The play's score.
    pub score: u32,
}

/// The proof of a WORDCHAIN puzzle: the best plays, best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    /// The best plays in order (at most ten).
    pub best: Vec<Scored>,
}

/// The kinds of WORDCHAIN puzzles.
pub const KINDS: &[PuzzleKind] = &[PuzzleKind {
    name: "best-score",
    about: "the hand's highest-scoring play on the link card, default rules",
    answer: parlor_core::Answer::FirstMove,
}];

/// WORDCHAIN's puzzles for hosts ([`parlor_core::Extras::puzzles`]).
pub const BOOK: PuzzleBook = PuzzleBook {
    kinds: KINDS,
    find,
    check,
    judge,
};

/// The seat to play a word now, if it is that moment.
fn playing(game: &WordChain) -> Option<Seat> {
    let ToAct::One(seat) = game.to_act() else {
        return None;
    };
    let view = game.view(Viewer::Seat(seat));
    (view.phase == "turn" && view.turn == seat.0).then_some(seat)
}

fn scored(p: &Play) -> Scored {
    Scored {
        word: p.word.clone(),
        cards: p.cards.iter().map(|c| c.text().to_string()).collect(),
        link: p.link,
        score: p.score,
    }
}

/// The best plays of the seat to play, best first.
fn best_of(
    game: &WordChain,
    seat: Seat,
    resources: &Resources,
    k: usize,
) -> Result<Vec<Scored>, String> {
    let config = game.config();
    let index = crate::best::index_for(resources, &config.lexicon).map_err(|e| e.to_string())?;
    let view = game.view(Viewer::Seat(seat));
    let Some(found) = search_view(&index, &view, &config.score_rules()) else {
        return Ok(Vec::new());
    };
    Ok(found.by_score(k).iter().map(scored).collect())
}

/// Whether the best word leads every other word by the margin.
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

/// The plays that solve: the best word, with its best cards.
fn answers(best: &[Scored]) -> Vec<String> {
    best.first()
        .map(|s| {
            format!(
                "{} ({}), {} points",
                s.word.to_uppercase(),
                s.cards.join(" "),
                s.score
            )
        })
        .into_iter()
        .collect()
}

/// What makes two puzzles the same: the hand, the link, what the throw
/// allows, and the words played that stand.
fn key_of(game: &WordChain, seat: Seat) -> String {
    let view = game.view(Viewer::Seat(seat));
    let mut hand: Vec<String> = view.hand.iter().flatten().map(|c| c.to_string()).collect();
    hand.sort();
    let played: Vec<&str> = crate::bot::standing_words(&view).collect();
    format!(
        "{}|{}|{:?}|{}",
        hand.join(" "),
        view.link.map(|c| c.to_string()).unwrap_or_default(),
        view.max_from_hand,
        played.join(",")
    )
}

fn find(
    kind: &str,
    seed: Seed,
    resources: &Resources,
) -> Result<Option<parlor_core::Puzzle>, String> {
    BOOK.kind(kind)?;
    let config = crate::Config::default();
    let mut table = Match::<WordChain>::new(config, seed, resources).map_err(|e| e.to_string())?;
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
    let first = best.first().ok_or("no play")?;
    Ok(Some(parlor_core::Puzzle {
        game: WordChain::INFO.name.to_string(),
        kind: kind.to_string(),
        seed,
        record: serde_json::to_value(&record).map_err(|e| e.to_string())?,
        seat: seat.0,
        key: key_of(at.state(), seat),
        answers: answers(&best),
        themes: themes(first),
        proof_size: best.len() as u64,
        proof: serde_json::to_value(Proof { best }).map_err(|e| e.to_string())?,
    }))
}

/// What a puzzle teaches: a long word, a Multicard named.
fn themes(best: &Scored) -> Vec<String> {
    let mut themes = Vec::new();
    if best.word.len() >= 7 {
        themes.push("a long word".to_string());
    }
    if best.cards.iter().any(|c| c.starts_with('*')) {
        themes.push("name a Multicard".to_string());
    }
    if best.link > 0 {
        themes.push("the link card inside the word".to_string());
    }
    themes
}

/// The table at the puzzle's position, and the seat to play.
fn unpack(
    puzzle: &parlor_core::Puzzle,
    resources: &Resources,
) -> Result<(Proof, Match<WordChain>, Seat), String> {
    let (proof, table): (Proof, Match<WordChain>) = puzzle.open(resources)?;
    let seat = playing(table.state()).ok_or("the record does not stop before a turn")?;
    if seat.0 != puzzle.seat {
        return Err(format!(
            "the seat to play is {}, not {}",
            seat.0, puzzle.seat
        ));
    }
    Ok((proof, table, seat))
}

/// The game's own score of a play, or its refusal.
fn preview(
    table: &Match<WordChain>,
    seat: Seat,
    words: Vec<WordCards>,
) -> Result<PlayPreview, String> {
    table
        .state()
        .assist(Viewer::Seat(seat), &PlayQuery { words }, &Budget::UNLIMITED)
        .map_err(|e| e.to_string())
}

fn check(puzzle: &parlor_core::Puzzle, resources: &Resources) -> Result<(), String> {
    let (proof, table, seat) = unpack(puzzle, resources)?;
    let best = best_of(table.state(), seat, resources, LISTED)?;
    if best != proof.best {
        return Err(format!(
            "the proof does not hold: the best plays are {:?}",
            best.iter().map(|s| (&s.word, s.score)).collect::<Vec<_>>()
        ));
    }
    if !lead(&best) {
        return Err("the proof does not hold: the best does not lead by the margin".into());
    }
    let first = &best[0];
    let cards = first
        .cards
        .iter()
        .map(|c| crate::card::CardText::parse(c).map_err(|e| format!("{c}: {e}")))
        .collect::<Result<Vec<_>, String>>()?;
    let words = vec![WordCards {
        cards,
        link: first.link,
        space: None,
    }];
    match preview(&table, seat, words)? {
        PlayPreview::Scored { score, .. } if score == first.score => {}
        other => {
            return Err(format!(
                "the proof does not hold: the game scores {} as {other:?}",
                first.word
            ))
        }
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
    let Ok(Action::Play { words, .. }) = serde_json::from_value::<Action>(action.clone()) else {
        return Err(
            "a puzzle's answer is a play: {\"type\": \"play\", \"words\": [{\"cards\": [\"Kh\", \"Nd\"], \"link\": 0}]}".into(),
        );
    };
    let best = proof.best.first().ok_or("the proof lists no play")?;
    let lexicon = resources
        .lexicon(&table.state().config().lexicon)
        .map_err(|e| e.to_string())?;
    Ok(match preview(&table, seat, words)? {
        PlayPreview::Refused { refusal } => Judged {
            solved: false,
            why: format!("the play is refused: {refusal}"),
        },
        PlayPreview::Scored { score, words } => {
            let shown: Vec<String> = words.iter().map(|w| w.word.to_uppercase()).collect();
            let shown = shown.join(" + ");
            if let Some(w) = words
                .iter()
                .find(|w| !w.word.split(' ').all(|x| lexicon.contains(x)))
            {
                Judged {
                    solved: false,
                    why: format!(
                        "{}: not in the dictionary, a challenge takes it off",
                        w.word.to_uppercase()
                    ),
                }
            } else if score >= best.score {
                Judged {
                    solved: true,
                    why: format!("{shown} scores {score}, the most this hand can"),
                }
            } else {
                Judged {
                    solved: false,
                    why: format!("{shown} scores {score}; this hand can score {}", best.score),
                }
            }
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
            .find_map(|seed| find("best-score", seed, &resources).unwrap())
            .expect("a puzzle in 30 games");
        check(&puzzle, &resources).unwrap();
        assert_eq!(
            find("best-score", puzzle.seed, &resources).unwrap(),
            Some(puzzle.clone())
        );
        let proof: Proof = serde_json::from_value(puzzle.proof.clone()).unwrap();
        let play = |s: &Scored| serde_json::json!({"type": "play", "words": [{"cards": s.cards, "link": s.link}]});
        let right = judge(&puzzle, &play(&proof.best[0]), &resources).unwrap();
        assert!(right.solved, "{right:?}");
        if let Some(other) = proof.best.iter().find(|s| s.word != proof.best[0].word) {
            let wrong = judge(&puzzle, &play(other), &resources).unwrap();
            assert!(!wrong.solved, "{wrong:?}");
            assert!(
                wrong.why.contains(&proof.best[0].score.to_string()),
                "{wrong:?}"
            );
        }
        assert!(judge(&puzzle, &serde_json::json!({"type": "pass"}), &resources).is_err());
        let mut changed = puzzle.clone();
        let mut p = proof.clone();
        p.best[0].score += 1;
        changed.proof = serde_json::to_value(p).unwrap();
        assert!(check(&changed, &resources)
            .unwrap_err()
            .contains("does not hold"));
    }
}
