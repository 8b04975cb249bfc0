// @ts-check
/**
 * The browser's only door to the server: the JSON API of docs/api.md.
 * No framework, no build step: plain ES modules, types in JSDoc.
 * @module api
 */

/**
 * @typedef {{code: string, message: string}} ApiErrorBody
 * @typedef {{seat: number, kind: 'human'|'bot', level: string|null, name: string|null,
 *            joined: boolean, connected: boolean}} SeatInfo
 * @typedef {{key: string, seconds: number, started_ms: number, ends_ms: number,
 *            remaining_ms: number}} Clock
 * @typedef {{id: string, game: string, title: string, config: any, public: boolean,
 *            created_ms: number, status: 'open'|'live'|'over', seq: number, to_act: any,
 *            outcome: any, clock: Clock|null, seats: SeatInfo[], rematch: string|null,
 *            rematch_of: string|null}} GameSummary
 * @typedef {{type: 'state', seq: number, view: any, to_act: any, outcome: any,
 *            clock: Clock|null, by: any, events: any[], legal?: any[]|null}} StateMsg
 */

/** An error answer of the API, with its stable code. */
export class ApiError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * Calls the API; resolves with the JSON answer or rejects with an ApiError.
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {Record<string, string>} [headers]
 * @returns {Promise<any>}
 */
export async function call(method, path, body, headers = {}) {
  /** @type {RequestInit} */
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    /** @type {Record<string, string>} */ (init.headers)['Content-Type'] = 'application/json';
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError('network', 'the server cannot be reached: ' + String(e));
  }
  const json = await res.json().catch(() => null);
  if (!res.ok) {
    const err = json && json.error;
    throw new ApiError(err ? err.code : 'http_' + res.status, err ? err.message : res.statusText);
  }
  return json;
}

/** A random secret, hex. @param {number} bytes */
function randomHex(bytes) {
  const a = new Uint8Array(bytes);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** This browser's player key (made once, kept in localStorage). */
export function playerKey() {
  let k = localStorage.getItem('parlor.player');
  if (!k || k.length < 16) {
    k = 'p' + randomHex(16);
    localStorage.setItem('parlor.player', k);
  }
  return k;
}

/** The name this browser plays under. */
export function playerName() {
  return localStorage.getItem('parlor.name') || '';
}

/** @param {string} name */
export function setPlayerName(name) {
  localStorage.setItem('parlor.name', name.trim().slice(0, 40));
}

/** The seat token this browser holds for a game, if any. @param {string} id */
export function tokenFor(id) {
  return localStorage.getItem('parlor.token.' + id);
}

/** @param {string} id @param {string} token */
export function rememberToken(id, token) {
  localStorage.setItem('parlor.token.' + id, token);
}

export const api = {
  catalog: () => call('GET', '/api/catalog'),
  /** @param {any} req */
  create: (req) => call('POST', '/api/games', { player: playerKey(), ...req }),
  /** @param {string} status */
  list: (status) => call('GET', '/api/games?status=' + encodeURIComponent(status)),
  /** @param {string} id @returns {Promise<GameSummary>} */
  game: (id) => call('GET', '/api/games/' + id),
  /** @param {string} id @param {string} token @param {string} name */
  join: (id, token, name) =>
    call('POST', `/api/games/${id}/join`, { token, name: name || undefined, player: playerKey() }),
  /** @param {string} id @param {number} seat @param {string} name */
  claim: (id, seat, name) =>
    call('POST', `/api/games/${id}/claim`, { seat, name: name || undefined, player: playerKey() }),
  myGames: () => call('GET', '/api/my-games', undefined, { Authorization: 'Bearer ' + playerKey() }),
  /** @param {string} id @param {string} token */
  rematch: (id, token) => call('POST', `/api/games/${id}/rematch`, { token }),
};

/**
 * A game connection that reconnects by itself and always hands over whole
 * states (the server sends the complete view on every (re)connection).
 */
export class GameSocket {
  /**
   * @param {string} id
   * @param {string|null} token
   * @param {{onState: (s: StateMsg) => void, onWelcome?: (w: any) => void,
   *          onSeats?: (seats: SeatInfo[]) => void, onRematch?: (id: string) => void,
   *          onStatus?: (status: 'connecting'|'open'|'closed', why?: string) => void,
   *          onError?: (e: ApiErrorBody & {ref: any}) => void}} handlers
   */
  constructor(id, token, handlers) {
    this.id = id;
    this.token = token;
    this.h = handlers;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.nextRef = 1;
    /** @type {Map<number, {resolve: (v: any) => void, reject: (e: any) => void}>} */
    this.pending = new Map();
    this.closed = false;
    this.backoff = 250;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = new URLSearchParams({ token: this.token || '', legal: 'true' });
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${this.id}/ws?${q}`);
    this.ws = ws;
    this.h.onStatus?.('connecting');
    ws.onopen = () => {
      this.backoff = 250;
      this.h.onStatus?.('open');
    };
    ws.onmessage = (ev) => this.onMessage(ev.data);
    ws.onclose = (ev) => {
      for (const p of this.pending.values()) p.reject(new ApiError('network', 'connection lost'));
      this.pending.clear();
      if (this.closed) return;
      this.h.onStatus?.('closed', ev.reason || 'connection lost');
      setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 5000);
    };
  }

  /** @param {string} text */
  onMessage(text) {
    /** @type {any} */
    let m;
    try {
      m = JSON.parse(text);
    } catch {
      return;
    }
    switch (m.type) {
      case 'welcome':
        this.h.onWelcome?.(m);
        break;
      case 'state':
        this.h.onState(m);
        break;
      case 'seats':
        this.h.onSeats?.(m.seats);
        break;
      case 'rematch':
        this.h.onRematch?.(m.game);
        break;
      case 'ack': {
        const p = this.pending.get(m.ref);
        this.pending.delete(m.ref);
        p?.resolve(m);
        break;
      }
      case 'error': {
        const p = this.pending.get(m.ref);
        this.pending.delete(m.ref);
        if (p) p.reject(new ApiError(m.code, m.message));
        else this.h.onError?.(m);
        break;
      }
    }
  }

  /**
   * Sends an action; resolves on `ack` (stored on the server), rejects
   * with the server's reason.
   * @param {any} action
   * @returns {Promise<{seq: number}>}
   */
  act(action) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new ApiError('network', 'not connected: reconnecting…'));
        return;
      }
      const ref = this.nextRef++;
      this.pending.set(ref, { resolve, reject });
      this.ws.send(JSON.stringify({ type: 'act', ref, action }));
    });
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}

/** Seat numbers are shown from 1. @param {number} seat */
export const seatLabel = (seat) => `player ${seat + 1}`;

/**
 * Creates an element.
 * @param {string} tag
 * @param {Record<string, any>} [props]
 * @param {(Node|string|null|undefined|false)[]} [children]
 * @returns {HTMLElement}
 */
export function el(tag, props = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return e;
}
