//! The query and path extractors of every route, refusing with the API's
//! error JSON (`bad_json`, 400) where axum's own answer in plain text:
//! `?limit=-1`, `?limit=abc`, a repeated parameter, a path that is not
//! UTF-8.

use crate::error::ApiError;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// [`axum::extract::Query`] with the API's refusals.
pub(crate) struct Query<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(q)) => Ok(Query(q)),
            Err(e) => Err(ApiError::bad_json(format!(
                "query: {}",
                one_line(&e.body_text())
            ))),
        }
    }
}

/// [`axum::extract::Path`] with the API's refusals.
pub(crate) struct Path<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(p)) => Ok(Path(p)),
            Err(e) => Err(ApiError::bad_json(format!(
                "path: {}",
                one_line(&e.body_text())
            ))),
        }
    }
}

/// axum's rejection texts, on one line and without a doubled prefix.
fn one_line(text: &str) -> String {
    let t = text
        .trim_start_matches("Failed to deserialize query string: ")
        .trim_start_matches("Invalid URL: ");
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}
