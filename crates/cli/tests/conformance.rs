//! `parlor conformance`: the suite from the command line, on the embedded
//! list or a list of one's own.

use std::process::Command;

fn parlor(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(args)
        .output()
        .expect("parlor runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn word_games_run_on_a_list_of_ones_own() {
    let dir = std::env::temp_dir().join(format!("parlor-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("words.txt");
    std::fs::write(
        &list,
        "oat\ntomato\nwombat\nbombastic\ncats\nlevel\nrhythm\n",
    )
    .unwrap();
    let list = list.to_str().unwrap();
    for game in ["wordsprout", "gobble"] {
        let (code, out, err) = parlor(&[
            "conformance",
            game,
            "--dict",
            list,
            "--games",
            "12",
            "--json",
        ]);
        assert_eq!(code, 0, "{game}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["games"], 12, "{v}");
        assert_eq!(v["failure"], serde_json::Value::Null, "{v}");
    }
    let (code, _, err) = parlor(&["conformance", "wordsprout", "--lexicon", "nope"]);
    assert_ne!(code, 0);
    assert!(err.contains("unknown embedded word list"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sprouts_runs_under_the_suite() {
    let (code, out, err) = parlor(&[
        "conformance",
        "sprouts",
        "--games",
        "8",
        "--jobs",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 8, "{v}");
    assert_eq!(v["failure"], serde_json::Value::Null, "{v}");
}
