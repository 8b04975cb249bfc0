// @ts-check
/** The lobby: create a game with its rules, invite links, open/running/my games. */
import { call, playerKey, myName, setMyName, rememberToken, tokenFor, playUrl, seatName, seatSide, listedSides } from './api.js';
import { h, replace, toast } from './dom.js';
import { pageFor } from './games/index.js';
import { wordListPicker, isUpload } from './wordlists.js';
import { settingsForm, special, getPath, setPath, presetConfig } from './settings.js';
import { quickStart } from './quickstart.js';

/** @typedef {import('./api.js').GameSummary} GameSummary */
/** @typedef {import('./api.js').CatalogGame} CatalogGame */

const LEVELS = ['easy', 'medium', 'hard', 'best'];

/** @type {HTMLInputElement} */
const nameInput = /** @type {any} */ (document.getElementById('my-name'));
nameInput.value = myName();
nameInput.addEventListener('change', () => setMyName(nameInput.value));

/** The catalog's games, once loaded (their settings name their word-list field). @type {CatalogGame[]} */
let knownGames = [];

// "More rules" stays as this browser last left it.
const moreRules = /** @type {HTMLDetailsElement} */ (document.getElementById('more-rules'));
moreRules.open = localStorage.getItem('parlor.more-rules') === 'open';
moreRules.addEventListener('toggle', () => localStorage.setItem('parlor.more-rules', moreRules.open ? 'open' : 'closed'));

/**
 * The time control of a new game (docs/api.md "Time controls"), in its own
 * block of the form: every field optional, left empty for no such clock.
 * @returns {{el: HTMLElement, value: () => any, set: (tc: any) => void}}
 */
function timeControlFields() {
  /** @param {string} id @param {string} label @param {string} help */
  const field = (id, label, help) => {
    // Any fraction the API takes (0.1 s and up) is valid: a step would
    // make the browser refuse the form silently for a value such as 1.5
    // ("New opponent" fills the fields from a game's clocks).
    const input = /** @type {HTMLInputElement} */ (h('input', { id, type: 'number', min: 0, step: 'any', size: 6, placeholder: 'none' }));
    return { input, el: h('label', { class: 'tc-row', title: help }, `${label} `, input) };
  };
  const bank = field('tc-bank', 'Minutes per player', 'each player\'s own clock (chess clock): out of time loses');
  const inc = field('tc-increment', '+ seconds per move', 'added to the player\'s clock after each of their moves');
  const delay = field('tc-delay', 'Delay (s)', 'each turn, the clock starts only after this long');
  const turn = field('tc-turn', 'Seconds per turn', 'a turn not played in time is played by the computer');
  const absent = field('tc-absent', 'If a player leaves (s)', 'a player away this long on their turn: the others may claim the win, or the computer plays');
  const el = h(
    'fieldset',
    { id: 'time-control', class: 'time-control' },
    h('legend', null, 'Clock (optional)'),
    [bank, inc, delay, turn, absent].map((f) => f.el),
  );
  /** @param {HTMLInputElement} i */
  const num = (i) => (i.value.trim() === '' ? null : Number(i.value));
  return {
    el,
    /** Fills the fields from a game's time control ("New opponent"). @param {any} tc */
    set: (tc) => {
      /** @param {HTMLInputElement} i @param {number | undefined} v */
      const put = (i, v) => { i.value = typeof v === 'number' ? String(v) : ''; };
      put(bank.input, typeof tc.bank_seconds === 'number' ? tc.bank_seconds / 60 : undefined);
      put(inc.input, tc.increment_seconds);
      put(delay.input, tc.delay_seconds);
      put(turn.input, tc.turn_seconds);
      put(absent.input, tc.absent_seconds);
    },
    value: () => {
      /** @type {any} */
      const tc = {};
      const b = num(bank.input);
      if (b !== null) tc.bank_seconds = b * 60;
      if (num(inc.input)) tc.increment_seconds = num(inc.input);
      if (num(delay.input)) tc.delay_seconds = num(delay.input);
      if (num(turn.input) !== null) tc.turn_seconds = num(turn.input);
      if (num(absent.input) !== null) tc.absent_seconds = num(absent.input);
      return Object.keys(tc).length ? tc : null;
    },
  };
}

async function buildCreateForm() {
  const form = /** @type {HTMLFormElement} */ (document.getElementById('create-form'));
  /** @type {{games: CatalogGame[], lexicons?: string[], word_lists?: {name: string, words: number}[]}} */
  let catalog;
  try {
    catalog = await call('GET', '/api/catalog');
    knownGames = catalog.games;
  } catch (e) {
    replace(form, h('p', { class: 'error', role: 'alert' }, `⚠ ${/** @type {Error} */ (e).message}`));
    return;
  }
  quickStart({
    root: /** @type {HTMLElement} */ (document.getElementById('quick')),
    games: catalog.games,
    showCreated,
    refreshLists,
    saveName: () => setMyName(nameInput.value),
  });
  const gameSel = /** @type {HTMLSelectElement} */ (
    h('select', { id: 'game', name: 'game' }, catalog.games.map((g) => h('option', { value: g.name }, g.title)))
  );
  const seatsInput = /** @type {HTMLInputElement} */ (h('input', { id: 'seats', type: 'number', min: 1, max: 16, value: 2 }));
  const seatsBox = h('fieldset', { class: 'seats' });
  const publicBox = /** @type {HTMLInputElement} */ (h('input', { id: 'public', type: 'checkbox', checked: true }));
  // Rated games need a logged-in creator (docs/api.md "Accounts"): the box
  // shows once the account line knows someone is logged in.
  const ratedBox = /** @type {HTMLInputElement} */ (h('input', { id: 'rated', type: 'checkbox' }));
  const ratedLabel = h('label', { class: 'check', id: 'rated-label', hidden: !loggedIn }, ratedBox,
    ' Rated: changes both players\' ratings; every seat needs an account, no computer players');
  const rulesBox = h('div', { id: 'rules' });
  // A preset fills the form's settings in (the game's defaults otherwise).
  const presetSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'preset' }));
  // The word list, for every game whose settings declare one (`word_list`).
  const words = wordListPicker(
    catalog.word_lists || (catalog.lexicons || ['en']).map((name) => ({ name, words: 0 })),
    'en',
  );
  /** @type {{el: HTMLElement | null, config: (seats: number) => any} | null} */
  let options = null;
  const clock = timeControlFields();
  /**
   * "New opponent" from a finished game's page (`/?again=<id>`): the form
   * starts from that game's rules and clocks, with new seats.
   * @type {GameSummary | null}
   */
  let again = await (async () => {
    const from = new URLSearchParams(location.search).get('again');
    if (!from) return null;
    try {
      return await call('GET', `/api/games/${encodeURIComponent(from)}`);
    } catch {
      return null;
    }
  })();
  const againGame = again ? again.game : null;
  if (again && catalog.games.some((g) => g.name === againGame)) {
    /** @type {HTMLSelectElement} */ (gameSel).value = again.game;
    if (again.time_control) clock.set(again.time_control);
  }

  const current = () => catalog.games.find((g) => g.name === gameSel.value) || catalog.games[0];

  function drawSeats() {
    const { min, max } = seatRange();
    const n = Math.max(min, Math.min(max, Number(seatsInput.value) || min));
    const old = Array.from(seatsBox.querySelectorAll('select')).map((s) => /** @type {HTMLSelectElement} */ (s).value);
    const rows = [];
    for (let i = 0; i < n; i++) {
      const sel = h(
        'select',
        { id: `seat-${i}`, 'aria-label': `Player ${i + 1}` },
        h('option', { value: 'me' }, 'me'),
        h('option', { value: 'human' }, 'a friend (invite link)'),
        h('option', { value: 'open' }, 'anyone (open seat)'),
        LEVELS.map((l) => h('option', { value: `bot:${l}` }, `computer (${l})`)),
      );
      /** @type {HTMLSelectElement} */ (sel).value = old[i] || (i === 0 ? 'me' : 'human');
      rows.push(h('label', { class: 'seat-row' }, `Player ${i + 1}: `, sel));
    }
    replace(seatsBox, h('legend', null, 'Seats (player 1 moves first)'), rows);
  }

  /** The seat-count and word-list settings of the current game, from its schema. */
  const specials = () => special(current().settings || []);

  /** The fewest and most seats of the current game. */
  function seatRange() {
    const g = current();
    const seats = specials().seats;
    return seats && seats.kind.type === 'seats' ? { min: seats.kind.min, max: seats.kind.max } : { min: g.min_seats, max: g.max_seats };
  }

  let drawn = 0;
  /** The rules the form starts from: the chosen preset's, or the game's defaults. */
  const startingRules = () => {
    const g = current();
    const p = (g.presets || []).find((x) => x.name === presetSel.value);
    return p ? presetConfig(g.default_config, p) : g.default_config;
  };

  async function drawRules() {
    const g = current();
    const mine = ++drawn;
    const { seats, wordList } = specials();
    const range = seatRange();
    seatsInput.min = String(range.min);
    seatsInput.max = String(range.max);
    // The settings "New opponent" came with, for their game (until
    // another game or a preset is chosen); else the preset's.
    const base = again && again.game === g.name ? again.config : startingRules();
    const n = seats ? getPath(base, seats.field) : null;
    seatsInput.value = String(typeof n === 'number' ? n : range.min);
    seatsInput.disabled = range.min === range.max;
    drawSeats();
    const mod = await pageFor(g.name);
    if (mine !== drawn) return; // another game was chosen meanwhile
    options = g.settings && g.settings.length
      ? settingsForm({ game: g.name, title: g.title, settings: g.settings, defaults: base, hooks: mod.lobby })
      : mod.lobbyOptions
        ? mod.lobbyOptions(base)
        : null;
    replace(rulesBox, options ? options.el : null);
    words.el.hidden = !wordList;
    if (wordList) {
      const dflt = getPath(base, wordList.field);
      if (typeof dflt === 'string') words.setDefault(dflt);
    }
  }

  function drawPresets() {
    const g = current();
    replace(
      presetSel,
      h('option', { value: '' }, 'the game\'s defaults'),
      (g.presets || []).map((p) => h('option', { value: p.name, title: p.help }, p.label)),
    );
    presetSel.value = '';
  }
  gameSel.addEventListener('change', () => {
    again = null;
    drawPresets();
    drawRules();
  });
  presetSel.addEventListener('change', () => {
    again = null;
    drawRules();
  });
  seatsInput.addEventListener('change', drawSeats);
  seatsInput.addEventListener('input', drawSeats);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
    submit.disabled = true;
    await words.settled(); // an upload under way decides the list
    submit.disabled = false;
    const g = current();
    const n = seatsBox.querySelectorAll('select').length;
    /** @type {any} */
    let config;
    try {
      config = { ...(options ? options.config(n) : {}) };
    } catch (err) {
      replace(
        /** @type {HTMLElement} */ (document.getElementById('created')),
        h('p', { class: 'error', role: 'alert' }, `⚠ ${/** @type {Error} */ (err).message}`),
      );
      return;
    }
    const { seats, wordList } = specials();
    if (seats) setPath(config, seats.field, n);
    if (wordList) setPath(config, wordList.field, words.value());
    /** @type {{seat: number, level: string}[]} */
    const bots = [];
    /** @type {number[]} */
    const open = [];
    /** @type {number | null} */
    let me = null;
    seatsBox.querySelectorAll('select').forEach((s, i) => {
      const v = /** @type {HTMLSelectElement} */ (s).value;
      if (v.startsWith('bot:')) bots.push({ seat: i, level: v.slice(4) });
      else if (v === 'open') open.push(i);
      else if (v === 'me' && me === null) me = i;
    });
    setMyName(nameInput.value);
    /** @type {any} */
    const body = { game: g.name, config, bots, public: publicBox.checked, player: playerKey() };
    if (open.length) body.open_seats = open;
    if (loggedIn && ratedBox.checked) body.rated = true;
    const timeControl = clock.value();
    if (timeControl) body.time_control = timeControl;
    if (me !== null) {
      body.take_seat = me;
      body.name = myName() || undefined;
    }
    submit.disabled = true;
    try {
      const res = await call('POST', '/api/games', body);
      showCreated(res);
      refreshLists();
    } catch (err) {
      const listName = wordList ? getPath(config, wordList.field) : null;
      if (/** @type {any} */ (err).code === 'unknown_word_list' && typeof listName === 'string') words.refused(listName);
      replace(
        /** @type {HTMLElement} */ (document.getElementById('created')),
        h('p', { class: 'error', role: 'alert' }, `⚠ Could not create the game: ${/** @type {Error} */ (err).message}`),
      );
    } finally {
      submit.disabled = false;
    }
  });

  replace(
    form,
    h('label', null, 'Game ', gameSel),
    h('label', null, 'Start from ', presetSel),
    h('label', null, 'Players ', seatsInput),
    seatsBox,
    rulesBox,
    words.el,
    clock.el,
    h('label', { class: 'check' }, publicBox, ' Public: listed here, anyone may sit in an open seat'),
    ratedLabel,
    h('button', { type: 'submit', class: 'primary' }, 'Create game'),
  );
  drawPresets();
  await drawRules();
}

/**
 * @param {{game: GameSummary, seats: {seat: number, token: string, invite: string}[], you: {seat: number, token: string} | null}} res
 * @param {HTMLElement} [box] where to show it (the form's own box by default)
 */
function showCreated(res, box = /** @type {HTMLElement} */ (document.getElementById('created'))) {
  const id = res.game.id;
  if (res.you) rememberToken(id, res.you.token);
  const rows = res.seats
    .filter((s) => !res.you || s.seat !== res.you.seat)
    .map((s) => {
      const url = new URL(s.invite, location.href).href;
      const input = /** @type {HTMLInputElement} */ (
        h('input', { readonly: true, value: url, size: 40, class: 'invite', 'aria-label': `Invite link for player ${s.seat + 1}`, dataset: { seat: String(s.seat) } })
      );
      return h(
        'li',
        null,
        `Player ${s.seat + 1}: `,
        input,
        h('button', {
          type: 'button',
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(url);
              toast(`Invite link for player ${s.seat + 1} copied`);
            } catch {
              input.select();
              toast('Select the link and copy it (Ctrl+C)');
            }
          },
        }, 'Copy link'),
      );
    });
  replace(
    box,
    h('h3', null, `${res.game.title} created`),
    rows.length ? h('p', null, 'Send each friend their own link: whoever has a link plays that seat.') : null,
    rows.length ? h('ul', { class: 'invites' }, rows) : null,
    ...res.game.seats
      .filter((s) => s.kind === 'human' && s.open)
      .map((s) => h('p', { class: 'open-seat' }, `Player ${s.seat + 1}: an open seat — anyone in the lobby may sit there.`)),
    res.you
      ? h('p', null, h('a', { class: 'button primary', id: 'go-play', href: playUrl(id, res.you.token) }, `▶ Play (you are player ${res.you.seat + 1})`))
      : h('p', null, h('a', { class: 'button', href: playUrl(id) }, '◎ Watch')),
  );
}

/**
 * How a listed game's seats are named (see `listedSides`).
 * @param {GameSummary} g
 */
function sidesOf(g) {
  const known = knownGames.find((k) => k.name === g.game);
  return listedSides(g, !!known && /** @type {any} */ (known).seats_change_sides);
}

/**
 * "player 1", or where the listing cannot know the seat's side, its name.
 * @param {GameSummary} g @param {number} seat
 */
function asWho(g, seat) {
  const sides = sidesOf(g);
  return sides === false ? seatName(g.seats, seat, false) : seatSide(seat, sides);
}

/**
 * @param {GameSummary} g
 */
function describe(g) {
  const sides = sidesOf(g);
  const seats = g.seats.map((s) => {
    if (s.kind === 'bot' || s.joined) return seatName(g.seats, s.seat, sides);
    return s.open ? `Player ${s.seat + 1}: free` : `Player ${s.seat + 1}: invited`;
  });
  const age = Math.round((Date.now() - g.created_ms) / 60000);
  const known = knownGames.find((k) => k.name === g.game);
  const wordList = known ? special(known.settings || []).wordList : null;
  const list = wordList && g.config ? getPath(g.config, wordList.field) : null;
  const words = typeof list === 'string' && list !== 'en' ? ` (${isUpload(list) ? 'an uploaded word list' : `words: ${list}`})` : '';
  return `${g.title}${words} · ${seats.join(', ')} · ${age < 1 ? 'just now' : `${age} min ago`}`;
}

/**
 * @param {string} id
 * @param {number} seat
 */
async function claim(id, seat) {
  setMyName(nameInput.value);
  try {
    const res = await call('POST', `/api/games/${id}/claim`, { seat, name: myName() || undefined, player: playerKey() });
    rememberToken(id, res.token);
    location.href = playUrl(id);
  } catch (e) {
    toast(`Could not sit down: ${/** @type {Error} */ (e).message}`, 'error');
    refreshLists();
  }
}

async function refreshLists() {
  const open = /** @type {HTMLElement} */ (document.getElementById('open-games'));
  const live = /** @type {HTMLElement} */ (document.getElementById('live-games'));
  const mine = /** @type {HTMLElement} */ (document.getElementById('my-games'));
  try {
    const [o, l, m] = await Promise.all([
      call('GET', '/api/games?status=open&limit=30'),
      call('GET', '/api/games?status=live&limit=30'),
      call('GET', '/api/my-games', undefined, { Authorization: `Bearer ${playerKey()}` }),
    ]);
    replace(
      open,
      o.games.length
        ? h('ul', { class: 'games' }, o.games.map((/** @type {GameSummary} */ g) => {
            const mineToken = tokenFor(g.id);
            return h(
              'li',
              null,
              describe(g),
              ' ',
              mineToken
                ? h('a', { class: 'button', href: playUrl(g.id) }, '▶ My seat')
                : g.seats
                    .filter((s) => s.kind === 'human' && s.open && !s.joined)
                    .map((s) => h('button', { type: 'button', onclick: () => claim(g.id, s.seat) }, `Sit as player ${s.seat + 1}`)),
              ' ',
              h('a', { href: playUrl(g.id) }, 'watch'),
            );
          }))
        : h('p', null, 'No open games. Create one!'),
    );
    replace(
      live,
      l.games.length
        ? h('ul', { class: 'games' }, l.games.map((/** @type {GameSummary} */ g) => h('li', null, describe(g), ' ', h('a', { href: playUrl(g.id) }, '◎ watch'))))
        : h('p', null, 'No running games.'),
    );
    /** @type {{seat: number, token: string, game: GameSummary}[]} */
    const my = m.games;
    for (const x of my) if (!tokenFor(x.game.id)) rememberToken(x.game.id, x.token);
    replace(
      mine,
      my.length
        ? h('ul', { class: 'games' }, my.slice(0, 30).map((x) => {
            const g = x.game;
            // A game waiting for its invitees is `live` (nobody else may sit
            // down), but to its players it still waits.
            const waiting = g.seats.some((s) => s.kind === 'human' && !s.joined);
            const state = g.status === 'over' ? '✔ over' : waiting ? '◌ waiting for players' : '▶ running';
            return h('li', null, h('a', { href: playUrl(g.id, x.token) }, `${g.title} as ${asWho(g, x.seat)}`), ` · ${state} · ${describe(g)}`);
          }))
        : h('p', null, 'Games you create or join show up here (kept for this browser).'),
    );
  } catch (e) {
    toast(`Could not load the game lists: ${/** @type {Error} */ (e).message}`, 'error');
  }
}

/** Whether an account is logged in in this browser (known once `showAccount` has asked). */
let loggedIn = false;

/** The account line of the header: who is logged in and their ratings (docs/api.md "Accounts"). */
async function showAccount() {
  const box = document.getElementById('lobby-account');
  if (!box) return;
  try {
    const me = (await call('GET', '/api/account')).account;
    if (!me) return;
    loggedIn = true;
    document.getElementById('rated-label')?.removeAttribute('hidden');
    const ratings = me.ratings.map((/** @type {any} */ r) => `${r.title} ${r.rating}${r.provisional ? '?' : ''}`).join(', ');
    replace(box,
      h('a', { href: '/account', id: 'account-link' }, me.username),
      ratings ? h('span', { id: 'lobby-ratings' }, ` · ${ratings}`) : null,
      ' · ', h('a', { href: '/leaderboard' }, 'Leaderboards'),
      ' · ', h('a', { href: '/puzzles', id: 'puzzles-link' }, 'Puzzles and today’s challenges'));
  } catch {
    /* the lobby works without it */
  }
}

showAccount();
buildCreateForm().finally(refreshLists);
setInterval(() => {
  if (document.visibilityState === 'visible') refreshLists();
}, 5000);
