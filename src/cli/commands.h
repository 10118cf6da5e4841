// The `tabula` subcommands, callable from main.cpp (which parses the arguments) and from tests.
#pragma once

#include "core/json.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace tabula {

// `tabula selfplay`: a match between two AI levels (src/ai/match.h).
struct SelfplayArgs {
  std::string game = "tigadi";
  json options = json::object();
  int level_a = 3, level_b = 1;
  int games = 200;
  int first_game = 0;  // play games first_game … first_game + games - 1 of the match (a part of a longer one)
  uint64_t seed = 1;
  std::optional<int> ms;          // per move, both sides; default: each level's own budget
  std::optional<uint64_t> nodes;  // per move, both sides; makes the whole match reproducible
  std::optional<uint64_t> a_nodes, b_nodes;  // per move, one side (replaces --ms/--nodes for it)
  std::string setup = "random";   // games with a setup phase: "random" (from the game's seed) or a named arrangement
  int max_plies = 1000;           // a game still on after this many plies is adjudicated a draw
  bool quiet = false;             // no line per game, only the result
};
// Prints a line per game on stderr (unless quiet) and the result on stdout; 0, or 1 on a bad argument.
int selfplay_command(const SelfplayArgs& args);

// `tabula arena`: matches between AI configurations on several threads, as a Markdown table (cli/arena.cpp).
struct ArenaArgs {
  std::string game = "tigadi";
  json options = json::object();
  std::vector<std::string> engines;       // NAME=SPEC, in order (a ladder climbs them)
  std::string schedule = "round-robin";   // round-robin, gauntlet (the first against each other) or ladder
  int games = 100;                        // a pairing's games (pairs of the same start, colours swapped)
  uint64_t seed = 1;
  int max_plies = 1000;
  std::string setup = "ai";               // games with a setup phase: "ai", "random" or a named arrangement
  int opening_plies = 0;                  // random moves (the pair's) before the contestants take over
  int threads = 2;
  std::string config;                     // a JSON file of sections (docs/strength.md's), instead of the above
  std::string out;                        // where the Markdown goes (default: standard output)
  double scale = 1.0;                     // with config: every section's games times this
  std::string commit, machine, invocation;  // with config: said in the generated document
  bool quiet = false;
  std::string records;                    // a directory: each game's text record is written there
};
// Prints a line per game on stderr (unless quiet) and the tables; 0, or 1 on a bad argument or failure.
int arena_command(const ArenaArgs& args);

// `tabula record --text` (a record's JSON in, its text out) or `--json` (a text record in, its JSON out):
// 0, or 1 with the reason on `err` when the input is refused.
int record_command(bool to_text, std::istream& in, std::ostream& out, std::ostream& err);

// `tabula tables`: solves Tigadi's endgame tables (3 to max_gotis gotis a side) into `out`/tigadi.tbl (default
// directory: default_tables_dir()). 0, or 1 when it could not be written, 2 on a bad argument.
struct TablesArgs {
  std::string game = "tigadi";
  std::string out;  // empty: default_tables_dir()
  int max_gotis = 5;  // half a minute of one core, 67 MB (docs/ai.md: Endgame tables)
};
int tables_command(const TablesArgs& args);
// Where the AI looks for endgame tables: $TABULA_TABLES when set, else `tables` beside the executable.
std::string default_tables_dir();
// Loads the tables found there for the AI (nothing when there are none; a warning on stderr for a bad file).
void load_endgame_tables();

}  // namespace tabula
