// What the page takes from the server rather than from the kind of game: the lobby's seats from the kind's
// variants (one per player count, each with its options), and the hot seat's hand-over from the game's
// `hidden` (whether the position hides something now), which changes within a game (Truth: hidden while the
// armies are set up, public in play). Neither needs a game with several player counts or a phase that
// reveals: the server's answers are rewritten on their way to the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, assertNoErrors, rewriteGameMessages } from './helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

// A kind played by 2 or 4, the count decided by its `players` option (as Truth's).
const DUO = {
  name: 'duo', title: 'Duo', player_counts: [2, 4], options: { players: 2, max_plies: 2000 }, ai_levels: [1, 2],
  hidden_information: true, arrangements: {},
  variants: [
    { players: 2, arrangements: ['suggested'], options: { players: 2, max_plies: 2000 } },
    { players: 4, arrangements: ['suggested'], options: { players: 4, max_plies: 2000 } },
  ],
};

test('the lobby offers one seat per player of the chosen variant and sends the options that count decides', { timeout: 60000 }, async () => {
  const context = await browser.newContext();
  const page = await newPage(context);
  await page.route('**/api/games/kinds', async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: [...await res.json(), DUO] });
  });
  const posted = [];
  await page.route('**/api/games', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    posted.push(route.request().postDataJSON());
    await route.fulfill({ status: 400, json: { error: 'not here' } });
  });
  await page.goto(server.url + '/');
  await page.waitForSelector('#kind option[value="duo"]', { state: 'attached' });
  await page.selectOption('#kind', 'duo');
  assert.ok(await page.isVisible('#count'), 'a choice of player counts');
  assert.deepEqual(await page.$$eval('#count option', os => os.map(o => o.value)), ['2', '4']);
  assert.equal(await page.$$eval('#seat-rows select', s => s.length), 2);
  // The count decides `players`: no field for it; the rest of the variant's options are fields.
  assert.equal(await page.$$eval('#options [data-opt="players"]', e => e.length), 0);
  assert.equal(await page.inputValue('#options [data-opt="max_plies"]'), '2000');

  await page.selectOption('#count', '4');
  assert.equal(await page.$$eval('#seat-rows select', s => s.length), 4, 'four seats for four players');
  assert.ok(await page.isHidden('#side-choice'), 'no "play as" choice between two sides');
  await page.fill('#options [data-opt="max_plies"]', '300');
  for (const i of [1, 2, 3]) await page.selectOption(`#seat-${i}`, 'ai:1');
  await page.click('#create');
  await page.waitForFunction(() => document.getElementById('create-error').textContent === 'not here');
  assert.equal(posted.length, 1);
  assert.equal(posted[0].game, 'duo');
  assert.deepEqual(posted[0].options, { players: 4, max_plies: 300 });
  assert.equal(posted[0].seats.length, 4);

  await page.selectOption('#count', '2');
  assert.equal(await page.$$eval('#seat-rows select', s => s.length), 2);
  await page.click('#create');
  await page.waitForFunction(() => document.getElementById('create-error').textContent === 'not here');
  assert.deepEqual(posted[1].options, { players: 2, max_plies: 2000 });
  assert.equal(posted[1].seats.length, 2);

  // A kind with one variant: no count to choose, its options as before.
  await page.selectOption('#kind', 'stratego');
  assert.ok(await page.isHidden('#count-label'));
  await page.waitForSelector('#options [data-opt="memory_aid"]');
  assert.equal(await page.$$eval('#seat-rows select', s => s.length), 2);
  // The two refusals this test made the server's stand-in answer are the only errors the page logged.
  const refused = page.errors.filter(e => e.includes('status of 400') && e.includes('/api/games"'));
  assert.equal(refused.length, 2);
  page.errors = page.errors.filter(e => !refused.includes(e));
  assertNoErrors(page);
  await context.close();
});

test('a hot seat hands the device over while the game says something is hidden, and not once it says nothing is', { timeout: 60000 }, async () => {
  const context = await browser.newContext();
  const page = await newPage(context);
  // Tigadi hides nothing; here the server's answers say it does until `reveal` (like Truth's start of play).
  let hidden = true;
  const rewrite = (text) => {
    const j = JSON.parse(text);
    if (j && typeof j === 'object' && 'hidden' in j) j.hidden = hidden;
    return JSON.stringify(j);
  };
  await rewriteGameMessages(page, rewrite);

  await page.goto(server.url + '/');
  await page.waitForSelector('#kind option[value="tigadi"]', { state: 'attached' });
  await page.selectOption('#kind', 'tigadi');
  await page.selectOption('#seat-0', 'me');
  await page.selectOption('#seat-1', 'me');
  await Promise.all([page.waitForURL(/\/game\.html\?id=/), page.click('#create')]);

  // Hidden: the board waits behind the hand-over screen for Bone, the seat to move.
  await page.waitForSelector('#handover:not(.hidden)');
  assert.equal(await page.textContent('#handover-title'), 'Pass the device to Bone');
  assert.ok(await page.isHidden('#board'));
  await page.click('#handover-show');
  await page.waitForSelector('#board:not(.hidden)');
  await page.waitForSelector('#board[data-interactive="true"]');
  await page.click('#board [data-point="d1"]');
  await page.waitForSelector('#handover:not(.hidden)');
  assert.equal(await page.textContent('#handover-title'), 'Pass the device to Seed');
  await page.click('#handover-show');
  await page.waitForFunction(() => document.getElementById('board').dataset.ply === '1');
  await page.waitForSelector('#board[data-interactive="true"]');

  // Nothing is hidden from Seed's move on: the update after it says so, and Bone's turn comes on the same
  // board, without a hand-over (Bone never confirmed it is Bone, so only `hidden` lifts the screen).
  hidden = false;
  for (const [point, ply] of [['d7', '2'], ['g1', '3']]) {
    await page.click(`#board [data-point="${point}"]`);
    await page.waitForFunction((ply) => document.getElementById('board').dataset.ply === ply, ply);
    await page.waitForSelector('#board[data-interactive="true"]');
    assert.ok(await page.isHidden('#handover'), `no hand-over after ${point}: nothing is hidden`);
    assert.ok(await page.isVisible('#board'));
  }
  assertNoErrors(page);
  await context.close();
});
