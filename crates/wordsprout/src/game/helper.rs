//! The helper at the table: "what could I have played?", for a host that
//! offers it (the play server's helper button).
//!
//! It is open to everyone once the match is over or between rounds, and
//! during play only where the table was created with [`Config::hints`]:
//! otherwise it would play the game for whoever asks. Perfect-play marks
//! (`"solve": true`) come with two players, where the game is solved.
//!
//! The answer is one page of the plays: at most `limit` of them (from the
//! `offset`th), each with its first goal words and their count, with the
//! total and the request for the next page (`next`). From the empty
//! string on a large list the whole answer would run to megabytes.

use super::{Phase, WordSprout};
use crate::hint::hint_page;
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
    /// The first play listed, from 0.
    #[serde(default)]
    offset: usize,
    /// Most plays listed.
    #[serde(default)]
    limit: Option<usize>,
}

/// Plays listed when the request does not say.
const HELPER_PAGE: usize = 50;
/// Most plays one answer lists.
const HELPER_PAGE_MAX: usize = 200;
/// Goal words listed under each play (with their count).
const HELPER_GOAL_WORDS: usize = 50;
/// Longest string the helper looks at, in letters (longer than any word).
const HELPER_STRING_MAX: usize = 100;

impl WordSprout {
    pub(super) fn helper(
        &self,
        _viewer: Viewer,
        request: &Value,
        budget: &parlor_core::Budget,
    ) -> Result<Value, String> {
        let request: Request = serde_json::from_value(request.clone()).map_err(|e| {
            format!("a helper request is {{\"string\": \"omat\", \"solve\": false, \"offset\": 0, \"limit\": {HELPER_PAGE}}}, all optional: {e}")
        })?;
        let limit = request.limit.unwrap_or(HELPER_PAGE);
        if !(1..=HELPER_PAGE_MAX).contains(&limit) {
            return Err(format!(
                "limit: 1 to {HELPER_PAGE_MAX} plays a page, not {limit}"
            ));
        }
        if request
            .string
            .as_ref()
            .is_some_and(|s| s.len() > HELPER_STRING_MAX)
        {
            return Err(format!("string: at most {HELPER_STRING_MAX} letters"));
        }
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
        let page = hint_page(
            judge.language(),
            &string,
            solution.as_deref(),
            request.offset,
            limit,
            HELPER_GOAL_WORDS,
        )
        .map_err(|e| e.to_string())?;
        let end = request.offset.saturating_add(page.moves.len());
        let string = string.to_ascii_lowercase();
        let next = (end < page.total).then(
            || json!({"string": string, "solve": request.solve, "offset": end, "limit": limit}),
        );
        Ok(json!({
            "string": string,
            "solved": solution.is_some(),
            "total": page.total,
            "offset": request.offset,
            "moves": page.moves,
            "next": next,
        }))
    }
}
