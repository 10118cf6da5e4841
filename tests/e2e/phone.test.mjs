// (d) The lobby, a game and the rules at a phone-sized viewport (375×667).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, waitTurnOrEnd, playRandomMove, noSideScroll, waitBoardPly, rectOf } from './helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('phone viewport: board scales, controls stack', { timeout: 120000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 375, height: 667 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.waitForSelector('#kind option[value="tigadi"]', { state: 'attached' });
  await noSideScroll(page);
  await screenshot(page, 'd-phone-lobby');
  await page.fill('#name', 'Ana');
  await page.selectOption('#seat-1', 'ai:1');
  await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#create')]);
  for (let i = 0; i < 3; i++) {
    if (await waitTurnOrEnd(page)) break;
    const ply = Number(await page.getAttribute('#board', 'data-ply'));
    await playRandomMove(page);
    await waitBoardPly(page, ply + 1);
  }
  await waitTurnOrEnd(page);
  const board = await rectOf(page, '#board svg');
  assert.ok(board.width >= 300 && board.width <= 375, `board width ${board.width}`);
  assert.ok(board.left >= 0 && board.right <= 375, 'board fits the screen');
  // The side panel stacks under the board.
  const seats = await rectOf(page, '#seats');
  assert.ok(seats.top >= board.bottom - 1, 'players panel is below the board');
  // Points are big enough to tap (at least ~30 px apart on a 7-point row).
  const d1 = await rectOf(page, '#board [data-point="d1"]');
  const a1 = await rectOf(page, '#board [data-point="a1"]');
  assert.ok(d1.left - a1.left >= 90, 'points are spread over the width');
  await noSideScroll(page);
  await page.screenshot({ path: (await import('./helpers.mjs')).SHOTS + '/d-phone-game-viewport.png' });
  await screenshot(page, 'd-phone-game');

  await page.goto(server.url + '/rules/tigadi.html');
  await page.waitForSelector('#diagram svg');
  assert.equal(await page.$$eval('#diagram svg .line', els => els.length), 20, 'the diagram draws all 20 lines');
  await noSideScroll(page);
  await screenshot(page, 'd-phone-rules');
  assertNoErrors(page);
  await context.close();
});
