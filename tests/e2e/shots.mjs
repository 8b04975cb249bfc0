// Screenshots of the lobby and both game pages (a manual check, not a test):
// node shots.mjs [outdir]
import { ParlorServer, launch, player, PHONE } from './harness.mjs';
const out = process.argv[2] || '/tmp/parlor-shots';
const srv = new ParlorServer();
await srv.start();
const browser = await launch();
try {
  const a = await player(browser, 'Ann');
  await a.page.goto(srv.url + '/');
  await a.page.waitForSelector('#create-form button[type=submit]');
  await a.page.waitForTimeout(300);
  await a.page.screenshot({ path: `${out}/lobby.png`, fullPage: true });
  await a.page.selectOption('#game', 'wordsprout');
  await a.page.waitForSelector('#wordsprout-rules');
  await a.page.selectOption('#seat-1', 'human');
  await a.page.click('#create-form button[type=submit]');
  await a.page.waitForSelector('#go-play');
  await a.page.screenshot({ path: `${out}/lobby-created.png`, fullPage: true });
  const ws = await srv.api('/api/games', { game: 'wordsprout', take_seat: 0, name: 'Ann', bots: [{ seat: 1, level: 'easy' }] });
  await a.page.goto(srv.url + ws.seats[0].invite);
  await a.page.waitForSelector('#ws-string .ins');
  await a.page.fill('#ws-whole', 'o');
  await a.page.press('#ws-whole', 'Enter');
  await a.page.waitForSelector('#ws-status:has-text("Your turn")');
  await a.page.waitForFunction(() => document.querySelectorAll('#ws-string .letter').length === 2);
  await a.page.click('#ws-status');
  await a.page.keyboard.press('t');
  await a.page.click('#ws-string [data-point="2"]');
  await a.page.waitForTimeout(200);
  await a.page.screenshot({ path: `${out}/wordsprout.png`, fullPage: true });
  const g = await srv.api('/api/games', { game: 'gobble', config: { seconds: 4, keyphrase: 'purr applause quack persuader' }, take_seat: 0, name: 'Ann', bots: [{ seat: 1, level: 'hard' }] });
  await a.page.goto(srv.url + g.seats[0].invite);
  await a.page.waitForSelector('#gb-grid .cell');
  await a.page.fill('#gb-word', 'felt');
  await a.page.press('#gb-word', 'Enter');
  await a.page.fill('#gb-word', 'zzz');
  await a.page.press('#gb-word', 'Enter');
  await a.page.fill('#gb-word', 'left');
  await a.page.waitForTimeout(300);
  await a.page.screenshot({ path: `${out}/gobble.png`, fullPage: true });
  await a.page.waitForSelector('#gb-table', { timeout: 10000 });
  await a.page.click('#gb-all summary');
  await a.page.screenshot({ path: `${out}/gobble-over.png`, fullPage: true });
  console.log('errors:', a.errors);

  // A Word Sprout table with tiles, collections and a 2-D grid (a second
  // string crossing START), and a 6 x 6 Gobble board: desktop and phone.
  const g2 = await srv.api('/api/games', { game: 'wordsprout', config: { rules: ['two-d', 'tiles', 'vowel-collection', 'challenge', 'metamorphism'] }, take_seat: 0, name: 'Ann' });
  const t0 = g2.you.token, invite = g2.seats.find((/** @type {any} */ s) => s.seat === 1).token;
  // The invite is traded for Bea's own secret when she joins.
  const t1 = (await srv.api(`/api/games/${g2.game.id}/join`, { token: invite, name: 'Bea' })).token;
  const moves = ['s', 'st', 'sta', 'star', 'start'];
  for (let i = 0; i < moves.length; i++) await srv.api(`/api/games/${g2.game.id}/actions`, { token: i % 2 ? t1 : t0, action: { type: 'play', string: moves[i] } });
  const st = await srv.api(`/api/games/${g2.game.id}/state?token=${t1}`);
  await srv.api(`/api/games/${g2.game.id}/actions`, { token: t1, action: st.legal.find((/** @type {any} */ x) => x.type === 'cross' && x.letter === 'o') });
  for (const [label, opts] of /** @type {const} */ ([['desktop', undefined], ['phone', PHONE]])) {
    const p = await player(browser, 'Ann', opts);
    await p.page.goto(srv.url + `/play/${g2.game.id}#${t0}`);
    await p.page.waitForSelector('#ws-board h3');
    await p.page.click('#ws-string [data-point="1"]');
    await p.page.screenshot({ path: `${out}/wordsprout-2d-${label}.png`, fullPage: true });
    await p.page.goto(srv.url + '/');
    await p.page.selectOption('#game', 'wordsprout');
    await p.page.waitForSelector('#wordsprout-rules');
    await p.page.screenshot({ path: `${out}/lobby-${label}.png`, fullPage: true });
    // The word list: an uploaded file's result, then a refused one.
    await p.page.click('#wl-own summary');
    await p.page.setInputFiles('#wl-file', { name: 'zed-words.txt', mimeType: 'text/plain', buffer: Buffer.from('blorqzit\nhello\nnot a word\n') });
    await p.page.waitForSelector('#wl-ok');
    await p.page.locator('#word-list').screenshot({ path: `${out}/lobby-wordlist-${label}.png` });
    await p.page.setInputFiles('#wl-file', { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.from('') });
    await p.page.waitForSelector('#wl-error');
    await p.page.locator('#word-list').screenshot({ path: `${out}/lobby-wordlist-error-${label}.png` });
    const g6 = await srv.api('/api/games', { game: 'gobble', config: { seconds: 60, size: 6, seats: 1 }, take_seat: 0, name: 'Ann' });
    await p.page.goto(srv.url + g6.seats[0].invite);
    await p.page.waitForSelector('#gb-grid .cell');
    await p.page.screenshot({ path: `${out}/gobble6-${label}.png`, fullPage: true });
    // The end of a short round: a word's path on the small board beside the list.
    const gEnd = await srv.api('/api/games', { game: 'gobble', config: { seconds: 2, seats: 1, keyphrase: 'purr applause quack persuader', lexicon: 'en-large' }, take_seat: 0, name: 'Ann' });
    await p.page.goto(srv.url + gEnd.seats[0].invite);
    await p.page.waitForSelector('#gb-table', { timeout: 10000 });
    await p.page.click('#gb-all summary');
    const lastWord = p.page.locator('#gb-all ul.all-words button').last();
    await lastWord.scrollIntoViewIfNeeded();
    await lastWord.click();
    await p.page.screenshot({ path: `${out}/gobble-over-${label}.png` });
    console.log(label, 'errors:', p.errors);
    await p.context.close();
  }
} finally {
  await browser.close();
  await srv.stop();
}
