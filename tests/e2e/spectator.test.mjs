// (e) A spectator: finds the game in the lobby's recent games, watches it live without a token, can do
// nothing but watch, and sees exactly what the server shows a spectator.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, boardPieces } from './helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('a spectator watches a game live and cannot act in it', { timeout: 120000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'tigadi', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }] },
  });
  const tokens = created.tokens;
  const context = await browser.newContext({ viewport: { width: 1100, height: 850 } });
  const page = await newPage(context);

  // The lobby lists the game under recent games with a Watch link.
  await page.goto(server.url + '/');
  const watch = page.locator(`#recent a[aria-label="Watch game ${created.id}"]`);
  await watch.waitFor();
  assert.equal(await watch.textContent(), 'Watch');
  await Promise.all([page.waitForURL(/\/game\.html\?id=/), watch.click()]);
  await page.waitForSelector('#board [data-point="d1"]');

  const moves = ['d1', 'a4', 'g1', 'g7', 'a1xa4'];
  for (let i = 0; i < moves.length; i++) {
    const ply = Number(await page.getAttribute('#board', 'data-ply'));
    await apiJson(server.url, 'POST', `/api/games/${created.id}/moves`, { body: { move: moves[i] }, token: tokens[String(i % 2)] });
    // The move arrives over the WebSocket; the board shows the spectator's observation.
    await page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) > p, ply);
    const view = await apiJson(server.url, 'GET', `/api/games/${created.id}`);
    assert.equal(view.you, null);
    assert.deepEqual(view.legal, [], 'a spectator is offered no moves');
    assert.deepEqual(await boardPieces(page), view.observation.board, `board after ${moves[i]}`);
    // Nothing to click and nothing to resign.
    assert.equal(await page.getAttribute('#board', 'data-interactive'), 'false');
    assert.equal((await page.$$('#board [data-lit]')).length, 0, 'no point is lit for a spectator');
    assert.equal(await page.isVisible('#resign'), false, 'a spectator cannot resign');
  }
  assert.match(await page.textContent('#moves'), /a1xa4/);
  await screenshot(page, 'e-spectator');

  // A forged token in the page's storage gives it no seat: the server refuses it and the page still only watches.
  const res = await fetch(`${server.url}/api/games/${created.id}/moves`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer 0123456789abcdef0123456789abcdef' },
    body: JSON.stringify({ move: 'd2' }),
  });
  assert.equal(res.status, 401);
  assertNoErrors(page);
  await context.close();
});
