//! A small game that exercises every part of the API: Sealed-Bid Nim.
//!
//! One pile of stones; each seat has chips. Every round both seats bid
//! chips at the same time and in secret (a simultaneous phase with hidden
//! information); once both have bid the bids are revealed, the higher
//! bidder pays and takes 1 to 3 stones, ties are broken by a coin flip
//! (chance, from the state's own generator). Whoever takes the last stone
//! wins. The referee can end the game early (adjudication: fewer stones
//! taken loses).

use parlor_core::{
    conformance, Actor, Agent, AgentContext, Budget, ConfigError, Game, GameInfo, Level, Match,
    Outcome, Record, Registry, Resources, Seat, Seed, ToAct, Viewer,
};
use parlor_core::{GameRng, RecordError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Config {
    pile: u32,
    chips: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config { pile: 10, chips: 6 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Action {
    Bid(u32),
    Take(u32),
    /// Referee only: stop the game and adjudicate.
    Adjudicate,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
enum Event {
    BidPlaced(Seat),
    Revealed([u32; 2]),
    CoinFlip(Seat),
    Took(Seat, u32),
}

#[derive(Debug, thiserror::Error, PartialEq)]
enum Error {
    #[error("{0} may not act now")]
    NotNow(Actor),
    #[error("a bid must be at most your {0} chips")]
    TooManyChips(u32),
    #[error("take 1 to {0} stones")]
    BadTake(u32),
    #[error("only the referee adjudicates")]
    NotReferee,
}

#[derive(Clone, Debug, PartialEq)]
enum Phase {
    Bidding([Option<u32>; 2]),
    TieBreak([u32; 2]),
    Taking(Seat),
    Over(Seat),
}

#[derive(Clone, Debug, PartialEq)]
struct SealedBid {
    config: Config,
    rng: GameRng,
    pile: u32,
    chips: [u32; 2],
    taken: [u32; 2],
    phase: Phase,
}

/// What a seat sees: its own bid, only whether the other has bid.
#[derive(Clone, Debug, Serialize, PartialEq)]
struct View {
    pile: u32,
    chips: [u32; 2],
    my_bid: Option<u32>,
    other_has_bid: bool,
    to_take: Option<Seat>,
    winner: Option<Seat>,
}

impl Game for SealedBid {
    type Config = Config;
    type Action = Action;
    type View = View;
    type Event = Event;
    type Error = Error;

    const INFO: GameInfo = GameInfo {
        name: "sealed-bid",
        title: "Sealed-Bid Nim",
        min_seats: 2,
        max_seats: 2,
    };

    fn new(config: &Config, seed: Seed, _: &Resources) -> Result<Self, ConfigError> {
        if config.pile == 0 {
            return Err(ConfigError::new("the pile needs at least one stone"));
        }
        Ok(SealedBid {
            config: config.clone(),
            rng: GameRng::from_seed(seed),
            pile: config.pile,
            chips: [config.chips; 2],
            taken: [0; 2],
            phase: Phase::Bidding([None; 2]),
        })
    }
    fn config(&self) -> &Config {
        &self.config
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_act(&self) -> ToAct {
        match &self.phase {
            Phase::Bidding(b) => {
                ToAct::Simultaneous((0..2).filter(|&i| b[i].is_none()).map(Seat).collect())
            }
            Phase::TieBreak(_) => ToAct::Chance,
            Phase::Taking(s) => ToAct::One(*s),
            Phase::Over(_) => ToAct::Over,
        }
    }
    fn legal_actions(&self, seat: Seat) -> Option<Vec<Action>> {
        Some(match &self.phase {
            Phase::Bidding(b) if b[seat.0].is_none() => {
                (0..=self.chips[seat.0]).map(Action::Bid).collect()
            }
            Phase::Taking(s) if *s == seat => (1..=self.pile.min(3)).map(Action::Take).collect(),
            _ => vec![],
        })
    }
    fn apply(&mut self, actor: Actor, action: Action) -> Result<Vec<Event>, Error> {
        let seat = match (actor, &action) {
            (Actor::Referee, Action::Adjudicate) => {
                if matches!(self.phase, Phase::Over(_)) {
                    return Err(Error::NotNow(actor));
                }
                let w = if self.taken[0] >= self.taken[1] { 0 } else { 1 };
                self.phase = Phase::Over(Seat(w));
                return Ok(vec![]);
            }
            (_, Action::Adjudicate) => return Err(Error::NotReferee),
            (Actor::Referee, _) => return Err(Error::NotNow(actor)),
            (Actor::Seat(s), _) => s,
        };
        if !self.to_act().includes(seat) {
            return Err(Error::NotNow(actor));
        }
        match (&mut self.phase, action) {
            (Phase::Bidding(bids), Action::Bid(n)) => {
                if n > self.chips[seat.0] {
                    return Err(Error::TooManyChips(self.chips[seat.0]));
                }
                bids[seat.0] = Some(n);
                let mut events = vec![Event::BidPlaced(seat)];
                if let [Some(a), Some(b)] = *bids {
                    events.push(Event::Revealed([a, b]));
                    if a == b {
                        self.phase = Phase::TieBreak([a, b]);
                    } else {
                        let w = if a > b { 0 } else { 1 };
                        self.chips[w] -= a.max(b);
                        self.phase = Phase::Taking(Seat(w));
                    }
                }
                Ok(events)
            }
            (Phase::Taking(_), Action::Take(n)) => {
                let max = self.pile.min(3);
                if n == 0 || n > max {
                    return Err(Error::BadTake(max));
                }
                self.pile -= n;
                self.taken[seat.0] += n;
                self.phase = if self.pile == 0 {
                    Phase::Over(seat)
                } else {
                    Phase::Bidding([None; 2])
                };
                Ok(vec![Event::Took(seat, n)])
            }
            _ => Err(Error::NotNow(actor)),
        }
    }
    fn resolve_chance(&mut self) -> Vec<Event> {
        let Phase::TieBreak(bids) = self.phase else {
            return vec![];
        };
        let w = self.rng.below(2);
        self.chips[w] -= bids[w];
        self.phase = Phase::Taking(Seat(w));
        vec![Event::CoinFlip(Seat(w))]
    }
    fn view(&self, viewer: Viewer) -> View {
        let (mine, other) = match (&self.phase, viewer) {
            (Phase::Bidding(b), Viewer::Seat(s)) => (b[s.0], b[1 - s.0].is_some()),
            (Phase::Bidding(b), Viewer::Spectator) => (None, b.iter().any(Option::is_some)),
            _ => (None, false),
        };
        View {
            pile: self.pile,
            chips: self.chips,
            my_bid: mine,
            other_has_bid: other,
            to_take: match self.phase {
                Phase::Taking(s) => Some(s),
                _ => None,
            },
            winner: match self.phase {
                Phase::Over(s) => Some(s),
                _ => None,
            },
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        match self.phase {
            Phase::Over(w) => Some(Outcome {
                ranking: vec![vec![w], vec![Seat(1 - w.0)]],
                scores: Some(self.taken.iter().map(|&t| t as i64).collect()),
            }),
            _ => None,
        }
    }
    fn agent(
        _: &Config,
        level: Level,
        seed: Seed,
        _: &Resources,
    ) -> Result<Box<dyn Agent<Self>>, ConfigError> {
        Ok(Box::new(Greedy {
            level,
            rng: GameRng::from_seed(seed),
        }))
    }
}

/// Bids a little, takes as many as it can; at Easy it plays at random.
struct Greedy {
    level: Level,
    rng: GameRng,
}

impl Agent<SealedBid> for Greedy {
    fn choose(&mut self, ctx: &AgentContext<'_, SealedBid>) -> Option<Action> {
        let legal = ctx.legal?;
        if legal.is_empty() {
            return None;
        }
        if self.level == Level::Easy {
            return Some(legal[self.rng.below(legal.len())].clone());
        }
        if ctx.view.to_take == Some(ctx.seat) {
            return legal.last().cloned();
        }
        let chips = ctx.view.chips[ctx.seat.0];
        Some(Action::Bid(chips.min(1 + ctx.view.pile % 2)))
    }
}

fn seat(n: usize) -> Actor {
    Actor::Seat(Seat(n))
}

#[test]
fn conformance_suite() {
    let resources = Resources::embedded();
    conformance::check::<SealedBid>(
        &Config::default(),
        0..50,
        &resources,
        &mut conformance::no_extra,
    );
    conformance::check::<SealedBid>(
        &Config { pile: 1, chips: 0 },
        0..10,
        &resources,
        &mut conformance::no_extra,
    );
}

#[test]
fn simultaneous_phase_hides_bids_until_both_are_in() {
    let r = Resources::embedded();
    let mut m = Match::<SealedBid>::new(Config::default(), 1, &r).unwrap();
    assert_eq!(
        m.state().to_act(),
        ToAct::Simultaneous(vec![Seat(0), Seat(1)])
    );
    // Seat 1 bids first: simultaneous means any order.
    m.apply(seat(1), Action::Bid(4)).unwrap();
    assert_eq!(m.state().to_act(), ToAct::Simultaneous(vec![Seat(0)]));
    let v0 = m.state().view(Viewer::Seat(Seat(0)));
    assert_eq!(v0.my_bid, None);
    assert!(v0.other_has_bid);
    let json = serde_json::to_string(&v0).unwrap();
    assert!(
        !json.contains('4'),
        "seat 0 never sees seat 1's bid of 4: {json}"
    );
    assert_eq!(m.state().view(Viewer::Seat(Seat(1))).my_bid, Some(4));
    assert_eq!(m.state().view(Viewer::Spectator).my_bid, None);
    // Bidding twice is refused and changes nothing.
    let before = conformance::views(m.state());
    assert_eq!(
        m.apply(seat(1), Action::Bid(1)),
        Err(Error::NotNow(seat(1)))
    );
    assert_eq!(conformance::views(m.state()), before);
    assert_eq!(
        m.apply(seat(0), Action::Bid(7)),
        Err(Error::TooManyChips(6))
    );
    m.apply(seat(0), Action::Bid(2)).unwrap();
    assert_eq!(m.state().to_act(), ToAct::One(Seat(1)));
    assert_eq!(m.state().chips, [6, 2]);
}

#[test]
fn ties_are_chance_resolved_by_the_seed_and_replay_exactly() {
    let r = Resources::embedded();
    let mut winners = std::collections::BTreeSet::new();
    for seed in 0..32 {
        let mut m = Match::<SealedBid>::new(Config::default(), seed, &r).unwrap();
        m.apply(seat(0), Action::Bid(3)).unwrap();
        let events = m.apply(seat(1), Action::Bid(3)).unwrap();
        let Some(Event::CoinFlip(w)) = events.last().cloned() else {
            panic!("tie flips a coin: {events:?}")
        };
        assert_eq!(m.state().to_act(), ToAct::One(w));
        winners.insert(w);
        let again =
            Match::<SealedBid>::replay(&Record::from_json(&m.record().to_json()).unwrap(), &r)
                .unwrap();
        assert_eq!(again.state(), m.state());
    }
    assert_eq!(
        winners.len(),
        2,
        "both seats win some coin flips over 32 seeds"
    );
}

#[test]
fn referee_adjudicates_and_seats_cannot() {
    let r = Resources::embedded();
    let mut m = Match::<SealedBid>::new(Config::default(), 3, &r).unwrap();
    assert_eq!(m.apply(seat(0), Action::Adjudicate), Err(Error::NotReferee));
    m.apply(seat(0), Action::Bid(1)).unwrap();
    m.apply(seat(1), Action::Bid(0)).unwrap();
    m.apply(seat(0), Action::Take(2)).unwrap();
    m.apply(Actor::Referee, Action::Adjudicate).unwrap();
    assert_eq!(m.state().to_act(), ToAct::Over);
    let outcome = m.state().outcome().unwrap();
    assert_eq!(outcome.winners(), &[Seat(0)]);
    assert_eq!(outcome.scores, Some(vec![2, 0]));
    assert!(m.apply(Actor::Referee, Action::Adjudicate).is_err());
}

#[test]
fn undo_takes_back_the_last_action() {
    let r = Resources::embedded();
    let mut m = Match::<SealedBid>::new(Config::default(), 3, &r).unwrap();
    m.apply(seat(0), Action::Bid(1)).unwrap();
    let snapshot = m.state().clone();
    m.apply(seat(1), Action::Bid(0)).unwrap();
    assert!(m.undo(&r));
    assert_eq!(m.state(), &snapshot);
    assert!(m.undo(&r));
    assert!(!m.undo(&r));
}

#[test]
fn records_refuse_tampering() {
    let r = Resources::embedded();
    let mut m = Match::<SealedBid>::new(Config::default(), 3, &r).unwrap();
    m.apply(seat(0), Action::Bid(1)).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&m.record().to_json()).unwrap();
    value["actions"][0]["action"] = serde_json::json!({"bid": 99});
    let bad = Record::<SealedBid>::from_value(value.clone()).unwrap();
    let err = Match::replay(&bad, &r).unwrap_err();
    assert!(
        matches!(err, RecordError::Refused { index: 1, .. }),
        "{err}"
    );
    value["format"] = serde_json::json!(99);
    assert!(matches!(
        Record::<SealedBid>::from_value(value.clone()),
        Err(RecordError::Version { found: 99 })
    ));
    value["format"] = serde_json::json!(1);
    value["game"] = serde_json::json!("nim");
    assert!(matches!(
        Record::<SealedBid>::from_value(value),
        Err(RecordError::WrongGame { .. })
    ));
    assert!(matches!(
        Record::<SealedBid>::from_json("{not json"),
        Err(RecordError::Malformed(_))
    ));
}

#[test]
fn registry_hosts_the_game_over_json() {
    let r = Resources::embedded();
    let mut registry = Registry::new();
    registry
        .register::<SealedBid>()
        .register::<parlor_core::doc_nim::Nim>();
    assert_eq!(registry.names(), vec!["nim", "sealed-bid"]);
    let err = registry.get("chess").err().unwrap().to_string();
    assert!(
        err.contains("unknown game \"chess\"") && err.contains("nim, sealed-bid"),
        "{err}"
    );

    let entry = registry.get("sealed-bid").unwrap();
    assert_eq!(
        entry.default_config(),
        serde_json::json!({"pile": 10, "chips": 6})
    );
    assert!(entry
        .new_match(&serde_json::json!({"pile": "lots"}), 1, &r)
        .is_err());
    assert!(entry
        .new_match(&serde_json::json!({"pile": 0}), 1, &r)
        .is_err());
    let mut m = entry
        .new_match(&serde_json::json!({"pile": 4}), 1, &r)
        .unwrap();

    // Malformed and illegal actions: clear errors, nothing changes.
    let e = m
        .apply_json(seat(0), &serde_json::json!({"jump": 1}))
        .unwrap_err();
    assert!(e.to_string().starts_with("not a sealed-bid action"), "{e}");
    let e = m
        .apply_json(seat(0), &serde_json::json!({"take": 1}))
        .unwrap_err();
    assert_eq!(e.to_string(), "player 1 may not act now");
    assert_eq!(m.actions_len(), 0);

    m.apply_json(seat(0), &serde_json::json!({"bid": 2}))
        .unwrap();
    let hidden = m.view_json(Viewer::Seat(Seat(1)));
    assert_eq!(hidden["my_bid"], serde_json::Value::Null);
    assert_eq!(m.view_json(Viewer::Seat(Seat(0)))["my_bid"], 2);

    // Bots choose from the seat's view and legal actions.
    while m.to_act() != ToAct::Over {
        let s = m.to_act().seats()[0];
        let a = m
            .bot_action(s, Level::Hard, 5, Budget::UNLIMITED, &r)
            .unwrap()
            .unwrap();
        m.apply_json(Actor::Seat(s), &a).unwrap();
    }
    assert!(m.outcome().is_some());
    let record = m.record_json();
    let again = registry.replay(&record, &r).unwrap();
    assert_eq!(
        again.view_json(Viewer::Spectator),
        m.view_json(Viewer::Spectator)
    );
    assert_eq!(again.record_json(), record);
}

proptest::proptest! {
    /// Arbitrary bytes as a record or an action: an error, never a panic.
    #[test]
    fn hostile_records_and_actions_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
        let r = Resources::embedded();
        let text = String::from_utf8_lossy(&bytes);
        let _ = Record::<SealedBid>::from_json(&text);
        let mut registry = Registry::new();
        registry.register::<SealedBid>();
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) {
            let _ = registry.replay(&value, &r);
            let mut m = registry.get("sealed-bid").unwrap().new_match(&serde_json::json!({}), 0, &r).unwrap();
            let _ = m.apply_json(seat(0), &value);
        }
    }

    #[test]
    fn json_shaped_garbage_never_panics(pile in 0u32..5, chips in 0u32..3, action in "[a-z_]{1,6}", n in -3i64..5) {
        let r = Resources::embedded();
        let mut registry = Registry::new();
        registry.register::<SealedBid>();
        let entry = registry.get("sealed-bid").unwrap();
        if let Ok(mut m) = entry.new_match(&serde_json::json!({"pile": pile, "chips": chips}), 0, &r) {
            let mut a = serde_json::Map::new();
            a.insert(action, serde_json::json!(n));
            let _ = m.apply_json(seat(0), &serde_json::Value::Object(a));
        }
    }
}
