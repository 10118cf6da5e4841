// Setups: the squares an army may stand on, the suggested arrangement of each army, and a seeded random
// one (rulings.md, "Setup").
#include "games/truth/truth.h"

#include <algorithm>
#include <vector>

namespace tabula::truth {

bool setup_square(int players, int p, int sq) {
  return sq >= 0 && sq < kSquares && is_open(players, sq) && in_territory(players, p, sq);
}

json suggested_arrangement(int players, int p) {
  if (players != 2) fail(ErrorKind::bad_request, "the four-player suggested arrangements come with the four-player game");
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
  Rng rng(seed);
  std::shuffle(squares.begin(), squares.end(), rng);
  json placement = json::object();
  size_t i = 0;
  for (int k = 0; k < kKinds; ++k)
    for (int n = 0; n < kArmy[static_cast<size_t>(k)]; ++n) placement[square_name(squares[i++])] = std::string(1, kind_letter(k));
  return placement;
}

}  // namespace tabula::truth
