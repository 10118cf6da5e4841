// FACET's fog of war as a security boundary (shared/spec/rulings.md FACET, Fog; server-api.md; docs/rulings.md
// F9-F13): no byte of what a seat may not see reaches that seat, a spectator, or the AI playing that seat.
//
// Whole fog games (fog, decay+fog; classic and random layouts; two scripted human seats, a human against the
// AI at levels 2 and 3, the AI moving first) through the real server. Every byte each viewer receives (every
// HTTP answer, to good requests and to deliberately bad ones, and every WebSocket frame, raw) is kept, and
// once the game is over it is checked against a shadow of the truth: `tabula engine` replays the record, and
// our own model of the fog rules (facet-lib.mjs) says what each viewer may see at every ply. While the game is
// on: the board holds enemy stones only in sight and only where they are; `visible`, `ghosts` and the
// remembered terrain are exactly the model's; `legal` is what the observation alone allows; events are each
// viewer's share (an enemy move's `from` only if it was in sight before, `to` only if in sight after, no
// `bump` but the mover's, no decay out of sight, spectators only the Thrones); no square or stone appears
// anywhere else; refusals of moves naming hidden squares read the same whether a stone stands there or not;
// bad requests change nothing; no record. Once over: everything is shown. A planted-leak test proves the
// checks bite, and twin engine games that differ only out of a seat's sight give its AI the same choice.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, tempDir } from './lib.mjs';
import {
  SQUARES, Viewer, canon, cheb, checkMessage, checkOverMessage, checkSubscription, engine, fileOf,
  legalFromObservation, path as linePath, prng, rankOf, replayRecord, shape, summarize,
} from './facet-lib.mjs';

let server;
let db;
const totals = { games: 0, plies: 0, messages: 0, bytes: 0, bad: 0, pairs: 0, restarts: 0 };
const stats = {};
const started = Date.now();

before(async () => {
  db = path.join(tempDir(), 'tabula.db');
  server = await startServer({ db });
});
after(async () => {
  await server.stop('SIGTERM');
  console.log(`# facet leak: ${totals.games} fog games, ${totals.plies} plies, ${totals.messages} messages ` +
    `(${totals.bytes} bytes) checked, ${totals.bad} deliberately bad requests (${totals.pairs} hidden/empty ` +
    `refusal pairs), ${totals.restarts} server restart(s), in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`# truth: ${Object.entries(stats).map(([k, v]) => `${k} ${v}`).join(', ')}`);
});

const json = (v) => JSON.stringify(v);

// ---- policies: each sees only its own seat's observation ---------------------------------------------------

const to = (m) => m.split('-')[1];
const from = (m) => m.split('-')[0];

function randomPolicy({ legal, rnd }) { return rnd.pick(legal); }

// Random for the first `plies` plies (a longer game, stones spread out), greedy after.
const randomThenGreedy = (plies) => (a) => (a.obs.ply < plies ? randomPolicy(a) : greedyPolicy(a));

// Takes what it sees (the Monarch first), else often slides blind into unseen squares (where bumps happen),
// else heads for where it last saw the enemy Monarch, else plays at random.
function greedyPolicy({ seat, obs, legal, rnd }) {
  const isEnemy = (s) => obs.board[s] && obs.board[s][0] !== String(seat);
  const takes = legal.filter((m) => isEnemy(to(m)));
  const regicide = takes.filter((m) => obs.board[to(m)][1] === 'M');
  if (regicide.length) return rnd.pick(regicide);
  if (takes.length && rnd.next() < 0.8) return rnd.pick(takes);
  const visible = new Set(obs.visible);
  const blind = legal.filter((m) => !visible.has(to(m)) && cheb(from(m), to(m)) >= 2);
  if (blind.length && rnd.next() < 0.35) return rnd.pick(blind);
  const isKing = ([, v]) => v === `${1 - seat}M`;
  const king = (Object.entries(obs.board).find(isKing) ?? Object.entries(obs.ghosts).find(isKing))?.[0];
  if (king && rnd.next() < 0.5) {
    let best = Infinity;
    let bests = [];
    for (const m of legal) {
      const d = cheb(to(m), king);
      if (d < best) { best = d; bests = [m]; } else if (d === best) bests.push(m);
    }
    return rnd.pick(bests);
  }
  return rnd.pick(legal);
}

// ---- deliberately bad requests while the game is on (two human seats; `live` is the truth) ------------------

async function badRequests({ id, mover, other, spectator, live, obs, legal, rnd, foreignToken }) {
  const seat = mover.seat;
  const truth = (await live.request({ cmd: 'state' })).state;
  const look = async () => Promise.all([mover, other, spectator].map(async (v) => (await v.game()).text));
  const before = await look();
  const expect = (entry, statuses, label) => {
    totals.bad++;
    assert.ok(statuses.includes(entry.status), `${label}: ${entry.status} ${entry.text}`);
    assert.equal(typeof entry.json?.error, 'string', `${label}: an error message`);
    return entry;
  };
  const sameShape = (a, b, label) => {
    totals.pairs++;
    assert.equal(a.status, b.status, `${label}: ${a.text} / ${b.text}`);
    assert.equal(shape(a.json.error), shape(b.json.error), `${label}: a hidden stone reads differently from an empty square`);
  };
  const neighbour = (s) => rnd.pick(SQUARES.filter((t) => cheb(s, t) === 1));
  const visible = new Set(obs.visible);
  const unseen = SQUARES.filter((s) => !visible.has(s));
  const hiddenStones = unseen.filter((s) => truth.board[s]);  // always the enemy's: own stones are always seen
  const hiddenEmpty = unseen.filter((s) => !truth.board[s]);
  assert.ok(hiddenStones.every((s) => Number(truth.board[s][0]) !== seat), 'own stones are always in sight');

  // Moving "from" a hidden enemy stone or from an empty unseen square: the same refusal; out of turn too.
  if (hiddenStones.length && hiddenEmpty.length) {
    const h = rnd.pick(hiddenStones);
    const e = rnd.pick(hiddenEmpty);
    const a = expect(await mover.move(`${h}-${neighbour(h)}`), [422], 'from a hidden stone');
    const b = expect(await mover.move(`${e}-${neighbour(e)}`), [422], 'from an empty unseen square');
    sameShape(a, b, 'from');
    assert.match(a.json.error, /no stone on/);
    sameShape(expect(await other.move(`${h}-${neighbour(h)}`), [409], 'out of turn, a hidden stone'),
      expect(await other.move(`${e}-${neighbour(e)}`), [409], 'out of turn, an empty square'), 'out of turn');
    // Onto a hidden stone or an empty unseen square out of reach: from the Monarch, and from an agent on a
    // Field (both step; their refusal names no square, or only the one asked about).
    const own = Object.keys(obs.board).filter((s) => Number(obs.board[s][0]) === seat);
    const monarch = own.find((s) => obs.board[s][1] === 'M');
    const fielders = own.filter((s) => obs.board[s][1] === 'A' && !obs.terrain[s]);
    for (const s of [monarch, fielders.length ? rnd.pick(fielders) : null].filter(Boolean)) {
      const hs = hiddenStones.filter((t) => cheb(s, t) >= 2);
      const es = hiddenEmpty.filter((t) => cheb(s, t) >= 2);
      if (!hs.length || !es.length) continue;
      sameShape(expect(await mover.move(`${s}-${rnd.pick(hs)}`), [422], 'onto a hidden stone out of reach'),
        expect(await mover.move(`${s}-${rnd.pick(es)}`), [422], 'onto an empty unseen square out of reach'), 'onto');
    }
  }
  // A slide blocked by a stone in sight is refused naming that stone's square (which the seat sees).
  for (const s of Object.keys(obs.board).filter((q) => obs.board[q] === `${seat}A` && ['T', 'S', 'C'].includes(obs.terrain[q]))) {
    const beyond = SQUARES.find((t) => {
      const p = linePath(s, t);
      return p.length && p.some((q) => obs.board[q]) && !legal.includes(`${s}-${t}`) && obs.board[t]?.[0] !== String(seat) &&
        (obs.terrain[s] !== 'T' || fileOf(s) === fileOf(t) || rankOf(s) === rankOf(t)) &&
        (obs.terrain[s] !== 'S' || (fileOf(s) !== fileOf(t) && rankOf(s) !== rankOf(t)));
    });
    if (beyond) {
      const r = expect(await mover.move(`${s}-${beyond}`), [422], 'a blocked slide');
      assert.match(r.json.error, /blocked at/);
      break;
    }
  }
  // A visible enemy stone is not yours (it is seen, so the seat may be told).
  const seenEnemy = Object.keys(obs.board).filter((s) => Number(obs.board[s][0]) !== seat);
  if (seenEnemy.length) {
    const s = rnd.pick(seenEnemy);
    assert.match(expect(await mover.move(`${s}-${neighbour(s)}`), [422], 'a seen enemy stone').json.error, /not yours/);
  }
  // Tokens: none, forged, another game's, one character off; the other seat out of turn.
  const mv = legal[0];
  const flip = (t) => t.slice(0, -1) + (t.at(-1) === '0' ? '1' : '0');
  expect(await spectator.move(mv), [401], 'a spectator moves');
  expect(await spectator.offer('resign'), [401], 'a spectator resigns');
  expect(await mover.move(mv, { token: 'f'.repeat(32) }), [401, 403], 'a forged token');
  expect(await mover.move(mv, { token: foreignToken }), [401, 403], "another game's token");
  expect(await mover.move(mv, { token: flip(mover.token) }), [401, 403], 'a token one character off');
  expect(await mover.game({ token: flip(other.token) }), [401, 403], 'reading with a token one character off');
  expect(await other.move(mv), [409], "out of turn, the mover's legal move");
  // Bodies and moves that are no moves.
  const movesPath = `/api/games/${id}/moves`;
  expect(await mover.call('POST', movesPath, { raw: '{"move":', kind: 'action' }), [400], 'malformed JSON');
  expect(await mover.call('POST', movesPath, { raw: '[]', kind: 'action' }), [400], 'not an object');
  expect(await mover.call('POST', movesPath, { body: { mv }, kind: 'action' }), [400], 'no move field');
  expect(await mover.call('POST', movesPath, { body: { move: 5 }, kind: 'action' }), [400], 'a number');
  expect(await mover.move('k11-a1'), [400, 422], 'not a square');
  expect(await mover.move('e2e3'), [400, 422], 'no dash');
  // What the phase does not allow, offers that do not stand, the record, a taken seat.
  expect(await spectator.record(), [409], 'the record during play');
  expect(await mover.record(), [409], 'the record during play, as a seat');
  expect(await mover.call('POST', `/api/games/${id}/setup`, { body: { arrangement: 'random' }, kind: 'action' }), [409], 'a setup');
  if (obs.draw_offer === null) {
    expect(await mover.offer('accept'), [409], 'accepting no offer');
    expect(await other.offer('decline'), [409], 'declining no offer');
  }
  expect(await mover.offer('stalemate'), [409], 'an offer FACET does not have');
  expect(await mover.offer('surrender'), [400], 'no such offer');
  expect(await spectator.call('POST', `/api/games/${id}/join`, { body: { seat: 1, name: 'Eve' }, kind: 'action' }), [409], 'a taken seat');
  assert.deepEqual(await look(), before, 'the bad requests changed nothing anyone sees');
}

// ---- one game ---------------------------------------------------------------------------------------------

// A seat's token of another fog game, to be refused here.
let foreign;
async function foreignToken() {
  if (!foreign) {
    const r = await fetch(`${server.url}/api/games`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: json({ game: 'facet', options: { modes: ['fog'] }, seats: [{ type: 'human' }, { type: 'human' }] }),
    });
    foreign = (await r.json()).tokens[0];
    assert.match(foreign, /^[0-9a-f]{32}$/);
  }
  return foreign;
}

async function playGame(spec) {
  const rnd = prng(spec.seed);
  const seatTypes = spec.seats ?? ['human', 'human'];
  const ctx = { get server() { return server; }, ply: 0, over: false };
  const res = await fetch(`${server.url}/api/games`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: json({ game: 'facet', options: spec.options,
      seats: seatTypes.map((t, i) => (t === 'human' ? { type: 'human', name: i ? 'Black' : 'White' } : { type: 'ai', level: spec.aiLevel })) }),
  });
  assert.equal(res.status, 201);
  const { id, tokens } = await res.json();
  const humans = [0, 1].filter((p) => seatTypes[p] === 'human');
  const seats = [0, 1].map((p) => (humans.includes(p) ? new Viewer(ctx, id, p, tokens[p]) : null));
  const spectator = new Viewer(ctx, id, null, null);
  const all = [...seats.filter(Boolean), spectator];
  for (const v of all) await v.connect();
  // A WebSocket with a forged token: an error, then the close, nothing of the game.
  const forged = new Viewer(ctx, id, null, 'f'.repeat(32), 'forged ws');
  await forged.connect();
  const hh = humans.length === 2;
  const live = hh ? engine() : null;
  try {
    if (live) assert.equal((await live.request({ cmd: 'new', game: 'facet', options: spec.options })).ok, true);
    const moves = [];
    let ply = 0;
    for (;;) {
      ctx.ply = ply;
      const now = (await spectator.game()).json;
      if (now.observation.phase === 'over') { ctx.over = true; break; }
      ply = now.observation.ply;
      ctx.ply = ply;
      if (ply >= spec.maxPlies) {
        const r = await seats[humans.at(-1)].offer('resign');
        assert.equal(r.status, 200, r.text);
        ctx.over = true;
        break;
      }
      const seat = now.observation.to_move;
      if (!humans.includes(seat)) {
        await seats[humans[0]].waitFrame((m) => m.observation?.ply > ply || m.observation?.phase === 'over');
        continue;
      }
      const mover = seats[seat];
      const g = (await mover.game()).json;
      const { observation: obs, legal } = g;
      assert.ok(legal.length > 0, `seat ${seat} has moves at ply ${ply}`);
      if (live && spec.badEvery && ply % spec.badEvery === spec.badEvery - 1) {
        await badRequests({ id, mover, other: seats[1 - seat], spectator, live, obs, legal, rnd, foreignToken: await foreignToken() });
      }
      if (ply === spec.lateSpectatorAt) {
        const late = new Viewer(ctx, id, null, null, 'late spectator');
        await late.connect();
        all.push(late);
      }
      if (ply === spec.restartAt) {
        // The server is stopped and started again on its database: the views it rebuilds are the same.
        await server.stop('SIGTERM');
        server = await startServer({ db });
        totals.restarts++;
        for (const v of all) await v.connect();
      }
      // Offers: `draw` by the seat to move (its own move leaves it standing, the reply declines it), or an
      // answer by the other seat at once.
      const offer = spec.offers?.[ply];
      if (offer) {
        const r = await seats[offer.by === 'mover' ? seat : 1 - seat].offer(offer.what);
        assert.equal(r.status, 200, r.text);
        if (live) assert.equal((await live.request({ cmd: 'offer', player: offer.by === 'mover' ? seat : 1 - seat, what: offer.what })).ok, true);
        if (r.json.observation.phase === 'over') { ctx.over = true; break; }
        if (!hh) {
          // The AI seat answers on its own; its answer is pushed.
          const answered = await mover.waitFrame((m) => m.events?.some((e) => e.type === 'offer' && e.player !== seat));
          if (answered.observation.phase === 'over') { ctx.over = true; break; }
        }
      }
      if (ply % 9 === 4 && hh) await seats[1 - seat].game();
      if (ply % 30 === 7) {
        await spectator.call('GET', `/api/games?ids=${id}`, { kind: 'list' });
        await mover.call('GET', '/api/games?status=playing', { kind: 'list' });
      }
      const mv = spec.policy({ seat, obs, legal, rnd });
      const answer = await mover.move(mv);
      assert.equal(answer.status, 200, `${mv}: ${answer.text}`);
      moves.push(mv);
      if (live) {
        const r = await live.request({ cmd: 'play', move: mv });
        assert.equal(r.ok, true, json(r));
        assert.equal(canon(answer.json.events), canon(r.events), `the mover is told ${mv} whole`);
      }
      if (answer.json.observation.phase === 'over') { ctx.over = true; break; }
      ply++;
    }

    // After the end: everyone sees everything; the record is out; nothing more is accepted.
    for (const v of all) await v.waitFrame((m) => m.observation?.phase === 'over');
    const finals = [];
    for (const v of all) finals.push((await v.game()).json);
    for (const f of finals.slice(1)) {
      assert.deepEqual(f.observation, finals[0].observation, 'every viewer sees the same once it is over');
      assert.deepEqual(f.events, finals[0].events);
    }
    const rec = await spectator.record();
    assert.equal(rec.status, 200, 'the record once the game is over');
    const record = rec.json;
    assert.deepEqual((await seats[humans[0]].record()).json, record);
    if (hh) assert.deepEqual(record.moves, moves, 'the record keeps the moves as submitted');
    const anyone = seats[humans[0]];
    assert.equal((await anyone.move('e2-e3')).status, 409);
    assert.equal((await anyone.offer('draw')).status, 409);
    assert.equal((await anyone.offer('resign')).status, 409);
    // A spectator who comes after the end gets every event whole.
    const afterwards = new Viewer(ctx, id, null, null, 'spectator after the end');
    await afterwards.connect();
    await afterwards.waitFrame((m) => m.observation?.phase === 'over');
    all.push(afterwards);
    for (const v of [...all, forged]) v.close();

    const shadow = await replayRecord(record);
    assert.ok(shadow.final, 'the replayed record ends the game');
    assert.deepEqual(finals[0].observation, shadow.final, 'the final observation is the state');
    const game = { shadow, tokens };
    const problems = [];
    let messages = 0;
    let bytes = 0;
    assert.deepEqual(forged.subs[0].frames.map((f) => f.json?.type), ['error'], 'a forged token on the WebSocket gets an error only');
    for (const v of [...all, forged]) {
      for (const entry of v.log) {
        messages++;
        bytes += entry.text.length;
        const isOver = entry.json?.observation ? entry.json.observation.phase === 'over' : entry.over;
        problems.push(...(isOver ? checkOverMessage(v, entry, game) : checkMessage(v, entry, game)));
      }
    }
    for (const v of all) {
      v.subs.forEach((sub, i) => problems.push(...checkSubscription(v, sub, game, { complete: i === v.subs.length - 1 })));
    }
    assert.deepEqual(summarize(problems), [], `${problems.length} problems`);
    totals.games++;
    totals.plies += shadow.final.ply;
    console.log(`# ${json(spec.options.modes)} ${spec.options.layout ?? 'classic'} ${seatTypes.join('-')}: ${shadow.final.ply} plies, ` +
      `${shadow.final.result.reason}, ${messages} messages`);
    totals.messages += messages;
    totals.bytes += bytes;
    for (const [k, n] of Object.entries(shadow.stats)) stats[k] = (stats[k] ?? 0) + n;
    return { shadow, record, result: shadow.final.result, messages };
  } finally {
    live?.kill();
    for (const v of [...all, forged]) v.close();
  }
}

// ---- the games ----------------------------------------------------------------------------------------------


test('fog, classic layout, two humans: greedy play to the end, bad requests all along, a late spectator', async () => {
  const g = await playGame({ seed: 11, options: { modes: ['fog'] }, policy: randomThenGreedy(60), maxPlies: 240, badEvery: 8,
    lateSpectatorAt: 21,
    offers: { 6: { by: 'mover', what: 'draw' }, 15: { by: 'mover', what: 'draw' }, 16: { by: 'mover', what: 'decline' } } });
  assert.ok(g.shadow.final.ply > 20, `a real game (${g.shadow.final.ply} plies)`);
});

test('decay and fog, classic layout, two humans: random play, a server restart in the middle', async () => {
  const g = await playGame({ seed: 12, options: { modes: ['decay', 'fog'] }, policy: randomPolicy, maxPlies: 90, badEvery: 10,
    restartAt: 31, lateSpectatorAt: 40 });
  assert.ok(g.shadow.stats.decays > 0, 'tiles decayed');
});

test('fog on random layouts, with and without decay, two humans', async () => {
  for (const [i, modes] of [['fog'], ['decay', 'fog'], ['fog', 'decay']].entries()) {
    await playGame({ seed: 20 + i, options: { layout: 'random', seed: 1000 + i, modes }, policy: randomThenGreedy(40), maxPlies: 160,
      badEvery: 15 });
  }
});

test('decay and fog, two humans, a draw agreed', async () => {
  const g = await playGame({ seed: 31, options: { modes: ['fog', 'decay'] }, policy: greedyPolicy, maxPlies: 200, badEvery: 12,
    offers: { 24: { by: 'mover', what: 'draw' }, 25: { by: 'mover', what: 'accept' } } });
  assert.deepEqual(g.result, { winners: [], reason: 'agreement' });
});

test('fog against the AI (level 2), the human moving first', async () => {
  const g = await playGame({ seed: 41, seats: ['human', 'ai'], aiLevel: 2, options: { modes: ['fog'] }, policy: greedyPolicy,
    maxPlies: 70, lateSpectatorAt: 10 });
  // The AI answered (a game may end by regicide within a few plies: the AI's time budget makes its play vary).
  assert.ok(g.shadow.final.ply >= 2, `the AI played (${g.shadow.final.ply} plies)`);
  if (g.shadow.final.ply < 10) assert.notEqual(g.result, null, 'a short game ended by the rules');
});

test('decay and fog against the AI (level 3) moving first, random layout', async () => {
  const g = await playGame({ seed: 42, seats: ['ai', 'human'], aiLevel: 3, options: { layout: 'random', seed: 77, modes: ['decay', 'fog'] },
    policy: randomThenGreedy(30), maxPlies: 80 });
  // The AI answered (a game may end by regicide within a few plies: the AI's time budget makes its play vary).
  assert.ok(g.shadow.final.ply >= 2, `the AI played (${g.shadow.final.ply} plies)`);
  if (g.shadow.final.ply < 10) assert.notEqual(g.result, null, 'a short game ended by the rules');
});

test('a series of short fog games: both layouts, with and without decay, random and greedy seats', async () => {
  const variants = [
    [{ modes: ['fog'] }, greedyPolicy],
    [{ modes: ['decay', 'fog'], layout: 'random', seed: 5 }, randomThenGreedy(30)],
    [{ modes: ['fog'], layout: 'random', seed: 6 }, randomPolicy],
    [{ modes: ['decay', 'fog'] }, randomThenGreedy(50)],
    [{ modes: ['fog'], layout: 'random', seed: 7 }, randomThenGreedy(20)],
  ];
  for (const [i, [options, policy]] of variants.entries()) {
    await playGame({ seed: 50 + i, options, policy, maxPlies: 120, badEvery: 20, lateSpectatorAt: 9 });
  }
});

test('fog against the AI (level 3) as Black, a draw offered to it', async () => {
  const g = await playGame({ seed: 61, seats: ['human', 'ai'], aiLevel: 3, options: { modes: ['fog'], layout: 'random', seed: 9 },
    // Offered before the first move: the AI's seed is drawn by the server, so its play (and how soon a game
    // ends by regicide) varies from run to run, and a later offer may never come.
    policy: randomThenGreedy(20), maxPlies: 80, offers: { 0: { by: 'mover', what: 'draw' } } });
  assert.ok(g.record.actions.some((a) => a.type === 'offer' && a.player === 1), 'the AI answered the offer');
});

test('the games showed what the checks are for: bumps, hidden moves and decays, ghosts', () => {
  assert.ok(stats.bumps > 0, 'a slide bumped into a hidden stone');
  assert.ok(stats.enemyMovesHidden > 0 && stats.enemyFromHidden > 0 && stats.enemyToHidden > 0, 'enemy moves were hidden');
  assert.ok(stats.decaysHiddenFromOther > 0, 'decays out of the other side\'s sight');
  assert.ok(stats.spectatorMovesHidden > 0 && stats.ghosts > 0 && stats.captures > 0);
});

// ---- the checks themselves catch what they are for -------------------------------------------------------

// FACET_PLANTS=1 prints what the checks found in each planted leak (to see each is caught for its reason).
test('the byte checks catch planted leaks', async () => {
  // A real game, scripted: White moves a stone to b4 out of Black's sight (across the diagonal of Black's
  // Spire on f8, so Black's view allows f8-a3 where the truth would stop it on b4); its Spire on d2 slides for i7 and
  // bumps into the Black stone that reached h6 unseen; the Spire leaves d2, which decays out of Black's sight.
  // Then Black resigns.
  const record = { options: { layout: 'classic', seed: 0, modes: ['decay', 'fog'] },
    actions: ['a2-a3', 'h8-h7', 'a3-b4', 'h7-h6', 'd2-i7', 'c8-c7'].map((move) => ({ type: 'move', move }))
      .concat([{ type: 'offer', player: 1, what: 'resign' }]) };
  const shadow = await replayRecord(record);
  const tokens = { 0: 'a'.repeat(32), 1: 'b'.repeat(32) };
  const game = { shadow, tokens };
  assert.equal(shadow.stats.bumps, 1);
  assert.equal(shadow.stats.decaysHiddenFromOther, 1);
  const k = 5;  // after the bump; Black to move
  const truth = shadow.plies[k].state;
  assert.equal(truth.board.h6, '0A');
  const white = { seat: 0, name: 'seat 0' };
  const black = { seat: 1, name: 'seat 1' };
  const spectator = { seat: null, name: 'spectator' };
  const eventsUpTo = (seat) => shadow.stream(seat).slice(0, shadow.actions.slice(0, k).flatMap((a) => a.views[seat ?? 'spectator']).length);
  const message = (seat, change = () => {}) => {
    const obs = structuredClone(shadow.expectedObservation(seat, k));
    const body = { id: 'x', game: 'facet', options: obs.options, seats: [], observation: obs,
      legal: seat === 1 ? legalFromObservation(obs, 1) : [], events: structuredClone(eventsUpTo(seat)), you: seat, status: 'playing', result: null, created: 'x' };
    change(body);
    return { via: 'http', kind: 'get', what: 'planted', request: '', status: 200, text: json(body), json: body, ply: k };
  };
  const check = (viewer, change, extra = {}) => checkMessage(viewer, { ...message(viewer.seat, change), ...extra }, game);
  for (const v of [white, black, spectator]) assert.deepEqual(check(v, () => {}), [], `a clean message to ${v.name} passes`);

  const sight1 = shadow.plies[k].sight[1];
  // A White stone out of Black's sight that moved there unseen (so no ghost stands on its square).
  const memory1 = shadow.plies[k].memory[1];
  const hiddenWhite = Object.keys(truth.board).find((s) => truth.board[s][0] === '0' && !sight1.has(s) && !memory1.seen[s]);
  assert.equal(hiddenWhite, 'b4', 'a White stone moved out of sight');
  const emptySeen = [...sight1].find((s) => !truth.board[s]);
  const bumpMove = (b) => b.events.find((e) => e.type === 'move' && e.player === 0 && e.to === 'h6');
  assert.equal(canon(bumpMove(message(1).json)), canon({ type: 'move', player: 0, to: 'h6' }), "Black's view of the bump");
  const plants = {
    'a hidden enemy stone on the board': (b) => { b.observation.board[hiddenWhite] = '0A'; },
    'an enemy stone in sight where there is none': (b) => { b.observation.board[emptySeen] = '0A'; },
    'a ghost on a square in sight': (b) => { b.observation.ghosts[emptySeen] = '0A'; },
    'a ghost moved to where the stone really is': (b) => { delete b.observation.ghosts.d2; b.observation.ghosts[hiddenWhite] = '0A'; },
    'a ghost forgotten because the truth moved on': (b) => { delete b.observation.ghosts.d2; },
    'one square more in visible': (b) => { b.observation.visible = [...b.observation.visible, hiddenWhite].sort(); },
    'a decay remembered that Black could not see': (b) => { b.observation.terrain.d2 = 'G'; },
    'the bump move with its hidden from': (b) => { bumpMove(b).from = 'd2'; },
    'a bump in the victim\'s view': (b) => { bumpMove(b).bump = true; },
    'the decay of d2 told to Black': (b) => { b.events.push({ type: 'decay', square: 'd2', from: 'S', to: 'G' }); },
    'a hidden move told to Black': (b) => { b.events.splice(0, 0, { type: 'move', player: 0, from: 'a2', to: 'a3' }); },
    'legal cut short at a hidden stone': (b) => { b.legal = b.legal.filter((m) => m !== 'f8-a3'); },
    'legal made on the true board': (b) => {
      b.legal = legalFromObservation({ board: truth.board, terrain: truth.terrain }, 1);
      assert.ok(b.legal.includes('f8-b4') && !b.legal.includes('f8-a3'));
    },
    'an enemy stone in an unknown field': (b) => { b.note = `0A on ${hiddenWhite}`; },
    'a square in a free text': (b) => { b.seats = [{ seat: 0, type: 'human', name: 'W', level: null, hint: `look at ${hiddenWhite}` }]; },
    'the AI\'s thinking': (b) => { b.info = { pv: ['d8-c7'], worlds: 8 }; },
    'the record\'s actions': (b) => { b.actions = record.actions; },
    'the state instead of the observation': (b) => { b.observation = { ...truth }; },
    'the truth\'s board under the observation': (b) => { b.observation.board = { ...truth.board }; },
    'an event that is the truth, not the view': (b) => { b.events = shadow.fullEvents().slice(0, b.events.length); },
    'seat 0\'s token': (b) => { b.you = tokens[0]; },
    'a danger mark from a stone out of sight': (b) => {
      b.danger = [{ square: Object.keys(truth.board).find((q) => truth.board[q] === '1M'), player: 1, why: 'monarch-attacked', by: [hiddenWhite] }];
    },
    'a hint that is no legal move of the seat': (b) => { b.hint = { move: `${hiddenWhite}-b5`, pending: false }; },
  };
  for (const [name, plant] of Object.entries(plants)) {
    const found = check(black, plant);
    if (process.env.FACET_PLANTS) console.log(name, "=>", json(found.slice(0, 3).map((p) => p.replace(/^.*?planted: /, "").slice(0, 110))));
    assert.ok(found.length > 0, `caught: ${name}`);
  }
  const spectatorPlants = {
    'a stone off the Thrones': (b) => { b.observation.board.h6 = '0A'; },
    'the terrain as it is now': (b) => { b.observation.terrain = { ...truth.terrain }; },
    'one square more in visible': (b) => { b.observation.visible = [...b.observation.visible, 'h6'].sort(); },
    'a ghost': (b) => { b.observation.ghosts = { e9: '1M' }; },
    'a move off the Thrones': (b) => { b.events.push({ type: 'move', player: 0, from: 'a2', to: 'a3' }); },
    'a capture off the Thrones': (b) => { b.events.push({ type: 'capture', square: 'h6', piece: '1A', by: 0, points: 0 }); },
    'a decay': (b) => { b.events.push({ type: 'decay', square: 'd2', from: 'S', to: 'G' }); },
    'legal moves': (b) => { b.legal = ['c8-c7']; },
    'a danger mark': (b) => { b.danger = [{ square: 'e5', player: 1, why: 'monarch-attacked', by: ['e4'] }]; },
  };
  for (const [name, plant] of Object.entries(spectatorPlants)) {
    const found = check(spectator, plant);
    if (process.env.FACET_PLANTS) console.log("spectator:", name, "=>", json(found.slice(0, 3).map((p) => p.replace(/^.*?planted: /, "").slice(0, 110))));
    assert.ok(found.length > 0, `caught for a spectator: ${name}`);
  }
  assert.ok(check(white, (b) => { b.legal = ['a2-a3']; }).length > 0, 'caught: legal moves for the seat not to move');
  // Refusals: a hidden square named that was not asked about.
  const refusal = (text, request) => ({ via: 'http', kind: 'action', what: 'planted', request, status: 422,
    text: json({ error: text }), json: { error: text }, ply: k });
  assert.deepEqual(checkMessage(black, refusal('there is no stone on d2', '{"move":"d2-d3"}'), game), [], 'a refusal about the square asked');
  assert.ok(checkMessage(black, refusal(`the slide is blocked at ${hiddenWhite}: sliders stop`, '{"move":"f8-e7"}'), game).length > 0,
    'caught: a refusal naming a hidden square');
  assert.ok(checkMessage(black, refusal('that is 0A', '{"move":"d2-d3"}'), game).length > 0, 'caught: a stone in a refusal');
  assert.ok(checkMessage(black, { ...refusal('no', ''), text: json({ error: 'no', where: 'd2' }), json: { error: 'no', where: 'd2' } }, game).length > 0,
    'caught: an error with more than its message');
  // A WebSocket subscription that skipped an event, or told one twice.
  const frame = (events, phase = 'play') => ({ json: { type: 'update', observation: { phase }, events, legal: [], seats: [], status: 'playing' } });
  const stream = shadow.stream(1);
  const full = { frames: [frame(stream), frame(shadow.lastActionEvents(), 'over')], index: 0 };
  assert.deepEqual(checkSubscription(black, full, game, { complete: true }), [], 'a clean subscription passes');
  assert.ok(checkSubscription(black, { frames: [frame(stream.slice(1)), full.frames[1]], index: 0 }, game, { complete: true }).length > 0, 'caught: a skipped event');
  assert.ok(checkSubscription(black, { frames: [frame(stream), frame(stream.slice(-1)), full.frames[1]], index: 0 }, game, { complete: true }).length > 0, 'caught: an event twice');
  // Once over: the observation must be the state.
  const overEntry = (obs) => ({ via: 'http', kind: 'get', what: 'planted', status: 200, text: json({ observation: obs }), json: { observation: obs } });
  assert.deepEqual(checkOverMessage(black, overEntry(shadow.final), game), []);
  assert.ok(checkOverMessage(black, overEntry({ ...shadow.final, visible: [] }), game).length > 0, 'caught: fog after the end');
});

// ---- the AI reads nothing hidden ---------------------------------------------------------------------------

// Twin engine games that differ only in a move the AI's seat could not see (a stone moved out of its sight,
// leaving a tile that decays out of its sight): the seat's observation, events and moves are the same, and so
// is the AI's choice at every level, with the same nodes and seed.
test('the AI sees only what its seat may know: twins differing out of its sight get the same choice', async (t) => {
  const rnd = prng(8);
  let compared = 0;
  let answers = 0;
  for (let round = 0; round < 4 && compared < 20; round++) {
    const options = { layout: round % 2 ? 'random' : 'classic', seed: round, modes: ['decay', 'fog'] };
    const a = engine();
    const b = engine();
    t.after(() => { a.kill(); b.kill(); });
    await a.request({ cmd: 'new', game: 'facet', options });
    await b.request({ cmd: 'new', game: 'facet', options });
    const plies = 6 + rnd.below(20);
    let ok = true;
    for (let i = 0; i < plies && ok; i++) {
      const legal = (await a.request({ cmd: 'legal' })).moves;
      const m = rnd.pick(legal);
      const r = await a.request({ cmd: 'play', move: m });
      await b.request({ cmd: 'play', move: m });
      ok = r.state.phase === 'play';
    }
    if (!ok) continue;
    const state = (await a.request({ cmd: 'state' })).state;
    const mover = state.to_move;
    const ai = 1 - mover;
    const seen = new Set((await a.request({ cmd: 'observe', player: ai })).observation.visible);
    // Two moves of the mover wholly out of the AI's sight that take nothing (on the true board).
    const legal = (await a.request({ cmd: 'legal' })).moves;
    const quiet = legal.filter((m) => {
      const [f, tt] = m.split('-');
      return !seen.has(f) && !seen.has(tt) && !state.board[tt] && linePath(f, tt).every((q) => !state.board[q]);
    });
    const byStone = new Map();
    for (const m of quiet) byStone.set(m.split('-')[0], m);
    const pair = [...byStone.values()];
    if (pair.length < 2) continue;
    const [m1, m2] = [pair[0], pair.at(-1)];
    const ra = await a.request({ cmd: 'play', move: m1 });
    const rb = await b.request({ cmd: 'play', move: m2 });
    if (ra.state.phase !== 'play' || rb.state.phase !== 'play') continue;
    assert.notDeepEqual(ra.state.board, rb.state.board, 'the twins differ in the truth');
    const oa = await a.request({ cmd: 'observe', player: ai });
    const ob = await b.request({ cmd: 'observe', player: ai });
    assert.deepEqual(ob, oa, `the twins look alike to player ${ai} (${m1} / ${m2})`);
    assert.deepEqual(await b.request({ cmd: 'legal' }), await a.request({ cmd: 'legal' }));
    for (const level of [1, 2, 3, 4, 5]) {
      for (const seed of [3, 4]) {
        const req = { cmd: 'ai', level, seed, nodes: 2000 };
        const ca = await a.request(req);
        const cb = await b.request(req);
        assert.equal(ca.ok, true, json(ca));
        delete ca.info.ms;
        delete cb.info.ms;
        assert.deepEqual(cb, ca, `level ${level} seed ${seed}: ${m1} / ${m2} out of sight changed the AI`);
        compared++;
      }
    }
    // And the same answer to a draw offer.
    assert.equal((await a.request({ cmd: 'offer', player: mover, what: 'draw' })).ok, true);
    assert.equal((await b.request({ cmd: 'offer', player: mover, what: 'draw' })).ok, true);
    for (const level of [2, 3]) {
      const req = { cmd: 'ai', level, player: ai, answer: 'draw', seed: 5, nodes: 2000 };
      assert.deepEqual(await b.request(req), await a.request(req), `level ${level}: the answer to a draw offer changed`);
      answers++;
    }
    await a.quit();
    await b.quit();
  }
  assert.ok(compared >= 10, `${compared} AI choices compared`);
  console.log(`# facet twins: ${compared} AI choices and ${answers} answers to draw offers compared`);
});
