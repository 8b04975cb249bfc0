// Twin Grids in the browser. Two players (two contexts) create and join a
// game from the lobby (3 turns each) and play it through the page to its
// end: the opening word placed by column with points given, the pie rule
// (the second seat swaps), a fake word challenged (it scores 0), a real
// word challenged (the challenger's turn is skipped, shown in the log), a
// refusal (rule 4) shown in one line and cleared by the next action, the
// preview of a word on the grid with its shared letters, vertical runs and
// score, the last word accepted, the result and a rematch. Then a game
// against the computer to its end, with a move list longer than nine.
//
// The opening word is drawn by the server, so the test reads the views
// from the player's own frames and picks words with a small finder over
// data/lexicon/en.txt (the default list), scoring them as grid.rs does, so
// no word contains a word already played (rule 4).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ParlorServer, launch, player, withArtifacts, repo, rematch, shots, waitState as waitFor, createWithFriend, openRules, PHONE } from './harness.mjs';

/** @type {ParlorServer} */ let srv;
/** @type {import('playwright-core').Browser} */ let browser;

const LEXICON = new Set(readFileSync(join(repo, 'data/lexicon/en.txt'), 'utf8').split('\n').map((w) => w.trim()).filter((w) => /^[a-z]+$/.test(w)));
const CANDIDATES = [...LEXICON].filter((w) => w.length >= 3 && w.length <= 6);

before(async () => {
  srv = new ParlorServer();
  await srv.start();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await srv?.stop();
});

/** @typedef {import('./harness.mjs').Player} Player */

const shot = shots('twingrid');

/** @param {Player} p @param {(m: any) => boolean} pred @param {string} what @param {number} [timeout] */
const waitState = (p, pred, what, timeout) => waitFor(p, pred, what, (v) => ({ phase: v.phase, to_play: v.to_play, log: v.log.length }), timeout);

/** Shared letters (multiset intersection). @param {string} a @param {string} b */
function sharedCount(a, b) {
  /** @type {Record<string, number>} */
  const left = {};
  for (const c of b) left[c] = (left[c] || 0) + 1;
  let n = 0;
  for (const c of a) if (left[c]) { left[c]--; n++; }
  return n;
}

/**
 * A word's score as grid.rs reckons it, over en.txt, in either reading of
 * the vertical words (`every_run`, the default, or `whole_column`).
 * @param {string[]} rows @param {string} word @param {number} col @param {string} against @param {boolean} first @param {number} bonus
 * @param {string} [vertical]
 */
function score(rows, word, col, against, first, bonus, vertical = 'every_run') {
  const sh = sharedCount(word, against);
  if (first) return sh;
  let longest = 0;
  for (let i = 0; i < word.length; i++) {
    let run = word[i];
    for (let r = rows.length - 1; r >= 0; r--) {
      const ch = rows[r][col + i];
      if (ch === '.') break;
      run = ch + run;
      const whole = r === 0 || rows[r - 1][col + i] === '.';
      if (LEXICON.has(run) && (vertical === 'every_run' || whole)) longest = Math.max(longest, run.length);
    }
  }
  const ana = word !== against && [...word].sort().join('') === [...against].sort().join('') ? bonus : 0;
  return sh * longest + ana;
}

/**
 * The best-scoring placement of a real word that contains no word played.
 * @param {any} v the view @param {number} role @param {{exclude?: string[]}} [o]
 * @returns {{word: string, column: number, score: number}}
 */
function findWord(v, role, o = {}) {
  const played = v.log.flatMap((/** @type {any} */ e) => (e.type === 'word' || e.type === 'opening' ? [e.word] : [])).concat(o.exclude || []);
  const rows = v.grids[role];
  const against = v.last[1 - role] || v.opening;
  const first = role === 1 && v.turns_taken[1] === 0;
  let best = { word: '', column: 0, score: -1 };
  for (const w of CANDIDATES) {
    if (w.length > v.config.width || played.some((p) => w.includes(p))) continue;
    if (sharedCount(w, against) * 6 <= best.score) continue;
    for (let c = 0; c + w.length <= v.config.width; c++) {
      const s = score(rows, w, c, against, first, v.config.anagram_bonus);
      if (s > best.score) best = { word: w, column: c, score: s };
    }
  }
  assert.ok(best.word, 'a word to play');
  return best;
}

/**
 * Types a word and chooses its column in the page (clicking the column's
 * header, then ◀ ▶ or Alt+→ for the last step), checks the preview (the
 * word in the next row, its shared letters with `against`), and plays it
 * (✓ Play, or Enter).
 * @param {Player} p @param {string} word @param {number} column @param {string} against @param {boolean} [keys]
 */
async function playWord(p, word, column, against, keys = false) {
  const page = p.page;
  await page.fill('#tg-word', word);
  const c0 = Math.max(0, column - 1);
  await page.click(`.tg-grid.mine button.tg-col[data-col="${c0}"]`);
  if (c0 !== column && keys) {
    // Alt+→ in the word box moves the word one column right.
    await page.focus('#tg-word');
    await page.keyboard.press('Alt+ArrowRight');
  } else if (c0 !== column) await page.click('#tg-right');
  await page.waitForSelector(`#tg-column:has-text("${column + 1}")`);
  // The preview: the word's letters in the next row of the player's grid.
  const cells = await page.locator('.tg-grid.mine td.tg-cell.preview').evaluateAll((els) => els.map((e) => e.textContent).join(''));
  assert.equal(cells, word.toUpperCase(), 'the preview shows the word on the grid');
  await page.waitForSelector(`#tg-shared:has-text("Shared letters with ${against.toUpperCase()}: ${sharedCount(word, against)}")`);
  await page.waitForSelector('#tg-score');
  if (keys) {
    await page.focus('#tg-word');
    await page.keyboard.press('Enter');
  } else await page.click('#tg-submit');
}

test('Twin Grids: two players, the pie, challenges and a skipped turn, to the end', { timeout: 300000 }, async () => {
  const ann = await player(browser, 'Ann');
  const bea = await player(browser, 'Bea');
  const A = ann.page, B = bea.page;
  /** @type {any[]} */
  const watchers = [];
  await withArtifacts([ann, bea], async () => {
    await openRules(A, srv.url, 'twingrid');
    await A.fill('#tg-turns', '3');
    assert.equal(await A.isChecked('#tg-challenges'), true);
    const invite = await createWithFriend(A);
    await B.goto(invite);
    /** @type {Player[]} */
    const bySeat = [ann, bea];
    const cat = await player(browser, 'Cat');
    watchers.push(cat);
    await cat.page.goto(srv.url + new URL(invite).pathname);

    // The opening: Ann (seat 0) is player 1.
    const o = (await waitState(ann, (m) => m.view.phase === 'open', 'the opening')).view;
    assert.equal(o.config.turns, 3);
    await A.waitForSelector('#tg-status:has-text("Your opening")');
    await B.waitForSelector('#tg-status:has-text("places the opening word")');
    assert.equal(await B.locator('#tg-open').isHidden(), true);
    await A.waitForSelector(`#tg-open-word:has-text("${o.opening.toUpperCase()}")`);
    const mid = Math.floor((o.config.width - o.opening.length) / 2);
    const openCol = mid > 0 ? mid - 1 : mid;
    if (openCol !== mid) await A.click('#tg-open-left');
    assert.equal(await A.locator('.tg-grid[data-role="0"] td.tg-cell.preview').evaluateAll((els) => els.map((e) => e.textContent).join('')), o.opening.toUpperCase());
    await A.fill('#tg-points', '3');
    await A.selectOption('#tg-to', '1');
    await A.click('#tg-open-submit');
    const pv = (await waitState(bea, (m) => m.view.phase === 'pie', 'the pie')).view;
    assert.deepEqual(pv.log[0], { type: 'opening', word: o.opening, column: openCol, points: 3, to: 1 });
    assert.deepEqual(pv.scores, [0, 3]);
    assert.equal(pv.grids[0][0].slice(openCol, openCol + o.opening.length), o.opening);

    // The pie: Bea swaps and becomes player 1; Ann is player 2 and plays next.
    await B.waitForSelector('#tg-pie:has-text("Swap")');
    await A.waitForSelector('#tg-status:has-text("chooses a side")');
    await shot(B, 'pie');
    await B.click('#tg-swap');
    let v = (await waitState(ann, (m) => m.view.phase === 'turn', 'the first word')).view;
    assert.deepEqual(v.seat_of, [1, 0]);
    assert.equal(v.role, 1);
    assert.equal(v.to_play, 1);
    await A.waitForSelector('#tg-status:has-text("Your turn")');
    await A.waitForSelector('.tg-grid[data-role="0"] h3:has-text("Bea")');
    await A.waitForSelector('.tg-grid[data-role="1"] h3:has-text("Ann (you)")');
    await A.waitForSelector('#tg-log li[data-kind="pie"]:has-text("Bea swapped")');
    // The opening word is what the first word is scored against: highlighted.
    assert.equal(await A.locator('.tg-grid[data-role="0"] td.tg-cell.against').count(), o.opening.length);

    // A refusal (rule 4: the opening word inside the word), one line, cleared next.
    const inside = `${o.opening}s`.length <= o.config.width ? `${o.opening}s` : o.opening;
    await A.fill('#tg-word', inside);
    await A.waitForSelector('#tg-preview .warn:has-text("played")');
    // The server's preview refuses it and gives it no score.
    assert.doesNotMatch(await A.locator('#tg-preview').innerText(), /score/i, 'no score for a word rule 4 refuses');
    await A.click('.tg-grid.mine button.tg-col[data-col="0"]');
    await A.click('#tg-submit');
    await A.waitForSelector('#tg-message:has-text("Not done")');
    assert.match(await A.locator('#tg-message').innerText(), /played/);
    assert.equal(await A.locator('#alert.shown').count(), 0, 'shown by the page, not the shell');

    // Ann (player 2) bluffs with a fake word: scored by shared letters alone.
    const fake = 'qzxv';
    await A.fill('#tg-word', fake);
    await A.waitForSelector('#tg-preview:has-text("shared letters alone")');
    await A.click('.tg-grid.mine button.tg-col[data-col="1"]');
    await A.click('#tg-submit');
    v = (await waitState(bea, (m) => m.view.to_play === 0 && m.view.log.length === 3, 'the fake word')).view;
    assert.equal((await A.locator('#tg-message').innerText()).trim(), '', 'the refusal went with the next action');
    const fakeEntry = v.log[2];
    assert.equal(fakeEntry.word, fake);
    assert.equal(fakeEntry.first, true);
    assert.equal(fakeEntry.score.score, sharedCount(fake, o.opening));

    // Bea challenges it: not a word, it scores 0.
    await B.waitForSelector('#tg-status:has-text("Your turn")');
    await B.waitForSelector('#tg-challenge:visible');
    await B.waitForSelector(`#tg-challenge-note:has-text("${fake.toUpperCase()}")`);
    await B.click('#tg-challenge');
    await B.click('dialog[open] button.danger');
    v = (await waitState(bea, (m) => m.view.log[2].challenged === true, 'the upheld challenge')).view;
    assert.equal(v.scores[1], 3, 'the fake word scores nothing');
    assert.equal(v.can_challenge, false);
    await B.waitForSelector('#tg-log li[data-kind="word-fake"]:has-text("not in the dictionary")');
    await A.waitForSelector('#tg-log li[data-kind="word-fake"]');
    assert.equal(await B.locator('#tg-challenge').isHidden(), true, 'one challenge a word');

    // Bea (player 1) writes a real word; the preview shows its score.
    let w = findWord(v, 0, { exclude: [fake] });
    await playWord(bea, w.word, w.column, v.last[1]);
    v = (await waitState(ann, (m) => m.view.to_play === 1 && m.view.log.length === 4, 'Bea\'s word')).view;
    assert.equal(v.log[3].word, w.word);
    assert.equal(v.log[3].score.score, w.score, `the server scores ${w.word} as grid.rs does`);
    await A.waitForSelector(`#tg-log li[data-n="4"]:has-text("${w.word.toUpperCase()}")`);
    // The server's move list says it too, with its score; and the upheld
    // challenge before it.
    await A.waitForSelector(`#moves li:has-text("wrote ${w.word.toUpperCase()} at column ${w.column + 1}: ${w.score} point")`);
    await A.waitForSelector(`#moves li:has-text("challenged ${fake.toUpperCase()}: not a word, it scores 0")`);
    // Bea's word is now what Ann's word is scored against.
    assert.equal(await A.locator('.tg-grid[data-role="0"] td.tg-cell.against').count(), w.word.length);

    // Ann challenges the real word: it stands, and Ann's turn is skipped.
    await A.waitForSelector('#tg-challenge:visible');
    await A.click('#tg-challenge');
    await A.click('dialog[open] button.danger');
    v = (await waitState(bea, (m) => m.view.log.some((/** @type {any} */ e) => e.type === 'skipped'), 'the skipped turn')).view;
    assert.equal(v.log[3].challenged, false);
    assert.deepEqual(v.log[4], { type: 'skipped', player: 1 });
    assert.equal(v.to_play, 0, 'Bea plays again');
    assert.deepEqual(v.turns_taken, [2, 2]);
    for (const p of [A, B]) {
      await p.waitForSelector('#tg-log li[data-kind="skipped"]:has-text("Ann")');
      await p.waitForSelector('#tg-log li[data-kind="word-stood"]');
    }
    await B.waitForSelector('#tg-status:has-text("Your turn")');

    // Bea's last word, then Ann's last word; Bea accepts it.
    w = findWord(v, 0, { exclude: [fake] });
    await playWord(bea, w.word, w.column, v.last[1]);
    v = (await waitState(ann, (m) => m.view.to_play === 1 && m.view.log.length === 6, 'Bea\'s last word')).view;
    assert.equal(v.log[5].score.score, w.score);
    await A.waitForSelector('#tg-status:has-text("Your turn")');
    w = findWord(v, 1, { exclude: [fake] });
    await A.fill('#tg-word', w.word);
    // The preview, the server's reckoning, gives the score that counts.
    await A.click(`.tg-grid.mine button.tg-col[data-col="${w.column}"]`);
    await A.waitForSelector(`#tg-score:has-text("= ${w.score}")`);
    await shot(A, 'preview');
    await A.click('#tg-submit');
    v = (await waitState(bea, (m) => m.view.phase === 'last_challenge', 'the last challenge')).view;
    assert.equal(v.log[6].score.score, w.score);
    await A.waitForSelector('#tg-status:has-text("may challenge the last word")');
    await B.waitForSelector(`#tg-last:has-text("${w.word.toUpperCase()}")`);
    await B.click('#tg-accept');

    const end = await waitState(ann, (m) => m.view.phase === 'over', 'the end');
    const [s1, s2] = end.view.scores;
    for (const p of bySeat) {
      await p.page.waitForSelector('#tg-status:has-text("Game over")');
      await p.page.waitForSelector(`#tg-over:has-text("${s1 === s2 ? 'tie' : 'wins'}")`);
      await p.page.waitForSelector('#ranking li');
      await p.page.waitForSelector('#rematch');
      assert.equal(await p.page.locator('#tg-log > li').count(), end.view.log.length);
      assert.equal(await p.page.locator('#tg-play').isHidden(), true);
    }
    if (s1 !== s2) await A.waitForSelector(`#tg-over:has-text("${s1 > s2 ? 'Bea' : 'Ann'}")`);
    await shot(A, 'over');
    // A spectator sees both grids and the moves, and no controls.
    const C = watchers[0].page;
    await C.waitForSelector('#you:has-text("You are watching")');
    await C.waitForSelector('#tg-status:has-text("Game over")');
    assert.equal(await C.locator('.tg-grid table').count(), 2);
    assert.equal(await C.locator('#tg-log > li').count(), end.view.log.length);
    assert.equal(await C.locator('#tg-play').isHidden(), true);
    assert.deepEqual(watchers[0].errors, []);
    await watchers[0].context.close();
    console.log(`# two players: opening ${o.opening}, log ${end.view.log.map((/** @type {any} */ e) => e.word || e.type).join(' ')}; scores ${end.view.scores}`);

    // Rematch, as on the other pages.
    await rematch(A, B, '#tg-status');
  });
});

test('Twin Grids: a game against the computer, to its end', { timeout: 240000 }, async () => {
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    await openRules(A, srv.url, 'twingrid');
    await A.fill('#tg-turns', '5');
    const botLevels = await A.locator('#seat-1 option').evaluateAll((els) => els.map((e) => /** @type {HTMLOptionElement} */ (e).value).filter((x) => x.startsWith('bot:')));
    await A.selectOption('#seat-0', 'me');
    await A.selectOption('#seat-1', botLevels[Math.min(1, botLevels.length - 1)]);
    await A.click('#create-form button[type=submit]');
    await A.click('#go-play');
    await waitState(ann, (m) => m.view.phase === 'open', 'the opening');
    await A.waitForSelector('#tg-open-submit');
    await A.click('#tg-open-submit');
    let guard = 0;
    for (;;) {
      assert.ok(guard++ < 30, 'the game ends');
      const m = await waitState(ann, (x) => x.view.phase === 'over' || ((x.view.phase === 'turn' || x.view.phase === 'last_challenge') && x.view.to_play === x.view.role), 'my move', 60000);
      const v = m.view;
      if (v.phase === 'over') break;
      const logBefore = v.log.length;
      if (v.phase === 'last_challenge') {
        await A.click('#tg-accept');
      } else {
        await A.waitForSelector('#tg-status:has-text("Your turn")');
        const w = findWord(v, v.role);
        await playWord(ann, w.word, w.column, v.last[1 - v.role] || v.opening, true);
      }
      await waitState(ann, (x) => x.view.log.length > logBefore || x.view.phase === 'over', 'my move done');
    }
    const end = await waitState(ann, (x) => x.view.phase === 'over', 'the end');
    await A.waitForSelector('#tg-over:has-text("over")');
    await A.waitForSelector('#ranking li');
    // Who won and why, in the game's words, not the last move's kind.
    const why = await A.locator('#result-why').innerText();
    assert.doesNotMatch(why, /How it ended|moved/, why);
    assert.match(why, /(wins, \d+ points to \d+: the higher score|A tie, \d+ points each,) after 5 turns each/, why);
    // The server's move list names the players, never "player 2 wrote".
    const moves = await A.locator('#moves li').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).innerText));
    assert.ok(moves.some((m) => /Ann wrote [A-Z]+/.test(m)) && moves.some((m) => /bot wrote [A-Z]+/.test(m)), moves.join('\n'));
    assert.ok(moves.every((m) => !/player \d wrote|moved$/i.test(m)), moves.join('\n'));
    const n = end.view.log.length;
    assert.ok(n >= 10, `a long game: ${n} moves`);
    assert.equal(await A.locator('#tg-log > li').count(), n);
    assert.equal(await A.locator('#tg-log > li >> nth=9').getAttribute('data-n'), '10');
    // Every word's breakdown is in the list.
    assert.equal(await A.locator('#tg-log > li[data-kind^="word"] ul.tg-steps').count(), end.view.log.filter((/** @type {any} */ e) => e.type === 'word').length);
    console.log(`# against the bot: ${n} moves, ${end.view.log.map((/** @type {any} */ e) => e.word || e.type).join(' ')}; scores ${end.view.scores}`);
  });
});

/**
 * Every place the page names a seat, as text: the seat list, "You are …",
 * the grids' heads and the score chips.
 * @param {import('playwright-core').Page} p
 */
async function labelsOn(p) {
  return {
    seats: await p.locator('#seats li').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).innerText)),
    you: await p.locator('#you').innerText(),
    heads: await p.locator('.tg-grid h3').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).innerText)),
    chips: await p.locator('#tg-scores .tg-score').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).innerText)),
  };
}

test('Twin Grids: after the swap every label names each person\'s side, on a desktop and a phone; the end in the game\'s words', { timeout: 240000 }, async () => {
  const ann = await player(browser, 'Ann');
  const bea = await player(browser, 'Bea', PHONE);
  const A = ann.page, B = bea.page;
  await withArtifacts([ann, bea], async () => {
    await openRules(A, srv.url, 'twingrid');
    await A.fill('#tg-turns', '2');
    const invite = await createWithFriend(A);
    await B.goto(invite);
    // Before the pie the seats' numbers are the sides.
    await waitState(ann, (m) => m.view.phase === 'open', 'the opening');
    await A.waitForSelector('#you:has-text("You are player 1")');
    await B.waitForSelector('#you:has-text("You are player 2")');
    await A.click('#tg-open-submit');
    await waitState(bea, (m) => m.view.phase === 'pie', 'the pie');
    // Bea (seat 2) swaps: she is player 1 now, Ann player 2.
    await B.click('#tg-swap');
    let v = (await waitState(ann, (m) => m.view.phase === 'turn', 'after the swap')).view;
    assert.deepEqual(v.seat_of, [1, 0]);
    await A.waitForSelector('#you:has-text("You are player 2")');
    await B.waitForSelector('#you:has-text("You are player 1")');
    for (const p of [A, B]) {
      await p.waitForSelector('#seats li[data-seat="0"]:has-text("Ann (player 2)")');
      await p.waitForSelector('#seats li[data-seat="1"]:has-text("Bea (player 1)")');
      const l = await labelsOn(p);
      const all = [...l.seats, l.you, ...l.heads, ...l.chips].join(' | ');
      assert.doesNotMatch(all, /\(P\d\)/, `no seat number as a side: ${all}`);
      // Each person is named with one side everywhere: Ann 2, Bea 1.
      for (const text of [...l.seats, ...l.heads, ...l.chips]) {
        if (/Ann/.test(text)) assert.match(text, /player 2/i, text);
        if (/Bea/.test(text)) assert.match(text, /player 1/i, text);
      }
    }
    assert.match((await labelsOn(A)).heads[1], /^Player 2: Ann \(you\)/);
    assert.match((await labelsOn(B)).heads[0], /^Player 1: Bea \(you\)/);
    await shot(A, 'swap-desktop');
    await shot(B, 'swap-phone');
    // The phone's page fits its width.
    assert.ok(await B.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scroll on the phone');

    // Ann (player 2), Bea (player 1), Ann; Bea lets the last word stand.
    for (const [who, role] of [[ann, 1], [bea, 0], [ann, 1]]) {
      const n = v.log.length;
      await who.page.waitForSelector('#tg-status:has-text("Your turn")');
      const w = findWord(v, /** @type {number} */ (role));
      await playWord(/** @type {Player} */ (who), w.word, w.column, v.last[1 - /** @type {number} */ (role)] || v.opening);
      v = (await waitState(ann, (m) => m.view.log.length > n, 'the word')).view;
    }
    await B.waitForSelector('#tg-accept');
    await B.click('#tg-accept');
    const end = (await waitState(ann, (m) => m.view.phase === 'over', 'the end')).view;
    assert.deepEqual(end.log[end.log.length - 1], { type: 'accepted', player: 0 });
    const [s1, s2] = end.scores;
    for (const p of [A, B]) {
      await p.waitForSelector('#ranking li');
      const ranking = await p.locator('#ranking li').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).innerText));
      for (const line of ranking) {
        if (/Ann/.test(line)) assert.match(line, /Ann \(player 2\)/, line);
        if (/Bea/.test(line)) assert.match(line, /Bea \(player 1\)/, line);
      }
      // Who won and why, in the game's words; not "How it ended: … moved".
      const why = await p.locator('#result-why').innerText();
      assert.doesNotMatch(why, /How it ended|moved/, why);
      assert.match(why, s1 === s2 ? /A tie/ : new RegExp(`${s1 > s2 ? 'Bea, player 1' : 'Ann, player 2'}, wins, ${Math.max(s1, s2)} points to ${Math.min(s1, s2)}: the higher score after 2 turns each; Bea let the last word, [A-Z]+, stand`), why);
      // The move list names the players, not their roles.
      const moves = await p.locator('#moves li').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).innerText));
      assert.ok(moves.some((m) => /Ann wrote [A-Z]+/.test(m)) && moves.some((m) => /Bea wrote [A-Z]+/.test(m)), moves.join('\n'));
      assert.ok(moves.every((m) => !/player \d wrote/i.test(m)), moves.join('\n'));
      assert.match(moves[moves.length - 1], /Bea let the last word stand/);
      await p.waitForSelector('#tg-log li[data-kind="accepted"]:has-text("Bea")');
    }
    await shot(A, 'swap-over-desktop');
    await shot(B, 'swap-over-phone');
    // The replay names each seat by its side at the step shown.
    const id = new URL(A.url()).pathname.split('/')[2];
    await A.goto(`${srv.url}/replay/${id}`);
    await A.waitForSelector('#replay-players:has-text("Ann (player 1) vs Bea (player 2)")');
    await A.click('#replay-last');
    await A.waitForSelector('#replay-players:has-text("Ann (player 2) vs Bea (player 1)")');
    await A.waitForSelector('#replay-board .tg-grid[data-role="1"] h3:has-text("Player 2: Ann")');
    // The lobby's "My games" does not call Ann player 1 (her seat's number).
    for (const p of [A, B]) {
      await p.goto(srv.url + '/');
      await p.waitForSelector('#my-games li a');
      const mine = await p.locator('#my-games li').first().innerText();
      assert.doesNotMatch(mine, /player \d|\(P\d\)/i, mine);
      assert.match(mine, p === A ? /Twin Grids as Ann/ : /Twin Grids as Bea/, mine);
    }
  });
});

test('Twin Grids: the crossword reading of vertical words, and the preview is the server\'s', { timeout: 240000 }, async () => {
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  /** @type {any[]} */
  const asked = [];
  // The page asks its helper over the game's WebSocket (or over HTTP
  // while that is closed).
  A.on('request', (r) => {
    if (r.url().includes('/assist')) asked.push(JSON.parse(r.postData() || '{}').request);
  });
  A.on('websocket', (ws) => ws.on('framesent', (f) => {
    try {
      const m = JSON.parse(typeof f.payload === 'string' ? f.payload : f.payload.toString());
      if (m.type === 'assist') asked.push(m.request);
    } catch { /* not JSON */ }
  }));
  await withArtifacts([ann], async () => {
    await openRules(A, srv.url, 'twingrid');
    await A.fill('#tg-turns', '3');
    await A.selectOption('#tg-vertical', { label: 'only the whole column (crossword)' });
    const botLevels = await A.locator('#seat-1 option').evaluateAll((els) => els.map((e) => /** @type {HTMLOptionElement} */ (e).value).filter((x) => x.startsWith('bot:')));
    await A.selectOption('#seat-0', 'me');
    await A.selectOption('#seat-1', botLevels[0]);
    await A.click('#create-form button[type=submit]');
    await A.click('#go-play');
    let v = (await waitState(ann, (m) => m.view.phase === 'open', 'the opening')).view;
    assert.equal(v.config.vertical, 'whole_column');
    // No points given: the computer stays player 2.
    await A.click('#tg-open-submit');
    v = (await waitState(ann, (m) => m.view.phase === 'turn' && m.view.to_play === 0, 'my second word')).view;
    assert.deepEqual(v.seat_of, [0, 1]);
    let w = findWord(v, 0);
    await playWord(ann, w.word, w.column, v.last[1] || v.opening);
    v = (await waitState(ann, (m) => m.view.phase === 'turn' && m.view.to_play === 0 && m.view.turns_taken[0] === 2, 'my third word')).view;
    // A placement the two readings score differently: a run inside the
    // column is a word, the column's whole run is not.
    const against = v.last[1] || v.opening;
    const played = v.log.flatMap((/** @type {any} */ e) => (e.type === 'word' || e.type === 'opening' ? [e.word] : []));
    /** @type {{word: string, column: number, every: number, whole: number} | null} */
    let diff = null;
    for (const cand of CANDIDATES) {
      if (cand.length > v.config.width || played.some((p) => cand.includes(p))) continue;
      for (let c = 0; c + cand.length <= v.config.width; c++) {
        const every = score(v.grids[0], cand, c, against, false, v.config.anagram_bonus);
        const whole = score(v.grids[0], cand, c, against, false, v.config.anagram_bonus, 'whole_column');
        if (every !== whole && (!diff || every - whole > diff.every - diff.whole)) diff = { word: cand, column: c, every, whole };
      }
    }
    assert.ok(diff, 'a placement the readings tell apart');
    const before = asked.length;
    await A.fill('#tg-word', diff.word);
    await A.click(`.tg-grid.mine button.tg-col[data-col="${diff.column}"]`);
    // The preview is the server's answer, in the table's reading.
    await A.waitForSelector(`#tg-score[data-score="${diff.whole}"]`);
    assert.ok(asked.slice(before).some((r) => r.word === diff?.word && r.column === diff?.column), 'the page asked the server');
    await A.click('#tg-submit');
    v = (await waitState(ann, (m) => m.view.log.some((/** @type {any} */ e) => e.type === 'word' && e.word === diff?.word), 'the word')).view;
    const entry = v.log.find((/** @type {any} */ e) => e.type === 'word' && e.word === diff?.word);
    assert.equal(entry.score.score, diff.whole, `whole column: ${diff.whole}, not ${diff.every}`);
    console.log(`# crossword reading: ${diff.word} at column ${diff.column + 1} scores ${diff.whole} (every run: ${diff.every})`);
  });
});
