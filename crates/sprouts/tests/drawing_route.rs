//! Moves drawn into the game's picture without a curve from the player:
//! the documents' games are drawn exactly, a bare position is drawn from
//! its structure, and random games never cross and read back as their
//! positions wherever a move is not flagged approximate.

use parlor_sprouts::drawing::geometry::crossings;
use parlor_sprouts::drawing::route::{draw_game, position_key, Drawing};
use parlor_sprouts::drawing::structure::oriented_key;
use parlor_sprouts::{describe, successors, Position, Record};

/// A record's moves in their shortest form and the position after each.
fn replayed(record: &str) -> (u32, Vec<String>, Vec<Option<Position>>) {
    let rec = Record::parse(record).expect("the record parses");
    let replay = rec.replay().expect("the record replays");
    let moves = rec
        .moves
        .iter()
        .enumerate()
        .map(|(k, wm)| {
            describe(&replay.positions[k], &replay.moves[k])
                .unwrap_or_else(|| wm.clone())
                .to_string()
        })
        .collect();
    let positions = replay.positions[1..].iter().cloned().map(Some).collect();
    (rec.spots, moves, positions)
}

/// Asserts that `d` has no crossing.
fn planar(d: &Drawing, what: &str) {
    let found = crossings(&d.spots, &d.lines);
    let said: Vec<String> = found
        .iter()
        .map(|c| c.describe(&d.lines).to_string())
        .collect();
    assert!(said.is_empty(), "no crossing {what}: {said:?}");
}

/// Asserts that `d` reads back as `p`, cyclic orders included.
fn reads_back(d: &Drawing, p: &Position, what: &str) {
    assert_eq!(
        d.key(),
        position_key(&p.to_string()),
        "{what} reads back as {p}"
    );
    assert_eq!(
        d.oriented_key(),
        oriented_key(p.rows()),
        "{what}: the corners go round as in {p}"
    );
}

#[test]
fn the_documents_games_are_drawn_exactly() {
    for record in [
        "2+ 1(3)2 1(4)2 1(5)4 2(6)3",
        "8+ 1(9)2 1(10)1[3,4] 3(11)10 2(12)5 5(13)5 6(14)6[7,8] 7(15)8 6(16@2)14",
    ] {
        let (n, moves, positions) = replayed(record);
        // As the page does: the best of three starting arrangements.
        let d = draw_game(n, &moves, &positions, 3);
        planar(&d, &format!("in {record}"));
        assert_eq!(
            d.approximate,
            Vec::<usize>::new(),
            "every move of {record} drawn as the position says: {:?}",
            d.why
        );
        assert_eq!(d.moves, moves);
        // Nothing random, nothing timed: drawn again, the same picture.
        let twice = draw_game(n, &moves, &positions, 3);
        assert_eq!(
            (twice.variant, &twice.spots, &twice.lines),
            (d.variant, &d.spots, &d.lines)
        );
        let last = positions
            .last()
            .and_then(Option::as_ref)
            .expect("a last position");
        reads_back(&d, last, record);
        // Move by move on that arrangement: planar, and read back as the position.
        let mut again = Drawing::new(n, d.variant);
        for (m, p) in moves.iter().zip(&positions) {
            let p = p.as_ref().expect("known");
            let exact = again.apply(m, Some(p));
            planar(&again, &format!("after {m} in {record}"));
            assert!(exact, "{m} in {record} drawn exactly");
            reads_back(&again, p, &format!("{m} in {record}"));
        }
    }
}

#[test]
fn the_documents_games_come_out_as_the_page_drew_them() {
    // Where the page's former JavaScript router put every
    // spot, and how many points its lines have, for the documents' games.
    type Spots = &'static [(u32, [f64; 2])];
    let cases: [(&str, Spots, usize); 2] = [
        (
            "2+ 1(3)2 1(4)2 1(5)4 2(6)3",
            &[
                (1, [320.0, 320.0]),
                (2, [640.0, 320.0]),
                (3, [480.0, 320.0]),
                (4, [475.4, 237.4]),
                (5, [302.1, 210.3]),
                (6, [568.9, 294.3]),
            ],
            36,
        ),
        (
            "8+ 1(9)2 1(10)1[3,4] 3(11)10 2(12)5 5(13)5 6(14)6[7,8] 7(15)8 6(16@2)14",
            &[
                (1, [192.0, 213.0]),
                (2, [384.0, 213.0]),
                (3, [576.0, 213.0]),
                (4, [768.0, 213.0]),
                (5, [192.0, 427.0]),
                (6, [384.0, 427.0]),
                (7, [576.0, 427.0]),
                (8, [768.0, 427.0]),
                (9, [288.0, 213.0]),
                (10, [781.7, 147.3]),
                (11, [678.9, 180.2]),
                (12, [288.0, 320.0]),
                (13, [151.3, 507.5]),
                (14, [442.1, 36.7]),
                (15, [672.0, 427.0]),
                (16, [736.7, 336.9]),
            ],
            161,
        ),
    ];
    for (record, spots, points) in cases {
        let (n, moves, positions) = replayed(record);
        let d = draw_game(n, &moves, &positions, 3);
        assert_eq!(d.variant, 0, "{record}");
        let got: Vec<(u32, [f64; 2])> = d.spots.iter().map(|(&s, &p)| (s, p)).collect();
        assert_eq!(got, spots, "{record}: the spots");
        assert_eq!(
            d.lines.iter().map(|l| l.pts.len()).sum::<usize>(),
            points,
            "{record}: the lines' points"
        );
    }
}

#[test]
fn a_drawing_can_be_kept_by_a_shared_table() {
    fn shared<T: Clone + std::fmt::Debug + Send + Sync>() {}
    shared::<Drawing>();
}

#[test]
fn a_bare_position_is_drawn_from_its_structure() {
    for text in ["1;2;3", "5,1,3,2,4/5,4,1/6,2,3/6,3,1,4,2"] {
        let p = Position::parse(text).expect("a position");
        let d = Drawing::from_position(&p).expect("drawn");
        assert!(d.approximate.is_empty() && d.moves.is_empty());
        planar(&d, text);
        reads_back(&d, &p, text);
    }
    assert!(
        Drawing::from_position(&Position::start(0)).is_none(),
        "nothing to draw"
    );
}

#[test]
fn moves_the_drawing_cannot_read_are_flagged_and_change_nothing_else() {
    let mut d = Drawing::new(2, 0);
    let spots = d.spots.clone();
    // Not a move, a spot that is not there, a new spot that already is.
    for text in ["hello", "1(3)7", "1(2)1", ""] {
        assert!(!d.apply(text, None), "{text:?} is not drawn");
        assert_eq!(d.spots, spots);
        assert!(d.lines.is_empty());
    }
    assert_eq!(d.approximate, vec![0, 1, 2, 3]);
    // With the position after it known, the picture is drawn from that.
    let after = Position::parse("1,3,2,3").expect("a position");
    assert!(d.apply("=1,3,2,3", Some(&after)));
    reads_back(&d, &after, "a move given as its position");
    assert_eq!(d.redrawn, vec![4]);
    assert!(d.approximate.is_empty(), "the whole picture is exact again");
}

#[test]
fn without_positions_moves_are_drawn_by_their_meaning() {
    // Where the server's positions are not known, each move's meaning on
    // the grid decides; the documents' games still come out exact.
    let (n, moves, positions) =
        replayed("8+ 1(9)2 1(10)1[3,4] 3(11)10 2(12)5 5(13)5 6(14)6[7,8] 7(15)8 6(16@2)14");
    let mut d = Drawing::new(n, 0);
    for (m, p) in moves.iter().zip(&positions) {
        let exact = d.apply(m, None);
        planar(&d, &format!("after {m}"));
        if exact {
            assert_eq!(
                d.key(),
                position_key(&p.as_ref().expect("known").to_string()),
                "{m}"
            );
        }
    }
    assert_eq!(d.lines.len() + d.unplaced.len(), 2 * moves.len());
}

/// A small deterministic generator (mulberry32), as the page's test uses.
fn rng(seed: u32) -> impl FnMut() -> f64 {
    let mut a = seed;
    move || {
        a = a.wrapping_add(0x6d2b_79f5);
        let mut t = a;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        f64::from(t ^ (t >> 14)) / 4_294_967_296.0
    }
}

/// A random game from `n` spots: each move (shortest text) and the
/// position after it.
fn random_game(seed: u32, n: u32) -> (Vec<String>, Vec<Position>) {
    let mut random = rng(seed);
    let mut position = Position::start(n);
    let (mut ms, mut ps) = (Vec::new(), Vec::new());
    loop {
        let list = successors(&position);
        if list.is_empty() {
            break;
        }
        let k = (random() * list.len() as f64).floor() as usize;
        let (mv, next, _) = &list[k];
        let text = describe(&position, mv).map_or_else(|| format!("={next}"), |w| w.to_string());
        ms.push(text);
        ps.push(next.clone());
        position = next.clone();
    }
    (ms, ps)
}

/// Plays `games` random games (seeds and sizes as the page's test), every
/// move applied with its position after; checks planarity after each move
/// and that each move drawn exactly reads back; returns (moves, approximate
/// moves, games drawn exactly, microseconds per move).
fn random_games(games: u32) -> (usize, usize, u32, Vec<u128>) {
    let (mut moves, mut approx, mut exact_games) = (0, 0, 0);
    let mut times = Vec::new();
    for g in 0..games {
        let n = 2 + g % 5;
        let (ms, ps) = random_game(1000 + g, n);
        moves += ms.len();
        let mut d = Drawing::new(n, 0);
        let mut missed = Vec::new();
        for (k, (m, p)) in ms.iter().zip(&ps).enumerate() {
            let t0 = std::time::Instant::now();
            let exact = d.apply(m, Some(p));
            times.push(t0.elapsed().as_micros());
            planar(&d, &format!("after {m} in {n}+ {}", ms.join(" ")));
            if exact {
                assert_eq!(
                    d.oriented_key(),
                    oriented_key(p.rows()),
                    "{m} reads back as {p}"
                );
            } else {
                missed.push(k);
            }
        }
        approx += missed.len();
        if missed.is_empty() {
            exact_games += 1;
        } else {
            eprintln!(
                "# game {g}: {n}+ {} — {:?}",
                ms[..=missed[0]].join(" "),
                d.why.first()
            );
        }
    }
    (moves, approx, exact_games, times)
}

/// The bounds the page's test holds its drawing to.
fn check_random_games(games: u32) {
    let (moves, approx, exact_games, mut times) = random_games(games);
    times.sort_unstable();
    eprintln!(
        "# {games} random games, {moves} moves; drawn approximately: {approx}; {exact_games} games drawn exactly; \
         median {} us a move, slowest {} us",
        times.get(times.len() / 2).copied().unwrap_or(0),
        times.last().copied().unwrap_or(0)
    );
    assert!(
        approx <= 2.max(moves.div_ceil(100)),
        "at most 1 % of moves drawn approximately ({approx} of {moves})"
    );
    let allowed = 1.max(games / 20);
    assert!(
        exact_games + allowed >= games,
        "at most 1 game in 20 with an approximate move ({})",
        games - exact_games
    );
}

#[test]
fn random_games_never_cross_and_read_back() {
    // The page's test's 24 games (about 12 s unoptimised on one core).
    check_random_games(24);
}
