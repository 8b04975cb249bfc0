// @ts-check
/**
 * A Sprouts position drawn from its structure alone, and any drawing read
 * back exactly (web/js/games/sprouts-structure.js).
 *
 * The card notation is a combinatorial map: every stack is a boundary walked
 * with its region on the left (docs/rules/sprouts.md), so each line is
 * walked once each way. `layoutPosition` pairs those walks into lines,
 * joins the boundaries of each region by bridges, subdivides every line,
 * and triangulates each region with a ring of helper points and a centre;
 * the result is a triangulated disc whose rim (the ring of the outer
 * region) is put on an ellipse filling the paper. Every other point is then
 * the average of its neighbours (Tutte's barycentric drawing: for a
 * triangulated disc with a convex rim and no chord, straight lines never
 * cross — Tutte 1963, Floater 2003, for any positive weights; the ring's
 * own edges weigh 20, which keeps pieces hanging off one spot or one
 * bridge from shrinking to nothing). The lines are the polylines through
 * their subdivision points, each spot the point of its own; helpers are
 * not drawn. Then `relax` spreads the drawing out (forces) while never
 * changing it combinatorially. The orientation follows the notation, so
 * the `!` flags hold. The caller checks the result (crossings, read back);
 * a drawing with parts too small to show fails that check.
 *
 * `readBack` reads any planar drawing of spots and polylines as the card
 * notation: corners sorted by angle at each spot, faces traced with the
 * face on the left (as the viewer sees the paper), nesting of the pieces by
 * winding numbers. No grid, so lines as close as they like read true.
 *
 * Only arithmetic (no Math.sin/cos), so every browser draws the same.
 */

/** @typedef {[number, number]} Pt */

/**
 * Reads the card notation: rows, stacks, cards. Null if malformed.
 * @param {string} text
 * @returns {number[][][] | null}
 */
export function parsePosition(text) {
  const rows = text.trim().split('/').map((row) => row.split(';').map((st) => st.split(',').map((c) => Number(c.trim()))));
  for (const row of rows) for (const st of row) for (const c of st) if (!Number.isInteger(c) || c < 1) return null;
  return rows;
}

/** A deterministic cosine and sine (Taylor series after range reduction). @param {number} t */
function cosSin(t) {
  const TWO_PI = 6.283185307179586;
  t -= TWO_PI * Math.floor(t / TWO_PI);
  // t in [0, 2pi): reduce to [-pi/4, pi/4] by quadrant.
  const q = Math.floor((t + Math.PI / 4) / (Math.PI / 2));
  const x = t - q * (Math.PI / 2);
  let c = 0, s = 0, term = 1;
  for (let k = 0; k < 14; k++) {
    // term = x^k / k!
    if (k % 4 === 0) c += term;
    else if (k % 4 === 1) s += term;
    else if (k % 4 === 2) c -= term;
    else s -= term;
    term = (term * x) / (k + 1);
  }
  const r = ((q % 4) + 4) % 4;
  return r === 0 ? [c, s] : r === 1 ? [-s, c] : r === 2 ? [-c, -s] : [s, -c];
}

/**
 * Pairs the walks' steps into lines: step (u→v) with a step (v→u), so that
 * the corners at every spot go once round it. Returns the mate of each
 * step, or null if no pairing does.
 * @param {{u: number, v: number, next: number}[]} darts
 * @returns {number[] | null}
 */
function pairDarts(darts) {
  /** @type {Map<string, number[]>} */
  const groups = new Map();
  darts.forEach((d, i) => {
    const k = `${d.u},${d.v}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)?.push(i);
  });
  /** @type {[number[], number[]][]} */
  const pairs = [];
  for (const [k, list] of groups) {
    const [u, v] = k.split(',').map(Number);
    if (u === v) return null;
    if (u > v) continue;
    const back = groups.get(`${v},${u}`) || [];
    if (back.length !== list.length) return null;
    pairs.push([list, back]);
  }
  /** @param {number} n @returns {number[][]} */
  const perms = (n) => {
    if (n <= 1) return [[0]];
    /** @type {number[][]} */
    const out = [];
    for (const p of perms(n - 1)) for (let i = 0; i < n; i++) out.push([...p.slice(0, i), n - 1, ...p.slice(i)]);
    return out;
  };
  const choices = pairs.map(([a]) => perms(a.length));
  const mate = new Array(darts.length).fill(-1);
  const valid = () => {
    // At each spot: out-step x, its mate arrives at the spot, the walk goes
    // on with the next step: the corner. One cycle per spot.
    /** @type {Map<number, number[]>} */
    const outs = new Map();
    darts.forEach((d, i) => {
      if (!outs.has(d.u)) outs.set(d.u, []);
      outs.get(d.u)?.push(i);
    });
    for (const list of outs.values()) {
      let x = list[0], n = 0;
      do {
        x = darts[mate[x]].next;
        n++;
      } while (x !== list[0] && n <= list.length);
      if (n !== list.length || x !== list[0]) return false;
    }
    return true;
  };
  let tries = 0;
  /** @param {number} k @returns {boolean} */
  const search = (k) => {
    if (k === pairs.length) return ++tries < 5000 && valid();
    for (const p of choices[k]) {
      const [a, b] = pairs[k];
      a.forEach((x, i) => {
        mate[x] = b[p[i]];
        mate[b[p[i]]] = x;
      });
      if (search(k + 1)) return true;
      if (tries >= 5000) return false;
    }
    return false;
  };
  return search(0) ? mate : null;
}

/**
 * A planar drawing of a position from its structure, on a paper of w × h;
 * null if the text is not a position this can draw.
 * @param {string} text card notation
 * @param {number} w @param {number} h
 * @param {{sub?: number, outer?: number, rounds?: number, weights?: number[]}} [opts] points per line (3 by
 *   default); which row is outside (default: the one with most corners);
 *   rounds of spreading out (200)
 * @returns {{spots: Map<number, Pt>, curves: {a: number, b: number, pts: Pt[]}[]} | null}
 */
export function layoutPosition(text, w, h, opts = {}) {
  const rows = parsePosition(text);
  if (!rows) return null;
  const S = opts.sub ?? 3;
  /** @type {{u: number, v: number, next: number, row: number}[]} */
  const darts = [];
  /** @type {number[][][]} per row, per stack, its darts (or [-1 - spot] for a lone spot) */
  const walks = [];
  const spotSet = new Set();
  rows.forEach((row, r) => {
    walks.push([]);
    for (const st of row) {
      for (const c of st) spotSet.add(c);
      if (st.length === 1) {
        walks[r].push([-1 - st[0]]);
        continue;
      }
      const first = darts.length;
      st.forEach((c, i) => darts.push({ u: c, v: st[(i + 1) % st.length], next: first + ((i + 1) % st.length), row: r }));
      walks[r].push(st.map((_, i) => first + i));
    }
  });
  const spots = [...spotSet].sort((a, b) => a - b);
  if (spots.length === 1 && !darts.length) return { spots: new Map([[spots[0], /** @type {Pt} */ ([w / 2, h / 2])]]), curves: [] };
  const mate = pairDarts(darts);
  if (!mate) return null;
  // Nodes: spots first, then points along lines and bridges, then helpers.
  /** @type {Map<number, number>} */
  const nodeOf = new Map();
  spots.forEach((s, i) => nodeOf.set(s, i));
  let nodes = spots.length;
  /** @type {[number, number, number][]} edges and their weights */
  const edges = [];
  const [WL, WB, WS, WR, WC] = opts.weights ?? [1, 1, 1, 20, 1];
  /** @type {number[][]} per dart: its nodes from its start, without its end */
  const dartNodes = new Array(darts.length);
  /** @type {{a: number, b: number, nodes: number[]}[]} */
  const lines = [];
  darts.forEach((d, i) => {
    if (dartNodes[i]) return;
    const inner = Array.from({ length: S }, () => nodes++);
    const path = [/** @type {number} */ (nodeOf.get(d.u)), ...inner, /** @type {number} */ (nodeOf.get(d.v))];
    for (let k = 0; k + 1 < path.length; k++) edges.push([path[k], path[k + 1], WL]);
    dartNodes[i] = path.slice(0, -1);
    dartNodes[mate[i]] = [...path].reverse().slice(0, -1);
    lines.push({ a: d.u, b: d.v, nodes: path });
  });
  // Each row's walk: its boundaries joined by bridges from the first.
  /** @type {number[][]} */
  const rowWalks = walks.map((bounds) => {
    /** @param {number[]} b */
    const seq = (b) => (b[0] < 0 ? [/** @type {number} */ (nodeOf.get(-1 - b[0]))] : b.flatMap((x) => dartNodes[x]));
    const L = seq(bounds[0]);
    const anchor = L[0];
    for (let j = 1; j < bounds.length; j++) {
      if (L[L.length - 1] !== anchor || L.length === 1) {
        if (!(L.length === 1 && j === 1)) L.push(anchor);
      }
      const inner = Array.from({ length: S }, () => nodes++);
      const other = seq(bounds[j]);
      const path = [anchor, ...inner, other[0]];
      for (let k = 0; k + 1 < path.length; k++) edges.push([path[k], path[k + 1], WB]);
      L.push(...inner, ...other);
      if (other.length > 1) L.push(other[0]);
      L.push(...[...inner].reverse());
    }
    return L;
  });
  // The outer row: given, else the one with most corners.
  let outer = opts.outer ?? 0;
  if (opts.outer === undefined) rowWalks.forEach((L, r) => { if (L.length > rowWalks[outer].length) outer = r; });
  /** @type {Map<number, Pt>} fixed points: the outer ring */
  const fixed = new Map();
  rowWalks.forEach((L, r) => {
    const k = L.length;
    if (k < 2) return;
    const ring = Array.from({ length: k }, () => nodes++);
    const centre = r === outer ? -1 : nodes++;
    for (let i = 0; i < k; i++) {
      edges.push([ring[i], L[i], WS], [ring[i], L[(i + 1) % k], WS], [ring[i], ring[(i + 1) % k], WR]);
      if (centre >= 0) edges.push([centre, ring[i], WC]);
    }
    if (r === outer) {
      // Clockwise as the viewer sees it (y down): the outer region on the
      // left of its boundary walk.
      ring.forEach((n, i) => {
        const [c, s] = cosSin((2 * Math.PI * (i + 0.5)) / k);
        fixed.set(n, [w / 2 + (w / 2) * 0.98 * c, h / 2 + (h / 2) * 0.98 * s]);
      });
    }
  });
  // Tutte: every free node at the average of its neighbours (conjugate
  // gradients on the Laplacian).
  /** @type {Set<string>} */
  const seen = new Set();
  /** @type {number[][]} */
  const adj = Array.from({ length: nodes }, () => []);
  /** @type {number[][]} */
  const wt = Array.from({ length: nodes }, () => []);
  for (const [a, b, wgt] of edges) {
    const k = a < b ? `${a},${b}` : `${b},${a}`;
    if (a === b || seen.has(k)) continue;
    seen.add(k);
    adj[a].push(b);
    adj[b].push(a);
    wt[a].push(wgt);
    wt[b].push(wgt);
  }
  const X = new Float64Array(nodes), Y = new Float64Array(nodes);
  for (const [n, p] of fixed) { X[n] = p[0]; Y[n] = p[1]; }
  /** @type {number[]} */
  const free = [];
  const idx = new Int32Array(nodes).fill(-1);
  for (let n = 0; n < nodes; n++) if (!fixed.has(n)) { idx[n] = free.length; free.push(n); }
  const m = free.length;
  for (const [coord, out] of /** @type {[Float64Array, Float64Array][]} */ ([[X, X], [Y, Y]])) {
    // A x = b with A = D - A_ff, b = sum of fixed neighbours.
    const b = new Float64Array(m);
    free.forEach((n, i) => adj[n].forEach((q, e) => { if (idx[q] < 0) b[i] += wt[n][e] * coord[q]; }));
    const x = new Float64Array(m);
    /** @param {Float64Array} v @param {Float64Array} o */
    const mul = (v, o) => {
      for (let i = 0; i < m; i++) {
        const n = free[i];
        let s = 0;
        adj[n].forEach((q, e) => {
          s += wt[n][e] * v[i];
          if (idx[q] >= 0) s -= wt[n][e] * v[idx[q]];
        });
        o[i] = s;
      }
    };
    const r = Float64Array.from(b), p = Float64Array.from(b), Ap = new Float64Array(m);
    let rr = 0;
    for (let i = 0; i < m; i++) rr += r[i] * r[i];
    const stop = rr * 1e-26;
    for (let it = 0; it < 4 * m + 100 && rr > stop; it++) {
      mul(p, Ap);
      let pAp = 0;
      for (let i = 0; i < m; i++) pAp += p[i] * Ap[i];
      const alpha = rr / pAp;
      let rr2 = 0;
      for (let i = 0; i < m; i++) {
        x[i] += alpha * p[i];
        r[i] -= alpha * Ap[i];
        rr2 += r[i] * r[i];
      }
      const beta = rr2 / rr;
      rr = rr2;
      for (let i = 0; i < m; i++) p[i] = r[i] + beta * p[i];
    }
    free.forEach((n, i) => { out[n] = x[i]; });
  }
  // The spots and lines, stretched to fill the paper (an affine map keeps
  // the drawing planar), then spread out (relax), rounded to hundredths.
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const l of lines) for (const n of l.nodes) {
    x0 = Math.min(x0, X[n]); x1 = Math.max(x1, X[n]); y0 = Math.min(y0, Y[n]); y1 = Math.max(y1, Y[n]);
  }
  for (let i = 0; i < spots.length; i++) {
    x0 = Math.min(x0, X[i]); x1 = Math.max(x1, X[i]); y0 = Math.min(y0, Y[i]); y1 = Math.max(y1, Y[i]);
  }
  const margin = 40;
  const sx = x1 > x0 ? (w - 2 * margin) / (x1 - x0) : 1, sy = y1 > y0 ? (h - 2 * margin) / (y1 - y0) : 1;
  // The drawn nodes only: spots, then the points of lines.
  /** @type {Map<number, number>} */
  const drawn = new Map();
  spots.forEach((_, i) => drawn.set(i, i));
  for (const l of lines) for (const n of l.nodes) if (!drawn.has(n)) drawn.set(n, drawn.size);
  /** @type {Pt[]} */
  const P = new Array(drawn.size);
  for (const [n, k] of drawn) P[k] = [margin + (X[n] - x0) * sx, margin + (Y[n] - y0) * sy];
  /** @type {[number, number][]} */
  const segs = [];
  for (const l of lines) for (let k = 0; k + 1 < l.nodes.length; k++) segs.push([/** @type {number} */ (drawn.get(l.nodes[k])), /** @type {number} */ (drawn.get(l.nodes[k + 1]))]);
  relax(P, segs, spots.length, w, h, opts.rounds ?? 200);
  /** @param {number} n @returns {Pt} */
  const fin = (n) => {
    const p = P[/** @type {number} */ (drawn.get(n))];
    return [Math.round(p[0] * 100) / 100, Math.round(p[1] * 100) / 100];
  };
  /** @type {Map<number, Pt>} */
  const out = new Map();
  spots.forEach((s, i) => out.set(s, fin(i)));
  return { spots: out, curves: lines.map((l) => ({ a: l.a, b: l.b, pts: l.nodes.map(fin) })) };
}

/** @param {number} x */
const sq = (x) => x * x;

/**
 * Whether segments ab and cd meet (touching counts).
 * @param {Pt} a @param {Pt} b @param {Pt} c @param {Pt} d
 */
function meet(a, b, c, d) {
  /** @param {Pt} p @param {Pt} q @param {Pt} r */
  const o = (p, q, r) => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  const o1 = o(a, b, c), o2 = o(a, b, d), o3 = o(c, d, a), o4 = o(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  /** @param {Pt} p @param {Pt} q @param {Pt} r */
  const on = (p, q, r) => Math.min(p[0], r[0]) <= q[0] && q[0] <= Math.max(p[0], r[0]) && Math.min(p[1], r[1]) <= q[1] && q[1] <= Math.max(p[1], r[1]);
  return (o1 === 0 && on(a, c, b)) || (o2 === 0 && on(a, d, b)) || (o3 === 0 && on(c, a, d)) || (o4 === 0 && on(c, b, d));
}

/** Distance from p to segment ab, and where (0..1). @param {Pt} p @param {Pt} a @param {Pt} b */
function toSeg(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  let t = l2 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return { d: Math.sqrt(sq(a[0] + t * dx - p[0]) + sq(a[1] + t * dy - p[1])), t };
}

/**
 * Spreads a planar straight-line drawing out without ever changing it
 * combinatorially: forces (points apart, lines apart, lines taut and
 * smooth, off the paper's edge), and each point moves only if none of its
 * segments then meets another, nothing else lies in the area they sweep,
 * and it keeps a little clearance. In place.
 * @param {Pt[]} P points (the first `nSpots` are spots)
 * @param {[number, number][]} segs
 * @param {number} nSpots @param {number} w @param {number} h @param {number} rounds
 */
export function relax(P, segs, nSpots, w, h, rounds) {
  const n = P.length;
  /** @type {number[][]} */
  const inc = Array.from({ length: n }, () => []);
  segs.forEach(([a, b], k) => { inc[a].push(k); inc[b].push(k); });
  /** @type {number[][]} */
  const nb = Array.from({ length: n }, () => []);
  for (const [a, b] of segs) { nb[a].push(b); nb[b].push(a); }
  const M = 30, CLEAR = 3;
  // Ideal length of a segment: lines of about 5 segments.
  const L0 = Math.min(60, Math.max(14, Math.sqrt((w * h) / Math.max(1, n)) * 0.55));
  const D0 = 2.2 * L0;
  /** Whether moving point i to q keeps the drawing as it is. @param {number} i @param {Pt} q */
  const ok = (i, q) => {
    if (q[0] < 4 || q[1] < 4 || q[0] > w - 4 || q[1] > h - 4) return false;
    const p = P[i];
    for (let k = 0; k < segs.length; k++) {
      const [a, b] = segs[k];
      if (a === i || b === i) continue;
      // Clearance from the other segments (or at least no closer).
      const dq = toSeg(q, P[a], P[b]).d;
      if (dq < CLEAR && dq < toSeg(p, P[a], P[b]).d) return false;
      if (meet(p, q, P[a], P[b])) return false;
      for (const j of nb[i]) {
        if (a === j || b === j) continue;
        if (meet(q, P[j], P[a], P[b])) return false;
      }
    }
    for (let r = 0; r < n; r++) {
      if (r === i) continue;
      for (const j of nb[i]) {
        if (r === j) continue;
        // Nothing in the swept triangle p, q, j, and clear of the new segment.
        const dr = toSeg(P[r], q, P[j]).d;
        if (dr < CLEAR && dr < toSeg(P[r], p, P[j]).d) return false;
        const s1 = (q[0] - p[0]) * (P[r][1] - p[1]) - (q[1] - p[1]) * (P[r][0] - p[0]);
        const s2 = (P[j][0] - q[0]) * (P[r][1] - q[1]) - (P[j][1] - q[1]) * (P[r][0] - q[0]);
        const s3 = (p[0] - P[j][0]) * (P[r][1] - P[j][1]) - (p[1] - P[j][1]) * (P[r][0] - P[j][0]);
        if ((s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)) return false;
      }
    }
    return true;
  };
  const F = new Float64Array(2 * n);
  for (let round = 0; round < rounds; round++) {
    const temp = Math.max(1, 0.25 * L0 * (1 - round / rounds));
    F.fill(0);
    for (let i = 0; i < n; i++) {
      const p = P[i];
      // Points apart.
      for (let j = i + 1; j < n; j++) {
        let dx = p[0] - P[j][0], dy = p[1] - P[j][1];
        // Points on top of each other: apart in a fixed direction.
        if (dx * dx + dy * dy < 1e-12) { dx = 1e-3 * (((i * 7 + j * 13) % 17) - 8); dy = 1e-3 * (((i * 11 + j * 5) % 13) - 6.5); }
        const d2 = dx * dx + dy * dy;
        if (d2 >= D0 * D0) continue;
        const d = Math.sqrt(d2) || 0.01;
        const f = (i < nSpots || j < nSpots ? 1.5 : 1) * (D0 / d - 1) * 0.3;
        F[2 * i] += (f * dx) / d; F[2 * i + 1] += (f * dy) / d;
        F[2 * j] -= (f * dx) / d; F[2 * j + 1] -= (f * dy) / d;
      }
      // Off the paper's edge.
      if (p[0] < M) F[2 * i] += (M - p[0]) * 0.2;
      if (p[0] > w - M) F[2 * i] -= (p[0] - (w - M)) * 0.2;
      if (p[1] < M) F[2 * i + 1] += (M - p[1]) * 0.2;
      if (p[1] > h - M) F[2 * i + 1] -= (p[1] - (h - M)) * 0.2;
      // Lines smooth: a line's point toward the middle of its neighbours.
      if (i >= nSpots && nb[i].length === 2) {
        const a = P[nb[i][0]], b = P[nb[i][1]];
        F[2 * i] += ((a[0] + b[0]) / 2 - p[0]) * 0.15;
        F[2 * i + 1] += ((a[1] + b[1]) / 2 - p[1]) * 0.15;
      }
    }
    // Lines taut.
    for (const [a, b] of segs) {
      const dx = P[b][0] - P[a][0], dy = P[b][1] - P[a][1];
      const d = Math.sqrt(dx * dx + dy * dy) || 0.01;
      const f = ((d - L0) / L0) * 0.8;
      F[2 * a] += (f * dx) / d; F[2 * a + 1] += (f * dy) / d;
      F[2 * b] -= (f * dx) / d; F[2 * b + 1] -= (f * dy) / d;
    }
    // Points away from other lines.
    const D1 = 0.9 * L0;
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < segs.length; k++) {
        const [a, b] = segs[k];
        if (a === i || b === i) continue;
        const { d, t } = toSeg(P[i], P[a], P[b]);
        if (d >= D1) continue;
        const c = [P[a][0] + t * (P[b][0] - P[a][0]), P[a][1] + t * (P[b][1] - P[a][1])];
        const dd = d || 0.01;
        const f = (D1 / dd - 1) * 0.5;
        const ux = (P[i][0] - c[0]) / dd, uy = (P[i][1] - c[1]) / dd;
        F[2 * i] += f * ux; F[2 * i + 1] += f * uy;
        F[2 * a] -= f * ux * (1 - t) * 0.5; F[2 * a + 1] -= f * uy * (1 - t) * 0.5;
        F[2 * b] -= f * ux * t * 0.5; F[2 * b + 1] -= f * uy * t * 0.5;
      }
    }
    for (let i = 0; i < n; i++) {
      let dx = F[2 * i] * 4, dy = F[2 * i + 1] * 4;
      const l = Math.sqrt(dx * dx + dy * dy);
      if (l > temp) { dx *= temp / l; dy *= temp / l; }
      for (let tryk = 0; tryk < 3 && (dx || dy); tryk++) {
        /** @type {Pt} */
        const q = [P[i][0] + dx, P[i][1] + dy];
        if (ok(i, q)) { P[i] = q; break; }
        dx /= 2; dy /= 2;
      }
    }
  }
}

/**
 * A planar drawing read as the card notation (rows of stacks, each stack
 * its boundary walked with the region on the left).
 * @param {Map<number, Pt>} spots
 * @param {{a: number, b: number, pts: Pt[]}[]} curves
 * @returns {number[][][]}
 */
export function readBack(spots, curves) {
  // Darts: 2k forward along curve k, 2k+1 backward.
  /** @type {Map<number, {d: number, ang: number}[]>} */
  const outs = new Map();
  for (const s of spots.keys()) outs.set(s, []);
  /** @param {Pt} p @param {Pt[]} pts */
  const angle = (p, pts) => {
    for (const q of pts) if (q[0] !== p[0] || q[1] !== p[1]) return Math.atan2(q[1] - p[1], q[0] - p[0]);
    return 0;
  };
  curves.forEach((c, k) => {
    outs.get(c.a)?.push({ d: 2 * k, ang: angle(c.pts[0], c.pts.slice(1)) });
    outs.get(c.b)?.push({ d: 2 * k + 1, ang: angle(c.pts[c.pts.length - 1], [...c.pts].reverse().slice(1)) });
  });
  /** @param {number} d */
  const from = (d) => (d % 2 ? curves[d >> 1].b : curves[d >> 1].a);
  /** @param {number} d @returns {Pt[]} */
  const ptsOf = (d) => (d % 2 ? [...curves[d >> 1].pts].reverse() : curves[d >> 1].pts);
  /** @type {Map<number, number>} the out-dart after each, by growing angle */
  const after = new Map();
  for (const list of outs.values()) {
    list.sort((x, y) => x.ang - y.ang);
    list.forEach((x, i) => after.set(x.d, list[(i + 1) % list.length].d));
  }
  // Faces: arriving by dart d at a spot, leave by the out-dart after d's
  // reverse (the face on the viewer's left).
  const done = new Uint8Array(2 * curves.length);
  /** @type {{walk: number[], poly: Pt[], area: number}[][]} per component, its faces */
  /** @type {Map<number, number>} */
  const comp = new Map();
  /** @param {number} x @returns {number} */
  const find = (x) => {
    let p = comp.get(x) ?? x;
    while (p !== (comp.get(p) ?? p)) p = comp.get(p) ?? p;
    return p;
  };
  for (const c of curves) {
    const a = find(c.a), b = find(c.b);
    if (a !== b) comp.set(Math.max(a, b), Math.min(a, b));
  }
  /** @type {Map<number, {walk: number[], poly: Pt[], area: number}[]>} */
  const faces = new Map();
  for (const s of spots.keys()) if (!faces.has(find(s))) faces.set(find(s), []);
  for (let d0 = 0; d0 < 2 * curves.length; d0++) {
    if (done[d0]) continue;
    /** @type {number[]} */
    const walk = [];
    /** @type {Pt[]} */
    const poly = [];
    let d = d0, n = 0;
    while (!done[d] && n++ <= 2 * curves.length) {
      done[d] = 1;
      walk.push(from(d));
      poly.push(...ptsOf(d).slice(0, -1));
      d = /** @type {number} */ (after.get(d ^ 1));
    }
    let area = 0;
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i], q = poly[(i + 1) % poly.length];
      area += p[0] * q[1] - q[0] * p[1];
    }
    faces.get(find(from(d0)))?.push({ walk, poly, area: area / 2 });
  }
  // Each piece: its outer walk (the greatest signed area: walked clockwise
  // as seen, y down; a lone spot its own), and its
  // bounded faces.
  /** @param {Pt[]} poly @param {Pt} p */
  const winding = (poly, p) => {
    let wn = 0;
    for (let i = 0; i < poly.length; i++) {
      const a = poly[i], b = poly[(i + 1) % poly.length];
      const cr = (b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1]);
      if (a[1] <= p[1]) { if (b[1] > p[1] && cr > 0) wn++; }
      else if (b[1] <= p[1] && cr < 0) wn--;
    }
    return wn;
  };
  /** @type {{key: number, outer: number[], bounded: {walk: number[], poly: Pt[], area: number}[], at: Pt}[]} */
  const pieces = [];
  for (const [key, fs] of faces) {
    const at = /** @type {Pt} */ (spots.get(key));
    if (!fs.length) { pieces.push({ key, outer: [key], bounded: [], at }); continue; }
    let o = 0;
    fs.forEach((f, i) => { if (f.area > fs[o].area) o = i; });
    pieces.push({ key, outer: fs[o].walk, bounded: fs.filter((_, i) => i !== o), at });
  }
  /** @type {Map<string, number[][]>} rows by where they are: 'out' or piece:face */
  const rows = new Map([['out', []]]);
  pieces.forEach((P, i) => P.bounded.forEach((f, j) => rows.set(`${i}:${j}`, [f.walk])));
  for (const P of pieces) {
    let best = 'out', bestArea = Infinity;
    pieces.forEach((Q, i) => {
      if (Q === P) return;
      Q.bounded.forEach((f, j) => {
        if (Math.abs(f.area) < bestArea && winding(f.poly, P.at) !== 0) { best = `${i}:${j}`; bestArea = Math.abs(f.area); }
      });
    });
    rows.get(best)?.push(P.outer);
  }
  return [...rows.values()].filter((r) => r.length);
}

/**
 * Rows of stacks as a key that keeps the cyclic order of each boundary
 * (rotations are equal) but not the order of rows or stacks.
 * @param {number[][][]} rows
 */
export function orientedKey(rows) {
  /** @param {number[]} st */
  const least = (st) => {
    let best = st.join(',');
    for (let i = 1; i < st.length; i++) {
      const s = [...st.slice(i), ...st.slice(0, i)].join(',');
      if (s < best) best = s;
    }
    return best;
  };
  return rows.map((row) => row.map(least).sort().join(';')).sort().join('/');
}
