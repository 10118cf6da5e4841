// The common ruling that a game which ends before play begins reveals no setup, ever (shared rulings.md,
// docs/rulings.md C1), attacked through the real server: a victim sets up, an attacker takes the open seat
// and resigns at once to harvest the setup. Every byte the attacker and spectators receive (GET, record,
// WebSocket pushes from before the end to after it, a late WebSocket) must hold no identity of the victim's
// army, before and after the server is killed and started again on the same database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, tempDir } from './lib.mjs';
import { Viewer, prng, randomPlacement } from './stratego-lib.mjs';

const RESIGNED = { winners: [0], reason: 'resignation' };

// Problems in everything `viewer` received (its log holds every HTTP answer and WebSocket frame, raw) about
// a game in which nobody but seat `owner` may see that seat's army, placed as `placement` ({square: letter}).
function leaks(viewer, owner, placement) {
  const problems = [];
  const identity = new RegExp(`(?<![A-Za-z0-9])${owner}[MGCJPLTNOSBF](?![A-Za-z0-9])`);
  for (const entry of viewer.log) {
    const say = (m) => problems.push(`${viewer.name} ${entry.via} ${entry.what.slice(0, 80)}: ${m}`);
    const text = entry.text;
    if (identity.test(text)) say(`an identity of seat ${owner}: ${text.slice(0, 300)}`);
    // A placement or a record writes bare kind letters; nothing here may hold one.
    if (/"[MGCJPLTNOSBF]"/.test(text)) say(`a bare kind letter: ${text.slice(0, 300)}`);
    for (const [sq, k] of Object.entries(placement)) {
      if (text.includes(`"${sq}":"${k}"`) || text.includes(`"${sq}":"${owner}${k}"`)) { say(`${sq} shows ${k}`); break; }
    }
    if (/"placement"/.test(text)) say('a "placement" field');
    const obs = entry.json?.observation;
    if (obs) {
      const shown = Object.entries(obs.board).filter(([, v]) => v[0] === String(owner));
      if (shown.length) say(`the board shows ${shown.length} pieces of seat ${owner}, concealed or not`);
    }
    if (entry.json && Array.isArray(entry.json.actions)) {
      if (entry.json.actions.some((a) => a.type === 'setup')) say('a setup action in the record');
      if (Object.keys(entry.json.setups ?? {}).length) say('setups in the record');
    }
  }
  return problems;
}

async function joinAs(server, id, seat) {
  const v = new Viewer(server, id, seat, null);
  const j = await v.call('POST', `/api/games/${id}/join`, { body: { seat, name: 'Mallory' } });
  assert.equal(j.status, 200, j.text);
  v.token = j.json.token;
  return v;
}

// What a viewer that arrives now gets: a GET, the record and one WebSocket update.
async function lookAgain(server, id, seat, token) {
  const v = new Viewer(server, id, seat, token);
  const game = await v.game();
  const record = await v.record();
  await v.connect();
  const pushed = await v.waitFrame((m) => m.type === 'update');
  v.close();
  return { v, game: game.json, record, pushed };
}

test('an attacker who joins and resigns during setup sees nothing of the victim\'s setup, nor do spectators, even after a restart', async () => {
  const db = path.join(tempDir(), 'tabula.db');
  let server = await startServer({ db });
  try {
    const creator = new Viewer(server, null, null, null);
    const created = await creator.call('POST', '/api/games', {
      body: { game: 'stratego', seats: [{ type: 'human', name: 'Victim' }, { type: 'open' }] } });
    assert.equal(created.status, 201, created.text);
    const id = created.json.id;
    const placement = randomPlacement(0, prng(4711));
    const victim = new Viewer(server, id, 0, created.json.tokens[0]);
    assert.equal((await victim.setup({ placement })).status, 200);

    // A spectator watches from before the attacker arrives; the attacker subscribes as soon as it has a seat.
    const spectator = new Viewer(server, id, null, null);
    await spectator.connect();
    await spectator.waitFrame((m) => m.type === 'update');
    const attacker = await joinAs(server, id, 1);
    await attacker.connect();
    await attacker.waitFrame((m) => m.type === 'update');
    assert.equal((await attacker.record()).status, 409, 'no record while the game is on');
    assert.deepEqual((await attacker.game()).json.observation.board, {});

    const resigned = await attacker.offer('resign');
    assert.equal(resigned.status, 200, resigned.text);
    assert.deepEqual(resigned.json.observation.result, RESIGNED);
    for (const v of [attacker, spectator]) {
      const over = await v.waitFrame((m) => m.status === 'over');
      assert.equal(over.observation.phase, 'over');
      assert.deepEqual(over.observation.result, RESIGNED);
    }
    const attackerGame = (await attacker.game()).json;
    const spectatorGame = (await spectator.game()).json;
    const record = await attacker.record();
    assert.equal(record.status, 200, 'the game is over: its record answers, without setups');
    assert.deepEqual(record.json.setups, {});
    assert.deepEqual(record.json.actions, [{ type: 'offer', player: 1, what: 'resign' }]);
    assert.deepEqual(record.json.moves, []);
    assert.deepEqual(record.json.result, RESIGNED);
    assert.equal((await spectator.record()).text, record.text);
    const late = await lookAgain(server, id, null, null);
    attacker.close();
    spectator.close();

    // The victim still sees its own army, as in setup: the game kept it, it only shows it to nobody else.
    const victimView = (await victim.game()).json.observation;
    assert.deepEqual(victimView.board, Object.fromEntries(Object.entries(placement).map(([s, k]) => [s, `0${k}`])));
    assert.deepEqual(victimView.result, RESIGNED);

    const problems = [attacker, spectator, late.v].flatMap((v) => leaks(v, 0, placement));
    assert.deepEqual(problems, []);
    assert.ok(attacker.log.length >= 7 && spectator.log.length >= 3, 'every door was read');

    // Killed and started again: the game is rebuilt from its stored actions (the setup included) and still
    // shows nobody but the victim its setup; every answer is the same as before.
    await server.stop('SIGKILL');
    server = await startServer({ db });
    const again = await lookAgain(server, id, 1, attacker.token);
    const lateSpectator = await lookAgain(server, id, null, null);
    assert.deepEqual(again.game, attackerGame);
    assert.deepEqual(lateSpectator.game, spectatorGame);
    assert.equal(again.record.text, record.text);
    assert.deepEqual(again.pushed.observation, attackerGame.observation);
    assert.deepEqual(lateSpectator.pushed.events, spectatorGame.events);
    assert.deepEqual([again.v, lateSpectator.v].flatMap((v) => leaks(v, 0, placement)), []);
    const victimAgain = new Viewer(server, id, 0, victim.token);
    assert.deepEqual((await victimAgain.game()).json.observation, victimView);
  } finally {
    await server.stop('SIGTERM');
  }
});

test('a player who resigns before setting up against an AI sees nothing of the AI\'s setup', async () => {
  const server = await startServer({ db: path.join(tempDir(), 'tabula.db') });
  try {
    const creator = new Viewer(server, null, null, null);
    const created = await creator.call('POST', '/api/games', {
      body: { game: 'stratego', seats: [{ type: 'human' }, { type: 'ai', level: 1 }] } });
    assert.equal(created.status, 201, created.text);
    const id = created.json.id;
    const human = new Viewer(server, id, 0, created.json.tokens[0]);
    assert.deepEqual((await human.game()).json.observation.ready, [1], 'the AI set up at once');
    await human.connect();
    await human.waitFrame((m) => m.type === 'update');
    assert.equal((await human.offer('resign')).status, 200);
    await human.waitFrame((m) => m.status === 'over');
    await human.game();
    const record = await human.record();
    assert.equal(record.status, 200);
    human.close();
    const spectator = (await lookAgain(server, id, null, null)).v;
    // The AI's placement is not known to the test; no piece of seat 1 and no letter at all may show.
    assert.deepEqual([human, spectator].flatMap((v) => leaks(v, 1, {})), []);
    assert.deepEqual(record.json.result, { winners: [1], reason: 'resignation' });
  } finally {
    await server.stop('SIGTERM');
  }
});
