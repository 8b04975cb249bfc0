// @ts-check
/**
 * The replay viewer (`/replay/{id}`): a finished game stepped through move
 * by move. Each position comes from the server (`GET
 * /api/games/{id}/replay?step=N`, docs/api.md) and is drawn by the game's
 * own page module, read-only, as a spectator sees it; the game's helper
 * is asked about the shown position on request.
 */
import { call, seatName } from './api.js';
import { pageFor } from './games/index.js';

const id = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');
/** @param {string} i */
const el = (i) => /** @type {HTMLElement} */ (document.getElementById(i));
/** @type {import('./api.js').GameSummary} */
let summary;
let steps = 0;
let step = 0;
/** @type {any} */
let page = null;
/** @type {any} */
let record = null;
/** The record's text, exactly as the server sent it. */
let text = '';
let loading = 0;

/** @param {string} message */
function showError(message) {
  el('replay-error').textContent = message;
}

/** What the game calls each seat at the step shown (`seat_labels`). @type {string[] | null} */
let labels = null;

function players() {
  return summary.seats.map((s) => seatName(summary.seats, s.seat, labels)).join(' vs ');
}

/** @param {any} by */
function who(by) {
  if (by && typeof by === 'object' && 'seat' in by) return seatName(summary.seats, by.seat, labels);
  return 'the referee';
}

/** @param {number} n */
async function show(n) {
  step = Math.max(0, Math.min(steps, n));
  const mine = ++loading;
  try {
    const r = await call('GET', `/api/games/${encodeURIComponent(id)}/replay?step=${step}`);
    if (mine !== loading) return;
    showError('');
    // Each seat named by the side it plays at this step (docs/api.md
    // `seat_labels`: Twin Grids' pie rule may swap them).
    labels = r.seat_labels || null;
    el('replay-players').textContent = players();
    el('replay-step').textContent = `Move ${step} of ${steps}`;
    el('replay-move').textContent =
      step === 0
        ? 'The start of the game.'
        : `Move ${step}: ${who(r.by)} — ${JSON.stringify(record.actions[step - 1].action)}`;
    page.update({
      type: 'state',
      seq: step,
      view: r.view,
      to_act: r.to_act,
      outcome: r.outcome,
      clock: null,
      by: r.by,
      events: r.events,
      legal: null,
    });
    el('replay-helper').textContent = '';
  } catch (e) {
    showError(/** @type {Error} */ (e).message);
  }
}

/**
 * The helper's answers as text: a verdict on the whole game that lists its
 * moves by number (Sprouts' solver: `moves[]` with `number` from 1) shows
 * the shown move's; otherwise the answer on this position (Word Sprout:
 * what could be played from its string).
 * @param {any} v the replay's `helper`
 */
function helperText(v) {
  if (v.none) return v.none;
  const moves = v.game?.answer?.moves;
  if (Array.isArray(moves) && moves.length > 0 && moves.every((/** @type {any} */ m) => typeof m?.number === 'number')) {
    const here = moves.find((/** @type {any} */ m) => m && m.number === step);
    const whole = { ...v.game.answer, moves: undefined };
    return `${step === 0 ? 'The whole game' : `Move ${step}`}: ${JSON.stringify(here || whole, null, 1)}`;
  }
  const pos = v.position || {};
  const game = v.game || {};
  if ('answer' in pos) return JSON.stringify(pos.answer, null, 1);
  if ('answer' in game) return `On the finished game: ${JSON.stringify(game.answer, null, 1)}`;
  return pos.refused || game.refused || '';
}

async function askHelper() {
  el('replay-helper').textContent = 'Asking…';
  try {
    const r = await call('GET', `/api/games/${encodeURIComponent(id)}/replay?step=${step}&helper=true`);
    el('replay-helper').textContent = helperText(r.helper || {});
  } catch (e) {
    el('replay-helper').textContent = /** @type {Error} */ (e).message;
  }
}

async function main() {
  try {
    summary = await call('GET', `/api/games/${encodeURIComponent(id)}`);
    // Kept as the server sent it: a seed above 2^53 would not survive
    // JavaScript's numbers, and the record would no longer replay.
    const res = await fetch(`/api/games/${encodeURIComponent(id)}/record`);
    text = await res.text();
    record = JSON.parse(text);
    if (!res.ok) throw new Error(record?.error?.message || `HTTP ${res.status}`);
  } catch (e) {
    showError(/** @type {Error} */ (e).message);
    return;
  }
  steps = record.actions.length;
  el('replay-title').textContent = `${summary.title}: replay`;
  document.title = `parlor — ${summary.title} replay`;
  el('replay-players').textContent = players();
  const link = /** @type {HTMLAnchorElement} */ (el('replay-download'));
  link.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  link.download = `parlor-${summary.game}-${id}.json`;
  /** @type {HTMLTextAreaElement} */ (el('replay-record')).value = text;
  el('replay-copy').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      el('replay-copy').textContent = 'Copied';
    } catch {
      /** @type {HTMLTextAreaElement} */ (el('replay-record')).select();
    }
  });
  const mod = await pageFor(summary.game);
  // The game's page, read-only: nobody's seat, nothing to send.
  const refuse = () => Promise.reject(new Error('this is a replay: nothing can be played here'));
  page = mod.mount({
    root: el('replay-board'),
    actions: el('replay-actions'),
    mySeat: null,
    act: refuse,
    summary: () => summary,
    seatName: (/** @type {number} */ s) => seatName(summary.seats, s, labels),
    clockRemaining: () => null,
    waitingFor: () => [],
    // The game's own helper panel asks about the finished game, as a
    // spectator (POST /api/games/{id}/assist).
    assist: async (/** @type {any} */ request) =>
      (await call('POST', `/api/games/${encodeURIComponent(id)}/assist`, { request })).answer,
    toast: () => {},
    confirm: () => Promise.resolve(false),
    showError,
  });
  el('replay-first').addEventListener('click', () => show(0));
  el('replay-prev').addEventListener('click', () => show(step - 1));
  el('replay-next').addEventListener('click', () => show(step + 1));
  el('replay-last').addEventListener('click', () => show(steps));
  el('replay-helper-box').hidden = false;
  el('replay-helper-btn').addEventListener('click', askHelper);
  document.addEventListener('keydown', (e) => {
    const t = /** @type {HTMLElement} */ (e.target);
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA')) return;
    if (e.key === 'ArrowLeft') show(step - 1);
    else if (e.key === 'ArrowRight') show(step + 1);
    else if (e.key === 'Home') show(0);
    else if (e.key === 'End') show(steps);
    else return;
    e.preventDefault();
  });
  await show(0);
}

main();
