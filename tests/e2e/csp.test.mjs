// (k) The Content-Security-Policy: the lobby, a game page of each game and each rules page come with the
// server's policy header (nothing may frame them; no inline script or style), run under it without a
// single violation (helpers.mjs watches every page of every test; here each page is opened on purpose),
// and a page of another origin that frames them gets nothing inside the frame.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startServer, launch, newPage, assertNoErrors, screenshot, apiJson, takeCspViolations } from './helpers.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

// The policy's directives: name -> list of sources.
function directives(header) {
  return new Map(header.split(';').map(d => d.trim().split(/\s+/)).filter(d => d[0]).map(([k, ...v]) => [k.toLowerCase(), v]));
}

function assertPolicy(response, what) {
  const header = response.headers()['content-security-policy'];
  assert.ok(header, `${what}: the response has no Content-Security-Policy header`);
  const d = directives(header);
  assert.deepEqual(d.get('frame-ancestors'), ["'none'"], `${what}: frame-ancestors in ${header}`);
  for (const name of ['script-src', 'style-src']) {
    const sources = d.get(name) ?? d.get('default-src');
    assert.ok(sources, `${what}: neither ${name} nor default-src in ${header}`);
    assert.ok(!sources.some(s => /^'unsafe-/i.test(s) || s === '*'), `${what}: ${name} allows inline or eval: ${header}`);
  }
}

// Violations are reported asynchronously (a console message and a binding call). The page reports those of
// everything it has parsed and painted before it answers a round trip made after two animation frames, and
// the protocol delivers its messages in order: so the round trip is the event to wait on, not a clock.
// (helpers.mjs's afterEach still fails the test on any later one.)
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

async function create(game, seats) {
  const created = await apiJson(server.url, 'POST', '/api/games', { body: { game, options: {}, seats } });
  return { id: created.id, token: created.tokens['0'] };
}

test('every page carries the policy and runs under it without a violation', { timeout: 120000 }, async () => {
  const games = {
    tigadi: await create('tigadi', [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }]),
    stratego: await create('stratego', [{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }]),
    facet: await create('facet', [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }]),
    truth: await create('truth', [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }]),
  };
  const context = await browser.newContext({ viewport: { width: 1100, height: 850 } });
  const page = await newPage(context);

  // The lobby, holding seat 0 of each game (so "My games" lists them too).
  let response = await page.goto(server.url + '/');
  assertPolicy(response, 'the lobby');
  await page.evaluate((games) => {
    for (const { id, token } of Object.values(games)) localStorage.setItem(`tabula:game:${id}`, JSON.stringify({ tokens: { 0: token } }));
  }, games);
  response = await page.reload();
  assertPolicy(response, 'the lobby');
  await page.waitForSelector(`#mine li[data-id="${games.facet.id}"]`);
  await page.waitForSelector('#seat-rows select');
  await settle(page);
  assertNoErrors(page);
  // The styles that were inline attributes now come from the stylesheet.
  assert.equal(await page.$eval('#seats', e => getComputedStyle(e).borderTopStyle), 'none', 'the seat fieldset has no border');
  assert.deepEqual(await page.$eval('#recent-title', e => { const s = getComputedStyle(e.closest('section')); return [s.gridColumnStart, s.gridColumnEnd]; }),
    ['1', '-1'], 'recent games span the grid');
  // Switching the game rebuilds the option and seat fields.
  for (const kind of ['stratego', 'facet', 'truth', 'tigadi']) await page.selectOption('#kind', kind);
  await settle(page);
  await screenshot(page, 'k-csp-lobby');
  assertNoErrors(page);

  // A game page of each game, as the player of seat 0, live over the WebSocket (connect-src).
  const ready = { tigadi: '#board [data-point="d1"]', stratego: '#setup [data-square]', facet: '#board [data-square="e5"]', truth: '#setup [data-square]' };
  for (const [kind, { id }] of Object.entries(games)) {
    response = await page.goto(`${server.url}/game.html?id=${id}`);
    assertPolicy(response, `the ${kind} game page`);
    await page.waitForSelector(ready[kind]);
    await page.waitForFunction(() => document.getElementById('conn').textContent.includes('live'));
    // The seat swatches are coloured through the CSSOM (a style attribute would be refused).
    const swatches = await page.$$eval('#seats .swatch', els => els.map(e => getComputedStyle(e).backgroundColor));
    assert.equal(swatches.length, 2);
    for (const c of swatches) assert.notEqual(c, 'rgba(0, 0, 0, 0)', `${kind}: a seat swatch has no colour`);
    await settle(page);
    assertNoErrors(page);
  }

  // Each rules page: its module draws the diagrams.
  for (const kind of ['tigadi', 'stratego', 'facet', 'truth']) {
    response = await page.goto(`${server.url}/rules/${kind}.html`);
    assertPolicy(response, `the ${kind} rules page`);
    await page.waitForSelector('#diagram svg');
    if (kind === 'stratego') {
      await page.waitForSelector('#pieces-blue svg');
      assert.equal(await page.$eval('#pieces-blue', e => getComputedStyle(e).maxWidth), '110px');
    }
    if (kind === 'truth') {
      // The board with both suggested armies (fetched from the server, connect-src) and the six piece cards.
      await page.waitForSelector('#diagram[data-arrangement="suggested"]');
      assert.equal(await page.$$eval('#diagram .tr-piece', els => els.length), 82);
      assert.equal(await page.$$eval('#piece-cards svg', els => els.length), 6);
      assert.equal(await page.$$eval('.manuscript li', els => els.length), 25, 'the whole manuscript');
    }
    if (kind === 'facet') {
      const cards = await page.$$eval('[data-card]', els => els.map(e => !!e.querySelector('svg')));
      assert.ok(cards.length >= 6 && cards.every(Boolean), 'every tile card is drawn');
    }
    await settle(page);
    await screenshot(page, `k-csp-rules-${kind}`);
    assertNoErrors(page);
  }
  await context.close();
});

test('a page of another origin cannot frame the pages', { timeout: 60000 }, async () => {
  const { id } = await create('tigadi', [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }]);
  const targets = ['/', `/game.html?id=${id}`, '/rules/tigadi.html'].map(p => server.url + p);
  // Another origin on the same loopback address (so Chromium's local-network checks do not get in the
  // way): it frames the pages, and, as a control, one page of its own.
  const other = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    if (req.url === '/own') res.end('<!doctype html><title>own</title><p id="own">framed fine</p>');
    else res.end(`<!doctype html><title>elsewhere</title><iframe src="/own"></iframe>${targets.map(t => `<iframe src="${t}"></iframe>`).join('')}`);
  });
  await new Promise(r => other.listen(0, '127.0.0.1', r));
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${other.address().port}/`);
    const frames = await Promise.all((await page.$$('iframe')).map(e => e.contentFrame()));
    for (const f of frames) await f.waitForLoadState('load');
    assert.equal(await frames[0].textContent('#own'), 'framed fine', 'the control frame loads');
    for (const [i, f] of frames.slice(1).entries()) {
      const inside = await f.evaluate(() => ({ url: location.href, tabula: !!document.querySelector('header.top, main') })).catch(() => null);
      assert.ok(!inside || !inside.tabula, `${targets[i]} was shown inside another origin's frame`);
      assert.notEqual(f.url(), targets[i], `the frame navigated to ${targets[i]}`);
    }
    // The refusal is the policy's (not some other failure): the framing page got the frame-ancestors
    // violation, one per framed page.
    let refused = [];
    for (let i = 0; i < 50 && refused.length < targets.length; i++) {
      refused = (page.csp ?? []).filter(m => /frame-ancestors/.test(m));
      if (refused.length < targets.length) await page.waitForTimeout(100);
    }
    assert.equal(refused.length, targets.length, `frame-ancestors refusals: ${JSON.stringify(page.csp)}`);
    takeCspViolations(page); // expected here: they are the point of this test
    await context.close();
  } finally {
    other.close();
  }
});
