// The Sprouts page's drawing (web/js/games/sprouts-layout.js), without a
// browser: games replayed move by move, each move's position taken from
// `parlor sprouts replay --json` (the rules crate), random games played
// through `parlor sprouts moves --json`. After every move no two lines may
// cross (the hard rule); the drawing must read back as the position
// (regions and their boundaries) wherever it is not flagged approximate,
// and the documents' games must be drawn exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { parlorBin } from './harness.mjs';
import { Drawing, drawGame, crossings, positionKey } from '../../web/js/games/sprouts-layout.js';

/** @param {string[]} args */
const parlor = (args) => JSON.parse(execFileSync(parlorBin(), args, { encoding: 'utf8' }));

/**
 * Draws a record's moves with their positions; checks planarity after each
 * and that every move not flagged approximate reads back as its position.
 * @param {string} record
 */
function drawRecord(record) {
  const r = parlor(['sprouts', 'replay', record, '--json']);
  const moves = r.moves.map((/** @type {any} */ m) => m.shortest), positions = r.moves.map((/** @type {any} */ m) => m.position);
  // As the page does: the best of three starting arrangements.
  const d = drawGame(r.spots, moves, positions, 3);
  assert.deepEqual(crossings(d), [], `no crossing in ${record}`);
  // Move by move on that arrangement: planar, and read back as the position.
  const again = new Drawing(r.spots, d.variant);
  moves.forEach((/** @type {string} */ m, /** @type {number} */ k) => {
    const exact = again.apply(m, positions[k]);
    assert.deepEqual(crossings(again), [], `no crossing after ${m} in ${record}`);
    if (exact) assert.equal(again.key(), positionKey(positions[k]), `${m} in ${record} reads back as ${positions[k]}`);
  });
  return d;
}

/** A small deterministic generator (mulberry32). @param {number} seed */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("the documents' games are drawn exactly", () => {
  for (const rec of ['2+ 1(3)2 1(4)2 1(5)4 2(6)3', '8+ 1(9)2 1(10)1[3,4] 3(11)10 2(12)5 5(13)5 6(14)6[7,8] 7(15)8 6(16@2)14']) {
    const d = drawRecord(rec);
    assert.deepEqual(d.approximate, [], `every move of ${rec} drawn as the position says`);
  }
});

test('random games: never a crossing; how many moves are drawn approximately', { timeout: 900000 }, () => {
  const games = Number(process.env.SPROUTS_LAYOUT_GAMES || 24);
  let moves = 0;
  /** @type {Record<number, number>} approximate moves by the number of arrangements tried */
  const approx = { 1: 0, 3: 0 };
  let exactGames = 0;
  /** @type {string[]} */
  const firsts = [];
  for (let g = 0; g < games; g++) {
    const random = rng(1000 + g);
    const n = 2 + (g % 5);
    let position = Array.from({ length: n }, (_, k) => String(k + 1)).join(';');
    /** @type {string[]} */ const ms = [];
    /** @type {string[]} */ const ps = [];
    for (;;) {
      const m = parlor(['sprouts', 'moves', position, '--json']);
      if (!m.moves.length) break;
      const pick = m.moves[Math.floor(random() * m.moves.length)];
      ms.push(pick.move);
      ps.push(pick.position);
      position = pick.position;
    }
    moves += ms.length;
    for (const variants of [1, 3]) {
      const d = drawGame(n, ms, ps, variants);
      assert.deepEqual(crossings(d), [], `no crossing in ${n}+ ${ms.join(' ')}`);
      // Every move drawn exactly reads back as its position: checked move by move.
      const again = new Drawing(n, d.variant);
      ms.forEach((m, k) => {
        if (again.apply(m, ps[k])) assert.equal(again.key(), positionKey(ps[k]), `${m} reads back`);
      });
      approx[variants] += d.approximate.length;
      if (variants === 3) {
        if (!d.approximate.length) exactGames++;
        else firsts.push(`# game ${g}: ${n}+ ${ms.slice(0, d.approximate[0] + 1).join(' ')} — ${d.why[0]}`);
      }
    }
  }
  console.log(firsts.join('\n'));
  console.log(`# ${games} random games, ${moves} moves; drawn approximately: ${approx[1]} (${((100 * approx[1]) / moves).toFixed(1)}%) on one arrangement, ${approx[3]} (${((100 * approx[3]) / moves).toFixed(1)}%) with the best of three; ${exactGames} games drawn exactly`);
});
