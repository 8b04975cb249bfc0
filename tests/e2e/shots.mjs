// Screenshots of the lobby and both game pages (a manual check, not a test):
// node shots.mjs [outdir]
import { ParlorServer, launch, player } from './harness.mjs';
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
} finally {
  await browser.close();
  await srv.stop();
}
