// @ts-check
/**
 * The page of a game that has no page of its own yet: its view as JSON and
 * one button per legal action. A new game works in the browser from the
 * moment it is registered; its own module makes it pleasant.
 * @module games/generic
 */
import { el } from '../js/api.js';

/**
 * @param {HTMLElement} root
 * @param {import('../js/play.js').GameContext} ctx
 */
export function mount(root, ctx) {
  const pre = el('pre', { 'aria-label': 'the game as the server shows it to you' });
  const buttons = el('div', { class: 'row' });
  root.replaceChildren(pre, buttons);
  return {
    /** @param {import('../js/api.js').StateMsg} s */
    update(s) {
      pre.textContent = JSON.stringify(s.view, null, 2);
      buttons.replaceChildren(
        ...(s.legal || []).map((a) =>
          el('button', {
            onclick: () => ctx.act(a).catch((e) => ctx.toast(e.message)),
            text: JSON.stringify(a),
          })),
      );
    },
  };
}
