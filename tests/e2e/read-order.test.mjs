// The game page keeps the newest state when a read of the whole game (GET /api/games/{id}) and the WebSocket's
// updates arrive out of order. The test holds the page's socket messages and its read, so each order happens
// every run instead of once in many on a loaded machine (where e2e.truth-stalemate once waited for an agreement
// the page had drawn and then undrawn):
// 1. a read answered before an offer arrives after the offer's update: the offer keeps the position (ply and
//    action), so only the count of events says the read is older; the page keeps the offer;
// 2. a read answered after an action arrives before that action's update: the update's events are in the list
//    already, and the page does not add them twice (the move list would show the action twice).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, apiJson } from './helpers.mjs';
import { createTruth, clickAction, waitTurnOrEnd, boardState } from './truth-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const reads = (page) => page.$eval('body', b => Number(b.dataset.reads || 0));
const agreed = (page) => page.$eval('#board .tr-stalemate', e => e.dataset.agreed);

test('the game page orders a read and the socket by their events, not by the position alone', { timeout: 120000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  // The page's socket, through a hand that can hold the server's messages back.
  let holding = false;
  const held = [];
  let toPage = null;
  await context.routeWebSocket(/\/ws\/games\//, (ws) => {
    const srv = ws.connectToServer();
    toPage = (m) => ws.send(m);
    srv.onMessage((m) => { if (holding) held.push(m); else ws.send(m); });
  });
  const release = () => { holding = false; for (const m of held.splice(0)) toPage(m); };
  // The page's next read of the game, answered by the server at once and handed to the page when the test says.
  let nextRead = null;
  const A = await newPage(context);
  const { id } = await createTruth(A, server.url, { seats: ['me', 'open'] });
  await A.route((url) => url.pathname === `/api/games/${id}`, async (route) => {
    if (route.request().method() !== 'GET' || !nextRead) return route.continue();
    const answered = nextRead;
    nextRead = null;
    const response = await route.fetch();
    answered({ deliver: () => route.fulfill({ response }) });
  });
  const armRead = () => new Promise((resolve) => { nextRead = resolve; });

  // Jade joins and sets up through the API; Ivory's page begins.
  const { token: tokenB } = await apiJson(server.url, 'POST', `/api/games/${id}/join`, { body: { seat: 1, name: 'Bo' } });
  await A.waitForSelector('#setup .tr-setup[data-seat="0"]');
  await A.click('#setup button[data-act="begin"]');
  await apiJson(server.url, 'POST', `/api/games/${id}/setup`, { body: { arrangement: 'suggested' }, token: tokenB });
  await A.waitForSelector('#board .tr-wrap[data-phase="play"]');
  assert.equal(await waitTurnOrEnd(A), false);

  // 1. Ivory's first action with the socket held: with no update, the page re-reads the game 2 s after the answer.
  holding = true;
  let read = armRead();
  await clickAction(A);
  const stale = await read;                       // answered now: the action, no offer
  await apiJson(server.url, 'POST', `/api/games/${id}/offers`, { body: { what: 'stalemate' }, token: tokenB });
  release();                                      // the action's update, then the offer's
  await A.waitForSelector('#board .tr-stalemate[data-agreed="1"]');
  let n = await reads(A);
  await stale.deliver();                          // the read from before the offer arrives last
  await A.waitForFunction((n) => Number(document.body.dataset.reads || 0) > n, n);
  assert.equal(await agreed(A), '1', 'a read older than the socket does not undo Jade\'s agreement');
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`);
  assert.deepEqual(g.observation.stalemate_agreed, [1]);

  // 2. Ivory's second action with the socket held; this time the read (answered after the action) comes first.
  await A.waitForFunction(() => {
    const b = document.getElementById('board');
    return b.dataset.interactive === 'true' && b.querySelector('.tr-wrap[data-action="1"]') && b.querySelector('[data-lit="select"]');
  });
  const ply0 = (await boardState(A)).ply;
  const first = (await A.$$eval('#moves li', els => els.map(e => e.textContent))).join(' ').match(/[a-q]\d+-[a-q]\d+/)[0];
  holding = true;
  read = armRead();
  const second = await clickAction(A);
  const fresh = await read;
  n = await reads(A);
  await fresh.deliver();
  await A.waitForFunction((n) => Number(document.body.dataset.reads || 0) > n, n);
  assert.equal((await boardState(A)).ply, ply0 + 1, 'the read brought the turn\'s end');
  release();                                      // the second action's update, whose events the read brought
  // A later change (Jade withdraws) comes after it on the socket: once the page shows it, it has taken the update.
  await apiJson(server.url, 'POST', `/api/games/${id}/offers`, { body: { what: 'withdraw' }, token: tokenB });
  await A.waitForSelector('#board .tr-stalemate[data-agreed=""]');
  const listed = (await A.$$eval('#moves li', els => els.map(e => e.textContent))).join(' | ');
  const times = (mv) => listed.split(mv).length - 1;
  assert.deepEqual([times(first), times(second)], [1, 1], `each action once in the move list: ${listed}`);
  const events = (await apiJson(server.url, 'GET', `/api/games/${id}`)).events;
  assert.equal(events.filter(e => e.type === 'move').length, 2);
  assertNoErrors(A);
  await context.close();
});
