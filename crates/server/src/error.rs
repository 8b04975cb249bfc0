//! The one error type of the API, mapped to HTTP statuses in one place.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Every code the API answers with. Each has one status, given here and in
/// the table of `docs/api.md` (a unit test holds the two together).
macro_rules! codes {
    ($($variant:ident = $code:literal, $status:ident;)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        /// An error code of the API (see the table in `docs/api.md`).
        pub enum Code { $(#[doc = $code] $variant,)* }

        impl Code {
            /// Every code, for checks that each one is documented.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable machine-readable string (`illegal_action`).
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// The HTTP status of this code: every code has exactly one.
            pub fn status(self) -> StatusCode {
                match self { $(Code::$variant => StatusCode::$status,)* }
            }
        }
    };
}

codes! {
    BadJson = "bad_json", BAD_REQUEST;
    NotWebsocket = "not_websocket", BAD_REQUEST;
    BadChat = "bad_chat", BAD_REQUEST;
    TooLarge = "too_large", PAYLOAD_TOO_LARGE;
    UnknownGame = "unknown_game", NOT_FOUND;
    BadConfig = "bad_config", BAD_REQUEST;
    NotFound = "not_found", NOT_FOUND;
    BadToken = "bad_token", FORBIDDEN;
    Spectator = "spectator", FORBIDDEN;
    MalformedAction = "malformed_action", BAD_REQUEST;
    IllegalAction = "illegal_action", CONFLICT;
    SeatTaken = "seat_taken", CONFLICT;
    InviteOnly = "invite_only", FORBIDDEN;
    NotOver = "not_over", CONFLICT;
    Waiting = "waiting", CONFLICT;
    NotClaimable = "not_claimable", CONFLICT;
    NoHelper = "no_helper", NOT_FOUND;
    HelperRefused = "helper_refused", CONFLICT;
    UnknownWordList = "unknown_word_list", NOT_FOUND;
    BadWordList = "bad_word_list", BAD_REQUEST;
    WordListConflict = "word_list_conflict", CONFLICT;
    WordListsFull = "word_lists_full", INSUFFICIENT_STORAGE;
    TooSlow = "too_slow", REQUEST_TIMEOUT;
    Busy = "busy", SERVICE_UNAVAILABLE;
    RateLimited = "rate_limited", TOO_MANY_REQUESTS;
    Storage = "storage", INTERNAL_SERVER_ERROR;
    Internal = "internal", INTERNAL_SERVER_ERROR;
    LoginRequired = "login_required", UNAUTHORIZED;
    WrongPassword = "wrong_password", UNAUTHORIZED;
    UsernameTaken = "username_taken", CONFLICT;
    CrossSite = "cross_site", FORBIDDEN;
    SeatNotTaken = "seat_not_taken", CONFLICT;
    NotYourSeat = "not_your_seat", FORBIDDEN;
    UnknownPuzzle = "unknown_puzzle", NOT_FOUND;
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refused request: a stable code, an HTTP status, and one line for people.
/// See `docs/api.md` for the table of codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// Stable machine-readable code (`illegal_action`).
    pub code: Code,
    /// The message for people.
    pub message: String,
    /// The game's own kind of refusal (`not_your_turn`, `unknown_word`),
    /// for refusals that come from a game's rules or settings.
    pub kind: Option<parlor_core::ErrorKind>,
    /// For `rate_limited` and `busy`: when asking again can succeed (sent
    /// as `Retry-After`, and as `retry_after_ms` in the JSON).
    pub retry_after: Option<std::time::Duration>,
    /// For a refused action: where on the board or paper (sent as `at`).
    pub at: Option<[i32; 2]>,
}

impl ApiError {
    pub(crate) fn new(code: Code, message: impl Into<String>) -> Self {
        debug_assert!(
            code != Code::RateLimited,
            "a rate limit says its wait: ApiError::rate_limited"
        );
        ApiError {
            code,
            message: message.into(),
            kind: None,
            retry_after: None,
            at: None,
        }
    }
    /// Too many requests: a rate limit always says when asking again can
    /// succeed.
    pub(crate) fn rate_limited(message: impl Into<String>, wait: std::time::Duration) -> Self {
        ApiError {
            code: Code::RateLimited,
            message: message.into(),
            kind: None,
            retry_after: Some(wait),
            at: None,
        }
    }
    /// This error with the time after which asking again can succeed.
    pub(crate) fn retry_after(mut self, wait: std::time::Duration) -> Self {
        self.retry_after = Some(wait);
        self
    }
    /// This error with the game's kind of refusal.
    pub(crate) fn with_kind(mut self, kind: parlor_core::ErrorKind) -> Self {
        self.kind = Some(kind);
        self
    }
    /// A refused action, with the game's kind.
    pub(crate) fn action(e: &parlor_core::ActionError) -> Self {
        let code = if e.kind == parlor_core::ErrorKind::Malformed {
            Code::MalformedAction
        } else {
            Code::IllegalAction
        };
        let mut error = Self::new(code, e.message.clone()).with_kind(e.kind);
        error.at = e.at;
        error
    }
    /// The fields of the error as JSON (`code`, `message`, and `kind` where
    /// the game gave one).
    pub fn fields(&self) -> serde_json::Value {
        let mut v = json!({"code": self.code.as_str(), "message": self.message});
        if let Some(k) = self.kind {
            v["kind"] = json!(k);
        }
        if let Some(w) = self.retry_after {
            v["retry_after_ms"] = json!(w.as_millis() as u64);
        }
        if let Some(at) = self.at {
            v["at"] = json!(at);
        }
        v
    }
    /// The error as a WebSocket message: `{"type": "error", "ref",
    /// "code", "message", "kind"?}`. Here rather than in `ws` because the
    /// game's actor writes refusals into a connection's queue itself.
    pub(crate) fn ws_message(&self, reference: serde_json::Value) -> serde_json::Value {
        let mut v = self.fields();
        v["type"] = json!("error");
        v["ref"] = reference;
        v
    }
    pub(crate) fn bad_json(m: impl Into<String>) -> Self {
        Self::new(Code::BadJson, m)
    }
    /// No such game. The id asked for is not echoed: a 404 never says
    /// back what came in its URL.
    pub(crate) fn not_found(_id: &str) -> Self {
        Self::new(Code::NotFound, "no game with that id")
    }
    pub(crate) fn bad_token() -> Self {
        Self::new(
            Code::BadToken,
            "that token is not a seat token of this game",
        )
    }
    pub(crate) fn busy() -> Self {
        Self::new(Code::Busy, "the game is busy; try again in a moment")
    }
    pub(crate) fn gone() -> Self {
        Self::new(
            Code::Internal,
            "the game stopped while handling the request; try again",
        )
    }
    pub(crate) fn storage(e: impl std::fmt::Display) -> Self {
        Self::new(
            Code::Storage,
            format!("the database refused the write, nothing changed: {e}"),
        )
    }

    /// The HTTP status for this error's code.
    pub fn status(&self) -> StatusCode {
        self.code.status()
    }

    /// The `{"error": {...}}` body.
    pub fn body(&self) -> serde_json::Value {
        json!({ "error": self.fields() })
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

impl From<crate::storage::StorageError> for ApiError {
    fn from(e: crate::storage::StorageError) -> Self {
        use crate::storage::StorageError as S;
        // Clients are told one thing for every kind: the write was not made
        // (docs/api.md, `storage`); the kind and its source are for the log.
        match e {
            S::Unavailable { .. }
            | S::Conflict { .. }
            | S::Corrupt { .. }
            | S::Misconfigured { .. } => ApiError::storage(e),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut r = (self.status(), axum::Json(self.body())).into_response();
        if let Some(w) = self.retry_after {
            // Whole seconds, rounded up: a client that waits this long
            // finds room in its bucket.
            let secs = w.as_millis().div_ceil(1000).max(1) as u64;
            r.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_at_a_place_says_where() {
        let refused = parlor_core::ActionError {
            kind: parlor_core::ErrorKind::Illegal,
            message: "the stroke crosses the line between spots 1 and 5".into(),
            at: Some([400, 200]),
        };
        let fields = ApiError::action(&refused).fields();
        assert_eq!(fields["at"], json!([400, 200]));
        assert_eq!(fields["code"], "illegal_action");
        let nowhere = parlor_core::ActionError {
            at: None,
            ..refused
        };
        assert!(ApiError::action(&nowhere).fields().get("at").is_none());
    }

    /// The codes and statuses of `docs/api.md`'s tables, read from the
    /// document itself: a code added here without a row there (or a row
    /// whose status differs) fails.
    #[test]
    fn every_code_is_documented_with_its_status() {
        let doc = include_str!("../../../docs/api.md");
        let mut documented = std::collections::BTreeMap::new();
        for line in doc.lines() {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            if let [_, code, status, ..] = cells[..] {
                if let (Some(code), Ok(status)) = (
                    code.strip_prefix('`').and_then(|c| c.strip_suffix('`')),
                    status.parse::<u16>(),
                ) {
                    documented.insert(code.to_string(), status);
                }
            }
        }
        for code in Code::ALL {
            assert_eq!(
                documented.get(code.as_str()),
                Some(&code.status().as_u16()),
                "{code} is not in docs/api.md's table with status {}",
                code.status().as_u16()
            );
        }
        assert_eq!(documented.len(), Code::ALL.len(), "{documented:?}");
    }

    #[test]
    fn a_storage_error_keeps_its_source_and_answers_storage() {
        use std::error::Error as _;
        let bad = serde_json::from_str::<serde_json::Value>("{").unwrap_err();
        let e = crate::storage::StorageError::corrupt(format!("bad JSON in database: {bad}"))
            .with_source(bad);
        assert!(matches!(e, crate::storage::StorageError::Corrupt { .. }));
        assert!(e.source().is_some(), "{e:?}");
        assert!(e.to_string().starts_with("storage: bad JSON in database"));
        let api = ApiError::from(e);
        assert_eq!(api.code, Code::Storage);
        assert_eq!(api.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let conflict = ApiError::from(crate::storage::StorageError::conflict("game g"));
        assert_eq!(conflict.fields()["code"], "storage");
    }
}
