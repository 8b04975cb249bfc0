//! Time controls (`time_control` at creation): banks with increment, a seat
//! that runs out losing on time, clocks across a restart, the old
//! shorthands, refused controls.

mod common;

use common::{create, get, post, token};

use parlor_server::client::Ws;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

/// Joins the seat of `token`; answers the seat's secret from now on (an
/// invite is retired by its use).
async fn join(addr: SocketAddr, id: &str, token: &str) -> String {
    let (status, v) = post(
        addr,
        &format!("/api/games/{id}/join"),
        json!({ "token": token }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    v["token"].as_str().expect("the seat's secret").to_string()
}

async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> (Ws, Value) {
    let mut ws = Ws::connect(addr, id, token).await.unwrap();
    let welcome = ws.recv().await.unwrap();
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let state = ws.recv_until("state", |_| true).await.unwrap();
    (ws, state)
}

async fn act(ws: &mut Ws, reference: u64, action: Value) {
    ws.send(&json!({"type": "act", "ref": reference, "action": action}))
        .await
        .unwrap();
    let ack = ws
        .recv_until("ack", |v| v["ref"] == reference)
        .await
        .unwrap();
    assert_eq!(ack["type"], "ack", "{ack}");
}

async fn state(addr: SocketAddr, id: &str, token: &str) -> Value {
    let (status, v) = get(addr, &format!("/api/games/{id}/state?token={token}")).await;
    assert_eq!(status, 200, "{v}");
    v
}

/// A bank with an increment: the seat that moves gains the increment; the
/// seat whose bank runs out loses on time (the game's forfeit, applied by
/// the referee).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_whose_bank_runs_out_loses_on_time() {
    let (settings, time) = common::virtual_time();
    let server = common::start(&common::sqlite_url("bank"), settings).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "secret", "config": {"rounds": 3, "forfeit": true}, "take_seat": 0,
               "time_control": {"bank_seconds": 1.5, "increment_seconds": 5}}),
    )
    .await;
    assert_eq!(
        created["game"]["time_control"],
        json!({"bank_seconds": 1.5, "increment_seconds": 5.0})
    );
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    // A bank waits for every player, as a round clock does.
    let (mut a, s) = connect(addr, &id, Some(&t0)).await;
    assert_eq!(s["waiting_for"], json!([1]), "{s}");
    assert_eq!(s["clocks"], Value::Null);
    join(addr, &id, &t1).await;
    let s = a
        .recv_until("state", |v| !v["clocks"].is_null())
        .await
        .unwrap();
    let seats = &s["clocks"]["seats"];
    assert_eq!(seats[0]["running"], true, "{s}");
    assert_eq!(seats[1]["bank_ms"], 1500, "{s}");
    // Ann picks after 0.4 s: her bank gains the increment and stops.
    time.advance(Duration::from_millis(400));
    act(&mut a, 1, json!({"pick": 2})).await;
    let s = a.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    let ann = &s["clocks"]["seats"][0];
    assert_eq!(ann["running"], false, "{s}");
    assert_eq!(ann["bank_ms"], 1100 + 5000, "{s}");
    // Both pick at once: Bea's bank has run from the start.
    assert_eq!(s["clocks"]["seats"][1]["running"], true, "{s}");
    assert_eq!(s["clocks"]["seats"][1]["bank_ms"], 1100, "{s}");
    // Bea never picks: her flag falls and she loses on time.
    time.advance(Duration::from_millis(1099));
    a.send(&json!({"type": "sync"})).await.unwrap();
    let s = a.recv_until("state", |_| true).await.unwrap();
    assert_eq!(s["seq"], 1, "Bea has 1 ms left: {s}");
    assert_eq!(s["clocks"]["seats"][1]["bank_ms"], 1, "{s}");
    time.advance(Duration::from_millis(1));
    let s = a
        .recv_until("state", |v| v["to_act"] == "over")
        .await
        .unwrap();
    assert_eq!(s["by"], "referee", "{s}");
    assert_eq!(s["events"], json!([{"forfeit": 1}]), "{s}");
    assert_eq!(s["outcome"]["ranking"], json!([[0], [1]]), "{s}");
    assert_eq!(s["clocks"]["seats"][1]["bank_ms"], 0, "{s}");
    // Nothing left to claim.
    let (status, v) = post(
        addr,
        &format!("/api/games/{id}/claim-win"),
        json!({"token": t0}),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not_claimable")),
        "{v}"
    );
    // The rematch keeps the time control.
    let (status, v) = post(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"token": t0}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["game"]["time_control"],
        json!({"bank_seconds": 1.5, "increment_seconds": 5.0})
    );
    server.stop().await;
}

/// A game without a forfeit (Nim): a seat out of time has its moves made
/// by the game's bot, at once on each of its turns from then on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_time_without_a_forfeit_the_bot_moves() {
    let (settings, time) = common::virtual_time();
    let server = common::start(&common::sqlite_url("bank-nim"), settings).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 5, "max_take": 1}, "take_seat": 0,
               "time_control": {"bank_seconds": 0.3}}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    join(addr, &id, &token(&created, 1)).await;
    let (mut spec, _) = connect(addr, &id, None).await;
    // Ann's bank runs out: her bot moves; then Bea's, and from then on
    // both bots move at once.
    time.advance(Duration::from_millis(300));
    let s = spec.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    assert_eq!(s["by"], json!({"seat": 0}), "{s}");
    time.advance(Duration::from_millis(300));
    let s = spec
        .recv_until("state", |v| v["to_act"] == "over")
        .await
        .unwrap();
    assert_eq!(s["seq"], 5, "{s}");
    let seats = &s["clocks"]["seats"];
    assert_eq!(
        (&seats[0]["bank_ms"], &seats[1]["bank_ms"]),
        (&json!(0), &json!(0)),
        "{s}"
    );
    server.stop().await;
}

/// The clocks continue after a restart from the stored start and the
/// stored times of the actions: a bank that was not running is exactly
/// as it was; the running one has gone on running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_survive_a_restart() {
    clocks_survive_a_restart_on(common::sqlite_url("bank-restart")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_survive_a_restart_on_postgres() {
    if let Some(db) = tokio::task::block_in_place(|| common::pg_fresh_db("bank_restart")) {
        clocks_survive_a_restart_on(db).await;
    }
}

/// Two processes on one PostgreSQL keep the same clocks: the other one
/// rebuilds them from the stored start and the stored times of the moves
/// made through the first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_keep_the_same_clocks() {
    let Some(db) = tokio::task::block_in_place(|| common::pg_fresh_db("bank_two")) else {
        return;
    };
    let a = common::start(&db, common::test_settings()).await;
    let b = common::start(&db, common::test_settings()).await;
    let created = create(
        a.addr(),
        json!({"game": "nim", "config": {"pile": 9}, "take_seat": 0,
               "time_control": {"bank_seconds": 60, "increment_seconds": 1}}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let t1 = join(b.addr(), &id, &t1).await;
    let (mut ann, mut s) = connect(a.addr(), &id, Some(&t0)).await;
    if s["clocks"].is_null() {
        s = ann
            .recv_until("state", |v| !v["clocks"].is_null())
            .await
            .unwrap();
    }
    assert_eq!(s["clocks"]["seats"][0]["running"], true, "{s}");
    act(&mut ann, 1, json!(1)).await;
    let on_a = ann.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    let bank = &on_a["clocks"]["seats"][0]["bank_ms"];
    // Through B (which catches up first): the same bank for Ann.
    let on_b = state(b.addr(), &id, &t1).await;
    assert_eq!(on_b["seq"], 1, "{on_b}");
    assert_eq!(
        &on_b["clocks"]["seats"][0]["bank_ms"], bank,
        "{on_a} / {on_b}"
    );
    assert_eq!(on_b["clocks"]["seats"][1]["running"], true, "{on_b}");
    a.stop().await;
    b.stop().await;
}

async fn clocks_survive_a_restart_on(db: parlor_server::storage::DbUrl) {
    let (settings, time) = common::virtual_time();
    let server = common::start(&db, settings.clone()).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 9}, "take_seat": 0,
               "time_control": {"bank_seconds": 60, "increment_seconds": 1}}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let t1 = join(addr, &id, &t1).await;
    let (mut a, _) = connect(addr, &id, Some(&t0)).await;
    time.advance(Duration::from_millis(200));
    act(&mut a, 1, json!(1)).await;
    let before = a.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    let ann = before["clocks"]["seats"][0]["bank_ms"].as_i64().unwrap();
    assert_eq!(ann, 60_000 - 200 + 1_000, "{before}");
    let bea = before["clocks"]["seats"][1]["bank_ms"].as_i64().unwrap();
    assert_eq!(bea, 60_000, "{before}");
    a.close().await;
    server.stop().await;
    // The server is down for 0.1 s.
    time.advance(Duration::from_millis(100));

    let server = common::start(&db, settings).await;
    let addr = server.addr();
    let after = state(addr, &id, &t1).await;
    let seats = &after["clocks"]["seats"];
    assert_eq!(seats[0]["bank_ms"], ann, "Ann's bank is as it was: {after}");
    assert_eq!(seats[0]["running"], false);
    assert_eq!(seats[1]["running"], true);
    assert_eq!(
        seats[1]["bank_ms"],
        bea - 100,
        "Bea's bank ran on: {before} / {after}"
    );
    // Play goes on with the same clocks.
    let (mut b, _) = connect(addr, &id, Some(&t1)).await;
    time.advance(Duration::from_millis(50));
    act(&mut b, 1, json!(1)).await;
    let s = b.recv_until("state", |v| v["seq"] == 2).await.unwrap();
    // Ann's bank runs again from where it stopped.
    assert_eq!(s["clocks"]["seats"][0]["bank_ms"], ann, "{s}");
    assert_eq!(s["clocks"]["seats"][0]["running"], true, "{s}");
    assert_eq!(s["clocks"]["seats"][1]["bank_ms"], bea - 150 + 1_000, "{s}");
    server.stop().await;
}

/// `turn_seconds` / `absent_seconds` at the top level are shorthands for
/// the time control's fields; both forms together agree or are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_old_shorthands_fill_the_time_control() {
    let server = common::start(&common::sqlite_url("shorthand"), common::test_settings()).await;
    let addr = server.addr();
    let created = create(addr, json!({"game": "nim", "turn_seconds": 30})).await;
    assert_eq!(
        created["game"]["time_control"],
        json!({"turn_seconds": 30.0})
    );
    assert_eq!(created["game"]["turn_seconds"], 30.0);
    let created = create(
        addr,
        json!({"game": "nim", "absent_seconds": 20, "time_control": {"bank_seconds": 300}}),
    )
    .await;
    assert_eq!(
        created["game"]["time_control"],
        json!({"bank_seconds": 300.0, "absent_seconds": 20.0})
    );
    assert_eq!(created["game"]["absent_seconds"], 20.0);
    // The same shorthand twice, agreeing: fine.
    create(
        addr,
        json!({"game": "nim", "turn_seconds": 5, "time_control": {"turn_seconds": 5}}),
    )
    .await;
    server.stop().await;
}

/// A time control the model refuses is refused at creation with
/// `bad_config` and a one-line message; nothing is created.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_time_control_is_refused() {
    let server = common::start(&common::sqlite_url("bad-tc"), common::test_settings()).await;
    let addr = server.addr();
    for body in [
        json!({"game": "nim", "time_control": {"bank_seconds": 0}}),
        json!({"game": "nim", "time_control": {"bank_seconds": -5}}),
        json!({"game": "nim", "time_control": {"increment_seconds": 2}}),
        json!({"game": "nim", "time_control": {"bank_seconds": 1e9}}),
        json!({"game": "nim", "time_control": {"bank": 300}}),
        json!({"game": "nim", "time_control": {"bank_seconds": "300"}}),
        json!({"game": "nim", "time_control": 300}),
        json!({"game": "nim", "turn_seconds": 0.0}),
        json!({"game": "nim", "absent_seconds": 1e12}),
        json!({"game": "nim", "turn_seconds": 5, "time_control": {"turn_seconds": 6}}),
    ] {
        let (status, v) = post(addr, "/api/games", body.clone()).await;
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (400, Some("bad_config")),
            "{body} -> {v}"
        );
        let message = v["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("time_control: ") && !message.contains('\n'),
            "{message}"
        );
    }
    let (_, listed) = get(addr, "/api/games").await;
    assert_eq!(listed["games"], json!([]));
    server.stop().await;
}
