//! `Game::forfeit` over the registry (`DynMatch::forfeit_json`): a game
//! that can leave one seat out, and the default (none).

use parlor_core::doc_nim::Nim;
use parlor_core::{
    Actor, ConfigError, ErrorKind, Game, GameError, GameInfo, Outcome, Registry, Resources, Seat,
    Seed, ToAct, Viewer,
};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// "Standing": seats take turns saying `stay`; the referee can `remove` a
/// seat for good. The last seat standing wins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
struct Config {
    seats: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config { seats: 3 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Action {
    Stay,
    Remove(usize),
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Error(&'static str);

impl GameError for Error {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Illegal
    }
}

#[derive(Clone, Debug)]
struct Standing {
    config: Config,
    active: Vec<bool>,
    out: Vec<Seat>,
    turn: usize,
}

impl Standing {
    fn left(&self) -> Vec<Seat> {
        (0..self.active.len())
            .filter(|&s| self.active[s])
            .map(Seat)
            .collect()
    }
    fn advance(&mut self) {
        let n = self.active.len();
        for k in 1..=n {
            let s = (self.turn + k) % n;
            if self.active[s] {
                self.turn = s;
                return;
            }
        }
    }
}

impl Game for Standing {
    type Config = Config;
    type Action = Action;
    type View = Vec<bool>;
    type Event = String;
    type Error = Error;
    type Query = parlor_core::NoHelper;
    type Answer = parlor_core::NoHelper;
    const INFO: GameInfo = GameInfo {
        name: "standing",
        title: "Standing",
        min_seats: 2,
        max_seats: 8,
    };
    fn new(config: &Config, _: Seed, _: &Resources) -> Result<Self, ConfigError> {
        Ok(Standing {
            config: config.clone(),
            active: vec![true; config.seats],
            out: Vec::new(),
            turn: 0,
        })
    }
    fn config(&self) -> &Config {
        &self.config
    }
    /// Seats may stay for ever: only the referee ends this game (it is
    /// here for forfeits, never played through at random).
    fn action_bound(&self) -> usize {
        usize::MAX
    }
    fn seats(&self) -> usize {
        self.config.seats
    }
    fn to_act(&self) -> ToAct {
        if self.left().len() <= 1 {
            ToAct::Over
        } else {
            ToAct::One(Seat(self.turn))
        }
    }
    fn apply(&mut self, actor: Actor, action: Action) -> Result<Vec<String>, Error> {
        if self.to_act() == ToAct::Over {
            return Err(Error("over"));
        }
        match (actor, action) {
            (Actor::Seat(s), Action::Stay) if s.0 == self.turn => {
                self.advance();
                Ok(vec![format!("{s} stays")])
            }
            (Actor::Referee, Action::Remove(s)) if self.active.get(s) == Some(&true) => {
                self.active[s] = false;
                self.out.push(Seat(s));
                if s == self.turn {
                    self.advance();
                }
                Ok(vec![format!("seat {s} is out")])
            }
            _ => Err(Error("not allowed")),
        }
    }
    fn view(&self, _: Viewer) -> Vec<bool> {
        self.active.clone()
    }
    fn outcome(&self) -> Option<Outcome> {
        let left = self.left();
        (left.len() <= 1).then(|| {
            let mut ranking = vec![left];
            ranking.extend(self.out.iter().rev().map(|&s| vec![s]));
            Outcome {
                ranking,
                scores: None,
            }
        })
    }
    fn forfeit(&self, seat: Seat) -> Option<Action> {
        self.active
            .get(seat.0)
            .copied()
            .unwrap_or(false)
            .then_some(Action::Remove(seat.0))
    }
}

#[test]
fn a_forfeit_puts_the_seat_out_and_the_game_goes_on_then_ends() {
    let mut registry = Registry::new();
    registry.register::<Standing>().register::<Nim>();
    let res = Resources::embedded();
    let mut m = registry
        .get("standing")
        .unwrap()
        .new_match(&json!({"seats": 3}), 1, &res)
        .unwrap();
    // Seat 0 is to act and has left: the referee's action takes it out.
    let f = m.forfeit_json(Seat(0)).expect("a forfeit for seat 0");
    assert_eq!(f, json!({"remove": 0}));
    assert_eq!(m.forfeit_json(Seat(3)), None, "no such seat");
    m.apply_json(Actor::Referee, &f).unwrap();
    assert_eq!(m.forfeit_json(Seat(0)), None, "already out");
    // The game goes on between the two others, from seat 1.
    assert_eq!(m.to_act(), ToAct::One(Seat(1)));
    m.apply_json(Actor::Seat(Seat(1)), &json!("stay")).unwrap();
    assert_eq!(m.to_act(), ToAct::One(Seat(2)));
    // A seat that is not to act can be put out too; then the game is over.
    let f = m.forfeit_json(Seat(1)).unwrap();
    m.apply_json(Actor::Referee, &f).unwrap();
    assert_eq!(m.to_act(), ToAct::Over);
    let outcome = m.outcome().unwrap();
    assert_eq!(outcome.winners(), &[Seat(2)]);
    assert_eq!(m.forfeit_json(Seat(2)), None, "over: nothing to forfeit");
    // The record replays with the referee's actions.
    let replayed = registry.replay(&m.record_json(), &res).unwrap();
    assert_eq!(replayed.outcome(), m.outcome());
}

#[test]
fn by_default_a_game_offers_no_forfeit() {
    let mut registry = Registry::new();
    registry.register::<Nim>();
    let m = registry
        .get("nim")
        .unwrap()
        .new_match(&json!({}), 1, &Resources::embedded())
        .unwrap();
    assert_eq!(m.to_act(), ToAct::One(Seat(0)));
    assert_eq!(m.forfeit_json(Seat(0)), None);
    assert_eq!(m.forfeit_json(Seat(1)), None);
}
