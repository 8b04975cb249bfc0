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
use std::f64::consts::{PI, TAU};

use super::geometry::{seg_closest, seg_dist, segments_meet};
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

/// The least rotation of a boundary, as text: equal for the same cycle
/// of cards.
pub(crate) fn least_rotation(st: &[Spot]) -> String {
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

/// A cosine and sine from arithmetic alone (a Taylor series after
/// reduction to the nearest quarter turn), so every machine computes the
/// same: the rim of a layout is placed with it.
pub fn cos_sin(t: f64) -> (f64, f64) {
    let t = t - TAU * (t / TAU).floor();
    // t in [0, 2pi): reduce to [-pi/4, pi/4] by quadrant.
    let q = ((t + PI / 4.0) / (PI / 2.0)).floor();
    let x = t - q * (PI / 2.0);
    let (mut c, mut s, mut term) = (0.0, 0.0, 1.0);
    for k in 0..14 {
        // term = x^k / k!
        match k % 4 {
            0 => c += term,
            1 => s += term,
            2 => c -= term,
            _ => s -= term,
        }
        term = (term * x) / (k + 1) as f64;
    }
    match (q as i64).rem_euclid(4) {
        0 => (c, s),
        1 => (-s, c),
        2 => (-c, -s),
        _ => (s, -c),
    }
}

/// One step of a boundary walk: from card `u` to the next card `v`;
/// `next` is the step after it on the same walk.
#[derive(Clone, Copy, Debug)]
struct Dart {
    u: Spot,
    v: Spot,
    next: usize,
}

/// How many pairings of the walks' steps [`pair_darts`] tries.
const PAIRING_TRIES: usize = 5000;

/// All orders of `0..n`, each built from those of `0..n-1` by putting
/// `n - 1` in every place.
fn perms(n: usize) -> Vec<Vec<usize>> {
    if n <= 1 {
        return vec![vec![0]];
    }
    let mut out = Vec::new();
    for p in perms(n - 1) {
        for i in 0..n {
            let mut q = p[..i].to_vec();
            q.push(n - 1);
            q.extend_from_slice(&p[i..]);
            out.push(q);
        }
    }
    out
}

/// Pairs the walks' steps into lines: step (u→v) with a step (v→u), so that
/// the corners at every spot go once round it. Returns the mate of each
/// step, or `None` if no pairing does (within [`PAIRING_TRIES`]).
///
/// Steps between the same two spots are interchangeable only up to this
/// condition, so each group's orders are tried in turn; a spot has three
/// lives, so no group holds more than three steps (a longer one is no
/// position's, and refused).
fn pair_darts(darts: &[Dart]) -> Option<Vec<usize>> {
    // Groups of steps by (from, to), in order of first appearance.
    let mut groups: Vec<((Spot, Spot), Vec<usize>)> = Vec::new();
    let mut group_of: HashMap<(Spot, Spot), usize> = HashMap::new();
    for (i, d) in darts.iter().enumerate() {
        let g = *group_of.entry((d.u, d.v)).or_insert_with(|| {
            groups.push(((d.u, d.v), Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(i);
    }
    let mut pairs: Vec<(&[usize], &[usize])> = Vec::new();
    for ((u, v), list) in &groups {
        if u == v || list.len() > 3 {
            return None;
        }
        let back: &[usize] = group_of.get(&(*v, *u)).map_or(&[], |&g| &groups[g].1);
        if back.len() != list.len() {
            return None;
        }
        if u < v {
            pairs.push((list, back));
        }
    }
    let choices: Vec<Vec<Vec<usize>>> = pairs.iter().map(|(a, _)| perms(a.len())).collect();
    // The steps leaving each spot, in order.
    let mut outs: Vec<Vec<usize>> = Vec::new();
    let mut out_of: HashMap<Spot, usize> = HashMap::new();
    for (i, d) in darts.iter().enumerate() {
        let k = *out_of.entry(d.u).or_insert_with(|| {
            outs.push(Vec::new());
            outs.len() - 1
        });
        outs[k].push(i);
    }
    // At each spot: out-step x, its mate arrives at the spot, the walk goes
    // on with the next step: the corner. One cycle per spot.
    let valid = |mate: &[usize]| {
        outs.iter().all(|list| {
            let (mut x, mut n) = (list[0], 0);
            loop {
                x = darts[mate[x]].next;
                n += 1;
                if x == list[0] || n > list.len() {
                    break;
                }
            }
            n == list.len() && x == list[0]
        })
    };
    struct Search<'a, F: Fn(&[usize]) -> bool> {
        pairs: &'a [(&'a [usize], &'a [usize])],
        choices: &'a [Vec<Vec<usize>>],
        mate: Vec<usize>,
        tries: usize,
        valid: F,
    }
    impl<F: Fn(&[usize]) -> bool> Search<'_, F> {
        fn go(&mut self, k: usize) -> bool {
            if k == self.pairs.len() {
                self.tries += 1;
                return self.tries < PAIRING_TRIES && (self.valid)(&self.mate);
            }
            let (a, b) = self.pairs[k];
            for p in &self.choices[k] {
                for (i, &x) in a.iter().enumerate() {
                    self.mate[x] = b[p[i]];
                    self.mate[b[p[i]]] = x;
                }
                if self.go(k + 1) {
                    return true;
                }
                if self.tries >= PAIRING_TRIES {
                    return false;
                }
            }
            false
        }
    }
    let mut search = Search {
        pairs: &pairs,
        choices: &choices,
        mate: vec![usize::MAX; darts.len()],
        tries: 0,
        valid,
    };
    if search.go(0) {
        Some(search.mate)
    } else {
        None
    }
}

/// How a position is laid out; every field has a default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayoutOptions {
    /// Points along each line between its spots (3; at most
    /// [`MAX_SUBDIVISION`]).
    pub sub: Option<usize>,
    /// Which row is the outer region (the one with most corners).
    pub outer: Option<usize>,
    /// Rounds of spreading out (200; at most [`MAX_ROUNDS`]).
    pub rounds: Option<usize>,
    /// Weights of the edges along lines, along bridges, from a region's
    /// ring to its boundary, along the ring, and from the ring to its
    /// centre (`[1, 1, 1, 20, 1]`); exactly five.
    pub weights: Option<Vec<f64>>,
}

/// The most points along a line [`layout_position`] puts.
pub const MAX_SUBDIVISION: usize = 8;
/// The most rounds of [`relax`] [`layout_position`] runs.
pub const MAX_ROUNDS: usize = 1000;
/// The most cards [`layout_position`] lays out (a position of 32 spots
/// played to its end has fewer).
pub const MAX_CARDS: usize = 1024;

/// One boundary of a row as walked: its steps, or a lone spot.
enum Walk {
    Lone(Spot),
    Steps(Vec<usize>),
}

/// A planar drawing of a position from its structure, on a paper of
/// `w` × `h`: the spots and the lines (each `by_move` 0). `None` if the
/// rows are not a position this can draw, or the options are out of range.
/// The caller checks the result (crossings, read back).
pub fn layout_position(
    rows: &[Vec<Vec<Spot>>],
    w: f64,
    h: f64,
    opts: &LayoutOptions,
) -> Option<(BTreeMap<Spot, Pt>, Vec<Line>)> {
    let s_count = opts.sub.unwrap_or(3);
    let rounds = opts.rounds.unwrap_or(200);
    let default_weights = [1.0, 1.0, 1.0, 20.0, 1.0];
    let weights: &[f64] = opts.weights.as_deref().unwrap_or(&default_weights);
    let cards: usize = rows.iter().flatten().map(Vec::len).sum();
    if s_count > MAX_SUBDIVISION
        || rounds > MAX_ROUNDS
        || cards > MAX_CARDS
        || weights.len() != 5
        || weights.iter().any(|x| !(x.is_finite() && *x > 0.0))
        || !(w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0)
        || rows.is_empty()
        || opts.outer.is_some_and(|o| o >= rows.len())
        || rows
            .iter()
            .any(|row| row.is_empty() || row.iter().any(Vec::is_empty))
    {
        return None;
    }
    let (wl, wb, ws, wr, wc) = (weights[0], weights[1], weights[2], weights[3], weights[4]);
    let mut darts: Vec<Dart> = Vec::new();
    // Per row, per stack, its steps (or a lone spot).
    let mut walks: Vec<Vec<Walk>> = Vec::new();
    let mut spots: Vec<Spot> = Vec::new();
    for row in rows {
        let mut bounds = Vec::new();
        for st in row {
            spots.extend_from_slice(st);
            if st.len() == 1 {
                bounds.push(Walk::Lone(st[0]));
                continue;
            }
            let first = darts.len();
            for (i, &c) in st.iter().enumerate() {
                darts.push(Dart {
                    u: c,
                    v: st[(i + 1) % st.len()],
                    next: first + (i + 1) % st.len(),
                });
            }
            bounds.push(Walk::Steps((first..first + st.len()).collect()));
        }
        walks.push(bounds);
    }
    spots.sort_unstable();
    spots.dedup();
    if spots.len() == 1 && darts.is_empty() {
        let one = BTreeMap::from([(spots[0], [w / 2.0, h / 2.0])]);
        return Some((one, Vec::new()));
    }
    let mate = pair_darts(&darts)?;
    // Nodes: spots first, then points along lines and bridges, then helpers.
    let node_of: HashMap<Spot, usize> = spots.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let mut nodes = spots.len();
    let mut fresh = |k: usize| -> Vec<usize> {
        let v: Vec<usize> = (nodes..nodes + k).collect();
        nodes += k;
        v
    };
    // Edges and their weights.
    let mut edges: Vec<(usize, usize, f64)> = Vec::new();
    // Per dart: its nodes from its start, without its end.
    let mut dart_nodes: Vec<Option<Vec<usize>>> = vec![None; darts.len()];
    // The lines: their spots and their nodes.
    let mut lines: Vec<(Spot, Spot, Vec<usize>)> = Vec::new();
    for (i, d) in darts.iter().enumerate() {
        if dart_nodes[i].is_some() {
            continue;
        }
        let mut path = vec![node_of[&d.u]];
        path.extend(fresh(s_count));
        path.push(node_of[&d.v]);
        for k in 0..path.len() - 1 {
            edges.push((path[k], path[k + 1], wl));
        }
        dart_nodes[i] = Some(path[..path.len() - 1].to_vec());
        dart_nodes[mate[i]] = Some(path.iter().rev().take(path.len() - 1).copied().collect());
        lines.push((d.u, d.v, path));
    }
    let dart_nodes: Vec<Vec<usize>> = dart_nodes
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect();
    // Each row's walk: its boundaries joined by bridges from the first.
    let seq = |b: &Walk| -> Vec<usize> {
        match b {
            Walk::Lone(s) => vec![node_of[s]],
            Walk::Steps(steps) => steps
                .iter()
                .flat_map(|&x| dart_nodes[x].iter().copied())
                .collect(),
        }
    };
    let mut row_walks: Vec<Vec<usize>> = Vec::new();
    for bounds in &walks {
        let mut l = seq(&bounds[0]);
        let anchor = l[0];
        for (j, bound) in bounds.iter().enumerate().skip(1) {
            if (l[l.len() - 1] != anchor || l.len() == 1) && !(l.len() == 1 && j == 1) {
                l.push(anchor);
            }
            let inner = fresh(s_count);
            let other = seq(bound);
            let mut path = vec![anchor];
            path.extend_from_slice(&inner);
            path.push(other[0]);
            for k in 0..path.len() - 1 {
                edges.push((path[k], path[k + 1], wb));
            }
            l.extend_from_slice(&inner);
            l.extend_from_slice(&other);
            if other.len() > 1 {
                l.push(other[0]);
            }
            l.extend(inner.iter().rev());
        }
        row_walks.push(l);
    }
    // The outer row: given, else the one with most corners.
    let outer = match opts.outer {
        Some(o) => o,
        None => {
            let mut o = 0;
            for (r, l) in row_walks.iter().enumerate() {
                if l.len() > row_walks[o].len() {
                    o = r;
                }
            }
            o
        }
    };
    // Fixed points: the outer ring.
    let mut fixed: BTreeMap<usize, Pt> = BTreeMap::new();
    for (r, l) in row_walks.iter().enumerate() {
        let k = l.len();
        if k < 2 {
            continue;
        }
        let ring = fresh(k);
        let centre = if r == outer { None } else { Some(fresh(1)[0]) };
        for i in 0..k {
            edges.push((ring[i], l[i], ws));
            edges.push((ring[i], l[(i + 1) % k], ws));
            edges.push((ring[i], ring[(i + 1) % k], wr));
            if let Some(c) = centre {
                edges.push((c, ring[i], wc));
            }
        }
        if r == outer {
            // Clockwise as the viewer sees it (y down): the outer region on
            // the left of its boundary walk.
            for (i, &n) in ring.iter().enumerate() {
                let (c, s) = cos_sin((2.0 * PI * (i as f64 + 0.5)) / k as f64);
                fixed.insert(
                    n,
                    [
                        w / 2.0 + (w / 2.0) * 0.98 * c,
                        h / 2.0 + (h / 2.0) * 0.98 * s,
                    ],
                );
            }
        }
    }
    let nodes = nodes;
    let (x, y) = tutte(nodes, &edges, &fixed);
    // The spots and lines, stretched to fill the paper (an affine map keeps
    // the drawing planar), then spread out (relax), rounded to hundredths.
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    let line_nodes = lines.iter().flat_map(|l| l.2.iter().copied());
    for n in line_nodes.chain(0..spots.len()) {
        x0 = x0.min(x[n]);
        x1 = x1.max(x[n]);
        y0 = y0.min(y[n]);
        y1 = y1.max(y[n]);
    }
    let margin = 40.0;
    let sx = if x1 > x0 {
        (w - 2.0 * margin) / (x1 - x0)
    } else {
        1.0
    };
    let sy = if y1 > y0 {
        (h - 2.0 * margin) / (y1 - y0)
    } else {
        1.0
    };
    // The drawn nodes only: spots, then the points of lines.
    let mut drawn: HashMap<usize, usize> = (0..spots.len()).map(|i| (i, i)).collect();
    let mut order: Vec<usize> = (0..spots.len()).collect();
    for l in &lines {
        for &n in &l.2 {
            if let std::collections::hash_map::Entry::Vacant(e) = drawn.entry(n) {
                e.insert(order.len());
                order.push(n);
            }
        }
    }
    let mut p: Vec<Pt> = order
        .iter()
        .map(|&n| [margin + (x[n] - x0) * sx, margin + (y[n] - y0) * sy])
        .collect();
    let mut segs: Vec<(usize, usize)> = Vec::new();
    for l in &lines {
        for k in 0..l.2.len() - 1 {
            segs.push((drawn[&l.2[k]], drawn[&l.2[k + 1]]));
        }
    }
    relax(&mut p, &segs, spots.len(), w, h, rounds);
    let fin = |n: usize| -> Pt {
        let q = p[drawn[&n]];
        [
            round_js(q[0] * 100.0) / 100.0,
            round_js(q[1] * 100.0) / 100.0,
        ]
    };
    let out: BTreeMap<Spot, Pt> = spots
        .iter()
        .enumerate()
        .map(|(i, &s)| (s, fin(i)))
        .collect();
    let curves = lines
        .iter()
        .map(|(a, b, ns)| Line {
            a: *a,
            b: *b,
            pts: ns.iter().map(|&n| fin(n)).collect(),
            by_move: 0,
        })
        .collect();
    Some((out, curves))
}

/// Rounds to the nearest whole number, halves up (as a browser rounds, so
/// a drawing's hundredths are the same there).
fn round_js(x: f64) -> f64 {
    let f = x.floor();
    if x - f >= 0.5 {
        f + 1.0
    } else {
        f
    }
}

/// Tutte's drawing: every free node at the (weighted) average of its
/// neighbours, the fixed ones where given; conjugate gradients on the
/// Laplacian, a counted number of iterations. Repeated edges count once.
fn tutte(
    nodes: usize,
    edges: &[(usize, usize, f64)],
    fixed: &BTreeMap<usize, Pt>,
) -> (Vec<f64>, Vec<f64>) {
    let mut seen: std::collections::HashSet<(usize, usize)> = std::collections::HashSet::new();
    let mut adj: Vec<Vec<(usize, f64)>> = vec![Vec::new(); nodes];
    for &(a, b, wgt) in edges {
        if a == b || !seen.insert((a.min(b), a.max(b))) {
            continue;
        }
        adj[a].push((b, wgt));
        adj[b].push((a, wgt));
    }
    let mut xs = vec![0.0; nodes];
    let mut ys = vec![0.0; nodes];
    for (&n, p) in fixed {
        xs[n] = p[0];
        ys[n] = p[1];
    }
    let mut free: Vec<usize> = Vec::new();
    let mut idx: Vec<Option<usize>> = vec![None; nodes];
    for (n, slot) in idx.iter_mut().enumerate() {
        if !fixed.contains_key(&n) {
            *slot = Some(free.len());
            free.push(n);
        }
    }
    let m = free.len();
    // A x = b with A = D - A_ff, b = the weighted sum of fixed neighbours.
    let mul = |v: &[f64], o: &mut [f64]| {
        for (i, &n) in free.iter().enumerate() {
            let mut s = 0.0;
            for &(q, wgt) in &adj[n] {
                s += wgt * v[i];
                if let Some(j) = idx[q] {
                    s -= wgt * v[j];
                }
            }
            o[i] = s;
        }
    };
    for coord in [&mut xs, &mut ys] {
        let mut b = vec![0.0; m];
        for (i, &n) in free.iter().enumerate() {
            for &(q, wgt) in &adj[n] {
                if idx[q].is_none() {
                    b[i] += wgt * coord[q];
                }
            }
        }
        let mut x = vec![0.0; m];
        let mut r = b.clone();
        let mut p = b;
        let mut ap = vec![0.0; m];
        let mut rr: f64 = r.iter().map(|v| v * v).fold(0.0, |acc, v| acc + v);
        let stop = rr * 1e-26;
        let mut it = 0;
        while it < 4 * m + 100 && rr > stop {
            mul(&p, &mut ap);
            let mut pap = 0.0;
            for i in 0..m {
                pap += p[i] * ap[i];
            }
            let alpha = rr / pap;
            let mut rr2 = 0.0;
            for i in 0..m {
                x[i] += alpha * p[i];
                r[i] -= alpha * ap[i];
                rr2 += r[i] * r[i];
            }
            let beta = rr2 / rr;
            rr = rr2;
            for i in 0..m {
                p[i] = r[i] + beta * p[i];
            }
            it += 1;
        }
        for (i, &n) in free.iter().enumerate() {
            coord[n] = x[i];
        }
    }
    (xs, ys)
}

/// `x`, or `or` where `x` is 0 or not a number.
fn or_else(x: f64, or: f64) -> f64 {
    if x == 0.0 || x.is_nan() {
        or
    } else {
        x
    }
}

/// Spreads a planar straight-line drawing out without ever changing it
/// combinatorially: forces (points apart, lines apart, lines taut and
/// smooth, off the paper's edge), and each point moves only if none of its
/// segments then meets another, nothing else lies in the area they sweep,
/// and it keeps a little clearance. In place; `points` are the drawing's
/// points, the first `spots` of them spots; `segs` its segments (pairs of
/// indices into `points`); `w` × `h` the paper. Each round costs about
/// points × (points + segments) steps.
pub fn relax(
    points: &mut [Pt],
    segs: &[(usize, usize)],
    spots: usize,
    w: f64,
    h: f64,
    rounds: usize,
) {
    let n = points.len();
    let pt = points;
    let mut nb: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in segs {
        nb[a].push(b);
        nb[b].push(a);
    }
    const M: f64 = 30.0;
    const CLEAR: f64 = 3.0;
    // Ideal length of a segment: lines of about 5 segments.
    let l0 = 60f64.min(14f64.max(((w * h) / (n.max(1) as f64)).sqrt() * 0.55));
    let d0 = 2.2 * l0;
    // Whether moving point i to q keeps the drawing as it is.
    let ok = |pt: &[Pt], i: usize, q: Pt| -> bool {
        if q[0] < 4.0 || q[1] < 4.0 || q[0] > w - 4.0 || q[1] > h - 4.0 {
            return false;
        }
        let p = pt[i];
        for &(a, b) in segs {
            if a == i || b == i {
                continue;
            }
            // Clearance from the other segments (or at least no closer).
            let dq = seg_dist(q, pt[a], pt[b]);
            if dq < CLEAR && dq < seg_dist(p, pt[a], pt[b]) {
                return false;
            }
            if segments_meet(p, q, pt[a], pt[b]) {
                return false;
            }
            for &j in &nb[i] {
                if a == j || b == j {
                    continue;
                }
                if segments_meet(q, pt[j], pt[a], pt[b]) {
                    return false;
                }
            }
        }
        for (r, &pr) in pt.iter().enumerate() {
            if r == i {
                continue;
            }
            for &j in &nb[i] {
                if r == j {
                    continue;
                }
                let pj = pt[j];
                // Nothing in the swept triangle p, q, j, and clear of the
                // new segment.
                let dr = seg_dist(pr, q, pj);
                if dr < CLEAR && dr < seg_dist(pr, p, pj) {
                    return false;
                }
                let s1 = (q[0] - p[0]) * (pr[1] - p[1]) - (q[1] - p[1]) * (pr[0] - p[0]);
                let s2 = (pj[0] - q[0]) * (pr[1] - q[1]) - (pj[1] - q[1]) * (pr[0] - q[0]);
                let s3 = (p[0] - pj[0]) * (pr[1] - pj[1]) - (p[1] - pj[1]) * (pr[0] - pj[0]);
                if (s1 >= 0.0 && s2 >= 0.0 && s3 >= 0.0) || (s1 <= 0.0 && s2 <= 0.0 && s3 <= 0.0) {
                    return false;
                }
            }
        }
        true
    };
    let mut f = vec![0.0; 2 * n];
    for round in 0..rounds {
        let temp = 1f64.max(0.25 * l0 * (1.0 - round as f64 / rounds as f64));
        f.fill(0.0);
        for i in 0..n {
            let p = pt[i];
            // Points apart.
            for j in i + 1..n {
                let mut dx = p[0] - pt[j][0];
                let mut dy = p[1] - pt[j][1];
                // Points on top of each other: apart in a fixed direction.
                if dx * dx + dy * dy < 1e-12 {
                    dx = 1e-3 * (((i * 7 + j * 13) % 17) as f64 - 8.0);
                    dy = 1e-3 * (((i * 11 + j * 5) % 13) as f64 - 6.5);
                }
                let d2 = dx * dx + dy * dy;
                if d2 >= d0 * d0 {
                    continue;
                }
                let d = or_else(d2.sqrt(), 0.01);
                let fm = (if i < spots || j < spots { 1.5 } else { 1.0 }) * (d0 / d - 1.0) * 0.3;
                f[2 * i] += (fm * dx) / d;
                f[2 * i + 1] += (fm * dy) / d;
                f[2 * j] -= (fm * dx) / d;
                f[2 * j + 1] -= (fm * dy) / d;
            }
            // Off the paper's edge.
            if p[0] < M {
                f[2 * i] += (M - p[0]) * 0.2;
            }
            if p[0] > w - M {
                f[2 * i] -= (p[0] - (w - M)) * 0.2;
            }
            if p[1] < M {
                f[2 * i + 1] += (M - p[1]) * 0.2;
            }
            if p[1] > h - M {
                f[2 * i + 1] -= (p[1] - (h - M)) * 0.2;
            }
            // Lines smooth: a line's point toward the middle of its
            // neighbours.
            if i >= spots && nb[i].len() == 2 {
                let (a, b) = (pt[nb[i][0]], pt[nb[i][1]]);
                f[2 * i] += ((a[0] + b[0]) / 2.0 - p[0]) * 0.15;
                f[2 * i + 1] += ((a[1] + b[1]) / 2.0 - p[1]) * 0.15;
            }
        }
        // Lines taut.
        for &(a, b) in segs {
            let dx = pt[b][0] - pt[a][0];
            let dy = pt[b][1] - pt[a][1];
            let d = or_else((dx * dx + dy * dy).sqrt(), 0.01);
            let fm = ((d - l0) / l0) * 0.8;
            f[2 * a] += (fm * dx) / d;
            f[2 * a + 1] += (fm * dy) / d;
            f[2 * b] -= (fm * dx) / d;
            f[2 * b + 1] -= (fm * dy) / d;
        }
        // Points away from other lines.
        let d1 = 0.9 * l0;
        for i in 0..n {
            for &(a, b) in segs {
                if a == i || b == i {
                    continue;
                }
                let (d, t) = seg_closest(pt[i], pt[a], pt[b]);
                if d >= d1 {
                    continue;
                }
                let c = [
                    pt[a][0] + t * (pt[b][0] - pt[a][0]),
                    pt[a][1] + t * (pt[b][1] - pt[a][1]),
                ];
                let dd = or_else(d, 0.01);
                let fm = (d1 / dd - 1.0) * 0.5;
                let ux = (pt[i][0] - c[0]) / dd;
                let uy = (pt[i][1] - c[1]) / dd;
                f[2 * i] += fm * ux;
                f[2 * i + 1] += fm * uy;
                f[2 * a] -= fm * ux * (1.0 - t) * 0.5;
                f[2 * a + 1] -= fm * uy * (1.0 - t) * 0.5;
                f[2 * b] -= fm * ux * t * 0.5;
                f[2 * b + 1] -= fm * uy * t * 0.5;
            }
        }
        for i in 0..n {
            let mut dx = f[2 * i] * 4.0;
            let mut dy = f[2 * i + 1] * 4.0;
            let l = (dx * dx + dy * dy).sqrt();
            if l > temp {
                dx *= temp / l;
                dy *= temp / l;
            }
            let moves = |v: f64| v != 0.0 && !v.is_nan();
            for _ in 0..3 {
                if !(moves(dx) || moves(dy)) {
                    break;
                }
                let q = [pt[i][0] + dx, pt[i][1] + dy];
                if ok(pt, i, q) {
                    pt[i] = q;
                    break;
                }
                dx /= 2.0;
                dy /= 2.0;
            }
        }
    }
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
    fn cos_sin_agrees_with_the_library() {
        for k in -40..=40 {
            let t = k as f64 * 0.37;
            let (c, s) = cos_sin(t);
            assert!(
                (c - t.cos()).abs() < 1e-12 && (s - t.sin()).abs() < 1e-12,
                "{t}"
            );
        }
        assert_eq!(cos_sin(0.0), (1.0, 0.0));
    }

    #[test]
    fn walks_pair_into_lines() {
        let darts = |stacks: &[&[Spot]]| {
            let mut out = Vec::new();
            for st in stacks {
                let first = out.len();
                for (i, &c) in st.iter().enumerate() {
                    out.push(Dart {
                        u: c,
                        v: st[(i + 1) % st.len()],
                        next: first + (i + 1) % st.len(),
                    });
                }
            }
            out
        };
        // 3,1,3,2: the step 1→3 pairs with 3→1, 3→2 with 2→3.
        assert_eq!(pair_darts(&darts(&[&[3, 1, 3, 2]])), Some(vec![1, 0, 3, 2]));
        // Two walks of a cycle: each step with the other walk's reverse.
        let d = darts(&[&[4, 1, 3, 2], &[4, 2, 3, 1]]);
        let mate = pair_darts(&d).unwrap();
        for (i, &m) in mate.iter().enumerate() {
            assert_eq!((d[m].u, d[m].v), (d[i].v, d[i].u));
            assert_eq!(mate[m], i);
        }
        // A step with no way back; a step from a spot to itself.
        assert_eq!(pair_darts(&darts(&[&[1, 2, 3]])), None);
        assert_eq!(pair_darts(&darts(&[&[1, 1]])), None);
        // Corners that cannot go once round each spot: both walks of a
        // cycle the same way round.
        assert_eq!(pair_darts(&darts(&[&[4, 1, 3, 2], &[4, 1, 3, 2]])), None);
    }

    #[test]
    fn positions_laid_out_from_their_structure_read_back() {
        for p in [
            "1;2;3",
            "3,1,3,2",
            "4,1,3,2/4,2,3,1",
            "5,1,3,2,4/5,4,1/6,2,3/6,3,1,4,2",
            "16,14,6;13,5,12,2,9,1,10,1,9,2,12,5/4;11,3,11,10,1,10/13,5/14,6;15,7,15,8/16,6,14",
        ] {
            let position = crate::Position::parse(p).unwrap();
            let (spots, lines) = layout_position(
                position.rows(),
                super::super::W,
                super::super::H,
                &LayoutOptions::default(),
            )
            .unwrap();
            assert_eq!(
                spots.keys().copied().collect::<Vec<_>>(),
                position.spots(),
                "{p}"
            );
            let lone = position
                .rows()
                .iter()
                .flatten()
                .filter(|st| st.len() == 1)
                .count();
            assert_eq!(lines.len(), (position.cards() - lone) / 2, "{p}");
            for l in &lines {
                assert_eq!(
                    (l.pts[0], l.pts[l.pts.len() - 1]),
                    (spots[&l.a], spots[&l.b]),
                    "{p}"
                );
                assert_eq!(l.pts.len(), 5, "three points between the spots");
            }
            for q in spots.values().chain(lines.iter().flat_map(|l| &l.pts)) {
                assert!(
                    (0.0..=960.0).contains(&q[0]) && (0.0..=640.0).contains(&q[1]),
                    "{p}: {q:?}"
                );
            }
            assert_eq!(
                super::super::geometry::crossings(&spots, &lines),
                vec![],
                "no crossing in {p}"
            );
            assert_eq!(
                oriented_key(&read_back(&spots, &lines)),
                oriented_key(position.rows()),
                "{p} reads back"
            );
        }
    }

    #[test]
    fn layouts_follow_their_options() {
        let rows: Rows = vec![vec![vec![4, 1, 3, 2]], vec![vec![4, 2, 3, 1]]];
        let two = LayoutOptions {
            sub: Some(2),
            outer: Some(1),
            rounds: Some(20),
            weights: Some(vec![0.3, 0.3, 1.0, 5.0, 1.0]),
        };
        let (spots, lines) = layout_position(&rows, 960.0, 640.0, &two).unwrap();
        assert!(lines.iter().all(|l| l.pts.len() == 4));
        assert!(super::super::geometry::crossings(&spots, &lines).is_empty());
        assert_eq!(
            oriented_key(&read_back(&spots, &lines)),
            oriented_key(&rows)
        );
        // One spot alone: the middle of the paper.
        let one = layout_position(&[vec![vec![7]]], 960.0, 640.0, &LayoutOptions::default());
        assert_eq!(one, Some((BTreeMap::from([(7, [480.0, 320.0])]), vec![])));
        // Options out of range, and rows that are no position.
        for bad in [
            LayoutOptions {
                sub: Some(MAX_SUBDIVISION + 1),
                ..LayoutOptions::default()
            },
            LayoutOptions {
                rounds: Some(MAX_ROUNDS + 1),
                ..LayoutOptions::default()
            },
            LayoutOptions {
                outer: Some(2),
                ..LayoutOptions::default()
            },
            LayoutOptions {
                weights: Some(vec![1.0; 4]),
                ..LayoutOptions::default()
            },
            LayoutOptions {
                weights: Some(vec![1.0, 1.0, 0.0, 20.0, 1.0]),
                ..LayoutOptions::default()
            },
        ] {
            assert_eq!(layout_position(&rows, 960.0, 640.0, &bad), None, "{bad:?}");
        }
        assert_eq!(
            layout_position(
                &[vec![vec![1, 2, 3]]],
                960.0,
                640.0,
                &LayoutOptions::default()
            ),
            None
        );
        assert_eq!(
            layout_position(&[], 960.0, 640.0, &LayoutOptions::default()),
            None
        );
        assert_eq!(
            layout_position(&[vec![vec![]]], 960.0, 640.0, &LayoutOptions::default()),
            None
        );
        let huge: Rows = vec![(1..=MAX_CARDS as Spot + 1).map(|s| vec![s]).collect()];
        assert_eq!(
            layout_position(&huge, 960.0, 640.0, &LayoutOptions::default()),
            None
        );
    }

    #[test]
    fn relax_never_changes_the_drawing() {
        // A fan of segments from one point, squeezed together: they spread
        // out, still meeting only at that point, all on the paper.
        let mut pts: Vec<Pt> = vec![[480.0, 320.0]];
        let mut segs = Vec::new();
        for k in 0..6 {
            pts.push([500.0 + k as f64, 330.0 + 2.0 * k as f64]);
            segs.push((0, k + 1));
        }
        let before = pts.clone();
        relax(&mut pts, &segs, 1, 960.0, 640.0, 50);
        let spread = |p: &[Pt]| {
            (1..p.len())
                .map(|i| seg_dist(p[i], p[0], p[0]))
                .fold(f64::INFINITY, f64::min)
        };
        assert!(spread(&pts) > 2.0 * spread(&before), "{pts:?}");
        for i in 1..pts.len() {
            for j in i + 1..pts.len() {
                assert!(
                    !super::super::geometry::polylines_cross(&[pts[0], pts[i]], &[pts[0], pts[j]]),
                    "{pts:?}"
                );
            }
        }
        assert!(pts
            .iter()
            .all(|q| q[0] >= 4.0 && q[1] >= 4.0 && q[0] <= 956.0 && q[1] <= 636.0));
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
