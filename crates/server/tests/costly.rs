//! Costly reads: what one anonymous client can make the server compute
//! and send. A game's helper (Sprouts' solver, Word Sprout's listing)
//! runs only when asked, once per question on a finished game, on its own
//! rate; no answer is larger than a megabyte.

mod common;

use common::{create, get, post, test_settings, token};
use parlor_core::{Registry, Resources};
use parlor_server::client::Ws;
use parlor_server::{Rate, Server, Settings};
use serde_json::{json, Value};
use std::net::SocketAddr;

/// The test games and Sprouts (whose helper is the solver).
async fn start(tag: &str, settings: Settings) -> Server {
    let mut registry: Registry = common::registry();
    registry.register::<parlor_sprouts::Sprouts>();
    Server::start(
        registry,
        Resources::embedded(),
        &common::sqlite_url(tag),
        "127.0.0.1:0".parse().unwrap(),
        settings,
    )
    .await
    .expect("server starts")
}

/// A Sprouts game two bots have played to its end: its id.
async fn finished_sprouts(addr: SocketAddr) -> String {
    let created = create(
        addr,
        json!({"game": "sprouts", "config": {"spots": 5},
               "bots": [{"seat": 0}, {"seat": 1}]}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let mut ws = Ws::connect(addr, &id, None).await.unwrap();
    ws.recv_until("state", |v| v["to_act"] == "over")
        .await
        .unwrap();
    id
}

/// The replay of a finished Sprouts game runs the solver only with
/// `helper=true`, and then once per question however often it is asked:
/// the position's and the whole game's verdicts are kept, and a
/// spectator's `assist` on the finished game reads the same kept answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_replay_runs_its_helper_once() {
    let server = start("costly-replay", test_settings()).await;
    let addr = server.addr();
    let id = finished_sprouts(addr).await;

    for _ in 0..8 {
        let (s, r) = get(addr, &format!("/api/games/{id}/replay?step=0")).await;
        assert_eq!(s, 200, "{r}");
        assert_eq!(r["helper"], Value::Null);
    }
    assert_eq!(server.helper_runs(), 0, "no helper asked, none run");

    let mut first = None;
    for _ in 0..8 {
        let (s, r) = get(addr, &format!("/api/games/{id}/replay?step=0&helper=true")).await;
        assert_eq!(s, 200, "{r}");
        // Sprouts' verdicts come on the whole game; the position is a
        // game not over, refused by the game itself.
        assert!(r["helper"]["game"]["answer"]["moves"].is_array(), "{r}");
        assert!(r["helper"]["position"]["refused"].is_string(), "{r}");
        assert_eq!(
            first.get_or_insert_with(|| r["helper"].clone()),
            &r["helper"]
        );
    }
    assert_eq!(server.helper_runs(), 2, "one run per question");
    assert_eq!(server.helper_hits(), 14);

    // The same question through `assist`, as a spectator: already known.
    let (s, v) = post(addr, &format!("/api/games/{id}/assist"), json!({})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["answer"], first.unwrap()["game"]["answer"]);
    assert_eq!(server.helper_runs(), 2);
    // Made-up requests are not new questions for the solver: refused.
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/assist"),
        json!({"request": {"again": 1}}),
    )
    .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (409, Some("helper_refused")),
        "{v}"
    );
    server.stop().await;
}

/// An aborted game is over, like its record says: its replay is served.
/// A live game's replay is `not_over`, whatever the step asked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_aborted_game_replays_and_a_live_one_is_not_over() {
    let server = start("costly-aborted", test_settings()).await;
    let addr = server.addr();
    let g = create(addr, json!({"game": "nim", "take_seat": 0})).await;
    let id = g["game"]["id"].as_str().unwrap();
    for q in ["", "?step=0", "?step=99"] {
        let (s, r) = get(addr, &format!("/api/games/{id}/replay{q}")).await;
        assert_eq!(
            (s, r["error"]["code"].as_str()),
            (409, Some("not_over")),
            "{q}: {r}"
        );
    }
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/abort"),
        json!({"token": token(&g, 0)}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, r) = get(addr, &format!("/api/games/{id}/replay")).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(
        (r["step"].as_u64(), r["steps"].as_u64()),
        (Some(0), Some(0))
    );
    let (s, r) = get(addr, &format!("/api/games/{id}/replay?step=1")).await;
    assert_eq!(s, 400, "{r}");
    server.stop().await;
}

/// What a spectator's empty request to Word Sprout's helper on the large
/// word list answers: a page, well under a megabyte (it was 23 MB: every
/// word of the list under each of 26 plays), with the count of plays and
/// of each play's goal words, and the request for the next page; the pages
/// together list every play once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_helper_answers_a_page_within_the_bound() {
    let server = start("costly-page", test_settings()).await;
    let addr = server.addr();
    let g = create(
        addr,
        json!({"game": "wordsprout", "config": {"hints": true, "lexicon": "en-large"}, "take_seat": 0}),
    )
    .await;
    let path = format!("/api/games/{}/assist", g["game"]["id"].as_str().unwrap());

    let (s, v) = post(addr, &path, json!({"request": {}})).await;
    assert_eq!(s, 200, "{v}");
    let bytes = v.to_string().len();
    assert!(bytes < 1024 * 1024, "{bytes} bytes");
    let a = &v["answer"];
    let total = a["total"].as_u64().unwrap() as usize;
    assert!(total >= 26, "{a}");
    let e = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["result"] == "e")
        .unwrap();
    let listed = e["goal_words"].as_array().unwrap().len();
    let count = e["goal_count"].as_u64().unwrap() as usize;
    assert!(
        listed > 0 && count > 10_000 && listed < count,
        "{listed} of {count}"
    );

    // Page by page, ten at a time, following `next`.
    let mut request = json!({"limit": 10});
    let mut seen = std::collections::BTreeSet::new();
    let mut pages = 0;
    loop {
        let (s, v) = post(addr, &path, json!({"request": request})).await;
        assert_eq!(s, 200, "{v}");
        let a = &v["answer"];
        assert_eq!(a["total"].as_u64().unwrap() as usize, total);
        let moves = a["moves"].as_array().unwrap();
        assert!(moves.len() <= 10);
        for m in moves {
            assert!(
                seen.insert(m["result"].as_str().unwrap().to_string()),
                "{m}"
            );
        }
        pages += 1;
        match &a["next"] {
            Value::Null => break,
            next => request = next.clone(),
        }
    }
    assert_eq!(seen.len(), total);
    assert_eq!(pages, total.div_ceil(10));

    // A page past the bounds is refused, saying what is accepted.
    let (s, v) = post(addr, &path, json!({"request": {"limit": 100000}})).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (409, Some("helper_refused")),
        "{v}"
    );
    assert!(
        v["error"]["message"].as_str().unwrap().contains("limit"),
        "{v}"
    );
    server.stop().await;
}

/// Helper requests draw on a bucket of their own, over HTTP and the
/// WebSocket alike (a replay with the helper too): past it they are
/// refused with 429, while cheap reads go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn helper_requests_past_their_rate_are_refused() {
    let mut settings = test_settings();
    settings.rates.rate_limits = true;
    settings.rates.rate_helper = Rate::per_minute(3, 1);
    let server = start("costly-rate", settings).await;
    let addr = server.addr();
    let g = create(
        addr,
        json!({"game": "wordsprout", "config": {"hints": true}, "take_seat": 0}),
    )
    .await;
    let id = g["game"]["id"].as_str().unwrap();
    let path = format!("/api/games/{id}/assist");
    for _ in 0..2 {
        let (s, v) = post(addr, &path, json!({"request": {"string": "omat"}})).await;
        assert_eq!(s, 200, "{v}");
    }
    let (s, v) = get(addr, &format!("/api/games/{id}/replay?helper=true")).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (409, Some("not_over")),
        "{v}"
    );
    let (s, v) = post(addr, &path, json!({"request": {"string": "omat"}})).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (429, Some("rate_limited")),
        "{v}"
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("helper requests"),
        "{v}"
    );
    let (s, v) = get(addr, &format!("/api/games/{id}/replay?step=0&helper=true")).await;
    assert_eq!(s, 429, "{v}");
    let mut ws = Ws::connect(addr, id, None).await.unwrap();
    ws.send(&json!({"type": "assist", "ref": 1, "request": {"string": "omat"}}))
        .await
        .unwrap();
    let e = ws.recv_until("error", |v| v["ref"] == 1).await.unwrap();
    assert_eq!(e["code"], "rate_limited", "{e}");
    // Reads are not helper requests.
    let (s, v) = get(addr, &format!("/api/games/{id}/state")).await;
    assert_eq!(s, 200, "{v}");
    server.stop().await;
}

/// A helper that thinks for long never holds up a bot's move: helpers
/// have their own pool, apart from the bots' (here one slot each, as on a
/// two-core host), so bots play on while any client keeps a helper busy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_helper_never_holds_up_the_bots() {
    let settings = Settings {
        bots: parlor_server::Bots {
            bot_threads: 1,
            ..test_settings().bots
        },
        helper: parlor_server::Helper {
            assist_think: std::time::Duration::from_secs(600),
            ..test_settings().helper
        },
        ..test_settings()
    };
    let server = start("helper_pool", settings).await;
    let addr = server.addr();
    let blob = create(addr, json!({"game": "blob"})).await;
    let blob_id = blob["game"]["id"].as_str().unwrap().to_string();
    common::BLOB_HELPER_HOLDS.store(true, std::sync::atomic::Ordering::SeqCst);
    let asking = tokio::spawn(async move {
        post(
            addr,
            &format!("/api/games/{blob_id}/assist"),
            json!({"request": {}}),
        )
        .await
    });
    // The helper is under way (counted as it starts)...
    while server.helper_runs() == 0 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    // ... and two bots play a whole game meanwhile.
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 9}, "bots": [{"seat": 0}, {"seat": 1}]}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let mut ws = Ws::connect(addr, &id, None).await.unwrap();
    let over = ws
        .recv_until("state", |v| v["to_act"] == "over")
        .await
        .expect("the bots finish while the helper thinks");
    assert_eq!(over["to_act"], "over");
    assert!(!asking.is_finished(), "the helper was still thinking");
    common::BLOB_HELPER_HOLDS.store(false, std::sync::atomic::Ordering::SeqCst);
    let (status, answer) = asking.await.unwrap();
    assert_eq!(status, 200, "{answer}");
    server.stop().await;
}

/// A Sprouts line drawn over HTTP and over the WebSocket: a line that
/// crosses another is refused with where it crosses (`at`), and every
/// viewer's state carries the picture, the drawn line as kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sprouts_line_is_judged_by_the_server_and_a_refusal_says_where() {
    let server = start("sprouts-lines", test_settings()).await;
    let addr = server.addr();
    let g = create(
        addr,
        json!({"game": "sprouts", "config": {"spots": 3}, "take_seat": 0}),
    )
    .await;
    let id = g["game"]["id"].as_str().unwrap().to_string();
    let (t0, invite) = (token(&g, 0), token(&g, 1));
    let (s, joined) = post(
        addr,
        &format!("/api/games/{id}/join"),
        json!({"token": invite}),
    )
    .await;
    assert_eq!(s, 200, "{joined}");
    let t1 = joined["token"].as_str().unwrap().to_string();
    let act = |t: &str, action: Value| {
        (
            format!("/api/games/{id}/actions"),
            json!({"token": t, "action": action}),
        )
    };
    // Spots 1, 2, 3 at (240, 320), (480, 320), (720, 320): 1 to 2 straight.
    let (path, body) = act(&t0, json!({"curve": [[240, 320], [480, 320]]}));
    let (s, v) = post(addr, &path, body).await;
    assert_eq!(s, 200, "{v}");
    // 1 to 3 over the top.
    let (path, body) = act(
        &t1,
        json!({"curve": [[240, 320], [300, 200], [660, 200], [720, 320]]}),
    );
    let (s, v) = post(addr, &path, body).await;
    assert_eq!(s, 200, "{v}");
    // 2 to 3 up through the arch: refused where it crosses.
    let crossing = json!({"curve": [[480, 320], [400, 250], [400, 100], [720, 100], [720, 320]]});
    let (path, body) = act(&t0, crossing.clone());
    let (s, v) = post(addr, &path, body).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (409, Some("illegal_action")),
        "{v}"
    );
    assert_eq!(v["error"]["at"], json!([400, 200]), "{v}");
    let mut ws = Ws::connect(addr, &id, Some(&t0)).await.unwrap();
    ws.send(&json!({"type": "act", "ref": 3, "action": crossing}))
        .await
        .unwrap();
    let e = ws.recv_until("error", |v| v["ref"] == 3).await.unwrap();
    assert_eq!(
        (e["code"].as_str(), &e["at"]),
        (Some("illegal_action"), &json!([400, 200])),
        "{e}"
    );
    // Too many points: refused before any work, no place.
    let many: Vec<[f64; 2]> = (0..501)
        .map(|i| [240.0 + f64::from(i) * 0.4, 320.0])
        .collect();
    let (path, body) = act(&t0, json!({"curve": many}));
    let (s, v) = post(addr, &path, body).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (400, Some("malformed_action")),
        "{v}"
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 500"),
        "{v}"
    );
    // A spectator sees the picture: two moves, four lines, the drawn ones.
    let (s, st) = get(addr, &format!("/api/games/{id}/state")).await;
    assert_eq!(s, 200, "{st}");
    let lines = st["view"]["drawing"]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 4, "{st}");
    assert_eq!(
        lines[2]["pts"],
        json!([[240.0, 320.0], [300.0, 200.0], [480.0, 200.0]])
    );
    assert_eq!(st["view"]["drawing"]["spots"]["5"], json!([480.0, 200.0]));
    server.stop().await;
}
