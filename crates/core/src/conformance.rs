//! The shared test suite every game runs: random legal play to the end,
//! refused actions change nothing, records replay identically through
//! JSON, views serialise, a forfeit the game offers is accepted.
//!
//! ```
//! use parlor_core::{conformance, Resources};
//! # use parlor_core::doc_nim::Nim;
//! conformance::check::<Nim>(&Default::default(), 0..20, &Resources::embedded(), &mut conformance::no_extra);
//! ```

use crate::{Actor, Game, GameRng, Match, Record, Resources, Seat, Seed, ToAct, Viewer};

/// A source of actions that random play cannot find in
/// [`Game::legal_actions`]: free-text entries, referee actions such as a
/// round clock running out. Called when the listed actions offer nothing.
pub type Extra<'a, G> = dyn FnMut(&G, &mut GameRng) -> Option<(Actor, <G as Game>::Action)> + 'a;

/// For games whose legal actions can always be listed.
pub fn no_extra<G: Game>(_: &G, _: &mut GameRng) -> Option<(Actor, G::Action)> {
    None
}

/// Every viewer's view as JSON, the fingerprint of a state from outside.
pub fn views<G: Game>(state: &G) -> Vec<String> {
    let mut out =
        vec![serde_json::to_string(&state.view(Viewer::Spectator)).expect("view serialises")];
    for s in 0..state.seats() {
        out.push(
            serde_json::to_string(&state.view(Viewer::Seat(Seat(s)))).expect("view serialises"),
        );
    }
    out.push(format!("{:?} {:?}", state.to_act(), state.outcome()));
    out
}

/// Plays one game with random legal actions (and `extra` where none are
/// listed) until it ends or `max_actions` were applied, checking on the way
/// that refused actions change nothing.
pub fn play_randomly<G: Game>(
    config: &G::Config,
    seed: Seed,
    resources: &Resources,
    max_actions: usize,
    extra: &mut Extra<'_, G>,
) -> Match<G> {
    let mut m = Match::<G>::new(config.clone(), seed, resources).expect("config is valid");
    let mut rng = GameRng::from_seed(seed ^ 0x9e37_79b9_7f4a_7c15);
    for _ in 0..max_actions {
        let to_act = m.state().to_act();
        if to_act == ToAct::Over {
            assert!(
                m.state().outcome().is_some(),
                "a finished game has an outcome"
            );
            break;
        }
        assert_ne!(to_act, ToAct::Chance, "a Match resolves chance itself");
        // A forfeit the game offers is one the referee may apply now.
        for seat in (0..m.state().seats()).map(Seat) {
            if let Some(f) = m.state().forfeit(seat) {
                let mut copy = m.state().clone();
                if let Err(e) = copy.apply(Actor::Referee, f.clone()) {
                    panic!("the forfeit {f:?} of {seat} was refused: {e}");
                }
            }
        }
        let mut options: Vec<(Actor, G::Action)> = Vec::new();
        for seat in to_act.seats() {
            for a in m.state().legal_actions(seat).unwrap_or_default() {
                options.push((Actor::Seat(seat), a));
            }
        }
        let choice = if options.is_empty() {
            extra(m.state(), &mut rng)
        } else {
            Some(options.swap_remove(rng.below(options.len())))
        };
        let Some((actor, action)) = choice else { break };
        let before = views(m.state());
        let len = m.record().actions.len();
        match m.apply(actor, action.clone()) {
            Ok(_) => {}
            Err(e) => {
                assert_eq!(
                    views(m.state()),
                    before,
                    "refused {action:?} ({e}) changed the state"
                );
                assert_eq!(m.record().actions.len(), len, "a refused action was logged");
            }
        }
    }
    m
}

/// The whole suite over several seeds.
pub fn check<G: Game>(
    config: &G::Config,
    seeds: impl IntoIterator<Item = Seed>,
    resources: &Resources,
    extra: &mut Extra<'_, G>,
) {
    for seed in seeds {
        let m = play_randomly(config, seed, resources, 10_000, extra);
        let json = m.record().to_json();
        let record = Record::<G>::from_json(&json).expect("record reads back");
        assert_eq!(&record, m.record(), "record JSON round trip");
        let again = Match::<G>::replay(&record, resources).expect("record replays");
        assert_eq!(
            views(again.state()),
            views(m.state()),
            "replay reproduces the state (seed {seed})"
        );
        let config_json = serde_json::to_string(config).expect("config serialises");
        let config_back: G::Config = serde_json::from_str(&config_json).expect("config reads back");
        assert_eq!(&config_back, config, "config JSON round trip");
    }
}
