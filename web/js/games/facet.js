// The FACET board: a 9×9 SVG board of terrain tiles (Field, Tower, Spire, Gate, Throne), each with a faint
// watermark of the move it grants, stones that show the move they have now, momentum badges, decaying
// tiles, fog of war (dimmed squares and ghosts), the coronation count, draw offers in the move list (their
// buttons are the shell's), and the module interface the game page (web/js/game.js) uses. See docs/ui.md.
//
// This module never decides what is legal: what may be clicked and where a stone may go come only from the
// server's `legal` list ("c1-e3"), and what is seen under fog only from the observation (`board`, `visible`,
// `ghosts`, `terrain`). The rules appear in two harmless places: the glyphs (which tile grants which move)
// and `applyPly()`, which redraws replay positions (badges, decay, the coronation count) from the events.

import { svg, h as html } from '../dom.js';
import { wireSquareInput } from './square-input.js';
import { loadTokens } from '../api.js';
import { offerWords } from './offer-words.js';

const FILES = 'abcdefghi';

const PLAYERS = [
  { name: 'White', fill: '#fbf7ee', edge: '#6b5a40', desc: 'moves first, starts on ranks 1–2' },
  { name: 'Black', fill: '#2b2320', edge: '#000000', desc: 'starts on ranks 8–9' },
];

// Terrain letters (notation.md): what each tile is called and which move it grants.
export const TILES = {
  F: { name: 'Field', move: 'step 1 in any direction', short: 'step' },
  T: { name: 'Tower', move: 'rook slide', short: 'rook' },
  S: { name: 'Spire', move: 'bishop slide', short: 'bishop' },
  G: { name: 'Gate', move: 'knight leap', short: 'knight' },
  C: { name: 'Throne', move: 'queen slide', short: 'queen' },
};
const REASON_WORDS = {
  regicide: 'regicide', elimination: 'elimination', coronation: 'coronation', stalemate: 'stalemate',
  agreement: 'agreement', resignation: 'resignation',
};

// The classic layout (rulings.md, FACET): ranks 1–5 as written there; ranks 6–9 mirror ranks 4–1.
const CLASSIC_LOW = {
  1: 'TGSFFFSGT', 2: 'FFFSGSFFF', 3: 'FFTFFFTFF', 4: 'SFFGTGFFS', 5: 'GFCFCFCFG',
};
export function classicTerrain() {
  const out = {};
  for (let r = 1; r <= 9; r++) {
    const row = CLASSIC_LOW[r <= 5 ? r : 10 - r];
    for (let f = 0; f < 9; f++) if (row[f] !== 'F') out[`${FILES[f]}${r}`] = row[f];
  }
  return out;
}
export function startBoard() {
  const board = {};
  for (let f = 0; f < 9; f++) {
    for (const [r, p] of [[1, 0], [2, 0], [8, 1], [9, 1]]) board[`${FILES[f]}${r}`] = `${p}A`;
  }
  board.e1 = '0M';
  board.e9 = '1M';
  return board;
}

// ---------------------------------------------------------------------------------------------
// Squares

const fileOf = (sq) => FILES.indexOf(sq[0]);
const rankOf = (sq) => Number(sq.slice(1));
const sqName = (f, r) => `${FILES[f]}${r}`;
const ALL_SQUARES = [];
for (let r = 1; r <= 9; r++) for (let f = 0; f < 9; f++) ALL_SQUARES.push(sqName(f, r));

// The top-left corner of a square; Black's view is the board turned 180°.
function xy(sq, flip) {
  const f = fileOf(sq);
  const r = rankOf(sq);
  return flip ? [8 - f, r - 1] : [f, 9 - r];
}

const ownerOf = (piece) => (piece && /^[01]/.test(piece) ? Number(piece[0]) : null);
const isMonarch = (piece) => !!piece && piece[piece.length - 1] === 'M';
const tileOf = (terrain, sq) => (terrain && terrain[sq]) || 'F';

// "c1-e3" -> { str, from, to }
export function parseMove(s) {
  const m = /^([a-i][1-9])-([a-i][1-9])$/.exec(s);
  return m ? { str: s, from: m[1], to: m[2] } : null;
}


// ---------------------------------------------------------------------------------------------
// Glyphs: the move a tile grants, drawn as lines and dots around (cx, cy) within radius r.

const DIRS8 = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];

function rays(cx, cy, r0, r1, dirs) {
  return dirs.map(([dx, dy]) => {
    const n = Math.hypot(dx, dy);
    const ux = dx / n;
    const uy = dy / n;
    return `M${(cx + ux * r0).toFixed(3)} ${(cy + uy * r0).toFixed(3)}L${(cx + ux * r1).toFixed(3)} ${(cy + uy * r1).toFixed(3)}`;
  }).join('');
}
// Small arrowheads at the ends of rays (for sliders).
function heads(cx, cy, r1, dirs, size) {
  return dirs.map(([dx, dy]) => {
    const n = Math.hypot(dx, dy);
    const ux = dx / n;
    const uy = dy / n;
    const tx = cx + ux * r1;
    const ty = cy + uy * r1;
    const bx = tx - ux * size;
    const by = ty - uy * size;
    const px = -uy * size * 0.7;
    const py = ux * size * 0.7;
    return `M${(bx + px).toFixed(3)} ${(by + py).toFixed(3)}L${tx.toFixed(3)} ${ty.toFixed(3)}L${(bx - px).toFixed(3)} ${(by - py).toFixed(3)}`;
  }).join('');
}
function crownPath(cx, cy, r) {
  const w = r * 0.95;
  const hgt = r * 0.8;
  const x0 = cx - w;
  const x1 = cx + w;
  const yb = cy + hgt * 0.55;
  const yt = cy - hgt * 0.7;
  const ym = cy - hgt * 0.05;
  return `M${x0} ${yb}L${x0} ${yt}L${cx - w * 0.5} ${ym}L${cx} ${yt - hgt * 0.15}L${cx + w * 0.5} ${ym}L${x1} ${yt}L${x1} ${yb}Z`;
}

// A glyph for a move: 'F' step, 'T' rook, 'S' bishop, 'G' knight, 'C' queen, 'M' the Monarch (crown).
// `w` is the stroke width. Returns a <g> whose parts have classes gl-line / gl-fill.
export function glyph(kind, cx, cy, r, w, cls = '') {
  const g = svg('g', { class: `fc-glyph ${cls}`.trim(), 'data-glyph': kind, 'aria-hidden': 'true' });
  const line = (d, extra = {}) => g.append(svg('path', { class: 'gl-line', d, 'stroke-width': w, ...extra }));
  const dot = (x, y, rr) => g.append(svg('circle', { class: 'gl-fill', cx: x.toFixed(3), cy: y.toFixed(3), r: rr }));
  if (kind === 'F') {
    // One step each way: the eight neighbours as dots around a centre.
    dot(cx, cy, w * 0.9);
    for (const [dx, dy] of DIRS8) {
      const n = Math.hypot(dx, dy);
      dot(cx + (dx / n) * r * 0.72, cy + (dy / n) * r * 0.72, w * 1.2);
    }
  } else if (kind === 'T' || kind === 'S' || kind === 'C') {
    const dirs = kind === 'T' ? DIRS8.filter(([dx, dy]) => !dx || !dy)
      : kind === 'S' ? DIRS8.filter(([dx, dy]) => dx && dy) : DIRS8;
    line(rays(cx, cy, 0, r, dirs));
    line(heads(cx, cy, r, dirs, r * (kind === 'C' ? 0.2 : 0.28)), { 'stroke-linejoin': 'round' });
  } else if (kind === 'G') {
    // The knight's L: two up, one across, with a dot where it starts and an arrowhead where it lands.
    const x0 = cx - r * 0.45;
    const y0 = cy + r * 0.85;
    const yt = cy - r * 0.75;
    const x1 = cx + r * 0.6;
    line(`M${x0} ${y0}L${x0} ${yt}L${x1} ${yt}`, { 'stroke-linejoin': 'round' });
    line(heads(x1 - r * 0.01, yt, 0, [[1, 0]], r * 0.3), { 'stroke-linejoin': 'round' });
    dot(x0, y0, w * 1.3);
  } else if (kind === 'M') {
    g.append(svg('path', { class: 'gl-crown', d: crownPath(cx, cy, r), 'stroke-width': w * 0.8, 'stroke-linejoin': 'round' }));
  }
  return g;
}

// One tile at (x, y) (the square's corner): its colour and the watermark of the move it grants.
function drawTile(x, y, letter, cls = '') {
  const g = svg('g', { class: `fc-tile t-${letter} ${cls}`.trim() });
  g.append(svg('rect', { class: 'fc-tile-bg', x, y, width: 1, height: 1 }));
  if (letter === 'C') {
    g.append(glyph('C', x + 0.5, y + 0.5, 0.42, 0.035, 'fc-mark'));
    g.append(svg('path', { class: 'fc-throne-crown', d: crownPath(x + 0.5, y + 0.5, 0.2) }));
  } else {
    g.append(glyph(letter, x + 0.5, y + 0.5, letter === 'F' ? 0.36 : 0.42, 0.035, 'fc-mark'));
  }
  return g;
}

// One stone centred in the square at (x, y). `move` is the glyph of the move it has now; `badge` the tile
// letter it keeps from momentum (or null).
function drawStone(x, y, piece, { move = null, badge = null, ghost = false } = {}) {
  const owner = ownerOf(piece);
  const monarch = isMonarch(piece);
  const cx = x + 0.5;
  const cy = y + 0.5;
  const g = svg('g', { class: `fc-stone p${owner}${monarch ? ' monarch' : ''}${ghost ? ' ghost' : ''}` });
  g.append(svg('circle', { class: 'fc-disc', cx, cy, r: monarch ? 0.4 : 0.37 }));
  if (monarch) g.append(svg('circle', { class: 'fc-rim', cx, cy, r: 0.33 }));
  if (ghost) {
    if (monarch) g.append(glyph('M', cx, cy, 0.2, 0.04));
    return g;
  }
  g.append(glyph(monarch ? 'M' : move || 'F', cx, cy, monarch ? 0.2 : 0.24, 0.045));
  if (badge) {
    const bx = cx + 0.28;
    const by = cy - 0.28;
    const b = svg('g', { class: `fc-badge t-${badge}`, 'data-badge-tile': badge });
    b.append(svg('circle', { class: 'fc-badge-bg', cx: bx, cy: by, r: 0.19 }));
    b.append(glyph(badge, bx, by, 0.12, 0.03));
    g.append(b);
  }
  return g;
}

const VIEW = { x: -0.42, y: -0.08, w: 9.5, h: 9.5 };

function drawCoords(root, flip) {
  for (let c = 0; c < 9; c++) {
    const f = flip ? 8 - c : c;
    root.append(svg('text', { class: 'fc-coords', x: c + 0.5, y: 9.3, 'text-anchor': 'middle' }, FILES[f]));
  }
  for (let row = 0; row < 9; row++) {
    const r = flip ? row + 1 : 9 - row;
    root.append(svg('text', { class: 'fc-coords', x: -0.22, y: row + 0.58, 'text-anchor': 'middle' }, String(r)));
  }
}

// ---------------------------------------------------------------------------------------------
// Words

const name = (p) => (PLAYERS[p] ? PLAYERS[p].name : `Player ${p + 1}`);
const article = (w) => (/^[AEIOU]/.test(w) ? 'an' : 'a');

function describeSquare(sq, piece, tile, { seat, ghost, visible, badge }) {
  const t = TILES[tile] || TILES.F;
  let s = `${sq}, ${t.name}`;
  if (piece) {
    const own = ownerOf(piece) === seat;
    const who = own ? 'your' : name(ownerOf(piece));
    if (isMonarch(piece)) s += `, ${who} Monarch (steps 1)`;
    else s += `, ${who} stone (${t.move}${badge ? ` + ${TILES[badge].move} from momentum` : ''})`;
  } else if (ghost) {
    s += `, ${name(ownerOf(ghost))} ${isMonarch(ghost) ? 'Monarch' : 'stone'} last seen here`;
  }
  if (visible === false) s += ', out of sight';
  return s;
}

export function plyText(events) {
  const mv = events.find(e => e.type === 'move');
  if (events[0] && events[0].type === 'resign') return 'resigns';
  if (events[0] && events[0].type === 'unseen') return '(out of sight)';
  if (!mv) {
    const off = events.find(e => e.type === 'offer');
    return off ? offerWords(off, name(off.player)).replace(/^\S+ /, '') : '';
  }
  return `${mv.from || '?'}-${mv.to || '?'}`;
}

function plyDetail(events) {
  const parts = [];
  for (const e of events) {
    if (e.type === 'move' && e.bump) parts.push(`bumps into a hidden stone on ${e.to}`);
    else if (e.type === 'capture') parts.push(`takes ${e.piece && isMonarch(e.piece) ? 'the Monarch' : 'a stone'} on ${e.square}`);
    else if (e.type === 'decay') parts.push(`${e.square}: ${TILES[e.from] ? TILES[e.from].name : e.from} → ${TILES[e.to] ? TILES[e.to].name : e.to}`);
    else if (e.type === 'offer') parts.push(offerWords(e, name(e.player)));
  }
  return parts.join(' · ');
}

// What a coronation count means for the viewer (the holder, its opponent, or someone watching).
function coronationAdvice(c, mine, held) {
  const holder = name(c.player);
  const other = name(1 - c.player);
  if (c.plies === 1) {
    if (mine) return 'keep them through your next move to win by coronation.';
    if (held) return 'take one back now, or lose by coronation.';
    return `${other} has one move to take a Throne back.`;
  }
  if (mine) return 'keep every Throne with this move and you win by coronation.';
  return `${holder} wins by coronation if it keeps every Throne with its move.`;
}

// ---------------------------------------------------------------------------------------------
// The board instance the shell drives.

const FLASH_MS = 1800;

class FacetBoard {
  constructor(container, ctx) {
    this.ctx = ctx; // { onMove(moveString), onHint(text) }
    this.view = null;
    this.mode = { kind: 'idle' };
    this.flashes = new Map(); // decay key -> time first shown
    this.gameId = new URLSearchParams(location.search).get('id');
    this.root = html('div', { class: 'fc-wrap' });
    this.svg = svg('svg', {
      class: 'fc-board', viewBox: `${VIEW.x} ${VIEW.y} ${VIEW.w} ${VIEW.h}`, role: 'group',
      'aria-label': 'FACET board', preserveAspectRatio: 'xMidYMid meet',
    });
    this.info = html('div', { class: 'fc-info' });
    this.root.append(this.svg, this.info);
    container.append(this.root);

    this.unwireInput = wireSquareInput(this, this.svg);
  }

  destroy() {
    this.unwireInput();
    clearTimeout(this.flashTimer);
    this.root.remove();
  }

  // The seats this browser holds (for orientation).
  held() { return Object.keys(loadTokens(this.gameId)).map(Number); }

  // The viewer's own stones at the bottom: Black's seat sees the board turned 180°. A hot seat (both seats
  // in one browser) keeps White at the bottom, except under fog, where each seat is shown its own view.
  // Flip board (`view.flip`, odd) turns it once more.
  flip() {
    const v = this.view;
    const turned = (((v && v.flip) || 0) % 2) === 1;
    if (!v || v.seat !== 1) return turned;
    const held = this.held();
    const fog = ((v.observation || {}).options || {}).modes || [];
    return (!(held.includes(0) && held.includes(1)) || fog.includes('fog')) !== turned;
  }

  // view: { observation, legal, lastPly, plies, interactive, seat }
  update(view) {
    const first = !this.view;
    const sameLegal = this.view && view.interactive && this.view.interactive &&
      JSON.stringify(this.view.legal) === JSON.stringify(view.legal) &&
      JSON.stringify(this.view.observation.board) === JSON.stringify(view.observation.board);
    this.view = view;
    if (!sameLegal || this.mode.kind === 'sent') this.mode = { kind: 'idle' };
    this.noteDecays(first);
    this.render();
  }

  // Decay events of the last two plies (the player's own move and the reply): each flashes once, when the
  // board first sees it. (On the first update of a page nothing flashes: that is history, not news.)
  recentDecays() {
    const v = this.view;
    const all = v.plies || (v.lastPly ? [{ events: v.lastPly }] : []);
    const out = [];
    all.forEach((p, i) => {
      if (i < all.length - 2) return;
      for (const e of p.events || []) if (e.type === 'decay') out.push({ e, key: `${i}:${e.square}:${e.from}>${e.to}` });
    });
    return out;
  }

  noteDecays(first) {
    const now = performance.now();
    let fresh = false;
    for (const d of this.recentDecays()) {
      if (this.flashes.has(d.key)) continue;
      this.flashes.set(d.key, first ? -Infinity : now);
      fresh = fresh || !first;
    }
    if (fresh) {
      // Redraw when the flash is over, so that it leaves nothing behind.
      clearTimeout(this.flashTimer);
      this.flashTimer = setTimeout(() => this.render(), FLASH_MS + 50);
    }
  }

  moves() {
    if (!this.view || !this.view.interactive) return [];
    return (this.view.legal || []).map(parseMove).filter(Boolean);
  }

  // Map square -> 'select' | 'target' | 'capture'
  lit() {
    const lit = new Map();
    const moves = this.moves();
    const obs = (this.view && this.view.observation) || {};
    const board = obs.board || {};
    for (const mv of moves) lit.set(mv.from, 'select');
    if (this.mode.kind === 'from') {
      for (const mv of moves) {
        if (mv.from !== this.mode.from) continue;
        const there = board[mv.to];
        lit.set(mv.to, there && ownerOf(there) !== ownerOf(board[mv.from]) ? 'capture' : 'target');
      }
    }
    return lit;
  }

  click(sq) {
    if (!this.view) return;
    const kind = this.lit().get(sq);
    const m = this.mode;
    if (m.kind === 'sent') return;
    if (kind === 'select') {
      this.mode = m.kind === 'from' && m.from === sq ? { kind: 'idle' } : { kind: 'from', from: sq };
      return this.render();
    }
    if ((kind === 'target' || kind === 'capture') && m.kind === 'from') return this.submit(`${m.from}-${sq}`);
    this.mode = { kind: 'idle' };
    this.render();
  }

  submit(move) {
    this.mode = { kind: 'sent' };
    this.render();
    this.ctx.onMove(move);
  }

  hint() {
    const v = this.view;
    if (!v || !v.interactive) return '';
    const m = this.mode;
    if (m.kind === 'sent') return 'Sending your move…';
    if (m.kind === 'from') {
      const obs = v.observation || {};
      const piece = (obs.board || {})[m.from];
      if (isMonarch(piece)) return `Your Monarch on ${m.from} steps 1: pick a green square (Esc to cancel).`;
      const tile = TILES[tileOf(obs.terrain, m.from)];
      const badge = (obs.badges || {})[m.from];
      const extra = badge ? ` and, from momentum, a ${TILES[badge].move}` : '';
      return `The stone on ${m.from} stands on ${article(tile.name)} ${tile.name} (${tile.move}${extra}): pick a green square (Esc to cancel).`;
    }
    return this.moves().length ? 'Pick a stone to move: its tile decides how it moves.' : '';
  }

  render() {
    const v = this.view;
    const root = this.svg;
    const focused = document.activeElement && root.contains(document.activeElement) && document.activeElement.dataset
      ? document.activeElement.dataset.square : null;
    root.replaceChildren();
    if (!v) return;
    const flip = this.flip();
    const obs = v.observation || {};
    const board = obs.board || {};
    const terrain = obs.terrain || {};
    const badges = obs.badges || {};
    const ghosts = obs.ghosts || {};
    const fog = Array.isArray(obs.visible);
    const visible = new Set(obs.visible || []);
    const lit = this.lit();
    const m = this.mode;
    const now = performance.now();
    root.classList.toggle('flipped', flip);
    root.classList.toggle('fog', fog);
    root.dataset.flipped = flip ? 'true' : 'false';

    root.append(svg('rect', { class: 'fc-frame', x: -0.06, y: -0.06, width: 9.12, height: 9.12, rx: 0.08 }));

    // The last ply: where the stone came from and went, what it took, which tiles decayed.
    const last = { from: null, to: null, caps: [], player: null };
    for (const e of v.lastPly || []) {
      if (e.type === 'move') { last.from = e.from || null; last.to = e.to || null; last.player = e.player; }
      if (e.type === 'capture') last.caps.push(e.square);
    }
    const decays = this.recentDecays();
    const decayAt = new Map(decays.map(d => [d.e.square, d]));
    const holder = obs.coronation ? obs.coronation.player : null;

    const layer = svg('g', { class: 'fc-squares' });
    for (const sq of ALL_SQUARES) {
      const [x, y] = xy(sq, flip);
      const tile = tileOf(terrain, sq);
      const piece = board[sq] || null;
      const ghost = !piece && ghosts[sq] ? ghosts[sq] : null;
      const kind = lit.get(sq);
      const selected = m.kind === 'from' && m.from === sq;
      const seen = fog ? visible.has(sq) : true;
      const badge = piece && badges[sq] ? badges[sq] : null;
      const decay = decayAt.get(sq);
      const g = svg('g', {
        class: 'fc-sq' + (selected ? ' selected' : '') + (seen ? '' : ' unseen'),
        'data-square': sq,
        'data-tile': tile,
        'data-piece': piece || undefined,
        'data-ghost': ghost || undefined,
        'data-badge': badge || undefined,
        'data-lit': kind || undefined,
        'data-visible': fog ? String(seen) : undefined,
        'data-decayed': decay ? `${decay.e.from}>${decay.e.to}` : undefined,
        'data-throne-held': tile === 'C' && holder !== null ? String(holder) : undefined,
        role: 'button',
        'aria-label': describeSquare(sq, piece, tile, { seat: v.seat, ghost, visible: fog ? seen : undefined, badge }),
        'aria-description': kind ? { select: 'can move', target: 'move here', capture: 'capture this stone' }[kind] : undefined,
        'aria-disabled': kind ? undefined : 'true',
        'aria-pressed': selected ? 'true' : undefined,
        tabindex: kind ? 0 : -1,
      });
      g.append(drawTile(x, y, tile));
      if (tile === 'C' && holder !== null) g.append(svg('rect', { class: `fc-held p${holder}`, x: x + 0.05, y: y + 0.05, width: 0.9, height: 0.9, rx: 0.06 }));
      // A tile that just decayed: the old tile fades out over the new one, with a flash.
      if (decay) {
        const t0 = this.flashes.get(decay.key);
        const age = now - (t0 ?? -Infinity);
        if (age < FLASH_MS) {
          const old = drawTile(x, y, decay.e.from, 'fc-decay-old');
          old.style.animationDelay = `${-Math.round(age)}ms`;
          g.append(old);
          const ring = svg('rect', { class: 'fc-decay-flash', x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, rx: 0.08 });
          ring.style.animationDelay = `${-Math.round(age)}ms`;
          g.append(ring);
        }
        g.append(svg('path', { class: 'fc-decay-mark', d: `M${x + 0.06} ${y + 0.06}h0.24l-0.12 0.16z` }));
      }
      g.append(svg('rect', { class: 'hit', x, y, width: 1, height: 1 }));
      if (!seen) g.append(svg('rect', { class: 'fc-dim', x, y, width: 1, height: 1 }));
      if (last.from === sq) g.append(svg('rect', { class: 'fc-last-from', x: x + 0.05, y: y + 0.05, width: 0.9, height: 0.9, rx: 0.1 }));
      if (piece) g.append(drawStone(x, y, piece, { move: tile, badge }));
      else if (ghost) g.append(drawStone(x, y, ghost, { ghost: true }));
      if (last.to === sq) g.append(svg('rect', { class: `fc-last${last.caps.includes(sq) ? ' capture' : ''}`, x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, rx: 0.1 }));
      if (kind === 'target') g.append(svg('circle', { class: 'fc-dot', cx: x + 0.5, cy: y + 0.5, r: ghost ? 0.12 : 0.15 }));
      if (kind || selected) g.append(svg('rect', { class: 'fc-ring', x: x + 0.05, y: y + 0.05, width: 0.9, height: 0.9, rx: 0.1 }));
      layer.append(g);
    }
    root.append(layer);
    if (last.from && last.to) {
      const [x1, y1] = xy(last.from, flip);
      const [x2, y2] = xy(last.to, flip);
      // From the centre of the square left to the rim of the stone that arrived (not across its glyph).
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const cut = Math.min(0.4, len);
      root.append(svg('line', { class: 'fc-last-arrow', x1: x1 + 0.5, y1: y1 + 0.5,
        x2: x2 + 0.5 - ((x2 - x1) / len) * cut, y2: y2 + 0.5 - ((y2 - y1) / len) * cut }));
    }
    drawCoords(root, flip);

    this.renderInfo(decays);
    if (focused) {
      const el = root.querySelector(`[data-square="${focused}"]`);
      if (el && el.getAttribute('tabindex') === '0') el.focus();
    }
    if (this.ctx.onHint) this.ctx.onHint(this.hint());
  }

  // Under the board: the coronation count and what the last plies did (draw offers are the shell's, docs/ui.md).
  renderInfo(decays) {
    const v = this.view;
    const obs = v.observation || {};
    const parts = [];
    const seat = v.seat;
    const held = seat !== null && seat !== undefined && this.held().includes(seat);
    const inPlay = obs.phase === 'play' && !obs.replay;

    if (obs.coronation) {
      const c = obs.coronation;
      const mine = held && c.player === seat;
      parts.push(html('p', { class: `fc-coronation p${c.player}`, 'data-player': c.player, 'data-plies': c.plies, role: 'status' },
        html('strong', {}, `${name(c.player)} holds every Throne: ${c.plies}/3`),
        !inPlay || c.plies >= 3 ? '' : ` — ${coronationAdvice(c, mine, held)}`));
    }

    const lines = [];
    const all = v.plies || [];
    const fog = Array.isArray(obs.visible);
    if (fog && !v.browsing) {
      // What "in sight" means: the squares this view sees; the others are dimmed.
      const n = obs.visible.length;
      parts.push(html('p', { class: 'fc-fog', 'data-visible-count': n, title: 'Squares you can see: those your stones see (dimmed squares are out of sight)' },
        held ? `Fog of war: you see ${n} of 81 squares; the dimmed ones are out of sight, and an enemy stone there is not shown.`
          : `Fog of war: a spectator sees ${n} of 81 squares (the Thrones).`));
    }
    if (fog && inPlay && held) {
      // The last two plies under fog: a bump of ours, and an enemy move we saw nothing of.
      for (const p of all.slice(-2)) {
        for (const e of p.events) {
          if (e.type === 'move' && e.bump) lines.push(`Your slide from ${e.from} bumped into a hidden ${name(1 - e.player)} stone on ${e.to} and took it.`);
        }
      }
      const listed = all.filter(p => p.events.some(e => e.type === 'move' || e.type === 'unseen')).length;
      if (obs.to_move === seat && listed < (obs.ply ?? 0)) lines.push(`${name(1 - seat)} moved out of your sight.`);
    }
    for (const d of decays) lines.push(`${d.e.square}: the ${TILES[d.e.from].name} decayed to ${article(TILES[d.e.to].name)} ${TILES[d.e.to].name}.`);
    if (lines.length) parts.push(html('p', { class: 'fc-caption' }, lines.join(' ')));
    this.info.replaceChildren(...parts);
  }
}

// ---------------------------------------------------------------------------------------------
// The module interface (docs/ui.md).

// Groups events into plies: a ply starts with a move or a resignation; captures, decays, offers and the end
// belong to the ply before them (an offer before the first move joins the first ply). Under fog a player is
// not shown an enemy move it saw nothing of: where two moves of the same player follow each other, the
// other player's unseen ply between them is listed as "out of sight" (with one `unseen` event).
function plies(events) {
  const out = [];
  let pending = [];
  let next = 0; // who moves next, as far as the events tell
  for (const e of events || []) {
    if (e.type === 'move') {
      while (e.player !== undefined && e.player !== next && out.length < 10000) {
        out.push({ player: next, events: [{ type: 'unseen', player: next }], text: '' });
        next = 1 - next;
      }
      next = 1 - e.player;
    }
    if (e.type === 'move' || e.type === 'resign') {
      out.push({ player: e.player ?? null, events: [...pending, e], text: '' });
      pending = [];
    } else if (out.length) out[out.length - 1].events.push(e);
    else pending.push(e);
  }
  if (pending.length) {
    const first = pending.find(e => e.player !== undefined);
    out.push({ player: first ? first.player : null, events: pending, text: '' });
  }
  for (const p of out) {
    p.text = plyText(p.events);
    // The second line: captures, bumps, decays and offers (an offer that is the ply's own text is not repeated).
    const own = p.events.some(e => e.type === 'move' || e.type === 'resign') ? null : p.events.find(e => e.type === 'offer');
    const d = plyDetail(p.events.filter(e => e !== own));
    if (d) p.detail = d;
  }
  return out;
}

// The terrain before the first ply: the classic layout, or (a random layout, which the record does not write
// out) the observation's terrain with the decays of the plies undone, newest first.
function startTerrain(options, observation, plies) {
  if ((options.layout || 'classic') === 'classic') return classicTerrain();
  const t = { ...((observation && observation.terrain) || {}) };
  for (const p of [...(plies || [])].reverse()) {
    for (const e of [...p.events].reverse()) {
      if (e.type !== 'decay') continue;
      if (e.from === 'F') delete t[e.square]; else t[e.square] = e.from;
    }
  }
  return t;
}

// (`seen`: the observation on hand and the plies, from which a random layout's terrain is found.)
function initialState(game, record, seen = {}) {
  const start = record && record.start && typeof record.start === 'object' && record.start.board ? record.start : null;
  const options = (game && game.options) || (record && record.options) || {};
  const base = start ? structuredClone(start) : {
    game: 'facet', options, board: startBoard(), terrain: startTerrain(options, seen.observation, seen.plies),
  };
  delete base.visible;
  delete base.ghosts;
  return { badges: {}, coronation: null, draw_offer: null, ...base, phase: 'play', to_move: 0, ply: 0, result: null, replay: true };
}

// Redraws a position from one ply's events (replays): the stones the events moved and took, the tiles they
// say decayed, offers, and the display-only badges and coronation count. Not a rules engine.
function applyPly(state, events) {
  const s = structuredClone(state);
  s.board = s.board || {};
  s.terrain = s.terrain || {};
  s.badges = s.badges || {};
  const modes = (s.options && s.options.modes) || [];
  const thrones = Object.entries(s.terrain).filter(([, t]) => t === 'C').map(([sq]) => sq);
  let mover = null;
  for (const e of events) {
    if (e.type === 'move' && s.partial && !(e.from && e.to)) {
      // Under fog a seat sees an enemy stone leave (only `from`) or arrive (only `to`).
      if (e.from) delete s.board[e.from];
      else if (e.to) s.board[e.to] = `${e.player}A`;
      mover = e.player;
    } else if (e.type === 'move' && e.from && e.to) {
      const pc = s.board[e.from] || `${e.player}A`;
      const left = tileOf(s.terrain, e.from);
      delete s.board[e.from];
      delete s.badges[e.to];
      s.board[e.to] = pc;
      mover = e.player;
      if (modes.includes('momentum')) {
        delete s.badges[e.from];
        for (const sq of Object.keys(s.badges)) if (ownerOf(s.board[sq]) === mover) delete s.badges[sq];
        if (!isMonarch(pc) && left !== 'F') s.badges[e.to] = left;
      }
    } else if (e.type === 'capture') {
      if (s.board[e.square] && ownerOf(s.board[e.square]) !== e.by) delete s.board[e.square];
    } else if (e.type === 'decay') {
      if (e.to === 'F') delete s.terrain[e.square]; else s.terrain[e.square] = e.to;
    } else if (e.type === 'offer') {
      s.draw_offer = e.what === 'draw' ? e.player : null;
    } else if (e.type === 'over') {
      s.phase = 'over';
      s.result = e.result;
      s.draw_offer = null;
    }
  }
  if (mover !== null) {
    s.to_move = 1 - mover;
    s.ply = (s.ply || 0) + 1;
    // The coronation count (rulings.md F3), for display.
    const owners = thrones.map(sq => ownerOf(s.board[sq]));
    const holderAll = thrones.length && owners.every(o => o !== null && o === owners[0]) ? owners[0] : null;
    const c = s.coronation;
    if (holderAll === mover) s.coronation = { player: mover, plies: c && c.player === mover && c.plies === 2 ? 3 : 1 };
    else if (holderAll !== null && c && c.player === holderAll && c.plies === 1) s.coronation = { player: holderAll, plies: 2 };
    else s.coronation = null;
  }
  return s;
}

// The seat's count line. Under fog only the stones this view sees are counted ("5 stones in sight"): the
// enemy's others stand on dimmed squares.
function summary(observation, seat, viewer) {
  const obs = observation || {};
  const stones = Object.values(obs.board || {}).filter(p => ownerOf(p) === seat);
  const agents = stones.filter(p => !isMonarch(p)).length;
  const badges = Object.entries(obs.badges || {}).filter(([sq]) => ownerOf((obs.board || {})[sq]) === seat).length;
  if (Array.isArray(obs.visible)) return seat === viewer ? `${stones.length} stone${stones.length === 1 ? '' : 's'}` : `${stones.length} stone${stones.length === 1 ? '' : 's'} in sight`;
  const monarch = stones.some(isMonarch);
  return `${monarch ? 'Monarch + ' : ''}${agents} agent${agents === 1 ? '' : 's'}${badges ? ` · ${badges} badge${badges === 1 ? '' : 's'}` : ''}`;
}

// Stones each side has lost, for the shell's material panel: the captures among the events this view received
// (under fog a seat sees every capture, its own stone or its own move; a spectator only those on a Throne).
function material(observation, { plies = [], seat = null } = {}) {
  const obs = observation || {};
  const lost = [0, 0];
  let monarch = [false, false];
  for (const p of plies) {
    for (const e of p.events) {
      if (e.type !== 'capture' || ownerOf(e.piece) === null) continue;
      lost[ownerOf(e.piece)]++;
      if (isMonarch(e.piece)) monarch[ownerOf(e.piece)] = true;
    }
  }
  const partial = Array.isArray(obs.visible) && (seat === null || seat === undefined) && obs.phase !== 'over';
  return [0, 1].map(p => ({ player: p, parts: [
    { key: 'lost', count: lost[p], text: `${lost[p]} stone${lost[p] === 1 ? '' : 's'} lost${monarch[p] ? ' (the Monarch too)' : ''}${partial ? ' (on the Thrones; the rest is out of sight)' : ''}` },
  ] }));
}

// Browsing a live game under fog (its record is not shown while it hides something): the start as this seat
// knew it, its own stones on their squares and the terrain; the enemy's stones appear where this seat saw one
// move or be taken (applyPly), never where it did not look.
function viewStart(game, observation, plies, seat) {
  const obs = observation || {};
  const options = (game && game.options) || obs.options || {};
  const own = seat === null || seat === undefined ? {} : Object.fromEntries(Object.entries(startBoard()).filter(([, p]) => ownerOf(p) === seat));
  const terrain = startTerrain(options, obs, plies);
  return { badges: {}, coronation: null, draw_offer: null, game: 'facet', options, board: own, terrain,
    phase: 'play', to_move: 0, ply: 0, result: null, replay: true, partial: true };
}

function browseNote(observation) {
  return Array.isArray((observation || {}).visible) ? 'Under fog, the enemy’s stones show only where you saw them move or be taken.' : '';
}

function reasonText(result) {
  const w = result.winners || [];
  const win = w.length === 1 ? name(w[0]) : null;
  const lose = w.length === 1 ? name(1 - w[0]) : null;
  const tag = REASON_WORDS[result.reason] ? ` (${REASON_WORDS[result.reason]})` : '';
  switch (result.reason) {
    case 'regicide': return `${win} captured ${lose}’s Monarch${tag}.`;
    case 'elimination': return `${win} captured every ${lose} agent, leaving a bare Monarch${tag}.`;
    case 'coronation': return `${win} held every Throne for a full round${tag}.`;
    case 'stalemate': return `The side to move had no legal move: a draw${tag}.`;
    case 'agreement': return `Drawn by agreement.`;
    case 'resignation': return `${lose} resigned.`;
    case 'ply-limit': return 'The game reached its ply limit.';
    default: return win ? '' : 'Draw.';
  }
}

// ---------------------------------------------------------------------------------------------
// Drawings for the rules page

// The classic layout with both armies in place.
function diagram(container, { stones = true } = {}) {
  const root = svg('svg', { class: 'fc-board', viewBox: `${VIEW.x} ${VIEW.y} ${VIEW.w} ${VIEW.h}`, role: 'img',
    'aria-label': 'The FACET board in the classic layout: 9 by 9 squares, files a to i, ranks 1 to 9; Thrones on c5, e5 and g5; White on ranks 1 and 2, Black on ranks 8 and 9, each Monarch in the middle of its back rank' });
  const terrain = classicTerrain();
  const board = startBoard();
  root.append(svg('rect', { class: 'fc-frame', x: -0.06, y: -0.06, width: 9.12, height: 9.12, rx: 0.08 }));
  for (const sq of ALL_SQUARES) {
    const [x, y] = xy(sq, false);
    const tile = tileOf(terrain, sq);
    const g = svg('g', { class: 'fc-sq', 'data-square': sq, 'data-tile': tile });
    g.append(drawTile(x, y, tile));
    if (stones && board[sq]) g.append(drawStone(x, y, board[sq], { move: tile }));
    root.append(g);
  }
  drawCoords(root, false);
  container.append(root);
  return root;
}

// One tile, large, with a stone on it showing the move that tile grants (and, optionally, a badge).
function tileCard(container, letter, { piece = '0A', badge = null } = {}) {
  const root = svg('svg', { class: 'fc-board fc-card', viewBox: '-0.02 -0.02 1.04 1.04', role: 'img',
    'aria-label': letter === 'M' ? 'The Monarch: a crowned stone that always steps 1'
      : `${TILES[letter].name}: grants a ${TILES[letter].move}${badge ? `; the badge shows a ${TILES[badge].move} kept from momentum` : ''}` });
  if (letter === 'M') {
    root.append(drawTile(0, 0, 'F'));
    root.append(drawStone(0, 0, '0M'));
  } else {
    root.append(drawTile(0, 0, letter));
    if (piece) root.append(drawStone(0, 0, piece, { move: letter, badge }));
  }
  container.append(root);
  return root;
}

export default {
  name: 'facet',
  title: 'FACET',
  players: PLAYERS,
  create: (container, ctx) => new FacetBoard(container, ctx),
  plies,
  initialState,
  viewStart,
  browseNote,
  applyPly,
  material,
  summary,
  reasonText,
  diagram,
  tileCard,
};
