// A long game through the API: FACET has no ply limit, so two people can shuffle a stone back and forth for
// as long as they like. 3,000 plies, each POSTed with the seat's token: every move is acknowledged with its
// events, a spectator's WebSocket gets one update per ply holding only that ply's events, GET shows every
// move, and after SIGKILL and a restart on the same database the game goes on from ply 3,000. (The cost of a
// move must not grow with the game's length; that is not timed here, only shown.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { call, openSocket, startServer, tempDir, waitUntil } from './lib.mjs';
import { legalMoves } from './facet-lib.mjs';

const PLIES = 3000;

// board after `move` (no captures: the shuffle only moves to empty squares).
function apply(board, move) {
  const [from, to] = move.split('-');
  const next = { ...board };
  next[to] = next[from];
  delete next[from];
  return next;
}

// A move a-b from `legal` for `player` that lands on an empty square that is not a Throne, after which b-a is
// legal for the same player (tiles do not change without decay), on squares not in `avoid`.
function shuffleMove(board, terrain, legal, player, avoid) {
  for (const mv of legal) {
    const [a, b] = mv.split('-');
    if (board[b] || terrain[b] === 'C' || avoid.includes(a) || avoid.includes(b)) continue;
    if (legalMoves(apply(board, mv), terrain, player).includes(`${b}-${a}`)) return mv;
  }
  return null;
}

test(`${PLIES} plies of FACET between two people: acknowledged, pushed one by one, all kept, and on after SIGKILL`, async () => {
  const db = path.join(tempDir(), 'tabula.db');
  let server = await startServer({ db });
  let spectator;
  try {
    const created = await call(server, 'POST', '/api/games', {
      body: { game: 'facet', options: {}, seats: [{ type: 'human', name: 'White' }, { type: 'human', name: 'Black' }] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { id, tokens } = created.body;
    const get = (token) => call(server, 'GET', `/api/games/${id}`, { token });
    const move = (p, mv) => call(server, 'POST', `/api/games/${id}/moves`, { body: { move: mv }, token: tokens[p] });

    spectator = await openSocket(server, id);
    const pushes = [];
    spectator.ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'update') pushes.push(m);
    });
    spectator.send({ type: 'auth' });
    await waitUntil(() => pushes.length === 1, { what: 'the first update' });
    assert.equal(pushes[0].observation.ply, 0);
    pushes.shift();

    // The shuffle, from the legal lists: White a-b, Black c-d, White b-a, Black d-c, and the board is back.
    const w0 = (await get(tokens[0])).body;
    const { board, terrain } = w0.observation;
    const white = shuffleMove(board, terrain, w0.legal, 0, []);
    assert.ok(white, 'White has a move it can undo');
    const b0 = apply(board, white);
    const blackLegal = legalMoves(b0, terrain, 1);
    const black = shuffleMove(b0, terrain, blackLegal, 1, white.split('-'));
    assert.ok(black, 'Black has a move it can undo');
    const undo = (mv) => mv.split('-').reverse().join('-');
    const cycle = [white, black, undo(white), undo(black)];
    console.log(`# the shuffle: ${cycle.join(' ')}`);

    const sent = [];
    const acknowledged = [];  // the events of each answer
    const t0 = Date.now();
    let lap = t0;
    for (let ply = 0; ply < PLIES; ply++) {
      const p = ply % 2;
      const mv = cycle[ply % 4];
      if (ply < 4) {
        // The first cycle is checked against the server's own legal list.
        const legal = (await get(tokens[p])).body.legal;
        assert.ok(legal.includes(mv), `ply ${ply}: ${mv} is in ${p}'s legal list`);
      }
      const res = await move(p, mv);
      assert.equal(res.status, 200, `ply ${ply}: ${mv}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.observation.ply, ply + 1, `ply ${ply}: the answer's ply`);
      const [from, to] = mv.split('-');
      assert.deepEqual(res.body.events, [{ type: 'move', player: p, from, to }], `ply ${ply}: the answer holds this move's events`);
      sent.push(mv);
      acknowledged.push(res.body.events);
      if ((ply + 1) % 1000 === 0) {
        const now = Date.now();
        console.log(`# plies ${ply - 998}-${ply + 1}: ${now - lap} ms`);
        lap = now;
      }
    }
    assert.deepEqual(apply(apply(apply(apply(board, cycle[0]), cycle[1]), cycle[2]), cycle[3]), board);

    // One update per ply, in order, each with that ply's events only.
    await waitUntil(() => pushes.length >= PLIES, { timeoutMs: 60000, what: `${PLIES} updates on the spectator's WebSocket` })
      .catch((e) => { throw new Error(`${e.message}: ${pushes.length} arrived`); });
    for (let i = 0; i < PLIES; i++) {
      const u = pushes[i];
      assert.equal(u.observation.ply, i + 1, `update ${i}: its ply`);
      assert.deepEqual(u.events, acknowledged[i], `update ${i}: only the new events`);
      assert.deepEqual(u.legal, [], `update ${i}: a spectator has no moves`);
    }

    // GET shows every move; the record holds them all.
    const full = (await get(tokens[0])).body;
    assert.equal(full.observation.ply, PLIES);
    assert.equal(full.status, 'playing');
    assert.deepEqual(full.events, acknowledged.flat(), 'GET carries every event');
    assert.deepEqual(full.observation.board, board, 'the shuffle leaves the board as it started');
    assert.ok(full.legal.includes(cycle[0]), 'White is to move, and may shuffle again');
    const record = await call(server, 'GET', `/api/games/${id}/record`);
    assert.equal(record.status, 200);
    assert.deepEqual(record.body.moves, sent, 'the record holds every move');

    // SIGKILL, then a restart on the same database: the game goes on from ply 3,000.
    const killed = await server.stop('SIGKILL');
    assert.equal(killed.signal, 'SIGKILL');
    await spectator.waitClose(10000);
    assert.equal(pushes.length, PLIES, 'exactly one update per ply, no more');
    server = await startServer({ db });
    const back = (await get(tokens[0])).body;
    assert.equal(back.observation.ply, PLIES, 'every acknowledged move survived');
    assert.deepEqual(back.events, full.events);
    assert.deepEqual(back.observation, full.observation);
    const next = await move(0, cycle[0]);
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.observation.ply, PLIES + 1);
    const reply = await move(1, cycle[1]);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.observation.ply, PLIES + 2);
    console.log(`# ${PLIES} plies in ${Date.now() - t0} ms in all`);
  } finally {
    if (spectator) spectator.ws.terminate();
    await server.stop('SIGTERM');
  }
});
