//! Uploaded word lists over real HTTP: upload, play Word Sprout and Gobble
//! with one, restart and go on, a second process on the same PostgreSQL,
//! hostile uploads refused with nothing stored.

mod common;

use common::{get, post, token};

use parlor_server::client::http_raw;
use parlor_server::storage::DbUrl;
use parlor_server::Settings;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

async fn upload(addr: SocketAddr, query: &str, body: &[u8]) -> (u16, Value) {
    http_raw(
        addr,
        "POST",
        &format!("/api/word-lists{query}"),
        Some(body),
        &[],
    )
    .await
    .unwrap()
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

async fn play(addr: SocketAddr, id: &str, token: &str, string: &str) -> (u16, Value) {
    post(
        addr,
        &format!("/api/games/{id}/actions"),
        json!({"token": token, "action": {"type": "play", "string": string}}),
    )
    .await
}

/// The list: two words no English list has, a comment, a blank line, a
/// capitalised line (a proper noun, skipped) and one that is not a word.
const LIST: &[u8] = b"# a made-up list\nzzxq\nzzxqj\n\nnot a word\nOslo\n";

/// A Word Sprout table on `lexicon` without challenges (so an invalid play
/// is refused rather than taken as a bluff), with the helper open.
async fn sprout(addr: SocketAddr, lexicon: &str) -> (String, String, String) {
    let (s, created) = post(
        addr,
        "/api/games",
        json!({"game": "wordsprout", "config": {"lexicon": lexicon, "rules": [], "hints": true},
               "take_seat": 0}),
    )
    .await;
    assert_eq!(s, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    (id, token(&created, 0), token(&created, 1))
}

async fn the_whole_story(db: &DbUrl) {
    let server = common::start(db, common::test_settings()).await;
    let addr = server.addr();

    // Upload: parsed like --dict.
    let (s, up) = upload(addr, "?name=Zed%20words", LIST).await;
    assert_eq!(s, 201, "{up}");
    let id = up["id"].as_str().unwrap().to_string();
    assert!(id.starts_with("upload-") && id.len() == 23, "{up}");
    assert_eq!(up["name"], "Zed words");
    assert_eq!(up["words"], 2);
    assert_eq!(up["skipped"], 1);
    assert_eq!(up["first_skipped"], "not a word");
    assert_eq!(up["capitalised"], 1);
    assert_eq!(up["first_capitalised"], "Oslo");
    assert_eq!(up["new"], true);
    assert_eq!(
        format!("upload-{}", up["fingerprint"].as_str().unwrap()),
        id
    );
    // The same words again (another order, another name): same id, stored once.
    let (s, again) = upload(addr, "?name=other", b"zzxqj\r\nzzxq\nzzxq\nZZXQ\n").await;
    assert_eq!(s, 200, "{again}");
    assert_eq!(again["id"], id.as_str());
    assert_eq!(again["new"], false);
    assert_eq!(again["name"], "Zed words", "the first upload's name stays");
    assert_eq!(again["duplicates"], 1);
    assert_eq!(again["capitalised"], 1);
    // The same words all in capitals: read in lower case, the same list.
    let (s, caps) = upload(addr, "?name=caps", b"ZZXQJ\nZZXQ\n").await;
    assert_eq!(s, 200, "{caps}");
    assert_eq!(caps["id"], id.as_str());
    assert_eq!(caps["capitalised"], 0);
    let (s, meta) = get(addr, &format!("/api/word-lists/{id}")).await;
    assert_eq!(s, 200, "{meta}");
    assert_eq!(
        (
            meta["words"].clone(),
            meta["name"].clone(),
            meta["skipped"].clone()
        ),
        (json!(2), json!("Zed words"), json!(1))
    );
    assert!(meta.get("text").is_none() && meta.get("words_list").is_none());
    // Not in the public catalog: an id is shared like an invite.
    let (_, catalog) = get(addr, "/api/catalog").await;
    assert!(!catalog["lexicons"].to_string().contains("upload-"));

    // A table on the uploaded list: plays only that list allows.
    let (g, t0, t1) = sprout(addr, &id).await;
    let (s, v) = play(addr, &g, &t0, "a").await;
    assert_eq!(
        (s, code(&v)),
        (409, "illegal_action"),
        "no a in the list: {v}"
    );
    for (t, string) in [(&t0, "z"), (&t1, "zz"), (&t0, "zzx")] {
        let (s, v) = play(addr, &g, t, string).await;
        assert_eq!(s, 200, "{string}: {v}");
    }
    // The same plays on `en`: zzx is refused there.
    let (en, e0, e1) = sprout(addr, "en").await;
    for (t, string) in [(&e0, "z"), (&e1, "zz")] {
        let (s, v) = play(addr, &en, t, string).await;
        assert_eq!(s, 200, "{string}: {v}");
    }
    let (s, v) = play(addr, &en, &e0, "zzx").await;
    assert_eq!((s, code(&v)), (409, "illegal_action"), "{v}");
    // The seat's view and the helper use the uploaded list.
    let (s, st) = get(addr, &format!("/api/games/{g}/state?token={t1}")).await;
    assert_eq!(s, 200, "{st}");
    assert_eq!(st["seq"], 3);
    assert!(st.to_string().contains("zzx"), "{st}");
    let (s, help) = post(
        addr,
        &format!("/api/games/{g}/assist"),
        json!({"token": t1, "request": {}}),
    )
    .await;
    assert_eq!(s, 200, "{help}");
    assert!(help.to_string().contains("zzxqj"), "{help}");

    // A bot plays on it.
    let (s, created) = post(
        addr,
        "/api/games",
        json!({"game": "wordsprout", "config": {"lexicon": id, "rules": []}, "take_seat": 0,
               "bots": [{"seat": 1, "level": "medium"}]}),
    )
    .await;
    assert_eq!(s, 201, "{created}");
    let bot_game = created["game"]["id"].as_str().unwrap().to_string();
    let (s, v) = play(addr, &bot_game, &token(&created, 0), "q").await;
    assert_eq!(s, 200, "{v}");
    let mut seq = 0;
    for _ in 0..100 {
        let (_, st) = get(addr, &format!("/api/games/{bot_game}/state")).await;
        seq = st["seq"].as_u64().unwrap();
        if seq >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(seq >= 2, "the bot moved");

    // Gobble takes the list too.
    let (s, created) = post(
        addr,
        "/api/games",
        json!({"game": "gobble", "config": {"lexicon": id, "seats": 1}, "take_seat": 0}),
    )
    .await;
    assert_eq!(s, 201, "{created}");

    // Unknown ids are refused clearly.
    let missing = "upload-0123456789abcdef";
    let (s, v) = post(
        addr,
        "/api/games",
        json!({"game": "wordsprout", "config": {"lexicon": missing}}),
    )
    .await;
    assert_eq!((s, code(&v)), (404, "unknown_word_list"), "{v}");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("POST /api/word-lists"));
    let (s, v) = get(addr, &format!("/api/word-lists/{missing}")).await;
    assert_eq!((s, code(&v)), (404, "unknown_word_list"), "{v}");
    let (s, v) = get(addr, "/api/word-lists/en").await;
    assert_eq!((s, code(&v)), (404, "unknown_word_list"), "{v}");

    // Restart: the games replay with the list from the database.
    server.stop().await;
    let server = common::start(db, common::test_settings()).await;
    let addr = server.addr();
    let (s, v) = play(addr, &g, &t1, "zzxq").await;
    assert_eq!(s, 200, "after the restart: {v}");
    let (s, v) = play(addr, &g, &t0, "zzxa").await;
    assert_eq!((s, code(&v)), (409, "illegal_action"), "{v}");
    let (s, v) = play(addr, &g, &t0, "zzxqj").await;
    assert_eq!(s, 200, "{v}");
    let (s, help) = post(
        addr,
        &format!("/api/games/{g}/assist"),
        json!({"request": {"string": "zz"}}),
    )
    .await;
    assert_eq!(s, 200, "{help}");
    assert!(help.to_string().contains("zzxqj"), "{help}");

    if matches!(db, DbUrl::Postgres(_)) {
        // A second process on the same database finds the list it never
        // saw uploaded: for a game it did not create, and a new one.
        let other = common::start(db, common::test_settings()).await;
        let (s, st) = get(other.addr(), &format!("/api/games/{g}/state?token={t1}")).await;
        assert_eq!(s, 200, "{st}");
        assert_eq!(st["seq"], 5);
        let (g2, u0, _) = sprout(other.addr(), &id).await;
        let (s, v) = play(other.addr(), &g2, &u0, "j").await;
        assert_eq!(s, 200, "{v}");
        let (s, meta) = get(other.addr(), &format!("/api/word-lists/{id}")).await;
        assert_eq!((s, meta["words"].clone()), (200, json!(2)));
        other.stop().await;
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_uploaded_list_plays_and_survives_a_restart() {
    the_whole_story(&common::sqlite_url("wordlists")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_uploaded_list_plays_and_survives_a_restart() {
    if let Some(db) = tokio::task::block_in_place(|| common::pg_fresh_db("wordlists")) {
        the_whole_story(&db).await;
    }
}

/// How many uploaded lists the SQLite file holds.
fn stored_lists(db: &DbUrl) -> i64 {
    let DbUrl::Sqlite(path) = db else {
        unreachable!()
    };
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row("SELECT COUNT(*) FROM word_lists", [], |r| r.get(0))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_uploads_are_refused_and_nothing_is_stored() {
    let db = common::sqlite_url("wordlists_hostile");
    let settings = Settings {
        word_lists: parlor_server::WordLists {
            word_list_max_bytes: 64 * 1024,
            word_list_max_words: 1000,
            ..common::test_settings().word_lists
        },
        ..common::test_settings()
    };
    let server = common::start(&db, settings).await;
    let addr = server.addr();
    let check = |s: u16, v: &Value, want: (u16, &str)| {
        assert_eq!((s, code(v)), want, "{v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(!message.is_empty() && !message.contains('\n'), "{v}");
    };

    let (s, v) = upload(addr, "", b"").await;
    check(s, &v, (400, "bad_word_list"));
    let (s, v) = upload(addr, "", b"# only a comment\n\n   \n").await;
    check(s, &v, (400, "bad_word_list"));
    let (s, v) = upload(addr, "", "123\ncaf\u{e9}\nit's\n".as_bytes()).await;
    check(s, &v, (400, "bad_word_list"));
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("3 lines skipped"));
    // Binary garbage: not UTF-8.
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 | 0x80)
        .collect();
    let (s, v) = upload(addr, "", &garbage).await;
    check(s, &v, (400, "bad_word_list"));
    let mut mixed = b"good\nwords\n".to_vec();
    mixed.extend_from_slice(&[0xff, 0xfe, b'\n']);
    let (s, v) = upload(addr, "", &mixed).await;
    check(s, &v, (400, "bad_word_list"));
    // Over the byte limit, and a huge single line over it.
    let big: Vec<u8> = (0..20_000)
        .flat_map(|i| format!("w{i:x}\n").into_bytes())
        .collect();
    assert!(big.len() > 64 * 1024);
    let (s, v) = upload(addr, "", &big).await;
    check(s, &v, (413, "too_large"));
    let (s, v) = upload(addr, "", &vec![b'a'; 100 * 1024]).await;
    check(s, &v, (413, "too_large"));
    // A huge single line under the byte limit: longer than any word.
    let (s, v) = upload(addr, "", &vec![b'a'; 60 * 1024]).await;
    check(s, &v, (400, "bad_word_list"));
    // Over the word limit.
    let many: Vec<u8> = (0..2000u32)
        .flat_map(|i| {
            let w: String = i
                .to_string()
                .bytes()
                .map(|d| (b'a' + d - b'0') as char)
                .collect();
            format!("x{w}\n").into_bytes()
        })
        .collect();
    let (s, v) = upload(addr, "", &many).await;
    check(s, &v, (413, "too_large"));
    assert!(v["error"]["message"].as_str().unwrap().contains("1000"));
    // A name that is far too long.
    let (s, v) = upload(addr, &format!("?name={}", "n".repeat(100)), b"fine\n").await;
    check(s, &v, (400, "bad_json"));
    assert_eq!(stored_lists(&db), 0, "nothing stored");

    // The server still takes a good list afterwards.
    let (s, v) = upload(addr, "", b"fine\n").await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(stored_lists(&db), 1);
    server.stop().await;
}

/// A list above axum's default body limit (2 MB) goes in whole; the room
/// for uploads is bounded (`word_lists_full`), and an upload of a list
/// already stored still answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_lists_and_the_room_for_them() {
    let db = common::sqlite_url("wordlists_large");
    let settings = Settings {
        word_lists: parlor_server::WordLists {
            word_lists_max_total_bytes: 3_000_000,
            ..common::test_settings().word_lists
        },
        ..common::test_settings()
    };
    let server = common::start(&db, settings).await;
    let addr = server.addr();
    // Every four-letter string: 456,976 words, 2.3 MB.
    let mut big = Vec::with_capacity(5 * 26usize.pow(4));
    for a in b'a'..=b'z' {
        for b in b'a'..=b'z' {
            for c in b'a'..=b'z' {
                for d in b'a'..=b'z' {
                    big.extend_from_slice(&[a, b, c, d, b'\n']);
                }
            }
        }
    }
    let (s, v) = upload(addr, "?name=all%20fours", &big).await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["words"], 456_976);
    let id = v["id"].as_str().unwrap().to_string();
    // Another list past the room left: refused, nothing stored.
    let (s, v) = upload(addr, "", &big[..1_000_000]).await;
    assert_eq!((s, code(&v)), (507, "word_lists_full"), "{v}");
    assert_eq!(stored_lists(&db), 1);
    // The one stored is still there for anyone.
    let (s, v) = upload(addr, "", &big).await;
    assert_eq!((s, v["id"].as_str()), (200, Some(id.as_str())), "{v}");
    // And plays: "qqqq" is a word of it.
    let (g, t0, t1) = sprout(addr, &id).await;
    for (t, string) in [(&t0, "q"), (&t1, "qq"), (&t0, "qqq"), (&t1, "qqqq")] {
        let (s, v) = play(addr, &g, t, string).await;
        assert_eq!(s, 200, "{string}: {v}");
    }
    server.stop().await;
}

/// At most `word_lists_in_memory` uploaded lists are built at once: past
/// it, a game on (or an upload of) another list gets `busy`, until games
/// leave memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploaded_lists_in_memory_are_bounded() {
    let db = common::sqlite_url("wordlists_memory");
    let settings = Settings {
        games: parlor_server::Games {
            idle_unload: Duration::from_millis(300),
            ..common::test_settings().games
        },
        word_lists: parlor_server::WordLists {
            word_lists_in_memory: 2,
            ..common::test_settings().word_lists
        },
        ..common::test_settings()
    };
    let server = common::start(&db, settings).await;
    let addr = server.addr();
    let mut ids = Vec::new();
    for list in [&b"alpha\n"[..], b"bravo\n"] {
        let (s, v) = upload(addr, "", list).await;
        assert_eq!(s, 201, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        sprout(addr, &id).await;
        ids.push(id);
    }
    // Both held by live games: a third list does not fit.
    let (s, v) = upload(addr, "", b"charlie\n").await;
    assert_eq!((s, code(&v)), (503, "busy"), "{v}");
    // A game on a list already in memory is fine.
    sprout(addr, &ids[0]).await;
    // Once the games have left memory (idle), there is room again.
    let mut last = (0, Value::Null);
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        last = upload(addr, "", b"charlie\n").await;
        if last.0 == 201 {
            break;
        }
    }
    assert_eq!(last.0, 201, "{}", last.1);
    server.stop().await;
}

/// A list the server was started with (`--word-list`) is stored like an
/// upload: a game played on it goes on after a restart without that list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_list_outlives_its_option() {
    let db = common::sqlite_url("server-list");
    let (lexicon, _) = parlor_lexicon::Lexicon::from_words("zed", ["zzxq", "zzxqj"]).unwrap();
    let with_list = parlor_core::Resources::embedded().with_lexicon(std::sync::Arc::new(lexicon));
    let server = parlor_server::Server::start(
        common::registry(),
        with_list,
        &db,
        "127.0.0.1:0".parse().unwrap(),
        common::test_settings(),
    )
    .await
    .unwrap();
    let addr = server.addr();
    let (_, catalog) = get(addr, "/api/catalog").await;
    assert!(
        catalog["lexicons"].to_string().contains("\"zed\""),
        "{catalog}"
    );
    assert_eq!(stored_lists(&db), 1, "stored at start");
    let (g, t0, t1) = sprout(addr, "zed").await;
    for (t, string) in [(&t0, "z"), (&t1, "zz")] {
        let (s, v) = play(addr, &g, t, string).await;
        assert_eq!(s, 200, "{string}: {v}");
    }
    server.stop().await;

    // Started again with the embedded lists only: the game finds its list
    // in the database by the fingerprint its record stamps.
    let server = common::start(&db, common::test_settings()).await;
    let addr = server.addr();
    let (s, v) = play(addr, &g, &t0, "zzx").await;
    assert_eq!(s, 200, "zzx on the stored list: {v}");
    let (s, v) = play(addr, &g, &t1, "zzxa").await;
    assert_eq!((s, code(&v)), (409, "illegal_action"), "{v}");
    server.stop().await;
}
