// A complete Word Sprout game between two browsers (two contexts) on one
// server: created in the lobby, joined by invite link, played with the
// keyboard, with clicks and with the whole-string box, a refresh, a server
// crash and restart in the middle (same port, same database), refused
// actions shown as errors, a challenge answered with a goal word, the end of
// the game on both pages, and a rematch. Also: an out-of-turn play called,
// and a win claimed from a player who left.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ParlorServer, launch, player, withArtifacts, createWithFriend, openRules } from './harness.mjs';

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

/** @param {import('playwright-core').Page} page */
const stringOf = (page) => page.locator('#ws-string .letter').allTextContents().then((l) => l.join(''));

/** @param {import('playwright-core').Page} page @param {string} s */
async function waitString(page, s) {
  await page.waitForFunction((want) => Array.from(document.querySelectorAll('#ws-string .letter')).map((e) => e.textContent).join('') === want, s.toUpperCase(), { timeout: 10000 });
}

test('a complete Word Sprout game in two browsers, with a server restart', { timeout: 120000 }, async () => {
  const ann = await player(browser, 'Ann');
  const bea = await player(browser, 'Bea');
  const A = ann.page, B = bea.page;
  await withArtifacts([ann, bea], async () => {

  // Ann creates the game in the lobby: player 1 herself, player 2 a friend.
  await openRules(A, srv.url, 'wordsprout');
  const invite = await createWithFriend(A);
  assert.match(invite, /\/play\/[a-z0-9]+#[0-9a-f]{32}$/);
  // Bea sees the game in the lobby (with the running games: its free seat
  // is invited, not open to anyone), then follows her invite.
  await B.goto(srv.url + '/');
  await B.waitForSelector('#live-games li:has-text("Word Sprout"):has-text("Player 2: invited")');
  await B.goto(invite);

  await A.waitForSelector('#ws-status:has-text("Your turn")');
  await B.waitForSelector('#ws-status:has-text("to move")');
  await B.waitForSelector('#seats li[data-seat="1"]:has-text("you")');
  // A table without the helper during play: no helper button yet.
  assert.equal(await A.locator('#ws-helper-btn').isVisible(), false);
  // Bea's name reached Ann's page.
  await A.waitForSelector('#seats li[data-seat="1"]:has-text("Bea")');

  // Ann, keyboard only: type O, Enter (at the end), Enter (confirm).
  await A.locator('body').press('o');
  await A.keyboard.press('Enter');
  await A.waitForSelector('#ws-play');
  await A.keyboard.press('Enter');
  await waitString(A, 'o');
  await waitString(B, 'o');

  // Bea, by clicks: the point after O, the letter A, Play.
  await B.waitForSelector('#ws-status:has-text("Your turn")');
  await B.click('#ws-string [data-point="1"]');
  await B.click('#ws-pad button[aria-label="letter A"]');
  await B.click('#ws-play');
  await waitString(A, 'oa');
  await waitString(B, 'oa');

  // A bad action: not an insertion. Clear error, nothing changes.
  await A.fill('#ws-whole', 'xyz');
  await A.press('#ws-whole', 'Enter');
  await A.waitForSelector('#alert:has-text("not")');
  assert.match(await A.locator('#alert').textContent(), /"xyz" is not "oa" with 1 letter added/);
  assert.equal(await stringOf(A), 'OA');

  // Bea refreshes: the same seat comes back with the whole state.
  await B.reload();
  await waitString(B, 'oa');
  await B.waitForSelector('#you:has-text("You are player 2")');

  // The server crashes (SIGKILL) and comes back on the same port and file.
  await srv.kill();
  await A.waitForSelector('#conn:has-text("reconnecting")', { timeout: 10000 });
  await B.waitForSelector('#conn:has-text("reconnecting")', { timeout: 10000 });
  await srv.start();
  await A.waitForSelector('#conn:has-text("connected"):not(:has-text("reconnecting"))', { timeout: 15000 });
  await B.waitForSelector('#conn:has-text("connected"):not(:has-text("reconnecting"))', { timeout: 15000 });
  await waitString(A, 'oa');
  await waitString(B, 'oa');

  // Play continues: Ann types the whole new string.
  await A.fill('#ws-whole', 'oat');
  await A.press('#ws-whole', 'Enter');
  await waitString(B, 'oat');

  // Bea, keyboard: M, → → (the point between O and A), Enter.
  await B.waitForSelector('#ws-status:has-text("Your turn")');
  await B.locator('body').press('m');
  await B.keyboard.press('ArrowRight');
  await B.keyboard.press('ArrowRight');
  await B.waitForSelector('#ws-play:has-text("OMAT")');
  await B.keyboard.press('Enter');
  await waitString(A, 'omat');

  // Ann challenges OMAT (confirmed in a dialog).
  await A.click('#ws-challenge');
  await A.click('dialog[open] button:has-text("Challenge")');
  await B.waitForSelector('#ws-goal');
  await A.waitForSelector('#ws-status:has-text("challenged")');

  // Bea first names a word that does not fit: refused, she may try again.
  await B.fill('#ws-goal', 'zebra');
  await B.press('#ws-goal', 'Enter');
  await B.waitForSelector('#alert:has-text("does not justify")');
  await B.fill('#ws-goal', 'diplomat');
  await B.press('#ws-goal', 'Enter');

  // Ann challenged a valid play: she is out, Bea wins, on both pages.
  for (const p of [A, B]) {
    await p.waitForSelector('#result-headline:has-text("Bea (P2) wins"), #result-headline:has-text("You win")');
    await p.waitForSelector('#ranking li:first-child:has-text("Bea")');
    await p.waitForSelector('#moves:has-text("out: challenged a valid play")');
  }
  await A.waitForSelector('#ws-players li[data-seat="0"]:has-text("out")');

  // After the game the helper is one click away: the plays from the
  // final string, then from a string Ann types, with their goal words.
  await A.click('#ws-helper-btn:has-text("What could have been played?")');
  await A.waitForSelector('#ws-helper-summary');
  await A.fill('#ws-helper-string', 'omat');
  await A.click('#ws-helper-form button[type=submit]');
  await A.waitForSelector('#ws-helper-summary:has-text("from OMAT")');
  const tomat = A.locator('#ws-helper-result li[data-result="tomat"]');
  await tomat.waitFor();
  assert.match(await tomat.textContent(), /TOMAT \(T in front\).*\btomato\b/);
  await A.waitForSelector('#ws-helper-result li[data-result="ormat"]:has-text("format")');

  // Rematch: same rules, seats rotated (Ann is player 2 now).
  await A.click('#rematch');
  await A.waitForURL(/\/play\/[a-z0-9]+#[0-9a-f]{32}$/);
  await A.waitForSelector('#you:has-text("You are player 2")');
  await B.waitForSelector('#result:has-text("A rematch exists")');

  // Bea's lobby lists her games: the finished one and the rematch.
  await B.goto(srv.url + '/');
  await B.waitForSelector('#my-games li:has-text("over")');
  assert.ok((await B.locator('#my-games li').count()) >= 2);
  });
});

test('Word Sprout: an out-of-turn play, warned about, then called', { timeout: 60000 }, async () => {
  const ann = await player(browser, 'Ann');
  const bea = await player(browser, 'Bea');
  const A = ann.page, B = bea.page;
  await withArtifacts([ann, bea], async () => {
    // Created in the lobby with the helper open during play.
    await openRules(A, srv.url, 'wordsprout');
    await A.check('#ws-hints');
    const invite = await createWithFriend(A);
    await B.goto(invite);
    await A.waitForSelector('#ws-status:has-text("Your turn")');
    await A.fill('#ws-whole', 'o');
    await A.press('#ws-whole', 'Enter');
    await waitString(B, 'o');
    // Bea asks the helper during play: the plays from O.
    await B.click('#ws-helper-btn:has-text("What could be played?")');
    await B.waitForSelector('#ws-helper-summary:has-text("possible plays from O")');
    assert.ok((await B.locator('#ws-helper-result li[data-result]').count()) > 3);
    await B.click('#ws-helper-btn');
    await B.waitForSelector('#ws-helper-panel', { state: 'hidden' });
    // Ann again, out of turn: the page warns before she confirms.
    await A.click('#ws-status'); // leave the text box: letters now pick
    await A.keyboard.press('r');
    await A.keyboard.press('Enter');
    await A.waitForSelector('#ws-preview:has-text("out-of-turn play")');
    await A.click('#ws-play');
    await waitString(B, 'or');
    await B.waitForSelector('#moves:has-text("out of turn")');
    // Bea notices and calls it: Ann is out, her play undone, Bea wins.
    await B.click('#ws-call');
    for (const p of [A, B]) {
      await p.waitForSelector('#moves:has-text("called for playing out of turn")');
      await p.waitForSelector('#ranking li:first-child:has-text("Bea")');
    }
    await waitString(A, 'o');
  });
});

test('Word Sprout: claiming the win from a player who left', { timeout: 60000 }, async () => {
  const bea = await player(browser, 'Bea');
  const B = bea.page;
  await withArtifacts([bea], async () => {
    // Ann (player 1, first to play) never comes; her absent countdown is
    // short, but long enough for Bea's page to connect first: a countdown
    // that runs out with nobody at the table lets the bot play for Ann, and
    // no claim window opens (0.5 s was sometimes too short on a busy machine).
    const res = await fetch(srv.url + '/api/games', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ game: 'wordsprout', absent_seconds: 3 }),
    });
    assert.equal(res.status, 201);
    const created = await res.json();
    const t1 = created.seats.find((/** @type {any} */ s) => s.seat === 1).token;
    await B.goto(`${srv.url}/play/${created.game.id}#${t1}`);
    // The countdown runs out: Bea may claim the win (else the bot would play for Ann).
    await B.waitForSelector('#claim-win:has-text("Claim the win")', { timeout: 10000 });
    await B.click('#claim-win');
    await B.waitForSelector('#ranking li:first-child:has-text("Bea")');
    await B.waitForSelector('#claim-win', { state: 'detached' });
  });
});
