// Tigadi's endgame tables (endgame.h): the symmetries, hand-solved positions, every value against the rules
// engine one move deep, a forward solver's tables against the retrograde one's, the file, Tigadi::solved() and
// the AI with tables. The tables are built here: 3 v 3 (a fraction of a second), and up to 4 v 4 for the forward
// check outside sanitizer builds (two seconds).
#include "ai/ai.h"
#include "core/rng.h"
#include "core/testing.h"
#include "games/tigadi/endgame.h"
#include "games/tigadi/tigadi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

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

// An independent solver for the check below: the tables found forward, by rounds, with none of the retrograde
// solver's bookkeeping (no unmoves, no counts). Each used entry gets a board (own gotis at their least image, the
// first enemy set that reaches the entry), each board's moves their children (an entry of the tables solved
// together, a value of a smaller table solved before, or the end of the game); then round k gives every entry
// not yet valued the value k when its children valued below k make it one: a win when one of them is a loss
// (the shortest loss + 1), a loss when all of them are wins (the longest win + 1). What no round values is a
// draw.
using ForwardValues = std::map<std::pair<int, int>, std::vector<uint8_t>>;  // by (s, o); 255: entry unused

struct ForwardBoard {
  int s, o;
  Mask own, enemy;
};
struct ForwardCounts {
  std::vector<ForwardBoard> boards;  // one for each used entry
  size_t repeated_child = 0;         // entries two of whose moves (within the tables) reach one class
};

ForwardCounts solve_forward(const EndgameTables& t, const std::vector<std::pair<int, int>>& tables,
                            ForwardValues& values) {
  constexpr uint8_t kUnusedEntry = 255;
  struct Child {
    int table = -1;     // into `tables`, or -1: a value known already
    uint32_t index = 0;
    uint8_t known = 0;  // when table is -1: the value, or kEnded for a capture that ends the game
  };
  constexpr uint8_t kEnded = 254;  // the child has lost: a loss in 0 plies
  struct Entry {
    int table;
    uint32_t index;
    uint32_t first_child, children;
  };
  std::vector<Entry> entries;
  std::vector<Child> children;
  std::vector<uint32_t> within;  // one entry's children within the tables
  ForwardCounts counts;
  int latest_known = 0;
  auto slot = [&](int s, int o) {
    for (size_t k = 0; k < tables.size(); ++k)
      if (tables[k] == std::pair{s, o}) return static_cast<int>(k);
    return -1;
  };
  for (size_t k = 0; k < tables.size(); ++k) {
    const auto [s, o] = tables[k];
    std::vector<uint8_t>& value = values[tables[k]];
    value.assign(t.table_size(s, o), kUnusedEntry);
    for (Mask own = (Mask{1} << s) - 1; own < (Mask{1} << kPoints);) {
      Mask least = own;
      for (int g = 1; g < kSymmetries; ++g) least = std::min(least, transform(g, own));
      for (Mask enemy = (Mask{1} << o) - 1; least == own && enemy < (Mask{1} << kPoints);) {
        const size_t i = t.index(own, enemy);
        if (!(own & enemy) && value[i] == kUnusedEntry) {
          value[i] = 0;
          const auto first = static_cast<uint32_t>(children.size());
          const Mask empty = kAllPoints & ~(own | enemy);
          bool slid = false;
          for (int from = 0; from < kPoints; ++from) {
            if (!(own & bit(from))) continue;
            for (int to = 0; to < kPoints; ++to) {
              if (!(kGeometry.neighbours[static_cast<size_t>(from)] & empty & bit(to))) continue;
              slid = true;
              const Mask after = own ^ bit(from) ^ bit(to);
              if (!completes_line(after, to)) {
                children.push_back({slot(o, s), static_cast<uint32_t>(t.index(enemy, after)), 0});
              } else if (o == kMinTableGotis) {
                children.push_back({-1, 0, kEnded});
              } else {
                for (int c = 0; c < kPoints; ++c) {
                  if (!(capturable_points(enemy) & bit(c))) continue;
                  const uint8_t v = values.at({o - 1, s})[t.index(enemy ^ bit(c), after)];
                  latest_known = std::max(latest_known, static_cast<int>(v));
                  children.push_back({-1, 0, v});
                }
              }
            }
          }
          if (!slid) children.push_back({slot(o, s), static_cast<uint32_t>(t.index(enemy, own)), 0});
          const auto n = static_cast<uint32_t>(children.size()) - first;
          within.clear();
          for (uint32_t c = first; c < first + n; ++c)
            if (children[c].table >= 0) within.push_back(children[c].index);  // one table: o v s
          std::sort(within.begin(), within.end());
          if (std::adjacent_find(within.begin(), within.end()) != within.end()) ++counts.repeated_child;
          entries.push_back({static_cast<int>(k), static_cast<uint32_t>(i), first, n});
          counts.boards.push_back({s, o, own, enemy});
        }
        const Mask low = enemy & -enemy, next = enemy + low;
        enemy = (((next ^ enemy) >> 2) / low) | next;
      }
      const Mask low = own & -own, next = own + low;
      own = (((next ^ own) >> 2) / low) | next;
    }
  }
  std::vector<std::vector<uint8_t>*> by_slot;
  for (const auto& key : tables) by_slot.push_back(&values[key]);
  std::vector<Entry> open = entries;
  for (int k = 1; k <= 253; ++k) {
    size_t kept = 0;
    bool valued = false;
    for (const Entry& e : open) {
      int shortest_loss = -1, longest_win = 0;
      bool all_wins = true;
      for (uint32_t c = e.first_child; c < e.first_child + e.children; ++c) {
        const Child& ch = children[c];
        const int v =
            ch.table < 0 ? (ch.known == kEnded ? 0 : ch.known) : (*by_slot[static_cast<size_t>(ch.table)])[ch.index];
        const bool seen = ch.known == kEnded || (v != 0 && v < k);
        if (!seen) {
          all_wins = false;
        } else if (v % 2 == 0) {
          shortest_loss = shortest_loss < 0 ? v : std::min(shortest_loss, v);
        } else {
          longest_win = std::max(longest_win, v);
        }
      }
      uint8_t& v = (*by_slot[static_cast<size_t>(e.table)])[e.index];
      if (shortest_loss >= 0) v = static_cast<uint8_t>(shortest_loss + 1);
      else if (all_wins) v = static_cast<uint8_t>(longest_win + 1);
      else open[kept++] = e;
      valued = valued || v != 0;
    }
    open.resize(kept);
    // A value k + 1 needs a child valued k: none of the tables' own, and none known once k passes them all.
    if (!valued && k > latest_known) break;
  }
  return counts;
}

// The retrograde solver (unmoves, a count of unresolved child classes per position) against the forward one,
// entry by entry: 3 v 3, and 3 v 4 with 4 v 3 outside sanitizer builds. The entries where two moves reach one
// class are the ones the count must not count twice; the check holds some.
TEST(TigadiEndgame, EveryEntryEqualsAForwardSolversValue) {
  const bool with_four = !testing::kSanitized;
  const auto built = with_four ? std::make_shared<const EndgameTables>(EndgameTables::build(4)) : three_v_three();
  std::vector<std::vector<std::pair<int, int>>> steps = {{{3, 3}}};
  if (with_four) steps.push_back({{3, 4}, {4, 3}});
  ForwardValues forward;
  for (const auto& tables : steps) {
    const ForwardCounts counts = solve_forward(*built, tables, forward);
    EXPECT_GT(counts.repeated_child, 0u) << tables[0].first << " v " << tables[0].second;
    size_t entries = 0;
    for (const auto& [s, o] : tables) entries += built->table_size(s, o);
    EXPECT_GT(counts.boards.size(), entries / 2);  // the unused entries are few
    for (const ForwardBoard& b : counts.boards) {
      const auto v = *built->probe(b.own, b.enemy);
      const size_t i = built->index(b.own, b.enemy);
      ASSERT_EQ(v.outcome == 0 ? 0 : v.plies, forward.at({b.s, b.o})[i]) << b.s << " v " << b.o << ", entry " << i;
    }
  }
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
