// `tabula bench`: rules speed per game (perft nodes per second, random playouts per second).
#pragma once

#include <iosfwd>
#include <string>

namespace tabula {

struct BenchArgs {
  std::string game;     // empty: every game
  std::string options;  // the game's options as JSON (with `game` only); empty: its defaults
  int perft_depth = 0;  // 0: the game's default
  double seconds = 2.0; // time spent on random playouts per game
  bool json = false;
};

int bench_command(const BenchArgs& args, std::ostream& out);

}  // namespace tabula
