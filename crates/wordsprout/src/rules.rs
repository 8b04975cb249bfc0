//! The rules a table plays with: the core rules are always on; every other
//! rule and variant is a named [`Rule`] in a [`RuleSet`].

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// One optional rule or variant, named as on the command line
/// (`--rule palindrome-lock`) and in JSON configs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    // ---- The other rules (on by default except tiles) ----
    /// Other rule 1: play from a pot of tiles ([`Pot`]); a letter with no tile left cannot be played.
    Tiles,
    /// Other rule 2: playing out of turn puts you out (unless the next player plays before anyone notices).
    /// Off means strict: an out-of-turn play is refused.
    OutOfTurn,
    /// Other rule 3: the player to move may challenge the previous play; players may bluff.
    Challenge,
    /// Other rule 4: a player who goes out has their losing play undone, with all its effects.
    UndoLosingPlay,
    // ---- Metamorphism ----
    /// A match is a series of rounds; each round's winner adds or removes one rule.
    Metamorphism,
    // ---- Valid strings ----
    /// Valid strings 1: a string is valid only if it is a complete word.
    WholeWords,
    /// Valid strings 2: a string is valid if adding vowels could make it a substring of a word.
    VowelFill,
    /// Valid strings 3: no plurals ending in "s"/"es" unless justified otherwise.
    NoPlurals,
    /// Valid strings 4: the first three letters played must be consonants.
    ConsonantStart,
    /// Valid strings 5: never more vowels than consonants.
    VowelCap,
    /// Valid strings 6: after the first three letters, no consonant may be added at the beginning.
    NoFrontConsonant,
    /// Valid strings 7: palindrome lock; afterwards one or two letters a turn.
    PalindromeLock,
    /// Valid strings 8: goal words need not be reachable.
    UnreachableGoals,
    // ---- Challenges ----
    /// Challenges 1: any player may challenge the previous play; an invalid play means the challenger wins the round.
    OpenChallenge,
    // ---- Play order ----
    /// Play order 1: playing a vowel reverses the order of play.
    VowelReverses,
    // ---- Team play ----
    /// Team play 1: a team wins if any member wins (teams in [`crate::rules::RuleSet`]'s config).
    Teams,
    // ---- Vowel collections ----
    /// Vowel collections 1: collect the vowels you play; all five wins the round.
    VowelCollection,
    /// Vowel collections 2: collections persist across rounds.
    PersistentCollections,
    /// Vowel collections 3: a five-vowel win makes everyone turn theirs in.
    CollectionsReset,
    /// Vowel collections 4: playing a vowel you hold loses it from your collection.
    VowelLoss,
    // ---- 2-D ----
    /// 2-D 1 and 2: crossing strings on a grid; closing a shape around a hole wins.
    TwoD,
}

impl Rule {
    /// Every rule, in the order of the rules document.
    pub const ALL: [Rule; 21] = [
        Rule::Tiles,
        Rule::OutOfTurn,
        Rule::Challenge,
        Rule::UndoLosingPlay,
        Rule::Metamorphism,
        Rule::WholeWords,
        Rule::VowelFill,
        Rule::NoPlurals,
        Rule::ConsonantStart,
        Rule::VowelCap,
        Rule::NoFrontConsonant,
        Rule::PalindromeLock,
        Rule::UnreachableGoals,
        Rule::OpenChallenge,
        Rule::VowelReverses,
        Rule::Teams,
        Rule::VowelCollection,
        Rule::PersistentCollections,
        Rule::CollectionsReset,
        Rule::VowelLoss,
        Rule::TwoD,
    ];

    /// The rules on when nothing is said.
    pub const DEFAULT: [Rule; 3] = [Rule::OutOfTurn, Rule::Challenge, Rule::UndoLosingPlay];

    /// The command-line name (`palindrome-lock`).
    pub fn name(self) -> &'static str {
        match self {
            Rule::Tiles => "tiles",
            Rule::OutOfTurn => "out-of-turn",
            Rule::Challenge => "challenge",
            Rule::UndoLosingPlay => "undo-losing-play",
            Rule::Metamorphism => "metamorphism",
            Rule::WholeWords => "whole-words",
            Rule::VowelFill => "vowel-fill",
            Rule::NoPlurals => "no-plurals",
            Rule::ConsonantStart => "consonant-start",
            Rule::VowelCap => "vowel-cap",
            Rule::NoFrontConsonant => "no-front-consonant",
            Rule::PalindromeLock => "palindrome-lock",
            Rule::UnreachableGoals => "unreachable-goals",
            Rule::OpenChallenge => "open-challenge",
            Rule::VowelReverses => "vowel-reverses",
            Rule::Teams => "teams",
            Rule::VowelCollection => "vowel-collection",
            Rule::PersistentCollections => "persistent-collections",
            Rule::CollectionsReset => "collections-reset",
            Rule::VowelLoss => "vowel-loss",
            Rule::TwoD => "two-d",
        }
    }

    /// The rule's name for people (`Palindrome lock`).
    pub fn title(self) -> &'static str {
        match self {
            Rule::OutOfTurn => "Out-of-turn play (a call puts the player out)",
            Rule::Challenge => "Challenges and bluffs",
            Rule::UndoLosingPlay => "Undo a losing play",
            Rule::Tiles => "Tiles (a pot of letters)",
            Rule::Metamorphism => "Metamorphism (round winner switches a rule)",
            Rule::WholeWords => "Whole words only",
            Rule::VowelFill => "Vowel fill",
            Rule::NoPlurals => "No plurals",
            Rule::ConsonantStart => "Consonant start (first three letters)",
            Rule::VowelCap => "No more vowels than consonants",
            Rule::NoFrontConsonant => "No consonant added in front (after three letters)",
            Rule::PalindromeLock => "Palindrome lock",
            Rule::UnreachableGoals => "Unreachable goal words allowed",
            Rule::OpenChallenge => "Open challenges (anyone may challenge)",
            Rule::VowelReverses => "A vowel reverses the order of play",
            Rule::Teams => "Team play",
            Rule::VowelCollection => "Vowel collections",
            Rule::PersistentCollections => "Collections persist across rounds",
            Rule::CollectionsReset => "A five-vowel win resets every collection",
            Rule::VowelLoss => "Playing a vowel you hold loses it",
            Rule::TwoD => "2-D (crossing strings)",
        }
    }

    /// Whether the rule changes which strings and goal words are valid
    /// (the "language" of the game), rather than how a table plays.
    pub fn shapes_strings(self) -> bool {
        matches!(
            self,
            Rule::Tiles
                | Rule::WholeWords
                | Rule::VowelFill
                | Rule::NoPlurals
                | Rule::ConsonantStart
                | Rule::VowelCap
                | Rule::NoFrontConsonant
                | Rule::PalindromeLock
                | Rule::UnreachableGoals
        )
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown rule name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule {given:?}: known rules are {}", Rule::ALL.iter().map(|r| r.name()).collect::<Vec<_>>().join(", "))]
pub struct UnknownRule {
    /// The name given.
    pub given: String,
}

impl FromStr for Rule {
    type Err = UnknownRule;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key = s.trim().to_ascii_lowercase().replace('_', "-");
        Rule::ALL
            .into_iter()
            .find(|r| r.name() == key)
            .ok_or_else(|| UnknownRule {
                given: s.to_string(),
            })
    }
}

/// The set of active optional rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RuleSet(pub BTreeSet<Rule>);

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet(Rule::DEFAULT.into_iter().collect())
    }
}

impl RuleSet {
    /// No optional rule at all: the four core rules only.
    pub fn core() -> Self {
        RuleSet(BTreeSet::new())
    }

    /// Whether `rule` is on.
    pub fn has(&self, rule: Rule) -> bool {
        self.0.contains(&rule)
    }

    /// Turns `rule` on or off.
    pub fn set(&mut self, rule: Rule, on: bool) {
        if on {
            self.0.insert(rule);
        } else {
            self.0.remove(&rule);
        }
    }

    /// Applies command-line switches: `NAME` turns a rule on, `no-NAME`
    /// turns it off, `core` clears every optional rule, `strict` turns
    /// `out-of-turn` off (out-of-turn plays are refused). A rule whose own
    /// name starts with `no-` (`no-plurals`, `no-front-consonant`) is turned
    /// on by its name and off by `no-no-plurals`.
    pub fn apply_switch(&mut self, switch: &str) -> Result<(), UnknownRule> {
        let s = switch.trim();
        if s.eq_ignore_ascii_case("core") {
            self.0.clear();
            return Ok(());
        }
        if s.eq_ignore_ascii_case("strict") {
            // Out-of-turn plays are refused instead of being played.
            self.set(Rule::OutOfTurn, false);
            return Ok(());
        }
        if let Ok(rule) = s.parse::<Rule>() {
            self.set(rule, true);
            return Ok(());
        }
        match s.strip_prefix("no-") {
            Some(name) => self.set(name.parse()?, false),
            None => self.set(s.parse()?, true),
        }
        Ok(())
    }

    /// Only the rules that shape valid strings (see [`Rule::shapes_strings`]).
    pub fn string_rules(&self) -> RuleSet {
        RuleSet(
            self.0
                .iter()
                .copied()
                .filter(|r| r.shapes_strings())
                .collect(),
        )
    }
}

/// A pot of tiles: how many of each letter a..z.
///
/// Written as letters with counts, `a9 b2 c2 ...`; a letter left out has
/// no tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pot(pub [u16; 26]);

impl Pot {
    /// The default distribution: the 98 lettered tiles of a crossword
    /// tile game (no blanks): a9 b2 c2 d4 e12 f2 g3 h2 i9 j1 k1 l4 m2 n6
    /// o8 p2 q1 r6 s4 t6 u4 v2 w2 x1 y2 z1.
    pub const STANDARD: Pot = Pot([
        9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1,
    ]);

    /// Tiles of `letter` (b'a'..=b'z') in the pot.
    pub fn count(&self, letter: u8) -> u16 {
        self.0[(letter - b'a') as usize]
    }

    /// Whether the pot can spell `s` (lowercase a-z).
    pub fn can_spell(&self, s: &[u8]) -> bool {
        let mut need = [0u16; 26];
        for &c in s {
            let i = (c - b'a') as usize;
            need[i] += 1;
            if need[i] > self.0[i] {
                return false;
            }
        }
        true
    }
}

impl Default for Pot {
    fn default() -> Self {
        Pot::STANDARD
    }
}

impl fmt::Display for Pot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = (0..26)
            .filter(|&i| self.0[i] > 0)
            .map(|i| format!("{}{}", (b'a' + i as u8) as char, self.0[i]))
            .collect();
        f.write_str(&parts.join(" "))
    }
}

/// A pot written wrongly.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad tile pot {given:?} at {at:?}: write letters with counts, like \"a9 b2 c2\"")]
pub struct BadPot {
    /// The whole text.
    pub given: String,
    /// The part that could not be read.
    pub at: String,
}

impl FromStr for Pot {
    type Err = BadPot;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut pot = [0u16; 26];
        for part in s
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|p| !p.is_empty())
        {
            let bad = || BadPot {
                given: s.to_string(),
                at: part.to_string(),
            };
            let mut chars = part.chars();
            let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
            if !letter.is_ascii_lowercase() {
                return Err(bad());
            }
            let n: u16 = chars.as_str().parse().map_err(|_| bad())?;
            pot[(letter as u8 - b'a') as usize] = n;
        }
        Ok(Pot(pot))
    }
}

impl Serialize for Pot {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Pot {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The vowels of a table (`aeiou` unless configured otherwise).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Vowels(u32);

impl Vowels {
    /// Whether `letter` (b'a'..=b'z') is a vowel.
    pub fn is_vowel(&self, letter: u8) -> bool {
        letter.is_ascii_lowercase() && self.0 & (1 << (letter - b'a')) != 0
    }
    /// The vowels, in alphabetical order.
    pub fn letters(&self) -> Vec<u8> {
        (b'a'..=b'z').filter(|&c| self.is_vowel(c)).collect()
    }
}

impl Default for Vowels {
    fn default() -> Self {
        Vowels::try_from("aeiou".to_string()).expect("aeiou are letters")
    }
}

impl TryFrom<String> for Vowels {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let mut mask = 0u32;
        for c in s.chars() {
            let c = c.to_ascii_lowercase();
            if !c.is_ascii_lowercase() {
                return Err(format!("vowels must be letters a-z, got {c:?} in {s:?}"));
            }
            mask |= 1 << (c as u8 - b'a');
        }
        if mask == 0 {
            return Err("at least one vowel is needed".into());
        }
        Ok(Vowels(mask))
    }
}

impl From<Vowels> for String {
    fn from(v: Vowels) -> String {
        v.letters().into_iter().map(char::from).collect()
    }
}
