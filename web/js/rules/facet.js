// The FACET rules page: draws the layout diagram and a tile card into every figure with data-card.
import facet from '/js/games/facet.js';

facet.diagram(document.getElementById('diagram'));
for (const el of document.querySelectorAll('[data-card]')) {
  const svgBox = document.createElement('div');
  el.prepend(svgBox);
  facet.tileCard(svgBox, el.dataset.card, { badge: el.dataset.badge || null });
}
