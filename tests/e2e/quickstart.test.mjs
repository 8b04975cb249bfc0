// The lobby's quick start (issue 20): every hosted game has a card with how
// to play it, a link to its rules page and its presets, each preset shown
// as the settings it sets in their own words; one click plays the computer
// with the chosen preset, invites a friend, or opens a seat that shows up in
// another lobby's open games without a reload. The full settings stay
// under "More rules", where a preset fills the form in.
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

/** A player whose lobby starts as a newcomer's: "More rules" closed. @param {string} name */
async function newcomer(name) {
  const p = await player(browser, name);
  await p.context.addInitScript(() => {
    if (!sessionStorage.getItem('seen')) {
      sessionStorage.setItem('seen', '1');
      localStorage.setItem('parlor.more-rules', 'closed');
    }
  });
  return p;
}

test('quick start: a card per game, presets in the settings\' words, one click to play the computer', { timeout: 60000 }, async () => {
  const ann = await newcomer('Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    const catalog = await (await fetch(srv.url + '/api/catalog')).json();
    assert.equal(catalog.games.length, 5, 'the five games are hosted');
    await A.goto(srv.url + '/');
    await A.waitForSelector('#quick .quick-game');
    assert.equal(await A.locator('#more-rules').evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open), false, 'the full form starts folded');
    assert.equal(await A.locator('#create-form').isVisible(), false);
    for (const g of catalog.games) {
      const card = A.locator(`#quick-${g.name}`);
      assert.ok(g.how_to_play.length > 40, `${g.name}: a how-to-play`);
      assert.equal(await card.locator('.how').innerText(), g.how_to_play);
      assert.equal(await card.locator('a.rules-link').getAttribute('href'), `/rules/${g.name}`);
      assert.ok(g.presets.length >= 2, `${g.name}: presets`);
      assert.equal(await card.locator('input[type=radio]').count(), g.presets.length);
      // The first preset is chosen, and each rule it sets is explained in
      // one line: the setting's label and its help, as the game declares.
      const shown = await card.locator('.preset-rules li').allInnerTexts();
      const first = g.presets[0];
      assert.equal(shown.length, Object.keys(first.values).length, `${g.name}: one line per rule`);
      for (const field of Object.keys(first.values)) {
        const s = g.settings.find((/** @type {any} */ x) => x.field === field);
        assert.ok(s, `${g.name}: ${field} is a declared setting`);
        // A switch that is off says only that: its help tells what it
        // does when on (Sprouts' "Misère: off", not "— the last player to
        // move loses").
        const off = s.kind.type === 'bool' && !first.values[field];
        assert.ok(shown.some((l) => (off ? l === `${s.label}: off` : l.startsWith(`${s.label}: `) && l.endsWith(`— ${s.help}`))), `${g.name}: ${field} explained: ${shown}`);
        if (g.name === 'sprouts' && field === 'misere') assert.ok(shown.includes('Misère: off'), `${shown}`);
      }
    }

    // The rules page: the game's rules document as HTML, with a way back.
    const res = await fetch(`${srv.url}/rules/gobble`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') || '', /text\/html/);
    const [popup] = await Promise.all([A.context().waitForEvent('page'), A.click('#quick-gobble a.rules-link')]);
    await popup.waitForSelector('main.rules-doc h1');
    assert.match(await popup.locator('main.rules-doc h1').innerText(), /Gobble/);
    assert.match(await popup.title(), /Gobble/);
    assert.ok(await popup.locator('main.rules-doc h2#scoring').count(), 'sections can be linked to');
    await popup.close();
    assert.equal((await fetch(`${srv.url}/rules/chess`)).status, 404);

    // Gobble "Quick": the round's rule changes in the explanation, and one
    // click starts a game against the computer with exactly those rules.
    await A.check('#preset-gobble-quick');
    await A.waitForSelector('#preset-rules-gobble li:has-text("Round (seconds): 90")');
    await A.selectOption('#quick-level-gobble', 'easy');
    await A.click('#quick-bot-gobble');
    await A.waitForURL(/\/play\//);
    await A.waitForFunction(() => document.body.dataset.seat === '0');
    const id = new URL(A.url()).pathname.split('/')[2];
    const game = await (await fetch(`${srv.url}/api/games/${id}`)).json();
    assert.equal(game.game, 'gobble');
    assert.equal(game.config.seconds, 90);
    assert.equal(game.config.size, 4);
    assert.equal(game.seats[1].kind, 'bot');
    assert.equal(game.seats[1].level, 'easy');
    assert.equal(game.seats[0].name, 'Ann');
  });
});

test('quick start: invite a friend, and an open seat shows up in another lobby without a reload', { timeout: 60000 }, async () => {
  const ann = await newcomer('Ann');
  const bea = await newcomer('Bea');
  const A = ann.page, B = bea.page;
  await withArtifacts([ann, bea], async () => {
    await A.goto(srv.url + '/');
    await B.goto(srv.url + '/');
    await A.waitForSelector('#quick-sprouts');
    await B.waitForSelector('#open-games');

    // Invite: the link is shown on the card; the friend who opens it sits
    // as player 2. The game is private: it is not in the open games.
    await A.check('#preset-sprouts-misere');
    await A.click('#quick-invite-sprouts');
    const invite = A.locator('#quick-sprouts input.invite');
    await invite.waitFor();
    const link = await invite.inputValue();
    assert.match(link, /\/play\/[^#]+#[0-9a-f]{32}$/);
    const invited = new URL(link).pathname.split('/')[2];
    const g = await (await fetch(`${srv.url}/api/games/${invited}`)).json();
    assert.equal(g.public, false);
    assert.equal(g.config.misere, true);
    assert.equal(g.config.spots, 4);
    const bTab = await bea.context.newPage();
    await bTab.goto(link);
    await bTab.waitForFunction(() => document.body.dataset.seat === '1');
    await bTab.close();

    // Open to anyone: Ann waits at the table; Bea's lobby, loaded before,
    // lists the game by itself and sits her down.
    await A.click('#quick-open-twingrid');
    await A.waitForURL(/\/play\//);
    const open = new URL(A.url()).pathname.split('/')[2];
    const seat = B.locator(`#open-games li:has(a[href="/play/${open}"]) button:has-text("Sit as player 2")`);
    await seat.waitFor({ timeout: 20000 });
    await seat.click();
    await B.waitForURL(new RegExp(`/play/${open}`));
    await B.waitForFunction(() => document.body.dataset.seat === '1');
    await A.waitForSelector('#seats li[data-seat="1"] .mark.online');
  });
});

test('More rules: the full form, filled in from a preset', { timeout: 60000 }, async () => {
  const ann = await newcomer('Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    await A.goto(srv.url + '/');
    await A.click('#more-rules > summary');
    await A.waitForSelector('#create-form #game');
    await A.selectOption('#game', 'wordsprout');
    await A.waitForSelector('#wordsprout-rules');
    assert.ok(await A.isChecked('#wordsprout-rules input[value="challenge"]'), 'the defaults first');
    await A.selectOption('#preset', 'first-game');
    await A.waitForFunction(() => !(/** @type {HTMLInputElement} */ (document.querySelector('#wordsprout-rules input[value="challenge"]'))).checked);
    assert.equal(await A.locator('#wordsprout-rules input[type=checkbox][name]:checked').count(), 0, 'core rules only');
    assert.ok(await A.isChecked('#ws-hints'), 'the helper on');
    // The choice to open "More rules" is remembered.
    await A.reload();
    await A.waitForSelector('#create-form #game');
    assert.ok(await A.locator('#more-rules').evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open));
  });
});
