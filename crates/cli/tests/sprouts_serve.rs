//! Sprouts hosted by the play server: `parlor serve-bench` plays whole
//! Sprouts games over the real HTTP + WebSocket API (moves taken from the
//! legal actions the server lists), with no refused action.

use std::process::Command;

#[test]
fn the_server_plays_sprouts_games_to_the_end() {
    let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args([
            "serve-bench",
            "--game",
            "sprouts",
            "--games",
            "3",
            "--seconds",
            "4",
            "--think-ms",
            "100",
            "--json",
        ])
        .output()
        .expect("parlor runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON report");
    assert_eq!(v["game"], "sprouts", "{v}");
    assert_eq!(v["errors"], 0, "{v}");
    assert!(v["games_finished"].as_u64().unwrap() >= 1, "{v}");
    assert!(v["client_actions"].as_u64().unwrap() >= 3, "{v}");
}
