//! A table's configuration: its parameters and the check that they make a
//! playable table.

use crate::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_core::{ConfigError, Setting, SettingKind, SettingOption};
use serde::{Deserialize, Serialize};

/// The most seats a table may have.
pub const MAX_PLAYERS: usize = 10;

/// The most rounds a match may have.
pub const MAX_ROUNDS: u32 = 99;

/// The rules of one table.
///
/// ```
/// let c: parlor_wordsprout::Config = serde_json::from_str(r#"{"players": 3, "rules": ["challenge", "tiles"]}"#).unwrap();
/// assert_eq!(c.lexicon, "en");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Seats at the table (2 to [`MAX_PLAYERS`]).
    pub players: usize,
    /// The word list, by name (an embedded list or one the host added).
    pub lexicon: String,
    /// The active optional rules at the start (metamorphism may change them).
    pub rules: RuleSet,
    /// The tiles, used with [`Rule::Tiles`].
    pub pot: Pot,
    /// The vowels (`aeiou` unless configured).
    pub vowels: Vowels,
    /// Teams, as lists of seat indices from 0, used with [`Rule::Teams`]:
    /// every seat in exactly one team, at least two teams.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<Vec<usize>>,
    /// Rounds in the match. Unset: 3 with metamorphism or persistent
    /// vowel collections, else 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// Whether the helper ("what could I play?") is open during play, not
    /// only after the round.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            players: 2,
            lexicon: parlor_lexicon::DEFAULT.to_string(),
            rules: RuleSet::default(),
            pot: Pot::default(),
            vowels: Vowels::default(),
            teams: Vec::new(),
            rounds: None,
            hints: false,
        }
    }
}

impl Config {
    /// Rounds in the match (see [`Config::rounds`]).
    pub fn round_count(&self) -> u32 {
        self.rounds.unwrap_or(
            if self.rules.has(Rule::Metamorphism) || self.rules.has(Rule::PersistentCollections) {
                3
            } else {
                1
            },
        )
    }

    /// Checks the config; the error says what is accepted.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(2..=MAX_PLAYERS).contains(&self.players) {
            return Err(ConfigError::new(format!(
                "Word Sprout needs 2 to {MAX_PLAYERS} players, not {}",
                self.players
            )));
        }
        if !(1..=MAX_ROUNDS).contains(&self.round_count()) {
            return Err(ConfigError::new(format!(
                "a match has 1 to {MAX_ROUNDS} rounds, not {}",
                self.round_count()
            )));
        }
        if !self.teams.is_empty() || self.rules.has(Rule::Teams) {
            let mut seen = vec![false; self.players];
            for team in &self.teams {
                if team.is_empty() {
                    return Err(ConfigError::new("a team needs at least one player"));
                }
                for &s in team {
                    if s >= self.players {
                        return Err(ConfigError::new(format!(
                            "team member {s} is not a seat: seats are 0 to {}",
                            self.players - 1
                        )));
                    }
                    if std::mem::replace(&mut seen[s], true) {
                        return Err(ConfigError::new(format!("seat {s} is in two teams")));
                    }
                }
            }
            if let Some(s) = seen.iter().position(|&b| !b) {
                return Err(ConfigError::new(format!(
                    "with teams, every seat needs a team: seat {s} has none (teams: {:?})",
                    self.teams
                )));
            }
            if self.teams.len() < 2 {
                return Err(ConfigError::new("team play needs at least two teams"));
            }
        }
        Ok(())
    }
}

/// The table's settings as a lobby shows them.
pub(crate) fn settings() -> Vec<Setting> {
    let rules = Rule::ALL
        .iter()
        .map(|r| SettingOption::text(r.name(), r.title()))
        .collect();
    vec![
        Setting {
            field: "players",
            label: "Players",
            help: "seats at the table",
            kind: SettingKind::Seats {
                min: 2,
                max: MAX_PLAYERS,
            },
        },
        Setting {
            field: "lexicon",
            label: "Word list",
            help: "the words a string must stay inside",
            kind: SettingKind::WordList { role: "words" },
        },
        Setting {
            field: "rules",
            label: "Rules",
            help: "the optional rules and variants on at the start",
            kind: SettingKind::Flags { options: rules },
        },
        Setting {
            field: "vowels",
            label: "Vowels",
            help: "the letters that count as vowels (aeiou unless you say otherwise)",
            kind: SettingKind::Text {
                max_len: 26,
                optional: true,
            },
        },
        Setting {
            field: "pot",
            label: "Tiles",
            help: "with the tiles rule: letters with counts, like \"a9 b2 c2\"",
            kind: SettingKind::Text {
                max_len: 26 * 6,
                optional: true,
            },
        },
        Setting {
            field: "teams",
            label: "Teams",
            help: "with team play: which seats play together",
            kind: SettingKind::Teams,
        },
        Setting {
            field: "rounds",
            label: "Rounds",
            help:
                "rounds in the match (empty: 3 with metamorphism or persistent collections, else 1)",
            kind: SettingKind::Integer {
                min: 1,
                max: MAX_ROUNDS as i64,
                optional: true,
            },
        },
        Setting {
            field: "hints",
            label: "Helper during play",
            help:
                "the helper (\"what could I play?\") is open during play, not only after the round",
            kind: SettingKind::Bool,
        },
    ]
}
