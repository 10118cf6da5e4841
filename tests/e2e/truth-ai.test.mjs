// The Game of Truth against the AI (level 1), from the lobby: the setup editor (the suggested arrangement,
// a reposition and a swap by clicks, back to the suggested arrangement), Begin game; then turns of two
// actions by clicks for 20 turns or to the end. After every action the board equals the server's
// observation, the lit pieces are exactly the legal origins, the step words say which action is still
// required, Pass shows exactly when `pass` is legal, and every destruction of the last two turns is in the
// log with its cause. Resigning shows the banner; the replay steps through the turns and agrees with the
// positions seen during the game. A second test plays at a 390 px phone width by taps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, apiJson, phoneContext, noSideScroll, waitBoardPly, rulesLinkOf, rectOf } from './helpers.mjs';
import { createTruth, pieces, lit, waitTurnOrEnd, clickAction, tapTurn, expectPhoneBoard, waitSecondOrEnd, waitPlyOrEnd, boardState, shot, isWhite } from './truth-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const origins = (legal) => [...new Set(legal.filter(m => m.includes('-')).map(m => m.split('-')[0]))].sort();

// The page shows exactly what the server says this seat sees.
async function expectInStep(page, id, token, what) {
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  assert.deepEqual(await pieces(page), g.observation.board, `${what}: the board equals the observation`);
  if (g.observation.phase !== 'play' || g.observation.to_move !== 0) return g;
  assert.deepEqual(await lit(page, 'select'), origins(g.legal), `${what}: the lit pieces are the legal origins`);
  assert.equal(await page.isVisible('#pass'), g.legal.includes('pass'), `${what}: Pass shows exactly when pass is legal`);
  const step = await page.textContent('#board .tr-step');
  const o = g.observation;
  const want = o.action === 0 ? 'Move a door, then another piece' : o.door_action_done ? 'Now move any other piece' : 'Now move a door';
  assert.ok(step.includes(want), `${what}: the step says "${want}" (it says "${step}")`);
  assert.equal(await page.getAttribute('#board .tr-wrap', 'data-action'), String(o.action));
  if (g.legal.includes('pass')) assert.match(await page.textContent('#pass'), o.action === 0 ? /Pass blocked turn/ : /End turn/);
  // Scores and sieges as the observation has them.
  assert.equal(await page.getAttribute('#board .tr-scores', 'data-scores'), JSON.stringify(o.scores));
  for (const [sq, n] of Object.entries(o.sieges || {})) assert.equal(await page.getAttribute(`#board [data-square="${sq}"]`, 'data-siege'), String(n), `siege on ${sq}`);
  return g;
}

// Every capture event of the last two turns (as the page groups them) has its line, with its cause.
async function expectCaptureLines(page, g) {
  const lines = await page.$$eval('#board .tr-log li[data-cause]', els => els.filter(e => e.dataset.cause).map(e => ({ cause: e.dataset.cause, square: e.dataset.square, text: e.textContent })));
  const caps = [];
  let turns = 0;
  for (const e of [...g.events].reverse()) {
    if (e.type === 'capture') caps.push(e);
    if ((e.type === 'move' && e.action === 0) || (e.type === 'pass' && e.blocked)) { if (++turns === 2) break; }
  }
  for (const c of caps) {
    const line = lines.find(l => l.square === c.square && l.cause === c.cause);
    assert.ok(line, `a line for the ${c.piece} destroyed on ${c.square} (${c.cause}); lines: ${JSON.stringify(lines)}`);
    assert.match(line.text, new RegExp(`${c.square}`));
  }
  return caps.length;
}

test('Truth against the AI: setup, then turns of two actions by clicks', { timeout: 420000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await newPage(context);
  const { id, tokens } = await createTruth(page, server.url, { seats: ['me', 'ai:1'] });
  const token = tokens['0'];
  assert.equal(await rulesLinkOf(page), '/rules/truth.html');

  // The setup editor: 41 of my pieces on my white squares, none of the other army.
  await page.waitForSelector('#setup .tr-setup[data-seat="0"]');
  const kinds = await apiJson(server.url, 'GET', '/api/games/kinds');
  const suggested = kinds.find(k => k.name === 'truth').arrangements.suggested['0'];
  let mine = await pieces(page, '#setup');
  assert.equal(Object.keys(mine).length, 41);
  assert.ok(Object.entries(mine).every(([sq, p]) => p[0] === '0' && isWhite(sq) && Number(sq.slice(1)) <= 9), 'own pieces on own white squares');
  assert.deepEqual(Object.fromEntries(Object.entries(mine).map(([sq, p]) => [sq, p[1]])), suggested, 'the editor starts from the suggested arrangement');
  // Reposition: a piece, then an empty white square of my territory.
  const from = Object.keys(mine)[0];
  await page.click(`#setup [data-square="${from}"]`);
  const empty = await lit(page, 'target', '#setup');
  assert.ok(empty.length === 76 - 41, `every empty own white square is offered (${empty.length})`);
  await page.click(`#setup [data-square="${empty[0]}"]`);
  mine = await pieces(page, '#setup');
  assert.equal(mine[empty[0]], `0${suggested[from]}`);
  assert.equal(mine[from], undefined);
  // Swap: two pieces of different kinds.
  const a = Object.keys(mine).find(sq => mine[sq] === '0I');
  const b = Object.keys(mine).find(sq => mine[sq] === '0D');
  await page.click(`#setup [data-square="${a}"]`);
  await page.click(`#setup [data-square="${b}"]`);
  mine = await pieces(page, '#setup');
  assert.equal(mine[a], '0D');
  assert.equal(mine[b], '0I');
  await shot(page, 'truth-setup-desktop');
  await page.click('#setup button[data-act="suggested"]');
  assert.deepEqual(Object.fromEntries(Object.entries(await pieces(page, '#setup')).map(([sq, p]) => [sq, p[1]])), suggested);
  await page.click('#setup button[data-act="begin"]');

  // Play: the AI's army was in at once, so play begins; both armies are shown.
  await page.waitForSelector('#board .tr-wrap[data-phase="play"]');
  const seen = new Map(); // ply -> board at the start of my turn
  let turns = 0;
  let captures = 0;
  let capShot = false;
  for (; turns < 20; turns++) {
    if (await waitTurnOrEnd(page)) break;
    let g = await expectInStep(page, id, token, `turn ${turns + 1}, first action`);
    if (turns === 0) {
      assert.ok(Object.values(g.observation.board).some(p => p[0] === '1'), 'Jade\'s army is on the board');
      await shot(page, 'truth-play-desktop');
    }
    seen.set(g.observation.ply, g.observation.board);
    captures += await expectCaptureLines(page, g);
    const { ply } = await boardState(page);
    if (g.legal.includes('pass')) {
      await page.click('#pass');
      await waitPlyOrEnd(page, ply);
      continue;
    }
    const first = await clickAction(page);
    assert.ok(g.legal.includes(first), `${first} is legal`);
    await waitSecondOrEnd(page, ply);
    if ((await boardState(page)).ply > ply || await page.isVisible('#banner')) continue;
    // The first action's effects are on the board before the second is chosen.
    g = await expectInStep(page, id, token, `turn ${turns + 1}, second action`);
    assert.deepEqual(await page.$$eval('#board [data-acted="true"]', els => els.map(e => e.dataset.square)), g.observation.acted, 'the piece moved first is marked');
    const lost = await expectCaptureLines(page, g);
    if (lost && !capShot) { capShot = true; await shot(page, 'truth-capture-desktop'); }
    if (g.legal.includes('pass')) await page.click('#pass');
    else {
      const second = await clickAction(page);
      assert.ok(g.legal.includes(second), `${second} is legal`);
    }
    await waitPlyOrEnd(page, ply);
  }
  assert.ok(turns >= 1, 'at least one turn was played');
  // The move list: one entry per turn, two actions each (a pass or an end of game aside).
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  await waitBoardPly(page, g.observation.ply);
  const listed = await page.$$eval('#moves li .ply', els => els.map(e => e.firstChild.textContent));
  assert.ok(listed.length >= g.observation.ply, `the move list has ${listed.length} entries for ${g.observation.ply} turns`);
  assert.ok(listed.filter(t => /^[a-q]\d+-[a-q]\d+ [a-q]\d+-[a-q]\d+$/.test(t)).length >= Math.min(turns, 5), `turns of two actions: ${listed.slice(0, 6)}`);
  await shot(page, 'truth-after-turns-desktop');

  // Resign; the banner; the replay from both setups, turn by turn.
  if (!(await page.isVisible('#banner'))) {
    await page.click('#resign');
    await page.click('#resign-yes');
  }
  await page.waitForSelector('#banner:not(.hidden)');
  await page.waitForSelector('#replay-panel:not(.hidden)');
  const end = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  assert.equal(end.status, 'over');
  if (end.result.reason === 'resignation') assert.match(await page.textContent('#banner'), /Jade wins — you lost\.\s*Ivory resigned\./);
  await page.click('#rp-first');
  await page.waitForSelector('#replay-panel[data-index="0"]');
  const start = await pieces(page);
  assert.equal(Object.keys(start).length, 82, 'the replay starts from both armies set up');
  const record = await apiJson(server.url, 'GET', `/api/games/${id}/record`);
  const shownMoves = await page.$$eval('#moves li .ply', els => els.map(e => e.firstChild.textContent));
  assert.deepEqual(shownMoves.join(' ').split(' ').filter(t => /^([a-q]\d+-[a-q]\d+|pass)$/.test(t)), record.moves, 'the listed actions are the record\'s');
  const total = await page.$$eval('#moves li', els => els.length);
  let compared = 0;
  for (let i = 1; i <= total; i++) {
    await page.click('#rp-next');
    await page.waitForSelector(`#replay-panel[data-index="${i}"]`);
    const ply = Number(await page.getAttribute('#board .tr-wrap', 'data-ply'));
    if (i < total && seen.has(ply)) {
      assert.deepEqual(await pieces(page), seen.get(ply), `replay after turn ${ply} equals the game`);
      compared++;
    }
  }
  assert.ok(compared >= Math.min(3, turns - 1), `the replay was compared at ${compared} turns`);
  assert.deepEqual(await pieces(page), end.observation.board, 'the replay ends on the final position');
  await shot(page, 'truth-replay-desktop');
  assertNoErrors(page);
  await context.close();
});

test('Truth on a 390 px phone: the board fits, squares are big enough, taps play', { timeout: 240000 }, async () => {
  const context = await phoneContext(browser);
  const page = await newPage(context);
  const { id, tokens } = await createTruth(page, server.url, { seats: ['me', 'ai:1'] });
  await page.waitForSelector('#setup .tr-setup[data-seat="0"] [data-piece]');
  await noSideScroll(page);
  await shot(page, 'truth-setup-phone');
  await page.tap('#setup button[data-act="begin"]');
  await page.waitForSelector('#board .tr-wrap[data-phase="play"]');
  for (let t = 0; t < 3; t++) {
    if (await waitTurnOrEnd(page)) break;
    if (t === 0) {
      // The tap area of a white square is its diamond: twice a square, about 40 px across.
      await expectPhoneBoard(page, { minWidth: 340, square: 'e4', tap: 36 });
      const a = await rectOf(page, '#board [data-square="a18"] .hit');
      const c = await rectOf(page, '#board [data-square="c18"] .hit');
      assert.ok(c.x - a.x >= 38, `squares are at least 19 px wide (${(c.x - a.x) / 2})`);
      const y1 = (await rectOf(page, '#board [data-square="b1"] .hit')).y;
      const y18 = (await rectOf(page, '#board [data-square="a18"] .hit')).y;
      assert.ok(y1 > y18, 'Ivory at the bottom');
      await noSideScroll(page);
      await shot(page, 'truth-play-phone');
      await page.screenshot({ path: '/tmp/truth-shots/truth-play-phone-viewport.png' });
    }
    await tapTurn(page, {
      pick: (targets) => targets[0],
      afterFirst: async () => {
        if (t === 0) await page.screenshot({ path: '/tmp/truth-shots/truth-second-action-phone-viewport.png' });
      },
    });
  }
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token: tokens['0'] });
  assert.ok(g.observation.ply >= 2, 'turns were played by taps');
  // The rules page reads on the phone too.
  await page.goto(server.url + '/rules/truth.html');
  await page.waitForSelector('#diagram svg');
  await noSideScroll(page);
  await page.screenshot({ path: '/tmp/truth-shots/truth-rules-phone-viewport.png' });
  assertNoErrors(page);
  await context.close();
});
