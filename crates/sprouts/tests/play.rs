//! Property tests: random legal play, canonical forms under random
//! symmetries, records written and read back, parsers fed junk.

use parlor_sprouts::wgosa::WgosaMove;
use parlor_sprouts::{
    canonical, describe, labelled_key, resolve, successors, Position, Record, Setup,
};
use proptest::prelude::*;

/// Plays at random from `n` spots, choosing with `choices` (cycled), and
/// returns every position with the moves' written forms.
fn random_game(n: u32, choices: &[usize]) -> (Vec<Position>, Vec<String>) {
    let mut p = Position::start(n);
    let mut positions = vec![p.clone()];
    let mut written = Vec::new();
    let mut k = 0;
    loop {
        let next = successors(&p);
        assert_eq!(next.is_empty(), !p.has_move(), "{p}");
        if next.is_empty() {
            break;
        }
        let (mv, child, key) = next[choices[k % choices.len()] % next.len()].clone();
        k += 1;
        assert_eq!(parlor_sprouts::canonical_reduced(&child), key);
        let wm = describe(&p, &mv).unwrap_or_else(|| panic!("{p}: {mv:?} has no written form"));
        written.push(wm.to_string());
        // Continue from the drawing the written form means (the same up to
        // mirroring a drawing), as a replay of the record will: the `!`
        // flags of later moves are relative to its orientation.
        let (_, read) = resolve(&p, &wm).unwrap();
        assert_eq!(labelled_key(&read), labelled_key(&child), "{p}: {wm}");
        p = read;
        positions.push(p.clone());
    }
    (positions, written)
}

/// The mirror image of `p`: every boundary read the other way round.
fn mirrored(p: &Position) -> Position {
    let rows = p
        .rows()
        .iter()
        .map(|row| {
            row.iter()
                .map(|st| st.iter().rev().copied().collect())
                .collect()
        })
        .collect();
    Position::from_setup(Setup { rows }).expect("a mirror image is a position")
}

/// A random symmetry: renumber spots (with `relabel`), cut every stack,
/// mirror all (with `mirror`, at random), shuffle rows and stacks.
fn transform(p: &Position, seed: &[usize], relabel: bool, mirror: bool) -> Position {
    let mut s = seed.iter().copied().cycle();
    let mut spots = p.spots();
    let original = spots.clone();
    if relabel {
        for i in (1..spots.len()).rev() {
            spots.swap(i, s.next().unwrap() % (i + 1));
        }
    }
    let map = |c: u32| spots[original.binary_search(&c).unwrap()];
    let mirror = mirror && s.next().unwrap() % 2 == 1;
    let mut rows: Vec<Vec<Vec<u32>>> = p
        .rows()
        .iter()
        .map(|row| {
            let mut row: Vec<Vec<u32>> = row
                .iter()
                .map(|st| {
                    let mut st: Vec<u32> = st.iter().map(|&c| map(c)).collect();
                    if mirror {
                        st.reverse();
                    }
                    let cut = s.next().unwrap() % st.len();
                    st.rotate_left(cut);
                    st
                })
                .collect();
            let k = s.next().unwrap() % row.len();
            row.rotate_left(k);
            row
        })
        .collect();
    let k = s.next().unwrap() % rows.len();
    rows.rotate_left(k);
    if rows.len() > 1 && s.next().unwrap() % 2 == 0 {
        rows.swap(0, 1);
    }
    Position::from_setup(Setup { rows }).expect("a symmetry keeps a position valid")
}

proptest! {
    // 48 cases by default; PROPTEST_CASES=N for a longer run.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48)
    ))]

    #[test]
    fn random_play_keeps_the_rules(n in 1u32..=6, choices in prop::collection::vec(any::<usize>(), 1..20)) {
        let (positions, written) = random_game(n, &choices);
        // Each move uses exactly one life and needs two: at most 3n-1 moves.
        prop_assert!(written.len() < 3 * n as usize);
        for w in positions.windows(2) {
            prop_assert_eq!(w[1].total_lives() + 1, w[0].total_lives());
            // Every position reached passes the full check again.
            let again = Position::from_setup(Setup::parse(&w[1].to_string()).unwrap());
            prop_assert!(again.is_ok(), "{}: {:?}", w[1], again);
        }
        // The written record replays to the same positions, numbers kept.
        let text = format!("{n}+ {}", written.join(" "));
        let replay = Record::parse(&text).unwrap().replay().unwrap();
        prop_assert_eq!(replay.positions.len(), positions.len());
        for (a, b) in replay.positions.iter().zip(&positions) {
            prop_assert_eq!(labelled_key(a), labelled_key(b));
        }
        // Normalising a record changes nothing it already says.
        let normal = Record::parse(&text).unwrap().normalized().unwrap();
        prop_assert_eq!(normal.to_string(), text);
    }

    #[test]
    fn canonical_forms_ignore_symmetries(n in 1u32..=6, choices in prop::collection::vec(any::<usize>(), 1..20), seed in prop::collection::vec(any::<usize>(), 1..64)) {
        let (positions, _) = random_game(n, &choices);
        for p in positions {
            let q = transform(&p, &seed, true, true);
            prop_assert_eq!(canonical(&p), canonical(&q), "{} vs {}", p, q);
            prop_assert_eq!(parlor_sprouts::canonical_reduced(&p), parlor_sprouts::canonical_reduced(&q));
            let r = transform(&p, &seed, false, true);
            prop_assert_eq!(labelled_key(&p), labelled_key(&r), "{} vs {}", p, r);
        }
    }

    #[test]
    fn moves_read_back_after_a_symmetry(n in 2u32..=5, choices in prop::collection::vec(any::<usize>(), 1..12), seed in prop::collection::vec(any::<usize>(), 1..64)) {
        // A move's written form means the same drawing whichever way the
        // position is written down (numbers and orientation kept: the `!`
        // flags are relative to the orientation).
        let (positions, written) = random_game(n, &choices);
        for (p, w) in positions.iter().zip(&written) {
            let wm: WgosaMove = w.parse().unwrap();
            let (_, a) = resolve(p, &wm).unwrap();
            let q = transform(p, &seed, false, false);
            let (_, b) = resolve(&q, &wm).unwrap();
            prop_assert_eq!(labelled_key(&a), labelled_key(&b), "{} in {} and {}", w, p, q);
        }
    }

    #[test]
    fn every_written_move_has_one_reading(n in 2u32..=14, misere in any::<bool>(), choices in prop::collection::vec(any::<usize>(), 1..24)) {
        // Each move as parlor writes it reads back as the move played (in
        // `random_game`), and, unless it needs a `!` flag, as the same
        // move in the mirror image of the position: `@` and `[L]` mean
        // the same in every drawing, so a replayer holding the mirrored
        // drawing reads it the same. The record replays position by
        // position, in normal play and misère alike.
        let (positions, written) = random_game(n, &choices);
        for (p, w) in positions.iter().zip(&written) {
            let wm: WgosaMove = w.parse().unwrap();
            let reading = parlor_sprouts::read(p, &wm).unwrap();
            let a = reading.position;
            if reading.by_orientation {
                // Only the orientation tells this move from another (the
                // writer found no `@` or `[L]` that does): see
                // docs/rules/sprouts.md.
                continue;
            }
            let q = mirrored(p);
            let b = resolve(&q, &wm);
            prop_assert!(b.is_ok(), "{} in {} mirrored as {}: {:?}", w, p, q, b);
            let (_, b) = b.unwrap();
            prop_assert_eq!(labelled_key(&a), labelled_key(&b), "{} in {} and mirrored {}", w, p, q);
        }
        let text = format!("{n}{} {}", if misere { "-" } else { "+" }, written.join(" "));
        let record = Record::parse(&text).unwrap();
        prop_assert_eq!(record.misere, misere);
        let replay = record.replay().unwrap();
        prop_assert_eq!(replay.positions.len(), positions.len());
        for (a, b) in replay.positions.iter().zip(&positions) {
            prop_assert_eq!(labelled_key(a), labelled_key(b));
        }
    }

    #[test]
    fn parsers_never_panic(text in ".{0,80}") {
        let _ = Position::parse(&text);
        let _ = text.parse::<WgosaMove>();
        let _ = Record::parse(&text).map(|r| r.replay());
    }

    #[test]
    fn notation_like_junk_never_panics(text in "[0-9,;/ ]{0,40}", rec in "[0-9+\\-() !@\\[\\],I]{0,40}") {
        if let Ok(p) = Position::parse(&text) {
            prop_assert_eq!(Position::parse(&p.to_string()).unwrap(), p.clone());
            let _ = successors(&p);
        }
        let _ = Record::parse(&rec).map(|r| r.replay());
    }
}
