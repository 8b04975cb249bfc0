//! Twin Grids played through: the opening, the pie rule, scores, the
//! refusals of rule 4, challenges and skipped turns, bots to the end.

use parlor_core::{Actor, AgentContext, Budget, Game, Level, Resources, Seat, ToAct, Viewer};
use parlor_twingrid::{Action, Config, Turn, TwinGrids};

fn settle(g: &mut TwinGrids) {
    while g.to_act() == ToAct::Chance {
        g.resolve_chance();
    }
}

fn new(config: Config, seed: u64) -> TwinGrids {
    let mut g = TwinGrids::new(&config, seed, &Resources::embedded()).unwrap();
    settle(&mut g);
    g
}

fn act(g: &mut TwinGrids, seat: usize, a: Action) -> Result<Vec<Turn>, parlor_twingrid::Error> {
    let r = g.apply(Actor::Seat(Seat(seat)), a);
    settle(g);
    r
}

fn play(word: &str, column: usize) -> Action {
    Action::Play {
        word: word.into(),
        column,
    }
}

fn open(column: usize, to: usize, points: u32) -> Action {
    Action::Open { column, to, points }
}

#[test]
fn the_opening_and_the_pie_rule() {
    let mut g = new(Config::default(), 3);
    let opening = g.opening().to_string();
    assert!((2..=9).contains(&opening.len()));
    assert_eq!(g.to_act(), ToAct::One(Seat(0)));
    // Too many points, a column off the grid, the other seat: refused.
    assert!(act(&mut g, 0, open(0, 1, 101)).is_err());
    assert!(act(&mut g, 0, open(9, 1, 5)).is_err());
    assert!(act(&mut g, 1, open(0, 1, 5)).is_err());
    act(&mut g, 0, open(0, 1, 7)).unwrap();
    assert_eq!(g.scores(), [0, 7]);
    assert_eq!(g.to_act(), ToAct::One(Seat(1)));
    // Seat 1 takes player 1's side: it now owns the opening grid and its 0
    // points, and seat 0 writes player 2's first word.
    act(&mut g, 1, Action::Pie { swap: true }).unwrap();
    assert_eq!(g.seat_of(), [1, 0]);
    assert_eq!(g.to_act(), ToAct::One(Seat(0)));
    // Player 2's first word scores its letters shared with the opening.
    let word = if opening.contains("zq") { "tea" } else { "zq" };
    let word = if g.refusal(word).is_some() {
        "qz"
    } else {
        word
    };
    act(&mut g, 0, play(word, 0)).unwrap();
    let shared = parlor_twingrid::grid::shared(word, &opening).0 as i64;
    assert_eq!(g.scores()[1], 7 + shared);
}

#[test]
fn no_word_twice_nor_one_containing_a_word_played() {
    let mut g = new(Config::default(), 5);
    act(&mut g, 0, open(0, 0, 0)).unwrap();
    act(&mut g, 1, Action::Pie { swap: false }).unwrap();
    act(&mut g, 1, play("cat", 0)).unwrap();
    // Player 1 (seat 0): "cat" again, "cats" (contains cat), no fit: refused.
    for (w, c) in [("cat", 0), ("cats", 0), ("tea", 7)] {
        let e = act(&mut g, 0, play(w, c)).unwrap_err();
        assert_eq!(
            parlor_core::GameError::kind(&e),
            parlor_core::ErrorKind::Illegal,
            "{w}: {e}"
        );
    }
    // "at" is inside cat but does not contain it: allowed.
    act(&mut g, 0, play("at", 3)).unwrap();
}

#[test]
fn challenges_zero_a_fake_word_and_skip_a_failed_challenger() {
    let mut g = new(Config::default(), 8);
    act(&mut g, 0, open(0, 0, 0)).unwrap();
    act(&mut g, 1, Action::Pie { swap: false }).unwrap();
    // A fake word by player 2 (seat 1), challenged by seat 0.
    act(&mut g, 1, play("qzxv", 0)).unwrap();
    let events = act(&mut g, 0, Action::Challenge).unwrap();
    assert!(
        matches!(&events[..], [Turn::Word { word, challenged: Some(true), .. }] if word == "qzxv"),
        "the challenge's event is the word with its verdict: {events:?}"
    );
    assert_eq!(g.scores()[1], 0, "the fake word scores nothing");
    assert_eq!(g.grids()[1].rows(), 1, "the fake word stays on the board");
    assert_eq!(g.to_act(), ToAct::One(Seat(0)), "the challenger plays on");
    // A real word, challenged: the challenger (seat 1) skips its turn.
    act(&mut g, 0, play("tea", 0)).unwrap();
    let events = act(&mut g, 1, Action::Challenge).unwrap();
    assert!(
        matches!(&events[0], Turn::Word { word, challenged: Some(false), .. } if word == "tea"),
        "{events:?}"
    );
    assert_eq!(g.to_act(), ToAct::One(Seat(0)), "seat 1's turn was skipped");
    assert!(g
        .log()
        .iter()
        .any(|t| matches!(t, Turn::Skipped { player: 1 })));
    // A word may be challenged once: playing lets it stand.
    act(&mut g, 0, play("sun", 0)).unwrap();
    act(&mut g, 1, play("ran", 0)).unwrap();
    assert!(act(&mut g, 0, Action::Challenge).is_ok());
    assert!(act(&mut g, 0, Action::Challenge).is_err(), "not twice");
}

#[test]
fn challenges_off_refuses_unknown_words() {
    let cfg = Config {
        challenges: false,
        ..Config::default()
    };
    let mut g = new(cfg, 1);
    act(&mut g, 0, open(0, 0, 0)).unwrap();
    act(&mut g, 1, Action::Pie { swap: false }).unwrap();
    let e = act(&mut g, 1, play("qzxv", 0)).unwrap_err();
    assert_eq!(
        parlor_core::GameError::kind(&e),
        parlor_core::ErrorKind::UnknownWord
    );
}

#[test]
fn bots_play_to_the_end_at_every_level() {
    let res = Resources::embedded();
    for (i, level) in [Level::Easy, Level::Medium, Level::Hard, Level::Best]
        .into_iter()
        .enumerate()
    {
        let cfg = Config {
            turns: 5,
            ..Config::default()
        };
        let mut g = new(cfg.clone(), i as u64);
        let mut bots: Vec<_> = (0..2)
            .map(|s| TwinGrids::agent(&cfg, level, s, &res).unwrap())
            .collect();
        let mut n = 0;
        while let ToAct::One(s) = g.to_act() {
            let view = g.view(Viewer::Seat(s));
            let legal = g.legal_actions(s);
            let ctx = AgentContext {
                seat: s,
                view: &view,
                legal: legal.as_deref(),
                budget: Budget::nodes(1),
            };
            let a = bots[s.0].choose(&ctx).expect("a bot always acts");
            act(&mut g, s.0, a.clone()).unwrap_or_else(|e| panic!("{level:?}: {a:?}: {e}"));
            n += 1;
            assert!(n < 40);
        }
        assert_eq!(g.to_act(), ToAct::Over);
        assert_eq!(g.grids()[0].rows() + g.grids()[1].rows(), 10);
        let out = g.outcome().unwrap();
        assert_eq!(out.ranking.iter().map(Vec::len).sum::<usize>(), 2);
    }
}

#[test]
fn the_helper_scores_a_placement_without_judging_the_word() {
    let mut g = new(Config::default(), 3);
    act(&mut g, 0, open(0, 0, 0)).unwrap();
    act(&mut g, 1, Action::Pie { swap: false }).unwrap();
    let budget = parlor_core::Budget::nodes(1);
    // As a host asks: the query read from JSON, the answer written as JSON.
    let ask = |g: &TwinGrids, v: Viewer, r: serde_json::Value| {
        let q: parlor_twingrid::Placement = serde_json::from_value(r).map_err(|e| e.to_string())?;
        g.assist(v, &q, &budget)
            .map(|a| serde_json::to_value(a).unwrap())
            .map_err(|e| e.to_string())
    };
    let a = ask(
        &g,
        Viewer::Seat(Seat(1)),
        serde_json::json!({"word": "qzxv", "column": 0}),
    )
    .unwrap();
    let shared = parlor_twingrid::grid::shared("qzxv", g.opening()).0;
    assert_eq!(
        a["score"]["score"], shared,
        "player 2's first word: shared letters alone"
    );
    assert_eq!(a["first"], true);
    assert!(a.get("in_dictionary").is_none());
    assert!(ask(
        &g,
        Viewer::Spectator,
        serde_json::json!({"word": "cat", "column": 0})
    )
    .is_err());
    assert!(ask(
        &g,
        Viewer::Seat(Seat(1)),
        serde_json::json!({"word": "cat", "column": 8})
    )
    .is_err());
    assert!(ask(
        &g,
        Viewer::Seat(Seat(1)),
        serde_json::json!({"word": "c4t", "column": 0})
    )
    .is_err());
    assert!(ask(&g, Viewer::Seat(Seat(1)), serde_json::json!("junk")).is_err());
}

#[test]
fn after_the_swap_each_seat_is_named_by_the_side_it_plays() {
    assert!(TwinGrids::seats_change_sides());
    let mut g = new(Config::default(), 3);
    let labels = |g: &TwinGrids| g.seat_labels().unwrap();
    assert_eq!(labels(&g), ["player 1", "player 2"]);
    act(&mut g, 0, open(0, 0, 0)).unwrap();
    act(&mut g, 1, Action::Pie { swap: true }).unwrap();
    assert_eq!(labels(&g), ["player 2", "player 1"]);
    // The view says the same of the viewer.
    assert_eq!(g.view(Viewer::Seat(Seat(0))).role, Some(1));
    let mut g = new(Config::default(), 3);
    act(&mut g, 0, open(0, 0, 0)).unwrap();
    act(&mut g, 1, Action::Pie { swap: false }).unwrap();
    assert_eq!(labels(&g), ["player 1", "player 2"]);
}

#[test]
fn accepting_the_last_word_is_a_turn_of_the_log() {
    let config = Config {
        turns: 2,
        ..Config::default()
    };
    let mut g = new(config, 5);
    act(&mut g, 0, open(0, 0, 0)).unwrap();
    act(&mut g, 1, Action::Pie { swap: true }).unwrap();
    // Seat 0 is player 2 now and moves last: its two words round player 1's.
    for (seat, word) in [(0, "qz"), (1, "zq"), (0, "xv")] {
        act(&mut g, seat, play(word, 0)).unwrap();
    }
    let view = g.view(Viewer::Spectator);
    assert_eq!(view.phase, "last_challenge");
    assert_eq!(view.to_play, Some(0), "player 1 (seat 1) may challenge");
    let events = act(&mut g, 1, Action::Accept).unwrap();
    assert_eq!(events, [Turn::Accepted { player: 0 }]);
    let view = g.view(Viewer::Spectator);
    assert_eq!(view.phase, "over");
    assert_eq!(view.log.last(), Some(&Turn::Accepted { player: 0 }));
    assert!(!view.can_challenge);
}

#[test]
fn the_vertical_reading_is_a_setting() {
    let c: Config =
        serde_json::from_value(serde_json::json!({"vertical": "whole_column"})).unwrap();
    assert_eq!(c.vertical, parlor_twingrid::grid::Vertical::WholeColumn);
    assert_eq!(
        Config::default().vertical,
        parlor_twingrid::grid::Vertical::EveryRun
    );
    assert!(
        serde_json::from_value::<Config>(serde_json::json!({"vertical": "crossword"})).is_err()
    );
    let setting = TwinGrids::settings()
        .into_iter()
        .find(|s| s.field == "vertical")
        .expect("offered in the lobby");
    assert!(setting.help.contains("whole column"));
}
