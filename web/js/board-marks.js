// Marks the shell lays over any game's board: the AI's hint, the analysis's better move, and the dangers the
// server points out (a ring on a square, a Tigadi line as a segment). The board modules draw their own SVG in
// their own coordinates, but every one names its squares (`data-square`) or points (`data-point`); so the marks
// are placed where those elements are on the page, in an SVG the size of the board container laid over it. The
// overlay takes no clicks (`pointer-events: none`) and names squares only in `data-at`, never `data-square`, so
// nothing that looks for a board's squares finds it.
import { svg, h } from './dom.js';

// A move string's squares: "d1-d2xg7" → { from: "d1", to: "d2", caps: ["g7"] }; "d1" → { to: "d1" }; "b4-b5",
// "c1-e3", "e4-f5" alike. No game's files reach the letter x, so an x is always a capture. "pass" has none.
export function moveSquares(move) {
  if (typeof move !== 'string' || move === 'pass') return null;
  const [main, ...caps] = move.split('x');
  const parts = main.split('-').filter(Boolean);
  if (!parts.length) return null;
  return { from: parts.length > 1 ? parts[0] : null, to: parts[parts.length - 1], caps };
}

export class BoardMarks {
  constructor(container) {
    this.container = container;
    this.marks = [];
    this.svg = svg('svg', { class: 'board-marks-svg', 'aria-hidden': 'true', focusable: 'false' });
    this.el = h('div', { class: 'board-marks', dataset: { count: 0 } });
    this.el.append(this.svg);
    container.append(this.el);
    this.resize = new ResizeObserver(() => this.layout());
    this.resize.observe(container);
  }

  // marks: [{ kind: 'hint' | 'best', move }, { kind: 'danger', square, player, why, own, attackers },
  //         { kind: 'line', line, square, player, own }]; own: the danger is the viewer's (else its chance)
  draw(marks) {
    this.marks = marks || [];
    // After the board's own drawing, so that `#board svg` still finds the board first.
    if (this.container.lastElementChild !== this.el) this.container.append(this.el);
    this.layout();
  }

  // Where a square's element is, in the overlay's pixels: its centre and a radius that fits inside it.
  place(square, origin) {
    const el = this.container.querySelector(`[data-square="${square}"], [data-point="${square}"]`);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) return null;
    return { x: r.left - origin.x + r.width / 2, y: r.top - origin.y + r.height / 2, r: Math.min(r.width, r.height) / 2 };
  }

  layout() {
    const c = this.container;
    const root = this.svg;
    root.replaceChildren();
    this.el.dataset.count = String(this.marks.length);
    if (!this.marks.length || c.classList.contains('hidden')) return;
    const box = c.getBoundingClientRect();
    // The overlay fills the container's padding box (it is positioned against it).
    const origin = { x: box.left + c.clientLeft, y: box.top + c.clientTop };
    const w = c.clientWidth;
    const hgt = c.clientHeight;
    // Not laid out yet: the resize observer draws them once it is.
    if (!w || !hgt) return;
    root.setAttribute('width', w);
    root.setAttribute('height', hgt);
    // (The board container's rules size its SVGs to the width; the overlay is exactly the container's size.)
    root.style.width = `${w}px`;
    root.style.height = `${hgt}px`;
    root.setAttribute('viewBox', `0 0 ${w} ${hgt}`);
    for (const m of this.marks) {
      if (m.kind === 'hint' || m.kind === 'best') this.drawMove(root, m, origin);
      else if (m.kind === 'danger') {
        const p = this.place(m.square, origin);
        if (!p) continue;
        root.append(svg('circle', { class: `bm-danger${m.own ? ' own' : ' other'}`, cx: p.x, cy: p.y, r: p.r * 0.92,
          'data-mark': 'danger', 'data-at': m.square, 'data-why': m.why || '', 'data-player': m.player ?? '' }));
        // The stones that threaten it (FACET's `by`), ringed faintly.
        for (const sq of m.attackers || []) {
          const a = this.place(sq, origin);
          if (a) root.append(svg('circle', { class: `bm-attacker${m.own ? ' own' : ' other'}`, cx: a.x, cy: a.y, r: a.r * 0.8, 'data-mark': 'attacker', 'data-at': sq }));
        }
      } else if (m.kind === 'line') {
        const pts = (m.line || []).map(sq => this.place(sq, origin));
        if (pts.length < 2 || pts.some(p => !p)) continue;
        const a = pts[0];
        const b = pts[pts.length - 1];
        root.append(svg('line', { class: `bm-line${m.own ? ' own' : ' other'}`, x1: a.x, y1: a.y, x2: b.x, y2: b.y,
          'stroke-width': Math.max(4, a.r * 0.45), 'data-mark': 'line', 'data-at': m.line.join(' '), 'data-player': m.player ?? '' }));
        if (m.square) {
          const p = this.place(m.square, origin);
          if (p) root.append(svg('circle', { class: `bm-line-point${m.own ? ' own' : ' other'}`, cx: p.x, cy: p.y, r: p.r * 0.8, 'data-mark': 'line-point', 'data-at': m.square }));
        }
      }
    }
  }

  // A suggested move: the square it leaves dashed, the square it reaches ringed, an arrow between, and a cross
  // on anything it takes. `kind` colours it: the hint (before a move) or the analysis's better move (replay).
  drawMove(root, m, origin) {
    const sq = moveSquares(m.move);
    if (!sq) return;
    const g = svg('g', { class: `bm-move bm-${m.kind}`, 'data-mark': m.kind, 'data-move': m.move });
    const from = sq.from ? this.place(sq.from, origin) : null;
    const to = this.place(sq.to, origin);
    if (!to) return;
    if (from) {
      g.append(svg('circle', { class: 'bm-from', cx: from.x, cy: from.y, r: from.r * 0.85, 'data-at': sq.from, 'data-end': 'from' }));
      // The arrow stops at the rings' edges.
      const dx = to.x - from.x;
      const dy = to.y - from.y;
      const len = Math.hypot(dx, dy) || 1;
      const ux = dx / len;
      const uy = dy / len;
      const x1 = from.x + ux * from.r * 0.85;
      const y1 = from.y + uy * from.r * 0.85;
      const x2 = to.x - ux * to.r * 0.9;
      const y2 = to.y - uy * to.r * 0.9;
      const head = Math.max(6, to.r * 0.45);
      g.append(svg('line', { class: 'bm-arrow', x1, y1, x2, y2, 'stroke-width': Math.max(3, to.r * 0.18) }));
      g.append(svg('path', { class: 'bm-head', d: `M${x2} ${y2}L${x2 - ux * head - uy * head * 0.6} ${y2 - uy * head + ux * head * 0.6}` +
        `L${x2 - ux * head + uy * head * 0.6} ${y2 - uy * head - ux * head * 0.6}Z` }));
    }
    g.append(svg('circle', { class: 'bm-to', cx: to.x, cy: to.y, r: to.r * 0.9, 'data-at': sq.to, 'data-end': 'to' }));
    for (const cap of sq.caps) {
      const p = this.place(cap, origin);
      if (!p) continue;
      const d = p.r * 0.45;
      g.append(svg('path', { class: 'bm-cap', d: `M${p.x - d} ${p.y - d}L${p.x + d} ${p.y + d}M${p.x + d} ${p.y - d}L${p.x - d} ${p.y + d}`, 'data-at': cap, 'data-end': 'capture' }));
    }
    root.append(g);
  }

  destroy() { this.resize.disconnect(); this.el.remove(); }
}
