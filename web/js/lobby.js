// The lobby: create a game, and the lists of open games, my games and recent games.

import { api, saveTokens, saveCreator, loadTokens, myGameIds, myName, setMyName, h, inviteRow, timeAgo } from './api.js';
import { gameInfo, playerName, seatLabel, levelInfo, GAMES } from './games/registry.js';
import { wireThemeSelect } from './theme.js';

const $ = (id) => document.getElementById(id);
let kinds = [];

function kindOf(name) { return kinds.find(k => k.name === name); }

// A kind's ways to seat it (GET /api/games/kinds `variants`): one per player count, with the options a game
// for that many takes and their defaults (a server without variants: one per count, the kind's options).
function variantsOf(k) {
  if (Array.isArray(k.variants) && k.variants.length) return k.variants;
  return (k.player_counts || [2]).map(players => ({ players, arrangements: Object.keys(k.arrangements || {}), options: k.options || {} }));
}
function chosenVariant() {
  const k = kindOf($('kind').value);
  if (!k) return null;
  const vs = variantsOf(k);
  return vs.find(v => v.players === Number($('count').value)) || vs[0];
}
// The options the player count decides (their value differs between the kind's variants, like Truth's
// `players`): not shown as fields, sent as the chosen count's variant says.
function countOptions(k) {
  const vs = variantsOf(k);
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  return new Set(Object.keys(vs[0].options || {}).filter(name => vs.some(v => !same((v.options || {})[name], vs[0].options[name]))));
}

async function init() {
  wireThemeSelect($('theme'));
  $('name').value = myName();
  try {
    kinds = await api('GET', '/api/games/kinds');
  } catch (e) {
    $('create-error').textContent = `Cannot load the list of games: ${e.message}`;
    kinds = [];
  }
  $('kind').replaceChildren(...kinds.map(k => h('option', { value: k.name }, gameInfo(k.name, k).title)));
  // Rules links for every game this browser knows.
  $('rules-nav').replaceChildren(...kinds.filter(k => GAMES[k.name] && GAMES[k.name].rules)
    .map(k => h('a', { href: GAMES[k.name].rules }, `${gameInfo(k.name, k).title} rules`)));
  $('kind').addEventListener('change', kindChanged);
  $('count').addEventListener('change', countChanged);
  $('new-game').addEventListener('submit', create);
  $('another').addEventListener('click', () => {
    $('created').classList.add('hidden');
    $('new-game').classList.remove('hidden');
  });
  $('import-form').addEventListener('submit', importRecord);
  $('import-file').addEventListener('change', readImportFile);
  kindChanged();
  refreshLists();
  setInterval(refreshLists, 15000);
}

function kindChanged() {
  const k = kindOf($('kind').value);
  if (!k) return;
  const counts = variantsOf(k).map(v => v.players);
  $('count').replaceChildren(...counts.map(n => h('option', { value: n }, `${n} players`)));
  $('count-label').classList.toggle('hidden', counts.length < 2);
  const info = gameInfo(k.name, k);
  $('kind-rules').classList.toggle('hidden', !info.rules);
  if (info.rules) $('kind-rules').href = info.rules;
  countChanged();
}

// A number of players chosen: that variant's options (less those the count decides) and one seat per player.
function countChanged() {
  const k = kindOf($('kind').value);
  const v = chosenVariant();
  if (!k || !v) return;
  const info = gameInfo(k.name, k);
  const decided = countOptions(k);
  const shown = Object.fromEntries(Object.entries(v.options || {}).filter(([name]) => !decided.has(name)));
  renderOptions(shown, info.options || {}, info.optionKinds || {}, info.optionDefaults || {});
  seatsChanged();
}

// Options are described by the server as name -> default value (or a list of choices).
// `labels` (from the registry) names them in words; `kinds` (the registry's `optionKinds`) says how to draw
// an option whose default alone does not tell: `choices` (a select), `multi` (checkboxes sent as a list).
// `defaults` (the registry's `optionDefaults`) pre-sets an option where the lobby's choice differs from the
// server's default; `showWhen` in a kind shows the field only under another option's value (FACET's seed:
// only for the random layout).
function renderOptions(options, labels = {}, kinds = {}, defaults = {}) {
  const order = Object.keys(labels);
  const rank = (n) => (order.includes(n) ? order.indexOf(n) : order.length);
  const entries = Object.entries(options).map(([name, def]) => [name, name in defaults ? defaults[name] : def])
    .sort((a, b) => rank(a[0]) - rank(b[0]));
  $('options').replaceChildren(...entries.map(([name, def]) => {
    const label = labels[name] || name.replace(/_/g, ' ');
    const kind = kinds[name] || {};
    let input;
    if (kind.multi) {
      const chosen = new Set(Array.isArray(def) ? def : []);
      const words = kind.labels || {};
      return h('fieldset', { class: 'opt-multi', dataset: { opt: name, kind: 'multi' } },
        h('legend', { class: 'muted' }, label),
        ...kind.multi.map(v => h('label', { class: 'check' },
          h('input', { type: 'checkbox', value: v, checked: chosen.has(v), dataset: { optValue: v }, onchange: () => multiChanged(name, v) }),
          words[v] || v)));
    }
    if (kind.choices) {
      const words = kind.labels || {};
      input = h('select', { name, dataset: { opt: name, kind: 'string' }, onchange: () => choiceChanged(name) },
        ...kind.choices.map(v => h('option', { value: v, selected: v === def }, words[v] || String(v))));
    } else if (typeof def === 'boolean') input = h('input', { type: 'checkbox', name, checked: def, dataset: { opt: name, kind: 'bool' } });
    else if (typeof def === 'number') input = h('input', { type: 'number', name, value: def, min: kind.randomWhen ? 0 : undefined, dataset: { opt: name, kind: 'number' } });
    else if (Array.isArray(def)) input = h('select', { name, dataset: { opt: name, kind: 'string' } }, ...def.map(v => h('option', { value: v }, String(v))));
    else if (def && typeof def === 'object' && Array.isArray(def.choices)) {
      input = h('select', { name, dataset: { opt: name, kind: 'string' } }, ...def.choices.map(v => h('option', { value: v, selected: v === def.default }, String(v))));
    } else input = h('input', { type: 'text', name, value: def ?? '', dataset: { opt: name, kind: 'string' } });
    return typeof def === 'boolean' ? h('label', { class: 'check', dataset: { optLabel: name } }, input, label) : h('label', { dataset: { optLabel: name } }, label, input);
  }));
  showOptionsWhen();
}

// Shows each option field whose `showWhen` holds and hides the others (a hidden field still sends its value).
function showOptionsWhen() {
  for (const [name, kind] of Object.entries(optionKinds())) {
    if (!kind.showWhen) continue;
    const label = $('options').querySelector(`[data-opt-label="${name}"]`);
    if (!label) continue;
    const ok = Object.entries(kind.showWhen).every(([other, value]) => {
      const el = $('options').querySelector(`[data-opt="${other}"]`);
      return el && el.value === value;
    });
    label.classList.toggle('hidden', !ok);
  }
}

function optionKinds() {
  const k = kindOf($('kind').value);
  return (k && gameInfo(k.name, k).optionKinds) || {};
}

// A checkbox of a `multi` option: ticking one clears the ones it excludes (e.g. momentum and decay).
function multiChanged(name, value) {
  const kind = optionKinds()[name] || {};
  const box = $('options').querySelector(`[data-opt="${name}"] [data-opt-value="${value}"]`);
  if (!box || !box.checked) return;
  for (const other of (kind.excludes || {})[value] || []) {
    const o = $('options').querySelector(`[data-opt="${name}"] [data-opt-value="${other}"]`);
    if (o) o.checked = false;
  }
}

// A select of `choices`: an option that wants a random value under this choice (a layout seed) gets one.
function choiceChanged(name) {
  const value = $('options').querySelector(`[data-opt="${name}"]`).value;
  for (const [other, kind] of Object.entries(optionKinds())) {
    if (!kind.randomWhen || kind.randomWhen[name] !== value) continue;
    const el = $('options').querySelector(`[data-opt="${other}"]`);
    if (el && Number(el.value) === 0) el.value = String(randomBelow(1000000) + 1);
  }
  showOptionsWhen();
}

// Uniform in [0, n) from the cryptographic source.
function randomBelow(n) {
  const buf = new Uint32Array(1);
  const limit = Math.floor(0x100000000 / n) * n;
  for (;;) {
    crypto.getRandomValues(buf);
    if (buf[0] < limit) return buf[0] % n;
  }
}

function readOptions() {
  const k = kindOf($('kind').value);
  const v = chosenVariant();
  const out = {};
  if (k && v) for (const name of countOptions(k)) out[name] = v.options[name];
  for (const el of $('options').querySelectorAll('[data-opt]')) {
    const k = el.dataset.kind;
    if (k === 'multi') out[el.dataset.opt] = [...el.querySelectorAll('[data-opt-value]')].filter(b => b.checked).map(b => b.value);
    else out[el.dataset.opt] = k === 'bool' ? el.checked : k === 'number' ? Number(el.value) : el.value;
  }
  return out;
}

function seatsChanged() {
  const k = kindOf($('kind').value);
  if (!k) return;
  const n = Number($('count').value) || variantsOf(k)[0].players;
  const levels = k.ai_levels || [];
  const mid = levels[Math.floor((levels.length - 1) / 2)] ?? 1;
  $('seat-rows').replaceChildren(...Array.from({ length: n }, (_, i) => {
    const side = playerName(k.name, i);
    const sel = h('select', { id: `seat-${i}`, 'aria-label': `Who plays ${side}`, dataset: { seat: i }, onchange: seatChosen },
      h('option', { value: 'me', selected: i === 0 }, 'Me'),
      ...levels.map(l => h('option', { value: `ai:${l}`, selected: i > 0 && l === mid }, levelInfo(k, l).label)),
      h('option', { value: 'open' }, 'Invite a friend'));
    return h('div', { class: 'seat-row' }, h('span', { class: 'side', dataset: { side: i } }, side), h('label', {}, `Seat ${i + 1}`, sel),
      h('small', { class: 'level-desc muted', id: `seat-${i}-level`, dataset: { levelDesc: i }, 'aria-live': 'polite' }));
  }));
  renderSideChoice(k, n);
  describeLevels();
}

// Beside each seat played by the AI: what its level does (the kinds answer's description).
function describeLevels() {
  const k = kindOf($('kind').value);
  for (const sel of seatSelects()) {
    const el = $(`seat-${sel.dataset.seat}-level`);
    if (!el) continue;
    const ai = sel.value.startsWith('ai:');
    const info = ai ? levelInfo(k, Number(sel.value.split(':')[1])) : null;
    el.textContent = info ? info.description : '';
    el.dataset.level = ai ? sel.value.split(':')[1] : '';
    el.classList.toggle('hidden', !info || !info.description);
    if (ai && info.description) sel.setAttribute('aria-describedby', el.id); else sel.removeAttribute('aria-describedby');
  }
}

// "Play as White / Black / Random" for a two-player game in which this browser takes exactly one seat.
// Choosing a side moves "Me" to that seat and the opponent (an AI level or an invited friend) to the other;
// Random leaves the choice to crypto.getRandomValues when the game is created.
function renderSideChoice(k, n) {
  let box = $('side-choice');
  if (!box) {
    box = h('div', { id: 'side-choice', class: 'row side-choice', role: 'radiogroup', 'aria-label': 'Play as' });
    $('seat-rows').before(box);
  }
  if (n !== 2) { box.replaceChildren(); box.classList.add('hidden'); return; }
  const radio = (value, text) => h('label', { class: 'check' },
    h('input', { type: 'radio', name: 'side', id: `side-${value}`, value, onchange: sideChosen }), text);
  box.replaceChildren(h('span', { class: 'side-label' }, 'Play as'),
    radio('0', playerName(k.name, 0)), radio('1', playerName(k.name, 1)), radio('random', 'Random'),
    h('span', { id: 'side-note', class: 'muted' }));
  syncSideChoice();
}

const seatSelects = () => [...$('seat-rows').querySelectorAll('select')];
const mySeats = () => seatSelects().filter(s => s.value === 'me').map(s => Number(s.dataset.seat));

// Shows the side choice only while exactly one of two seats is "Me", and checks the side that seat is.
function syncSideChoice() {
  const box = $('side-choice');
  if (!box || !box.childNodes.length) return;
  const mine = mySeats();
  const show = seatSelects().length === 2 && mine.length === 1;
  box.classList.toggle('hidden', !show);
  const random = $('side-random');
  if (show && !random.checked) $(`side-${mine[0]}`).checked = true;
  if (!show) random.checked = false;
  const k = kindOf($('kind').value);
  const isRandom = show && random.checked;
  $('side-note').textContent = isRandom ? 'Your side is drawn when the game is created.' : '';
  for (const el of $('seat-rows').querySelectorAll('[data-side]')) {
    const i = Number(el.dataset.side);
    el.textContent = isRandom ? (mine.includes(i) ? 'Your side' : 'The other') : playerName(k.name, i);
  }
}

function sideChosen(e) {
  const v = e.target.value;
  if (v !== 'random') {
    const want = Number(v);
    const sels = seatSelects();
    const mine = mySeats();
    if (mine.length === 1 && mine[0] !== want) {
      const other = sels[want].value;
      sels[want].value = 'me';
      sels[mine[0]].value = other;
    }
  }
  syncSideChoice();
  describeLevels();
}

function seatChosen() {
  // A seat changed by hand: the side choice follows it (Random stays Random while one seat is "Me").
  syncSideChoice();
  describeLevels();
}

async function create(e) {
  e.preventDefault();
  const game = $('kind').value;
  const name = $('name').value.trim() || 'Player';
  setMyName($('name').value.trim());
  const seats = [...$('seat-rows').querySelectorAll('select')].map(sel => {
    const v = sel.value;
    if (v === 'me') return { type: 'human', name };
    if (v === 'open') return { type: 'open' };
    return { type: 'ai', level: Number(v.split(':')[1]) };
  });
  // Play as Random: one draw from the cryptographic source decides which seat is mine.
  const random = $('side-random');
  if (random && random.checked && !$('side-choice').classList.contains('hidden') && seats.length === 2) {
    const want = randomBelow(2);
    const mine = seats.findIndex(s => s.type === 'human');
    if (mine !== want) seats.reverse();
  }
  $('create-error').textContent = '';
  if (!seats.some(s => s.type === 'human')) {
    $('create-error').textContent = 'Take at least one seat yourself (choose "Me").';
    return;
  }
  $('create').disabled = true;
  try {
    const res = await api('POST', '/api/games', { body: { game, options: readOptions(), seats } });
    saveTokens(res.id, res.tokens || {});
    // The creator's token (servers that hand seats over send one): the game page's "Hand to AI" buttons.
    if (res.creator) saveCreator(res.id, res.creator);
    const url = `/game.html?id=${encodeURIComponent(res.id)}`;
    const open = seats.map((s, i) => [s, i]).filter(([s]) => s.type === 'open');
    if (!open.length) { location.href = url; return; }
    $('created-invites').replaceChildren(...open.map(([, i]) => inviteRow(res.id, i, playerName(game, i))));
    $('go').href = url;
    $('new-game').classList.add('hidden');
    $('created').classList.remove('hidden');
    refreshLists();
  } catch (err) {
    $('create-error').textContent = err.message;
  } finally {
    $('create').disabled = false;
  }
}

// Import a record (docs/records.md): its text, pasted or read from a file, posted as `POST /api/records`; the
// server replays it as a finished game, which opens on its replay. The game is remembered under "My games" (with
// no seat: nobody plays it).
async function readImportFile() {
  const file = $('import-file').files[0];
  if (!file) return;
  $('import-error').textContent = '';
  if (file.size > 1024 * 1024) { $('import-error').textContent = 'That file is over 1 MB: no record is that long.'; return; }
  try { $('import-text').value = await file.text(); } catch (e) { $('import-error').textContent = `Cannot read the file: ${e.message}`; }
}

async function importRecord(e) {
  e.preventDefault();
  const text = $('import-text').value;
  $('import-error').textContent = '';
  if (!text.trim()) { $('import-error').textContent = 'Paste a record or choose a file first.'; return; }
  $('import').disabled = true;
  try {
    const res = await api('POST', '/api/records', { body: { text } });
    saveTokens(res.id, {});
    location.href = `/game.html?id=${encodeURIComponent(res.id)}`;
  } catch (err) {
    $('import-error').textContent = `The record was refused: ${err.message}`;
    $('import').disabled = false;
  }
}

function seatsText(item) {
  return (item.seats || []).map((s, i) => `${playerName(item.game, i)}: ${seatLabel(s)}`).join(' · ');
}

function gameRow(item, action) {
  const info = gameInfo(item.game, kindOf(item.game));
  const status = item.status === 'over' ? 'finished' : item.status === 'open' ? 'waiting for players' : 'in play';
  return h('li', { dataset: { id: item.id, status: item.status } },
    h('span', { class: 'what' }, h('strong', {}, info.title), h('small', {}, seatsText(item)),
      h('small', {}, `${status}${item.created ? ` · ${timeAgo(item.created)}` : ''}`)),
    action);
}

function fill(listId, items, action) {
  $(listId).replaceChildren(...items.map(it => gameRow(it, action(it))));
  $(`${listId}-empty`).classList.toggle('hidden', items.length > 0);
}

async function refreshLists() {
  const ids = myGameIds();
  const mineSet = new Set(ids);
  const link = (href, text, label) => h('a', { class: 'button secondary', href, 'aria-label': label }, text);
  const tasks = [
    api('GET', '/api/games?status=open').then(items => fill('open', items.filter(it => !mineSet.has(it.id)), it => {
      const seat = (it.seats || []).find(s => s.type === 'open');
      const i = seat ? seat.seat ?? it.seats.indexOf(seat) : 0;
      const side = playerName(it.game, i);
      return link(`/game.html?id=${encodeURIComponent(it.id)}&seat=${i}`, `Join as ${side}`, `Join game ${it.id} as ${side}`);
    })),
    api('GET', '/api/games').then(items => fill('recent', items, it =>
      link(`/game.html?id=${encodeURIComponent(it.id)}`, mineSet.has(it.id) ? 'Open' : 'Watch', `Watch game ${it.id}`))),
  ];
  if (ids.length) {
    tasks.push(api('GET', `/api/games?ids=${ids.slice(0, 50).map(encodeURIComponent).join(',')}`).then(items => {
      const order = new Map(ids.map((id, i) => [id, i]));
      items.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
      fill('mine', items, it => {
        const held = Object.keys(loadTokens(it.id)).map(Number);
        const sides = held.map(i => playerName(it.game, i)).join(' & ');
        // (An imported record is remembered with no seat: nobody plays it.)
        return link(`/game.html?id=${encodeURIComponent(it.id)}`, it.status === 'over' ? 'Replay' : 'Resume',
          `${it.status === 'over' ? 'Replay' : 'Resume'} game ${it.id}${held.length ? ` (you play ${sides})` : ''}`);
      });
    }));
  } else fill('mine', [], () => null);
  const results = await Promise.allSettled(tasks);
  const failed = results.find(r => r.status === 'rejected');
  $('lobby-error').textContent = failed ? `Could not load the game lists: ${failed.reason.message}` : '';
}

init();
