// @ts-check
/**
 * Sprouts' page: the paper drawn as spots and lines (SVG, computed from the
 * moves and the position after each by ./sprouts-layout.js, never crossing,
 * drawn again from the position by ./sprouts-structure.js when a move does
 * not fit), moves made by dragging from
 * a spot to a spot (or back to itself) and confirmed in a small chooser that
 * lists every legal move matching the drag (which region, which spots
 * inside) in WGOSA notation; the legal moves as a plain list too; the
 * record beside the drawing, copyable.
 *
 * Actions and view: crates/sprouts/src/game.rs (an action is the move's
 * WGOSA text; the view has `moves`, `words` (each move in words),
 * `positions`, `position`, `spot_lives` (lives left per spot, 0: dead),
 * `record`, `to_move`, `winner`). Which spots are alive and what a line
 * encloses come from the view: the page never counts lines itself.
 */
import { h, replace } from '../dom.js';
import { Drawing, drawGame, parseMove, W, H, crossings } from './sprouts-layout.js';

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

/** @param {[number, number][]} pts */
const pathD = (pts) => pts.map((p, i) => `${i ? 'L' : 'M'}${p[0]} ${p[1]}`).join(' ');

/**
 * Redrawing a whole game from other starting arrangements takes about a
 * second for each 20 moves; past this many moves the page keeps its drawing.
 */
const RELAYOUT_MOVES = 24;

/** How far from a spot's centre a press or release still counts as on it. */
const HIT = 22;

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
  /** @type {Drawing | null} */
  let drawing = null;
  /** @type {{from: number, pointer: number, line: [number, number][]} | null} */
  let drag = null;
  /** @type {string[]} the moves the chooser offers */
  let choosing = [];
  /** @type {(string | undefined)[]} the position after each move, where this page saw it */
  let positions = [];
  /** @type {Drawing | null} a pasted position shown instead of the game (read only) */
  let shown = null;
  /** What the paper shows: the pasted position, else the game. */
  const current = () => shown || drawing;

  const status = h('h2', { id: 'sp-status', class: 'status', 'aria-live': 'polite' });
  const rules = h('p', { id: 'sp-rules' });
  // A group, not an image: each spot is focusable and says its lives.
  const board = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (svg('svg', { id: 'sp-board', viewBox: `0 0 ${W} ${H}`, role: 'group', 'aria-label': 'The paper: spots and lines' })));
  board.classList.add('sp-board');
  const linesG = svg('g', { class: 'sp-lines' });
  const dragG = svg('g', { class: 'sp-drag' });
  const spotsG = svg('g', { class: 'sp-spots' });
  board.append(linesG, dragG, spotsG);
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
  const chooser = h('div', { id: 'sp-chooser', class: 'sp-chooser', hidden: true, role: 'dialog', 'aria-label': 'Choose the move' });
  const legalEl = h('ol', { id: 'sp-legal', class: 'sp-legal' });
  const legalBox = h('details', { id: 'sp-legal-box' }, h('summary', null, 'Legal moves'), h('p', { class: 'note' }, 'Click one to play it.'), legalEl);
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
  // shown on the paper (drawn from its structure; a table itself starts
  // only from a record).
  const posText = /** @type {HTMLTextAreaElement} */ (h('textarea', { id: 'sp-position', rows: 3, cols: 36, style: 'width: 100%; font-family: ui-monospace, monospace', 'aria-label': 'A position in the card notation', spellcheck: false }));
  const showBtn = h('button', {
    type: 'button',
    id: 'sp-show',
    onclick: () => {
      const d = Drawing.fromPosition(posText.value);
      if (!d) {
        ctx.toast('That position cannot be read or drawn (card notation: cards 1,2,3 in stacks split by ; and rows by /).');
        return;
      }
      shown = d;
      closeChooser();
      drawPaper();
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
  const help = h('p', { class: 'note', id: 'sp-help' }, 'Drag from a live spot to a live spot (or back to the same spot) to draw a line; then choose the move if several fit.');

  replace(
    ctx.root,
    h('div', { class: 'sp-page' },
      h('div', { class: 'sp-main' }, status, rules, h('div', { class: 'sp-paper' }, board, chooser), legend, note, help, resignBtn),
      h('aside', { class: 'sp-side' },
        h('h3', null, 'Record (WGOSA)'), record, h('div', { class: 'row' }, copyBtn),
        h('h3', null, 'Position (cards)'), posText, h('div', { class: 'row' }, showBtn),
        h('h3', null, 'Moves'), movesEl, verdictBtn, verdictNote,
        legalBox)),
  );

  const myTurn = () => !!st && st.view && ctx.mySeat !== null && st.view.to_move === ctx.mySeat && !(ctx.waitingFor().length);
  /** @returns {string[]} */
  const legal = () => (myTurn() && st && Array.isArray(st.legal) ? st.legal : []);

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

  /**
   * The legal moves from spot a to spot b (either way round).
   * @param {number} a @param {number} b
   */
  function matching(a, b) {
    return legal().filter((t) => {
      const m = parseMove(t);
      return m && ((m.f === a && m.h === b) || (m.f === b && m.h === a));
    });
  }

  /** @param {string} text */
  async function play(text) {
    closeChooser();
    try {
      await ctx.act(text);
    } catch {
      // The shell shows the server's reason.
    }
  }

  function closeChooser() {
    choosing = [];
    chooser.hidden = true;
    replace(chooser);
    dragG.replaceChildren();
    highlight([]);
  }

  /** Marks spots (a move's ends and listed spots) on the paper. @param {number[]} spots */
  function highlight(spots) {
    for (const el of spotsG.querySelectorAll('.sp-spot')) {
      el.classList.toggle('hl', spots.includes(Number(/** @type {SVGElement} */ (el).dataset.spot)));
    }
  }

  /** @param {string} text */
  function spotsOf(text) {
    const m = parseMove(text);
    return m ? [m.f, m.h, ...(m.list || []), ...(m.at !== null ? [m.at] : [])] : [];
  }

  /** @param {number} a @param {number} b */
  function openChooser(a, b) {
    const found = matching(a, b);
    if (!found.length) {
      dragG.replaceChildren();
      ctx.showError(a === b ? `No legal loop from spot ${a}.` : `No legal line from spot ${a} to spot ${b}.`);
      return;
    }
    choosing = found;
    chooser.hidden = false;
    replace(
      chooser,
      h('p', null, found.length === 1 ? `Play this move?` : `${found.length} moves fit this line — which one?`),
      h('ul', null, found.map((t) => h('li', null, h('button', {
        type: 'button',
        class: 'sp-choice primary',
        dataset: { move: t },
        onmouseenter: () => highlight(spotsOf(t)),
        onfocus: () => highlight(spotsOf(t)),
        onclick: () => play(t),
      }, `✓ ${t}`), h('span', { class: 'note' }, ' ', explain(t))))),
      h('button', { type: 'button', class: 'cancel', id: 'sp-cancel', onclick: closeChooser }, '✗ Cancel (Esc)'),
    );
    /** @type {HTMLElement | null} */ (chooser.querySelector('button.sp-choice'))?.focus();
  }

  /** What a move's extras mean, in words. @param {string} t */
  function explain(t) {
    const m = parseMove(t);
    if (!m) return '';
    const parts = [];
    if (m.at !== null) parts.push(`in the region of spot ${m.at}`);
    if (m.list) parts.push(`${m.list.length === 1 ? 'spot' : 'spots'} ${m.list.join(', ')} on one side`);
    else if (m.f === m.h || (drawing && drawing.components().get(m.f) === drawing.components().get(m.h))) parts.push('nothing else inside');
    return parts.length ? `(${parts.join('; ')})` : '';
  }

  /** @param {PointerEvent} e @returns {[number, number]} */
  function toPaper(e) {
    const r = board.getBoundingClientRect();
    return [((e.clientX - r.left) / r.width) * W, ((e.clientY - r.top) / r.height) * H];
  }

  /**
   * The spot under a point, if any: the nearest one not dead, else the
   * nearest dead one (a press there is told why nothing starts).
   * @param {[number, number]} p @returns {{spot: number, dead: boolean} | null}
   */
  function spotAt(p) {
    if (!drawing) return null;
    /** @type {{spot: number, dead: boolean} | null} */
    let best = null, bd = HIT;
    /** @type {number | null} */
    let dead = null, dd = HIT;
    for (const [s, q] of drawing.spots) {
      const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (livesOf(s) === 0) {
        if (d < dd) { dd = d; dead = s; }
      } else if (d < bd) { bd = d; best = { spot: s, dead: false }; }
    }
    return best || (dead === null ? null : { spot: dead, dead: true });
  }

  /** @param {number} s @param {string} instead what to do instead */
  const deadSpot = (s, instead) => ctx.showError(`Spot ${s} is dead (three lines): ${instead}.`);

  board.addEventListener('pointerdown', (e) => {
    if (!myTurn() || shown) return;
    const p = toPaper(e);
    const hit = spotAt(p);
    if (hit === null) return;
    e.preventDefault();
    closeChooser();
    if (hit.dead) {
      deadSpot(hit.spot, 'start from a live spot');
      return;
    }
    const s = hit.spot;
    board.setPointerCapture(e.pointerId);
    drag = { from: s, pointer: e.pointerId, line: [/** @type {[number, number]} */ (drawing?.spots.get(s)), p] };
    highlight([s]);
    drawDrag();
  });
  board.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    const p = toPaper(e);
    const last = drag.line[drag.line.length - 1];
    if (Math.hypot(p[0] - last[0], p[1] - last[1]) > 4) drag.line.push(p);
    const over = spotAt(p);
    highlight(over === null || over.dead ? [drag.from] : [drag.from, over.spot]);
    drawDrag();
  });
  const endDrag = (/** @type {PointerEvent} */ e) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    const from = drag.from;
    const p = toPaper(e);
    drag.line.push(p);
    const hit = spotAt(p);
    // A loop needs the line to leave the spot first, so a click is not one.
    const wandered = drag.line.some((q) => drawing && Math.hypot(q[0] - (drawing.spots.get(from) || q)[0], q[1] - (drawing.spots.get(from) || q)[1]) > HIT * 2);
    drag = null;
    if (e.type === 'pointercancel' || hit === null || (hit.spot === from && !wandered)) {
      closeChooser();
      return;
    }
    if (hit.dead) {
      closeChooser();
      deadSpot(hit.spot, 'end on a live spot');
      return;
    }
    openChooser(from, hit.spot);
  };
  board.addEventListener('pointerup', endDrag);
  board.addEventListener('pointercancel', endDrag);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && choosing.length) closeChooser();
  });

  function drawDrag() {
    dragG.replaceChildren();
    if (drag) dragG.append(svg('path', { d: pathD(drag.line), class: 'sp-stroke' }));
  }

  function drawPaper() {
    const drawing = current();
    if (!drawing) return;
    linesG.replaceChildren();
    spotsG.replaceChildren();
    const approx = new Set(drawing.approximate);
    const newest = drawing.moves.length ? parseMove(drawing.moves[drawing.moves.length - 1]) : null;
    for (const [list, extra] of /** @type {[import('./sprouts-layout.js').Curve[], string][]} */ ([[drawing.curves, ''], [drawing.unplaced, ' unplaced']])) {
      for (const c of list) {
        const move = c.move ?? -1;
        const el = svg('path', { d: pathD(c.pts), class: `sp-line${extra}${approx.has(move) ? ' approx' : ''}${move === drawing.moves.length - 1 ? ' newest' : ''}` });
        el.dataset.move = String(move + 1);
        linesG.append(el);
      }
    }
    for (const [s, p] of drawing.spots) {
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
      const label = svg('text', { x: 10, y: -10, class: 'sp-label' });
      // Lives are written and drawn as well as coloured: colour never
      // carries meaning alone.
      label.textContent = lives ? `${s}${'·'.repeat(lives)}` : String(s);
      g.append(label);
      if (lives !== null) {
        const tip = svg('text', { x: 10, y: 26, class: 'sp-tip' });
        tip.textContent = lives > 0 ? `${lives} ${lives === 1 ? 'life' : 'lives'} left` : 'dead';
        g.append(tip);
      }
      spotsG.append(g);
    }
    const bad = crossings(drawing);
    board.dataset.crossings = String(bad.length);
    board.dataset.approximate = String(drawing.approximate.length);
    board.dataset.shown = shown ? 'position' : 'game';
    if (shown) {
      replace(note, 'Showing the pasted position, drawn from its structure (not this game; nothing can be played on it). ', h('button', { type: 'button', id: 'sp-back', onclick: () => { shown = null; drawPaper(); } }, 'Back to the game'));
      return;
    }
    replace(note, drawing.approximate.length
      ? `⚠ The drawing of move${drawing.approximate.length > 1 ? 's' : ''} ${drawing.approximate.map((k) => k + 1).join(', ')} (dashed) is approximate: the record and the legal moves are right, the lines there may not show the regions exactly${drawing.unplaced.length ? '; a red dashed line could not be drawn without crossing' : ''}.`
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
      onclick: () => play(t),
    }, t))));
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
    else if (myTurn()) text = '▶ Your turn: drag from a spot to a spot.';
    else text = `${ctx.seatName(v.to_move)} to move.`;
    status.textContent = text;
    resignBtn.hidden = !myTurn();
    // The how-to is for players, while the game goes on.
    help.hidden = ctx.mySeat === null || v.to_move === null || v.to_move === undefined;
    replace(rules,
      h('span', { class: 'chip', id: 'sp-play' }, v.misere ? 'Misère play (last move loses)' : 'Normal play (last move wins)'),
      ' ', h('span', { class: 'chip' }, `${v.spots} spots`),
      ' ', h('span', { class: 'chip', id: 'sp-lives' }, `${v.lives} lives left`),
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
      const prevMoves = drawing ? drawing.moves : [];
      const extends_ = drawing && drawing.n === v.spots && prevMoves.every((m, i) => v.moves[i] === m) && v.moves.length >= prevMoves.length;
      if (!extends_) {
        drawing = new Drawing(v.spots);
        positions = [];
      }
      // The position after every move (the view's `positions`; from an
      // older server, the last one and those this page saw arrive): each
      // move is drawn to read back as it, or the picture is drawn again
      // from it.
      if (Array.isArray(v.positions)) v.positions.forEach((/** @type {string} */ p, /** @type {number} */ k) => { positions[k] = p; });
      if (v.moves.length) positions[v.moves.length - 1] = v.position;
      const d = /** @type {Drawing} */ (drawing);
      for (let k = d.moves.length; k < v.moves.length; k++) d.apply(v.moves[k], positions[k]);
      // Moves drawn approximately and not made good since (by a move that
      // reads back, or the picture drawn again from a position).
      if (d.approximate.length && v.moves.length <= RELAYOUT_MOVES) {
        // Drawn only approximately: the whole game again from other
        // starting arrangements, keeping whichever is drawn best.
        const again = drawGame(v.spots, v.moves, positions, 3);
        if (again.approximate.length < d.approximate.length) drawing = again;
      }
      if (document.activeElement !== posText && !shown) posText.value = v.position;
      const changed = !st || st.seq !== s.seq;
      st = s;
      if (changed) closeChooser();
      drawPaper();
      drawStatus();
      drawSide();
      document.body.dataset.spMoves = String(v.moves.length);
    },
    error() {
      dragG.replaceChildren();
      return false;
    },
  };
}
