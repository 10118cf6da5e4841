// (b) Two browsers: A invites a friend, B joins from the link, and each sees the other's moves arrive.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, boardPieces, waitTurnOrEnd, playRandomMove, waitBoardPly } from './helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('invite a friend, join by the link, moves arrive live on both sides', { timeout: 180000 }, async () => {
  const ctxA = await browser.newContext({ viewport: { width: 1100, height: 850 } });
  await ctxA.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const ctxB = await browser.newContext({ viewport: { width: 1100, height: 850 } });
  const a = await newPage(ctxA);
  const b = await newPage(ctxB);

  await a.goto(server.url + '/');
  await a.waitForSelector('#kind option[value="tigadi"]', { state: 'attached' });
  await a.fill('#name', 'Ana');
  await a.selectOption('#seat-1', 'open');
  await a.click('#create');
  await a.waitForSelector('#created:not(.hidden) .invite-link');
  const link = await a.inputValue('#created .invite-link');
  assert.match(link, /\/game\.html\?id=[^&]+&seat=1$/);
  await a.click('#created .invite button');
  await a.waitForFunction(() => /Copied|Select/.test(document.querySelector('#created .invite .muted').textContent));
  const copied = await a.evaluate(() => navigator.clipboard.readText().catch(() => null));
  if (copied !== null) assert.equal(copied, link, 'the copy button put the invite link on the clipboard');
  await screenshot(a, 'b-invite-created');

  await Promise.all([a.waitForURL(/\/game\.html\?id=/), a.click('#go')]);
  await a.waitForSelector('#invite-panel:not(.hidden)');
  await a.waitForFunction(() => /Waiting for a friend/.test(document.getElementById('status').textContent));

  // B opens the link: a "Join as Seed" form, since B holds no token for this game.
  await b.goto(link);
  await b.waitForSelector('#join:not(.hidden)');
  assert.match(await b.textContent('#join-button'), /Join as Seed/);
  await screenshot(b, 'b-join-form');
  await b.fill('#join-name', 'Bo');
  await b.click('#join-button');
  await b.waitForSelector('#join', { state: 'hidden' });
  await b.waitForFunction(() => document.querySelector('#seats [data-seat="1"] .you'));

  // A's page learns over the WebSocket that Bo joined and that it is A's turn.
  await a.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
  await a.waitForSelector('#invite-panel', { state: 'hidden' });
  assert.match(await a.textContent('#seats [data-seat="1"]'), /Bo/);

  const players = [a, b];
  for (let i = 0; i < 6; i++) {
    const mover = players[i % 2];
    const other = players[(i + 1) % 2];
    const over = await waitTurnOrEnd(mover);
    if (over) break;
    const ply = Number(await mover.getAttribute('#board', 'data-ply'));
    await playRandomMove(mover);
    // The other page sees the move without reloading.
    await waitBoardPly(other, ply + 1);
    await waitBoardPly(mover, ply + 1);
    // The move lists are drawn from the socket's events, which may come after the board's ply (the mover's board
    // shows the move's answer first): wait for the move in both lists.
    for (const page of [other, mover]) {
      await page.waitForFunction((n) => document.querySelectorAll('#moves li .ply').length >= n, ply + 1);
    }
    assert.deepEqual(await boardPieces(other), await boardPieces(mover), `both boards agree after ply ${ply + 1}`);
    const moversLast = await mover.$$eval('#moves li .ply', els => els.map(e => e.textContent));
    const othersLast = await other.$$eval('#moves li .ply', els => els.map(e => e.textContent));
    assert.deepEqual(othersLast, moversLast, 'both move lists agree');
  }
  await screenshot(a, 'b-player-a');
  await screenshot(b, 'b-player-b');
  assertNoErrors(a);
  assertNoErrors(b);
  await ctxA.close();
  await ctxB.close();
});
