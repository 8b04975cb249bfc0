//! The computer players: perfect where solved, legal always, challenging
//! invalid plays, answering challenges.

use parlor_core::{
    Actor, Agent, AgentContext, Budget, Game, Level, Match, RandomAgent, Resources, Seat, ToAct,
    Viewer,
};
use parlor_lexicon::Lexicon;
use parlor_wordsprout::language::Language;
use parlor_wordsprout::solve::Solution;
use parlor_wordsprout::{Action, Config, Rule, RuleSet, WordSprout};
use std::sync::Arc;

const WORDS: &[&str] = &[
    "oat",
    "tomato",
    "wombat",
    "bombastic",
    "aromatic",
    "cat",
    "act",
    "tact",
    "attic",
    "level",
    "radar",
    "civic",
    "strength",
    "rhythm",
    "zebra",
    "quiz",
    "jazz",
    "taco",
    "coat",
    "boat",
    "abcde",
    "afghi",
    "ejklm",
    "inopm",
];

fn resources() -> (Resources, Lexicon) {
    let (lex, _) = Lexicon::from_words("bots", WORDS.iter().copied()).unwrap();
    (
        Resources::embedded().with_lexicon(Arc::new(lex.clone())),
        lex,
    )
}

fn config(rules: &[Rule], players: usize) -> Config {
    Config {
        players,
        lexicon: "bots".into(),
        rules: RuleSet(rules.iter().copied().collect()),
        ..Config::default()
    }
}

fn decide(m: &Match<WordSprout>, agent: &mut dyn Agent<WordSprout>, seat: Seat) -> Option<Action> {
    let view = m.state().view(Viewer::Seat(seat));
    let legal = m.state().legal_actions(seat);
    agent.choose(&AgentContext {
        seat,
        view: &view,
        legal: legal.as_deref(),
        budget: Budget::nodes(100_000),
    })
}

/// Plays to the end with one agent per seat; every bot action must be accepted.
fn play_out(m: &mut Match<WordSprout>, agents: &mut [Box<dyn Agent<WordSprout>>]) {
    for _ in 0..500 {
        let ToAct::One(seat) = m.state().to_act() else {
            return;
        };
        let action = decide(m, agents[seat.0].as_mut(), seat).unwrap_or(Action::Concede);
        m.apply(Actor::Seat(seat), action.clone())
            .unwrap_or_else(|e| panic!("{seat} {action:?}: {e}"));
    }
    panic!("the game did not end");
}

#[test]
fn the_best_bot_wins_every_game_it_can_win() {
    let (res, lex) = resources();
    for rules in [vec![], vec![Rule::Challenge, Rule::UndoLosingPlay]] {
        let cfg = config(&rules, 2);
        let lang = Language::new(&lex, &cfg.rules.string_rules(), &cfg.pot, &cfg.vowels);
        let first_wins = Solution::solve(&lang).first_player_wins();
        let best_seat = if first_wins { 0 } else { 1 };
        for seed in 0..20 {
            let mut m = Match::<WordSprout>::new(cfg.clone(), seed, &res).unwrap();
            let best = WordSprout::agent(&cfg, Level::Best, seed, &res).unwrap();
            let random: Box<dyn Agent<WordSprout>> = Box::new(RandomAgent::new(seed));
            let mut agents = if best_seat == 0 {
                vec![best, random]
            } else {
                vec![random, best]
            };
            play_out(&mut m, &mut agents);
            assert_eq!(
                m.state().outcome().unwrap().winners(),
                &[Seat(best_seat)],
                "seed {seed}, rules {rules:?}"
            );
        }
    }
}

#[test]
fn bots_of_every_level_finish_games_under_many_rules() {
    let (res, _) = resources();
    let sets: Vec<Vec<Rule>> = vec![
        Rule::DEFAULT.to_vec(),
        vec![
            Rule::Tiles,
            Rule::Challenge,
            Rule::VowelReverses,
            Rule::UndoLosingPlay,
        ],
        vec![Rule::OpenChallenge, Rule::VowelCollection, Rule::VowelLoss],
        vec![Rule::Metamorphism, Rule::Challenge],
        vec![Rule::PalindromeLock, Rule::Challenge],
        vec![Rule::VowelFill, Rule::ConsonantStart],
        vec![Rule::TwoD, Rule::Challenge],
    ];
    for rules in sets {
        for players in [2, 3, 4] {
            for level in Level::ALL {
                let cfg = config(&rules, players);
                let mut m = Match::<WordSprout>::new(cfg.clone(), 7, &res).unwrap();
                let mut agents: Vec<Box<dyn Agent<WordSprout>>> = (0..players)
                    .map(|s| WordSprout::agent(&cfg, level, s as u64, &res).unwrap())
                    .collect();
                play_out(&mut m, &mut agents);
                assert!(m.state().outcome().is_some());
            }
        }
    }
}

#[test]
fn bots_challenge_bluffs_and_defend_valid_plays() {
    let (res, _) = resources();
    let cfg = config(&Rule::DEFAULT, 2);
    let mut m = Match::<WordSprout>::new(cfg.clone(), 1, &res).unwrap();
    m.apply(Actor::Seat(Seat(0)), Action::Play { string: "q".into() })
        .unwrap();
    // "q" is in "quiz": valid. A strong bot does not challenge it; player 1
    // bluffs on; the bot challenges the bluff.
    let mut bot = WordSprout::agent(&cfg, Level::Best, 1, &res).unwrap();
    let a = decide(&m, bot.as_mut(), Seat(1)).unwrap();
    assert!(matches!(a, Action::Play { .. }), "{a:?}");
    m.apply(Actor::Seat(Seat(1)), a).unwrap();
    m.apply(Actor::Seat(Seat(0)), Action::Challenge).unwrap();
    let answer = decide(&m, bot.as_mut(), Seat(1)).unwrap();
    assert!(matches!(answer, Action::Prove { .. }), "{answer:?}");
    m.apply(Actor::Seat(Seat(1)), answer).unwrap();
    assert_eq!(m.state().outcome().unwrap().winners(), &[Seat(1)]);

    let mut m = Match::<WordSprout>::new(cfg.clone(), 1, &res).unwrap();
    m.apply(Actor::Seat(Seat(0)), Action::Play { string: "x".into() })
        .unwrap();
    assert_eq!(decide(&m, bot.as_mut(), Seat(1)), Some(Action::Challenge));
}

#[test]
fn bots_call_out_of_turn_plays() {
    let (res, _) = resources();
    let cfg = config(&Rule::DEFAULT, 3);
    let mut m = Match::<WordSprout>::new(cfg.clone(), 1, &res).unwrap();
    m.apply(Actor::Seat(Seat(0)), Action::Play { string: "o".into() })
        .unwrap();
    m.apply(
        Actor::Seat(Seat(2)),
        Action::Play {
            string: "oa".into(),
        },
    )
    .unwrap();
    let mut bot = WordSprout::agent(&cfg, Level::Hard, 1, &res).unwrap();
    assert_eq!(decide(&m, bot.as_mut(), Seat(1)), Some(Action::Call));
}

#[test]
fn bots_close_shapes_in_2d() {
    let (res, _) = resources();
    let cfg = config(&[Rule::TwoD], 2);
    let mut m = Match::<WordSprout>::new(cfg.clone(), 1, &res).unwrap();
    let script: Vec<Action> = vec![
        Action::Play { string: "a".into() },
        Action::Play {
            string: "ab".into(),
        },
        Action::Play {
            string: "abc".into(),
        },
        Action::Play {
            string: "abcd".into(),
        },
        Action::Play {
            string: "abcde".into(),
        },
        Action::Cross {
            line: 0,
            index: 0,
            letter: 'f',
            before: false,
        },
        Action::Play {
            string: "afg".into(),
        },
        Action::Play {
            string: "afgh".into(),
        },
        Action::Play {
            string: "afghi".into(),
        },
        Action::Cross {
            line: 0,
            index: 4,
            letter: 'j',
            before: false,
        },
        Action::Play {
            string: "ejk".into(),
        },
        Action::Play {
            string: "ejkl".into(),
        },
        Action::Play {
            string: "ejklm".into(),
        },
        Action::Cross {
            line: 1,
            index: 4,
            letter: 'n',
            before: false,
        },
        Action::Play {
            string: "ino".into(),
        },
    ];
    for (i, a) in script.into_iter().enumerate() {
        m.apply(Actor::Seat(Seat(i % 2)), a).unwrap();
    }
    let mut bot = WordSprout::agent(&cfg, Level::Medium, 3, &res).unwrap();
    let a = decide(&m, bot.as_mut(), Seat(1)).unwrap();
    assert_eq!(
        a,
        Action::Play {
            string: "inop".into()
        }
    );
}

#[test]
fn a_strong_bot_switches_to_rules_it_wins_next_round() {
    let (res, lex) = resources();
    let mut cfg = config(&[Rule::Metamorphism], 2);
    cfg.rounds = Some(2);
    let mut m = Match::<WordSprout>::new(cfg.clone(), 1, &res).unwrap();
    m.apply(Actor::Seat(Seat(0)), Action::Play { string: "o".into() })
        .unwrap();
    m.apply(Actor::Seat(Seat(1)), Action::Concede).unwrap();
    let mut bot = WordSprout::agent(&cfg, Level::Best, 1, &res).unwrap();
    let Some(Action::ChooseRule { rule }) = decide(&m, bot.as_mut(), Seat(0)) else {
        panic!("a rule choice")
    };
    // Player 2 starts round 2: the rules chosen make the first player lose,
    // if any candidate does.
    let mut rules = cfg.rules.clone();
    if let Some(r) = rule {
        rules.set(r, !rules.has(r));
    }
    let lang = Language::new(&lex, &rules.string_rules(), &cfg.pot, &cfg.vowels);
    let base = Language::new(&lex, &cfg.rules.string_rules(), &cfg.pot, &cfg.vowels);
    if Solution::solve(&base).first_player_wins() {
        assert!(
            !Solution::solve(&lang).first_player_wins()
                || rule.is_none()
                || rule == Some(Rule::Challenge),
            "{rule:?}"
        );
    } else {
        assert_eq!(rule, None, "keeping the rules already wins");
    }
}
