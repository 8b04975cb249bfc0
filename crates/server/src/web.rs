//! The browser front end, embedded at build time from `web/` (see
//! `build.rs`): the lobby at `/`, a game's page at `/play/{id}`, the account
//! page at `/account`, profiles at `/u/{name}`, leaderboards at
//! `/leaderboard`, a finished game's replay at `/replay/{id}`, every other
//! file under `/web/`; and each game's rules document (`docs/rules/`),
//! rendered as a page at `/rules/{game}`.

use crate::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;

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
        "webmanifest" => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

/// What the browser may load and run on every answer, pages and API
/// alike: scripts, styles, images and connections (the game's WebSocket
/// included: `'self'` covers `ws:`/`wss:` to the same host) from this
/// server only, no inline script or style attribute, no plugin, no
/// framing by another site.
pub(crate) const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The headers every answer carries (an answer that sets one itself keeps
/// its own): the policy above, no framing (`X-Frame-Options` for browsers
/// older than `frame-ancestors`), no guessing of content types (an API
/// error is JSON, never a page), and no page address sent to other sites.
pub(crate) fn with_security_headers<S: Clone + Send + Sync + 'static>(
    router: Router<S>,
) -> Router<S> {
    let set = |name, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    router
        .layer(set(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .layer(set(header::X_FRAME_OPTIONS, "DENY"))
        .layer(set(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(set(header::REFERRER_POLICY, "same-origin"))
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
        // The path is not echoed: nothing a link puts in a URL comes back
        // in a page.
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "no such file in this build's web/ folder",
        )
            .into_response(),
    }
}

/// Whether the build holds a rules document for `game`.
pub(crate) fn has_rules(game: &str) -> bool {
    RULES.iter().any(|(name, _)| *name == game)
}

/// A rules document as a page of its own: rendered once, then kept (the
/// documents are part of the binary and never change while it runs).
fn rules_page(game: &str) -> Response {
    static PAGES: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();
    let pages = PAGES.get_or_init(|| {
        RULES
            .iter()
            .map(|(name, md)| (*name, render_rules(name, md)))
            .collect()
    });
    match pages.iter().find(|(name, _)| *name == game) {
        Some((_, html)) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            html.clone(),
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!(
                "no rules for a game of that name: this server has rules for {}",
                RULES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
            ),
        )
            .into_response(),
    }
}

/// The markdown of a rules document as a whole HTML page. Headings get
/// ids from their text (`## The other rules` -> `#the-other-rules`), so
/// the lobby and players can link to a section.
pub(crate) fn render_rules(game: &str, md: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let events: Vec<Event> = Parser::new_ext(md, Options::ENABLE_TABLES).collect();
    let mut out: Vec<Event> = Vec::with_capacity(events.len());
    let mut title = String::new();
    let mut used = std::collections::HashSet::new();
    let mut i = 0;
    while i < events.len() {
        if let Event::Start(Tag::Heading {
            level,
            classes,
            attrs,
            ..
        }) = &events[i]
        {
            let mut text = String::new();
            let mut j = i + 1;
            while j < events.len() && !matches!(events[j], Event::End(TagEnd::Heading(_))) {
                if let Event::Text(t) | Event::Code(t) = &events[j] {
                    text.push_str(t);
                }
                j += 1;
            }
            if title.is_empty() {
                title = text.trim().to_string();
            }
            let base = slug(&text);
            let mut id = base.clone();
            let mut n = 1;
            while !used.insert(id.clone()) {
                n += 1;
                id = format!("{base}-{n}");
            }
            out.push(Event::Start(Tag::Heading {
                level: *level,
                id: Some(id.into()),
                classes: classes.clone(),
                attrs: attrs.clone(),
            }));
        } else {
            out.push(events[i].clone());
        }
        i += 1;
    }
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, out.into_iter());
    let title = if title.is_empty() {
        game.to_string()
    } else {
        title
    };
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} — parlor</title>\n<link rel=\"stylesheet\" href=\"/web/app.css\">\n<link rel=\"manifest\" href=\"/manifest.webmanifest\">\n</head>\n\
         <body class=\"rules-page\" data-game=\"{}\">\n<header class=\"top\"><h1><a href=\"/\">parlor</a></h1>\
         <p class=\"tagline\"><a href=\"/\">← back to the lobby</a></p></header>\n\
         <main class=\"rules-doc\">\n{body}</main>\n</body>\n</html>\n",
        escape(&title),
        escape(game),
    )
}

/// A heading's id: lower-case letters and digits, words joined by `-`.
fn slug(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            s.push(c);
        } else if (c.is_whitespace() || c == '-') && !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-').to_string();
    if s.is_empty() {
        "section".to_string()
    } else {
        s
    }
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub(crate) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(|| async { serve("index.html") }))
        // Browsers ask for it at the root whatever the page says.
        .route("/favicon.ico", get(|| async { serve("favicon.ico") }))
        // The web app manifest, at the root so its scope is the whole
        // site: a phone or desktop browser offers to install parlor.
        .route(
            "/manifest.webmanifest",
            get(|| async { serve("manifest.webmanifest") }),
        )
        .route(
            "/rules/{game}",
            get(|Path(g): Path<String>| async move { rules_page(&g) }),
        )
        .route(
            "/play/{id}",
            get(|_: Path<String>| async { serve("play.html") }),
        )
        .route("/puzzles", get(|| async { serve("puzzles.html") }))
        .route(
            "/puzzles/c/{id}",
            get(|_: Path<String>| async { serve("puzzles.html") }),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rules_document_renders_with_linkable_headings() {
        assert!(RULES.len() >= 5, "the five games' rules are embedded");
        for (name, md) in RULES {
            let html = render_rules(name, md);
            assert!(html.starts_with("<!doctype html>"), "{name}");
            assert!(html.contains("<h1 id=\""), "{name}: the title has an id");
            assert!(html.contains("<h2 id=\""), "{name}: sections have ids");
            assert!(
                html.contains("href=\"/\""),
                "{name}: a way back to the lobby"
            );
        }
    }

    #[test]
    fn headings_get_stable_distinct_ids() {
        let html = render_rules("x", "# Word Sprout — the rules\n\n## The table\n\n## The table\n\n### 1. Tiles (`tiles`, off)\n");
        assert!(html.contains("<h1 id=\"word-sprout-the-rules\">"), "{html}");
        assert!(html.contains("<h2 id=\"the-table\">"), "{html}");
        assert!(html.contains("<h2 id=\"the-table-2\">"), "{html}");
        assert!(html.contains("<h3 id=\"1-tiles-tiles-off\">"), "{html}");
        assert!(
            html.contains("<title>Word Sprout — the rules — parlor</title>"),
            "{html}"
        );
    }

    #[test]
    fn markup_in_a_title_is_escaped() {
        let html = render_rules("x", "# Fish & \"chips\" <i>\n");
        assert!(
            html.contains("<title>Fish &amp; &quot;chips&quot; — parlor</title>"),
            "{html}"
        );
    }
}
