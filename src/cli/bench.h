// `tabula bench`: rules speed per game (perft nodes per second, random playouts per second), the search's
// fingerprint (nodes to a fixed depth from fixed positions) and speed, and how closely a time budget is kept.
#pragma once

#include "core/json.h"

#include <iosfwd>
#include <string>

namespace tabula {

struct BenchArgs {
  std::string game;     // empty: every game
  std::string options;  // the game's options as JSON (with `game` only); empty: its defaults
  int perft_depth = 0;  // 0: the game's default
  double seconds = 2.0; // time spent on random playouts per game
  bool json = false;
  int ack_plies = 20000; // the server part: a move's acknowledgement at ply 0 and at this ply (0: skip)
};

int bench_command(const BenchArgs& args, std::ostream& out);

// Truth's first-action look-ahead (bench_truth.cpp): rules::legal_actions against legal_actions_exact on
// positions from seeded random games of `players`, microseconds a call; a second action's list for
// comparison; and the AI's search speed from the suggested arrangements (nodes a second at level 3).
json bench_truth_lookahead(double seconds, int players);

// What acknowledging a move costs at ply 0 and at ply `plies` of a long game, through the real service and
// store (bench_server.cpp; only in a build with the server). Appends to `report` when given.
int bench_acknowledgement(int plies, std::ostream& out, json* report);

}  // namespace tabula
