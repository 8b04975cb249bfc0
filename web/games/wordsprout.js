// @ts-check
/**
 * Word Sprout's page: the string with an insertion point before, between
 * and after its letters. Click a gap (or move with ← →) and type a letter
 * (or click one), check the new string, then press Play (or Enter): nothing
 * is sent before that, so a stray tap never loses a game. Challenge,
 * prove, concede and rule choices appear when the rules allow them, from
 * the legal actions the server lists for this seat.
 * @module games/wordsprout
 */
import { el, seatLabel } from '../js/api.js';

/** @typedef {import('../js/api.js').StateMsg} StateMsg */

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * @param {HTMLElement} root
 * @param {import('../js/play.js').GameContext} ctx
 */
export function mount(root, ctx) {
  /** @type {StateMsg|null} */
  let state = null;
  /** Insertion point (0..len) or null. */
  let gap = /** @type {number|null} */ (null);
  let letter = /** @type {string|null} */ (null);
  let busy = false;

  const status = el('p', { class: 'status', 'aria-live': 'polite' });
  const stringBox = el('div', { class: 'ws-string', role: 'group', 'aria-label': 'the string: choose where to add a letter' });
  const keys = el('div', { class: 'ws-keys', role: 'group', 'aria-label': 'letters' });
  const preview = el('span', { class: 'muted' });
  const playBtn = /** @type {HTMLButtonElement} */ (el('button', { class: 'primary', id: 'ws-play', onclick: () => play() }, ['Play']));
  const extra = el('div', { class: 'row', id: 'ws-actions' });
  const info = el('div', { class: 'muted' });
  root.replaceChildren(status, stringBox, keys, el('div', { class: 'row' }, [playBtn, preview]), extra, info);

  for (const l of LETTERS) {
    keys.append(el('button', { type: 'button', 'data-letter': l, 'aria-pressed': 'false', onclick: () => choose(l), text: l }));
  }

  /** @returns {any[]} */
  const legal = () => (state && Array.isArray(state.legal) ? state.legal : []);
  const canPlay = () => legal().some((a) => a.type === 'play');

  function newString() {
    if (!state || gap === null || !letter) return null;
    const s = state.view.string;
    return s.slice(0, gap) + letter + s.slice(gap);
  }

  /** @param {string} l */
  function choose(l) {
    if (!canPlay()) return;
    if (gap === null) gap = state ? state.view.string.length : 0;
    letter = l;
    draw();
  }

  async function play() {
    const s = newString();
    if (!s || busy) return;
    await send({ type: 'play', string: s });
  }

  /** @param {any} action */
  async function send(action) {
    busy = true;
    draw();
    try {
      await ctx.act(action);
      gap = null;
      letter = null;
    } catch (e) {
      ctx.toast(/** @type {Error} */ (e).message);
    } finally {
      busy = false;
      draw();
    }
  }

  /** @param {number} seat */
  const who = (seat) => (seat === ctx.seat ? 'you' : ctx.seats()[seat]?.name || seatLabel(seat));

  function describe() {
    if (!state) return '';
    const v = state.view;
    const ph = v.phase;
    if (state.to_act === 'over' || ph.phase === 'over') return 'The game is over.';
    if (ph.phase === 'proving') {
      return ph.challenged === ctx.seat
        ? `${who(ph.challenger)} challenged your play: name a word that contains "${v.string}", or concede.`
        : `${who(ph.challenger)} challenged ${who(ph.challenged)}: waiting for a word…`;
    }
    if (ph.phase === 'choosing-rule') {
      return ph.seat === ctx.seat ? 'You won the round: choose a rule to switch.' : `${who(ph.seat)} is choosing a rule.`;
    }
    const mine = v.to_move === ctx.seat;
    if (mine) return 'Your turn: add one letter anywhere.';
    return `${who(v.to_move)} to move.` + (canPlay() ? ' You may play out of turn.' : '');
  }

  function draw() {
    if (!state) return;
    const v = state.view;
    status.textContent = describe();
    const s = v.string;
    const playable = canPlay() && !busy;
    /** @type {HTMLElement[]} */
    const parts = [];
    for (let i = 0; i <= s.length; i++) {
      const active = gap === i;
      parts.push(
        el('button', {
          type: 'button',
          class: 'ws-gap' + (active ? ' active' : ''),
          'data-gap': i,
          'data-letter': active && letter ? letter : '',
          'aria-label': `add a letter ${i === 0 ? 'at the start' : i === s.length ? 'at the end' : 'after ' + s[i - 1]}`,
          'aria-pressed': active ? 'true' : 'false',
          disabled: !playable,
          onclick: () => {
            gap = i;
            draw();
          },
        }, [active && !letter ? '+' : '']),
      );
      if (i < s.length) parts.push(el('span', { class: 'ws-letter', text: s[i] }));
    }
    if (!s.length && !parts.length) parts.push(el('span', { class: 'muted', text: '(empty)' }));
    stringBox.replaceChildren(...parts);
    keys.querySelectorAll('button').forEach((b) => {
      const btn = /** @type {HTMLButtonElement} */ (b);
      btn.disabled = !playable;
      btn.setAttribute('aria-pressed', String(btn.dataset.letter === letter));
    });
    const ns = newString();
    playBtn.disabled = !ns || busy;
    playBtn.textContent = ns ? `Play "${ns}"` : 'Play';
    preview.textContent = ns ? '(Enter to play, Esc to cancel)' : playable ? 'Choose a gap, then a letter.' : '';

    /** @type {HTMLElement[]} */
    const buttons = [];
    for (const a of legal()) {
      if (a.type === 'challenge') buttons.push(el('button', { id: 'ws-challenge', onclick: () => send(a), text: 'Challenge the last play' }));
      if (a.type === 'concede') buttons.push(el('button', { id: 'ws-concede', onclick: () => confirm('Concede?') && send(a), text: 'Concede' }));
      if (a.type === 'call') buttons.push(el('button', { onclick: () => send(a), text: 'Call: the string is a word' }));
      if (a.type === 'choose-rule') {
        buttons.push(el('button', { onclick: () => send(a), text: a.rule ? `Switch rule: ${a.rule}` : 'Keep the rules' }));
      }
    }
    if (v.phase.phase === 'proving' && v.phase.challenged === ctx.seat) {
      const input = /** @type {HTMLInputElement} */ (el('input', { type: 'text', id: 'ws-prove-word', placeholder: `a word containing ${v.string}`, 'aria-label': 'your word' }));
      buttons.unshift(
        el('form', { class: 'row', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); send({ type: 'prove', word: input.value.trim() }); } }, [
          input, el('button', { class: 'primary', type: 'submit', text: 'Prove' }),
        ]),
      );
    }
    extra.replaceChildren(...buttons);

    const lp = v.last_play;
    info.replaceChildren(
      lp ? el('p', { text: `Last play: ${who(lp.by)} made "${lp.from}" into "${lp.to}"${lp.out_of_turn ? ' (out of turn)' : ''}${lp.proven ? ', proven' : ''}.` }) : '',
      el('p', { text: `Rules: ${(v.rules || []).join(', ') || 'base rules only'} · words from ${v.lexicon}` + (v.rounds > 1 ? ` · round ${v.round} of ${v.rounds}, wins ${v.round_wins.join('–')}` : '') }),
      v.pot ? el('p', { text: `Tiles left: ${v.pot}` }) : '',
      v.collections && v.collections.length ? el('p', { text: `Vowels collected: ${v.collections.map((c, i) => `${seatLabel(i)} ${c || '–'}`).join(', ')}` }) : '',
      v.board ? el('p', { text: 'This variant plays on a board, which this page does not draw yet.' }) : '',
    );
  }

  document.addEventListener('keydown', (e) => {
    if (!state || e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    const len = state.view.string.length;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      if (!canPlay()) return;
      const d = e.key === 'ArrowLeft' ? -1 : 1;
      gap = Math.max(0, Math.min(len, (gap ?? (d < 0 ? len + 1 : -1)) + d));
      e.preventDefault();
      draw();
    } else if (e.key === 'Escape') {
      gap = null;
      letter = null;
      draw();
    } else if (e.key === 'Enter' && newString()) {
      e.preventDefault();
      play();
    } else if (/^[a-zA-Z]$/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      choose(e.key.toLowerCase());
    }
  });

  return {
    /** @param {StateMsg} s */
    update(s) {
      if (state && s.seq !== state.seq) {
        gap = null;
        letter = null;
      }
      state = s;
      draw();
    },
  };
}
