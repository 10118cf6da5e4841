// FACET coronation as the two players' pages see it (moves through the API, known to reach it): when White
// takes the last Throne both pages show "White holds every Throne: 1/3" (with what it means for each) and the
// Thrones ringed, then 2/3 after Black's reply, and White's next move wins: the banner says coronation, and
// the replay shows the count come and go.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, assertNoErrors, screenshot, apiJson } from './helpers.mjs';
import { assertBoardMatches, game, openAs as openAsIn } from './facet-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const openAs = (id, token, seat) => openAsIn(browser, server.url, id, token, seat);
const atPly = (page, ply) => page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) === p, ply);

test('FACET coronation: the count under the board, the Thrones ringed, the win', { timeout: 60000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'facet', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }] } });
  const { id } = created;
  const tokens = [created.tokens['0'], created.tokens['1']];
  const W = await openAs(id, tokens[0], 0);
  const B = await openAs(id, tokens[1], 1);
  // White takes c5, g5 and e5 (f2-c5, d2-g5, c2-d3-e4-e5); Black walks a stone back and forth.
  const moves = ['f2-c5', 'a8-a7', 'd2-g5', 'a7-a8', 'c2-d3', 'a8-a7', 'd3-e4', 'a7-a8', 'e4-e5'];
  for (let i = 0; i < moves.length; i++) {
    await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move: moves[i] }, token: tokens[i % 2] });
    if (i < moves.length - 1) assert.equal(await W.page.$('.fc-coronation'), null, `no count before the last Throne (ply ${i + 1})`);
  }
  await atPly(W.page, 9);
  await atPly(B.page, 9);
  let g = await game(server.url, id, tokens[0]);
  assert.deepEqual(g.observation.coronation, { player: 0, plies: 1 });
  await assertBoardMatches(W.page, g.observation, 'White holds the Thrones');
  for (const p of [W.page, B.page]) {
    await p.waitForSelector('.fc-coronation[data-player="0"][data-plies="1"]');
    assert.match(await p.textContent('.fc-coronation'), /White holds every Throne: 1\/3/);
    assert.deepEqual(await p.$$eval('#board [data-throne-held="0"]', els => els.map(e => e.dataset.square).sort()), ['c5', 'e5', 'g5']);
  }
  assert.match(await W.page.textContent('.fc-coronation'), /keep them through your next move/);
  assert.match(await B.page.textContent('.fc-coronation'), /take one back now/);
  await screenshot(B.page, 'facet-coronation-black');

  await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move: 'a8-a7' }, token: tokens[1] });
  await W.page.waitForSelector('.fc-coronation[data-plies="2"]');
  assert.match(await W.page.textContent('.fc-coronation'), /White holds every Throne: 2\/3/);
  await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move: 'a2-a3' }, token: tokens[0] });
  for (const p of [W.page, B.page]) {
    await p.waitForSelector('#banner:not(.hidden)');
    assert.match(await p.textContent('#banner'), /White wins/);
    assert.match(await p.textContent('#banner'), /White held every Throne for a full round \(coronation\)/);
  }
  assert.match(await W.page.textContent('#banner'), /you won/);
  assert.match(await B.page.textContent('#banner'), /you lost/);
  g = await game(server.url, id, tokens[0]);
  assert.deepEqual(g.observation.result, { winners: [0], reason: 'coronation' });

  // The replay redraws the count: none before ply 9, 1/3 at ply 9, 2/3 at ply 10.
  await W.page.waitForSelector('#replay-panel:not(.hidden)');
  await W.page.click('#rp-first');
  for (let i = 1; i <= 10; i++) {
    await W.page.click('#rp-next');
    await W.page.waitForFunction((i) => document.getElementById('replay-panel').dataset.index === String(i), i);
    const shown = await W.page.$('.fc-coronation');
    if (i < 9) assert.equal(shown, null, `replay step ${i}: no count`);
    else assert.equal(await W.page.getAttribute('.fc-coronation', 'data-plies'), String(i - 8), `replay step ${i}`);
  }
  await screenshot(W.page, 'facet-coronation-over');
  assertNoErrors(W.page);
  assertNoErrors(B.page);
  await W.context.close();
  await B.context.close();
});
