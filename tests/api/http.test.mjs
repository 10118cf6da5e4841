// The HTTP API of server-api.md against the real binary: kinds, games, seats and tokens, moves, every
// error status, records, lists and the static files.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { call, createGame, startServer, tempDir } from './lib.mjs';

let server;

before(async () => {
  server = await startServer({ db: path.join(tempDir(), 'tabula.db') });
});
after(async () => {
  const { code } = await server.stop('SIGTERM');
  assert.equal(code, 0, 'a graceful stop exits 0');
});

test('healthz and kinds', async () => {
  const health = await call(server, 'GET', '/healthz');
  assert.equal(health.status, 200);
  assert.equal(health.body, 'ok');
  const kinds = await call(server, 'GET', '/api/games/kinds');
  assert.equal(kinds.status, 200);
  const tigadi = kinds.body.find((k) => k.name === 'tigadi');
  assert.ok(tigadi, 'tigadi is listed');
  assert.deepEqual(tigadi.player_counts, [2]);
  assert.deepEqual(tigadi.ai_levels, [1, 2, 3, 4, 5]);
  assert.equal(typeof tigadi.options, 'object');
  assert.equal(tigadi.hidden_information, false);
  assert.deepEqual(tigadi.variants, [{ players: 2, arrangements: [], placements: {}, options: {} }]);
  for (const k of kinds.body) {
    assert.deepEqual(k.variants.map((v) => v.players), k.player_counts, `${k.name}: one variant per player count`);
  }
});

test('two humans through an invite: join, moves with both tokens, turn and legality errors', async () => {
  const created = await createGame(server, [{ type: 'human', name: 'Ana' }, { type: 'open' }]);
  assert.match(created.id, /^[0-9a-f]+$/);
  assert.deepEqual(Object.keys(created.tokens), ['0']);
  assert.match(created.tokens[0], /^[0-9a-f]{32}$/);
  const id = created.id;
  const ana = created.tokens[0];

  let open = await call(server, 'GET', '/api/games?status=open');
  assert.ok(open.body.some((g) => g.id === id && g.status === 'open'), 'the lobby lists the open game');

  // Nobody moves until the open seat is taken.
  assert.equal((await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd1' }, token: ana })).status, 409);

  const join = await call(server, 'POST', `/api/games/${id}/join`, { body: { seat: 1, name: 'Bo' } });
  assert.equal(join.status, 200);
  assert.match(join.body.token, /^[0-9a-f]{32}$/);
  const bo = join.body.token;
  const again = await call(server, 'POST', `/api/games/${id}/join`, { body: { seat: 1, name: 'Eve' } });
  assert.equal(again.status, 409);
  assert.ok(again.body.error);
  open = await call(server, 'GET', '/api/games?status=open');
  assert.ok(!open.body.some((g) => g.id === id), 'a full game leaves the open list');

  const spectator = await call(server, 'GET', `/api/games/${id}`);
  assert.equal(spectator.status, 200);
  assert.equal(spectator.body.status, 'playing');
  assert.equal(spectator.body.you, null);
  assert.deepEqual(spectator.body.legal, []);
  assert.deepEqual(spectator.body.seats[1], { seat: 1, type: 'human', name: 'Bo', level: null, handed: false });
  assert.equal(spectator.body.observation.to_move, 0);
  const asAna = await call(server, 'GET', `/api/games/${id}`, { token: ana });
  assert.equal(asAna.body.you, 0);
  assert.equal(asAna.body.legal.length, 24, 'every point is free');
  assert.deepEqual((await call(server, 'GET', `/api/games/${id}`, { token: bo })).body.legal, []);

  const m1 = await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd1' }, token: ana });
  assert.equal(m1.status, 200);
  assert.equal(m1.body.observation.board.d1, '0G');
  assert.equal(m1.body.observation.ply, 1);
  assert.ok(m1.body.events.length >= 1);

  const wrongTurn = await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd7' }, token: ana });
  assert.equal(wrongTurn.status, 409);
  const illegal = await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd1' }, token: bo });
  assert.equal(illegal.status, 422);
  assert.ok(illegal.body.error);
  const nonsense = await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'z9-q0' }, token: bo });
  assert.ok([400, 422].includes(nonsense.status), `unparsable move: ${nonsense.status}`);

  const m2 = await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd7' }, token: bo });
  assert.equal(m2.status, 200);
  assert.equal(m2.body.observation.ply, 2);

  const full = await call(server, 'GET', `/api/games/${id}`, { token: ana });
  assert.deepEqual(full.body.events, [...m1.body.events, ...m2.body.events], 'GET carries every event');
  assert.equal(full.body.legal.length, 22);

  // No token ever appears in what others can read.
  for (const text of [JSON.stringify(full.body), JSON.stringify((await call(server, 'GET', '/api/games')).body)]) {
    assert.ok(!text.includes(ana) && !text.includes(bo), 'tokens stay secret');
  }

  const record = await call(server, 'GET', `/api/games/${id}/record`);
  assert.equal(record.status, 200, 'Tigadi hides nothing, so its record is public during play');
  assert.deepEqual(record.body.moves, ['d1', 'd7']);
  assert.equal(record.body.game, 'tigadi');
  assert.equal(record.body.result, null);

  // Resignation ends it; afterwards everything is 409.
  const resign = await call(server, 'POST', `/api/games/${id}/offers`, { body: { what: 'resign' }, token: bo });
  assert.equal(resign.status, 200);
  assert.deepEqual(resign.body.observation.result, { winners: [0], reason: 'resignation' });
  const over = await call(server, 'GET', `/api/games/${id}`);
  assert.equal(over.body.status, 'over');
  assert.deepEqual(over.body.result, { winners: [0], reason: 'resignation' });
  assert.equal((await call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'g1' }, token: ana })).status, 409);
  assert.equal((await call(server, 'POST', `/api/games/${id}/offers`, { body: { what: 'resign' }, token: ana })).status, 409);
  assert.deepEqual((await call(server, 'GET', `/api/games/${id}/record`)).body.result, { winners: [0], reason: 'resignation' });
});

test('401, 400, 404 and 413', async () => {
  const { id, tokens } = await createGame(server, [{ type: 'human' }, { type: 'human' }]);
  const other = await createGame(server, [{ type: 'human' }, { type: 'human' }]);
  const move = (opts) => call(server, 'POST', `/api/games/${id}/moves`, { body: { move: 'd1' }, ...opts });

  assert.equal((await move({})).status, 401, 'no token');
  assert.equal((await move({ token: 'f'.repeat(32) })).status, 401, 'forged token');
  assert.equal((await move({ token: other.tokens[0] })).status, 401, "another game's token");
  assert.equal((await move({ headers: { Authorization: `Basic ${tokens[0]}` } })).status, 401, 'not a bearer token');
  assert.equal((await call(server, 'GET', `/api/games/${id}`, { token: 'nope' })).status, 401);
  const unauthorized = await move({ token: 'f'.repeat(32) });
  assert.ok(typeof unauthorized.body.error === 'string');

  const malformed = await call(server, 'POST', `/api/games/${id}/moves`, {
    raw: '{"move": "d1"', token: tokens[0], headers: { 'Content-Type': 'application/json' } });
  assert.equal(malformed.status, 400);
  assert.ok(malformed.body.error);
  assert.equal((await call(server, 'POST', '/api/games', { raw: 'not json' })).status, 400);
  assert.equal((await call(server, 'POST', `/api/games/${id}/moves`, { body: { mov: 'd1' }, token: tokens[0] })).status, 400);
  assert.equal((await call(server, 'POST', `/api/games/${id}/moves`, { body: ['d1'], token: tokens[0] })).status, 400);
  const oneSeat = await call(server, 'POST', '/api/games', { body: { game: 'tigadi', seats: [{ type: 'human' }] } });
  assert.equal(oneSeat.status, 400);
  assert.equal(oneSeat.body.error, 'Tigadi is for 2 players, so it needs 2 seats, not 1');
  assert.equal((await call(server, 'POST', '/api/games', { body: { game: 'nope', seats: [] } })).status, 400);
  assert.equal((await call(server, 'POST', '/api/games', {
    body: { game: 'tigadi', seats: [{ type: 'human' }, { type: 'ai', level: 9 }] } })).status, 400);
  assert.equal((await call(server, 'POST', `/api/games/${id}/offers`, { body: { what: 'surrender' }, token: tokens[0] })).status, 400);
  assert.equal((await call(server, 'GET', '/api/games?status=whatever')).status, 400);

  for (const p of ['/api/games/0123456789abcdef', '/api/games/0123456789abcdef/record']) {
    const res = await call(server, 'GET', p);
    assert.equal(res.status, 404, p);
    assert.ok(res.body.error);
  }
  assert.equal((await call(server, 'POST', '/api/games/0123456789abcdef/moves', { body: { move: 'd1' }, token: tokens[0] })).status, 404);
  assert.equal((await call(server, 'POST', '/api/games/0123456789abcdef/join', { body: { seat: 0 } })).status, 404);
  assert.equal((await call(server, 'GET', '/api/nothing')).status, 404);

  const big = JSON.stringify({ move: 'd1', padding: 'x'.repeat(200 * 1024) });
  const tooLarge = await call(server, 'POST', `/api/games/${id}/moves`, {
    raw: big, token: tokens[0], headers: { 'Content-Type': 'application/json' } });
  assert.equal(tooLarge.status, 413);
  // The server is still fine and nothing was played.
  assert.equal((await call(server, 'GET', `/api/games/${id}`)).body.observation.ply, 0);
});

test('lists: all games newest first, and by ids', async () => {
  const a = await createGame(server, [{ type: 'human' }, { type: 'human' }]);
  const b = await createGame(server, [{ type: 'human' }, { type: 'ai', level: 1 }]);
  const all = await call(server, 'GET', '/api/games');
  assert.equal(all.status, 200);
  const ids = all.body.map((g) => g.id);
  assert.ok(ids.indexOf(b.id) < ids.indexOf(a.id), 'newest first');
  for (const g of all.body) {
    for (const key of ['id', 'game', 'seats', 'status', 'created']) assert.ok(key in g, key);
  }
  const some = await call(server, 'GET', `/api/games?ids=${a.id},unknown,${b.id}`);
  assert.deepEqual(some.body.map((g) => g.id).sort(), [a.id, b.id].sort());
});

test('static files', async () => {
  const index = await call(server, 'GET', '/');
  assert.equal(index.status, 200);
  assert.match(index.headers.get('content-type'), /^text\/html/);
  const js = await fetch(`${server.url}/js/api.js`);
  assert.equal(js.status, 200);
  assert.match(js.headers.get('content-type'), /^text\/javascript/);
  const css = await fetch(`${server.url}/css/tabula.css`);
  assert.match(css.headers.get('content-type'), /^text\/css/);
  assert.equal((await fetch(`${server.url}/no-such-file.html`)).status, 404);
  assert.equal((await fetch(`${server.url}/%2e%2e/%2e%2e/etc/passwd`)).status, 404);
  assert.equal((await fetch(`${server.url}/js/..%2f..%2f..%2fCMakeLists.txt`)).status, 404);
  assert.equal((await fetch(`${server.url}/.git/config`)).status, 404);
});
