//! A table's configuration: its parameters and the check that they make a
//! playable table.

use crate::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_core::ConfigError;
use serde::{Deserialize, Serialize};

/// The most seats a table may have.
pub const MAX_PLAYERS: usize = 10;

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
        if self.round_count() == 0 {
            return Err(ConfigError::new("a match needs at least 1 round"));
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
