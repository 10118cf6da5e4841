// FACET through the HTTP API (server-api.md, shared/spec/rulings.md FACET, docs/rulings.md F1-F13): the kinds
// list with its options and AI levels; games created with each mode and layout, bad options refused (momentum
// with decay or fog among them); decay and momentum seen through the API; a bump under fog, told whole to the
// mover and without `bump` to the other seat; draw offers between two humans (accept, decline, a move that
// declines) and to the AI (which accepts standing level or worse and declines standing better); the record
// of a fog game only once it is over.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { call, openSocket, startServer, tempDir } from './lib.mjs';
import { legalMoves } from './facet-lib.mjs';

let server;

before(async () => {
  server = await startServer({ db: path.join(tempDir(), 'tabula.db') });
});
after(async () => {
  await server.stop('SIGTERM');
});

const HUMANS = [{ type: 'human', name: 'White' }, { type: 'human', name: 'Black' }];

async function create(options, seats = HUMANS) {
  const res = await call(server, 'POST', '/api/games', { body: { game: 'facet', options, seats } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
const get = (id, token) => call(server, 'GET', `/api/games/${id}`, { token });
const move = (id, token, mv) => call(server, 'POST', `/api/games/${id}/moves`, { body: { move: mv }, token });
const offer = (id, token, what) => call(server, 'POST', `/api/games/${id}/offers`, { body: { what }, token });
const record = (id) => call(server, 'GET', `/api/games/${id}/record`);
const stones = (obs, p) => Object.values(obs.board).filter((v) => v[0] === String(p)).length;

test('kinds: facet with its options and AI levels', async () => {
  const kinds = await call(server, 'GET', '/api/games/kinds');
  assert.equal(kinds.status, 200);
  const f = kinds.body.find((k) => k.name === 'facet');
  assert.ok(f, 'facet is listed');
  assert.equal(f.title, 'FACET');
  assert.deepEqual(f.player_counts, [2]);
  assert.deepEqual(f.options, { layout: 'classic', seed: 0, modes: [] });
  assert.deepEqual(f.ai_levels, [1, 2, 3, 4, 5]);
  assert.equal(f.hidden_information, true, 'a FACET game can hide information (with fog); a game says whether it does: hidden');
  assert.deepEqual(f.arrangements, {}, 'no setups');
  assert.deepEqual(f.variants, [{ players: 2, arrangements: [], placements: {}, options: { layout: 'classic', seed: 0, modes: [] } }]);
});

test('create: each mode and layout, options kept and shown; bad options 400, momentum with decay or fog among them', async () => {
  const cases = [
    [{}, { layout: 'classic', seed: 0, modes: [] }],
    [{ modes: ['decay'] }, { layout: 'classic', seed: 0, modes: ['decay'] }],
    [{ modes: ['momentum'] }, { layout: 'classic', seed: 0, modes: ['momentum'] }],
    [{ modes: ['fog'] }, { layout: 'classic', seed: 0, modes: ['fog'] }],
    [{ modes: ['fog', 'decay'], layout: 'random', seed: 42 }, { layout: 'random', seed: 42, modes: ['decay', 'fog'] }],
  ];
  for (const [options, want] of cases) {
    const { id, tokens } = await create(options);
    const g = (await get(id, tokens[0])).body;
    assert.deepEqual(g.options, want, JSON.stringify(options));
    assert.deepEqual(g.observation.options, want);
    assert.equal(g.game, 'facet');
    assert.equal(g.observation.phase, 'play');
    assert.equal(stones(g.observation, 0), 18);
    assert.equal(Object.values(g.observation.terrain).filter((t) => t === 'C').length, 3, 'three Thrones');
    const fog = want.modes.includes('fog');
    assert.equal('visible' in g.observation, fog, 'visible only under fog');
    assert.equal('ghosts' in g.observation, fog, 'ghosts only under fog');
    // Under fog the enemy is out of sight at the start: every Black stone is a ghost, none on the board.
    if (fog) {
      assert.equal(stones(g.observation, 1), 0);
      assert.equal(Object.keys(g.observation.ghosts).length, 18);
      const spectator = (await get(id)).body.observation;
      assert.deepEqual(spectator.visible, ['c5', 'e5', 'g5']);
      assert.deepEqual(spectator.board, {});
      assert.deepEqual(spectator.ghosts, {});
    } else {
      assert.deepEqual((await get(id)).body.observation, g.observation, 'without fog everyone sees the state');
    }
    assert.deepEqual(g.legal, legalMoves(g.observation.board, g.observation.terrain, 0), 'legal is what the tiles allow');
    assert.deepEqual((await get(id, tokens[1])).body.legal, [], 'legal only for the seat to move');
    // Whether the position hides anything, told to seats and spectators alike; the record only when it does not.
    assert.equal(g.hidden, fog);
    assert.equal((await get(id)).body.hidden, fog);
    assert.equal((await record(id)).status, fog ? 409 : 200);
    if (fog) {
      await call(server, 'POST', `/api/games/${id}/offers`, { body: { what: 'resign' }, token: tokens[1] });
      assert.equal((await get(id)).body.hidden, false, 'nothing is hidden once over');
      assert.equal((await record(id)).status, 200);
    }
  }
  const bad = [
    { modes: ['momentum', 'decay'] },
    { modes: ['fog', 'momentum'] },
    { modes: ['decay', 'fog', 'momentum'] },
    { modes: ['fog', 'fog'] },
    { modes: ['chaos'] },
    { modes: 'fog' },
    { layout: 'hex' },
    { seed: -1 },
    { seed: 'x' },
    { fog: true },
  ];
  for (const options of bad) {
    const res = await call(server, 'POST', '/api/games', { body: { game: 'facet', options, seats: HUMANS } });
    assert.equal(res.status, 400, `${JSON.stringify(options)}: ${JSON.stringify(res.body)}`);
    assert.equal(typeof res.body.error, 'string');
    if (options.modes?.includes?.('momentum')) assert.match(res.body.error, /momentum cannot be combined with (decay|fog)/);
  }
  const ai = await call(server, 'POST', '/api/games', { body: { game: 'facet', options: {}, seats: [HUMANS[0], { type: 'ai', level: 6 }] } });
  assert.equal(ai.status, 400, 'no AI level 6');
});

test('decay and momentum through the API', async () => {
  // Decay: the Gate on e2 drops to a Field when its stone leaps away.
  const d = await create({ modes: ['decay'] });
  const m1 = await move(d.id, d.tokens[0], 'e2-d4');
  assert.equal(m1.status, 200, JSON.stringify(m1.body));
  assert.deepEqual(m1.body.events, [{ type: 'move', player: 0, from: 'e2', to: 'd4' }, { type: 'decay', square: 'e2', from: 'G', to: 'F' }]);
  assert.equal(m1.body.observation.terrain.e2, undefined, 'e2 is a Field now');
  assert.equal(m1.body.observation.terrain.d4, 'G', 'the tile it landed on is untouched');

  // Momentum: the stone that left the Spire on d2 keeps the Spire's move for its owner's next turn.
  const g = await create({ modes: ['momentum'] });
  const a = await move(g.id, g.tokens[0], 'd2-f4');
  assert.equal(a.status, 200);
  assert.deepEqual(a.body.observation.badges, { f4: 'S' });
  assert.equal((await move(g.id, g.tokens[1], 'a8-a7')).status, 200);
  const legal = (await get(g.id, g.tokens[0])).body.legal;
  assert.ok(legal.includes('f4-h6'), 'a Spire slide from a Gate, by the badge');
  assert.ok(legal.includes('f4-g6'), "and the Gate's own leap");
  assert.equal((await move(g.id, g.tokens[0], 'a2-a3')).status, 200);
  assert.deepEqual((await get(g.id)).body.observation.badges, {}, 'the badge expires at the end of the turn');
});

test('a bump under fog: the mover is told where its slide stopped and what it took; the other seat, no bump', async () => {
  const { id, tokens } = await create({ modes: ['decay', 'fog'] });
  const black = await openSocket(server, id);
  black.send({ type: 'auth', token: tokens[1] });
  const spectator = await openSocket(server, id);
  spectator.send({ type: 'auth' });
  await black.next();
  await spectator.next();
  // Black walks a stone to h6, out of White's sight; White's Spire on d2 then slides for i7 across it.
  for (const [p, mv] of [[0, 'a2-a3'], [1, 'h8-h7'], [0, 'a3-a2'], [1, 'h7-h6']]) {
    assert.equal((await move(id, tokens[p], mv)).status, 200, mv);
    await black.next();
    await spectator.next();
  }
  const before = (await get(id, tokens[0])).body;
  assert.ok(!before.observation.visible.includes('h6'), 'White does not see h6');
  assert.ok(before.legal.includes('d2-i7'), 'so the slide to i7 is legal on its view');
  const bump = await move(id, tokens[0], 'd2-i7');
  assert.equal(bump.status, 200, JSON.stringify(bump.body));
  assert.deepEqual(bump.body.events, [
    { type: 'move', player: 0, from: 'd2', to: 'h6', bump: true },
    { type: 'capture', square: 'h6', piece: '1A', by: 0, points: 0 },
    { type: 'decay', square: 'd2', from: 'S', to: 'G' },
  ]);
  assert.equal(bump.body.observation.board.h6, '0A');
  assert.equal(bump.body.observation.board.i7, undefined);
  // Black: the move to h6 (it never saw d2), the capture, no decay (d2 is out of its sight), no bump.
  const b = await black.next();
  assert.deepEqual(b.events, [{ type: 'move', player: 0, to: 'h6' }, { type: 'capture', square: 'h6', piece: '1A', by: 0, points: 0 }]);
  assert.equal(b.observation.board.h6, '0A', 'Black sees the square where it lost a stone');
  assert.equal(b.observation.terrain.d2, 'S', 'Black remembers d2 as it last saw it');
  assert.equal(b.observation.ghosts.d2, '0A', 'and the stone it last saw there');
  // Spectators: nothing of it (no Throne involved).
  const s = await spectator.next();
  assert.deepEqual(s.events, []);
  assert.deepEqual(s.observation.board, {});
  const bGet = (await get(id, tokens[1])).body.events;
  assert.ok(bGet.every((e) => e.bump === undefined), 'no bump anywhere in Black\'s history');
  assert.equal((await record(id)).status, 409, 'no record while the game is on');
  // Once over, everyone sees everything, the record keeps the move as submitted.
  assert.equal((await offer(id, tokens[1], 'resign')).status, 200);
  const over = (await get(id)).body;
  assert.equal(over.observation.phase, 'over');
  assert.equal(over.observation.visible, undefined);
  assert.equal(over.observation.board.i9, '1A', 'the spectator sees every stone now');
  assert.ok(over.events.some((e) => e.bump === true), 'and the bump');
  const rec = await record(id);
  assert.equal(rec.status, 200);
  assert.deepEqual(rec.body.moves, ['a2-a3', 'h8-h7', 'a3-a2', 'h7-h6', 'd2-i7']);
  assert.deepEqual(rec.body.result, { winners: [0], reason: 'resignation' });
  black.close();
  spectator.close();
});

test('draw offers between two humans: decline, a move that declines, accept; what is refused', async () => {
  const { id, tokens } = await create({ modes: ['fog'] });
  const events = async () => (await get(id)).body.events;
  assert.equal((await offer(id, undefined, 'draw')).status, 401, 'a spectator offers nothing');
  assert.equal((await offer(id, tokens[0], 'accept')).status, 409, 'no offer to accept');
  assert.equal((await offer(id, tokens[1], 'decline')).status, 409, 'no offer to decline');
  assert.equal((await offer(id, tokens[0], 'stalemate')).status, 409, 'FACET has no stalemate offer');
  assert.equal((await offer(id, tokens[0], 'withdraw')).status, 409);
  assert.equal((await offer(id, tokens[0], 'truce')).status, 400);

  // An offer, answered by a decline (offers are not bound to the turn).
  const o1 = await offer(id, tokens[0], 'draw');
  assert.equal(o1.status, 200, JSON.stringify(o1.body));
  assert.deepEqual(o1.body.events, [{ type: 'offer', player: 0, what: 'draw' }]);
  assert.equal(o1.body.observation.draw_offer, 0);
  assert.equal((await offer(id, tokens[0], 'draw')).status, 409, 'the offer already stands');
  assert.equal((await offer(id, tokens[1], 'draw')).status, 409, 'one offer at a time');
  assert.equal((await offer(id, tokens[0], 'accept')).status, 409, 'not one\'s own offer');
  const d = await offer(id, tokens[1], 'decline');
  assert.equal(d.status, 200);
  assert.deepEqual(d.body.events, [{ type: 'offer', player: 1, what: 'decline' }]);
  assert.equal(d.body.observation.draw_offer, null);

  // An offer stands through the offerer's own move; the other side's move declines it.
  assert.equal((await offer(id, tokens[0], 'draw')).status, 200);
  assert.equal((await move(id, tokens[0], 'a2-a3')).body.observation.draw_offer, 0, 'the offerer\'s move keeps it');
  const reply = await move(id, tokens[1], 'a8-a7');
  assert.deepEqual(reply.body.events.at(-1), { type: 'offer', player: 1, what: 'decline' });
  assert.equal(reply.body.observation.draw_offer, null);
  assert.deepEqual((await events()).filter((e) => e.type === 'offer').map((e) => `${e.player}${e.what}`),
    ['0draw', '1decline', '0draw', '1decline'], 'offers are public');

  // Black offers, White accepts: a draw by agreement.
  assert.equal((await offer(id, tokens[1], 'draw')).status, 200);
  const acc = await offer(id, tokens[0], 'accept');
  assert.equal(acc.status, 200);
  assert.deepEqual(acc.body.observation.result, { winners: [], reason: 'agreement' });
  assert.equal(acc.body.observation.phase, 'over');
  assert.deepEqual(acc.body.events.at(-1), { type: 'over', result: { winners: [], reason: 'agreement' } });
  assert.equal((await offer(id, tokens[1], 'draw')).status, 409, 'nothing after the end');
  assert.equal((await record(id)).status, 200);
});

// Waits for the update carrying the AI seat's answer to an offer; returns it.
async function aiAnswer(sock, aiSeat) {
  return sock.until((u) => u.events.some((e) => e.type === 'offer' && e.player === aiSeat), 20000);
}

test('the AI answers a draw offer: it accepts standing level, and the game ends by agreement', async () => {
  const { id, tokens } = await create({}, [HUMANS[0], { type: 'ai', level: 3 }]);
  const sock = await openSocket(server, id);
  sock.send({ type: 'auth', token: tokens[0] });
  await sock.next();
  // The starting position is level; the AI, not to move, accepts.
  const o = await offer(id, tokens[0], 'draw');
  assert.equal(o.status, 200);
  const u = await aiAnswer(sock, 1);
  assert.deepEqual(u.events[0], { type: 'offer', player: 1, what: 'accept' });
  assert.deepEqual(u.observation.result, { winners: [], reason: 'agreement' });
  const g = (await get(id)).body;
  assert.equal(g.status, 'over');
  assert.deepEqual(g.result, { winners: [], reason: 'agreement' });
  sock.close();
});

test('the AI declines a draw offer when it stands better', async () => {
  const { id, tokens } = await create({}, [HUMANS[0], { type: 'ai', level: 2 }]);
  const sock = await openSocket(server, id);
  sock.send({ type: 'auth', token: tokens[0] });
  await sock.next();
  // White gives stones away (each move lands where Black can take it, when it can) until Black is ahead by
  // three stones.
  let obs = (await get(id, tokens[0])).body.observation;
  for (let i = 0; i < 40 && stones(obs, 1) - stones(obs, 0) < 3; i++) {
    const legal = (await get(id, tokens[0])).body.legal;
    const hanging = legal.filter((m) => {
      const board = { ...obs.board };
      const [from, to] = m.split('-');
      board[to] = board[from];
      delete board[from];
      return legalMoves(board, obs.terrain, 1).some((r) => r.endsWith(`-${to}`));
    });
    const mv = hanging.length ? hanging[0] : legal[0];
    assert.equal((await move(id, tokens[0], mv)).status, 200);
    const u = await sock.until((x) => x.observation.ply === obs.ply + 2 || x.observation.phase === 'over', 20000);
    obs = u.observation;
    if (obs.phase === 'over') break;
  }
  assert.equal(obs.phase, 'play');
  assert.ok(stones(obs, 1) - stones(obs, 0) >= 3, `Black is ahead (${stones(obs, 1)} to ${stones(obs, 0)})`);
  assert.equal((await offer(id, tokens[0], 'draw')).status, 200);
  const u = await aiAnswer(sock, 1);
  assert.deepEqual(u.events[0], { type: 'offer', player: 1, what: 'decline' });
  assert.equal(u.observation.phase, 'play');
  assert.equal(u.observation.draw_offer, null);
  assert.equal((await offer(id, tokens[0], 'resign')).status, 200);
  sock.close();
});

test('the AI answers a draw offer under fog too', async () => {
  const { id, tokens } = await create({ modes: ['fog'] }, [HUMANS[0], { type: 'ai', level: 3 }]);
  const sock = await openSocket(server, id);
  sock.send({ type: 'auth', token: tokens[0] });
  await sock.next();
  assert.equal((await offer(id, tokens[0], 'draw')).status, 200);
  const u = await aiAnswer(sock, 1);
  const answer = u.events.find((e) => e.type === 'offer' && e.player === 1).what;
  assert.ok(['accept', 'decline'].includes(answer), answer);
  if (answer === 'accept') {
    assert.deepEqual(u.observation.result, { winners: [], reason: 'agreement' });
    assert.equal(u.observation.visible, undefined, 'the end shows everything');
  } else {
    assert.equal(u.observation.phase, 'play');
    assert.equal((await offer(id, tokens[0], 'resign')).status, 200);
  }
  sock.close();
});
