// WORDCHAIN in the browser. Two players (two contexts) create and join a
// game from the lobby with two dice and challenges on, and play it to its
// agreed end (a short turn limit) through the page: words built by clicking
// and dragging cards from the hand after the link card, a bluff challenged
// (upheld), a real word challenged (the challenge fails), the once-a-game
// five-card draw, a refused play shown in one line and cleared, a hand
// displayed; every WebSocket frame of each page is recorded, and no frame
// to one player ever holds the other's hand while it is hidden. Then a game
// against the computer, to its end, with a move list longer than nine.
//
// The deal is the server's (its seed is drawn by the server), so the test
// reads each hand from the player's own frames and finds real words in it
// with a small word finder over data/lexicon/en.txt (the default list).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParlorServer, launch, player, withArtifacts, repo, rematch, shots, states, waitState as waitFor, parlorBin, createWithFriend, openRules } from './harness.mjs';

/** @type {ParlorServer} */ let srv;
/** @type {import('playwright-core').Browser} */ let browser;

const LEXICON = new Set(readFileSync(join(repo, 'data/lexicon/en.txt'), 'utf8').split('\n').map((w) => w.trim()).filter((w) => /^[a-z]+$/.test(w)));
const BY_FIRST = /** @type {Map<string, string[]>} */ (new Map());
for (const w of LEXICON) {
  if (w.length < 2 || w.length > 8) continue;
  const k = w[0];
  if (!BY_FIRST.has(k)) BY_FIRST.set(k, []);
  /** @type {string[]} */ (BY_FIRST.get(k)).push(w);
}

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

const shot = shots('wordchain');

/** @param {Player} p @param {(m: any) => boolean} pred @param {string} what @param {number} [timeout] */
const waitState = (p, pred, what, timeout) => waitFor(p, pred, what, (v) => ({ phase: v.phase, turn: v.turn, turns: v.turns, over: v.over }), timeout);

/**
 * A word the hand can make on the link card (the link first): its cards as
 * indices into the hand, Multicards with the letter they are named, or null.
 * @param {string[]} hand @param {string} link @param {number} most cards from the hand
 * @param {{minLen?: number, avoid?: Set<number>}} [o]
 * @returns {{word: string, cards: {idx: number, letter: string}[]} | null}
 */
function findWord(hand, link, most, o = {}) {
  const avoid = o.avoid || new Set();
  const linkLetter = link.startsWith('*') ? null : link[0].toLowerCase();
  const firsts = linkLetter ? [linkLetter] : [...'stcpbmd'];
  /** @type {{word: string, cards: {idx: number, letter: string}[], multis: number} | null} */
  let best = null;
  for (const f of firsts) {
    for (const w of BY_FIRST.get(f) || []) {
      if (w.length - 1 > most || w.length < (o.minLen || 3)) continue;
      const free = hand.map((_, i) => i).filter((i) => !avoid.has(i));
      /** @type {{idx: number, letter: string}[]} */
      const cards = [];
      let multis = 0;
      let ok = true;
      for (const ch of w.slice(1)) {
        let k = free.findIndex((i) => !hand[i].startsWith('*') && hand[i][0].toLowerCase() === ch);
        if (k < 0) {
          k = free.findIndex((i) => hand[i].startsWith('*'));
          multis++;
        }
        if (k < 0) { ok = false; break; }
        cards.push({ idx: free[k], letter: ch.toUpperCase() });
        free.splice(k, 1);
      }
      if (!ok) continue;
      // Fewest Multicards, then longest (up to five letters: quick to click).
      const rank = (/** @type {{word: string, multis: number}} */ x) => x.multis * 10 - Math.min(x.word.length, 5);
      if (!best || rank({ word: w, multis }) < rank(best)) best = { word: w, cards, multis };
    }
  }
  return best && { word: best.word, cards: best.cards };
}

/**
 * Builds a word in the page: the link card stands first already; the hand
 * cards are clicked (the first one dragged, to use the drop zone too) and
 * Multicards named.
 * @param {import('playwright-core').Page} page @param {number} w which word row
 * @param {{idx: number, letter: string}[]} cards @param {string} linkLetter
 */
async function buildWord(page, w, cards, linkLetter, drag = false) {
  const row = `#wc-word-${w}`;
  for (const [k, c] of cards.entries()) {
    const card = page.locator(`#wc-hand button.wc-card[data-idx="${c.idx}"]`);
    if (drag && k === 0) await card.dragTo(page.locator(row));
    else await card.click();
    await page.waitForSelector(`${row} .wc-slot[data-pos="${k + 1}"]`);
  }
  // Name the Multicards (the link card too, when it is one).
  const slots = page.locator(`${row} .wc-slot`);
  const n = await slots.count();
  for (let i = 0; i < n; i++) {
    const sel = slots.nth(i).locator('select.wc-name-letter');
    if (await sel.count()) await sel.selectOption(i === 0 ? linkLetter : cards[i - 1].letter);
  }
}

/** @param {import('playwright-core').Page} page @param {string} button */
async function confirmed(page, button) {
  await page.click(button);
  await page.click('dialog[open] button.danger');
}

/**
 * The checks on hidden hands: in every state `to` received, the other
 * seat's hand is absent unless displayed, the deal and the draws of that
 * seat come without cards, and the other's whole hand (as its own page got
 * it at the same moment) appears nowhere in the frame.
 * @param {Player} from @param {number} fromSeat @param {Player} to
 * @returns {number} frames that held the hand while it was displayed
 */
function checkHidden(from, fromSeat, to) {
  /** @type {Map<number, {hand: string, shown: boolean}>} */
  const handAt = new Map();
  for (const m of states(from)) handAt.set(m.seq, { hand: JSON.stringify(m.view.hand), shown: m.view.seats[fromSeat].displayed });
  let seenShown = 0;
  let checked = 0;
  for (const f of to.frames) {
    let m;
    try { m = JSON.parse(f.text); } catch { continue; }
    if (m.type !== 'state') continue;
    const own = handAt.get(m.seq);
    const shown = m.view ? m.view.seats[fromSeat].displayed : false;
    if (m.view && !shown) {
      assert.equal(m.view.seats[fromSeat].hand, undefined, `${to.name} got ${from.name}'s hidden hand in the view (seq ${m.seq})`);
      assert.notEqual(m.view.seat, fromSeat);
      for (const e of m.events || []) {
        if ((e.type === 'dealt' || e.type === 'drew') && e.seat === fromSeat) {
          assert.equal(e.cards, undefined, `${to.name} got ${from.name}'s ${e.type} cards (seq ${m.seq})`);
        }
      }
      if (own && own.hand.length > 4) {
        assert.ok(!f.text.includes(own.hand), `${to.name} received ${from.name}'s hidden hand ${own.hand} (seq ${m.seq})`);
        checked++;
      }
    } else if (own && shown && f.text.includes(own.hand)) seenShown++;
  }
  assert.ok(checked > 5, `${to.name}'s frames were checked against ${from.name}'s hand (${checked})`);
  return seenShown;
}

test('WORDCHAIN: two players, two dice and challenges, to the agreed end', { timeout: 300000 }, async () => {
  const ann = await player(browser, 'Ann');
  const bea = await player(browser, 'Bea');
  const cat = await player(browser, 'Cat');
  const A = ann.page, B = bea.page;
  await withArtifacts([ann, bea, cat], async () => {
    // Created in the lobby from the settings WORDCHAIN declares.
    await openRules(A, srv.url, 'wordchain');
    await A.selectOption('#wc-dice', { label: 'Two dice' });
    assert.equal(await A.isChecked('#wc-challenges'), true);
    await A.fill('#wc-turn_limit', '9');
    const invite = await createWithFriend(A);
    await B.goto(invite);
    // Cat watches: a spectator sees no hand but a displayed one.
    await cat.page.goto(srv.url + new URL(invite).pathname);
    await cat.page.waitForSelector('#you:has-text("You are watching")');

    const P = [ann, bea];
    const gameId = new URL(invite).pathname.split('/')[2];
    // The record (seed and all) is kept back while the game runs.
    const early = await fetch(`${srv.url}/api/games/${gameId}/record`);
    assert.equal(early.ok, false, 'no record before the end');
    const first = await waitState(ann, (m) => m.view.phase === 'turn', 'the deal');
    assert.equal(first.view.config.dice, 2);
    assert.equal(first.view.config.turn_limit, 9);
    // Each page shows its own hand as cards, the other's face down.
    for (const [i, p] of P.entries()) {
      const m = await waitState(p, (x) => x.view.phase === 'turn', 'the deal');
      assert.equal(await p.page.locator('#wc-hand .wc-card').count(), m.view.hand.length);
      const shown = await p.page.locator('#wc-hand .wc-card').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card));
      assert.deepEqual(shown, m.view.hand);
      assert.equal(await p.page.locator(`#wc-seats li[data-seat="${1 - i}"] .wc-card.back`).count(), 12);
      assert.equal(await p.page.locator(`#wc-seats li[data-seat="${1 - i}"] .wc-card:not(.back)`).count(), 0);
      await p.page.waitForSelector('#wc-link .letter');
      await p.page.waitForSelector('#wc-decks:has-text("Consonant deck")');
      await p.page.waitForSelector('#wc-dealer:has-text("Dealer")');
    }
    // A card reads as letter, value and suit: K of hearts is 11.
    const cardText = await A.locator('#wc-hand .wc-card').first().innerText();
    const c0 = first.view.hand[0];
    if (!c0.startsWith('*')) assert.match(cardText.replace(/\s+/g, ''), new RegExp(`${c0[0]}[♥♦♣♠]${c0.charCodeAt(0) - 64}`));

    const did = { accepted: false, upheld: false, failed: false, five: false, refused: false, display: false, double: false };
    let guard = 0;
    let turnsDone = -1;
    for (;;) {
      assert.ok(guard++ < 20, 'the game ends within its turn limit');
      const m = await waitState(ann, (x) => (x.view.phase === 'turn' && x.view.turns > turnsDone) || !!x.view.over, 'a turn');
      if (m.view.over) break;
      turnsDone = m.view.turns;
      const s = m.view.turn;
      const me = P[s], other = P[1 - s];
      const mv = (await waitState(me, (x) => x.view.phase === 'turn' && x.view.turns === m.view.turns, 'my turn')).view;
      await me.page.waitForSelector('#wc-status:has-text("Your turn")');
      await other.page.waitForSelector(`#wc-status:text-matches("${me.name} .*to play")`);
      // Dice every turn: the throw and the most cards from the hand.
      assert.ok(Array.isArray(mv.dice) && mv.dice.length === 2, 'two dice thrown');
      assert.equal(mv.max_from_hand, mv.dice[0] + mv.dice[1]);
      await me.page.waitForSelector(`#wc-dice[data-max="${mv.max_from_hand}"]`);
      await other.page.waitForSelector(`#wc-dice[data-max="${mv.max_from_hand}"]`);
      const hand = mv.hand;
      const link = mv.link;
      const linkLetter = link.startsWith('*') ? 'S' : link[0];
      const logBefore = mv.log.length;

      // Once: the player not on turn displays the hand (late in the game,
      // so the frames before it are checked hidden).
      if (!did.display && mv.turns >= 5) {
        await confirmed(other.page, '#wc-display');
        await waitState(me, (x) => x.view.seats[1 - s].displayed, 'the displayed hand');
        const oh = (await waitState(other, (x) => x.view.seats[1 - s].displayed, 'displayed')).view.hand;
        await me.page.waitForSelector(`#wc-seats li[data-seat="${1 - s}"] .wc-card:not(.back)`);
        assert.deepEqual(await me.page.locator(`#wc-seats li[data-seat="${1 - s}"] .wc-card`).evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card)), oh);
        did.display = true;
      }

      // Once: a play the server refuses (more cards than the throw allows),
      // shown in one line and cleared by the next action.
      const plain = hand.map((c, i) => (c.startsWith('*') ? -1 : i)).filter((i) => i >= 0);
      if (!did.refused && plain.length > mv.max_from_hand) {
        const chosen = plain.slice(0, mv.max_from_hand + 1);
        // The first by keyboard: Enter on the focused card, and the focus
        // goes on to the next card left in the hand.
        await me.page.focus(`#wc-hand button.wc-card[data-idx="${chosen[0]}"]`);
        await me.page.keyboard.press('Enter');
        await me.page.waitForSelector('#wc-word-0 .wc-slot[data-pos="1"]');
        const focusIdx = await me.page.evaluate(() => {
          const a = /** @type {HTMLElement | null} */ (document.activeElement);
          return a && a.closest('#wc-hand') ? Number(a.dataset.idx) : null;
        });
        assert.ok(focusIdx !== null && focusIdx !== chosen[0], `the focus stays in the hand (${focusIdx})`);
        for (const i of chosen.slice(1)) await me.page.click(`#wc-hand button.wc-card[data-idx="${i}"]`);
        await me.page.waitForSelector('#wc-wordbox-0 .warn:has-text("The throw allows")');
        await me.page.click('#wc-play');
        await me.page.waitForSelector('#wc-message:has-text("Not done")');
        assert.match(await me.page.locator('#wc-message').innerText(), /throw allows \d+ cards/);
        assert.equal(await me.page.locator('#alert.shown').count(), 0, 'shown by the page, not the shell');
        await me.page.click('#wc-clear');
        assert.equal(await me.page.locator('#wc-word-0 .wc-slot').count(), 1, 'only the link card after Clear');
        did.refused = true;
      }

      if (!did.upheld) {
        // A bluff: the link card and one card that make no word.
        const k = plain.find((i) => !LEXICON.has((linkLetter + hand[i][0]).toLowerCase()));
        assert.ok(k !== undefined, 'a card that makes no word with the link');
        await buildWord(me.page, 0, [{ idx: k, letter: hand[k][0] }], linkLetter);
        const bluff = (linkLetter + hand[k][0]).toUpperCase();
        await me.page.waitForSelector(`#wc-spelled-0:has-text("${bluff}")`);
        await me.page.click('#wc-play');
        await other.page.waitForSelector(`#wc-pending:has-text("${bluff}")`);
        await other.page.waitForSelector('#wc-pending ol.wc-steps li[data-rule="B"]');
        await me.page.waitForSelector('#wc-status:has-text("waiting for the others")');
        assert.equal(await me.page.locator('#wc-accept').count(), 0, 'the player does not answer their own play');
        const before = mv.seats[1 - s].score;
        const pts = (await waitState(other, (x) => !!x.view.pending, 'the pending play')).view.pending.score;
        await shot(other.page, 'pending');
        await confirmed(other.page, '#wc-challenge');
        const after = await waitState(me, (x) => x.view.log.length > logBefore, 'the challenge');
        const e = after.view.log[after.view.log.length - 1];
        assert.deepEqual(e.challenge, [1 - s, true]);
        assert.equal(after.view.seats[1 - s].score, before + pts, 'the challenger gains the score');
        assert.equal(after.view.hand.length, hand.length, 'the cards come back to the hand');
        await me.page.waitForSelector(`#wc-log li[data-kind="challenge-upheld"]:has-text("${bluff}")`);
        did.upheld = true;
        continue;
      }
      if (!did.five && !mv.seats[s].five_used) {
        await confirmed(me.page, '#wc-five');
        const after = await waitState(other, (x) => x.view.log.length > logBefore, 'five cards');
        assert.equal(after.view.seats[s].cards, hand.length + 5);
        assert.equal(after.view.decks[0] + after.view.decks[1], mv.decks[0] + mv.decks[1] - 5);
        await other.page.waitForSelector(`#wc-log li[data-kind="five_cards"]:has-text("${me.name}")`);
        // The server's move list says so in words too.
        await other.page.waitForSelector(`#moves li:has-text("${me.name}"):has-text("took five cards")`);
        await other.page.waitForSelector(`#wc-seats li[data-seat="${s}"]:has-text("took five cards")`);
        assert.equal(await other.page.locator(`#wc-seats li[data-seat="${s}"] .wc-card.back`).count(), hand.length + 5);
        await me.page.waitForSelector(`#wc-hand .wc-card >> nth=${hand.length + 4}`);
        assert.equal(await me.page.locator('#wc-five').count(), 0);
        // What happened, in words: the cards to their holder, a count to the other.
        await me.page.waitForSelector('#wc-news li:has-text("You drew") .wc-card >> nth=4');
        await other.page.waitForSelector(`#wc-news li:has-text("${me.name} (P${s + 1}) drew 5 cards")`);
        assert.equal(await other.page.locator('#wc-news .wc-card').count(), 0);
        did.five = true;
        continue;
      }

      // A real word (two on a double, where the hand has them).
      /** @type {{word: string, cards: {idx: number, letter: string}[]}[]} */
      let plan = [];
      if (mv.double) {
        const one = findWord(hand, link, mv.dice[0], { minLen: 2 });
        const two = one && findWord(hand, link, mv.dice[0], { minLen: 2, avoid: new Set(one.cards.map((c) => c.idx)) });
        if (one && two) plan = [one, two];
      }
      if (!plan.length) {
        const w = findWord(hand, link, mv.max_from_hand) || findWord(hand, link, mv.max_from_hand, { minLen: 2 });
        if (w) plan = [w];
      }
      if (!plan.length) {
        await confirmed(me.page, '#wc-pass');
        await waitState(other, (x) => x.view.log.length > logBefore, 'the pass');
        await other.page.waitForSelector(`#wc-log li[data-kind="pass"]:has-text("${me.name}")`);
        continue;
      }
      if (plan.length === 2) {
        await buildWord(me.page, 0, plan[0].cards, plan[0].word[0].toUpperCase());
        await me.page.click('#wc-second');
        await buildWord(me.page, 1, plan[1].cards, plan[1].word[0].toUpperCase());
        did.double = true;
      } else {
        await buildWord(me.page, 0, plan[0].cards, plan[0].word[0].toUpperCase(), true);
      }
      for (const [w, p] of plan.entries()) await me.page.waitForSelector(`#wc-spelled-${w}:has-text("${p.word.toUpperCase()}")`);
      // Once: the link card moved from first place, and back: the server's
      // reckoning shows rule L's penalty, then not (the page judges nothing).
      if (!did.accepted) {
        await me.page.click('#wc-word-0 .wc-slot[data-pos="0"] .wc-right');
        await me.page.waitForSelector('#wc-reckon-0 li[data-rule="L"]', { state: 'attached' });
        await me.page.click('#wc-word-0 .wc-slot[data-pos="1"] .wc-left');
        await me.page.waitForSelector('#wc-reckon-0 li[data-rule="L"]', { state: 'detached' });
      }
      // Draw all from the consonant deck once (the chooser).
      const n = plan.reduce((t, p) => t + p.cards.length, 0);
      if (!did.failed) await me.page.selectOption('#wc-draw', String(n));
      await shot(me.page, 'building');
      // The server's reckoning of the word being built (once: the
      // helper's requests are metered).
      const est = did.accepted || did.failed ? null : await me.page.locator('#wc-reckon-0 .wc-estimate summary').innerText();
      await me.page.click('#wc-play');
      const pend = (await waitState(other, (x) => !!x.view.pending, 'the pending play')).view.pending;
      assert.deepEqual(pend.words.map((/** @type {any} */ w) => w.word), plan.map((p) => p.word));
      if (est !== null && plan.length === 1) assert.equal(est, `Score: ${pend.score}`, 'the reckoning is the server\'s score');
      await other.page.waitForSelector(`#wc-pending:has-text("${plan[0].word.toUpperCase()}")`);
      const before = [...mv.seats.map((/** @type {any} */ x) => x.score)];
      if (!did.failed) {
        await confirmed(other.page, '#wc-challenge');
        const after = await waitState(me, (x) => x.view.log.length > logBefore, 'the challenge');
        const e = after.view.log[after.view.log.length - 1];
        assert.deepEqual(e.challenge, [1 - s, false]);
        assert.equal(after.view.seats[s].score, before[s] + 2 * pend.score);
        assert.equal(after.view.seats[1 - s].score, before[1 - s] - pend.score);
        await other.page.waitForSelector(`#wc-log li[data-kind="challenge-failed"]:has-text("${plan[0].word.toUpperCase()}")`);
        const drew = after.events.find((/** @type {any} */ x) => x.type === 'drew');
        if (drew && after.view.decks[0] > 0) assert.equal(drew.consonants, n, 'drawn from the consonant deck as chosen');
        did.failed = true;
      } else {
        await other.page.click('#wc-accept');
        const after = await waitState(me, (x) => x.view.log.length > logBefore, 'the accept');
        assert.equal(after.view.seats[s].score, before[s] + pend.score);
        did.accepted = true;
      }
      // The move list shows the breakdown step by step.
      const li = other.page.locator(`#wc-log > li >> nth=${logBefore}`);
      await li.locator('ol.wc-steps li[data-rule="B"]').first().waitFor();
      assert.match(await li.innerText(), new RegExp(`B card values: .* → \\d+`));
      // The refusal line went with the next action.
      assert.equal((await me.page.locator('#wc-message').innerText()).trim(), '');
    }

    // The agreed end: the turn limit; the reason and the ranking on both pages.
    const end = await waitState(ann, (x) => !!x.view.over, 'the end');
    assert.match(end.view.over, /agreed 9 turns/);
    for (const p of P) {
      await p.page.waitForSelector('#wc-status:has-text("Game over")');
      await p.page.waitForSelector('#wc-over:has-text("agreed 9 turns")');
      await p.page.waitForSelector('#ranking li');
      await p.page.waitForSelector('#rematch');
      assert.equal(await p.page.locator('#wc-log > li').count(), end.view.log.length);
      assert.equal(await p.page.locator('#wc-build').isHidden(), true);
    }
    await shot(A, 'over');
    await shot(cat.page, 'spectator');
    const top = end.outcome.ranking[0][0];
    await B.waitForSelector(`#ranking li:first-child:has-text("${P[top].name}")`);
    assert.ok(did.upheld && did.five && did.failed, `a challenge upheld, a five-card draw, a challenge failed: ${JSON.stringify(did)}`);
    assert.ok(did.refused && did.display, JSON.stringify(did));
    console.log(`# two players: ${JSON.stringify(did)}; log ${end.view.log.length} entries; scores ${end.view.seats.map((/** @type {any} */ x) => x.score)}`);

    // Hidden hands: never in the other's frames while hidden.
    const shownA = checkHidden(ann, 0, bea);
    const shownB = checkHidden(bea, 1, ann);
    for (const m of states(cat)) {
      assert.equal(m.view.hand, undefined, 'the spectator has no hand');
      m.view.seats.forEach((/** @type {any} */ x, /** @type {number} */ i) => assert.ok(x.displayed || x.hand === undefined, `the spectator got seat ${i}'s hidden hand`));
      for (const e of m.events || []) if (e.type === 'dealt' || e.type === 'drew') assert.ok(e.shown || e.cards === undefined, 'the spectator got dealt or drawn cards');
    }
    assert.equal(await cat.page.locator('#wc-build').isHidden(), true);
    assert.equal(await cat.page.locator('#wc-hand .wc-card').count(), 0);
    // ...and there once displayed, so the check above can fail.
    assert.ok(shownA + shownB > 0, 'a displayed hand reached the other page');

    // The record, once the game is over, replays exactly (`parlor replay`).
    // Written as the server sent it: its 64-bit seed does not survive a
    // JavaScript number.
    const res = await fetch(`${srv.url}/api/games/${gameId}/record`);
    assert.ok(res.ok, 'the record once the game is over');
    const dir = mkdtempSync(join(tmpdir(), 'parlor-wc-'));
    try {
      writeFileSync(join(dir, 'game.json'), await res.text());
      const out = JSON.parse(execFileSync(parlorBin(), ['replay', '--json', join(dir, 'game.json')], { encoding: 'utf8' }));
      assert.equal(out.view.over, end.view.over);
      assert.deepEqual(out.view.seats.map((/** @type {any} */ x) => x.score), end.view.seats.map((/** @type {any} */ x) => x.score));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // Rematch, as on the other pages: one click, the same rules.
    await rematch(A, B, '#wc-status');
  });
});

test('WORDCHAIN: a game against the computer, to its end', { timeout: 240000 }, async () => {
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    await openRules(A, srv.url, 'wordchain');
    await A.fill('#wc-turn_limit', '12');
    // No target (an empty field), and a house pack written on one line:
    // the default pack (103 cards) with two more Multicards.
    await A.fill('#wc-target', '');
    const pack = readFileSync(join(repo, 'data/wordchain/deck.txt'), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#')).join('; ');
    assert.match(pack, /\* 4/);
    await A.fill('#wc-deck', pack.replace('* 4', '* 6'));
    const botLevels = await A.locator('#seat-1 option').evaluateAll((els) => els.map((e) => /** @type {HTMLOptionElement} */ (e).value).filter((v) => v.startsWith('bot:')));
    await A.selectOption('#seat-0', 'me');
    await A.selectOption('#seat-1', botLevels[botLevels.length - 1]);
    await A.click('#create-form button[type=submit]');
    await A.click('#go-play');
    const start = await waitState(ann, (x) => x.view.phase !== 'deal', 'the deal');
    assert.equal(start.view.config.target, null);
    assert.match(start.view.config.deck, /^\* 6$/m);
    assert.equal(start.view.decks[0] + start.view.decks[1] + 2 * 12 + 1, 105, 'the house pack: 105 cards');
    let guard = 0;
    for (;;) {
      assert.ok(guard++ < 40, 'the game ends');
      const m = await waitState(ann, (x) => !!x.view.over || (x.view.phase === 'turn' && x.view.turn === 0) || (!!x.view.pending && x.view.pending.seat === 1), 'my move', 60000);
      const v = m.view;
      if (v.over) break;
      if (v.pending) {
        await A.click('#wc-accept');
        await waitState(ann, (x) => !x.view.pending, 'the accept');
        continue;
      }
      await A.waitForSelector('#wc-status:has-text("Your turn")');
      const w = findWord(v.hand, v.link, v.hand.length) || findWord(v.hand, v.link, v.hand.length, { minLen: 2 });
      const logBefore = v.log.length;
      if (!w) {
        await confirmed(A, '#wc-pass');
      } else {
        // By keyboard alone: the letters after the link card, then Enter.
        await A.click('#wc-status');
        await A.keyboard.type(w.word.slice(1));
        await A.waitForSelector(`#wc-spelled-0:has-text("${v.link.startsWith('*') ? '?' : v.link[0]}${w.word.slice(1).toUpperCase()}")`);
        if (v.link.startsWith('*')) await A.selectOption('#wc-word-0 .wc-slot[data-pos="0"] select.wc-name-letter', w.word[0].toUpperCase());
        await A.click('#wc-status');
        await A.keyboard.press('Enter');
      }
      await waitState(ann, (x) => x.view.log.length > logBefore || !!x.view.over, 'my move done');
    }
    const end = await waitState(ann, (x) => !!x.view.over, 'the end');
    await A.waitForSelector('#wc-over:has-text("over")');
    await A.waitForSelector('#ranking li');
    // The whole log, numbered past nine.
    const n = end.view.log.length;
    assert.ok(n >= 10, `a long game: ${n} moves`);
    assert.equal(await A.locator('#wc-log > li').count(), n);
    assert.equal(await A.locator('#wc-log > li >> nth=9').getAttribute('data-n'), '10');
    const firstBot = end.view.log.findIndex((/** @type {any} */ e) => e.seat === 1 && e.type === 'play');
    if (firstBot >= 0) await A.locator(`#wc-log > li >> nth=${firstBot}`).locator('ol.wc-steps li[data-rule="B"]').first().waitFor();
    console.log(`# against the bot: ${n} moves, scores ${end.view.seats.map((/** @type {any} */ x) => x.score)}: ${end.view.over}`);
  });
});

test('WORDCHAIN: two words on a double', { timeout: 240000 }, async () => {
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    await A.goto(srv.url + '/');
    // Tables until one opens on a double the hand can use twice: the first
    // throw of each is read as a spectator over the WebSocket.
    const config = { dice: 2, challenges: false, turn_limit: 4 };
    /** @type {any} */
    let found = null;
    for (let tries = 0; tries < 80 && !found; tries++) {
      const res = await srv.api('/api/games', { game: 'wordchain', config, public: false, take_seat: 0, name: 'Ann' });
      const id = res.game.id;
      const tokens = Object.fromEntries(res.seats.map((/** @type {any} */ x) => [x.seat, x.token]));
      tokens[0] = res.you.token;
      const seat = await A.evaluate(async (gameId) => {
        const ws = new WebSocket(`ws://${location.host}/api/games/${gameId}/ws`);
        const m = await new Promise((resolve) => {
          ws.onmessage = (ev) => {
            const msg = JSON.parse(ev.data);
            if (msg.type === 'state' && msg.view) resolve(msg.view);
          };
          setTimeout(() => resolve(null), 3000);
        });
        ws.close();
        return m && m.double && m.dice[0] >= 2 ? m.turn : null;
      }, id);
      if (seat !== null) found = { id, seat, token: tokens[seat] };
    }
    assert.ok(found, 'a table opened on a double');
    // Ann takes the seat on turn (the other stays empty: no challenges).
    ann.frames.length = 0; // the probes' frames
    await A.goto(`${srv.url}/play/${found.id}#${found.token}`);
    const v = (await waitState(ann, (x) => x.view.phase === 'turn', 'the deal')).view;
    assert.equal(v.turn, found.seat);
    assert.ok(v.double);
    await A.waitForSelector('#wc-double');
    const d = v.dice[0];
    const one = findWord(v.hand, v.link, d, { minLen: 2 });
    const two = one && findWord(v.hand, v.link, d, { minLen: 2, avoid: new Set(one.cards.map((c) => c.idx)) });
    if (!one || !two) {
      console.log(`# a double of ${d}, but no two words in ${v.hand.join(' ')} on ${v.link}: not played`);
      return;
    }
    await buildWord(A, 0, one.cards, one.word[0].toUpperCase());
    await A.click('#wc-second');
    await A.waitForSelector('#wc-word-1.active .wc-slot.link');
    await buildWord(A, 1, two.cards, two.word[0].toUpperCase());
    await A.waitForSelector(`#wc-spelled-1:has-text("${two.word.toUpperCase()}")`);
    // The server's reckoning scores both words (the throw's limit is its
    // to judge: the page only counts the cards).
    await A.waitForSelector('#wc-reckon-1 .wc-estimate summary:has-text("Score")');
    await A.click('#wc-play');
    const after = await waitState(ann, (x) => x.view.log.length > 0, 'the double');
    const e = after.view.log[0];
    assert.deepEqual(e.words.map((/** @type {any} */ w) => w.word), [one.word, two.word]);
    assert.deepEqual(e.dice, v.dice);
    // The second word's last card is the new link.
    const lastCard = e.words[1].cards[e.words[1].cards.length - 1];
    assert.equal(after.view.link, lastCard.startsWith('*') ? '*' : lastCard);
    await A.waitForSelector(`#wc-log > li[data-kind="play"]:has-text("${one.word.toUpperCase()} and ${two.word.toUpperCase()}")`);
    assert.equal(await A.locator('#wc-log > li >> nth=0').locator('.wc-played').count(), 2);
    console.log(`# a double of ${d}: ${one.word} and ${two.word} for ${e.score}`);
  });
});
