//! Rate limits and bounds: what a client with no token at all may cost.

mod common;

use common::{create, get, post, test_settings, token};
use parlor_server::client::{http, Ws};
use parlor_server::{Rate, Settings};
use serde_json::json;
use std::time::Duration;

fn limited(f: impl FnOnce(&mut Settings)) -> Settings {
    let mut s = test_settings();
    s.rates.rate_limits = true;
    f(&mut s);
    s
}

#[tokio::test]
async fn one_address_creates_a_burst_of_games_then_is_refused_with_retry_after() {
    let settings = limited(|s| s.rates.rate_create = Rate::per_minute(3, 1));
    let server = common::start(&common::sqlite_url("rate-create"), settings).await;
    let addr = server.addr();
    for _ in 0..3 {
        create(addr, json!({"game": "nim", "public": false})).await;
    }
    let (status, v) = post(addr, "/api/games", json!({"game": "nim", "public": false})).await;
    assert_eq!(status, 429, "{v}");
    assert_eq!(v["error"]["code"], "rate_limited", "{v}");
    assert!(v["error"]["retry_after_ms"].as_u64().unwrap() > 0, "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("games created") && message.contains("try again"),
        "{message}"
    );
    // The refusal says when to come back, as HTTP does.
    let raw = raw_request(
        addr,
        "POST /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
    )
    .await;
    assert!(raw.starts_with("HTTP/1.1 429"), "{raw}");
    assert!(
        raw.to_ascii_lowercase().contains("\r\nretry-after: "),
        "{raw}"
    );
    // Reading is metered apart: the lobby still answers.
    let (status, _) = get(addr, "/api/games").await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_clients_are_told_apart_by_its_header() {
    let settings = limited(|s| {
        s.rates.rate_create = Rate::per_minute(1, 1);
        s.connections.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    });
    let server = common::start(&common::sqlite_url("rate-proxy"), settings).await;
    let addr = server.addr();
    let body = json!({"game": "nim", "public": false});
    let as_client = |ip: &'static str| {
        let body = body.clone();
        async move {
            // A client may send its own header: the proxy appends the
            // address it saw, and that last one counts.
            let forwarded = format!("6.6.6.6, {ip}");
            http(
                addr,
                "POST",
                "/api/games",
                Some(&body),
                &[("X-Forwarded-For", &forwarded)],
            )
            .await
            .unwrap()
            .0
        }
    };
    assert_eq!(as_client("10.0.0.1").await, 201);
    assert_eq!(as_client("10.0.0.1").await, 429);
    assert_eq!(as_client("10.0.0.2").await, 201);
    server.stop().await;
}

#[tokio::test]
async fn a_flooding_socket_is_refused_then_cut_off_and_the_players_play_on() {
    let settings = limited(|s| s.rates.rate_conn = Rate::per_second(5, 1));
    let server = common::start(&common::sqlite_url("rate-ws"), settings).await;
    let addr = server.addr();
    let created = create(addr, json!({"game": "nim", "config": {"pile": 9}})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let t0 = token(&created, 0);
    let mut flood = Ws::connect(addr, &id, Some(&t0)).await.unwrap();
    for i in 0..400 {
        if flood
            .send(&json!({"type": "ping", "ref": i}))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut pongs = 0;
    let mut refused = 0;
    let closed = loop {
        match flood.recv_timeout(Duration::from_secs(5)).await {
            Ok(v) if v["type"] == "pong" => pongs += 1,
            Ok(v) if v["code"] == "rate_limited" => refused += 1,
            Ok(_) => {}
            Err(e) => break e.0,
        }
    };
    // What was queued when the connection was cut is not sent; what came
    // through had passed the bucket.
    assert!(pongs <= 7, "a burst of 5 then 1 a second: {pongs} pongs");
    assert!(refused > 0, "{refused} refusals, {pongs} pongs, {closed}");
    assert!(closed.contains("too many messages"), "{closed}");
    // The seat is not harmed: a new connection plays.
    let mut ann = Ws::connect(addr, &id, Some(&t0)).await.unwrap();
    ann.send(&json!({"type": "act", "ref": "a", "action": 1}))
        .await
        .unwrap();
    let ack = ann.recv_until("ack", |v| v["ref"] == "a").await.unwrap();
    assert_eq!(ack["seq"], 1, "{ack}");
    server.stop().await;
}

#[tokio::test]
async fn spectators_actions_never_take_a_place_in_the_games_queue() {
    // A queue of one: before the fix, a spectator's stream of actions
    // kept it full and the player got `busy`.
    let settings = Settings {
        games: parlor_server::Games {
            game_queue: 1,
            ..test_settings().games
        },
        rates: parlor_server::Rates {
            rate_limits: false,
            ..test_settings().rates
        },
        ..test_settings()
    };
    let server = common::start(&common::sqlite_url("spectator-flood"), settings).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 1000}, "bots": [{"seat": 1}]}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let t0 = token(&created, 0);
    let mut spectator = Ws::connect(addr, &id, None).await.unwrap();
    let flood = tokio::spawn(async move {
        for i in 0..3000 {
            if spectator
                .send(&json!({"type": "act", "ref": i, "action": 1}))
                .await
                .is_err()
            {
                break;
            }
        }
        let e = spectator
            .recv_until("error", |v| v["code"] != "rate_limited")
            .await
            .unwrap();
        assert_eq!(e["code"], "spectator", "{e}");
        spectator
    });
    let mut busy = 0;
    for _ in 0..40 {
        let (status, v) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&json!({"token": t0, "action": 1})),
            &[],
        )
        .await
        .unwrap();
        match status {
            200 => {}
            503 => busy += 1,
            // Not this seat's turn yet (the bot is thinking): fine.
            409 => {}
            _ => panic!("{status} {v}"),
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let _ = flood.await.unwrap();
    assert_eq!(busy, 0, "the player got busy {busy} times");
    server.stop().await;
}

#[tokio::test]
async fn settings_beyond_what_the_game_declares_are_refused_before_any_work() {
    let server = common::start(&common::sqlite_url("bounds"), test_settings()).await;
    let addr = server.addr();
    for (game, config, field) in [
        ("wordsprout", json!({"rounds": 1_000_000}), "rounds"),
        (
            "wordsprout",
            json!({"vowels": "a".repeat(60_000)}),
            "vowels",
        ),
        (
            "gobble",
            json!({"keyphrase": "x".repeat(60_000)}),
            "keyphrase",
        ),
        ("gobble", json!({"seconds": 1e12}), "seconds"),
    ] {
        let (status, v) = post(addr, "/api/games", json!({"game": game, "config": config})).await;
        assert_eq!(status, 400, "{game} {field}: {status} {v}");
        assert_eq!(v["error"]["kind"], "bad_setting", "{v}");
        // "game: field: ..." is the registry's check of the declared
        // ranges, made before the config is even read: no work was done
        // (a time limit here would measure the machine, not the server).
        let message = v["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!(": {field}: ")) && message.len() < 200,
            "{message}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn bots_play_bots_only_while_somebody_watches() {
    let settings = Settings {
        bots: parlor_server::Bots {
            bot_delay: Duration::from_millis(20),
            ..test_settings().bots
        },
        ..test_settings()
    };
    let server = common::start(&common::sqlite_url("bots-alone"), settings).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 1000}, "bots": [{"seat": 0}, {"seat": 1}]}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let (_, state) = get(addr, &format!("/api/games/{id}/state")).await;
    assert_eq!(state["seq"], 0, "nobody watches: {state}");
    // A spectator arrives: the bots play.
    let mut watcher = Ws::connect(addr, &id, None).await.unwrap();
    let moved = watcher
        .recv_until("state", |v| v["seq"].as_u64().unwrap_or(0) >= 3)
        .await
        .unwrap();
    assert!(moved["seq"].as_u64().unwrap() >= 3);
    watcher.close().await;
    server.stop().await;
}

#[tokio::test]
async fn creations_wait_their_turn_and_then_get_busy() {
    // One build at a time and hardly any waiting: of four games whose
    // set-up takes a while, three are told to come back.
    let settings = Settings {
        games: parlor_server::Games {
            creations_at_once: 1,
            create_wait: Duration::from_millis(1),
            ..test_settings().games
        },
        ..test_settings()
    };
    let server = common::start(&common::sqlite_url("creations"), settings).await;
    let addr = server.addr();
    let body = json!({"game": "blob", "config": {"build_ms": 400}, "public": false});
    let replies =
        futures_util::future::join_all((0..4).map(|_| post(addr, "/api/games", body.clone())))
            .await;
    let statuses: Vec<u16> = replies.iter().map(|(s, _)| *s).collect();
    assert_eq!(
        statuses.iter().filter(|&&s| s == 201).count(),
        1,
        "{replies:?}"
    );
    assert_eq!(
        statuses.iter().filter(|&&s| s == 503).count(),
        3,
        "{replies:?}"
    );
    let busy = &replies.iter().find(|(s, _)| *s == 503).unwrap().1;
    assert_eq!(busy["error"]["code"], "busy", "{busy}");
    server.stop().await;
}

async fn raw_request(addr: std::net::SocketAddr, req: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).to_string()
}
