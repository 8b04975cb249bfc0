//! The conformance suite over WORDCHAIN's mix of tables.

use parlor_core::Resources;
use parlor_wordchain::conformance;

fn part(part: u64, games: u64) {
    let res = Resources::embedded();
    for (i, cfg) in conformance::configs(parlor_lexicon::DEFAULT)
        .into_iter()
        .enumerate()
    {
        let from = (i as u64 * 4 + part) * 1_000_000;
        let t = conformance::suite(cfg).check(from..from + games, &res);
        assert_eq!(t.games as u64, games);
        assert!(t.actions > 0);
    }
}

#[test]
fn conformance_0() {
    part(0, 30);
}

#[test]
fn conformance_1() {
    part(1, 30);
}
