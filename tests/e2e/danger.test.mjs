// Danger marks over the board (the server's `danger`, drawn by the shell's overlay for every game): Tigadi's open
// lines as the server reports them (off by default, "Show open lines" remembered, red for a line against the
// viewer and amber for its own chance, gone while browsing); FACET's attacked Monarch and The Game of Truth's
// icons from marks injected into the server's answers (page.route and routeWebSocket), ringed on their squares,
// following Flip board, light and dark, desktop and phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, phoneContext, noSideScroll, centreOf, rewriteGameMessages } from './helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const game = (id, token) => apiJson(server.url, 'GET', `/api/games/${id}`, { token });
async function open(context, id, tokens) {
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.evaluate(([id, tokens]) => localStorage.setItem(`tabula:game:${id}`, JSON.stringify({ tokens })), [id, tokens]);
  await page.goto(`${server.url}/game.html?id=${id}`);
  return page;
}
async function near(page, a, squareSel, what) {
  const b = await centreOf(page, squareSel);
  assert.ok(Math.abs(a.x - b.x) < 3 && Math.abs(a.y - b.y) < 3, `${what}: (${a.x},${a.y}) is on (${b.x},${b.y})`);
}
const lineEnds = (page, sel) => page.evaluate((sel) => {
  const e = document.querySelector(sel);
  const r = e.ownerSVGElement.getBoundingClientRect();
  return [{ x: r.x + Number(e.getAttribute('x1')), y: r.y + Number(e.getAttribute('y1')) }, { x: r.x + Number(e.getAttribute('x2')), y: r.y + Number(e.getAttribute('y2')) }];
}, sel);

test('Tigadi: the server\'s open lines, shown on request', { timeout: 90000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'tigadi', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }] } });
  const { id } = created;
  for (const [seat, move] of [[0, 'd1'], [1, 'a1'], [0, 'd2'], [1, 'a4']]) {
    await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move }, token: created.tokens[String(seat)] });
  }
  const g = await game(id, created.tokens['0']);
  const lines = g.danger.filter(d => d.why === 'line-open');
  assert.deepEqual(lines.map(d => [d.line.join(' '), d.player, d.by, d.square]).sort(),
    [['a1 a4 a7', 0, 1, 'a7'], ['d1 d2 d3', 1, 0, 'd3']], 'the server reports both open lines');

  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await open(context, id, { 0: created.tokens['0'] });
  await page.waitForSelector('#board[data-interactive="true"]');
  // Off by default: nothing drawn, nothing said.
  assert.equal(await page.getAttribute('#open-lines', 'aria-pressed'), 'false');
  assert.equal(await page.$$eval('.board-marks [data-mark]', els => els.length), 0);
  assert.equal(await page.textContent('#danger-note'), '');
  await page.click('#open-lines');
  await page.waitForSelector('.board-marks [data-mark="line"]', { state: 'attached' });
  assert.equal(await page.getAttribute('#open-lines', 'aria-pressed'), 'true');
  // Seed's line threatens Ana's gotis (red); Ana's own line is her chance (amber).
  const mine = '.board-marks [data-mark="line"][data-at="a1 a4 a7"]';
  const hers = '.board-marks [data-mark="line"][data-at="d1 d2 d3"]';
  assert.match(await page.getAttribute(mine, 'class'), /\bown\b/);
  assert.match(await page.getAttribute(hers, 'class'), /\bother\b/);
  const [a, b] = await lineEnds(page, hers);
  await near(page, a, '#board [data-point="d1"]', 'the line starts on d1');
  await near(page, b, '#board [data-point="d3"]', 'and ends on d3');
  const note = await page.textContent('#danger-note');
  assert.ok(note.includes('Seed can close a line at a7 (a1–a4–a7).') && note.includes('You can close a line at d3 (d1–d2–d3).'), note);
  await screenshot(page, 'danger-tigadi-lines');

  // Kept over a reload; gone while browsing an earlier position, back in the present.
  await page.reload();
  await page.waitForSelector('.board-marks [data-mark="line"]', { state: 'attached' });
  await page.click('#moves li[data-ply="1"] .ply');
  await page.waitForSelector('#board[data-browsing="true"]');
  await page.waitForFunction(() => !document.querySelector('.board-marks [data-mark]'));
  await page.click('#browse-present');
  await page.waitForSelector('.board-marks [data-mark="line"]', { state: 'attached' });
  // Closing the line: Ana plays d3 and takes a goti; the marks follow the server's.
  await page.click('#board [data-point="d3"]');
  await page.waitForSelector('#board [data-lit="capture"]');
  await page.click('#board [data-point="a4"]');
  await page.waitForFunction(() => document.getElementById('board').dataset.ply === '5');
  await page.waitForFunction(() => !document.querySelector('.board-marks [data-at="d1 d2 d3"]') && !document.querySelector('.board-marks [data-at="a1 a4 a7"]'));
  await page.click('#open-lines');
  assert.equal(await page.evaluate(() => localStorage.getItem('tabula:open-lines')), 'off');
  assertNoErrors(page);
  await context.close();
});

test('FACET: the server\'s own mark when a Black stone attacks White\'s Monarch, on both pages', { timeout: 90000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'facet', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }] } });
  const { id } = created;
  // Ten moves after which Black's stone on f2 could take the Monarch on e1 (found by playing at random).
  const line = ['h2-h3', 'c8-c7', 'e2-d4', 'b9-a7', 'h3-i4', 'c7-i7', 'i2-h2', 'f8-c5', 'd4-f5', 'c5-f2'];
  for (let i = 0; i < line.length; i++) {
    await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move: line[i] }, token: created.tokens[String(i % 2)] });
  }
  const g = await game(id, created.tokens['0']);
  assert.deepEqual(g.danger, [{ by: ['f2'], player: 0, square: 'e1', why: 'monarch-attacked' }]);
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const W = await open(context, id, { 0: created.tokens['0'] });
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const B = await open(other, id, { 1: created.tokens['1'] });
  const ring = '.board-marks [data-mark="danger"][data-at="e1"]';
  for (const [page, cls, words] of [[W, 'own', 'Your Monarch on e1 can be taken (from f2).'], [B, 'other', 'White’s Monarch on e1 can be taken (from f2).']]) {
    await page.waitForSelector(ring, { state: 'attached' });
    assert.match(await page.getAttribute(ring, 'class'), new RegExp(`\\b${cls}\\b`));
    await near(page, await centreOf(page, ring), '#board [data-square="e1"]', 'the Monarch ringed');
    await near(page, await centreOf(page, '.board-marks [data-mark="attacker"][data-at="f2"]'), '#board [data-square="f2"]', 'its attacker');
    assert.equal(await page.textContent('#danger-note'), words);
  }
  await screenshot(W, 'danger-facet-monarch-real');
  await screenshot(B, 'danger-facet-monarch-real-black-phone');
  // White answers (whatever it plays, the server says what is left in danger, and both pages follow).
  const capture = g.legal.find(m => m.endsWith('-f2')) || g.legal[0];
  await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move: capture }, token: created.tokens['0'] });
  const after = await game(id, created.tokens['0']);
  for (const page of [W, B]) {
    await page.waitForFunction((n) => Number(document.getElementById('board').dataset.ply) === 11 &&
      document.querySelectorAll('.board-marks [data-mark="danger"]').length === n, after.danger.length);
  }
  assertNoErrors(W);
  assertNoErrors(B);
  await context.close();
  await other.close();
});

// Answers from the server with `danger` replaced by marks(observation) in every GET and update.
async function injectDanger(page, marks) {
  const rewrite = (text) => {
    const j = JSON.parse(text);
    if (j && typeof j === 'object' && 'danger' in j && j.observation && j.observation.phase === 'play') j.danger = marks(j.observation);
    return JSON.stringify(j);
  };
  await rewriteGameMessages(page, rewrite);
}

test('FACET: an attacked Monarch ringed, with its attacker, through Flip board and in the dark', { timeout: 90000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'facet', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }] } });
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await newPage(context);
  await injectDanger(page, () => [{ square: 'e1', player: 0, why: 'monarch-attacked', by: ['e3'] }, { square: 'e9', player: 1, why: 'monarch-attacked', by: ['d7'] }]);
  await page.goto(server.url + '/');
  await page.evaluate(([id, tokens]) => localStorage.setItem(`tabula:game:${id}`, JSON.stringify({ tokens })), [created.id, { 0: created.tokens['0'] }]);
  await page.goto(`${server.url}/game.html?id=${created.id}`);
  await page.waitForSelector('.board-marks [data-mark="danger"][data-at="e1"]', { state: 'attached' });
  assert.equal(await page.isVisible('#open-lines'), false, 'no line toggle outside Tigadi');
  const own = '.board-marks [data-mark="danger"][data-at="e1"]';
  assert.match(await page.getAttribute(own, 'class'), /\bown\b/);
  assert.match(await page.getAttribute('.board-marks [data-mark="danger"][data-at="e9"]', 'class'), /\bother\b/);
  await near(page, await centreOf(page, own), '#board [data-square="e1"]', 'the ring is on e1');
  await near(page, await centreOf(page, '.board-marks [data-mark="attacker"][data-at="e3"]'), '#board [data-square="e3"]', 'the attacker on e3');
  assert.equal(await page.textContent('#danger-note'), 'Your Monarch on e1 can be taken (from e3). Black’s Monarch on e9 can be taken (from d7).');
  await page.click('#flip');
  await page.waitForSelector('#board svg[data-flipped="true"]');
  await page.waitForFunction(() => {
    const m = document.querySelector('.board-marks [data-mark="danger"][data-at="e1"]').getBoundingClientRect();
    const s = document.querySelector('#board [data-square="e1"]').getBoundingClientRect();
    return Math.abs(m.y + m.height / 2 - (s.y + s.height / 2)) < 3;
  });
  await near(page, await centreOf(page, own), '#board [data-square="e1"]', 'flipped, the ring follows e1');
  await page.click('#flip');
  await page.evaluate(() => localStorage.setItem('tabula:theme', 'dark'));
  await page.reload();
  await page.waitForSelector('.board-marks [data-mark="danger"][data-at="e1"]', { state: 'attached' });
  await near(page, await centreOf(page, own), '#board [data-square="e1"]', 'the ring is on e1 after a reload');
  await screenshot(page, 'danger-facet-monarch-dark');
  assertNoErrors(page);
  await context.close();
});

test('The Game of Truth on a phone: icons in danger ringed', { timeout: 90000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'truth', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }] } });
  await apiJson(server.url, 'POST', `/api/games/${created.id}/setup`, { body: { arrangement: 'suggested' }, token: created.tokens['0'] });
  const g = await game(created.id, created.tokens['0']);
  const icon = (p) => Object.entries(g.observation.board).find(([, pc]) => pc === `${p}I`)[0];
  const [mine, theirs] = [icon(0), icon(1)];
  const context = await phoneContext(browser);
  const page = await newPage(context);
  await injectDanger(page, () => [{ square: mine, player: 0, why: 'icon-burnable', by: [1] }, { square: theirs, player: 1, why: 'icon-sieged', count: 2 }]);
  await page.goto(server.url + '/');
  await page.evaluate(([id, tokens]) => localStorage.setItem(`tabula:game:${id}`, JSON.stringify({ tokens })), [created.id, { 0: created.tokens['0'] }]);
  await page.goto(`${server.url}/game.html?id=${created.id}`);
  await page.waitForSelector(`.board-marks [data-mark="danger"][data-at="${mine}"]`, { state: 'attached' });
  await near(page, await centreOf(page, `.board-marks [data-mark="danger"][data-at="${mine}"]`), `#board [data-square="${mine}"]`, 'my icon');
  await near(page, await centreOf(page, `.board-marks [data-mark="danger"][data-at="${theirs}"]`), `#board [data-square="${theirs}"]`, 'Jade\'s icon');
  assert.equal(await page.textContent('#danger-note'), `Your icon on ${mine} can be burned by Jade. Jade’s icon on ${theirs} is under siege (2).`);
  await noSideScroll(page);
  await screenshot(page, 'danger-truth-phone');
  assertNoErrors(page);
  await context.close();
});
