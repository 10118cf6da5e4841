// Around the board between people, each in their own browser: draw offers in Tigadi and Stratego (declined,
// accepted), a take-back asked for and allowed (and one declined) in Tigadi, the rematch (both ask, both pages go
// to the new game with the sides swapped, and play it), and "New game with the same settings".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, boardPieces, pieces, gameAs, waitForGame } from './helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const game = (id, token) => gameAs(server.url, id, token);
const waitGame = (id, token, ok) => waitForGame(server.url, id, token, ok);

async function openAs(id, tokens, size = { width: 1200, height: 1000 }) {
  const context = await browser.newContext({ viewport: size });
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.evaluate(([id, tokens]) => localStorage.setItem(`tabula:game:${id}`, JSON.stringify({ tokens })), [id, tokens]);
  await page.goto(`${server.url}/game.html?id=${id}`);
  return { context, page };
}

const plyIs = (page, ply) => page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) === p, ply, { timeout: 20000 });
const myTurn = (page) => page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true', null, { timeout: 20000 });

// One Tigadi placement by clicking a random lit point (the first 18 plies are placements).
async function placeOne(page) {
  await myTurn(page);
  const ply = Number(await page.getAttribute('#board', 'data-ply'));
  const lit = await page.$$eval('#board [data-lit="place"]', els => els.map(e => e.dataset.point));
  await page.click(`#board [data-point="${lit[Math.floor(Math.random() * lit.length)]}"]`);
  // A closed line asks for a capture.
  await page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) > p || document.querySelector('#board [data-lit="capture"]'), ply);
  const caps = await page.$$eval('#board [data-lit="capture"]', els => els.map(e => e.dataset.point));
  if (caps.length) await page.click(`#board [data-point="${caps[0]}"]`);
  await plyIs(page, ply + 1);
}

test('Tigadi between people: draw offers, take-back requests, a rematch with the sides swapped', { timeout: 180000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'tigadi', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }] } });
  const { id } = created;
  const [t0, t1] = [created.tokens['0'], created.tokens['1']];
  const A = await openAs(id, { 0: t0 });
  const B = await openAs(id, { 1: t1 });

  // Ana offers a draw; Bo sees it with Allow/Decline and declines; Ana's page says so.
  await myTurn(A.page);
  await A.page.click('#offer-draw');
  await A.page.waitForFunction(() => /You offered a draw; waiting for Seed/.test(document.getElementById('offers').textContent));
  await B.page.waitForSelector('#offers button[data-offer="accept"]');
  assert.match(await B.page.textContent('#offers'), /Bone offers a draw/);
  await B.page.click('#offers button[data-offer="decline"]');
  await A.page.waitForFunction(() => /Seed declined the draw/.test(document.getElementById('offers').textContent));
  assert.equal((await game(id, t0)).observation.draw_offer, null);

  // Two moves each; then Ana asks to take back her last move.
  for (let i = 0; i < 2; i++) { await placeOne(A.page); await placeOne(B.page); }
  await placeOne(A.page);
  await B.page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
  const before = await game(id, t0);
  assert.equal(await A.page.textContent('#takeback'), 'Ask to take back');
  await A.page.click('#takeback');
  await A.page.waitForFunction(() => /You asked to take back your last move; waiting for Seed/.test(document.getElementById('takeback-bar').textContent));
  await B.page.waitForSelector('#takeback-bar button[data-takeback="accept"]');
  assert.match(await B.page.textContent('#takeback-bar'), /Bone asks to take back their last move/);
  assert.equal(await A.page.isVisible('#takeback'), false, 'one request at a time');
  await screenshot(B.page, 'assist-people-takeback-asked');
  await B.page.click('#takeback-bar button[data-takeback="accept"]');
  for (const p of [A.page, B.page]) {
    await plyIs(p, before.observation.ply - 1);
    await p.waitForFunction(() => document.getElementById('takebacks-note').textContent === 'Played with 1 take-back.');
  }
  let g = await waitGame(id, t0, x => x.takebacks === 1);
  assert.equal(g.observation.to_move, 0, 'Ana is to move again');
  assert.deepEqual(await boardPieces(A.page), g.observation.board);
  assert.deepEqual(await boardPieces(B.page), g.observation.board);
  // The list: the offer and its refusal before the first move (one entry), then one entry a move.
  assert.deepEqual(await A.page.$$eval('#moves li .ply', els => els.map(e => e.textContent)).then(t => t.slice(0, 1)), ['offers a draw' + 'Seed declines the draw']);
  assert.equal(await A.page.$$eval('#moves li', els => els.length), g.observation.ply + 1);
  assert.match(await A.page.textContent('#takeback-bar'), /You took back the last move/);
  assert.match(await B.page.textContent('#takeback-bar'), /Bone took back the last move/);

  // Ana moves again and asks again; this time Bo declines.
  await placeOne(A.page);
  await A.page.click('#takeback');
  await B.page.waitForSelector('#takeback-bar button[data-takeback="decline"]');
  await B.page.click('#takeback-bar button[data-takeback="decline"]');
  await A.page.waitForFunction(() => /The take-back was declined/.test(document.getElementById('takeback-bar').textContent));
  await B.page.waitForFunction(() => document.getElementById('takeback-bar').classList.contains('hidden'));
  assert.equal((await game(id, t0)).takebacks, 1);

  // Bo offers a draw, Ana accepts: both pages show the end.
  await B.page.click('#offer-draw');
  await A.page.waitForSelector('#offers button[data-offer="accept"]');
  await A.page.click('#offers button[data-offer="accept"]');
  for (const p of [A.page, B.page]) {
    await p.waitForSelector('#banner:not(.hidden)');
    assert.match(await p.textContent('#banner'), /Drawn by agreement/);
    assert.equal(await p.$$eval('#offers button, #offer-draw:not(.hidden), #takeback:not(.hidden)', els => els.length), 0);
  }

  // The rematch: Ana asks, Bo sees it and asks too; both pages go to the new game, sides swapped.
  await A.page.waitForSelector('#rematch:not(.hidden)');
  await A.page.click('#rematch');
  await A.page.waitForFunction(() => /You asked for a rematch with the sides swapped; waiting for Seed/.test(document.getElementById('rematch-text').textContent));
  await B.page.waitForFunction(() => /Bone asks for a rematch/.test(document.getElementById('rematch-text').textContent));
  await screenshot(B.page, 'assist-people-rematch-asked');
  await Promise.all([
    A.page.waitForURL(u => new URL(u).searchParams.get('id') !== id, { timeout: 20000 }),
    B.page.waitForURL(u => new URL(u).searchParams.get('id') !== id, { timeout: 20000 }),
    B.page.click('#rematch'),
  ]);
  const next = new URL(A.page.url()).searchParams.get('id');
  assert.equal(new URL(B.page.url()).searchParams.get('id'), next, 'both pages are in the same new game');
  assert.equal((await game(id, t0)).rematch.id, next);
  // The same tokens, the seats turned: Ana plays Seed now, Bo Bone (who moves first).
  const n0 = await game(next, t0);
  const n1 = await game(next, t1);
  assert.equal(n0.you, 1);
  assert.equal(n1.you, 0);
  assert.deepEqual(n0.seats.map(s => s.name), ['Bo', 'Ana']);
  for (const [p, seat] of [[A.page, 1], [B.page, 0]]) {
    await p.waitForSelector(`#seats li[data-seat="${seat}"] .you`);
    assert.deepEqual(await p.evaluate((next) => Object.keys(JSON.parse(localStorage.getItem(`tabula:game:${next}`)).tokens), next), [String(seat)]);
  }
  // And they play it.
  await placeOne(B.page);
  await placeOne(A.page);
  await plyIs(B.page, 2);
  const ng = await game(next, t0);
  assert.deepEqual(await boardPieces(A.page), ng.observation.board);
  assert.deepEqual(await boardPieces(B.page), ng.observation.board);
  await screenshot(A.page, 'assist-people-rematch-playing');
  for (const p of [A.page, B.page]) assertNoErrors(p);
  await A.context.close();
  await B.context.close();
});

test('Stratego between people: a draw offer accepted', { timeout: 90000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'stratego', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }] } });
  const { id } = created;
  const [t0, t1] = [created.tokens['0'], created.tokens['1']];
  await apiJson(server.url, 'POST', `/api/games/${id}/setup`, { body: { arrangement: 'random' }, token: t0 });
  await apiJson(server.url, 'POST', `/api/games/${id}/setup`, { body: { arrangement: 'random' }, token: t1 });
  const A = await openAs(id, { 0: t0 });
  const B = await openAs(id, { 1: t1 }, { width: 390, height: 844 });
  await A.page.waitForSelector('#board [data-lit="select"]');
  assert.equal(await A.page.isVisible('#takeback'), false, 'no take-back between people while the armies are hidden');
  await B.page.waitForSelector('#offer-draw:not(.hidden)');
  await B.page.click('#offer-draw');
  await A.page.waitForSelector('#offers button[data-offer="accept"]');
  assert.match(await A.page.textContent('#offers'), /Blue offers a draw/);
  await screenshot(A.page, 'assist-people-stratego-offer');
  await A.page.click('#offers button[data-offer="accept"]');
  for (const p of [A.page, B.page]) {
    await p.waitForSelector('#banner:not(.hidden)');
    assert.match(await p.textContent('#banner'), /Drawn by agreement/);
  }
  const g = await game(id, t0);
  assert.deepEqual(g.observation.result, { winners: [], reason: 'agreement' });
  // Over, every piece is face up on both pages.
  assert.deepEqual(await pieces(B.page), g.observation.board);
  await screenshot(B.page, 'assist-people-stratego-agreed-phone');
  for (const p of [A.page, B.page]) assertNoErrors(p);
  await A.context.close();
  await B.context.close();
});

test('New game with the same settings: the AI at the same level, a person\'s seat open', { timeout: 90000 }, async () => {
  // Against the AI: a FACET game with options, resigned; the new game has the same options and opponent.
  const vsAi = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'facet', options: { layout: 'random', seed: 77, modes: ['decay'] }, seats: [{ type: 'ai', level: 2 }, { type: 'human', name: 'Ana' }] } });
  const t = vsAi.tokens['1'];
  await waitGame(vsAi.id, t, x => x.legal.length > 0);
  await apiJson(server.url, 'POST', `/api/games/${vsAi.id}/offers`, { body: { what: 'resign' }, token: t });
  const A = await openAs(vsAi.id, { 1: t });
  await A.page.waitForSelector('#same-settings:not(.hidden)');
  await Promise.all([A.page.waitForURL(u => new URL(u).searchParams.get('id') !== vsAi.id), A.page.click('#same-settings')]);
  const id2 = new URL(A.page.url()).searchParams.get('id');
  await A.page.waitForSelector('#board [data-square="e5"]');
  const tokens2 = await A.page.evaluate((id) => JSON.parse(localStorage.getItem(`tabula:game:${id}`)).tokens, id2);
  assert.deepEqual(Object.keys(tokens2), ['1']);
  const g2 = await game(id2, tokens2['1']);
  assert.equal(g2.game, 'facet');
  assert.deepEqual({ layout: g2.options.layout, seed: g2.options.seed, modes: g2.options.modes }, { layout: 'random', seed: 77, modes: ['decay'] });
  assert.deepEqual(g2.seats.map(s => [s.type, s.level]), [['ai', 2], ['human', null]]);
  assert.equal(g2.seats[1].name, 'Ana');

  // Between people: the other person's seat is open, and the page shows its invite link.
  const people = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'tigadi', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }] } });
  await apiJson(server.url, 'POST', `/api/games/${people.id}/offers`, { body: { what: 'resign' }, token: people.tokens['1'] });
  await A.page.goto(server.url + '/');
  await A.page.evaluate(([id, tokens]) => localStorage.setItem(`tabula:game:${id}`, JSON.stringify({ tokens })), [people.id, { 0: people.tokens['0'] }]);
  await A.page.goto(`${server.url}/game.html?id=${people.id}`);
  await A.page.waitForSelector('#same-settings:not(.hidden)');
  await Promise.all([A.page.waitForURL(u => new URL(u).searchParams.get('id') !== people.id), A.page.click('#same-settings')]);
  const id3 = new URL(A.page.url()).searchParams.get('id');
  await A.page.waitForSelector('#invite-panel:not(.hidden) .invite[data-seat="1"]');
  const g3 = await game(id3);
  assert.deepEqual(g3.seats.map(s => s.type), ['human', 'open']);
  assertNoErrors(A.page);
  await A.context.close();
});
