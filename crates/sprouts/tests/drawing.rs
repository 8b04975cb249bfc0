//! The game's drawing: positions met in random legal games, laid out from
//! their structure alone, must never be drawn wrong: a layout with no
//! crossing reads back as its position exactly (regions, boundaries, each
//! boundary's cyclic order, so the `!` flags hold), and one that crosses
//! is rare and always has another way that does not.

use std::collections::BTreeMap;

use parlor_sprouts::drawing::geometry::crossings;
use parlor_sprouts::drawing::structure::{layout_position, oriented_key, read_back, LayoutOptions};
use parlor_sprouts::drawing::{Line, Pt, H, W};
use parlor_sprouts::{apply, legal_moves, Position};
use proptest::prelude::*;

/// Every position of a game played at random from `n` spots, choosing
/// with `choices` (cycled), the start included.
fn random_game(n: u32, choices: &[usize]) -> Vec<Position> {
    let mut p = Position::start(n);
    let mut out = vec![p.clone()];
    for k in 0.. {
        let moves = legal_moves(&p);
        if moves.is_empty() {
            break;
        }
        let mv = &moves[choices[k % choices.len()] % moves.len()];
        p = apply(&p, mv).expect("a legal move applies");
        out.push(p.clone());
    }
    out
}

/// How a layout of a position came out.
#[derive(Debug, PartialEq)]
enum Outcome {
    /// No crossing, and it reads back as the position.
    Exact,
    /// Lines cross (or pass through spots).
    Crossed,
    /// No crossing, yet it reads back as another position.
    Wrong(String),
}

/// Lays `p` out with `opts` and checks the result.
fn outcome(p: &Position, opts: &LayoutOptions) -> Outcome {
    let (spots, lines): (BTreeMap<_, Pt>, Vec<Line>) =
        layout_position(p.rows(), W, H, opts).unwrap_or_else(|| panic!("{p} is laid out"));
    assert_eq!(spots.keys().copied().collect::<Vec<_>>(), p.spots(), "{p}");
    for l in &lines {
        assert_eq!(
            l.pts.first(),
            spots.get(&l.a),
            "{p}: a line starts at its spot"
        );
        assert_eq!(
            l.pts.last(),
            spots.get(&l.b),
            "{p}: a line ends at its spot"
        );
    }
    if !crossings(&spots, &lines).is_empty() {
        return Outcome::Crossed;
    }
    let back = oriented_key(&read_back(&spots, &lines));
    if back == oriented_key(p.rows()) {
        Outcome::Exact
    } else {
        Outcome::Wrong(back)
    }
}

/// The ways a position is laid out when a picture is drawn again from it,
/// in order: the roomiest row outside first, then each row; for each, two
/// weightings and two numbers of points per line; the first twelve.
fn ways(p: &Position) -> Vec<LayoutOptions> {
    let mut out = Vec::new();
    for outer in std::iter::once(None).chain((0..p.rows().len()).map(Some)) {
        for weights in [[1.0, 1.0, 1.0, 20.0, 1.0], [0.3, 0.3, 1.0, 5.0, 1.0]] {
            for sub in [3, 2] {
                out.push(LayoutOptions {
                    sub: Some(sub),
                    outer,
                    rounds: None,
                    weights: Some(weights.to_vec()),
                });
            }
        }
    }
    out.truncate(12);
    out
}

proptest! {
    // 6 games by default (each position is laid out: about a second a
    // game); PROPTEST_CASES=N for a longer run.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(6)
    ))]

    /// A layout that does not cross reads back exactly.
    #[test]
    fn planar_layouts_read_back_exactly(n in 2u32..=8, choices in prop::collection::vec(0usize..1000, 1..12)) {
        for p in random_game(n, &choices) {
            let got = outcome(&p, &LayoutOptions::default());
            prop_assert!(!matches!(got, Outcome::Wrong(_)), "{} read back wrong: {:?}", p, got);
        }
    }
}

/// A small deterministic generator (a linear congruential one).
fn choices(seed: u64, k: usize) -> Vec<usize> {
    let mut s = seed;
    (0..k)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) as usize
        })
        .collect()
}

#[test]
fn random_positions_are_laid_out_exactly_nearly_always() {
    // One game for each number of spots from 2 to 7.
    let (mut positions, mut crossed, mut none_exact) = (0, 0, 0);
    for g in 0..6u64 {
        let n = 2 + g as u32;
        for p in random_game(n, &choices(1000 + g, 32)) {
            positions += 1;
            match outcome(&p, &LayoutOptions::default()) {
                Outcome::Exact => continue,
                Outcome::Crossed => crossed += 1,
                Outcome::Wrong(back) => panic!("{p} read back as {back}"),
            }
            // The first way is the default: the others, in turn.
            let again = ways(&p)
                .iter()
                .skip(1)
                .map(|o| outcome(&p, o))
                .find(|o| *o != Outcome::Crossed);
            match again {
                Some(Outcome::Wrong(back)) => panic!("{p} read back as {back}"),
                Some(_) => {}
                None => none_exact += 1,
            }
        }
    }
    println!("{positions} positions; crossing at first: {crossed}; no way exact: {none_exact}");
    // Measured: 4 of these 70 positions cross at first, none in all twelve
    // ways (over 40 longer games: 45 of 499 at first, 9 %, exactly the ones
    // the page's JavaScript drawing crosses, and 1 in all twelve ways). The
    // bound on the last is the page's own: at most 1 % of moves drawn
    // approximately.
    assert!(
        crossed * 100 <= 12 * positions,
        "at most 12 % cross at first ({crossed} of {positions})"
    );
    assert!(
        none_exact * 100 <= positions,
        "at most 1 % with no exact way ({none_exact} of {positions})"
    );
}
