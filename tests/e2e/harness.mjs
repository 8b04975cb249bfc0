// Helpers for the end-to-end tests: a `parlor serve` child process on a free
// loopback port with a temporary SQLite file (restartable on the same port
// and file), and Debian's Chromium through playwright-core.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '../..');

/** The parlor binary: $PARLOR_BIN, else target/debug/parlor. */
export function parlorBin() {
  const bin = process.env.PARLOR_BIN || join(repo, 'target/debug/parlor');
  if (!existsSync(bin)) throw new Error(`no parlor binary at ${bin}: run cargo build -p parlor-cli first`);
  return bin;
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.unref();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {any} */ (s.address());
      s.close(() => res(port));
    });
  });
}

/** Every child process started here, so a failing test still stops them. */
const children = new Set();
process.on('exit', () => {
  for (const c of children) {
    try { c.kill('SIGKILL'); } catch { /* gone */ }
  }
});

/**
 * A fresh PostgreSQL database on the server `scripts/with-postgres` started
 * (its URL in `PARLOR_PG_URL`), or null when there is none. Under CI a
 * missing server is an error, so that the PostgreSQL runs cannot pass by
 * being skipped.
 * @returns {string | null}
 */
export function freshPostgres() {
  const base = process.env.PARLOR_PG_URL;
  if (!base) {
    if (process.env.CI) throw new Error('PARLOR_PG_URL is not set: run the browser tests under scripts/with-postgres');
    return null;
  }
  const name = `parlor_e2e_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  execFileSync('psql', [base, '-q', '-v', 'ON_ERROR_STOP=1', '-c', `CREATE DATABASE ${name}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

export class ParlorServer {
  /**
   * @param {string[]} [extra] more `parlor serve` options (e.g. `['--abandon-after', '2']`)
   * @param {{ db?: string }} [opts] the database URL (a fresh SQLite file unless given)
   */
  constructor(extra = [], opts = {}) {
    this.extra = extra;
    this.dir = mkdtempSync(join(tmpdir(), 'parlor-e2e-'));
    this.db = opts.db || `sqlite://${join(this.dir, 'parlor.db')}`;
    this.port = 0;
    /** @type {import('node:child_process').ChildProcess | null} */
    this.child = null;
    this.log = '';
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts (or restarts on the same port and database); resolves once it listens. */
  async start() {
    if (!this.port) this.port = await freePort();
    const child = spawn(parlorBin(), ['serve', '--addr', `127.0.0.1:${this.port}`, '--db', this.db, '--bot-delay-ms', '50', '--bot-clocked-delay-ms', '300', ...this.extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, XDG_DATA_HOME: this.dir },
    });
    this.child = child;
    children.add(child);
    child.on('exit', () => children.delete(child));
    await new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`parlor serve did not start in 20 s:\n${this.log}`)), 20000);
      const onData = (/** @type {Buffer} */ d) => {
        this.log += d.toString();
        if (this.log.includes('lobby at http://')) {
          clearTimeout(timer);
          res(undefined);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (d) => (this.log += d.toString()));
      child.on('exit', (code) => {
        clearTimeout(timer);
        rej(new Error(`parlor serve exited (${code}) before listening:\n${this.log}`));
      });
    }).catch(async (e) => {
      // The port may still be held by a killed predecessor for a moment.
      if (/Address already in use|cannot listen/.test(this.log)) {
        await new Promise((r) => setTimeout(r, 300));
        this.log = '';
        return this.start();
      }
      throw e;
    });
  }

  /** Kills the server at once (SIGKILL: a crash, nothing flushed on the way out). */
  async kill() {
    const c = this.child;
    if (!c || c.exitCode !== null) return;
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await gone;
    this.child = null;
  }

  async stop() {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** @param {string} path @param {any} [body] */
  async api(path, body) {
    const res = await fetch(this.url + path, body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const data = await res.json();
    if (!res.ok) throw new Error(`${path}: ${JSON.stringify(data)}`);
    return data;
  }
}

export function chromiumPath() {
  for (const p of [process.env.CHROMIUM, '/usr/lib/chromium/chromium', '/usr/bin/chromium']) {
    if (p && existsSync(p)) return p;
  }
  throw new Error('no Chromium: run scripts/setup (apt-get install chromium)');
}

export function launch() {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run',
      // Pages fulfilled from disk count as public: let them reach the loopback server.
      ...(process.env.E2E_WEB_FROM_DISK ? ['--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests'] : [])],
  });
}

const MIME = /** @type {Record<string, string>} */ ({ html: 'text/html', js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', png: 'image/png' });

/**
 * For working on web/ without rebuilding the binary (E2E_WEB_FROM_DISK=1):
 * the pages and their files come from web/ on disk, the API from the server.
 * @param {import('playwright-core').BrowserContext} context
 */
async function serveWebFromDisk(context) {
  const web = join(repo, 'web');
  await context.route((url) => url.pathname === '/' || url.pathname.startsWith('/play/') || url.pathname.startsWith('/web/'), async (route) => {
    const path = new URL(route.request().url()).pathname;
    const file = path === '/' ? 'index.html' : path.startsWith('/play/') ? 'play.html' : decodeURIComponent(path.slice(5));
    const abs = resolve(web, file);
    if (!abs.startsWith(web + '/') || !existsSync(abs)) return route.fulfill({ status: 404, body: `no ${file}` });
    await route.fulfill({ status: 200, contentType: MIME[file.split('.').pop() || ''] || 'application/octet-stream', body: readFileSync(abs) });
  });
}

/** A phone: small viewport, touch, mobile meta viewport. */
export const PHONE = { viewport: { width: 390, height: 760 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/**
 * A new player: its own browser context (own localStorage), with every
 * WebSocket frame it receives recorded and page errors collected.
 * @param {import('playwright-core').Browser} browser
 * @param {string} name
 * @param {import('playwright-core').BrowserContextOptions} [options] context options (default: a 1100 x 900 desktop)
 */
export async function player(browser, name, options = { viewport: { width: 1100, height: 900 } }) {
  const context = await browser.newContext(options);
  if (process.env.E2E_WEB_FROM_DISK) await serveWebFromDisk(context);
  await context.addInitScript((n) => {
    if (!localStorage.getItem('parlor.name')) localStorage.setItem('parlor.name', n);
    // The lobby's full form ("More rules") open, as the tests of its
    // settings expect; quickstart.test.mjs closes it.
    if (!localStorage.getItem('parlor.more-rules')) localStorage.setItem('parlor.more-rules', 'open');
  }, name);
  const page = await context.newPage();
  /** @type {{t: number, text: string}[]} */
  const frames = [];
  /** @type {string[]} */
  const errors = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => frames.push({ t: Date.now(), text: typeof f.payload === 'string' ? f.payload : f.payload.toString() }));
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/WebSocket|Failed to load resource|ERR_CONNECTION_REFUSED/.test(m.text())) errors.push(m.text());
  });
  return { context, page, frames, errors, name };
}

/**
 * Runs `body`, then checks that no player's page had an error; on failure,
 * saves a screenshot and the text of each page in $E2E_ARTIFACTS (default:
 * the temp folder) and says where, then rethrows. Closes the players'
 * browser contexts either way.
 * @param {{page: import('playwright-core').Page, context: import('playwright-core').BrowserContext, errors: string[], name: string}[]} players
 * @param {() => Promise<void>} body
 */
export async function withArtifacts(players, body) {
  try {
    await body();
    for (const p of players) assert.deepEqual(p.errors, [], `${p.name}'s page had errors`);
  } catch (e) {
    const dir = process.env.E2E_ARTIFACTS || tmpdir();
    for (const p of players) {
      const base = join(dir, `parlor-e2e-${p.name}-${Date.now()}`);
      try {
        await p.page.screenshot({ path: `${base}.png`, fullPage: true });
        console.error(`# ${p.name}: ${base}.png\n# ${p.name} page text: ${(await p.page.locator('body').innerText()).replace(/\n+/g, ' | ').slice(0, 1500)}`);
      } catch { /* page gone */ }
    }
    throw e;
  } finally {
    for (const p of players) await p.context.close().catch(() => {});
  }
}

// Stopped from outside (Ctrl-C, `timeout`): take the servers down too.
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    for (const c of children) {
      try { c.kill('SIGKILL'); } catch { /* gone */ }
    }
    process.exit(130);
  });
}

/** @typedef {{page: import('playwright-core').Page, frames: {t: number, text: string}[], name: string}} Player */

/**
 * A screenshot for looking at a page by eye, where $E2E_SHOTS names a
 * folder: `shots('wordchain')(page, 'start')` writes `wordchain-start.png`.
 * @param {string} prefix
 */
export function shots(prefix) {
  /** @param {import('playwright-core').Page} page @param {string} name */
  return async (page, name) => {
    if (process.env.E2E_SHOTS) await page.screenshot({ path: join(process.env.E2E_SHOTS, `${prefix}-${name}.png`), fullPage: true });
  };
}

/** Every state message a player received, parsed. @param {Player} p @returns {any[]} */
export function states(p) {
  const out = [];
  for (const f of p.frames) {
    if (!f.text.includes('"type":"state"')) continue;
    try {
      const m = JSON.parse(f.text);
      if (m.type === 'state' && m.view) out.push(m);
    } catch { /* not JSON */ }
  }
  return out;
}

/**
 * Waits until the player's newest state satisfies `pred` and the page has
 * drawn it (`document.body.dataset.seq`); returns it. On a timeout the
 * error shows `describe` of the last view.
 * @param {Player} p @param {(m: any) => boolean} pred @param {string} what
 * @param {(view: any) => any} describe @param {number} [timeout]
 */
export async function waitState(p, pred, what, describe, timeout = 30000) {
  const end = Date.now() + timeout;
  for (;;) {
    const all = states(p);
    const m = all[all.length - 1];
    if (m && pred(m)) {
      await p.page.waitForFunction((seq) => Number(document.body.dataset.seq || -1) >= seq, m.seq, { timeout: 10000 });
      return m;
    }
    if (Date.now() > end) throw new Error(`${p.name}: timed out waiting for ${what}; last view: ${m ? JSON.stringify(describe(m.view)) : 'none'}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/**
 * Rematch, as every page offers it: one click on `from`'s page opens the
 * new table (`ready`: a selector of the game's page), and `other` is told.
 * @param {import('playwright-core').Page} from @param {import('playwright-core').Page} other @param {string} ready
 */
export async function rematch(from, other, ready) {
  const oldPath = new URL(from.url()).pathname;
  await from.click('#rematch');
  await from.waitForURL((u) => u.pathname !== oldPath && u.pathname.startsWith('/play/'), { timeout: 15000 });
  await from.waitForSelector(ready);
  await other.waitForSelector('.toast:has-text("rematch")');
}

/**
 * Opens the lobby on `game`'s rules form.
 * @param {import('playwright-core').Page} page
 * @param {string} url the server's address
 * @param {string} game the registry name (`#GAME-rules` is its form)
 */
export async function openRules(page, url, game) {
  await page.goto(url + '/');
  await page.selectOption('#game', game);
  await page.waitForSelector(`#${game}-rules`);
}

/**
 * Creates the game set up in the lobby with the page's player in seat 1
 * and a friend in seat 2, goes to the table and returns the friend's invite.
 * @param {import('playwright-core').Page} page
 */
export async function createWithFriend(page) {
  await page.selectOption('#seat-0', 'me');
  await page.selectOption('#seat-1', 'human');
  await page.click('#create-form button[type=submit]');
  const invite = await page.locator('input.invite[data-seat="1"]').inputValue();
  await page.click('#go-play');
  return invite;
}

/**
 * Signs up through the account page's form, as `name` (password
 * `NAME-secret-pw`), and waits until the page says so.
 * @param {import('playwright-core').Page} page @param {string} base the server's URL @param {string} name
 */
export async function signUp(page, base, name) {
  await page.goto(`${base}/account`);
  await page.fill('#register-username', name);
  await page.fill('#register-password', `${name}-secret-pw`);
  await page.click('#register-btn');
  await page.waitForSelector(`#account-name:has-text("Logged in as ${name}")`);
}
