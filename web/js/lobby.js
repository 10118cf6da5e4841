// The lobby: create a game, and the lists of open games, my games and recent games.

import { api, saveTokens, loadTokens, myGameIds, myName, setMyName, h, inviteRow, timeAgo } from './api.js';
import { gameInfo, playerName, seatLabel, GAMES } from './games/registry.js';

const $ = (id) => document.getElementById(id);
let kinds = [];

function kindOf(name) { return kinds.find(k => k.name === name); }

async function init() {
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
  $('count').addEventListener('change', seatsChanged);
  $('new-game').addEventListener('submit', create);
  $('another').addEventListener('click', () => {
    $('created').classList.add('hidden');
    $('new-game').classList.remove('hidden');
  });
  kindChanged();
  refreshLists();
  setInterval(refreshLists, 15000);
}

function kindChanged() {
  const k = kindOf($('kind').value);
  if (!k) return;
  const counts = k.player_counts || [2];
  $('count').replaceChildren(...counts.map(n => h('option', { value: n }, `${n} players`)));
  $('count-label').classList.toggle('hidden', counts.length < 2);
  const info = gameInfo(k.name, k);
  $('kind-rules').classList.toggle('hidden', !info.rules);
  if (info.rules) $('kind-rules').href = info.rules;
  renderOptions(k.options || {}, info.options || {});
  seatsChanged();
}

// Options are described by the server as name -> default value (or a list of choices).
// `labels` (from the registry) names them in words.
function renderOptions(options, labels = {}) {
  const order = Object.keys(labels);
  const rank = (n) => (order.includes(n) ? order.indexOf(n) : order.length);
  const entries = Object.entries(options).sort((a, b) => rank(a[0]) - rank(b[0]));
  $('options').replaceChildren(...entries.map(([name, def]) => {
    const label = labels[name] || name.replace(/_/g, ' ');
    let input;
    if (typeof def === 'boolean') input = h('input', { type: 'checkbox', name, checked: def, dataset: { opt: name, kind: 'bool' } });
    else if (typeof def === 'number') input = h('input', { type: 'number', name, value: def, dataset: { opt: name, kind: 'number' } });
    else if (Array.isArray(def)) input = h('select', { name, dataset: { opt: name, kind: 'string' } }, ...def.map(v => h('option', { value: v }, String(v))));
    else if (def && typeof def === 'object' && Array.isArray(def.choices)) {
      input = h('select', { name, dataset: { opt: name, kind: 'string' } }, ...def.choices.map(v => h('option', { value: v, selected: v === def.default }, String(v))));
    } else input = h('input', { type: 'text', name, value: def ?? '', dataset: { opt: name, kind: 'string' } });
    return typeof def === 'boolean' ? h('label', { class: 'check' }, input, label) : h('label', {}, label, input);
  }));
}

function readOptions() {
  const out = {};
  for (const el of $('options').querySelectorAll('[data-opt]')) {
    const k = el.dataset.kind;
    out[el.dataset.opt] = k === 'bool' ? el.checked : k === 'number' ? Number(el.value) : el.value;
  }
  return out;
}

function seatsChanged() {
  const k = kindOf($('kind').value);
  if (!k) return;
  const n = Number($('count').value) || (k.player_counts || [2])[0];
  const levels = k.ai_levels || [];
  const mid = levels[Math.floor((levels.length - 1) / 2)] ?? 1;
  $('seat-rows').replaceChildren(...Array.from({ length: n }, (_, i) => {
    const side = playerName(k.name, i);
    const sel = h('select', { id: `seat-${i}`, 'aria-label': `Who plays ${side}`, dataset: { seat: i } },
      h('option', { value: 'me', selected: i === 0 }, 'Me'),
      ...levels.map(l => h('option', { value: `ai:${l}`, selected: i > 0 && l === mid }, `AI level ${l}`)),
      h('option', { value: 'open' }, 'Invite a friend'));
    return h('div', { class: 'seat-row' }, h('span', { class: 'side' }, side), h('label', {}, `Seat ${i + 1}`, sel));
  }));
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
  $('create-error').textContent = '';
  if (!seats.some(s => s.type === 'human')) {
    $('create-error').textContent = 'Take at least one seat yourself (choose "Me").';
    return;
  }
  $('create').disabled = true;
  try {
    const res = await api('POST', '/api/games', { body: { game, options: readOptions(), seats } });
    saveTokens(res.id, res.tokens || {});
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
        return link(`/game.html?id=${encodeURIComponent(it.id)}`, it.status === 'over' ? 'Replay' : 'Resume',
          `${it.status === 'over' ? 'Replay' : 'Resume'} game ${it.id} (you play ${sides})`);
      });
    }));
  } else fill('mine', [], () => null);
  const results = await Promise.allSettled(tasks);
  const failed = results.find(r => r.status === 'rejected');
  $('lobby-error').textContent = failed ? `Could not load the game lists: ${failed.reason.message}` : '';
}

init();
