// Tigadi's search hooks (order_hint, legal_captures) and the incremental evaluation terms: hand-made positions
// for what the hints claim, random games for the invariants (seed printed on failure).
#include "core/rng.h"
#include "games/tigadi/tigadi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

namespace tabula::tigadi {
namespace {

Position moving(std::initializer_list<const char*> bone, std::initializer_list<const char*> seed, int to_move = 0) {
  Position p;
  for (const char* name : bone) p.board[0] |= bit(parse_point(name));
  for (const char* name : seed) p.board[1] |= bit(parse_point(name));
  p.in_hand[0] = p.in_hand[1] = 0;
  p.to_move = static_cast<uint8_t>(to_move);
  return p;
}

Move find(const Tigadi& g, const std::string& text) {
  MoveList moves;
  g.legal_moves(moves);
  for (Move m : moves)
    if (g.move_to_string(m) == text) return m;
  ADD_FAILURE() << text << " is not legal here";
  return Move{};
}

// --- order_hint ----------------------------------------------------------------------------------------

TEST(TigadiAI, ClosingALineIsTriedBeforeAQuietMove) {
  // g4-g1 closes a1-d1-g1 and takes a Seed goti; a1-a4 closes nothing.
  Tigadi g(moving({"a1", "d1", "g4", "e4"}, {"d6", "f4", "b4", "c5"}));
  EXPECT_GT(g.order_hint(find(g, "g4-g1xd6")), 0);
  EXPECT_EQ(g.order_hint(find(g, "a1-a4")), 0);
  EXPECT_GT(g.order_hint(find(g, "g4-g1xd6")), g.order_hint(find(g, "a1-a4")));
}

TEST(TigadiAI, TakingAGotiThatBreaksAnEnemyThreatIsTriedBeforeTakingAnIdleOne) {
  // Seed's d7 and d6 threaten d5 (d7-d6-d5); Seed's b4 stands on no Seed line.
  Tigadi g(moving({"a1", "d1", "g4", "e4"}, {"d7", "d6", "b4", "c3"}));
  EXPECT_GT(g.order_hint(find(g, "g4-g1xd7")), g.order_hint(find(g, "g4-g1xb4")));
  EXPECT_GT(g.order_hint(find(g, "g4-g1xb4")), 0);
}

TEST(TigadiAI, BlockingAnEnemyLineThreatIsTriedBeforeAQuietMoveButAfterACapture) {
  // Seed's d7 and d6 wait for d5; Bone's c5 can step in. Bone's g4-g1 closes a line.
  Tigadi g(moving({"a1", "d1", "g4", "c5"}, {"d7", "d6", "b4", "e3"}));
  const int block = g.order_hint(find(g, "c5-d5"));
  EXPECT_GT(block, 0);
  EXPECT_GT(block, g.order_hint(find(g, "a1-a4")));
  EXPECT_GT(g.order_hint(find(g, "g4-g1xb4")), block);
}

TEST(TigadiAI, LeavingTheBlockOfAnEnemyLineIsTriedAfterTheQuietMoves) {
  // Bone's d5 stands on the third point of Seed's d7-d6 line: sliding it away opens the line.
  Tigadi g(moving({"a1", "d1", "d5", "f2"}, {"d7", "d6", "b4", "e3"}));
  EXPECT_LT(g.order_hint(find(g, "d5-c5")), 0);
  EXPECT_EQ(g.order_hint(find(g, "a1-a4")), 0);
}

// --- legal_captures and the incremental terms over random games --------------------------------------

// The evaluation as it was computed before the terms were kept: all 20 lines and every goti scanned.
int evaluate_from_scratch(const Position& pos) {
  auto side = [&](int s, int& threats, int& closed, int& mobility) {
    const Mask own = pos.board[s], empty = kAllPoints & ~(pos.board[0] | pos.board[1]);
    threats = closed = mobility = 0;
    for (Mask line : kGeometry.lines) {
      const Mask mine = own & line;
      if (mine == line) ++closed;
      else if (__builtin_popcount(mine) == 2 && (line & empty)) ++threats;
    }
    for (int p = 0; p < kPoints; ++p)
      if (own & bit(p)) mobility += __builtin_popcount(kGeometry.neighbours[static_cast<size_t>(p)] & empty);
  };
  const int me = pos.to_move;
  int at, ac, am, bt, bc, bm;
  side(me, at, ac, am);
  side(1 - me, bt, bc, bm);
  int score = 100 * (pos.total(me) - pos.total(1 - me)) + 30 * at - 20 * bt + 12 * (ac - bc);
  if (!pos.placing()) score += 4 * (am - bm);
  return score;
}

std::vector<uint32_t> codes(const MoveList& l) {
  std::vector<uint32_t> v;
  for (Move m : l) v.push_back(m.code);
  std::sort(v.begin(), v.end());
  return v;
}

TEST(TigadiPlayouts, LegalCapturesAreExactlyTheLegalMovesThatCapture) {
  const uint64_t seed = 20261202;
  Rng rng(seed);
  MoveList moves, captures;
  for (int game = 0; game < 3000; ++game) {
    Tigadi g;
    while (g.phase() == Phase::play) {
      g.legal_moves(moves);
      g.legal_captures(captures);
      MoveList filtered;
      for (Move m : moves)
        if (g.is_capture(m)) filtered.push(m);
      ASSERT_EQ(codes(captures), codes(filtered)) << "seed " << seed << ", game " << game << ", " << g.state_json().dump();
      g.apply(moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))]);
    }
    g.legal_captures(captures);
    ASSERT_TRUE(captures.empty());
  }
}

TEST(TigadiPlayouts, TheKeptTermsEqualACountFromScratchAfterEveryMoveAndUndo) {
  const uint64_t seed = 77;
  Rng rng(seed);
  MoveList moves;
  for (int game = 0; game < 3000; ++game) {
    Tigadi g;
    int plies = 0;
    while (g.phase() == Phase::play) {
      g.legal_moves(moves);
      g.apply(moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))]);
      ++plies;
      ASSERT_EQ(g.terms(), terms_of(g.position().board)) << "seed " << seed << ", game " << game << ", ply " << plies;
      if (g.phase() == Phase::play) {
        ASSERT_EQ(g.evaluate(), evaluate_from_scratch(g.position())) << "seed " << seed << ", game " << game;
      }
      // Every tenth ply, a move tried and taken back leaves the terms as they were.
      if (g.phase() == Phase::play && rng.below(10) == 0) {
        const Terms before = g.terms();
        g.legal_moves(moves);
        g.apply(moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))]);
        g.undo();
        ASSERT_EQ(g.terms(), before) << "seed " << seed << ", game " << game;
      }
    }
    while (plies-- > 0) {
      g.undo();
      ASSERT_EQ(g.terms(), terms_of(g.position().board)) << "seed " << seed << ", game " << game;
    }
  }
}

TEST(TigadiAI, AGivenPositionStartsWithItsTerms) {
  Position p = moving({"a1", "d1", "g1", "f2"}, {"d7", "d6", "b4", "e3"}, 1);
  Tigadi g(p);
  EXPECT_EQ(g.terms(), terms_of(p.board));
  EXPECT_EQ(g.terms().closed(0), 1);
  EXPECT_EQ(g.terms().threats(1), 1);
  EXPECT_EQ(g.evaluate(), evaluate_from_scratch(p));
}

}  // namespace
}  // namespace tabula::tigadi
