// @ts-check
/**
 * The game page's shell: seats, clock, connection, result and rematch. The
 * game itself is drawn by one module per game (`/web/games/<name>.js`),
 * which gets the server's view and sends the game's actions.
 * @module play
 */
import { api, ApiError, GameSocket, el, playerName, rememberToken, seatLabel, tokenFor } from './api.js';

/** @typedef {import('./api.js').StateMsg} StateMsg */
/** @typedef {import('./api.js').SeatInfo} SeatInfo */
/** @typedef {import('./api.js').GameSummary} GameSummary */

/**
 * What a game module receives.
 * @typedef {object} GameContext
 * @property {number|null} seat my seat, or null for a spectator
 * @property {GameSummary} summary the game's public facts
 * @property {(action: any) => Promise<{seq: number}>} act send an action; resolves once stored
 * @property {(message: string, kind?: 'good'|'bad') => void} toast a short message
 * @property {() => SeatInfo[]} seats the seats as known now
 */
/**
 * What a game module exports.
 * @typedef {object} GameModule
 * @property {(root: HTMLElement, ctx: GameContext) => {update: (s: StateMsg) => void}} mount
 */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const id = location.pathname.split('/')[2] || '';

/** @type {number|undefined} */
let toastTimer;
/** @param {string} message @param {'good'|'bad'} [kind] */
function toast(message, kind = 'bad') {
  const t = $('toast');
  t.textContent = message;
  t.className = 'toast ' + kind;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (t.hidden = true), 4000);
}

/** @type {SeatInfo[]} */
let seats = [];
/** @type {StateMsg|null} */
let last = null;
/** @type {number|null} */
let mySeat = null;
let clockEnds = 0;

function toActSeats() {
  const t = last?.to_act;
  if (!t || t === 'over') return [];
  if (typeof t.one === 'number') return [t.one];
  if (Array.isArray(t.simultaneous)) return t.simultaneous;
  return [];
}

function renderSeats() {
  const acting = toActSeats();
  const out = last?.view?.active; // Word Sprout marks players who are out
  $('seats').replaceChildren(
    ...seats.map((s) => {
      const isOut = Array.isArray(out) && out[s.seat] === false;
      const name = s.kind === 'bot' ? `bot (${s.level})` : s.name || (s.joined ? seatLabel(s.seat) : 'free seat');
      return el('span', {
        class: 'seat' + (acting.includes(s.seat) ? ' to-act' : '') + (isOut ? ' out' : ''),
        'data-seat': s.seat,
      }, [
        `${seatLabel(s.seat)}: ${name}`,
        s.seat === mySeat ? ' (you)' : '',
        acting.includes(s.seat) ? ' — to move' : '',
        isOut ? ' — out' : '',
        s.kind === 'human' && s.joined && !s.connected ? ' — away' : '',
      ]);
    }),
  );
}

function renderClock() {
  const c = $('clock');
  if (!clockEnds) {
    c.textContent = '';
    return;
  }
  const left = Math.max(0, clockEnds - performance.now());
  const secs = Math.ceil(left / 1000);
  c.textContent = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')} left`;
  c.classList.toggle('low', secs <= 10);
}

/** @param {StateMsg} s */
function renderResult(s) {
  const box = $('result');
  if (s.to_act !== 'over') {
    box.replaceChildren();
    return;
  }
  const ranking = s.outcome?.ranking || [];
  const scores = s.outcome?.scores;
  const names = (/** @type {number[]} */ place) =>
    place.map((p) => (p === mySeat ? 'you' : seats[p]?.name || seatLabel(p))).join(' and ');
  box.replaceChildren(
    el('div', { class: 'card' }, [
      el('h2', { text: 'Game over' }),
      el('ol', {}, ranking.map((/** @type {number[]} */ place) =>
        el('li', { text: names(place) + (scores ? ` — ${place.map((p) => scores[p]).join(', ')} points` : '') }))),
      mySeat !== null
        ? el('button', { class: 'primary', id: 'rematch', onclick: rematch, text: 'Rematch (same rules, the other player starts)' })
        : null,
    ]),
  );
}

async function rematch() {
  const token = tokenFor(id);
  if (!token) return;
  try {
    const r = await api.rematch(id, token);
    rememberToken(r.game.id, r.token);
    location.href = `/play/${r.game.id}`;
  } catch (e) {
    toast(/** @type {Error} */ (e).message);
  }
}

async function start() {
  // An invite link carries the seat token after '#': keep it, then hide it.
  const hash = location.hash.slice(1);
  if (/^[0-9a-f]{32}$/.test(hash)) {
    rememberToken(id, hash);
    history.replaceState(null, '', location.pathname);
  }
  const token = tokenFor(id);
  let summary;
  try {
    summary = await api.game(id);
  } catch (e) {
    $('game').replaceChildren(el('p', { class: 'status bad', text: /** @type {Error} */ (e).message }));
    return;
  }
  if (token) {
    try {
      const j = await api.join(id, token, playerName());
      mySeat = j.seat;
      summary = j.game;
    } catch (e) {
      if (e instanceof ApiError && e.code === 'bad_token') toast('That seat link is not valid: watching instead.');
    }
  }
  seats = summary.seats;
  document.title = `parlor — ${summary.title}`;
  $('title').textContent = summary.title + (mySeat === null ? ' (watching)' : '');
  /** @type {GameModule} */
  let mod;
  try {
    mod = await import(`/web/games/${summary.game}.js`);
  } catch {
    mod = await import('/web/games/generic.js');
  }
  const socket = new GameSocket(id, mySeat === null ? null : token, {
    onWelcome: (w) => {
      seats = w.game.seats;
      renderSeats();
    },
    onState: (s) => {
      last = s;
      clockEnds = s.clock ? performance.now() + s.clock.remaining_ms : 0;
      renderSeats();
      renderClock();
      renderResult(s);
      view.update(s);
    },
    onSeats: (s) => {
      seats = s;
      renderSeats();
    },
    onRematch: () => toast('A rematch is ready: press Rematch to join it.', 'good'),
    onStatus: (st, why) => {
      const c = $('conn');
      c.textContent = st === 'open' ? 'connected' : st === 'connecting' ? 'connecting…' : `reconnecting (${why})…`;
      c.classList.toggle('bad', st !== 'open');
    },
    onError: (e) => toast(e.message),
  });
  const view = mod.mount($('game'), {
    seat: mySeat,
    summary,
    act: (action) => socket.act(action),
    toast,
    seats: () => seats,
  });
  setInterval(renderClock, 250);
  // A refresh reconnects to the same seat, but ask before leaving a game
  // in progress by accident.
  window.addEventListener('beforeunload', (e) => {
    if (mySeat !== null && last && last.to_act !== 'over') e.preventDefault();
  });
}

start();
