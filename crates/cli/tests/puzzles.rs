//! `parlor puzzles`: generating a set (resumable, each position once),
//! proving it again, and refusing what is not a puzzle.

mod common;

use common::parlor;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("parlor-puzzles-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&dir);
    dir
}

fn lines(file: &PathBuf) -> Vec<serde_json::Value> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_set_is_generated_resumed_and_proved_again() {
    let file = scratch("set.jsonl");
    let f = file.to_str().unwrap();
    let gen = |count: &str| {
        parlor(&[
            "puzzles", "generate", "--game", "sprouts", "--kind", "normal-4", "--count", count,
            "--seed", "100", "--out", f, "--json",
        ])
    };
    let (code, out, err) = gen("4");
    assert_eq!(code, 0, "{err}");
    let summary: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["puzzles"], 4);
    let first = lines(&file);
    assert_eq!(first.len(), 4);
    // Resumed: the four stay as they were, three more follow from later
    // seeds.
    let (code, _, err) = gen("7");
    assert_eq!(code, 0, "{err}");
    let all = lines(&file);
    assert_eq!(all.len(), 7);
    assert_eq!(all[..4], first[..]);
    let seeds: Vec<u64> = all.iter().map(|p| p["seed"].as_u64().unwrap()).collect();
    assert!(seeds.windows(2).all(|w| w[0] < w[1]), "{seeds:?}");
    assert!(seeds[0] >= 100);
    let keys: std::collections::HashSet<&str> =
        all.iter().map(|p| p["key"].as_str().unwrap()).collect();
    assert_eq!(keys.len(), 7, "each position once");
    // The same seeds give the same set.
    let again = scratch("again.jsonl");
    let (code, _, err) = parlor(&[
        "puzzles",
        "generate",
        "--game",
        "sprouts",
        "--kind",
        "normal-4",
        "--count",
        "7",
        "--seed",
        "100",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&again), all);
    let (code, out, err) = parlor(&["puzzles", "check", f]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("7 puzzles checked, 0 failed"), "{out}");
    let (code, out, _) = parlor(&["puzzles", "check", f, "--sample", "2", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["checked"], 2);
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&again);
}

#[test]
fn a_puzzle_whose_proof_does_not_hold_is_named_by_its_line() {
    let file = scratch("tampered.jsonl");
    let f = file.to_str().unwrap();
    let (code, _, err) = parlor(&[
        "puzzles", "generate", "--game", "sprouts", "--kind", "misere-4", "--count", "3", "--out",
        f,
    ]);
    assert_eq!(code, 0, "{err}");
    let mut all = lines(&file);
    // The second puzzle claims every move wins.
    for m in all[1]["proof"]["moves"].as_array_mut().unwrap() {
        m["wins"] = serde_json::json!(true);
    }
    // The third repeats the first.
    all[2] = all[0].clone();
    let text: String = all.iter().map(|p| format!("{p}\n")).collect();
    std::fs::write(&file, text).unwrap();
    let (code, _, err) = parlor(&["puzzles", "check", f]);
    assert_eq!(code, 1);
    assert!(err.contains("line 2: the proof does not hold"), "{err}");
    assert!(err.contains("line 3: the same puzzle as line 1"), "{err}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn what_is_not_a_puzzle_is_refused_in_one_line() {
    let file = scratch("bad.jsonl");
    std::fs::write(&file, "{\"game\": \"sprouts\"}\n").unwrap();
    let f = file.to_str().unwrap();
    for (args, says) in [
        (vec!["puzzles", "check", f], "line 1: not a puzzle"),
        (
            vec![
                "puzzles", "generate", "--game", "sprouts", "--kind", "normal-9", "--count", "1",
                "--out", f,
            ],
            "the kinds are normal-4",
        ),
        (
            vec![
                "puzzles", "generate", "--game", "nope", "--kind", "normal-4", "--count", "1",
                "--out", f,
            ],
            "nope",
        ),
        (
            vec![
                "puzzles", "generate", "--game", "sprouts", "--kind", "normal-4", "--count", "0",
                "--out", f,
            ],
            "count",
        ),
    ] {
        let (code, out, err) = parlor(&args);
        assert_ne!(code, 0, "{args:?}: {out}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    // A file of another kind is not appended to.
    let (code, _, err) = parlor(&[
        "puzzles", "generate", "--game", "sprouts", "--kind", "normal-4", "--count", "1", "--out",
        f,
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("not a puzzle"), "{err}");
    let _ = std::fs::remove_file(&file);
}

/// Every shipped set: a sample of each proved again by its game's solver
/// (all of them: `parlor puzzles check FILE`).
#[test]
fn the_shipped_puzzles_prove_again() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/puzzles");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            let (code, out, err) =
                parlor(&["puzzles", "check", path.to_str().unwrap(), "--sample", "12"]);
            assert_eq!(code, 0, "{}: {out}{err}", path.display());
            assert!(out.contains("12 puzzles checked, 0 failed"), "{out}");
            files += 1;
        }
    }
    assert!(files >= 10, "the shipped sets: {files}");
}

/// The long check: `parlor conformance GAME` proves every shipped puzzle
/// of the game again before its random games.
#[test]
fn the_conformance_run_proves_every_shipped_puzzle_of_its_game() {
    let (code, _, err) = parlor(&["conformance", "gobble", "--games", "1", "--jobs", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("gobble: 200 shipped puzzles proved again"),
        "{err}"
    );
    // A game without puzzles says nothing of them.
    let (code, _, err) = parlor(&["conformance", "nim", "--games", "1", "--jobs", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("shipped puzzles"), "{err}");
}
