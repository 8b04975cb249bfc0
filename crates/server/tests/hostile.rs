//! A barrage of hostile requests and connections from clients with no
//! token at all: every one gets an answer that is not a server error,
//! nothing panics, memory stays bounded, and no seat is acted for without
//! its secret.
//!
//! `PARLOR_HOSTILE_N` sets the number of requests (default 10,000, what CI
//! runs); the longer run in `docs/performance.md` uses 200,000.

mod common;

use common::{create, Lcg};
use parlor_server::client::{http, http_raw, Ws};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

#[derive(Default)]
struct Tally {
    requests: AtomicU64,
    server_errors: AtomicU64,
    first_error: std::sync::Mutex<Option<String>>,
}

impl Tally {
    fn saw(&self, status: u16, what: &str, body: &Value) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        // 503 `busy` is an answer (come back later); any other 5xx is not.
        if status >= 500 && status != 503 {
            self.server_errors.fetch_add(1, Ordering::Relaxed);
            let mut first = self.first_error.lock().unwrap();
            first.get_or_insert_with(|| format!("{what}: {status} {body}"));
        }
    }
}

/// One hostile request of the `i`th kind.
async fn one(addr: SocketAddr, rng: &mut Lcg, games: &[String], tally: &Tally) {
    let id = &games[rng.below(games.len() as u64) as usize];
    let fake_token = format!("{:032x}", rng.next() as u128 * rng.next() as u128);
    let paths = [
        format!("/api/games/{id}/actions"),
        format!("/api/games/{id}/join"),
        format!("/api/games/{id}/claim"),
        format!("/api/games/{id}/abort"),
        format!("/api/games/{id}/rematch"),
        format!("/api/games/{id}/assist"),
        format!("/api/games/{id}/claim-win"),
        "/api/games".to_string(),
        "/api/word-lists".to_string(),
    ];
    match rng.below(12) {
        // Well-formed requests with someone else's (made-up) secret.
        0..=3 => {
            let path = &paths[rng.below(7) as usize];
            let body = json!({"token": fake_token, "action": rng.json(2), "seat": rng.below(3),
                              "name": "x", "request": rng.json(2)});
            let (status, v) = http(addr, "POST", path, Some(&body), &[])
                .await
                .unwrap_or((0, Value::Null));
            tally.saw(status, path, &v);
        }
        // Random JSON to any route, any method.
        4..=5 => {
            let path = &paths[rng.below(paths.len() as u64) as usize];
            let method = ["POST", "GET", "PUT", "DELETE"][rng.below(4) as usize];
            let body = rng.json(3);
            let (status, v) = http(addr, method, path, Some(&body), &[])
                .await
                .unwrap_or((0, Value::Null));
            tally.saw(status, path, &v);
        }
        // Random bytes as a body; odd queries and paths.
        6 => {
            let body = rng.bytes(300);
            let queries = [
                "?limit=-1",
                "?limit=abc",
                "?status=%ff",
                "?token=a&token=b",
                "?limit=99999999999999999999",
                "",
            ];
            let path = format!(
                "{}{}",
                paths[rng.below(paths.len() as u64) as usize],
                queries[rng.below(queries.len() as u64) as usize]
            );
            let (status, v) = http_raw(addr, "POST", &path, Some(&body), &[])
                .await
                .unwrap_or((0, Value::Null));
            tally.saw(status, &path, &v);
            let get = format!("/api/games/{id}/state{}", queries[rng.below(6) as usize]);
            let (status, v) = http(addr, "GET", &get, None, &[])
                .await
                .unwrap_or((0, Value::Null));
            tally.saw(status, &get, &v);
        }
        // Games with hostile rules.
        7 => {
            let game =
                ["nim", "wordsprout", "gobble", "secret", "blob", "chess"][rng.below(6) as usize];
            let config = match rng.below(4) {
                0 => json!({"rounds": rng.next(), "seconds": rng.next()}),
                1 => json!({"keyphrase": "ab".repeat(rng.below(40_000) as usize)}),
                2 => {
                    json!({"vowels": "q".repeat(rng.below(100) as usize), "players": rng.below(40)})
                }
                _ => rng.json(3),
            };
            let body = json!({"game": game, "config": config, "public": false,
                              "bots": [{"seat": rng.below(3), "level": "hard"}],
                              "turn_seconds": rng.json(0)});
            let (status, v) = http(addr, "POST", "/api/games", Some(&body), &[])
                .await
                .unwrap_or((0, Value::Null));
            tally.saw(status, "create", &v);
        }
        // A raw connection: garbage, a half-sent request, a huge header.
        8 => {
            if let Ok(mut s) = tokio::net::TcpStream::connect(addr).await {
                let junk = match rng.below(3) {
                    0 => rng.bytes(2000),
                    1 => b"GET /api/health HTTP/1.1\r\nHost: x\r\n".to_vec(),
                    _ => format!(
                        "GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
                        "a".repeat(100_000)
                    )
                    .into_bytes(),
                };
                let _ = s.write_all(&junk).await;
                let mut buf = vec![0u8; 512];
                let _ = tokio::time::timeout(Duration::from_millis(50), s.read(&mut buf)).await;
            }
            tally.requests.fetch_add(1, Ordering::Relaxed);
        }
        // WebSockets: a made-up token; a spectator acting or asking for a
        // rematch; garbage frames.
        _ => {
            let token = if rng.below(2) == 0 {
                Some(fake_token.as_str())
            } else {
                None
            };
            if let Ok(mut ws) = Ws::connect(addr, id, token).await {
                for _ in 0..rng.below(20) {
                    let msg = match rng.below(4) {
                        0 => json!({"type": "act", "action": rng.json(2)}).to_string(),
                        1 => json!({"type": "claim-win"}).to_string(),
                        2 => json!({"type": "rematch", "ref": rng.json(1)}).to_string(),
                        _ => String::from_utf8_lossy(&rng.bytes(200)).to_string(),
                    };
                    if ws.send_text(&msg).await.is_err() {
                        break;
                    }
                }
                let _ = ws.recv_timeout(Duration::from_millis(20)).await;
                ws.close().await;
            }
            tally.requests.fetch_add(1, Ordering::Relaxed);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_hostile_requests_break_nothing() {
    let n: u64 = std::env::var("PARLOR_HOSTILE_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let server = common::start(&common::sqlite_url("hostile"), common::test_settings()).await;
    barrage(&[server.addr()], n).await;
    server.stop().await;
}

/// The same barrage against two server processes on one PostgreSQL, each
/// request to either (a tenth as many: the same kinds, and what matters is
/// that no process lets a request through that the other would refuse).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_requests_through_two_processes_on_postgres_break_nothing() {
    let Some(db) = tokio::task::block_in_place(|| common::pg_fresh_db("hostile")) else {
        return;
    };
    let n: u64 = std::env::var("PARLOR_HOSTILE_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
        / 10;
    let a = common::start(&db, common::test_settings()).await;
    let b = common::start(&db, common::test_settings()).await;
    barrage(&[a.addr(), b.addr()], n).await;
    a.stop().await;
    b.stop().await;
}

/// `n` hostile requests from 16 clients, each to one of `addrs` (server
/// processes on one database): no server error, no panic, bounded memory,
/// and no game moved or seat taken by a request without its secret.
async fn barrage(addrs: &[SocketAddr], n: u64) {
    let panics = Arc::new(AtomicU64::new(0));
    {
        let panics = panics.clone();
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            panics.fetch_add(1, Ordering::Relaxed);
            default(info);
        }));
    }
    let addr = addrs[0];
    // Private games with seats nobody has claimed: no request below holds
    // a secret, so none may move them.
    let mut games = Vec::new();
    for game in ["nim", "secret", "gobble", "wordsprout"] {
        for _ in 0..3 {
            let c = create(addr, json!({"game": game, "public": false})).await;
            games.push(c["game"]["id"].as_str().unwrap().to_string());
        }
    }
    let rss_before = rss_kib();
    let tally = Arc::new(Tally::default());
    let started = Instant::now();
    let workers = 16;
    let tasks: Vec<_> = (0..workers)
        .map(|w| {
            let (games, tally, addrs) = (games.clone(), tally.clone(), addrs.to_vec());
            tokio::spawn(async move {
                let mut rng = Lcg(0x5eed_0000 + w);
                for _ in 0..n / workers {
                    let to = addrs[rng.below(addrs.len() as u64) as usize];
                    one(to, &mut rng, &games, &tally).await;
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("a client task");
    }
    let elapsed = started.elapsed();
    let rss_after = rss_kib();
    eprintln!(
        "hostile: {} requests in {:.1} s; test process RSS {} MiB before, {} MiB after",
        tally.requests.load(Ordering::Relaxed),
        elapsed.as_secs_f64(),
        rss_before / 1024,
        rss_after / 1024
    );
    assert_eq!(
        tally.server_errors.load(Ordering::Relaxed),
        0,
        "first: {:?}",
        tally.first_error.lock().unwrap()
    );
    assert_eq!(panics.load(Ordering::Relaxed), 0, "a handler panicked");
    assert!(tally.requests.load(Ordering::Relaxed) >= n - workers);
    // Bounded: the barrage may warm caches, not grow without end.
    assert!(
        rss_after < rss_before + 300 * 1024,
        "RSS grew from {rss_before} KiB to {rss_after} KiB"
    );
    // Still serving, and nobody moved a game whose secrets nobody sent.
    for &addr in addrs {
        let (status, _) = http(addr, "GET", "/api/health", None, &[]).await.unwrap();
        assert_eq!(status, 200);
    }
    for id in &games {
        let (status, state) = http(addr, "GET", &format!("/api/games/{id}/state"), None, &[])
            .await
            .unwrap();
        assert_eq!(status, 200, "{state}");
        assert_eq!(state["seq"], 0, "game {id} was moved: {state}");
        let (_, summary) = http(addr, "GET", &format!("/api/games/{id}"), None, &[])
            .await
            .unwrap();
        let seats = summary["game"]["seats"]
            .as_array()
            .or(summary["seats"].as_array())
            .unwrap_or_else(|| panic!("no seats in {summary}"));
        let joined = seats
            .iter()
            .filter(|s| s["joined"] == true && s["kind"] == "human")
            .count();
        assert_eq!(joined, 0, "a seat of {id} was taken: {summary}");
    }
}

/// A POST with an optional session cookie: status and body.
async fn post_as(addr: SocketAddr, cookie: Option<&str>, path: &str, body: Value) -> (u16, Value) {
    let headers: Vec<(&str, &str)> = cookie.map(|c| ("Cookie", c)).into_iter().collect();
    http(addr, "POST", path, Some(&body), &headers)
        .await
        .unwrap()
}

/// Every door that takes a seat token, knocked on with `token` by whoever
/// `cookie` is (or an anonymous client): each must refuse with `code`,
/// and the game's record must not grow.
async fn every_door_refuses(
    addr: SocketAddr,
    id: &str,
    cookie: Option<&str>,
    token: &str,
    code: &str,
) {
    let g = format!("/api/games/{id}");
    let t = json!({"token": token});
    let doors = [
        (format!("{g}/actions"), json!({"token": token, "action": 1})),
        (format!("{g}/claim-win"), t.clone()),
        (format!("{g}/abort"), t.clone()),
        (format!("{g}/rematch"), t.clone()),
        (
            format!("{g}/assist"),
            json!({"token": token, "request": {}}),
        ),
    ];
    for (path, body) in doors {
        let (status, v) = post_as(addr, cookie, &path, body).await;
        assert_eq!(status, 403, "{path} with {token} as {cookie:?}: {v}");
        assert_eq!(v["error"]["code"], code, "{path}: {v}");
    }
    let headers: Vec<(&str, &str)> = cookie.map(|c| ("Cookie", c)).into_iter().collect();
    for path in [
        format!("{g}/state?token={token}"),
        format!("{g}/moves?token={token}"),
    ] {
        let (status, v) = http(addr, "GET", &path, None, &headers).await.unwrap();
        assert_eq!(status, 403, "{path} as {cookie:?}: {v}");
        assert_eq!(v["error"]["code"], code, "{path}: {v}");
    }
    let ws = Ws::connect_with(addr, id, Some(token), false, &headers).await;
    assert!(
        ws.is_err(),
        "a WebSocket bound to another's seat with {token} as {cookie:?}"
    );
}

/// The seat-takeover attack: the creator of a rated game keeps the invite
/// token of the seat the opponent joins, and plays it (the ratings move).
/// An invite is a one-time claim: the joiner gets a secret of their own
/// and the invite is retired; a seat that belongs to an account acts only
/// for that account's session, whatever token is shown. Through one
/// process (SQLite) and through two on one PostgreSQL (the creator's
/// process never saw the join).
async fn a_rated_seat_is_its_joiners(a: SocketAddr, b: SocketAddr) {
    let alice = common::sign_up(a, "alice").await;
    let bob = common::sign_up(b, "bob").await;
    let carol = common::sign_up(a, "carol").await;
    let (status, created) = post_as(
        a,
        Some(&alice),
        "/api/games",
        json!({"game": "nim", "config": {"pile": 21, "max_take": 3}, "take_seat": 0, "rated": true}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let t0 = created["you"]["token"].as_str().unwrap().to_string();
    let invite = common::token(&created, 1);
    // Before Bob comes: the invite is for joining, not for playing a
    // rated seat nobody has taken (it would be nobody's).
    let (status, v) = post_as(
        a,
        Some(&alice),
        &format!("/api/games/{id}/actions"),
        json!({"token": invite, "action": 1}),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("seat_not_taken")),
        "{v}"
    );
    // The creator watches on process A: its actor stays in memory,
    // believing the seat untaken.
    let mut watching = Ws::connect_with(a, &id, None, false, &[]).await.unwrap();
    watching.recv().await.unwrap();
    // Bob joins through process B: a secret of his own.
    let (status, joined) = post_as(
        b,
        Some(&bob),
        &format!("/api/games/{id}/join"),
        json!({"token": invite}),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], 1);
    let secret = joined["token"].as_str().unwrap().to_string();
    assert_ne!(secret, invite, "joining mints the joiner's secret");
    assert_eq!(secret.len(), invite.len());
    // Alice moves (her own seat), then tries Bob's, through both processes.
    let (status, v) = post_as(
        a,
        Some(&alice),
        &format!("/api/games/{id}/actions"),
        json!({"token": t0, "action": 1}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    for addr in [a, b] {
        // The retired invite: nobody's secret any more.
        every_door_refuses(addr, &id, Some(&alice), &invite, "bad_token").await;
        every_door_refuses(addr, &id, None, &invite, "bad_token").await;
        // Bob's secret itself, seen by someone else: not their seat.
        every_door_refuses(addr, &id, Some(&alice), &secret, "not_your_seat").await;
        every_door_refuses(addr, &id, Some(&carol), &secret, "not_your_seat").await;
        every_door_refuses(addr, &id, None, &secret, "not_your_seat").await;
        // A third party who saw the invite cannot join with it either.
        let (status, v) = post_as(
            addr,
            Some(&carol),
            &format!("/api/games/{id}/join"),
            json!({"token": invite}),
        )
        .await;
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (403, Some("bad_token")),
            "{v}"
        );
        let (status, v) = post_as(
            addr,
            Some(&alice),
            &format!("/api/games/{id}/join"),
            json!({"token": secret}),
        )
        .await;
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (403, Some("not_your_seat")),
            "{v}"
        );
    }
    // Bob plays his seat, through either process, over HTTP and WebSocket.
    let (status, v) = post_as(
        a,
        Some(&bob),
        &format!("/api/games/{id}/actions"),
        json!({"token": secret, "action": 2}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let mut ws = Ws::connect_with(b, &id, Some(&secret), false, &[("Cookie", bob.as_str())])
        .await
        .unwrap();
    let welcome = ws.recv().await.unwrap();
    assert_eq!(welcome["you"]["seat"], 1, "{welcome}");
    // The record holds Alice's move and Bob's, nothing else.
    let (_, moves) = http(a, "GET", &format!("/api/games/{id}/moves"), None, &[])
        .await
        .unwrap();
    assert_eq!(moves["seq"], 2, "{moves}");
    watching.close().await;
    ws.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_seat_is_its_joiners_on_sqlite() {
    let server = common::start(&common::sqlite_url("seat_owner"), common::test_settings()).await;
    a_rated_seat_is_its_joiners(server.addr(), server.addr()).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_seat_is_its_joiners_through_two_processes_on_postgres() {
    let Some(db) = tokio::task::block_in_place(|| common::pg_fresh_db("seat_owner")) else {
        return;
    };
    let a = common::start(&db, common::test_settings()).await;
    let b = common::start(&db, common::test_settings()).await;
    a_rated_seat_is_its_joiners(a.addr(), b.addr()).await;
    a.stop().await;
    b.stop().await;
}

/// In a game between guests the invite works as before until somebody
/// joins with it; then it is retired, and a connection bound by it (its
/// creator's, say) is told and let go of.
async fn an_invite_is_used_once(a: SocketAddr, b: SocketAddr) {
    let created = create(a, json!({"game": "nim", "take_seat": 0})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let invite = common::token(&created, 1);
    let mut held = Ws::connect(a, &id, Some(&invite)).await.unwrap();
    let welcome = held.recv().await.unwrap();
    assert_eq!(welcome["you"]["seat"], 1, "{welcome}");
    let (status, joined) = post_as(
        b,
        None,
        &format!("/api/games/{id}/join"),
        json!({"token": invite, "name": "Bea"}),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let secret = joined["token"].as_str().unwrap().to_string();
    assert_ne!(secret, invite);
    // The connection the invite bound is told, then closed.
    let told = held
        .recv_until("error", |v| v["code"] == "seat_taken")
        .await
        .expect("told that the seat was taken");
    assert_eq!(told["code"], "seat_taken");
    while let Ok(v) = held.recv_timeout(Duration::from_secs(30)).await {
        assert_ne!(v["type"], "state", "no state after it was let go: {v}");
    }
    for addr in [a, b] {
        every_door_refuses(addr, &id, None, &invite, "bad_token").await;
        // The joiner's own secret joins again (a reloaded page), unchanged.
        let (status, again) = post_as(
            addr,
            None,
            &format!("/api/games/{id}/join"),
            json!({"token": secret}),
        )
        .await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(again["token"], secret.as_str());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_is_used_once_on_sqlite() {
    let server = common::start(&common::sqlite_url("invite_once"), common::test_settings()).await;
    an_invite_is_used_once(server.addr(), server.addr()).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_is_used_once_through_two_processes_on_postgres() {
    let Some(db) = tokio::task::block_in_place(|| common::pg_fresh_db("invite_once")) else {
        return;
    };
    let a = common::start(&db, common::test_settings()).await;
    let b = common::start(&db, common::test_settings()).await;
    an_invite_is_used_once(a.addr(), b.addr()).await;
    a.stop().await;
    b.stop().await;
}

/// The other attacks of the second hardening, through every process of a
/// setup (`addrs`: one SQLite server, or two on one PostgreSQL), each
/// request to the next process in turn: costly reads (a finished game's
/// replay with its helper, asked again and again), huge answers (the
/// helper on the largest list), and spoofed names (a display name with a
/// bidirectional control; a username that looks like another's, signed
/// up through another process). Slow readers and one address's
/// connections are each process's own (tests/edges.rs).
async fn the_other_attacks_hold(addrs: &[SocketAddr], runs: impl Fn() -> u64) {
    let at = |i: usize| addrs[i % addrs.len()];
    // Costly reads: a bots-only Word Sprout game, played to its end.
    let created = create(
        at(0),
        json!({"game": "wordsprout", "bots": [{"seat": 0}, {"seat": 1}]}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let mut ws = Ws::connect(at(0), &id, None).await.unwrap();
    ws.recv_until("state", |v| v["to_act"] == "over")
        .await
        .expect("the bots finish");
    ws.close().await;
    let before = runs();
    for i in 0..12 {
        let (status, v) = http(
            at(i),
            "GET",
            &format!("/api/games/{id}/replay?step=1"),
            None,
            &[],
        )
        .await
        .unwrap();
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["helper"], Value::Null, "no helper unless asked");
    }
    assert_eq!(runs(), before, "a replay without the helper runs none");
    for i in 0..12 {
        let path = format!("/api/games/{id}/replay?step=1&helper=true");
        let (status, v) = http(at(i), "GET", &path, None, &[]).await.unwrap();
        assert_eq!(status, 200, "{v}");
    }
    // Two questions (the position's and the game's), once per process.
    assert!(runs() > before, "the helper was asked");
    assert!(
        runs() - before <= 2 * addrs.len() as u64,
        "{} runs for 12 replays",
        runs() - before
    );
    // Huge answers: the helper on en-large, as a spectator.
    let g = create(
        at(1),
        json!({"game": "wordsprout", "config": {"hints": true, "lexicon": "en-large"}, "take_seat": 0}),
    )
    .await;
    let gid = g["game"]["id"].as_str().unwrap();
    for i in 0..2 {
        let (status, v) = http(
            at(i),
            "POST",
            &format!("/api/games/{gid}/assist"),
            Some(&json!({"request": {}})),
            &[],
        )
        .await
        .unwrap();
        assert_eq!(status, 200, "{v}");
        assert!(v.to_string().len() < 1024 * 1024, "a page, not everything");
        assert!(v["answer"]["total"].as_u64().unwrap() >= 26, "{v}");
    }
    // Names: refused through every process, nothing stored.
    for i in 0..addrs.len() {
        let (status, v) = http(
            at(i),
            "POST",
            "/api/games",
            Some(&json!({"game": "nim", "take_seat": 0, "name": "Ann\u{202e}gnp.exe"})),
            &[],
        )
        .await
        .unwrap();
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (400, Some("bad_json")),
            "{v}"
        );
    }
    common::sign_up(at(0), "Lilly0").await;
    for (i, look_alike) in ["LiIly0", "LiIIy0", "LilIyO"].into_iter().enumerate() {
        let body = json!({"username": look_alike, "password": "look-alike-password"});
        let (status, v) = http(at(i + 1), "POST", "/api/account/register", Some(&body), &[])
            .await
            .unwrap();
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (409, Some("username_taken")),
            "{v}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_other_attacks_hold_on_sqlite() {
    let server = common::start(
        &common::sqlite_url("other_attacks"),
        common::test_settings(),
    )
    .await;
    the_other_attacks_hold(&[server.addr()], || server.helper_runs()).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_other_attacks_hold_through_two_processes_on_postgres() {
    let Some(db) = tokio::task::block_in_place(|| common::pg_fresh_db("other_attacks")) else {
        return;
    };
    let a = common::start(&db, common::test_settings()).await;
    let b = common::start(&db, common::test_settings()).await;
    the_other_attacks_hold(&[a.addr(), b.addr()], || a.helper_runs() + b.helper_runs()).await;
    a.stop().await;
    b.stop().await;
}
