//! Recorded games that must replay: the rules page's worked example, saved
//! by `parlor wordsprout play --save` (tests/data/worked-example.json,
//! played with tests/data/example-words.txt).

use parlor_core::{Game, Match, Record, Resources, Seat, ToAct};
use parlor_lexicon::Lexicon;
use parlor_wordsprout::{Action, WordSprout};
use std::sync::Arc;

#[test]
fn the_worked_example_record_replays() {
    let (words, _) = Lexicon::from_bytes(
        "example-words.txt",
        include_bytes!("data/example-words.txt"),
    )
    .unwrap();
    let resources = Resources::embedded().with_lexicon(Arc::new(words));
    let record = Record::<WordSprout>::from_json(include_str!("data/worked-example.json")).unwrap();
    let m = Match::<WordSprout>::replay(&record, &resources).unwrap();
    let strings: Vec<String> = record
        .actions
        .iter()
        .filter_map(|a| match &a.action {
            Action::Play { string } => Some(string.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        strings,
        [
            "o",
            "oa",
            "oat",
            "omat",
            "ombat",
            "ombast",
            "bombast",
            "bombasti",
            "bombastic"
        ]
    );
    assert_eq!(m.state().to_act(), ToAct::Over);
    assert_eq!(m.state().outcome().unwrap().winners(), &[Seat(0)]);
    // Written back, the record is the same JSON plus the randomness version
    // (the file predates the field: records without it are version 1).
    let again: serde_json::Value = serde_json::from_str(&m.record().to_json()).unwrap();
    let mut file: serde_json::Value =
        serde_json::from_str(include_str!("data/worked-example.json")).unwrap();
    assert!(file.get("randomness").is_none());
    file["randomness"] = serde_json::json!(1);
    assert_eq!(again, file);
}

#[test]
fn a_record_with_another_word_list_is_refused() {
    let (words, _) = Lexicon::from_words("example-words.txt", ["oat", "tomato"]).unwrap();
    let resources = Resources::embedded().with_lexicon(Arc::new(words));
    let record = Record::<WordSprout>::from_json(include_str!("data/worked-example.json")).unwrap();
    let e = Match::<WordSprout>::replay(&record, &resources).unwrap_err();
    assert!(e.to_string().contains("pass the same list"), "{e}");
}

#[test]
fn a_record_finds_its_word_list_by_fingerprint_under_another_path() {
    let bytes = include_bytes!("data/example-words.txt");
    let record = Record::<WordSprout>::from_json(include_str!("data/worked-example.json")).unwrap();
    // The same list, loaded from another path: found by its fingerprint.
    let (moved, _) = Lexicon::from_bytes("/elsewhere/./words.txt", bytes).unwrap();
    let resources = Resources::embedded().with_lexicon(Arc::new(moved));
    assert!(Match::<WordSprout>::replay(&record, &resources).is_ok());
    // Another list under the recorded name: refused, naming both.
    let (other, _) = Lexicon::from_words("example-words.txt", ["oat", "tomato"]).unwrap();
    let resources = Resources::embedded().with_lexicon(Arc::new(other));
    let err = Match::<WordSprout>::replay(&record, &resources)
        .unwrap_err()
        .to_string();
    assert!(err.contains("pass the same list"), "{err}");
    // No such list at all: the one-line error names the lists on offer.
    let err = Match::<WordSprout>::replay(&record, &Resources::embedded())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("unknown word list \"example-words.txt\""),
        "{err}"
    );
}
