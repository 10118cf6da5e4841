// Shared by the Game of Truth's API suites (two and four players).

// Problems in what `viewer` received while seat `owner`'s army was secret: any of its pieces, any square of
// its placement with a kind, a placement or a record with setups.
export function setupLeaks(viewer, owner, placement) {
  const problems = [];
  const piece = new RegExp(`(?<![A-Za-z0-9])${owner}[DLNSGI](?![A-Za-z0-9])`);
  for (const entry of viewer.log) {
    const say = (m) => problems.push(`${viewer.name} ${entry.via} ${entry.what.slice(0, 60)}: ${m}`);
    if (piece.test(entry.text)) say(`a piece of seat ${owner}: ${entry.text.slice(0, 200)}`);
    if (/"[DLNSGI]"/.test(entry.text)) say('a bare kind letter');
    for (const s of Object.keys(placement)) if (entry.text.includes(`"${s}"`)) { say(`square ${s} is named`); break; }
    if (/"placement"/.test(entry.text)) say('a "placement" field');
  }
  return problems;
}
