//! The analysis: language, legal moves, the two-player solution, the helper.

use parlor_lexicon::Lexicon;
use parlor_wordsprout::hint::hint;
use parlor_wordsprout::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_wordsprout::solve::solve_players;
use parlor_wordsprout::{Language, Solution};

fn lex(words: &[&str]) -> Lexicon {
    Lexicon::from_words("test", words).unwrap().0
}

fn lang(words: &[&str], rules: &[Rule]) -> Language {
    Language::new(
        &lex(words),
        &RuleSet(rules.iter().copied().collect()),
        &Pot::STANDARD,
        &Vowels::default(),
    )
}

/// The rules document's game, from the empty string.
const WORKED_EXAMPLE: [&str; 10] = [
    "",
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

/// The rules document's example: O, OA, OAT, OMAT, OMBAT, OMBAST, BOMBAST,
/// BOMBASTI, BOMBASTIC; "bombastic" has no extension, so player 2 cannot
/// play and player 1 wins.
#[test]
fn worked_example_replays() {
    let l = lang(&["bombastic", "tomato", "aromatic", "oat", "wombat"], &[]);
    let steps = WORKED_EXAMPLE;
    for pair in steps.windows(2) {
        assert!(
            l.is_legal_move(pair[0], pair[1]),
            "{} -> {}",
            pair[0],
            pair[1]
        );
        assert!(l.is_valid(pair[1]));
        assert!(l.moves(pair[0]).iter().any(|m| m.result == pair[1]));
    }
    assert!(l.goal_words("omat").contains(&"tomato"));
    assert!(l.moves("bombastic").is_empty());
    let sol = Solution::solve(&l);
    assert_eq!(
        sol.wins("bombastic"),
        Some(false),
        "player 2 to move at BOMBASTIC loses"
    );
    // Uppercase is fine.
    assert!(l.is_legal_move("OMAT", "OMBAT"));
}

#[test]
fn worked_example_on_the_embedded_list() {
    let en = Lexicon::embedded("en").unwrap();
    let l = Language::new(&en, &RuleSet::core(), &Pot::STANDARD, &Vowels::default());
    let steps = WORKED_EXAMPLE;
    for pair in steps.windows(2) {
        assert!(
            l.is_legal_move(pair[0], pair[1]),
            "{} -> {}",
            pair[0],
            pair[1]
        );
    }
}

#[test]
fn moves_are_distinct_sorted_and_leftmost() {
    let l = lang(&["abba", "abc"], &[]);
    let m = l.moves("b");
    let results: Vec<_> = m
        .iter()
        .map(|m| (m.position, m.letter, m.result.as_str()))
        .collect();
    // "bb" from gap 0 or 1: reported once, at gap 0.
    assert_eq!(
        results,
        [
            (0, 'a', "ab"),
            (0, 'b', "bb"),
            (1, 'a', "ba"),
            (1, 'c', "bc")
        ]
    );
    assert!(Language::is_insertion("ab", "abc", 1) && !Language::is_insertion("ab", "abcd", 1));
    assert!(Language::is_insertion("ab", "xaby", 2) && !Language::is_insertion("ab", "ba", 2));
}

#[test]
fn tiles_limit_goal_words() {
    let mut pot = Pot::STANDARD;
    pot.0[(b'z' - b'a') as usize] = 1;
    let l = Language::new(
        &lex(&["pizza", "zap"]),
        &RuleSet([Rule::Tiles].into()),
        &pot,
        &Vowels::default(),
    );
    assert!(!l.is_goal_word("pizza") && l.is_goal_word("zap"));
    assert!(!l.is_valid("zz") && l.is_valid("za"));
    assert_eq!(l.goal_words("z"), ["zap"]);
}

#[test]
fn whole_words_needs_a_word_chain() {
    let l = lang(&["a", "at", "cat", "chat", "dog"], &[Rule::WholeWords]);
    assert!(l.is_goal_word("chat") && l.is_goal_word("a"));
    assert!(!l.is_goal_word("dog"), "no chain of words leads to dog");
    assert!(!l.is_valid("ca") && l.is_valid("cat"));
    let l = lang(
        &["a", "at", "cat", "chat", "dog"],
        &[Rule::WholeWords, Rule::UnreachableGoals],
    );
    assert!(l.is_goal_word("dog") && l.is_valid("dog") && !l.is_reachable("dog"));
}

#[test]
fn vowel_fill_adds_vowels_anywhere() {
    let l = lang(&["tomato"], &[Rule::VowelFill]);
    assert!(l.is_valid("tmt") && l.is_valid("mt") && l.is_valid("tm") && !l.is_valid("tt"));
    assert_eq!(l.goal_words("tmt"), ["tomato"]);
    let w = lang(
        &["tomato", "ant"],
        &[Rule::VowelFill, Rule::WholeWords, Rule::UnreachableGoals],
    );
    assert!(w.is_valid("tmt") && w.is_valid("nt") && !w.is_valid("tm"));
    // Without unreachable-goals no chain of such strings starts from one letter.
    let w = lang(&["tomato", "ant"], &[Rule::VowelFill, Rule::WholeWords]);
    assert_eq!(w.goal_count(), 0);
}

#[test]
fn consonant_start_vowel_cap_front_consonant() {
    let l = lang(&["strap", "astra"], &[Rule::ConsonantStart]);
    assert!(l.is_valid("str") && !l.is_valid("ast") && l.is_valid("astr"));
    assert!(l.is_goal_word("strap") && l.is_goal_word("astra"));
    let l = lang(&["aeon", "ton"], &[Rule::VowelCap]);
    assert!(!l.is_goal_word("aeon") && l.is_goal_word("ton") && !l.is_valid("o"));
    let l = lang(&["strap", "bcd"], &[Rule::NoFrontConsonant]);
    assert!(!l.is_legal_move("tra", "stra"));
    assert!(l.is_legal_move("st", "str") && l.is_legal_move("", "s"));
    // "s" can come first, while the string is short.
    assert!(l.is_goal_word("strap"));
    let l = lang(&["astra", "tras"], &[Rule::NoFrontConsonant]);
    assert!(
        l.is_goal_word("astra")
            && l.is_legal_move("tra", "tras")
            && !l.is_legal_move("tra", "stra")
    );
}

#[test]
fn palindrome_lock() {
    let l = lang(&["racecar", "aceca", "xracecarx"], &[Rule::PalindromeLock]);
    assert!(l.is_locked("cec") && !l.is_locked("ce"));
    // From the locked "cec" only palindromes; two letters allowed.
    assert!(l.is_legal_move("cec", "aceca"));
    assert!(!l.is_legal_move("cec", "ceca"));
    let m = l.moves("cec");
    assert!(m
        .iter()
        .any(|m| m.result == "aceca" && m.second == Some((3, 'a')) && m.position == 0));
    assert!(l.is_goal_word("racecar"));
}

#[test]
fn three_players() {
    let l = lang(&["ab"], &[]);
    let s3 = solve_players(&l, 3);
    // "", then a or b, then ab: the third player cannot move, drops out;
    // the first cannot move either: player 2 wins.
    assert_eq!(s3.winner(), 1);
    let s2 = solve_players(&l, 2);
    assert_eq!(s2.winner(), 1);
}

#[test]
fn hint_reports_goal_words_and_wins() {
    let l = lang(&["tomato", "aromatic"], &[]);
    let sol = Solution::solve(&l);
    let h = hint(&l, "Omat", Some(&sol)).unwrap();
    assert_eq!(h.len(), 4);
    for m in &h {
        assert!(!m.goal_words.is_empty());
        assert_eq!(m.wins, sol.wins(&m.result).map(|w| !w));
    }
    assert!(hint(&l, "om4t", None).is_err());
}

#[test]
fn rules_named_no_something_switch_on() {
    let mut r = RuleSet::core();
    r.apply_switch("no-plurals").unwrap();
    r.apply_switch("no-front-consonant").unwrap();
    assert!(r.has(Rule::NoPlurals) && r.has(Rule::NoFrontConsonant));
    r.apply_switch("no-no-plurals").unwrap();
    assert!(!r.has(Rule::NoPlurals));
    r.apply_switch("no-challenge").unwrap();
    assert!(!r.has(Rule::Challenge));
}

#[test]
fn no_plurals_drops_plural_goal_words() {
    let l = lang(&["tomato", "tomatoes", "bike", "bikes"], &[Rule::NoPlurals]);
    assert!(!l.is_goal_word("tomatoes") && l.is_goal_word("bikes") && l.is_goal_word("tomato"));
    assert!(!l.is_valid("toes") && l.is_valid("ikes"));
}

proptest::proptest! {
    /// Whatever a player types, the analysis answers without panicking.
    #[test]
    fn arbitrary_input_never_panics(s in ".{0,12}", t in ".{0,12}", n in 0usize..4) {
        let l = lang(&["tomato", "racecar", "abba"], &[Rule::PalindromeLock, Rule::NoFrontConsonant]);
        let _ = l.is_valid(&s);
        let _ = l.is_goal_word(&s);
        let _ = l.goal_words(&s);
        let _ = l.moves(&s);
        let _ = l.is_locked(&s);
        let _ = l.is_legal_move(&s, &t);
        let _ = Language::is_insertion(&s, &t, n);
        let ok = s.bytes().all(|b| b.is_ascii_alphabetic());
        proptest::prop_assert_eq!(hint(&l, &s, None).is_ok(), ok);
        let sol = Solution::solve(&l);
        let _ = sol.wins(&s);
    }
}

#[test]
fn shared_across_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Language>();
    send_sync::<Solution>();
    send_sync::<parlor_wordsprout::solve::PlayersSolution>();
    // A lazy language answers from several threads at once.
    let l = std::sync::Arc::new(Language::new_lazy(
        &lex(&["tomato", "aromatic"]),
        &RuleSet::core(),
        &Pot::STANDARD,
        &Vowels::default(),
    ));
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let l = l.clone();
            std::thread::spawn(move || l.moves("omat").len())
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), 4);
    }
}

/// The count the bots weigh plays by is the length of the list, under the
/// core rules (counted by the substring index) and under rules that count
/// by listing (whole words, vowel fill, tiles).
#[test]
fn goal_word_count_is_the_number_of_goal_words() {
    let words = [
        "bombastic",
        "tomato",
        "aromatic",
        "oat",
        "wombat",
        "atom",
        "moat",
        "mama",
        "ma",
        "zzz",
        "quiz",
        "toot",
    ];
    let probes = [
        "", "o", "a", "at", "to", "oma", "tom", "mat", "bomb", "zz", "q", "x", "ot", "OAT", "o t",
        "tmt",
    ];
    for rules in [
        vec![],
        vec![Rule::WholeWords],
        vec![Rule::VowelFill],
        vec![Rule::Tiles],
        vec![Rule::WholeWords, Rule::VowelFill],
    ] {
        let l = lang(&words, &rules);
        for s in probes {
            assert_eq!(
                l.goal_word_count(s),
                l.goal_words(s).len(),
                "{s:?} under {rules:?}"
            );
        }
    }
}
