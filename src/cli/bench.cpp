#include "cli/bench.h"

#include "core/session.h"

#include <chrono>
#include <cstdio>
#include <ostream>
#include <sstream>

namespace tabula {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// A new game ready for its first move: games with a setup phase take each player's seeded random
// arrangement (the seeds are the bench's own, so runs compare).
std::unique_ptr<Game> ready_game(const GameKind& kind, const json& options, Rng& rng) {
  auto g = kind.create(options);
  for (Player p = 0; g->phase() == Phase::setup && p < g->num_players(); ++p)
    g->setup(p, g->arrangement(p, "random", rng.next()), nullptr);
  return g;
}

// Plays uniformly random legal moves to the end (or a safety cap), from a fresh game each time (with
// fresh setups where the game has them). Returns playouts and plies made.
std::pair<uint64_t, uint64_t> random_playouts(const GameKind& kind, const json& options, double budget_s) {
  Rng rng(12345);
  uint64_t games = 0, plies = 0;
  const bool has_setup = kind.create(options)->phase() == Phase::setup;
  auto start = ready_game(kind, options, rng);
  MoveList moves;
  const auto t0 = Clock::now();
  while (seconds_since(t0) < budget_s) {
    auto g = has_setup ? ready_game(kind, options, rng) : start->clone();
    for (int i = 0; i < 5000 && g->phase() == Phase::play; ++i) {
      g->legal_moves(moves);
      g->apply(moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))]);
      ++plies;
    }
    ++games;
  }
  return {games, plies};
}

int default_perft_depth(std::string_view game) {
  return game == "tigadi" ? 6 : game == "stratego" ? 7 : game == "facet" ? 5 : 4;
}

}  // namespace

int bench_command(const BenchArgs& args, std::ostream& out) {
  json report = json::array();
  json options = json::object();
  if (!args.options.empty()) {
    options = json::parse(args.options, nullptr, false);
    if (options.is_discarded() || !options.is_object() || args.game.empty()) {
      out << "--options takes a JSON object and needs --game\n";
      return 2;
    }
  }
  for (const GameKind& kind : game_kinds()) {
    if (!args.game.empty() && args.game != kind.name) continue;
    const int depth = args.perft_depth > 0 ? args.perft_depth : default_perft_depth(kind.name);
    Rng perft_rng(1);
    std::unique_ptr<Game> g;
    try {
      g = ready_game(kind, options, perft_rng);
    } catch (const GameError& e) {
      out << "bad options: " << e.what() << "\n";
      return 2;
    }
    const json used_options = g->state_json().value("options", json::object());
    auto t0 = Clock::now();
    const uint64_t nodes = perft(*g, depth);
    const double perft_s = seconds_since(t0);
    auto [games, plies] = random_playouts(kind, options, args.seconds);
    const double nps = static_cast<double>(nodes) / perft_s;
    const double pps = static_cast<double>(games) / args.seconds;
    report.push_back(json{{"game", kind.name},
                          {"options", used_options},
                          {"perft_depth", depth},
                          {"perft_nodes", nodes},
                          {"perft_seconds", perft_s},
                          {"perft_nodes_per_second", nps},
                          {"playouts", games},
                          {"playout_plies", plies},
                          {"playouts_per_second", pps}});
    if (!args.json) {
      char line[256];
      std::snprintf(line, sizeof line,
                    "%-8s perft(%d) = %llu in %.2f s: %.1f M nodes/s | random playouts: %.0f /s "
                    "(%.0f plies/game)\n",
                    kind.name.c_str(), depth, static_cast<unsigned long long>(nodes), perft_s, nps / 1e6, pps,
                    games ? static_cast<double>(plies) / static_cast<double>(games) : 0.0);
      out << line;
      if (!options.empty()) out << "         options " << used_options.dump() << '\n';
    }
  }
  if (report.empty()) {
    out << "unknown game \"" << args.game << "\"\n";
    return 2;
  }
#ifdef TABULA_HAS_SERVER
  // The server's cost per move, unless only another game was asked for.
  if (args.ack_plies > 0 && (args.game.empty() || args.game == "facet") && options.empty()) {
    std::ostringstream text;
    if (int status = bench_acknowledgement(args.ack_plies, text, &report); status != 0) {
      out << text.str();
      return status;
    }
    if (!args.json) out << text.str();
  }
#endif
  if (args.json) out << report.dump(2) << '\n';
  return 0;
}

}  // namespace tabula
