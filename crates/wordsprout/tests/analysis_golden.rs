//! Solutions of the embedded lists, read from `analysis_golden.txt`.

use parlor_lexicon::Lexicon;
use parlor_wordsprout::rules::{Pot, RuleSet, Vowels};
use parlor_wordsprout::{Language, Solution};

#[test]
fn embedded_lists_solve_as_recorded() {
    let text = include_str!("analysis_golden.txt");
    let mut rows = 0;
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [list, rules, positions, first, openers, goals] = f[..] else {
            panic!("bad row {line:?}")
        };
        let mut set = RuleSet::core();
        if rules != "core" {
            for r in rules.split(',') {
                set.apply_switch(r).unwrap();
            }
        }
        let lex = Lexicon::embedded(list).unwrap();
        let lang = Language::new(&lex, &set, &Pot::STANDARD, &Vowels::default());
        let sol = Solution::solve(&lang);
        let openers = if openers == "-" { "" } else { openers };
        assert_eq!(
            (
                sol.positions(),
                sol.first_player_wins(),
                sol.winning_openers().as_str(),
                lang.goal_count()
            ),
            (
                positions.parse().unwrap(),
                first.parse().unwrap(),
                openers,
                goals.parse().unwrap()
            ),
            "{line}"
        );
        rows += 1;
    }
    assert_eq!(rows, 10);
}
