//! What one client may take from the others: its share of the connections
//! (counted per address, behind a trusted proxy per forwarded client), the
//! login throttle that wrong passwords from elsewhere cannot turn against an
//! account's owner, answers a client never reads, and the headers that keep
//! pages from being framed or fed someone else's script.

mod common;

use common::test_settings;
use parlor_server::{Rate, Settings};
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// A TCP connection to `addr` from the loopback address `from`
/// (127.0.0.2 and so on: every 127/8 address is this machine's on Linux).
async fn connect_from(from: &str, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(from.parse::<IpAddr>().unwrap(), 0))
        .unwrap();
    socket.connect(addr).await.unwrap()
}

/// One request from `from`: the whole answer as text (head and body).
async fn request_from(
    from: &str,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    headers: &[(&str, &str)],
) -> String {
    let mut s = connect_from(from, addr).await;
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    if !body.is_empty() {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    req.push_str("\r\n");
    req.push_str(&body);
    // The server may answer (a refusal) and close before reading it all.
    let _ = s.write_all(req.as_bytes()).await;
    let got = common::closed_within(&mut s, Duration::from_secs(30))
        .await
        .expect("an answer and a close");
    String::from_utf8_lossy(&got).into_owned()
}

fn status(answer: &str) -> u16 {
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

fn body(answer: &str) -> Value {
    answer
        .split_once("\r\n\r\n")
        .and_then(|(_, b)| serde_json::from_str(b).ok())
        .unwrap_or(Value::Null)
}

/// The value of header `name` (lower case) in an answer.
fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    let head = answer.split_once("\r\n\r\n").map_or(answer, |(h, _)| h);
    head.lines().skip(1).find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// Waits (at most 20 s, in small steps) until `f` holds: for what the
/// server does in its own time, such as closing a connection.
async fn eventually(what: &str, mut f: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while tokio::time::Instant::now() < deadline {
        if f().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{what}: not within 20 s");
}

/// A WebSocket handshake to game `id` sent as raw HTTP, with extra
/// headers; answers the stream (still open if the answer was 101) and the
/// answer's head.
async fn ws_handshake(addr: SocketAddr, id: &str, headers: &[(&str, &str)]) -> (TcpStream, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let mut req = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\n\
         Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match tokio::time::timeout(Duration::from_secs(10), s.read(&mut byte)).await {
            Ok(Ok(1)) => head.push(byte[0]),
            _ => break,
        }
    }
    (s, String::from_utf8_lossy(&head).into_owned())
}

fn metered(f: impl FnOnce(&mut Settings)) -> Settings {
    let mut s = test_settings();
    s.rates.rate_limits = true;
    f(&mut s);
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_past_its_connection_cap_is_refused_while_others_are_served() {
    let settings = metered(|s| {
        s.connections.max_connections = 64;
        s.connections.max_connections_per_address = 3;
        s.connections.header_timeout = Duration::from_secs(60);
    });
    let server = common::start(&common::sqlite_url("edges_cap"), settings).await;
    let addr = server.addr();
    // A game to watch, made from another address.
    let made = request_from(
        "127.0.0.2",
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "nim"})),
        &[],
    )
    .await;
    assert_eq!(status(&made), 201, "{made}");
    let id = body(&made)["game"]["id"].as_str().unwrap().to_string();
    // 127.0.0.1 takes its three: a WebSocket (an upgraded connection
    // counts as any other) and two idle connections.
    let (ws, head) = ws_handshake(addr, &id, &[]).await;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    let mut held = vec![ws];
    for _ in 0..2 {
        held.push(connect_from("127.0.0.1", addr).await);
    }
    eventually("the server holds the three connections", async || {
        server.open_connections() == 3
    })
    .await;
    // A fourth is answered at once, and closed.
    let refused = request_from("127.0.0.1", addr, "GET", "/api/health", None, &[]).await;
    assert_eq!(status(&refused), 429, "{refused}");
    assert_eq!(body(&refused)["error"]["code"], "rate_limited", "{refused}");
    let message = body(&refused)["error"]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(message.contains("at most 3"), "{message}");
    assert!(header(&refused, "retry-after").is_some(), "{refused}");
    // Another address is served.
    let health = request_from("127.0.0.2", addr, "GET", "/api/health", None, &[]).await;
    assert_eq!(status(&health), 200, "{health}");
    // Once one of its connections closes (the WebSocket), the address has
    // room again.
    drop(held.remove(0));
    eventually("127.0.0.1 is served once it closed one", async || {
        status(&request_from("127.0.0.1", addr, "GET", "/api/health", None, &[]).await) == 200
    })
    .await;
    drop(held);
    eventually("every connection is let go", async || {
        server.open_connections() == 0
    })
    .await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_addresses_count_only_from_a_trusted_proxy() {
    let body_ = json!({"game": "nim", "public": false});
    let create_as = |addr: SocketAddr, client: &'static str| {
        let b = body_.clone();
        async move {
            // A client may send its own header: the proxy appends the
            // address it saw, and that right-most one counts.
            let forwarded = format!("6.6.6.6, {client}");
            status(
                &request_from(
                    "127.0.0.1",
                    addr,
                    "POST",
                    "/api/games",
                    Some(&b),
                    &[("X-Forwarded-For", &forwarded)],
                )
                .await,
            )
        }
    };
    // Nobody named as a proxy: the header is not read, whoever sends it.
    let plain = metered(|s| s.rates.rate_create = Rate::per_minute(1, 1));
    let server = common::start(&common::sqlite_url("edges_xff_off"), plain).await;
    let addr = server.addr();
    assert_eq!(create_as(addr, "10.0.0.1").await, 201);
    assert_eq!(create_as(addr, "10.0.0.2").await, 429);
    server.stop().await;

    // 127.0.0.1 named: its clients are told apart.
    let proxied = metered(|s| {
        s.rates.rate_create = Rate::per_minute(1, 1);
        s.connections.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    });
    let server = common::start(&common::sqlite_url("edges_xff_on"), proxied).await;
    let addr = server.addr();
    assert_eq!(create_as(addr, "10.0.0.1").await, 201);
    assert_eq!(create_as(addr, "10.0.0.1").await, 429);
    assert_eq!(create_as(addr, "10.0.0.2").await, 201);
    // A peer that is not the proxy sending the header: its own address.
    let spoofed = request_from(
        "127.0.0.3",
        addr,
        "POST",
        "/api/games",
        Some(&body_),
        &[("X-Forwarded-For", "10.0.0.9")],
    )
    .await;
    assert_eq!(status(&spoofed), 201, "{spoofed}");
    let again = request_from(
        "127.0.0.3",
        addr,
        "POST",
        "/api/games",
        Some(&body_),
        &[("X-Forwarded-For", "10.0.0.10")],
    )
    .await;
    assert_eq!(status(&again), 429, "metered as 127.0.0.3: {again}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_each_client_has_its_own_connection_cap() {
    let settings = metered(|s| {
        s.connections.max_connections = 64;
        s.connections.max_connections_per_address = 2;
        s.connections.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    });
    let server = common::start(&common::sqlite_url("edges_proxy_cap"), settings).await;
    let addr = server.addr();
    let made = request_from(
        "127.0.0.1",
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "nim"})),
        &[],
    )
    .await;
    assert_eq!(status(&made), 201, "{made}");
    let id = body(&made)["game"]["id"].as_str().unwrap().to_string();
    let ann = [("X-Forwarded-For", "10.0.0.1")];
    let bob = [("X-Forwarded-For", "10.0.0.2")];
    // Ann's two WebSockets through the proxy: the proxy's own connections
    // are not capped (it carries everyone), Ann's sockets are.
    let mut anns = Vec::new();
    for _ in 0..2 {
        let (s, head) = ws_handshake(addr, &id, &ann).await;
        assert!(head.starts_with("HTTP/1.1 101"), "{head}");
        anns.push(s);
    }
    let (_, head) = ws_handshake(addr, &id, &ann).await;
    assert!(head.starts_with("HTTP/1.1 429"), "{head}");
    let (bobs, head) = ws_handshake(addr, &id, &bob).await;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    // Ann closes one and may open another.
    drop(anns.pop());
    eventually("Ann may open a socket again", async || {
        let (s, head) = ws_handshake(addr, &id, &ann).await;
        let ok = head.starts_with("HTTP/1.1 101");
        if ok {
            anns.push(s);
        }
        ok
    })
    .await;
    drop((anns, bobs));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_passwords_from_one_address_do_not_lock_the_owner_out_elsewhere() {
    let server = common::start(&common::sqlite_url("edges_login"), test_settings()).await;
    let addr = server.addr();
    let login = |from: &'static str, password: &'static str| async move {
        request_from(
            from,
            addr,
            "POST",
            "/api/account/login",
            Some(&json!({"username": "cat", "password": password})),
            &[],
        )
        .await
    };
    let made = request_from(
        "127.0.0.3",
        addr,
        "POST",
        "/api/account/register",
        Some(&json!({"username": "cat", "password": "cat-password"})),
        &[],
    )
    .await;
    assert_eq!(status(&made), 201, "{made}");
    // Ten wrong passwords from A: the first five are checked, the rest
    // refused before any hashing.
    let mut codes = Vec::new();
    for _ in 0..10 {
        codes.push(status(&login("127.0.0.2", "wrong-password").await));
    }
    assert_eq!(codes, [401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    // A stays throttled, the right password too ...
    let a = login("127.0.0.2", "cat-password").await;
    assert_eq!(status(&a), 429, "{a}");
    assert_eq!(body(&a)["error"]["code"], "rate_limited");
    // ... but the owner, from B, logs in.
    let b = login("127.0.0.4", "cat-password").await;
    assert_eq!(status(&b), 200, "{b}");
    assert_eq!(body(&b)["account"]["username"], "cat");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_security_headers() {
    let server = common::start(&common::sqlite_url("edges_headers"), test_settings()).await;
    let addr = server.addr();
    for path in [
        "/",
        "/play/abc",
        "/account",
        "/replay/abc",
        "/rules/wordsprout",
        "/web/js/play.js",
        "/web/app.css",
        "/api/health",
        "/api/catalog",
        "/api/games/nope",
        "/no/such/route",
    ] {
        let answer = request_from("127.0.0.1", addr, "GET", path, None, &[]).await;
        let csp = header(&answer, "content-security-policy")
            .unwrap_or_else(|| panic!("{path}: no CSP in {answer:.400}"));
        let script = csp
            .split(';')
            .map(str::trim)
            .find(|d| d.starts_with("script-src"))
            .unwrap_or_else(|| panic!("{path}: no script-src in {csp}"));
        assert!(!script.contains("unsafe"), "{path}: {script}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(header(&answer, "x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(
            header(&answer, "x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(
            header(&answer, "referrer-policy"),
            Some("same-origin"),
            "{path}"
        );
    }
    // A refusal made before the routes (a rate limit) carries them too.
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_found_answers_do_not_echo_what_was_asked() {
    let server = common::start(&common::sqlite_url("edges_404"), test_settings()).await;
    let addr = server.addr();
    let marker = "zq%3Cscript%3Ealert(1)%3C%2Fscript%3Ezq";
    for path in [
        format!("/rules/{marker}"),
        format!("/web/{marker}.js"),
        format!("/api/games/{marker}"),
        format!("/api/accounts/{marker}"),
    ] {
        let answer = request_from("127.0.0.1", addr, "GET", &path, None, &[]).await;
        assert_eq!(status(&answer), 404, "{path}: {answer}");
        let body = answer.split_once("\r\n\r\n").unwrap().1;
        assert!(
            !body.contains("zq") && !body.contains("script"),
            "{path}: {body}"
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_its_answers_is_disconnected() {
    let settings = Settings {
        connections: parlor_server::Connections {
            write_timeout: Duration::from_millis(500),
            header_timeout: Duration::from_secs(120),
            ..test_settings().connections
        },
        ..test_settings()
    };
    let server = common::start(&common::sqlite_url("edges_write"), settings).await;
    let addr = server.addr();
    // A small receive window, and answers (a rules page is over 100 KB)
    // far larger than it and the server's send buffer together.
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut s = socket.connect(addr).await.unwrap();
    eventually("the server holds the connection", async || {
        server.open_connections() == 1
    })
    .await;
    let one = format!("GET /rules/sprouts HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    s.write_all(one.repeat(100).as_bytes()).await.unwrap();
    // Never read: the server's write stalls, and after the write timeout
    // it gives up the connection and what it held for it.
    eventually(
        "the server closes the connection of a client that does not read",
        async || server.open_connections() == 0,
    )
    .await;
    // The client sees the close once it reads what was sent.
    assert!(common::closed_within(&mut s, Duration::from_secs(20))
        .await
        .is_some());
    server.stop().await;
}
