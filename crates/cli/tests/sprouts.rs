//! `parlor sprouts replay|moves` and `parlor replay FILE` for Sprouts.

use parlor_core::{Actor, Game, Match, Resources, ToAct};
use parlor_sprouts::{Config, Sprouts};
mod common;

use common::parlor;

#[test]
fn replay_shows_every_position_and_the_winner() {
    let (code, out, err) = parlor(&["sprouts", "replay", "2+ 1(3)2 1(4)2 1(5)4 2(6)3"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 7, "{out}");
    assert!(out.contains("II wins"), "{out}");
    let (code, out, err) = parlor(&[
        "sprouts",
        "replay",
        "2- (Ann - Bob*) 1(3)2 1(4)2 1(5)4 2(6)3",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 4);
    assert_eq!(v["moves"][1]["player"], 2);
    assert_eq!(v["moves"][1]["name"], "Bob");
    // Misère: the last mover (Bob, second) loses.
    assert_eq!(v["winner"], 1);
    assert_eq!(v["over"], true);
}

#[test]
fn moves_lists_written_forms() {
    let (code, out, err) = parlor(&["sprouts", "moves", "1;2;3", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves.len(), 3, "{moves:?}");
    assert!(moves.contains(&"1(4)2"), "{moves:?}");
    // A finished position has none.
    let (code, out, _) = parlor(&["sprouts", "moves", "5,1,3,2,4/5,4,1/6,2,3/6,3,1,4,2"]);
    assert_eq!(code, 0);
    assert!(out.contains("No legal move"), "{out}");
}

#[test]
fn bad_input_is_one_line() {
    for args in [
        &["sprouts", "replay", "2+ 1(3)2 1(5)2"][..],
        &["sprouts", "replay", "2* 1(3)2"],
        &["sprouts", "replay", "2+ 1(3)2 1(4)2 1(5)4 2(6)3 I"],
        &["sprouts", "moves", "1,x"],
        &["sprouts", "moves", "1,2,3"],
        &["sprouts", "moves", ""],
    ] {
        let (code, _, err) = parlor(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("parlor: error: "), "{err}");
        assert!(!err.contains("internal error"), "{err}");
    }
    let (_, _, err) = parlor(&["sprouts", "replay", "2+ 1(3)2 1(5)2"]);
    assert!(err.contains("move 2 (1(5)2): illegal"), "{err}");
    // A refused drawing: the move, the notation's rule, the line tried.
    let (code, _, err) = parlor(&["sprouts", "replay", "4+ 1(5)2 1(6)2 5(7)6[3]"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for part in [
        "move 3 (5(7)6[3]): illegal",
        "(rule 6)",
        "tried: the line from 5 (between 1 and 2) to 6 (between 2 and 1), in the region 6,1,5,2",
    ] {
        assert!(err.contains(part), "{part:?} in {err}");
    }
}

#[test]
fn replay_file_takes_json_and_wgosa_records() {
    let res = Resources::embedded();
    let mut m = Match::<Sprouts>::new(
        Config {
            spots: 2,
            misere: false,
            ..Config::default()
        },
        1,
        &res,
    )
    .unwrap();
    while let ToAct::One(seat) = m.state().to_act() {
        let first = m.state().legal_actions(seat).unwrap()[0].clone();
        m.apply(Actor::Seat(seat), first).unwrap();
    }
    let dir = std::env::temp_dir().join(format!("parlor-sprouts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("game.json");
    std::fs::write(&json, m.record().to_json()).unwrap();
    let (code, out, err) = parlor(&["replay", json.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Sprouts: 2 players"), "{out}");
    assert!(out.contains("Finished"), "{out}");
    let text = dir.join("game.txt");
    std::fs::write(&text, "2+ 1(3)2 1(4)2 1(5)4 2(6)3\n").unwrap();
    let (code, out, err) = parlor(&["replay", text.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("II wins"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `parlor sprouts play` with `input` on standard input.
fn play(args: &[&str], input: &str) -> (i32, String) {
    let mut all = vec!["sprouts", "play"];
    all.extend_from_slice(args);
    let (code, out, _) = common::parlor_with_input(&all, input);
    (code, out)
}

/// Two players at one terminal play the document's game, by WGOSA text and
/// by number, through a refused move, an unknown command and a move number
/// out of range; the record printed at the end is the game played, and it
/// replays.
#[test]
fn play_two_players_at_one_terminal() {
    let input = "1(3)2\n1(4)2\n/dance\n99\n1(9)1\n1(5)4\n2(6)3\n";
    let (code, out) = play(&["--spots", "2", "--bot", "none"], input);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Unknown command \"/dance\""), "{out}");
    assert!(out.contains("There is no move 99"), "{out}");
    assert!(out.contains("(no move is left)"), "{out}");
    assert!(out.contains("Player 2 wins."), "{out}");
    let record = out
        .lines()
        .find_map(|l| l.strip_prefix("Record: "))
        .expect("a record line");
    assert_eq!(record, "2+ 1(3)2 1(4)2 1(5)4 2(6)3 II");
    let (code, replayed, _) = parlor(&["sprouts", "replay", record]);
    assert_eq!(code, 0);
    assert!(replayed.contains("II wins"), "{replayed}");
}

/// Against the computer, always taking the first listed move, the game
/// reaches its end within 3n - 1 moves; a resignation ends it early and
/// is said so.
#[test]
fn play_against_the_computer() {
    let (code, out) = play(
        &["--spots", "3", "--bot", "hard", "--seed", "7"],
        &"1\n".repeat(10),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("(no move is left)"), "{out}");
    assert!(
        out.contains("You win.") || out.contains("The computer wins."),
        "{out}"
    );
    let (code, out) = play(
        &["--spots", "4", "--first", "2", "--seed", "1"],
        "/resign\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("The computer played"), "{out}");
    assert!(out.contains("(ended by resignation)"), "{out}");
    assert!(out.contains("The computer wins."), "{out}");
    let (code, _) = play(&["--spots", "33"], "");
    assert_ne!(code, 0);
}

/// The verdicts of the document's 2-spot game: the first player cannot
/// win, so nothing is given away; JSON carries the same.
#[test]
fn analyse_a_record() {
    let (code, out, err) = parlor(&["sprouts", "analyse", "2+ 1(3)2 1(4)2 1(5)4 2(6)3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("the first player loses"), "{out}");
    assert!(!out.contains("gives the win away"), "{out}");
    let (code, out, _) = parlor(&["sprouts", "analyse", "2+ 1(3)2 1(4)2", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["first_player_wins"], false);
    assert_eq!(v["moves"].as_array().unwrap().len(), 2);
    let (code, _, err) = parlor(&["sprouts", "analyse", "2+ 1(3)2 1(9)2"]);
    assert_ne!(code, 0);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
