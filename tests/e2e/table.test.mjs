// Around the game (issue 20): the move list from the server (complete,
// numbered past 9, kept across a reload), the clocks on screen (the turn
// clock's countdown, moves made on time labelled), the result at the top
// (on a phone too) in the game's own words with Rematch and "New
// opponent", Gobble's "everyone has finished" against a bot, its points
// during the round and a word kept through an outage, Abort, abandoned
// games expiring, and /favicon.ico.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ParlorServer, launch, player, withArtifacts, PHONE } from './harness.mjs';

// D Y I O / E F B T / T L W E / N U N T (see gobble.test.mjs).
const KEYPHRASE = 'purr applause quack persuader';

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

test('turn clock on screen, moves made on time labelled, the whole move list after a reload, the result on top of a phone', { timeout: 180000 }, async () => {
  // Ann against the computer, three rounds, 1.5 s a turn: Ann never moves,
  // so the computer moves for her each time her turn clock runs out.
  const created = await srv.api('/api/games', {
    game: 'wordsprout', config: { players: 2, rounds: 3 }, bots: [{ seat: 1, level: 'easy' }],
    take_seat: 0, name: 'Ann', turn_seconds: 1.5,
  });
  const id = created.game.id;
  const ann = await player(browser, 'Ann', PHONE);
  const A = ann.page;
  await withArtifacts([ann], async () => {
    await A.goto(`${srv.url}/play/${id}#${created.you.token}`);
    // Everyone sees the turn clock count down beside the seat to move.
    await A.waitForSelector('#seats li[data-seat="0"] .mark.countdown:text-matches("turn [0-9]:[0-9][0-9]")', { timeout: 20000 });
    // Moves the clock made say so.
    await A.waitForSelector('#moves li[data-clock="turn"]:has-text("on time: you did not move in time, the computer played for you")', { timeout: 20000 });
    // A new round is a visible change: how the last one ended stays in view.
    await A.waitForSelector('#ws-round-break:not([hidden]):has-text("Round 1 won by")', { timeout: 60000 });
    // The match ends by itself.
    await A.waitForSelector('#result:not([hidden]) #ranking', { timeout: 150000 });
    const n = Number(await A.evaluate(() => document.body.dataset.moves));
    assert.ok(n >= 10, `a three-round match has at least 10 moves (got ${n})`);
    // Numbers past 9 are whole, every move is there, first to last.
    const numbers = await A.locator('#moves li .n').allTextContents();
    assert.deepEqual(numbers, Array.from({ length: n }, (_, i) => `${i + 1}.`));
    // The game's own words: rounds won, never "points"; "Game over" said once at most.
    const ranking = await A.locator('#ranking').innerText();
    assert.match(ranking, /rounds? won/);
    assert.doesNotMatch(ranking, /point/);
    // Places are numbered once, by the list (not "1. 1. ★ ...").
    const first = await A.locator('#ranking li').first().innerText();
    assert.doesNotMatch(first, /^\s*\d+\./, `no number written into the item: ${first}`);
    assert.equal(await A.locator('#ranking').evaluate((el) => el.tagName), 'OL');
    const body = await A.locator('body').innerText();
    assert.ok((body.match(/Game over/g) || []).length <= 1, 'Game over once at most');
    assert.match(await A.locator('#result-why').innerText(), /How it ended: .*won/);
    // On a phone the result, the ranking and Rematch come first, above the board.
    const result = await A.locator('#result').boundingBox();
    const board = await A.locator('#board').boundingBox();
    const rematchBox = await A.locator('#rematch').boundingBox();
    assert.ok(result && board && rematchBox && result.y < board.y && rematchBox.y < board.y, 'result above the board');
    assert.ok(rematchBox && rematchBox.y < 760, 'Rematch in the first screenful');

    // A reload shows the whole list again, from the server.
    const before = await A.locator('#moves li').allTextContents();
    await A.reload();
    await A.waitForFunction((k) => document.querySelectorAll('#moves li .n').length === k, n);
    assert.deepEqual(await A.locator('#moves li').allTextContents(), before);

    // "New opponent": the lobby, with the same game, rules and clock.
    await A.click('#new-opponent');
    await A.waitForURL((u) => u.pathname === '/' && u.search.includes('again='));
    await A.waitForSelector('#wordsprout-rules');
    assert.equal(await A.locator('#game').inputValue(), 'wordsprout');
    assert.equal(await A.locator('#tc-turn').inputValue(), '1.5');
    assert.equal(await A.locator('#ws-rounds').inputValue(), '3');
    // The turn clock and the absent limit are set in the lobby's form:
    // the new game keeps both, and its page counts the turn down.
    await A.fill('#tc-absent', '30');
    await A.selectOption('#seat-1', 'bot:easy');
    await A.click('#create-form button[type=submit]');
    await A.click('#go-play');
    await A.waitForURL((u) => u.pathname.startsWith('/play/') && !u.pathname.endsWith(id));
    const newId = new URL(A.url()).pathname.split('/')[2];
    const g = await srv.api(`/api/games/${newId}`);
    assert.deepEqual([g.time_control.turn_seconds, g.time_control.absent_seconds, g.config.rounds], [1.5, 30, 3]);
    await A.waitForSelector('#seats li[data-seat="0"] .mark.countdown:text-matches("turn [0-9]:[0-9][0-9]")', { timeout: 20000 });
  });
});

test('Gobble against the computer: points during the round, a word kept through an outage, "everyone has finished" without waiting for the clock', { timeout: 120000 }, async () => {
  const created = await srv.api('/api/games', {
    game: 'gobble', config: { seats: 2, keyphrase: KEYPHRASE, seconds: 600 }, bots: [{ seat: 1, level: 'easy' }],
    take_seat: 0, name: 'Ann',
  });
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    await A.goto(`${srv.url}/play/${created.game.id}#${created.you.token}`);
    await A.waitForSelector('#gb-grid .cell');
    await A.fill('#gb-word', 'felt');
    await A.press('#gb-word', 'Enter');
    // The accepted word shows its points at once.
    await A.waitForSelector('#gb-feedback li.ok[data-word="felt"]:text-matches("\\\\+[0-9]+ points?")');

    // The server goes away: the word typed meanwhile is kept, nobody is shown online.
    await srv.kill();
    await A.waitForSelector('#conn:has-text("reconnecting")', { timeout: 10000 });
    await A.waitForSelector('#seats li[data-seat="0"]:has-text("not known")');
    assert.equal(await A.locator('#seats .mark.online').count(), 0);
    await A.fill('#gb-word', 'web');
    await A.press('#gb-word', 'Enter');
    await A.waitForSelector('#gb-feedback li[data-word="web"]:has-text("kept")');
    await srv.start();
    // Back: it is sent, and accepted.
    await A.waitForSelector('#gb-feedback li.ok[data-word="web"]:text-matches("\\\\+[0-9]+ points?")', { timeout: 20000 });
    // After a reload the points come back from the move list.
    await A.reload();
    await A.waitForSelector('#gb-feedback li.ok[data-word="felt"]:text-matches("\\\\+[0-9]+ points?")');

    // Ann has finished: the computer finishes at once, the round ends long before its 10 minutes.
    await A.click('#gb-done');
    await A.click('dialog[open] button:has-text("I\'m finished")');
    await A.waitForSelector('#gb-timer:has-text("everyone has finished")', { timeout: 60000 });
    assert.doesNotMatch(await A.locator('#gb-timer').innerText(), /time is up/);
  });
});

test('Abort on the page before the first move; abandoned games expire and leave the running games', { timeout: 60000 }, async () => {
  // A game against a friend who never came.
  const created = await srv.api('/api/games', { game: 'wordsprout', config: { players: 2 }, take_seat: 0, name: 'Ann' });
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    await A.goto(`${srv.url}/play/${created.game.id}#${created.you.token}`);
    await A.click('#abort');
    await A.click('dialog[open] button:has-text("Abort")');
    await A.waitForSelector('#result-headline:has-text("aborted")');
    assert.equal((await srv.api(`/api/games/${created.game.id}`)).aborted, true);
  });

  // A game against the computer nobody opens, with a move made: after the
  // limit it is aborted by the server and no longer running. On a server
  // whose games nobody plays expire after 2 s (checked every second).
  const short = new ParlorServer(['--abandon-after', '2']);
  await short.start();
  try {
  const left = await short.api('/api/games', { game: 'wordsprout', config: { players: 2 }, bots: [{ seat: 0, level: 'easy' }], take_seat: 1, name: 'Bea' });
  const deadline = Date.now() + 30000;
  let g;
  do {
    await new Promise((r) => setTimeout(r, 300));
    g = await short.api(`/api/games/${left.game.id}`);
  } while (!g.aborted && Date.now() < deadline);
  assert.equal(g.aborted, true, 'expired');
  assert.equal(g.status, 'over');
  assert.ok(g.seq >= 1, 'the computer had moved');
  const live = await short.api('/api/games?status=live');
  assert.ok(!live.games.some((/** @type {any} */ x) => x.id === left.game.id), 'not among the running games');
  } finally {
    await short.stop();
  }
});

test('a refused play: its text leaves the box, its banners go with the next play', { timeout: 60000 }, async () => {
  const created = await srv.api('/api/games', {
    game: 'wordsprout', config: { players: 2 }, bots: [{ seat: 1, level: 'easy' }], take_seat: 0, name: 'Ann',
  });
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    await A.goto(`${srv.url}/play/${created.game.id}#${created.you.token}`);
    await A.waitForSelector('#ws-status:has-text("Your turn")');
    await A.fill('#ws-whole', 'xyz');
    await A.press('#ws-whole', 'Enter');
    await A.waitForSelector('#ws-error:has-text("Not played: XYZ")');
    await A.waitForSelector('#alert.shown');
    assert.equal(await A.inputValue('#ws-whole'), '', 'the refused text left the box');
    // The next play: no banner of the last refusal is left.
    await A.fill('#ws-whole', 'a');
    await A.press('#ws-whole', 'Enter');
    await A.waitForSelector('#moves li[data-n="1"]');
    assert.equal(await A.locator('#alert.shown').count(), 0);
    assert.equal(await A.locator('#ws-error').count(), 0);
  });
});

test('the absent countdown and the claim window count down for everyone; the claimed win is labelled', { timeout: 60000 }, async () => {
  // Ann (player 1, first to play) never comes; her absent countdown is 4 s.
  const created = await srv.api('/api/games', { game: 'wordsprout', absent_seconds: 4 });
  const t1 = created.seats.find((/** @type {any} */ s) => s.seat === 1).token;
  const bea = await player(browser, 'Bea');
  const cat = await player(browser, 'Cat');
  const B = bea.page, C = cat.page;
  await withArtifacts([bea, cat], async () => {
    await B.goto(`${srv.url}/play/${created.game.id}#${t1}`);
    await C.goto(`${srv.url}/play/${created.game.id}`);
    for (const p of [B, C]) {
      await p.waitForSelector('#seats li[data-seat="0"] .mark.countdown:text-matches("away: [0-9]:[0-9][0-9] before the computer plays")');
    }
    // Ran out: the claim window, with its time, beside Ann for everyone; the button for Bea.
    for (const p of [B, C]) await p.waitForSelector('#seats li[data-seat="0"] .mark.countdown:text-matches("claim [0-9]:[0-9][0-9]")', { timeout: 10000 });
    await B.waitForSelector('#claim-left:text-matches("[0-9]:[0-9][0-9] left")');
    assert.equal(await C.locator('#claim-win').count(), 0, 'a spectator cannot claim');
    await B.click('#claim-win');
    for (const p of [B, C]) {
      await p.waitForSelector('#ranking li:first-child:has-text("Bea")');
      await p.waitForSelector('#moves li[data-clock="claim"]:has-text("left: the win was claimed")');
    }
  });
});

test('/favicon.ico is served', async () => {
  const res = await fetch(`${srv.url}/favicon.ico`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/x-icon');
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.deepEqual([...bytes.slice(0, 4)], [0, 0, 1, 0], 'an ICO file');
});
