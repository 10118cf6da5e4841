// Helpers for The Game of Truth's browser tests. They read only the DOM hooks the board promises (docs/ui.md):
// `[data-square]` cells with `data-piece` ("0D", "1I") and `data-lit` ("select", "target"; in the setup editor
// also "swap"), `.tr-wrap[data-action][data-ply][data-phase]`, `.tr-step`, `.tr-log li[data-cause]`.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createAndOpen, screenshot, rectOf } from './helpers.mjs';

export { pieces } from './helpers.mjs';

export const KIND_NAMES = { D: 'door', L: 'lantern', N: 'linesman', S: 'sentry', G: 'guardian', I: 'icon' };
const FILES = 'abcdefghijklmnopq';
export const isWhite = (sq) => (FILES.indexOf(sq[0]) + 18 - Number(sq.slice(1))) % 2 === 0;
export const SIDES = ['Ivory', 'Jade', 'Ember', 'Indigo'];
// Four players: whose corner a square is (Ivory south-west, Jade north-east, Ember south-east, Indigo
// north-west); file i is nobody's (null).
export function quadrantOf(sq) {
  const f = FILES.indexOf(sq[0]);
  if (f === 8) return null;
  const south = Number(sq.slice(1)) <= 9;
  return f < 8 ? (south ? 0 : 3) : (south ? 2 : 1);
}
export const SHOTS_DIR = process.env.TRUTH_SHOTS || '/tmp/truth-shots';

// A screenshot into build/e2e-screenshots (like every test) and a copy into SHOTS_DIR.
export async function shot(page, name, { full = true } = {}) {
  const file = await screenshot(page, name);
  if (!full) await page.screenshot({ path: file });
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  fs.copyFileSync(file, path.join(SHOTS_DIR, `${name}.png`));
  return file;
}

// Creates a Truth game from the lobby. seats: e.g. ['me', 'ai:1'], ['me', 'me'] or ['me', 'open']; four
// seats make a four-player game (the lobby's player count).
export async function createTruth(page, base, { seats = ['me', 'ai:1'], name = 'Ana' } = {}) {
  await page.goto(base + '/');
  await page.waitForSelector('#kind option[value="truth"]', { state: 'attached' });
  await page.selectOption('#kind', 'truth');
  await page.fill('#name', name);
  await page.waitForSelector('#options [data-opt="max_plies"]');
  await page.selectOption('#count', String(seats.length));
  await page.waitForSelector(`#seat-${seats.length - 1}`);
  for (let i = 0; i < seats.length; i++) await page.selectOption(`#seat-${i}`, seats[i]);
  return createAndOpen(page, { open: seats.includes('open') });
}

export async function lit(page, kind, root = '#board') {
  return (await page.$$eval(`${root} [data-lit="${kind}"]`, els => els.map(e => e.dataset.square))).sort();
}

// Waits until this page may act (the board is interactive, with a lit piece or the pass button) or the game
// is over; returns true when over.
export async function waitTurnOrEnd(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const b = document.getElementById('board');
    const over = !document.getElementById('banner').classList.contains('hidden');
    const pass = !document.getElementById('pass').classList.contains('hidden');
    return over || (b && b.dataset.interactive === 'true' && (b.querySelector('[data-lit="select"]') || pass));
  }, null, { timeout });
  return page.$eval('#banner', e => !e.classList.contains('hidden'));
}

export const boardState = (page) => page.$eval('#board', b => {
  const w = b.querySelector('.tr-wrap');
  return { ply: Number(b.dataset.ply), interactive: b.dataset.interactive === 'true', action: w ? Number(w.dataset.action) : null };
});

// One action by clicking: a lit piece, then one of its green destinations. Returns the move string.
export async function clickAction(page) {
  const froms = await lit(page, 'select');
  assert.ok(froms.length > 0, 'my action, but no piece is lit');
  const from = froms[Math.floor(Math.random() * froms.length)];
  await page.click(`#board [data-square="${from}"]`);
  await page.waitForSelector(`#board [data-square="${from}"].selected`);
  const targets = await lit(page, 'target');
  assert.ok(targets.length > 0, `${from} is lit but has no destination`);
  const to = targets[Math.floor(Math.random() * targets.length)];
  await page.click(`#board [data-square="${to}"]`);
  return `${from}-${to}`;
}

// Waits until the first action of this page's turn has landed: the second action is offered, or the game
// (or the turn) is over.
export async function waitSecondOrEnd(page, ply0, timeout = 30000) {
  await page.waitForFunction((ply0) => {
    const b = document.getElementById('board');
    const w = b.querySelector('.tr-wrap');
    const over = !document.getElementById('banner').classList.contains('hidden');
    const pass = !document.getElementById('pass').classList.contains('hidden');
    return over || Number(b.dataset.ply) > ply0 ||
      (b.dataset.interactive === 'true' && w && w.dataset.action === '1' && (b.querySelector('[data-lit="select"]') || pass));
  }, ply0, { timeout });
}

export async function waitPlyOrEnd(page, ply0, timeout = 30000) {
  await page.waitForFunction((ply0) => Number(document.getElementById('board').dataset.ply) > ply0 ||
    !document.getElementById('banner').classList.contains('hidden'), ply0, { timeout });
}

// A whole turn by clicking (two actions, or Pass when it is shown). Returns the actions.
export async function clickTurn(page, { afterFirst } = {}) {
  const { ply } = await boardState(page);
  if (await page.isVisible('#pass')) {
    await page.click('#pass');
    await waitPlyOrEnd(page, ply);
    return ['pass'];
  }
  const a = await clickAction(page);
  await waitSecondOrEnd(page, ply);
  const s = await boardState(page);
  if (s.ply > ply || await page.isVisible('#banner')) return [a];
  if (afterFirst) await afterFirst(a);
  let b;
  if (await page.isVisible('#pass')) { await page.click('#pass'); b = 'pass'; } else b = await clickAction(page);
  await waitPlyOrEnd(page, ply);
  return [a, b];
}

// On a 390 px phone: the board fits the width and uses most of it, and `square`'s tap area is at least `tap`
// pixels each way.
export async function expectPhoneBoard(page, { minWidth, square, tap }) {
  const box = await rectOf(page, '#board svg.tr-board');
  assert.ok(box.left >= 0 && box.right <= 390, `the board fits the width (${box.left}–${box.right})`);
  assert.ok(box.width >= minWidth, `the board uses the width (${box.width})`);
  const sq = await rectOf(page, `#board [data-square="${square}"] .hit`);
  assert.ok(sq.width >= tap && sq.height >= tap, `${square}'s tap area is ${sq.width}×${sq.height}`);
}

// A whole turn by taps, as on a phone: a lit piece, then one of its lit targets (`pick` chooses among them;
// default a seeded random one), twice, or Pass when it is shown. `afterFirst` runs once the first action is in
// and the turn goes on.
export async function tapTurn(page, { pick = (ts) => ts[Math.floor(Math.random() * ts.length)], afterFirst } = {}) {
  const { ply } = await boardState(page);
  for (let k = 0; k < 2; k++) {
    if (await page.isVisible('#pass')) { await page.tap('#pass'); break; }
    const froms = await lit(page, 'select');
    const from = froms[Math.floor(Math.random() * froms.length)];
    await page.tap(`#board [data-square="${from}"] .hit`);
    await page.waitForSelector(`#board [data-square="${from}"].selected`);
    await page.tap(`#board [data-square="${pick(await lit(page, 'target'))}"] .hit`);
    if (k === 0) {
      await waitSecondOrEnd(page, ply);
      if ((await boardState(page)).ply > ply || await page.isVisible('#banner')) break;
      if (afterFirst) await afterFirst();
    }
  }
  await waitPlyOrEnd(page, ply);
}

// Every message the page receives (WebSocket frames and API response bodies), in arrival order, each with
// the token it was asked for with (an HTTP request's bearer token, a WebSocket's auth message; null: none).
export function recordTraffic(page) {
  const log = [];
  const pending = [];
  page.on('websocket', ws => {
    const socket = { token: null };
    ws.on('framesent', f => {
      try { const m = JSON.parse(String(f.payload)); if (m.type === 'auth') socket.token = m.token ?? null; } catch { /* not JSON */ }
    });
    ws.on('framereceived', f => log.push({ kind: 'ws', url: ws.url(), token: socket.token, body: String(f.payload) }));
  });
  page.on('response', r => {
    const url = r.url();
    if (!/\/api\//.test(url)) return;
    const auth = r.request().headers().authorization || '';
    const entry = { kind: 'http', url, token: auth.startsWith('Bearer ') ? auth.slice(7) : null, body: null };
    log.push(entry);
    pending.push(r.text().then(t => { entry.body = t; }, () => { entry.body = ''; }));
  });
  return { log, settle: () => Promise.all(pending) };
}

// Every (square, piece-or-kind) pair in a JSON text whose square lies in `ranks` (e.g. Ivory's 1-9).
export function placementsIn(body, inTerritory) {
  let data;
  try { data = JSON.parse(body); } catch { return []; }
  const out = [];
  const walk = (v, where) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${where}[${i}]`));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (/^[a-q](1[0-8]|[1-9])$/.test(k) && typeof x === 'string' && /^[0-3]?[DLNSGI]$/.test(x) && inTerritory(k)) out.push(`${where}.${k}=${x}`);
        walk(x, `${where}.${k}`);
      }
    } else if (typeof v === 'string' && /^[0-3][DLNSGI]$/.test(v) && where.endsWith('.piece')) out.push(`${where}=${v}`);
  };
  walk(data, '$');
  return out;
}
