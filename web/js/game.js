// The game page: a shell that knows seats, turns, events, the WebSocket, replays and game-over
// banners, and hands the board itself to a per-game module (web/js/games/<name>.js, docs/ui.md).
// It never decides what is legal: it passes the server's `legal` list to the board module.

import { api, ApiError, loadTokens, saveTokens, forgetTokens, loadCreator, saveCreator, myName, setMyName, h, inviteRow, andList, copyText } from './api.js';
import { gameInfo, seatLabel } from './games/registry.js';
import { play as playSound, muted as soundMuted, setMuted as setSoundMuted } from './sound.js';
import { wireThemeSelect } from './theme.js';
import { BoardMarks } from './board-marks.js';
import { drawPlot, judgements, pieces as inPieces, MISTAKE } from './analysis.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const gameId = params.get('id');
const wantSeat = params.has('seat') ? Number(params.get('seat')) : null;

const S = {
  game: null,        // the last GET /api/games/{id} (`hidden` kept current by the WebSocket's updates)
  info: null,        // registry entry
  kind: null,        // this game's entry in GET /api/games/kinds (options, arrangements, variants)
  mod: null,         // the board module
  board: null,       // the board instance
  tokens: {},        // seat -> token held by this browser
  observation: null,
  obsSeat: null,     // the seat `observation` was seen by (null: a spectator's view)
  legal: [],
  legalSeat: null,   // the seat `legal` belongs to
  events: [],
  record: null,
  replay: null,      // { plies, states, index } once the game is over
  browse: null,      // { index, seen } while an earlier position of a live game is shown (seen: plies then)
  live: { start: null, key: null, loading: false }, // the start position browsing folds from (see liveStart)
  flip: 0,           // quarter-turn steps the player asked for on top of the seat's own view (Flip board)
  heard: null,       // how many events the sounds have accounted for (null: none yet, the loaded position)
  stateKey: null,    // ply/phase/turn of the last update: a change clears the last error message
  ws: null,
  wsSeat: null,
  wsEvents: 0,       // how many events the socket has delivered: a read that knows fewer is older than the socket
  wsRetry: 0,
  wsTimer: null,
  sending: false,
  syncTimer: null,
  updates: 0,        // how many observations arrived (WebSocket updates and reads of the game)
  reads: 0,          // how many reads of the whole game were answered (drawn or not): body[data-reads], for tests
  setupEd: null,     // the module's setup editor while a seat of ours sets up
  setupSeat: null,
  confirmedSeat: null, // hot seat with hidden information: the seat that last said "show my board"
  loadingSeat: null,
  creator: null,     // the creator's token, when the server gave one: seats may be handed to the AI and back
  handLevels: {},    // seat -> the AI level chosen for it in the hand-over panel
  seatSending: null, // the seat whose hand-over request is on its way
  seatError: '',
  // Around the board (docs/ui.md "Assists"): what the last GET or update said for this viewer.
  assist: { takebacks: 0, takeback_request: null, hint: null, rematch: null, analysis: null, danger: [], assist: {} },
  assistSending: null, // the assist request on its way: 'takeback', 'hint', 'offer', 'rematch', 'analysis', 'new'
  takebackNote: null,  // { player, moves, ply }: a take-back just made, said until the next move
  declinedNote: null,  // { ply }: our take-back request went without being granted
  rematchWatch: false, // the rematch had no game yet while this page looked: follow it once it has one
  analysisData: null,  // GET …/analysis once the analysis is done
  analysisKey: null,   // what the plot was last drawn for
  marks: null,         // the overlay of hints, better moves and dangers (board-marks.js)
  replayStart: params.has('move') ? Number(params.get('move')) : null, // ?move=N: the replay opens there
  leaving: false,      // the page is on its way to another game (the rematch, a new game)
};

// The fields every GET and update carries for its viewer besides the game (docs/server.md).
const ASSIST_KEYS = ['takebacks', 'takeback_request', 'hint', 'rematch', 'analysis', 'danger', 'assist'];
// `samePosition`: the source describes the position we already show (a read's answer, not a new move).
function takeAssist(src, { samePosition = false } = {}) {
  if (!src) return;
  const before = S.assist;
  const next = { ...before };
  for (const k of ASSIST_KEYS) if (k in src) next[k] = src[k] ?? (k === 'danger' ? [] : k === 'assist' ? {} : null);
  // For one position a hint only goes from pending to found. A read that left before the answer came, but whose
  // reply came after the socket's update with the answer, still says pending: keeping it would hide the hint for
  // good (no further update comes). Seen on a loaded machine as a hint that never showed.
  if (samePosition) keepFoundHint(before, next);
  // Our take-back request gone with nothing played and nothing taken back: it was declined.
  const req = before.takeback_request;
  if (req && !next.takeback_request && next.takebacks === before.takebacks && heldSeats().includes(req.seat) && S.observation) {
    S.declinedNote = { ply: S.observation.ply ?? 0, action: S.observation.action ?? 0 };
  }
  S.assist = next;
  // A rematch seen without its game yet is followed once the game is made (every person asked); a page opened on
  // a game whose rematch was made long ago only offers the link.
  if (isOver() && !(next.rematch && next.rematch.id)) S.rematchWatch = true;
}
// A take-back's own event ends the list of events that follows it: the list is the shortened line's.
const listedEvents = (events) => (events || []).filter(e => e.type !== 'takeback');
function takeEvents(events) {
  const all = events || [];
  const last = all[all.length - 1];
  if (last && last.type === 'takeback') S.takebackNote = { player: last.player, moves: last.moves, ply: null };
  return listedEvents(all);
}

// A seat whose token this browser holds but which the creator handed to the AI is not ours to play until it
// is taken back (the token then works again).
const handedSeat = (i) => !!(S.game && S.game.seats[i] && S.game.seats[i].type === 'ai');
const heldSeats = () => Object.keys(S.tokens).map(Number).filter(i => !handedSeat(i)).sort((a, b) => a - b);
const isOver = () => (S.observation && S.observation.phase === 'over') || (S.game && S.game.status === 'over');
const playerName = (seat) => (S.mod && S.mod.players[seat] && S.mod.players[seat].name) || (S.info && S.info.players[seat]) || `Player ${seat + 1}`;

// The token to act with: the seat to move if this browser holds it (a hot-seat game holds several);
// during a setup phase, the first held seat whose army is not in yet (`observation.ready`).
function tokenFor(seat) { return S.tokens[seat] ?? null; }
function actingSeat() {
  const held = heldSeats();
  if (!held.length) return null;
  const obs = S.observation || {};
  if (obs.phase === 'setup') {
    const ready = obs.ready || [];
    return held.find(s => !ready.includes(s)) ?? held[0];
  }
  const tm = obs.to_move ?? null;
  if (held.includes(tm)) return tm;
  return held.includes(S.confirmedSeat) ? S.confirmedSeat : held[0];
}
// A game whose position hides something from some seat, played by several seats in this browser: the board
// is hidden between turns behind a "pass the device" screen, and only the observation of the seat shown is
// ever drawn. The server says whether the position hides something now (`hidden`): Stratego and FACET under
// fog while on, Truth only while the armies are set up (its play hides nothing, so both sides share the board).
const hiddenInfo = () => !!(S.game && S.game.hidden);
const handOverGame = () => hiddenInfo() && heldSeats().length > 1 && !isOver();

// Whether observation `a` is at least as far on as `b`: by phase (the setup's last army in begins play at ply 0,
// so a read answered from before it must not bring the setup editor back), then ply, then `action` (a Truth
// turn's two actions share a ply).
const PHASES = { setup: 0, play: 1, over: 2 };
const phaseRank = (o) => PHASES[o.phase] ?? 1;
const samePlace = (a, b) => phaseRank(a) === phaseRank(b) && (a.ply ?? 0) === (b.ply ?? 0) &&
  (a.action ?? 0) === (b.action ?? 0);
const tookBackSince = (g, takebacksBefore) => typeof g.takebacks === 'number' && g.takebacks > (takebacksBefore ?? 0);
function keepFoundHint(before, next) {
  if (before.hint && before.hint.move && next.hint && !next.hint.move) next.hint = before.hint;
}
const notOlder = (a, b) => phaseRank(a) > phaseRank(b) || (phaseRank(a) === phaseRank(b) &&
  ((a.ply ?? 0) > (b.ply ?? 0) || ((a.ply ?? 0) === (b.ply ?? 0) && (a.action ?? 0) >= (b.action ?? 0))));

function showError(el, err) {
  $(el).textContent = err ? (err instanceof ApiError ? err.message : String(err.message || err)) : '';
}

// ---------------------------------------------------------------------------------------------
// Loading

async function fetchGame(seat = actingSeat()) {
  const token = seat === null ? null : tokenFor(seat);
  const takebacksBefore = S.assist.takebacks;
  let g;
  try {
    g = await api('GET', `/api/games/${encodeURIComponent(gameId)}`, { token });
  } catch (e) {
    if (e.status === 401 && token) {
      // A stale token (e.g. a reset database): forget it and watch instead.
      forgetTokens(gameId);
      S.tokens = {};
      g = await api('GET', `/api/games/${encodeURIComponent(gameId)}`);
    } else throw e;
  }
  const samePosition = !!(S.observation && g.observation && !tookBackSince(g, takebacksBefore) &&
    samePlace(g.observation, S.observation));
  S.game = g;
  // An answer older than what the socket brought meanwhile (its request left before the update came) is not
  // drawn, and neither is its `legal`: with AIs moving fast (three of them before a four-player seat's turn),
  // an empty `legal` from before the turn would otherwise stand in for the turn's own, and the page would
  // wait for an update that never comes.
  // A take-back goes back in plies: a read that knows of more take-backs than we do is newer whatever its ply.
  const tookBack = tookBackSince(g, takebacksBefore);
  // Ply and action cannot order two answers about one position (an offer, its withdrawal): the number of events
  // can, since every change adds some. A read that knows fewer than the socket delivered (to the same viewer) was
  // answered before a change the socket has already brought, and drawing it would undo that change until the next.
  const behindSocket = S.ws && (g.you ?? null) === S.wsSeat && listedEvents(g.events).length < S.wsEvents;
  if (!S.observation || (g.observation && notOlder(g.observation, S.observation) && !behindSocket) ||
      g.status === 'over' || tookBack) {
    S.observation = g.observation;
    S.obsSeat = g.you ?? null;
    S.events = takeEvents(g.events);
    takeAssist(g, { samePosition });
    S.updates++;
    S.legal = g.legal || [];
    S.legalSeat = g.you ?? null;
  }
  document.body.dataset.reads = String(++S.reads);
  return g;
}

async function start() {
  wireThemeSelect($('theme'));
  if (!gameId) return notFound('No game was chosen: open one from the lobby.');
  S.tokens = loadTokens(gameId);
  S.creator = loadCreator(gameId);
  try {
    await fetchGame();
  } catch (e) {
    if (e.status === 404) return notFound(`There is no game with the id “${gameId}”. The link may be mistyped, or the game was made on another server.`);
    $('title').textContent = 'Game not found';
    $('page-error').replaceChildren(`${e.message} `, h('a', { href: '/' }, 'Back to the lobby'));
    $('game-layout').classList.add('hidden');
    return;
  }
  S.heard = S.events.length; // the position loaded makes no sound
  if (!isOver()) S.replayStart = null; // ?move=N is for a finished game's replay
  S.info = gameInfo(S.game.game);
  try {
    const kinds = await api('GET', '/api/games/kinds');
    S.kind = (kinds || []).find(k => k.name === S.game.game) || null;
  } catch { S.kind = null; /* options and named setups are then unknown; play goes on */ }
  S.flip = loadFlip();
  document.title = `${S.info.title} · Tabula`;
  $('title').textContent = `${S.info.title}`;
  $('title').append(h('small', { class: 'muted' }, `  game ${gameId}`));
  // Shown only once the game is known: before, any link would name some other game's rules.
  if (S.info.rules) { $('rules-link').href = S.info.rules; $('rules-link').classList.remove('hidden'); }
  if (!S.info.load) {
    $('page-error').textContent = `This browser has no board for ${S.info.title} yet.`;
    return;
  }
  S.mod = (await S.info.load()).default;
  wireControls();
  render();
  connect();
  if (isOver()) await loadReplay();
}

// A game id the server does not know (or none): a page that says so, with the way back, instead of empty panels.
function notFound(text) {
  document.title = 'No such game · Tabula';
  $('title').textContent = 'No such game';
  $('not-found-text').textContent = text;
  $('not-found').classList.remove('hidden');
  $('game-layout').classList.add('hidden');
  $('rules-link').classList.add('hidden');
}

// ---------------------------------------------------------------------------------------------
// Live updates

function connect() {
  clearTimeout(S.wsTimer);
  if (S.ws) { S.ws.onclose = null; S.ws.close(); }
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/games/${encodeURIComponent(gameId)}`;
  const ws = new WebSocket(url);
  S.ws = ws;
  S.wsEvents = 0;
  let first = true;
  const seat = actingSeat();
  S.wsSeat = seat;
  ws.onopen = () => {
    const token = seat === null ? null : tokenFor(seat);
    ws.send(JSON.stringify(token ? { type: 'auth', token } : { type: 'auth' }));
    setConn(true);
  };
  ws.onmessage = (msg) => {
    if (S.ws !== ws) return;
    let m;
    try { m = JSON.parse(msg.data); } catch { return; }
    if (m.type !== 'update') return;
    S.wsRetry = 0;
    // The first update after auth carries every event; later ones only the new events, except after a take-back
    // (`reset`), which carries the shortened line's events, all of them.
    const fresh = takeEvents(m.events);
    if (first || m.reset) {
      S.events = fresh;
      S.wsEvents = fresh.length;
    } else {
      // A read of the whole game answered after these events' change may have arrived before this update: the
      // list then holds some of them already, and only the rest are added (twice, they would be two plies).
      const ahead = Math.max(0, Math.min(fresh.length, S.events.length - S.wsEvents));
      S.wsEvents += fresh.length;
      S.events = S.events.concat(fresh.slice(ahead));
    }
    first = false;
    takeAssist(m);
    if (m.observation) { S.observation = m.observation; S.obsSeat = seat; S.updates++; }
    if (Array.isArray(m.seats)) { S.game.seats = m.seats; S.seatsFresh = true; }
    if (m.status) S.game.status = m.status;
    if (typeof m.hidden === 'boolean') S.game.hidden = m.hidden;
    S.legal = m.legal || [];
    S.legalSeat = S.wsSeat;
    S.sending = false;
    clearTimeout(S.syncTimer);
    afterUpdate();
  };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    setConn(false);
    const delay = Math.min(10000, 500 * 2 ** S.wsRetry++);
    S.wsTimer = setTimeout(async () => {
      try { await fetchGame(); render(); } catch { /* the server may still be down */ }
      connect();
    }, delay);
  };
  ws.onerror = () => { /* onclose follows */ };
}

function setConn(up) {
  S.online = up;
  $('offline').classList.toggle('hidden', up);
  const el = $('conn');
  el.textContent = up ? '● live' : '● connection lost, reconnecting…';
  el.classList.toggle('down', !up);
}

// The sounds of what an update brought (not of the position the page opened on, nor in a replay): the end of
// the game, else a capture (a Stratego battle too), else a move.
function soundNews() {
  const n = S.events.length;
  const fresh = S.heard === null || n <= S.heard ? [] : S.events.slice(S.heard);
  S.heard = n;
  if (!fresh.length || S.replay) return;
  const types = new Set(fresh.map(e => e.type));
  if (types.has('over')) playSound('end');
  else if (types.has('capture') || types.has('battle')) playSound('capture');
  else if (['move', 'place', 'pass'].some(t => types.has(t))) playSound('move');
}

// A message about a refused move (or a refused offer) belongs to the position it was about: the next change of
// ply, phase or turn clears it.
function clearStaleErrors() {
  const o = S.observation || {};
  const key = `${o.ply ?? 0}|${o.action ?? 0}|${o.phase ?? ''}|${o.to_move ?? ''}|${S.game ? S.game.status : ''}`;
  if (S.stateKey !== null && key !== S.stateKey) showError('move-error', null);
  S.stateKey = key;
}

let refreshing = false;
async function afterUpdate() {
  // Seats are in the update (when the server sends them); otherwise refetch while a seat is open.
  const seatsOpen = !S.seatsFresh && S.game && S.game.seats.some(s => s.type === 'open');
  const tm = S.observation ? S.observation.to_move : null;
  const inPlay = S.observation && S.observation.phase === 'play';
  // (A seat of ours to move always has something legal, a pass at least: an empty list is a stale one.)
  const needLegalFor = !isOver() && inPlay && heldSeats().includes(tm) && (S.legalSeat !== tm || !S.legal.length);
  const justEnded = S.observation && S.observation.phase === 'over' && !S.replay;
  if ((seatsOpen || needLegalFor || justEnded) && !refreshing) {
    // Seats changed (someone joined), a hot-seat turn changed hands, or the game just ended:
    // the update alone does not say enough, so ask for the whole game.
    refreshing = true;
    try { await fetchGame(); } catch { /* keep what we have */ }
    refreshing = false;
  }
  // Hot seat with hidden information: follow the seat now shown on the socket too, so that every update
  // carries that seat's own view.
  if (handOverGame() && actingSeat() !== S.wsSeat) connect();
  soundNews();
  clearStaleErrors();
  render();
  followRematch();
  if (isOver() && !S.replay) await loadReplay();
}

// A setup from the module's editor, for `seat`: `{placement}`, or `{arrangement: name}` for a named
// arrangement the server places. Errors go back to the editor.
async function sendSetup(seat, body) {
  const res = await api('POST', `/api/games/${encodeURIComponent(gameId)}/setup`, { body, token: tokenFor(seat) });
  if (res && res.observation) { S.observation = res.observation; S.obsSeat = seat; }
  try { await fetchGame(); } catch { /* the socket's update follows */ }
  afterUpdate();
}

// "I am <side>, show my board": make sure the observation on hand is that seat's, then draw it.
async function showSeat(seat) {
  S.confirmedSeat = seat;
  if (S.obsSeat !== seat) {
    try { await fetchGame(seat); } catch (e) { showError('move-error', e); }
  }
  if (S.wsSeat !== seat) connect();
  render();
}

async function sendMove(move) {
  const seat = S.legalSeat;
  const token = tokenFor(seat);
  showError('move-error', null);
  if (!token) return;
  S.sending = true;
  // The hint was for the position before this move (the server forgets it too).
  S.assist = { ...S.assist, hint: null };
  render();
  const seen = S.updates;
  try {
    const res = await api('POST', `/api/games/${encodeURIComponent(gameId)}/moves`, { body: { move }, token });
    S.sending = false;
    // The answer is the newest position unless an update came meanwhile (a move that keeps the ply, like the
    // first action of a Truth turn, counts too).
    if (res && res.observation && (S.updates === seen || (res.observation.ply ?? 0) > (S.observation.ply ?? 0))) {
      // The events arrive over the WebSocket; until they do, show the new position without legal moves.
      S.observation = res.observation;
      S.obsSeat = seat;
      S.legal = [];
    }
    render();
    // Without a live socket, or if its update does not come, fetch the game.
    clearTimeout(S.syncTimer);
    const delay = S.ws && S.ws.readyState === WebSocket.OPEN ? 2000 : 0;
    S.syncTimer = setTimeout(async () => { try { await fetchGame(); afterUpdate(); } catch { /* retry on next update */ } }, delay);
  } catch (e) {
    S.sending = false;
    showError('move-error', e);
    try { await fetchGame(); } catch { /* ignore */ }
    render();
  }
}

// ---------------------------------------------------------------------------------------------
// Replay of a finished game

async function loadReplay() {
  try {
    S.record = await api('GET', `/api/games/${encodeURIComponent(gameId)}/record`);
  } catch {
    S.record = null;
  }
  // The final GET carries every event unredacted; make sure we have it.
  try { await fetchGame(); } catch { /* use what we have */ }
  const plies = S.mod.plies(S.events);
  // Which of the record's moves each ply holds (the analysis speaks of moves, the list and the board of plies).
  const spans = S.record && Array.isArray(S.record.moves) ? plyMoves(plies, S.record.moves.length) : null;
  if (spans) {
    // Label moves as the record writes them, where the two agree in number. A ply that stands for several
    // of the record's moves (a Truth turn of two actions) says how many in `moves`.
    const moves = S.record.moves;
    plies.forEach((p, i) => { if (spans[i].count) p.text = moves.slice(spans[i].start, spans[i].start + spans[i].count).join(' '); });
  }
  S.heard = S.events.length;
  S.browse = null;
  const start = S.mod.initialState(S.game, S.record, { observation: S.observation, plies });
  // ?move=N (a link to a position of the replay) opens there, once.
  let index = plies.length;
  if (S.replayStart !== null && Number.isInteger(S.replayStart)) index = Math.max(0, Math.min(plies.length, S.replayStart));
  S.replayStart = null;
  S.replay = { plies, states: foldPositions(start, plies), index, spans, moves: S.record && Array.isArray(S.record.moves) ? S.record.moves.length : 0 };
  render();
}

// The record's moves each ply holds: [{ start, count }] per ply, or null where the plies and the record do not
// agree in number. A ply stands for `moves` of them when the module says so (a Truth turn of two actions), else
// for one when it holds a move of any kind (a placement, a slide, a pass, a Stratego battle, a FACET move out of
// sight) and none when it is only an offer or a resignation.
const MOVE_EVENTS = new Set(['place', 'move', 'pass', 'battle', 'unseen']);
function plyMoves(plies, total) {
  const counts = plies.every(p => Number.isInteger(p.moves)) && plies.length
    ? plies.map(p => p.moves)
    : plies.map(p => (p.events.some(e => MOVE_EVENTS.has(e.type)) ? 1 : 0));
  if (counts.reduce((n, c) => n + c, 0) !== total) return null;
  let k = 0;
  return counts.map(c => { const span = { start: k, count: c }; k += c; return span; });
}

// The positions of a game, one per ply boundary (states[0] is the start), by folding the module's applyPly()
// over the plies: the replay of a finished game and the browsing of a live one both come from here.
function foldPositions(start, plies) {
  const states = [start];
  for (const p of plies) states.push(S.mod.applyPly(states[states.length - 1], p.events));
  return states;
}

function replayGo(i) {
  if (!S.replay) return;
  S.replay.index = Math.max(0, Math.min(S.replay.plies.length, i));
  render();
}

// ---------------------------------------------------------------------------------------------
// Browsing the moves of a live game: an earlier position on the board, the game going on underneath.
//
// The start the positions are folded from is one this seat may know. While the position hides nothing from
// anyone (`hidden` false: Tigadi, FACET without fog, Truth once play began) the server shows the record, and
// its start is the replay's (`initialState`). Otherwise only the module can say what this seat knew at the start
// (`viewStart(game, observation, plies, seat)`: Stratego, its own army as it stood and the enemy's face down;
// FACET under fog, its own stones) from this seat's own observation and events; a module without one offers no
// browsing there. Each ply is then redrawn from the events this seat received, exactly as in a replay.

const liveKey = () => (S.game && S.game.hidden ? `seat:${S.obsSeat}` : 'public');
const canBrowse = () => !isOver() && !!S.mod && (!(S.game && S.game.hidden) || !!S.mod.viewStart);

async function loadLiveStart() {
  const key = liveKey();
  // Once per update at most (a start that could not be made waits for the next one).
  if ((S.live.start && S.live.key === key) || S.live.loading || S.live.triedAt === S.updates) return;
  S.live.loading = true;
  S.live.triedAt = S.updates;
  await Promise.resolve(); // never inside the render() that asked
  try {
    if (!S.game.hidden) {
      const record = await api('GET', `/api/games/${encodeURIComponent(gameId)}/record`);
      S.live.start = S.mod.initialState(S.game, record, { observation: S.observation, plies: S.mod.plies(S.events) });
    } else {
      // null when the observation and the events on hand do not agree yet (a move's answer ahead of its
      // events): the next update tries again.
      S.live.start = S.mod.viewStart(S.game, S.observation, S.mod.plies(S.events), S.obsSeat);
    }
    S.live.key = S.live.start ? key : null;
  } catch {
    S.live.start = null;
    S.live.key = null;
  }
  S.live.loading = false;
  render();
}

// Shows the position after `i` plies (0: the start); the newest position ends the browsing.
function browseGo(i) {
  if (!canBrowse()) return;
  const n = S.mod.plies(S.events).length;
  if (i >= n) { S.browse = null; render(); return; }
  i = Math.max(0, i);
  S.browse = S.browse ? { ...S.browse, index: i } : { index: i, seen: n };
  if (!S.live.start || S.live.key !== liveKey()) loadLiveStart();
  render();
}

// Arrow keys, Home and End, and a click in the move list: the replay once the game is over, else browsing.
function stepTo(i) {
  if (S.replay) replayGo(i);
  else browseGo(i);
}
function shownIndex() {
  if (S.replay) return S.replay.index;
  if (S.browse) return S.browse.index;
  return S.mod ? S.mod.plies(S.events).length : 0;
}

// ---------------------------------------------------------------------------------------------
// Flip board: the player's own turn of the picture, remembered per kind of game (four-player Truth: the next
// seat's corner at the bottom left each time, so four steps; the others two).
const flipKey = () => `tabula:flip:${S.game.game}${flipPeriod() === 4 ? '-4' : ''}`;
function flipPeriod() {
  const o = (S.game && S.game.options) || {};
  return S.game && S.game.game === 'truth' && Number(o.players) === 4 ? 4 : 2;
}
function loadFlip() {
  try { return (Number(localStorage.getItem(flipKey())) || 0) % flipPeriod(); } catch { return 0; }
}
function flipBoard() {
  S.flip = (S.flip + 1) % flipPeriod();
  try { localStorage.setItem(flipKey(), String(S.flip)); } catch { /* this page only */ }
  render();
}

// ---------------------------------------------------------------------------------------------
// Controls

function wireControls() {
  $('pass').addEventListener('click', () => sendMove('pass'));
  $('resign').addEventListener('click', () => {
    $('resign').classList.add('hidden');
    $('resign-confirm').classList.remove('hidden');
    $('resign-no').focus();
  });
  $('resign-no').addEventListener('click', () => {
    $('resign-confirm').classList.add('hidden');
    render();
  });
  $('resign-yes').addEventListener('click', async () => {
    $('resign-confirm').classList.add('hidden');
    const seat = actingSeat();
    try {
      await api('POST', `/api/games/${encodeURIComponent(gameId)}/offers`, { body: { what: 'resign' }, token: tokenFor(seat) });
      await fetchGame();
      afterUpdate();
    } catch (e) { showError('move-error', e); render(); }
  });
  $('rp-first').addEventListener('click', () => replayGo(0));
  $('rp-prev').addEventListener('click', () => replayGo(S.replay.index - 1));
  $('rp-next').addEventListener('click', () => replayGo(S.replay.index + 1));
  $('rp-last').addEventListener('click', () => replayGo(S.replay.plies.length));
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
    if ((e.key === 'f' || e.key === 'F') && S.board) { flipBoard(); return; }
    if (!S.replay && !(canBrowse() && S.boardShown)) return;
    const last = S.replay ? S.replay.plies.length : S.mod.plies(S.events).length;
    let to = null;
    if (e.key === 'ArrowLeft') to = shownIndex() - 1;
    else if (e.key === 'ArrowRight') to = shownIndex() + 1;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = last;
    if (to === null) return;
    e.preventDefault();
    stepTo(to);
  });
  $('moves').addEventListener('click', (e) => {
    const li = e.target.closest('[data-ply]');
    if (!li || !(S.replay || canBrowse())) return;
    stepTo(Number(li.dataset.ply) + 1);
    // On a phone the list is under the board: bring the board back into view when it has scrolled away.
    if ($('board').getBoundingClientRect().bottom < 0) (S.replay ? $('board') : $('browse-bar')).scrollIntoView({ block: 'start' });
  });
  $('moves').addEventListener('keydown', (e) => {
    const li = e.target.closest('[data-ply]');
    if (li && (e.key === 'Enter' || e.key === ' ') && (S.replay || canBrowse())) { e.preventDefault(); stepTo(Number(li.dataset.ply) + 1); }
  });
  $('browse-present').addEventListener('click', () => { S.browse = null; render(); });
  $('flip').addEventListener('click', flipBoard);
  $('takeback').addEventListener('click', takeBack);
  $('hint-button').addEventListener('click', askHint);
  $('offer-draw').addEventListener('click', () => offer('draw'));
  $('offers').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-offer]');
    if (b) offer(b.dataset.offer);
  });
  $('takeback-bar').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-takeback]');
    if (b) answerTakeBack(b.dataset.takeback);
  });
  $('open-lines').addEventListener('click', () => { setOpenLines(!openLinesOn()); render(); });
  $('download-record').addEventListener('click', downloadRecord);
  $('rematch').addEventListener('click', askRematch);
  $('same-settings').addEventListener('click', newGameSameSettings);
  $('analyse').addEventListener('click', startAnalysis);
  $('replay-link-copy').addEventListener('click', async () => {
    $('replay-link-note').textContent = (await copyText($('replay-link').value, $('replay-link'))) ? 'Copied.' : 'Select the link and copy it.';
  });
  $('sound').addEventListener('click', () => { setSoundMuted(!soundMuted()); render(); });
  $('handover-show').addEventListener('click', () => showSeat(Number($('handover').dataset.seat)));
  $('seat-admin-list').addEventListener('click', (e) => {
    const hand = e.target.closest('button[data-seat-hand]');
    const take = e.target.closest('button[data-seat-take]');
    if (hand) {
      const seat = Number(hand.dataset.seatHand);
      const sel = $('seat-admin-list').querySelector(`select[data-seat-level="${seat}"]`);
      changeSeat(seat, { type: 'ai', level: Number(sel ? sel.value : 1) });
    } else if (take) changeSeat(Number(take.dataset.seatTake), { type: 'human' });
  });
  $('join-name').value = myName();
  $('join-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const seat = Number($('join-form').dataset.seat);
    const name = $('join-name').value.trim();
    showError('join-error', null);
    $('join-button').disabled = true;
    try {
      const res = await api('POST', `/api/games/${encodeURIComponent(gameId)}/join`, { body: { seat, name } });
      setMyName(name);
      saveTokens(gameId, { [seat]: res.token });
      S.tokens = loadTokens(gameId);
      history.replaceState(null, '', `/game.html?id=${encodeURIComponent(gameId)}`);
      await fetchGame();
      render();
      connect();
    } catch (err) {
      showError('join-error', err.status === 409 ? new Error('Someone else took that seat first.') : err);
      try { await fetchGame(); render(); } catch { /* ignore */ }
    } finally {
      $('join-button').disabled = false;
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Rendering

function render() {
  if (!S.game || !S.mod) return;
  const g = S.game;
  const obs = S.observation || {};
  const over = isOver();
  const held = heldSeats();
  const openSeats = g.seats.filter(s => s.type === 'open');
  const tm = obs.to_move;
  const inSetup = obs.phase === 'setup' && !over;
  const vs = actingSeat(); // the seat this browser shows (null: watching)
  const myTurn = !over && !inSetup && held.includes(tm) && S.legalSeat === tm && S.legal.length > 0 && !S.sending;
  const replaying = over && S.replay && S.replay.index < S.replay.plies.length;
  const plies = S.replay ? S.replay.plies : S.mod.plies(S.events);

  // What the board column shows: the hand-over screen (hot seat, hidden information), the setup editor
  // (a seat of ours sets up) or the board. Another seat's observation is never drawn.
  const screened = handOverGame() && S.confirmedSeat !== vs;
  const wrongView = handOverGame() && !screened && S.obsSeat !== vs;
  const editing = !screened && !wrongView && inSetup && vs !== null && !!S.mod.setup;
  const boardShown = !screened && !wrongView && !editing;
  renderHandOver(screened ? vs : null, wrongView, plies);
  S.boardShown = boardShown;
  // Browsing ends with the game, behind a hand-over screen, and where this seat has nothing to browse from.
  if (S.browse && (over || !boardShown || !canBrowse() || S.browse.index >= plies.length)) S.browse = null;
  if (S.browse && !(S.live.start && S.live.key === liveKey())) loadLiveStart();
  const browsing = !!S.browse && !!S.live.start && S.live.key === liveKey();
  const browseStates = browsing ? foldPositions(S.live.start, plies.slice(0, S.browse.index)) : null;
  const canPlay = myTurn && !S.browse;
  if (wrongView && S.loadingSeat !== vs) {
    S.loadingSeat = vs;
    fetchGame(vs).catch(() => {}).finally(() => { S.loadingSeat = null; render(); });
  }
  if (editing && (!S.setupEd || S.setupSeat !== vs)) {
    if (S.setupEd) S.setupEd.destroy();
    S.setupSeat = vs;
    // A destroyed editor's late words (its Ready answered after play began) must not stay on the page.
    const editorKey = {};
    S.setupKey = editorKey;
    S.setupEd = S.mod.setup($('setup'), {
      seat: vs,
      kind: S.kind,
      options: g.options || {},
      submit: (placement) => sendSetup(vs, { placement }),
      submitArrangement: (name) => sendSetup(vs, { arrangement: name }),
      onHint: (text) => { if (S.setupKey === editorKey) $('hint').textContent = text; },
    });
  } else if (!editing && S.setupEd) {
    S.setupKey = null;
    if (!S.board) $('hint').textContent = '';
    S.setupEd.destroy();
    S.setupEd = null;
    S.setupSeat = null;
  }
  if (editing) S.setupEd.update({ observation: obs, seat: vs });
  $('setup').classList.toggle('hidden', !editing);
  $('board').classList.toggle('hidden', !boardShown);
  if (!boardShown && S.board) { S.board.destroy(); S.board = null; }
  if (boardShown && !S.board) {
    S.board = S.mod.create($('board'), {
      onMove: (move) => sendMove(move),
      onHint: (text) => { $('hint').textContent = text; },
    });
  }

  // Board: the replay's position, the position browsed to, or the present.
  const flip = S.flip;
  if (!boardShown) { /* nothing drawn */ } else if (S.replay && replaying) {
    const i = S.replay.index;
    S.board.update({ observation: S.replay.states[i], legal: [], lastPly: i ? plies[i - 1].events : [], plies: plies.slice(0, i), interactive: false, seat: vs, flip });
  } else if (browsing) {
    const i = S.browse.index;
    S.board.update({ observation: browseStates[i], legal: [], lastPly: i ? plies[i - 1].events : [], plies: plies.slice(0, i), interactive: false, seat: vs, flip, browsing: true });
  } else {
    S.board.update({ observation: obs, legal: canPlay ? S.legal : [], lastPly: plies.length ? plies[plies.length - 1].events : [], plies, interactive: canPlay, seat: vs, flip });
  }
  $('board').dataset.ply = obs.ply ?? 0;
  $('board').dataset.interactive = canPlay && boardShown ? 'true' : 'false';
  $('board').dataset.phase = obs.phase || '';
  $('board').dataset.browsing = S.browse ? 'true' : 'false';
  $('board').dataset.flip = String(flip);
  renderBrowseBar(plies, browsing);
  renderMarks({ boardShown, replaying, browsing, vs, over });

  // Seats.
  const shownIndexNow = S.replay && replaying ? S.replay.index : browsing ? S.browse.index : plies.length;
  const shown = S.replay && replaying ? S.replay.states[S.replay.index] : browsing ? browseStates[S.browse.index] : obs;
  $('seats').replaceChildren(...g.seats.map((s, i) => {
    const p = S.mod.players[i] || {};
    const li = h('li', { class: !over && !inSetup && tm === i ? 'to-move' : '', dataset: { seat: i } },
      h('span', { class: 'swatch', style: { background: p.fill || '#ccc', borderColor: p.edge || '#888' }, 'aria-hidden': 'true' }),
      h('span', {}, h('strong', {}, playerName(i)), ' · ', s.type === 'open' ? h('em', {}, 'waiting for a friend') : seatLabel(s),
        s.type === 'ai' && levelName(s.level) ? h('span', { class: 'muted' }, ` · ${levelName(s.level)}`) : null,
        s.handed ? h('em', { class: 'muted' }, ' (handed over)') : null),
      held.includes(i) ? h('span', { class: 'you' }, 'you') : null,
      // An AI seat to move has not answered yet: it is thinking.
      !over && !inSetup && tm === i && s.type === 'ai' ? h('span', { class: 'thinking', dataset: { thinking: i }, role: 'status' }, 'thinking', h('span', { class: 'dots', 'aria-hidden': 'true' }, '…')) : null,
      h('span', { class: 'count' }, S.mod.summary ? S.mod.summary(shown, i, vs) : ''));
    if (!over && !inSetup && tm === i) li.setAttribute('aria-current', 'true');
    return li;
  }));
  renderSeatAdmin();
  renderMaterial(shown, vs, plies.slice(0, shownIndexNow));
  renderTools(boardShown);

  // Whose turn.
  let status = '';
  if (over) status = 'Game over.';
  else if (openSeats.length) status = `Waiting for a friend to join as ${andList(openSeats.map(s => playerName(s.seat)))}.`;
  else if (inSetup) {
    const ready = obs.ready || [];
    const notReady = g.seats.map((s, i) => i).filter(i => !ready.includes(i));
    if (vs !== null && !ready.includes(vs)) status = held.length > 1 ? `${playerName(vs)}: set up your army.` : 'Set up your army.';
    else status = `Waiting for ${andList(notReady.map(playerName))} to set up.`;
  }
  else if (held.includes(tm) && held.length > 1) status = `${playerName(tm)} to move (you).`;
  else if (held.includes(tm)) status = myTurn || S.sending ? 'Your turn.' : 'Your turn…';
  else {
    const s = g.seats[tm];
    status = s && s.type === 'ai' ? `${playerName(tm)} (AI level ${s.level}) is thinking…` : `Waiting for ${playerName(tm)}${s && s.name ? ` (${s.name})` : ''}.`;
  }
  if (!held.length && !over) status += ' You are watching.';
  $('status').textContent = status;
  if (!myTurn && !editing) $('hint').textContent = '';

  // Pass appears only when the server lists "pass" as legal (the module may name it: "Pass blocked turn").
  $('pass').classList.toggle('hidden', !(canPlay && S.legal.includes('pass')));
  if (S.mod.passText) {
    const words = S.mod.passText(obs);
    if ($('pass').textContent !== words) { $('pass').textContent = words; $('pass').setAttribute('aria-label', words); }
  }
  const canResign = !over && held.length > 0 && !openSeats.length;
  if ($('resign-confirm').classList.contains('hidden')) $('resign').classList.toggle('hidden', !canResign);
  else if (!canResign) $('resign-confirm').classList.add('hidden');
  const resignSeat = actingSeat();
  $('resign').textContent = held.length > 1 && resignSeat !== null ? `Resign as ${playerName(resignSeat)}` : 'Resign';

  // Banner.
  const banner = $('banner');
  const result = (obs && obs.result) || g.result;
  if (over && result) {
    const w = result.winners || [];
    // Several winners: a shared victory (four-player Truth: every army whose icon stands when the first falls).
    let head = w.length > 1 ? `${andList(w.map(playerName))} share the victory` : w.length ? `${playerName(w[0])} wins` : 'Draw';
    if (held.length === 1) head += w.includes(held[0]) ? ' — you won!' : w.length ? ' — you lost.' : '';
    const why = (S.mod.reasonText && S.mod.reasonText(result, obs)) || REASONS[result.reason] || result.reason;
    banner.replaceChildren(h('strong', {}, head), h('span', { class: 'reason', dataset: { reason: result.reason } }, why));
    banner.classList.remove('hidden');
  } else banner.classList.add('hidden');

  // Join form / invites.
  renderJoin(openSeats, held);
  renderInvites(openSeats, held);

  // Move list.
  const list = $('moves');
  const cur = S.replay ? S.replay.index - 1 : S.browse ? S.browse.index - 1 : plies.length - 1;
  const stepping = !!S.replay || (canBrowse() && boardShown);
  list.classList.toggle('replaying', stepping);
  const judged = S.replay ? plyJudgements() : [];
  list.replaceChildren(...plies.map((p, i) => h('li', { dataset: { ply: i } },
    h('span', { class: 'n' }, `${i + 1}.`),
    h('span', { class: 'who' }, p.player === null || p.player === undefined ? '' : playerName(p.player)),
    h('span', { class: 'ply' + (i === cur ? ' current' : ''), role: stepping ? 'button' : undefined, tabindex: stepping ? 0 : undefined,
      'aria-label': stepping ? `Show the position after move ${i + 1}` : undefined }, p.text,
      judged[i] ? h('span', { class: `judge${judged[i].mark === '??' ? ' blunder' : ''}`, dataset: { judge: judged[i].mark }, title: judged[i].title }, judged[i].mark) : null,
      p.detail ? h('small', { class: 'detail' }, p.detail) : null))));
  $('no-moves').classList.toggle('hidden', plies.length > 0);
  const curEl = list.querySelector('.current');
  if (curEl) { const top = curEl.offsetTop - list.offsetTop; if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 24) list.scrollTop = top - list.clientHeight / 2; }

  // Replay controls.
  $('replay-panel').classList.toggle('hidden', !S.replay);
  if (S.replay) {
    const { index, plies: ps } = S.replay;
    $('rp-first').disabled = $('rp-prev').disabled = index === 0;
    $('rp-next').disabled = $('rp-last').disabled = index === ps.length;
    $('rp-where').textContent = index === 0 ? `Start · ${ps.length} moves` : `Move ${index} of ${ps.length}`;
    $('replay-panel').dataset.index = index;
  }
  renderAssist({ over, held, openSeats, plies, vs, inSetup });
}

// The banner over the board while an earlier position of a live game is shown: which move, and the way back
// (which also says how many moves were played meanwhile: new moves do not pull the player back).
function renderBrowseBar(plies, ready) {
  const bar = $('browse-bar');
  bar.classList.toggle('hidden', !S.browse);
  if (!S.browse) { delete bar.dataset.index; return; }
  const n = plies.length;
  const i = S.browse.index;
  const news = Math.max(0, n - S.browse.seen);
  bar.dataset.index = i;
  bar.dataset.news = news;
  const note = ready && S.mod.browseNote ? S.mod.browseNote(S.observation || {}) : '';
  $('browse-text').textContent = !ready ? 'Loading the earlier position…'
    : `${i === 0 ? `Viewing the start, before move 1 of ${n}` : `Viewing move ${i} of ${n}`}. The game goes on: this board is for looking only.${note ? ` ${note}` : ''}`;
  const btn = $('browse-present');
  btn.textContent = news ? `Back to the present (${news} new move${news === 1 ? '' : 's'})` : 'Back to the present';
  btn.classList.toggle('news', news > 0);
}

// Material beside the board, for the position shown: what the module counts (gotis in hand and lost, stones
// lost, the trays of captured pieces, the scores), one line per side.
function renderMaterial(shown, seat, plies) {
  const panel = $('material-panel');
  const rows = S.mod.material && shown ? S.mod.material(shown, { seat, plies, players: S.game.seats.length }) : null;
  panel.classList.toggle('hidden', !rows || !rows.length);
  if (!rows || !rows.length) return;
  const key = JSON.stringify(rows);
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  $('material').replaceChildren(...rows.map(r => {
    const p = S.mod.players[r.player] || {};
    return h('li', { dataset: { player: r.player } },
      h('span', { class: 'swatch', style: { background: p.fill || '#ccc', borderColor: p.edge || '#888' }, 'aria-hidden': 'true' }),
      h('strong', {}, playerName(r.player)),
      h('span', { class: 'mat-parts' }, ...r.parts.map(part => h('span', {
        class: `mat-part${part.unknown ? ' unknown' : ''}`, title: part.title || undefined,
        dataset: { key: part.key, count: part.count ?? '' } }, part.text))));
  }));
}

// ---------------------------------------------------------------------------------------------
// Around the board (docs/ui.md "Assists"): take-backs, the AI's hint, draw offers, the rematch, records, the
// analysis, and the dangers the server points out. What may be asked comes from the server (`assist`); the
// shell only shows it and posts the requests.

const OPEN_LINES_KEY = 'tabula:open-lines';
function openLinesOn() { try { return localStorage.getItem(OPEN_LINES_KEY) === 'on'; } catch { return false; } }
function setOpenLines(on) { try { localStorage.setItem(OPEN_LINES_KEY, on ? 'on' : 'off'); } catch { /* this page only */ } }

// Draw offers are the shell's in every two-player game whose observation has them (`draw_offer`: Tigadi,
// Stratego, FACET); Truth's scored stalemate stays with its board.
const drawOffers = () => !!S.observation && 'draw_offer' in S.observation && !!S.game && S.game.seats.length === 2;

// The server's danger marks for the present position (docs/server.md): `player` is the side whose piece or
// gotis are in danger, `by` who threatens them (FACET: the attackers' squares; Truth: the armies; Tigadi: the
// side that could close the line). The overlay rings the square (red when the danger is the viewer's, amber when
// it is another side's: the viewer's chance), FACET's attackers faintly too; Tigadi's open lines, only while
// "Show open lines" is on, as a segment with the point that closes it.
function shownDangers(vs) {
  const lines = openLinesOn();
  const out = [];
  for (const d of S.assist.danger || []) {
    if (!d || typeof d !== 'object' || typeof d.square !== 'string') continue;
    const own = vs === null || d.player === vs;
    const mark = { ...d, own };
    if (Array.isArray(d.line)) { if (lines) out.push({ ...mark, kind: 'line' }); }
    else out.push({ ...mark, kind: 'danger', attackers: Array.isArray(d.by) ? d.by.filter(x => typeof x === 'string') : [] });
  }
  return out;
}

function dangerWords(d, vs) {
  const mine = vs !== null && d.player === vs;
  const whose = mine ? 'Your' : `${playerName(d.player)}’s`;
  const who = (p) => (vs !== null && p === vs ? 'you' : playerName(p));
  switch (d.why) {
    case 'monarch-attacked': return `${whose} Monarch on ${d.square} can be taken${d.attackers && d.attackers.length ? ` (from ${andList(d.attackers)})` : ''}.`;
    case 'icon-burnable': return `${whose} icon on ${d.square} can be burned${Array.isArray(d.by) && d.by.length ? ` by ${andList(d.by.map(who))}` : ''}.`;
    case 'icon-sieged': return `${whose} icon on ${d.square} is under siege${Number.isInteger(d.count) ? ` (${d.count})` : ''}.`;
    case 'line-open': {
      const by = Number.isInteger(d.by) ? d.by : 1 - d.player;
      const closer = vs !== null && by === vs ? 'You' : playerName(by);
      return `${closer} can close a line at ${d.square}${Array.isArray(d.line) ? ` (${d.line.join('–')})` : ''}.`;
    }
    default: return `${whose} piece on ${d.square}: ${d.why || 'danger'}.`;
  }
}

// The move the analysis looked at from the position after `index` plies of the replay (the first of the ply's
// moves), or null.
function analysedAt(index) {
  const r = S.replay;
  const a = S.analysisData;
  if (!r || !a || !r.spans || index >= r.plies.length) return null;
  const span = r.spans[index];
  return span && span.count ? a.byIndex.get(span.start) || null : null;
}

// The "?" / "??" of each ply of the replay: the worst of its moves' judgements.
function plyJudgements() {
  const a = S.analysisData;
  const r = S.replay;
  if (!a || !r || !r.spans) return [];
  return r.spans.map(span => {
    let worst = null;
    for (let k = span.start; k < span.start + span.count; k++) {
      const mark = a.marks.get(k);
      if (mark && (!worst || (mark === '??' && worst.mark !== '??'))) worst = { mark, k };
    }
    if (!worst) return null;
    const p = a.byIndex.get(worst.k);
    return { mark: worst.mark, title: `Lost ${inPieces(p.loss)} of a piece by the AI’s count; it preferred ${p.best}` };
  });
}

// The overlay: the AI's better move in a replay once analysed, else (the present position, in play) the hint and
// the dangers. Nothing while browsing: the marks are the present's.
function renderMarks({ boardShown, replaying, browsing, vs, over }) {
  if (!S.marks) S.marks = new BoardMarks($('board'));
  const marks = [];
  let words = [];
  if (boardShown && S.replay && replaying) {
    const a = analysedAt(S.replay.index);
    if (a && a.best && a.best !== a.played) marks.push({ kind: 'best', move: a.best });
  } else if (boardShown && !browsing && !S.browse && !over && (S.observation || {}).phase === 'play') {
    const hint = S.assist.hint;
    if (hint && hint.move && (!S.legal.length || S.legal.includes(hint.move))) marks.push({ kind: 'hint', move: hint.move });
    const dangers = shownDangers(vs);
    marks.push(...dangers);
    words = dangers.map(d => ({ text: dangerWords(d, vs), own: d.own }));
  }
  S.marks.draw(marks);
  // In words too, each in the colour of its ring (a danger of the viewer's, or its chance).
  const note = $('danger-note');
  const key = JSON.stringify(words);
  if (note.dataset.key !== key) {
    note.dataset.key = key;
    note.replaceChildren(...(words || []).flatMap((w, i) => [i ? ' ' : '', h('span', { class: w.own ? 'own' : 'other' }, w.text)]));
  }
}

// A small bar of words and buttons, rebuilt only when what it says changes (a button being pressed is kept).
function fillBar(el, key, parts) {
  el.classList.toggle('hidden', !parts.length);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.replaceChildren(...parts);
}

function renderAssist({ over, held, openSeats, plies, vs, inSetup }) {
  const A = S.assist;
  const can = A.assist || {};
  const obs = S.observation || {};
  const mine = vs !== null && held.includes(vs);
  const inPlay = !over && !inSetup && obs.phase === 'play' && !openSeats.length;
  const busy = S.assistSending !== null;

  // Take back: against the AI at once, between people by asking.
  const tb = $('takeback');
  tb.classList.toggle('hidden', !(inPlay && (can.takeback || can.takeback_request)));
  const tbText = can.takeback ? 'Take back' : 'Ask to take back';
  if (tb.textContent !== tbText) tb.textContent = tbText;
  tb.title = can.takeback ? 'Take back your last move (and the AI’s reply)' : 'Ask the other player to let you take back your last move';
  tb.disabled = busy;

  // The hint: asked for, looked for on the server, then shown on the board until a move is made.
  const hint = A.hint;
  const pending = S.assistSending === 'hint' || !!(hint && hint.pending);
  const hb = $('hint-button');
  hb.classList.toggle('hidden', !(inPlay && can.hint));
  hb.disabled = busy || pending || !!(hint && hint.move);
  const hbText = pending ? 'Thinking of a hint…' : 'Hint';
  if (hb.textContent !== hbText) hb.textContent = hbText;
  const hintText = !inPlay || S.browse ? '' : hint && hint.move
    ? `Hint: ${hint.move}${hint.move === 'pass' ? '' : ' (marked on the board)'}.`
    : pending ? 'The AI is looking for a good move…' : '';
  if ($('ai-hint').textContent !== hintText) $('ai-hint').textContent = hintText;
  $('ai-hint').dataset.move = hint && hint.move ? hint.move : '';

  // Tigadi's open lines: off by default, remembered.
  const linesBtn = $('open-lines');
  linesBtn.classList.toggle('hidden', !(S.info && S.info.openLines) || over);
  linesBtn.setAttribute('aria-pressed', String(openLinesOn()));
  linesBtn.textContent = openLinesOn() ? 'Hide open lines' : 'Show open lines';

  // Draw offers.
  const offersOn = inPlay && drawOffers();
  const offerBy = offersOn ? obs.draw_offer ?? null : null;
  const other = (seat) => playerName(S.game.seats.length === 2 ? 1 - seat : seat);
  const parts = [];
  if (offersOn && offerBy !== null) {
    if (mine && offerBy === vs) parts.push(h('span', { class: 'request-text' }, `You offered a draw; waiting for ${other(vs)}’s answer.`));
    else {
      parts.push(h('span', { class: 'request-text' }, `${playerName(offerBy)} offers a draw.`));
      if (mine) parts.push(h('button', { type: 'button', dataset: { offer: 'accept' }, disabled: busy }, 'Accept the draw'),
        h('button', { type: 'button', class: 'secondary', dataset: { offer: 'decline' }, disabled: busy }, 'Decline'));
    }
  } else if (offersOn) {
    const last = plies.length ? plies[plies.length - 1].events : [];
    const lastOffer = [...last].reverse().find(e => e.type === 'offer');
    if (lastOffer && lastOffer.what === 'decline') {
      parts.push(h('span', { class: 'request-text muted', dataset: { declinedBy: lastOffer.player } },
        `${mine && lastOffer.player === vs ? 'You' : playerName(lastOffer.player)} declined the draw.`));
    }
  }
  fillBar($('offers'), JSON.stringify([offerBy, parts.map(p => p.textContent), busy, vs]), parts);
  $('offers').dataset.offerBy = offerBy ?? '';
  $('offer-draw').classList.toggle('hidden', !(offersOn && mine && offerBy === null));
  $('offer-draw').disabled = busy;

  // A take-back asked for between people, or one just made.
  const req = inPlay ? A.takeback_request : null;
  const tparts = [];
  if (req) {
    const whose = playerName(req.seat);
    if (held.includes(req.seat) && (held.length === 1 || vs === req.seat)) {
      const waiting = S.game.seats.map((s, i) => i).filter(i => i !== req.seat && S.game.seats[i].type !== 'ai' && !(req.accepted || []).includes(i));
      tparts.push(h('span', { class: 'request-text' }, `You asked to take back your last move; waiting for ${andList(waiting.map(playerName)) || 'the others'}.`));
    } else {
      tparts.push(h('span', { class: 'request-text' }, `${whose} asks to take back their last move.`));
      if (mine && !(req.accepted || []).includes(vs)) {
        tparts.push(h('button', { type: 'button', dataset: { takeback: 'accept' }, disabled: busy }, 'Allow it'),
          h('button', { type: 'button', class: 'secondary', dataset: { takeback: 'decline' }, disabled: busy }, 'Decline'));
      } else if (mine) tparts.push(h('span', { class: 'muted' }, 'You allowed it.'));
    }
  } else if (inPlay && S.takebackNote) {
    const n = S.takebackNote;
    if (n.ply === null) n.ply = obs.ply ?? 0;
    if (n.ply === (obs.ply ?? 0)) {
      const who = held.includes(n.player) && held.length === 1 ? 'You' : playerName(n.player);
      tparts.push(h('span', { class: 'request-text muted', dataset: { tookBack: n.player } },
        `${who} took back ${n.moves > 1 ? `the last ${n.moves} moves` : 'the last move'}.`));
    } else S.takebackNote = null;
  } else if (inPlay && S.declinedNote) {
    if (S.declinedNote.ply === (obs.ply ?? 0)) tparts.push(h('span', { class: 'request-text muted', dataset: { declined: 'takeback' } }, 'The take-back was declined.'));
    else S.declinedNote = null;
  }
  fillBar($('takeback-bar'), JSON.stringify([req, tparts.map(p => p.textContent), busy, vs]), tparts);

  // "Played with N take-backs."
  const n = A.takebacks || 0;
  $('takebacks-note').classList.toggle('hidden', !n);
  $('takebacks-note').textContent = n ? `Played with ${n} take-back${n === 1 ? '' : 's'}.` : '';
  $('takebacks-note').dataset.takebacks = n;

  // Records: the whole text, or while the game hides something what this seat (or a spectator) may know.
  const dl = $('download-record');
  const dlText = hiddenInfo() && !over ? (held.length ? 'Download my view' : 'Download the spectators’ view') : 'Download record';
  if (dl.textContent !== dlText) dl.textContent = dlText;
  dl.disabled = S.assistSending === 'record';

  renderAfterGame({ over, held });
  renderAnalysis({ over });
}

// At the end: Rematch (sides turned), a new game with the same settings, and a link to the replay.
function renderAfterGame({ over, held }) {
  const panel = $('after-panel');
  panel.classList.toggle('hidden', !over);
  if (!over) return;
  const A = S.assist;
  const can = A.assist || {};
  const rm = A.rematch;
  const asked = rm ? rm.asked || [] : [];
  const busy = S.assistSending !== null;
  $('rematch').classList.toggle('hidden', !can.rematch);
  $('rematch').disabled = busy;
  const two = S.game.seats.length === 2;
  $('rematch').textContent = two ? 'Rematch (sides swapped)' : 'Rematch (seats turned)';
  const text = $('rematch-text');
  let key;
  let parts = [];
  if (rm && rm.id) {
    key = `ready:${rm.id}:${held.length}`;
    if (held.length) prepareRematch(rm.id);
    parts = [held.length ? 'The rematch is ready: ' : 'The players made a rematch: ',
      h('a', { href: `/game.html?id=${encodeURIComponent(rm.id)}`, id: 'rematch-link' }, held.length ? 'go to it' : 'watch it'), '.'];
  } else if (asked.length) {
    const mineAsked = asked.filter(s => held.includes(s));
    const people = S.game.seats.map((s, i) => i).filter(i => S.game.seats[i].type !== 'ai' || S.game.seats[i].handed);
    const waiting = people.filter(i => !asked.includes(i));
    key = `asked:${asked.join(',')}:${held.join(',')}`;
    parts = [mineAsked.length
      ? `You asked for a rematch${two ? ' with the sides swapped' : ''}; waiting for ${andList(waiting.map(playerName)) || 'the others'}.`
      : `${andList(asked.map(playerName))} ask${asked.length === 1 ? 's' : ''} for a rematch${two ? ' with the sides swapped' : ''}.`];
  } else key = 'none';
  if (text.dataset.key !== key) { text.dataset.key = key; text.replaceChildren(...parts); }
  text.dataset.state = rm && rm.id ? 'ready' : asked.length ? 'asked' : '';
  $('same-settings').classList.toggle('hidden', !held.length);
  $('same-settings').disabled = busy;
  const link = replayLink();
  if ($('replay-link').value !== link) $('replay-link').value = link;
}

// A link to the replay at the position shown (?move=N; none at the end).
function replayLink() {
  const i = S.replay ? S.replay.index : null;
  const more = S.replay && i < S.replay.plies.length ? `&move=${i}` : '';
  return new URL(`/game.html?id=${encodeURIComponent(gameId)}${more}`, location.href).href;
}

// The rematch keeps every person's token (the server moves its digest with them to their new seat): the seats
// turned by one, so the seat that was s is s − 1 (two players swap). The tokens, and the creator's, are stored
// for the new game before the page goes there.
function prepareRematch(id) {
  const n = S.game.seats.length;
  const old = loadTokens(gameId);
  const moved = {};
  for (const [seat, token] of Object.entries(old)) moved[(Number(seat) - 1 + n) % n] = token;
  if (Object.keys(moved).length && !Object.keys(loadTokens(id)).length) saveTokens(id, moved);
  if (S.creator && !loadCreator(id)) saveCreator(id, S.creator);
}
function followRematch() {
  const rm = S.assist.rematch;
  if (!rm || !rm.id || !S.rematchWatch || !Object.keys(S.tokens).length || S.leaving) return;
  S.leaving = true;
  prepareRematch(rm.id);
  location.assign(`/game.html?id=${encodeURIComponent(rm.id)}`);
}

function renderAnalysis({ over }) {
  const A = S.assist;
  const can = A.assist || {};
  const an = A.analysis;
  const panel = $('analysis-panel');
  // (A game that ended before its first move has nothing to analyse, though the server would say so.)
  const show = over && (!!can.analysis || !!an) && !(S.replay && S.record && S.replay.moves === 0);
  panel.classList.toggle('hidden', !show);
  if (!show) return;
  $('analyse').classList.toggle('hidden', !can.analysis || !!an);
  $('analyse').disabled = S.assistSending !== null;
  const running = !!an && an.status !== 'done';
  $('analysis-progress-row').classList.toggle('hidden', !running);
  panel.dataset.status = an ? an.status : '';
  if (running) {
    $('analysis-progress').max = Math.max(1, an.total);
    $('analysis-progress').value = an.done;
    $('analysis-status').textContent = `Analysing: ${an.done} of ${an.total} positions…`;
  }
  if (an && an.status === 'done' && !S.analysisData && !S.analysisLoading) loadAnalysis();
  const a = S.analysisData;
  const r = S.replay;
  $('analysis-legend').classList.toggle('hidden', !a);
  if (!a || !r) { $('analysis-plot-wrap').replaceChildren(); $('analysis-note').textContent = ''; return; }
  const two = S.game.seats.length === 2;
  const current = r.spans ? (r.index < r.plies.length ? r.spans[r.index].start : r.moves) : null;
  const key = JSON.stringify([a.positions.length, current, S.game.seats.length]);
  if (S.analysisKey !== key) {
    S.analysisKey = key;
    drawPlot($('analysis-plot-wrap'), {
      positions: a.positions, total: a.total, players: S.game.seats.length, current,
      names: S.game.seats.map((s, i) => playerName(i)),
      colours: S.game.seats.map((s, i) => (S.mod.players[i] || {}).fill || '#888'),
      onPick: (k) => pickMove(k),
    });
  }
  const bad = a.marks.size;
  // (With four players the server cannot say what a move lost: the next mover's score is another player's.)
  const measured = a.positions.some(p => typeof p.loss === 'number');
  $('analysis-legend').textContent = `${two ? `Up is good for ${playerName(0)}, down for ${playerName(1)}. ` : 'Each point from the side of the player to move. '}` +
    `${bad ? `“?” marks a move that lost ${inPieces(MISTAKE)} or more of a piece by the AI’s count, “??” the three that lost the most.`
      : measured ? 'No move lost much by the AI’s count.' : 'What each move lost is not measured here, only the AI’s preferred moves.'}`;
  // What the analysis says of the move played from the position shown.
  const at = analysedAt(r.index);
  let note = '';
  if (r.index >= r.plies.length) note = 'The final position. Click the plot or a move to look at another.';
  else if (at) {
    // The list's move number (a Truth turn is one entry of two actions: the first is the one analysed here).
    const several = r.spans[r.index].count > 1;
    note = `Move ${r.index + 1}: ${playerName(at.mover)} played ${at.played}${several ? ' (the first action)' : ''}`;
    note += at.best && at.best !== at.played ? `; the AI preferred ${at.best} (marked on the board)` : '; the AI agrees';
    note += typeof at.loss === 'number' && at.loss > 0 ? `, ${inPieces(at.loss)} of a piece better.` : '.';
  }
  $('analysis-note').textContent = note;
  $('analysis-note').dataset.best = at && at.best !== at.played ? at.best : '';
}

// A click on the plot: the position before move k (the start of the ply that holds it).
function pickMove(k) {
  const r = S.replay;
  if (!r || !r.spans) return;
  let ply = r.plies.length;
  for (let i = 0; i < r.spans.length; i++) {
    const s = r.spans[i];
    if (s.count && k >= s.start && k < s.start + s.count) { ply = i; break; }
  }
  replayGo(ply);
}

async function loadAnalysis() {
  S.analysisLoading = true;
  try {
    const a = await api('GET', `/api/games/${encodeURIComponent(gameId)}/analysis`);
    if (a && a.status === 'done') {
      const positions = a.positions || [];
      S.analysisData = { ...a, positions, byIndex: new Map(positions.map(p => [p.index, p])), marks: judgements(positions) };
      S.analysisKey = null;
    }
  } catch (e) { $('analysis-error').textContent = e.message; }
  S.analysisLoading = false;
  render();
}

// The acting seat's token for a request about the game as a whole (a hot seat: the seat shown).
const assistToken = () => { const s = actingSeat(); return s === null ? null : tokenFor(s); };

async function assistPost(what, path, body, { errorEl = 'move-error', after } = {}) {
  S.assistSending = what;
  showError(errorEl, null);
  render();
  let res = null;
  try {
    res = await api('POST', `/api/games/${encodeURIComponent(gameId)}/${path}`, { body, token: assistToken() });
    if (after) after(res);
  } catch (e) {
    showError(errorEl, e);
  }
  S.assistSending = null;
  // The update over the WebSocket says the same; a read makes sure (a take-back goes back in plies).
  try { await fetchGame(); } catch { /* the socket's update follows */ }
  afterUpdate();
  return res;
}

function takeBack() {
  S.declinedNote = null;
  return assistPost('takeback', 'takeback', { what: 'request' });
}
function answerTakeBack(what) { return assistPost('takeback', 'takeback', { what }); }
function askHint() {
  // The socket's update with the answer may come before this reply, which then still says pending.
  return assistPost('hint', 'hint', {}, { after: (res) => {
    if (!res || !res.hint) return;
    const next = { ...S.assist, hint: res.hint };
    keepFoundHint(S.assist, next);
    S.assist = next;
  } });
}
function offer(what) { return assistPost('offer', 'offers', { what }); }
// Every seat this browser holds asks (a hot seat's rematch needs both), the seat shown last.
async function askRematch() {
  S.rematchWatch = true;
  const others = heldSeats().filter(seat => seat !== actingSeat());
  for (const seat of others) {
    try { await api('POST', `/api/games/${encodeURIComponent(gameId)}/rematch`, { body: {}, token: tokenFor(seat) }); } catch { /* said below */ }
  }
  return assistPost('rematch', 'rematch', {}, {
    errorEl: 'after-error',
    after: (res) => { if (res && res.rematch) { S.assist = { ...S.assist, rematch: res.rematch }; followRematch(); } },
  });
}
function startAnalysis() {
  return assistPost('analysis', 'analysis', undefined, {
    errorEl: 'analysis-error',
    after: (res) => { if (res && res.status) S.assist = { ...S.assist, analysis: { status: res.status, done: res.done, total: res.total } }; },
  });
}

// A new game like this one: the same kind and options; this browser's seats its own again, AI seats at the same
// level, everyone else's seat open (the new game's page shows the invite links).
async function newGameSameSettings() {
  const g = S.game;
  const held = Object.keys(S.tokens).map(Number);
  const seats = g.seats.map((s, i) => {
    if (held.includes(i)) return { type: 'human', name: s.name || myName() || 'Player' };
    if (s.type === 'ai' && !s.handed) return { type: 'ai', level: s.level };
    return { type: 'open' };
  });
  S.assistSending = 'new';
  showError('after-error', null);
  render();
  try {
    const res = await api('POST', '/api/games', { body: { game: g.game, options: g.options || {}, seats } });
    saveTokens(res.id, res.tokens || {});
    if (res.creator) saveCreator(res.id, res.creator);
    S.leaving = true;
    location.assign(`/game.html?id=${encodeURIComponent(res.id)}`);
  } catch (e) {
    S.assistSending = null;
    showError('after-error', e);
    render();
  }
}

// GET …/record.txt (with this seat's token: while the game hides something, its own view) saved as a file.
async function downloadRecord() {
  const token = assistToken();
  S.assistSending = 'record';
  render();
  try {
    const res = await fetch(`/api/games/${encodeURIComponent(gameId)}/record.txt`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    const text = await res.text();
    if (!res.ok) {
      let msg = text;
      try { msg = JSON.parse(text).error || text; } catch { /* plain text */ }
      throw new Error(msg);
    }
    const view = hiddenInfo() && !isOver() ? (actingSeat() !== null ? `-${playerName(actingSeat()).toLowerCase()}-view` : '-spectator-view') : '';
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const a = h('a', { href: url, download: `tabula-${S.game.game}-${gameId}${view}.txt`, class: 'hidden' });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) {
    showError('move-error', e);
  }
  S.assistSending = null;
  render();
}

// The toolbar's buttons (Flip board, Sound); later tools join the same row.
function renderTools(boardShown) {
  $('flip').disabled = !boardShown;
  const on = !soundMuted();
  $('sound').textContent = on ? 'Sound on' : 'Sound off';
  $('sound').setAttribute('aria-pressed', String(on));
  $('sound').title = on ? 'Sounds for moves, captures and the end (click to mute)' : 'Muted (click for sounds)';
}

// An AI level's name from the kinds answer ("Casual"), or '' from a server without names.
function levelName(level) {
  const l = S.kind && Array.isArray(S.kind.levels) ? S.kind.levels.find(x => x.level === level) : null;
  return l ? l.name : '';
}

const REASONS = {
  'reduced-to-two': 'A player was reduced to two pieces.',
  repetition: 'The same position occurred three times.',
  'no-capture-100': '100 turns without a capture.',
  regicide: 'The Monarch was captured.',
  elimination: 'Every agent was captured.',
  coronation: 'All Thrones were held.',
  stalemate: 'Stalemate.',
  agreement: 'Drawn by agreement.',
  'flag-captured': 'The Flag was captured.',
  'no-moves': 'A player had no legal move.',
  'icon-destroyed': 'An icon was destroyed.',
  'all-icons-destroyed': 'Every icon was destroyed.',
  'scored-stalemate': 'Agreed stalemate, decided on points.',
  'blocked-cycle': 'Every player was blocked in turn.',
  'ply-limit': 'The game reached the ply limit.',
  resignation: 'A player resigned.',
};

// The hot seat's hand-over screen: shown for `seat` (null hides it); `loading` while the right view loads.
function renderHandOver(seat, loading, plies) {
  const el = $('handover');
  el.classList.toggle('hidden', seat === null && !loading);
  if (seat === null && !loading) return;
  if (loading) {
    $('handover-title').textContent = 'Loading your board…';
    $('handover-last').textContent = '';
    $('handover-show').classList.add('hidden');
    return;
  }
  const side = playerName(seat);
  el.dataset.seat = seat;
  $('handover-title').textContent = `Pass the device to ${side}`;
  const obs = S.observation || {};
  let last = '';
  if (obs.phase === 'setup') {
    const ready = (obs.ready || []).map(playerName);
    last = ready.length ? `${andList(ready)} ${ready.length === 1 ? 'has' : 'have'} set up. ` : '';
    last += `${side} sets up next; ${S.game.seats.length > 2 ? 'everyone else looks' : 'the other side looks'} away.`;
  } else if (plies.length) {
    const p = plies[plies.length - 1];
    last = `Last move: ${p.player === null || p.player === undefined ? '' : `${playerName(p.player)} `}${p.text}${p.detail ? ` (${p.detail})` : ''}.`;
  }
  $('handover-last').textContent = last;
  const btn = $('handover-show');
  btn.classList.remove('hidden');
  btn.textContent = `I am ${side}, show my board`;
}

// The creator's seat hand-over (a server that offers it gave this browser a creator token when the game was
// made; without one the panel stays hidden): per seat, "Hand to AI" at a chosen level, or "Take back" for a
// seat that was handed over (its person's token works again; an open seat is open again). Seats the game was
// created with as AI seats have nothing to hand. Rebuilt only when what it shows changes, so that a level
// being chosen is not swept away by the next move.
function renderSeatAdmin() {
  const panel = $('seat-admin');
  const g = S.game;
  const show = !!S.creator && !isOver() && !!g;
  panel.classList.toggle('hidden', !show);
  if (!show) { panel.dataset.key = ''; return; }
  const key = JSON.stringify([g.seats, S.seatSending, S.seatError]);
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  const levels = (S.kind && S.kind.ai_levels && S.kind.ai_levels.length) ? S.kind.ai_levels : [1, 2, 3];
  const mid = levels[Math.floor((levels.length - 1) / 2)];
  const rows = g.seats.map((s, i) => {
    const side = playerName(i);
    const busy = S.seatSending !== null;
    let control;
    if (s.handed) {
      control = h('button', { type: 'button', class: 'secondary', dataset: { seatTake: i }, disabled: busy, 'aria-label': `Take back ${side}’s seat from the AI` }, 'Take back');
    } else if (s.type === 'ai') {
      control = h('span', { class: 'muted' }, 'an AI seat');
    } else {
      const sel = h('select', { 'aria-label': `AI level for ${side}`, dataset: { seatLevel: i }, disabled: busy },
        ...levels.map(l => h('option', { value: l, selected: l === (S.handLevels[i] ?? mid) }, levelName(l) ? `level ${l} · ${levelName(l)}` : `level ${l}`)));
      sel.addEventListener('change', () => { S.handLevels[i] = Number(sel.value); });
      control = h('span', { class: 'row tight' }, h('button', { type: 'button', class: 'secondary', dataset: { seatHand: i }, disabled: busy, 'aria-label': `Hand ${side}’s seat to the AI` }, 'Hand to AI'), sel);
    }
    return h('li', { dataset: { seat: i, type: s.type, handed: String(!!s.handed) } },
      h('span', {}, h('strong', {}, side), ' · ', s.type === 'open' ? h('em', {}, 'open seat') : seatLabel(s),
        s.handed ? h('em', { class: 'muted' }, ' (handed over)') : null), control);
  });
  $('seat-admin-list').replaceChildren(...rows);
  $('seat-admin-error').textContent = S.seatError;
}

// POST /api/games/{id}/seats/{n} with the creator's token: `{"type":"ai","level":L}` or `{"type":"human"}`.
async function changeSeat(seat, body) {
  S.seatSending = seat;
  S.seatError = '';
  render();
  try {
    const res = await api('POST', `/api/games/${encodeURIComponent(gameId)}/seats/${seat}`, { body, token: S.creator });
    if (res && Array.isArray(res.seats)) S.game.seats = res.seats;
    S.seatSending = null;
    // The seat's new holder may move at once, and this browser may have gained or lost a seat to act for.
    try { await fetchGame(); } catch { /* the socket's updates follow */ }
    if (actingSeat() !== S.wsSeat) connect();
  } catch (e) {
    S.seatSending = null;
    if (e.status === 404 || e.status === 405) {
      // A server without seat hand-over: hide the controls for good.
      S.creator = null;
    } else S.seatError = e.status === 401 ? 'Only the game’s creator can hand seats over.' : e.status === 409 ? 'The game is over.' : e.message;
  }
  render();
}

function renderJoin(openSeats, held) {
  const panel = $('join');
  // Offer the invited seat (?seat=N), or any open seat to a visitor holding no seat in this game.
  let seat = null;
  if (wantSeat !== null && !held.includes(wantSeat)) {
    if (openSeats.some(s => s.seat === wantSeat)) seat = wantSeat;
    else if (!held.length && !isOver()) {
      panel.classList.remove('hidden');
      $('join-title').textContent = `The ${playerName(wantSeat)} seat is taken`;
      $('join-form').classList.add('hidden');
      $('join-error').textContent = 'You are watching this game.';
      return;
    }
  } else if (!held.length && openSeats.length) seat = openSeats[0].seat;
  if (seat === null || isOver()) { panel.classList.add('hidden'); return; }
  panel.classList.remove('hidden');
  $('join-form').classList.remove('hidden');
  $('join-form').dataset.seat = seat;
  $('join-title').textContent = `Join as ${playerName(seat)}`;
  $('join-button').textContent = `Join as ${playerName(seat)}`;
}

function renderInvites(openSeats, held) {
  const show = held.length > 0 && openSeats.length > 0 && !isOver();
  $('invite-panel').classList.toggle('hidden', !show);
  if (!show) return;
  const have = [...$('invites').querySelectorAll('[data-seat]')].map(e => Number(e.dataset.seat));
  if (JSON.stringify(have) === JSON.stringify(openSeats.map(s => s.seat))) return;
  $('invites').replaceChildren(...openSeats.map(s => inviteRow(gameId, s.seat, playerName(s.seat))));
}

start();
