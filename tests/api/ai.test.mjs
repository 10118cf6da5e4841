// AI seats: the AI answers a human's move on its own, pushed over the WebSocket; an AI that moves first
// starts by itself.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { call, createGame, openSocket, startServer, tempDir } from './lib.mjs';

let server;

before(async () => {
  server = await startServer({ db: path.join(tempDir(), 'tabula.db') });
});
after(async () => {
  await server.stop('SIGTERM');
});

test('the AI replies to a human move', async () => {
  const { id, tokens, seats } = await createGame(server, [{ type: 'human', name: 'Ana' }, { type: 'ai', level: 3 }]);
  assert.deepEqual(Object.keys(tokens), ['0'], 'no token for an AI seat');
  assert.equal(seats[1].type, 'ai');
  assert.equal(seats[1].level, 3);
  const sock = await openSocket(server, id);
  sock.send({ type: 'auth', token: tokens[0] });
  const u0 = await sock.next();
  assert.ok(u0.legal.length > 0);

  const m = await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'e4' }, token: tokens[0] });
  assert.equal(m.status, 200);
  const reply = await sock.until((u) => u.observation.ply === 2, 15000);
  assert.equal(reply.observation.to_move, 0);
  assert.ok(reply.events.length >= 1);
  assert.ok(reply.events.every((e) => e.player === undefined || e.player === 1), 'the push has the AI move only');
  assert.ok(reply.legal.length > 0, 'and my moves');
  assert.ok(!JSON.stringify(reply).includes('"info"'), "the AI's thinking is not sent");

  const game = await call(server, 'GET', `/api/games/${id}`, { token: tokens[0] });
  assert.equal(game.body.observation.ply, 2);
  assert.deepEqual(game.body.legal, reply.legal);
  // A second move and a second reply.
  const m2 = await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: reply.legal[0] }, token: tokens[0] });
  assert.equal(m2.status, 200);
  await sock.until((u) => u.observation.ply === 4, 15000);
  sock.close();
});

test('an AI seat to move first starts at once', async () => {
  const { id, tokens } = await createGame(server, [{ type: 'ai', level: 1 }, { type: 'human' }]);
  const deadline = Date.now() + 10000;
  let game;
  do {
    game = await call(server, 'GET', `/api/games/${id}`, { token: tokens[1] });
    if (game.body.observation.ply >= 1) break;
    await new Promise((r) => setTimeout(r, 50));
  } while (Date.now() < deadline);
  assert.equal(game.body.observation.ply, 1);
  assert.equal(game.body.legal.length, 23);
});
