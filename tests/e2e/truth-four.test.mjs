// The Game of Truth for four players, in the browser. (a) One person and three AIs, made in the lobby: the
// setup editor holds one quadrant; turns are played by clicking lit squares for 30 rounds or to the end, and
// every position the page shows has the scores and the army to move of an observation the server sent; at
// each of the person's turns the board, the lit pieces, the turn order and the seats equal the server's.
// (b) Two people in two browsers (the second joins by the invite link), two AIs and a spectator: each person
// plays its turns by clicks, each page has its own corner at the bottom left, the spectator sees every move.
// (c) A hot seat of four: each army sets up behind its own hand-over screen, and until all are in the page
// holds nothing of another army, in the DOM or in any message it receives. (d) A 390×844 phone: the editor
// and the turned board fit the width, and turns are played by taps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, apiJson, phoneContext, noSideScroll } from './helpers.mjs';
import {
  createTruth, pieces, lit, waitTurnOrEnd, clickTurn, tapTurn, expectPhoneBoard, waitSecondOrEnd, waitPlyOrEnd, boardState, shot,
  recordTraffic, placementsIn, quadrantOf, SIDES,
} from './truth-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

// Each army's back corner: the square the viewer's board puts at the bottom left.
const CORNER = ['a1', 'q18', 'q1', 'a18'];
const origins = (legal) => [...new Set(legal.filter(m => m.includes('-')).map(m => m.split('-')[0]))].sort();
const game = (id, token) => apiJson(server.url, 'GET', `/api/games/${id}`, { token });

// The army `seat`'s corner is the lowest and leftmost square drawn under `root`.
async function expectCorner(page, seat, root = '#board') {
  const cells = await page.evaluate((root) => [...document.querySelectorAll(`${root} [data-square] .hit`)].map(e => {
    const r = e.getBoundingClientRect();
    return { sq: e.closest('[data-square]').dataset.square, x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }), root);
  const c = cells.find(e => e.sq === CORNER[seat]);
  assert.ok(c, `${CORNER[seat]} is drawn`);
  assert.ok(cells.every(e => e.x >= c.x - 0.5 && e.y <= c.y + 0.5), `${SIDES[seat]}'s corner ${CORNER[seat]} is at the bottom left`);
}

// What the turn-order line shows: the scores and the army to move, as one key ("[0,0,0,0]|2").
const shownKey = (page) => page.$eval('#board .tr-order', e => `${e.dataset.scores}|${e.dataset.toMove}`);
const obsKey = (o) => `${JSON.stringify(o.scores)}|${o.phase === 'play' ? o.to_move : ''}`;

// The page shows what the server says `token`'s seat sees (a spectator's: no token).
async function expectShown(page, id, token, what) {
  const g = await game(id, token);
  const o = g.observation;
  assert.deepEqual(await pieces(page), o.board, `${what}: the board equals the observation`);
  assert.equal(await shownKey(page), obsKey(o), `${what}: the turn order shows the scores and the army to move`);
  const now = await page.$$eval('#board .tr-order li[data-now="true"]', els => els.map(e => Number(e.dataset.player)));
  assert.deepEqual(now, o.phase === 'play' ? [o.to_move] : [], `${what}: the army to move is marked`);
  assert.deepEqual(await page.$$eval('#board .tr-order li', els => els.map(e => e.textContent.match(/^[A-Za-z]+/)[0])), SIDES, `${what}: the four names in turn order`);
  if (o.phase === 'play') assert.equal(await page.getAttribute('#seats li.to-move', 'data-seat'), String(o.to_move), `${what}: the seats mark the army to move`);
  for (const [sq, n] of Object.entries(o.sieges || {})) assert.equal(await page.getAttribute(`#board [data-square="${sq}"]`, 'data-siege'), String(n), `${what}: siege on ${sq}`);
  for (const p of o.transformed || []) assert.ok(await page.isVisible(`#board .tr-order li[data-player="${p}"] .tr-tag.transformed`), `${what}: ${SIDES[p]} is shown transformed`);
  if ((await boardState(page)).interactive) {
    assert.deepEqual(await lit(page, 'select'), origins(g.legal), `${what}: the lit pieces are the legal origins`);
    assert.equal(await page.isVisible('#pass'), g.legal.includes('pass'), `${what}: Pass shows exactly when pass is legal`);
  } else assert.deepEqual(await lit(page, 'select'), [], `${what}: nothing is lit`);
  return g;
}

// Records every change of the turn-order line (scores, army to move) from now on, in the page.
async function watchOrder(page) {
  await page.evaluate(() => {
    window.__shown = [];
    const note = () => {
      const o = document.querySelector('#board .tr-order');
      if (!o || !o.dataset.scores) return;
      const key = `${o.dataset.scores}|${o.dataset.toMove}`;
      if (window.__shown[window.__shown.length - 1] !== key) window.__shown.push(key);
    };
    new MutationObserver(note).observe(document.getElementById('board'), { subtree: true, childList: true, attributes: true, attributeFilter: ['data-scores', 'data-to-move'] });
    note();
  });
}

// Every key the page showed is that of an observation the server sent it (an update, a read, a move's answer).
async function expectShownWereSent(page, traffic) {
  await traffic.settle();
  const sent = new Set();
  for (const m of traffic.log) {
    let j;
    try { j = JSON.parse(m.body || ''); } catch { continue; }
    if (j && j.observation && j.observation.scores) sent.add(obsKey(j.observation));
  }
  const shown = await page.evaluate(() => window.__shown);
  assert.ok(shown.length > 1, `the turn order changed ${shown.length} times`);
  const strays = shown.filter(k => !sent.has(k));
  assert.deepEqual(strays, [], `every turn order shown was one the server sent (${shown.length} shown, ${sent.size} sent)`);
  return shown.length;
}

// The seat's editor: 41 own pieces in its own quadrant, nothing of any other army, its corner at the bottom
// left; one piece moved to an empty square of the quadrant (every one offered).
async function checkEditor(page, seat) {
  await page.waitForSelector(`#setup .tr-setup[data-seat="${seat}"][data-players="4"] [data-piece]`);
  let mine = await pieces(page, '#setup');
  assert.equal(Object.keys(mine).length, 41);
  assert.ok(Object.entries(mine).every(([sq, p]) => p[0] === String(seat) && quadrantOf(sq) === seat), `${SIDES[seat]}'s pieces in ${SIDES[seat]}'s quadrant only`);
  await expectCorner(page, seat, '#setup');
  const from = Object.keys(mine).sort()[0];
  const moved = mine[from];
  await page.click(`#setup [data-square="${from}"]`);
  const empty = await lit(page, 'target', '#setup');
  assert.equal(empty.length, 72 - 41, 'every empty square of the quadrant is offered');
  assert.ok(empty.every(sq => quadrantOf(sq) === seat));
  await page.click(`#setup [data-square="${empty[0]}"]`);
  mine = await pieces(page, '#setup');
  assert.equal(mine[empty[0]], moved, `the ${moved} went to ${empty[0]}`);
  assert.equal(mine[from], undefined, `the piece left ${from}`);
  return mine;
}

// Begin: with the server's suggested arrangement where the editor offers it, else the arrangement shown.
async function begin(page) {
  const server = await page.$('#setup button[data-act="server-arrangement"][data-name="suggested"]');
  if (server) await server.click();
  else {
    await page.click('#setup button[data-act="suggested"]');
    await page.click('#setup button[data-act="begin"]');
  }
}

test('four players: one person against three AIs, by clicks, every update as the server sent it', { timeout: 900000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await newPage(context);
  const traffic = recordTraffic(page);
  const { id, tokens } = await createTruth(page, server.url, { seats: ['me', 'ai:1', 'ai:2', 'ai:1'] });
  const token = tokens['0'];
  let g = await game(id, token);
  assert.deepEqual(g.options, { players: 4, max_plies: 2000 }, 'the lobby made a game for four');
  assert.deepEqual(g.seats.map(s => s.type === 'ai' ? `ai:${s.level}` : s.type), ['human', 'ai:1', 'ai:2', 'ai:1']);

  await checkEditor(page, 0);
  await shot(page, 'truth-four-setup');
  await begin(page);
  await page.waitForSelector('#board .tr-wrap[data-phase="play"]');
  await watchOrder(page);

  let turns = 0;
  for (; turns < 30; turns++) {
    if (await waitTurnOrEnd(page)) break;
    g = await expectShown(page, id, token, `my turn ${turns + 1}`);
    assert.equal(g.observation.to_move, 0);
    if (turns === 0) {
      assert.equal(Object.keys(g.observation.board).length > 120, true, 'four armies on the board');
      await expectCorner(page, 0);
      await shot(page, 'truth-four-play');
    }
    await clickTurn(page, {
      afterFirst: async () => {
        // The first action's effects are on the board before the second is chosen.
        const g1 = await expectShown(page, id, token, `my turn ${turns + 1}, second action`);
        assert.deepEqual(await page.$$eval('#board [data-acted="true"]', els => els.map(e => e.dataset.square)), g1.observation.acted);
      },
    });
  }
  const changes = await expectShownWereSent(page, traffic);
  await shot(page, 'truth-four-after-turns');

  // The end: as it came, or a resignation, which every other army wins together.
  if (!(await page.isVisible('#banner'))) {
    await page.click('#resign');
    await page.click('#resign-yes');
  }
  await page.waitForSelector('#banner:not(.hidden)');
  const end = await game(id, token);
  const w = end.result.winners;
  const head = await page.textContent('#banner strong');
  if (w.length > 1) assert.match(head, new RegExp(`${w.slice(0, -1).map(p => SIDES[p]).join(', ')} and ${SIDES[w[w.length - 1]]} share the victory`));
  if (end.result.reason === 'resignation') {
    assert.equal(head, 'Jade, Ember and Indigo share the victory — you lost.');
    assert.match(await page.textContent('#banner .reason'), /Ivory resigned\./);
  }
  await shot(page, 'truth-four-over');
  // The replay starts from the four armies as they were set up.
  await page.waitForSelector('#replay-panel:not(.hidden)');
  await page.click('#rp-first');
  await page.waitForSelector('#replay-panel[data-index="0"]');
  assert.equal(Object.keys(await pieces(page)).length, 4 * 41, 'the replay starts from four armies');
  await page.click('#rp-last');
  await page.waitForSelector('#replay-panel:not([data-index="0"])');
  assert.deepEqual(await pieces(page), end.observation.board, 'the replay ends on the final position');
  console.log(`# ${turns} turns of mine, ${end.observation.ply} turns in all, ${changes} turn-order changes shown, ${end.result.reason}`);
  assertNoErrors(page);
  await context.close();
});

test('four players: two people in two browsers, two AIs and a spectator', { timeout: 400000 }, async () => {
  const ctxA = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  const ctxB = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  const ctxS = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  const A = await newPage(ctxA);
  const B = await newPage(ctxB);
  const S = await newPage(ctxS);
  const { id, tokens } = await createTruth(A, server.url, { seats: ['me', 'ai:1', 'open', 'ai:2'] });
  await A.waitForSelector('#invites input[data-seat="2"]');
  const link = await A.inputValue('#invites input[data-seat="2"]');
  await B.goto(link);
  await B.waitForSelector('#join:not(.hidden)');
  assert.equal(await B.textContent('#join-title'), 'Join as Ember');
  await B.fill('#join-name', 'Bo');
  await B.click('#join-button');
  await B.waitForSelector('#setup .tr-setup[data-seat="2"]');
  const tokenB = await B.evaluate((id) => JSON.parse(localStorage.getItem(`tabula:game:${id}`)).tokens['2'], id);
  assert.ok(tokenB, 'Ember\'s page holds its token');
  const tokenOf = { 0: tokens['0'], 2: tokenB };

  // The spectator sees no army during the setup.
  await S.goto(`${server.url}/game.html?id=${id}`);
  await S.waitForSelector('#board .tr-wrap');
  assert.equal(Object.keys(await pieces(S)).length, 0, 'the spectator sees no army while they are set up');
  assert.match(await S.textContent('#status'), /You are watching/);

  await checkEditor(B, 2);
  await begin(B);
  await B.waitForSelector('#setup .tr-setup-waiting:not(.hidden)');
  assert.match(await B.textContent('#setup .tr-wait'), /Waiting for the other armies/);
  await A.waitForSelector('#setup .tr-setup[data-seat="0"]');
  await begin(A);
  for (const page of [A, B, S]) await page.waitForSelector('#board .tr-wrap[data-phase="play"]');
  await expectCorner(A, 0);
  await expectCorner(B, 2);
  await expectCorner(S, 0);
  assert.equal(await S.getAttribute('#board svg.tr-board', 'data-turn'), '0', 'the spectator sees Ivory\'s view');

  // Rounds: Ivory clicks, Jade (AI), Ember clicks, Indigo (AI). After each person's turn the spectator's
  // move list has it; while a person is to move (nothing else moves) the spectator's board is the server's.
  for (let round = 0; round < 4; round++) {
    for (const [seat, page] of [[0, A], [2, B]]) {
      if (await waitTurnOrEnd(page)) break;
      await expectShown(page, id, tokenOf[seat], `round ${round + 1}, ${SIDES[seat]}`);
      const g = await game(id, null);
      await S.waitForFunction((o) => {
        const w = document.querySelector('#board .tr-wrap');
        return w && w.dataset.ply === String(o.ply) && w.dataset.action === String(o.action);
      }, g.observation);
      await expectShown(S, id, null, `round ${round + 1}, the spectator while ${SIDES[seat]} thinks`);
      if (round === 0 && seat === 2) {
        await shot(B, 'truth-four-ember');
        await shot(S, 'truth-four-spectator');
      }
      const actions = await clickTurn(page);
      await S.waitForFunction(({ who, text }) => [...document.querySelectorAll('#moves li')]
        .some(li => li.querySelector('.who').textContent === who && li.querySelector('.ply').firstChild.textContent === text),
      { who: SIDES[seat], text: actions.join(' ') });
    }
    if (await A.isVisible('#banner')) break;
  }
  assert.equal(await S.$$eval('#board [data-lit]', els => els.length), 0, 'nothing is lit for the spectator');
  assert.ok(await S.isHidden('#resign'), 'the spectator cannot resign');
  assert.equal(await S.$$eval('#board button[data-offer]', els => els.length), 0, 'the spectator cannot agree to anything');
  for (const page of [A, B, S]) assertNoErrors(page);
  await ctxA.close();
  await ctxB.close();
  await ctxS.close();
});

test('four players, one device: each army sets up unseen by the other three, in the DOM and on the wire', { timeout: 300000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  const page = await newPage(context);
  const traffic = recordTraffic(page);
  const { id, tokens } = await createTruth(page, server.url, { seats: ['me', 'me', 'me', 'me'] });
  assert.deepEqual(Object.keys(tokens).sort(), ['0', '1', '2', '3'], 'this browser holds the four seats');
  const seatOf = (m) => { const i = Object.values(tokens).indexOf(m.token); return i < 0 ? null : Number(Object.keys(tokens)[i]); };

  const armies = {};
  let checked = 0;
  for (let seat = 0; seat < 4; seat++) {
    // The screen: nothing of any army anywhere in the page.
    await page.waitForSelector('#handover:not(.hidden)');
    await page.waitForFunction((side) => document.getElementById('handover-title').textContent === `Pass the device to ${side}`, SIDES[seat]);
    assert.equal(await page.textContent('#handover-show'), `I am ${SIDES[seat]}, show my board`);
    assert.ok(await page.isHidden('#board') && await page.isHidden('#setup'), 'board and editor hidden');
    assert.equal(await page.$$eval('[data-square][data-piece], .tr-piece', els => els.length), 0, 'no piece anywhere in the page');
    if (seat === 1) await shot(page, 'truth-four-hotseat-handover');
    await page.click('#handover-show');
    await checkEditor(page, seat);
    await page.click('#setup button[data-act="random"]');
    const mine = await pieces(page, '#setup');
    // (The legend under the editor shows every colour's glyphs; on the board only the seat's own pieces.)
    const others = await page.$$eval(`[data-square][data-piece]:not([data-piece^="${seat}"]), #setup svg.tr-setup-board .tr-piece:not(.p${seat})`, els => els.length);
    assert.equal(others, 0, `${SIDES[seat]}'s editor draws no other army`);
    const text = await page.textContent('body');
    for (const [p, army] of Object.entries(armies)) {
      assert.ok(!Object.keys(army).some(sq => new RegExp(`\\b${sq}\\b`).test(text)), `no square of ${SIDES[p]}'s army is named on ${SIDES[seat]}'s page`);
    }
    if (seat === 2) await shot(page, 'truth-four-hotseat-ember-setup');
    armies[seat] = mine;

    // On the wire: what the page received for this seat (its token) or for nobody carries no piece of
    // another army and no placement in another quadrant; the kinds list is public and has no four-player
    // arrangement. Checked up to the last army's Begin (after it everything is revealed).
    await traffic.settle();
    const fresh = traffic.log.slice(checked);
    // (The check reads the right messages: the army set up last came back to its own seat.)
    if (seat > 0) assert.ok(fresh.some(m => seatOf(m) === seat - 1 && new RegExp(`"${seat - 1}I"`).test(m.body || '')), `${SIDES[seat - 1]}'s own view came by`);
    for (const m of fresh) {
      if (/\/api\/games\/kinds/.test(m.url)) continue;
      const s = seatOf(m);
      const body = m.body || '';
      const leaks = placementsIn(body, (sq) => quadrantOf(sq) !== s);
      assert.deepEqual(leaks, [], `${m.kind} ${m.url} (for ${s === null ? 'no seat' : SIDES[s]}) carries another army's placement: ${leaks.slice(0, 5)}`);
      const named = (body.match(/"[0-3][DLNSGI]"/g) || []).filter(x => Number(x[1]) !== s);
      assert.deepEqual(named, [], `${m.kind} ${m.url} (for ${s === null ? 'no seat' : SIDES[s]}) names another army's piece`);
    }
    checked = traffic.log.length;
    await page.click('#setup button[data-act="begin"]');
  }

  // All four are in: one board, no screen, every army as it was set up (save what the start destroyed).
  await page.waitForSelector('#board .tr-wrap[data-phase="play"]');
  await waitTurnOrEnd(page);
  assert.ok(await page.isHidden('#handover'), 'no hand-over once every army is in');
  const g = await game(id, tokens['0']);
  const shown = await pieces(page);
  assert.deepEqual(shown, g.observation.board);
  for (let p = 0; p < 4; p++) {
    assert.ok(Object.values(shown).some(x => x[0] === String(p)), `${SIDES[p]}'s army is drawn`);
    for (const [sq, x] of Object.entries(armies[p])) if (shown[sq]) assert.equal(shown[sq], x, `${SIDES[p]}'s ${sq} as set up`);
  }
  await shot(page, 'truth-four-hotseat-play');
  // A round on the one board, which turns to the army to move.
  for (let t = 0; t < 4; t++) {
    if (await waitTurnOrEnd(page)) break;
    const o = (await game(id, tokens['0'])).observation;
    await expectShown(page, id, tokens[String(o.to_move)], `hot seat, ${SIDES[o.to_move]}`);
    await expectCorner(page, o.to_move);
    await clickTurn(page);
  }
  assertNoErrors(page);
  await context.close();
});

test('four players on a 390×844 phone: the editor and the turned board fit, taps play', { timeout: 300000 }, async () => {
  const context = await phoneContext(browser);
  const page = await newPage(context);
  const { id, tokens } = await createTruth(page, server.url, { seats: ['ai:1', 'ai:1', 'me', 'ai:1'] });
  await page.waitForSelector('#setup .tr-setup[data-seat="2"] [data-piece]');
  await noSideScroll(page);
  await expectCorner(page, 2, '#setup');
  await shot(page, 'truth-four-setup-phone');
  await page.tap('#setup button[data-act="random"]');
  await page.tap('#setup button[data-act="begin"]');
  await page.waitForSelector('#board .tr-wrap[data-phase="play"]');
  for (let t = 0; t < 3; t++) {
    if (await waitTurnOrEnd(page)) break;
    if (t === 0) {
      await expectPhoneBoard(page, { minWidth: 350, square: 'n2', tap: 19 });
      await expectCorner(page, 2);
      await noSideScroll(page);
      await shot(page, 'truth-four-play-phone');
      await shot(page, 'truth-four-play-phone-viewport', { full: false });
    }
    await tapTurn(page);
  }
  const g = await game(id, tokens['2']);
  assert.ok(g.observation.ply >= 4 || g.status === 'over', 'turns were played by taps');
  assertNoErrors(page);
  await context.close();
});

test('four players: the placements the server sends for the variant start the editor and draw the rules page', { timeout: 120000 }, async () => {
  // The four suggested arrangements as the server places them (four seats, each asking for "suggested").
  const made = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'truth', options: { players: 4 }, seats: SIDES.map(name => ({ type: 'human', name })) },
  });
  for (const t of Object.values(made.tokens)) await apiJson(server.url, 'POST', `/api/games/${made.id}/setup`, { body: { arrangement: 'suggested' }, token: t });
  const board = (await game(made.id, null)).observation.board;
  const suggested = {};
  for (const [sq, p] of Object.entries(board)) (suggested[p[0]] ??= {})[sq] = p[1];
  assert.deepEqual(Object.keys(suggested).sort(), ['0', '1', '2', '3']);

  // The server's four-player variant carries those placements, seat by seat.
  const kinds = await apiJson(server.url, 'GET', '/api/games/kinds');
  const variant = kinds.find(k => k.name === 'truth').variants.find(v => v.players === 4);
  assert.deepEqual(variant.placements, { suggested });
  const context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  const page = await newPage(context);
  await createTruth(page, server.url, { seats: ['ai:1', 'ai:1', 'ai:1', 'me'] });
  await page.waitForSelector('#setup .tr-setup[data-seat="3"][data-players="4"] [data-piece]');
  const shown = Object.fromEntries(Object.entries(await pieces(page, '#setup')).map(([sq, p]) => [sq, p[1]]));
  assert.deepEqual(shown, suggested['3'], 'Indigo\'s editor starts from the suggested arrangement');
  assert.equal(await page.$$eval('#setup button[data-act="server-arrangement"]', els => els.length), 0, 'nothing left for the server to place');
  await page.click('#setup button[data-act="random"]');
  await page.click('#setup button[data-act="suggested"]');
  assert.deepEqual(Object.fromEntries(Object.entries(await pieces(page, '#setup')).map(([sq, p]) => [sq, p[1]])), suggested['3']);
  await page.goto(server.url + '/rules/truth.html');
  await page.waitForSelector('#diagram-four[data-arrangement="suggested"]');
  assert.equal(await page.$$eval('#diagram-four .tr-piece', els => els.length), 4 * 41, 'the rules page draws the four armies');
  await page.$eval('#diagram-four', e => e.scrollIntoView());
  await shot(page, 'truth-four-rules-diagram', { full: false });
  assertNoErrors(page);
  await context.close();
});
