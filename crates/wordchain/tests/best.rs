//! The best plays of a hand: exact against a plain search, and scored as
//! `scoring::score` scores the cards chosen.

use parlor_wordchain::best::{can_form, for_word, index, search, tactical_of, Limits, WordIndex};
use parlor_wordchain::card::{parse_cards, Card};
use parlor_wordchain::scoring::{score, LinkBonus, ScoreRules, Scoring};
use proptest::prelude::*;

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text)
        .unwrap()
        .iter()
        .map(|t| t.card())
        .collect()
}

fn words() -> Vec<&'static str> {
    vec![
        "cat", "act", "tact", "at", "ta", "tat", "scat", "cast", "zzz", "taco", "coat", "ox",
    ]
}

fn small_index() -> WordIndex {
    let (lex, _) = parlor_lexicon::Lexicon::from_words("t", words()).unwrap();
    index(&lex)
}

#[test]
fn every_formable_word_and_the_link_first_where_it_can_be() {
    let idx = small_index();
    let hand = cards("Ah Cd Sc Od");
    let found = search(
        &idx,
        &hand,
        cards("Th")[0],
        &ScoreRules::default(),
        Limits::default(),
    );
    let mut got: Vec<String> = found.by_score(100).iter().map(|p| p.word.clone()).collect();
    got.sort();
    // TACT needs two Ts: only one (the link). ZZZ, OX: no.
    assert_eq!(
        got,
        ["act", "at", "cast", "cat", "coat", "scat", "ta", "taco"]
    );
    let cat = found
        .by_score(100)
        .into_iter()
        .find(|p| p.word == "cat")
        .unwrap();
    assert_eq!(cat.link, 2, "the link T stands last in CAT");
    let taco = found
        .by_score(100)
        .into_iter()
        .find(|p| p.word == "taco")
        .unwrap();
    assert_eq!(taco.link, 0);
    // A Multicard fills the second T of TACT.
    let hand = cards("Ah Cd *");
    let found = search(
        &idx,
        &hand,
        cards("Th")[0],
        &ScoreRules::default(),
        Limits::default(),
    );
    assert!(found.by_score(100).iter().any(|p| p.word == "tact"));
    // The dice limit: one card from the hand.
    let found = search(
        &idx,
        &cards("Ah Cd Sc Od"),
        cards("Th")[0],
        &ScoreRules::default(),
        Limits { max_from_hand: 1 },
    );
    let got: Vec<String> = found.by_score(100).iter().map(|p| p.word.clone()).collect();
    assert_eq!(got.len(), 2, "{got:?}"); // at, ta
}

#[test]
fn the_cards_are_chosen_for_the_best_bonus() {
    // TA on the link Th (falling: sequenced), from Ad or a Multicard: Ad
    // gives 21, coloured and sequenced (+20%) = 25.2 -> 26; the Multicard
    // named Ah gives 20, suited and sequenced (+25%) = 25. Ad wins.
    let (lex, _) = parlor_lexicon::Lexicon::from_words("t", ["ta"]).unwrap();
    let idx = index(&lex);
    let found = search(
        &idx,
        &cards("Ad *"),
        cards("Th")[0],
        &ScoreRules::default(),
        Limits::default(),
    );
    let p = &found.by_score(1)[0];
    assert_eq!(p.score, 26);
    assert_eq!(p.cards[1].to_string(), "Ad");
    // With Ac instead (black): 21 sequenced, mixed (+15%) = 24.15 -> 25;
    // the Multicard, suited and sequenced: 25. Equal: the Multicard is kept.
    let found = search(
        &idx,
        &cards("Ac *"),
        cards("Th")[0],
        &ScoreRules::default(),
        Limits::default(),
    );
    let p = &found.by_score(1)[0];
    assert_eq!((p.score, p.cards[1].to_string().as_str()), (25, "Ac"));
    // Z: 26 + T 20 = 46 x 1.2 vs. the Multicard's 20 x 1.25: the letter card.
    // A hand of Multicards alone: suited and sequenced.
    let (lex, _) = parlor_lexicon::Lexicon::from_words("t", ["tsk"]).unwrap();
    let idx = index(&lex);
    let found = search(
        &idx,
        &cards("Sc Kd *"),
        cards("Th")[0],
        &ScoreRules::default(),
        Limits::default(),
    );
    // T 20 + S 19 + K 11 = 50, falling, mixed colours: +15% = 57.5 -> 58.
    assert_eq!(found.by_score(1)[0].score, 58);
}

fn card_strategy() -> impl Strategy<Value = Card> {
    prop_oneof![
        9 => (0usize..26, 0usize..4).prop_map(|(l, s)| {
            Card::Letter(
                parlor_wordchain::card::Letter::from_index(l).unwrap(),
                parlor_wordchain::card::Suit::ALL[s],
            )
        }),
        1 => Just(Card::Multi),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Every play's score is what `scoring::score` gives its cards, the
    /// cards come from the hand and the link, and no word the hand can
    /// spell is missing.
    #[test]
    fn plays_are_scored_right_and_none_is_missed(
        hand in proptest::collection::vec(card_strategy(), 1..14),
        link in card_strategy(),
        simple in any::<bool>(),
        reading in 0usize..3,
    ) {
        let lex = parlor_lexicon::Lexicon::embedded("en").unwrap();
        let idx = index(&lex);
        let rules = ScoreRules {
            scoring: if simple { Scoring::Simple } else { Scoring::Standard },
            link_bonus: LinkBonus::ALL[reading].0,
            ..ScoreRules::default()
        };
        let found = search(&idx, &hand, link, &rules, Limits::default());
        let plays = found.by_score(usize::MAX);
        // The end of a deal asks the same search whether any word is left.
        prop_assert_eq!(can_form(&idx, &hand, link, Limits::default(), |_| true), !plays.is_empty());
        for p in plays.iter().take(200) {
            let left = hand.len() - (p.cards.len() - 1);
            prop_assert_eq!(p.score, score(&p.cards, p.link, left, &rules).score, "{}", p.word);
            let mut rest = hand.clone();
            for (i, c) in p.cards.iter().enumerate() {
                if i == p.link {
                    prop_assert_eq!(c.card, link);
                } else {
                    let k = rest.iter().position(|h| *h == c.card);
                    prop_assert!(k.is_some(), "{} uses {} not in hand", p.word, c);
                    rest.remove(k.unwrap());
                }
            }
            let word: String = p.cards.iter().map(|c| c.letter.lower()).collect();
            prop_assert_eq!(&word, &p.word);
            // The tactical value of the cards as a player would play them
            // is the one the search ranks by.
            prop_assert_eq!(tactical_of(&hand, &p.cards, p.link, p.score), p.tactical, "{}", p.word);
        }
        // None missed: a word is playable iff for_word spells it.
        let got: std::collections::BTreeSet<&str> = plays.iter().map(|p| p.word.as_str()).collect();
        for w in lex.words().step_by(97) {
            let spelt = for_word(w, &hand, link, &rules).is_some();
            prop_assert_eq!(spelt, got.contains(w), "{}", w);
        }
    }
}
