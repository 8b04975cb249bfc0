// @ts-check
/**
 * The game page's shell: finds this browser's seat (invite link, then
 * localStorage), joins it, holds the WebSocket (and reconnects with the same
 * seat: the server sends the whole view again), shows seats, clock,
 * connection, errors and rematch, and hands every `state` to the game's page
 * module. It never guesses the state: what is drawn is the last `state`.
 */
import { call, playerKey, myName, setMyName, rememberToken, tokenFor, forgetToken, playUrl, seatName, seatSide, ApiError } from './api.js';
import { h, replace, confirmDialog, toast } from './dom.js';
import { pageFor } from './games/index.js';
import { describeList, count, wordListOf } from './wordlists.js';
import { mountChat } from './chat.js';
import { mountPuzzle } from './puzzle.js';

/**
 * What a page module gets.
 * @typedef {{
 *   root: HTMLElement,
 *   actions: HTMLElement,
 *   mySeat: number | null,
 *   act: (action: any) => Promise<{seq: number}>,
 *   summary: () => import('./api.js').GameSummary,
 *   seatName: (seat: number) => string,
 *   clockRemaining: () => number | null,
 *   waitingFor: () => number[],
 *   assist: (request: any) => Promise<any>,
 *   toast: typeof toast,
 *   confirm: typeof confirmDialog,
 *   showError: (message: string) => void,
 *   moves?: () => Move[],
 *   online?: () => boolean,
 * }} PageContext
 *   (`moves` and `online` are the live page's: a replay viewer may give
 *   neither.)
 * @typedef {{n: number, by: {seat: number} | 'referee', at_ms: number,
 *   clock: {reason: 'turn'|'flag'|'absent'|'claim'|'round', seat?: number} | null, events: any[]}} Move
 *   One entry of the move list (docs/api.md `GET /api/games/{id}/moves`).
 */

const id = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');
/**
 * The seat token of an invite link (`/play/{id}#token`), read once: it goes
 * to localStorage (keyed by game id) and out of the address bar at once, so
 * an address copied from this page to invite a spectator never gives the
 * seat away. A reload finds the seat in localStorage.
 */
function takeHashToken() {
  const t = location.hash.replace(/^#/, '');
  if (t) {
    rememberToken(id, t);
    history.replaceState(history.state, '', location.pathname + location.search);
  }
  return t;
}
const hashToken = takeHashToken();
/** A puzzle's game (`?puzzle=ID`): its banner, with the server's verdicts. */
const puzzleId = new URLSearchParams(location.search).get('puzzle');
const puzzle = puzzleId ? mountPuzzle(/** @type {HTMLElement} */ (document.getElementById('table')), puzzleId, id) : null;
/** @type {string | null} */
let token = hashToken || tokenFor(id);
// An invite link pasted into this page's address bar changes only the
// fragment (no new page): take its token and start again with it.
window.addEventListener('hashchange', () => {
  const t = takeHashToken();
  if (t && t !== token) location.reload();
});
/** @type {number | null} */
let mySeat = null;
/** @type {import('./api.js').GameSummary} */
let summary;
/** @type {import('./api.js').StateMsg | null} */
let last = null;
/** @type {{update: (s: any) => void, waitsWithoutView?: boolean, namesSeats?: boolean, showsClock?: boolean, error?: (e: ApiError, action: any) => boolean | void, wouldLose?: () => boolean, summary?: () => void, describeMove?: (m: Move) => (string | Node | null)[] | null, describeEnd?: () => string | null, online?: () => void} | null} */
let page = null;
/**
 * The move list as the server keeps it (docs/api.md "Moves"): loaded whole
 * on every (re)connection, then one move per state message.
 * @type {Move[]}
 */
let moves = [];
/** Whether `moves` is the whole list up to the last state's seq. */
let movesWhole = false;
/** The connection has just (re)opened: the page may send what waited. */
let backOnline = false;
/** @type {WebSocket | null} */
let ws = null;
/** The chat panel (chat.js), once mounted. @type {ReturnType<typeof mountChat> | null} */
let chat = null;
let attempts = 0;
let nextRef = 1;
/** @type {Map<number, {resolve: (v: any) => void, reject: (e: any) => void, action: any}>} */
const pending = new Map();
/**
 * The rematch asked for over the WebSocket, until `rematch_seat` (or an
 * error with its ref) answers it.
 * @type {{ref: number, resolve: (v: any) => void, reject: (e: any) => void} | null}
 */
let rematchAsked = null;
/**
 * Questions to the game's helper sent over the WebSocket, by ref, until
 * their `assist` answer (or an error with their ref) comes.
 * @type {Map<number, {resolve: (v: any) => void, reject: (e: any) => void}>}
 */
const helperAsked = new Map();
/** Local time (performance.now()) at which the server's clock ends. */
let clockEnd = /** @type {number | null} */ (null);
/** Local time (performance.now()) at which the last `clocks` arrived. */
let clocksAt = 0;

const connEl = /** @type {HTMLElement} */ (document.getElementById('conn'));
const seatsEl = /** @type {HTMLElement} */ (document.getElementById('seats'));
const youEl = /** @type {HTMLElement} */ (document.getElementById('you'));
const titleEl = /** @type {HTMLElement} */ (document.getElementById('game-title'));
const boardEl = /** @type {HTMLElement} */ (document.getElementById('board'));
const actionsEl = /** @type {HTMLElement} */ (document.getElementById('game-actions'));
const alertEl = /** @type {HTMLElement} */ (document.getElementById('alert'));
const resultEl = /** @type {HTMLElement} */ (document.getElementById('result'));
const movesEl = /** @type {HTMLElement} */ (document.getElementById('moves'));

/**
 * What the game calls each seat now, where a seat's number is not its side
 * (`seat_labels`, docs/api.md: Twin Grids after the pie rule's swap): the
 * last state's, else the summary's; null where seat i is player i + 1.
 * @returns {string[] | null}
 */
function labels() {
  return (last && last.seat_labels) || (summary && summary.seat_labels) || null;
}

/** A seat's name with its side ("Ann (player 1)"). @param {number} s */
function nameOf(s) {
  return seatName(summary.seats, s, labels());
}

/** A seat's side ("player 1"). @param {number} s */
function sideOf(s) {
  return seatSide(s, labels());
}

function clearError() {
  replace(alertEl);
  alertEl.classList.remove('shown');
}

/** @param {string} message */
function showError(message) {
  replace(alertEl, h('p', null, '⚠ ', message, ' ', h('button', { type: 'button', class: 'link', onclick: () => replace(alertEl) }, 'dismiss')));
  alertEl.classList.add('shown');
  clearTimeout(/** @type {any} */ (showError).t);
  /** @type {any} */ (showError).t = setTimeout(() => { replace(alertEl); alertEl.classList.remove('shown'); }, 10000);
}

/** @param {'ok'|'wait'|'down'} kind @param {string} text */
function setConn(kind, text) {
  connEl.className = `conn ${kind}`;
  connEl.textContent = `${kind === 'ok' ? '●' : kind === 'wait' ? '◐' : '○'} ${text}`;
  document.body.dataset.conn = kind;
}

/** Whether our WebSocket is open now. */
function online() {
  return !!ws && ws.readyState === WebSocket.OPEN;
}

function clockRemaining() {
  return clockEnd === null ? null : Math.max(0, clockEnd - performance.now());
}

/**
 * A seat's bank now (ms), counted down here from the server's numbers
 * since they arrived (docs/api.md "Time controls": `clocks`); null without
 * a bank.
 * @param {number} seat
 */
function bankLeft(seat) {
  const c = last && last.clocks && last.clocks.seats[seat];
  if (!c || c.bank_ms === null || c.bank_ms === undefined) return null;
  if (!c.running || waitingFor().length || (last && last.to_act === 'over')) return c.bank_ms;
  const elapsed = performance.now() - clocksAt;
  return Math.max(0, c.bank_ms - Math.max(0, elapsed - c.delay_ms));
}

/** @param {number} ms */
function mmss(ms) {
  const sec = Math.ceil(ms / 1000);
  return `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, '0')}`;
}

/**
 * A running timer of the last `clocks` (docs/api.md "Time controls"): ms
 * left now, counted down here from `remaining_ms` since it arrived.
 * @param {{remaining_ms: number} | null | undefined} t
 */
function timerLeft(t) {
  if (!t) return null;
  return Math.max(0, t.remaining_ms - (performance.now() - clocksAt));
}

/**
 * Every seat's turn clock and absent countdown, as a countdown beside the
 * seat, for everyone (players and spectators): the server's clocks, never
 * a guess.
 */
function drawCountdowns() {
  for (const el of seatsEl.querySelectorAll('.mark.countdown')) {
    const seat = Number(/** @type {HTMLElement} */ (el).dataset.seat);
    const c = last && last.to_act !== 'over' && !waitingFor().length && last.clocks && last.clocks.seats[seat];
    const tc = last && last.turn_clock && last.turn_clock.seat === seat ? last.turn_clock : null;
    const parts = [];
    const turn = c ? timerLeft(c.turn) : null;
    const absent = c ? timerLeft(c.absent) : null;
    if (turn !== null) parts.push(`⌛ turn ${mmss(turn)}`);
    if (tc && tc.reason === 'claim') parts.push(`⚑ claim ${mmss(timerLeft(tc) || 0)}`);
    else if (absent !== null) parts.push(`⚠ away: ${mmss(absent)} before the computer plays`);
    el.textContent = parts.join(' · ');
    const low = [turn, absent].some((ms) => ms !== null && ms < 10000);
    el.classList.toggle('low', low);
  }
}

/** Writes every seat's bank into its mark (see drawSeats). */
function drawBanks() {
  for (const el of seatsEl.querySelectorAll('.mark.bank')) {
    const ms = bankLeft(Number(/** @type {HTMLElement} */ (el).dataset.seat));
    if (ms === null) continue;
    el.textContent = ms > 0 ? `⏱ ${mmss(ms)}` : '⏱ 0:00 out of time';
    el.classList.toggle('low', ms > 0 && ms < 10000);
  }
}

function drawSeats() {
  if (!summary) return;
  const toAct = last ? last.to_act : summary.to_act;
  // While the game's clock waits for players nobody acts.
  const acting = new Set(
    waitingFor().length === 0 && typeof toAct === 'object' && toAct !== null
      ? 'one' in toAct ? [toAct.one] : toAct.simultaneous
      : [],
  );
  replace(
    seatsEl,
    summary.seats.map((s) => {
      const marks = [];
      if (acting.has(s.seat)) marks.push(h('span', { class: 'mark acting' }, '▶ to act'));
      if (s.kind === 'human') {
        if (!s.joined) marks.push(h('span', { class: 'mark free' }, '◌ seat free'));
        // Without our own connection we cannot know who else is there.
        else if (!online()) marks.push(h('span', { class: 'mark unknown' }, '? not known (we are offline)'));
        else marks.push(h('span', { class: `mark ${s.connected ? 'online' : 'offline'}` }, s.connected ? '● online' : '○ away'));
      } else marks.push(h('span', { class: 'mark bot' }, '⚙ computer'));
      if (bankLeft(s.seat) !== null) marks.push(h('span', { class: 'mark bank', dataset: { seat: String(s.seat) }, title: 'time left on this seat\'s clock' }));
      marks.push(h('span', { class: 'mark countdown', dataset: { seat: String(s.seat) } }));
      if (s.seat === mySeat) marks.push(h('strong', { class: 'mark you' }, '★ you'));
      return h('li', { class: `seat${acting.has(s.seat) ? ' acting' : ''}${s.seat === mySeat ? ' me' : ''}`, dataset: { seat: String(s.seat) } }, nameOf(s.seat), ' ', marks);
    }),
  );
  drawBanks();
}

function drawYou() {
  if (mySeat === null) {
    // Open seats only: an invited seat is its invitee's (docs/api.md `claim`).
    const free = summary && summary.public ? summary.seats.filter((s) => s.kind === 'human' && s.open && !s.joined) : [];
    replace(
      youEl,
      '◎ You are watching.',
      free.map((s) =>
        h('button', {
          type: 'button',
          onclick: async () => {
            try {
              const res = await call('POST', `/api/games/${id}/claim`, { seat: s.seat, name: myName() || undefined, player: playerKey() });
              rememberToken(id, res.token);
              location.reload();
            } catch (e) {
              showError(/** @type {Error} */ (e).message);
            }
          },
        }, `Sit as ${sideOf(s.seat)}`),
      ),
    );
    return;
  }
  const input = /** @type {HTMLInputElement} */ (h('input', { id: 'rename', value: myName(), maxlength: 40, size: 12, 'aria-label': 'Your name' }));
  replace(
    youEl,
    h('form', {
      class: 'rename',
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        // Kept only once the server takes it: a refused name (one with
        // invisible or bidirectional characters, say) is said and undone.
        const before = myName();
        setMyName(input.value);
        try {
          await join();
        } catch (err) {
          setMyName(before);
          input.value = before;
          showError(/** @type {Error} */ (err).message);
        }
      },
    }, `You are ${sideOf(mySeat)}. Name `, input, h('button', null, 'Save')),
  );
}

/** @param {number} n */
const plural = (n) => {
  const w = (last && last.score_words) || { one: 'point', many: 'points' };
  return `${n} ${n === 1 ? w.one : w.many}`;
};

/**
 * The result, at the top of the page (above the board, on a phone too):
 * who won, with the scores in the game's own words (`score_words`), how
 * it ended (the last move, as the move list tells it), Rematch and "New
 * opponent" (the lobby with the same settings).
 */
function drawOver() {
  if (!summary) return;
  const over = last ? last.to_act === 'over' : summary.status === 'over';
  if (!over) {
    resultEl.hidden = true;
    replace(resultEl);
    document.body.dataset.over = 'false';
    return;
  }
  resultEl.hidden = false;
  document.body.dataset.over = 'true';
  const outcome = (last && last.outcome) || summary.outcome;
  const aborted = !!(last && last.aborted) || !!summary.aborted;
  /** @type {HTMLElement[]} */
  const lines = [];
  let headline = aborted ? 'Game aborted: nobody won' : 'Game over';
  if (outcome) {
    const first = outcome.ranking[0] || [];
    const names = first.map((s) => (s === mySeat ? 'You' : nameOf(s)));
    if (first.length === summary.seats.length && first.length > 1) headline = 'Game over: a draw';
    else if (first.length) headline = `★ ${names.join(' and ')} ${first.length === 1 && first[0] !== mySeat ? 'wins' : 'win'}`;
    const changes = summary.rated ? ratingChanges() : [];
    outcome.ranking.forEach((group, place) => {
      const who = group.map((s) => nameOf(s)).join(' and ');
      const pts = outcome.scores ? ` — ${group.map((s) => plural(outcome.scores?.[s] ?? 0)).join(', ')}` : '';
      // What the game did to each rating: "rating 1500 → 1662 (+162)".
      const rated = group.flatMap((s) => changes.filter((c) => c.seat === s)).map((c) => {
        const d = c.after - c.before;
        return h('span', { class: 'rating-change', dataset: { seat: String(c.seat) } },
          ` · ${group.length > 1 ? `${c.username}: ` : ''}rating ${c.before} → ${c.after} (${d >= 0 ? '+' : '−'}${Math.abs(d)})`);
      });
      // The list numbers the places (one item per place, ties together).
      lines.push(h('li', { dataset: { place: String(place + 1) } }, `${place === 0 ? '★ ' : ''}${who}${pts}`, ...rated));
    });
  }
  // Who won and why in the game's own words where the page has them;
  // else how it ended: the last move.
  const own = !aborted && page && page.describeEnd ? page.describeEnd() : null;
  const ending = own ? null : moves.length && !aborted ? moveText(moves[moves.length - 1]) : null;
  replace(
    resultEl,
    h('h2', { id: 'result-headline' }, headline),
    own ? h('p', { id: 'result-why' }, own) : ending ? h('p', { id: 'result-why' }, 'How it ended: ', ending) : null,
    lines.length ? h('ol', { class: 'ranking', id: 'ranking' }, lines) : null,
    // A puzzle's game is the puzzle's: its banner offers the next one.
    puzzle ? null : h('div', { class: 'row' },
      mySeat !== null ? h('button', { type: 'button', id: 'rematch', class: 'primary', onclick: rematch }, '↻ Rematch (same rules)') : null,
      h('a', { class: 'button', id: 'new-opponent', href: `/?again=${encodeURIComponent(id)}` }, '☺ New opponent (same settings)')),
    summary.rematch ? h('p', null, 'A rematch exists. ', mySeat === null ? h('a', { href: playUrl(summary.rematch) }, 'Watch it') : null) : null,
    h('p', null, h('a', { href: `/api/games/${id}/record`, target: '_blank' }, 'Game record (JSON)')),
  );
}

/** @type {{seat: number, username: string, before: number, after: number}[] | null | undefined} */
let fetchedChanges;

/**
 * A rated game's rating changes (docs/api.md `GET .../ratings`), asked
 * once the game is over, then drawn into the result. A game rates itself
 * in the transaction of its last action, so one ask finds them; a failed
 * ask is asked again at the next redraw.
 */
function ratingChanges() {
  if (fetchedChanges === undefined) {
    fetchedChanges = null;
    call('GET', `/api/games/${id}/ratings`).then((r) => {
      fetchedChanges = r.changes;
      drawOver();
    }, () => { fetchedChanges = undefined; });
  }
  return fetchedChanges || [];
}

/**
 * Abort (docs/api.md `POST .../abort`): a seat may stop a game nobody has
 * moved in yet, such as a rematch the other player never came to.
 */
function drawAbort() {
  const box = document.getElementById('shell-abort') || h('div', { id: 'shell-abort' });
  if (!box.parentNode) actionsEl.appendChild(box);
  const can = mySeat !== null && !!last && last.seq === 0 && last.to_act !== 'over';
  if (!can) {
    replace(box);
    return;
  }
  replace(
    box,
    h('button', {
      type: 'button',
      id: 'abort',
      class: 'danger',
      onclick: async () => {
        if (!(await confirmDialog('Abort this game? Nobody has moved yet; it ends for everyone, without a winner.', 'Abort', 'Keep it'))) return;
        try {
          await call('POST', `/api/games/${id}/abort`, { token });
          if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'sync' }));
        } catch (e) {
          showError(`Abort: ${/** @type {Error} */ (e).message}`);
        }
      },
    }, '✗ Abort the game'),
    h('span', { class: 'note' }, ' (possible until the first move)'),
  );
}

/** @param {{by: {seat: number} | 'referee'}} m */
function whoOf(m) {
  return m.by === 'referee' ? 'The referee' : nameOf(m.by.seat);
}

/**
 * What a clock did, in words (docs/api.md "Moves": `clock`).
 * @param {Move} m
 */
function clockText(m) {
  const c = m.clock;
  if (!c) return '';
  const who = c.seat === undefined ? '' : c.seat === mySeat ? 'you' : nameOf(c.seat);
  switch (c.reason) {
    case 'turn': return `⏱ on time: ${who} did not move in time, the computer played for ${who === 'you' ? 'you' : 'them'}`;
    case 'flag': return `⏱ on time: ${who} ran out of time`;
    case 'absent': return `⏱ on time: ${who} was away too long, the computer played for ${who === 'you' ? 'you' : 'them'}`;
    case 'claim': return `⚑ ${who} left: the win was claimed`;
    case 'round': return '⏱ the round\'s time ran out';
    default: return '⏱ on time';
  }
}

/**
 * One move in words: the page's own words for its events where it has
 * them (text, or elements such as cards), else the events' kinds; then
 * what a clock did.
 * @param {Move} m
 * @returns {(string | Node)[]}
 */
function moveText(m) {
  const own = page && page.describeMove ? page.describeMove(m) : null;
  // Without the page's words: who acted, and the kinds of what happened.
  const kinds = m.events.map((e) => (e && e.type ? String(e.type).replace(/[-_]/g, ' ') : '')).filter((t) => t);
  /** @type {(string | Node)[]} */
  const texts = own ? /** @type {(string | Node)[]} */ (own.filter((t) => t)) : kinds.length ? [`${whoOf(m)}: ${kinds.join(', ')}`] : [];
  const body = texts.length ? texts.flatMap((t, i) => (i ? ['; ', t] : [t])) : [`${whoOf(m)} moved`];
  const c = clockText(m);
  return c ? [...body, ` (${c})`] : body;
}

/**
 * The move list, first to last, every move numbered (the number is text,
 * so two or three digits never get cut off), kept in view at its end.
 */
function drawMoves() {
  if (!summary) return;
  const atEnd = movesEl.scrollHeight - movesEl.scrollTop - movesEl.clientHeight < 40;
  replace(
    movesEl,
    moves.length
      ? moves.map((m) => h('li', { dataset: { n: String(m.n), clock: m.clock ? m.clock.reason : '' } },
          h('span', { class: 'n' }, `${m.n}.`), ' ', moveText(m)))
      : h('li', { class: 'note' }, 'No moves yet.'),
  );
  document.body.dataset.moves = String(moves.length);
  if (atEnd) movesEl.scrollTop = movesEl.scrollHeight;
}

/** Whether a load of the move list is under way. */
let movesLoading = false;

/**
 * Loads the whole move list (on every connection: nothing is kept from
 * before). One load at a time: states that come meanwhile are covered by
 * one more load once it ends, if the list is still short.
 */
async function loadMoves() {
  if (movesLoading) return;
  movesLoading = true;
  try {
    const q = new URLSearchParams();
    if (token) q.set('token', token);
    const res = await call('GET', `/api/games/${id}/moves?${q}`);
    moves = res.moves;
    movesWhole = moves.length === (last ? last.seq : res.seq);
    drawMoves();
    drawOver();
    // A page that reads its own past from the list (Gobble's points) sees it.
    if (last && last.view !== null && page) page.update(last);
  } catch {
    // The next state message asks again.
    movesWhole = false;
  } finally {
    movesLoading = false;
  }
  if (!movesWhole && last && last.seq > moves.length) loadMoves();
}

/** @param {import('./api.js').StateMsg} s */
function followMoves(s) {
  const m = /** @type {Move | null | undefined} */ (s.move);
  if (movesWhole && m && m.n === moves.length + 1 && s.seq === m.n) {
    moves.push(m);
    drawMoves();
  } else if (!movesWhole || s.seq !== moves.length) {
    movesWhole = false;
    loadMoves();
  } else drawMoves();
}

/**
 * "Claim a win from one who left" (docs/api.md): while the server's claim
 * window is open for an absent seat and this seat may claim, a button.
 */
function drawClaim() {
  const box = document.getElementById('shell-claim') || h('div', { id: 'shell-claim' });
  if (!box.parentNode) actionsEl.prepend(box);
  const tc = last && last.turn_clock;
  if (!tc || tc.reason !== 'claim' || mySeat === null || !(tc.claimable_by || []).includes(mySeat) || !summary) {
    replace(box);
    return;
  }
  const who = nameOf(tc.seat);
  replace(
    box,
    h('p', null, `${who} has left and their time is up. Claim the win, or the computer plays for them when the time runs out: `, h('strong', { id: 'claim-left' })),
    h('button', {
      type: 'button',
      id: 'claim-win',
      class: 'primary',
      onclick: async () => {
        try {
          await call('POST', `/api/games/${id}/claim-win`, { token });
        } catch (e) {
          showError(`Claim: ${/** @type {Error} */ (e).message}`);
        }
      },
    }, `⚑ Claim the win from ${who}`),
  );
}

function drawClaimCountdown() {
  const el = document.getElementById('claim-left');
  const tc = last && last.turn_clock;
  if (el && tc) el.textContent = `${mmss(timerLeft(tc) || 0)} left`;
}

async function rematch() {
  if (!token) return;
  try {
    const res = await askRematch(token);
    rememberToken(res.game.id, res.token);
    const joined = await call('POST', `/api/games/${res.game.id}/join`, { token: res.token, name: myName() || undefined, player: playerKey() }).catch(() => null);
    const secret = (joined && joined.token) || res.token;
    rememberToken(res.game.id, secret);
    location.href = playUrl(res.game.id, secret);
  } catch (e) {
    showError(`Rematch: ${/** @type {Error} */ (e).message}`);
  }
}

/**
 * This seat's place in the rematch: asked over the game's WebSocket
 * (docs/api.md `rematch`, no HTTP request), or over HTTP while it is not
 * open.
 * @param {string} token
 * @returns {Promise<{game: import('./api.js').GameSummary, seat: number, token: string}>}
 */
function askRematch(token) {
  const sock = ws;
  if (!sock || sock.readyState !== WebSocket.OPEN || rematchAsked) {
    return call('POST', `/api/games/${id}/rematch`, { token });
  }
  return new Promise((resolve, reject) => {
    const ref = nextRef++;
    rematchAsked = { ref, resolve, reject };
    sock.send(JSON.stringify({ type: 'rematch', ref }));
  });
}

/**
 * The seat's own secret, as a join answers it: an invite link is used once,
 * and the seat's token from then on is the one the server minted for us.
 * @param {string | undefined} secret
 */
function keepSecret(secret) {
  if (secret && secret !== token) {
    token = secret;
    rememberToken(id, secret);
  }
}

/**
 * Takes (or re-takes) the seat of our token; sets mySeat.
 * @param {boolean} [onLoad] as the page opens: a name kept in this browser
 *   that the server refuses is forgotten rather than keeping the seat away
 */
async function join(onLoad = false) {
  if (!token) return;
  try {
    // Joining without a name would clear the seat's name (one the creator
    // gave, say): without a name of our own, keep the seat's.
    const before = myName() ? null : await call('GET', `/api/games/${id}`).catch(() => null);
    let res = await call('POST', `/api/games/${id}/join`, { token, name: myName() || undefined, player: playerKey() });
    keepSecret(res.token);
    const kept = before && before.seats[res.seat] && before.seats[res.seat].name;
    if (kept) {
      setMyName(kept);
      res = await call('POST', `/api/games/${id}/join`, { token, name: kept, player: playerKey() });
    }
    mySeat = res.seat;
    summary = res.game;
  } catch (e) {
    const err = /** @type {ApiError} */ (e);
    if (onLoad && err.code === 'bad_json' && err.message.startsWith('name:') && myName()) {
      // A name kept in this browser that the server no longer takes:
      // forgotten, and the seat taken without it.
      setMyName('');
      return join();
    }
    if (err.code === 'bad_token') {
      forgetToken(id);
      token = null;
      mySeat = null;
      showError('That invite link is not a seat of this game, or its seat was taken with it: you are watching.');
    } else throw e;
  }
}

/** @param {any} action @returns {Promise<{seq: number}>} */
function act(action) {
  // A refusal's banner belongs to the action it refused.
  clearError();
  return new Promise((resolve, reject) => {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      const e = new ApiError('offline', 'not connected to the server (reconnecting): nothing was sent, try again in a moment', 0);
      reject(e);
      onActError(e, action);
      return;
    }
    const ref = nextRef++;
    pending.set(ref, { resolve, reject, action });
    ws.send(JSON.stringify({ type: 'act', ref, action }));
  });
}

/** @param {ApiError} e @param {any} action */
function onActError(e, action) {
  const handled = page && page.error ? page.error(e, action) : false;
  if (!handled) showError(e.message);
}

// The skip link moves the focus without touching the address: the
// fragment holds a seat's token (an invite link), never a place.
document.getElementById('skip-to-board')?.addEventListener('click', (e) => {
  e.preventDefault();
  document.getElementById('board')?.focus();
});

/** Whether the keyboard's focus is in the game's own controls. */
function boardHasFocus() {
  const board = document.getElementById('board');
  return !!board && board.contains(document.activeElement) && document.activeElement !== board;
}

/**
 * A page redraws its controls after every action, and the control that had
 * the focus may be gone: the focus then fell to the top of the page (after
 * Twin Grids' pie choice, about 15 Tabs away). It goes back to the game:
 * to the control the page marks as next (`data-next-focus`), else the
 * first enabled one, else the board itself.
 * @param {boolean} wasOnBoard
 */
function keepFocusOnBoard(wasOnBoard) {
  if (!wasOnBoard) return;
  const board = document.getElementById('board');
  const active = document.activeElement;
  const enabled = (/** @type {Element | null} */ el) => el instanceof HTMLElement && !el.hasAttribute('disabled') && !el.closest('[hidden]') && el.getClientRects().length > 0;
  // Gone, or hidden with the box it was in (a keyboard press there does nothing).
  if (!board || (active && active !== document.body && document.contains(active) && enabled(active))) return;
  const next = [...board.querySelectorAll('[data-next-focus]')].find(enabled)
    || [...board.querySelectorAll('button, input, select, textarea, [tabindex="0"]')].find(enabled);
  /** @type {HTMLElement} */ (next || board).focus();
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = new URLSearchParams({ legal: 'true' });
  if (token) q.set('token', token);
  const sock = new WebSocket(`${proto}//${location.host}/api/games/${id}/ws?${q}`);
  ws = sock;
  setConn('wait', attempts ? `reconnecting… (attempt ${attempts + 1})` : 'connecting…');
  let opened = false;
  sock.onopen = () => {
    opened = true;
    attempts = 0;
    setConn('ok', 'connected');
    backOnline = true;
    drawSeats();
  };
  sock.onmessage = (ev) => {
    /** @type {any} */
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    switch (msg.type) {
      case 'welcome':
        summary = msg.game;
        mySeat = 'seat' in msg.you ? msg.you.seat : null;
        document.body.dataset.seat = mySeat === null ? 'spectator' : String(mySeat);
        chat?.reset(mySeat, typeof msg.you.speaker === 'number' ? msg.you.speaker : null);
        drawSeats();
        drawYou();
        movesWhole = false;
        loadMoves();
        break;
      case 'chat':
      case 'chat_history':
        chat?.onMessage(msg);
        break;
      case 'state':
        onState(msg);
        break;
      case 'ack': {
        const p = pending.get(msg.ref);
        pending.delete(msg.ref);
        p?.resolve({ seq: msg.seq });
        break;
      }
      case 'assist': {
        const q = helperAsked.get(msg.ref);
        helperAsked.delete(msg.ref);
        q?.resolve(msg.answer);
        break;
      }
      case 'rematch_seat':
        if (rematchAsked && rematchAsked.ref === msg.ref) {
          rematchAsked.resolve(msg);
          rematchAsked = null;
        }
        break;
      case 'error': {
        if (chat?.onError(msg)) break;
        const e = new ApiError(msg.code, msg.message, 0, msg.kind ?? null, msg.at ?? null);
        const q = helperAsked.get(msg.ref);
        if (q) {
          helperAsked.delete(msg.ref);
          q.reject(e);
          break;
        }
        if (rematchAsked && rematchAsked.ref === msg.ref) {
          rematchAsked.reject(e);
          rematchAsked = null;
          break;
        }
        const p = pending.get(msg.ref);
        pending.delete(msg.ref);
        if (p) {
          p.reject(e);
          onActError(e, p.action);
        } else showError(msg.message);
        break;
      }
      case 'seats':
        if (summary) summary.seats = msg.seats;
        drawSeats();
        // A page that writes players' names in its own drawing redraws them.
        if (page?.namesSeats && last && last.view !== null) page.update(last);
        break;
      case 'rematch':
        if (summary) summary.rematch = msg.game;
        drawOver();
        // The player who asked for it is on the way there already.
        if (!rematchAsked) toast('Your opponent wants a rematch: press “Rematch” to join it.');
        break;
    }
  };
  sock.onclose = (ev) => {
    if (ws !== sock) return;
    ws = null;
    for (const [, p] of pending) {
      const e = new ApiError('offline', 'the connection dropped before the server answered; check the board and try again', 0);
      p.reject(e);
    }
    pending.clear();
    for (const [, q] of helperAsked) q.reject(new ApiError('offline', 'the connection dropped before the helper answered; ask again', 0));
    helperAsked.clear();
    if (rematchAsked) {
      rematchAsked.reject(new ApiError('offline', 'the connection dropped before the server answered: press Rematch again', 0));
      rematchAsked = null;
    }
    attempts++;
    const delay = Math.min(2000, 250 * 2 ** Math.min(attempts, 4));
    setConn('down', ev.code === 1012 ? 'server restarting — reconnecting…' : 'connection lost — reconnecting…');
    drawSeats();
    setTimeout(async () => {
      if (!opened && attempts > 3) {
        // Maybe the game is gone, not the network: ask once.
        try {
          await call('GET', `/api/games/${id}`);
        } catch (e) {
          if (/** @type {ApiError} */ (e).code === 'not_found') {
            setConn('down', 'no such game');
            showError(`There is no game ${id} on this server.`);
            return;
          }
        }
      }
      connect();
    }, delay);
  };
}

/** @param {import('./api.js').StateMsg} s */
function onState(s) {
  if (last && s.seq < last.seq) return; // an older message: never go back
  const sides = JSON.stringify(labels());
  last = s;
  // A seat's side changed (the pie rule): "You are player 1" says it.
  if (JSON.stringify(labels()) !== sides) drawYou();
  clockEnd = s.clock ? performance.now() + s.clock.remaining_ms : null;
  clocksAt = performance.now();
  document.body.dataset.seq = String(s.seq);
  if (summary) {
    summary.to_act = s.to_act;
    summary.outcome = s.outcome;
    summary.seq = s.seq;
    if (s.to_act === 'over') summary.status = 'over';
  }
  drawSeats();
  // While the clock waits for its players the server sends no view
  // (`view: null`, docs/api.md "A clock waits for the players"): only a
  // page that says it can show that state is given it; the shell's clock
  // says "waiting for players" meanwhile.
  followMoves(s);
  const focusWasOnBoard = boardHasFocus();
  if (s.view !== null || page?.waitsWithoutView) page?.update(s);
  keepFocusOnBoard(focusWasOnBoard);
  puzzle?.update(s, mySeat);
  if (backOnline) {
    backOnline = false;
    page?.online?.();
  }
  drawClaim();
  drawAbort();
  drawOver();
  tick();
}

/** The human seats the game's clock waits for (docs/api.md `waiting_for`). */
function waitingFor() {
  return (last && last.to_act !== 'over' && last.waiting_for) || [];
}

/**
 * Asks the game's helper as this seat, or as a spectator; resolves to the
 * game's answer. Over the game's WebSocket (docs/api.md `assist`) while it
 * is open, else over HTTP (POST /api/games/{id}/assist).
 * @param {any} request
 */
async function assist(request) {
  const sock = ws;
  if (sock && sock.readyState === WebSocket.OPEN) {
    return new Promise((resolve, reject) => {
      const ref = nextRef++;
      helperAsked.set(ref, { resolve, reject });
      sock.send(JSON.stringify({ type: 'assist', ref, request }));
    });
  }
  const res = await call('POST', `/api/games/${id}/assist`, { token: token || undefined, request });
  return res.answer;
}

function tick() {
  drawBanks();
  drawCountdowns();
  drawClaimCountdown();
  const ms = clockRemaining();
  const el = document.getElementById('shell-clock');
  if (el) {
    // A page that shows the game's clock itself (Gobble, beside its board):
    // one countdown on the page, not two.
    if (page && page.showsClock) el.textContent = '';
    else if (waitingFor().length) el.textContent = '◌ waiting for players';
    else if (ms === null || (last && last.to_act === 'over')) el.textContent = '';
    else el.textContent = `◷ ${mmss(ms)} left`;
  }
}

/**
 * Which word list the game uses (the field of the `word_list` setting the
 * game declares): the name and word count; an uploaded list's name comes
 * from GET /api/word-lists/{id}.
 */
async function drawWordList() {
  if (!summary) return;
  const name = await wordListOf(summary.game, summary.config).catch(() => null);
  if (name === null || document.getElementById('word-list')) return;
  const el = h('p', { id: 'word-list', class: 'word-list', dataset: { lexicon: name } }, `Word list: ${name}`);
  youEl.after(el);
  const d = await describeList(name);
  replace(
    el,
    'Word list: ',
    h('strong', { class: 'wl-name' }, d.name),
    d.words !== null ? ` · ${count(d.words)} word${d.words === 1 ? '' : 's'}` : '',
    d.uploaded ? h('span', { class: 'note' }, 'uploaded, id ', h('code', null, name)) : '',
  );
}

async function main() {
  if (!id) {
    showError('No game id in this address.');
    return;
  }
  try {
    if (token) await join(true);
    if (!summary) summary = await call('GET', `/api/games/${id}`);
  } catch (e) {
    const err = /** @type {ApiError} */ (e);
    titleEl.textContent = 'No such game';
    setConn('down', err.code === 'not_found' ? 'no such game' : 'cannot reach the server');
    showError(err.code === 'not_found' ? `There is no game ${id} on this server.` : err.message);
    if (err.code !== 'not_found') setTimeout(main, 2000);
    return;
  }
  document.title = `${summary.title} — parlor`;
  replace(titleEl, summary.title, ' ',
    // A rated game says so: its result changes both players' ratings.
    summary.rated ? h('span', { id: 'rated-chip', class: 'chip', title: 'A rated game: the result changes both players’ ratings at this game' }, 'Rated') : null,
    summary.rated ? ' ' : null,
    h('span', { id: 'shell-clock', class: 'clock', 'aria-hidden': 'true' }));
  document.body.dataset.game = summary.game;
  drawSeats();
  drawYou();
  drawWordList();
  const mod = await pageFor(summary.game);
  /** @type {PageContext} */
  const ctx = {
    root: boardEl,
    actions: actionsEl,
    get mySeat() {
      return mySeat;
    },
    act,
    summary: () => summary,
    seatName: (s) => nameOf(s),
    clockRemaining,
    waitingFor,
    assist,
    toast,
    confirm: confirmDialog,
    showError,
    moves: () => moves,
    online,
  };
  page = mod.mount(ctx);
  const chatRoot = document.getElementById('chat');
  if (chatRoot) {
    chat = mountChat({
      root: chatRoot,
      gameId: id,
      myName,
      send: (msg) => {
        if (!ws || ws.readyState !== WebSocket.OPEN) return false;
        ws.send(JSON.stringify(msg));
        return true;
      },
    });
  }
  connect();
  setInterval(tick, 250);
  setInterval(() => {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'ping', ref: 'keepalive' }));
  }, 20000);
}

// Leaving the page never loses the seat (it comes back from the link or
// localStorage), but it can lose what was typed and not yet sent.
window.addEventListener('beforeunload', (e) => {
  if (page && page.wouldLose && page.wouldLose()) {
    e.preventDefault();
    e.returnValue = '';
  }
});

document.getElementById('to-lobby')?.addEventListener('click', async (e) => {
  if (mySeat === null || !last || last.to_act === 'over') return;
  e.preventDefault();
  if (await confirmDialog('Leave this game for the lobby? Your seat stays yours: come back through “My games”.', 'Leave', 'Stay')) {
    location.href = '/';
  }
});

main();
