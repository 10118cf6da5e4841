// The game page shell's tools, for every game: browsing the moves of a live game, Flip board, the material
// panel, sounds, the light/dark switch, the lobby's named AI levels and the page for a game that does not exist.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, boardPieces, phoneContext, noSideScroll, recordThinking, waitBoardPly, rectOf } from './helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

async function waitFor(id, token, ok) {
  for (let i = 0; i < 400; i++) {
    const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
    if (ok(g)) return g;
    await new Promise(r => setTimeout(r, 50));
  }
  throw new Error('the game did not get there');
}
const myTurn = (g) => g.status === 'over' || (g.legal.length > 0);

// A game made through the API; `tokens` go into this browser's localStorage.
async function makeGame(game, seats, options = {}) {
  const created = await apiJson(server.url, 'POST', '/api/games', { body: { game, options, seats } });
  return { id: created.id, token: created.tokens['0'], tokens: created.tokens };
}
async function openAs(page, id, tokens) {
  await page.goto(server.url + '/');
  await page.evaluate(([id, tokens]) => localStorage.setItem(`tabula:game:${id}`, JSON.stringify({ tokens })), [id, tokens]);
  await page.goto(`${server.url}/game.html?id=${id}`);
}

// Tigadi positions from the events, the test's own fold (place, move, capture).
function tigadiPositions(events) {
  const out = [{}];
  let board = {};
  for (const e of events) {
    if (e.type === 'place') { board = { ...board, [e.to]: `${e.player}G` }; out.push(board); }
    else if (e.type === 'move') { board = { ...board }; board[e.to] = board[e.from]; delete board[e.from]; out.push(board); }
    else if (e.type === 'capture') { board = { ...board }; delete board[e.square]; out[out.length - 1] = board; }
  }
  return out;
}

// The browse bar at `index` with its position loaded: the bar takes the index at once and says "Loading the
// earlier position…" until the record's positions come (slow on a loaded machine: the board is read only after).
const browsedTo = (page, index) => page.waitForFunction((i) => {
  const bar = document.getElementById('browse-bar');
  return !bar.classList.contains('hidden') && bar.dataset.index === String(i) &&
    !/Loading/.test(document.getElementById('browse-text').textContent);
}, index);

test('Tigadi: browse a live game, flip, material, sounds', { timeout: 180000 }, async () => {
  const { id, token, tokens } = await makeGame('tigadi', [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }]);
  let g = await waitFor(id, token, myTurn);
  for (let i = 0; i < 4; i++) {
    const move = g.legal[Math.floor(Math.random() * g.legal.length)];
    const ply = g.observation.ply;
    await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move }, token });
    g = await waitFor(id, token, (x) => x.observation.ply >= ply + 2 && myTurn(x));
  }
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await newPage(context);
  await openAs(page, id, tokens);
  await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
  const n = await page.$$eval('#moves li', els => els.length);
  assert.equal(n, 8);
  const positions = tigadiPositions(g.events);

  // The material panel: in hand and lost, as the observation says.
  for (const p of [0, 1]) {
    const on = Object.values(g.observation.board).filter(x => x[0] === String(p)).length;
    assert.equal(await page.getAttribute(`#material li[data-player="${p}"] [data-key="in-hand"]`, 'data-count'), String(g.observation.in_hand[p]));
    assert.equal(await page.getAttribute(`#material li[data-player="${p}"] [data-key="lost"]`, 'data-count'), String(9 - on - g.observation.in_hand[p]));
  }

  // A click on move 3 shows the position after it; the game goes on underneath.
  await page.click('#moves li[data-ply="2"] .ply');
  await browsedTo(page, 3);
  assert.match(await page.textContent('#browse-text'), /Viewing move 3 of 8/);
  assert.deepEqual(await boardPieces(page), positions[3]);
  assert.equal(await page.getAttribute('#board', 'data-interactive'), 'false');
  assert.equal(await page.$$eval('#board [data-lit]', els => els.length), 0, 'nothing is lit while browsing');
  assert.equal(await page.$$eval('#moves .ply.current', els => els.map(e => e.closest('li').dataset.ply).join()), '2');
  // The material panel follows the position shown.
  assert.equal(await page.getAttribute('#material li[data-player="0"] [data-key="in-hand"]', 'data-count'), '7');
  await screenshot(page, 'shell-browse-tigadi');
  // Arrow keys and Home.
  await page.keyboard.press('ArrowLeft');
  await browsedTo(page, 2);
  assert.deepEqual(await boardPieces(page), positions[2]);
  await page.keyboard.press('Home');
  await browsedTo(page, 0);
  assert.deepEqual(await boardPieces(page), {});
  await page.keyboard.press('ArrowRight');
  await browsedTo(page, 1);
  assert.deepEqual(await boardPieces(page), positions[1]);

  // A move arrives while browsing (ours through the API, and the AI's reply): the page stays where it is and
  // the button says that the game moved on.
  const move = g.legal[Math.floor(Math.random() * g.legal.length)];
  await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move }, token });
  await page.waitForSelector('#browse-present.news');
  await page.waitForFunction(() => /2 new moves/.test(document.getElementById('browse-present').textContent));
  assert.equal(await page.getAttribute('#browse-bar', 'data-index'), '1');
  assert.deepEqual(await boardPieces(page), positions[1]);
  await screenshot(page, 'shell-browse-news');
  // End comes back to the present, playable again.
  await page.keyboard.press('End');
  await page.waitForSelector('#browse-bar.hidden', { state: 'attached' });
  await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
  g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  assert.deepEqual(await boardPieces(page), g.observation.board);
  // The button too: browse, then "Back to the present".
  await page.click('#moves li[data-ply="0"] .ply');
  await browsedTo(page, 1);
  await page.click('#browse-present');
  await page.waitForSelector('#browse-bar.hidden', { state: 'attached' });
  assert.equal(await page.getAttribute('#board', 'data-interactive'), 'true');

  // Flip board: the button and the key f; remembered for Tigadi games, not for other kinds.
  const a1Before = await rectOf(page, '#board [data-point="a1"] .hit');
  await page.click('#flip');
  await page.waitForSelector('#board svg[data-flipped="true"]');
  const a1After = await rectOf(page, '#board [data-point="a1"] .hit');
  assert.ok(a1After.y < a1Before.y && a1After.x > a1Before.x, 'a1 went from the lower left to the upper right');
  await screenshot(page, 'shell-flipped-tigadi');
  await page.reload();
  await page.waitForSelector('#board svg[data-flipped="true"]');
  await page.keyboard.press('f');
  await page.waitForSelector('#board svg[data-flipped="false"]');
  await page.keyboard.press('f');
  await page.waitForSelector('#board svg[data-flipped="true"]');
  assert.equal(await page.evaluate(() => localStorage.getItem('tabula:flip:tigadi')), '1');

  // Sounds: none for the position loaded, none before the first gesture; after it, a move sounds.
  await page.reload();
  await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.soundCount ?? null), null);
  g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  let ply = g.observation.ply;
  await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move: g.legal[0] }, token });
  await page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) >= p + 2 &&
    document.getElementById('board').dataset.interactive === 'true', ply);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.soundCount ?? null), null, 'no sound before a gesture');
  await page.click('#moves-title'); // a first gesture on the page
  g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  ply = g.observation.ply;
  await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move: g.legal[0] }, token });
  await page.waitForFunction(() => Number(document.documentElement.dataset.soundCount || 0) >= 1);
  assert.ok(['move', 'capture', 'end'].includes(await page.evaluate(() => document.documentElement.dataset.sound)));
  await waitBoardPly(page, ply + 2);
  // Muted: nothing more plays, and it stays muted.
  await page.click('#sound');
  assert.equal(await page.textContent('#sound'), 'Sound off');
  assert.equal(await page.getAttribute('#sound', 'aria-pressed'), 'false');
  const count = await page.evaluate(() => document.documentElement.dataset.soundCount);
  g = await waitFor(id, token, myTurn);
  if (g.status !== 'over') {
    ply = g.observation.ply;
    await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move: g.legal[0] }, token });
    await waitBoardPly(page, ply + 1);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.soundCount), count, 'muted');
  }
  await page.reload();
  await page.waitForSelector('#sound');
  await page.waitForFunction(() => document.getElementById('sound').textContent === 'Sound off');
  assert.equal(await page.evaluate(() => localStorage.getItem('tabula:sound')), 'off');
  assertNoErrors(page);
  await context.close();

  // On a phone: a tap on a move browses, the bar fits above the board and the page does not scroll sideways.
  const phone = await phoneContext(browser);
  const tap = await newPage(phone);
  await openAs(tap, id, tokens);
  await tap.waitForSelector('#moves li[data-ply="1"]');
  await tap.tap('#moves li[data-ply="1"] .ply');
  await browsedTo(tap, 2);
  await noSideScroll(tap);
  const bar = await rectOf(tap, '#browse-bar');
  const board = await rectOf(tap, '#board');
  assert.ok(bar.bottom <= board.top + 1, 'the bar is above the board');
  await tap.evaluate(() => window.scrollTo(0, 0));
  await screenshot(tap, 'shell-browse-phone');
  await tap.tap('#browse-present');
  await tap.waitForSelector('#browse-bar.hidden', { state: 'attached' });
  assertNoErrors(tap);
  await phone.close();
});

test('the lobby names and describes the AI levels; the page shows the AI thinking', { timeout: 120000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  // Every "thinking" mark the seats list ever shows, from the first paint on.
  await recordThinking(context);
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.waitForSelector('#kind option[value="tigadi"]', { state: 'attached' });
  const kinds = await apiJson(server.url, 'GET', '/api/games/kinds');
  const levels = kinds.find(k => k.name === 'tigadi').levels;
  const texts = await page.$$eval('#seat-1 option', els => els.map(e => e.textContent));
  for (const l of levels) assert.ok(texts.includes(`AI: ${l.name} (level ${l.level})`), `${l.name} offered: ${texts}`);
  await page.selectOption('#seat-1', 'ai:1');
  assert.equal(await page.textContent('[data-level-desc="1"]'), levels.find(l => l.level === 1).description);
  await page.selectOption('#seat-1', 'ai:2');
  assert.equal(await page.textContent('[data-level-desc="1"]'), levels.find(l => l.level === 2).description);
  assert.equal(await page.isVisible('[data-level-desc="0"]'), false, 'no description beside "Me"');
  await screenshot(page, 'shell-lobby-levels');
  await page.selectOption('#seat-1', 'ai:1');
  await page.fill('#name', 'Ana');
  await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#create')]);
  await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
  assert.match(await page.textContent('#seats li[data-seat="1"]'), /Beginner/);
  // Three moves by clicking: the AI's seat says it is thinking while its answer is on the way.
  for (let i = 0; i < 3; i++) {
    const ply = Number(await page.getAttribute('#board', 'data-ply'));
    const lit = await page.$$eval('#board [data-lit="place"]', els => els.map(e => e.dataset.point));
    await page.click(`#board [data-point="${lit[Math.floor(Math.random() * lit.length)]}"]`);
    await page.waitForFunction((p) => (Number(document.getElementById('board').dataset.ply) >= p + 2 &&
      document.getElementById('board').dataset.interactive === 'true') || !document.getElementById('banner').classList.contains('hidden'), ply);
    if (await page.isVisible('#banner')) break;
  }
  const seen = await page.evaluate(() => window.__thinking);
  assert.ok(seen.length > 0 && seen.every(s => s === '1'), `the AI seat was shown thinking: ${seen}`);
  assertNoErrors(page);
  await context.close();
});

test('a game id that does not exist: "No such game" and the way back', { timeout: 60000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await newPage(context);
  await page.goto(`${server.url}/game.html?id=nope`);
  await page.waitForSelector('#not-found:not(.hidden)');
  assert.equal(await page.textContent('h1'), 'No such game');
  assert.match(await page.textContent('#not-found'), /no game with the id “nope”/);
  assert.equal(await page.isVisible('#game-layout'), false, 'no empty panels');
  assert.equal(await page.getAttribute('#not-found a', 'href'), '/');
  await screenshot(page, 'shell-not-found');
  await Promise.all([page.waitForURL(server.url + '/'), page.click('#not-found a')]);
  // The only console error allowed: the browser's own line for the 404 answer.
  page.errors = page.errors.filter(e => !/404/.test(e));
  assertNoErrors(page);
  await context.close();
});

// A game of each kind a few moves in, this browser holding seat 0: Tigadi, Stratego (a named setup), FACET
// under fog, Truth for two and for four (the suggested arrangement).
async function gamesOfEveryKind() {
  const me = { type: 'human', name: 'Ana' };
  const ai = (level) => ({ type: 'ai', level });
  const out = {};
  out.tigadi = await makeGame('tigadi', [me, ai(1)]);
  out.stratego = await makeGame('stratego', [me, ai(1)], { memory_aid: true });
  await apiJson(server.url, 'POST', `/api/games/${out.stratego.id}/setup`, { body: { arrangement: 'blitzkrieg' }, token: out.stratego.token });
  out.facet = await makeGame('facet', [me, ai(1)], { modes: ['fog'] });
  out.truth = await makeGame('truth', [me, ai(1)]);
  await apiJson(server.url, 'POST', `/api/games/${out.truth.id}/setup`, { body: { arrangement: 'suggested' }, token: out.truth.token });
  out.truth4 = await makeGame('truth', [me, ai(1), ai(1), ai(1)], { players: 4 });
  await apiJson(server.url, 'POST', `/api/games/${out.truth4.id}/setup`, { body: { arrangement: 'suggested' }, token: out.truth4.token });
  for (const [kind, game] of Object.entries(out)) {
    let g = await waitFor(game.id, game.token, (x) => x.observation.phase !== 'setup' && myTurn(x));
    for (let i = 0; i < (kind === 'truth4' ? 1 : 3) && g.status !== 'over'; i++) {
      // (A Truth turn's first action keeps the ply: the action tells the positions apart.)
      const at = (o) => `${o.ply}:${o.action ?? 0}`;
      const before = at(g.observation);
      const move = g.legal.find(m => m !== 'pass') || g.legal[0];
      await apiJson(server.url, 'POST', `/api/games/${game.id}/moves`, { body: { move }, token: game.token });
      g = await waitFor(game.id, game.token, (x) => x.status === 'over' || (at(x.observation) !== before && myTurn(x)));
    }
  }
  return out;
}

test('dark mode for every game (desktop and phone), the theme switch, and Flip board for four-player Truth', { timeout: 300000 }, async () => {
  const games = await gamesOfEveryKind();
  for (const [size, ctxOf] of [['desktop', () => browser.newContext({ viewport: { width: 1200, height: 1000 }, colorScheme: 'dark' })],
    ['phone', async () => { const c = await phoneContext(browser); return c; }]]) {
    const context = await ctxOf();
    const page = await newPage(context);
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const [kind, game] of Object.entries(games)) {
      await openAs(page, game.id, game.tokens);
      await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
      // The text on the page is light on dark.
      const [ink, bg] = await page.evaluate(() => [getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor]);
      const lum = (c) => c.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b, 0) / 3;
      assert.ok(lum(ink) - lum(bg) > 150, `${kind}: text ${ink} on ${bg}`);
      if (size === 'phone') await noSideScroll(page);
      await screenshot(page, `shell-dark-${kind}-${size}`);
      if (size === 'desktop' && kind.startsWith('truth')) {
        // Truth in play hides nothing: browsing starts from the record's armies, all of them.
        await page.keyboard.press('Home');
        await page.waitForSelector('#browse-bar:not(.hidden)[data-index="0"]');
        await page.waitForFunction((n) => document.querySelectorAll('#board [data-square][data-piece]').length === n, kind === 'truth4' ? 164 : 82);
        await page.keyboard.press('End');
        await page.waitForSelector('#browse-bar.hidden', { state: 'attached' });
      }
    }
    assertNoErrors(page);
    await context.close();
  }

  // The switch: Light overrides the system's dark, is remembered, and System follows the system again.
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, colorScheme: 'dark' });
  const page = await newPage(context);
  const t4 = games.truth4;
  await openAs(page, t4.id, t4.tokens);
  await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await page.selectOption('#theme', 'light');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await page.reload();
  await page.waitForSelector('#board svg');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  assert.equal(await page.inputValue('#theme'), 'light');
  await page.goto(server.url + '/');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light', 'the lobby follows the choice');
  await page.selectOption('#theme', 'system');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await page.waitForSelector('#seat-1');
  await screenshot(page, 'shell-dark-lobby');
  for (const rules of ['tigadi', 'stratego', 'facet', 'truth']) {
    await page.goto(`${server.url}/rules/${rules}.html`);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await page.waitForSelector('svg');
    await screenshot(page, `shell-dark-rules-${rules}`);
  }

  // Four-player Truth: each Flip board brings the next seat's corner to the bottom left (Ivory 0, Jade 2,
  // Ember 1, Indigo 3 quarter turns).
  await openAs(page, t4.id, t4.tokens);
  await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
  assert.equal(await page.getAttribute('#board svg.tr-board', 'data-turn'), '0');
  for (const turn of ['2', '1', '3', '0']) {
    await page.keyboard.press('f');
    await page.waitForSelector(`#board svg.tr-board[data-turn="${turn}"]`);
  }
  await page.click('#flip');
  await page.waitForSelector('#board svg.tr-board[data-turn="2"]');
  assert.equal(await page.evaluate(() => localStorage.getItem('tabula:flip:truth-4')), '1');
  assert.equal(await page.evaluate(() => localStorage.getItem('tabula:flip:truth')), null, 'the two-player game keeps its own');
  await screenshot(page, 'shell-truth4-flipped');
  assertNoErrors(page);
  await context.close();
});

test('FACET, random layout with decay: browsing and the replay start from the layout the game began with', { timeout: 120000 }, async () => {
  const { id, token, tokens } = await makeGame('facet', [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }], { layout: 'random', seed: 4242, modes: ['decay'] });
  let g = await waitFor(id, token, myTurn);
  const startTerrain = g.observation.terrain;
  // Moves from special tiles first, so that tiles decay.
  for (let i = 0; i < 6 && g.status !== 'over'; i++) {
    const special = g.legal.filter(m => (g.observation.terrain[m.split('-')[0]] || 'F') !== 'F');
    const pool = special.length ? special : g.legal;
    const ply = g.observation.ply;
    await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move: pool[Math.floor(Math.random() * pool.length)] }, token });
    g = await waitFor(id, token, (x) => x.status === 'over' || (x.observation.ply >= ply + 2 && myTurn(x)));
  }
  assert.ok(g.events.some(e => e.type === 'decay'), 'a tile decayed');
  assert.notDeepEqual(g.observation.terrain, startTerrain);
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await newPage(context);
  await openAs(page, id, tokens);
  await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
  const terrain = () => page.$$eval('#board [data-square]', els => Object.fromEntries(els.filter(e => e.dataset.tile !== 'F').map(e => [e.dataset.square, e.dataset.tile])));
  await page.keyboard.press('Home');
  await page.waitForSelector('#browse-bar:not(.hidden)[data-index="0"]');
  await page.waitForFunction(() => !/Loading/.test(document.getElementById('browse-text').textContent));
  assert.deepEqual(await terrain(), startTerrain);
  await page.keyboard.press('End');
  await page.waitForSelector('#browse-bar.hidden', { state: 'attached' });
  await page.click('#resign');
  await page.click('#resign-yes');
  await page.waitForSelector('#replay-panel:not(.hidden)');
  await page.click('#rp-first');
  assert.deepEqual(await terrain(), startTerrain);
  assertNoErrors(page);
  await context.close();
});
