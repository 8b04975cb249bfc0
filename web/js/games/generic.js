// @ts-check
/** The page of a game that has no page module yet: its view as JSON, a JSON action box. */
import { h, replace } from '../dom.js';

/** @param {any} defaults */
export function lobbyOptions(defaults) {
  const area = /** @type {HTMLTextAreaElement} */ (
    h('textarea', { id: 'config-json', rows: 6, cols: 50 }, JSON.stringify(defaults, null, 1))
  );
  return {
    el: h('label', null, 'Rules (JSON)', area),
    config: () => JSON.parse(area.value || '{}'),
  };
}

/** @param {import('../play.js').PageContext} ctx */
export function mount(ctx) {
  const pre = h('pre', { class: 'json' });
  const input = /** @type {HTMLInputElement} */ (h('input', { id: 'action-json', size: 50, placeholder: '{"type": ...}' }));
  const form = h(
    'form',
    {
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        try {
          ctx.act(JSON.parse(input.value));
        } catch {
          ctx.toast('that is not JSON', 'error');
        }
      },
    },
    h('label', null, 'Action (JSON) ', input),
    h('button', null, 'Send'),
  );
  replace(ctx.root, pre, ctx.mySeat === null ? null : form);
  return {
    /** @param {import('../api.js').StateMsg} s */
    update(s) {
      pre.textContent = JSON.stringify(s.view, null, 1);
    },
  };
}
