// Setups: the squares an army may stand on, the suggested arrangement of each army, and a seeded random
// one (rulings.md, "Setup").
#include "games/truth/truth.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

namespace tabula::truth {

bool setup_square(int players, int p, int sq) {
  return sq >= 0 && sq < kSquares && is_open(players, sq) && in_territory(players, p, sq);
}

namespace {

// The four-player suggested arrangement, one for every army, drawn in the army's own quadrant seen from its
// corner: x counts files from the board's outer edge (0) to file i's side (7), y ranks from the back (0) to
// the front (8), which faces the army of the same half across the middle rank (Ivory and Indigo in the west,
// Ember and Jade in the east). Only doors stand on the front, with gaps, so two fronts meet door to door (a
// door does nothing to a door) and every front door can step forward at once; file i keeps the east and
// west quadrants two files apart, out of contact, and the column beside it is a wall of doors. A lantern
// crosses everything but doors and icons, and the other quadrants' lanterns stand on long diagonals across
// file i: so every diagonal neighbour of the icon holds one of its own pieces (its two guardians, as
// defenders, and two doors behind it), and no lantern can land beside it until those move. The sentries
// stand within the icon's range.
json suggested_four(int p) {
  static const std::array<std::string_view, 9> rows = {
      // x: 01234567
      "..D.D...",  // y 0: the icon's back diagonals, closed
      "...I....",  // y 1: the icon, every diagonal neighbour its own piece
      "..G.G...",  // y 2: the guardians beside it
      ".L.N.L.D",  // y 3
      "DLSDNDSD",  // y 4
      "NLNLSLND",  // y 5
      "LDLDLDLD",  // y 6
      ".D.D.D.D",  // y 7
      "D.D.D.D.",  // y 8: the front, doors only
  };

  json placement = json::object();
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 8; ++x) {
      const char c = rows[static_cast<size_t>(y)][static_cast<size_t>(x)];
      if (c != '.') placement[square_name(quadrant_square(p, x, y))] = std::string(1, c);
    }
  return placement;
}

}  // namespace

int quadrant_square(int p, int x, int y) {
  const bool west = p == 0 || p == 3, south = p == 0 || p == 2;
  return square_of(west ? x : kFiles - 1 - x, south ? y + 1 : kRanks - y);
}

json suggested_arrangement(int players, int p) {
  if (players == 4) return suggested_four(p);
  // The suggested arrangements, rank by rank from the front: letters for the open squares of that rank,
  // west to east. The two armies' open squares differ (Ivory's front rank 9 has eight, Jade's rank 10
  // nine), so each is drawn for its own squares. Within reach of the other army both keep only doors, which
  // do nothing to doors, so no piece is lost when play begins; the doors stand with gaps so that the front
  // and the second line can move at once; the icon stands at the back with its two guardians diagonally
  // beside it (defenders), the sentries and guardians within range.
  static const std::vector<std::pair<int, std::string>> ivory = {
      {9, "D.D.D.D."},   // b9 f9 j9 n9 (the front: doors only, with gaps)
      {8, "DDDDDDDDD"},  // a8 … q8
      {7, "DLDLDLDL"},   // b7 … p7
      {6, "LNDNSNDNL"},  // a6 … q6
      {5, "DLSGGSLN"},   // b5 d5 f5 h5 j5 l5 n5 p5
      {4, ".L..I..L."},  // c4, i4 (the icon), o4
  };
  static const std::vector<std::pair<int, std::string>> jade = {
      {10, ".D.D.D.D."},  // c10 g10 k10 o10 (the front: doors only, with gaps)
      {11, "DDDDDDDD"},   // b11 … p11
      {12, "DLDLDLDLD"},  // a12 … q12
      {13, "LNDNSNDL"},   // b13 … p13
      {14, "DLSN.NSL."},  // a14 c14 e14 g14 k14 m14 o14
      {15, "...GG..."},   // h15 j15
      {16, "..L.I.L.."},  // e16 i16 (the icon) m16
  };
  json placement = json::object();
  for (const auto& [rank, letters] : p == 0 ? ivory : jade) {
    int i = 0;
    for (int f = 0; f < kFiles; ++f) {
      const int sq = square_of(f, rank);
      if (!is_open(players, sq)) continue;
      const char c = letters[static_cast<size_t>(i++)];
      if (c != '.') placement[square_name(sq)] = std::string(1, c);
    }
  }
  return placement;
}

json random_arrangement(int players, int p, uint64_t seed) {
  std::vector<int> squares;
  for (int sq = 0; sq < kSquares; ++sq)
    if (setup_square(players, p, sq)) squares.push_back(sq);
  // Fisher–Yates with the project's Rng (std::shuffle's algorithm is the library's choice, rulings F2).
  Rng rng(seed);
  for (size_t i = squares.size() - 1; i > 0; --i) std::swap(squares[i], squares[rng.below(i + 1)]);
  json placement = json::object();
  size_t i = 0;
  for (int k = 0; k < kKinds; ++k)
    for (int n = 0; n < kArmy[static_cast<size_t>(k)]; ++n) placement[square_name(squares[i++])] = std::string(1, kind_letter(k));
  return placement;
}

}  // namespace tabula::truth
