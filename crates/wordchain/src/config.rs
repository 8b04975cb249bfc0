//! A table's rules: every house rule the original rules name, checked.

use crate::pack::{Pack, MAX_PACK_TEXT};
use crate::scoring::{LinkBonus, ScoreRules, Scoring};
use parlor_core::{ConfigError, Setting, SettingKind, SettingOption};
use serde::{Deserialize, Serialize};

/// The most players at a table.
pub const MAX_PLAYERS: usize = 8;

/// The cards that must stay in the decks after the deal (rule 4).
pub const LEFT_AFTER_DEAL: usize = 20;

/// The most turns a game may be agreed to last.
pub const MAX_TURN_LIMIT: u32 = 2000;

/// How the game ends besides its turn limit and time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Discards {
    /// Played cards are stacked aside (rule 11): the decks run out.
    Aside,
    /// When a deck runs out its discards are shuffled back into it (the
    /// rules' "by agreement the game may continue by shuffling").
    Reshuffle,
}

/// The rules and house rules of one table. Every field has a default, so
/// `{}` is the standard game for two.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Players, 2 to 8.
    pub players: usize,
    /// The agreed dictionary, by name.
    pub lexicon: String,
    /// A house pack in the pack format (`data/wordchain/deck.txt`); `None`
    /// for parlor's default pack.
    pub deck: Option<String>,
    /// One combined deck instead of consonants and vowels (rule 2).
    pub one_deck: bool,
    /// Cards dealt to each player (rule 4: 12).
    pub hand: usize,
    /// Of those, how many from the consonant deck (6; the rest from the
    /// vowel deck). Ignored with one deck.
    pub consonants: usize,
    /// Simple or standard scoring.
    pub scoring: Scoring,
    /// What rule J's link bonus means.
    pub link_bonus: LinkBonus,
    /// Rule M's agreed number of cards.
    pub long_word: usize,
    /// Dice: 0 (none), 1 or 2 (rules 8–10).
    pub dice: u8,
    /// Plays may be challenged (rule 17); with challenges on, words the
    /// dictionary does not hold are accepted until challenged (bluffs).
    pub challenges: bool,
    /// A word may be played only once in a game (rule 19's example).
    pub once_only: bool,
    /// Two-word names by agreement (rule 16: VICE VERSA): a play may be
    /// two words of the dictionary written as one, with a space.
    pub two_word_names: bool,
    /// The agreed score that ends the game (1,000 or 5,000); `None`: none.
    pub target: Option<u32>,
    /// The game ends after this many turns in all (the agreed end point;
    /// every pass, play and five-card draw is a turn).
    pub turn_limit: u32,
    /// The agreed time in minutes, kept by the host; `None`: none.
    pub minutes: Option<u32>,
    /// Deals in the game: when a deal ends (a player out of cards with the
    /// decks empty, or nobody able to play) the next is dealt by the player
    /// to the left, until this many have been played.
    pub deals: u32,
    /// What happens to played cards.
    pub discards: Discards,
    /// Suit seniority breaks ties at the cut (Multicard, hearts, diamonds,
    /// clubs, spades).
    pub seniority: bool,
    /// Cards left in hand at the end of a deal count against their holder
    /// (rule 18, by agreement).
    pub count_hand: bool,
    /// Partners or teams, as lists of seats; empty for none.
    pub teams: Vec<Vec<usize>>,
    /// House rule: a full round of passes (every player still in the game
    /// passing in a row) ends the deal, as if nobody could play. Off: a
    /// pass only lets the turn go, and the deal ends for want of words
    /// only when no player can form one.
    pub passes_end: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            players: 2,
            lexicon: parlor_lexicon::DEFAULT.to_string(),
            deck: None,
            one_deck: false,
            hand: 12,
            consonants: 6,
            scoring: Scoring::Standard,
            link_bonus: LinkBonus::SameLetter,
            long_word: 8,
            dice: 0,
            challenges: true,
            once_only: false,
            two_word_names: false,
            target: Some(1000),
            turn_limit: 400,
            minutes: None,
            deals: 1,
            discards: Discards::Aside,
            seniority: false,
            count_hand: false,
            teams: Vec::new(),
            passes_end: false,
        }
    }
}

impl Config {
    /// The scoring rules.
    pub fn score_rules(&self) -> ScoreRules {
        ScoreRules {
            scoring: self.scoring,
            link_bonus: self.link_bonus,
            long_word: self.long_word,
        }
    }

    /// Checks the config and reads its pack.
    pub fn check(&self) -> Result<Pack, ConfigError> {
        let bad = |m: String| Err(ConfigError::new(m));
        if !(2..=MAX_PLAYERS).contains(&self.players) {
            return bad(format!("players: 2 to {MAX_PLAYERS}, not {}", self.players));
        }
        if !(1..=30).contains(&self.hand) {
            return bad(format!("hand: 1 to 30 cards, not {}", self.hand));
        }
        if !self.one_deck && self.consonants > self.hand {
            return bad(format!(
                "consonants: at most the hand's {} cards, not {}",
                self.hand, self.consonants
            ));
        }
        if !(2..=30).contains(&self.long_word) {
            return bad(format!("long_word: 2 to 30 cards, not {}", self.long_word));
        }
        if self.dice > 2 {
            return bad(format!("dice: 0, 1 or 2, not {}", self.dice));
        }
        if let Some(t) = self.target {
            if !(10..=100_000).contains(&t) {
                return bad(format!("target: 10 to 100000 points, not {t}"));
            }
        }
        if !(1..=MAX_TURN_LIMIT).contains(&self.turn_limit) {
            return bad(format!(
                "turn_limit: 1 to {MAX_TURN_LIMIT} turns, not {}",
                self.turn_limit
            ));
        }
        if let Some(m) = self.minutes {
            if !(1..=600).contains(&m) {
                return bad(format!("minutes: 1 to 600, not {m}"));
            }
        }
        if !(1..=20).contains(&self.deals) {
            return bad(format!("deals: 1 to 20, not {}", self.deals));
        }
        if self.lexicon.len() > 200 {
            return bad("lexicon: a name of at most 200 characters".into());
        }
        if !self.teams.is_empty() {
            let mut seen = vec![false; self.players];
            for team in &self.teams {
                if team.is_empty() {
                    return bad("teams: a team with no player".into());
                }
                for &s in team {
                    if s >= self.players || seen[s] {
                        return bad(format!(
                            "teams: each seat 0 to {} in exactly one team; {s} is not",
                            self.players - 1
                        ));
                    }
                    seen[s] = true;
                }
            }
            if seen.iter().any(|s| !s) || self.teams.len() < 2 {
                return bad("teams: at least two teams, every seat in one".into());
            }
        }
        let pack = match &self.deck {
            None => Pack::standard(),
            Some(text) if text.len() > MAX_PACK_TEXT => {
                return bad(format!("deck: at most {MAX_PACK_TEXT} bytes"));
            }
            Some(text) => Pack::parse(text).map_err(|e| ConfigError::new(e.to_string()))?,
        };
        // Rule 4: the deal leaves at least twenty cards in the decks, and
        // the link card comes from the consonant deck.
        let dealt = self.hand * self.players;
        if self.one_deck {
            if dealt + 1 + LEFT_AFTER_DEAL > pack.len() {
                return bad(format!(
                    "hand: {} players of {} cards and the link card leave fewer than {LEFT_AFTER_DEAL} of the pack's {} cards",
                    self.players,
                    self.hand,
                    pack.len()
                ));
            }
        } else {
            let c = self.consonants * self.players + 1;
            let v = (self.hand - self.consonants) * self.players;
            if c > pack.consonants.len() || v > pack.vowels.len() {
                return bad(format!(
                    "hand: the deal needs {c} consonants and {v} vowel-deck cards; the pack has {} and {}",
                    pack.consonants.len(),
                    pack.vowels.len()
                ));
            }
            if dealt + 1 + LEFT_AFTER_DEAL > pack.len() {
                return bad(format!(
                    "hand: {} players of {} cards leave fewer than {LEFT_AFTER_DEAL} cards in the decks",
                    self.players, self.hand
                ));
            }
        }
        if pack
            .consonants
            .iter()
            .chain(if self.one_deck { &pack.vowels[..] } else { &[] })
            .all(|c| c.letter().is_none())
        {
            return bad(
                "deck: the link card is turned from the consonants, and there are none".into(),
            );
        }
        Ok(pack)
    }

    /// The team of each seat (its own when there are no teams).
    pub fn team_of(&self) -> Vec<usize> {
        let mut of: Vec<usize> = (0..self.players).collect();
        for (t, team) in self.teams.iter().enumerate() {
            for &s in team {
                if s < of.len() {
                    of[s] = self.players + t;
                }
            }
        }
        of
    }
}

/// The settings as a lobby shows them.
pub fn settings() -> Vec<Setting> {
    let int = |min, max| SettingKind::Integer {
        min,
        max,
        optional: false,
    };
    vec![
        Setting {
            field: "players",
            label: "Players",
            help: "2 to 8 players; the cut chooses the first dealer",
            kind: SettingKind::Seats {
                min: 2,
                max: MAX_PLAYERS,
            },
        },
        Setting {
            field: "lexicon",
            label: "Dictionary",
            help: "the agreed dictionary: the final authority on a word",
            kind: SettingKind::WordList { role: "words" },
        },
        Setting {
            field: "scoring",
            label: "Scoring",
            help: "standard: card values with bonuses and penalties; simple: a point a card",
            kind: SettingKind::Choice {
                options: vec![
                    SettingOption::text("standard", "Standard"),
                    SettingOption::text("simple", "Simple (juniors)"),
                ],
            },
        },
        Setting {
            field: "hand",
            label: "Cards dealt",
            help: "cards each player is dealt (at least 20 must stay in the decks)",
            kind: int(1, 30),
        },
        Setting {
            field: "consonants",
            label: "Consonants dealt",
            help: "of the cards dealt, how many from the consonant deck",
            kind: int(0, 30),
        },
        Setting {
            field: "one_deck",
            label: "One deck",
            help: "consonants and vowels shuffled together",
            kind: SettingKind::Bool,
        },
        Setting {
            field: "dice",
            label: "Dice",
            help:
                "the throw limits the cards a word takes from the hand; a double allows two words",
            kind: SettingKind::Choice {
                options: vec![
                    SettingOption {
                        value: 0.into(),
                        label: "No dice",
                    },
                    SettingOption {
                        value: 1.into(),
                        label: "One die",
                    },
                    SettingOption {
                        value: 2.into(),
                        label: "Two dice",
                    },
                ],
            },
        },
        Setting {
            field: "challenges",
            label: "Challenges",
            help: "plays may be challenged, and players may bluff",
            kind: SettingKind::Bool,
        },
        Setting {
            field: "once_only",
            label: "Each word once",
            help: "a word may be played only once in the game",
            kind: SettingKind::Bool,
        },
        Setting {
            field: "two_word_names",
            label: "Two-word names",
            help: "a play may be two words of the dictionary with a space (VICE VERSA)",
            kind: SettingKind::Bool,
        },
        Setting {
            field: "passes_end",
            label: "Passes end the deal",
            help: "house rule: a full round of passes ends the deal (with one deal, the game); off, a pass only lets the turn go",
            kind: SettingKind::Bool,
        },
        Setting {
            field: "target",
            label: "Target score",
            help: "the game ends when a player (or team) reaches it; empty for none",
            kind: SettingKind::Integer {
                min: 10,
                max: 100_000,
                optional: true,
            },
        },
        Setting {
            field: "turn_limit",
            label: "Turn limit",
            help: "the game ends after this many turns in all",
            kind: int(1, i64::from(MAX_TURN_LIMIT)),
        },
        Setting {
            field: "minutes",
            label: "Agreed time",
            help: "minutes before the game ends; empty for none",
            kind: SettingKind::Integer {
                min: 1,
                max: 600,
                optional: true,
            },
        },
        Setting {
            field: "deals",
            label: "Deals",
            help: "rounds; the deal moves to the left each round",
            kind: int(1, 20),
        },
        Setting {
            field: "discards",
            label: "Played cards",
            help: "set aside, or shuffled back when a deck runs out",
            kind: SettingKind::Choice {
                options: vec![
                    SettingOption::text("aside", "Set aside"),
                    SettingOption::text("reshuffle", "Shuffled back"),
                ],
            },
        },
        Setting {
            field: "link_bonus",
            label: "Link bonus",
            help: "rule J, a word \"on the link card\": twice its last card's value; which words earn it",
            kind: SettingKind::Choice {
                options: vec![
                    SettingOption::text(
                        "same_letter",
                        "Begins on the link card and ends on its letter",
                    ),
                    SettingOption::text("link_first", "Every word that begins on the link card"),
                    SettingOption::text("off", "Off"),
                ],
            },
        },
        Setting {
            field: "long_word",
            label: "Long word",
            help: "cards in a word that empties the hand for the extra 50%",
            kind: int(2, 30),
        },
        Setting {
            field: "seniority",
            label: "Suit seniority",
            help: "breaks ties at the cut for dealer",
            kind: SettingKind::Bool,
        },
        Setting {
            field: "count_hand",
            label: "Cards left count",
            help: "cards left in hand at the end count against their holder",
            kind: SettingKind::Bool,
        },
        Setting {
            field: "teams",
            label: "Teams",
            help: "partners share a score; each plays from their own hand",
            kind: SettingKind::Teams,
        },
        Setting {
            field: "deck",
            label: "House pack",
            help: "a pack in parlor's pack format; empty for the default pack",
            kind: SettingKind::Text {
                max_len: MAX_PACK_TEXT,
                optional: true,
            },
        },
    ]
}
