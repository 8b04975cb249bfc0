//! PostgreSQL ends the server's connections (`pg_terminate_backend`, as a
//! restart or an administrator would): the writer and the reader connect
//! again by themselves, a write in flight fails with `storage` and changes
//! nothing, and play goes on. PostgreSQL only: skipped with a notice
//! without `PARLOR_PG_URL`, failing when `CI` is set (see
//! `common::pg_admin_url`).

mod common;

use common::post;

use parlor_server::client::http;
use parlor_server::storage::DbUrl;
use serde_json::json;
use std::time::Duration;

/// Ends every connection to the test database but the caller's; returns
/// how many.
fn terminate_all(db: &DbUrl) -> usize {
    let DbUrl::Postgres(url) = db else {
        unreachable!()
    };
    let url = url.clone();
    tokio::task::block_in_place(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
            &[],
        )
        .unwrap()
        .len()
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_connections_come_back() {
    let Some(db) = tokio::task::block_in_place(|| common::pg_fresh_db("reconnect")) else {
        return;
    };
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let (s, created) = post(
        addr,
        "/api/games",
        json!({"game": "nim", "config": {"pile": 40}, "take_seat": 0}),
    )
    .await;
    assert_eq!(s, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let mut tokens: Vec<String> = (0..2)
        .map(|i| created["seats"][i]["token"].as_str().unwrap().to_string())
        .collect();
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/join"),
        json!({"token": tokens[1]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    tokens[1] = v["token"].as_str().unwrap().to_string();
    let mut seq = 0usize;
    // One move by whoever is to act; its answer.
    let act = |seq: usize| {
        let path = format!("/api/games/{id}/actions");
        let body = json!({"token": tokens[seq % 2], "action": 1});
        async move { post(addr, &path, body).await }
    };
    for _ in 0..2 {
        let (s, v) = act(seq).await;
        assert_eq!(s, 200, "{v}");
        seq += 1;
    }

    // Every connection ends (writer, reader, change listener).
    assert!(
        terminate_all(&db) >= 3,
        "the server's connections were there"
    );
    // A read tries again on a new connection: no error.
    let (s, v) = http(addr, "GET", "/api/games?status=live", None, &[])
        .await
        .unwrap();
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["games"][0]["id"], id.as_str());
    // The first write may find the writer's connection dead (it was in
    // use a moment ago): `storage`, nothing changed; the next goes in.
    let mut failed = 0;
    loop {
        let (s, v) = act(seq).await;
        if s == 200 {
            assert_eq!(v["seq"], seq + 1, "{v}");
            break;
        }
        assert_eq!(
            (s, v["error"]["code"].as_str()),
            (500, Some("storage")),
            "{v}"
        );
        failed += 1;
        assert!(failed <= 1, "more than the write in flight failed: {v}");
    }
    seq += 1;
    for _ in 0..3 {
        let (s, v) = act(seq).await;
        assert_eq!(s, 200, "{v}");
        seq += 1;
    }

    // Ended a moment before the next write: the writer checks a
    // connection idle for 100 ms (one empty query) before writing, so no
    // write fails at all.
    for pause in [200, 1300] {
        assert!(terminate_all(&db) >= 3);
        tokio::time::sleep(Duration::from_millis(pause)).await;
        for _ in 0..3 {
            let (s, v) = act(seq).await;
            assert_eq!(s, 200, "{v}");
            seq += 1;
        }
        let (s, v) = http(addr, "GET", "/api/games?status=live", None, &[])
            .await
            .unwrap();
        assert_eq!(s, 200, "{v}");
    }
    let (s, v) = post(
        addr,
        "/api/games",
        json!({"game": "nim", "config": {"pile": 5}}),
    )
    .await;
    assert_eq!(s, 201, "{v}");

    // The database holds exactly the accepted moves: a restarted server
    // replays them.
    server.stop().await;
    let server = common::start(&db, common::test_settings()).await;
    let (s, v) = http(server.addr(), "GET", &format!("/api/games/{id}"), None, &[])
        .await
        .unwrap();
    assert_eq!((s, v["seq"].as_u64()), (200, Some(seq as u64)), "{v}");
    let (s, v) = post(
        server.addr(),
        &format!("/api/games/{id}/actions"),
        json!({"token": tokens[seq % 2], "action": 1}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    server.stop().await;
}
