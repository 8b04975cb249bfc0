//! Connection hygiene: header, body and idle timeouts, the connection cap,
//! WebSocket pings (a client that stops answering loses its seat's
//! presence), and the API's error JSON for malformed queries and paths.

mod common;

use parlor_server::client::{http, Ws};
use parlor_server::Settings;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn settings() -> Settings {
    Settings {
        connections: parlor_server::Connections {
            header_timeout: Duration::from_millis(400),
            body_timeout: Duration::from_millis(400),
            ..common::test_settings().connections
        },
        ..common::test_settings()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_a_header_is_closed_after_the_header_timeout() {
    let server = common::start(&common::sqlite_url("conn_header"), settings()).await;
    let mut s = TcpStream::connect(server.addr()).await.unwrap();
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .await
        .unwrap();
    let start = Instant::now();
    let got = common::closed_within(&mut s, Duration::from_secs(5)).await;
    assert!(got.is_some(), "a half-sent header kept its connection open");
    assert!(
        start.elapsed() >= Duration::from_millis(300),
        "{:?}",
        start.elapsed()
    );

    // A connection that sends nothing at all is closed as well.
    let mut s = TcpStream::connect(server.addr()).await.unwrap();
    assert!(common::closed_within(&mut s, Duration::from_secs(5))
        .await
        .is_some());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_keep_alive_is_closed() {
    let server = common::start(&common::sqlite_url("conn_idle"), settings()).await;
    let mut s = TcpStream::connect(server.addr()).await.unwrap();
    // Two requests on one connection: keep-alive works ...
    for _ in 0..2 {
        s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let mut buf = [0u8; 4096];
        let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf))
            .await
            .unwrap()
            .unwrap();
        let text = String::from_utf8_lossy(&buf[..n]);
        assert!(text.starts_with("HTTP/1.1 200"), "{text}");
        assert!(text.contains("\"ok\":true"), "{text}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // ... and a silent one is closed.
    let got = common::closed_within(&mut s, Duration::from_secs(5)).await;
    assert_eq!(got, Some(Vec::new()), "the idle keep-alive stayed open");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_body_is_refused_and_closed() {
    let server = common::start(&common::sqlite_url("conn_body"), settings()).await;
    let mut s = TcpStream::connect(server.addr()).await.unwrap();
    s.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n{\"game\":",
    )
    .await
    .unwrap();
    let got = common::closed_within(&mut s, Duration::from_secs(5))
        .await
        .expect("a half-sent body kept its connection open");
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("\"code\":\"too_slow\""), "{text}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_cap_connections_are_refused_until_one_closes() {
    let cap = 4;
    let s = Settings {
        connections: parlor_server::Connections {
            max_connections: cap,
            header_timeout: Duration::from_secs(30),
            ..common::test_settings().connections
        },
        ..common::test_settings()
    };
    let server = common::start(&common::sqlite_url("conn_cap"), s).await;
    let addr = server.addr();
    let mut held = Vec::new();
    for _ in 0..cap {
        held.push(TcpStream::connect(addr).await.unwrap());
    }
    // Wait until the server has accepted them all (in its own time).
    let end = Instant::now() + Duration::from_secs(60);
    while server.open_connections() < cap {
        assert!(
            Instant::now() < end,
            "the server never accepted {cap} connections"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Answered at once, without waiting for a request, and closed.
    let mut extra = TcpStream::connect(addr).await.unwrap();
    let got = common::closed_within(&mut extra, Duration::from_secs(5))
        .await
        .unwrap_or_else(|| panic!("connection {} was not refused", cap + 1));
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    assert!(text.contains("\"code\":\"busy\""), "{text}");
    let (status, v) = http(addr, "GET", "/api/health", None, &[]).await.unwrap();
    assert_eq!(status, 503, "the cap let /api/health through: {v}");
    assert_eq!(v["error"]["code"], "busy", "{v}");
    // The held ones still work.
    held[0]
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let got = common::closed_within(&mut held[0], Duration::from_secs(5))
        .await
        .unwrap();
    assert!(String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200"));
    held.remove(0);
    drop(held.pop());
    let mut answered = false;
    for _ in 0..50 {
        if let Ok((200, v)) = http(addr, "GET", "/api/health", None, &[]).await {
            assert_eq!(v["ok"], true);
            answered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        answered,
        "/api/health did not answer once connections closed"
    );
    server.stop().await;
}

async fn seat_connected(addr: SocketAddr, id: &str, seat: usize) -> bool {
    let (st, v) = http(addr, "GET", &format!("/api/games/{id}"), None, &[])
        .await
        .unwrap();
    assert_eq!(st, 200, "{v}");
    v["seats"][seat]["connected"].as_bool().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_that_stops_answering_pings_is_closed_and_its_seat_absent() {
    let s = Settings {
        connections: parlor_server::Connections {
            ws_ping: Duration::from_millis(100),
            ws_idle_timeout: Duration::from_secs(2),
            ..common::test_settings().connections
        },
        ..common::test_settings()
    };
    let server = common::start(&common::sqlite_url("conn_ws"), s).await;
    let addr = server.addr();
    let (st, created) = http(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "nim", "take_seat": 0})),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(st, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_string())
        .collect();

    // Seat 0 keeps reading (its client answers pings); seat 1 goes silent
    // (a phone off the network: no pong, no message).
    // The reader starts at once and reads until told (a client answers
    // pings only while it reads), however long a busy machine takes.
    let mut alive = Ws::connect(addr, &id, Some(&tokens[0])).await.unwrap();
    let welcome = alive.recv().await.unwrap();
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let (done, mut stop) = tokio::sync::watch::channel(false);
    let reader = tokio::spawn(async move {
        let mut got: Vec<Value> = Vec::new();
        while !*stop.borrow_and_update() {
            if let Ok(v) = alive.recv_timeout(Duration::from_millis(100)).await {
                got.push(v);
            }
        }
        alive
    });
    let mut silent = Ws::connect(addr, &id, Some(&tokens[1])).await.unwrap();
    let welcome = silent.recv().await.unwrap();
    assert_eq!(
        welcome["type"], "welcome",
        "the silent client took its seat: {welcome}"
    );
    assert!(
        seat_connected(addr, &id, 1).await,
        "the silent client holds its seat"
    );
    // Silent from here. Its seat goes absent after the idle timeout (in
    // the server's own time: the bound only keeps the test from hanging),
    // and by then the client answering pings has been pinged many times.
    let end = Instant::now() + Duration::from_secs(60);
    while seat_connected(addr, &id, 1).await {
        assert!(
            Instant::now() < end,
            "a client that answers nothing still holds its seat"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        seat_connected(addr, &id, 0).await,
        "a client answering pings was dropped"
    );
    done.send(true).unwrap();
    let alive = reader.await.unwrap();
    alive.close().await;
    drop(silent);
    server.stop().await;
}

/// Counts the server's pings on a WebSocket to game `id` (seat `token`)
/// over `for_`, sending a `ping` message of the protocol every `talk`
/// (None: the client says nothing; tungstenite still answers pings).
async fn pings_received(
    addr: SocketAddr,
    id: &str,
    token: &str,
    talk: Option<Duration>,
    for_: Duration,
) -> usize {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let url = format!("ws://{addr}/api/games/{id}/ws?token={token}");
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let until = tokio::time::Instant::now() + for_;
    let mut next_talk = tokio::time::Instant::now();
    let mut pings = 0;
    loop {
        let wake = match talk {
            Some(_) => next_talk.min(until),
            None => until,
        };
        match tokio::time::timeout_at(wake, ws.next()).await {
            Ok(Some(Ok(Message::Ping(_)))) => pings += 1,
            Ok(Some(Ok(_))) => {}
            Ok(other) => panic!("the connection ended: {other:?}"),
            Err(_) if tokio::time::Instant::now() >= until => break,
            Err(_) => {
                let text = json!({"type": "ping", "ref": "here"}).to_string();
                ws.send(Message::Text(text.into())).await.unwrap();
                next_talk += talk.unwrap_or_default();
            }
        }
    }
    let _ = ws.close(None).await;
    pings
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_websocket_that_says_nothing_is_pinged() {
    // A client that talks proves it is there: pinging it too would cost
    // a write and a read per interval on every busy socket.
    let s = Settings {
        connections: parlor_server::Connections {
            ws_ping: Duration::from_millis(150),
            ws_idle_timeout: Duration::from_secs(5),
            ..common::test_settings().connections
        },
        ..common::test_settings()
    };
    let server = common::start(&common::sqlite_url("conn_ws_quiet"), s).await;
    let addr = server.addr();
    let created = common::create(addr, json!({"game": "nim"})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (t0, t1) = (common::token(&created, 0), common::token(&created, 1));
    let span = Duration::from_millis(1200);
    let (talking, silent) = tokio::join!(
        pings_received(addr, &id, &t0, Some(Duration::from_millis(60)), span),
        pings_received(addr, &id, &t1, None, span),
    );
    assert_eq!(talking, 0, "a client sending every 60 ms was pinged");
    assert!(
        silent >= 3,
        "a silent client got {silent} pings in {span:?} (one due every 150 ms)"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_queries_and_paths_get_the_error_json() {
    let server = common::start(&common::sqlite_url("conn_query"), common::test_settings()).await;
    let addr = server.addr();
    let (_, created) = http(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "nim", "take_seat": 0})),
        &[],
    )
    .await
    .unwrap();
    let id = created["game"]["id"].as_str().unwrap().to_string();
    for path in [
        "/api/games?limit=-1".to_string(),
        "/api/games?limit=abc".to_string(),
        format!("/api/games/{id}/state?token=a&token=b"),
        "/api/games/%FF%FE".to_string(),
        "/api/word-lists/%C3%28".to_string(),
        "/play/%FF".to_string(),
    ] {
        let (st, v) = http(addr, "GET", &path, None, &[]).await.unwrap();
        assert_eq!(st, 400, "{path}: {v}");
        assert_eq!(v["error"]["code"], "bad_json", "{path}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(!message.contains('\n'), "{path}: {message}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn control_characters_in_names_are_refused() {
    names_refused_on(&common::sqlite_url("conn_names")).await;
}

/// A NUL in a name was a 500 on PostgreSQL (its text cannot hold one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn control_characters_in_names_are_refused_on_postgres() {
    if let Some(db) = tokio::task::block_in_place(|| common::pg_fresh_db("conn_names")) {
        names_refused_on(&db).await;
    }
}

async fn names_refused_on(db: &parlor_server::storage::DbUrl) {
    let server = common::start(db, common::test_settings()).await;
    let addr = server.addr();
    for name in ["Ann\u{0}", "A\nB", &"x".repeat(101)] {
        let (st, v) = http(
            addr,
            "POST",
            "/api/games",
            Some(&json!({"game": "nim", "take_seat": 0, "name": name})),
            &[],
        )
        .await
        .unwrap();
        assert_eq!((st, &v["error"]["code"]), (400, &json!("bad_json")), "{v}");
    }
    let (st, created) = http(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "nim", "name": "Ann"})),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(st, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap();
    let token = created["seats"][0]["token"].as_str().unwrap();
    let (st, v) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(&json!({"token": token, "name": "Bea\u{0}"})),
        &[],
    )
    .await
    .unwrap();
    assert_eq!((st, &v["error"]["code"]), (400, &json!("bad_json")), "{v}");
    let (st, v) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/claim"),
        Some(&json!({"seat": 1, "name": "Cy\u{7}"})),
        &[],
    )
    .await
    .unwrap();
    assert_eq!((st, &v["error"]["code"]), (400, &json!("bad_json")), "{v}");
    // An ordinary name still works.
    let (st, v) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(&json!({"token": token, "name": "Bea"})),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{v}");
    server.stop().await;
}

/// The server writes its own WebSocket frames (`ws/frames.rs`): a real
/// client's ping gets its pong, a state arrives whole, and the client's
/// close is answered with its code (the closing handshake).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clients_ping_and_close_are_answered() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
    use tokio_tungstenite::tungstenite::protocol::CloseFrame;
    use tokio_tungstenite::tungstenite::Message;
    let server = common::start(&common::sqlite_url("conn_ws_frames"), settings()).await;
    let addr = server.addr();
    let created = common::create(addr, json!({"game": "nim"})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let t0 = common::token(&created, 0);
    let url = format!("ws://{addr}/api/games/{id}/ws?token={t0}&legal=true");
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    macro_rules! next {
        () => {
            tokio::time::timeout(Duration::from_secs(5), ws.next())
                .await
                .expect("the server answers")
        };
    }
    // The state (queued by the game) and the pong (written by the
    // connection's reader) come in either order; every text is whole JSON.
    let (mut seen_state, mut seen_pong) = (false, false);
    ws.send(Message::Ping(b"are you there".to_vec().into()))
        .await
        .unwrap();
    while !(seen_state && seen_pong) {
        match next!() {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                seen_state |= v["type"] == "state" && v["legal"].is_array();
            }
            Some(Ok(Message::Pong(p))) => {
                assert_eq!(&p[..], b"are you there");
                seen_pong = true;
            }
            other => panic!("expected a state and a pong, got {other:?}"),
        }
    }
    ws.send(Message::Close(Some(CloseFrame {
        code: CloseCode::Away,
        reason: "bye".into(),
    })))
    .await
    .unwrap();
    loop {
        match next!() {
            Some(Ok(Message::Close(Some(c)))) => {
                assert_eq!(c.code, CloseCode::Away);
                break;
            }
            Some(Ok(Message::Text(_))) => {}
            other => panic!("expected the close reply, got {other:?}"),
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn a_plain_get_of_the_websocket_route_is_refused_with_json() {
    let server = common::start(&common::sqlite_url("conn_ws_plain"), settings()).await;
    let addr = server.addr();
    let created = common::create(addr, json!({"game": "nim"})).await;
    let id = created["game"]["id"].as_str().unwrap();
    let (status, body) = common::get(addr, &format!("/api/games/{id}/ws")).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "not_websocket", "{body}");
    server.stop().await;
}
