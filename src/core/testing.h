// Helpers shared by the games' rule tests (gtest only; not part of any library).
#pragma once

#include "core/session.h"

#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace tabula::testing {

// Sanitizer builds run the long tests smaller: they check memory, not strength or coverage of positions.
// TABULA_SANITIZED comes from the build: the test sources themselves are compiled without the sanitizer
// (CMakeLists.txt), so __SANITIZE_ADDRESS__ alone would not say it.
#if defined(__SANITIZE_ADDRESS__) || defined(TABULA_SANITIZED)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// The legal moves as a set of strings.
inline std::set<std::string> legal_set(const Session& s) {
  auto v = s.legal();
  return {v.begin(), v.end()};
}

// Plays `move`, expecting it to be refused as illegal; returns the reason (and fails the test if accepted).
inline std::string illegal_reason(Session& s, const std::string& move) {
  try {
    s.play(move);
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::illegal);
    return e.what();
  }
  ADD_FAILURE() << move << " was accepted";
  return "";
}

// One game kind under one set of options, for the tests run over every game (conformance, records).
struct GameCase {
  std::string kind;
  std::string label;  // names the case in the test's name
  json options;
};
inline void PrintTo(const GameCase& c, std::ostream* os) { *os << c.kind << " " << c.options.dump(); }

// Every registered kind's variants (one per player count), labelled "<n>_players".
inline std::vector<GameCase> every_variant() {
  std::vector<GameCase> out;
  for (const GameKind& k : game_kinds())
    for (const GameKind::Variant& v : k.variants) out.push_back(GameCase{k.name, std::to_string(v.players) + "_players", v.options});
  return out;
}

}  // namespace tabula::testing
