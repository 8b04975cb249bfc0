//! A player's stroke read as a move.
//!
//! On paper a move is whatever line the player draws: the line decides
//! which region it runs through, which corners of its ends it leaves and
//! reaches, and, for a line that closes a curve, which spots and boundaries
//! end up on each side. [`read`] does the same with a stroke drawn on the
//! page: it keeps the stroke (simplified) as the move's line, refuses it
//! where it crosses a line or itself or runs through a spot (saying where),
//! puts the new spot at its middle, reads the whole drawing back as the card
//! notation and finds the one move whose result is exactly that position.
//! Mirror images are different strokes, so they are different moves here,
//! whatever class of moves the legal list shows them under.

use std::collections::BTreeMap;

use super::geometry::{collinear_overlap as overlapping, meeting_point as meeting, seg_dist};
use super::structure::{least_rotation, oriented_key, read_back};
use super::{Line, Pt, H, W};
use crate::moves::{apply, Move};
use crate::position::{Position, Spot};

/// Points a stroke may have as sent; more is refused before any work. At
/// a tenth of a unit, 500 points are about 7 KiB of JSON: well within a
/// play server's message limit (16 KiB), and what a game record keeps.
pub const MAX_POINTS: usize = 500;
/// Points a stroke keeps once simplified: the line every viewer is sent.
pub const KEPT_POINTS: usize = 200;
/// How far from a spot's centre a stroke may start or end and still be on
/// it (the page's spots are 7 units across; a finger is not that exact).
pub const SNAP: f64 = 22.0;
/// How close a stroke may pass by a spot that is not one of its ends
/// without running through it: which side of the spot it passes decides
/// the move, so it must be plain; and no closer than the router's own
/// lines come.
pub const CLEAR: f64 = 3.0;
/// How close a stroke may pass by its own end spots away from its ends.
const TOUCH: f64 = 1.0;
/// How far a simplified stroke may stray from the stroke as drawn.
const TOLERANCE: f64 = 1.0;

/// Why a stroke is not a move. Each says where, for the page to mark.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StrokeError {
    /// More points than [`MAX_POINTS`].
    #[error("a stroke has {got} points; at most {MAX_POINTS} are accepted")]
    TooManyPoints {
        /// How many came.
        got: usize,
    },
    /// Fewer than two points.
    #[error("a stroke needs at least two points: where it starts and where it ends")]
    TooFewPoints,
    /// A point outside the paper, or not a number.
    #[error("point {index} of the stroke is off the paper (x from 0 to 960, y from 0 to 640)")]
    OffPaper {
        /// Which point (from 0).
        index: usize,
    },
    /// The stroke starts or ends away from every spot.
    #[error("the stroke {end} at no spot ({x:.0}, {y:.0}): start and end within 22 units of a spot", x = at[0], y = at[1])]
    NoSpot {
        /// "starts" or "ends".
        end: &'static str,
        /// Where.
        at: Pt,
    },
    /// An end is a dead spot.
    #[error("spot {spot} is dead: it has three lines, and no line may start or end there")]
    Dead {
        /// The spot.
        spot: Spot,
        /// Where it is.
        at: Pt,
    },
    /// A loop from a spot with one life left.
    #[error("spot {spot} has one life left: a line from it back to itself uses two")]
    OneLife {
        /// The spot.
        spot: Spot,
        /// Where it is.
        at: Pt,
    },
    /// The stroke crosses or touches a line.
    #[error("the stroke crosses the line between spots {a} and {b} at ({x:.0}, {y:.0}): lines may not cross", x = at[0], y = at[1])]
    Crosses {
        /// One end of the line crossed.
        a: Spot,
        /// Its other end.
        b: Spot,
        /// Where.
        at: Pt,
    },
    /// The stroke crosses itself.
    #[error("the stroke crosses itself at ({x:.0}, {y:.0}): a line may not cross itself", x = at[0], y = at[1])]
    CrossesItself {
        /// Where.
        at: Pt,
    },
    /// The stroke runs through a spot.
    #[error("the stroke runs through spot {spot}: a line may touch spots only at its ends")]
    ThroughSpot {
        /// The spot.
        spot: Spot,
        /// Where it is.
        at: Pt,
    },
    /// A loop too small to have an inside.
    #[error("the stroke from spot {spot} back to it encloses nothing: draw the loop larger")]
    NoInside {
        /// The spot.
        spot: Spot,
        /// Where it is.
        at: Pt,
    },
    /// The drawing with the stroke reads as no legal move (the drawing
    /// there is only approximate).
    #[error("the drawing near spots {a} and {b} is only approximate, so the stroke cannot be read as a move: choose the move from the list")]
    Unreadable {
        /// One end.
        a: Spot,
        /// The other.
        b: Spot,
        /// Where the stroke starts.
        at: Pt,
    },
}

impl StrokeError {
    /// Where on the paper the refusal is, if anywhere.
    pub fn at(&self) -> Option<Pt> {
        match self {
            StrokeError::TooManyPoints { .. }
            | StrokeError::TooFewPoints
            | StrokeError::OffPaper { .. } => None,
            StrokeError::NoSpot { at, .. }
            | StrokeError::Dead { at, .. }
            | StrokeError::OneLife { at, .. }
            | StrokeError::Crosses { at, .. }
            | StrokeError::CrossesItself { at }
            | StrokeError::ThroughSpot { at, .. }
            | StrokeError::NoInside { at, .. }
            | StrokeError::Unreadable { at, .. } => Some(*at),
        }
    }

    /// Whether the stroke could not be read at all (as opposed to a line
    /// the rules refuse).
    pub fn is_malformed(&self) -> bool {
        matches!(
            self,
            StrokeError::TooManyPoints { .. }
                | StrokeError::TooFewPoints
                | StrokeError::OffPaper { .. }
        )
    }
}

/// A stroke read as a move.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawn {
    /// The move.
    pub mv: Move,
    /// The position after it.
    pub after: Position,
    /// Where the new spot is.
    pub spot: Pt,
    /// The two lines the move draws: from the first end to the new spot,
    /// and from the new spot to the other end.
    pub lines: [Line; 2],
}

/// Reads `stroke`, drawn on the picture `spots` / `lines` of `position`, as
/// move number `by_move` (from 0).
pub fn read(
    spots: &BTreeMap<Spot, Pt>,
    lines: &[Line],
    position: &Position,
    stroke: &[Pt],
    by_move: usize,
) -> Result<Drawn, StrokeError> {
    if stroke.len() > MAX_POINTS {
        return Err(StrokeError::TooManyPoints { got: stroke.len() });
    }
    if stroke.len() < 2 {
        return Err(StrokeError::TooFewPoints);
    }
    if let Some(index) = stroke
        .iter()
        .position(|p| !(0.0..=W).contains(&p[0]) || !(0.0..=H).contains(&p[1]))
    {
        return Err(StrokeError::OffPaper { index });
    }
    let first = stroke[0];
    let last = stroke[stroke.len() - 1];
    let a = nearest_spot(spots, first).ok_or(StrokeError::NoSpot {
        end: "starts",
        at: first,
    })?;
    let b = nearest_spot(spots, last).ok_or(StrokeError::NoSpot {
        end: "ends",
        at: last,
    })?;
    let (pa, pb) = (spots[&a], spots[&b]);
    let lives = position.lives_map();
    for (s, at) in [(a, pa), (b, pb)] {
        if lives.get(&s).copied().unwrap_or(0) == 0 {
            return Err(StrokeError::Dead { spot: s, at });
        }
    }
    if a == b && lives.get(&a).copied().unwrap_or(0) < 2 {
        return Err(StrokeError::OneLife { spot: a, at: pa });
    }
    let pts = kept_line(stroke, pa, pb);
    if a == b && (pts.len() < 4 || area(&pts).abs() < 1.0) {
        return Err(StrokeError::NoInside { spot: a, at: pa });
    }
    check_clear(spots, lines, a, b, &pts)?;

    // The new spot at the middle of the line, by length.
    let (mid, at) = middle(&pts);
    let g = position.next_spot();
    let mut first_half: Vec<Pt> = pts[..at].to_vec();
    first_half.push(mid);
    let mut second_half = vec![mid];
    second_half.extend_from_slice(&pts[at..]);
    let new_lines = [
        Line {
            a,
            b: g,
            pts: first_half,
            by_move,
        },
        Line {
            a: g,
            b,
            pts: second_half,
            by_move,
        },
    ];
    let mut all_spots = spots.clone();
    all_spots.insert(g, mid);
    let mut all_lines = lines.to_vec();
    all_lines.extend(new_lines.iter().cloned());
    let read = read_back(&all_spots, &all_lines);
    let want = oriented_key(&read);
    let (mv, after) = moves_between(position, a, b, &read)
        .into_iter()
        .filter_map(|mv| apply(position, &mv).ok().map(|p| (mv, p)))
        .find(|(_, p)| oriented_key(p.rows()) == want)
        .ok_or(StrokeError::Unreadable { a, b, at: pa })?;
    Ok(Drawn {
        mv,
        after,
        spot: mid,
        lines: new_lines,
    })
}

/// The spot nearest `p` within [`SNAP`].
fn nearest_spot(spots: &BTreeMap<Spot, Pt>, p: Pt) -> Option<Spot> {
    spots
        .iter()
        .map(|(&s, &q)| (s, dist(p, q)))
        .filter(|&(_, d)| d <= SNAP)
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(s, _)| s)
}

/// The line kept for a stroke: from spot centre to spot centre, the points
/// drawn inside the end spots left out, simplified until at most
/// [`KEPT_POINTS`] remain, rounded to a tenth of a unit.
fn kept_line(stroke: &[Pt], pa: Pt, pb: Pt) -> Vec<Pt> {
    let inner = &stroke[1..stroke.len() - 1];
    let start = inner
        .iter()
        .position(|&p| dist(p, pa) > CLEAR)
        .unwrap_or(inner.len());
    let end = inner
        .iter()
        .rposition(|&p| dist(p, pb) > CLEAR)
        .map_or(start, |e| (e + 1).max(start));
    let mut pts = vec![pa];
    pts.extend(inner[start..end].iter().copied());
    pts.push(pb);
    let mut tolerance = TOLERANCE;
    let mut kept = simplify(&pts, tolerance);
    while kept.len() > KEPT_POINTS {
        tolerance *= 2.0;
        kept = simplify(&pts, tolerance);
    }
    let round = |x: f64| (x * 10.0).round() / 10.0;
    let last = kept.len() - 1;
    kept.iter()
        .enumerate()
        .map(|(i, p)| {
            if i == 0 {
                pa
            } else if i == last {
                pb
            } else {
                [round(p[0]), round(p[1])]
            }
        })
        .collect()
}

/// Douglas and Peucker's simplification: the fewest points whose polyline
/// stays within `tolerance` of `pts`, ends kept.
fn simplify(pts: &[Pt], tolerance: f64) -> Vec<Pt> {
    let n = pts.len();
    if n <= 2 {
        return pts.to_vec();
    }
    let mut keep = vec![false; n];
    keep[0] = true;
    keep[n - 1] = true;
    let mut todo = vec![(0, n - 1)];
    while let Some((i, j)) = todo.pop() {
        let (mut far, mut at) = (0.0, i);
        for (k, &p) in pts.iter().enumerate().take(j).skip(i + 1) {
            let d = seg_dist(p, pts[i], pts[j]);
            if d > far {
                far = d;
                at = k;
            }
        }
        if far > tolerance {
            keep[at] = true;
            todo.push((i, at));
            todo.push((at, j));
        }
    }
    pts.iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(p, _)| *p)
        .collect()
}

/// Refuses a line that crosses or touches another line, crosses itself,
/// or runs through a spot.
fn check_clear(
    spots: &BTreeMap<Spot, Pt>,
    lines: &[Line],
    a: Spot,
    b: Spot,
    pts: &[Pt],
) -> Result<(), StrokeError> {
    let (pa, pb) = (spots[&a], spots[&b]);
    let last = pts.len() - 2;
    // Through a spot: any spot but the ends, and the ends themselves away
    // from the segments that leave and reach them.
    for (&s, &q) in spots {
        for (i, w) in pts.windows(2).enumerate() {
            let own_end = (s == a && i == 0) || (s == b && i == last);
            if own_end {
                continue;
            }
            if (s == a || s == b) && (q == w[0] || q == w[1]) {
                // A loop's first segment starts where its last ends.
                continue;
            }
            // The line's own ends: it may come close on its way in or out
            // (a curl into the spot), never through.
            let clear = if s == a || s == b { TOUCH } else { CLEAR };
            if seg_dist(q, w[0], w[1]) < clear {
                return Err(StrokeError::ThroughSpot { spot: s, at: q });
            }
        }
    }
    // Other lines: they may meet the stroke only at its end spots.
    for line in lines {
        let (lo, hi) = bounds(&line.pts);
        for (i, w) in pts.windows(2).enumerate() {
            if w[0][0].max(w[1][0]) < lo[0]
                || w[0][0].min(w[1][0]) > hi[0]
                || w[0][1].max(w[1][1]) < lo[1]
                || w[0][1].min(w[1][1]) > hi[1]
            {
                continue;
            }
            for v in line.pts.windows(2) {
                if let Some(at) = meeting(w[0], w[1], v[0], v[1]) {
                    let shared = (i == 0 && at == pa) || (i == last && at == pb);
                    if !shared || overlapping(w[0], w[1], v[0], v[1]) {
                        return Err(StrokeError::Crosses {
                            a: line.a,
                            b: line.b,
                            at,
                        });
                    }
                }
            }
        }
    }
    // Itself: segments that are not neighbours never meet; neighbours
    // only at their shared point.
    for i in 0..=last {
        for j in i + 1..=last {
            let (p, q) = ((pts[i], pts[i + 1]), (pts[j], pts[j + 1]));
            let neighbours = j == i + 1 || (i == 0 && j == last && a == b);
            match meeting(p.0, p.1, q.0, q.1) {
                Some(at) if !neighbours || overlapping(p.0, p.1, q.0, q.1) => {
                    return Err(StrokeError::CrossesItself { at });
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// The moves of `position` with a line from spot `a` to spot `b` that can
/// give the drawing `read`: every corner of each end, and for a line that
/// divides a region, the other boundaries of the region on the side the
/// drawing shows them.
fn moves_between(position: &Position, a: Spot, b: Spot, read: &[Vec<Vec<Spot>>]) -> Vec<Move> {
    let mut out = Vec::new();
    let g = position.next_spot();
    // The drawing's regions beside the new spot: after a line that divides
    // a region, the two it became.
    let sides: Vec<&Vec<Vec<Spot>>> = read
        .iter()
        .filter(|row| row.iter().any(|s| s.contains(&g)))
        .collect();
    for (r, row) in position.rows().iter().enumerate() {
        for (i, st) in row.iter().enumerate() {
            for (x, &c) in st.iter().enumerate() {
                if c != a && c != b {
                    continue;
                }
                let other = if c == a { b } else { a };
                for (j, st2) in row.iter().enumerate() {
                    if j == i {
                        continue;
                    }
                    for (y, &d) in st2.iter().enumerate() {
                        if d == other {
                            out.push(Move::Join {
                                row: r,
                                a: i,
                                a_cut: x,
                                b: j,
                                b_cut: y,
                            });
                        }
                    }
                }
                if !st.contains(&other) {
                    continue;
                }
                // Which of the region's other boundaries the drawing puts
                // with each of the two new stacks.
                for side in &sides {
                    let moved: Vec<usize> = row
                        .iter()
                        .enumerate()
                        .filter(|&(k, other)| {
                            k != i
                                && side
                                    .iter()
                                    .any(|s| least_rotation(s) == least_rotation(other))
                        })
                        .map(|(k, _)| k)
                        .collect();
                    for take in 1..=st.len() {
                        out.push(Move::Divide {
                            row: r,
                            stack: i,
                            cut: x,
                            take,
                            moved: moved.clone(),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The point at half the length of `pts`, and the index it goes before.
fn middle(pts: &[Pt]) -> (Pt, usize) {
    let total: f64 = pts.windows(2).map(|w| dist(w[0], w[1])).sum();
    let mut left = total / 2.0;
    for (k, w) in pts.windows(2).enumerate() {
        let l = dist(w[0], w[1]);
        if l >= left && l > 0.0 {
            let u = left / l;
            let p = [
                ((w[0][0] + u * (w[1][0] - w[0][0])) * 10.0).round() / 10.0,
                ((w[0][1] + u * (w[1][1] - w[0][1])) * 10.0).round() / 10.0,
            ];
            // On a point of the line already: that point is the new spot.
            if p == w[0] && k > 0 {
                return (p, k);
            }
            return (p, k + 1);
        }
        left -= l;
    }
    (pts[pts.len() / 2], pts.len() / 2)
}

fn dist(p: Pt, q: Pt) -> f64 {
    (p[0] - q[0]).hypot(p[1] - q[1])
}

/// Twice the signed area of the closed polyline.
fn area(pts: &[Pt]) -> f64 {
    pts.iter()
        .zip(pts.iter().cycle().skip(1))
        .map(|(p, q)| p[0] * q[1] - q[0] * p[1])
        .sum()
}

fn bounds(pts: &[Pt]) -> (Pt, Pt) {
    pts.iter().fold(
        ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]),
        |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1])],
                [hi[0].max(p[0]), hi[1].max(p[1])],
            )
        },
    )
}
