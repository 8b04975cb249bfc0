//! Type-erased games: host any registered game by name over JSON.

use crate::{
    events_seen_by, Actor, Agent, AgentContext, Budget, ConfigError, ErrorKind, Game, GameError,
    GameInfo, HelpError, Level, Match, Needs, Outcome, Record, RecordError, Resources, Seat, Seed,
    Setting, SettingKind, ToAct, Viewer,
};
use serde::Deserialize;
use serde_json::Value;
use std::any::Any;
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
        /// [`ErrorKind::Malformed`] for JSON that is not the game's rules,
        /// the game's own kind otherwise.
        kind: ErrorKind,
        /// What was wrong.
        message: String,
    },
    /// The record could not be replayed.
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// Why an erased action was refused. Nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ActionError {
    /// What kind of refusal ([`ErrorKind::Malformed`] for JSON that is not
    /// an action of the game; the game's own kind otherwise).
    pub kind: ErrorKind,
    /// The sentence for people.
    pub message: String,
    /// Where the refusal is, if the game says ([`GameError::at`]).
    pub at: Option<[i32; 2]>,
}

impl ActionError {
    /// JSON that is not an action of `game`.
    pub fn malformed(game: &str, message: impl std::fmt::Display) -> Self {
        ActionError {
            kind: ErrorKind::Malformed,
            message: format!("not a {game} action: {message}"),
            at: None,
        }
    }

    /// A game's own refusal.
    pub fn of<E: GameError>(e: &E) -> Self {
        ActionError {
            kind: e.kind(),
            message: e.to_string(),
            at: e.at(),
        }
    }
}

/// The events of one accepted action, as each viewer may see them
/// ([`Game::event_view`]): the server sends each connection its own list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Applied {
    /// `by_viewer[0]` is the spectators' list, `by_viewer[1 + s]` seat
    /// `s`'s, each as the JSON text of an array: written once, straight
    /// from the game's events (a host sends them on as text; as a tree of
    /// values they were a map and a string per key for every viewer).
    /// Viewers who see the same events share one text: in a game without
    /// hidden information that is every viewer, and an action costs one
    /// text, which a host keeps for its last move by cloning this list.
    by_viewer: Vec<Arc<str>>,
}

impl Applied {
    fn project<G: Game>(events: &[G::Event], seats: usize) -> Self {
        let viewers =
            std::iter::once(Viewer::Spectator).chain((0..seats).map(|s| Viewer::Seat(Seat(s))));
        let mut text = Vec::with_capacity(64);
        let mut by_viewer: Vec<Arc<str>> = Vec::with_capacity(seats + 1);
        for viewer in viewers {
            text.clear();
            write_events::<G>(&mut text, events, viewer);
            // serde_json writes UTF-8 only.
            let text = std::str::from_utf8(&text).unwrap_or("[]");
            let shared = by_viewer.iter().find(|t| ***t == *text).cloned();
            by_viewer.push(shared.unwrap_or_else(|| Arc::from(text)));
        }
        Applied { by_viewer }
    }

    /// The events `viewer` may see, in order.
    pub fn for_viewer(&self, viewer: Viewer) -> Vec<Value> {
        serde_json::from_str(self.json_for(viewer)).unwrap_or_default()
    }

    /// [`Applied::for_viewer`] as the JSON text of an array.
    pub fn json_for(&self, viewer: Viewer) -> &str {
        let i = match viewer {
            Viewer::Spectator => 0,
            Viewer::Seat(s) => s.0 + 1,
        };
        self.by_viewer.get(i).map(|t| &**t).unwrap_or("[]")
    }
}

/// A live game of any kind, over JSON.
pub trait DynMatch: Send + Sync {
    /// The game's static facts.
    fn info(&self) -> GameInfo;
    /// How many seats play.
    fn seats(&self) -> usize;
    /// Who may act now.
    fn to_act(&self) -> ToAct;
    /// Applies a JSON action; on error nothing changes. Returns the events,
    /// projected for each viewer.
    fn apply_json(&mut self, actor: Actor, action: &Value) -> Result<Applied, ActionError>;
    /// [`DynMatch::apply_json`] for a host that keeps clocks: the record
    /// holds the time the action was accepted (ms since the Unix epoch),
    /// as [`crate::Match::apply_at`] does. `apply_json` is the `None` case.
    fn apply_json_at(
        &mut self,
        actor: Actor,
        action: &Value,
        at_ms: Option<i64>,
    ) -> Result<Applied, ActionError>;
    /// The events of the whole game so far as `viewer` may see them: entry
    /// 0 holds those of the start (a deal), entry `i` those of the `i`-th
    /// accepted action. From `from` on.
    fn history_json(&self, viewer: Viewer, from: usize) -> Vec<Vec<Value>>;
    /// The legal actions of `seat` as JSON, where listable.
    fn legal_actions_json(&self, seat: Seat) -> Option<Vec<Value>>;
    /// What `viewer` may see, as JSON.
    fn view_json(&self, viewer: Viewer) -> Value;
    /// [`DynMatch::view_json`] as JSON text, appended to `out`: the same
    /// JSON, written straight from the game's view with no [`Value`] tree
    /// in between (a host renders a view for every message it sends).
    fn write_view_json(&self, viewer: Viewer, out: &mut Vec<u8>);
    /// [`DynMatch::legal_actions_json`] as JSON text appended to `out`:
    /// an array, or `null` where the actions are not listable.
    fn write_legal_actions_json(&self, seat: Seat, out: &mut Vec<u8>);
    /// The result, once over.
    fn outcome(&self) -> Option<Outcome>;
    /// How the outcome's scores read (see [`crate::Game::score_words`]).
    fn score_words(&self) -> crate::ScoreWords;
    /// What each seat is called now (see [`crate::Game::seat_labels`]).
    fn seat_labels(&self) -> Option<Vec<String>>;
    /// The game record as JSON.
    fn record_json(&self) -> Value;
    /// Number of accepted actions so far.
    fn actions_len(&self) -> usize;
    /// The game's helper for `viewer`, within `budget` (see [`Game::assist`]):
    /// `query` read as the game's [`Game::Query`], the answer as JSON.
    fn assist_json(
        &self,
        viewer: Viewer,
        query: &Value,
        budget: &Budget,
    ) -> Result<Value, HelpError>;
    /// The clock the host must keep now, with its action as JSON.
    fn deadline_json(&self) -> Option<crate::Deadline<Value>>;
    /// The referee action that takes `seat` out of the game for good, as
    /// JSON (see [`Game::forfeit`]); `None` when the game offers none now.
    fn forfeit_json(&self, seat: Seat) -> Option<Value>;
    /// The game's own computer player for `seat`, kept by the host for the
    /// life of the game (see [`Game::agent`]).
    fn agent(
        &self,
        seat: Seat,
        level: Level,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Box<dyn DynAgent>, ConfigError>;
    /// The concrete [`Match`], for [`DynAgent`]s of the same game.
    fn as_any(&self) -> &dyn Any;
    /// A copy of the match (state, record and history), for a host that
    /// lets its bots think on a copy while it goes on with the original.
    fn clone_match(&self) -> Box<dyn DynMatch>;
}

/// A computer player of any game, kept for one seat of one game. It sees
/// only what its seat sees: the seat's view, legal actions and events.
pub trait DynAgent: Send {
    /// The seat it plays.
    fn seat(&self) -> Seat;
    /// Its choice in `game` (a match of the game it was made for), within
    /// `budget`; first it is shown every event its seat has not yet seen
    /// ([`Agent::observe`]), so an agent made after a restart catches up
    /// from the record. `None`: it passes, or `game` is another game.
    fn choose(&mut self, game: &dyn DynMatch, budget: Budget) -> Option<Value>;
}

struct ErasedAgent<G: Game> {
    seat: Seat,
    agent: Box<dyn Agent<G>>,
    /// How many entries of the match's history it has been shown.
    seen: usize,
}

impl<G: Game> DynAgent for ErasedAgent<G> {
    fn seat(&self) -> Seat {
        self.seat
    }
    fn choose(&mut self, game: &dyn DynMatch, budget: Budget) -> Option<Value> {
        let m = game.as_any().downcast_ref::<Match<G>>()?;
        let viewer = Viewer::Seat(self.seat);
        if self.seen > m.history().len() {
            // A match that is not the one it followed (taken back): start over.
            self.seen = 0;
        }
        for step in &m.history()[self.seen..] {
            self.agent
                .observe(self.seat, &events_seen_by::<G>(step, viewer));
        }
        self.seen = m.history().len();
        let view = m.state().view(viewer);
        let legal = m.state().legal_actions(self.seat);
        let ctx = AgentContext::<G> {
            seat: self.seat,
            view: &view,
            legal: legal.as_deref(),
            budget,
        };
        self.agent.choose(&ctx).map(|a| to_value(&a))
    }
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
    fn apply_json(&mut self, actor: Actor, action: &Value) -> Result<Applied, ActionError> {
        self.apply_json_at(actor, action, None)
    }
    fn apply_json_at(
        &mut self,
        actor: Actor,
        action: &Value,
        at_ms: Option<i64>,
    ) -> Result<Applied, ActionError> {
        // Read from the borrowed tree: no copy of the action first.
        let action =
            G::Action::deserialize(action).map_err(|e| ActionError::malformed(G::INFO.name, e))?;
        let events = self
            .apply_at(actor, action, at_ms)
            .map_err(|e| ActionError::of(&e))?;
        Ok(Applied::project::<G>(&events, self.state().seats()))
    }
    fn history_json(&self, viewer: Viewer, from: usize) -> Vec<Vec<Value>> {
        let viewer = in_range(viewer, self.state().seats());
        self.history()
            .iter()
            .skip(from)
            .map(|step| events_json::<G>(step, viewer))
            .collect()
    }
    fn legal_actions_json(&self, seat: Seat) -> Option<Vec<Value>> {
        if seat.0 >= self.state().seats() {
            return Some(Vec::new());
        }
        self.state()
            .legal_actions(seat)
            .map(|v| v.iter().map(to_value).collect())
    }
    fn view_json(&self, viewer: Viewer) -> Value {
        to_value(&self.state().view(in_range(viewer, self.state().seats())))
    }
    fn write_view_json(&self, viewer: Viewer, out: &mut Vec<u8>) {
        let view = self.state().view(in_range(viewer, self.state().seats()));
        write_json(out, &view);
    }
    fn write_legal_actions_json(&self, seat: Seat, out: &mut Vec<u8>) {
        if seat.0 >= self.state().seats() {
            out.extend_from_slice(b"[]");
            return;
        }
        write_json(out, &self.state().legal_actions(seat));
    }
    fn outcome(&self) -> Option<Outcome> {
        self.state().outcome()
    }
    fn score_words(&self) -> crate::ScoreWords {
        self.state().score_words()
    }
    fn seat_labels(&self) -> Option<Vec<String>> {
        self.state().seat_labels()
    }
    fn record_json(&self) -> Value {
        to_value(self.record())
    }
    fn actions_len(&self) -> usize {
        self.record().actions.len()
    }
    fn assist_json(
        &self,
        viewer: Viewer,
        query: &Value,
        budget: &Budget,
    ) -> Result<Value, HelpError> {
        if <G::Query as crate::Query>::NONE {
            return Err(HelpError::NoHelper);
        }
        let query = G::Query::deserialize(query).map_err(HelpError::bad_query::<G::Query>)?;
        let answer = self.state().assist(viewer, &query, budget)?;
        serde_json::to_value(answer)
            .map_err(|e| HelpError::Stopped(format!("the helper's answer is not JSON: {e}")))
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
    fn agent(
        &self,
        seat: Seat,
        level: Level,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Box<dyn DynAgent>, ConfigError> {
        let agent = G::agent(self.state().config(), level, seed, resources)?;
        Ok(Box::new(ErasedAgent::<G> {
            seat,
            agent,
            seen: 0,
        }))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn clone_match(&self) -> Box<dyn DynMatch> {
        Box::new(self.clone())
    }
}

/// What `viewer` sees of `events`, as JSON.
fn events_json<G: Game>(events: &[G::Event], viewer: Viewer) -> Vec<Value> {
    events_seen_by::<G>(events, viewer)
        .iter()
        .map(to_value)
        .collect()
}

/// Appends [`events_json`] as the JSON text of an array to `out`, written
/// straight from the events.
fn write_events<G: Game>(out: &mut Vec<u8>, events: &[G::Event], viewer: Viewer) {
    let open = out.len();
    out.push(b'[');
    for event in events.iter().filter_map(|e| G::event_view(e, viewer)) {
        if out.len() > open + 1 {
            out.push(b',');
        }
        let start = out.len();
        // As `to_value` would have it: null for what JSON cannot hold.
        if serde_json::to_writer(&mut *out, &event).is_err() {
            out.truncate(start);
            out.extend_from_slice(b"null");
        }
    }
    out.push(b']');
}

/// A seat that is not at the table sees what a spectator sees: games are
/// only ever asked about their own seats.
fn in_range(viewer: Viewer, seats: usize) -> Viewer {
    match viewer {
        Viewer::Seat(s) if s.0 >= seats => Viewer::Spectator,
        v => v,
    }
}

/// Appends `t` as JSON text; `null` where [`to_value`] would give it.
fn write_json<T: serde::Serialize>(out: &mut Vec<u8>, t: &T) {
    let start = out.len();
    if serde_json::to_writer(&mut *out, t).is_err() {
        out.truncate(start);
        out.extend_from_slice(b"null");
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
    /// The settings a lobby offers ([`Game::settings`]).
    fn settings(&self) -> Vec<Setting>;
    /// The lobby's one-click rules ([`Game::presets`]).
    fn presets(&self) -> Vec<crate::Preset>;
    /// How to play, in short ([`Game::how_to_play`]).
    fn how_to_play(&self) -> &'static str;
    /// Whether seats may change sides during a game
    /// ([`Game::seats_change_sides`]).
    fn seats_change_sides(&self) -> bool;
    /// What JSON rules need from the host ([`Game::needs`]): their seat
    /// count and word lists. Fails on JSON that is not this game's rules.
    fn needs(&self, config: &Value) -> Result<Needs, RegistryError>;
    /// Whether the seed decides anything hidden under these JSON rules
    /// ([`Game::hidden_chance`]). Fails on JSON that is not this game's
    /// rules.
    fn hidden_chance(&self, config: &Value) -> Result<bool, RegistryError>;
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
    /// The game's conformance suites on the word list `lexicon`, one per
    /// config of its mix; `None` where it was registered without them
    /// ([`Extras::suites`]).
    fn suites(
        &self,
        resources: &Resources,
        lexicon: &str,
    ) -> Option<Vec<Box<dyn crate::conformance::DynSuite>>>;
    /// Actions a client playing from its views (a load generator) may try
    /// where the game lists none, for these JSON rules; `None` where the
    /// game was registered without them ([`Extras::view_actions`]).
    fn view_actions(
        &self,
        config: &Value,
        resources: &Resources,
    ) -> Option<Result<ViewActions, String>>;
    /// How the game makes and judges puzzles; `None` where it makes none
    /// ([`Extras::puzzles`]).
    fn puzzles(&self) -> Option<crate::PuzzleBook>;
}

struct Entry<G: Game> {
    extras: Extras<G>,
    game: PhantomData<fn() -> G>,
}

/// Actions a client that sees only its seat's view (as JSON) may try where
/// the game lists none (Gobble's words): `None` when it has none to offer.
pub type ViewActions = Arc<dyn Fn(&Value) -> Option<Vec<Value>> + Send + Sync>;

/// Makes a game's [`ViewActions`] for its JSON rules (the word list they
/// name, from `resources`), or says why it cannot.
pub type ViewActionsFor = fn(config: &Value, resources: &Resources) -> Result<ViewActions, String>;

/// What a game may bring to hosts besides its rules
/// ([`Registry::register_with`]).
pub struct Extras<G: Game> {
    /// Its conformance suites ([`GameEntry::suites`]).
    pub suites: Option<crate::conformance::Mix<G>>,
    /// Actions for a client that sees only its views, where the game lists
    /// none ([`GameEntry::view_actions`]).
    pub view_actions: Option<ViewActionsFor>,
    /// How it makes and judges puzzles ([`GameEntry::puzzles`]).
    pub puzzles: Option<crate::PuzzleBook>,
}

impl<G: Game> Default for Extras<G> {
    fn default() -> Self {
        Extras {
            suites: None,
            view_actions: None,
            puzzles: None,
        }
    }
}

/// Checks a new game's config against the ranges and lengths its game
/// declares ([`Game::settings`]) before the game sees it: whatever a game's
/// own validation does, a setting outside what the lobby offers (a million
/// rounds, a keyphrase of a megabyte) is refused before any work is done on
/// it. Records are not checked: a game stored before a bound tightened
/// still replays.
fn within_declared(settings: &[Setting], config: &Value) -> Result<(), String> {
    for s in settings {
        let mut at = Some(config);
        for part in s.field.split('.') {
            at = at.and_then(|v| v.get(part));
        }
        let Some(v) = at else { continue };
        let field = s.field;
        match &s.kind {
            SettingKind::Seats { min, max } => {
                if !v
                    .as_u64()
                    .is_some_and(|n| (*min as u64..=*max as u64).contains(&n))
                {
                    return Err(format!(
                        "{field}: {v} is not a seat count from {min} to {max}"
                    ));
                }
            }
            SettingKind::Integer { min, max, optional } => {
                if v.is_null() && *optional {
                    continue;
                }
                if !v.as_i64().is_some_and(|n| (*min..=*max).contains(&n)) {
                    return Err(format!(
                        "{field}: {} is not a whole number from {min} to {max}{}",
                        shown(v),
                        if *optional { " (or null)" } else { "" }
                    ));
                }
            }
            SettingKind::Number { min, max } => {
                if !v.as_f64().is_some_and(|n| n >= *min && n <= *max) {
                    return Err(format!(
                        "{field}: {} is not a number from {min} to {max}",
                        shown(v)
                    ));
                }
            }
            SettingKind::Text { max_len, optional } => {
                if v.is_null() && *optional {
                    continue;
                }
                match v.as_str() {
                    Some(t) if t.chars().count() <= *max_len => {}
                    Some(t) => {
                        return Err(format!(
                            "{field}: {} characters is too long: at most {max_len}",
                            t.chars().count()
                        ))
                    }
                    None => return Err(format!("{field}: {} is not text", shown(v))),
                }
            }
            SettingKind::WordList { .. } => {
                if v.as_str().is_some_and(|t| t.len() > MAX_WORD_LIST_NAME) {
                    return Err(format!(
                        "{field}: a word list's name is at most {MAX_WORD_LIST_NAME} characters"
                    ));
                }
            }
            SettingKind::Bool
            | SettingKind::Choice { .. }
            | SettingKind::Flags { .. }
            | SettingKind::Teams => {}
        }
    }
    Ok(())
}

/// The config of a new game of `G`: within the ranges `G` declares, then
/// read as `G`'s config.
fn new_config<G: Game>(config: &Value) -> Result<G::Config, RegistryError> {
    let bad = |kind: ErrorKind, message: String| RegistryError::BadConfig {
        game: G::INFO.name,
        kind,
        message,
    };
    within_declared(&G::settings(), config).map_err(|m| bad(ErrorKind::BadSetting, m))?;
    serde_json::from_value(config.clone()).map_err(|e| bad(ErrorKind::Malformed, e.to_string()))
}

/// Longest word list name a config may give (names and fingerprints are
/// far shorter).
const MAX_WORD_LIST_NAME: usize = 128;

/// A value as an error message shows it: long ones cut short.
fn shown(v: &Value) -> String {
    let t = v.to_string();
    match t.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &t[..i]),
        None => t,
    }
}

impl<G: Game> GameEntry for Entry<G> {
    fn puzzles(&self) -> Option<crate::PuzzleBook> {
        self.extras.puzzles
    }
    fn info(&self) -> GameInfo {
        G::INFO
    }
    fn default_config(&self) -> Value {
        to_value(&G::Config::default())
    }
    fn settings(&self) -> Vec<Setting> {
        G::settings()
    }
    fn presets(&self) -> Vec<crate::Preset> {
        G::presets()
    }
    fn how_to_play(&self) -> &'static str {
        G::how_to_play()
    }
    fn seats_change_sides(&self) -> bool {
        G::seats_change_sides()
    }
    fn needs(&self, config: &Value) -> Result<Needs, RegistryError> {
        Ok(G::needs(&new_config::<G>(config)?))
    }
    fn hidden_chance(&self, config: &Value) -> Result<bool, RegistryError> {
        Ok(G::hidden_chance(&new_config::<G>(config)?))
    }
    fn new_match(
        &self,
        config: &Value,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Box<dyn DynMatch>, RegistryError> {
        let m = Match::<G>::new(new_config::<G>(config)?, seed, resources).map_err(|e| {
            RegistryError::BadConfig {
                game: G::INFO.name,
                kind: e.kind,
                message: e.message,
            }
        })?;
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
    fn view_actions(
        &self,
        config: &Value,
        resources: &Resources,
    ) -> Option<Result<ViewActions, String>> {
        self.extras.view_actions.map(|f| f(config, resources))
    }
    fn suites(
        &self,
        resources: &Resources,
        lexicon: &str,
    ) -> Option<Vec<Box<dyn crate::conformance::DynSuite>>> {
        let mix = self.extras.suites?;
        Some(
            mix(resources, lexicon)
                .into_iter()
                .map(|s| Box::new(s) as Box<dyn crate::conformance::DynSuite>)
                .collect(),
        )
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
        self.register_with::<G>(Extras::default())
    }

    /// Adds game `G` with what it brings besides its rules ([`Extras`]).
    pub fn register_with<G: Game>(&mut self, extras: Extras<G>) -> &mut Self {
        let entry = Entry::<G> {
            extras,
            game: PhantomData,
        };
        self.games.insert(G::INFO.name, Arc::new(entry));
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

impl RegistryError {
    /// What kind of problem this is, for machines.
    pub fn kind(&self) -> ErrorKind {
        match self {
            RegistryError::UnknownGame { .. } => ErrorKind::Malformed,
            RegistryError::BadConfig { kind, .. } => *kind,
            RegistryError::Record(RecordError::Config(e)) => e.kind,
            RegistryError::Record(_) => ErrorKind::Malformed,
        }
    }
}
