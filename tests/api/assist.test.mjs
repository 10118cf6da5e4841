// What players expect around the board (docs/server.md "Around the board"), over the real server, as an
// attacker reads it: every byte a seat and a spectator receive (HTTP answers, text records, WebSocket frames)
// while hints, take-backs, records and analyses are asked for in games that hide something.
//   - Stratego against the AI: hints and take-backs at will; no enemy identity outside a battle, no trace of
//     the AI's thinking, no other army in a seat's text record, no analysis while the game is on;
//   - FACET under fog against the AI: danger marks name only squares the seat sees;
//   - Tigadi between two people: a take-back by agreement, a rematch with the seats swapped and the tokens
//     kept, an import of the finished game's record; bad requests change nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import WebSocket from 'ws';
import { call, prng, startServer, tempDir } from './lib.mjs';

// Each test ends well inside ctest's 300 s (3 s each when run here), so a wait that never ends fails here and
// `after` prints what it waited for, rather than the whole suite being killed without a word.
const LIMIT = { timeout: 90_000 };

let server;
const seen = { messages: 0, bytes: 0 };
const waiting = new Map();  // viewer -> what it waits for, while it waits

before(async () => {
  server = await startServer({ db: path.join(tempDir(), 'tabula.db') });
});
after(async () => {
  for (const what of waiting.values()) console.log(`# still waiting: ${what}`);
  await server.stop('SIGTERM');
  console.log(`# assist: ${seen.messages} messages (${seen.bytes} bytes) read`);
});

// A viewer that keeps every byte it receives: HTTP answers and WebSocket frames, raw.
class Viewer {
  constructor(id, token, name) {
    this.id = id;
    this.token = token;
    this.name = name;
    this.log = [];
    this.frames = [];
  }

  async call(method, p, body) {
    const res = await fetch(server.url + p, {
      method,
      headers: { ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* a text record */ }
    this.log.push({ what: `${method} ${p}`, text, json });
    return { status: res.status, text, json };
  }

  game() { return this.call('GET', `/api/games/${this.id}`); }

  async connect() {
    this.ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws/games/${this.id}`);
    this.ws.on('message', (data) => {
      const text = String(data);
      const entry = { what: 'ws', text, json: JSON.parse(text) };
      this.log.push(entry);
      this.frames.push(entry.json);
    });
    await new Promise((resolve) => this.ws.once('open', resolve));
    this.ws.send(JSON.stringify(this.token ? { type: 'auth', token: this.token } : { type: 'auth' }));
  }

  // The first frame from `from` on that satisfies pred (waits on frames, not on time; the test's timeout ends it).
  // What it waits for is kept, so that a test that times out says where it stood (see `after`).
  async frame(pred, from = 0) {
    for (;;) {
      const hit = this.frames.slice(from).find(pred);
      if (hit) {
        waiting.delete(this);
        return hit;
      }
      waiting.set(this, `${this.name} waits from frame ${from} of ${this.frames.length} for ${pred}`);
      await new Promise((resolve) => this.ws.once('message', resolve));
    }
  }

  close() { this.ws?.close(); }
}

// Every key of a JSON value, anywhere in it.
function keys(v, out = []) {
  if (Array.isArray(v)) v.forEach((x) => keys(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push(k); keys(x, out); }
  return out;
}

const AI_THINKING = ['pv', 'worlds', 'nodes', 'depth', 'seed', 'info'];

test('Stratego against the AI: hints, take-backs and records never show the AI army or its thinking', LIMIT, async () => {
  const rnd = prng(20261202);
  const created = await call(server, 'POST', '/api/games', { body: { game: 'stratego',
    seats: [{ type: 'human', name: 'Red' }, { type: 'ai', level: 2 }] } });
  assert.equal(created.status, 201);
  const { id, tokens } = created.body;
  const red = new Viewer(id, tokens[0], 'Red');
  const spectator = new Viewer(id, null, 'spectator');
  await red.connect();
  await spectator.connect();
  assert.equal((await red.call('POST', `/api/games/${id}/setup`, { arrangement: 'random' })).status, 200);
  assert.equal((await red.call('POST', `/api/games/${id}/analysis`)).status, 409, 'no analysis while the game is on');
  assert.equal((await spectator.call('GET', `/api/games/${id}/analysis`)).json.status, 'none');

  let hints = 0;
  let takebacks = 0;
  for (let turn = 0; turn < 24; turn++) {
    // Frames counted from before the GET: the AI's reply may arrive while the answer is on its way, and a wait
    // counted from after it would miss that frame and wait for ever (seen once in make test).
    const sent = red.frames.length;
    let g = (await red.game()).json;
    if (g.observation.phase === 'over') break;
    if (g.observation.to_move !== 0) {
      await red.frame((m) => m.observation?.to_move === 0 || m.observation?.phase === 'over', sent);
      g = (await red.game()).json;
      if (g.observation.phase === 'over') break;
    }
    assert.equal(g.assist.hint, true);
    assert.equal(g.assist.takeback_request, false, 'no take-back to ask a person for');
    // A hint for this position: pending, then the move in an update for Red (never for the spectator).
    const from = red.frames.length;
    const asked = await red.call('POST', `/api/games/${id}/hint`, {});
    assert.equal(asked.status, 200, asked.text);
    const hinted = asked.json.hint.move ?? (await red.frame((m) => m.hint?.move, from)).hint.move;
    assert.ok(g.legal.includes(hinted), `the hint ${hinted} is a legal move`);
    hints++;
    assert.equal((await spectator.call('POST', `/api/games/${id}/hint`, {})).status, 401);
    if (turn % 6 === 5 && g.assist.takeback) {
      const before = red.frames.length;
      const tb = await red.call('POST', `/api/games/${id}/takeback`, { what: 'request' });
      assert.equal(tb.status, 200, tb.text);
      const reset = await red.frame((m) => m.reset === true, before);
      assert.equal(reset.events.at(-1).type, 'takeback');
      assert.deepEqual(reset.events, (await red.game()).json.events, 'a reset update carries every event');
      takebacks++;
      continue;
    }
    if (turn % 4 === 1) {
      const mine = await red.call('GET', `/api/games/${id}/record.txt`);
      assert.equal(mine.status, 200);
      assert.match(mine.text, /\[View "0"\]/);
      assert.match(mine.text, /\[Setup0 /);
      assert.doesNotMatch(mine.text, /\[Setup1 /, "the AI army's setup is not in Red's view");
      const theirs = await spectator.call('GET', `/api/games/${id}/record.txt`);
      assert.doesNotMatch(theirs.text, /\[Setup/, 'a spectator sees no setup');
      assert.equal((await spectator.call('GET', `/api/games/${id}/record`)).status, 409);
    }
    const move = rnd.next() < 0.5 ? hinted : g.legal[Math.floor(rnd.next() * g.legal.length)];
    assert.equal((await red.call('POST', `/api/games/${id}/moves`, { move })).status, 200);
  }
  assert.ok(hints >= 10 && takebacks >= 2, `${hints} hints, ${takebacks} take-backs`);

  // Every byte so far: enemy identities only inside battle events, no AI thinking, no tokens of others.
  for (const v of [red, spectator]) {
    for (const entry of v.log) {
      seen.messages++;
      seen.bytes += entry.text.length;
      if (entry.json) {
        const body = structuredClone(entry.json);
        for (const k of ['events']) if (Array.isArray(body[k])) body[k] = body[k].filter((e) => e.type !== 'battle');
        const bare = JSON.stringify(body);
        assert.doesNotMatch(bare, /"1[MGCJPLTNOSBF]"/, `${v.name} ${entry.what}: an AI identity outside a battle`);
        if (v === spectator) assert.doesNotMatch(bare, /"0[MGCJPLTNOSBF]"/, `spectator ${entry.what}: Red's identity`);
        const found = keys(entry.json).filter((k) => AI_THINKING.includes(k));
        assert.deepEqual(found, [], `${v.name} ${entry.what}: the AI's thinking`);
        if (v === spectator) assert.equal(entry.json.hint ?? null, null, 'a spectator sees no hint');
      } else {
        assert.doesNotMatch(entry.text, /\b1[MGCJPLTNOSBF]\b/, `${v.name} ${entry.what}: an identity in a text`);
      }
    }
  }

  // Over: the whole record, and the analysis, with its scores.
  assert.equal((await red.call('POST', `/api/games/${id}/offers`, { what: 'resign' })).status, 200);
  const whole = await spectator.call('GET', `/api/games/${id}/record.txt`);
  assert.match(whole.text, /\[Setup1 /);
  assert.match(whole.text, new RegExp(`\\[Takebacks "${takebacks}"\\]`));
  const before = spectator.frames.length;
  assert.equal((await spectator.call('POST', `/api/games/${id}/analysis`)).status, 200);
  await spectator.frame((m) => m.analysis?.status === 'done', before);
  const analysis = (await spectator.call('GET', `/api/games/${id}/analysis`)).json;
  assert.equal(analysis.positions.length, analysis.total);
  assert.ok(analysis.positions.every((p) => Number.isInteger(p.score) && typeof p.best === 'string'));
  red.close();
  spectator.close();
});

test('FACET under fog against the AI: danger marks name only what the seat sees', LIMIT, async () => {
  const rnd = prng(7);
  const created = await call(server, 'POST', '/api/games', { body: { game: 'facet', options: { modes: ['fog'] },
    seats: [{ type: 'human', name: 'White' }, { type: 'ai', level: 1 }] } });
  const { id, tokens } = created.body;
  const white = new Viewer(id, tokens[0], 'White');
  const spectator = new Viewer(id, null, 'spectator');
  await white.connect();
  await spectator.connect();
  let marks = 0;
  for (let ply = 0; ply < 60; ply++) {
    const sent = white.frames.length;  // from before the GET, as above
    let g = (await white.game()).json;
    if (g.observation.phase === 'over') break;
    if (g.observation.to_move !== 0) {
      await white.frame((m) => m.observation?.to_move === 0 || m.observation?.phase === 'over', sent);
      continue;
    }
    const move = g.legal[Math.floor(rnd.next() * g.legal.length)];
    assert.equal((await white.call('POST', `/api/games/${id}/moves`, { move })).status, 200);
  }
  for (const entry of white.log) {
    const m = entry.json;
    if (!m?.observation || m.observation.phase !== 'play') continue;
    const sees = new Set([...m.observation.visible, ...Object.entries(m.observation.board)
      .filter(([, p]) => p[0] === '0').map(([s]) => s)]);
    for (const d of m.danger ?? []) {
      marks++;
      assert.ok(sees.has(d.square), `a mark on ${d.square}, out of sight`);
      for (const s of d.by) assert.ok(sees.has(s), `a mark's attacker ${s}, out of sight`);
    }
  }
  for (const entry of spectator.log)
    if (entry.json?.observation?.phase === 'play') assert.deepEqual(entry.json.danger, [], 'a fog spectator sees no marks');
  console.log(`# fog danger marks checked: ${marks}`);
  white.close();
  spectator.close();
});

test('Tigadi between people: a take-back by agreement, a rematch with the seats swapped, the record imported', LIMIT, async () => {
  const created = await call(server, 'POST', '/api/games', { body: { game: 'tigadi',
    seats: [{ type: 'human', name: 'Ana' }, { type: 'human', name: 'Bo' }] } });
  const { id, tokens } = created.body;
  const ana = new Viewer(id, tokens[0], 'Ana');
  const bo = new Viewer(id, tokens[1], 'Bo');
  const eve = new Viewer(id, 'f'.repeat(32), 'Eve');
  await bo.connect();
  for (const [v, m] of [[ana, 'd1'], [bo, 'a4'], [ana, 'g1']]) assert.equal((await v.call('POST', `/api/games/${id}/moves`, { move: m })).status, 200);

  // Bad requests first: none changes anything.
  const before = (await ana.game()).json;
  assert.equal((await eve.call('POST', `/api/games/${id}/takeback`, { what: 'request' })).status, 401);
  assert.equal((await ana.call('POST', `/api/games/${id}/takeback`, { what: 'please' })).status, 400);
  assert.equal((await ana.call('POST', `/api/games/${id}/takeback`, [])).status, 400);
  assert.equal((await bo.call('POST', `/api/games/${id}/takeback`, { what: 'accept' })).status, 409);
  assert.equal((await ana.call('POST', `/api/games/${id}/hint`, {})).status, 409, 'no hints between people');
  assert.equal((await ana.call('POST', `/api/games/${id}/rematch`, {})).status, 409, 'no rematch before the end');
  assert.equal((await ana.call('GET', `/api/games/${id}/takeback`)).status, 405);
  assert.deepEqual((await ana.game()).json.observation, before.observation);

  const asked = bo.frames.length;
  assert.equal((await ana.call('POST', `/api/games/${id}/takeback`, { what: 'request' })).status, 200);
  assert.deepEqual((await bo.frame((m) => m.takeback_request, asked)).takeback_request, { seat: 0, accepted: [] });
  const reset = bo.frames.length;
  assert.equal((await bo.call('POST', `/api/games/${id}/takeback`, { what: 'accept' })).status, 200);
  const update = await bo.frame((m) => m.reset === true, reset);
  assert.deepEqual(Object.keys(update.observation.board).sort(), ['a4', 'd1'], 'g1 taken back');
  assert.equal(update.takebacks, 1);

  assert.equal((await bo.call('POST', `/api/games/${id}/offers`, { what: 'resign' })).status, 200);
  assert.equal((await eve.call('GET', `/api/games/${id}/record.txt`)).status, 401, 'a forged token');
  const text = (await call(server, 'GET', `/api/games/${id}/record.txt`)).body;
  assert.match(text, /\[Seat0 "Ana"\]/);
  assert.match(text, /\[Takebacks "1"\]/);
  assert.match(text, /1\. d1 a4/);

  // The rematch: Bo asks, then Ana; the new game has them swapped and their old tokens act there.
  assert.deepEqual((await bo.call('POST', `/api/games/${id}/rematch`, {})).json.rematch, { asked: [1], id: null });
  const next = (await ana.call('POST', `/api/games/${id}/rematch`, {})).json.rematch.id;
  assert.equal(typeof next, 'string');
  const again = await call(server, 'GET', `/api/games/${next}`, { token: tokens[1] });
  assert.equal(again.body.you, 0, 'Bo moves first now');
  assert.equal((await call(server, 'POST', `/api/games/${next}/moves`, { token: tokens[1], body: { move: 'd1' } })).status, 200);
  assert.equal((await call(server, 'POST', `/api/games/${next}/moves`, { token: tokens[0], body: { move: 'a4' } })).status, 200);

  // The record imported: the same game, to replay and analyse; bad imports are refused.
  const imported = await call(server, 'POST', '/api/records', { body: { text } });
  assert.equal(imported.status, 201, JSON.stringify(imported.body));
  const copy = await call(server, 'GET', `/api/games/${imported.body.id}`);
  assert.deepEqual(copy.body.observation, (await ana.game()).json.observation);
  assert.equal(copy.body.status, 'over');
  assert.equal((await call(server, 'POST', '/api/records', { body: { text: text.replace('1. d1', '1. q9') } })).status, 400);
  assert.equal((await call(server, 'POST', '/api/records', { raw: '{"text":' })).status, 400);
  assert.equal((await call(server, 'POST', '/api/records', { body: { text: 'x'.repeat(70000) } })).status, 413);
  assert.equal((await call(server, 'GET', '/api/records')).status, 405);
  bo.close();
});
