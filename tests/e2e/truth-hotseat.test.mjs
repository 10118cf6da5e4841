// The Game of Truth, hot seat: both seats in one browser. Each army sets up behind its own hand-over screen,
// and until both are in, the page never holds a byte of the other army's placement: not in the DOM (no piece
// of it on a square, nothing drawn) and not in any message the page receives (every WebSocket frame and
// every API response is read). Once both are in, the board shows both armies.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, apiJson, rectOf } from './helpers.mjs';
import { createTruth, pieces, recordTraffic, placementsIn, shot, clickTurn, waitTurnOrEnd } from './truth-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const SIDES = ['Ivory', 'Jade'];

async function expectScreen(page, side) {
  await page.waitForSelector('#handover:not(.hidden)');
  await page.waitForFunction((side) => document.getElementById('handover-title').textContent.includes(side), side);
  assert.equal(await page.textContent('#handover-show'), `I am ${side}, show my board`);
  assert.ok(await page.isHidden('#board'), 'the board is hidden');
  assert.ok(await page.isHidden('#setup'), 'the setup editor is hidden');
  assert.equal(await page.$$eval('[data-square][data-piece]', els => els.length), 0, 'no piece is on any square of the page');
}

// No piece of `army` stands on a square anywhere in the page.
async function expectNoArmy(page, army) {
  const found = await page.$$eval(`[data-square][data-piece^="${army}"], [data-square] .tr-piece.p${army}`, els => els.map(e => e.closest('[data-square]').dataset.square));
  assert.deepEqual(found, [], `no ${SIDES[army]} piece is drawn on a square`);
}

test('Truth hot seat: each army sets up unseen by the other, in the DOM and on the wire', { timeout: 200000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  const page = await newPage(context);
  const traffic = recordTraffic(page);
  const { id, tokens } = await createTruth(page, server.url, { seats: ['me', 'me'] });
  assert.ok(tokens['0'] && tokens['1'], 'this browser holds both seats');

  // Ivory sets up behind her screen: a random arrangement and a swap, so that it is nobody's public one.
  await expectScreen(page, 'Ivory');
  await shot(page, 'truth-hotseat-handover');
  await page.click('#handover-show');
  await page.waitForSelector('#setup .tr-setup[data-seat="0"] [data-piece]');
  await page.click('#setup button[data-act="random"]');
  let ivory = await pieces(page, '#setup');
  const a = Object.keys(ivory).find(sq => ivory[sq] === '0I');
  const b = Object.keys(ivory).find(sq => ivory[sq] === '0L');
  await page.click(`#setup [data-square="${a}"]`);
  await page.click(`#setup [data-square="${b}"]`);
  ivory = await pieces(page, '#setup');
  assert.equal(Object.keys(ivory).length, 41);
  await expectNoArmy(page, 1);
  await page.click('#setup button[data-act="begin"]');

  // Jade's screen, then Jade's editor: the page shows nothing of Ivory's army.
  await expectScreen(page, 'Jade');
  await page.click('#handover-show');
  await page.waitForSelector('#setup .tr-setup[data-seat="1"] [data-piece]');
  const jade = await pieces(page, '#setup');
  assert.ok(Object.values(jade).every(p => p[0] === '1'), 'Jade\'s editor holds only Jade\'s pieces');
  assert.ok(Object.keys(jade).every(sq => Number(sq.slice(1)) >= 10), 'on ranks 10-18');
  await expectNoArmy(page, 0);
  // Jade's side at the bottom of her editor.
  const y10 = (await rectOf(page, '#setup [data-square="a10"] .hit')).y;
  const y18 = (await rectOf(page, '#setup [data-square="a18"] .hit')).y;
  assert.ok(y18 > y10, 'rank 18 at the bottom of Jade\'s editor');
  const text = await page.textContent('body');
  assert.ok(!Object.keys(ivory).some(sq => new RegExp(`\\b${sq}\\b`).test(text)), 'no square of Ivory\'s army is named on the page');
  await shot(page, 'truth-hotseat-jade-setup');

  // On the wire, until Jade's army is in: what the page received for Jade (her token, or none) carries no
  // Ivory piece and no square of Ivory's territory with a piece on it; what it received for Ivory, nothing of
  // Jade's. (The kinds list is public: it holds the suggested arrangements, which Ivory does not use.)
  await traffic.settle();
  const seatOf = (m) => (m.token === tokens['0'] ? 0 : m.token === tokens['1'] ? 1 : null);
  const forJade = traffic.log.filter(m => seatOf(m) !== 0 && !/\/api\/games\/kinds/.test(m.url));
  assert.ok(forJade.some(m => m.kind === 'ws' && seatOf(m) === 1) && forJade.some(m => m.kind === 'http' && seatOf(m) === 1),
    `frames and responses for Jade were read (${forJade.length})`);
  const inIvory = (sq) => Number(sq.slice(1)) <= 9;
  const inJade = (sq) => Number(sq.slice(1)) >= 10;
  for (const m of forJade) {
    const leaks = placementsIn(m.body || '', inIvory);
    assert.deepEqual(leaks, [], `${m.kind} ${m.url} (for ${seatOf(m) === 1 ? 'Jade' : 'no seat'}) carries Ivory's placement: ${leaks.slice(0, 5)}`);
    assert.ok(!/"0[DLNSGI]"/.test(m.body || ''), `${m.kind} ${m.url} names an Ivory piece: ${(m.body || '').slice(0, 300)}`);
  }
  const forIvory = traffic.log.filter(m => seatOf(m) === 0);
  assert.ok(forIvory.some(m => /"0I"/.test(m.body || '')), 'Ivory\'s own view did come by (the check reads the right messages)');
  for (const m of forIvory) {
    assert.deepEqual(placementsIn(m.body || '', inJade), [], `${m.url} (for Ivory) carries a Jade placement`);
    assert.ok(!/"1[DLNSGI]"/.test(m.body || ''), `${m.url} (for Ivory) names a Jade piece`);
  }
  const kindsSeen = traffic.log.find(m => /\/api\/games\/kinds/.test(m.url));
  if (kindsSeen) {
    const pairs = new Set(placementsIn(kindsSeen.body || '', inIvory).map(x => x.replace(/^.*\.([a-q]\d+)=0?/, '$1=')));
    const mineUsed = Object.entries(ivory).filter(([sq, p]) => pairs.has(`${sq}=${p[1]}`)).length;
    assert.ok(mineUsed < 41, 'Ivory\'s arrangement is not the public one');
  }
  await page.click('#setup button[data-act="begin"]');

  // Both armies are in: the board shows them, as the server has them.
  for (let turn = 0; turn < 2; turn++) {
    const seat = turn % 2;
    // Either the hand-over screen comes up for the side to move or (a shell that hides nothing once play
    // has begun) the board is ready for it: wait for one of the two, not for a moment.
    await page.waitForFunction(() => !document.getElementById('handover').classList.contains('hidden') ||
      (document.getElementById('board').dataset.interactive === 'true' && document.querySelector('#board [data-lit="select"]')));
    if (await page.isVisible('#handover')) {
      await expectScreen(page, SIDES[seat]);
      await page.click('#handover-show');
    }
    await waitTurnOrEnd(page);
    const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token: tokens[String(seat)] });
    assert.equal(g.observation.phase, 'play');
    const shown = await pieces(page);
    assert.deepEqual(shown, g.observation.board, `${SIDES[seat]} sees the whole board`);
    assert.ok(Object.values(shown).some(p => p[0] === '0') && Object.values(shown).some(p => p[0] === '1'), 'both armies are drawn');
    if (turn === 0) {
      for (const [sq, p] of Object.entries(ivory)) if (shown[sq]) assert.equal(shown[sq], p, `Ivory's ${sq} as she set it up`);
      await shot(page, 'truth-hotseat-play');
    }
    // Jade's view is turned: her army at the bottom.
    const yLow = (await rectOf(page, '#board [data-square="b1"] .hit')).y;
    const yHigh = (await rectOf(page, '#board [data-square="a18"] .hit')).y;
    assert.ok(seat === 0 ? yLow > yHigh : yHigh > yLow, `${SIDES[seat]}'s army at the bottom`);
    await clickTurn(page);
  }
  assertNoErrors(page);
  await context.close();
});
