// Stratego's hidden identities as a security boundary (server-api.md, rulings.md): no byte of what a seat
// may not know reaches that seat, a spectator, or the AI playing that seat.
//
// Whole games between scripted clients over the real server. Every byte each viewer receives (every HTTP
// answer, to good requests and to deliberately bad ones, and every WebSocket frame, raw) is kept and
// checked against the truth the test knows (it submitted the placements; for an AI's army, the record
// once the game is over): during setup nothing of the other army; in play every enemy piece concealed
// (or, with the memory aid, shown exactly when a battle or a Scout's long move revealed it); enemy
// identities anywhere in the raw bytes only inside true battle events; revealed/moved as the rules say;
// no record while the game is on; everything shown once it is over. A last test drives `tabula engine`:
// two true states that differ only in hidden enemy identities give the AI the same observation and the
// same choice, so the AI cannot be reading them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { bin, spawnEngine, startServer, tempDir } from './lib.mjs';
import {
  AI_KEYS, Truth, canon, Viewer, checkMessage, checkOverMessage, fileOf, isLegalPlacement, prng, randomPlacement,
  rankOf, sq,
} from './stratego-lib.mjs';

let server;
const totals = { games: 0, plies: 0, messages: 0, bytes: 0, bad: 0 };

before(async () => {
  server = await startServer({ db: path.join(tempDir(), 'tabula.db') });
});
after(async () => {
  await server.stop('SIGTERM');
  console.log(`# stratego leak: ${totals.games} games, ${totals.plies} plies, ${totals.messages} messages ` +
    `(${totals.bytes} bytes) checked, ${totals.bad} deliberately bad requests`);
});

const json = (v) => JSON.stringify(v);
const dist = (a, b) => Math.abs(fileOf(a) - fileOf(b)) + Math.abs(rankOf(a) - rankOf(b));

// ---- policies --------------------------------------------------------------------------------------

const randomPolicy = ({ legal, rnd }) => rnd.pick(legal);

// Seat 0 hunts the enemy Flag (the test knows where it is), so the game ends by the rules.
// It plays at random for 40 plies first (sparing the Flag).
function huntPolicy({ seat, legal, rnd, truth }) {
  if (seat !== 0) return rnd.pick(legal);
  const flag = Object.entries(truth.snapshot().board).find(([, v]) => v === '1F')?.[0];
  if (truth.ply < 40) {
    const spare = legal.filter((m) => !m.endsWith(`-${flag}`));
    return rnd.pick(spare.length ? spare : legal);
  }
  const take = legal.find((m) => m.endsWith(`-${flag}`));
  if (take) return take;
  if (rnd.next() < 0.3) return rnd.pick(legal);
  let best = Infinity;
  let bests = [];
  for (const m of legal) {
    const [from, to] = m.split('-');
    const gain = dist(to, flag) - dist(from, flag);
    if (gain < best) { best = gain; bests = [m]; } else if (gain === best) bests.push(m);
  }
  return rnd.pick(bests);
}

// ---- deliberately bad requests while the game is on ------------------------------------------------

async function badRequests(ctx) {
  const { viewers, spectator, truth, rnd, ply } = ctx;
  const mover = viewers[ply % 2];
  const other = viewers[1 - (ply % 2)];
  const board = truth.snapshot().pieces;
  const mine = Object.entries(board).filter(([, p]) => p.owner === mover.seat);
  const theirs = Object.entries(board).filter(([, p]) => p.owner !== mover.seat);
  const expect = (entry, statuses, label) => {
    totals.bad++;
    assert.ok(statuses.includes(entry.status), `${label}: ${entry.status} ${entry.text}`);
    assert.equal(typeof entry.json?.error, 'string', `${label}: an error message`);
  };
  const neighbours = (s) => [[1, 0], [-1, 0], [0, 1], [0, -1]]
    .map(([df, dr]) => [fileOf(s) + df, rankOf(s) + dr])
    .filter(([f, r]) => f >= 0 && f < 10 && r >= 1 && r <= 10).map(([f, r]) => sq(f, r));

  // An enemy piece, preferring the telling kinds (Bombs, the Flag, Scouts), moved by one and by three.
  const telling = theirs.filter(([, p]) => 'BFOS'.includes(p.kind));
  const [es] = rnd.pick(telling.length ? telling : theirs);
  expect(await mover.move(`${es}-${rnd.pick(neighbours(es))}`, { about: 'enemy' }), [422], 'moving an enemy piece');
  const far = sq(fileOf(es), rankOf(es) > 5 ? rankOf(es) - 3 : rankOf(es) + 3);
  expect(await mover.move(`${es}-${far}`, { about: 'enemy' }), [422], 'moving an enemy piece far');
  // Out of turn: the other seat moves its own piece, and the mover's.
  const [os] = rnd.pick(theirs);
  expect(await other.move(`${os}-${rnd.pick(neighbours(os))}`), [409], 'out of turn');
  const [ms] = rnd.pick(mine);
  expect(await other.move(`${ms}-${rnd.pick(neighbours(ms))}`, { about: 'enemy' }), [409], 'out of turn, an enemy piece');
  // Own pieces that cannot go: a Bomb, diagonally, onto an own piece, a long non-Scout move, an empty square.
  const bomb = mine.find(([, p]) => p.kind === 'B');
  if (bomb) {
    const e = await mover.move(`${bomb[0]}-${rnd.pick(neighbours(bomb[0]))}`);
    expect(e, [422], 'moving a Bomb');
    assert.match(e.json.error, /Bomb never moves|lake|not a Stratego move/);
  }
  const corner = mine.filter(([s]) => fileOf(s) < 9 && rankOf(s) < 10);
  if (corner.length) {
    const [ds] = rnd.pick(corner);
    expect(await mover.move(`${ds}-${sq(fileOf(ds) + 1, rankOf(ds) + 1)}`), [422], 'a diagonal move');
  }
  const pair = mine.find(([s]) => neighbours(s).some((n) => board[n]?.owner === mover.seat));
  if (pair) {
    const onto = neighbours(pair[0]).find((n) => board[n]?.owner === mover.seat);
    expect(await mover.move(`${pair[0]}-${onto}`), [422], 'onto an own piece');
  }
  const empty = ['a5', 'b5', 'e5', 'f5', 'i5', 'j5', 'a6', 'b6', 'e6', 'f6', 'i6', 'j6'].find((s) => !board[s]);
  if (empty) expect(await mover.move(`${empty}-${neighbours(empty)[0]}`), [422], 'from an empty square');
  expect(await mover.move('k11-a1'), [400, 422], 'not a square');
  expect(await mover.call('POST', `/api/games/${mover.id}/moves`, { raw: '{"move":' }), [400], 'malformed JSON');
  // Setups are over; offers Stratego does not have; no record while the game is on; no token, a forged one.
  expect(await mover.setup({ arrangement: 'random' }), [409], 'a setup during play');
  expect(await other.setup({ placement: randomPlacement(other.seat, rnd) }), [409], 'a placement during play');
  expect(await other.offer('stalemate'), [400, 409, 422], "Truth's stalemate offer");
  expect(await other.offer('accept'), [409], 'accepting a draw nobody offered');
  expect(await spectator.record(), [409], 'the record during play');
  expect(await mover.record(), [409], 'the record during play, as a seat');
  expect(await spectator.move(`${ms}-${neighbours(ms)[0]}`), [401], 'a spectator moves');
  expect(await spectator.call('GET', `/api/games/${spectator.id}`, { token: 'f'.repeat(32) }), [401], 'a forged token');
  expect(await spectator.setup({ arrangement: 'random' }), [401], 'a spectator sets up');
}

// ---- one game --------------------------------------------------------------------------------------

// Plays one game to its end with every viewer's bytes kept, then checks them all. Returns the game's
// facts for the caller's own assertions.
async function playGame(spec) {
  const rnd = prng(spec.seed);
  const startMs = Date.now();
  const ai = spec.ai ?? false;
  const created = await fetch(`${server.url}/api/games`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: json({ game: 'stratego', options: spec.options,
      seats: [{ type: 'human', name: 'Red' }, ai ? { type: 'ai', level: spec.aiLevel ?? 2 } : { type: 'human', name: 'Blue' }] }),
  });
  assert.equal(created.status, 201);
  const { id, tokens } = await created.json();
  const seat0 = new Viewer(server, id, 0, tokens[0]);
  const seat1 = ai ? null : new Viewer(server, id, 1, tokens[1]);
  const spectator = new Viewer(server, id, null, null);
  const viewers = [seat0, seat1];
  const all = [seat0, seat1, spectator].filter(Boolean);
  for (const v of all) await v.connect();
  let phase = 'setup';
  let over = false;
  // Each HTTP answer is marked with the phase it was asked in (WebSocket frames carry their own).
  const tag = (entry) => {
    if (entry.tagged) return entry;
    entry.tagged = true;
    entry.setupPhase = phase === 'setup';
    entry.sentOver = over;
    return entry;
  };
  const submitted = { 0: [], 1: [] };

  // Setup: bad placements first (nothing changes), moves and the record refused, then placements.
  const placements = spec.placements(rnd);
  const bad = [
    (() => { const s = Object.keys(placements[0]).find((k) => placements[0][k] !== 'M'); return { ...placements[0], [s]: 'M' }; })(),
    { ...placements[0], a5: 'O' },
    Object.fromEntries(Object.entries(placements[0]).map(([s, k]) => [s.replace(/(\d+)$/, (r) => String(Number(r) + 6)), k])),
    { ...placements[0], a1: 'X' },
    { ...placements[0], a1: '0F' },
    Object.fromEntries(Object.entries(placements[0]).slice(1)),
  ];
  for (const b of bad) {
    const e = tag(await seat0.setup({ placement: b }));
    totals.bad++;
    assert.equal(e.status, 422, `a bad placement: ${e.text}`);
  }
  assert.equal(tag(await seat0.move('a4-a5')).status, 409, 'no move before both setups');
  assert.equal(tag(await spectator.record()).status, 409, 'no record during setup');
  assert.equal(tag(await spectator.setup({ arrangement: 'random' })).status, 401);
  // The AI seat sets up at once; the bad placements changed nothing.
  assert.deepEqual(tag(await spectator.game()).json.observation.ready, ai ? [1] : [], 'bad placements changed nothing');

  // Seat 0 sets up, looks, replaces its setup; seat 1 and the spectator look in between.
  // (Against the AI, whose army is in at once, the first setup starts play: no replacing then.)
  const first = randomPlacement(0, rnd);
  for (const [p, pl] of ai ? [[0, placements[0]]] : [[0, first], [0, placements[0]]]) {
    const e = tag(await viewers[p].setup({ placement: pl }));
    assert.equal(e.status, 200, e.text);
    submitted[p].push(pl);
    tag(await spectator.game());
    if (seat1) {
      tag(await seat1.game());
      tag(await seat1.move('a7-a6'));
      assert.equal(tag(await seat1.record()).status, 409);
    }
  }
  if (!ai) {
    const e = tag(await seat1.setup({ placement: placements[1] }));
    assert.equal(e.status, 200, e.text);
    submitted[1].push(placements[1]);
  }
  phase = 'play';
  // The AI's army is unknown to the test until the end; our own referee runs for the human games only.
  const truth = ai ? null : new Truth(placements);

  let ply = 0;
  let lastAnswer = null;
  const limit = spec.resignAfter ?? Infinity;
  for (;;) {
    const now = tag(await spectator.game()).json;
    if (now.observation.phase === 'over') { over = true; break; }
    if (ply >= limit) {
      const resigner = viewers[spec.resigner ?? 0];
      const r = tag(await resigner.offer('resign'));
      assert.equal(r.status, 200, r.text);
      over = true;
      break;
    }
    const seat = ply % 2;
    let legal;
    if (ai && seat === 1) {
      // Wait for the AI's move (pushed to the human seat).
      await seat0.waitFrame((m) => m.observation?.ply > ply || m.observation?.phase === 'over');
      ply++;
      continue;
    }
    const mover = viewers[seat];
    const g = tag(await mover.game());
    legal = g.json.legal;
    assert.ok(legal.length > 0, `seat ${seat} has moves at ply ${ply}`);
    if (truth && spec.badEvery && ply % spec.badEvery === 1) {
      const before = json(tag(await spectator.game()).json.observation);
      await badRequests({ viewers, spectator, truth, rnd, ply });
      for (const v of all) for (const e of v.log) if (e.via === 'http') tag(e);
      assert.equal(json(tag(await spectator.game()).json.observation), before, 'bad requests changed nothing');
    }
    if (ply % 7 === 3 && seat1) tag(await viewers[1 - seat].game());
    if (ply === 50) {
      // A spectator who comes late is told the whole history in its first frame, and no more.
      const late = new Viewer(server, id, null, null);
      await late.connect();
      all.push(late);
    }
    if (ply % 25 === 5) {
      tag(await spectator.call('GET', `/api/games?ids=${id}`));
      tag(await seat0.call('GET', '/api/games?status=playing'));
    }
    const move = spec.policy({ seat, legal, rnd, truth });
    const answer = tag(await mover.move(move));
    assert.equal(answer.status, 200, `${move}: ${answer.text}`);
    if (truth) {
      const event = truth.apply(move);
      assert.deepEqual(answer.json.events[0], event, `the answer to ${move} tells what happened`);
    }
    lastAnswer = answer.json;
    ply++;
    if (answer.json.observation.phase === 'over') { over = true; break; }
  }

  const playedMs = Date.now() - startMs;
  // After the end: everyone sees everything; the record is out; nothing more is accepted.
  for (const v of all) await v.waitFrame((m) => m.observation?.phase === 'over');
  const finals = [];
  for (const v of all) finals.push(tag(await v.game()).json);
  for (const v of all.slice(1)) assert.deepEqual(finals[all.indexOf(v)].observation, finals[0].observation, 'every viewer sees the same once it is over');
  for (const f of finals) assert.deepEqual(f.events, finals[0].events);
  const rec = tag(await spectator.record());
  assert.equal(rec.status, 200, 'the record once the game is over');
  const record = rec.json;
  const recAsSeat = tag(await seat0.record());
  assert.deepEqual(recAsSeat.json, record);
  assert.equal(tag(await seat0.move('a4-a5')).status, 409);
  assert.equal(tag(await seat0.setup({ arrangement: 'random' })).status, 409);
  assert.equal(tag(await seat0.offer('resign')).status, 409);
  for (const v of all) v.close();

  // Once it is over every observation equals the state: the engine, replaying the record, says what that is.
  const referee = engine();
  let state;
  try {
    assert.equal((await referee.request({ cmd: 'new', game: 'stratego', options: record.options })).ok, true);
    for (const a of record.actions) {
      const req = a.type === 'setup' ? { cmd: 'setup', player: a.player, placement: a.placement }
        : a.type === 'move' ? { cmd: 'play', move: a.move } : { cmd: 'offer', player: a.player, what: a.what };
      assert.equal((await referee.request(req)).ok, true, json(a));
    }
    state = (await referee.request({ cmd: 'state' })).state;
  } finally {
    referee.kill();
  }
  for (const f of finals) assert.deepEqual(f.observation, state, 'the final observation is the state');

  // The truth, from our placements and (for the AI's) the record, replayed over the record's actions.
  for (const p of [0, 1]) assert.ok(isLegalPlacement(p, record.setups[p]), `seat ${p}'s recorded setup is a legal army`);
  assert.deepEqual(record.setups[0], placements[0], "the record keeps seat 0's last setup");
  if (!ai) assert.deepEqual(record.setups[1], placements[1]);
  const placed = [record.setups[0], record.setups[1]];
  const replay = new Truth(placed);
  const snapshots = new Map();
  const events = [];
  const result = finals[0].observation.result;
  const ready = new Set();
  let setupsSeen = 0;
  for (const a of record.actions) {
    if (a.type === 'setup') {
      setupsSeen++;
      ready.add(a.player);
      events.push({ type: 'setup', player: a.player });
      if (ready.size === 2 && !snapshots.has(0)) snapshots.set(0, replay.snapshot());
    } else if (a.type === 'move') {
      events.push(replay.apply(a.move));
      snapshots.set(replay.ply, replay.snapshot());
    } else if (a.type === 'offer' && a.what === 'resign') {
      events.push({ type: 'resign', player: a.player });
    } else {
      assert.fail(`an unexpected action ${json(a)}`);
    }
  }
  events.push({ type: 'over', result });
  assert.deepEqual(finals[0].events, events, 'the events are what happened, in order');
  assert.deepEqual(record.moves, record.actions.filter((a) => a.type === 'move').map((a) => a.move));
  assert.deepEqual(record.result, result);
  if (!ai) {
    assert.equal(setupsSeen, 3, 'two setups of seat 0 (one replaced) and one of seat 1');
    assert.deepEqual(record.actions.filter((a) => a.type === 'setup').map((a) => a.placement), [first, placements[0], placements[1]]);
  }
  const final = replay.snapshot();
  // Why it ended, by our own referee.
  if (result.reason === 'flag-captured') assert.ok(replay.flagTaken, 'a Flag was taken');
  if (result.reason === 'ply-limit') assert.equal(replay.ply, spec.options.max_plies);
  if (result.reason === 'no-moves') assert.equal(replay.roughMoves(replay.ply % 2).length, 0, 'the player to move had no move');
  if (result.reason === 'resignation') assert.equal(record.actions.at(-1).what, 'resign');
  assert.deepEqual(submitted[0], ai ? [placements[0]] : [first, placements[0]]);
  if (ai) submitted[1].push(record.setups[1]);

  const game = {
    memoryAid: spec.options?.memory_aid === true,
    placements: submitted,
    truthAt: (p) => snapshots.get(p),
    events,
    final,
    result,
    ai,
  };
  const canonEvents = events.map(canon);
  const problems = [];
  let messages = 0;
  for (const v of all) {
    // The pushes, put together, are every event once, in order.
    const pushed = v.frames.flatMap((f) => f.json?.events ?? []);
    assert.deepEqual(pushed, events, `${v.name}'s WebSocket told every event once`);
    for (const entry of v.log) {
      messages++;
      totals.bytes += entry.text.length;
      const isOver = entry.sentOver || entry.json?.observation?.phase === 'over';
      // No seat's token reaches anyone else.
      for (const [s, t] of Object.entries(tokens)) {
        if (Number(s) !== v.seat && entry.text.includes(t)) problems.push(`${v.name}: seat ${s}'s token in ${entry.what}`);
      }
      problems.push(...(isOver ? checkOverMessage(v, entry, game) : checkMessage(v, entry, game)));
      // A GET of the game while it is on carries every event so far, in order.
      if (!isOver && entry.what.startsWith(`GET /api/games/${id} `) && entry.json?.events) {
        const n = entry.json.events.length;
        if (entry.json.events.some((e, i) => canonEvents[i] !== canon(e))) problems.push(`${v.name} GET: events are not the history`);
      }
    }
  }
  // A few of each kind of problem, so one loud leak does not hide another.
  const shown = new Map();
  for (const pr of problems) {
    const kind = pr.replace(/^[^:]*: /, '').replace(/[a-j]\d+|[01][A-Z?]|\d+/g, '#').slice(0, 60);
    if ((shown.get(kind) ?? []).length < 2) shown.set(kind, [...(shown.get(kind) ?? []), pr]);
  }
  assert.deepEqual([...shown.values()].flat().slice(0, 30), [], `${problems.length} problems`);
  if (process.env.STRATEGO_LEAK_TIMES) console.log(`# played in ${playedMs} ms, checked in ${Date.now() - startMs - playedMs} ms`);
  totals.games++;
  totals.plies += replay.ply;
  totals.messages += messages;
  return { result, replay, record, lastAnswer, messages };
}

// ---- the games -------------------------------------------------------------------------------------

test('two humans, no memory aid, random play to the ply limit, bad requests all along', async () => {
  const g = await playGame({
    seed: 1,
    options: { max_plies: 200 },
    // Flags bombed in at the back, so random play runs to the limit.
    placements: (rnd) => [randomPlacement(0, rnd, { a1: 'F', a2: 'B', b1: 'B' }),
      randomPlacement(1, rnd, { j10: 'F', j9: 'B', i10: 'B' })],
    policy: randomPolicy,
    badEvery: 15,
  });
  assert.deepEqual(g.result, { winners: [], reason: 'ply-limit' });
  assert.ok(g.replay.battleReveals > 0, 'there were battles');
});

test('two humans with the memory aid: revealed identities and marks exactly as the rules say; resignation', async () => {
  const g = await playGame({
    seed: 7,
    options: { memory_aid: true, max_plies: 400 },
    placements: (rnd) => [randomPlacement(0, rnd), randomPlacement(1, rnd)],
    policy: randomPolicy,
    resignAfter: 180,
    resigner: 1,
    badEvery: 20,
  });
  assert.deepEqual(g.result, { winners: [0], reason: 'resignation' });
  assert.ok(g.replay.battleReveals > 0, 'battles revealed pieces');
  assert.ok(g.replay.scoutReveals > 0, 'a Scout showed itself by a long move');
});

test('a game that ends by the rules: the Flag is captured', async () => {
  const g = await playGame({
    seed: 3,
    options: { max_plies: 600 },
    // Blue's Flag on its front rank, where Red can get at it.
    placements: (rnd) => [randomPlacement(0, rnd, { a1: 'F', a2: 'B', b1: 'B' }),
      randomPlacement(1, rnd, { e7: 'F', e8: 'B', d7: 'O', f7: 'O' })],
    policy: huntPolicy,
    badEvery: 25,
  });
  assert.deepEqual(g.result, { winners: [0], reason: 'flag-captured' });
  assert.ok(g.replay.ply > 40, `after some play (${g.replay.ply} plies)`);
});

test('a series of short games: random setups and play under every option, bad requests now and then', async () => {
  const reasons = [];
  const variants = [
    { max_plies: 100 },
    { memory_aid: true, repetition_rule: false, max_plies: 120 },
    { two_square_limit: 5, max_plies: 100 },
    { memory_aid: true, two_square_limit: 1, max_plies: 120 },
    { repetition_rule: false, two_square_limit: 2, max_plies: 90 },
  ];
  for (const [i, options] of variants.entries()) {
    const g = await playGame({
      seed: 100 + i,
      options,
      placements: (rnd) => [randomPlacement(0, rnd), randomPlacement(1, rnd)],
      policy: randomPolicy,
      badEvery: 40,
      resignAfter: i === 4 ? 60 : undefined,
      resigner: 0,
    });
    reasons.push(g.result.reason);
  }
  assert.ok(reasons.includes('ply-limit') && reasons.includes('resignation'), reasons.join(','));
});

test('a game that ends by the rules at once: Red cannot move (no-moves)', async () => {
  // Bombs on every front square that faces land, so none of Red's pieces has a move.
  const walled = { a4: 'B', b4: 'B', e4: 'B', f4: 'B', i4: 'B', j4: 'B' };
  const g = await playGame({
    seed: 4,
    options: {},
    placements: (rnd) => [randomPlacement(0, rnd, walled), randomPlacement(1, rnd)],
    policy: randomPolicy,
  });
  assert.deepEqual(g.result, { winners: [1], reason: 'no-moves' });
  assert.equal(g.replay.ply, 0);
});

test('against the AI: the human seat never learns the AI army outside battles, nor its thinking', async () => {
  const g = await playGame({
    seed: 5,
    ai: true,
    aiLevel: 2,
    options: { max_plies: 400 },
    placements: (rnd) => [randomPlacement(0, rnd, { a1: 'F', a2: 'B', b1: 'B' }), null],
    policy: randomPolicy,
    resignAfter: 120,
    resigner: 0,
  });
  assert.ok(['resignation', 'flag-captured', 'no-moves', 'ply-limit'].includes(g.result.reason));
  assert.ok(g.replay.ply > 20, `the AI played (${g.replay.ply} plies)`);
  // The AI's seeds: not in any message, the record included (only the placement it produced is logged).
  const recordText = json(g.record);
  for (const key of AI_KEYS) assert.ok(!recordText.includes(`"${key}"`), `no "${key}" in the record`);
});

test('against the random AI with the memory aid, to the end of the game', async () => {
  const g = await playGame({
    seed: 9,
    ai: true,
    aiLevel: 1,
    options: { memory_aid: true, max_plies: 300 },
    placements: (rnd) => [randomPlacement(0, rnd, { a1: 'F', a2: 'B', b1: 'B' }), null],
    policy: randomPolicy,
  });
  assert.ok(['flag-captured', 'no-moves', 'ply-limit'].includes(g.result.reason), g.result.reason);
  assert.ok(g.replay.ply > 50, `the AI played (${g.replay.ply} plies)`);
});

// ---- the checks themselves catch what they are for -----------------------------------------------

test('the byte checks catch planted leaks', () => {
  const placements = [randomPlacement(0, prng(1)), randomPlacement(1, prng(2), { e7: 'B', e8: 'F' })];
  const truth = new Truth(placements);
  const snapshots = new Map([[0, truth.snapshot()]]);
  const events = [{ type: 'setup', player: 0 }, { type: 'setup', player: 1 }];
  const game = (memoryAid, ai = false) => ({ memoryAid, placements: { 0: [placements[0]], 1: [placements[1]] },
    truthAt: (p) => snapshots.get(p), events, ai });
  const seat0 = { seat: 0, name: 'seat 0' };
  const spectator = { seat: null, name: 'spectator' };
  const observation = (viewer) => {
    const board = {};
    for (const [s, v] of Object.entries(snapshots.get(0).board)) board[s] = viewer === Number(v[0]) ? v : `${v[0]}?`;
    return { phase: 'play', ply: 0, to_move: 0, board, revealed: [], moved: [], captured: { 0: [], 1: [] }, result: null };
  };
  const entry = (body, extra = {}) => ({ via: 'http', what: 'test', status: 200, text: json(body), json: body, ...extra });
  const check = (viewer, body, extra, g = game(false)) => checkMessage(viewer, entry(body, extra), g);

  assert.deepEqual(check(seat0, { observation: observation(0), events, legal: [] }), [], 'a clean message passes');
  assert.deepEqual(check(spectator, { observation: observation(null), events, legal: [] }), []);
  const leaky = observation(0);
  leaky.board.e7 = '1B';
  assert.ok(check(seat0, { observation: leaky }).length > 0, 'an enemy identity on the board');
  assert.ok(check(spectator, { observation: observation(0) }).length > 0, "a seat's board shown to a spectator");
  assert.ok(check(seat0, { error: 'the piece on e7 is a Bomb' }, { status: 422, about: 'enemy' }).length > 0, 'a kind in an error');
  assert.ok(check(seat0, { error: 'e7 holds 1B' }, { status: 422 }).length > 0, 'an identity inside a sentence');
  assert.ok(check(seat0, { x: { note: '1F' } }).length > 0, 'an identity in an unknown field');
  assert.ok(check(spectator, { actions: [{ type: 'setup', placement: { a7: 'B' } }] }).length > 0, 'a placement');
  assert.ok(check(seat0, { observation: observation(0), x: ['F'] }).length > 0, 'a bare kind letter');
  const fake = { type: 'battle', player: 0, from: 'e4', to: 'e7', attacker: '0M', defender: '1F', outcome: 'attacker-won' };
  assert.ok(check(seat0, { events: [fake] }).length > 0, 'a battle that did not happen');
  const marked = observation(0);
  marked.moved = ['e7'];
  assert.ok(check(seat0, { observation: marked }).length > 0, 'marks without the memory aid');
  const aided = observation(0);
  aided.board.e7 = '1B';
  assert.ok(check(seat0, { observation: aided }, {}, game(true)).length > 0, 'an unrevealed identity under the memory aid');
  const setup = { ...observation(0), phase: 'setup' };
  assert.ok(check(seat0, { observation: setup }).length > 0, 'the other army (concealed) during setup');
  assert.ok(check(seat0, { observation: observation(0), info: { pv: ['e4-e5'] } }, {}, game(false, true)).length > 0, "the AI's thinking");
  assert.ok(check(spectator, { observation: observation(null), legal: ['a4-a5'] }).length > 0, 'legal moves to a spectator');
  assert.ok(checkMessage(seat0, { ...entry({}), headerText: 'x-piece: 1F' }, game(false)).length > 0, 'an identity in a header');
});

// ---- the AI reads no hidden identity ---------------------------------------------------------------

// `tabula engine` as a child process (lib.mjs), its requests written by our canonical json().
const engine = () => spawnEngine(bin, json);

test('the AI sees only what its seat may know: twin games differing in hidden identities get the same choice', async (t) => {
  const rnd = prng(6);
  let compared = 0;
  for (let round = 0; round < 3; round++) {
    const placements = [randomPlacement(0, rnd), randomPlacement(1, rnd)];
    const a = engine();
    t.after(() => a.kill());
    await a.request({ cmd: 'new', game: 'stratego', options: {} });
    for (const p of [0, 1]) assert.equal((await a.request({ cmd: 'setup', player: p, placement: placements[p] })).ok, true);
    const truth = new Truth(placements);
    const plies = 20 + rnd.below(60);
    const moves = [];
    for (let i = 0; i < plies; i++) {
      const legal = (await a.request({ cmd: 'legal' })).moves;
      if (!legal.length) break;
      const m = rnd.pick(legal);
      const r = await a.request({ cmd: 'play', move: m });
      assert.equal(r.ok, true);
      truth.apply(m);
      moves.push(m);
      if (r.state.phase !== 'play') break;
    }
    const state = (await a.request({ cmd: 'state' })).state;
    if (state.phase !== 'play') { await a.quit(); continue; }
    const me = state.to_move;
    // Two enemy pieces nobody has seen that could trade identities without changing anything public:
    // both unmoved, or both moved and both movable, of different kinds.
    const hidden = [...truth.board.values()].filter((pc) => pc.owner !== me && !pc.revealed);
    const pairs = [];
    for (const x of hidden) {
      for (const y of hidden) {
        if (x.setup >= y.setup || x.kind === y.kind || x.moved !== y.moved) continue;
        if (x.moved && ('BF'.includes(x.kind) || 'BF'.includes(y.kind))) continue;
        pairs.push([x, y]);
      }
    }
    assert.ok(pairs.length > 0);
    // Prefer a swap that matters: the Flag or a Bomb against something else, when there is one.
    const strong = pairs.filter(([x, y]) => 'FBM'.includes(x.kind) || 'FBM'.includes(y.kind));
    const [x, y] = rnd.pick(strong.length ? strong : pairs);
    const twinPlacements = [{ ...placements[0] }, { ...placements[1] }];
    twinPlacements[1 - me][x.setup] = y.kind;
    twinPlacements[1 - me][y.setup] = x.kind;
    const b = engine();
    t.after(() => b.kill());
    await b.request({ cmd: 'new', game: 'stratego', options: {} });
    for (const p of [0, 1]) assert.equal((await b.request({ cmd: 'setup', player: p, placement: twinPlacements[p] })).ok, true);
    for (const m of moves) assert.equal((await b.request({ cmd: 'play', move: m })).ok, true, `the twin accepts ${m}`);
    const stateB = (await b.request({ cmd: 'state' })).state;
    assert.notDeepEqual(stateB.board, state.board, 'the twins differ in the truth');
    // Same observation, events and moves for the seat to move and for spectators.
    for (const viewer of [me, null]) {
      const oa = await a.request(viewer === null ? { cmd: 'observe' } : { cmd: 'observe', player: viewer });
      const ob = await b.request(viewer === null ? { cmd: 'observe' } : { cmd: 'observe', player: viewer });
      assert.deepEqual(ob, oa, `the twins look alike to ${viewer === null ? 'a spectator' : `player ${viewer}`}`);
    }
    assert.deepEqual(await b.request({ cmd: 'legal' }), await a.request({ cmd: 'legal' }));
    // And the same choice, with the same report of the search (its time aside), at every level.
    for (const level of [1, 2, 3, 4, 5]) {
      for (const seed of [11, 12]) {
        const req = { cmd: 'ai', level, seed, nodes: 3000 };
        const ca = await a.request(req);
        const cb = await b.request(req);
        assert.equal(ca.ok, true, json(ca));
        delete ca.info.ms;
        delete cb.info.ms;
        assert.deepEqual(cb, ca, `level ${level} seed ${seed}: swapping ${x.kind}@${x.setup} and ${y.kind}@${y.setup} changed the AI`);
        compared++;
      }
    }
    await a.quit();
    await b.quit();
  }
  assert.ok(compared >= 8, `${compared} AI choices compared`);
});
