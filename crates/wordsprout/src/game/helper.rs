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
use crate::hint::{hint_page, HintMove};
use parlor_core::{HelpError, Viewer};
use serde::{Deserialize, Serialize};

/// What the helper is asked: `{"string": "omat", "solve": false,
/// "offset": 0, "limit": 50}`, all optional.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HelperQuery {
    /// The string to look at; the table's current string when absent.
    #[serde(default)]
    pub string: Option<String>,
    /// Also mark each play winning or losing under perfect play.
    #[serde(default)]
    pub solve: bool,
    /// The first play listed, from 0.
    #[serde(default)]
    pub offset: usize,
    /// Most plays listed.
    #[serde(default)]
    pub limit: Option<usize>,
}

impl parlor_core::Query for HelperQuery {
    const EXAMPLE: &'static str =
        r#"{"string": "omat", "solve": false, "offset": 0, "limit": 50} (all optional)"#;
}

/// One page of what could be played from a string.
#[derive(Clone, Debug, Serialize)]
pub struct HelperPage {
    /// The string, lowercase.
    pub string: String,
    /// Whether the plays carry perfect-play verdicts.
    pub solved: bool,
    /// Plays in all, on every page.
    pub total: usize,
    /// This page's first play, from 0.
    pub offset: usize,
    /// This page's plays.
    pub moves: Vec<HintMove>,
    /// The query for the next page, if there is one.
    pub next: Option<HelperQuery>,
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
    /// Whether the helper is open: between rounds and after the match, and
    /// during play at a table created with hints.
    pub(super) fn helper_open(&self) -> bool {
        matches!(self.phase, Phase::Over | Phase::ChoosingRule { .. }) || self.config.hints
    }

    pub(super) fn helper(
        &self,
        _viewer: Viewer,
        request: &HelperQuery,
        budget: &parlor_core::Budget,
    ) -> Result<HelperPage, HelpError> {
        let limit = request.limit.unwrap_or(HELPER_PAGE);
        if !(1..=HELPER_PAGE_MAX).contains(&limit) {
            return Err(HelpError::BadQuery(format!(
                "limit: 1 to {HELPER_PAGE_MAX} plays a page, not {limit}"
            )));
        }
        if request
            .string
            .as_ref()
            .is_some_and(|s| s.len() > HELPER_STRING_MAX)
        {
            return Err(HelpError::BadQuery(format!(
                "string: at most {HELPER_STRING_MAX} letters"
            )));
        }
        if !self.helper_open() {
            return Err(HelpError::Closed(
                "the helper opens after the round (this table was created without hints)".into(),
            ));
        }
        // The listing and the solved table are built once per word list and
        // rule set and then shared; a request nobody waits for any more
        // does not start one.
        if budget.cancelled() {
            return Err(HelpError::Stopped(
                "the helper request was cancelled".into(),
            ));
        }
        let string = request
            .string
            .clone()
            .unwrap_or_else(|| self.string.clone());
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
        .map_err(|e| HelpError::BadQuery(e.to_string()))?;
        let end = request.offset.saturating_add(page.moves.len());
        let string = string.to_ascii_lowercase();
        let next = (end < page.total).then(|| HelperQuery {
            string: Some(string.clone()),
            solve: request.solve,
            offset: end,
            limit: Some(limit),
        });
        Ok(HelperPage {
            string,
            solved: solution.is_some(),
            total: page.total,
            offset: request.offset,
            moves: page.moves,
            next,
        })
    }
}
