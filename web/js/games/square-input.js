// Click and keyboard input for boards whose cells are `[data-square]` elements and whose moves are made by
// picking a piece, then a square (FACET, Stratego). `board` has `mode` ({kind: 'idle' | 'from' | …}),
// `click(square)` and `render()`. A click, Enter or Space on a square calls board.click(square); Escape or
// a click off the squares drops a pick. Returns the function that removes the document-wide key listener.
export function wireSquareInput(board, svgEl) {
  const drop = () => { if (board.mode.kind === 'from') { board.mode = { kind: 'idle' }; board.render(); } };
  const onKey = (e) => { if (e.key === 'Escape') drop(); };
  document.addEventListener('keydown', onKey);
  svgEl.addEventListener('click', (e) => {
    const el = e.target.closest('[data-square]');
    if (el) board.click(el.dataset.square);
    else drop();
  });
  svgEl.addEventListener('keydown', (e) => {
    const el = e.target.closest && e.target.closest('[data-square]');
    if (el && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); board.click(el.dataset.square); }
  });
  return () => document.removeEventListener('keydown', onKey);
}
