//! Accounts, sessions, claiming guest games, rated games and their
//! ratings, profiles, leaderboards and replays, on SQLite and PostgreSQL.

mod common;

use parlor_server::client::http_full;
use parlor_server::storage::DbUrl;
use serde_json::{json, Value};
use std::net::SocketAddr;

struct Answer {
    status: u16,
    cookie: Option<String>,
    set_cookie: Option<String>,
    body: Value,
}

async fn req(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<Value>,
    headers: &[(&str, &str)],
) -> Answer {
    let raw = body.map(|b| b.to_string());
    let (status, h, body) = http_full(
        addr,
        method,
        path,
        raw.as_deref().map(str::as_bytes),
        headers,
    )
    .await
    .unwrap();
    let set_cookie = h
        .iter()
        .find(|(k, _)| k == "set-cookie")
        .map(|(_, v)| v.clone());
    let cookie = set_cookie
        .as_deref()
        .and_then(|c| c.split(';').next())
        .map(str::to_string);
    Answer {
        status,
        cookie,
        set_cookie,
        body,
    }
}

async fn as_user(
    addr: SocketAddr,
    cookie: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let a = req(addr, method, path, body, &[("Cookie", cookie)]).await;
    (a.status, a.body)
}

fn dbs(tag: &str) -> Vec<DbUrl> {
    let mut v = vec![common::sqlite_url(tag)];
    v.extend(tokio::task::block_in_place(|| common::pg_fresh_db(tag)));
    v
}

#[tokio::test(flavor = "multi_thread")]
async fn sign_up_log_in_and_out_with_a_session_cookie() {
    for db in dbs("acct_session") {
        let server = common::start(&db, common::test_settings()).await;
        let addr = server.addr();
        let a = req(
            addr,
            "POST",
            "/api/account/register",
            Some(json!({"username": "Ann", "password": "ann-password"})),
            &[],
        )
        .await;
        assert_eq!(a.status, 201, "{}", a.body);
        let set = a.set_cookie.unwrap();
        assert!(set.starts_with("parlor_session="), "{set}");
        for attr in ["HttpOnly", "SameSite=Lax", "Path=/"] {
            assert!(set.contains(attr), "{set} lacks {attr}");
        }
        assert!(!set.contains("Secure"), "served over http: {set}");
        let ann = a.cookie.unwrap();
        // Names are unique ignoring case.
        let again = req(
            addr,
            "POST",
            "/api/account/register",
            Some(json!({"username": "ann", "password": "other-password"})),
            &[],
        )
        .await;
        assert_eq!(again.status, 409);
        assert_eq!(again.body["error"]["code"], "username_taken");
        // Bad input: one clear line, nothing made.
        for (body, says) in [
            (
                json!({"username": "a b", "password": "long enough"}),
                "username",
            ),
            (json!({"username": "abc", "password": "short"}), "password"),
            (
                json!({"username": "x".repeat(10_000), "password": "long enough"}),
                "username",
            ),
            (json!({"username": "abc"}), "password"),
        ] {
            let r = req(addr, "POST", "/api/account/register", Some(body), &[]).await;
            assert_eq!(r.status, 400, "{}", r.body);
            let m = r.body["error"]["message"].as_str().unwrap();
            assert!(m.contains(says) && !m.contains('\n'), "{m}");
        }
        let (s, me) = as_user(addr, &ann, "GET", "/api/account", None).await;
        assert_eq!(s, 200);
        assert_eq!(me["account"]["username"], "Ann");
        // Logging in by another spelling finds the same account.
        let l = req(
            addr,
            "POST",
            "/api/account/login",
            Some(json!({"username": "ANN", "password": "ann-password"})),
            &[],
        )
        .await;
        assert_eq!(l.status, 200, "{}", l.body);
        assert_eq!(l.body["account"]["username"], "Ann");
        let second = l.cookie.unwrap();
        assert_ne!(second, ann, "each login is a new session");
        // Logging out ends that session only.
        let out = req(
            addr,
            "POST",
            "/api/account/logout",
            None,
            &[("Cookie", &ann)],
        )
        .await;
        assert_eq!(out.status, 200);
        assert!(out.set_cookie.unwrap().contains("Max-Age=0"));
        let (_, me) = as_user(addr, &ann, "GET", "/api/account", None).await;
        assert_eq!(me["account"], Value::Null);
        let (_, me) = as_user(addr, &second, "GET", "/api/account", None).await;
        assert_eq!(me["account"]["username"], "Ann");
        // A made-up session is a guest.
        let fake = format!("parlor_session={}", "ab".repeat(32));
        let (_, me) = as_user(addr, &fake, "GET", "/api/account", None).await;
        assert_eq!(me["account"], Value::Null);
        // Behind an https proxy the cookie is Secure.
        let s = req(
            addr,
            "POST",
            "/api/account/login",
            Some(json!({"username": "Ann", "password": "ann-password"})),
            &[("X-Forwarded-Proto", "https")],
        )
        .await;
        assert!(s.set_cookie.unwrap().contains("; Secure"));
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn wrong_passwords_are_throttled_per_username() {
    let db = common::sqlite_url("acct_throttle");
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    common::sign_up(addr, "cat").await;
    let login = |pw: &'static str| {
        req(
            addr,
            "POST",
            "/api/account/login",
            Some(json!({"username": "cat", "password": pw})),
            &[],
        )
    };
    for _ in 0..5 {
        let a = login("wrong-password").await;
        assert_eq!(a.status, 401, "{}", a.body);
        assert_eq!(a.body["error"]["code"], "wrong_password");
        assert!(a.cookie.is_none());
    }
    // The sixth try is refused before the password is even checked, the
    // right one too.
    let a = login("cat-password").await;
    assert_eq!(a.status, 429, "{}", a.body);
    assert_eq!(a.body["error"]["code"], "rate_limited");
    assert!(a.cookie.is_none());
    // An unknown name answers as a wrong password does.
    let a = req(
        addr,
        "POST",
        "/api/account/login",
        Some(json!({"username": "nobody", "password": "whatever1"})),
        &[],
    )
    .await;
    assert_eq!(a.status, 401);
    assert_eq!(a.body["error"]["code"], "wrong_password");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn cross_site_requests_are_refused() {
    let db = common::sqlite_url("acct_csrf");
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let ann = common::sign_up(addr, "ann").await;
    let evil = [("Origin", "http://evil.test")];
    let a = req(
        addr,
        "POST",
        "/api/account/login",
        Some(json!({"username": "ann", "password": "ann-password"})),
        &evil,
    )
    .await;
    assert_eq!(a.status, 403);
    assert_eq!(a.body["error"]["code"], "cross_site");
    // A form post from another site that the browser sends with the
    // session cookie: a game creation, a logout.
    for (path, body) in [
        (
            "/api/games",
            Some(json!({"game": "nim", "take_seat": 0, "rated": true})),
        ),
        ("/api/account/logout", None),
    ] {
        let a = req(
            addr,
            "POST",
            path,
            body,
            &[("Cookie", &ann), ("Sec-Fetch-Site", "cross-site")],
        )
        .await;
        assert_eq!(a.status, 403, "{path}: {}", a.body);
        assert_eq!(a.body["error"]["code"], "cross_site");
    }
    let (_, me) = as_user(addr, &ann, "GET", "/api/account", None).await;
    assert_eq!(me["account"]["username"], "ann", "still logged in");
    // The same from this site's own page is fine.
    let a = req(
        addr,
        "POST",
        "/api/games",
        Some(json!({"game": "nim", "take_seat": 0})),
        &[
            ("Cookie", &ann),
            ("Sec-Fetch-Site", "same-origin"),
            ("Origin", &format!("http://{addr}")),
        ],
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    assert_eq!(a.body["game"]["seats"][0]["account"], "ann");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_guest_claims_their_games_into_an_account() {
    for db in dbs("acct_claim") {
        let server = common::start(&db, common::test_settings()).await;
        let addr = server.addr();
        // Played as a guest, as today.
        let g = common::create(addr, json!({"game": "nim", "take_seat": 0})).await;
        let id = g["game"]["id"].as_str().unwrap().to_string();
        let token = g["you"]["token"].as_str().unwrap().to_string();
        assert_eq!(g["game"]["seats"][0]["account"], Value::Null);
        let ann = common::sign_up(addr, "ann").await;
        let bob = common::sign_up(addr, "bob").await;
        let (s, r) = as_user(
            addr,
            &ann,
            "POST",
            "/api/account/claim",
            Some(json!({"seats": [
                {"game": id, "token": token},
                {"game": id, "token": "not-a-token"},
                {"game": "nosuchgame", "token": "x"},
            ]})),
        )
        .await;
        assert_eq!(s, 200, "{r}");
        assert_eq!(r["claimed"], json!([{"game": id, "seat": 0}]));
        assert_eq!(r["refused"].as_array().unwrap().len(), 2);
        // The account holds it, with its token, from any browser.
        let (_, mine) = as_user(addr, &ann, "GET", "/api/account/games", None).await;
        assert_eq!(mine["games"][0]["game"]["id"], id.as_str());
        assert_eq!(mine["games"][0]["token"], token.as_str());
        // Another account's session never sees or takes it.
        let (_, theirs) = as_user(addr, &bob, "GET", "/api/account/games", None).await;
        assert_eq!(theirs["games"], json!([]));
        let (_, r) = as_user(
            addr,
            &bob,
            "POST",
            "/api/account/claim",
            Some(json!({"seats": [{"game": id, "token": token}]})),
        )
        .await;
        assert_eq!(r["claimed"], json!([]));
        assert_eq!(r["refused"][0]["error"]["code"], "not_your_seat");
        // Without a session there is no claim.
        let (s, r) = common::post(
            addr,
            "/api/account/claim",
            json!({"seats": [{"game": id, "token": token}]}),
        )
        .await;
        assert_eq!(s, 401, "{r}");
        assert_eq!(r["error"]["code"], "login_required");
        // Bounded: a claim of a thousand seats is refused whole.
        let many: Vec<Value> = (0..1000)
            .map(|i| json!({"game": format!("g{i}"), "token": "t"}))
            .collect();
        let (s, _) = as_user(
            addr,
            &ann,
            "POST",
            "/api/account/claim",
            Some(json!({ "seats": many })),
        )
        .await;
        assert_eq!(s, 400);
        server.stop().await;
        // Kept across a restart.
        let server = common::start(&db, common::test_settings()).await;
        let (_, mine) = as_user(server.addr(), &ann, "GET", "/api/account/games", None).await;
        assert_eq!(mine["games"][0]["game"]["id"], id.as_str());
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rated_game_between_accounts_changes_both_ratings() {
    for db in dbs("acct_rated") {
        let server = common::start(&db, common::test_settings()).await;
        let addr = server.addr();
        let ann = common::sign_up(addr, "ann").await;
        let bob = common::sign_up(addr, "bob").await;
        // Who may make a rated game: an account, taking a seat, no bots.
        let (s, r) = common::post(
            addr,
            "/api/games",
            json!({"game": "nim", "take_seat": 0, "rated": true}),
        )
        .await;
        assert_eq!(
            (s, r["error"]["code"].as_str()),
            (401, Some("login_required"))
        );
        let (s, r) = as_user(
            addr,
            &ann,
            "POST",
            "/api/games",
            Some(json!({"game": "nim", "take_seat": 0, "rated": true, "bots": [{"seat": 1}]})),
        )
        .await;
        assert_eq!(s, 400, "{r}");
        let (s, g) = as_user(
            addr,
            &ann,
            "POST",
            "/api/games",
            Some(json!({"game": "nim", "config": {"pile": 5, "max_take": 3}, "take_seat": 0, "rated": true})),
        )
        .await;
        assert_eq!(s, 201, "{g}");
        assert_eq!(g["game"]["rated"], true);
        assert_eq!(g["game"]["seats"][0]["account"], "ann");
        let id = g["game"]["id"].as_str().unwrap().to_string();
        let t0 = common::token(&g, 0);
        let t1 = common::token(&g, 1);
        let join = format!("/api/games/{id}/join");
        // A guest cannot take a rated seat, nor one account two.
        let (s, r) = common::post(addr, &join, json!({"token": t1})).await;
        assert_eq!(
            (s, r["error"]["code"].as_str()),
            (401, Some("login_required"))
        );
        let (s, r) = as_user(addr, &ann, "POST", &join, Some(json!({"token": t1}))).await;
        assert_eq!((s, r["error"]["code"].as_str()), (409, Some("seat_taken")));
        let (s, r) = as_user(addr, &bob, "POST", &join, Some(json!({"token": t1}))).await;
        assert_eq!(s, 200, "{r}");
        assert_eq!(r["game"]["seats"][1]["account"], "bob");
        // The invite is spent: Bob's seat has his own secret now.
        let t1 = r["token"].as_str().unwrap().to_string();
        // Nothing is rated until the end.
        let (_, p) = common::get(addr, "/api/accounts/ann").await;
        assert_eq!(p["ratings"], json!([]));
        let ratings = format!("/api/games/{id}/ratings");
        let (s, r) = common::get(addr, &ratings).await;
        assert_eq!((s, &r), (200, &json!({"rated": true, "changes": []})));
        let act = format!("/api/games/{id}/actions");
        // A seat of an account acts for its session only.
        let (s, r) = common::post(addr, &act, json!({"token": t0, "action": 2})).await;
        assert_eq!(
            (s, r["error"]["code"].as_str()),
            (403, Some("not_your_seat"))
        );
        let (s, r) = as_user(
            addr,
            &ann,
            "POST",
            &act,
            Some(json!({"token": t0, "action": 2})),
        )
        .await;
        assert_eq!(s, 200, "{r}");
        let (s, r) = as_user(
            addr,
            &bob,
            "POST",
            &act,
            Some(json!({"token": t1, "action": 3})),
        )
        .await;
        assert_eq!(s, 200, "{r}");
        let (_, g) = common::get(addr, &format!("/api/games/{id}")).await;
        assert_eq!(g["status"], "over");
        let winner = g["outcome"]["ranking"][0][0].as_u64().unwrap() as usize;
        let names = ["ann", "bob"];
        for (seat, name) in names.iter().enumerate() {
            let (s, p) = common::get(addr, &format!("/api/accounts/{name}")).await;
            assert_eq!(s, 200, "{p}");
            let r = &p["ratings"][0];
            assert_eq!(r["game"], "nim");
            assert_eq!(r["games"], 1);
            assert_eq!(r["provisional"], true);
            let rating = r["rating"].as_i64().unwrap();
            let change = &p["games"][0]["rating_change"];
            assert_eq!(p["games"][0]["game"]["id"], id.as_str());
            assert_eq!(change["before"], 1500);
            assert_eq!(change["after"], rating);
            if seat == winner {
                assert!(rating > 1500, "{name} won: {rating}");
            } else {
                assert!(rating < 1500, "{name} lost: {rating}");
            }
        }
        // The game's own page shows what it did to both ratings.
        let (s, r) = common::get(addr, &ratings).await;
        assert_eq!(s, 200, "{r}");
        let changes = r["changes"].as_array().unwrap();
        assert_eq!(changes.len(), 2, "{r}");
        for (seat, name) in names.iter().enumerate() {
            let c = &changes[seat];
            assert_eq!(
                (c["seat"].as_u64(), c["username"].as_str()),
                (Some(seat as u64), Some(*name))
            );
            assert_eq!(c["before"], 1500);
            let up = c["after"].as_i64().unwrap() > 1500;
            assert_eq!(up, seat == winner, "{c}");
        }
        let (s, _) = common::get(addr, "/api/games/zzzz/ratings").await;
        assert_eq!(s, 404);
        let (s, board) = common::get(addr, "/api/leaderboard/nim").await;
        assert_eq!(s, 200);
        assert_eq!(board["players"][0]["username"], names[winner]);
        assert_eq!(board["players"][0]["rank"], 1);
        assert_eq!(board["players"].as_array().unwrap().len(), 2);
        let (s, _) = common::get(addr, "/api/leaderboard/chess").await;
        assert_eq!(s, 404);
        // Shown to the logged-in player too (the lobby's header).
        let (_, me) = as_user(addr, &bob, "GET", "/api/account", None).await;
        assert_eq!(me["account"]["ratings"][0]["game"], "nim");
        // A restart does not rate the game twice.
        server.stop().await;
        let server = common::start(&db, common::test_settings()).await;
        let (_, p) = common::get(server.addr(), "/api/accounts/ann").await;
        assert_eq!(p["ratings"][0]["games"], 1);
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unrated_game_and_a_bot_game_change_no_rating() {
    let db = common::sqlite_url("acct_unrated");
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let ann = common::sign_up(addr, "ann").await;
    let bob = common::sign_up(addr, "bob").await;
    let (_, g) = as_user(
        addr,
        &ann,
        "POST",
        "/api/games",
        Some(json!({"game": "nim", "config": {"pile": 1, "max_take": 1}, "take_seat": 0})),
    )
    .await;
    let id = g["game"]["id"].as_str().unwrap().to_string();
    let t1 = common::token(&g, 1);
    as_user(
        addr,
        &bob,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"token": t1})),
    )
    .await;
    // Ann's seat is her account's (she made the game logged in).
    let (s, _) = as_user(
        addr,
        &ann,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(json!({"token": common::token(&g, 0), "action": 1})),
    )
    .await;
    assert_eq!(s, 200);
    let (_, p) = common::get(addr, "/api/accounts/bob").await;
    assert_eq!(p["ratings"], json!([]));
    assert_eq!(
        p["games"][0]["game"]["id"],
        id.as_str(),
        "on the profile, unrated"
    );
    assert_eq!(p["games"][0]["rating_change"], Value::Null);
    let (_, r) = common::get(addr, &format!("/api/games/{id}/ratings")).await;
    assert_eq!(r, json!({"rated": false, "changes": []}));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_finished_game_replays_move_by_move() {
    for db in dbs("acct_replay") {
        let server = common::start(&db, common::test_settings()).await;
        let addr = server.addr();
        let g = common::create(
            addr,
            json!({"game": "nim", "config": {"pile": 5, "max_take": 3}, "take_seat": 0}),
        )
        .await;
        let id = g["game"]["id"].as_str().unwrap().to_string();
        let replay = |q: String| {
            let path = format!("/api/games/{id}/replay{q}");
            async move { common::get(addr, &path).await }
        };
        let (s, r) = replay(String::new()).await;
        assert_eq!(
            (s, r["error"]["code"].as_str()),
            (409, Some("not_over")),
            "{r}"
        );
        let act = format!("/api/games/{id}/actions");
        common::post(
            addr,
            &act,
            json!({"token": common::token(&g, 0), "action": 2}),
        )
        .await;
        common::post(
            addr,
            &act,
            json!({"token": common::token(&g, 1), "action": 3}),
        )
        .await;
        let (s, r) = replay("?step=0".into()).await;
        assert_eq!(s, 200, "{r}");
        assert_eq!(r["steps"], 2);
        assert_eq!(r["by"], Value::Null);
        assert_eq!(r["outcome"], Value::Null);
        let start = r["view"].clone();
        let (_, r1) = replay("?step=1".into()).await;
        assert_eq!(r1["by"], json!({"seat": 0}));
        assert_ne!(r1["view"], start, "a move changes the view");
        let (_, r2) = replay("?step=2".into()).await;
        assert_eq!(r2["by"], json!({"seat": 1}));
        assert!(r2["outcome"]["ranking"].is_array());
        assert_eq!(r2["to_act"], "over");
        let (_, end) = replay(String::new()).await;
        assert_eq!(end["step"], 2);
        let (s, r) = replay("?step=3".into()).await;
        assert_eq!(s, 400);
        assert!(r["error"]["message"].as_str().unwrap().contains("0 to 2"));
        // Nim has no helper: said, not an error.
        let (s, r) = replay("?step=1&helper=true".into()).await;
        assert_eq!(s, 200);
        assert!(r["helper"]["none"].as_str().unwrap().contains("no helper"));
        server.stop().await;
    }
}
