// @ts-check
/**
 * The lobby: create a game with its rules, copy invite links, see my games,
 * open games (take a free seat) and running games (watch).
 * @module lobby
 */
import { api, el, playerName, setPlayerName, rememberToken, seatLabel } from './api.js';

/** @typedef {import('./api.js').GameSummary} GameSummary */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const nameInput = /** @type {HTMLInputElement} */ ($('name'));
const gameSelect = /** @type {HTMLSelectElement} */ ($('game'));
const playersInput = /** @type {HTMLInputElement} */ ($('players'));
const configArea = /** @type {HTMLTextAreaElement} */ ($('config'));

/** @type {{name: string, title: string, min_seats: number, max_seats: number, default_config: any}[]} */
let catalog = [];

/** Which config field holds the number of seats, per game. @param {any} config */
function seatsField(config) {
  if ('players' in config) return 'players';
  if ('seats' in config) return 'seats';
  return null;
}

function currentConfig() {
  try {
    return JSON.parse(configArea.value || '{}');
  } catch {
    return null;
  }
}

/** @param {any} config */
function writeConfig(config) {
  configArea.value = JSON.stringify(config, null, 2);
}

function renderSeatKinds() {
  const n = Number(playersInput.value) || 2;
  const box = $('seat-kinds');
  const old = Array.from(box.querySelectorAll('select')).map((s) => /** @type {HTMLSelectElement} */ (s).value);
  box.replaceChildren(
    ...Array.from({ length: n }, (_, i) =>
      i === 0
        ? el('span', { class: 'muted', text: `${seatLabel(0)}: you` })
        : el('label', {}, [
            `${seatLabel(i)}:`,
            el('select', { 'data-seat': i, 'aria-label': `who plays ${seatLabel(i)}` }, [
              el('option', { value: 'human', text: 'a friend (invite link)' }),
              el('option', { value: 'easy', text: 'computer, easy' }),
              el('option', { value: 'medium', text: 'computer, medium' }),
              el('option', { value: 'hard', text: 'computer, hard' }),
              el('option', { value: 'best', text: 'computer, best' }),
            ]),
          ]),
    ),
  );
  box.querySelectorAll('select').forEach((s, i) => {
    if (old[i]) /** @type {HTMLSelectElement} */ (s).value = old[i];
  });
}

/** A few friendly fields per game; everything else is in the JSON. */
function renderOptions() {
  const box = $('game-options');
  const cfg = currentConfig() || {};
  /** @type {HTMLElement[]} */
  const fields = [];
  if (gameSelect.value === 'gobble') {
    fields.push(
      el('label', {}, ['Board', numberSelect('size', [4, 5, 6], cfg.size, (v) => `${v}×${v}`)]),
      el('label', {}, [
        'Round',
        numberSelect('seconds', [60, 120, 180, 240], cfg.seconds, (v) => `${v / 60} min`),
      ]),
      el('label', {}, [
        'Keyphrase (optional)',
        el('input', {
          type: 'text', id: 'opt-keyphrase', value: cfg.keyphrase || '',
          placeholder: 'four words, same board for everyone',
          oninput: (/** @type {Event} */ e) => patch({ keyphrase: /** @type {HTMLInputElement} */ (e.target).value.trim() || null }),
        }),
      ]),
    );
  }
  if (gameSelect.value === 'wordsprout') {
    const rules = new Set(cfg.rules || []);
    for (const [rule, label] of [['out-of-turn', 'out-of-turn play'], ['challenge', 'challenges'], ['undo-losing-play', 'undo a losing play']]) {
      fields.push(
        el('label', {}, [
          el('input', {
            type: 'checkbox', checked: rules.has(rule),
            onchange: (/** @type {Event} */ e) => {
              const c = currentConfig() || {};
              const r = new Set(c.rules || []);
              if (/** @type {HTMLInputElement} */ (e.target).checked) r.add(rule);
              else r.delete(rule);
              patch({ rules: Array.from(r) });
            },
          }),
          label,
        ]),
      );
    }
  }
  box.replaceChildren(...fields);
}

/**
 * @param {string} key @param {number[]} values @param {number} current
 * @param {(v: number) => string} label
 */
function numberSelect(key, values, current, label) {
  const s = /** @type {HTMLSelectElement} */ (
    el('select', { onchange: () => patch({ [key]: Number(s.value) }) },
      values.map((v) => el('option', { value: v, text: label(v), selected: v === current }))));
  return s;
}

/** @param {Record<string, any>} fields */
function patch(fields) {
  const cfg = currentConfig();
  if (cfg) writeConfig({ ...cfg, ...fields });
}

function onGameChange() {
  const g = catalog.find((c) => c.name === gameSelect.value);
  if (!g) return;
  writeConfig(g.default_config);
  const f = seatsField(g.default_config);
  playersInput.min = String(g.min_seats);
  playersInput.max = String(g.max_seats);
  playersInput.value = String(f ? g.default_config[f] : g.min_seats);
  renderSeatKinds();
  renderOptions();
}

/** @param {SubmitEvent} ev */
async function onCreate(ev) {
  ev.preventDefault();
  const config = currentConfig();
  if (!config) {
    $('created').replaceChildren(el('p', { class: 'status bad', text: 'The rules are not valid JSON.' }));
    return;
  }
  const f = seatsField(config);
  if (f) config[f] = Number(playersInput.value);
  const bots = Array.from($('seat-kinds').querySelectorAll('select'))
    .map((s) => /** @type {HTMLSelectElement} */ (s))
    .filter((s) => s.value !== 'human')
    .map((s) => ({ seat: Number(s.dataset.seat), level: s.value }));
  setPlayerName(nameInput.value);
  try {
    const r = await api.create({
      game: gameSelect.value, config, bots,
      public: /** @type {HTMLInputElement} */ ($('public')).checked,
      take_seat: 0, name: nameInput.value || undefined,
    });
    const id = r.game.id;
    for (const s of r.seats) if (s.seat === 0) rememberToken(id, s.token);
    const invites = r.seats.filter((/** @type {any} */ s) => s.seat !== 0);
    $('created').replaceChildren(
      el('p', {}, [el('a', { href: `/play/${id}`, text: 'Go to the table →' })]),
      ...(invites.length
        ? [el('p', { text: 'Send each friend their own link (it is their seat: keep it private):' })]
        : []),
      ...invites.map((/** @type {any} */ s) => {
        const url = location.origin + s.invite;
        return el('div', { class: 'row' }, [
          el('span', { text: seatLabel(s.seat) + ':' }),
          el('code', { class: 'invite', text: url }),
          el('button', { type: 'button', onclick: () => navigator.clipboard?.writeText(url), text: 'Copy' }),
        ]);
      }),
    );
    refresh();
  } catch (e) {
    $('created').replaceChildren(el('p', { class: 'status bad', text: String(/** @type {Error} */ (e).message) }));
  }
}

/** @param {GameSummary} g */
function describe(g) {
  const seats = g.seats
    .map((s) => (s.kind === 'bot' ? `bot (${s.level})` : s.joined ? s.name || seatLabel(s.seat) : 'free seat'))
    .join(', ');
  return `${g.title} · ${seats}`;
}

async function refresh() {
  try {
    const mine = await api.myGames();
    $('mine').replaceChildren(
      mine.games.length
        ? el('ul', {}, mine.games.map((/** @type {any} */ m) => {
            rememberToken(m.game.id, m.token);
            return el('li', {}, [
              el('a', { href: `/play/${m.game.id}`, text: describe(m.game) }),
              ` — ${m.game.status}, you are ${seatLabel(m.seat)}`,
            ]);
          }))
        : el('span', { text: 'No games yet.' }),
    );
    const open = await api.list('open');
    $('open').replaceChildren(
      open.games.length
        ? el('ul', {}, open.games.map((/** @type {GameSummary} */ g) =>
            el('li', {}, [
              describe(g), ' ',
              ...g.seats.filter((s) => s.kind === 'human' && !s.joined).map((s) =>
                el('button', {
                  type: 'button',
                  onclick: async () => {
                    setPlayerName(nameInput.value);
                    try {
                      const r = await api.claim(g.id, s.seat, nameInput.value);
                      rememberToken(g.id, r.token);
                      location.href = `/play/${g.id}`;
                    } catch (e) {
                      alert(/** @type {Error} */ (e).message);
                    }
                  },
                  text: `Sit at ${seatLabel(s.seat)}`,
                })),
            ])))
        : el('span', { text: 'None right now.' }),
    );
    const live = await api.list('live');
    $('live').replaceChildren(
      live.games.length
        ? el('ul', {}, live.games.map((/** @type {GameSummary} */ g) =>
            el('li', {}, [el('a', { href: `/play/${g.id}`, text: describe(g) })])))
        : el('span', { text: 'None right now.' }),
    );
  } catch (e) {
    $('open').textContent = 'The server cannot be reached.';
  }
}

async function start() {
  nameInput.value = playerName();
  nameInput.addEventListener('change', () => setPlayerName(nameInput.value));
  const c = await api.catalog();
  catalog = c.games;
  gameSelect.replaceChildren(...catalog.map((g) => el('option', { value: g.name, text: g.title })));
  if (catalog.some((g) => g.name === 'wordsprout')) gameSelect.value = 'wordsprout';
  gameSelect.addEventListener('change', onGameChange);
  playersInput.addEventListener('change', renderSeatKinds);
  configArea.addEventListener('change', renderOptions);
  $('create').addEventListener('submit', onCreate);
  onGameChange();
  refresh();
  setInterval(refresh, 10000);
}

start();
