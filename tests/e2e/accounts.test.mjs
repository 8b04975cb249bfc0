// Accounts (issue 20): sign up, log in and out, a guest claiming the game
// they played into their new account, a rated game between two accounts
// and the rating change on both profiles, the lobby and the leaderboard
// showing ratings, the replay viewer stepping through the finished game
// (buttons and arrow keys) and its record read by `parlor replay`; a form
// from another site refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ParlorServer, launch, player, withArtifacts, parlorBin, shots, signUp } from './harness.mjs';

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
 * A JSON request from the page itself (its cookies, its origin), as the
 * page's own scripts send them.
 * @param {import('playwright-core').Page} page @param {string} method @param {string} path @param {any} [body]
 * @returns {Promise<{status: number, body: any}>}
 */
function fetchAs(page, method, path, body) {
  return page.evaluate(async ([method, path, body]) => {
    const r = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: await r.json() };
  }, /** @type {[string, string, any]} */ ([method, path, body]));
}


/**
 * Plays the first legal move for whoever of `pages` is to move, until the
 * game is over (the game's own page is tested elsewhere).
 * @param {string} id @param {{page: import('playwright-core').Page, token: string}[]} seats
 */
async function playOut(id, seats) {
  for (let n = 0; n < 40; n++) {
    const s = (await fetchAs(seats[0].page, 'GET', `/api/games/${id}/state?token=${seats[0].token}`)).body;
    if (s.to_act === 'over') return;
    const seat = s.to_act.one;
    const who = seats[seat];
    const mine = (await fetchAs(who.page, 'GET', `/api/games/${id}/state?token=${who.token}`)).body;
    const r = await fetchAs(who.page, 'POST', `/api/games/${id}/actions`, { token: who.token, action: mine.legal[0] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  assert.fail('the game did not end');
}

test('sign up, claim a guest game, a rated game on both profiles, its replay', { timeout: 120000 }, async () => {
  const ann = await player(browser, 'Ann');
  const bob = await player(browser, 'Bob');
  const A = ann.page, B = bob.page;
  await withArtifacts([ann, bob], async () => {
    // Ann plays as a guest first, as today: a one-spot Sprouts game
    // against the bot, its seat key kept by her browser.
    await A.goto(srv.url + '/');
    await A.waitForSelector('#account-link:has-text("Log in or sign up")');
    const guest = (await fetchAs(A, 'POST', '/api/games', { game: 'sprouts', config: { spots: 1 }, take_seat: 0, bots: [{ seat: 1 }] })).body;
    await A.evaluate(([id, token]) => {
      const t = JSON.parse(localStorage.getItem('parlor.tokens') || '{}');
      t[id] = token;
      localStorage.setItem('parlor.tokens', JSON.stringify(t));
    }, [guest.game.id, guest.you.token]);

    // She signs up from the lobby's link, and keeps that game.
    await A.click('#account-link');
    await A.waitForURL(`${srv.url}/account`);
    // A one-letter name: the page says what a name may be.
    await A.fill('#register-username', 'a');
    await A.fill('#register-password', 'long enough');
    await A.click('#register-btn');
    await A.waitForSelector('#register-form :text("username: 3 to 24 characters of A-Z a-z 0-9 _ -")');
    // A password of four characters in eight bytes (or UTF-16 units): the
    // server counts characters, as its message says.
    await A.fill('#register-username', 'ann');
    await A.fill('#register-password', '😀😀😀😀');
    await A.click('#register-btn');
    await A.waitForSelector('#register-form :text("password: 8 to 128 characters; this one has 4")');
    const refused = await fetchAs(A, 'POST', '/api/account/register', { username: 'ann', password: 'short' });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /password: 8 to 128 characters/);
    await signUp(A, srv.url, 'ann');
    const cookies = await ann.context.cookies();
    const session = cookies.find((c) => c.name === 'parlor_session');
    assert.ok(session, 'a session cookie');
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Lax');
    assert.equal(await A.evaluate(() => document.cookie.includes('parlor_session')), false, 'scripts cannot read it');
    await A.click('#claim-btn');
    await A.waitForSelector('#claim-status:has-text("1 game(s) are now your account\'s")');
    await A.waitForSelector(`#account-games a[href^="/play/${guest.game.id}"]`);

    // Bob signs up, logs out, fails a login, logs in.
    await signUp(B, srv.url, 'bob');
    await B.click('#logout-btn');
    await B.waitForSelector('#login-form');
    await B.fill('#login-username', 'bob');
    await B.fill('#login-password', 'not-his-password');
    await B.click('#login-btn');
    await B.waitForSelector('#account-error:has-text("wrong username or password")');
    await B.fill('#login-password', 'bob-secret-pw');
    await B.click('#login-btn');
    await B.waitForSelector('#account-name:has-text("Logged in as bob")');
    // Bob's session shows Bob's games, not Ann's.
    assert.equal((await fetchAs(B, 'GET', '/api/account/games')).body.games.length, 0);

    // A rated game: Ann starts it from her account page, Bob takes the
    // invited seat with the link she sends him.
    await A.goto(`${srv.url}/account`);
    await A.selectOption('#rated-game', 'sprouts');
    await A.click('#rated-btn');
    const invite = await A.inputValue('#rated-invite');
    const [, id, t1] = /** @type {RegExpMatchArray} */ (invite.match(/\/play\/([a-z0-9]+)#([A-Za-z0-9_-]+)$/));
    await A.click('#rated-play');
    await A.waitForFunction(() => document.body.dataset.seat === '0');
    const annToken = await A.evaluate((gid) => JSON.parse(localStorage.getItem('parlor.tokens') || '{}')[gid], id);
    // A guest cannot take a rated seat.
    const guestJoin = await fetch(`${srv.url}/api/games/${id}/join`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: t1 }) });
    assert.equal(guestJoin.status, 401);
    await B.goto(invite);
    await B.waitForFunction(() => document.body.dataset.seat === '1');
    const summary = (await fetchAs(B, 'GET', `/api/games/${id}`)).body;
    assert.equal(summary.rated, true);
    assert.deepEqual(summary.seats.map((/** @type {any} */ s) => s.account), ['ann', 'bob']);
    // The game page says it is rated, and names the players by their
    // accounts (not the guest names they had in this browser).
    for (const P of [A, B]) {
      await P.waitForSelector('#rated-chip:has-text("Rated")');
      const seats = await P.locator('#seats').innerText();
      assert.match(seats, /ann \(P1\)/, seats);
      assert.match(seats, /bob \(P2\)/, seats);
    }
    // The invite is spent: Bob's seat has his own secret, and only his
    // session plays it.
    const bobToken = await B.evaluate((gid) => JSON.parse(localStorage.getItem('parlor.tokens') || '{}')[gid], id);
    assert.notEqual(bobToken, t1);
    const byAnn = await fetchAs(A, 'POST', `/api/games/${id}/actions`, { token: bobToken, action: { type: 'pass' } });
    assert.equal(byAnn.status, 403);
    assert.equal(byAnn.body.error.code, 'not_your_seat');
    const byInvite = await fetchAs(A, 'POST', `/api/games/${id}/actions`, { token: t1, action: { type: 'pass' } });
    assert.equal(byInvite.body.error.code, 'bad_token');
    await playOut(id, [{ page: A, token: annToken }, { page: B, token: bobToken }]);
    const over = (await fetchAs(A, 'GET', `/api/games/${id}`)).body;
    const winner = over.outcome.ranking[0][0];

    // The game's result shows what it did to both ratings, on each
    // player's page (B's on a phone-sized screen).
    const shot = shots('rated');
    await B.setViewportSize({ width: 390, height: 844 });
    for (const P of [A, B]) {
      await P.waitForSelector('#ranking .rating-change[data-seat="1"]');
      for (const seat of [0, 1]) {
        const text = (await P.locator(`#ranking .rating-change[data-seat="${seat}"]`).textContent()) || '';
        const m = /rating 1500 → (\d+) \(([+−])(\d+)\)/.exec(text);
        assert.ok(m, text);
        assert.equal(m[2], seat === winner ? '+' : '−', text);
        assert.equal(Math.abs(Number(m[1]) - 1500), Number(m[3]), text);
      }
    }
    await shot(A, 'desktop-result');
    await shot(B, 'phone-result');

    // Both profiles show the rating change, in opposite directions.
    for (const [seat, name, page] of /** @type {[number, string, import('playwright-core').Page][]} */ ([[0, 'ann', A], [1, 'bob', B]])) {
      await page.goto(`${srv.url}/u/${name}`);
      await page.waitForSelector('#profile-name');
      const rating = Number(((await page.locator('#ratings tr[data-game="sprouts"] .rating').textContent()) || '').replace('?', ''));
      const change = (await page.locator(`#profile-games li[data-game="${id}"] .rating-change`).textContent()) || '';
      assert.match(change, new RegExp(`rating 1500 → ${rating}`));
      if (seat === winner) assert.ok(rating > 1500, `${name} won: ${rating}`);
      else assert.ok(rating < 1500, `${name} lost: ${rating}`);
    }
    // The lobby shows the logged-in player's rating; the leaderboard both.
    await A.goto(srv.url + '/');
    await A.waitForSelector('#lobby-ratings:has-text("Sprouts")');
    assert.equal(await A.textContent('#account-link'), 'ann');
    // A logged-in player may create a rated game from the lobby's form.
    await A.waitForSelector('#rated-label:not([hidden])');
    await A.selectOption('#game', 'sprouts');
    await A.check('#rated');
    const [created] = await Promise.all([
      A.waitForResponse((r) => r.url().endsWith('/api/games') && r.request().method() === 'POST'),
      A.click('#create-form button[type="submit"]'),
    ]);
    assert.equal(JSON.parse(created.request().postData() || '{}').rated, true);
    assert.ok(created.ok(), `the rated game is created: ${await created.text()}`);
    await A.waitForSelector('#created .invite');
    await A.goto(`${srv.url}/leaderboard`);
    await A.waitForSelector('#board-sprouts li');
    const board = await A.locator('#board-sprouts li').allTextContents();
    assert.equal(board.length, 2);
    assert.match(board[0], new RegExp(['ann', 'bob'][winner]));

    // The replay viewer, from Ann's profile.
    await A.goto(`${srv.url}/u/ann`);
    await A.click(`#profile-games li[data-game="${id}"] a.replay-link`);
    await A.waitForURL(`${srv.url}/replay/${id}`);
    const steps = (await fetchAs(A, 'GET', `/api/games/${id}/record`)).body.actions.length;
    await A.waitForSelector(`#replay-step:has-text("Move 0 of ${steps}")`);
    await A.keyboard.press('ArrowRight');
    await A.waitForSelector(`#replay-step:has-text("Move 1 of ${steps}")`);
    await A.waitForSelector('#replay-move:has-text("Move 1: Ann")');
    await A.click('#replay-next');
    await A.waitForSelector(`#replay-step:has-text("Move 2 of ${steps}")`);
    await A.keyboard.press('End');
    await A.waitForSelector(`#replay-step:has-text("Move ${steps} of ${steps}")`);
    await A.keyboard.press('ArrowLeft');
    await A.waitForSelector(`#replay-step:has-text("Move ${steps - 1} of ${steps}")`);
    await A.keyboard.press('Home');
    await A.waitForSelector(`#replay-step:has-text("Move 0 of ${steps}")`);
    assert.ok(((await A.textContent('#replay-board')) || '').length > 0, 'the game is drawn');
    // The game's own solver: its verdict on the whole game, then on the
    // move shown.
    await A.click('#replay-helper-btn');
    await A.waitForSelector('#replay-helper:has-text("first_player_wins")');
    await A.keyboard.press('ArrowRight');
    await A.waitForSelector(`#replay-step:has-text("Move 1 of ${steps}")`);
    await A.click('#replay-helper-btn');
    await A.waitForSelector('#replay-helper:has-text("Move 1:")');
    const verdict = (await A.textContent('#replay-helper')) || '';
    assert.match(verdict, /"number": 1\b/);
    assert.match(verdict, /"mistake": (true|false)/);
    // The record, as offered for download, replays with `parlor replay`.
    const text = await A.inputValue('#replay-record');
    const file = join(srv.dir, 'record.json');
    writeFileSync(file, text);
    const out = execFileSync(parlorBin(), ['replay', file], { encoding: 'utf8' });
    assert.match(out, /every one legal/);
    assert.equal(await A.getAttribute('#replay-download', 'download'), `parlor-sprouts-${id}.json`);
  });
});

test('a form on another site cannot act for a logged-in player', { timeout: 60000 }, async () => {
  const cy = await player(browser, 'Cy');
  const C = cy.page;
  await withArtifacts([cy], async () => {
    await signUp(C, srv.url, 'cyd');
    // A page elsewhere posts a form to parlor's logout and game creation.
    await cy.context.route('http://evil.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<form id="f" method="post" enctype="text/plain" action="${srv.url}/api/account/logout"></form>
               <script>document.getElementById('f').submit()</script>`,
      }),
    );
    await C.goto('http://evil.test/');
    await C.waitForURL(`${srv.url}/api/account/logout`);
    assert.match((await C.textContent('body')) || '', /cross_site/);
    await C.goto(`${srv.url}/account`);
    await C.waitForSelector('#account-name:has-text("Logged in as cyd")');
  });
});

test('every game: a finished game replays in the viewer, and its record with parlor replay', { timeout: 240000 }, async () => {
  const dee = await player(browser, 'Dee');
  const D = dee.page;
  await withArtifacts([dee], async () => {
    const catalog = await srv.api('/api/catalog');
    assert.ok(catalog.games.length >= 5, 'the five games');
    for (const g of catalog.games) {
      // The computer against itself, to the end (Gobble's round: 2 s).
      const config = g.name === 'gobble' ? { seconds: 2 } : g.name === 'sprouts' ? { spots: 1 } : {};
      const created = await srv.api('/api/games', { game: g.name, config, bots: [{ seat: 0, level: 'easy' }, { seat: 1, level: 'easy' }] });
      const id = created.game.id;
      // Bots play bots only while somebody watches.
      await D.goto(`${srv.url}/play/${id}`);
      let summary = created.game;
      for (let i = 0; i < 600 && summary.status !== 'over'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        summary = await srv.api(`/api/games/${id}`);
      }
      assert.equal(summary.status, 'over', `${g.name}: the bots finished`);
      // As the server wrote it: a seed above 2^53 does not survive
      // JavaScript's numbers.
      const text = await (await fetch(`${srv.url}/api/games/${id}/record`)).text();
      const record = JSON.parse(text);
      const file = join(srv.dir, `${g.name}.json`);
      writeFileSync(file, text);
      const out = execFileSync(parlorBin(), ['replay', file], { encoding: 'utf8' });
      assert.match(out, /every one legal/, `${g.name}: parlor replay reads the server's record`);
      const steps = record.actions.length;
      await D.goto(`${srv.url}/replay/${id}`);
      await D.waitForSelector(`#replay-step:has-text("Move 0 of ${steps}")`);
      await D.keyboard.press('End');
      await D.waitForSelector(`#replay-step:has-text("Move ${steps} of ${steps}")`);
      await D.keyboard.press('ArrowLeft');
      await D.waitForSelector(`#replay-step:has-text("Move ${steps - 1} of ${steps}")`);
      assert.equal(await D.textContent('#replay-error'), '', `${g.name}: no error shown`);
      if (g.name === 'wordsprout') {
        // The game's own helper panel, at the end of the game, answers
        // through the server's helper (the finished game's, as a spectator).
        await D.keyboard.press('End');
        await D.waitForSelector(`#replay-step:has-text("Move ${steps} of ${steps}")`);
        await D.click('#ws-helper-btn');
        await D.fill('#ws-helper-string', 'omat');
        await D.click('#ws-helper-form button[type=submit]');
        await D.waitForFunction(() => {
          const t = document.getElementById('ws-helper-result')?.textContent || '';
          return t.length > 0 && !t.startsWith('…');
        });
        assert.match((await D.textContent('#ws-helper-result')) || '', /tomato|stomach|OMAT/i);
      }
      // What the viewer offers to download and copy is that same text.
      assert.equal(await D.inputValue('#replay-record'), text, `${g.name}: the record as stored`);
    }
  });
});
