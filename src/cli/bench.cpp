#include "cli/bench.h"

#include "ai/ai.h"
#include "core/session.h"

#include <algorithm>
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
// arrangement (the seeds are the bench's own, so runs compare), or, with `suggested`, the game's
// "suggested" arrangement when it has one (Truth: perft's recorded counts start there).
std::unique_ptr<Game> ready_game(const GameKind& kind, const json& options, Rng& rng, bool suggested = false) {
  auto g = kind.create(options);
  const bool has_suggested =
      suggested && std::find(kind.arrangements.begin(), kind.arrangements.end(), "suggested") != kind.arrangements.end();
  for (Player p = 0; g->phase() == Phase::setup && p < g->num_players(); ++p)
    g->setup(p, has_suggested ? g->arrangement(p, "suggested", 0) : g->arrangement(p, "random", rng.next()), nullptr);
  return g;
}

// Whether a turn of this game can be more than one move (a Truth turn is two actions): the first legal
// move of the start leaves the same player to move.
bool multi_move_turns(const Game& start) {
  if (start.phase() != Phase::play) return false;
  MoveList moves;
  start.legal_moves(moves);
  if (moves.empty()) return false;
  auto g = start.clone();
  const Player mover = g->to_move();
  g->apply(moves[0]);
  return g->phase() == Phase::play && g->to_move() == mover;
}

// Every complete turn of the player to move: move sequences until another player is to move or the game
// ends.
uint64_t complete_turns(Game& g, Player mover) {
  MoveList moves;
  g.legal_moves(moves);
  uint64_t n = 0;
  for (Move m : moves) {
    g.apply(m);
    n += (g.phase() != Phase::play || g.to_move() != mover) ? 1 : complete_turns(g, mover);
    g.undo();
  }
  return n;
}

// Positions at the start of a turn, from seeded random games (fresh setups each game): `count` of them,
// taken every few turns.
std::vector<std::unique_ptr<Game>> sample_turn_starts(const GameKind& kind, const json& options, int count) {
  Rng rng(777);
  std::vector<std::unique_ptr<Game>> out;
  MoveList moves;
  while (static_cast<int>(out.size()) < count) {
    auto g = ready_game(kind, options, rng);
    for (int i = 0; i < 2000 && g->phase() == Phase::play && static_cast<int>(out.size()) < count; ++i) {
      const Player before = g->to_move();
      g->legal_moves(moves);
      g->apply(moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))]);
      if (g->phase() == Phase::play && g->to_move() != before && rng.below(8) == 0) out.push_back(g->clone());
    }
  }
  return out;
}

// Complete turns generated per second: every turn of the start position, then of sampled positions.
json turn_rates(const GameKind& kind, const json& options, const Game& start, double budget_s) {
  auto g = start.clone();
  uint64_t turns = 0, rounds = 0;
  const uint64_t at_start = complete_turns(*g, g->to_move());
  auto t0 = Clock::now();
  while (rounds == 0 || seconds_since(t0) < budget_s / 2) {
    turns += complete_turns(*g, g->to_move());
    ++rounds;
  }
  const double start_rate = static_cast<double>(turns) / seconds_since(t0);
  auto positions = sample_turn_starts(kind, options, 200);
  uint64_t sampled = 0;
  t0 = Clock::now();
  for (auto& p : positions) sampled += complete_turns(*p, p->to_move());
  const double sampled_rate = static_cast<double>(sampled) / seconds_since(t0);
  return json{{"turns_at_start", at_start},
              {"turns_per_second_at_start", start_rate},
              {"sampled_positions", positions.size()},
              {"sampled_turns", sampled},
              {"sampled_turns_per_second", sampled_rate}};
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

// A game ready for its first move (seeded setups) and `plies` seeded random moves on, all drawn from `seed`.
std::unique_ptr<Game> seeded_position(const GameKind& kind, const json& options, uint64_t seed, int plies) {
  Rng rng(seed);
  std::unique_ptr<Game> g = ready_game(kind, options, rng);
  for (int i = 0; i < plies && g->phase() == Phase::play; ++i) {
    MoveList moves;
    g->legal_moves(moves);
    g->apply(moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))]);
  }
  return g;
}

// The search's fingerprint: the nodes a level-3 search to a fixed depth visits from fixed positions (the start
// and two seeded random continuations), as Stockfish's bench reports. A change meant to leave the search's
// decisions alone (a faster move generator, a refactoring) must leave this count as it was; its nodes a second
// measure the search's speed. The depth is the game's, chosen so each search takes about a second or less.
int fingerprint_depth(std::string_view game, int players) {
  if (game == "tigadi") return 7;
  if (game == "stratego") return 3;
  if (game == "facet") return 4;
  return players > 2 ? 2 : 4;  // Truth: whole turns of two actions
}

json search_fingerprint(const GameKind& kind, const json& options) {
  uint64_t nodes = 0;
  uint64_t moves_hash = 1469598103934665603ULL;  // FNV-1a over the chosen moves
  double seconds = 0;
  int depth = 0;
  for (int plies : {0, 8, 16}) {
    std::unique_ptr<Game> g = seeded_position(kind, options, 2024 + static_cast<uint64_t>(plies), plies);
    if (g->phase() != Phase::play) continue;
    ai::Limits limits = ai::default_limits(3);
    depth = fingerprint_depth(kind.name, g->num_players());
    limits.depth = depth;
    limits.nodes = 100'000'000;  // a guard: the depth ends the search
    limits.ms.reset();
    limits.seed = 7;
    const auto t0 = Clock::now();
    const ai::Choice c = ai::choose_move(*g, limits);
    seconds += seconds_since(t0);
    nodes += c.info["nodes"].get<uint64_t>();
    for (char ch : c.move) moves_hash = (moves_hash ^ static_cast<unsigned char>(ch)) * 1099511628211ULL;
  }
  char hex[32];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(moves_hash));
  return json{{"depth", depth}, {"nodes", nodes}, {"moves_hash", hex}, {"seconds", seconds},
              {"nodes_per_second", seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0}};
}

// How closely a time budget is kept on this machine: level 3 on default_limits' 350 ms (levels 3 and 4 play on
// node budgets by default, level 5 on 2 s) from three positions, the longest answer (reported, not asserted: a
// loaded machine answers later; budget_test.cpp tests the rule on a clock).
json time_budget_kept(const GameKind& kind, const json& options) {
  const ai::Limits limits = ai::default_limits(3);
  int longest = 0;
  for (int plies : {0, 10, 20}) {
    std::unique_ptr<Game> g = seeded_position(kind, options, 99 + static_cast<uint64_t>(plies), plies);
    if (g->phase() != Phase::play) continue;
    longest = std::max(longest, ai::choose_move(*g, limits).info["ms"].get<int>());
  }
  return json{{"budget_ms", limits.ms.value_or(0)}, {"longest_ms", longest}};
}

int default_perft_depth(std::string_view game) {
  return game == "tigadi" ? 6 : game == "stratego" ? 7 : game == "facet" ? 5 : game == "truth" ? 3 : 4;
}

}  // namespace

int bench_command(const BenchArgs& args, std::ostream& out) {
  json report = json::array();
  json given = json::object();
  if (!args.options.empty()) {
    given = json::parse(args.options, nullptr, false);
    if (given.is_discarded() || !given.is_object() || args.game.empty()) {
      out << "--options takes a JSON object and needs --game\n";
      return 2;
    }
  }
  // Every game, and every variant of a game played by several counts of players (Truth for two and four),
  // unless options were given.
  std::vector<std::pair<const GameKind*, json>> runs;
  for (const GameKind& kind : game_kinds()) {
    if (!args.game.empty() && args.game != kind.name) continue;
    if (!given.empty() || kind.variants.size() < 2) runs.emplace_back(&kind, given);
    else
      for (const GameKind::Variant& v : kind.variants) runs.emplace_back(&kind, v.options);
  }
  for (const auto& [kind_ptr, run_options] : runs) {
    const GameKind& kind = *kind_ptr;
    const json& options = run_options;  // this run's options (the given ones, or a variant's)
    const int depth = args.perft_depth > 0 ? args.perft_depth : default_perft_depth(kind.name);
    Rng perft_rng(1);
    std::unique_ptr<Game> g;
    try {
      g = ready_game(kind, options, perft_rng, /*suggested=*/true);
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
    json& entry = report.back();
    if (multi_move_turns(*g)) entry["turns"] = turn_rates(kind, options, *g, args.seconds);
    if (kind.name == "truth") entry["lookahead"] = bench_truth_lookahead(args.seconds, g->num_players());
    entry["search"] = search_fingerprint(kind, options);
    entry["time_budget"] = time_budget_kept(kind, options);
    if (!args.json) {
      char line[256];
      std::snprintf(line, sizeof line,
                    "%-8s perft(%d) = %llu in %.2f s: %.1f M nodes/s | random playouts: %.0f /s "
                    "(%.0f plies/game)\n",
                    kind.name.c_str(), depth, static_cast<unsigned long long>(nodes), perft_s, nps / 1e6, pps,
                    games ? static_cast<double>(plies) / static_cast<double>(games) : 0.0);
      out << line;
      if (!options.empty() || kind.variants.size() > 1) out << "         options " << used_options.dump() << '\n';
      const json& fp = entry["search"];
      std::snprintf(line, sizeof line,
                    "         search fingerprint: %llu nodes (level 3, depth %d, 3 positions), moves %s; %.0f k nodes/s | "
                    "level 3's %d ms: longest answer %d ms\n",
                    static_cast<unsigned long long>(fp["nodes"].get<uint64_t>()), fp["depth"].get<int>(),
                    fp["moves_hash"].get<std::string>().c_str(), fp["nodes_per_second"].get<double>() / 1e3,
                    entry["time_budget"]["budget_ms"].get<int>(), entry["time_budget"]["longest_ms"].get<int>());
      out << line;
      if (entry.contains("turns")) {
        const json& t = entry["turns"];
        std::snprintf(line, sizeof line,
                      "         complete turns: %.0f /s at the start (%llu turns), %.0f /s over %zu sampled "
                      "positions (%llu turns)\n",
                      t["turns_per_second_at_start"].get<double>(),
                      static_cast<unsigned long long>(t["turns_at_start"].get<uint64_t>()),
                      t["sampled_turns_per_second"].get<double>(), t["sampled_positions"].get<size_t>(),
                      static_cast<unsigned long long>(t["sampled_turns"].get<uint64_t>()));
        out << line;
      }
      if (entry.contains("lookahead")) {
        const json& l = entry["lookahead"];
        std::snprintf(line, sizeof line,
                      "         first actions listed: %.1f us with the look-ahead's witnesses, %.1f us playing each "
                      "out (legal_actions_exact), over %zu positions; a second action's list %.1f us\n",
                      l["legal_actions_us"].get<double>(), l["legal_actions_exact_us"].get<double>(),
                      l["positions"].get<size_t>(), l["second_action_us"].get<double>());
        out << line;
        std::snprintf(line, sizeof line, "         AI search (level 3) from the suggested arrangements: %.0f k nodes/s, depth %d\n",
                      l["search_nodes_per_second"].get<double>() / 1e3, l["search_depth"].get<int>());
        out << line;
      }
    }
  }
  if (report.empty()) {
    out << "unknown game \"" << args.game << "\"\n";
    return 2;
  }
#ifdef TABULA_HAS_SERVER
  // The server's cost per move, unless only another game was asked for.
  if (args.ack_plies > 0 && (args.game.empty() || args.game == "facet") && given.empty()) {
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
