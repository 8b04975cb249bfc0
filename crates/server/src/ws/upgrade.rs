//! The WebSocket handshake (RFC 6455 §4.2), answered here rather than by
//! axum's `WebSocketUpgrade`, which hands over only a whole tungstenite
//! stream: the server needs the upgraded socket itself, to read it with
//! tungstenite and write its own frames (`frames.rs`).

use crate::error::ApiError;
use crate::error::Code;
use axum::body::Body;
use axum::extract::FromRequestParts;
use axum::http::{header, request::Parts, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::Response;
use hyper::upgrade::{OnUpgrade, Upgraded};
use hyper_util::rt::TokioIo;
use std::future::Future;

/// A request to open a WebSocket, checked: what is needed to answer it
/// and, once answered, to take the socket.
pub(crate) struct Upgrade {
    key: HeaderValue,
    on_upgrade: OnUpgrade,
    /// Behind a trusted proxy, the client's place in its address's count
    /// of connections: held as long as the socket.
    slot: Option<crate::http::ProxiedSlot>,
}

fn not_websocket(what: &str) -> ApiError {
    ApiError::new(
        Code::NotWebsocket,
        format!("this route opens a WebSocket: {what}"),
    )
}

/// Whether `name`'s comma-separated values include `token` (any case).
fn has_token(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers.get_all(name).iter().any(|v| {
        v.as_bytes()
            .split(|&b| b == b',')
            .any(|t| t.trim_ascii().eq_ignore_ascii_case(token.as_bytes()))
    })
}

impl<S: Send + Sync> FromRequestParts<S> for Upgrade {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        // The server speaks HTTP/1 only (`conn.rs`), where a WebSocket
        // opens with a GET that asks for the upgrade.
        if parts.method != Method::GET {
            return Err(not_websocket("use GET"));
        }
        if !has_token(&parts.headers, header::CONNECTION, "upgrade")
            || !has_token(&parts.headers, header::UPGRADE, "websocket")
        {
            return Err(not_websocket(
                "the request must ask for it (Connection: upgrade, Upgrade: websocket)",
            ));
        }
        let version = parts.headers.get(header::SEC_WEBSOCKET_VERSION);
        if version.is_none_or(|v| v.as_bytes() != b"13") {
            return Err(not_websocket("Sec-WebSocket-Version must be 13"));
        }
        let key = parts
            .headers
            .get(header::SEC_WEBSOCKET_KEY)
            .ok_or_else(|| not_websocket("the request has no Sec-WebSocket-Key"))?
            .clone();
        let on_upgrade = parts
            .extensions
            .remove::<OnUpgrade>()
            .ok_or_else(|| not_websocket("this connection cannot be upgraded"))?;
        let slot = parts.extensions.remove::<crate::http::ProxiedSlot>();
        Ok(Upgrade {
            key,
            on_upgrade,
            slot,
        })
    }
}

impl Upgrade {
    /// The `101 Switching Protocols` answer; once hyper has sent it,
    /// `then` runs on its own task with the socket.
    pub(crate) fn answer<F, Fut>(self, then: F) -> Response
    where
        F: FnOnce(TokioIo<Upgraded>) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let on_upgrade = self.on_upgrade;
        let slot = self.slot;
        tokio::spawn(async move {
            let _slot = slot;
            // An error here is a client that left during the handshake.
            if let Ok(upgraded) = on_upgrade.await {
                then(TokioIo::new(upgraded)).await;
            }
        });
        let accept =
            tokio_tungstenite::tungstenite::handshake::derive_accept_key(self.key.as_bytes());
        let mut r = Response::new(Body::empty());
        *r.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
        let h = r.headers_mut();
        h.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
        h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        // Base64 text: always a valid header value.
        if let Ok(v) = HeaderValue::from_str(&accept) {
            h.insert(header::SEC_WEBSOCKET_ACCEPT, v);
        }
        r
    }
}
