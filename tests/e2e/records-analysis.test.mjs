// Records and analysis: a Tigadi game against the AI resigned after some moves; "Download record" saves its text
// (tags and moves); the lobby imports it (from the file) as a new finished game that opens on its replay; there
// "Analyse the game" shows progress, then the evaluation plot, the moves that lost the most marked in the list,
// and the AI's better move on the board for the position shown (by a click on the plot or the list); the replay
// link opens the same position. While Stratego hides the armies the download is "my view". A phone screenshot.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, boardPieces, phoneContext, noSideScroll, gameAs, waitForGame, rectOf } from './helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const game = (id, token) => gameAs(server.url, id, token);
const waitGame = (id, token, ok) => waitForGame(server.url, id, token, ok);
async function openAs(context, id, tokens) {
  const page = await newPage(context);
  await page.goto(server.url + '/');
  await page.evaluate(([id, tokens]) => localStorage.setItem(`tabula:game:${id}`, JSON.stringify({ tokens })), [id, tokens]);
  await page.goto(`${server.url}/game.html?id=${id}`);
  return page;
}
async function download(page, button = '#download-record') {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return { name: dl.suggestedFilename(), text: fs.readFileSync(await dl.path(), 'utf8'), path: await dl.path() };
}

test('Tigadi: download the record, import it, analyse it', { timeout: 240000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'tigadi', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }] } });
  const { id } = created;
  const token = created.tokens['0'];
  let g = await waitGame(id, token, x => x.legal.length > 0);
  for (let i = 0; i < 9; i++) {
    const move = g.legal[Math.floor(Math.random() * g.legal.length)];
    const ply = g.observation.ply;
    await apiJson(server.url, 'POST', `/api/games/${id}/moves`, { body: { move }, token });
    g = await waitGame(id, token, x => x.status === 'over' || (x.observation.ply >= ply + 2 && x.legal.length > 0));
    if (g.status === 'over') break;
  }
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await openAs(context, id, { 0: token });
  if (g.status !== 'over') {
    await page.waitForSelector('#resign:not(.hidden)');
    await page.click('#resign');
    await page.click('#resign-yes');
  }
  await page.waitForSelector('#replay-panel:not(.hidden)');
  const record = await apiJson(server.url, 'GET', `/api/games/${id}/record`);
  const moves = record.moves;
  assert.ok(moves.length >= 10, `${moves.length} moves were played`);

  // The record as a file: its tags and its moves.
  const { name, text, path: file } = await download(page);
  assert.equal(name, `tabula-tigadi-${id}.txt`);
  assert.match(text, /^\[Game "tigadi"\]$/m);
  assert.match(text, /^\[Seat0 "Ana"\]$/m);
  assert.match(text, /^\[Seat1 "AI level 1"\]$/m);
  assert.match(text, /^\[Date "\d{4}\.\d\d\.\d\d"\]$/m);
  assert.match(text, /^\[Result "(0|1|draw)"\]$/m);
  const movetext = text.split('\n\n').slice(1).join(' ').replace(/\d+\.\s/g, ' ').replace(/\{[^}]*\}/g, ' ').split(/\s+/).filter(Boolean);
  assert.deepEqual(movetext.slice(0, moves.length), moves, 'the text holds the moves in order');
  assert.equal(await page.isVisible('#rematch'), true, 'a rematch is offered to the player');
  assertNoErrors(page);

  // Import it in the lobby, from the file: the new game opens on its replay.
  await page.goto(server.url + '/');
  await page.setInputFiles('#import-file', file);
  await page.waitForFunction(() => document.getElementById('import-text').value.startsWith('[Game "tigadi"]'));
  await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#import')]);
  const imported = new URL(page.url()).searchParams.get('id');
  assert.notEqual(imported, id);
  await page.waitForSelector('#replay-panel:not(.hidden)');
  const texts = await page.$$eval('#moves li .ply', els => els.map(e => e.firstChild.textContent));
  assert.deepEqual(texts.slice(0, moves.length), moves, 'the imported game has the same moves');
  assert.equal(await page.isVisible('#rematch'), false, 'nobody plays an imported game: no rematch');
  assert.equal(await page.isVisible('#same-settings'), false);
  assert.equal(await page.isVisible('#resign'), false);
  const ig = await game(imported);
  assert.equal(ig.status, 'over');
  assert.deepEqual(await boardPieces(page), ig.observation.board, 'the replay ends on the imported final position');
  // It is in "My games".
  await page.goto(server.url + '/');
  await page.waitForSelector(`#mine li[data-id="${imported}"]`);
  await page.goto(`${server.url}/game.html?id=${imported}`);
  await page.waitForSelector('#analyse:not(.hidden)');

  // Analyse: a progress bar, then the plot, the marks and the better moves.
  await page.click('#analyse');
  await page.waitForSelector('#analysis-panel[data-status="running"], #analysis-panel[data-status="done"]');
  await page.waitForSelector('#analysis-plot', { timeout: 120000 });
  const analysis = await apiJson(server.url, 'GET', `/api/games/${imported}/analysis`);
  assert.equal(analysis.status, 'done');
  assert.equal(analysis.total, moves.length);
  assert.equal(Number(await page.getAttribute('#analysis-plot', 'data-points')), analysis.positions.length);
  assert.ok(await page.$('#analysis-plot .eval-line'), 'two players: one line');
  // The marks: "?" for a loss of 150 or more, "??" for the three worst.
  const bad = analysis.positions.filter(p => typeof p.loss === 'number' && p.loss >= 150).sort((a, b) => b.loss - a.loss || a.index - b.index);
  const want = Object.fromEntries(bad.map((p, i) => [p.index, i < 3 ? '??' : '?']));
  const shown = Object.fromEntries(await page.$$eval('#moves li', els => els.map(li => [li.dataset.ply, li.querySelector('[data-judge]')?.dataset.judge]).filter(x => x[1])));
  assert.deepEqual(shown, want, 'the moves that lost the most are marked');
  assert.equal(await page.$$eval('#analysis-plot [data-mark]', els => els.length), bad.length, 'and marked on the plot');

  // A position where the AI preferred another move: its better move on the board, in words too. (Position k, the
  // one before move k, is the replay's step k; the list's move k−1 leads there, Home to the start.)
  const differ = analysis.positions.find(p => p.best && p.best !== p.played) || null;
  if (differ) {
    if (differ.index === 0) await page.keyboard.press('Home');
    else await page.click(`#moves li[data-ply="${differ.index - 1}"] .ply`);
    await page.waitForFunction((i) => document.getElementById('replay-panel').dataset.index === String(i), differ.index);
    await page.waitForSelector('.board-marks [data-mark="best"]', { state: 'attached' });
    assert.equal(await page.getAttribute('.board-marks [data-mark="best"]', 'data-move'), differ.best);
    assert.match(await page.textContent('#analysis-note'), new RegExp(`played ${differ.played}; the AI preferred ${differ.best}`));
    await screenshot(page, 'records-analysis-best');
  }
  // A click on the plot shows that position.
  const k = Math.floor(analysis.total / 2);
  // A mouse click lands only inside the viewport: the plot is brought into view first (below the fold when the
  // list of moves is long and nothing scrolled the page before).
  // One look (the plot is drawn again as a new element; helpers.mjs, rectOf).
  const box = await page.evaluate(() => {
    const e = document.getElementById('analysis-plot');
    e.scrollIntoView({ block: 'center' });
    return e.getBoundingClientRect().toJSON();
  });
  await page.mouse.click(box.x + box.width * ((6 + (320 - 12) * (k / analysis.total)) / 320), box.y + box.height / 2);
  await page.waitForFunction((i) => document.getElementById('replay-panel').dataset.index === String(i), k);
  assert.equal(await page.getAttribute('#analysis-plot .eval-current', 'data-current'), String(k));
  const best = analysis.positions[k];
  assert.equal(await page.$$eval('.board-marks [data-mark="best"]', els => els.length), best.best !== best.played ? 1 : 0);
  await screenshot(page, 'records-analysis-desktop');

  // The replay link opens that position.
  const link = await page.inputValue('#replay-link');
  assert.equal(link, `${server.url}/game.html?id=${imported}&move=${k}`);
  const other = await newPage(context);
  await other.goto(link);
  await other.waitForFunction((i) => document.getElementById('replay-panel').dataset.index === String(i), k);
  await other.waitForSelector('#analysis-plot');
  assertNoErrors(other);
  assertNoErrors(page);

  // On a phone, in the dark.
  const phone = await phoneContext(browser);
  const p = await newPage(phone);
  await p.goto(server.url + '/');
  await p.evaluate(() => localStorage.setItem('tabula:theme', 'dark'));
  await p.goto(`${server.url}/game.html?id=${imported}&move=${k}`);
  await p.waitForSelector('#analysis-plot');
  await noSideScroll(p);
  const plot = await rectOf(p, '#analysis-plot');
  assert.ok(plot.width > 250 && plot.width <= 390, `the plot fits the phone: ${plot.width}`);
  await p.$eval('#analysis-panel', e => e.scrollIntoView());
  await screenshot(p, 'records-analysis-phone-dark');
  assertNoErrors(p);
  await phone.close();
  await context.close();
});

test('Stratego while the armies are hidden: "Download my view"; the lobby refuses a bad record', { timeout: 90000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'stratego', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }] } });
  const token = created.tokens['0'];
  await apiJson(server.url, 'POST', `/api/games/${created.id}/setup`, { body: { arrangement: 'random' }, token });
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await openAs(context, created.id, { 0: token });
  await page.waitForSelector('#board [data-lit="select"]');
  assert.equal(await page.textContent('#download-record'), 'Download my view');
  const { name, text } = await download(page);
  assert.equal(name, `tabula-stratego-${created.id}-red-view.txt`);
  assert.match(text, /^\[View "0"\]$/m);
  assert.match(text, /^\[Setup0 "/m);
  assert.doesNotMatch(text, /\[Setup1 /, 'not the enemy army');

  await page.goto(server.url + '/');
  await page.fill('#import-text', '[Game "tigadi"]\n[Options "{}"]\n[Seat0 "?"]\n[Seat1 "?"]\n[Date "????.??.??"]\n[Result "*"]\n\n1. d1 d1 *\n');
  await page.click('#import');
  await page.waitForFunction(() => /The record was refused: .*line/.test(document.getElementById('import-error').textContent));
  assert.match(page.url(), /\/$/);
  await screenshot(page, 'records-import-refused');
  // The refusal is the 400 the page asked for (and says in words): the browser logs it too.
  page.errors = page.errors.filter(e => !/status of 400 .*\/api\/records/.test(e));
  assertNoErrors(page);
  await context.close();
});

test('The Game of Truth for four: analysed turn by turn, a dot per position in the mover\'s colour', { timeout: 240000 }, async () => {
  const created = await apiJson(server.url, 'POST', '/api/games', {
    body: { game: 'truth', options: { players: 4 }, seats: [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }, { type: 'ai', level: 1 }, { type: 'ai', level: 1 }] } });
  const token = created.tokens['0'];
  await apiJson(server.url, 'POST', `/api/games/${created.id}/setup`, { body: { arrangement: 'suggested' }, token });
  // Two rounds: Ana's turn (two actions, or a pass) through the API, the AIs answer.
  for (let round = 0; round < 2; round++) {
    let g = await waitGame(created.id, token, x => x.status === 'over' || (x.observation.to_move === 0 && x.legal.length > 0));
    if (g.status === 'over') break;
    const ply = g.observation.ply;
    for (let a = 0; a < 2 && g.observation.ply === ply && g.status !== 'over'; a++) {
      const move = g.legal[Math.floor(Math.random() * g.legal.length)];
      await apiJson(server.url, 'POST', `/api/games/${created.id}/moves`, { body: { move }, token });
      g = await game(created.id, token);
      if (move === 'pass') break;
    }
  }
  const g = await game(created.id, token);
  if (g.status !== 'over') await apiJson(server.url, 'POST', `/api/games/${created.id}/offers`, { body: { what: 'resign' }, token });
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await openAs(context, created.id, { 0: token });
  await page.waitForSelector('#analyse:not(.hidden)');
  await page.click('#analyse');
  await page.waitForSelector('#analysis-plot', { timeout: 180000 });
  const analysis = await apiJson(server.url, 'GET', `/api/games/${created.id}/analysis`);
  assert.equal(Number(await page.getAttribute('#analysis-plot', 'data-points')), analysis.positions.length);
  assert.equal(await page.$('#analysis-plot .eval-line'), null, 'four players: no single line');
  assert.equal(await page.$$eval('#analysis-plot circle.eval-dot', els => els.length), analysis.positions.length, 'a dot per position');
  const colours = await page.$$eval('#analysis-plot circle.eval-dot:not(.judged)', els => new Set(els.map(e => getComputedStyle(e).fill)).size);
  assert.ok(colours >= 2, 'the movers\' colours');
  // A turn of two actions is one list entry: its mark is the worse of its actions'.
  const entries = await page.$$eval('#moves li', els => els.length);
  assert.ok(entries < analysis.total, `${entries} turns for ${analysis.total} actions`);
  await page.click('#moves li[data-ply="0"] .ply');
  await page.waitForFunction(() => document.getElementById('replay-panel').dataset.index === '1');
  assert.match(await page.textContent('#analysis-note'), /^Move 2: Jade played [a-q]\d+-[a-q]\d+ \(the first action\)/);
  await screenshot(page, 'records-analysis-truth-four');
  assertNoErrors(page);
  await context.close();
});
