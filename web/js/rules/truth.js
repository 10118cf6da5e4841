// The Game of Truth rules page: the board with both armies in the server's suggested arrangement (the empty
// board with its territories if the server does not offer one), and a card for each of the six pieces.
import truth, { KINDS, KIND_ORDER } from '/js/games/truth.js';
import { h } from '/js/dom.js';

const cards = document.getElementById('piece-cards');
if (cards) {
  for (const k of KIND_ORDER) {
    const li = h('li', { dataset: { kind: k } });
    truth.pieceCard(li, k);
    const n = KINDS[k];
    li.append(h('strong', {}, `${n.name[0].toUpperCase()}${n.name.slice(1)}`), h('br'),
      h('span', { class: 'muted' }, `${n.count} each · ${n.points} point${n.points === 1 ? '' : 's'}`));
    cards.append(li);
  }
}

async function drawBoard() {
  const box = document.getElementById('diagram');
  let arrangement = null;
  try {
    const res = await fetch('/api/games/kinds');
    const kinds = res.ok ? await res.json() : [];
    const k = (kinds || []).find(x => x.name === 'truth');
    const a = k && k.arrangements && k.arrangements.suggested;
    if (a && a['0'] && a['1']) arrangement = a;
  } catch { /* the empty board will do */ }
  truth.diagram(box, arrangement ? {
    arrangement,
    label: 'The board of the Game of Truth with both armies in the suggested arrangement: Ivory on ranks 1 to 9 at the bottom, Jade on ranks 10 to 18 at the top, every piece on a white square',
  } : {});
  box.dataset.arrangement = arrangement ? 'suggested' : 'none';
}
drawBoard();
