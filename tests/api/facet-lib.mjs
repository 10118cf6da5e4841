// Helpers for the FACET API suites (facet.test.mjs, facet-leak.test.mjs): the 9x9 board, every tile's moves,
// fog sight, a shadow of what each viewer may know (built from the truth the engine reports, replayed over a
// game's record), clients that keep every byte the server sends them, and the checks that a message sent
// during a fog game holds nothing its viewer may not know (shared/spec/rulings.md FACET, Fog; docs/rulings.md
// F9-F13).
//
// The shadow is our own model of the fog rules, written from the rule text, not from the server's code: sight
// (Chebyshev 2 around an agent, 3 around the Monarch, the Thrones, a square where a stone was lost this ply and
// the taker's square if it was in sight before), memory (stones and terrain as last seen, the whole board at
// the start), and each viewer's share of the events. The engine tells the truth (where every stone stands,
// where a slide really stopped); everything a viewer receives is compared with what the model says it may see.
import { once } from 'node:events';
import WebSocket from 'ws';
import { bin, spawnEngine } from './lib.mjs';

// ---- randomness that reproduces --------------------------------------------------------------------------

export { prng } from './lib.mjs';

// ---- the board ---------------------------------------------------------------------------------------------

export const FILES = 'abcdefghi';
export const sq = (file, rank) => `${FILES[file]}${rank}`;
export const fileOf = (s) => FILES.indexOf(s[0]);
export const rankOf = (s) => Number(s.slice(1));
export const onBoard = (f, r) => f >= 0 && f < 9 && r >= 1 && r <= 9;
export const bytes = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
export const SQUARES = [];
for (let f = 0; f < 9; f++) for (let r = 1; r <= 9; r++) SQUARES.push(sq(f, r));
SQUARES.sort(bytes);
export const cheb = (a, b) => Math.max(Math.abs(fileOf(a) - fileOf(b)), Math.abs(rankOf(a) - rankOf(b)));
export const SQUARE_RE = /^[a-i][1-9]$/;

const ORTHO = [[0, 1], [1, 0], [0, -1], [-1, 0]];
const DIAG = [[1, 1], [1, -1], [-1, -1], [-1, 1]];
const KNIGHT = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];

// The destinations of the stone on `from` on `board` (square -> "0A" etc.; what the mover knows of it), by
// the tile it stands on (`tiles`: square -> letter, Field when absent): the Monarch and a Field step, a Gate
// leaps like a knight, a Tower slides orthogonally, a Spire diagonally, a Throne both. Steps and leaps skip
// own stones; slides stop before an own stone and on an enemy one. (Momentum badges are not modelled: the
// fog games these helpers check cannot have them.)
export function targets(board, tiles, from) {
  const stone = board[from];
  const me = stone[0];
  const tile = stone[1] === 'M' ? 'F' : (tiles[from] ?? 'F');
  const out = [];
  const f0 = fileOf(from);
  const r0 = rankOf(from);
  const jump = (deltas) => {
    for (const [df, dr] of deltas) {
      if (!onBoard(f0 + df, r0 + dr)) continue;
      const to = sq(f0 + df, r0 + dr);
      if (board[to]?.[0] !== me) out.push(to);
    }
  };
  const slide = (deltas) => {
    for (const [df, dr] of deltas) {
      for (let f = f0 + df, r = r0 + dr; onBoard(f, r); f += df, r += dr) {
        const to = sq(f, r);
        if (board[to]?.[0] === me) break;
        out.push(to);
        if (board[to]) break;
      }
    }
  };
  if (tile === 'F') jump([...ORTHO, ...DIAG]);
  else if (tile === 'G') jump(KNIGHT);
  else if (tile === 'T') slide(ORTHO);
  else if (tile === 'S') slide(DIAG);
  else if (tile === 'C') slide([...ORTHO, ...DIAG]);
  return out;
}

// Every move of player p on `board`, as sorted strings.
export function legalMoves(board, tiles, p) {
  const out = [];
  for (const [from, v] of Object.entries(board)) {
    if (Number(v[0]) !== p) continue;
    for (const to of targets(board, tiles, from)) out.push(`${from}-${to}`);
  }
  return out.sort(bytes);
}

// Under fog a seat's moves are those of the board as it sees it (unseen squares count as empty): computed
// from the observation alone, so a `legal` list equal to this one was made from nothing hidden.
export function legalFromObservation(obs, seat) {
  return legalMoves(obs.board, obs.terrain, seat);
}

// The squares from `from` (excluded) towards `to` (excluded) when they lie on one line, else [].
export function path(from, to) {
  const df = Math.sign(fileOf(to) - fileOf(from));
  const dr = Math.sign(rankOf(to) - rankOf(from));
  const lf = Math.abs(fileOf(to) - fileOf(from));
  const lr = Math.abs(rankOf(to) - rankOf(from));
  if (!(lf === 0 || lr === 0 || lf === lr)) return [];
  const out = [];
  for (let f = fileOf(from) + df, r = rankOf(from) + dr; sq(f, r) !== to; f += df, r += dr) out.push(sq(f, r));
  return out;
}

// Fog sight (rulings.md): within Chebyshev 2 of each own agent, 3 of the own Monarch, and every Throne.
export function sightOf(board, p, thrones) {
  const out = new Set(thrones);
  for (const [s, v] of Object.entries(board)) {
    if (Number(v[0]) !== p) continue;
    const radius = v[1] === 'M' ? 3 : 2;
    for (const t of SQUARES) if (cheb(s, t) <= radius) out.add(t);
  }
  return out;
}

// ---- the shadow: what each viewer may know, ply by ply ----------------------------------------------------

export const VIEWERS = [0, 1, 'spectator'];
const viewerKey = (seat) => (seat === null || seat === undefined ? 'spectator' : seat);

// Built from the engine's truth: the starting state, then for every action of the record its full events and
// the state after it. For every ply it keeps the truth, each seat's sight and memory; for every action each
// viewer's share of its events.
export class FogShadow {
  constructor(startState) {
    this.options = startState.options;
    this.fog = startState.options.modes.includes('fog');
    this.startTerrain = { ...startState.terrain };
    this.thrones = Object.keys(startState.terrain).filter((s) => startState.terrain[s] === 'C').sort(bytes);
    this.throneSet = new Set(this.thrones);
    const board = startState.board;
    // At the start each player has seen the whole board: enemy stones out of sight begin as ghosts.
    this.memory = [0, 1].map((p) => ({
      seen: Object.fromEntries(Object.entries(board).filter(([, v]) => Number(v[0]) !== p)),
      terrain: { ...startState.terrain },
    }));
    this.sight = [0, 1].map((p) => sightOf(board, p, this.thrones));
    this.plies = [];
    this.actions = [];  // {type, move?, full, views: {0, 1, spectator}, ply, over}
    this.stats = { bumps: 0, captures: 0, decays: 0, decaysHiddenFromOther: 0, enemyMovesHidden: 0,
      enemyFromHidden: 0, enemyToHidden: 0, spectatorMovesHidden: 0, ghosts: 0 };
    this.snapshot(startState);
    this.final = null;
  }

  snapshot(state) {
    this.plies[state.ply] = {
      state,
      sight: this.sight.map((s) => new Set(s)),
      memory: this.memory.map((m) => ({ seen: { ...m.seen }, terrain: { ...m.terrain } })),
      drawOffers: new Set([state.draw_offer]),
    };
  }

  look(p, board, terrain) {
    const m = this.memory[p];
    for (const s of this.sight[p]) {
      if (board[s] && Number(board[s][0]) !== p) m.seen[s] = board[s];
      else delete m.seen[s];
      m.terrain[s] = terrain[s] ?? 'F';
    }
  }

  // A move: `submitted` as the record keeps it, `events` the engine's full events, `state` the truth after.
  move(submitted, events, state) {
    const before = this.plies[state.ply - 1];
    const prev = before.state;
    const mv = events.find((e) => e.type === 'move');
    const mover = mv.player;
    const victim = 1 - mover;
    const { from, to } = mv;
    const took = events.some((e) => e.type === 'capture');
    // The truth itself, checked against the rules: a bump is a slide stopped on the first stone in its path.
    const aimed = submitted.split('-')[1];
    if (this.fog && to !== aimed) {
      const first = path(from, aimed).find((s) => prev.board[s]);
      if (first !== to || !mv.bump) throw new Error(`truth: ${submitted} stopped on ${to}, the first stone is on ${first}`);
      if (before.sight[mover].has(to)) throw new Error(`truth: ${submitted} bumped into a stone its mover saw on ${to}`);
      this.stats.bumps++;
    } else if (mv.bump) {
      throw new Error(`truth: ${submitted} has a bump but stopped where it aimed`);
    }
    if (took) this.stats.captures++;
    const victimBefore = this.sight[victim];
    const board = state.board;
    const terrain = state.terrain;
    if (this.fog) {
      this.sight[mover] = sightOf(board, mover, this.thrones);
      this.look(mover, board, terrain);
      this.memory[mover].terrain[from] = terrain[from] ?? 'F';  // the mover knows the tile it left decayed
      const s = sightOf(board, victim, this.thrones);
      if (took) {
        s.add(to);
        if (victimBefore.has(from)) s.add(from);
      }
      this.sight[victim] = s;
      this.look(victim, board, terrain);
    }
    const views = { [mover]: [], [victim]: [], spectator: [] };
    for (const e of events) {
      views[mover].push(e);
      if (!this.fog || ['offer', 'over', 'resign'].includes(e.type)) {
        views[victim].push(e);
        views.spectator.push(e);
        continue;
      }
      if (e.type === 'move') {
        const theirs = { type: 'move', player: mover };
        if (victimBefore.has(e.from)) theirs.from = e.from;
        else this.stats.enemyFromHidden++;
        if (this.sight[victim].has(e.to)) theirs.to = e.to;
        else this.stats.enemyToHidden++;
        if (theirs.from || theirs.to) views[victim].push(theirs);
        else this.stats.enemyMovesHidden++;
        const pub = { type: 'move', player: mover };
        if (this.throneSet.has(e.from)) pub.from = e.from;
        if (this.throneSet.has(e.to)) pub.to = e.to;
        if (pub.from || pub.to) views.spectator.push(pub);
        else this.stats.spectatorMovesHidden++;
      } else if (e.type === 'capture') {
        views[victim].push(e);
        if (this.throneSet.has(e.square)) views.spectator.push(e);
      } else if (e.type === 'decay') {
        this.stats.decays++;
        if (this.sight[victim].has(e.square)) views[victim].push(e);
        else this.stats.decaysHiddenFromOther++;
      } else {
        throw new Error(`truth: an unknown event ${JSON.stringify(e)}`);
      }
    }
    this.stats.ghosts += Object.keys(this.memory[victim].seen).filter((s) => !this.sight[victim].has(s)).length;
    this.snapshot(state);
    this.push({ type: 'move', move: submitted, full: events, views, ply: state.ply, over: state.phase === 'over' }, state);
  }

  // An offer, a resignation or an adjudication: its events are public.
  other(action, events, state) {
    this.plies[state.ply].drawOffers.add(state.draw_offer);
    this.push({ ...action, full: events, views: { 0: events, 1: events, spectator: events }, ply: state.ply,
      over: state.phase === 'over' }, state);
  }

  push(action, state) {
    this.actions.push(action);
    if (state.phase === 'over') this.final = state;
  }

  // What `seat` (0, 1, null for a spectator) is to be shown at ply k while the game is on; draw_offer is
  // checked apart (offers change it within a ply).
  expectedObservation(seat, k) {
    const at = this.plies[k];
    if (!at) return null;
    const st = at.state;
    const obs = { ...st, board: {}, terrain: {}, badges: {}, ghosts: {}, visible: [] };
    if (!this.fog) return st;
    if (seat === null || seat === undefined) {
      for (const [s, t] of Object.entries(this.startTerrain)) obs.terrain[s] = t;
      for (const s of this.thrones) if (st.board[s]) obs.board[s] = st.board[s];
      obs.visible = [...this.thrones];
      return obs;
    }
    const sight = at.sight[seat];
    const mem = at.memory[seat];
    for (const [s, v] of Object.entries(st.board)) if (Number(v[0]) === seat || sight.has(s)) obs.board[s] = v;
    for (const [s, t] of Object.entries(mem.terrain)) if (t !== 'F') obs.terrain[s] = t;
    for (const [s, v] of Object.entries(mem.seen)) if (!sight.has(s)) obs.ghosts[s] = v;
    obs.visible = [...sight].sort(bytes);
    return obs;
  }

  // The events `seat` is shown while the game is on, in order: its views of every action before the one that
  // ended the game (that one, and everything once it is over, is shown whole).
  stream(seat) {
    const key = viewerKey(seat);
    const out = [];
    for (const a of this.actions) if (!a.over) for (const e of a.views[key]) out.push(e);
    return out;
  }

  fullEvents() { return this.actions.flatMap((a) => a.full); }

  // Cached forms for the checks (the shadow is complete once they are asked for).
  cached(key, make) {
    this.cache ??= new Map();
    if (!this.cache.has(key)) this.cache.set(key, make());
    return this.cache.get(key);
  }
  streamCanon(seat) { return this.cached(`stream ${viewerKey(seat)}`, () => this.stream(seat).map(canon)); }
  streamSet(seat) { return this.cached(`set ${viewerKey(seat)}`, () => new Set(this.streamCanon(seat))); }
  fullCanon() { return this.cached('full', () => this.fullEvents().map(canon)); }
  expected(seat, k) { return this.cached(`obs ${viewerKey(seat)} ${k}`, () => this.expectedObservation(seat, k)); }
  expectedLegal(seat, k) { return this.cached(`legal ${viewerKey(seat)} ${k}`, () => legalFromObservation(this.expected(seat, k), seat)); }
  lastActionEvents() { return this.actions.at(-1)?.full ?? []; }
}

// The shadow of a finished game, from its record, by `tabula engine` replaying it.
export async function replayRecord(record) {
  const eng = engine();
  try {
    const start = await eng.request({ cmd: 'new', game: 'facet', options: record.options });
    if (!start.ok) throw new Error(`engine: ${JSON.stringify(start)}`);
    const shadow = new FogShadow(start.state);
    for (const a of record.actions) {
      if (a.type === 'move') {
        const r = await eng.request({ cmd: 'play', move: a.move });
        if (!r.ok) throw new Error(`engine refused ${a.move}: ${JSON.stringify(r)}`);
        shadow.move(a.move, r.events, r.state);
      } else if (a.type === 'offer') {
        const r = await eng.request({ cmd: 'offer', player: a.player, what: a.what });
        if (!r.ok) throw new Error(`engine refused ${JSON.stringify(a)}: ${JSON.stringify(r)}`);
        shadow.other(a, r.events, r.state);
      } else {
        throw new Error(`an unexpected action ${JSON.stringify(a)}`);
      }
    }
    await eng.quit();
    return shadow;
  } finally {
    eng.kill();
  }
}

// ---- `tabula engine` as a child process -------------------------------------------------------------------

const refereeBin = process.env.FACET_REFEREE_BIN ?? bin;

export function engine() {
  return spawnEngine(refereeBin);
}

// ---- clients that keep every byte ------------------------------------------------------------------------

// One viewer (seat 0, seat 1 or a spectator): every HTTP answer and WebSocket frame it receives, raw. `ctx`
// holds the server (replaced when a test restarts it). Every entry records what the test knew when it was
// received: `ply` and `over` (for answers without an observation).
export class Viewer {
  constructor(ctx, id, seat, token, name) {
    this.ctx = ctx;
    this.id = id;
    this.seat = seat;  // 0, 1 or null (spectator)
    this.token = token;
    this.name = name ?? (seat === null ? 'spectator' : `seat ${seat}`);
    this.log = [];
    this.subs = [];  // one per WebSocket connection: {frames, closed}
    this.waiters = [];
  }

  get server() { return this.ctx.server; }

  async call(method, urlPath, opts = {}) {
    const { body, raw, headers = {}, kind = 'http', tag = {} } = opts;
    // A token given as undefined is no token, never this viewer's own.
    const token = 'token' in opts ? opts.token : this.token;
    const h = { ...headers };
    if (token) h.Authorization = `Bearer ${token}`;
    let payload;
    if (raw !== undefined) payload = raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) h['Content-Type'] = 'application/json';
    const res = await fetch(this.server.url + urlPath, { method, headers: h, body: payload });
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* kept as text */ }
    const headerText = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
    const entry = { via: 'http', kind, what: `${method} ${urlPath} ${payload ?? ''}`, request: payload ?? '',
      status: res.status, text, headerText, json, ply: this.ctx.ply, over: this.ctx.over, ...tag };
    this.log.push(entry);
    return entry;
  }

  game(opts = {}) { return this.call('GET', `/api/games/${this.id}`, { kind: 'get', ...opts }); }
  move(move, opts = {}) { return this.call('POST', `/api/games/${this.id}/moves`, { body: { move }, kind: 'action', ...opts }); }
  offer(what, opts = {}) { return this.call('POST', `/api/games/${this.id}/offers`, { body: { what }, kind: 'action', ...opts }); }
  record(opts = {}) { return this.call('GET', `/api/games/${this.id}/record`, { kind: 'record', ...opts }); }

  // A WebSocket subscription; `auth` overrides the first message (a forged token).
  async connect(auth) {
    const ws = new WebSocket(`ws://127.0.0.1:${this.server.port}/ws/games/${this.id}`);
    const sub = { ws, frames: [], closed: false, index: this.subs.length };
    this.subs.push(sub);
    ws.on('message', (data) => {
      const text = String(data);
      let json = null;
      try { json = JSON.parse(text); } catch { /* kept as text */ }
      const entry = { via: 'ws', kind: 'ws', what: `push #${sub.frames.length} of sub ${sub.index}`, status: 0, text, json,
        sub: sub.index, ply: this.ctx.ply, over: this.ctx.over };
      this.log.push(entry);
      sub.frames.push(entry);
      for (const w of [...this.waiters]) w();
    });
    ws.on('close', () => { sub.closed = true; for (const w of [...this.waiters]) w(); });
    ws.on('error', () => { /* close follows */ });
    await once(ws, 'open');
    ws.send(JSON.stringify(auth ?? (this.token ? { type: 'auth', token: this.token } : { type: 'auth' })));
    return sub;
  }

  // Resolves with the first frame of the latest subscription that satisfies pred.
  async waitFrame(pred, timeoutMs = 20000) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const sub = this.subs.at(-1);
      const hit = sub.frames.find((f) => f.json && pred(f.json));
      if (hit) return hit.json;
      if (sub.closed) throw new Error(`${this.name}: the WebSocket closed while waiting`);
      const left = end - Date.now();
      if (left <= 0) throw new Error(`${this.name}: no such WebSocket frame in time`);
      await new Promise((resolve) => {
        const self = this;
        const t = setTimeout(done, left);
        function done() {
          clearTimeout(t);
          const i = self.waiters.indexOf(done);
          if (i >= 0) self.waiters.splice(i, 1);
          resolve();
        }
        this.waiters.push(done);
      });
    }
  }

  close() { for (const s of this.subs) s.ws.close(); }
}

// ---- what a viewer may be told -------------------------------------------------------------------------------

// JSON with every object's keys sorted: the same value gives the same text, whatever the key order.
export function canon(v) {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`;
  }
  return v === undefined ? 'undefined' : JSON.stringify(v);
}

const STONE_RE = /(?<![A-Za-z0-9])([01])([MA])(?![A-Za-z0-9])/g;
const SQUARE_IN_TEXT = /(?<![A-Za-z0-9])([a-i][1-9])(?![A-Za-z0-9])/g;
// Everything a message may hold: a key anywhere else (the AI's thinking, a record's actions, the truth's
// fields) is a finding.
const TOP_KEYS = new Set(['id', 'game', 'options', 'seats', 'observation', 'legal', 'events', 'you', 'status', 'result',
  'created', 'type', 'error', 'hidden',
  // Around the board (docs/server.md): `danger` names squares, checked below against the viewer's sight.
  'takebacks', 'takeback_request', 'hint', 'rematch', 'analysis', 'danger', 'assist', 'reset']);
const OBS_KEYS_FOG = ['badges', 'board', 'coronation', 'draw_offer', 'game', 'ghosts', 'options', 'phase', 'ply',
  'result', 'terrain', 'to_move', 'visible'];
const SEAT_KEYS = ['handed', 'level', 'name', 'seat', 'type'];
const EVENT_KEYS = {
  move: ['bump', 'from', 'player', 'to', 'type'],
  capture: ['by', 'piece', 'points', 'square', 'type'],
  decay: ['from', 'square', 'to', 'type'],
  offer: ['player', 'type', 'what'],
  resign: ['player', 'type'],
  over: ['result', 'type'],
};

// Every string (keys and values) in a JSON value, with its path.
function walk(value, p, out) {
  if (typeof value === 'string') out.push({ path: p, value });
  else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...p, i], out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push({ path: [...p, k], value: k, key: true });
      walk(v, [...p, k], out);
    }
  }
  return out;
}

// Where in a message a square may be named: the observation's maps and `visible`, the events' squares (each
// then checked against what the viewer may see), and the legal moves (checked whole).
function squareAllowedAt(s) {
  const [a, b, c] = s.path;
  if (a === 'observation' && ['board', 'ghosts', 'terrain', 'badges'].includes(b) && s.key && s.path.length === 3) return true;
  if (a === 'observation' && b === 'visible' && s.path.length === 3) return true;
  if (a === 'events' && s.path.length === 3 && ['from', 'to', 'square'].includes(c) && !s.key) return true;
  if (a === 'legal' && s.path.length === 2) return true;
  if (a === 'danger' && !s.key && (s.path.length === 3 && c === 'square' || s.path.length === 4 && c === 'by')) return true;
  return false;
}

// The squares named in a free text (an error message).
export const squaresIn = (text) => [...text.matchAll(SQUARE_IN_TEXT)].map((m) => m[1]);
// An error message with its squares blanked, to compare the shape of two refusals.
export const shape = (text) => text.replace(SQUARE_IN_TEXT, '#');

// Checks one message sent to `viewer` (seat 0, 1, or null) while the game was on; `game` = { shadow,
// tokens }. Returns a list of problems (empty: fine).
export function checkMessage(viewer, entry, game) {
  const problems = [];
  const say = (m) => problems.push(`${viewer.name} ${entry.via} ${entry.what.slice(0, 100)}: ${m}`);
  const { shadow } = game;
  const seat = viewer.seat;
  const enemy = (digit) => seat === null || Number(digit) !== seat;
  const j = entry.json;

  // No other seat's token, in the body or the headers.
  for (const [s, t] of Object.entries(game.tokens ?? {})) {
    if (Number(s) !== seat && (entry.text.includes(t) || entry.headerText?.includes(t))) say(`seat ${s}'s token`);
  }
  if ([...(entry.headerText ?? '').matchAll(STONE_RE)].some((m) => enemy(m[1]))) say('a stone in the headers');
  if (j === null || typeof j !== 'object') {
    if (entry.kind !== 'healthz') say(`not JSON: ${entry.text.slice(0, 80)}`);
    return problems;
  }
  if (entry.status >= 400 && canon(Object.keys(j).sort()) !== canon(['error'])) say(`an error with more than a message: ${entry.text}`);
  if (!Array.isArray(j)) for (const k of Object.keys(j)) if (!TOP_KEYS.has(k)) say(`an unknown field "${k}"`);
  if (j.type !== undefined && j.type !== 'update' && j.type !== 'error') say(`a message of type ${j.type}`);
  // `hidden` says only what everyone knows: a fog game hides something while it is on.
  if ('hidden' in j && j.hidden !== (j.observation?.phase !== 'over')) say(`"hidden": ${JSON.stringify(j.hidden)}`);

  const obs = j.observation;
  const k = obs?.ply ?? entry.ply;
  const at = shadow.plies[k];
  if (!at) { say(`no truth for ply ${k}`); return problems; }
  const truth = at.state;
  const expected = shadow.expected(seat, k);
  const sight = seat === null ? shadow.throneSet : at.sight[seat];

  // Square names and stones: each where it may be, in the parsed JSON and in the raw bytes.
  const strings = walk(j, [], []);
  let allowedStones = 0;
  for (const s of strings) {
    if (s.path[0] === 'error' || s.path[0] === 'id' || s.path[0] === 'created' || (s.path[0] === 'seats' && s.path[2] === 'name')) continue;
    if (SQUARE_RE.test(s.value) && !squareAllowedAt(s)) say(`a square ${s.value} at ${s.path.join('.')}`);
    else if (!s.key && s.path[0] !== 'legal' && !(s.path[0] === 'hint' && s.path[1] === 'move') && squaresIn(s.value).length && !SQUARE_RE.test(s.value)) say(`a square in the text "${s.value}" at ${s.path.join('.')}`);
    if (!s.key && /^[01][MA]$/.test(s.value) && enemy(s.value[0])) {
      const onBoard = s.path[0] === 'observation' && s.path[1] === 'board' && s.path.length === 3;
      const ghost = s.path[0] === 'observation' && s.path[1] === 'ghosts' && s.path.length === 3;
      const taken = s.path[0] === 'events' && s.path.length === 3 && s.path[2] === 'piece';
      if (onBoard || ghost || taken) allowedStones++;
      else say(`a stone ${s.value} at ${s.path.join('.')}`);
    }
  }
  const rawStones = [...entry.text.matchAll(STONE_RE)].filter((m) => enemy(m[1]));
  if (rawStones.length !== allowedStones) say(`${rawStones.length} enemy stones in the raw bytes, ${allowedStones} where they may be`);

  // Danger marks: a Monarch and its attackers, each a stone the viewer sees (its own, or an enemy's in sight);
  // none for a spectator of a fog game. A hint is one of the seat's own legal moves.
  for (const d of j.danger ?? []) {
    if (seat === null) { say(`a spectator sees a danger mark ${canon(d)}`); continue; }
    for (const sq of [d.square, ...(d.by ?? [])]) {
      const v = truth.board[sq];
      if (!v || (enemy(v[0]) && !sight.has(sq))) say(`a danger mark names ${sq}, which the viewer does not see: ${canon(d)}`);
    }
  }
  if (j.hint?.move && !(seat !== null && shadow.expectedLegal(seat, k).includes(j.hint.move))) say(`a hint ${j.hint.move}`);

  // Error messages: the squares they name are the request's own, or hold a stone the viewer sees.
  if (typeof j.error === 'string') {
    const asked = new Set(squaresIn(entry.request ?? ''));
    // The example every "not a move" refusal gives is no square of the game.
    for (const s of squaresIn(j.error.replace('e.g. e2-e3', ''))) {
      const seen = expected?.board?.[s] !== undefined;
      if (!asked.has(s) && !seen) say(`the error names ${s}, neither asked about nor seen: ${j.error}`);
    }
    if (/\b[01][MA]\b|bump/.test(j.error)) say(`the error speaks of hidden things: ${j.error}`);
  }

  if (obs) {
    if (obs.phase !== 'play') say(`phase ${obs.phase} while the game is on`);
    if (canon(Object.keys(obs).sort()) !== canon(OBS_KEYS_FOG)) say(`observation fields ${Object.keys(obs).sort().join(',')}`);
    // Independent of the memory model: every enemy stone shown is in sight and really there; own stones are
    // the truth's; every stone in sight is shown; ghosts only out of sight.
    const visible = new Set(obs.visible ?? []);
    for (const [s, v] of Object.entries(obs.board ?? {})) {
      if (enemy(v[0]) && !visible.has(s)) say(`an enemy stone ${v} on ${s}, not in its visible list`);
      if (enemy(v[0]) && !sight.has(s)) say(`an enemy stone ${v} on ${s}, out of sight`);
      if (truth.board[s] !== v) say(`${s} shows ${v}, the truth is ${truth.board[s] ?? 'empty'}`);
    }
    for (const [s, v] of Object.entries(truth.board)) {
      if ((!enemy(v[0]) || sight.has(s)) && obs.board?.[s] !== v) say(`${s} holds ${v} in sight, shown ${obs.board?.[s] ?? 'empty'}`);
    }
    for (const s of Object.keys(obs.ghosts ?? {})) if (visible.has(s) || sight.has(s)) say(`a ghost on ${s}, which is in sight`);
    if (canon(obs.visible) !== canon(expected.visible)) {
      const extra = (obs.visible ?? []).filter((s) => !sight.has(s));
      say(`visible is not the sight${extra.length ? `; seen beyond it: ${extra.join(',')}` : ''}`);
    }
    if (seat === null) {
      for (const s of Object.keys(obs.board ?? {})) if (!shadow.throneSet.has(s)) say(`a spectator sees ${s}, not a Throne`);
      if (canon(obs.terrain) !== canon(shadow.startTerrain)) say('a spectator sees terrain other than the starting layout');
      if (Object.keys(obs.ghosts ?? {}).length) say('a spectator sees ghosts');
    }
    // The whole observation, field by field, as the model says (draw_offer: any value it had at this ply).
    for (const f of OBS_KEYS_FOG) {
      if (f === 'draw_offer') {
        if (!at.drawOffers.has(obs.draw_offer)) say(`draw_offer ${obs.draw_offer}`);
      } else if (canon(obs[f]) !== canon(expected[f])) {
        say(`${f} is ${canon(obs[f]).slice(0, 200)}, want ${canon(expected[f]).slice(0, 200)}`);
      }
    }
  }

  // `legal`: only the seat to move's, and exactly what its own view allows.
  if (j.legal !== undefined) {
    const toMove = truth.to_move;
    const playing = j.status === undefined || j.status === 'playing';
    if (seat === null || toMove !== seat) {
      if (j.legal.length) say(`legal moves for ${seat === null ? 'a spectator' : 'the seat not to move'}`);
    } else if (playing) {
      const want = shadow.expectedLegal(seat, k);
      if (canon(j.legal) !== canon(want)) {
        const extra = j.legal.filter((m) => !want.includes(m));
        const missing = want.filter((m) => !j.legal.includes(m));
        say(`legal is not the view's moves: extra ${extra.slice(0, 5)} missing ${missing.slice(0, 5)}`);
      }
    }
  }

  // Events: field names, then each as this viewer may see it, and the list a slice of what it may see.
  if (j.events !== undefined) {
    const stream = shadow.streamCanon(seat);
    const streamSet = shadow.streamSet(seat);
    const got = j.events.map(canon);
    for (const e of j.events) {
      const keys = EVENT_KEYS[e.type];
      if (!keys) { say(`an event of type ${e.type}`); continue; }
      for (const f of Object.keys(e)) if (!keys.includes(f)) say(`an event field ${e.type}.${f}`);
      if (seat !== e.player && e.type === 'move' && e.bump !== undefined) say(`a bump in the other side's view: ${canon(e)}`);
      if (seat === null) {
        if (e.type === 'move' && ((e.from && !shadow.throneSet.has(e.from)) || (e.to && !shadow.throneSet.has(e.to))))
          say(`a spectator sees a move off the Thrones: ${canon(e)}`);
        if (e.type === 'capture' && !shadow.throneSet.has(e.square)) say(`a spectator sees a capture off the Thrones: ${canon(e)}`);
        if (e.type === 'decay') say(`a spectator sees a decay: ${canon(e)}`);
      }
      if (e.type === 'move' && seat !== e.player && e.from === undefined && e.to === undefined) say('an empty move event');
      if (!streamSet.has(canon(e))) say(`an event this viewer may not see (or not so): ${canon(e)}`);
    }
    const slice = (offset) => got.every((g, i) => stream[offset + i] === g);
    if (entry.kind === 'get') {
      if (!slice(0)) say('the events are not the history as this viewer may see it');
    } else if (got.length) {
      let ok = false;
      for (let o = 0; o + got.length <= stream.length && !ok; o++) ok = slice(o);
      if (!ok) say('the events are not a slice of the history as this viewer may see it');
    }
  }

  // Lists and summaries: nothing of the position.
  if (Array.isArray(j)) {
    for (const g of j) for (const f of Object.keys(g)) if (!['id', 'game', 'options', 'seats', 'status', 'created', 'result'].includes(f)) say(`a summary field ${f}`);
  }
  for (const s of j.seats ?? []) if (canon(Object.keys(s).sort()) !== canon(SEAT_KEYS)) say(`seat fields ${Object.keys(s)}`);
  return problems;
}

// The checks for a message sent once the game was over: everyone sees everything, the observation is the
// state, the events are whole.
export function checkOverMessage(viewer, entry, game) {
  const problems = [];
  const say = (m) => problems.push(`${viewer.name} ${entry.via} ${entry.what.slice(0, 100)}: ${m}`);
  const { shadow } = game;
  const j = entry.json;
  for (const [s, t] of Object.entries(game.tokens ?? {})) if (Number(s) !== viewer.seat && entry.text.includes(t)) say(`seat ${s}'s token`);
  if (!j || typeof j !== 'object') return problems;
  if (j.observation) {
    if (canon(j.observation) !== canon(shadow.final)) say('the final observation is not the state');
  }
  if (j.legal !== undefined && j.legal.length) say('legal moves once the game is over');
  if (j.events) {
    const full = shadow.fullCanon();
    const got = j.events.map(canon);
    if (entry.kind === 'get') {
      if (canon(got) !== canon(full)) say('the events once over are not every event whole');
    } else {
      for (const g of got) if (!full.includes(g)) say(`an event that did not happen: ${g}`);
    }
  }
  return problems;
}

// The WebSocket frames of one subscription: while the game is on, its events put together are what this
// viewer may see, from the first (the subscription starts with every event so far); the frame that tells the
// end carries the last action's events whole (or every event, to a subscriber who came after the end).
export function checkSubscription(viewer, sub, game, { complete }) {
  const problems = [];
  const say = (m) => problems.push(`${viewer.name} ws sub ${sub.index}: ${m}`);
  const { shadow } = game;
  const stream = shadow.streamCanon(viewer.seat);
  const frames = sub.frames.filter((f) => f.json?.type === 'update');
  const on = frames.filter((f) => f.json.observation.phase !== 'over');
  const over = frames.filter((f) => f.json.observation.phase === 'over');
  const got = on.flatMap((f) => f.json.events).map(canon);
  if (got.some((g, i) => stream[i] !== g)) say('the pushed events are not the history as this viewer may see it');
  if (complete && !on.length) {
    // A subscriber who came after the end: one frame, every event whole.
    if (over.length !== 1 || canon(over[0].json.events.map(canon)) !== canon(shadow.fullCanon())) say('after the end, not every event whole');
  } else if (complete) {
    if (got.length !== stream.length) say(`${got.length} events pushed while on, ${stream.length} to push`);
    if (over.length !== 1) say(`${over.length} frames with the end`);
    else {
      const want = shadow.lastActionEvents().map(canon);
      if (canon(over[0].json.events.map(canon)) !== canon(want)) say('the end frame does not carry the last action whole');
    }
  }
  if (frames.length !== sub.frames.length) say('a frame that is not an update');
  return problems;
}

// A few of each kind of problem, so one loud leak does not hide another.
export function summarize(problems, each = 2, max = 40) {
  const shown = new Map();
  for (const pr of problems) {
    const kind = pr.replace(/^[^:]*: /, '').replace(/[a-i][1-9]|[01][MA]|\d+/g, '#').slice(0, 60);
    if ((shown.get(kind) ?? []).length < each) shown.set(kind, [...(shown.get(kind) ?? []), pr]);
  }
  return [...shown.values()].flat().slice(0, max);
}
