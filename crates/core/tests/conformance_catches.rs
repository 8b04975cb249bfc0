//! The conformance suite fails broken games: one tiny game, and a variant
//! of it for each bug the suite exists to catch.

use parlor_core::conformance::Suite;
use parlor_core::{
    Actor, ConfigError, ErrorKind, Game, GameError, GameInfo, GameRng, Needs, Outcome, Resources,
    Seat, Seed, ToAct, Viewer,
};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// Which bug the tiny game has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
enum Bug {
    #[default]
    None,
    /// Lists a take of 3, which apply refuses.
    ListsRefused,
    /// Lists and accepts taking 0: play can go on past the bound.
    NeverEnds,
    /// Declares a bound too small for its real length.
    BoundTooSmall,
    /// The spectator's view shows seat 0's secret.
    LeaksInSpectatorView,
    /// `event_view` shows a seat's secret to everyone.
    LeaksInEvent,
    /// A refused move out of turn still counts a strike.
    RefusalChangesState,
    /// Draws the secrets from a global counter, not the state's generator.
    DivergesOnReplay,
    /// Panics on a take above 1,000.
    PanicsOnJson,
    /// Stops with nobody able to act, not over.
    Stalls,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
struct Config {
    pile: u32,
    bug: Bug,
}

#[derive(Debug, thiserror::Error)]
#[error("refused: {0}")]
struct Refused(&'static str, ErrorKind);

impl GameError for Refused {
    fn kind(&self) -> ErrorKind {
        self.1
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Action {
    Take(u32),
}

#[derive(Clone, Debug, Serialize)]
struct Event {
    seat: Seat,
    took: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    secret: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
struct View {
    pile: u32,
    turn: usize,
    strikes: u32,
    my_secret: Option<String>,
    others: Option<String>,
}

/// Take 1 or 2 stones in turn; each seat holds a secret word dealt at the
/// start, shown in its own view and in its own events only.
#[derive(Clone, Debug)]
struct Tiny {
    config: Config,
    pile: u32,
    turn: usize,
    strikes: u32,
    secrets: [String; 2],
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

impl Tiny {
    fn bug(&self) -> Bug {
        self.config.bug
    }
}

impl Game for Tiny {
    type Config = Config;
    type Action = Action;
    type View = View;
    type Event = Event;
    type Error = Refused;
    type Query = parlor_core::NoHelper;
    type Answer = parlor_core::NoHelper;

    const INFO: GameInfo = GameInfo {
        name: "tiny",
        title: "Tiny",
        min_seats: 2,
        max_seats: 2,
    };

    fn new(config: &Config, seed: Seed, _: &Resources) -> Result<Self, ConfigError> {
        let mut rng = GameRng::from_seed(seed);
        let mut secret = || {
            let n = if config.bug == Bug::DivergesOnReplay {
                COUNTER.fetch_add(1, Ordering::Relaxed)
            } else {
                rng.next_u64() % 1_000_000
            };
            format!("secret{n}")
        };
        Ok(Tiny {
            config: config.clone(),
            pile: config.pile.max(1),
            turn: 0,
            strikes: 0,
            secrets: [secret(), secret()],
        })
    }
    fn config(&self) -> &Config {
        &self.config
    }
    fn needs(_: &Config) -> Needs {
        Needs::seats(2)
    }
    fn action_bound(&self) -> usize {
        if self.bug() == Bug::BoundTooSmall {
            return (self.pile as usize / 2).max(1) - 1;
        }
        self.pile as usize
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_act(&self) -> ToAct {
        if self.pile == 0 {
            ToAct::Over
        } else {
            ToAct::One(Seat(self.turn))
        }
    }
    fn legal_actions(&self, seat: Seat) -> Option<Vec<Action>> {
        if self.pile == 0 || seat.0 != self.turn {
            return Some(vec![]);
        }
        let mut out: Vec<Action> = (1..=self.pile.min(2)).map(Action::Take).collect();
        match self.bug() {
            Bug::ListsRefused => out.push(Action::Take(3)),
            Bug::NeverEnds => out.push(Action::Take(0)),
            Bug::Stalls if self.pile == 1 => out.clear(),
            _ => {}
        }
        Some(out)
    }
    fn apply(&mut self, actor: Actor, action: Action) -> Result<Vec<Event>, Refused> {
        let Action::Take(n) = action;
        if self.bug() == Bug::PanicsOnJson {
            assert!(n < 1000, "take {n}: too many");
        }
        if self.pile == 0 {
            return Err(Refused("over", ErrorKind::GameOver));
        }
        if actor != Actor::Seat(Seat(self.turn)) {
            if self.bug() == Bug::RefusalChangesState {
                self.strikes += 1;
            }
            return Err(Refused("not your turn", ErrorKind::NotYourTurn));
        }
        let min = if self.bug() == Bug::NeverEnds { 0 } else { 1 };
        if n < min || n > 2 || n > self.pile {
            return Err(Refused("take 1 or 2", ErrorKind::Illegal));
        }
        if self.bug() == Bug::Stalls && self.pile == 1 {
            return Err(Refused("stalled", ErrorKind::Illegal));
        }
        self.pile -= n;
        let seat = Seat(self.turn);
        self.turn = 1 - self.turn;
        Ok(vec![Event {
            seat,
            took: n,
            secret: Some(self.secrets[seat.0].clone()),
        }])
    }
    fn view(&self, viewer: Viewer) -> View {
        View {
            pile: self.pile,
            turn: self.turn,
            strikes: self.strikes,
            my_secret: match viewer {
                Viewer::Seat(s) => Some(self.secrets[s.0].clone()),
                Viewer::Spectator => None,
            },
            others: (viewer == Viewer::Spectator && self.bug() == Bug::LeaksInSpectatorView)
                .then(|| self.secrets[0].clone()),
        }
    }
    fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
        let mut e = event.clone();
        if viewer != Viewer::Seat(e.seat) && !e.secret.as_deref().unwrap_or("").ends_with('!') {
            e.secret = None;
        }
        Some(e)
    }
    fn outcome(&self) -> Option<Outcome> {
        // Whoever took the last stone (the seat before the one to move) wins.
        (self.pile == 0).then(|| Outcome {
            ranking: vec![vec![Seat(1 - self.turn)], vec![Seat(self.turn)]],
            scores: None,
        })
    }
}

/// Seat secrets are marked with `!` when event_view must (wrongly) pass them.
fn leak_marker(mut g: Tiny) -> Tiny {
    for s in &mut g.secrets {
        s.push('!');
    }
    g
}

fn suite(bug: Bug) -> Suite<'static, Tiny> {
    Suite::new(Config { pile: 12, bug })
        .secrets(|g: &Tiny, seat| vec![g.secrets[seat.0].clone()])
        .extra(0.2, |_: &Tiny, rng: &mut GameRng| {
            let actor = Actor::Seat(Seat(rng.below(2)));
            Some((actor, Action::Take(rng.below(4) as u32)))
        })
}

/// Runs the suite over 40 seeds; the panic message if it fails.
fn failure(suite: Suite<'static, Tiny>) -> Option<String> {
    failure_of(suite)
}

fn failure_of<G: Game>(mut suite: Suite<'static, G>) -> Option<String> {
    let r = Resources::embedded();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        suite.check(0..40, &r);
    }));
    result.err().map(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

fn assert_caught(bug: Bug, expected: &str) {
    let msg = failure(suite(bug)).unwrap_or_else(|| panic!("{bug:?} passed the suite"));
    assert!(msg.contains(expected), "{bug:?}: {msg}");
    assert!(
        msg.contains("seed "),
        "{bug:?}: the message names the seed: {msg}"
    );
}

#[test]
fn the_correct_game_passes() {
    let totals = suite(Bug::None).check(0..200, &Resources::embedded());
    assert_eq!(totals.games, 200);
    assert!(totals.refused > 0 && totals.json_probes > 0 && totals.listed_checked > 0);
}

#[test]
fn a_listed_action_that_apply_refuses_fails() {
    assert_caught(Bug::ListsRefused, "listed action Take(3) was refused");
}

#[test]
fn a_game_that_never_ends_fails() {
    assert_caught(Bug::NeverEnds, "more than its action_bound");
}

#[test]
fn a_game_longer_than_its_bound_fails() {
    assert_caught(Bug::BoundTooSmall, "more than its action_bound");
}

#[test]
fn a_secret_in_the_spectator_view_fails() {
    assert_caught(Bug::LeaksInSpectatorView, "shows in the view of Spectator");
}

#[test]
fn a_secret_in_an_event_fails() {
    // LeakyTiny's event_view passes every seat's secret to everyone.
    let msg = failure_of(
        Suite::<LeakyTiny>::new(Config {
            pile: 12,
            bug: Bug::LeaksInEvent,
        })
        .secrets(|g: &LeakyTiny, seat| vec![g.0.secrets[seat.0].clone()]),
    )
    .expect("a leak in an event fails");
    assert!(msg.contains("shows in the events of"), "{msg}");
}

#[test]
fn a_refusal_that_changes_the_state_fails() {
    assert_caught(Bug::RefusalChangesState, "changed the state");
}

#[test]
fn a_replay_that_diverges_fails() {
    assert_caught(Bug::DivergesOnReplay, "replay diverges");
}

#[test]
fn a_panic_on_json_fails() {
    assert_caught(Bug::PanicsOnJson, "panicked on the JSON action");
}

#[test]
fn a_game_that_stalls_before_its_end_fails() {
    assert_caught(Bug::Stalls, "not over");
}

/// Tiny with secrets that `event_view` passes through to everyone.
#[derive(Clone, Debug)]
struct LeakyTiny(Tiny);

impl Game for LeakyTiny {
    type Config = Config;
    type Action = Action;
    type View = View;
    type Event = Event;
    type Error = Refused;
    type Query = parlor_core::NoHelper;
    type Answer = parlor_core::NoHelper;
    const INFO: GameInfo = GameInfo {
        name: "leaky-tiny",
        ..Tiny::INFO
    };
    fn new(config: &Config, seed: Seed, r: &Resources) -> Result<Self, ConfigError> {
        Ok(LeakyTiny(leak_marker(Tiny::new(config, seed, r)?)))
    }
    fn config(&self) -> &Config {
        self.0.config()
    }
    fn action_bound(&self) -> usize {
        self.0.action_bound()
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_act(&self) -> ToAct {
        self.0.to_act()
    }
    fn legal_actions(&self, seat: Seat) -> Option<Vec<Action>> {
        self.0.legal_actions(seat)
    }
    fn apply(&mut self, actor: Actor, action: Action) -> Result<Vec<Event>, Refused> {
        self.0.apply(actor, action)
    }
    fn view(&self, viewer: Viewer) -> View {
        self.0.view(viewer)
    }
    fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
        Tiny::event_view(event, viewer)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
}
