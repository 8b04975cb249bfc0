// @ts-check
/** Tiny DOM helpers: no framework, just functions that build elements. */

/**
 * Creates an element. `attrs` keys starting with "on" become listeners;
 * `class`, `text`, `html`-free by design (text only, never innerHTML).
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...(Node | string | number | null | undefined | false | (Node|string|null|undefined|false)[])} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2).toLowerCase(), v);
    } else if (k === 'class') {
      el.className = String(v);
    } else if (k === 'style' && typeof v === 'string') {
      // Through the CSS object model: the page's Content-Security-Policy
      // refuses style attributes (style-src without 'unsafe-inline').
      /** @type {HTMLElement} */ (el).style.cssText = v;
    } else if (k === 'dataset') {
      Object.assign(el.dataset, v);
    } else if (k in el && typeof v !== 'string') {
      // properties such as checked, value, disabled
      /** @type {any} */ (el)[k] = v;
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

/**
 * @param {Node} el
 * @param {any[]} children
 */
function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
}

/**
 * Replaces an element's children.
 * @param {Element} el
 * @param {...any} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/**
 * Asks a yes/no question in an accessible modal dialog (keyboard: Tab,
 * Enter, Escape). Resolves true for yes.
 * @param {string} question
 * @param {string} [yes]
 * @param {string} [no]
 * @returns {Promise<boolean>}
 */
export function confirmDialog(question, yes = 'Yes', no = 'Cancel') {
  return new Promise((resolve) => {
    /** @type {HTMLDialogElement} */
    const dlg = /** @type {any} */ (h('dialog', { class: 'confirm', 'aria-label': question }));
    const done = (/** @type {boolean} */ v) => {
      dlg.close();
      dlg.remove();
      resolve(v);
    };
    const noBtn = h('button', { type: 'button', onclick: () => done(false) }, no);
    const yesBtn = h('button', { type: 'button', class: 'danger', onclick: () => done(true) }, yes);
    dlg.append(h('p', null, question), h('div', { class: 'row' }, noBtn, yesBtn));
    dlg.addEventListener('cancel', (e) => {
      e.preventDefault();
      done(false);
    });
    document.body.appendChild(dlg);
    dlg.showModal();
    noBtn.focus();
  });
}

/**
 * A short message for screen readers and eyes (the #toast live region).
 * @param {string} text
 * @param {'info'|'error'} [kind]
 */
export function toast(text, kind = 'info') {
  let box = document.getElementById('toast');
  if (!box) {
    box = h('div', { id: 'toast', role: 'status', 'aria-live': 'polite' });
    document.body.appendChild(box);
  }
  const item = h('p', { class: `toast ${kind}` }, kind === 'error' ? '⚠ ' : 'ℹ ', text);
  box.appendChild(item);
  setTimeout(() => item.remove(), kind === 'error' ? 8000 : 4000);
}

/**
 * A page's warning line: `say(text)` shows `⚠ text` in `el`, `say('')` hides it.
 * @param {HTMLElement} el
 * @returns {(text: string) => void}
 */
export function warningLine(el) {
  /** @param {string} text */
  const say = (text) => {
    el.textContent = text ? `⚠ ${text}` : '';
    el.hidden = !text;
  };
  say('');
  return say;
}

/**
 * Sends one action at a time, so a double click sends once. `before` runs
 * first (a page clears its last refusal there). Resolves true when the
 * server took the action, false when it was refused (the page's `error`
 * hook shows why) or another action was still on its way.
 * @param {(action: any) => Promise<any>} act
 * @param {() => void} before
 * @returns {(action: any) => Promise<boolean>}
 */
export function oneAtATime(act, before) {
  let sending = false;
  return async (action) => {
    if (sending) return false;
    sending = true;
    before();
    try {
      await act(action);
      return true;
    } catch {
      return false;
    } finally {
      sending = false;
    }
  };
}
