// FACET with terrain decay against the AI (level 1): a stone leaving a Spire turns it into a Gate before the
// player's eyes (the old tile fades out over the new one with a flash, then only the new tile and a small
// mark remain), the caption and the move list say so, and the terrain drawn always equals the observation's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot } from './helpers.mjs';
import { createFacet, assertBoardMatches, waitTurnOrEnd, waitPly, clickMove, game } from './facet-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const tileOn = (page, sq) => page.getAttribute(`#board [data-square="${sq}"]`, 'data-tile');

test('FACET decay: a tile changes visibly when a stone leaves it', { timeout: 60000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await newPage(context);
  const { id, tokens } = await createFacet(page, server.url, { side: '0', opponent: 'ai:1', modes: ['decay'] });
  const token = tokens['0'];
  await waitTurnOrEnd(page);
  let g = await game(server.url, id, token);
  assert.deepEqual(g.options.modes, ['decay']);
  await assertBoardMatches(page, g.observation, 'at the start');
  assert.equal(await tileOn(page, 'd2'), 'S', 'd2 is a Spire in the classic layout');
  assert.equal(await page.$$eval('#board .fc-decay-old', els => els.length), 0, 'nothing flashes at the start');

  // d2-e3 leaves the Spire: it becomes a Gate, and the page shows the change as it happens.
  assert.ok(g.legal.includes('d2-e3'));
  await clickMove(page, g.legal, 'd2-e3');
  // The flash lasts 1.8 s: its animations are read in the same look at the page that finds it (a second look
  // may come after it ended, on a loaded machine).
  const flash = await (await page.waitForFunction(() => {
    const el = document.querySelector('#board [data-square="d2"][data-tile="G"][data-decayed="S>G"]');
    const old = el && el.querySelector('.fc-decay-old.t-S');
    const ring = el && el.querySelector('.fc-decay-flash');
    return old && ring ? { old: getComputedStyle(old).animationName, ring: getComputedStyle(ring).animationName } : null;
  })).jsonValue();
  assert.deepEqual(flash, { old: 'fc-decay-fade', ring: 'fc-decay-flash' }, 'the old tile fades out with a flash');
  await screenshot(page, 'facet-decay-flash');
  assert.match(await page.textContent('.fc-caption'), /d2: the Spire decayed to a Gate\./);
  // The flash is over after a moment; the new tile stays, with its mark while the move is recent.
  await page.waitForFunction(() => !document.querySelector('#board [data-square="d2"] .fc-decay-old'), null, { timeout: 5000 });
  assert.equal(await tileOn(page, 'd2'), 'G');
  assert.ok(await page.$('#board [data-square="d2"] .fc-decay-mark'), 'a mark stays on the decayed tile');
  await waitPly(page, 2);
  const detail = await page.$$eval('#moves li', els => els[0].textContent);
  assert.match(detail, /d2-e3/);
  assert.match(detail, /d2: Spire → Gate/);

  // A few more moves (from special tiles when possible): the drawn terrain follows the observation, and
  // every decay of the last two plies (the AI's too) is marked on its square.
  for (let i = 0; i < 4; i++) {
    const over = await waitTurnOrEnd(page);
    g = await game(server.url, id, token);
    await assertBoardMatches(page, g.observation, `after ${i + 1} moves`);
    const marked = await page.$$eval('#board [data-decayed]', els => els.map(e => `${e.dataset.square}:${e.dataset.decayed}`).sort());
    const recent = g.events.filter(e => e.type === 'move' || e.type === 'decay');
    const lastTwo = [];
    let moves = 0;
    for (let k = recent.length - 1; k >= 0 && moves < 2; k--) {
      if (recent[k].type === 'move') moves++;
      else lastTwo.push(`${recent[k].square}:${recent[k].from}>${recent[k].to}`);
    }
    assert.deepEqual(marked, lastTwo.sort(), 'the decays of the last two plies are marked');
    if (over) break;
    const special = g.legal.filter(m => g.observation.terrain[m.split('-')[0]] && g.observation.terrain[m.split('-')[0]] !== 'C');
    const pool = special.length ? special : g.legal;
    const move = pool[Math.floor(Math.random() * pool.length)];
    const from = move.split('-')[0];
    const before = g.observation.terrain[from];
    await clickMove(page, g.legal, move);
    if (before && before !== 'C') {
      const next = { T: 'S', S: 'G', G: 'F' }[before];
      await page.waitForSelector(`#board [data-square="${from}"][data-tile="${next}"][data-decayed="${before}>${next}"]`);
    }
    await waitPly(page, g.observation.ply + 2);
  }
  assertNoErrors(page);
  await context.close();
});
