// @ts-check
/**
 * The HTTP side of docs/api.md, and what the browser remembers: the player
 * key, the display name and each game's seat token (localStorage), so a
 * refresh or a new tab finds the same seat again.
 */

/**
 * @typedef {{seat: number, kind: 'human'|'bot', level: string|null, name: string|null, joined: boolean, open?: boolean, connected: boolean, account?: string | null}} Seat
 * @typedef {{one: number} | {simultaneous: number[]} | 'chance' | 'over'} ToAct
 * @typedef {{key: string, seconds: number, started_ms: number, ends_ms: number, remaining_ms: number}} Clock
 * @typedef {{ranking: number[][], scores?: number[]}} Outcome
 * @typedef {{id: string, game: string, title: string, config: any, public: boolean, created_ms: number,
 *   status: 'open'|'live'|'over', seq: number, to_act: ToAct, outcome: Outcome|null, clock: Clock|null,
 *   seats: Seat[], rematch: string|null, rematch_of: string|null, waiting_for?: number[], seed_sha256?: string,
 *   aborted?: boolean, time_control?: any, rated?: boolean, seat_labels?: string[]}} GameSummary
 *   (`seat_labels`: what each seat is called now, where its number is not
 *   its side, docs/api.md; a live game's summary only)
 * @typedef {{type: 'state', seq: number, view: any, to_act: ToAct, outcome: Outcome|null, clock: Clock|null,
 *   by: {seat: number} | 'referee' | null, events: any[], legal?: any[]|null, waiting_for?: number[],
 *   turn_clock?: {seat: number, reason: 'turn'|'absent'|'claim', ends_ms: number, remaining_ms: number, claimable_by?: number[]} | null,
 *   clocks?: Clocks | null, aborted?: boolean, move?: any, score_words?: {one: string, many: string},
 *   seat_labels?: string[] | null}} StateMsg
 * @typedef {{ends_ms: number, remaining_ms: number}} Timer
 * @typedef {{running: boolean, bank_ms: number|null, delay_ms: number, turn: Timer|null, absent: Timer|null}} SeatClock
 * @typedef {{at_ms: number, seats: SeatClock[], round: {key: string, started_ms: number, ends_ms: number, remaining_ms: number}|null}} Clocks
 * @typedef {'not_your_turn'|'game_over'|'illegal'|'ambiguous'|'unknown_word'|'malformed'|'bad_setting'|'unknown_resource'|'busy'} ErrorKind
 *   A game's own kind of refusal (docs/api.md "Error kinds").
 * @typedef {{value: any, label: string}} SettingOption
 * @typedef {{type: 'seats', min: number, max: number}
 *   | {type: 'integer', min: number, max: number, optional: boolean}
 *   | {type: 'number', min: number, max: number}
 *   | {type: 'bool'}
 *   | {type: 'choice', options: SettingOption[]}
 *   | {type: 'flags', options: SettingOption[]}
 *   | {type: 'text', max_len: number, optional: boolean}
 *   | {type: 'teams'}
 *   | {type: 'word_list', role: string}} SettingKind
 * @typedef {{field: string, label: string, help: string, kind: SettingKind}} Setting
 *   One field of a game's rules, as the catalog describes it (docs/api.md "Settings").
 * @typedef {{name: string, label: string, help: string, values: Record<string, any>}} Preset
 * @typedef {{name: string, title: string, min_seats: number, max_seats: number, default_config: any, settings?: Setting[],
 *   presets?: Preset[], how_to_play?: string, rules_url?: string | null}} CatalogGame
 */

export class ApiError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {number} status
   * @param {ErrorKind | null} [kind] the game's kind of refusal, where it gave one
   * @param {[number, number] | null} [at] where on the game's board or paper,
   *   for a refusal about a place (docs/api.md: `at`)
   */
  constructor(code, message, status, kind = null, at = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.kind = kind;
    this.at = at;
  }
}

/**
 * Calls the API with a JSON body; throws ApiError with the server's code
 * and message.
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {Record<string, string>} [headers]
 * @returns {Promise<any>}
 */
export function call(method, path, body, headers = {}) {
  return request(path, {
    method,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * Sends any request to the API (a word list's text, say) and reads its JSON
 * answer; throws ApiError with the server's code and message.
 * @param {string} path
 * @param {RequestInit} init
 * @returns {Promise<any>}
 */
export async function request(path, init) {
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError('network', 'the server cannot be reached; check your connection', 0);
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    const err = data && data.error;
    throw new ApiError(err?.code || 'http', err?.message || `HTTP ${res.status}`, res.status, err?.kind ?? null, err?.at ?? null);
  }
  return data;
}

const KEY = 'parlor.player';
const NAME = 'parlor.name';
const TOKENS = 'parlor.tokens';

/** The player key, made once per browser (docs/api.md "Player key"). */
export function playerKey() {
  let k = localStorage.getItem(KEY);
  if (!k || !/^[A-Za-z0-9_-]{16,128}$/.test(k)) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    k = 'p' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    localStorage.setItem(KEY, k);
  }
  return k;
}

/** @returns {string} */
export function myName() {
  return localStorage.getItem(NAME) || '';
}

/** @param {string} name */
export function setMyName(name) {
  localStorage.setItem(NAME, name.trim().slice(0, 40));
}

/** @returns {Record<string, string>} game id -> seat token */
function tokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS) || '{}') || {};
  } catch {
    return {};
  }
}

/**
 * @param {string} id
 * @returns {string | null}
 */
export function tokenFor(id) {
  return tokens()[id] || null;
}

/**
 * @param {string} id
 * @param {string} token
 */
export function rememberToken(id, token) {
  const t = tokens();
  t[id] = token;
  localStorage.setItem(TOKENS, JSON.stringify(t));
}

/** @param {string} id */
export function forgetToken(id) {
  const t = tokens();
  delete t[id];
  localStorage.setItem(TOKENS, JSON.stringify(t));
}

/**
 * What a seat is called: its side as the game names it now (`labels`, the
 * state's or summary's `seat_labels`, docs/api.md), else player N.
 * @param {number} seat @param {string[] | null | undefined} labels
 */
export function seatSide(seat, labels) {
  return (labels && labels[seat]) || `player ${seat + 1}`;
}

/**
 * The labels to name a listed game's seats with: its `seat_labels` where
 * the summary has them (a live game's), else `false` for a game whose
 * seats may change sides (the catalog's `seats_change_sides`: a seat's
 * number may not be its side), else null (seat i is player i + 1).
 * @param {GameSummary} g @param {boolean | undefined} changesSides
 * @returns {string[] | null | false}
 */
export function listedSides(g, changesSides) {
  return g.seat_labels || (changesSides ? false : null);
}

/**
 * "Ann (P2)" for seat 1, or "Player 2" without a name; with the game's
 * `labels` (`seat_labels`), "Ann (player 1)" as the game names the seat's
 * side now; `labels === false` where the side is not known (a listing of
 * a game whose seats change sides): the name alone.
 * @param {Seat[] | undefined} seats
 * @param {number} seat
 * @param {string[] | null | false} [labels]
 */
export function seatName(seats, seat, labels) {
  const s = seats && seats[seat];
  const side = labels ? seatSide(seat, labels) : `P${seat + 1}`;
  const bare = labels === false ? `Seat ${seat + 1}` : labels ? side[0].toUpperCase() + side.slice(1) : `Player ${seat + 1}`;
  if (!s) return bare;
  const tag = labels === false ? '' : ` (${side})`;
  if (s.kind === 'bot') {
    const level = s.level ? s.level[0].toUpperCase() + s.level.slice(1) + ' bot' : 'Bot';
    return `${level}${tag}`;
  }
  // A seat of an account goes by the account's name (the guest name it
  // was taken under may be anything).
  const name = s.account || s.name;
  return name ? `${name}${tag}` : bare;
}

/**
 * The URL path of a seat's page: with a token, an invite link (the page
 * stores the token and takes it out of the address bar at once).
 * @param {string} id @param {string} [token]
 */
export function playUrl(id, token) {
  return token ? `/play/${id}#${token}` : `/play/${id}`;
}
