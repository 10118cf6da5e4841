// Stratego's AI: the worlds it searches hold only what its seat knows, the move it picks depends on nothing
// else, it uses what battles and moves revealed, and it beats random play (a fixed-seed, node-budget match;
// the 200-game measurement with level 3's real time budget is in docs/strength-history.md).
#include "ai/ai.h"
#include "ai/match.h"
#include "core/session.h"
#include "games/stratego/stratego.h"

#include "core/testing.h"

#include <gtest/gtest.h>

#include <map>

namespace tabula::stratego {
namespace {

const Stratego& as_stratego(const Game& g) { return static_cast<const Stratego&>(g); }

json placement(Player p, const std::string& name, uint64_t seed = 0) { return Stratego().arrangement(p, name, seed); }

// A game some 60 random plies in (battles included), seeded.
Session played(uint64_t seed, int plies = 60) {
  Session s = Session::create("stratego", {});
  s.setup(0, placement(0, "random", seed));
  s.setup(1, placement(1, "random", seed + 1000));
  Rng rng(seed);
  for (int i = 0; i < plies && !s.over(); ++i) {
    const auto legal = s.legal();
    s.play(legal[rng.below(legal.size())]);
  }
  return s;
}

TEST(StrategoBelief, SampledWorldsKeepEverythingTheSeatKnowsAndDealTheRestLegally) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    Session s = played(seed, 120);
    ASSERT_FALSE(s.over());
    const Stratego& truth = as_stratego(s.game());
    const Player me = truth.to_move(), enemy = 1 - me;
    Rng rng(seed);
    int differs = 0;
    for (int w = 0; w < 200; ++w) {
      auto world = truth.sample_world(me, rng);
      const Stratego& g = as_stratego(*world);
      std::array<int, kKinds> kinds{};
      for (int id = 0; id < kMaxPieces; ++id) {
        const Piece &t = truth.piece(id), &p = g.piece(id);
        ASSERT_EQ(p.square, t.square);
        ASSERT_EQ(p.alive, t.alive);
        ASSERT_EQ(p.moved, t.moved);
        ASSERT_EQ(p.revealed, t.revealed);
        if (id / kArmySize == me || t.revealed || !t.alive) {
          ASSERT_EQ(p.kind, t.kind) << "own, revealed and captured pieces are known";
        } else if (t.moved) {
          ASSERT_TRUE(is_movable(p.kind)) << "a piece that moved is neither a Bomb nor the Flag";
        }
        if (id / kArmySize == enemy && id - enemy * kArmySize < g.pieces_of(enemy)) ++kinds[p.kind];
        differs += p.kind != t.kind;
      }
      ASSERT_EQ(kinds, kArmy) << "a world deals exactly the enemy's army";
      ASSERT_EQ(legal_move_strings(*world), legal_move_strings(truth)) << "the seat's own moves are the same";
    }
    EXPECT_GT(differs, 0) << "worlds vary";
  }
}

// Two true games that differ only in identities the seat has never seen: Blue's Flag and a Bomb beside it
// trade places, and the same moves are played (none touches them). Red's observation histories are equal,
// so the AI must choose the same move and report the same thinking, for the same seed.
TEST(StrategoBelief, TwoTrueStatesWithTheSameObservationHistoryGiveTheSameMove) {
  const json red = placement(0, "blitzkrieg");
  const json blue = placement(1, "random", 5);
  std::string flag, bomb;
  for (auto it = blue.begin(); it != blue.end(); ++it)
    if (*it == "F") flag = it.key();
  for (auto it = blue.begin(); it != blue.end() && bomb.empty(); ++it)
    if (*it == "B") bomb = it.key();
  ASSERT_FALSE(flag.empty());
  ASSERT_FALSE(bomb.empty());
  json swapped = blue;
  swapped[flag] = "B";
  swapped[bomb] = "F";

  Session x = Session::create("stratego", {}), y = Session::create("stratego", {});
  x.setup(0, red);
  x.setup(1, blue);
  y.setup(0, red);
  y.setup(1, swapped);
  Rng rng(9);
  int battles = 0;
  for (int ply = 0; ply < 80 && !x.over(); ++ply) {
    std::vector<std::string> allowed;
    for (const std::string& m : x.legal())
      if (m.find(flag) == std::string::npos && m.find(bomb) == std::string::npos) allowed.push_back(m);
    ASSERT_FALSE(allowed.empty());
    const std::string m = allowed[rng.below(allowed.size())];
    auto ex = x.play(m);
    auto ey = y.play(m);
    ASSERT_EQ(x.events_for(0, ex), y.events_for(0, ey)) << m;
    for (const Event& e : ex) battles += e.full.at("type") == "battle";
  }
  if (x.game().to_move() != 0) {
    const std::string m = x.legal().front();
    x.play(m);
    y.play(m);
  }
  ASSERT_FALSE(x.over());
  ASSERT_GT(battles, 0);
  ASSERT_EQ(x.observation(0), y.observation(0));
  ASSERT_EQ(x.events_for(0), y.events_for(0));
  ASSERT_NE(x.state(), y.state());

  for (int level : {2, 3}) {
    ai::Limits limits;
    limits.level = level;
    limits.nodes = 20'000;
    limits.seed = 77;
    ai::Choice a = ai::choose_move(x.game(), limits), b = ai::choose_move(y.game(), limits);
    EXPECT_EQ(a.move, b.move) << "level " << level;
    a.info.erase("ms");
    b.info.erase("ms");
    EXPECT_EQ(a.info, b.info) << "level " << level;
  }
}

// The AI uses what it was shown: a Blue piece revealed as a Captain beside a Red Marshal is taken; a Blue
// piece revealed as a Bomb is left alone by a Major and defused by a Miner.
TEST(StrategoAI, TakesARevealedWeakerPieceWithAKnownStrongerOne) {
  json board = {{"e4", "0M"}, {"e5", "1P"}, {"a1", "0F"}, {"b1", "0B"}, {"a2", "0B"},
                {"j10", "1F"}, {"i10", "1B"}, {"j9", "1B"}, {"a9", "1T"}, {"h1", "0T"}};
  Session s = Session::from_state("stratego", json{{"board", board}, {"revealed", {"e5"}}});
  ai::Limits limits;
  limits.level = 3;
  limits.nodes = 20'000;
  limits.seed = 1;
  EXPECT_EQ(ai::choose_move(s.game(), limits).move, "e4-e5");
}

TEST(StrategoAI, DoesNotAttackARevealedBombWithAMajorButDefusesItWithAMiner) {
  const json rest = {{"a1", "0F"}, {"b1", "0B"}, {"a2", "0B"}, {"j10", "1F"}, {"i10", "1B"}, {"j9", "1B"}, {"a9", "1T"}};
  ai::Limits limits;
  limits.level = 3;
  limits.nodes = 20'000;
  limits.seed = 1;
  json major = rest, miner = rest;
  major["e4"] = "0J";
  major["e5"] = "1B";
  miner["e4"] = "0N";
  miner["e5"] = "1B";
  Session a = Session::from_state("stratego", json{{"board", major}, {"revealed", {"e5"}}});
  Session b = Session::from_state("stratego", json{{"board", miner}, {"revealed", {"e5"}}});
  EXPECT_NE(ai::choose_move(a.game(), limits).move, "e4-e5");
  EXPECT_EQ(ai::choose_move(b.game(), limits).move, "e4-e5");
}

// Sanitizer builds play half the games (core/testing.h).
constexpr int kMatchGames = tabula::testing::kSanitized ? 2 : 4;

TEST(StrategoAI, LevelThreeBeatsRandomInAFixedSeedMatch) {
  ai::MatchConfig config;
  config.game = "stratego";
  config.games = kMatchGames;
  config.seed = 2026;
  config.max_plies = 2000;
  config.a = ai::default_limits(3);
  config.a.ms.reset();
  config.a.nodes = 4'000;
  config.b = ai::default_limits(1);
  const ai::MatchResult r = ai::play_match(config);
  EXPECT_EQ(r.a_wins, kMatchGames) << r.draws << " draws, " << r.b_wins << " losses";
}

}  // namespace
}  // namespace tabula::stratego
