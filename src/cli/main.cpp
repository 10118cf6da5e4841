// tabula: serve, engine, perft, bench, selfplay, arena, record, tables.
#include "cli/bench.h"
#include "cli/commands.h"
#include "cli/engine_protocol.h"
#include "core/session.h"

#ifdef TABULA_HAS_SERVER
#include "server/server.h"
#endif

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>

namespace {

int perft_command(const std::string& game, int depth, bool divide) {
  using namespace tabula;
  try {
    Session s = Session::create(game, json::object());
    auto g = s.game().clone();
    const auto t0 = std::chrono::steady_clock::now();
    uint64_t total = 0;
    if (divide && depth > 0) {
      for (const std::string& text : legal_move_strings(*g)) {
        Move m = *find_legal_move(*g, text);
        g->apply(m);
        uint64_t n = perft(*g, depth - 1);
        g->undo();
        std::printf("%s: %llu\n", text.c_str(), static_cast<unsigned long long>(n));
        total += n;
      }
    } else {
      total = perft(*g, depth);
    }
    double s_elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("perft(%d) = %llu  (%.3f s, %.1f M nodes/s)\n", depth, static_cast<unsigned long long>(total),
                s_elapsed, static_cast<double>(total) / s_elapsed / 1e6);
    return 0;
  } catch (const GameError& e) {
    std::fprintf(stderr, "tabula perft: %s\n", e.what());
    return 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Tabula: The Game of Truth, Tigadi, FACET and Stratego, with an AI that never cheats"};
  app.require_subcommand(1);

#ifdef TABULA_HAS_SERVER
  tabula::server::Options serve;
  serve.web_root = TABULA_WEB_ROOT;
  auto* serve_cmd = app.add_subcommand("serve", "Serve the browser UI and the HTTP/WebSocket API");
  serve_cmd->add_option("--host", serve.host, "Address to listen on")->capture_default_str();
  serve_cmd->add_option("--port", serve.port, "Port to listen on")->capture_default_str();
  serve_cmd->add_option("--db", serve.db_path, "SQLite database file (default: under the user's data directory)");
  serve_cmd->add_option("--web-root", serve.web_root, "Folder of the browser UI")->capture_default_str();
  serve_cmd->add_option("--ai-threads", serve.ai_threads, "Worker threads for AI seats")->capture_default_str();
  serve_cmd->add_option("--ai-ms", serve.ai_ms, "AI thinking time per move in ms (0: each level's own)");
  serve_cmd->add_option("--ai-nodes", serve.ai_nodes, "AI node budget per move, over --ai-ms (0: each level's own)");
  serve_cmd->add_option("--test-seed", serve.test_seed,
                        "For tests only: derive every AI and random-setup seed from this one, so games replay "
                        "(0: secret seeds; a client who knows it can predict the AI)");
  serve_cmd->add_option("--max-body", serve.max_body, "Largest request body in bytes")->capture_default_str();
  auto& lim = serve.limits;
  serve_cmd->add_option("--max-connections", lim.max_connections, "Open connections in total (kept below the descriptor limit)")
      ->capture_default_str();
  serve_cmd->add_option("--max-connections-per-ip", lim.max_connections_per_ip, "Open connections per client address")
      ->capture_default_str();
  serve_cmd->add_option("--request-timeout", lim.request_timeout_s, "Seconds for a whole request to arrive (and for an idle connection)")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  serve_cmd->add_option("--max-ws-per-ip", lim.max_ws_per_ip, "WebSockets per client address")->capture_default_str();
  serve_cmd->add_option("--max-spectators-per-game", lim.max_spectators_per_game, "Spectators' WebSockets on one game")
      ->capture_default_str();
  serve_cmd->add_option("--rate", lim.rate, "Requests and WebSocket messages per second per address (0: no limit)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
  serve_cmd->add_option("--burst", lim.burst, "How many requests an address may send at once")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 1e9));
  serve_cmd->add_option("--games-per-hour", lim.games_per_hour, "Games created per address per hour (0: no limit)")
      ->capture_default_str();
  serve_cmd->add_option("--max-header", lim.max_header, "Largest request header in bytes")
      ->capture_default_str()
      ->check(CLI::Range(1024, 1024 * 1024));
#endif

  app.add_subcommand("engine", "Speak the JSON-lines engine protocol on stdin/stdout");

  std::string perft_game = "tigadi";
  int perft_depth = 5;
  bool perft_divide = false;
  auto* perft_cmd = app.add_subcommand("perft", "Count legal move sequences from the start");
  perft_cmd->add_option("--game", perft_game)->capture_default_str();
  perft_cmd->add_option("--depth", perft_depth)->capture_default_str()->check(CLI::Range(0, 12));
  perft_cmd->add_flag("--divide", perft_divide, "Count per first move");

  tabula::BenchArgs bench;
  auto* bench_cmd = app.add_subcommand("bench", "Measure rules speed: perft nodes/s, random playouts/s");
  bench_cmd->add_option("--game", bench.game, "One game (default: all)");
  bench_cmd->add_option("--options", bench.options, "Game options as JSON (with --game)");
  bench_cmd->add_option("--depth", bench.perft_depth, "Perft depth (default: per game)");
  bench_cmd->add_option("--seconds", bench.seconds, "Seconds of random playouts per game")->capture_default_str();
  bench_cmd->add_flag("--json", bench.json, "Print JSON");
  bench_cmd->add_option("--ack-plies", bench.ack_plies, "Measure a move's acknowledgement at ply 0 and at this ply (0: skip)")
      ->capture_default_str();

  tabula::SelfplayArgs selfplay;
  std::string selfplay_options = "{}";
  int selfplay_ms = 0;
  uint64_t selfplay_nodes = 0, selfplay_a_nodes = 0, selfplay_b_nodes = 0;
  auto* selfplay_cmd = app.add_subcommand("selfplay", "Play a match between two AI levels");
  selfplay_cmd->add_option("--game", selfplay.game)->capture_default_str();
  selfplay_cmd->add_option("--options", selfplay_options, "Game options as JSON")->capture_default_str();
  selfplay_cmd->add_option("--a", selfplay.level_a, "Level of player A")->capture_default_str();
  selfplay_cmd->add_option("--b", selfplay.level_b, "Level of player B")->capture_default_str();
  selfplay_cmd->add_option("--games", selfplay.games)->capture_default_str();
  selfplay_cmd->add_option("--first-game", selfplay.first_game,
                           "Play the match's games from this one on (game g is the same in any part: seed + g, seats by g)")
      ->capture_default_str();
  selfplay_cmd->add_option("--seed", selfplay.seed)->capture_default_str();
  selfplay_cmd->add_option("--ms", selfplay_ms, "Thinking time per move (default: each level's own)");
  selfplay_cmd->add_option("--nodes", selfplay_nodes, "Node budget per move (deterministic)");
  selfplay_cmd->add_option("--a-nodes", selfplay_a_nodes, "Node budget per move of player A only");
  selfplay_cmd->add_option("--b-nodes", selfplay_b_nodes, "Node budget per move of player B only");
  selfplay_cmd->add_option("--setup", selfplay.setup,
                           "Games with a setup phase: random (from each game's seed) or a named arrangement, e.g. suggested")
      ->capture_default_str();
  selfplay_cmd->add_option("--max-plies", selfplay.max_plies, "Adjudicate a draw after")->capture_default_str();
  selfplay_cmd->add_flag("--quiet", selfplay.quiet);

  tabula::ArenaArgs arena;
  std::string arena_options = "{}";
  auto* arena_cmd = app.add_subcommand("arena", "Play AI configurations against each other on every core (docs/strength.md)");
  arena_cmd->add_option("--game", arena.game)->capture_default_str();
  arena_cmd->add_option("--options", arena_options, "Game options as JSON")->capture_default_str();
  arena_cmd->add_option("--engine", arena.engines,
                        "NAME=level=N[,nodes=N|ms=N][,depth=N][,cmd=PROGRAM]; repeat for each contestant");
  arena_cmd->add_option("--schedule", arena.schedule, "round-robin, gauntlet or ladder")->capture_default_str();
  arena_cmd->add_option("--games", arena.games, "Games a pairing (pairs of one start, colours swapped)")->capture_default_str();
  arena_cmd->add_option("--seed", arena.seed,
                        "Game g's start and move seeds come from seed + g (a pair's from its even g): runs whose seeds "
                        "differ by an even number under --games share starts")
      ->capture_default_str();
  arena_cmd->add_option("--max-plies", arena.max_plies, "Adjudicate a draw after")->capture_default_str();
  arena_cmd->add_option("--setup", arena.setup, "Setups: ai, random or a named arrangement")->capture_default_str();
  arena_cmd->add_option("--opening-plies", arena.opening_plies, "Random moves (the same for both games of a pair) before the contestants play")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  arena_cmd->add_option("--threads", arena.threads, "Games played at once")->capture_default_str()->check(CLI::Range(1, 64));
  arena_cmd->add_option("--config", arena.config, "A JSON file of sections (scripts/strength.json) instead of one match");
  arena_cmd->add_option("--out", arena.out, "Write the Markdown here");
  arena_cmd->add_option("--scale", arena.scale, "With --config: every section's games times this")->capture_default_str();
  arena_cmd->add_option("--commit", arena.commit, "With --config: the commit, said in the document");
  arena_cmd->add_option("--machine", arena.machine, "With --config: the machine, said in the document");
  arena_cmd->add_option("--invocation", arena.invocation, "With --config: the command that made it");
  arena_cmd->add_flag("--quiet", arena.quiet);
  arena_cmd->add_option("--records", arena.records, "A directory: each game's text record is written there");

  auto* record_cmd = app.add_subcommand("record", "Convert a game record: JSON to text (--text) or text to JSON (--json), stdin to stdout");
  bool record_text = false, record_json = false;
  auto* record_text_flag = record_cmd->add_flag("--text", record_text, "Read a record's JSON, print its text");
  record_cmd->add_flag("--json", record_json, "Read a text record, print its JSON")->excludes(record_text_flag);

  tabula::TablesArgs tables;
  auto* tables_cmd = app.add_subcommand("tables", "Build endgame tables for the AI (Tigadi)");
  tables_cmd->add_option("--game", tables.game)->capture_default_str();
  tables_cmd->add_option("--out", tables.out, "Directory (default: $TABULA_TABLES, else tables/ beside this binary)");
  tables_cmd->add_option("--max-gotis", tables.max_gotis, "Most gotis a side")->capture_default_str()->check(CLI::Range(3, 7));

  CLI11_PARSE(app, argc, argv);

  if (tables_cmd->parsed()) return tabula::tables_command(tables);
  // The AI plays with endgame tables wherever it may play.
  if (!perft_cmd->parsed() && !record_cmd->parsed()) tabula::load_endgame_tables();

#ifdef TABULA_HAS_SERVER
  if (serve_cmd->parsed()) return tabula::server::run(serve);
#endif
  if (app.got_subcommand("engine")) {
    std::ios::sync_with_stdio(false);
    return tabula::run_engine(std::cin, std::cout);
  }
  if (perft_cmd->parsed()) return perft_command(perft_game, perft_depth, perft_divide);
  if (bench_cmd->parsed()) return tabula::bench_command(bench, std::cout);
  if (record_cmd->parsed()) {
    if (record_text == record_json) {
      std::fprintf(stderr, "tabula record: give --text or --json\n");
      return 2;
    }
    return tabula::record_command(record_text, std::cin, std::cout, std::cerr);
  }
  if (arena_cmd->parsed()) {
    if (arena.config.empty() && arena.engines.size() < 2) {
      std::fprintf(stderr, "arena: give at least two --engine NAME=SPEC, or --config FILE\n");
      return 1;
    }
    arena.options = tabula::json::parse(arena_options, nullptr, false);
    if (arena.options.is_discarded() || !arena.options.is_object()) {
      std::fprintf(stderr, "arena: --options must be a JSON object\n");
      return 1;
    }
    if (arena.invocation.empty()) arena.invocation = "tabula arena --config " + arena.config;
    return tabula::arena_command(arena);
  }
  if (selfplay_cmd->parsed()) {
    selfplay.options = tabula::json::parse(selfplay_options, nullptr, false);
    if (selfplay.options.is_discarded()) {
      std::fprintf(stderr, "tabula selfplay: --options is not JSON\n");
      return 2;
    }
    if (selfplay_ms > 0) selfplay.ms = selfplay_ms;
    if (selfplay_nodes > 0) selfplay.nodes = selfplay_nodes;
    if (selfplay_a_nodes > 0) selfplay.a_nodes = selfplay_a_nodes;
    if (selfplay_b_nodes > 0) selfplay.b_nodes = selfplay_b_nodes;
    return tabula::selfplay_command(selfplay);
  }
  return 0;
}
