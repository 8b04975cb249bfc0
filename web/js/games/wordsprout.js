// @ts-check
/**
 * Word Sprout's page: the central string with its insertion points, whose
 * turn it is, challenges, out-of-turn play and calls, who is out, the active
 * rules, and the game's helper ("what could have been played?", from the
 * server: POST /api/games/{id}/assist) after the round, or during play at a
 * table created with the helper on.
 *
 * Playing by keyboard: type a letter, choose the point with ← → (or click
 * a “+”), Enter plays, Esc cancels; or type the whole new string in the box.
 * By touch or mouse: tap a “+”, tap a letter, then “Play”.
 *
 * Actions and view: crates/wordsprout/src/game.rs (`Action`, `View`).
 */
import { h, replace } from '../dom.js';
import { potView, tileLeft, gridView, teamOf, collectionView } from './wordsprout-variants.js';
import { catalog } from '../wordlists.js';

/**
 * Human names of the rules, as the game declares them (the options of its
 * `rules` setting in /api/catalog: `Rule::title` in
 * crates/wordsprout/src/rules.rs). Loaded with the module; without the
 * catalog (the server unreachable) a rule shows its own name.
 * @type {Map<string, string>}
 */
const RULE_TITLES = await catalog()
  .then((c) => {
    const g = c.games.find((x) => x.name === 'wordsprout');
    const s = g && (g.settings || []).find((x) => x.field === 'rules');
    return new Map(s && s.kind.type === 'flags' ? s.kind.options.map((o) => [String(o.value), o.label]) : []);
  })
  .catch(() => new Map());

/** @param {string} r */
const ruleName = (r) => RULE_TITLES.get(r) || r;

const OUT_REASONS = /** @type {Record<string, string>} */ ({
  conceded: 'conceded',
  'failed-challenge': 'challenged a valid play',
  'lost-challenge': 'could not justify a challenged play',
  'out-of-turn': 'was called for playing out of turn',
  'invalid-winning-play': 'made an invalid winning play',
  referee: 'was put out by the referee (time)',
});

const WIN_REASONS = /** @type {Record<string, string>} */ ({
  'last-standing': 'the last player in',
  'vowel-collection': 'collected every vowel',
  'open-challenge': 'an open challenge caught a bluff',
  'closed-shape': 'closed a shape on the grid',
});

/**
 * The lobby's rules form is drawn from the game's settings (web/js/settings.js);
 * this adds what they cannot say: team play with the teams left blank
 * means two teams of alternate seats, and teams only go with team play.
 * @type {import('../settings.js').LobbyHooks}
 */
export const lobby = {
  prefix: 'ws',
  finish(c, players) {
    if (!(c.rules || []).includes('teams')) delete c.teams;
    else if (!c.teams) {
      /** @type {number[]} */ const a = [];
      /** @type {number[]} */ const b = [];
      for (let s = 0; s < players; s++) (s % 2 ? b : a).push(s);
      c.teams = [a, b];
    }
  },
  placeholders: { teams: '1 3 / 2 4 (blank: alternate players)' },
};

/**
 * The string after inserting `letter` at `point` (0 = front).
 * @param {string} s @param {number} point @param {string} letter
 */
const insert = (s, point, letter) => s.slice(0, point) + letter + s.slice(point);

/** @param {import('../play.js').PageContext} ctx */
export function mount(ctx) {
  /** @type {import('../api.js').StateMsg | null} */
  let st = null;
  /** @type {{point: number | null, letter: string | null}} */
  const pick = { point: null, letter: null };
  let helperOpen = false;

  const status = h('h2', { id: 'ws-status', class: 'status', 'aria-live': 'polite' });
  const rulesEl = h('p', { id: 'ws-rules', class: 'rules-shown' });
  const potEl = h('div', { id: 'ws-pot-box' });
  const roundEl = h('p', { id: 'ws-round' });
  const playersEl = h('ul', { id: 'ws-players', class: 'ws-players' });
  const stringEl = h('div', { id: 'ws-string', class: 'ws-string', role: 'group', 'aria-label': 'The central string and its insertion points' });
  const hintEl = h('p', { id: 'ws-hint', class: 'hint' });
  const padEl = h('div', { id: 'ws-pad', class: 'pad' });
  const previewEl = h('div', { id: 'ws-preview', class: 'preview', 'aria-live': 'polite' });
  const whole = /** @type {HTMLInputElement} */ (
    h('input', { id: 'ws-whole', autocomplete: 'off', autocapitalize: 'none', spellcheck: false, size: 20, 'aria-describedby': 'ws-whole-help' })
  );
  const wholeForm = h(
    'form',
    {
      id: 'ws-whole-form',
      class: 'whole',
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const v = whole.value.trim().toLowerCase();
        if (!v) return;
        send({ type: 'play', string: v }).then(() => (whole.value = ''), () => {});
      },
    },
    h('label', { for: 'ws-whole' }, 'Or type the whole new string: '),
    whole,
    h('button', { type: 'submit' }, 'Play'),
    h('small', { id: 'ws-whole-help' }, ' (Enter plays it)'),
  );
  const buttons = h('div', { id: 'ws-buttons', class: 'row' });
  const proveEl = h('div', { id: 'ws-prove' });
  const chooseEl = h('div', { id: 'ws-choose' });
  const helperEl = h('div', { id: 'ws-helper', class: 'helper' });
  const helperInput = /** @type {HTMLInputElement} */ (
    h('input', { id: 'ws-helper-string', autocomplete: 'off', autocapitalize: 'none', spellcheck: false, size: 16 })
  );
  const helperSolve = /** @type {HTMLInputElement} */ (h('input', { id: 'ws-helper-solve', type: 'checkbox' }));
  const helperSolveLabel = h('label', { class: 'check' }, helperSolve, ' mark winning and losing plays (perfect play; the first time may take a while)');
  const helperResult = h('div', { id: 'ws-helper-result', 'aria-live': 'polite' });
  const helperPanel = h(
    'div',
    { id: 'ws-helper-panel', hidden: true },
    h('form', { id: 'ws-helper-form', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); askHelper(); } },
      h('label', { for: 'ws-helper-string' }, 'String: '), helperInput, ' ', helperSolveLabel, ' ',
      h('button', { type: 'submit' }, 'Show the plays')),
    helperResult,
  );
  const helperBtn = h('button', {
    type: 'button',
    id: 'ws-helper-btn',
    onclick: () => {
      helperOpen = !helperOpen;
      if (helperOpen && st) {
        helperInput.value = st.view.string;
        askHelper();
      }
      drawHelper();
    },
  });
  replace(helperEl, helperBtn, helperPanel);
  let helperAsked = 0;
  const boardEl = h('div', { id: 'ws-board' });
  // Between rounds: what ended the last one, in view until the next move.
  const breakEl = h('p', { id: 'ws-round-break', class: 'round-break', role: 'status', hidden: true });

  replace(
    ctx.root,
    status,
    breakEl,
    rulesEl,
    potEl,
    roundEl,
    playersEl,
    stringEl,
    hintEl,
    padEl,
    previewEl,
    wholeForm,
    proveEl,
    chooseEl,
    buttons,
    boardEl,
    helperEl,
  );

  /** @param {number} s */
  const name = (s) => (s === ctx.mySeat ? `you (${ctx.seatName(s)})` : ctx.seatName(s));
  /** @param {string} s */
  const shown = (s) => (s ? s.toUpperCase() : '(empty)');

  /** @param {any} action */
  function send(action) {
    // The last refusal belongs to the last action.
    replace(previewEl);
    return ctx.act(action).then(
      (r) => {
        clearPick();
        return r;
      },
      (e) => {
        throw e;
      },
    );
  }

  function legal() {
    return (st && st.legal) || [];
  }
  /** @param {string} type */
  const can = (type) => legal().some((/** @type {any} */ a) => a.type === type);

  function clearPick() {
    pick.point = null;
    pick.letter = null;
    draw();
  }

  function iAmIn() {
    const v = st && st.view;
    return !!v && ctx.mySeat !== null && v.active[ctx.mySeat] && v.phase.phase === 'playing';
  }

  function myTurn() {
    const v = st && st.view;
    return !!v && v.phase.phase === 'playing' && v.to_move === ctx.mySeat;
  }

  /** @param {any} e */
  function describe(e) {
    switch (e.type) {
      case 'played':
        return `${name(e.seat)} played ${shown(e.to)}${e.out_of_turn ? ' — out of turn!' : ''}`;
      case 'challenged':
        return `${name(e.challenger)} challenged ${shown(e.string)} (played by ${name(e.challenged)})`;
      case 'proved':
        return `${name(e.seat)} named the goal word ${shown(e.word)}`;
      case 'called':
        return `${name(e.caller)} called ${name(e.offender)}'s out-of-turn play`;
      case 'out':
        return `✗ ${name(e.seat)} ${e.seat === ctx.mySeat ? 'are' : 'is'} out: ${OUT_REASONS[e.reason] || e.reason}`;
      case 'undone':
        return `The losing play is undone: the string is ${shown(e.string)} again`;
      case 'reversed':
        return `The order of play reverses (${e.forward ? 'forward' : 'backward'})`;
      case 'round-won':
        return `★ Round ${e.round} won by ${e.winners.map(name).join(' and ')}${WIN_REASONS[e.reason] ? ` (${WIN_REASONS[e.reason]})` : ''}`;
      case 'new-string':
        return `${name(e.seat)} started a new string through letter ${e.index + 1} of string ${e.line + 1}`;
      case 'last-tile':
        return `${name(e.seat)} played the last ${e.vowel.toUpperCase()} tile: not collected`;
      case 'turned-in':
        return `Vowel collections turned in: ${e.seats.map(name).join(', ')}`;
      case 'round-started':
        return `Round ${e.round} starts; ${name(e.first)} plays first`;
      case 'match-over':
        // "Game over" is the result's headline; the move says who won.
        return `★ ${e.winners.map(name).join(' and ')} won the match`;
      case 'collected':
        return `${name(e.seat)} collected ${e.vowel.toUpperCase()}`;
      case 'lost-vowel':
        return `${name(e.seat)} lost ${e.vowel.toUpperCase()} from their collection`;
      case 'rule-changed':
        return e.rule ? `${name(e.seat)} turned ${ruleName(e.rule)} ${e.on ? 'on' : 'off'}` : `${name(e.seat)} kept the rules`;
      case 'to-move':
        return null;
      default:
        return `${e.type}`;
    }
  }

  function drawString() {
    const v = st && st.view;
    if (!v) return;
    const s = v.string;
    const parts = [];
    const canPlay = iAmIn();
    for (let i = 0; i <= s.length; i++) {
      const where = i === 0 ? (s.length ? `before ${s[0].toUpperCase()} (front)` : 'start the string') : i === s.length ? `after ${s[i - 1].toUpperCase()} (end)` : `between ${s[i - 1].toUpperCase()} and ${s[i].toUpperCase()}`;
      const selected = pick.point === i;
      parts.push(
        h(
          'button',
          {
            type: 'button',
            class: `ins${selected ? ' selected' : ''}`,
            'aria-pressed': selected ? 'true' : 'false',
            'aria-label': `Insert ${where}`,
            title: `Insert ${where}`,
            dataset: { point: String(i) },
            disabled: !canPlay,
            onclick: () => {
              pick.point = selected ? null : i;
              draw();
              if (pick.point !== null && !pick.letter) {
                /** @type {HTMLElement | null} */ (padEl.querySelector('button'))?.focus();
              }
            },
          },
          selected ? (pick.letter ? pick.letter.toUpperCase() : '▾') : '+',
        ),
      );
      if (i < s.length) parts.push(h('span', { class: 'letter' }, s[i].toUpperCase()));
    }
    replace(stringEl, parts);
  }

  function drawPick() {
    const v = st && st.view;
    if (!v) return;
    if (!iAmIn()) {
      replace(hintEl, ctx.mySeat === null ? '' : v.phase.phase === 'playing' ? 'You are out of this round.' : '');
      replace(padEl);
      replace(previewEl);
      return;
    }
    replace(
      hintEl,
      pick.letter && pick.point === null
        ? `Letter ${pick.letter.toUpperCase()}: now choose where (← → then Enter, or click a +).`
        : pick.point !== null && !pick.letter
          ? 'Now type or tap the letter to add.'
          : myTurn()
            ? v.max_letters > 1
              ? 'Your turn: the string is a palindrome, so you may add one letter (click a +) or two (type the whole new string below); it must stay a palindrome.'
              : 'Your turn: type a letter, or click a + between letters.'
            : v.rules.includes('out-of-turn')
              ? 'Not your turn — you may still play out of turn, at your risk.'
              : 'Wait for your turn.',
    );
    if (pick.point !== null && !pick.letter) {
      replace(
        padEl,
        Array.from('abcdefghijklmnopqrstuvwxyz', (c) => {
          const left = tileLeft(v, c);
          return h('button', {
            type: 'button',
            class: 'key',
            disabled: !left,
            'aria-label': left ? `letter ${c.toUpperCase()}` : `letter ${c.toUpperCase()}, no tile left`,
            title: left ? '' : 'no tile left in the pot',
            onclick: () => { pick.letter = c; draw(); focusPlay(); },
          }, c.toUpperCase());
        }),
      );
    } else replace(padEl);
    if (pick.point !== null && pick.letter) {
      const next = insert(v.string, pick.point, pick.letter);
      const outOfTurn = !myTurn();
      replace(
        previewEl,
        h('p', null, 'New string: ', h('span', { class: 'new-string' }, Array.from(next, (c, i) => (i === pick.point ? h('mark', { title: 'the letter you add' }, c.toUpperCase()) : c.toUpperCase())))),
        outOfTurn ? h('p', { class: 'warn' }, '⚠ Not your turn: this is an out-of-turn play. If another player calls it, you are out.') : null,
        h(
          'div',
          { class: 'row' },
          h('button', { type: 'button', id: 'ws-play', class: 'primary', onclick: () => send({ type: 'play', string: next }).catch(() => {}) }, `✓ Play ${next.toUpperCase()}`),
          h('button', { type: 'button', class: 'cancel', onclick: clearPick }, '✗ Cancel (Esc)'),
        ),
      );
    } else replace(previewEl);
  }

  function focusPlay() {
    /** @type {HTMLElement | null} */ (document.getElementById('ws-play'))?.focus();
  }

  function drawButtons() {
    const v = st && st.view;
    if (!v) return;
    const b = [];
    const lp = v.last_play;
    if (can('challenge') && lp) {
      b.push(
        h('button', {
          type: 'button',
          id: 'ws-challenge',
          onclick: async () => {
            if (await ctx.confirm(`Challenge ${name(lp.by)}'s play ${shown(lp.to)}? If they name a goal word that fits, you are out.`, 'Challenge')) send({ type: 'challenge' }).catch(() => {});
          },
        }, `⚑ Challenge ${shown(lp.to)}`),
      );
    }
    if (can('call') && lp) {
      b.push(h('button', { type: 'button', id: 'ws-call', onclick: () => send({ type: 'call' }).catch(() => {}) }, `☝ Call ${name(lp.by)}'s out-of-turn play`));
    }
    if (ctx.mySeat !== null && v.phase.phase === 'playing' && v.active[ctx.mySeat]) {
      b.push(
        h('button', {
          type: 'button',
          id: 'ws-concede',
          class: 'danger',
          onclick: async () => {
            if (await ctx.confirm('Go out of this round? (“I cannot play.”) This cannot be undone.', 'Go out')) send({ type: 'concede' }).catch(() => {});
          },
        }, '⚐ I cannot play (go out)'),
      );
    }
    replace(buttons, b);

    // A challenge to answer.
    if (v.phase.phase === 'proving' && v.phase.challenged === ctx.mySeat) {
      const word = /** @type {HTMLInputElement} */ (h('input', { id: 'ws-goal', autocomplete: 'off', autocapitalize: 'none', spellcheck: false, size: 16 }));
      replace(
        proveEl,
        h('form', {
          class: 'prove',
          onsubmit: (/** @type {Event} */ e) => {
            e.preventDefault();
            if (word.value.trim()) send({ type: 'prove', word: word.value.trim().toLowerCase() }).catch(() => {});
          },
        },
        h('p', { class: 'warn' }, `⚑ ${name(v.phase.challenger)} challenged your play ${shown(v.string)}: name a word that contains it.`),
        h('label', { for: 'ws-goal' }, 'Goal word: '), word, h('button', { type: 'submit', class: 'primary' }, 'Prove'),
        h('button', {
          type: 'button',
          class: 'danger',
          onclick: async () => {
            if (await ctx.confirm('Give up the challenge? You go out and your play is undone.', 'Give up')) send({ type: 'concede' }).catch(() => {});
          },
        }, 'Give up'),
        ),
      );
      if (!proveEl.contains(document.activeElement)) word.focus();
    } else replace(proveEl);

    // Metamorphism: the round's winner switches a rule.
    if (v.phase.phase === 'choosing-rule' && v.phase.seat === ctx.mySeat) {
      const opts = legal().filter((/** @type {any} */ a) => a.type === 'choose-rule');
      const sel = /** @type {HTMLSelectElement} */ (
        h('select', { id: 'ws-rule' }, opts.map((/** @type {any} */ a) => h('option', { value: a.rule || '' }, a.rule ? `${v.rules.includes(a.rule) ? 'Turn off' : 'Turn on'}: ${ruleName(a.rule)}` : 'Keep the rules as they are')))
      );
      replace(
        chooseEl,
        h('form', { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); send({ type: 'choose-rule', rule: sel.value || null }).catch(() => {}); } },
          h('label', null, 'You won the round: switch one rule for the next. ', sel), h('button', { type: 'submit', class: 'primary' }, 'Choose')),
      );
    } else replace(chooseEl);

    // 2-D: the grid and the new strings that may be started.
    if (v.board) {
      const crosses = legal().filter((/** @type {any} */ a) => a.type === 'cross');
      const sel = /** @type {HTMLSelectElement} */ (
        h('select', { id: 'ws-cross' }, crosses.map((/** @type {any} */ a, i) => h('option', { value: String(i) }, `string ${a.line + 1}, letter ${a.index + 1}: ${a.letter.toUpperCase()} ${a.before ? 'before' : 'after'}`)))
      );
      replace(
        boardEl,
        h('h3', null, '2-D grid'),
        gridView(v.board),
        crosses.length
          ? h('form', { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); send(crosses[Number(sel.value)]).catch(() => {}); } }, h('label', null, 'Or start a new string through a letter (in the other direction): ', sel), ' ', h('button', { id: 'ws-cross-btn' }, 'Start it'))
          : null,
      );
    } else replace(boardEl);
  }

  /** The helper is open when the game says so (after the round, or during play where the table allows it). */
  function helperAllowed() {
    return !!(st && st.view && st.view.helper_open);
  }

  function drawHelper() {
    const v = st && st.view;
    if (!v) return;
    const allowed = helperAllowed();
    helperEl.hidden = !allowed;
    if (!allowed) helperOpen = false;
    const after = v.phase.phase === 'over' || v.phase.phase === 'choosing-rule';
    helperBtn.textContent = helperOpen ? 'ℹ Hide the helper' : after ? 'ℹ What could have been played?' : 'ℹ What could be played?';
    helperBtn.setAttribute('aria-expanded', helperOpen ? 'true' : 'false');
    helperPanel.hidden = !helperOpen;
    helperSolveLabel.hidden = v.players !== 2;
  }

  /**
   * One of the helper's plays as a list item.
   * @param {any} a the answer (its string)
   * @param {any} m the play
   */
  function helperItem(a, m) {
    const mark = m.wins === true ? '★ ' : m.wins === false ? '✗ ' : '';
    const where = m.position === 0 ? 'in front' : m.position >= a.string.length ? 'at the end' : `after ${a.string[m.position - 1].toUpperCase()}`;
    const words = /** @type {string[]} */ (m.goal_words);
    // The server lists a play's first goal words only, with their count.
    const count = typeof m.goal_count === 'number' ? m.goal_count : words.length;
    const few = words.slice(0, 8).join(', ');
    const rest = count > words.length ? ` … and ${count - words.length} more` : '';
    return h('li', { class: m.wins === true ? 'wins' : m.wins === false ? 'loses' : '', dataset: { result: m.result } },
      mark, h('strong', null, m.result.toUpperCase()), ` (${m.letter.toUpperCase()} ${where}${m.second ? ` and ${String(m.second[1]).toUpperCase()}` : ''}) — `,
      count > 8
        ? h('details', { class: 'goal-words' }, h('summary', null, `${few} … (${count} goal words)`), words.join(', ') + rest)
        : h('span', { class: 'goal-words' }, few));
  }

  /** Asks the server's helper about the string in the box and shows the plays, a page at a time. */
  async function askHelper() {
    const string = helperInput.value.trim().toLowerCase();
    const n = ++helperAsked;
    replace(helperResult, h('p', { class: 'note' }, `… looking at ${shown(string)}`));
    try {
      const a = await ctx.assist({ string, solve: helperSolve.checked && !helperSolveLabel.hidden });
      if (n !== helperAsked) return;
      const total = typeof a.total === 'number' ? a.total : a.moves.length;
      const list = h('ol', { class: 'helper-moves' }, a.moves.map((/** @type {any} */ m) => helperItem(a, m)));
      const more = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', id: 'ws-helper-more', hidden: true }));
      /** @type {any} */
      let next = a.next;
      let shownCount = a.moves.length;
      const drawMore = () => {
        more.hidden = !next;
        more.textContent = `Show more (${total - shownCount} more play${total - shownCount === 1 ? '' : 's'})`;
      };
      more.addEventListener('click', async () => {
        if (!next) return;
        more.disabled = true;
        try {
          const page = await ctx.assist(next);
          if (n !== helperAsked) return;
          for (const m of page.moves) list.append(helperItem(page, m));
          shownCount += page.moves.length;
          next = page.next;
        } catch (e) {
          more.textContent = `⚠ ${/** @type {Error} */ (e).message}`;
          return;
        } finally {
          more.disabled = false;
        }
        drawMore();
      });
      drawMore();
      replace(
        helperResult,
        h('p', { id: 'ws-helper-summary' }, total
          ? `${total} possible play${total === 1 ? '' : 's'} from ${shown(a.string)}${a.solved ? ' (★ wins, ✗ loses, with perfect play after it)' : ''}:`
          : `No play from ${shown(a.string)}: whoever is to play can only go out.`),
        total ? list : null,
        more,
      );
    } catch (e) {
      if (n !== helperAsked) return;
      replace(helperResult, h('p', { class: 'error', role: 'alert' }, `⚠ ${/** @type {Error} */ (e).message}`));
    }
  }

  function drawStatus() {
    const v = st && st.view;
    if (!v || !st) return;
    const ph = v.phase;
    let text;
    if (ph.phase === 'over') text = 'The match has ended: the result is at the top';
    else if (ph.phase === 'proving') text = ph.challenged === ctx.mySeat ? '⚑ You are challenged: name your goal word' : `⚑ ${name(ph.challenger)} challenged ${name(ph.challenged)}: waiting for a goal word`;
    else if (ph.phase === 'choosing-rule') text = ph.seat === ctx.mySeat ? 'You won the round: choose a rule to switch' : `${name(ph.seat)} is choosing a rule`;
    else text = v.to_move === ctx.mySeat ? '▶ Your turn' : `${ctx.seatName(v.to_move)} to move`;
    status.textContent = text;
    replace(rulesEl, 'Rules: ', v.rules.length ? v.rules.map((/** @type {string} */ r) => h('span', { class: 'chip', dataset: { rule: r } }, ruleName(r))) : h('span', { class: 'chip' }, 'core rules only'));
    replace(potEl, v.rules.includes('tiles') ? potView(v) : null);
    replace(roundEl, `Round ${v.round} of ${v.rounds}`, v.rounds > 1 ? ` · rounds won: ${v.round_wins.map((/** @type {number} */ w, /** @type {number} */ i) => `${ctx.seatName(i)} ${w}`).join(', ')}` : '', ` · play goes ${v.forward ? 'forward ↻' : 'backward ↺'}`);
    replace(
      playersEl,
      Array.from({ length: v.players }, (_, i) =>
        h('li', { class: v.active[i] ? 'in' : 'out', dataset: { seat: String(i) } },
          ctx.seatName(i),
          i === ctx.mySeat ? ' (you)' : '',
          teamOf(v, i) !== null ? h('span', { class: 'team', dataset: { team: String(teamOf(v, i)) } }, ` · team ${teamOf(v, i)}`) : null,
          ' — ',
          v.active[i] ? (ph.phase === 'playing' && v.to_move === i ? '▶ to move' : '✓ in') : '✗ out',
          v.collections.length ? collectionView(v, i) : null,
        ),
      ),
    );
  }

  /**
   * From the second round on: how the last round ended, above the string
   * (which starts again empty), so a new round is a visible change and
   * not only an emptied string.
   * @param {import('../api.js').StateMsg} s
   */
  function drawRoundBreak(s) {
    const moves = (ctx.moves ? ctx.moves() : []);
    let won = null;
    for (let i = moves.length - 1; i >= 0 && !won; i--) won = moves[i].events.find((/** @type {any} */ e) => e.type === 'round-won');
    if (!won && s.events) won = s.events.find((/** @type {any} */ e) => e.type === 'round-won');
    if (won && s.view.phase.phase !== 'over') {
      breakEl.hidden = false;
      breakEl.textContent = `${describe(won)}. Round ${s.view.round} of ${s.view.rounds} is on.`;
      breakEl.dataset.round = String(won.round);
    } else {
      breakEl.hidden = true;
    }
  }

  function draw() {
    drawStatus();
    drawString();
    drawPick();
    drawButtons();
    drawHelper();
    const playing = iAmIn();
    whole.disabled = !playing;
  }

  document.addEventListener('keydown', (e) => {
    const t = /** @type {HTMLElement} */ (e.target);
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT') ) return;
    if (document.querySelector('dialog[open]')) return;
    if (e.ctrlKey || e.metaKey || e.altKey || !st || !iAmIn()) return;
    const len = st.view.string.length;
    if (/^[a-zA-Z]$/.test(e.key)) {
      pick.letter = e.key.toLowerCase();
      e.preventDefault();
      draw();
      if (pick.point !== null) focusPlay();
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      if (pick.point === null) pick.point = e.key === 'ArrowLeft' ? len : 0;
      else pick.point = Math.max(0, Math.min(len, pick.point + (e.key === 'ArrowLeft' ? -1 : 1)));
      e.preventDefault();
      draw();
      /** @type {HTMLElement | null} */ (stringEl.querySelector(`[data-point="${pick.point}"]`))?.focus();
    } else if (e.key === 'Enter' && pick.letter && pick.point !== null && !t.classList.contains('cancel')) {
      // Enter plays the chosen letter at the chosen point (wherever the focus is).
      e.preventDefault();
      send({ type: 'play', string: insert(st.view.string, pick.point, pick.letter) }).catch(() => {});
    } else if (e.key === 'Enter' && pick.letter && pick.point === null && t.tagName !== 'BUTTON') {
      e.preventDefault();
      pick.point = len;
      draw();
      focusPlay();
    } else if (e.key === 'Escape') {
      clearPick();
    }
  });

  return {
    /** @param {import('../api.js').StateMsg} s */
    update(s) {
      const changed = !st || st.view.string !== s.view.string || st.seq !== s.seq;
      st = s;
      drawRoundBreak(s);
      if (changed) {
        pick.point = null;
        pick.letter = null;
        // The helper's answer was about the old string: offer the new one.
        if (document.activeElement !== helperInput) helperInput.value = s.view.string;
        if (helperOpen) {
          helperAsked++;
          replace(helperResult);
        }
      }
      draw();
    },
    /** @param {import('../api.js').ApiError} e @param {any} action */
    error(e, action) {
      // The refused string leaves the box (it is quoted here instead), so
      // the next play starts clean.
      const tried = action && action.type === 'play' && typeof action.string === 'string' ? `${shown(action.string)}: ` : '';
      if (action && action.type === 'play' && whole.value.trim().toLowerCase() === action.string) whole.value = '';
      replace(previewEl, h('p', { class: 'error', role: 'alert', id: 'ws-error' }, `⚠ Not played: ${tried}${e.message}`));
      return false;
    },
    /** @param {import('../play.js').Move} m */
    describeMove(m) {
      return m.events.map((/** @type {any} */ e) => describe(e));
    },
    wouldLose() {
      return !!whole.value.trim() || (pick.letter !== null && pick.point !== null);
    },
  };
}
