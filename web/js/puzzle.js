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
 * Makes the puzzle's game and goes to it.
 * @param {string} id
 */
export async function playPuzzle(id) {
  const made = await call('POST', `/api/puzzles/${encodeURIComponent(id)}/play`, {
    name: myName() || undefined,
    player: playerKey(),
  });
  rememberToken(made.game.id, made.you.token);
  location.href = `/play/${made.game.id}?puzzle=${encodeURIComponent(id)}#${made.you.token}`;
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

  function draw() {
    if (!about) return;
    const head = h('p', null, h('strong', null, `Puzzle · ${about.title}`), ` · ${about.about}`);
    const themes = about.themes.length ? h('p', { class: 'themes' }, about.themes.map((/** @type {string} */ t) => h('span', { class: 'chip' }, t))) : null;
    const ask = h('p', { id: 'puzzle-asks' }, ASKS[about.answer] || '');
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
    } else if (verdict && verdict.tries > 0) {
      replace(status, sentence(verdict.why || ''));
    }
    replace(el, head, themes, ask, status, h('p', null, next, ' ', h('a', { href: '/puzzles' }, 'All puzzles')));
  }

  async function ask() {
    if (asking) {
      again = true;
      return;
    }
    asking = true;
    try {
      verdict = await call('GET', `/api/puzzles/${encodeURIComponent(puzzleId)}/verdict?game=${encodeURIComponent(gameId)}`);
      draw();
    } catch (e) {
      replace(status, h('span', { class: 'error' }, /** @type {any} */ (e).message));
    } finally {
      asking = false;
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
     * A new state of the game: asks for the verdict when the game moved,
     * until it is final (and, for a puzzle won out, until the game ends).
     * @param {{seq: number, to_act: any}} s
     */
    update(s) {
      if (s.seq === asked) return;
      asked = s.seq;
      if (verdict && verdict.answered && (about?.answer !== 'first_move_then_win' || verdict.over || !verdict.solved)) return;
      ask();
    },
  };
}
