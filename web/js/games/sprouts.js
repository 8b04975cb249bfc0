// @ts-check
/**
 * Sprouts' page: the paper as the server draws it (SVG: the view's
 * `drawing`, every spot's place and every line's polyline), and moves
 * drawn on it freehand: a stroke from a live spot to a live spot (or back
 * to itself) with a mouse, a finger or a pen, smoothed and sent as the
 * move's curve. The stroke's shape decides the move and the server judges
 * it: a stroke that crosses a line, itself or a spot comes back refused
 * with the place, marked on the paper. The legal moves as a plain list too
 * (for a keyboard: the server draws the chosen one); the record beside the
 * drawing, copyable.
 *
 * Actions and view: crates/sprouts/src/game.rs (an action is the move's
 * WGOSA text or `{"curve": [[x, y], ...]}`; the view has `moves`, `words`
 * (each move in words), `position`, `spot_lives` (lives left per spot, 0:
 * dead), `drawing`, `record`, `to_move`, `winner`). Which spots are alive,
 * what a line encloses and where it runs come from the view: the page
 * never counts lines nor places one itself.
 */
import { h, replace } from '../dom.js';

/** The paper's size in the drawing's units (the view's coordinates, y down). */
const W = 960, H = 640;

/** @typedef {[number, number]} Pt */
/**
 * A line of the server's drawing: from spot `a` to spot `b`, drawn by move
 * `move` (0-based).
 * @typedef {{a: number, b: number, pts: Pt[], move: number}} Line
 * @typedef {{spots: Map<number, Pt>, lines: Line[], unplaced: Line[], approximate: number[]}} Paper
 */

/** @type {import('../settings.js').LobbyHooks} */
export const lobby = {
  prefix: 'sp',
  note: 'Draw a line from a spot to a spot (or to itself) and put a new spot on it; a spot takes at most three lines. Normal play: whoever moves last wins; misère: loses.',
};

const SVGNS = 'http://www.w3.org/2000/svg';
/**
 * @param {string} tag @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function svg(tag, attrs = {}) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVGNS, tag));
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** @param {Pt[]} pts */
const pathD = (pts) => pts.map((p, i) => `${i ? 'L' : 'M'}${p[0]} ${p[1]}`).join(' ');

/** How far from a spot's centre a press or release still counts as on it (the server's snapping distance). */
const HIT = 22;
/** Stroke points closer than this to the last one kept are dropped before smoothing. */
const GAP = 3;
/** The most points a curve may have (the server's bound: crates/sprouts/src/drawing/stroke.rs). */
const MAX_POINTS = 500;
/** The most raw points one stroke keeps while drawn (a pen can send hundreds a second). */
const MAX_RAW = 20000;

/** @param {Pt} p @param {Pt} q */
const dist = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1]);
/** @param {Pt} p @param {Pt} q @param {number} t @returns {Pt} */
const lerp = (p, q, t) => [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t];
/** To a tenth of a unit: finer than a pen, and short in the message. @param {Pt} p @returns {Pt} */
const tenth = (p) => [Math.round(p[0] * 10) / 10, Math.round(p[1] * 10) / 10];

/**
 * A stroke as it is sent: from spot centre `a` through the drawn points to
 * spot centre `b`, points closer than GAP dropped (a shaking hand, a pen's
 * flood of events), then one pass of Chaikin's corner cutting, the ends
 * kept on the spots; at most MAX_POINTS points (the gap doubled until it
 * fits).
 * @param {Pt[]} raw @param {Pt} a @param {Pt} b @returns {Pt[]}
 */
export function smoothStroke(raw, a, b) {
  for (let gap = GAP; ; gap *= 2) {
    /** @type {Pt[]} */
    const kept = [a];
    for (const p of raw) if (dist(p, kept[kept.length - 1]) >= gap) kept.push(p);
    while (kept.length > 1 && dist(kept[kept.length - 1], b) < gap) kept.pop();
    kept.push(b);
    /** @type {Pt[]} */
    const out = [kept[0]];
    for (let i = 0; i + 1 < kept.length; i++) {
      if (i > 0) out.push(lerp(kept[i], kept[i + 1], 0.25));
      if (i + 2 < kept.length) out.push(lerp(kept[i], kept[i + 1], 0.75));
    }
    out.push(kept[kept.length - 1]);
    if (out.length <= MAX_POINTS) return out.map(tenth);
  }
}

/**
 * The point halfway along a polyline by length (where the server puts the
 * new spot of a stroke).
 * @param {Pt[]} pts @returns {Pt}
 */
function middle(pts) {
  let total = 0;
  for (let i = 1; i < pts.length; i++) total += dist(pts[i - 1], pts[i]);
  let left = total / 2;
  for (let i = 1; i < pts.length; i++) {
    const d = dist(pts[i - 1], pts[i]);
    if (d >= left && d > 0) return lerp(pts[i - 1], pts[i], left / d);
    left -= d;
  }
  return pts[0];
}

/**
 * A move's spots in WGOSA notation: its ends, its new spot, the spot its
 * `@` names and the spots its `[list]` names (ranges as `3-5`); null for
 * anything else.
 * @param {string} text
 */
function moveSpots(text) {
  const m = /^\s*(\d+)!?\((\d+)(?:@(\d+))?\)!?(\d+)!?(?:\[([0-9,\s-]*)\])?\s*$/.exec(text);
  if (!m) return null;
  /** @type {number[]} */
  const listed = [];
  for (const part of (m[5] || '').split(',')) {
    const r = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
    if (!r) continue;
    const lo = Number(r[1]), hi = r[2] ? Number(r[2]) : lo;
    for (let k = lo; k <= hi && k - lo < 1000; k++) listed.push(k);
  }
  return { f: Number(m[1]), g: Number(m[2]), h: Number(m[4]), others: [...(m[3] ? [Number(m[3])] : []), ...listed] };
}

/**
 * The server's drawing (the view's `drawing`, or a shown position's) as
 * the page keeps it, up to `moves` moves where a replay shows an earlier
 * step of a longer drawing; null when it is missing or not of that shape.
 * @param {any} d @param {number} spots the game's starting spots
 * @param {number | null} moves @returns {Paper | null}
 */
function paperOf(d, spots, moves) {
  if (!d || typeof d !== 'object' || !d.spots || typeof d.spots !== 'object') return null;
  const upTo = (/** @type {any} */ l) => moves === null || typeof l.move !== 'number' || l.move < moves;
  /** @param {any} list @returns {Line[]} */
  const lines = (list) => (Array.isArray(list) ? list : []).filter((l) => l && Array.isArray(l.pts) && upTo(l));
  /** @type {Map<number, Pt>} */
  const at = new Map();
  for (const [k, p] of Object.entries(d.spots)) {
    const s = Number(k);
    if (Array.isArray(p) && (moves === null || s <= spots + moves)) at.set(s, /** @type {Pt} */ (p));
  }
  const approximate = (Array.isArray(d.approximate) ? d.approximate : []).filter((/** @type {any} */ k) => typeof k === 'number' && (moves === null || k < moves));
  return { spots: at, lines: lines(d.lines), unplaced: lines(d.unplaced), approximate };
}

/**
 * A spot's mark, by its lives: a filled dot while it has lives left, a
 * hollow ring crossed out once dead (the shape differs, not only the
 * colour), a plain dot when the page has no word on its lives.
 * @param {number | null} lives @returns {SVGElement[]}
 */
function spotShape(lives) {
  if (lives !== 0) return [svg('circle', { r: 7, class: 'sp-dot' })];
  return [svg('circle', { r: 8, class: 'sp-dot' }), svg('path', { d: 'M-5 -5 L5 5 M-5 5 L5 -5', class: 'sp-cross' })];
}

/** @param {import('../play.js').PageContext} ctx */
export function mount(ctx) {
  /** @type {import('../api.js').StateMsg | null} */
  let st = null;
  /** @type {Paper | null} the game's drawing as the last view has it */
  let paper = null;
  /**
   * The stroke being drawn: the spot it starts on, the pointer drawing it
   * and its points so far (paper units).
   * @type {{from: number, pointer: number, raw: Pt[]} | null}
   */
  let stroke = null;
  /** @type {Pt[] | null} a stroke sent, shown until the server answers */
  let sent = null;
  /** @type {Pt | null} where the server refused the last stroke */
  let refusedAt = null;
  /** @type {Paper | null} a pasted position shown instead of the game (read only) */
  let shown = null;
  /** What the paper shows: the pasted position, else the game. */
  const current = () => shown || paper;

  const status = h('h2', { id: 'sp-status', class: 'status', 'aria-live': 'polite' });
  const rules = h('p', { id: 'sp-rules' });
  // A group, not an image: each spot is focusable and says its lives.
  const board = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (svg('svg', { id: 'sp-board', viewBox: `0 0 ${W} ${H}`, role: 'group', 'aria-label': 'The paper: spots and lines' })));
  board.classList.add('sp-board');
  const linesG = svg('g', { class: 'sp-lines' });
  const strokeG = svg('g', { class: 'sp-drag' });
  const spotsG = svg('g', { class: 'sp-spots' });
  const markG = svg('g', { class: 'sp-marks' });
  board.append(linesG, strokeG, spotsG, markG);
  const note = h('p', { id: 'sp-note', class: 'note' });
  /** A spot as the paper draws it, for the legend. @param {'live' | 'dead'} kind */
  const spotIcon = (kind) => {
    const icon = svg('svg', { viewBox: '-11 -11 22 22', width: 20, height: 20, 'aria-hidden': 'true', class: 'sp-icon' });
    const g = svg('g', { class: `sp-spot ${kind}` });
    g.append(...spotShape(kind === 'live' ? 1 : 0));
    icon.append(g);
    return icon;
  };
  const legend = h('p', { id: 'sp-legend', class: 'sp-legend note' },
    h('span', { class: 'sp-key' }, spotIcon('live'), h('span', null, 'live spot: a dot after its number per life left (point at it or focus it for its lives)')),
    h('span', { class: 'sp-key' }, spotIcon('dead'), h('span', null, 'dead spot: three lines, no line may start or end there')));
  const legalEl = h('ol', { id: 'sp-legal', class: 'sp-legal' });
  const legalBox = h('details', { id: 'sp-legal-box' }, h('summary', null, 'Legal moves'),
    h('p', { class: 'note' }, 'One move of each kind (a mirror image is the same kind): click one to play it, drawn where the server finds room.'), legalEl);
  const record = /** @type {HTMLTextAreaElement} */ (h('textarea', { id: 'sp-record', readonly: true, rows: 4, cols: 36, 'aria-label': 'The game record in WGOSA notation', spellcheck: false }));
  const copyBtn = h('button', {
    type: 'button',
    id: 'sp-copy',
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(record.value);
        ctx.toast('Record copied.');
      } catch {
        // No clipboard permission (an http page, a locked browser): select
        // it, so Ctrl+C copies.
        record.focus();
        record.select();
        ctx.toast('Press Ctrl+C to copy the selected record.');
      }
    },
  }, 'Copy the record');
  // The position in the card notation: copyable, and a pasted one can be
  // shown on the paper (drawn by the server from its structure; a table
  // itself starts only from a record).
  const posText = /** @type {HTMLTextAreaElement} */ (h('textarea', { id: 'sp-position', rows: 3, cols: 36, style: 'width: 100%; font-family: ui-monospace, monospace', 'aria-label': 'A position in the card notation', spellcheck: false }));
  const showBtn = h('button', {
    type: 'button',
    id: 'sp-show',
    onclick: async () => {
      let why = 'the server drew nothing';
      try {
        const a = await ctx.assist({ draw: posText.value });
        const d = a && paperOf(a.drawing, 0, null);
        if (d) {
          shown = d;
          endStroke();
          drawPaper();
          return;
        }
        if (a && typeof a.error === 'string') why = a.error;
        else if (a && typeof a.message === 'string') why = a.message;
      } catch (e) {
        why = /** @type {Error} */ (e).message;
      }
      ctx.showError(`That position cannot be shown: ${why}`);
    },
  }, 'Show this position');
  const movesEl = h('ol', { id: 'sp-moves', class: 'sp-moves' });
  // After the game: the solver's verdict on each move (the game's helper,
  // which answers only once the game is over), by move number.
  /** @type {Map<number, any>} */
  let verdicts = new Map();
  /** The record the verdicts are for. */
  let verdictsFor = '';
  const verdictNote = h('p', { class: 'note', id: 'sp-verdict-note' });
  const verdictBtn = h('button', {
    type: 'button',
    id: 'sp-verdicts',
    hidden: true,
    onclick: async () => {
      if (!st) return;
      const forRecord = st.view.record;
      verdictNote.textContent = '… the solver is looking at every move';
      try {
        const a = await ctx.assist({});
        verdicts = new Map(a.moves.map((/** @type {any} */ m) => [m.number, m]));
        verdictsFor = forRecord;
        const mistakes = a.moves.filter((/** @type {any} */ m) => m.mistake).length;
        const start = a.first_player_wins === true ? 'the first player wins' : a.first_player_wins === false ? 'the second player wins' : 'unknown';
        verdictNote.textContent = `With perfect play from the start ${start}. ${mistakes ? `${mistakes} move${mistakes > 1 ? 's' : ''} gave the win away (✗).` : 'No move gave the win away.'}${a.complete ? '' : ' Some positions took the solver too long: marked ?.'}`;
      } catch (e) {
        verdictNote.textContent = `⚠ ${/** @type {Error} */ (e).message}`;
      }
      drawSide();
    },
  }, 'Solver’s verdict on each move');
  // Resigning is only for the seat to move (the rules take it from no one else).
  const resignBtn = h('button', {
    type: 'button',
    id: 'sp-resign',
    class: 'danger',
    hidden: true,
    onclick: async () => {
      if (await ctx.confirm('Resign this game? Your opponent wins.', 'Resign')) ctx.act('resign').catch(() => {});
    },
  }, '⚐ Resign');
  const help = h('p', { class: 'note', id: 'sp-help' }, 'Draw a line from a live spot to a live spot (or out and back to the same spot) with the mouse, a finger or a pen: where you draw it decides the move. Without a pointer: choose from “Legal moves”.');

  replace(
    ctx.root,
    h('div', { class: 'sp-page' },
      h('div', { class: 'sp-main' }, status, rules, h('div', { class: 'sp-paper' }, board), legend, note, help, resignBtn),
      h('aside', { class: 'sp-side' },
        h('h3', null, 'Record (WGOSA)'), record, h('div', { class: 'row' }, copyBtn),
        h('h3', null, 'Position (cards)'), posText, h('div', { class: 'row' }, showBtn),
        h('h3', null, 'Moves'), movesEl, verdictBtn, verdictNote,
        legalBox)),
  );

  const myTurn = () => !!st && st.view && ctx.mySeat !== null && st.view.to_move === ctx.mySeat && !(ctx.waitingFor().length);
  /** @returns {string[]} */
  const legal = () => (myTurn() && st && Array.isArray(st.legal) ? st.legal.filter((t) => typeof t === 'string') : []);

  /**
   * A spot's lives left as the server's view tells them (the rules are
   * judged there), or null where the page has no word on it: a pasted
   * position, or a server whose view does not say.
   * @param {number} s @returns {number | null}
   */
  function livesOf(s) {
    if (shown || !st || !st.view || !st.view.spot_lives) return null;
    const l = st.view.spot_lives[String(s)];
    return typeof l === 'number' ? l : null;
  }

  /** @param {any} action */
  async function play(action) {
    try {
      await ctx.act(action);
    } catch {
      // The shell shows the server's reason (and `error` below marks where).
    }
  }

  /** Marks spots (a move's ends and the spots it names) on the paper. @param {number[]} spots */
  function highlight(spots) {
    for (const el of spotsG.querySelectorAll('.sp-spot')) {
      el.classList.toggle('hl', spots.includes(Number(/** @type {SVGElement} */ (el).dataset.spot)));
    }
  }

  /** @param {string} text */
  function spotsOf(text) {
    const m = moveSpots(text);
    return m ? [m.f, m.h, ...m.others] : [];
  }

  /**
   * A pointer's place on the paper, in the drawing's units (outside the
   * paper too, while a captured stroke wanders off it).
   * @param {{clientX: number, clientY: number}} e @returns {Pt}
   */
  function toPaper(e) {
    const m = board.getScreenCTM();
    if (m) {
      const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
      return [p.x, p.y];
    }
    const r = board.getBoundingClientRect();
    return [((e.clientX - r.left) / r.width) * W, ((e.clientY - r.top) / r.height) * H];
  }

  /** Kept on the paper (the server takes no point outside it). @param {Pt} p @returns {Pt} */
  const onPaper = (p) => [Math.min(W, Math.max(0, p[0])), Math.min(H, Math.max(0, p[1]))];

  /**
   * The spot under a point, if any: the nearest one not dead, else the
   * nearest dead one (a press there is told why nothing starts).
   * @param {Pt} p @returns {{spot: number, dead: boolean} | null}
   */
  function spotAt(p) {
    if (!paper) return null;
    /** @type {{spot: number, dead: boolean} | null} */
    let best = null, bd = HIT;
    /** @type {number | null} */
    let dead = null, dd = HIT;
    for (const [s, q] of paper.spots) {
      const d = dist(p, q);
      if (livesOf(s) === 0) {
        if (d < dd) { dd = d; dead = s; }
      } else if (d < bd) { bd = d; best = { spot: s, dead: false }; }
    }
    return best || (dead === null ? null : { spot: dead, dead: true });
  }

  /** @param {number} s @param {string} instead what to do instead */
  const deadSpot = (s, instead) => ctx.showError(`Spot ${s} is dead (three lines): ${instead}.`);

  /** Drops the stroke being drawn and the one waiting for the server. */
  function endStroke() {
    if (stroke && board.hasPointerCapture(stroke.pointer)) board.releasePointerCapture(stroke.pointer);
    stroke = null;
    sent = null;
    drawStroke();
    highlight([]);
  }

  board.addEventListener('pointerdown', (e) => {
    if (!myTurn() || shown || stroke || sent || !e.isPrimary) return;
    const p = toPaper(e);
    const hit = spotAt(p);
    if (hit === null) return;
    e.preventDefault();
    refusedAt = null;
    drawMark();
    if (hit.dead) {
      deadSpot(hit.spot, 'start from a live spot');
      return;
    }
    // Captured: a stroke that leaves the paper on its way still ends
    // where the pointer is let go.
    board.setPointerCapture(e.pointerId);
    stroke = { from: hit.spot, pointer: e.pointerId, raw: [p] };
    highlight([hit.spot]);
    drawStroke();
  });
  board.addEventListener('pointermove', (e) => {
    if (!stroke || e.pointerId !== stroke.pointer) return;
    e.preventDefault();
    // A pen or a finger reports more points than frames: every one counts.
    const events = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
    for (const c of events.length ? events : [e]) {
      const p = toPaper(c);
      if (stroke.raw.length < MAX_RAW && dist(p, stroke.raw[stroke.raw.length - 1]) >= 1) stroke.raw.push(p);
    }
    const over = spotAt(stroke.raw[stroke.raw.length - 1]);
    highlight(over === null || over.dead ? [stroke.from] : [stroke.from, over.spot]);
    drawStroke();
  });
  board.addEventListener('pointerup', (e) => {
    if (!stroke || e.pointerId !== stroke.pointer || !paper) return;
    const { from, raw } = stroke;
    raw.push(toPaper(e));
    stroke = null;
    const start = /** @type {Pt} */ (paper.spots.get(from));
    const end = spotAt(raw[raw.length - 1]);
    // A loop has to leave its spot first: a click is not one.
    const wandered = raw.some((q) => dist(q, start) > HIT * 2);
    if (end === null) {
      endStroke();
      ctx.showError('A line ends on a spot: draw it to a live spot (or back to the one it starts from).');
      return;
    }
    if (end.spot === from && !wandered) {
      endStroke();
      return;
    }
    // A stroke to a dead spot goes to the server like any other, which
    // says so.
    sent = smoothStroke(raw.map(onPaper), start, /** @type {Pt} */ (paper.spots.get(end.spot)));
    highlight([from, end.spot]);
    drawStroke();
    play({ curve: sent });
  });
  const cancel = (/** @type {PointerEvent} */ e) => {
    if (stroke && e.pointerId === stroke.pointer) endStroke();
  };
  board.addEventListener('pointercancel', cancel);
  board.addEventListener('lostpointercapture', cancel);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && stroke) endStroke();
  });

  /** The stroke being drawn (as drawn) or the one sent (smoothed, with its new spot where the server will put it). */
  function drawStroke() {
    strokeG.replaceChildren();
    if (stroke && paper) {
      const start = paper.spots.get(stroke.from);
      strokeG.append(svg('path', { d: pathD(start ? [start, ...stroke.raw] : stroke.raw), class: 'sp-stroke' }));
    } else if (sent) {
      const mid = middle(sent);
      strokeG.append(svg('path', { d: pathD(sent), class: 'sp-stroke sent' }), svg('circle', { cx: mid[0], cy: mid[1], r: 7, class: 'sp-new' }));
    }
    board.dataset.stroke = stroke ? 'drawing' : sent ? 'sent' : 'none';
  }

  /** A red ring where the server refused the last stroke. */
  function drawMark() {
    markG.replaceChildren();
    if (refusedAt) markG.append(svg('circle', { cx: refusedAt[0], cy: refusedAt[1], r: 16, class: 'sp-refused' }));
    board.dataset.refused = refusedAt ? refusedAt.join(',') : '';
  }

  function drawPaper() {
    const d = current();
    linesG.replaceChildren();
    spotsG.replaceChildren();
    board.dataset.shown = shown ? 'position' : 'game';
    if (!d) {
      board.dataset.approximate = '0';
      replace(note, st ? '⚠ The server sent no drawing of this game.' : '');
      return;
    }
    const moves = shown || !st ? 0 : st.view.moves.length;
    const approx = new Set(d.approximate);
    const newest = !shown && st && moves ? moveSpots(st.view.moves[moves - 1]) : null;
    for (const [list, extra] of /** @type {[Line[], string][]} */ ([[d.lines, ''], [d.unplaced, ' unplaced']])) {
      for (const c of list) {
        const move = typeof c.move === 'number' ? c.move : -1;
        const el = svg('path', { d: pathD(c.pts), class: `sp-line${extra}${approx.has(move) ? ' approx' : ''}${!shown && move === moves - 1 ? ' newest' : ''}` });
        el.dataset.move = String(move + 1);
        linesG.append(el);
      }
    }
    for (const [s, p] of d.spots) {
      const lives = livesOf(s);
      const kind = lives === null ? '' : lives > 0 ? ' live' : ' dead';
      const said = lives === null ? `spot ${s}` : lives > 0 ? `spot ${s}: ${lives} ${lives === 1 ? 'life' : 'lives'} left` : `spot ${s}: dead (three lines)`;
      // Focusable, so a keyboard reaches each spot's lives as a pointer does.
      const g = svg('g', { class: `sp-spot${kind}${newest && newest.g === s ? ' newest' : ''}`, transform: `translate(${p[0]} ${p[1]})`, tabindex: 0, role: 'img', 'aria-label': said });
      g.dataset.spot = String(s);
      if (lives !== null) g.dataset.lives = String(lives);
      const title = svg('title');
      title.textContent = said;
      g.append(title, svg('circle', { r: HIT, class: 'sp-hit' }), ...spotShape(lives));
      // Labels keep inside the paper: a spot at its right or top edge has
      // its number on the other side.
      const label = svg('text', { x: p[0] > W - 60 ? -10 : 10, y: p[1] < 30 ? 24 : -10, class: `sp-label${p[0] > W - 60 ? ' left' : ''}` });
      // Lives are written and drawn as well as coloured: colour never
      // carries meaning alone.
      label.textContent = lives ? `${s}${'·'.repeat(lives)}` : String(s);
      g.append(label);
      if (lives !== null) {
        const tip = svg('text', { x: p[0] > W - 140 ? -10 : 10, y: p[1] < 30 ? 44 : p[1] > H - 36 ? -30 : 26, class: `sp-tip${p[0] > W - 140 ? ' left' : ''}` });
        tip.textContent = lives > 0 ? `${lives} ${lives === 1 ? 'life' : 'lives'} left` : 'dead';
        g.append(tip);
      }
      spotsG.append(g);
    }
    board.dataset.approximate = String(d.approximate.length);
    if (shown) {
      replace(note, 'Showing the pasted position, drawn from its structure (not this game; nothing can be played on it). ', h('button', { type: 'button', id: 'sp-back', onclick: () => { shown = null; drawPaper(); } }, 'Back to the game'));
      return;
    }
    replace(note, d.approximate.length || d.unplaced.length
      ? `⚠ The drawing${d.approximate.length ? ` of move${d.approximate.length > 1 ? 's' : ''} ${d.approximate.map((k) => k + 1).join(', ')} (dashed)` : ''} is approximate: the record and the legal moves are right, the lines there may not show the regions exactly${d.unplaced.length ? '; a red dashed line could not be drawn without crossing' : ''}.`
      : '');
  }

  function drawSide() {
    if (!st) return;
    const v = st.view;
    record.value = v.record;
    const over = v.to_move === null || v.to_move === undefined;
    if (verdictsFor !== v.record) {
      verdicts = new Map();
      verdictNote.textContent = '';
    }
    verdictBtn.hidden = !over || verdicts.size > 0;
    /** @param {number} n the move's number */
    const mark = (n) => {
      const m = verdicts.get(n);
      if (!m) return null;
      const title = m.could_win === null ? 'the solver did not answer in time'
        : m.mistake ? 'gave the win away: its player could win before this move, not after'
          : m.wins_after ? 'its player can still win after it' : 'its player could not win before it either';
      return h('span', { class: `sp-verdict ${m.mistake ? 'loses' : m.wins_after ? 'wins' : ''}`, title, dataset: { verdict: m.mistake ? 'mistake' : m.wins_after === null ? 'unknown' : m.wins_after ? 'winning' : 'lost' } },
        m.could_win === null || m.wins_after === null ? ' ?' : m.mistake ? ' ✗' : m.wins_after ? ' ★' : ' ·');
    };
    // Each move in words (the view's, judged by the rules) beside its notation.
    const words = Array.isArray(v.words) ? v.words : [];
    replace(movesEl, v.moves.map((/** @type {string} */ m, /** @type {number} */ i) => h('li', { dataset: { move: m } },
      words[i] ? [`${ctx.seatName(i % 2)} `, h('span', { class: 'sp-words' }, words[i]), ' (', h('code', null, m), ')'] : [`${ctx.seatName(i % 2)}: `, h('code', null, m)],
      mark(i + 1))));
    const moves = legal();
    replace(legalEl, moves.map((t) => h('li', null, h('button', {
      type: 'button',
      class: 'link sp-legal-move',
      dataset: { move: t },
      onmouseenter: () => highlight(spotsOf(t)),
      onmouseleave: () => highlight([]),
      onfocus: () => highlight(spotsOf(t)),
      onblur: () => highlight([]),
      onclick: () => play(t),
    }, t, st?.view?.legal_words?.[t] ? h('span', { class: 'note' }, ` — ${st.view.legal_words[t]}`) : null))));
    legalBox.hidden = !moves.length;
  }

  function drawStatus() {
    if (!st) return;
    const v = st.view;
    let text;
    if (v.winner !== null && v.winner !== undefined) {
      const who = v.winner === ctx.mySeat ? 'You win' : `${ctx.seatName(v.winner)} wins`;
      const why = v.resigned !== null && v.resigned !== undefined
        ? `${v.resigned === ctx.mySeat ? 'you' : ctx.seatName(v.resigned)} resigned`
        : v.misere ? 'misère: the last to move loses' : 'the last to move wins';
      text = `Game over: ${who} — ${why}.`;
    } else if (st.to_act === 'over') text = 'Game over.';
    else if (myTurn()) text = '▶ Your turn: draw a line from a spot to a spot.';
    else text = `${ctx.seatName(v.to_move)} to move.`;
    status.textContent = text;
    resignBtn.hidden = !myTurn();
    // The how-to is for players, while the game goes on.
    help.hidden = ctx.mySeat === null || v.to_move === null || v.to_move === undefined;
    replace(rules,
      h('span', { class: 'chip', id: 'sp-play' }, v.misere ? 'Misère play (last move loses)' : 'Normal play (last move wins)'),
      ' ', h('span', { class: 'chip' }, `${v.spots} spots`),
      ' ', h('span', { class: 'chip', id: 'sp-lives' }, `${v.lives} ${v.lives === 1 ? 'life' : 'lives'} left`),
      ' ', h('span', { class: 'chip' }, `move ${v.moves.length + (v.to_move === null ? 0 : 1)}`));
  }

  return {
    /**
     * A move of the server's move list in words: who drew which line (the
     * event's words, then the WGOSA notation), or who resigned.
     * @param {import('../play.js').Move} m
     */
    describeMove(m) {
      const who = (/** @type {number} */ s) => (s === ctx.mySeat ? 'You' : ctx.seatName(s));
      return m.events.map((/** @type {any} */ e) => {
        switch (e.type) {
          case 'moved': return e.words ? `${who(e.seat)} ${e.words} (${e.move})` : `${who(e.seat)} played ${e.move}`;
          case 'resigned': return `${who(e.seat)} resigned`;
          default: return null;
        }
      });
    },
    /** @param {import('../api.js').StateMsg} s */
    update(s) {
      const v = s.view;
      const changed = !st || st.seq !== s.seq;
      st = s;
      paper = paperOf(v.drawing, v.spots, v.moves.length);
      if (document.activeElement !== posText && !shown) posText.value = v.position;
      // A new position: the stroke drawn on the old one, the stroke sent
      // (now a line of the drawing) and the last refusal's mark are gone.
      if (changed) {
        endStroke();
        refusedAt = null;
      }
      drawPaper();
      drawStroke();
      drawMark();
      drawStatus();
      drawSide();
      document.body.dataset.spMoves = String(v.moves.length);
    },
    /**
     * A refused action: the stroke is taken off the paper and the place
     * the server names is marked; the shell shows the server's message.
     * @param {import('../api.js').ApiError} e
     */
    error(e) {
      sent = null;
      drawStroke();
      highlight([]);
      const at = e.at;
      refusedAt = Array.isArray(at) && at.length === 2 && at.every((x) => typeof x === 'number' && Number.isFinite(x)) ? [at[0], at[1]] : null;
      drawMark();
      return false;
    },
  };
}
