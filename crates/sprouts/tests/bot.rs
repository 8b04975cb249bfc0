//! The computer player at `best` wins every game that can be won from the
//! start, whatever the other side plays (where the solver answers in time:
//! small games), under both conventions.

mod common;

use parlor_core::{Game, Level, Seat, Viewer};
use parlor_sprouts::Config;

/// Plays one game: seat 0 at `first`, seat 1 at `second`. Returns the winner.
fn play(config: &Config, first: Level, second: Level, seed: u64) -> Seat {
    let game = common::play_out(config, first, second, seed, |_| {});
    game.state().view(Viewer::Spectator).winner.unwrap()
}

#[test]
fn best_wins_what_can_be_won() {
    // (spots, misère, the seat that wins with perfect play): normal play,
    // the first player wins iff n mod 6 is 3, 4 or 5; misère n = 1..5 is
    // W L L L W.
    let cases = [
        (1, false, 1),
        (2, false, 1),
        (3, false, 0),
        (4, false, 0),
        (1, true, 0),
        (2, true, 1),
        (3, true, 1),
    ];
    for (spots, misere, winner) in cases {
        let config = Config {
            spots,
            misere,
            ..Config::default()
        };
        for seed in 0..6 {
            // The perfect player in the winning seat, a random one against it.
            let (first, second) = if winner == 0 {
                (Level::Best, Level::Easy)
            } else {
                (Level::Easy, Level::Best)
            };
            assert_eq!(
                play(&config, first, second, seed),
                Seat(winner),
                "{spots} spots, misère {misere}, seed {seed}"
            );
        }
    }
}

/// Two perfect players: the side that wins with perfect play wins.
#[test]
fn best_against_best() {
    for (spots, misere, winner) in [(3, false, 0), (2, false, 1), (4, true, 1)] {
        let config = Config {
            spots,
            misere,
            ..Config::default()
        };
        assert_eq!(play(&config, Level::Best, Level::Best, 3), Seat(winner));
    }
}
