//! `parlor gobble best`: the CPU-time budget stops the search, and a bad
//! budget is refused in one line.

mod common;

use common::parlor;

#[test]
fn the_cpu_budget_stops_the_search_long_before_its_wall_budget() {
    let (code, out, err) = parlor(&[
        "gobble",
        "best",
        "--size",
        "5",
        "--threads",
        "1",
        "--seed",
        "3",
        "--seconds",
        "3000",
        "--cpu-seconds",
        "0.5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let cpu = v["cpu_seconds"].as_f64().unwrap();
    // The budget was used up (the watcher stops the search only after it)
    // and the wall budget of 50 minutes was not what ended the run.
    assert!(cpu >= 0.5, "{v}");
    assert!(v["seconds"].as_f64().unwrap() < 1500.0, "{v}");
    assert!(v["score"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v["board"].as_str().unwrap().len(), 25, "{v}");
}

#[test]
fn a_budget_that_is_not_a_positive_number_is_refused() {
    for bad in ["0", "-1", "NaN", "1e9"] {
        let (code, out, err) = parlor(&[
            "gobble",
            "best",
            "--size",
            "4",
            &format!("--cpu-seconds={bad}"),
        ]);
        assert_ne!(code, 0, "{bad}");
        assert!(out.is_empty(), "{bad}: {out}");
        assert_eq!(err.trim().lines().count(), 1, "{bad}: {err}");
        assert!(err.contains("--cpu-seconds"), "{bad}: {err}");
    }
}
