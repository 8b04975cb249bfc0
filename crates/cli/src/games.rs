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

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_core::Resources;

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
