// The analysis of a finished game, drawn: the evaluation over the game as an SVG plot, and which moves lost the
// most. The numbers are the server's (GET /api/games/{id}/analysis: per position before each recorded move, the
// mover, the move played, the AI's best, its score in hundredths of a piece for the mover, and how much the
// played move lost); this file only turns them into pictures and marks.
import { svg } from './dom.js';

// A move that lost at least this much (hundredths of a piece) is marked "?"; the three that lost the most
// (of those) "??".
export const MISTAKE = 150;
const SCORE_CAP = 10000;

// How a score is drawn: a squash that is nearly straight within a piece or two and flattens towards a won game
// (±10000), so a won position does not flatten every other swing.
export const squash = (v) => Math.tanh(Math.max(-SCORE_CAP, Math.min(SCORE_CAP, v)) / 400);

// The value drawn for each position: with two players from seat 0's point of view (the score is the mover's, so
// seat 1's is negated); with more, the mover's own (the server's scores do not compare across four seats).
export function plotValues(positions, players) {
  return positions.map(p => ({ index: p.index, mover: p.mover, value: players === 2 && p.mover === 1 ? -p.score : p.score }));
}

// index → "?" | "??" for the moves that lost the most.
export function judgements(positions) {
  const bad = positions.filter(p => typeof p.loss === 'number' && p.loss >= MISTAKE).sort((a, b) => b.loss - a.loss || a.index - b.index);
  const out = new Map();
  bad.forEach((p, i) => out.set(p.index, i < 3 ? '??' : '?'));
  return out;
}

// Pieces in words: 152 → "1.5".
export const pieces = (hundredths) => (Math.round(hundredths / 10) / 10).toFixed(1);

// The plot: one point per analysed position (x: the move number), the line through them for two players (the
// upper half is good for seat 0), dots in each mover's colour for more; a mark on the moves judged "?"/"??",
// and a bar at the position shown (`current`, a move index; total for the end). A click or tap anywhere picks the
// nearest position: onPick(index).
export function drawPlot(container, { positions, total, players, colours, names, current, onPick }) {
  const W = 320;
  const H = 120;
  const PAD = 6;
  const n = Math.max(1, total);
  const x = (i) => PAD + (W - 2 * PAD) * (i / n);
  const y = (v) => H / 2 - squash(v) * (H / 2 - PAD);
  const values = plotValues(positions, players);
  const marks = judgements(positions);
  const root = svg('svg', { id: 'analysis-plot', class: 'eval-plot', viewBox: `0 0 ${W} ${H}`, role: 'img',
    'aria-label': players === 2
      ? `Evaluation over the game, from ${names[0]}’s side: up is good for ${names[0]}, down for ${names[1]}. Click to see a position.`
      : 'Evaluation over the game, each point from the side of the player to move. Click to see a position.',
    'data-points': values.length, 'data-total': total });
  root.append(svg('rect', { class: 'eval-bg top', x: 0, y: 0, width: W, height: H / 2 }));
  root.append(svg('rect', { class: 'eval-bg bottom', x: 0, y: H / 2, width: W, height: H / 2 }));
  root.append(svg('line', { class: 'eval-zero', x1: 0, y1: H / 2, x2: W, y2: H / 2 }));
  if (players === 2 && values.length) {
    const pts = values.map(v => `${x(v.index).toFixed(1)},${y(v.value).toFixed(1)}`);
    root.append(svg('path', { class: 'eval-area', d: `M${x(values[0].index).toFixed(1)},${H / 2}L${pts.join('L')}L${x(values[values.length - 1].index).toFixed(1)},${H / 2}Z` }));
    root.append(svg('path', { class: 'eval-line', d: `M${pts.join('L')}` }));
  }
  if (current !== null && current !== undefined) {
    root.append(svg('line', { class: 'eval-current', x1: x(current), y1: 0, x2: x(current), y2: H, 'data-current': current }));
  }
  for (const v of values) {
    const mark = marks.get(v.index);
    if (players === 2 && !mark) continue;
    const dot = svg('circle', { class: `eval-dot${mark ? ` judged${mark === '??' ? ' blunder' : ''}` : ''}${players === 2 ? '' : ' mover'}`,
      cx: x(v.index), cy: y(v.value), r: mark ? 3.6 : 2.6, 'data-index': v.index, 'data-mover': v.mover, 'data-mark': mark || undefined });
    // More than two players: each dot in its mover's colour (through the CSSOM: the stylesheet's fill would win
    // over an attribute, and a style attribute is refused).
    if (players !== 2 && !mark) dot.style.fill = colours[v.mover];
    root.append(dot);
  }
  root.addEventListener('click', (e) => {
    const r = root.getBoundingClientRect();
    if (!r.width) return;
    const px = ((e.clientX - r.left) / r.width) * W;
    const i = Math.round(((px - PAD) / (W - 2 * PAD)) * n);
    onPick(Math.max(0, Math.min(total, i)));
  });
  container.replaceChildren(root);
  return root;
}
