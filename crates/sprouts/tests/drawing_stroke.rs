//! Lines drawn on the paper: the stroke decides the move, the table keeps
//! the line, and a stroke the rules refuse says why and where.
//!
//! Three starting spots lie on a row across the middle of the paper (1 at
//! (240, 320), 2 at (480, 320), 3 at (720, 320)): the table's own starting
//! arrangement, read from its view.

use parlor_core::{Actor, ErrorKind, Game, GameError, Resources, Seat, Viewer};
use parlor_sprouts::drawing::Pt;
use parlor_sprouts::{labelled_key, Action, Config, Position, Sprouts};

fn table(spots: u32) -> Sprouts {
    Sprouts::new(
        &Config {
            spots,
            ..Config::default()
        },
        0,
        &Resources::embedded(),
    )
    .unwrap()
}

fn draw(g: &mut Sprouts, seat: usize, pts: &[Pt]) -> Result<String, parlor_sprouts::game::Error> {
    g.apply(Actor::Seat(Seat(seat)), Action::drawn(pts.to_vec()))?;
    Ok(g.view(Viewer::Spectator).moves.last().unwrap().clone())
}

/// A joins 1 to 2 straight across, B joins 1 to 3 over the top.
fn opening() -> Sprouts {
    let mut g = table(3);
    let spots = g.view(Viewer::Spectator).drawing.spots;
    assert_eq!(spots[&1], [240.0, 320.0]);
    assert_eq!(spots[&2], [480.0, 320.0]);
    assert_eq!(spots[&3], [720.0, 320.0]);
    assert_eq!(
        draw(&mut g, 0, &[[238.0, 322.0], [480.0, 321.0]]).unwrap(),
        "1(4)2"
    );
    assert_eq!(
        draw(
            &mut g,
            1,
            &[
                [240.0, 320.0],
                [300.0, 200.0],
                [660.0, 200.0],
                [720.0, 320.0]
            ]
        )
        .unwrap(),
        "1(5)3"
    );
    g
}

#[test]
fn a_stroke_is_kept_as_the_moves_line_with_the_new_spot_at_its_middle() {
    let g = opening();
    let v = g.view(Viewer::Spectator);
    // New spot 4 halfway along 1 to 2; spot 5 halfway along the arch.
    assert_eq!(v.drawing.spots[&4], [360.0, 320.0]);
    assert_eq!(v.drawing.spots[&5], [480.0, 200.0]);
    let lines: Vec<(u32, u32, usize)> = v
        .drawing
        .lines
        .iter()
        .map(|l| (l.a, l.b, l.by_move))
        .collect();
    assert_eq!(lines, vec![(1, 4, 0), (4, 2, 0), (1, 5, 1), (5, 3, 1)]);
    assert_eq!(
        v.drawing.lines[2].pts,
        vec![[240.0, 320.0], [300.0, 200.0], [480.0, 200.0]]
    );
    assert!(v.drawing.approximate.is_empty() && v.drawing.unplaced.is_empty());
}

#[test]
fn both_ways_round_spot_2_are_moves_though_the_list_shows_one_class() {
    // From 4 to 3 under the row (spot 2 ends up inside the new curve) and
    // over it (spot 2 outside): mirror images of one another, one class of
    // the legal list, and both drawable.
    let below: &[Pt] = &[
        [360.0, 320.0],
        [400.0, 420.0],
        [700.0, 420.0],
        [720.0, 320.0],
    ];
    let above: &[Pt] = &[
        [360.0, 320.0],
        [400.0, 270.0],
        [690.0, 280.0],
        [720.0, 320.0],
    ];
    let mut one = opening();
    let listed: Vec<String> = one
        .legal_actions(Seat(0))
        .unwrap()
        .iter()
        .map(|a| a.text().to_string())
        .collect();
    let mut two = opening();
    let a = draw(&mut one, 0, below).unwrap();
    let b = draw(&mut two, 0, above).unwrap();
    assert_eq!(a, b, "the record does not tell mirror images apart");
    assert!(
        !listed.contains(&a),
        "{a} is not the class's listed move: {listed:?}"
    );
    let pa = one.view(Viewer::Spectator).position;
    let pb = two.view(Viewer::Spectator).position;
    assert_ne!(pa, pb, "each table keeps its own drawing's cyclic orders");
    let key = |p: &str| labelled_key(&Position::parse(p).unwrap());
    assert_eq!(key(&pa), key(&pb));
    // The text replays to the same drawing, and gets a line routed.
    let mut g = opening();
    g.apply(Actor::Seat(Seat(0)), Action::new(a.as_str()))
        .unwrap();
    let v = g.view(Viewer::Spectator);
    assert_eq!(key(&v.position), key(&pa));
    assert!(v.drawing.approximate.is_empty(), "{a} routed exactly");
}

#[test]
fn a_stroke_crossing_a_line_is_refused_where_it_crosses_and_changes_nothing() {
    let mut g = opening();
    let before = g.view(Viewer::Spectator);
    let e = g
        .apply(
            Actor::Seat(Seat(0)),
            Action::drawn(vec![
                [480.0, 320.0],
                [400.0, 250.0],
                [400.0, 100.0],
                [720.0, 100.0],
                [720.0, 320.0],
            ]),
        )
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Illegal);
    assert_eq!(e.at(), Some([400, 200]), "{e}");
    assert!(
        e.to_string()
            .contains("crosses the line between spots 1 and 5"),
        "{e}"
    );
    assert_eq!(g.view(Viewer::Spectator), before);
}

#[test]
fn strokes_through_spots_crossing_themselves_or_from_spent_spots_are_refused() {
    let mut g = opening();
    let before = g.view(Viewer::Spectator);
    // The stroke, what the refusal says, and where (if it says).
    type Case<'a> = (&'a [Pt], &'a str, Option<[i32; 2]>);
    let cases: &[Case] = &[
        // A loop from 1, which has one life left.
        (
            &[
                [240.0, 320.0],
                [150.0, 250.0],
                [150.0, 400.0],
                [240.0, 320.0],
            ],
            "spot 1 has one life left",
            Some([240, 320]),
        ),
        // From 2 to 3 round the bottom, crossing itself on the way.
        (
            &[
                [480.0, 320.0],
                [500.0, 500.0],
                [600.0, 400.0],
                [480.0, 420.0],
                [720.0, 320.0],
            ],
            "crosses itself",
            None,
        ),
        // From nowhere.
        (
            &[[100.0, 100.0], [240.0, 320.0]],
            "starts at no spot",
            Some([100, 100]),
        ),
        // Off the paper.
        (
            &[[240.0, 320.0], [-5.0, 320.0], [240.0, 330.0]],
            "off the paper",
            None,
        ),
    ];
    for (pts, says, at) in cases {
        let e = g
            .apply(Actor::Seat(Seat(0)), Action::drawn(pts.to_vec()))
            .unwrap_err();
        assert!(e.to_string().contains(says), "{pts:?}: {e}");
        if at.is_some() {
            assert_eq!(e.at(), *at, "{pts:?}: {e}");
        }
        assert_eq!(g.view(Viewer::Spectator), before, "{pts:?} changed nothing");
    }
    // The first: it runs through spot 4 on the way.
    let e = g
        .apply(
            Actor::Seat(Seat(0)),
            Action::drawn(vec![
                [240.0, 320.0],
                [240.0, 400.0],
                [360.0, 325.0],
                [480.0, 320.0],
            ]),
        )
        .unwrap_err();
    assert!(e.to_string().contains("runs through spot 4"), "{e}");
    assert_eq!(e.at(), Some([360, 320]));
}

#[test]
fn a_dead_spot_says_it_is_dead() {
    // A loop at 1 (new spot 3 on top), then 1 to 3 round the right: spot 1
    // has three lines.
    let mut g = table(2);
    assert_eq!(g.view(Viewer::Spectator).drawing.spots[&1], [320.0, 320.0]);
    draw(
        &mut g,
        0,
        &[
            [320.0, 320.0],
            [220.0, 200.0],
            [420.0, 200.0],
            [320.0, 320.0],
        ],
    )
    .unwrap();
    let s3 = g.view(Viewer::Spectator).drawing.spots[&3];
    assert_eq!(s3, [320.0, 200.0]);
    draw(
        &mut g,
        1,
        &[[320.0, 320.0], [440.0, 420.0], [490.0, 150.0], s3],
    )
    .unwrap();
    assert_eq!(g.view(Viewer::Spectator).spot_lives[&1], 0);
    let before = g.view(Viewer::Spectator);
    let e = g
        .apply(
            Actor::Seat(Seat(0)),
            Action::drawn(vec![[320.0, 320.0], [700.0, 500.0], [640.0, 330.0]]),
        )
        .unwrap_err();
    assert!(e.to_string().contains("spot 1 is dead"), "{e}");
    assert_eq!(e.at(), Some([320, 320]));
    assert_eq!(g.view(Viewer::Spectator), before);
}

#[test]
fn a_stroke_that_claims_another_move_is_refused() {
    let mut g = opening();
    let below = vec![
        [360.0, 320.0],
        [400.0, 420.0],
        [700.0, 420.0],
        [720.0, 320.0],
    ];
    let mut probe = opening();
    let drawn = draw(&mut probe, 0, &below).unwrap();
    let e = g
        .apply(
            Actor::Seat(Seat(0)),
            Action::drawn_as(below.clone(), "2(6)3[1]"),
        )
        .unwrap_err();
    assert!(e.to_string().contains("the line drawn is the move"), "{e}");
    g.apply(
        Actor::Seat(Seat(0)),
        Action::drawn_as(below, drawn.as_str()),
    )
    .unwrap();
}

#[test]
fn actions_are_strings_or_drawn_lines_in_json() {
    let a: Action = serde_json::from_str(r#""1(4)2""#).unwrap();
    assert_eq!(a, Action::new("1(4)2"));
    let b: Action = serde_json::from_str(r#"{"curve": [[1, 2], [3, 4.5]]}"#).unwrap();
    assert_eq!(b, Action::drawn(vec![[1.0, 2.0], [3.0, 4.5]]));
    let c: Action =
        serde_json::from_str(r#"{"curve": [[1, 2], [3, 4]], "move": "1(4)2"}"#).unwrap();
    assert_eq!(c.text(), "1(4)2");
    assert_eq!(serde_json::to_string(&a).unwrap(), r#""1(4)2""#);
    assert_eq!(
        serde_json::to_string(&b).unwrap(),
        r#"{"curve":[[1.0,2.0],[3.0,4.5]]}"#
    );
    for bad in [
        r#"{"curve": "x"}"#,
        r#"{"line": []}"#,
        "3",
        r#"{"curve": [[1]]}"#,
    ] {
        assert!(serde_json::from_str::<Action>(bad).is_err(), "{bad}");
    }
}
