// The Game of Truth's board and pieces (shared/rules/truth-browser-edition.txt, shared/spec/rulings.md):
// a 17×18 grid, files a–q and ranks 1–18, whose black squares are closed in the two-player game; the
// armies' territories; the six kinds with their values and letters. Everything here is compile-time.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace tabula::truth {

inline constexpr int kFiles = 17;
inline constexpr int kRanks = 18;
inline constexpr int kSquares = kFiles * kRanks;
inline constexpr int kNoSquare = -1;
inline constexpr int kMaxPlayers = 4;

// Square index: file + 17 * (rank - 1), so a1 = 0, q1 = 16, a18 = 289, q18 = 305.
constexpr int square_of(int file, int rank) { return file + kFiles * (rank - 1); }
constexpr int file_of(int sq) { return sq % kFiles; }
constexpr int rank_of(int sq) { return sq / kFiles + 1; }
constexpr bool on_board(int file, int rank) { return file >= 0 && file < kFiles && rank >= 1 && rank <= kRanks; }

// Two-player colours: a18 (the upper-left square) is white and colours alternate (rulings.md), so a square
// is white when file + (18 - rank) is even. Only white squares are ever occupied; four-player boards are all
// open.
constexpr bool is_white(int sq) { return (file_of(sq) + (kRanks - rank_of(sq))) % 2 == 0; }
constexpr bool is_open(int players, int sq) { return players == 4 || is_white(sq); }

// Chebyshev distance ("range uses the larger of horizontal and vertical displacement").
constexpr int distance(int a, int b) {
  const int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
  const int x = df < 0 ? -df : df, y = dr < 0 ? -dr : dr;
  return x > y ? x : y;
}
// Whether b lies on a horizontal, vertical or diagonal line through a.
constexpr bool on_line(int a, int b) {
  const int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
  return df == 0 || dr == 0 || df == dr || df == -dr;
}

// Territory, for the icon's step (rulings.md): two players, your nine ranks (file i included); four
// players, your corner quadrant (files a–h west, j–q east, ranks 1–9 south, 10–18 north; file i is
// nobody's). Turn order: Ivory 0 (south-west), Jade 1 (north-east), Ember 2 (south-east), Indigo 3
// (north-west).
constexpr bool in_territory(int players, int player, int sq) {
  const int f = file_of(sq), r = rank_of(sq);
  const bool south = r <= 9;
  if (players == 2) return player == 0 ? south : !south;
  if (f == 8) return false;
  const bool west = f < 8;
  switch (player) {
    case 0: return south && west;
    case 1: return !south && !west;
    case 2: return south && !west;
    default: return !south && west;
  }
}

enum Kind : uint8_t { kDoor = 0, kLantern = 1, kLinesman = 2, kSentry = 3, kGuardian = 4, kIcon = 5 };
inline constexpr int kKinds = 6;
inline constexpr int kArmySize = 41;
inline constexpr int kMaxPieces = kMaxPlayers * kArmySize;
// How many of each kind an army holds: 20 doors, 10 lanterns, 5 linesmen, 3 sentries, 2 guardians, 1 icon.
inline constexpr std::array<int, kKinds> kArmy = {20, 10, 5, 3, 2, 1};
static_assert(kArmy[0] + kArmy[1] + kArmy[2] + kArmy[3] + kArmy[4] + kArmy[5] == kArmySize);
// Points for a loss (edition, "Score and stalemate"); a transformed guardian is worth kLanternGuardianValue.
inline constexpr std::array<int, kKinds> kValue = {1, 1, 5, 5, 20, 100};
inline constexpr int kLanternGuardianValue = 40;

inline constexpr std::string_view kLetters = "DLNSGI";
constexpr char kind_letter(int k) { return kLetters[static_cast<size_t>(k)]; }
constexpr int kind_of_letter(char c) {
  for (int k = 0; k < kKinds; ++k)
    if (kLetters[static_cast<size_t>(k)] == c) return k;
  return -1;
}
std::string_view kind_name(int k);     // "door", …
std::string_view player_name(int p);   // "Ivory", …

// "e7" -> index, or kNoSquare when the text is not a square of the board.
int parse_square(std::string_view s);
std::string square_name(int sq);

// The eight directions: the four diagonals first (doors, lanterns, guardians, icons, contacts), then the
// four orthogonals (linesmen only).
inline constexpr int kDiagonals = 4;
inline constexpr int kDirections = 8;
inline constexpr std::array<int, kDirections> kDf = {1, -1, 1, -1, 1, -1, 0, 0};
inline constexpr std::array<int, kDirections> kDr = {1, 1, -1, -1, 0, 0, 1, -1};

// ray[sq][d][k-1] is the square k steps from sq in direction d, or kNoSquare past the edge (k = 1..kRay).
inline constexpr int kRay = 17;
struct Geometry {
  std::array<std::array<std::array<int16_t, kRay>, kDirections>, kSquares> ray{};
};
constexpr Geometry make_geometry() {
  Geometry g;
  for (int sq = 0; sq < kSquares; ++sq)
    for (int d = 0; d < kDirections; ++d)
      for (int k = 1; k <= kRay; ++k) {
        const int f = file_of(sq) + k * kDf[static_cast<size_t>(d)], r = rank_of(sq) + k * kDr[static_cast<size_t>(d)];
        g.ray[static_cast<size_t>(sq)][static_cast<size_t>(d)][static_cast<size_t>(k - 1)] =
            static_cast<int16_t>(on_board(f, r) ? square_of(f, r) : kNoSquare);
      }
  return g;
}
inline constexpr Geometry kGeometry = make_geometry();
constexpr int step(int sq, int d, int k = 1) {
  return kGeometry.ray[static_cast<size_t>(sq)][static_cast<size_t>(d)][static_cast<size_t>(k - 1)];
}
// The square diagonally adjacent to sq in diagonal d (0..3), or kNoSquare.
constexpr int diagonal(int sq, int d) { return step(sq, d, 1); }

}  // namespace tabula::truth
