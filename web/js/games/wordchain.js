// @ts-check
/**
 * WORDCHAIN's page: the player's hand as cards (letter, value, suit and
 * colour), the others' hands face down unless displayed, the link card, the
 * decks, the dice, whose turn and the scores; a word built by clicking (or
 * dragging) cards from the hand and the link card into a word row, with
 * Multicards named; the play on the table waiting to be accepted or
 * challenged; and every play's score step by step in the move list.
 *
 * Actions and view: crates/wordchain/src/turns.rs (`Action`, `LogEntry`,
 * `WordPlayed`), crates/wordchain/src/view.rs (`View`), scoring.rs
 * (`Breakdown`). The server is the judge: the score shown while a word is
 * built is the server's own reckoning (the game's helper, `assist` in
 * crates/wordchain/src/game.rs), as are the score on the table and in the
 * log; what a pass does and when the game ends are the view's words.
 */
import { h, oneAtATime, replace, warningLine } from '../dom.js';

/** @type {import('../settings.js').LobbyHooks} */
export const lobby = {
  prefix: 'wc',
  placeholders: { deck: '[consonants]; B hd; C csh; … [vowels]; A hdcs; … * 2' },
  note: 'Each hand is hidden from the other players unless its holder displays it. With dice, the throw limits the cards a word takes from the hand; a double with two dice allows two words on the link card. A house pack is written on one line here, its lines split by “;”. Target score left empty: no target.',
  finish(config) {
    // An empty target means none (the form alone would keep the default 1000).
    const target = document.getElementById('wc-target');
    if (target instanceof HTMLInputElement && !target.value.trim()) config.target = null;
    // The pack format is lines; the form's field is one line.
    if (typeof config.deck === 'string' && !config.deck.includes('\n')) {
      config.deck = `${config.deck.split(';').map((/** @type {string} */ l) => l.trim()).filter(Boolean).join('\n')}\n`;
    }
  },
};

const SUITS = /** @type {const} */ (['h', 'd', 'c', 's']);
/** @type {Record<string, string>} */
const SYMBOL = { h: '♥', d: '♦', c: '♣', s: '♠' };
/** @type {Record<string, string>} */
const SUIT_NAME = { h: 'hearts', d: 'diamonds', c: 'clubs', s: 'spades' };
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIE = ['', '⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

/**
 * A card in the notation, read: `Kh`, `*` (a Multicard), `*Eh` (one named).
 * @param {string} text
 * @returns {{multi: boolean, letter: string | null, suit: string | null, value: number}}
 */
export function readCard(text) {
  const multi = text.startsWith('*');
  const rest = multi ? text.slice(1) : text;
  const letter = rest.length >= 2 ? rest[0].toUpperCase() : null;
  const suit = rest.length >= 2 ? rest[1].toLowerCase() : null;
  return { multi, letter, suit, value: multi || !letter ? 0 : LETTERS.indexOf(letter) + 1 };
}

/** Whether a card belongs in the vowel deck (A E I O U Y S and Multicards). @param {string} text */
const inVowelDeck = (text) => text.startsWith('*') || 'AEIOUYS'.includes(text[0].toUpperCase());

/**
 * A card drawn face up.
 * @param {string} text @param {Record<string, any>} [attrs]
 */
export function cardEl(text, attrs = {}) {
  const c = readCard(text);
  const colour = c.suit ? (c.suit === 'h' || c.suit === 'd' ? 'red' : 'black') : 'multi';
  const label = c.multi
    ? c.letter && c.suit ? `Multicard named ${c.letter} of ${SUIT_NAME[c.suit]}, no value` : 'Multicard, no value'
    : `${c.letter} of ${SUIT_NAME[c.suit || 'h']}, ${c.value}`;
  const { class: extra, ...rest } = attrs;
  return h(
    rest.onclick ? 'button' : 'span',
    { class: `wc-card ${colour}${c.multi ? ' multicard' : ''}${extra ? ` ${extra}` : ''}`, 'aria-label': label, title: label, dataset: { card: text }, ...(rest.onclick ? { type: 'button' } : {}), ...rest },
    h('span', { class: 'letter' }, c.letter || '★'),
    h('span', { class: 'suit' }, c.suit ? SYMBOL[c.suit] : ''),
    c.multi ? h('span', { class: 'value multi-mark' }, c.letter ? '★' : 'any') : h('span', { class: 'value' }, String(c.value)),
  );
}

/**
 * A card of a word being built: from the hand (its place in the hand) or
 * the link card; a Multicard carries the letter and suit named for it.
 * @typedef {{src: 'hand' | 'link', idx: number, card: string, letter: string, suit: string}} Slot
 */

/** @param {import('../play.js').PageContext} ctx */
export function mount(ctx) {
  /** @type {import('../api.js').StateMsg | null} */
  let st = null;
  /** @type {Slot[][]} the words being built (two on a double) */
  let words = [[]];
  let active = 0;
  /** What the drafts were built from: the hand, the link, the turn. */
  let draftKey = '';
  /** The consonant-deck chooser's choice ('' = the same kinds as played). */
  let drawChoice = '';

  const status = h('h2', { id: 'wc-status', class: 'status', 'aria-live': 'polite' });
  const message = h('p', { id: 'wc-message', class: 'wc-message', role: 'alert' });
  const tableEl = h('div', { id: 'wc-table', class: 'wc-table' });
  const seatsEl = h('div', { id: 'wc-seats', class: 'wc-seats' });
  const pendingEl = h('section', { id: 'wc-pending', class: 'wc-pending', hidden: true, 'aria-label': 'The play on the table' });
  const handEl = h('div', { id: 'wc-hand', class: 'wc-hand', 'aria-label': 'Your hand' });
  const buildEl = h('section', { id: 'wc-build', class: 'wc-build', hidden: true, 'aria-label': 'Your word' });
  const mineEl = h('section', { id: 'wc-mine', class: 'wc-mine' });
  const logEl = h('ol', { id: 'wc-log', class: 'wc-log' });
  const overEl = h('p', { id: 'wc-over', class: 'wc-over', hidden: true });
  const newsEl = h('ul', { id: 'wc-news', class: 'wc-news', 'aria-live': 'polite', 'aria-label': 'What just happened' });
  replace(
    ctx.root,
    h('div', { class: 'wc-page' },
      h('div', { class: 'wc-main' }, status, overEl, message, newsEl, tableEl, pendingEl, mineEl, buildEl, seatsEl),
      h('aside', { class: 'wc-side' }, h('h3', null, 'Moves'), h('p', { class: 'note' }, 'Every play with its score step by step (rule letters as in the original rules).'), logEl)),
  );

  const view = () => (st ? st.view : null);
  const me = () => ctx.mySeat;
  const myTurn = () => {
    const v = view();
    return !!v && me() !== null && v.phase === 'turn' && v.turn === me() && !v.over;
  };
  /** @returns {any[]} */
  const legal = () => (st && Array.isArray(st.legal) ? st.legal : []);
  const name = (/** @type {number} */ s) => (s === me() ? `${ctx.seatName(s)} (you)` : ctx.seatName(s));

  const say = warningLine(message);

  /** Sends an action, one at a time; clears the last refusal first. */
  const send = oneAtATime(ctx.act, () => say(''));

  // ---- drafts ----

  /** Every hand index used in the drafts. */
  const usedIdx = () => new Set(words.flat().filter((s) => s.src === 'hand').map((s) => s.idx));
  const hasLink = (/** @type {number} */ w) => words[w].some((s) => s.src === 'link');

  function resetDrafts() {
    const v = view();
    words = [v && v.link ? [linkSlot()] : []];
    active = 0;
  }

  /** @returns {Slot} */
  function linkSlot() {
    const card = view().link;
    const c = readCard(card);
    return { src: 'link', idx: -1, card, letter: c.letter || '', suit: c.suit || 'h' };
  }

  /** @param {number} idx @returns {Slot} */
  function handSlot(idx) {
    const card = view().hand[idx];
    const c = readCard(card);
    return { src: 'hand', idx, card, letter: c.letter || '', suit: c.suit || 'h' };
  }

  /** Puts a card from the hand (or the link card) into the active word. @param {'hand'|'link'} src @param {number} idx @param {number} [at] */
  function addCard(src, idx, at) {
    if (!myTurn()) return;
    if (src === 'hand' && usedIdx().has(idx)) return;
    if (src === 'link' && hasLink(active)) return;
    const slot = src === 'link' ? linkSlot() : handSlot(idx);
    const w = words[active];
    w.splice(at === undefined ? w.length : Math.max(0, Math.min(at, w.length)), 0, slot);
    say('');
    drawBuild();
    drawHand();
  }

  /** @param {number} w @param {number} i */
  function removeCard(w, i) {
    words[w].splice(i, 1);
    drawBuild();
    drawHand();
  }

  /** @param {number} w @param {number} i @param {number} d */
  function moveCard(w, i, d) {
    const j = i + d;
    if (j < 0 || j >= words[w].length) return;
    const [s] = words[w].splice(i, 1);
    words[w].splice(j, 0, s);
    drawBuild();
    /** @type {HTMLElement | null} */ (document.querySelector(`#wc-word-${w} .wc-slot[data-pos="${j}"] .wc-${d < 0 ? 'left' : 'right'}`))?.focus();
  }

  /** A slot in the notation of a play. @param {Slot} s */
  const slotText = (s) => (s.card.startsWith('*') ? (s.letter ? `*${s.letter}${s.suit}` : '*') : s.card);

  /** Cards taken from the hand by all the words. */
  const fromHand = () => words.flat().filter((s) => s.src === 'hand');

  /** The play action the drafts make, or the reason they do not. @returns {{action: any} | {why: string}} */
  function playAction() {
    const v = view();
    const ws = v.double ? words : words.slice(0, 1);
    const out = [];
    for (const [k, w] of ws.entries()) {
      const which = ws.length > 1 ? `word ${k + 1}: ` : '';
      if (ws.length > 1 && k === 1 && w.length === 0) continue; // the second word left empty: one word
      const link = w.findIndex((s) => s.src === 'link');
      if (link < 0) return { why: `${which}put the link card in the word` };
      if (w.length < 2) return { why: `${which}add cards from your hand` };
      const unnamed = w.findIndex((s) => s.card.startsWith('*') && !s.letter);
      if (unnamed >= 0) return { why: `${which}name the Multicard (card ${unnamed + 1}): its letter and suit` };
      out.push({ cards: w.map(slotText), link });
    }
    /** @type {any} */
    const action = { type: 'play', words: out };
    if (drawChoice !== '') action.consonants = Number(drawChoice);
    return { action };
  }

  async function play() {
    const p = playAction();
    if ('why' in p) {
      say(p.why);
      return;
    }
    await send(p.action);
  }

  /**
   * Typing spells the word: a letter takes the first card of that letter
   * left in the hand (else a Multicard, named so); Backspace takes the last
   * card back; Enter plays. Not while a field, a chooser or a dialog has
   * the keys.
   */
  document.addEventListener('keydown', (e) => {
    if (!myTurn() || e.ctrlKey || e.metaKey || e.altKey || document.querySelector('dialog[open]')) return;
    const t = /** @type {HTMLElement} */ (e.target);
    if (t && t.closest && t.closest('input, select, textarea, [contenteditable]')) return;
    const v = view();
    if (/^[a-zA-Z]$/.test(e.key)) {
      const L = e.key.toUpperCase();
      // A Multicard link card waiting for its letter at the end of the
      // word typed so far: the letter names it, as it names a Multicard
      // taken from the hand.
      const w = words[active];
      const tail = w[w.length - 1];
      if (tail && tail.src === 'link' && tail.card.startsWith('*') && !tail.letter) {
        e.preventDefault();
        tail.letter = L;
        drawBuild();
        return;
      }
      const used = usedIdx();
      let i = v.hand.findIndex((/** @type {string} */ c, /** @type {number} */ k) => !used.has(k) && !c.startsWith('*') && c[0] === L);
      const multi = i < 0;
      if (multi) i = v.hand.findIndex((/** @type {string} */ c, /** @type {number} */ k) => !used.has(k) && c.startsWith('*'));
      e.preventDefault();
      if (i < 0) {
        say(`No ${L} left in your hand.`);
        return;
      }
      addCard('hand', i);
      if (multi) {
        const w = words[active];
        w[w.length - 1].letter = L;
        drawBuild();
      }
    } else if (e.key === 'Backspace') {
      const w = words[active];
      const last = w.length - 1;
      if (last >= 0 && w[last].src === 'hand') {
        e.preventDefault();
        removeCard(active, last);
      } else if (last >= 0 && w[last].src === 'link' && w[last].card.startsWith('*') && w[last].letter) {
        // The Multicard link card's letter typed last: taken back too.
        e.preventDefault();
        w[last].letter = '';
        drawBuild();
      }
    } else if (e.key === 'Enter' && (!t || !t.closest || !t.closest('button, a'))) {
      e.preventDefault();
      play();
    }
  });

  // ---- drawing ----

  function drawStatus() {
    const v = view();
    if (!v) return;
    const dealer = `dealer ${ctx.seatName(v.dealer)}`;
    let text;
    if (v.over) text = 'Game over';
    else if (v.phase === 'challenge' && v.pending) {
      if (v.pending.seat === me()) text = 'Your play is on the table: waiting for the others to accept or challenge it';
      else if (me() !== null && !v.pending.accepted.includes(me())) text = `${ctx.seatName(v.pending.seat)} played: accept or challenge`;
      else text = `${ctx.seatName(v.pending.seat)} played: waiting for the others`;
    } else if (v.phase === 'turn' && v.turn === me()) text = 'Your turn: build a word on the link card';
    else if (v.phase === 'deal') text = 'Dealing…';
    else text = `${ctx.seatName(v.turn)} to play`;
    status.textContent = `${text}${v.over ? '' : v.config.deals > 1 ? ` · deal ${v.deal} of ${v.config.deals} (${dealer})` : ''}`;
    overEl.hidden = !v.over;
    overEl.textContent = v.over ? `The game is over: ${v.over}.` : '';
  }

  function drawTable() {
    const v = view();
    const cfg = v.config;
    const decks = cfg.one_deck
      ? h('span', { id: 'wc-decks', class: 'chip', dataset: { consonants: String(v.decks[0]), vowels: String(v.decks[1]) } }, `Deck: ${v.decks[0]} cards`)
      : h('span', { id: 'wc-decks', class: 'chip', dataset: { consonants: String(v.decks[0]), vowels: String(v.decks[1]) } }, `Consonant deck: ${v.decks[0]} · vowel deck: ${v.decks[1]}`);
    const diceEl = v.over ? null : v.dice
      ? h('p', { id: 'wc-dice', class: 'wc-dice', dataset: { dice: v.dice.join(','), max: String(v.max_from_hand ?? '') } },
          h('span', { class: 'dice', 'aria-hidden': 'true' }, v.dice.map((/** @type {number} */ d) => DIE[d] || String(d)).join(' ')),
          ` Dice: ${v.dice.join(' + ')} — at most ${v.max_from_hand} card${v.max_from_hand === 1 ? '' : 's'} from the hand`,
          v.double ? h('strong', { id: 'wc-double' }, ` · a double: two words of up to ${v.dice[0]} card${v.dice[0] === 1 ? '' : 's'} each may be played on the link card`) : '')
      : cfg.dice ? h('p', { id: 'wc-dice', class: 'wc-dice note' }, 'Dice: thrown at the start of each turn') : null;
    replace(
      tableEl,
      h('div', { class: 'wc-link-box' },
        h('span', { class: 'wc-label' }, 'Link card'),
        v.link
          ? cardEl(v.link, myTurn() ? { id: 'wc-link', class: hasLink(active) ? 'used' : '', draggable: 'true', onclick: () => addCard('link', -1), ondragstart: (/** @type {DragEvent} */ e) => e.dataTransfer?.setData('text/plain', 'link:-1') } : { id: 'wc-link' })
          : h('span', { id: 'wc-link', class: 'note' }, 'none yet')),
      h('div', { class: 'wc-info' },
        decks,
        h('span', { class: 'chip', id: 'wc-discards' }, `Played cards: ${v.discards[0] + v.discards[1]}`),
        h('span', { class: 'chip', id: 'wc-dealer' }, `Dealer: ${ctx.seatName(v.dealer)}`),
        v.over ? null : h('span', { class: 'chip', id: 'wc-ends' }, `The game ends ${v.ends}`),
        h('span', { class: 'chip', id: 'wc-rules' }, `${cfg.scoring === 'simple' ? 'Simple' : 'Standard'} scoring${cfg.challenges ? ' · challenges on' : ''}${cfg.once_only ? ' · each word once' : ''}${cfg.passes_end ? ' · a round of passes ends the deal' : ''}${cfg.scoring !== 'simple' && cfg.link_bonus === 'link_first' ? ' · link bonus: every word on the link card' : ''}`),
        diceEl),
    );
  }

  function drawSeats() {
    const v = view();
    const teams = (v.config.teams || []).length > 0;
    replace(
      seatsEl,
      h('h3', null, 'Players'),
      h('ul', { class: 'wc-seat-list' },
        v.seats.map((/** @type {any} */ s, /** @type {number} */ i) => {
          const marks = [];
          if (i === v.dealer) marks.push(h('span', { class: 'mark dealer' }, '◆ dealer'));
          if (!v.over && v.phase !== 'challenge' && i === v.turn) marks.push(h('span', { class: 'mark acting' }, '▶ to play'));
          if (s.displayed) marks.push(h('span', { class: 'mark' }, '◉ hand displayed'));
          if (s.five_used) marks.push(h('span', { class: 'mark' }, '⊕ took five cards'));
          if (s.left) marks.push(h('span', { class: 'mark' }, '✗ left'));
          const shown = i === me() ? null : s.hand
            ? h('div', { class: 'wc-cards' }, s.hand.map((/** @type {string} */ c) => cardEl(c)))
            : h('div', { class: 'wc-cards face-down', 'aria-label': `${s.cards} cards, face down` }, Array.from({ length: Math.min(s.cards, 30) }, () => h('span', { class: 'wc-card back', 'aria-hidden': 'true' })));
          return h('li', { class: `wc-seat${i === me() ? ' me' : ''}`, dataset: { seat: String(i), score: String(s.score), cards: String(s.cards) } },
            h('div', { class: 'wc-seat-head' },
              h('strong', null, name(i)), ' ',
              h('span', { class: 'wc-score' }, `${s.score} point${s.score === 1 ? '' : 's'}`),
              teams ? h('span', { class: 'wc-team' }, ` (team ${v.team_scores[i]})`) : '',
              ` · ${s.cards} card${s.cards === 1 ? '' : 's'} `, marks),
            shown);
        })),
    );
  }

  function drawHand() {
    const v = view();
    if (me() === null || !v.hand) {
      replace(mineEl);
      return;
    }
    const used = usedIdx();
    const turn = myTurn();
    const mySeat = v.seats[/** @type {number} */ (me())];
    // A card chosen by keyboard: the focus goes on to the next card left.
    const focused = /** @type {HTMLElement | null} */ (document.activeElement);
    const hadFocus = focused && handEl.contains(focused) ? Number(focused.dataset.idx) : null;
    replace(
      handEl,
      v.hand.map((/** @type {string} */ c, /** @type {number} */ i) =>
        cardEl(c, turn
          ? { class: used.has(i) ? 'used' : '', disabled: used.has(i), dataset: { card: c, idx: String(i) }, draggable: used.has(i) ? undefined : 'true', onclick: () => addCard('hand', i), ondragstart: (/** @type {DragEvent} */ e) => e.dataTransfer?.setData('text/plain', `hand:${i}`) }
          : { dataset: { card: c, idx: String(i) } })),
    );
    replace(
      mineEl,
      h('h3', null, `Your hand (${v.hand.length} card${v.hand.length === 1 ? '' : 's'}, ${mySeat.displayed ? 'displayed to all' : 'hidden from the others'})`),
      handEl,
      !mySeat.displayed && !v.over && !mySeat.left
        ? h('div', { class: 'row' }, h('button', {
            type: 'button',
            id: 'wc-display',
            onclick: async () => {
              if (await ctx.confirm('Display your hand? Every player will see your cards for the rest of the game.', 'Display my hand')) send({ type: 'display' });
            },
          }, '◉ Display my hand'))
        : null,
    );
    if (hadFocus !== null) {
      const cards = /** @type {HTMLButtonElement[]} */ ([...handEl.querySelectorAll('button.wc-card:not([disabled])')]);
      (cards.find((b) => Number(b.dataset.idx) >= hadFocus) || cards[cards.length - 1])?.focus();
    }
  }

  /** One word row of the builder. @param {number} w */
  function wordRow(w) {
    const v = view();
    const slots = words[w];
    const row = h('div', {
      id: `wc-word-${w}`,
      class: `wc-word${w === active ? ' active' : ''}`,
      'aria-label': `Word ${w + 1}`,
      ondragover: (/** @type {DragEvent} */ e) => e.preventDefault(),
      ondrop: (/** @type {DragEvent} */ e) => {
        e.preventDefault();
        const data = e.dataTransfer?.getData('text/plain') || '';
        const target = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest?.('.wc-slot'));
        const at = target ? Number(target.dataset.pos) : undefined;
        active = w;
        const [src, a, b] = data.split(':');
        if (src === 'slot') {
          // A card of a word moved: within it (to before `at`) or into the other word.
          const fw = Number(a), from = Number(b);
          const moving = words[fw] && words[fw][from];
          if (!moving || (fw !== w && moving.src === 'link' && hasLink(w))) return;
          words[fw].splice(from, 1);
          const to = at === undefined ? words[w].length : fw === w && at > from ? at - 1 : at;
          words[w].splice(to, 0, moving);
          drawBuild();
          drawTable();
        } else if (src === 'hand' || src === 'link') addCard(src, Number(a), at);
      },
      onclick: () => {
        if (active !== w) {
          active = w;
          drawBuild();
          drawTable();
        }
      },
    },
    slots.length === 0 ? h('span', { class: 'note' }, 'Click or drag cards here') : null,
    slots.map((s, i) => {
      const multi = s.card.startsWith('*');
      const shown = multi ? (s.letter ? `*${s.letter}${s.suit}` : '*') : s.card;
      return h('div', {
        class: `wc-slot${s.src === 'link' ? ' link' : ''}`,
        dataset: { pos: String(i), src: s.src },
        draggable: 'true',
        ondragstart: (/** @type {DragEvent} */ e) => e.dataTransfer?.setData('text/plain', `slot:${w}:${i}`),
      },
      cardEl(shown, s.src === 'link' ? { class: 'is-link' } : {}),
      s.src === 'link' ? h('small', { class: 'wc-link-tag' }, 'link') : null,
      multi ? h('span', { class: 'wc-name' },
        h('select', {
          class: 'wc-name-letter',
          'aria-label': `Letter for the Multicard at card ${i + 1}`,
          onchange: (/** @type {Event} */ e) => { s.letter = /** @type {HTMLSelectElement} */ (e.target).value; drawBuild(); },
        }, h('option', { value: '', selected: !s.letter }, '?'), [...LETTERS].map((L) => h('option', { value: L, selected: s.letter === L }, L))),
        h('select', {
          class: 'wc-name-suit',
          'aria-label': `Suit for the Multicard at card ${i + 1}`,
          onchange: (/** @type {Event} */ e) => { s.suit = /** @type {HTMLSelectElement} */ (e.target).value; drawBuild(); },
        }, SUITS.map((x) => h('option', { value: x, selected: s.suit === x }, `${SYMBOL[x]} ${SUIT_NAME[x]}`)))) : null,
      h('span', { class: 'wc-slot-tools' },
        h('button', { type: 'button', class: 'wc-left', 'aria-label': `Move card ${i + 1} left`, disabled: i === 0, onclick: (/** @type {Event} */ e) => { e.stopPropagation(); moveCard(w, i, -1); } }, '◀'),
        h('button', { type: 'button', class: 'wc-right', 'aria-label': `Move card ${i + 1} right`, disabled: i === slots.length - 1, onclick: (/** @type {Event} */ e) => { e.stopPropagation(); moveCard(w, i, 1); } }, '▶'),
        h('button', { type: 'button', class: 'wc-remove', 'aria-label': `Take card ${i + 1} out of the word`, onclick: (/** @type {Event} */ e) => { e.stopPropagation(); removeCard(w, i); } }, '✕')));
    }));
    // What it takes from the hand; whether the play stands and what it
    // scores (the link card's place, rule L; the throw's limit) is the
    // server's reckoning below.
    const taken = slots.filter((s) => s.src === 'hand').length;
    const spelled = slots.map((s) => s.letter || '?').join('');
    return h('div', { class: 'wc-word-box', id: `wc-wordbox-${w}` },
      words.length > 1 ? h('h4', null, `Word ${w + 1}${w === 1 ? ' (its last card is the new link)' : ''}`) : null,
      row,
      h('p', { class: 'wc-spelled', id: `wc-spelled-${w}` }, spelled ? `${spelled} · ${taken} card${taken === 1 ? '' : 's'} from the hand` : ''),
      h('div', { id: `wc-reckon-${w}`, class: 'wc-reckon', 'aria-live': 'polite' }, reckonEl(w)));
  }

  // ---- the server's reckoning of the word being built ----

  /** The play last asked about (its words as JSON) and the server's answer. */
  let reckoning = { key: '', answer: /** @type {any} */ (null) };
  /** @type {ReturnType<typeof setTimeout> | null} */
  let reckonTimer = null;

  /** What the server says of word `w` of the drafts. @param {number} w */
  function reckonEl(w) {
    const a = reckoning.answer;
    if (!a) return null;
    if (a.refusal) return w === 0 ? h('p', { class: 'warn wc-refusal' }, `As it stands the server would refuse this play: ${a.refusal}`) : null;
    const word = a.words && a.words[w];
    if (!word) return null;
    return h('details', { class: 'wc-estimate' },
      h('summary', null, `Score: ${word.breakdown.score}`),
      h('ol', { class: 'wc-steps' }, word.breakdown.steps.map((/** @type {any} */ x) => h('li', { dataset: { rule: x.rule } }, `${x.rule}: ${x.what} → ${x.total}`))));
  }

  function drawReckoning() {
    words.forEach((_, w) => {
      const el = document.getElementById(`wc-reckon-${w}`);
      if (el) replace(el, reckonEl(w));
    });
  }

  /**
   * Asks the server how the drafts would score (the game's helper), a
   * moment after the last change; the answer is shown only while the
   * drafts are still the play it was asked for.
   */
  function askScore() {
    const p = playAction();
    const key = 'action' in p && myTurn() ? JSON.stringify(p.action.words) : '';
    if (key === reckoning.key) return;
    reckoning = { key, answer: null };
    drawReckoning();
    if (reckonTimer) clearTimeout(reckonTimer);
    if (!key) return;
    reckonTimer = setTimeout(async () => {
      try {
        const a = await ctx.assist({ words: JSON.parse(key) });
        if (reckoning.key !== key) return;
        reckoning.answer = a;
        drawReckoning();
      } catch { /* the helper is busy or the connection is down: the play is judged when sent */ }
    }, 250);
  }

  function drawBuild() {
    const v = view();
    const turn = myTurn();
    buildEl.hidden = !turn;
    if (!turn) {
      replace(buildEl);
      askScore();
      return;
    }
    if (!v.double && words.length > 1) {
      words = [words[0]];
      active = 0;
    }
    const n = fromHand().length;
    if (drawChoice !== '' && Number(drawChoice) > n) drawChoice = '';
    const drawSel = /** @type {HTMLSelectElement} */ (h('select', {
      id: 'wc-draw',
      'aria-describedby': 'wc-draw-help',
      onchange: (/** @type {Event} */ e) => { drawChoice = /** @type {HTMLSelectElement} */ (e.target).value; },
    },
    h('option', { value: '' }, 'the same kinds as played'),
    Array.from({ length: n + 1 }, (_, k) => h('option', { value: String(k) }, `${k} consonant${k === 1 ? '' : 's'}, ${n - k} from the vowel deck`))));
    drawSel.value = drawChoice;
    const canFive = legal().some((a) => a && a.type === 'five_cards');
    replace(
      buildEl,
      h('h3', null, 'Your word'),
      h('p', { class: 'note', id: 'wc-help' }, 'Click (or drag) cards from your hand into the word, or type its letters after the link card (a Multicard link card takes the first letter typed; Backspace takes the last back, Enter plays); the link card stands first unless you move it (a penalty). ◀ ▶ reorder, ✕ takes a card back. Name each Multicard.'),
      words.map((_, w) => wordRow(w)),
      v.double
        ? h('div', { class: 'row' },
            words.length < 2
              ? h('button', { type: 'button', id: 'wc-second', onclick: () => { words.push([linkSlot()]); active = 1; drawBuild(); drawHand(); drawTable(); } }, '＋ A second word (double)')
              : h('button', { type: 'button', id: 'wc-second', onclick: () => { words.pop(); active = 0; drawBuild(); drawHand(); drawTable(); } }, '− One word only'))
        : null,
      v.config.one_deck || n === 0 ? null : h('label', { id: 'wc-draw-help' }, `Draw ${n} card${n === 1 ? '' : 's'} afterwards: `, drawSel),
      h('div', { class: 'row' },
        h('button', { type: 'button', id: 'wc-play', class: 'primary', onclick: play }, '✓ Play'),
        h('button', { type: 'button', id: 'wc-clear', onclick: () => { resetDrafts(); drawBuild(); drawHand(); drawTable(); } }, 'Clear'),
        h('button', {
          type: 'button',
          id: 'wc-pass',
          onclick: async () => {
            if (await ctx.confirm(`Pass this turn? ${view().pass_rule}`, 'Pass')) send({ type: 'pass' });
          },
        }, 'Pass'),
        canFive ? h('button', {
          type: 'button',
          id: 'wc-five',
          onclick: async () => {
            if (await ctx.confirm('Take five cards instead of playing? You may do this once a game.', 'Take five cards')) send({ type: 'five_cards' });
          },
        }, '⊕ Take five cards (once)') : null),
    );
    askScore();
  }

  /** The words of a play with their breakdowns. @param {any[]} ws */
  function wordsEl(ws) {
    return ws.map((w) =>
      h('div', { class: 'wc-played', dataset: { word: w.word } },
        h('div', { class: 'wc-cards small' }, w.cards.map((/** @type {string} */ c, /** @type {number} */ i) => cardEl(c, i === w.link ? { class: 'is-link' } : {}))),
        h('strong', { class: 'wc-played-word' }, w.word.toUpperCase()), ` ${w.breakdown.score} point${w.breakdown.score === 1 ? '' : 's'}`,
        h('ol', { class: 'wc-steps' }, w.breakdown.steps.map((/** @type {any} */ x) => h('li', { dataset: { rule: x.rule } }, h('b', null, x.rule), ` ${x.what} → ${x.total}`)))));
  }

  function drawPending() {
    const v = view();
    const p = v.pending;
    pendingEl.hidden = !p;
    if (!p) {
      replace(pendingEl);
      return;
    }
    const mine = me();
    const answering = mine !== null && mine !== p.seat && !p.accepted.includes(mine) && !v.seats[mine].left;
    replace(
      pendingEl,
      h('h3', null, `${name(p.seat)} played ${p.words.map((/** @type {any} */ w) => w.word.toUpperCase()).join(' and ')} for ${p.score} points`),
      wordsEl(p.words),
      p.accepted.length ? h('p', { class: 'note' }, `Accepted by ${p.accepted.map((/** @type {number} */ s) => ctx.seatName(s)).join(', ')}`) : null,
      answering
        ? h('div', { class: 'row' },
            h('button', { type: 'button', id: 'wc-accept', class: 'primary', onclick: () => send({ type: 'accept' }) }, '✓ Accept'),
            h('button', {
              type: 'button',
              id: 'wc-challenge',
              class: 'danger',
              onclick: async () => {
                if (await ctx.confirm(`Challenge ${p.words.map((/** @type {any} */ w) => w.word.toUpperCase()).join(' and ')}? If the dictionary holds it you lose ${p.score} points and ${ctx.seatName(p.seat)} scores them again; if not, you gain them.`, 'Challenge')) send({ type: 'challenge' });
              },
            }, '⚑ Challenge'))
        : h('p', { class: 'note' }, p.seat === mine ? 'Waiting for the others to accept or challenge.' : 'Waiting for the others.'),
    );
  }

  function drawLog() {
    const v = view();
    const items = v.log.map((/** @type {any} */ e, /** @type {number} */ i) => {
      const n = i + 1;
      if (e.type === 'pass') return h('li', { dataset: { kind: 'pass', n: String(n) } }, `${name(e.seat)} passed`);
      if (e.type === 'five_cards') return h('li', { dataset: { kind: 'five_cards', n: String(n) } }, `${name(e.seat)} took five cards`);
      const dice = e.dice ? h('span', { class: 'wc-log-dice', title: `dice ${e.dice.join(' + ')}` }, ` ${e.dice.map((/** @type {number} */ d) => DIE[d] || d).join('')} (${e.dice.join('+')})`) : '';
      let result = '';
      let kind = 'play';
      if (e.challenge) {
        const [by, upheld] = e.challenge;
        kind = upheld ? 'challenge-upheld' : 'challenge-failed';
        result = upheld
          ? ` — challenged by ${name(by)}: not in the dictionary; taken back, ${ctx.seatName(by)} +${e.words.reduce((/** @type {number} */ t, /** @type {any} */ w) => t + w.breakdown.score, 0)}`
          : ` — challenged by ${name(by)}: the word stands; ${ctx.seatName(by)} −${e.score}, ${ctx.seatName(e.seat)} +${e.score} again`;
      }
      return h('li', { dataset: { kind, n: String(n) } },
        h('span', null, `${name(e.seat)} played ${e.words.map((/** @type {any} */ w) => w.word.toUpperCase()).join(' and ')}: ${e.challenge && e.challenge[1] ? 0 : e.score} point${e.score === 1 ? '' : 's'}`),
        dice, result,
        wordsEl(e.words));
    });
    const atBottom = logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 40;
    replace(logEl, items.length ? items : h('li', { class: 'note', dataset: { kind: 'none' } }, 'No moves yet.'));
    if (atBottom) logEl.scrollTop = logEl.scrollHeight;
    document.body.dataset.wcLog = String(v.log.length);
  }

  /**
   * What the last move did, in words (the events the server sent this
   * seat: its own drawn cards, the others' counts).
   * @param {any[]} events
   */
  function drawNews(events) {
    const plural = (/** @type {number} */ n, /** @type {string} */ w) => `${n} ${w}${n === 1 ? '' : 's'}`;
    /** @type {(string | HTMLElement)[]} */
    const lines = [];
    for (const e of events || []) {
      switch (e.type) {
        case 'cut': {
          const last = e.rounds[e.rounds.length - 1] || [];
          const cuts = last.map((/** @type {string | null} */ c, /** @type {number} */ i) => (c ? `${ctx.seatName(i)} ${c}` : null)).filter(Boolean).join(' · ');
          lines.push(`The cut${e.rounds.length > 1 ? ` (round ${e.rounds.length})` : ''}: ${cuts} — ${ctx.seatName(e.dealer)} deals`);
          break;
        }
        case 'new_deal': lines.push(`Deal ${e.deal}, dealt by ${ctx.seatName(e.dealer)}`); break;
        case 'challenged':
          lines.push(e.upheld
            ? `${ctx.seatName(e.by)} challenged ${ctx.seatName(e.seat)}: upheld (not in the dictionary: ${e.invalid.map((/** @type {string} */ w) => w.toUpperCase()).join(', ')})`
            : `${ctx.seatName(e.by)} challenged ${ctx.seatName(e.seat)}: the play stands`);
          break;
        case 'scored': lines.push(`${name(e.seat)} ${e.points >= 0 ? '+' : '−'}${Math.abs(e.points)} (${e.reason})`); break;
        case 'link': lines.push(h('span', null, 'New link card: ', cardEl(e.card, { class: 'tiny' }))); break;
        case 'drew':
          lines.push(e.cards
            ? h('span', null, `${e.seat === me() ? 'You' : ctx.seatName(e.seat)} drew `, e.cards.map((/** @type {string} */ c) => cardEl(c, { class: 'tiny' })), ` (${e.consonants} from the consonant deck, ${e.vowels} from the vowel deck)`)
            : `${ctx.seatName(e.seat)} drew ${plural(e.consonants + e.vowels, 'card')} (${e.consonants} from the consonant deck, ${e.vowels} from the vowel deck)`);
          break;
        case 'reshuffled': lines.push(`The played ${e.deck} were shuffled back into their deck (${plural(e.count, 'card')})`); break;
        case 'five_cards': lines.push(`${name(e.seat)} took five cards`); break;
        case 'passed': lines.push(`${name(e.seat)} passed`); break;
        case 'displayed': lines.push(`${name(e.seat)} displayed their hand`); break;
        case 'deal_over': lines.push(`The deal is over: ${e.reason}`); break;
        default: break;
      }
    }
    if (lines.length) replace(newsEl, lines.map((l) => h('li', null, l)));
  }

  return {
    namesSeats: true, // players' names are in the status, the seats and the log: redrawn when they change
    /**
     * A move of the server's move list in words: the play, its score and
     * challenge, draws and deals (cards drawn as cards: letter, suit
     * symbol, value).
     * @param {import('../play.js').Move} m
     */
    describeMove(m) {
      return m.events.map((/** @type {any} */ e) => {
        switch (e.type) {
          case 'played': return `${name(e.seat)} played ${e.words.map((/** @type {any} */ w) => String(w.word).toUpperCase()).join(' + ')} for ${e.score}${e.pending ? ' (may be challenged)' : ''}`;
          case 'thrown': return `${name(e.seat)} threw ${e.dice.join(' and ')}`;
          case 'accepted': return `${name(e.seat)}'s play stands`;
          case 'challenged': return e.upheld ? `${ctx.seatName(e.by)} challenged ${ctx.seatName(e.seat)}: upheld` : `${ctx.seatName(e.by)} challenged ${ctx.seatName(e.seat)}: the play stands`;
          case 'scored': return `${name(e.seat)} ${e.points >= 0 ? '+' : '−'}${Math.abs(e.points)} (${e.reason})`;
          case 'link': case 'link_turned': return h('span', { class: 'wc-move-cards' }, 'New link card: ', cardEl(e.card, { class: 'tiny' }));
          case 'drew': return e.cards
            ? h('span', { class: 'wc-move-cards' }, `${name(e.seat)} drew `, e.cards.map((/** @type {string} */ c) => cardEl(c, { class: 'tiny' })))
            : `${name(e.seat)} drew ${e.consonants + e.vowels} card${e.consonants + e.vowels === 1 ? '' : 's'}`;
          case 'five_cards': return `${name(e.seat)} took five cards`;
          case 'passed': return `${name(e.seat)} passed`;
          case 'new_deal': return `Deal ${e.deal}, dealt by ${ctx.seatName(e.dealer)}`;
          case 'deal_over': return `The deal is over: ${e.reason}`;
          case 'game_over': return `The game is over: ${e.reason}`;
          default: return null;
        }
      });
    },
    /** @param {import('../api.js').StateMsg} s */
    update(s) {
      st = s;
      const v = s.view;
      if (!v) return;
      const key = JSON.stringify([v.hand || null, v.link, v.turns, v.phase, v.dice || null]);
      if (key !== draftKey) {
        draftKey = key;
        resetDrafts();
        drawChoice = '';
      }
      document.body.dataset.wcPhase = v.phase;
      document.body.dataset.wcTurn = String(v.turn);
      drawStatus();
      drawTable();
      drawPending();
      drawHand();
      drawBuild();
      drawSeats();
      drawLog();
      if (s.events && s.events.length) drawNews(s.events);
    },
    /** @param {Error} e */
    error(e) {
      say(`Not done: ${e.message}`);
      return true;
    },
    wouldLose() {
      return myTurn() && fromHand().length > 0;
    },
  };
}
