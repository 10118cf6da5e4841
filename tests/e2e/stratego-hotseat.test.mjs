// Stratego hot seat: both seats human in one browser. Each side sets up behind its own hand-over screen;
// between turns the board is hidden behind "Pass the device to …", and while that screen is up the page
// shows no piece identity at all. Each side sees its own army face up at the bottom, the other face down.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, rectOf } from './helpers.mjs';
import { createStratego, pieces, svgText, clickMove, NAMES } from './stratego-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const SIDES = ['Red', 'Blue'];

// The hand-over screen for `side` is up, and nothing on the page gives away a piece's identity.
async function expectScreen(page, side, shot) {
  await page.waitForSelector('#handover:not(.hidden)');
  await page.waitForFunction((side) => document.getElementById('handover-title').textContent.includes(side), side);
  assert.equal(await page.textContent('#handover-title'), `Pass the device to ${side}`);
  assert.equal(await page.textContent('#handover-show'), `I am ${side}, show my board`);
  assert.ok(await page.isHidden('#board'), 'the board is hidden');
  assert.ok(await page.isHidden('#setup'), 'the setup editor is hidden');
  const text = await svgText(page);
  for (const n of NAMES) assert.ok(!text.includes(n), `no "${n}" is drawn behind the hand-over screen (svg text: ${text.slice(0, 200)})`);
  assert.equal(await page.$$eval('[data-piece]', els => els.length), 0, 'no piece is in the page');
  if (shot) await screenshot(page, shot);
}

async function show(page, side) {
  await page.click('#handover-show');
  await page.waitForSelector('#handover', { state: 'hidden' });
  void side;
}

// The shown board belongs to `seat`: own pieces face up, the enemy's face down, own army at the bottom.
async function expectOwnView(page, seat, id, tokens) {
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token: tokens[String(seat)] });
  const shown = await pieces(page);
  assert.deepEqual(shown, g.observation.board, `${SIDES[seat]} sees exactly their own observation`);
  for (const [sq, p] of Object.entries(shown)) {
    if (p[0] === String(seat)) assert.ok(!p.endsWith('?'), `own piece on ${sq} is face up`);
    else assert.equal(p, `${1 - seat}?`, `enemy piece on ${sq} is face down`);
  }
  // Enemy cells carry no text (no rank, no name).
  const enemyText = await page.$$eval(`#board [data-piece^="${1 - seat}"]`, els => els.map(e => e.textContent).join(''));
  assert.equal(enemyText, '', 'enemy pieces show no identity');
  // Orientation: the own home rank is at the bottom.
  const y1 = (await rectOf(page, '#board [data-square="e1"] .hit')).y;
  const y10 = (await rectOf(page, '#board [data-square="e10"] .hit')).y;
  if (seat === 0) assert.ok(y1 > y10, 'Red: rank 1 at the bottom'); else assert.ok(y10 > y1, 'Blue: rank 10 at the bottom');
  return g;
}

test('Stratego hot seat: hand-over screens hide every identity between turns', { timeout: 200000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 950 } });
  const page = await newPage(context);
  const { id, tokens } = await createStratego(page, server.url, { seats: ['me', 'me'] });
  assert.ok(tokens['0'] && tokens['1'], 'this browser holds both seats');

  // Red sets up behind its own screen.
  await expectScreen(page, 'Red', 'st-h-handover-setup');
  await show(page, 'Red');
  await page.waitForSelector('#setup .st-setup[data-seat="0"]');
  await page.click('#setup button[data-act="random"]');
  const red = await pieces(page, '#setup');
  assert.equal(Object.keys(red).length, 40);
  await page.click('#setup button[data-act="ready"]');

  // Then Blue, behind another screen; its editor shows Blue's ranks 7-10 at the bottom.
  await expectScreen(page, 'Blue');
  await show(page, 'Blue');
  await page.waitForSelector('#setup .st-setup[data-seat="1"]');
  const blue = await pieces(page, '#setup');
  assert.ok(Object.keys(blue).every(sq => Number(sq.slice(1)) >= 7), 'Blue places on ranks 7-10');
  assert.ok(Object.values(blue).every(p => p[0] === '1'), 'Blue sees only its own pieces');
  const y7 = (await rectOf(page, '#setup [data-square="a7"] .hit')).y;
  const y10 = (await rectOf(page, '#setup [data-square="a10"] .hit')).y;
  assert.ok(y10 > y7, 'Blue\'s back rank is at the bottom of its editor');
  await screenshot(page, 'st-h-blue-setup');
  await page.click('#setup button[data-act="ready"]');

  // Play: six plies, a screen before each.
  for (let ply = 0; ply < 6; ply++) {
    const seat = ply % 2;
    await expectScreen(page, SIDES[seat], ply === 1 ? 'st-h-handover-play' : null);
    await show(page, SIDES[seat]);
    await page.waitForSelector('#board[data-interactive="true"] [data-lit="select"]');
    assert.match(await page.textContent('#status'), new RegExp(`${SIDES[seat]} to move`));
    const g = await expectOwnView(page, seat, id, tokens);
    if (ply === 1) await screenshot(page, 'st-h-blue-view');
    const move = await clickMove(page);
    assert.ok(g.legal.includes(move), `${move} is legal for ${SIDES[seat]}`);
  }
  await expectScreen(page, 'Red');
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`);
  assert.equal(g.observation.ply, 6);
  assert.equal(await page.$$eval('#seats .you', els => els.length), 2);
  // The move list (public) shows all six moves while the screen is up.
  assert.equal(await page.$$eval('#moves li', els => els.length), 6);
  assertNoErrors(page);
  await context.close();
});

test('Stratego: a setup may be changed until the other army is in; then play begins live', { timeout: 120000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 950 } });
  const page = await newPage(context);
  const { id, tokens } = await createStratego(page, server.url, { seats: ['me', 'open'] });
  // No hand-over screen: this browser holds one seat.
  await page.waitForSelector('#setup .st-setup[data-seat="0"]');
  assert.ok(await page.isHidden('#handover'));
  await page.click('#setup button[data-act="ready"]');
  await page.waitForSelector('#setup .st-setup-waiting:not(.hidden)');
  assert.match(await page.textContent('#setup .st-setup-waiting'), /Waiting for the other army/);
  let g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token: tokens['0'] });
  assert.deepEqual(g.observation.ready, [0]);
  const first = g.observation.board;
  await screenshot(page, 'st-w-waiting');
  // Change it: swap two pieces that differ, Ready again; the server holds the new one.
  await page.click('#setup button[data-act="change"]');
  const mine = await pieces(page, '#setup');
  const a = 'a1';
  const b = Object.keys(mine).find(sq => mine[sq] !== mine[a]);
  await page.click(`#setup [data-square="${a}"]`);
  await page.click(`#setup [data-square="${b}"]`);
  await page.click('#setup button[data-act="ready"]');
  await page.waitForSelector('#setup .st-setup-waiting:not(.hidden)');
  g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token: tokens['0'] });
  assert.equal(g.observation.board[a], first[b]);
  assert.equal(g.observation.board[b], first[a]);
  // A friend joins as Blue and sets up through the API: the page turns to the board by itself.
  const { token } = await apiJson(server.url, 'POST', `/api/games/${id}/join`, { body: { seat: 1, name: 'Bo' } });
  await apiJson(server.url, 'POST', `/api/games/${id}/setup`, { body: { arrangement: 'random' }, token });
  await page.waitForSelector('#board[data-interactive="true"] [data-lit="select"]');
  assert.ok(await page.isHidden('#setup'));
  const shown = await pieces(page);
  assert.equal(shown[a], first[b]);
  assert.ok(Object.entries(shown).filter(([, p]) => p[0] === '1').every(([, p]) => p === '1?'), 'Blue is face down');
  assertNoErrors(page);
  await context.close();
});
