//! The games this binary hosts, by name: the one place where a new game is
//! registered for the CLI and the play server.

use parlor_core::Registry;

/// Every game with a complete rules crate, each with its conformance
/// suites (the mix of configs `parlor conformance` plays).
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry
        .register_with_suites::<parlor_wordsprout::WordSprout>(|lexicon| {
            use parlor_wordsprout::conformance::{configs, suite};
            configs(lexicon).into_iter().map(suite).collect()
        })
        .register_with_suites::<parlor_gobble::Gobble>(|lexicon| {
            use parlor_gobble::conformance::{configs, suite};
            configs(lexicon).into_iter().map(suite).collect()
        })
        .register_with_suites::<parlor_sprouts::Sprouts>(|_| {
            use parlor_sprouts::game::{conformance_suite, Config};
            [(1, false), (3, false), (5, true), (6, false)]
                .into_iter()
                .map(|(spots, misere)| {
                    conformance_suite(Config {
                        spots,
                        misere,
                        ..Config::default()
                    })
                })
                .collect()
        })
        .register_with_suites::<parlor_wordchain::WordChain>(|lexicon| {
            use parlor_wordchain::conformance::{configs, suite};
            configs(lexicon).into_iter().map(suite).collect()
        })
        .register_with_suites::<parlor_twingrid::TwinGrids>(|lexicon| {
            use parlor_twingrid::conformance::{configs, suite};
            configs(lexicon).into_iter().map(suite).collect()
        });
    registry
}

/// [`registry`] and the core's two example games (Sealed-Bid Nim and the
/// documentation's Nim), which the play server hosts only on request.
pub fn with_examples() -> Registry {
    let mut registry = registry();
    registry
        .register_with_suites::<parlor_core::sealed_bid::SealedBid>(|_| {
            use parlor_core::sealed_bid::{conformance_suite, Config};
            [
                Config::default(),
                Config { pile: 1, chips: 0 },
                Config {
                    pile: 25,
                    chips: 40,
                },
            ]
            .into_iter()
            .map(conformance_suite)
            .collect()
        })
        .register_with_suites::<parlor_core::doc_nim::Nim>(|_| {
            use parlor_core::doc_nim::{conformance_suite, NimConfig};
            [
                NimConfig::default(),
                NimConfig {
                    pile: 1,
                    max_take: 1,
                },
                NimConfig {
                    pile: 40,
                    max_take: 7,
                },
            ]
            .into_iter()
            .map(conformance_suite)
            .collect()
        });
    registry
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_core::Resources;

    /// `parlor conformance` finds every game's suites through the
    /// registry: every game registered brings a mix, and its first suite
    /// plays a game.
    #[test]
    fn every_registered_game_brings_its_conformance_suites() {
        let registry = with_examples();
        let resources = Resources::embedded();
        for name in registry.names() {
            let suites = registry
                .get(name)
                .unwrap()
                .suites(parlor_lexicon::DEFAULT)
                .unwrap_or_else(|| panic!("{name}: registered without its suites"));
            assert!(!suites.is_empty(), "{name}");
            let mut first = suites.into_iter().next().unwrap();
            assert_eq!(first.play(1, &resources).games, 1, "{name}");
        }
    }

    /// A preset is only a shortcut through the settings form: it sets
    /// declared settings only, within their ranges, and every one makes a
    /// game.
    #[test]
    fn every_preset_sets_declared_settings_and_makes_a_game() {
        let registry = registry();
        let resources = Resources::embedded();
        for name in registry.names() {
            let entry = registry.get(name).unwrap();
            assert!(
                !entry.how_to_play().trim().is_empty(),
                "{name}: say how to play in short"
            );
            let presets = entry.presets();
            assert!(presets.len() >= 2, "{name}: a choice of presets");
            let fields: Vec<&str> = entry.settings().iter().map(|s| s.field).collect();
            let mut names = std::collections::HashSet::new();
            for p in &presets {
                assert!(names.insert(p.name), "{name}: preset {} twice", p.name);
                assert!(
                    !p.help.is_empty() && !p.help.contains('\n'),
                    "{name}/{}: one line of help",
                    p.name
                );
                for field in p.values.keys() {
                    assert!(
                        fields.contains(&field.as_str()),
                        "{name}/{}: {field} is not a declared setting ({fields:?})",
                        p.name
                    );
                }
                let config = p.config(&entry.default_config());
                if let Err(e) = entry.new_match(&config, 7, &resources) {
                    panic!("{name}/{}: {e}", p.name);
                }
            }
        }
    }
}
