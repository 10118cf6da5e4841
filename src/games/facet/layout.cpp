// FACET's layouts (rulings.md FACET): the classic one exactly as drawn there, and the seeded random one
// (rank 5 kept, the tiles of ranks 1–4 shuffled, mirrored onto ranks 6–9, drawn again while any stone of
// either side could capture from the start).
#include "games/facet/facet.h"
#include "core/rng.h"

#include <algorithm>

namespace tabula::facet {

namespace {

// rulings.md's drawing, ranks 1 to 5, files a to i.
constexpr std::string_view kClassic[5] = {
    "TGSFFFSGT",  // rank 1
    "FFFSGSFFF",  // rank 2
    "FFTFFFTFF",  // rank 3
    "SFFGTGFFS",  // rank 4
    "GFCFCFCFG",  // rank 5
};

// Black's half is White's mirrored across rank 5: rank r mirrors rank 10 - r.
void mirror(Terrain& t) {
  for (int r = 1; r <= 4; ++r)
    for (int f = 0; f < kFiles; ++f)
      t[static_cast<size_t>(square_of(f, 10 - r))] = t[static_cast<size_t>(square_of(f, r))];
}

// Whether any stone of either side could capture from the starting position (Monarchs step and cannot:
// the home ranks are four ranks apart).
bool any_capture_at_start(const Terrain& t) {
  const auto stones = starting_stones();
  for (int sq = 0; sq < kSquares; ++sq) {
    const uint8_t s = stones[static_cast<size_t>(sq)];
    if (s == kEmpty || is_monarch(s)) continue;
    const int me = owner_of(s);
    auto hits = [&](int to) {
      const uint8_t there = stones[static_cast<size_t>(to)];
      return there != kEmpty && owner_of(there) != me;
    };
    const size_t i = static_cast<size_t>(sq);
    switch (t[i]) {
      case kField:
        for (int k = 0; k < kGeometry.king_count[i]; ++k)
          if (hits(kGeometry.king[i][static_cast<size_t>(k)])) return true;
        break;
      case kGate:
        for (int k = 0; k < kGeometry.knight_count[i]; ++k)
          if (hits(kGeometry.knight[i][static_cast<size_t>(k)])) return true;
        break;
      default: {
        const int first = t[i] == kSpire ? 4 : 0, last = t[i] == kTower ? 4 : 8;
        for (int d = first; d < last; ++d)
          for (int k = 0; k < kGeometry.ray_len[i][static_cast<size_t>(d)]; ++k) {
            const int to = kGeometry.rays[i][static_cast<size_t>(d)][static_cast<size_t>(k)];
            if (hits(to)) return true;
            if (stones[static_cast<size_t>(to)] != kEmpty) break;
          }
      }
    }
  }
  return false;
}

}  // namespace

Terrain classic_layout() {
  Terrain t{};
  for (int r = 1; r <= 5; ++r)
    for (int f = 0; f < kFiles; ++f)
      t[static_cast<size_t>(square_of(f, r))] =
          static_cast<uint8_t>(tile_of_letter(kClassic[r - 1][static_cast<size_t>(f)]));
  mirror(t);
  return t;
}

Terrain random_layout(uint64_t seed) {
  const Terrain classic = classic_layout();
  std::vector<uint8_t> tiles;
  for (int sq = square_of(0, 1); sq < square_of(0, 5); ++sq) tiles.push_back(classic[static_cast<size_t>(sq)]);
  Rng rng(seed);
  Terrain t = classic;  // rank 5 stays
  do {
    // Fisher–Yates with the project's Rng (std::shuffle's algorithm is not fixed across libraries).
    for (size_t i = tiles.size() - 1; i > 0; --i) std::swap(tiles[i], tiles[rng.below(i + 1)]);
    for (size_t i = 0; i < tiles.size(); ++i) t[i] = tiles[i];
    mirror(t);
  } while (any_capture_at_start(t));
  return t;
}

std::array<uint8_t, kSquares> starting_stones() {
  std::array<uint8_t, kSquares> b{};
  for (int f = 0; f < kFiles; ++f) {
    for (int r : {1, 2}) b[static_cast<size_t>(square_of(f, r))] = stone(0, r == 1 && f == 4);
    for (int r : {8, 9}) b[static_cast<size_t>(square_of(f, r))] = stone(1, r == 9 && f == 4);
  }
  return b;
}

}  // namespace tabula::facet
