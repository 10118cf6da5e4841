// The Game of Truth's scored-stalemate agreement, between two people in two browsers: Ivory agrees and
// withdraws (both pages follow; a round then passes and the game goes on); then both agree, and the game
// ends at the end of the round — after Jade's turn, not before — with reason `scored-stalemate`, decided on
// points, on both pages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, apiJson, rectOf } from './helpers.mjs';
import { createTruth, clickTurn, waitTurnOrEnd, shot } from './truth-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const agreedOn = (page, list) => page.waitForSelector(`#board .tr-stalemate[data-agreed="${list}"]`);

test('Truth: agree to a scored stalemate, withdraw, agree again from both sides', { timeout: 240000 }, async () => {
  const ctxA = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  const ctxB = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  const A = await newPage(ctxA);
  const B = await newPage(ctxB);
  const { id, tokens } = await createTruth(A, server.url, { seats: ['me', 'open'] });
  await A.waitForSelector('#invites input[data-seat="1"]');
  const link = await A.inputValue('#invites input[data-seat="1"]');
  await B.goto(link);
  await B.fill('#join-name', 'Bo');
  await B.click('#join-button');
  await B.waitForSelector('#setup .tr-setup[data-seat="1"]');
  const tokenB = await B.evaluate((id) => JSON.parse(localStorage.getItem(`tabula:game:${id}`)).tokens['1'], id);

  // Both armies in the suggested arrangement.
  await A.waitForSelector('#setup .tr-setup[data-seat="0"]');
  await A.click('#setup button[data-act="begin"]');
  await A.waitForSelector('#setup .tr-setup-waiting:not(.hidden)');
  await B.click('#setup button[data-act="begin"]');
  await A.waitForSelector('#board .tr-wrap[data-phase="play"]');
  await B.waitForSelector('#board .tr-wrap[data-phase="play"]');
  // Jade's page: Jade at the bottom.
  const yb = (await rectOf(B, '#board [data-square="b1"] .hit')).y;
  const ya = (await rectOf(B, '#board [data-square="a18"] .hit')).y;
  assert.ok(ya > yb, 'Jade\'s page has rank 18 at the bottom');

  // Ivory agrees; Jade's page sees it, and may agree too (it is not Jade's turn: offers are not bound to it).
  await A.click('#board button[data-offer="stalemate"]');
  await agreedOn(A, '0');
  await agreedOn(B, '0');
  assert.match(await B.textContent('#board .tr-stalemate'), /Ivory agrees to a scored stalemate/);
  assert.ok(await B.isVisible('#board button[data-offer="stalemate"]'), 'Jade may agree');
  assert.ok(await A.isVisible('#board button[data-offer="withdraw"]'), 'Ivory may withdraw');
  await shot(A, 'truth-stalemate-offered');
  // Ivory withdraws: both pages forget it.
  await A.click('#board button[data-offer="withdraw"]');
  await agreedOn(A, '');
  await agreedOn(B, '');
  let g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token: tokens['0'] });
  assert.deepEqual(g.observation.stalemate_agreed, []);
  assert.ok(g.events.some(e => e.type === 'offer' && e.what === 'withdraw' && e.player === 0), 'the withdrawal is an event');

  // A whole round: the game goes on.
  await waitTurnOrEnd(A);
  await clickTurn(A);
  assert.equal(await waitTurnOrEnd(B), false);
  await clickTurn(B);
  g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token: tokens['0'] });
  assert.equal(g.status, 'playing', 'nothing ended the game');
  assert.equal(g.observation.ply, 2);

  // Both agree; the game ends at the end of the round, after Jade's turn.
  await waitTurnOrEnd(A);
  await A.click('#board button[data-offer="stalemate"]');
  await agreedOn(B, '0');
  await B.click('#board button[data-offer="stalemate"]');
  await agreedOn(A, '0,1');
  await agreedOn(B, '0,1');
  assert.match(await A.textContent('#board .tr-stalemate'), /ends at the end of this round/);
  await shot(B, 'truth-stalemate-both');
  await clickTurn(A);
  g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token: tokens['0'] });
  assert.equal(g.status, 'playing', 'the round is not over after Ivory\'s turn');
  assert.equal(await waitTurnOrEnd(B), false);
  await clickTurn(B);
  for (const page of [A, B]) {
    await page.waitForSelector('#banner:not(.hidden) .reason[data-reason="scored-stalemate"]');
    assert.match(await page.textContent('#banner .reason'), /Scored stalemate by agreement, decided on points/);
    assert.equal(await page.isVisible('#board button[data-offer]'), false, 'no agreement buttons once over');
  }
  g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token: tokenB });
  assert.equal(g.result.reason, 'scored-stalemate');
  const [s0, s1] = g.observation.scores;
  const want = s0 === s1 ? [] : s0 > s1 ? [0] : [1];
  assert.deepEqual(g.result.winners, want, `the higher score wins (${s0}:${s1})`);
  assert.match(await A.textContent('#banner strong'), want.length ? /wins/ : /Draw/);
  await shot(A, 'truth-stalemate-over');
  assertNoErrors(A);
  assertNoErrors(B);
  await ctxA.close();
  await ctxB.close();
});
