//! The base-rules solve from a cold start: load the word list from text,
//! build the valid strings, solve the two-player game.
//!
//! Run with `cargo bench -p parlor-wordsprout --bench solve`. Each benchmark
//! checks its answer first (the position counts below were also counted by
//! an independent script: every distinct substring of every word, plus the
//! empty start), and the fast solve is set beside the obvious one (a
//! `HashSet<Vec<u8>>` of substrings and a `HashSet` of winning strings).
//! `parlor wordsprout bench` times the same thing from the command line.

use criterion::{criterion_group, criterion_main, Criterion};
use parlor_lexicon::Lexicon;
use parlor_wordsprout::rules::{Pot, RuleSet, Vowels};
use parlor_wordsprout::{Language, Solution};
use std::collections::HashSet;
use std::time::Duration;

const EN: &[u8] = include_bytes!("../../../data/lexicon/en.txt");
const EN_LARGE: &[u8] = include_bytes!("../../../data/lexicon/en-large.txt");

/// (name, text, positions, first player wins)
const LISTS: [(&str, &[u8], usize, bool); 2] = [
    ("en", EN, 762_659, false),
    ("en-large", EN_LARGE, 1_550_950, false),
];

fn cold_solve(name: &str, text: &[u8]) -> (usize, bool, String) {
    let (lex, _) = Lexicon::from_bytes(name, text).unwrap();
    let lang = Language::new(&lex, &RuleSet::core(), &Pot::STANDARD, &Vowels::default());
    let sol = Solution::solve(&lang);
    (
        sol.positions(),
        sol.first_player_wins(),
        sol.winning_openers(),
    )
}

/// The obvious solver: every substring in a hash set; longest first, a
/// string nobody marked is a loss and marks each of its one-letter
/// deletions as a win.
fn naive_solve(text: &[u8]) -> (usize, bool) {
    let words: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .filter(|w| !w.is_empty())
        .collect();
    let mut all: HashSet<Vec<u8>> = HashSet::new();
    for w in &words {
        for i in 0..w.len() {
            for j in i + 1..=w.len() {
                all.insert(w[i..j].to_vec());
            }
        }
    }
    let mut by_len: Vec<Vec<&Vec<u8>>> = Vec::new();
    for s in &all {
        if by_len.len() <= s.len() {
            by_len.resize(s.len() + 1, Vec::new());
        }
        by_len[s.len()].push(s);
    }
    let mut wins: HashSet<Vec<u8>> = HashSet::new();
    for len in (1..by_len.len()).rev() {
        for t in &by_len[len] {
            if !wins.contains(*t) {
                for i in 0..len {
                    let mut s = t[..i].to_vec();
                    s.extend_from_slice(&t[i + 1..]);
                    wins.insert(s);
                }
            }
        }
    }
    (all.len() + 1, wins.contains(&Vec::new()))
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("wordsprout-solve");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for (name, text, positions, first) in LISTS {
        let got = cold_solve(name, text);
        assert_eq!((got.0, got.1), (positions, first), "{name}");
        group.bench_function(format!("cold base-rules solve, {name}"), |b| {
            b.iter(|| cold_solve(name, text))
        });
    }
    assert_eq!(naive_solve(EN), (LISTS[0].2, LISTS[0].3));
    group.bench_function("naive HashSet solve, en", |b| b.iter(|| naive_solve(EN)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
