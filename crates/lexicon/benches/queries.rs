//! Query costs on the largest embedded list, `en-large` (242,844 words).
//!
//! Run with `cargo bench -p parlor-lexicon`. Each benchmark checks its own
//! answer before timing it (so a fast wrong answer fails), and the
//! index-backed queries are set beside a naive scan over the words.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use parlor_lexicon::{Cursor, Lexicon};
use std::time::Duration;

const EN_LARGE: &[u8] = include_bytes!("../../../data/lexicon/en-large.txt");

/// A 5x5 board, row by row.
const BOARD: &[u8; 25] = b"serstlaneitrdospeacmaglin";

/// Every word of 3+ letters on the board (Boggle adjacency, each cell once).
fn grid_words(lex: &Lexicon) -> Vec<String> {
    fn dfs(c: Cursor<'_>, cell: usize, used: u32, path: &mut Vec<u8>, out: &mut Vec<String>) {
        let Some(c) = c.child(BOARD[cell]) else {
            return;
        };
        let used = used | 1 << cell;
        path.push(BOARD[cell]);
        if c.is_word() && path.len() >= 3 {
            out.push(String::from_utf8(path.clone()).unwrap());
        }
        if c.has_children() {
            let (r, k) = ((cell / 5) as isize, (cell % 5) as isize);
            for dr in -1..=1 {
                for dk in -1..=1 {
                    let (nr, nk) = (r + dr, k + dk);
                    if (0..5).contains(&nr) && (0..5).contains(&nk) {
                        let next = (nr * 5 + nk) as usize;
                        if used & 1 << next == 0 {
                            dfs(c, next, used, path, out);
                        }
                    }
                }
            }
        }
        path.pop();
    }
    let mut out = Vec::new();
    for cell in 0..25 {
        dfs(lex.root(), cell, 0, &mut Vec::new(), &mut out);
    }
    out.sort();
    out.dedup();
    out
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

fn bench_load(c: &mut Criterion) {
    let mut g = c.benchmark_group("load");
    g.sample_size(10);
    g.bench_function("from_bytes en-large", |b| {
        b.iter(|| Lexicon::from_bytes("en-large", black_box(EN_LARGE)).unwrap())
    });
    g.bench_function("suffix array en-large", |b| {
        b.iter_batched(
            || Lexicon::from_bytes("en-large", EN_LARGE).unwrap().0,
            |lex| {
                lex.prepare_substrings();
                lex
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

fn bench_queries(c: &mut Criterion) {
    let lex = Lexicon::embedded("en-large").unwrap();
    lex.prepare_substrings();
    let words: Vec<&str> = lex.words().collect();
    let probes: Vec<&str> = words.iter().step_by(2429).copied().collect();

    // Membership: 100 words of the list, and 100 misses.
    let misses: Vec<String> = probes.iter().map(|w| format!("{w}qx")).collect();
    assert!(probes.iter().all(|w| lex.contains(w)));
    assert!(misses.iter().all(|w| !lex.contains(w)));
    c.bench_function("contains x100 hits", |b| {
        b.iter(|| probes.iter().filter(|w| lex.contains(black_box(w))).count())
    });
    c.bench_function("contains x100 misses", |b| {
        b.iter(|| misses.iter().filter(|w| lex.contains(black_box(w))).count())
    });
    c.bench_function("baseline binary search x100 hits", |b| {
        b.iter(|| {
            probes
                .iter()
                .filter(|w| words.binary_search(black_box(w)).is_ok())
                .count()
        })
    });

    // Prefix walk: every word on a 5x5 board.
    let found = grid_words(&lex);
    assert!(found.len() > 100, "found {}", found.len());
    assert!(found.iter().all(|w| lex.contains(w)));
    c.bench_function("cursor: all words on a 5x5 board", |b| {
        b.iter(|| grid_words(black_box(&lex)).len())
    });

    // Substrings.
    let omat = lex.words_containing("omat");
    assert_eq!(
        omat,
        words
            .iter()
            .copied()
            .filter(|w| w.contains("omat"))
            .collect::<Vec<_>>()
    );
    c.bench_function("has_substring x100", |b| {
        b.iter(|| {
            probes
                .iter()
                .filter(|w| lex.has_substring(&black_box(w)[1..]))
                .count()
        })
    });
    c.bench_function("has_substring miss", |b| {
        b.iter(|| lex.has_substring(black_box("qzx")))
    });
    c.bench_function("words_containing omat", |b| {
        b.iter(|| lex.words_containing(black_box("omat")).len())
    });
    c.bench_function("baseline scan containing omat", |b| {
        b.iter(|| {
            words
                .iter()
                .filter(|w| w.contains(black_box("omat")))
                .count()
        })
    });
    let ing = lex.words_containing("ing").len();
    assert_eq!(ing, words.iter().filter(|w| w.contains("ing")).count());
    c.bench_function("words_containing ing (large result)", |b| {
        b.iter(|| lex.words_containing(black_box("ing")).len())
    });
    c.bench_function("words_containing e (largest result)", |b| {
        b.iter(|| lex.words_containing(black_box("e")).len())
    });

    // Formable.
    for (rack, blanks) in [("retains", 0), ("retains", 2), ("qzjxkvw", 2)] {
        let got = lex.formable(rack, blanks);
        assert!(rack.starts_with('q') || got.contains(&"stainer"));
        c.bench_function(&format!("formable {rack} +{blanks}"), |b| {
            b.iter(|| lex.formable(black_box(rack), blanks).len())
        });
    }

    let naive_formable = |rack: &str, blanks: usize| {
        words
            .iter()
            .filter(|w| {
                let mut have = [0usize; 26];
                rack.bytes().for_each(|b| have[usize::from(b - b'a')] += 1);
                let mut missing = 0;
                for b in w.bytes() {
                    let k = usize::from(b - b'a');
                    if have[k] > 0 {
                        have[k] -= 1;
                    } else {
                        missing += 1;
                    }
                }
                missing <= blanks
            })
            .count()
    };
    assert_eq!(
        naive_formable("retains", 2),
        lex.formable("retains", 2).len()
    );
    c.bench_function("baseline scan formable retains +2", |b| {
        b.iter(|| naive_formable(black_box("retains"), 2))
    });

    // Patterns.
    for pattern in ["c?t", "??a??e??", "q.......", "???????????"] {
        let got = lex.matching(pattern).unwrap();
        let want: Vec<&str> = words
            .iter()
            .copied()
            .filter(|w| {
                w.len() == pattern.len()
                    && w.bytes()
                        .zip(pattern.bytes())
                        .all(|(c, p)| p == b'?' || p == b'.' || c == p)
            })
            .collect();
        assert_eq!(got, want);
        c.bench_function(&format!("matching {pattern}"), |b| {
            b.iter(|| lex.matching(black_box(pattern)).unwrap().len())
        });
    }
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_load, bench_queries
}
criterion_main!(benches);
