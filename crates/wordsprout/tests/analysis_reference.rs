//! A naive reference for the language and the solvers, written from the
//! rules' definitions with plain strings and sets, compared with the fast
//! implementation on random small word lists under random string rules.

use parlor_lexicon::Lexicon;
use parlor_wordsprout::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_wordsprout::solve::solve_players;
use parlor_wordsprout::{Language, Solution};
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};

const VOWELS: &str = "aeiou";

fn is_vowel(c: char) -> bool {
    VOWELS.contains(c)
}

fn is_pal(s: &str) -> bool {
    s.chars().eq(s.chars().rev())
}

/// (gap, letter, second letter, result)
type Play = (usize, char, Option<(usize, char)>, String);

struct Naive {
    rules: BTreeSet<Rule>,
    goals: BTreeSet<String>,
    valid: BTreeSet<String>,
    reach: BTreeSet<String>,
}

impl Naive {
    fn has(&self, r: Rule) -> bool {
        self.rules.contains(&r)
    }

    fn string_ok(rules: &BTreeSet<Rule>, s: &str) -> bool {
        let v = s.chars().filter(|&c| is_vowel(c)).count();
        if rules.contains(&Rule::ConsonantStart) && s.len() <= 3 && v > 0 {
            return false;
        }
        if rules.contains(&Rule::VowelCap) && v > s.len() - v {
            return false;
        }
        true
    }

    /// Every way to drop some vowels of `w` (all subsets).
    fn vowel_drops(w: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::from([String::new()]);
        for c in w.chars() {
            let mut next = BTreeSet::new();
            for s in &out {
                next.insert(format!("{s}{c}"));
                if is_vowel(c) {
                    next.insert(s.clone());
                }
            }
            out = next;
        }
        out
    }

    fn justified(rules: &BTreeSet<Rule>, goals: &BTreeSet<String>) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for w in goals {
            let pieces: Vec<String> = if rules.contains(&Rule::WholeWords) {
                vec![w.clone()]
            } else {
                (0..w.len())
                    .flat_map(|i| (i + 1..=w.len()).map(move |j| w[i..j].to_string()))
                    .collect()
            };
            for p in pieces {
                if rules.contains(&Rule::VowelFill) {
                    out.extend(Self::vowel_drops(&p).into_iter().filter(|s| !s.is_empty()));
                } else {
                    out.insert(p);
                }
            }
        }
        out
    }

    fn locked(&self, s: &str) -> bool {
        self.has(Rule::PalindromeLock) && s.len() >= 3 && is_pal(s)
    }

    /// Legal results from `s` (valid ones), with the play order key.
    fn children(&self, s: &str) -> Vec<Play> {
        let front = |n: usize, gap: usize, c: char| {
            self.has(Rule::NoFrontConsonant) && n >= 3 && gap == 0 && !is_vowel(c)
        };
        let mut out = Vec::new();
        let n = s.len();
        let locked = self.locked(s);
        for p in 0..=n {
            for c in 'a'..='z' {
                if front(n, p, c) {
                    continue;
                }
                let t = format!("{}{}{}", &s[..p], c, &s[p..]);
                if (!locked || is_pal(&t)) && self.valid.contains(&t) {
                    out.push((p, c, None, t));
                }
                if locked {
                    for q in p..=n {
                        for c2 in 'a'..='z' {
                            if front(n, q, c2) {
                                continue;
                            }
                            let t = format!("{}{}{}{}{}", &s[..p], c, &s[p..q], c2, &s[q..]);
                            if is_pal(&t) && self.valid.contains(&t) {
                                out.push((p, c, Some((q, c2)), t));
                            }
                        }
                    }
                }
            }
        }
        out.sort();
        let mut seen = BTreeSet::new();
        out.retain(|m| seen.insert(m.3.clone()));
        out
    }

    fn new(words: &[String], rules: &BTreeSet<Rule>, pot: &Pot) -> Naive {
        let mut goals: BTreeSet<String> = words
            .iter()
            .filter(|w| !rules.contains(&Rule::Tiles) || pot.can_spell(w.as_bytes()))
            .cloned()
            .collect();
        loop {
            let mut valid: BTreeSet<String> = Self::justified(rules, &goals)
                .into_iter()
                .filter(|s| Self::string_ok(rules, s))
                .collect();
            valid.insert(String::new());
            let mut me = Naive {
                rules: rules.clone(),
                goals: goals.clone(),
                valid,
                reach: BTreeSet::new(),
            };
            let mut todo = vec![String::new()];
            me.reach.insert(String::new());
            while let Some(s) = todo.pop() {
                for (_, _, _, t) in me.children(&s) {
                    if me.reach.insert(t.clone()) {
                        todo.push(t);
                    }
                }
            }
            if rules.contains(&Rule::UnreachableGoals) {
                return me;
            }
            let kept: BTreeSet<String> = goals
                .iter()
                .filter(|w| me.reach.contains(*w))
                .cloned()
                .collect();
            if kept == goals {
                return me;
            }
            goals = kept;
        }
    }

    fn wins(&self, s: &str, memo: &mut HashMap<String, bool>) -> bool {
        if let Some(&w) = memo.get(s) {
            return w;
        }
        let w = self
            .children(s)
            .iter()
            .any(|(_, _, _, t)| !self.wins(t, memo));
        memo.insert(s.to_string(), w);
        w
    }

    /// max^n with the first-play tie-break: winner relative to the mover.
    fn winner(&self, s: &str, k: usize, memo: &mut HashMap<(String, usize), usize>) -> usize {
        if let Some(&w) = memo.get(&(s.to_string(), k)) {
            return w;
        }
        let children = self.children(s);
        let w = if children.is_empty() {
            if k == 2 {
                1
            } else {
                self.winner(s, k - 1, memo) + 1
            }
        } else {
            let outcomes: Vec<usize> = children
                .iter()
                .map(|(_, _, _, t)| (self.winner(t, k, memo) + 1) % k)
                .collect();
            if outcomes.contains(&0) {
                0
            } else {
                outcomes[0]
            }
        };
        memo.insert((s.to_string(), k), w);
        w
    }
}

const STRING_RULES: [Rule; 8] = [
    Rule::Tiles,
    Rule::WholeWords,
    Rule::VowelFill,
    Rule::ConsonantStart,
    Rule::VowelCap,
    Rule::NoFrontConsonant,
    Rule::PalindromeLock,
    Rule::UnreachableGoals,
];

fn check(words: Vec<String>, rule_bits: u8, three: bool) {
    let rules: BTreeSet<Rule> = STRING_RULES
        .iter()
        .enumerate()
        .filter(|(i, _)| rule_bits & (1 << i) != 0)
        .map(|(_, r)| *r)
        .collect();
    let mut pot = Pot([0; 26]);
    for (i, c) in "abcesx".bytes().enumerate() {
        pot.0[(c - b'a') as usize] = [3, 1, 2, 2, 1, 1][i];
    }
    let (lex, _) = Lexicon::from_words("t", &words).unwrap();
    let words: Vec<String> = lex.words().map(String::from).collect();
    let naive = Naive::new(&words, &rules, &pot);
    let lang = Language::new(&lex, &RuleSet(rules.clone()), &pot, &Vowels::default());
    let got_goals: BTreeSet<String> = lang.goals().map(String::from).collect();
    assert_eq!(got_goals, naive.goals, "goal words under {rules:?}");
    // Validity of every candidate: all strings justified by any word, plus
    // a few one-letter-off strings.
    let mut candidates = Naive::justified(&rules, &words.iter().cloned().collect());
    candidates.extend(Naive::justified(
        &BTreeSet::new(),
        &words.iter().cloned().collect(),
    ));
    for s in candidates.clone() {
        candidates.insert(format!("{s}z"));
    }
    for s in &candidates {
        assert_eq!(
            lang.is_valid(s),
            naive.valid.contains(s),
            "is_valid({s}) under {rules:?}"
        );
        assert_eq!(
            lang.is_reachable(s),
            naive.reach.contains(s),
            "is_reachable({s}) under {rules:?}"
        );
    }
    // The lazy language answers the same, length by length.
    let lazy = Language::new_lazy(&lex, &RuleSet(rules.clone()), &pot, &Vowels::default());
    for s in &candidates {
        assert_eq!(
            lazy.is_valid(s),
            naive.valid.contains(s),
            "lazy is_valid({s}) under {rules:?}"
        );
        assert_eq!(
            lazy.moves(s),
            lang.moves(s),
            "lazy moves({s}) under {rules:?}"
        );
    }
    assert_eq!(
        lazy.goals().collect::<Vec<_>>(),
        lang.goals().collect::<Vec<_>>()
    );
    assert_eq!(
        Solution::solve(&lazy).winning_openers(),
        Solution::solve(&lang).winning_openers()
    );
    assert_eq!(lazy.valid_count(), naive.valid.len());
    assert_eq!(lang.valid_count(), naive.valid.len());
    let sol = Solution::solve(&lang);
    let mut memo = HashMap::new();
    assert_eq!(sol.positions(), naive.reach.len());
    assert_eq!(
        sol.first_player_wins(),
        naive.wins("", &mut memo),
        "first player under {rules:?}"
    );
    let openers: String = naive
        .children("")
        .iter()
        .filter(|(_, _, _, t)| !naive.wins(t, &mut memo))
        .map(|m| m.3.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(sol.winning_openers(), openers);
    for s in &naive.valid {
        assert_eq!(
            sol.wins(s),
            Some(naive.wins(s, &mut memo)),
            "wins({s}) under {rules:?}"
        );
        let moves: Vec<Play> = lang
            .moves(s)
            .into_iter()
            .map(|m| (m.position, m.letter, m.second, m.result))
            .collect();
        assert_eq!(moves, naive.children(s), "moves({s}) under {rules:?}");
        for m in &moves {
            assert!(lang.is_legal_move(s, &m.3));
        }
        // goal words: those whose justified set holds s.
        let want: Vec<&str> = naive
            .goals
            .iter()
            .filter(|w| {
                Naive::justified(&rules, &BTreeSet::from([(*w).clone()])).contains(s)
                    || s.is_empty()
            })
            .map(String::as_str)
            .collect();
        assert_eq!(lang.goal_words(s), want, "goal_words({s}) under {rules:?}");
    }
    assert_eq!(sol.wins("qqqqq"), None);
    if three {
        for n in [3, 4] {
            let sn = solve_players(&lang, n);
            let mut memo = HashMap::new();
            assert_eq!(
                sn.winner(),
                naive.winner("", n, &mut memo),
                "{n} players under {rules:?}"
            );
            for s in &naive.valid {
                assert_eq!(
                    sn.winner_at(s),
                    Some(naive.winner(s, n, &mut memo)),
                    "{n} players at {s}"
                );
            }
        }
    }
}

fn word() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[abces]{1,6}").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn agrees_with_the_naive_reference(words in proptest::collection::vec(word(), 1..7), rule_bits in any::<u8>(), three in any::<bool>()) {
        check(words, rule_bits, three);
    }

    #[test]
    fn agrees_under_core_rules(words in proptest::collection::vec("[a-e]{1,7}", 1..9)) {
        check(words, 0, true);
    }
}

#[test]
fn palindromes_and_fronts() {
    let words: Vec<String> = ["abcba", "xabcbax", "bcb", "sabas", "cbbc", "abba"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for bits in [0x40u8, 0x60, 0x48, 0x50, 0xC0, 0x42] {
        check(words.clone(), bits, true);
    }
}
