// The Stratego board: a 10×10 SVG board with its two lakes, the setup editor, battle reveals, the
// captured-pieces trays and the module interface the game page (web/js/game.js) uses. See docs/ui.md.
//
// This module never applies Stratego's rules to decide anything. What may be moved and where comes only
// from the server's `legal` list ("b4-b5"). The rules appear here in two harmless places: `whyNot()`
// puts a rejected drop into words ("a Bomb never moves"), and `applyPly()` redraws a replay position from
// battle events whose outcome the server already decided.
import { svg, h as html } from '../dom.js';
import { wireSquareInput } from './square-input.js';
import { randomInt, shuffle, savedSetups, humanName } from './setup-common.js';
import { offerWords } from './offer-words.js';

const FILES = 'abcdefghij';
export const LAKES = ['c5', 'd5', 'c6', 'd6', 'g5', 'h5', 'g6', 'h6'];

// Kind letter -> name, rank (null for Bomb and Flag), count per army.
export const KINDS = {
  M: { name: 'Marshal', rank: 10, count: 1 },
  G: { name: 'General', rank: 9, count: 1 },
  C: { name: 'Colonel', rank: 8, count: 2 },
  J: { name: 'Major', rank: 7, count: 3 },
  P: { name: 'Captain', rank: 6, count: 4 },
  L: { name: 'Lieutenant', rank: 5, count: 4 },
  T: { name: 'Sergeant', rank: 4, count: 4 },
  N: { name: 'Miner', rank: 3, count: 5 },
  O: { name: 'Scout', rank: 2, count: 8 },
  S: { name: 'Spy', rank: 1, count: 1 },
  B: { name: 'Bomb', rank: null, count: 6 },
  F: { name: 'Flag', rank: null, count: 1 },
};
export const KIND_ORDER = 'MGCJPLTNOSBF';
const SETUPS_KEY = 'tabula:stratego:setups';

const PLAYERS = [
  { name: 'Red', fill: 'var(--st-red)', edge: 'var(--st-red-edge)', desc: 'moves first, sets up on ranks 1–4' },
  { name: 'Blue', fill: 'var(--st-blue)', edge: 'var(--st-blue-edge)', desc: 'sets up on ranks 7–10' },
];

// ---------------------------------------------------------------------------------------------
// Squares

const fileOf = (sq) => FILES.indexOf(sq[0]);
const rankOf = (sq) => Number(sq.slice(1));
const sqName = (f, r) => `${FILES[f]}${r}`;
export const isLake = (sq) => LAKES.includes(sq);
// Player 0's view of a square of player 1 and back: files a<->j, rank r -> 11-r.
export const rotate = (sq) => sqName(9 - fileOf(sq), 11 - rankOf(sq));
export function homeSquares(player) {
  const out = [];
  const ranks = player === 0 ? [1, 2, 3, 4] : [7, 8, 9, 10];
  for (const r of ranks) for (let f = 0; f < 10; f++) out.push(sqName(f, r));
  return out;
}
const ALL_SQUARES = [];
for (let r = 1; r <= 10; r++) for (let f = 0; f < 10; f++) ALL_SQUARES.push(sqName(f, r));

// Board coordinates of a square's top-left corner; Blue's view is the board turned 180°.
function xy(sq, flip) {
  const f = fileOf(sq);
  const r = rankOf(sq);
  return flip ? [9 - f, r - 1] : [f, 10 - r];
}
function squareAtXY(x, y, flip) {
  const c = Math.floor(x);
  const row = Math.floor(y);
  if (c < 0 || c > 9 || row < 0 || row > 9) return null;
  return flip ? sqName(9 - c, row + 1) : sqName(c, 10 - row);
}

const kindOf = (piece) => (piece ? piece[piece.length - 1] : null);
const ownerOf = (piece) => (piece && /^[01]/.test(piece) ? Number(piece[0]) : null);
export function pieceName(piece) {
  const k = KINDS[kindOf(piece)];
  if (!k) return 'unknown piece';
  return k.rank ? `${k.name} (${k.rank})` : k.name;
}
const bare = (piece) => { const k = KINDS[kindOf(piece)]; return k ? k.name : 'unknown piece'; };

// "b4-b5" -> { str, from, to }
export function parseMove(s) {
  const m = /^([a-j](?:10|[1-9]))-([a-j](?:10|[1-9]))$/.exec(s);
  return m ? { str: s, from: m[1], to: m[2] } : null;
}


// ---------------------------------------------------------------------------------------------
// Drawing

const VIEW = { x: -0.55, y: -1.2, w: 10.75, h: 12.75 };
const TRAY_Y = { top: -1.1, bottom: 10.45 }; // 0.9 high each

function drawGrid(root, flip, { dimRanks = null } = {}) {
  root.append(svg('rect', { class: 'st-bg', x: -0.08, y: -0.08, width: 10.16, height: 10.16, rx: 0.12 }));
  for (const sq of ALL_SQUARES) {
    const [x, y] = xy(sq, flip);
    const dark = (fileOf(sq) + rankOf(sq)) % 2 === 0;
    const dim = dimRanks && !dimRanks.includes(rankOf(sq));
    root.append(svg('rect', { class: `st-sq${dark ? ' dark' : ''}${dim ? ' dim' : ''}`, x, y, width: 1, height: 1 }));
  }
  // Lakes: two 2×2 pools of water.
  for (const corner of ['c6', 'g6']) {
    const [x0, y0] = xy(corner, flip);
    const [x1, y1] = xy(sqName(fileOf(corner) + 1, 5), flip);
    const x = Math.min(x0, x1);
    const y = Math.min(y0, y1);
    const g = svg('g', { class: 'st-lake', 'aria-hidden': 'true' });
    g.append(svg('rect', { x: x + 0.04, y: y + 0.04, width: 1.92, height: 1.92, rx: 0.35 }));
    for (let i = 0; i < 3; i++) {
      const wy = y + 0.55 + i * 0.45;
      g.append(svg('path', { class: 'wave', d: `M${x + 0.35} ${wy} q.22 -.14 .44 0 t.44 0 t.44 0` }));
    }
    root.append(g);
  }
  for (let c = 0; c < 10; c++) {
    const f = flip ? 9 - c : c;
    root.append(svg('text', { class: 'st-coords', x: c + 0.5, y: 10.33, 'text-anchor': 'middle' }, FILES[f]));
  }
  for (let row = 0; row < 10; row++) {
    const r = flip ? row + 1 : 10 - row;
    root.append(svg('text', { class: 'st-coords', x: -0.28, y: row + 0.58, 'text-anchor': 'middle' }, String(r)));
  }
}

function bombIcon(cx, cy, s) {
  return svg('g', { class: 'icon bomb' },
    svg('circle', { class: 'body', cx: cx - 0.02 * s, cy: cy + 0.04 * s, r: 0.15 * s }),
    svg('path', { class: 'fuse', d: `M${cx + 0.07 * s} ${cy - 0.07 * s} q${0.05 * s} ${-0.1 * s} ${0.14 * s} ${-0.09 * s}`, 'stroke-width': 0.035 * s }),
    svg('circle', { class: 'spark', cx: cx + 0.22 * s, cy: cy - 0.16 * s, r: 0.04 * s }));
}
function flagIcon(cx, cy, s) {
  return svg('g', { class: 'icon flag' },
    svg('path', { class: 'pole', d: `M${cx - 0.12 * s} ${cy + 0.2 * s} V${cy - 0.2 * s}`, 'stroke-width': 0.04 * s }),
    svg('path', { class: 'cloth', d: `M${cx - 0.1 * s} ${cy - 0.2 * s} L${cx + 0.2 * s} ${cy - 0.09 * s} L${cx - 0.1 * s} ${cy + 0.02 * s} Z` }));
}

// One piece tile at (x, y) (the square's corner). `faceUp` draws its rank and name.
function drawPiece(x, y, piece, { faceUp = true, size = 1, marks = {} } = {}) {
  const owner = ownerOf(piece);
  const kind = kindOf(piece);
  const info = KINDS[kind];
  const s = size;
  const g = svg('g', { class: `st-piece p${owner}${faceUp && info ? '' : ' down'}` });
  g.append(svg('rect', { class: 'tile', x: x + 0.07 * s, y: y + 0.07 * s, width: 0.86 * s, height: 0.86 * s, rx: 0.13 * s }));
  const cx = x + 0.5 * s;
  if (faceUp && info) {
    if (info.rank) g.append(svg('text', { class: 'rank', x: cx, y: y + 0.53 * s, 'font-size': (info.rank === 10 ? 0.4 : 0.44) * s, 'text-anchor': 'middle' }, String(info.rank)));
    else g.append(kind === 'B' ? bombIcon(cx, y + 0.38 * s, s) : flagIcon(cx, y + 0.38 * s, s));
    if (s >= 0.9) g.append(svg('text', { class: 'name', x: cx, y: y + 0.81 * s, 'font-size': (info.name.length > 8 ? 0.135 : 0.16) * s, 'text-anchor': 'middle' }, info.name));
  } else {
    // Face down: the army's emblem, no identity.
    g.append(svg('path', { class: 'emblem', d: `M${cx} ${y + 0.26 * s} l${0.2 * s} ${0.24 * s} l${-0.2 * s} ${0.24 * s} l${-0.2 * s} ${-0.24 * s} Z` }));
  }
  if (marks.revealed) {
    // An eye in the top-right corner: this piece's identity is known to both players.
    const ex = x + 0.78 * s;
    const ey = y + 0.2 * s;
    g.append(svg('g', { class: 'mark-revealed' },
      svg('path', { d: `M${ex - 0.1 * s} ${ey} q${0.1 * s} ${-0.09 * s} ${0.2 * s} 0 q${-0.1 * s} ${0.09 * s} ${-0.2 * s} 0 Z` }),
      svg('circle', { cx: ex, cy: ey, r: 0.03 * s })));
  }
  if (marks.moved) {
    // A small chevron in the top-left corner: this piece has moved (so it is no Bomb or Flag).
    const mx = x + 0.2 * s;
    const my = y + 0.2 * s;
    g.append(svg('path', { class: 'mark-moved', d: `M${mx - 0.07 * s} ${my + 0.05 * s} l${0.07 * s} ${-0.08 * s} l${0.07 * s} ${0.08 * s}` }));
  }
  return g;
}

function drawTray(root, y, player, lost, flip) {
  const counts = {};
  for (const k of lost) counts[k] = (counts[k] || 0) + 1;
  const n = lost.length;
  const g = svg('g', { class: 'st-tray', 'data-tray': player, 'data-count': n, role: 'img',
    'aria-label': `${PLAYERS[player].name} has lost ${n ? lost.map(k => bare(k)).join(', ') : 'nothing'}` });
  g.append(svg('rect', { class: 'tray-bg', x: -0.08, y, width: 10.16, height: 0.9, rx: 0.12 }));
  g.append(svg('text', { class: 'tray-label', x: 0.08, y: y + 0.38 }, `${PLAYERS[player].name} lost`));
  g.append(svg('text', { class: 'tray-label count', x: 0.08, y: y + 0.72 }, n ? `${n} piece${n === 1 ? '' : 's'}` : 'none yet'));
  let i = 0;
  for (const k of KIND_ORDER) {
    if (!counts[k]) continue;
    const x = 1.55 + i * 0.71;
    const pg = drawPiece(x, y + 0.08, `${player}${k}`, { size: 0.74 });
    pg.setAttribute('data-kind', k);
    g.append(pg);
    if (counts[k] > 1) {
      // A badge on the tile's corner: how many of that kind.
      g.append(svg('circle', { class: 'tray-badge', cx: x + 0.64, cy: y + 0.16, r: 0.14 }));
      g.append(svg('text', { class: 'tray-n', x: x + 0.64, y: y + 0.23, 'text-anchor': 'middle' }, String(counts[k])));
    }
    i++;
  }
  void flip;
  root.append(g);
}

// ---------------------------------------------------------------------------------------------
// Words for battles and for moves the board refuses

function battleOutcome(e) {
  const a = bare(e.attacker);
  const d = bare(e.defender);
  if (e.outcome === 'both-lost') return `both ${a === d ? `${a}s` : 'pieces'} are removed`;
  if (e.outcome === 'attacker-won') {
    if (kindOf(e.defender) === 'F') return `the ${a} captures the Flag!`;
    if (kindOf(e.defender) === 'B') return `the ${a} defuses the Bomb`;
    if (kindOf(e.attacker) === 'S' && kindOf(e.defender) === 'M') return 'the Spy takes the Marshal';
    return `the ${a} wins`;
  }
  if (e.outcome === 'attacker-lost') return kindOf(e.defender) === 'B' ? `the Bomb destroys the ${a}` : `the ${d} holds`;
  return e.outcome || '';
}

export function battleText(e) {
  const pa = ownerOf(e.attacker) ?? e.player;
  const pd = ownerOf(e.defender) ?? (pa === null || pa === undefined ? null : 1 - pa);
  const side = (p) => (p === null || p === undefined ? '' : `${PLAYERS[p].name} `);
  return `${side(pa)}${pieceName(e.attacker)} attacks ${side(pd)}${pieceName(e.defender)} on ${e.to}: ${battleOutcome(e)}.`;
}

// Why a dragged piece may not go from `from` to `to`: for explaining only; legality comes from `legal`.
export function whyNot({ piece, from, to, board, seat, interactive, phase }) {
  if (phase !== 'play') return 'the game is not in play';
  if (ownerOf(piece) !== seat) return 'that is not your piece';
  if (!interactive) return 'not your turn';
  const k = kindOf(piece);
  if (k === 'B') return 'a Bomb never moves';
  if (k === 'F') return 'the Flag never moves';
  if (!to) return 'that is off the board';
  if (isLake(to)) return 'that square is a lake';
  const there = board[to];
  if (there && ownerOf(there) === seat) return `your own ${bare(there)} stands there`;
  const df = fileOf(to) - fileOf(from);
  const dr = rankOf(to) - rankOf(from);
  if (df && dr) return 'pieces move straight, never diagonally';
  const dist = Math.abs(df) + Math.abs(dr);
  const name = KINDS[k] ? KINDS[k].name : 'piece';
  if (k !== 'O' && dist > 1) return `a${/^[AEIOU]/.test(name) ? 'n' : ''} ${name} moves one square`;
  if (k === 'O' && dist > 1) {
    const sf = Math.sign(df);
    const sr = Math.sign(dr);
    for (let i = 1; i < dist; i++) {
      const sq = sqName(fileOf(from) + sf * i, rankOf(from) + sr * i);
      if (isLake(sq)) return 'a Scout cannot cross a lake';
      if (board[sq]) return 'a Scout cannot jump over pieces';
    }
  }
  return 'that move is not allowed now (two-square limit or repetition)';
}

// ---------------------------------------------------------------------------------------------
// Dragging with pointer events (mouse, pen and touch alike). Used by the board and the setup editor.

class Drag {
  // opts: { canStart(square) -> bool, onStart(square), onDrop(from, to|null), piece(square) -> piece, flip() -> bool }
  constructor(svgEl, opts) {
    this.svg = svgEl;
    this.opts = opts;
    this.cur = null;
    this.justDragged = false;
    this.down = (e) => this.onDown(e);
    this.move = (e) => this.onMove(e);
    this.up = (e) => this.onUp(e, false);
    this.cancel = (e) => this.onUp(e, true);
    svgEl.addEventListener('pointerdown', this.down);
    svgEl.addEventListener('pointermove', this.move);
    svgEl.addEventListener('pointerup', this.up);
    svgEl.addEventListener('pointercancel', this.cancel);
    // A click that ends a drag is not a click.
    svgEl.addEventListener('click', (e) => { if (this.justDragged) { e.stopImmediatePropagation(); e.preventDefault(); } }, true);
  }

  point(e) {
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  onDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    const el = e.target.closest && e.target.closest('[data-square]');
    if (!el) return;
    const sq = el.dataset.square;
    if (!this.opts.canStart(sq)) return;
    this.cur = { sq, id: e.pointerId, x: e.clientX, y: e.clientY, dragging: false, ghost: null };
  }

  onMove(e) {
    const c = this.cur;
    if (!c || e.pointerId !== c.id) return;
    if (!c.dragging) {
      if (Math.hypot(e.clientX - c.x, e.clientY - c.y) < 6) return;
      c.dragging = true;
      try { this.svg.setPointerCapture(e.pointerId); } catch { /* synthetic pointers */ }
      this.opts.onStart(c.sq);
      const src = this.svg.querySelector(`[data-square="${c.sq}"]`);
      if (src) src.classList.add('dragging');
      c.ghost = svg('g', { class: 'st-ghost', 'pointer-events': 'none' });
      c.ghost.append(drawPiece(-0.5, -0.5, this.opts.piece(c.sq), { faceUp: true }));
      this.svg.append(c.ghost);
    }
    const [x, y] = this.point(e);
    c.ghost.setAttribute('transform', `translate(${x} ${y}) scale(1.12)`);
    e.preventDefault();
  }

  onUp(e, cancelled) {
    const c = this.cur;
    if (!c || e.pointerId !== c.id) return;
    this.cur = null;
    if (!c.dragging) return; // a plain click: the click handler acts
    if (c.ghost) c.ghost.remove();
    try { this.svg.releasePointerCapture(e.pointerId); } catch { /* ignore */ }
    this.justDragged = true;
    setTimeout(() => { this.justDragged = false; }, 0);
    const [x, y] = this.point(e);
    this.opts.onDrop(c.sq, cancelled ? null : squareAtXY(x, y, this.opts.flip()), cancelled);
  }

  destroy() {
    this.svg.removeEventListener('pointerdown', this.down);
    this.svg.removeEventListener('pointermove', this.move);
    this.svg.removeEventListener('pointerup', this.up);
    this.svg.removeEventListener('pointercancel', this.cancel);
  }
}

// ---------------------------------------------------------------------------------------------
// The board instance the shell drives.

class StrategoBoard {
  constructor(container, ctx) {
    this.ctx = ctx; // { onMove(moveString), onHint(text) }
    this.view = null;
    this.mode = { kind: 'idle' };
    this.reason = '';
    this.shown = new Set();
    this.root = html('div', { class: 'st-wrap' });
    this.svg = svg('svg', {
      class: 'st-board', viewBox: `${VIEW.x} ${VIEW.y} ${VIEW.w} ${VIEW.h}`, role: 'group',
      'aria-label': 'Stratego board', preserveAspectRatio: 'xMidYMid meet',
    });
    // Battles are written under the board with both pieces drawn (never over it: a pop-up there hid the lit
    // squares of the player's own turn, and again at every replay step).
    this.caption = html('div', { class: 'st-caption', 'aria-live': 'polite' });
    this.reasonEl = html('p', { class: 'st-reason', role: 'alert' });
    this.root.append(this.svg, this.reasonEl, this.caption);
    container.append(this.root);

    this.unwireInput = wireSquareInput(this, this.svg);
    this.drag = new Drag(this.svg, {
      canStart: (sq) => {
        const v = this.view;
        if (!v || this.mode.kind === 'sent') return false;
        const obs = v.observation || {};
        return obs.phase === 'play' && v.seat !== null && v.seat !== undefined && ownerOf((obs.board || {})[sq]) === v.seat;
      },
      onStart: (sq) => {
        this.setReason('');
        this.mode = this.moves().some(m => m.from === sq) ? { kind: 'from', from: sq } : { kind: 'idle' };
        this.dragging = true; // the hint above the board keeps its text: nothing may move under the finger
        this.render();
        const el = this.svg.querySelector(`[data-square="${sq}"]`);
        if (el) el.classList.add('dragging');
      },
      onDrop: (from, to, cancelled) => this.drop(from, to, cancelled),
      piece: (sq) => ((this.view.observation || {}).board || {})[sq],
      flip: () => this.flip(),
    });
  }

  destroy() {
    this.unwireInput();
    this.drag.destroy();
    this.root.remove();
  }

  // The viewer's army at the bottom (Blue's seat sees the board turned 180°), turned again by Flip board.
  flip() { return !!this.view && ((this.view.seat === 1) !== (((this.view.flip || 0) % 2) === 1)); }

  // view: { observation, legal, lastPly: [events], interactive, seat }
  update(view) {
    const sameLegal = this.view && view.interactive && this.view.interactive &&
      JSON.stringify(this.view.legal) === JSON.stringify(view.legal) &&
      JSON.stringify(this.view.observation.board) === JSON.stringify(view.observation.board);
    // A refused drop's reason belongs to the position it was about: any change of ply, phase or turn (the game
    // ending by a resignation changes no ply) or of the position shown clears it.
    const at = (w) => { const o = (w && w.observation) || {}; return `${o.ply}|${o.phase}|${o.to_move}|${!!(w && w.browsing)}`; };
    const stateChanged = !this.view || at(this.view) !== at(view);
    this.view = view;
    if (!sameLegal || this.mode.kind === 'sent') this.mode = { kind: 'idle' };
    if (stateChanged) this.setReason('');
    this.render();
    this.showBattle();
  }

  moves() {
    if (!this.view || !this.view.interactive) return [];
    return (this.view.legal || []).map(parseMove).filter(Boolean);
  }

  // Map square -> 'select' | 'target' | 'attack'
  lit() {
    const lit = new Map();
    const moves = this.moves();
    const board = (this.view && this.view.observation && this.view.observation.board) || {};
    for (const mv of moves) lit.set(mv.from, 'select');
    if (this.mode.kind === 'from') {
      for (const mv of moves) if (mv.from === this.mode.from) lit.set(mv.to, board[mv.to] ? 'attack' : 'target');
    }
    return lit;
  }

  setReason(text) {
    this.reason = text;
    this.reasonEl.textContent = text ? `${text[0].toUpperCase()}${text.slice(1)}.` : '';
    this.reasonEl.dataset.reason = text;
  }

  explain(from, to) {
    const v = this.view;
    const obs = v.observation || {};
    return whyNot({ piece: (obs.board || {})[from], from, to, board: obs.board || {}, seat: v.seat, interactive: v.interactive, phase: obs.phase });
  }

  click(sq) {
    const v = this.view;
    if (!v) return;
    const kind = this.lit().get(sq);
    const m = this.mode;
    if (m.kind === 'sent') return;
    this.setReason('');
    if (kind === 'select') {
      this.mode = m.kind === 'from' && m.from === sq ? { kind: 'idle' } : { kind: 'from', from: sq };
      return this.render();
    }
    if ((kind === 'target' || kind === 'attack') && m.kind === 'from') return this.submit(`${m.from}-${sq}`);
    // Not a lit square: say why an own piece cannot be picked or go there, then cancel.
    const obs = v.observation || {};
    const piece = (obs.board || {})[sq];
    if (m.kind === 'from' && sq !== m.from && !(piece && ownerOf(piece) === v.seat)) this.setReason(this.explain(m.from, sq));
    else if (piece && ownerOf(piece) === v.seat && obs.phase === 'play') {
      if (!v.interactive) this.setReason('not your turn');
      else if ('BF'.includes(kindOf(piece))) this.setReason(this.explain(sq, sq));
      else this.setReason(`that ${bare(piece)} has no legal move`);
    }
    this.mode = { kind: 'idle' };
    this.render();
  }

  drop(from, to, cancelled) {
    this.dragging = false;
    if (cancelled || to === from) {
      // Dropped back where it started: keep it picked, as after a click.
      this.mode = !cancelled && this.moves().some(m => m.from === from) ? { kind: 'from', from } : { kind: 'idle' };
      return this.render();
    }
    const move = `${from}-${to}`;
    if (to && this.moves().some(m => m.str === move)) return this.submit(move);
    // The rules' touch and correction: the piece goes back, nothing is sent.
    this.mode = { kind: 'idle' };
    this.setReason(this.explain(from, to));
    this.render();
    const el = this.svg.querySelector(`[data-square="${from}"]`);
    if (el) el.classList.add('snap');
  }

  submit(move) {
    this.mode = { kind: 'sent' };
    this.setReason('');
    this.render();
    this.ctx.onMove(move);
  }

  hint() {
    const v = this.view;
    if (!v || !v.interactive) return '';
    const m = this.mode;
    if (m.kind === 'sent') return 'Sending your move…';
    if (m.kind === 'from') {
      const piece = ((v.observation || {}).board || {})[m.from];
      return `Move the ${bare(piece)} on ${m.from} to a lit square (Esc to cancel).`;
    }
    return this.moves().length ? 'Pick a piece to move, or drag it to its square.' : '';
  }

  // Battles of the last two plies (the player's own move and the reply, so that a fast reply does not hide the
  // player's own battle): a line each under the board, both pieces drawn face up with the outcome. A battle the
  // board sees for the first time is marked `fresh` (a short highlight of the line, nothing over the board).
  showBattle() {
    const v = this.view;
    const all = v.plies || (v.lastPly ? [{ events: v.lastPly }] : []);
    const recent = [];
    all.forEach((p, i) => {
      if (i < all.length - 2) return;
      for (const e of p.events || []) if (e.type === 'battle') recent.push({ e, key: `${i}:${e.from}-${e.to}:${e.attacker}:${e.defender}` });
    });
    this.shown = this.shown || new Set();
    const tile = (piece, role, lost) => {
      const s = svg('svg', { viewBox: '0 0 1 1', class: `st-cap-piece ${role}${lost ? ' lost' : ''}`, role: 'img', 'aria-label': pieceName(piece) });
      s.append(drawPiece(0, 0, piece, { faceUp: true }));
      return s;
    };
    this.caption.replaceChildren(...recent.map(({ e, key }) => {
      const fresh = !this.shown.has(key) && !v.browsing;
      this.shown.add(key);
      const lost = { 'attacker-won': 'defender', 'attacker-lost': 'attacker', 'both-lost': 'both' }[e.outcome];
      return html('p', { class: `st-caption-line${fresh ? ' fresh' : ''}`, 'data-outcome': e.outcome },
        html('span', { class: 'st-cap-pieces', 'aria-hidden': 'true' },
          tile(e.attacker, 'attacker', lost === 'attacker' || lost === 'both'), html('span', { class: 'vs' }, '×'),
          tile(e.defender, 'defender', lost === 'defender' || lost === 'both')),
        html('span', { class: 'st-cap-text' }, `Battle: ${battleText(e)}`));
    }));
  }

  render() {
    const v = this.view;
    const root = this.svg;
    const focused = document.activeElement && root.contains(document.activeElement) && document.activeElement.dataset
      ? document.activeElement.dataset.square : null;
    root.replaceChildren();
    const flip = this.flip();
    drawGrid(root, flip);
    if (!v) return;
    const obs = v.observation || {};
    const board = obs.board || {};
    const over = obs.phase === 'over';
    const lit = this.lit();
    const m = this.mode;
    const revealed = new Set(obs.revealed || []);
    const moved = new Set(obs.moved || []);
    const aid = !!(obs.options && obs.options.memory_aid);
    this.svg.classList.toggle('flipped', flip);

    const last = { from: null, to: null, battle: null };
    for (const e of v.lastPly || []) {
      if (e.type === 'move' || e.type === 'battle') { last.from = e.from; last.to = e.to; }
      if (e.type === 'battle') last.battle = e;
    }
    if (last.from && last.to) {
      const [x1, y1] = xy(last.from, flip);
      const [x2, y2] = xy(last.to, flip);
      root.append(svg('line', { class: 'st-last-arrow', x1: x1 + 0.5, y1: y1 + 0.5, x2: x2 + 0.5, y2: y2 + 0.5 }));
    }

    for (const sq of ALL_SQUARES) {
      const [x, y] = xy(sq, flip);
      if (isLake(sq)) {
        root.append(svg('g', { class: 'st-cell lake', 'data-square': sq, 'data-lake': 'true', role: 'img', 'aria-label': `${sq}, lake` },
          svg('rect', { class: 'hit', x, y, width: 1, height: 1 })));
        continue;
      }
      const piece = board[sq] || null;
      const kind = lit.get(sq);
      const owner = ownerOf(piece);
      const known = piece && kindOf(piece) !== '?';
      const selected = m.kind === 'from' && m.from === sq;
      const g = svg('g', {
        class: 'st-cell' + (selected ? ' selected' : ''),
        'data-square': sq,
        'data-piece': piece || undefined,
        'data-lit': kind || undefined,
        'data-revealed': piece && revealed.has(sq) ? 'true' : undefined,
        'data-moved': piece && moved.has(sq) ? 'true' : undefined,
        role: 'button',
        'aria-label': `${sq}, ${describe(piece, v.seat)}`,
        'aria-description': kind ? { select: 'can move', target: 'move here', attack: 'attack this piece' }[kind] : undefined,
        'aria-disabled': kind ? undefined : 'true',
        'aria-pressed': selected ? 'true' : undefined,
        tabindex: kind ? 0 : -1,
      });
      g.append(svg('rect', { class: 'hit', x, y, width: 1, height: 1 }));
      if (last.from === sq) g.append(svg('rect', { class: 'st-last-from', x: x + 0.05, y: y + 0.05, width: 0.9, height: 0.9, rx: 0.1 }));
      if (piece) {
        const own = owner === v.seat;
        // Marks: the memory aid's (and, for the own army, which pieces the enemy has seen or seen move).
        const marks = over ? {} : { revealed: revealed.has(sq) && (aid || own), moved: moved.has(sq) && (aid || own) };
        g.append(drawPiece(x, y, piece, { faceUp: known, marks }));
      }
      if (last.to === sq) g.append(svg('rect', { class: `st-last${last.battle ? ' battle' : ''}`, x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, rx: 0.12 }));
      if (kind === 'target') g.append(svg('circle', { class: 'st-dot', cx: x + 0.5, cy: y + 0.5, r: 0.13 }));
      if (kind || selected) g.append(svg('rect', { class: 'st-ring', x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, rx: 0.13 }));
      root.append(g);
    }

    // Captured pieces: the army at the top of the view has its losses above the board, the other below.
    const captured = obs.captured || {};
    const lostOf = (p) => (captured[p] || captured[String(p)] || []).map(kindOf);
    const topPlayer = flip ? 0 : 1;
    drawTray(root, TRAY_Y.top, topPlayer, lostOf(topPlayer), flip);
    drawTray(root, TRAY_Y.bottom, 1 - topPlayer, lostOf(1 - topPlayer), flip);

    if (focused) {
      const el = root.querySelector(`[data-square="${focused}"]`);
      if (el && el.getAttribute('tabindex') === '0') el.focus();
    }
    // A redraw in the middle of a drag (an update arrived) keeps the dragged piece under the pointer.
    if (this.drag && this.drag.cur && this.drag.cur.ghost) root.append(this.drag.cur.ghost);
    if (this.ctx.onHint && !this.dragging) this.ctx.onHint(this.hint());
  }
}

function describe(piece, seat) {
  if (!piece) return 'empty';
  const owner = ownerOf(piece);
  const side = owner === seat ? 'your' : `${PLAYERS[owner] ? PLAYERS[owner].name : ''}`;
  return kindOf(piece) === '?' ? `${side} piece, face down` : `${side} ${pieceName(piece)}`;
}

// ---------------------------------------------------------------------------------------------
// Setups

const ALL_LETTERS = [...KIND_ORDER].flatMap(k => Array(KINDS[k].count).fill(k));


// A random legal placement for `player`: every piece on a random home square, except that the Flag
// goes on the back rank (legal anywhere, sensible there).
export function randomPlacement(player) {
  const squares = homeSquares(player);
  const back = squares.filter(sq => rankOf(sq) === (player === 0 ? 1 : 10));
  const flagSq = back[randomInt(back.length)];
  const rest = squares.filter(sq => sq !== flagSq);
  const letters = ALL_LETTERS.filter(k => k !== 'F');
  shuffle(letters);
  const out = { [flagSq]: 'F' };
  rest.forEach((sq, i) => { out[sq] = letters[i]; });
  return out;
}

// Checks a placement {square: letter} for `player`; returns an error text or ''.
export function placementError(placement, player) {
  if (!placement || typeof placement !== 'object') return 'not a placement';
  const home = new Set(homeSquares(player));
  const counts = {};
  for (const [sq, v] of Object.entries(placement)) {
    if (!home.has(sq)) return `${sq} is not one of your home squares`;
    const k = kindOf(String(v));
    if (!KINDS[k]) return `unknown piece "${v}" on ${sq}`;
    counts[k] = (counts[k] || 0) + 1;
  }
  if (Object.keys(placement).length !== 40) return `${Object.keys(placement).length} pieces placed, 40 needed`;
  for (const k of KIND_ORDER) if ((counts[k] || 0) !== KINDS[k].count) return `${counts[k] || 0} × ${KINDS[k].name}, ${KINDS[k].count} needed`;
  return '';
}

const normalize = (placement) => Object.fromEntries(Object.entries(placement || {}).map(([sq, v]) => [sq, kindOf(String(v))]));
// Player 0's view <-> player 1's: the board turned 180°.
export const forPlayer = (placement0, player) => (player === 0 ? normalize(placement0)
  : Object.fromEntries(Object.entries(normalize(placement0)).map(([sq, k]) => [rotate(sq), k])));
export const toPlayer0 = (placement, player) => (player === 0 ? normalize(placement)
  : Object.fromEntries(Object.entries(normalize(placement)).map(([sq, k]) => [rotate(sq), k])));

const saved = savedSetups(SETUPS_KEY);

class SetupEditor {
  // ctx: { seat, kind (the /api/games/kinds entry), submit(placement) -> Promise, onHint(text) }
  constructor(container, ctx) {
    this.ctx = ctx;
    this.seat = ctx.seat;
    this.placement = randomPlacement(this.seat);
    this.selected = null;
    this.editing = true;  // false once this seat's setup is in and the player has not asked to change it
    this.sending = false;
    this.obs = null;
    this.wasReady = false;
    const arrangements = (ctx.kind && ctx.kind.arrangements) || {};
    this.arrangements = arrangements;

    this.svg = svg('svg', { class: 'st-board st-setup-board', viewBox: `${VIEW.x} -0.2 ${VIEW.w} 10.75`, role: 'group',
      'aria-label': `Your setup, ${PLAYERS[this.seat].name}`, preserveAspectRatio: 'xMidYMid meet' });
    const named = Object.keys(arrangements);
    this.el = {
      named: html('select', { 'aria-label': 'Named setup', 'data-role': 'named' }, ...named.map(n => html('option', { value: n }, humanName(n)))),
      saved: html('select', { 'aria-label': 'Saved setup', 'data-role': 'saved' }),
      name: html('input', { type: 'text', maxlength: 40, placeholder: 'Name this setup', 'aria-label': 'Name for this setup', 'data-role': 'save-name' }),
      msg: html('p', { class: 'st-setup-msg', role: 'status', 'aria-live': 'polite' }),
      err: html('p', { class: 'error', role: 'alert' }),
    };
    const btn = (act, text, cls = 'secondary') => html('button', { type: 'button', class: cls, 'data-act': act }, text);
    this.tools = html('div', { class: 'st-setup-tools' },
      html('div', { class: 'row' },
        btn('random', 'Random'),
        named.length ? html('span', { class: 'st-group' }, this.el.named, btn('named', 'Use')) : null),
      html('div', { class: 'row' },
        html('span', { class: 'st-group' }, this.el.name, btn('save', 'Save')),
        html('span', { class: 'st-group', 'data-role': 'saved-group' }, this.el.saved, btn('load', 'Load'), btn('delete', 'Delete', 'danger secondary'))),
      html('div', { class: 'row' }, btn('ready', 'Ready', 'primary')));
    this.waiting = html('div', { class: 'st-setup-waiting hidden' },
      html('p', { class: 'st-wait' }, 'Your army is in. Waiting for the other army…'),
      btn('change', 'Change my setup'));
    this.root = html('div', { class: 'st-setup', 'data-seat': this.seat },
      html('h2', {}, `Set up your army (${PLAYERS[this.seat].name})`),
      html('p', { class: 'muted st-setup-help' }, 'Click a piece, then another, to swap them — or drag one onto the other. Your home ranks are at the bottom.'),
      this.svg, this.el.msg, this.el.err, this.tools, this.waiting);
    container.append(this.root);
    this.root.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-act]');
      if (b) this.act(b.dataset.act);
    });
    this.el.name.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); this.act('save'); } });
    this.svg.addEventListener('click', (e) => {
      const c = e.target.closest('[data-square]');
      if (c) this.clickSquare(c.dataset.square);
      else this.select(null);
    });
    this.svg.addEventListener('keydown', (e) => {
      const c = e.target.closest && e.target.closest('[data-square]');
      if (c && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); this.clickSquare(c.dataset.square); }
    });
    this.drag = new Drag(this.svg, {
      canStart: (sq) => this.editing && !this.sending && !!this.placement[sq],
      onStart: (sq) => { this.selected = null; this.render(); const el = this.svg.querySelector(`[data-square="${sq}"]`); if (el) el.classList.add('dragging'); },
      onDrop: (from, to) => {
        if (to && to !== from && this.placement[to]) this.swap(from, to);
        else this.render();
      },
      piece: (sq) => `${this.seat}${this.placement[sq]}`,
      flip: () => this.seat === 1,
    });
    this.fillSaved();
    this.render();
  }

  // (Ready's answer may come after the shell destroyed the editor, play having begun: it then says nothing.)
  destroy() { this.destroyed = true; this.drag.destroy(); this.root.remove(); }

  // view: { observation, seat }
  update(view) {
    this.obs = view.observation || {};
    const ready = (this.obs.ready || []).includes(this.seat);
    const board = this.obs.board || {};
    const mine = Object.entries(board).filter(([, p]) => ownerOf(p) === this.seat);
    if (ready && !this.wasReady) {
      this.editing = false;
      // Show what the server holds.
      if (mine.length === 40) this.placement = Object.fromEntries(mine.map(([sq, p]) => [sq, kindOf(p)]));
    }
    if (!ready) this.editing = true;
    this.wasReady = ready;
    this.render();
  }

  fillSaved() {
    const names = Object.keys(saved.load()).sort();
    this.el.saved.replaceChildren(...names.map(n => html('option', { value: n }, n)));
    this.tools.querySelector('[data-role="saved-group"]').classList.toggle('hidden', !names.length);
  }

  say(text, err = '') { this.el.msg.textContent = text; this.el.err.textContent = err; }

  use(placement0OrMine, { mine = false, label }) {
    const p = mine ? normalize(placement0OrMine) : forPlayer(placement0OrMine, this.seat);
    const bad = placementError(p, this.seat);
    if (bad) return this.say('', `Cannot use ${label}: ${bad}.`);
    this.placement = p;
    this.selected = null;
    this.say(`Using ${label}.`);
    this.render();
  }

  async act(what) {
    if (this.sending) return;
    if (what === 'random') { this.placement = randomPlacement(this.seat); this.selected = null; this.say('A random setup.'); return this.render(); }
    if (what === 'named') {
      const n = this.el.named.value;
      const a = this.arrangements[n];
      if (!a) return;
      const mine = a[String(this.seat)] || a[this.seat];
      if (mine) return this.use(mine, { mine: true, label: `“${humanName(n)}”` });
      if (a['0']) return this.use(a['0'], { label: `“${humanName(n)}”` });
      return this.say('', `The setup “${humanName(n)}” has no placement for ${PLAYERS[this.seat].name}.`);
    }
    if (what === 'save') {
      const name = this.el.name.value.trim();
      if (!name) { this.el.name.focus(); return this.say('', 'Give the setup a name first.'); }
      const all = saved.load();
      all[name] = toPlayer0(this.placement, this.seat);
      saved.store(all);
      this.fillSaved();
      this.el.saved.value = name;
      this.el.name.value = '';
      return this.say(`Saved as “${name}”.`);
    }
    if (what === 'load') {
      const n = this.el.saved.value;
      const all = saved.load();
      if (n && all[n]) this.use(all[n], { label: `“${n}”` });
      return;
    }
    if (what === 'delete') {
      const n = this.el.saved.value;
      const all = saved.load();
      if (!n || !all[n]) return;
      delete all[n];
      saved.store(all);
      this.fillSaved();
      return this.say(`Deleted “${n}”.`);
    }
    if (what === 'change') { this.editing = true; this.say('Change your setup, then press Ready again.'); return this.render(); }
    if (what === 'ready') {
      const bad = placementError(this.placement, this.seat);
      if (bad) return this.say('', bad);
      this.sending = true;
      this.say('Sending your setup…');
      this.render();
      try {
        await this.ctx.submit({ ...this.placement });
        this.editing = false;
        this.wasReady = true;
        this.say('');
      } catch (e) {
        this.say('', `The server refused the setup: ${e.message || e}`);
      }
      this.sending = false;
      this.render();
    }
  }

  clickSquare(sq) {
    if (!this.editing || this.sending || !this.placement[sq]) return this.select(null);
    if (this.selected === null) return this.select(sq);
    if (this.selected === sq) return this.select(null);
    this.swap(this.selected, sq);
  }

  select(sq) {
    this.selected = sq;
    if (sq) this.say(`Swap the ${KINDS[this.placement[sq]].name} on ${sq} with which piece?`);
    this.render();
  }

  swap(a, b) {
    const pa = this.placement[a];
    this.placement[a] = this.placement[b];
    this.placement[b] = pa;
    this.selected = null;
    this.say(`Swapped ${a} and ${b}.`);
    this.render();
  }

  render() {
    if (this.destroyed) return;
    const root = this.svg;
    const flip = this.seat === 1;
    const focused = document.activeElement && root.contains(document.activeElement) && document.activeElement.dataset
      ? document.activeElement.dataset.square : null;
    root.replaceChildren();
    drawGrid(root, flip, { dimRanks: this.seat === 0 ? [1, 2, 3, 4] : [7, 8, 9, 10] });
    const [, yOther] = xy(this.seat === 0 ? 'a8' : 'a3', flip);
    root.append(svg('text', { class: 'st-setup-other', x: 5, y: yOther + 0.1, 'text-anchor': 'middle' }, `The other army sets up here`));
    for (const sq of homeSquares(this.seat)) {
      const [x, y] = xy(sq, flip);
      const k = this.placement[sq];
      const sel = this.selected === sq;
      const g = svg('g', {
        class: 'st-cell' + (sel ? ' selected' : ''), 'data-square': sq, 'data-piece': k ? `${this.seat}${k}` : undefined,
        'data-lit': this.editing && !this.sending ? (this.selected && !sel ? 'target' : 'select') : undefined,
        role: 'button', 'aria-label': `${sq}, ${k ? pieceName(k) : 'empty'}`, 'aria-pressed': sel ? 'true' : undefined,
        tabindex: this.editing ? 0 : -1,
      });
      g.append(svg('rect', { class: 'hit', x, y, width: 1, height: 1 }));
      if (k) g.append(drawPiece(x, y, `${this.seat}${k}`));
      if (sel) g.append(svg('rect', { class: 'st-ring', x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, rx: 0.13 }));
      root.append(g);
    }
    this.root.classList.toggle('editing', this.editing);
    this.tools.classList.toggle('hidden', !this.editing);
    this.waiting.classList.toggle('hidden', this.editing);
    this.root.querySelector('.st-setup-help').classList.toggle('hidden', !this.editing);
    for (const b of this.tools.querySelectorAll('button')) b.disabled = this.sending;
    if (this.drag && this.drag.cur && this.drag.cur.ghost) root.append(this.drag.cur.ghost);
    if (focused) {
      const el = root.querySelector(`[data-square="${focused}"]`);
      if (el) el.focus();
    }
    if (this.ctx.onHint) this.ctx.onHint(this.editing ? 'Arrange your army, then press Ready.' : 'Waiting for the other army to set up.');
  }
}

// ---------------------------------------------------------------------------------------------
// The module interface (docs/ui.md).

// Groups events into plies: a ply starts with move / battle / resign (a battle right after the move
// event of the same step joins it); `over` belongs to the ply before it; setups are not plies.
function plies(events) {
  const out = [];
  for (const e of events || []) {
    if (e.type === 'setup') continue;
    const prev = out[out.length - 1];
    if (e.type === 'battle' && prev && prev.events[0].type === 'move' && prev.events[0].from === e.from &&
        prev.events[0].to === e.to && !prev.events.some(x => x.type === 'battle')) {
      prev.events.push(e);
    } else if (['move', 'battle', 'resign'].includes(e.type) || !prev) {
      out.push({ player: e.player ?? null, events: [e], text: '' });
    } else {
      prev.events.push(e);
    }
  }
  for (const p of out) {
    const first = p.events[0];
    const battle = p.events.find(x => x.type === 'battle');
    if (first.type === 'resign') p.text = 'resigns';
    else if (first.from) p.text = `${first.from}-${first.to}`;
    else p.text = '';
    if (battle) p.detail = `${pieceName(battle.attacker)} × ${pieceName(battle.defender)}: ${battleOutcome(battle)}`;
    // Draw offers (their buttons are the shell's): in the ply's second line, or its text when it is nothing else
    // (an offer before the first move).
    const offers = p.events.filter(x => x.type === 'offer').map(e => offerWords(e, playerWord(e.player)));
    if (!p.text && offers.length) p.text = offers.shift().replace(/^\S+ /, '');
    if (offers.length) p.detail = [p.detail, ...offers].filter(Boolean).join(' · ');
  }
  return out;
}

const playerWord = (p) => (PLAYERS[p] || {}).name || `Player ${p + 1}`;

function initialState(game, record) {
  const board = {};
  const setups = (record && record.setups) || {};
  for (const p of [0, 1]) {
    const placement = setups[String(p)] || setups[p] || {};
    for (const [sq, v] of Object.entries(placement)) board[sq] = `${p}${kindOf(String(v))}`;
  }
  return { game: 'stratego', options: (game && game.options) || (record && record.options) || {}, phase: 'play', to_move: 0, ply: 0,
    board, result: null, revealed: [], moved: [], ready: [0, 1], captured: { 0: [], 1: [] } };
}

// Redraws a position from one ply's events (replays): moves the pieces the events say moved and removes
// the battle losers the events name. Not a rules engine.
function applyPly(state, events) {
  const s = structuredClone(state);
  s.captured = s.captured || { 0: [], 1: [] };
  let mover = null;
  const movedTo = (from, to) => { s.moved = (s.moved || []).filter(q => q !== from && q !== to); s.moved.push(to); };
  const dropSq = (sq) => { s.revealed = (s.revealed || []).filter(q => q !== sq); s.moved = (s.moved || []).filter(q => q !== sq); };
  for (const e of events) {
    if (e.type === 'move') {
      const pc = s.board[e.from] || `${e.player}?`;
      delete s.board[e.from];
      s.board[e.to] = pc;
      movedTo(e.from, e.to);
      mover = e.player;
    } else if (e.type === 'battle') {
      const att = s.board[e.from] && kindOf(s.board[e.from]) !== '?' ? s.board[e.from] : e.attacker;
      const def = e.defender;
      // (A move event of the same step may already have carried the attacker onto the square.)
      if (!s.board[e.from] && s.board[e.to] && ownerOf(s.board[e.to]) === e.player) delete s.board[e.to];
      delete s.board[e.from];
      dropSq(e.from);
      const lose = (pc) => { const o = ownerOf(pc); if (o !== null) (s.captured[o] = s.captured[o] || []).push(kindOf(pc)); };
      if (e.outcome === 'attacker-won') { lose(def); s.board[e.to] = att; dropSq(e.to); movedTo(e.from, e.to); s.revealed.push(e.to); }
      else if (e.outcome === 'attacker-lost') {
        lose(att);
        // The defender stays, now known to both (a face-down piece in a seat's view turns face up).
        s.board[e.to] = s.board[e.to] && kindOf(s.board[e.to]) !== '?' ? s.board[e.to] : def;
        if (!s.revealed.includes(e.to)) s.revealed.push(e.to);
      }
      else { lose(att); lose(def); delete s.board[e.to]; dropSq(e.to); }
      mover = e.player;
    } else if (e.type === 'over') { s.phase = 'over'; s.result = e.result; }
  }
  if (mover !== null) { s.to_move = 1 - mover; s.ply = (s.ply || 0) + 1; }
  s.revealed = [...new Set(s.revealed || [])].sort();
  s.moved = [...new Set(s.moved || [])].sort();
  return s;
}

// What a seat knew when play began, for browsing a live game (whose record is not shown while it hides
// something): its own army as it stood, found by walking its own observation back through the plies (a move
// back to where it came from, a battle's two pieces back to their squares), and every other piece face down.
// Null when the observation and the events on hand do not agree (a move's answer ahead of its events).
function viewStart(game, observation, plies, seat) {
  const obs = observation || {};
  const played = plies.filter(p => p.events[0].type !== 'resign');
  if (obs.phase !== 'play' || (obs.ply ?? 0) !== played.length) return null;
  const board = { ...(obs.board || {}) };
  for (let i = plies.length - 1; i >= 0; i--) {
    const evs = plies[i].events;
    const battle = evs.find(e => e.type === 'battle');
    const mv = evs.find(e => e.type === 'move');
    if (battle) { board[battle.from] = battle.attacker; board[battle.to] = battle.defender; }
    else if (mv) {
      if (!board[mv.to]) return null;
      board[mv.from] = board[mv.to];
      delete board[mv.to];
    }
  }
  for (const [sq, pc] of Object.entries(board)) if (ownerOf(pc) !== seat) board[sq] = `${ownerOf(pc)}?`;
  if (Object.keys(board).length !== 80) return null;
  return { game: 'stratego', options: (game && game.options) || obs.options || {}, phase: 'play', to_move: 0, ply: 0,
    board, result: null, revealed: [], moved: [], ready: [0, 1], captured: { 0: [], 1: [] } };
}

// The trays in words, for the shell's material panel: each army's lost pieces by kind, as the observation lists
// them (a piece whose identity this seat never saw would be "?").
function material(observation) {
  const captured = (observation && observation.captured) || {};
  return [0, 1].map(p => {
    const lost = (captured[p] || captured[String(p)] || []).map(k => (KINDS[kindOf(String(k))] ? kindOf(String(k)) : '?'));
    const counts = {};
    for (const k of lost) counts[k] = (counts[k] || 0) + 1;
    const parts = [{ key: 'lost', count: lost.length, text: lost.length ? `lost ${lost.length}:` : 'nothing lost' }];
    for (const k of [...KIND_ORDER, '?']) {
      if (!counts[k]) continue;
      const name = k === '?' ? '?' : KINDS[k].name;
      parts.push({ key: k, count: counts[k], text: counts[k] > 1 ? `${name} ×${counts[k]}` : name, unknown: k === '?',
        title: k === '?' ? 'a piece whose identity you never saw' : undefined });
    }
    return { player: p, parts };
  });
}

function summary(observation, seat) {
  const obs = observation || {};
  if (obs.phase === 'setup') return (obs.ready || []).includes(seat) ? 'army in' : 'setting up';
  const on = Object.values(obs.board || {}).filter(p => ownerOf(p) === seat).length;
  const lost = ((obs.captured || {})[seat] || (obs.captured || {})[String(seat)] || []).length;
  return `${on} on board · ${lost} lost`;
}

function reasonText(result) {
  const w = result.winners || [];
  const win = w.length === 1 ? PLAYERS[w[0]].name : null;
  const lose = w.length === 1 ? PLAYERS[1 - w[0]].name : null;
  switch (result.reason) {
    case 'flag-captured': return `${win} captured ${lose}’s Flag.`;
    case 'no-moves': return win ? `${lose} had no piece that could move.` : 'Neither army has a piece that can move.';
    case 'resignation': return `${lose} resigned.`;
    case 'ply-limit': return 'The game reached its ply limit.';
    case 'agreement': return 'Drawn by agreement.';
    default: return win ? '' : 'Draw.';
  }
}

// A static drawing for the rules page: the empty board with its lakes and set-up zones.
function diagram(container) {
  const root = svg('svg', { class: 'st-board', viewBox: `${VIEW.x} -0.2 ${VIEW.w} 10.75`, role: 'img',
    'aria-label': 'The Stratego board: 10 by 10 squares, files a to j, ranks 1 to 10, with two lakes of four squares each in the middle (c5 d5 c6 d6 and g5 h5 g6 h6); Red sets up on ranks 1 to 4, Blue on ranks 7 to 10' });
  drawGrid(root, false);
  for (const [r, cls] of [[1, 'zone0'], [7, 'zone1']]) root.append(svg('rect', { class: `st-zone ${cls}`, x: 0.03, y: 10 - r - 3 + 0.03, width: 9.94, height: 3.94, rx: 0.1 }));
  root.append(svg('text', { class: 'st-zone-label', x: 5, y: 1.1, 'text-anchor': 'middle' }, 'Blue sets up on ranks 7–10'));
  root.append(svg('text', { class: 'st-zone-label', x: 5, y: 9.1, 'text-anchor': 'middle' }, 'Red sets up on ranks 1–4'));
  container.append(root);
  return root;
}

// A row of face-up pieces (rules page): kinds is a string of letters.
function pieceRow(container, kinds, player = 0) {
  const root = svg('svg', { class: 'st-board st-row', viewBox: `0 0 ${kinds.length} 1`, role: 'img', 'aria-label': [...kinds].map(k => pieceName(k)).join(', ') });
  [...kinds].forEach((k, i) => root.append(drawPiece(i, 0, `${player}${k}`)));
  container.append(root);
  return root;
}

export default {
  name: 'stratego',
  title: 'Stratego',
  players: PLAYERS,
  create: (container, ctx) => new StrategoBoard(container, ctx),
  setup: (container, ctx) => new SetupEditor(container, ctx),
  plies,
  initialState,
  viewStart,
  applyPly,
  material,
  summary,
  reasonText,
  diagram,
  pieceRow,
};
