#include "ai/match.h"
#include "cli/commands.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace tabula {

namespace {

std::string percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * x);
  return buf;
}

std::string budget(const SelfplayArgs& args, int level, const std::optional<uint64_t>& side_nodes) {
  if (level == 1) return "random";
  if (side_nodes) return std::to_string(*side_nodes) + " nodes";
  if (args.nodes) return std::to_string(*args.nodes) + " nodes";
  if (args.ms) return std::to_string(*args.ms) + " ms";
  const ai::Limits d = ai::level_limits(args.game, level);
  if (d.nodes) return std::to_string(*d.nodes) + " nodes";
  return std::to_string(d.ms.value_or(0)) + " ms";
}

}  // namespace

int selfplay_command(const SelfplayArgs& args) {
  auto bad_level = [](int l) { return l < ai::kMinLevel || l > ai::kMaxLevel; };
  if (bad_level(args.level_a) || bad_level(args.level_b)) {
    std::fprintf(stderr, "selfplay: levels go from %d to %d\n", ai::kMinLevel, ai::kMaxLevel);
    return 1;
  }
  if (args.games < 1 || args.max_plies < 1) {
    std::fprintf(stderr, "selfplay: --games and --max-plies must be at least 1\n");
    return 1;
  }

  ai::MatchConfig config;
  config.game = args.game;
  config.options = args.options.is_null() ? json::object() : args.options;
  config.games = args.games;
  config.first_game = args.first_game;
  config.seed = args.seed;
  config.max_plies = args.max_plies;
  config.setup = args.setup;
  auto limits_for = [&](int level, const std::optional<uint64_t>& side_nodes) {
    ai::Limits l = ai::level_limits(args.game, level);
    if (args.nodes) {
      l.nodes = args.nodes;
      l.ms.reset();
    } else if (args.ms) {
      l.ms = args.ms;
      l.nodes.reset();
    }
    if (side_nodes) {
      l.nodes = side_nodes;
      l.ms.reset();
    }
    return l;
  };
  config.a = limits_for(args.level_a, args.a_nodes);
  config.b = limits_for(args.level_b, args.b_nodes);

  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (!args.quiet)
    std::fprintf(stderr, "%s: level %d (%s) vs level %d (%s), %d games, seed %llu, setups %s\n", args.game.c_str(),
                 args.level_a, budget(args, args.level_a, args.a_nodes).c_str(), args.level_b,
                 budget(args, args.level_b, args.b_nodes).c_str(), args.games, static_cast<unsigned long long>(args.seed),
                 args.setup.c_str());

  ai::MatchResult last;
  ai::MatchResult r;
  try {
    r = ai::play_match(config, [&](int game, const ai::MatchResult& so_far) {
      if (!args.quiet) {
        const std::string outcome = so_far.a_wins > last.a_wins   ? "a (level " + std::to_string(args.level_a) + ") won"
                                    : so_far.b_wins > last.b_wins ? "b (level " + std::to_string(args.level_b) + ") won"
                                                                  : std::string("draw");
        const int players = (so_far.a_seats + so_far.b_seats) / std::max(so_far.games(), 1);
        const int a_seat = players == 2 ? game % 2 : game % players;
        std::string winners;
        for (Player w : so_far.last_winners) winners += (winners.empty() ? "" : ",") + std::to_string(w);
        std::fprintf(stderr, "game %d/%d: %s in %lld plies, a in seat %d, winners [%s]; so far %d-%d-%d, %.0f s\n",
                     game + 1, args.first_game + args.games, outcome.c_str(), so_far.plies - last.plies, a_seat,
                     winners.c_str(), so_far.a_wins, so_far.draws, so_far.b_wins, seconds());
        std::fflush(stderr);
      }
      last = so_far;
    });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "selfplay: %s\n", e.what());
    return 1;
  }

  if (r.b_seats == r.a_seats) {
    const auto [lo, hi] = r.a_score_interval();
    std::printf("level %d vs level %d: %d wins, %d draws, %d losses (score %s, 95%% CI %s\u2013%s) over %d games\n",
                args.level_a, args.level_b, r.a_wins, r.draws, r.b_wins, percent(r.a_score()).c_str(),
                percent(lo).c_str(), percent(hi).c_str(), r.games());
  } else {
    // One a seat against several b seats: each side's share of the seats it held that won (a shared victory
    // is a win for every winner), so that one a seat compares with one b seat.
    const auto [alo, ahi] = ai::MatchResult::interval(r.a_win_rate(), r.a_seats);
    const auto [blo, bhi] = ai::MatchResult::interval(r.b_win_rate(), r.b_seats);
    std::printf("level %d (one seat) vs level %d (%d seats): level %d won %d of %d games (%s, 95%% CI %s\u2013%s); "
                "a level %d seat won %d of %d (%s, 95%% CI %s\u2013%s); %d games without a winner\n",
                args.level_a, args.level_b, r.b_seats / std::max(r.games(), 1), args.level_a, r.a_seat_wins, r.a_seats,
                percent(r.a_win_rate()).c_str(), percent(alo).c_str(), percent(ahi).c_str(), args.level_b,
                r.b_seat_wins, r.b_seats, percent(r.b_win_rate()).c_str(), percent(blo).c_str(), percent(bhi).c_str(),
                r.draws);
  }
  std::fflush(stdout);
  if (!args.quiet) {
    auto per_move = [](long long total, long long moves) { return moves ? static_cast<double>(total) / moves : 0.0; };
    std::fprintf(stderr,
                 "%.1f plies a game, %d adjudicated at %d plies, %d setups redrawn; a: %.0f nodes, %.1f ms a move; "
                 "b: %.0f nodes, %.1f ms a move; %.0f s\n",
                 per_move(r.plies, r.games()), r.adjudicated, args.max_plies, r.setups_redrawn,
                 per_move(static_cast<long long>(r.a_nodes), r.a_moves), per_move(r.a_ms, r.a_moves),
                 per_move(static_cast<long long>(r.b_nodes), r.b_moves), per_move(r.b_ms, r.b_moves), seconds());
  }
  return 0;
}

}  // namespace tabula
