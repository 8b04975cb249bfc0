//! Dividing moves: a line from a boundary back to itself cuts its region
//! in two, and the move says which boundaries go to which side.
//!
//! One side (side Z) is grown as a blob of free cells in the face: a patch
//! at each end's corner, the band along one arc of the ends' own boundary
//! between the ends (for a line between two spots), the whole of every
//! boundary that goes with it and all it encloses, and paths joining them.
//! The blob's outline, pinched to the ends, is the line; the side it does
//! not enclose is the other side.

use std::collections::{BTreeMap, BTreeSet};
use std::f64::consts::PI;

use super::grid::{cell_at, cheapest_path, cx, cy, distance_to, hypot, n4, Field, Sector};
use super::grid::{CELLS, CS, GAP, GH, GW, MAXD, R};
use super::{subsets, Drawing, Mv, Step};
use crate::drawing::Pt;
use crate::position::Spot;

/// What side Z takes of the ends' own boundary.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Own {
    /// Nothing (a loop enclosing none of it).
    None,
    /// All of it (a loop round it).
    All,
    /// One or more arcs between the ends.
    Piece,
}

/// Which pieces of the drawing go to side Z.
struct Plan {
    /// Other pieces with a live spot in the face (named by smallest spot).
    islands: Vec<i64>,
    own: Own,
}

/// The check that a drawn dividing move means what the text says (rules 5
/// and 6 of the notation): the listed spots' boundaries on one side, the
/// others on the other; without a list, a new region with no other live
/// spot.
pub(super) struct Meaning {
    f: Spot,
    g: Spot,
    h: Spot,
    islands: Vec<i64>,
    listed: BTreeSet<Spot>,
    /// Per piece, its live spots with a corner in the face.
    spots_of: BTreeMap<i64, Vec<Spot>>,
    /// Those of the ends' own piece, other than the ends.
    own: Vec<Spot>,
}

impl Meaning {
    /// Whether the drawing after the move (read as `fd`) means the move.
    pub(super) fn holds(&self, fd: &Field) -> bool {
        let gs: Vec<i32> = fd.sectors_of(self.g).iter().map(|s| s.face).collect();
        if gs.len() != 2 || gs[0] == gs[1] || gs.contains(&-1) {
            return false;
        }
        // The new faces that spot s has corners in (of the two beside the line).
        let sides = |s: Spot| {
            let mut v: Vec<i32> = Vec::new();
            for x in fd.sectors_of(s) {
                if gs.contains(&x.face) && !v.contains(&x.face) {
                    v.push(x.face);
                }
            }
            v
        };
        let listed = |s: &Spot| self.listed.contains(s);
        for &z in &gs {
            let other = if gs[0] == z { gs[1] } else { gs[0] };
            let mut ok = true;
            for k in &self.islands {
                let spots = self.spots_of.get(k).map_or(&[][..], Vec::as_slice);
                let want = if !self.listed.is_empty() && spots.iter().any(listed) {
                    z
                } else {
                    other
                };
                if !spots.iter().all(|&s| {
                    let sd = sides(s);
                    sd.contains(&want) && sd.len() == 1
                }) {
                    ok = false;
                }
            }
            if self.f == self.h {
                let want = if !self.listed.is_empty() && self.own.iter().any(listed) {
                    z
                } else {
                    other
                };
                if !self.own.iter().all(|&s| sides(s).contains(&want)) {
                    ok = false;
                }
            } else if !self.listed.is_empty() {
                for &s in &self.own {
                    if listed(&s) && !sides(s).contains(&z) {
                        ok = false;
                    }
                }
            } else {
                // No list: side Z (the new region) holds no live spot of the
                // own boundary.
                for &s in &self.own {
                    let sd = sides(s);
                    if sd.len() == 1 && sd.contains(&z) {
                        ok = false;
                    }
                }
            }
            if ok {
                return true;
            }
        }
        false
    }
}

/// A dividing move in one face: what each way of drawing it needs.
pub(super) struct Divide {
    /// The face.
    pub face: i32,
    /// The ends' own piece.
    pub comp: i64,
    pub meaning: Meaning,
    plans: Vec<Plan>,
    /// The arcs of the own boundary between the ends, as cells.
    pieces: Vec<Vec<usize>>,
    /// The piece surrounding the face (`None` for the outer face).
    outer: Option<i64>,
}

impl Divide {
    /// The ways of drawing it, in order: per plan, per choice of arcs, per
    /// pair of corners, blobs from roomy to tight; then plain paths. `div`
    /// is this divide's number among the move's.
    pub(super) fn steps(&self, div: usize, mv: &Mv, sf: &[usize], sh: &[usize]) -> Vec<Step> {
        let mut steps = Vec::new();
        for (p, plan) in self.plans.iter().enumerate() {
            // The blob may not take the face's outer boundary (its outline
            // would then be two curves); its far side is the other plan.
            if self.outer.is_some_and(|o| plan.islands.contains(&o)) {
                continue;
            }
            if self.outer == Some(self.comp) && plan.own == Own::All {
                continue;
            }
            let arcs = if plan.own == Own::Piece {
                subsets(&(0..self.pieces.len()).collect::<Vec<_>>())
            } else {
                vec![Vec::new()]
            };
            for arc in arcs {
                for &a in sf {
                    for &b in sh {
                        // Roomy first (the blob grown into free space, so
                        // regions read as regions), then tight.
                        for (grow, roomiest) in
                            [(20, false), (12, false), (12, true), (5, false), (0, false)]
                        {
                            steps.push(Step::Blob {
                                div,
                                plan: p,
                                arc: arc.clone(),
                                a,
                                b,
                                grow,
                                roomiest,
                            });
                        }
                    }
                }
            }
        }
        // Last resorts: the plain cheapest path (right when nothing needs
        // enclosing).
        for &a in sf {
            for &b in sh {
                if mv.f != mv.h {
                    steps.push(Step::Plain { div, a, b });
                }
            }
        }
        steps
    }
}

impl Drawing {
    /// What drawing dividing move `mv` in face `face` needs.
    pub(super) fn divide(&self, fd: &Field, mv: &Mv, face: i32) -> Divide {
        let c = fd.comp_of(mv.f);
        // Live spots per piece with a corner in the face.
        let mut in_f: Vec<(i64, Vec<Spot>)> = Vec::new();
        for (&s, secs) in &fd.sectors {
            if !fd.live(s) || !secs.iter().any(|x| x.face == face) {
                continue;
            }
            let k = fd.comp_of(s);
            match in_f.iter_mut().find(|e| e.0 == k) {
                Some(e) => e.1.push(s),
                None => in_f.push((k, vec![s])),
            }
        }
        let spots_in = |k: i64| {
            in_f.iter()
                .find(|e| e.0 == k)
                .map_or(&[][..], |e| e.1.as_slice())
        };
        let islands: Vec<i64> = in_f.iter().map(|e| e.0).filter(|&k| k != c).collect();
        let listed: BTreeSet<Spot> = mv
            .list
            .iter()
            .flatten()
            .copied()
            .filter(|s| self.spots.contains_key(s) && fd.live(*s))
            .collect();
        let listed_islands: Vec<i64> = islands
            .iter()
            .copied()
            .filter(|&k| spots_in(k).iter().any(|s| listed.contains(s)))
            .collect();
        let own: Vec<Spot> = spots_in(c)
            .iter()
            .copied()
            .filter(|&s| s != mv.f && s != mv.h)
            .collect();
        let own_listed = own.iter().any(|s| listed.contains(s));
        let rest: Vec<i64> = islands
            .iter()
            .copied()
            .filter(|k| !listed_islands.contains(k))
            .collect();
        // Side Z is grown as a blob; which islands go there.
        let plans = match (mv.f == mv.h, listed.is_empty()) {
            (true, false) => vec![
                Plan {
                    islands: listed_islands,
                    own: if own_listed { Own::All } else { Own::None },
                },
                Plan {
                    islands: rest,
                    own: if own_listed { Own::None } else { Own::All },
                },
            ],
            (true, true) => vec![
                Plan {
                    islands: Vec::new(),
                    own: Own::None,
                },
                Plan {
                    islands: islands.clone(),
                    own: Own::All,
                },
            ],
            (false, false) => vec![
                Plan {
                    islands: listed_islands,
                    own: Own::Piece,
                },
                Plan {
                    islands: rest,
                    own: Own::Piece,
                },
            ],
            (false, true) => vec![
                Plan {
                    islands: Vec::new(),
                    own: Own::Piece,
                },
                Plan {
                    islands: islands.clone(),
                    own: Own::Piece,
                },
            ],
        };
        let pieces = if mv.f == mv.h {
            Vec::new()
        } else {
            self.band_pieces(fd, face, c, mv)
        };
        let spots_of: BTreeMap<i64, Vec<Spot>> = in_f.iter().cloned().collect();
        Divide {
            face,
            comp: c,
            meaning: Meaning {
                f: mv.f,
                g: mv.g,
                h: mv.h,
                islands,
                listed,
                spots_of,
                own,
            },
            plans,
            pieces,
            outer: outer_component(fd, face),
        }
    }

    /// The free cells of the face along piece `c`, cut at the two ends of
    /// the move: the arcs of c's boundary between f and h, each as a set of
    /// cells (a band as wide as the gap lines keep, so an outline around it
    /// keeps it); the four largest.
    fn band_pieces(&self, fd: &Field, face: i32, c: i64, mv: &Mv) -> Vec<Vec<usize>> {
        let (f, h) = (self.spot(mv.f), self.spot(mv.h));
        let cut = GAP;
        let order: Vec<usize> = (0..CELLS)
            .filter(|&x| {
                fd.face[x] == face
                    && fd.owner[x] == c
                    && f64::from(fd.dist[x]) < R + 3.0 * CS
                    && hypot(cx(x) - f[0], cy(x) - f[1]) >= cut
                    && hypot(cx(x) - h[0], cy(x) - h[1]) >= cut
            })
            .collect();
        let mut band = vec![false; CELLS];
        for &x in &order {
            band[x] = true;
        }
        let mut pieces: Vec<Vec<usize>> = Vec::new();
        let mut seen = vec![false; CELLS];
        for c0 in order {
            if seen[c0] {
                continue;
            }
            let mut piece = vec![c0];
            seen[c0] = true;
            let mut k = 0;
            while k < piece.len() {
                for d in n4(piece[k]) {
                    if band[d] && !seen[d] {
                        seen[d] = true;
                        piece.push(d);
                    }
                }
                k += 1;
            }
            if piece.len() >= 3 {
                pieces.push(piece);
            }
        }
        pieces.sort_by_key(|p| std::cmp::Reverse(p.len()));
        pieces.truncate(4);
        pieces
    }

    /// Grows the blob of side Z and returns its outline (corner points,
    /// clockwise along cell edges), or `None` if it cannot be grown cleanly.
    /// `arc`: which of the band pieces go to side Z; `f_sec`, `h_sec`: the
    /// corners used; `grow`: layers of free space to add; `roomiest`: leave
    /// a corner the roomiest way (else near its middle).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn blob(
        &self,
        fd: &Field,
        mv: &Mv,
        div: &Divide,
        plan: usize,
        arc: &[usize],
        f_sec: &Sector,
        h_sec: &Sector,
        grow: usize,
        roomiest: bool,
    ) -> Option<Vec<Pt>> {
        let face = div.face;
        let c_own = div.comp;
        let plan = &div.plans[plan];
        let mut z_comps: Vec<i64> = plan.islands.clone();
        if plan.own == Own::All && !z_comps.contains(&c_own) {
            z_comps.push(c_own);
        }
        let mut in_b = vec![false; CELLS];
        let (f, h) = (self.spot(mv.f), self.spot(mv.h));
        // Cells of the blob keep a gap from everything on the other side
        // (and from the own piece, unless near the ends or in its chosen arc).
        let other = distance_to(&self.spots, &self.lines, fd, |k| {
            !z_comps.contains(&k) && k != c_own
        });
        let dist_c = (!z_comps.contains(&c_own))
            .then(|| distance_to(&self.spots, &self.lines, fd, |k| k == c_own));
        let oth = |c: usize| f64::from(other[c]);
        let dc = |c: usize| dist_c.as_ref().map(|d| f64::from(d[c]));
        let mut piece_cells = vec![false; CELLS];
        for &p in arc {
            for &c in &div.pieces[p] {
                piece_cells[c] = true;
            }
        }
        let near_ends = |c: usize| {
            hypot(cx(c) - f[0], cy(c) - f[1]) < GAP + 2.0 * CS
                || hypot(cx(c) - h[0], cy(c) - h[1]) < GAP + 2.0 * CS
        };
        let allowed = |c: usize| {
            fd.face[c] == face
                && oth(c) >= GAP
                && dc(c).is_none_or(|d| d >= GAP || piece_cells[c] || (near_ends(c) && d >= R))
        };
        // Parts to join.
        let mut parts: Vec<Vec<usize>> = Vec::new();
        let start = *f_sec.cells.first()?;
        // Everything a piece on side Z encloses goes with it: the cells not
        // reachable from the face without passing through the piece; then
        // grown by a gap's width into the face.
        for &k in &z_comps {
            let mut reach = vec![false; CELLS];
            let mut stack = vec![start];
            reach[start] = true;
            while let Some(c) = stack.pop() {
                for d in n4(c) {
                    if reach[d] || (fd.face[d] == -1 && fd.owner[d] == k) {
                        continue;
                    }
                    reach[d] = true;
                    stack.push(d);
                }
            }
            let mut in_part = vec![false; CELLS];
            let mut part = Vec::new();
            for c in 0..CELLS {
                if !reach[c] {
                    in_part[c] = true;
                    part.push(c);
                }
            }
            let mut layer = part.clone();
            let mut g = 0.0;
            while g * CS < GAP {
                let mut next = Vec::new();
                for &c in &layer {
                    for d in n4(c) {
                        if !in_part[d] && fd.face[d] == face && (allowed(d) || oth(d) >= R + CS) {
                            in_part[d] = true;
                            part.push(d);
                            next.push(d);
                        }
                    }
                }
                layer = next;
                g += 1.0;
            }
            parts.push(part);
        }
        // The corner(s) at the ends: a small patch of the corner's free
        // cells, in the roomiest of the directions in the middle of the
        // corner, so the line leaves the spot well away from its other lines.
        let patch = |sec: &Sector, p: Pt| -> Vec<usize> {
            let mut best: Option<Vec<usize>> = None;
            let mut score = f64::NEG_INFINITY;
            // A spot alone may be left in any direction.
            let round = sec.to - sec.from > 2.0 * PI - 0.01;
            // The roomiest way: any direction of the corner, by the room ahead.
            let (lo, hi) = match (roomiest, round) {
                (true, true) => (0.0, 0.95),
                (true, false) => (0.15, 0.85),
                (false, _) => (0.2, 0.8),
            };
            let step = if roomiest { 1.0 / 16.0 } else { 0.1 };
            let mut t = lo;
            while t <= hi + 1e-9 {
                let a = sec.from + (sec.to - sec.from) * t;
                let q = [
                    p[0] + a.cos() * (R + 3.0 * CS),
                    p[1] + a.sin() * (R + 3.0 * CS),
                ];
                let sorted = super::nearest_cells(&sec.cells, q, 4);
                if !sorted.is_empty() {
                    let ahead = cell_at(
                        p[0] + a.cos() * (R + 10.0 * CS),
                        p[1] + a.sin() * (R + 10.0 * CS),
                    );
                    let room = match ahead {
                        Some(x) if fd.face[x] == face => oth(x).min(dc(x).unwrap_or(MAXD)),
                        _ => 0.0,
                    } - if roomiest {
                        0.0
                    } else {
                        30.0 * (t - 0.5).abs()
                    };
                    if room > score {
                        score = room;
                        best = Some(sorted);
                    }
                }
                t += step;
            }
            best.unwrap_or_default()
        };
        parts.insert(0, patch(f_sec, f));
        if mv.f != mv.h {
            parts.push(patch(h_sec, h));
        }
        for &p in arc {
            parts.push(div.pieces[p].clone());
        }
        for p in &parts {
            for &c in p {
                in_b[c] = true;
            }
        }
        // Join the parts one by one to the first, each by a cheapest path.
        let mut in_joined = vec![false; CELLS];
        // The free cells joined so far (where paths start).
        let mut joined_free: Vec<usize> = Vec::new();
        let join = |c: usize, in_joined: &mut Vec<bool>, joined_free: &mut Vec<usize>| {
            if in_joined[c] {
                return;
            }
            in_joined[c] = true;
            if fd.face[c] == face {
                joined_free.push(c);
            }
        };
        for &c in &parts[0] {
            join(c, &mut in_joined, &mut joined_free);
        }
        for target in &parts[1..] {
            if target
                .iter()
                .any(|&c| in_joined[c] || n4(c).any(|d| in_joined[d]))
            {
                for &c in target {
                    join(c, &mut in_joined, &mut joined_free);
                }
                continue;
            }
            let target_free: Vec<usize> = target
                .iter()
                .copied()
                .filter(|&c| fd.face[c] == face)
                .collect();
            if target_free.is_empty() {
                return None;
            }
            let path = cheapest_path(fd, face, &joined_free, &target_free, Some(&allowed))?;
            for c in path {
                in_b[c] = true;
                join(c, &mut in_joined, &mut joined_free);
                // A path two cells thick, so the outline has room on both sides.
                for d in n4(c) {
                    if allowed(d) {
                        in_b[d] = true;
                        join(d, &mut in_joined, &mut joined_free);
                    }
                }
            }
            for &c in target {
                join(c, &mut in_joined, &mut joined_free);
            }
        }
        // Grown into the free space around it, keeping the gap. Near the
        // ends, the own piece's lines there may be closer in proportion (the
        // blob opens from the corner like a fan).
        let r_end =
            |c: usize| hypot(cx(c) - f[0], cy(c) - f[1]).min(hypot(cx(c) - h[0], cy(c) - h[1]));
        // Away from the part of the own piece that goes to the other side:
        // the band along it (outside the ends), and up to 6 cells from it.
        let mut from_other = vec![255u8; CELLS];
        if dist_c.is_some() {
            let mut front = Vec::new();
            for c in 0..CELLS {
                if fd.face[c] == face
                    && fd.owner[c] == c_own
                    && f64::from(fd.dist[c]) < R + 3.0 * CS
                    && !piece_cells[c]
                    && r_end(c) >= GAP + 3.0 * CS
                {
                    from_other[c] = 0;
                    front.push(c);
                }
            }
            for g in 1..=6u8 {
                let mut next = Vec::new();
                for &c in &front {
                    for d in n4(c) {
                        if from_other[d] > g {
                            from_other[d] = g;
                            next.push(d);
                        }
                    }
                }
                front = next;
            }
        }
        let roomy = |c: usize| {
            fd.face[c] == face
                && oth(c) >= GAP + CS
                && dc(c)
                    .is_none_or(|d| from_other[c] > 5 && d >= (R + 3.0 * CS).min(0.6 * r_end(c)))
        };
        let mut layer: Vec<usize> = (0..CELLS).filter(|&c| in_b[c]).collect();
        for _ in 0..grow {
            let mut next = Vec::new();
            for &c in &layer {
                for d in n4(c) {
                    if !in_b[d] && roomy(d) {
                        in_b[d] = true;
                        next.push(d);
                    }
                }
            }
            layer = next;
        }
        // Fill holes; a hole holding anything of the other side is a failure.
        let mut outside = vec![false; CELLS];
        let mut stack = Vec::new();
        for c in 0..CELLS {
            let (i, j) = (c % GW, c / GW);
            if (i == 0 || j == 0 || i == GW - 1 || j == GH - 1) && !in_b[c] {
                outside[c] = true;
                stack.push(c);
            }
        }
        while let Some(c) = stack.pop() {
            for d in n4(c) {
                if !outside[d] && !in_b[d] {
                    outside[d] = true;
                    stack.push(d);
                }
            }
        }
        for c in 0..CELLS {
            if in_b[c] || outside[c] {
                continue;
            }
            if oth(c) < R {
                return None;
            }
            if dc(c).is_some_and(|d| d < R) && !near_ends(c) && mv.f == mv.h {
                return None;
            }
            in_b[c] = true;
        }
        // Diagonal pinches make the outline touch itself: fill one cell of each.
        for _ in 0..20 {
            let mut changed = false;
            for j in 0..GH - 1 {
                for i in 0..GW - 1 {
                    let a = j * GW + i;
                    let (b, c) = (a + 1, a + GW);
                    let d = c + 1;
                    if in_b[a] && in_b[d] && !in_b[b] && !in_b[c] {
                        in_b[if allowed(b) { b } else { c }] = true;
                        changed = true;
                    } else if in_b[b] && in_b[c] && !in_b[a] && !in_b[d] {
                        in_b[if allowed(a) { a } else { d }] = true;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        outline(&in_b)
    }

    /// The outline turned into lines from f to h: pinched to f (and h), and
    /// for f ≠ h the half of the outline that does not hug f's boundary
    /// (and the other half too, unless it hugs it).
    pub(super) fn pinch(&self, fd: &Field, mv: &Mv, outline: &[Pt], c_own: i64) -> Vec<Vec<Pt>> {
        let (f, h) = (self.spot(mv.f), self.spot(mv.h));
        let n = outline.len();
        let nearest = |p: Pt| {
            let mut best = 0;
            let mut bd = f64::INFINITY;
            for (k, o) in outline.iter().enumerate() {
                let d = hypot(o[0] - p[0], o[1] - p[1]);
                if d < bd {
                    bd = d;
                    best = k;
                }
            }
            best
        };
        let kf = nearest(f);
        if mv.f == mv.h {
            let mut lp = vec![f];
            lp.extend((1..n).map(|k| outline[(kf + k) % n]));
            lp.push(f);
            return vec![lp];
        }
        let kh = nearest(h);
        if kh == kf {
            return Vec::new();
        }
        let walk = |from: usize, to: usize| {
            let mut out = Vec::new();
            let mut k = from;
            loop {
                out.push(outline[k]);
                if k == to {
                    break;
                }
                k = (k + 1) % n;
            }
            out
        };
        let one = walk(kf, kh);
        let mut two = walk(kh, kf);
        two.reverse();
        // The half that hugs the own piece runs at about R from it.
        let hug = |line: &[Pt]| {
            let close = line
                .iter()
                .filter(|p| {
                    [
                        cell_at(p[0] - 0.1, p[1] - 0.1),
                        cell_at(p[0] + 0.1, p[1] + 0.1),
                    ]
                    .into_iter()
                    .flatten()
                    .any(|x| fd.owner[x] == c_own && f64::from(fd.dist[x]) < R + CS)
                })
                .count();
            close as f64 / line.len().max(1) as f64
        };
        let mut halves = [one, two];
        halves.sort_by(|a, b| {
            hug(a)
                .partial_cmp(&hug(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        // A half that runs along f's own boundary is that boundary, not a line.
        halves
            .iter()
            .enumerate()
            .filter(|(k, half)| *k == 0 || hug(half) < 0.3)
            .map(|(_, half)| {
                let mut l = vec![f];
                l.extend_from_slice(&half[1..half.len() - 1]);
                l.push(h);
                l
            })
            .collect()
    }
}

/// The piece that surrounds face `face` (`None` for the outer face): the
/// owner of the blocked cell above the face's first cell.
fn outer_component(fd: &Field, face: i32) -> Option<i64> {
    let c = (0..CELLS).find(|&c| fd.face[c] == face)?;
    // The first cell of the face in reading order: the cell above it is not in it.
    if c < GW {
        return None;
    }
    let mut d = c as isize - GW as isize;
    while d >= 0 && fd.face[d as usize] == -1 && fd.owner[d as usize] == -1 {
        d -= GW as isize;
    }
    if d < 0 {
        return None;
    }
    let o = fd.owner[d as usize];
    (o >= 0).then_some(o)
}

/// The outline of a set of cells, traced clockwise along cell edges from
/// the top left corner of its first cell; `None` if the set touches the
/// paper's edge or its outline is not one simple loop.
fn outline(in_b: &[bool]) -> Option<Vec<Pt>> {
    const V: usize = GW + 1;
    let mut next = vec![usize::MAX; V * (GH + 1)];
    let mut count = 0;
    let mut keys = 0;
    let mut first = None;
    let mut set = |from: usize, to: usize, next: &mut Vec<usize>| {
        if next[from] == usize::MAX {
            keys += 1;
        }
        next[from] = to;
        first.get_or_insert(from);
    };
    for c in 0..CELLS {
        if !in_b[c] {
            continue;
        }
        let (i, j) = (c % GW, c / GW);
        // The blob may not reach the paper's edge (its outline would run along it).
        if j == 0 || i == 0 || i + 1 == GW || j + 1 == GH {
            return None;
        }
        let (up, down, left, right) = (in_b[c - GW], in_b[c + GW], in_b[c - 1], in_b[c + 1]);
        if !up {
            set(j * V + i, j * V + i + 1, &mut next);
            count += 1;
        }
        if !right {
            set(j * V + i + 1, (j + 1) * V + i + 1, &mut next);
            count += 1;
        }
        if !down {
            set((j + 1) * V + i + 1, (j + 1) * V + i, &mut next);
            count += 1;
        }
        if !left {
            set((j + 1) * V + i, j * V + i, &mut next);
            count += 1;
        }
    }
    let first = first?;
    if keys != count || count == 0 {
        return None;
    }
    let mut out = Vec::new();
    let mut v = first;
    loop {
        out.push([(v % V) as f64 * CS, (v / V) as f64 * CS]);
        v = next[v];
        if v == usize::MAX {
            return None;
        }
        if v == first || out.len() > count {
            break;
        }
    }
    (out.len() == count).then_some(out)
}
