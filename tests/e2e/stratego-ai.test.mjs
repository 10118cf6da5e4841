// Stratego against the AI (level 1): the setup editor (named setup, random, a swap, save), Ready, then
// moves by clicking, one by dragging, illegal drops that snap back with a reason and send nothing, a
// battle shown and written down, the trays, and the full reveal once the game is over.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, rulesLinkOf, rectOf } from './helpers.mjs';
import { createStratego, pieces, drag, center, waitSquareAt, waitTurnOrEnd, clickMove, NAMES } from './stratego-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('Stratego against the AI: set up, click and drag moves, battles, resign, full reveal', { timeout: 280000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await newPage(context);
  const posts = [];
  page.on('request', r => { if (r.method() === 'POST') posts.push(new URL(r.url()).pathname); });
  const { id, tokens } = await createStratego(page, server.url, { seats: ['me', 'ai:1'], memoryAid: true });
  const token = tokens['0'];
  assert.ok(token, 'the token is stored');
  assert.equal(await rulesLinkOf(page), '/rules/stratego.html');

  // --- Setup ---------------------------------------------------------------------------------
  await page.waitForSelector('#setup .st-setup [data-square="a1"]');
  assert.ok(await page.isHidden('#board'), 'the board is hidden while the editor is shown');
  let placed = await pieces(page, '#setup');
  assert.equal(Object.keys(placed).length, 40, 'the editor starts with 40 pieces');
  assert.ok(Object.keys(placed).every(sq => Number(sq.slice(1)) <= 4), 'all on ranks 1-4');
  // A named setup from the server, when it offers some.
  const kinds = await apiJson(server.url, 'GET', '/api/games/kinds');
  const named = Object.keys((kinds.find(k => k.name === 'stratego') || {}).arrangements || {});
  if (named.length) {
    await page.selectOption('#setup [data-role="named"]', named[0]);
    await page.click('#setup button[data-act="named"]');
    const want = kinds.find(k => k.name === 'stratego').arrangements[named[0]]['0'];
    placed = await pieces(page, '#setup');
    for (const [sq, v] of Object.entries(want)) assert.equal(placed[sq], `0${v.slice(-1)}`, `named setup on ${sq}`);
  }
  await page.click('#setup button[data-act="random"]');
  placed = await pieces(page, '#setup');
  const counts = {};
  for (const p of Object.values(placed)) counts[p] = (counts[p] || 0) + 1;
  assert.deepEqual(counts, { '0M': 1, '0G': 1, '0C': 2, '0J': 3, '0P': 4, '0L': 4, '0T': 4, '0N': 5, '0O': 8, '0S': 1, '0B': 6, '0F': 1 });
  // Swap two different pieces by clicking one then the other.
  const [sa, sb] = Object.keys(placed).filter((sq, _, all) => placed[sq] !== placed[all[0]] || sq === all[0]).slice(0, 2);
  await page.click(`#setup [data-square="${sa}"]`);
  await page.click(`#setup [data-square="${sb}"]`);
  const swapped = await pieces(page, '#setup');
  assert.equal(swapped[sa], placed[sb]);
  assert.equal(swapped[sb], placed[sa]);
  // ... and two more by dragging one onto the other.
  const [sc, sd] = ['a4', 'j1'];
  await drag(page, sc, sd, '#setup');
  const dragged = await pieces(page, '#setup');
  assert.equal(dragged[sc], swapped[sd]);
  assert.equal(dragged[sd], swapped[sc]);
  // Save it under a name; it is kept in localStorage from Red's (player 0's) side.
  await page.fill('#setup [data-role="save-name"]', 'e2e wall');
  await page.click('#setup button[data-act="save"]');
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('tabula:stratego:setups')));
  assert.equal(Object.keys(saved['e2e wall']).length, 40);
  assert.equal(saved['e2e wall'][sa], dragged[sa].slice(1));
  await screenshot(page, 'st-a-setup');
  const before = posts.length;
  await page.click('#setup button[data-act="ready"]');
  // The AI set up at once, so play begins: the editor gives way to the board.
  await page.waitForSelector('#board:not(.hidden) [data-square="a1"]');
  assert.equal(posts.slice(before).filter(p => p.endsWith('/setup')).length, 1, 'Ready posts the setup once');
  let g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  assert.equal(g.observation.phase, 'play');
  for (const [sq, p] of Object.entries(dragged)) assert.equal(g.observation.board[sq], p, `the server holds my setup on ${sq}`);

  // --- Play ----------------------------------------------------------------------------------
  let myMoves = 0;
  let battles = 0;
  let dragged1 = false;
  let illegal = 0;
  let battleShot = false;
  for (; myMoves < 40; myMoves++) {
    const over = await waitTurnOrEnd(page);
    g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
    // The board shows exactly my observation: my pieces face up, the enemy's face down (or known).
    assert.deepEqual(await pieces(page), g.observation.board, `board after ${myMoves} moves`);
    if (over) break;
    // Every lit piece has a legal move.
    const lit = await page.$$eval('#board [data-lit="select"]', els => els.map(e => e.dataset.square));
    const froms = new Set(g.legal.map(m => m.split('-')[0]));
    assert.deepEqual(new Set(lit), froms, 'the lit pieces are exactly those with legal moves');
    const ply = g.observation.ply;

    if (illegal === 0) {
      // Illegal drops: a Bomb dragged anywhere, and a piece dropped on its own neighbour.
      const bombs = Object.entries(g.observation.board).filter(([, p]) => p === '0B').map(([sq]) => sq);
      const n = posts.length;
      const bomb = bombs[0];
      const to = bomb[0] === 'a' ? `b${bomb.slice(1)}` : `a${bomb.slice(1)}`;
      await drag(page, bomb, to);
      await page.waitForSelector('.st-reason:not(:empty)');
      assert.match(await page.textContent('.st-reason'), /a Bomb never moves/i);
      await screenshot(page, 'st-a-illegal-drop');
      assert.equal((await pieces(page))[bomb], '0B', 'the Bomb snapped back');
      // Onto a lake: the piece on c4 or d4 (in front of the left lake) if it is movable.
      const lakeFront = ['c4', 'd4', 'g4', 'h4'].find(sq => !['0B', '0F'].includes(g.observation.board[sq]));
      if (lakeFront) {
        await drag(page, lakeFront, `${lakeFront[0]}5`);
        await page.waitForFunction(() => /lake/.test(document.querySelector('.st-reason').textContent));
      }
      // A Marshal, General... moving two squares (any non-Scout piece in rank 4 with an empty rank 5/6 ahead).
      const far = Object.entries(g.observation.board).find(([sq, p]) => p[0] === '0' && sq.endsWith('4') && !'OBF'.includes(p[1]) &&
        !['c', 'd', 'g', 'h'].includes(sq[0]));
      if (far) {
        await drag(page, far[0], `${far[0][0]}6`);
        await page.waitForFunction(() => /moves one square/.test(document.querySelector('.st-reason').textContent));
      }
      assert.equal(posts.length, n, 'an illegal drop sends nothing');
      assert.deepEqual(await pieces(page), g.observation.board, 'the board is unchanged after illegal drops');
      illegal++;
    }

    let move;
    if (!dragged1 && myMoves >= 1) {
      // One move by drag and drop.
      move = g.legal[Math.floor(Math.random() * g.legal.length)];
      const [from, to] = move.split('-');
      await drag(page, from, to);
      dragged1 = true;
    } else {
      move = await clickMove(page, { attack: myMoves >= 4 });
    }
    assert.ok(g.legal.includes(move), `${move} is legal`);
    // Our move and the AI's answer (or the end).
    await page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) >= p + 2 ||
      !document.getElementById('banner').classList.contains('hidden'), ply, { timeout: 30000 });
    // A battle in the last two plies: a line under the board (both pieces drawn) and the move list show it.
    const list = await page.$$eval('#moves .detail', els => els.map(e => e.textContent));
    if (list.length > battles) {
      battles = list.length;
      const line = await page.$('.st-caption .st-caption-line');
      if (!battleShot && line) {
        const text = await line.textContent();
        assert.ok(NAMES.some(n => text.includes(n)), `the battle line names the pieces: ${text}`);
        assert.equal(await page.$$eval('.st-caption .st-caption-line:first-child .st-cap-piece', els => els.length), 2);
        await screenshot(page, 'st-a-battle');
        battleShot = true;
      }
      assert.match(await page.textContent('.st-caption'), /Battle: (Red|Blue) /);
    }
    if (myMoves >= 14 && battles > 0) { myMoves++; break; }
  }
  g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  assert.ok(g.observation.ply >= 20 || g.status === 'over', `at least 20 plies were played (${g.observation.ply})`);
  assert.ok(dragged1, 'one move was made by drag and drop');

  // The trays hold every lost piece (both sides' losses are public).
  const trays = await page.$$eval('#board [data-tray]', els => Object.fromEntries(els.map(e => [e.dataset.tray, Number(e.dataset.count)])));
  const cap = g.observation.captured || {};
  assert.deepEqual(trays, { 0: (cap['0'] || []).length, 1: (cap['1'] || []).length }, 'trays match the captured lists');
  if (battles) assert.ok(trays[0] + trays[1] > 0, 'a battle left a piece in a tray');
  await screenshot(page, 'st-a-play');

  // --- The end: resign (unless the game already ended) and see every piece ---------------------
  if (g.status !== 'over') {
    await page.click('#resign');
    await page.click('#resign-yes');
  }
  await page.waitForSelector('#banner:not(.hidden)');
  await page.waitForSelector('#replay-panel:not(.hidden)');
  const final = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  assert.equal(final.status, 'over');
  const shown = await pieces(page);
  assert.deepEqual(shown, final.observation.board, 'the final board is the full state');
  assert.ok(Object.values(shown).every(p => !p.endsWith('?')), 'every piece is face up');
  assert.ok(Object.values(shown).some(p => p[0] === '1'), 'Blue pieces are shown');
  // Each Blue piece carries its name in the drawing now.
  const NAME = { M: 'Marshal', G: 'General', C: 'Colonel', J: 'Major', P: 'Captain', L: 'Lieutenant', T: 'Sergeant', N: 'Miner', O: 'Scout', S: 'Spy', B: 'Bomb', F: 'Flag' };
  const blue = await page.$$eval('#board [data-piece^="1"]', els => els.map(e => [e.dataset.piece, e.textContent]));
  assert.ok(blue.length > 0);
  for (const [p, t] of blue) assert.ok(t.includes(NAME[p[1]]), `Blue ${p} is drawn face up (${t})`);
  await screenshot(page, 'st-a-over');
  // The replay steps back to the start: both full armies.
  await page.click('#rp-first');
  const start = await pieces(page);
  assert.equal(Object.keys(start).length, 80, 'the replay starts from both setups');
  // Stepping through: every piece is on the board or in a tray, never lost track of.
  const steps = Number(await page.$eval('#rp-where', e => e.textContent.match(/(\d+) moves/)[1]));
  for (let i = 1; i <= steps; i++) {
    await page.click('#rp-next');
    await page.waitForSelector(`#replay-panel[data-index="${i}"]`);
    const on = Object.keys(await pieces(page)).length;
    const lost = await page.$$eval('#board [data-tray]', els => els.reduce((n, e) => n + Number(e.dataset.count), 0));
    assert.equal(on + lost, 80, `replay step ${i}: ${on} on the board + ${lost} in the trays`);
  }
  await page.click('#rp-first');
  await page.click('#rp-last');
  assert.deepEqual(await pieces(page), final.observation.board);
  assertNoErrors(page);
  await context.close();
});

test('Stratego against the AI to the end by the rules (a short ply limit): the banner, the full reveal', { timeout: 200000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await newPage(context);
  // max_plies set in the lobby: the game ends by the rules (ply limit, or sooner by the Flag or no moves).
  const { id, tokens } = await createStratego(page, server.url, { seats: ['me', 'ai:1'], maxPlies: 30 });
  await page.waitForSelector('#setup button[data-act="ready"]');
  await page.click('#setup button[data-act="random"]');
  await page.click('#setup button[data-act="ready"]');
  let over = false;
  for (let i = 0; i < 40 && !over; i++) {
    over = await waitTurnOrEnd(page);
    if (!over) {
      const ply = Number(await page.$eval('#board', e => e.dataset.ply));
      await clickMove(page, { attack: true });
      await page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) > p ||
        !document.getElementById('banner').classList.contains('hidden'), ply, { timeout: 30000 });
    }
  }
  assert.ok(over, 'the game ended by the rules');
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token: tokens['0'] });
  assert.equal(g.status, 'over');
  assert.ok(['ply-limit', 'flag-captured', 'no-moves'].includes(g.observation.result.reason), g.observation.result.reason);
  assert.ok(g.observation.ply <= 30);
  const banner = await page.textContent('#banner');
  assert.ok(banner.trim().length > 0, 'the banner says how it ended');
  const shown = await pieces(page);
  assert.deepEqual(shown, g.observation.board, 'the final board is the full state');
  assert.ok(Object.values(shown).every(p => !p.endsWith('?')), 'every piece is face up');
  await screenshot(page, 'st-a-rules-end');
  assertNoErrors(page);
  await context.close();
});

test('Stratego on a phone: a piece dragged with a finger moves; the board fits the screen', { timeout: 120000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 375, height: 667 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await newPage(context);
  const { id, tokens } = await createStratego(page, server.url, { seats: ['me', 'ai:1'] });
  await page.waitForSelector('#setup [data-square="a1"]');
  await page.click('#setup button[data-act="ready"]');
  await waitTurnOrEnd(page);
  const box = await rectOf(page, '#board svg');
  assert.ok(box.width >= 320 && box.right <= 375, `board ${box.width} px wide fits the screen`);
  const sw = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(sw <= 376, `no sideways scrolling (${sw})`);
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token: tokens['0'] });
  const move = g.legal.find(m => m.endsWith('5')) || g.legal[0];
  const [from, to] = move.split('-');
  await page.$eval(`#board [data-square="${from}"]`, e => e.scrollIntoView({ block: 'center' }));
  const a = await center(page, from);
  const b = await center(page, to);
  // The square itself under the finger before it lands, as under the mouse's.
  await waitSquareAt(page, a, from);
  // What the board receives, kept on the page: if the move is not played, the failure says why (a cancelled
  // gesture, another square, a refused drop) instead of timing out.
  await page.evaluate(() => {
    window.__pointer = [];
    const svgEl = document.querySelector('#board svg');
    for (const t of ['pointerdown', 'pointerup', 'pointercancel']) {
      svgEl.addEventListener(t, (e) => {
        const sq = e.target.closest && e.target.closest('[data-square]');
        window.__pointer.push(`${t} ${Math.round(e.clientX)},${Math.round(e.clientY)} ${sq ? sq.dataset.square : '-'}`);
      }, true);
    }
  });
  // A finger: touch events through the DevTools protocol (Chromium turns them into pointer events).
  const cdp = await context.newCDPSession(page);
  const at = (x, y) => [{ x, y, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(a.x, a.y) });
  for (let i = 1; i <= 8; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(a.x + (b.x - a.x) * i / 8, a.y + (b.y - a.y) * i / 8) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  // The move's echo, or the end of the gesture without one (released or cancelled, and no move on its way).
  await page.waitForFunction(() => Number(document.getElementById('board').dataset.ply) >= 1 ||
    ((window.__pointer || []).some(t => /^pointer(up|cancel)/.test(t)) && document.getElementById('board').dataset.interactive === 'true'));
  const seen = await page.evaluate(() => ({
    ply: Number(document.getElementById('board').dataset.ply),
    pointer: window.__pointer,
    reason: (document.querySelector('#board .st-reason') || {}).textContent || '',
    error: document.getElementById('move-error').textContent,
  }));
  assert.ok(seen.ply >= 1, `the finger's drag ${move} from (${a.x}, ${a.y}) to (${b.x}, ${b.y}) played nothing: ${JSON.stringify(seen)}`);
  const after = await apiJson(server.url, 'GET', `/api/games/${id}`, { token: tokens['0'] });
  assert.ok(after.events.some(e => e.player === 0 && e.from === from && e.to === to), `the finger played ${move}`);
  await page.screenshot({ path: (await import('./helpers.mjs')).SHOTS + '/st-phone-viewport.png' });
  assertNoErrors(page);
  await context.close();
});
