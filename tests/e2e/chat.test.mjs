// Chat at the table (issue 20, docs/api.md "Chat"): two players talk and
// react; a spectator reads them and talks in the spectators' channel, which
// never reaches the players (not even as a WebSocket frame); lines are text,
// never markup; a player mutes another (kept across a reload); a reload
// shows what was said; an over-long line and a flood are refused with a
// clear error.
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

/** @param {any} created @param {number} seat */
const tokenOf = (created, seat) => created.seats.find((/** @type {any} */ s) => s.seat === seat).token;

/** The chat lines a page shows, as text. @param {import('playwright-core').Page} p */
const lines = (p) => p.locator('#chat-log li').allInnerTexts();

test('players chat and react, a spectator reads them and talks apart, mute and reload', { timeout: 90000 }, async () => {
  const ann = await player(browser, 'Ann');
  const bea = await player(browser, 'Bea');
  const cy = await player(browser, 'Cy');
  const A = ann.page, B = bea.page, C = cy.page;
  await withArtifacts([ann, bea, cy], async () => {
    const created = await srv.api('/api/games', { game: 'sprouts', take_seat: 0, name: 'Ann' });
    const id = created.game.id;
    await A.goto(`${srv.url}/play/${id}#${tokenOf(created, 0)}`);
    await B.goto(`${srv.url}/play/${id}#${tokenOf(created, 1)}`);
    await C.goto(`${srv.url}/play/${id}`);
    for (const [p, seat] of /** @type {const} */ ([[A, '0'], [B, '1'], [C, 'spectator']])) {
      await p.waitForFunction((s) => document.body.dataset.seat === s && document.body.dataset.conn === 'ok', seat);
      await p.waitForSelector('#chat-input');
    }
    assert.match(await C.locator('#chat-note').innerText(), /the players never see it/);

    // A line that looks like markup is shown as text and runs nothing.
    const hostile = 'gl hf <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    await A.fill('#chat-input', hostile);
    await A.press('#chat-input', 'Enter');
    for (const p of [A, B, C]) {
      await p.waitForSelector('#chat-log li.players');
      assert.equal(await p.locator('#chat-log li .chat-who').innerText(), 'Ann');
      assert.equal(await p.locator('#chat-log li .chat-text').innerText(), hostile);
      assert.equal(await p.locator('#chat-log li .chat-mute').count(), p === A ? 0 : 1, 'one mutes others, not oneself');
      assert.equal(await p.locator('#chat-log img, #chat-log script').count(), 0);
      assert.equal(await p.evaluate(() => /** @type {any} */ (window).__pwned), undefined);
    }
    assert.equal(await A.inputValue('#chat-input'), '', 'the box is emptied once sent');

    // Bea reacts; everyone sees the reaction under Bea's name.
    await B.click('.chat-reactions button[data-reaction="👍"]');
    for (const p of [A, B, C]) await p.waitForSelector('#chat-log li.reaction:has-text("Bea")');
    assert.match((await lines(A))[1], /^Bea: 👍/);

    // Cy talks in the spectators' channel: Cy sees it, the players never
    // receive it at all.
    await C.fill('#chat-input', 'she should play 1(4)1');
    await C.click('#chat-send');
    await C.waitForSelector('#chat-log li.spectators:has-text("she should play")');
    assert.match(await C.locator('#chat-log li.spectators').innerText(), /^Cy \(watching\): she should play 1\(4\)1/);
    assert.equal(await C.locator('#chat-log li.spectators.own .chat-mute').count(), 0, 'a spectator knows their own line');
    // A later players' line reaches everyone: by then Cy's line would have too.
    await B.fill('#chat-input', 'thanks');
    await B.press('#chat-input', 'Enter');
    for (const p of [A, B, C]) await p.waitForSelector('#chat-log li:has-text("thanks")');
    for (const p of [ann, bea]) {
      assert.equal(await p.page.locator('#chat-log li.spectators').count(), 0, `${p.name} sees no spectator line`);
      assert.ok(!p.frames.some((f) => f.text.includes('she should play')), `${p.name} never received the spectators' chat`);
    }
    assert.deepEqual((await lines(C)).map((l) => l.split(':')[0]), ['Ann', 'Bea', 'Cy (watching)', 'Bea']);
    // Chat never enters the game's state.
    for (const p of [ann, bea, cy]) {
      assert.ok(!p.frames.some((f) => f.text.includes('"type":"state"') && f.text.includes('gl hf')), `${p.name}: chat is not in a state`);
    }

    // Ann mutes Bea: Bea's lines go from Ann's page, and stay gone after a
    // reload (kept in this browser); the history comes back with the reload.
    await A.locator('#chat-log li[data-from="seat:1"] .chat-mute').first().click();
    await A.waitForFunction(() => !document.querySelector('#chat-log li[data-from="seat:1"]'));
    assert.deepEqual((await lines(A)).map((l) => l.split(':')[0]), ['Ann']);
    await A.reload();
    await A.waitForSelector('#chat-log li:has-text("gl hf")');
    assert.equal(await A.locator('#chat-log li[data-from="seat:1"]').count(), 0);
    assert.match(await A.locator('#chat-muted').innerText(), /Bea \(unmute\)/);
    // Bea's page is not affected, and a reload shows her the whole players' chat.
    await B.reload();
    await B.waitForSelector('#chat-log li:has-text("thanks")');
    assert.deepEqual((await lines(B)).map((l) => l.split(':')[0]), ['Ann', 'Bea', 'Bea']);
    await A.click('#chat-muted .chat-unmute');
    await A.waitForSelector('#chat-log li[data-from="seat:1"]:has-text("thanks")');
  });
});

test('an over-long line and a flood are refused with a clear error; the connection stays', { timeout: 60000 }, async () => {
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    const created = await srv.api('/api/games', { game: 'sprouts', take_seat: 0, name: 'Ann', bots: [{ seat: 1, level: 'easy' }] });
    const id = created.game.id;
    const token = tokenOf(created, 0);
    await A.goto(`${srv.url}/play/${id}#${token}`);
    await A.waitForFunction(() => document.body.dataset.conn === 'ok');
    // The page's box stops at 280 characters; the server refuses more from
    // any client, before the game sees it.
    assert.equal(await A.getAttribute('#chat-input', 'maxlength'), '280');
    const answers = await A.evaluate(async ({ id, token }) => {
      const ws = new WebSocket(`ws://${location.host}/api/games/${id}/ws?token=${token}`);
      /** @type {any[]} */
      const got = [];
      ws.onmessage = (e) => got.push(JSON.parse(e.data));
      await new Promise((r) => (ws.onopen = r));
      ws.send(JSON.stringify({ type: 'chat', ref: 'long', text: 'x'.repeat(281) }));
      ws.send(JSON.stringify({ type: 'chat', ref: 'odd', reaction: '💩' }));
      for (let i = 0; i < 12; i++) ws.send(JSON.stringify({ type: 'chat', ref: `r${i}`, reaction: '👏' }));
      ws.send(JSON.stringify({ type: 'ping', ref: 'still-there' }));
      const until = Date.now() + 10000;
      // Every reaction is answered: refused at once, or heard back through the game.
      const answered = () => got.filter((m) => m.type === 'chat' || (m.type === 'error' && String(m.ref).startsWith('r'))).length;
      while ((answered() < 12 || !got.some((m) => m.type === 'pong')) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      ws.close();
      return got;
    }, { id, token });
    const err = (/** @type {string} */ ref) => answers.find((m) => m.type === 'error' && m.ref === ref);
    assert.equal(err('long')?.code, 'bad_chat');
    assert.match(err('long').message, /at most 280 characters; this one has 281/);
    assert.equal(err('odd')?.code, 'bad_chat');
    assert.match(err('odd').message, /unknown reaction: use one of 👍/);
    const limited = answers.filter((m) => m.type === 'error' && m.code === 'rate_limited');
    assert.ok(limited.length >= 1, 'a flood of chat is refused');
    assert.match(limited[0].message, /chat messages on this connection/);
    const passed = answers.filter((m) => m.type === 'chat').length;
    assert.ok(passed >= 1 && passed < 12, `some of the flood passed, not all (${passed})`);
    assert.ok(answers.some((m) => m.type === 'pong'), 'the connection stays open');
    // The page shows a refusal in the chat panel and gives the line back.
    await A.evaluate(() => {
      const i = /** @type {HTMLInputElement} */ (document.getElementById('chat-input'));
      i.removeAttribute('maxlength');
    });
    await A.fill('#chat-input', 'y'.repeat(300));
    await A.press('#chat-input', 'Enter');
    await A.waitForSelector('#chat-error:has-text("at most 280 characters")');
    assert.equal((await A.inputValue('#chat-input')).length, 300, 'the line is kept to be shortened');
  });
});
