// WORDCHAIN's table rules in the browser, between two players: a round of
// passes is only passes (the game goes on), and with the house rule
// "passes end the deal", set in the lobby, the same round ends it; the
// "Pass this turn?" question says which rule the table plays. A Multicard
// link card named by typing its letter, the play scored by the server as
// it is built (rule J read as the table chose: every word on the link
// card), and the move list showing drawn cards as cards, the status the
// agreed end.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ParlorServer, launch, player, withArtifacts, repo, shots, waitState as waitFor, createWithFriend, openRules } from './harness.mjs';

/** @type {ParlorServer} */ let srv;
/** @type {import('playwright-core').Browser} */ let browser;

const LEXICON = new Set(readFileSync(join(repo, 'data/lexicon/en.txt'), 'utf8').split('\n').map((w) => w.trim()).filter((w) => /^[a-z]+$/.test(w)));

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

const shot = shots('wordchain-table');

/** @param {Player} p @param {(m: any) => boolean} pred @param {string} what @param {number} [timeout] */
const waitState = (p, pred, what, timeout) => waitFor(p, pred, what, (v) => ({ phase: v.phase, turn: v.turn, turns: v.turns, over: v.over, log: v.log.length }), timeout);

/** The dialog's question, then Pass. @param {import('playwright-core').Page} page */
async function passWithDialog(page) {
  await page.click('#wc-pass');
  const dialog = page.locator('dialog[open]');
  await dialog.waitFor();
  const text = await dialog.locator('p').innerText();
  return { text, confirm: () => dialog.locator('button.danger').click() };
}

/**
 * Both players at a table made in the lobby (Ann in seat 1, Bea invited);
 * returns them by seat, with the first view.
 * @param {Player} ann @param {Player} bea @param {(page: import('playwright-core').Page) => Promise<void>} rules
 */
async function lobbyTable(ann, bea, rules) {
  await openRules(ann.page, srv.url, 'wordchain');
  await rules(ann.page);
  const invite = await createWithFriend(ann.page);
  await bea.page.goto(invite);
  const first = await waitState(ann, (m) => m.view.phase === 'turn', 'the deal');
  await waitState(bea, (m) => m.view.phase === 'turn', 'the deal');
  return { bySeat: [ann, bea], first: first.view };
}

test('WORDCHAIN: a round of passes is passes; with the house rule it ends the game', { timeout: 180000 }, async () => {
  const ann = await player(browser, 'Ann');
  const bea = await player(browser, 'Bea');
  await withArtifacts([ann, bea], async () => {
    // The lobby lists the house rule, off by default, and rule J's readings.
    const { bySeat, first } = await lobbyTable(ann, bea, async (page) => {
      assert.equal(await page.isChecked('#wc-passes_end'), false, 'passes end the deal: off by default');
      const readings = await page.locator('#wc-link_bonus option').evaluateAll((els) => els.map((e) => /** @type {HTMLOptionElement} */ (e).textContent));
      assert.deepEqual(readings, ['Begins on the link card and ends on its letter', 'Every word that begins on the link card', 'Off']);
    });
    assert.equal(first.config.passes_end, false);
    const a = bySeat[first.turn], b = bySeat[1 - first.turn];
    // The status says the agreed end, not the turn bound.
    await a.page.waitForSelector('#wc-ends:text-is("The game ends at 1000 points, or at the end of the deal")');
    assert.doesNotMatch(await a.page.locator('#wc-main, .wc-main').first().innerText(), /400/, 'the turn bound is not shown');

    // A passes: the question says what a pass does at this table.
    const q = await passWithDialog(a.page);
    assert.match(q.text, /^Pass this turn\? A pass lets your turn go: you keep your cards/);
    assert.match(q.text, /Passes do not end the deal: it ends when no player can form a word/);
    await shot(a.page, 'pass-dialog');
    await q.confirm();
    await waitState(b, (m) => m.view.log.length === 1 && m.view.turn === 1 - first.turn, 'A passed');
    // B passes too: the game goes on, A to play again.
    await (await passWithDialog(b.page)).confirm();
    const after = await waitState(a, (m) => m.view.log.length === 2, 'B passed');
    assert.equal(after.view.over, undefined, `the game goes on: ${after.view.over}`);
    assert.equal(after.view.phase, 'turn');
    assert.equal(after.view.turn, first.turn);
    assert.deepEqual(after.view.log.map((/** @type {any} */ e) => e.type), ['pass', 'pass']);
    await a.page.waitForSelector('#wc-status:has-text("Your turn")');
    assert.equal(await a.page.locator('#wc-over').isHidden(), true);
    assert.equal(await a.page.locator('#result-headline').count(), 0, 'no result');
  });

  const cat = await player(browser, 'Cat');
  const dan = await player(browser, 'Dan');
  await withArtifacts([cat, dan], async () => {
    // The house rule, chosen in the lobby: the same round ends the game.
    const { bySeat, first } = await lobbyTable(cat, dan, async (page) => {
      await page.check('#wc-passes_end');
    });
    assert.equal(first.config.passes_end, true);
    const a = bySeat[first.turn], b = bySeat[1 - first.turn];
    await a.page.waitForSelector('#wc-rules:has-text("a round of passes ends the deal")');
    const q = await passWithDialog(a.page);
    assert.match(q.text, /House rule: a full round of passes \(every player in a row\) ends the deal, and the game\.$/);
    await q.confirm();
    await waitState(b, (m) => m.view.log.length === 1, 'A passed');
    const q2 = await passWithDialog(b.page);
    assert.match(q2.text, /your pass ends the deal, and the game\.$/, 'the last pass of the round says so');
    await shot(b.page, 'pass-dialog-house-rule');
    await q2.confirm();
    const end = await waitState(a, (m) => !!m.view.over, 'the end');
    assert.equal(end.view.over, 'every player passed in a row (the house rule)');
    for (const p of bySeat) {
      await p.page.waitForSelector('#wc-over:has-text("every player passed in a row")');
      await p.page.waitForSelector('#ranking li');
    }
  });
});

/**
 * A word the hand can spell after a Multicard link card (which names its
 * first letter): the letters to type, or null.
 * @param {string[]} hand
 */
function wordOnMulticard(hand) {
  const letters = hand.filter((c) => !c.startsWith('*')).map((c) => c[0].toLowerCase());
  /** @type {string | null} */
  let best = null;
  for (const w of LEXICON) {
    if (w.length < 3 || w.length > 6) continue;
    const left = [...letters];
    if (![...w.slice(1)].every((ch) => {
      const k = left.indexOf(ch);
      if (k < 0) return false;
      left.splice(k, 1);
      return true;
    })) continue;
    // The last letter a card of value (rule J doubles it), the longest.
    if (!best || w.length > best.length) best = w;
  }
  return best;
}

test('WORDCHAIN: a Multicard link card named by typing; the score from the server; drawn cards as cards', { timeout: 180000 }, async () => {
  const bea = await player(browser, 'Bea');
  const B = bea.page;
  await withArtifacts([bea], async () => {
    // Tables until the first player holds a Multicard and a vowel-deck
    // letter that makes a word with the link card: they play it with the
    // Multicard last (over the API), which hands the next player a
    // Multicard link. Rule J as "every word on the link card".
    const config = { challenges: false, link_bonus: 'link_first' };
    /** @type {{id: string, token: string, seat: number} | null} */
    let found = null;
    for (let tries = 0; tries < 60 && !found; tries++) {
      const res = await srv.api('/api/games', { game: 'wordchain', config, public: false, take_seat: 0, name: 'Ann' });
      const id = res.game.id;
      /** @type {Record<number, string>} */
      const tokens = Object.fromEntries(res.seats.map((/** @type {any} */ x) => [x.seat, x.token]));
      tokens[0] = res.you.token;
      const st = await srv.api(`/api/games/${id}/state?token=${tokens[0]}`);
      const turn = st.view.turn;
      const mine = turn === 0 ? st : await srv.api(`/api/games/${id}/state?token=${tokens[turn]}`);
      const v = mine.view;
      if (v.phase !== 'turn' || !v.hand.includes('*')) continue;
      const link = v.link;
      const vowel = [...'AEIOU'].find((x) => LEXICON.has((link[0] + x).toLowerCase()));
      if (!vowel) continue;
      await srv.api(`/api/games/${id}/actions`, { token: tokens[turn], action: { type: 'play', words: [{ cards: [link, `*${vowel}h`], link: 0 }] } });
      found = { id, token: tokens[1 - turn], seat: 1 - turn };
    }
    assert.ok(found, 'a table where the first word ends on a Multicard');
    await B.goto(`${srv.url}/play/${found.id}#${found.token}`);
    const v = (await waitState(bea, (m) => m.view.phase === 'turn' && m.view.turn === found?.seat, 'my turn')).view;
    assert.equal(v.link, '*');
    const word = wordOnMulticard(v.hand);
    assert.ok(word, `a word on any letter from ${v.hand.join(' ')}`);
    await B.waitForSelector('#wc-status:has-text("Your turn")');
    // The whole word typed: its first letter names the link card.
    await B.click('#wc-status');
    await B.keyboard.type(word);
    await B.waitForSelector(`#wc-spelled-0:has-text("${word.toUpperCase()}")`);
    assert.equal(await B.locator('#wc-word-0 .wc-slot[data-pos="0"] select.wc-name-letter').inputValue(), word[0].toUpperCase());
    assert.equal(await B.locator('#wc-word-0 .wc-slot').count(), word.length);
    // Backspace takes the last card back; at the link card, its letter.
    for (let i = 1; i < word.length; i++) await B.keyboard.press('Backspace');
    assert.equal(await B.locator('#wc-word-0 .wc-slot').count(), 1);
    await B.keyboard.press('Backspace');
    assert.equal(await B.locator('#wc-word-0 .wc-slot[data-pos="0"] select.wc-name-letter').inputValue(), '');
    await B.keyboard.type(word);
    await B.waitForSelector(`#wc-spelled-0:has-text("${word.toUpperCase()}")`);
    // The server's reckoning, rule J as this table reads it.
    await B.waitForSelector('#wc-reckon-0 summary:has-text("Score:")');
    await B.click('#wc-reckon-0 summary');
    await B.waitForSelector('#wc-reckon-0 li[data-rule="J"]:has-text("begins on it")');
    const reckoned = Number((await B.locator('#wc-reckon-0 summary').innerText()).replace(/\D+/g, ''));
    await shot(B, 'multicard-link-typed');
    await B.click('#wc-status');
    await B.keyboard.press('Enter');
    const after = await waitState(bea, (m) => m.view.log.length === 2, 'my play');
    const e = after.view.log[1];
    assert.equal(e.words[0].word, word);
    assert.equal(e.words[0].cards[0], `*${word[0].toUpperCase()}h`);
    assert.equal(e.score, reckoned, 'the reckoning is the score');
    assert.ok(e.words[0].breakdown.steps.some((/** @type {any} */ s) => s.rule === 'J'));

    // The move list: the cards drawn as cards (letter, suit symbol, value),
    // never as notation.
    const drew = after.events.find((/** @type {any} */ x) => x.type === 'drew');
    assert.ok(drew && drew.cards.length === word.length - 1, 'drew as many cards as played');
    const li = B.locator('#moves li:has-text("drew")').last();
    await li.waitFor();
    assert.equal(await li.locator('.wc-card').count() >= drew.cards.length, true);
    const shown = await li.locator('.wc-card').evaluateAll((els) => els.map((x) => /** @type {HTMLElement} */ (x).dataset.card));
    for (const c of drew.cards) assert.ok(shown.includes(c), `${c} drawn, shown as a card`);
    const text = (await li.innerText()).replace(/\s+/g, '');
    const c0 = drew.cards.find((/** @type {string} */ c) => !c.startsWith('*'));
    if (c0) assert.ok(text.includes(`${c0[0]}${{ h: '♥', d: '♦', c: '♣', s: '♠' }[/** @type {'h'} */ (c0[1])]}${c0.charCodeAt(0) - 64}`), `a card as letter, suit and value: ${text}`);
    assert.doesNotMatch(await B.locator('#moves').innerText(), /drew( [A-Z*][hdcs]?)+\b/, 'no card notation in the move list');
    await B.locator('#moves').scrollIntoViewIfNeeded();
    await shot(B, 'moves-with-cards');
  });
});
