//! Each client address has a share of the data games derive from word
//! lists (`WordLists::derived_cache_per_client`): one client creating game
//! after game on languages of its own is refused (`busy`) once its live
//! games hold its share, and another client's game on `en-large` still
//! finds room.

mod common;

use parlor_server::client::http_full;
use parlor_server::Settings;
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};

/// A request from the client at `ip` (the server reads the address from
/// `X-Forwarded-For`, as behind a proxy it trusts: loopback here).
async fn from(ip: &str, addr: SocketAddr, path: &str, body: &[u8]) -> (u16, Value) {
    let (s, _, v) = http_full(addr, "POST", path, Some(body), &[("X-Forwarded-For", ip)])
        .await
        .unwrap();
    (s, v)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_filling_its_share_leaves_room_for_another_clients_en_large_game() {
    // The defaults: 256 MiB for all, a quarter of it for each client.
    let settings = Settings {
        connections: parlor_server::Connections {
            trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
            ..common::test_settings().connections
        },
        ..common::test_settings()
    };
    let bound = settings.word_lists.derived_cache_bytes;
    assert_eq!(bound, 256 * 1024 * 1024);
    assert_eq!(settings.word_lists.derived_cache_per_client, None);
    let share = bound / 4;
    assert_eq!(
        settings.word_lists.derived_cache_per_client, None,
        "a quarter by default"
    );
    let server = common::start(&common::sqlite_url("shares"), settings).await;
    let addr = server.addr();
    let (ann, bea): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
    let (s, up) = from(
        "10.0.0.1",
        addr,
        "/api/word-lists?name=made-up",
        common::made_up_words(6000).as_bytes(),
    )
    .await;
    assert_eq!(s, 201, "{up}");
    let list = up["id"].as_str().unwrap().to_string();
    // Ann makes a game on a language of its own (a vowel set) after
    // another, and her games stay in memory holding them.
    let letters = b"bcdfghklmnprstvz";
    let mut refused = None;
    // Without shares she would go on until the whole bound was held.
    for i in 0..250 {
        let vowels: String = ["ae", "io"][i % 2]
            .bytes()
            .chain([letters[i % 16], letters[(i / 16 + 3 * i + 1) % 16]])
            .map(|c| c as char)
            .collect();
        let body = json!({"game": "wordsprout",
                          "config": {"lexicon": list, "rules": ["vowel-cap"], "vowels": vowels}});
        let (s, v) = from("10.0.0.1", addr, "/api/games", body.to_string().as_bytes()).await;
        let held = server.derived_held_by(ann);
        assert!(
            held <= share,
            "Ann holds {held} bytes, past her share {share}"
        );
        if s == 503 {
            assert_eq!(v["error"]["code"], "busy", "{v}");
            let m = v["error"]["message"].as_str().unwrap();
            assert!(
                m.contains("games of yours hold") && m.contains("each client may use"),
                "{m}"
            );
            refused = Some(i);
            break;
        }
        assert_eq!(s, 201, "{v}");
    }
    let refused = refused.expect("Ann's games fill her share");
    // Each language is about 1.2 MiB: Ann filled most of her 64 MiB.
    assert!(refused > 40, "refused after {refused} games");
    assert!(server.derived_held_by(ann) > share - 2 * 1024 * 1024);
    // Bea's game on en-large: its letter counts are built, in the rest.
    let body = json!({"game": "wordsprout", "config": {"lexicon": "en-large"}});
    let (s, v) = from("10.0.0.2", addr, "/api/games", body.to_string().as_bytes()).await;
    assert_eq!(s, 201, "{v}");
    // Its language (about 38 MiB) is Bea's, beside Ann's, within the bound.
    assert!(server.derived_held_by(bea) > 16 * 1024 * 1024);
    let (bytes, limit) = server.derived_cache();
    assert!(bytes <= limit, "{bytes} of {limit}");
    server.stop().await;
}
