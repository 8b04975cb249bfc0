//! The conformance suite over Twin Grids' mix of tables.

use parlor_core::Resources;
use parlor_twingrid::conformance;

#[test]
fn conformance() {
    let res = Resources::embedded();
    for (i, cfg) in conformance::configs(parlor_lexicon::DEFAULT)
        .into_iter()
        .enumerate()
    {
        let from = i as u64 * 1_000_000;
        let t = conformance::suite(cfg).check(from..from + 40, &res);
        assert_eq!(t.games, 40);
    }
}
