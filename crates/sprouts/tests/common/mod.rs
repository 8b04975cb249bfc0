//! What the Sprouts tests share: a game between two computer players.

use parlor_core::{Actor, AgentContext, Budget, Game, Level, Match, Resources, ToAct, Viewer};
use parlor_sprouts::{Action, Config, Sprouts};
use std::time::Duration;

/// Plays a game to its end, seat 0 at `first` and seat 1 at `second`
/// (each with 20 s a move), calling `before` with the game before every
/// move. Every move chosen must be a listed one.
pub fn play_out(
    config: &Config,
    first: Level,
    second: Level,
    seed: u64,
    mut before: impl FnMut(&Match<Sprouts>),
) -> Match<Sprouts> {
    let resources = Resources::embedded();
    let mut game: Match<Sprouts> = Match::new(config.clone(), seed, &resources).unwrap();
    let mut agents = [
        Sprouts::agent(config, first, seed, &resources).unwrap(),
        Sprouts::agent(config, second, seed ^ 0xabcd, &resources).unwrap(),
    ];
    while let ToAct::One(seat) = game.state().to_act() {
        before(&game);
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
    game
}
