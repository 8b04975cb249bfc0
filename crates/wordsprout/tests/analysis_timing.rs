//! Timings printed by hand (`cargo test --release -p parlor-wordsprout --test
//! analysis_timing -- --ignored --nocapture`); no wall-clock assertion.

use parlor_lexicon::Lexicon;
use parlor_wordsprout::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_wordsprout::{Language, Solution};
use std::time::Instant;

fn run(name: &str, rules: &[Rule]) {
    let en = Lexicon::embedded(name).unwrap();
    let text: String = en.words().map(|w| format!("{w}\n")).collect();
    let t0 = Instant::now();
    let (lex, _) = Lexicon::from_bytes(name, text.as_bytes()).unwrap();
    let t1 = Instant::now();
    let rs = RuleSet(rules.iter().copied().collect());
    let lang = Language::new(&lex, &rs, &Pot::STANDARD, &Vowels::default());
    let t2 = Instant::now();
    let sol = Solution::solve(&lang);
    let t3 = Instant::now();
    println!(
        "{name} {rules:?}: load {:?} language {:?} solve {:?}; goals {} valid {} positions {} first wins {} openers {} rounds {} heap {} MB",
        t1 - t0,
        t2 - t1,
        t3 - t2,
        lang.goal_count(),
        lang.valid_count(),
        sol.positions(),
        sol.first_player_wins(),
        sol.winning_openers(),
        lang.fixpoint_rounds(),
        lang.heap_size() >> 20
    );
}

#[test]
#[ignore]
fn timings() {
    let only = std::env::var("RULES").unwrap_or_default();
    let sets: Vec<Vec<Rule>> = if only.is_empty() {
        vec![vec![]]
    } else {
        vec![only.split(',').map(|r| r.parse().unwrap()).collect()]
    };
    for name in ["en", "en-large"] {
        for rules in &sets {
            run(name, rules);
        }
    }
}
