//! The conformance suite over Gobble: 4x4 and 5x5 boards, 1 to 3 seats,
//! entries drawn from each board's real words and junk, `Done`, the
//! referee's `EndRound`, secrets checked. 10,000 games in all, in four
//! tests so the test runner spreads them over the cores.

use parlor_core::Resources;
use parlor_gobble::conformance;

const GAMES: u64 = 10_000;

fn part(part: usize) {
    let res = Resources::embedded();
    let configs = conformance::configs(parlor_lexicon::DEFAULT);
    let per = GAMES.div_ceil(configs.len() as u64 * 4);
    let mut games = 0;
    for (i, cfg) in configs.into_iter().enumerate() {
        let from = (i * 4 + part) as u64 * 1_000_000;
        games += conformance::suite(cfg).check(from..from + per, &res).games;
    }
    assert!(games as u64 >= GAMES / 4, "{games}");
}

#[test]
fn conformance_0() {
    part(0);
}

#[test]
fn conformance_1() {
    part(1);
}

#[test]
fn conformance_2() {
    part(2);
}

#[test]
fn conformance_3() {
    part(3);
}
