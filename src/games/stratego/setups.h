// Strong setups as a distribution (arrangements.cpp), and what it says about where each kind stands
// (belief.cpp). Setups here are written from the owner's seat: index row * 10 + column, row 0 the back
// rank, column 0 the owner's left.
#pragma once

#include "core/rng.h"
#include "games/stratego/board.h"

#include <array>

namespace tabula::stratego {

inline constexpr int kHomeSquares = 40;
using HomeSetup = std::array<uint8_t, kHomeSquares>;  // kinds, by row * 10 + column

// A setup drawn from a distribution shaped like strong players' setups: the Flag on the back rank (now and
// then the second), walled in by Bombs; other Bombs on the back rows, some beside a decoy, some blocking
// lanes in the third row; the General and Marshal forward on different wings, the Spy beside the General;
// Scouts in front and on the three lanes, Miners at the back. Always a legal army.
//
// `open_in_ten`: how many times in ten each side of the Flag is left without its Bomb. The AI's own setups
// wall every side (0): with one side in ten open, the AI's Flag fell to a piece walking along the back rank in
// 29 of the 55 arena games where its setup had an open side (53%), against 35 of 145 walled ones (24%). The
// belief's prior of an enemy's setup keeps one in ten (a strong player now and then leaves one open).
inline constexpr int kAIFlagOpenInTen = 0;
inline constexpr int kPriorFlagOpenInTen = 1;
HomeSetup strong_setup(Rng& rng, int open_in_ten = kAIFlagOpenInTen);

// P(kind | home square) over many strong_setup draws (kPriorFlagOpenInTen), made once (fixed seed).
using SetupPrior = std::array<std::array<float, kKinds>, kHomeSquares>;
const SetupPrior& setup_prior();

// A player's home square for (row, column) of its own seat, and back.
constexpr int home_square(int player, int row, int column) {
  return player == 0 ? square_of(column, 1 + row) : square_of(kFiles - 1 - column, kRanks - row);
}
// The home index (row * 10 + column) of a board square from `player`'s seat, or -1 outside its home.
constexpr int home_index(int player, int sq) {
  const int row = player == 0 ? rank_of(sq) - 1 : kRanks - rank_of(sq);
  const int column = player == 0 ? file_of(sq) : kFiles - 1 - file_of(sq);
  return row >= 0 && row < 4 ? row * kFiles + column : -1;
}

}  // namespace tabula::stratego
