//! A drawing read back as the card notation, and a whole position laid out
//! from its structure alone.
//!
//! [`read_back`] reads any planar drawing of spots and polylines as the
//! card notation: corners sorted by angle at each spot, faces traced with
//! the face on the left (as the viewer sees the paper), nesting of the
//! pieces by winding numbers. No grid, so lines as close as they like read
//! true.
//!
//! The card notation is a combinatorial map: every stack is a boundary
//! walked with its region on the left (`docs/rules/sprouts.md`), so each
//! line is walked once each way. [`layout_position`] pairs those walks into
//! lines, joins the boundaries of each region by bridges, subdivides every
//! line, and triangulates each region with a ring of helper points and a
//! centre; the result is a triangulated disc whose rim (the ring of the
//! outer region) is put on an ellipse filling the paper. Every other point
//! is then the average of its neighbours (Tutte's barycentric drawing: for
//! a triangulated disc with a convex rim and no chord, straight lines never
//! cross — Tutte 1963, Floater 2003, for any positive weights; the ring's
//! own edges weigh 20, which keeps pieces hanging off one spot or one
//! bridge from shrinking to nothing). The lines are the polylines through
//! their subdivision points, each spot the point of its own; helpers are
//! not drawn. Then [`relax`] spreads the drawing out while never changing
//! it combinatorially. The orientation follows the notation, so the `!`
//! flags hold. The caller checks the result (crossings, read back): a
//! drawing with parts too small to show fails that check.
//!
//! Only arithmetic (square roots, no sines or cosines: [`cos_sin`]), and
//! every budget counted, so every machine lays a position out the same.

use std::collections::{BTreeMap, HashMap};

use super::{Line, Pt, Rows};
use crate::position::Spot;

/// One face of a drawing as traced: the spots met walking its boundary
/// (the face on the left), the boundary as a closed polygon, and its signed
/// area (positive when walked clockwise as seen, y down).
struct Face {
    walk: Vec<Spot>,
    poly: Vec<Pt>,
    area: f64,
}

/// The direction from `p` to the first of `pts` that is not `p` (0 if
/// none is).
fn angle(p: Pt, pts: impl Iterator<Item = Pt>) -> f64 {
    for q in pts {
        if q[0] != p[0] || q[1] != p[1] {
            return (q[1] - p[1]).atan2(q[0] - p[0]);
        }
    }
    0.0
}

/// How many times `poly` winds round `p` (0: `p` is outside).
fn winding(poly: &[Pt], p: Pt) -> i32 {
    let mut wn = 0;
    for (i, &a) in poly.iter().enumerate() {
        let b = poly[(i + 1) % poly.len()];
        let cr = (b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1]);
        if a[1] <= p[1] {
            if b[1] > p[1] && cr > 0.0 {
                wn += 1;
            }
        } else if b[1] <= p[1] && cr < 0.0 {
            wn -= 1;
        }
    }
    wn
}

/// A planar drawing read as the card notation: rows of stacks, each stack
/// its boundary walked with the region on the left.
///
/// Line `k` gives two darts, `2k` along it and `2k + 1` back. At each spot
/// the darts leaving it are sorted by angle; arriving by a dart, the walk
/// leaves by the one after its reverse, which keeps the face on the
/// viewer's left. Each connected piece has one outer face (the greatest
/// signed area: walked clockwise as seen, y down; a lone spot is its own)
/// and bounded faces; a piece's outer boundary goes in the row of the
/// smallest bounded face of another piece that winds round it, or in the
/// outer row. Lines whose ends are not among `spots` are left out of the
/// corners.
pub fn read_back(spots: &BTreeMap<Spot, Pt>, lines: &[Line]) -> Rows {
    let mut outs: BTreeMap<Spot, Vec<(usize, f64)>> =
        spots.keys().map(|&s| (s, Vec::new())).collect();
    for (k, c) in lines.iter().enumerate() {
        let (Some(&first), Some(&last)) = (c.pts.first(), c.pts.last()) else {
            continue;
        };
        if let Some(list) = outs.get_mut(&c.a) {
            list.push((2 * k, angle(first, c.pts[1..].iter().copied())));
        }
        if let Some(list) = outs.get_mut(&c.b) {
            let back = c.pts[..c.pts.len() - 1].iter().rev().copied();
            list.push((2 * k + 1, angle(last, back)));
        }
    }
    let from = |d: usize| {
        let c = &lines[d >> 1];
        if d % 2 == 1 {
            c.b
        } else {
            c.a
        }
    };
    // The out-dart after each, by growing angle.
    let mut after: HashMap<usize, usize> = HashMap::new();
    for list in outs.values_mut() {
        list.sort_by(|x, y| x.1.partial_cmp(&y.1).unwrap_or(std::cmp::Ordering::Equal));
        for (i, x) in list.iter().enumerate() {
            after.insert(x.0, list[(i + 1) % list.len()].0);
        }
    }
    // Pieces: union-find over spots, each piece keyed by its least spot.
    let mut comp: HashMap<Spot, Spot> = HashMap::new();
    let find = |comp: &HashMap<Spot, Spot>, x: Spot| {
        let mut p = *comp.get(&x).unwrap_or(&x);
        while p != *comp.get(&p).unwrap_or(&p) {
            p = *comp.get(&p).unwrap_or(&p);
        }
        p
    };
    for c in lines {
        let (a, b) = (find(&comp, c.a), find(&comp, c.b));
        if a != b {
            comp.insert(a.max(b), a.min(b));
        }
    }
    // Per piece: its key, where it is (its first spot: the key itself
    // unless a line ends off the spots given), its faces.
    let mut faces: Vec<(Spot, Pt, Vec<Face>)> = Vec::new();
    let mut piece_of: HashMap<Spot, usize> = HashMap::new();
    for (&s, &at) in spots {
        let key = find(&comp, s);
        if let std::collections::hash_map::Entry::Vacant(e) = piece_of.entry(key) {
            e.insert(faces.len());
            faces.push((key, at, Vec::new()));
        }
    }
    // Faces: arriving by dart d at a spot, leave by the out-dart after d's
    // reverse (the face on the viewer's left).
    let mut done = vec![false; 2 * lines.len()];
    for d0 in 0..2 * lines.len() {
        if done[d0] {
            continue;
        }
        let mut walk = Vec::new();
        let mut poly: Vec<Pt> = Vec::new();
        let mut d = d0;
        let mut n = 0;
        while !done[d] && n <= 2 * lines.len() {
            n += 1;
            done[d] = true;
            walk.push(from(d));
            let pts = &lines[d >> 1].pts;
            if d % 2 == 1 {
                poly.extend(pts.iter().rev().take(pts.len().saturating_sub(1)));
            } else {
                poly.extend(pts.iter().take(pts.len().saturating_sub(1)));
            }
            match after.get(&(d ^ 1)) {
                Some(&next) => d = next,
                None => break,
            }
        }
        let mut area = 0.0;
        for (i, p) in poly.iter().enumerate() {
            let q = poly[(i + 1) % poly.len()];
            area += p[0] * q[1] - q[0] * p[1];
        }
        if let Some(&i) = piece_of.get(&find(&comp, from(d0))) {
            faces[i].2.push(Face {
                walk,
                poly,
                area: area / 2.0,
            });
        }
    }
    // Each piece: its outer walk and its bounded faces.
    struct Piece {
        outer: Vec<Spot>,
        bounded: Vec<Face>,
        at: Pt,
    }
    let mut pieces: Vec<Piece> = Vec::new();
    for (key, at, mut fs) in faces {
        if fs.is_empty() {
            pieces.push(Piece {
                outer: vec![key],
                bounded: Vec::new(),
                at,
            });
            continue;
        }
        let mut o = 0;
        for (i, f) in fs.iter().enumerate() {
            if f.area > fs[o].area {
                o = i;
            }
        }
        let outer = fs.remove(o).walk;
        pieces.push(Piece {
            outer,
            bounded: fs,
            at,
        });
    }
    // Rows by where they are: the outer row first, then each bounded face
    // of each piece.
    let mut rows: Rows = vec![Vec::new()];
    let mut row_of: Vec<Vec<usize>> = Vec::new();
    for p in &pieces {
        row_of.push(
            p.bounded
                .iter()
                .map(|f| {
                    rows.push(vec![f.walk.clone()]);
                    rows.len() - 1
                })
                .collect(),
        );
    }
    for (pi, p) in pieces.iter().enumerate() {
        let mut best = 0;
        let mut best_area = f64::INFINITY;
        for (qi, q) in pieces.iter().enumerate() {
            if qi == pi {
                continue;
            }
            for (j, f) in q.bounded.iter().enumerate() {
                if f.area.abs() < best_area && winding(&f.poly, p.at) != 0 {
                    best = row_of[qi][j];
                    best_area = f.area.abs();
                }
            }
        }
        rows[best].push(p.outer.clone());
    }
    rows.retain(|r| !r.is_empty());
    rows
}

/// The least rotation of a boundary, as text.
fn least_rotation(st: &[Spot]) -> String {
    let text = |i: usize| {
        let mut v: Vec<String> = Vec::with_capacity(st.len());
        v.extend(st[i..].iter().chain(&st[..i]).map(|c| c.to_string()));
        v.join(",")
    };
    let mut best = text(0);
    for i in 1..st.len() {
        let s = text(i);
        if s < best {
            best = s;
        }
    }
    best
}

/// Rows of stacks as a key that keeps the cyclic order of each boundary
/// (rotations are equal) but not the order of rows or stacks: two drawings
/// with the same key are the same position with the same `!` flags, and a
/// mirror image has another key unless the position is its own mirror.
pub fn oriented_key(rows: &[Vec<Vec<Spot>>]) -> String {
    let mut keys: Vec<String> = rows
        .iter()
        .map(|row| {
            let mut stacks: Vec<String> = row.iter().map(|st| least_rotation(st)).collect();
            stacks.sort();
            stacks.join(";")
        })
        .collect();
    keys.sort();
    keys.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oriented key of rows written as position text (not checked
    /// against the rules: a drawing need not be a game's).
    fn key(text: &str) -> String {
        let rows: Rows = text
            .split('/')
            .map(|row| {
                row.split(';')
                    .map(|st| st.split(',').map(|c| c.parse().unwrap()).collect())
                    .collect()
            })
            .collect();
        oriented_key(&rows)
    }

    /// A drawing from spots and straight or bent lines.
    fn drawing(
        spots: &[(Spot, Pt)],
        lines: &[(Spot, Spot, &[Pt])],
    ) -> (BTreeMap<Spot, Pt>, Vec<Line>) {
        let spots: BTreeMap<Spot, Pt> = spots.iter().copied().collect();
        let lines = lines
            .iter()
            .map(|&(a, b, mid)| {
                let mut pts = vec![spots[&a]];
                pts.extend_from_slice(mid);
                pts.push(spots[&b]);
                Line {
                    a,
                    b,
                    pts,
                    by_move: 0,
                }
            })
            .collect();
        (spots, lines)
    }

    /// The same drawing seen in a mirror (x turned round).
    fn mirrored(spots: &BTreeMap<Spot, Pt>, lines: &[Line]) -> (BTreeMap<Spot, Pt>, Vec<Line>) {
        let flip = |p: &Pt| [1000.0 - p[0], p[1]];
        let spots = spots.iter().map(|(&s, p)| (s, flip(p))).collect();
        let lines = lines
            .iter()
            .map(|l| Line {
                pts: l.pts.iter().map(flip).collect(),
                ..l.clone()
            })
            .collect();
        (spots, lines)
    }

    #[test]
    fn oriented_keys_keep_cyclic_order_only() {
        assert_eq!(key("4,1,3,2/4,2,3,1"), "1,3,2,4/1,4,2,3");
        assert_eq!(
            key("3,1,4,2/1,3,2,4"),
            key("4,1,3,2/4,2,3,1"),
            "rotations, rows in another order"
        );
        assert_ne!(key("4,1,3,2/4,2,3,1"), key("4,1,2,3/4,3,2,1"));
        assert_eq!(key("3;1;2"), "1;2;3");
        // Text order, not number order: 10 before 9.
        assert_eq!(oriented_key(&[vec![vec![9, 10, 11]]]), "10,11,9");
    }

    #[test]
    fn lone_spots_read_back() {
        let (spots, lines) = drawing(&[(1, [100.0, 100.0])], &[]);
        assert_eq!(read_back(&spots, &lines), vec![vec![vec![1]]]);
        let (spots, lines) = drawing(
            &[
                (1, [100.0, 100.0]),
                (2, [300.0, 100.0]),
                (3, [200.0, 300.0]),
            ],
            &[],
        );
        assert_eq!(oriented_key(&read_back(&spots, &lines)), key("1;2;3"));
    }

    #[test]
    fn a_path_reads_back() {
        // 1(3)2 from 1;2: the new spot 3 between them.
        let (spots, lines) = drawing(
            &[
                (1, [100.0, 100.0]),
                (2, [500.0, 100.0]),
                (3, [300.0, 120.0]),
            ],
            &[(1, 3, &[[200.0, 50.0]]), (3, 2, &[])],
        );
        assert_eq!(read_back(&spots, &lines), vec![vec![vec![1, 3, 2, 3]]]);
        assert_eq!(oriented_key(&read_back(&spots, &lines)), key("3,1,3,2"));
    }

    #[test]
    fn a_cycle_reads_back_with_its_orientation() {
        // 4 -> 1 -> 3 -> 2 is clockwise as seen: the outer region's walk.
        let (spots, lines) = drawing(
            &[
                (4, [100.0, 100.0]),
                (1, [300.0, 100.0]),
                (3, [300.0, 300.0]),
                (2, [100.0, 300.0]),
            ],
            &[
                (4, 1, &[]),
                (1, 3, &[[350.0, 200.0]]),
                (2, 3, &[]),
                (4, 2, &[]),
            ],
        );
        let rows = read_back(&spots, &lines);
        assert_eq!(oriented_key(&rows), key("4,1,3,2/4,2,3,1"));
        assert_eq!(rows[0], vec![vec![4, 1, 3, 2]], "the outer row first");
        let (spots, lines) = mirrored(&spots, &lines);
        assert_eq!(
            oriented_key(&read_back(&spots, &lines)),
            key("4,1,3,2/4,2,3,1"),
            "its own mirror image"
        );
    }

    #[test]
    fn a_mirror_image_reads_back_mirrored() {
        // A spot with three lines, to 1, 2 and 3, in that order clockwise.
        let (spots, lines) = drawing(
            &[
                (4, [300.0, 300.0]),
                (1, [300.0, 100.0]),
                (2, [500.0, 400.0]),
                (3, [100.0, 400.0]),
            ],
            &[(4, 1, &[]), (2, 4, &[[450.0, 300.0]]), (4, 3, &[])],
        );
        // Round the outside with the region on the left: from 1 to 4, on to
        // 2 (the next line clockwise as seen), back to 4, on to 3.
        let rows = read_back(&spots, &lines);
        assert_eq!(rows, vec![vec![vec![4, 1, 4, 2, 4, 3]]]);
        let (spots, lines) = mirrored(&spots, &lines);
        let back = read_back(&spots, &lines);
        assert_eq!(oriented_key(&back), "1,4,3,4,2,4");
        let reversed: Rows = rows
            .iter()
            .map(|row| {
                row.iter()
                    .map(|st| st.iter().rev().copied().collect())
                    .collect()
            })
            .collect();
        assert_eq!(oriented_key(&back), oriented_key(&reversed));
    }

    #[test]
    fn nested_pieces_go_in_the_region_round_them() {
        // A loop of two lines through 1 and 2 round a loop through 3 and 4,
        // round a lone spot 5; a lone spot 6 outside all.
        let (spots, lines) = drawing(
            &[
                (1, [100.0, 320.0]),
                (2, [860.0, 320.0]),
                (3, [250.0, 320.0]),
                (4, [710.0, 320.0]),
                (5, [480.0, 320.0]),
                (6, [900.0, 600.0]),
            ],
            &[
                (1, 2, &[[480.0, 40.0]]),
                (2, 1, &[[480.0, 600.0]]),
                (3, 4, &[[480.0, 150.0]]),
                (4, 3, &[[480.0, 500.0]]),
            ],
        );
        let rows = read_back(&spots, &lines);
        assert_eq!(oriented_key(&rows), key("1,2;6/1,2;3,4/3,4;5"));
        assert_eq!(rows.len(), 3);
        // Each boundary keeps its direction: the outer walks clockwise.
        assert_eq!(rows[0], vec![vec![1, 2], vec![6]]);
        assert!(rows.contains(&vec![vec![2, 1], vec![3, 4]]));
        assert!(rows.contains(&vec![vec![4, 3], vec![5]]));
    }
}
