// A complete Gobble round between two browsers on one server: created in the
// lobby with a fixed keyphrase and a short clock (which waits for the second
// player), words typed and dragged
// through the grid with the mouse, refused entries shown at once, a server
// crash and restart during the round (the clock keeps its start), the round
// ended by the server's clock, the end-of-round table with a cancelled word,
// and every WebSocket frame of each page checked: neither player ever
// receives the other's words before the round is over.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ParlorServer, launch, player, withArtifacts, createWithFriend, openRules } from './harness.mjs';

// D Y I O / E F B T / T L W E / N U N T (checked below against the page).
const KEYPHRASE = 'purr applause quack persuader';
const SECONDS = 15;

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
 * Drags the mouse through the cells (row, col) of the grid.
 * @param {import('playwright-core').Page} page @param {[number, number][]} cells
 */
async function drag(page, cells) {
  const n = 4;
  const box = await page.locator('#gb-grid .cell').nth(0).boundingBox();
  const centres = [];
  for (const [r, c] of cells) {
    const b = await page.locator('#gb-grid .cell').nth(r * n + c).boundingBox();
    if (!b || !box) throw new Error('no cell');
    centres.push([b.x + b.width / 2, b.y + b.height / 2]);
  }
  await page.mouse.move(centres[0][0], centres[0][1]);
  await page.mouse.down();
  for (const [x, y] of centres.slice(1)) await page.mouse.move(x, y, { steps: 6 });
  await page.mouse.up();
}

/** @param {import('playwright-core').Page} page @param {string} word */
async function typeWord(page, word) {
  await page.fill('#gb-word', word);
  await page.press('#gb-word', 'Enter');
}

/**
 * The frames a player received before the first state with the round over.
 * @param {{text: string}[]} frames
 */
function framesBeforeOver(frames) {
  const out = [];
  for (const f of frames) {
    let m;
    try { m = JSON.parse(f.text); } catch { m = null; }
    if (m && m.type === 'state' && m.view && m.view.over) break;
    out.push(f.text);
  }
  return out;
}

test('a complete Gobble round in two browsers, with a server restart and no leaked words', { timeout: 120000 }, async () => {
  const ann = await player(browser, 'Ann');
  const bea = await player(browser, 'Bea');
  const cat = await player(browser, 'Cat');
  const A = ann.page, B = bea.page, C = cat.page;
  await withArtifacts([ann, bea, cat], async () => {
    await openRules(A, srv.url, 'gobble');
    await A.fill('#gb-seconds', String(SECONDS));
    await A.fill('#gb-keyphrase', KEYPHRASE);
    const invite = await createWithFriend(A);
    // Until Bea takes her seat the round waits: no clock, no board.
    await A.waitForSelector('#gb-status:has-text("Waiting for players")');
    await A.waitForSelector('#gb-timer:has-text("waiting for players")');
    assert.equal(await A.locator('#gb-grid').isVisible(), false);
    assert.equal(await A.locator('#gb-word').isVisible(), false);
    // Nor does the server send it: no frame so far carries the letters.
    const waitingFrames = ann.frames.map((f) => f.text);
    assert.ok(waitingFrames.some((t) => t.includes('"type":"state"') && t.includes('"view":null')), 'a state without a view');
    assert.ok(!waitingFrames.some((t) => t.toLowerCase().includes('dyioefbttlwenunt')), 'the board before the round');
    await B.goto(invite);
    // Cat watches from the lobby's list of running games: a spectator.
    await C.goto(srv.url + '/');
    await C.click('#live-games a:has-text("watch")');
    await C.waitForSelector('#you:has-text("You are watching")');

    for (const p of [A, B]) {
      await p.waitForSelector('#gb-grid .cell');
      await p.waitForSelector('#gb-timer:has-text("left")');
    }
    const cells = await A.locator('#gb-grid .cell').allTextContents();
    assert.equal(cells.join(''), 'DYIOEFBTTLWENUNT');

    // Ann types; one word is refused at once, with the reason.
    await typeWord(A, 'felt');
    await A.waitForSelector('#gb-feedback li.ok[data-word="felt"]');
    await typeWord(A, 'zzz');
    await A.waitForSelector('#gb-feedback li.bad[data-word="zzz"]:has-text("not on the board")');
    await typeWord(A, 'fe');
    await A.waitForSelector('#gb-feedback li.bad[data-word="fe"]:has-text("too short")');
    await typeWord(A, 'felt');
    await A.waitForSelector('#gb-feedback li.bad[data-word="felt"]:has-text("already on your list")');

    // Bea drags W-E-B with the mouse (pointer events), then types NET.
    await drag(B, [[2, 2], [2, 3], [1, 2]]);
    await B.waitForSelector('#gb-feedback li.ok[data-word="web"]');
    await typeWord(B, 'net');
    await B.waitForSelector('#gb-feedback li.ok[data-word="net"]');
    // Each sees the other's count, never the words.
    await A.waitForSelector('#gb-counts [data-seat="1"]:has-text(": 2")');

    // The server crashes mid-round and comes back on the same port and file.
    await srv.kill();
    await A.waitForSelector('#conn:has-text("reconnecting")', { timeout: 10000 });
    await srv.start();
    for (const p of [A, B]) {
      await p.waitForSelector('#conn:has-text("connected"):not(:has-text("reconnecting"))', { timeout: 15000 });
    }
    // Nothing was lost: the words come back from the server's view.
    await A.waitForSelector('#gb-feedback li.ok[data-word="felt"]');
    await B.waitForSelector('#gb-feedback li.ok[data-word="web"]');

    // Both find BET (cancelled for both); Ann also LEFT.
    await typeWord(A, 'left');
    await typeWord(A, 'bet');
    await typeWord(B, 'bet');
    await A.waitForSelector('#gb-feedback li.ok[data-word="bet"]');
    await B.waitForSelector('#gb-feedback li.ok[data-word="bet"]');

    // Ann is finished (confirmed); the clock ends the round for Bea.
    await A.click('#gb-done');
    await A.click('dialog[open] button:has-text("finished")');
    await A.waitForSelector('#gb-status:has-text("You have finished")');
    await B.waitForSelector('#gb-counts [data-seat="0"]:has-text("finished")');

    for (const p of [A, B]) {
      await p.waitForSelector('#gb-table', { timeout: (SECONDS + 10) * 1000 });
      await p.waitForSelector('#gb-timer:has-text("time is up")');
    }
    // The table: BET struck through on both lists, with who else found it.
    const annList = A.locator('#gb-table .seat-result[data-seat="0"]');
    await annList.locator('li.cancelled[data-word="bet"] del').waitFor();
    assert.match(await annList.locator('li.cancelled[data-word="bet"]').textContent(), /also found by Bea/);
    assert.match(await annList.locator('h3').textContent(), /Ann \(P1\) \(you\): 4 points/); // felt 2 + left 2
    const beaList = B.locator('#gb-table .seat-result[data-seat="1"]');
    assert.match(await beaList.locator('li.cancelled[data-word="bet"]').textContent(), /also found by Ann/);
    assert.match(await beaList.locator('h3').textContent(), /2 points/); // web 1 + net 1
    // Every word on the board, one click away.
    await B.click('#gb-all summary');
    assert.ok((await B.locator('#gb-all ul.all-words li').count()) >= 40);
    await B.waitForSelector('#ranking li:first-child:has-text("Ann")');

    // No page ever received the other's words before the round ended.
    const beaEarly = framesBeforeOver(bea.frames).join('\n');
    const annEarly = framesBeforeOver(ann.frames).join('\n');
    assert.ok(bea.frames.length > 5 && ann.frames.length > 5, 'frames were recorded');
    for (const w of ['felt', 'left']) assert.ok(!beaEarly.includes(`"${w}"`), `Bea received Ann's word ${w} early`);
    for (const w of ['web', 'net']) assert.ok(!annEarly.includes(`"${w}"`), `Ann received Bea's word ${w} early`);
    // The spectator saw nobody's words before the end, and can act for no one.
    const catEarly = framesBeforeOver(cat.frames).join('\n');
    for (const w of ['felt', 'left', 'web', 'net', 'bet']) assert.ok(!catEarly.includes(`"${w}"`), `the spectator received ${w} early`);
    assert.equal(await C.locator('#gb-form').isVisible(), false);
    await C.waitForSelector('#gb-table li.cancelled[data-word="bet"]');
    // ...and they are there once it ended (so the check above can fail).
    assert.ok(bea.frames.some((f) => f.text.includes('"felt"')));
    assert.ok(ann.frames.some((f) => f.text.includes('"web"')));
  });
});
