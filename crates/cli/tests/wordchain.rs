//! `parlor wordchain score|best|play` from the outside.

mod common;

use common::{parlor, parlor_with_input};

#[test]
fn score_prints_each_step_and_the_score_last() {
    let (code, out, err) = parlor(&["wordchain", "score", "Kh", "Nc", "Od", "Ps"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("score: 65"), "{out}");
    assert!(out.contains("sequenced"), "{out}");
    // The link card third, the hand emptied: 24, +50% = 36, -33.3% = 25.
    let (_, out, _) = parlor(&[
        "wordchain",
        "score",
        "Cc",
        "Ah",
        "Td",
        "--link-index",
        "2",
        "--hand-left",
        "0",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["score"], 25);
    let rules: Vec<&str> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["B", "I", "L"]);
    // Simple scoring: a point a card.
    let (_, out, _) = parlor(&["wordchain", "score", "Cc,Ah,Td", "--simple"]);
    assert_eq!(out.lines().last(), Some("score: 3"));
    // A Multicard named, counting for the suit: C 3 + A 0 + T 20 = 23, suited: 26.
    let (_, out, _) = parlor(&["wordchain", "score", "Ch", "*Ah", "Th"]);
    assert_eq!(out.lines().last(), Some("score: 26"), "{out}");
}

#[test]
fn score_takes_the_tables_reading_of_rule_j() {
    let last = |args: &[&str]| {
        let mut all = vec!["wordchain", "score"];
        all.extend_from_slice(args);
        let (code, out, err) = parlor(&all);
        assert_eq!(code, 0, "{args:?}: {err}");
        out.lines().last().unwrap_or_default().to_string()
    };
    // KNOP on K: no bonus as parlor reads rule J by default (a word that
    // ends on the link's letter again), + 2 x P 16 under the other reading.
    assert_eq!(last(&["Kh", "Nc", "Od", "Ps"]), "score: 65");
    assert_eq!(
        last(&["Kh", "Nc", "Od", "Ps", "--link-bonus", "same_letter"]),
        "score: 65"
    );
    assert_eq!(
        last(&["Kh", "Nc", "Od", "Ps", "--link-bonus", "link_first"]),
        "score: 97"
    );
    // TREAT earns it either way, and nothing with the bonus off.
    let treat = ["Th", "Rc", "Ed", "As", "Td"];
    for (reading, score) in [("same_letter", 104), ("link_first", 104), ("off", 64)] {
        let mut args = treat.to_vec();
        args.extend(["--link-bonus", reading]);
        assert_eq!(last(&args), format!("score: {score}"), "{reading}");
    }
    let mut args = treat.to_vec();
    args.push("--no-link-bonus");
    assert_eq!(last(&args), "score: 64");
    // The step says which reading gave it.
    let (_, out, _) = parlor(&[
        "wordchain",
        "score",
        "Kh",
        "Nc",
        "Od",
        "Ps",
        "--link-bonus",
        "link_first",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let j = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["rule"] == "J")
        .expect("a J step");
    assert_eq!(
        j["what"],
        "on the link card (begins on it): twice the last card's value 16"
    );
    // An unknown reading is refused, naming the readings.
    let (code, _, err) = parlor(&["wordchain", "score", "Kh", "Nc", "--link-bonus", "on"]);
    assert_ne!(code, 0);
    assert!(err.contains("same_letter, link_first, off"), "{err}");
}

#[test]
fn bad_cards_are_one_line_errors() {
    for args in [
        &["wordchain", "score", "Kx", "Nc"][..],
        &["wordchain", "score", "Kh"],
        &["wordchain", "score", "Kh", "*"],
        &["wordchain", "score", "Kh", "Nc", "--link-index", "5"],
        &["wordchain", "best", "--hand", "Kh", "--link", "Zz"],
        &["wordchain", "best", "--hand", "*Eh", "--link", "Th"],
    ] {
        let (code, out, err) = parlor(args);
        assert_ne!(code, 0, "{args:?}: {out}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("parlor: error:"), "{err}");
    }
}

#[test]
fn best_lists_plays_by_score_and_by_tactical_value() {
    let (code, out, err) = parlor(&[
        "wordchain",
        "best",
        "--hand",
        "Ah",
        "Cd",
        "Sc",
        "Od",
        "--link",
        "Th",
        "--json",
        "--top",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let by_score = v["by_score"].as_array().unwrap();
    assert_eq!(by_score.len(), 3);
    let scores: Vec<u64> = by_score
        .iter()
        .map(|p| p["score"].as_u64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(v["by_tactical"].as_array().unwrap().len() == 3);
    assert!(v["plays"].as_u64().unwrap() >= 5);
    // Every play uses the link card and cards of the hand only.
    for p in by_score {
        let cards = p["cards"].as_array().unwrap();
        assert_eq!(cards[p["link"].as_u64().unwrap() as usize], "Th");
    }
}

#[test]
fn play_a_game_against_the_computer_and_replay_its_record() {
    let dir = std::env::temp_dir().join(format!("parlor-wordchain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.json");
    // Pass every turn until the deal ends with a round of passes, after a
    // refused word, a hint and the log.
    // "/accept" lets a computer's play stand (refused when there is none).
    let input = "/accept\nzzzz\n/hint\n/log\n".to_string() + &"/accept\n/pass\n".repeat(200);
    let (code, out, err) = parlor_with_input(
        &[
            "wordchain",
            "play",
            "--seed",
            "3",
            "--turn-limit",
            "12",
            "--level",
            "medium",
            "--record",
            record.to_str().unwrap(),
        ],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("cannot be spelt"), "{out}");
    assert!(out.contains("best: "), "{out}");
    assert!(out.contains("Game over"), "{out}");
    assert!(out.contains("Computer 2 plays"), "{out}");
    let (code, out, err) = parlor(&["replay", record.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.to_lowercase().contains("wordchain"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
