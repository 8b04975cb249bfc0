// @ts-check
/**
 * Word lists (docs/api.md "upload a word list"): the lobby's picker — the
 * server's own lists (`/api/catalog` `word_lists`), a file of the player's
 * own uploaded with `POST /api/word-lists`, or an upload id somebody shared
 * — and the game page's line saying which list a game uses.
 *
 * Uploaded lists are not in the catalog: this browser remembers the ones it
 * uploaded or was given (localStorage), so they can be picked again.
 */
import { call, request, ApiError } from './api.js';
import { h, replace, toast } from './dom.js';
import { special, getPath } from './settings.js';

/** @typedef {{name: string, words: number}} ServerList */

/** @typedef {{games: import('./api.js').CatalogGame[], word_lists?: ServerList[], lexicons?: string[]}} Catalog */

/** @type {Promise<Catalog> | null} */
let catalogP = null;

/**
 * `/api/catalog`, fetched once per page (again after a failure).
 * @returns {Promise<Catalog>}
 */
export function catalog() {
  if (!catalogP) {
    catalogP = call('GET', '/api/catalog');
    catalogP.catch(() => { catalogP = null; });
  }
  return catalogP;
}

/**
 * The server's own lists with their word counts (`/api/catalog`
 * `word_lists`), fetched once per page.
 * @returns {Promise<ServerList[]>}
 */
export function serverWordLists() {
  return catalog().then((c) => c.word_lists || (c.lexicons || []).map((name) => ({ name, words: 0 })));
}

/**
 * The word list a game's rules name, found through the settings the game
 * declares (its first `word_list` setting), or null for a game without one.
 * @param {string} game @param {any} config
 * @returns {Promise<string | null>}
 */
export async function wordListOf(game, config) {
  const c = await catalog();
  const g = c.games.find((x) => x.name === game);
  const wl = g ? special(g.settings || []).wordList : null;
  const name = wl ? getPath(config, wl.field) : null;
  return typeof name === 'string' ? name : null;
}

/** @typedef {{id: string, name: string, words: number, skipped?: number, first_skipped?: string | null, duplicates?: number, new?: boolean}} ListInfo */

const STORE = 'parlor.wordlists';
const UPLOAD_ID = /upload-[0-9a-f]{4,64}/i;

/** @param {number} n */
export const count = (n) => n.toLocaleString('en-US');
/** @param {number} n @param {string} one @param {string} [many] */
const plural = (n, one, many = one + 's') => `${count(n)} ${n === 1 ? one : many}`;

/** @param {string} name */
export const isUpload = (name) => /^upload-/.test(name);

/** @returns {ListInfo[]} the uploaded lists this browser knows, newest first */
export function rememberedLists() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE) || '[]');
    return Array.isArray(v) ? v.filter((x) => x && typeof x.id === 'string' && isUpload(x.id)) : [];
  } catch {
    return [];
  }
}

/** @param {ListInfo} info */
function remember(info) {
  const rest = rememberedLists().filter((x) => x.id !== info.id);
  localStorage.setItem(STORE, JSON.stringify([{ id: info.id, name: info.name, words: info.words }, ...rest].slice(0, 20)));
}

/** @param {string} id */
export function forgetList(id) {
  localStorage.setItem(STORE, JSON.stringify(rememberedLists().filter((x) => x.id !== id)));
}

/**
 * Sends a file to `POST /api/word-lists` (the file name as the list's name).
 * @param {Blob} file @param {string} name
 * @returns {Promise<ListInfo>}
 */
export async function uploadList(file, name) {
  const q = new URLSearchParams({ name: Array.from(name || 'uploaded list').slice(0, 80).join('') });
  return request(`/api/word-lists?${q}`, { method: 'POST', headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: file });
}

/** @type {Map<string, Promise<ListInfo>>} */
const infoCache = new Map();

/**
 * An uploaded list's facts (`GET /api/word-lists/{id}`).
 * @param {string} id
 * @returns {Promise<ListInfo>}
 */
export function listInfo(id) {
  let p = infoCache.get(id);
  if (!p) {
    p = call('GET', `/api/word-lists/${encodeURIComponent(id)}`);
    infoCache.set(id, p);
    p.catch(() => infoCache.delete(id));
  }
  return p;
}

/**
 * A one-line description of a list, for the game page: its name and word
 * count (an uploaded list's from the server).
 * @param {string} name the word list the game's rules name
 * @returns {Promise<{name: string, words: number | null, uploaded: boolean}>}
 */
export async function describeList(name) {
  if (!isUpload(name)) {
    const lists = await serverWordLists().catch(() => []);
    const words = lists.find((l) => l.name === name)?.words;
    return { name, words: words || null, uploaded: false };
  }
  try {
    const info = await listInfo(name);
    return { name: info.name, words: info.words, uploaded: true };
  } catch {
    return { name, words: null, uploaded: true };
  }
}

/** Why an upload was refused, in words, before the server's own message. @param {ApiError} e */
function lead(e) {
  switch (e.code) {
    case 'too_large': return 'the file is too large for this server';
    case 'bad_word_list': return 'no word could be read from it';
    case 'too_slow': return 'the upload took too long';
    case 'busy': return 'the server is busy, try again in a moment';
    case 'word_lists_full': return 'the server has no room for more lists; use one it already has';
    case 'unknown_word_list': return 'this server has no list with that id';
    default: return '';
  }
}

/**
 * The lobby's word-list picker.
 * @param {ServerList[]} lexicons the server's lists with their word counts (`/api/catalog` `word_lists`)
 * @param {string} fallback the default list's name
 * @returns {{el: HTMLElement, value: () => string, settled: () => Promise<void>, setDefault: (name: string) => void, refused: (id: string) => void}}
 */
export function wordListPicker(lexicons, fallback) {
  const select = /** @type {HTMLSelectElement} */ (h('select', { id: 'lexicon', 'aria-describedby': 'wl-result' }));
  const result = h('div', { id: 'wl-result', class: 'wl-result', 'aria-live': 'polite' });
  const file = /** @type {HTMLInputElement} */ (h('input', { id: 'wl-file', type: 'file', accept: '.txt,.text,.lst,.dic,.csv,text/plain' }));
  const idInput = /** @type {HTMLInputElement} */ (h('input', { id: 'wl-id', size: 20, autocomplete: 'off', spellcheck: false, placeholder: 'upload-…' }));
  /** @type {Promise<void>} */
  let pending = Promise.resolve();
  let defaultName = fallback;

  /** @param {string} [keep] the value to keep selected */
  function drawOptions(keep = select.value || defaultName) {
    const own = rememberedLists();
    replace(
      select,
      h('optgroup', { label: 'This server’s lists' }, lexicons.map(({ name: n, words: w }) =>
        h('option', { value: n }, `${n}${w ? ` — ${plural(w, 'word')}` : ''}${n === defaultName ? ' (default)' : ''}`))),
      own.length
        ? h('optgroup', { label: 'Uploaded lists' }, own.map((x) => h('option', { value: x.id }, `${x.name} — ${plural(x.words, 'word')} (uploaded)`)))
        : null,
    );
    select.value = keep;
    if (select.value !== keep) select.value = defaultName;
  }

  /** @param {ListInfo} info */
  function use(info) {
    remember(info);
    drawOptions(info.id);
  }

  /** @param {string} id */
  const shareRow = (id) =>
    h('p', { class: 'note' }, 'Share it: ', h('code', { class: 'wl-id' }, id), ' ', h('button', {
      type: 'button',
      class: 'link',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(id);
          toast('Word list id copied');
        } catch {
          toast('Select the id and copy it (Ctrl+C)');
        }
      },
    }, 'copy id'));

  /**
   * @param {string} what the file's name or the id
   * @param {unknown} err
   */
  function showError(what, err) {
    const e = /** @type {ApiError} */ (err);
    const why = lead(e);
    const msg = e.message.charAt(0).toUpperCase() + e.message.slice(1);
    replace(
      result,
      h('div', { role: 'alert', id: 'wl-error', class: 'wl-error' },
        h('p', { class: 'error' }, `⚠ ${what} was not used${why ? `: ${why}` : ''}.`),
        h('p', { class: 'server-msg' }, msg)),
      h('p', { class: 'note' }, `The game will use ${select.selectedOptions[0]?.textContent || select.value}.`),
    );
  }

  /** @param {File} f */
  function upload(f) {
    replace(result, h('p', { class: 'note' }, `Uploading ${f.name}…`));
    const job = (async () => {
      try {
        const info = await uploadList(f, f.name);
        use(info);
        const skipped = info.skipped
          ? h('span', { id: 'wl-skipped' }, `; ${plural(info.skipped, 'line')} skipped (the first: “${info.first_skipped ?? ''}”)`)
          : null;
        replace(
          result,
          h('p', { class: 'ok', id: 'wl-ok' },
            `✓ ${f.name}: ${plural(info.words, 'word')} read`, skipped,
            info.duplicates ? `; ${plural(info.duplicates, 'repeated word')} kept once` : '', '.',
            info.new === false && info.name !== f.name ? ` The server already had these words as “${info.name}”.` : '',
            ' The game will use it.'),
          shareRow(info.id),
        );
      } catch (err) {
        showError(f.name, err);
      }
    })();
    pending = job;
    return job;
  }

  function useId() {
    const m = idInput.value.match(UPLOAD_ID);
    const id = m ? m[0].toLowerCase() : '';
    if (!id) {
      replace(result, h('div', { role: 'alert', id: 'wl-error', class: 'wl-error' }, h('p', { class: 'error' }, '⚠ That is not a word list id: one looks like upload-3f2a9c0d5e6b7a81.')));
      return;
    }
    replace(result, h('p', { class: 'note' }, `Looking up ${id}…`));
    pending = listInfo(id).then(
      (info) => {
        use(info);
        idInput.value = '';
        replace(result, h('p', { class: 'ok', id: 'wl-ok' }, `✓ ${info.name}: ${plural(info.words, 'word')}. The game will use it.`), shareRow(info.id));
      },
      (err) => showError(id, err),
    );
  }

  file.addEventListener('change', () => {
    const f = file.files && file.files[0];
    if (f) upload(f);
    file.value = '';
  });
  idInput.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault(); // not the lobby's "Create game"
      useId();
    }
  });
  select.addEventListener('change', () => replace(result, isUpload(select.value) ? shareRow(select.value) : null));

  const drop = h('div', { class: 'drop', id: 'wl-drop' },
    h('label', { for: 'wl-file' }, 'A text file, one word per line:'), ' ', file,
    h('span', { class: 'note' }, ' or drop the file here'));
  drop.addEventListener('dragover', (e) => {
    if (!e.dataTransfer || !Array.from(e.dataTransfer.types).includes('Files')) return;
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    drop.classList.remove('over');
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (!f) return;
    e.preventDefault();
    upload(f);
  });

  drawOptions(fallback);
  const el = h(
    'fieldset',
    { class: 'rules', id: 'word-list' },
    h('legend', null, 'Word list'),
    h('label', null, 'Words from ', select),
    h('details', { id: 'wl-own' },
      h('summary', null, 'Use your own list…'),
      drop,
      h('div', { class: 'row' },
        h('label', { for: 'wl-id' }, 'Or a list id shared with you:'), idInput,
        h('button', { type: 'button', id: 'wl-use', onclick: useId }, 'Use')),
      h('p', { class: 'note' }, 'Blank lines and # comments are ignored, lines with anything but the letters a–z skipped. Uploaded lists are not public: share the id with friends.')),
    result,
  );
  return {
    el,
    value: () => select.value || defaultName,
    settled: () => pending.then(() => {}, () => {}),
    setDefault(name) {
      if (name === defaultName) return;
      const keepUser = select.value !== defaultName;
      defaultName = name;
      drawOptions(keepUser ? select.value : name);
    },
    refused(id) {
      forgetList(id);
      drawOptions(defaultName);
    },
  };
}
