// The AI playing FACET: it sees a regicide, guards its own Monarch, and beats random play in every mode with
// a fixed seed and a node budget (the 200-game matches at level 3's own time budget are in docs/strength-history.md).
// The fog AI's worlds are tested in fog_test.cpp.
#include "ai/ai.h"
#include "ai/match.h"
#include "core/session.h"
#include "core/testing.h"
#include "games/facet/facet.h"

#include <gtest/gtest.h>

namespace tabula::facet {
namespace {

// Sanitizer builds play half the games (core/testing.h).
constexpr int kGames = tabula::testing::kSanitized ? 2 : 4;

ai::Limits budget(int nodes, uint64_t seed = 1) {
  ai::Limits l;
  l.level = 3;
  l.nodes = nodes;
  l.seed = seed;
  return l;
}

TEST(FacetAI, TakesTheEnemyMonarchWhenItCan) {
  // White's Tower stone on a1 has a clear file to Black's Monarch on a7; a capture of an agent is on offer too.
  Session s = Session::from_state("facet", json{{"board", {{"a1", "0A"}, {"e1", "0M"}, {"c3", "0A"}, {"a7", "1M"},
                                                            {"d4", "1A"}, {"h8", "1A"}}},
                                                {"terrain", {{"a1", "T"}, {"c3", "F"}}}});
  EXPECT_EQ(ai::choose_move(s.game(), budget(2000)).move, "a1-a7");
}

TEST(FacetAI, MovesItsMonarchOutOfAnAttack) {
  // Black's Tower stone on e7 looks down an open file at White's Monarch on e1: there is no check in FACET,
  // so nothing forces White to react, but a Monarch left there is lost.
  Session s = Session::from_state("facet", json{{"board", {{"e1", "0M"}, {"a2", "0A"}, {"i2", "0A"}, {"e7", "1A"},
                                                            {"e9", "1M"}, {"a8", "1A"}}},
                                                {"terrain", {{"e7", "T"}}}});
  const std::string move = ai::choose_move(s.game(), budget(5000)).move;
  s.play(move);
  for (const std::string& reply : s.legal()) {
    Session after = s.clone();
    after.play(reply);
    EXPECT_FALSE(after.over() && after.game().result()->reason == "regicide") << move << " then " << reply;
  }
}

// Level 3 with a node budget against random play, a few games per mode and layout: every game won.
TEST(FacetAI, LevelThreeBeatsRandomInAFixedSeedMatchInEveryMode) {
  const json modes[] = {json::array(), json{"decay"}, json{"momentum"}, json{"fog"}, json{"decay", "fog"}};
  for (const json& m : modes) {
    ai::MatchConfig config;
    config.game = "facet";
    config.options = {{"modes", m}, {"layout", "random"}, {"seed", 7}};
    config.games = kGames;
    config.seed = 2026;
    config.max_plies = 400;
    config.a = ai::default_limits(3);
    config.a.ms.reset();
    config.a.nodes = 20'000;  // under fog: 2,500 a world over 8 worlds
    config.b = ai::default_limits(1);
    const ai::MatchResult r = ai::play_match(config);
    EXPECT_EQ(r.a_wins, kGames) << m.dump() << ": " << r.draws << " draws, " << r.b_wins << " losses";
  }
}

}  // namespace
}  // namespace tabula::facet
