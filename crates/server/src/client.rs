//! A minimal client of the API, for the tests and the load benchmark: plain
//! HTTP/1.1 requests over a fresh TCP connection, and a WebSocket wrapper.
//! Loopback only in practice; no TLS.

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// A client-side failure (not an API error, which comes back as a status).
#[derive(Debug, thiserror::Error)]
#[error("client: {0}")]
pub struct ClientError(pub String);

fn cerr(e: impl std::fmt::Display) -> ClientError {
    ClientError(e.to_string())
}

/// Sends one request and returns the status and the JSON body (`Null` when
/// the body is empty or not JSON).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    headers: &[(&str, &str)],
) -> Result<(u16, Value), ClientError> {
    let raw = body.map(|b| b.to_string());
    http_raw(
        addr,
        method,
        path,
        raw.as_deref().map(str::as_bytes),
        headers,
    )
    .await
}

/// As [`http`], with a body of any bytes (to test bad input).
pub async fn http_raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
    headers: &[(&str, &str)],
) -> Result<(u16, Value), ClientError> {
    http_full(addr, method, path, body, headers)
        .await
        .map(|(status, _, v)| (status, v))
}

/// As [`http_raw`], with the response's headers (names in lower case).
pub async fn http_full(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
    headers: &[(&str, &str)],
) -> Result<(u16, Vec<(String, String)>, Value), ClientError> {
    let mut stream = TcpStream::connect(addr).await.map_err(cerr)?;
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    req.push_str("\r\n");
    stream.write_all(req.as_bytes()).await.map_err(cerr)?;
    if let Some(b) = body {
        stream.write_all(b).await.map_err(cerr)?;
    }
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), stream.read_to_end(&mut buf))
        .await
        .map_err(|_| ClientError("no answer within 60 s".into()))?
        .map_err(cerr)?;
    let text = String::from_utf8_lossy(&buf);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| ClientError(format!("not an HTTP response: {text:?}")))?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| ClientError(format!("no status in {head:?}")))?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_string()
    };
    let headers = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Ok((
        status,
        headers,
        serde_json::from_str(&body).unwrap_or(Value::Null),
    ))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A WebSocket connection to a game.
pub struct Ws {
    inner: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
}

impl Ws {
    /// Connects to game `id` with a seat token (or as a spectator).
    pub async fn connect(
        addr: SocketAddr,
        id: &str,
        token: Option<&str>,
    ) -> Result<Ws, ClientError> {
        Ws::connect_opts(addr, id, token, false).await
    }

    /// As [`Ws::connect`]; with `legal`, state messages carry the seat's
    /// legal actions.
    pub async fn connect_opts(
        addr: SocketAddr,
        id: &str,
        token: Option<&str>,
        legal: bool,
    ) -> Result<Ws, ClientError> {
        Ws::connect_with(addr, id, token, legal, &[]).await
    }

    /// As [`Ws::connect_opts`], with more headers on the opening request
    /// (a session's `Cookie`, say).
    pub async fn connect_with(
        addr: SocketAddr,
        id: &str,
        token: Option<&str>,
        legal: bool,
        headers: &[(&str, &str)],
    ) -> Result<Ws, ClientError> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        use tokio_tungstenite::tungstenite::http::{HeaderName, HeaderValue};
        let url = format!(
            "ws://{addr}/api/games/{id}/ws?token={}&legal={legal}",
            token.unwrap_or("")
        );
        let mut request = url.into_client_request().map_err(cerr)?;
        for (k, v) in headers {
            let name = HeaderName::from_bytes(k.as_bytes()).map_err(cerr)?;
            let value = HeaderValue::from_str(v).map_err(cerr)?;
            request.headers_mut().insert(name, value);
        }
        let (inner, _) = tokio_tungstenite::connect_async(request)
            .await
            .map_err(cerr)?;
        Ok(Ws { inner })
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, v: &Value) -> Result<(), ClientError> {
        self.send_text(&v.to_string()).await
    }

    /// Sends any text.
    pub async fn send_text(&mut self, t: &str) -> Result<(), ClientError> {
        self.inner
            .send(Message::Text(t.to_string().into()))
            .await
            .map_err(cerr)
    }

    /// The next JSON message (waits at most `timeout`, however many
    /// pings come meanwhile).
    pub async fn recv_timeout(&mut self, timeout: Duration) -> Result<Value, ClientError> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let msg = tokio::time::timeout_at(deadline, self.inner.next())
                .await
                .map_err(|_| ClientError(format!("no message within {timeout:?}")))?
                .ok_or_else(|| ClientError("the connection closed".into()))?
                .map_err(cerr)?;
            match msg {
                Message::Text(t) => return serde_json::from_str(t.as_str()).map_err(cerr),
                Message::Close(f) => {
                    return Err(ClientError(format!("closed by the server: {f:?}")))
                }
                _ => continue,
            }
        }
    }

    /// The next JSON message (waits at most 30 s).
    pub async fn recv(&mut self) -> Result<Value, ClientError> {
        self.recv_timeout(Duration::from_secs(30)).await
    }

    /// Reads messages until one has `"type": ty` (and satisfies `f`).
    pub async fn recv_until(
        &mut self,
        ty: &str,
        f: impl Fn(&Value) -> bool,
    ) -> Result<Value, ClientError> {
        for _ in 0..10_000 {
            let v = self.recv().await?;
            if v["type"] == ty && f(&v) {
                return Ok(v);
            }
        }
        Err(ClientError(format!("no {ty} message in 10000")))
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.inner.close(None).await;
    }
}
