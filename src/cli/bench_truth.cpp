// `tabula bench --game truth`: what the first action's look-ahead costs. A first action is legal only when a
// second action remains after it; rules::legal_actions proves that with a witness (another piece whose move
// the action cannot touch) and plays the action out only when none qualifies, rules::legal_actions_exact
// plays every first action out on a copy. Both are timed on the same positions at the start of a turn.
#include "cli/bench.h"

#include "ai/ai.h"
#include "core/session.h"
#include "games/truth/truth.h"

#include <algorithm>
#include <chrono>

namespace tabula {

json bench_truth_lookahead(double seconds, int players) {
  using Clock = std::chrono::steady_clock;
  using truth::Position;
  // Positions at the start of a turn (and, for comparison, before a second action) from seeded random games.
  std::vector<Position> firsts, seconds_;
  Rng rng(4242);
  MoveList moves;
  while (firsts.size() < 300) {
    truth::Truth g(truth::Options{players});
    for (Player p = 0; p < players; ++p) g.setup(p, g.arrangement(p, rng.below(4) == 0 ? "suggested" : "random", rng.next()), nullptr);
    for (int i = 0; i < 600 && g.phase() == Phase::play && firsts.size() < 300; ++i) {
      const Position& pos = g.position();
      if (rng.below(6) == 0) (pos.action == 0 ? firsts : seconds_).push_back(pos);
      g.legal_moves(moves);
      g.apply(moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))]);
    }
  }
  auto time_us = [&](const std::vector<Position>& positions, auto&& generate) {
    uint64_t calls = 0, listed = 0;
    if (positions.empty()) return std::pair<double, double>{0.0, 0.0};
    const auto t0 = Clock::now();
    double elapsed = 0;
    while (calls == 0 || elapsed < seconds / 3) {
      for (const Position& p : positions) {
        generate(p, moves);
        listed += static_cast<uint64_t>(moves.size());
        ++calls;
      }
      elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    }
    return std::pair<double, double>{elapsed * 1e6 / static_cast<double>(calls),
                                     static_cast<double>(listed) / static_cast<double>(calls)};
  };
  const auto [fast_us, fast_n] = time_us(firsts, [](const Position& p, MoveList& out) { truth::rules::legal_actions(p, out); });
  const auto [exact_us, exact_n] =
      time_us(firsts, [](const Position& p, MoveList& out) { truth::rules::legal_actions_exact(p, out); });
  const auto [second_us, second_n] =
      time_us(seconds_, [](const Position& p, MoveList& out) { truth::rules::legal_actions(p, out); });
  // The AI's search from the suggested arrangements, on a node budget (the same search every time).
  truth::Truth start(truth::Options{players});
  for (Player p = 0; p < players; ++p) start.setup(p, start.arrangement(p, "suggested", 0), nullptr);
  ai::Limits limits;
  limits.level = 3;
  limits.nodes = 60'000;
  const auto t0 = Clock::now();
  const ai::Choice choice = ai::choose_move(start, limits);
  const double search_s = std::chrono::duration<double>(Clock::now() - t0).count();
  const double search_nps = choice.info.value("nodes", uint64_t{0}) / std::max(search_s, 1e-9);
  return json{{"positions", firsts.size()},         {"legal_actions_us", fast_us},
              {"search_nodes_per_second", search_nps}, {"search_depth", choice.info.value("depth", 0)},
              {"legal_actions_exact_us", exact_us}, {"first_actions_listed", fast_n},
              {"exact_listed", exact_n},            {"second_action_positions", seconds_.size()},
              {"second_action_us", second_us},      {"second_actions_listed", second_n}};
}

}  // namespace tabula
