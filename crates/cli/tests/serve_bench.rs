//! `parlor serve-bench` measures real play: Gobble, whose words are not
//! listed as legal actions, is played by entering words found on the board
//! (it used to report 0 actions and p99 0 without a warning).

use std::process::Command;

#[test]
fn serve_bench_plays_gobble_for_real() {
    let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args([
            "serve-bench",
            "--game",
            "gobble",
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
    assert_eq!(v["errors"], 0, "{v}");
    assert!(v["client_actions"].as_u64().unwrap() >= 3, "{v}");
    assert!(v["p99_ms"].as_f64().unwrap() > 0.0, "{v}");
}
