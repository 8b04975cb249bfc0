//! Every word at every column of a 9-wide grid on `en-large`: the issue's
//! goal is under 50 ms, so that the bot can look at the replies too.

use criterion::{criterion_group, criterion_main, Criterion};
use parlor_twingrid::bot::{placements, Query};
use parlor_twingrid::grid::Grid;

fn bench(c: &mut Criterion) {
    let lexicon = parlor_lexicon::Lexicon::embedded("en-large").unwrap();
    let words = parlor_lexicon::CountedWords::new(&lexicon, 9);
    let mut grid = Grid::new(9);
    for (w, col) in [("stone", 2), ("planet", 1), ("tears", 3), ("orate", 0)] {
        grid.write(w, col);
    }
    let q = Query {
        against: "restrain",
        first: false,
        anagram_bonus: 10,
        vertical: parlor_twingrid::grid::Vertical::EveryRun,
        k: 24,
    };
    let played = ["stone", "planet", "tears", "orate", "restrain"];
    let allowed = |w: &str| !played.iter().any(|p| w.contains(p));
    c.bench_function("placements/9 wide, 4 rows, en-large, best 24", |b| {
        b.iter(|| placements(&words, &grid, &lexicon, &q, &allowed))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
