//! `parlor gobble bench`: every walk scores the same boards alike, and the
//! report names the walk that ran.

mod common;

use common::parlor;

fn bench(walk: &str) -> serde_json::Value {
    let (code, out, err) = parlor(&[
        "gobble", "bench", "--random", "300", "--seed", "walks", "--size", "5", "--walk", walk,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn every_walk_that_runs_here_gives_the_same_checksum() {
    let auto = bench("auto");
    assert_eq!(auto["walk_chosen"], "for this processor");
    let chosen = auto["walk"].as_str().unwrap();
    assert!(["plain", "avx2", "avx2-pdep"].contains(&chosen), "{chosen}");
    assert!(auto["score_sum"].as_u64().unwrap() > 0);
    for walk in ["plain", "avx2", "avx2-pdep"] {
        let (code, out, err) = parlor(&[
            "gobble", "bench", "--random", "300", "--seed", "walks", "--size", "5", "--walk", walk,
            "--json",
        ]);
        if code != 0 {
            // Only a processor without AVX2 and BMI2 refuses, in one line.
            assert_ne!(walk, "plain", "{err}");
            assert_eq!(chosen, "plain");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains("lacks"), "{err}");
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["walk"], walk);
        assert_eq!(v["walk_chosen"], "by --walk");
        assert_eq!(v["score_sum"], auto["score_sum"], "{walk}");
        assert_eq!(v["word_sum"], auto["word_sum"], "{walk}");
    }
}
