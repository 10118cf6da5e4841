// FACET's board (shared/rules/facet.txt, shared/spec/rulings.md FACET): a 9×9 grid, files a–i and ranks
// 1–9, five kinds of terrain tile, and the geometry every tile's move needs: the eight rays for the sliders,
// the knight targets for the Gate, the king steps for the Field and the Monarch. Everything is compile-time.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace tabula::facet {

inline constexpr int kFiles = 9;
inline constexpr int kRanks = 9;
inline constexpr int kSquares = kFiles * kRanks;
inline constexpr int kNoSquare = -1;

// Square index: file + 9 * (rank - 1), so a1 = 0, i1 = 8, a2 = 9, i9 = 80.
constexpr int square_of(int file, int rank) { return file + kFiles * (rank - 1); }
constexpr int file_of(int sq) { return sq % kFiles; }
constexpr int rank_of(int sq) { return sq / kFiles + 1; }
constexpr int chebyshev(int a, int b) {
  const int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
  const int x = df < 0 ? -df : df, y = dr < 0 ? -dr : dr;
  return x > y ? x : y;
}

// "e5" -> index, or kNoSquare when the text is not a square of the board.
int parse_square(std::string_view s);
std::string square_name(int sq);

// Terrain tiles. Field is 0 so that "no badge" and "Field" share the value (a Field grants no badge).
enum Tile : uint8_t { kField = 0, kTower = 1, kSpire = 2, kGate = 3, kThrone = 4 };
inline constexpr int kTiles = 5;
inline constexpr std::string_view kTileLetters = "FTSGC";  // notation.md's terrain letters
constexpr char tile_letter(int t) { return kTileLetters[static_cast<size_t>(t)]; }
constexpr int tile_of_letter(char c) {
  for (int t = 0; t < kTiles; ++t)
    if (kTileLetters[static_cast<size_t>(t)] == c) return t;
  return -1;
}
std::string_view tile_name(int t);  // "Tower", …
// Decay (rulings.md): Tower -> Spire -> Gate -> Field; Field and Throne stay as they are.
constexpr int decayed(int t) {
  switch (t) {
    case kTower: return kSpire;
    case kSpire: return kGate;
    case kGate: return kField;
    default: return t;
  }
}

// Directions 0–3 orthogonal (north, east, south, west), 4–7 diagonal (NE, SE, SW, NW).
inline constexpr int kDirections = 8;
inline constexpr int kDf[kDirections] = {0, 1, 0, -1, 1, 1, -1, -1};
inline constexpr int kDr[kDirections] = {1, 0, -1, 0, 1, -1, -1, 1};

struct Geometry {
  // rays[sq][d]: the squares from sq outwards in direction d (not sq itself), ray_len of them.
  std::array<std::array<std::array<int8_t, 8>, kDirections>, kSquares> rays{};
  std::array<std::array<uint8_t, kDirections>, kSquares> ray_len{};
  std::array<std::array<int8_t, 8>, kSquares> knight{};
  std::array<uint8_t, kSquares> knight_count{};
  std::array<std::array<int8_t, 8>, kSquares> king{};
  std::array<uint8_t, kSquares> king_count{};
};

constexpr Geometry make_geometry() {
  Geometry g;
  constexpr int kn_f[8] = {1, 2, 2, 1, -1, -2, -2, -1};
  constexpr int kn_r[8] = {2, 1, -1, -2, -2, -1, 1, 2};
  for (int sq = 0; sq < kSquares; ++sq) {
    const size_t s = static_cast<size_t>(sq);
    for (int d = 0; d < kDirections; ++d) {
      int f = file_of(sq) + kDf[d], r = rank_of(sq) + kDr[d];
      uint8_t n = 0;
      while (f >= 0 && f < kFiles && r >= 1 && r <= kRanks) {
        g.rays[s][static_cast<size_t>(d)][n++] = static_cast<int8_t>(square_of(f, r));
        f += kDf[d];
        r += kDr[d];
      }
      g.ray_len[s][static_cast<size_t>(d)] = n;
      if (n > 0) g.king[s][g.king_count[s]++] = g.rays[s][static_cast<size_t>(d)][0];
    }
    for (int k = 0; k < 8; ++k) {
      const int f = file_of(sq) + kn_f[k], r = rank_of(sq) + kn_r[k];
      if (f >= 0 && f < kFiles && r >= 1 && r <= kRanks) g.knight[s][g.knight_count[s]++] = static_cast<int8_t>(square_of(f, r));
    }
  }
  return g;
}
inline constexpr Geometry kGeometry = make_geometry();

// A set of squares, bit `sq` for square sq (81 of 128 bits): fog's sight.
using SquareSet = unsigned __int128;
constexpr SquareSet square_bit(int sq) { return SquareSet{1} << sq; }
constexpr bool contains(SquareSet set, int sq) { return ((set >> sq) & 1) != 0; }

// Fog sight (rulings.md): the squares within Chebyshev distance 2 (an agent) or 3 (the Monarch) of a square,
// the square itself included.
struct SightMasks {
  std::array<SquareSet, kSquares> agent{};
  std::array<SquareSet, kSquares> monarch{};
};
constexpr SightMasks make_sight_masks() {
  SightMasks m;
  for (int a = 0; a < kSquares; ++a)
    for (int b = 0; b < kSquares; ++b) {
      if (chebyshev(a, b) <= 2) m.agent[static_cast<size_t>(a)] |= square_bit(b);
      if (chebyshev(a, b) <= 3) m.monarch[static_cast<size_t>(a)] |= square_bit(b);
    }
  return m;
}
inline constexpr SightMasks kSight = make_sight_masks();

static_assert(kGeometry.knight_count[0] == 2 && kGeometry.knight_count[square_of(4, 5)] == 8);
static_assert(kGeometry.king_count[0] == 3 && kGeometry.king_count[square_of(4, 5)] == 8);
static_assert(kGeometry.ray_len[0][0] == 8 && kGeometry.ray_len[0][4] == 8 && kGeometry.ray_len[0][2] == 0);
static_assert(chebyshev(0, 80) == 8 && chebyshev(square_of(4, 5), square_of(6, 4)) == 2);

}  // namespace tabula::facet
