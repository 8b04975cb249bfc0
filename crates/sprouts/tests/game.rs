//! The parlor table: turns, outcomes under both conventions, refusals and
//! their kinds, the `=POSITION` form, the registry.

use parlor_core::{
    Actor, ErrorKind, Game, GameError, Match, Registry, Resources, Seat, ToAct, Viewer,
};
use parlor_sprouts::{Action, Config, Position, Sprouts};

fn table(spots: u32, misere: bool) -> Sprouts {
    Sprouts::new(
        &Config {
            spots,
            misere,
            ..Config::default()
        },
        0,
        &Resources::embedded(),
    )
    .unwrap()
}

fn play(g: &mut Sprouts, moves: &[&str]) {
    for (k, m) in moves.iter().enumerate() {
        g.apply(Actor::Seat(Seat(k % 2)), Action::new(*m)).unwrap();
    }
}

#[test]
fn the_documents_game_at_a_table() {
    for misere in [false, true] {
        let mut g = table(2, misere);
        play(&mut g, &["1(3)2", "1(4)2", "1(5)4", "2(6)3"]);
        assert_eq!(g.to_act(), ToAct::Over);
        // Seat 1 (the second player) moved last.
        let winner = g.outcome().unwrap().winners()[0];
        assert_eq!(winner, if misere { Seat(0) } else { Seat(1) });
        let view = g.view(Viewer::Spectator);
        assert_eq!(view.moves.len(), 4);
        assert_eq!(
            view.record,
            format!(
                "2{} 1(3)2 1(4)2 1(5)4 2(6)3 {}",
                if misere { "-" } else { "+" },
                if misere { "I" } else { "II" }
            )
        );
        assert_eq!(view.lives, 2);
    }
}

#[test]
fn refusals_have_kinds_and_change_nothing() {
    let mut g = table(3, false);
    let before = g.clone();
    let kind = |g: &mut Sprouts, actor: Actor, text: &str| {
        g.apply(actor, Action::new(text)).unwrap_err().kind()
    };
    assert_eq!(
        kind(&mut g, Actor::Seat(Seat(1)), "1(4)2"),
        ErrorKind::NotYourTurn
    );
    assert_eq!(
        kind(&mut g, Actor::Referee, "1(4)2"),
        ErrorKind::NotYourTurn
    );
    assert_eq!(
        kind(&mut g, Actor::Seat(Seat(0)), "1(4"),
        ErrorKind::Malformed
    );
    assert_eq!(
        kind(&mut g, Actor::Seat(Seat(0)), "1(5)2"),
        ErrorKind::Illegal
    );
    // A loop at 1 with 2 and 3 on different sides needs [L].
    play(&mut g, &["1(4)1[2]"]);
    let mut h = table(3, false);
    assert_eq!(
        kind(&mut h, Actor::Seat(Seat(0)), "1(4)1[9]"),
        ErrorKind::Illegal
    );
    assert_eq!(h, before);
    // After 1(4)2, joining 3 to 4 can be drawn from either of 4's corners,
    // both in the one region: the corner flags default, nothing ambiguous.
    let mut k = table(3, false);
    play(&mut k, &["1(4)2", "3(5)4"]);
    assert!(Sprouts::new(
        &Config {
            spots: 0,
            misere: false,
            ..Config::default()
        },
        0,
        &Resources::embedded()
    )
    .is_err());
    assert!(Sprouts::new(
        &Config {
            spots: 33,
            misere: false,
            ..Config::default()
        },
        0,
        &Resources::embedded()
    )
    .is_err());
}

#[test]
fn a_position_names_a_move_too() {
    let mut g = table(2, false);
    let after = "3,1,3,2";
    g.apply(Actor::Seat(Seat(0)), Action::new(format!("={after}")))
        .unwrap();
    assert_eq!(g.view(Viewer::Spectator).moves, vec!["1(3)2".to_string()]);
    assert_eq!(g.position(), &Position::parse(after).unwrap());
    // Not one move away.
    let e = g
        .apply(Actor::Seat(Seat(1)), Action::new("=3,1,3,2"))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Illegal);
    let e = g
        .apply(Actor::Seat(Seat(1)), Action::new("=1;;2"))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Malformed);
}

#[test]
fn every_listed_action_is_written_in_notation() {
    let mut g = table(5, false);
    let mut seat = 0;
    while g.to_act() != ToAct::Over {
        let acts = g.legal_actions(Seat(seat)).unwrap();
        assert!(!acts.is_empty());
        assert!(acts.iter().all(|a| !a.text().starts_with('=')), "{acts:?}");
        assert_eq!(
            g.legal_actions(Seat(1 - seat)).unwrap(),
            Vec::<Action>::new()
        );
        g.apply(Actor::Seat(Seat(seat)), acts[acts.len() - 1].clone())
            .unwrap();
        seat = 1 - seat;
    }
    assert!(g.view(Viewer::Seat(Seat(0))).moves.len() < 15);
}

#[test]
fn registered_and_replayed_over_json() {
    let mut registry = Registry::new();
    registry.register::<Sprouts>();
    let entry = registry.get("sprouts").unwrap();
    let res = Resources::embedded();
    let mut m = entry
        .new_match(&serde_json::json!({"spots": 2, "misere": true}), 1, &res)
        .unwrap();
    m.apply_json(Actor::Seat(Seat(0)), &serde_json::json!("1(3)2"))
        .unwrap();
    let e = m
        .apply_json(Actor::Seat(Seat(1)), &serde_json::json!({"move": 1}))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Malformed);
    let mut typed = Match::<Sprouts>::new(
        Config {
            spots: 2,
            misere: true,
            ..Config::default()
        },
        1,
        &res,
    )
    .unwrap();
    typed
        .apply(Actor::Seat(Seat(0)), Action::new("1(3)2"))
        .unwrap();
    assert_eq!(
        m.view_json(Viewer::Spectator),
        serde_json::to_value(typed.state().view(Viewer::Spectator)).unwrap()
    );
}

#[test]
fn resigning_ends_the_game_for_the_other_seat() {
    for misere in [false, true] {
        let mut g = table(3, misere);
        play(&mut g, &["1(4)2"]);
        assert_eq!(g.forfeit(Seat(0)), None);
        assert_eq!(g.forfeit(Seat(1)), Some(Action::new("resign")));
        let e = g
            .apply(Actor::Seat(Seat(0)), Action::new("resign"))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NotYourTurn);
        g.apply(Actor::Referee, Action::new("resign")).unwrap();
        assert_eq!(g.to_act(), ToAct::Over);
        assert_eq!(g.outcome().unwrap().winners(), &[Seat(0)]);
        assert!(g.view(Viewer::Spectator).record.ends_with(" I"));
    }
}

/// A table may go on from a record (`start`): the record's moves are its
/// first moves, and play continues from there; a record of another game,
/// a finished one, or not a record at all is refused as a bad setting
/// naming `start`.
#[test]
fn a_table_goes_on_from_a_record() {
    let config = |spots, misere, start: &str| Config {
        spots,
        misere,
        start: Some(start.to_string()),
    };
    let r = Resources::embedded();
    let mut g = Sprouts::new(&config(2, false, "2+ 1(3)2 1(4)2"), 0, &r).unwrap();
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.moves, vec!["1(3)2", "1(4)2"]);
    assert_eq!(v.to_move, Some(Seat(0)));
    let expected = Position::parse("4,2,3,1/4,1,3,2").unwrap();
    assert_eq!(
        parlor_sprouts::canonical(g.position()),
        parlor_sprouts::canonical(&expected)
    );
    g.apply(Actor::Seat(Seat(0)), Action::new("1(5)4")).unwrap();
    g.apply(Actor::Seat(Seat(1)), Action::new("2(6)3")).unwrap();
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.winner, Some(Seat(1)));
    assert_eq!(v.record, "2+ 1(3)2 1(4)2 1(5)4 2(6)3 II");
    // An empty start is a new game.
    let fresh = Sprouts::new(&config(2, false, "  "), 0, &r).unwrap();
    assert!(fresh.view(Viewer::Spectator).moves.is_empty());
    for (cfg, says) in [
        (config(3, false, "2+ 1(3)2"), "2 spots at normal play"),
        (config(2, true, "2+ 1(3)2"), "set spots and misère to match"),
        (config(2, false, "2+ 1(3)2 1(4)2 1(5)4 2(6)3"), "is over"),
        (config(2, false, "2+ 1(3)2 1(9)2"), "move 2"),
        (config(2, false, "hello"), "not a WGOSA record"),
        (config(2, false, &"1(3)2 ".repeat(1000)), "at most 4000"),
    ] {
        let e = Sprouts::new(&cfg, 0, &r).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadSetting, "{}", e.message);
        assert!(e.message.starts_with("start: "), "{}", e.message);
        assert!(e.message.contains(says), "{}: {}", says, e.message);
    }
}

/// The view tells every spot's lives (0: dead) and each move in words, and
/// the move's event carries its words too: a page draws both without
/// counting lines or working out what a line encloses. Moves from a
/// `start` record and moves written as a position have words as well.
#[test]
fn the_view_tells_lives_per_spot_and_moves_in_words() {
    let mut g = table(3, false);
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.spot_lives, [(1, 3), (2, 3), (3, 3)].into_iter().collect());
    assert!(v.words.is_empty());
    let events = g
        .apply(Actor::Seat(Seat(0)), Action::new("1(4)1[2]"))
        .unwrap();
    let json = serde_json::to_value(&events[0]).unwrap();
    assert_eq!(
        json["words"],
        "drew a loop at 1 with new spot 4, enclosing spot 2"
    );
    // The loop uses two of 1's lives; with a line to 2, 1 is dead.
    g.apply(Actor::Seat(Seat(1)), Action::new("1(5)2")).unwrap();
    let v = g.view(Viewer::Spectator);
    assert_eq!(
        v.spot_lives,
        [(1, 0), (2, 2), (3, 3), (4, 1), (5, 1)]
            .into_iter()
            .collect()
    );
    assert_eq!(v.words.len(), v.moves.len());
    assert_eq!(v.words[1], "joined 1 to 2 with new spot 5");
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["spot_lives"]["1"], 0);
    assert_eq!(json["spot_lives"]["2"], 2);

    // A move written as a position.
    let mut g = table(2, false);
    g.apply(Actor::Seat(Seat(0)), Action::new("=3,1,3,2"))
        .unwrap();
    assert_eq!(
        g.view(Viewer::Spectator).words,
        ["joined 1 to 2 with new spot 3"]
    );
    // Moves from a start record.
    let config = Config {
        spots: 2,
        misere: false,
        start: Some("2+ 1(3)2 1(4)2".into()),
    };
    let g = Sprouts::new(&config, 0, &Resources::embedded()).unwrap();
    assert_eq!(
        g.view(Viewer::Spectator).words,
        [
            "joined 1 to 2 with new spot 3",
            "joined 1 to 2 with new spot 4, enclosing nothing"
        ]
    );
}

#[test]
fn every_listed_move_is_told_in_words_for_players_who_choose_from_the_list() {
    let mut g = table(3, false);
    play(&mut g, &["1(4)2", "1(5)3"]);
    let listed = g.legal_actions(Seat(0)).unwrap();
    let words = g.view(Viewer::Spectator).legal_words;
    assert_eq!(words.len(), listed.len());
    for a in &listed {
        let w = &words[a.text()];
        assert!(
            w.starts_with("joined") || w.starts_with("drew a loop"),
            "{} {w}",
            a.text()
        );
        assert!(w.contains("new spot 6"), "{} {w}", a.text());
    }
    while g.to_act() != ToAct::Over {
        let seat = match g.to_act() {
            ToAct::One(s) => s,
            other => panic!("{other:?}"),
        };
        let a = g.legal_actions(seat).unwrap()[0].clone();
        g.apply(Actor::Seat(seat), a).unwrap();
    }
    assert!(
        g.view(Viewer::Spectator).legal_words.is_empty(),
        "nothing to choose once over"
    );
}
