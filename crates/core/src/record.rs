//! Game records and the bookkeeping around every game's `apply`.

use crate::{Actor, ConfigError, Game, Resources, Seed, ToAct};
use parlor_lexicon::Lexicon;
use serde::{Deserialize, Serialize};

/// The version of the record format written by this crate.
pub const RECORD_VERSION: u32 = 1;

/// Which word list a game was played with, so a replay against a different
/// list is refused instead of silently diverging.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LexiconStamp {
    /// The list's name (`en`, or the file it came from).
    pub name: String,
    /// Its number of words.
    pub words: usize,
    /// [`Lexicon::fingerprint`], in hexadecimal.
    pub fingerprint: String,
}

impl LexiconStamp {
    /// The stamp of `lexicon`.
    pub fn of(lexicon: &Lexicon) -> Self {
        LexiconStamp {
            name: lexicon.name().to_string(),
            words: lexicon.len(),
            fingerprint: format!("{:016x}", lexicon.fingerprint()),
        }
    }
}

/// One accepted action, in the order it was accepted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "A: Serialize", deserialize = "A: Deserialize<'de>"))]
pub struct RecordedAction<A> {
    /// Who acted.
    pub actor: Actor,
    /// What they did.
    pub action: A,
    /// When the host accepted it (ms since the Unix epoch), for hosts that
    /// keep clocks: replaying the times continues the same clocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<i64>,
}

/// A complete game: config + seed + accepted actions. Replaying it
/// reproduces every state exactly.
///
/// The JSON form is:
/// `{"format": 1, "game": "nim", "config": {..}, "seed": 7, "randomness": 1, "lexicons": [..], "actions": [{"actor": {"seat": 0}, "action": .., "at_ms": ..}]}`
/// (`at_ms` where the host keeps clocks).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound(serialize = "", deserialize = ""))]
pub struct Record<G: Game> {
    /// The record format version ([`RECORD_VERSION`]).
    pub format: u32,
    /// The game's registered name.
    pub game: String,
    /// The rules the game was played with.
    pub config: G::Config,
    /// The seed of the game's generator.
    pub seed: Seed,
    /// The version of the sampling algorithms that turn the seed into
    /// deals and boards ([`crate::RANDOMNESS_VERSION`]); records written
    /// before the field existed used version 1.
    #[serde(default = "randomness_v1")]
    pub randomness: u32,
    /// The word lists used, checked on replay.
    #[serde(default)]
    pub lexicons: Vec<LexiconStamp>,
    /// Every accepted action, in order.
    pub actions: Vec<RecordedAction<G::Action>>,
}

fn randomness_v1() -> u32 {
    1
}

/// Why a record could not be read or replayed.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Not JSON, or not the shape of a record of this game.
    #[error("not a valid game record: {0}")]
    Malformed(String),
    /// Written by a newer or unknown format.
    #[error("record format {found} is not supported (this build reads format {RECORD_VERSION})")]
    Version {
        /// The version found in the record.
        found: u32,
    },
    /// A record of another game.
    #[error("this is a record of {found:?}, not of {expected:?}")]
    WrongGame {
        /// The game asked for.
        expected: String,
        /// The game in the record.
        found: String,
    },
    /// Made with sampling algorithms this build does not have.
    #[error("the record's randomness version {found} is not supported (this build draws with version {})", crate::RANDOMNESS_VERSION)]
    Randomness {
        /// The version found in the record.
        found: u32,
    },
    /// The record's config is not playable.
    #[error("the record's rules are invalid: {0}")]
    Config(ConfigError),
    /// The record was made with another word list.
    #[error("the record was played with word list {recorded:?} ({recorded_words} words, fingerprint {recorded_fp}) but {name:?} here has {words} words, fingerprint {fp}; pass the same list")]
    LexiconChanged {
        /// The list name in the record.
        recorded: String,
        /// Its word count in the record.
        recorded_words: usize,
        /// Its fingerprint in the record.
        recorded_fp: String,
        /// The list used now.
        name: String,
        /// Its word count now.
        words: usize,
        /// Its fingerprint now.
        fp: String,
    },
    /// An action in the record was refused on replay.
    #[error("action {index} ({actor}) was refused on replay: {reason}")]
    Refused {
        /// Its position in the log, from 1.
        index: usize,
        /// Who submitted it.
        actor: Actor,
        /// The game's reason.
        reason: String,
    },
}

impl From<ConfigError> for RecordError {
    fn from(e: ConfigError) -> Self {
        RecordError::Config(e)
    }
}

impl<G: Game> PartialEq for Record<G> {
    fn eq(&self, other: &Self) -> bool {
        self.format == other.format
            && self.game == other.game
            && self.config == other.config
            && self.seed == other.seed
            && self.randomness == other.randomness
            && self.lexicons == other.lexicons
            && self.actions == other.actions
    }
}

impl<G: Game> Record<G> {
    /// The record as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("records serialise")
    }

    /// Reads a record, checking its format and game name.
    pub fn from_json(text: &str) -> Result<Self, RecordError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| RecordError::Malformed(e.to_string()))?;
        Self::from_value(value)
    }

    /// Reads a record from parsed JSON, checking its format and game name.
    pub fn from_value(value: serde_json::Value) -> Result<Self, RecordError> {
        let format = value.get("format").and_then(|v| v.as_u64());
        match format {
            Some(v) if v == u64::from(RECORD_VERSION) => {}
            Some(v) => return Err(RecordError::Version { found: v as u32 }),
            None => return Err(RecordError::Malformed("missing \"format\" field".into())),
        }
        let game = value
            .get("game")
            .and_then(|v| v.as_str())
            .unwrap_or_default();
        if game != G::INFO.name {
            return Err(RecordError::WrongGame {
                expected: G::INFO.name.into(),
                found: game.into(),
            });
        }
        serde_json::from_value(value).map_err(|e| RecordError::Malformed(e.to_string()))
    }
}

/// A game in progress with its record: the one place where actions are
/// applied and logged, and chance is resolved.
#[derive(Clone, Debug)]
pub struct Match<G: Game> {
    state: G,
    record: Record<G>,
    /// Every event so far: entry 0 those of the start, entry `i` those of
    /// the `i`-th accepted action (hidden parts included; a host shows
    /// them only through [`Game::event_view`]).
    history: Vec<Vec<G::Event>>,
}

impl<G: Game> Match<G> {
    /// Starts a game.
    pub fn new(config: G::Config, seed: Seed, resources: &Resources) -> Result<Self, ConfigError> {
        let mut state = G::new(&config, seed, resources)?;
        let opening = settle(&mut state);
        let record = Record {
            format: RECORD_VERSION,
            game: G::INFO.name.to_string(),
            config,
            seed,
            randomness: crate::RANDOMNESS_VERSION,
            lexicons: state.lexicons(),
            actions: Vec::new(),
        };
        Ok(Match {
            state,
            record,
            history: vec![opening],
        })
    }

    /// Every event so far, unprojected: entry 0 holds the events of the
    /// start (chance resolved before the first action), entry `i` those of
    /// the `i`-th accepted action. Hosts show a viewer these only through
    /// [`Game::event_view`].
    pub fn history(&self) -> &[Vec<G::Event>] {
        &self.history
    }

    /// The current state.
    pub fn state(&self) -> &G {
        &self.state
    }

    /// The record so far.
    pub fn record(&self) -> &Record<G> {
        &self.record
    }

    /// Applies an action and logs it if accepted; on error nothing changes.
    /// Pending chance events are resolved before returning.
    pub fn apply(&mut self, actor: Actor, action: G::Action) -> Result<Vec<G::Event>, G::Error> {
        self.apply_at(actor, action, None)
    }

    /// [`Match::apply`] for a host that keeps clocks: the action is
    /// recorded with the time it was accepted (ms since the Unix epoch).
    pub fn apply_at(
        &mut self,
        actor: Actor,
        action: G::Action,
        at_ms: Option<i64>,
    ) -> Result<Vec<G::Event>, G::Error> {
        let mut events = self.state.apply(actor, action.clone())?;
        events.extend(settle(&mut self.state));
        self.record.actions.push(RecordedAction {
            actor,
            action,
            at_ms,
        });
        self.history.push(events.clone());
        Ok(events)
    }

    /// Takes back the last accepted action by replaying all the others.
    /// Returns false when there is nothing to take back. Hosts of games
    /// with hidden information should not offer this to players.
    pub fn undo(&mut self, resources: &Resources) -> bool {
        let mut record = self.record.clone();
        if record.actions.pop().is_none() {
            return false;
        }
        match Self::replay(&record, resources) {
            Ok(m) => {
                *self = m;
                true
            }
            Err(_) => false,
        }
    }

    /// Rebuilds a game from its record.
    ///
    /// A word list the record names but `resources` lack under that name
    /// (a file loaded from another path) is found by its fingerprint among
    /// the lists added to `resources`.
    pub fn replay(record: &Record<G>, resources: &Resources) -> Result<Self, RecordError> {
        let mut resources = resources.clone();
        for stamp in &record.lexicons {
            if resources.lexicon(&stamp.name).is_ok() {
                continue;
            }
            let same = u64::from_str_radix(&stamp.fingerprint, 16)
                .ok()
                .and_then(|fp| resources.lexicon_by_fingerprint(fp));
            if let Some(lexicon) = same {
                resources = resources.with_lexicon_as(&stamp.name, lexicon);
            }
        }
        if record.randomness != crate::RANDOMNESS_VERSION {
            return Err(RecordError::Randomness {
                found: record.randomness,
            });
        }
        let resources = &resources;
        let mut m = Match::new(record.config.clone(), record.seed, resources)?;
        for (now, then) in m.record.lexicons.iter().zip(&record.lexicons) {
            if now.fingerprint != then.fingerprint {
                return Err(RecordError::LexiconChanged {
                    recorded: then.name.clone(),
                    recorded_words: then.words,
                    recorded_fp: then.fingerprint.clone(),
                    name: now.name.clone(),
                    words: now.words,
                    fp: now.fingerprint.clone(),
                });
            }
        }
        for (i, step) in record.actions.iter().enumerate() {
            m.apply_at(step.actor, step.action.clone(), step.at_ms)
                .map_err(|e: G::Error| RecordError::Refused {
                    index: i + 1,
                    actor: step.actor,
                    reason: e.to_string(),
                })?;
        }
        Ok(m)
    }
}

/// Resolves chance until a seat (or nobody) is to act.
fn settle<G: Game>(state: &mut G) -> Vec<G::Event> {
    let mut events = Vec::new();
    // A game that stays at chance forever is a bug in that game; the bound
    // keeps a host alive if it happens.
    for _ in 0..10_000 {
        if state.to_act() != ToAct::Chance {
            break;
        }
        events.extend(state.resolve_chance());
    }
    events
}
