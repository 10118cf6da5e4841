// Helpers for the FACET browser tests. They read only the DOM hooks the board promises (docs/ui.md):
// `[data-square]` cells with `data-tile` (F T S G C), `data-piece` ("0A", "1M"), `data-ghost`, `data-badge`,
// `data-visible` (fog) and `data-lit` ("select", "target", "capture").

import { spawn } from 'node:child_process';
import path from 'node:path';
import assert from 'node:assert/strict';
import { REPO, apiJson, createAndOpen, newPage } from './helpers.mjs';

export const FILES = 'abcdefghi';
export const SQUARES = [];
for (let r = 1; r <= 9; r++) for (const f of FILES) SQUARES.push(`${f}${r}`);

// Creates a FACET game from the lobby. side: '0' | '1' | 'random'; opponent: 'ai:1', 'open', 'me', …
export async function createFacet(page, base, { side = '0', opponent = 'ai:1', modes = [], layout = null, name = 'Ana' } = {}) {
  await page.goto(base + '/');
  await page.waitForSelector('#kind option[value="facet"]', { state: 'attached' });
  await page.selectOption('#kind', 'facet');
  await page.fill('#name', name);
  await page.waitForSelector('#options [data-opt="modes"] [data-opt-value="momentum"]');
  if (layout) await page.selectOption('#options [data-opt="layout"]', layout);
  for (const m of modes) await page.check(`#options [data-opt="modes"] [data-opt-value="${m}"]`);
  // Seat 0 is "Me" by default; the opponent goes to the other seat, then the side choice moves them.
  await page.selectOption('#seat-1', opponent);
  if (opponent !== 'me') await page.check(`#side-${side}`);
  const { id, tokens } = await createAndOpen(page, { open: opponent === 'open' });
  // A fog hot seat opens on the hand-over screen, with the board hidden.
  await page.waitForSelector('#board [data-square="e5"], #handover:not(.hidden)');
  return { id, tokens };
}

// What the board draws, square by square.
export async function boardState(page) {
  return page.evaluate(() => {
    const els = [...document.querySelectorAll('#board [data-square]')];
    const out = { pieces: {}, tiles: {}, badges: {}, ghosts: {}, visible: [], dimmed: [], lit: {} };
    for (const e of els) {
      const sq = e.dataset.square;
      if (e.dataset.piece) out.pieces[sq] = e.dataset.piece;
      if (e.dataset.tile && e.dataset.tile !== 'F') out.tiles[sq] = e.dataset.tile;
      if (e.dataset.badge) out.badges[sq] = e.dataset.badge;
      if (e.dataset.ghost) out.ghosts[sq] = e.dataset.ghost;
      if (e.dataset.visible === 'true') out.visible.push(sq);
      if (e.querySelector('.fc-dim')) out.dimmed.push(sq);
      if (e.dataset.lit) out.lit[sq] = e.dataset.lit;
    }
    out.visible.sort();
    out.dimmed.sort();
    return out;
  });
}

// The board equals the observation: stones, terrain, badges (and, under fog, sight and ghosts).
export async function assertBoardMatches(page, obs, what = '') {
  const b = await boardState(page);
  assert.deepEqual(b.pieces, obs.board, `stones ${what}`);
  assert.deepEqual(b.tiles, obs.terrain, `terrain ${what}`);
  assert.deepEqual(b.badges, obs.badges || {}, `badges ${what}`);
  if (obs.visible) {
    assert.deepEqual(b.visible, [...obs.visible].sort(), `visible squares ${what}`);
    assert.deepEqual(b.dimmed, SQUARES.filter(sq => !obs.visible.includes(sq)).sort(), `dimmed squares ${what}`);
    assert.deepEqual(b.ghosts, obs.ghosts, `ghosts ${what}`);
  } else {
    assert.deepEqual(b.dimmed, [], `nothing dimmed without fog ${what}`);
    assert.deepEqual(b.ghosts, {}, `no ghosts without fog ${what}`);
  }
  return b;
}

export async function waitTurnOrEnd(page, timeout = 20000) {
  await page.waitForFunction(() => {
    const b = document.getElementById('board');
    const over = !document.getElementById('banner').classList.contains('hidden');
    return over || (b && b.dataset.interactive === 'true' && b.querySelector('[data-lit="select"]'));
  }, null, { timeout });
  return page.$eval('#banner', e => !e.classList.contains('hidden'));
}

export async function waitPly(page, ply, timeout = 20000) {
  await page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) >= p ||
    !document.getElementById('banner').classList.contains('hidden'), ply, { timeout });
}

// Clicks the stone on `from`, checks that the green squares are exactly the legal destinations of that
// stone, and clicks `to`.
export async function clickMove(page, legal, move) {
  const [from, to] = move.split('-');
  await page.click(`#board [data-square="${from}"]`);
  await page.waitForSelector(`#board [data-square="${from}"].selected`);
  // One look at the page (the board may redraw at any moment, e.g. when a decay flash ends).
  const { lit, colours } = await page.evaluate(() => {
    const els = [...document.querySelectorAll('#board [data-lit="target"], #board [data-lit="capture"]')];
    return {
      lit: els.map(e => e.dataset.square).sort(),
      // Every green square really is green (the ring comes from the lit state).
      colours: [...new Set(els.map(e => getComputedStyle(e.querySelector('.fc-ring')).stroke))],
    };
  });
  const want = legal.filter(m => m.startsWith(`${from}-`)).map(m => m.split('-')[1]).sort();
  assert.deepEqual(lit, want, `green squares for ${from}`);
  assert.deepEqual(colours, ['rgb(31, 138, 91)'], 'destinations are ringed in green');
  await page.click(`#board [data-square="${to}"]`);
}

// The screen position of a square's centre.
export async function centre(page, sq) {
  const box = await page.evaluate((sq) => document.querySelector(`#board [data-square="${sq}"] .hit`).getBoundingClientRect().toJSON(), sq);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

// Every state the engine reaches replaying `moves` from a new game with `options` (for checking replays).
export function engineStates(options, moves) {
  const bin = process.env.TABULA_BIN || path.join(REPO, 'build', 'release', 'tabula');
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['engine'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', d => { out += d; });
    child.on('error', reject);
    child.on('exit', () => {
      const lines = out.trim().split('\n').map(l => JSON.parse(l));
      if (!lines.every(l => l.ok)) return reject(new Error(`engine refused: ${out}`));
      resolve(lines.map(l => l.state));
    });
    const cmds = [{ cmd: 'new', game: 'facet', options }, ...moves.map(move => ({ cmd: 'play', move }))];
    child.stdin.end(cmds.map(c => JSON.stringify(c)).join('\n') + '\n');
  });
}

export async function game(base, id, token) {
  return apiJson(base, 'GET', `/api/games/${id}`, { token });
}

// Waits (through the API) until `pred(game)` holds.
export async function waitGame(base, id, token, pred, timeout = 20000) {
  const end = Date.now() + timeout;
  for (;;) {
    const g = await game(base, id, token);
    if (pred(g)) return g;
    if (Date.now() > end) throw new Error(`timed out waiting on game ${id}: ${JSON.stringify(g.observation).slice(0, 300)}`);
    await new Promise(r => setTimeout(r, 50));
  }
}

// A new browser context on game `id` holding `seat`'s token (none: a spectator), the board drawn.
export async function openAs(browser, base, id, token, seat) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 950 } });
  const page = await newPage(context);
  await page.goto(base + '/');
  if (token) await page.evaluate(([id, token, seat]) => localStorage.setItem(`tabula:game:${id}`, JSON.stringify({ tokens: { [seat]: token } })), [id, token, seat]);
  await page.goto(`${base}/game.html?id=${id}`);
  await page.waitForSelector('#board [data-square="e5"]');
  return { context, page };
}
