//! Property tests: random play by every seat (in turn and out of turn,
//! bluffs, calls, challenges, proofs, junk) never panics, a refused action
//! changes nothing, records replay identically and serialise round trip;
//! the conformance suite under the string-shaping variants.

use parlor_core::{conformance, Actor, Game, GameRng, Match, Record, Resources, Seat, ToAct};
use parlor_lexicon::Lexicon;
use parlor_wordsprout::{Action, Config, Rule, WordSprout};
use proptest::prelude::*;
use std::sync::Arc;

const WORDS: &[&str] = &[
    "oat",
    "tomato",
    "wombat",
    "bombastic",
    "aromatic",
    "cat",
    "cats",
    "act",
    "tact",
    "attic",
    "level",
    "radar",
    "civic",
    "strength",
    "rhythm",
    "bikes",
    "boxes",
    "aa",
    "abcde",
    "afghi",
    "ejklm",
    "inopm",
];

fn resources() -> Resources {
    let (lex, _) = Lexicon::from_words("props", WORDS.iter().copied()).unwrap();
    Resources::embedded().with_lexicon(Arc::new(lex))
}

/// A config on the test list (the conformance module's rule families).
fn config(rules: &[Rule], players: usize) -> Config {
    parlor_wordsprout::conformance::config(rules, players, "props")
}

/// A random action by a random actor: listed actions of the seat to act,
/// else the conformance module's out-of-turn insertions, calls,
/// challenges, junk.
fn random_step(m: &Match<WordSprout>, rng: &mut GameRng) -> (Actor, Action) {
    if rng.chance(0.6) {
        if let ToAct::One(seat) = m.state().to_act() {
            let legal = m.state().legal_actions(seat).unwrap();
            if !legal.is_empty() {
                return (Actor::Seat(seat), legal[rng.below(legal.len())].clone());
            }
        }
    }
    parlor_wordsprout::conformance::extra(m.state(), rng).expect("always a submission")
}

fn play_chaos(cfg: &Config, seed: u64, res: &Resources) {
    let mut m = Match::<WordSprout>::new(cfg.clone(), seed, res).unwrap();
    let mut rng = GameRng::from_seed(seed);
    for _ in 0..400 {
        if m.state().to_act() == ToAct::Over {
            assert!(m.state().outcome().is_some());
            break;
        }
        let (actor, action) = random_step(&m, &mut rng);
        let before = conformance::views(m.state());
        let len = m.record().actions.len();
        if m.apply(actor, action.clone()).is_err() {
            assert_eq!(
                conformance::views(m.state()),
                before,
                "refused {action:?} changed the state"
            );
            assert_eq!(m.record().actions.len(), len);
        }
    }
    let json = m.record().to_json();
    let back = Record::<WordSprout>::from_json(&json).unwrap();
    assert_eq!(&back, m.record());
    let again = Match::<WordSprout>::replay(&back, res).unwrap();
    assert_eq!(
        conformance::views(again.state()),
        conformance::views(m.state())
    );
}

/// The conformance suite, with extra actions from every seat, over every
/// rule family with 2 to 4 players: 10,000 games in all, in four tests so
/// the test runner spreads them over the cores (`parlor conformance
/// wordsprout` runs more).
fn conformance_part(part: usize) {
    let res = resources();
    let configs = parlor_wordsprout::conformance::configs("props");
    let per = 10_000u64.div_ceil(configs.len() as u64);
    let mut games = 0;
    for (i, cfg) in configs.into_iter().enumerate() {
        if i % 4 != part {
            continue;
        }
        let from = i as u64 * 1_000_000;
        games += parlor_wordsprout::conformance::suite(cfg)
            .check(from..from + per, &res)
            .games;
    }
    assert!(games >= 2_300, "{games}");
}

#[test]
fn conformance_under_every_rule_family_0() {
    conformance_part(0);
}

#[test]
fn conformance_under_every_rule_family_1() {
    conformance_part(1);
}

#[test]
fn conformance_under_every_rule_family_2() {
    conformance_part(2);
}

#[test]
fn conformance_under_every_rule_family_3() {
    conformance_part(3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn chaos_from_every_seat_never_breaks_a_game(seed in any::<u64>(), which in 0usize..14, players in 2usize..6) {
        let res = resources();
        let sets = parlor_wordsprout::conformance::rule_sets();
        play_chaos(&config(&sets[which % sets.len()], players), seed, &res);
    }

    #[test]
    fn arbitrary_action_json_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let _ = serde_json::from_slice::<Action>(&bytes);
        let _ = Record::<WordSprout>::from_json(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn arbitrary_plays_and_words_are_refused_cleanly(s in "\\PC{0,12}", w in "\\PC{0,12}") {
        let res = resources();
        let mut m = Match::<WordSprout>::new(config(&Rule::DEFAULT, 2), 1, &res).unwrap();
        let _ = m.apply(Actor::Seat(Seat(0)), Action::Play { string: s.clone() });
        let _ = m.apply(Actor::Seat(Seat(1)), Action::Challenge);
        let _ = m.apply(Actor::Seat(Seat(0)), Action::Prove { word: w });
        let _ = m.apply(Actor::Seat(Seat(1)), Action::Play { string: s });
    }
}

#[test]
fn action_json_round_trips() {
    for a in [
        Action::Play {
            string: "omat".into(),
        },
        Action::Challenge,
        Action::Prove {
            word: "tomato".into(),
        },
        Action::Concede,
        Action::Call,
        Action::ChooseRule {
            rule: Some(Rule::PalindromeLock),
        },
        Action::ChooseRule { rule: None },
    ] {
        let j = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<Action>(&j).unwrap(), a, "{j}");
    }
    assert_eq!(
        serde_json::to_string(&Action::Play {
            string: "omat".into()
        })
        .unwrap(),
        r#"{"type":"play","string":"omat"}"#
    );
}
