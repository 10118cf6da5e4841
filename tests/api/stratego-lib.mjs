// Helpers for the Stratego API suites (stratego.test.mjs, stratego-leak.test.mjs): a seeded PRNG, legal
// placements, the battle table, a referee of our own that replays a game from its setups and moves (the
// truth every byte is checked against), and clients that keep every byte the server sends them.
import { once } from 'node:events';
import WebSocket from 'ws';

// ---- randomness that reproduces --------------------------------------------------------------------

export { prng } from './lib.mjs';

// ---- the board ---------------------------------------------------------------------------------------

export const LETTERS = 'MGCJPLTNOSBF';
export const ARMY = { M: 1, G: 1, C: 2, J: 3, P: 4, L: 4, T: 4, N: 5, O: 8, S: 1, B: 6, F: 1 };
export const KIND_WORDS = ['Marshal', 'General', 'Colonel', 'Major', 'Captain', 'Lieutenant', 'Sergeant',
  'Miner', 'Scout', 'Spy', 'Bomb', 'Flag'];
const STRENGTH = { S: 1, O: 2, N: 3, T: 4, L: 5, P: 6, J: 7, C: 8, G: 9, M: 10 };
const FILES = 'abcdefghij';
export const LAKES = new Set(['c5', 'd5', 'c6', 'd6', 'g5', 'h5', 'g6', 'h6']);

export const sq = (file, rank) => `${FILES[file]}${rank}`;
export const fileOf = (s) => FILES.indexOf(s[0]);
export const rankOf = (s) => Number(s.slice(1));
export function onBoard(file, rank) {
  return file >= 0 && file < 10 && rank >= 1 && rank <= 10 && !LAKES.has(sq(file, rank));
}
export function homeSquares(p) {
  const out = [];
  const ranks = p === 0 ? [1, 2, 3, 4] : [7, 8, 9, 10];
  for (const r of ranks) for (let f = 0; f < 10; f++) out.push(sq(f, r));
  return out;
}
export function armyLetters() {
  const out = [];
  for (const [k, n] of Object.entries(ARMY)) for (let i = 0; i < n; i++) out.push(k);
  return out;
}

// A random legal placement; `fixed` pins some squares to kinds first (e.g. {e7: 'F'}).
export function randomPlacement(p, rnd, fixed = {}) {
  const letters = armyLetters();
  for (const k of Object.values(fixed)) letters.splice(letters.indexOf(k), 1);
  rnd.shuffle(letters);
  const placement = {};
  for (const s of homeSquares(p)) placement[s] = fixed[s] ?? letters.pop();
  return placement;
}

// Whether a placement is one legal army for seat p (40 pieces, the right counts, its own ranks).
export function isLegalPlacement(p, placement) {
  const home = new Set(homeSquares(p));
  const counts = {};
  for (const [s, k] of Object.entries(placement)) {
    if (!home.has(s) || typeof k !== 'string' || !(k in ARMY)) return false;
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return Object.keys(placement).length === 40 && Object.entries(ARMY).every(([k, n]) => counts[k] === n);
}

export function battle(attacker, defender) {
  if (defender === 'F') return 'attacker-won';
  if (defender === 'B') return attacker === 'N' ? 'attacker-won' : 'attacker-lost';
  if (attacker === 'S' && defender === 'M') return 'attacker-won';
  if (attacker === defender) return 'both-lost';
  return STRENGTH[attacker] > STRENGTH[defender] ? 'attacker-won' : 'attacker-lost';
}

// ---- our own referee ---------------------------------------------------------------------------------

// The truth of a game from its two setups and its moves: where every piece stands, what it is, which are
// revealed (battle survivors, Scouts that made a long move) and which have moved, what each side lost, and
// the events the server must report. It checks nothing about legality (the server is the referee of
// that); it knows what happened.
export class Truth {
  constructor(placements) {
    this.board = new Map();
    for (const p of [0, 1]) {
      for (const [s, k] of Object.entries(placements[p])) {
        this.board.set(s, { owner: p, kind: k, moved: false, revealed: false, setup: s });
      }
    }
    this.captured = { 0: [], 1: [] };
    this.ply = 0;
    this.flagTaken = false;
    this.scoutReveals = 0;
    this.battleReveals = 0;
  }

  // Applies "a1-a2" for the player to move; returns the event the server must report.
  apply(move) {
    const [from, to] = move.split('-');
    const a = this.board.get(from);
    if (!a) throw new Error(`truth: no piece on ${from} for ${move}`);
    const me = a.owner;
    if (me !== this.ply % 2) throw new Error(`truth: ${move} moves player ${me}'s piece at ply ${this.ply}`);
    const d = this.board.get(to);
    let event;
    a.moved = true;
    if (!d) {
      this.board.delete(from);
      this.board.set(to, a);
      if (Math.abs(fileOf(from) - fileOf(to)) + Math.abs(rankOf(from) - rankOf(to)) > 1) {
        if (!a.revealed) this.scoutReveals++;
        a.revealed = true;
      }
      event = { type: 'move', player: me, from, to };
    } else {
      const outcome = battle(a.kind, d.kind);
      event = { type: 'battle', player: me, from, to, attacker: `${me}${a.kind}`, defender: `${d.owner}${d.kind}`, outcome };
      if (d.kind === 'F') this.flagTaken = true;
      this.board.delete(from);
      if (outcome === 'attacker-won') {
        this.captured[d.owner].push(d.kind);
        this.board.set(to, a);
        a.revealed = true;
        this.battleReveals++;
      } else if (outcome === 'attacker-lost') {
        this.captured[me].push(a.kind);
        d.revealed = true;
        this.battleReveals++;
      } else {
        this.captured[me].push(a.kind);
        this.captured[d.owner].push(d.kind);
        this.board.delete(to);
      }
    }
    this.ply++;
    return event;
  }

  // The state's JSON fields we check: board (full truth), revealed, moved, captured.
  snapshot() {
    const board = {};
    const revealed = [];
    const moved = [];
    const pieces = {};
    for (const [s, pc] of this.board) {
      board[s] = `${pc.owner}${pc.kind}`;
      pieces[s] = { ...pc };
      if (pc.revealed) revealed.push(s);
      if (pc.moved) moved.push(s);
    }
    const bytes = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
    return {
      ply: this.ply,
      board,
      pieces,
      revealed: revealed.sort(bytes),
      moved: moved.sort(bytes),
      captured: { 0: [...this.captured[0]].sort(bytes), 1: [...this.captured[1]].sort(bytes) },
    };
  }

  // Pseudo-legal moves of player p ignoring the two-square limit and the repetition rule (enough to tell
  // that a player has no move at all, and to aim at a square).
  roughMoves(p) {
    const out = [];
    for (const [from, pc] of this.board) {
      if (pc.owner !== p || pc.kind === 'B' || pc.kind === 'F') continue;
      for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        let f = fileOf(from) + df;
        let r = rankOf(from) + dr;
        while (onBoard(f, r)) {
          const there = this.board.get(sq(f, r));
          if (there && there.owner === p) break;
          out.push(`${from}-${sq(f, r)}`);
          if (there || pc.kind !== 'O') break;
          f += df;
          r += dr;
        }
      }
    }
    return out;
  }
}

// ---- clients that keep every byte ------------------------------------------------------------------

// One viewer (seat 0, seat 1 or a spectator): every HTTP answer and WebSocket frame it receives, raw.
export class Viewer {
  constructor(server, id, seat, token) {
    this.server = server;
    this.id = id;
    this.seat = seat;  // 0, 1 or null (spectator)
    this.token = token;
    this.log = [];  // {via, what, status, text, json, sentOver, about}
    this.frames = [];
    this.waiters = [];
  }

  get name() { return this.seat === null ? 'spectator' : `seat ${this.seat}`; }

  // An HTTP call as this viewer; `about` names the squares of the request (for the message checks).
  async call(method, path, { body, raw, token = this.token, sentOver = false, about = null } = {}) {
    const headers = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    let payload;
    if (raw !== undefined) payload = raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(this.server.url + path, { method, headers, body: payload });
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* kept as text */ }
    const headerText = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
    const entry = { via: 'http', what: `${method} ${path} ${payload ?? ''}`, status: res.status, text, headerText,
      json, sentOver, about };
    this.log.push(entry);
    return entry;
  }

  game(opts) { return this.call('GET', `/api/games/${this.id}`, opts); }
  move(move, opts = {}) { return this.call('POST', `/api/games/${this.id}/moves`, { body: { move }, ...opts }); }
  setup(body, opts = {}) { return this.call('POST', `/api/games/${this.id}/setup`, { body, ...opts }); }
  offer(what, opts = {}) { return this.call('POST', `/api/games/${this.id}/offers`, { body: { what }, ...opts }); }
  record(opts = {}) { return this.call('GET', `/api/games/${this.id}/record`, opts); }

  async connect() {
    const ws = new WebSocket(`ws://127.0.0.1:${this.server.port}/ws/games/${this.id}`);
    this.ws = ws;
    ws.on('message', (data) => {
      const text = String(data);
      let json = null;
      try { json = JSON.parse(text); } catch { /* kept as text */ }
      const entry = { via: 'ws', what: 'push', status: 0, text, json, sentOver: false };
      this.log.push(entry);
      this.frames.push(entry);
      for (const w of [...this.waiters]) w();
    });
    ws.on('close', () => { this.closed = true; for (const w of [...this.waiters]) w(); });
    ws.on('error', () => { /* close follows */ });
    await once(ws, 'open');
    ws.send(JSON.stringify(this.token ? { type: 'auth', token: this.token } : { type: 'auth' }));
  }

  // Resolves with the first frame (from the start) that satisfies pred.
  async waitFrame(pred, timeoutMs = 15000) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.frames.find((f) => f.json && pred(f.json));
      if (hit) return hit.json;
      if (this.closed) throw new Error(`${this.name}: the WebSocket closed while waiting`);
      const left = end - Date.now();
      if (left <= 0) throw new Error(`${this.name}: no such WebSocket frame in time`);
      await new Promise((resolve) => {
        const t = setTimeout(done, left);
        const self = this;
        function done() {
          clearTimeout(t);
          self.waiters.splice(self.waiters.indexOf(done), 1);
          resolve();
        }
        this.waiters.push(done);
      });
    }
  }

  close() { if (this.ws) this.ws.close(); }
}

// ---- what a viewer may be told ----------------------------------------------------------------------

const TOKEN_RE = /(?<![A-Za-z0-9])([01])([MGCJPLTNOSBF])(?![A-Za-z0-9])/g;
const UNKNOWN_RE = /(?<![A-Za-z0-9])([01])\?/g;
const EXACT_RE = /^([01])([MGCJPLTNOSBF])$/;
export const AI_KEYS = ['pv', 'worlds', 'score', 'nodes', 'info', 'seed', 'depth'];

// Every string (keys and values) in a JSON value, with its path.
function walk(value, path, out) {
  if (typeof value === 'string') out.push({ path, value });
  else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i], out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push({ path: [...path, k], value: k, key: true });
      walk(v, [...path, k], out);
    }
  }
  return out;
}

function at(root, path) {
  let v = root;
  for (const k of path) v = v?.[k];
  return v;
}

// The game's true events, as canonical text, made once per game.
function eventSet(game) {
  if (!game.eventSet) game.eventSet = new Set(game.events.map(canon));
  return game.eventSet;
}

// Checks one message sent to `viewer` while the game was on. Returns a list of problems (empty: fine).
//   game: { memoryAid, placements (per seat, every one that seat submitted), truthAt(ply), events (full) }
export function checkMessage(viewer, entry, game) {
  const problems = [];
  const say = (m) => problems.push(`${viewer.name} ${entry.via} ${entry.what.slice(0, 120)}: ${m}`);
  const seat = viewer.seat;
  const enemy = (d) => seat === null || Number(d) !== seat;
  const obs = entry.json?.observation;
  const setupPhase = obs ? obs.phase === 'setup' : entry.setupPhase;

  // (c) identities in the raw bytes: every enemy one is accounted for by an allowed place in the JSON.
  const raw = [...entry.text.matchAll(TOKEN_RE)].filter((m) => enemy(m[1]));
  if (entry.headerText && [...entry.headerText.matchAll(TOKEN_RE)].some((m) => enemy(m[1])))
    say(`an identity in the headers: ${entry.headerText}`);
  const strings = entry.json === null ? [] : walk(entry.json, [], []);
  let allowed = 0;
  const truth = obs && obs.phase === 'play' ? game.truthAt(obs.ply) : null;
  for (const s of strings) {
    const m = EXACT_RE.exec(s.value);
    if (!m || !enemy(m[1])) continue;
    const parent = at(entry.json, s.path.slice(0, -1));
    const field = s.path[s.path.length - 1];
    const inBattle = !s.key && s.path[0] === 'events' && s.path.length === 3 && parent?.type === 'battle' &&
      (field === 'attacker' || field === 'defender');
    const onAidedBoard = !s.key && game.memoryAid && s.path.length === 3 && s.path[0] === 'observation' &&
      s.path[1] === 'board' && truth && truth.pieces[field]?.revealed && truth.board[field] === s.value;
    if (inBattle) {
      // The battle must be one that happened, word for word.
      if (parent.type !== 'battle' || !eventSet(game).has(canon(parent)))
        say(`a battle that did not happen (or not so): ${JSON.stringify(parent)}`);
      allowed++;
    } else if (onAidedBoard) {
      allowed++;
    } else {
      say(`enemy identity ${s.value} at ${s.path.join('.')}`);
    }
  }
  // Bare kind letters (how placements and records write them) only in the public lists of losses; no
  // placement, setup or action list at all while the game is on.
  for (const s of strings) {
    if (!s.key && /^[MGCJPLTNOSBF]$/.test(s.value) &&
        !(s.path.length === 4 && s.path[0] === 'observation' && s.path[1] === 'captured'))
      say(`a bare kind letter ${s.value} at ${s.path.join('.')}`);
    if (s.key && ['placement', 'setups', 'actions', 'start'].includes(s.value)) say(`a "${s.value}" field at ${s.path.join('.')}`);
  }
  if (raw.length !== allowed)
    say(`${raw.length} enemy identities in the raw bytes, ${allowed} of them in battles or on an aided board: ${raw.map((m) => m[0]).join(',')}`);

  // (a) during setup, nothing at all of the other army, not even a concealed one.
  if (setupPhase) {
    const unknown = [...entry.text.matchAll(UNKNOWN_RE)].filter((m) => enemy(m[1]));
    if (unknown.length) say(`during setup the other army shows (${unknown.length} pieces)`);
  }

  // Error answers: their words name no kind when the request touched an enemy piece or came from a
  // spectator.
  if (entry.status >= 400 && (entry.about === 'enemy' || seat === null)) {
    const words = KIND_WORDS.filter((w) => entry.text.includes(w));
    if (words.length) say(`the error names ${words.join(', ')}: ${entry.text}`);
  }

  // The observation, field by field.
  if (obs) {
    const ownPlacements = seat === null ? [] : game.placements[seat];
    if (obs.phase === 'setup') {
      for (const [s, v] of Object.entries(obs.board)) if (enemy(v[0])) say(`setup board shows ${v} on ${s}`);
      if (seat !== null && Object.keys(obs.board).length > 0 &&
          !ownPlacements.some((pl) => Object.keys(pl).length === Object.keys(obs.board).length &&
            Object.entries(pl).every(([s, k]) => obs.board[s] === `${seat}${k}`)))
        say('the own army on the setup board is none of the placements this seat submitted');
      if (obs.revealed.length || obs.moved.length) say('marks during setup');
    } else if (obs.phase === 'play') {
      if (!truth) { say(`no truth for ply ${obs.ply}`); return problems; }
      const squares = Object.keys(obs.board).sort();
      if (JSON.stringify(squares) !== JSON.stringify(Object.keys(truth.board).sort()))
        say(`the board's squares are not where the pieces stand at ply ${obs.ply}`);
      for (const [s, v] of Object.entries(obs.board)) {
        const t = truth.board[s];
        if (!t) continue;
        if (v[0] !== t[0]) say(`${s} shows ${v}, it holds ${t}`);
        const known = !enemy(t[0]) || (game.memoryAid && truth.pieces[s].revealed);
        const want = known ? t : `${t[0]}?`;
        if (v !== want) say(`${s} shows ${v}, should show ${want} (truth ${t})`);
      }
      const wantRevealed = game.memoryAid ? truth.revealed : [];
      const wantMoved = game.memoryAid ? truth.moved : [];
      if (JSON.stringify(obs.revealed) !== JSON.stringify(wantRevealed))
        say(`revealed ${JSON.stringify(obs.revealed)}, want ${JSON.stringify(wantRevealed)}`);
      if (JSON.stringify(obs.moved) !== JSON.stringify(wantMoved))
        say(`moved ${JSON.stringify(obs.moved)}, want ${JSON.stringify(wantMoved)}`);
      if (JSON.stringify(obs.captured) !== JSON.stringify(truth.captured))
        say(`captured ${JSON.stringify(obs.captured)}, want ${JSON.stringify(truth.captured)}`);
      if (obs.result !== null) say('a result while the game is on');
    }
  }

  // `legal` only for the seat to move, and only its own pieces' moves.
  const legal = entry.json?.legal;
  if (Array.isArray(legal) && legal.length) {
    if (seat === null) say('a spectator got legal moves');
    else if (obs && obs.to_move !== seat) say('legal moves for the seat not to move');
    else if (truth) {
      for (const mv of legal) {
        const pc = truth.pieces[mv.split('-')[0]];
        if (!pc || pc.owner !== seat || pc.kind === 'B' || pc.kind === 'F') { say(`legal lists ${mv}`); break; }
      }
    }
  }

  // Events: a prefix-free slice of what happened, each word for word (Stratego conceals no event's
  // fields: a move names no identity, a battle names both).
  for (const e of entry.json?.events ?? []) {
    if (!eventSet(game).has(canon(e))) say(`an event that did not happen: ${JSON.stringify(e)}`);
  }
  if (game.ai) {
    for (const s of strings) if (s.key && AI_KEYS.includes(s.value)) say(`the AI's thinking: key "${s.value}" at ${s.path.join('.')}`);
  }
  return problems;
}

// The checks for a message sent once the game was over: everyone sees everything.
export function checkOverMessage(viewer, entry, game) {
  const problems = [];
  const say = (m) => problems.push(`${viewer.name} ${entry.via} ${entry.what.slice(0, 120)}: ${m}`);
  const obs = entry.json?.observation;
  if (!obs) return problems;
  if (obs.phase !== 'over') { say(`phase ${obs.phase} after the end`); return problems; }
  const truth = game.final;
  if (JSON.stringify(sortKeys(obs.board)) !== JSON.stringify(sortKeys(truth.board))) say('the final board is not the whole truth');
  if (JSON.stringify(obs.revealed) !== JSON.stringify(truth.revealed)) say('final revealed is not the state\'s');
  if (JSON.stringify(obs.moved) !== JSON.stringify(truth.moved)) say('final moved is not the state\'s');
  if (JSON.stringify(obs.captured) !== JSON.stringify(truth.captured)) say('final captured is not the truth');
  if (JSON.stringify(obs.result) !== JSON.stringify(game.result)) say(`result ${JSON.stringify(obs.result)}`);
  for (const e of entry.json?.events ?? []) {
    if (!eventSet(game).has(canon(e))) say(`an event that did not happen: ${JSON.stringify(e)}`);
  }
  return problems;
}

// JSON with every object's keys sorted: the same value gives the same text, whatever the key order.
export function canon(v) {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

export function sortKeys(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
