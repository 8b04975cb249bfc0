//! `parlor wordsprout play` driven through stdin: the rules page's worked
//! example, a record saved and replayed.

mod common;

/// Runs `parlor` with `stdin` as its input: (success, stdout, stderr).
fn parlor(args: &[&str], stdin: &str) -> (bool, String, String) {
    let (code, out, err) = common::parlor_with_input(args, stdin);
    (code == 0, out, err)
}

#[test]
fn the_worked_example_through_stdin_then_replayed() {
    let dir = std::env::temp_dir().join(format!("parlor-ws-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dict = dir.join("example.txt");
    std::fs::write(&dict, "oat\ntomato\nwombat\nbombastic\n").unwrap();
    let record = dir.join("game.json");
    let dict_s = dict.to_str().unwrap();
    let record_s = record.to_str().unwrap();
    // Every input form: a letter, `1 a`, `t2`, whole strings; junk and a
    // refused play in between never cost the game.
    let script =
        "o\n1 a\nt2\nomat\nhello there\nombat\n4 s\n0 b\nbombastz\nbombasti\n8 c\n2: call\npass\n";
    let (ok, stdout, stderr) = parlor(
        &[
            "wordsprout",
            "play",
            "--players",
            "2",
            "--bots",
            "0",
            "--rule",
            "no-challenge",
            "--dict",
            dict_s,
            "--save",
            record_s,
            "--seed",
            "1",
        ],
        script,
    );
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("I did not understand"), "{stdout}");
    assert!(
        stdout.contains(
            "Not accepted: \"bombastz\" is not a valid play: no valid goal word contains"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("player 1 plays BOMBASTIC"), "{stdout}");
    assert!(stdout.contains("player 2 is out (conceded)"), "{stdout}");
    assert!(stdout.contains("Game over: player 1 wins."), "{stdout}");
    let (ok, stdout, stderr) = parlor(
        &["wordsprout", "play", "--replay", record_s, "--dict", dict_s],
        "",
    );
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("Record verified: 10 actions"), "{stdout}");
    assert!(stdout.contains("Result: player 1 won."), "{stdout}");
    // A tampered record is refused.
    let text = std::fs::read_to_string(&record)
        .unwrap()
        .replace("\"bombastic\"", "\"bombastix\"");
    std::fs::write(&record, text).unwrap();
    let (ok, stdout, stderr) = parlor(
        &["wordsprout", "play", "--replay", record_s, "--dict", dict_s],
        "",
    );
    assert!(!ok, "{stdout}");
    assert!(stderr.contains("does not follow the rules"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_human_against_a_bot_until_the_end() {
    let dir = std::env::temp_dir().join(format!("parlor-ws-bot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dict = dir.join("tiny.txt");
    std::fs::write(&dict, "cat\nact\ntact\nattic\n").unwrap();
    // The human concedes at once; the bot wins.
    let (ok, stdout, _) = parlor(
        &[
            "wordsprout",
            "play",
            "--bots",
            "1",
            "--level",
            "best",
            "--dict",
            dict.to_str().unwrap(),
            "--seed",
            "2",
        ],
        "c\npass\n",
    );
    assert!(ok, "{stdout}");
    assert!(stdout.contains("player 2 (computer)"), "{stdout}");
    assert!(stdout.contains("Game over"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_d_through_stdin() {
    let dir = std::env::temp_dir().join(format!("parlor-ws-2d-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dict = dir.join("grid.txt");
    std::fs::write(&dict, "abcde\nafghi\nejklm\ninopm\n").unwrap();
    let script = "a\nab\nabc\nabcd\ncross 1 1 f\nabcde\ncross 1 1 f\nafg\nafgh\nafghi\ncross 1 5 j\nejk\nejkl\nejklm\ncross 2 5 n\nino\ninop\n";
    let (ok, stdout, stderr) = parlor(
        &[
            "wordsprout",
            "play",
            "--bots",
            "0",
            "--rule",
            "two-d",
            "--dict",
            dict.to_str().unwrap(),
            "--seed",
            "1",
        ],
        script,
    );
    assert!(ok, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("complete word of at least five letters"),
        "{stdout}"
    );
    assert!(stdout.contains("I N O . M"), "{stdout}");
    assert!(stdout.contains("closed a shape around a hole"), "{stdout}");
    assert!(stdout.contains("Game over: player 2 wins."), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
