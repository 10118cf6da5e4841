// The AI's evaluation of a Truth position, for the player to move, in hundredths of a door.
#include "games/truth/truth.h"

namespace tabula::truth {

int Truth::evaluate() const {
  const Position& p = pos_;
  const int me = p.to_move;
  int total = 0;
  for (int q = 0; q < p.players; ++q) {
    int mine = p.scores[static_cast<size_t>(q)] * 100;
    for (int k = 0; k < kIcon; ++k) mine += p.count[q][k] * kValue[static_cast<size_t>(k)] * 50;
    total += q == me ? mine : -mine / (p.players - 1);
  }
  return total;
}

}  // namespace tabula::truth
