//! Gobble under the shared conformance suite ([`parlor_core::conformance`]):
//! the configs it is run with, the entries random play makes (the board's
//! real words, junk, words of other boards), `Done`, the referee's
//! `EndRound`, and each seat's secret (the words only it has entered, until
//! the round is over). Shared by the tests and `parlor conformance gobble`.

use crate::{Gobble, GobbleAction, GobbleConfig};
use parlor_core::conformance::Suite;
use parlor_core::{Actor, Game, GameRng, Seat};

/// 4x4 and 5x5 boards, 1 to 3 seats, boards drawn from the seed, on `lexicon`.
pub fn configs(lexicon: &str) -> Vec<GobbleConfig> {
    let mut out = Vec::new();
    for size in [4, 5] {
        for seats in 1..=3 {
            out.push(GobbleConfig {
                seats,
                size,
                lexicon: lexicon.into(),
                ..GobbleConfig::default()
            });
        }
    }
    out
}

const JUNK: &[&str] = &[
    "",
    "  ",
    "xq",
    "zzz",
    "qu",
    "QUEEN",
    "a",
    "abacus",
    "Cat",
    " tea ",
    "é",
    "9",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];

/// One random submission: mostly a real word of the board from a seat still
/// searching, sometimes junk, a word twice, `Done`, a seat out of range, or
/// the referee ending the round.
pub fn extra(g: &Gobble, rng: &mut GameRng) -> Option<(Actor, GobbleAction)> {
    let seats = g.seats();
    let searching: Vec<usize> = (0..seats).filter(|&s| !g.seats_done()[s]).collect();
    let seat = if !searching.is_empty() && rng.chance(0.9) {
        searching[rng.below(searching.len())]
    } else {
        rng.below(seats + 1)
    };
    let actor = Actor::Seat(Seat(seat));
    let words = g.words_len();
    Some(match rng.below(40) {
        0 => (Actor::Referee, GobbleAction::EndRound),
        1 => (actor, GobbleAction::EndRound),
        2 | 3 => (actor, GobbleAction::Done),
        4..=7 => (
            actor,
            GobbleAction::Enter {
                word: JUNK[rng.below(JUNK.len())].to_string(),
            },
        ),
        8 if seat < seats && !g.entries()[seat].is_empty() => {
            let mine = &g.entries()[seat];
            (
                actor,
                GobbleAction::Enter {
                    word: mine[rng.below(mine.len())].to_uppercase(),
                },
            )
        }
        _ if words > 0 => {
            let w = g.all_words().nth(rng.below(words)).expect("a word");
            (
                actor,
                GobbleAction::Enter {
                    word: w.word.clone(),
                },
            )
        }
        _ => (actor, GobbleAction::Done),
    })
}

/// Words that are also names in the JSON of views and events (or the
/// scoring rule's value): a seat entering `seat` reveals nothing by a
/// view's `"seat"` key.
fn json_names(g: &Gobble) -> Vec<String> {
    let mut names: Vec<String> = [
        "type",
        "seat",
        "words",
        "word",
        "accepted",
        "seat_done",
        "round_over",
        "scores",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if let Ok(serde_json::Value::Object(view)) =
        serde_json::to_value(g.view(parlor_core::Viewer::Spectator))
    {
        names.extend(view.keys().cloned());
        if let Some(serde_json::Value::String(s)) = view.get("scoring") {
            names.push(s.clone());
        }
    }
    names
}

/// Seat `seat`'s secret while the round runs: the words on its list that
/// no other seat has entered, as JSON strings (but for words that are also
/// names in the JSON, see `json_names`).
pub fn secrets(g: &Gobble, seat: Seat) -> Vec<String> {
    if g.results().is_some() {
        return Vec::new();
    }
    let names = json_names(g);
    let entries = g.entries();
    entries[seat.0]
        .iter()
        .filter(|w| {
            (0..entries.len())
                .filter(|&o| o != seat.0)
                .all(|o| !entries[o].contains(w))
                && !names.contains(w)
        })
        .map(|w| format!("\"{w}\""))
        .collect()
}

/// The suite for `config` with [`extra`] entries and [`secrets`].
pub fn suite(config: GobbleConfig) -> Suite<'static, Gobble> {
    Suite::new(config).extra(1.0, extra).secrets(secrets)
}
