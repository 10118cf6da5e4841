// FACET hot seat: both seats human in one browser. Without fog nothing is hidden and the board stays up
// between turns; with fog the board hides behind "Pass the device to …" and the page then holds no stone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot } from './helpers.mjs';
import { createFacet } from './facet-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

async function clickMove(page, move) {
  const [from, to] = move.split('-');
  await page.click(`#board [data-square="${from}"]`);
  await page.waitForSelector(`#board [data-square="${to}"][data-lit="target"], #board [data-square="${to}"][data-lit="capture"]`);
  await page.click(`#board [data-square="${to}"]`);
}

test('FACET hot seat under fog hides the board between turns; without fog it does not', { timeout: 120000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 950 } });
  const page = await newPage(context);

  // Fog: after White's move the hand-over screen for Black is up and the page shows no stone at all.
  await createFacet(page, server.url, { opponent: 'me', modes: ['fog'] });
  const firstScreen = await page.isVisible('#handover');
  if (firstScreen) {
    await page.click('#handover-show');
    await page.waitForSelector('#handover', { state: 'hidden' });
  }
  await clickMove(page, 'e2-d4');
  await page.waitForSelector('#handover:not(.hidden)');
  await page.waitForFunction(() => document.getElementById('handover-title').textContent.includes('Black'));
  assert.ok(await page.isHidden('#board'), 'the board is hidden behind the hand-over screen');
  assert.equal(await page.$$eval('[data-piece]', els => els.length), 0, 'no stone is in the page');
  assert.equal(await page.$$eval('[data-ghost]', els => els.length), 0, 'no ghost is in the page');
  await screenshot(page, 'facet-hotseat-fog-handover');
  await page.click('#handover-show');
  await page.waitForSelector('#handover', { state: 'hidden' });
  // Black's own view: its stones, and White's only where Black sees (none at the start but on Thrones).
  const shown = await page.$$eval('#board [data-piece]', els => els.map(e => e.dataset.piece));
  assert.equal(shown.filter(p => p[0] === '1').length, 18);
  assert.equal(shown.filter(p => p[0] === '0').length, 0, 'no White stone is in Black\'s sight');

  // Without fog the same two seats play on without a hand-over screen.
  await createFacet(page, server.url, { opponent: 'me', modes: ['decay'] });
  await clickMove(page, 'e2-d4');
  await page.waitForFunction(() => document.querySelectorAll('#board [data-piece]').length === 36);
  assert.ok(await page.isHidden('#handover'), 'no hand-over screen when nothing is hidden');
  assertNoErrors(page);
  await context.close();
});
