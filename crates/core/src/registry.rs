//! Type-erased games: host any registered game by name over JSON.

use crate::{
    Actor, AgentContext, Budget, ConfigError, Game, GameInfo, Level, Match, Outcome, Record,
    RecordError, Resources, Seat, Seed, ToAct, Viewer,
};
use serde_json::Value;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

/// Why a registry call failed.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// No game of that name is registered.
    #[error("unknown game {name:?}: known games are {}", known.join(", "))]
    UnknownGame {
        /// The name asked for.
        name: String,
        /// The registered names.
        known: Vec<String>,
    },
    /// The config JSON does not fit the game's config.
    #[error("invalid rules for {game}: {message}")]
    BadConfig {
        /// The game.
        game: &'static str,
        /// What was wrong.
        message: String,
    },
    /// The record could not be replayed.
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// Why an erased action was refused. Nothing changed in either case.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The JSON is not an action of this game.
    #[error("not a {game} action: {message}")]
    Malformed {
        /// The game.
        game: &'static str,
        /// What was wrong.
        message: String,
    },
    /// A well-formed action the rules refuse.
    #[error("{0}")]
    Rule(String),
}

/// A live game of any kind, over JSON.
pub trait DynMatch: Send + Sync {
    /// The game's static facts.
    fn info(&self) -> GameInfo;
    /// How many seats play.
    fn seats(&self) -> usize;
    /// Who may act now.
    fn to_act(&self) -> ToAct;
    /// Applies a JSON action; on error nothing changes. Returns the events.
    fn apply_json(&mut self, actor: Actor, action: &Value) -> Result<Vec<Value>, ActionError>;
    /// The legal actions of `seat` as JSON, where listable.
    fn legal_actions_json(&self, seat: Seat) -> Option<Vec<Value>>;
    /// What `viewer` may see, as JSON.
    fn view_json(&self, viewer: Viewer) -> Value;
    /// The result, once over.
    fn outcome(&self) -> Option<Outcome>;
    /// The game record as JSON.
    fn record_json(&self) -> Value;
    /// Number of accepted actions so far.
    fn actions_len(&self) -> usize;
    /// The game's helper for `viewer` (see [`Game::assist`]).
    fn assist_json(&self, viewer: Viewer, request: &Value) -> Option<Result<Value, String>>;
    /// The clock the host must keep now, with its action as JSON.
    fn deadline_json(&self) -> Option<crate::Deadline<Value>>;
    /// The referee action that takes `seat` out of the game for good, as
    /// JSON (see [`Game::forfeit`]); `None` when the game offers none now.
    fn forfeit_json(&self, seat: Seat) -> Option<Value>;
    /// The game's own computer player's choice for `seat` (seeded by
    /// `seed`), given only that seat's view.
    fn bot_action(
        &self,
        seat: Seat,
        level: Level,
        seed: Seed,
        budget: Budget,
        resources: &Resources,
    ) -> Result<Option<Value>, ConfigError>;
}

impl<G: Game> DynMatch for Match<G> {
    fn info(&self) -> GameInfo {
        G::INFO
    }
    fn seats(&self) -> usize {
        self.state().seats()
    }
    fn to_act(&self) -> ToAct {
        self.state().to_act()
    }
    fn apply_json(&mut self, actor: Actor, action: &Value) -> Result<Vec<Value>, ActionError> {
        let action: G::Action =
            serde_json::from_value(action.clone()).map_err(|e| ActionError::Malformed {
                game: G::INFO.name,
                message: e.to_string(),
            })?;
        let events = self
            .apply(actor, action)
            .map_err(|e| ActionError::Rule(e.to_string()))?;
        Ok(events.iter().map(to_value).collect())
    }
    fn legal_actions_json(&self, seat: Seat) -> Option<Vec<Value>> {
        self.state()
            .legal_actions(seat)
            .map(|v| v.iter().map(to_value).collect())
    }
    fn view_json(&self, viewer: Viewer) -> Value {
        to_value(&self.state().view(viewer))
    }
    fn outcome(&self) -> Option<Outcome> {
        self.state().outcome()
    }
    fn record_json(&self) -> Value {
        to_value(self.record())
    }
    fn actions_len(&self) -> usize {
        self.record().actions.len()
    }
    fn assist_json(&self, viewer: Viewer, request: &Value) -> Option<Result<Value, String>> {
        self.state().assist(viewer, request)
    }
    fn deadline_json(&self) -> Option<crate::Deadline<Value>> {
        self.state().deadline().map(|d| crate::Deadline {
            key: d.key,
            seconds: d.seconds,
            action: to_value(&d.action),
        })
    }
    fn forfeit_json(&self, seat: Seat) -> Option<Value> {
        if seat.0 >= self.state().seats() || self.state().to_act() == ToAct::Over {
            return None;
        }
        self.state().forfeit(seat).map(|a| to_value(&a))
    }
    fn bot_action(
        &self,
        seat: Seat,
        level: Level,
        seed: Seed,
        budget: Budget,
        resources: &Resources,
    ) -> Result<Option<Value>, ConfigError> {
        let mut agent = G::agent(self.state().config(), level, seed, resources)?;
        let view = self.state().view(Viewer::Seat(seat));
        let legal = self.state().legal_actions(seat);
        let ctx = AgentContext::<G> {
            seat,
            view: &view,
            legal: legal.as_deref(),
            budget,
        };
        Ok(agent.choose(&ctx).map(|a| to_value(&a)))
    }
}

fn to_value<T: serde::Serialize>(t: &T) -> Value {
    // Our own types always serialise: maps have string keys, numbers are finite.
    serde_json::to_value(t).unwrap_or(Value::Null)
}

/// A registered game: creates and replays matches of it.
pub trait GameEntry: Send + Sync {
    /// The game's static facts.
    fn info(&self) -> GameInfo;
    /// The default rules as JSON.
    fn default_config(&self) -> Value;
    /// Starts a game from JSON rules (missing fields take their defaults
    /// where the game's config allows it).
    fn new_match(
        &self,
        config: &Value,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Box<dyn DynMatch>, RegistryError>;
    /// Rebuilds a game from its JSON record.
    fn replay(
        &self,
        record: &Value,
        resources: &Resources,
    ) -> Result<Box<dyn DynMatch>, RegistryError>;
}

struct Entry<G>(PhantomData<fn() -> G>);

impl<G: Game> GameEntry for Entry<G> {
    fn info(&self) -> GameInfo {
        G::INFO
    }
    fn default_config(&self) -> Value {
        to_value(&G::Config::default())
    }
    fn new_match(
        &self,
        config: &Value,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Box<dyn DynMatch>, RegistryError> {
        let bad = |message: String| RegistryError::BadConfig {
            game: G::INFO.name,
            message,
        };
        let config: G::Config =
            serde_json::from_value(config.clone()).map_err(|e| bad(e.to_string()))?;
        let m = Match::<G>::new(config, seed, resources).map_err(|e| bad(e.message))?;
        Ok(Box::new(m))
    }
    fn replay(
        &self,
        record: &Value,
        resources: &Resources,
    ) -> Result<Box<dyn DynMatch>, RegistryError> {
        let record = Record::<G>::from_value(record.clone())?;
        Ok(Box::new(Match::replay(&record, resources)?))
    }
}

/// The games a host offers, by name.
#[derive(Clone, Default)]
pub struct Registry {
    games: BTreeMap<&'static str, Arc<dyn GameEntry>>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Adds game `G` under its [`GameInfo::name`].
    pub fn register<G: Game>(&mut self) -> &mut Self {
        self.games
            .insert(G::INFO.name, Arc::new(Entry::<G>(PhantomData)));
        self
    }

    /// The registered names, sorted.
    pub fn names(&self) -> Vec<&'static str> {
        self.games.keys().copied().collect()
    }

    /// The game called `name`.
    pub fn get(&self, name: &str) -> Result<Arc<dyn GameEntry>, RegistryError> {
        self.games
            .get(name)
            .cloned()
            .ok_or_else(|| RegistryError::UnknownGame {
                name: name.to_string(),
                known: self.names().iter().map(|s| s.to_string()).collect(),
            })
    }

    /// Rebuilds any registered game from its JSON record.
    pub fn replay(
        &self,
        record: &Value,
        resources: &Resources,
    ) -> Result<Box<dyn DynMatch>, RegistryError> {
        let name = record
            .get("game")
            .and_then(Value::as_str)
            .ok_or_else(|| RecordError::Malformed("missing \"game\" field".into()))?;
        self.get(name)?.replay(record, resources)
    }
}
