// parlor can be installed as an app (issue 43 item 10): every page links a
// web app manifest, served at the site's root with its own content type,
// whose icons load and are the sizes it says; Chromium finds no error in it
// and nothing that keeps the lobby from being installed. No service worker:
// every page needs the live server (games, chat, clocks), so an offline
// copy would only show a page that cannot play.
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

/** A PNG's width and height, from its header. @param {ArrayBuffer} buf */
function pngSize(buf) {
  const v = new DataView(buf);
  assert.equal(v.getUint32(0), 0x89504e47, 'a PNG');
  return `${v.getUint32(16)}x${v.getUint32(20)}`;
}

test('the lobby is installable: a manifest with icons, no errors in Chromium', { timeout: 60000 }, async () => {
  const res = await fetch(`${srv.url}/manifest.webmanifest`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') || '', /application\/manifest\+json/);
  const manifest = await res.json();
  assert.equal(manifest.start_url, '/');
  assert.equal(manifest.display, 'standalone');
  const pngs = manifest.icons.filter((/** @type {any} */ i) => i.type === 'image/png');
  assert.deepEqual(pngs.map((/** @type {any} */ i) => i.sizes).sort(), ['192x192', '512x512']);
  for (const icon of manifest.icons) {
    const r = await fetch(new URL(icon.src, srv.url));
    assert.equal(r.status, 200, icon.src);
    assert.equal(r.headers.get('content-type'), icon.type, icon.src);
    if (icon.type === 'image/png') assert.equal(pngSize(await r.arrayBuffer()), icon.sizes, icon.src);
  }
  const ann = await player(browser, 'Ann');
  await withArtifacts([ann], async () => {
    const A = ann.page;
    for (const path of ['/', '/account', '/play/nosuchgame', '/rules/sprouts']) {
      await A.goto(srv.url + path);
      assert.equal(await A.locator('link[rel=manifest]').getAttribute('href'), '/manifest.webmanifest', path);
    }
    await A.goto(srv.url + '/');
    await A.waitForSelector('#quick .quick-game');
    const cdp = await A.context().newCDPSession(A);
    const got = await cdp.send('Page.getAppManifest');
    assert.deepEqual(got.errors, [], 'Chromium reads the manifest without errors');
    assert.equal(got.url, `${srv.url}/manifest.webmanifest`);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    // A test browser's context is a private window, where Chromium never
    // installs anything ('in-incognito'); nothing else may stand in the way
    // (no manifest, no icon, icon too small, not standalone...).
    const blocking = installabilityErrors.filter((/** @type {any} */ e) => e.errorId !== 'in-incognito');
    assert.deepEqual(blocking, [], 'nothing of ours keeps the lobby from being installed');
  });
});
