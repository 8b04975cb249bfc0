// Gobble by touch, on a phone-sized page with a touch screen: a finger
// dragged through touching cells (real touch events through the DevTools
// protocol, not mouse events) enters a word the server's solver finds on the
// board; the cells light up under the finger as it goes; the page does not
// scroll nor raise the on-screen keyboard; a word tapped cell by cell then
// sent with the Enter button; a drag that spells no word is refused at once;
// both words counted and scored at the end of the round.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { ParlorServer, launch, player, withArtifacts, parlorBin, PHONE } from './harness.mjs';

const KEYPHRASE = 'panhandle handball quarterly supper';

/** @type {ParlorServer} */ let srv;
/** @type {import('playwright-core').Browser} */ let browser;

before(async () => {
  srv = new ParlorServer();
  await srv.start();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await srv?.stop();
});

/**
 * Every word on the keyphrase's board, from the command-line solver.
 * @returns {{board: string, min_len: number, words: {word: string, points: number, path: [number, number][]}[]}}
 */
function solve() {
  return JSON.parse(execFileSync(parlorBin(), ['gobble', 'solve', '--keyphrase', KEYPHRASE, '--json'], { encoding: 'utf8' }));
}

/**
 * The centre of cell (row, col) of the grid, in CSS pixels of the viewport.
 * @param {import('playwright-core').Page} page @param {number} n @param {[number, number]} rc
 */
async function centre(page, n, [r, c]) {
  const b = await page.locator('#gb-grid .cell').nth(r * n + c).boundingBox();
  if (!b) throw new Error(`no cell ${r},${c}`);
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/**
 * Drags one finger through the centres of the cells with real touch events
 * (touchStart, touchMove in small steps, touchEnd). `during(k)` runs once
 * the finger rests on the k-th cell (from 0), before it moves on.
 * @param {import('playwright-core').Page} page @param {import('playwright-core').CDPSession} cdp
 * @param {number} n @param {[number, number][]} cells @param {(k: number) => Promise<void>} [during]
 */
async function touchDrag(page, cdp, n, cells, during) {
  const pts = [];
  for (const rc of cells) pts.push(await centre(page, n, rc));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ ...pts[0], id: 1 }] });
  if (during) await during(0);
  for (let k = 1; k < pts.length; k++) {
    const a = pts[k - 1], b = pts[k];
    for (let s = 1; s <= 5; s++) {
      const x = a.x + ((b.x - a.x) * s) / 5, y = a.y + ((b.y - a.y) * s) / 5;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y, id: 1 }] });
    }
    if (during) await during(k);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** @param {import('playwright-core').Page} page */
const lit = (page) => page.locator('#gb-grid .cell.on').count();

test('Gobble on a phone: words entered by dragging a finger and by tapping cells', { timeout: 60000 }, async () => {
  const solved = solve();
  const n = Math.round(Math.sqrt(solved.board.length));
  const byLength = [...solved.words].sort((a, b) => b.word.length - a.word.length);
  // The longest word whose path turns a corner (some diagonal step), so the drag is no straight line.
  const diagonal = (/** @type {[number, number][]} */ p) => p.some(([r, c], i) => i > 0 && r !== p[i - 1][0] && c !== p[i - 1][1]);
  const dragged = byLength.find((w) => w.word.length >= 5 && diagonal(w.path)) || byLength[0];
  const tapped = byLength.find((w) => w.word.length === solved.min_len + 1 && w.word !== dragged.word) || byLength[1];
  assert.ok(dragged && tapped, 'the board has words');
  // Three touching cells that spell no word, for a refused drag.
  const words = new Set(solved.words.map((w) => w.word));
  /** @type {[number, number][] | null} */
  let junk = null;
  for (let c = 0; c + 2 < n && !junk; c++) {
    for (let r = 0; r < n && !junk; r++) {
      const w = [0, 1, 2].map((k) => solved.board[r * n + c + k]).join('');
      if (!words.has(w) && !w.includes('q')) junk = [[r, c], [r, c + 1], [r, c + 2]];
    }
  }
  assert.ok(junk, 'three cells in a row that are no word');

  const res = await srv.api('/api/games', { game: 'gobble', config: { seats: 1, seconds: 120, keyphrase: KEYPHRASE }, take_seat: 0, name: 'Ann' });
  const ann = await player(browser, 'Ann', PHONE);
  const A = ann.page;
  await withArtifacts([ann], async () => {
    await A.goto(srv.url + res.seats[0].invite);
    await A.waitForSelector('#gb-grid .cell');
    await A.waitForSelector('#gb-timer:has-text("left")');
    assert.equal((await A.locator('#gb-grid .cell').allTextContents()).join('').toLowerCase().replace('qu', 'q'), solved.board.replace('qu', 'q'));
    // The whole grid is on the phone's screen, and nothing spills sideways.
    const last = await A.locator('#gb-grid .cell').nth(n * n - 1).boundingBox();
    assert.ok(last && last.x + last.width <= 390 && last.y + last.height <= 760, `the grid fits the screen: ${JSON.stringify(last)}`);
    assert.equal(await A.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scrolling');

    // On a touch screen the page does not focus the text box by itself (the keyboard would cover the grid).
    assert.notEqual(await A.evaluate(() => document.activeElement && document.activeElement.id), 'gb-word');
    const cdp = await A.context().newCDPSession(A);
    const scrollBefore = await A.evaluate(() => window.scrollY);
    // Drag: the cells light up under the finger as it moves, in order.
    await touchDrag(A, cdp, n, dragged.path, async (k) => {
      await A.waitForFunction((want) => document.querySelectorAll('#gb-grid .cell.on').length === want, k + 1, { timeout: 3000 });
      const face = (/** @type {[number, number]} */ [r, c]) => (solved.board[r * n + c] === 'q' ? 'qu' : solved.board[r * n + c]);
      assert.equal(await A.inputValue('#gb-word'), dragged.path.slice(0, k + 1).map(face).join(''), 'the word so far, under the grid');
    });
    await A.waitForSelector(`#gb-feedback li.ok[data-word="${dragged.word}"]`);
    assert.equal(await A.evaluate(() => window.scrollY), scrollBefore, 'the page did not scroll under the finger');
    // A touch entry leaves the text box alone: no on-screen keyboard over the grid.
    assert.notEqual(await A.evaluate(() => document.activeElement && document.activeElement.id), 'gb-word');
    assert.equal(await lit(A), 0, 'the path is cleared once sent');

    // Tapping the cells one by one, then the Enter button.
    for (const rc of tapped.path) {
      const p = await centre(A, n, rc);
      await A.touchscreen.tap(p.x, p.y);
    }
    assert.equal(await lit(A), tapped.path.length);
    assert.equal(await A.inputValue('#gb-word'), tapped.word);
    await A.locator('#gb-form button[type=submit]').tap();
    await A.waitForSelector(`#gb-feedback li.ok[data-word="${tapped.word}"]`);

    // A drag that spells no word: refused at once, with the reason.
    const junkWord = junk.map(([r, c]) => solved.board[r * n + c]).join('');
    await touchDrag(A, cdp, n, junk);
    await A.waitForSelector(`#gb-feedback li.bad[data-word="${junkWord}"]`);

    await A.waitForSelector('#gb-counts [data-seat="0"]:has-text(": 2")');
    // A finger rests a moment between a swipe and the next tap (Chromium
    // drops a tap that follows synthetic touch moves within a few hundred ms).
    await A.waitForTimeout(800);
    await A.locator('#gb-done').tap();
    await A.locator('dialog[open] button:has-text("finished")').tap();
    await A.waitForSelector('#gb-table');
    for (const w of [dragged, tapped]) {
      assert.match(await A.locator(`#gb-table li.scored[data-word="${w.word}"]`).textContent(), new RegExp(`${w.word.toUpperCase()} \\+${w.points}`));
    }
    assert.match(await A.locator('#gb-table h3').textContent(), new RegExp(`: ${dragged.points + tapped.points} points?`));
    // The lobby, with the longest rules form, fits the phone too (it spilled sideways).
    await A.goto(srv.url + '/');
    await A.selectOption('#game', 'wordsprout');
    await A.waitForSelector('#wordsprout-rules');
    assert.equal(await A.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'the lobby has no sideways scrolling');
  });
});
