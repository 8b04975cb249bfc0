//! The games this binary hosts, by name: the one place where a new game is
//! registered for the CLI and the play server.

use parlor_core::Registry;

/// Every game with a complete rules crate.
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry
        .register::<parlor_wordsprout::WordSprout>()
        .register::<parlor_gobble::Gobble>()
        .register::<parlor_sprouts::Sprouts>()
        .register::<parlor_wordchain::WordChain>()
        .register::<parlor_twingrid::TwinGrids>();
    registry
}
