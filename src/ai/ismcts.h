// Information-set Monte Carlo tree search (single-observer ISMCTS: Cowling, Powley and Whitehouse, 2012), for any
// game through the Game interface. One tree for the searching player's information set: every iteration draws a
// fresh world with Game::sample_world(me, rng), walks the tree choosing only among the moves legal in that world
// (UCB counting, for each child, the iterations in which it was available rather than its parent's visits),
// adds one node, and scores the position reached with the game's own evaluation after a short capture search
// (quiescence), squashed to a win probability, instead of a random playout. Every world is searched by one tree,
// so the root's statistics are averages over worlds of what a single strategy does there: the search does not
// assume it will know in the future what a world says (determinized voting's strategy fusion).
//
// Like the alpha-beta search it is paranoid with more than two players: the searching player is one side,
// everyone else the other. A node budget counts moves applied (in the tree and in the leaves' capture searches)
// as Searcher does, so equal budgets are comparable, and it makes the search deterministic for a seed.
#pragma once

#include "ai/search.h"
#include "core/game.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tabula::ai {

struct IsmctsParams {
  std::optional<uint64_t> nodes;  // when set, time is never read: the search is deterministic for the seed
  std::optional<int> ms;          // wall clock
  Clock clock;                    // empty: std::chrono::steady_clock
  const std::atomic<bool>* stop = nullptr;
  uint64_t seed = 0;
  // UCB1's exploration constant, on rewards in [0, 1]. Small: the leaves are evaluations, not random playouts, so a
  // move's mean is already a fair estimate after few visits, and the differences that matter (an agent, about
  // 0.15 in win probability) are small beside the usual 0.5-1. FACET under fog against today's level 3, 40 games
  // each (docs/ai.md): 0.6 won 45% (of 20), 0.2 70%, 0.1 95%, 0.05 92.5% (decay and fog: 0.1 53.8%, 0.05 77.5%), with eval_scale 150.
  double exploration = 0.05;
  // Evaluation units (hundredths of a piece) for which a leaf's win probability is 1 / (1 + e^-1), about 73%: an
  // agent up is 73%. FACET under fog, exploration 0.05: 150 won 92.5% (fog) and 77.5% (decay and fog), 100 85.0%
  // and 90.0% (docs/ai.md).
  double eval_scale = 100.0;
  // Extend leaves over captures (Game::legal_captures) before evaluating them, at most kMaxQuiescencePlies.
  bool quiescence = true;
  int quiescence_plies = kMaxQuiescencePlies;  // at most this many (and at most kMaxQuiescencePlies)
  // Progressive bias: a child's order_hint, scaled to [-1, 1], adds this much divided by its visits + 1.
  double hint_bias = 0.5;
  // Progressive widening: a node has at most widen_base + widen_rate * sqrt(its visits) children available in a
  // world before a new one is added there (the first children being the best by hint); a node none of whose
  // children is legal in the world always adds one.
  double widen_base = 4.0;
  double widen_rate = 2.0;
};

struct IsmctsMove {
  std::string move;   // the move's string in the game searched
  uint32_t visits = 0;
  double value = 0;   // mean reward for the searching player, in [0, 1]
};

struct IsmctsResult {
  std::string best;                 // the most visited root move legal in the game searched
  std::vector<IsmctsMove> root;     // every root move the tree holds that is legal in the game, most visited first
  uint64_t nodes = 0;
  uint64_t iterations = 0;
  int depth = 0;                    // the deepest tree node reached
  int64_t ms = 0;
};

// Searches `game` (in play, with a legal move) for game.to_move(), on worlds from game.sample_world; never reads
// the game's hidden state otherwise. The result names moves by move_to_string in `game`.
IsmctsResult ismcts_search(const Game& game, const IsmctsParams& params);

}  // namespace tabula::ai
