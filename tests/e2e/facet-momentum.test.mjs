// FACET with momentum against the AI (level 1), played by clicks: the board equals the observation after
// every move (stones, terrain, badges), the lit stones are the legal origins and the green squares the legal
// destinations of the clicked stone, a momentum badge appears on a stone that left a special tile, a draw
// offer gets the AI's answer, the game ends (the AI's acceptance, or a resignation), the banner gives the
// reason, and the replay matches the engine's positions move by move.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, rulesLinkOf } from './helpers.mjs';
import { createFacet, assertBoardMatches, boardState, waitTurnOrEnd, waitPly, clickMove, engineStates, game, centre } from './facet-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('FACET momentum against the AI: clicks, green targets, badges, a draw offer, the end and the replay', { timeout: 60000 }, async (t) => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await newPage(context);
  const { id, tokens } = await createFacet(page, server.url, { side: '0', opponent: 'ai:1', modes: ['momentum'] });
  const token = tokens['0'];
  assert.ok(token, 'White is my seat');
  assert.equal(await rulesLinkOf(page), '/rules/facet.html');
  let g = await game(server.url, id, token);
  assert.deepEqual(g.options.modes, ['momentum']);
  assert.deepEqual(g.seats.map(s => s.type), ['human', 'ai']);

  // White at the bottom: rank 1 is drawn below rank 9.
  assert.ok((await centre(page, 'e1')).y > (await centre(page, 'e9')).y, 'White’s home rank is at the bottom');

  let badgeSeen = false;
  let myMoves = 0;
  let over = false;
  for (; myMoves < 12; myMoves++) {
    over = await waitTurnOrEnd(page);
    g = await game(server.url, id, token);
    await assertBoardMatches(page, g.observation, `after ${myMoves} moves`);
    if (over) break;
    const b = await boardState(page);
    const litFroms = Object.entries(b.lit).filter(([, k]) => k === 'select').map(([sq]) => sq).sort();
    assert.deepEqual(litFroms, [...new Set(g.legal.map(m => m.split('-')[0]))].sort(), 'lit stones are the legal origins');
    // Prefer a stone on a special tile (so that it earns a badge) moving onto a Field.
    const terrain = g.observation.terrain;
    const special = g.legal.filter(m => terrain[m.split('-')[0]] && !terrain[m.split('-')[1]] && g.observation.board[m.split('-')[0]] === '0A');
    const pool = !badgeSeen && special.length ? special : g.legal;
    const move = pool[Math.floor(Math.random() * pool.length)];
    const ply = g.observation.ply;
    await clickMove(page, g.legal, move);
    const [from, to] = move.split('-');
    await waitPly(page, ply + 2);
    if (!badgeSeen && terrain[from]) {
      // My stone left a special tile: it keeps that move through the AI's answer until my next move ends.
      const after = await game(server.url, id, token);
      if (after.observation.board[to] === '0A' && after.observation.phase === 'play') {
        assert.equal(after.observation.badges[to], terrain[from], 'the server gives the badge');
        await page.waitForSelector(`#board [data-square="${to}"][data-badge="${terrain[from]}"] .fc-badge`);
        badgeSeen = true;
        await screenshot(page, 'facet-momentum-badge');
      }
    }
  }
  // The last move's wait ends on the AI's answer or on the game's end (a Monarch taken): which, only a fresh
  // look says (offering a draw in a finished game found no button to click).
  if (!over) over = await waitTurnOrEnd(page);
  assert.ok(badgeSeen || over, 'a momentum badge was drawn');

  if (!over) {
    // A draw offer: the AI answers it (accepting only when it does not stand better).
    await page.click('#offer-draw');
    // The AI may answer before the page ever shows "waiting for Black's answer": an acceptance ends the game
    // at once (no offer text is left), a refusal leaves "Black declined the draw".
    await page.waitForFunction(() => !document.getElementById('banner').classList.contains('hidden') ||
      document.querySelector('#offers [data-declined-by="1"]'), null, { timeout: 20000 });
    await screenshot(page, 'facet-momentum-offer-answer');
    g = await game(server.url, id, token);
    const offers = g.events.filter(e => e.type === 'offer');
    assert.deepEqual(offers[0], { type: 'offer', player: 0, what: 'draw' });
    assert.equal(offers[1].player, 1, 'the AI answered');
    t.diagnostic(`the AI answered the draw offer: ${offers[1].what}`);
    if (offers[1].what === 'accept') {
      assert.match(await page.textContent('#banner'), /Draw/);
      assert.match(await page.textContent('#banner'), /agreement/);
    } else {
      assert.equal(offers[1].what, 'decline');
      assert.equal(g.observation.draw_offer, null);
      assert.match(await page.textContent('#offers'), /Black declined the draw/);
      await page.click('#resign');
      await page.click('#resign-yes');
    }
  }
  await page.waitForSelector('#banner:not(.hidden)');
  const final = await apiJson(server.url, 'GET', `/api/games/${id}`);
  const reason = final.observation.result.reason;
  t.diagnostic(`the game ended by ${reason} after ${final.observation.ply} plies`);
  const words = { resignation: /White resigned/, agreement: /Drawn by agreement/, regicide: /Monarch \(regicide\)/,
    elimination: /bare Monarch \(elimination\)/, coronation: /every Throne.*\(coronation\)/, stalemate: /\(stalemate\)/ };
  assert.match(await page.textContent('#banner'), words[reason], `the banner gives the reason (${reason})`);
  await page.waitForSelector('#replay-panel:not(.hidden)');
  await screenshot(page, 'facet-momentum-over');

  // The replay, step by step, against the engine's own positions for the recorded moves.
  const record = await apiJson(server.url, 'GET', `/api/games/${id}/record`);
  const states = await engineStates(record.options, record.moves);
  assert.equal(states.length, record.moves.length + 1);
  await page.click('#rp-first');
  await page.waitForFunction(() => document.getElementById('replay-panel').dataset.index === '0');
  const moveItems = await page.$$eval('#moves li', els => els.length);
  assert.ok(moveItems >= record.moves.length);
  for (let i = 0; i <= record.moves.length; i++) {
    if (i > 0) {
      await page.click('#rp-next');
      await page.waitForFunction((i) => document.getElementById('replay-panel').dataset.index === String(i), i);
    }
    const s = states[i];
    await assertBoardMatches(page, { board: s.board, terrain: s.terrain, badges: s.badges }, `replay step ${i}`);
    if (i === 3) await screenshot(page, 'facet-momentum-replay-3');
  }
  // The list's moves are the record's.
  const listed = await page.$$eval('#moves li .ply', els => els.map(e => e.firstChild.textContent));
  assert.deepEqual(listed.slice(0, record.moves.length), record.moves);
  if (!(await page.isDisabled('#rp-last'))) await page.click('#rp-last');
  await assertBoardMatches(page, final.observation, 'the last replay step');
  assertNoErrors(page);
  await context.close();
});
