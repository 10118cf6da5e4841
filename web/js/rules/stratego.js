// The Stratego rules page: draws the board diagram and the rows of pieces.
import stratego from '/js/games/stratego.js';

stratego.diagram(document.getElementById('diagram'));
stratego.pieceRow(document.getElementById('pieces-red'), 'MGCJPLTNOS', 0);
stratego.pieceRow(document.getElementById('pieces-blue'), 'BF', 1);
