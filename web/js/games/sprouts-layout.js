// @ts-check
/**
 * A planar drawing of a Sprouts game, computed from its moves (WGOSA text)
 * one at a time: spots are points, lines are polylines, and nothing the
 * page draws ever crosses (each new line is checked against every other).
 *
 * How a move is drawn:
 * 1. The plane is a grid of cells. Cells near a line or spot are blocked and
 *    remember which connected piece of the drawing (component) is nearest;
 *    the free cells fall into connected regions (flood fill): the faces.
 *    Around each spot, the gaps between its lines (sectors) tell which face
 *    each corner of the spot lies in: that is the card notation read off the
 *    drawing (one card per corner).
 * 2. The move names the face (both ends touch it; `@i` narrows it to the
 *    face of spot `i`). A joining move (ends in different components) is a
 *    cheapest path through the face, where cells far from other lines are
 *    cheaper, so lines keep to the middle of the free space.
 * 3. A dividing move must also put the right boundaries on each side
 *    (`[L]`, else an empty new region). The line is the outline of a blob of
 *    cells grown in the face on one side: the band along one arc of the
 *    ends' own boundary (or a patch at the corner, for a loop), the whole
 *    of every boundary that must go with it (and all it encloses), and
 *    paths that join them. Its outline, pinched to the two ends, separates
 *    exactly that side from the rest.
 * 4. The outline is simplified and rounded only where the result stays
 *    clear of every other line, then checked for crossings; the new spot
 *    goes at its middle. The result is checked against the move's meaning
 *    (and, where the server's position after the move is known, against the
 *    position's regions and boundaries); on failure the next way of drawing
 *    it is tried.
 *
 * Where the position after the move is known (the view lists them), it
 * alone decides: a drawing is kept only if it reads back exactly as that
 * position, cyclic orders included (so the `!` flags hold; read off the
 * lines, not the grid: `readBack`). When no way of fitting the move does,
 * the whole picture is drawn again from the position's structure
 * (`redraw`, `layoutPosition` in sprouts-structure.js): making room by
 * moving everything. Only a move that neither way can draw is drawn as
 * the best planar line found and flagged `approximate` (until a later move
 * makes the whole picture exact again).
 *
 * No DOM here: the page draws what this computes, and tests run it in Node.
 */

import { layoutPosition, readBack, orientedKey, parsePosition } from './sprouts-structure.js';

/** How many ways (outer region, weights, points per line) a redraw tries. */
const REDRAW_TRIES = 12;
/**
 * Where the position after a move is known, how many ways of fitting the
 * move into the picture are tried before the picture is drawn again.
 */
const FIT_BUDGET = 12;

/** Width and height of the paper, in drawing units. */
export const W = 960;
export const H = 640;
/** Side of a grid cell. */
const CS = 5;
const GW = Math.ceil(W / CS);
const GH = Math.ceil(H / CS);
/** Cells closer than this to a line or spot are blocked. */
const R = 3;
/**
 * How many more ways of drawing a move are tried once a planar one is
 * found (the page draws in the browser's only thread).
 */
const MOVE_BUDGET = 40;
/** A spot's radius, for keeping lines off it. */
const SPOT = CS;
/** Distances are capped here (costs only care about nearby lines). */
const MAXD = R + 36;
/**
 * Lines keep this far apart (away from their shared spots), so the free
 * cells between any two of them stay connected and faces read true.
 */
const GAP = 2 * R + 3 * CS;

/** @typedef {[number, number]} Pt */
/** @typedef {{a: number, b: number, pts: Pt[], move?: number}} Curve */
/**
 * A parsed WGOSA move.
 * @typedef {{f: number, g: number, h: number, at: number | null, list: number[] | null}} Move
 */

/**
 * Reads one move (`1(4)2`, `1!(10)1![3,4]`, `6(16@2)14`); null if it is not
 * move text the drawing understands (`=POSITION` moves).
 * @param {string} text
 * @returns {Move | null}
 */
export function parseMove(text) {
  const m = /^\s*(\d+)!?\((\d+)(?:@(\d+))?\)!?(\d+)!?(?:\[([0-9,\s-]*)\])?\s*$/.exec(text);
  if (!m) return null;
  /** @type {number[] | null} */
  let list = null;
  if (m[5] !== undefined) {
    list = [];
    for (const part of m[5].split(',')) {
      const r = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
      if (!r) continue;
      const lo = Number(r[1]), hi = r[2] ? Number(r[2]) : lo;
      for (let k = lo; k <= hi && k - lo < 1000; k++) list.push(k);
    }
  }
  return { f: Number(m[1]), g: Number(m[2]), h: Number(m[4]), at: m[3] ? Number(m[3]) : null, list };
}

/**
 * A position in the card notation as a comparable key: per region the
 * multiset of its boundaries, a boundary the multiset of its cards (cyclic
 * order is not compared here: see `orientedKey` in sprouts-structure.js).
 * @param {string} text
 */
export function positionKey(text) {
  return text
    .split('/')
    .map((row) => row.split(';').map((st) => st.split(',').map((c) => Number(c.trim())).sort((a, b) => a - b).join(',')).sort().join(';'))
    .sort()
    .join('/');
}

/** @param {Pt} p @param {Pt} a @param {Pt} b */
function segDist(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  let t = l2 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2 : 0;
  t = Math.max(0, Math.min(1, t));
  const x = a[0] + t * dx - p[0], y = a[1] + t * dy - p[1];
  return Math.sqrt(x * x + y * y);
}

/** @param {Pt} a @param {Pt} b @param {Pt} c */
const orient = (a, b, c) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));

/** Whether segments ab and cd cross or touch. @param {Pt} a @param {Pt} b @param {Pt} c @param {Pt} d */
export function segmentsMeet(a, b, c, d) {
  const o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  /** @param {Pt} p @param {Pt} q @param {Pt} r */
  const on = (p, q, r) => Math.min(p[0], r[0]) <= q[0] && q[0] <= Math.max(p[0], r[0]) && Math.min(p[1], r[1]) <= q[1] && q[1] <= Math.max(p[1], r[1]);
  return (o1 === 0 && on(a, c, b)) || (o2 === 0 && on(a, d, b)) || (o3 === 0 && on(c, a, d)) || (o4 === 0 && on(c, b, d));
}

/** @param {Pt} a @param {Pt} b */
const same = (a, b) => Math.abs(a[0] - b[0]) < 1e-9 && Math.abs(a[1] - b[1]) < 1e-9;

/**
 * Whether two polylines cross or touch anywhere other than at an end point
 * they share (two lines meet only at their spots).
 * @param {Pt[]} p @param {Pt[]} q
 */
export function polylinesCross(p, q) {
  const ends = [p[0], p[p.length - 1]].filter((e) => same(e, q[0]) || same(e, q[q.length - 1]));
  for (let i = 0; i + 1 < p.length; i++) {
    for (let j = 0; j + 1 < q.length; j++) {
      const a = p[i], b = p[i + 1], c = q[j], d = q[j + 1];
      if (Math.max(a[0], b[0]) < Math.min(c[0], d[0]) || Math.max(c[0], d[0]) < Math.min(a[0], b[0])) continue;
      if (Math.max(a[1], b[1]) < Math.min(c[1], d[1]) || Math.max(c[1], d[1]) < Math.min(a[1], b[1])) continue;
      if (!segmentsMeet(a, b, c, d)) continue;
      // Segments that meet only at a shared spot are fine.
      const shared = ends.find((e) => (same(e, a) || same(e, b)) && (same(e, c) || same(e, d)));
      if (shared && !collinearOverlap(a, b, c, d)) continue;
      return true;
    }
  }
  return false;
}

/** @param {Pt} a @param {Pt} b @param {Pt} c @param {Pt} d */
function collinearOverlap(a, b, c, d) {
  if (orient(a, b, c) !== 0 || orient(a, b, d) !== 0) return false;
  const ax = Math.abs(b[0] - a[0]) > Math.abs(b[1] - a[1]) ? 0 : 1;
  const lo1 = Math.min(a[ax], b[ax]), hi1 = Math.max(a[ax], b[ax]), lo2 = Math.min(c[ax], d[ax]), hi2 = Math.max(c[ax], d[ax]);
  return Math.min(hi1, hi2) - Math.max(lo1, lo2) > 1e-9;
}

/**
 * Every pair of lines that cross, and lines that cross themselves or pass
 * through a spot that is not theirs: [] for a planar drawing.
 * @param {{spots: Map<number, Pt>, curves: Curve[]}} d
 * @returns {string[]}
 */
export function crossings(d) {
  const out = [];
  for (let i = 0; i < d.curves.length; i++) {
    const c = d.curves[i];
    for (let j = i + 1; j < d.curves.length; j++) {
      if (polylinesCross(c.pts, d.curves[j].pts)) out.push(`line ${c.a}-${c.b} crosses line ${d.curves[j].a}-${d.curves[j].b}`);
    }
    for (let k = 0; k + 1 < c.pts.length; k++) {
      for (let l = k + 2; l + 1 < c.pts.length; l++) {
        if (k === 0 && l + 2 === c.pts.length && same(c.pts[0], c.pts[c.pts.length - 1])) continue;
        if (segmentsMeet(c.pts[k], c.pts[k + 1], c.pts[l], c.pts[l + 1])) {
          out.push(`line ${c.a}-${c.b} crosses itself`);
          k = c.pts.length;
          break;
        }
      }
    }
    for (const [s, p] of d.spots) {
      if (s === c.a || s === c.b) continue;
      for (let k = 0; k + 1 < c.pts.length; k++) {
        if (segDist(p, c.pts[k], c.pts[k + 1]) < 1) {
          out.push(`line ${c.a}-${c.b} passes through spot ${s}`);
          break;
        }
      }
    }
  }
  return out;
}

/**
 * How many crossings the last `k` lines make with the others, with each
 * other, with themselves and with spots that are not theirs.
 * @param {{spots: Map<number, Pt>, curves: Curve[]}} d @param {number} k
 */
function newCrossings(d, k) {
  const fresh = d.curves.slice(-k);
  const old = d.curves.slice(0, -k);
  let n = 0;
  for (let i = 0; i < fresh.length; i++) {
    for (const o of old) if (polylinesCross(fresh[i].pts, o.pts)) n++;
    for (let j = i + 1; j < fresh.length; j++) if (polylinesCross(fresh[i].pts, fresh[j].pts)) n++;
  }
  const sub = { spots: d.spots, curves: fresh };
  // Old lines through the new spots.
  const newSpots = new Set(fresh.flatMap((c) => [c.a, c.b]));
  for (const o of old) {
    for (const s of newSpots) {
      if (s === o.a || s === o.b) continue;
      const p = /** @type {Pt} */ (d.spots.get(s));
      for (let k = 0; k + 1 < o.pts.length; k++) if (segDist(p, o.pts[k], o.pts[k + 1]) < 1) n++;
    }
  }
  return n + crossings(sub).length;
}

/** A binary heap of [cost, cell]. */
class Heap {
  constructor() {
    /** @type {number[]} */ this.k = [];
    /** @type {number[]} */ this.v = [];
  }
  get size() {
    return this.k.length;
  }
  /** @param {number} k @param {number} v */
  push(k, v) {
    const K = this.k, V = this.v;
    let i = K.length;
    K.push(k);
    V.push(v);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (K[p] <= k) break;
      K[i] = K[p];
      V[i] = V[p];
      i = p;
    }
    K[i] = k;
    V[i] = v;
  }
  /** @returns {[number, number]} */
  pop() {
    const K = this.k, V = this.v;
    const top = /** @type {[number, number]} */ ([K[0], V[0]]);
    const k = /** @type {number} */ (K.pop()), v = /** @type {number} */ (V.pop());
    if (K.length) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= K.length) break;
        if (c + 1 < K.length && K[c + 1] < K[c]) c++;
        if (K[c] >= k) break;
        K[i] = K[c];
        V[i] = V[c];
        i = c;
      }
      K[i] = k;
      V[i] = v;
    }
    return top;
  }
}

/** @param {number} c */
const cx = (c) => (c % GW) * CS + CS / 2;
/** @param {number} c */
const cy = (c) => Math.floor(c / GW) * CS + CS / 2;
/** @param {number} x @param {number} y */
const cellAt = (x, y) => {
  const i = Math.floor(x / CS), j = Math.floor(y / CS);
  return i < 0 || j < 0 || i >= GW || j >= GH ? -1 : j * GW + i;
};
/** 4-neighbours of a cell (computed once: floods call this a lot). @param {number} c @returns {number[]} */
const n4 = (c) => N4[c];
/** 8-neighbours. @param {number} c @returns {number[]} */
const n8 = (c) => N8[c];
/** @param {number} c @returns {number[]} */
function n4of(c) {
  const i = c % GW, out = [];
  if (i > 0) out.push(c - 1);
  if (i + 1 < GW) out.push(c + 1);
  if (c >= GW) out.push(c - GW);
  if (c + GW < GW * GH) out.push(c + GW);
  return out;
}
/** @param {number} c @returns {number[]} */
function n8of(c) {
  const i = c % GW, j = Math.floor(c / GW), out = [];
  for (let dj = -1; dj <= 1; dj++)
    for (let di = -1; di <= 1; di++) {
      if (!di && !dj) continue;
      const a = i + di, b = j + dj;
      if (a >= 0 && b >= 0 && a < GW && b < GH) out.push(b * GW + a);
    }
  return out;
}
const N4 = Array.from({ length: GW * GH }, (_, c) => n4of(c));
const N8 = Array.from({ length: GW * GH }, (_, c) => n8of(c));

/**
 * What the drawing looks like to the router: distances, owners, faces and
 * every spot's corners.
 * @typedef {{
 *   dist: Float32Array, owner: Int32Array, face: Int32Array, faces: number,
 *   comp: Map<number, number>, degree: Map<number, number>,
 *   sectors: Map<number, {from: number, to: number, face: number, cells: number[]}[]>,
 * }} Field
 */

export class Drawing {
  /**
   * @param {number} n starting spots
   * @param {number} [variant] which starting arrangement (0: a loose grid;
   *   1: a circle; 2: the grid, shifted): another one is tried when a game
   *   cannot be drawn exactly on the first
   */
  constructor(n, variant = 0) {
    this.variant = variant;
    /** @type {Map<number, Pt>} */
    this.spots = new Map();
    /** @type {Curve[]} */
    this.curves = [];
    /** @type {string[]} moves drawn so far */
    this.moves = [];
    /** @type {number[]} indices of moves drawn approximately */
    this.approximate = [];
    /** @type {Curve[]} lines that could not be drawn without crossing (shown apart) */
    this.unplaced = [];
    /** @type {string[]} why each approximate move is so (for tests and the curious) */
    this.why = [];
    /** @type {number[]} moves after which the whole picture was drawn again from the position */
    this.redrawn = [];
    this.n = n;
    const cols = Math.ceil(Math.sqrt(n * 1.5));
    const rows = Math.ceil(n / cols);
    // Starting spots on a loose grid (a circle leaves the middle empty and
    // crowds the edges as lines go round it).
    for (let k = 0; k < n; k++) {
      const r = Math.floor(k / cols), c = k % cols;
      const inRow = r === rows - 1 ? n - r * cols : cols;
      let x = (W * (c + 1)) / (inRow + 1);
      let y = (H * (r + 1)) / (rows + 1);
      if (variant === 1 && n > 1) {
        x = W / 2 + Math.cos((2 * Math.PI * k) / n + 0.3) * W * 0.3;
        y = H / 2 + Math.sin((2 * Math.PI * k) / n + 0.3) * H * 0.3;
      } else if (variant === 2) {
        // A fixed wobble, different for each spot.
        x += Math.sin(k * 2.3 + 1) * 45;
        y += Math.cos(k * 1.7 + 2) * 45 + (c % 2 ? 30 : -30);
      }
      this.spots.set(k + 1, [Math.round(x), Math.round(y)]);
    }
    /** @type {Field | null} */
    this.cache = null;
  }

  /** Spots joined by lines, as component ids (the smallest spot). */
  components() {
    /** @type {Map<number, number>} */
    const parent = new Map();
    /** @param {number} x @returns {number} */
    const find = (x) => {
      let p = parent.get(x) ?? x;
      if (p !== x) {
        p = find(p);
        parent.set(x, p);
      }
      return p;
    };
    for (const s of this.spots.keys()) parent.set(s, s);
    for (const c of this.curves) {
      const a = find(c.a), b = find(c.b);
      if (a !== b) parent.set(Math.max(a, b), Math.min(a, b));
    }
    /** @type {Map<number, number>} */
    const comp = new Map();
    for (const s of this.spots.keys()) comp.set(s, find(s));
    return comp;
  }

  /** @returns {Field} */
  field() {
    if (this.cache) return this.cache;
    const comp = this.components();
    const dist = new Float32Array(GW * GH).fill(MAXD);
    const owner = new Int32Array(GW * GH).fill(-1);
    /** @param {Pt} a @param {Pt} b @param {number} who */
    const paint = (a, b, who, extra = 0) => {
      const i0 = Math.max(0, Math.floor((Math.min(a[0], b[0]) - MAXD) / CS)), i1 = Math.min(GW - 1, Math.floor((Math.max(a[0], b[0]) + MAXD) / CS));
      const j0 = Math.max(0, Math.floor((Math.min(a[1], b[1]) - MAXD) / CS)), j1 = Math.min(GH - 1, Math.floor((Math.max(a[1], b[1]) + MAXD) / CS));
      for (let j = j0; j <= j1; j++)
        for (let i = i0; i <= i1; i++) {
          const c = j * GW + i;
          const d = Math.max(0, segDist([i * CS + CS / 2, j * CS + CS / 2], a, b) - extra);
          if (d < dist[c]) {
            dist[c] = d;
            owner[c] = who;
          }
        }
    };
    // A spot counts as a small disc: lines keep off it, and a spot alone
    // still blocks a few cells (it is an island of its own).
    for (const [s, p] of this.spots) paint(p, p, /** @type {number} */ (comp.get(s)), SPOT);
    for (const c of this.curves) {
      const who = /** @type {number} */ (comp.get(c.a));
      for (let k = 0; k + 1 < c.pts.length; k++) paint(c.pts[k], c.pts[k + 1], who);
    }
    // Faces: 4-connected free cells. The border of the paper is a wall.
    const face = new Int32Array(GW * GH).fill(-1);
    let faces = 0;
    for (let c0 = 0; c0 < GW * GH; c0++) {
      if (face[c0] !== -1 || dist[c0] < R) continue;
      const stack = [c0];
      face[c0] = faces;
      while (stack.length) {
        const c = /** @type {number} */ (stack.pop());
        for (const d of n4(c)) {
          if (face[d] === -1 && dist[d] >= R) {
            face[d] = faces;
            stack.push(d);
          }
        }
      }
      faces++;
    }
    // Corners: the gaps between a spot's lines, and the face each opens on.
    /** @type {Map<number, number[]>} */
    const angles = new Map();
    /** @type {Map<number, number>} */
    const degree = new Map();
    /** @type {Map<number, {ang: number, left: number, right: number}[]>} */
    const besides = new Map();
    for (const s of this.spots.keys()) {
      besides.set(s, []);
      angles.set(s, []);
      degree.set(s, 0);
    }
    for (const c of this.curves) {
      for (const [end, pts] of /** @type {[number, Pt[]][]} */ ([[c.a, c.pts], [c.b, [...c.pts].reverse()]])) {
        const p = pts[0];
        let q = pts[pts.length - 1];
        for (const r of pts) {
          if (Math.hypot(r[0] - p[0], r[1] - p[1]) >= R + 2) {
            q = r;
            break;
          }
        }
        const ang = Math.atan2(q[1] - p[1], q[0] - p[0]);
        angles.get(end)?.push(ang);
        // Beside the line a little way out, on either side: the faces of
        // the corners this line bounds (by angle alone a corner between two
        // lines that bend away would be read wrong).
        /** @type {number[]} */
        const sideFace = [-1, -1];
        // Points along the line at growing distances; beside each, a little
        // way out (less than half the gap lines keep), the first free cell.
        let acc = 0;
        let want = R + 2 * CS;
        for (let k = 0; k + 1 < pts.length && (sideFace[0] < 0 || sideFace[1] < 0); k++) {
          const a = pts[k], b = pts[k + 1];
          const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
          while (acc + l >= want && (sideFace[0] < 0 || sideFace[1] < 0)) {
            const t = l ? (want - acc) / l : 0;
            const P = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
            const nx = l ? -(b[1] - a[1]) / l : 0, ny = l ? (b[0] - a[0]) / l : 0;
            for (const [side, sign] of [[0, 1], [1, -1]]) {
              for (let off = R + 1; off <= R + 1.5 * CS && sideFace[side] < 0; off += CS / 2) {
                /** @type {Pt} */
                const Q = [P[0] + sign * nx * off, P[1] + sign * ny * off];
                // Not across another line (two lines may run close by a spot).
                if (this.curves.some((o) => o !== c && polylinesCross([/** @type {Pt} */ (P), Q], o.pts))) break;
                const cq = cellAt(Q[0], Q[1]);
                if (cq >= 0 && face[cq] >= 0) sideFace[side] = face[cq];
              }
            }
            want += CS;
          }
          acc += l;
        }
        besides.get(end)?.push({ ang, left: sideFace[0], right: sideFace[1] });
        degree.set(end, (degree.get(end) || 0) + 1);
      }
    }
    /** @type {Field['sectors']} */
    const sectors = new Map();
    for (const [s, p] of this.spots) {
      const a = /** @type {number[]} */ (angles.get(s)).sort((x, y) => x - y);
      /** @type {{from: number, to: number}[]} */
      const gaps = a.length === 0 ? [{ from: -Math.PI, to: Math.PI }] : a.map((x, k) => ({ from: x, to: k + 1 < a.length ? a[k + 1] : a[0] + 2 * Math.PI }));
      sectors.set(
        s,
        gaps.map((g) => {
          // The free cells near the spot inside this gap: its way out.
          /** @type {number[]} */
          const cells = [];
          const rr = R + 6 * CS;
          const i0 = Math.max(0, Math.floor((p[0] - rr) / CS)), i1 = Math.min(GW - 1, Math.floor((p[0] + rr) / CS));
          const j0 = Math.max(0, Math.floor((p[1] - rr) / CS)), j1 = Math.min(GH - 1, Math.floor((p[1] + rr) / CS));
          /** @type {Map<number, number>} */
          const votes = new Map();
          for (let j = j0; j <= j1; j++)
            for (let i = i0; i <= i1; i++) {
              const c = j * GW + i;
              if (face[c] < 0) continue;
              const x = cx(c) - p[0], y = cy(c) - p[1];
              const r = Math.hypot(x, y);
              if (r > rr) continue;
              let t = Math.atan2(y, x);
              while (t < g.from) t += 2 * Math.PI;
              const margin = Math.min(0.25, (g.to - g.from) / 4);
              if (t > g.from + margin && t < g.to - margin) {
                cells.push(c);
                votes.set(face[c], (votes.get(face[c]) || 0) + 1 / (1 + r));
              }
            }
          let best = -1, bestV = -1;
          for (const [f, v] of votes) if (v > bestV) { best = f; bestV = v; }
          // The faces seen beside the gap's two lines win over the angle vote.
          const bs = besides.get(s) || [];
          const l1 = bs.find((b) => b.ang === g.from), l2 = bs.find((b) => b.ang === (g.to > Math.PI ? g.to - 2 * Math.PI : g.to));
          const seen = [l1 ? l1.left : -1, l2 ? l2.right : -1].filter((x) => x >= 0);
          if (seen.length) best = seen[0];
          return { from: g.from, to: g.to, face: best, cells: cells.filter((c) => face[c] === best) };
        }),
      );
    }
    this.cache = { dist, owner, face, faces, comp, degree, sectors };
    return this.cache;
  }

  /**
   * The drawing as the card notation sees it, read exactly (faces traced
   * along the lines, see sprouts-structure.js), as a key like positionKey's.
   */
  key() {
    return positionKey(this.text());
  }

  /** The drawing read back exactly, in the card notation. */
  text() {
    return readBack(this.spots, this.curves).map((r) => r.map((st) => st.join(',')).join(';')).join('/');
  }

  /** The drawing read back with each boundary's cyclic order (the `!` flags). */
  orientedKey() {
    return orientedKey(readBack(this.spots, this.curves));
  }

  /**
   * A bare position (card notation) drawn from its structure, with no
   * moves: null if it cannot be read or drawn.
   * @param {string} position
   */
  static fromPosition(position) {
    const rows = parsePosition(position);
    if (!rows) return null;
    const d = new Drawing(0);
    d.n = Math.max(...rows.flat(2));
    return d.redraw(position) ? d : null;
  }

  /**
   * Replaces the whole picture by one drawn from the position's structure
   * (`layoutPosition`): used when a move does not fit the picture. True if
   * it is planar and reads back as the position, cyclic orders included.
   * @param {string} position
   */
  redraw(position) {
    const rows = parsePosition(position);
    if (!rows) return false;
    const want = orientedKey(rows);
    /** @type {{spots: Map<number, Pt>, curves: Curve[]} | null} */
    let best = null;
    // The outer region: the roomiest row first, then each other row; for
    // each, two weightings and two numbers of points per line (a drawing
    // whose small parts come out too small to show fails the checks).
    /** @type {{outer: number | undefined, weights: number[], sub: number}[]} */
    const tries = [];
    for (const outer of [undefined, ...rows.map((_, r) => r)])
      for (const weights of [[1, 1, 1, 20, 1], [0.3, 0.3, 1, 5, 1]]) for (const sub of [3, 2]) tries.push({ outer, weights, sub });
    for (const opts of tries.slice(0, REDRAW_TRIES)) {
      const d = layoutPosition(position, W, H, opts);
      if (!d) continue;
      /** @type {Curve[]} */
      const curves = d.curves.map((c) => ({ ...c, move: Math.max(c.a, c.b) > this.n ? Math.max(c.a, c.b) - this.n - 1 : undefined }));
      const cand = { spots: d.spots, curves };
      if (crossings(cand).length || orientedKey(readBack(cand.spots, cand.curves)) !== want) continue;
      best = cand;
      break;
    }
    if (!best) return false;
    this.spots = best.spots;
    this.curves = best.curves;
    this.unplaced = [];
    this.approximate = [];
    this.why = [];
    this.cache = null;
    if (this.moves.length) this.redrawn.push(this.moves.length - 1);
    return true;
  }

  /**
   * How many faces have a corner of a spot; -1 if some corner opens on
   * no face.
   */
  readFaces() {
    const fd = this.field();
    const faces = new Set();
    for (const secs of fd.sectors.values()) {
      for (const sec of secs) {
        if (sec.face < 0) return -1;
        faces.add(sec.face);
      }
    }
    return faces.size;
  }

  /**
   * Draws one move. `expected` (the position after it, card notation) is
   * used where known to choose among drawings. Returns false if the move
   * could only be drawn approximately.
   * @param {string} text
   * @param {string} [expected]
   */
  apply(text, expected) {
    const mv = parseMove(text);
    const index = this.moves.length;
    this.moves.push(text);
    if (!mv || !this.spots.has(mv.f) || !this.spots.has(mv.h) || this.spots.has(mv.g)) {
      if (expected && this.redraw(expected)) return true;
      this.approximate.push(index);
      return false;
    }
    const wantRows = expected ? parsePosition(expected) : null;
    const want = wantRows ? orientedKey(wantRows) : null;
    /** @type {{pts: Pt[], rank: number} | null} the best drawing found that is not right */
    let fallback = null;
    const facesBefore = this.readFaces();
    const dividing = facesBefore >= 0 && this.components().get(mv.f) === this.components().get(mv.h);
    let tried = 0;
    for (const cand of this.candidates(mv)) {
      // Bounded work (counted, not timed, so every browser draws the same):
      // past the budget, the best drawing found so far.
      if (fallback && ++tried > (want ? FIT_BUDGET : MOVE_BUDGET)) break;
      const saved = { curves: this.curves, spots: this.spots };
      this.place(mv, cand.pts);
      const planar = newCrossings(this, 2) === 0;
      // The drawing must read back as it is: every corner in a face, and one
      // face more after a dividing move (lines drawn too close together
      // would leave a region without room and merge it with another).
      const readable = planar && this.readFaces() === facesBefore + (dividing ? 1 : 0);
      const meaningOk = readable && cand.check(this);
      // Where the position is known it decides alone (read back exactly,
      // cyclic orders included); else the move's meaning on the grid.
      if (planar && (want ? this.orientedKey() === want : meaningOk)) {
        // The whole picture reads back as the position: earlier approximate
        // moves (drawn without their positions) are made good.
        if (want && !this.unplaced.length) {
          this.approximate = [];
          this.why = [];
        }
        return true;
      }
      const rank = planar ? (readable ? (meaningOk ? 3 : 2) : 1) : 0;
      if (rank > 0 && (!fallback || rank > fallback.rank)) fallback = { pts: cand.pts, rank };
      this.curves = saved.curves;
      this.spots = saved.spots;
      this.cache = null;
    }
    // The picture has no room for it: drawn again from the position.
    if (expected && this.redraw(expected)) return true;
    this.approximate.push(index);
    this.why.push(`${text}: ${['no planar line', 'lines too close to read', 'wrong side', 'regions differ from the position'][fallback ? fallback.rank : 0]}`);
    if (!fallback) {
      // Unsmoothed paths along the cells, which stay off every line.
      for (const pts of this.rawCandidates(mv)) {
        const saved = { curves: this.curves, spots: this.spots };
        this.place(mv, pts);
        if (newCrossings(this, 2) === 0) return false;
        this.curves = saved.curves;
        this.spots = saved.spots;
        this.cache = null;
      }
    }
    if (fallback) {
      this.place(mv, fallback.pts);
    } else {
      // No planar line was found (the paper is too crowded there): the move
      // is shown as a straight line apart from the drawing, flagged, and
      // kept out of the lines that must not cross.
      const f = /** @type {Pt} */ (this.spots.get(mv.f)), h = /** @type {Pt} */ (this.spots.get(mv.h));
      const pts = /** @type {Pt[]} */ (mv.f === mv.h ? [f, [f[0] + 30, f[1] - 30], [f[0] + 30, f[1] + 30], f] : [f, h]);
      const fd = this.field();
      this.place(mv, pts);
      this.unplaced.push(...this.curves.splice(-2, 2));
      // Its new spot goes to the free cell nearest the middle, off every line.
      const m = /** @type {Pt} */ (this.spots.get(mv.g));
      let best = -1, bd = Infinity;
      for (let c = 0; c < GW * GH; c++) {
        if (fd.dist[c] < 2 * R + CS) continue;
        const d = Math.hypot(cx(c) - m[0], cy(c) - m[1]);
        if (d < bd) { bd = d; best = c; }
      }
      if (best >= 0) this.spots.set(mv.g, [cx(best), cy(best)]);
      this.cache = null;
    }
    return false;
  }

  /**
   * Lines along the cells of a face, not smoothed: the last resort.
   * @param {Move} mv
   * @returns {Generator<Pt[]>}
   */
  *rawCandidates(mv) {
    const fd = this.field();
    const fs = fd.sectors.get(mv.f) || [], hs = fd.sectors.get(mv.h) || [];
    const f = /** @type {Pt} */ (this.spots.get(mv.f)), h = /** @type {Pt} */ (this.spots.get(mv.h));
    /** @param {{cells: number[], from: number, to: number}} sec @param {Pt} p @param {number} t */
    const near = (sec, p, t) => {
      const a = sec.from + (sec.to - sec.from) * t;
      const q = [p[0] + Math.cos(a) * (R + 2 * CS), p[1] + Math.sin(a) * (R + 2 * CS)];
      return [...sec.cells].sort((x, y) => Math.hypot(cx(x) - q[0], cy(x) - q[1]) - Math.hypot(cx(y) - q[0], cy(y) - q[1])).slice(0, 2);
    };
    for (const a of fs)
      for (const b of hs) {
        if (a.face !== b.face || a.face < 0) continue;
        const from = near(a, f, mv.f === mv.h ? 0.35 : 0.5), to = near(b, h, mv.f === mv.h ? 0.65 : 0.5);
        const cells = this.route(a.face, from, to, null);
        if (cells) yield [f, ...cells.map((c) => /** @type {Pt} */ ([cx(c), cy(c)])), h];
      }
  }

  /**
   * Adds the line `pts` of move `mv` with its new spot at the middle.
   * @param {Move} mv @param {Pt[]} pts
   */
  place(mv, pts) {
    // The new spot goes where the line has the most room around it (within
    // its middle part), so its corners can be reached later.
    const fd = this.field();
    /** @type {number[]} */
    const cum = [0];
    for (let k = 0; k + 1 < pts.length; k++) cum.push(cum[k] + Math.hypot(pts[k + 1][0] - pts[k][0], pts[k + 1][1] - pts[k][1]));
    const total = cum[cum.length - 1];
    let at = 1;
    /** @type {Pt} */
    let mid = pts[0];
    let best = -1;
    for (let t = 0.3; t <= 0.701; t += 0.05) {
      const want = total * t;
      let k = 0;
      while (k + 2 < cum.length && cum[k + 1] < want) k++;
      const l = cum[k + 1] - cum[k];
      const u = l ? (want - cum[k]) / l : 0;
      /** @type {Pt} */
      const p = [pts[k][0] + u * (pts[k + 1][0] - pts[k][0]), pts[k][1] + u * (pts[k + 1][1] - pts[k][1])];
      const c = cellAt(p[0], p[1]);
      // Room, with a slight pull to the middle of the line.
      const room = (c >= 0 ? fd.dist[c] : 0) - 20 * Math.abs(t - 0.5);
      if (room > best) {
        best = room;
        mid = [Math.round(p[0] * 10) / 10, Math.round(p[1] * 10) / 10];
        at = k + 1;
      }
    }
    this.spots = new Map(this.spots);
    this.spots.set(mv.g, mid);
    const move = this.moves.length - 1;
    this.curves = [...this.curves, { a: mv.f, b: mv.g, pts: [...pts.slice(0, at), mid], move }, { a: mv.g, b: mv.h, pts: [mid, ...pts.slice(at)], move }];
    this.cache = null;
  }

  /**
   * The ways of drawing `mv`, best first, each with a check of its meaning.
   * @param {Move} mv
   * @returns {Generator<{pts: Pt[], check: (d: Drawing) => boolean}>}
   */
  *candidates(mv) {
    const fd = this.field();
    const fs = fd.sectors.get(mv.f) || [], hs = fd.sectors.get(mv.h) || [];
    const live = (/** @type {number} */ s) => (fd.degree.get(s) || 0) < 3;
    let faces = [...new Set(fs.map((s) => s.face))].filter((f) => f >= 0 && hs.some((s) => s.face === f));
    if (mv.at !== null) {
      const at = fd.sectors.get(mv.at) || [];
      const narrowed = faces.filter((f) => at.some((s) => s.face === f));
      if (narrowed.length) faces = narrowed;
    }
    // Without `@`, the face holding no other live spot comes first.
    const others = (/** @type {number} */ F) => [...fd.sectors].filter(([s, secs]) => s !== mv.f && s !== mv.h && live(s) && secs.some((x) => x.face === F)).length;
    // Then the roomiest: a line drawn there keeps the drawing readable.
    const size = new Map(faces.map((F) => [F, 0]));
    for (let c = 0; c < GW * GH; c++) if (size.has(fd.face[c])) size.set(fd.face[c], (size.get(fd.face[c]) || 0) + 1);
    faces.sort((a, b) => others(a) - others(b) || (size.get(b) || 0) - (size.get(a) || 0));
    const dividing = fd.comp.get(mv.f) === fd.comp.get(mv.h);
    for (const F of faces) {
      const sf = fs.filter((s) => s.face === F), sh = hs.filter((s) => s.face === F);
      if (!dividing) {
        for (const a of sf)
          for (const b of sh) {
            const cells = this.route(F, a.cells, b.cells, this.roomy(mv)) || this.route(F, a.cells, b.cells, null);
            if (cells) yield { pts: this.finish(mv, cells, F), check: () => true };
          }
        continue;
      }
      yield* this.dividing(mv, F, sf, sh);
    }
  }

  /**
   * Cells with room for a line: two halos away from everything, except
   * near the move's own ends, where lines meet.
   * @param {Move} mv
   */
  roomy(mv) {
    const fd = this.field();
    const f = /** @type {Pt} */ (this.spots.get(mv.f)), h = /** @type {Pt} */ (this.spots.get(mv.h));
    return (/** @type {number} */ c) => fd.dist[c] >= GAP || Math.hypot(cx(c) - f[0], cy(c) - f[1]) < GAP + 3 * CS || Math.hypot(cx(c) - h[0], cy(c) - h[1]) < GAP + 3 * CS;
  }

  /**
   * Cheapest path of cells in face F from any of `from` to any of `to`,
   * through cells `allowed` permits (all of F if null).
   * @param {number} F @param {number[]} from @param {number[]} to @param {((c: number) => boolean) | null} allowed
   * @returns {number[] | null}
   */
  route(F, from, to, allowed) {
    const fd = this.field();
    const goal = new Uint8Array(GW * GH);
    // A* towards the goal's bounding box (a step costs at least 1 a cell).
    let gi0 = GW, gi1 = 0, gj0 = GH, gj1 = 0;
    for (const c of to) {
      goal[c] = 1;
      const i = c % GW, j = (c - i) / GW;
      gi0 = Math.min(gi0, i); gi1 = Math.max(gi1, i); gj0 = Math.min(gj0, j); gj1 = Math.max(gj1, j);
    }
    const est = (/** @type {number} */ c) => {
      const i = c % GW, j = (c - i) / GW;
      const di = i < gi0 ? gi0 - i : i > gi1 ? i - gi1 : 0, dj = j < gj0 ? gj0 - j : j > gj1 ? j - gj1 : 0;
      return Math.hypot(di, dj);
    };
    const cost = new Float64Array(GW * GH).fill(Infinity);
    const prev = new Int32Array(GW * GH).fill(-1);
    const done = new Uint8Array(GW * GH);
    const heap = new Heap();
    for (const c of from) {
      if (fd.face[c] !== F) continue;
      cost[c] = 0;
      heap.push(est(c), c);
    }
    const face = fd.face, dist = fd.dist;
    while (heap.size) {
      const [, c] = heap.pop();
      if (done[c]) continue;
      done[c] = 1;
      if (goal[c]) {
        const path = [c];
        let p = c;
        while (prev[p] !== -1) {
          p = prev[p];
          path.push(p);
        }
        return path.reverse();
      }
      const i = c % GW, j = (c - i) / GW;
      for (let dj = -1; dj <= 1; dj++) {
        const jj = j + dj;
        if (jj < 0 || jj >= GH) continue;
        for (let di = -1; di <= 1; di++) {
          const ii = i + di;
          if ((!di && !dj) || ii < 0 || ii >= GW) continue;
          const d = jj * GW + ii;
          if (done[d] || face[d] !== F || (allowed && !goal[d] && !allowed(d))) continue;
          // Diagonal steps only between free cells (no squeezing past a corner).
          if (di && dj && (face[j * GW + ii] !== F || face[jj * GW + i] !== F)) continue;
          const near = Math.max(0, R + 30 - dist[d]) / 6;
          const nk = cost[c] + (di && dj ? 1.414 : 1) * (1 + near * near);
          if (nk < cost[d]) {
            cost[d] = nk;
            prev[d] = c;
            heap.push(nk + est(d), d);
          }
        }
      }
    }
    return null;
  }

  /**
   * A cell path (or outline) turned into a line from f to h: simplified
   * where the shortcut keeps clear of everything else, then rounded.
   * @param {Move} mv @param {number[]} cells @param {number} F
   * @returns {Pt[]}
   */
  finish(mv, cells, F) {
    /** @type {Pt[]} */
    const raw = cells.map((c) => [cx(c), cy(c)]);
    return this.smooth(mv, [/** @type {Pt} */ (this.spots.get(mv.f)), ...raw, /** @type {Pt} */ (this.spots.get(mv.h))], F);
  }

  /**
   * @param {Move} mv @param {Pt[]} pts @param {number} _F
   * @returns {Pt[]}
   */
  smooth(mv, pts, _F) {
    if (pts.length > 3 && same(pts[0], pts[pts.length - 1])) {
      // A loop: each quarter on its own, so no shortcut flattens it.
      /** @type {Pt[]} */
      const out = [pts[0]];
      for (let q = 0; q < 4; q++) {
        const from = Math.floor((q * (pts.length - 1)) / 4), to = Math.floor(((q + 1) * (pts.length - 1)) / 4);
        if (to > from) out.push(...this.smoothOpen(mv, pts.slice(from, to + 1)).slice(1));
      }
      return out;
    }
    return this.smoothOpen(mv, pts);
  }

  /**
   * @param {Move} mv @param {Pt[]} pts
   * @returns {Pt[]}
   */
  smoothOpen(mv, pts) {
    const fd = this.field();
    // A shortcut is fine when every point along it is in a cell at least
    // R + 2 from other lines (or near the line's own ends).
    const f = /** @type {Pt} */ (this.spots.get(mv.f)), h = /** @type {Pt} */ (this.spots.get(mv.h));
    /** Distance to the nearest line, exactly. @param {Pt} p */
    const exact = (p) => {
      let best = Infinity;
      for (const cv of this.curves) {
        for (let k = 0; k + 1 < cv.pts.length; k++) {
          const a = cv.pts[k], b = cv.pts[k + 1];
          if (Math.min(a[0], b[0]) - best > p[0] || Math.max(a[0], b[0]) + best < p[0]) continue;
          best = Math.min(best, segDist(p, a, b));
        }
      }
      for (const [s, q] of this.spots) if (s !== mv.f && s !== mv.h) best = Math.min(best, Math.hypot(p[0] - q[0], p[1] - q[1]));
      return best;
    };
    /** @param {Pt} a @param {Pt} b */
    const clear = (a, b) => {
      const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const steps = Math.max(1, Math.ceil(l / (CS / 2)));
      for (let k = 0; k <= steps; k++) {
        const p = /** @type {Pt} */ ([a[0] + ((b[0] - a[0]) * k) / steps, a[1] + ((b[1] - a[1]) * k) / steps]);
        const c = cellAt(p[0], p[1]);
        if (c < 0) return false;
        // Near the line's own ends it may come closer to the lines there,
        // in proportion (it must reach its spot, at an angle to the others).
        const near = Math.min(Math.hypot(p[0] - f[0], p[1] - f[1]), Math.hypot(p[0] - h[0], p[1] - h[1]));
        if (near < 2 * R + 4 * CS) {
          // Close to an end the cells are too coarse: measure exactly.
          if (near > 0.5 && exact(p) < 0.4 * near) return false;
        } else if (fd.dist[c] < 2 * R + 2 * CS) return false;
      }
      return true;
    };
    // Greedy simplification: from each kept point, jump as far as stays clear.
    /** @type {Pt[]} */
    const out = [pts[0]];
    let i = 0;
    while (i < pts.length - 1) {
      let j = Math.min(pts.length - 1, i + 1);
      for (let k = Math.min(pts.length - 1, i + 120); k > i + 1; k--) {
        // The shortcut must be clear and must not cut a spot off to the
        // other side (lines cannot be cut off: they would cross it).
        if (clear(pts[i], pts[k]) && !this.spotInside(pts.slice(i, k + 1), mv)) {
          j = k;
          break;
        }
      }
      out.push(pts[j]);
      i = j;
    }
    // Chaikin's corner cutting, twice: each cut stays inside the corner's
    // triangle, which the clear segments bound closely.
    let line = out;
    for (let round = 0; round < 2; round++) {
      if (line.length < 3) break;
      /** @type {Pt[]} */
      const next = [line[0]];
      for (let k = 0; k + 1 < line.length; k++) {
        const a = line[k], b = line[k + 1];
        const q = /** @type {Pt} */ ([0.75 * a[0] + 0.25 * b[0], 0.75 * a[1] + 0.25 * b[1]]);
        const r = /** @type {Pt} */ ([0.25 * a[0] + 0.75 * b[0], 0.25 * a[1] + 0.75 * b[1]]);
        if (k > 0) next.push(q);
        if (k + 2 < line.length) next.push(r);
      }
      next.push(line[line.length - 1]);
      // Keep the cut only if it stays clear (else the corner stays sharp).
      let ok = true;
      for (let k = 1; k + 2 < next.length && ok; k++) ok = clear(next[k], next[k + 1]);
      for (let k = 1; k + 1 < line.length && ok; k++) ok = !this.spotInside([line[k - 1], line[k], line[k + 1]], mv);
      if (!ok) break;
      line = next;
    }
    return line.map((p) => /** @type {Pt} */ ([Math.round(p[0] * 10) / 10, Math.round(p[1] * 10) / 10]));
  }

  /**
   * Whether a spot (other than the move's ends) lies inside the polygon.
   * @param {Pt[]} poly @param {Move} mv
   */
  spotInside(poly, mv) {
    for (const [s, p] of this.spots) {
      if (s === mv.f || s === mv.h) continue;
      let inside = false;
      for (let a = 0, b = poly.length - 1; a < poly.length; b = a++) {
        const [xa, ya] = poly[a], [xb, yb] = poly[b];
        if (ya > p[1] !== yb > p[1] && p[0] < ((xb - xa) * (p[1] - ya)) / (yb - ya) + xa) inside = !inside;
      }
      if (inside) return true;
    }
    return false;
  }

  /**
   * Ways of drawing a dividing move (f and h on one boundary) in face F.
   * @param {Move} mv @param {number} F
   * @param {{cells: number[], from: number, to: number}[]} sf @param {{cells: number[], from: number, to: number}[]} sh
   * @returns {Generator<{pts: Pt[], check: (d: Drawing) => boolean}>}
   */
  *dividing(mv, F, sf, sh) {
    const fd = this.field();
    const C = /** @type {number} */ (fd.comp.get(mv.f));
    const live = (/** @type {number} */ s) => (fd.degree.get(s) || 0) < 3;
    /** @type {Map<number, number[]>} live spots per component with a corner in F */
    const inF = new Map();
    for (const [s, secs] of fd.sectors) {
      if (!live(s) || !secs.some((x) => x.face === F)) continue;
      const k = /** @type {number} */ (fd.comp.get(s));
      if (!inF.has(k)) inF.set(k, []);
      inF.get(k)?.push(s);
    }
    const islands = [...inF.keys()].filter((k) => k !== C);
    const listed = new Set((mv.list || []).filter((s) => this.spots.has(s) && live(s)));
    const listedIslands = islands.filter((k) => (inF.get(k) || []).some((s) => listed.has(s)));
    const ownListed = (inF.get(C) || []).some((s) => s !== mv.f && s !== mv.h && listed.has(s));
    const outer = this.outerComponent(F);
    const check = this.meaning(mv, F, islands, listed);

    // Side Z is grown as a blob; which islands go there.
    /** @type {{islands: number[], own: 'none' | 'all' | 'piece'}[]} */
    const plans = [];
    if (mv.f === mv.h) {
      if (listed.size) {
        const rest = islands.filter((k) => !listedIslands.includes(k));
        plans.push({ islands: listedIslands, own: ownListed ? 'all' : 'none' });
        plans.push({ islands: rest, own: ownListed ? 'none' : 'all' });
      } else {
        plans.push({ islands: [], own: 'none' });
        plans.push({ islands, own: 'all' });
      }
    } else {
      if (listed.size) {
        plans.push({ islands: listedIslands, own: 'piece' });
        plans.push({ islands: islands.filter((k) => !listedIslands.includes(k)), own: 'piece' });
      } else {
        plans.push({ islands: [], own: 'piece' });
        plans.push({ islands, own: 'piece' });
      }
    }
    const pieces = mv.f === mv.h ? [] : this.bandPieces(F, C, mv);
    for (const plan of plans) {
      // The blob may not take the face's outer boundary (its outline would
      // then be two curves); its far side is the other plan.
      if (outer !== null && plan.islands.includes(outer)) continue;
      if (outer !== null && outer === C && plan.own === 'all') continue;
      /** @type {number[][][]} */
      const arcChoices = plan.own === 'piece' ? subsets(pieces) : [[]];
      for (const arc of arcChoices) {
        for (const a of sf)
          for (const b of sh) {
            // Roomy first (the blob grown into free space, so regions read
            // as regions), then tight.
            for (const [grow, roomiest] of /** @type {[number, boolean][]} */ ([[20, false], [12, false], [12, true], [5, false], [0, false]])) {
              const outline = this.blob(mv, F, C, plan, arc, a, b, grow, roomiest);
              if (!outline) continue;
              for (const pts of this.pinch(mv, outline, C)) yield { pts: this.smooth(mv, pts, F), check };
            }
          }
      }
    }
    // Last resorts: the plain cheapest path (right when nothing needs enclosing).
    for (const a of sf)
      for (const b of sh) {
        if (mv.f === mv.h) continue;
        const cells = this.route(F, a.cells, b.cells, this.roomy(mv)) || this.route(F, a.cells, b.cells, null);
        if (cells) yield { pts: this.finish(mv, cells, F), check };
      }
  }

  /**
   * The component that surrounds face F (null for the outer face).
   * @param {number} F
   */
  outerComponent(F) {
    const fd = this.field();
    for (let c = 0; c < GW * GH; c++) {
      if (fd.face[c] !== F) continue;
      // The first cell of F in reading order: the cell above it is not in F.
      if (c < GW) return null;
      let d = c - GW;
      while (d >= 0 && fd.face[d] === -1 && fd.owner[d] === -1) d -= GW;
      if (d < 0) return null;
      return fd.owner[d] >= 0 ? fd.owner[d] : null;
    }
    return null;
  }

  /**
   * Distance from each cell to the lines and spots of the components
   * `which` accepts.
   * @param {(comp: number) => boolean} which
   */
  distanceTo(which) {
    const fd = this.field();
    const dist = new Float32Array(GW * GH).fill(MAXD);
    /** @param {Pt} a @param {Pt} b */
    const paint = (a, b, extra = 0) => {
      const i0 = Math.max(0, Math.floor((Math.min(a[0], b[0]) - MAXD) / CS)), i1 = Math.min(GW - 1, Math.floor((Math.max(a[0], b[0]) + MAXD) / CS));
      const j0 = Math.max(0, Math.floor((Math.min(a[1], b[1]) - MAXD) / CS)), j1 = Math.min(GH - 1, Math.floor((Math.max(a[1], b[1]) + MAXD) / CS));
      for (let j = j0; j <= j1; j++)
        for (let i = i0; i <= i1; i++) {
          const c = j * GW + i;
          const d = Math.max(0, segDist([i * CS + CS / 2, j * CS + CS / 2], a, b) - extra);
          if (d < dist[c]) dist[c] = d;
        }
    };
    for (const [s, p] of this.spots) if (which(/** @type {number} */ (fd.comp.get(s)))) paint(p, p, SPOT);
    for (const c of this.curves) {
      if (!which(/** @type {number} */ (fd.comp.get(c.a)))) continue;
      for (let k = 0; k + 1 < c.pts.length; k++) paint(c.pts[k], c.pts[k + 1]);
    }
    return dist;
  }

  /**
   * The free cells of F along component C, cut at the two ends of the move:
   * the arcs of C's boundary between f and h, each as a set of cells (a
   * band as wide as the gap lines keep, so an outline around it keeps it).
   * @param {number} F @param {number} C @param {Move} mv
   * @returns {number[][]}
   */
  bandPieces(F, C, mv) {
    const fd = this.field();
    const f = /** @type {Pt} */ (this.spots.get(mv.f)), h = /** @type {Pt} */ (this.spots.get(mv.h));
    const cut = GAP;
    const band = new Set();
    for (let c = 0; c < GW * GH; c++) {
      if (fd.face[c] !== F || fd.owner[c] !== C || fd.dist[c] >= R + 3 * CS) continue;
      if (Math.hypot(cx(c) - f[0], cy(c) - f[1]) < cut || Math.hypot(cx(c) - h[0], cy(c) - h[1]) < cut) continue;
      band.add(c);
    }
    /** @type {number[][]} */
    const pieces = [];
    const seen = new Set();
    for (const c0 of band) {
      if (seen.has(c0)) continue;
      const piece = [c0];
      seen.add(c0);
      for (let k = 0; k < piece.length; k++) {
        for (const d of n4(piece[k])) {
          if (band.has(d) && !seen.has(d)) {
            seen.add(d);
            piece.push(d);
          }
        }
      }
      if (piece.length >= 3) pieces.push(piece);
    }
    return pieces.sort((a, b) => b.length - a.length).slice(0, 4);
  }

  /**
   * Grows the blob of side Z and returns its outline (corner points), or
   * null if it cannot be grown cleanly.
   * @param {Move} mv @param {number} F @param {number} C
   * @param {{islands: number[], own: 'none' | 'all' | 'piece'}} plan
   * @param {number[][]} arc band pieces of C that go to side Z
   * @param {{cells: number[], from: number, to: number}} fSec @param {{cells: number[], from: number, to: number}} hSec the corners used
   * @param {number} grow layers of free space to add
   * @param {boolean} roomiest leave a lone spot the roomiest way (else the first way round)
   * @returns {Pt[] | null}
   */
  blob(mv, F, C, plan, arc, fSec, hSec, grow, roomiest) {
    const fCells = fSec.cells;
    const fd = this.field();
    const zComps = new Set(plan.islands);
    if (plan.own === 'all') zComps.add(C);
    const inB = new Uint8Array(GW * GH);
    const f = /** @type {Pt} */ (this.spots.get(mv.f)), h = /** @type {Pt} */ (this.spots.get(mv.h));
    // Cells of the blob keep a gap from everything on the other side (and
    // from C, unless near the ends or in C's chosen arc).
    const other = this.distanceTo((k) => !zComps.has(k) && k !== C);
    const distC = zComps.has(C) ? null : this.distanceTo((k) => k === C);
    const pieceCells = new Uint8Array(GW * GH);
    for (const piece of arc) for (const c of piece) pieceCells[c] = 1;
    const nearEnds = (/** @type {number} */ c) => Math.hypot(cx(c) - f[0], cy(c) - f[1]) < GAP + 2 * CS || Math.hypot(cx(c) - h[0], cy(c) - h[1]) < GAP + 2 * CS;
    const allowed = (/** @type {number} */ c) =>
      fd.face[c] === F && other[c] >= GAP && (!distC || distC[c] >= GAP || pieceCells[c] === 1 || (nearEnds(c) && distC[c] >= R));
    /** @type {number[][]} parts to join */
    const parts = [];
    const start = fCells.length ? fCells[0] : -1;
    if (start < 0) return null;
    // Everything a component on side Z encloses goes with it: the cells not
    // reachable from F without passing through the component; then grown
    // by a gap's width into F.
    for (const k of zComps) {
      const reach = new Uint8Array(GW * GH);
      const stack = [start];
      reach[start] = 1;
      while (stack.length) {
        const c = /** @type {number} */ (stack.pop());
        for (const d of n4(c)) {
          if (reach[d]) continue;
          if (fd.face[d] === -1 && fd.owner[d] === k) continue;
          reach[d] = 1;
          stack.push(d);
        }
      }
      /** @type {number[]} */
      let layer = [];
      const inPart = new Uint8Array(GW * GH);
      /** @type {number[]} */
      const part = [];
      for (let c = 0; c < GW * GH; c++) if (!reach[c]) { inPart[c] = 1; part.push(c); layer.push(c); }
      for (let g = 0; g * CS < GAP; g++) {
        /** @type {number[]} */
        const next = [];
        for (const c of layer)
          for (const d of n4(c)) {
            if (!inPart[d] && fd.face[d] === F && (allowed(d) || other[d] >= R + CS)) {
              inPart[d] = 1;
              part.push(d);
              next.push(d);
            }
          }
        layer = next;
      }
      parts.push(part);
    }
    // The corner(s) at the ends: a small patch of the sector's free cells.
    // Near the middle of the corner, so the line leaves the spot well
    // away from its other lines.
    // Of the directions in the middle of the corner, the roomiest.
    const patch = (/** @type {{cells: number[], from: number, to: number}} */ sec, /** @type {Pt} */ p) => {
      let best = null, score = -Infinity;
      // A spot alone may be left in any direction.
      const round = sec.to - sec.from > 2 * Math.PI - 0.01;
      // The roomiest way: any direction of the corner, by the room ahead.
      const lo = roomiest ? (round ? 0 : 0.15) : 0.2, hi = roomiest ? (round ? 0.95 : 0.85) : 0.8;
      for (let t = lo; t <= hi + 1e-9; t += roomiest ? 1 / 16 : 0.1) {
        const a = sec.from + (sec.to - sec.from) * t;
        const q = [p[0] + Math.cos(a) * (R + 3 * CS), p[1] + Math.sin(a) * (R + 3 * CS)];
        const sorted = [...sec.cells].sort((x, y) => Math.hypot(cx(x) - q[0], cy(x) - q[1]) - Math.hypot(cx(y) - q[0], cy(y) - q[1])).slice(0, 4);
        if (!sorted.length) continue;
        const ahead = cellAt(p[0] + Math.cos(a) * (R + 10 * CS), p[1] + Math.sin(a) * (R + 10 * CS));
        const room = (ahead >= 0 && fd.face[ahead] === F ? Math.min(other[ahead], distC ? distC[ahead] : MAXD) : 0) - (roomiest ? 0 : 30 * Math.abs(t - 0.5));
        if (room > score) {
          score = room;
          best = sorted;
        }
      }
      return best || [];
    };
    parts.unshift(patch(fSec, f));
    if (mv.f !== mv.h) parts.push(patch(hSec, h));
    for (const piece of arc) parts.push(piece);
    for (const p of parts) for (const c of p) inB[c] = 1;
    // Join the parts one by one to the first, each by a cheapest path.
    const inJoined = new Uint8Array(GW * GH);
    /** @type {number[]} the free cells joined so far (where paths start) */
    const joinedFree = [];
    const join = (/** @type {number} */ c) => {
      if (inJoined[c]) return;
      inJoined[c] = 1;
      if (fd.face[c] === F) joinedFree.push(c);
    };
    for (const c of parts[0]) join(c);
    for (let k = 1; k < parts.length; k++) {
      const target = parts[k];
      if (target.some((c) => inJoined[c] || n4(c).some((d) => inJoined[d]))) {
        for (const c of target) join(c);
        continue;
      }
      const targetFree = target.filter((c) => fd.face[c] === F);
      if (!targetFree.length) return null;
      const path = this.route(F, joinedFree, targetFree, allowed);
      if (!path) return null;
      for (const c of path) {
        inB[c] = 1;
        join(c);
        // A path two cells thick, so the outline has room on both sides.
        for (const d of n4(c)) {
          if (allowed(d)) {
            inB[d] = 1;
            join(d);
          }
        }
      }
      for (const c of target) join(c);
    }
    // Grown into the free space around it, keeping the gap.
    // Near the ends, C's lines there may be closer in proportion (the blob
    // opens from the corner like a fan).
    const rEnd = (/** @type {number} */ c) => Math.min(Math.hypot(cx(c) - f[0], cy(c) - f[1]), Math.hypot(cx(c) - h[0], cy(c) - h[1]));
    // Away from the part of C that goes to the other side: the band along
    // it (outside the ends), and up to 6 cells from it.
    const fromOther = new Uint8Array(GW * GH).fill(255);
    if (distC) {
      /** @type {number[]} */
      let front = [];
      for (let c = 0; c < GW * GH; c++) {
        if (fd.face[c] === F && fd.owner[c] === C && fd.dist[c] < R + 3 * CS && !pieceCells[c] && rEnd(c) >= GAP + 3 * CS) {
          fromOther[c] = 0;
          front.push(c);
        }
      }
      for (let g = 1; g <= 6; g++) {
        /** @type {number[]} */
        const next = [];
        for (const c of front)
          for (const d of n4(c)) {
            if (fromOther[d] > g) {
              fromOther[d] = g;
              next.push(d);
            }
          }
        front = next;
      }
    }
    const roomy = (/** @type {number} */ c) =>
      fd.face[c] === F && other[c] >= GAP + CS && (!distC || (fromOther[c] > 5 && distC[c] >= Math.min(R + 3 * CS, 0.6 * rEnd(c))));
    let layer = [];
    for (let c = 0; c < GW * GH; c++) if (inB[c]) layer.push(c);
    for (let g = 0; g < grow; g++) {
      /** @type {number[]} */
      const next = [];
      for (const c of layer)
        for (const d of n4(c)) {
          if (!inB[d] && roomy(d)) {
            inB[d] = 1;
            next.push(d);
          }
        }
      layer = next;
    }
    // Fill holes; a hole holding anything of the other side is a failure.
    const outside = new Uint8Array(GW * GH);
    const stack = [];
    for (let c = 0; c < GW * GH; c++) {
      const i = c % GW, j = Math.floor(c / GW);
      if ((i === 0 || j === 0 || i === GW - 1 || j === GH - 1) && !inB[c]) {
        outside[c] = 1;
        stack.push(c);
      }
    }
    while (stack.length) {
      const c = /** @type {number} */ (stack.pop());
      for (const d of n4(c)) {
        if (!outside[d] && !inB[d]) {
          outside[d] = 1;
          stack.push(d);
        }
      }
    }
    for (let c = 0; c < GW * GH; c++) {
      if (inB[c] || outside[c]) continue;
      if (other[c] < R) return null;
      if (distC && distC[c] < R && !nearEnds(c) && !(mv.f !== mv.h)) return null;
      inB[c] = 1;
    }
    // The blob may not reach the paper's edge (its outline would run along it).
    // Diagonal pinches make the outline touch itself: fill one cell of each.
    for (let round = 0; round < 20; round++) {
      let changed = false;
      for (let j = 0; j + 1 < GH; j++)
        for (let i = 0; i + 1 < GW; i++) {
          const a = j * GW + i, b = a + 1, c = a + GW, d = c + 1;
          if (inB[a] && inB[d] && !inB[b] && !inB[c]) {
            inB[allowed(b) ? b : c] = 1;
            changed = true;
          } else if (inB[b] && inB[c] && !inB[a] && !inB[d]) {
            inB[allowed(a) ? a : d] = 1;
            changed = true;
          }
        }
      if (!changed) break;
    }
    // The outline of the blob, traced clockwise along cell edges.
    /** @type {Map<number, number>} */
    const next = new Map();
    const V = GW + 1;
    let count = 0;
    for (let c = 0; c < GW * GH; c++) {
      if (!inB[c]) continue;
      const i = c % GW, j = Math.floor(c / GW);
      const up = j > 0 && inB[c - GW], down = j + 1 < GH && inB[c + GW], left = i > 0 && inB[c - 1], right = i + 1 < GW && inB[c + 1];
      if (j === 0 || i === 0 || i + 1 === GW || j + 1 === GH) return null;
      if (!up) { next.set(j * V + i, j * V + i + 1); count++; }
      if (!right) { next.set(j * V + i + 1, (j + 1) * V + i + 1); count++; }
      if (!down) { next.set((j + 1) * V + i + 1, (j + 1) * V + i); count++; }
      if (!left) { next.set((j + 1) * V + i, j * V + i); count++; }
    }
    if (next.size !== count || !count) return null;
    const first = /** @type {number} */ (next.keys().next().value);
    /** @type {Pt[]} */
    const outline = [];
    let v = first;
    do {
      outline.push([(v % V) * CS, Math.floor(v / V) * CS]);
      v = /** @type {number} */ (next.get(v));
    } while (v !== first && outline.length <= count);
    if (outline.length !== count) return null;
    return outline;
  }

  /**
   * The outline turned into lines from f to h: pinched to f (and h), and
   * for f != h the half of the outline that does not hug f's boundary.
   * @param {Move} mv @param {Pt[]} outline @param {number} C
   * @returns {Pt[][]}
   */
  pinch(mv, outline, C) {
    const fd = this.field();
    const f = /** @type {Pt} */ (this.spots.get(mv.f)), h = /** @type {Pt} */ (this.spots.get(mv.h));
    const n = outline.length;
    /** @param {Pt} p */
    const nearest = (p) => {
      let best = 0, bd = Infinity;
      for (let k = 0; k < n; k++) {
        const d = Math.hypot(outline[k][0] - p[0], outline[k][1] - p[1]);
        if (d < bd) { bd = d; best = k; }
      }
      return best;
    };
    const kf = nearest(f);
    if (mv.f === mv.h) {
      /** @type {Pt[]} */
      const loop = [f];
      for (let k = 1; k < n; k++) loop.push(outline[(kf + k) % n]);
      loop.push(f);
      return [loop];
    }
    const kh = nearest(h);
    if (kh === kf) return [];
    /** @param {number} from @param {number} to @returns {Pt[]} */
    const walk = (from, to) => {
      /** @type {Pt[]} */
      const out = [];
      for (let k = from; ; k = (k + 1) % n) {
        out.push(outline[k]);
        if (k === to) break;
      }
      return out;
    };
    const one = walk(kf, kh), two = walk(kh, kf).reverse();
    // The half that hugs C runs at about R from it.
    const hug = (/** @type {Pt[]} */ line) => {
      let close = 0;
      for (const p of line) {
        const c = cellAt(p[0] - 0.1, p[1] - 0.1), d = cellAt(p[0] + 0.1, p[1] + 0.1);
        if ([c, d].some((x) => x >= 0 && fd.owner[x] === C && fd.dist[x] < R + CS)) close++;
      }
      return close / Math.max(1, line.length);
    };
    const halves = [one, two].sort((a, b) => hug(a) - hug(b));
    // A half that runs along f's own boundary is that boundary, not a line.
    return halves.filter((half, k) => k === 0 || hug(half) < 0.3).map((half) => [f, ...half.slice(1, -1), h]);
  }

  /**
   * The check that a drawn dividing move means what the text says (rules
   * 5 and 6 of the notation): the listed spots' boundaries on one side, the
   * others on the other; without a list, a new region with no other live
   * spot.
   * @param {Move} mv @param {number} F @param {number[]} islands @param {Set<number>} listed
   * @returns {(d: Drawing) => boolean}
   */
  meaning(mv, F, islands, listed) {
    const before = this.field();
    const C = /** @type {number} */ (before.comp.get(mv.f));
    const live = (/** @type {number} */ s) => (before.degree.get(s) || 0) < 3;
    /** @type {Map<number, number[]>} */
    const spotsOf = new Map();
    for (const [s, secs] of before.sectors) {
      if (!live(s) || !secs.some((x) => x.face === F)) continue;
      const k = /** @type {number} */ (before.comp.get(s));
      if (!spotsOf.has(k)) spotsOf.set(k, []);
      spotsOf.get(k)?.push(s);
    }
    const own = (spotsOf.get(C) || []).filter((s) => s !== mv.f && s !== mv.h);
    return (d) => {
      const fd = d.field();
      const gs = (fd.sectors.get(mv.g) || []).map((s) => s.face);
      if (gs.length !== 2 || gs[0] === gs[1] || gs.includes(-1)) return false;
      const oldFaces = new Set(before.sectors.get(mv.f)?.map((x) => x.face));
      void oldFaces;
      /** The new faces that spot s has corners in (of the two beside the line). */
      const sides = (/** @type {number} */ s) => new Set((fd.sectors.get(s) || []).map((x) => x.face).filter((x) => gs.includes(x)));
      for (const Z of gs) {
        const other = gs[0] === Z ? gs[1] : gs[0];
        let ok = true;
        for (const k of islands) {
          const spots = spotsOf.get(k) || [];
          const want = listed.size ? spots.some((s) => listed.has(s)) ? Z : other : other;
          if (!spots.every((s) => sides(s).has(want) && sides(s).size === 1)) ok = false;
        }
        if (mv.f === mv.h) {
          const want = listed.size && own.some((s) => listed.has(s)) ? Z : other;
          if (!own.every((s) => sides(s).has(want))) ok = false;
        } else if (listed.size) {
          for (const s of own) if (listed.has(s) && !sides(s).has(Z)) ok = false;
        } else {
          // No list: side Z (the new region) holds no live spot of the own boundary.
          for (const s of own) if (sides(s).size === 1 && sides(s).has(Z)) ok = false;
        }
        if (ok) return true;
      }
      return false;
    };
  }
}

/**
 * Non-empty proper subsets of up to four pieces, smallest first.
 * @template T
 * @param {T[]} items
 * @returns {T[][]}
 */
function subsets(items) {
  /** @type {T[][]} */
  const out = [];
  const n = items.length;
  for (let m = 1; m < (1 << n) - (n > 1 ? 1 : 0); m++) {
    out.push(items.filter((_, k) => m & (1 << k)));
  }
  if (!n) out.push([]);
  return out.sort((a, b) => a.length - b.length);
}

/**
 * Draws a whole game from its moves; `positions[k]`, where known, is the
 * position after move k.
 * @param {number} n @param {string[]} moves @param {(string | undefined)[]} [positions]
 * @param {number} [variants] starting arrangements to try; the one with the
 *   fewest approximate moves is kept
 */
export function drawGame(n, moves, positions = [], variants = 1) {
  /** @type {Drawing | null} */
  let best = null;
  for (let v = 0; v < variants; v++) {
    const d = new Drawing(n, v);
    for (let k = 0; k < moves.length; k++) {
      d.apply(moves[k], positions[k]);
      // Worse than the best so far already: stop.
      if (best && d.approximate.length >= best.approximate.length) break;
    }
    if (d.moves.length === moves.length && (!best || d.approximate.length < best.approximate.length)) best = d;
    if (best && !best.approximate.length) break;
  }
  return /** @type {Drawing} */ (best);
}
