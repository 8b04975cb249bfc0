//! A curve found for a move given without one (a bot's, the API's, a
//! WGOSA record's), drawn into the picture so that it reads back as the
//! game's position after the move.
//!
//! How a move is drawn:
//! 1. The paper is a grid of cells. Cells near a line or spot are blocked
//!    and remember which connected piece of the drawing is nearest; the
//!    free cells fall into connected regions, the faces. Around each spot
//!    the gaps between its lines (its corners) each open on a face: that is
//!    the card notation read off the grid, one card per corner.
//! 2. The move names the region (both ends have a corner on it; `@i`
//!    narrows it to the region of spot `i`). A joining move (ends on
//!    different pieces) is a cheapest path through the face, where cells
//!    far from other lines are cheaper, so lines keep to the middle of the
//!    free space.
//! 3. A dividing move must also put the right boundaries on each side
//!    (`[L]`, else an empty new region). The line is the outline of a blob
//!    of cells grown in the face on one side: the band along one arc of the
//!    ends' own boundary (or a patch at the corner, for a loop), the whole
//!    of every boundary that must go with it (and all it encloses), and
//!    paths that join them. Its outline, pinched to the two ends, separates
//!    exactly that side from the rest.
//! 4. The curve is simplified and rounded only where the result stays clear
//!    of every other line, then checked for crossings; the new spot goes
//!    where the curve has most room around its middle. The result is
//!    checked against the move's meaning (and, where the position after the
//!    move is known, against that position, cyclic orders included); on
//!    failure the next way of drawing it is tried.
//!
//! Where the position after the move is known it alone decides: a drawing
//! is kept only if it reads back exactly as that position (read off the
//! lines, not the grid: [`read_back`]). When no way of fitting the move
//! does, the whole picture is drawn again from the position's structure
//! ([`layout_position`]), making room by moving everything. Only a move
//! that neither way can draw is drawn as the best planar line found and
//! flagged approximate (until a later move makes the whole picture exact
//! again).
//!
//! Every budget is counted, never timed, and nothing is random: the same
//! moves give the same drawing on every machine and every replay.

mod dividing;
mod grid;

use std::collections::{BTreeMap, VecDeque};
use std::f64::consts::PI;
use std::sync::Arc;

use super::geometry::{crossings, new_crossings, seg_dist};
use super::structure::{layout_position, oriented_key, read_back, LayoutOptions};
use super::{Line, Pt, H, W};
use crate::position::{Position, Spot};
use crate::wgosa::WgosaMove;
use dividing::Divide;
use grid::{cell_at, cheapest_path, cx, cy, hypot, round_js, same, tenths, Field, Sector};
use grid::{CELLS, CS, GAP, R};

/// How many ways (outer region, weights, points per line) a redraw tries.
const REDRAW_TRIES: usize = 12;
/// Where the position after a move is known, how many more ways of fitting
/// the move into the picture are tried, once one planar way is found,
/// before the picture is drawn again.
const FIT_BUDGET: usize = 12;
/// Where it is not known, how many more ways are tried once a planar one
/// is found.
const MOVE_BUDGET: usize = 40;

/// A game's picture: where every spot is and the curve of every line, built
/// move by move.
///
/// No two lines ever cross. Wherever a move is not flagged approximate the
/// picture reads back (by [`read_back`]) as the position after it.
#[derive(Clone, Debug)]
pub struct Drawing {
    /// Starting spots.
    pub n: u32,
    /// Which starting arrangement (0: a loose grid; 1: a circle; 2: the
    /// grid, shifted): another one is tried when a game cannot be drawn
    /// exactly on the first.
    pub variant: u32,
    /// Where each spot is.
    pub spots: BTreeMap<Spot, Pt>,
    /// The lines, in the order drawn (two per move, meeting at its new spot).
    pub lines: Vec<Line>,
    /// The moves drawn so far, as given.
    pub moves: Vec<String>,
    /// Moves (from 0) drawn only approximately.
    pub approximate: Vec<usize>,
    /// Lines that could not be drawn without crossing (shown apart, kept out
    /// of `lines`).
    pub unplaced: Vec<Line>,
    /// Why each approximate move is so.
    pub why: Vec<String>,
    /// Moves after which the whole picture was drawn again from the position.
    pub redrawn: Vec<usize>,
    /// The grid as it reads the picture now (rebuilt when the picture changes).
    cache: Option<Arc<Field>>,
}

/// A move as the router reads it: `f(g@at)h[list]`.
#[derive(Clone, Debug)]
struct Mv {
    f: Spot,
    g: Spot,
    h: Spot,
    at: Option<Spot>,
    list: Option<Vec<Spot>>,
}

/// Reads one move (`1(4)2`, `1!(10)1![3,4]`, `6(16@2)14`); `None` for text
/// that is not a move the drawing understands (an `=POSITION` move).
fn parse_move(text: &str) -> Option<Mv> {
    let m: WgosaMove = text.parse().ok()?;
    Some(Mv {
        f: m.from,
        g: m.new,
        h: m.to,
        at: m.at,
        list: m.listed,
    })
}

/// A position in the card notation as a comparable key: per region the
/// multiset of its boundaries, a boundary the multiset of its cards (cyclic
/// order is not compared here: see [`oriented_key`]).
pub fn position_key(text: &str) -> String {
    let mut rows: Vec<String> = text
        .split('/')
        .map(|row| {
            let mut stacks: Vec<String> = row
                .split(';')
                .map(|st| {
                    let mut cards: Vec<u64> = st
                        .split(',')
                        .map(|c| c.trim().parse().unwrap_or(0))
                        .collect();
                    cards.sort_unstable();
                    let cards: Vec<String> = cards.iter().map(u64::to_string).collect();
                    cards.join(",")
                })
                .collect();
            stacks.sort();
            stacks.join(";")
        })
        .collect();
    rows.sort();
    rows.join("/")
}

/// Whether a drawing is kept: it must at least be planar.
#[derive(Clone, Copy)]
enum Check {
    /// Any planar drawing means the move (a joining move).
    Always,
    /// The sides of a dividing move, as [`Divide`] number `k` says.
    Meaning(usize),
}

/// One way of drawing a move.
struct Candidate {
    pts: Vec<Pt>,
    check: Check,
}

/// A piece of work that yields ways of drawing a move.
enum Step {
    /// Every way in face `F` (expanded when reached).
    Face(i32),
    /// A cheapest path from corner `a` of f to corner `b` of h (indices into
    /// their corners).
    Join { face: i32, a: usize, b: usize },
    /// An outline of a blob for a dividing move.
    Blob {
        div: usize,
        plan: usize,
        arc: Vec<usize>,
        a: usize,
        b: usize,
        grow: usize,
        roomiest: bool,
    },
    /// The plain cheapest path for a dividing move.
    Plain { div: usize, a: usize, b: usize },
}

/// The ways of drawing a move, best first, worked out one step at a time
/// (each step only when the ones before it did not do).
struct Ways {
    queue: VecDeque<Step>,
    divides: Vec<Divide>,
    dividing: bool,
}

impl Ways {
    /// Whether a placed drawing (its grid `fd`) means what `check` wants.
    fn holds(&self, check: Check, fd: &Field) -> bool {
        match check {
            Check::Always => true,
            Check::Meaning(k) => self.divides[k].meaning.holds(fd),
        }
    }
}

impl Drawing {
    /// A drawing of `n` starting spots in arrangement `variant` (see
    /// [`Drawing::variant`]), with no line yet.
    pub fn new(n: u32, variant: u32) -> Drawing {
        let mut spots = BTreeMap::new();
        if n > 0 {
            let nf = f64::from(n);
            let cols = (nf * 1.5).sqrt().ceil();
            let rows = (nf / cols).ceil();
            // Starting spots on a loose grid (a circle leaves the middle
            // empty and crowds the edges as lines go round it).
            for k in 0..n {
                let kf = f64::from(k);
                let r = (kf / cols).floor();
                let c = kf % cols;
                let in_row = if r == rows - 1.0 { nf - r * cols } else { cols };
                let mut x = (W * (c + 1.0)) / (in_row + 1.0);
                let mut y = (H * (r + 1.0)) / (rows + 1.0);
                if variant == 1 && n > 1 {
                    x = W / 2.0 + ((2.0 * PI * kf) / nf + 0.3).cos() * W * 0.3;
                    y = H / 2.0 + ((2.0 * PI * kf) / nf + 0.3).sin() * H * 0.3;
                } else if variant == 2 {
                    // A fixed wobble, different for each spot.
                    x += (kf * 2.3 + 1.0).sin() * 45.0;
                    y += (kf * 1.7 + 2.0).cos() * 45.0 + if c % 2.0 != 0.0 { 30.0 } else { -30.0 };
                }
                spots.insert(k + 1, [round_js(x), round_js(y)]);
            }
        }
        Drawing {
            n,
            variant,
            spots,
            lines: Vec::new(),
            moves: Vec::new(),
            approximate: Vec::new(),
            unplaced: Vec::new(),
            why: Vec::new(),
            redrawn: Vec::new(),
            cache: None,
        }
    }

    /// Spots joined by lines, as pieces named by their smallest spot.
    fn components(&self) -> BTreeMap<Spot, Spot> {
        let mut parent: BTreeMap<Spot, Spot> = self.spots.keys().map(|&s| (s, s)).collect();
        fn find(parent: &mut BTreeMap<Spot, Spot>, x: Spot) -> Spot {
            let mut r = x;
            while let Some(&p) = parent.get(&r) {
                if p == r {
                    break;
                }
                r = p;
            }
            let mut y = x;
            while y != r {
                let next = parent.get(&y).copied().unwrap_or(r);
                parent.insert(y, r);
                y = next;
            }
            r
        }
        for c in &self.lines {
            let a = find(&mut parent, c.a);
            let b = find(&mut parent, c.b);
            if a != b {
                parent.insert(a.max(b), a.min(b));
            }
        }
        let spots: Vec<Spot> = self.spots.keys().copied().collect();
        spots
            .into_iter()
            .map(|s| (s, find(&mut parent, s)))
            .collect()
    }

    /// The grid as it reads the picture now.
    fn field(&mut self) -> Arc<Field> {
        if let Some(f) = &self.cache {
            return f.clone();
        }
        let f = Arc::new(grid::field(&self.spots, &self.lines, self.components()));
        self.cache = Some(f.clone());
        f
    }

    /// The drawing read back exactly (faces traced along the lines), as a
    /// key like [`position_key`]'s.
    pub fn key(&self) -> String {
        position_key(&self.text())
    }

    /// The drawing read back exactly, in the card notation.
    pub fn text(&self) -> String {
        let rows = read_back(&self.spots, &self.lines);
        let rows: Vec<String> = rows
            .iter()
            .map(|r| {
                let stacks: Vec<String> = r
                    .iter()
                    .map(|st| st.iter().map(Spot::to_string).collect::<Vec<_>>().join(","))
                    .collect();
                stacks.join(";")
            })
            .collect();
        rows.join("/")
    }

    /// The drawing read back with each boundary's cyclic order (the `!`
    /// flags), as [`oriented_key`] writes it.
    pub fn oriented_key(&self) -> String {
        oriented_key(&read_back(&self.spots, &self.lines))
    }

    /// A bare position drawn from its structure, with no moves: `None` if
    /// it cannot be drawn.
    pub fn from_position(position: &Position) -> Option<Drawing> {
        let rows = position.rows();
        let n = rows.iter().flatten().flatten().copied().max()?;
        let mut d = Drawing::new(0, 0);
        d.n = n;
        d.redraw(rows).then_some(d)
    }

    /// Replaces the whole picture by one drawn from the position's
    /// structure ([`layout_position`]): used when a move does not fit the
    /// picture. True if it is planar and reads back as the position,
    /// cyclic orders included.
    fn redraw(&mut self, rows: &[Vec<Vec<Spot>>]) -> bool {
        let want = oriented_key(rows);
        // The outer region: the roomiest row first, then each other row; for
        // each, two weightings and two numbers of points per line (a drawing
        // whose small parts come out too small to show fails the checks).
        let mut tries = Vec::new();
        for outer in std::iter::once(None).chain((0..rows.len()).map(Some)) {
            for weights in [[1.0, 1.0, 1.0, 20.0, 1.0], [0.3, 0.3, 1.0, 5.0, 1.0]] {
                for sub in [3, 2] {
                    tries.push(LayoutOptions {
                        sub: Some(sub),
                        outer,
                        rounds: None,
                        weights: Some(weights.to_vec()),
                    });
                }
            }
            if tries.len() >= REDRAW_TRIES {
                break;
            }
        }
        for opts in tries.iter().take(REDRAW_TRIES) {
            let Some((spots, mut lines)) = layout_position(rows, W, H, opts) else {
                continue;
            };
            for c in &mut lines {
                let top = c.a.max(c.b);
                // A line's move follows from its new spot; lines of the
                // starting position (none in a game) count as move 0.
                c.by_move = if top > self.n {
                    (top - self.n - 1) as usize
                } else {
                    0
                };
            }
            if !crossings(&spots, &lines).is_empty()
                || oriented_key(&read_back(&spots, &lines)) != want
            {
                continue;
            }
            self.spots = spots;
            self.lines = lines;
            self.unplaced.clear();
            self.approximate.clear();
            self.why.clear();
            self.cache = None;
            if !self.moves.is_empty() {
                self.redrawn.push(self.moves.len() - 1);
            }
            return true;
        }
        false
    }

    /// How many faces have a corner of a spot; -1 if some corner opens on
    /// no face.
    fn read_faces(&mut self) -> i64 {
        let fd = self.field();
        let mut faces = Vec::new();
        for secs in fd.sectors.values() {
            for sec in secs {
                if sec.face < 0 {
                    return -1;
                }
                if !faces.contains(&sec.face) {
                    faces.push(sec.face);
                }
            }
        }
        faces.len() as i64
    }

    /// Draws one move (WGOSA text). `expected`, the position after it where
    /// known, decides among drawings (and the picture is drawn again from it
    /// if the move does not fit). Returns false if the move could only be
    /// drawn approximately.
    pub fn apply(&mut self, text: &str, expected: Option<&Position>) -> bool {
        let mv = parse_move(text);
        let index = self.moves.len();
        self.moves.push(text.to_string());
        let mv = match mv {
            Some(m)
                if self.spots.contains_key(&m.f)
                    && self.spots.contains_key(&m.h)
                    && !self.spots.contains_key(&m.g) =>
            {
                m
            }
            _ => {
                if expected.is_some_and(|p| self.redraw(p.rows())) {
                    return true;
                }
                self.approximate.push(index);
                return false;
            }
        };
        let want = expected.map(|p| oriented_key(p.rows()));
        // The best drawing found that is not right, and how good it is.
        let mut fallback: Option<(Vec<Pt>, usize)> = None;
        let faces_before = self.read_faces();
        let comps = self.components();
        let dividing = faces_before >= 0 && comps.get(&mv.f) == comps.get(&mv.h);
        let budget = if want.is_some() {
            FIT_BUDGET
        } else {
            MOVE_BUDGET
        };
        let mut tried = 0;
        let base = self.field();
        let mut ways = self.ways(&base, &mv);
        'ways: while let Some(cands) = self.next_ways(&mut ways, &base, &mv) {
            for cand in cands {
                // Bounded work (counted, not timed, so every machine draws
                // the same): past the budget, the best drawing found so far.
                if fallback.is_some() {
                    tried += 1;
                    if tried > budget {
                        break 'ways;
                    }
                }
                let kept = self.lines.len();
                self.place(&mv, &cand.pts);
                let planar = new_crossings(&self.spots, &self.lines, 2) == 0;
                // The drawing must read back as it is: every corner in a
                // face, and one face more after a dividing move (lines drawn
                // too close together would leave a region without room and
                // merge it with another).
                let readable = planar && self.read_faces() == faces_before + i64::from(dividing);
                let meaning_ok = readable && {
                    let fd = self.field();
                    ways.holds(cand.check, &fd)
                };
                // Where the position is known it decides alone (read back
                // exactly, cyclic orders included); else the move's meaning
                // on the grid.
                let right = match &want {
                    Some(w) => planar && self.oriented_key() == *w,
                    None => planar && meaning_ok,
                };
                if right {
                    // The whole picture reads back as the position: earlier
                    // approximate moves (drawn without their positions) are
                    // made good.
                    if want.is_some() && self.unplaced.is_empty() {
                        self.approximate.clear();
                        self.why.clear();
                    }
                    return true;
                }
                let rank = match (planar, readable, meaning_ok) {
                    (false, _, _) => 0,
                    (true, false, _) => 1,
                    (true, true, false) => 2,
                    (true, true, true) => 3,
                };
                if rank > 0 && fallback.as_ref().is_none_or(|f| rank > f.1) {
                    fallback = Some((cand.pts, rank));
                }
                self.lines.truncate(kept);
                self.spots.remove(&mv.g);
                self.cache = Some(base.clone());
            }
        }
        // The picture has no room for it: drawn again from the position.
        if expected.is_some_and(|p| self.redraw(p.rows())) {
            return true;
        }
        self.approximate.push(index);
        let reasons = [
            "no planar line",
            "lines too close to read",
            "wrong side",
            "regions differ from the position",
        ];
        self.why.push(format!(
            "{text}: {}",
            reasons[fallback.as_ref().map_or(0, |f| f.1)]
        ));
        match fallback {
            Some((pts, _)) => self.place(&mv, &pts),
            None => {
                // Unsmoothed paths along the cells, which stay off every line.
                for pts in self.raw_ways(&base, &mv) {
                    let kept = self.lines.len();
                    self.place(&mv, &pts);
                    if new_crossings(&self.spots, &self.lines, 2) == 0 {
                        return false;
                    }
                    self.lines.truncate(kept);
                    self.spots.remove(&mv.g);
                    self.cache = Some(base.clone());
                }
                self.place_apart(&base, &mv);
            }
        }
        false
    }

    /// No planar line was found (the paper is too crowded there): the move
    /// is shown as a straight line apart from the drawing, kept out of the
    /// lines that must not cross, its new spot on the free cell nearest its
    /// middle.
    fn place_apart(&mut self, fd: &Field, mv: &Mv) {
        let (f, h) = (self.spot(mv.f), self.spot(mv.h));
        let pts = if mv.f == mv.h {
            vec![f, [f[0] + 30.0, f[1] - 30.0], [f[0] + 30.0, f[1] + 30.0], f]
        } else {
            vec![f, h]
        };
        self.place(mv, &pts);
        let at = self.lines.len().saturating_sub(2);
        self.unplaced.extend(self.lines.drain(at..));
        let m = self.spot(mv.g);
        let mut best = None;
        let mut bd = f64::INFINITY;
        for c in 0..CELLS {
            if f64::from(fd.dist[c]) < 2.0 * R + CS {
                continue;
            }
            let d = hypot(cx(c) - m[0], cy(c) - m[1]);
            if d < bd {
                bd = d;
                best = Some(c);
            }
        }
        if let Some(c) = best {
            self.spots.insert(mv.g, [cx(c), cy(c)]);
        }
        self.cache = None;
    }

    /// Where spot `s` is (the origin for a spot not drawn, which callers
    /// have ruled out).
    fn spot(&self, s: Spot) -> Pt {
        self.spots.get(&s).copied().unwrap_or([0.0, 0.0])
    }

    /// Lines along the cells of a face, not smoothed: the last resort.
    fn raw_ways(&self, fd: &Field, mv: &Mv) -> Vec<Vec<Pt>> {
        let (f, h) = (self.spot(mv.f), self.spot(mv.h));
        let near = |sec: &Sector, p: Pt, t: f64| -> Vec<usize> {
            let a = sec.from + (sec.to - sec.from) * t;
            let q = [
                p[0] + a.cos() * (R + 2.0 * CS),
                p[1] + a.sin() * (R + 2.0 * CS),
            ];
            nearest_cells(&sec.cells, q, 2)
        };
        let loop_ = mv.f == mv.h;
        let mut out = Vec::new();
        for a in fd.sectors_of(mv.f) {
            for b in fd.sectors_of(mv.h) {
                if a.face != b.face || a.face < 0 {
                    continue;
                }
                let from = near(a, f, if loop_ { 0.35 } else { 0.5 });
                let to = near(b, h, if loop_ { 0.65 } else { 0.5 });
                if let Some(cells) = cheapest_path(fd, a.face, &from, &to, None) {
                    let mut pts = vec![f];
                    pts.extend(cells.iter().map(|&c| [cx(c), cy(c)]));
                    pts.push(h);
                    out.push(pts);
                }
            }
        }
        out
    }

    /// Adds the line `pts` of move `mv`, as two lines meeting at its new spot.
    fn place(&mut self, mv: &Mv, pts: &[Pt]) {
        let pts: Vec<Pt> = if pts.len() >= 2 {
            pts.to_vec()
        } else {
            vec![self.spot(mv.f), self.spot(mv.h)]
        };
        // The new spot goes where the line has the most room around it
        // (within its middle part), so its corners can be reached later.
        let fd = self.field();
        let mut cum = vec![0.0];
        for k in 0..pts.len() - 1 {
            cum.push(cum[k] + hypot(pts[k + 1][0] - pts[k][0], pts[k + 1][1] - pts[k][1]));
        }
        let total = cum[cum.len() - 1];
        let mut at = 1;
        let mut mid = pts[0];
        let mut best = -1.0;
        let mut t = 0.3;
        while t <= 0.701 {
            let want = total * t;
            let mut k = 0;
            while k + 2 < cum.len() && cum[k + 1] < want {
                k += 1;
            }
            let l = cum[k + 1] - cum[k];
            let u = if l != 0.0 { (want - cum[k]) / l } else { 0.0 };
            let p = [
                pts[k][0] + u * (pts[k + 1][0] - pts[k][0]),
                pts[k][1] + u * (pts[k + 1][1] - pts[k][1]),
            ];
            // Room, with a slight pull to the middle of the line.
            let room =
                cell_at(p[0], p[1]).map_or(0.0, |c| f64::from(fd.dist[c])) - 20.0 * (t - 0.5).abs();
            if room > best {
                best = room;
                mid = tenths(p);
                at = k + 1;
            }
            t += 0.05;
        }
        self.spots.insert(mv.g, mid);
        let by_move = self.moves.len().saturating_sub(1);
        let mut first = pts[..at].to_vec();
        first.push(mid);
        let mut second = vec![mid];
        second.extend_from_slice(&pts[at..]);
        self.lines.push(Line {
            a: mv.f,
            b: mv.g,
            pts: first,
            by_move,
        });
        self.lines.push(Line {
            a: mv.g,
            b: mv.h,
            pts: second,
            by_move,
        });
        self.cache = None;
    }

    /// The ways of drawing `mv`, in the faces where both ends have a corner.
    fn ways(&self, fd: &Field, mv: &Mv) -> Ways {
        let (fs, hs) = (fd.sectors_of(mv.f), fd.sectors_of(mv.h));
        let mut faces: Vec<i32> = Vec::new();
        for s in fs {
            if s.face >= 0 && hs.iter().any(|x| x.face == s.face) && !faces.contains(&s.face) {
                faces.push(s.face);
            }
        }
        if let Some(at) = mv.at {
            let at = fd.sectors_of(at);
            let narrowed: Vec<i32> = faces
                .iter()
                .copied()
                .filter(|&f| at.iter().any(|s| s.face == f))
                .collect();
            if !narrowed.is_empty() {
                faces = narrowed;
            }
        }
        // Without `@`, the face holding no other live spot comes first.
        let others = |face: i32| {
            fd.sectors
                .iter()
                .filter(|(&s, secs)| {
                    s != mv.f && s != mv.h && fd.live(s) && secs.iter().any(|x| x.face == face)
                })
                .count()
        };
        // Then the roomiest: a line drawn there keeps the drawing readable.
        let size = |face: i32| fd.face.iter().filter(|&&x| x == face).count();
        let keyed: Vec<(i32, usize, usize)> =
            faces.iter().map(|&f| (f, others(f), size(f))).collect();
        let mut keyed = keyed;
        keyed.sort_by(|a, b| a.1.cmp(&b.1).then(b.2.cmp(&a.2)));
        Ways {
            queue: keyed.into_iter().map(|k| Step::Face(k.0)).collect(),
            divides: Vec::new(),
            dividing: fd.comp.get(&mv.f) == fd.comp.get(&mv.h),
        }
    }

    /// The ways the next step yields (possibly none); `None` when no step
    /// is left.
    fn next_ways(&self, ways: &mut Ways, fd: &Field, mv: &Mv) -> Option<Vec<Candidate>> {
        let step = ways.queue.pop_front()?;
        let (fs, hs) = (fd.sectors_of(mv.f), fd.sectors_of(mv.h));
        let out = match step {
            Step::Face(face) => {
                let sf: Vec<usize> = (0..fs.len()).filter(|&k| fs[k].face == face).collect();
                let sh: Vec<usize> = (0..hs.len()).filter(|&k| hs[k].face == face).collect();
                let steps = if ways.dividing {
                    let div = self.divide(fd, mv, face);
                    let steps = div.steps(ways.divides.len(), mv, &sf, &sh);
                    ways.divides.push(div);
                    steps
                } else {
                    let mut steps = Vec::new();
                    for &a in &sf {
                        for &b in &sh {
                            steps.push(Step::Join { face, a, b });
                        }
                    }
                    steps
                };
                for s in steps.into_iter().rev() {
                    ways.queue.push_front(s);
                }
                Vec::new()
            }
            Step::Join { face, a, b } => self
                .either_path(fd, mv, face, &fs[a], &hs[b])
                .map(|cells| Candidate {
                    pts: self.finish(fd, mv, &cells),
                    check: Check::Always,
                })
                .into_iter()
                .collect(),
            Step::Plain { div, a, b } => {
                let face = ways.divides[div].face;
                self.either_path(fd, mv, face, &fs[a], &hs[b])
                    .map(|cells| Candidate {
                        pts: self.finish(fd, mv, &cells),
                        check: Check::Meaning(div),
                    })
                    .into_iter()
                    .collect()
            }
            Step::Blob {
                div,
                plan,
                arc,
                a,
                b,
                grow,
                roomiest,
            } => {
                let d = &ways.divides[div];
                let outline = self.blob(fd, mv, d, plan, &arc, &fs[a], &hs[b], grow, roomiest);
                let face = d.face;
                outline
                    .map(|o| self.pinch(fd, mv, &o, d.comp))
                    .unwrap_or_default()
                    .into_iter()
                    .map(|pts| Candidate {
                        pts: self.smooth(fd, mv, &pts, face),
                        check: Check::Meaning(div),
                    })
                    .collect()
            }
        };
        Some(out)
    }

    /// The cheapest path from corner `a` of f to corner `b` of h in `face`,
    /// through roomy cells if it can, else through any.
    fn either_path(
        &self,
        fd: &Field,
        mv: &Mv,
        face: i32,
        a: &Sector,
        b: &Sector,
    ) -> Option<Vec<usize>> {
        let roomy = self.roomy(fd, mv);
        cheapest_path(fd, face, &a.cells, &b.cells, Some(&roomy))
            .or_else(|| cheapest_path(fd, face, &a.cells, &b.cells, None))
    }

    /// Cells with room for a line: two halos away from everything, except
    /// near the move's own ends, where lines meet.
    fn roomy<'a>(&self, fd: &'a Field, mv: &Mv) -> impl Fn(usize) -> bool + 'a {
        let (f, h) = (self.spot(mv.f), self.spot(mv.h));
        move |c| {
            f64::from(fd.dist[c]) >= GAP
                || hypot(cx(c) - f[0], cy(c) - f[1]) < GAP + 3.0 * CS
                || hypot(cx(c) - h[0], cy(c) - h[1]) < GAP + 3.0 * CS
        }
    }

    /// A path of cells turned into a line from f to h: simplified where the
    /// shortcut keeps clear of everything else, then rounded.
    fn finish(&self, fd: &Field, mv: &Mv, cells: &[usize]) -> Vec<Pt> {
        let mut pts = vec![self.spot(mv.f)];
        pts.extend(cells.iter().map(|&c| [cx(c), cy(c)]));
        pts.push(self.spot(mv.h));
        self.smooth(fd, mv, &pts, -1)
    }

    /// A line from f to h simplified and rounded; a loop a quarter at a
    /// time, so no shortcut flattens it.
    fn smooth(&self, fd: &Field, mv: &Mv, pts: &[Pt], _face: i32) -> Vec<Pt> {
        if pts.len() > 3 && same(pts[0], pts[pts.len() - 1]) {
            let mut out = vec![pts[0]];
            for q in 0..4 {
                let from = (q * (pts.len() - 1)) / 4;
                let to = ((q + 1) * (pts.len() - 1)) / 4;
                if to > from {
                    out.extend(
                        self.smooth_open(fd, mv, &pts[from..=to])
                            .into_iter()
                            .skip(1),
                    );
                }
            }
            return out;
        }
        self.smooth_open(fd, mv, pts)
    }

    /// Distance from `p` to the nearest line or spot (other than the move's
    /// ends), exactly.
    fn exact(&self, mv: &Mv, p: Pt) -> f64 {
        let mut best = f64::INFINITY;
        for cv in &self.lines {
            for s in cv.pts.windows(2) {
                let (a, b) = (s[0], s[1]);
                if a[0].min(b[0]) - best > p[0] || a[0].max(b[0]) + best < p[0] {
                    continue;
                }
                best = best.min(seg_dist(p, a, b));
            }
        }
        for (&s, &q) in &self.spots {
            if s != mv.f && s != mv.h {
                best = best.min(hypot(p[0] - q[0], p[1] - q[1]));
            }
        }
        best
    }

    /// Whether segment ab keeps clear of everything: every point along it
    /// in a cell at least 2R + 2CS from other lines, or, near the line's own
    /// ends, exactly at least in proportion to the distance from the end.
    fn clear(&self, fd: &Field, mv: &Mv, a: Pt, b: Pt) -> bool {
        let (f, h) = (self.spot(mv.f), self.spot(mv.h));
        let l = hypot(b[0] - a[0], b[1] - a[1]);
        let steps = (l / (CS / 2.0)).ceil().max(1.0) as usize;
        for k in 0..=steps {
            let kf = k as f64;
            let sf = steps as f64;
            let p = [
                a[0] + ((b[0] - a[0]) * kf) / sf,
                a[1] + ((b[1] - a[1]) * kf) / sf,
            ];
            let Some(c) = cell_at(p[0], p[1]) else {
                return false;
            };
            // Near the line's own ends it may come closer to the lines
            // there, in proportion (it must reach its spot, at an angle to
            // the others).
            let near = hypot(p[0] - f[0], p[1] - f[1]).min(hypot(p[0] - h[0], p[1] - h[1]));
            if near < 2.0 * R + 4.0 * CS {
                // Close to an end the cells are too coarse: measure exactly.
                if near > 0.5 && self.exact(mv, p) < 0.4 * near {
                    return false;
                }
            } else if f64::from(fd.dist[c]) < 2.0 * R + 2.0 * CS {
                return false;
            }
        }
        true
    }

    /// An open line simplified (greedy shortcuts that stay clear) and
    /// rounded (corner cutting where it stays clear).
    fn smooth_open(&self, fd: &Field, mv: &Mv, pts: &[Pt]) -> Vec<Pt> {
        // Greedy simplification: from each kept point, jump as far as stays clear.
        let mut out = vec![pts[0]];
        let mut i = 0;
        while i + 1 < pts.len() {
            let mut j = (pts.len() - 1).min(i + 1);
            let mut k = (pts.len() - 1).min(i + 120);
            while k > i + 1 {
                // The shortcut must be clear and must not cut a spot off to
                // the other side (lines cannot be cut off: they would cross it).
                if self.clear(fd, mv, pts[i], pts[k]) && !self.spot_inside(&pts[i..=k], mv) {
                    j = k;
                    break;
                }
                k -= 1;
            }
            out.push(pts[j]);
            i = j;
        }
        // Chaikin's corner cutting, twice: each cut stays inside the
        // corner's triangle, which the clear segments bound closely.
        let mut line = out;
        for _ in 0..2 {
            if line.len() < 3 {
                break;
            }
            let mut next = vec![line[0]];
            for k in 0..line.len() - 1 {
                let (a, b) = (line[k], line[k + 1]);
                let q = [0.75 * a[0] + 0.25 * b[0], 0.75 * a[1] + 0.25 * b[1]];
                let r = [0.25 * a[0] + 0.75 * b[0], 0.25 * a[1] + 0.75 * b[1]];
                if k > 0 {
                    next.push(q);
                }
                if k + 2 < line.len() {
                    next.push(r);
                }
            }
            next.push(line[line.len() - 1]);
            // Keep the cut only if it stays clear (else the corner stays sharp).
            let ok = (1..next.len().saturating_sub(2))
                .all(|k| self.clear(fd, mv, next[k], next[k + 1]))
                && (1..line.len() - 1)
                    .all(|k| !self.spot_inside(&[line[k - 1], line[k], line[k + 1]], mv));
            if !ok {
                break;
            }
            line = next;
        }
        line.into_iter().map(tenths).collect()
    }

    /// Whether a spot (other than the move's ends) lies inside the polygon.
    fn spot_inside(&self, poly: &[Pt], mv: &Mv) -> bool {
        for (&s, &p) in &self.spots {
            if s == mv.f || s == mv.h {
                continue;
            }
            let mut inside = false;
            let mut b = poly.len() - 1;
            for a in 0..poly.len() {
                let ([xa, ya], [xb, yb]) = (poly[a], poly[b]);
                if (ya > p[1]) != (yb > p[1]) && p[0] < ((xb - xa) * (p[1] - ya)) / (yb - ya) + xa {
                    inside = !inside;
                }
                b = a;
            }
            if inside {
                return true;
            }
        }
        false
    }
}

/// The `k` cells nearest point `q` (nearest first; ties in the given order).
fn nearest_cells(cells: &[usize], q: Pt, k: usize) -> Vec<usize> {
    let mut keyed: Vec<(f64, usize)> = cells
        .iter()
        .map(|&c| (hypot(cx(c) - q[0], cy(c) - q[1]), c))
        .collect();
    keyed.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    keyed.into_iter().take(k).map(|x| x.1).collect()
}

/// Non-empty proper subsets of the items (all of one item; the empty one
/// of none), smallest first.
fn subsets<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    let n = items.len();
    let mut out = Vec::new();
    let end = (1usize << n) - usize::from(n > 1);
    for m in 1..end {
        out.push(
            (0..n)
                .filter(|&k| m & (1 << k) != 0)
                .map(|k| items[k].clone())
                .collect::<Vec<_>>(),
        );
    }
    if n == 0 {
        out.push(Vec::new());
    }
    out.sort_by_key(Vec::len);
    out
}

/// Draws a whole game from its moves; `positions[k]`, where known, is the
/// position after move `k`. Of the first `variants` starting arrangements
/// (at least one), the one with the fewest approximate moves is kept.
pub fn draw_game(
    n: u32,
    moves: &[String],
    positions: &[Option<Position>],
    variants: u32,
) -> Drawing {
    let mut best: Option<Drawing> = None;
    for v in 0..variants.max(1) {
        let mut d = Drawing::new(n, v);
        for (k, m) in moves.iter().enumerate() {
            d.apply(m, positions.get(k).and_then(Option::as_ref));
            // Worse than the best so far already: stop.
            if best
                .as_ref()
                .is_some_and(|b| d.approximate.len() >= b.approximate.len())
            {
                break;
            }
        }
        if d.moves.len() == moves.len()
            && best
                .as_ref()
                .is_none_or(|b| d.approximate.len() < b.approximate.len())
        {
            best = Some(d);
        }
        if best.as_ref().is_some_and(|b| b.approximate.is_empty()) {
            break;
        }
    }
    best.unwrap_or_else(|| Drawing::new(n, 0))
}

/// A game's picture as the table keeps it: moves whose line a player drew
/// go in as drawn; the picture goes to viewers as it is.
impl Drawing {
    /// Adds move `text`, whose line a player drew: `lines` from its first
    /// end to the new spot `g` at `spot`, and on to its other end (checked
    /// by [`super::stroke::read`]: no crossing, read back as the position).
    pub fn add_drawn(&mut self, text: &str, g: Spot, spot: Pt, lines: [Line; 2]) {
        self.moves.push(text.to_string());
        self.spots.insert(g, spot);
        self.lines.extend(lines);
        self.cache = None;
    }

    /// The picture as a viewer is sent it.
    pub fn picture(&self) -> super::Picture {
        super::Picture {
            spots: self.spots.clone(),
            lines: self.lines.clone(),
            unplaced: self.unplaced.clone(),
            approximate: self.approximate.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_proper_and_smallest_first() {
        assert_eq!(subsets::<u8>(&[]), vec![Vec::<u8>::new()]);
        assert_eq!(subsets(&[7]), vec![vec![7]]);
        assert_eq!(
            subsets(&[1, 2, 3]),
            vec![
                vec![1],
                vec![2],
                vec![3],
                vec![1, 2],
                vec![1, 3],
                vec![2, 3]
            ]
        );
    }

    #[test]
    fn position_keys_ignore_order_within_and_between_boundaries() {
        assert_eq!(position_key("3,1,2;4/5"), position_key("5/4;2,3,1"));
        assert_ne!(position_key("1,2;3"), position_key("1;2,3"));
    }

    #[test]
    fn moves_read_as_the_notation_writes_them() {
        let m = parse_move("6!(16@2)!14![3-5,7]").expect("a move");
        assert_eq!((m.f, m.g, m.h, m.at), (6, 16, 14, Some(2)));
        assert_eq!(m.list, Some(vec![3, 4, 5, 7]));
        assert!(parse_move("=1,2").is_none());
        assert!(parse_move("1(2)").is_none());
    }

    #[test]
    fn distances_and_rounding_as_a_browser_computes_them() {
        assert_eq!(grid::hypot(3.0, 4.0), 5.0);
        assert_eq!(grid::hypot(-0.0, 0.0), 0.0);
        assert_eq!(round_js(2.5), 3.0);
        assert_eq!(round_js(-2.5), -2.0);
        assert_eq!(tenths([1.25, -1.25]), [1.3, -1.2]);
    }
}
