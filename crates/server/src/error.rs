//! The one error type of the API, mapped to HTTP statuses in one place.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A refused request: a stable code, an HTTP status, and one line for people.
/// See `docs/api.md` for the table of codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// Stable machine-readable code (`illegal_action`).
    pub code: &'static str,
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
    pub(crate) fn new(code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            code,
            message: message.into(),
            kind: None,
            retry_after: None,
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
            "malformed_action"
        } else {
            "illegal_action"
        };
        let mut error = Self::new(code, e.message.clone()).with_kind(e.kind);
        error.at = e.at;
        error
    }
    /// The fields of the error as JSON (`code`, `message`, and `kind` where
    /// the game gave one).
    pub fn fields(&self) -> serde_json::Value {
        let mut v = json!({"code": self.code, "message": self.message});
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
    pub(crate) fn bad_json(m: impl Into<String>) -> Self {
        Self::new("bad_json", m)
    }
    /// No such game. The id asked for is not echoed: a 404 never says
    /// back what came in its URL.
    pub(crate) fn not_found(_id: &str) -> Self {
        Self::new("not_found", "no game with that id")
    }
    pub(crate) fn bad_token() -> Self {
        Self::new("bad_token", "that token is not a seat token of this game")
    }
    pub(crate) fn busy() -> Self {
        Self::new("busy", "the game is busy; try again in a moment")
    }
    pub(crate) fn gone() -> Self {
        Self::new(
            "internal",
            "the game stopped while handling the request; try again",
        )
    }
    pub(crate) fn storage(e: impl std::fmt::Display) -> Self {
        Self::new(
            "storage",
            format!("the database refused the write, nothing changed: {e}"),
        )
    }

    /// The HTTP status for this code.
    pub fn status(&self) -> StatusCode {
        match self.code {
            "bad_json" | "bad_config" | "malformed_action" | "bad_word_list" | "bad_chat"
            | "not_websocket" => StatusCode::BAD_REQUEST,
            "too_large" => StatusCode::PAYLOAD_TOO_LARGE,
            "unknown_game" | "not_found" | "no_helper" | "unknown_word_list" => {
                StatusCode::NOT_FOUND
            }
            "bad_token" | "spectator" | "invite_only" | "cross_site" | "not_your_seat" => {
                StatusCode::FORBIDDEN
            }
            "login_required" | "wrong_password" => StatusCode::UNAUTHORIZED,
            "username_taken" | "seat_not_taken" => StatusCode::CONFLICT,
            "illegal_action" | "seat_taken" | "not_over" | "helper_refused" | "waiting"
            | "not_claimable" | "word_list_conflict" => StatusCode::CONFLICT,
            "word_lists_full" => StatusCode::INSUFFICIENT_STORAGE,
            "too_slow" => StatusCode::REQUEST_TIMEOUT,
            "busy" => StatusCode::SERVICE_UNAVAILABLE,
            "rate_limited" => StatusCode::TOO_MANY_REQUESTS,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        }
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
        ApiError::storage(e)
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
}
