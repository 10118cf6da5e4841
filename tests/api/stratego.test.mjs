// Stratego through the HTTP API (server-api.md, rulings.md): the kinds list with its options and named
// setups, options at creation, setups (a placement, a random one, a named one, a replaced one, bad ones),
// what the phase allows, illegal moves, resignation, and a server killed during setup and during play.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { call, openSocket, startServer, tempDir } from './lib.mjs';
import { ARMY, Truth, homeSquares, isLegalPlacement, prng, randomPlacement } from './stratego-lib.mjs';

let server;

before(async () => {
  server = await startServer({ db: path.join(tempDir(), 'tabula.db') });
});
after(async () => {
  await server.stop('SIGTERM');
});

async function create(srv, { options, seats } = {}) {
  const res = await call(srv, 'POST', '/api/games', {
    body: { game: 'stratego', options, seats: seats ?? [{ type: 'human', name: 'Red' }, { type: 'human', name: 'Blue' }] } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

const get = (srv, id, token) => call(srv, 'GET', `/api/games/${id}`, { token });
const setup = (srv, id, token, body) => call(srv, 'POST', `/api/games/${id}/setup`, { body, token });
const move = (srv, id, token, mv) => call(srv, 'POST', `/api/games/${id}/moves`, { body: { move: mv }, token });
const offer = (srv, id, token, what) => call(srv, 'POST', `/api/games/${id}/offers`, { body: { what }, token });

// The army a seat sees of its own: {square: letter}.
function own(observation, seat) {
  const out = {};
  for (const [s, v] of Object.entries(observation.board)) if (v[0] === String(seat)) out[s] = v[1];
  return out;
}

test('kinds: stratego, its options, AI levels and named setups that are legal armies', async () => {
  const kinds = await call(server, 'GET', '/api/games/kinds');
  assert.equal(kinds.status, 200);
  const s = kinds.body.find((k) => k.name === 'stratego');
  assert.ok(s, 'stratego is listed');
  assert.equal(s.title, 'Stratego');
  assert.deepEqual(s.player_counts, [2]);
  assert.equal(s.hidden_information, true);
  assert.deepEqual(s.options, { memory_aid: false, two_square_limit: 3, repetition_rule: true, max_plies: 2000 });
  assert.ok(s.ai_levels.length >= 1 && s.ai_levels.every((l) => Number.isInteger(l)));
  const names = Object.keys(s.arrangements);
  assert.ok(names.length >= 3, `a few named setups: ${names}`);
  assert.deepEqual(s.variants.map((v) => ({ ...v, arrangements: [...v.arrangements].sort() })),
    [{ players: 2, arrangements: [...names].sort(), placements: s.arrangements, options: s.options }],
    'one variant: two players, its named setups placed for both seats as the kind lists them');
  assert.ok(!names.includes('random'), 'random is not a named setup');
  for (const name of names) {
    assert.deepEqual(Object.keys(s.arrangements[name]).sort(), ['0', '1'], name);
    for (const p of [0, 1]) {
      const pl = s.arrangements[name][p];
      assert.ok(isLegalPlacement(p, pl), `${name} for seat ${p} is 40 pieces of the right kinds on its ranks`);
    }
    // Seat 1's picture is seat 0's turned half a turn (each is written from its owner's seat).
    for (const [sq, k] of Object.entries(s.arrangements[name][0])) {
      const turned = `${'abcdefghij'[9 - 'abcdefghij'.indexOf(sq[0])]}${11 - Number(sq.slice(1))}`;
      assert.equal(s.arrangements[name][1][turned], k, `${name}: ${sq} and ${turned}`);
    }
  }
  // Other games' entries keep their shape.
  for (const k of kinds.body) assert.equal(typeof k.arrangements, 'object', k.name);
});

test('create: options are kept and shown; unknown or bad options are 400', async () => {
  const { id } = await create(server, { options: { memory_aid: true, two_square_limit: 5, max_plies: 300 } });
  const g = (await get(server, id)).body;
  const want = { memory_aid: true, two_square_limit: 5, repetition_rule: true, max_plies: 300 };
  assert.deepEqual(g.options, want);
  assert.deepEqual(g.observation.options, want);
  assert.equal(g.observation.phase, 'setup');
  assert.equal(g.observation.to_move, 0);
  assert.deepEqual(g.observation.board, {});
  assert.deepEqual(g.legal, []);
  const listed = (await call(server, 'GET', `/api/games?ids=${id}`)).body[0];
  assert.deepEqual(listed.options, want);

  for (const options of [{ fog: true }, { memory_aid: 'yes' }, { max_plies: 0 }, { two_square_limit: -1 }, { repetition_rule: 1 }, []]) {
    const res = await call(server, 'POST', '/api/games', {
      body: { game: 'stratego', options, seats: [{ type: 'human' }, { type: 'human' }] } });
    assert.equal(res.status, 400, JSON.stringify(options));
    assert.equal(typeof res.body.error, 'string');
  }
  const unknown = await call(server, 'POST', '/api/games', {
    body: { game: 'stratego', options: { fog: true }, seats: [{ type: 'human' }, { type: 'human' }] } });
  assert.match(unknown.body.error, /fog/, 'the error names the unknown option');
  const three = await call(server, 'POST', '/api/games', {
    body: { game: 'stratego', seats: [{ type: 'human' }, { type: 'human' }, { type: 'human' }] } });
  assert.equal(three.status, 400);
});

test('setups: a placement, a random one, a named one; replacing before the other army is in; then 409', async () => {
  const kinds = (await call(server, 'GET', '/api/games/kinds')).body.find((k) => k.name === 'stratego');
  const name = Object.keys(kinds.arrangements)[0];
  const rnd = prng(21);
  const { id, tokens } = await create(server);
  const [red, blue] = [tokens[0], tokens[1]];

  // Moves before any setup, and with one setup in: 409.
  assert.equal((await move(server, id, red, 'a4-a5')).status, 409);
  const first = randomPlacement(0, rnd);
  const a = await setup(server, id, red, { placement: first });
  assert.equal(a.status, 200, JSON.stringify(a.body));
  assert.deepEqual(a.body.events, [{ type: 'setup', player: 0 }]);
  assert.deepEqual(own(a.body.observation, 0), first);
  assert.deepEqual(a.body.observation.ready, [0]);
  assert.equal(a.body.observation.phase, 'setup');
  assert.equal((await move(server, id, red, 'a4-a5')).status, 409, 'no move with one army in');
  assert.equal((await move(server, id, blue, 'a7-a6')).status, 409);

  // Blue sees that Red is ready, not where anything stands; so does a spectator.
  for (const token of [blue, undefined]) {
    const view = (await get(server, id, token)).body;
    assert.deepEqual(view.observation.board, {});
    assert.deepEqual(view.observation.ready, [0]);
    assert.deepEqual(view.events, [{ type: 'setup', player: 0 }]);
  }

  // Red replaces its setup with a random one (drawn by the server), then with a named one.
  const r = await setup(server, id, red, { arrangement: 'random' });
  assert.equal(r.status, 200);
  const random = own(r.body.observation, 0);
  assert.ok(isLegalPlacement(0, random), 'the random setup is a legal army');
  assert.notDeepEqual(random, first);
  const n = await setup(server, id, red, { arrangement: name });
  assert.equal(n.status, 200);
  assert.deepEqual(own(n.body.observation, 0), kinds.arrangements[name][0]);
  assert.deepEqual((await get(server, id)).body.observation.board, {}, 'spectators still see nothing');

  // An unknown arrangement is refused and changes nothing.
  const unknown = await setup(server, id, red, { arrangement: 'no-such-setup' });
  assert.ok([400, 422].includes(unknown.status), `${unknown.status}`);
  assert.match(unknown.body.error, /no-such-setup/);
  assert.equal((await setup(server, id, red, {})).status, 400, 'neither placement nor arrangement');
  assert.deepEqual(own((await get(server, id, red)).body.observation, 0), kinds.arrangements[name][0]);

  // Blue's setup begins play: Red to move, each seat sees its own army and the other's as unknown.
  const b = await setup(server, id, blue, { arrangement: 'random' });
  assert.equal(b.status, 200);
  assert.equal(b.body.observation.phase, 'play');
  assert.deepEqual(b.body.observation.ready, [0, 1]);
  assert.deepEqual(b.body.legal, [], 'Red moves first');
  const blueArmy = own(b.body.observation, 1);
  assert.ok(isLegalPlacement(1, blueArmy));
  const redView = (await get(server, id, red)).body;
  assert.equal(redView.observation.to_move, 0);
  assert.ok(redView.legal.length > 0);
  for (const s of homeSquares(1)) assert.equal(redView.observation.board[s], '1?');
  assert.deepEqual(own(redView.observation, 0), kinds.arrangements[name][0]);

  // Setups are over for both.
  for (const token of [red, blue]) {
    const late = await setup(server, id, token, { arrangement: 'random' });
    assert.equal(late.status, 409);
    assert.match(late.body.error, /set up/);
  }
  assert.deepEqual(own((await get(server, id, blue)).body.observation, 1), blueArmy, 'nothing changed');

  // Resign; the record keeps the last setup of each seat.
  const res = await offer(server, id, blue, 'resign');
  assert.equal(res.status, 200);
  const record = (await call(server, 'GET', `/api/games/${id}/record`)).body;
  assert.deepEqual(record.setups[0], kinds.arrangements[name][0]);
  assert.deepEqual(record.setups[1], blueArmy);
  assert.ok(!JSON.stringify(record).includes('"seed"'), 'random setups log their placements, not seeds');
});

test('an open seat: Red sets up while it waits; whoever joins sees nothing of Red; the AI waits for the join', async () => {
  const rnd = prng(26);
  const { id, tokens } = await create(server, { seats: [{ type: 'human' }, { type: 'open' }] });
  const red = randomPlacement(0, rnd);
  assert.equal((await setup(server, id, tokens[0], { placement: red })).status, 200, 'setups are allowed while a seat is open');
  const lobby = (await call(server, 'GET', '/api/games?status=open')).body.find((g) => g.id === id);
  assert.ok(lobby, 'the game waits in the lobby');
  assert.ok(!/"0[MGCJPLTNOSBF]"/.test(JSON.stringify(lobby)), 'the lobby shows no piece');
  const watcher = await openSocket(server, id);
  watcher.send({ type: 'auth' });
  await watcher.next();
  const join = await call(server, 'POST', `/api/games/${id}/join`, { body: { seat: 1, name: 'Bo' } });
  assert.equal(join.status, 200);
  assert.deepEqual(Object.keys(join.body).sort(), ['seat', 'token']);
  const pushed = await watcher.next();
  assert.equal(pushed.status, 'playing');
  assert.deepEqual(pushed.observation.board, {});
  watcher.close();
  const bo = (await get(server, id, join.body.token)).body;
  assert.deepEqual(bo.observation.board, {});
  assert.deepEqual(bo.observation.ready, [0]);
  const b = await setup(server, id, join.body.token, { arrangement: 'random' });
  assert.equal(b.body.observation.phase, 'play');
  for (const s of homeSquares(0)) assert.equal(b.body.observation.board[s], '0?');
  await offer(server, id, tokens[0], 'resign');

  // An AI seat beside an open one sets up only once the game is full.
  const ai = await create(server, { seats: [{ type: 'open' }, { type: 'ai', level: 1 }] });
  assert.deepEqual((await get(server, ai.id)).body.observation.ready, []);
  const j = await call(server, 'POST', `/api/games/${ai.id}/join`, { body: { seat: 0 } });
  assert.equal(j.status, 200);
  const after = (await get(server, ai.id, j.body.token)).body.observation;
  assert.deepEqual(after.ready, [1]);
  assert.deepEqual(after.board, {}, "the AI's army does not show");
  await offer(server, ai.id, j.body.token, 'resign');
});

test('bad placements: 422 with a clear message, and nothing changes', async () => {
  const rnd = prng(22);
  const { id, tokens } = await create(server);
  const good = randomPlacement(0, rnd);
  const other = Object.keys(good).find((s) => good[s] !== 'B');
  const cases = [
    [{ ...good, [other]: 'B' }, /a setup has \d+ \w+, this one \d+/], // seven Bombs
    [Object.fromEntries(Object.entries(good).slice(1)), /a setup has/],   // 39 pieces
    [{ ...good, a5: 'O' }, /ranks 1 to 4/],                              // off the home ranks
    [randomPlacement(1, rnd), /ranks 1 to 4/],                           // Blue's ranks
    [{ ...good, a1: 'X' }, /letters/],                                   // not a kind
    [{ ...good, a1: '0M' }, /letters/],                                  // with a player digit
    [{ ...good, a1: 7 }, /letters/],                                     // not a string
    [{ ...good, k1: 'O' }, /square/],                                    // not a square
  ];
  for (const [placement, message] of cases) {
    const res = await setup(server, id, tokens[0], { placement });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.match(res.body.error, message);
  }
  for (const placement of ['a1', ['a1', 'F'], null]) {
    const res = await setup(server, id, tokens[0], { placement });
    assert.ok([400, 422].includes(res.status), `${JSON.stringify(placement)}: ${res.status}`);
  }
  let g = (await get(server, id, tokens[0])).body;
  assert.deepEqual(g.observation.board, {});
  assert.deepEqual(g.observation.ready, []);
  assert.deepEqual(g.events, []);

  // With a setup in, a bad replacement keeps the old one.
  assert.equal((await setup(server, id, tokens[0], { placement: good })).status, 200);
  assert.equal((await setup(server, id, tokens[0], { placement: { ...good, a1: 'X' } })).status, 422);
  g = (await get(server, id, tokens[0])).body;
  assert.deepEqual(own(g.observation, 0), good);
  assert.equal(g.events.length, 1);
  // No token, or a spectator: 401.
  assert.equal((await setup(server, id, undefined, { placement: good })).status, 401);
  assert.equal((await setup(server, id, 'f'.repeat(32), { placement: good })).status, 401);
});

test('play: illegal moves 422, out of turn 409, resignation ends it for the other seat', async () => {
  const rnd = prng(23);
  const { id, tokens } = await create(server);
  const red = randomPlacement(0, rnd, { a4: 'B', b4: 'O', b3: 'O', c4: 'M' });
  const blue = randomPlacement(1, rnd, { a7: 'N' });
  assert.equal((await setup(server, id, tokens[0], { placement: red })).status, 200);
  assert.equal((await setup(server, id, tokens[1], { placement: blue })).status, 200);
  const illegal = [
    ['a4-a5', /Bomb never moves/],        // own Bomb
    ['c4-c5', /lake/],                    // into a lake
    ['b4-a5', /diagonal/],                // diagonally
    ['b3-b4', /own pieces/],              // onto an own piece
    ['c4-c3', /own pieces/],
    ['b3-b5', /jump|in the way/],         // a Scout may not jump
    ['a7-a6', /not yours/],               // an enemy piece
    ['e5-e6', /no piece/],                // an empty square
    ['b4-b4', /leave|not a Stratego move/],
    ['a4a5', /not a Stratego move/],
  ];
  for (const [mv, message] of illegal) {
    const res = await move(server, id, tokens[0], mv);
    assert.equal(res.status, 422, `${mv}: ${JSON.stringify(res.body)}`);
    assert.match(res.body.error, message, mv);
  }
  assert.equal((await move(server, id, tokens[1], 'a7-a6')).status, 409, 'Blue out of turn');
  assert.equal((await move(server, id, undefined, 'b4-b5')).status, 401);
  assert.equal((await get(server, id)).body.observation.ply, 0, 'nothing was played');

  const m = await move(server, id, tokens[0], 'b4-b6');  // a Scout's long move
  assert.equal(m.status, 200, JSON.stringify(m.body));
  assert.deepEqual(m.body.events, [{ type: 'move', player: 0, from: 'b4', to: 'b6' }]);
  assert.equal(m.body.observation.board.b6, '0O');
  assert.equal(m.body.observation.to_move, 1);
  const blueView = (await get(server, id, tokens[1])).body;
  assert.equal(blueView.observation.board.b6, '0?', 'no memory aid: the Scout is concealed again');
  assert.deepEqual(blueView.observation.revealed, []);
  assert.ok(blueView.legal.includes('a7-a6'));
  assert.equal((await move(server, id, tokens[0], 'b6-b5')).status, 409, 'Red out of turn');
  assert.equal((await call(server, 'GET', `/api/games/${id}/record`)).status, 409, 'no record while it is on');
  assert.equal(blueView.hidden, true, 'the position hides identities');
  assert.equal((await get(server, id)).body.hidden, true, 'spectators are told so too');

  // A battle: Blue's Miner attacks the Scout; both identities are shown to both, and to spectators.
  const battle = await move(server, id, tokens[1], 'a7-a6');
  assert.equal(battle.status, 200);
  const bt = await move(server, id, tokens[0], 'b6-a6');
  assert.equal(bt.status, 200);
  assert.deepEqual(bt.body.events, [{ type: 'battle', player: 0, from: 'b6', to: 'a6', attacker: '0O', defender: '1N', outcome: 'attacker-lost' }]);
  const spectator = (await get(server, id)).body;
  assert.deepEqual(spectator.events.at(-1), bt.body.events[0]);
  assert.equal(spectator.observation.board.a6, '1?', 'the survivor is concealed again');
  assert.deepEqual(spectator.observation.captured, { 0: ['O'], 1: [] });

  // A draw offer (shared rulings: every two-player game) stands for Red to answer; Red declines. Offers
  // Stratego has not are refused and change nothing.
  const draw = await offer(server, id, tokens[1], 'draw');
  assert.equal(draw.status, 200);
  assert.equal(draw.body.observation.draw_offer, 1);
  assert.equal((await offer(server, id, tokens[0], 'decline')).status, 200);
  assert.equal((await get(server, id)).body.observation.draw_offer, null);
  assert.ok([400, 409, 422].includes((await offer(server, id, tokens[1], 'stalemate')).status));
  assert.equal((await offer(server, id, tokens[1], 'surrender')).status, 400);

  const res = await offer(server, id, tokens[1], 'resign');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.observation.result, { winners: [0], reason: 'resignation' });
  assert.equal(res.body.observation.phase, 'over');
  assert.deepEqual(res.body.events.map((e) => e.type), ['resign', 'over']);
  // Everything is shown now: Blue's whole army to Red.
  const redFinal = (await get(server, id, tokens[0])).body;
  assert.equal(redFinal.status, 'over');
  assert.equal(redFinal.hidden, false, 'nothing is hidden once over');
  for (const s of homeSquares(1)) if (s !== 'a7') assert.equal(redFinal.observation.board[s], `1${blue[s]}`);
  assert.equal(redFinal.observation.board.a6, '1N');
  assert.equal((await move(server, id, tokens[1], 'a6-a5')).status, 409);
  const record = (await call(server, 'GET', `/api/games/${id}/record`)).body;
  assert.deepEqual(record.moves, ['b4-b6', 'a7-a6', 'b6-a6']);
  assert.deepEqual(record.setups, { 0: red, 1: blue });
  assert.deepEqual(record.result, { winners: [0], reason: 'resignation' });
});

test('the memory aid keeps what battles and long moves showed', async () => {
  const rnd = prng(24);
  const { id, tokens } = await create(server, { options: { memory_aid: true } });
  const red = randomPlacement(0, rnd, { b4: 'O', e4: 'G' });
  const blue = randomPlacement(1, rnd, { a7: 'N', e7: 'T' });
  await setup(server, id, tokens[0], { placement: red });
  await setup(server, id, tokens[1], { placement: blue });
  for (const [t, mv] of [[0, 'b4-b6'], [1, 'a7-a6'], [0, 'e4-e5'], [1, 'e7-e6'], [0, 'e5-e6']]) {
    const res = await move(server, id, tokens[t], mv);
    assert.equal(res.status, 200, `${mv}: ${JSON.stringify(res.body)}`);
  }
  // b6: a Scout seen by its long move; e6: Red's General won a battle; a6: a Blue piece that moved.
  for (const token of [tokens[1], undefined]) {
    const o = (await get(server, id, token)).body.observation;
    assert.equal(o.board.b6, '0O');
    assert.equal(o.board.e6, '0G');
    assert.equal(o.board.a6, token ? '1N' : '1?');
    assert.equal(o.board.e3, '0?', 'an unmoved Red piece stays unknown');
    assert.equal(o.board.e4, undefined);
    assert.deepEqual(o.revealed, ['b6', 'e6']);
    assert.deepEqual(o.moved, ['a6', 'b6', 'e6']);
  }
  const redView = (await get(server, id, tokens[0])).body.observation;
  assert.equal(redView.board.a6, '1?');
  assert.equal(redView.board.a8, '1?');
  await offer(server, id, tokens[0], 'resign');
});

// ---- a server killed during setup and during play --------------------------------------------------

test('SIGKILL and restart during setup and during play: setups (still hidden), moves and the AI army are kept', async () => {
  const db = path.join(tempDir(), 'tabula.db');
  let srv = await startServer({ db });
  const rnd = prng(25);
  try {
    // Game A: Red's setup is in, Blue's is not.
    const A = await create(srv);
    const redA = randomPlacement(0, rnd);
    assert.equal((await setup(srv, A.id, A.tokens[0], { placement: redA })).status, 200);
    // Game B: both in, a few moves played, one a battle.
    const B = await create(srv, { options: { memory_aid: true } });
    const placementsB = [randomPlacement(0, rnd), randomPlacement(1, rnd)];
    await setup(srv, B.id, B.tokens[0], { placement: placementsB[0] });
    await setup(srv, B.id, B.tokens[1], { placement: placementsB[1] });
    const truthB = new Truth(placementsB);
    for (let i = 0; i < 30; i++) {
      const seat = i % 2;
      const legal = (await get(srv, B.id, B.tokens[seat])).body.legal;
      const mv = rnd.pick(legal);
      assert.equal((await move(srv, B.id, B.tokens[seat], mv)).status, 200);
      truthB.apply(mv);
    }
    // Game C: against the AI, whose army the server drew; a few moves each.
    const C = await create(srv, { seats: [{ type: 'human' }, { type: 'ai', level: 1 }] });
    await setup(srv, C.id, C.tokens[0], { placement: randomPlacement(0, rnd, { a1: 'F', a2: 'B', b1: 'B' }) });
    const sock = await openSocket(srv, C.id);
    sock.send({ type: 'auth', token: C.tokens[0] });
    for (let ply = 0; ply < 10; ply += 2) {
      const u = await sock.until((m) => m.observation.to_move === 0 && m.observation.ply === ply && m.legal.length > 0);
      assert.equal((await move(srv, C.id, C.tokens[0], rnd.pick(u.legal))).status, 200);
    }
    await sock.until((m) => m.observation.ply === 10);
    sock.close();

    const views = async (g) => ({
      0: (await get(srv, g.id, g.tokens[0])).body,
      1: g.tokens[1] ? (await get(srv, g.id, g.tokens[1])).body : null,
      spectator: (await get(srv, g.id)).body,
    });
    const before = { A: await views(A), B: await views(B), C: await views(C) };
    assert.equal((await srv.stop('SIGKILL')).signal, 'SIGKILL');

    srv = await startServer({ db });
    for (const [k, g] of [['A', A], ['B', B], ['C', C]]) assert.deepEqual(await views(g), before[k], `game ${k} is back as it was`);

    // A: Red's setup is still in and still hidden from Blue and spectators; Blue's setup starts play.
    assert.deepEqual(before.A[1].observation.board, {});
    assert.deepEqual(before.A.spectator.observation.board, {});
    assert.deepEqual(before.A[1].observation.ready, [0]);
    assert.deepEqual(own(before.A[0].observation, 0), redA);
    assert.equal((await move(srv, A.id, A.tokens[0], 'a4-a5')).status, 409, 'still in setup');
    const blueA = randomPlacement(1, rnd);
    const started = await setup(srv, A.id, A.tokens[1], { placement: blueA });
    assert.equal(started.status, 200);
    assert.equal(started.body.observation.phase, 'play');
    for (const s of homeSquares(0)) assert.equal(started.body.observation.board[s], '0?');
    assert.deepEqual(own((await get(srv, A.id, A.tokens[0])).body.observation, 0), redA, "Red's army as it was set up");
    await offer(srv, A.id, A.tokens[0], 'resign');
    assert.deepEqual((await call(srv, 'GET', `/api/games/${A.id}/record`)).body.setups, { 0: redA, 1: blueA });

    // B: play goes on from where it stood, with the same legal moves and the same marks.
    assert.equal(before.B[0].observation.ply, 30);
    for (let i = 30; i < 40; i++) {
      const seat = i % 2;
      const legal = (await get(srv, B.id, B.tokens[seat])).body.legal;
      const mv = rnd.pick(legal);
      const res = await move(srv, B.id, B.tokens[seat], mv);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.events[0], truthB.apply(mv));
    }
    const snap = truthB.snapshot();
    const seen = (await get(srv, B.id, B.tokens[0])).body.observation;
    assert.deepEqual(seen.revealed, snap.revealed);
    assert.deepEqual(seen.moved, snap.moved);
    await offer(srv, B.id, B.tokens[1], 'resign');
    const recordB = (await call(srv, 'GET', `/api/games/${B.id}/record`)).body;
    assert.deepEqual(recordB.setups, { 0: placementsB[0], 1: placementsB[1] });
    assert.equal(recordB.moves.length, 40);

    // C: the AI's army is the one it set up before the kill (the battles before it agree with the record)
    // and the AI still moves.
    const s2 = await openSocket(srv, C.id);
    s2.send({ type: 'auth', token: C.tokens[0] });
    const u = await s2.until((m) => m.observation.to_move === 0 && m.legal.length > 0);
    assert.equal((await move(srv, C.id, C.tokens[0], rnd.pick(u.legal))).status, 200);
    await s2.until((m) => m.observation.ply >= 12 || m.observation.phase === 'over');
    s2.close();
    await offer(srv, C.id, C.tokens[0], 'resign');
    const recordC = (await call(srv, 'GET', `/api/games/${C.id}/record`)).body;
    assert.ok(isLegalPlacement(1, recordC.setups[1]));
    assert.equal(recordC.actions.filter((a) => a.type === 'setup' && a.player === 1).length, 1, 'the AI set up once');
    const replay = new Truth([recordC.setups[0], recordC.setups[1]]);
    const replayed = recordC.moves.slice(0, 10).map((mv) => replay.apply(mv));
    const told = before.C[0].events.filter((e) => e.type === 'move' || e.type === 'battle');
    assert.deepEqual(told, replayed, 'the events before the kill are those of the recorded armies');
  } finally {
    await srv.stop('SIGTERM');
  }
});

// Keep ARMY in use: the counts the bad placements break.
assert.equal(Object.values(ARMY).reduce((a, b) => a + b, 0), 40);
