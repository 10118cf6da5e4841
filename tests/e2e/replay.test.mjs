// (c) A finished game (ended by resigning from the UI) replays step by step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, boardPieces, countPieces } from './helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

async function waitForTurn(id, token, ply) {
  for (let i = 0; i < 300; i++) {
    const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
    if (g.observation.ply >= ply && (g.legal.length || g.status === 'over')) return g;
    await new Promise(r => setTimeout(r, 50));
  }
  throw new Error('the AI did not answer');
}

test('resign, then replay the finished game step by step', { timeout: 180000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'tigadi', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }] } });
  const { id } = created;
  const token = created.tokens['0'];
  // Eight moves of ours through the API, the AI answering each.
  let g = await waitForTurn(id, token, 0);
  for (let i = 0; i < 8 && g.status !== 'over'; i++) {
    const move = g.legal[Math.floor(Math.random() * g.legal.length)];
    await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move }, token });
    g = await waitForTurn(id, token, g.observation.ply + 2);
  }

  const context = await browser.newContext({ viewport: { width: 1100, height: 850 } });
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.evaluate(([id, token]) => localStorage.setItem(`tabula:game:${id}`, JSON.stringify({ tokens: { 0: token } })), [id, token]);
  // The lobby lists it under "My games".
  await page.reload();
  await page.waitForSelector(`#mine li[data-id="${id}"]`);
  await page.goto(`${server.url}/game.html?id=${id}`);
  await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');

  await page.click('#resign');
  await page.click('#resign-yes');
  await page.waitForSelector('#banner:not(.hidden)');
  assert.match(await page.textContent('#banner'), /Seed wins/);
  assert.match(await page.textContent('#banner'), /Bone resigned/);
  await page.waitForSelector('#replay-panel:not(.hidden)');

  const record = await apiJson(server.url, 'GET', `/api/games/${id}/record`);
  const final = (await apiJson(server.url, 'GET', `/api/games/${id}`)).observation;
  const n = await page.$$eval('#moves li', els => els.length);
  assert.ok(n >= record.moves.length, `${n} plies listed, ${record.moves.length} recorded moves`);
  // At the end: the final position.
  assert.deepEqual(await boardPieces(page), final.board);

  await page.click('#rp-first');
  assert.deepEqual(await boardPieces(page), {}, 'the start position is empty');
  assert.equal(await page.isDisabled('#rp-prev'), true);
  let prevTotal = 0;
  for (let i = 1; i <= Math.min(n, 6); i++) {
    await page.click('#rp-next');
    assert.equal(await page.getAttribute('#replay-panel', 'data-index'), String(i));
    const total = Object.keys(await boardPieces(page)).length;
    // While placing, each ply adds a goti, and a capture removes one.
    assert.ok(total === prevTotal + 1 || total === prevTotal, `ply ${i}: ${prevTotal} -> ${total} gotis`);
    assert.equal(await page.$$eval('#moves .ply.current', els => els.length), 1, 'the current move is marked');
    prevTotal = total;
  }
  // Step back one, and jump to a move by clicking it in the list.
  await page.click('#rp-prev');
  assert.equal(await page.getAttribute('#replay-panel', 'data-index'), String(Math.min(n, 6) - 1));
  await page.click('#moves li[data-ply="2"] .ply');
  assert.equal(await page.getAttribute('#replay-panel', 'data-index'), '3');
  assert.equal(Object.keys(await boardPieces(page)).length, 3);
  await screenshot(page, 'c-replay-step3');
  await page.click('#rp-last');
  assert.deepEqual(await boardPieces(page), final.board, 'the last step is the final position');
  assert.deepEqual(countPieces(await boardPieces(page)), countPieces(final.board));
  assert.equal(await page.isDisabled('#rp-next'), true);
  // The board is not clickable in a finished game.
  assert.equal(await page.$$eval('#board [data-lit]', els => els.length), 0);
  await screenshot(page, 'c-replay-end');
  assertNoErrors(page);
  await context.close();
});
