// The four-player Game of Truth through the real server: a game of people, an open seat and AI seats; setups
// secret from every other seat and the spectators until all four are in (every byte each viewer receives, HTTP
// and WebSocket, read as an attacker would); the creator handing a seat whose person has gone to the AI and
// back, and everyone else being refused; the game going round the four seats.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { call, startServer, tempDir } from './lib.mjs';
import { Viewer } from './stratego-lib.mjs';
import { setupLeaks } from './truth-lib.mjs';

let server;
before(async () => { server = await startServer({ db: path.join(tempDir(), 'tabula.db') }); });
after(async () => { await server.stop('SIGTERM'); });

const handTo = (id, seat, body, token) => call(server, 'POST', `/api/games/${id}/seats/${seat}`, { body, token });

test('four seats: setups stay secret from the other three and the spectators; the creator hands a seat to the AI and back', async () => {
  const created = await call(server, 'POST', '/api/games', {
    body: {
      game: 'truth', options: { players: 4 },
      seats: [{ type: 'human', name: 'Ana' }, { type: 'open' }, { type: 'ai', level: 1 }, { type: 'ai', level: 2 }],
    },
  });
  assert.equal(created.status, 201, created.text);
  const g = created.body;
  assert.equal(typeof g.creator, 'string');
  assert.ok(g.creator.length >= 32);
  assert.deepEqual(Object.keys(g.tokens), ['0']);
  const ana = new Viewer(server, g.id, 0, g.tokens['0']);
  const spectator = new Viewer(server, g.id, null, null);
  for (const v of [ana, spectator]) await v.connect();

  // Ana sets up while seat 1 is open: the AI seats wait for a full table.
  const variant4 = (await call(server, 'GET', '/api/games/kinds')).body
    .find((k) => k.name === 'truth').variants.find((v) => v.players === 4);
  assert.ok(variant4, 'a four-player variant is offered');
  const placement0 = (await ana.setup({ arrangement: 'suggested' })).json.observation.board;
  assert.equal(Object.keys(placement0).length, 41);
  assert.equal((await ana.game()).json.status, 'open');

  // Bo joins through the invite (seat 1): the AI seats set up; Bo and the spectator see nobody's army but Bo's.
  const joined = await call(server, 'POST', `/api/games/${g.id}/join`, { body: { seat: 1, name: 'Bo' } });
  assert.equal(joined.status, 200, joined.text);
  const bo = new Viewer(server, g.id, 1, joined.body.token);
  await bo.connect();
  await bo.waitFrame((m) => m.type === 'update' && (m.observation?.ready ?? []).length === 3);
  const boView = (await bo.game()).json;
  assert.deepEqual(boView.observation.ready, [0, 2, 3]);
  assert.deepEqual(Object.keys(boView.observation.board), []);
  assert.equal((await bo.record()).status, 409);
  const placements = { 0: Object.fromEntries(Object.entries(placement0).map(([s, p]) => [s, p.slice(1)])) };
  for (const v of [bo, spectator]) assert.deepEqual(setupLeaks(v, 0, placements[0]), []);
  for (const owner of [2, 3]) for (const v of [ana, bo, spectator]) assert.deepEqual(setupLeaks(v, owner, {}), []);

  // Bo goes quiet. Nobody but the creator may hand his seat over: not without a token, not with a seat's
  // token, not with a forged one; a refusal changes nothing.
  const before_ = (await spectator.game()).json;
  for (const token of [undefined, g.tokens['0'], joined.body.token, 'f'.repeat(32)]) {
    const r = await handTo(g.id, 1, { type: 'ai', level: 1 }, token);
    assert.equal(r.status, 401, `${token}: ${r.text}`);
  }
  assert.equal((await handTo(g.id, 4, { type: 'ai' }, g.creator)).status, 400);
  assert.equal((await handTo(g.id, 2, { type: 'ai' }, g.creator)).status, 409, 'an AI seat from the start');
  assert.equal((await handTo(g.id, 1, { type: 'human' }, g.creator)).status, 409, 'not handed');
  assert.deepEqual((await spectator.game()).json.seats, before_.seats);

  // The creator hands seat 1 to the AI: it sets up for Bo, play begins, every army is public at once.
  const handed = await handTo(g.id, 1, { type: 'ai', level: 1 }, g.creator);
  assert.equal(handed.status, 200, handed.text);
  assert.deepEqual(handed.body.seats[1], { seat: 1, type: 'ai', name: 'Bo', level: 1, handed: true });
  await spectator.waitFrame((m) => m.type === 'update' && m.observation?.phase === 'play');
  const inPlay = (await spectator.game()).json;
  assert.equal(Object.keys(inPlay.observation.board).length, 164);
  assert.deepEqual((await bo.game()).json.observation, inPlay.observation);
  // Bo's token still shows the seat, but acts for it no more.
  const refused = await bo.offer('resign');
  assert.equal(refused.status, 409, refused.text);
  assert.match(refused.json.error, /AI plays this seat/);

  // Ana plays her turn; the three AI seats (Bo's included) play theirs; it is Ana's turn again.
  for (let action = 0; action < 2; action++) {
    const legal = (await ana.game()).json.legal;
    assert.equal((await ana.move(legal[0])).status, 200);
  }
  await ana.waitFrame((m) => m.type === 'update' && m.observation?.to_move === 0 && m.observation?.ply === 4, 30000);

  // The creator gives seat 1 back: Bo's own token acts again when his turn comes.
  const back = await handTo(g.id, 1, { type: 'human' }, g.creator);
  assert.equal(back.status, 200, back.text);
  assert.deepEqual(back.body.seats[1], { seat: 1, type: 'human', name: 'Bo', level: null, handed: false });
  for (let action = 0; action < 2; action++) {
    const legal = (await ana.game()).json.legal;
    assert.equal((await ana.move(legal[0])).status, 200);
  }
  const boTurn = (await bo.game()).json;
  assert.equal(boTurn.observation.to_move, 1);
  assert.ok(boTurn.legal.length > 0);
  assert.equal((await bo.move(boTurn.legal[0])).status, 200);
  // No token of any kind appears in what the viewers received, the creator's included.
  for (const v of [ana, bo, spectator]) {
    for (const entry of v.log) {
      assert.ok(!entry.text.includes(g.creator), `${v.name} received the creator's token`);
      if (v !== bo) assert.ok(!entry.text.includes(joined.body.token), `${v.name} received Bo's token`);
    }
  }
  for (const v of [ana, bo, spectator]) v.close();
});

test('a four-player game that ends: the first icon lost leaves the others sharing the victory', async () => {
  const created = await call(server, 'POST', '/api/games', {
    body: { game: 'truth', options: { players: 4 }, seats: [{ type: 'human' }, { type: 'human' }, { type: 'human' }, { type: 'human' }] },
  });
  assert.equal(created.status, 201, created.text);
  const g = created.body;
  const seats = [0, 1, 2, 3].map((p) => new Viewer(server, g.id, p, g.tokens[String(p)]));
  for (const v of seats) assert.equal((await v.setup({ arrangement: 'suggested' })).status, 200);
  // Jade resigns: Ivory, Ember and Indigo share the victory; the creator can hand nothing over any more.
  const r = await seats[1].offer('resign');
  assert.equal(r.status, 200, r.text);
  const over = (await seats[0].game()).json;
  assert.deepEqual(over.result, { winners: [0, 2, 3], reason: 'resignation' });
  assert.equal((await handTo(g.id, 1, { type: 'ai', level: 2 }, g.creator)).status, 409);
});
