//! The server over real HTTP and WebSocket on 127.0.0.1.

mod common;

use common::{create, post, token};

use parlor_server::client::{http, http_raw, Ws};
use parlor_server::storage::DbUrl;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

/// Joins the seat of `token` (what an invite link's page does); the answer
/// holds the seat's secret from now on (an invite is retired by its use).
async fn join(addr: SocketAddr, id: &str, token: &str) -> Value {
    let (status, v) = post(
        addr,
        &format!("/api/games/{id}/join"),
        json!({ "token": token }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    v
}

/// The seat's secret a join answered.
fn secret(joined: &Value) -> String {
    joined["token"]
        .as_str()
        .expect("a join answers the seat's secret")
        .to_string()
}

/// Connects and reads the welcome and the first state.
async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> (Ws, Value) {
    let mut ws = Ws::connect(addr, id, token).await.unwrap();
    let welcome = ws.recv().await.unwrap();
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let state = ws.recv_until("state", |_| true).await.unwrap();
    (ws, state)
}

/// A Nim game of one stone with both seats taken and connected (Ann's
/// first): what the rematch tests start from.
struct OneStone {
    id: String,
    t0: String,
    ann: Ws,
    bea: Ws,
}

async fn one_stone(addr: SocketAddr) -> OneStone {
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 1}, "take_seat": 0, "name": "Ann"}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (t0, invite) = (token(&created, 0), token(&created, 1));
    let t1 = secret(&join(addr, &id, &invite).await);
    let (ann, _) = connect(addr, &id, Some(&t0)).await;
    let (bea, _) = connect(addr, &id, Some(&t1)).await;
    OneStone { id, t0, ann, bea }
}

async fn act(ws: &mut Ws, reference: u64, action: Value) -> Value {
    ws.send(&json!({"type": "act", "ref": reference, "action": action}))
        .await
        .unwrap();
    ws.recv_until("ack", |v| v["ref"] == reference)
        .await
        .unwrap()
}

async fn error_for(ws: &mut Ws, reference: Value) -> Value {
    ws.recv_until("error", |v| v["ref"] == reference)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nim_from_invite_to_rematch() {
    let server = common::start(&common::sqlite_url("nim"), common::test_settings()).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 7}, "take_seat": 0, "name": "Ann",
               "player": "ann-player-key-0001"}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    // Its free seat is kept for Bea's invite: nobody else may sit down.
    assert_eq!(created["game"]["status"], "live");
    assert_eq!(created["you"]["seat"], 0);
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    assert_ne!(t0, t1);
    assert!(created["seats"][1]["invite"]
        .as_str()
        .unwrap()
        .ends_with(&format!("/play/{id}#{t1}")));

    // Bea joins with her invite.
    let (status, joined) = post(
        addr,
        &format!("/api/games/{id}/join"),
        json!({"token": t1, "name": "Bea", "player": "bea-player-key-0001"}),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], 1);
    assert_eq!(joined["game"]["status"], "live");
    // The invite is spent: Bea plays with her own secret.
    let invite = t1;
    let t1 = secret(&joined);
    assert_ne!(t1, invite);
    // A wrong token joins nothing.
    let (status, e) = post(
        addr,
        &format!("/api/games/{id}/join"),
        json!({"token": "0123"}),
    )
    .await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (403, Some("bad_token"))
    );

    let (mut ann, s) = connect(addr, &id, Some(&t0)).await;
    assert_eq!(s["seq"], 0);
    assert_eq!(s["to_act"], json!({"one": 0}));
    let (mut bea, _) = connect(addr, &id, Some(&t1)).await;

    // Out of turn: refused, nothing changes.
    bea.send(&json!({"type": "act", "ref": "b1", "action": 1}))
        .await
        .unwrap();
    let e = error_for(&mut bea, json!("b1")).await;
    assert_eq!(e["code"], "illegal_action", "{e}");
    assert!(e["message"].as_str().unwrap().contains("turn"), "{e}");
    // Malformed action, bad JSON, unknown type, oversized: refused.
    ann.send(&json!({"type": "act", "ref": 1, "action": "lots"}))
        .await
        .unwrap();
    assert_eq!(
        error_for(&mut ann, json!(1)).await["code"],
        "malformed_action"
    );
    ann.send(&json!({"type": "act", "ref": 2, "action": 9}))
        .await
        .unwrap();
    assert_eq!(
        error_for(&mut ann, json!(2)).await["code"],
        "illegal_action"
    );
    ann.send_text("{not json").await.unwrap();
    assert_eq!(error_for(&mut ann, Value::Null).await["code"], "bad_json");
    ann.send(&json!({"type": "dance", "ref": 3})).await.unwrap();
    assert_eq!(error_for(&mut ann, json!(3)).await["code"], "bad_json");
    let big = format!(
        "{{\"type\":\"act\",\"ref\":4,\"action\":\"{}\"}}",
        "x".repeat(20_000)
    );
    ann.send_text(&big).await.unwrap();
    assert_eq!(error_for(&mut ann, Value::Null).await["code"], "too_large");
    ann.send(&json!({"type": "sync"})).await.unwrap();
    let s = ann.recv_until("state", |_| true).await.unwrap();
    assert_eq!(s["seq"], 0, "nothing changed: {s}");
    assert_eq!(s["view"]["pile"], 7);

    // Play to the end: 7 = 3 + 3 + 1, Ann takes the last stone.
    let ack = act(&mut ann, 10, json!(3)).await;
    assert_eq!(ack["seq"], 1);
    let s = bea.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    assert_eq!(s["by"], json!({"seat": 0}));
    assert_eq!(s["view"]["pile"], 4);
    act(&mut bea, 11, json!(3)).await;
    // The record is not public while the game runs.
    let (status, e) = http(addr, "GET", &format!("/api/games/{id}/record"), None, &[])
        .await
        .unwrap();
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (409, Some("not_over"))
    );
    act(&mut ann, 12, json!(1)).await;
    let s = bea.recv_until("state", |v| v["seq"] == 3).await.unwrap();
    assert_eq!(s["to_act"], "over");
    assert_eq!(s["outcome"]["ranking"], json!([[0], [1]]));
    // After the end, nothing more is accepted.
    bea.send(&json!({"type": "act", "ref": 13, "action": 1}))
        .await
        .unwrap();
    assert_eq!(
        error_for(&mut bea, json!(13)).await["code"],
        "illegal_action"
    );

    let (status, record) = http(addr, "GET", &format!("/api/games/{id}/record"), None, &[])
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert_eq!(record["actions"].as_array().unwrap().len(), 3);

    // My games, by player key.
    let (status, mine) = http(
        addr,
        "GET",
        "/api/my-games",
        None,
        &[("Authorization", "Bearer bea-player-key-0001")],
    )
    .await
    .unwrap();
    assert_eq!(status, 200);
    assert_eq!(mine["games"][0]["seat"], 1);
    assert_eq!(mine["games"][0]["token"], t1.as_str());
    assert_eq!(mine["games"][0]["game"]["status"], "over");

    // Rematch: same rules, first player alternates; every seat gets the
    // same new game; connected players are told.
    let (status, r1) = post(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"token": t1}),
    )
    .await;
    assert_eq!(status, 200, "{r1}");
    assert_eq!(r1["seat"], 0, "Bea moves first in the rematch");
    assert_eq!(r1["game"]["config"]["pile"], 7);
    let new_id = r1["game"]["id"].as_str().unwrap();
    assert_eq!(r1["game"]["rematch_of"], id.as_str());
    let note = ann.recv_until("rematch", |_| true).await.unwrap();
    assert_eq!(note["game"], new_id);
    let (_, r0) = post(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"token": t0}),
    )
    .await;
    assert_eq!(r0["game"]["id"], new_id);
    assert_eq!(r0["seat"], 1);
    assert_ne!(r0["token"], r1["token"]);
    assert_eq!(r0["game"]["seats"][0]["name"], "Bea");
    assert_eq!(r0["game"]["status"], "live");
    ann.close().await;
    bea.close().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_is_stored_with_its_link_in_one_commit() {
    let db = common::sqlite_url("rematch-one-commit");
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 1},
               "bots": [{"seat": 0, "level": "easy"}], "take_seat": 1}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let t1 = token(&created, 1);
    // The bot moves first and takes the only stone; in the rematch the
    // person moves first, so nothing is written but the rematch.
    let mut a = Ws::connect(addr, &id, Some(&t1)).await.unwrap();
    a.recv_until("state", |v| v["to_act"] == "over")
        .await
        .unwrap();
    let writes_before = server.store().writes_asked();
    let (status, r) = post(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"token": t1}),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    let new_id = r["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(r["game"]["rematch_of"], id.as_str());
    assert_eq!(r["seat"], 0, "the first player alternates");
    let note = a.recv_until("rematch", |_| true).await.unwrap();
    assert_eq!(note["game"], new_id.as_str());
    assert_eq!(
        server.store().writes_asked() - writes_before,
        1,
        "the new game and the link to it: one write request"
    );
    // The token handed out is the new seat's: it plays there.
    let mut b = Ws::connect(addr, &new_id, r["token"].as_str())
        .await
        .unwrap();
    let welcome = b.recv().await.unwrap();
    assert_eq!(welcome["you"]["seat"], 0, "{welcome}");
    b.close().await;
    a.close().await;
    server.stop().await;
    let mut store = common::open(&db);
    let old = store.load(&id).unwrap().unwrap();
    assert_eq!(old.row.rematch.as_deref(), Some(new_id.as_str()));
    let new = store.load(&new_id).unwrap().unwrap();
    assert_eq!(new.row.rematch_of.as_deref(), Some(id.as_str()));
}

/// The rematch asked for over the game's own WebSocket (issue 16): answered
/// there with the new seat, its token and the new game's summary, without
/// an HTTP request; the other player gets the notice and, asking the same
/// way, the same game; HTTP answers the same seat and token; a spectator
/// and a game still played are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_over_the_games_own_websocket() {
    let server = common::start(&common::sqlite_url("rematch-ws"), common::test_settings()).await;
    let addr = server.addr();
    let OneStone {
        id,
        t0,
        mut ann,
        mut bea,
        ..
    } = one_stone(addr).await;
    let (mut watcher, _) = connect(addr, &id, None).await;

    ann.send(&json!({"type": "rematch", "ref": "early"}))
        .await
        .unwrap();
    assert_eq!(
        error_for(&mut ann, json!("early")).await["code"],
        "not_over"
    );
    // Ann takes the only stone: over.
    act(&mut ann, 1, json!(1)).await;
    bea.recv_until("state", |v| v["to_act"] == "over")
        .await
        .unwrap();

    watcher
        .send(&json!({"type": "rematch", "ref": 5}))
        .await
        .unwrap();
    assert_eq!(error_for(&mut watcher, json!(5)).await["code"], "spectator");

    bea.send(&json!({"type": "rematch", "ref": "b"}))
        .await
        .unwrap();
    let r1 = bea
        .recv_until("rematch_seat", |v| v["ref"] == "b")
        .await
        .unwrap();
    assert_eq!(r1["seat"], 0, "Bea moves first in the rematch: {r1}");
    let new_id = r1["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(r1["game"]["rematch_of"], id.as_str());
    let note = ann.recv_until("rematch", |_| true).await.unwrap();
    assert_eq!(note["game"], new_id.as_str());

    ann.send(&json!({"type": "rematch", "ref": "a"}))
        .await
        .unwrap();
    let r0 = ann
        .recv_until("rematch_seat", |v| v["ref"] == "a")
        .await
        .unwrap();
    assert_eq!(r0["game"]["id"], new_id.as_str());
    assert_eq!(r0["seat"], 1);
    assert_ne!(r0["token"], r1["token"]);
    // Over HTTP, the same seat and token.
    let (status, h) = post(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"token": t0}),
    )
    .await;
    assert_eq!(status, 200, "{h}");
    assert_eq!((&h["seat"], &h["token"]), (&r0["seat"], &r0["token"]));

    // The token handed out plays the new seat.
    let mut b2 = Ws::connect(addr, &new_id, r1["token"].as_str())
        .await
        .unwrap();
    let welcome = b2.recv().await.unwrap();
    assert_eq!(welcome["you"]["seat"], 0, "{welcome}");
    b2.close().await;
    watcher.close().await;
    bea.close().await;
    ann.close().await;
    server.stop().await;
}

/// A connection that asks for its rematch with `"move": true` moves to the
/// new game (issue 16): `rematch_seat` says `moved`, then the new game's
/// welcome and state come on the same socket, which plays the new seat
/// (no new WebSocket, no close); the old game sees the seat leave; the
/// other player, moving too, joins the same game; a spectator is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_moves_to_the_rematch() {
    let server = common::start(&common::sqlite_url("rematch-move"), common::test_settings()).await;
    let addr = server.addr();
    let OneStone {
        id,
        mut ann,
        mut bea,
        ..
    } = one_stone(addr).await;
    let (mut watcher, _) = connect(addr, &id, None).await;

    ann.send(&json!({"type": "rematch", "ref": "early", "move": true}))
        .await
        .unwrap();
    assert_eq!(
        error_for(&mut ann, json!("early")).await["code"],
        "not_over"
    );
    // Ann takes the only stone: over.
    act(&mut ann, 1, json!(1)).await;
    bea.recv_until("state", |v| v["to_act"] == "over")
        .await
        .unwrap();
    watcher
        .send(&json!({"type": "rematch", "ref": 5, "move": true}))
        .await
        .unwrap();
    assert_eq!(error_for(&mut watcher, json!(5)).await["code"], "spectator");

    bea.send(&json!({"type": "rematch", "ref": "b", "move": true}))
        .await
        .unwrap();
    // The mover hears of the rematch from its answer alone; the others
    // here get the `rematch` message.
    let r1 = loop {
        let v = bea.recv().await.unwrap();
        assert_ne!(v["type"], "rematch", "the mover was told apart: {v}");
        if v["type"] == "rematch_seat" && v["ref"] == "b" {
            break v;
        }
    };
    assert_eq!(r1["moved"], true, "{r1}");
    let note = ann.recv_until("rematch", |_| true).await.unwrap();
    assert_eq!(note["game"], r1["game"]["id"], "{note}");
    let new_id = r1["game"]["id"].as_str().unwrap().to_string();
    // The next message is the new game's welcome, for the new seat.
    let welcome = bea.recv().await.unwrap();
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(welcome["game"]["id"], new_id.as_str());
    assert_eq!(welcome["you"]["seat"], r1["seat"], "{welcome}");
    let state = bea.recv_until("state", |_| true).await.unwrap();
    assert_eq!(state["seq"], 0, "{state}");
    // The old game saw Bea's seat leave.
    let seats = watcher
        .recv_until("seats", |v| v["seats"][1]["connected"] == false)
        .await
        .unwrap();
    assert_eq!(seats["seats"][0]["connected"], true, "{seats}");

    ann.send(&json!({"type": "rematch", "ref": "a", "move": true}))
        .await
        .unwrap();
    let r0 = ann
        .recv_until("rematch_seat", |v| v["ref"] == "a")
        .await
        .unwrap();
    assert_eq!(
        (&r0["game"]["id"], &r0["moved"]),
        (&json!(new_id), &json!(true))
    );
    assert_eq!(r0["seat"], 1);
    ann.recv_until("welcome", |v| v["game"]["id"] == new_id.as_str())
        .await
        .unwrap();
    // Both moved sockets play the new game: Bea (seat 0) takes the stone.
    act(&mut bea, 2, json!(1)).await;
    let over = ann
        .recv_until("state", |v| v["to_act"] == "over")
        .await
        .unwrap();
    assert_eq!(over["seq"], 1, "{over}");
    // Nothing more of the old game reaches the moved sockets: a sync
    // answers with the new game's state.
    ann.send(&json!({"type": "sync"})).await.unwrap();
    let synced = ann.recv_until("state", |_| true).await.unwrap();
    assert_eq!(synced["seq"], 1, "{synced}");
    watcher.close().await;
    bea.close().await;
    ann.close().await;
    server.stop().await;
}

/// A Word Sprout game (seed 7) with seat 0 taken, and its id: where the
/// helper's tests start.
async fn word_sprout_table(addr: SocketAddr) -> (Value, String) {
    let created = create(
        addr,
        json!({"game": "wordsprout", "take_seat": 0, "seed": 7}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    (created, id)
}

/// A helper answer still under way when its connection moves to the
/// rematch is not lost (issue 16): it comes on the same socket, with its
/// ref, before `rematch_seat` if it was ready first, else after the move.
/// Word Sprout's first helper answer on a fresh server builds its index,
/// so it is usually still under way when the move is done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_helper_answer_follows_the_connection_to_the_rematch() {
    let server = common::start(&common::sqlite_url("assist-move"), common::test_settings()).await;
    let addr = server.addr();
    let (created, id) = word_sprout_table(addr).await;
    let (mut ann, _) = connect(addr, &id, Some(token(&created, 0).as_str())).await;
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/actions"),
        json!({"token": token(&created, 1), "action": {"type": "concede"}}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    ann.recv_until("state", |v| v["to_act"] == "over")
        .await
        .unwrap();

    ann.send(&json!({"type": "assist", "ref": "late", "request": {"string": "omat"}}))
        .await
        .unwrap();
    ann.send(&json!({"type": "rematch", "ref": "r", "move": true}))
        .await
        .unwrap();
    let (mut answer, mut moved) = (None, None);
    while answer.is_none() || moved.is_none() {
        let v = ann.recv().await.unwrap();
        match v["type"].as_str() {
            Some("assist") if v["ref"] == "late" => answer = Some(v),
            Some("error") if v["ref"] == "late" => panic!("the helper refused: {v}"),
            Some("rematch_seat") => moved = Some(v),
            _ => {}
        }
    }
    let (answer, moved) = (answer.unwrap(), moved.unwrap());
    assert_eq!(moved["moved"], true, "{moved}");
    assert!(has_play(&answer["answer"], "tomat", "tomato"), "{answer}");
    ann.close().await;
    server.stop().await;
}

/// A connection cut off in the middle of its move to the rematch (its
/// client stopped reading, so the server drops it) leaves no seat held by
/// it in either game (issue 16): the new game's other player sees the
/// seat leave again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_cut_off_while_moving_holds_no_seat() {
    let settings = parlor_server::Settings {
        connections: parlor_server::Connections {
            write_timeout: Duration::from_secs(3),
            ..common::test_settings().connections
        },
        ..common::test_settings()
    };
    let server = common::start(&common::sqlite_url("rematch-move-cut"), settings).await;
    let addr = server.addr();
    let OneStone {
        mut ann, mut bea, ..
    } = one_stone(addr).await;
    act(&mut ann, 1, json!(1)).await;
    // Bea moves first: the rematch is made, and she watches its seats.
    bea.send(&json!({"type": "rematch", "ref": "b", "move": true}))
        .await
        .unwrap();
    // The mover hears of the rematch from its answer alone; the others
    // here get the `rematch` message.
    let r1 = loop {
        let v = bea.recv().await.unwrap();
        assert_ne!(v["type"], "rematch", "the mover was told apart: {v}");
        if v["type"] == "rematch_seat" && v["ref"] == "b" {
            break v;
        }
    };
    assert_eq!(r1["moved"], true, "{r1}");
    let note = ann.recv_until("rematch", |_| true).await.unwrap();
    assert_eq!(note["game"], r1["game"]["id"], "{note}");
    bea.recv_until("state", |_| true).await.unwrap();
    ann.recv_until("seats", |v| v["seats"][1]["connected"] == false)
        .await
        .unwrap();
    // Ann stops reading: large pongs fill the sockets' buffers, then her
    // connection's queue, and the server's writes to her wait. Then she
    // moves.
    let ping = json!({"type": "ping", "ref": "x".repeat(12_000)});
    for _ in 0..600 {
        ann.send(&ping).await.unwrap();
    }
    ann.send(&json!({"type": "rematch", "ref": "a", "move": true}))
        .await
        .unwrap();
    // Ann's new seat (1) is held while her connection lives; once the
    // server drops it (write timeout), nobody holds it.
    bea.recv_until("seats", |v| v["seats"][1]["connected"] == true)
        .await
        .unwrap();
    // (Within a deadline of the test's own: the server's pings keep
    // `recv` from timing out.)
    let left = bea.recv_until("seats", |v| v["seats"][1]["connected"] == false);
    let seats = tokio::time::timeout(Duration::from_secs(20), left)
        .await
        .expect("Ann's seat in the rematch stays held by her dropped connection")
        .unwrap();
    assert_eq!(seats["seats"][0]["connected"], true, "{seats}");
    drop(ann);
    bea.close().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_errors_change_nothing() {
    let server = common::start(&common::sqlite_url("errors"), common::test_settings()).await;
    let addr = server.addr();
    let code = |v: &Value| v["error"]["code"].as_str().unwrap_or("").to_string();

    let (s, v) = post(addr, "/api/games", json!({"game": "chess"})).await;
    assert_eq!((s, code(&v)), (404, "unknown_game".into()));
    assert!(
        v["error"]["message"].as_str().unwrap().contains("nim"),
        "{v}"
    );
    let (s, v) = post(
        addr,
        "/api/games",
        json!({"game": "nim", "config": {"pile": 0}}),
    )
    .await;
    assert_eq!((s, code(&v)), (400, "bad_config".into()));
    let (s, v) = post(
        addr,
        "/api/games",
        json!({"game": "nim", "config": {"piles": 3}}),
    )
    .await;
    assert_eq!((s, code(&v)), (400, "bad_config".into()), "{v}");
    let (s, v) = http_raw(addr, "POST", "/api/games", Some(b"{\"game\":"), &[])
        .await
        .unwrap();
    assert_eq!((s, code(&v)), (400, "bad_json".into()));
    let huge = vec![b' '; 100_000];
    let (s, v) = http_raw(addr, "POST", "/api/games", Some(&huge), &[])
        .await
        .unwrap();
    assert_eq!((s, code(&v)), (413, "too_large".into()));
    let (s, v) = post(
        addr,
        "/api/games",
        json!({"game": "nim", "bots": [{"seat": 5}]}),
    )
    .await;
    assert_eq!((s, code(&v)), (400, "bad_json".into()));
    let (s, v) = http(addr, "GET", "/api/games/nosuchgame", None, &[])
        .await
        .unwrap();
    assert_eq!((s, code(&v)), (404, "not_found".into()));
    let (s, v) = http(addr, "GET", "/api/nothing-here", None, &[])
        .await
        .unwrap();
    assert_eq!((s, code(&v)), (404, "not_found".into()));
    // None of that made a game.
    let (_, list) = http(addr, "GET", "/api/games", None, &[]).await.unwrap();
    assert_eq!(list["games"].as_array().unwrap().len(), 0);

    // HTTP actions: token checked, rules checked, nothing changes on error.
    let created = create(addr, json!({"game": "nim"})).await;
    let id = created["game"]["id"].as_str().unwrap();
    let t0 = token(&created, 0);
    let t1 = token(&created, 1);
    let path = format!("/api/games/{id}/actions");
    let (s, v) = post(addr, &path, json!({"token": "x", "action": 1})).await;
    assert_eq!((s, code(&v)), (403, "bad_token".into()));
    let (s, v) = post(addr, &path, json!({"token": t1, "action": 1})).await;
    assert_eq!((s, code(&v)), (409, "illegal_action".into()));
    let (s, v) = post(addr, &path, json!({"token": t0, "action": [1]})).await;
    assert_eq!((s, code(&v)), (400, "malformed_action".into()));
    let (s, v) = post(addr, &path, json!({"token": t0, "action": 2})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["seq"], 1);
    let (_, st) = http(addr, "GET", &format!("/api/games/{id}/state"), None, &[])
        .await
        .unwrap();
    assert_eq!(st["seq"], 1);
    assert_eq!(st["view"]["pile"], 19);
    // A WebSocket with a wrong token is refused before the upgrade.
    assert!(Ws::connect(addr, id, Some("nope")).await.is_err());
    // Spectators may watch but not act.
    let (mut spec, _) = connect(addr, id, None).await;
    spec.send(&json!({"type": "act", "ref": 1, "action": 1}))
        .await
        .unwrap();
    assert_eq!(error_for(&mut spec, json!(1)).await["code"], "spectator");

    // Lobby listing; seat 1 is invited (its token went to the creator),
    // so nobody may claim it: the game is not listed as open to strangers
    // (it is among the live ones), and a claim learns no token.
    let (_, open) = http(addr, "GET", "/api/games?status=open", None, &[])
        .await
        .unwrap();
    assert!(
        open["games"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["id"] != id),
        "{open}"
    );
    let (_, live) = http(addr, "GET", "/api/games?status=live", None, &[])
        .await
        .unwrap();
    assert_eq!(live["games"][0]["id"], id, "{live}");
    assert_eq!(live["games"][0]["seats"][1]["open"], false);
    let claim = format!("/api/games/{id}/claim");
    let (s, c) = post(addr, &claim, json!({"seat": 1, "name": "Cy"})).await;
    assert_eq!((s, code(&c)), (403, "invite_only".into()), "{c}");
    assert!(!c.to_string().contains(&t1), "{c}");
    server.stop().await;
}

/// Seats are invited (their tokens handed to the creator as invite links)
/// or open (anyone may claim them in a public game): a stranger's claim of
/// an invited seat is refused, a claim of an open seat mints the seat's
/// one token, and nobody else's token acts for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_takes_an_open_seat_with_a_new_token_and_never_an_invited_one() {
    let db = common::sqlite_url("claims");
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    // Gobble: a stranger holding the invitee's token would see their words.
    let config = json!({"seats": 3, "keyphrase": "abacus abdomen abide zoom", "seconds": 60});
    let created = create(
        addr,
        json!({"game": "gobble", "config": config, "take_seat": 0, "open_seats": [2]}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    // The creator gets the tokens of seats 0 and 1; seat 2 has none yet.
    let handed: Vec<u64> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seat"].as_u64().unwrap())
        .collect();
    assert_eq!(handed, vec![0, 1], "{created}");
    let opens: Vec<&Value> = created["game"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["open"])
        .collect();
    assert_eq!(opens, vec![&json!(false), &json!(false), &json!(true)]);
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let claim = format!("/api/games/{id}/claim");

    // A stranger claims the invited seat: refused, with the error JSON.
    let (s, v) = post(addr, &claim, json!({"seat": 1, "name": "Eve"})).await;
    assert_eq!(s, 403, "{v}");
    assert_eq!(v["error"]["code"], "invite_only", "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("invite link"),
        "{v}"
    );
    assert!(!v.to_string().contains(&t1), "{v}");
    let (_, g) = common::get(addr, &format!("/api/games/{id}")).await;
    assert_eq!(g["seats"][1]["joined"], false, "nothing changed: {g}");
    assert_eq!(g["seats"][1]["name"], Value::Null, "{g}");

    // A stranger claims the open seat: a new token, unlike every other.
    let (s, c) = post(addr, &claim, json!({"seat": 2, "name": "Cy"})).await;
    assert_eq!(s, 200, "{c}");
    let t2 = c["token"].as_str().unwrap().to_string();
    assert_eq!(t2.len(), 32, "{c}");
    assert!(t2.bytes().all(|b| b.is_ascii_hexdigit()), "{c}");
    assert!(t2 != t0 && t2 != t1, "{c}");
    assert!(!created.to_string().contains(&t2));
    assert_eq!(c["game"]["seats"][2]["joined"], true, "{c}");
    assert_eq!(c["game"]["seats"][2]["open"], false, "{c}");
    // Once: the seat has one holder.
    let (s, v) = post(addr, &claim, json!({"seat": 2, "name": "Di"})).await;
    assert_eq!((s, code(&v)), (409, "seat_taken".into()), "{v}");
    assert!(!v.to_string().contains(&t2), "{v}");

    // Each token acts for its own seat only.
    for (t, seat) in [(&t0, 0), (&t1, 1), (&t2, 2)] {
        let (s, st) = common::get(addr, &format!("/api/games/{id}/state?token={t}")).await;
        assert_eq!(s, 200, "{st}");
        let mut ws = Ws::connect(addr, &id, Some(t)).await.unwrap();
        let welcome = ws.recv().await.unwrap();
        assert_eq!(welcome["you"]["seat"], seat, "{welcome}");
        ws.close().await;
        let (s, v) = post(addr, &format!("/api/games/{id}/join"), json!({"token": t})).await;
        assert_eq!((s, v["seat"].clone()), (200, json!(seat)), "{v}");
    }
    // The claimant's token survives a restart; a made-up one acts for nobody.
    server.stop().await;
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let (s, v) = post(addr, &format!("/api/games/{id}/join"), json!({"token": t2})).await;
    assert_eq!((s, v["seat"].clone()), (200, json!(2)), "{v}");
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/actions"),
        json!({"token": "0".repeat(32), "action": {"type": "done"}}),
    )
    .await;
    assert_eq!((s, code(&v)), (403, "bad_token".into()), "{v}");

    // Open seats belong to public games, and not to the creator's own seat
    // or a bot's.
    for (body, what) in [
        (
            json!({"game": "nim", "public": false, "open_seats": [1]}),
            "private",
        ),
        (
            json!({"game": "nim", "take_seat": 1, "open_seats": [1]}),
            "take_seat",
        ),
        (
            json!({"game": "nim", "bots": [{"seat": 1}], "open_seats": [1]}),
            "bot",
        ),
        (json!({"game": "nim", "open_seats": [5]}), "does not exist"),
    ] {
        let (s, v) = post(addr, "/api/games", body).await;
        assert_eq!((s, code(&v)), (400, "bad_json".into()), "{v}");
        assert!(
            v["error"]["message"].as_str().unwrap().contains(what),
            "{v}"
        );
    }
    // In a private game no seat is claimable at all.
    let private = create(addr, json!({"game": "nim", "public": false})).await;
    let pid = private["game"]["id"].as_str().unwrap();
    let (s, v) = post(addr, &format!("/api/games/{pid}/claim"), json!({"seat": 1})).await;
    assert_eq!((s, code(&v)), (403, "bad_token".into()), "{v}");
    server.stop().await;
}

/// SHA-256 of a seed's decimal digits, in hex (docs/api.md `seed_sha256`).
fn sha256_hex(seed: u64) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(seed.to_string().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Where the seed decides something hidden (a Gobble board drawn without a
/// keyphrase), the server draws it: a client's seed is refused, the
/// summary publishes the seed's hash from the start and never the seed,
/// and the record reveals a seed with that hash once the game is over,
/// which gives the board that was played. A rematch draws a fresh seed.
/// Where nothing hidden depends on it, a client's seed is taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_draws_hidden_seeds_and_reveals_them_with_the_record() {
    use parlor_core::Game;
    let server = common::start(&common::sqlite_url("seeds"), common::test_settings()).await;
    let addr = server.addr();
    let config = json!({"seats": 1, "seconds": 60});

    let (s, v) = post(
        addr,
        "/api/games",
        json!({"game": "gobble", "config": config, "take_seat": 0, "seed": 42}),
    )
    .await;
    assert_eq!((s, code(&v)), (400, "bad_config".into()), "{v}");
    assert_eq!(v["error"]["kind"], "bad_setting", "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("seed: "),
        "{v}"
    );
    let (_, list) = common::get(addr, "/api/games").await;
    assert_eq!(list["games"], json!([]), "nothing made");

    let created = create(
        addr,
        json!({"game": "gobble", "config": config, "take_seat": 0}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let t0 = token(&created, 0);
    let hash = created["game"]["seed_sha256"].as_str().unwrap().to_string();
    assert_eq!(hash.len(), 64, "{created}");
    assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()));
    // Nowhere the seed itself while the game runs.
    let (mut ws, _) = connect(addr, &id, Some(&t0)).await;
    let (_, summary) = common::get(addr, &format!("/api/games/{id}")).await;
    let (_, state) = common::get(addr, &format!("/api/games/{id}/state?token={t0}")).await;
    let (_, listed) = common::get(addr, "/api/games").await;
    assert_eq!(summary["seed_sha256"], hash.as_str());
    assert_eq!(listed["games"][0]["seed_sha256"], hash.as_str());
    for v in [&created, &summary, &state, &listed] {
        assert!(!v.to_string().contains("\"seed\""), "{v}");
    }
    let (s, v) = common::get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!((s, code(&v)), (409, "not_over".into()), "{v}");
    let board = state["view"]["letters"].as_str().unwrap().to_string();

    // The round ends: the record reveals the seed, and it checks.
    act(&mut ws, 1, json!({"type": "done"})).await;
    let (s, record) = common::get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200, "{record}");
    let seed = record["seed"].as_u64().unwrap();
    assert_eq!(sha256_hex(seed), hash, "the published hash is the seed's");
    let g = parlor_gobble::Gobble::new(
        &serde_json::from_value(record["config"].clone()).unwrap(),
        seed,
        &parlor_core::Resources::embedded(),
    )
    .unwrap();
    assert_eq!(g.view(parlor_core::Viewer::Spectator).letters, board);

    // A rematch draws a fresh seed.
    let (s, r) = post(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"token": t0}),
    )
    .await;
    assert_eq!(s, 200, "{r}");
    let again = r["game"]["seed_sha256"].as_str().unwrap();
    assert_eq!(again.len(), 64);
    assert_ne!(again, hash);

    // With a keyphrase the board is the keyphrase's: a seed hides nothing,
    // and the client's is kept (likewise Word Sprout, which draws nothing).
    let keyed = json!({"seats": 1, "seconds": 60, "keyphrase": "abacus abdomen abide zoom"});
    let created = create(
        addr,
        json!({"game": "gobble", "config": keyed, "take_seat": 0, "seed": 42}),
    )
    .await;
    assert_eq!(created["game"]["seed_sha256"], sha256_hex(42));
    let id = created["game"]["id"].as_str().unwrap();
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/actions"),
        json!({"token": token(&created, 0), "action": {"type": "done"}}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (_, record) = common::get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(record["seed"], 42, "{record}");
    let created = create(addr, json!({"game": "wordsprout", "seed": 7})).await;
    assert_eq!(created["game"]["seed_sha256"], sha256_hex(7));
    ws.close().await;
    server.stop().await;
}

/// The hidden pick of one seat never reaches the other seat or a spectator.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_information_stays_with_its_seat() {
    let server = common::start(&common::sqlite_url("hidden"), common::test_settings()).await;
    let addr = server.addr();
    let created = create(addr, json!({"game": "secret", "config": {"rounds": 2}})).await;
    let id = created["game"]["id"].as_str().unwrap();
    let (mut a, _) = connect(addr, id, Some(&token(&created, 0))).await;
    let (mut b, _) = connect(addr, id, Some(&token(&created, 1))).await;
    let (mut spec, _) = connect(addr, id, None).await;
    act(&mut a, 1, json!({"pick": 3})).await;
    let mine = a.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    assert_eq!(mine["view"]["mine"], 3);
    for ws in [&mut b, &mut spec] {
        let s = ws.recv_until("state", |v| v["seq"] == 1).await.unwrap();
        assert_eq!(s["view"]["mine"], Value::Null, "{s}");
        assert_eq!(s["view"]["picked"], json!([true, false]));
        // The move's time is the server's clock, not the pick: left out.
        let mut shown = s.clone();
        shown["move"]["at_ms"] = Value::Null;
        assert!(!shown.to_string().contains('3'), "no 3 anywhere: {s}");
    }
    // The HTTP state is filtered the same way.
    let (_, s) = http(
        addr,
        "GET",
        &format!("/api/games/{id}/state?token={}", token(&created, 1)),
        None,
        &[],
    )
    .await
    .unwrap();
    assert_eq!(s["view"]["mine"], Value::Null);
    // Once both picked, the round is public.
    act(&mut b, 2, json!({"pick": 1})).await;
    let s = spec.recv_until("state", |v| v["seq"] == 2).await.unwrap();
    assert_eq!(s["view"]["revealed"], json!([[3, 1]]));
    server.stop().await;
}

/// Gobble through the server: a found word stays private until the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gobble_words_stay_private() {
    use parlor_core::Game;
    let config = json!({"seats": 2, "keyphrase": "abacus abdomen abide zoom", "seconds": 60});
    let res = parlor_core::Resources::embedded();
    let g = parlor_gobble::Gobble::new(&serde_json::from_value(config.clone()).unwrap(), 1, &res)
        .unwrap();
    let word = g
        .all_words()
        .map(|w| w.word.clone())
        .max_by_key(|w| w.len())
        .unwrap();
    let server = common::start(&common::sqlite_url("gobble"), common::test_settings()).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "gobble", "config": config, "take_seat": 0}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap();
    let letters = g
        .view(parlor_core::Viewer::Spectator)
        .letters
        .to_uppercase();
    let (mut a, s) = connect(addr, id, Some(&token(&created, 0))).await;
    // The round waits for player 2, and nobody sees the board meanwhile:
    // not the seat's connection, not /state, not a spectator.
    assert_eq!(s["clock"], Value::Null, "{s}");
    assert_eq!(s["waiting_for"], json!([1]), "{s}");
    assert_eq!(s["view"], Value::Null, "{s}");
    let (mut early_spec, s) = connect(addr, id, None).await;
    assert_eq!(s["view"], Value::Null, "{s}");
    let t0 = token(&created, 0);
    for path in [
        format!("/api/games/{id}/state?token={t0}"),
        format!("/api/games/{id}/state"),
    ] {
        let (status, s) = http(addr, "GET", &path, None, &[]).await.unwrap();
        assert_eq!(status, 200, "{s}");
        assert_eq!(s["view"], Value::Null, "{s}");
        assert!(!s.to_string().to_uppercase().contains(&letters), "{s}");
    }
    a.send(&json!({"type": "sync"})).await.unwrap();
    let s = a.recv_until("state", |_| true).await.unwrap();
    assert_eq!(s["view"], Value::Null, "{s}");
    let (mut b, s) = connect(addr, id, Some(&token(&created, 1))).await;
    // The last seat arrived: the view comes with the running clock.
    assert_eq!(s["view"]["letters"], json!(letters.to_lowercase()), "{s}");
    let s = a
        .recv_until("state", |v| !v["clock"].is_null())
        .await
        .unwrap();
    assert!(s["clock"]["remaining_ms"].as_i64().unwrap() > 50_000, "{s}");
    assert_eq!(s["waiting_for"], json!([]), "{s}");
    assert_eq!(s["view"]["letters"], json!(letters.to_lowercase()), "{s}");
    let s = early_spec
        .recv_until("state", |v| !v["clock"].is_null())
        .await
        .unwrap();
    assert!(s["view"]["rows"].is_array(), "{s}");
    let (mut spec, _) = connect(addr, id, None).await;
    act(&mut a, 1, json!({"type": "enter", "word": word})).await;
    for ws in [&mut b, &mut spec] {
        let s = ws.recv_until("state", |v| v["seq"] == 1).await.unwrap();
        assert_eq!(s["view"]["my_words"], json!([]));
        assert_eq!(s["view"]["counts"], json!([1, 0]));
        assert!(
            !s["view"]["my_words"].to_string().contains(&word),
            "{word} leaked"
        );
    }
    // A word not on the board: a clear refusal.
    a.send(&json!({"type": "act", "ref": 2, "action": {"type": "enter", "word": "qqqqq"}}))
        .await
        .unwrap();
    let e = error_for(&mut a, json!(2)).await;
    assert_eq!(e["code"], "illegal_action");
    server.stop().await;
}

async fn restart_resumes(db: DbUrl) {
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let created = create(addr, json!({"game": "nim", "take_seat": 0})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let (mut a, _) = connect(addr, &id, Some(&t0)).await;
    let (mut b, _) = connect(addr, &id, Some(&t1)).await;
    act(&mut a, 1, json!(3)).await;
    act(&mut b, 2, json!(2)).await;
    let before = a.recv_until("state", |v| v["seq"] == 2).await.unwrap();
    // Stop at once: acknowledged actions are on disk, nothing else counts.
    server.stop().await;

    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let (mut a, after) = connect(addr, &id, Some(&t0)).await;
    assert_eq!(after["seq"], 2);
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["to_act"], json!({"one": 0}));
    act(&mut a, 3, json!(1)).await;
    let s = a.recv_until("state", |v| v["seq"] == 3).await.unwrap();
    assert_eq!(s["view"]["pile"], 15);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_resumes_on_sqlite() {
    restart_resumes(common::sqlite_url("restart")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_resumes_on_postgres() {
    if let Some(db) = tokio::task::block_in_place(|| common::pg_fresh_db("restart")) {
        restart_resumes(db).await;
    }
}

/// A round clock keeps running across a restart, from its stored start, and
/// the server applies the referee's action when it runs out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clock_survives_restart() {
    let db = common::sqlite_url("clock");
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "secret", "config": {"rounds": 2, "seconds": 1.5}, "take_seat": 0}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let t0 = token(&created, 0);
    join(addr, &id, &token(&created, 1)).await;
    let (mut a, s) = connect(addr, &id, Some(&t0)).await;
    let started = s["clock"]["started_ms"].as_i64().unwrap();
    assert_eq!(s["clock"]["key"], "round-0");
    act(&mut a, 1, json!({"pick": 2})).await;
    let s = a.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    assert_eq!(
        s["clock"]["started_ms"], started,
        "a pick does not restart the round"
    );
    server.stop().await;

    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let (mut a, s) = connect(addr, &id, Some(&t0)).await;
    if s["seq"] == 1 {
        assert_eq!(s["clock"]["started_ms"], started, "{s}");
    }
    // The referee's timeout arrives by itself.
    let s = a
        .recv_until("state", |v| v["view"]["round"] == 1)
        .await
        .unwrap();
    assert_eq!(s["view"]["revealed"], json!([[2, 0]]));
    assert_eq!(s["by"], "referee");
    assert_eq!(s["clock"]["key"], "round-1");
    server.stop().await;
}

/// Bots take seats and play when it is their turn, off the game's task.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_their_seats() {
    let server = common::start(&common::sqlite_url("bots"), common::test_settings()).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "nim", "bots": [{"seat": 1, "level": "easy"}], "take_seat": 0}),
    )
    .await;
    assert_eq!(created["game"]["seats"][1]["kind"], "bot");
    assert_eq!(created["game"]["status"], "live");
    let id = created["game"]["id"].as_str().unwrap();
    let (mut a, mut s) = connect(addr, id, Some(&token(&created, 0))).await;
    let mut r = 0;
    while s["to_act"] != "over" {
        if s["to_act"] == json!({"one": 0}) {
            r += 1;
            act(&mut a, r, json!(1)).await;
        }
        s = a.recv_until("state", |_| true).await.unwrap();
    }
    assert!(s["outcome"]["ranking"].is_array());
    // Two bots play a whole game alone; a spectator watches it end.
    let created = create(
        addr,
        json!({"game": "secret", "config": {"rounds": 5},
               "bots": [{"seat": 0}, {"seat": 1, "level": "best"}]}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap();
    let (mut spec, s) = connect(addr, id, None).await;
    if s["to_act"] != "over" {
        let s = spec
            .recv_until("state", |v| v["to_act"] == "over")
            .await
            .unwrap();
        assert_eq!(s["seq"], 10);
    }
    tokio::time::sleep(Duration::from_millis(10)).await;
    server.stop().await;
}

/// The next `ack` or `state` on a connection (other messages skipped).
async fn next_ack_or_state(ws: &mut Ws) -> Value {
    loop {
        let v = ws.recv().await.unwrap();
        if v["type"] == "ack" || v["type"] == "state" {
            return v;
        }
    }
}

/// A bot that answers at once (nim's) answers in the same commit as the
/// person's action, and both go out together: fewer write requests than
/// actions, yet every connection still sees each move's state in order
/// (the player: its ack, the state after its action, then the state
/// after the bot's), and the database holds every move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quick_bot_answers_in_the_same_commit() {
    let db = common::sqlite_url("quick-bot");
    let settings = parlor_server::Settings {
        bots: parlor_server::Bots {
            quick_bot: Duration::MAX,
            ..common::test_settings().bots
        },
        ..common::test_settings()
    };
    let server = common::start(&db, settings).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 80},
               "bots": [{"seat": 1, "level": "easy"}], "take_seat": 0}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (mut a, first) = connect(addr, &id, Some(&token(&created, 0))).await;
    let (mut spec, _) = connect(addr, &id, None).await;
    assert_eq!(first["seq"], 0);
    let writes_before = server.store().writes_asked();
    let mut seq = 0;
    let mut to_act = first["to_act"].clone();
    let mut r = 0;
    while to_act != "over" {
        if to_act == json!({"one": 0}) {
            r += 1;
            a.send(&json!({"type": "act", "ref": r, "action": 1}))
                .await
                .unwrap();
            let ack = next_ack_or_state(&mut a).await;
            assert_eq!(ack["type"], "ack", "{ack}");
            assert_eq!(ack["ref"], r);
            assert_eq!(ack["seq"], seq + 1);
        }
        let s = next_ack_or_state(&mut a).await;
        assert_eq!(s["type"], "state", "{s}");
        assert_eq!(s["seq"], seq + 1, "every state in order: {s}");
        seq += 1;
        to_act = s["to_act"].clone();
    }
    // The spectator saw every state too, in order.
    for n in 1..=seq {
        let s = spec.recv_until("state", |_| true).await.unwrap();
        assert_eq!(s["seq"], n);
    }
    let writes = server.store().writes_asked() - writes_before;
    assert!(seq > 30, "a long game: {seq} moves");
    assert!(
        writes < seq,
        "{writes} write requests for {seq} moves: the bot's answers joined the actions"
    );
    server.stop().await;
    // Stored: every move, alternately the person's and the bot's.
    let g = common::open(&db).load(&id).unwrap().unwrap();
    assert_eq!(g.actions.len() as u64, seq);
    for (i, action) in g.actions.iter().enumerate() {
        assert_eq!(action.idx, i);
        assert_eq!(action.actor, json!({"seat": i % 2}), "move {i}");
    }
}

/// A new game whose rules and bot level decided quickly in an earlier game
/// (a rematch, in practice) starts with its bot quick: the person's first
/// action and the bot's answer are one write request, not one each with
/// the bot's first decision sent to a blocking thread. Every decision
/// counts as quick here (`quick_bot`), so the test does not hang on how
/// fast the machine runs the bot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_game_knows_its_bot_is_quick() {
    let settings = parlor_server::Settings {
        bots: parlor_server::Bots {
            quick_bot: Duration::MAX,
            ..common::test_settings().bots
        },
        ..common::test_settings()
    };
    let server = common::start(&common::sqlite_url("quick-bot-known"), settings).await;
    let addr = server.addr();
    let rules = json!({"game": "nim", "config": {"pile": 80},
                       "bots": [{"seat": 1, "level": "easy"}], "take_seat": 0});
    // The first game: nothing is known of its bot, whose first decision
    // runs on a blocking thread after the person's action is stored; from
    // then on the bot is quick and answers in the person's commit.
    let first = create(addr, rules.clone()).await;
    assert_eq!(
        first_two_actions_writes(addr, &server, &first).await,
        (2, 1)
    );
    // The second game with the same rules: quick from its first action.
    let second = create(addr, rules).await;
    assert_eq!(
        first_two_actions_writes(addr, &server, &second).await,
        (1, 1),
        "the person's first action and the bot's answer were stored apart"
    );
    server.stop().await;
}

/// A bot never counts as quick when its decisions take longer than
/// `quick_bot` (zero here): a new game with the same rules as a finished
/// one sends the bot's first decision to a blocking thread again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_bot_is_not_taken_for_quick() {
    let settings = parlor_server::Settings {
        bots: parlor_server::Bots {
            quick_bot: Duration::ZERO,
            ..common::test_settings().bots
        },
        ..common::test_settings()
    };
    let server = common::start(&common::sqlite_url("quick-bot-slow"), settings).await;
    let addr = server.addr();
    let rules = json!({"game": "nim", "config": {"pile": 80},
                       "bots": [{"seat": 1, "level": "easy"}], "take_seat": 0});
    for _ in 0..2 {
        let created = create(addr, rules.clone()).await;
        assert_eq!(
            first_two_actions_writes(addr, &server, &created).await,
            (2, 2)
        );
    }
    server.stop().await;
}

/// Plays the first two rounds of a fresh nim game against a bot (seat 0
/// takes one, the bot answers, twice) and gives the write requests each
/// round took: 1 when the bot answered in the person's commit (it was
/// known quick), 2 when its decision went to a blocking thread.
async fn first_two_actions_writes(
    addr: SocketAddr,
    server: &parlor_server::Server,
    created: &Value,
) -> (u64, u64) {
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (mut ws, state) = connect(addr, &id, Some(&token(created, 0))).await;
    assert_eq!(state["to_act"], json!({"one": 0}), "{state}");
    let mut writes = [0; 2];
    for round in 1..=2u64 {
        let before = server.store().writes_asked();
        ws.send(&json!({"type": "act", "ref": round, "action": 1}))
            .await
            .unwrap();
        ws.recv_until("state", |v| v["seq"] == 2 * round)
            .await
            .unwrap();
        writes[round as usize - 1] = server.store().writes_asked() - before;
    }
    ws.close().await;
    (writes[0], writes[1])
}

/// A client that stops reading is dropped; the game and the other
/// connections go on at full speed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_client_cannot_stall_the_game() {
    let settings = parlor_server::Settings {
        connections: parlor_server::Connections {
            conn_queue: 8,
            write_timeout: Duration::from_secs(1),
            ..common::test_settings().connections
        },
        ..common::test_settings()
    };
    let server = common::start(&common::sqlite_url("slow"), settings).await;
    let addr = server.addr();
    let created = create(addr, json!({"game": "blob", "config": {"bytes": 65536}})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let t0 = token(&created, 0);
    // The slow spectator connects and never reads.
    let mut slow = Ws::connect(addr, &id, None).await.unwrap();
    // A fast one reads every state before the next action is sent, so
    // however busy the machine, it never falls behind (a reader racing
    // the actions could lag past its own queue and be dropped too).
    let (mut fast, _) = connect(addr, &id, None).await;
    let path = format!("/api/games/{id}/actions");
    for i in 0..150u64 {
        let (s, v) = post(addr, &path, json!({"token": t0, "action": 1})).await;
        assert_eq!(s, 200, "action {i}: {v}");
        fast.recv_until("state", |v| v["seq"] == i + 1)
            .await
            .expect("the fast spectator saw every state");
    }
    // The slow one finds its connection closed after what was buffered.
    let mut last = 0;
    let closed = loop {
        match slow.recv_timeout(Duration::from_secs(20)).await {
            Ok(v) => last = v["seq"].as_u64().unwrap_or(last),
            Err(e) => break e,
        }
    };
    assert!(
        last < 150,
        "the stalled client was dropped before the end ({closed})"
    );
    server.stop().await;
}

/// After a restart, a game whose clock runs goes on without any visitor.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_resume_without_visitors() {
    let db = common::sqlite_url("resume");
    let (settings, time) = common::virtual_time();
    let server = common::start(&db, settings.clone()).await;
    let created = create(
        server.addr(),
        json!({"game": "secret", "config": {"rounds": 1, "seconds": 1.0}, "take_seat": 0}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    join(server.addr(), &id, &token(&created, 1)).await;
    // Once the clock's start is in the database, stop.
    let mut stored = common::open(&db);
    let mut started = false;
    for _ in 0..600 {
        let game = tokio::task::block_in_place(|| stored.load(&id)).unwrap();
        if game.is_some_and(|g| g.row.status.deadline.is_some()) {
            started = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(started, "the round's clock started and was stored");
    server.stop().await;
    // The round's second passes while the server is down.
    time.advance(Duration::from_millis(1000));
    let server = common::start(&db, settings).await;
    let mut over = false;
    for _ in 0..100 {
        let (_, list) = http(server.addr(), "GET", "/api/games?status=over", None, &[])
            .await
            .unwrap();
        if list["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id)
        {
            over = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(over, "the referee ended the round by itself");
    server.stop().await;
}

/// A game that is over leaves memory soon after its last visitor
/// (`idle_unload_over`), while an unfinished one waits its `idle_unload`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_unload_sooner() {
    let settings = parlor_server::Settings {
        games: parlor_server::Games {
            idle_unload: Duration::from_secs(60),
            idle_unload_over: Duration::from_millis(200),
            ..common::test_settings().games
        },
        ..common::test_settings()
    };
    let server = common::start(&common::sqlite_url("idle_over"), settings).await;
    let addr = server.addr();
    let done = create(addr, json!({"game": "nim"})).await;
    let waiting = create(addr, json!({"game": "nim"})).await;
    let id = done["game"]["id"].as_str().unwrap();
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/abort"),
        json!({"token": token(&done, 0)}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(server.live_games(), 2);
    for _ in 0..60 {
        if server.live_games() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(server.live_games(), 1, "the finished game left memory");
    // The unfinished one is still there, and the finished one reloads.
    let wid = waiting["game"]["id"].as_str().unwrap();
    let (s, v) = post(
        addr,
        &format!("/api/games/{wid}/actions"),
        json!({"token": token(&waiting, 0), "action": 1}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (_, st) = http(addr, "GET", &format!("/api/games/{id}"), None, &[])
        .await
        .unwrap();
    assert_eq!(st["status"], "over", "{st}");
    server.stop().await;
}

/// Idle games leave memory and come back whole on the next visit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_unload_and_reload() {
    let settings = parlor_server::Settings {
        games: parlor_server::Games {
            idle_unload: Duration::from_millis(200),
            ..common::test_settings().games
        },
        ..common::test_settings()
    };
    let server = common::start(&common::sqlite_url("idle"), settings).await;
    let addr = server.addr();
    let created = create(addr, json!({"game": "nim"})).await;
    let id = created["game"]["id"].as_str().unwrap();
    let t0 = token(&created, 0);
    let path = format!("/api/games/{id}/actions");
    post(addr, &path, json!({"token": t0, "action": 2})).await;
    for _ in 0..50 {
        if server.live_games() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(server.live_games(), 0, "the idle game left memory");
    let (s, v) = post(
        addr,
        &path,
        json!({"token": token(&created, 1), "action": 3}),
    )
    .await;
    assert_eq!((s, &v["seq"]), (200, &json!(2)), "{v}");
    let (_, st) = http(addr, "GET", &format!("/api/games/{id}/state"), None, &[])
        .await
        .unwrap();
    assert_eq!(st["view"]["pile"], 16);
    server.stop().await;
}

/// With a turn clock, a seat that does not move in time has its move made
/// by the game's bot; the clock is in every state message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turn_clock_moves_for_the_absent() {
    let (settings, time) = common::virtual_time();
    let server = common::start(&common::sqlite_url("turn"), settings).await;
    let addr = server.addr();
    let (s, v) = post(
        addr,
        "/api/games",
        json!({"game": "nim", "turn_seconds": 0.0}),
    )
    .await;
    assert_eq!((s, v["error"]["code"].as_str()), (400, Some("bad_config")));
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 4}, "turn_seconds": 0.3}),
    )
    .await;
    assert_eq!(created["game"]["turn_seconds"], 0.3);
    let id = created["game"]["id"].as_str().unwrap();
    let (mut spec, first) = connect(addr, id, None).await;
    assert_eq!(first["turn_clock"]["seat"], 0, "{first}");
    assert_eq!(first["turn_clock"]["remaining_ms"], 300, "{first}");
    // Nobody moves: the clock plays both seats to the end, a move every
    // 0.3 s and not before.
    let mut seq = 0;
    let last = loop {
        time.advance(Duration::from_millis(299));
        spec.send(&json!({"type": "sync"})).await.unwrap();
        let s = spec.recv_until("state", |_| true).await.unwrap();
        assert_eq!(s["seq"], seq, "not before the turn clock ends: {s}");
        assert_eq!(s["turn_clock"]["remaining_ms"], 1, "{s}");
        time.advance(Duration::from_millis(1));
        let s = spec
            .recv_until("state", |v| v["seq"].as_u64() > Some(seq))
            .await
            .unwrap();
        assert_eq!(s["by"], json!({"seat": seq % 2}), "{s}");
        if s["to_act"] == "over" {
            break s;
        }
        seq = s["seq"].as_u64().unwrap();
    };
    assert_eq!(last["turn_clock"], Value::Null);
    assert!(last["seq"].as_u64().unwrap() >= 2);
    server.stop().await;
}

/// A game nobody has moved in can be aborted by a seat; it stays aborted
/// after a restart and accepts nothing more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abort_before_the_first_move() {
    let db = common::sqlite_url("abort");
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let created = create(addr, json!({"game": "nim"})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let (mut b, _) = connect(addr, &id, Some(&t1)).await;
    let abort = format!("/api/games/{id}/abort");
    let (s, v) = post(addr, &abort, json!({"token": "nope"})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (403, Some("bad_token")));
    let (s, v) = post(addr, &abort, json!({"token": t0})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["game"]["aborted"].clone(), v["game"]["status"].clone()),
        (json!(true), json!("over"))
    );
    let st = b
        .recv_until("state", |v| v["aborted"] == true)
        .await
        .unwrap();
    assert_eq!(st["to_act"], "over");
    b.send(&json!({"type": "act", "ref": 1, "action": 1}))
        .await
        .unwrap();
    assert_eq!(error_for(&mut b, json!(1)).await["code"], "illegal_action");
    server.stop().await;

    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let (_, st) = http(addr, "GET", &format!("/api/games/{id}/state"), None, &[])
        .await
        .unwrap();
    assert_eq!(
        (st["aborted"].clone(), st["to_act"].clone()),
        (json!(true), json!("over"))
    );
    // Once someone has moved, a game cannot be aborted.
    let created = create(addr, json!({"game": "nim"})).await;
    let id = created["game"]["id"].as_str().unwrap();
    let t0 = token(&created, 0);
    post(
        addr,
        &format!("/api/games/{id}/actions"),
        json!({"token": t0, "action": 1}),
    )
    .await;
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/abort"),
        json!({"token": t0}),
    )
    .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (409, Some("illegal_action"))
    );
    server.stop().await;
}

/// With an absent countdown, only a seat nobody holds loses its turn to the
/// bot; a connected player may think as long as they like.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn absent_countdown_only_for_the_absent() {
    let (settings, time) = common::virtual_time();
    let server = common::start(&common::sqlite_url("absent"), settings).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 9, "max_take": 1}, "absent_seconds": 0.3}),
    )
    .await;
    assert_eq!(created["game"]["absent_seconds"], 0.3);
    let id = created["game"]["id"].as_str().unwrap().to_string();
    // Bea (seat 1) is here; Ann (seat 0) never comes.
    let (mut bea, s) = connect(addr, &id, Some(&token(&created, 1))).await;
    assert_eq!(s["turn_clock"]["reason"], "absent", "{s}");
    assert_eq!(s["turn_clock"]["seat"], 0);
    // Ann's move is made for her; then it is Bea's turn, with no countdown.
    time.advance(Duration::from_millis(300));
    let s = bea.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    assert_eq!(s["by"], json!({"seat": 0}));
    assert_eq!(s["turn_clock"], Value::Null, "Bea is here: {s}");
    time.advance(Duration::from_millis(600));
    for _ in 0..2 {
        bea.send(&json!({"type": "sync"})).await.unwrap();
        let s = bea.recv_until("state", |_| true).await.unwrap();
        assert_eq!(s["seq"], 1, "nothing was played for Bea while she was here");
        assert_eq!(s["turn_clock"], Value::Null, "Bea is here: {s}");
    }
    // Bea leaves on her turn: her countdown starts and her move is made.
    bea.close().await;
    let (mut spec, _) = connect(addr, &id, None).await;
    // Once the game has seen her go (a poll: her socket's close reaches
    // the game in its own time), her countdown runs.
    let mut countdown = Value::Null;
    for _ in 0..200 {
        spec.send(&json!({"type": "sync"})).await.unwrap();
        countdown = spec.recv_until("state", |_| true).await.unwrap()["turn_clock"].clone();
        if countdown["seat"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(countdown["reason"], "absent", "{countdown}");
    assert_eq!(countdown["remaining_ms"], 300, "{countdown}");
    time.advance(Duration::from_millis(300));
    let s = spec.recv_until("state", |v| v["seq"] == 2).await.unwrap();
    assert_eq!(s["by"], json!({"seat": 1}));
    server.stop().await;
}

/// POSTs JSON and returns the status and the body.
fn code(v: &Value) -> String {
    v["error"]["code"].as_str().unwrap_or("").to_string()
}

/// Whether the helper's answer lists the play making `result`, justified
/// by `word`.
fn has_play(answer: &Value, result: &str, word: &str) -> bool {
    answer["moves"].as_array().is_some_and(|moves| {
        moves.iter().any(|m| {
            m["result"] == result
                && m["goal_words"]
                    .as_array()
                    .is_some_and(|w| w.iter().any(|w| w == word))
        })
    })
}

/// The game's helper (Word Sprout's "what could have been played?") over
/// HTTP and WebSocket: refused during play on a table without hints, open
/// to seats and spectators after the game and during play with hints,
/// malformed requests and games without a helper refused clearly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_helper() {
    let server = common::start(&common::sqlite_url("assist"), common::test_settings()).await;
    let addr = server.addr();
    let (created, id) = word_sprout_table(addr).await;
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let path = format!("/api/games/{id}/assist");
    let omat = json!({"string": "omat"});

    // During play, without hints: refused, for seats and spectators.
    for body in [
        json!({"token": t0, "request": omat}),
        json!({"request": omat}),
    ] {
        let (s, v) = post(addr, &path, body).await;
        assert_eq!((s, code(&v)), (409, "helper_refused".into()), "{v}");
        assert!(v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("after the round"));
    }
    // Malformed: a bad token, a request that is not an object, a body that
    // is not JSON, a request the game does not understand; unknown game.
    let (s, v) = post(addr, &path, json!({"token": "nope", "request": omat})).await;
    assert_eq!((s, code(&v)), (403, "bad_token".into()), "{v}");
    let (s, v) = post(addr, &path, json!({"token": t0, "request": "omat"})).await;
    assert_eq!((s, code(&v)), (400, "bad_json".into()), "{v}");
    let (s, v) = http_raw(addr, "POST", &path, Some(b"{not json"), &[])
        .await
        .unwrap();
    assert_eq!((s, code(&v)), (400, "bad_json".into()), "{v}");
    let (s, v) = post(addr, "/api/games/nosuchgame/assist", json!({})).await;
    assert_eq!((s, code(&v)), (404, "not_found".into()), "{v}");

    // The game ends (player 1 goes out): the helper opens for everyone.
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/actions"),
        json!({"token": t0, "action": {"type": "concede"}}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    for body in [
        json!({"token": t1, "request": omat}),
        json!({"request": omat}),
        json!({"token": "", "request": omat}),
    ] {
        let (s, v) = post(addr, &path, body).await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["answer"]["string"], "omat", "{v}");
        assert_eq!(v["answer"]["solved"], false);
        assert!(has_play(&v["answer"], "tomat", "tomato"), "{v}");
    }
    // Without a request: the table's string (empty here).
    let (s, v) = post(addr, &path, json!({"token": t0})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["answer"]["string"], "");
    // A field the game does not know: the game's own message.
    let (s, v) = post(addr, &path, json!({"request": {"strng": "omat"}})).await;
    assert_eq!((s, code(&v)), (409, "helper_refused".into()), "{v}");
    let (s, v) = post(addr, &path, json!({"request": {"string": "om4t"}})).await;
    assert_eq!((s, code(&v)), (409, "helper_refused".into()), "{v}");

    // The same over the WebSocket, for a seat and a spectator.
    for tok in [Some(t1.as_str()), None] {
        let (mut ws, _) = connect(addr, &id, tok).await;
        ws.send(&json!({"type": "assist", "ref": 7, "request": omat}))
            .await
            .unwrap();
        let a = ws.recv_until("assist", |v| v["ref"] == 7).await.unwrap();
        assert!(has_play(&a["answer"], "tomat", "tomato"), "{a}");
        ws.send(&json!({"type": "assist", "ref": 8, "request": [1]}))
            .await
            .unwrap();
        let e = error_for(&mut ws, json!(8)).await;
        assert_eq!(e["code"], "bad_json", "{e}");
    }

    // A table created with hints: open during play.
    let hinted = create(
        addr,
        json!({"game": "wordsprout", "config": {"hints": true}, "take_seat": 0}),
    )
    .await;
    let hid = hinted["game"]["id"].as_str().unwrap();
    let (s, v) = post(
        addr,
        &format!("/api/games/{hid}/assist"),
        json!({"token": token(&hinted, 0), "request": omat}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert!(has_play(&v["answer"], "tomat", "tomato"), "{v}");

    // A game without a helper says so.
    let nim = create(addr, json!({"game": "nim", "take_seat": 0})).await;
    let nid = nim["game"]["id"].as_str().unwrap();
    let (s, v) = post(
        addr,
        &format!("/api/games/{nid}/assist"),
        json!({"token": token(&nim, 0), "request": {}}),
    )
    .await;
    assert_eq!((s, code(&v)), (404, "no_helper".into()), "{v}");
    let (mut ws, _) = connect(addr, nid, None).await;
    ws.send(&json!({"type": "assist", "ref": "h"}))
        .await
        .unwrap();
    let e = error_for(&mut ws, json!("h")).await;
    assert_eq!(e["code"], "no_helper", "{e}");
    server.stop().await;
}

/// A game's clock starts only once every human seat is there (bots count
/// as there); until then it holds, and so does play. Its start is stored:
/// a restart keeps it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clock_waits_for_the_players() {
    let db = common::sqlite_url("waits");
    let (settings, time) = common::virtual_time();
    let server = common::start(&db, settings.clone()).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "secret", "config": {"rounds": 1, "seconds": 2.0}, "take_seat": 0}),
    )
    .await;
    assert_eq!(created["game"]["clock"], Value::Null, "{created}");
    assert_eq!(created["game"]["waiting_for"], json!([1]));
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let state = |addr: SocketAddr, id: String, t: String| async move {
        http(
            addr,
            "GET",
            &format!("/api/games/{id}/state?token={t}"),
            None,
            &[],
        )
        .await
        .unwrap()
        .1
    };
    // Play waits too.
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/actions"),
        json!({"token": t0, "action": {"pick": 2}}),
    )
    .await;
    assert_eq!((s, code(&v)), (409, "waiting".into()), "{v}");
    // Longer than the round: nothing runs out.
    time.advance(Duration::from_millis(2300));
    let s = state(addr, id.clone(), t0.clone()).await;
    assert_eq!(
        (s["seq"].clone(), s["clock"].clone()),
        (json!(0), Value::Null),
        "{s}"
    );
    assert_eq!(s["waiting_for"], json!([1]));
    // A restart keeps waiting.
    server.stop().await;
    let server = common::start(&db, settings.clone()).await;
    let addr = server.addr();
    let s = state(addr, id.clone(), t0.clone()).await;
    assert_eq!(s["clock"], Value::Null, "{s}");
    assert_eq!(s["waiting_for"], json!([1]));

    // Player 2 arrives: the clock starts now.
    let before = time.now_ms();
    let joined = join(addr, &id, &t1).await;
    let t1 = secret(&joined);
    let clock = joined["game"]["clock"].clone();
    let started = clock["started_ms"].as_i64().expect("a running clock");
    assert_eq!(started, before, "{clock}");
    assert_eq!(joined["game"]["waiting_for"], json!([]));
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/actions"),
        json!({"token": t0, "action": {"pick": 2}}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    // A restart keeps its start; the referee ends the round on time.
    server.stop().await;
    let server = common::start(&db, settings).await;
    let addr = server.addr();
    let (mut a, s) = connect(addr, &id, Some(&t0)).await;
    assert_ne!(s["to_act"], "over", "{s}");
    assert_eq!(s["clock"]["started_ms"], started, "{s}");
    assert_eq!(s["clock"]["remaining_ms"], 2000, "{s}");
    time.advance(Duration::from_millis(2000));
    let s = a
        .recv_until("state", |v| v["to_act"] == "over")
        .await
        .unwrap();
    assert_eq!(s["by"], "referee");
    let s = state(addr, id.clone(), t1.clone()).await;
    assert_eq!(s["view"]["revealed"], json!([[2, 0]]), "{s}");

    // With a bot in the other seat nothing waits.
    let created = create(
        addr,
        json!({"game": "secret", "config": {"rounds": 1, "seconds": 60.0},
               "take_seat": 0, "bots": [{"seat": 1}]}),
    )
    .await;
    assert!(created["game"]["clock"]["started_ms"].is_i64(), "{created}");
    assert_eq!(created["game"]["waiting_for"], json!([]));
    server.stop().await;
}

/// A rematch's clock waits for both players to come to the new game (its
/// seats stay reserved for them: joined, not free to claim), also across a
/// restart; a bot seat is there at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_clock_waits_for_its_players() {
    let db = common::sqlite_url("rematch_waits");
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "secret", "config": {"rounds": 1, "seconds": 60.0},
               "take_seat": 0, "public": true}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let t1 = secret(&join(addr, &id, &t1).await);
    for t in [&t0, &t1] {
        let (s, v) = post(
            addr,
            &format!("/api/games/{id}/actions"),
            json!({"token": t, "action": {"pick": 2}}),
        )
        .await;
        assert_eq!(s, 200, "{v}");
    }
    // Both were here for the first game; the rematch still waits for them.
    let (s, r0) = post(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"token": t0}),
    )
    .await;
    assert_eq!(s, 200, "{r0}");
    let new_id = r0["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(r0["game"]["clock"], Value::Null, "{r0}");
    assert_eq!(r0["game"]["waiting_for"], json!([0, 1]), "{r0}");
    // The seats stay the same players': joined, the game is not open.
    assert_eq!(r0["game"]["status"], "live", "{r0}");
    let (s, v) = post(
        addr,
        &format!("/api/games/{new_id}/claim"),
        json!({"seat": 0}),
    )
    .await;
    assert_eq!((s, code(&v)), (409, "seat_taken".into()), "{v}");
    let n0 = r0["token"].as_str().unwrap().to_string();
    let joined = join(addr, &new_id, &n0).await;
    assert_eq!(joined["game"]["clock"], Value::Null, "{joined}");
    assert_eq!(joined["game"]["waiting_for"], json!([0]), "{joined}");
    // A restart keeps waiting for the one who has not come yet.
    server.stop().await;
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let (_, st) = http(
        addr,
        "GET",
        &format!("/api/games/{new_id}/state?token={n0}"),
        None,
        &[],
    )
    .await
    .unwrap();
    assert_eq!(st["clock"], Value::Null, "{st}");
    assert!(!st["waiting_for"].as_array().unwrap().is_empty(), "{st}");
    let (s, v) = post(
        addr,
        &format!("/api/games/{new_id}/actions"),
        json!({"token": n0, "action": {"pick": 1}}),
    )
    .await;
    assert_eq!((s, code(&v)), (409, "waiting".into()), "{v}");
    // The other player comes (rematch with the old token, then join): the
    // clock starts now.
    let (s, r1) = post(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"token": t1}),
    )
    .await;
    assert_eq!((s, r1["game"]["id"].as_str()), (200, Some(new_id.as_str())));
    assert_eq!(r1["game"]["clock"], Value::Null, "{r1}");
    let n1 = r1["token"].as_str().unwrap().to_string();
    let (mut a, st) = connect(addr, &new_id, Some(&n0)).await;
    assert_eq!(st["clock"], Value::Null, "{st}");
    let before = now_ms();
    let joined = join(addr, &new_id, &n1).await;
    let started = joined["game"]["clock"]["started_ms"]
        .as_i64()
        .expect("a running clock");
    assert!(started >= before, "{joined}");
    assert_eq!(joined["game"]["waiting_for"], json!([]));
    let st = a
        .recv_until("state", |v| !v["clock"].is_null())
        .await
        .unwrap();
    assert_eq!(st["clock"]["started_ms"], started, "{st}");
    assert!(st["view"]["revealed"].is_array(), "{st}");

    // A rematch against a bot waits only for the human.
    let created = create(
        addr,
        json!({"game": "secret", "config": {"rounds": 1, "seconds": 60.0},
               "take_seat": 0, "bots": [{"seat": 1}]}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let t0 = token(&created, 0);
    let (mut a, _) = connect(addr, &id, Some(&t0)).await;
    act(&mut a, 1, json!({"pick": 3})).await;
    a.recv_until("state", |v| v["to_act"] == "over")
        .await
        .unwrap();
    let (s, r) = post(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"token": t0}),
    )
    .await;
    assert_eq!(s, 200, "{r}");
    let human = r["seat"].as_u64().unwrap();
    assert_eq!(r["game"]["clock"], Value::Null, "{r}");
    assert_eq!(r["game"]["waiting_for"], json!([human]), "{r}");
    let new_id = r["game"]["id"].as_str().unwrap().to_string();
    let joined = join(addr, &new_id, r["token"].as_str().unwrap()).await;
    assert!(joined["game"]["clock"]["started_ms"].is_i64(), "{joined}");
    server.stop().await;
}

/// "Claim a win from one who left": once the absent player's countdown has
/// run out on their turn, another player who is here may claim the win
/// (the game's forfeit, applied by the referee); nobody claims: the bot
/// moves as before; a game without a forfeit: the bot moves at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claim_a_win_from_one_who_left() {
    let (settings, time) = common::virtual_time();
    let settings = parlor_server::Settings {
        games: parlor_server::Games {
            claim_window: Duration::from_millis(1500),
            ..settings.games
        },
        ..settings
    };
    let server = common::start(&common::sqlite_url("claim_win"), settings).await;
    let addr = server.addr();
    let new_game = |addr: SocketAddr| async move {
        let created = create(
            addr,
            json!({"game": "wordsprout", "take_seat": 1, "absent_seconds": 0.3}),
        )
        .await;
        let id = created["game"]["id"].as_str().unwrap().to_string();
        (id, token(&created, 0), token(&created, 1))
    };

    // Ann (seat 0, to move) never comes; Bea is here.
    let (id, t0, t1) = new_game(addr).await;
    let claim = format!("/api/games/{id}/claim-win");
    let (mut bea, s) = connect(addr, &id, Some(&t1)).await;
    assert_eq!(s["turn_clock"]["reason"], "absent", "{s}");
    // Too early: the countdown still runs.
    time.advance(Duration::from_millis(299));
    let (st, v) = post(addr, &claim, json!({"token": t1})).await;
    assert_eq!((st, code(&v)), (409, "not_claimable".into()), "{v}");
    time.advance(Duration::from_millis(1));
    let s = bea
        .recv_until("state", |v| v["turn_clock"]["reason"] == "claim")
        .await
        .unwrap();
    assert_eq!(s["turn_clock"]["seat"], 0, "{s}");
    assert_eq!(s["turn_clock"]["claimable_by"], json!([1]), "{s}");
    assert_eq!(s["seq"], 0);
    // Not the absent seat itself, not a spectator, not a stranger.
    let (st, v) = post(addr, &claim, json!({"token": t0})).await;
    assert_eq!((st, code(&v)), (409, "not_claimable".into()), "{v}");
    let (st, v) = post(addr, &claim, json!({"token": "nope"})).await;
    assert_eq!((st, code(&v)), (403, "bad_token".into()), "{v}");
    let (mut spec, _) = connect(addr, &id, None).await;
    spec.send(&json!({"type": "claim-win", "ref": 1}))
        .await
        .unwrap();
    assert_eq!(error_for(&mut spec, json!(1)).await["code"], "spectator");
    // Bea claims: Ann is put out by the referee and Bea wins.
    let (st, v) = post(addr, &claim, json!({"token": t1})).await;
    assert_eq!((st, &v["seq"]), (200, &json!(1)), "{v}");
    let s = bea.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    assert_eq!(s["by"], "referee", "{s}");
    assert_eq!(s["to_act"], "over", "{s}");
    assert_eq!(s["outcome"]["ranking"][0], json!([1]), "{s}");
    assert_eq!(s["turn_clock"], Value::Null);
    assert!(s["events"].to_string().contains("referee"), "{s}");
    let (st, v) = post(addr, &claim, json!({"token": t1})).await;
    assert_eq!((st, code(&v)), (409, "not_claimable".into()), "{v}");

    // Over the WebSocket.
    let (id, _, t1) = new_game(addr).await;
    let (mut bea, _) = connect(addr, &id, Some(&t1)).await;
    time.advance(Duration::from_millis(300));
    bea.recv_until("state", |v| v["turn_clock"]["reason"] == "claim")
        .await
        .unwrap();
    bea.send(&json!({"type": "claim-win", "ref": "c"}))
        .await
        .unwrap();
    let ack = bea.recv_until("ack", |v| v["ref"] == "c").await.unwrap();
    assert_eq!(ack["seq"], 1);
    let s = bea.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    assert_eq!(s["outcome"]["ranking"][0], json!([1]), "{s}");

    // Nobody claims: once the window closes the bot moves for Ann.
    let (id, _, t1) = new_game(addr).await;
    let (mut bea, _) = connect(addr, &id, Some(&t1)).await;
    time.advance(Duration::from_millis(300));
    let s = bea
        .recv_until("state", |v| v["turn_clock"]["reason"] == "claim")
        .await
        .unwrap();
    let window_end = s["turn_clock"]["ends_ms"].as_i64().unwrap();
    assert_eq!(window_end, time.now_ms() + 1500, "{s}");
    time.advance(Duration::from_millis(1499));
    bea.send(&json!({"type": "sync"})).await.unwrap();
    let s = bea.recv_until("state", |_| true).await.unwrap();
    assert_eq!(s["seq"], 0, "not before the window closed: {s}");
    time.advance(Duration::from_millis(1));
    let s = bea.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    assert_eq!(s["by"], json!({"seat": 0}), "the bot moved for Ann: {s}");
    assert_ne!(s["to_act"], "over", "{s}");
    bea.send(&json!({"type": "claim-win", "ref": 2}))
        .await
        .unwrap();
    assert_eq!(error_for(&mut bea, json!(2)).await["code"], "not_claimable");

    // A game without a forfeit (Nim): no claim window, the bot moves at once.
    let created = create(
        addr,
        json!({"game": "nim", "take_seat": 1, "absent_seconds": 0.3}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (mut bea, _) = connect(addr, &id, Some(&token(&created, 1))).await;
    time.advance(Duration::from_millis(300));
    let s = bea.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    assert_eq!(s["by"], json!({"seat": 0}), "{s}");
    let (st, v) = post(
        addr,
        &format!("/api/games/{id}/claim-win"),
        json!({"token": token(&created, 1)}),
    )
    .await;
    assert_eq!((st, code(&v)), (409, "not_claimable".into()), "{v}");
    server.stop().await;
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// The move list: every move, numbered, with who made it and which ones a
/// clock made; the turn clock's moves are told from the stored times, so
/// a restart tells them the same; the absent countdown's while the game is
/// live; a state message carries its own move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_move_list_says_which_moves_a_clock_made() {
    let (settings, time) = common::virtual_time();
    let db = common::sqlite_url("moves");
    let server = common::start(&db, settings.clone()).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 9, "max_take": 1}, "turn_seconds": 10.0, "absent_seconds": 0.5}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let (mut ann, _) = connect(addr, &id, Some(&t0)).await;
    let (mut bea, _) = connect(addr, &id, Some(&t1)).await;
    // Ann moves herself; the state carries the move.
    act(&mut ann, 1, json!(1)).await;
    let s = bea.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    assert_eq!(s["move"]["n"], 1, "{s}");
    assert_eq!(s["move"]["by"], json!({"seat": 0}));
    assert_eq!(s["move"]["clock"], Value::Null);
    // Bea thinks past her turn clock: the computer moves for her.
    time.advance(Duration::from_millis(10_000));
    let s = bea.recv_until("state", |v| v["seq"] == 2).await.unwrap();
    assert_eq!(
        s["move"]["clock"],
        json!({"reason": "turn", "seat": 1}),
        "{s}"
    );
    // Ann leaves on her turn: her absent countdown runs out.
    ann.close().await;
    let mut moved = Value::Null;
    for _ in 0..200 {
        time.advance(Duration::from_millis(100));
        bea.send(&json!({"type": "sync"})).await.unwrap();
        let s = bea.recv_until("state", |_| true).await.unwrap();
        if s["seq"] == 3 {
            moved = s;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        moved["move"]["clock"],
        json!({"reason": "absent", "seat": 0}),
        "{moved}"
    );
    let path = format!("/api/games/{id}/moves?token={t1}");
    let (status, list) = common::get(addr, &path).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["seq"], 3);
    let moves = list["moves"].as_array().unwrap();
    assert_eq!(
        moves.iter().map(|m| m["n"].clone()).collect::<Vec<_>>(),
        vec![json!(1), json!(2), json!(3)]
    );
    assert_eq!(
        moves
            .iter()
            .map(|m| m["clock"]["reason"].clone())
            .collect::<Vec<_>>(),
        vec![Value::Null, json!("turn"), json!("absent")]
    );
    assert!(moves
        .iter()
        .all(|m| m["events"].is_array() && m["at_ms"].is_i64()));
    // From a move on; a bad token is refused.
    let (_, tail) = common::get(addr, &format!("/api/games/{id}/moves?from=2")).await;
    assert_eq!(tail["moves"].as_array().unwrap().len(), 1);
    assert_eq!(tail["moves"][0]["n"], 3);
    let (status, _) = common::get(addr, &format!("/api/games/{id}/moves?token=nope")).await;
    assert_eq!(status, 403);
    bea.close().await;
    server.stop().await;
    // After a restart the turn clock's move is still told; the absent
    // countdown's (presence is not stored) reads as a plain move.
    let server = common::start(&db, settings).await;
    let (_, list) = common::get(server.addr(), &format!("/api/games/{id}/moves")).await;
    let reasons: Vec<Value> = list["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["clock"]["reason"].clone())
        .collect();
    assert_eq!(reasons, vec![Value::Null, json!("turn"), Value::Null]);
    server.stop().await;
}

/// A game nobody plays expires: aborted by the server once nothing has
/// happened in it for `abandon_after`, moves or not; a game with a player
/// at the table does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_games_expire() {
    let (mut settings, time) = common::virtual_time();
    settings.games.abandon_after = Some(Duration::from_secs(10));
    let server = common::start(&common::sqlite_url("abandon"), settings).await;
    let addr = server.addr();
    // Against the computer, which moves first; Ann never comes.
    let left = create(
        addr,
        json!({"game": "nim", "config": {"pile": 9}, "bots": [{"seat": 0, "level": "easy"}]}),
    )
    .await;
    let left_id = left["game"]["id"].as_str().unwrap().to_string();
    // Bea sits at this one.
    let kept = create(addr, json!({"game": "nim"})).await;
    let kept_id = kept["game"]["id"].as_str().unwrap().to_string();
    let (mut bea, _) = connect(addr, &kept_id, Some(&token(&kept, 0))).await;
    let summary =
        |id: String| async move { common::get(addr, &format!("/api/games/{id}")).await.1 };
    for _ in 0..100 {
        if summary(left_id.clone()).await["seq"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        summary(left_id.clone()).await["seq"],
        1,
        "the computer moved"
    );
    assert_eq!(summary(left_id.clone()).await["aborted"], false);
    time.advance(Duration::from_secs(11));
    // The sweep runs every second (real time) at this limit: wait for it.
    let mut g = Value::Null;
    for _ in 0..200 {
        g = summary(left_id.clone()).await;
        if g["aborted"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        (g["aborted"].clone(), g["status"].clone()),
        (json!(true), json!("over")),
        "{g}"
    );
    let k = summary(kept_id.clone()).await;
    assert_eq!(k["aborted"], false, "a player is at the table: {k}");
    bea.send(&json!({"type": "sync"})).await.unwrap();
    let s = bea.recv_until("state", |_| true).await.unwrap();
    assert_eq!(s["aborted"], false);
    server.stop().await;
}
