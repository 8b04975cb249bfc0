//! `parlor gobble prove`: a run resumed from any cut of its checkpoint finds
//! what an uninterrupted run finds, and Ctrl-C stops a proof with a
//! checkpoint that holds exactly the classes it finished.

mod common;

use common::parlor;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const WORDS: &str = "ate\neat\ntea\neta\ntee\nset\nsea\nsee\nsat\ntat\nteas\neats\nseat\neast\n\
sate\nteat\ntest\ntees\nseas\nsets\ntests\nstate\ntaste\ntease\nsetae\nestate\ntestes\nsees\n\
ease\neases\nrest\nrate\ntear\near\nare\nera\nrats\nstar\ntars\narts\nrates\nstare\ntears\n";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("parlor-prove-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A scratch folder holding [`WORDS`] as `words.txt`: the folder and the list.
fn scratch_with_words(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let dict = dir.join("words.txt");
    std::fs::write(&dict, WORDS).unwrap();
    (dir, dict)
}

/// The small proof every test here runs: 2x3 above 4 on three buckets.
fn small_proof(dict: &Path) -> Vec<&str> {
    vec![
        "gobble",
        "prove",
        "--size",
        "2x3",
        "--scoring",
        "boggle",
        "--above",
        "4",
        "--buckets",
        "aeiou,rst,bcdfghjklmnpqvwxyz",
        "--dict",
        dict.to_str().unwrap(),
    ]
}

/// The proof's boards and its JSON, from a run with `extra` arguments.
fn prove(dict: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = small_proof(dict);
    args.extend_from_slice(&["--threads", "2", "--json"]);
    args.extend_from_slice(extra);
    let (code, out, err) = parlor(&args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn a_resumed_proof_finds_what_a_whole_one_finds() {
    let (dir, dict) = scratch_with_words("resume");
    let whole = prove(&dict, &[]);
    let boards = &whole["boards"];
    assert!(boards.as_array().unwrap().len() > 3, "{whole}");
    assert_eq!(whole["complete"], true);

    let ckpt = dir.join("proof.ckpt");
    let first = prove(&dict, &["--checkpoint", ckpt.to_str().unwrap()]);
    assert_eq!(&first["boards"], boards);
    let full = std::fs::read(&ckpt).unwrap();
    let classes = whole["classes"].as_u64().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&full).matches("\nclass ").count() as u64,
        classes
    );

    // Cut anywhere (mid-line too, as a crash would), resume: the same boards,
    // and the classes before the cut are not redone.
    for cut in [
        full.len() / 7,
        full.len() / 3 + 5,
        full.len() / 2,
        full.len() - 3,
    ] {
        std::fs::write(&ckpt, &full[..cut]).unwrap();
        // Only whole lines count: a `class` line cut short is redone.
        let whole = &full[..cut][..full[..cut].iter().rposition(|&b| b == b'\n').unwrap() + 1];
        let kept = String::from_utf8_lossy(whole).matches("\nclass ").count() as u64;
        let resumed = prove(&dict, &["--checkpoint", ckpt.to_str().unwrap()]);
        assert_eq!(&resumed["boards"], boards, "cut at {cut}");
        assert_eq!(
            resumed["classes_resumed"].as_u64().unwrap(),
            kept,
            "cut at {cut}"
        );
        // The checkpoint is whole again: a second resume redoes nothing.
        let again = prove(&dict, &["--checkpoint", ckpt.to_str().unwrap()]);
        assert_eq!(&again["boards"], boards);
        assert_eq!(again["classes_resumed"].as_u64().unwrap(), classes);
        assert_eq!(again["bounds"], 0);
    }

    // A checkpoint of another proof is refused, in one line, untouched.
    let before = std::fs::read(&ckpt).unwrap();
    let (code, _, err) = parlor(&[
        "gobble",
        "prove",
        "--size",
        "2x3",
        "--scoring",
        "boggle",
        "--above",
        "5",
        "--buckets",
        "aeiou,rst,bcdfghjklmnpqvwxyz",
        "--dict",
        dict.to_str().unwrap(),
        "--checkpoint",
        ckpt.to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("another proof"), "{err}");
    assert_eq!(std::fs::read(&ckpt).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn class_ranges_split_the_proof() {
    let (dir, dict) = scratch_with_words("ranges");
    let whole = prove(&dict, &[]);
    let n = whole["all_classes"].as_u64().unwrap();
    assert_eq!(whole["class_range"][1].as_u64().unwrap(), n);
    assert_eq!(n, 3u64.pow(6));
    // Three uneven work units cover the proof: their boards are its boards.
    let mut boards = Vec::new();
    let mut classes = 0;
    for (a, b) in [(0, 100), (100, 101), (101, n)] {
        let unit = prove(&dict, &["--classes", &format!("{a}..{b}")]);
        classes += unit["classes"].as_u64().unwrap();
        boards.extend(unit["boards"].as_array().unwrap().iter().cloned());
    }
    let key = |v: &serde_json::Value| v["board"].as_str().unwrap().to_string();
    boards.sort_by_key(key);
    let mut want = whole["boards"].as_array().unwrap().clone();
    want.sort_by_key(key);
    assert_eq!(boards, want);
    assert_eq!(classes, whole["classes"].as_u64().unwrap());
    for bad in ["5", "7..3", "0..99999", "a..b"] {
        let (code, _, err) = parlor(&[
            "gobble",
            "prove",
            "--size",
            "2x3",
            "--above",
            "4",
            "--dict",
            dict.to_str().unwrap(),
            "--buckets",
            "aeiou,rst,bcdfghjklmnpqvwxyz",
            "--classes",
            bad,
        ]);
        assert_ne!(code, 0, "{bad}");
        assert!(
            err.contains("--classes") || err.contains("class range"),
            "{bad}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A limit on a tree's word paths splits the large groups, and changes
/// neither the boards nor the classes proved; a limit that is not a
/// positive number is refused in one line.
#[test]
fn a_limit_on_tree_paths_proves_the_same() {
    let (dir, dict) = scratch_with_words("tree-paths");
    let whole = prove(&dict, &[]);
    for most in ["1", "7", "40"] {
        let split = prove(&dict, &["--tree-paths", most]);
        assert_eq!(split["boards"], whole["boards"], "--tree-paths {most}");
        assert_eq!(split["classes"], whole["classes"], "--tree-paths {most}");
        // More, smaller trees.
        assert_ne!(
            split["tree_nodes"], whole["tree_nodes"],
            "--tree-paths {most} built the same trees: {split}"
        );
    }
    for bad in ["0", "-3", "many", "2000000000"] {
        let mut args = small_proof(&dict);
        let flag = format!("--tree-paths={bad}");
        args.push(&flag);
        let (code, _, err) = parlor(&args);
        assert_ne!(code, 0, "{bad}");
        assert!(err.contains("--tree-paths"), "{bad}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{bad}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Without `--above`, the target is the best board a fixed search finds,
/// the same on every run, and the proof finds that board again.
#[test]
fn the_default_target_is_the_searchs_best_board() {
    let (dir, dict) = scratch_with_words("default-target");
    let args = [
        "gobble",
        "prove",
        "--size",
        "2x3",
        "--scoring",
        "boggle",
        "--dict",
        dict.to_str().unwrap(),
        "--json",
    ];
    let (code, out, err) = parlor(&args);
    assert_eq!(code, 0, "{err}");
    let proof: serde_json::Value = serde_json::from_str(&out).unwrap();
    let above = proof["above"].as_u64().unwrap();
    assert!(err.contains(&format!("--above {above}:")), "{err}");
    let top = proof["boards"][0]["score"].as_u64().unwrap();
    assert!(top >= above, "{proof}");
    // The same target again: the search is seeded and runs on one thread.
    let (_, again, _) = parlor(&args);
    let again: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(again["above"], proof["above"]);
    // And `gobble best`'s own search reaches no more than the proof's best.
    let (code, best, err) = parlor(&[
        "gobble",
        "best",
        "--size",
        "2x3",
        "--scoring",
        "boggle",
        "--dict",
        dict.to_str().unwrap(),
        "--threads",
        "1",
        "--seed",
        "7",
        "--runs",
        "200",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let best: serde_json::Value = serde_json::from_str(&best).unwrap();
    assert!(best["score"].as_u64().unwrap() <= top, "{best}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn ctrl_c_leaves_a_checkpoint_of_whole_classes() {
    let dir = scratch("sigint");
    let ckpt = dir.join("proof.ckpt");
    // A 3x3 proof over the embedded list takes far longer than the test
    // waits: it is interrupted once a few classes are done.
    let common = [
        "gobble",
        "prove",
        "--size",
        "3",
        "--scoring",
        "boggle",
        "--above",
        "150",
        "--buckets",
        "bdfgjqvwxz,aeiou,lnrsy,chkmpt",
        "--threads",
        "2",
        "--json",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(common)
        .args(["--classes", "100000..262144", "--checkpoint"])
        .arg(&ckpt)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let waited = Instant::now();
    let finished = |text: &str| text.matches("\nclass ").count();
    while finished(&std::fs::read_to_string(&ckpt).unwrap_or_default()) < 3 {
        assert!(
            waited.elapsed() < Duration::from_secs(600),
            "no class finished"
        );
        assert!(child.try_wait().unwrap().is_none(), "the proof ended early");
        std::thread::sleep(Duration::from_millis(50));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["complete"], false);

    // Every line is whole, and each finished class holds exactly the
    // boards a run of that class alone finds.
    let text = std::fs::read_to_string(&ckpt).unwrap();
    assert!(text.ends_with('\n'));
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("parlor gobble prove v3 "));
    let mut pending: Vec<String> = Vec::new();
    let mut checked = 0;
    let mut last_cpu = 0.0;
    for line in lines {
        if let Some(b) = line.strip_prefix("board ") {
            pending.push(b.replace(' ', ":"));
            continue;
        }
        // `class K CPU`: the CPU the proof had taken when K finished, which
        // only grows down the file (the threads write in turn).
        let (k, cpu) = line
            .strip_prefix("class ")
            .unwrap()
            .split_once(' ')
            .unwrap();
        let (k, cpu): (u64, f64) = (k.parse().unwrap(), cpu.parse().unwrap());
        assert!(cpu >= last_cpu, "{line} after {last_cpu}");
        last_cpu = cpu;
        if checked < 4 {
            let unit = format!("{k}..{}", k + 1);
            let mut args = common.to_vec();
            args.extend(["--classes", unit.as_str()]);
            let (code, out, err) = parlor(&args);
            assert_eq!(code, 0, "{err}");
            let alone: serde_json::Value = serde_json::from_str(&out).unwrap();
            let mut want: Vec<String> = alone["boards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| format!("{}:{}", b["board"].as_str().unwrap(), b["score"]))
                .collect();
            want.sort();
            pending.sort();
            assert_eq!(pending, want, "class {k}");
            checked += 1;
        }
        pending.clear();
    }
    assert!(checked >= 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--sample N` proves N groups spread evenly over all: with every group it
/// is the whole proof, and it reports an estimate; bad samples are refused.
#[test]
fn a_sample_of_every_group_is_the_whole_proof() {
    let (dir, dict) = scratch_with_words("sample");
    let whole = prove(&dict, &[]);
    // 2x3 has no merged corners: one class per group, 3^6 groups.
    let all = prove(&dict, &["--sample", "729"]);
    assert_eq!(all["sampled_groups"], 729);
    assert_eq!(all["groups"], 729);
    assert_eq!(all["boards"], whole["boards"]);
    assert_eq!(all["classes"], whole["classes"]);
    assert!(
        all["estimated_cpu_seconds"].as_f64().unwrap() >= 0.0,
        "{all}"
    );
    let more = prove(&dict, &["--sample", "100000"]);
    assert_eq!(more["sampled_groups"], 729);
    let few = prove(&dict, &["--sample", "3"]);
    assert_eq!(few["sampled_groups"], 3);
    let d = dict.to_str().unwrap();
    for bad in [
        vec!["--sample", "0"],
        vec!["--sample", "3", "--classes", "0..5"],
        vec!["--sample", "x"],
    ] {
        let mut args = vec![
            "gobble", "prove", "--size", "2x3", "--above", "4", "--dict", d,
        ];
        args.extend(bad.iter().copied());
        let (code, _, err) = parlor(&args);
        assert_ne!(code, 0, "{bad:?} was accepted");
        assert!(!err.contains("panicked"), "{err}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// `--cell-buckets`: buckets per cell with unequal counts find the same
/// boards (whole, in class ranges, sampled); the checkpoint header names
/// every cell's buckets, so a checkpoint resumes under the same buckets
/// however written and is refused under any other numbering; bad cell
/// lists are refused without a panic.
#[test]
fn cell_buckets_prove_the_same_and_name_the_checkpoint() {
    let (dir, dict) = scratch_with_words("cell-buckets");
    let whole = prove(&dict, &[]);
    let two = "aeiou,bcdfghjklmnpqrstvwxyz";
    let ring = format!("ring0={two}");
    let mixed = prove(
        &dict,
        &[
            "--cell-buckets",
            &ring,
            "--cell-buckets",
            "0=rst,aeiou,bcdfghjklmnpqvwxyz",
        ],
    );
    assert_eq!(mixed["boards"], whole["boards"], "{mixed}");
    // Ring 0 (the two centre cells) on 2 buckets, cell 0 on 3 (reordered),
    // the other three on 3: 2^2 * 3^4 classes.
    let n = mixed["all_classes"].as_u64().unwrap();
    assert_eq!(n, 4 * 81);
    let cells = mixed["cell_buckets"].as_array().unwrap();
    assert_eq!(cells.len(), 6);
    assert_eq!(cells[0], "rst,aeiou,bcdfghjklmnpqvwxyz");
    let mut boards = Vec::new();
    for (a, b) in [(0, 7), (7, 100), (100, n)] {
        let unit = prove(
            &dict,
            &[
                "--cell-buckets",
                &ring,
                "--cell-buckets",
                "0=rst,aeiou,bcdfghjklmnpqvwxyz",
                "--classes",
                &format!("{a}..{b}"),
            ],
        );
        boards.extend(unit["boards"].as_array().unwrap().iter().cloned());
    }
    // Cell 0's buckets tell mirror images apart, so a board and its image
    // lie in two searched classes: units may report one board each.
    let key = |v: &serde_json::Value| v["board"].as_str().unwrap().to_string();
    boards.sort_by_key(key);
    boards.dedup();
    let mut want = whole["boards"].as_array().unwrap().clone();
    want.sort_by_key(key);
    assert_eq!(boards, want);
    let all = prove(&dict, &["--cell-buckets", &ring, "--sample", "100000"]);
    assert_eq!(all["boards"], whole["boards"]);

    // The header names all six cells' buckets, each bucket's letters sorted.
    let ckpt = dir.join("cells.ckpt");
    let c = ckpt.to_str().unwrap();
    let first = prove(&dict, &["--cell-buckets", &ring, "--checkpoint", c]);
    assert_eq!(first["boards"], whole["boards"]);
    let text = std::fs::read_to_string(&ckpt).unwrap();
    let header = text.lines().next().unwrap();
    assert!(header.starts_with("parlor gobble prove v3 "), "{header}");
    let field = header
        .split(' ')
        .find_map(|f| f.strip_prefix("cell-buckets="))
        .unwrap();
    assert_eq!(field.split('|').count(), 6, "{header}");
    assert_eq!(field.matches(two).count(), 2, "{header}");
    // The same buckets written otherwise resume (nothing redone) ...
    let again = prove(
        &dict,
        &[
            "--cell-buckets",
            "ring0=uoiea,zyxwvtsrqpnmlkjhgfdcb",
            "--checkpoint",
            c,
        ],
    );
    assert_eq!(again["boards"], whole["boards"]);
    assert_eq!(again["bounds"], 0);
    // ... another numbering never does: other cells, other order, none.
    let before = std::fs::read(&ckpt).unwrap();
    let d = dict.to_str().unwrap();
    for other in [
        vec!["--cell-buckets", "ring1=aeiou,bcdfghjklmnpqrstvwxyz"],
        vec!["--cell-buckets", "ring0=bcdfghjklmnpqrstvwxyz,aeiou"],
        vec!["--cell-buckets", "1+4=aeiou,bcdfghjklmnpqrstvwxyz"],
        vec!["--corner-buckets", "aeiou,bcdfghjklmnpqrstvwxyz"],
        vec![],
    ] {
        let mut args = small_proof(&dict);
        args.extend_from_slice(&["--checkpoint", c]);
        args.extend(other.iter().copied());
        let (code, _, err) = parlor(&args);
        assert_ne!(code, 0, "{other:?} resumed another numbering");
        assert!(err.contains("another proof"), "{other:?}: {err}");
        assert_eq!(std::fs::read(&ckpt).unwrap(), before);
    }

    for bad in [
        "ring9=abc",
        "x=aeiou,bcdfghjklmnpqrstvwxyz",
        "0+1",
        "0=abc",
        "6=aeiou,bcdfghjklmnpqrstvwxyz",
        "0=a,a",
    ] {
        let (code, _, err) = parlor(&[
            "gobble",
            "prove",
            "--size",
            "2x3",
            "--above",
            "4",
            "--dict",
            d,
            "--cell-buckets",
            bad,
        ]);
        assert_ne!(code, 0, "{bad} was accepted");
        assert!(err.contains("--cell-buckets"), "{bad}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `parlor` with `args`, with only the unit variables of `env` set
/// (a test run inside a Slurm job keeps its own out of the way).
fn parlor_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_parlor"));
    cmd.args(args)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.stdin(Stdio::null()).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Unit `unit` of `units` of the small proof, its result in `out`: the
/// unit's JSON report.
fn run_unit(
    dict: &Path,
    out: &Path,
    units: u64,
    unit: Option<u64>,
    env: &[(&str, &str)],
) -> serde_json::Value {
    let mut args = small_proof(dict);
    let (n, k) = (units.to_string(), unit.map(|k| k.to_string()));
    args.extend_from_slice(&[
        "--threads",
        "2",
        "--json",
        "--units",
        &n,
        "--out",
        out.to_str().unwrap(),
    ]);
    if let Some(k) = &k {
        args.extend_from_slice(&["--unit", k]);
    }
    let (code, text, err) = parlor_env(&args, env);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&text).unwrap()
}

/// `--estimate DIR` on a sample of units: the whole proof is the number of
/// units times the sample's mean CPU, inside a bootstrap interval that leans
/// towards the heavy tail; too few units, or none, are refused in one line.
#[test]
fn an_estimate_is_the_units_times_the_sample_mean() {
    let (dir, dict) = scratch_with_words("estimate");
    let out = dir.join("sample");
    let estimate = |dir: &Path| {
        parlor_env(
            &[
                "gobble",
                "prove",
                "--estimate",
                dir.to_str().unwrap(),
                "--json",
            ],
            &[],
        )
    };
    let (code, _, err) = estimate(&out);
    assert_ne!(code, 0);
    assert!(
        err.contains("--estimate") && err.trim().lines().count() == 1,
        "{err}"
    );
    // Five of 40 units, their CPU set to a heavy-tailed sample.
    let cpu = [1.0, 2.0, 3.0, 4.0, 100.0];
    for (i, k) in [3u64, 17, 21, 30, 38].into_iter().enumerate() {
        run_unit(&dict, &out, 40, Some(k), &[]);
        let file = out.join(format!("unit-{k}.json"));
        let mut r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        r["cpu_seconds"] = cpu[i].into();
        std::fs::write(&file, r.to_string()).unwrap();
        let (code, text, err) = estimate(&out);
        if i == 0 {
            assert_ne!(code, 0, "{text}");
            assert!(
                err.contains("at least 2") && err.trim().lines().count() == 1,
                "{err}"
            );
        } else {
            assert_eq!(code, 0, "{err}");
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["sampled_units"], i + 1);
        }
    }
    let (code, text, err) = estimate(&out);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let f = |p: &serde_json::Value| p.as_f64().unwrap();
    assert_eq!(f(&v["unit_cpu_seconds"]["mean"]), 22.0);
    assert_eq!(f(&v["unit_cpu_seconds"]["median"]), 3.0);
    let hours = f(&v["cpu_hours"]);
    assert!((hours - 40.0 * 22.0 / 3600.0).abs() < 1e-9, "{v}");
    let (low, high) = (f(&v["cpu_hours_95"][0]), f(&v["cpu_hours_95"][1]));
    assert!(low < hours && hours < high, "{v}");
    assert!(
        high - hours > hours - low,
        "the heavy tail widens the top: {v}"
    );
    assert!(
        (f(&v["cores_for_a_week"]) - hours / 168.0).abs() < 1e-9,
        "{v}"
    );
    // A resumed unit counts only when its checkpoint gave the CPU of its
    // earlier runs (a checkpoint of bare `class K` lines does not).
    run_unit(&dict, &out, 40, Some(9), &[]);
    let file = out.join("unit-9.json");
    let mut r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(r["cpu_seconds_resumed"], 0.0, "run in one go: {r}");
    r["classes_resumed"] = 2.into();
    for (earlier, counted) in [(serde_json::Value::Null, 5), (1.5.into(), 6)] {
        r["cpu_seconds_resumed"] = earlier;
        std::fs::write(&file, r.to_string()).unwrap();
        let (code, text, err) = estimate(&out);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["sampled_units"], counted, "{r}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `--units N --draw S --seed X` draws S distinct units of 0..N, the same
/// for the same seed, spread over the whole range rather than in clusters
/// (units near in number are dealt alike groups); bad counts are refused
/// in one line.
#[test]
fn a_drawn_sample_of_units_is_spread_and_repeatable() {
    let draw = |args: &[&str]| {
        let mut all = vec!["gobble", "prove"];
        all.extend_from_slice(args);
        parlor_env(&all, &[])
    };
    let units = |seed: &str| -> Vec<u64> {
        let (code, out, err) = draw(&["--units", "1000000", "--draw", "200", "--seed", seed]);
        assert_eq!(code, 0, "{err}");
        out.lines().map(|l| l.parse().unwrap()).collect()
    };
    let a = units("46");
    assert_eq!(a.len(), 200);
    assert!(a.iter().all(|&k| k < 1_000_000));
    let mut sorted = a.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 200, "a unit drawn twice");
    assert_eq!(units("46"), a, "the same seed draws the same units");
    assert_ne!(units("47"), a);
    // Spread: every tenth of the range holds some units (a uniform draw
    // leaves one empty with probability about 1e-8), and no two units in a
    // row are closer than 10 more often than chance allows (200 units of a
    // million: about 0.4 such pairs expected).
    for tenth in 0..10u64 {
        let n = a.iter().filter(|&&k| k / 100_000 == tenth).count();
        assert!(n > 0, "no unit in tenth {tenth}: {sorted:?}");
    }
    let close = sorted.windows(2).filter(|w| w[1] - w[0] < 10).count();
    assert!(close <= 5, "{close} close pairs: {sorted:?}");
    for bad in [
        &["--units", "10", "--draw", "11"][..],
        &["--units", "10", "--draw", "0"],
        &["--units", "0", "--draw", "1"],
    ] {
        let (code, _, err) = draw(bad);
        assert_ne!(code, 0, "{bad:?}");
        assert!(
            err.trim().lines().count() == 1 && !err.contains("panicked"),
            "{err}"
        );
    }
    // The most units a proof is split into: 2^22, a 4x4 proof's groups
    // four to a unit.
    let (code, out, err) = draw(&["--units", "4194304", "--draw", "3"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 3, "{out}");
    let (code, _, err) = draw(&["--units", "4194305", "--draw", "3"]);
    assert_ne!(code, 0);
    assert!(err.contains("1 to 4194304 units"), "{err}");
    // A unit to run still needs its results folder, refused before work.
    let (code, _, err) = draw(&["--size", "3", "--units", "4", "--unit", "1"]);
    assert_ne!(code, 0);
    assert!(err.contains("--out"), "{err}");
}

/// `--merge DIR`: (exit code, the merged JSON or null, standard error).
fn merge(dir: &Path) -> (i32, serde_json::Value, String) {
    let (code, out, err) = parlor_env(
        &[
            "gobble",
            "prove",
            "--merge",
            dir.to_str().unwrap(),
            "--json",
        ],
        &[],
    );
    (code, serde_json::from_str(&out).unwrap_or_default(), err)
}

/// The proof in N work units, merged, is the single-process proof: the same
/// boards, classes and statistics; the unit number comes from `--unit`, a
/// Slurm array's `SLURM_ARRAY_TASK_ID` or a Kubernetes Indexed Job's
/// `JOB_COMPLETION_INDEX`.
#[test]
fn units_merged_are_the_whole_proof() {
    let (dir, dict) = scratch_with_words("units");
    let whole = prove(&dict, &[]);
    for units in [1u64, 3, 11] {
        let out = dir.join(format!("out-{units}"));
        let mut classes = 0;
        for k in 0..units {
            let k_text = k.to_string();
            let unit = match k % 3 {
                0 => run_unit(&dict, &out, units, Some(k), &[]),
                1 => run_unit(
                    &dict,
                    &out,
                    units,
                    None,
                    &[("SLURM_ARRAY_TASK_ID", &k_text)],
                ),
                _ => run_unit(
                    &dict,
                    &out,
                    units,
                    None,
                    &[("JOB_COMPLETION_INDEX", &k_text)],
                ),
            };
            assert_eq!(unit["unit"], k);
            assert_eq!(unit["complete"], true);
            assert!(out.join(format!("unit-{k}.json")).exists());
            assert!(out.join(format!("unit-{k}.ckpt")).exists());
            classes += unit["classes"].as_u64().unwrap();
        }
        assert_eq!(classes, whole["classes"].as_u64().unwrap());
        let (code, merged, err) = merge(&out);
        assert_eq!(code, 0, "{err}");
        assert_eq!(merged["boards"], whole["boards"], "{units} units");
        for key in [
            "classes",
            "bounds",
            "tree_nodes",
            "boards_scored",
            "all_classes",
            "above",
        ] {
            assert_eq!(merged[key], whole[key], "{units} units: {key}");
        }
        assert_eq!(merged["best_score"], whole["boards"][0]["score"]);
        assert_eq!(merged["units"], units);
        // The text answer lists the same boards as the single process's.
        let (code, text, _) =
            parlor_env(&["gobble", "prove", "--merge", out.to_str().unwrap()], &[]);
        assert_eq!(code, 0);
        let mut args = small_proof(&dict);
        args.extend_from_slice(&["--threads", "2"]);
        let (_, single, _) = parlor_env(&args, &[]);
        let boards = |t: &str| {
            t.lines()
                .take_while(|l| !l.contains(" classes of "))
                .map(String::from)
                .collect::<Vec<_>>()
        };
        assert_eq!(boards(&text), boards(&single));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A merge is refused, in one line naming what is wrong, when a unit is
/// missing, a unit's result is there twice, a group is in two units, or a
/// unit is of another proof; a bad unit number is refused before any work.
#[test]
fn merge_refuses_missing_and_duplicated_units() {
    let (dir, dict) = scratch_with_words("merge-refusals");
    let out = dir.join("out");
    for k in 0..4 {
        run_unit(&dict, &out, 4, Some(k), &[]);
    }
    assert_eq!(merge(&out).0, 0);
    let unit = |k: u64| out.join(format!("unit-{k}.json"));
    let one_line = |err: &str| {
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    let saved = std::fs::read_to_string(unit(2)).unwrap();

    // Missing: unit 2's result is not there.
    std::fs::remove_file(unit(2)).unwrap();
    let (code, _, err) = merge(&out);
    assert_ne!(code, 0);
    one_line(&err);
    assert!(
        err.contains("1 of 4 units have no result: unit(s) 2"),
        "{err}"
    );

    // Twice: unit 1's result copied in unit 2's place.
    std::fs::copy(unit(1), unit(2)).unwrap();
    let (code, _, err) = merge(&out);
    assert_ne!(code, 0);
    one_line(&err);
    assert!(
        err.contains("unit-2.json holds the result of unit 1"),
        "{err}"
    );

    // Twice, renumbered: its groups are then in units 1 and 2.
    let mut copy: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(unit(1)).unwrap()).unwrap();
    copy["unit"] = 2.into();
    std::fs::write(unit(2), copy.to_string()).unwrap();
    let (code, _, err) = merge(&out);
    assert_ne!(code, 0);
    one_line(&err);
    assert!(
        err.contains("covered twice") && err.contains("by units 1 and 2"),
        "{err}"
    );

    // A group dropped from a unit's list: in no unit.
    let mut fewer: serde_json::Value = serde_json::from_str(&saved).unwrap();
    let g = fewer["groups"].as_array_mut().unwrap().pop().unwrap();
    std::fs::write(unit(2), fewer.to_string()).unwrap();
    let (code, _, err) = merge(&out);
    assert_ne!(code, 0);
    one_line(&err);
    assert!(
        err.contains(&format!("in no unit, the first group {g}")),
        "{err}"
    );

    // Classes said searched that are not its groups' (a unit that skipped some).
    let mut short: serde_json::Value = serde_json::from_str(&saved).unwrap();
    short["classes"] = (short["classes"].as_u64().unwrap() - 1).into();
    std::fs::write(unit(2), short.to_string()).unwrap();
    let (code, _, err) = merge(&out);
    assert_ne!(code, 0);
    one_line(&err);
    assert!(err.contains("unit-2.json: its classes"), "{err}");

    // Another proof's unit (another target).
    std::fs::write(unit(2), &saved).unwrap();
    assert_eq!(merge(&out).0, 0);
    let other = dir.join("other");
    let mut args = small_proof(&dict);
    args[7] = "5";
    args.extend_from_slice(&[
        "--units",
        "4",
        "--unit",
        "2",
        "--out",
        other.to_str().unwrap(),
    ]);
    let (code, _, err) = parlor_env(&args, &[]);
    assert_eq!(code, 0, "{err}");
    std::fs::copy(other.join("unit-2.json"), unit(2)).unwrap();
    let (code, _, err) = merge(&out);
    assert_ne!(code, 0);
    one_line(&err);
    assert!(
        err.contains("another proof") && err.contains("above"),
        "{err}"
    );

    // Nothing to merge.
    let (code, _, err) = merge(&dir.join("nowhere"));
    assert_ne!(code, 0);
    one_line(&err);
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let (code, _, err) = merge(&dir.join("empty"));
    assert_ne!(code, 0);
    one_line(&err);
    assert!(err.contains("no unit results"), "{err}");

    // Bad unit numbers, from the flag or the scheduler's variable.
    let d = dict.to_str().unwrap();
    let o = out.to_str().unwrap();
    for (extra, env, says) in [
        (
            vec!["--units", "4", "--unit", "4"],
            vec![],
            "--unit 4 is out of range",
        ),
        (vec!["--units", "4"], vec![], "which unit?"),
        (
            vec!["--units", "4"],
            vec![("SLURM_ARRAY_TASK_ID", "x")],
            "SLURM_ARRAY_TASK_ID=\"x\" is not a unit number",
        ),
        (
            vec!["--units", "4"],
            vec![("JOB_COMPLETION_INDEX", "9")],
            "JOB_COMPLETION_INDEX 9 is out of range",
        ),
        (vec!["--units", "0", "--unit", "0"], vec![], "--units 0"),
        (
            vec!["--units", "4", "--unit", "1", "--classes", "0..5"],
            vec![],
            "--classes",
        ),
    ] {
        let mut args = vec![
            "gobble", "prove", "--size", "2x3", "--above", "4", "--dict", d, "--out", o,
        ];
        args.extend(extra.iter().copied());
        let (code, _, err) = parlor_env(&args, &env);
        assert_ne!(code, 0, "{extra:?} {env:?}");
        assert!(err.contains(says), "{extra:?} {env:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A unit stopped midway (its checkpoint cut, as a kill leaves it, and no
/// result written) resumes: run again, it redoes none of the classes its
/// checkpoint holds, and the merge is still the whole proof.
#[test]
fn a_stopped_unit_resumes_from_its_checkpoint() {
    let (dir, dict) = scratch_with_words("unit-resume");
    let whole = prove(&dict, &[]);
    let out = dir.join("out");
    for k in 0..3 {
        run_unit(&dict, &out, 3, Some(k), &[]);
    }
    let ckpt = out.join("unit-1.ckpt");
    let full = std::fs::read(&ckpt).unwrap();
    let first = run_unit(&dict, &out, 3, Some(1), &[]);
    let classes = first["classes"].as_u64().unwrap();
    assert_eq!(first["classes_resumed"].as_u64().unwrap(), classes);
    assert_eq!(first["bounds"], 0);
    for cut in [full.len() / 3 + 7, full.len() / 2, full.len() - 2] {
        std::fs::write(&ckpt, &full[..cut]).unwrap();
        std::fs::remove_file(out.join("unit-1.json")).unwrap();
        assert_ne!(merge(&out).0, 0, "a unit without its result merges");
        let whole_lines =
            &full[..cut][..full[..cut].iter().rposition(|&b| b == b'\n').unwrap() + 1];
        let kept = String::from_utf8_lossy(whole_lines)
            .matches("\nclass ")
            .count() as u64;
        assert!(kept > 0 && kept < classes, "cut {cut}: {kept} of {classes}");
        let again = run_unit(&dict, &out, 3, Some(1), &[]);
        assert_eq!(
            again["classes_resumed"].as_u64().unwrap(),
            kept,
            "cut {cut}"
        );
        // The unit's CPU is its runs' together: the earlier ones' is the
        // last figure on a kept `class` line, this run's is added to it.
        let earlier = String::from_utf8_lossy(whole_lines)
            .lines()
            .filter_map(|l| l.strip_prefix("class "))
            .map(|l| l.split(' ').nth(1).unwrap().parse::<f64>().unwrap())
            .fold(0.0, f64::max);
        let f = |v: &serde_json::Value| v.as_f64().unwrap();
        assert_eq!(f(&again["cpu_seconds_resumed"]), earlier, "cut {cut}");
        assert!(f(&again["cpu_seconds"]) >= earlier, "cut {cut}: {again}");
        assert_eq!(again["classes"].as_u64().unwrap(), classes);
        let (code, merged, err) = merge(&out);
        assert_eq!(code, 0, "{err}");
        assert_eq!(merged["boards"], whole["boards"], "cut {cut}");
        assert_eq!(merged["classes"], whole["classes"]);
        assert_eq!(merged["classes_resumed"].as_u64().unwrap(), kept);
    }
    // A unit's checkpoint is its own: another unit's is refused.
    std::fs::copy(out.join("unit-0.ckpt"), &ckpt).unwrap();
    let mut args = small_proof(&dict);
    args.extend_from_slice(&[
        "--units",
        "3",
        "--unit",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (code, _, err) = parlor_env(&args, &[]);
    assert_ne!(code, 0);
    assert!(err.contains("another proof"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
