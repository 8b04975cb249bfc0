//! The test game: Sealed-Bid Nim, small enough to read in one sitting and
//! using every part of the API, so it is the example to copy when adding
//! a game (`docs/adding-a-game.md` walks through it).
//!
//! One pile of stones; each seat has chips. Every round both seats bid
//! chips at the same time and in secret (a simultaneous phase with hidden
//! information); once both have bid the bids are revealed, the higher
//! bidder pays and takes 1 to 3 stones, ties are broken by a coin flip
//! (chance, from the state's own generator). Whoever takes the last stone
//! wins. The referee can end the game early (adjudication: fewer stones
//! taken loses).
//!
//! What it shows: a simultaneous phase ([`ToAct::Simultaneous`]), hidden
//! information in views and in events (a bid is shown to its bidder only,
//! [`Game::event_view`]), chance from the state's own generator
//! ([`ToAct::Chance`]), a referee action, errors with kinds, settings that
//! describe themselves, a declared bound on the game's length, and a bot.

use crate::{
    Actor, Agent, AgentContext, ConfigError, ErrorKind, Game, GameError, GameInfo, GameRng, Level,
    Needs, Outcome, Resources, Seat, Seed, Setting, SettingKind, ToAct, Viewer,
};
use serde::{Deserialize, Serialize};

/// The rules: the pile and each seat's chips at the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Stones at the start (1 to 1,000).
    pub pile: u32,
    /// Chips each seat starts with (0 to 1,000).
    pub chips: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config { pile: 10, chips: 6 }
    }
}

/// What a seat (or the referee) submits: `{"bid": 2}`, `{"take": 3}`,
/// `"adjudicate"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Bid this many chips, in secret.
    Bid(u32),
    /// Take this many stones (1 to 3).
    Take(u32),
    /// Referee only: stop the game and adjudicate.
    Adjudicate,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// A seat bid; the amount is shown to that seat only.
    BidPlaced {
        /// Who bid.
        seat: Seat,
        /// How much: `None` in what the others see.
        #[serde(skip_serializing_if = "Option::is_none")]
        bid: Option<u32>,
    },
    /// Both bids, once both are in.
    Revealed([u32; 2]),
    /// Equal bids: the coin chose this seat.
    CoinFlip(Seat),
    /// A seat took stones.
    Took(Seat, u32),
    /// The referee ended the game.
    Adjudicated,
}

/// A refused action.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum Error {
    /// Not this actor's moment.
    #[error("{0} may not act now")]
    NotNow(Actor),
    /// A bid above the seat's chips.
    #[error("a bid must be at most your {0} chips")]
    TooManyChips(u32),
    /// Too many or too few stones.
    #[error("take 1 to {0} stones")]
    BadTake(u32),
    /// A seat tried the referee's action.
    #[error("only the referee adjudicates")]
    NotReferee,
    /// The game is over.
    #[error("the game is over")]
    Over,
}

impl GameError for Error {
    fn kind(&self) -> ErrorKind {
        match self {
            Error::NotNow(_) | Error::NotReferee => ErrorKind::NotYourTurn,
            Error::TooManyChips(_) | Error::BadTake(_) => ErrorKind::Illegal,
            Error::Over => ErrorKind::GameOver,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Phase {
    Bidding([Option<u32>; 2]),
    TieBreak([u32; 2]),
    Taking(Seat),
    Over(Seat),
}

/// A Sealed-Bid Nim table.
#[derive(Clone, Debug, PartialEq)]
pub struct SealedBid {
    config: Config,
    rng: GameRng,
    pile: u32,
    chips: [u32; 2],
    taken: [u32; 2],
    phase: Phase,
}

/// What a seat sees: its own bid, only whether the other has bid.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct View {
    /// Stones left.
    pub pile: u32,
    /// Each seat's chips.
    pub chips: [u32; 2],
    /// The viewer's bid this round, once made.
    pub my_bid: Option<u32>,
    /// Whether the other seat has bid (a spectator: whether anyone has).
    pub other_has_bid: bool,
    /// The seat that takes next, once the bids are in.
    pub to_take: Option<Seat>,
    /// The winner, once over.
    pub winner: Option<Seat>,
}

impl SealedBid {
    /// Each seat's chips now.
    pub fn chips(&self) -> [u32; 2] {
        self.chips
    }
}

impl Game for SealedBid {
    type Config = Config;
    type Action = Action;
    type View = View;
    type Event = Event;
    type Error = Error;
    type Query = crate::NoHelper;
    type Answer = crate::NoHelper;

    const INFO: GameInfo = GameInfo {
        name: "sealed-bid",
        title: "Sealed-Bid Nim",
        min_seats: 2,
        max_seats: 2,
    };

    fn new(config: &Config, seed: Seed, _: &Resources) -> Result<Self, ConfigError> {
        if !(1..=1000).contains(&config.pile) {
            return Err(ConfigError::new(format!(
                "pile: 1 to 1000 stones, not {}",
                config.pile
            )));
        }
        if config.chips > 1000 {
            return Err(ConfigError::new(format!(
                "chips: 0 to 1000, not {}",
                config.chips
            )));
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
    fn needs(_: &Config) -> Needs {
        Needs::seats(2)
    }
    fn settings() -> Vec<Setting> {
        vec![
            Setting {
                field: "pile",
                label: "Stones",
                help: "stones in the pile at the start",
                kind: SettingKind::Integer {
                    min: 1,
                    max: 1000,
                    optional: false,
                },
            },
            Setting {
                field: "chips",
                label: "Chips",
                help: "chips each player starts with, to bid for the right to take",
                kind: SettingKind::Integer {
                    min: 0,
                    max: 1000,
                    optional: false,
                },
            },
        ]
    }
    /// A round is two bids and a take of at least one stone.
    fn action_bound(&self) -> usize {
        3 * self.pile as usize + 1
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
        if seat.0 >= 2 {
            return Some(Vec::new());
        }
        Some(match &self.phase {
            Phase::Bidding(b) if b[seat.0].is_none() => {
                (0..=self.chips[seat.0]).map(Action::Bid).collect()
            }
            Phase::Taking(s) if *s == seat => (1..=self.pile.min(3)).map(Action::Take).collect(),
            _ => vec![],
        })
    }
    fn apply(&mut self, actor: Actor, action: Action) -> Result<Vec<Event>, Error> {
        if matches!(self.phase, Phase::Over(_)) {
            return Err(Error::Over);
        }
        let seat = match (actor, &action) {
            (Actor::Referee, Action::Adjudicate) => {
                let w = if self.taken[0] >= self.taken[1] { 0 } else { 1 };
                self.phase = Phase::Over(Seat(w));
                return Ok(vec![Event::Adjudicated]);
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
                let mut events = vec![Event::BidPlaced { seat, bid: Some(n) }];
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
            (Phase::Bidding(b), Viewer::Seat(s)) if s.0 < 2 => (b[s.0], b[1 - s.0].is_some()),
            (Phase::Bidding(b), _) => (None, b.iter().any(Option::is_some)),
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
    fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
        match event {
            Event::BidPlaced { seat, .. } if viewer != Viewer::Seat(*seat) => {
                Some(Event::BidPlaced {
                    seat: *seat,
                    bid: None,
                })
            }
            _ => Some(event.clone()),
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
            their_last_bid: None,
        }))
    }
}

/// Bids a little, takes as many as it can; at Easy it plays at random.
/// Above Easy it remembers the other seat's last revealed bid (an agent
/// that remembers: it learns it from the events, not from the view) and
/// tries to outbid it by one.
struct Greedy {
    level: Level,
    rng: GameRng,
    their_last_bid: Option<u32>,
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
        let want = match self.their_last_bid {
            Some(b) => b + 1,
            None => 1 + ctx.view.pile % 2,
        };
        Some(Action::Bid(chips.min(want)))
    }

    fn observe(&mut self, seat: Seat, events: &[Event]) {
        for e in events {
            if let Event::Revealed(bids) = e {
                self.their_last_bid = Some(bids[1 - seat.0]);
            }
        }
    }
}

/// The conformance suite for `config` with the game's secrets (a bid, until
/// both are in) and extra actions: the referee's adjudication, bids above a
/// seat's chips, takes out of range, actions from a seat not to act.
pub fn conformance_suite(config: Config) -> crate::conformance::Suite<'static, SealedBid> {
    crate::conformance::Suite::new(config)
        .secrets(|g: &SealedBid, seat| match g.phase {
            Phase::Bidding(b) => b[seat.0]
                .map(|n| format!("\"seat\":{},\"bid\":{n}", seat.0))
                .into_iter()
                .collect(),
            _ => Vec::new(),
        })
        .extra(0.15, |g: &SealedBid, rng: &mut GameRng| {
            let seat = Actor::Seat(Seat(rng.below(2)));
            Some(match rng.below(12) {
                0 => (Actor::Referee, Action::Adjudicate),
                1 => (seat, Action::Adjudicate),
                2 | 3 => (
                    seat,
                    Action::Bid(g.chips[rng.below(2)] + rng.below(3) as u32),
                ),
                4 | 5 => (seat, Action::Take(rng.below(6) as u32)),
                6 => (Actor::Referee, Action::Take(1)),
                _ => (seat, Action::Bid(rng.below(4) as u32)),
            })
        })
}
