//! What games declare, through the server: the word lists their settings
//! need (found by the declaration, not by a field's name), the settings
//! schemas in the catalog, errors with their kinds and per-viewer events,
//! over real HTTP and WebSocket on 127.0.0.1.

mod common;

use common::{create, get, post, token};

use parlor_server::client::{http_raw, Ws};
use serde_json::{json, Value};
use std::net::SocketAddr;

/// Connects and reads the welcome and the first state.
async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Ws {
    let mut ws = Ws::connect(addr, id, token).await.unwrap();
    let welcome = ws.recv().await.unwrap();
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    ws.recv_until("state", |_| true).await.unwrap();
    ws
}

/// Refusals say what kind of refusal they are, over HTTP and WebSocket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_carry_their_kind() {
    let server = common::start(&common::sqlite_url("kinds"), common::test_settings()).await;
    let addr = server.addr();

    // Rules the game refuses: bad_config with the game's kind.
    let (s, v) = post(
        addr,
        "/api/games",
        json!({"game": "nim", "config": {"pile": 0}}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["error"]["code"], "bad_config", "{v}");
    assert_eq!(v["error"]["kind"], "bad_setting", "{v}");
    // Rules that are not the game's rules at all.
    let (s, v) = post(
        addr,
        "/api/games",
        json!({"game": "nim", "config": {"pile": "many"}}),
    )
    .await;
    assert_eq!((s, &v["error"]["code"]), (400, &json!("bad_config")), "{v}");
    assert_eq!(v["error"]["kind"], "malformed", "{v}");
    // An uploaded list nobody uploaded.
    let (s, v) = post(
        addr,
        "/api/games",
        json!({"game": "wordsprout", "config": {"lexicon": "upload-00000000000000ab"}}),
    )
    .await;
    assert_eq!(s, 404, "{v}");
    assert_eq!(v["error"]["code"], "unknown_word_list", "{v}");
    assert_eq!(v["error"]["kind"], "unknown_resource", "{v}");
    // Errors that are not the game's have no kind.
    let (s, v) = post(addr, "/api/games", json!({"game": "chess"})).await;
    assert_eq!(s, 404, "{v}");
    assert!(v["error"].get("kind").is_none(), "{v}");

    // Actions over HTTP.
    let created = create(addr, json!({"game": "nim"})).await;
    let id = created["game"]["id"].as_str().unwrap();
    let path = format!("/api/games/{id}/actions");
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let (s, v) = post(addr, &path, json!({"token": t1, "action": 1})).await;
    assert_eq!(s, 409, "{v}");
    assert_eq!(v["error"]["code"], "illegal_action", "{v}");
    assert_eq!(v["error"]["kind"], "not_your_turn", "{v}");
    assert!(v["error"]["message"].as_str().unwrap().len() > 3, "{v}");
    let (s, v) = post(addr, &path, json!({"token": t0, "action": [1]})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["error"]["code"], "malformed_action", "{v}");
    assert_eq!(v["error"]["kind"], "malformed", "{v}");
    let (s, v) = post(addr, &path, json!({"token": t0, "action": 9})).await;
    assert_eq!((s, &v["error"]["code"]), (409, &json!("illegal_action")));
    assert_eq!(v["error"]["kind"], "illegal", "{v}");
    // Not the game's refusal: no kind.
    let (s, v) = post(addr, &path, json!({"token": "x", "action": 1})).await;
    assert_eq!((s, &v["error"]["code"]), (403, &json!("bad_token")));
    assert!(v["error"].get("kind").is_none(), "{v}");

    // The same over the WebSocket.
    let mut ws = connect(addr, id, Some(&t1)).await;
    ws.send(&json!({"type": "act", "ref": 7, "action": 1}))
        .await
        .unwrap();
    let e = ws.recv_until("error", |v| v["ref"] == 7).await.unwrap();
    assert_eq!(e["code"], "illegal_action", "{e}");
    assert_eq!(e["kind"], "not_your_turn", "{e}");
    ws.send(&json!({"type": "act", "ref": 8, "action": {"take": 1}}))
        .await
        .unwrap();
    let e = ws.recv_until("error", |v| v["ref"] == 8).await.unwrap();
    assert_eq!(e["code"], "malformed_action", "{e}");
    assert_eq!(e["kind"], "malformed", "{e}");
    server.stop().await;
}

/// The catalog describes every game's settings for the lobby.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catalog_lists_settings() {
    let server = common::start(&common::sqlite_url("schema"), common::test_settings()).await;
    let (s, v) = get(server.addr(), "/api/catalog").await;
    assert_eq!(s, 200, "{v}");
    let game = |name: &str| -> Value {
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} in {v}"))
    };
    let field = |g: &Value, f: &str| -> Value {
        g["settings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["field"] == f)
            .cloned()
            .unwrap_or_else(|| panic!("{f} in {g}"))
    };
    let ws = game("wordsprout");
    assert_eq!(field(&ws, "players")["kind"]["type"], "seats", "{ws}");
    assert_eq!(field(&ws, "lexicon")["kind"]["type"], "word_list");
    assert_eq!(field(&ws, "lexicon")["kind"]["role"], "words");
    let rules = field(&ws, "rules");
    assert_eq!(rules["kind"]["type"], "flags");
    assert!(rules["kind"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o["value"] == "challenge" && o["label"].is_string()));
    assert!(field(&ws, "hints")["help"].as_str().unwrap().len() > 5);
    let gb = game("gobble");
    assert_eq!(field(&gb, "seats")["kind"]["type"], "seats");
    assert_eq!(field(&gb, "seats")["kind"]["max"], 16);
    assert_eq!(field(&gb, "size")["kind"]["options"][0]["value"], 4);
    // A game that declares no settings has an empty list.
    assert!(game("secret")["settings"].is_array());
    server.stop().await;
}

/// An event one seat may see reaches that seat only: the picker's `state`
/// message carries its pick, the other seat's and a spectator's do not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_events_reach_their_seat_only() {
    let server = common::start(&common::sqlite_url("events"), common::test_settings()).await;
    let addr = server.addr();
    let created = create(addr, json!({"game": "secret", "config": {"rounds": 2}})).await;
    let id = created["game"]["id"].as_str().unwrap();
    let mut a = connect(addr, id, Some(&token(&created, 0))).await;
    let mut b = connect(addr, id, Some(&token(&created, 1))).await;
    let mut spec = connect(addr, id, None).await;
    a.send(&json!({"type": "act", "ref": 1, "action": {"pick": 3}}))
        .await
        .unwrap();
    let mine = a.recv_until("state", |v| v["seq"] == 1).await.unwrap();
    assert_eq!(mine["events"], json!([{"picked": 0, "pick": 3}]), "{mine}");
    for ws in [&mut b, &mut spec] {
        let s = ws.recv_until("state", |v| v["seq"] == 1).await.unwrap();
        assert_eq!(s["events"], json!([{"picked": 0}]), "{s}");
    }
    // The second pick: its own seat sees it, the first seat only that it
    // was made (the revealed round is in the view, not in the event).
    b.send(&json!({"type": "act", "ref": 2, "action": {"pick": 1}}))
        .await
        .unwrap();
    let theirs = b.recv_until("state", |v| v["seq"] == 2).await.unwrap();
    assert_eq!(theirs["events"], json!([{"picked": 1, "pick": 1}]));
    for ws in [&mut a, &mut spec] {
        let s = ws.recv_until("state", |v| v["seq"] == 2).await.unwrap();
        assert_eq!(s["events"], json!([{"picked": 1}]), "{s}");
        assert_eq!(s["view"]["revealed"], json!([[3, 1]]));
    }
    // An HTTP action's reply holds the actor's own events.
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/actions"),
        json!({"token": token(&created, 0), "action": {"pick": 2}}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["events"], json!([{"picked": 0, "pick": 2}]));
    let s = spec.recv_until("state", |v| v["seq"] == 3).await.unwrap();
    assert_eq!(s["events"], json!([{"picked": 0}]), "{s}");
    server.stop().await;
}

/// An uploaded list the rules declare is found at creation and again for
/// the rematch (which is created from the stored rules).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declared_upload_found_for_game_and_rematch() {
    let server = common::start(&common::sqlite_url("declared"), common::test_settings()).await;
    let addr = server.addr();
    let (s, up) = http_raw(
        addr,
        "POST",
        "/api/word-lists?name=zed",
        Some(b"zebra\nqjqj\n"),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(s, 201, "{up}");
    let list = up["id"].as_str().unwrap().to_string();
    let created = create(
        addr,
        json!({"game": "wordsprout", "config": {"lexicon": list, "rules": []}}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap();
    let path = format!("/api/games/{id}/actions");
    let t0 = token(&created, 0);
    // "qj" is a string only this list allows: the game has the list.
    let (s, v) = post(
        addr,
        &path,
        json!({"token": t0, "action": {"type": "play", "string": "q"}}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = post(
        addr,
        &path,
        json!({"token": token(&created, 1), "action": {"type": "play", "string": "qj"}}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = post(
        addr,
        &path,
        json!({"token": t0, "action": {"type": "concede"}}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, re) = post(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"token": t0}),
    )
    .await;
    assert_eq!(s, 200, "{re}");
    assert_eq!(re["game"]["config"]["lexicon"], list.as_str());
    let new_id = re["game"]["id"].as_str().unwrap();
    // Old seat 1 is new seat 0, and plays first: "q" and "qj" again.
    let (_, re1) = post(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"token": token(&created, 1)}),
    )
    .await;
    assert_eq!(re1["seat"], 0, "{re1}");
    // Nobody had joined the first game's seats: the rematch's are
    // invites too, each traded for its joiner's secret.
    let (s, j1) = post(
        addr,
        &format!("/api/games/{new_id}/join"),
        json!({"token": re1["token"]}),
    )
    .await;
    assert_eq!(s, 200, "{j1}");
    let (s, j0) = post(
        addr,
        &format!("/api/games/{new_id}/join"),
        json!({"token": re["token"]}),
    )
    .await;
    assert_eq!(s, 200, "{j0}");
    let (s, v) = post(
        addr,
        &format!("/api/games/{new_id}/actions"),
        json!({"token": j1["token"], "action": {"type": "play", "string": "q"}}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = post(
        addr,
        &format!("/api/games/{new_id}/actions"),
        json!({"token": j0["token"], "action": {"type": "play", "string": "qj"}}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    // The same play on the default list is refused.
    let en = create(addr, json!({"game": "wordsprout", "config": {"rules": []}})).await;
    let en_id = en["game"]["id"].as_str().unwrap();
    let path = format!("/api/games/{en_id}/actions");
    let (s, v) = post(
        addr,
        &path,
        json!({"token": token(&en, 0), "action": {"type": "play", "string": "q"}}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = post(
        addr,
        &path,
        json!({"token": token(&en, 1), "action": {"type": "play", "string": "qj"}}),
    )
    .await;
    assert_eq!(s, 409, "{v}");
    server.stop().await;
}
