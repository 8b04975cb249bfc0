//! Chat at the table over the WebSocket (docs/api.md "Chat"): the players'
//! channel reaches everyone, the spectators' channel never reaches a seat,
//! a seat speaks only under its own name, what was said comes again on
//! reconnection, and bad or flooding chat is refused before the game's
//! queue.

mod common;

use common::{create, post, test_settings, token};
use parlor_server::client::Ws;
use parlor_server::Rate;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

/// A connection past its `welcome` and first `state`.
async fn seated(addr: SocketAddr, id: &str, token: Option<&str>) -> Ws {
    let mut ws = Ws::connect(addr, id, token).await.unwrap();
    ws.recv_until("welcome", |_| true).await.unwrap();
    ws.recv_until("state", |_| true).await.unwrap();
    ws
}

/// The next chat message this connection receives (skipping seats and
/// states).
async fn next_chat(ws: &mut Ws) -> Value {
    ws.recv_until("chat", |_| true).await.unwrap()["message"].clone()
}

#[tokio::test]
async fn players_and_spectators_each_have_their_channel() {
    channels(&common::sqlite_url("chat")).await;
}

/// The same on PostgreSQL (chat touches no storage; the game around it
/// does). Skipped with a notice without `PARLOR_PG_URL`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_each_have_their_channel_on_postgres() {
    let Some(db) = tokio::task::block_in_place(|| common::pg_fresh_db("chat")) else {
        return;
    };
    channels(&db).await;
}

async fn channels(db: &parlor_server::storage::DbUrl) {
    let server = common::start(db, test_settings()).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 9}, "take_seat": 0, "name": "Ann"}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/join"),
        json!({"token": t1, "name": "Bea"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let t1 = v["token"].as_str().unwrap().to_string();
    let mut ann = seated(addr, &id, Some(&t0)).await;
    let mut bea = seated(addr, &id, Some(&t1)).await;
    let mut cy = Ws::connect(addr, &id, None).await.unwrap();
    let welcome = cy.recv_until("welcome", |_| true).await.unwrap();
    cy.recv_until("state", |_| true).await.unwrap();

    // A seat speaks under its seat's name, whatever name it sends.
    ann.send(&json!({"type": "chat", "ref": 1, "text": " hello ", "name": "Bea"}))
        .await
        .unwrap();
    for ws in [&mut ann, &mut bea, &mut cy] {
        let m = next_chat(ws).await;
        assert_eq!(m["text"], "hello");
        assert_eq!(m["name"], "Ann");
        assert_eq!(m["from"], json!({"seat": 0}));
        assert_eq!(m["channel"], "players");
    }

    // The spectators' channel: Cy hears himself; the players hear the next
    // players' line and nothing before it.
    cy.send(&json!({"type": "chat", "ref": "c", "text": "take 2!", "name": "Cy"}))
        .await
        .unwrap();
    let m = next_chat(&mut cy).await;
    assert_eq!(m["channel"], "spectators");
    assert_eq!(m["name"], "Cy");
    assert_eq!(m["from"]["spectator"], welcome["you"]["speaker"], "{m}");
    assert!(m["from"]["spectator"].is_u64(), "{m}");
    bea.send(&json!({"type": "chat", "reaction": "👍"}))
        .await
        .unwrap();
    for ws in [&mut ann, &mut bea] {
        let m = next_chat(ws).await;
        assert_eq!(
            m["reaction"], "👍",
            "a seat never hears the spectators: {m}"
        );
        assert_eq!(m["name"], "Bea");
    }
    assert_eq!(next_chat(&mut cy).await["reaction"], "👍");

    // Chat is not an action: nothing was played.
    let (_, g) = common::get(addr, &format!("/api/games/{id}")).await;
    assert_eq!(g["seq"], 0);

    // Reconnecting: the history comes after the state, each viewer's own.
    let mut bea2 = Ws::connect(addr, &id, Some(&t1)).await.unwrap();
    let h = bea2.recv_until("chat_history", |_| true).await.unwrap();
    let texts: Vec<Value> = h["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["channel"].clone())
        .collect();
    assert_eq!(texts, vec![json!("players"), json!("players")]);
    let mut dan = Ws::connect(addr, &id, None).await.unwrap();
    let h = dan.recv_until("chat_history", |_| true).await.unwrap();
    let ids: Vec<u64> = h["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_u64().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![1, 2, 3],
        "a spectator reads both channels, in order"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_game_nobody_spoke_in_sends_no_history() {
    let server = common::start(&common::sqlite_url("chat-none"), test_settings()).await;
    let addr = server.addr();
    let created = create(addr, json!({"game": "nim", "config": {"pile": 9}})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let mut ws = seated(addr, &id, None).await;
    ws.send(&json!({"type": "ping", "ref": "p"})).await.unwrap();
    let next = ws.recv().await.unwrap();
    assert_eq!(next["type"], "pong", "{next}");
    server.stop().await;
}

#[tokio::test]
async fn bad_chat_is_refused_with_a_clear_error_and_the_connection_stays() {
    let server = common::start(&common::sqlite_url("chat-bad"), test_settings()).await;
    let addr = server.addr();
    let created = create(addr, json!({"game": "nim", "config": {"pile": 9}})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let mut ws = seated(addr, &id, Some(&token(&created, 0))).await;
    let cases = [
        (
            json!({"type": "chat", "ref": 1, "text": "x".repeat(281)}),
            "at most 280 characters; this one has 281",
        ),
        (json!({"type": "chat", "ref": 2, "text": "  "}), "empty"),
        (
            json!({"type": "chat", "ref": 3, "text": "a\nb"}),
            "control characters",
        ),
        (
            json!({"type": "chat", "ref": 4, "reaction": "🐍"}),
            "unknown reaction",
        ),
        (json!({"type": "chat", "ref": 5}), "neither"),
        (
            json!({"type": "chat", "ref": 6, "text": ["a"]}),
            "must be a string",
        ),
    ];
    for (msg, says) in cases {
        ws.send(&msg).await.unwrap();
        let e = ws.recv_until("error", |_| true).await.unwrap();
        assert_eq!(e["code"], "bad_chat", "{e}");
        assert_eq!(e["ref"], msg["ref"]);
        assert!(e["message"].as_str().unwrap().contains(says), "{e}");
    }
    ws.send(&json!({"type": "chat", "ref": 7, "text": "still here"}))
        .await
        .unwrap();
    let m = ws.recv_until("chat", |_| true).await.unwrap();
    assert_eq!(m["message"]["text"], "still here");
    server.stop().await;
}

#[tokio::test]
async fn a_chat_flood_is_refused_per_connection() {
    let mut settings = test_settings();
    settings.rates.rate_limits = true;
    settings.rates.rate_chat = Rate::per_minute(3, 1);
    let server = common::start(&common::sqlite_url("chat-flood"), settings).await;
    let addr = server.addr();
    let created = create(addr, json!({"game": "nim", "config": {"pile": 9}})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let mut ws = seated(addr, &id, Some(&token(&created, 0))).await;
    for i in 0..6 {
        ws.send(&json!({"type": "chat", "ref": i, "reaction": "👏"}))
            .await
            .unwrap();
    }
    ws.send(&json!({"type": "ping", "ref": "end"}))
        .await
        .unwrap();
    let (mut heard, mut refused) = (0, 0);
    loop {
        let v = ws.recv_timeout(Duration::from_secs(10)).await.unwrap();
        match v["type"].as_str() {
            Some("chat") => heard += 1,
            Some("error") => {
                assert_eq!(v["code"], "rate_limited", "{v}");
                assert!(
                    v["message"].as_str().unwrap().contains("chat messages"),
                    "{v}"
                );
                refused += 1;
            }
            // The pong is answered at once, the chat lines through the
            // game: wait for all six answers.
            _ => {}
        }
        if heard + refused == 6 {
            break;
        }
    }
    assert_eq!((heard, refused), (3, 3));
    // Another connection has its own bucket.
    let mut other = seated(addr, &id, None).await;
    other
        .send(&json!({"type": "chat", "text": "hi"}))
        .await
        .unwrap();
    assert_eq!(
        other.recv_until("chat", |_| true).await.unwrap()["message"]["text"],
        "hi"
    );
    server.stop().await;
}
