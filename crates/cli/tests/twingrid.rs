//! `parlor twingrid score|replay|play` from the outside.

mod common;

use common::{parlor, parlor_with_input};

#[test]
fn score_explains_the_product() {
    // The posting's example: cat with its t under the a of tan forms "at".
    let (code, out, err) = parlor(&[
        "twingrid",
        "score",
        "--grid",
        ".tan...../.........",
        "--opponent-last",
        "tact",
        "--word",
        "cat",
        "--column",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("AT (2)"), "{out}");
    assert_eq!(out.lines().last(), Some("score: 6"));
    let (_, out, _) = parlor(&[
        "twingrid",
        "score",
        "--grid",
        ".tan.....",
        "--opponent-last",
        "tact",
        "--word",
        "cat",
        "--column",
        "1",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["shared"], 3);
    assert_eq!(v["longest_vertical"], 2);
    assert_eq!(v["score"], 6);
    assert_eq!(v["vertical_words"], serde_json::json!(["ta", "at"]));
    assert_eq!(v["vertical_details"][1]["column"], 3);
    for args in [
        &[
            "twingrid",
            "score",
            "--grid",
            "ta1",
            "--opponent-last",
            "a",
            "--word",
            "at",
            "--column",
            "1",
        ][..],
        &[
            "twingrid",
            "score",
            "--grid",
            "tan",
            "--opponent-last",
            "a",
            "--word",
            "at",
            "--column",
            "3",
        ],
        &[
            "twingrid",
            "score",
            "--grid",
            "tan",
            "--opponent-last",
            "a",
            "--word",
            "a t",
            "--column",
            "1",
        ],
    ] {
        let (code, _, err) = parlor(args);
        assert_ne!(code, 0);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

#[test]
fn score_takes_the_vertical_reading() {
    // x over a, then t: every run ending in the new row counts AT; the
    // crossword reading counts only XAT, which is not a word.
    let score = |extra: &[&str]| {
        let mut args = vec![
            "twingrid",
            "score",
            "--grid",
            "x../a..",
            "--opponent-last",
            "tan",
            "--word",
            "tan",
            "--column",
            "1",
            "--json",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = parlor(&args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let every = score(&[]);
    assert_eq!(every["vertical_words"], serde_json::json!(["at"]));
    assert_eq!(every["score"], 6);
    assert_eq!(score(&["--vertical", "every-run"]), every);
    let whole = score(&["--vertical", "whole-column"]);
    assert_eq!(whole["vertical_words"], serde_json::json!([]));
    assert_eq!(whole["score"], 0);
    let (code, _, err) = parlor(&[
        "twingrid",
        "score",
        "--grid",
        "x..",
        "--opponent-last",
        "a",
        "--word",
        "at",
        "--column",
        "1",
        "--vertical",
        "crossword",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("whole-column"), "{err}");
}

#[test]
fn a_game_against_the_computer_replays() {
    let dir = std::env::temp_dir().join(format!("parlor-twingrid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.json");
    let input = "1 0 2\ncat 1\n".to_string() + &"/accept\nzq 1\nqz 2\n".repeat(20);
    let (code, out, err) = parlor_with_input(
        &[
            "twingrid",
            "play",
            "--turns",
            "3",
            "--seed",
            "2",
            "--record",
            record.to_str().unwrap(),
        ],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Game over"), "{out}");
    let (code, out, err) = parlor(&["twingrid", "replay", record.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("opening word"), "{out}");
    assert!(out.lines().last().unwrap().starts_with("scores:"), "{out}");
    let (code, _, err) = parlor(&["replay", record.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
