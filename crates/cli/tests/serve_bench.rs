//! `parlor serve-bench` measures real play over the HTTP + WebSocket API:
//! Gobble, whose words are not listed as legal actions, is played by
//! entering words found on the board (it used to report 0 actions and p99 0
//! without a warning); Sprouts is played to the end from the legal moves
//! the server lists, with no refused action.

mod common;

/// A short `serve-bench` run of `game`: its JSON report.
fn bench(game: &str) -> serde_json::Value {
    let (code, stdout, stderr) = common::parlor(&[
        "serve-bench",
        "--game",
        game,
        "--games",
        "3",
        "--seconds",
        "4",
        "--think-ms",
        "100",
        "--json",
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON report");
    assert_eq!(v["game"], game, "{v}");
    assert_eq!(v["errors"], 0, "{v}");
    assert!(v["client_actions"].as_u64().unwrap() >= 3, "{v}");
    v
}

#[test]
fn serve_bench_plays_gobble_for_real() {
    let v = bench("gobble");
    assert!(v["p99_ms"].as_f64().unwrap() > 0.0, "{v}");
}

#[test]
fn the_server_plays_sprouts_games_to_the_end() {
    let v = bench("sprouts");
    assert!(v["games_finished"].as_u64().unwrap() >= 1, "{v}");
}
