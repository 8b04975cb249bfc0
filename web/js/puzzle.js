// @ts-check
/**
 * A puzzle's banner on the game page (`/play/{game}?puzzle={id}`): what
 * the puzzle asks, then the server's verdict on the moves made (docs/api.md
 * `GET /api/puzzles/{id}/verdict`): solved or refuted, why, the answer, and
 * for a puzzle that is won out, whether it was. The page judges nothing.
 */
import { call, myName, playerKey, rememberToken } from './api.js';
import { h, replace } from './dom.js';

/**
 * Makes the puzzle's game and goes to it: as today's challenge (`daily`:
 * one try; asked again, the same game) or through a friend's challenge.
 * @param {string} id @param {{daily?: boolean, challenge?: string}} [how]
 */
export async function playPuzzle(id, how = {}) {
  const made = await call('POST', `/api/puzzles/${encodeURIComponent(id)}/play`, {
    name: myName() || undefined,
    player: playerKey(),
    daily: how.daily || undefined,
    challenge: how.challenge || undefined,
  });
  rememberToken(made.game.id, made.you.token);
  const q = new URLSearchParams({ puzzle: id });
  if (how.challenge) q.set('challenge', how.challenge);
  location.href = `/play/${made.game.id}?${q}#${made.you.token}`;
}

/** What each kind of answer asks of the player. @type {Record<string, string>} */
const ASKS = {
  first_move: 'Your next move is your answer: make the best one.',
  first_move_then_win: 'Find the one move that keeps the win, then win against perfect defence.',
  any_move: 'Find one of the longest words before the time runs out.',
};

/** A reason as a sentence: with its full stop. @param {string} t */
function sentence(t) {
  return t && !/[.!?]$/.test(t) ? `${t}.` : t;
}

/**
 * @param {HTMLElement} before the element the banner goes before
 * @param {string} puzzleId
 * @param {string} gameId
 */
export function mountPuzzle(before, puzzleId, gameId) {
  const el = h('section', { id: 'puzzle', class: 'puzzle-banner', 'aria-label': 'Puzzle', 'aria-live': 'polite' });
  before.before(el);
  /** @type {any} */ let about = null;
  /** @type {any} */ let verdict = null;
  let asked = -1;
  let asking = false;
  let again = false;

  const next = h('button', { type: 'button', class: 'button', id: 'next-puzzle' }, 'Next puzzle →');
  next.addEventListener('click', async () => {
    next.setAttribute('disabled', '');
    try {
      const n = await call('GET', `/api/puzzles/next?set=${encodeURIComponent(about.set)}&not=${encodeURIComponent(puzzleId)}`);
      await playPuzzle(n.id);
    } catch (e) {
      next.removeAttribute('disabled');
      replace(status, h('span', { class: 'error' }, /** @type {any} */ (e).message));
    }
  });
  const status = h('p', { id: 'puzzle-verdict' });
  /** What the answer did beyond the puzzle: the rating, the day's results, the friends' page. */
  const after = h('div', { id: 'puzzle-after' });
  /** The day's results, once asked. @type {any} */ let day = null;
  const shared = h('p', { id: 'puzzle-shared' });
  const challengeButton = h('button', { type: 'button', class: 'button', id: 'challenge-friend' }, '⚔ Challenge a friend');
  challengeButton.addEventListener('click', async () => {
    challengeButton.setAttribute('disabled', '');
    try {
      const made = await call('POST', `/api/puzzles/${encodeURIComponent(puzzleId)}/challenge`, { name: myName() || undefined });
      const url = `${location.origin}${made.url}`;
      const box = h('input', { type: 'text', readonly: true, value: url, id: 'challenge-link', 'aria-label': 'Challenge link', size: 40 });
      replace(shared, 'Send this link: anyone who opens it plays this puzzle, and its page compares everyone. ', box, ' ', h('a', { href: made.url, id: 'challenge-page' }, 'Open the comparison'));
      /** @type {HTMLInputElement} */ (box).select();
    } catch (e) {
      replace(shared, h('span', { class: 'error' }, /** @type {any} */ (e).message));
    } finally {
      challengeButton.removeAttribute('disabled');
    }
  });

  function afterLines() {
    const lines = [];
    if (verdict.rating) {
      const d = verdict.rating.after - verdict.rating.before;
      lines.push(h('p', { id: 'puzzle-rating' }, `Puzzle rating ${verdict.rating.before} → ${verdict.rating.after} (${d >= 0 ? '+' : '−'}${Math.abs(d)})`));
    }
    if (verdict.daily && day) {
      lines.push(h('p', { id: 'puzzle-day' }, `Today’s challenge (${verdict.daily}): ${day.played} played, ${day.solved} solved${day.more ? ' at least' : ''}.`));
      if (verdict.score !== null && verdict.score !== undefined && day.scores.length) {
        /** @type {number[]} */ const all = day.scores;
        const below = all.filter((x) => x < verdict.score).length;
        lines.push(h('p', { id: 'puzzle-score' },
          `Your score: ${verdict.score} points. Today’s scores: lowest ${all[0]}, median ${all[Math.floor(all.length / 2)]}, best ${all[all.length - 1]}; `
          + `you did better than ${below} of ${all.length}.`));
      }
    }
    if (verdict.challenge) {
      lines.push(h('p', null, h('a', { href: `/puzzles/c/${verdict.challenge}`, id: 'compare-link' }, 'Compare with everyone who took this challenge')));
    }
    return lines;
  }

  function draw() {
    if (!about) return;
    const head = h('p', null, h('strong', null, `Puzzle · ${about.title}`), ` · ${about.about}`);
    const themes = about.themes.length ? h('p', { class: 'themes' }, about.themes.map((/** @type {string} */ t) => h('span', { class: 'chip' }, t))) : null;
    const ask = h('p', { id: 'puzzle-asks' }, ASKS[about.answer] || '');
    const d = about.difficulty;
    const hard = d ? h('p', { id: 'puzzle-difficulty', class: 'hint' }, d.from === 'players'
      ? `Difficulty ${d.rating}, from ${d.tries} rated ${d.tries === 1 ? 'try' : 'tries'}.`
      : `Difficulty about ${d.rating}, from how much the solver had to look at (nobody rated has tried it yet).`) : null;
    if (verdict && verdict.answered) {
      const winOut = about.answer === 'first_move_then_win';
      const done = !verdict.solved
        ? '✗ Not the answer.'
        : !winOut
          ? '✓ Solved.'
          : verdict.complete
            ? '✓ Solved and won: puzzle complete.'
            : verdict.over
              ? '✓ The right move, but the game was lost afterwards.'
              : '✓ The right move. Now win it.';
      replace(
        status,
        h('strong', { class: verdict.solved ? 'ok' : 'bad' }, done),
        ' ',
        sentence(verdict.why || ''),
        verdict.answers && !verdict.solved ? h('span', null, ` The answer: ${verdict.answers.join(' or ')}.`) : null,
      );
      status.dataset.solved = String(verdict.solved);
      status.dataset.complete = String(verdict.complete);
      replace(after, ...afterLines());
    } else if (verdict && verdict.tries > 0) {
      replace(status, sentence(verdict.why || ''));
    }
    replace(el, head, themes, ask, hard, status, after, h('p', null, next, ' ', challengeButton, ' ', h('a', { href: '/puzzles' }, 'All puzzles')), shared);
  }

  async function ask() {
    if (asking) {
      again = true;
      return;
    }
    asking = true;
    try {
      verdict = await call('GET', `/api/puzzles/${encodeURIComponent(puzzleId)}/verdict?game=${encodeURIComponent(gameId)}`);
      if (verdict.daily && verdict.answered) {
        day = await call('GET', `/api/puzzles/${encodeURIComponent(puzzleId)}/results?date=${verdict.daily}`).catch(() => null);
      }
      draw();
    } catch (e) {
      const err = /** @type {any} */ (e);
      // Asked too often (several pages from one address): again shortly.
      if (err.code === 'rate_limited' || err.code === 'busy') again = true;
      else replace(status, h('span', { class: 'error' }, err.message));
    } finally {
      asking = false;
      if (again) await new Promise((r) => setTimeout(r, 1000));
      if (again) {
        again = false;
        ask();
      }
    }
  }

  call('GET', `/api/puzzles/${encodeURIComponent(puzzleId)}`)
    .then((a) => {
      about = a;
      draw();
    })
    .catch((e) => replace(el, h('p', { class: 'error' }, e.message)));

  return {
    /**
     * A new state of the game: asks for the verdict when it opens, after
     * each of the player's own moves and at the end, until the verdict can
     * no longer change.
     * @param {{seq: number, to_act: any, by?: any}} s @param {number | null} seat the player's
     */
    update(s, seat) {
      if (s.seq === asked) return;
      const first = asked === -1;
      asked = s.seq;
      // Final once answered and nothing more can change: the game is over
      // (a Gobble round's points, a puzzle won out), or the answer was the
      // first move alone, or a wrong one.
      if (verdict && verdict.answered && (verdict.over || about?.answer === 'first_move' || (about?.answer === 'first_move_then_win' && !verdict.solved))) return;
      const mine = s.by && typeof s.by === 'object' && s.by.seat === seat;
      if (first || mine || s.to_act === 'over') ask();
    },
  };
}