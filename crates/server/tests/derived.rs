//! What games derive from word lists and settings (Word Sprout's valid
//! strings, Gobble's tries) is shared in a cache bounded by bytes
//! (`WordLists::derived_cache_bytes`): many distinct settings do not grow it
//! past the bound (what live games hold counts: a new language that does
//! not fit beside them waits, `busy`, until games leave memory), and
//! settings whose data alone would not fit are refused.

mod common;

use common::post;
use parlor_server::client::http_raw;
use parlor_server::Settings;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn distinct_settings_stay_within_the_bound() {
    let bound = 1024 * 1024;
    let idle = std::time::Duration::from_secs(5);
    let settings = Settings {
        games: parlor_server::Games {
            idle_unload: idle,
            ..common::test_settings().games
        },
        word_lists: parlor_server::WordLists {
            derived_cache_bytes: bound,
            // One client makes every game here: the whole bound is its share
            // (`tests/shares.rs` divides it).
            derived_cache_per_client: Some(bound),
            ..common::test_settings().word_lists
        },
        ..common::test_settings()
    };
    let server = common::start(&common::sqlite_url("derived"), settings).await;
    let addr = server.addr();
    let (s, up) = http_raw(
        addr,
        "POST",
        "/api/word-lists?name=made-up",
        Some(common::made_up_words(1500).as_bytes()),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(s, 201, "{up}");
    let list = up["id"].as_str().unwrap().to_string();
    // 40 vowel sets, each a different language under vowel-cap.
    let letters = b"abcdefghijklmnopqrstuvwxyz";
    let create = |vowels: String| {
        let list = list.clone();
        async move {
            post(
                addr,
                "/api/games",
                json!({"game": "wordsprout",
                       "config": {"lexicon": list, "rules": ["vowel-cap"], "vowels": vowels}}),
            )
            .await
        }
    };
    let (mut first, mut refused) = (0, None);
    for i in 0..40 {
        let vowels: String = [b'a', b'e', letters[i % 26], letters[(i / 26 + 7 * i) % 26]]
            .iter()
            .map(|&c| c as char)
            .collect();
        let vowels = if i == 0 { "aeiou".to_string() } else { vowels };
        let (s, v) = create(vowels.clone()).await;
        // Each game holds its language while it is in memory: once they
        // fill the bound, new languages wait for room.
        if s == 503 {
            assert_eq!(v["error"]["code"], "busy", "{v}");
            assert_eq!(v["error"]["kind"], "busy", "{v}");
            let message = v["error"]["message"].as_str().unwrap();
            assert!(
                message.contains("do not fit now") && message.contains("live games hold"),
                "{message}"
            );
            assert!(v["error"]["retry_after_ms"].as_u64().unwrap() > 0, "{v}");
            refused.get_or_insert(vowels);
        } else {
            assert_eq!(s, 201, "vowels {vowels}: {v}");
        }
        let (bytes, limit) = server.derived_cache();
        assert_eq!(limit, bound);
        assert!(server.derived_held() > 0, "the games hold their languages");
        assert!(
            bytes <= bound,
            "{bytes} bytes held after {} settings",
            i + 1
        );
        if i == 0 {
            first = bytes;
        }
    }
    // The settings were worth many times the bound: it was the bound that
    // held them back.
    assert!(
        first > 0 && first * 40 > 3 * bound,
        "one language is {first} bytes"
    );
    let refused = refused.expect("40 live languages cannot all fit in the bound");
    // Once the games nobody plays leave memory, there is room again.
    // They leave after `idle`, in the server's own time on a busy machine:
    // the bound only keeps the test from hanging.
    let end = std::time::Instant::now() + idle + std::time::Duration::from_secs(60);
    while server.derived_held() > 0 {
        assert!(std::time::Instant::now() < end, "every game left memory");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // Settings whose data alone is over the bound: refused in one line (with
    // the whole bound free, so that it is a refusal for good).
    let (s, v) = post(
        addr,
        "/api/games",
        json!({"game": "wordsprout", "config": {"lexicon": "en"}}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["error"]["code"], "bad_config", "{v}");
    assert_eq!(v["error"]["kind"], "bad_setting", "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("word list en") && message.contains("would take more than 1 MiB"),
        "{message}"
    );
    let (s, v) = create(refused.clone()).await;
    assert_eq!(s, 201, "vowels {refused} once the idle games left: {v}");
    assert!(server.derived_cache().0 <= bound);
    server.stop().await;
}
