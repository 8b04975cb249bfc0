//! `parlor replay --as`: a record seen through one seat's eyes shows that
//! seat's private events and nobody else's.

use parlor_core::{Actor, Match, Resources, Seat};
use parlor_gobble::game::{Gobble, GobbleAction, GobbleConfig};
use std::process::Command;

fn replay(file: &std::path::Path, extra: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .arg("replay")
        .arg(file)
        .args(extra)
        .output()
        .expect("parlor runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_seat_sees_its_own_words_and_nobody_else_does() {
    let resources = Resources::embedded();
    let config = GobbleConfig {
        keyphrase: Some("abacus abdomen abdominal abide".into()),
        ..GobbleConfig::default()
    };
    let mut m = Match::<Gobble>::new(config, 1, &resources).unwrap();
    let word = m.state().all_words().next().unwrap().word.clone();
    m.apply(
        Actor::Seat(Seat(0)),
        GobbleAction::Enter { word: word.clone() },
    )
    .unwrap();
    let dir = std::env::temp_dir().join(format!("parlor-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("gobble.json");
    std::fs::write(&file, m.record().to_json()).unwrap();

    let events = |viewer: &str| -> serde_json::Value {
        let (code, out, err) = replay(&file, &["--json", "--as", viewer]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["events"][1][0].clone()
    };
    assert_eq!(events("1")["word"][0], word.as_str());
    for other in ["2", "spectator"] {
        let e = events(other);
        assert_eq!(e["type"], "accepted", "{e}");
        assert!(e.get("word").is_none(), "{other} sees {e}");
    }
    let (code, _, err) = replay(&file, &["--as", "3"]);
    assert_ne!(code, 0);
    assert!(err.contains("this game has 2 players"), "{err}");
    let (code, _, err) = replay(&file, &["--as", "judge"]);
    assert_eq!(code, 2);
    assert!(err.contains("spectator or a player number"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `parlor gobble play --record` writes the round's record, which `parlor
/// replay` replays: the player's words and the bots' are in it.
#[test]
fn a_gobble_round_played_in_the_terminal_is_saved_and_replays() {
    let resources = Resources::embedded();
    let keyphrase = "abacus abdomen abdominal abide";
    let config = GobbleConfig {
        keyphrase: Some(keyphrase.into()),
        ..GobbleConfig::default()
    };
    let probe = Match::<Gobble>::new(config, 1, &resources).unwrap();
    let word = probe.state().all_words().next().unwrap().word.clone();
    let dir = std::env::temp_dir().join(format!("parlor-gobble-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("round.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args([
            "gobble",
            "play",
            "--keyphrase",
            keyphrase,
            "--bots",
            "1",
            "--record",
        ])
        .arg(&file)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        // The word, then an empty line: the player stops searching.
        writeln!(stdin, "{word}\n").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("record written to"), "{stdout}");
    let (code, shown, err) = replay(&file, &["--json", "--as", "1"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(v["game"], "gobble");
    assert_eq!(v["to_act"], "over", "{v}");
    assert!(
        shown.contains(&format!("\"{word}\"")),
        "the player's word is in the record: {shown}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
