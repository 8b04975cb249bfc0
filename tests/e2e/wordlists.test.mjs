// Word lists in the lobby (docs/api.md "upload a word list"): a player's own
// file uploaded from the lobby (the file picker), with the words read and
// the first skipped line shown, then a Word Sprout game on it against a
// second browser, where a play only that list allows is accepted (and the
// same play is refused on `en`); both game pages name the list. Bad uploads
// (an empty file, a file of no word, a dropped file, an unknown shared id)
// are refused with the server's reason in the lobby, and a shared id is
// used. A Gobble game on `en-large`, created on a phone: the game uses it,
// one countdown, and at the end a word's path shown on the small board
// beside the list of every word, in view where the player taps.
// Any uncaught page error or console error fails the test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ParlorServer, launch, player, withArtifacts, PHONE, createWithFriend, openRules } from './harness.mjs';

/** @type {ParlorServer} */ let srv;
/** @type {import('playwright-core').Browser} */ let browser;
/** The id of the list uploaded by the first test. */
let uploadedId = '';

before(async () => {
  srv = new ParlorServer();
  await srv.start();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await srv?.stop();
});

/** A made-up word: no English word holds "qz", so "qz" is only valid here. */
const LIST = '# zed words\nblorqzit\nhello\nnot a word\n';

/** @param {import('playwright-core').Page} page @param {string} s */
async function waitString(page, s) {
  await page.waitForFunction((want) => Array.from(document.querySelectorAll('#ws-string .letter')).map((e) => e.textContent).join('') === want, s.toUpperCase(), { timeout: 10000 });
}

/** @param {import('playwright-core').Page} page @param {string} s */
async function play(page, s) {
  await page.waitForSelector('#ws-status:has-text("Your turn")');
  await page.fill('#ws-whole', s);
  await page.press('#ws-whole', 'Enter');
}

/** @param {import('playwright-core').Page} page @param {string} name @param {string} text */
async function upload(page, name, text) {
  await page.setInputFiles('#wl-file', { name, mimeType: 'text/plain', buffer: Buffer.from(text) });
}

test('Word lists: a Word Sprout game on a list uploaded in the lobby', { timeout: 60000 }, async () => {
  const ann = await player(browser, 'Ann');
  const bea = await player(browser, 'Bea');
  const A = ann.page, B = bea.page;
  await withArtifacts([ann, bea], async () => {
    await openRules(A, srv.url, 'wordsprout');
    // The server's lists, with their word counts; en by default.
    assert.equal(await A.inputValue('#lexicon'), 'en');
    const offered = await A.locator('#lexicon option').allTextContents();
    assert.ok(offered.some((o) => /^en — 111,593 words \(default\)$/.test(o)), offered.join(' | '));
    assert.ok(offered.some((o) => /^en-large — 242,844 words$/.test(o)), offered.join(' | '));

    await A.click('#wl-own summary');
    await upload(A, 'zed-words.txt', LIST);
    const ok = A.locator('#wl-ok');
    await ok.waitFor();
    assert.match(await ok.innerText(), /zed-words\.txt: 2 words read; 1 line skipped \(the first: “not a word”\)/);
    uploadedId = await A.inputValue('#lexicon');
    assert.match(uploadedId, /^upload-[0-9a-f]+$/);
    assert.match(await A.locator('#lexicon option:checked').innerText(), /zed-words\.txt — 2 words \(uploaded\)/);
    assert.equal(await A.locator('#wl-result code').innerText(), uploadedId, 'the id to share');

    // Challenges off: an invalid string is refused at once (not a bluff).
    await A.uncheck('#wordsprout-rules input[value="challenge"]');
    const invite = await createWithFriend(A);
    await B.goto(invite);

    for (const p of [A, B]) {
      await p.waitForSelector('#word-list .wl-name:has-text("zed-words.txt")');
      assert.match(await p.locator('#word-list').innerText(), /Word list: zed-words\.txt · 2 words\s+uploaded, id upload-/);
    }
    const gameId = new URL(invite).pathname.split('/')[2];
    const summary = await srv.api(`/api/games/${gameId}`);
    assert.equal(summary.config.lexicon, uploadedId);
    assert.ok(!summary.config.rules.includes('challenge'));

    // "QZ" is a piece of BLORQZIT: accepted on this list.
    await play(A, 'q');
    await waitString(B, 'q');
    await play(B, 'qz');
    await waitString(A, 'qz');
    await A.waitForSelector('#ws-status:has-text("Your turn")');

    // The same play on en (same rules) is refused.
    const en = await srv.api('/api/games', { game: 'wordsprout', config: { ...summary.config, lexicon: 'en' }, take_seat: 0 });
    const enInvite = en.seats.find((/** @type {any} */ s) => s.seat === 1).token;
    // The invite is traded for Bea's own secret as she joins.
    const t1 = (await srv.api(`/api/games/${en.game.id}/join`, { token: enInvite, name: 'Bea' })).token;
    await srv.api(`/api/games/${en.game.id}/actions`, { token: en.you.token, action: { type: 'play', string: 'q' } });
    const res = await fetch(`${srv.url}/api/games/${en.game.id}/actions`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: t1, action: { type: 'play', string: 'qz' } }),
    });
    assert.equal(res.status, 409);
    assert.equal((await res.json()).error.code, 'illegal_action');
    // Its page names en, with the word count.
    await B.goto(`${srv.url}/play/${en.game.id}#${t1}`);
    await B.waitForSelector('#word-list:has-text("Word list: en · 111,593 words")');
  });
});

test('Word lists: bad uploads refused clearly in the lobby; a shared id used', { timeout: 30000 }, async () => {
  const cat = await player(browser, 'Cat');
  const C = cat.page;
  await withArtifacts([cat], async () => {
    await C.goto(srv.url + '/');
    await C.selectOption('#game', 'wordsprout');
    await C.click('#wl-own summary');

    await upload(C, 'empty.txt', '');
    const err = C.locator('#wl-error');
    await err.waitFor();
    assert.match(await err.innerText(), /⚠ empty\.txt was not used: no word could be read from it\.\s+The word list has no words \(0 lines skipped\)/);
    assert.equal(await err.getAttribute('role'), 'alert');
    assert.equal(await C.inputValue('#lexicon'), 'en', 'the choice is unchanged');
    assert.match(await C.locator('#wl-result').innerText(), /The game will use en/);

    await upload(C, 'numbers.txt', '123\nno way\n');
    await C.waitForSelector('#wl-error:has-text("numbers.txt was not used")');
    assert.match(await err.innerText(), /2 lines skipped/);

    // A file dropped on the picker is uploaded too (here: not UTF-8).
    const dt = await C.evaluateHandle(() => {
      const d = new DataTransfer();
      d.items.add(new File([new Uint8Array([0xff, 0xfe, 0x00, 0x61])], 'binary.dat'));
      return d;
    });
    await C.dispatchEvent('#wl-drop', 'drop', { dataTransfer: dt });
    await C.waitForSelector('#wl-error:has-text("binary.dat was not used")');

    // An id nobody uploaded; then the one shared by the first test.
    await C.fill('#wl-id', 'upload-0123456789abcdef');
    await C.click('#wl-use');
    await C.waitForSelector('#wl-error:has-text("this server has no list with that id")');
    assert.ok(uploadedId, 'the first test uploaded a list');
    await C.fill('#wl-id', `  ${uploadedId} `);
    await C.press('#wl-id', 'Enter'); // uses the id, does not create the game
    await C.waitForSelector('#wl-ok:has-text("zed-words.txt: 2 words")');
    assert.equal(await C.inputValue('#lexicon'), uploadedId);
    assert.equal(await C.locator('#created').innerText(), '');
  });
});

test('Word lists: a Gobble game on en-large from a phone; one countdown; a path shown beside the word list', { timeout: 45000 }, async () => {
  const dan = await player(browser, 'Dan', PHONE);
  const D = dan.page;
  await withArtifacts([dan], async () => {
    await D.goto(srv.url + '/');
    await D.selectOption('#game', 'gobble');
    await D.waitForSelector('#gobble-rules');
    await D.fill('#seats', '1');
    await D.locator('#seats').dispatchEvent('change');
    await D.fill('#gb-seconds', '10'); // the shortest round Gobble's settings offer
    await D.fill('#gb-keyphrase', 'purr applause quack persuader');
    await D.selectOption('#lexicon', 'en-large');
    assert.ok(await D.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'the lobby fits the phone');
    await D.click('#create-form button[type=submit]');
    await D.click('#go-play');
    await D.waitForSelector('#word-list:has-text("Word list: en-large · 242,844 words")');
    const id = new URL(D.url()).pathname.split('/')[2];
    assert.equal((await srv.api(`/api/games/${id}`)).config.lexicon, 'en-large');

    // One countdown: above the board, none in the header.
    await D.waitForSelector('#gb-timer.live:has-text("left")');
    assert.equal(await D.locator('#shell-clock').innerText(), '');
    // It stays in view when the page is scrolled down to the word box and list.
    await D.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    assert.ok(await D.evaluate(() => scrollY > 100), 'the page scrolled');
    const tb = await D.locator('#gb-timer').boundingBox();
    assert.ok(tb && tb.y >= 0 && tb.y < 60, `the countdown is in view: ${JSON.stringify(tb)}`);

    // The end: the last word of the long list, tapped, lights its path on
    // the small board, which is in view beside it.
    await D.waitForSelector('#gb-timer:has-text("time is up")', { timeout: 15000 });
    await D.click('#gb-all summary');
    const words = D.locator('#gb-all ul.all-words button');
    assert.ok((await words.count()) >= 40);
    const last = words.last();
    await last.scrollIntoViewIfNeeded();
    const word = /** @type {string} */ (await last.getAttribute('data-word'));
    await last.tap();
    const lit = D.locator('#gb-mini .cell.on');
    await D.waitForFunction(() => document.querySelectorAll('#gb-mini .cell.on').length > 0);
    assert.ok((await lit.count()) >= Math.ceil(word.length / 2), `${word}: ${await lit.count()} cells lit`);
    const box = await D.locator('#gb-mini').boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= PHONE.viewport.height, `the small board is in view: ${JSON.stringify(box)}`);
    assert.ok(await D.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'the page fits the phone');
  });
});
