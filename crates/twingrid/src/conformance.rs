//! The conformance suite over Twin Grids: tables of several widths and
//! lengths, played with the bot's placements, random dictionary words,
//! fake words, challenges, junk and referee forfeits.

use crate::bot::{placements, Query};
use crate::turns::Phase;
use crate::{Action, Config, TwinGrids};
use parlor_core::conformance::Suite;
use parlor_core::{Actor, GameRng, Seat};

/// A mix of tables on the word list `lexicon`.
pub fn configs(lexicon: &str) -> Vec<Config> {
    let base = Config {
        lexicon: lexicon.to_string(),
        ..Config::default()
    };
    vec![
        Config {
            turns: 4,
            ..base.clone()
        },
        Config {
            width: 5,
            turns: 6,
            challenges: false,
            ..base.clone()
        },
        Config {
            width: 12,
            turns: 3,
            anagram_bonus: 0,
            vertical: crate::grid::Vertical::WholeColumn,
            ..base
        },
    ]
}

/// The suite for `config`.
pub fn suite(config: Config) -> Suite<'static, TwinGrids> {
    Suite::new(config).extra(0.5, extra)
}

fn extra(g: &TwinGrids, rng: &mut GameRng) -> Option<(Actor, Action)> {
    let seat = |r: usize| Actor::Seat(Seat(g.seat_of()[r]));
    let junk = rng.below(12);
    if junk == 0 && rng.chance(0.1) {
        return Some((Actor::Referee, Action::Forfeit { seat: rng.below(3) }));
    }
    if junk == 1 {
        let word = ["", "Q", "abc1", "zzzzzzzzzzzzzzzzzzzzzz"][rng.below(4)].into();
        return Some((
            seat(rng.below(2)),
            Action::Play {
                word,
                column: rng.below(25),
            },
        ));
    }
    let Phase::Turn(role) = g.phase else {
        return None;
    };
    let actor = seat(role);
    if g.challengeable.is_some() && rng.chance(0.2) {
        return Some((actor, Action::Challenge));
    }
    let width = g.rules().width;
    if rng.chance(0.15) {
        // A fake word.
        let len = 2 + rng.below(width.min(6) - 1);
        let word: String = (0..len)
            .map(|_| char::from(b'a' + rng.below(26) as u8))
            .collect();
        return Some((
            actor,
            Action::Play {
                column: rng.below(width - len + 1),
                word,
            },
        ));
    }
    let words = g.lexicon().words().len();
    if rng.chance(0.3) {
        let w = g
            .lexicon()
            .words()
            .nth(rng.below(words))
            .unwrap_or("at")
            .to_string();
        return Some((
            actor,
            Action::Play {
                column: rng.below(width + 1),
                word: w,
            },
        ));
    }
    let against = g.against(role).to_string();
    let first = role == 1 && g.taken[1] == 0;
    let q = Query {
        against: &against,
        first,
        anagram_bonus: g.rules().anagram_bonus,
        vertical: g.rules().vertical,
        k: 5,
    };
    let allowed = |w: &str| g.refusal(w).is_none();
    let found = placements(&g.words, &g.grids()[role], g.lexicon(), &q, &allowed);
    let p = found.get(rng.below(found.len().max(1)))?;
    Some((
        actor,
        Action::Play {
            word: p.word.clone(),
            column: p.column,
        },
    ))
}
