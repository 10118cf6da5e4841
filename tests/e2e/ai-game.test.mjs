// (a) A game against the AI (level 2), played through the UI by clicking lit points.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, boardPieces, handCounts, countPieces,
  waitTurnOrEnd, playRandomMove, waitBoardPly, rulesLinkOf } from './helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('play Tigadi against the AI by clicking, board matches the server after every move', { timeout: 240000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.waitForSelector('#kind option[value="tigadi"]', { state: 'attached' });
  await page.fill('#name', 'Ana');
  await page.selectOption('#seat-0', 'me');
  await page.selectOption('#seat-1', 'ai:2');
  await screenshot(page, 'a-lobby');
  await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#create')]);
  const id = new URL(page.url()).searchParams.get('id');
  const token = await page.evaluate((id) => JSON.parse(localStorage.getItem(`tabula:game:${id}`)).tokens['0'], id);
  assert.ok(token, 'the token is stored in localStorage');

  // The rules are linked from the game page.
  assert.equal(await rulesLinkOf(page), '/rules/tigadi.html');

  let moves = 0;
  let captureShot = false;
  for (; moves < 40; moves++) {
    const over = await waitTurnOrEnd(page, 30000);
    const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
    // The board shows exactly the server's position: same pieces on the same points, same hands.
    const shown = await boardPieces(page);
    assert.deepEqual(countPieces(shown), countPieces(g.observation.board), `piece counts after ${moves} moves`);
    assert.deepEqual(shown, g.observation.board, `board after ${moves} moves`);
    assert.deepEqual(await handCounts(page), g.observation.in_hand, 'gotis in hand');
    if (over) break;
    // What is lit comes from the legal list: every lit point belongs to some legal move.
    const lit = await page.$$eval('#board [data-lit]', els => els.map(e => e.dataset.point));
    for (const p of lit) assert.ok(g.legal.some(m => m.split(/[-x]/).includes(p)), `${p} is lit but in no legal move`);
    assert.equal(await page.isVisible('#pass'), g.legal.includes('pass'), 'Pass appears exactly when pass is legal');
    const ply = Number(await page.getAttribute('#board', 'data-ply'));
    await playRandomMove(page, { onCapture: async (caps) => {
      // The capturable gotis are exactly the captures the legal list offers for this move.
      const offered = g.legal.filter(m => m.includes('x')).map(m => m.split('x')[1]);
      for (const c of caps) assert.ok(offered.includes(c), `${c} is offered for capture but no legal move takes it`);
      if (!captureShot) { captureShot = true; await screenshot(page, 'a-capture-choice'); }
    } });
    await page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) > p ||
      !document.getElementById('banner').classList.contains('hidden'), ply);
  }
  assert.ok(moves > 0, 'at least one move was played');
  // The move list shows every ply.
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  await waitBoardPly(page, g.observation.ply);
  // The list follows the socket's events, which may come after the board's ply (the page's own last move): it has
  // to come to hold every ply the server read (the wait is the check; after it an assertion could not fail).
  await page.waitForFunction((n) => document.querySelectorAll('#moves li').length >= n, g.observation.ply)
    .catch(async () => assert.fail(`move list has ${await page.$$eval('#moves li', els => els.length)} entries for ` +
      `${g.observation.ply} plies`));
  await screenshot(page, 'a-ai-game');
  assertNoErrors(page);
  await context.close();
});
