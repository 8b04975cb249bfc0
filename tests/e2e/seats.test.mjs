// Seats stay private (issue 16): an invite link's token leaves the address
// bar as soon as the page has read it (a copied address only ever invites a
// spectator) and a reload keeps the seat from localStorage; the lobby sits
// a stranger in an open seat only, never in an invited one.
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

test('an invite link works once: the token leaves the address bar, a reload keeps the seat', { timeout: 60000 }, async () => {
  const bea = await player(browser, 'Bea');
  const cy = await player(browser, 'Cy');
  const B = bea.page, C = cy.page;
  await withArtifacts([bea, cy], async () => {
    const created = await srv.api('/api/games', { game: 'wordsprout', take_seat: 0, name: 'Ann' });
    const id = created.game.id;
    const t1 = tokenOf(created, 1);
    await B.goto(`${srv.url}/play/${id}#${t1}`);
    await B.waitForSelector('#seats li[data-seat="1"]:has-text("you")');
    await B.waitForFunction(() => document.body.dataset.seat === '1');
    // The address holds no token: copying it invites a spectator.
    const address = B.url();
    assert.equal(address, `${srv.url}/play/${id}`);
    assert.ok(!address.includes(t1));
    // The invite is used once: the seat's own secret, minted for Bea,
    // is kept by game id in localStorage.
    const kept = await B.evaluate((gid) => JSON.parse(localStorage.getItem('parlor.tokens') || '{}')[gid], id);
    assert.match(kept, /^[0-9a-f]{32}$/);
    assert.notEqual(kept, t1);
    // A reload keeps the seat.
    await B.reload();
    await B.waitForSelector('#seats li[data-seat="1"]:has-text("you")');
    await B.waitForFunction(() => document.body.dataset.seat === '1');
    assert.equal(B.url(), address);
    // Cy opens the copied address: he watches, and cannot act for Bea.
    await C.goto(address);
    await C.waitForSelector('#you:has-text("You are watching")');
    await C.waitForFunction(() => document.body.dataset.seat === 'spectator');
    // Cy opens the invite link itself, once Bea has used it: it takes
    // nothing, and says so.
    await C.goto(`${srv.url}/play/${id}#${t1}`);
    await C.waitForSelector('#you:has-text("You are watching")');
    await C.waitForSelector('text=its seat was taken with it');
    await B.waitForSelector('#seats li[data-seat="1"]:has-text("you")');
    // An invite link pasted into the address bar of an open page (only
    // the fragment changes) takes the seat too, and leaves the bar.
    const other = await srv.api('/api/games', { game: 'wordsprout' });
    await C.goto(`${srv.url}/play/${other.game.id}`);
    await C.waitForSelector('#you:has-text("You are watching")');
    await C.goto(`${srv.url}/play/${other.game.id}#${tokenOf(other, 1)}`);
    await C.waitForSelector('#seats li[data-seat="1"]:has-text("you")');
    assert.equal(C.url(), `${srv.url}/play/${other.game.id}`);
  });
});

test('the lobby seats a stranger in an open seat, never in an invited one', { timeout: 60000 }, async () => {
  const dee = await player(browser, 'Dee');
  const D = dee.page;
  await withArtifacts([dee], async () => {
    const invited = await srv.api('/api/games', { game: 'wordsprout', take_seat: 0, name: 'Ann' });
    const open = await srv.api('/api/games', { game: 'wordsprout', take_seat: 0, name: 'Eve', open_seats: [1] });
    assert.deepEqual(open.seats.map((/** @type {any} */ s) => s.seat), [0], 'an open seat has no token yet');
    await D.goto(srv.url + '/');
    // A game whose free seat is invited is not among the open ones: it
    // is listed with the running games, and offers no seat.
    const invitedRow = D.locator('#live-games li', { hasText: 'Ann' });
    await invitedRow.locator('text=Player 2: invited').waitFor();
    assert.equal(await D.locator('#open-games li', { hasText: 'Ann' }).count(), 0);
    assert.equal(await invitedRow.locator('button:has-text("Sit as player 2")').count(), 0);
    // Dee sits in the open seat: her own new token, kept out of the address.
    await D.locator('#open-games li', { hasText: 'Eve' }).locator('button:has-text("Sit as player 2")').click();
    await D.waitForSelector('#seats li[data-seat="1"]:has-text("you")');
    assert.equal(D.url(), `${srv.url}/play/${open.game.id}`);
    const mine = await D.evaluate((gid) => JSON.parse(localStorage.getItem('parlor.tokens') || '{}')[gid], open.game.id);
    assert.match(mine, /^[0-9a-f]{32}$/);
    assert.notEqual(mine, tokenOf(open, 0));
    // The invited game's page offers Dee no seat either.
    await D.goto(`${srv.url}/play/${invited.game.id}`);
    await D.waitForSelector('#you:has-text("You are watching")');
    assert.equal(await D.locator('#you button').count(), 0);
  });
});

test('a name with a bidirectional control is refused, said, and not kept', { timeout: 60000 }, async () => {
  const ann = await player(browser, 'Ann');
  const A = ann.page;
  await withArtifacts([ann], async () => {
    const created = await srv.api('/api/games', { game: 'wordsprout', take_seat: 0, name: 'Ann' });
    await A.goto(`${srv.url}/play/${created.game.id}#${created.you.token}`);
    await A.waitForFunction(() => document.body.dataset.seat === '0');
    // "Ann" + RIGHT-TO-LEFT OVERRIDE + "gnp.exe" shows as "Annexe.png".
    await A.fill('#rename', 'Ann\u202egnp.exe');
    await A.click('#you button:has-text("Save")');
    await A.waitForSelector('text=U+202E (a bidirectional control)');
    assert.equal(await A.inputValue('#rename'), 'Ann');
    const summary = await (await fetch(`${srv.url}/api/games/${created.game.id}`)).json();
    assert.equal(summary.seats[0].name, 'Ann');
    // A reload keeps the seat and the name the server took.
    await A.reload();
    await A.waitForFunction(() => document.body.dataset.seat === '0');
    assert.equal(await A.inputValue('#rename'), 'Ann');
  });
});
