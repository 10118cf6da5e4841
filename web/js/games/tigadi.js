// The Tigadi board: an SVG drawing of the three nested squares, their spokes and corner diagonals,
// and the module interface the game page (web/js/game.js) uses. See docs/ui.md.
//
// This module never applies Tigadi's rules. What may be clicked, where a goti may go and which enemy
// gotis may be taken all come from the server's `legal` list. The only "knowledge" here is geometry
// (where the 24 points and 20 drawn lines are) and how events change the picture (for replays).
import { svg } from '../dom.js';
import { offerWords } from './offer-words.js';

// Points and lines, from shared/spec/notation.md.
const FILES = 'abcdefg';
export const POINTS = [
  'a1', 'd1', 'g1', 'g4', 'g7', 'd7', 'a7', 'a4',
  'b2', 'd2', 'f2', 'f4', 'f6', 'd6', 'b6', 'b4',
  'c3', 'd3', 'e3', 'e4', 'e5', 'd5', 'c5', 'c4',
];
export const LINES = [
  ['a1', 'd1', 'g1'], ['g1', 'g4', 'g7'], ['a7', 'd7', 'g7'], ['a1', 'a4', 'a7'],
  ['b2', 'd2', 'f2'], ['f2', 'f4', 'f6'], ['b6', 'd6', 'f6'], ['b2', 'b4', 'b6'],
  ['c3', 'd3', 'e3'], ['e3', 'e4', 'e5'], ['c5', 'd5', 'e5'], ['c3', 'c4', 'c5'],
  ['d1', 'd2', 'd3'], ['g4', 'f4', 'e4'], ['d7', 'd6', 'd5'], ['a4', 'b4', 'c4'],
  ['a1', 'b2', 'c3'], ['g1', 'f2', 'e3'], ['g7', 'f6', 'e5'], ['a7', 'b6', 'c5'],
];
const HAND_SIZE = 9;

// Board geometry: file a..g -> x 0..6, rank 1..7 -> y 6..0 (Bone's side, rank 1, at the bottom); turned 180°
// (Flip board) Seed's side is at the bottom.
let flipped = false; // set by the board being drawn (one drawing at a time)
const xy = (pt) => (flipped ? [6 - FILES.indexOf(pt[0]), Number(pt[1]) - 1] : [FILES.indexOf(pt[0]), 7 - Number(pt[1])]);
const VIEW = { x: -0.85, y: -1.8, w: 7.7, h: 9.75 };
const handY = (player) => ((player === 1) !== flipped ? -1.2 : 7.35); // the top side's hand above the board

const PLAYERS = [
  { name: 'Bone', fill: 'var(--bone)', edge: 'var(--bone-edge)', desc: 'pale gotis, moves first' },
  { name: 'Seed', fill: 'var(--seed)', edge: 'var(--seed-edge)', desc: 'dark gotis' },
];

// "d1" | "d1-d2" | "d1xa4" | "d1-d2xg7" | "pass" -> parts; null for anything else.
export function parseMove(s) {
  if (s === 'pass') return { str: s, pass: true };
  const m = /^([a-g][1-7])(?:-([a-g][1-7]))?(?:x([a-g][1-7]))?$/.exec(s);
  if (!m) return null;
  const from = m[2] ? m[1] : null;
  const to = m[2] || m[1];
  return { str: s, from, to, cap: m[3] || null, base: from ? `${from}-${to}` : to };
}


function drawGrid(root, { labels = false } = {}) {
  root.append(svg('rect', { class: 'bg', x: -0.7, y: -0.7, width: 7.4, height: 7.4, rx: 0.25 }));
  for (const line of LINES) {
    const [x1, y1] = xy(line[0]);
    const [x2, y2] = xy(line[2]);
    root.append(svg('line', { class: 'line', x1, y1, x2, y2 }));
  }
  // File letters under the board, rank numbers to its left: the notation's coordinates.
  for (let f = 0; f < 7; f++) root.append(svg('text', { class: 'coords', x: xy(`${FILES[f]}1`)[0], y: 6.62, 'text-anchor': 'middle' }, document.createTextNode(FILES[f])));
  for (let r = 1; r <= 7; r++) root.append(svg('text', { class: 'coords', x: -0.55, y: xy(`a${r}`)[1] + 0.09, 'text-anchor': 'middle' }, document.createTextNode(String(r))));
  if (labels) {
    for (const p of POINTS) {
      const [x, y] = xy(p);
      root.append(svg('circle', { class: 'dot', cx: x, cy: y, r: 0.11 }));
      root.append(svg('text', { class: 'label', x: x + 0.14, y: y - 0.14 }, document.createTextNode(p)));
    }
  }
}

function goti(x, y, player, r, extra = '') {
  const g = svg('g', { class: `goti-g ${extra}`.trim() });
  g.append(svg('circle', { class: `goti p${player} ${extra}`.trim(), cx: x, cy: y, r }));
  g.append(svg('ellipse', { class: 'shine', cx: x - r * 0.3, cy: y - r * 0.35, rx: r * 0.35, ry: r * 0.22 }));
  return g;
}

// ---------------------------------------------------------------------------------------------
// The board instance the shell drives.

class TigadiBoard {
  constructor(container, ctx) {
    this.ctx = ctx; // { onMove(moveString), onHint(text) }
    this.view = null;
    this.mode = { kind: 'idle' };
    this.svg = svg('svg', {
      class: 'tg-board', viewBox: `${VIEW.x} ${VIEW.y} ${VIEW.w} ${VIEW.h}`, role: 'group',
      'aria-label': 'Tigadi board', preserveAspectRatio: 'xMidYMid meet',
    });
    container.append(this.svg);
    this.onKey = (e) => { if (e.key === 'Escape' && this.mode.kind !== 'idle') { this.mode = { kind: 'idle' }; this.render(); } };
    document.addEventListener('keydown', this.onKey);
    this.svg.addEventListener('click', (e) => {
      const pt = e.target.closest('[data-point]');
      if (pt) this.click(pt.dataset.point);
      else if (this.mode.kind !== 'idle') { this.mode = { kind: 'idle' }; this.render(); }
    });
    this.svg.addEventListener('keydown', (e) => {
      const pt = e.target.closest && e.target.closest('[data-point]');
      if (pt && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); this.click(pt.dataset.point); }
    });
  }

  destroy() { document.removeEventListener('keydown', this.onKey); this.svg.remove(); }

  // view: { observation, legal, lastPly: [events], interactive: bool }
  update(view) {
    const sameLegal = this.view && view.interactive && this.view.interactive &&
      JSON.stringify(this.view.legal) === JSON.stringify(view.legal) &&
      JSON.stringify(this.view.observation.board) === JSON.stringify(view.observation.board);
    this.view = view;
    if (!sameLegal || this.mode.kind === 'sent') this.mode = { kind: 'idle' };
    this.render();
  }

  moves() {
    if (!this.view || !this.view.interactive) return [];
    return (this.view.legal || []).map(parseMove).filter(m => m && !m.pass);
  }

  // What each point does right now: Map point -> 'place' | 'select' | 'target' | 'capture'.
  lit() {
    const lit = new Map();
    const moves = this.moves();
    const m = this.mode;
    if (m.kind === 'capture') {
      for (const mv of moves) if (mv.base === m.base && mv.cap) lit.set(mv.cap, 'capture');
      return lit;
    }
    for (const mv of moves) {
      if (mv.from) lit.set(mv.from, 'select');
      else lit.set(mv.to, 'place');
    }
    if (m.kind === 'from') for (const mv of moves) if (mv.from === m.from) lit.set(mv.to, 'target');
    return lit;
  }

  click(pt) {
    const kind = this.lit().get(pt);
    const moves = this.moves();
    const m = this.mode;
    if (!kind) {
      if (m.kind !== 'idle') { this.mode = { kind: 'idle' }; this.render(); }
      return;
    }
    if (kind === 'select') {
      this.mode = m.kind === 'from' && m.from === pt ? { kind: 'idle' } : { kind: 'from', from: pt };
      return this.render();
    }
    if (kind === 'capture') return this.submit(`${m.base}x${pt}`);
    const base = kind === 'place' ? pt : `${m.from}-${pt}`;
    const options = moves.filter(mv => mv.base === base);
    const plain = options.find(mv => !mv.cap);
    if (options.length === 1) return this.submit(options[0].str);
    if (plain) return this.submit(plain.str); // not expected: a capture is never optional
    this.mode = { kind: 'capture', base, from: kind === 'place' ? null : m.from, to: pt };
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
    const enemy = PLAYERS[1 - (v.observation.to_move ?? 0)].name;
    if (m.kind === 'capture') return `Tigadi! Choose a ${enemy} goti to capture (Esc to cancel).`;
    if (m.kind === 'from') return `Move ${m.from} to a lit point, or pick another goti.`;
    if (m.kind === 'sent') return 'Sending your move…';
    const moves = this.moves();
    if (!moves.length) return '';
    if (moves.some(mv => !mv.from)) return 'Place a goti on a lit point.';
    return 'Pick one of your gotis to slide.';
  }

  render() {
    const v = this.view;
    const root = this.svg;
    const focused = document.activeElement && root.contains(document.activeElement) && document.activeElement.dataset
      ? document.activeElement.dataset.point : null;
    root.replaceChildren();
    flipped = !!v && ((v.flip || 0) % 2) === 1;
    root.dataset.flipped = String(flipped);
    drawGrid(root);
    if (!v) return;
    const obs = v.observation || {};
    const board = { ...(obs.board || {}) };
    const lit = this.lit();
    const m = this.mode;

    // The chosen placement or slide, drawn while the player picks what to capture.
    const preview = m.kind === 'capture' ? { from: m.from, to: m.to, player: obs.to_move } : null;

    // Last move: from, to, captured point.
    const last = { from: null, to: null, caps: [] };
    for (const e of v.lastPly || []) {
      if (e.type === 'place') last.to = e.to;
      else if (e.type === 'move') { last.from = e.from; last.to = e.to; }
      else if (e.type === 'capture') last.caps.push(e.square);
    }
    const marks = svg('g', { class: 'marks' });
    if (last.from && last.to) {
      const [x1, y1] = xy(last.from);
      const [x2, y2] = xy(last.to);
      marks.append(svg('line', { class: 'last-arrow', x1, y1, x2, y2 }));
    }
    root.append(marks);

    for (const p of POINTS) {
      const [x, y] = xy(p);
      const piece = board[p] || null;
      const kind = lit.get(p);
      const g = svg('g', {
        class: 'pt' + ((m.kind === 'from' && m.from === p) || (preview && preview.to === p) ? ' selected' : ''),
        'data-point': p,
        'data-piece': piece || undefined,
        'data-lit': kind || undefined,
        role: 'button',
        'aria-label': p,
        'aria-description': describePoint(piece, kind),
        'aria-disabled': kind ? undefined : 'true',
        'aria-pressed': m.kind === 'from' && m.from === p ? 'true' : undefined,
        tabindex: kind ? 0 : -1,
      });
      g.append(svg('circle', { class: 'hit', cx: x, cy: y, r: 0.46 }));
      g.append(svg('circle', { class: 'dot', cx: x, cy: y, r: 0.1 }));
      if (last.from === p) g.append(svg('circle', { class: 'last-from', cx: x, cy: y, r: 0.3 }));
      const hidden = preview && preview.from === p;
      if (piece && !hidden) g.append(goti(x, y, piece[0], 0.34));
      if (preview && preview.to === p) g.append(goti(x, y, preview.player, 0.34, 'ghost'));
      if (last.to === p) g.append(svg('circle', { class: 'last', cx: x, cy: y, r: 0.42 }));
      if (last.caps.includes(p)) {
        const d = 0.16;
        g.append(svg('path', { class: 'last-cap', d: `M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}` }));
      }
      if (kind === 'place' || kind === 'target') g.append(svg('circle', { class: 'mark', cx: x, cy: y, r: 0.13 }));
      if (kind || (m.kind === 'from' && m.from === p) || (preview && preview.to === p)) g.append(svg('circle', { class: 'ring', cx: x, cy: y, r: 0.41 }));
      root.append(g);
    }

    // Gotis in hand, beside the board.
    const hands = obs.in_hand || [0, 0];
    for (const pl of [0, 1]) {
      const y = handY(pl);
      const n = hands[pl] ?? 0;
      const hg = svg('g', { class: 'hand', 'data-hand': pl, 'data-count': n, role: 'img',
        'aria-label': `${PLAYERS[pl].name}: ${n} in hand` });
      const toMove = obs.phase !== 'over' && obs.to_move === pl;
      hg.append(svg('text', { class: 'hand-label', x: -0.7, y: y + 0.11, 'font-weight': toMove ? 700 : 400 },
        document.createTextNode(PLAYERS[pl].name)));
      for (let i = 0; i < HAND_SIZE; i++) {
        const cx = 0.6 + i * 0.52;
        if (i < n) hg.append(goti(cx, y, pl, 0.22));
        else hg.append(svg('circle', { cx, cy: y, r: 0.07, fill: 'var(--line)' }));
      }
      hg.append(svg('text', { class: 'hand-label', x: 6.75, y: y + 0.11, 'text-anchor': 'end' }, document.createTextNode(`${n} in hand`)));
      root.append(hg);
    }

    if (focused) {
      const el = root.querySelector(`[data-point="${focused}"]`);
      if (el && el.getAttribute('tabindex') === '0') el.focus();
    }
    if (this.ctx.onHint) this.ctx.onHint(this.hint());
  }
}

function describePoint(piece, kind) {
  const who = piece ? `${PLAYERS[piece[0]].name} goti` : 'empty';
  const what = { place: 'place here', select: 'can move', target: 'move here', capture: 'capture this goti' }[kind];
  return what ? `${who}, ${what}` : who;
}

// ---------------------------------------------------------------------------------------------
// The module interface (docs/ui.md).

// Groups events into plies: a ply starts with place / move / pass / resign; a capture or the
// game's end belongs to the ply before it.
function plies(events) {
  const out = [];
  for (const e of events || []) {
    if (['place', 'move', 'pass', 'resign'].includes(e.type) || !out.length) {
      out.push({ player: e.player ?? e.by ?? null, events: [e], text: '' });
    } else {
      out[out.length - 1].events.push(e);
    }
  }
  for (const p of out) {
    p.text = plyText(p.events);
    // Draw offers (their buttons are the shell's): in the ply's second line, or its text when it is nothing else
    // (an offer before the first move).
    const offers = p.events.filter(e => e.type === 'offer').map(e => offerWords(e, playerWord(e.player)));
    if (!p.text && offers.length) p.text = offers.shift().replace(/^\S+ /, '');
    if (offers.length) p.detail = offers.join(' · ');
  }
  return out;
}

const playerWord = (p) => (PLAYERS[p] || {}).name || `Player ${p + 1}`;

function plyText(events) {
  let s = '';
  for (const e of events) {
    if (e.type === 'place') s += e.to;
    else if (e.type === 'move') s += `${e.from}-${e.to}`;
    else if (e.type === 'capture') s += `x${e.square}`;
    else if (e.type === 'pass') s += 'pass';
    else if (e.type === 'resign') s += 'resigns';
  }
  return s;
}

function initialState(game, record) {
  const start = record && record.start && typeof record.start === 'object' && record.start.board ? record.start : null;
  if (start) return structuredClone({ in_hand: [HAND_SIZE, HAND_SIZE], to_move: 0, ply: 0, ...start, phase: 'play', result: null });
  return { game: 'tigadi', options: (game && game.options) || {}, phase: 'play', to_move: 0, ply: 0, board: {}, result: null,
    in_hand: [HAND_SIZE, HAND_SIZE], quiet_plies: 0 };
}

// Redraws a position from one ply's events (for replays). Not a rules engine: it only moves the
// pieces the events say moved.
function applyPly(state, events) {
  const s = structuredClone(state);
  let mover = null;
  for (const e of events) {
    if (e.type === 'place') { s.board[e.to] = `${e.player}G`; s.in_hand[e.player] = Math.max(0, s.in_hand[e.player] - 1); mover = e.player; }
    else if (e.type === 'move') { const pc = s.board[e.from] || `${e.player}G`; delete s.board[e.from]; s.board[e.to] = pc; mover = e.player; }
    else if (e.type === 'capture') delete s.board[e.square];
    else if (e.type === 'pass') mover = e.player;
    else if (e.type === 'over') { s.phase = 'over'; s.result = e.result; }
  }
  if (mover !== null) { s.to_move = 1 - mover; s.ply = (s.ply || 0) + 1; }
  return s;
}

function summary(observation, seat) {
  const board = (observation && observation.board) || {};
  const on = Object.values(board).filter(p => p[0] === String(seat)).length;
  const hand = ((observation && observation.in_hand) || [])[seat] ?? 0;
  return hand ? `${on} on board · ${hand} in hand` : `${on} on board`;
}

// Each side's gotis in hand and lost (of nine), for the shell's material panel.
function material(observation) {
  const obs = observation || {};
  return [0, 1].map(p => {
    const on = Object.values(obs.board || {}).filter(pc => pc[0] === String(p)).length;
    const hand = (obs.in_hand || [])[p] ?? 0;
    const lost = Math.max(0, HAND_SIZE - on - hand);
    return { player: p, parts: [
      { key: 'in-hand', count: hand, text: `${hand} in hand` },
      { key: 'lost', count: lost, text: `${lost} lost` },
    ] };
  });
}

function reasonText(result) {
  const w = result.winners || [];
  const win = w.length === 1 ? PLAYERS[w[0]].name : null;
  const lose = w.length === 1 ? PLAYERS[1 - w[0]].name : null;
  switch (result.reason) {
    case 'reduced-to-two': return `${lose} is down to two gotis.`;
    case 'resignation': return `${lose} resigned.`;
    case 'repetition': return 'The same position came up for the third time.';
    case 'no-capture-100': return '100 turns went by without a capture.';
    case 'ply-limit': return 'The game reached the ply limit.';
    case 'agreement': return 'Drawn by agreement.';
    default: return win ? '' : 'Draw.';
  }
}

// A static, labelled drawing for the rules page.
function diagram(container) {
  const root = svg('svg', { class: 'tg-board', viewBox: '-0.85 -0.85 7.7 7.7', role: 'img',
    'aria-label': 'The Tigadi board: three nested squares joined by four mid-side spokes and four corner diagonals, 24 points labelled a1 to g7' });
  flipped = false;
  drawGrid(root, { labels: true });
  container.append(root);
  return root;
}

export default {
  name: 'tigadi',
  title: 'Tigadi',
  players: PLAYERS,
  create: (container, ctx) => new TigadiBoard(container, ctx),
  plies,
  initialState,
  applyPly,
  material,
  summary,
  reasonText,
  diagram,
};
