//! The shared conformance suite over Sprouts: 1 to 6 spots, normal and
//! misère, with junk and out-of-turn moves, in two tests so the runner
//! spreads them over the cores.

use parlor_core::Resources;
use parlor_sprouts::game::{conformance_suite, Config};

fn part(misere: bool) {
    let res = Resources::embedded();
    let mut games = 0;
    for spots in 1..=6 {
        let n = if spots <= 3 { 40 } else { 8 };
        let from = spots as u64 * 1_000;
        games += conformance_suite(Config {
            spots,
            misere,
            ..Config::default()
        })
        .check(from..from + n, &res)
        .games;
    }
    assert_eq!(games, 3 * 40 + 3 * 8);
}

#[test]
fn conformance_normal() {
    part(false);
}

#[test]
fn conformance_misere() {
    part(true);
}
