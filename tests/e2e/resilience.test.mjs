// (e) A hot-seat game (this browser holds both seats) and (f) the WebSocket reconnecting after the
// server restarts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, boardPieces, waitTurnOrEnd, playRandomMove, waitBoardPly } from './helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('hot seat: one browser plays both sides', { timeout: 120000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 850 } });
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.waitForSelector('#kind option[value="tigadi"]', { state: 'attached' });
  await page.fill('#name', 'Ana');
  await page.selectOption('#seat-1', 'me');
  await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#create')]);
  const id = new URL(page.url()).searchParams.get('id');
  for (let i = 0; i < 6; i++) {
    if (await waitTurnOrEnd(page)) break;
    const side = i % 2 === 0 ? 'Bone' : 'Seed';
    assert.match(await page.textContent('#status'), new RegExp(`${side} to move`));
    const ply = Number(await page.getAttribute('#board', 'data-ply'));
    await playRandomMove(page);
    await waitBoardPly(page, ply + 1);
  }
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`);
  assert.equal(g.observation.ply, 6);
  assert.deepEqual(await boardPieces(page), g.observation.board);
  assert.equal(await page.$$eval('#seats .you', els => els.length), 2);
  assertNoErrors(page);
  await context.close();
});

test('the page reconnects when the server restarts, and play goes on', { timeout: 120000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 850 } });
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.waitForSelector('#kind option[value="tigadi"]', { state: 'attached' });
  await page.selectOption('#seat-1', 'ai:1');
  await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#create')]);
  const id = new URL(page.url()).searchParams.get('id');
  await waitTurnOrEnd(page);
  let ply = Number(await page.getAttribute('#board', 'data-ply'));
  await playRandomMove(page);
  await waitBoardPly(page, ply + 2);

  await server.stop({ keep: true });
  await page.waitForSelector('#conn.down');
  await screenshot(page, 'f-reconnecting');
  server = await startServer({ port: server.port, dir: server.dir });
  await page.waitForSelector('#conn:not(.down)', { timeout: 30000 });
  await waitTurnOrEnd(page);
  ply = Number(await page.getAttribute('#board', 'data-ply'));
  await playRandomMove(page);
  await waitBoardPly(page, ply + 2, { timeout: 20000 });
  await waitTurnOrEnd(page);
  const token = await page.evaluate((id) => JSON.parse(localStorage.getItem(`tabula:game:${id}`)).tokens['0'], id);
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  assert.deepEqual(await boardPieces(page), g.observation.board, 'after reconnecting the board follows the server');
  // While the server was down the browser reported failed connections; nothing else may appear.
  page.errors = page.errors.filter(e => !/ERR_CONNECTION_REFUSED|WebSocket connection to .* failed/.test(e));
  assertNoErrors(page);
  await context.close();
});
