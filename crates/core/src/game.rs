//! The game trait.

use crate::{agent::Level, Actor, Agent, Resources, Seat, Seed, ToAct, Viewer};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::fmt::Debug;

/// Static facts about a game, registered once and looked up by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GameInfo {
    /// The name used on the command line, in URLs and in records (`wordsprout`).
    pub name: &'static str,
    /// The name shown to people (`Word Sprout`).
    pub title: &'static str,
    /// The fewest seats the game can be played with.
    pub min_seats: usize,
    /// The most seats the game can be played with.
    pub max_seats: usize,
}

/// A config that the game cannot be played with, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ConfigError {
    /// What was wrong and what is accepted, in one line.
    pub message: String,
}

impl ConfigError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        ConfigError {
            message: message.into(),
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Seats from first place to last; seats sharing a place share an inner
    /// list (a team win, a tie on points).
    pub ranking: Vec<Vec<Seat>>,
    /// Points per seat, for games that score (indexed by seat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i64>>,
}

impl Outcome {
    /// The seats in first place.
    pub fn winners(&self) -> &[Seat] {
        self.ranking.first().map(Vec::as_slice).unwrap_or(&[])
    }

    /// A ranking from scores, highest first, equal scores sharing a place.
    pub fn from_scores(scores: Vec<i64>) -> Outcome {
        let mut seats: Vec<Seat> = (0..scores.len()).map(Seat).collect();
        seats.sort_by_key(|s| std::cmp::Reverse(scores[s.0]));
        let mut ranking: Vec<Vec<Seat>> = Vec::new();
        for s in seats {
            match ranking.last_mut() {
                Some(place) if scores[place[0].0] == scores[s.0] => place.push(s),
                _ => ranking.push(vec![s]),
            }
        }
        Outcome {
            ranking,
            scores: Some(scores),
        }
    }
}

/// A clock kept by the host on the game's behalf (see [`Game::deadline`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Deadline<A> {
    /// Names the clock: the same key in successive states is the same clock.
    pub key: String,
    /// How long the clock runs from when the key first appears.
    pub seconds: f64,
    /// The referee action to apply when it runs out.
    pub action: A,
}

/// A game state: the rules of one game, applied to one table.
///
/// # Contract
///
/// - [`Game::apply`] either changes the state completely and returns what
///   happened, or returns an error and changes nothing.
/// - All randomness comes from a [`crate::GameRng`] seeded in
///   [`Game::new`]; nothing else (clock, thread, address) may influence the
///   state, so config + seed + actions replay exactly.
/// - Hidden information leaves the state only through [`Game::view`] for
///   the seat entitled to it. Events are public: a game never puts hidden
///   information in an event.
/// - After the last action, [`Game::to_act`] is [`ToAct::Over`] and
///   [`Game::outcome`] is `Some`.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// Rules and variants, plain data.
    type Config: Serialize + DeserializeOwned + Clone + Debug + Default + PartialEq + Send + Sync;
    /// What one actor submits.
    type Action: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;
    /// What one viewer may see.
    type View: Serialize + Clone + Debug + Send;
    /// What happened as a result of an action; public.
    type Event: Serialize + Clone + Debug + Send;
    /// Why an action was refused.
    type Error: std::error::Error + Send + Sync + 'static;

    /// The game's static facts.
    const INFO: GameInfo;

    /// A new game: checks the config, seeds the generator, deals, sets up.
    fn new(config: &Self::Config, seed: Seed, resources: &Resources) -> Result<Self, ConfigError>;

    /// The config this game was created with.
    fn config(&self) -> &Self::Config;

    /// How many seats play.
    fn seats(&self) -> usize;

    /// Who may act now.
    fn to_act(&self) -> ToAct;

    /// The actions `seat` may take now, where they can be listed; `None`
    /// where they cannot (free text such as a Gobble word).
    fn legal_actions(&self, seat: Seat) -> Option<Vec<Self::Action>> {
        let _ = seat;
        None
    }

    /// Applies one action, all or nothing.
    fn apply(
        &mut self,
        actor: Actor,
        action: Self::Action,
    ) -> Result<Vec<Self::Event>, Self::Error>;

    /// Resolves the pending random event when [`Game::to_act`] is
    /// [`ToAct::Chance`], drawing only from the state's own generator.
    fn resolve_chance(&mut self) -> Vec<Self::Event> {
        Vec::new()
    }

    /// What `viewer` may see.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// A clock the host must keep for this state, if any: once
    /// [`Deadline::seconds`] have passed since a state with this
    /// [`Deadline::key`] was first reached, the host applies
    /// [`Deadline::action`] as [`crate::Actor::Referee`] (Gobble's round
    /// clock). States that share a key share one clock, so entering a word
    /// does not restart the round.
    fn deadline(&self) -> Option<Deadline<Self::Action>> {
        None
    }

    /// The referee action that takes `seat` out of the game for good, as
    /// a host applies it (as [`crate::Actor::Referee`]) when that seat's
    /// player has left and another player claims the win. `None` (the
    /// default): the game offers no such action for `seat` now (its turn is
    /// not the time, or there is no way to leave one seat out, as in a
    /// round that simply ends for everyone); the host then plays on for the
    /// seat as it otherwise would.
    fn forfeit(&self, seat: Seat) -> Option<Self::Action> {
        let _ = seat;
        None
    }

    /// The game's own analysis for `viewer`, over JSON: Word Sprout's
    /// "what could I have played?", for example. `request` is
    /// game-specific; the game decides when the helper is allowed (after a
    /// round, or during play where the table's rules allow it) and must
    /// never reveal hidden information. `None`: this game has no helper.
    fn assist(
        &self,
        viewer: Viewer,
        request: &serde_json::Value,
    ) -> Option<Result<serde_json::Value, String>> {
        let _ = (viewer, request);
        None
    }

    /// The word lists this game plays with, stamped into its record.
    fn lexicons(&self) -> Vec<crate::LexiconStamp> {
        Vec::new()
    }

    /// The game's computer player at `level`. The default plays uniformly
    /// among [`Game::legal_actions`].
    fn agent(
        config: &Self::Config,
        level: Level,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Box<dyn Agent<Self>>, ConfigError> {
        let _ = (config, level, resources);
        Ok(Box::new(crate::RandomAgent::new(seed)))
    }
}
