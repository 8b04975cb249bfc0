// @ts-check
/**
 * Gobble's page: the grid, a word box (type and press Enter) and dragging
 * through cells with a mouse or a finger; instant feedback per word; the
 * countdown is the shell's. At the end: every player's words, cancelled
 * words struck through with who else found them, scores, and every word on
 * the board on request.
 * @module games/gobble
 */
import { el, seatLabel } from '../js/api.js';

/** @typedef {import('../js/api.js').StateMsg} StateMsg */

/**
 * @param {HTMLElement} root
 * @param {import('../js/play.js').GameContext} ctx
 */
export function mount(root, ctx) {
  /** @type {StateMsg|null} */
  let state = null;
  /** @type {number[]} */
  let path = [];
  let dragging = false;
  let showAll = false;
  /** @type {{word: string, ok: boolean, message: string}[]} */
  const feedback = [];

  const status = el('p', { class: 'status', 'aria-live': 'polite' });
  const grid = el('div', { class: 'gb-grid', role: 'grid', 'aria-label': 'the board: drag through letters, or type below' });
  const input = /** @type {HTMLInputElement} */ (el('input', {
    type: 'text', id: 'gb-word', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
    'aria-label': 'type a word and press Enter',
    placeholder: 'type a word, Enter',
  }));
  const form = el('form', { class: 'row', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); enter(input.value); } }, [
    input, el('button', { type: 'submit', class: 'primary', text: 'Enter' }),
    el('button', { type: 'button', id: 'gb-done', onclick: () => done(), text: "I'm done" }),
  ]);
  const fb = el('ul', { class: 'gb-feedback-list', 'aria-live': 'polite' });
  const mine = el('div');
  const results = el('div');
  root.replaceChildren(status, grid, form, fb, mine, results);

  const playing = () => !!state && state.to_act !== 'over' && ctx.seat !== null && !state.view.done.includes(ctx.seat);

  /** @param {string} raw */
  async function enter(raw) {
    const word = raw.trim().toLowerCase();
    if (!word || !playing()) return;
    input.value = '';
    try {
      await ctx.act({ type: 'enter', word });
      feedback.unshift({ word, ok: true, message: 'accepted' });
    } catch (e) {
      feedback.unshift({ word, ok: false, message: /** @type {Error} */ (e).message });
    }
    feedback.length = Math.min(feedback.length, 5);
    drawFeedback();
  }

  async function done() {
    if (!playing() || !confirm('Stop searching? You cannot enter more words this round.')) return;
    try {
      await ctx.act({ type: 'done' });
    } catch (e) {
      ctx.toast(/** @type {Error} */ (e).message);
    }
  }

  function drawFeedback() {
    fb.replaceChildren(...feedback.map((f) =>
      el('li', { class: 'gb-feedback ' + (f.ok ? 'good' : 'bad') }, [f.ok ? '✓ ' : '✗ ', el('strong', { text: f.word }), ` — ${f.message}`])));
  }

  /** Cells of the grid, row-major. @returns {string[]} */
  const faces = () => (state ? state.view.rows.flat() : []);
  const size = () => (state ? state.view.rows.length : 4);
  /** @param {number} a @param {number} b */
  const adjacent = (a, b) => {
    const n = size();
    return a !== b && Math.abs(Math.floor(a / n) - Math.floor(b / n)) <= 1 && Math.abs((a % n) - (b % n)) <= 1;
  };

  /** @param {PointerEvent} e */
  function cellAt(e) {
    const t = document.elementFromPoint(e.clientX, e.clientY);
    const c = t && /** @type {HTMLElement} */ (t).closest?.('.gb-cell');
    return c ? Number(/** @type {HTMLElement} */ (c).dataset.cell) : null;
  }

  grid.addEventListener('pointerdown', (e) => {
    if (!playing()) return;
    const c = cellAt(e);
    if (c === null) return;
    dragging = true;
    path = [c];
    grid.setPointerCapture?.(e.pointerId);
    e.preventDefault();
    drawGrid();
  });
  grid.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    const c = cellAt(e);
    if (c === null || c === path[path.length - 1]) return;
    if (path.length > 1 && c === path[path.length - 2]) path.pop();
    else if (!path.includes(c) && adjacent(path[path.length - 1], c)) path.push(c);
    drawGrid();
  });
  const finish = () => {
    if (!dragging) return;
    dragging = false;
    const f = faces();
    const word = path.map((i) => f[i]).join('');
    path = [];
    drawGrid();
    if (word.length >= 2) enter(word);
  };
  grid.addEventListener('pointerup', finish);
  grid.addEventListener('pointercancel', () => {
    dragging = false;
    path = [];
    drawGrid();
  });

  function drawGrid() {
    if (!state) return;
    const n = size();
    grid.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
    const f = faces();
    grid.replaceChildren(...f.map((face, i) =>
      el('div', { class: 'gb-cell' + (path.includes(i) ? ' on' : ''), 'data-cell': i, role: 'gridcell', text: face })));
  }

  /** @param {number} s */
  const who = (s) => (s === ctx.seat ? 'you' : ctx.seats()[s]?.name || seatLabel(s));

  function draw() {
    if (!state) return;
    const v = state.view;
    drawGrid();
    const over = state.to_act === 'over';
    input.disabled = !playing();
    status.textContent = over
      ? 'The round is over.'
      : ctx.seat === null
        ? `Watching: ${v.counts.map((c, i) => `${who(i)} ${c}`).join(', ')} words so far.`
        : v.done.includes(ctx.seat)
          ? 'You are done: waiting for the others or the clock.'
          : `Find words of ${v.min_len}+ letters. Words so far: ${v.counts.map((c, i) => `${who(i)} ${c}`).join(', ')}.`;
    mine.replaceChildren(
      ctx.seat !== null && !over
        ? el('div', {}, [el('h2', { text: `Your words (${v.my_words.length})` }), el('ul', { class: 'gb-words' }, v.my_words.map((w) => el('li', { text: w })))])
        : '',
    );
    const r = v.results;
    if (!r) {
      results.replaceChildren();
      return;
    }
    results.replaceChildren(
      el('h2', { text: 'Results' }),
      el('table', {}, [
        el('thead', {}, [el('tr', {}, [el('th', { text: 'Player' }), el('th', { text: 'Score' }), el('th', { text: 'Words (struck: also found by someone else)' })])]),
        el('tbody', {}, r.reading_order.map((/** @type {number} */ s) => {
          const sr = r.seats[s];
          return el('tr', {}, [
            el('td', { text: who(s) }),
            el('td', { text: String(sr.score) }),
            el('td', {}, sr.words.map((/** @type {any} */ w) =>
              el('span', {}, [
                w.cancelled_by.length
                  ? el('s', { class: 'cancelled', title: 'also found by ' + w.cancelled_by.map(who).join(', ') }, [w.word])
                  : el('span', { text: `${w.word} (${w.points})` }),
                w.cancelled_by.length ? ` (also ${w.cancelled_by.map(who).join(', ')})` : '',
                ' · ',
              ]))),
          ]);
        })),
      ]),
      el('p', {}, [
        el('button', { id: 'gb-all', onclick: () => { showAll = !showAll; draw(); }, text: showAll ? 'Hide the board\'s words' : `Show every word on this board (${r.all_words.length})` }),
      ]),
      showAll
        ? el('ul', { class: 'gb-words' }, [...r.all_words]
            .sort((a, b) => b.points - a.points || a.word.localeCompare(b.word))
            .map((w) => el('li', { text: `${w.word} (${w.points})` })))
        : '',
    );
  }

  return {
    /** @param {StateMsg} s */
    update(s) {
      state = s;
      draw();
    },
  };
}
