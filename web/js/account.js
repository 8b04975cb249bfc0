// @ts-check
/**
 * The account pages (docs/api.md "Accounts"): `/account` (sign up, log in
 * and out, claim this browser's guest games, the account's games),
 * `/u/{name}` (a profile: ratings and finished games, each with its
 * replay) and `/leaderboard` (the best ratings at each game).
 */
import { call, myName, playUrl, seatName, seatSide, listedSides, tokenFor } from './api.js';
import { h, replace } from './dom.js';

const root = /** @type {HTMLElement} */ (document.getElementById('account-page'));
const parts = location.pathname.split('/').filter(Boolean);

/**
 * @typedef {{username: string, game: string, title: string, rating: number, rd: number, provisional: boolean, games: number, rank?: number}} RatingJson
 */

/** @param {RatingJson} r */
export function ratingText(r) {
  return `${r.rating}${r.provisional ? '?' : ''}`;
}

/** The games this browser holds seats of (localStorage), as claim entries. */
function heldSeats() {
  /** @type {{game: string, token: string}[]} */
  const out = [];
  let all = {};
  try {
    all = JSON.parse(localStorage.getItem('parlor.tokens') || '{}') || {};
  } catch {
    all = {};
  }
  for (const game of Object.keys(all)) {
    const token = tokenFor(game);
    if (token) out.push({ game, token });
  }
  return out.slice(0, 100);
}

/** @param {string} message */
function errorLine(message) {
  return h('p', { class: 'error', role: 'alert', id: 'account-error' }, message);
}

/**
 * The games whose seats may change sides (the catalog's
 * `seats_change_sides`): their listings name seats without a side.
 * @type {Set<string>}
 */
let changingSides = new Set();

async function loadSides() {
  const catalog = await call('GET', '/api/catalog').catch(() => ({ games: [] }));
  changingSides = new Set(catalog.games.filter((/** @type {any} */ g) => g.seats_change_sides).map((/** @type {any} */ g) => g.name));
}

/** @param {any} g a GameSummary */
function players(g) {
  const sides = listedSides(g, changingSides.has(g.game));
  return g.seats.map((/** @type {any} */ s) => seatName(g.seats, s.seat, sides)).join(' vs ');
}

/** "player 1", or the seat's name where its side is not known. @param {any} g @param {number} seat */
function asWho(g, seat) {
  const sides = listedSides(g, changingSides.has(g.game));
  return sides === false ? seatName(g.seats, seat, false) : seatSide(seat, sides);
}

async function accountPage() {
  const me = (await call('GET', '/api/account')).account;
  if (!me) return loginForms();
  const status = h('p', { id: 'claim-status', 'aria-live': 'polite' });
  const held = heldSeats();
  const mine = await call('GET', '/api/account/games');
  await loadSides();
  replace(
    root,
    h('h2', { id: 'account-name' }, `Logged in as ${me.username}`),
    h('p', null, h('a', { href: `/u/${encodeURIComponent(me.username)}`, id: 'my-profile' }, 'My profile, ratings and finished games')),
    ratingsList(me.ratings),
    h(
      'p',
      null,
      h(
        'button',
        {
          type: 'button',
          id: 'claim-btn',
          disabled: held.length === 0,
          onclick: async () => {
            try {
              const r = await call('POST', '/api/account/claim', { seats: held });
              status.textContent = `${r.claimed.length} game(s) are now your account's` +
                (r.refused.length ? `; ${r.refused.length} not (${r.refused.map((/** @type {any} */ x) => x.error.message).join('; ')})` : '.');
              setTimeout(accountPage, 800);
            } catch (e) {
              status.textContent = /** @type {Error} */ (e).message;
            }
          },
        },
        `Keep this browser's ${held.length} guest game(s) in my account`,
      ),
    ),
    status,
    await ratedForm(),
    h('h3', null, 'My games'),
    mine.games.length
      ? h('ul', { class: 'games', id: 'account-games' }, mine.games.map((/** @type {any} */ x) =>
          h('li', null,
            h('a', { href: playUrl(x.game.id, x.token || undefined) }, `${x.game.title} as ${asWho(x.game, x.seat)}`),
            ` · ${x.game.status}${x.game.rated ? ' · rated' : ''} · ${players(x.game)}`,
            x.game.status === 'over' ? [' · ', h('a', { href: `/replay/${x.game.id}` }, 'replay')] : null)))
      : h('p', { id: 'account-games' }, 'No games yet.'),
    h('p', null, h('button', {
      type: 'button',
      id: 'logout-btn',
      onclick: async () => {
        await call('POST', '/api/account/logout');
        location.reload();
      },
    }, 'Log out')),
  );
}

/**
 * "Start a rated game": the game's default rules, the creator in the first
 * seat, an invite link for an opponent who has an account.
 */
async function ratedForm() {
  const catalog = await call('GET', '/api/catalog');
  const select = /** @type {HTMLSelectElement} */ (h('select', { id: 'rated-game' },
    catalog.games.map((/** @type {any} */ g) => h('option', { value: g.name }, g.title))));
  const out = h('div', { id: 'rated-created', 'aria-live': 'polite' });
  return h('form', {
    id: 'rated-form',
    onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      try {
        const r = await call('POST', '/api/games', { game: select.value, take_seat: 0, rated: true, name: myName() || undefined });
        const invite = r.seats.find((/** @type {any} */ s) => s.seat !== 0);
        replace(out,
          h('p', null, 'Send this link to your opponent (they log in to take the seat): ',
            h('input', { id: 'rated-invite', readonly: true, size: 50, value: invite ? location.origin + invite.invite : '' })),
          h('p', null, h('a', { class: 'button primary', id: 'rated-play', href: playUrl(r.game.id, r.you.token) }, '▶ Play')));
      } catch (err) {
        replace(out, errorLine(/** @type {Error} */ (err).message));
      }
    },
  },
  h('h3', null, 'Start a rated game'),
  h('p', null, 'Between two accounts, with the game\'s default rules; both ratings change when it ends.'),
  h('label', null, 'Game ', select), ' ',
  h('button', { type: 'submit', id: 'rated-btn' }, 'Create'),
  out);
}

function loginForms() {
  /** @param {'login' | 'register'} kind */
  const form = (kind) => {
    // What a name and a password may be is the server's to judge: its
    // refusal says what is accepted (the browser's own pattern check said
    // only "match the requested format", and counted a password's length
    // in UTF-16 units where the server counts characters).
    const hint = kind === 'register' ? h('small', { id: 'register-username-help', class: 'help' }, '3 to 24 letters, digits, _ or -') : null;
    const user = /** @type {HTMLInputElement} */ (h('input', { id: `${kind}-username`, autocomplete: 'username', maxlength: 24, required: true, 'aria-describedby': hint ? 'register-username-help' : undefined }));
    const pass = /** @type {HTMLInputElement} */ (h('input', { id: `${kind}-password`, type: 'password', autocomplete: kind === 'login' ? 'current-password' : 'new-password', required: true }));
    const out = h('div', { 'aria-live': 'polite' });
    return h(
      'form',
      {
        id: `${kind}-form`,
        onsubmit: async (/** @type {Event} */ e) => {
          e.preventDefault();
          try {
            await call('POST', `/api/account/${kind}`, { username: user.value.trim(), password: pass.value });
            location.reload();
          } catch (err) {
            replace(out, errorLine(/** @type {Error} */ (err).message));
          }
        },
      },
      h('h2', null, kind === 'login' ? 'Log in' : 'Sign up'),
      h('label', null, 'Username ', user), hint,
      h('label', null, kind === 'login' ? 'Password ' : 'Password (8 to 128 characters) ', pass),
      h('button', { type: 'submit', id: `${kind}-btn` }, kind === 'login' ? 'Log in' : 'Sign up'),
      out,
    );
  };
  replace(
    root,
    h('p', null, 'An account is optional: guests play as always. With one, your games follow you to any browser, and games between accounts can be rated.'),
    form('login'),
    form('register'),
  );
}

/** @param {RatingJson[]} ratings */
function ratingsList(ratings) {
  if (!ratings.length) return h('p', { id: 'ratings' }, 'No rated games yet.');
  return h('table', { id: 'ratings' },
    h('thead', null, h('tr', null, h('th', null, 'Game'), h('th', null, 'Rating'), h('th', null, 'Rated games'))),
    h('tbody', null, ratings.map((r) => h('tr', { dataset: { game: r.game } },
      h('td', null, h('a', { href: `/leaderboard?game=${encodeURIComponent(r.game)}` }, r.title)),
      h('td', { class: 'rating' }, ratingText(r)),
      h('td', null, String(r.games))))));
}

/**
 * An account's puzzles (docs/api.md, the profile's `puzzles`): its puzzle
 * rating, its streak of days with a challenge solved, its latest plays.
 * @param {any} z
 */
function puzzlesPart(z) {
  if (!z || (!z.rating && !z.latest.length)) return null;
  const mark = (/** @type {any} */ x) => (x.solved === null ? 'not answered' : x.solved ? 'solved' : 'missed');
  return h('section', { id: 'profile-puzzles', 'aria-labelledby': 'profile-puzzles-h' },
    h('h3', { id: 'profile-puzzles-h' }, 'Puzzles'),
    h('p', null,
      z.rating ? h('span', { id: 'puzzle-rating-line' }, `Puzzle rating ${z.rating.rating} (${z.rating.tries} rated ${z.rating.tries === 1 ? 'try' : 'tries'}) · `) : null,
      h('span', { id: 'puzzle-streak' }, `${z.streak}-day streak of daily challenges solved`),
      ` · ${z.solved_days} ${z.solved_days === 1 ? 'day' : 'days'} in all`),
    h('ul', { class: 'games', id: 'profile-puzzle-history' }, z.latest.map((/** @type {any} */ x) =>
      h('li', null, `${x.set ? `${x.set.title} · ${x.set.about}` : x.puzzle}${x.daily ? ` · challenge of ${x.daily}` : ''}: ${mark(x)}`))));
}

/** @param {string} name */
async function profilePage(name) {
  const p = await call('GET', `/api/accounts/${encodeURIComponent(name)}`);
  await loadSides();
  document.title = `parlor — ${p.username}`;
  replace(
    root,
    h('h2', { id: 'profile-name' }, p.username),
    h('p', null, `Playing since ${new Date(p.created_ms).toLocaleDateString()}`),
    ratingsList(p.ratings),
    puzzlesPart(p.puzzles),
    h('h3', null, 'Finished games'),
    p.games.length
      ? h('ul', { class: 'games', id: 'profile-games' }, p.games.map((/** @type {any} */ x) => {
          const g = x.game;
          const won = g.outcome && x.seat !== null && g.outcome.ranking[0]?.includes(x.seat);
          const change = x.rating_change;
          return h('li', { dataset: { game: g.id } },
            h('a', { href: `/replay/${g.id}`, class: 'replay-link' }, `${g.title}: ${players(g)}`),
            ` · ${won ? 'won' : 'did not win'}`,
            change ? h('span', { class: 'rating-change' }, ` · rating ${change.before} → ${change.after}`) : null);
        }))
      : h('p', { id: 'profile-games' }, 'No finished games yet.'),
  );
}

async function leaderboardPage() {
  const catalog = await call('GET', '/api/catalog');
  const want = new URLSearchParams(location.search).get('game') || catalog.games[0]?.name;
  const boards = await Promise.all(
    catalog.games.map((/** @type {any} */ g) => call('GET', `/api/leaderboard/${encodeURIComponent(g.name)}?limit=20`)),
  );
  replace(
    root,
    h('h2', null, 'Leaderboards'),
    h('p', null, 'Glicko-2 ratings from rated games between accounts; a rating with ? is provisional (few games yet).'),
    boards.map((b) => h('section', { id: `board-${b.game}`, class: b.game === want ? 'chosen' : null },
      h('h3', null, b.title),
      b.players.length
        ? h('ol', null, b.players.map((/** @type {RatingJson} */ r) => h('li', null,
            h('a', { href: `/u/${encodeURIComponent(r.username)}` }, r.username), ` ${ratingText(r)} (${r.games} games)`)))
        : h('p', null, 'No rated games yet.'))),
  );
}

async function main() {
  try {
    if (parts[0] === 'u' && parts[1]) await profilePage(decodeURIComponent(parts[1]));
    else if (parts[0] === 'leaderboard') await leaderboardPage();
    else await accountPage();
  } catch (e) {
    replace(root, errorLine(/** @type {Error} */ (e).message));
  }
}

main();
