//! Arbitrary input over HTTP and WebSocket: every request gets an answer,
//! nothing panics, and no game changes.

mod common;

use common::{post, Lcg};

use parlor_server::client::{http, http_raw, Ws};
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arbitrary_input_changes_nothing() {
    let server = common::start(&common::sqlite_url("garbage"), common::test_settings()).await;
    let addr = server.addr();
    let (_, created) = post(
        addr,
        "/api/games",
        json!({"game": "secret", "config": {"rounds": 2}}),
    )
    .await;
    let id = created["game"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{created}"))
        .to_string();
    let mut rng = Lcg(7);

    // HTTP: random bodies on every POST route, random paths.
    let routes = [
        "/api/games".to_string(),
        format!("/api/games/{id}/join"),
        format!("/api/games/{id}/claim"),
        format!("/api/games/{id}/actions"),
        format!("/api/games/{id}/rematch"),
    ];
    for i in 0..300 {
        let route = &routes[i % routes.len()];
        let body = if rng.below(2) == 0 {
            rng.bytes(300)
        } else {
            rng.json(3).to_string().into_bytes()
        };
        let (status, v) = http_raw(addr, "POST", route, Some(&body), &[])
            .await
            .unwrap();
        assert!(
            status == 201 || (400..500).contains(&status),
            "{route}: {status} {v}"
        );
        if status >= 400 {
            assert!(v["error"]["code"].is_string(), "{route}: {v}");
        }
    }
    for _ in 0..50 {
        let junk: String = (0..rng.below(20))
            .map(|_| (b'a' + rng.below(26) as u8) as char)
            .collect();
        let (status, _) = http(addr, "GET", &format!("/api/games/{junk}"), None, &[])
            .await
            .unwrap();
        assert!((400..500).contains(&status));
    }

    // WebSocket: a player's connection gets random messages.
    let token = created["seats"][0]["token"].as_str().unwrap();
    let mut ws = Ws::connect(addr, &id, Some(token)).await.unwrap();
    for i in 0..300 {
        // Read the replies now and then, as a client does: one that never
        // reads fills its queue and is dropped as too slow (by design).
        if i % 16 == 15 {
            while ws.recv_timeout(Duration::from_millis(20)).await.is_ok() {}
        }
        let msg = match rng.below(3) {
            0 => String::from_utf8_lossy(&rng.bytes(200)).to_string(),
            1 => rng.json(3).to_string(),
            _ => json!({"type": "act", "ref": 1, "action": rng.json(3)}).to_string(),
        };
        // Random actions might be legal picks: only {"pick": 1..=3} is, and
        // the generator never makes that shape (no "pick" key).
        ws.send_text(&msg).await.unwrap();
    }
    ws.send(&json!({"type": "sync"})).await.unwrap();
    let state = ws.recv_until("state", |_| true).await.unwrap();
    // The first state is the welcome's; read until the reply to sync.
    let mut last = state;
    while let Ok(v) = ws.recv_timeout(Duration::from_millis(500)).await {
        if v["type"] == "state" {
            last = v;
        }
    }
    assert_eq!(last["seq"], 0, "nothing changed: {last}");
    let (status, health) = http(addr, "GET", "/api/health", None, &[]).await.unwrap();
    assert_eq!((status, health["ok"].clone()), (200, json!(true)));
    server.stop().await;
}
