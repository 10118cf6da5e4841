// The lobby's side choice: "Play as Black" against the AI gives the player seat 1 with Black's stones at the
// bottom (the AI, White, moves first, and the player's moves by clicking work on the turned board);
// "Random" draws the seat with crypto.getRandomValues (stubbed here to force each outcome once); and the
// same choice works for another two-player game (Tigadi).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson } from './helpers.mjs';
import { createFacet, assertBoardMatches, waitTurnOrEnd, waitPly, clickMove, game, centre } from './facet-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

// Own stones at the bottom: every stone of `seat` is drawn below every stone of the other side at the start.
async function ownAtBottom(page, seat) {
  const ys = await page.evaluate(() => [...document.querySelectorAll('#board [data-piece]')].map(e => [e.dataset.piece[0], e.querySelector('.hit').getBoundingClientRect().y]));
  const mine = ys.filter(([p]) => p === String(seat)).map(([, y]) => y);
  const theirs = ys.filter(([p]) => p !== String(seat)).map(([, y]) => y);
  return Math.min(...mine) > Math.max(...theirs);
}

test('Play as Black against the AI: seat 1, Black at the bottom, moves by clicking', { timeout: 60000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 950 } });
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.waitForSelector('#kind option[value="facet"]', { state: 'attached' });
  await page.selectOption('#kind', 'facet');
  await page.selectOption('#seat-1', 'ai:1');
  await page.check('#side-1');
  assert.deepEqual(await page.$$eval('#seat-rows select', els => els.map(e => e.value)), ['ai:1', 'me'], 'Black: the AI takes White’s seat');
  await page.check('#side-0');
  assert.deepEqual(await page.$$eval('#seat-rows select', els => els.map(e => e.value)), ['me', 'ai:1']);
  // Choosing seats by hand moves the side choice with them; two "Me" seats (hot seat) hide it.
  await page.selectOption('#seat-0', 'ai:2');
  await page.selectOption('#seat-1', 'me');
  assert.equal(await page.isChecked('#side-1'), true);
  await page.selectOption('#seat-0', 'me');
  assert.equal(await page.isVisible('#side-choice'), false, 'no side choice for a hot seat');
  await page.selectOption('#seat-0', 'ai:1');
  assert.equal(await page.isVisible('#side-choice'), true);

  const { id, tokens } = await createFacet(page, server.url, { side: '1', opponent: 'ai:1' });
  assert.deepEqual(Object.keys(tokens), ['1'], 'the token is for Black’s seat');
  let g = await game(server.url, id, tokens['1']);
  assert.deepEqual(g.seats.map(s => s.type), ['ai', 'human']);
  assert.equal(await page.getAttribute('#board svg', 'data-flipped'), 'true');
  // The AI (White) moves first; then it is my turn.
  await waitTurnOrEnd(page);
  g = await game(server.url, id, tokens['1']);
  assert.equal(g.observation.ply, 1);
  await assertBoardMatches(page, g.observation, 'after White’s first move');
  assert.ok((await centre(page, 'e9')).y > (await centre(page, 'e1')).y, 'rank 9 at the bottom');
  assert.ok(await ownAtBottom(page, 1), 'Black’s stones are at the bottom');
  assert.match(await page.textContent('#seats li[data-seat="1"]'), /you/);
  for (let i = 0; i < 3; i++) {
    const over = await waitTurnOrEnd(page);
    if (over) break;
    g = await game(server.url, id, tokens['1']);
    await assertBoardMatches(page, g.observation, `before my move ${i + 1}`);
    const move = g.legal[Math.floor(Math.random() * g.legal.length)];
    await clickMove(page, g.legal, move);
    await waitPly(page, g.observation.ply + 2);
  }
  await screenshot(page, 'facet-side-black');
  assertNoErrors(page);
  await context.close();
});

test('Play as Random draws the seat with crypto.getRandomValues; other two-player games have the choice too', { timeout: 60000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 950 } });
  const page = await newPage(context);
  for (const [value, seat] of [[0, 0], [1, 1]]) {
    await page.goto(server.url + '/');
    await page.waitForSelector('#kind option[value="facet"]', { state: 'attached' });
    await page.selectOption('#kind', 'facet');
    await page.selectOption('#seat-1', 'ai:1');
    await page.check('#side-random');
    assert.match(await page.textContent('#side-note'), /drawn when the game is created/);
    // Force the draw: every random word the page asks for is `value`; count the calls.
    await page.evaluate((v) => {
      localStorage.setItem('e2e:draws', '0');
      crypto.getRandomValues = (a) => {
        localStorage.setItem('e2e:draws', String(Number(localStorage.getItem('e2e:draws')) + 1));
        a.fill(v);
        return a;
      };
    }, value);
    await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#create')]);
    assert.ok(Number(await page.evaluate(() => localStorage.getItem('e2e:draws'))) > 0, 'the lobby drew from crypto.getRandomValues');
    const id = new URL(page.url()).searchParams.get('id');
    const tokens = await page.evaluate((id) => JSON.parse(localStorage.getItem(`tabula:game:${id}`)).tokens, id);
    assert.deepEqual(Object.keys(tokens), [String(seat)], `a draw of ${value} gives seat ${seat}`);
    const g = await apiJson(server.url, 'GET', `/api/games/${id}`);
    assert.deepEqual(g.seats.map(s => s.type), seat === 0 ? ['human', 'ai'] : ['ai', 'human']);
    await page.waitForSelector('#board [data-piece]');
    await page.waitForFunction((s) => document.querySelector('#board svg').dataset.flipped === String(s === 1), seat);
    assert.ok(await ownAtBottom(page, seat), `own stones at the bottom for seat ${seat}`);
  }
  // Tigadi: "Play as Seed" puts the player in seat 1 and the AI in seat 0.
  await page.goto(server.url + '/');
  await page.waitForSelector('#kind option[value="tigadi"]', { state: 'attached' });
  await page.selectOption('#kind', 'tigadi');
  assert.match(await page.textContent('#side-choice'), /Play as\s*Bone\s*Seed\s*Random/);
  await page.check('#side-1');
  await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#create')]);
  const id = new URL(page.url()).searchParams.get('id');
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`);
  assert.deepEqual(g.seats.map(s => s.type), ['ai', 'human']);
  assertNoErrors(page);
  await context.close();
});
