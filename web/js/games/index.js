// @ts-check
/**
 * One page module per game, by the registry name the server uses. A game
 * without a module here still works through the generic page (its view as
 * JSON and a JSON action box), so adding a game to the server never breaks
 * the browser; adding its page is one file plus one line here.
 *
 * A page module exports:
 * - `mount(ctx)` -> `{update(state), error?(err, action)}`: draws the view, sends actions;
 * - optionally `lobby` (`LobbyHooks` in ../settings.js): what the lobby's
 *   rules form, drawn from the settings the game declares, cannot say by
 *   itself (the ids' prefix, placeholders, a note, a last touch to the rules);
 * - optionally `lobbyOptions(defaultConfig)` -> `{el, config()}`: a rules form
 *   for a game that declares no settings (generic.js: the rules as JSON);
 * - optionally `compare(plays)` -> an element or null: friends' finished
 *   plays of one puzzle (`[{name, view}]`, each its game's spectator view)
 *   laid out side by side on a challenge's page (Gobble: word by word).
 */

/** @type {Record<string, () => Promise<any>>} */
export const pages = {
  wordsprout: () => import('./wordsprout.js'),
  gobble: () => import('./gobble.js'),
  sprouts: () => import('./sprouts.js'),
  wordchain: () => import('./wordchain.js'),
  twingrid: () => import('./twingrid.js'),
};

/**
 * @param {string} game
 * @returns {Promise<any>}
 */
export async function pageFor(game) {
  const load = pages[game] || (() => import('./generic.js'));
  return load();
}
