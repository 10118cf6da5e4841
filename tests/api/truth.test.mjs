// The Game of Truth through the real server (server-api.md, rulings.md): setups hidden while the phase hides
// them and public from the start of play, two-action turns, refusals, the AI seat (it sets up and plays both
// actions of its turn), the scored-stalemate agreement between two seats and with an AI seat, and a
// resignation during setup that reveals nothing. Every byte each viewer receives (HTTP answers and WebSocket
// frames, raw) is kept and read as an attacker would.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { call, prng, startServer, tempDir } from './lib.mjs';
import { Viewer } from './stratego-lib.mjs';
import { setupLeaks } from './truth-lib.mjs';

let server;
before(async () => { server = await startServer({ db: path.join(tempDir(), 'tabula.db') }); });
after(async () => { await server.stop('SIGTERM'); });

const FILES = 'abcdefghijklmnopq';
const sq = (f, r) => `${FILES[f]}${r}`;
const isWhite = (f, r) => (f + 18 - r) % 2 === 0;
const ARMY = { D: 20, L: 10, N: 5, S: 3, G: 2, I: 1 };

// A random legal placement for player p (its own nine ranks, white squares), from a seeded PRNG.
function randomPlacement(p, rnd) {
  const squares = [];
  for (let r = p === 0 ? 1 : 10; r <= (p === 0 ? 9 : 18); r++)
    for (let f = 0; f < 17; f++) if (isWhite(f, r)) squares.push(sq(f, r));
  rnd.shuffle(squares);
  const placement = {};
  let i = 0;
  for (const [k, n] of Object.entries(ARMY)) for (let j = 0; j < n; j++) placement[squares[i++]] = k;
  return placement;
}

async function create(seats, options = { players: 2 }) {
  const res = await call(server, 'POST', '/api/games', { body: { game: 'truth', options, seats } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

test('setups stay secret until both armies are in; then nothing is hidden, from every viewer alike', async () => {
  const rnd = prng(0x7475);
  const g = await create([{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }]);
  const ivory = new Viewer(server, g.id, 0, g.tokens['0']);
  const jade = new Viewer(server, g.id, 1, g.tokens['1']);
  const spectator = new Viewer(server, g.id, null, null);
  for (const v of [ivory, jade, spectator]) await v.connect();
  for (const v of [ivory, jade, spectator]) await v.waitFrame((m) => m.type === 'update');

  const placement0 = randomPlacement(0, rnd);
  const s0 = await ivory.setup({ placement: placement0 });
  assert.equal(s0.status, 200, s0.text);
  // Every viewer learns that Ivory is ready; only Ivory sees where.
  for (const v of [jade, spectator]) await v.waitFrame((m) => m.type === 'update' && (m.observation?.ready ?? []).includes(0));
  const seen = await ivory.game();
  assert.equal(Object.keys(seen.json.observation.board).length, 41);
  // The attacker's tries during setup: GET, record, moves, offers, a bad placement, a spectator's GET.
  assert.equal((await jade.game()).status, 200);
  const rec = await jade.record();
  assert.equal(rec.status, 409, `no record while a setup is secret: ${rec.text}`);
  assert.equal((await spectator.record()).status, 409);
  assert.equal((await jade.move('b11-a12')).status, 409, 'no move during setup');
  assert.equal((await jade.offer('stalemate')).status, 409, 'no agreement during setup');
  const bad = await jade.setup({ placement: { a1: 'D' } });
  assert.equal(bad.status, 422, bad.text);
  await spectator.game();
  for (const v of [jade, spectator]) assert.deepEqual(setupLeaks(v, 0, placement0), []);
  const jadeObs = (await jade.game()).json.observation;
  assert.deepEqual(Object.keys(jadeObs.board), [], 'Jade sees nothing of Ivory, and has not placed yet');

  // Ivory replaces its setup; still secret.
  const placement0b = randomPlacement(0, rnd);
  assert.equal((await ivory.setup({ placement: placement0b })).status, 200);
  assert.deepEqual(setupLeaks(jade, 0, placement0b), []);
  assert.deepEqual(setupLeaks(spectator, 0, placement0b), []);

  // Jade sets up with the suggested arrangement: play begins, both armies are public.
  const s1 = await jade.setup({ arrangement: 'suggested' });
  assert.equal(s1.status, 200, s1.text);
  assert.ok(s1.json.events.some((e) => e.type === 'start'), 'the start event');
  for (const v of [ivory, jade, spectator]) await v.waitFrame((m) => m.type === 'update' && m.observation?.phase !== 'setup');
  const views = await Promise.all([ivory.game(), jade.game(), spectator.game()]);
  const obs = views.map((v) => v.json.observation);
  assert.deepEqual(obs[1], obs[0]);
  assert.deepEqual(obs[2], obs[0], 'a spectator sees what a seat sees');
  for (const [s, k] of Object.entries(placement0b)) {
    // The start-of-play reading may have taken pieces; every piece still standing is where Ivory put it.
    if (obs[0].board[s] !== undefined) assert.equal(obs[0].board[s], `0${k}`);
  }
  // The record is public once nothing is hidden (setups included), and it replays what happened.
  const record = await spectator.record();
  assert.equal(record.status, 200, record.text);
  assert.deepEqual(record.json.setups['0'], placement0b);
  assert.equal(record.json.result, null);
  for (const v of [ivory, jade, spectator]) v.close();
});

test('a turn is two actions of the same seat; refusals name the rule and change nothing', async () => {
  const g = await create([{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }]);
  const ivory = new Viewer(server, g.id, 0, g.tokens['0']);
  const jade = new Viewer(server, g.id, 1, g.tokens['1']);
  assert.equal((await ivory.setup({ arrangement: 'suggested' })).status, 200);
  assert.equal((await jade.setup({ arrangement: 'suggested' })).status, 200);
  const before_ = (await ivory.game()).json;
  assert.equal(before_.observation.to_move, 0);
  assert.ok(before_.legal.includes('b9-a10'));
  // Not Jade's turn; an illegal action; garbage; a lantern boxed in by its own doors.
  assert.equal((await jade.move('b11-a10')).status, 409);
  const illegal = await ivory.move('b9-c10');
  assert.equal(illegal.status, 422);
  assert.match(illegal.json.error, /occupied/);
  assert.equal((await ivory.move('zz-9')).status, 422);
  assert.deepEqual((await ivory.game()).json.observation, before_.observation);

  // First action: a door. Ivory is still to move, with action 1 and the door action done.
  const a1 = await ivory.move('b9-a10');
  assert.equal(a1.status, 200, a1.text);
  assert.deepEqual(a1.json.events.map((e) => e.type), ['move']);
  assert.equal(a1.json.events[0].piece, '0D');
  let obs = a1.json.observation;
  assert.equal(obs.to_move, 0);
  assert.equal(obs.action, 1);
  assert.deepEqual(obs.acted, ['a10']);
  assert.equal(obs.door_action_done, true);
  // The same piece may not act twice.
  const again = await ivory.move('a10-b9');
  assert.equal(again.status, 422);
  assert.match(again.json.error, /another piece/);
  // Second action: a lantern. The turn passes to Jade.
  const legal = (await ivory.game()).json.legal;
  const lantern = legal.find((m) => m.startsWith('c4-'));
  assert.ok(lantern, `a lantern move in ${legal.join(' ')}`);
  const a2 = await ivory.move(lantern);
  assert.equal(a2.status, 200, a2.text);
  obs = a2.json.observation;
  assert.equal(obs.to_move, 1);
  assert.equal(obs.ply, 1);
  assert.equal(obs.action, 0);
  // Jade's first action without a door leaves the door action owed: only door moves remain.
  const jl = (await jade.game()).json.legal;
  const nonDoor = jl.find((m) => m.startsWith('e16-'));
  assert.ok(nonDoor, 'the lantern on e16 can move');
  assert.equal((await jade.move(nonDoor)).status, 200);
  const owed = (await jade.game()).json;
  assert.equal(owed.observation.door_action_done, false);
  for (const m of owed.legal) {
    const from = m.split('-')[0];
    assert.equal(owed.observation.board[from], '1D', `${m}: only doors may act while the door action is owed`);
  }
});

test('two seats agree to the scored stalemate: it takes effect at the end of the round; a withdrawal stops it', async () => {
  const g = await create([{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }]);
  const seats = [new Viewer(server, g.id, 0, g.tokens['0']), new Viewer(server, g.id, 1, g.tokens['1'])];
  for (const v of seats) assert.equal((await v.setup({ arrangement: 'suggested' })).status, 200);
  const rnd = prng(11);
  const playTurn = async () => {
    for (let i = 0; i < 2; i++) {
      const gv = (await seats[0].game()).json;
      if (gv.observation.phase !== 'play') return gv;
      const mover = seats[gv.observation.to_move];
      const legal = (await mover.game()).json.legal;
      const r = await mover.move(rnd.pick(legal));
      assert.equal(r.status, 200, r.text);
      if (r.json.observation.to_move !== mover.seat) return r.json;
    }
    return null;
  };
  // Ivory agrees, then withdraws; Jade agrees: no agreement of both, the game goes on past round ends.
  assert.equal((await seats[0].offer('stalemate')).status, 200);
  assert.equal((await seats[0].offer('stalemate')).status, 409, 'agreeing twice');
  assert.equal((await seats[0].offer('withdraw')).status, 200);
  assert.equal((await seats[0].offer('withdraw')).status, 409, 'nothing to withdraw');
  assert.equal((await seats[1].offer('stalemate')).status, 200);
  await playTurn();
  await playTurn();
  let gv = (await seats[0].game()).json;
  assert.equal(gv.observation.phase, 'play');
  assert.deepEqual(gv.observation.stalemate_agreed, [1]);
  // Ivory agrees during its own turn: the game ends when Jade's turn (the round) ends.
  assert.equal(gv.observation.to_move, 0);
  assert.equal((await seats[0].offer('stalemate')).status, 200);
  await playTurn();
  gv = (await seats[0].game()).json;
  assert.equal(gv.observation.phase, 'play', 'not before the round ends');
  await playTurn();
  gv = (await seats[0].game()).json;
  assert.equal(gv.observation.phase, 'over');
  assert.equal(gv.observation.result.reason, 'scored-stalemate');
  const scores = gv.observation.scores;
  const best = Math.max(...scores);
  const winners = scores.map((s, i) => (s === best ? i : -1)).filter((i) => i >= 0);
  assert.deepEqual(gv.observation.result.winners, winners.length === 2 ? [] : winners);
});

test('an AI seat sets up, plays both actions of its turns, and answers an agreement from its evaluation', async () => {
  const g = await create([{ type: 'human', name: 'Ana' }, { type: 'ai', level: 1 }]);
  const ivory = new Viewer(server, g.id, 0, g.tokens['0']);
  await ivory.connect();
  // The AI's army is in at once, and secret.
  const first = await ivory.waitFrame((m) => m.type === 'update');
  assert.deepEqual(first.observation.ready, [1]);
  assert.deepEqual(Object.keys(first.observation.board), []);
  assert.equal((await ivory.setup({ arrangement: 'suggested' })).status, 200);
  const rnd = prng(5);
  for (let turn = 0; turn < 6; turn++) {
    let gv = (await ivory.game()).json;
    if (gv.observation.phase !== 'play') break;
    while (gv.observation.to_move === 0 && gv.observation.phase === 'play') {
      const r = await ivory.move(rnd.pick(gv.legal));
      assert.equal(r.status, 200, r.text);
      gv = (await ivory.game()).json;
    }
    if (gv.observation.phase !== 'play') break;
    // The AI's two actions arrive as updates; wait for Ivory's turn again.
    const ply = gv.observation.ply;
    await ivory.waitFrame((m) => m.type === 'update' && (m.observation?.phase === 'over' ||
      (m.observation?.to_move === 0 && m.observation?.ply > ply)));
  }
  const gv = (await ivory.game()).json;
  const aiMoves = gv.events.filter((e) => e.type === 'move' && e.player === 1);
  assert.ok(aiMoves.length >= 2, 'the AI acted');
  for (let i = 0; i + 1 < aiMoves.length; i += 2) assert.deepEqual([aiMoves[i].action, aiMoves[i + 1].action], [0, 1]);
  if (gv.observation.phase === 'play') {
    // An agreement the AI is asked to answer: it answers (agrees or not) without hanging the game.
    assert.equal((await ivory.offer('stalemate')).status, 200);
    assert.deepEqual((await ivory.game()).json.observation.stalemate_agreed.includes(0), true);
  }
  ivory.close();
});

test('a resignation during setup reveals no setup, ever (common rulings)', async () => {
  const rnd = prng(77);
  const g = await create([{ type: 'human', name: 'Ana' }, { type: 'open' }]);
  const ivory = new Viewer(server, g.id, 0, g.tokens['0']);
  const placement = randomPlacement(0, rnd);
  assert.equal((await ivory.setup({ placement })).status, 200);
  const mallory = new Viewer(server, g.id, 1, null);
  const j = await mallory.call('POST', `/api/games/${g.id}/join`, { body: { seat: 1, name: 'Mallory' } });
  assert.equal(j.status, 200, j.text);
  mallory.token = j.json.token;
  await mallory.connect();
  assert.equal((await mallory.offer('resign')).status, 200);
  const spectator = new Viewer(server, g.id, null, null);
  await mallory.game();
  await spectator.game();
  const rec = await spectator.record();
  assert.equal(rec.status, 200, 'the game is over: the record is served');
  assert.deepEqual(rec.json.setups, {});
  await mallory.record();
  await mallory.waitFrame((m) => m.type === 'update' && m.observation?.phase === 'over');
  assert.deepEqual(setupLeaks(mallory, 0, placement), []);
  assert.deepEqual(setupLeaks(spectator, 0, placement), []);
  mallory.close();
});
