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

// Starts `tabula serve` and waits for /healthz. Returns { url, port, proc, stderr(), stop(signal) }.
export async function startServer({ db, aiMs = 30, extra = [] } = {}) {
  if (!fs.existsSync(bin)) throw new Error(`no tabula binary at ${bin} (build it, or set TABULA_BIN)`);
  const port = await freePort();
  const args = ['serve', '--host', '127.0.0.1', '--port', String(port), '--db', db,
    '--web-root', path.join(repoRoot, 'web'), '--ai-ms', String(aiMs), ...extra];
  const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
      const res = await fetch(`${url}/healthz`);
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
    log: () => log,
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
// {closed: true} once the server has closed the connection.
export async function openSocket(server, id) {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws/games/${id}`);
  const queue = [];
  const waiters = [];
  const deliver = (m) => {
    if (waiters.length) waiters.shift()(m);
    else queue.push(m);
  };
  ws.on('message', (data) => deliver(JSON.parse(String(data))));
  ws.on('close', () => deliver({ closed: true }));
  ws.on('error', () => { /* close follows */ });
  await once(ws, 'open');
  return {
    ws,
    send: (m) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
    next(timeoutMs = 5000) {
      if (queue.length) return Promise.resolve(queue.shift());
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('no WebSocket message in time')), timeoutMs);
        waiters.push((m) => { clearTimeout(t); resolve(m); });
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
    close: () => ws.close(),
  };
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
