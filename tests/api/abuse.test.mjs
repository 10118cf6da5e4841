// The attacks on `tabula serve`, replayed against the real binary with small limits passed as flags: half-open
// connections (per address, then in total), descriptor exhaustion under a low RLIMIT_NOFILE, a spectator
// WebSocket flood (per address, per game), a request flood (token bucket), a WebSocket message flood, a game
// creation flood, and AI-only games crowding out a person's game. Each checks what the attacker is answered
// (status or close code, the JSON error, Retry-After), that the server keeps answering others meanwhile (a
// client on another loopback address gets /healthz and creates and plays a game), and that it recovers once
// the attacker lets go. Clients are told apart by their source address (Linux routes 127.0.0.0/8 to lo); all
// traffic goes to 127.0.0.1. Every wait is bounded; what is asserted is behaviour (answers, counts of events),
// never elapsed time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  RawConn, httpRequest, openSocket, requestBytes, securityHeaderProblems, startServer, tempDir, tryWebSocket, waitUntil,
} from './lib.mjs';

const newDb = () => path.join(tempDir(), 'tabula.db');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TIGADI_HUMANS = { game: 'tigadi', seats: [{ type: 'human' }, { type: 'human' }] };

// Reads the connection's first answer in the background: conn.answer (a response) or conn.answerError.
function watch(conn, timeoutMs = 60000) {
  conn.answer = null;
  conn.answerError = null;
  conn.readResponse({ timeoutMs }).then((r) => { conn.answer = r; }, (e) => { conn.answerError = e; });
  return conn;
}

const statusCounts = (conns) => {
  const out = {};
  for (const c of conns) {
    const k = c.answer ? c.answer.status : c.ended ? 'closed without an answer' : 'open, no answer';
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
};

// A refusal at the connection or request level: the status, {"error": string}, Retry-After, and (unless
// `keepAlive`) Connection: close.
function assertRefusal(res, status, what, { retryAfter, keepAlive = false } = {}) {
  assert.equal(res.status, status, `${what}: ${res.status} ${res.text}`);
  const body = res.json ?? res.body;
  assert.equal(typeof body?.error, 'string', `${what}: the answer is {"error": …}: ${res.text}`);
  if (retryAfter !== undefined) {
    if (retryAfter === 'any') assert.match(res.headers['retry-after'] ?? '', /^\d+$/, `${what}: Retry-After`);
    else assert.equal(res.headers['retry-after'], retryAfter, `${what}: Retry-After`);
  }
  if (!keepAlive) assert.match(res.headers.connection ?? '', /close/i, `${what}: Connection: close`);
  assert.deepEqual(securityHeaderProblems(res.headers), [], `${what}: security headers`);
}

// A client at `localAddress` is served: /healthz, a new game, a move by each seat.
async function victimPlays(srv, localAddress, what) {
  const health = await httpRequest(srv, 'GET', '/healthz', { localAddress });
  assert.equal(health.status, 200, `${what}: /healthz from ${localAddress}`);
  const created = await httpRequest(srv, 'POST', '/api/games', { localAddress, body: TIGADI_HUMANS });
  assert.equal(created.status, 201, `${what}: create from ${localAddress}: ${created.text}`);
  const { id, tokens } = created.body;
  const m1 = await httpRequest(srv, 'POST', `/api/games/${id}/moves`, { localAddress, body: { move: 'd1' }, token: tokens[0] });
  assert.equal(m1.status, 200, `${what}: a move from ${localAddress}: ${m1.text}`);
  const m2 = await httpRequest(srv, 'POST', `/api/games/${id}/moves`, { localAddress, body: { move: 'd7' }, token: tokens[1] });
  assert.equal(m2.status, 200, `${what}: the reply from ${localAddress}: ${m2.text}`);
  return { id, tokens };
}

// Waits until a fresh client at `localAddress` gets /healthz 200 (the server notices closed connections
// asynchronously), then plays.
async function recovers(srv, localAddress, what) {
  await waitUntil(async () => (await httpRequest(srv, 'GET', '/healthz', { localAddress, timeoutMs: 3000 })).status === 200,
    { timeoutMs: 10000, intervalMs: 100, what: `${what}: /healthz 200 from ${localAddress}` });
  return victimPlays(srv, localAddress, what);
}

function assertHealthyLog(srv, what) {
  assert.ok(srv.alive(), `${what}: the server is still running:\n${srv.log().slice(-2000)}`);
  assert.doesNotMatch(srv.log(), /Too many open files|EMFILE|Segmentation|Aborted|terminate called|AddressSanitizer/,
    `${what}: the server log`);
}

test('half-open connections: 429 over the per-address limit, 408 at the request timeout, 503 over the total; others are served; it recovers', async () => {
  const srv = await startServer({ db: newDb(), limits: { 'max-connections-per-ip': 20, 'max-connections': 60, 'request-timeout': 3 } });
  const all = [];
  let trickle;
  try {
    const attacker = '127.0.1.1';
    const victim = '127.0.2.1';
    const other = '127.0.3.1';

    // 40 connections from one address, each sending half a header.
    const half = Buffer.from('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const conns = [];
    for (let i = 0; i < 40; i++) {
      const c = watch(await RawConn.connect(srv, { localAddress: attacker }));
      c.write(half);
      conns.push(c);
    }
    all.push(...conns);
    await waitUntil(() => conns.filter((c) => c.answer?.status === 429).length >= 20,
      { timeoutMs: 10000, what: 'twenty of 40 connections from one address refused with 429' })
      .catch((e) => { throw new Error(`${e.message}; answers: ${JSON.stringify(statusCounts(conns))}`); });
    const refused = conns.filter((c) => c.answer);
    const held = conns.filter((c) => !c.answer);
    assert.deepEqual(refused.map((c) => c.answer.status), Array(20).fill(429), `answers so far: ${JSON.stringify(statusCounts(conns))}`);
    assert.deepEqual(held.map((c) => conns.indexOf(c)), [...Array(20).keys()], 'the first 20 are held, the 21st and later refused');
    for (const c of refused) {
      assertRefusal(c.answer, 429, 'over --max-connections-per-ip', { retryAfter: 'any' });
      await c.waitClose(5000);
    }

    // Half of the held ones trickle a byte of header now and then (slowloris): the timeout is for the whole
    // header, so that must not keep them alive.
    trickle = setInterval(() => { for (const c of held.slice(0, 10)) if (!c.ended) c.write('a'); }, 250);

    // Meanwhile another address is served, and the attacker is still refused.
    assert.ok(held.every((c) => !c.ended), 'precondition: the 20 half-open connections are still held when the victim comes');
    await victimPlays(srv, victim, 'while one address holds 20 half-open connections');
    const more = await httpRequest(srv, 'GET', '/healthz', { localAddress: attacker });
    assertRefusal(more, 429, 'one more request from the attacker', { retryAfter: 'any' });
    assert.ok(held.every((c) => !c.answer), 'the victim was served while the half-open connections were held');

    // A request whose body stops halfway gets 408 too; an idle keep-alive connection is closed silently.
    const stalledBody = watch(await RawConn.connect(srv, { localAddress: other }));
    stalledBody.write(Buffer.concat([requestBytes('POST', '/api/games', {
      headers: [['Content-Type', 'application/json'], ['Content-Length', '100']] }), Buffer.from('{"game":')]));
    const idle = await RawConn.connect(srv, { localAddress: other });
    idle.write(requestBytes('GET', '/healthz'));
    assert.equal((await idle.readResponse()).status, 200);
    all.push(stalledBody, idle);

    // The held ones are answered 408 and closed within the timeout (3 s; the bound here is generous).
    await Promise.all([...held, stalledBody, idle].map((c) => c.waitClose(20000)));
    clearInterval(trickle);
    for (const [i, c] of held.entries()) {
      assert.ok(c.answer, `held connection ${i}${i < 10 ? ' (trickling)' : ''} closed without a 408: ${c.answerError?.message}`);
      assertRefusal(c.answer, 408, `held connection ${i}${i < 10 ? ' (trickling)' : ''}`);
    }
    assert.ok(stalledBody.answer, `a stalled body: closed without a 408: ${stalledBody.answerError?.message}`);
    assertRefusal(stalledBody.answer, 408, 'a stalled body');
    assert.equal(idle.buf.length, 0, `an idle keep-alive connection is closed silently: ${JSON.stringify(idle.buf.toString('latin1'))}`);
    const games = await httpRequest(srv, 'GET', '/api/games', { localAddress: victim });
    assert.equal(games.body.length, 1, 'the stalled create did nothing');

    // The attacker is served again.
    await recovers(srv, attacker, 'the attacker after its connections closed');

    // The total: 80 connections from four addresses (20 each, within the per-address limit); the 61st and
    // later are answered 503 at once, without a request.
    const addrs = ['127.0.4.1', '127.0.4.2', '127.0.4.3', '127.0.4.4'];
    const flood = [];
    for (let i = 0; i < 80; i++) flood.push(watch(await RawConn.connect(srv, { localAddress: addrs[i % 4] })));
    all.push(...flood);
    await waitUntil(() => flood.filter((c) => c.answer?.status === 503).length >= 20,
      { timeoutMs: 10000, what: 'twenty of 80 connections refused with 503' })
      .catch((e) => { throw new Error(`${e.message}; answers: ${JSON.stringify(statusCounts(flood))}`); });
    assert.ok(flood.every((c) => c.answer || !c.ended), 'precondition: the 60 idle connections are still held when the victim comes');
    const during = await httpRequest(srv, 'GET', '/healthz', { localAddress: victim });
    assertRefusal(during, 503, 'the victim while every slot is taken', { retryAfter: '1' });
    // The victim's answer came after every one of the 80 was accepted: the count is final.
    assert.deepEqual(statusCounts(flood), { 503: 20, 'open, no answer': 60 }, 'exactly --max-connections are held');
    for (const c of flood.filter((x) => x.answer)) {
      assertRefusal(c.answer, 503, 'over --max-connections', { retryAfter: '1' });
      await c.waitClose(5000);
    }
    for (const c of flood) c.destroy();
    await recovers(srv, victim, 'the victim after the flood let go');
    assertHealthyLog(srv, 'connection floods');
  } finally {
    clearInterval(trickle);
    for (const c of all) c.destroy();
    await srv.stop('SIGKILL');
  }
});

// The hard limit on descriptors of this shell (the test's own process inherits it).
function hardNofile() {
  const r = spawnSync('bash', ['-c', 'ulimit -H -n'], { encoding: 'utf8' });
  return r.stdout.trim() === 'unlimited' ? Infinity : Number(r.stdout.trim());
}

// Opens `n` idle connections, spread over `addresses`, in order; each watched for an answer.
async function openIdle(srv, n, addresses) {
  const conns = [];
  try {
    for (let i = 0; i < n; i++) conns.push(watch(await RawConn.connect(srv, { localAddress: addresses[i % addresses.length] })));
  } catch (e) {
    for (const c of conns) c.destroy();
    throw e;
  }
  return conns;
}

test('descriptor exhaustion: under ulimit -n 128 the server clamps its connections, answers 503 beyond, never runs out; it recovers', async () => {
  const srv = await startServer({ db: newDb(), nofile: 128, limits: { 'request-timeout': 30 } });
  const addresses = Array.from({ length: 10 }, (_, i) => `127.0.5.${i + 1}`);
  let conns = [];
  try {
    const limitLine = srv.log().split('\n').find((l) => /connection/i.test(l) && /\d/.test(l));
    console.log(`# server's limit line: ${limitLine ?? '(none found)'}`);
    assert.ok(limitLine, 'the server logs its effective connection limit');
    const limit = Math.min(...(limitLine.match(/\d+/g) ?? []).map(Number));
    assert.ok(limit >= 1 && limit <= 127, `128 descriptors hold at most 127 connections; the log says ${limitLine}`);
    conns = await openIdle(srv, 300, addresses);
    // The server holds exactly the number of connections it told, and refuses the rest: with a 503, or, past
    // 32 refusals being written at once, by closing without a word (docs/server.md) — never by running out.
    const held = () => conns.filter((c) => !c.answer && !c.ended);
    await waitUntil(() => held().length === limit,
      { timeoutMs: 20000, what: `the server to hold exactly ${limit} of 300 connections` })
      .catch((e) => { throw new Error(`${e.message}; answers: ${JSON.stringify(statusCounts(conns))}\n${srv.log().slice(-1500)}`); });
    const probe = await httpRequest(srv, 'GET', '/healthz', { localAddress: '127.0.6.1' });
    assertRefusal(probe, 503, 'a fresh address while the server is full', { retryAfter: '1' });
    const counts = statusCounts(conns);
    console.log(`# 300 connections under ulimit -n 128: ${JSON.stringify(counts)}`);
    assert.equal(held().length, limit, `still held: ${JSON.stringify(counts)}`);
    assert.ok(conns.filter((c) => c.answer?.status === 503).length >= 1, `some refusals are answered: ${JSON.stringify(counts)}`);
    assert.ok(conns.every((c) => !c.answer || c.answer.status === 503), JSON.stringify(counts));
    for (const c of conns.filter((x) => x.answer).slice(0, 20)) assertRefusal(c.answer, 503, 'over the clamped limit', { retryAfter: '1' });
    assertHealthyLog(srv, 'while 300 connections were open');
    for (const c of conns) c.destroy();
    await recovers(srv, '127.0.6.2', 'a fresh address once the attackers closed');
    assertHealthyLog(srv, 'after the attack');
  } finally {
    for (const c of conns) c.destroy();
    await srv.stop('SIGKILL');
  }
});

test('descriptor limit: a low soft limit is raised to the hard one; 300 connections are then all served', async (t) => {
  const hard = hardNofile();
  if (!(hard >= 2048)) {
    t.skip(`the hard descriptor limit here is ${hard}`);
    return;
  }
  const srv = await startServer({ db: newDb(), nofile: { soft: 128 }, limits: { 'request-timeout': 30 } });
  let conns = [];
  try {
    const limits = fs.readFileSync(`/proc/${srv.pid}/limits`, 'utf8');
    const line = limits.split('\n').find((l) => l.startsWith('Max open files'));
    const [soft, hardSeen] = line.trim().split(/\s{2,}/).slice(1, 3);
    assert.equal(soft, hardSeen, `the server raised its soft limit to the hard one: ${line}`);
    conns = await openIdle(srv, 300, Array.from({ length: 10 }, (_, i) => `127.0.7.${i + 1}`));
    await victimPlays(srv, '127.0.8.1', 'with 300 idle connections open');
    assert.deepEqual(statusCounts(conns), { 'open, no answer': 300 }, 'none of the 300 is refused (the default limit is 1000)');
    assertHealthyLog(srv, 'with 300 idle connections');
  } finally {
    for (const c of conns) c.destroy();
    await srv.stop('SIGKILL');
  }
});

test('spectator WebSocket flood: 429 over --max-ws-per-ip before the upgrade, 1013 over --max-spectators-per-game at auth; the seats always get in and keep playing; it recovers', async () => {
  const srv = await startServer({ db: newDb(), limits: { 'max-ws-per-ip': 4, 'max-spectators-per-game': 5 } });
  const sockets = [];
  const open = async (id, localAddress, what) => {
    const r = await tryWebSocket(srv, id, { localAddress });
    assert.equal(r.status, 101, `${what}: ${r.status} ${JSON.stringify(r.body)}`);
    sockets.push(r.sock);
    r.sock.send({ type: 'auth' });
    const u = await r.sock.next();
    assert.equal(u.type, 'update', `${what}: the first update`);
    return r.sock;
  };
  const refusedWith = async (id, localAddress, status, what) => {
    const r = await tryWebSocket(srv, id, { localAddress });
    if (r.sock) sockets.push(r.sock);
    assert.equal(r.status, status, `${what}: ${r.status}`);
    assert.equal(typeof r.body?.error, 'string', `${what}: {"error": …}: ${JSON.stringify(r.body)}`);
    assert.deepEqual(securityHeaderProblems(r.headers), [], `${what}: security headers`);
  };
  // Upgraded, then refused at auth: an error message naming the reason, and close code 1013.
  const refusedSpectator = async (id, localAddress, what) => {
    const r = await tryWebSocket(srv, id, { localAddress });
    assert.equal(r.status, 101, `${what}: upgraded (${r.status})`);
    sockets.push(r.sock);
    r.sock.send({ type: 'auth' });
    const m = await r.sock.next();
    assert.equal(m.type, 'error', `${what}: ${JSON.stringify(m)}`);
    assert.match(m.error, /spectators/, what);
    const c = await r.sock.next();
    assert.equal(c.code, 1013, `${what}: close code ${JSON.stringify(c)}`);
  };
  try {
    const victim = '127.0.9.1';
    const g = (await httpRequest(srv, 'POST', '/api/games', { localAddress: victim, body: TIGADI_HUMANS })).body;
    const g2 = (await httpRequest(srv, 'POST', '/api/games', { localAddress: victim, body: TIGADI_HUMANS })).body;
    // The seats watch their game.
    const seats = [];
    for (const p of [0, 1]) {
      const r = await tryWebSocket(srv, g.id, { localAddress: victim });
      assert.equal(r.status, 101, `seat ${p}'s WebSocket`);
      sockets.push(r.sock);
      r.sock.send({ type: 'auth', token: g.tokens[p] });
      assert.equal((await r.sock.next()).type, 'update');
      seats.push(r.sock);
    }

    // Per address: four spectators of g2 from one address, then the fifth (on g2 or on g) is refused.
    const a = '127.0.9.2';
    const aSocks = [];
    for (let i = 0; i < 4; i++) aSocks.push(await open(g2.id, a, `spectator ${i} from ${a}`));
    await refusedWith(g2.id, a, 429, 'a fifth WebSocket from one address');
    await refusedWith(g.id, a, 429, 'a fifth WebSocket from one address, on another game');

    // Per game: four spectators of g from one address and one from another, and the game is full: a spectator
    // from yet another address is told so at auth and closed with 1013 (try again later)...
    const b = '127.0.9.3';
    const bSocks = [];
    for (let i = 0; i < 4; i++) bSocks.push(await open(g.id, b, `spectator ${i} of g from ${b}`));
    bSocks.push(await open(g.id, '127.0.9.7', 'a fifth spectator of g'));
    await refusedSpectator(g.id, '127.0.9.4', 'a fifth spectator of one game');
    // ...but a seat is never kept out of its own game by the crowd: a third socket of seat 1 gets in.
    {
      const r = await tryWebSocket(srv, g.id, { localAddress: '127.0.9.6' });
      assert.equal(r.status, 101, 'a seat\'s WebSocket on a game full of spectators');
      sockets.push(r.sock);
      r.sock.send({ type: 'auth', token: g.tokens[1] });
      assert.equal((await r.sock.next()).type, 'update', 'the seat is let in');
      seats.push(r.sock);
    }
    // Another game is not full (it has four).
    await open(g2.id, '127.0.9.5', 'a spectator of the other game');

    // The seats' own sockets and the game still work; so do the attackers' spectators (they are legitimate).
    const m = await httpRequest(srv, 'POST', `/api/games/${g.id}/moves`, { localAddress: victim, body: { move: 'd1' }, token: g.tokens[0] });
    assert.equal(m.status, 200);
    for (const s of [...seats, ...bSocks]) {
      const u = await s.next();
      assert.equal(u.observation.ply, 1);
      assert.deepEqual(u.events, m.body.events);
    }
    await victimPlays(srv, victim, 'during the WebSocket flood');

    // It recovers: once the attackers close, their addresses and the game take new sockets again.
    for (const s of aSocks) s.close();
    await waitUntil(async () => {
      const r = await tryWebSocket(srv, g2.id, { localAddress: a });
      if (r.sock) sockets.push(r.sock);
      return r.status === 101;
    }, { timeoutMs: 10000, intervalMs: 100, what: `a new WebSocket from ${a} after its sockets closed` });
    bSocks[0].close();
    await waitUntil(async () => {
      const r = await tryWebSocket(srv, g.id, { localAddress: '127.0.9.4' });
      if (!r.sock) return false;
      sockets.push(r.sock);
      r.sock.send({ type: 'auth' });
      return (await r.sock.next()).type === 'update';
    }, { timeoutMs: 10000, intervalMs: 100, what: 'a new spectator of g once a place is free' });
    assertHealthyLog(srv, 'WebSocket flood');
  } finally {
    for (const s of sockets) s.ws.terminate();
    await srv.stop('SIGKILL');
  }
});

test('open WebSockets count as connections, per address and in total', async () => {
  const srv = await startServer({ db: newDb(), limits: { 'max-connections': 6, 'max-connections-per-ip': 3 } });
  const sockets = [];
  try {
    const { id } = (await httpRequest(srv, 'POST', '/api/games', { localAddress: '127.0.14.9', body: TIGADI_HUMANS })).body;
    const watchFrom = async (localAddress) => {
      const s = await openSocket(srv, id, { localAddress });
      sockets.push(s);
      s.send({ type: 'auth' });
      assert.equal((await s.next()).type, 'update');
      return s;
    };
    for (let i = 0; i < 3; i++) await watchFrom('127.0.14.1');
    const fourth = await httpRequest(srv, 'GET', '/healthz', { localAddress: '127.0.14.1' });
    assertRefusal(fourth, 429, 'an HTTP request from an address holding 3 WebSockets (--max-connections-per-ip 3)', { retryAfter: 'any' });
    const b = [];
    for (let i = 0; i < 3; i++) b.push(await watchFrom('127.0.14.2'));
    const seventh = await httpRequest(srv, 'GET', '/healthz', { localAddress: '127.0.14.3' });
    assertRefusal(seventh, 503, 'a request while 6 WebSockets are open (--max-connections 6)', { retryAfter: '1' });
    b[0].close();
    await recovers(srv, '127.0.14.3', 'once a WebSocket closed');
    assertHealthyLog(srv, 'WebSockets as connections');
  } finally {
    for (const s of sockets) s.ws.terminate();
    await srv.stop('SIGKILL');
  }
});

test('request flood: --rate 20 --burst 20: 429 with Retry-After on a connection that stays usable; others served; served again after Retry-After', async () => {
  const srv = await startServer({ db: newDb(), limits: { rate: 20, burst: 20 } });
  const conn = await RawConn.connect(srv, { localAddress: '127.0.10.2' });
  try {
    // Every kind of request counts: API, static files, /healthz.
    const paths = ['/healthz', '/index.html', '/api/games/kinds', '/api/games'];
    // 100 requests at once on one keep-alive connection (pipelined), then their 100 answers, in order.
    const answers = [];
    const start = Date.now();
    const sentPaths = Array.from({ length: 100 }, (_, i) => paths[i % paths.length]);
    conn.write(Buffer.concat(sentPaths.map((p) => requestBytes('GET', p))));
    for (const [i, p] of sentPaths.entries()) {
      const res = await conn.readResponse().catch((e) => { throw new Error(`request ${i} (${p}): ${e.message}`); });
      answers.push({ p, res });
    }
    const elapsed = (Date.now() - start) / 1000;
    const ok = answers.filter((a) => a.res.status === 200).length;
    const limited = answers.filter((a) => a.res.status === 429);
    console.log(`# 100 requests in ${elapsed.toFixed(2)} s: ${ok} × 200, ${limited.length} × 429`);
    assert.equal(ok + limited.length, 100, `only 200 and 429: ${answers.map((a) => a.res.status).join(' ')}`);
    assert.deepEqual(answers.slice(0, 20).map((a) => a.res.status), Array(20).fill(200), 'a full bucket: the first 20 pass');
    assert.ok(limited.length > 0, 'some are refused');
    assert.ok(ok <= 20 + Math.ceil(20 * elapsed) + 1, `at most burst + rate × time pass: ${ok} in ${elapsed} s`);
    for (const p of paths) assert.ok(limited.some((a) => a.p === p), `${p} counts toward the rate too`);
    for (const a of limited) assertRefusal(a.res, 429, `a flood request to ${a.p}`, { retryAfter: '1', keepAlive: true });
    assert.ok(!conn.ended, 'the connection stays open after 429s');

    // Another address is served meanwhile.
    await victimPlays(srv, '127.0.10.3', 'during the request flood');

    // A client does what Retry-After says: it waits that long (the bucket refills with time, so this wait is
    // the behaviour under test, not a guess), then is served again on the same connection.
    const retryAfter = Number(limited.at(-1).res.headers['retry-after']);
    assert.ok(retryAfter >= 1, 'Retry-After is a number of seconds');
    await sleep(retryAfter * 1000 + 100);
    for (let i = 0; i < 10; i++) {
      conn.write(requestBytes('GET', paths[i % paths.length]));
      const res = await conn.readResponse();
      assert.equal(res.status, 200, `request ${i} after Retry-After: ${res.text}`);
    }
    assertHealthyLog(srv, 'request flood');
  } finally {
    conn.destroy();
    await srv.stop('SIGKILL');
  }
});

test('WebSocket message flood: the flooder is closed with 1008; the others on the game still get updates', async () => {
  const srv = await startServer({ db: newDb(), limits: { rate: 20, burst: 20 } });
  const sockets = [];
  try {
    const victim = '127.0.11.1';
    const { id, tokens } = (await httpRequest(srv, 'POST', '/api/games', { localAddress: victim, body: TIGADI_HUMANS })).body;
    const seat = await openSocket(srv, id, { localAddress: victim });
    sockets.push(seat);
    seat.send({ type: 'auth', token: tokens[0] });
    await seat.next();
    const watcher = await openSocket(srv, id, { localAddress: '127.0.11.3' });
    sockets.push(watcher);
    watcher.send({ type: 'auth' });
    await watcher.next();

    const flooder = await openSocket(srv, id, { localAddress: '127.0.11.2' });
    sockets.push(flooder);
    flooder.send({ type: 'auth' });
    assert.equal((await flooder.next()).type, 'update');
    let sent = 0;
    for (let i = 0; i < 200 && flooder.ws.readyState === flooder.ws.OPEN; i++) {
      flooder.send({ type: 'noop', i });
      sent++;
    }
    const closed = await flooder.waitClose(10000);
    console.log(`# the flooder sent ${sent} messages; closed with ${closed.code} ${closed.reason}`);
    assert.equal(closed.code, 1008, `close code ${closed.code} ${closed.reason}`);

    const m = await httpRequest(srv, 'POST', `/api/games/${id}/moves`, { localAddress: victim, body: { move: 'd1' }, token: tokens[0] });
    assert.equal(m.status, 200);
    for (const s of [seat, watcher]) {
      const u = await s.next();
      assert.equal(u.type, 'update');
      assert.equal(u.observation.ply, 1);
      assert.deepEqual(u.events, m.body.events);
    }
    assert.equal(seat.closed, null);
    assert.equal(watcher.closed, null);
    await victimPlays(srv, victim, 'after a WebSocket flood');
    assertHealthyLog(srv, 'WebSocket message flood');
  } finally {
    for (const s of sockets) s.ws.terminate();
    await srv.stop('SIGKILL');
  }
});

test('game creation flood: --games-per-hour 5: the 6th game from one address is 429; another address still creates; the games play', async () => {
  const srv = await startServer({ db: newDb(), limits: { 'games-per-hour': 5 } });
  try {
    const attacker = '127.0.12.2';
    const made = [];
    for (let i = 0; i < 5; i++) {
      const r = await httpRequest(srv, 'POST', '/api/games', { localAddress: attacker, body: TIGADI_HUMANS });
      assert.equal(r.status, 201, `game ${i + 1}: ${r.text}`);
      made.push(r.body);
    }
    for (let i = 0; i < 3; i++) {
      const sixth = await httpRequest(srv, 'POST', '/api/games', { localAddress: attacker, body: TIGADI_HUMANS });
      assertRefusal(sixth, 429, `game ${6 + i} from one address`, { keepAlive: true });
    }
    const list = await httpRequest(srv, 'GET', '/api/games', { localAddress: attacker });
    assert.equal(list.status, 200, 'other requests from the address are served');
    assert.equal(list.body.length, 5, 'no sixth game exists');
    const m = await httpRequest(srv, 'POST', `/api/games/${made[0].id}/moves`, { localAddress: attacker, body: { move: 'd1' }, token: made[0].tokens[0] });
    assert.equal(m.status, 200, 'the games it made still play');
    await victimPlays(srv, '127.0.12.3', 'another address during the creation flood');
    assertHealthyLog(srv, 'creation flood');
  } finally {
    await srv.stop('SIGKILL');
  }
});

test('AI fairness (--ai-threads 1): a person\'s game is answered before ten AI-only games; a draw offer never waits behind searches', async () => {
  const srv = await startServer({ db: newDb(), aiMs: 1500, extra: ['--ai-threads', '1'] });
  const sockets = [];
  try {
    // Ten FACET games between two level-5 AIs (every search ~1.5 s), each watched.
    let aiOnlyMoves = 0;
    const addresses = ['127.0.13.1', '127.0.13.2', '127.0.13.3'];
    for (let i = 0; i < 10; i++) {
      const localAddress = addresses[i % addresses.length];
      const r = await httpRequest(srv, 'POST', '/api/games', { localAddress, body: {
        game: 'facet', options: {}, seats: [{ type: 'ai', level: 5 }, { type: 'ai', level: 5 }] } });
      assert.equal(r.status, 201, r.text);
      const s = await openSocket(srv, r.body.id, { localAddress });
      sockets.push(s);
      let ply = null;
      s.ws.on('message', (data) => {
        const u = JSON.parse(String(data));
        if (u.type !== 'update') return;
        if (ply !== null && u.observation.ply > ply) aiOnlyMoves += u.observation.ply - ply;
        ply = u.observation.ply;
      });
      s.send({ type: 'auth' });
    }
    // The worker is busy with them: at least one AI-only move has been made.
    await waitUntil(() => aiOnlyMoves >= 1, { timeoutMs: 30000, what: 'a first AI-only move' });

    // A person against a level-3 AI.
    const human = '127.0.13.9';
    const created = await httpRequest(srv, 'POST', '/api/games', { localAddress: human, body: {
      game: 'facet', options: {}, seats: [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 3 }] } });
    assert.equal(created.status, 201, created.text);
    const { id, tokens } = created.body;
    const seat = await openSocket(srv, id, { localAddress: human });
    sockets.push(seat);
    seat.send({ type: 'auth', token: tokens[0] });
    const first = await seat.next();
    assert.ok(first.legal.length > 0);

    const beforeMove = aiOnlyMoves;
    const m = await httpRequest(srv, 'POST', `/api/games/${id}/moves`, { localAddress: human, body: { move: first.legal[0] }, token: tokens[0] });
    assert.equal(m.status, 200, m.text);
    const reply = await seat.until((u) => u.observation.ply >= 2, 60000);
    const duringMove = aiOnlyMoves - beforeMove;
    console.log(`# AI-only moves made while the person's game waited for its AI: ${duringMove} (${aiOnlyMoves} in all)`);
    assert.ok(duringMove <= 2, `the person's game waited behind ${duringMove} AI-only moves (at most 2)`);
    assert.equal(reply.observation.to_move, 0);

    // A draw offer from the person: the AI's answer (accept or decline) comes with at most one AI-only move.
    const beforeOffer = aiOnlyMoves;
    const o = await httpRequest(srv, 'POST', `/api/games/${id}/offers`, { localAddress: human, body: { what: 'draw' }, token: tokens[0] });
    assert.equal(o.status, 200, o.text);
    const answer = await seat.until((u) => u.events.some((e) => e.type === 'offer' && e.player === 1), 60000);
    const duringOffer = aiOnlyMoves - beforeOffer;
    const what = answer.events.find((e) => e.type === 'offer' && e.player === 1).what;
    console.log(`# the AI answered the draw offer (${what}) after ${duringOffer} AI-only moves`);
    assert.ok(['accept', 'decline'].includes(what), what);
    assert.ok(duringOffer <= 1, `the draw offer waited behind ${duringOffer} AI-only moves (at most 1)`);

    // Once nobody waits, the AI-only games go on (served after, not starved).
    const resumed = aiOnlyMoves;
    await waitUntil(() => aiOnlyMoves >= resumed + 2, { timeoutMs: 30000, what: 'two more AI-only moves once the person\'s game is answered' });
    assertHealthyLog(srv, 'AI fairness');
  } finally {
    for (const s of sockets) s.ws.terminate();
    await srv.stop('SIGKILL');
  }
});
