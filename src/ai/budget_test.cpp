// Budgets hold, in every game: with a time budget the AI answers within 10% of it (on a clock the test
// drives, so the machine's speed and load do not enter); with a node budget the same seed gives the same
// choice, down to the nodes searched.
#include "ai/ai.h"
#include "core/session.h"
#include "core/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace tabula::ai {
namespace {

// Every game's variants, and FACET under fog (the one mode whose search runs on sampled worlds).
std::vector<testing::GameCase> budget_cases() {
  std::vector<testing::GameCase> cases = testing::every_variant();
  cases.push_back({"facet", "fog", json{{"modes", json::array({"fog"})}}});
  return cases;
}

// The game after its AI setups and `plies` random legal moves, all drawn from `seed`.
Session position(const testing::GameCase& c, uint64_t seed, int plies) {
  Session s = Session::create(c.kind, c.options);
  Rng rng(seed);
  if (s.game().phase() == Phase::setup)
    for (Player p = 0; p < s.num_players(); ++p) s.setup(p, s.game().ai_arrangement(p, rng.next()));
  for (int i = 0; i < plies && !s.over(); ++i) {
    const std::vector<std::string> legal = s.legal();
    s.play(legal[rng.below(legal.size())]);
  }
  return s;
}

// A clock that moves only when it is read, by `step` each time: the search reads it once every so many
// nodes, so a step stands for the time those nodes take.
struct SteppingClock {
  std::shared_ptr<std::chrono::steady_clock::time_point> now =
      std::make_shared<std::chrono::steady_clock::time_point>();
  std::chrono::microseconds step;
  Clock clock() const {
    return [now = now, step = step] { return *now += step; };
  }
};

class Budgets : public ::testing::TestWithParam<testing::GameCase> {};

TEST_P(Budgets, ATimeBudgetIsKeptWithinTenPercent) {
  const testing::GameCase& c = GetParam();
  // Four armies search slowly (a thousand nodes a step is many real milliseconds), and sanitizers slow every
  // game: there one position, one level and one budget.
  const bool small = testing::kSanitized || Session::create(c.kind, c.options).num_players() > 2;
  const std::vector<uint64_t> seeds = small ? std::vector<uint64_t>{1} : std::vector<uint64_t>{1, 2};
  const std::vector<int> levels = small ? std::vector<int>{5} : std::vector<int>{3, 5};
  const std::vector<int> budgets = small ? std::vector<int>{120} : std::vector<int>{120, 300};
  for (uint64_t seed : seeds) {
    Session s = position(c, seed, 6);
    if (s.over()) continue;
    for (int level : levels) {
      for (int ms : budgets) {
        // A read every 1,024 nodes (and a few more around each search), a millisecond apart: a step stands for
        // those nodes' time on a slow machine.
        SteppingClock fake{.step = std::chrono::microseconds(1000)};
        Limits limits = default_limits(level);
        limits.ms = ms;
        limits.seed = seed;
        limits.clock = fake.clock();
        const Choice choice = choose_move(s.game(), limits);
        const int took = choice.info["ms"].get<int>();
        EXPECT_LE(took, ms * 11 / 10) << c.kind << " " << c.options << " seed " << seed << " level " << level << " budget "
                                      << ms << " ms: " << choice.info;
      }
    }
  }
}

TEST_P(Budgets, ASingleSearchUsesItsWholeTimeBudget) {
  // One world (nothing hidden): the search deepens until the deadline rather than stopping at half of it, unless
  // it has finished (a forced result proven, or nothing left to search).
  const testing::GameCase& c = GetParam();
  Session s = position(c, 3, 6);
  if (s.over() || s.game().hidden_information()) GTEST_SKIP() << "searched on sampled worlds";
  SteppingClock fake{.step = std::chrono::microseconds(1000)};
  Limits limits = default_limits(4);
  limits.ms = 200;
  limits.clock = fake.clock();
  const Choice choice = choose_move(s.game(), limits);
  const int score = choice.info["score"].get<int>();
  if (is_win_score(score) || is_loss_score(score)) GTEST_SKIP() << "a proven result ends the search early";
  EXPECT_GE(choice.info["ms"].get<int>(), 180) << c.kind << ": " << choice.info;
}

TEST_P(Budgets, ANodeBudgetGivesTheSameChoiceForTheSameSeed) {
  const testing::GameCase& c = GetParam();
  for (uint64_t seed : {11, 12, 13}) {
    Session s = position(c, seed, static_cast<int>(seed % 3) * 5);
    if (s.over()) continue;
    for (int level : {2, 3, 5}) {
      Limits limits = default_limits(level);
      limits.nodes = 4000;
      limits.ms.reset();
      limits.seed = seed * 7;
      const Choice first = choose_move(s.game(), limits);
      const Choice again = choose_move(s.game(), limits);
      json a = first.info, b = again.info;
      a.erase("ms");
      b.erase("ms");
      EXPECT_EQ(first.move, again.move) << c.kind << " seed " << seed << " level " << level;
      EXPECT_EQ(a, b) << c.kind << " seed " << seed << " level " << level;
      EXPECT_LE(a["nodes"].get<uint64_t>(), 4000u + 64) << a;  // the budget, give or take the last node's moves
    }
  }
}

TEST_P(Budgets, LevelsTwoToFourSearchTheirGamesOwnNodeBudgetWhenNoneIsGiven) {
  // The levels' default budgets are the game's (GameKind::ai_level2_nodes, ai_level3_nodes, ai_level4_nodes:
  // docs/strength.md; level 2's is 2,000 nodes where the game sets none): a request that names no budget gets
  // them, so the same seed gives the same choice on any machine, and each level searches more than the one below;
  // level 5 keeps its 2 s.
  const testing::GameCase& c = GetParam();
  const GameKind& kind = game_kind(c.kind);
  const uint64_t two = kind.ai_level2_nodes ? kind.ai_level2_nodes : default_limits(2).nodes.value_or(0);
  ASSERT_GT(kind.ai_level3_nodes, two) << c.kind;
  ASSERT_GT(kind.ai_level4_nodes, kind.ai_level3_nodes) << c.kind;
  const Limits five = level_limits(c.kind, 5);
  EXPECT_EQ(five.ms, 2'000);
  EXPECT_FALSE(five.nodes);
  Session s = position(c, 21, 6);
  if (s.over()) GTEST_SKIP() << "over";
  // Under sanitizers a level-4 search is slow in the larger games: levels 2 and 3 there.
  const std::vector<int> levels = testing::kSanitized ? std::vector<int>{2, 3} : std::vector<int>{2, 3, 4};
  for (int level : levels) {
    const uint64_t budget = level == 2 ? two : level == 3 ? kind.ai_level3_nodes : kind.ai_level4_nodes;
    EXPECT_EQ(level_limits(c.kind, level).nodes, budget);
    EXPECT_FALSE(level_limits(c.kind, level).ms);
    Limits limits;  // the level alone
    limits.level = level;
    limits.seed = 9;
    json a = choose_move(s.game(), limits).info, b = choose_move(s.game(), limits).info;
    a.erase("ms");
    b.erase("ms");
    EXPECT_EQ(a, b) << c.kind << " level " << level;
    // The budget, give or take the last node's moves; most of it used unless the search finished early.
    EXPECT_LE(a["nodes"].get<uint64_t>(), budget + 64) << c.kind << " level " << level << ": " << a;
    // The lobby says what the level searches: "20,000 positions a move".
    std::string digits = std::to_string(budget), grouped;
    for (size_t i = 0; i < digits.size(); ++i) grouped += (i && (digits.size() - i) % 3 == 0 ? "," : "") + digits.substr(i, 1);
    EXPECT_NE(level_info(c.kind, level).description.find(grouped + " positions a move"), std::string::npos)
        << level_info(c.kind, level).description;
  }
  EXPECT_NE(level_info(c.kind, 5).description.find("about 2 s"), std::string::npos) << level_info(c.kind, 5).description;
}

// Level 5 widens on a clock as on nodes (ai.cpp, kMaxWidenedWorlds): in Stratego its budget, on a clock that
// stands for a slow machine, buys more worlds than it plans (one per 80 ms, 8 to 24), within the budget.
TEST(Widening, LevelFiveOnAClockSearchesMoreWorldsThanItPlans) {
  Session s = position(testing::GameCase{"stratego", "", json::object()}, 5, 20);
  ASSERT_FALSE(s.over());
  ASSERT_TRUE(s.game().hidden_information());
  // Under sanitizers a smaller budget: 600 ms plans 8 worlds.
  const int ms = testing::kSanitized ? 600 : 2000;
  const int planned = std::clamp(ms / 80, 8, 24);
  SteppingClock fake{.step = std::chrono::microseconds(1000)};
  Limits limits = default_limits(5);
  limits.ms = ms;
  limits.seed = 5;
  limits.clock = fake.clock();
  const Choice choice = choose_move(s.game(), limits);
  EXPECT_GT(choice.info["worlds"].get<int>(), planned) << choice.info;
  EXPECT_LE(choice.info["ms"].get<int>(), ms * 11 / 10) << choice.info;
}

TEST(Memory, KeepsTheTableFromOneMoveToTheNext) {
  // The same Tigadi position asked twice on a time budget (a driven clock): the second search starts with the
  // first one's table, so the same time takes it deeper. Without the memory, it reaches the same depth again.
  Session s = position(testing::GameCase{"tigadi", "", json::object()}, 4, 6);
  Memory memory;
  auto ask = [&](Memory* m) {
    SteppingClock fake{.step = std::chrono::microseconds(1000)};
    Limits limits = default_limits(3);
    limits.ms = 100;
    limits.clock = fake.clock();
    return choose_move(s.game(), limits, nullptr, m).info["depth"].get<int>();
  };
  const int first = ask(&memory);
  // One more iteration costs several times all before it, so the time saved shows after a few asks.
  int later = first;
  for (int i = 0; i < 4 && later == first; ++i) later = ask(&memory);
  EXPECT_GT(later, first);
  EXPECT_EQ(ask(nullptr), first);
  memory.forget();
  EXPECT_EQ(ask(&memory), first);
}

TEST(Memory, IsNotUsedOnANodeBudgetNorWhereSomethingIsHidden) {
  // A node budget's choice is the request's alone (engine-protocol.md), and a table learnt in one sampled world
  // does not hold in another.
  for (const testing::GameCase& c : {testing::GameCase{"tigadi", "", json::object()},
                                     testing::GameCase{"stratego", "", json::object()}}) {
    Session s = position(c, 5, 6);
    Memory memory;
    Limits limits = default_limits(3);
    limits.nodes = 5000;
    limits.ms.reset();
    const json alone = choose_move(s.game(), limits).info;
    for (int i = 0; i < 2; ++i) {
      json with_memory = choose_move(s.game(), limits, nullptr, &memory).info;
      with_memory.erase("ms");
      json expected = alone;
      expected.erase("ms");
      EXPECT_EQ(with_memory, expected) << c.kind << " request " << i;
    }
  }
  Session hidden = position(testing::GameCase{"stratego", "", json::object()}, 6, 4);
  Memory memory;
  auto ask = [&](Memory* m) {
    SteppingClock fake{.step = std::chrono::microseconds(1000)};
    Limits limits = default_limits(3);
    limits.ms = 100;
    limits.seed = 3;
    limits.clock = fake.clock();
    json info = choose_move(hidden.game(), limits, nullptr, m).info;
    return info;
  };
  const json first = ask(&memory);
  EXPECT_EQ(ask(&memory), first);  // as if asked afresh
}

INSTANTIATE_TEST_SUITE_P(EveryGame, Budgets, ::testing::ValuesIn(budget_cases()),
                         [](const ::testing::TestParamInfo<testing::GameCase>& param_info) {
                           return param_info.param.kind + "_" + param_info.param.label;
                         });

}  // namespace
}  // namespace tabula::ai
