//! The games this binary hosts, by name: the one place where a new game is
//! registered for the CLI and the play server.

use parlor_core::{Extras, Registry};

/// Every game with a complete rules crate, each with its conformance
/// suites (the mix of configs `parlor conformance` plays) and, where it
/// lists no actions, the actions a client may try from its views (what
/// `parlor serve-bench` enters).
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry
        .register_with::<parlor_wordsprout::WordSprout>(Extras {
            suites: Some(|resources, lexicon| {
                use parlor_wordsprout::conformance::{configs, configs_within, suite};
                // Only what a table on that list may be made with.
                match resources.lexicon(lexicon) {
                    Ok(list) => configs_within(&list),
                    Err(_) => configs(lexicon),
                }
                .into_iter()
                .map(suite)
                .collect()
            }),
            view_actions: None,
            puzzles: Some(parlor_wordsprout::puzzle::BOOK),
        })
        .register_with::<parlor_gobble::Gobble>(Extras {
            suites: Some(|_, lexicon| {
                use parlor_gobble::conformance::{configs, suite};
                configs(lexicon).into_iter().map(suite).collect()
            }),
            view_actions: Some(parlor_gobble::client::view_actions),
            puzzles: Some(parlor_gobble::puzzle::BOOK),
        })
        .register_with::<parlor_sprouts::Sprouts>(Extras {
            suites: Some(|_, _| {
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
            }),
            view_actions: None,
            puzzles: Some(parlor_sprouts::puzzle::BOOK),
        })
        .register_with::<parlor_wordchain::WordChain>(Extras {
            suites: Some(|_, lexicon| {
                use parlor_wordchain::conformance::{configs, suite};
                configs(lexicon).into_iter().map(suite).collect()
            }),
            view_actions: None,
            puzzles: Some(parlor_wordchain::puzzle::BOOK),
        })
        .register_with::<parlor_twingrid::TwinGrids>(Extras {
            suites: Some(|_, lexicon| {
                use parlor_twingrid::conformance::{configs, suite};
                configs(lexicon).into_iter().map(suite).collect()
            }),
            view_actions: None,
            puzzles: Some(parlor_twingrid::puzzle::BOOK),
        });
    registry
}

/// [`registry`] and the core's two example games (Sealed-Bid Nim and the
/// documentation's Nim), which the play server hosts only on request.
pub fn with_examples() -> Registry {
    let mut registry = registry();
    registry
        .register_with::<parlor_core::sealed_bid::SealedBid>(Extras {
            suites: Some(|_, _| {
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
            }),
            view_actions: None,
            puzzles: None,
        })
        .register_with::<parlor_core::doc_nim::Nim>(Extras {
            suites: Some(|_, _| {
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
            }),
            view_actions: None,
            puzzles: None,
        });
    registry
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_core::Resources;

    /// A client that sees only its views (`parlor serve-bench`) can play
    /// every game: where a seat's actions are not listed, the game's entry
    /// offers actions from the seat's view, and the game accepts them.
    #[test]
    fn every_game_is_playable_from_its_views() {
        let registry = with_examples();
        let resources = Resources::embedded();
        for name in registry.names() {
            let entry = registry.get(name).unwrap();
            let config = entry.default_config();
            let mut m = entry.new_match(&config, 3, &resources).unwrap();
            let seat = parlor_core::Seat(0);
            if m.legal_actions_json(seat).is_some() {
                continue;
            }
            let actions = entry
                .view_actions(&config, &resources)
                .unwrap_or_else(|| panic!("{name} lists no actions and offers none"))
                .unwrap();
            let view = m.view_json(parlor_core::Viewer::Seat(seat));
            let tries = actions(&view).unwrap_or_default();
            assert!(!tries.is_empty(), "{name}");
            for a in &tries {
                m.apply_json(parlor_core::Actor::Seat(seat), a)
                    .unwrap_or_else(|e| panic!("{name}: {a} refused: {e}"));
            }
        }
    }

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
                .suites(&resources, parlor_lexicon::DEFAULT)
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
