// Tigadi's evaluation for the AI, in hundredths of a goti, for the player to move.
//
// Material decides the game (two gotis lose), so a goti is worth 100. Beyond it: open lines that need one
// more goti (the next capture threat), gotis in a closed line (protected, and the start of a running
// tigadi), and, once sliding, mobility (a blocked side passes and cannot make threats).
#include "games/tigadi/tigadi.h"

namespace tabula::tigadi {

namespace {

struct SideFeatures {
  int material = 0;
  int threats = 0;      // lines with two own gotis and the third point empty
  int closed = 0;       // lines all own
  int mobility = 0;     // slides available (moving phase)
};

SideFeatures features(const Position& pos, int side) {
  SideFeatures f;
  const Mask own = pos.board[side], enemy = pos.board[1 - side];
  const Mask empty = kAllPoints & ~(own | enemy);
  f.material = pos.total(side);
  for (Mask line : kGeometry.lines) {
    const Mask mine = own & line;
    if (mine == line) ++f.closed;
    else if (__builtin_popcount(mine) == 2 && (line & empty)) ++f.threats;
  }
  if (!pos.placing())
    for (Mask o = own; o; o &= o - 1)
      f.mobility += __builtin_popcount(kGeometry.neighbours[static_cast<size_t>(__builtin_ctz(o))] & empty);
  return f;
}

}  // namespace

int Tigadi::evaluate() const {
  const int me = pos_.to_move;
  const SideFeatures a = features(pos_, me), b = features(pos_, 1 - me);
  int score = 100 * (a.material - b.material);
  // A threat of the side to move is worth more: it can be carried out now.
  score += 30 * a.threats - 20 * b.threats;
  score += 12 * (a.closed - b.closed);
  score += 4 * (a.mobility - b.mobility);
  return score;
}

}  // namespace tabula::tigadi
