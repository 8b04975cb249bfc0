// Word Sprout's variants in the browser: a two-round match created in the
// lobby with metamorphism, tiles (a small pot), vowel collections and
// vowel-reverses; moves played through the page under each, the active
// rules shown as chips, the pot and the collections updated, letters with no
// tile left not offered, the round's winner switching 2-D on through the
// choice the page offers, and round 2 played on the 2-D grid. Then a
// four-seat team game from the lobby (teams entered there), the teams shown.
// Any uncaught page error or console error fails the test.
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

/** @param {import('playwright-core').Page} page @param {string} s */
async function waitString(page, s) {
  await page.waitForFunction((want) => Array.from(document.querySelectorAll('#ws-string .letter')).map((e) => e.textContent).join('') === want, s.toUpperCase(), { timeout: 10000 });
}

/** Plays the whole new string through the text box. @param {import('playwright-core').Page} page @param {string} s */
async function play(page, s) {
  await page.waitForSelector('#ws-status:has-text("Your turn")');
  await page.fill('#ws-whole', s);
  await page.press('#ws-whole', 'Enter');
}

/** The tiles left as the page shows them, {letter: count}. @param {import('playwright-core').Page} page */
async function tilesShown(page) {
  return page.$$eval('#ws-pot [data-tile]', (els) => Object.fromEntries(els.map((e) => [/** @type {HTMLElement} */ (e).dataset.tile, Number(/** @type {HTMLElement} */ (e).dataset.left)])));
}

const POT = 'a3 e3 o2 t2 n2 r1 s1 b1 d1 l1 m1';

test('Word Sprout variants: metamorphism, tiles, vowel collections, vowel-reverses, 2-D', { timeout: 90000 }, async () => {
  const ann = await player(browser, 'Ann');
  const bea = await player(browser, 'Bea');
  const A = ann.page, B = bea.page;
  await withArtifacts([ann, bea], async () => {
    await openRules(A, srv.url, 'wordsprout');
    for (const r of ['metamorphism', 'tiles', 'vowel-collection', 'vowel-reverses']) await A.check(`#wordsprout-rules input[value="${r}"]`);
    await A.fill('#ws-rounds', '2');
    await A.fill('#ws-pot', POT);
    const invite = await createWithFriend(A);
    await B.goto(invite);

    // The active rules are all shown, with the round of the match.
    for (const p of [A, B]) {
      for (const r of ['out-of-turn', 'challenge', 'undo-losing-play', 'metamorphism', 'tiles', 'vowel-collection', 'vowel-reverses']) {
        await p.waitForSelector(`#ws-rules [data-rule="${r}"]`);
      }
      await p.waitForSelector('#ws-round:has-text("Round 1 of 2")');
    }
    assert.deepEqual(await tilesShown(A), { a: 3, b: 1, d: 1, e: 3, l: 1, m: 1, n: 2, o: 2, r: 1, s: 1, t: 2 });

    // Ann plays A: the tile leaves the pot, she collects A (a second tile),
    // and the vowel reverses the order of play.
    await play(A, 'a');
    await waitString(B, 'a');
    await B.waitForSelector('#ws-players li[data-seat="0"]:has-text("vowels: A")');
    await B.waitForSelector('#ws-round:has-text("backward")');
    assert.equal((await tilesShown(B)).a, 1);
    await play(B, 'at');
    await waitString(A, 'at');
    await play(A, 'eat');
    await waitString(B, 'eat');
    await B.waitForSelector('#ws-players li[data-seat="0"]:has-text("vowels: AE")');
    assert.deepEqual(await tilesShown(B), { a: 1, b: 1, d: 1, e: 1, l: 1, m: 1, n: 2, o: 2, r: 1, s: 1, t: 1 });

    // Bea picks a point: the letter pad offers only letters with a tile left.
    await B.waitForSelector('#ws-status:has-text("Your turn")');
    await B.click('#ws-string [data-point="3"]');
    assert.equal(await B.locator('#ws-pad button[aria-label^="letter Z"]').isDisabled(), true);
    assert.equal(await B.locator('#ws-pad button[aria-label^="letter T"]').isDisabled(), false);
    await B.click('#ws-pad button[aria-label^="letter S"]');
    await B.click('#ws-play');
    await waitString(A, 'eats');
    assert.equal((await tilesShown(A)).s, 0);
    // A letter the pot no longer has, typed as a whole string: refused, with the reason.
    await play(A, 'seats');
    await A.waitForSelector('#alert.shown, #ws-error');
    await waitString(A, 'eats');

    // Ann cannot go on and goes out: Bea wins round 1 and switches a rule.
    await A.click('#ws-concede');
    await A.click('dialog[open] button:has-text("Go out")');
    await B.waitForSelector('#ws-status:has-text("choose a rule")');
    await A.waitForSelector('#ws-status:has-text("is choosing a rule")');
    await A.waitForSelector('#moves:has-text("Round 1 won by Bea (P2) (the last player in)")');
    const options = await B.locator('#ws-rule option').allTextContents();
    assert.ok(options.includes('Keep the rules as they are'), options.join(' | '));
    assert.ok(options.some((o) => /Turn on: 2-D/.test(o)) && options.some((o) => /Turn off: Tiles/.test(o)), options.join(' | '));
    await B.selectOption('#ws-rule', 'two-d');
    await B.click('#ws-choose button[type=submit]');

    // Round 2, on the 2-D grid, started by Bea (the first move rotates).
    for (const p of [A, B]) {
      await p.waitForSelector('#ws-round:has-text("Round 2 of 2")');
      await p.waitForSelector('#ws-rules [data-rule="two-d"]');
      await p.waitForSelector('#moves:has-text("turned 2-D (crossing strings) on")');
      await p.waitForSelector('#ws-board h3:has-text("2-D grid")');
    }
    assert.equal((await tilesShown(A)).a, 3, 'every round starts with the full pot');
    await play(B, 'o');
    await waitString(A, 'o');
    await play(A, 'on');
    await waitString(B, 'on');
    await play(B, 'one');
    await waitString(A, 'one');
    assert.equal(await A.locator('#ws-board .grid2d').getAttribute('aria-label') !== null, true);
    assert.equal((await A.locator('#ws-board .grid2d [data-cell]').allTextContents()).join(''), 'ONE');
  });
});

test('Word Sprout variants: a team game from the lobby, teams shown', { timeout: 60000 }, async () => {
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    await openRules(A, srv.url, 'wordsprout');
    await A.fill('#seats', '4');
    await A.locator('#seats').dispatchEvent('change');
    for (const i of [1, 2, 3]) await A.selectOption(`#seat-${i}`, 'bot:easy');
    await A.check('#wordsprout-rules input[value="teams"]');
    // A player number that does not exist: said so in the lobby, nothing created.
    await A.fill('#ws-teams', '1,5/2,4');
    await A.click('#create-form button[type=submit]');
    await A.waitForSelector('#created .error:has-text("not a player number")');
    await A.fill('#ws-teams', '1,2/3,4');
    await A.click('#create-form button[type=submit]');
    await A.click('#go-play');
    await A.waitForSelector('#ws-rules [data-rule="teams"]');
    // The rule's name for people comes from the game's declared settings.
    assert.equal(await A.textContent('#ws-rules [data-rule="teams"]'), 'Team play');
    for (const [seat, team] of [[0, 1], [1, 1], [2, 2], [3, 2]]) {
      await A.waitForSelector(`#ws-players li[data-seat="${seat}"] .team[data-team="${team}"]`);
    }
    await play(A, 'o');
    await A.waitForSelector('#moves:has-text("played O")');
  });
});
