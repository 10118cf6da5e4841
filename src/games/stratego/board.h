// Stratego's board and pieces (shared/spec/rulings.md, Stratego): a 10×10 grid, files a–j and ranks 1–10,
// two 2×2 lakes, and the twelve kinds of piece with their battle rules. Everything here is compile-time.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace tabula::stratego {

inline constexpr int kFiles = 10;
inline constexpr int kRanks = 10;
inline constexpr int kSquares = kFiles * kRanks;
inline constexpr int kNoSquare = -1;

// Square index: file + 10 * (rank - 1), so a1 = 0, j1 = 9, a2 = 10, j10 = 99.
constexpr int square_of(int file, int rank) { return file + kFiles * (rank - 1); }
constexpr int file_of(int sq) { return sq % kFiles; }
constexpr int rank_of(int sq) { return sq / kFiles + 1; }

constexpr bool is_lake(int sq) {
  const int f = file_of(sq), r = rank_of(sq);
  return (r == 5 || r == 6) && (f == 2 || f == 3 || f == 6 || f == 7);
}

// A player's home ranks, where its setup stands: Red (0) ranks 1–4, Blue (1) ranks 7–10.
constexpr bool in_home(int player, int sq) {
  const int r = rank_of(sq);
  return player == 0 ? r <= 4 : r >= 7;
}

// "e7" -> index, or kNoSquare when the text is not a square of the board.
int parse_square(std::string_view s);
std::string square_name(int sq);

// The kinds, numbered by rank so that a stronger ordinary piece has a larger value.
enum Kind : uint8_t {
  kFlag = 0,
  kSpy = 1,
  kScout = 2,
  kMiner = 3,
  kSergeant = 4,
  kLieutenant = 5,
  kCaptain = 6,
  kMajor = 7,
  kColonel = 8,
  kGeneral = 9,
  kMarshal = 10,
  kBomb = 11,
};
inline constexpr int kKinds = 12;
inline constexpr int kArmySize = 40;

// How many of each kind an army holds (rulings.md).
inline constexpr std::array<int, kKinds> kArmy = {1, 1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 6};
static_assert([] {
  int n = 0;
  for (int c : kArmy) n += c;
  return n == kArmySize;
}());

// notation.md's letters, by kind.
inline constexpr std::string_view kLetters = "FSONTLPJCGMB";
constexpr char kind_letter(int k) { return kLetters[static_cast<size_t>(k)]; }
// The kind a letter names, or -1.
constexpr int kind_of_letter(char c) {
  for (int k = 0; k < kKinds; ++k)
    if (kLetters[static_cast<size_t>(k)] == c) return k;
  return -1;
}
std::string_view kind_name(int k);  // "Marshal", …

constexpr bool is_movable(int k) { return k != kFlag && k != kBomb; }

enum class Outcome : uint8_t { attacker_won, attacker_lost, both_lost };
std::string_view outcome_name(Outcome o);

// The battle table of stratego-gameplay.txt, "Attacking and Resolving Battle". The Flag always falls (the
// game then ends); a Bomb stops all but a Miner; the Spy beats the Marshal only when it attacks.
constexpr Outcome battle(int attacker, int defender) {
  if (defender == kFlag) return Outcome::attacker_won;
  if (defender == kBomb) return attacker == kMiner ? Outcome::attacker_won : Outcome::attacker_lost;
  if (attacker == kSpy && defender == kMarshal) return Outcome::attacker_won;
  if (attacker == defender) return Outcome::both_lost;
  return attacker > defender ? Outcome::attacker_won : Outcome::attacker_lost;
}

// The four orthogonal steps; neighbours[sq][d] is the next square that way, or kNoSquare at the edge or a
// lake (no piece enters or crosses a lake, so a lake ends a line like the edge does).
inline constexpr int kDirections = 4;
struct Geometry {
  std::array<std::array<int8_t, kDirections>, kSquares> neighbours{};
};
constexpr Geometry make_geometry() {
  Geometry g;
  constexpr int df[kDirections] = {0, 1, 0, -1};
  constexpr int dr[kDirections] = {1, 0, -1, 0};
  for (int sq = 0; sq < kSquares; ++sq)
    for (int d = 0; d < kDirections; ++d) {
      const int f = file_of(sq) + df[d], r = rank_of(sq) + dr[d];
      int next = kNoSquare;
      if (f >= 0 && f < kFiles && r >= 1 && r <= kRanks && !is_lake(square_of(f, r)) && !is_lake(sq))
        next = square_of(f, r);
      g.neighbours[static_cast<size_t>(sq)][static_cast<size_t>(d)] = static_cast<int8_t>(next);
    }
  return g;
}
inline constexpr Geometry kGeometry = make_geometry();

}  // namespace tabula::stratego
