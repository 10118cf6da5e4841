// Durability: a move is acknowledged only once stored, so a server killed with SIGKILL and started
// again on the same database shows every game as it stood and play goes on. A database that is not an
// intact Tabula database stops the server with a clear message and is left as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bin, call, createGame, freePort, runToExit, startServer, tempDir } from './lib.mjs';

test('SIGKILL and restart: the game and its tokens are back, play continues', async () => {
  const db = path.join(tempDir(), 'tabula.db');
  let server = await startServer({ db });
  try {
    const { id, tokens } = await createGame(server, [{ type: 'human', name: 'Ana' }, { type: 'open' }]);
    const bo = (await call(server, 'POST', `/api/games/${id}/join`, { body: { seat: 1, name: 'Bo' } })).body.token;
    const ai = await createGame(server, [{ type: 'human' }, { type: 'ai', level: 1 }]);
    const seatToken = [tokens[0], bo];
    for (const move of ['d1', 'd7', 'g4', 'a4', 'e4']) {
      const game = (await call(server, 'GET', `/api/games/${id}`)).body;
      const res = await call(server, 'POST', `/api/games/${id}/moves`, {
        body: { move }, token: seatToken[game.observation.to_move] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    // The last acknowledged move is the one that must survive the kill.
    const before = {
      ana: (await call(server, 'GET', `/api/games/${id}`, { token: tokens[0] })).body,
      bo: (await call(server, 'GET', `/api/games/${id}`, { token: bo })).body,
      spectator: (await call(server, 'GET', `/api/games/${id}`)).body,
    };
    assert.equal(before.spectator.observation.ply, 5);
    const killed = await server.stop('SIGKILL');
    assert.equal(killed.signal, 'SIGKILL');

    server = await startServer({ db });
    assert.deepEqual((await call(server, 'GET', `/api/games/${id}`, { token: tokens[0] })).body, before.ana);
    assert.deepEqual((await call(server, 'GET', `/api/games/${id}`, { token: bo })).body, before.bo);
    assert.deepEqual((await call(server, 'GET', `/api/games/${id}`)).body, before.spectator);
    // Seed (Bo) is to move; the old tokens still act, a forged one does not.
    assert.equal((await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'c5' }, token: tokens[0] })).status, 409);
    assert.equal((await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'c5' }, token: 'a'.repeat(32) })).status, 401);
    const next = await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'c5' }, token: bo });
    assert.equal(next.status, 200);
    assert.equal(next.body.observation.ply, 6);
    const legal = (await call(server, 'GET', `/api/games/${id}`, { token: tokens[0] })).body.legal;
    assert.ok(legal.length >= 18, "18 free points (and captures)");
    const after = await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: legal[0] }, token: tokens[0] });
    assert.equal(after.status, 200);
    const record = (await call(server, 'GET', `/api/games/${id}/record`)).body;
    assert.deepEqual(record.moves.slice(0, 6), ['d1', 'd7', 'g4', 'a4', 'e4', 'c5']);

    // The AI game is back too, and its AI still answers.
    const m = await call(server, 'POST', `/api/games/${ai.id}/moves`, { body: { move: 'd1' }, token: ai.tokens[0] });
    assert.equal(m.status, 200);
    const deadline = Date.now() + 10000;
    let ply = 1;
    while (ply < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      ply = (await call(server, 'GET', `/api/games/${ai.id}`)).body.observation.ply;
    }
    assert.equal(ply, 2);
  } finally {
    await server.stop('SIGTERM');
  }
});

test('a corrupt database: clear error, non-zero exit, file untouched', async () => {
  const dir = tempDir();
  const db = path.join(dir, 'tabula.db');
  const garbage = Buffer.alloc(16384);
  for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 131 + 17) & 0xff;
  fs.writeFileSync(db, garbage);
  const port = await freePort();
  const { code, output } = await runToExit(['serve', '--host', '127.0.0.1', '--port', String(port), '--db', db]);
  assert.notEqual(code, 0);
  assert.match(output, /not an SQLite database/);
  assert.ok(output.includes(db), 'the message names the file');
  assert.ok(!/Segmentation|Aborted|terminate called/.test(output), output);
  assert.deepEqual(fs.readFileSync(db), garbage);
  assert.ok(!fs.existsSync(`${db}-wal`));
});

// --test-seed makes the AI's moves and its seats' hidden setups predictable (docs/server.md): a server reachable
// from other machines refuses it; on the loopback address it serves.
test('--test-seed on an address other than loopback: clear error, exit 2', async () => {
  const port = await freePort();
  const db = path.join(tempDir(), 'tabula.db');
  const { code, output } = await runToExit(['serve', '--host', '0.0.0.0', '--port', String(port), '--db', db, '--test-seed', '7']);
  assert.equal(code, 2, output);
  assert.match(output, /--test-seed is for tests on this machine only; refused on 0\.0\.0\.0/);
  const server = await startServer({ db: path.join(tempDir(), 'tabula.db'), extra: ['--test-seed', '7'] });
  try {
    assert.equal((await call(server, 'GET', '/healthz')).status, 200);
    assert.match(server.log(), /--test-seed 7: the AI's choices are predictable/);
  } finally {
    await server.stop('SIGTERM');
  }
});

test('a port in use: clear error, non-zero exit', async () => {
  const server = await startServer({ db: path.join(tempDir(), 'tabula.db') });
  try {
    const { code, output } = await runToExit(['serve', '--host', '127.0.0.1', '--port', String(server.port),
      '--db', path.join(tempDir(), 'other.db')]);
    assert.notEqual(code, 0);
    assert.match(output, /cannot listen/);
  } finally {
    await server.stop('SIGTERM');
  }
  assert.ok(fs.existsSync(bin));
});
