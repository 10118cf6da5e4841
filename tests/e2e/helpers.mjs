// Shared helpers for the browser tests: start a server on a free port, launch Chromium, collect
// console errors and Content-Security-Policy violations, take screenshots, and drive the Tigadi board
// the way a person would.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { afterEach } from 'node:test';
import { chromium } from 'playwright-core';

// Every random choice a test makes (which lit piece, which move) comes from one seeded generator, and the
// server's (the AI's moves and setups) from the same seed, so a failing run can be replayed: E2E_SEED=<n>
// repeats it. The seed is printed as a TAP comment, which ctest shows with a failure. Only this Node process's
// Math.random is replaced; the pages in Chromium keep their own.
export const SEED = Number.parseInt(process.env.E2E_SEED ?? '20261201', 10) >>> 0;
Math.random = (() => {
  let a = SEED;
  return () => {  // mulberry32
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
console.log(`# E2E_SEED=${SEED}`);

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHOTS = path.join(REPO, 'build', 'e2e-screenshots');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Spawns `tabula serve` and waits for /healthz. Returns { url, port, dir, stop, log }. `port` and `dir`
// restart a server where a stopped one left off (stop({ keep: true }) keeps its database).
export async function startServer({ port: wantPort, dir: wantDir } = {}) {
  const bin = process.env.TABULA_BIN || path.join(REPO, 'build', 'release', 'tabula');
  if (!fs.existsSync(bin)) throw new Error(`no server binary at ${bin} (build it, or set TABULA_BIN)`);
  const port = wantPort ?? await freePort();
  const dir = wantDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-e2e-'));
  // The AI on a node budget and its seeds derived from SEED (--test-seed): the server's side of a game replays
  // too, so a failure seen once is seen again with the same E2E_SEED.
  const args = ['serve', '--port', String(port), '--db', path.join(dir, 't.db'), '--web-root', path.join(REPO, 'web'),
    '--ai-nodes', '5000', '--test-seed', String(SEED || 1)];
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', d => { log += d; });
  child.stderr.on('data', d => { log += d; });
  let exited = null;
  child.on('exit', (code, sig) => { exited = code ?? sig; });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30000;
  for (;;) {
    if (exited !== null) throw new Error(`server exited (${exited}) before it was healthy:\n${log}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`server not healthy after 30 s:\n${log}`); }
    await new Promise(r => setTimeout(r, 100));
  }
  return {
    url,
    port,
    dir,
    get log() { return log; },
    async stop({ keep = false } = {}) {
      if (exited === null) {
        const gone = new Promise(r => child.once('exit', r));
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        await gone;
        clearTimeout(t);
      }
      if (!keep) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Chromium whose every context watches for CSP violations (see watchCsp): tests open pages through
// browser.newContext(), so every page of every test is watched.
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => watchCsp(await newContext(...args));
  return browser;
}

// Content-Security-Policy violations. The server sends a strict policy (no inline script or style, no
// eval, nothing framed); a page that breaks it is broken for real users, so a violation fails the test.
// Chromium reports each one twice: a console error ("... violates the following Content Security Policy
// directive ...", older builds "Refused to ...") and a `securitypolicyviolation` event in the page,
// which an init script forwards here. Both land in `page.csp` and in `cspPending`, which the afterEach
// below empties, failing the test that opened the page with the violations named.
const CSP_CONSOLE = /Content Security Policy|Refused to /i;
export const isCspMessage = (text) => CSP_CONSOLE.test(text);
const cspPending = [];

function recordCsp(page, text) {
  if (!page) return;
  const entry = `${text} (on ${page.url()})`;
  (page.csp ??= []).push(entry);
  cspPending.push({ page, entry });
}

async function watchCsp(context) {
  await context.exposeBinding('__tabulaCspViolation', ({ page }, v) => recordCsp(page,
    `securitypolicyviolation: ${v.directive} blocked ${v.blocked || '(inline)'} in ${v.source || v.document}` +
    `${v.line ? `:${v.line}` : ''}${v.sample ? ` sample ${JSON.stringify(v.sample)}` : ''}`));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = globalThis.__tabulaCspViolation;
      if (report) report({ directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI, source: e.sourceFile,
        line: e.lineNumber, sample: e.sample, document: e.documentURI });
    }, true);
  });
  const watch = (page) => {
    page.csp ??= [];
    page.on('console', m => { if (isCspMessage(m.text())) recordCsp(page, `console ${m.type()}: ${m.text()}`); });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  return context;
}

// Hands a page's recorded violations to the caller (a test that provokes one on purpose) and clears them.
export function takeCspViolations(page) {
  const taken = page.csp ?? [];
  page.csp = [];
  for (let i = cspPending.length - 1; i >= 0; i--) if (cspPending[i].page === page) cspPending.splice(i, 1);
  return taken;
}

afterEach(() => {
  if (!cspPending.length) return;
  const entries = cspPending.splice(0).map(e => e.entry);
  assert.fail(`Content-Security-Policy violations:\n  ${entries.join('\n  ')}`);
});

// A page that records console errors and uncaught exceptions into `page.errors` (CSP violations go to
// `page.csp`, see above).
export async function newPage(context) {
  const page = await context.newPage();
  page.errors = [];
  page.csp ??= [];
  page.on('console', m => {
    if (m.type() === 'error' && !isCspMessage(m.text())) page.errors.push(`console: ${m.text()} @ ${JSON.stringify(m.location())}`);
  });
  page.on('pageerror', e => page.errors.push(`pageerror: ${e.message}`));
  return page;
}

export function assertNoErrors(page) {
  const csp = takeCspViolations(page);
  assert.deepEqual(csp, [], `Content-Security-Policy violations on ${page.url()}`);
  assert.deepEqual(page.errors, [], `console errors on ${page.url()}`);
}

export async function screenshot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export async function apiJson(base, method, p, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let data = null;
  try { data = JSON.parse(text); } catch { data = text; }
  if (!r.ok) throw new Error(`${method} ${p} -> ${r.status}: ${text}`);
  return data;
}

// Board helpers (they read only the DOM attributes the UI promises: data-point, data-piece, data-lit).

export async function boardPieces(page) {
  return page.$$eval('#board [data-point]', els => Object.fromEntries(
    els.filter(e => e.dataset.piece).map(e => [e.dataset.point, e.dataset.piece])));
}

export async function handCounts(page) {
  return page.$$eval('#board [data-hand]', els => els.map(e => Number(e.dataset.count)));
}

export function countPieces(board) {
  const c = { '0G': 0, '1G': 0 };
  for (const v of Object.values(board)) c[v] = (c[v] || 0) + 1;
  return c;
}

// Waits until it is this page's turn (the board is interactive) or the game is over.
export async function waitTurnOrEnd(page, timeout = 20000) {
  await page.waitForFunction(() => {
    const b = document.getElementById('board');
    const over = !document.getElementById('banner').classList.contains('hidden');
    return over || (b && b.dataset.interactive === 'true');
  }, null, { timeout });
  return page.$eval('#banner', e => !e.classList.contains('hidden'));
}

const pick = (a) => a[Math.floor(Math.random() * a.length)];

// Waits until the page's board shows at least `ply`: after a click, for the move's echo; after a read of the
// server, for what the read holds (it may already hold the AI's answer). The mover's board may show its move from
// the move's answer before the socket's events come, and the move list is drawn from those events.
export const waitBoardPly = (page, ply, { timeout } = {}) =>
  page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) >= p, ply, timeout ? { timeout } : {});

// Plays one random legal move by clicking lit points (or Pass). Returns a description of the clicks.
export async function playRandomMove(page, { onCapture } = {}) {
  const clicks = [];
  if (await page.isVisible('#pass')) {
    await page.click('#pass');
    return ['pass'];
  }
  const lit = await page.$$eval('#board [data-lit]', els => els.map(e => [e.dataset.point, e.dataset.lit]));
  assert.ok(lit.length > 0, 'it is my turn but nothing is lit and there is no Pass button');
  const ply0 = Number(await page.getAttribute('#board', 'data-ply'));
  const [pt, kind] = pick(lit);
  assert.ok(kind === 'place' || kind === 'select', `unexpected first click kind ${kind}`);
  await page.click(`#board [data-point="${pt}"]`);
  clicks.push(pt);
  if (kind === 'select') {
    await page.waitForSelector('#board [data-lit="target"]');
    const targets = await page.$$eval('#board [data-lit="target"]', els => els.map(e => e.dataset.point));
    const t = pick(targets);
    await page.click(`#board [data-point="${t}"]`);
    clicks.push(t);
  }
  // A completed line: the capturable enemy gotis light up; choose one.
  // (The AI may answer faster than we poll, so watch the ply number rather than `interactive`.)
  await page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) > p ||
    document.querySelector('#board [data-lit="capture"]'), ply0);
  const caps = await page.$$eval('#board [data-lit="capture"]', els => els.map(e => e.dataset.point));
  if (caps.length) {
    if (onCapture) await onCapture(caps);
    const c = pick(caps);
    await page.click(`#board [data-point="${c}"]`);
    clicks.push(`x${c}`);
  }
  return clicks;
}

// After a game's options and seats are set in the lobby: creates it and opens its page (with an open seat the
// lobby first shows the invite link, then the way to the game). Returns the game's id and this browser's tokens.
export async function createAndOpen(page, { open = false } = {}) {
  if (open) {
    await page.click('#create');
    await page.waitForSelector('#created:not(.hidden) #go');
    await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#go')]);
  } else {
    await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#create')]);
  }
  const id = new URL(page.url()).searchParams.get('id');
  const tokens = await page.evaluate((id) => JSON.parse(localStorage.getItem(`tabula:game:${id}`)).tokens, id);
  return { id, tokens };
}

// The game page's rules link once the page has named its game (game.js sets the heading and the link in one step
// after its first reads; before, the link is hidden and has no address): its address, or null where it stays hidden.
export async function rulesLinkOf(page) {
  await page.waitForFunction(() => document.getElementById('title').textContent !== 'Loading game…');
  return page.$eval('#rules-link', a => (a.classList.contains('hidden') ? null : a.getAttribute('href')));
}

// Pieces on a board (or a setup editor) that marks them with data-piece: square -> piece.
export async function pieces(page, root = '#board') {
  return page.$$eval(`${root} [data-square][data-piece]`, els => Object.fromEntries(els.map(e => [e.dataset.square, e.dataset.piece])));
}

// A phone: a touch screen of `width`×`height` CSS pixels at twice the density.
export function phoneContext(browser, { width = 390, height = 844 } = {}) {
  return browser.newContext({ viewport: { width, height }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
}

// Fails when the page is wider than its viewport (a phone would scroll sideways).
export async function noSideScroll(page) {
  const { sw, cw } = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
  assert.ok(sw <= cw + 1, `page scrolls sideways: ${sw} > ${cw}`);
}

// The game as a seat (its token) or a spectator (none) sees it, through the API.
export const gameAs = (url, id, token) => apiJson(url, 'GET', `/api/games/${id}`, { token });

// The game once ok(game) holds: the state asked for is what is waited on (up to 600 looks, 50 ms apart).
export async function waitForGame(url, id, token, ok) {
  for (let i = 0; i < 600; i++) {
    const g = await gameAs(url, id, token);
    if (ok(g)) return g;
    await new Promise(r => setTimeout(r, 50));
  }
  throw new Error('the game did not get there');
}

// Where an element is on the page, found and measured in one look. `page.$eval` cannot: Playwright finds the
// element in one call and runs the function in another, and a board that redraws in between (any message from
// the server does) has detached the element, whose box is then 0×0.
export async function rectOf(page, sel) {
  const r = await page.evaluate((sel) => {
    const e = document.querySelector(sel);
    return e ? e.getBoundingClientRect().toJSON() : null;
  }, sel);
  if (!r) throw new Error(`no element matches ${sel}`);
  return r;
}

// Where an element's centre is on the page. A mark is drawn once the board is laid out: this waits until the
// element has a size, and measures it in the same look.
export async function centreOf(page, sel) {
  const handle = await page.waitForFunction((sel) => {
    const e = document.querySelector(sel);
    const r = e ? e.getBoundingClientRect() : null;
    return r && r.width > 0 ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null;
  }, sel);
  return handle.jsonValue();
}

// Every game document (GET) and WebSocket update the page receives passes through rewrite(text) -> text: a test
// plants what the server would send in a situation that is hard to reach by play.
export async function rewriteGameMessages(page, rewrite) {
  await page.route(/\/api\/games\/[0-9a-f]+$/, async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, body: rewrite(await res.text()) });
  });
  await page.routeWebSocket(/\/ws\/games\//, (ws) => {
    const upstream = ws.connectToServer();
    upstream.onMessage((m) => ws.send(rewrite(m)));
    ws.onMessage((m) => upstream.send(m));
  });
}

// Records in window.__thinking every "thinking" mark the seats list shows, from the first paint on.
export async function recordThinking(context) {
  await context.addInitScript(() => {
    window.__thinking = [];
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('#seats [data-thinking]')) window.__thinking.push(el.dataset.thinking);
    }).observe(document, { childList: true, subtree: true });
  });
}
