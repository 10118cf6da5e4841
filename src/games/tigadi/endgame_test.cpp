// Tigadi's endgame tables (endgame.h): the symmetries, hand-solved positions, every value against the rules
// engine one move deep, the file, Tigadi::solved() and the AI with tables. The tables are built here, 3 v 3
// only (a fraction of a second).
#include "ai/ai.h"
#include "core/rng.h"
#include "games/tigadi/endgame.h"
#include "games/tigadi/tigadi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <set>
#include <sstream>

namespace tabula::tigadi {
namespace {

const std::shared_ptr<const EndgameTables>& three_v_three() {
  static const auto t = std::make_shared<const EndgameTables>(EndgameTables::build(3));
  return t;
}

// Installs the 3 v 3 tables for the AI for the length of a test.
struct WithTables {
  WithTables() { set_endgame_tables(three_v_three()); }
  ~WithTables() { set_endgame_tables(nullptr); }
};

Mask points(std::initializer_list<const char*> names) {
  Mask m = 0;
  for (const char* n : names) m |= bit(parse_point(n));
  return m;
}

Position moving(Mask bone, Mask seed, int to_move = 0, int quiet = 0) {
  Position p;
  p.board[0] = bone;
  p.board[1] = seed;
  p.in_hand[0] = p.in_hand[1] = 0;
  p.to_move = static_cast<uint8_t>(to_move);
  p.quiet_plies = static_cast<uint16_t>(quiet);
  return p;
}

// A random set of `n` points outside `taken`.
Mask random_points(Rng& rng, int n, Mask taken) {
  Mask m = 0;
  while (__builtin_popcount(m) < n) {
    const int p = static_cast<int>(rng.below(kPoints));
    if (!((taken | m) & bit(p))) m |= bit(p);
  }
  return m;
}

TEST(TigadiEndgame, TheSixteenSymmetriesMapLinesToLinesAndNeighboursToNeighbours) {
  const std::set<Mask> lines(kGeometry.lines.begin(), kGeometry.lines.end());
  std::set<std::array<uint8_t, kPoints>> distinct;
  for (int g = 0; g < kSymmetries; ++g) {
    distinct.insert(symmetry_maps()[static_cast<size_t>(g)]);
    for (Mask line : kGeometry.lines) EXPECT_TRUE(lines.count(transform(g, line))) << "symmetry " << g;
    for (int p = 0; p < kPoints; ++p)
      EXPECT_EQ(transform(g, kGeometry.neighbours[static_cast<size_t>(p)]),
                kGeometry.neighbours[symmetry_maps()[static_cast<size_t>(g)][static_cast<size_t>(p)]])
          << "symmetry " << g << ", point " << point_name(p);
  }
  EXPECT_EQ(distinct.size(), 16u);
  for (int p = 0; p < kPoints; ++p) EXPECT_EQ(symmetry_maps()[0][static_cast<size_t>(p)], p);  // 0 is the identity
}

TEST(TigadiEndgame, EverySymmetricImageOfAPositionHasTheSameEntry) {
  const EndgameTables& t = *three_v_three();
  const uint64_t seed = 11;
  Rng rng(seed);
  for (int i = 0; i < 20000; ++i) {
    const Mask own = random_points(rng, 3, 0), enemy = random_points(rng, 3, own);
    for (int g = 1; g < kSymmetries; ++g)
      ASSERT_EQ(t.index(transform(g, own), transform(g, enemy)), t.index(own, enemy)) << "seed " << seed << ", " << i;
    ASSERT_LT(t.index(own, enemy), t.table_size(3, 3));
  }
}

TEST(TigadiEndgame, ClosingALineAgainstThreeGotisWinsInOne) {
  // Bone's g4-g1 closes a1-d1-g1 and Seed is down to two.
  const auto v = three_v_three()->probe(points({"a1", "d1", "g4"}), points({"d6", "f4", "b4"}));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->outcome, 1);
  EXPECT_EQ(v->plies, 1);
}

TEST(TigadiEndgame, ALineThreatTheSideToMoveCannotBlockNorAnswerIsALossInTwo) {
  // Seed's a7 and d7 wait for g7, and f6 steps in next; no Bone goti reaches g7, and Bone has no line to close.
  const Mask bone = points({"a1", "d2", "c4"}), seed = points({"a7", "d7", "f6"});
  const auto v = three_v_three()->probe(bone, seed);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->outcome, -1);
  EXPECT_EQ(v->plies, 2);
  // And from Seed's side, moving first on the same board: a win in one.
  EXPECT_EQ(three_v_three()->probe(seed, bone)->plies, 1);
}

// One ply of look-ahead with the rules engine: a table value must be what its children's values make it.
TEST(TigadiEndgame, EveryValueIsWhatTheRulesMakeOfItsChildrenValues) {
  const EndgameTables& t = *three_v_three();
  const uint64_t seed = 2026;
  Rng rng(seed);
  int wins = 0, losses = 0, draws = 0;
  MoveList moves;
  for (int i = 0; i < 30000; ++i) {
    const Mask own = random_points(rng, 3, 0), enemy = random_points(rng, 3, own);
    Tigadi g(moving(own, enemy));
    const auto v = *t.probe(own, enemy);
    int best_win = 0, longest_loss = 0;
    bool draw = false;
    g.legal_moves(moves);
    for (Move m : moves) {
      g.apply(m);
      if (g.over()) {
        best_win = 1;
      } else {
        const Position& p = g.position();
        const auto c = *t.probe(p.board[p.to_move], p.board[1 - p.to_move]);
        if (c.outcome < 0) best_win = best_win ? std::min(best_win, c.plies + 1) : c.plies + 1;
        else if (c.outcome == 0) draw = true;
        else longest_loss = std::max(longest_loss, c.plies + 1);
      }
      g.undo();
    }
    const std::string where = "seed " + std::to_string(seed) + ", " + g.state_json().dump();
    if (best_win) {
      ++wins;
      ASSERT_EQ(v.outcome, 1) << where;
      ASSERT_EQ(v.plies, best_win) << where;
    } else if (draw) {
      ++draws;
      ASSERT_EQ(v.outcome, 0) << where;
    } else {
      ++losses;
      ASSERT_EQ(v.outcome, -1) << where;
      ASSERT_EQ(v.plies, longest_loss) << where;
    }
  }
  // Three against three holds every kind of value.
  EXPECT_GT(wins, 0);
  EXPECT_GT(losses, 0);
  EXPECT_GT(draws, 0);
}

TEST(TigadiEndgame, APositionWhereNeitherSideCanForceALineIsADraw) {
  // The first draw the table holds among seeded random positions, confirmed by a 12-ply search without the
  // tables that finds no forced result for either side.
  const EndgameTables& t = *three_v_three();
  const uint64_t seed = 5;
  Rng rng(seed);
  for (int i = 0; i < 1000; ++i) {
    const Mask own = random_points(rng, 3, 0), enemy = random_points(rng, 3, own);
    if (t.probe(own, enemy)->outcome != 0) continue;
    Tigadi g(moving(own, enemy));
    ai::Limits l;
    l.level = 3;
    l.nodes = 400'000;
    l.depth = 12;
    const ai::Choice c = ai::choose_move(g, l);
    const int score = c.info["score"].get<int>();
    EXPECT_FALSE(ai::is_win_score(score) || ai::is_loss_score(score)) << g.state_json().dump();
    return;
  }
  FAIL() << "no draw among 1000 random 3 v 3 positions (seed " << seed << ")";
}

TEST(TigadiEndgame, TablesWrittenAndReadBackGiveTheSameValues) {
  std::stringstream file;
  three_v_three()->write(file);
  const EndgameTables back = EndgameTables::read(file);
  EXPECT_EQ(back.max_gotis(), 3);
  EXPECT_EQ(back.entries(), three_v_three()->entries());
  Rng rng(3);
  for (int i = 0; i < 2000; ++i) {
    const Mask own = random_points(rng, 3, 0), enemy = random_points(rng, 3, own);
    ASSERT_EQ(back.probe(own, enemy)->plies, three_v_three()->probe(own, enemy)->plies);
  }
  std::stringstream bad("tabula tigadi endgame 1 3\nshort");
  EXPECT_THROW(EndgameTables::read(bad), GameError);
}

TEST(TigadiEndgame, TheTablesHoldOnlyTheCountsTheyWereBuiltFor) {
  EXPECT_FALSE(three_v_three()->probe(points({"a1", "d1", "g4", "e4"}), points({"d6", "f4", "b4"})));
}

TEST(TigadiEndgame, SolvedGivesTheTablesValueInTheMovingPhaseOnly) {
  WithTables with;
  const Mask bone = points({"a1", "d2", "c4"}), seed = points({"a7", "d7", "f6"});
  const auto s = Tigadi(moving(bone, seed)).solved();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->outcome, -1);
  EXPECT_EQ(s->plies, 2);
  Position placing = moving(bone, seed);
  placing.in_hand[0] = 1;
  EXPECT_FALSE(Tigadi(placing).solved());
}

TEST(TigadiEndgame, AWinTheHundredTurnRuleCouldCutShortIsNotClaimed) {
  WithTables with;
  const Mask bone = points({"a1", "d2", "c4"}), seed = points({"a7", "d7", "f6"});
  // Bone loses in 2: Seed's line closes on the second ply, so 98 quiet turns leave room for it, 99 do not.
  EXPECT_TRUE(Tigadi(moving(bone, seed, 0, 98)).solved());
  EXPECT_FALSE(Tigadi(moving(bone, seed, 0, 99)).solved());
}

TEST(TigadiEndgame, WithTablesTheAIPlaysATablePositionsWinningMove) {
  WithTables with;
  const EndgameTables& t = *three_v_three();
  const uint64_t seed = 9;
  Rng rng(seed);
  int found = 0;
  MoveList moves;
  for (int i = 0; i < 200000 && found < 5; ++i) {
    const Mask own = random_points(rng, 3, 0), enemy = random_points(rng, 3, own);
    const auto v = *t.probe(own, enemy);
    if (v.outcome != 1 || v.plies < 9) continue;
    ++found;
    Tigadi g(moving(own, enemy));
    ai::Limits l;
    l.level = 3;
    l.nodes = 3000;
    l.seed = 1;
    const ai::Choice c = ai::choose_move(g, l);
    // The move played leads to a position the other side loses, one ply sooner.
    g.legal_moves(moves);
    for (Move m : moves)
      if (g.move_to_string(m) == c.move) {
        g.apply(m);
        ASSERT_FALSE(g.over());
        const Position& p = g.position();
        const auto after = *t.probe(p.board[p.to_move], p.board[1 - p.to_move]);
        EXPECT_EQ(after.outcome, -1) << c.move;
        EXPECT_EQ(after.plies, v.plies - 1) << c.move;
        g.undo();
      }
    EXPECT_EQ(c.info["score"].get<int>(), ai::kWin - v.plies);
  }
  EXPECT_EQ(found, 5) << "seed " << seed;
}

}  // namespace
}  // namespace tabula::tigadi
