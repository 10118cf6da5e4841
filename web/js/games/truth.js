// The Game of Truth board: the 17×18 board in SVG (black squares, territories), the six piece glyphs of the
// manuscript's rule 25, the setup editor, the two-action turn, destructions with their causes, sieges,
// transformed armies, scores, the scored-stalemate agreement and the module interface the game page
// (web/js/game.js) uses. See docs/ui.md.
//
// This module never applies the rules to decide anything. What may be moved and where comes only from the
// server's `legal` list ("e4-f5", "pass"); what was destroyed and why only from the capture events
// (`cause`); sieges, transformations, scores and agreements only from the observation. `applyPly()` redraws
// replay positions from those events, and a few words (which piece may still move this turn) read the
// observation's `action` and `door_action_done`.
import { svg, h as html } from '../dom.js';
import { api, loadTokens, andList } from '../api.js';
import { wireSquareInput } from './square-input.js';
import { randomInt, shuffle, savedSetups, humanName } from './setup-common.js';
import { offerWords } from './offer-words.js';

const FILES = 'abcdefghijklmnopq';
const NF = 17;
const NR = 18;

// Kind letter -> words, how many each army has, points when destroyed (rulings: a guardian of a
// transformed army is worth 40).
export const KINDS = {
  D: { name: 'door', plural: 'doors', count: 20, points: 1 },
  L: { name: 'lantern', plural: 'lanterns', count: 10, points: 1 },
  N: { name: 'linesman', plural: 'linesmen', count: 5, points: 5 },
  S: { name: 'sentry', plural: 'sentries', count: 3, points: 5 },
  G: { name: 'guardian', plural: 'guardians', count: 2, points: 20 },
  I: { name: 'icon', plural: 'icons', count: 1, points: 100 },
};
export const KIND_ORDER = 'DLNSGI';
const SETUPS_KEY = 'tabula:truth:setups';

const PLAYERS = [
  { name: 'Ivory', fill: 'var(--tr-p0)', edge: 'var(--tr-p0-edge)', desc: 'moves first; the south, ranks 1–9' },
  { name: 'Jade', fill: 'var(--tr-p1)', edge: 'var(--tr-p1-edge)', desc: 'the north, ranks 10–18' },
  { name: 'Ember', fill: 'var(--tr-p2)', edge: 'var(--tr-p2-edge)', desc: 'the south-east (four players)' },
  { name: 'Indigo', fill: 'var(--tr-p3)', edge: 'var(--tr-p3-edge)', desc: 'the north-west (four players)' },
];
const name = (p) => (PLAYERS[p] ? PLAYERS[p].name : `Player ${Number(p) + 1}`);
const names = (ps) => andList(ps.map(name));
const upper = (t) => (t ? `${t[0].toUpperCase()}${t.slice(1)}` : t);

// ---------------------------------------------------------------------------------------------
// Squares

const fileOf = (sq) => FILES.indexOf(sq[0]);
const rankOf = (sq) => Number(sq.slice(1));
const sqName = (f, r) => `${FILES[f]}${r}`;
export const ALL_SQUARES = [];
for (let r = 1; r <= NR; r++) for (let f = 0; f < NF; f++) ALL_SQUARES.push(sqName(f, r));
const numPlayers = (obs) => Number(((obs && obs.options) || {}).players) === 4 ? 4 : 2;
// Two players: a square is white (open) when (file index + 18 − rank) is even; a18 is white. Four: all open.
export const isWhite = (sq, four = false) => four || (fileOf(sq) + NR - rankOf(sq)) % 2 === 0;
// Whose territory a square is (the icon's step): two players by ranks, four by quadrants (file i: nobody's).
export function territoryOf(sq, four = false) {
  const f = fileOf(sq);
  const south = rankOf(sq) <= 9;
  if (!four) return south ? 0 : 1;
  if (f === 8) return null;
  const west = f < 8;
  if (south) return west ? 0 : 2;
  return west ? 3 : 1;
}
export function homeSquares(player, four = false) {
  return ALL_SQUARES.filter(sq => isWhite(sq, four) && territoryOf(sq, four) === player);
}
const kindOf = (piece) => (piece ? piece[piece.length - 1] : null);
const ownerOf = (piece) => (piece && /^[0-3]/.test(piece) ? Number(piece[0]) : null);
const kindName = (piece) => (KINDS[kindOf(piece)] || { name: 'piece' }).name;
const diagNeighbours = (sq) => {
  const f = fileOf(sq);
  const r = rankOf(sq);
  const out = [];
  for (const [df, dr] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) {
    if (f + df >= 0 && f + df < NF && r + dr >= 1 && r + dr <= NR) out.push(sqName(f + df, r + dr));
  }
  return out;
};

// "e4-f5" -> { str, from, to }
export function parseMove(s) {
  const m = /^([a-q](?:1[0-8]|[1-9]))-([a-q](?:1[0-8]|[1-9]))$/.exec(s);
  return m ? { str: s, from: m[1], to: m[2] } : null;
}

// The viewer's army at the bottom: the board is turned by quarter turns (clockwise) so that the viewer's
// corner is the lower left (four players) or its half the lower one (two). Two players: Jade sees it turned
// half round. Four: Jade half round, Ember (south-east) a quarter clockwise, Indigo (north-west) a quarter
// anticlockwise. A spectator sees Ivory's view (no turn).
export function turnFor(seat, four = false) {
  if (seat === null || seat === undefined) return 0;
  if (!four) return seat === 1 ? 2 : 0;
  return [0, 2, 1, 3][seat] ?? 0;
}
// The board instance's turn: the viewer's own (turnFor), or, after Flip board (`view.flip` steps), another
// seat's: two players, the other side's view; four, the next seat's corner (Ivory → Jade → Ember → Indigo) at
// the bottom left with each step.
function viewTurn(v, four) {
  const steps = (v && v.flip) || 0;
  const seat = v && v.seat !== null && v.seat !== undefined ? v.seat : null;
  if (!steps) return turnFor(seat, four);
  const base = seat ?? 0;
  return four ? turnFor((base + steps) % 4, true) : turnFor(steps % 2 ? 1 - base : base, false);
}
// The picture's size in squares, [width, height]: a quarter turn lays the 18 ranks across.
const dims = (turn) => (turn % 2 ? [NR, NF] : [NF, NR]);
// A square's top-left corner in the picture.
function xy(sq, turn) {
  const f = fileOf(sq);
  const r = rankOf(sq);
  switch (turn) {
    case 1: return [r - 1, f];
    case 2: return [NF - 1 - f, r - 1];
    case 3: return [NR - r, NF - 1 - f];
    default: return [f, NR - r];
  }
}
// The square drawn at picture column x, row y (xy's inverse), for the coordinates in the margins.
function squareAt(x, y, turn) {
  switch (turn) {
    case 1: return sqName(y, x + 1);
    case 2: return sqName(NF - 1 - x, y + 1);
    case 3: return sqName(NF - 1 - y, NR - x);
    default: return sqName(x, NR - y);
  }
}

// The role a piece plays once its army is transformed: linesmen and sentries act as doors, guardians as
// lanterns ("lantern-guardians").
function roleOf(piece, transformed) {
  const o = ownerOf(piece);
  if (o === null || !transformed.includes(o)) return null;
  const k = kindOf(piece);
  if (k === 'N' || k === 'S') return 'door';
  if (k === 'G') return 'lantern';
  return null;
}
function pieceWords(piece, transformed = []) {
  const role = roleOf(piece, transformed);
  if (role === 'lantern') return 'lantern-guardian';
  if (role === 'door') return `${kindName(piece)} (a door now)`;
  return kindName(piece);
}

// ---------------------------------------------------------------------------------------------
// Drawing: the board

// The picture's viewBox: the board, the coordinates left and below, and with four players a line above and
// below for the armies' names (each written beside its own corner).
function viewBox(turn, four) {
  const [w, h] = dims(turn);
  const top = four ? 0.78 : 0.12;
  const bottom = four ? 1.25 : 0.6;
  return `-0.72 ${-top} ${w + 0.84} ${h + top + bottom}`;
}

// Where each army's corner lies in the picture: its quadrant's box (four players).
function quadrantBox(p, turn) {
  const pts = homeSquares(p, true).map(sq => xy(sq, turn));
  const xs = pts.map(([x]) => x);
  const ys = pts.map(([, y]) => y);
  return { x0: Math.min(...xs), x1: Math.max(...xs) + 1, y0: Math.min(...ys), y1: Math.max(...ys) + 1 };
}

// The board under the pieces: squares (tinted by territory), the borders, the coordinates and, with four
// players, the armies' names by their corners (`toMove`'s marked, `you` says which is the viewer's).
// `dim`: a player whose territory alone stays bright (the setup editor).
function drawGrid(root, { turn = 0, four, dim = null, toMove = null, you = null }) {
  const [w, h] = dims(turn);
  root.append(svg('rect', { class: 'tr-frame', x: -0.1, y: -0.1, width: w + 0.2, height: h + 0.2, rx: 0.12 }));
  for (const sq of ALL_SQUARES) {
    const [x, y] = xy(sq, turn);
    const white = isWhite(sq, four);
    const t = territoryOf(sq, four);
    const cls = white ? `tr-sq w t${t === null ? 'n' : t}` : 'tr-sq b';
    root.append(svg('rect', { class: `${cls}${dim !== null && white && t !== dim ? ' dim' : ''}`, x, y, width: 1, height: 1 }));
  }
  // The border between the north and the south (ranks 9 and 10) and, with four, the neutral file i.
  if (turn % 2 === 0) root.append(svg('line', { class: 'tr-border', x1: -0.1, y1: 9, x2: w + 0.1, y2: 9 }));
  else root.append(svg('line', { class: 'tr-border', x1: 9, y1: -0.1, x2: 9, y2: h + 0.1 }));
  if (four) {
    root.append(turn % 2 === 0
      ? svg('rect', { class: 'tr-neutral', x: 8, y: -0.1, width: 1, height: h + 0.2 })
      : svg('rect', { class: 'tr-neutral', x: -0.1, y: 8, width: w + 0.2, height: 1 }));
  }
  // Coordinates: across the bottom the files (or, turned a quarter, the ranks), up the left side the other.
  const label = (sq, across) => ((turn % 2 === 0) === across ? sq[0] : sq.slice(1));
  for (let c = 0; c < w; c++) root.append(svg('text', { class: 'tr-coords', x: c + 0.5, y: h + 0.47, 'text-anchor': 'middle' }, label(squareAt(c, 0, turn), true)));
  for (let row = 0; row < h; row++) root.append(svg('text', { class: 'tr-coords', x: -0.4, y: row + 0.62, 'text-anchor': 'middle' }, label(squareAt(0, row, turn), false)));
  if (four) {
    for (let p = 0; p < 4; p++) {
      const box = quadrantBox(p, turn);
      const cx = (box.x0 + box.x1) / 2;
      const y = box.y0 === 0 ? -0.27 : h + 1.02;
      const text = `${name(p)}${p === you ? ' (you)' : ''}`;
      const g = svg('g', { class: `tr-qname p${p}${p === toMove ? ' now' : ''}`, 'data-player': p, 'aria-hidden': 'true' });
      // The army to move gets a pill behind its name (its width guessed from the letters: no layout here).
      if (p === toMove) g.append(svg('rect', { class: 'tr-qname-bg', x: cx - text.length * 0.17 - 0.3, y: y - 0.47, width: text.length * 0.34 + 0.6, height: 0.64, rx: 0.32 }));
      g.append(svg('text', { x: cx, y, 'text-anchor': 'middle' }, text));
      root.append(g);
    }
  }
}

// A square's tap area. Two players: the diamond of the white square and the halves of the black squares
// around it (black squares are never a destination), so a finger gets twice a square's area. Four: every
// square is open, so each keeps its own square.
function hitArea(x, y, four) {
  if (four) return svg('rect', { class: 'hit', x, y, width: 1, height: 1 });
  return svg('polygon', { class: 'hit', points: `${x + 0.5},${y - 0.5} ${x + 1.5},${y + 0.5} ${x + 0.5},${y + 1.5} ${x - 0.5},${y + 0.5}` });
}

// The six glyphs of rule 25, centred on (cx, cy), for a square of side s.
function glyph(kind, cx, cy, s = 1) {
  const g = svg('g', { class: 'tr-glyph', 'stroke-width': 0.075 * s });
  const P = (d) => svg('path', { class: 'gl', d });
  const X = (v) => cx + v * s;
  const Y = (v) => cy + v * s;
  switch (kind) {
    case 'D': // a door of six squares, like 囯 without its top and bottom lines
      g.append(svg('rect', { class: 'gl', x: X(-0.17), y: Y(-0.25), width: 0.34 * s, height: 0.5 * s }));
      g.append(P(`M${X(0)} ${Y(-0.25)}V${Y(0.25)}M${X(-0.17)} ${Y(-0.083)}H${X(0.17)}M${X(-0.17)} ${Y(0.083)}H${X(0.17)}`));
      break;
    case 'L': { // a star of six lines (three through the middle)
      let d = '';
      for (const a of [90, 30, 150]) {
        const dx = Math.cos((a * Math.PI) / 180) * 0.27;
        const dy = Math.sin((a * Math.PI) / 180) * 0.27;
        d += `M${X(-dx)} ${Y(-dy)}L${X(dx)} ${Y(dy)}`;
      }
      g.append(P(d));
      g.append(svg('circle', { class: 'gf', cx, cy, r: 0.055 * s }));
      break;
    }
    case 'N': // a figure pointing across with one arm, like 上 with legs
      g.append(svg('circle', { class: 'gf', cx: X(-0.08), cy: Y(-0.23), r: 0.06 * s }));
      g.append(P(`M${X(-0.08)} ${Y(-0.16)}V${Y(0.07)}M${X(-0.08)} ${Y(-0.07)}H${X(0.2)}` +
        `M${X(0.13)} ${Y(-0.13)}L${X(0.21)} ${Y(-0.07)}L${X(0.13)} ${Y(-0.01)}` +
        `M${X(-0.08)} ${Y(0.07)}L${X(-0.2)} ${Y(0.27)}M${X(-0.08)} ${Y(0.07)}L${X(0.05)} ${Y(0.27)}`));
      break;
    case 'S': // a figure with arms down and out at the angle of its spread legs, like 仌
      g.append(svg('circle', { class: 'gf', cx, cy: Y(-0.23), r: 0.06 * s }));
      g.append(P(`M${X(0)} ${Y(-0.16)}V${Y(0.06)}M${X(0)} ${Y(-0.12)}L${X(-0.19)} ${Y(0.06)}M${X(0)} ${Y(-0.12)}L${X(0.19)} ${Y(0.06)}` +
        `M${X(0)} ${Y(0.06)}L${X(-0.2)} ${Y(0.27)}M${X(0)} ${Y(0.06)}L${X(0.2)} ${Y(0.27)}`));
      break;
    case 'G': // a hollow square open at the bottom, two small squares in its upper corners, like 円
      g.append(P(`M${X(-0.23)} ${Y(0.26)}V${Y(-0.25)}H${X(0.23)}V${Y(0.26)}M${X(-0.23)} ${Y(0.26)}h${0.07 * s}M${X(0.23)} ${Y(0.26)}h${-0.07 * s}`));
      g.append(svg('rect', { class: 'gl', x: X(-0.16), y: Y(-0.18), width: 0.11 * s, height: 0.11 * s }));
      g.append(svg('rect', { class: 'gl', x: X(0.05), y: Y(-0.18), width: 0.11 * s, height: 0.11 * s }));
      break;
    case 'I': // a sign on a post and a flat pedestal, like 黒
      g.append(svg('rect', { class: 'gl', x: X(-0.17), y: Y(-0.28), width: 0.34 * s, height: 0.27 * s }));
      g.append(P(`M${X(0)} ${Y(-0.28)}V${Y(0.16)}M${X(-0.17)} ${Y(-0.145)}H${X(0.17)}`));
      g.append(svg('rect', { class: 'gf', x: X(-0.25), y: Y(0.16), width: 0.5 * s, height: 0.09 * s, rx: 0.02 * s }));
      break;
    default:
      g.append(svg('circle', { class: 'gf', cx, cy, r: 0.08 * s }));
  }
  return g;
}

// One piece on the square whose corner is (x, y). `role`: the transformed army's role mark.
export function drawPiece(x, y, piece, { size = 1, role = null, ghost = false } = {}) {
  const owner = ownerOf(piece);
  const kind = kindOf(piece);
  const s = size;
  const cx = x + 0.5 * s;
  const cy = y + 0.5 * s;
  const g = svg('g', { class: `tr-piece p${owner} k${kind}${ghost ? ' ghost' : ''}` });
  g.append(svg('circle', { class: 'disc', cx, cy, r: 0.46 * s }));
  if (kind === 'I') g.append(svg('circle', { class: 'rim', cx, cy, r: 0.39 * s }));
  g.append(glyph(kind, cx, cy, s));
  if (role) {
    // A small badge, lower right: the role the transformed army gave this piece.
    const bx = x + 0.82 * s;
    const by = y + 0.82 * s;
    const b = svg('g', { class: `tr-role ${role}` });
    b.append(svg('circle', { class: 'tr-role-bg', cx: bx, cy: by, r: 0.17 * s }));
    if (role === 'door') b.append(svg('path', { class: 'tr-role-gl', d: `M${bx - 0.06 * s} ${by - 0.09 * s}h${0.12 * s}v${0.18 * s}h${-0.12 * s}z M${bx} ${by - 0.09 * s}v${0.18 * s}` }));
    else b.append(svg('path', { class: 'tr-role-gl', d: `M${bx} ${by - 0.1 * s}v${0.2 * s}M${bx - 0.087 * s} ${by - 0.05 * s}l${0.174 * s} ${0.1 * s}M${bx - 0.087 * s} ${by + 0.05 * s}l${0.174 * s} ${-0.1 * s}` }));
    g.append(b);
  }
  return g;
}

// ---------------------------------------------------------------------------------------------
// Words for what happened

// A capture in words, from its event and the action it belongs to (the move event before it).
export function captureText(e, mover = null, transformed = [], board = null) {
  const victim = e.piece || '';
  const owner = ownerOf(victim);
  const who = owner === null ? '' : `${name(owner)}’s `;
  const what = `${who}${pieceWords(victim, transformed)} on ${e.square}`;
  const by = e.by === null || e.by === undefined ? null : name(e.by);
  const byArmy = by ? `${by}’s` : 'an enemy';
  const moverKind = mover ? kindOf(mover.piece || '') : null;
  const selfMover = mover && mover.to === e.square && (!mover.piece || mover.piece === victim);
  let why;
  switch (e.cause) {
    case 'crossing':
      if (kindOf(victim) === 'N' && selfMover) why = 'destroyed crossing an icon';
      else if (kindOf(victim) === 'S' && selfMover) why = 'destroyed with the guardian it jumped';
      else if (moverKind === 'N') why = `crossed by ${byArmy} linesman`;
      else if (moverKind === 'S') why = `jumped by ${byArmy} sentry`;
      else why = 'destroyed by a crossing';
      break;
    case 'contact':
      if (kindOf(victim) === 'G') {
        // Only an icon destroys an ordinary guardian by contact, and a defender meeting a lantern-guardian.
        const iconNear = board && e.by !== null && e.by !== undefined && diagNeighbours(e.square).some(sq => board[sq] === `${e.by}I`);
        if (roleOf(victim, transformed) === 'lantern') why = `destroyed touching ${byArmy} guardian by its icon`;
        else if (iconNear || !transformed.includes(e.by)) why = `destroyed touching ${byArmy} icon`;
        else why = `destroyed touching ${byArmy} lantern-guardian`;
      }
      else why = `destroyed by contact with ${byArmy} guardian`;
      break;
    case 'burn': why = `burned by ${byArmy} lantern`; break;
    case 'enclosure': {
      // With four players the four may belong to several armies (the credit goes to the first of them): name
      // every army standing on the diagonals, else the credited one.
      const armies = board ? [...new Set(diagNeighbours(e.square).map(sq => ownerOf(board[sq])).filter(o => o !== null && o !== owner))].sort() : [];
      const whose = armies.length ? `${names(armies)} ` : by ? `${by} ` : 'hostile ';
      if (kindOf(victim) === 'D' || roleOf(victim, transformed) === 'door') why = `enclosed by four ${whose}lanterns`;
      else if (kindOf(victim) === 'L' || roleOf(victim, transformed) === 'lantern') why = `enclosed by four ${whose}doors`;
      else why = 'enclosed';
      break;
    }
    case 'siege': why = 'destroyed by siege: ringed by four doors through two of its turns'; break;
    case 'interception': {
      // The attacker is the moving lantern-guardian when a move met the defender; otherwise judge by role.
      const attacker = mover && mover.piece ? ownerOf(mover.piece) === owner && kindOf(mover.piece) === 'G' : roleOf(victim, transformed) === 'lantern';
      why = attacker ? `intercepted by ${byArmy} guardian defending its icon` : `destroyed intercepting ${byArmy} lantern-guardian`;
      break;
    }
    default: why = `destroyed${e.cause ? ` (${e.cause})` : ''}`;
  }
  const pts = by && e.points ? ` (+${e.points} ${by})` : '';
  return `${what} ${why}${pts}.`;
}

const CAUSE_WORD = { crossing: 'crossing', contact: 'contact', burn: 'burned', enclosure: 'enclosed', siege: 'siege', interception: 'intercepted' };

function shortCapture(e) {
  const o = ownerOf(e.piece || '');
  return `× ${o === null ? '' : `${name(o)} `}${kindName(e.piece)} ${e.square} (${CAUSE_WORD[e.cause] || e.cause || '?'})`;
}

// Every event of a ply that says something beyond the moves, in words (the log under the board).
function eventLines(events, { board = {}, transformed = [], start = false } = {}) {
  const out = [];
  let mover = null;
  for (const e of events) {
    if (e.type === 'move') mover = e;
    else if (e.type === 'capture') out.push({ cls: 'capture', cause: e.cause, square: e.square, text: captureText(e, mover, transformed, board) });
    else if (e.type === 'siege') {
      const o = e.player ?? ownerOf(board[e.icon]); // the icon's owner
      const whose = o === null ? '' : `${name(o)}’s `;
      out.push({ cls: 'siege', square: e.icon, text: e.count === 0
        ? `${upper(whose)}icon on ${e.icon} is ringed by four hostile doors: siege count 0 of 2.`
        : `The siege of ${whose}icon on ${e.icon} holds: count ${e.count} of 2.` });
    } else if (e.type === 'siege-lifted') {
      const o = e.player ?? ownerOf(board[e.icon]);
      out.push({ cls: 'siege', square: e.icon, text: `The siege of ${o === null ? 'the ' : `${name(o)}’s `}icon on ${e.icon} is lifted.` });
    } else if (e.type === 'transform') {
      out.push({ cls: 'transform', text: `${name(e.player)}’s army is transformed: its linesmen and sentries now act as doors, its guardians as lanterns.` });
    } else if (e.type === 'offer') out.push({ cls: 'offer', text: `${offerWords(e, name(e.player))}.` });
    else if (e.type === 'pass') {
      out.push({ cls: 'pass', text: e.blocked ? `${name(e.player)} had no complete turn and passed (a blocked turn).` : `${name(e.player)} ended the turn with no second action.` });
    } else if (e.type === 'start' && start) out.push({ cls: 'start', text: 'Every army is in, revealed together; what already touched was resolved:' });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The board instance the shell drives.

const FLASH_MS = 1600;

class TruthBoard {
  constructor(container, ctx) {
    this.ctx = ctx; // { onMove(moveString), onHint(text) }
    this.view = null;
    this.mode = { kind: 'idle' };
    this.flashes = new Map(); // capture key -> time first shown
    this.offerSending = false;
    this.offerError = '';
    this.gameId = new URLSearchParams(location.search).get('id');
    this.root = html('div', { class: 'tr-wrap' });
    this.orderEl = html('ol', { class: 'tr-order tr-scores', 'aria-label': 'Turn order and points' });
    this.stepEl = html('div', { class: 'tr-step', role: 'status', 'aria-live': 'polite' });
    this.svg = svg('svg', {
      class: 'tr-board', viewBox: viewBox(0, false), role: 'group',
      'aria-label': 'The Game of Truth board', preserveAspectRatio: 'xMidYMid meet',
    });
    this.info = html('div', { class: 'tr-info' });
    this.logEl = html('ul', { class: 'tr-log', 'aria-live': 'polite', 'aria-label': 'What happened lately' });
    this.legendEl = html('div', { class: 'tr-legend' });
    this.root.append(this.orderEl, this.stepEl, this.svg, this.info, this.logEl, this.legendEl);
    container.append(this.root);
    this.unwireInput = wireSquareInput(this, this.svg);
    this.info.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-offer]');
      if (b) this.offer(b.dataset.offer);
    });
  }

  destroy() {
    this.unwireInput();
    clearTimeout(this.flashTimer);
    clearTimeout(this.offerTimer);
    this.root.remove();
  }

  held() { return Object.keys(loadTokens(this.gameId)).map(Number); }

  // view: { observation, legal, lastPly, plies, interactive, seat }
  update(view) {
    const first = !this.view;
    const sameLegal = this.view && view.interactive && this.view.interactive &&
      JSON.stringify(this.view.legal) === JSON.stringify(view.legal) &&
      JSON.stringify(this.view.observation.board) === JSON.stringify(view.observation.board);
    const agreedChanged = !this.view || JSON.stringify((this.view.observation || {}).stalemate_agreed) !== JSON.stringify((view.observation || {}).stalemate_agreed) ||
      (this.view.observation || {}).phase !== (view.observation || {}).phase;
    this.view = view;
    if (agreedChanged) this.offerSending = false;
    if (!sameLegal || this.mode.kind === 'sent') this.mode = { kind: 'idle' };
    this.noteCaptures(first);
    this.render();
  }

  // How many of the latest plies are news: a round, the player's own turn and every reply (two players: two
  // plies; four: four).
  span() { return numPlayers(this.view && this.view.observation); }

  // Captures of the last round (the player's own turn and the replies): each flashes once, when the board
  // first sees it (not on the page's first update: that is history, not news).
  recentCaptures() {
    const v = this.view;
    const all = v.plies || (v.lastPly ? [{ events: v.lastPly }] : []);
    const out = [];
    all.forEach((p, i) => {
      if (i < all.length - this.span()) return;
      (p.events || []).forEach((e, j) => {
        if (e.type === 'capture') out.push({ e, key: `${i}:${j}:${e.square}:${e.piece}`, latest: i === all.length - 1 });
      });
    });
    return out;
  }

  noteCaptures(first) {
    const now = performance.now();
    let fresh = false;
    for (const c of this.recentCaptures()) {
      if (this.flashes.has(c.key)) continue;
      this.flashes.set(c.key, first ? -Infinity : now);
      fresh = fresh || !first;
    }
    if (fresh) {
      clearTimeout(this.flashTimer);
      this.flashTimer = setTimeout(() => this.render(), FLASH_MS + 50);
    }
  }

  moves() {
    if (!this.view || !this.view.interactive) return [];
    return (this.view.legal || []).map(parseMove).filter(Boolean);
  }

  // square -> 'select' | 'target'
  lit() {
    const lit = new Map();
    const moves = this.moves();
    for (const mv of moves) lit.set(mv.from, 'select');
    if (this.mode.kind === 'from') for (const mv of moves) if (mv.from === this.mode.from) lit.set(mv.to, 'target');
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
    if (kind === 'target' && m.kind === 'from') return this.submit(`${m.from}-${sq}`);
    this.mode = { kind: 'idle' };
    this.render();
  }

  submit(move) {
    this.mode = { kind: 'sent' };
    this.render();
    this.ctx.onMove(move);
  }

  async offer(what) {
    const seat = this.view && this.view.seat;
    const token = seat === null || seat === undefined ? null : loadTokens(this.gameId)[seat];
    if (!token || this.offerSending) return;
    this.offerSending = true;
    this.offerError = '';
    this.render();
    try {
      await api('POST', `/api/games/${encodeURIComponent(this.gameId)}/offers`, { body: { what }, token });
      // The shell's WebSocket update brings the new `stalemate_agreed`; until then the buttons stay disabled.
      clearTimeout(this.offerTimer);
      this.offerTimer = setTimeout(() => { if (this.offerSending) { this.offerSending = false; this.render(); } }, 3000);
    } catch (e) {
      this.offerSending = false;
      this.offerError = e.message || String(e);
      this.render();
    }
  }

  // Which action of the turn is still required, in words.
  stepWords() {
    const obs = (this.view && this.view.observation) || {};
    const transformed = (obs.transformed || []).includes(obs.to_move);
    const door = transformed ? 'a door (or a linesman or sentry: they act as doors now)' : 'a door';
    if ((obs.action || 0) === 0) return { n: 0, text: `Move ${door}, then another piece`, extra: 'either order; two different pieces' };
    if (obs.door_action_done) return { n: 1, text: 'Now move any other piece', extra: 'a door too, but not the one just moved' };
    return { n: 1, text: `Now move ${door}`, extra: 'the door action is still required' };
  }

  hint() {
    const v = this.view;
    if (!v || !v.interactive) return '';
    const m = this.mode;
    if (m.kind === 'sent') return 'Sending your action…';
    const obs = v.observation || {};
    if (m.kind === 'from') {
      const piece = (obs.board || {})[m.from];
      return `Your ${pieceWords(piece, obs.transformed || [])} on ${m.from}: pick a green dot (Esc to cancel).`;
    }
    if (!this.moves().length) return (v.legal || []).includes('pass') ? 'No complete turn is possible: use the pass button.' : '';
    return 'Pick one of your pieces with a dashed ring.';
  }

  render() {
    const v = this.view;
    const root = this.svg;
    const focused = document.activeElement && root.contains(document.activeElement) && document.activeElement.dataset
      ? document.activeElement.dataset.square : null;
    root.replaceChildren();
    const obs = (v && v.observation) || {};
    const four = numPlayers(obs) === 4;
    const turn = viewTurn(v, four);
    root.dataset.turn = String(turn);
    root.setAttribute('viewBox', viewBox(turn, four));
    const held = v && v.seat !== null && v.seat !== undefined && this.held().includes(v.seat);
    drawGrid(root, { turn, four, toMove: obs.phase === 'play' && !obs.replay ? obs.to_move : null, you: held ? v.seat : null });
    if (!v) return;
    const board = obs.board || {};
    const transformed = obs.transformed || [];
    const sieges = obs.sieges || {};
    const acted = new Set(obs.acted || []);
    const lit = this.lit();
    const m = this.mode;
    const now = performance.now();

    // The actions of the last (or current) turn: the origin dashed, the destination ringed, a line between.
    // With four players the other turns of the round are drawn too, fainter, each in its army's colour, so that
    // a player sees what the three others did since its own turn.
    const isMove = (e) => e.type === 'move' && e.from && e.to;
    const actions = (v.lastPly || []).filter(isMove);
    const lastFrom = new Set(actions.map(e => e.from));
    const lastTo = new Set(actions.map(e => e.to));
    const earlier = four && v.plies ? v.plies.slice(-this.span(), -1).flatMap(p => (p.events || []).filter(isMove)) : [];
    for (const e of [...earlier, ...actions]) {
      const [x1, y1] = xy(e.from, turn);
      const [x2, y2] = xy(e.to, turn);
      const cls = `tr-last-line${four ? ` p${e.player}` : ''}${actions.includes(e) ? '' : ' earlier'}`;
      root.append(svg('line', { class: cls, x1: x1 + 0.5, y1: y1 + 0.5, x2: x2 + 0.5, y2: y2 + 0.5 }));
      if (!actions.includes(e)) root.append(svg('circle', { class: `tr-earlier-to p${e.player}`, cx: x2 + 0.5, cy: y2 + 0.5, r: 0.47 }));
    }
    // A standing siege: red links from the icon to the four pieces of its ring.
    for (const sq of Object.keys(sieges)) {
      const [x1, y1] = xy(sq, turn);
      for (const n of diagNeighbours(sq)) {
        if (!board[n]) continue;
        const [x2, y2] = xy(n, turn);
        root.append(svg('line', { class: 'tr-siege-link', x1: x1 + 0.5, y1: y1 + 0.5, x2: x2 + 0.5, y2: y2 + 0.5 }));
      }
    }
    // Destructions of the last two plies, drawn where the square is empty now.
    const lost = new Map();
    for (const c of this.recentCaptures()) lost.set(c.e.square, c);

    const squares = ALL_SQUARES.filter(sq => isWhite(sq, four));
    for (const sq of squares) {
      const [x, y] = xy(sq, turn);
      const piece = board[sq] || null;
      const kind = lit.get(sq);
      const selected = m.kind === 'from' && m.from === sq;
      const role = piece ? roleOf(piece, transformed) : null;
      const siege = piece && kindOf(piece) === 'I' && sieges[sq] !== undefined ? sieges[sq] : undefined;
      const loss = lost.get(sq);
      const g = svg('g', {
        class: 'tr-cell' + (selected ? ' selected' : ''),
        'data-square': sq,
        'data-piece': piece || undefined,
        'data-lit': kind || undefined,
        'data-role': role || undefined,
        'data-siege': siege === undefined ? undefined : siege,
        'data-acted': acted.has(sq) ? 'true' : undefined,
        'data-lost': loss ? loss.e.piece : undefined,
        'data-cause': loss ? loss.e.cause : undefined,
        role: 'button',
        'aria-label': `${sq}, ${describe(piece, v.seat, transformed)}${siege !== undefined ? `, besieged (${siege} of 2)` : ''}${loss && !piece ? `, ${kindName(loss.e.piece)} destroyed here` : ''}`,
        'aria-description': kind ? { select: 'can move', target: 'move here' }[kind] : undefined,
        'aria-disabled': kind ? undefined : 'true',
        'aria-pressed': selected ? 'true' : undefined,
        tabindex: kind ? 0 : -1,
      });
      g.append(hitArea(x, y, four));
      if (lastFrom.has(sq)) g.append(svg('rect', { class: 'tr-last-from', x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, rx: 0.1 }));
      if (loss && !piece) {
        g.append(drawPiece(x, y, loss.e.piece, { ghost: true }));
        g.append(svg('path', { class: 'tr-lost-x', d: `M${x + 0.2} ${y + 0.2}L${x + 0.8} ${y + 0.8}M${x + 0.8} ${y + 0.2}L${x + 0.2} ${y + 0.8}` }));
      } else if (loss) {
        g.append(svg('path', { class: 'tr-lost-x small', d: `M${x + 0.02} ${y + 0.02}l.2 .2M${x + 0.22} ${y + 0.02}l-.2 .2` }));
      }
      if (piece) g.append(drawPiece(x, y, piece, { role }));
      if (siege !== undefined) {
        g.append(svg('rect', { class: 'tr-siege-ring', x: x - 0.02, y: y - 0.02, width: 1.04, height: 1.04, rx: 0.5 }));
        for (let i = 0; i < 2; i++) g.append(svg('circle', { class: `tr-siege-pip${i < siege ? ' on' : ''}`, cx: x + 0.34 + i * 0.32, cy: y + 0.04, r: 0.12 }));
      }
      if (acted.has(sq)) g.append(svg('rect', { class: 'tr-acted', x: x + 0.02, y: y + 0.02, width: 0.96, height: 0.96, rx: 0.5 }));
      else if (lastTo.has(sq)) g.append(svg('rect', { class: 'tr-last-to', x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, rx: 0.5 }));
      if (loss) {
        const t0 = this.flashes.get(loss.key);
        if (t0 !== undefined && now - t0 < FLASH_MS) {
          const burst = svg('circle', { class: 'tr-burst', cx: x + 0.5, cy: y + 0.5, r: 0.5 });
          burst.style.animationDelay = `${-(now - t0)}ms`;
          g.append(burst);
        }
      }
      if (kind === 'target') g.append(svg('circle', { class: 'tr-dot', cx: x + 0.5, cy: y + 0.5, r: 0.17 }));
      if (kind || selected) g.append(svg('rect', { class: 'tr-ring', x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, rx: 0.5 }));
      root.append(g);
    }
    if (focused) {
      const el = root.querySelector(`[data-square="${focused}"]`);
      if (el && el.getAttribute('tabindex') === '0') el.focus();
    }
    this.root.dataset.action = obs.action ?? 0;
    this.root.dataset.ply = obs.ply ?? 0;
    this.root.dataset.toMove = obs.to_move ?? 0;
    this.root.dataset.phase = obs.phase || '';
    this.renderOrder();
    this.renderStep();
    this.renderInfo();
    this.renderLog();
    this.renderLegend();
    if (this.ctx.onHint) this.ctx.onHint(this.hint());
  }

  renderStep() {
    const v = this.view;
    const obs = v.observation || {};
    const el = this.stepEl;
    if (obs.phase !== 'play' || obs.replay) { el.replaceChildren(); el.classList.add('hidden'); el.dataset.step = ''; return; }
    el.classList.remove('hidden');
    const st = this.stepWords();
    const pips = html('span', { class: 'tr-pips', 'aria-hidden': 'true' },
      html('span', { class: `tr-pip${st.n >= 1 ? ' done' : ' now'}` }, '1'),
      html('span', { class: `tr-pip${st.n >= 1 ? ' now' : ''}` }, '2'));
    const mine = v.interactive || (v.seat === obs.to_move && this.held().includes(v.seat));
    el.dataset.step = st.n;
    el.dataset.mine = String(!!mine);
    if (mine) {
      el.replaceChildren(pips, html('strong', { class: 'tr-step-text' }, `${st.text}.`), html('span', { class: 'muted' }, ` (${st.extra})`));
    } else {
      const who = name(obs.to_move);
      el.replaceChildren(pips, html('span', { class: 'tr-step-text' }, st.n === 0 ? `${who}’s turn: the first action.` : `${who}’s turn: the second action.`));
    }
  }

  // Above the board: the armies in turn order (Ivory → Jade → Ember → Indigo), the one to move marked, each
  // with its name, colour, points and whether it is transformed. `data-scores` and `data-to-move` say what
  // is shown (tests compare them with the observation).
  renderOrder() {
    const v = this.view;
    const obs = v.observation || {};
    const el = this.orderEl;
    const show = obs.phase && obs.phase !== 'setup';
    el.classList.toggle('hidden', !show);
    if (!show) { el.replaceChildren(); return; }
    const n = numPlayers(obs);
    const scores = Array.from({ length: n }, (_, p) => (obs.scores || [])[p] ?? 0);
    const toMove = obs.phase === 'play' ? obs.to_move : null;
    const transformed = obs.transformed || [];
    const you = v.seat !== null && v.seat !== undefined && this.held().includes(v.seat) ? v.seat : null;
    el.dataset.scores = JSON.stringify(obs.scores || scores);
    el.dataset.toMove = toMove === null || toMove === undefined ? '' : String(toMove);
    el.replaceChildren(...scores.map((pts, p) => {
      const now = p === toMove;
      const words = `${name(p)}, ${pts} point${pts === 1 ? '' : 's'}${transformed.includes(p) ? ', transformed' : ''}${now ? ', to move' : ''}${p === you ? ', you' : ''}`;
      // The chip holds the army (ringed when it is to move); the arrow between chips is the li's own.
      return html('li', { class: `tr-score p${p}${now ? ' now' : ''}`, dataset: { player: p, now: String(now) }, 'aria-label': words, 'aria-current': now ? 'step' : undefined },
        html('span', { class: 'tr-chip' },
          html('span', { class: 'tr-swatch', 'aria-hidden': 'true' }),
          html('span', { class: 'tr-order-name' }, name(p)),
          html('span', { class: 'tr-order-pts' }, String(pts)),
          transformed.includes(p) ? html('span', { class: 'tr-tag transformed', title: 'transformed: linesmen and sentries act as doors, guardians as lanterns' }, 'transformed') : null,
          p === you ? html('span', { class: 'tr-tag you' }, 'you') : null));
    }));
  }

  // Under the board: sieges, transformed armies, the scored-stalemate agreement.
  renderInfo() {
    const v = this.view;
    const obs = v.observation || {};
    const board = obs.board || {};
    const parts = [];
    const n = numPlayers(obs);
    const seat = v.seat;
    const held = seat !== null && seat !== undefined && this.held().includes(seat);
    const inPlay = obs.phase === 'play' && !obs.replay;
    for (const [sq, count] of Object.entries(obs.sieges || {})) {
      const o = ownerOf(board[sq]);
      const whose = o === null ? 'The icon' : `${name(o)}’s icon`;
      const left = count >= 1 ? 'destroyed at the end of its owner’s next turn if the ring holds' : 'destroyed after two of its owner’s turns if the ring holds';
      parts.push(html('p', { class: 'tr-siege', dataset: { icon: sq, count } }, html('strong', {}, `${whose} on ${sq} is besieged: ${count} of 2`), ` — ${left}.`));
    }
    for (const p of obs.transformed || []) {
      parts.push(html('p', { class: 'tr-transformed', dataset: { player: p } }, html('strong', {}, `${name(p)}’s army is transformed`),
        ': its linesmen and sentries act as doors (door badge), its guardians as lanterns (star badge).'));
    }
    // The scored-stalemate agreement.
    const agreed = obs.stalemate_agreed || [];
    const box = html('div', { class: 'tr-stalemate', 'data-agreed': agreed.join(',') });
    if (inPlay && agreed.length) {
      const standing = Array.from({ length: n }, (_, p) => p).filter(p => Object.values(board).includes(`${p}I`));
      const all = standing.every(p => agreed.includes(p));
      const mineAgreed = held && agreed.includes(seat);
      const others = agreed.filter(p => p !== seat || !held);
      const text = [mineAgreed ? 'You agree to a scored stalemate' : '', others.length ? `${names(others)} agree${others.length === 1 ? 's' : ''}${mineAgreed ? ' too' : ' to a scored stalemate'}` : '']
        .filter(Boolean).join('; ');
      box.append(html('span', { class: 'tr-stalemate-text' }, `${text}. ${all ? 'The game ends at the end of this round, decided on points.' : 'It takes effect at the end of a round once every player with an icon agrees.'}`));
    }
    if (inPlay && held && Object.values(board).includes(`${seat}I`)) {
      const btn = (what, text, cls) => html('button', { type: 'button', class: cls, 'data-offer': what, disabled: this.offerSending }, text);
      box.append(agreed.includes(seat) ? btn('withdraw', 'Withdraw agreement', 'secondary') : btn('stalemate', 'Agree to scored stalemate', 'secondary'));
    }
    if (this.offerError) box.append(html('span', { class: 'error', role: 'alert' }, this.offerError));
    if (box.childNodes.length) parts.push(box);
    this.info.replaceChildren(...parts);
  }

  // What happened in the last two plies (the player's own turn and the reply), destructions with their causes.
  renderLog() {
    const v = this.view;
    const obs = v.observation || {};
    const all = v.plies || (v.lastPly ? [{ events: v.lastPly, player: null }] : []);
    const items = [];
    const board = this.boardWithLost();
    all.forEach((p, i) => {
      if (i < all.length - this.span()) return;
      for (const l of eventLines(p.events || [], { board, transformed: obs.transformed || [], start: !!p.start })) {
        items.push(html('li', { class: `tr-log-${l.cls}`, dataset: { cause: l.cause || '', square: l.square || '', ply: i } }, l.text));
      }
    });
    this.logEl.replaceChildren(...items);
    this.logEl.classList.toggle('hidden', !items.length);
  }

  // The observation's board with the pieces lost in the last two plies put back (for words only).
  boardWithLost() {
    const board = { ...((this.view.observation || {}).board || {}) };
    for (const c of this.recentCaptures()) if (!board[c.e.square] && c.e.piece) board[c.e.square] = c.e.piece;
    return board;
  }

  renderLegend() {
    const n = numPlayers(this.view.observation);
    const key = `${this.view.seat ?? 0}/${n}`;
    if (this.legendEl.dataset.key === key) return;
    this.legendEl.dataset.key = key;
    this.legendEl.replaceChildren(legend(this.view.seat ?? 0, n));
  }
}

function describe(piece, seat, transformed) {
  if (!piece) return 'empty';
  const owner = ownerOf(piece);
  return `${owner === seat ? 'your' : `${name(owner)}’s`} ${pieceWords(piece, transformed)}`;
}

// The legend: each glyph in every army's colour (the viewer's first), with its name and worth.
function legend(seat = 0, n = 2) {
  const first = seat >= 0 && seat < n ? seat : 0;
  const order = [first, ...Array.from({ length: n }, (_, p) => p).filter(p => p !== first)];
  const items = [...KIND_ORDER].map(k => {
    const s = svg('svg', { class: `tr-legend-glyphs n${n}`, viewBox: `0 0 ${n} 1`, 'aria-hidden': 'true' });
    order.forEach((p, i) => s.append(drawPiece(i, 0, `${p}${k}`)));
    return html('li', { dataset: { kind: k } }, s, html('span', {}, upper(KINDS[k].name), html('small', { class: 'muted' }, ` ${KINDS[k].points} pt${KINDS[k].points === 1 ? '' : 's'}`)));
  });
  const which = n === 2 ? `${name(order[0])} left, ${name(order[1])} right` : `from the left: ${names(order)}`;
  return html('div', {},
    html('p', { class: 'tr-legend-title muted' }, `The pieces (${which}):`),
    html('ul', { class: 'tr-legend-list', 'aria-label': 'Legend of the pieces' }, ...items));
}

// ---------------------------------------------------------------------------------------------
// Setups

const ALL_LETTERS = [...KIND_ORDER].flatMap(k => Array(KINDS[k].count).fill(k));


// A random placement for `player`: the icon in the back three ranks, the guardians and sentries within
// the icon's range (so they can move), the rest anywhere on the own white squares.
export function randomPlacement(player, four = false) {
  const squares = homeSquares(player, four);
  const south = territoryOf('a1', four) === player || (four && player === 2);
  const back = squares.filter(sq => (south ? rankOf(sq) <= 3 : rankOf(sq) >= 16));
  const icon = back[randomInt(back.length)];
  const dist = (a, b) => Math.max(Math.abs(fileOf(a) - fileOf(b)), Math.abs(rankOf(a) - rankOf(b)));
  const out = { [icon]: 'I' };
  const near = shuffle(squares.filter(sq => sq !== icon && dist(sq, icon) <= 4));
  for (const k of ['G', 'G', 'S', 'S', 'S']) out[near.pop()] = k;
  const rest = shuffle(squares.filter(sq => !out[sq]));
  const letters = shuffle(ALL_LETTERS.filter(k => !'GSI'.includes(k)));
  letters.forEach((k, i) => { out[rest[i]] = k; });
  return out;
}

// Checks a placement {square: letter} for `player`; returns an error text or ''.
export function placementError(placement, player, four = false) {
  if (!placement || typeof placement !== 'object') return 'not a placement';
  const home = new Set(homeSquares(player, four));
  const counts = {};
  for (const [sq, v] of Object.entries(placement)) {
    if (!home.has(sq)) return `${sq} is not one of your white squares`;
    const k = kindOf(String(v));
    if (!KINDS[k]) return `unknown piece "${v}" on ${sq}`;
    counts[k] = (counts[k] || 0) + 1;
  }
  if (Object.keys(placement).length !== 41) return `${Object.keys(placement).length} pieces placed, 41 needed`;
  for (const k of KIND_ORDER) if ((counts[k] || 0) !== KINDS[k].count) return `${counts[k] || 0} ${KINDS[k].plural}, ${KINDS[k].count} needed`;
  return '';
}

const normalize = (placement) => Object.fromEntries(Object.entries(placement || {}).map(([sq, v]) => [sq, kindOf(String(v))]));

// Saved arrangements: {name: {side, players, placement}}. No two territories are alike (two players: Ivory's
// has 76 white squares, Jade's 77; four: each army's own corner), so an arrangement is kept for the side and
// the number of players it was made for (entries saved before four players were playable have no `players`:
// they are for two).
const saved = savedSetups(SETUPS_KEY);

// The named arrangements' placements for a game of `players`, {name: {seat: placement}}, and the names the
// server knows but sends no placement for. The kind's `arrangements` are for a game made with its default
// options; a variant carries its own in `placements` ({name: {seat: placement}}) beside their names in
// `arrangements`: those the editor cannot show, it asks the server to place (`{"arrangement": name}`).
export function arrangementsFor(kind, players) {
  const k = kind || {};
  const variant = (k.variants || []).find(v => Number(v.players) === players);
  const own = variant && variant.arrangements;
  if (variant && variant.placements && typeof variant.placements === 'object' && Object.keys(variant.placements).length)
    return { placements: variant.placements, serverOnly: (Array.isArray(own) ? own : []).filter(n => !variant.placements[n]) };
  if (own && typeof own === 'object' && !Array.isArray(own)) return { placements: own, serverOnly: [] };
  const defaultPlayers = Number((k.options || {}).players) === 4 ? 4 : 2;
  const placements = defaultPlayers === players ? (k.arrangements || {}) : {};
  const serverOnly = (Array.isArray(own) ? own : []).filter(n => !placements[n]);
  return { placements, serverOnly };
}

class SetupEditor {
  // ctx: { seat, kind (the /api/games/kinds entry), options (the game's), submit(placement) -> Promise,
  //        submitArrangement(name) -> Promise (the server places a named arrangement), onHint(text) }
  constructor(container, ctx) {
    this.ctx = ctx;
    this.seat = ctx.seat;
    this.four = Number((ctx.options || {}).players) === 4;
    const { placements, serverOnly } = arrangementsFor(ctx.kind, this.four ? 4 : 2);
    this.arrangements = placements;
    // Named arrangements only the server can place: "Begin with the suggested arrangement" sends its name.
    this.serverOnly = ctx.submitArrangement ? serverOnly : [];
    this.selected = null;
    this.editing = true;
    this.sending = false;
    this.wasReady = false;
    const sugg = this.named('suggested');
    this.placement = sugg && !placementError(normalize(sugg), this.seat, this.four) ? normalize(sugg) : randomPlacement(this.seat, this.four);

    const turn = turnFor(this.seat, this.four);
    this.svg = svg('svg', { class: 'tr-board tr-setup-board', viewBox: viewBox(turn, this.four), role: 'group',
      'aria-label': `Your arrangement, ${name(this.seat)}`, preserveAspectRatio: 'xMidYMid meet' });
    const others = Object.keys(this.arrangements).filter(n => n !== 'suggested');
    const suggestedHere = !!this.arrangements.suggested || !this.serverOnly.includes('suggested');
    this.el = {
      named: html('select', { 'aria-label': 'Named arrangement', 'data-role': 'named' }, ...others.map(n => html('option', { value: n }, humanName(n)))),
      saved: html('select', { 'aria-label': 'Saved arrangement', 'data-role': 'saved' }),
      name: html('input', { type: 'text', maxlength: 40, placeholder: 'Name this arrangement', 'aria-label': 'Name for this arrangement', 'data-role': 'save-name' }),
      msg: html('p', { class: 'tr-setup-msg', role: 'status', 'aria-live': 'polite' }),
      err: html('p', { class: 'error', role: 'alert' }),
    };
    const btn = (act, text, cls = 'secondary') => html('button', { type: 'button', class: cls, 'data-act': act }, text);
    this.tools = html('div', { class: 'tr-setup-tools' },
      html('div', { class: 'row' },
        suggestedHere ? btn('suggested', 'Suggested arrangement') : null,
        btn('random', 'Random'),
        others.length ? html('span', { class: 'tr-group' }, this.el.named, btn('named', 'Use')) : null),
      html('div', { class: 'row' },
        html('span', { class: 'tr-group' }, this.el.name, btn('save', 'Save')),
        html('span', { class: 'tr-group', 'data-role': 'saved-group' }, this.el.saved, btn('load', 'Load'), btn('delete', 'Delete', 'danger secondary'))),
      html('div', { class: 'row' }, btn('begin', 'Begin game', 'primary'),
        ...this.serverOnly.map(n => html('button', { type: 'button', class: 'secondary', 'data-act': 'server-arrangement', 'data-name': n },
          n === 'suggested' ? 'Begin with the suggested arrangement' : `Begin with “${humanName(n)}”`))));
    this.waiting = html('div', { class: 'tr-setup-waiting hidden' },
      html('p', { class: 'tr-wait' }, `Your army is in. Waiting for the other ${this.four ? 'armies' : 'army'}…`),
      btn('change', 'Change my setup'));
    const help = this.four
      ? 'Tap a piece, then an empty square of your corner to move it there, or another of your pieces to swap the two. Your corner is at the bottom left; no other army is shown before the game begins.'
      : 'Tap a piece, then an empty white square of your territory to move it there, or another of your pieces to swap the two. Your territory is at the bottom; the other army is never shown before the game begins.';
    this.root = html('div', { class: 'tr-setup', 'data-seat': this.seat, 'data-players': this.four ? 4 : 2 },
      html('h2', {}, `Set up your army (${name(this.seat)})`),
      html('p', { class: 'muted tr-setup-help' }, help),
      this.svg, this.el.msg, this.el.err, this.tools, this.waiting, html('div', { class: 'tr-legend' }, legend(this.seat, this.four ? 4 : 2)));
    container.append(this.root);
    this.root.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-act]');
      if (b) this.act(b.dataset.act, b.dataset.name);
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
    this.onKey = (e) => { if (e.key === 'Escape' && this.selected) this.select(null); };
    document.addEventListener('keydown', this.onKey);
    this.fillSaved();
    this.render();
  }

  destroy() { this.destroyed = true; document.removeEventListener('keydown', this.onKey); this.root.remove(); }

  named(n) {
    const a = this.arrangements[n];
    if (!a) return null;
    return a[String(this.seat)] || a[this.seat] || null;
  }

  // view: { observation, seat }
  update(view) {
    const obs = view.observation || {};
    const ready = (obs.ready || []).includes(this.seat);
    const mine = Object.entries(obs.board || {}).filter(([, p]) => ownerOf(p) === this.seat);
    if (ready && !this.wasReady) {
      this.editing = false;
      // Show what the server holds.
      if (mine.length === 41) this.placement = Object.fromEntries(mine.map(([sq, p]) => [sq, kindOf(p)]));
    }
    if (!ready) this.editing = true;
    this.wasReady = ready;
    this.render();
  }

  fillSaved() {
    const all = saved.load();
    const players = this.four ? 4 : 2;
    const names = Object.keys(all).filter(n => all[n] && all[n].side === this.seat && (all[n].players || 2) === players).sort();
    this.el.saved.replaceChildren(...names.map(n => html('option', { value: n }, n)));
    this.tools.querySelector('[data-role="saved-group"]').classList.toggle('hidden', !names.length);
  }

  say(text, err = '') { this.el.msg.textContent = text; this.el.err.textContent = err; }

  use(placement, label) {
    const p = normalize(placement);
    const bad = placementError(p, this.seat, this.four);
    if (bad) return this.say('', `Cannot use ${label}: ${bad}.`);
    this.placement = p;
    this.selected = null;
    this.say(`Using ${label}.`);
    this.render();
  }

  // what: the button's data-act; arg: its data-name (a named arrangement the server places).
  async act(what, arg) {
    if (this.sending) return;
    if (what === 'suggested') {
      const a = this.named('suggested');
      return a ? this.use(a, 'the suggested arrangement') : this.say('', 'The server offers no suggested arrangement.');
    }
    if (what === 'random') { this.placement = randomPlacement(this.seat, this.four); this.selected = null; this.say('A random arrangement.'); return this.render(); }
    if (what === 'named') {
      const n = this.el.named.value;
      const a = this.named(n);
      return a ? this.use(a, `“${humanName(n)}”`) : this.say('', `“${humanName(n)}” has no arrangement for ${name(this.seat)}.`);
    }
    if (what === 'save') {
      const n = this.el.name.value.trim();
      if (!n) { this.el.name.focus(); return this.say('', 'Give the arrangement a name first.'); }
      const all = saved.load();
      all[n] = { side: this.seat, players: this.four ? 4 : 2, placement: { ...this.placement } };
      saved.store(all);
      this.fillSaved();
      this.el.saved.value = n;
      this.el.name.value = '';
      return this.say(`Saved as “${n}”.`);
    }
    if (what === 'load') {
      const n = this.el.saved.value;
      const all = saved.load();
      if (n && all[n]) this.use(all[n].placement, `“${n}”`);
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
    if (what === 'change') { this.editing = true; this.say('Change your arrangement, then press Begin game again.'); return this.render(); }
    if (what === 'begin' || what === 'server-arrangement') {
      const bad = what === 'begin' ? placementError(this.placement, this.seat, this.four) : '';
      if (bad) return this.say('', bad);
      this.sending = true;
      this.selected = null;
      this.say('Sending your arrangement…');
      this.render();
      try {
        // A named arrangement the server places: the editor then shows what the server holds (update()).
        if (what === 'begin') await this.ctx.submit({ ...this.placement });
        else await this.ctx.submitArrangement(arg);
        this.editing = false;
        this.wasReady = true;
        this.say('');
      } catch (e) {
        this.say('', `The server refused the arrangement: ${e.message || e}`);
      }
      this.sending = false;
      this.render();
    }
  }

  clickSquare(sq) {
    if (!this.editing || this.sending) return this.select(null);
    const home = homeSquares(this.seat, this.four);
    if (!home.includes(sq)) return this.select(null);
    const here = this.placement[sq];
    if (this.selected === null) return here ? this.select(sq) : this.select(null);
    if (this.selected === sq) return this.select(null);
    this.moveOrSwap(this.selected, sq);
  }

  moveOrSwap(from, to) {
    const p = this.placement;
    const a = p[from];
    const b = p[to];
    if (b) { p[from] = b; p[to] = a; this.say(`Swapped the ${KINDS[a].name} on ${from} and the ${KINDS[b].name} on ${to}.`); }
    else { delete p[from]; p[to] = a; this.say(`Moved the ${KINDS[a].name} from ${from} to ${to}.`); }
    this.selected = null;
    this.render();
  }

  select(sq) {
    this.selected = sq;
    if (sq) this.say(`The ${KINDS[this.placement[sq]].name} on ${sq}: tap an empty ${this.four ? '' : 'white '}square to move it, or another piece to swap them.`);
    this.render();
  }

  render() {
    // (Begin game's answer may come back after the shell has already put the board in place of the editor.)
    if (this.destroyed) return;
    const root = this.svg;
    const turn = turnFor(this.seat, this.four);
    const focused = document.activeElement && root.contains(document.activeElement) && document.activeElement.dataset
      ? document.activeElement.dataset.square : null;
    root.replaceChildren();
    drawGrid(root, { turn, four: this.four, dim: this.seat, you: this.seat });
    // The other territories: only words, never a piece.
    if (!this.four) {
      const otherY = 4.6;
      root.append(svg('rect', { class: 'tr-setup-other-bg', x: 1.5, y: otherY - 0.75, width: NF - 3, height: 1.1, rx: 0.3 }));
      root.append(svg('text', { class: 'tr-setup-other', x: NF / 2, y: otherY, 'text-anchor': 'middle' }, 'The other army sets up here, unseen'));
    } else {
      for (let p = 0; p < 4; p++) {
        if (p === this.seat) continue;
        const box = quadrantBox(p, turn);
        const cx = (box.x0 + box.x1) / 2;
        const cy = (box.y0 + box.y1) / 2;
        root.append(svg('rect', { class: 'tr-setup-other-bg', x: box.x0 + 0.6, y: cy - 1.05, width: box.x1 - box.x0 - 1.2, height: 1.9, rx: 0.3 }));
        root.append(svg('text', { class: 'tr-setup-other', x: cx, y: cy - 0.25, 'text-anchor': 'middle' }, `${name(p)} sets up here,`));
        root.append(svg('text', { class: 'tr-setup-other', x: cx, y: cy + 0.5, 'text-anchor': 'middle' }, 'unseen'));
      }
    }
    const editable = this.editing && !this.sending;
    for (const sq of homeSquares(this.seat, this.four)) {
      const [x, y] = xy(sq, turn);
      const k = this.placement[sq];
      const sel = this.selected === sq;
      let lit;
      if (editable) lit = this.selected === null ? (k ? 'select' : undefined) : (sel ? 'select' : k ? 'swap' : 'target');
      const g = svg('g', {
        class: 'tr-cell' + (sel ? ' selected' : ''), 'data-square': sq, 'data-piece': k ? `${this.seat}${k}` : undefined,
        'data-lit': lit, role: 'button', 'aria-label': `${sq}, ${k ? `your ${KINDS[k].name}` : 'empty'}`, 'aria-pressed': sel ? 'true' : undefined,
        tabindex: editable ? 0 : -1,
      });
      g.append(hitArea(x, y, this.four));
      if (k) g.append(drawPiece(x, y, `${this.seat}${k}`));
      if (lit === 'target') g.append(svg('circle', { class: 'tr-dot', cx: x + 0.5, cy: y + 0.5, r: 0.12 }));
      if (sel || lit === 'swap') g.append(svg('rect', { class: 'tr-ring', x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, rx: 0.5 }));
      root.append(g);
    }
    this.root.classList.toggle('editing', this.editing);
    this.tools.classList.toggle('hidden', !this.editing);
    this.waiting.classList.toggle('hidden', this.editing);
    this.root.querySelector('.tr-setup-help').classList.toggle('hidden', !this.editing);
    for (const b of this.tools.querySelectorAll('button')) b.disabled = this.sending;
    if (focused) {
      const el = root.querySelector(`[data-square="${focused}"]`);
      if (el) el.focus();
    }
    if (this.ctx.onHint) this.ctx.onHint(this.editing ? 'Arrange your army, then press Begin game.' : `Waiting for the other ${this.four ? 'armies' : 'army'} to set up.`);
  }
}

// ---------------------------------------------------------------------------------------------
// The module interface (docs/ui.md).

// Groups events into plies, one per turn: a turn starts with its first action (a move with `action` 0) or a
// blocked pass, or a resignation; the second action, captures, sieges, transformations, offers and the end
// belong to the turn they happen in. The start of play with its captures is a ply of its own (player null)
// when something was destroyed at the start. Setups are not plies. `moves` is how many of the record's
// move strings the ply stands for (the shell labels plies from the record with it).
function plies(events) {
  const out = [];
  let pending = []; // events before the first turn: the start, its captures, early offers
  let cur = null;
  for (const e of events || []) {
    if (e.type === 'setup') continue;
    const acts = cur ? cur.events.filter(x => x.type === 'move' || x.type === 'pass').length : 0;
    const ended = !!cur && cur.events.some(x => x.type === 'pass' || x.type === 'resign');
    let starts = false;
    if (e.type === 'move') starts = e.action === 0 || (e.action === undefined && (!cur || cur.player !== e.player || acts >= 2 || ended));
    else if (e.type === 'pass') starts = !!e.blocked || !cur || cur.player !== e.player || ended;
    else if (e.type === 'resign') starts = true;
    if (starts) {
      if (pending.some(x => x.type === 'capture')) {
        out.push({ player: null, events: pending, text: '', start: true });
        pending = [];
      }
      cur = { player: e.player ?? null, events: [...pending, e], text: '' };
      pending = [];
      out.push(cur);
    } else if (cur) cur.events.push(e);
    else pending.push(e);
  }
  // Before the first turn: a start that destroyed something is an entry of its own; a plain start is none.
  if (pending.some(x => x.type === 'capture')) out.push({ player: null, events: pending, text: '', start: true });
  else if (pending.some(x => x.type === 'offer' || x.type === 'resign')) {
    const first = pending.find(e => e.player !== undefined);
    out.push({ player: first ? first.player : null, events: pending, text: '' });
  }
  for (const p of out) {
    const acts = p.events.filter(e => e.type === 'move' || e.type === 'pass');
    p.moves = acts.length;
    if (p.events[0] && p.events[0].type === 'resign') p.text = 'resigns';
    else if (p.start && !acts.length) p.text = 'start';
    else if (acts.length) p.text = acts.map(e => (e.type === 'pass' ? 'pass' : `${e.from}-${e.to}`)).join(' ');
    else {
      const off = p.events.find(e => e.type === 'offer');
      p.text = off ? offerWords(off, name(off.player)).replace(/^\S+ /, '') : '';
    }
    const own = acts.length || p.events[0].type === 'resign' ? null : p.events.find(e => e.type === 'offer');
    const d = [];
    for (const e of p.events) {
      if (e === own) continue;
      if (e.type === 'pass' && e.blocked) d.push('a blocked turn');
      if (e.type === 'capture') d.push(shortCapture(e));
      else if (e.type === 'siege') d.push(e.count === 0 ? `ring round ${e.icon}` : `siege ${e.icon} ${e.count}/2`);
      else if (e.type === 'siege-lifted') d.push(`siege of ${e.icon} lifted`);
      else if (e.type === 'transform') d.push(`${name(e.player)} transformed`);
      else if (e.type === 'offer') d.push(offerWords(e, name(e.player)));
    }
    if (d.length) p.detail = d.join(' · ');
  }
  return out;
}

function initialState(game, record) {
  const options = (game && game.options) || (record && record.options) || {};
  const n = Number(options.players) === 4 ? 4 : 2;
  const start = record && record.start && typeof record.start === 'object' ? record.start : null;
  let board = {};
  if (start && start.board && start.phase === 'play' && Object.keys(start.board).length) board = { ...start.board };
  else {
    const setups = (record && record.setups) || {};
    for (let p = 0; p < n; p++) {
      const placement = setups[String(p)] || setups[p] || {};
      for (const [sq, v] of Object.entries(placement)) board[sq] = `${p}${kindOf(String(v))}`;
    }
  }
  return {
    game: 'truth', options, phase: 'play', to_move: 0, ply: 0, board, result: null,
    scores: Array(n).fill(0), transformed: [], sieges: {}, action: 0, acted: [], door_action_done: false,
    blocked_turns: 0, stalemate_agreed: [], ready: Array.from({ length: n }, (_, i) => i), replay: true,
    ...(start && start.phase === 'play' ? { scores: start.scores || Array(n).fill(0), transformed: start.transformed || [], sieges: start.sieges || {} } : {}),
  };
}

// Redraws a position from one ply's events (replays): moves, destructions, points, sieges,
// transformations, agreements. Not a rules engine.
function applyPly(state, events) {
  const s = structuredClone(state);
  s.board = s.board || {};
  s.scores = s.scores || [];
  s.sieges = s.sieges || {};
  s.transformed = s.transformed || [];
  s.stalemate_agreed = s.stalemate_agreed || [];
  const n = s.scores.length || 2;
  let mover = null;
  for (const e of events) {
    if (e.type === 'move' && e.from && e.to) {
      const pc = s.board[e.from] || e.piece;
      delete s.board[e.from];
      if (pc) s.board[e.to] = pc;
      if (s.sieges[e.from] !== undefined && kindOf(pc) === 'I') delete s.sieges[e.from];
      mover = e.player;
    } else if (e.type === 'capture') {
      delete s.board[e.square];
      delete s.sieges[e.square];
      if (e.by !== null && e.by !== undefined) s.scores[e.by] = (s.scores[e.by] || 0) + (e.points || 0);
    } else if (e.type === 'siege') s.sieges[e.icon] = e.count;
    else if (e.type === 'siege-lifted') delete s.sieges[e.icon];
    else if (e.type === 'transform') { if (!s.transformed.includes(e.player)) s.transformed = [...s.transformed, e.player].sort(); }
    else if (e.type === 'offer') {
      if (e.what === 'stalemate' && !s.stalemate_agreed.includes(e.player)) s.stalemate_agreed = [...s.stalemate_agreed, e.player].sort();
      if (e.what === 'withdraw') s.stalemate_agreed = s.stalemate_agreed.filter(p => p !== e.player);
    } else if (e.type === 'pass') mover = e.player;
    else if (e.type === 'over') { s.phase = 'over'; s.result = e.result; }
  }
  if (mover !== null && mover !== undefined) {
    s.to_move = (mover + 1) % n;
    s.ply = (s.ply || 0) + 1;
  }
  s.action = 0;
  s.acted = [];
  s.door_action_done = false;
  return s;
}

function summary(observation, seat) {
  const obs = observation || {};
  if (obs.phase === 'setup') return (obs.ready || []).includes(seat) ? 'army in' : 'setting up';
  const on = Object.values(obs.board || {}).filter(p => ownerOf(p) === seat);
  const score = (obs.scores || [])[seat] ?? 0;
  const icon = on.some(p => kindOf(p) === 'I');
  const tr = (obs.transformed || []).includes(seat);
  return `${score} pt${score === 1 ? '' : 's'} · ${on.length} piece${on.length === 1 ? '' : 's'}${tr ? ' · transformed' : ''}${icon || !on.length ? '' : ' · no icon'}`;
}

// The scores in the shell's material panel, with each army's pieces on the board and lost so far.
function material(observation, { plies = [] } = {}) {
  const obs = observation || {};
  if (obs.phase === 'setup') return [];
  const n = numPlayers(obs);
  const lost = Array(n).fill(0);
  for (const p of plies) for (const e of p.events) if (e.type === 'capture' && ownerOf(e.piece) !== null) lost[ownerOf(e.piece)]++;
  return Array.from({ length: n }, (_, p) => {
    const score = (obs.scores || [])[p] ?? 0;
    const on = Object.values(obs.board || {}).filter(pc => ownerOf(pc) === p).length;
    return { player: p, parts: [
      { key: 'score', count: score, text: `${score} pt${score === 1 ? '' : 's'}` },
      { key: 'pieces', count: on, text: `${on} on the board` },
      { key: 'lost', count: lost[p], text: `${lost[p]} lost` },
    ] };
  });
}

function reasonText(result, observation) {
  const w = result.winners || [];
  const scores = (observation && observation.scores) || null;
  const n = Math.max(2, (scores || []).length);
  const pts = scores ? ` (${scores.map((s, p) => `${name(p)} ${s}`).join(', ')})` : '';
  const losers = Array.from({ length: n }, (_, p) => p).filter(p => !w.includes(p));
  const onPoints = w.length ? `${names(w)} ${w.length === 1 ? 'has' : 'share'} the most points${pts}.` : `Equal points${pts}: a draw.`;
  switch (result.reason) {
    case 'icon-destroyed': return `${names(losers)}’s icon was destroyed.`;
    case 'all-icons-destroyed': return 'Every icon was destroyed at once: a draw.';
    case 'blocked-cycle': return `Every player was blocked for a full cycle; decided on points. ${onPoints}`;
    case 'stalemate': return `No icon can be destroyed any more (stalemate); decided on points. ${onPoints}`;
    case 'scored-stalemate': return `Scored stalemate by agreement, decided on points. ${onPoints}`;
    case 'ply-limit': return `The game reached its turn limit; decided on points. ${onPoints}`;
    case 'resignation': return `${names(losers)} resigned.`;
    default: return w.length ? '' : 'Draw.';
  }
}

// The pass button's words: a blocked turn, or the end of a turn that has no second action.
function passText(observation) {
  return (observation && observation.action) ? 'End turn (no second action)' : 'Pass blocked turn';
}

// A static drawing for the rules page: the board with its territories and, given a placement per player
// ({"0": {...}, "1": {...}}, e.g. the server's suggested arrangement), the armies.
function diagram(container, { arrangement = null, label, four = false } = {}) {
  const n = four ? 4 : 2;
  const root = svg('svg', { class: 'tr-board', viewBox: viewBox(0, four), role: 'img',
    'aria-label': label || (four
      ? 'The four-player board of the Game of Truth: 17 files a to q, 18 ranks 1 to 18, every square open; Ivory’s corner is files a to h, ranks 1 to 9 (south-west), Jade’s files j to q, ranks 10 to 18 (north-east), Ember’s files j to q, ranks 1 to 9 (south-east), Indigo’s files a to h, ranks 10 to 18 (north-west); file i belongs to no one'
      : 'The board of the Game of Truth: 17 files a to q, 18 ranks 1 to 18, alternate squares black (a18, the upper-left square, is white); Ivory’s territory is ranks 1 to 9, Jade’s ranks 10 to 18') });
  drawGrid(root, { turn: 0, four });
  if (arrangement) {
    for (let p = 0; p < n; p++) {
      for (const [sq, k] of Object.entries(arrangement[String(p)] || {})) {
        const [x, y] = xy(sq, 0);
        root.append(drawPiece(x, y, `${p}${kindOf(String(k))}`));
      }
    }
  } else {
    const zones = four
      ? [0, 1, 2, 3].map(p => {
        const box = quadrantBox(p, 0);
        const files = p === 0 || p === 3 ? 'a–h' : 'j–q';
        const ranks = p === 0 || p === 2 ? '1–9' : '10–18';
        return { x: box.x0 + 0.5, w: box.x1 - box.x0 - 1, y: (box.y0 + box.y1) / 2, text: `${files}, ${ranks}` };
      })
      : [{ x: 4.5, w: NF - 9, y: 4.7, text: 'Jade: ranks 10–18' }, { x: 4.5, w: NF - 9, y: 13.7, text: 'Ivory: ranks 1–9' }];
    for (const z of zones) {
      root.append(svg('rect', { class: 'tr-setup-other-bg', x: z.x, y: z.y - 0.75, width: z.w, height: 1.1, rx: 0.3 }));
      root.append(svg('text', { class: 'tr-zone-label', x: z.x + z.w / 2, y: z.y, 'text-anchor': 'middle' }, z.text));
    }
  }
  container.append(root);
  return root;
}

// One piece drawn large (rules page): both colours side by side.
function pieceCard(container, kind) {
  const root = svg('svg', { class: 'tr-card', viewBox: '0 0 2 1', role: 'img', 'aria-label': `The ${KINDS[kind].name}, in Ivory and in Jade` });
  root.append(drawPiece(0, 0, `0${kind}`), drawPiece(1, 0, `1${kind}`));
  container.append(root);
  return root;
}

export default {
  name: 'truth',
  title: 'The Game of Truth',
  players: PLAYERS,
  // No `hiddenInformation` here: the server's kind says it (the other armies are hidden during the setup
  // phase only, `Truth::hidden_information()`), and a hot seat sets up behind hand-over screens.
  create: (container, ctx) => new TruthBoard(container, ctx),
  setup: (container, ctx) => new SetupEditor(container, ctx),
  plies,
  initialState,
  applyPly,
  material,
  summary,
  reasonText,
  passText,
  diagram,
  pieceCard,
  legend,
};
