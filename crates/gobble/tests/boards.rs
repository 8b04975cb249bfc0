//! Golden boards: keyphrase -> board, checked against seedrandom.js 3.0.5
//! itself (node, with the algorithm written in docs/rules/gobble.md:
//! Fisher–Yates over the dice in file order, then one face per die).

use parlor_gobble::{DiceSet, Keyphrase, Size};

fn board(set: &str, phrase: &str) -> String {
    let key = Keyphrase::parse(phrase).unwrap();
    DiceSet::named(set)
        .unwrap()
        .board_for_seed(&key.normalised())
        .letters()
}

#[test]
fn boards_match_seedrandom_js() {
    assert_eq!(
        board("1987", "yo-yo t-shirt abacus zoom"),
        "unmlsktagvlopuht"
    );
    assert_eq!(
        board("classic", "Drop-Down FELT-TIP zoom abacus"),
        "ilekptivineiehro"
    );
    assert_eq!(
        board("1979", "abacus abdomen abide zoom"),
        "svaategolwnrcpltabfnamtni"
    );
    assert_eq!(
        board("gobble6", "abacus-abdomen-abide-zoom"),
        "mahotceeredsmoxihrtsankdcenoaotceiae"
    );
}

#[test]
fn default_sets_by_size() {
    assert_eq!(
        DiceSet::default_for(Size::square(4)).unwrap().name(),
        "1987"
    );
    assert_eq!(
        DiceSet::default_for(Size::square(5)).unwrap().name(),
        "1979"
    );
    assert_eq!(
        DiceSet::default_for(Size::square(6)).unwrap().name(),
        "gobble6"
    );
}
