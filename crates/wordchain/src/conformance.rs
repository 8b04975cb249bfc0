//! The conformance suite over WORDCHAIN: random tables (dice, challenges,
//! one deck, teams, simple scoring, reshuffles, several deals), played with
//! real words from each hand (found by [`crate::best`]), bluffs, junk plays
//! and referee actions; each seat's hidden hand checked never to reach
//! another seat.

use crate::best::{self, Limits};
use crate::config::Discards;
use crate::scoring::Scoring;
use crate::turns::Phase;
use crate::{Action, Config, WordCards, WordChain};
use parlor_core::conformance::Suite;
use parlor_core::{Actor, Game, GameRng, Seat};

/// A mix of tables on the word list `lexicon`.
pub fn configs(lexicon: &str) -> Vec<Config> {
    let base = Config {
        lexicon: lexicon.to_string(),
        turn_limit: 60,
        ..Config::default()
    };
    vec![
        base.clone(),
        Config {
            dice: 2,
            players: 3,
            once_only: true,
            two_word_names: true,
            ..base.clone()
        },
        Config {
            dice: 1,
            challenges: false,
            scoring: Scoring::Simple,
            hand: 7,
            consonants: 4,
            ..base.clone()
        },
        Config {
            players: 4,
            teams: vec![vec![0, 2], vec![1, 3]],
            one_deck: true,
            hand: 8,
            discards: Discards::Reshuffle,
            target: Some(300),
            ..base.clone()
        },
        Config {
            deals: 3,
            hand: 20,
            consonants: 10,
            turn_limit: 90,
            count_hand: true,
            seniority: true,
            minutes: Some(5),
            target: None,
            ..base
        },
    ]
}

/// The suite for `config`.
pub fn suite(config: Config) -> Suite<'static, WordChain> {
    Suite::new(config).extra(0.6, extra).secrets(secrets)
}

/// A seat's hidden hand, as it would be written if it leaked: the JSON
/// array of its cards (hands of one card are too common to tell).
fn secrets(g: &WordChain, seat: Seat) -> Vec<String> {
    let s = seat.0;
    if g.displayed[s] || g.hands[s].len() < 3 {
        return Vec::new();
    }
    vec![serde_json::to_string(&g.hands[s]).expect("cards serialise")]
}

fn extra(g: &WordChain, rng: &mut GameRng) -> Option<(Actor, Action)> {
    let seat = g.turn;
    let actor = Actor::Seat(Seat(seat));
    match rng.below(20) {
        0 => return Some((Actor::Referee, Action::TimeUp)).filter(|_| rng.chance(0.1)),
        1 => {
            let s = rng.below(g.config.players + 1);
            return Some((Actor::Referee, Action::Forfeit { seat: s })).filter(|_| rng.chance(0.2));
        }
        2 => {
            return Some((
                Actor::Seat(Seat(rng.below(g.config.players))),
                Action::Display,
            ))
        }
        3 => {
            // Junk: cards nobody holds, a link in the wrong place.
            let cards = (0..1 + rng.below(5))
                .map(|_| {
                    crate::card::CardText::parse(["Qh", "*", "Zs", "*Ad", "Ed"][rng.below(5)])
                        .expect("card")
                })
                .collect();
            return Some((
                actor,
                Action::Play {
                    words: vec![WordCards {
                        cards,
                        link: rng.below(6),
                        space: rng.chance(0.2).then(|| rng.below(6)),
                    }],
                    consonants: Some(rng.below(30)),
                },
            ));
        }
        _ => {}
    }
    if !matches!(g.phase, Phase::Turn) {
        return None;
    }
    let link = g.link?;
    let limits = Limits {
        max_from_hand: g.dice_limit().map_or(usize::MAX, |(s, _)| s),
    };
    let hand = &g.hands[seat];
    if rng.chance(0.15) && hand.len() >= 2 {
        // A bluff: the link and two cards of the hand, most likely no word.
        let mut cards = vec![crate::card::CardText::Letter(
            link.letter().unwrap_or(crate::card::Letter::from_index(0)?),
            crate::card::Suit::Hearts,
        )];
        cards[0] = match link {
            crate::card::Card::Letter(l, s) => crate::card::CardText::Letter(l, s),
            crate::card::Card::Multi => crate::card::CardText::Multi(Some((
                crate::card::Letter::from_index(rng.below(26))?,
                crate::card::Suit::Clubs,
            ))),
        };
        for c in hand.iter().take(2) {
            cards.push(match *c {
                crate::card::Card::Letter(l, s) => crate::card::CardText::Letter(l, s),
                crate::card::Card::Multi => crate::card::CardText::Multi(Some((
                    crate::card::Letter::from_index(rng.below(26))?,
                    crate::card::Suit::Spades,
                ))),
            });
        }
        return Some((
            actor,
            Action::Play {
                words: vec![WordCards {
                    cards,
                    link: 0,
                    space: None,
                }],
                consonants: None,
            },
        ));
    }
    let found = best::search(&g.index, hand, link, &g.rules, limits);
    if found.candidates.is_empty() {
        return None;
    }
    let p = &found.play(&found.candidates[rng.below(found.candidates.len())]);
    // Where two-word names are agreed, now and then a word split in two
    // (most splits are not two words: a bluff to challenge).
    let space = (g.config.two_word_names && p.cards.len() >= 4 && rng.chance(0.3))
        .then(|| 1 + rng.below(p.cards.len() - 1));
    let word = WordCards {
        cards: p.cards.iter().map(|c| c.text()).collect(),
        link: p.link,
        space,
    };
    // On a double, now and then the same word twice (each within one die
    // is not checked here: the game refuses what does not fit).
    let words = match g.dice_limit() {
        Some((_, true)) if rng.chance(0.3) => vec![word.clone(), word],
        _ => vec![word],
    };
    let _ = g.to_act();
    Some((
        actor,
        Action::Play {
            words,
            consonants: Some(rng.below(p.cards.len() + 1)),
        },
    ))
}
