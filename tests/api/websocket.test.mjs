// The WebSocket of server-api.md: auth as a seat or a spectator, one update with every event right after
// auth, then one update per change with only the new events; a bad token gets an error and a close.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import WebSocket from 'ws';
import { once } from 'node:events';
import { call, createGame, openSocket, startServer, tempDir } from './lib.mjs';

let server;

before(async () => {
  server = await startServer({ db: path.join(tempDir(), 'tabula.db') });
});
after(async () => {
  await server.stop('SIGTERM');
});

test('seats and spectators get updates after every change', async () => {
  const { id, tokens } = await createGame(server, [{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }]);
  const first = await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd1' }, token: tokens[0] });
  assert.equal(first.status, 200);

  const spectator = await openSocket(server, id);
  spectator.send({ type: 'auth' });
  const seed = await openSocket(server, id);
  seed.send({ type: 'auth', token: tokens[1] });

  // Right after auth: one update with every event so far.
  const s0 = await spectator.next();
  assert.equal(s0.type, 'update');
  assert.deepEqual(s0.events, first.body.events);
  assert.deepEqual(s0.legal, []);
  assert.equal(s0.observation.ply, 1);
  assert.equal(s0.hidden, false, 'Tigadi hides nothing');
  const b0 = await seed.next();
  assert.equal(b0.type, 'update');
  assert.equal(b0.legal.length, 23, 'Seed is to move and sees its moves');

  // A move pushes only the new events, to both.
  const m = await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd7' }, token: tokens[1] });
  const s1 = await spectator.next();
  const b1 = await seed.next();
  assert.deepEqual(b1.events, m.body.events);
  assert.deepEqual(s1.events, m.body.events, 'Tigadi shows spectators every event');
  assert.equal(s1.observation.ply, 2);
  assert.deepEqual(b1.legal, [], 'now it is Bone who moves');
  assert.deepEqual(s1.observation, (await call(server, 'GET', `/api/games/${id}`)).body.observation);

  // Bone connects late and is told what it may do.
  const bone = await openSocket(server, id);
  bone.send({ type: 'auth', token: tokens[0] });
  const a0 = await bone.next();
  assert.equal(a0.events.length, 2);
  assert.equal(a0.legal.length, 22);

  // The end is pushed too.
  await call(server, 'POST', `/api/games/${id}/offers`, { body: { what: 'resign' }, token: tokens[0] });
  for (const sock of [spectator, seed, bone]) {
    const u = await sock.next();
    assert.equal(u.observation.phase, 'over');
    assert.deepEqual(u.observation.result, { winners: [1], reason: 'resignation' });
    assert.deepEqual(u.legal, []);
    sock.close();
  }
});

test('a joined seat is announced', async () => {
  const { id } = await createGame(server, [{ type: 'human' }, { type: 'open' }]);
  const spectator = await openSocket(server, id);
  spectator.send({ type: 'auth' });
  const u0 = await spectator.next();
  assert.equal(u0.status, 'open');
  await call(server, 'POST', `/api/games/${id}/join`, { body: { seat: 1, name: 'Bo' } });
  const u1 = await spectator.next();
  assert.equal(u1.status, 'playing');
  assert.equal(u1.seats[1].name, 'Bo');
  assert.ok(!JSON.stringify(u1).includes('token'), 'no token in a push');
  spectator.close();
});

test('a bad token or a bad first message gets an error and a close', async () => {
  const { id, tokens } = await createGame(server, [{ type: 'human' }, { type: 'human' }]);
  const other = await createGame(server, [{ type: 'human' }, { type: 'human' }]);
  for (const first of [{ type: 'auth', token: 'f'.repeat(32) }, { type: 'auth', token: other.tokens[0] },
    { type: 'hello' }, 'not json at all']) {
    const sock = await openSocket(server, id);
    sock.send(first);
    const m = await sock.next();
    assert.equal(m.type, 'error', JSON.stringify(first));
    assert.equal(typeof m.error, 'string');
    assert.ok(!m.error.includes(tokens[0]));
    const end = await sock.next();
    assert.equal(end.closed, true);
  }
});

test('an unknown game is refused before the upgrade', async () => {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws/games/0123456789abcdef`);
  ws.on('error', () => { /* expected: the upgrade is refused */ });
  const [, res] = await once(ws, 'unexpected-response');
  assert.equal(res.statusCode, 404);
  ws.terminate();
});
