// The lobby's rules form is drawn from the settings each game declares
// (GET /api/catalog `settings`, docs/api.md "Settings"): every declared
// setting has its input and its help, the values land in the rules at their
// field, the seat count writes the game's seats field, and bad entries are
// said in the lobby before anything is created.
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

test('Lobby: each game\'s rules form drawn from its declared settings', { timeout: 30000 }, async () => {
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    const catalog = await (await fetch(srv.url + '/api/catalog')).json();
    await A.goto(srv.url + '/');

    for (const game of catalog.games.filter((/** @type {any} */ g) => g.settings.length)) {
      await A.selectOption('#game', game.name);
      await A.waitForSelector(`#${game.name}-rules`);
      const text = await A.locator(`#${game.name}-rules`).innerText();
      for (const s of game.settings) {
        if (s.kind.type === 'seats' || s.kind.type === 'word_list') continue;
        assert.ok(text.includes(s.label), `${game.name}: ${s.label} shown`);
        assert.ok(text.includes(s.help), `${game.name}: the help of ${s.field} shown`);
      }
      // A game with a fixed table (Sprouts: two) declares no seats setting:
      // the lobby takes the range from the catalog's min_seats/max_seats.
      const seats = game.settings.find((/** @type {any} */ s) => s.kind.type === 'seats');
      assert.equal(await A.getAttribute('#seats', 'max'), String(seats ? seats.kind.max : game.max_seats), `${game.name}: seat range from its settings`);
      assert.equal(await A.locator('#word-list').isVisible(), game.settings.some((/** @type {any} */ s) => s.kind.type === 'word_list'));
    }

    // Gobble: a choice, a number, a text; three seats, one of them a bot.
    await A.selectOption('#game', 'gobble');
    await A.waitForSelector('#gobble-rules');
    await A.fill('#seats', '3');
    await A.locator('#seats').dispatchEvent('change');
    await A.selectOption('#gb-size', { label: '5x5' });
    await A.selectOption('#gb-scoring', { label: 'Boggle' });
    await A.fill('#gb-seconds', '60');
    await A.fill('#gb-keyphrase', 'purr applause quack persuader');
    await A.selectOption('#seat-2', 'bot:easy');
    await A.click('#create-form button[type=submit]');
    await A.waitForSelector('#go-play');
    const gid = new URL(await A.getAttribute('#go-play', 'href') || '', srv.url).pathname.split('/')[2];
    const g = await (await fetch(`${srv.url}/api/games/${gid}`)).json();
    assert.equal(g.seats.length, 3);
    assert.equal(g.config.seats, 3);
    assert.equal(g.config.size, 5);
    assert.equal(g.config.scoring, 'boggle');
    assert.equal(g.config.seconds, 60);
    assert.equal(g.config.keyphrase, 'purr applause quack persuader');

    // Word Sprout: flags, an optional text left out, a bool, an optional
    // number; a bad entry is refused in the lobby.
    await A.selectOption('#game', 'wordsprout');
    await A.waitForSelector('#wordsprout-rules');
    await A.fill('#seats', '2');
    await A.locator('#seats').dispatchEvent('change');
    await A.selectOption('#seat-1', 'human');
    await A.uncheck('#wordsprout-rules input[value="challenge"]');
    await A.check('#wordsprout-rules input[value="no-plurals"]');
    await A.check('#ws-hints');
    await A.fill('#ws-vowels', 'aeiouy');
    await A.fill('#ws-rounds', '2');
    await A.click('#create-form button[type=submit]');
    await A.waitForSelector('#created h3:has-text("Word Sprout created")');
    const wid = new URL(await A.getAttribute('#go-play', 'href') || '', srv.url).pathname.split('/')[2];
    const w = await (await fetch(`${srv.url}/api/games/${wid}`)).json();
    assert.equal(w.config.players, 2);
    assert.ok(w.config.rules.includes('no-plurals') && !w.config.rules.includes('challenge'), JSON.stringify(w.config.rules));
    assert.equal(w.config.hints, true);
    assert.equal(w.config.vowels, 'aeiouy');
    assert.equal(w.config.rounds, 2);
    assert.equal(w.config.lexicon, 'en');
    // The game refuses rules it cannot play: its message, in the lobby.
    await A.fill('#ws-vowels', 'a1');
    await A.click('#create-form button[type=submit]');
    await A.waitForSelector('#created .error:has-text("vowels")');
  });
});
