// FACET fog of war against the AI (level 1), playing Black (chosen in the lobby): Black's stones at the
// bottom; squares out of sight dimmed, ghosts drawn faded; the page's DOM (attributes, text, labels, the
// move list) holds no enemy stone the seat's observation does not show; moves by clicking (green squares =
// legal destinations); a spectator sees only the Thrones' stones; and once the game is over, every position
// the page showed is checked against the truth (the engine replaying the record): no enemy stone out of
// sight was ever drawn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, waitBoardPly } from './helpers.mjs';
import { createFacet, assertBoardMatches, boardState, waitTurnOrEnd, waitPly, clickMove, game, centre, engineStates, SQUARES } from './facet-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

// Everything the page holds about stones: any attribute value that names a stone, where it is, the labels.
async function domStones(page) {
  return page.evaluate(() => {
    const named = [];
    for (const el of document.querySelectorAll('*')) {
      for (const a of el.attributes) {
        if (/^[01][AM]$/.test(a.value)) named.push({ attr: a.name, value: a.value, square: el.dataset.square || null });
      }
    }
    const labels = Object.fromEntries([...document.querySelectorAll('#board [data-square]')].map(e => [e.dataset.square, e.getAttribute('aria-label')]));
    const stonesDrawn = [...document.querySelectorAll('#board [data-square]')].filter(e => e.querySelector('.fc-stone:not(.ghost)')).map(e => e.dataset.square).sort();
    const moveText = document.getElementById('moves').textContent + ' ' + (document.querySelector('.fc-info') || {}).textContent;
    return { named, labels, stonesDrawn, moveText };
  });
}

function assertNoLeak(dom, obs, events, what) {
  for (const n of dom.named) {
    if (n.attr === 'data-piece') assert.equal(obs.board[n.square], n.value, `${what}: data-piece on ${n.square}`);
    else if (n.attr === 'data-ghost') assert.equal(obs.ghosts[n.square], n.value, `${what}: data-ghost on ${n.square}`);
    else assert.fail(`${what}: a stone is named in ${n.attr}="${n.value}"`);
  }
  assert.deepEqual(dom.stonesDrawn, Object.keys(obs.board).sort(), `${what}: stones drawn`);
  for (const sq of SQUARES) {
    const label = dom.labels[sq];
    if (obs.board[sq]) assert.match(label, /(your|White|Black) (stone|Monarch)/, `${what}: label of ${sq}`);
    else if (obs.ghosts[sq]) assert.match(label, /last seen here/, `${what}: label of ghost ${sq}`);
    else assert.doesNotMatch(label, /stone|Monarch/, `${what}: label of empty ${sq}`);
  }
  // Squares named in the move list and captions: only those the seat's own events name.
  const told = new Set();
  for (const e of events) for (const k of ['from', 'to', 'square']) if (e[k]) told.add(e[k]);
  for (const sq of dom.moveText.match(/\b[a-i][1-9]\b/g) || []) assert.ok(told.has(sq), `${what}: the page names ${sq}, which no event told this seat`);
}

test('FACET fog as Black against the AI: dimmed squares, ghosts, no leaks, Black at the bottom', { timeout: 60000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await newPage(context);
  const { id, tokens } = await createFacet(page, server.url, { side: '1', opponent: 'ai:1', modes: ['fog'] });
  const token = tokens['1'];
  assert.ok(token, 'Black is my seat');
  let g = await game(server.url, id, token);
  assert.deepEqual(g.options.modes, ['fog']);
  assert.deepEqual(g.seats.map(s => s.type), ['ai', 'human']);

  // A spectator sees the Thrones and whatever stands on them, nothing else.
  const spectator = await newPage(await browser.newContext({ viewport: { width: 900, height: 900 } }));
  await spectator.goto(`${server.url}/game.html?id=${id}`);
  await spectator.waitForSelector('#board [data-square="e5"]');

  const shown = []; // what the page showed at each of my turns, for the check against the truth
  let myMoves = 0;
  for (; myMoves < 6; myMoves++) {
    const over = await waitTurnOrEnd(page);
    g = await game(server.url, id, token);
    if (over) break;
    const obs = g.observation;
    assert.ok(Array.isArray(obs.visible) && obs.visible.length < 81, 'the observation has a sight');
    await assertBoardMatches(page, obs, `at ply ${obs.ply}`);
    const dom = await domStones(page);
    assertNoLeak(dom, obs, g.events, `ply ${obs.ply}`);
    const b = await boardState(page);
    shown.push({ ply: obs.ply, pieces: b.pieces, ghosts: b.ghosts, visible: obs.visible });
    if (myMoves === 0) {
      // Black at the bottom, the board turned.
      assert.equal(await page.getAttribute('#board svg', 'data-flipped'), 'true');
      assert.ok((await centre(page, 'e9')).y > (await centre(page, 'e1')).y, 'Black’s home rank at the bottom');
      // Ghosts: White's stones out of sight, remembered from the start.
      assert.ok(Object.keys(obs.ghosts).length > 0, 'the start leaves ghosts');
      assert.ok(Object.values(obs.ghosts).every(p => p[0] === '0'));
      const style = await page.evaluate(() => Number(getComputedStyle(document.querySelector('#board .fc-stone.ghost')).opacity));
      assert.ok(style > 0.2 && style < 0.6, `ghosts are faded (opacity ${style})`);
      const dim = await page.evaluate(() => { const e = document.querySelector('#board .fc-dim'); return [getComputedStyle(e).fill, Number(getComputedStyle(e).opacity)]; });
      assert.ok(dim[1] >= 0.35 && dim[1] <= 0.6, `dimmed but readable (opacity ${dim[1]})`);
      // The dimmed squares still show their terrain.
      assert.ok(await page.$('#board [data-visible="false"][data-tile="T"] .fc-tile-bg'));
      await screenshot(page, 'facet-fog-black-start');
      // The spectator: the Thrones only.
      const sg = await apiJson(server.url, 'GET', `/api/games/${id}`);
      await waitBoardPly(spectator, sg.observation.ply);
      await assertBoardMatches(spectator, sg.observation, 'spectator');
      assert.ok(Object.keys(sg.observation.board).every(sq => ['c5', 'e5', 'g5'].includes(sq)));
      assertNoLeak(await domStones(spectator), sg.observation, sg.events, 'spectator');
    }
    // Prefer a move onto a ghost's square or a slide, to meet the fog's cases.
    const ghostMoves = g.legal.filter(m => obs.ghosts[m.split('-')[1]]);
    const pool = ghostMoves.length && myMoves % 2 ? ghostMoves : g.legal;
    const move = pool[Math.floor(Math.random() * pool.length)];
    await clickMove(page, g.legal, move);
    await waitPly(page, obs.ply + 2);
  }
  await screenshot(page, 'facet-fog-black-later');

  // Resign, then check what the page showed against the truth.
  if (!(await page.isVisible('#banner'))) {
    await page.click('#resign');
    await page.click('#resign-yes');
  }
  await page.waitForSelector('#banner:not(.hidden)');
  await page.waitForSelector('#replay-panel:not(.hidden)');
  const final = await game(server.url, id, token);
  assert.equal(final.observation.visible, undefined, 'once over, the observation is the whole state');
  await assertBoardMatches(page, final.observation, 'once over');
  assert.equal(await page.$$eval('#board .fc-dim', els => els.length), 0, 'nothing dimmed once over');
  const record = await apiJson(server.url, 'GET', `/api/games/${id}/record`);
  const truth = await engineStates(record.options, record.moves);
  for (const s of shown) {
    const t = truth[s.ply].board;
    for (const [sq, p] of Object.entries(s.pieces)) assert.equal(t[sq], p, `ply ${s.ply}: the page drew ${p} on ${sq}`);
    for (const [sq, p] of Object.entries(t)) {
      if (p[0] === '0' && !s.visible.includes(sq)) assert.equal(s.pieces[sq], undefined, `ply ${s.ply}: hidden ${p} on ${sq} was drawn`);
      if (s.visible.includes(sq)) assert.equal(s.pieces[sq], p, `ply ${s.ply}: ${sq} is in sight`);
    }
  }
  // The replay starts from the whole starting position.
  await page.click('#rp-first');
  await page.waitForFunction(() => document.getElementById('replay-panel').dataset.index === '0');
  await assertBoardMatches(page, { board: truth[0].board, terrain: truth[0].terrain, badges: {} }, 'replay start');
  await screenshot(page, 'facet-fog-over');
  assertNoErrors(page);
  assertNoErrors(spectator);
  await context.close();
});
