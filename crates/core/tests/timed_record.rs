//! `DynMatch::apply_json_at`: a host's action times go into the record and
//! come back from its replay; `apply_json` records none.

use parlor_core::doc_nim::Nim;
use parlor_core::{Actor, Registry, Resources, Seat};
use serde_json::json;

#[test]
fn action_times_are_recorded_and_replayed() {
    let mut registry = Registry::new();
    registry.register::<Nim>();
    let res = Resources::embedded();
    let mut m = registry
        .get("nim")
        .unwrap()
        .new_match(&json!({"pile": 9}), 1, &res)
        .unwrap();
    m.apply_json_at(Actor::Seat(Seat(0)), &json!(1), Some(1_795_000_000_123))
        .unwrap();
    m.apply_json(Actor::Seat(Seat(1)), &json!(2)).unwrap();
    // A refused action records nothing, with or without a time.
    assert!(m
        .apply_json_at(Actor::Seat(Seat(1)), &json!(1), Some(5))
        .is_err());
    let record = m.record_json();
    let actions = record["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 2);
    assert_eq!(actions[0]["at_ms"], 1_795_000_000_123_i64);
    assert!(actions[1].get("at_ms").is_none(), "{record}");
    let replayed = registry.replay(&record, &res).unwrap();
    assert_eq!(replayed.record_json(), record);
}
