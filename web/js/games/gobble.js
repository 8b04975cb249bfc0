// @ts-check
/**
 * Gobble's page: the grid (type a word and Enter, or drag through touching
 * cells with a mouse, pen or finger; tapping cells one by one works too),
 * the countdown from the server's clock, instant feedback per word, and the
 * end-of-round table with cancelled words struck through and every word on
 * the board.
 *
 * Actions and view: crates/gobble/src/game.rs (`GobbleAction`, `GobbleView`).
 */
import { h, replace } from '../dom.js';

/**
 * The lobby's rules form is drawn from the game's settings (web/js/settings.js);
 * this adds the ids the page has always used, an example keyphrase and a note.
 * @type {import('../settings.js').LobbyHooks}
 */
export const lobby = {
  prefix: 'gb',
  placeholders: { keyphrase: 'four words, e.g. purr applause quack persuader' },
  note: 'The round starts once every player has taken their seat.',
};

/**
 * Cells as faces, row-major, lower-case ("qu" for the Qu cell).
 * @param {string[][]} rows
 */
const facesOf = (rows) => rows.flat().map((f) => f.toLowerCase());

/**
 * A path spelling `word` (cell indices), for showing where a typed word is;
 * the server decides whether it counts.
 * @param {string[]} faces @param {number} n side @param {string} word
 * @returns {number[] | null}
 */
export function findPath(faces, n, word) {
  /** @type {(path: number[], at: number) => number[] | null} */
  const go = (path, at) => {
    if (at === word.length) return path;
    const last = path[path.length - 1];
    const r = Math.floor(last / n), c = last % n;
    for (let dr = -1; dr <= 1; dr++)
      for (let dc = -1; dc <= 1; dc++) {
        const rr = r + dr, cc = c + dc;
        if ((dr || dc) && rr >= 0 && rr < n && cc >= 0 && cc < n) {
          const i = rr * n + cc;
          if (!path.includes(i) && word.startsWith(faces[i], at)) {
            const p = go([...path, i], at + faces[i].length);
            if (p) return p;
          }
        }
      }
    return null;
  };
  for (let i = 0; i < faces.length; i++) {
    if (word && word.startsWith(faces[i])) {
      const p = go([i], faces[i].length);
      if (p) return p;
    }
  }
  return null;
}

/**
 * Friends who played the same board (a puzzle's challenge), compared word
 * by word from their finished rounds' views: every word of the board with
 * who found it, and the words nobody found. Lays out what the server's
 * views say; judges nothing.
 * @param {{name: string, view: any}[]} plays
 * @returns {HTMLElement | null}
 */
export function compare(plays) {
  const done = plays.filter((p) => p.view && p.view.results);
  if (!done.length) return null;
  /** @type {{word: string, points: number}[]} */
  const all = done[0].view.results.all_words;
  /** @type {Map<string, string[]>} */
  const by = new Map();
  for (const p of done) {
    for (const seat of p.view.results.seats) {
      for (const w of seat.words) {
        const names = by.get(w.word) || [];
        if (!names.includes(p.name)) names.push(p.name);
        by.set(w.word, names);
      }
    }
  }
  const found = all.filter((w) => by.has(w.word));
  const missed = all.filter((w) => !by.has(w.word));
  return h('section', { id: 'gb-compare', 'aria-labelledby': 'gb-compare-h' },
    h('h3', { id: 'gb-compare-h' }, `Words found: ${found.length} of the board’s ${all.length}`),
    h('ul', { id: 'gb-compare-found' }, found.map((w) => h('li', { 'data-word': w.word }, `${w.word.toUpperCase()} (${w.points}): ${(by.get(w.word) || []).join(', ')}`))),
    h('details', null,
      h('summary', null, `Words nobody found (${missed.length})`),
      h('p', { id: 'gb-compare-missed' }, missed.map((w) => w.word.toUpperCase()).join(' '))));
}

/** @param {import('../play.js').PageContext} ctx */
export function mount(ctx) {
  /** @type {import('../api.js').StateMsg | null} */
  let st = null;
  /** @type {number[]} */
  let path = [];
  let dragging = false;
  let dragMoved = false;
  /** @type {{word: string, state: 'sent'|'ok'|'bad'|'queued', message?: string}[]} */
  const feedback = [];
  /**
   * Each of my accepted words' points, from the server's events (which
   * carry them for the seat that found it alone): the live events and,
   * after a reload, the move list.
   * @type {Map<string, number>}
   */
  const points = new Map();
  /** @param {any[]} events */
  const learnPoints = (events) => {
    for (const e of events || []) {
      if (e && e.type === 'accepted' && e.seat === ctx.mySeat && Array.isArray(e.word)) points.set(e.word[0], e.word[1]);
    }
  };
  /** @type {number[] | null} */
  let shownPath = null;
  /**
   * After the round, a small copy of the board beside the list of every
   * word (it stays in view while the list scrolls, on a phone too): a word
   * selected there shows its path where the player is looking.
   * @type {HTMLElement | null}
   */
  let mini = null;
  // Whether the player last used a finger or pen (not a mouse or keys):
  // then the page never focuses the text box by itself, since that raises
  // the on-screen keyboard over the grid.
  let touching = matchMedia('(pointer: coarse)').matches;
  document.addEventListener('pointerdown', (e) => { touching = e.pointerType !== 'mouse'; }, true);
  document.addEventListener('keydown', () => { touching = false; }, true);
  const focusWord = () => { if (!touching) word.focus(); };

  const status = h('h2', { id: 'gb-status', class: 'status' });
  const timer = h('p', { id: 'gb-timer', class: 'timer', role: 'timer', 'aria-label': 'time left' });
  const announce = h('p', { class: 'sr-only', 'aria-live': 'polite', id: 'gb-announce' });
  const grid = h('div', { id: 'gb-grid', class: 'grid', 'aria-label': 'The board' });
  const word = /** @type {HTMLInputElement} */ (
    h('input', { id: 'gb-word', autocomplete: 'off', autocapitalize: 'none', spellcheck: false, size: 16, 'aria-describedby': 'gb-help', enterkeyhint: 'send' })
  );
  const form = h(
    'form',
    {
      id: 'gb-form',
      class: 'word-form',
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        submit(word.value);
      },
    },
    h('label', { for: 'gb-word' }, 'Word: '),
    word,
    h('button', { type: 'submit', class: 'primary' }, '⏎ Enter'),
    h('button', { type: 'button', id: 'gb-clear', onclick: () => { path = []; word.value = ''; drawPath(); focusWord(); } }, 'Clear'),
    h('p', { id: 'gb-help', class: 'note' }, 'Type a word and press Enter, or drag through touching cells (or tap them one by one, then Enter).'),
  );
  const feedbackEl = h('ol', { id: 'gb-feedback', class: 'feedback', 'aria-live': 'polite', 'aria-label': 'Your entries' });
  const countsEl = h('p', { id: 'gb-counts' });
  const doneBtn = h('button', {
    type: 'button',
    id: 'gb-done',
    onclick: async () => {
      if (await ctx.confirm('Finished searching? You cannot enter more words this round.', "I'm finished")) ctx.act({ type: 'done' }).catch(() => {});
    },
  }, "✓ I'm finished");
  const resultsEl = h('div', { id: 'gb-results' });
  const playArea = h('div', { class: 'gb-play' }, form, h('div', { class: 'row' }, doneBtn), h('h3', null, 'Your words'), feedbackEl);

  replace(ctx.root, status, timer, announce, h('div', { class: 'gb-main' }, grid, playArea), countsEl, resultsEl);

  const n = () => (st && st.view ? st.view.rows.length : 4);
  const faces = () => (st && st.view ? facesOf(st.view.rows) : []);
  // While the clock waits for the players the server sends no view at all
  // (`view: null`): the board is not known here until the round starts.
  const waiting = () => !!st && (!st.view || (!st.view.over && ctx.waitingFor().length > 0));
  const running = () => !!st && !!st.view && !st.view.over && !waiting() && ctx.mySeat !== null && !st.view.done.includes(ctx.mySeat);

  /** @param {string} raw */
  function submit(raw) {
    const w = raw.trim().toLowerCase();
    path = [];
    if (w && running()) word.value = '';
    drawPath();
    if (!w || !running()) return;
    const item = { word: w, state: /** @type {'sent'|'ok'|'bad'|'queued'} */ ('sent'), message: '' };
    feedback.unshift(item);
    send(item);
    focusWord();
  }

  /**
   * Sends an entry; one the connection could not carry waits for it
   * (`queued`) and goes when the connection is back (`online`).
   * @param {{word: string, state: 'sent'|'ok'|'bad'|'queued', message?: string}} item
   */
  function send(item) {
    if (!(ctx.online ? ctx.online() : true)) {
      item.state = 'queued';
      drawFeedback();
      return;
    }
    item.state = 'sent';
    drawFeedback();
    ctx.act({ type: 'enter', word: item.word }).then(
      () => {
        item.state = 'ok';
        drawFeedback();
      },
      (e) => {
        if (e.code === 'offline') {
          item.state = 'queued';
        } else {
          item.state = 'bad';
          item.message = e.message;
        }
        drawFeedback();
      },
    );
  }

  /** @param {string} w */
  const pts = (w) => (points.has(w) ? ` +${points.get(w)} point${points.get(w) === 1 ? '' : 's'}` : '');

  function drawFeedback() {
    const mine = new Set(st && st.view ? st.view.my_words : []);
    replace(
      feedbackEl,
      feedback.slice(0, 40).map((f) =>
        h('li', { class: `fb ${f.state === 'bad' ? 'bad' : f.state === 'ok' || mine.has(f.word) ? 'ok' : 'sent'}`, dataset: { word: f.word } },
          f.state === 'bad' ? `✗ ${f.word.toUpperCase()} — ${f.message}`
            : f.state === 'ok' || mine.has(f.word) ? `✓ ${f.word.toUpperCase()}${pts(f.word)}`
              : f.state === 'queued' ? `⧗ ${f.word.toUpperCase()} (kept: sent when the connection is back)`
                : `… ${f.word.toUpperCase()} (checking)`),
      ),
      // Accepted words from before a refresh (the view is the truth).
      (st && st.view ? st.view.my_words : []).filter((/** @type {string} */ w) => !feedback.some((f) => f.word === w)).reverse().map((/** @type {string} */ w) => h('li', { class: 'fb ok', dataset: { word: w } }, `✓ ${w.toUpperCase()}${pts(w)}`)),
    );
  }

  function drawGrid() {
    if (!st || !st.view) {
      replace(grid);
      return;
    }
    const v = st.view;
    const side = v.rows.length;
    grid.style.setProperty('--n', String(side));
    grid.setAttribute('aria-label', `The board, row by row: ${v.rows.map((/** @type {string[]} */ r) => r.join(' ')).join(', ')}`);
    replace(
      grid,
      v.rows.flat().map((/** @type {string} */ f, /** @type {number} */ i) => h('div', { class: 'cell', dataset: { i: String(i) }, 'aria-hidden': 'true' }, f)),
    );
    drawPath();
  }

  function drawPath() {
    const p = path.length ? path : shownPath || (word.value ? findPath(faces(), n(), word.value.trim().toLowerCase()) : null) || [];
    for (const board of mini ? [grid, mini] : [grid]) {
      board.querySelectorAll('.cell').forEach((c, i) => {
        const k = p.indexOf(i);
        c.classList.toggle('on', k >= 0);
        c.setAttribute('data-order', k >= 0 ? String(k + 1) : '');
      });
    }
  }

  /** @param {number} a @param {number} b */
  const adjacent = (a, b) => {
    const s = n();
    return a !== b && Math.abs(Math.floor(a / s) - Math.floor(b / s)) <= 1 && Math.abs((a % s) - (b % s)) <= 1;
  };

  /**
   * The cell under a point, only near its centre (so a diagonal drag does
   * not catch the neighbours it grazes).
   * @param {number} x @param {number} y
   */
  function cellAt(x, y) {
    const el = /** @type {HTMLElement | null} */ (document.elementFromPoint(x, y));
    const cell = el && el.closest('.cell');
    if (!cell || !grid.contains(cell)) return null;
    const r = cell.getBoundingClientRect();
    const dx = (x - (r.left + r.width / 2)) / r.width, dy = (y - (r.top + r.height / 2)) / r.height;
    if (dx * dx + dy * dy > 0.16) return null;
    return Number(/** @type {HTMLElement} */ (cell).dataset.i);
  }

  const pathWord = () => path.map((i) => faces()[i]).join('');

  grid.addEventListener('pointerdown', (e) => {
    if (!running()) return;
    const i = cellAt(e.clientX, e.clientY);
    if (i === null) return;
    e.preventDefault();
    // A finger on the grid: put the on-screen keyboard away.
    if (e.pointerType !== 'mouse' && document.activeElement === word) word.blur();
    shownPath = null;
    dragging = true;
    dragMoved = false;
    grid.setPointerCapture(e.pointerId);
    if (path.length && adjacent(path[path.length - 1], i) && !path.includes(i)) path.push(i);
    else if (path.length && path[path.length - 1] === i) { /* same cell: keep */ }
    else path = [i];
    word.value = pathWord();
    drawPath();
  });
  grid.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    const i = cellAt(e.clientX, e.clientY);
    if (i === null) return;
    const last = path[path.length - 1];
    if (i === last) return;
    if (path.length > 1 && path[path.length - 2] === i) path.pop(); // back up
    else if (adjacent(last, i) && !path.includes(i)) path.push(i);
    else return;
    dragMoved = true;
    word.value = pathWord();
    drawPath();
  });
  const end = (/** @type {PointerEvent} */ e) => {
    if (!dragging) return;
    dragging = false;
    try { grid.releasePointerCapture(e.pointerId); } catch { /* already released */ }
    if (dragMoved && path.length > 1) submit(pathWord());
  };
  grid.addEventListener('pointerup', end);
  grid.addEventListener('pointercancel', (e) => { dragging = false; path = []; word.value = ''; drawPath(); try { grid.releasePointerCapture(e.pointerId); } catch { /* */ } });
  word.addEventListener('input', () => { path = []; shownPath = null; drawPath(); });

  function drawCounts() {
    if (!st || !st.view) {
      replace(countsEl);
      return;
    }
    const v = st.view;
    replace(countsEl, 'Words entered: ', v.counts.map((/** @type {number} */ c, /** @type {number} */ i) => h('span', { class: 'chip', dataset: { seat: String(i) } }, `${ctx.seatName(i)}${i === ctx.mySeat ? ' (you)' : ''}: ${c}${v.done.includes(i) ? ' ✓ finished' : ''}`)));
  }

  function drawResults() {
    if (!st || !st.view || !st.view.results) {
      mini = null;
      replace(resultsEl);
      return;
    }
    const res = st.view.results;
    const faceList = faces();
    /** @param {number[]} p */
    const showOn = (p) => { shownPath = p; drawPath(); };
    const table = h(
      'div',
      { class: 'results', id: 'gb-table' },
      res.reading_order.map((/** @type {number} */ s) => {
        const r = res.seats[s];
        return h(
          'section',
          { class: 'seat-result', dataset: { seat: String(s) } },
          h('h3', null, `${ctx.seatName(s)}${s === ctx.mySeat ? ' (you)' : ''}: ${r.score} point${r.score === 1 ? '' : 's'}`),
          r.words.length
            ? h('ul', { class: 'words' }, r.words.map((/** @type {any} */ w) =>
                w.cancelled_by.length
                  ? h('li', { class: 'cancelled', dataset: { word: w.word } }, h('del', null, w.word.toUpperCase()), ` — cancelled, also found by ${w.cancelled_by.map((/** @type {number} */ o) => ctx.seatName(o)).join(', ')}`)
                  : h('li', { class: 'scored', dataset: { word: w.word } }, `${w.word.toUpperCase()} +${w.points}`)))
            : h('p', null, 'No words.'),
        );
      }),
    );
    const all = res.all_words;
    const total = all.reduce((/** @type {number} */ t, /** @type {any} */ w) => t + w.points, 0);
    const found = new Set(res.seats.flatMap((/** @type {any} */ r) => r.words.map((/** @type {any} */ w) => w.word)));
    mini = h('div', { id: 'gb-mini', class: 'grid mini', 'aria-hidden': 'true' },
      st.view.rows.flat().map((/** @type {string} */ f) => h('div', { class: 'cell' }, f)));
    mini.style.setProperty('--n', String(st.view.rows.length));
    const every = h(
      'details',
      { id: 'gb-all' },
      h('summary', null, `Show every word on this board (${all.length} words, ${total} points)`),
      h('p', { class: 'note' }, 'Select a word to see its path on the board. ★ = somebody found it.'),
      h('div', { class: 'gb-all-body' },
        mini,
        h('ul', { class: 'all-words' }, all.map((/** @type {any} */ w) =>
          h('li', null, h('button', { type: 'button', class: 'link', dataset: { word: w.word }, onclick: () => showOn(w.path), onfocus: () => showOn(w.path) }, `${found.has(w.word) ? '★ ' : ''}${w.word.toUpperCase()} ${w.points}`))))),
    );
    void faceList;
    // The keyphrase names this board anywhere: told once the round is over.
    const phrase = h('p', { id: 'gb-keyphrase' }, 'This board’s keyphrase: ', h('strong', null, st.view.keyphrase),
      ' (give it in the lobby’s Keyphrase, or to parlor gobble play --keyphrase, to play the same board again).');
    replace(resultsEl, h('h2', null, 'End of the round'), phrase, h('p', { class: 'note' }, 'Lists are read fewest words first. A word found by two or more players is cancelled for all of them (struck through).'), table, every);
    drawPath();
  }

  function drawStatus() {
    if (!st) return;
    const v = st.view;
    if (!v) {
      const names = ctx.waitingFor().map((s) => ctx.seatName(s)).join(', ');
      status.textContent = `Waiting for players: ${names || 'somebody'} ${ctx.waitingFor().length > 1 ? 'have' : 'has'} not taken their seat yet. The round starts when they do.`;
      playArea.hidden = true;
      grid.hidden = true;
      word.disabled = true;
      /** @type {HTMLButtonElement} */ (doneBtn).disabled = true;
      return;
    }
    if (v.over) status.textContent = 'Round over';
    else if (waiting()) status.textContent = `Waiting for players: ${ctx.waitingFor().map((s) => ctx.seatName(s)).join(', ')} ${ctx.waitingFor().length > 1 ? 'have' : 'has'} not taken their seat yet. The round starts when they do.`;
    else if (ctx.mySeat === null) status.textContent = 'Watching the round';
    else if (v.done.includes(ctx.mySeat)) status.textContent = 'You have finished: waiting for the others';
    else status.textContent = `Find words of ${v.min_len} letters or more`;
    playArea.hidden = v.over || ctx.mySeat === null || waiting();
    // The board stays hidden until the round starts: nobody gets a head start.
    grid.hidden = waiting();
    word.disabled = !running();
    /** @type {HTMLButtonElement} */ (doneBtn).disabled = !running();
    grid.classList.toggle('inactive', !running());
  }

  let lastAnnounced = -1;
  function tick() {
    if (!st) return;
    const ms = ctx.clockRemaining();
    // While the round runs the countdown stays in view (sticky) as the page scrolls.
    timer.classList.toggle('live', !!st.view && !st.view.over && !waiting() && ms !== null);
    if (st.view && st.view.over) {
      // The round ended by the clock (the referee), or because every
      // player pressed "I'm finished".
      const all = st.view.done.length >= st.view.counts.length;
      timer.textContent = all ? '✓ everyone has finished' : '◷ time is up';
      return;
    }
    if (waiting()) {
      timer.textContent = '◌ waiting for players';
      return;
    }
    if (ms === null) {
      timer.textContent = '';
      return;
    }
    const s = Math.ceil(ms / 1000);
    timer.textContent = `◷ ${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')} left`;
    timer.classList.toggle('low', s <= 10);
    if ((s === 30 || s === 10) && s !== lastAnnounced) {
      lastAnnounced = s;
      announce.textContent = `${s} seconds left`;
    }
  }
  setInterval(tick, 200);

  let boardKey = '';
  return {
    waitsWithoutView: true,
    showsClock: true, // the countdown above the board: the shell's header shows none
    /** @param {import('../api.js').StateMsg} s */
    update(s) {
      st = s;
      learnPoints(s.events);
      if (points.size < (s.view ? s.view.my_words.length : 0)) for (const m of (ctx.moves ? ctx.moves() : [])) learnPoints(m.events);
      if (s.view && s.view.over && (word.value || path.length)) {
        word.value = '';
        path = [];
        drawPath();
      }
      const key = s.view ? s.view.letters : '';
      if (key !== boardKey) {
        boardKey = key;
        drawGrid();
      }
      drawStatus();
      drawCounts();
      drawFeedback();
      drawResults();
      tick();
      if (running() && document.activeElement === document.body) focusWord();
    },
    /** @param {any} _e @param {any} action */
    error(_e, action) {
      return !!action && action.type === 'enter'; // shown next to the word in the feedback list
    },
    wouldLose() {
      return (!!word.value.trim() && running()) || feedback.some((f) => f.state === 'queued');
    },
    /** @param {import('../play.js').Move} m */
    describeMove(m) {
      /** @param {number} s */
      const who = (s) => (s === ctx.mySeat ? 'You' : ctx.seatName(s));
      return m.events.map((/** @type {any} */ e) => {
        switch (e.type) {
          // The word and its points reach its finder alone.
          case 'accepted': return Array.isArray(e.word) ? `${who(e.seat)} found ${String(e.word[0]).toUpperCase()} (+${e.word[1]})` : `${who(e.seat)} found a word (${e.words} so far)`;
          case 'seat_done': return `${who(e.seat)} finished searching`;
          case 'round_over': return 'The round is over';
          default: return null;
        }
      });
    },
    online() {
      for (const f of [...feedback].reverse()) if (f.state === 'queued' && running()) send(f);
    },
  };
}
