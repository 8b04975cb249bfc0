//! Word Sprout under the shared conformance suite
//! ([`parlor_core::conformance`]): the configs it is run with and the extra
//! actions random play cannot list (out-of-turn plays, calls, challenges,
//! proofs, rule choices, grid crossings, junk), shared by the tests and
//! `parlor conformance wordsprout`. Word Sprout has no hidden information,
//! so it declares no secrets.

use crate::{Action, Config, Rule, RuleSet, WordSprout};
use parlor_core::conformance::Suite;
use parlor_core::{Actor, Game, GameRng, Seat};

/// The rule families the suite covers: none, the default, challenges with
/// out-of-turn play, tiles, vowel collections, metamorphism, whole words,
/// palindrome locks, vowel fill, start rules, plurals, teams, 2-D.
pub fn rule_sets() -> Vec<Vec<Rule>> {
    use Rule::*;
    vec![
        vec![],
        Rule::DEFAULT.to_vec(),
        vec![Tiles, Challenge, UndoLosingPlay, OutOfTurn],
        vec![OpenChallenge, VowelReverses, OutOfTurn, UndoLosingPlay],
        vec![Challenge, OutOfTurn, VowelCollection, VowelLoss, Tiles],
        vec![
            Metamorphism,
            Challenge,
            OutOfTurn,
            VowelCollection,
            PersistentCollections,
            CollectionsReset,
            UndoLosingPlay,
        ],
        vec![Challenge, WholeWords],
        vec![Challenge, PalindromeLock, UndoLosingPlay],
        vec![VowelFill, OutOfTurn],
        vec![ConsonantStart, VowelCap, NoFrontConsonant, Challenge],
        vec![NoPlurals, UnreachableGoals, Challenge, OutOfTurn],
        vec![Teams, Challenge, OutOfTurn, VowelReverses, UndoLosingPlay],
        vec![TwoD, Challenge, OutOfTurn, UndoLosingPlay],
        vec![TwoD],
    ]
}

/// A config with `rules` for `players` seats on the word list `lexicon`
/// (teams of alternate seats under [`Rule::Teams`], three rounds under
/// [`Rule::Metamorphism`]).
pub fn config(rules: &[Rule], players: usize, lexicon: &str) -> Config {
    let mut c = Config {
        players,
        lexicon: lexicon.into(),
        rules: RuleSet(rules.iter().copied().collect()),
        ..Config::default()
    };
    if c.rules.has(Rule::Teams) {
        c.teams = (0..2)
            .map(|t| (0..players).filter(|s| s % 2 == t).collect())
            .collect();
        if players < 2 {
            c.teams.clear();
        }
    }
    if c.rules.has(Rule::Metamorphism) {
        c.rounds = Some(3);
    }
    c
}

/// Every rule family with 2, 3 and 4 players, on `lexicon`.
pub fn configs(lexicon: &str) -> Vec<Config> {
    let mut out = Vec::new();
    for rules in rule_sets() {
        for players in [2, 3, 4] {
            out.push(config(&rules, players, lexicon));
        }
    }
    out
}

/// [`configs`] without those [`too_costly`](crate::judge::too_costly) on
/// `lexicon` (vowel fill on a long list), which a host refuses.
pub fn configs_within(lexicon: &parlor_lexicon::Lexicon) -> Vec<Config> {
    configs(lexicon.name())
        .into_iter()
        .filter(|c| crate::judge::too_costly(lexicon, &c.rules).is_none())
        .collect()
}

const PROOFS: &[&str] = &["oat", "tomato", "cat", "level", "rhythm", "boxes", "aa"];

/// A random submission by a random actor: insertions into the string from
/// any seat (out of turn), calls, challenges, concessions, proofs, rule
/// choices, grid crossings, junk.
pub fn extra(g: &WordSprout, rng: &mut GameRng) -> Option<(Actor, Action)> {
    let seats = g.seats();
    let actor = if rng.chance(0.05) {
        Actor::Referee
    } else {
        Actor::Seat(Seat(rng.below(seats + 1)))
    };
    let action = match rng.below(9) {
        7 => Action::Cross {
            line: rng.below(3),
            index: rng.below(6),
            letter: (b'a' + rng.below(27) as u8) as char,
            before: rng.chance(0.5),
        },
        0 | 1 => {
            let mut t = g.string().as_bytes().to_vec();
            let at = rng.below(t.len() + 1);
            t.insert(at, b'a' + rng.below(26) as u8);
            Action::Play {
                string: String::from_utf8(t).unwrap_or_default(),
            }
        }
        2 => Action::Call,
        3 => Action::Challenge,
        4 => Action::Concede,
        5 => Action::Prove {
            word: PROOFS[rng.below(PROOFS.len())].to_string(),
        },
        6 => Action::ChooseRule {
            rule: Some(Rule::ALL[rng.below(Rule::ALL.len())]),
        },
        _ => Action::Play {
            string: ["", "É", "0", "omat ", "xx", "Tomato"][rng.below(6)].to_string(),
        },
    };
    Some((actor, action))
}

/// The suite for `config` with [`extra`] actions.
pub fn suite(config: Config) -> Suite<'static, WordSprout> {
    Suite::new(config).extra(0.3, extra)
}
