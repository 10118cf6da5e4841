// FACET draw offers between two people, each in their own browser, and a spectator: an offer shows on the
// other side with Accept / Decline, Decline clears it on both pages, a move by the other player declines a
// standing offer, the offering player's own move does not, and Accept ends the game drawn by agreement.
// Black's page has Black's stones at the bottom; the spectator's has White's. (The offers are the shell's, as in
// every two-player game with draw offers: "Offer a draw" beside Resign, the offer's bar `#offers` above the board.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, assertNoErrors, screenshot, apiJson } from './helpers.mjs';
import { waitTurnOrEnd, waitPly, clickMove, game, waitGame, centre, openAs as openAsIn } from './facet-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const openAs = (id, token, seat) => openAsIn(browser, server.url, id, token, seat);
const offerText = (page) => page.textContent('#offers');
const offerButtons = (page) => page.$$eval('#offers button, #offer-draw:not(.hidden)', els => els.length);
const playOne = async (page, id, token) => {
  await waitTurnOrEnd(page);
  const g = await game(server.url, id, token);
  const move = g.legal[Math.floor(Math.random() * g.legal.length)];
  await clickMove(page, g.legal, move);
  await waitPly(page, g.observation.ply + 1);
  return move;
};

test('FACET draw offers: offer, decline, declined by a move, accept', { timeout: 60000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'facet', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }] } });
  const { id } = created;
  const [tw, tb] = [created.tokens['0'], created.tokens['1']];
  const W = await openAs(id, tw, 0);
  const B = await openAs(id, tb, 1);
  const S = await openAs(id, null, null);

  // Orientation: Black's own stones at the bottom of Black's page; White's at the bottom for the spectator.
  assert.ok((await centre(B.page, 'e9')).y > (await centre(B.page, 'e1')).y, 'Black sees rank 9 at the bottom');
  assert.ok((await centre(B.page, 'i5')).x < (await centre(B.page, 'a5')).x, 'and file i on the left');
  assert.ok((await centre(S.page, 'e1')).y > (await centre(S.page, 'e9')).y, 'the spectator sees White at the bottom');
  assert.equal(await offerButtons(S.page), 0, 'a spectator has no offer buttons');

  // White offers; Black sees it with both buttons, the spectator sees it without.
  await W.page.click('#offer-draw');
  await W.page.waitForFunction(() => /You offered a draw/.test(document.getElementById('offers').textContent));
  await B.page.waitForSelector('#offers button[data-offer="accept"]');
  assert.match(await offerText(B.page), /White offers a draw/);
  assert.ok(await B.page.$('#offers button[data-offer="decline"]'));
  await S.page.waitForFunction(() => /White offers a draw/.test(document.getElementById('offers').textContent));
  assert.equal(await offerButtons(S.page), 0);
  assert.equal((await game(server.url, id, tw)).observation.draw_offer, 0);
  await screenshot(B.page, 'facet-offer-black-sees');

  // Black declines.
  await B.page.click('#offers button[data-offer="decline"]');
  await W.page.waitForFunction(() => /Black declined the draw/.test(document.getElementById('offers').textContent));
  await B.page.waitForSelector('#offer-draw:not(.hidden)');
  let g = await game(server.url, id, tw);
  assert.equal(g.observation.draw_offer, null);
  assert.deepEqual(g.events.filter(e => e.type === 'offer'), [{ type: 'offer', player: 0, what: 'draw' }, { type: 'offer', player: 1, what: 'decline' }]);

  // Black offers while White is to move; White's move declines it.
  await B.page.click('#offer-draw:not(.hidden)');
  await W.page.waitForSelector('#offers button[data-offer="accept"]');
  await playOne(W.page, id, tw);
  await B.page.waitForFunction(() => /White declined the draw/.test(document.getElementById('offers').textContent));
  g = await waitGame(server.url, id, tb, x => x.observation.ply === 1);
  assert.equal(g.observation.draw_offer, null);
  assert.deepEqual(g.events.slice(-2).map(e => [e.type, e.player, e.what]), [['move', 0, undefined], ['offer', 0, 'decline']]);
  assert.match(await B.page.$$eval('#moves li', els => els[0].textContent), /White declines the draw/);

  // Black offers and then moves: the offer stands; White accepts it.
  await B.page.click('#offer-draw:not(.hidden)');
  await W.page.waitForSelector('#offers button[data-offer="accept"]');
  await playOne(B.page, id, tb);
  await W.page.waitForFunction(() => Number(document.getElementById('board').dataset.ply) === 2);
  assert.equal((await game(server.url, id, tw)).observation.draw_offer, 1, 'the offering player’s own move leaves the offer standing');
  assert.match(await offerText(W.page), /Black offers a draw/);
  await W.page.click('#offers button[data-offer="accept"]');
  for (const p of [W.page, B.page, S.page]) {
    await p.waitForSelector('#banner:not(.hidden)');
    assert.match(await p.textContent('#banner'), /Draw/);
    assert.match(await p.textContent('#banner'), /Drawn by agreement/);
    assert.equal(await offerButtons(p), 0, 'no offer buttons once it is over');
  }
  g = await game(server.url, id, tw);
  assert.deepEqual(g.observation.result, { winners: [], reason: 'agreement' });
  await screenshot(W.page, 'facet-offer-agreed');
  for (const p of [W.page, B.page, S.page]) assertNoErrors(p);
  for (const c of [W, B, S]) await c.context.close();
});
