// The four-player Game of Truth: one test per rule sentence that differs from the two-player game
// (shared/rules/truth-browser-edition.txt, shared/spec/rulings.md "The Game of Truth"). Everything the two
// games share is tested once, in truth_rules_test.cpp; here each position is built by hand as a notation.md
// state with "players": 4, played through the real Session, and the exact outcome asserted.
//
// Geometry: every square is open. Quadrants: Ivory (0) files a–h ranks 1–9, Jade (1) j–q 10–18, Ember (2)
// j–q 1–9, Indigo (3) a–h 10–18; file i is nobody's. Turn order 0, 1, 2, 3.
#include "core/session.h"
#include "core/testing.h"
#include "games/truth/testing.h"
#include "games/truth/truth.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tabula {
namespace {

using Pieces = std::vector<std::pair<std::string, std::string>>;
using namespace tabula::truth_testing;

// Every army in its outer corner: the icon in the corner (on the edge: it can be neither ringed nor reached
// from behind) and two doors on its back rank, so each army can make a turn (a door, then another door).
//   Ivory  a1 (doors c1 e1)     Jade   q18 (doors o18 m18)
//   Ember  q1 (doors o1 m1)     Indigo a18 (doors c18 e18)
const std::map<int, Pieces> kCorners = {
    {0, {{"a1", "0I"}, {"c1", "0D"}, {"e1", "0D"}}},
    {1, {{"q18", "1I"}, {"o18", "1D"}, {"m18", "1D"}}},
    {2, {{"q1", "2I"}, {"o1", "2D"}, {"m1", "2D"}}},
    {3, {{"a18", "3I"}, {"c18", "3D"}, {"e18", "3D"}}},
};
// One complete turn from the corners for each army (its two doors step forward).
const std::map<int, std::pair<std::string, std::string>> kCornerTurn = {
    {0, {"c1-d2", "e1-f2"}}, {1, {"o18-n17", "m18-l17"}}, {2, {"o1-n2", "m1-l2"}}, {3, {"c18-d17", "e18-f17"}}};

// A four-player state in play: `pieces`, and the corner pieces of every army not in `bare_armies`, with the
// given fields (to_move, ply, scores, …). Ivory to move at ply 0 unless said otherwise.
json four(const Pieces& pieces, const json& extra = json::object(), const std::set<int>& bare_armies = {}) {
  json board = json::object();
  for (const auto& [army, corner] : kCorners) {
    if (bare_armies.count(army)) continue;
    const std::string icon = std::to_string(army) + "I";
    const bool own_icon = std::any_of(pieces.begin(), pieces.end(), [&](const auto& p) { return p.second == icon; });
    for (const auto& [sq, pc] : corner)
      if (!(own_icon && pc == icon)) board[sq] = pc;
  }
  for (const auto& [sq, pc] : pieces) board[sq] = pc;
  json state = {{"game", "truth"}, {"options", {{"players", 4}}}, {"phase", "play"}, {"to_move", 0}, {"ply", 0},
                {"board", board}};
  for (auto it = extra.begin(); it != extra.end(); ++it) state[it.key()] = *it;
  return state;
}
Session at(const Pieces& pieces, const json& extra = json::object(), const std::set<int>& bare_armies = {}) {
  return Session::from_state("truth", four(pieces, extra, bare_armies));
}

void corner_turn(Session& s) {
  const auto& [a, b] = kCornerTurn.at(s.state().at("to_move").get<int>());
  turn(s, a, b);
}

// In which army's quadrant a square is (-1: file i).
int quadrant(const std::string& sq) {
  const int f = sq[0] - 'a', r = std::stoi(sq.substr(1));
  if (f == 8) return -1;
  const bool west = f < 8, south = r <= 9;
  return south ? (west ? 0 : 2) : (west ? 3 : 1);
}

// ============================================================================================================
// Prepare the board
// ============================================================================================================

// "In four-player play, all squares are open": a door steps onto squares that are black in the two-player
// game (d4 and its diagonal neighbours are all black there), and a state may use them.
TEST(TruthFour, AllSquaresAreOpen) {
  Session s = at({{"d4", "0D"}});
  EXPECT_EQ(dests(s, "d4"), (Set{"c3", "e3", "c5", "e5"}));
  s.play("d4-e5");
  EXPECT_EQ(piece_at(s, "e5"), "0D");
  // The same square is closed in the two-player game.
  json two = four({{"d4", "0D"}});
  two["options"]["players"] = 2;
  two["board"] = json{{"d4", "0D"}, {"b1", "0I"}, {"c18", "1I"}};
  EXPECT_THROW(Session::from_state("truth", two), GameError);
}

// "each army starts in a corner: Ivory southwest, Jade northeast, Ember southeast, Indigo northwest.
// The middle column is neutral territory." Setups are made in the army's own quadrant; file i is nobody's.
TEST(TruthFour, EachArmySetsUpInItsOwnCornerQuadrantAndNotOnFileI) {
  Session s = Session::create("truth", {{"players", 4}});
  for (Player p = 0; p < 4; ++p) {
    const json suggested = s.game().arrangement(p, "suggested", 0);
    const json random = s.game().arrangement(p, "random", 7 + static_cast<uint64_t>(p));
    for (const json* placement : {&suggested, &random}) {
      ASSERT_EQ(placement->size(), 41u);
      std::map<std::string, int> counts;
      for (auto it = placement->begin(); it != placement->end(); ++it) {
        EXPECT_EQ(quadrant(it.key()), p) << it.key();
        ++counts[it->get<std::string>()];
      }
      EXPECT_EQ(counts, (std::map<std::string, int>{{"D", 20}, {"L", 10}, {"N", 5}, {"S", 3}, {"G", 2}, {"I", 1}}));
    }
  }
  // Ivory's suggested army moved one quadrant east (files +9: a–h to j–q) is Ember's ground, and moved by one
  // file it touches file i: both refused with a reason naming Ivory's quadrant, and nothing changes.
  const json ivory = s.game().arrangement(0, "suggested", 0);
  json east = json::object(), onto_i = json::object();
  for (auto it = ivory.begin(); it != ivory.end(); ++it) {
    const int f = it.key()[0] - 'a';
    const std::string rank = it.key().substr(1);
    east[std::string(1, static_cast<char>('a' + f + 9)) + rank] = *it;
    onto_i[std::string(1, static_cast<char>('a' + f + 1)) + rank] = *it;
  }
  for (const json* bad : {&east, &onto_i}) {
    try {
      s.setup(0, *bad);
      ADD_FAILURE() << "accepted";
    } catch (const GameError& e) {
      EXPECT_NE(std::string(e.what()).find("files a to h, ranks 1 to 9"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(s.setup(1, ivory), GameError);  // Ivory's squares are not Jade's
  EXPECT_EQ(s.state().at("ready"), json::array());
  EXPECT_TRUE(board(s).empty());
}

// "setups in the quadrant, blind": each seat sees its own army only and spectators none, until all four are
// in; then they are revealed together and play begins with Ivory.
TEST(TruthFour, SetupsAreHiddenFromTheOtherThreeUntilAllFourAreRevealedTogether) {
  Session s = Session::create("truth", {{"players", 4}});
  for (Player p = 0; p < 4; ++p) {
    EXPECT_TRUE(s.game().hidden_information());
    s.setup_arrangement(p, p % 2 ? "random" : "suggested", 11 + static_cast<uint64_t>(p));
    for (Player viewer = -1; viewer < 4; ++viewer) {
      const json seen = s.observation(viewer).at("board");
      if (p == 3) {
        EXPECT_EQ(seen, board(s)) << viewer;  // every army, to everyone
        continue;
      }
      for (auto it = seen.begin(); it != seen.end(); ++it)
        EXPECT_EQ(it->get<std::string>()[0] - '0', viewer) << "viewer " << viewer << " sees " << it.key();
      EXPECT_EQ(seen.size(), viewer >= 0 && viewer <= p ? 41u : 0u) << viewer;
    }
  }
  EXPECT_FALSE(s.game().hidden_information());
  EXPECT_EQ(s.state().at("phase"), "play");
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_EQ(s.state().at("ready"), json::parse("[0,1,2,3]"));
}

// The suggested arrangements (rulings: "must be legal and must not lose material or an icon at the start
// against the suggested arrangements of the others"): all four meet without a loss, and no first action of
// Ivory's takes anything or ends the game (every icon's diagonal neighbours hold its own pieces). AI seats
// set up with them whatever their seed (a mirror image within the quadrant would open the guardians to the
// next quadrant's first move).
TEST(TruthFour, TheSuggestedArrangementsMeetWithoutLossAndNoFirstActionTakesAnything) {
  Session s = Session::create("truth", {{"players", 4}});
  for (Player p = 0; p < 4; ++p) {
    for (uint64_t seed : {0, 1, 2, 3}) EXPECT_EQ(s.game().ai_arrangement(p, seed), s.game().arrangement(p, "suggested", 0));
    s.setup_arrangement(p, "suggested", 0);
  }
  ASSERT_EQ(s.state().at("phase"), "play");
  EXPECT_EQ(board(s).size(), 164u);
  EXPECT_EQ(s.state().at("scores"), json::parse("[0,0,0,0]"));
  for (const std::string& m : s.legal()) {
    Session t = s.clone();
    t.play(m);
    EXPECT_EQ(board(t).size(), 164u) << m;
    EXPECT_EQ(t.state().at("phase"), "play") << m;
  }
}

// ============================================================================================================
// Take a turn
// ============================================================================================================

// "Ivory begins. Turns then pass to Jade, and in a four-player game to Ember and Indigo."
TEST(TruthFour, TurnsPassFromIvoryToJadeToEmberToIndigo) {
  Session s = at({});
  for (int expected : {0, 1, 2, 3}) {
    EXPECT_EQ(s.state().at("to_move"), expected);
    corner_turn(s);
  }
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_EQ(s.state().at("ply"), 4);
}

// ============================================================================================================
// Move the six kinds: the icon's step and the neutral file
// ============================================================================================================

// "Icon: Move exactly two squares diagonally when starting in your territory, or exactly one when starting
// outside it." With four players the territory is the quadrant and file i is nobody's (in the two-player
// game i5 would be Ivory's).
TEST(TruthFour, TheIconStepsTwoInItsQuadrantAndOneOnFileIOrInAnotherQuadrant) {
  EXPECT_EQ(dests(at({{"e5", "0I"}}), "e5"), (Set{"c3", "g3", "c7", "g7"}));
  EXPECT_EQ(dests(at({{"i5", "0I"}}), "i5"), (Set{"h4", "j4", "h6", "j6"}));
  EXPECT_EQ(dests(at({{"m5", "0I"}}), "m5"), (Set{"l4", "n4", "l6", "n6"}));
  // Jade's icon in its own quadrant steps two.
  EXPECT_EQ(dests(at({{"m14", "1I"}}, {{"to_move", 1}, {"ply", 1}}), "m14"), (Set{"k12", "o12", "k16", "o16"}));
}

// ============================================================================================================
// Destroy an icon: the shared victory
// ============================================================================================================

// "The first icon destruction ends the game. With four players, the surviving players share the victory;
// there is no continued elimination phase."
TEST(TruthFour, TheFirstIconDestroyedEndsTheGameAndEverySurvivorSharesTheVictory) {
  // Ivory's lantern h9 slides up the long diagonal to p17, beside Jade's icon q18.
  Session s = at({{"h9", "0L"}});
  const std::vector<Event> ev = s.play("h9-p17");
  EXPECT_EQ(captures(ev), (Caps{"q18 1I by0 100 burn"}));
  expect_over(s, json::parse("[0,2,3]"), "icon-destroyed");
  EXPECT_EQ(s.state().at("scores"), json::parse("[100,0,0,0]"));
}

// "If simultaneous effects destroy every icon, the result is a draw." And when some but not all fall at
// once, the armies whose icons stand share the victory.
TEST(TruthFour, EveryIconDestroyedAtOnceIsADrawAndSomeAtOnceLeaveTheRestSharing) {
  // A state is read whole by its next action (rulings: nothing is resolved on loading): every icon stands
  // beside a lantern of another army, so Ivory's door action burns all four.
  Session all = at({{"b2", "1L"}, {"p17", "2L"}, {"p2", "3L"}, {"b17", "0L"}});
  all.play("c1-d2");
  expect_over(all, json::array(), "all-icons-destroyed");
  EXPECT_EQ(all.state().at("scores"), json::parse("[100,100,100,100]"));
  // Only Jade's and Ember's icons burn: Ivory and Indigo share the victory.
  Session some = at({{"p17", "3L"}, {"p2", "0L"}});
  some.play("c1-d2");
  expect_over(some, json::parse("[0,3]"), "icon-destroyed");
}

// "Place hostile doors on all four diagonal neighbors of an icon" + rulings "Four-player rings may contain
// pieces from several hostile armies": a ring of Jade's, Ember's and Indigo's doors destroys Ivory's icon at
// the end of its owner's second turn, credited to the lowest-numbered army among the ring's owners.
TEST(TruthFour, ARingOfSeveralArmiesBesiegesAndItsIconFallsToTheFirstArmyInOrder) {
  Session s = at({{"e5", "0I"}, {"d4", "2D"}, {"f4", "1D"}, {"d6", "3D"}, {"f6", "2D"}}, {{"sieges", {{"e5", 1}}}});
  EXPECT_EQ(s.state().at("sieges"), json::parse(R"({"e5":1})"));
  const std::vector<Event> ev = turn(s, "c1-d2", "e1-f2");
  EXPECT_EQ(captures(ev), (Caps{"e5 0I by1 100 siege"}));
  expect_over(s, json::parse("[1,2,3]"), "icon-destroyed");
}

// ============================================================================================================
// Enclosures, contacts and credit
// ============================================================================================================

// "Four hostile doors surrounding a lantern destroy it immediately" with doors of several armies; "If more
// than one army causes the same simultaneous loss, points go to the first qualifying attacker in the fixed
// army order": Ember closes the enclosure, Jade (first in order among the enclosers) gets the point.
TEST(TruthFour, AnEnclosureOfSeveralArmiesCreditsTheFirstEncloserInArmyOrderNotTheMover) {
  Session s = at({{"e5", "0L"}, {"d4", "1D"}, {"f4", "2D"}, {"d6", "3D"}, {"g7", "2D"}}, {{"to_move", 2}, {"ply", 2}});
  const std::vector<Event> ev = s.play("g7-f6");
  EXPECT_EQ(captures(ev), (Caps{"e5 0L by1 1 enclosure"}));
  EXPECT_EQ(s.state().at("scores"), json::parse("[0,1,0,0]"));
}

// The same for a contact: Indigo's guardian steps beside Ember's door, which Jade's guardian touches too; the
// loss is Jade's point, the mover's army coming later in the order.
TEST(TruthFour, AContactByTwoArmiesCreditsTheFirstInArmyOrder) {
  Session s = at({{"d11", "2D"}, {"c12", "1G"}, {"g14", "3G"}, {"e14", "3I"}}, {{"to_move", 3}, {"ply", 3}});
  const std::vector<Event> ev = s.play("g14-e12");
  EXPECT_EQ(captures(ev), (Caps{"d11 2D by1 1 contact"}));
}

// "No player receives points for their own loss", and any icon destroys a crossing linesman, credited to
// the icon's owner: Jade's linesman jumping Ember's icon gives Ember the points, jumping its own gives none.
TEST(TruthFour, ALinesmanCrossingAnotherArmysIconCreditsThatArmyAndItsOwnIconNobody) {
  Session other = at({{"k5", "1N"}, {"l5", "2I"}}, {{"to_move", 1}, {"ply", 1}});
  EXPECT_EQ(captures(other.play("k5-m5")), (Caps{"m5 1N by2 5 crossing"}));
  EXPECT_EQ(other.state().at("scores"), json::parse("[0,0,5,0]"));
  Session own = at({{"n14", "1N"}, {"o14", "1I"}}, {{"to_move", 1}, {"ply", 1}});
  EXPECT_EQ(captures(own.play("n14-p14")), (Caps{"p14 1N by- 0 crossing"}));
  EXPECT_EQ(own.state().at("scores"), json::parse("[0,0,0,0]"));
}

// ============================================================================================================
// When the light and doors are gone
// ============================================================================================================

// "In four-player play, an army transforms as soon as it has lost all of its own [doors and lanterns]. The
// transformation activates at the end of the turn": Ivory's linesman takes Ember's last lantern in Ivory's
// first action; Ember transforms at the end of that turn, alone (the others keep theirs).
TEST(TruthFour, AnArmyTransformsAloneAtTheEndOfTheTurnItLostItsLastDoorOrLantern) {
  Session s = at({{"q1", "2I"}, {"n5", "2L"}, {"m5", "0N"}, {"p2", "2N"}, {"o3", "2G"}}, json::object(), {2});
  std::vector<Event> ev = s.play("m5-o5");
  EXPECT_EQ(captures(ev), (Caps{"n5 2L by0 1 crossing"}));
  EXPECT_EQ(s.state().at("transformed"), json::array());  // not within the turn
  ev = s.play("c1-d2");
  const auto transforms = of_type(ev, "transform");
  ASSERT_EQ(transforms.size(), 1u);
  EXPECT_EQ(transforms[0].at("player"), 2);
  EXPECT_EQ(s.state().at("transformed"), json::array({2}));
  // Jade's turn, then Ember's: its linesman now makes the door action, its guardian slides as a lantern.
  corner_turn(s);
  EXPECT_EQ(s.state().at("to_move"), 2);
  EXPECT_TRUE(dests(s, "p2").count("p4"));
  EXPECT_TRUE(dests(s, "o3").count("i9"));  // six squares up the diagonal: a lantern-guardian's slide
}

// ============================================================================================================
// Score and stalemate
// ============================================================================================================

// "If every player has no complete legal turn for a full cycle, the engine ends the game by score": with four
// players the cycle is four passes (three are not enough); the players with the top score share the win.
TEST(TruthFour, ABlockedCycleIsFourPassesAndTheTopScoresShareTheWin) {
  // Icons and lantern-guardians only (every army transformed, so no transformation resets the count):
  // nobody can make the door action.
  Session s = at({{"a1", "0I"}, {"b2", "0G"}, {"q18", "1I"}, {"p17", "1G"}, {"q1", "2I"}, {"p2", "2G"},
                  {"a18", "3I"}, {"b17", "3G"}},
                 {{"scores", {0, 5, 5, 1}}, {"transformed", {0, 1, 2, 3}}}, {0, 1, 2, 3});
  for (int p = 0; p < 3; ++p) {
    EXPECT_EQ(s.legal(), std::vector<std::string>{"pass"}) << p;
    s.play("pass");
    expect_on(s);
  }
  EXPECT_EQ(s.state().at("blocked_turns"), 3);
  s.play("pass");
  expect_over(s, json::parse("[1,2]"), "blocked-cycle");
}

// Automatic stalemate (rulings): no lantern and no guardian on the board, and every standing icon faces fewer
// than four door-role pieces of the other armies taken together, checked at the end of each round (after
// Indigo's turn). Each icon here faces three doors, one from each other army; with a fourth it does not end.
TEST(TruthFour, TheAutomaticStalemateCountsTheOtherArmiesTogetherAtTheRoundsEnd) {
  const Pieces lone_doors = {{"a1", "0I"}, {"c1", "0D"}, {"q18", "1I"}, {"o18", "1D"},
                             {"q1", "2I"}, {"o1", "2D"}, {"a18", "3I"}, {"c18", "3D"}};
  const std::vector<std::pair<std::string, std::string>> turns = {
      {"c1-d2", "a1-c3"}, {"o18-n17", "q18-o16"}, {"o1-n2", "q1-o3"}, {"c18-d17", "a18-c16"}};
  Session s = at(lone_doors, {{"scores", {3, 0, 0, 0}}}, {0, 1, 2, 3});
  for (int p = 0; p < 4; ++p) {
    expect_on(s);
    turn(s, turns[static_cast<size_t>(p)].first, turns[static_cast<size_t>(p)].second);
  }
  expect_over(s, json::array({0}), "stalemate");
  // A second Indigo door: Ivory's icon faces four (Jade's, Ember's and two of Indigo's), so play goes on.
  Pieces more = lone_doors;
  more.emplace_back("e18", "3D");
  Session t = at(more, json::object(), {0, 1, 2, 3});
  for (int p = 0; p < 4; ++p) turn(t, turns[static_cast<size_t>(p)].first, turns[static_cast<size_t>(p)].second);
  expect_on(t);
}

// "Strategic stalemate … requires agreement at the table … The agreed stalemate takes effect at the end of
// the current round" + rulings "agreement needs every player whose icon stands": three agreeing end nothing;
// once the fourth agrees, the game ends at the next round's end.
TEST(TruthFour, TheScoredStalemateNeedsAllFourAndTakesEffectAtTheRoundsEnd) {
  Session s = at({{"h5", "0L"}}, {{"scores", {0, 2, 0, 2}}});
  for (Player p : {0, 1, 2}) s.offer(p, "stalemate");
  for (int t = 0; t < 4; ++t) corner_turn(s);
  expect_on(s);
  EXPECT_EQ(s.state().at("stalemate_agreed"), json::parse("[0,1,2]"));
  s.offer(3, "stalemate");
  const std::vector<std::pair<std::string, std::string>> second_round = {
      {"d2-e3", "f2-g3"}, {"n17-m16", "l17-k16"}, {"n2-m3", "l2-k3"}};
  for (const auto& [a, b] : second_round) {
    turn(s, a, b);
    expect_on(s);
  }
  turn(s, "d17-e16", "f17-g16");
  expect_over(s, json::parse("[1,3]"), "scored-stalemate");
}

// Common rules: a player who resigns loses and, with four, the other three share the victory.
TEST(TruthFour, AResignationLeavesTheOtherThreeSharingTheVictory) {
  Session s = at({});
  s.offer(2, "resign");
  expect_over(s, json::parse("[0,1,3]"), "resignation");
}

}  // namespace
}  // namespace tabula
