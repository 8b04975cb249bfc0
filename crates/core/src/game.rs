//! The game trait.

use crate::{agent::Level, Actor, Agent, Budget, HelpError, Resources, Seat, Seed, ToAct, Viewer};
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

/// What kind of refusal an error is, for machines: a client acts on the
/// kind (greys out a button, offers the dictionary, waits its turn) and
/// shows the sentence. Serialised in `snake_case` (`not_your_turn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Not this actor's turn, or not a seat that may act now.
    NotYourTurn,
    /// The game is over (or the round is), nothing more is accepted.
    GameOver,
    /// A well-formed action the rules do not allow here.
    Illegal,
    /// The action could mean more than one thing; say which.
    Ambiguous,
    /// A word that is not in the game's word list.
    UnknownWord,
    /// Not an action of this game at all (bad JSON, bad notation).
    Malformed,
    /// A setting out of its range or not allowed with another setting.
    BadSetting,
    /// A word list or other resource the settings name is not available.
    UnknownResource,
    /// The settings are fine, but the host has no room for what they need
    /// now (the data they derive does not fit beside what live games
    /// hold); asking again later can succeed.
    Busy,
}

impl ErrorKind {
    /// The kind's name as it appears in JSON (`not_your_turn`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::NotYourTurn => "not_your_turn",
            ErrorKind::GameOver => "game_over",
            ErrorKind::Illegal => "illegal",
            ErrorKind::Ambiguous => "ambiguous",
            ErrorKind::UnknownWord => "unknown_word",
            ErrorKind::Malformed => "malformed",
            ErrorKind::BadSetting => "bad_setting",
            ErrorKind::UnknownResource => "unknown_resource",
            ErrorKind::Busy => "busy",
        }
    }
}

impl std::fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game's refusal of an action: a sentence for people ([`std::fmt::Display`])
/// and a [`ErrorKind`] for machines.
pub trait GameError: std::error::Error + Send + Sync + 'static {
    /// What kind of refusal this is.
    fn kind(&self) -> ErrorKind;

    /// Where on the game's board or paper the refusal is (in the view's
    /// own coordinates), for a page to mark the place: a Sprouts stroke
    /// that crosses a line says where it crosses. Most refusals are about
    /// no place.
    fn at(&self) -> Option<[i32; 2]> {
        None
    }
}

/// A config that the game cannot be played with, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ConfigError {
    /// What kind of problem: [`ErrorKind::BadSetting`] unless said otherwise.
    pub kind: ErrorKind,
    /// What was wrong and what is accepted, in one line.
    pub message: String,
}

impl ConfigError {
    /// A bad setting with this message.
    pub fn new(message: impl Into<String>) -> Self {
        ConfigError {
            kind: ErrorKind::BadSetting,
            message: message.into(),
        }
    }

    /// An error of another kind (a word list that is not there:
    /// [`ErrorKind::UnknownResource`]).
    pub fn with_kind(kind: ErrorKind, message: impl Into<String>) -> Self {
        ConfigError {
            kind,
            message: message.into(),
        }
    }
}

impl From<crate::ResourceError> for ConfigError {
    fn from(e: crate::ResourceError) -> Self {
        ConfigError::with_kind(ErrorKind::UnknownResource, e.to_string())
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

/// How the scores of an [`Outcome`] read, in the game's own words: one
/// and many ("point", "points"; Word Sprout's "round won", "rounds won").
/// A host writes "12 points", never a unit of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreWords {
    /// For a score of exactly 1.
    pub one: &'static str,
    /// For any other score.
    pub many: &'static str,
}

impl ScoreWords {
    /// "point", "points": the default.
    pub const POINTS: ScoreWords = ScoreWords {
        one: "point",
        many: "points",
    };
}

/// What a game's settings need from the host, as the game declares it
/// ([`Game::needs`]): the host finds and loads these before it creates the
/// game, and never guesses from field names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Needs {
    /// How many seats play with these settings.
    pub seats: usize,
    /// The word lists the settings name, each with the role it plays.
    pub word_lists: Vec<WordListNeed>,
}

/// One word list a game's settings name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordListNeed {
    /// What the game uses it for (`words`; Twin Grids also has `openings`).
    pub role: String,
    /// The list's name as the settings give it (`en`, an uploaded list's id).
    pub name: String,
}

impl Needs {
    /// `seats` seats and no word list.
    pub fn seats(seats: usize) -> Needs {
        Needs {
            seats,
            word_lists: Vec::new(),
        }
    }

    /// These needs plus the list `name` in `role`.
    pub fn word_list(mut self, role: &str, name: &str) -> Needs {
        self.word_lists.push(WordListNeed {
            role: role.to_string(),
            name: name.to_string(),
        });
        self
    }
}

/// One field of a game's settings, described for a form ([`Game::settings`]):
/// a lobby draws any game's settings from these without knowing the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Setting {
    /// Where the value lives in the config's JSON: a field name, or a
    /// dotted path into nested objects (`rules.vowels`).
    pub field: &'static str,
    /// A short label (`Board size`).
    pub label: &'static str,
    /// One line of explanation.
    pub help: &'static str,
    /// What values it takes.
    pub kind: SettingKind,
}

/// The values a [`Setting`] takes. Serialised with a `type` tag.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SettingKind {
    /// The number of seats (the lobby's seat count writes here).
    Seats {
        /// Fewest.
        min: usize,
        /// Most.
        max: usize,
    },
    /// A whole number in a range; `null` (absent) allowed when `optional`.
    Integer {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
        /// Whether it may be left out (the game then chooses).
        optional: bool,
    },
    /// A number in a range (seconds, points).
    Number {
        /// Smallest allowed.
        min: f64,
        /// Largest allowed.
        max: f64,
    },
    /// On or off.
    Bool,
    /// One of a few values (JSON strings or numbers).
    Choice {
        /// The values with their labels.
        options: Vec<SettingOption>,
    },
    /// Any number of a few values, as a JSON array (Word Sprout's rules).
    Flags {
        /// The values with their labels.
        options: Vec<SettingOption>,
    },
    /// Free text up to a length; `null` (absent) when `optional` and empty.
    Text {
        /// Longest accepted, in characters.
        max_len: usize,
        /// Whether it may be left out.
        optional: bool,
    },
    /// Seats split into teams: a JSON list of lists of seat numbers from
    /// 0 (`[[0, 2], [1, 3]]`); empty for no teams.
    Teams,
    /// The name of a word list, in the role given (see [`Needs`]).
    WordList {
        /// The role ([`WordListNeed::role`]).
        role: &'static str,
    },
}

/// One value of a [`SettingKind::Choice`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SettingOption {
    /// The value as it goes into the config's JSON.
    pub value: serde_json::Value,
    /// What people are shown.
    pub label: &'static str,
}

impl SettingOption {
    /// An option whose value is the string `value`.
    pub fn text(value: &'static str, label: &'static str) -> Self {
        SettingOption {
            value: serde_json::Value::from(value),
            label,
        }
    }
}

/// A named set of rules a lobby offers in one click ([`Game::presets`]):
/// values for some of the game's declared [`Setting`]s, the others keeping
/// their defaults. A preset never says anything a settings form could not:
/// every field it sets is a declared setting's, and its values are held to
/// the same ranges (the conformance test in `parlor-cli` creates a game
/// from every preset of every registered game).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Preset {
    /// A short stable name (`classic`), for links and tests.
    pub name: &'static str,
    /// What people are shown (`Classic`).
    pub label: &'static str,
    /// One line: what playing with it is like.
    pub help: &'static str,
    /// The settings it sets, by [`Setting::field`] (a dotted path), as a
    /// JSON object.
    pub values: serde_json::Map<String, serde_json::Value>,
}

impl Preset {
    /// A preset that sets nothing yet (the game's defaults).
    pub fn new(name: &'static str, label: &'static str, help: &'static str) -> Preset {
        Preset {
            name,
            label,
            help,
            values: serde_json::Map::new(),
        }
    }

    /// This preset, also setting `field` to `value`.
    pub fn set(mut self, field: &str, value: impl Into<serde_json::Value>) -> Preset {
        self.values.insert(field.to_string(), value.into());
        self
    }

    /// The JSON rules of this preset: `defaults` with its values written
    /// in at their fields (dotted paths make the objects on the way).
    pub fn config(&self, defaults: &serde_json::Value) -> serde_json::Value {
        let mut c = defaults.clone();
        for (field, v) in &self.values {
            let mut at = &mut c;
            let parts: Vec<&str> = field.split('.').collect();
            for p in &parts[..parts.len() - 1] {
                if !at.get(*p).is_some_and(|x| x.is_object()) {
                    at[*p] = serde_json::Value::Object(Default::default());
                }
                at = &mut at[*p];
            }
            at[parts[parts.len() - 1]] = v.clone();
        }
        c
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
/// - Hidden information leaves the state only through [`Game::view`] and
///   [`Game::event_view`] for the seat entitled to it: a host never shows
///   an event to a viewer except through [`Game::event_view`].
/// - After the last action, [`Game::to_act`] is [`ToAct::Over`] and
///   [`Game::outcome`] is `Some`.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// Rules and variants, plain data.
    type Config: Serialize + DeserializeOwned + Clone + Debug + Default + PartialEq + Send + Sync;
    /// What one actor submits.
    type Action: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;
    /// What one viewer may see.
    type View: Serialize + Clone + Debug + Send;
    /// What happened as a result of an action. An event may hold hidden
    /// information ("player 2 drew 7h"); [`Game::event_view`] says what
    /// each viewer may see of it.
    type Event: Serialize + Clone + Debug + Send + Sync;
    /// Why an action was refused, with its [`crate::ErrorKind`].
    type Error: GameError;
    /// What the game's helper is asked ([`Game::assist`]);
    /// [`crate::NoHelper`] for a game without one.
    type Query: crate::Query;
    /// What the game's helper answers; [`crate::NoHelper`] for a game
    /// without one.
    type Answer: Serialize;

    /// The game's static facts.
    const INFO: GameInfo;

    /// A new game: checks the config, seeds the generator, deals, sets up.
    fn new(config: &Self::Config, seed: Seed, resources: &Resources) -> Result<Self, ConfigError>;

    /// The config this game was created with.
    fn config(&self) -> &Self::Config;

    /// What `config` needs from the host: its seat count and the word lists
    /// it names. Called before [`Game::new`], on settings that may be
    /// invalid: it only reads them (the default: [`GameInfo::min_seats`]
    /// seats, no word list).
    fn needs(config: &Self::Config) -> Needs {
        let _ = config;
        Needs::seats(Self::INFO.min_seats)
    }

    /// The settings a lobby offers, described field by field (their
    /// defaults are [`Game::Config`]'s `Default`). Fields left out keep
    /// their default values. Empty (the default): nothing to set.
    fn settings() -> Vec<Setting> {
        Vec::new()
    }

    /// Named sets of rules a lobby offers in one click, first the one to
    /// suggest: each sets only declared [`Game::settings`] (see
    /// [`Preset`]). Empty (the default): the lobby offers the defaults.
    fn presets() -> Vec<Preset> {
        Vec::new()
    }

    /// How to play, in two or three sentences for a newcomer (the lobby
    /// shows it beside the game; the whole rules are the game's rules
    /// document). Empty (the default): none.
    fn how_to_play() -> &'static str {
        ""
    }

    /// Whether the seed decides anything a seat may not see (a board drawn
    /// before the round starts, a shuffled deck, a hand): *hidden chance*.
    /// Whoever chose such a seed would know the deal, so a host draws the
    /// seed itself, publishes a hash of it at the start and reveals it with
    /// the record once the game is over; it takes a seed from a player only
    /// where this is `false`. Called before [`Game::new`], on settings that
    /// may be invalid: it only reads them.
    ///
    /// The default, `true`, is the safe answer. A game whose seed decides
    /// nothing hidden under `config` (nothing at all, or only what every
    /// seat sees from the start and the config already fixes) says `false`.
    fn hidden_chance(config: &Self::Config) -> bool {
        let _ = config;
        true
    }

    /// An upper bound, asked of a new game, on the actions it accepts
    /// before it is over, whatever the players do: the conformance suite
    /// fails a game that plays longer, so a game that could go on for ever
    /// is caught in testing, not on a server.
    fn action_bound(&self) -> usize;

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

    /// What `viewer` may see of `event`: the event itself (the default,
    /// for events with nothing hidden), a version with the hidden part
    /// taken out ("player 2 drew a card" for the others), or `None` to
    /// show that viewer nothing at all.
    fn event_view(event: &Self::Event, viewer: Viewer) -> Option<Self::Event> {
        let _ = viewer;
        Some(event.clone())
    }

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// How the scores of [`Game::outcome`] read (the default: points).
    fn score_words(&self) -> ScoreWords {
        ScoreWords::POINTS
    }

    /// What each seat is called now, where a seat's number is not its
    /// side: after Twin Grids' pie rule the second seat may be player 1.
    /// `None` (the default): seat `i` is player `i + 1` all game long. A
    /// host sends it with every state and in a live game's summary, and
    /// pages name seats with it.
    fn seat_labels(&self) -> Option<Vec<String>> {
        None
    }

    /// Whether [`Game::seat_labels`] may change during a game (the pie
    /// rule's swap): a listing made without the game's state then cannot
    /// say a seat's side. The default: `false`.
    fn seats_change_sides() -> bool {
        false
    }

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

    /// The game's own analysis for `viewer` (see [`crate::Query`]): Word
    /// Sprout's "what could I have played?", for example. The game decides
    /// when its helper is open (after a round, or during play where the
    /// table's rules allow it) and it never tells hidden information. The
    /// default, for a game whose query is [`crate::NoHelper`]:
    /// [`HelpError::NoHelper`].
    ///
    /// A helper that searches must stop when `budget` is
    /// [`Budget::exhausted`] (time, nodes, or the host cancelled it) and say
    /// so in its answer or with [`HelpError::Stopped`]: a host runs helpers
    /// on a bounded pool and cancels those nobody waits for.
    fn assist(
        &self,
        viewer: Viewer,
        query: &Self::Query,
        budget: &Budget,
    ) -> Result<Self::Answer, HelpError> {
        let _ = (viewer, query, budget);
        Err(HelpError::NoHelper)
    }

    /// The word lists this game plays with, stamped into its record.
    fn lexicons(&self) -> Vec<crate::LexiconStamp> {
        Vec::new()
    }

    /// The game's computer player at `level`, for one seat for the life of
    /// one game: a host builds it once, tells it every event its seat sees
    /// ([`Agent::observe`]), and asks it for a decision when its seat is to
    /// act, so an agent may remember (cards seen, a transposition table).
    /// After a restart the host builds it again and replays the record's
    /// events to it. The default plays uniformly among
    /// [`Game::legal_actions`].
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

/// What `viewer` sees of a list of events: each through
/// [`Game::event_view`], in order, those it may not see at all left out.
/// The one way hosts, records, agents and the conformance suite show
/// events to anyone.
pub fn events_seen_by<G: Game>(events: &[G::Event], viewer: Viewer) -> Vec<G::Event> {
    events
        .iter()
        .filter_map(|e| G::event_view(e, viewer))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_preset_writes_its_values_into_the_defaults() {
        let p = Preset::new("x", "X", "one line")
            .set("size", 5)
            .set("rules.vowels", "aeiouy");
        let c = p.config(&json!({"size": 4, "seconds": 180, "rules": null}));
        assert_eq!(
            c,
            json!({"size": 5, "seconds": 180, "rules": {"vowels": "aeiouy"}})
        );
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v["values"], json!({"size": 5, "rules.vowels": "aeiouy"}));
    }
}
