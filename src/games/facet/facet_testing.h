// Helpers shared by FACET's rule tests (gtest only; not part of any library).
#pragma once

#include "core/json.h"

namespace tabula::facet::testing {

// A hand-made position as a state: stones by square, terrain by square (every other square a Field), the side
// to move and the options. Both sides need a Monarch: e1 and e9 are added when the board has none of that side.
inline json hand_made_state(json board, json terrain, int to_move, json options) {
  bool m0 = false, m1 = false;
  for (auto it = board.begin(); it != board.end(); ++it) {
    m0 = m0 || *it == "0M";
    m1 = m1 || *it == "1M";
  }
  if (!m0) board["e1"] = "0M";
  if (!m1) board["e9"] = "1M";
  if (terrain.is_null()) terrain = json::object();
  return json{{"board", board}, {"terrain", terrain}, {"to_move", to_move}, {"options", options}};
}

}  // namespace tabula::facet::testing
