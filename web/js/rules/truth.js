// The Game of Truth rules page: the two boards (two and four players) and a card for each of the six pieces.
import truth, { KINDS, KIND_ORDER, arrangementsFor } from '/js/games/truth.js';
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

// The boards: two players with both armies in the server's suggested arrangement (the empty board with its
// territories if the server does not offer one); four players likewise when the server sends the placements
// for that variant, else the open board with its corners.
async function drawBoard() {
  const box = document.getElementById('diagram');
  const boxFour = document.getElementById('diagram-four');
  let kind = null;
  try {
    const res = await fetch('/api/games/kinds');
    const kinds = res.ok ? await res.json() : [];
    kind = (kinds || []).find(x => x.name === 'truth') || null;
  } catch { /* the empty boards will do */ }
  const suggested = (players) => {
    const a = arrangementsFor(kind, players).placements.suggested;
    return a && Array.from({ length: players }, (_, p) => a[String(p)]).every(Boolean) ? a : null;
  };
  const two = suggested(2);
  truth.diagram(box, two ? {
    arrangement: two,
    label: 'The board of the Game of Truth with both armies in the suggested arrangement: Ivory on ranks 1 to 9 at the bottom, Jade on ranks 10 to 18 at the top, every piece on a white square',
  } : {});
  box.dataset.arrangement = two ? 'suggested' : 'none';
  if (boxFour) {
    const four = suggested(4);
    truth.diagram(boxFour, { four: true, arrangement: four });
    boxFour.dataset.arrangement = four ? 'suggested' : 'none';
  }
}
drawBoard();
