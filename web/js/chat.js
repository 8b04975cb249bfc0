// @ts-check
/**
 * The table's chat panel (docs/api.md "Chat"): the players' channel, and
 * for spectators also their own; reactions from the server's fixed set; a
 * per-sender mute kept in this browser (localStorage, per game). Every
 * message is drawn as text (never HTML), so a line such as
 * `<img onerror=...>` shows as those characters.
 *
 * The server sends what was said so far on every (re)connection
 * (`chat_history`), then each new message (`chat`): this panel keeps
 * nothing of its own but the mutes.
 */
import { h, replace } from './dom.js';

/** The reactions the server accepts (docs/api.md "Chat"). */
export const REACTIONS = ['👍', '👏', '😮', '😂', '🤔', '😅', '🙏', '🎉'];

/** Longest line the server accepts, in characters. */
export const MAX_CHARS = 280;

/**
 * One chat message as the server sends it.
 * @typedef {{id: number, at_ms: number, channel: 'players' | 'spectators', from: {seat: number} | {spectator: number},
 *   name: string, text?: string, reaction?: string}} ChatMessage
 */

/** @param {ChatMessage['from']} from */
const senderKey = (from) => ('seat' in from ? `seat:${from.seat}` : `spectator:${from.spectator}`);

/**
 * @param {{
 *   root: HTMLElement,
 *   gameId: string,
 *   send: (msg: any) => boolean,
 *   myName: () => string,
 * }} o
 */
export function mountChat({ root, gameId, send, myName }) {
  const muteKey = `parlor.mute.${gameId}`;
  /** @returns {Set<string>} */
  const loadMutes = () => {
    try {
      const v = JSON.parse(localStorage.getItem(muteKey) || '[]');
      return new Set(Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
    } catch {
      return new Set();
    }
  };
  let muted = loadMutes();
  const saveMutes = () => localStorage.setItem(muteKey, JSON.stringify([...muted]));

  /** @type {number | null} */
  let mySeat = null;
  let spectator = false;
  /** This connection's number as a spectator in chat (welcome's `you.speaker`). @type {number | null} */
  let speaker = null;
  /** @type {ChatMessage[]} */
  let messages = [];
  let nextRef = 1;
  /** Lines sent and not yet seen back, by ref: put back in the box if refused. @type {Map<string, string>} */
  const sent = new Map();

  const note = h('p', { class: 'chat-note', id: 'chat-note' });
  const log = h('ol', { class: 'chat-log', id: 'chat-log', 'aria-live': 'polite', 'aria-label': 'Chat messages' });
  const mutedEl = h('p', { class: 'chat-muted', id: 'chat-muted' });
  const errorEl = h('p', { class: 'chat-error', id: 'chat-error', role: 'alert' });
  const input = /** @type {HTMLInputElement} */ (
    h('input', { id: 'chat-input', maxlength: MAX_CHARS, autocomplete: 'off', placeholder: 'Say something', 'aria-label': 'Chat message' })
  );
  const counter = h('small', { class: 'chat-count', id: 'chat-count', 'aria-hidden': 'true' });
  const countLeft = () => {
    const n = [...input.value].length;
    counter.textContent = n > MAX_CHARS - 40 ? `${MAX_CHARS - n} left` : '';
  };
  input.addEventListener('input', countLeft);

  /** @param {any} body @returns {string | null} the ref, or null if not sent */
  function say(body) {
    const ref = `chat-${nextRef++}`;
    /** @type {any} */
    const msg = { type: 'chat', ref, ...body };
    if (spectator && myName()) msg.name = myName();
    if (!send(msg)) {
      replace(errorEl, '⚠ Not connected: nothing was sent; try again in a moment.');
      return null;
    }
    replace(errorEl);
    return ref;
  }

  const form = h(
    'form',
    {
      class: 'chat-form',
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        if ([...text].length > MAX_CHARS) {
          replace(errorEl, `⚠ A chat line is at most ${MAX_CHARS} characters.`);
          return;
        }
        const ref = say({ text });
        if (ref) {
          sent.set(ref, input.value);
          // Only the last few can still be refused.
          for (const k of [...sent.keys()].slice(0, -10)) sent.delete(k);
          input.value = '';
          countLeft();
        }
      },
    },
    input,
    h('button', { type: 'submit', id: 'chat-send' }, 'Send'),
    counter,
  );
  const reactions = h(
    'div',
    { class: 'chat-reactions', role: 'group', 'aria-label': 'Reactions' },
    REACTIONS.map((r) => h('button', { type: 'button', class: 'reaction', 'aria-label': `React ${r}`, dataset: { reaction: r }, onclick: () => say({ reaction: r }) }, r)),
  );

  replace(root, h('h2', { id: 'chat-h' }, 'Chat'), note, log, mutedEl, errorEl, reactions, form);

  /** @param {ChatMessage} m */
  function mine(m) {
    return 'seat' in m.from ? m.from.seat === mySeat : m.from.spectator === speaker;
  }

  function draw() {
    const shown = messages.filter((m) => !muted.has(senderKey(m.from)));
    replace(
      log,
      shown.map((m) => {
        const key = senderKey(m.from);
        const own = mine(m);
        const who = m.channel === 'spectators' ? `${m.name} (watching)` : m.name;
        return h(
          'li',
          { class: `chat-msg ${m.channel}${own ? ' own' : ''}${m.reaction ? ' reaction' : ''}`, dataset: { id: String(m.id), from: key, channel: m.channel } },
          h('strong', { class: 'chat-who' }, who),
          ': ',
          m.reaction ? h('span', { class: 'chat-reaction' }, m.reaction) : h('span', { class: 'chat-text' }, m.text || ''),
          own
            ? null
            : h('button', { type: 'button', class: 'link chat-mute', title: `Hide ${m.name}'s messages`, onclick: () => toggleMute(key, true) }, 'mute'),
        );
      }),
    );
    log.scrollTop = log.scrollHeight;
    const names = [...muted].map((key) => {
      const last = [...messages].reverse().find((m) => senderKey(m.from) === key);
      return { key, name: last ? last.name : key };
    });
    replace(
      mutedEl,
      names.length
        ? ['Muted: ', names.map(({ key, name }) => h('button', { type: 'button', class: 'link chat-unmute', dataset: { from: key }, onclick: () => toggleMute(key, false) }, `${name} (unmute)`))]
        : null,
    );
  }

  /** @param {string} key @param {boolean} on */
  function toggleMute(key, on) {
    muted = loadMutes();
    if (on) muted.add(key);
    else muted.delete(key);
    saveMutes();
    draw();
  }

  return {
    /**
     * A new connection: who we are now (the history follows).
     * @param {number | null} seat
     * @param {number | null} [spectatorNumber] welcome's `you.speaker`
     */
    reset(seat, spectatorNumber = null) {
      mySeat = seat;
      spectator = seat === null;
      speaker = spectator ? spectatorNumber : null;
      messages = [];
      replace(
        note,
        spectator
          ? 'You are watching: you read the players\' chat, and talk with the other spectators here (the players never see it).'
          : 'Players\' chat: spectators can read it; the players never see the spectators\' chat.',
      );
      draw();
    },
    /**
     * A `chat` or `chat_history` message; false for any other.
     * @param {any} msg
     */
    onMessage(msg) {
      if (msg.type === 'chat_history') {
        messages = msg.messages;
      } else if (msg.type === 'chat') {
        if (messages.some((m) => m.id === msg.message.id)) return true;
        messages.push(msg.message);
        if (messages.length > 200) messages = messages.slice(-200);
      } else return false;
      draw();
      return true;
    },
    /**
     * An `error` answering a chat message: said in the panel, the line
     * put back in the box. False for an error that is not chat's.
     * @param {any} msg
     */
    onError(msg) {
      if (typeof msg.ref !== 'string' || !msg.ref.startsWith('chat-')) return false;
      const text = sent.get(msg.ref);
      sent.delete(msg.ref);
      if (text !== undefined && !input.value) {
        input.value = text;
        countLeft();
      }
      replace(errorEl, `⚠ ${msg.message}`);
      return true;
    },
  };
}
