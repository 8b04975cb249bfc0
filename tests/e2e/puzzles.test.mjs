// @ts-check
/**
 * Puzzles and the daily challenge as players meet them: the puzzles page
 * lists today's challenges and every set; a puzzle opens on its game's own
 * page with a banner; the server judges the moves made there. A guest on a
 * desktop answers the day's Sprouts puzzle wrongly and is shown the
 * solver's refutation; another on a phone answers it rightly and wins the
 * game out against perfect defence; the day's Gobble board is solved by a
 * longest word. The day's Sprouts puzzle is the operator's choice
 * (`--daily-choice`), so the test knows its answer.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ParlorServer, freshPostgres, launch, player, withArtifacts, shots, PHONE, repo, parlorBin, signUp } from './harness.mjs';

/** The hand's button for a card of a proof: a Multicard is named there
 * (`*Oh`, the Multicard played as O of hearts) but not in the hand. */
const handCard = (/** @type {string} */ c) =>
  c.startsWith('*')
    ? '#wc-hand button.wc-card.multicard:not(.used)'
    : `#wc-hand button.wc-card[data-card="${c}"]:not(.used)`;


/** A puzzle's id: FNV-1a over game/kind/key, as the server makes it. @param {any} p */
function puzzleId(p) {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(`${p.game}/${p.kind}/${p.key}`)) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

/** @param {string} name */
function shipped(name) {
  return readFileSync(join(repo, 'data/puzzles', `${name}.jsonl`), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

// A Sprouts puzzle some moves into the game, with a refuted wrong move.
const sprouts = shipped('sprouts-normal-5').find((p) => p.record.actions.length >= 2 && p.proof.moves.some((/** @type {any} */ m) => !m.wins && m.refutation));
const wrong = sprouts.proof.moves.find((/** @type {any} */ m) => !m.wins && m.refutation);
const day = (/** @type {number} */ ms) => new Date(ms).toISOString().slice(0, 10);
// Today and tomorrow (UTC), so that a test running over midnight still knows the day's puzzle.
const choices = [day(Date.now()), day(Date.now() + 86_400_000)].flatMap((d) => ['--daily-choice', `${d}:sprouts/normal-5:${puzzleId(sprouts)}`]);

/** @type {ParlorServer} */ let srv;
/** @type {import('playwright-core').Browser} */ let browser;

before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/**
 * Whether playing `move` after `record` keeps the mover's win (the CLI's
 * solver, outside the server). @param {string} record @param {string} move
 */
function keepsTheWin(record, move) {
  const out = JSON.parse(execFileSync(parlorBin(), ['sprouts', 'analyse', '--json', `${record} ${move}`], { encoding: 'utf8' }));
  return out.moves[out.moves.length - 1].wins_after === true;
}

/** Opens the day's Sprouts puzzle from the puzzles page. @param {import('playwright-core').Page} P */
async function openTodaysSprouts(P) {
  await P.goto(`${srv.url}/`);
  await P.click('#puzzles-link');
  await P.waitForSelector('#daily li[data-set="sprouts/normal-5"]');
  await P.click('#daily-sprouts-normal-5');
  await P.waitForURL(/\/play\/[^?]+\?puzzle=/);
  await P.waitForSelector('#puzzle:has-text("Puzzle · Sprouts")');
}

/** Plays a listed legal move. @param {import('playwright-core').Page} P @param {string} move */
async function playListed(P, move) {
  const box = P.locator('#sp-legal-box');
  if (!(await box.evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open))) await P.click('#sp-legal-box summary');
  await P.click(`#sp-legal button.sp-legal-move[data-move="${move}"]`);
}

/** Every test, on the server of the enclosing `describe`. */
function puzzleTests() {
  test('puzzles: the day’s challenges; a wrong answer refuted, a right one won out; a Gobble board solved', { timeout: 240000 }, async () => {
    const ann = await player(browser, 'Ann');
    const bea = await player(browser, 'Bea', PHONE);
    const shot = shots('puzzles');
    await withArtifacts([ann, bea], async () => {
      const A = ann.page;
      const B = bea.page;
      // The puzzles page: one challenge per daily set, and every set.
      await A.goto(`${srv.url}/puzzles`);
      await A.waitForSelector('#daily li');
      const daily = await A.locator('#daily li').evaluateAll((els) => els.map((e) => e.getAttribute('data-set')));
      assert.deepEqual(daily, ['gobble/longest-4x4', 'gobble/longest-5x5', 'sprouts/normal-5', 'twingrid/best-word', 'wordchain/best-score', 'wordsprout/keep-the-win'].filter((s) => daily.includes(s)));
      assert.equal(daily.length, 6, daily.join(', '));
      assert.ok((await A.locator('#sets li').count()) >= 10);
      await shot(A, 'desktop-list');

      // Ann answers the day's Sprouts puzzle wrongly: the solver's refutation.
      await openTodaysSprouts(A);
      await A.waitForSelector('#sp-status:has-text("Your turn")');
      await shot(A, 'desktop-asked');
      await playListed(A, wrong.mv);
      await A.waitForSelector('#puzzle-verdict[data-solved="false"]');
      const refuted = (await A.locator('#puzzle-verdict').textContent()) || '';
      assert.ok(refuted.includes('Not the answer') && refuted.includes(wrong.refutation) && refuted.includes(`The answer: ${sprouts.answers[0]}.`), refuted);
      await shot(A, 'desktop-refuted');
      // The day's results, and one try: today's puzzle again is the same game.
      await A.waitForSelector('#puzzle-day:has-text("1 played, 0 solved")');
      const firstTry = new URL(A.url()).pathname;
      await openTodaysSprouts(A);
      await A.waitForSelector('#puzzle-verdict[data-solved="false"]');
      assert.equal(new URL(A.url()).pathname, firstTry, 'the day’s challenge is one try');

      // Bea, on a phone, the same puzzle: the right move, then the win.
      await openTodaysSprouts(B);
      await B.waitForSelector('#sp-status:has-text("Your turn")');
      assert.equal(new URL(B.url()).searchParams.get('puzzle'), puzzleId(sprouts));
      await playListed(B, sprouts.answers[0]);
      await B.waitForSelector('#puzzle-verdict:has-text("The right move")');
      await B.waitForSelector('#puzzle-day:has-text("2 played, 1 solved")');
      for (let turn = 0; turn < 20; turn++) {
        const state = await Promise.race([
          B.waitForSelector('#sp-status:has-text("Your turn")').then(() => 'turn'),
          B.waitForSelector('#result:not([hidden])').then(() => 'over'),
        ]);
        if (state === 'over') break;
        const record = (await B.inputValue('#sp-record')).trim();
        await B.click('#sp-legal-box summary').catch(() => {});
        const moves = await B.locator('#sp-legal button.sp-legal-move').evaluateAll((els) => els.map((e) => e.getAttribute('data-move') || ''));
        const good = moves.find((m) => keepsTheWin(record, m));
        assert.ok(good, `a winning move after ${record}: ${moves.join(' ')}`);
        await playListed(B, good);
        await B.waitForFunction((n) => document.querySelectorAll('#sp-moves li').length > n, record.split(' ').length - 1);
      }
      await B.waitForSelector('#puzzle-verdict[data-complete="true"]');
      assert.match((await B.locator('#puzzle-verdict').textContent()) || '', /Solved and won/);
      // The game is the puzzle's: no rematch of it, the next puzzle instead.
      assert.equal(await B.locator('#rematch').count(), 0);
      await B.waitForSelector('#next-puzzle');
      await shot(B, 'phone-won');

      // Ann: the day's Gobble board, solved by one of its longest words.
      await A.goto(`${srv.url}/puzzles`);
      await A.click('#daily-gobble-longest-4x4');
      await A.waitForURL(/\/play\//);
      await A.waitForSelector('#puzzle:has-text("Puzzle · Gobble")');
      const id = new URL(A.url()).searchParams.get('puzzle');
      const board = shipped('gobble-longest-4x4').find((p) => puzzleId(p) === id);
      assert.ok(board, `the day's board ${id} is a shipped one`);
      await A.waitForSelector('#gb-word:not([disabled])');
      await A.fill('#gb-word', board.answers[0].toLowerCase());
      await A.press('#gb-word', 'Enter');
      await A.waitForSelector('#puzzle-verdict[data-solved="true"]');
      const solved = (await A.locator('#puzzle-verdict').textContent()) || '';
      assert.ok(solved.startsWith('✓ Solved.') && solved.includes(board.answers[0]), solved);
      // The round ends: Ann's points beside the day's scores.
      await A.click('#gb-done');
      await A.click('dialog.confirm button.danger');
      await A.waitForSelector('#puzzle-score');
      const score = (await A.locator('#puzzle-score').textContent()) || '';
      assert.match(score, /^Your score: \d+ points\. Today’s scores: lowest \d+, median \d+, best \d+; you did better than 0 of 1\.$/, score);
      // The board's keyphrase is told once the round is over.
      assert.match((await A.locator('#gb-keyphrase').textContent()) || '', /^This board’s keyphrase: [a-z]+ [a-z]+ [a-z]+ [a-z]+ \(/);
      await shot(A, 'desktop-gobble');
    });
  });

  test('puzzles: two accounts, a friend’s challenge compared, puzzle ratings moved', { timeout: 240000 }, async () => {
    const cy = await player(browser, 'Cy');
    const di = await player(browser, 'Di', PHONE);
    const shot = shots('puzzles-challenge');
    await withArtifacts([cy, di], async () => {
      const C = cy.page;
      const D = di.page;
      await signUp(C, srv.url, 'cyrus');
      await signUp(D, srv.url, 'diane');
      // Cy solves a Sprouts puzzle (not today's): rated, then challenges Di.
      const p = shipped('sprouts-normal-4').find((x) => x.record.actions.length >= 1 && x.proof.moves.some((/** @type {any} */ m) => !m.wins && m.refutation));
      const pid = puzzleId(p);
      const miss = p.proof.moves.find((/** @type {any} */ m) => !m.wins && m.refutation);
      await C.goto(`${srv.url}/puzzles`);
      const made = await C.evaluate(async (id) => {
        const r = await fetch(`/api/puzzles/${id}/play`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Cy' }) });
        return r.json();
      }, pid);
      await C.goto(`${srv.url}/play/${made.game.id}?puzzle=${pid}#${made.you.token}`);
      await C.waitForSelector('#sp-status:has-text("Your turn")');
      await playListed(C, p.answers[0]);
      await C.waitForSelector('#puzzle-rating');
      const up = (await C.locator('#puzzle-rating').textContent()) || '';
      assert.match(up, /Puzzle rating 1500 → (\d+) \(\+\d+\)/, up);
      await C.click('#challenge-friend');
      const link = await C.inputValue('#challenge-link');
      assert.match(link, /\/puzzles\/c\/[0-9a-f]{16}$/);
      await shot(C, 'desktop-challenge');
      // Di opens the link on a phone, plays the puzzle through it, answers
      // wrongly: refuted, and her rating goes down.
      await D.goto(link);
      await D.waitForSelector('#challenge-h:has-text("cyrus challenges you: Sprouts")');
      await D.click('#play-challenge');
      await D.waitForURL(/\?puzzle=.*challenge=/);
      await D.waitForSelector('#sp-status:has-text("Your turn")');
      await playListed(D, miss.mv);
      await D.waitForSelector('#puzzle-verdict[data-solved="false"]');
      const down = (await D.locator('#puzzle-rating').textContent()) || '';
      assert.match(down, /Puzzle rating 1500 → (\d+) \(−\d+\)/, down);
      // The comparison: everyone who played it through the link.
      await D.click('#compare-link');
      await D.waitForSelector('#challenge-plays li');
      const rows = await D.locator('#challenge-plays li').allTextContents();
      assert.deepEqual(rows, ['diane: ✗ not the answer']);
      await shot(D, 'phone-compared');
      // Cy plays it through the link too (another try, unrated): both listed.
      await C.goto(link);
      await C.click('#play-challenge');
      await C.waitForSelector('#sp-status:has-text("Your turn")');
      await playListed(C, p.answers[0]);
      await C.waitForSelector('#puzzle-verdict[data-solved="true"]');
      assert.equal(await C.locator('#puzzle-rating').count(), 0, 'a second try of a puzzle is unrated');
      await C.goto(link);
      await C.waitForSelector('#challenge-plays li >> nth=1');
      const both = (await C.locator('#challenge-plays li').allTextContents()).sort();
      assert.equal(both.length, 2);
      assert.match(both[0], /^cyrus: ✓/);
      assert.equal(both[1], 'diane: ✗ not the answer');
      await shot(C, 'desktop-compared');
      // Cy's profile: the puzzle rating and the latest plays.
      await C.goto(`${srv.url}/u/cyrus`);
      await C.waitForSelector('#profile-puzzles');
      assert.match((await C.locator('#puzzle-rating-line').textContent()) || '', /Puzzle rating \d+ \(1 rated try\)/);
      assert.equal(await C.locator('#profile-puzzle-history li').count(), 2);
      await shot(C, 'desktop-profile');
      // Di solves the day's Sprouts challenge: the day's leaderboard names her.
      await openTodaysSprouts(D);
      await D.waitForSelector('#sp-status:has-text("Your turn")');
      await playListed(D, sprouts.answers[0]);
      await D.waitForSelector('#puzzle-verdict[data-solved="true"]');
      await D.goto(`${srv.url}/puzzles`);
      await D.waitForSelector('#daily-leaders li');
      assert.deepEqual(await D.locator('#daily-leaders li').allTextContents(), ['diane · 1 solved']);
      await shot(D, 'phone-leaders');

      // A Gobble board through a friend's challenge: both find its longest
      // word and finish; the comparison lists each word with who found it.
      const board = shipped('gobble-longest-4x4')[5];
      const gid = puzzleId(board);
      await C.goto(`${srv.url}/puzzles`);
      const gch = await C.evaluate(async (id) => {
        const r = await fetch(`/api/puzzles/${id}/challenge`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
        return r.json();
      }, gid);
      for (const P of [C, D]) {
        await P.goto(`${srv.url}${gch.url}`);
        await P.click('#play-challenge');
        await P.waitForURL(/\/play\//);
        await P.waitForSelector('#gb-word:not([disabled])');
        await P.fill('#gb-word', board.answers[0].toLowerCase());
        await P.press('#gb-word', 'Enter');
        await P.waitForSelector('#puzzle-verdict[data-solved="true"]');
        await P.click('#gb-done');
        await P.click('dialog.confirm button.danger');
        await P.waitForSelector('#result:not([hidden])');
      }
      await D.goto(`${srv.url}${gch.url}`);
      await D.waitForSelector('#gb-compare-found li');
      const word = board.answers[0].toLowerCase();
      const line = (await D.locator(`#gb-compare-found li[data-word="${word}"]`).textContent()) || '';
      assert.match(line, new RegExp(`^${board.answers[0]} \\(\\d+\\): (cyrus, diane|diane, cyrus)$`), line);
      assert.match((await D.locator('#gb-compare-h').textContent()) || '', /^Words found: 1 of the board’s \d+$/);
      await shot(D, 'phone-gobble-compared');
    });
  });

  test('puzzles: the day’s Twin Grids turn, Word Sprout position and WORDCHAIN hand answered in their own pages', { timeout: 120000 }, async () => {
    const eve = await player(browser, 'Eve', PHONE);
    await withArtifacts([eve], async () => {
      const E = eve.page;
      /** Opens a daily challenge; its puzzle as shipped. @param {string} set @param {string} file */
      const open = async (set, file) => {
        await E.goto(`${srv.url}/puzzles`);
        await E.click(`#daily-${set.replace('/', '-')}`);
        await E.waitForURL(/\/play\//);
        const id = new URL(E.url()).searchParams.get('puzzle');
        const p = shipped(file).find((x) => puzzleId(x) === id);
        assert.ok(p, `the day's ${set} puzzle ${id} is a shipped one`);
        return p;
      };
      // Twin Grids: the answer is a word and its column ("ADULATORY at column 1").
      const tg = await open('twingrid/best-word', 'twingrid-best-word');
      const m = /^([A-Z]+) at column (\d+)$/.exec(tg.answers[0]);
      assert.ok(m, tg.answers[0]);
      await E.waitForSelector('#tg-word');
      await E.fill('#tg-word', m[1].toLowerCase());
      await E.click(`.tg-grid.mine button.tg-col[data-col="${Number(m[2]) - 1}"]`);
      await E.waitForSelector(`#tg-column:has-text("${m[2]}")`);
      await E.click('#tg-submit');
      await E.waitForSelector('#puzzle-verdict[data-solved="true"]');
      assert.match((await E.locator('#puzzle-verdict').textContent()) || '', /^✓ Solved\./);
      // Word Sprout: the answer is the string after the move ("KM").
      const ws = await open('wordsprout/keep-the-win', 'wordsprout-keep-the-win');
      await E.waitForSelector('#ws-whole');
      await E.fill('#ws-whole', ws.answers[0].toLowerCase());
      await E.press('#ws-whole', 'Enter');
      await E.waitForSelector('#puzzle-verdict[data-solved="true"]');
      assert.match((await E.locator('#puzzle-verdict').textContent()) || '', /^✓ The right move/);
      // WORDCHAIN: the answer is the best play's cards in order, the link
      // card among them where the proof puts it ("WETLY (Wd Es Td Ld Yc)").
      const wc = await open('wordchain/best-score', 'wordchain-best-score');
      const best = wc.proof.best[0];
      await E.waitForSelector('#wc-hand button.wc-card');
      const fromHand = best.cards.filter((/** @type {string} */ _c, /** @type {number} */ i) => i !== best.link);
      for (const [k, c] of fromHand.entries()) {
        await E.click(handCard(c));
        await E.waitForSelector(`#wc-word-0 .wc-slot[data-pos="${k + 1}"]`);
      }
      // The link card stands first; it moves right to its place in the word.
      for (let i = 0; i < best.link; i++) await E.click(`#wc-word-0 .wc-slot[data-pos="${i}"] .wc-right`);
      await E.waitForSelector(`#wc-spelled-0:has-text("${best.word.toUpperCase()}")`);
      await shots('puzzle-phone')(E, 'wordchain-built');
      await E.click('#wc-play');
      await E.waitForSelector('#puzzle-verdict[data-solved="true"]', { timeout: 30000 });
      const said = (await E.locator('#puzzle-verdict').textContent()) || '';
      assert.match(said, /^✓/, said);
      assert.ok(said.includes(String(best.score)), `the verdict names the best score ${best.score}: ${said}`);
      await shots('puzzle-phone')(E, 'wordchain-solved');
      // WORDCHAIN by tactical value: a good word that leaves worse is
      // refuted with what it is worth and what the best is worth.
      await E.goto(`${srv.url}/puzzles`);
      await E.click('#set-wordchain-best-tactical');
      await E.waitForURL(/\/play\//);
      const tid = new URL(E.url()).searchParams.get('puzzle');
      const tp = shipped('wordchain-best-tactical').find((x) => puzzleId(x) === tid);
      assert.ok(tp, `puzzle ${tid} is a shipped tactical one`);
      const [top, ...rest] = tp.proof.best;
      const lesser = rest.find((/** @type {any} */ x) => x.word !== top.word);
      await E.waitForSelector('#wc-hand button.wc-card');
      for (const [k, c] of lesser.cards.filter((/** @type {string} */ _c, /** @type {number} */ i) => i !== lesser.link).entries()) {
        await E.click(handCard(c));
        await E.waitForSelector(`#wc-word-0 .wc-slot[data-pos="${k + 1}"]`);
      }
      for (let i = 0; i < lesser.link; i++) await E.click(`#wc-word-0 .wc-slot[data-pos="${i}"] .wc-right`);
      // Multicards are named as the proof names them.
      for (const [i, c] of lesser.cards.entries()) {
        if (c.startsWith('*')) await E.selectOption(`#wc-word-0 .wc-slot[data-pos="${i}"] select.wc-name-letter`, c[1]);
      }
      await E.waitForSelector(`#wc-spelled-0:has-text("${lesser.word.toUpperCase()}")`);
      await E.click('#wc-play');
      await E.waitForSelector('#puzzle-verdict[data-solved="false"]', { timeout: 30000 });
      const refuted = (await E.locator('#puzzle-verdict').textContent()) || '';
      assert.ok(refuted.includes(`is worth ${lesser.tactical} for what it leaves`) && refuted.includes(`${top.word.toUpperCase()} is worth ${top.tactical}`), refuted);
      await shots('puzzle-phone')(E, 'wordchain-tactical-refuted');
    });
  });
}

// The same players' path on each database the server stores in: the
// embedded SQLite, and PostgreSQL when scripts/with-postgres gives one
// (always under CI, see freshPostgres).
const stores = [{ name: 'SQLite', pg: false }];
if (process.env.PARLOR_PG_URL || process.env.CI) stores.push({ name: 'PostgreSQL', pg: true });
for (const store of stores) {
  describe(`on ${store.name}`, () => {
    before(async () => {
      srv = new ParlorServer(choices, store.pg ? { db: freshPostgres() || undefined } : {});
      await srv.start();
    });
    after(async () => {
      await srv?.stop();
    });
    puzzleTests();
  });
}
