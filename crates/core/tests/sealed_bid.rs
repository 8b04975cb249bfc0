//! The test game's own tests (the game is `parlor_core::sealed_bid`).

use parlor_core::sealed_bid::{Action, Config, Error, Event, SealedBid};
use parlor_core::{
    conformance, Actor, Budget, Game, Level, Match, Record, RecordError, Registry, Resources, Seat,
    ToAct, Viewer,
};

fn seat(n: usize) -> Actor {
    Actor::Seat(Seat(n))
}

/// 10,000 games of the suite over three configs.
#[test]
fn conformance_suite() {
    let resources = Resources::embedded();
    let mut games = 0;
    for config in [
        Config::default(),
        Config { pile: 1, chips: 0 },
        Config {
            pile: 25,
            chips: 40,
        },
    ] {
        games += parlor_core::sealed_bid::conformance_suite(config)
            .check(0..3_334, &resources)
            .games;
    }
    assert!(games >= 10_000, "{games}");
}

#[test]
fn simultaneous_phase_hides_bids_until_both_are_in() {
    let r = Resources::embedded();
    let mut m = Match::<SealedBid>::new(Config::default(), 1, &r).unwrap();
    assert_eq!(
        m.state().to_act(),
        ToAct::Simultaneous(vec![Seat(0), Seat(1)])
    );
    // Seat 1 bids first: simultaneous means any order.
    m.apply(seat(1), Action::Bid(4)).unwrap();
    assert_eq!(m.state().to_act(), ToAct::Simultaneous(vec![Seat(0)]));
    let v0 = m.state().view(Viewer::Seat(Seat(0)));
    assert_eq!(v0.my_bid, None);
    assert!(v0.other_has_bid);
    let json = serde_json::to_string(&v0).unwrap();
    assert!(
        !json.contains('4'),
        "seat 0 never sees seat 1's bid of 4: {json}"
    );
    assert_eq!(m.state().view(Viewer::Seat(Seat(1))).my_bid, Some(4));
    assert_eq!(m.state().view(Viewer::Spectator).my_bid, None);
    // Bidding twice is refused and changes nothing.
    let before = conformance::views(m.state());
    assert_eq!(
        m.apply(seat(1), Action::Bid(1)),
        Err(Error::NotNow(seat(1)))
    );
    assert_eq!(conformance::views(m.state()), before);
    assert_eq!(
        m.apply(seat(0), Action::Bid(7)),
        Err(Error::TooManyChips(6))
    );
    m.apply(seat(0), Action::Bid(2)).unwrap();
    assert_eq!(m.state().to_act(), ToAct::One(Seat(1)));
    assert_eq!(m.state().chips(), [6, 2]);
}

#[test]
fn ties_are_chance_resolved_by_the_seed_and_replay_exactly() {
    let r = Resources::embedded();
    let mut winners = std::collections::BTreeSet::new();
    for seed in 0..32 {
        let mut m = Match::<SealedBid>::new(Config::default(), seed, &r).unwrap();
        m.apply(seat(0), Action::Bid(3)).unwrap();
        let events = m.apply(seat(1), Action::Bid(3)).unwrap();
        let Some(&Event::CoinFlip(w)) = events.last() else {
            panic!("tie flips a coin: {events:?}")
        };
        assert_eq!(m.state().to_act(), ToAct::One(w));
        winners.insert(w);
        let again =
            Match::<SealedBid>::replay(&Record::from_json(&m.record().to_json()).unwrap(), &r)
                .unwrap();
        assert_eq!(again.state(), m.state());
    }
    assert_eq!(
        winners.len(),
        2,
        "both seats win some coin flips over 32 seeds"
    );
}

#[test]
fn referee_adjudicates_and_seats_cannot() {
    let r = Resources::embedded();
    let mut m = Match::<SealedBid>::new(Config::default(), 3, &r).unwrap();
    assert_eq!(m.apply(seat(0), Action::Adjudicate), Err(Error::NotReferee));
    m.apply(seat(0), Action::Bid(1)).unwrap();
    m.apply(seat(1), Action::Bid(0)).unwrap();
    m.apply(seat(0), Action::Take(2)).unwrap();
    m.apply(Actor::Referee, Action::Adjudicate).unwrap();
    assert_eq!(m.state().to_act(), ToAct::Over);
    let outcome = m.state().outcome().unwrap();
    assert_eq!(outcome.winners(), &[Seat(0)]);
    assert_eq!(outcome.scores, Some(vec![2, 0]));
    assert!(m.apply(Actor::Referee, Action::Adjudicate).is_err());
}

#[test]
fn undo_takes_back_the_last_action() {
    let r = Resources::embedded();
    let mut m = Match::<SealedBid>::new(Config::default(), 3, &r).unwrap();
    m.apply(seat(0), Action::Bid(1)).unwrap();
    let snapshot = m.state().clone();
    m.apply(seat(1), Action::Bid(0)).unwrap();
    assert!(m.undo(&r));
    assert_eq!(m.state(), &snapshot);
    assert!(m.undo(&r));
    assert!(!m.undo(&r));
}

#[test]
fn records_refuse_tampering() {
    let r = Resources::embedded();
    let mut m = Match::<SealedBid>::new(Config::default(), 3, &r).unwrap();
    m.apply(seat(0), Action::Bid(1)).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&m.record().to_json()).unwrap();
    value["actions"][0]["action"] = serde_json::json!({"bid": 99});
    let bad = Record::<SealedBid>::from_value(value.clone()).unwrap();
    let err = Match::replay(&bad, &r).unwrap_err();
    assert!(
        matches!(err, RecordError::Refused { index: 1, .. }),
        "{err}"
    );
    value["format"] = serde_json::json!(99);
    assert!(matches!(
        Record::<SealedBid>::from_value(value.clone()),
        Err(RecordError::Version { found: 99 })
    ));
    value["format"] = serde_json::json!(1);
    value["game"] = serde_json::json!("nim");
    assert!(matches!(
        Record::<SealedBid>::from_value(value),
        Err(RecordError::WrongGame { .. })
    ));
    assert!(matches!(
        Record::<SealedBid>::from_json("{not json"),
        Err(RecordError::Malformed(_))
    ));
}

#[test]
fn registry_hosts_the_game_over_json() {
    let r = Resources::embedded();
    let mut registry = Registry::new();
    registry
        .register::<SealedBid>()
        .register::<parlor_core::doc_nim::Nim>();
    assert_eq!(registry.names(), vec!["nim", "sealed-bid"]);
    let err = registry.get("chess").err().unwrap().to_string();
    assert!(
        err.contains("unknown game \"chess\"") && err.contains("nim, sealed-bid"),
        "{err}"
    );

    let entry = registry.get("sealed-bid").unwrap();
    assert_eq!(
        entry.default_config(),
        serde_json::json!({"pile": 10, "chips": 6})
    );
    assert!(entry
        .new_match(&serde_json::json!({"pile": "lots"}), 1, &r)
        .is_err());
    assert!(entry
        .new_match(&serde_json::json!({"pile": 0}), 1, &r)
        .is_err());
    let mut m = entry
        .new_match(&serde_json::json!({"pile": 4}), 1, &r)
        .unwrap();

    // Malformed and illegal actions: clear errors, nothing changes.
    let e = m
        .apply_json(seat(0), &serde_json::json!({"jump": 1}))
        .unwrap_err();
    assert!(e.to_string().starts_with("not a sealed-bid action"), "{e}");
    let e = m
        .apply_json(seat(0), &serde_json::json!({"take": 1}))
        .unwrap_err();
    assert_eq!(e.to_string(), "player 1 may not act now");
    assert_eq!(m.actions_len(), 0);

    m.apply_json(seat(0), &serde_json::json!({"bid": 2}))
        .unwrap();
    let hidden = m.view_json(Viewer::Seat(Seat(1)));
    assert_eq!(hidden["my_bid"], serde_json::Value::Null);
    assert_eq!(m.view_json(Viewer::Seat(Seat(0)))["my_bid"], 2);

    // Bots choose from the seat's view and legal actions; one per seat,
    // kept for the whole game.
    let mut bots = [
        m.agent(Seat(0), Level::Hard, 5, &r).unwrap(),
        m.agent(Seat(1), Level::Hard, 6, &r).unwrap(),
    ];
    while m.to_act() != ToAct::Over {
        let s = m.to_act().seats()[0];
        let a = bots[s.0].choose(&*m, Budget::UNLIMITED).unwrap();
        m.apply_json(Actor::Seat(s), &a).unwrap();
    }
    assert!(m.outcome().is_some());
    let e = m
        .apply_json(seat(0), &serde_json::json!({"bid": 0}))
        .unwrap_err();
    assert_eq!(e.kind, parlor_core::ErrorKind::GameOver, "{e}");
    // A seat that is not at the table sees what a spectator sees.
    assert_eq!(
        m.view_json(Viewer::Seat(Seat(5))),
        m.view_json(Viewer::Spectator)
    );
    assert_eq!(m.legal_actions_json(Seat(5)), Some(vec![]));
    let record = m.record_json();
    let again = registry.replay(&record, &r).unwrap();
    assert_eq!(
        again.view_json(Viewer::Spectator),
        m.view_json(Viewer::Spectator)
    );
    assert_eq!(again.record_json(), record);
}

proptest::proptest! {
    /// Arbitrary bytes as a record or an action: an error, never a panic.
    #[test]
    fn hostile_records_and_actions_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
        let r = Resources::embedded();
        let text = String::from_utf8_lossy(&bytes);
        let _ = Record::<SealedBid>::from_json(&text);
        let mut registry = Registry::new();
        registry.register::<SealedBid>();
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) {
            let _ = registry.replay(&value, &r);
            let mut m = registry.get("sealed-bid").unwrap().new_match(&serde_json::json!({}), 0, &r).unwrap();
            let _ = m.apply_json(seat(0), &value);
        }
    }

    #[test]
    fn json_shaped_garbage_never_panics(pile in 0u32..5, chips in 0u32..3, action in "[a-z_]{1,6}", n in -3i64..5) {
        let r = Resources::embedded();
        let mut registry = Registry::new();
        registry.register::<SealedBid>();
        let entry = registry.get("sealed-bid").unwrap();
        if let Ok(mut m) = entry.new_match(&serde_json::json!({"pile": pile, "chips": chips}), 0, &r) {
            let mut a = serde_json::Map::new();
            a.insert(action, serde_json::json!(n));
            let _ = m.apply_json(seat(0), &serde_json::Value::Object(a));
        }
    }
}

/// An agent kept for the game remembers what its seat was shown; one made
/// later (after a restart) catches up from the history and decides alike.
#[test]
fn agents_remember_and_catch_up_from_the_history() {
    let r = Resources::embedded();
    let mut registry = Registry::new();
    registry.register::<SealedBid>();
    let entry = registry.get("sealed-bid").unwrap();
    let mut m = entry
        .new_match(&serde_json::json!({"pile": 10, "chips": 9}), 1, &r)
        .unwrap();
    let mut kept = m.agent(Seat(1), Level::Hard, 5, &r).unwrap();
    // Its first bid, with nothing seen: 1 + pile % 2.
    assert_eq!(
        kept.choose(&*m, Budget::UNLIMITED),
        Some(serde_json::json!({"bid": 1}))
    );
    m.apply_json(seat(0), &serde_json::json!({"bid": 4}))
        .unwrap();
    m.apply_json(seat(1), &serde_json::json!({"bid": 0}))
        .unwrap();
    m.apply_json(seat(0), &serde_json::json!({"take": 1}))
        .unwrap();
    // It saw seat 0 bid 4 when the bids were revealed: it outbids by one.
    assert_eq!(
        kept.choose(&*m, Budget::UNLIMITED),
        Some(serde_json::json!({"bid": 5}))
    );
    let mut fresh = m.agent(Seat(1), Level::Hard, 5, &r).unwrap();
    assert_eq!(
        fresh.choose(&*m, Budget::UNLIMITED),
        Some(serde_json::json!({"bid": 5})),
        "a new agent catches up from the history"
    );
    // Seat 0 sees seat 1's bid placed, without the amount, until the reveal.
    m.apply_json(seat(1), &serde_json::json!({"bid": 5}))
        .unwrap();
    let last = m.history_json(Viewer::Seat(Seat(0)), m.actions_len());
    assert_eq!(
        last[0],
        vec![serde_json::json!({"bid_placed": {"seat": 1}})]
    );
    let mine = m.history_json(Viewer::Seat(Seat(1)), m.actions_len());
    assert_eq!(
        mine[0],
        vec![serde_json::json!({"bid_placed": {"seat": 1, "bid": 5}})]
    );
    // A cancelled budget is exhausted at once.
    let cancel = parlor_core::Cancel::new();
    let budget = Budget::UNLIMITED.with_cancel(cancel.clone());
    assert!(!budget.exhausted(std::time::Instant::now(), 0));
    cancel.cancel();
    assert!(budget.exhausted(std::time::Instant::now(), 0));
}

/// A config outside the ranges the game declares is refused before the
/// game is built, with the field and the range in one line; records are
/// not held to them.
#[test]
fn settings_outside_their_declared_range_are_refused_before_any_work() {
    let r = Resources::embedded();
    let mut registry = Registry::new();
    registry.register::<SealedBid>();
    let entry = registry.get("sealed-bid").unwrap();
    for (config, says) in [
        (
            serde_json::json!({"pile": 1_000_000, "chips": 6}),
            "pile: 1000000 is not a whole number from 1 to 1000",
        ),
        (serde_json::json!({"pile": 0, "chips": 6}), "pile: 0 is not"),
        (
            serde_json::json!({"pile": 10, "chips": -1}),
            "chips: -1 is not",
        ),
        (
            serde_json::json!({"pile": 10, "chips": "x".repeat(100)}),
            "chips: \"xxxxxxxxx",
        ),
    ] {
        let e = entry.needs(&config).unwrap_err();
        assert_eq!(e.kind(), parlor_core::ErrorKind::BadSetting, "{config}");
        assert!(e.to_string().contains(says), "{e}");
        let e = entry.new_match(&config, 1, &r).err().unwrap();
        assert!(e.to_string().contains(says), "{e}");
        assert!(e.to_string().len() < 200, "one short line: {e}");
    }
    assert!(entry
        .new_match(&serde_json::json!({"pile": 1000, "chips": 0}), 1, &r)
        .is_ok());
}
