// Tigadi endgame tables: every moving-phase position (both hands empty) with 3 to N gotis a side, solved by
// retrograde analysis: a win, a loss or a draw for the side to move, and the plies to the end with best play
// (the winner hurrying, the loser delaying). docs/ai.md describes the format; docs/rulings.md T7 what a value
// means under the repetition and 100-turn rules.
//
// Positions are stored once per class of the board's 16 symmetries (the square's eight, each with or without
// swapping the outer and inner squares: every one maps lines to lines, diagonals included, and neighbours to
// neighbours): the side to move's gotis are reduced to their class's representative, the enemy's gotis are
// carried along by the same symmetry and ranked among the points left.
#pragma once

#include "games/tigadi/board.h"

#include <array>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tabula::tigadi {

inline constexpr int kMinTableGotis = 3;
inline constexpr int kMaxTableGotis = 7;  // the format's limit; up to 7 v 7 would be 1.9 GB, 6 v 6 is 454 MB
inline constexpr int kSymmetries = 16;

// The board's symmetries as point permutations: kSymmetryMaps[g][p] is the image of point p.
const std::array<std::array<uint8_t, kPoints>, kSymmetries>& symmetry_maps();
Mask transform(int g, Mask m);

class EndgameTables {
 public:
  struct Value {
    int outcome = 0;  // +1 the side to move wins, -1 it loses, 0 a draw
    int plies = 0;    // to the end with best play (0 for a draw)
  };

  // Solves every table with both sides holding 3 to max_gotis gotis (smaller tables first: a capture leads into
  // them). `log`, when given, hears a line per table solved.
  static EndgameTables build(int max_gotis, const std::function<void(const std::string&)>& log = {});
  // The binary file: a header line "tabula tigadi endgame 1 <max_gotis>\n", then each table's bytes in the
  // order s = 3..N, o = 3..N. GameError(bad_request) when `in` does not hold one.
  static EndgameTables read(std::istream& in);
  void write(std::ostream& out) const;

  int max_gotis() const { return max_; }
  // The value of the moving-phase position where the side to move has `own` and the other `enemy`, or nothing
  // when a count lies outside the tables.
  std::optional<Value> probe(Mask own, Mask enemy) const;
  // Entries of every table, and the longest win held (plies).
  size_t entries() const;
  int longest_win() const;

  // The index of a position in its table (s = popcount(own), o = popcount(enemy)).
  size_t index(Mask own, Mask enemy) const;
  size_t table_size(int s, int o) const;

 private:
  struct Solver;
  int max_ = 0;
  std::array<std::array<std::vector<uint8_t>, kMaxTableGotis + 1>, kMaxTableGotis + 1> data_;
};

// The tables Tigadi::solved() probes: none until set (the CLI loads them at start, tests set their own).
void set_endgame_tables(std::shared_ptr<const EndgameTables> tables);
const EndgameTables* endgame_tables();

}  // namespace tabula::tigadi
