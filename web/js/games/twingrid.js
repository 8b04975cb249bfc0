// @ts-check
/**
 * Twin Grids' page: both grids side by side (player 1's and player 2's,
 * with the seat playing each role after the pie rule), each role's last
 * word marked and the one the next word is scored against highlighted, the
 * scores; the opening (the opening word's column and its points), the pie
 * decision, a word typed and placed by column with a preview on the grid
 * (where it goes, and the server's reckoning of it: the shared letters,
 * the vertical words it would form, the score or rule 4's refusal),
 * challenges and the last word's challenge or acceptance, and every turn's
 * score in the move list.
 *
 * Actions and view: crates/twingrid/src/turns.rs (`Action`, `Turn`),
 * crates/twingrid/src/game.rs (`View`, the helper `assist`), grid.rs
 * (`TurnScore`). The page scores nothing itself: the rules (the
 * dictionary, the vertical reading the table chose, rule 4) live in the
 * server, and the page shows its answer.
 */
import { h, oneAtATime, replace, warningLine } from '../dom.js';

/** @type {import('../settings.js').LobbyHooks} */
export const lobby = {
  prefix: 'tg',
  note: 'Player 1 places a random opening word and gives points to either side; then player 2 chooses a side (the pie rule). A word scores the letters it shares with the opponent’s last word times the longest word it forms down a column. No word may contain a word already played.',
};

/** @param {import('../play.js').PageContext} ctx */
export function mount(ctx) {
  /** @type {import('../api.js').StateMsg | null} */
  let st = null;
  /** The column chosen for the word (or the opening word), from 0. */
  let column = 0;
  /** Which turn the column was chosen for (reset to the middle on a new turn). */
  let columnKey = '';

  const status = h('h2', { id: 'tg-status', class: 'status', 'aria-live': 'polite' });
  const overEl = h('p', { id: 'tg-over', class: 'tg-over', hidden: true });
  const message = h('p', { id: 'tg-message', class: 'tg-message', role: 'alert' });
  const scoresEl = h('div', { id: 'tg-scores', class: 'tg-scores' });
  const gridsEl = h('div', { id: 'tg-grids', class: 'tg-grids' });
  const logEl = h('ol', { id: 'tg-log', class: 'tg-log' });

  // The controls are built once (the typed word and its focus survive updates).
  const wordIn = /** @type {HTMLInputElement} */ (h('input', {
    id: 'tg-word', autocomplete: 'off', autocapitalize: 'none', spellcheck: false, size: 14, maxlength: 20,
    'aria-describedby': 'tg-help', enterkeyhint: 'send',
  }));
  const columnOut = h('output', { id: 'tg-column', 'aria-live': 'polite', 'aria-label': 'Column of the word' });
  const previewEl = h('div', { id: 'tg-preview', class: 'tg-preview', 'aria-live': 'polite' });
  const challengeBtn = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', id: 'tg-challenge', class: 'danger', onclick: () => challenge() }, '⚑ Challenge'));
  const challengeNote = h('p', { id: 'tg-challenge-note', class: 'note' });
  const colButtons = () => [
    h('button', { type: 'button', id: 'tg-left', 'aria-label': 'Column to the left', onclick: () => moveColumn(-1) }, '◀'),
    h('button', { type: 'button', id: 'tg-right', 'aria-label': 'Column to the right', onclick: () => moveColumn(1) }, '▶'),
  ];
  const playBox = h('section', { id: 'tg-play', class: 'tg-box', hidden: true, 'aria-label': 'Your word' },
    h('h3', null, 'Your word'),
    h('div', { class: 'row tg-challenge-row' }, challengeBtn, challengeNote),
    h('form', {
      id: 'tg-form',
      class: 'word-form',
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        play();
      },
    },
    h('label', { for: 'tg-word' }, 'Word: '), wordIn,
    h('span', { class: 'tg-colpick' }, ' Column: ', colButtons()[0], columnOut, colButtons()[1]),
    h('button', { type: 'submit', id: 'tg-submit', class: 'primary' }, '✓ Play')),
    h('p', { id: 'tg-help', class: 'note' }, 'Type a word, then choose the column of its first letter: click a column of your grid or use ◀ ▶ (or Alt+← →). Enter plays.'),
    previewEl);

  const pointsIn = /** @type {HTMLInputElement} */ (h('input', { id: 'tg-points', type: 'number', min: 0, value: '0', size: 5, oninput: () => drawOpenNote() }));
  // One label holds two controls ("Give N points to P"): each has a name of its own.
  const toSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'tg-to', 'aria-label': 'Give the points to', onchange: () => drawOpenNote() },
    h('option', { value: '0' }, 'player 1 (you)'), h('option', { value: '1' }, 'player 2')));
  const openNote = h('p', { id: 'tg-open-note', class: 'note' });
  const openBox = h('section', { id: 'tg-open', class: 'tg-box', hidden: true, 'aria-label': 'The opening' },
    h('h3', null, 'The opening'),
    h('p', { id: 'tg-open-word' }),
    h('div', { class: 'row' },
      h('span', { class: 'tg-colpick' }, 'Column: ', h('button', { type: 'button', id: 'tg-open-left', 'aria-label': 'Column to the left', onclick: () => moveColumn(-1) }, '◀'),
        h('output', { id: 'tg-open-column', 'aria-label': 'Column of the opening word' }),
        h('button', { type: 'button', id: 'tg-open-right', 'aria-label': 'Column to the right', onclick: () => moveColumn(1) }, '▶'))),
    h('div', { class: 'row' }, h('label', null, 'Give ', pointsIn, ' points to ', toSel)),
    openNote,
    h('div', { class: 'row' }, h('button', { type: 'button', id: 'tg-open-submit', class: 'primary', onclick: () => open() }, '✓ Place the opening word')));

  const pieBox = h('section', { id: 'tg-pie', class: 'tg-box', hidden: true, 'aria-label': 'The pie rule' });
  const lastBox = h('section', { id: 'tg-last', class: 'tg-box', hidden: true, 'aria-label': 'The last word' });

  replace(
    ctx.root,
    h('div', { class: 'tg-page' },
      h('div', { class: 'tg-main' }, status, overEl, message, scoresEl, gridsEl, openBox, pieBox, playBox, lastBox),
      h('aside', { class: 'tg-side' }, h('h3', null, 'Moves'), h('p', { class: 'note' }, 'Every turn with its score: shared letters × the longest vertical word, plus the anagram bonus.'), logEl)),
  );

  const view = () => (st ? st.view : null);
  /** My role (0: player 1), if I play. @returns {number | null} */
  const myRole = () => {
    const v = view();
    return v && typeof v.role === 'number' ? v.role : null;
  };
  /** Whether `phase` is mine to act in now. @param {string} phase */
  const mine = (phase) => {
    const v = view();
    return !!v && v.phase === phase && myRole() !== null && v.to_play === myRole();
  };
  const seatOf = (/** @type {number} */ r) => view().seat_of[r];
  const roleName = (/** @type {number} */ r) => `player ${r + 1}`;
  /**
   * A seat's name without the shell's seat number ("Ann", not "Ann (P1)"):
   * here "player 1" and "player 2" are the roles, which the pie rule may
   * give to either seat.
   * @param {number} s
   */
  const seatLabel = (s) => {
    const n = ctx.seatName(s).replace(/ \([^)]*\)$/, '');
    return /^Player \d+$/.test(n) ? `Seat ${s + 1}` : n;
  };
  const seatWho = (/** @type {number} */ s) => (s === ctx.mySeat ? `${seatLabel(s)} (you)` : seatLabel(s));
  const who = (/** @type {number} */ r) => seatWho(seatOf(r));
  /** "Ann (you, player 2)": a role's player and the side. @param {number} r */
  const whoSide = (r) => `${seatLabel(seatOf(r))} (${seatOf(r) === ctx.mySeat ? 'you, ' : ''}${roleName(r)})`;
  const up = (/** @type {string} */ w) => w.toUpperCase();

  const say = warningLine(message);

  /** Sends an action, one at a time; clears the last refusal first. */
  const send = oneAtATime(ctx.act, () => say(''));

  /** The word typed, lower-case letters only. */
  const typed = () => wordIn.value.trim().toLowerCase();

  /** The word whose column is being chosen: the opening word or the typed word. */
  function placing() {
    const v = view();
    if (mine('open')) return v.opening;
    return typed();
  }

  /** The most a column can be for the word being placed. */
  function maxColumn() {
    const v = view();
    return Math.max(0, v.config.width - Math.max(1, placing().length));
  }

  /** @param {number} d */
  function moveColumn(d) {
    setColumn(column + d);
  }

  /** @param {number} c */
  function setColumn(c) {
    column = Math.max(0, Math.min(c, view().config.width - 1));
    drawGrids();
    drawControls();
  }

  async function play() {
    const w = typed();
    if (!w) {
      say('Type a word first.');
      return;
    }
    if (!/^[a-z]+$/.test(w)) {
      say('A word is letters a–z only.');
      return;
    }
    if (column + w.length > view().config.width) {
      say(`${up(w)} does not fit from column ${column + 1}: choose a column further left.`);
      return;
    }
    if (await send({ type: 'play', word: w, column })) wordIn.value = '';
  }

  async function open() {
    const v = view();
    const points = Number(pointsIn.value || '0');
    if (!Number.isInteger(points) || points < 0) {
      say('Points: a whole number, 0 or more.');
      return;
    }
    await send({ type: 'open', column: Math.min(column, v.config.width - v.opening.length), to: Number(toSel.value), points });
  }

  async function challenge() {
    const v = view();
    const r = myRole();
    if (r === null) return;
    const word = v.last[1 - r] || '';
    const text = `Challenge ${up(word)}? If the dictionary does not hold it, ${who(1 - r)} scores nothing for it; if it does, you skip ${v.phase === 'last_challenge' ? 'nothing (the game is over)' : 'this turn'}.`;
    if (await ctx.confirm(text, 'Challenge')) send({ type: 'challenge' });
  }

  wordIn.addEventListener('input', () => {
    drawGrids();
    drawControls();
  });
  wordIn.addEventListener('keydown', (e) => {
    if (e.altKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      e.preventDefault();
      moveColumn(e.key === 'ArrowLeft' ? -1 : 1);
    }
  });

  // ---- the preview: the server's reckoning ----

  // The server scores a placement (its helper, `TwinGrids::assist`: the
  // dictionary's vertical words in the table's reading, rule 4, player 2's
  // first word), asked a moment after the typing or the column stops
  // moving; the page shows that answer and nothing of its own.
  /** The last answer, for the placement of `key`. @type {null | {key: string, answer: any}} */
  let reckoning = null;
  let askedKey = '';
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let askTimer;

  /**
   * The word typed and its column, while it is mine to play and may be
   * asked about.
   * @returns {null | {word: string, column: number, fits: boolean, key: string}}
   */
  function placement() {
    const v = view();
    const w = typed();
    if (myRole() === null || !mine('turn') || !w || !/^[a-z]+$/.test(w)) return null;
    return { word: w, column, fits: column + w.length <= v.config.width, key: `${v.log.length}:${w}@${column}` };
  }

  /** The server's answer for the placement chosen now, once it has come. */
  function answer() {
    const p = placement();
    return p && p.fits && reckoning && reckoning.key === p.key ? reckoning.answer : null;
  }

  /** @param {{word: string, column: number, key: string}} p */
  function ask(p) {
    if (p.key === askedKey) return;
    askedKey = p.key;
    clearTimeout(askTimer);
    askTimer = setTimeout(async () => {
      /** @type {any} */
      let a;
      try {
        a = await ctx.assist({ word: p.word, column: p.column });
      } catch (e) {
        a = { error: /** @type {Error} */ (e).message };
      }
      if (askedKey !== p.key) return;
      reckoning = { key: p.key, answer: a || { error: 'no answer' } };
      drawGrids();
      drawPreview();
    }, 200);
  }

  function drawPreview() {
    const w = typed();
    if (w && !/^[a-z]+$/.test(w)) {
      replace(previewEl, h('p', { class: 'warn' }, 'Letters a–z only.'));
      return;
    }
    const p = placement();
    if (!p) {
      askedKey = '';
      replace(previewEl);
      return;
    }
    if (!p.fits) {
      askedKey = '';
      replace(previewEl, h('p', { id: 'tg-fit', class: 'warn' }, `${up(p.word)} does not fit from column ${column + 1}: move it left.`));
      return;
    }
    ask(p);
    const a = answer();
    if (!a) {
      replace(previewEl, h('p', { id: 'tg-asking', class: 'note' }, `Asking the server how ${up(p.word)} at column ${column + 1} would score…`));
      return;
    }
    if (a.error) {
      replace(previewEl, h('p', { id: 'tg-reckoning', class: 'warn' }, `The server could not reckon it: ${a.error}`));
      return;
    }
    if (a.refusal) {
      replace(previewEl, h('p', { id: 'tg-refusal', class: 'warn' }, `Not allowed: ${a.refusal} (rule 4: no word twice, and none containing a word already played).`));
      return;
    }
    const sc = a.score;
    /** @type {any[]} */
    const lines = [h('li', { id: 'tg-shared' }, `Shared letters with ${up(a.against)}: ${sc.shared}${sc.shared ? ` (${up(sc.shared_letters)})` : ''}`)];
    if (a.first) lines.push(h('li', null, 'Your first word as player 2 scores the shared letters alone.'));
    else {
      lines.push(sc.vertical_words.length
        ? h('li', { id: 'tg-verticals' }, 'Vertical words it forms: ',
          sc.vertical_words.map((/** @type {any} */ x, /** @type {number} */ i) => h('span', { class: 'tg-run', dataset: { word: x.word } }, `${i ? ', ' : ''}${up(x.word)} (column ${x.column + 1}, ${x.word.length})`)))
        : h('li', { id: 'tg-verticals', class: 'warn' }, 'It forms no vertical word: it would score 0.'));
    }
    const sum = a.first ? `${sc.score}` : `${sc.shared} × ${sc.longest_vertical}${sc.anagram_bonus ? ` + ${sc.anagram_bonus} anagram bonus` : ''} = ${sc.score}`;
    lines.push(h('li', { id: 'tg-score', class: 'tg-estimate', dataset: { score: String(sc.score) } }, `Score: ${sum}`));
    replace(previewEl, h('ul', { class: 'tg-notes' }, lines),
      h('p', { class: 'note' }, 'The server’s reckoning, by this table’s rules. Whether your word itself is in the dictionary is for a challenge to say.'));
  }

  // ---- drawing ----

  function drawStatus() {
    const v = view();
    const r = myRole();
    let text;
    switch (v.phase) {
      case 'draw': text = 'Drawing the opening word…'; break;
      case 'open': text = mine('open') ? `Your opening: place ${up(v.opening)} and give points` : `${who(0)} places the opening word ${up(v.opening)}`; break;
      case 'pie': text = mine('pie') ? 'The pie rule: choose your side' : `${who(1)} chooses a side (the pie rule)`; break;
      case 'turn': text = mine('turn') ? 'Your turn: write a word in your grid' : `${who(v.to_play)} to play`; break;
      case 'last_challenge': text = mine('last_challenge') ? 'The last word: challenge it or accept it' : `${who(v.to_play)} may challenge the last word`; break;
      default: text = 'Game over';
    }
    if (mine('turn') && r !== null) text += ` · your turn ${Math.min(v.turns_taken[r] + (mine('turn') ? 1 : 0), v.config.turns)} of ${v.config.turns}`;
    status.textContent = text;
    const over = v.phase === 'over';
    overEl.hidden = !over;
    if (over) overEl.textContent = `The game is over. ${endText()}`;
  }

  /** A role's player by name and side: "Bea, player 1". @param {number} r */
  const named = (r) => `${seatLabel(seatOf(r))}, ${roleName(r)},`;

  /**
   * Who won and why, in the game's words (this page's line and the
   * shell's result): the higher score after the turns, the last word let
   * stand or challenged, or a player who left.
   * @returns {string | null}
   */
  function endText() {
    const v = view();
    if (!v || v.phase !== 'over') return null;
    if (typeof v.left === 'number') {
      const lr = v.left === v.seat_of[0] ? 0 : 1;
      return `${seatLabel(v.left)} left the game, so ${named(1 - lr)} wins (${v.scores[1 - lr]} to ${v.scores[lr]} when they left).`;
    }
    let why = `after ${v.config.turns} turns each`;
    const end = v.log[v.log.length - 1];
    const lastWord = [...v.log].reverse().find((/** @type {any} */ e) => e.type === 'word');
    if (end && end.type === 'accepted' && lastWord) why += `; ${seatLabel(seatOf(end.player))} let the last word, ${up(lastWord.word)}, stand`;
    else if (lastWord && lastWord.challenged === true) why += `; the last word, ${up(lastWord.word)}, was challenged: not in the dictionary, it scored 0`;
    else if (lastWord && lastWord.challenged === false) why += `; the last word, ${up(lastWord.word)}, was challenged and stands`;
    const [a, b] = v.scores;
    if (a === b) return `A tie, ${a} points each, ${why}.`;
    const wr = a > b ? 0 : 1;
    return `${named(wr)} wins, ${v.scores[wr]} points to ${v.scores[1 - wr]}: the higher score ${why}.`;
  }

  function drawScores() {
    const v = view();
    replace(scoresEl, [0, 1].map((r) => h('span', { class: `chip tg-score${v.to_play === r && v.phase !== 'over' ? ' acting' : ''}`, dataset: { role: String(r), score: String(v.scores[r]) } },
      `${v.to_play === r && v.phase !== 'over' ? '▶ ' : ''}Player ${r + 1}: ${who(r)} — ${v.scores[r]} point${v.scores[r] === 1 ? '' : 's'} · ${v.turns_taken[r]} of ${v.config.turns} turns`)));
  }

  /** The cells of each role's last word: `${role}:${row}:${col}`. */
  function lastCells() {
    const v = view();
    /** @type {Map<number, {row: number, column: number, len: number}>} */
    const at = new Map();
    for (const e of v.log) {
      if (e.type === 'opening') at.set(0, { row: 0, column: e.column, len: e.word.length });
      if (e.type === 'word') at.set(e.player, { row: e.row, column: e.column, len: e.word.length });
    }
    /** @type {Set<string>} */
    const cells = new Set();
    for (const [role, x] of at) for (let i = 0; i < x.len; i++) cells.add(`${role}:${x.row}:${x.column + i}`);
    return cells;
  }

  /** Keeps the chosen column where the word being placed fits. */
  function clampColumn() {
    const v = view();
    if (mine('open')) column = Math.max(0, Math.min(column, v.config.width - v.opening.length));
    else if (mine('turn') && typed()) column = Math.max(0, Math.min(column, maxColumn()));
  }

  function drawGrids() {
    clampColumn();
    const v = view();
    const r = myRole();
    const width = v.config.width;
    const last = lastCells();
    // The word my next word is scored against (or, for a watcher, the next player's).
    const scorer = r !== null ? r : typeof v.to_play === 'number' ? v.to_play : null;
    const againstRole = scorer === null ? null : 1 - scorer;
    const p = placement();
    const a = answer();
    const placingOpen = mine('open');
    // The cells above the new row of each vertical word the server found.
    /** @type {Set<string>} */
    const runCells = new Set();
    if (a && a.score && !a.first && !a.refusal) {
      for (const x of a.score.vertical_words) for (let k = 1; k < x.word.length; k++) runCells.add(`${a.row - k}:${x.column}`);
    }
    const choose = mine('turn') || placingOpen;
    replace(gridsEl, [0, 1].map((role) => {
      const rows = v.grids[role];
      const nRows = Math.max(v.config.turns, rows.length);
      const nextRow = placingOpen ? 0 : rows.length;
      /** @type {string} */
      let ghost = '';
      if (choose && role === r) ghost = placingOpen ? v.opening : p && p.fits ? p.word : '';
      const ownLast = v.last[role];
      const title = `Player ${role + 1}: ${who(role)}`;
      const head = h('tr', null, h('th', { class: 'tg-corner', scope: 'col' }, ''),
        Array.from({ length: width }, (_, c) => h('th', { scope: 'col', class: `tg-colhead${choose && role === r && c === column ? ' chosen' : ''}` },
          choose && role === r
            ? h('button', { type: 'button', class: 'tg-col', dataset: { col: String(c) }, 'aria-label': `Column ${c + 1}`, onclick: () => setColumn(c) }, String(c + 1))
            : String(c + 1))));
      const body = Array.from({ length: nRows }, (_, row) => h('tr', null, h('th', { scope: 'row', class: 'tg-rowhead' }, String(row + 1)),
        Array.from({ length: width }, (_, c) => {
          const ch = rows[row] ? rows[row][c] : '.';
          const classes = ['tg-cell'];
          let text = ch && ch !== '.' ? ch.toUpperCase() : '';
          if (last.has(`${role}:${row}:${c}`)) classes.push(role === againstRole ? 'against' : 'last');
          if (role === r && runCells.has(`${row}:${c}`)) classes.push('run');
          if (ghost && role === r && row === nextRow && c >= column && c < column + ghost.length) {
            classes.push('preview');
            text = ghost[c - column].toUpperCase();
          }
          if (choose && role === r && c === column) classes.push('chosen-col');
          return h('td', {
            class: classes.join(' '),
            dataset: { row: String(row), col: String(c) },
            onclick: choose && role === r ? () => setColumn(c) : undefined,
          }, text);
        })));
      return h('section', { class: `tg-grid${role === r ? ' mine' : ''}`, dataset: { role: String(role), seat: String(seatOf(role)) } },
        h('h3', null, title),
        h('table', { class: 'tg-table', 'aria-label': `Player ${role + 1}'s grid, ${rows.length} row${rows.length === 1 ? '' : 's'} written` }, h('thead', null, head), h('tbody', null, body)),
        h('p', { class: 'tg-lastword note' }, ownLast ? `Last word: ${up(ownLast)}${role === againstRole && v.phase !== 'over' ? ' — the next word is scored against it' : ''}` : v.opening && role === 1 && v.phase !== 'over' ? `No word yet (player 2's first word is scored against the opening word ${up(v.opening)})` : 'No word yet'));
    }));
  }

  function drawOpenNote() {
    const v = view();
    const pts = Number(pointsIn.value || '0');
    openNote.textContent = `Most points: ${v.config.max_opening_points}. Give points to make the opening fair: after this, your opponent chooses which side to take (the pie rule), so a side worth more than the other will be taken from you.${pts ? ` You give ${pts} to ${toSel.value === '0' ? 'player 1' : 'player 2'}.` : ''}`;
  }

  function drawControls() {
    const v = view();
    const r = myRole();
    // The opening.
    const opening = mine('open');
    openBox.hidden = !opening;
    if (opening) {
      column = Math.min(column, v.config.width - v.opening.length);
      replace(/** @type {HTMLElement} */ (openBox.querySelector('#tg-open-word')),
        `The opening word is ${up(v.opening)}. Choose the column of its first letter in the top row of your grid (click a column or ◀ ▶), and give points to either player (0 or more).`);
      /** @type {HTMLElement} */ (openBox.querySelector('#tg-open-column')).textContent = ` ${column + 1} `;
      pointsIn.max = String(v.config.max_opening_points);
      drawOpenNote();
    }
    // The pie.
    const pie = mine('pie');
    pieBox.hidden = !pie;
    if (pie) {
      const op = v.log.find((/** @type {any} */ e) => e.type === 'opening');
      const [s1, s2] = v.scores;
      replace(pieBox,
        h('h3', null, 'The pie rule: choose your side'),
        h('p', null, `${who(0)} placed ${up(v.opening)} and gave ${op ? op.points : 0} point${op && op.points === 1 ? '' : 's'} to ${op && op.to === 0 ? 'player 1' : 'player 2'}: player 1 has ${s1}, player 2 has ${s2}.`),
        h('p', { class: 'note' }, 'Stay player 2: you play next, with an empty grid, and your first word scores the letters it shares with the opening word. Swap: you become player 1, taking the grid with the opening word and player 1’s points; your opponent becomes player 2 and plays next.'),
        h('div', { class: 'row' },
          h('button', { type: 'button', id: 'tg-stay', class: 'primary', onclick: () => send({ type: 'pie', swap: false }) }, 'Stay player 2 (play next)'),
          h('button', { type: 'button', id: 'tg-swap', onclick: () => send({ type: 'pie', swap: true }) }, `Swap: become player 1 (${s1} point${s1 === 1 ? '' : 's'})`)));
    }
    // A word.
    const turn = mine('turn');
    playBox.hidden = !turn;
    if (turn && r !== null) {
      // The word open to a challenge is the last one written; when the
      // opponent has no turns left a player writes twice running, and
      // `can_challenge` is then about the player's own word.
      const lastWord = [...v.log].reverse().find((/** @type {any} */ e) => e.type === 'word');
      const canCh = v.can_challenge && v.config.challenges && !!lastWord && lastWord.player !== r;
      challengeBtn.hidden = !canCh;
      challengeNote.textContent = canCh ? `You may challenge ${up(lastWord.word)} before you play: if it is not a word it scores 0; if it is, you skip this turn.` : '';
      const w = typed();
      const most = w ? maxColumn() : v.config.width - 1;
      if (column > most) column = most;
      columnOut.textContent = ` ${column + 1} `;
      drawPreview();
    }
    // The last challenge.
    const lastCh = mine('last_challenge');
    lastBox.hidden = !lastCh;
    if (lastCh && r !== null) {
      const w = v.last[1 - r] || '';
      replace(lastBox,
        h('h3', null, 'The last word'),
        h('p', null, `${who(1 - r)} wrote the game's last word, ${up(w)}. Challenge it (if the dictionary does not hold it, it scores 0) or accept it; either ends the game.`),
        h('div', { class: 'row' },
          h('button', { type: 'button', id: 'tg-accept', class: 'primary', onclick: () => send({ type: 'accept' }) }, '✓ Accept'),
          h('button', { type: 'button', id: 'tg-last-challenge', class: 'danger', onclick: () => challenge() }, '⚑ Challenge')));
    }
  }

  /** A turn's score explained. @param {any} e a `Turn::Word` */
  function breakdown(e) {
    const s = e.score;
    /** @type {string[]} */
    const parts = [];
    parts.push(`shared with ${up(e.against)}: ${s.shared}${s.shared ? ` (${up(s.shared_letters)})` : ''}`);
    if (e.first) parts.push(`player 2's first word: the shared letters alone = ${s.score}`);
    else {
      parts.push(s.vertical_words.length
        ? `vertical words: ${s.vertical_words.map((/** @type {any} */ x) => `${up(x.word)} (column ${x.column + 1})`).join(', ')}; longest ${s.longest_vertical}`
        : 'no vertical word');
      parts.push(`${s.shared} × ${s.longest_vertical} = ${s.shared * s.longest_vertical}`);
      if (s.anagram_bonus) parts.push(`anagram bonus +${s.anagram_bonus}`);
    }
    return parts;
  }

  function drawLog() {
    const v = view();
    let pieSwap = false;
    for (const e of v.log) if (e.type === 'pie') pieSwap = e.swap;
    const items = v.log.map((/** @type {any} */ e, /** @type {number} */ i) => {
      const n = String(i + 1);
      if (e.type === 'opening') {
        // The seat that opened is player 1's seat before the pie.
        const s = pieSwap ? v.seat_of[1] : v.seat_of[0];
        return h('li', { dataset: { kind: 'opening', n } },
          `${seatWho(s)} opened with ${up(e.word)} at column ${e.column + 1}`,
          e.points ? `, giving ${e.points} point${e.points === 1 ? '' : 's'} to player ${e.to + 1}` : ', giving no points');
      }
      if (e.type === 'pie') {
        const s = e.swap ? v.seat_of[0] : v.seat_of[1];
        return h('li', { dataset: { kind: 'pie', n } }, `${seatWho(s)} ${e.swap ? 'swapped: now player 1, with the opening word and its points' : 'stayed player 2'}`);
      }
      if (e.type === 'skipped') {
        return h('li', { dataset: { kind: 'skipped', n } }, `${whoSide(e.player)}: turn skipped (a challenge failed)`);
      }
      if (e.type === 'accepted') {
        return h('li', { dataset: { kind: 'accepted', n } }, `${whoSide(e.player)} let the last word stand: the game is over`);
      }
      const fake = e.challenged === true;
      const kind = e.challenged === true ? 'word-fake' : e.challenged === false ? 'word-stood' : 'word';
      return h('li', { dataset: { kind, n, word: e.word } },
        h('span', null, `${whoSide(e.player)} wrote `, h('strong', { class: 'tg-log-word' }, up(e.word)), ` at column ${e.column + 1}, row ${e.row + 1}: `,
          h('b', { class: 'tg-log-score' }, fake ? `0 points (${e.score.score} taken back)` : `${e.score.score} point${e.score.score === 1 ? '' : 's'}`)),
        e.challenged === true ? h('span', { class: 'tg-challenge-result' }, ' — challenged: not in the dictionary, it scores 0') : null,
        e.challenged === false ? h('span', { class: 'tg-challenge-result' }, ' — challenged: a word; the challenger skips a turn') : null,
        h('ul', { class: 'tg-steps' }, breakdown(e).map((x) => h('li', null, x))));
    });
    const atBottom = logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 40;
    replace(logEl, items.length ? items : h('li', { class: 'note', dataset: { kind: 'none' } }, 'No moves yet.'));
    if (atBottom) logEl.scrollTop = logEl.scrollHeight;
  }

  return {
    namesSeats: true,
    /**
     * A move of the server's move list in words (the log beside the grids
     * has the score's steps too).
     * @param {import('../play.js').Move} m
     */
    describeMove(m) {
      const by = typeof m.by === 'object' && m.by && 'seat' in m.by ? seatLabel(m.by.seat) : null;
      const name = (/** @type {number} */ r) => seatLabel(seatOf(r));
      return m.events.map((/** @type {any} */ e) => {
        switch (e.type) {
          case 'opening': return `${by || 'Player 1'} opened with ${up(e.word)} at column ${e.column + 1}, giving ${e.points} point${e.points === 1 ? '' : 's'} to player ${e.to + 1}`;
          case 'pie': return `${by || 'Player 2'} ${e.swap ? 'swapped sides (the pie rule): now player 1' : 'stayed player 2'}`;
          case 'skipped': return `${name(e.player)}'s turn skipped (a challenge failed)`;
          case 'accepted': return `${name(e.player)} let the last word stand: the game is over`;
          case 'word': {
            // A challenge's event is the challenged word with its verdict.
            if (e.challenged !== undefined && typeof m.by === 'object' && m.by && m.by.seat !== seatOf(e.player)) {
              return `${by} challenged ${up(e.word)}: ${e.challenged ? 'not a word, it scores 0' : 'it is a word; the challenger skips a turn'}`;
            }
            const score = e.challenged === true ? 'challenged: not a word, 0 points' : `${e.score.score} point${e.score.score === 1 ? '' : 's'}${e.challenged === false ? ' (challenged: it stands)' : ''}`;
            return `${name(e.player)} wrote ${up(e.word)} at column ${e.column + 1}: ${score}`;
          }
          default: return null;
        }
      });
    },
    describeEnd: endText,
    /** @param {import('../api.js').StateMsg} s */
    update(s) {
      st = s;
      const v = s.view;
      if (!v) return;
      // A new turn of mine: the column goes back to the left edge, the word box empties.
      const key = JSON.stringify([v.phase, v.to_play, v.log.length]);
      if (key !== columnKey) {
        const wasMine = columnKey !== '';
        columnKey = key;
        if (mine('open')) column = Math.floor((v.config.width - v.opening.length) / 2);
        else if (wasMine) column = Math.min(column, v.config.width - 1);
      }
      document.body.dataset.tgPhase = v.phase;
      drawStatus();
      drawScores();
      drawGrids();
      drawControls();
      drawLog();
      if (mine('turn') && document.activeElement === document.body) wordIn.focus();
    },
    /** @param {Error} e */
    error(e) {
      say(`Not done: ${e.message}`);
      return true;
    },
    wouldLose() {
      return mine('turn') && !!typed();
    },
  };
}
