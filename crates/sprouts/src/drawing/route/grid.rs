//! The paper as a grid of cells: which cells are free, the regions the free
//! cells fall into (faces), and the corners of every spot (sectors).
//!
//! A cell near a line or spot is blocked and remembers the connected piece
//! of the drawing nearest to it (its owner, named by the piece's smallest
//! spot). The free cells, 4-connected, are the faces. Around each spot the
//! gaps between its lines are its corners; each corner opens on one face,
//! which is the card notation read off the grid (one card per corner).

use std::collections::BTreeMap;
use std::f64::consts::PI;

use super::super::geometry::{polylines_cross, seg_dist};
use super::super::{Line, Pt, H, W};
use crate::position::Spot;

/// Side of a cell.
pub(super) const CS: f64 = 5.0;
/// Cells across the paper.
pub(super) const GW: usize = (W as usize).div_ceil(CS as usize);
/// Cells down the paper.
pub(super) const GH: usize = (H as usize).div_ceil(CS as usize);
/// Cells on the paper.
pub(super) const CELLS: usize = GW * GH;
/// Cells closer than this to a line or spot are blocked.
pub(super) const R: f64 = 3.0;
/// A spot's radius, for keeping lines off it.
pub(super) const SPOT: f64 = CS;
/// Distances are capped here (costs only care about nearby lines).
pub(super) const MAXD: f64 = R + 36.0;
/// Lines keep this far apart (away from their shared spots), so the free
/// cells between any two of them stay connected and faces read true.
pub(super) const GAP: f64 = 2.0 * R + 3.0 * CS;

/// The x of a cell's centre.
pub(super) fn cx(c: usize) -> f64 {
    (c % GW) as f64 * CS + CS / 2.0
}

/// The y of a cell's centre.
pub(super) fn cy(c: usize) -> f64 {
    (c / GW) as f64 * CS + CS / 2.0
}

/// The cell holding point (x, y), if it is on the paper.
pub(super) fn cell_at(x: f64, y: f64) -> Option<usize> {
    let i = (x / CS).floor();
    let j = (y / CS).floor();
    // NaN fails both tests, as it is off the paper.
    if i >= 0.0 && j >= 0.0 && i < GW as f64 && j < GH as f64 {
        Some(j as usize * GW + i as usize)
    } else {
        None
    }
}

/// The 4-neighbours of a cell: left, right, up, down (floods and paths
/// visit them in this order, which decides ties).
pub(super) fn n4(c: usize) -> impl Iterator<Item = usize> {
    let i = c % GW;
    [
        (i > 0).then(|| c - 1),
        (i + 1 < GW).then_some(c + 1),
        (c >= GW).then(|| c - GW),
        (c + GW < CELLS).then_some(c + GW),
    ]
    .into_iter()
    .flatten()
}

/// The length of (x, y) as a browser's `Math.hypot` computes it (scaled
/// by the larger part, compensated sum), so that distances compared with
/// thresholds fall on the same side as on the page.
pub(super) fn hypot(x: f64, y: f64) -> f64 {
    let (x, y) = (x.abs(), y.abs());
    if x.is_infinite() || y.is_infinite() {
        return f64::INFINITY;
    }
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    let max = x.max(y);
    if max == 0.0 {
        return 0.0;
    }
    let mut sum = 0.0;
    let mut compensation = 0.0;
    for v in [x, y] {
        let n = v / max;
        let summand = n * n - compensation;
        let preliminary = sum + summand;
        compensation = (preliminary - sum) - summand;
        sum = preliminary;
    }
    sum.sqrt() * max
}

/// Rounds to the nearest whole number, halves up (as a browser rounds).
pub(super) fn round_js(x: f64) -> f64 {
    let f = x.floor();
    if x - f >= 0.5 {
        f + 1.0
    } else {
        f
    }
}

/// Rounds to tenths, as the page keeps its coordinates.
pub(super) fn tenths(p: Pt) -> Pt {
    [round_js(p[0] * 10.0) / 10.0, round_js(p[1] * 10.0) / 10.0]
}

/// Whether two points are the same.
pub(super) fn same(a: Pt, b: Pt) -> bool {
    (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9
}

/// One corner of a spot: the gap between two of its lines (by angle, from
/// `from` to `to`, `to > from`), the face it opens on (-1 if none was
/// found) and the free cells near the spot inside the gap that lie in that
/// face (its way out).
#[derive(Clone, Debug)]
pub(super) struct Sector {
    pub from: f64,
    pub to: f64,
    pub face: i32,
    pub cells: Vec<usize>,
}

/// What the drawing looks like to the router: distances, owners, faces and
/// every spot's corners.
#[derive(Clone)]
pub(super) struct Field {
    /// Distance from each cell's centre to the nearest line or spot,
    /// capped at [`MAXD`] (single precision, as the page keeps it).
    pub dist: Vec<f32>,
    /// The piece of the drawing nearest each cell (-1: none within MAXD).
    pub owner: Vec<i64>,
    /// The face of each free cell (-1: blocked).
    pub face: Vec<i32>,
    /// Each spot's piece of the drawing: its smallest spot.
    pub comp: BTreeMap<Spot, Spot>,
    /// How many line ends each spot has.
    pub degree: BTreeMap<Spot, usize>,
    /// Each spot's corners, by angle.
    pub sectors: BTreeMap<Spot, Vec<Sector>>,
}

impl std::fmt::Debug for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The grids are large and say little printed.
        f.debug_struct("Field")
            .field("degree", &self.degree)
            .finish_non_exhaustive()
    }
}

impl Field {
    /// The piece of the drawing spot `s` belongs to.
    pub fn comp_of(&self, s: Spot) -> i64 {
        self.comp.get(&s).map_or(-1, |&k| k as i64)
    }

    /// Whether spot `s` has a life left.
    pub fn live(&self, s: Spot) -> bool {
        self.degree.get(&s).copied().unwrap_or(0) < 3
    }

    /// The corners of spot `s` (none if it is not drawn).
    pub fn sectors_of(&self, s: Spot) -> &[Sector] {
        self.sectors.get(&s).map_or(&[], Vec::as_slice)
    }
}

/// Lowers `dist` (and sets `owner`, if given) over the cells within
/// [`MAXD`] of segment `ab`, by the distance to the segment less `extra`.
fn paint(dist: &mut [f32], mut owner: Option<(&mut [i64], i64)>, a: Pt, b: Pt, extra: f64) {
    let i0 = (((a[0].min(b[0]) - MAXD) / CS).floor()).max(0.0);
    let i1 = (((a[0].max(b[0]) + MAXD) / CS).floor()).min(GW as f64 - 1.0);
    let j0 = (((a[1].min(b[1]) - MAXD) / CS).floor()).max(0.0);
    let j1 = (((a[1].max(b[1]) + MAXD) / CS).floor()).min(GH as f64 - 1.0);
    if !(i0 <= i1 && j0 <= j1) {
        return;
    }
    for j in j0 as usize..=j1 as usize {
        for i in i0 as usize..=i1 as usize {
            let c = j * GW + i;
            let p = [i as f64 * CS + CS / 2.0, j as f64 * CS + CS / 2.0];
            let d = (seg_dist(p, a, b) - extra).max(0.0);
            if d < f64::from(dist[c]) {
                dist[c] = d as f32;
                if let Some((owner, who)) = owner.as_mut() {
                    owner[c] = *who;
                }
            }
        }
    }
}

/// Distance from each cell to the lines and spots of the pieces `which`
/// accepts (a piece named by its smallest spot).
pub(super) fn distance_to(
    spots: &BTreeMap<Spot, Pt>,
    lines: &[Line],
    fd: &Field,
    which: impl Fn(i64) -> bool,
) -> Vec<f32> {
    let mut dist = vec![MAXD as f32; CELLS];
    for (&s, &p) in spots {
        if which(fd.comp_of(s)) {
            paint(&mut dist, None, p, p, SPOT);
        }
    }
    for c in lines {
        if !which(fd.comp_of(c.a)) {
            continue;
        }
        for s in c.pts.windows(2) {
            paint(&mut dist, None, s[0], s[1], 0.0);
        }
    }
    dist
}

/// Reads the drawing onto the grid; `comp` gives each spot's piece.
pub(super) fn field(
    spots: &BTreeMap<Spot, Pt>,
    lines: &[Line],
    comp: BTreeMap<Spot, Spot>,
) -> Field {
    let mut dist = vec![MAXD as f32; CELLS];
    let mut owner = vec![-1i64; CELLS];
    let who = |s: Spot| comp.get(&s).map_or(-1, |&k| k as i64);
    // A spot counts as a small disc: lines keep off it, and a spot alone
    // still blocks a few cells (it is an island of its own).
    for (&s, &p) in spots {
        paint(&mut dist, Some((&mut owner, who(s))), p, p, SPOT);
    }
    for c in lines {
        let w = who(c.a);
        for s in c.pts.windows(2) {
            paint(&mut dist, Some((&mut owner, w)), s[0], s[1], 0.0);
        }
    }
    // Faces: 4-connected free cells. The border of the paper is a wall.
    let mut face = vec![-1i32; CELLS];
    let mut faces = 0;
    let free = |c: usize| f64::from(dist[c]) >= R;
    for c0 in 0..CELLS {
        if face[c0] != -1 || !free(c0) {
            continue;
        }
        let mut stack = vec![c0];
        face[c0] = faces;
        while let Some(c) = stack.pop() {
            for d in n4(c) {
                if face[d] == -1 && free(d) {
                    face[d] = faces;
                    stack.push(d);
                }
            }
        }
        faces += 1;
    }
    // Corners: the gaps between a spot's lines, and the face each opens on.
    let mut angles: BTreeMap<Spot, Vec<f64>> = spots.keys().map(|&s| (s, Vec::new())).collect();
    let mut degree: BTreeMap<Spot, usize> = spots.keys().map(|&s| (s, 0)).collect();
    // Per spot, per line end: its angle and the faces on its left and right.
    let mut besides: BTreeMap<Spot, Vec<(f64, i32, i32)>> =
        spots.keys().map(|&s| (s, Vec::new())).collect();
    for (ci, c) in lines.iter().enumerate() {
        let reversed: Vec<Pt> = c.pts.iter().rev().copied().collect();
        for (end, pts) in [(c.a, c.pts.as_slice()), (c.b, reversed.as_slice())] {
            let Some(&p) = pts.first() else { continue };
            let q = pts
                .iter()
                .find(|r| hypot(r[0] - p[0], r[1] - p[1]) >= R + 2.0)
                .or(pts.last())
                .copied()
                .unwrap_or(p);
            let ang = (q[1] - p[1]).atan2(q[0] - p[0]);
            if let Some(a) = angles.get_mut(&end) {
                a.push(ang);
            }
            // Beside the line a little way out, on either side: the faces
            // of the corners this line bounds (by angle alone a corner
            // between two lines that bend away would be read wrong).
            let side_face = beside(pts, ci, lines, &face);
            if let Some(b) = besides.get_mut(&end) {
                b.push((ang, side_face[0], side_face[1]));
            }
            *degree.entry(end).or_insert(0) += 1;
        }
    }
    let mut sectors = BTreeMap::new();
    for (&s, &p) in spots {
        let mut a = angles.remove(&s).unwrap_or_default();
        a.sort_by(|x, y| x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Equal));
        let gaps: Vec<(f64, f64)> = if a.is_empty() {
            vec![(-PI, PI)]
        } else {
            (0..a.len())
                .map(|k| {
                    (
                        a[k],
                        if k + 1 < a.len() {
                            a[k + 1]
                        } else {
                            a[0] + 2.0 * PI
                        },
                    )
                })
                .collect()
        };
        let bs = besides.get(&s).map_or(&[][..], Vec::as_slice);
        let secs = gaps
            .into_iter()
            .map(|(from, to)| sector(p, from, to, bs, &face))
            .collect();
        sectors.insert(s, secs);
    }
    Field {
        dist,
        owner,
        face,
        comp,
        degree,
        sectors,
    }
}

/// The faces on either side of the start of `pts` (line `ci` walked from
/// one end): points along it at growing distances, and beside each, a
/// little way out (less than half the gap lines keep), the first free cell.
fn beside(pts: &[Pt], ci: usize, lines: &[Line], face: &[i32]) -> [i32; 2] {
    let mut side_face = [-1, -1];
    let mut acc = 0.0;
    let mut want = R + 2.0 * CS;
    let mut k = 0;
    while k + 1 < pts.len() && (side_face[0] < 0 || side_face[1] < 0) {
        let (a, b) = (pts[k], pts[k + 1]);
        let l = hypot(b[0] - a[0], b[1] - a[1]);
        while acc + l >= want && (side_face[0] < 0 || side_face[1] < 0) {
            let t = if l != 0.0 { (want - acc) / l } else { 0.0 };
            let pp = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
            let nx = if l != 0.0 { -(b[1] - a[1]) / l } else { 0.0 };
            let ny = if l != 0.0 { (b[0] - a[0]) / l } else { 0.0 };
            for (side, sign) in [(0, 1.0), (1, -1.0)] {
                let mut off = R + 1.0;
                while off <= R + 1.5 * CS && side_face[side] < 0 {
                    let q = [pp[0] + sign * nx * off, pp[1] + sign * ny * off];
                    // Not across another line (two lines may run close by a spot).
                    let across = lines
                        .iter()
                        .enumerate()
                        .any(|(oi, o)| oi != ci && polylines_cross(&[pp, q], &o.pts));
                    if across {
                        break;
                    }
                    if let Some(cq) = cell_at(q[0], q[1]) {
                        if face[cq] >= 0 {
                            side_face[side] = face[cq];
                        }
                    }
                    off += CS / 2.0;
                }
            }
            want += CS;
        }
        acc += l;
        k += 1;
    }
    side_face
}

/// The corner of the spot at `p` between angles `from` and `to`: the face
/// most of its nearby free cells vote for, unless the faces seen beside its
/// two lines say otherwise.
fn sector(p: Pt, from: f64, to: f64, bs: &[(f64, i32, i32)], face: &[i32]) -> Sector {
    let mut cells = Vec::new();
    let rr = R + 6.0 * CS;
    let i0 = ((p[0] - rr) / CS).floor().max(0.0);
    let i1 = ((p[0] + rr) / CS).floor().min(GW as f64 - 1.0);
    let j0 = ((p[1] - rr) / CS).floor().max(0.0);
    let j1 = ((p[1] + rr) / CS).floor().min(GH as f64 - 1.0);
    // Votes per face, in the order the faces were first seen.
    let mut votes: Vec<(i32, f64)> = Vec::new();
    if i0 <= i1 && j0 <= j1 {
        for j in j0 as usize..=j1 as usize {
            for i in i0 as usize..=i1 as usize {
                let c = j * GW + i;
                if face[c] < 0 {
                    continue;
                }
                let (x, y) = (cx(c) - p[0], cy(c) - p[1]);
                let r = hypot(x, y);
                if r > rr {
                    continue;
                }
                let mut t = y.atan2(x);
                while t < from {
                    t += 2.0 * PI;
                }
                let margin = f64::min(0.25, (to - from) / 4.0);
                if t > from + margin && t < to - margin {
                    cells.push(c);
                    match votes.iter_mut().find(|v| v.0 == face[c]) {
                        Some(v) => v.1 += 1.0 / (1.0 + r),
                        None => votes.push((face[c], 1.0 / (1.0 + r))),
                    }
                }
            }
        }
    }
    let mut best = -1;
    let mut best_v = -1.0;
    for &(f, v) in &votes {
        if v > best_v {
            best = f;
            best_v = v;
        }
    }
    // The faces seen beside the gap's two lines win over the angle vote.
    let back = if to > PI { to - 2.0 * PI } else { to };
    let l1 = bs.iter().find(|b| b.0 == from).map_or(-1, |b| b.1);
    let l2 = bs.iter().find(|b| b.0 == back).map_or(-1, |b| b.2);
    if let Some(&seen) = [l1, l2].iter().find(|&&x| x >= 0) {
        best = seen;
    }
    cells.retain(|&c| face[c] == best);
    Sector {
        from,
        to,
        face: best,
        cells,
    }
}

/// A binary heap of (cost, cell), least cost on top; equal costs come off
/// in the order this heap's sifting gives (which decides the path among
/// equally cheap ones, so it is kept exactly).
#[derive(Default)]
struct Heap {
    k: Vec<f64>,
    v: Vec<usize>,
}

impl Heap {
    fn push(&mut self, k: f64, v: usize) {
        let mut i = self.k.len();
        self.k.push(k);
        self.v.push(v);
        while i > 0 {
            let p = (i - 1) >> 1;
            if self.k[p] <= k {
                break;
            }
            self.k[i] = self.k[p];
            self.v[i] = self.v[p];
            i = p;
        }
        self.k[i] = k;
        self.v[i] = v;
    }

    fn pop(&mut self) -> Option<usize> {
        let top = *self.v.first()?;
        let (k, v) = (self.k.pop()?, self.v.pop()?);
        let n = self.k.len();
        if n > 0 {
            let mut i = 0;
            loop {
                let mut c = 2 * i + 1;
                if c >= n {
                    break;
                }
                if c + 1 < n && self.k[c + 1] < self.k[c] {
                    c += 1;
                }
                if self.k[c] >= k {
                    break;
                }
                self.k[i] = self.k[c];
                self.v[i] = self.v[c];
                i = c;
            }
            self.k[i] = k;
            self.v[i] = v;
        }
        Some(top)
    }
}

/// The cheapest path of cells in face `f` from any of `from` to any of
/// `to`, through cells `allowed` permits (any cell of the face if `None`).
/// A step costs more the nearer it runs to a line, so paths keep to the
/// middle of the free space.
pub(super) fn cheapest_path(
    fd: &Field,
    f: i32,
    from: &[usize],
    to: &[usize],
    allowed: Option<&dyn Fn(usize) -> bool>,
) -> Option<Vec<usize>> {
    let mut goal = vec![false; CELLS];
    // A* towards the goal's bounding box (a step costs at least 1 a cell).
    let (mut gi0, mut gi1, mut gj0, mut gj1) = (GW, 0, GH, 0);
    for &c in to {
        goal[c] = true;
        let (i, j) = (c % GW, c / GW);
        gi0 = gi0.min(i);
        gi1 = gi1.max(i);
        gj0 = gj0.min(j);
        gj1 = gj1.max(j);
    }
    let est = |c: usize| {
        let (i, j) = (c % GW, c / GW);
        let di = if i < gi0 {
            gi0 - i
        } else {
            i.saturating_sub(gi1)
        };
        let dj = if j < gj0 {
            gj0 - j
        } else {
            j.saturating_sub(gj1)
        };
        hypot(di as f64, dj as f64)
    };
    let mut cost = vec![f64::INFINITY; CELLS];
    let mut prev = vec![usize::MAX; CELLS];
    let mut done = vec![false; CELLS];
    let mut heap = Heap::default();
    for &c in from {
        if fd.face[c] != f {
            continue;
        }
        cost[c] = 0.0;
        heap.push(est(c), c);
    }
    let (face, dist) = (&fd.face, &fd.dist);
    while let Some(c) = heap.pop() {
        if done[c] {
            continue;
        }
        done[c] = true;
        if goal[c] {
            let mut path = vec![c];
            let mut p = c;
            while prev[p] != usize::MAX {
                p = prev[p];
                path.push(p);
            }
            path.reverse();
            return Some(path);
        }
        let (i, j) = ((c % GW) as isize, (c / GW) as isize);
        for dj in -1isize..=1 {
            let jj = j + dj;
            if jj < 0 || jj >= GH as isize {
                continue;
            }
            for di in -1isize..=1 {
                let ii = i + di;
                if (di == 0 && dj == 0) || ii < 0 || ii >= GW as isize {
                    continue;
                }
                let d = jj as usize * GW + ii as usize;
                if done[d] || face[d] != f || allowed.is_some_and(|ok| !goal[d] && !ok(d)) {
                    continue;
                }
                // Diagonal steps only between free cells (no squeezing past a corner).
                if di != 0
                    && dj != 0
                    && (face[j as usize * GW + ii as usize] != f
                        || face[jj as usize * GW + i as usize] != f)
                {
                    continue;
                }
                let near = (R + 30.0 - f64::from(dist[d])).max(0.0) / 6.0;
                let step = if di != 0 && dj != 0 { 1.414 } else { 1.0 };
                let nk = cost[c] + step * (1.0 + near * near);
                if nk < cost[d] {
                    cost[d] = nk;
                    prev[d] = c;
                    heap.push(nk + est(d), d);
                }
            }
        }
    }
    None
}
