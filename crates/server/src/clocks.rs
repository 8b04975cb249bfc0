//! The glue between a game's actor and [`parlor_core::Clocks`], the one
//! model of every clock the host keeps (banks with increment or delay, the
//! turn clock, the absent countdown, the game's own round clock).
//!
//! The actor keeps a [`Timeline`]: who was to act and the game's deadline
//! at the start, then one [`Step`] per accepted action with the time stored
//! with it (`ActionRow::at_ms`). With the stored start of play that is all
//! [`Clocks::replay`] needs, so a restart, a catch-up from another process
//! or a rollback rebuilds exactly the same clocks.
//!
//! The start of play is stored in the games row's deadline columns, under
//! the key [`START_KEY`] (written once, conditionally, like the old round
//! clock's start). A row written before holds its round's key and start
//! there: that start is taken as the start of play (exact for a game whose
//! round clock ran from the start, such as Gobble's).

use crate::error::Code;
use crate::storage::{ActionRow, GameRow};
use parlor_core::{Actor, Clocks, DynMatch, GameEntry, Resources, Step, TimeControl, ToAct};
use serde_json::Value;

/// The deadline key under which a game's start of play is stored.
pub(crate) const START_KEY: &str = "@clocks";

/// The game's deadline as the clocks take it: (key, seconds).
pub(crate) fn round_of(m: &dyn DynMatch) -> Option<(String, f64)> {
    m.deadline_json().map(|d| (d.key, d.seconds))
}

/// What the clocks need to be rebuilt: the state at seq 0 and every
/// accepted action since, as the clocks see it.
#[derive(Clone, Debug)]
pub(crate) struct Timeline {
    pub to_act: ToAct,
    pub round: Option<(String, f64)>,
    pub steps: Vec<Step>,
}

impl Timeline {
    /// A game nobody has moved in.
    pub(crate) fn new(m: &dyn DynMatch) -> Timeline {
        Timeline {
            to_act: m.to_act(),
            round: round_of(m),
            steps: Vec::new(),
        }
    }

    /// Adds the action just applied to `m` (by `actor`, at `at_ms`).
    pub(crate) fn push(&mut self, m: &dyn DynMatch, actor: Actor, at_ms: i64) -> &Step {
        self.steps.push(Step {
            at_ms,
            actor,
            to_act: m.to_act(),
            round: round_of(m),
        });
        self.steps.last().expect("just pushed")
    }

    /// The clocks of a game under `control` with `seats` seats whose play
    /// started at `start_ms`. `None` for a control the model refuses (only
    /// a stored one written by hand can be).
    pub(crate) fn clocks(
        &self,
        control: &TimeControl,
        seats: usize,
        start_ms: i64,
    ) -> Option<Clocks> {
        let round = self.round.as_ref().map(|(k, s)| (k.as_str(), *s));
        Clocks::replay(
            control.clone(),
            seats,
            start_ms,
            &self.to_act,
            round,
            self.steps.iter().cloned(),
        )
        .ok()
    }
}

/// Why a stored game could not be rebuilt.
#[derive(Debug)]
pub(crate) struct ReplayError {
    /// The game's rules need room the host has not got now (its shared
    /// data does not fit beside what live games hold): it can be loaded
    /// once games end.
    pub busy: bool,
    pub message: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<String> for ReplayError {
    fn from(message: String) -> Self {
        ReplayError {
            busy: false,
            message,
        }
    }
}

/// The game rebuilt from its stored rules, seed and actions, one action at
/// a time so that the clocks' timeline comes with it. Each action goes into
/// the record with its stored time.
pub(crate) fn replay(
    entry: &dyn GameEntry,
    row: &GameRow,
    actions: &[ActionRow],
    resources: &Resources,
) -> Result<(Box<dyn DynMatch>, Timeline), ReplayError> {
    let start = crate::record_json(row, &[]);
    let mut m = entry.replay(&start, resources).map_err(|e| match e {
        parlor_core::RegistryError::BadConfig {
            kind: parlor_core::ErrorKind::Busy,
            message,
            ..
        } => ReplayError {
            busy: true,
            message,
        },
        e => ReplayError::from(e.to_string()),
    })?;
    let mut timeline = Timeline::new(&*m);
    for a in actions {
        let actor: Actor = serde_json::from_value(a.actor.clone())
            .map_err(|e| format!("stored action {}: {e}", a.idx + 1))?;
        m.apply_json_at(actor, &a.action, Some(a.at_ms))
            .map_err(|e| format!("stored action {} is refused: {e}", a.idx + 1))?;
        timeline.push(&*m, actor, a.at_ms);
    }
    Ok((m, timeline))
}

/// The time control of a new game: `time_control` (the JSON object of
/// [`TimeControl`]) with the request's top-level shorthands
/// `turn_seconds` / `absent_seconds` filling its turn and absent clocks
/// (a shorthand and the same field in the object: they must agree).
/// Checked with [`TimeControl::validate`]; refused as `bad_config`.
pub(crate) fn time_control(
    object: Option<Value>,
    turn_seconds: Option<f64>,
    absent_seconds: Option<f64>,
) -> Result<TimeControl, crate::error::ApiError> {
    let bad =
        |m: String| crate::error::ApiError::new(Code::BadConfig, format!("time_control: {m}"));
    let mut tc: TimeControl = match object {
        None | Some(Value::Null) => TimeControl::default(),
        Some(v @ Value::Object(_)) => serde_json::from_value(v).map_err(|e| bad(e.to_string()))?,
        Some(_) => {
            return Err(bad(
                "an object such as {\"bank_seconds\": 300, \"increment_seconds\": 2}".into(),
            ))
        }
    };
    for (field, short, slot) in [
        ("turn_seconds", turn_seconds, &mut tc.turn_seconds),
        ("absent_seconds", absent_seconds, &mut tc.absent_seconds),
    ] {
        match (short, *slot) {
            (None, _) => {}
            (Some(a), Some(b)) if a != b => {
                return Err(bad(format!(
                    "{field} is given twice with different values ({a} at the top level, {b} in time_control): give it once"
                )))
            }
            (Some(a), _) => *slot = Some(a),
        }
    }
    tc.validate().map_err(|e| bad(e.to_string()))?;
    Ok(tc)
}
