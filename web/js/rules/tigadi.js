// The Tigadi rules page: draws the board diagram (a module file, so the page needs no inline script under the CSP).
import tigadi from '/js/games/tigadi.js';

tigadi.diagram(document.getElementById('diagram'));
