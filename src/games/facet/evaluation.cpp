// FACET's evaluation for the AI's search, from the side to move's view (positive is good for it), in
// hundredths of an agent. One pass over the board, and the attacks on the enemy's agents.
//
// Material: an agent is worth 100, the Monarch nothing (its loss ends the game, which the search sees), and
// a side down to its last agents is close to elimination. Mobility: a stone is worth more on a tile that grants
// a long move (Throne > Tower > Spire > Gate > Field; a momentum badge counts half). Throne control: each
// Throne held, and more for a coronation count under way. Monarch safety: enemy agents within two squares of
// the Monarch are a threat, own agents beside it a guard. Tempo: when the side to move attacks an enemy agent
// that no enemy stone defends, one falls (quiescence sees the capture, but not a second threat behind it, nor
// the tempo the opponent spends saving it): 40. Measured against the evaluation without it, with the other
// terms tried (docs/strength-history.md, FACET, issue 13).
#include "games/facet/facet.h"

namespace tabula::facet {

namespace {

constexpr int kAgent = 100;
constexpr int kTileBonus[kTiles] = {0, 18, 15, 12, 30};  // F T S G C
constexpr int kThroneHeld = 25;
constexpr int kCoronationPly = 80;
constexpr int kThreat = 20;
constexpr int kGuard = 8;
constexpr int kLastAgents = 60;  // per agent short of three
constexpr int kHanging = 40;     // the side to move attacks an undefended enemy agent

}  // namespace

int Facet::evaluate() const {
  int score[2] = {0, 0};
  int monarch[2] = {kNoSquare, kNoSquare};
  for (int sq = 0; sq < kSquares; ++sq)
    if (stone_at(sq) != kEmpty && is_monarch(stone_at(sq))) monarch[owner_of(stone_at(sq))] = sq;
  for (int sq = 0; sq < kSquares; ++sq) {
    const uint8_t s = stone_at(sq);
    if (s == kEmpty) continue;
    const int p = owner_of(s);
    if (tile_at(sq) == kThrone) score[p] += kThroneHeld;
    if (is_monarch(s)) continue;
    score[p] += kAgent + kTileBonus[tile_at(sq)] + kTileBonus[badge_at(sq)] / 2;
    const int enemy_monarch = monarch[1 - p];
    if (enemy_monarch != kNoSquare) {
      const int d = chebyshev(sq, enemy_monarch);
      if (d <= 2) score[1 - p] -= kThreat;
    }
    if (monarch[p] != kNoSquare && chebyshev(sq, monarch[p]) == 1) score[p] += kGuard;
  }
  const int me = to_move_;
  for (int sq = 0; sq < kSquares; ++sq) {
    const uint8_t s = stone_at(sq);
    if (s == kEmpty || owner_of(s) == me || is_monarch(s)) continue;
    if (attacked(sq, me) && !attacked(sq, 1 - me)) {
      score[me] += kHanging;
      break;
    }
  }
  for (int p = 0; p < 2; ++p)
    if (agents_[static_cast<size_t>(p)] < 3) score[p] -= kLastAgents * (3 - agents_[static_cast<size_t>(p)]);
  if (coronation_.player >= 0) score[coronation_.player] += kCoronationPly * coronation_.plies;
  return score[me] - score[1 - me];
}

}  // namespace tabula::facet
