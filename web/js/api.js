// Small helpers shared by every page: HTTP calls to the server's API, the tokens kept in localStorage,
// and DOM construction. No framework; everything here is plain ES modules.
import { h } from './dom.js';

export { h };  // the pages import it from here too

const TOKEN_PREFIX = 'tabula:game:';
const NAME_KEY = 'tabula:name';

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// fetch + JSON. Throws ApiError with the server's {"error": "..."} message on a non-2xx answer.
export async function api(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['Authorization'] = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, 'The server cannot be reached.');
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) throw new ApiError(res.status, (data && data.error) || `${res.status} ${res.statusText}`);
  return data;
}

// Tokens: one localStorage key per game, holding {"tokens": {"<seat>": "<token>"}, "creator": "<token>"}:
// the seats' tokens, and the creator's (a server that hands seats over answers the game's creation with one).
function loadEntry(id) {
  try {
    const v = JSON.parse(localStorage.getItem(TOKEN_PREFIX + id) || 'null');
    return v && typeof v === 'object' ? v : {};
  } catch { return {}; }
}
function saveEntry(id, changes) {
  localStorage.setItem(TOKEN_PREFIX + id, JSON.stringify({ ...loadEntry(id), ...changes, saved: Date.now() }));
}
export function loadTokens(id) { return loadEntry(id).tokens || {}; }
export function saveTokens(id, tokens) { saveEntry(id, { tokens: { ...loadTokens(id), ...tokens } }); }
export function loadCreator(id) { return loadEntry(id).creator || null; }
export function saveCreator(id, token) { saveEntry(id, { creator: token }); }
export function forgetTokens(id) { localStorage.removeItem(TOKEN_PREFIX + id); }
// Ids of every game this browser holds a token for, most recent first.
export function myGameIds() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (!k || !k.startsWith(TOKEN_PREFIX)) continue;
    let saved = 0;
    try { saved = JSON.parse(localStorage.getItem(k)).saved || 0; } catch { /* ignore */ }
    out.push([k.slice(TOKEN_PREFIX.length), saved]);
  }
  return out.sort((a, b) => b[1] - a[1]).map(x => x[0]);
}
// Names in words: "Ivory", "Ivory and Jade", "Ivory, Ember and Indigo".
export function andList(items) {
  const a = [...items].map(String);
  return a.length <= 1 ? a.join('') : `${a.slice(0, -1).join(', ')} and ${a[a.length - 1]}`;
}

export function myName() { return localStorage.getItem(NAME_KEY) || ''; }
export function setMyName(n) { if (n) localStorage.setItem(NAME_KEY, n); }


// Copies text; falls back to selecting an input when the Clipboard API is refused.
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) { input.focus(); input.select(); }
    try { return document.execCommand('copy'); } catch { return false; }
  }
}

export function inviteUrl(id, seat) {
  return new URL(`/game.html?id=${encodeURIComponent(id)}&seat=${seat}`, location.href).href;
}

export function timeAgo(created) {
  const t = typeof created === 'number' ? (created < 1e12 ? created * 1000 : created) : Date.parse(created);
  if (!Number.isFinite(t)) return '';
  const s = Math.max(0, Math.round((Date.now() - t) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(t).toLocaleDateString();
}

// One invite link with its copy button.
export function inviteRow(id, seat, side) {
  const url = inviteUrl(id, seat);
  const input = h('input', { type: 'text', readonly: true, value: url, 'aria-label': `Invite link for ${side}`, class: 'invite-link', dataset: { seat } });
  const note = h('span', { class: 'muted', 'aria-live': 'polite' });
  const btn = h('button', { type: 'button', class: 'secondary', 'aria-label': `Copy the invite link for ${side}`,
    onclick: async () => { note.textContent = (await copyText(url, input)) ? 'Copied.' : 'Select the link and copy it.'; } }, 'Copy link');
  return h('div', { class: 'invite', dataset: { seat } }, h('span', {}, `${side}:`), input, btn, note);
}
