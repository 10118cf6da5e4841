#include "ai/ismcts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

namespace tabula::ai {

namespace {

constexpr uint32_t kNone = ~uint32_t{0};

struct Node {
  Move move;
  Player mover = 0;         // who played `move` (the root: nobody, unused)
  uint32_t first_child = kNone;
  uint32_t next_sibling = kNone;
  uint32_t visits = 0;
  uint32_t available = 0;   // iterations in which the parent was reached in a world where this move was legal
  double reward = 0;        // summed, for mover's side
  double bias = 0;          // the move's order_hint in [-1, 1], from the world that added it
  std::string name;         // root children only: the move's string
};

// A set of the moves legal here, by code, cleared in O(1) by a new stamp: which children are available.
class LegalSet {
 public:
  void fill(const MoveList& moves) {
    ++stamp_;
    if (stamp_ == 0) {
      std::fill(slots_.begin(), slots_.end(), Slot{});
      stamp_ = 1;
    }
    for (int i = 0; i < moves.size(); ++i) {
      size_t h = slot_of(moves[i]);
      while (slots_[h].stamp == stamp_) h = (h + 1) & kMask;
      slots_[h] = Slot{stamp_, moves[i].code, i};
    }
  }
  // The move's index in the list filled, or -1.
  int find(Move m) const {
    for (size_t h = slot_of(m);; h = (h + 1) & kMask) {
      if (slots_[h].stamp != stamp_) return -1;
      if (slots_[h].code == m.code) return slots_[h].index;
    }
  }

 private:
  static constexpr size_t kSize = 8192;  // over twice MoveList::kCapacity: probes stay short
  static constexpr size_t kMask = kSize - 1;
  struct Slot {
    uint32_t stamp = 0;
    uint32_t code = 0;
    int index = 0;
  };
  static size_t slot_of(Move m) { return static_cast<size_t>((m.code * 0x9E3779B1u) >> 19) & kMask; }
  std::vector<Slot> slots_ = std::vector<Slot>(kSize);
  uint32_t stamp_ = 0;
};

class Ismcts {
 public:
  Ismcts(const Game& game, const IsmctsParams& params) : game_(game), params_(params), rng_(params.seed) {
    me_ = game.to_move();
    sampler_ = game.world_sampler(me_, /*chained=*/true);
  }

  IsmctsResult run() {
    const auto start = now();
    const auto deadline = start + std::chrono::milliseconds(params_.ms.value_or(0));
    nodes_.reserve(params_.nodes ? static_cast<size_t>(std::min<uint64_t>(*params_.nodes, 1u << 20)) + 1 : 1u << 16);
    nodes_.push_back(Node{});
    IsmctsResult result;
    for (uint64_t it = 0;; ++it) {
      if (params_.nodes && node_count_ >= *params_.nodes) break;
      if (it > 0 && it % 16 == 0) {
        if (params_.stop && params_.stop->load(std::memory_order_relaxed)) break;
        if (!params_.nodes && params_.ms && now() >= deadline) break;
      }
      if (!iterate()) break;  // the node budget ran out inside the iteration: it is not counted
      ++result.iterations;
    }
    result.nodes = node_count_;
    result.depth = max_depth_;

    // The root's children that are legal in the game searched, by string (a world's codes need not be the game's).
    MoveList legal;
    game_.legal_moves(legal);
    std::vector<std::string> names;
    for (Move m : legal) names.push_back(game_.move_to_string(m));
    for (uint32_t c = nodes_[0].first_child; c != kNone; c = nodes_[c].next_sibling) {
      const Node& n = nodes_[c];
      if (std::find(names.begin(), names.end(), n.name) == names.end()) continue;
      result.root.push_back({n.name, n.visits, n.visits ? n.reward / n.visits : 0.0});
    }
    std::stable_sort(result.root.begin(), result.root.end(), [](const IsmctsMove& a, const IsmctsMove& b) {
      return a.visits != b.visits ? a.visits > b.visits : a.value > b.value;
    });
    if (!result.root.empty()) {
      result.best = result.root.front().move;
    } else {
      // Searched nothing usable (no iteration fitted in the budget): the seeded generator picks a legal move.
      result.best = names[static_cast<size_t>(rng_.below(names.size()))];
    }
    result.ms = std::chrono::duration_cast<std::chrono::milliseconds>(now() - start).count();
    return result;
  }

 private:
  std::chrono::steady_clock::time_point now() const {
    return params_.clock ? params_.clock() : std::chrono::steady_clock::now();
  }
  bool same_side(Player a, Player b) const { return (a == me_) == (b == me_); }
  bool out_of_nodes() const { return params_.nodes && node_count_ >= *params_.nodes; }

  // The searching player's reward at a finished game: 1 among the winners, 1/2 a draw, else 0.
  double terminal_reward(const Game& g) const {
    const Result* r = g.result();
    if (!r || r->winners.empty()) return 0.5;
    return std::find(r->winners.begin(), r->winners.end(), me_) != r->winners.end() ? 1.0 : 0.0;
  }

  // The static value of `g` for its side to move, from the searching side's evaluation.
  int evaluate_here(const Game& g) const {
    const int v = g.evaluate_for(me_);
    return same_side(g.to_move(), me_) ? v : -v;
  }

  // Captures only, for the side to move, within (alpha, beta): the leaf's value once no capture is pending.
  // Sets aborted_ when the node budget runs out.
  int quiesce(Game& g, int alpha, int beta, int depth) {
    const int stand_pat = evaluate_here(g);
    if (!params_.quiescence || depth >= std::min(params_.quiescence_plies, kMaxQuiescencePlies) || stand_pat >= beta)
      return stand_pat;
    alpha = std::max(alpha, stand_pat);
    int best = stand_pat;
    MoveList& moves = lists_[static_cast<size_t>(depth)];
    g.legal_captures(moves);
    const int n = moves.size();
    std::array<int, MoveList::kCapacity>& order = orders_[static_cast<size_t>(depth)];
    for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = g.order_hint(moves[i]);
    const Player mover = g.to_move();
    for (int i = 0; i < n; ++i) {
      int pick = i;
      for (int j = i + 1; j < n; ++j)
        if (order[static_cast<size_t>(j)] > order[static_cast<size_t>(pick)]) pick = j;
      std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(pick)]);
      std::swap(moves[i], moves[pick]);
      if (out_of_nodes()) {
        aborted_ = true;
        return 0;
      }
      g.apply(moves[i]);
      ++node_count_;
      int score;
      if (g.phase() == Phase::over) {
        const double r = terminal_reward(g);
        const int v = r > 0.5 ? kWin : r < 0.5 ? -kWin : 0;  // for the searching side
        score = same_side(mover, me_) ? v : -v;
      } else if (same_side(g.to_move(), mover)) {
        score = quiesce(g, alpha, beta, depth + 1);
      } else {
        score = -quiesce(g, -beta, -alpha, depth + 1);
      }
      g.undo();
      if (aborted_) return 0;
      if (score > best) {
        best = score;
        alpha = std::max(alpha, score);
        if (alpha >= beta) break;
      }
    }
    return best;
  }

  // The searching player's reward for the position `g` stands in, a leaf of the tree.
  double leaf_reward(Game& g) {
    if (g.phase() == Phase::over) return terminal_reward(g);
    const int v = quiesce(g, -kInfinity, kInfinity, 0);
    if (aborted_) return 0.5;
    const int for_me = same_side(g.to_move(), me_) ? v : -v;
    return win_chance(for_me, params_.eval_scale);
  }

  static double hint_bias(int hint) {
    const double h = static_cast<double>(hint);
    return h / (std::abs(h) + 256.0);
  }

  // One iteration on a fresh world; false when the node budget ran out before it finished.
  bool iterate() {
    std::unique_ptr<Game> world = sampler_->sample(rng_);
    path_.clear();
    uint32_t node = 0;
    int depth = 0;
    double reward = 0.5;
    while (true) {
      if (world->phase() != Phase::play) {
        reward = terminal_reward(*world);
        break;
      }
      MoveList& moves = tree_moves_;
      world->legal_moves(moves);
      if (moves.empty() || depth >= kMaxPly - 1) {
        reward = leaf_reward(*world);
        break;
      }
      legal_.fill(moves);
      tried_.assign(static_cast<size_t>(moves.size()), 0);
      // The children legal in this world are available: their count of chances grows.
      uint32_t available = 0;
      for (uint32_t c = nodes_[node].first_child; c != kNone; c = nodes_[c].next_sibling) {
        const int i = legal_.find(nodes_[c].move);
        if (i < 0) continue;
        tried_[static_cast<size_t>(i)] = 1;
        ++nodes_[c].available;
        ++available;
      }
      const double limit = params_.widen_base + params_.widen_rate * std::sqrt(static_cast<double>(nodes_[node].visits));
      const bool untried = available < static_cast<uint32_t>(moves.size());
      // The root is widened at once: every move of the seat's own gets a look before any is preferred.
      if (untried && (node == 0 || available == 0 || static_cast<double>(available) < limit)) {
        // Expand: the untried move the game's hint rates highest, equals drawn by the seed.
        int pick = -1, best_hint = 0, ties = 0;
        for (int i = 0; i < moves.size(); ++i) {
          if (tried_[static_cast<size_t>(i)]) continue;
          const int h = world->order_hint(moves[i]);
          if (pick < 0 || h > best_hint) {
            pick = i;
            best_hint = h;
            ties = 1;
          } else if (h == best_hint && rng_.below(static_cast<uint64_t>(++ties)) == 0) {
            pick = i;
          }
        }
        Node child;
        child.move = moves[pick];
        child.mover = world->to_move();
        child.available = 1;
        child.bias = hint_bias(best_hint);
        if (node == 0) child.name = world->move_to_string(child.move);
        child.next_sibling = nodes_[node].first_child;
        const uint32_t id = static_cast<uint32_t>(nodes_.size());
        nodes_.push_back(std::move(child));
        nodes_[node].first_child = id;
        if (out_of_nodes()) return false;
        world->apply(nodes_[id].move);
        ++node_count_;
        path_.push_back(id);
        ++depth;
        reward = leaf_reward(*world);
        if (aborted_) return false;
        break;
      }
      // Select among the available children by UCB, with availability in place of the parent's visits.
      uint32_t chosen = kNone;
      double best = -1e300;
      for (uint32_t c = nodes_[node].first_child; c != kNone; c = nodes_[c].next_sibling) {
        if (legal_.find(nodes_[c].move) < 0) continue;
        const Node& n = nodes_[c];
        const double visits = static_cast<double>(n.visits);
        double u;
        if (n.visits == 0) {
          u = 1e9 + n.bias;  // added by an unfinished iteration: try it
        } else {
          u = n.reward / visits + params_.exploration * std::sqrt(std::log(static_cast<double>(n.available)) / visits) +
              params_.hint_bias * n.bias / (visits + 1.0);
        }
        if (u > best) {
          best = u;
          chosen = c;
        }
      }
      if (out_of_nodes()) return false;
      world->apply(nodes_[chosen].move);
      ++node_count_;
      path_.push_back(chosen);
      node = chosen;
      ++depth;
    }
    max_depth_ = std::max(max_depth_, depth);
    ++nodes_[0].visits;
    for (uint32_t id : path_) {
      Node& n = nodes_[id];
      ++n.visits;
      n.reward += same_side(n.mover, me_) ? reward : 1.0 - reward;
    }
    return true;
  }

  const Game& game_;
  const IsmctsParams& params_;
  Rng rng_;
  Player me_ = 0;
  std::unique_ptr<Game::WorldSampler> sampler_;  // a world an iteration, the belief read once
  std::vector<Node> nodes_;
  std::vector<uint32_t> path_;
  std::vector<uint8_t> tried_;
  LegalSet legal_;
  MoveList tree_moves_;
  std::array<MoveList, kMaxQuiescencePlies + 1> lists_;
  std::array<std::array<int, MoveList::kCapacity>, kMaxQuiescencePlies + 1> orders_;
  uint64_t node_count_ = 0;
  bool aborted_ = false;
  int max_depth_ = 0;
};

}  // namespace

IsmctsResult ismcts_search(const Game& game, const IsmctsParams& params) {
  MoveList legal;
  game.legal_moves(legal);
  if (game.phase() != Phase::play || legal.empty()) fail(ErrorKind::conflict, "no legal move to search");
  auto search = std::make_unique<Ismcts>(game, params);  // its move lists are large: not on the stack
  return search->run();
}

}  // namespace tabula::ai
