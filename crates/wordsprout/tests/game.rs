//! The rules of play, one test per rule, on small word lists.

use parlor_core::{conformance, Actor, Game, Match, Record, Resources, Seat, ToAct, Viewer};
use parlor_lexicon::Lexicon;
use parlor_wordsprout::{
    Action, Config, Error, Event, OutReason, Phase, Pot, Rule, RuleSet, WordSprout,
};
use std::sync::Arc;

fn resources(name: &str, words: &[&str]) -> Resources {
    let (lex, _) = Lexicon::from_words(name, words.iter().copied()).unwrap();
    Resources::embedded().with_lexicon(Arc::new(lex))
}

/// The word list of the rules page's example: "bombastic" has no extension.
fn example_words() -> Resources {
    resources("example", &["oat", "tomato", "wombat", "bombastic"])
}

fn config(players: usize, rules: &[Rule]) -> Config {
    Config {
        players,
        lexicon: "example".into(),
        rules: RuleSet(rules.iter().copied().collect()),
        ..Config::default()
    }
}

fn seat(i: usize) -> Actor {
    Actor::Seat(Seat(i))
}

fn play(s: &str) -> Action {
    Action::Play { string: s.into() }
}

const EXAMPLE: [&str; 9] = [
    "o",
    "oa",
    "oat",
    "omat",
    "ombat",
    "ombast",
    "bombast",
    "bombasti",
    "bombastic",
];

#[test]
fn the_worked_example_replays_and_player_1_wins() {
    for rules in [RuleSet::core(), RuleSet::default()] {
        let res = example_words();
        let cfg = Config {
            rules: rules.clone(),
            ..config(2, &[])
        };
        let mut m = Match::<WordSprout>::new(cfg, 1, &res).unwrap();
        for (i, s) in EXAMPLE.iter().enumerate() {
            assert_eq!(m.state().to_act(), ToAct::One(Seat(i % 2)), "turn {i}");
            m.apply(seat(i % 2), play(s))
                .unwrap_or_else(|e| panic!("{s}: {e}"));
        }
        // Player 2 cannot add a letter to "bombastic".
        let legal = m.state().legal_actions(Seat(1)).unwrap();
        if !rules.has(Rule::Challenge) {
            assert_eq!(legal, vec![Action::Concede]);
        }
        m.apply(seat(1), Action::Concede).unwrap();
        assert_eq!(m.state().to_act(), ToAct::Over);
        assert_eq!(m.state().outcome().unwrap().winners(), &[Seat(0)]);
        let again =
            Match::<WordSprout>::replay(&Record::from_json(&m.record().to_json()).unwrap(), &res)
                .unwrap();
        assert_eq!(
            conformance::views(again.state()),
            conformance::views(m.state())
        );
    }
}

#[test]
fn invalid_play_without_challenges_is_refused_with_the_reason() {
    let res = example_words();
    let mut m = Match::<WordSprout>::new(config(2, &[]), 1, &res).unwrap();
    let e = m.apply(seat(0), play("q")).unwrap_err();
    assert!(matches!(e, Error::Invalid { .. }), "{e}");
    assert!(e.to_string().contains("no valid goal word contains"), "{e}");
    let e = m.apply(seat(0), play("ab")).unwrap_err();
    assert!(matches!(e, Error::NotAnInsertion { .. }), "{e}");
    // Strict: out of turn is refused.
    let e = m.apply(seat(1), play("o")).unwrap_err();
    assert!(matches!(e, Error::NotYourTurn { .. }), "{e}");
    assert_eq!(m.record().actions.len(), 0);
}

#[test]
fn a_bluff_stands_until_challenged_and_the_loser_play_is_undone() {
    let res = example_words();
    let mut m =
        Match::<WordSprout>::new(config(3, &[Rule::Challenge, Rule::UndoLosingPlay]), 1, &res)
            .unwrap();
    m.apply(seat(0), play("o")).unwrap();
    m.apply(seat(1), play("oq")).unwrap(); // a bluff
    assert_eq!(m.state().string(), "oq");
    m.apply(seat(2), Action::Challenge).unwrap();
    assert_eq!(m.state().to_act(), ToAct::One(Seat(1)));
    let e = m
        .apply(
            seat(1),
            Action::Prove {
                word: "tomato".into(),
            },
        )
        .unwrap_err();
    assert!(matches!(e, Error::BadProof { .. }), "{e}");
    let ev = m.apply(seat(1), Action::Concede).unwrap();
    assert!(ev.contains(&Event::Out {
        seat: Seat(1),
        reason: OutReason::LostChallenge
    }));
    assert_eq!(m.state().string(), "o", "the bluff is undone");
    // Play resumes with the player who would have been next: player 3.
    assert_eq!(m.state().to_act(), ToAct::One(Seat(2)));
    // A valid play, challenged: the challenger goes out.
    m.apply(seat(2), play("oa")).unwrap();
    m.apply(seat(0), Action::Challenge).unwrap();
    let e = m
        .apply(
            seat(2),
            Action::Prove {
                word: "wombat".into(),
            },
        )
        .unwrap_err();
    assert!(e.to_string().contains("does not contain"), "{e}");
    let ev = m
        .apply(seat(2), Action::Prove { word: "oat".into() })
        .unwrap();
    assert!(ev.contains(&Event::Out {
        seat: Seat(0),
        reason: OutReason::FailedChallenge
    }));
    assert_eq!(m.state().outcome().unwrap().winners(), &[Seat(2)]);
}

#[test]
fn out_of_turn_play_called_puts_its_player_out_and_keeps_the_order() {
    let res = example_words();
    let mut m = Match::<WordSprout>::new(
        config(3, &RuleSet::default().0.into_iter().collect::<Vec<_>>()),
        1,
        &res,
    )
    .unwrap();
    m.apply(seat(0), play("o")).unwrap(); // player 2 to move
    m.apply(seat(2), play("oa")).unwrap(); // player 3 out of turn
    assert_eq!(
        m.state().to_act(),
        ToAct::One(Seat(0)),
        "play goes on after the out-of-turn player"
    );
    assert!(m
        .state()
        .legal_actions(Seat(1))
        .unwrap()
        .contains(&Action::Call));
    let e = m.apply(seat(2), Action::Call).unwrap_err();
    assert!(e.to_string().contains("your own"), "{e}");
    let ev = m.apply(seat(1), Action::Call).unwrap();
    assert!(ev.contains(&Event::Out {
        seat: Seat(2),
        reason: OutReason::OutOfTurn
    }));
    assert_eq!(m.state().string(), "o");
    assert_eq!(
        m.state().to_act(),
        ToAct::One(Seat(1)),
        "player 2 was to move"
    );
}

#[test]
fn out_of_turn_play_stands_once_the_next_player_plays() {
    let res = example_words();
    let mut m =
        Match::<WordSprout>::new(config(3, &[Rule::OutOfTurn, Rule::UndoLosingPlay]), 1, &res)
            .unwrap();
    m.apply(seat(0), play("o")).unwrap();
    m.apply(seat(2), play("oa")).unwrap();
    m.apply(seat(0), play("oat")).unwrap();
    let e = m.apply(seat(1), Action::Call).unwrap_err();
    assert!(e.to_string().contains("in turn"), "{e}");
    assert_eq!(m.state().to_act(), ToAct::One(Seat(1)));
}

#[test]
fn tiles_run_out_and_come_back_when_a_play_is_undone() {
    let res = example_words();
    let mut cfg = config(3, &[Rule::Tiles, Rule::Challenge, Rule::UndoLosingPlay]);
    cfg.pot = "o1 a2 t3 q1 m2 b2".parse::<Pot>().unwrap();
    let mut m = Match::<WordSprout>::new(cfg, 1, &res).unwrap();
    m.apply(seat(0), play("o")).unwrap();
    assert!(matches!(
        m.apply(seat(1), play("oo")).unwrap_err(),
        Error::NoTile { letter: 'o' }
    ));
    m.apply(seat(1), play("oq")).unwrap();
    assert!(matches!(
        m.apply(seat(2), play("oqq")).unwrap_err(),
        Error::NoTile { letter: 'q' }
    ));
    m.apply(seat(2), Action::Challenge).unwrap();
    m.apply(seat(1), Action::Concede).unwrap();
    let view = m.state().view(Viewer::Spectator);
    assert_eq!(
        view.pot.unwrap().count(b'q'),
        1,
        "the q went back to the pot"
    );
}

#[test]
fn vowels_reverse_the_order_and_undo_restores_it() {
    let res = resources("v", &["abcde", "xbcdy"]);
    let mut cfg = config(
        4,
        &[Rule::VowelReverses, Rule::Challenge, Rule::UndoLosingPlay],
    );
    cfg.lexicon = "v".into();
    let mut m = Match::<WordSprout>::new(cfg, 1, &res).unwrap();
    m.apply(seat(0), play("c")).unwrap();
    assert_eq!(m.state().to_act(), ToAct::One(Seat(1)));
    m.apply(seat(1), play("cd")).unwrap();
    m.apply(seat(2), play("cde")).unwrap(); // vowel: back to player 2
    assert_eq!(m.state().to_act(), ToAct::One(Seat(1)));
    m.apply(seat(1), play("bcde")).unwrap();
    assert_eq!(m.state().to_act(), ToAct::One(Seat(0)));
    m.apply(seat(0), play("bcdez")).unwrap(); // a bluff
    m.apply(seat(3), Action::Challenge).unwrap();
    m.apply(seat(0), Action::Concede).unwrap();
    // Had player 1 not been involved, player 4 would be next (order still reversed).
    assert_eq!(m.state().to_act(), ToAct::One(Seat(3)));
    m.apply(seat(3), play("abcde")).unwrap(); // vowel: forward again
    assert_eq!(m.state().to_act(), ToAct::One(Seat(1)));
}

#[test]
fn a_reversing_play_undone_restores_the_direction() {
    let res = resources("v", &["abcde", "xbcdy"]);
    let mut cfg = config(
        4,
        &[Rule::VowelReverses, Rule::Challenge, Rule::UndoLosingPlay],
    );
    cfg.lexicon = "v".into();
    let mut m = Match::<WordSprout>::new(cfg, 1, &res).unwrap();
    m.apply(seat(0), play("c")).unwrap();
    m.apply(seat(1), play("ca")).unwrap(); // a bluff with a vowel: reverses
    assert_eq!(m.state().to_act(), ToAct::One(Seat(0)));
    m.apply(seat(0), Action::Challenge).unwrap();
    m.apply(seat(1), Action::Concede).unwrap();
    assert!(m.state().view(Viewer::Spectator).forward);
    assert_eq!(m.state().to_act(), ToAct::One(Seat(2)));
}

#[test]
fn a_team_wins_when_any_member_is_left() {
    let res = example_words();
    let mut cfg = config(4, &[Rule::Teams]);
    cfg.teams = vec![vec![0, 2], vec![1, 3]];
    let mut m = Match::<WordSprout>::new(cfg, 1, &res).unwrap();
    m.apply(seat(0), play("o")).unwrap();
    m.apply(seat(1), Action::Concede).unwrap();
    assert_eq!(m.state().to_act(), ToAct::One(Seat(2)));
    m.apply(seat(2), play("oa")).unwrap();
    m.apply(seat(3), Action::Concede).unwrap();
    assert_eq!(m.state().outcome().unwrap().winners(), &[Seat(0), Seat(2)]);
}

#[test]
fn teams_must_cover_every_seat() {
    let res = example_words();
    let mut cfg = config(3, &[Rule::Teams]);
    cfg.teams = vec![vec![0], vec![1]];
    let e = WordSprout::new(&cfg, 1, &res).unwrap_err();
    assert!(e.message.contains("seat 2"), "{e}");
}

#[test]
fn collecting_every_vowel_wins_the_round() {
    let res = resources("c", &["aeiou", "uoiea"]);
    let mut cfg = config(2, &[Rule::VowelCollection]);
    cfg.lexicon = "c".into();
    let mut m = Match::<WordSprout>::new(cfg, 1, &res).unwrap();
    for (i, s) in ["i", "ei", "eio", "aeio"].iter().enumerate() {
        m.apply(seat(i % 2), play(s)).unwrap();
    }
    let v = m.state().view(Viewer::Spectator);
    assert_eq!(v.collections, vec!["io", "ae"]);
    m.apply(seat(0), play("aeiou")).unwrap();
    assert_eq!(m.state().view(Viewer::Spectator).collections[0], "iou");
    assert_eq!(m.state().to_act(), ToAct::One(Seat(1)));
}

#[test]
fn with_tiles_the_last_vowel_tile_is_played_without_collecting() {
    let res = resources("c", &["aeiou", "uoiea"]);
    let mut cfg = config(2, &[Rule::VowelCollection, Rule::Tiles]);
    cfg.lexicon = "c".into();
    cfg.pot = "a2 e1 i2 o2 u2".parse().unwrap();
    let mut m = Match::<WordSprout>::new(cfg, 1, &res).unwrap();
    m.apply(seat(0), play("i")).unwrap();
    let v = m.state().view(Viewer::Spectator);
    assert_eq!(v.collections[0], "i");
    assert_eq!(v.pot.unwrap().count(b'i'), 0, "one i played, one collected");
    let ev = m.apply(seat(1), play("ei")).unwrap();
    assert!(ev.contains(&Event::LastTile {
        seat: Seat(1),
        vowel: 'e'
    }));
}

#[test]
fn the_five_vowel_win() {
    let res = resources("c", &["aeiouaeiou"]);
    let mut cfg = config(2, &[Rule::VowelCollection]);
    cfg.lexicon = "c".into();
    let mut m = Match::<WordSprout>::new(cfg, 1, &res).unwrap();
    // Player 1 plays a, i, u, e, o (positions in "aeiouaeiou").
    for (i, s) in [
        "a",
        "ae",
        "aei",
        "aeio",
        "aeiou",
        "aeioua",
        "aeiouae",
        "aeiouaei",
        "aeiouaeio",
    ]
    .iter()
    .enumerate()
    {
        m.apply(seat(i % 2), play(s)).unwrap();
        if m.state().to_act() == ToAct::Over {
            break;
        }
    }
    // a i u e o by player 1 (plays 1, 3, 5, 7, 9): the 9th completes.
    let o = m.state().outcome().expect("over");
    assert_eq!(o.winners(), &[Seat(0)]);
}

#[test]
fn open_challenge_of_an_invalid_play_wins_the_round() {
    let res = example_words();
    let mut m = Match::<WordSprout>::new(config(3, &[Rule::OpenChallenge]), 1, &res).unwrap();
    m.apply(seat(0), play("o")).unwrap();
    m.apply(seat(1), play("oz")).unwrap();
    let e = m.apply(seat(1), Action::Challenge).unwrap_err();
    assert!(e.to_string().contains("own"), "{e}");
    m.apply(seat(0), Action::Challenge).unwrap(); // not player 1's turn: open challenge
    m.apply(seat(1), Action::Concede).unwrap();
    assert_eq!(m.state().outcome().unwrap().winners(), &[Seat(0)]);
}

#[test]
fn metamorphism_lets_the_winner_switch_a_rule_between_rounds() {
    let res = example_words();
    let mut cfg = config(2, &[Rule::Metamorphism]);
    cfg.rounds = Some(2);
    let mut m = Match::<WordSprout>::new(cfg, 1, &res).unwrap();
    m.apply(seat(0), play("o")).unwrap();
    m.apply(seat(1), Action::Concede).unwrap();
    assert_eq!(m.state().phase(), &Phase::ChoosingRule { seat: Seat(0) });
    let e = m
        .apply(
            seat(0),
            Action::ChooseRule {
                rule: Some(Rule::Teams),
            },
        )
        .unwrap_err();
    assert!(matches!(e, Error::RuleNotSwitchable { .. }), "{e}");
    m.apply(
        seat(0),
        Action::ChooseRule {
            rule: Some(Rule::WholeWords),
        },
    )
    .unwrap();
    assert!(m.state().rules().has(Rule::WholeWords));
    assert_eq!(
        m.state().to_act(),
        ToAct::One(Seat(1)),
        "round 2 starts with player 2"
    );
    assert!(m.apply(seat(1), play("o")).is_err(), "whole words only now");
    m.apply(seat(1), Action::Concede).unwrap();
    let o = m.state().outcome().unwrap();
    assert_eq!(o.winners(), &[Seat(0)]);
    assert_eq!(o.scores, Some(vec![2, 0]));
}

#[test]
fn views_never_tell_whether_the_string_is_valid() {
    let res = example_words();
    let mut a = Match::<WordSprout>::new(config(2, &[Rule::Challenge]), 1, &res).unwrap();
    let mut b = a.clone();
    a.apply(seat(0), play("o")).unwrap();
    b.apply(seat(0), play("q")).unwrap();
    let strip = |m: &Match<WordSprout>| {
        conformance::views(m.state())
            .join("\n")
            .replace("\"q\"", "\"o\"")
    };
    assert_eq!(strip(&a), strip(&b));
}

fn rule_sets() -> Vec<Vec<Rule>> {
    vec![
        vec![],
        Rule::DEFAULT.to_vec(),
        vec![Rule::Tiles, Rule::Challenge, Rule::UndoLosingPlay],
        vec![Rule::OpenChallenge, Rule::VowelReverses, Rule::OutOfTurn],
        vec![
            Rule::Challenge,
            Rule::VowelCollection,
            Rule::VowelLoss,
            Rule::Tiles,
            Rule::UndoLosingPlay,
        ],
        vec![
            Rule::Metamorphism,
            Rule::Challenge,
            Rule::VowelCollection,
            Rule::PersistentCollections,
            Rule::CollectionsReset,
        ],
        vec![Rule::Challenge, Rule::WholeWords],
    ]
}

#[test]
fn random_legal_play_conforms() {
    let res = resources(
        "small",
        &[
            "oat",
            "tomato",
            "wombat",
            "bombastic",
            "aromatic",
            "cat",
            "act",
            "tact",
            "attic",
        ],
    );
    for rules in rule_sets() {
        for players in [2, 3] {
            let mut cfg = config(players, &rules);
            cfg.lexicon = "small".into();
            conformance::check::<WordSprout>(&cfg, 0..6, &res, &mut conformance::no_extra);
        }
    }
    let mut cfg = config(4, &[Rule::Teams, Rule::Challenge]);
    cfg.lexicon = "small".into();
    cfg.teams = vec![vec![0, 1], vec![2, 3]];
    conformance::check::<WordSprout>(&cfg, 0..6, &res, &mut conformance::no_extra);
}

#[test]
fn two_d_closing_a_shape_around_a_hole_wins() {
    let res = resources("grid", &["abcde", "afghi", "ejklm", "inopm"]);
    let mut cfg = config(2, &[Rule::TwoD]);
    cfg.lexicon = "grid".into();
    let mut m = Match::<WordSprout>::new(cfg, 1, &res).unwrap();
    let cross = |line, index, letter| Action::Cross {
        line,
        index,
        letter,
        before: false,
    };
    let mut turn = 0;
    let mut go = |m: &mut Match<WordSprout>, a: Action| {
        m.apply(seat(turn % 2), a.clone())
            .unwrap_or_else(|e| panic!("{a:?}: {e}"));
        turn += 1;
    };
    for s in ["a", "ab", "abc", "abcd"] {
        go(&mut m, play(s));
    }
    // Not yet: "abcd" is no complete word.
    let e = m.apply(seat(0), cross(0, 0, 'f')).unwrap_err();
    assert!(e.to_string().contains("complete word"), "{e}");
    go(&mut m, play("abcde"));
    go(&mut m, cross(0, 0, 'f'));
    assert_eq!(m.state().string(), "af");
    for s in ["afg", "afgh", "afghi"] {
        go(&mut m, play(s));
    }
    go(&mut m, cross(0, 4, 'j'));
    for s in ["ejk", "ejkl", "ejklm"] {
        go(&mut m, play(s));
    }
    go(&mut m, cross(1, 4, 'n'));
    go(&mut m, play("ino"));
    // "inop" touches the m of "ejklm": the ring closes around a hole.
    assert_eq!(m.state().to_act(), ToAct::One(Seat(1)));
    let events = m.apply(seat(1), play("inop")).unwrap();
    assert!(events.iter().any(|e| matches!(
        e,
        Event::RoundWon {
            reason: parlor_wordsprout::WinReason::ClosedShape,
            ..
        }
    )));
    assert_eq!(m.state().outcome().unwrap().winners(), &[Seat(1)]);
    let board = m.state().view(Viewer::Spectator).board.unwrap();
    assert_eq!(
        board.render(),
        "A B C D E\nF . . . J\nG . . . K\nH . . . L\nI N O P M\n"
    );
}

#[test]
fn strict_is_out_of_turn_off() {
    let mut r = RuleSet::default();
    r.apply_switch("strict").unwrap();
    assert!(!r.has(Rule::OutOfTurn));
    let res = example_words();
    let mut m = Match::<WordSprout>::new(
        Config {
            rules: r,
            ..config(3, &[])
        },
        1,
        &res,
    )
    .unwrap();
    m.apply(seat(0), play("o")).unwrap();
    let e = m.apply(seat(2), play("oa")).unwrap_err();
    assert!(
        matches!(
            e,
            Error::NotYourTurn {
                expected: Seat(1),
                got: Seat(2)
            }
        ),
        "{e}"
    );
}

#[test]
fn palindrome_lock_allows_two_letters_and_demands_palindromes() {
    let res = resources("pal", &["level", "eleven"]);
    let mut cfg = config(2, &[Rule::PalindromeLock]);
    cfg.lexicon = "pal".into();
    let mut m = Match::<WordSprout>::new(cfg, 1, &res).unwrap();
    m.apply(seat(0), play("v")).unwrap();
    m.apply(seat(1), play("ev")).unwrap();
    let e = m.apply(seat(0), play("leve")).unwrap_err();
    assert!(
        matches!(e, Error::NotAnInsertion { max: 1, .. }),
        "not locked yet: {e}"
    );
    m.apply(seat(0), play("eve")).unwrap(); // a palindrome at the end of turn 3: locked
    assert_eq!(m.state().view(Viewer::Spectator).max_letters, 2);
    assert!(m
        .state()
        .legal_actions(Seat(1))
        .unwrap()
        .contains(&play("level")));
    let e = m.apply(seat(1), play("evel")).unwrap_err();
    assert!(e.to_string().contains("palindrome"), "{e}");
    m.apply(seat(1), play("level")).unwrap();
    assert_eq!(m.state().to_act(), ToAct::One(Seat(0)));
}

#[test]
fn the_helper_opens_after_the_round_or_with_hints() {
    let res = example_words();
    let mut m = Match::<WordSprout>::new(config(2, &[]), 1, &res).unwrap();
    m.apply(seat(0), play("o")).unwrap();
    let ask = serde_json::json!({"string": "omat", "solve": true});
    let closed = parlor_core::DynMatch::assist_json(
        &m,
        Viewer::Seat(Seat(1)),
        &ask,
        &parlor_core::Budget::UNLIMITED,
    );
    assert!(closed.unwrap_err().to_string().contains("after the round"));
    // The view tells the page when the helper is open: the page decides nothing.
    assert!(!m.state().view(Viewer::Seat(Seat(1))).helper_open);

    for (i, s) in EXAMPLE.iter().enumerate().skip(1) {
        m.apply(seat(i % 2), play(s)).unwrap();
    }
    m.apply(seat(1), Action::Concede).unwrap();
    assert_eq!(m.state().to_act(), ToAct::Over);
    assert!(m.state().view(Viewer::Spectator).helper_open);
    let answer = parlor_core::DynMatch::assist_json(
        &m,
        Viewer::Spectator,
        &ask,
        &parlor_core::Budget::UNLIMITED,
    )
    .unwrap();
    let results: Vec<&str> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["tomat", "ombat", "omato"]);
    assert_eq!(answer["solved"], true);
    // Solved: every move carries a verdict.
    assert!(answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["wins"].is_boolean()));
    // The current string is the default; malformed requests say what is accepted.
    let current = parlor_core::DynMatch::assist_json(
        &m,
        Viewer::Spectator,
        &serde_json::json!({}),
        &parlor_core::Budget::UNLIMITED,
    )
    .unwrap();
    assert_eq!(current["string"], "bombastic");
    assert_eq!(current["moves"].as_array().unwrap().len(), 0);
    let bad = parlor_core::DynMatch::assist_json(
        &m,
        Viewer::Spectator,
        &serde_json::json!({"strng": 1}),
        &parlor_core::Budget::UNLIMITED,
    );
    assert!(bad
        .unwrap_err()
        .to_string()
        .contains("a helper query is like {\"string\""));

    let open = Config {
        hints: true,
        ..config(2, &[])
    };
    let m = Match::<WordSprout>::new(open, 1, &res).unwrap();
    assert!(m.state().view(Viewer::Seat(Seat(0))).helper_open);
    let answer = parlor_core::DynMatch::assist_json(
        &m,
        Viewer::Seat(Seat(0)),
        &serde_json::json!({}),
        &parlor_core::Budget::UNLIMITED,
    )
    .unwrap();
    let letters: String = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["letter"].as_str().unwrap())
        .collect();
    assert_eq!(
        letters, "abcimostw",
        "the letters of oat, tomato, wombat, bombastic"
    );
}

#[test]
fn a_forfeit_puts_the_absent_seat_out_and_play_goes_on() {
    let res = example_words();
    let mut m = Match::<WordSprout>::new(config(3, &[]), 1, &res).unwrap();
    m.apply(seat(0), play("o")).unwrap();
    // Seat 1 must act: only it can be forfeited.
    assert_eq!(m.state().forfeit(Seat(0)), None);
    assert_eq!(m.state().forfeit(Seat(2)), None);
    let f = m.state().forfeit(Seat(1)).expect("seat 1 is to act");
    assert_eq!(f, Action::Concede);
    let events = m.apply(Actor::Referee, f).unwrap();
    assert!(events.contains(&Event::Out {
        seat: Seat(1),
        reason: OutReason::Referee
    }));
    // The game goes on without seat 1.
    assert!(!m.state().is_active(Seat(1)));
    assert_eq!(m.state().to_act(), ToAct::One(Seat(2)));
    m.apply(seat(2), play("oa")).unwrap();
    assert_eq!(m.state().to_act(), ToAct::One(Seat(0)), "seat 1 is skipped");
    m.apply(seat(0), play("oat")).unwrap();
    // Seat 2 leaves too: seat 0 is the last one standing and wins.
    let f = m.state().forfeit(Seat(2)).unwrap();
    m.apply(Actor::Referee, f).unwrap();
    assert_eq!(m.state().to_act(), ToAct::Over);
    let o = m.state().outcome().unwrap();
    assert_eq!(o.winners(), &[Seat(0)]);
    assert_eq!(o.ranking, vec![vec![Seat(0)], vec![Seat(2)], vec![Seat(1)]]);
    assert_eq!(m.state().forfeit(Seat(0)), None, "over");
    // The record replays to the same result.
    let again = Match::<WordSprout>::replay(m.record(), &res).unwrap();
    assert_eq!(again.state().outcome(), Some(o));
}

#[test]
fn a_forfeit_answers_a_challenge_and_waits_for_the_last_round() {
    let res = example_words();
    // Two players, challenges on: seat 0 must answer and has left.
    let mut m = Match::<WordSprout>::new(config(2, &[Rule::Challenge]), 1, &res).unwrap();
    m.apply(seat(0), play("q")).unwrap();
    m.apply(seat(1), Action::Challenge).unwrap();
    assert_eq!(m.state().forfeit(Seat(1)), None);
    let f = m.state().forfeit(Seat(0)).unwrap();
    m.apply(Actor::Referee, f).unwrap();
    assert_eq!(m.state().outcome().unwrap().winners(), &[Seat(1)]);

    // Several rounds: a concede would only take the seat out of one round.
    let mut cfg = config(2, &[]);
    cfg.rounds = Some(2);
    let mut m = Match::<WordSprout>::new(cfg, 1, &res).unwrap();
    assert_eq!(m.state().forfeit(Seat(0)), None, "round 1 of 2");
    m.apply(seat(0), play("o")).unwrap();
    m.apply(seat(1), Action::Concede).unwrap();
    assert_eq!(m.state().to_act(), ToAct::One(Seat(1)), "round 2");
    let f = m.state().forfeit(Seat(1)).expect("the last round");
    m.apply(Actor::Referee, f).unwrap();
    let o = m.state().outcome().unwrap();
    assert_eq!(o.winners(), &[Seat(0)]);
    assert_eq!(o.scores, Some(vec![2, 0]));
}

/// Found by the conformance suite: a crossing on string `usize::MAX` (JSON
/// `"line": 18446744073709551615`, a 2-D game whose strings are all
/// complete words) overflowed while its error was written.
#[test]
fn a_crossing_on_a_huge_line_is_refused_without_panicking() {
    let board = parlor_wordsprout::board::Board::new("tomato");
    for (line, index) in [(usize::MAX, 0), (0, usize::MAX), (usize::MAX, usize::MAX)] {
        let e = board.cross(line, index, 't', false).unwrap_err();
        assert!(e.to_string().starts_with("there is no letter"), "{e}");
    }
}
