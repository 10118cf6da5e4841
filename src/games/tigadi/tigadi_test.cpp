// One test per rule sentence of shared/rules/tigadi.txt and the Tigadi rulings, each on a position built by
// hand. Test names follow the rule they check.
#include "core/session.h"
#include "core/testing.h"
#include "games/tigadi/tigadi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace tabula::tigadi {
namespace {

using testing::illegal_reason;
using testing::legal_set;

json board_of(std::initializer_list<const char*> bone, std::initializer_list<const char*> seed) {
  json b = json::object();
  for (const char* p : bone) b[p] = "0G";
  for (const char* p : seed) b[p] = "1G";
  return b;
}

// A moving-phase position (both hands empty) unless hands are given.
Session position(std::initializer_list<const char*> bone, std::initializer_list<const char*> seed, int to_move = 0,
                 std::array<int, 2> in_hand = {0, 0}, int quiet = 0) {
  return Session::from_state("tigadi", json{{"board", board_of(bone, seed)},
                                            {"in_hand", {in_hand[0], in_hand[1]}},
                                            {"to_move", to_move},
                                            {"quiet_plies", quiet}});
}

bool has(const std::set<std::string>& s, const std::string& m) { return s.count(m) > 0; }

// --- The board ---------------------------------------------------------------------------------------

TEST(TigadiBoard, Has24Points20LinesAnd40Adjacencies) {
  int edges = 0;
  for (int p = 0; p < kPoints; ++p) edges += __builtin_popcount(kGeometry.neighbours[static_cast<size_t>(p)]);
  EXPECT_EQ(edges / 2, 40);
  EXPECT_EQ(static_cast<int>(kGeometry.lines.size()), 20);
  std::set<Mask> distinct(kGeometry.lines.begin(), kGeometry.lines.end());
  EXPECT_EQ(distinct.size(), 20u);
  for (Mask line : kGeometry.lines) EXPECT_EQ(__builtin_popcount(line), 3);
  std::set<std::string_view> names(kPointNames.begin(), kPointNames.end());
  EXPECT_EQ(names.size(), 24u);
}

TEST(TigadiBoard, LinesAreTheTwelveSquareSidesAndEightSpokesOfTheNotation) {
  // Written out from notation.md, independently of how the engine builds them.
  const char* lines[20][3] = {{"a1", "d1", "g1"}, {"g1", "g4", "g7"}, {"g7", "d7", "a7"}, {"a7", "a4", "a1"},
                              {"b2", "d2", "f2"}, {"f2", "f4", "f6"}, {"f6", "d6", "b6"}, {"b6", "b4", "b2"},
                              {"c3", "d3", "e3"}, {"e3", "e4", "e5"}, {"e5", "d5", "c5"}, {"c5", "c4", "c3"},
                              {"d1", "d2", "d3"}, {"g4", "f4", "e4"}, {"d7", "d6", "d5"}, {"a4", "b4", "c4"},
                              {"a1", "b2", "c3"}, {"g1", "f2", "e3"}, {"g7", "f6", "e5"}, {"a7", "b6", "c5"}};
  std::set<Mask> expected;
  for (auto& l : lines) expected.insert(bit(parse_point(l[0])) | bit(parse_point(l[1])) | bit(parse_point(l[2])));
  EXPECT_EQ(std::set<Mask>(kGeometry.lines.begin(), kGeometry.lines.end()), expected);
}

TEST(TigadiBoard, CornerDiagonalsAreRealLinesThatCarryMoves) {
  Session s = position({"a1", "b2"}, {"g7", "f6", "d7"}, 0, {1, 0});
  // Placing c3 closes the diagonal a1-b2-c3: a tigadi.
  auto legal = legal_set(s);
  EXPECT_TRUE(has(legal, "c3xg7"));
  EXPECT_FALSE(has(legal, "c3"));
  // And a goti slides along a diagonal.
  Session m = position({"a1", "d7", "e4"}, {"c4", "b6", "f2"});
  EXPECT_TRUE(has(legal_set(m), "a1-b2"));
}

TEST(TigadiBoard, AdjacencyRunsAlongDrawnLinesOnly) {
  auto adjacent = [](const char* a, const char* b) {
    return (kGeometry.neighbours[static_cast<size_t>(parse_point(a))] & bit(parse_point(b))) != 0;
  };
  EXPECT_TRUE(adjacent("a1", "d1"));
  EXPECT_TRUE(adjacent("a1", "b2"));
  EXPECT_TRUE(adjacent("d2", "d3"));
  EXPECT_FALSE(adjacent("a1", "g1"));  // same line, not neighbours
  EXPECT_FALSE(adjacent("a1", "b4"));  // no drawn line
  EXPECT_FALSE(adjacent("c3", "c5"));
  for (int p = 0; p < kPoints; ++p)
    for (int q = 0; q < kPoints; ++q)
      EXPECT_EQ(adjacent(kPointNames[static_cast<size_t>(p)].data(), kPointNames[static_cast<size_t>(q)].data()),
                adjacent(kPointNames[static_cast<size_t>(q)].data(), kPointNames[static_cast<size_t>(p)].data()));
}

TEST(TigadiBoard, EveryPointHasAtLeastThreeNeighbours) {
  for (int p = 0; p < kPoints; ++p)
    EXPECT_GE(__builtin_popcount(kGeometry.neighbours[static_cast<size_t>(p)]), 3) << point_name(p);
}

// --- The start and placing ---------------------------------------------------------------------------

TEST(TigadiStart, BoardStartsEmptyNineGotisEachBoneMovesFirst) {
  Session s = Session::create("tigadi", json::object());
  json st = s.state();
  EXPECT_EQ(st["board"], json::object());
  EXPECT_EQ(st["in_hand"], json::array({9, 9}));
  EXPECT_EQ(st["to_move"], 0);
  EXPECT_EQ(st["phase"], "play");
  EXPECT_EQ(st["result"], nullptr);
  EXPECT_EQ(st["quiet_plies"], 0);
}

TEST(TigadiPlacing, PlayersPutOneGotiOnAnyEmptyPointInTurn) {
  Session s = Session::create("tigadi", json::object());
  EXPECT_EQ(s.legal().size(), 24u);
  s.play("d1");
  EXPECT_EQ(s.state()["to_move"], 1);
  auto legal = legal_set(s);
  EXPECT_EQ(legal.size(), 23u);
  EXPECT_FALSE(has(legal, "d1"));
  s.play("a4");
  EXPECT_EQ(s.state()["board"], board_of({"d1"}, {"a4"}));
  EXPECT_EQ(s.state()["in_hand"], json::array({8, 8}));
}

TEST(TigadiPlacing, NothingMovesDuringPlacing) {
  Session s = position({"a1", "d7"}, {"c4", "b6"}, 0, {3, 3});
  for (const std::string& m : s.legal()) EXPECT_EQ(m.find('-'), std::string::npos) << m;
  EXPECT_NE(illegal_reason(s, "a1-d1").find("nothing moves"), std::string::npos);
}

TEST(TigadiPlacing, GoesOnUntilBothHandsAreEmptyThenSlidingBeginsWithTheNextPlayer) {
  Session s = Session::create("tigadi", json::object());
  // Eighteen placements in which no three of one colour share a line.
  const char* order[] = {"a4", "a1", "b6", "a7", "c3", "b2", "d1", "c5", "d2",
                         "d5", "d7", "d6", "e4", "f6", "f4", "g4", "g1", "g7"};
  for (int i = 0; i < 18; ++i) {
    EXPECT_EQ(s.game().to_move(), i % 2);
    s.play(order[i]);
  }
  json st = s.state();
  EXPECT_EQ(st["in_hand"], json::array({0, 0}));
  EXPECT_EQ(st["to_move"], 0);
  EXPECT_EQ(st["board"].size(), 18u);
  for (const std::string& m : s.legal()) EXPECT_TRUE(m == "pass" || m.find('-') != std::string::npos) << m;
}

TEST(TigadiPlacing, ATigadiFormedWhilePlacingCapturesImmediately) {
  Session s = position({"a1", "d1"}, {"a7", "g7"}, 0, {7, 7});
  auto legal = legal_set(s);
  EXPECT_TRUE(has(legal, "g1xa7"));
  EXPECT_TRUE(has(legal, "g1xg7"));
  EXPECT_FALSE(has(legal, "g1"));
  auto events = s.play("g1xa7");
  EXPECT_EQ(s.state()["board"], board_of({"a1", "d1", "g1"}, {"g7"}));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].full, (json{{"type", "place"}, {"player", 0}, {"to", "g1"}}));
  EXPECT_EQ(events[1].full["type"], "capture");
  EXPECT_EQ(events[1].full["square"], "a7");
  EXPECT_EQ(events[1].full["piece"], "1G");
}

TEST(TigadiPlacing, APlayerWithAnEmptyHandPassesWhileTheOtherStillPlaces) {
  Session s = position({"a1", "d7", "e4", "c4", "b6", "f2", "g4", "d2", "a7"}, {"c3", "e5", "g1"}, 0, {0, 6});
  EXPECT_EQ(s.legal(), std::vector<std::string>{"pass"});
  s.play("pass");
  EXPECT_EQ(s.state()["to_move"], 1);
  EXPECT_EQ(s.legal().size(), 12u);  // Seed places on any of the 12 empty points
}

TEST(TigadiPlacing, ALineTakesNothingWhenTheEnemyHasNoGotiOnTheBoard) {
  Session s = position({"a1", "d1"}, {}, 0, {7, 9});
  auto legal = legal_set(s);
  EXPECT_TRUE(has(legal, "g1"));
  for (const std::string& m : legal) EXPECT_EQ(m.find('x'), std::string::npos);
}

// --- Moving ------------------------------------------------------------------------------------------

TEST(TigadiMoving, SlideOneGotiToANeighbouringEmptyPointAlongADrawnLine) {
  Session s = position({"a1", "d7", "e4"}, {"c4", "b6", "f2"});
  std::set<std::string> expected = {"a1-a4", "a1-b2", "a1-d1", "d7-a7", "d7-d6", "d7-g7",
                                    "e4-e3", "e4-e5", "e4-f4"};
  EXPECT_EQ(legal_set(s), expected);
}

TEST(TigadiMoving, AGotiNeverJumpsNotEvenWithThreeOrTwo) {
  // Three gotis: no flying; every slide is to a neighbour (the exact list is checked above).
  Session s = position({"a1", "d7", "e4"}, {"c4", "b6", "f2"});
  EXPECT_NE(illegal_reason(s, "a1-g7").find("never jumps"), std::string::npos);
  EXPECT_NE(illegal_reason(s, "a1-c3").find("never jumps"), std::string::npos);
  // Over an occupied neighbour: a1 over b2 to c3 is a jump too.
  Session t = position({"a1", "d7", "e4"}, {"b2", "b6", "f2"});
  EXPECT_FALSE(has(legal_set(t), "a1-c3"));
}

TEST(TigadiMoving, MovementIsCompulsoryEvenWhenItBreaksYourOwnTigadi) {
  // Bone's only gotis form a1-d1-g1; every exit but f2 is blocked.
  Session s = position({"a1", "d1", "g1"}, {"a4", "b2", "d2", "g4"});
  EXPECT_EQ(s.legal(), std::vector<std::string>{"g1-f2"});
  EXPECT_NE(illegal_reason(s, "pass").find("compulsory"), std::string::npos);
}

TEST(TigadiMoving, ASlideAlongALineNeverCompletesThatSameLine) {
  // Bone d1, g1: a4-a1 completes a1-d1-g1 (it arrives along another line); d1-a1 slides along it.
  Session s = position({"d1", "g1", "a4"}, {"c4", "b6", "f6"});
  auto legal = legal_set(s);
  EXPECT_TRUE(has(legal, "a4-a1xc4"));
  EXPECT_FALSE(has(legal, "a4-a1"));
  EXPECT_TRUE(has(legal, "d1-a1"));
  for (const std::string& m : legal)
    if (m.rfind("d1-a1", 0) == 0) { EXPECT_EQ(m, "d1-a1"); }
}

// --- Tigadis and captures ----------------------------------------------------------------------------

TEST(TigadiCapture, CompletingALineTakesOneEnemyGotiAsPartOfTheSameTurn) {
  Session s = position({"d1", "g1", "a4"}, {"c4", "b6", "f6", "e5"});
  auto events = s.play("a4-a1xb6");
  EXPECT_EQ(s.state()["board"], board_of({"a1", "d1", "g1"}, {"c4", "e5", "f6"}));
  EXPECT_EQ(s.state()["to_move"], 1);  // the capture does not take another turn
  EXPECT_EQ(events[0].full, (json{{"type", "move"}, {"player", 0}, {"from", "a4"}, {"to", "a1"}}));
  EXPECT_EQ(events[1].full,
            (json{{"type", "capture"}, {"square", "b6"}, {"piece", "1G"}, {"by", 0}, {"points", 0}}));
}

TEST(TigadiCapture, TheCaptureIsWrittenIntoTheMove) {
  Session s = position({"d1", "g1", "a4"}, {"c4", "b6", "f6"});
  EXPECT_NE(illegal_reason(s, "a4-a1").find("completes a tigadi"), std::string::npos);
  Session t = position({"a1", "d7", "e4"}, {"c4", "b6", "f2"});
  EXPECT_NE(illegal_reason(t, "a1-a4xc4").find("completes no tigadi"), std::string::npos);
  EXPECT_NE(illegal_reason(s, "a4-a1xd7").find("no enemy goti"), std::string::npos);
}

TEST(TigadiCapture, ExactlyOneCapturePerTurnEvenWhenTwoLinesClose) {
  // Placing a1 closes a1-d1-g1 and a1-b2-c3 at once.
  Session s = position({"d1", "g1", "b2", "c3"}, {"a7", "g7", "e5"}, 0, {3, 3});
  std::set<std::string> with_a1;
  for (const std::string& m : s.legal())
    if (m.rfind("a1", 0) == 0) with_a1.insert(m);
  EXPECT_EQ(with_a1, (std::set<std::string>{"a1xa7", "a1xe5", "a1xg7"}));
  s.play("a1xa7");
  EXPECT_EQ(s.state()["board"].size(), 7u);  // 5 Bone, 2 Seed: one taken
}

TEST(TigadiCapture, AGotiStandingInsideAnEnemyTigadiIsProtected) {
  Session s = position({"a1", "d1"}, {"a7", "d7", "g7", "f4"}, 0, {5, 3});
  auto legal = legal_set(s);
  EXPECT_TRUE(has(legal, "g1xf4"));
  EXPECT_FALSE(has(legal, "g1xa7"));
  EXPECT_FALSE(has(legal, "g1xd7"));
  EXPECT_NE(illegal_reason(s, "g1xd7").find("protected"), std::string::npos);
}

TEST(TigadiCapture, ProtectionLapsesWhenEveryEnemyGotiIsInATigadi) {
  Session s = position({"a1", "d1"}, {"a7", "d7", "g7"}, 0, {5, 3});
  auto legal = legal_set(s);
  EXPECT_TRUE(has(legal, "g1xa7"));
  EXPECT_TRUE(has(legal, "g1xd7"));
  EXPECT_TRUE(has(legal, "g1xg7"));
}

TEST(TigadiCapture, CapturedGotisAreGoneForGoodAndDoNotReturnToHand) {
  Session s = position({"a1", "d1"}, {"a7", "g7"}, 0, {7, 7});
  s.play("g1xa7");
  EXPECT_EQ(s.state()["in_hand"], json::array({6, 7}));
  EXPECT_EQ(s.state()["board"].size(), 4u);
}

TEST(TigadiCapture, ARunningTigadiCapturesAgainEveryTimeItCloses) {
  Session s = position({"a1", "d1", "g1"}, {"c4", "c5", "d6", "e4", "f2"});
  s.play("g1-g4");
  s.play("d6-d7");
  EXPECT_TRUE(has(legal_set(s), "g4-g1xc4"));
  s.play("g4-g1xc4");
  s.play("d7-d6");
  s.play("g1-g4");
  s.play("d6-d7");
  s.play("g4-g1xc5");
  EXPECT_EQ(s.state()["board"], board_of({"a1", "d1", "g1"}, {"d7", "e4", "f2"}));
}

TEST(TigadiCapture, AStandingLineDoesNotCaptureWhenAnotherGotiMoves) {
  Session s = position({"a1", "d1", "g1", "d6"}, {"c4", "b6", "f2", "e5"});
  for (const std::string& m : s.legal())
    if (m.rfind("d6-", 0) == 0) { EXPECT_EQ(m.find('x'), std::string::npos) << m; }
}

// --- Blocked -----------------------------------------------------------------------------------------

TEST(TigadiBlocked, APlayerWithNoLegalMovePassesAndDoesNotLose) {
  Session s = position({"a1", "d1", "g1"}, {"a4", "b2", "d2", "g4", "f2"});
  EXPECT_EQ(s.legal(), std::vector<std::string>{"pass"});
  auto events = s.play("pass");
  EXPECT_EQ(events[0].full, (json{{"type", "pass"}, {"player", 0}}));
  json st = s.state();
  EXPECT_EQ(st["phase"], "play");
  EXPECT_EQ(st["to_move"], 1);
  EXPECT_EQ(st["ply"], 1);
  EXPECT_EQ(st["quiet_plies"], 1);  // a pass is a turn
  EXPECT_FALSE(s.legal().empty());
}

TEST(TigadiBlocked, BothPlayersAreNeverStuckAtOnce) {
  // The rules' proof, checked on 100,000 random sliding positions of 3 to 9 gotis a side: whenever one side
  // has no slide, the other has one.
  Rng rng(31);
  MoveList moves;
  int blocked_seen = 0;
  for (int trial = 0; trial < 100000; ++trial) {
    Position pos;
    pos.in_hand[0] = pos.in_hand[1] = 0;
    for (int side = 0; side < 2; ++side) {
      int want = 3 + static_cast<int>(rng.below(7));
      while (__builtin_popcount(pos.board[side]) < want) {
        int p = static_cast<int>(rng.below(kPoints));
        if (!((pos.board[0] | pos.board[1]) & bit(p))) pos.board[side] |= bit(p);
      }
    }
    bool stuck[2];
    for (int side = 0; side < 2; ++side) {
      pos.to_move = static_cast<uint8_t>(side);
      Tigadi g(pos);
      g.legal_moves(moves);
      stuck[side] = moves.size() == 1 && TigadiMove::is_pass(moves[0]);
    }
    blocked_seen += stuck[0] || stuck[1];
    ASSERT_FALSE(stuck[0] && stuck[1]);
  }
  EXPECT_GT(blocked_seen, 0);  // the positions did include blocked sides
}

// --- Winning -----------------------------------------------------------------------------------------

TEST(TigadiWin, ReducingTheOpponentToTwoGotisWins) {
  Session s = position({"d1", "g1", "a4"}, {"c4", "b6", "f6"});
  auto events = s.play("a4-a1xc4");
  json st = s.state();
  EXPECT_EQ(st["phase"], "over");
  EXPECT_EQ(st["result"], (json{{"winners", {0}}, {"reason", "reduced-to-two"}}));
  EXPECT_TRUE(s.legal().empty());
  EXPECT_EQ(events.back().full["type"], "over");
}

TEST(TigadiWin, GotisInHandCountTowardTheTotalWhilePlacing) {
  // Seed has one goti on the board and five in hand: losing it leaves none on the board, not a loss.
  Session s = position({"a1", "d1"}, {"c4"}, 0, {5, 5});
  s.play("g1xc4");
  EXPECT_EQ(s.state()["phase"], "play");
  EXPECT_EQ(s.state()["board"], board_of({"a1", "d1", "g1"}, {}));
}

TEST(TigadiWin, TheWinIsCheckedDuringPlacingToo) {
  Session s = position({"a1", "d1"}, {"c4"}, 0, {5, 2});
  s.play("g1xc4");
  EXPECT_EQ(s.state()["result"], (json{{"winners", {0}}, {"reason", "reduced-to-two"}}));
}

TEST(TigadiWin, BeingBlockedIsNeverADefeat) {
  // Bone is walled in for good while Seed shuffles e5-d5: Bone passes every turn and the game ends in a
  // draw by repetition, never in a loss for the blocked side.
  Session s = position({"a1", "d1", "g1"}, {"a4", "b2", "d2", "g4", "f2", "e5"});
  const char* seed_moves[] = {"e5-d5", "d5-e5"};
  for (int i = 0; s.game().result() == nullptr; ++i) {
    ASSERT_LT(i, 20);
    if (s.game().to_move() == 0) {
      EXPECT_EQ(s.legal(), std::vector<std::string>{"pass"});
      s.play("pass");
    } else {
      s.play(seed_moves[(i / 2) % 2]);
    }
  }
  EXPECT_EQ(s.state()["result"], (json{{"winners", json::array()}, {"reason", "repetition"}}));
}

// --- Draws -------------------------------------------------------------------------------------------

TEST(TigadiDraw, TheSamePositionThreeTimesWithTheSamePlayerToMoveIsADraw) {
  Session s = position({"a1", "d7", "e4"}, {"c4", "b6", "f2"});
  const char* cycle[] = {"a1-a4", "c4-c3", "a4-a1", "c3-c4"};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(s.game().result(), nullptr) << "ply " << i;
    s.play(cycle[i % 4]);
  }
  // The given position counts as the first occurrence; after 8 plies it stands for the third time.
  EXPECT_EQ(s.state()["result"], (json{{"winners", json::array()}, {"reason", "repetition"}}));
}

TEST(TigadiDraw, RepetitionCountsOnlyFromTheEndOfPlacing) {
  // The last two placements make the position {a1 d7 e4} vs {c4 b6 f2}, Bone to move: the first position
  // counted. A four-ply shuffle brings it back twice; the draw comes exactly when it stands the third time.
  Session s = position({"a1", "d7"}, {"b6", "f2"}, 0, {1, 1});
  s.play("e4");
  s.play("c4");  // placing ends here
  EXPECT_EQ(s.state()["in_hand"], json::array({0, 0}));
  EXPECT_EQ(s.state()["quiet_plies"], 0);
  const char* cycle[] = {"a1-a4", "c4-c3", "a4-a1", "c3-c4"};
  for (int i = 0; i < 7; ++i) s.play(cycle[i % 4]);
  EXPECT_EQ(s.game().result(), nullptr) << "only the second occurrence so far";
  s.play(cycle[3]);
  EXPECT_EQ(s.state()["result"], (json{{"winners", json::array()}, {"reason", "repetition"}}));
}

TEST(TigadiDraw, OneHundredTurnsWithoutACaptureIsADraw) {
  Session s = position({"a1", "d7", "e4"}, {"c4", "b6", "f2"}, 0, {0, 0}, 98);
  s.play("a1-a4");
  EXPECT_EQ(s.state()["quiet_plies"], 99);
  EXPECT_EQ(s.game().result(), nullptr);
  s.play("c4-c3");
  EXPECT_EQ(s.state()["result"], (json{{"winners", json::array()}, {"reason", "no-capture-100"}}));
}

TEST(TigadiDraw, ACaptureRestartsTheHundredTurnCount) {
  Session s = position({"d1", "g1", "a4"}, {"c4", "b6", "f6", "e5"}, 0, {0, 0}, 99);
  s.play("a4-a1xb6");
  EXPECT_EQ(s.state()["quiet_plies"], 0);
  EXPECT_EQ(s.game().result(), nullptr);
}

TEST(TigadiDraw, BothCountersStartOnlyOnceEveryGotiIsPlaced) {
  Session s = Session::create("tigadi", json::object());
  const char* order[] = {"a4", "a1", "b6", "a7", "c3", "b2", "d1", "c5", "d2",
                         "d5", "d7", "d6", "e4", "f6", "f4", "g4", "g1", "g7"};
  for (const char* p : order) {
    s.play(p);
    EXPECT_EQ(s.state()["quiet_plies"], 0);
  }
  s.play(s.legal().front());
  EXPECT_EQ(s.state()["quiet_plies"], 1);
}

TEST(TigadiDraw, RepetitionIsJudgedBeforeTheHundredTurnDraw) {
  Session s = position({"a1", "d7", "e4"}, {"c4", "b6", "f2"}, 0, {0, 0}, 92);
  const char* cycle[] = {"a1-a4", "c4-c3", "a4-a1", "c3-c4"};
  for (int i = 0; i < 8; ++i) s.play(cycle[i % 4]);
  EXPECT_EQ(s.state()["quiet_plies"], 100);
  EXPECT_EQ(s.state()["result"]["reason"], "repetition");
}

// --- State, notation, sessions -----------------------------------------------------------------------

TEST(TigadiState, AGivenStateIsRefusedWhenASideHasMoreThanNineGotis) {
  EXPECT_THROW(position({"a1", "d1", "g1"}, {"c4"}, 0, {7, 3}), GameError);
  EXPECT_THROW(Session::from_state("tigadi", json{{"in_hand", {10, 0}}}), GameError);
}

TEST(TigadiState, AGivenStateWithAnyHandsIsAccepted) {
  Session s = position({"a1"}, {"c4"}, 1, {3, 8});
  EXPECT_EQ(s.state()["in_hand"], json::array({3, 8}));
  EXPECT_EQ(s.state()["to_move"], 1);
}

TEST(TigadiState, MalformedStatesAreRefusedWithAReason) {
  for (const json& bad : {json{{"board", {{"z9", "0G"}}}}, json{{"board", {{"a1", "0M"}}}},
                          json{{"to_move", 2}}, json{{"in_hand", {1}}}, json{{"colour", 1}},
                          json{{"options", {{"flying", true}}}}, json{{"phase", "setup"}},
                          json{{"phase", "over"}}, json{{"quiet_plies", 100}}, json::array()}) {
    EXPECT_THROW(Session::from_state("tigadi", bad), GameError) << bad.dump();
  }
  // Two gotis left: that game is already decided (docs/rulings.md).
  EXPECT_THROW(position({"a1", "d1"}, {"c4", "e5", "g7"}), GameError);
}

TEST(TigadiState, OptionsAreEmptyAndUnknownKeysAreAnError) {
  EXPECT_NO_THROW(Session::create("tigadi", json::object()));
  EXPECT_THROW(Session::create("tigadi", json{{"flying", true}}), GameError);
}

TEST(TigadiState, StateJsonRoundTripKeepsTheLegalMoves) {
  Session s = position({"d1", "g1", "a4", "b6"}, {"c4", "f6", "e5", "a7"}, 1, {0, 0}, 17);
  Session t = Session::from_state("tigadi", s.state());
  EXPECT_EQ(t.state(), s.state());
  EXPECT_EQ(t.legal(), s.legal());
}

// The AI's quiescence search extends over exactly the moves is_capture names: every move that takes a
// goti (a placement or a slide that closes a line, written with "x"), and nothing else, pass included.
TEST(TigadiMove, IsCaptureIsTrueExactlyForMovesThatTakeAGoti) {
  int captures = 0, others = 0;
  auto check = [&](const Session& s) {
    MoveList moves;
    s.game().legal_moves(moves);
    ASSERT_FALSE(moves.empty());
    for (Move m : moves) {
      const std::string text = s.game().move_to_string(m);
      const bool takes = text.find('x') != std::string::npos;
      EXPECT_EQ(s.game().is_capture(m), takes) << text;
      EXPECT_EQ(s.game().is_capture(m), TigadiMove::capture(m) != TigadiMove::kNone && !TigadiMove::is_pass(m))
          << text;
      ++(takes ? captures : others);
    }
  };
  check(position({"a1", "d1"}, {"a7", "g7"}, 0, {7, 7}));                  // placing: g1 closes a line
  check(position({"d1", "g1", "a4"}, {"c4", "b6", "f6", "e5"}));           // sliding: a4-a1 closes a line
  check(position({"d1", "g1", "a4", "d6"}, {"c4", "b6", "f2", "e5"}, 1));  // sliding, Seed: nothing to take
  check(position({"a1", "d1", "g1"}, {"a4", "b2", "d2", "g4", "f2"}));     // blocked: only a pass
  check(position({"a1", "d7", "e4", "c4", "b6", "f2", "g4", "d2", "a7"}, {"c3", "e5", "g1"}, 0, {0, 6}));  // pass
  EXPECT_FALSE(Tigadi().is_capture(TigadiMove::pass()));
  EXPECT_TRUE(Tigadi().is_capture(TigadiMove::slide(7, 0, 13)));
  EXPECT_FALSE(Tigadi().is_capture(TigadiMove::place(2)));
  // The positions mean something: both kinds were met, placements and slides among the captures.
  EXPECT_GE(captures, 4);
  EXPECT_GE(others, 10);
}

TEST(TigadiNotation, MovesAreWrittenAsPlacementsSlidesCapturesAndPass) {
  Tigadi g;
  EXPECT_EQ(g.move_to_string(TigadiMove::place(parse_point("d1"))), "d1");
  EXPECT_EQ(g.move_to_string(TigadiMove::place(parse_point("d1"), parse_point("a4"))), "d1xa4");
  EXPECT_EQ(g.move_to_string(TigadiMove::slide(parse_point("d1"), parse_point("d2"))), "d1-d2");
  EXPECT_EQ(g.move_to_string(TigadiMove::slide(parse_point("d1"), parse_point("d2"), parse_point("g7"))),
            "d1-d2xg7");
  EXPECT_EQ(g.move_to_string(TigadiMove::pass()), "pass");
  Session s = Session::create("tigadi", json::object());
  for (const char* bad : {"", "D1", "d1 ", "d1-", "d1x", "z9", "d1-d2-d3", "passs", "b1"})
    EXPECT_THROW(s.play(bad), GameError) << bad;
  EXPECT_EQ(s.game().ply(), 0);
}

TEST(TigadiSession, ResignationEndsTheGameAndTheOtherPlayerWins) {
  Session s = Session::create("tigadi", json::object());
  s.play("d1");
  s.offer(1, "resign");
  EXPECT_EQ(s.state()["result"], (json{{"winners", {0}}, {"reason", "resignation"}}));
  EXPECT_THROW(s.play("a4"), GameError);
  EXPECT_THROW(s.offer(0, "draw"), GameError);
}

// Draw offers (shared rulings: draw by agreement in every two-player game) are tested for every such game in
// src/games/draw_offer_test.cpp.
TEST(TigadiSession, TigadiHasNoSetupAndNoOtherOffers) {
  Session s = Session::create("tigadi", json::object());
  EXPECT_THROW(s.offer(0, "stalemate"), GameError);
  EXPECT_THROW(s.setup(0, json::object()), GameError);
  EXPECT_EQ(s.actions().size(), 0u);
}

TEST(TigadiState, AStateWithGotisOnTheBoardButNoHandIsRefusedAHandIsNeverGuessed) {
  try {
    Session::from_state("tigadi", json{{"board", {{"a1", "0G"}, {"d1", "0G"}, {"g1", "0G"}, {"a7", "1G"},
                                                  {"d7", "1G"}, {"g7", "1G"}}}});
    ADD_FAILURE() << "a state without in_hand was accepted";
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::bad_request);
    EXPECT_NE(std::string(e.what()).find("in_hand"), std::string::npos) << e.what();
  }
  // An empty board without hands is the start (nothing to guess); with its hands, the same position plays.
  EXPECT_EQ(Session::from_state("tigadi", json{{"board", json::object()}}).state()["in_hand"], json::array({9, 9}));
  EXPECT_EQ(Session::from_state("tigadi", json{{"board", {{"a1", "0G"}, {"d1", "0G"}, {"g1", "0G"}, {"a7", "1G"},
                                                          {"d7", "1G"}, {"g7", "1G"}}},
                                               {"in_hand", {0, 0}}})
                .state()["in_hand"],
            json::array({0, 0}));
}

TEST(TigadiSession, ARecordReplaysToTheSameGame) {
  Session s = Session::create("tigadi", json::object());
  for (const char* m : {"a1", "a7", "d1", "g7", "g1xa7", "d7"}) s.play(m);
  s.offer(0, "resign");
  Session r = Session::from_record(s.record());
  EXPECT_EQ(r.state(), s.state());
  EXPECT_EQ(r.record(), s.record());
  EXPECT_EQ(s.record()["moves"], json::array({"a1", "a7", "d1", "g7", "g1xa7", "d7"}));
  EXPECT_EQ(s.record()["setups"], json::object());  // Tigadi has no setup phase
  EXPECT_EQ(s.record()["result"]["reason"], "resignation");
}

TEST(TigadiPerft, FromTheStartForDepthsOneToSix) {
  // Depths 1-4 are plain placements: 24·23·22·21. At depth 5 Bone's third goti can close one of the 20
  // lines (3! orders, 21·20 Seed placements), and each such sequence splits into 2 captures:
  // 24·23·22·21·20 + 20·6·420 = 5,150,880. Depth 6 was confirmed by an independent brute-force count
  // written in Python from notation.md's lines (docs/benchmarks.md); depths 3-4 are also checked against
  // the reference generator in tigadi_playout_test.cpp.
  const uint64_t expected[] = {1, 24, 552, 12144, 255024, 5150880, 99862272};
  Tigadi g;
  for (int d = 0; d <= 6; ++d) EXPECT_EQ(perft(g, d), expected[d]) << "depth " << d;
}

// --- Danger marks (Game::danger_for): not a rule, what the board points out to a player ------------------

json open_lines(const Session& s) { return s.game().danger_for(0); }

TEST(TigadiDanger, AnOpenLineASideCanCloseOnItsNextTurnIsMarked) {
  // Bone holds a1 and d1 with g1 empty; its goti g4 steps to g1 and closes a1-d1-g1.
  Session s = position({"a1", "d1", "g4"}, {"a7", "d7", "c5"}, 1);
  EXPECT_EQ(open_lines(s), json::array({json{{"square", "g1"}, {"player", 1}, {"why", "line-open"}, {"by", 0},
                                             {"line", {"a1", "d1", "g1"}}}}));
}

TEST(TigadiDanger, ALineNoGotiCanReachIsNotMarkedAndTheGotisOfTheLineDoNotCount) {
  // g1's neighbours are d1 (on the line itself) and g4 (empty): no Bone goti can fill it.
  Session s = position({"a1", "d1", "c5"}, {"a7", "d7", "e5"}, 1);
  EXPECT_EQ(open_lines(s), json::array());
  // While placing, any empty point can be filled from the hand.
  Session placing = position({"a1", "d1"}, {"a7"}, 1, {7, 8});
  EXPECT_EQ(open_lines(placing).size(), 1u);
  EXPECT_EQ(open_lines(placing)[0]["square"], "g1");
}

}  // namespace
}  // namespace tabula::tigadi
