// Sprouts in the browser: two players (two contexts) play a whole game
// from two spots by dragging lines between spots on the drawing, each move
// confirmed in the chooser that lists the legal moves fitting the drag;
// after every move the drawing has no crossing lines, both pages show the
// same record, and at the end the winner. Then a game from three spots
// against the computer, to the end.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ParlorServer, launch, player, withArtifacts, createWithFriend, openRules, shots, PHONE } from './harness.mjs';

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

/** @param {string} t */
function ends(t) {
  const m = /^(\d+)!?\(\d+(?:@\d+)?\)!?(\d+)/.exec(t);
  assert.ok(m, `a WGOSA move: ${t}`);
  return { f: Number(m[1]), h: Number(m[2]) };
}

/** @param {import('playwright-core').Page} page */
const movesOf = (page) => page.evaluate(() => Number(document.body.dataset.spMoves || 0));

/** @param {import('playwright-core').Page} page @param {number} n */
async function waitMoves(page, n) {
  await page.waitForFunction((want) => Number(document.body.dataset.spMoves || -1) >= want, n, { timeout: 30000 });
}

/** The centre of a spot on the screen. @param {import('playwright-core').Page} page @param {number} s */
async function spotXY(page, s) {
  const box = await page.locator(`#sp-board .sp-spot[data-spot="${s}"] .sp-dot`).boundingBox();
  assert.ok(box, `spot ${s} is drawn`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * Drags a line for `move` with the mouse (a loop goes out and comes back),
 * checks the chooser lists exactly the legal moves with the same ends, and
 * picks `move` in it.
 * @param {import('playwright-core').Page} page @param {string} move @param {string[]} legal
 */
async function dragMove(page, move, legal) {
  const { f, h } = ends(move);
  const a = await spotXY(page, f), b = await spotXY(page, h);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  if (f === h) {
    // Out and back: a loop.
    await page.mouse.move(a.x + 70, a.y - 50, { steps: 6 });
    await page.mouse.move(a.x + 70, a.y + 50, { steps: 6 });
    await page.mouse.move(a.x, a.y, { steps: 6 });
  } else {
    await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2 - 30, { steps: 8 });
    await page.mouse.move(b.x, b.y, { steps: 8 });
  }
  await page.mouse.up();
  await page.waitForSelector('#sp-chooser:not([hidden])');
  const offered = await page.locator('#sp-chooser button.sp-choice').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.move));
  const fitting = legal.filter((t) => {
    const e = ends(t);
    return (e.f === f && e.h === h) || (e.f === h && e.h === f);
  });
  assert.deepEqual([...offered].sort(), [...fitting].sort(), `the chooser offers the legal moves from ${f} to ${h}`);
  await page.click(`#sp-chooser button.sp-choice[data-move="${move}"]`);
}

/** @param {import('playwright-core').Page} page @returns {Promise<string[]>} */
const legalOf = (page) => page.locator('#sp-legal button.sp-legal-move').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.move || ''));

/**
 * Ann's new table from the lobby against the strongest bot offered.
 * @param {import('playwright-core').Page} A
 * @param {{spots: number, misere?: boolean, start?: string}} rules
 */
async function newGameAgainstTheBot(A, rules) {
  await openRules(A, srv.url, 'sprouts');
  await A.fill('#sp-spots', String(rules.spots));
  if (rules.misere) await A.check('#sp-misere');
  if (rules.start) await A.fill('#sp-start', rules.start);
  const botLevels = await A.locator('#seat-1 option').evaluateAll((els) => els.map((e) => /** @type {HTMLOptionElement} */ (e).value).filter((v) => v.startsWith('bot:')));
  assert.ok(botLevels.length >= 2, `bots offered: ${botLevels}`);
  await A.selectOption('#seat-0', 'me');
  await A.selectOption('#seat-1', botLevels[botLevels.length - 1]);
  await A.click('#create-form button[type=submit]');
  await A.click('#go-play');
}

/**
 * Ann plays (by dragging) until the game is over: `pick` chooses among the
 * legal moves; the drawing stays planar after every move.
 * @param {import('playwright-core').Page} A
 * @param {number} turns at most this many of Ann's moves
 * @param {(legal: string[]) => string} pick
 */
async function playToTheEnd(A, turns, pick) {
  for (let turn = 0; turn < turns; turn++) {
    await A.waitForSelector('#sp-status:has-text("Your turn"), #sp-status:has-text("Game over")', { timeout: 30000 });
    if (/Game over/.test((await A.locator('#sp-status').textContent()) || '')) break;
    const before = await movesOf(A);
    const legal = await legalOf(A);
    await dragMove(A, pick(legal), legal);
    await waitMoves(A, before + 1);
    await assertPlanar(A);
  }
  await A.waitForSelector('#sp-status:has-text("Game over")');
}

/** Planarity, as the page computed it (every pair of lines checked). @param {import('playwright-core').Page} page */
async function assertPlanar(page) {
  const crossings = await page.getAttribute('#sp-board', 'data-crossings');
  assert.equal(crossings, '0', 'no two lines cross');
}

test('Sprouts: two players play a whole game by dragging', { timeout: 240000 }, async () => {
  const ann = await player(browser, 'Ann');
  const bea = await player(browser, 'Bea');
  const A = ann.page, B = bea.page;
  await withArtifacts([ann, bea], async () => {
    // Created in the lobby from the settings Sprouts declares.
    await openRules(A, srv.url, 'sprouts');
    await A.fill('#sp-spots', '2');
    assert.equal(await A.isChecked('#sp-misere'), false);
    const invite = await createWithFriend(A);
    await B.goto(invite);
    await A.waitForSelector('#sp-status:has-text("Your turn")');
    await B.waitForSelector('#sp-status:has-text("to move")');
    await A.waitForSelector('#sp-play:has-text("Normal play")');
    assert.equal(await A.locator('#sp-board .sp-spot').count(), 2);

    // Bea may not draw out of turn: her drag opens nothing.
    const b1 = await spotXY(B, 1), b2 = await spotXY(B, 2);
    await B.mouse.move(b1.x, b1.y);
    await B.mouse.down();
    await B.mouse.move(b2.x, b2.y, { steps: 5 });
    await B.mouse.up();
    assert.equal(await B.locator('#sp-chooser').isHidden(), true);

    const pages = [A, B];
    let n = 0;
    // At most 3n - 1 = 5 moves from two spots.
    for (; n < 5; n++) {
      const status = await A.locator('#sp-status').textContent();
      if (/Game over/.test(status || '')) break;
      const me = pages[n % 2];
      await me.waitForSelector('#sp-status:has-text("Your turn")');
      const legal = await legalOf(me);
      assert.ok(legal.length > 0, 'legal moves are listed');
      // Prefer a loop or a move with a list once, so the drawing has to
      // enclose something; else the first move.
      const move = legal.find((t) => /\[/.test(t)) || legal.find((t) => ends(t).f === ends(t).h) || legal[0];
      await dragMove(me, move, legal);
      for (const p of pages) {
        await waitMoves(p, n + 1);
        await assertPlanar(p);
      }
      // Both pages show the same record, and it ends with the move.
      const ra = await A.inputValue('#sp-record'), rb = await B.inputValue('#sp-record');
      assert.equal(ra, rb);
      assert.match(ra, /^2\+ /);
      await A.waitForSelector(`#sp-moves li:nth-child(${n + 1})`);
      if (!(await A.locator('#sp-legal-box').isHidden()) && !(await B.locator('#sp-legal-box').isHidden())) {
        assert.fail('only the player to move is offered moves');
      }
    }
    // The game is over: the result and the record with the winner.
    for (const p of pages) {
      await p.waitForSelector('#sp-status:has-text("Game over")');
      await p.waitForSelector('#result:not([hidden]) #result-headline');
    }
    const record = await A.inputValue('#sp-record');
    const winner = / II$/.test(record) ? 'Bea' : 'Ann';
    assert.match(record, / (I|II)$/);
    // Normal play: whoever moved last won.
    assert.equal(winner, (await movesOf(A)) % 2 === 1 ? 'Ann' : 'Bea');
    await A.waitForSelector(`#sp-status:has-text("${winner === 'Ann' ? 'You win' : 'Bea wins'}")`);
    await B.waitForSelector(`#ranking li:first-child:has-text("${winner}")`);
    // The server's move list says each move in words and in the game's notation.
    const firstMove = ((await A.locator('#sp-moves li:first-child code').textContent()) || '').trim();
    const firstWords = ((await A.locator('#sp-moves li:first-child .sp-words').textContent()) || '').trim();
    assert.match(firstWords, /^(joined \d+ to \d+|drew a loop at \d+) with new spot 3/);
    await A.waitForSelector(`#moves li:first-child:has-text("You ${firstWords} (${firstMove})")`);
    await B.waitForSelector(`#moves li:first-child:has-text("Ann"):has-text("${firstWords} (${firstMove})")`);
    // The record is copyable (clipboard or, without permission, selected).
    await A.click('#sp-copy');
    await A.waitForFunction(() => document.querySelector('.toast') !== null, null, { timeout: 5000 }).catch(() => {});
    // Nothing is offered after the game.
    assert.equal(await A.locator('#sp-legal button').count(), 0);
    // Every drawn move read back as the server's position (or says so).
    const approx = await A.getAttribute('#sp-board', 'data-approximate');
    console.log(`# two players: ${await movesOf(A)} moves, record ${record}, approximate drawings: ${approx}`);
    assert.equal(approx, '0', 'every move drawn as the position says');
  });
});

test('Sprouts: a game against the computer, to the end', { timeout: 240000 }, async () => {
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    await newGameAgainstTheBot(A, { spots: 3, misere: true });
    await A.waitForSelector('#sp-play:has-text("Misère")');
    // At most 3n - 1 = 8 moves; the bot answers each of Ann's.
    await playToTheEnd(A, 8, (legal) => legal[legal.length - 1]);
    await A.waitForSelector('#result:not([hidden]) #result-headline');
    await assertPlanar(A);
    const record = await A.inputValue('#sp-record');
    assert.match(record, /^3- .* (I|II)$/);
    // Misère: whoever moved last lost.
    const lastByAnn = (await movesOf(A)) % 2 === 1;
    await A.waitForSelector(`#sp-status:has-text("${lastByAnn ? 'wins' : 'You win'}")`);
    console.log(`# against the bot: record ${record}, approximate drawings: ${await A.getAttribute('#sp-board', 'data-approximate')}`);
    // After the game, the solver's verdict on each move: misère with 3
    // spots is lost by the first player, and the strongest bot (the second
    // player) never gives the win away.
    await A.click('#sp-verdicts');
    await A.waitForSelector('#sp-verdict-note:has-text("the second player wins")');
    const marks = await A.locator('#sp-moves li').evaluateAll((els) => els.map((e) => {
      const v = e.querySelector('.sp-verdict');
      return v ? /** @type {HTMLElement} */ (v).dataset.verdict : null;
    }));
    assert.equal(marks.length, await movesOf(A));
    assert.ok(marks.every((m) => m !== null && m !== 'unknown'), `every move judged: ${marks}`);
    assert.ok(marks.every((m, i) => i % 2 === 0 || m !== 'mistake'), `the bot gave nothing away: ${marks}`);
    assert.ok(await A.locator('#sp-verdicts').isHidden());
  });
});

test('Sprouts: resigning, confirmed first', { timeout: 60000 }, async () => {
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    const res = await srv.api('/api/games', { game: 'sprouts', config: { spots: 2 }, bots: [{ seat: 1, level: 'easy' }], take_seat: 0, name: 'Ann' });
    await A.goto(`${srv.url}/play/${res.game.id}#${res.you.token}`);
    await A.waitForSelector('#sp-status:has-text("Your turn")');
    await A.click('#sp-resign');
    await A.click('dialog[open] button:has-text("Resign")');
    await A.waitForSelector('#sp-status:has-text("you resigned")');
    await A.waitForSelector('#ranking li:first-child:has-text("bot")');
    assert.equal(await A.locator('#sp-resign').isHidden(), true);
    assert.match(await A.inputValue('#sp-record'), /^2\+ .*II$/);
  });
});

test('Sprouts: a game that goes on from a pasted record', { timeout: 120000 }, async () => {
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    await newGameAgainstTheBot(A, { spots: 2, start: '2+ 1(3)2 1(4)2' });
    // The record's two moves are the game's first; Ann (first player) is
    // to move, and the drawing shows them without a crossing.
    await waitMoves(A, 2);
    await A.waitForSelector('#sp-status:has-text("Your turn")');
    await assertPlanar(A);
    assert.match(await A.inputValue('#sp-record'), /^2\+ 1\(3\)2 1\(4\)2/);
    // Play on to the end.
    await playToTheEnd(A, 4, (legal) => legal[0]);
    // A record of another game is refused at creation, in one line.
    await A.goto(srv.url + '/');
    await A.selectOption('#game', 'sprouts');
    await A.fill('#sp-spots', '3');
    await A.fill('#sp-start', '2+ 1(3)2');
    await A.click('#create-form button[type=submit]');
    await A.waitForSelector('text=set spots and misère to match');
    // A longer game (the notation document's, 8 spots): every move drawn as
    // its position says, the picture drawn again where a move did not fit.
    await newGameAgainstTheBot(A, { spots: 8, start: '8+ 1(9)2 1(10)1[3,4] 3(11)10 2(12)5 5(13)5 6(14)6[7,8] 7(15)8 6(16@2)14' });
    await waitMoves(A, 8);
    await assertPlanar(A);
    assert.equal(await A.getAttribute('#sp-board', 'data-approximate'), '0', 'the pasted game is drawn exactly');
    // The position in the card notation is beside it; a pasted one is shown
    // on the paper (drawn from its structure), then the game again.
    assert.match(await A.inputValue('#sp-position'), /^[0-9,;/]+$/);
    await A.fill('#sp-position', '5,1,3,2,4/5,4,1/6,2,3/6,3,1,4,2');
    await A.click('#sp-show');
    await A.waitForSelector('#sp-board[data-shown="position"]');
    assert.equal(await A.locator('#sp-board .sp-spot').count(), 6);
    assert.equal(await A.getAttribute('#sp-board', 'data-crossings'), '0');
    await A.click('#sp-back');
    await A.waitForSelector('#sp-board[data-shown="game"]');
    assert.equal(await A.locator('#sp-board .sp-spot').count(), 16);
  });
});

test('Sprouts: live and dead spots at a glance, lives on hover and focus, moves in words', { timeout: 120000 }, async () => {
  const shot = shots('sprouts-glance');
  for (const [name, options] of /** @type {[string, import('playwright-core').BrowserContextOptions][]} */ ([['desktop', { viewport: { width: 1100, height: 900 } }], ['phone', PHONE]])) {
    const ann = await player(browser, 'Ann', options);
    const A = ann.page;
    await withArtifacts([ann], async () => {
      // A loop at 1, then a line from 1 to the loop's spot 4: 1 and 4 are
      // dead (three lines each), 5 has one life left, 2 and 3 all three.
      const res = await srv.api('/api/games', { game: 'sprouts', config: { spots: 3, start: '3+ 1(4)1 1(5)4' }, bots: [{ seat: 1, level: 'easy' }], take_seat: 0, name: 'Ann' });
      await A.goto(`${srv.url}/play/${res.game.id}#${res.you.token}`);
      await A.waitForSelector('#sp-status:has-text("Your turn")');
      await waitMoves(A, 2);
      const spot = (/** @type {number} */ s) => A.locator(`#sp-board .sp-spot[data-spot="${s}"]`);
      // Dead spots differ by shape (crossed out), not colour alone.
      for (const s of [1, 4]) {
        assert.match((await spot(s).getAttribute('class')) || '', /\bdead\b/, `spot ${s} is drawn dead`);
        assert.equal(await spot(s).locator('.sp-cross').count(), 1, `spot ${s} is crossed out`);
        assert.equal(await spot(s).getAttribute('aria-label'), `spot ${s}: dead (three lines)`);
      }
      for (const [s, lives] of [[2, 3], [3, 3], [5, 1]]) {
        assert.match((await spot(s).getAttribute('class')) || '', /\blive\b/, `spot ${s} is drawn live`);
        assert.equal(await spot(s).locator('.sp-cross').count(), 0);
        assert.equal(await spot(s).getAttribute('aria-label'), `spot ${s}: ${lives} ${lives === 1 ? 'life' : 'lives'} left`);
      }
      await A.waitForSelector('#sp-legend .sp-spot.dead .sp-cross');
      // The lives are written out on hover (a pointer) and on focus (the keyboard).
      assert.equal(await spot(2).locator('.sp-tip').isVisible(), false);
      if (!options.hasTouch) {
        await spot(2).locator('.sp-dot').hover();
        await A.waitForSelector('#sp-board .sp-spot[data-spot="2"] .sp-tip:visible');
        assert.equal(await spot(2).locator('.sp-tip').textContent(), '3 lives left');
      }
      await spot(5).focus();
      await A.waitForSelector('#sp-board .sp-spot[data-spot="5"] .sp-tip:visible');
      assert.equal(await spot(5).locator('.sp-tip').textContent(), '1 life left');
      // The moves in words beside the notation.
      const lines = await A.locator('#sp-moves li').allInnerTexts();
      assert.equal(lines.length, 2);
      assert.equal(lines[0].trim(), 'Ann (P1) drew a loop at 1 with new spot 4, enclosing nothing (1(4)1)');
      // The line inside the loop (2 and 3 lie outside) cuts off nothing alive.
      assert.match(lines[1].trim(), / joined 1 to 4 with new spot 5, enclosing nothing \(1\(5\)4\)$/);
      await shot(A, `${name}-before`);
      // A press (or drag) from a dead spot says so, and starts nothing.
      const from = await spot(1).locator('.sp-dot').boundingBox();
      const to = await spot(2).locator('.sp-dot').boundingBox();
      assert.ok(from && to);
      if (options.hasTouch) {
        await A.touchscreen.tap(from.x + from.width / 2, from.y + from.height / 2);
      } else {
        await A.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
        await A.mouse.down();
        await A.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 6 });
        await A.mouse.up();
      }
      await A.waitForSelector('#alert:has-text("Spot 1 is dead (three lines): start from a live spot.")');
      assert.equal(await A.locator('#sp-chooser').isHidden(), true, 'no move offered from a dead spot');
      await shot(A, `${name}-dead`);
      if (process.env.E2E_SHOTS) await A.locator('#sp-board').screenshot({ path: `${process.env.E2E_SHOTS}/sprouts-glance-${name}-paper.png` });
      // A move played now reads in words in both move lists.
      if (!options.hasTouch) {
        await dragMove(A, '2(6)3', await legalOf(A));
        await waitMoves(A, 3);
        await A.waitForSelector('#sp-moves li:nth-child(3):has-text("Ann (P1) joined 2 to 3 with new spot 6 (2(6)3)")');
        await A.waitForSelector('#moves li:has-text("You joined 2 to 3 with new spot 6 (2(6)3)")');
        await shot(A, `${name}-after`);
      }
    });
  }
});
