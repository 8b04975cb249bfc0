//! Bad input anywhere: one line on stderr, a non-zero exit, no panic.

mod common;

use common::parlor;

#[test]
fn usage_errors_are_one_line() {
    for args in [
        &["gobble", "solve", "--size", "-4"][..],
        &["lexicon", "info", "--dict", "x", "--lexicon", "en"],
        &["no-such-command"],
        &["wordsprout", "hint"],
        &["gobble", "bench", "--dist", "sideways"],
        // More async workers than any machine has threads for: refused
        // before tokio would panic making them.
        &["serve", "--workers", "1000000"],
        // A writer that would wait minutes between commits.
        &["serve", "--commit-pace-us", "100001"],
    ] {
        let (code, _, err) = parlor(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("parlor: error: ") && err.contains("--help"),
            "{err}"
        );
    }
}

#[test]
fn a_missing_argument_is_named() {
    let (code, _, err) = parlor(&["wordchain", "best", "--hand", "Kh"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--link"), "{err}");
}

#[test]
fn errors_name_their_cause_once() {
    let dir = std::env::temp_dir().join(format!("parlor-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("bad.json");
    std::fs::write(
        &record,
        r#"{"format":1,"game":"wordsprout","config":{"players":1},"seed":1,"actions":[]}"#,
    )
    .unwrap();
    let (code, _, err) = parlor(&["replay", record.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(err.matches("needs 2 to 10 players").count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_record_replays_with_its_word_list_from_another_path() {
    let dir = std::env::temp_dir().join(format!("parlor-replay-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let words = "oat\ntomato\nwombat\nbombastic\n";
    std::fs::write(dir.join("words.txt"), words).unwrap();
    std::fs::write(dir.join("sub/copy.txt"), words).unwrap();
    let record = dir.join("game.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_parlor"))
        .current_dir(&dir)
        .args([
            "wordsprout",
            "play",
            "--bots",
            "0",
            "--dict",
            "words.txt",
            "--save",
        ])
        .arg(&record)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"o\noa\noat\nquit\n")?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    let copy = dir.join("sub/copy.txt");
    let (code, stdout, err) = parlor(&[
        "replay",
        record.to_str().unwrap(),
        "--dict",
        copy.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("3 actions"), "{stdout}");
    std::fs::write(&copy, "oat\n").unwrap();
    let (code, _, err) = parlor(&[
        "replay",
        record.to_str().unwrap(),
        "--dict",
        copy.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown word list \"words.txt\""), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
