// Tigadi's evaluation for the AI, in hundredths of a goti, for the player to move.
//
// Material decides the game (two gotis lose), so a goti is worth 100. Beyond it: open lines that need one
// more goti (the next capture threat), gotis in a closed line (protected, and the start of a running
// tigadi), and, once sliding, mobility (a blocked side passes and cannot make threats).
//
// The board terms are kept by apply (update_terms), so evaluate() reads six numbers: a move changes at most
// three points (from, to, the goti taken), and only the lines and adjacencies through them are looked at.
#include "games/tigadi/tigadi.h"

namespace tabula::tigadi {

namespace {

// What the lines in `ids` contribute to the terms of board `b` (+1 each) or take away (-1 each).
void add_lines(Terms& t, const Mask b[2], uint32_t ids, int sign) {
  const Mask empty = kAllPoints & ~(b[0] | b[1]);
  for (; ids; ids &= ids - 1) {
    const Mask line = kGeometry.lines[static_cast<size_t>(__builtin_ctz(ids))];
    for (int side = 0; side < 2; ++side) {
      const Mask mine = b[side] & line;
      if (mine == line) t.closed[side] = static_cast<int16_t>(t.closed[side] + sign);
      else if (__builtin_popcount(mine) == 2 && (line & empty)) t.threats[side] = static_cast<int16_t>(t.threats[side] + sign);
    }
  }
}

// The (goti of a side, empty neighbour) pairs of board `b` with at least one end in `points`.
void add_mobility(Terms& t, const Mask b[2], Mask points, int sign) {
  const Mask empty = kAllPoints & ~(b[0] | b[1]);
  for (int side = 0; side < 2; ++side) {
    int pairs = 0;
    // Pairs whose goti is in `points` (any empty neighbour) ...
    for (Mask o = b[side] & points; o; o &= o - 1)
      pairs += __builtin_popcount(kGeometry.neighbours[static_cast<size_t>(__builtin_ctz(o))] & empty);
    // ... and pairs whose empty point is in `points` and whose goti is not (counted once).
    for (Mask e = empty & points; e; e &= e - 1)
      pairs += __builtin_popcount(kGeometry.neighbours[static_cast<size_t>(__builtin_ctz(e))] & b[side] & ~points);
    t.mobility[side] = static_cast<int16_t>(t.mobility[side] + sign * pairs);
  }
}

}  // namespace

Terms terms_of(const Mask board[2]) {
  Terms t;
  add_lines(t, board, (1u << kLines) - 1, +1);
  add_mobility(t, board, kAllPoints, +1);
  return t;
}

void update_terms(Terms& t, const Mask before[2], const Mask after[2], Mask changed) {
  uint32_t ids = 0;
  for (Mask c = changed; c; c &= c - 1) ids |= kGeometry.line_ids[static_cast<size_t>(__builtin_ctz(c))];
  add_lines(t, before, ids, -1);
  add_lines(t, after, ids, +1);
  add_mobility(t, before, changed, -1);
  add_mobility(t, after, changed, +1);
}

int Tigadi::evaluate() const {
  const int me = pos_.to_move, opp = 1 - me;
  int score = 100 * (pos_.total(me) - pos_.total(opp));
  // A threat of the side to move is worth more: it can be carried out now.
  score += 30 * terms_.threats[me] - 20 * terms_.threats[opp];
  score += 12 * (terms_.closed[me] - terms_.closed[opp]);
  if (!pos_.placing()) score += 4 * (terms_.mobility[me] - terms_.mobility[opp]);
  return score;
}

}  // namespace tabula::tigadi
