//! The solver's verdicts on a finished game's moves, through the game's
//! helper (`assist`): consistent from one move to the next, a perfect
//! player never gives a win away, and nothing is said during play.

mod common;

use parlor_core::{Budget, DynMatch, Game, Level, Match, Viewer};
use parlor_sprouts::{Config, Sprouts};
use serde_json::{json, Value};
use std::time::Duration;

fn verdicts(game: &Match<Sprouts>) -> Result<Value, String> {
    // As a host asks: the query and the answer as JSON.
    DynMatch::assist_json(
        game,
        Viewer::Spectator,
        &json!({}),
        &Budget::time(Duration::from_secs(20)),
    )
    .map_err(|e| e.to_string())
}

/// A game of `first` against `second`, with the verdicts asked before
/// every move (refused) and after the end.
fn game(config: &Config, first: Level, second: Level, seed: u64) -> (Match<Sprouts>, Value) {
    let game = common::play_out(config, first, second, seed, |g| {
        let refused = verdicts(g).unwrap_err();
        assert!(refused.contains("once the game is over"), "{refused}");
    });
    let v = verdicts(&game).unwrap();
    (game, v)
}

#[test]
fn verdicts_follow_the_game() {
    for (spots, misere) in [(3, false), (4, false), (3, true)] {
        let config = Config {
            spots,
            misere,
            ..Config::default()
        };
        for seed in 0..4 {
            let (g, v) = game(&config, Level::Easy, Level::Easy, seed);
            assert_eq!(v["complete"], true, "{v}");
            let moves = v["moves"].as_array().unwrap();
            assert_eq!(moves.len(), g.state().view(Viewer::Spectator).moves.len());
            // Known from the start: normal 3 and 4 spots, first player wins;
            // misère 3 spots, second.
            assert_eq!(v["first_player_wins"], json!(!misere), "{spots} {misere}");
            for w in moves.windows(2) {
                // What one player keeps after a move is what the other
                // lacks before the next.
                assert_eq!(
                    w[0]["wins_after"].as_bool(),
                    w[1]["could_win"].as_bool().map(|b| !b)
                );
            }
            for m in moves {
                let mistake = m["could_win"] == true && m["wins_after"] == false;
                assert_eq!(m["mistake"], mistake);
            }
            // The last mover's fate is the outcome.
            let last = moves.last().unwrap();
            let winner = g.state().view(Viewer::Spectator).winner.unwrap();
            assert_eq!(last["wins_after"], json!(last["seat"] == json!(winner.0)));
        }
    }
}

#[test]
fn a_perfect_player_gives_no_win_away() {
    let config = Config {
        spots: 4,
        misere: false,
        ..Config::default()
    };
    for seed in 0..3 {
        let (_, v) = game(&config, Level::Best, Level::Easy, seed);
        for m in v["moves"].as_array().unwrap() {
            if m["seat"] == 0 {
                assert_eq!(m["mistake"], false, "{m}");
                assert_eq!(m["could_win"], true, "{m}");
            }
        }
    }
}
