// What the AI may believe about the enemy army: worlds drawn from the public history alone.
//
// A seat knows its own army, where every piece stands (ids are public), which pieces have moved (so are
// neither Bombs nor the Flag), which identities battles and Scouts' long moves have shown, and what each
// army has lost. A sampled world keeps all of that and deals the enemy's remaining identities over its
// unknown pieces at random, consistently with it. Nothing else of the true state is read, so two true
// states with the same public history and the same own army give the same worlds for the same seed.
#include "games/stratego/stratego.h"

#include <utility>

namespace tabula::stratego {

namespace {

template <class T>
void shuffle(std::vector<T>& v, Rng& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

// Prior weight of an unmoved piece being the Flag, by its row counted from its owner's back rank: players
// hide the Flag at the back (every named and random setup does).
constexpr int kFlagWeightByRow[4] = {8, 3, 1, 1};

}  // namespace

std::unique_ptr<Game> Stratego::sample_world(Player viewer, Rng& rng) const {
  auto world = std::make_unique<Stratego>(*this);
  world->undo_.clear();  // a world starts here; its past is only the public history it keeps
  if (phase_ != Phase::play || (viewer != 0 && viewer != 1)) return world;
  const Player enemy = 1 - viewer;
  const int first = enemy * kArmySize, last = first + count_[static_cast<size_t>(enemy)];

  // The identities nobody has seen: the army as it began, less what was lost and what is shown.
  // The army as it began is public: a full army, or the pieces of a given starting position (whose
  // kinds, counted, are that position's declared composition).
  std::array<int, kKinds> pool = kArmy;
  if (last - first != kArmySize) {
    pool.fill(0);
    for (int id = first; id < last; ++id) ++pool[pieces_[static_cast<size_t>(id)].kind];
  }
  std::vector<int> moved, still;  // unknown living pieces
  for (int id = first; id < last; ++id) {
    const Piece& pc = pieces_[static_cast<size_t>(id)];
    if (!pc.alive || pc.revealed) {
      --pool[pc.kind];
    } else {
      (pc.moved ? moved : still).push_back(id);
    }
  }
  auto set_kind = [&](int id, int kind) { world->pieces_[static_cast<size_t>(id)].kind = static_cast<uint8_t>(kind); };

  // The Flag first, weighted towards the back.
  if (pool[kFlag] > 0 && !still.empty()) {
    int total = 0;
    for (int id : still) {
      const int sq = pieces_[static_cast<size_t>(id)].square;
      const int row = enemy == 0 ? rank_of(sq) - 1 : kRanks - rank_of(sq);
      total += row < 4 ? kFlagWeightByRow[row] : 1;
    }
    int pick = static_cast<int>(rng.below(static_cast<uint64_t>(total)));
    for (size_t i = 0; i < still.size(); ++i) {
      const int sq = pieces_[static_cast<size_t>(still[i])].square;
      const int row = enemy == 0 ? rank_of(sq) - 1 : kRanks - rank_of(sq);
      pick -= row < 4 ? kFlagWeightByRow[row] : 1;
      if (pick < 0) {
        set_kind(still[i], kFlag);
        still.erase(still.begin() + static_cast<long>(i));
        --pool[kFlag];
        break;
      }
    }
  }
  // Pieces that moved take movable identities; the rest take what is left.
  std::vector<int> movable, others;
  for (int k = 0; k < kKinds; ++k)
    for (int n = 0; n < pool[static_cast<size_t>(k)]; ++n) (is_movable(k) ? movable : others).push_back(k);
  shuffle(movable, rng);
  for (size_t i = 0; i < moved.size(); ++i) set_kind(moved[i], i < movable.size() ? movable[i] : kScout);
  for (size_t i = moved.size(); i < movable.size(); ++i) others.push_back(movable[i]);
  shuffle(others, rng);
  for (size_t i = 0; i < still.size(); ++i) set_kind(still[i], i < others.size() ? others[i] : kBomb);
  world->recompute_identity_hash();
  return world;
}

}  // namespace tabula::stratego
