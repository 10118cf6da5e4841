// Stratego's evaluation for the AI's search. The search runs on sampled worlds (belief.cpp), where every
// identity is dealt, so this reads the world's pieces as they are there.
//
// Material, with values that depend on the board: the Spy is worth much while the enemy Marshal lives,
// Miners more when few remain and enemy Bombs stand. Then the race to the Flag: how close a player's
// nearest movable piece is to the enemy Flag, against how close the enemy is to its own. In a world the
// Flag sits where that world dealt it, so across worlds this pulls the army towards where Flags are likely.
#include "games/stratego/stratego.h"

#include <algorithm>
#include <cstdlib>

namespace tabula::stratego {

namespace {

constexpr int kBaseValue[kKinds] = {
    0,    // Flag: its loss ends the game
    60,   // Spy (raised below while the enemy Marshal lives)
    20,   // Scout
    45,   // Miner (raised below when scarce)
    25,   // Sergeant
    40,   // Lieutenant
    60,   // Captain
    100,  // Major
    150,  // Colonel
    250,  // General
    400,  // Marshal
    20,   // Bomb
};

constexpr int kRaceWeight = 8;       // per square between the nearest movable piece and the enemy Flag
constexpr int kMinerRaceWeight = 4;  // per square between the nearest Miner and the enemy Flag

int distance(int a, int b) { return std::abs(file_of(a) - file_of(b)) + std::abs(rank_of(a) - rank_of(b)); }

}  // namespace

int Stratego::evaluate() const {
  int material[2] = {0, 0};
  int counts[2][kKinds] = {};
  int flag[2] = {kNoSquare, kNoSquare};
  for (Player p = 0; p < 2; ++p)
    for (int i = 0; i < count_[static_cast<size_t>(p)]; ++i) {
      const Piece& pc = pieces_[static_cast<size_t>(p * kArmySize + i)];
      if (!pc.alive) continue;
      ++counts[p][pc.kind];
      if (pc.kind == kFlag) flag[p] = pc.square;
    }
  for (Player p = 0; p < 2; ++p) {
    const int e = 1 - p;
    for (int k = 0; k < kKinds; ++k) {
      int v = kBaseValue[k];
      if (k == kSpy && counts[e][kMarshal] > 0) v = 150;
      if (k == kMiner && counts[e][kBomb] > 0 && counts[p][kMiner] <= 2) v = 100;
      material[p] += v * counts[p][k];
    }
  }
  // The race: each side's nearest movable piece to the other's Flag (0 when there is no Flag to reach).
  // A Flag is usually walled in by Bombs, so the nearest Miner counts as well as the nearest piece.
  int reach[2] = {0, 0};
  for (Player p = 0; p < 2; ++p) {
    const int target = flag[1 - p];
    if (target == kNoSquare) continue;
    constexpr int kFar = 2 * kFiles + 2 * kRanks;
    int any = kFar, miner = kFar;
    for (int i = 0; i < count_[static_cast<size_t>(p)]; ++i) {
      const Piece& pc = pieces_[static_cast<size_t>(p * kArmySize + i)];
      if (!pc.alive || !is_movable(pc.kind)) continue;
      any = std::min(any, distance(pc.square, target));
      if (pc.kind == kMiner) miner = std::min(miner, distance(pc.square, target));
    }
    reach[p] = kRaceWeight * any + kMinerRaceWeight * miner;
  }
  const int me = to_move_, them = 1 - me;
  return material[me] - material[them] + (reach[them] - reach[me]);
}

}  // namespace tabula::stratego
