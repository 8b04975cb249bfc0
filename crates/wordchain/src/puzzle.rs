//! Puzzles: a hand whose best play beats every other word by a clear
//! margin, by score (`best-score`) or by tactical value (`best-tactical`:
//! the score less what the play leaves, docs/rules/wordchain.md).
//!
//! A puzzle is found in a game between two Easy bots from a seed: before
//! each turn, every word the hand and the link card can form is scored
//! ([`crate::bot::search_view`], the bot's exact search, with each word's
//! best cards), and the turns where the best word leads every other word by
//! [`parlor_core::clear_lead`] (by score) or by [`parlor_core::LEAD_POINTS`]
//! (by tactical value, on a turn of one word, where the highest-scoring
//! word is another: the puzzle is to see past the points) are candidates;
//! one is chosen at random. The proof is the best plays in order with their
//! cards, scores and, for `best-tactical`, tactical values. A player solves
//! the puzzle with a play of words the dictionary holds that scores the
//! most, as the game's own helper scores it, or whose tactical value is
//! the most ([`crate::best::tactical_of`], the value the search ranks by).

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
    /// Its tactical value, where the kind ranks by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tactical: Option<i64>,
}

/// The proof of a WORDCHAIN puzzle: the best plays, best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    /// The best plays in order (at most ten).
    pub best: Vec<Scored>,
}

/// The kinds of WORDCHAIN puzzles.
pub const KINDS: &[PuzzleKind] = &[
    PuzzleKind {
        name: "best-score",
        about: "the hand's highest-scoring play on the link card, default rules",
        answer: parlor_core::Answer::FirstMove,
    },
    PuzzleKind {
        name: "best-tactical",
        about: "the hand's best play by tactical value (its score less the link it hands on, the Multicards it spends and the hand it leaves), where the highest score is another word; default rules",
        answer: parlor_core::Answer::FirstMove,
    },
];

/// What a kind ranks plays by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rank {
    Score,
    Tactical,
}

fn rank_of(kind: &str) -> Result<Rank, String> {
    match BOOK.kind(kind)?.name {
        "best-tactical" => Ok(Rank::Tactical),
        _ => Ok(Rank::Score),
    }
}

/// WORDCHAIN's puzzles for hosts ([`parlor_core::Extras::puzzles`]).
pub const BOOK: PuzzleBook = PuzzleBook {
    kinds: KINDS,
    find,
    check,
    judge,
};

/// The seat to play a word now, if it is that moment (on a turn of one
/// word, where the kind ranks by tactical value: a word's value).
fn playing_for(game: &WordChain, rank: Rank) -> Option<Seat> {
    let seat = playing(game)?;
    (rank == Rank::Score || !game.view(Viewer::Seat(seat)).double).then_some(seat)
}

/// The seat to play a word now, if it is that moment.
fn playing(game: &WordChain) -> Option<Seat> {
    let ToAct::One(seat) = game.to_act() else {
        return None;
    };
    let view = game.view(Viewer::Seat(seat));
    (view.phase == "turn" && view.turn == seat.0).then_some(seat)
}

fn scored(p: &Play, rank: Rank) -> Scored {
    Scored {
        word: p.word.clone(),
        cards: p.cards.iter().map(|c| c.text().to_string()).collect(),
        link: p.link,
        score: p.score,
        tactical: (rank == Rank::Tactical).then_some(p.tactical),
    }
}

/// The best plays of the seat to play by `rank`, best first.
fn best_of(
    game: &WordChain,
    seat: Seat,
    resources: &Resources,
    k: usize,
    rank: Rank,
) -> Result<Vec<Scored>, String> {
    let config = game.config();
    let index = crate::best::index_for(resources, &config.lexicon).map_err(|e| e.to_string())?;
    let view = game.view(Viewer::Seat(seat));
    let Some(found) = search_view(&index, &view, &config.score_rules()) else {
        return Ok(Vec::new());
    };
    let plays = match rank {
        Rank::Score => found.by_score(k),
        Rank::Tactical => found.by_tactical(k),
    };
    Ok(plays.iter().map(|p| scored(p, rank)).collect())
}

/// Whether the position makes a puzzle: the best word leads every other
/// word by the margin and, by tactical value, the highest-scoring word is
/// another.
fn holds(
    game: &WordChain,
    seat: Seat,
    resources: &Resources,
    rank: Rank,
    best: &[Scored],
) -> Result<bool, String> {
    let Some(first) = best.first() else {
        return Ok(false);
    };
    let next = best.iter().find(|s| s.word != first.word);
    Ok(match rank {
        Rank::Score => parlor_core::clear_lead(first.score, next.map_or(0, |s| s.score)),
        Rank::Tactical => {
            let value = |s: &Scored| s.tactical.unwrap_or(i64::MIN);
            next.is_none_or(|n| value(first) - value(n) >= i64::from(parlor_core::LEAD_POINTS))
                && best_of(game, seat, resources, 1, Rank::Score)?
                    .first()
                    .is_some_and(|top| top.word != first.word)
        }
    })
}

/// The plays that solve: the best word, with its best cards.
fn answers(best: &[Scored]) -> Vec<String> {
    best.first()
        .map(|s| {
            let value = s
                .tactical
                .map(|t| format!(", tactical value {t}"))
                .unwrap_or_default();
            format!(
                "{} ({}), {} points{value}",
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
    let rank = rank_of(kind)?;
    let config = crate::Config::default();
    let mut table = Match::<WordChain>::new(config, seed, resources).map_err(|e| e.to_string())?;
    let mut bots = agents_for(&table, &[Level::Easy, Level::Easy], seed, resources)
        .map_err(|e| e.to_string())?;
    let mut candidates = positions_where(&mut table, &mut bots, |m| {
        match playing_for(m.state(), rank) {
            Some(seat) => {
                let best = best_of(m.state(), seat, resources, LISTED, rank)?;
                holds(m.state(), seat, resources, rank, &best)
            }
            None => Ok(false),
        }
    })?;
    if candidates.is_empty() {
        return Ok(None);
    }
    let mut rng = GameRng::from_seed(seed);
    let record = candidates.swap_remove(rng.below(candidates.len()));
    let at = Match::replay(&record, resources).map_err(|e| e.to_string())?;
    let seat = playing_for(at.state(), rank).ok_or("not a word's turn")?;
    let best = best_of(at.state(), seat, resources, LISTED, rank)?;
    let first = best.first().ok_or("no play")?;
    Ok(Some(parlor_core::Puzzle {
        game: WordChain::INFO.name.to_string(),
        kind: kind.to_string(),
        seed,
        record: serde_json::to_value(&record).map_err(|e| e.to_string())?,
        seat: seat.0,
        key: key_of(at.state(), seat),
        answers: answers(&best),
        themes: themes(first, rank),
        proof_size: best.len() as u64,
        proof: serde_json::to_value(Proof { best }).map_err(|e| e.to_string())?,
    }))
}

/// What a puzzle teaches: a long word, a Multicard named, seeing past the
/// points.
fn themes(best: &Scored, rank: Rank) -> Vec<String> {
    let mut themes = Vec::new();
    if rank == Rank::Tactical {
        themes.push("not the highest score".to_string());
    }
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

/// The table at the puzzle's position, the seat to play and what the
/// kind ranks by.
fn unpack(
    puzzle: &parlor_core::Puzzle,
    resources: &Resources,
) -> Result<(Proof, Match<WordChain>, Seat, Rank), String> {
    let rank = rank_of(&puzzle.kind)?;
    let (proof, table): (Proof, Match<WordChain>) = puzzle.open(resources)?;
    let seat = playing_for(table.state(), rank)
        .ok_or("the record does not stop before a turn of one word")?;
    if seat.0 != puzzle.seat {
        return Err(format!(
            "the seat to play is {}, not {}",
            seat.0, puzzle.seat
        ));
    }
    Ok((proof, table, seat, rank))
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
    let (proof, table, seat, rank) = unpack(puzzle, resources)?;
    let best = best_of(table.state(), seat, resources, LISTED, rank)?;
    if best != proof.best {
        return Err(format!(
            "the proof does not hold: the best plays are {:?}",
            best.iter()
                .map(|s| (&s.word, s.score, s.tactical))
                .collect::<Vec<_>>()
        ));
    }
    if !holds(table.state(), seat, resources, rank, &best)? {
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
    if rank == Rank::Tactical
        && Some(tactical(&table, seat, &words[0], first.score)?) != first.tactical
    {
        return Err(format!(
            "the proof does not hold: {}'s tactical value is not {:?}",
            first.word, first.tactical
        ));
    }
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

/// The tactical value of one word played by `seat` that scores `score`.
fn tactical(
    table: &Match<WordChain>,
    seat: Seat,
    word: &WordCards,
    score: u32,
) -> Result<i64, String> {
    let hand = table
        .state()
        .view(Viewer::Seat(seat))
        .hand
        .ok_or("the seat to play has no hand")?;
    let cards = word
        .cards
        .iter()
        .map(|c| {
            c.played()
                .ok_or_else(|| format!("{c}: a Multicard is named in a play (*Eh)"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(crate::best::tactical_of(&hand, &cards, word.link, score))
}

fn judge(
    puzzle: &parlor_core::Puzzle,
    action: &serde_json::Value,
    resources: &Resources,
) -> Result<Judged, String> {
    let (proof, table, seat, rank) = unpack(puzzle, resources)?;
    let Ok(Action::Play { words, .. }) = serde_json::from_value::<Action>(action.clone()) else {
        return Err(
            "a puzzle's answer is a play: {\"type\": \"play\", \"words\": [{\"cards\": [\"Kh\", \"Nd\"], \"link\": 0}]}".into(),
        );
    };
    let best = proof.best.first().ok_or("the proof lists no play")?;
    let lexicon = resources
        .lexicon(&table.state().config().lexicon)
        .map_err(|e| e.to_string())?;
    let one = (words.len() == 1).then(|| words[0].clone());
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
            } else if rank == Rank::Tactical {
                let best_value = best.tactical.ok_or("the proof lists no tactical value")?;
                match one {
                    None => Judged {
                        solved: false,
                        why: format!(
                            "{shown}: a tactical value is one word's; this turn's best is {}",
                            best.word.to_uppercase()
                        ),
                    },
                    Some(word) => {
                        let value = tactical(&table, seat, &word, score)?;
                        if value >= best_value {
                            Judged {
                                solved: true,
                                why: format!("{shown} scores {score} and is worth {value} for what it leaves, the most this hand can"),
                            }
                        } else {
                            Judged {
                                solved: false,
                                why: format!(
                                    "{shown} scores {score} but is worth {value} for what it leaves (the link it hands on, the Multicards it spends, the hand it leaves); {} is worth {best_value}",
                                    best.word.to_uppercase()
                                ),
                            }
                        }
                    }
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

    #[test]
    fn a_tactical_puzzle_is_not_the_highest_score_and_is_judged_by_what_it_leaves() {
        let resources = Resources::embedded();
        let puzzle = (1..60)
            .find_map(|seed| find("best-tactical", seed, &resources).unwrap())
            .expect("a tactical puzzle in 60 games");
        check(&puzzle, &resources).unwrap();
        let proof: Proof = serde_json::from_value(puzzle.proof.clone()).unwrap();
        let best = &proof.best[0];
        let value = best.tactical.expect("a tactical value");
        assert!(
            puzzle.answers[0].ends_with(&format!("tactical value {value}")),
            "{:?}",
            puzzle.answers
        );
        let play = |s: &Scored| serde_json::json!({"type": "play", "words": [{"cards": s.cards, "link": s.link}]});
        let right = judge(&puzzle, &play(best), &resources).unwrap();
        assert!(right.solved, "{right:?}");
        // The highest-scoring word is another, and it does not solve.
        let (_, table, seat, _) = unpack(&puzzle, &resources).unwrap();
        let top = best_of(table.state(), seat, &resources, 1, Rank::Score).unwrap();
        assert_ne!(top[0].word, best.word);
        assert!(top[0].score >= best.score);
        let wrong = judge(&puzzle, &play(&top[0]), &resources).unwrap();
        assert!(!wrong.solved, "{wrong:?}");
        assert!(
            wrong.why.contains(&format!("is worth {value}")),
            "{wrong:?}"
        );
        // A proof whose value is changed does not hold.
        let mut changed = puzzle.clone();
        let mut p = proof.clone();
        p.best[0].tactical = Some(value + 1);
        changed.proof = serde_json::to_value(p).unwrap();
        assert!(check(&changed, &resources)
            .unwrap_err()
            .contains("does not hold"));
    }
}
