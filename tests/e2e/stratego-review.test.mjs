// What a review of the Stratego and FACET pages found broken, each with the check that would have caught it:
// the setup editor's "waiting" words left after play began, a refused drop's reason left after the game ended,
// the battle pop-up over the board (lit squares hidden), the memory aid not offered by default, named setups
// shown as slugs, FACET's seed field for the classic layout and its unexplained "in sight". Also browsing a
// live Stratego game: the start as this seat knew it (its own army, the enemy's face down), never more.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson } from './helpers.mjs';
import { createStratego, pieces, drag, waitTurnOrEnd, clickMove } from './stratego-helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const nextFrame = (page) => page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

// Nothing lies over the board: at the centre of every square the element under the pointer is that square's.
async function nothingOverBoard(page) {
  const covered = await page.evaluate(() => [...document.querySelectorAll('#board [data-square]')].filter(c => {
    const r = c.getBoundingClientRect();
    const el = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !el || el.closest('[data-square]') !== c;
  }).map(c => c.dataset.square));
  assert.deepEqual(covered, [], 'squares covered by something');
}

test('Stratego: play begins cleanly, battles beside the board, browsing hides what the seat never saw, messages clear', { timeout: 300000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await newPage(context);
  const { id, tokens } = await createStratego(page, server.url, { seats: ['me', 'ai:1'], memoryAid: false });
  const token = tokens['0'];
  await page.waitForSelector('#setup .st-setup [data-square="a1"]');
  // Named setups in words.
  const kinds = await apiJson(server.url, 'GET', '/api/games/kinds');
  const named = Object.keys(kinds.find(k => k.name === 'stratego').arrangements || {});
  const options = await page.$$eval('#setup [data-role="named"] option', els => els.map(e => [e.value, e.textContent]));
  assert.equal(options.length, named.length);
  for (const [value, text] of options) {
    assert.ok(!/-/.test(text) && /^[A-Z]/.test(text), `a named setup in words: ${text}`);
    assert.equal(text.toLowerCase().replace(/ /g, '-'), value);
  }
  if (named.includes('corner-fortress')) assert.ok(options.some(([, t]) => t === 'Corner fortress'));

  // Ready: the AI's army is already in, play begins at once; the editor's "waiting" words do not stay.
  await page.click('#setup button[data-act="ready"]');
  await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
  await nextFrame(page);
  assert.doesNotMatch(await page.textContent('#hint'), /Waiting for the other army/);
  assert.doesNotMatch(await page.textContent('.board-col'), /Waiting for the other army/);
  const start = (await apiJson(server.url, 'GET', `/api/games/${id}`, { token })).observation.board;
  const ownStart = Object.fromEntries(Object.entries(start).filter(([, p]) => p[0] === '0'));

  // Moves by clicking, attacks preferred, until a battle and at least twelve plies.
  let battles = 0;
  for (let i = 0; i < 40; i++) {
    if (await waitTurnOrEnd(page)) break;
    await nothingOverBoard(page);
    const ply = Number(await page.getAttribute('#board', 'data-ply'));
    await clickMove(page, { attack: i >= 2 });
    await page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) >= p + 2 ||
      !document.getElementById('banner').classList.contains('hidden'), ply, { timeout: 30000 });
    battles = await page.$$eval('#moves .detail', els => els.length);
    if (battles && await page.$('.st-caption .st-caption-line')) {
      // The battle is written under the board with both pieces, and nothing lies over the lit squares.
      assert.equal(await page.$$eval('.st-caption .st-caption-line:first-child .st-cap-piece', els => els.length), 2);
      assert.equal(await page.$$eval('.st-battle-pop', els => els.length), 0, 'no pop-up over the board');
      if (await waitTurnOrEnd(page)) break;
      await nothingOverBoard(page);
      await screenshot(page, 'st-review-battle');
    }
    if (battles && ply >= 12) break;
  }
  assert.ok(battles > 0, 'a battle was fought');
  let g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  assert.equal(g.status, 'playing', 'the game goes on');
  await waitTurnOrEnd(page);

  // Browsing: the start is this seat's own army as it stood and forty face-down pieces; every position after
  // names no enemy piece but those a battle showed.
  const n = await page.$$eval('#moves li', els => els.length);
  await page.keyboard.press('Home');
  await page.waitForSelector('#browse-bar:not(.hidden)[data-index="0"]');
  await page.waitForFunction(() => document.querySelectorAll('#board [data-piece]').length === 80);
  const at0 = await pieces(page);
  assert.deepEqual(Object.fromEntries(Object.entries(at0).filter(([, p]) => p[0] === '0')), ownStart);
  const enemy0 = Object.entries(at0).filter(([, p]) => p[0] === '1');
  assert.equal(enemy0.length, 40);
  assert.ok(enemy0.every(([sq, p]) => p === '1?' && Number(sq.slice(1)) >= 7), 'the enemy army face down on its home ranks');
  assert.equal(await page.getAttribute('#board', 'data-interactive'), 'false');
  const battleEvents = g.events.filter(e => e.type === 'battle');
  for (let i = 1; i < n; i++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector(`#browse-bar[data-index="${i}"]`);
    const known = Object.values(await pieces(page)).filter(p => p[0] === '1' && p !== '1?');
    assert.ok(known.length <= battleEvents.length, `move ${i}: ${known.length} enemy pieces face up, ${battleEvents.length} battles in all`);
    assert.equal(await page.$$eval('#board [data-lit]', els => els.length), 0);
    await nothingOverBoard(page);
  }
  await screenshot(page, 'st-review-browse');
  await page.click('#browse-present');
  await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
  assert.deepEqual(await pieces(page), (await apiJson(server.url, 'GET', `/api/games/${id}`, { token })).observation.board);

  // The material panel lists each army's losses by kind, as the observation's trays.
  g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  for (const p of [0, 1]) {
    const lost = (g.observation.captured[p] || []).length;
    assert.equal(await page.getAttribute(`#material li[data-player="${p}"] [data-key="lost"]`, 'data-count'), String(lost));
  }

  // A Bomb dragged away snaps back with its reason; resigning ends the game and the reason goes with it.
  const bomb = Object.entries(g.observation.board).find(([, p]) => p === '0B')[0];
  const target = `${bomb[0]}${Number(bomb.slice(1)) + 1}`;
  await drag(page, bomb, target);
  await page.waitForFunction(() => /Bomb never moves/.test(document.querySelector('.st-reason').textContent));
  await page.click('#resign');
  await page.click('#resign-yes');
  await page.waitForSelector('#banner:not(.hidden)');
  await page.waitForSelector('#replay-panel:not(.hidden)');
  assert.equal(await page.textContent('.st-reason'), '', 'the refused drop’s reason is gone once the game is over');

  // The replay: at every step nothing lies over the board.
  await page.click('#rp-first');
  const steps = Math.min(n, 30);
  for (let i = 1; i <= steps; i++) {
    await page.click('#rp-next');
    await page.waitForSelector(`#replay-panel[data-index="${i}"]`);
    await nothingOverBoard(page);
  }
  assertNoErrors(page);
  await context.close();
});

test('the lobby offers the memory aid ticked; the server’s default stays off', { timeout: 60000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.waitForSelector('#kind option[value="stratego"]', { state: 'attached' });
  await page.selectOption('#kind', 'stratego');
  await page.waitForSelector('#options [data-opt="memory_aid"]');
  assert.equal(await page.isChecked('#options [data-opt="memory_aid"]'), true);
  const kinds = await apiJson(server.url, 'GET', '/api/games/kinds');
  assert.equal(kinds.find(k => k.name === 'stratego').options.memory_aid, false, 'the rule option’s default is unchanged');
  await page.fill('#name', 'Ana');
  await page.selectOption('#seat-1', 'ai:1');
  await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#create')]);
  const id = new URL(page.url()).searchParams.get('id');
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`);
  assert.equal(g.options.memory_aid, true);
  assertNoErrors(page);
  await context.close();
});

test('FACET: the seed field only for the random layout; fog says what "in sight" means', { timeout: 120000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.waitForSelector('#kind option[value="facet"]', { state: 'attached' });
  await page.selectOption('#kind', 'facet');
  await page.waitForSelector('#options [data-opt="layout"]');
  assert.equal(await page.isVisible('#options [data-opt="seed"]'), false, 'no seed for the classic layout');
  await page.selectOption('#options [data-opt="layout"]', 'random');
  await page.waitForSelector('#options [data-opt="seed"]', { state: 'visible' });
  assert.ok(Number(await page.inputValue('#options [data-opt="seed"]')) > 0);
  await page.selectOption('#options [data-opt="layout"]', 'classic');
  await page.waitForSelector('#options [data-opt="seed"]', { state: 'hidden' });

  await page.check('#options [data-opt-value="fog"]');
  await page.fill('#name', 'Ana');
  await page.selectOption('#seat-1', 'ai:1');
  await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#create')]);
  const id = new URL(page.url()).searchParams.get('id');
  const token = await page.evaluate((id) => JSON.parse(localStorage.getItem(`tabula:game:${id}`)).tokens['0'], id);
  await page.waitForFunction(() => document.getElementById('board').dataset.interactive === 'true');
  const g = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
  const fog = await page.textContent('.fc-fog');
  assert.match(fog, new RegExp(`you see ${g.observation.visible.length} of 81 squares`));
  assert.match(fog, /dimmed/);
  assert.match(await page.getAttribute('.fc-fog', 'title'), /Squares you can see/);
  assert.match(await page.textContent('#seats li[data-seat="0"] .count'), /^\d+ stones$/);
  assert.match(await page.textContent('#seats li[data-seat="1"] .count'), /^\d+ stones? in sight$/);
  assert.equal(await page.getAttribute('#material li[data-player="1"] [data-key="lost"]', 'data-count'), '0');
  await screenshot(page, 'facet-review-fog');

  // Browsing under fog: the start holds only White's own stones; later an enemy stone is drawn only on a square
  // where this seat's events showed one arriving.
  for (let i = 0; i < 4; i++) {
    const cur = await apiJson(server.url, 'GET', `/api/games/${id}`, { token });
    if (cur.status === 'over') break;
    const ply = Number(await page.getAttribute('#board', 'data-ply'));
    await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move: cur.legal[i % cur.legal.length] }, token });
    await page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) >= p + 2 &&
      document.getElementById('board').dataset.interactive === 'true', ply);
  }
  const seen = (await apiJson(server.url, 'GET', `/api/games/${id}`, { token })).events;
  const n = await page.$$eval('#moves li', els => els.length);
  await page.keyboard.press('Home');
  await page.waitForSelector('#browse-bar:not(.hidden)[data-index="0"]');
  await page.waitForFunction(() => !/Loading/.test(document.getElementById('browse-text').textContent));
  assert.match(await page.textContent('#browse-text'), /Under fog/);
  const stones = () => page.$$eval('#board [data-square][data-piece]', els => els.map(e => [e.dataset.square, e.dataset.piece]));
  const at0 = await stones();
  assert.equal(at0.length, 18);
  assert.ok(at0.every(([, p]) => p[0] === '0'), 'no Black stone at the start');
  const arrived = new Set(seen.filter(e => e.type === 'move' && e.player === 1 && e.to).map(e => e.to));
  for (let i = 1; i < n; i++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector(`#browse-bar[data-index="${i}"]`);
    for (const [sq, p] of await stones()) if (p[0] === '1') assert.ok(arrived.has(sq), `move ${i}: a Black stone on ${sq}, where none was seen arriving`);
  }
  await page.keyboard.press('End');
  await page.waitForSelector('#browse-bar.hidden', { state: 'attached' });
  assertNoErrors(page);
  await context.close();
});
