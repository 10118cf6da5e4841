// HTTP framing against the real binary, byte for byte over raw sockets: HEAD answers the GET's status and
// headers with no body and stays in step on a keep-alive connection; requests whose length is ambiguous
// (conflicting Content-Length, Content-Length with Transfer-Encoding, a Transfer-Encoding other than exactly
// `chunked`, a length that is not a number) get one 400 {"error"} and a close, and nothing they carry is run;
// headers over --max-header are 431 and a close; bodies over --max-body stay 413; every answer carries the
// security headers (CSP frame-ancestors 'none', X-Frame-Options DENY, nosniff, no-referrer).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  RawConn, createGame, httpRequest, requestBytes, securityHeaderProblems, startServer, tempDir,
} from './lib.mjs';

let server;
let gameId;

before(async () => {
  server = await startServer({ db: path.join(tempDir(), 'tabula.db') });
  gameId = (await createGame(server, [{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }])).id;
});
after(async () => {
  if (server) await server.stop('SIGTERM');
});

const CREATE = JSON.stringify({ game: 'tigadi', seats: [{ type: 'human' }, { type: 'human' }] });

// How many games the server holds (the list shows at most 100; the tests here create far fewer).
async function gameCount() {
  const res = await httpRequest(server, 'GET', '/api/games');
  assert.equal(res.status, 200);
  return res.body.length;
}

function assertSecurityHeaders(res, what) {
  assert.deepEqual(securityHeaderProblems(res.headers), [], `${what}: security headers`);
}

// Sends `bytes` on a fresh connection and expects exactly one answer with `status` and then the close, with
// nothing after the answer (no second response to a smuggled request).
async function expectRefusal(bytes, status, what) {
  const conn = await RawConn.connect(server);
  try {
    conn.write(bytes);
    const res = await conn.readResponse({ timeoutMs: 5000 }).catch((e) => {
      throw new Error(`${what}: no ${status} answer: ${e.message}`);
    });
    assert.equal(res.status, status, `${what}: ${res.status} ${res.text}`);
    assert.equal(typeof res.json?.error, 'string', `${what}: the answer is {"error": …}: ${res.text}`);
    const rest = await conn.waitClose(5000).catch((e) => {
      throw new Error(`${what}: the connection stays open after the ${status}: ${e.message}`);
    });
    assert.equal(rest.length, 0, `${what}: nothing may follow the ${status}: ${JSON.stringify(rest.toString('latin1'))}`);
    assertSecurityHeaders(res, what);
    return res;
  } finally {
    conn.destroy();
  }
}

// Headers that legitimately differ between a GET on a connection that closes and a HEAD on a kept one.
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'date', 'content-length']);
const comparable = (headers) => Object.fromEntries(Object.entries(headers).filter(([n]) => !CONNECTION_HEADERS.has(n)));

test('HEAD answers the GET\'s status and headers with no body, in step on one keep-alive connection', async () => {
  const paths = [
    '/api/games', '/api/games/kinds', `/api/games/${gameId}`, `/api/games/${gameId}/record`,
    `/api/games/${gameId}/moves` /* GET: 405 */, '/api/games/0123456789abcdef' /* 404 */, '/api/nothing' /* 404 */,
    '/healthz', '/', '/index.html', '/js/api.js', '/no-such-file.html' /* 404 */,
  ];
  const conn = await RawConn.connect(server);
  try {
    for (const p of paths) {
      const get = await httpRequest(server, 'GET', p);
      assert.ok(get.raw.length > 0, `GET ${p} has a body (so a HEAD that sends it would be seen)`);
      // HEAD, then GET /healthz, in one write: the second answer must start right where the first one's
      // header ends. A body sent after the HEAD's header would be read as the second answer's status line.
      conn.write(Buffer.concat([requestBytes('HEAD', p), requestBytes('GET', '/healthz')]));
      let head;
      try {
        head = await conn.readResponse({ head: true });
      } catch (e) {
        throw new Error(`HEAD ${p}: ${e.message}`);
      }
      let health;
      try {
        health = await conn.readResponse();
      } catch (e) {
        throw new Error(`HEAD ${p} is out of step: the next answer does not parse: ${e.message}`);
      }
      assert.equal(health.status, 200, `after HEAD ${p}: GET /healthz`);
      assert.equal(health.text, 'ok', `after HEAD ${p}: GET /healthz's body`);
      assert.equal(head.status, get.status, `HEAD ${p}: the GET's status`);
      assert.equal(head.headers['content-length'], String(get.raw.length), `HEAD ${p}: Content-Length is the GET body's length`);
      assert.deepEqual(comparable(head.headers), comparable(get.headers), `HEAD ${p}: the GET's headers`);
      assertSecurityHeaders(head, `HEAD ${p}`);
    }
    // The last request closes the connection: every byte the server sent has been read as an answer.
    conn.write(requestBytes('GET', '/healthz', { close: true }));
    assert.equal((await conn.readResponse()).status, 200);
    const rest = await conn.waitClose(5000);
    assert.equal(rest.length, 0, `stray bytes after the last answer: ${JSON.stringify(rest.toString('latin1').slice(0, 200))}`);
    assert.equal(conn.responses, paths.length * 2 + 1, 'exactly one answer per request');
  } finally {
    conn.destroy();
  }
});

test('ambiguous framing: one 400 {"error"} and a close; nothing the request carries is run', async () => {
  const before_ = await gameCount();
  const smuggled = 'GET /api/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  const chunkedCreate = `${Buffer.byteLength(CREATE).toString(16)}\r\n${CREATE}\r\n0\r\n\r\n`;
  const cases = [
    ['two different Content-Length values', requestBytes('POST', '/api/games', {
      headers: [['Content-Type', 'application/json'], ['Content-Length', String(Buffer.byteLength(CREATE))],
        ['Content-Length', String(Buffer.byteLength(CREATE) + 1)]], body: `${CREATE} ` })],
    ['two different Content-Length values on a GET', requestBytes('GET', '/healthz', {
      headers: [['Content-Length', '0'], ['Content-Length', '5']], body: 'abcde' })],
    ['Content-Length then Transfer-Encoding: chunked (a smuggled request in the body)', requestBytes('POST', '/api/games', {
      headers: [['Content-Type', 'application/json'], ['Content-Length', String(Buffer.byteLength(`0\r\n\r\n${smuggled}`))],
        ['Transfer-Encoding', 'chunked']], body: `0\r\n\r\n${smuggled}` })],
    ['Transfer-Encoding: chunked then Content-Length', requestBytes('POST', '/api/games', {
      headers: [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked'], ['Content-Length', '4']],
      body: chunkedCreate })],
    ['Transfer-Encoding: xchunked with Content-Length', requestBytes('POST', '/api/games', {
      headers: [['Content-Type', 'application/json'], ['Transfer-Encoding', 'xchunked'],
        ['Content-Length', String(Buffer.byteLength(CREATE))]], body: CREATE })],
    ['Transfer-Encoding: xchunked alone', requestBytes('POST', '/api/games', {
      headers: [['Content-Type', 'application/json'], ['Transfer-Encoding', 'xchunked']], body: chunkedCreate })],
    ['Transfer-Encoding: chunked, gzip', requestBytes('POST', '/api/games', {
      headers: [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked, gzip']], body: chunkedCreate })],
    ['two Transfer-Encoding headers (chunked and gzip)', requestBytes('POST', '/api/games', {
      headers: [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked'], ['Transfer-Encoding', 'gzip']],
      body: chunkedCreate })],
  ];
  for (const bad of ['abc', '-1', '12abc', '1.5', '0x10']) {
    cases.push([`Content-Length: ${bad}`, requestBytes('POST', '/api/games', {
      headers: [['Content-Type', 'application/json'], ['Content-Length', bad]], body: CREATE })]);
  }
  for (const [what, bytes] of cases) await expectRefusal(bytes, 400, what);
  assert.equal(await gameCount(), before_, 'no game was created by any of them');

  // A well-formed chunked request is served: the refusals are about ambiguity, not about chunking.
  const conn = await RawConn.connect(server);
  try {
    conn.write(requestBytes('POST', '/api/games', {
      headers: [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']], body: chunkedCreate, close: true }));
    const res = await conn.readResponse();
    assert.equal(res.status, 201, `a well-formed chunked body: ${res.text}`);
  } finally {
    conn.destroy();
  }
  assert.equal(await gameCount(), before_ + 1);
  assert.equal((await httpRequest(server, 'GET', '/healthz')).status, 200, 'the server is fine');
});

test('headers over --max-header (8192 by default): 431 and a close; under it: served', async () => {
  await expectRefusal(requestBytes('GET', '/healthz', { headers: [['X-Pad', 'a'.repeat(9000)]] }), 431, 'one 9000-byte header');
  const many = Array.from({ length: 200 }, (_, i) => [`X-Pad-${i}`, 'b'.repeat(50)]);
  await expectRefusal(requestBytes('GET', '/api/games', { headers: many }), 431, '200 headers of 60 bytes');
  await expectRefusal(requestBytes('GET', '/healthz', { headers: [['X-Pad', 'c'.repeat(64 * 1024)]] }), 431, 'one 64 KiB header');
  const fine = await httpRequest(server, 'GET', '/healthz', { headers: { 'X-Pad': 'd'.repeat(6000) } });
  assert.equal(fine.status, 200, 'a 6000-byte header is within the default limit');

  const small = await startServer({ db: path.join(tempDir(), 'tabula.db'), limits: { 'max-header': 2048 } });
  try {
    const conn = await RawConn.connect(small);
    try {
      conn.write(requestBytes('GET', '/api/games', { headers: [['X-Pad', 'e'.repeat(3000)]] }));
      const res = await conn.readResponse();
      assert.equal(res.status, 431, '--max-header 2048: a 3000-byte header');
      await conn.waitClose(5000);
    } finally {
      conn.destroy();
    }
    assert.equal((await httpRequest(small, 'GET', '/api/games', { headers: { 'X-Pad': 'f'.repeat(1000) } })).status, 200,
      '--max-header 2048: a 1000-byte header is served');
  } finally {
    await small.stop('SIGTERM');
  }
});

test('bodies over --max-body stay 413 (with and without Expect: 100-continue); the server goes on', async () => {
  const { id, tokens } = await createGame(server, [{ type: 'human' }, { type: 'human' }]);
  const big = JSON.stringify({ move: 'd1', padding: 'x'.repeat(200 * 1024) });
  const res = await httpRequest(server, 'POST', `/api/games/${id}/moves`, {
    raw: big, token: tokens[0], headers: { 'Content-Type': 'application/json' } });
  assert.equal(res.status, 413);
  assert.equal(typeof res.body.error, 'string');
  assertSecurityHeaders(res, '413');

  // The length alone decides: no 100 Continue, the 413 at once, the body never sent.
  const conn = await RawConn.connect(server);
  try {
    conn.write(requestBytes('POST', `/api/games/${id}/moves`, {
      headers: [['Content-Type', 'application/json'], ['Authorization', `Bearer ${tokens[0]}`],
        ['Content-Length', String(10 * 1024 * 1024)], ['Expect', '100-continue']] }));
    const r = await conn.readResponse();
    assert.equal(r.status, 413, `Expect: 100-continue with 10 MiB: ${r.status}`);
    await conn.waitClose(10000);
  } finally {
    conn.destroy();
  }
  const game = await httpRequest(server, 'GET', `/api/games/${id}`);
  assert.equal(game.body.observation.ply, 0, 'nothing was played');
  const ok = await httpRequest(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd1' }, token: tokens[0] });
  assert.equal(ok.status, 200, 'a normal move afterwards');
});

test('security headers on every kind of answer', async () => {
  const { id, tokens } = await createGame(server, [{ type: 'human' }, { type: 'human' }]);
  const checks = [
    ['GET /api/games', () => httpRequest(server, 'GET', '/api/games'), 200],
    ['GET /api/games/kinds', () => httpRequest(server, 'GET', '/api/games/kinds'), 200],
    ['GET /api/games/{id}', () => httpRequest(server, 'GET', `/api/games/${id}`), 200],
    ['POST /api/games', () => httpRequest(server, 'POST', '/api/games', { raw: CREATE, headers: { 'Content-Type': 'application/json' } }), 201],
    ['POST a move', () => httpRequest(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd1' }, token: tokens[0] }), 200],
    ['GET /healthz', () => httpRequest(server, 'GET', '/healthz'), 200],
    ['GET /', () => httpRequest(server, 'GET', '/'), 200],
    ['GET /index.html', () => httpRequest(server, 'GET', '/index.html'), 200],
    ['GET /game.html', () => httpRequest(server, 'GET', '/game.html'), 200],
    ['GET /js/api.js', () => httpRequest(server, 'GET', '/js/api.js'), 200],
    ['GET /css/tabula.css', () => httpRequest(server, 'GET', '/css/tabula.css'), 200],
    ['a static 404', () => httpRequest(server, 'GET', '/no-such-file.html'), 404],
    ['a traversal 404', () => httpRequest(server, 'GET', '/%2e%2e/%2e%2e/etc/passwd'), 404],
    ['an API 404', () => httpRequest(server, 'GET', '/api/nothing'), 404],
    ['an unknown game', () => httpRequest(server, 'GET', '/api/games/0123456789abcdef'), 404],
    ['a malformed body', () => httpRequest(server, 'POST', '/api/games', { raw: '{', headers: { 'Content-Type': 'application/json' } }), 400],
    ['a forged token', () => httpRequest(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd7' }, token: 'f'.repeat(32) }), 401],
    ['a move out of turn', () => httpRequest(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd7' }, token: tokens[0] }), 409],
    ['an illegal move', () => httpRequest(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd1' }, token: tokens[1] }), 422],
    ['a wrong method', () => httpRequest(server, 'PUT', '/api/games'), 405],
    ['a wrong method on a static path', () => httpRequest(server, 'POST', '/index.html'), 405],
    ['an upgrade to an unknown game', () => httpRequest(server, 'GET', '/ws/games/0123456789abcdef', {
      headers: { Upgrade: 'websocket', Connection: 'Upgrade', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13' } }), 404],
    ['/ws without an upgrade', () => httpRequest(server, 'GET', `/ws/games/${id}`), 400],
  ];
  for (const [what, run, status] of checks) {
    const res = await run();
    assert.equal(res.status, status, `${what}: ${res.text?.slice(0, 200)}`);
    assertSecurityHeaders(res, what);
  }
});
