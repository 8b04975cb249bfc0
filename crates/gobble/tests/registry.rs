//! Gobble through the type-erased registry, as the CLI and the server host
//! it: JSON config, JSON actions (arbitrary ones never panic), bot actions,
//! and the round clock.

use parlor_core::{Actor, Budget, Level, Registry, Resources, Seat, ToAct, Viewer};
use parlor_gobble::Gobble;
use proptest::prelude::*;
use serde_json::{json, Value};

fn start(res: &Resources) -> Box<dyn parlor_core::DynMatch> {
    let mut reg = Registry::new();
    reg.register::<Gobble>();
    let entry = reg.get("gobble").unwrap();
    let config = json!({"seats": 2, "keyphrase": "abacus abdomen abide zoom", "seconds": 60});
    entry.new_match(&config, 7, res).unwrap()
}

#[test]
fn json_round_with_a_bot_and_the_clock() {
    let res = Resources::embedded();
    let mut m = start(&res);
    assert_eq!(m.to_act(), ToAct::Simultaneous(vec![Seat(0), Seat(1)]));
    let clock = m.deadline_json().expect("the round has a clock");
    assert_eq!(clock.seconds, 60.0);
    // A bot plays seat 1 through JSON; it is kept for the whole round.
    let mut bot = m.agent(Seat(1), Level::Hard, 3, &res).unwrap();
    for _ in 0..5 {
        if let Some(action) = bot.choose(&*m, Budget::UNLIMITED) {
            let applied = m.apply_json(Actor::Seat(Seat(1)), &action).unwrap();
            // The word is the bot's own business: seat 0 and spectators see a count.
            let mine = &applied.for_viewer(Viewer::Seat(Seat(1)))[0];
            assert_eq!(mine["word"][0], action["word"]);
            for other in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
                let theirs = &applied.for_viewer(other)[0];
                assert_eq!(theirs["type"], "accepted");
                assert!(theirs.get("word").is_none(), "{theirs}");
            }
        }
    }
    let err = m.apply_json(
        Actor::Seat(Seat(0)),
        &json!({"type": "enter", "word": "zz"}),
    );
    assert!(err.is_err());
    let v = m.view_json(Viewer::Seat(Seat(0)));
    assert_eq!(
        v["my_words"],
        json!([]),
        "seat 0 does not see seat 1's words"
    );
    assert!(v["counts"][1].as_u64().unwrap() > 0);
    m.apply_json(Actor::Referee, &clock.action).unwrap();
    assert_eq!(m.to_act(), ToAct::Over);
    assert!(m.deadline_json().is_none());
    let record = m.record_json();
    let again = Registry::new()
        .register::<Gobble>()
        .replay(&record, &res)
        .unwrap();
    assert_eq!(
        again.view_json(Viewer::Spectator),
        m.view_json(Viewer::Spectator)
    );
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "\\PC{0,12}".prop_map(Value::String),
        prop::sample::select(vec!["enter", "done", "end_round", "word", "type"])
            .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "type".to_string(),
                    "word".to_string(),
                    "x".to_string()
                ]),
                inner,
                0..3
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn arbitrary_json_actions_never_panic(actions in prop::collection::vec((0usize..4, arbitrary_json()), 1..12)) {
        let res = Resources::embedded();
        let mut m = start(&res);
        for (who, action) in actions {
            let actor = if who == 3 { Actor::Referee } else { Actor::Seat(Seat(who)) };
            let before = m.view_json(Viewer::Spectator);
            if m.apply_json(actor, &action).is_err() {
                prop_assert_eq!(m.view_json(Viewer::Spectator), before);
            }
        }
    }
}
