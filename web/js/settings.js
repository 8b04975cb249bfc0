// @ts-check
/**
 * The lobby's rules form for any game, drawn from the settings the game
 * declares (`settings` in GET /api/catalog, docs/api.md "Settings"): one
 * input per setting, its `help` as its description, its value written into
 * the rules at its `field` (a dotted path for nested fields). The lobby
 * itself handles the `seats` setting (the seat count) and the first
 * `word_list` one (the word-list picker).
 *
 * A game's page module may add what a schema cannot say, as `lobby`:
 * `{prefix, note, placeholders, finish(config, seats)}` (see games/index.js).
 */
import { h } from './dom.js';

/** @typedef {import('./api.js').Setting} Setting */
/** @typedef {import('./api.js').SettingOption} SettingOption */

/**
 * What a game's page module may add to its generic rules form.
 * @typedef {{
 *   prefix?: string,
 *   note?: string,
 *   placeholders?: Record<string, string>,
 *   finish?: (config: any, seats: number) => void,
 * }} LobbyHooks
 */

/**
 * The value at a dotted path (`rules.vowels`), or undefined.
 * @param {any} obj @param {string} path
 */
export function getPath(obj, path) {
  let o = obj;
  for (const k of path.split('.')) {
    if (o === null || typeof o !== 'object') return undefined;
    o = o[k];
  }
  return o;
}

/**
 * Sets the value at a dotted path, making the objects on the way.
 * @param {any} obj @param {string} path @param {any} value
 */
export function setPath(obj, path, value) {
  const keys = path.split('.');
  let o = obj;
  for (const k of keys.slice(0, -1)) {
    if (o[k] === null || typeof o[k] !== 'object') o[k] = {};
    o = o[k];
  }
  o[keys[keys.length - 1]] = value;
}

/**
 * A teams field, `1 3 / 2 4` or `1,3/2,4` (player numbers from 1, as the
 * lobby shows them; teams split by "/"), as lists of seats from 0:
 * `[[0, 2], [1, 3]]`. Blank: `null`. Throws with a message on a malformed
 * entry.
 * @param {string} text @param {number} players
 * @returns {number[][] | null}
 */
export function parseTeams(text, players) {
  const t = text.trim();
  if (!t) return null;
  return t.split('/').map((team) =>
    team.split(/[,\s]+/).filter(Boolean).map((x) => {
      const n = Number(x);
      if (!Number.isInteger(n) || n < 1 || n > players) throw new Error(`teams: "${x}" is not a player number from 1 to ${players}`);
      return n - 1;
    }),
  );
}

/**
 * A form field's value as the text of an input (`value` attribute):
 * strings as they are, anything else as JSON.
 * @param {any} v
 */
const asText = (v) => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The lobby's seat-count setting and first word-list setting of a schema.
 * @param {Setting[]} settings
 */
export function special(settings) {
  return {
    seats: settings.find((s) => s.kind.type === 'seats') || null,
    wordList: settings.find((s) => s.kind.type === 'word_list') || null,
  };
}

/**
 * Builds the rules form of one game.
 * @param {{game: string, title: string, settings: Setting[], defaults: any, hooks?: LobbyHooks}} o
 * @returns {{el: HTMLElement | null, config: (seats: number) => any}}
 *   `config(seats)` reads the rules drawn here (not the seat count nor the
 *   lobby's word list) into a new object; it throws with a message for an
 *   entry it cannot read.
 */
export function settingsForm({ game, title, settings, defaults, hooks = {} }) {
  const prefix = hooks.prefix || game;
  const { wordList } = special(settings);
  /** @type {((config: any, seats: number) => void)[]} */
  const readers = [];
  /** @type {HTMLElement[]} */
  const rows = [];
  for (const s of settings) {
    if (s.kind.type === 'seats' || s === wordList) continue;
    const drawn = field(s, `${prefix}-${s.field.replace(/\./g, '-')}`, getPath(defaults, s.field), hooks.placeholders?.[s.field]);
    if (!drawn) continue;
    rows.push(drawn.el);
    readers.push(drawn.read);
  }
  if (!rows.length) return { el: null, config: () => ({}) };
  const el = h(
    'fieldset',
    { class: 'rules', id: `${game}-rules` },
    h('legend', null, `${title} rules`),
    rows,
    hooks.note ? h('p', { class: 'note' }, hooks.note) : null,
  );
  return {
    el,
    config(seats) {
      /** @type {any} */
      const c = {};
      for (const read of readers) read(c, seats);
      if (hooks.finish) hooks.finish(c, seats);
      return c;
    },
  };
}

/**
 * One setting's row: its label (with the input) and its help below.
 * @param {...(HTMLElement | null)} parts
 */
const row = (...parts) => h('div', { class: 'setting' }, parts);

/**
 * One setting's input, with its label and help, and how to read it.
 * @param {Setting} s @param {string} id @param {any} dflt the game's default
 * @param {string} [placeholder]
 * @returns {{el: HTMLElement, read: (config: any, seats: number) => void} | null}
 */
function field(s, id, dflt, placeholder) {
  const helpId = `${id}-help`;
  const help = s.help ? h('small', { id: helpId, class: 'help' }, s.help) : null;
  const described = s.help ? helpId : undefined;
  const k = s.kind;
  switch (k.type) {
    case 'integer':
    case 'number': {
      const optional = k.type === 'integer' && k.optional;
      const input = /** @type {HTMLInputElement} */ (
        h('input', {
          id,
          type: 'number',
          min: k.min,
          max: k.max,
          step: k.type === 'integer' ? 1 : 'any',
          value: typeof dflt === 'number' ? String(dflt) : '',
          placeholder: optional ? 'auto' : undefined,
          'aria-describedby': described,
        })
      );
      return {
        el: row(h('label', null, `${s.label} `, input), help),
        read(c) {
          const t = input.value.trim();
          if (!t) return; // the game's default
          const n = Number(t);
          if (!Number.isFinite(n) || (k.type === 'integer' && !Number.isInteger(n)) || n < k.min || n > k.max) {
            throw new Error(`${s.label}: ${k.type === 'integer' ? 'a whole number' : 'a number'} from ${k.min} to ${k.max}`);
          }
          setPath(c, s.field, n);
        },
      };
    }
    case 'bool': {
      const input = /** @type {HTMLInputElement} */ (h('input', { id, type: 'checkbox', checked: !!dflt, 'aria-describedby': described }));
      return {
        el: row(h('label', { class: 'check' }, input, ` ${s.label}`), help),
        read(c) {
          setPath(c, s.field, input.checked);
        },
      };
    }
    case 'choice': {
      const opts = k.options;
      const select = /** @type {HTMLSelectElement} */ (
        h('select', { id, 'aria-describedby': described }, opts.map((o, i) => h('option', { value: String(i) }, o.label)))
      );
      const at = opts.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(dflt));
      select.value = String(Math.max(0, at));
      return {
        el: row(h('label', null, `${s.label} `, select), help),
        read(c) {
          setPath(c, s.field, opts[Number(select.value)].value);
        },
      };
    }
    case 'flags': {
      const on = new Set((Array.isArray(dflt) ? dflt : []).map((v) => JSON.stringify(v)));
      const opts = k.options;
      const boxes = opts.map((o, i) =>
        /** @type {HTMLInputElement} */ (
          h('input', { type: 'checkbox', name: id, value: asText(o.value), dataset: { index: String(i) }, checked: on.has(JSON.stringify(o.value)) })
        ),
      );
      return {
        el: h(
          'fieldset',
          { id, class: 'flags', 'aria-describedby': described },
          h('legend', null, s.label),
          help,
          h('div', { class: 'rule-grid' }, boxes.map((b, i) => h('label', { class: 'check rule' }, b, ' ', opts[i].label))),
        ),
        read(c) {
          setPath(c, s.field, boxes.filter((b) => b.checked).map((b) => opts[Number(b.dataset.index)].value));
        },
      };
    }
    case 'text':
    case 'word_list': {
      const optional = k.type === 'text' && k.optional;
      const input = /** @type {HTMLInputElement} */ (
        h('input', {
          id,
          maxlength: k.type === 'text' ? k.max_len : 80,
          size: Math.min(36, k.type === 'text' ? k.max_len : 20),
          autocomplete: 'off',
          value: !optional && typeof dflt === 'string' ? dflt : '',
          placeholder: placeholder ?? (optional && typeof dflt === 'string' ? dflt : undefined),
          'aria-describedby': described,
        })
      );
      return {
        el: row(h('label', null, `${s.label} `, input), help),
        read(c) {
          const t = input.value.trim();
          if (!t && optional) return; // left out: the game's default
          setPath(c, s.field, t);
        },
      };
    }
    case 'teams': {
      const input = /** @type {HTMLInputElement} */ (
        h('input', { id, size: 24, autocomplete: 'off', placeholder: placeholder ?? '1 3 / 2 4', 'aria-describedby': described })
      );
      return {
        el: row(h('label', null, `${s.label} `, input), help, h('small', { class: 'help' }, 'player numbers from 1, teams split by “/”')),
        read(c, seats) {
          const teams = parseTeams(input.value, seats);
          if (teams) setPath(c, s.field, teams);
        },
      };
    }
    default:
      return null; // a kind this page does not know: the game's default
  }
}

/**
 * The rules of a preset (GET /api/catalog `presets`, docs/api.md
 * "Presets"): the game's defaults with the preset's values written in at
 * their fields, exactly as the settings form would write them.
 * @param {any} defaults @param {import('./api.js').Preset} preset
 */
export function presetConfig(defaults, preset) {
  const c = JSON.parse(JSON.stringify(defaults ?? {}));
  for (const [field, v] of Object.entries(preset.values)) setPath(c, field, v);
  return c;
}

/**
 * What a preset sets, one line per setting in the game's own words: the
 * setting's label, the value as the form shows it, and its one-line help
 * (none for a switch that is off).
 * @param {Setting[]} settings @param {import('./api.js').Preset} preset
 * @returns {{field: string, label: string, value: string, help: string}[]}
 */
export function describePreset(settings, preset) {
  return Object.entries(preset.values).map(([field, v]) => {
    const s = settings.find((x) => x.field === field);
    if (!s) return { field, label: field, value: asText(v), help: '' };
    const k = s.kind;
    /** @param {any} x */
    const optionLabel = (x) => {
      const o = 'options' in k ? k.options.find((o) => JSON.stringify(o.value) === JSON.stringify(x)) : null;
      return o ? o.label : asText(x);
    };
    let value;
    if (k.type === 'bool') value = v ? 'on' : 'off';
    else if (k.type === 'choice') value = optionLabel(v);
    else if (k.type === 'flags') value = Array.isArray(v) && v.length ? v.map(optionLabel).join(', ') : 'none';
    else value = v === null ? 'the game chooses' : asText(v);
    // A switch's help says what it does when on: beside "off" it would
    // describe a rule the game is not played with.
    return { field, label: s.label, value, help: k.type === 'bool' && !v ? '' : s.help };
  });
}
