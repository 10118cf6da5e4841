// Shared helpers for the API tests: start the real `tabula serve` on a free port with a temporary
// database, call the API, and talk to its WebSocket.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const bin = process.env.TABULA_BIN
  ? path.resolve(process.env.TABULA_BIN)
  : path.join(repoRoot, 'build', 'release', 'tabula');

export function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-api-'));
}

// A port nobody listens on right now: bind port 0, read it, let it go.
export async function freePort() {
  const srv = net.createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address();
  srv.close();
  await once(srv, 'close');
  return port;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Servers still running when the test process ends (a failed test) are killed, never left behind.
const running = new Set();
process.on('exit', () => {
  for (const p of running) p.kill('SIGKILL');
});

// What every test server gets unless the test says otherwise: no request rate limit and no cap on games
// created per hour (the suites send thousands of requests quickly from one address).
export const DEFAULT_LIMITS = { rate: 0, 'games-per-hour': 0 };

// `limits` ({rate: 20, burst: 20, 'max-connections': 60, ...}) as command-line flags, over DEFAULT_LIMITS.
function limitFlags(limits, extra) {
  const out = [];
  for (const [name, value] of Object.entries(DEFAULT_LIMITS)) {
    if (name in limits || extra.includes(`--${name}`)) continue;
    out.push(`--${name}`, String(value));
  }
  for (const [name, value] of Object.entries(limits)) out.push(`--${name}`, String(value));
  return out;
}

// The server's own random choices (the AI's moves, hints and offer answers, the AI seats' setups) derive from
// SEED (--test-seed) and its AI searches a node budget, so a failing suite replays whole, as the tests' own
// choices (prng) do: API_SEED=<n> repeats it. The seed is printed as a TAP comment, which ctest shows with a
// failure.
export const SEED = (Number.parseInt(process.env.API_SEED ?? '20261205', 10) >>> 0) || 1;
console.log(`# API_SEED=${SEED}`);

// The AI's default budget in the suites: a few milliseconds a move in the release build.
const AI_NODES = 2000;

// How the server's AI thinks: `aiMs` (a time budget, secret seeds) for a test that needs searches that take
// time (the abuse suite keeps the AI busy on purpose); otherwise AI_NODES nodes, seeded from SEED. A test
// that passes its own --test-seed keeps it.
function aiFlags(aiMs, extra) {
  if (aiMs !== undefined) return ['--ai-ms', String(aiMs)];
  const out = ['--ai-nodes', String(AI_NODES)];
  if (!extra.includes('--test-seed')) out.push('--test-seed', String(SEED));
  return out;
}

// Starts `tabula serve` and waits for /healthz. Returns { url, port, proc, pid, log(), stop(signal) }.
// `aiMs`: see aiFlags. `limits`: limit flags by name (see limitFlags). `nofile`: the descriptor limit to start
// it under, a number (soft and hard, as `ulimit -n`) or {soft} (only the soft one: the server may raise it to
// the hard one).
export async function startServer({ db, aiMs, extra = [], limits = {}, nofile } = {}) {
  if (!fs.existsSync(bin)) throw new Error(`no tabula binary at ${bin} (build it, or set TABULA_BIN)`);
  const port = await freePort();
  const args = ['serve', '--host', '127.0.0.1', '--port', String(port), '--db', db,
    '--web-root', path.join(repoRoot, 'web'), ...aiFlags(aiMs, extra), ...limitFlags(limits, extra), ...extra];
  let proc;
  if (nofile === undefined) {
    proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  } else {
    const ulimit = typeof nofile === 'number' ? `ulimit -n ${nofile}` : `ulimit -S -n ${nofile.soft}`;
    proc = spawn('bash', ['-c', `${ulimit} && exec "$0" "$@"`, bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  }
  running.add(proc);
  proc.on('exit', () => running.delete(proc));
  let log = '';
  proc.stdout.on('data', (d) => { log += d; });
  proc.stderr.on('data', (d) => { log += d; });
  const exited = once(proc, 'exit');
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`tabula serve exited early:\n${log}`);
    try {
      // A connection of its own, closed after the answer: no idle keep-alive connection is left behind to
      // count against a test's connection limits.
      const res = await httpRequest({ port }, 'GET', '/healthz', { timeoutMs: 2000 });
      if (res.status === 200) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`tabula serve did not answer /healthz:\n${log}`);
    }
    await sleep(50);
  }
  return {
    url,
    port,
    proc,
    pid: proc.pid,
    log: () => log,
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      const [code, sig] = await exited;
      return { code, signal: sig };
    },
  };
}

// Runs `tabula serve` expecting it to exit by itself; returns { code, output }.
export async function runToExit(args, timeoutMs = 10000) {
  const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout.on('data', (d) => { output += d; });
  proc.stderr.on('data', (d) => { output += d; });
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  const [code, signal] = await once(proc, 'exit');
  clearTimeout(timer);
  return { code, signal, output };
}

// One API call. Returns { status, body, headers } with body parsed as JSON when it is JSON.
export async function call(server, method, path_, { body, token, raw, headers = {} } = {}) {
  const h = { ...headers };
  if (token !== undefined && token !== null) h.Authorization = `Bearer ${token}`;
  let payload;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    h['Content-Type'] = 'application/json';
  }
  const res = await fetch(server.url + path_, { method, headers: h, body: payload });
  const text = await res.text();
  let parsed = text;
  try { parsed = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, body: parsed, headers: res.headers };
}

export async function createGame(server, seats, options) {
  const res = await call(server, 'POST', '/api/games', { body: { game: 'tigadi', options, seats } });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

// A WebSocket client that queues what the server sends. next() resolves with the next message, or
// {closed: true, code, reason} once the server has closed the connection. `localAddress` picks the client's
// source address (any of 127.0.0.0/8).
export async function openSocket(server, id, { localAddress } = {}) {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws/games/${id}`, localAddress ? { localAddress } : {});
  const sock = wrapSocket(ws);
  await once(ws, 'open');
  return sock;
}

// The queueing interface of openSocket over a `ws` WebSocket (attach it before the connection opens).
export function wrapSocket(ws) {
  const queue = [];
  const waiters = [];
  const deliver = (m) => {
    if (waiters.length) waiters.shift()(m);
    else queue.push(m);
  };
  const sock = { ws, closed: null, received: 0 };
  ws.on('message', (data) => {
    sock.received++;
    let m;
    try { m = JSON.parse(String(data)); } catch { m = { unparsable: String(data) }; }
    deliver(m);
  });
  ws.on('close', (code, reason) => {
    sock.closed = { closed: true, code, reason: String(reason) };
    deliver(sock.closed);
  });
  ws.on('error', () => { /* close follows */ });
  Object.assign(sock, {
    send: (m) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
    next(timeoutMs = 5000) {
      if (queue.length) return Promise.resolve(queue.shift());
      return new Promise((resolve, reject) => {
        const entry = (m) => { clearTimeout(t); resolve(m); };
        const t = setTimeout(() => {
          const i = waiters.indexOf(entry);
          if (i >= 0) waiters.splice(i, 1);
          reject(new Error('no WebSocket message in time'));
        }, timeoutMs);
        waiters.push(entry);
      });
    },
    // Messages until one satisfies `pred` (returned), failing after timeoutMs.
    async until(pred, timeoutMs = 10000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const m = await this.next(Math.max(1, end - Date.now()));
        if (m.closed) throw new Error('the WebSocket closed while waiting');
        if (pred(m)) return m;
      }
    },
    // Resolves with {code, reason} once the connection is closed, failing after timeoutMs.
    async waitClose(timeoutMs = 10000) {
      if (sock.closed) return sock.closed;
      const timer = new Promise((_, reject) => {
        const t = setTimeout(() => reject(new Error(`the WebSocket was not closed within ${timeoutMs} ms`)), timeoutMs);
        ws.once('close', () => clearTimeout(t));
      });
      await Promise.race([once(ws, 'close'), timer]);
      return sock.closed;
    },
    close: () => ws.close(),
  });
  return sock;
}

// An upgrade that may be refused. Resolves with {status: 101, sock} (openSocket's interface) when it opens,
// or with {status, headers, body} (body parsed as JSON when it is JSON) when the server answers the upgrade
// with a plain HTTP response.
export function tryWebSocket(server, id, { localAddress, timeoutMs = 10000 } = {}) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws/games/${id}`, localAddress ? { localAddress } : {});
    const sock = wrapSocket(ws);
    let settled = false;
    const settle = (f, v) => { if (!settled) { settled = true; clearTimeout(timer); f(v); } };
    const timer = setTimeout(() => {
      ws.terminate();
      settle(reject, new Error(`WebSocket upgrade from ${localAddress ?? '127.0.0.1'}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    ws.on('open', () => settle(resolve, { status: 101, sock }));
    ws.on('unexpected-response', (req, res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      const done = () => {
        const text = Buffer.concat(chunks).toString();
        let body = text;
        try { body = JSON.parse(text); } catch { /* not JSON */ }
        settle(resolve, { status: res.statusCode, headers: res.headers, body });
        req.destroy();
      };
      res.on('end', done);
      res.on('error', done);
      res.on('aborted', done);
    });
    ws.on('error', (e) => settle(reject, new Error(`WebSocket upgrade from ${localAddress ?? '127.0.0.1'}: ${e.message}`)));
  });
}

// ---- shared by the suites ---------------------------------------------------------------------------

// A seeded PRNG (mulberry32): next() in [0, 1), below(n), pick(list), shuffle(list) in place.
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    below: (n) => Math.floor(next() * n),
    pick(list) { return list[Math.floor(next() * list.length)]; },
    shuffle(list) {
      for (let i = list.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [list[i], list[j]] = [list[j], list[i]];
      }
      return list;
    },
  };
}

// `tabula engine` as a child process: request() sends one line (written by `stringify`) and resolves with
// the answer. Engines still running when the test process ends (a failed test) are killed, never left behind.
const engines = new Set();
process.on('exit', () => { for (const p of engines) p.kill('SIGKILL'); });

export function spawnEngine(binPath = bin, stringify = JSON.stringify) {
  const proc = spawn(binPath, ['engine'], { stdio: ['pipe', 'pipe', 'inherit'] });
  engines.add(proc);
  proc.on('exit', () => engines.delete(proc));
  const lines = readline.createInterface({ input: proc.stdout });
  const waiting = [];
  lines.on('line', (l) => waiting.shift()(JSON.parse(l)));
  return {
    request(req) {
      return new Promise((resolve) => { waiting.push(resolve); proc.stdin.write(`${stringify(req)}\n`); });
    },
    async quit() { await this.request({ cmd: 'quit' }); },
    kill() { if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL'); },
  };
}

// ---- raw HTTP from a chosen source address -----------------------------------------------------------------
// Linux routes all of 127.0.0.0/8 to the loopback interface: a client bound to 127.0.0.2 is another address to
// a server listening on 127.0.0.1. Traffic only ever goes to 127.0.0.1.

// Polls `fn` (async) until it returns a truthy value, which is returned; fails with `what` after timeoutMs.
export async function waitUntil(fn, { timeoutMs = 10000, intervalMs = 50, what = 'the condition' } = {}) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`${what}: not reached within ${timeoutMs} ms (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await sleep(intervalMs);
  }
}

// Parses one HTTP response at the start of `buf`. Returns null while it is incomplete, else
// {status, reason, headers (lower-case names; repeated ones joined by ", "), rawHeaders [[name, value]],
// body (Buffer), text, json, consumed (bytes)}. `head`: the answer to a HEAD request (no body, whatever the
// headers say). `ended`: nothing more will come (a body without a length runs to here).
export function parseResponse(buf, { head = false, ended = false } = {}) {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const statusLine = lines.shift();
  const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(statusLine);
  if (!m) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine.slice(0, 120))}`);
  const headers = {};
  const rawHeaders = [];
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i <= 0) throw new Error(`not a header line: ${JSON.stringify(line.slice(0, 120))}`);
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    rawHeaders.push([name, value]);
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const status = Number(m[1]);
  const start = end + 4;
  let body;
  let consumed;
  if (head || status === 204 || status === 304 || (status >= 100 && status < 200)) {
    body = Buffer.alloc(0);
    consumed = start;
  } else if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
    const parts = [];
    let pos = start;
    for (;;) {
      const eol = buf.indexOf('\r\n', pos);
      if (eol < 0) return null;
      const size = parseInt(buf.subarray(pos, eol).toString('latin1'), 16);
      if (Number.isNaN(size)) throw new Error('a bad chunk size in a response');
      if (size === 0) {
        const trailerEnd = buf.indexOf('\r\n\r\n', eol);
        const blank = buf.subarray(eol, eol + 4).toString('latin1') === '\r\n\r\n';
        if (blank) { consumed = eol + 4; break; }
        if (trailerEnd < 0) return null;
        consumed = trailerEnd + 4;
        break;
      }
      if (buf.length < eol + 2 + size + 2) return null;
      parts.push(buf.subarray(eol + 2, eol + 2 + size));
      pos = eol + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  } else if ('content-length' in headers) {
    const n = Number(headers['content-length']);
    if (!Number.isInteger(n) || n < 0) throw new Error(`a bad Content-Length in a response: ${headers['content-length']}`);
    if (buf.length < start + n) return null;
    body = buf.subarray(start, start + n);
    consumed = start + n;
  } else {
    if (!ended) return null;
    body = buf.subarray(start);
    consumed = buf.length;
  }
  const text = body.toString();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status, reason: m[2] ?? '', headers, rawHeaders, body, text, json, consumed };
}

// One TCP connection to the server that sends exact bytes and reads exact responses.
export class RawConn {
  constructor(socket, label) {
    this.socket = socket;
    this.label = label;
    this.buf = Buffer.alloc(0);
    this.received = 0;      // bytes received in all
    this.ended = false;     // the server closed (or reset) the connection
    this.error = null;      // a reset, a broken pipe
    this.responses = 0;     // responses read so far
    this.notify = [];
    socket.on('data', (d) => { this.buf = Buffer.concat([this.buf, d]); this.received += d.length; this.wake(); });
    socket.on('end', () => { this.ended = true; this.wake(); });
    socket.on('close', () => { this.ended = true; this.wake(); });
    socket.on('error', (e) => { this.error = e; this.ended = true; this.wake(); });
  }

  wake() { for (const f of this.notify.splice(0)) f(); }

  // Connects from `localAddress` (default 127.0.0.1); resolves once connected.
  static connect(server, { localAddress = '127.0.0.1', timeoutMs = 5000 } = {}) {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port: server.port, localAddress });
      const label = `${localAddress} -> :${server.port}`;
      const conn = new RawConn(socket, label);
      const t = setTimeout(() => { socket.destroy(); reject(new Error(`${label}: no connection within ${timeoutMs} ms`)); }, timeoutMs);
      socket.setNoDelay(true);
      socket.once('connect', () => { clearTimeout(t); resolve(conn); });
      socket.once('error', (e) => { clearTimeout(t); reject(new Error(`${label}: ${e.message}`)); });
    });
  }

  // Sends bytes; a write to a connection the server has closed is recorded in `error`, not thrown.
  write(data) {
    if (this.socket.destroyed || !this.socket.writable) return false;
    this.socket.write(data, (e) => { if (e) this.error = e; });
    return true;
  }

  // Resolves once pred() holds, or rejects with `what` after timeoutMs.
  waitFor(pred, timeoutMs, what) {
    return new Promise((resolve, reject) => {
      const check = () => {
        let v;
        try { v = pred(); } catch (e) { clearTimeout(t); reject(e); return; }
        if (v) { clearTimeout(t); resolve(v); } else this.notify.push(check);
      };
      const t = setTimeout(() => {
        const i = this.notify.indexOf(check);
        if (i >= 0) this.notify.splice(i, 1);
        reject(new Error(`${this.label}: ${what} within ${timeoutMs} ms (received ${this.received} bytes: ${JSON.stringify(this.buf.subarray(0, 200).toString('latin1'))})`));
      }, timeoutMs);
      check();
    });
  }

  // The next response (see parseResponse), taken off the buffer. Rejects when the connection closes before a
  // whole response, or after timeoutMs.
  async readResponse({ head = false, timeoutMs = 5000 } = {}) {
    const res = await this.waitFor(() => {
      const r = parseResponse(this.buf, { head, ended: this.ended });
      if (r) return r;
      if (this.ended) {
        throw new Error(`${this.label}: the connection closed before a whole response (${this.error?.code ?? 'closed'}; `
          + `buffered ${JSON.stringify(this.buf.subarray(0, 200).toString('latin1'))})`);
      }
      return null;
    }, timeoutMs, 'no whole response');
    this.buf = this.buf.subarray(res.consumed);
    this.responses++;
    return res;
  }

  // Resolves once the server has closed the connection, with the bytes received and not read as a response.
  async waitClose(timeoutMs = 5000) {
    await this.waitFor(() => this.ended, timeoutMs, 'the server did not close the connection');
    return this.buf;
  }

  destroy() { this.socket.destroy(); }
}

// The bytes of a request. `headers` in order; Host and (with a body) Content-Length added unless given.
export function requestBytes(method, target, { headers = [], body, close = false } = {}) {
  const lines = [`${method} ${target} HTTP/1.1`];
  const names = headers.map(([n]) => n.toLowerCase());
  if (!names.includes('host')) lines.push('Host: 127.0.0.1');
  lines.push(...headers.map(([n, v]) => `${n}: ${v}`));
  if (body !== undefined && !names.includes('content-length') && !names.includes('transfer-encoding')) {
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  }
  if (close) lines.push('Connection: close');
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body ?? '')]);
}

// One request on a connection of its own from `localAddress`; resolves with the response (parseResponse's
// fields, plus `body` parsed as JSON when it is JSON, as call() gives it). Connection: close, unless the
// headers say otherwise.
export async function httpRequest(server, method, target, { body, raw, token, headers = {}, localAddress, timeoutMs = 10000 } = {}) {
  const h = Object.entries(headers);
  if (token !== undefined && token !== null) h.push(['Authorization', `Bearer ${token}`]);
  let payload;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    h.push(['Content-Type', 'application/json']);
  }
  const conn = await RawConn.connect(server, { localAddress, timeoutMs });
  try {
    const close = !h.some(([n]) => n.toLowerCase() === 'connection');
    conn.write(requestBytes(method, target, { headers: h, body: payload, close }));
    const res = await conn.readResponse({ head: method === 'HEAD', timeoutMs });
    return { ...res, raw: res.body, body: res.json !== undefined ? res.json : res.text };
  } finally {
    conn.destroy();
  }
}

// What is missing from the security headers every answer must carry; [] when all are there.
export function securityHeaderProblems(headers) {
  const get = (n) => (typeof headers.get === 'function' ? headers.get(n) : headers[n]) ?? null;
  const problems = [];
  const csp = get('content-security-policy');
  if (!csp || !/(^|;)\s*frame-ancestors\s+'none'\s*(;|$)/.test(csp)) problems.push(`Content-Security-Policy without frame-ancestors 'none': ${csp}`);
  if (!/^deny$/i.test(get('x-frame-options') ?? '')) problems.push(`X-Frame-Options: ${get('x-frame-options')}`);
  if (get('x-content-type-options') !== 'nosniff') problems.push(`X-Content-Type-Options: ${get('x-content-type-options')}`);
  if (get('referrer-policy') !== 'no-referrer') problems.push(`Referrer-Policy: ${get('referrer-policy')}`);
  return problems;
}
