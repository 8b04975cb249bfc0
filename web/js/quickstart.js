// @ts-check
/**
 * The lobby's quick start: one card per game, with how to play in short,
 * a link to the game's rules page, a choice of the game's presets (each
 * shown as the settings it sets, in the settings' own words), and one
 * click to play the computer, invite a friend, or open a seat to anyone.
 * A preset only fills in the game's declared settings (presetConfig in
 * settings.js); every other setting keeps the game's default, and the
 * whole form stays under "More rules".
 */
import { call, playerKey, myName, rememberToken, playUrl } from './api.js';
import { h, replace } from './dom.js';
import { special, getPath, presetConfig, describePreset } from './settings.js';

/** A phone-sized screen: the lobby's narrow layout (web/app.css). */
const PHONE = window.matchMedia('(max-width: 48rem)');

/** @typedef {import('./api.js').CatalogGame} CatalogGame */
/** @typedef {import('./api.js').Preset} Preset */

const LEVELS = ['easy', 'medium', 'hard', 'best'];

/**
 * The seat count a quick game has: the game's default.
 * @param {CatalogGame} g
 */
function defaultSeats(g) {
  const seats = special(g.settings || []).seats;
  const n = seats ? getPath(g.default_config, seats.field) : null;
  return typeof n === 'number' ? n : g.min_seats;
}

/**
 * @param {{
 *   root: HTMLElement,
 *   games: CatalogGame[],
 *   showCreated: (res: any, box: HTMLElement) => void,
 *   refreshLists: () => void,
 *   saveName: () => void,
 * }} o
 */
export function quickStart({ root, games, showCreated, refreshLists, saveName }) {
  replace(
    root,
    h('h2', { id: 'quick-h' }, 'Quick start'),
    h('p', { class: 'note' }, 'Choose a game and how to play it; the full settings are under “More rules” below.'),
    h('div', { class: 'quick-games' }, games.map((g) => card(g))),
  );

  /** @param {CatalogGame} g */
  function card(g) {
    const presets = g.presets || [];
    const settings = g.settings || [];
    const group = `preset-${g.name}`;
    const radios = presets.map((p, i) =>
      /** @type {HTMLInputElement} */ (h('input', { type: 'radio', name: group, value: p.name, checked: i === 0, id: `${group}-${p.name}` })),
    );
    const rulesList = h('ul', { class: 'preset-rules', id: `preset-rules-${g.name}`, 'aria-live': 'polite' });
    const chosen = () => presets.find((p, i) => radios[i].checked) || null;
    const drawRules = () => {
      const p = chosen();
      replace(
        rulesList,
        p
          ? describePreset(settings, p).map((r) =>
              h('li', { dataset: { field: r.field } }, h('strong', null, `${r.label}: ${r.value}`), r.help ? ` — ${r.help}` : ''),
            )
          : null,
      );
    };
    radios.forEach((r) => r.addEventListener('change', drawRules));
    drawRules();
    const level = /** @type {HTMLSelectElement} */ (
      h('select', { id: `quick-level-${g.name}`, 'aria-label': `Computer's strength for ${g.title}` }, LEVELS.map((l) => h('option', { value: l }, l)))
    );
    level.value = 'medium';
    const created = h('div', { class: 'quick-created', 'aria-live': 'polite' });

    /** @param {'bot' | 'invite' | 'open'} how */
    async function start(how) {
      saveName();
      const n = defaultSeats(g);
      const p = chosen();
      const config = p ? presetConfig(g.default_config, p) : JSON.parse(JSON.stringify(g.default_config));
      const others = Array.from({ length: n - 1 }, (_, i) => i + 1);
      /** @type {any} */
      const body = {
        game: g.name,
        config,
        // An invite is private: it is not listed, and only the link takes the seat.
        public: how !== 'invite',
        player: playerKey(),
        take_seat: 0,
        name: myName() || undefined,
        bots: how === 'bot' ? others.map((seat) => ({ seat, level: level.value })) : [],
      };
      if (how === 'open') body.open_seats = others;
      buttons.forEach((b) => (b.disabled = true));
      try {
        const res = await call('POST', '/api/games', body);
        if (res.you) rememberToken(res.game.id, res.you.token);
        if (how === 'invite') {
          showCreated(res, created);
          refreshLists();
        } else {
          location.href = playUrl(res.game.id, res.you ? res.you.token : undefined);
        }
      } catch (err) {
        replace(created, h('p', { class: 'error', role: 'alert' }, `⚠ Could not create the game: ${/** @type {Error} */ (err).message}`));
      } finally {
        buttons.forEach((b) => (b.disabled = false));
      }
    }

    const buttons = /** @type {HTMLButtonElement[]} */ ([
      h('button', { type: 'button', class: 'primary', id: `quick-bot-${g.name}`, onclick: () => start('bot') }, '▶ Play the computer'),
      h('button', { type: 'button', id: `quick-invite-${g.name}`, onclick: () => start('invite') }, '✉ Invite a friend'),
      h('button', { type: 'button', id: `quick-open-${g.name}`, onclick: () => start('open') }, '◌ Open to anyone'),
    ]);
    // How to play and the rules fold away on a phone, where five open
    // cards were screens tall; the buttons stay in view.
    const more = h(
      'details',
      { class: 'quick-more', open: !PHONE.matches },
      h('summary', null, 'How to play, rules and the computer\'s strength'),
      g.how_to_play ? h('p', { class: 'how' }, g.how_to_play) : null,
      g.rules_url ? h('p', null, h('a', { href: g.rules_url, target: '_blank', rel: 'noopener', class: 'rules-link' }, `The rules of ${g.title} in full ↗`)) : null,
      presets.length
        ? h(
            'fieldset',
            { class: 'presets' },
            h('legend', null, 'Rules'),
            presets.map((p, i) => h('label', { class: 'check', for: radios[i].id }, radios[i], h('span', null, h('strong', null, p.label), ` — ${p.help}`))),
          )
        : null,
      rulesList,
      h('label', null, 'Computer ', level),
    );
    return h(
      'article',
      { class: 'quick-game', id: `quick-${g.name}`, 'aria-labelledby': `quick-${g.name}-h` },
      h('h3', { id: `quick-${g.name}-h` }, g.title),
      more,
      h('div', { class: 'row' }, buttons),
      created,
    );
  }
}
