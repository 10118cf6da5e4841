// An offer event in words, the same in every game's move list: `who` is the offering player's name.
export function offerWords(e, who) {
  switch (e.what) {
    case 'draw': return `${who} offers a draw`;
    case 'accept': return `${who} accepts the draw`;
    case 'decline': return `${who} declines the draw`;
    case 'stalemate': return `${who} agrees to a scored stalemate`;
    case 'withdraw': return `${who} withdraws the agreement`;
    case 'resign': return `${who} resigns`;
    default: return `${who}: ${e.what}`;
  }
}
