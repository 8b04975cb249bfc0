// @ts-check
/**
 * The puzzles page (docs/api.md "Puzzles and the daily challenge"): the
 * day's challenges, every set with a button for one of its puzzles, and a
 * mixed stream. A puzzle is played on the game's own page: `play` makes
 * its game and this page goes there.
 */
import { call } from './api.js';
import { h, replace } from './dom.js';
import { playPuzzle } from './puzzle.js';
import { pageFor } from './games/index.js';

const root = /** @type {HTMLElement} */ (document.getElementById('puzzles-page'));

/**
 * A button that plays what `pick` names, with its failure said beside it.
 * @param {string} label @param {string} id @param {() => Promise<string>} pick
 * @param {{daily?: boolean, challenge?: string}} [how]
 */
function playButton(label, id, pick, how) {
  const err = h('span', { class: 'error', role: 'alert' });
  const b = h('button', { type: 'button', class: 'button primary', id }, label);
  b.addEventListener('click', async () => {
    b.setAttribute('disabled', '');
    err.textContent = '';
    try {
      await playPuzzle(await pick(), how);
    } catch (e) {
      err.textContent = /** @type {any} */ (e).message;
      b.removeAttribute('disabled');
    }
  });
  return h('span', null, b, ' ', err);
}

/** @param {string[]} themes */
function themesLine(themes) {
  return themes.length ? h('p', { class: 'themes' }, themes.map((t) => h('span', { class: 'chip' }, t))) : null;
}

async function draw() {
  const all = await call('GET', '/api/puzzles');
  const daily = all.daily;
  const today = h(
    'section',
    { 'aria-labelledby': 'daily-h', id: 'daily' },
    h('h2', { id: 'daily-h' }, `Today’s challenges · ${daily.date}`),
    h('p', { class: 'hint' }, 'One board, hand or position for everyone each day (UTC), the same for every player.'),
    h(
      'ul',
      { class: 'puzzle-list' },
      daily.challenges.map((/** @type {any} */ c) =>
        h(
          'li',
          { class: 'card', 'data-set': c.set },
          h('h3', null, c.title),
          h('p', null, c.about),
          themesLine(c.themes),
          playButton('▶ Play today’s', `daily-${c.set.replace('/', '-')}`, async () => c.id, { daily: true }),
        ),
      ),
    ),
  );
  const sets = h(
    'section',
    { 'aria-labelledby': 'sets-h', id: 'sets' },
    h('h2', { id: 'sets-h' }, 'Puzzles'),
    h('p', { class: 'hint' }, 'Each has one best answer the game’s solver proves; a wrong one is refuted.'),
    h('p', null, playButton('▶ Any puzzle (a mixed stream)', 'mixed', async () => (await call('GET', '/api/puzzles/next')).id)),
    h(
      'ul',
      { class: 'puzzle-list' },
      all.sets.map((/** @type {any} */ s) =>
        h(
          'li',
          { class: 'card', 'data-set': s.set },
          h('h3', null, `${s.title}`),
          h('p', null, `${s.about} · ${s.count} puzzles`),
          playButton('▶ Solve one', `set-${s.set.replace('/', '-')}`, async () => (await call('GET', `/api/puzzles/next?set=${encodeURIComponent(s.set)}`)).id),
        ),
      ),
    ),
  );
  const board = await call('GET', '/api/daily/leaderboard').catch(() => null);
  const leaders = board && board.leaders.length
    ? h('section', { 'aria-labelledby': 'leaders-h', id: 'daily-leaders' },
        h('h2', { id: 'leaders-h' }, `Today’s leaderboard (of ${board.challenges} challenges)`),
        h('ol', { class: 'moves' }, board.leaders.map((/** @type {any} */ l) => h('li', null, h('a', { href: `/u/${encodeURIComponent(l.username)}` }, l.username), ` · ${l.solved} solved`))))
    : null;
  replace(root, today, leaders, sets);
}

/**
 * A friend's challenge (`/puzzles/c/{id}`): the puzzle, a button to play
 * it, and everyone who played it so far.
 * @param {string} cid
 */
async function drawChallenge(cid) {
  const c = await call('GET', `/api/challenges/${encodeURIComponent(cid)}`);
  const p = c.puzzle;
  const mark = (/** @type {any} */ x) => (x.solved === null ? '… not answered yet' : x.complete ? '✓ solved' + (p.answer === 'first_move_then_win' ? ' and won' : '') : x.solved ? '✓ the right move' : '✗ not the answer');
  replace(
    root,
    h('section', { 'aria-labelledby': 'challenge-h', id: 'challenge' },
      h('h2', { id: 'challenge-h' }, `${c.challenge.by || 'A friend'} challenges you: ${p.title}`),
      h('p', null, p.about),
      themesLine(p.themes),
      h('p', null, playButton('▶ Play this puzzle', 'play-challenge', async () => p.id, { challenge: cid })),
      h('h3', null, `Everyone who played it (${c.played}, ${c.solved} solved)`),
      c.plays.length
        ? h('ol', { id: 'challenge-plays', class: 'moves' }, c.plays.map((/** @type {any} */ x) => h('li', { 'data-solved': String(x.solved) }, `${x.account || x.name || 'a guest'}: ${mark(x)}`)))
        : h('p', null, 'Nobody yet: be the first.'),
      await compared(p.game, c.plays),
    ),
  );
}

/**
 * A game's own comparison of the finished plays (Gobble: word by word),
 * where its page module has one: the first 20, from their games' views.
 * @param {string} game @param {any[]} plays
 */
async function compared(game, plays) {
  const mod = await pageFor(game);
  if (!mod.compare) return null;
  const views = await Promise.all(plays.filter((x) => x.solved !== null).slice(0, 20).map((/** @type {any} */ x) =>
    call('GET', `/api/games/${encodeURIComponent(x.game)}/state`)
      .then((s) => ({ name: x.account || x.name || 'a guest', view: s.view }))
      .catch(() => null)));
  return mod.compare(views.filter(Boolean));
}

const challengeId = location.pathname.match(/^\/puzzles\/c\/([^/]+)$/)?.[1];
(challengeId ? drawChallenge(decodeURIComponent(challengeId)) : draw()).catch((e) => replace(root, h('p', { class: 'error', role: 'alert' }, e.message)));
