//! The conformance suite on the documentation's Nim.

use parlor_core::doc_nim::{conformance_suite, NimConfig};
use parlor_core::Resources;

/// 10,000 games over three configs.
#[test]
fn conformance_suite_over_nim() {
    let r = Resources::embedded();
    for config in [
        NimConfig::default(),
        NimConfig {
            pile: 1,
            max_take: 1,
        },
        NimConfig {
            pile: 40,
            max_take: 7,
        },
    ] {
        conformance_suite(config).check(0..3_334, &r);
    }
}
