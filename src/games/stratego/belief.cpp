// What the AI may believe about the enemy army: worlds drawn from the public history alone.
//
// A seat knows its own army, where every piece stands (ids are public), which pieces have moved (so are
// neither Bombs nor the Flag), which identities battles and Scouts' long moves have shown, what each army
// has lost, and every move made since play began. A sampled world keeps all of that and deals the enemy's
// remaining identities over its unknown pieces, consistently with it, from a belief:
//
//   weight(piece, kind) = prior(kind | the piece's setup square)   strong setups (setups.h), mixed with the
//                                                                  pool so any placement stays possible
//                       × 0 for a Bomb or the Flag if it moved
//                       × stillness for a movable kind if it never moved (less likely as the game goes on)
//                       × behaviour: it stepped next to a piece of ours it knew (stronger, more likely), it
//                         stepped away from one (weaker, more likely)
//
// and a world is a draw from P(dealing) ∝ Π weight(piece, kind) × bond^(Bombs beside the Flag), over the
// dealings of exactly the remaining identities (a Metropolis walk of swaps from a weighted first dealing).
// Nothing else of the true state is read, so two true states with the same public history and the same
// own army give the same worlds for the same seed.
#include "games/stratego/setups.h"
#include "games/stratego/stratego.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

namespace tabula::stratego {

namespace {

constexpr double kPriorShare = 0.85;     // the prior's share; the rest follows the pool's counts alone
// Each enemy Bomb beside the Flag multiplies a dealing's weight (strong setups wall the Flag in, the AI's own
// on every side; an enemy's may leave a side open; 5 let too many worlds deal the Flag beside an ordinary piece
// within reach).
constexpr double kFlagBond = 10.0;
constexpr int kSwapsPerPiece = 40;       // Metropolis steps per unknown piece
// … and per unknown piece for a chained draw (world_sampler's), which walks on from the previous world: each
// piece is offered about eight swaps, enough that successive worlds differ in most unknown identities.
constexpr int kChainedSwapsPerPiece = 4;
constexpr double kStillPerMove = 1.0 / 400;  // a movable kind's weight for a never-moved piece: 1 − moves/400 …
constexpr double kStillFloor = 0.3;          // … but at least this
// Behaviour: a piece that steps next to a piece of ours it knows, and one that steps away from it.
constexpr double kApproachWins = 2.5, kApproachTies = 1.0, kApproachLoses = 0.5;
constexpr double kRetreatLoses = 2.5, kRetreatOther = 0.6;
constexpr double kBehaviourCap = 8.0;  // no piece's behaviour moves a kind's weight more than this either way

// Each unknown piece's chance of being each kind: the weights scaled, row by row and kind by kind in turn
// (Sinkhorn's iteration), until every piece is one kind in all and every kind is dealt as often as the pool
// holds it. The same belief the worlds are drawn from, without the Flag's bond to its Bombs, read without
// drawing: one world's walk is too short to say how often a piece is a Bomb (its shares moved by tenths from
// one world to the next), and every world of one move gets the same chances.
Stratego::Marginals belief_marginals(const Stratego::Beliefs& w, const std::vector<int>& unknown,
                                     const std::array<int, kKinds>& pool) {
  Stratego::Marginals out{};
  const size_t n = unknown.size();
  if (n == 0) return out;
  std::vector<std::array<double, kKinds>> m(n);
  for (size_t i = 0; i < n; ++i) m[i] = w[static_cast<size_t>(unknown[i])];
  constexpr int kSinkhornRounds = 60;
  for (int round = 0; round < kSinkhornRounds; ++round) {
    for (int k = 0; k < kKinds; ++k) {
      double col = 0;
      for (size_t i = 0; i < n; ++i) col += m[i][static_cast<size_t>(k)];
      if (col <= 0) continue;
      const double scale = pool[static_cast<size_t>(k)] / col;
      for (size_t i = 0; i < n; ++i) m[i][static_cast<size_t>(k)] *= scale;
    }
    for (size_t i = 0; i < n; ++i) {
      double row = 0;
      for (double x : m[i]) row += x;
      if (row > 0)
        for (double& x : m[i]) x /= row;
    }
  }
  for (size_t i = 0; i < n; ++i)
    for (int k = 0; k < kKinds; ++k)
      out[static_cast<size_t>(unknown[i])][static_cast<size_t>(k)] = static_cast<float>(m[i][static_cast<size_t>(k)]);
  return out;
}

}  // namespace

const SetupPrior& setup_prior() {
  static const SetupPrior prior = [] {
    constexpr int kDraws = 4000;
    std::array<std::array<int, kKinds>, kHomeSquares> counts{};
    Rng rng(0x7365747570732d31ULL);
    for (int n = 0; n < kDraws; ++n) {
      const HomeSetup s = strong_setup(rng, kPriorFlagOpenInTen);
      for (int i = 0; i < kHomeSquares; ++i) ++counts[static_cast<size_t>(i)][s[static_cast<size_t>(i)]];
    }
    SetupPrior p{};
    for (int i = 0; i < kHomeSquares; ++i) {
      const int mirror = i / kFiles * kFiles + (kFiles - 1 - i % kFiles);  // left and right alike
      for (int k = 0; k < kKinds; ++k)
        p[static_cast<size_t>(i)][static_cast<size_t>(k)] =
            static_cast<float>(counts[static_cast<size_t>(i)][static_cast<size_t>(k)] +
                               counts[static_cast<size_t>(mirror)][static_cast<size_t>(k)]) /
            (2.0f * kDraws);
    }
    return p;
  }();
  return prior;
}

// The enemy's moves so far, read back from the undo stack: only the public part of each entry (the squares,
// which pieces, which were shown before the move) and our own pieces' kinds. Never an enemy kind.
void Stratego::weigh_behaviour(Player viewer, Beliefs& w) const {
  const Player enemy = 1 - viewer;
  std::array<std::array<double, kKinds>, kMaxPieces> factor;
  for (auto& f : factor) f.fill(1.0);
  std::array<uint8_t, kSquares> board = board_;
  std::array<bool, kMaxPieces> shown{};
  for (int id = 0; id < kMaxPieces; ++id) shown[static_cast<size_t>(id)] = pieces_[static_cast<size_t>(id)].revealed;
  auto adjacent = [](int a, int b) { return std::abs(file_of(a) - file_of(b)) + std::abs(rank_of(a) - rank_of(b)) == 1; };
  for (auto u = undo_.rbegin(); u != undo_.rend(); ++u) {
    const int from = StrategoMove::from(u->move), to = StrategoMove::to(u->move);
    // Back to the position before this move.
    board[static_cast<size_t>(from)] = u->attacker;
    board[static_cast<size_t>(to)] = u->defender;
    shown[u->attacker] = u->attacker_before.revealed;
    if (u->defender != kEmpty) shown[u->defender] = u->defender_before.revealed;
    if (owner(u->attacker) != enemy || u->defender != kEmpty || shown[u->attacker]) continue;
    auto& f = factor[u->attacker];
    for (int d = 0; d < kDirections; ++d) {
      // Ours it knew, beside where it went or where it came from.
      for (const int end : {to, from}) {
        const int sq = kGeometry.neighbours[static_cast<size_t>(end)][static_cast<size_t>(d)];
        if (sq == kNoSquare || sq == from || sq == to) continue;
        const uint8_t y = board[static_cast<size_t>(sq)];
        if (y == kEmpty || owner(y) != viewer || !shown[y]) continue;
        const int ours = pieces_[y].kind;
        if (!is_movable(ours)) continue;
        if (end == to && !adjacent(from, sq)) {  // it stepped up to our piece
          for (int k = 0; k < kKinds; ++k) {
            const Outcome o = battle(k, ours);
            f[static_cast<size_t>(k)] *= o == Outcome::attacker_won ? kApproachWins
                                         : o == Outcome::both_lost  ? kApproachTies
                                                                    : kApproachLoses;
          }
        } else if (end == from && !adjacent(to, sq)) {  // it stepped away from our piece
          for (int k = 0; k < kKinds; ++k)
            f[static_cast<size_t>(k)] *= battle(ours, k) == Outcome::attacker_won ? kRetreatLoses : kRetreatOther;
        }
      }
    }
  }
  for (int id = enemy * kArmySize; id < (enemy + 1) * kArmySize; ++id)
    for (int k = 0; k < kKinds; ++k)
      w[static_cast<size_t>(id)][static_cast<size_t>(k)] *=
          std::clamp(factor[static_cast<size_t>(id)][static_cast<size_t>(k)], 1 / kBehaviourCap, kBehaviourCap);
}

Stratego::Beliefs Stratego::beliefs(Player viewer) const {
  Beliefs w{};
  if (phase_ != Phase::play || (viewer != 0 && viewer != 1)) return w;
  const Player enemy = 1 - viewer;
  const int first = enemy * kArmySize, last = first + count_[static_cast<size_t>(enemy)];
  const std::array<int, kKinds> pool = unseen_pool(enemy);
  int pool_total = 0;
  for (int c : pool) pool_total += c;
  if (pool_total == 0) return w;
  // Ids follow setup squares while this object has played every move since the setups (setup() numbers a
  // full army in square order); otherwise only a piece that never moved is known to stand where it began.
  const bool ids_are_origins =
      count_[static_cast<size_t>(enemy)] == kArmySize && undo_.size() == static_cast<size_t>(ply_);
  const double stillness = std::max(kStillFloor, 1.0 - kStillPerMove * (ply_ / 2));
  for (int id = first; id < last; ++id) {
    const Piece& pc = pieces_[static_cast<size_t>(id)];
    if (!pc.alive || pc.revealed) continue;
    int origin = -1;
    if (!pc.moved) {
      origin = home_index(enemy, pc.square);
    } else if (ids_are_origins) {
      origin = home_index(enemy, enemy == 0 ? id : 60 + (id - kArmySize));
    }
    for (int k = 0; k < kKinds; ++k) {
      if (pool[static_cast<size_t>(k)] == 0) continue;
      const double share = static_cast<double>(pool[static_cast<size_t>(k)]) / pool_total;
      const double prior = origin >= 0 ? setup_prior()[static_cast<size_t>(origin)][static_cast<size_t>(k)]
                                       : static_cast<double>(kArmy[static_cast<size_t>(k)]) / kArmySize;
      double v = kPriorShare * prior + (1 - kPriorShare) * share;
      if (pc.moved && !is_movable(k)) v = 0;
      if (!pc.moved && is_movable(k)) v *= stillness;
      w[static_cast<size_t>(id)][static_cast<size_t>(k)] = v;
    }
  }
  weigh_behaviour(viewer, w);
  return w;
}

// The identities nobody has seen: the army as it began, less what was lost and what is shown. The army as
// it began is public: a full army, or the pieces of a given starting position (whose kinds, counted, are
// that position's declared composition).
std::array<int, kKinds> Stratego::unseen_pool(Player p) const {
  const int first = p * kArmySize, last = first + count_[static_cast<size_t>(p)];
  std::array<int, kKinds> pool = kArmy;
  if (last - first != kArmySize) {
    pool.fill(0);
    for (int id = first; id < last; ++id) ++pool[pieces_[static_cast<size_t>(id)].kind];
  }
  for (int id = first; id < last; ++id) {
    const Piece& pc = pieces_[static_cast<size_t>(id)];
    if (!pc.alive || pc.revealed) --pool[pc.kind];
  }
  return pool;
}

// What every world of one position shares (the belief, read from the whole history, and its marginals) is
// worked out once, when the sampler is made; each draw then deals and walks.
class Stratego::Sampler final : public Game::WorldSampler {
 public:
  Sampler(const Stratego& game, Player viewer, bool chained) : game_(game), viewer_(viewer), chained_(chained) {
    active_ = game.phase_ == Phase::play && (viewer == 0 || viewer == 1);
    if (!active_) return;
    const Player enemy = 1 - viewer;
    const int first = enemy * kArmySize, last = first + game.count_[static_cast<size_t>(enemy)];
    pool_ = game.unseen_pool(enemy);
    w_ = game.beliefs(viewer);
    for (int id = first; id < last; ++id)  // living pieces not shown
      if (game.pieces_[static_cast<size_t>(id)].alive && !game.pieces_[static_cast<size_t>(id)].revealed)
        unknown_.push_back(id);
    marginals_ = std::make_shared<const Marginals>(belief_marginals(w_, unknown_, pool_));
  }

  std::unique_ptr<Game> sample(Rng& rng) override;

 private:
  const Stratego& game_;
  Player viewer_;
  bool chained_;
  bool active_ = false;
  std::array<int, kKinds> pool_{};
  Beliefs w_{};
  std::vector<int> unknown_;
  std::shared_ptr<const Marginals> marginals_;
  std::vector<int> kind_;  // the dealing being drawn, by index into unknown_
};

std::unique_ptr<Game::WorldSampler> Stratego::world_sampler(Player viewer, bool chained) const {
  return std::make_unique<Sampler>(*this, viewer, chained);
}

std::unique_ptr<Game> Stratego::sample_world(Player viewer, Rng& rng) const {
  return Sampler(*this, viewer, false).sample(rng);
}

std::unique_ptr<Game> Stratego::Sampler::sample(Rng& rng) {
  auto world = std::make_unique<Stratego>(game_);
  world->undo_.clear();  // a world starts here; its past is only the public history it keeps
  world->search_root_ = static_cast<uint32_t>(world->history_.size());
  if (!active_) return world;
  const Player enemy = 1 - viewer_;
  const std::vector<int>& unknown = unknown_;
  const std::array<int, kKinds>& pool = pool_;
  const Beliefs& w = w_;
  const size_t n = unknown.size();
  // A chained draw walks on from the previous dealing, which is already a draw from the belief.
  const bool fresh = !chained_ || kind_.size() != n;
  if (fresh) kind_.assign(n, -1);
  std::vector<int>& kind = kind_;
  auto weight = [&](size_t i, int k) { return w[static_cast<size_t>(unknown[i])][static_cast<size_t>(k)]; };
  auto still = [&](size_t i) { return !game_.pieces_[static_cast<size_t>(unknown[i])].moved; };

  // A first dealing: each identity in turn to a piece drawn by its weight (uniformly when all weigh 0);
  // the Flag and Bombs first, and only to pieces that never moved, so the movable kinds left are exactly
  // enough for the rest.
  auto deal = [&](int k) {
    double total = 0;
    int eligible = 0;
    for (size_t i = 0; i < n; ++i)
      if (kind[i] < 0 && (is_movable(k) || still(i))) total += weight(i, k), ++eligible;
    if (eligible == 0) return false;
    if (total > 0) {
      double pick = rng.unit() * total;
      size_t chosen = n;
      for (size_t i = 0; i < n; ++i)
        if (kind[i] < 0 && (is_movable(k) || still(i)) && weight(i, k) > 0) {
          chosen = i;
          if ((pick -= weight(i, k)) < 0) break;
        }
      kind[chosen] = k;
      return true;
    }
    int pick = static_cast<int>(rng.below(static_cast<uint64_t>(eligible)));
    for (size_t i = 0; i < n; ++i)
      if (kind[i] < 0 && (is_movable(k) || still(i)) && pick-- == 0) kind[i] = k;
    return true;
  };
  constexpr int kOrder[kKinds] = {kFlag, kBomb, kMarshal, kGeneral, kSpy, kColonel,
                                  kMajor, kCaptain, kLieutenant, kMiner, kSergeant, kScout};
  if (fresh) {
    for (int k : kOrder)
      for (int c = 0; c < pool[static_cast<size_t>(k)]; ++c)
        if (!deal(k)) break;
    for (size_t i = 0; i < n; ++i)
      if (kind[i] < 0) kind[i] = still(i) ? kBomb : kScout;  // only for a position whose counts do not add up
  }

  // The Metropolis walk: swap two pieces' identities with probability min(1, weight ratio).
  std::array<int, kSquares> at;  // index into unknown by square, or -1
  at.fill(-1);
  int flag = -1;
  for (size_t i = 0; i < n; ++i) {
    at[game_.pieces_[static_cast<size_t>(unknown[i])].square] = static_cast<int>(i);
    if (kind[i] == kFlag) flag = static_cast<int>(i);
  }
  // Enemy Bombs beside the Flag, shown ones included.
  auto bonds = [&]() {
    if (flag < 0) return 0;
    int b = 0;
    const int sq = game_.pieces_[static_cast<size_t>(unknown[static_cast<size_t>(flag)])].square;
    for (int d = 0; d < kDirections; ++d) {
      const int s = kGeometry.neighbours[static_cast<size_t>(sq)][static_cast<size_t>(d)];
      if (s == kNoSquare || game_.board_[static_cast<size_t>(s)] == kEmpty || owner(game_.board_[static_cast<size_t>(s)]) != enemy) continue;
      const int i = at[static_cast<size_t>(s)];
      b += (i >= 0 ? kind[static_cast<size_t>(i)] : game_.pieces_[game_.board_[static_cast<size_t>(s)]].kind) == kBomb;
    }
    return b;
  };
  if (n >= 2) {
    for (size_t step = 0, steps = (fresh ? kSwapsPerPiece : kChainedSwapsPerPiece) * n; step < steps; ++step) {
      const size_t i = rng.below(n), j = rng.below(n);
      const int ki = kind[i], kj = kind[j];
      if (ki == kj) continue;
      const double before = weight(i, ki) * weight(j, kj), after = weight(i, kj) * weight(j, ki);
      if (after <= 0) continue;
      const bool bonded = ki == kFlag || kj == kFlag || ki == kBomb || kj == kBomb;
      const int bonds_before = bonded ? bonds() : 0;
      std::swap(kind[i], kind[j]);
      if (flag == static_cast<int>(i)) flag = static_cast<int>(j);
      else if (flag == static_cast<int>(j)) flag = static_cast<int>(i);
      double ratio = before > 0 ? after / before : 1.0;
      if (bonded) ratio *= std::pow(kFlagBond, bonds() - bonds_before);
      if (ratio < 1 && rng.unit() >= ratio) {  // rejected: swap back
        std::swap(kind[i], kind[j]);
        if (flag == static_cast<int>(i)) flag = static_cast<int>(j);
        else if (flag == static_cast<int>(j)) flag = static_cast<int>(i);
      }
    }
  }
  world->marginals_ = marginals_;
  world->believer_ = static_cast<uint8_t>(viewer_);
  for (size_t i = 0; i < n; ++i) world->pieces_[static_cast<size_t>(unknown[i])].kind = static_cast<uint8_t>(kind[i]);
  world->recompute_identity_hash();
  return world;
}

}  // namespace tabula::stratego
