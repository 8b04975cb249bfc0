//! Segments, distances and crossings on the paper.
//!
//! Two lines of a drawing may meet only at a spot both of them end at, a
//! line may not cross itself, and no line may pass through (or within one
//! unit of) a spot that is not one of its ends. [`crossings`] lists every
//! breach of those rules, so an empty list means a planar drawing.
//!
//! Touching counts as meeting: a line laid along another, or ending on one
//! away from a shared spot, would read back as a different position, so
//! every test here is closed (end points included).

use std::collections::BTreeMap;
use std::fmt;

use super::{Line, Pt};
use crate::position::Spot;

/// The distance from `p` to segment `ab`, and where the nearest point lies
/// along it (0 at `a`, 1 at `b`).
pub fn seg_closest(p: Pt, a: Pt, b: Pt) -> (f64, f64) {
    let dx = b[0] - a[0];
    let dy = b[1] - a[1];
    let l2 = dx * dx + dy * dy;
    let mut t = if l2 != 0.0 {
        ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2
    } else {
        0.0
    };
    t = t.clamp(0.0, 1.0);
    let x = a[0] + t * dx - p[0];
    let y = a[1] + t * dy - p[1];
    ((x * x + y * y).sqrt(), t)
}

/// The distance from `p` to segment `ab`.
pub fn seg_dist(p: Pt, a: Pt, b: Pt) -> f64 {
    seg_closest(p, a, b).0
}

/// Which side of the line through `a` and `b` the point `c` is on: the sign
/// of the cross product, 0 when the three are in a line.
fn orient(a: Pt, b: Pt, c: Pt) -> i8 {
    let v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    if v > 0.0 {
        1
    } else if v < 0.0 {
        -1
    } else {
        0
    }
}

/// Whether `q` lies in the box spanned by `p` and `r` (for a `q` already
/// known to be in line with them: on the segment).
fn on(p: Pt, q: Pt, r: Pt) -> bool {
    p[0].min(r[0]) <= q[0]
        && q[0] <= p[0].max(r[0])
        && p[1].min(r[1]) <= q[1]
        && q[1] <= p[1].max(r[1])
}

/// Whether segments `ab` and `cd` cross or touch.
pub fn segments_meet(a: Pt, b: Pt, c: Pt, d: Pt) -> bool {
    let o1 = orient(a, b, c);
    let o2 = orient(a, b, d);
    let o3 = orient(c, d, a);
    let o4 = orient(c, d, b);
    if o1 != o2 && o3 != o4 {
        return true;
    }
    (o1 == 0 && on(a, c, b))
        || (o2 == 0 && on(a, d, b))
        || (o3 == 0 && on(c, a, d))
        || (o4 == 0 && on(c, b, d))
}

/// Where segments `ab` and `cd` meet, if they do (touching counts): the
/// crossing point, or for segments that touch, a point they share. A
/// player's stroke is refused there, and the page marks it.
pub fn meeting_point(a: Pt, b: Pt, c: Pt, d: Pt) -> Option<Pt> {
    let (o1, o2) = (orient(c, d, a), orient(c, d, b));
    let (o3, o4) = (orient(a, b, c), orient(a, b, d));
    if o1 * o2 < 0 && o3 * o4 < 0 {
        let side = |p: Pt| (d[0] - c[0]) * (p[1] - c[1]) - (d[1] - c[1]) * (p[0] - c[0]);
        let t = side(a) / (side(a) - side(b));
        return Some([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
    }
    [(o1, a, c, d), (o2, b, c, d), (o3, c, a, b), (o4, d, a, b)]
        .into_iter()
        .find(|&(o, p, q, r)| o == 0 && on(q, p, r))
        .map(|(_, p, _, _)| p)
}

/// Whether two points are the same point (up to rounding).
fn same(a: Pt, b: Pt) -> bool {
    (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9
}

/// Whether two polylines cross or touch anywhere other than at an end point
/// they share (two lines meet only at their spots).
pub fn polylines_cross(p: &[Pt], q: &[Pt]) -> bool {
    let (Some(&p0), Some(&p1), Some(&q0), Some(&q1)) = (p.first(), p.last(), q.first(), q.last())
    else {
        return false;
    };
    let ends: Vec<Pt> = [p0, p1]
        .into_iter()
        .filter(|&e| same(e, q0) || same(e, q1))
        .collect();
    for s in p.windows(2) {
        let (a, b) = (s[0], s[1]);
        for t in q.windows(2) {
            let (c, d) = (t[0], t[1]);
            if a[0].max(b[0]) < c[0].min(d[0]) || c[0].max(d[0]) < a[0].min(b[0]) {
                continue;
            }
            if a[1].max(b[1]) < c[1].min(d[1]) || c[1].max(d[1]) < a[1].min(b[1]) {
                continue;
            }
            if !segments_meet(a, b, c, d) {
                continue;
            }
            // Segments that meet only at a shared spot are fine; laid along
            // each other from it, they are not.
            let shared = ends
                .iter()
                .any(|&e| (same(e, a) || same(e, b)) && (same(e, c) || same(e, d)));
            if shared && !collinear_overlap(a, b, c, d) {
                continue;
            }
            return true;
        }
    }
    false
}

/// Whether segments `ab` and `cd` lie on one line and share more than a
/// point.
pub fn collinear_overlap(a: Pt, b: Pt, c: Pt, d: Pt) -> bool {
    if orient(a, b, c) != 0 || orient(a, b, d) != 0 {
        return false;
    }
    let ax = if (b[0] - a[0]).abs() > (b[1] - a[1]).abs() {
        0
    } else {
        1
    };
    let (lo1, hi1) = (a[ax].min(b[ax]), a[ax].max(b[ax]));
    let (lo2, hi2) = (c[ax].min(d[ax]), c[ax].max(d[ax]));
    hi1.min(hi2) - lo1.max(lo2) > 1e-9
}

/// One breach of planarity, lines named by their index in the drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crossing {
    /// Two lines cross or touch away from the spots they share.
    Lines(usize, usize),
    /// A line crosses or touches itself.
    Itself(usize),
    /// A line passes through (within one unit of) a spot not its own.
    Spot(usize, Spot),
}

impl Crossing {
    /// The breach in words, naming lines by their spots ("line 1-4 crosses
    /// line 2-3").
    pub fn describe<'a>(&self, lines: &'a [Line]) -> impl fmt::Display + 'a {
        let this = *self;
        Described { this, lines }
    }
}

struct Described<'a> {
    this: Crossing,
    lines: &'a [Line],
}

impl fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |i: usize| match self.lines.get(i) {
            Some(l) => format!("line {}-{}", l.a, l.b),
            None => format!("line #{i}"),
        };
        match self.this {
            Crossing::Lines(i, j) => write!(f, "{} crosses {}", name(i), name(j)),
            Crossing::Itself(i) => write!(f, "{} crosses itself", name(i)),
            Crossing::Spot(i, s) => write!(f, "{} passes through spot {s}", name(i)),
        }
    }
}

/// Whether a line passes within one unit of point `p`.
fn passes(line: &Line, p: Pt) -> bool {
    line.pts.windows(2).any(|s| seg_dist(p, s[0], s[1]) < 1.0)
}

/// Every pair of lines that cross, and lines that cross themselves or pass
/// through a spot that is not theirs: empty for a planar drawing. In order:
/// line by line, its crossings with later lines, then itself, then spots.
pub fn crossings(spots: &BTreeMap<Spot, Pt>, lines: &[Line]) -> Vec<Crossing> {
    let mut out = Vec::new();
    for (i, c) in lines.iter().enumerate() {
        for (j, o) in lines.iter().enumerate().skip(i + 1) {
            if polylines_cross(&c.pts, &o.pts) {
                out.push(Crossing::Lines(i, j));
            }
        }
        if crosses_itself(&c.pts) {
            out.push(Crossing::Itself(i));
        }
        for (&s, &p) in spots {
            if s != c.a && s != c.b && passes(c, p) {
                out.push(Crossing::Spot(i, s));
            }
        }
    }
    out
}

/// Whether two segments of one polyline meet, other than neighbours at
/// their common point (and the first and last of a closed one).
fn crosses_itself(pts: &[Pt]) -> bool {
    let n = pts.len();
    let closed = n > 0 && same(pts[0], pts[n - 1]);
    for k in 0..n.saturating_sub(1) {
        for l in k + 2..n - 1 {
            if k == 0 && l + 2 == n && closed {
                continue;
            }
            if segments_meet(pts[k], pts[k + 1], pts[l], pts[l + 1]) {
                return true;
            }
        }
    }
    false
}

/// How many crossings the last `k` lines make with the others, with each
/// other, with themselves and with spots that are not theirs; 0 when they
/// can be added to the others' drawing as they are. A crossing between two
/// of the last lines counts twice (the measure only needs to be 0 exactly
/// when nothing crosses).
pub fn new_crossings(spots: &BTreeMap<Spot, Pt>, lines: &[Line], k: usize) -> usize {
    let split = lines.len() - k.min(lines.len());
    let (old, fresh) = lines.split_at(split);
    let mut n = 0;
    for (i, f) in fresh.iter().enumerate() {
        n += old
            .iter()
            .filter(|o| polylines_cross(&f.pts, &o.pts))
            .count();
        n += fresh[i + 1..]
            .iter()
            .filter(|g| polylines_cross(&f.pts, &g.pts))
            .count();
    }
    // Old lines through the new lines' spots.
    let mut new_spots: Vec<Spot> = Vec::new();
    for f in fresh {
        for s in [f.a, f.b] {
            if !new_spots.contains(&s) {
                new_spots.push(s);
            }
        }
    }
    for o in old {
        for &s in &new_spots {
            if s == o.a || s == o.b {
                continue;
            }
            let Some(&p) = spots.get(&s) else { continue };
            n += o
                .pts
                .windows(2)
                .filter(|seg| seg_dist(p, seg[0], seg[1]) < 1.0)
                .count();
        }
    }
    n + crossings(spots, fresh).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(a: Spot, b: Spot, pts: &[Pt]) -> Line {
        Line {
            a,
            b,
            pts: pts.to_vec(),
            by_move: 0,
        }
    }

    #[test]
    fn distance_to_a_segment() {
        assert_eq!(seg_dist([5.0, 3.0], [0.0, 0.0], [10.0, 0.0]), 3.0);
        assert_eq!(seg_dist([13.0, 4.0], [0.0, 0.0], [10.0, 0.0]), 5.0);
        assert_eq!(
            seg_closest([-3.0, 4.0], [0.0, 0.0], [10.0, 0.0]),
            (5.0, 0.0)
        );
        // A segment that is a point.
        assert_eq!(seg_dist([3.0, 4.0], [0.0, 0.0], [0.0, 0.0]), 5.0);
    }

    #[test]
    fn segments_that_cross_touch_or_miss() {
        let (a, b) = ([0.0, 0.0], [10.0, 10.0]);
        assert!(segments_meet(a, b, [0.0, 10.0], [10.0, 0.0]), "an X");
        assert!(
            segments_meet(a, b, [5.0, 5.0], [10.0, 0.0]),
            "a T: one end on the other"
        );
        assert!(segments_meet(a, b, [10.0, 10.0], [20.0, 0.0]), "end to end");
        assert!(
            !segments_meet(a, b, [0.0, 1.0], [9.0, 10.0]),
            "side by side"
        );
        assert!(!segments_meet(a, b, [6.0, 5.0], [10.0, 0.0]), "stops short");
        assert!(
            segments_meet(a, b, [5.0, 5.0], [20.0, 20.0]),
            "overlapping in a line"
        );
        assert!(
            !segments_meet(a, b, [11.0, 11.0], [20.0, 20.0]),
            "in a line, apart"
        );
    }

    #[test]
    fn lines_meet_only_at_shared_spots() {
        let p = [[0.0, 0.0], [10.0, 0.0], [20.0, 10.0]];
        // Shares the end (0, 0), leaves in another direction.
        assert!(!polylines_cross(
            &p,
            &[[0.0, 0.0], [0.0, 10.0], [5.0, 20.0]]
        ));
        // Shares both ends (a loop of two lines).
        assert!(!polylines_cross(
            &p,
            &[[0.0, 0.0], [0.0, 10.0], [20.0, 10.0]]
        ));
        // Shares an end but runs along the first segment from it.
        assert!(polylines_cross(&p, &[[0.0, 0.0], [5.0, 0.0], [5.0, 10.0]]));
        // Ends on the other line away from its ends.
        assert!(polylines_cross(&p, &[[5.0, 10.0], [5.0, 0.0]]));
        // Starts where the other ends: a shared spot.
        assert!(!polylines_cross(&p, &[[20.0, 10.0], [30.0, 10.0]]));
        // Passes through the other's end, which is not its own.
        assert!(polylines_cross(&p, &[[15.0, 10.0], [25.0, 10.0]]));
        // Crosses in the middle.
        assert!(polylines_cross(&p, &[[12.0, -5.0], [12.0, 5.0]]));
        // Misses.
        assert!(!polylines_cross(&p, &[[30.0, 0.0], [40.0, 10.0]]));
    }

    #[test]
    fn crossings_name_every_breach() {
        let mut spots = BTreeMap::new();
        spots.insert(1, [0.0, 0.0]);
        spots.insert(2, [100.0, 0.0]);
        spots.insert(3, [50.0, 50.0]);
        spots.insert(4, [50.0, -50.0]);
        spots.insert(5, [50.0, 0.5]);
        let lines = vec![
            line(1, 2, &[[0.0, 0.0], [100.0, 0.0]]),
            line(3, 4, &[[50.0, 50.0], [50.0, -50.0]]),
            line(1, 3, &[[0.0, 0.0], [50.0, 50.0]]),
            // A loop from 2 back to 2 that closes properly.
            line(
                2,
                2,
                &[[100.0, 0.0], [120.0, 0.0], [110.0, 20.0], [100.0, 0.0]],
            ),
            // A line from 4 that crosses itself.
            line(
                4,
                4,
                &[[50.0, -50.0], [70.0, -70.0], [70.0, -50.0], [50.0, -70.0]],
            ),
        ];
        let found = crossings(&spots, &lines);
        assert_eq!(
            found,
            vec![
                Crossing::Lines(0, 1),
                Crossing::Spot(0, 5),
                Crossing::Spot(1, 5),
                Crossing::Itself(4),
            ]
        );
        assert_eq!(
            found[0].describe(&lines).to_string(),
            "line 1-2 crosses line 3-4"
        );
        assert_eq!(
            found[3].describe(&lines).to_string(),
            "line 4-4 crosses itself"
        );
        assert_eq!(
            found[1].describe(&lines).to_string(),
            "line 1-2 passes through spot 5"
        );
        let planar: Vec<Line> = vec![lines[0].clone(), lines[2].clone(), lines[3].clone()];
        spots.remove(&5);
        assert!(crossings(&spots, &planar).is_empty());
    }

    #[test]
    fn new_crossings_count_only_the_last_lines() {
        let mut spots = BTreeMap::new();
        spots.insert(1, [0.0, 0.0]);
        spots.insert(2, [100.0, 0.0]);
        spots.insert(3, [50.0, 50.0]);
        spots.insert(4, [50.0, -50.0]);
        let mut lines = vec![
            line(1, 2, &[[0.0, 0.0], [100.0, 0.0]]),
            line(3, 4, &[[50.0, 50.0], [50.0, -50.0]]),
        ];
        // The crossing is between the two lines; the last one alone sees it.
        assert_eq!(new_crossings(&spots, &lines, 1), 1);
        assert_eq!(new_crossings(&spots, &lines[..1], 1), 0);
        assert_eq!(new_crossings(&spots, &lines, 0), 0);
        // A new spot on an old line counts, each segment near it once.
        lines.truncate(1);
        spots.insert(5, [50.0, 0.0]);
        lines.push(line(5, 3, &[[50.0, 0.0], [50.0, 50.0]]));
        assert_eq!(
            new_crossings(&spots, &lines, 1),
            2,
            "the old line through 5, and its touch"
        );
        spots.insert(5, [50.0, 10.0]);
        lines[1].pts[0] = [50.0, 10.0];
        assert_eq!(new_crossings(&spots, &lines, 1), 0);
        // Two new lines crossing each other count twice.
        lines.push(line(3, 4, &[[40.0, 20.0], [60.0, 30.0]]));
        assert_eq!(new_crossings(&spots, &lines, 2), 2);
    }
}
