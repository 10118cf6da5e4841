// Around the board against the AI: the Hint button shows the AI's move on the board (and it goes with the next
// move), Take back undoes the player's last turn and the AI's reply (the board, the move list and "Played with N
// take-backs" follow, and the AI is shown thinking again afterwards), in Tigadi and The Game of Truth; in Stratego
// the hint appears, on one of the player's own pieces.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, boardPieces, pieces, phoneContext, noSideScroll, centreOf, gameAs, waitForGame, recordThinking } from './helpers.mjs';
import { clickTurn, waitTurnOrEnd as truthTurnOrEnd, boardState as truthState } from './truth-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const game = (id, token) => gameAs(server.url, id, token);
const waitGame = (id, token, ok) => waitForGame(server.url, id, token, ok);

async function makeGame(kind, seats, options = {}) {
  const created = await apiJson(server.url, 'POST', '/api/games', { body: { game: kind, options, seats } });
  return { id: created.id, token: created.tokens['0'], tokens: created.tokens };
}

// A page at `size` that records every "thinking" mark the seats list shows (window.__thinking).
async function openAs(id, tokens, size = { width: 1200, height: 1000 }) {
  const context = await browser.newContext({ viewport: size });
  await recordThinking(context);
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.evaluate(([id, tokens]) => localStorage.setItem(`tabula:game:${id}`, JSON.stringify({ tokens })), [id, tokens]);
  await page.goto(`${server.url}/game.html?id=${id}`);
  return { context, page };
}

const interactiveAt = (page, ply) => page.waitForFunction((p) => {
  const b = document.getElementById('board');
  return (Number(b.dataset.ply) === p && b.dataset.interactive === 'true') || !document.getElementById('banner').classList.contains('hidden');
}, ply, { timeout: 30000 });

async function assertOver(page, markSel, squareSel, what) {
  const a = await centreOf(page, markSel);
  const b = await centreOf(page, squareSel);
  assert.ok(Math.abs(a.x - b.x) < 3 && Math.abs(a.y - b.y) < 3, `${what}: the mark (${a.x},${a.y}) sits on the square (${b.x},${b.y})`);
}

// Clicks a Tigadi move as a person would: its origin, its point, and a capture when one is asked for.
async function clickTigadi(page, move) {
  const m = /^([a-g][1-7])(?:-([a-g][1-7]))?(?:x([a-g][1-7]))?$/.exec(move);
  const [from, to, cap] = m[2] ? [m[1], m[2], m[3]] : [null, m[1], m[3]];
  if (from) {
    await page.click(`#board [data-point="${from}"]`);
    await page.waitForSelector(`#board [data-point="${to}"][data-lit="target"]`);
  }
  await page.click(`#board [data-point="${to}"]`);
  if (cap) {
    await page.waitForSelector(`#board [data-point="${cap}"][data-lit="capture"]`);
    await page.click(`#board [data-point="${cap}"]`);
  }
}

test('Tigadi against the AI: hint, take back (twice), thinking after a take-back', { timeout: 180000 }, async () => {
  const { id, token, tokens } = await makeGame('tigadi', [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }]);
  const { context, page } = await openAs(id, tokens);
  await interactiveAt(page, 0);
  assert.equal(await page.isVisible('#takeback'), false, 'nothing to take back before the first move');
  assert.equal(await page.isVisible('#takebacks-note'), false);

  // A first move by clicking, the AI's reply.
  const lit = await page.$$eval('#board [data-lit="place"]', els => els.map(e => e.dataset.point));
  await page.click(`#board [data-point="${lit[Math.floor(Math.random() * lit.length)]}"]`);
  await interactiveAt(page, 2);

  // Hint: the AI's move, on the board where its point is, and in words.
  await page.click('#hint-button');
  await page.waitForSelector('.board-marks [data-mark="hint"]', { state: 'attached' });
  const hinted = await page.getAttribute('.board-marks [data-mark="hint"]', 'data-move');
  let g = await game(id, token);
  assert.deepEqual(g.hint, { move: hinted, pending: false }, 'the page shows the server\'s hint');
  assert.ok(g.legal.includes(hinted), `the hint ${hinted} is legal`);
  const to = hinted.split('x')[0].split('-').pop();
  await assertOver(page, `.board-marks [data-mark="hint"] [data-end="to"]`, `#board [data-point="${to}"]`, 'hint');
  assert.match(await page.textContent('#ai-hint'), new RegExp(`Hint: ${hinted}`));
  assert.equal(await page.isDisabled('#hint-button'), true, 'one hint a position');
  await screenshot(page, 'assist-tigadi-hint');

  // Playing it takes the hint away at once.
  await clickTigadi(page, hinted);
  await page.waitForFunction(() => !document.querySelector('.board-marks [data-mark="hint"]') && !document.getElementById('ai-hint').textContent);
  await interactiveAt(page, 4);
  g = await game(id, token);
  assert.equal(g.hint, null);
  const before = await boardPieces(page);
  assert.deepEqual(before, g.observation.board);

  // Take back: the hinted move and the AI's reply are gone, on the board, in the list and on the server.
  await page.evaluate(() => { window.__thinking = []; });
  await page.click('#takeback');
  await interactiveAt(page, 2);
  g = await waitGame(id, token, x => x.takebacks === 1);
  assert.equal(g.observation.ply, 2);
  assert.deepEqual(await boardPieces(page), g.observation.board, 'the board is the server\'s after the take-back');
  assert.equal(await page.$$eval('#moves li', els => els.length), 2, 'the move list lost the two moves');
  assert.equal(await page.textContent('#takebacks-note'), 'Played with 1 take-back.');
  assert.match(await page.textContent('#takeback-bar'), /You took back the last 2 moves/);
  await screenshot(page, 'assist-tigadi-takeback');

  // Play on: the AI thinks and answers as before.
  const lit2 = await page.$$eval('#board [data-lit="place"]', els => els.map(e => e.dataset.point));
  await page.click(`#board [data-point="${lit2[Math.floor(Math.random() * lit2.length)]}"]`);
  await interactiveAt(page, 4);
  assert.equal(await page.isVisible('#takeback-bar'), false, 'the note goes with the next move');
  const seen = await page.evaluate(() => window.__thinking);
  assert.ok(seen.length > 0 && seen.every(s => s === '1'), `the AI seat was shown thinking after the take-back: ${seen}`);
  assert.deepEqual(await boardPieces(page), (await game(id, token)).observation.board);

  // A second take-back; the count follows, and stays in the finished game's list.
  await page.click('#takeback');
  await interactiveAt(page, 2);
  await page.waitForFunction(() => document.getElementById('takebacks-note').textContent === 'Played with 2 take-backs.');
  await page.click('#resign');
  await page.click('#resign-yes');
  await page.waitForSelector('#banner:not(.hidden)');
  await page.waitForSelector('#replay-panel:not(.hidden)');
  assert.equal(await page.textContent('#takebacks-note'), 'Played with 2 take-backs.');
  assert.equal(await page.isVisible('#takeback'), false, 'no take-back once over');
  assert.equal(await page.isVisible('#hint-button'), false, 'no hint once over');
  const text = await (await fetch(`${server.url}/api/games/${id}/record.txt`)).text();
  assert.match(text, /\[Takebacks "2"\]/);
  assertNoErrors(page);
  await context.close();
});

test('The Game of Truth against the AI: a hint is an action, a take-back undoes a whole turn', { timeout: 240000 }, async () => {
  const { id, token, tokens } = await makeGame('truth', [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }]);
  await apiJson(server.url, 'POST', `/api/games/${id}/setup`, { body: { arrangement: 'suggested' }, token });
  const { context, page } = await openAs(id, tokens);
  assert.equal(await truthTurnOrEnd(page), false);

  // A first turn by clicks, the AI's reply.
  await clickTurn(page);
  assert.equal(await truthTurnOrEnd(page), false);
  let g = await waitGame(id, token, x => x.legal.length > 0);
  const ply = g.observation.ply;
  const board = g.observation.board;

  // The hint for the turn's first action.
  await page.click('#hint-button');
  await page.waitForSelector('.board-marks [data-mark="hint"]', { state: 'attached' });
  const hinted = await page.getAttribute('.board-marks [data-mark="hint"]', 'data-move');
  g = await game(id, token);
  assert.equal(g.hint.move, hinted);
  assert.ok(g.legal.includes(hinted), `the hint ${hinted} is a legal action`);
  if (hinted !== 'pass') {
    const [from, to] = hinted.split('-');
    await assertOver(page, '.board-marks [data-mark="hint"] [data-end="from"]', `#board [data-square="${from}"]`, 'hint from');
    await assertOver(page, '.board-marks [data-mark="hint"] [data-end="to"]', `#board [data-square="${to}"]`, 'hint to');
    assert.equal((await pieces(page))[from][0], '0', 'the hint moves one of my pieces');
  }
  await screenshot(page, 'assist-truth-hint');

  // The turn by clicks: the hint goes with the first action.
  await clickTurn(page, {
    afterFirst: async () => {
      assert.equal(await page.$$eval('.board-marks [data-mark="hint"]', els => els.length), 0, 'no hint after the first action');
    },
  });
  assert.equal(await truthTurnOrEnd(page), false);
  await waitGame(id, token, x => x.observation.ply >= ply + 2 && x.legal.length > 0);

  // Take back: my last turn (both actions) and the AI's reply.
  await page.click('#takeback');
  await page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) === p && document.getElementById('board').dataset.interactive === 'true', ply);
  g = await waitGame(id, token, x => x.takebacks === 1);
  assert.equal(g.observation.ply, ply);
  assert.deepEqual(g.observation.board, board, 'the server is back where the turn began');
  assert.deepEqual(await pieces(page), board, 'so is the board');
  assert.equal((await truthState(page)).action, 0, 'the turn starts from its first action');
  assert.equal(await page.textContent('#takebacks-note'), 'Played with 1 take-back.');
  const turns = await page.$$eval('#moves li', els => els.length);
  assert.equal(turns, g.observation.ply, 'one entry a turn, the two taken back gone');

  // And the game goes on.
  await clickTurn(page);
  assert.equal(await truthTurnOrEnd(page), false);
  await screenshot(page, 'assist-truth-after-takeback');
  assertNoErrors(page);
  await context.close();
});

test('Stratego against the AI: a hint moves one of my pieces', { timeout: 120000 }, async () => {
  const { id, token, tokens } = await makeGame('stratego', [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }]);
  await apiJson(server.url, 'POST', `/api/games/${id}/setup`, { body: { arrangement: 'random' }, token });
  const { context, page } = await openAs(id, tokens);
  await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true' && document.querySelector('#board [data-lit="select"]'), null, { timeout: 30000 });
  await page.click('#hint-button');
  await page.waitForSelector('.board-marks [data-mark="hint"]', { state: 'attached', timeout: 60000 });
  const hinted = await page.getAttribute('.board-marks [data-mark="hint"]', 'data-move');
  const g = await game(id, token);
  assert.equal(g.hint.move, hinted);
  assert.ok(g.legal.includes(hinted), `the hint ${hinted} is legal`);
  const [from, to] = hinted.split('-');
  assert.equal((await pieces(page))[from][0], '0', 'the hint moves one of my own pieces');
  await assertOver(page, '.board-marks [data-mark="hint"] [data-end="from"]', `#board [data-square="${from}"]`, 'hint from');
  await assertOver(page, '.board-marks [data-mark="hint"] [data-end="to"]', `#board [data-square="${to}"]`, 'hint to');
  // The overlay names squares only in data-at: the board's own squares are still the only [data-square].
  assert.equal(await page.$$eval('.board-marks [data-square], .board-marks [data-piece]', els => els.length), 0);
  await screenshot(page, 'assist-stratego-hint');
  assertNoErrors(page);
  await context.close();
});

test('On a 390×844 phone in the dark: the hint over the board, Take back in reach', { timeout: 90000 }, async () => {
  const { id, token, tokens } = await makeGame('tigadi', [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }]);
  const context = await phoneContext(browser);
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.evaluate(([id, tokens]) => { localStorage.setItem(`tabula:game:${id}`, JSON.stringify({ tokens })); localStorage.setItem('tabula:theme', 'dark'); }, [id, tokens]);
  await page.goto(`${server.url}/game.html?id=${id}`);
  await interactiveAt(page, 0);
  await page.tap('#board [data-point="d1"]');
  await interactiveAt(page, 2);
  await page.tap('#hint-button');
  await page.waitForSelector('.board-marks [data-mark="hint"]', { state: 'attached' });
  const hinted = await page.getAttribute('.board-marks [data-mark="hint"]', 'data-move');
  assert.equal((await game(id, token)).hint.move, hinted);
  const to = hinted.split('x')[0].split('-').pop();
  await assertOver(page, '.board-marks [data-mark="hint"] [data-end="to"]', `#board [data-point="${to}"]`, 'hint on the phone');
  await noSideScroll(page);
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  assert.ok(await page.isVisible('#takeback'));
  await page.$eval('#board', e => e.scrollIntoView());
  await screenshot(page, 'assist-tigadi-hint-phone-dark');
  await page.tap('#takeback');
  await interactiveAt(page, 0);
  assert.equal(await page.textContent('#takebacks-note'), 'Played with 1 take-back.');
  assertNoErrors(page);
  await context.close();
});

// The socket's update with the hint can reach the page before the reply to the hint request, and before the read
// that follows it; both were made while the AI was still thinking and say "pending". Seen on a loaded machine as a
// hint that never showed. Here the order is forced: the reply is held until the page shows the hint, and the read
// after it answers as a read made before the answer would (pending). The hint must stay, and the button say so.
test('A hint the socket brought first is not hidden by an older reply saying it is still being looked for', { timeout: 90000 }, async () => {
  const { id, token, tokens } = await makeGame('tigadi', [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }]);
  const { context, page } = await openAs(id, tokens);
  await interactiveAt(page, 0);
  await page.click('#board [data-point="d1"]');
  await interactiveAt(page, 2);
  let released = false;
  let staleReads = 0;
  await page.route((url) => url.pathname === `/api/games/${id}/hint`, async (route) => {
    const response = await route.fetch();
    assert.equal((await response.json()).hint.pending, true, 'the reply was made before the answer');
    await page.waitForSelector('.board-marks [data-mark="hint"]', { state: 'attached' });  // the socket's update
    released = true;
    await route.fulfill({ response });
  });
  await page.route((url) => url.pathname === `/api/games/${id}`, async (route) => {
    if (!released || staleReads > 0 || route.request().method() !== 'GET') return route.continue();
    staleReads++;
    const response = await route.fetch();
    const body = await response.json();
    assert.ok(body.hint && body.hint.move, 'the server has the answer');
    await route.fulfill({ response, json: { ...body, hint: { move: null, pending: true } } });
  });
  await page.click('#hint-button');
  // The button says "Hint" again only once the request, and the read after it, are done (no other update comes:
  // it is our turn); before the fix it stayed "Thinking of a hint…" with no mark.
  await page.waitForFunction(() => document.getElementById('hint-button').textContent === 'Hint', null, { timeout: 30000 });
  assert.equal(staleReads, 1, 'the read after the request answered as an older one');
  const hinted = await page.getAttribute('.board-marks [data-mark="hint"]', 'data-move');
  assert.equal((await game(id, token)).hint.move, hinted);
  assertNoErrors(page);
  await context.close();
});
