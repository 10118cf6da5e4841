// Tigadi's evaluation for the AI, in hundredths of a goti, for the player to move.
//
// Material decides the game (two gotis lose), so a goti is worth 100. Beyond it: open lines that need one
// more goti (the next capture threat), gotis in a closed line (protected, and the start of a running
// tigadi), and, once sliding, mobility (a blocked side passes and cannot make threats).
//
// The board terms are kept by apply (update_terms): a move changes at most three points (from, to, the goti
// taken), each a carry or borrow over its lines' bit-sliced counts and three popcounts of its neighbours, and
// evaluate() reads them with six popcounts.
#include "games/tigadi/tigadi.h"

namespace tabula::tigadi {

namespace {

// Side `side` puts a goti on the empty point `p` of board `b`, or lifts its goti from it.
void put(Terms& t, Mask b[2], int side, int p) {
  const uint32_t ls = kGeometry.line_ids[static_cast<size_t>(p)];
  const Mask n = kGeometry.neighbours[static_cast<size_t>(p)];
  t.hi[side] |= t.lo[side] & ls;  // no line holds more than three, so the carry stops here
  t.lo[side] ^= ls;
  for (int s = 0; s < 2; ++s) t.mobility[s] = static_cast<int16_t>(t.mobility[s] - __builtin_popcount(n & b[s]));
  b[side] |= bit(p);
  t.mobility[side] = static_cast<int16_t>(t.mobility[side] + __builtin_popcount(n & ~(b[0] | b[1]) & kAllPoints));
}
void lift(Terms& t, Mask b[2], int side, int p) {
  const uint32_t ls = kGeometry.line_ids[static_cast<size_t>(p)];
  const Mask n = kGeometry.neighbours[static_cast<size_t>(p)];
  t.hi[side] &= ~(~t.lo[side] & ls);
  t.lo[side] ^= ls;
  t.mobility[side] = static_cast<int16_t>(t.mobility[side] - __builtin_popcount(n & ~(b[0] | b[1]) & kAllPoints));
  b[side] &= ~bit(p);
  for (int s = 0; s < 2; ++s) t.mobility[s] = static_cast<int16_t>(t.mobility[s] + __builtin_popcount(n & b[s]));
}

}  // namespace

Terms terms_of(const Mask board[2]) {
  Terms t;
  Mask b[2] = {0, 0};
  for (int side = 0; side < 2; ++side)
    for (Mask m = board[side]; m; m &= m - 1) put(t, b, side, __builtin_ctz(m));
  return t;
}

void update_terms(Terms& t, const Mask before[2], const Mask after[2], Mask changed) {
  Mask b[2] = {before[0], before[1]};
  for (int side = 0; side < 2; ++side)
    for (Mask m = changed & before[side] & ~after[side]; m; m &= m - 1) lift(t, b, side, __builtin_ctz(m));
  for (int side = 0; side < 2; ++side)
    for (Mask m = changed & after[side] & ~before[side]; m; m &= m - 1) put(t, b, side, __builtin_ctz(m));
}

int Tigadi::evaluate() const {
  const int me = pos_.to_move, opp = 1 - me;
  int score = 100 * (pos_.total(me) - pos_.total(opp));
  // A threat of the side to move is worth more: it can be carried out now.
  score += 30 * terms_.threats(me) - 20 * terms_.threats(opp);
  score += 12 * (terms_.closed(me) - terms_.closed(opp));
  if (!pos_.placing()) score += 4 * (terms_.mobility[me] - terms_.mobility[opp]);
  return score;
}

}  // namespace tabula::tigadi
