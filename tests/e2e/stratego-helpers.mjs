// Helpers for the Stratego browser tests. They read only the DOM hooks the board promises (docs/ui.md):
// `[data-square]` cells with `data-piece` ("0J", "1?") and `data-lit` ("select", "target", "attack").

import assert from 'node:assert/strict';
import { createAndOpen, rectOf } from './helpers.mjs';

export { pieces } from './helpers.mjs';

export const NAMES = ['Marshal', 'General', 'Colonel', 'Major', 'Captain', 'Lieutenant', 'Sergeant', 'Miner', 'Scout', 'Spy', 'Bomb', 'Flag'];

// Creates a Stratego game from the lobby. seats: e.g. ['me', 'ai:1'] or ['me', 'me'].
export async function createStratego(page, base, { seats = ['me', 'ai:1'], memoryAid = false, name = 'Ana', maxPlies = null } = {}) {
  await page.goto(base + '/');
  await page.waitForSelector('#kind option[value="stratego"]', { state: 'attached' });
  await page.selectOption('#kind', 'stratego');
  await page.fill('#name', name);
  await page.waitForSelector('#options [data-opt="memory_aid"]');
  // (The lobby ticks the memory aid for a new game; the tests say which they want.)
  await page.setChecked('#options [data-opt="memory_aid"]', memoryAid);
  if (maxPlies !== null) await page.fill('#options [data-opt="max_plies"]', String(maxPlies));
  for (let i = 0; i < seats.length; i++) await page.selectOption(`#seat-${i}`, seats[i]);
  return createAndOpen(page, { open: seats.includes('open') });
}

export async function center(page, sq, root = '#board') {
  const box = await rectOf(page, `${root} [data-square="${sq}"] .hit`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

// A press or a touch lands on whatever is on top (page.click waits for anything covering its target, the mouse and
// the finger do not): waits until the square itself is at (x, y).
export async function waitSquareAt(page, { x, y }, sq, root = '#board') {
  await page.waitForFunction(({ x, y, sel }) => {
    const el = document.elementFromPoint(x, y);
    return !!el && !!el.closest(sel);
  }, { x, y, sel: `${root} [data-square="${sq}"]` });
}

// Drags the piece on `from` to `to` with the mouse, the way a person would (press, move in steps, release).
export async function drag(page, from, to, root = '#board') {
  const a = await center(page, from, root);
  const b = await center(page, to, root);
  await waitSquareAt(page, a, from, root);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(a.x + (b.x - a.x) * 0.3, a.y + (b.y - a.y) * 0.3, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 6 });
  await page.mouse.up();
}

// All text drawn in every SVG of the page.
export async function svgText(page) {
  return page.$$eval('svg text', els => els.map(e => e.textContent).join(' '));
}

// Waits until this page may move (the board is interactive) or the game is over; returns true when over.
export async function waitTurnOrEnd(page, timeout = 30000) {
  await page.waitForFunction(() => {
    const b = document.getElementById('board');
    const over = !document.getElementById('banner').classList.contains('hidden');
    return over || (b && b.dataset.interactive === 'true' && b.querySelector('[data-lit="select"]'));
  }, null, { timeout });
  return page.$eval('#banner', e => !e.classList.contains('hidden'));
}

// Plays one move by clicking: one of the lit pieces, then one of its lit targets (attacks preferred when
// `attack` is set). Returns the move string.
export async function clickMove(page, { attack = false } = {}) {
  const froms = await page.$$eval('#board [data-lit="select"]', els => els.map(e => e.dataset.square));
  assert.ok(froms.length > 0, 'my turn, but no piece is lit');
  const order = froms.sort(() => Math.random() - 0.5);
  let chosen = null;
  for (const from of order) {
    await page.click(`#board [data-square="${from}"]`);
    await page.waitForSelector('#board [data-lit="target"], #board [data-lit="attack"]');
    const attacks = await page.$$eval('#board [data-lit="attack"]', els => els.map(e => e.dataset.square));
    const targets = await page.$$eval('#board [data-lit="target"]', els => els.map(e => e.dataset.square));
    if (attack && !attacks.length && from !== order[order.length - 1]) continue; // try another piece
    const pool = attack && attacks.length ? attacks : [...targets, ...attacks];
    chosen = `${from}-${pool[Math.floor(Math.random() * pool.length)]}`;
    break;
  }
  const to = chosen.split('-')[1];
  await page.click(`#board [data-square="${to}"]`);
  return chosen;
}
