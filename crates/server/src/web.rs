//! The browser front end, embedded at build time from `web/` (see
//! `build.rs`): the lobby at `/`, a game's page at `/play/{id}`, the account
//! page at `/account`, profiles at `/u/{name}`, leaderboards at
//! `/leaderboard`, a finished game's replay at `/replay/{id}`, every other
//! file under `/web/`.

use crate::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

fn file(path: &str) -> Option<&'static [u8]> {
    FILES.iter().find(|(p, _)| *p == path).map(|(_, b)| *b)
}

fn mime(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

fn serve(path: &str) -> Response {
    match file(path) {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, mime(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("no file {path:?} in this build's web/ folder"),
        )
            .into_response(),
    }
}

pub(crate) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(|| async { serve("index.html") }))
        .route(
            "/play/{id}",
            get(|_: Path<String>| async { serve("play.html") }),
        )
        .route("/account", get(|| async { serve("account.html") }))
        .route("/leaderboard", get(|| async { serve("account.html") }))
        .route(
            "/u/{name}",
            get(|_: Path<String>| async { serve("account.html") }),
        )
        .route(
            "/replay/{id}",
            get(|_: Path<String>| async { serve("replay.html") }),
        )
        .route(
            "/web/{*path}",
            get(|Path(p): Path<String>| async move { serve(&p) }),
        )
}
