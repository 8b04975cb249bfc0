// @ts-check
/**
 * What Word Sprout's variants add to the page, drawn from the view alone
 * (crates/wordsprout/src/game/view.rs): the tiles left in the pot, the 2-D
 * grid, the teams, the vowel collections.
 */
import { h } from '../dom.js';

/**
 * Tiles by letter from a pot written `a9 b2 ...` (a letter left out has none).
 * @param {string | null | undefined} pot
 * @returns {Map<string, number>}
 */
export function parsePot(pot) {
  const m = new Map();
  for (const t of (pot || '').trim().split(/\s+/)) {
    const x = /^([a-z])(\d+)$/.exec(t);
    if (x) m.set(x[1], Number(x[2]));
  }
  return m;
}

/**
 * The pot as a rack of letters with their counts: every letter the table
 * started with, those with no tile left struck out.
 * @param {any} v the view
 */
export function potView(v) {
  const left = parsePot(v.pot);
  const full = parsePot(v.full_pot);
  const total = Array.from(left.values()).reduce((a, b) => a + b, 0);
  return h(
    'div',
    { id: 'ws-pot', class: 'pot', role: 'group', 'aria-label': `Tiles left in the pot: ${total}` },
    h('span', { class: 'pot-title' }, `Tiles left (${total}):`),
    Array.from(full.keys()).sort().map((c) => {
      const n = left.get(c) || 0;
      return h('span', { class: `tile${n ? '' : ' none'}`, dataset: { tile: c, left: String(n) }, title: `${c.toUpperCase()}: ${n} left` }, c.toUpperCase(), h('sub', null, String(n)));
    }),
  );
}

/**
 * Whether `letter` may be played now as far as the tiles go.
 * @param {any} v @param {string} letter
 */
export function tileLeft(v, letter) {
  return !v.rules.includes('tiles') || (parsePot(v.pot).get(letter) || 0) > 0;
}

/**
 * The 2-D grid: every string on its cells, the active string (where plays
 * go) marked, crossings marked; its text alternative reads row by row.
 * @param {any} board the view's `board`
 */
export function gridView(board) {
  /** @type {Map<string, {ch: string, active: boolean, lines: number}>} */
  const cells = new Map();
  let minR = 0, minC = 0, maxR = 0, maxC = 0;
  const last = board.lines.length - 1;
  board.lines.forEach((/** @type {any} */ line, /** @type {number} */ li) => {
    Array.from(/** @type {string} */ (line.letters)).forEach((ch, i) => {
      const r = line.row + (line.vertical ? i : 0);
      const c = line.col + (line.vertical ? 0 : i);
      const k = `${r},${c}`;
      const old = cells.get(k);
      cells.set(k, { ch, active: li === last || (old ? old.active : false), lines: (old ? old.lines : 0) + 1 });
      minR = Math.min(minR, r); minC = Math.min(minC, c); maxR = Math.max(maxR, r); maxC = Math.max(maxC, c);
    });
  });
  const rows = [];
  /** @type {HTMLElement[]} */
  const els = [];
  for (let r = minR; r <= maxR; r++) {
    let text = '';
    for (let c = minC; c <= maxC; c++) {
      const cell = cells.get(`${r},${c}`);
      text += cell ? cell.ch.toUpperCase() : '·';
      els.push(
        cell
          ? h('span', { class: `g2${cell.active ? ' active' : ''}${cell.lines > 1 ? ' cross' : ''}`, dataset: { cell: `${r},${c}` } }, cell.ch.toUpperCase())
          : h('span', { class: 'g2 empty' }),
      );
    }
    rows.push(text.split('').join(' '));
  }
  const cols = maxC - minC + 1;
  const empty = board.lines.length === 1 && !board.lines[0].letters;
  return h(
    'div',
    { class: 'grid2d-wrap' },
    empty
      ? h('p', { class: 'note' }, 'The grid is empty: the first string goes across.')
      : h('div', { class: 'grid2d', role: 'img', style: `--cols: ${cols}`, 'aria-label': `The grid, row by row (· is empty): ${rows.join('; ')}` }, els),
    h('p', { class: 'note' }, `${board.lines.length} string${board.lines.length === 1 ? '' : 's'}; plays go to the newest (highlighted). `,
      'A new string may cross once every string is a word of five letters or more.'),
  );
}

/**
 * The team of a seat (1-based), or null without teams.
 * @param {any} v @param {number} seat
 */
export function teamOf(v, seat) {
  if (!v.rules.includes('teams') || !v.teams || !v.teams.length) return null;
  const t = v.teams.findIndex((/** @type {number[]} */ team) => team.includes(seat));
  return t < 0 ? null : t + 1;
}

/**
 * A seat's vowel collection against the vowels needed, e.g. `A E · · ·`.
 * @param {any} v @param {number} seat
 */
export function collectionView(v, seat) {
  const have = v.collections[seat] || '';
  return h('span', { class: 'collection', dataset: { vowels: have }, title: `vowels collected: ${have ? have.toUpperCase() : 'none'} of ${v.vowels.toUpperCase()}` },
    ` · vowels: ${have ? have.toUpperCase() : 'none'} `,
    h('span', { class: 'need', 'aria-hidden': 'true' }, '(', Array.from(/** @type {string} */ (v.vowels), (c) => h('span', { class: have.includes(c) ? 'got' : 'miss' }, c.toUpperCase())), ')'));
}
