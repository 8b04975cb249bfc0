//! `parlor wordsprout hint|solve|bench` end to end, on small word lists.

use std::process::Command;

fn parlor(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(args)
        .output()
        .expect("parlor runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn dict(name: &str, words: &str) -> String {
    let dir = std::env::temp_dir().join(format!("parlor-ws-analysis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, words).unwrap();
    path.to_str().unwrap().to_string()
}

fn json(args: &[&str]) -> serde_json::Value {
    let (ok, stdout, stderr) = parlor(args);
    assert!(ok, "{args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn hint_lists_each_result_once_with_goal_words() {
    let d = dict("hint.txt", "tomato\naromatic\nabba\n");
    let v = json(&["wordsprout", "hint", "OMAT", "--dict", &d, "--json"]);
    let moves = v["moves"].as_array().unwrap();
    let results: Vec<&str> = moves
        .iter()
        .map(|m| m["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["romat", "tomat", "omati", "omato"]);
    assert_eq!(moves[0]["position"], 0);
    assert_eq!(moves[0]["letter"], "r");
    assert_eq!(moves[0]["goal_words"], serde_json::json!(["aromatic"]));
    // "bb" from either gap of "b" appears once, at the leftmost gap.
    let v = json(&["wordsprout", "hint", "b", "--dict", &d, "--json", "--solve"]);
    let moves = v["moves"].as_array().unwrap();
    let bb: Vec<_> = moves.iter().filter(|m| m["result"] == "bb").collect();
    assert_eq!(bb.len(), 1);
    assert_eq!(bb[0]["position"], 0);
    assert!(moves.iter().all(|m| m["wins"].is_boolean()));
}

#[test]
fn hint_refuses_non_letters_in_one_line() {
    let (ok, stdout, stderr) = parlor(&["wordsprout", "hint", "om4t"]);
    assert!(!ok && stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("a-z"), "{stderr}");
}

#[test]
fn solve_reports_positions_first_player_and_openers() {
    let d = dict("solve.txt", "ab\n");
    let v = json(&["wordsprout", "solve", "--dict", &d, "--json"]);
    assert_eq!(v["positions"], 4);
    assert_eq!(v["first_player_wins"], false);
    assert_eq!(v["winning_openers"], "");
    // One three-letter word: the first player opens at either end... or
    // anywhere: "abc" has positions "", a, b, c, ab, bc, abc.
    let d = dict("solve3.txt", "abc\n");
    let v = json(&["wordsprout", "solve", "--dict", &d, "--json"]);
    assert_eq!(v["positions"], 7);
    assert_eq!(v["first_player_wins"], true);
    assert_eq!(v["winning_openers"], "abc");
    let (ok, stdout, _) = parlor(&["wordsprout", "solve", "--dict", &d, "--rule", "challenge"]);
    assert!(ok);
    assert!(
        stdout.contains("ignored (they do not change which strings are valid): challenge"),
        "{stdout}"
    );
    assert!(stdout.contains("the first player wins"), "{stdout}");
}

#[test]
fn solve_worked_example_list_and_three_players() {
    let d = dict("example.txt", "oat\ntomato\nwombat\nbombastic\n");
    let v = json(&[
        "wordsprout",
        "solve",
        "--dict",
        &d,
        "--json",
        "--players",
        "3",
    ]);
    assert_eq!(v["players"], 3);
    assert!(v["winner"].as_u64().unwrap() >= 1);
}

#[test]
fn bench_checks_its_answer() {
    let d = dict("bench.txt", "abc\n");
    let v = json(&["wordsprout", "bench", "--dict", &d, "--runs", "3", "--json"]);
    assert_eq!(v["positions"], 7);
    assert_eq!(v["runs"], 3);
    assert!(v["solve_ms_median"].as_f64().unwrap() >= 0.0);
}

#[test]
fn rules_named_no_something_are_rules() {
    let d = dict("plurals.txt", "tomato\ntomatoes\n");
    let v = json(&[
        "wordsprout",
        "solve",
        "--dict",
        &d,
        "--rule",
        "no-plurals",
        "--json",
    ]);
    assert_eq!(v["goal_words"], 1);
}
