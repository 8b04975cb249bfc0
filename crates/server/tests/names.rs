//! Names and text that others are shown (docs/api.md "Names"): display
//! names and chat refuse the characters that draw unseen or turn the text
//! around them (bidirectional overrides and isolates, zero width
//! characters, byte order marks, line separators); a username too like
//! an existing one (the same confusable skeleton, Unicode TR39) is
//! refused.

mod common;

use common::{create, post, test_settings, token};
use parlor_server::client::{http_full, Ws};
use serde_json::{json, Value};

/// Each character the issue named, in a name that would otherwise pass.
const HIDDEN: [(char, &str); 6] = [
    ('\u{202E}', "Ann\u{202E}gnp.exe"),
    ('\u{2067}', "\u{2067}Ann"),
    ('\u{2069}', "Ann\u{2069}"),
    ('\u{200B}', "An\u{200B}n"),
    ('\u{FEFF}', "\u{FEFF}Ann"),
    ('\u{2028}', "Ann\u{2028}Bea"),
];

fn refused(status: u16, v: &Value, c: char) {
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["error"]["code"], "bad_json", "{v}");
    let m = v["error"]["message"].as_str().unwrap();
    assert!(
        m.contains(&format!("U+{:04X}", u32::from(c))) && m.starts_with("name:"),
        "{m}"
    );
}

#[tokio::test]
async fn display_names_with_bidi_controls_or_invisible_characters_are_refused() {
    let server = common::start(&common::sqlite_url("names-display"), test_settings()).await;
    let addr = server.addr();
    let created = create(
        addr,
        json!({"game": "nim", "config": {"pile": 9}, "take_seat": 0, "name": "Ann"}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let t1 = token(&created, 1);
    let open = create(
        addr,
        json!({"game": "nim", "take_seat": 0, "name": "Ann", "open_seats": [1]}),
    )
    .await;
    let open_id = open["game"]["id"].as_str().unwrap().to_string();
    for (c, name) in HIDDEN {
        let (s, v) = post(
            addr,
            "/api/games",
            json!({"game": "nim", "take_seat": 0, "name": name}),
        )
        .await;
        refused(s, &v, c);
        let (s, v) = post(
            addr,
            &format!("/api/games/{id}/join"),
            json!({"token": t1, "name": name}),
        )
        .await;
        refused(s, &v, c);
        let (s, v) = post(
            addr,
            &format!("/api/games/{open_id}/claim"),
            json!({"seat": 1, "name": name}),
        )
        .await;
        refused(s, &v, c);
    }
    // Nothing was changed: the seats are still free, and an ordinary name
    // (accents, another script, an emoji sequence) still takes one.
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/join"),
        json!({"token": t1, "name": "Łukasz"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = post(
        addr,
        &format!("/api/games/{open_id}/claim"),
        json!({"seat": 1, "name": "Zoë 👩\u{200D}💻 שלום"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        v["game"]["seats"][1]["name"], "Zoë 👩\u{200D}💻 שלום",
        "{v}"
    );
    server.stop().await;
}

#[tokio::test]
async fn chat_lines_and_names_with_bidi_controls_or_invisible_characters_are_refused() {
    let server = common::start(&common::sqlite_url("names-chat"), test_settings()).await;
    let addr = server.addr();
    let created = create(addr, json!({"game": "nim", "config": {"pile": 9}})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let mut seat = Ws::connect(addr, &id, Some(&token(&created, 0)))
        .await
        .unwrap();
    seat.recv_until("state", |_| true).await.unwrap();
    let mut spectator = Ws::connect(addr, &id, None).await.unwrap();
    spectator.recv_until("state", |_| true).await.unwrap();
    for (i, (c, text)) in HIDDEN.into_iter().enumerate() {
        let code = format!("U+{:04X}", u32::from(c));
        seat.send(&json!({"type": "chat", "ref": i, "text": text}))
            .await
            .unwrap();
        let e = seat.recv_until("error", |_| true).await.unwrap();
        assert_eq!(e["code"], "bad_chat", "{e}");
        assert_eq!(e["ref"], i, "{e}");
        let m = e["message"].as_str().unwrap();
        assert!(
            m.contains(&code) || (c == '\u{2028}' && m.contains("one line")),
            "{m}"
        );
        spectator
            .send(&json!({"type": "chat", "ref": i, "text": "hello", "name": text}))
            .await
            .unwrap();
        let e = spectator.recv_until("error", |_| true).await.unwrap();
        assert_eq!(e["code"], "bad_chat", "{e}");
        assert!(e["message"].as_str().unwrap().contains(&code), "{e}");
    }
    // What is allowed still goes through, to everyone.
    seat.send(&json!({"type": "chat", "ref": "ok", "text": "gg 👨\u{200D}👩\u{200D}👧 مرحبا"}))
        .await
        .unwrap();
    let m = spectator.recv_until("chat", |_| true).await.unwrap();
    assert_eq!(m["message"]["text"], "gg 👨\u{200D}👩\u{200D}👧 مرحبا");
    server.stop().await;
}

/// A word list's name is shown too: what would be refused in a display
/// name is left out of it.
#[tokio::test]
async fn a_word_lists_name_loses_its_hidden_characters() {
    let server = common::start(&common::sqlite_url("names-list"), test_settings()).await;
    let addr = server.addr();
    let name = "my\u{202E}txt.exe\u{200B} list";
    let path = format!(
        "/api/word-lists?name={}",
        name.bytes()
            .map(|b| format!("%{b:02X}"))
            .collect::<String>()
    );
    let (s, _, v) = http_full(addr, "POST", &path, Some(b"apple\nbanana\ncherry\n"), &[])
        .await
        .unwrap();
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["name"], "mytxt.exe list", "{v}");
    server.stop().await;
}

/// Usernames that look alike (the same TR39 skeleton, case aside): the
/// first registers, the others are refused with the name they look like;
/// the first still logs in. On SQLite and PostgreSQL (skipped with a
/// notice without `PARLOR_PG_URL`).
#[tokio::test(flavor = "multi_thread")]
async fn usernames_that_look_like_an_existing_one_are_refused() {
    let mut dbs = vec![common::sqlite_url("names-users")];
    dbs.extend(tokio::task::block_in_place(|| {
        common::pg_fresh_db("names_users")
    }));
    for db in dbs {
        let server = common::start(&db, test_settings()).await;
        let addr = server.addr();
        let register = |u: &str| {
            let body = json!({"username": u, "password": "a long password"}).to_string();
            async move {
                http_full(
                    addr,
                    "POST",
                    "/api/account/register",
                    Some(body.as_bytes()),
                    &[],
                )
                .await
                .unwrap()
            }
        };
        let (s, _, v) = register("Lilly0").await;
        assert_eq!(s, 201, "{v}");
        for u in ["LiIly0", "LiIIy0", "LilIyO"] {
            let (s, _, v) = register(u).await;
            assert_eq!(s, 409, "{u}: {v}");
            assert_eq!(v["error"]["code"], "username_taken", "{v}");
            let m = v["error"]["message"].as_str().unwrap();
            assert!(
                m.contains(&format!(
                    "{u} looks too much like the existing account Lilly0"
                )),
                "{m}"
            );
        }
        let (s, _, v) = register("Lily0").await;
        assert_eq!(s, 201, "a different name: {v}");
        let (s, _, v) = http_full(
            addr,
            "POST",
            "/api/account/login",
            Some(
                json!({"username": "Lilly0", "password": "a long password"})
                    .to_string()
                    .as_bytes(),
            ),
            &[],
        )
        .await
        .unwrap();
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["account"]["username"], "Lilly0");
        server.stop().await;
    }
}
