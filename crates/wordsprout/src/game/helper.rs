//! The helper at the table: "what could I have played?", for a host that
//! offers it (the play server's helper button).
//!
//! It is open to everyone once the match is over or between rounds, and
//! during play only where the table was created with [`Config::hints`]:
//! otherwise it would play the game for whoever asks. Perfect-play marks
//! (`"solve": true`) come with two players, where the game is solved.

use super::{Phase, WordSprout};
use crate::hint::hint;
use parlor_core::Viewer;
use serde::Deserialize;
use serde_json::{json, Value};

/// What the helper is asked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    /// The string to look at; the table's current string when absent.
    #[serde(default)]
    string: Option<String>,
    /// Also mark each play winning or losing under perfect play.
    #[serde(default)]
    solve: bool,
}

impl WordSprout {
    pub(super) fn helper(
        &self,
        _viewer: Viewer,
        request: &Value,
        budget: &parlor_core::Budget,
    ) -> Result<Value, String> {
        let request: Request = serde_json::from_value(request.clone()).map_err(|e| {
            format!("a helper request is {{\"string\": \"omat\", \"solve\": false}}, both optional: {e}")
        })?;
        let between_rounds = matches!(self.phase, Phase::Over | Phase::ChoosingRule { .. });
        if !between_rounds && !self.config.hints {
            return Err(
                "the helper opens after the round (this table was created without hints)".into(),
            );
        }
        // The listing and the solved table are built once per word list and
        // rule set and then shared; a request nobody waits for any more
        // does not start one.
        if budget.cancelled() {
            return Err("the helper request was cancelled".into());
        }
        let string = request.string.unwrap_or_else(|| self.string.clone());
        let judge = &self.shared.judge;
        let solution = (request.solve && self.config.players == 2).then(|| judge.solution());
        let moves =
            hint(judge.language(), &string, solution.as_deref()).map_err(|e| e.to_string())?;
        Ok(json!({
            "string": string.to_ascii_lowercase(),
            "solved": solution.is_some(),
            "moves": moves,
        }))
    }
}
