// Keyboard players (issue 43 item 13): on a game's page one Tab reaches a
// link that skips the chat and the reactions straight to the game's
// controls, and after an action the focus stays in the game (Twin Grids'
// pie choice used to drop it to the top of the page).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ParlorServer, launch, player, withArtifacts } from './harness.mjs';

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
 * Opens a Twin Grids game against the computer, sitting at `seat`.
 * @param {import('playwright-core').Page} page @param {number} seat
 */
async function againstTheBot(page, seat) {
  const res = await fetch(`${srv.url}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'twingrid', bots: [{ seat: 1 - seat, level: 'easy' }], take_seat: seat, name: 'Kay' }),
  });
  const created = await res.json();
  assert.equal(res.status, 201, JSON.stringify(created));
  await page.goto(`${srv.url}/play/${created.game.id}#${created.you.token}`);
}

test('a skip link to the game, and the focus kept in the game after the pie choice', { timeout: 90000 }, async () => {
  const kay = await player(browser, 'Kay');
  await withArtifacts([kay], async () => {
    const K = kay.page;
    await againstTheBot(K, 1);
    await K.waitForSelector('#tg-stay');
    // The first Tab: the skip link; Enter: the focus is in the game.
    await K.keyboard.press('Tab');
    assert.equal(await K.evaluate(() => document.activeElement?.id), 'skip-to-board');
    await K.keyboard.press('Enter');
    assert.equal(await K.evaluate(() => document.activeElement?.id), 'board');
    // Tab by Tab to "Swap", within the game's own controls.
    let steps = 0;
    while ((await K.evaluate(() => document.activeElement?.id)) !== 'tg-swap') {
      await K.keyboard.press('Tab');
      assert.ok(++steps < 15, 'Swap is a few Tabs into the game');
      assert.ok(await K.evaluate(() => !!document.getElementById('board')?.contains(document.activeElement)), 'still in the game');
    }
    await K.keyboard.press('Enter');
    // The pie box goes; the focus stays in the game, on a control.
    await K.waitForSelector('#tg-pie', { state: 'hidden' });
    await K.waitForFunction(() => {
      const a = document.activeElement;
      return a instanceof HTMLElement && a !== document.body && !!document.getElementById('board')?.contains(a)
        && a.getClientRects().length > 0 && !a.closest('[hidden]');
    });
  });
});

test('every control of the opening has a name a screen reader says', { timeout: 60000 }, async () => {
  const kay = await player(browser, 'Kay');
  await withArtifacts([kay], async () => {
    const K = kay.page;
    await againstTheBot(K, 0);
    await K.waitForSelector('#tg-open:not([hidden])');
    assert.equal(await K.getByRole('combobox', { name: 'Give the points to' }).count(), 1);
    assert.equal(await K.getByRole('status', { name: 'Column of the opening word' }).count(), 1);
    // No control of the game without a name.
    const unnamed = await K.locator('#board').evaluate((board) =>
      [...board.querySelectorAll('button, input, select, textarea, output')]
        .filter((el) => el.getClientRects().length > 0)
        .filter((el) => !(el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || (/** @type {any} */ (el).labels?.length) || el.textContent?.trim()))
        .map((el) => el.id || el.tagName));
    assert.deepEqual(unnamed, [], 'every visible control has a name');
  });
});
