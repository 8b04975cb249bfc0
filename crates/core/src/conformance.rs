//! The shared test suite every game runs, built to fail a game that breaks
//! the [`Game`] contract. For each seed it plays one game at random and
//! asserts:
//!
//! 1. **Listed means legal.** Every action [`Game::legal_actions`] lists for
//!    a seat that may act is accepted (checked on a copy, for every listed
//!    action or a random sample of [`Suite::sample`] where lists are long).
//! 2. **Play ends within the declared bound.** At most
//!    [`Game::action_bound`] (asked of the new game) actions are accepted,
//!    and when play stops the game is [`ToAct::Over`] with an outcome that
//!    ranks every seat once.
//! 3. **Hidden stays hidden.** Where the game says what each seat's secrets
//!    are ([`Suite::secrets`]), no other seat's view, no spectator view and
//!    no event as [`Game::event_view`] shows it to them contains them; and
//!    the projected events of the whole history are the same on a replay.
//! 4. **Records replay.** The record round-trips through JSON (with every
//!    action's time) and replays to the same views and events.
//! 5. **Clocks.** [`Clocks`] under a random [`TimeControl`], fed the same
//!    random increasing times: banks never below zero, only the seats to act
//!    run, a fallen flag stays fallen, and [`Clocks::replay`] of the steps
//!    equals the clocks fed one action at a time.
//! 6. **Hostile JSON.** Random JSON and mutations of real actions, through
//!    [`DynMatch::apply_json`], are refused with a kind ([`ErrorKind::Malformed`]
//!    for what is not an action), change nothing, and never panic.
//! 7. **Refused changes nothing.** Random out-of-turn submissions (a listed
//!    action from a seat not to act, or from the referee) and the game's
//!    own extra actions ([`Suite::extra`]) are applied; a refusal must leave
//!    every view and the record as they were.
//!
//! A failure panics with the seed and what went wrong.
//!
//! ```
//! use parlor_core::{conformance::Suite, Resources};
//! # use parlor_core::doc_nim::Nim;
//! let totals = Suite::<Nim>::new(Default::default()).check(0..20, &Resources::embedded());
//! assert_eq!(totals.games, 20);
//! ```

use crate::{
    events_seen_by, Actor, Clocks, DynMatch, ErrorKind, Game, GameRng, Match, Record, Resources,
    Seat, Seed, Step, TimeControl, ToAct, Viewer,
};
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A source of actions that random play cannot find in
/// [`Game::legal_actions`]: free-text entries, referee actions such as a
/// round clock running out, out-of-turn plays, junk. Called now and then
/// during play, and whenever the listed actions offer nothing.
pub type Extra<'a, G> = dyn FnMut(&G, &mut GameRng) -> Option<(Actor, <G as Game>::Action)> + 'a;

/// What counts as `seat`'s secret in a state: strings that must not occur
/// in any other seat's or a spectator's view or projected events (JSON).
pub type Secrets<'a, G> = dyn Fn(&G, Seat) -> Vec<String> + 'a;

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

/// What the suite did over its games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games played to the end.
    pub games: usize,
    /// Actions accepted.
    pub actions: usize,
    /// Submissions refused (and checked to change nothing).
    pub refused: usize,
    /// Listed actions checked on a copy.
    pub listed_checked: usize,
    /// Hostile JSON submissions checked.
    pub json_probes: usize,
}

impl std::ops::AddAssign for Totals {
    fn add_assign(&mut self, o: Totals) {
        self.games += o.games;
        self.actions += o.actions;
        self.refused += o.refused;
        self.listed_checked += o.listed_checked;
        self.json_probes += o.json_probes;
    }
}

/// The suite for one config of game `G`, with its options.
pub struct Suite<'a, G: Game> {
    config: G::Config,
    extra: Option<Box<Extra<'a, G>>>,
    secrets: Option<Box<Secrets<'a, G>>>,
    extra_rate: f64,
    out_of_turn_rate: f64,
    sample: usize,
    clocks: bool,
    json_rate: f64,
}

impl<'a, G: Game> Suite<'a, G> {
    /// The whole suite for `config`, no extra actions, no secrets.
    pub fn new(config: G::Config) -> Self {
        Suite {
            config,
            extra: None,
            secrets: None,
            extra_rate: 0.2,
            out_of_turn_rate: 0.1,
            sample: 64,
            clocks: true,
            json_rate: 0.1,
        }
    }

    /// The config played.
    pub fn config(&self) -> &G::Config {
        &self.config
    }

    /// Actions random play cannot list (free text, referee actions,
    /// out-of-turn plays): tried with probability `rate` at each step, and
    /// whenever no listed action exists.
    pub fn extra(
        mut self,
        rate: f64,
        extra: impl FnMut(&G, &mut GameRng) -> Option<(Actor, G::Action)> + 'a,
    ) -> Self {
        self.extra = Some(Box::new(extra));
        self.extra_rate = rate;
        self
    }

    /// Each seat's secrets in a state (see [`Secrets`]): checked after
    /// every accepted action against the other viewers' views and events.
    pub fn secrets(mut self, secrets: impl Fn(&G, Seat) -> Vec<String> + 'a) -> Self {
        self.secrets = Some(Box::new(secrets));
        self
    }

    /// How many listed actions per seat and step are checked on a copy
    /// (all of them when the list is no longer; default 64).
    pub fn sample(mut self, n: usize) -> Self {
        self.sample = n;
        self
    }

    /// Whether to drive [`Clocks`] alongside play (default on).
    pub fn check_clocks(mut self, on: bool) -> Self {
        self.clocks = on;
        self
    }

    /// The probability, at each step, of probing with hostile JSON (default 0.1).
    pub fn json_rate(mut self, rate: f64) -> Self {
        self.json_rate = rate;
        self
    }

    /// The probability, at each step, of submitting a listed action from a
    /// seat not to act or the referee (default 0.1).
    pub fn out_of_turn_rate(mut self, rate: f64) -> Self {
        self.out_of_turn_rate = rate;
        self
    }

    /// Runs the suite once per seed; panics on the first failure.
    pub fn check(
        &mut self,
        seeds: impl IntoIterator<Item = Seed>,
        resources: &Resources,
    ) -> Totals {
        let mut totals = Totals::default();
        for seed in seeds {
            totals += self.play(seed, resources);
        }
        totals
    }

    /// Plays and checks one game; panics with the seed on failure.
    pub fn play(&mut self, seed: Seed, resources: &Resources) -> Totals {
        let mut run = Run::<G> {
            seed,
            rng: GameRng::from_seed(seed ^ 0x9e37_79b9_7f4a_7c15),
            totals: Totals {
                games: 1,
                ..Totals::default()
            },
            pool: Vec::new(),
            game: std::marker::PhantomData,
        };
        run.game(self, resources);
        run.totals
    }
}

/// The whole suite over several seeds, with `extra` actions.
pub fn check<G: Game>(
    config: &G::Config,
    seeds: impl IntoIterator<Item = Seed>,
    resources: &Resources,
    extra: &mut Extra<'_, G>,
) {
    Suite::<G>::new(config.clone())
        .extra(0.2, |g: &G, rng: &mut GameRng| extra(g, rng))
        .check(seeds, resources);
}

struct Run<G: Game> {
    seed: Seed,
    rng: GameRng,
    totals: Totals,
    /// Strings and actions seen, material for hostile JSON.
    pool: Vec<Value>,
    game: std::marker::PhantomData<fn() -> G>,
}

fn short(s: &str) -> String {
    const MAX: usize = 1500;
    if s.len() <= MAX {
        return s.to_string();
    }
    let mut end = MAX;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

fn json<T: serde::Serialize>(t: &T) -> String {
    serde_json::to_string(t).expect("serialises")
}

fn viewers(seats: usize) -> Vec<Viewer> {
    std::iter::once(Viewer::Spectator)
        .chain((0..seats).map(|s| Viewer::Seat(Seat(s))))
        .collect()
}

fn round_of<G: Game>(g: &G) -> Option<(String, f64)> {
    g.deadline().map(|d| (d.key, d.seconds))
}

impl<G: Game> Run<G> {
    fn game(&mut self, suite: &mut Suite<'_, G>, resources: &Resources) {
        let seed = self.seed;
        let mut m = Match::<G>::new(suite.config.clone(), seed, resources)
            .unwrap_or_else(|e| panic!("seed {seed}: the config is refused: {e}"));
        let config_json = json(&suite.config);
        let back: G::Config = serde_json::from_str(&config_json).expect("config reads back");
        assert_eq!(&back, &suite.config, "config JSON round trip");
        let bound = m.state().action_bound();
        assert!(
            bound < usize::MAX,
            "seed {seed}: action_bound is usize::MAX; declare a finite bound"
        );
        let seats = m.state().seats();

        // The registry's erased path, from JSON rules.
        if suite.json_rate > 0.0 {
            let mut registry = crate::Registry::new();
            registry.register::<G>();
            let entry = registry.get(G::INFO.name).expect("registered");
            let config_value: Value = serde_json::from_str(&config_json).expect("JSON");
            let mut dm = entry
                .new_match(&config_value, seed, resources)
                .unwrap_or_else(|e| panic!("seed {seed}: the registry refuses the config: {e}"));
            for _ in 0..4 {
                let v = self.hostile(&[]);
                let actor = self.random_actor(seats);
                probe_dyn::<G>(&mut *dm, actor, &v, seed);
                self.totals.json_probes += 1;
            }
        }

        // Clocks fed alongside play.
        let mut t: i64 = 1_700_000_000_000 + self.rng.below(1_000_000) as i64;
        let start_ms = t;
        let control = random_control(&mut self.rng);
        let mut clocks = if suite.clocks {
            let mut c = Clocks::new(control.clone(), seats)
                .unwrap_or_else(|e| panic!("random time control {control:?} refused: {e}"));
            let round = round_of(m.state());
            c.start(
                t,
                &m.state().to_act(),
                round.as_ref().map(|(k, s)| (k.as_str(), *s)),
            );
            Some(c)
        } else {
            None
        };
        let start_to_act = m.state().to_act();
        let start_round = round_of(m.state());
        let mut steps: Vec<Step> = Vec::new();
        let mut fallen = vec![false; seats];
        if let Some(c) = &clocks {
            self.check_clocks(c, t, m.state(), &mut fallen, true);
        }
        if let Some(secrets) = &suite.secrets {
            let opening = m.history()[0].clone();
            self.check_secrets(secrets, m.state(), &opening, 0);
        }

        let mut accepted = 0usize;
        let mut stalled = 0usize;
        loop {
            let to_act = m.state().to_act();
            if to_act == ToAct::Over {
                break;
            }
            assert_ne!(
                to_act,
                ToAct::Chance,
                "seed {seed}: a Match resolves chance itself"
            );
            let state = m.state();
            // A forfeit the game offers is one the referee may apply now.
            for seat in (0..seats).map(Seat) {
                if let Some(f) = state.forfeit(seat) {
                    let mut copy = state.clone();
                    if let Err(e) = copy.apply(Actor::Referee, f.clone()) {
                        panic!("seed {seed}: the forfeit {f:?} of {seat} was refused: {e}");
                    }
                }
            }
            // Listed means legal.
            let mut options: Vec<(Actor, G::Action)> = Vec::new();
            let mut listable = true;
            for seat in to_act.seats() {
                let Some(list) = state.legal_actions(seat) else {
                    listable = false;
                    continue;
                };
                self.check_listed(suite.sample, state, seat, &list, accepted);
                options.extend(list.into_iter().map(|a| (Actor::Seat(seat), a)));
            }
            if self.pool.len() < 64 {
                if let Some((_, a)) = options.first() {
                    self.pool
                        .push(serde_json::to_value(a).expect("action serialises"));
                }
            }
            // Hostile JSON on a copy.
            if suite.json_rate > 0.0 && self.rng.chance(suite.json_rate) {
                let mut copy = m.clone();
                let sample: Vec<Value> = options
                    .iter()
                    .take(8)
                    .map(|(_, a)| serde_json::to_value(a).expect("action serialises"))
                    .collect();
                for _ in 0..2 {
                    let v = self.hostile(&sample);
                    let actor = match options.first() {
                        Some((a, _)) if self.rng.chance(0.5) => *a,
                        _ => self.random_actor(seats),
                    };
                    probe_dyn::<G>(&mut copy, actor, &v, seed);
                    self.totals.json_probes += 1;
                }
            }
            // Choose: an extra action, an out-of-turn submission, or a
            // listed action.
            let choice = if options.is_empty()
                || (suite.extra.is_some() && self.rng.chance(suite.extra_rate))
            {
                match suite.extra.as_mut() {
                    Some(extra) => extra(state, &mut self.rng),
                    None => None,
                }
                .or_else(|| {
                    (!options.is_empty())
                        .then(|| options.swap_remove(self.rng.below(options.len())))
                })
            } else if self.rng.chance(suite.out_of_turn_rate) {
                let (_, action) = options.swap_remove(self.rng.below(options.len()));
                let others: Vec<Actor> = (0..seats)
                    .map(Seat)
                    .filter(|s| !to_act.includes(*s))
                    .map(Actor::Seat)
                    .chain([Actor::Referee])
                    .collect();
                Some((others[self.rng.below(others.len())], action))
            } else {
                Some(options.swap_remove(self.rng.below(options.len())))
            };
            let Some((actor, action)) = choice else {
                panic!(
                    "seed {seed}: play stopped after {accepted} actions with nothing to do \
                     ({}), but the game is not over: {to_act:?}",
                    if listable {
                        "no seat to act has a listed action"
                    } else {
                        "no extra action offered"
                    }
                );
            };
            // Times only move forward; sometimes a burst, sometimes a pause.
            t += match self.rng.below(10) {
                0 => 0,
                1 => self.rng.below(120_000) as i64,
                _ => self.rng.below(5_000) as i64,
            };
            let snapshot = state.clone();
            let len = m.record().actions.len();
            match m.apply_at(actor, action.clone(), Some(t)) {
                Ok(events) => {
                    accepted += 1;
                    stalled = 0;
                    self.totals.actions += 1;
                    assert!(
                        accepted <= bound,
                        "seed {seed}: the game accepted more than its action_bound of {bound} \
                         actions without ending (last: {actor} {action:?})"
                    );
                    for v in viewers(seats) {
                        json(&events_seen_by::<G>(&events, v));
                    }
                    if let Some(secrets) = &suite.secrets {
                        self.check_secrets(secrets, m.state(), &events, accepted);
                    }
                    if let Some(c) = clocks.as_mut() {
                        let to_act = m.state().to_act();
                        let round = round_of(m.state());
                        c.on_action(
                            t,
                            actor,
                            &to_act,
                            round.as_ref().map(|(k, s)| (k.as_str(), *s)),
                        );
                        steps.push(Step {
                            at_ms: t,
                            actor,
                            to_act,
                            round,
                        });
                        self.check_clocks(c, t, m.state(), &mut fallen, true);
                        let later = t + self.rng.below(600_000) as i64;
                        self.check_clocks(c, later, m.state(), &mut fallen, false);
                    }
                }
                Err(e) => {
                    self.totals.refused += 1;
                    stalled += 1;
                    let kind = crate::GameError::kind(&e);
                    let (now, then) = (views(m.state()), views(&snapshot));
                    assert!(
                        now == then,
                        "seed {seed}: the refused {actor} {action:?} ({kind}: {e}) changed the \
                         state after {accepted} actions:\nbefore {}\nafter  {}",
                        short(&format!("{then:?}")),
                        short(&format!("{now:?}"))
                    );
                    assert_eq!(
                        m.record().actions.len(),
                        len,
                        "seed {seed}: a refused action was logged"
                    );
                    assert!(
                        stalled <= 1000,
                        "seed {seed}: play is stuck after {accepted} actions, the game not over: \
                         1000 submissions in a row refused, the last {actor} {action:?} ({kind}: {e}); to act: \
                         {to_act:?}"
                    );
                }
            }
        }

        // Over, with an outcome that ranks every seat once.
        let outcome = m.state().outcome().unwrap_or_else(|| {
            panic!("seed {seed}: the game is over after {accepted} actions but has no outcome")
        });
        let mut ranked: Vec<usize> = outcome.ranking.iter().flatten().map(|s| s.0).collect();
        ranked.sort_unstable();
        assert_eq!(
            ranked,
            (0..seats).collect::<Vec<_>>(),
            "seed {seed}: the outcome ranks every seat exactly once: {outcome:?}"
        );
        if let Some(scores) = &outcome.scores {
            assert_eq!(
                scores.len(),
                seats,
                "seed {seed}: one score per seat: {outcome:?}"
            );
        }

        // Hostile JSON once over: refused, nothing changes.
        if suite.json_rate > 0.0 {
            let mut copy = m.clone();
            for _ in 0..2 {
                let v = self.hostile(&[]);
                let actor = self.random_actor(seats);
                probe_dyn::<G>(&mut copy, actor, &v, seed);
                self.totals.json_probes += 1;
            }
        }

        // Records round trip and replay, step by step, with their times.
        let text = m.record().to_json();
        let record = Record::<G>::from_json(&text)
            .unwrap_or_else(|e| panic!("seed {seed}: the record does not read back: {e}"));
        assert!(&record == m.record(), "seed {seed}: record JSON round trip");
        let again = Match::<G>::replay(&record, resources)
            .unwrap_or_else(|e| panic!("seed {seed}: the record does not replay: {e}"));
        assert!(
            again.record() == m.record(),
            "seed {seed}: the replayed record differs"
        );
        let (a, b) = (views(again.state()), views(m.state()));
        assert!(
            a == b,
            "seed {seed}: the replay diverges from the game played:\nplayed   {}\nreplayed {}",
            short(&format!("{b:?}")),
            short(&format!("{a:?}"))
        );
        // Events, as each viewer sees them, are the same on the replay.
        assert_eq!(again.history().len(), m.history().len());
        for (i, (x, y)) in m.history().iter().zip(again.history()).enumerate() {
            for v in viewers(seats) {
                let px = json(&events_seen_by::<G>(x, v));
                let py = json(&events_seen_by::<G>(y, v));
                assert!(
                    px == py,
                    "seed {seed}: the events of step {i} as {v:?} sees them differ on replay: \
                     {} vs {}",
                    short(&px),
                    short(&py)
                );
            }
        }
        // Clocks: replaying the steps gives the clocks fed one by one; the
        // steps rebuilt from the record (its times and the replayed states)
        // are the same steps.
        if let Some(c) = clocks {
            let mut r = Match::<G>::new(record.config.clone(), record.seed, resources)
                .expect("config is valid");
            let mut rebuilt = Vec::new();
            for a in &record.actions {
                r.apply_at(a.actor, a.action.clone(), a.at_ms)
                    .unwrap_or_else(|e| panic!("seed {seed}: replay refused {a:?}: {e}"));
                rebuilt.push(Step {
                    at_ms: a.at_ms.expect("every action was timed"),
                    actor: a.actor,
                    to_act: r.state().to_act(),
                    round: round_of(r.state()),
                });
            }
            assert!(
                rebuilt == steps,
                "seed {seed}: the clock steps rebuilt from the record differ"
            );
            let replayed = Clocks::replay(
                control,
                seats,
                start_ms,
                &start_to_act,
                start_round.as_ref().map(|(k, s)| (k.as_str(), *s)),
                rebuilt,
            )
            .expect("control is valid");
            assert!(
                replayed == c,
                "seed {seed}: Clocks::replay differs from the clocks fed action by action:\n\
                 {replayed:?}\n{c:?}"
            );
            self.check_clocks(&replayed, t, m.state(), &mut fallen, true);
        }
    }

    fn random_actor(&mut self, seats: usize) -> Actor {
        let n = self.rng.below(seats + 1);
        if n == seats {
            Actor::Referee
        } else {
            Actor::Seat(Seat(n))
        }
    }

    /// Every listed action of `seat` (or a sample) is accepted on a copy.
    fn check_listed(
        &mut self,
        sample: usize,
        state: &G,
        seat: Seat,
        list: &[G::Action],
        after: usize,
    ) {
        let indices: Vec<usize> = if list.len() <= sample {
            (0..list.len()).collect()
        } else {
            (0..sample).map(|_| self.rng.below(list.len())).collect()
        };
        for i in indices {
            let action = &list[i];
            let mut copy = state.clone();
            self.totals.listed_checked += 1;
            if let Err(e) = copy.apply(Actor::Seat(seat), action.clone()) {
                panic!(
                    "seed {}: {seat}'s listed action {action:?} was refused ({}: {e}) after {after} \
                     actions, in the state {seat} sees as {}",
                    self.seed,
                    crate::GameError::kind(&e),
                    short(&json(&state.view(Viewer::Seat(seat))))
                );
            }
        }
    }

    /// No seat's secrets in another viewer's view or events.
    fn check_secrets(
        &self,
        secrets: &Secrets<'_, G>,
        state: &G,
        events: &[G::Event],
        after: usize,
    ) {
        let seats = state.seats();
        let mut shown: Vec<(Viewer, String, String)> = Vec::new();
        for v in viewers(seats) {
            shown.push((v, "view".into(), json(&state.view(v))));
            shown.push((v, "events".into(), json(&events_seen_by::<G>(events, v))));
        }
        for s in (0..seats).map(Seat) {
            for secret in secrets(state, s) {
                for (v, what, text) in &shown {
                    if *v == Viewer::Seat(s) {
                        continue;
                    }
                    assert!(
                        !text.contains(&secret),
                        "seed {}: {s}'s secret {secret:?} shows in the {what} of {v:?} after \
                         {after} actions: {}",
                        self.seed,
                        short(text)
                    );
                }
            }
        }
    }

    fn check_clocks(&self, c: &Clocks, at: i64, state: &G, fallen: &mut [bool], real: bool) {
        let seed = self.seed;
        let view = c.view(at, &[]);
        let to_act = state.to_act();
        for (i, s) in view.seats.iter().enumerate() {
            if let Some(bank) = s.bank_ms {
                assert!(
                    bank >= 0,
                    "seed {seed}: seat {i}'s bank is negative: {view:?}"
                );
                if fallen[i] {
                    assert_eq!(
                        bank, 0,
                        "seed {seed}: seat {i}'s fallen flag rose again: {view:?}"
                    );
                }
                if real && bank == 0 {
                    fallen[i] = true;
                }
            }
            assert_eq!(
                s.running,
                to_act.includes(Seat(i)),
                "seed {seed}: seat {i} runs exactly while it is to act ({to_act:?}): {view:?}"
            );
            assert!(s.delay_ms >= 0, "seed {seed}: negative delay: {view:?}");
        }
        match (&view.round, state.deadline(), &to_act) {
            (None, _, ToAct::Over) => {}
            (Some(_), _, ToAct::Over) => panic!("seed {seed}: a round clock runs once over"),
            (Some(r), Some(d), _) => {
                assert_eq!(
                    r.key, d.key,
                    "seed {seed}: the round clock is the game's deadline"
                );
                assert!(r.remaining_ms >= 0);
            }
            (None, None, _) => {}
            (r, d, _) => panic!("seed {seed}: round clock {r:?} but deadline {d:?}"),
        }
    }

    /// A hostile JSON value: random of bounded depth, or a mutation of a
    /// real action.
    fn hostile(&mut self, sample: &[Value]) -> Value {
        let base: Vec<Value> = sample.iter().chain(&self.pool).cloned().collect();
        if !base.is_empty() && self.rng.chance(0.6) {
            let v = base[self.rng.below(base.len())].clone();
            let mut v = v;
            let n = 1 + self.rng.below(2);
            for _ in 0..n {
                mutate(&mut v, &mut self.rng, &base, 0);
            }
            v
        } else {
            random_json(&mut self.rng, &base, 3)
        }
    }
}

fn views_dyn(m: &dyn DynMatch) -> Vec<String> {
    let mut out = vec![m.view_json(Viewer::Spectator).to_string()];
    for s in 0..m.seats() {
        out.push(m.view_json(Viewer::Seat(Seat(s))).to_string());
    }
    // The text a host sends says the same as the JSON values.
    for viewer in viewers(m.seats()) {
        let mut text = Vec::new();
        m.write_view_json(viewer, &mut text);
        let written: Value = serde_json::from_slice(&text).expect("a written view is JSON");
        assert_eq!(
            written,
            m.view_json(viewer),
            "the written view of {viewer:?} differs from view_json"
        );
    }
    for s in 0..m.seats() {
        let mut text = Vec::new();
        m.write_legal_actions_json(Seat(s), &mut text);
        let written: Value = serde_json::from_slice(&text).expect("written actions are JSON");
        assert_eq!(
            written,
            serde_json::json!(m.legal_actions_json(Seat(s))),
            "the written legal actions of seat {s} differ from legal_actions_json"
        );
    }
    out.push(format!("{:?} {:?}", m.to_act(), m.outcome()));
    out
}

/// Submits `v` through the erased API: an error with a kind that changes
/// nothing, never a panic. (It may be accepted: a mutation can be legal.)
fn probe_dyn<G: Game>(m: &mut dyn DynMatch, actor: Actor, v: &Value, seed: Seed) {
    let len = m.actions_len();
    let before = views_dyn(m);
    let result = match catch_unwind(AssertUnwindSafe(|| m.apply_json(actor, v))) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            panic!("seed {seed}: the game panicked on the JSON action {v} from {actor}: {msg}");
        }
    };
    if let Err(e) = result {
        assert!(
            !e.message.is_empty(),
            "seed {seed}: an error without a message for {v}"
        );
        if serde_json::from_value::<G::Action>(v.clone()).is_err() {
            assert_eq!(
                e.kind,
                ErrorKind::Malformed,
                "seed {seed}: JSON that is no action ({v}) is refused as malformed"
            );
        }
        assert_eq!(
            m.actions_len(),
            len,
            "seed {seed}: the refused JSON {v} was logged"
        );
        let after = views_dyn(m);
        assert!(
            after == before,
            "seed {seed}: the refused JSON action {v} from {actor} ({}: {e}) changed the state",
            e.kind
        );
    }
}

fn random_string(rng: &mut GameRng) -> String {
    const WORDS: &[&str] = &[
        "",
        " ",
        "a",
        "zz",
        "xq",
        "É",
        "qu",
        "\u{0}",
        "🙂",
        "seat",
        "action",
        "bid",
        "take",
        "play",
        "enter",
        "word",
        "done",
        "null",
        "-1",
        "1e999",
        "referee",
        "spectator",
    ];
    match rng.below(4) {
        0 => "x".repeat(rng.below(300)),
        1 => (0..rng.below(12))
            .map(|_| char::from_u32(rng.below(0x3000) as u32).unwrap_or('?'))
            .collect(),
        _ => WORDS[rng.below(WORDS.len())].to_string(),
    }
}

fn random_number(rng: &mut GameRng) -> Value {
    match rng.below(9) {
        0 => Value::from(-1),
        1 => Value::from(i64::MIN),
        2 => Value::from(u64::MAX),
        3 => Value::from(u32::MAX as u64 + 1),
        4 => Value::from(0.5),
        5 => Value::from(-0.0),
        6 => Value::from(1e300),
        7 => Value::from(rng.below(1_000_000)),
        _ => Value::from(rng.below(20)),
    }
}

/// Random JSON of depth at most `depth`, keys partly from real actions.
fn random_json(rng: &mut GameRng, base: &[Value], depth: usize) -> Value {
    let leaf = depth == 0 || rng.chance(0.4);
    match rng.below(if leaf { 4 } else { 6 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(0.5)),
        2 => random_number(rng),
        3 => Value::String(random_key(rng, base)),
        4 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_json(rng, base, depth - 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.below(4))
                .map(|_| (random_key(rng, base), random_json(rng, base, depth - 1)))
                .collect(),
        ),
    }
}

/// A key or tag: one of a real action's, or random.
fn random_key(rng: &mut GameRng, base: &[Value]) -> String {
    let mut keys = Vec::new();
    for v in base {
        collect_keys(v, &mut keys);
    }
    if !keys.is_empty() && rng.chance(0.6) {
        keys.swap_remove(rng.below(keys.len()))
    } else {
        random_string(rng)
    }
}

fn collect_keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                collect_keys(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_keys(x, out)),
        Value::String(s) => out.push(s.clone()),
        _ => {}
    }
}

/// Changes one node of `v`: a number, a string, a tag, a field.
fn mutate(v: &mut Value, rng: &mut GameRng, base: &[Value], depth: usize) {
    let descend = depth < 4 && rng.chance(0.7);
    match v {
        Value::Object(m) if !m.is_empty() && descend => {
            let k = m.keys().nth(rng.below(m.len())).cloned().expect("key");
            mutate(m.get_mut(&k).expect("key"), rng, base, depth + 1);
        }
        Value::Array(a) if !a.is_empty() && descend => {
            let i = rng.below(a.len());
            mutate(&mut a[i], rng, base, depth + 1);
        }
        Value::Object(m) => match rng.below(4) {
            // Change a tag (rename a key).
            0 | 1 if !m.is_empty() => {
                let k = m.keys().nth(rng.below(m.len())).cloned().expect("key");
                let x = m.remove(&k).expect("key");
                let mut nk = random_key(rng, base);
                if nk == k {
                    nk.push('x');
                }
                m.insert(nk, x);
            }
            2 if !m.is_empty() => {
                let k = m.keys().nth(rng.below(m.len())).cloned().expect("key");
                m.remove(&k);
            }
            _ => {
                m.insert(random_key(rng, base), random_json(rng, base, 1));
            }
        },
        Value::Number(n) => {
            *v = match rng.below(3) {
                0 => n
                    .as_i64()
                    .map(|i| Value::from(i.wrapping_add(if rng.chance(0.5) { 1 } else { -1 })))
                    .unwrap_or(Value::from(0)),
                1 => Value::String(n.to_string()),
                _ => random_number(rng),
            }
        }
        Value::String(s) => {
            *v = match rng.below(5) {
                0 => Value::String(format!("{s}x")),
                1 => Value::String(s.chars().rev().collect()),
                2 => Value::String(s.to_uppercase()),
                3 => Value::String(random_key(rng, base)),
                _ => random_json(rng, base, 1),
            }
        }
        _ => *v = random_json(rng, base, 2),
    }
}

/// A random time control: none, a bank (with increment and delay), turn
/// and absent clocks.
fn random_control(rng: &mut GameRng) -> TimeControl {
    let secs = |rng: &mut GameRng, max: usize| 0.1 + rng.below(max * 10) as f64 / 10.0;
    match rng.below(4) {
        0 => TimeControl::default(),
        1 => TimeControl {
            bank_seconds: Some(secs(rng, 30)),
            ..TimeControl::default()
        },
        2 => TimeControl {
            bank_seconds: Some(secs(rng, 60)),
            increment_seconds: rng.below(5) as f64,
            delay_seconds: rng.below(4) as f64 / 2.0,
            ..TimeControl::default()
        },
        _ => TimeControl {
            bank_seconds: Some(secs(rng, 120)),
            increment_seconds: rng.below(3) as f64,
            turn_seconds: Some(secs(rng, 20)),
            absent_seconds: Some(secs(rng, 20)),
            ..TimeControl::default()
        },
    }
}

/// A game's mix of suites on a word list (one of `resources`): one
/// [`Suite`] per config it plays, chosen to cover its rules and left out
/// where the game would refuse it on that list (see
/// [`crate::Registry::register_with`]).
pub type Mix<G> = fn(resources: &crate::Resources, lexicon: &str) -> Vec<Suite<'static, G>>;

/// One config's suite of any game, as a host runs it by the game's name.
pub trait DynSuite {
    /// Plays and checks one game; panics with the seed on failure.
    fn play(&mut self, seed: Seed, resources: &Resources) -> Totals;
    /// The config played, as JSON text.
    fn config_json(&self) -> String;
}

impl<G: Game> DynSuite for Suite<'static, G> {
    fn play(&mut self, seed: Seed, resources: &Resources) -> Totals {
        Suite::play(self, seed, resources)
    }
    fn config_json(&self) -> String {
        serde_json::to_string(&self.config).unwrap_or_default()
    }
}
