//! The computer player at `best` wins every game that can be won from the
//! start, whatever the other side plays (where the solver answers in time:
//! small games), under both conventions.

use parlor_core::{
    Actor, AgentContext, Budget, Game, Level, Match, Resources, Seat, ToAct, Viewer,
};
use parlor_sprouts::{Action, Config, Sprouts};
use std::time::Duration;

/// Plays one game: seat 0 at `first`, seat 1 at `second`. Returns the winner.
fn play(config: &Config, first: Level, second: Level, seed: u64) -> Seat {
    let resources = Resources::embedded();
    let mut game: Match<Sprouts> = Match::new(config.clone(), seed, &resources).unwrap();
    let mut agents = [
        Sprouts::agent(config, first, seed, &resources).unwrap(),
        Sprouts::agent(config, second, seed ^ 0xabcd, &resources).unwrap(),
    ];
    while let ToAct::One(seat) = game.state().to_act() {
        let view = game.state().view(Viewer::Seat(seat));
        let legal: Vec<Action> = game.state().legal_actions(seat).unwrap();
        let ctx = AgentContext {
            seat,
            view: &view,
            legal: Some(&legal),
            budget: Budget::time(Duration::from_secs(20)),
        };
        let action = agents[seat.0]
            .choose(&ctx)
            .expect("a move where there is one");
        assert!(legal.contains(&action), "{action:?} is listed");
        game.apply(Actor::Seat(seat), action).unwrap();
    }
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
