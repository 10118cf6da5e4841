// One test per rule of shared/rules/stratego-gameplay.txt and the Stratego rulings, each on a position built
// by hand. Test names follow the rule they check.
#include "core/session.h"
#include "core/testing.h"
#include "games/stratego/stratego.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>

namespace tabula::stratego {
namespace {

using testing::illegal_reason;
using testing::legal_set;

// A position in play: pieces as "0M" etc. by square; Red to move unless told.
Session position(const json& board, int to_move = 0, json options = json::object(), json extra = json::object()) {
  json state = json{{"board", board}, {"to_move", to_move}, {"options", options}};
  for (auto it = extra.begin(); it != extra.end(); ++it) state[it.key()] = *it;
  return Session::from_state("stratego", state);
}

// The legal moves starting on one square.
std::set<std::string> moves_from(const Session& s, const std::string& sq) {
  std::set<std::string> out;
  for (const std::string& m : s.legal())
    if (m.substr(0, m.find('-')) == sq) out.insert(m);
  return out;
}

const json& last_event_of(const std::vector<Event>& events, const std::string& type) {
  for (auto it = events.rbegin(); it != events.rend(); ++it)
    if (it->full.at("type") == type) return it->full;
  static const json none;
  ADD_FAILURE() << "no " << type << " event";
  return none;
}

// Both armies standing far apart so neither side runs out of moves: a Red and a Blue Sergeant in corners.
json with_spare(json board) {
  if (!board.contains("a1")) board["a1"] = "0T";
  if (!board.contains("j10")) board["j10"] = "1T";
  return board;
}

json named(Player p, const std::string& name) { return Stratego().arrangement(p, name, 0); }

Session set_up(const std::string& red = "corner-fortress", const std::string& blue = "cyclone-defense",
               json options = json::object()) {
  Session s = Session::create("stratego", options);
  s.setup(0, named(0, red));
  s.setup(1, named(1, blue));
  return s;
}

// --- Board and pieces --------------------------------------------------------------------------------

TEST(StrategoBoard, TenByTenWithTwoLakesOfFourSquares) {
  int lakes = 0;
  for (int sq = 0; sq < kSquares; ++sq) lakes += is_lake(sq);
  EXPECT_EQ(lakes, 8);
  for (const char* s : {"c5", "d5", "c6", "d6", "g5", "h5", "g6", "h6"}) EXPECT_TRUE(is_lake(parse_square(s))) << s;
  EXPECT_EQ(parse_square("a1"), 0);
  EXPECT_EQ(parse_square("j10"), 99);
  EXPECT_EQ(parse_square("k1"), kNoSquare);
  EXPECT_EQ(parse_square("a11"), kNoSquare);
  EXPECT_EQ(parse_square("a01"), kNoSquare);
}

TEST(StrategoBoard, ArmyHasFortyPiecesOfTwelveKinds) {
  EXPECT_EQ(kArmy[kMarshal], 1);
  EXPECT_EQ(kArmy[kGeneral], 1);
  EXPECT_EQ(kArmy[kColonel], 2);
  EXPECT_EQ(kArmy[kMajor], 3);
  EXPECT_EQ(kArmy[kCaptain], 4);
  EXPECT_EQ(kArmy[kLieutenant], 4);
  EXPECT_EQ(kArmy[kSergeant], 4);
  EXPECT_EQ(kArmy[kMiner], 5);
  EXPECT_EQ(kArmy[kScout], 8);
  EXPECT_EQ(kArmy[kSpy], 1);
  EXPECT_EQ(kArmy[kBomb], 6);
  EXPECT_EQ(kArmy[kFlag], 1);
}

// --- Setup ---------------------------------------------------------------------------------------------

TEST(StrategoSetup, RedFillsRanksOneToFourAndBlueSevenToTen) {
  Session s = set_up();
  const json board = s.state().at("board");
  EXPECT_EQ(board.size(), 80u);
  for (auto it = board.begin(); it != board.end(); ++it) {
    const int sq = parse_square(it.key());
    EXPECT_TRUE(in_home(it->get<std::string>()[0] - '0', sq)) << it.key();
  }
  EXPECT_EQ(s.state().at("phase"), "play");
  EXPECT_EQ(s.state().at("to_move"), 0);
}

TEST(StrategoSetup, SetupOnAnotherPlayersRanksIsRefused) {
  Session s = Session::create("stratego", {});
  EXPECT_THROW(s.setup(0, named(1, "blitzkrieg")), GameError);
  EXPECT_EQ(s.state().at("board").size(), 0u);
}

TEST(StrategoSetup, SetupWithWrongCountsIsRefusedWithTheCount) {
  Session s = Session::create("stratego", {});
  json p = named(0, "blitzkrieg");
  p["a1"] = p["a1"] == "M" ? "G" : "M";  // one Marshal too many or too few
  try {
    s.setup(0, p);
    FAIL();
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::illegal);
    EXPECT_NE(std::string(e.what()).find("a setup has"), std::string::npos) << e.what();
  }
  json short_one = named(0, "blitzkrieg");
  short_one.erase("a1");
  EXPECT_THROW(s.setup(0, short_one), GameError);
  json digit = named(0, "blitzkrieg");
  digit["a1"] = "0" + digit["a1"].get<std::string>();
  EXPECT_THROW(s.setup(0, digit), GameError);
  EXPECT_THROW(s.setup(0, json::array()), GameError);
  EXPECT_TRUE(s.state().at("ready").empty());
}

TEST(StrategoSetup, SetupMayBeReplacedUntilTheOtherArmyIsIn) {
  Session s = Session::create("stratego", {});
  s.setup(0, named(0, "blitzkrieg"));
  s.setup(0, named(0, "corner-fortress"));
  EXPECT_EQ(s.state().at("board").at("a1"), "0F");
  EXPECT_EQ(s.state().at("board").size(), 40u);
  s.setup(1, named(1, "blitzkrieg"));
  EXPECT_EQ(s.state().at("phase"), "play");
  try {
    s.setup(0, named(0, "blitzkrieg"));
    FAIL();
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::conflict);
  }
}

TEST(StrategoSetup, NoMoveIsLegalUntilBothArmiesAreSetUp) {
  Session s = Session::create("stratego", {});
  s.setup(0, named(0, "blitzkrieg"));
  EXPECT_TRUE(s.legal().empty());
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_THROW(s.play("a4-a5"), GameError);
}

TEST(StrategoSetup, SetupsAreMadeWithoutSeeingTheOtherSide) {
  Session s = Session::create("stratego", {});
  s.setup(0, named(0, "blitzkrieg"));
  EXPECT_EQ(s.observation(0).at("board").size(), 40u);
  EXPECT_EQ(s.observation(1).at("board").size(), 0u);
  EXPECT_EQ(s.observation(kSpectator).at("board").size(), 0u);
  EXPECT_EQ(s.observation(1).at("ready"), json::array({0}));  // that Red is ready is public
  for (const json& e : s.events_for(1)) EXPECT_FALSE(e.contains("placement"));
}

TEST(StrategoSetup, RandomSetupIsLegalAndReproducibleFromItsSeed) {
  Stratego g;
  for (Player p : {0, 1})
    for (uint64_t seed : {1u, 2u, 99u}) {
      Stratego fresh;
      EXPECT_NO_THROW(fresh.setup(p, g.arrangement(p, "random", seed), nullptr));
      EXPECT_EQ(g.arrangement(p, "random", seed), g.arrangement(p, "random", seed));
    }
  EXPECT_NE(g.arrangement(0, "random", 1), g.arrangement(0, "random", 2));
  // The Flag stands on the back rank.
  for (uint64_t seed = 0; seed < 50; ++seed) {
    json r = g.arrangement(1, "random", seed);
    for (auto it = r.begin(); it != r.end(); ++it)
      if (*it == "F") {
        EXPECT_EQ(rank_of(parse_square(it.key())), 10);
      }
  }
}

TEST(StrategoSetup, NamedSetupsAreLegalForBothSeatsAndMirrorForBlue) {
  EXPECT_GE(Stratego::named_arrangements().size(), 3u);
  for (const std::string& name : Stratego::named_arrangements()) {
    Stratego g;
    EXPECT_NO_THROW(g.setup(0, g.arrangement(0, name, 0), nullptr)) << name;
    EXPECT_NO_THROW(g.setup(1, g.arrangement(1, name, 0), nullptr)) << name;
    // Blue's is Red's turned half a turn: a1 <-> j10.
    json red = g.arrangement(0, name, 0), blue = g.arrangement(1, name, 0);
    for (auto it = red.begin(); it != red.end(); ++it) {
      const int sq = parse_square(it.key());
      EXPECT_EQ(blue.at(square_name(kSquares - 1 - sq)), *it);
    }
  }
  EXPECT_THROW(Stratego().arrangement(0, "no-such-setup", 0), GameError);
}

// --- Taking a turn --------------------------------------------------------------------------------------

TEST(StrategoTurn, APlayerMayNotPass) {
  Session s = set_up();
  for (const std::string& m : s.legal()) EXPECT_NE(m, "pass");
  EXPECT_THROW(s.play("pass"), GameError);
}

// --- Ordinary movement -----------------------------------------------------------------------------------

TEST(StrategoMovement, OrdinaryPiecesMoveExactlyOneSquareHorizontallyOrVertically) {
  for (const char* kind : {"M", "G", "C", "J", "P", "L", "T", "N", "S"}) {
    Session s = position(with_spare({{"e3", std::string("0") + kind}}));
    EXPECT_EQ(moves_from(s, "e3"), (std::set<std::string>{"e3-d3", "e3-e2", "e3-e4", "e3-f3"})) << kind;
  }
}

TEST(StrategoMovement, PiecesMayNotMoveDiagonally) {
  Session s = position(with_spare({{"e3", "0M"}}));
  EXPECT_NE(illegal_reason(s, "e3-f4").find("diagonal"), std::string::npos);
}

TEST(StrategoMovement, APieceMayNotEnterASquareHeldByAFriendlyPiece) {
  Session s = position(with_spare({{"e3", "0M"}, {"e4", "0G"}}));
  EXPECT_EQ(moves_from(s, "e3").count("e3-e4"), 0u);
  EXPECT_NE(illegal_reason(s, "e3-e4").find("your own"), std::string::npos);
}

TEST(StrategoMovement, APieceMayNotJumpOrMoveThroughALake) {
  Session s = position(with_spare({{"c4", "0M"}, {"e4", "0J"}}));
  EXPECT_EQ(moves_from(s, "c4"), (std::set<std::string>{"c4-b4", "c4-c3", "c4-d4"}));
  EXPECT_NE(illegal_reason(s, "c4-c5").find("lake"), std::string::npos);
  EXPECT_NE(illegal_reason(s, "c4-c7").find("one square"), std::string::npos);
}

TEST(StrategoMovement, TheFlagAndBombsNeverMove) {
  Session s = position(with_spare({{"e3", "0F"}, {"f3", "0B"}}));
  EXPECT_TRUE(moves_from(s, "e3").empty());
  EXPECT_TRUE(moves_from(s, "f3").empty());
  EXPECT_NE(illegal_reason(s, "f3-f4").find("Bomb never moves"), std::string::npos);
  EXPECT_NE(illegal_reason(s, "e3-e4").find("Flag never moves"), std::string::npos);
}

TEST(StrategoMovement, APieceOfTheOtherPlayerCannotBeMoved) {
  Session s = position(with_spare({{"e3", "0M"}, {"e8", "1B"}}));
  const std::string why = illegal_reason(s, "e8-e7");
  EXPECT_NE(why.find("not yours"), std::string::npos);
  EXPECT_EQ(why.find("Bomb"), std::string::npos) << "the reason must not name an enemy identity";
}

// --- Scout movement ----------------------------------------------------------------------------------------

TEST(StrategoScout, AScoutMovesAnyNumberOfVacantSquaresLikeARook) {
  Session s = position(with_spare({{"e2", "0O"}}));
  std::set<std::string> expected;
  for (const char* t : {"e1", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10", "a2", "b2", "c2", "d2", "f2", "g2",
                        "h2", "i2", "j2"})
    expected.insert(std::string("e2-") + t);
  EXPECT_EQ(moves_from(s, "e2"), expected);
}

TEST(StrategoScout, AScoutMayNotJumpAPieceOrCrossALake) {
  Session s = position(with_spare({{"e2", "0O"}, {"e5", "0T"}, {"c2", "0O"}}));
  const auto m = moves_from(s, "e2");
  EXPECT_TRUE(m.count("e2-e4"));
  EXPECT_FALSE(m.count("e2-e6"));
  EXPECT_FALSE(m.count("e2-b2"));
  EXPECT_NE(illegal_reason(s, "e2-e6").find("jump"), std::string::npos);
  const auto c = moves_from(s, "c2");
  EXPECT_TRUE(c.count("c2-c4"));
  EXPECT_FALSE(c.count("c2-c5"));
  EXPECT_FALSE(c.count("c2-c7"));
  EXPECT_NE(illegal_reason(s, "c2-c7").find("lake"), std::string::npos);
}

TEST(StrategoScout, AScoutMayAttackAtTheEndOfALongMoveWhenThePathIsClear) {
  Session s = position(with_spare({{"e2", "0O"}, {"e8", "1T"}, {"a8", "1S"}, {"b8", "1J"}}));
  const auto m = moves_from(s, "e2");
  EXPECT_TRUE(m.count("e2-e8"));
  EXPECT_FALSE(m.count("e2-e9"));  // no move past the first piece met
  auto events = s.play("e2-e8");
  EXPECT_EQ(last_event_of(events, "battle").at("outcome"), "attacker-lost");
}

TEST(StrategoScout, AOneSquareScoutMoveIsLegalAndDoesNotRevealIt) {
  Session s = position(with_spare({{"e2", "0O"}}));
  s.play("e2-e3");
  EXPECT_TRUE(s.state().at("revealed").empty());
  EXPECT_EQ(s.state().at("moved"), json::array({"e3"}));
}

TEST(StrategoScout, ALongScoutMoveRevealsThatThePieceIsAScout) {
  Session s = position(with_spare({{"e2", "0O"}}), 0, {{"memory_aid", true}});
  auto events = s.play("e2-e4");
  EXPECT_EQ(s.state().at("revealed"), json::array({"e4"}));
  // With the memory aid the enemy's board shows it as a Scout; the move event itself names no identity.
  EXPECT_EQ(s.observation(1).at("board").at("e4"), "0O");
  EXPECT_EQ(last_event_of(events, "move").dump().find("0O"), std::string::npos);
}

// --- Attacking and resolving battle ---------------------------------------------------------------------------

TEST(StrategoBattle, AttackIsAMoveOntoAnOrthogonallyAdjacentEnemy) {
  Session s = position(with_spare({{"e4", "0J"}, {"e5", "1P"}, {"f5", "1P"}}));
  const auto m = moves_from(s, "e4");
  EXPECT_TRUE(m.count("e4-e5"));
  EXPECT_FALSE(m.count("e4-f5"));
}

TEST(StrategoBattle, TheStrongerRankRemainsOnTheAttackedSquare) {
  Session s = position(with_spare({{"e4", "0J"}, {"e5", "1P"}}));
  auto events = s.play("e4-e5");
  const json& b = last_event_of(events, "battle");
  EXPECT_EQ(b.at("attacker"), "0J");
  EXPECT_EQ(b.at("defender"), "1P");
  EXPECT_EQ(b.at("outcome"), "attacker-won");
  EXPECT_EQ(s.state().at("board").at("e5"), "0J");
  EXPECT_FALSE(s.state().at("board").contains("e4"));
}

TEST(StrategoBattle, AWeakerAttackerIsRemovedAndTheDefenderStays) {
  Session s = position(with_spare({{"e4", "0P"}, {"e5", "1J"}}));
  auto events = s.play("e4-e5");
  EXPECT_EQ(last_event_of(events, "battle").at("outcome"), "attacker-lost");
  EXPECT_EQ(s.state().at("board").at("e5"), "1J");
  EXPECT_FALSE(s.state().at("board").contains("e4"));
}

TEST(StrategoBattle, EqualRanksAreBothRemovedAndTheSquareEmpties) {
  Session s = position(with_spare({{"e4", "0C"}, {"e5", "1C"}}));
  auto events = s.play("e4-e5");
  EXPECT_EQ(last_event_of(events, "battle").at("outcome"), "both-lost");
  EXPECT_FALSE(s.state().at("board").contains("e4"));
  EXPECT_FALSE(s.state().at("board").contains("e5"));
  EXPECT_EQ(s.state().at("captured"), (json{{"0", {"C"}}, {"1", {"C"}}}));
}

TEST(StrategoBattle, AMinerAttackingABombRemovesItAndTakesItsSquare) {
  Session s = position(with_spare({{"e4", "0N"}, {"e5", "1B"}}));
  auto events = s.play("e4-e5");
  EXPECT_EQ(last_event_of(events, "battle").at("outcome"), "attacker-won");
  EXPECT_EQ(s.state().at("board").at("e5"), "0N");
}

TEST(StrategoBattle, AnyOtherPieceAttackingABombIsRemovedAndTheBombStays) {
  for (const char* kind : {"M", "G", "C", "J", "P", "L", "T", "O", "S"}) {
    Session s = position(with_spare({{"e4", std::string("0") + kind}, {"e5", "1B"}}));
    auto events = s.play("e4-e5");
    EXPECT_EQ(last_event_of(events, "battle").at("outcome"), "attacker-lost") << kind;
    EXPECT_EQ(s.state().at("board").at("e5"), "1B");
  }
}

TEST(StrategoBattle, TheSpyAttackingTheMarshalRemovesIt) {
  Session s = position(with_spare({{"e4", "0S"}, {"e5", "1M"}}));
  auto events = s.play("e4-e5");
  EXPECT_EQ(last_event_of(events, "battle").at("outcome"), "attacker-won");
  EXPECT_EQ(s.state().at("board").at("e5"), "0S");
}

TEST(StrategoBattle, TheMarshalAttackingTheSpyRemovesIt) {
  Session s = position(with_spare({{"e4", "0M"}, {"e5", "1S"}}));
  auto events = s.play("e4-e5");
  EXPECT_EQ(last_event_of(events, "battle").at("outcome"), "attacker-won");
  EXPECT_EQ(s.state().at("board").at("e5"), "0M");
}

TEST(StrategoBattle, TheSpysPowerAppliesOnlyWhenItAttacks) {
  // The Spy attacking anything but the Marshal loses (it is rank 1); attacked by anything, it loses.
  Session s = position(with_spare({{"e4", "0S"}, {"e5", "1O"}}));
  EXPECT_EQ(last_event_of(s.play("e4-e5"), "battle").at("outcome"), "attacker-lost");
  Session t = position(with_spare({{"e4", "0O"}, {"e5", "1S"}}));
  EXPECT_EQ(last_event_of(t.play("e4-e5"), "battle").at("outcome"), "attacker-won");
}

TEST(StrategoBattle, AnyMovablePieceAttackingTheFlagCapturesItAndEndsTheGame) {
  for (const char* kind : {"M", "N", "O", "S"}) {
    Session s = position(with_spare({{"e4", std::string("0") + kind}, {"e5", "1F"}}));
    auto events = s.play("e4-e5");
    EXPECT_EQ(last_event_of(events, "battle").at("outcome"), "attacker-won");
    EXPECT_EQ(s.state().at("result"), (json{{"winners", {0}}, {"reason", "flag-captured"}})) << kind;
    EXPECT_EQ(last_event_of(events, "over").at("result").at("reason"), "flag-captured");
    EXPECT_TRUE(s.legal().empty());
  }
}

TEST(StrategoBattle, BothIdentitiesAreRevealedToBothPlayersInTheBattle) {
  Session s = position(with_spare({{"e4", "0J"}, {"e5", "1P"}}));
  s.play("e4-e5");
  for (Player v : {0, 1, kSpectator}) {
    bool seen = false;
    for (const json& e : s.events_for(v))
      if (e.at("type") == "battle") {
        seen = true;
        EXPECT_EQ(e.at("attacker"), "0J");
        EXPECT_EQ(e.at("defender"), "1P");
      }
    EXPECT_TRUE(seen) << v;
  }
}

TEST(StrategoBattle, SurvivorsReturnToConcealedStatusWithoutTheMemoryAid) {
  Session s = position(with_spare({{"e4", "0J"}, {"e5", "1P"}}));
  s.play("e4-e5");
  EXPECT_EQ(s.observation(1).at("board").at("e5"), "0?");
  EXPECT_EQ(s.observation(kSpectator).at("board").at("e5"), "0?");
  EXPECT_EQ(s.observation(0).at("board").at("e5"), "0J");  // its owner still knows it
  EXPECT_TRUE(s.observation(1).at("revealed").empty());
  EXPECT_TRUE(s.observation(1).at("moved").empty());
  EXPECT_EQ(s.state().at("revealed"), json::array({"e5"}));
}

TEST(StrategoBattle, TheMemoryAidKeepsRevealedIdentitiesAndMarks) {
  Session s = position(with_spare({{"e4", "0J"}, {"e5", "1P"}, {"h8", "1O"}}), 0, {{"memory_aid", true}});
  s.play("e4-e5");
  EXPECT_EQ(s.observation(1).at("board").at("e5"), "0J");
  EXPECT_EQ(s.observation(kSpectator).at("board").at("e5"), "0J");
  EXPECT_EQ(s.observation(1).at("revealed"), json::array({"e5"}));
  EXPECT_EQ(s.observation(1).at("moved"), json::array({"e5"}));
  s.play("h8-h9");  // moved but not revealed: a mark without an identity
  EXPECT_EQ(s.observation(0).at("board").at("h9"), "1?");
  EXPECT_EQ(s.observation(0).at("moved"), json::array({"e5", "h9"}));
}

// --- Repetition and stalling ----------------------------------------------------------------------------------

// Red's Major shuttles e4-e5 while Blue's Major shuttles e8-e9 (and back): Blue's moves never reach the limit
// before Red's, as Red moves first.
TEST(StrategoTwoSquareLimit, TheFourthBackAndForthMoveIsIllegal) {
  Session s = position(with_spare({{"e4", "0J"}, {"e8", "1J"}}), 0, {{"repetition_rule", false}});
  s.play("e4-e5");
  s.play("e8-e9");
  s.play("e5-e4");
  s.play("e9-e8");
  s.play("e4-e5");
  s.play("e8-e9");
  EXPECT_FALSE(legal_set(s).count("e5-e4"));
  EXPECT_NE(illegal_reason(s, "e5-e4").find("two-square limit"), std::string::npos);
  // Other moves remain legal, that piece's included.
  EXPECT_TRUE(legal_set(s).count("e5-e6"));
  EXPECT_TRUE(legal_set(s).count("a1-a2"));
}

TEST(StrategoTwoSquareLimit, AnotherMoveStartsTheCountAgain) {
  Session s = position(with_spare({{"e4", "0J"}, {"e8", "1J"}}), 0, {{"repetition_rule", false}});
  // Without the reset the second move after a1-a2 would be Red's fourth between e4 and e5, and refused.
  for (const char* m : {"e4-e5", "e8-e9", "e5-e4", "e9-e8", "a1-a2", "j10-j9", "e4-e5", "e8-e9", "e5-e4", "e9-e8",
                        "e4-e5", "e8-e9"})
    s.play(m);
  EXPECT_FALSE(legal_set(s).count("e5-e4"));  // e4-e5, e5-e4, e4-e5 since a1-a2: three
}

TEST(StrategoTwoSquareLimit, TheOptionChangesTheNumberOfTurns) {
  Session s = position(with_spare({{"e4", "0J"}, {"e8", "1J"}}), 0,
                       {{"repetition_rule", false}, {"two_square_limit", 5}});
  const char* moves[] = {"e4-e5", "e8-e9", "e5-e4", "e9-e8", "e4-e5", "e8-e9", "e5-e4", "e9-e8", "e4-e5", "e8-e9"};
  for (const char* m : moves) s.play(m);
  EXPECT_FALSE(legal_set(s).count("e5-e4"));
}

TEST(StrategoTwoSquareLimit, AScoutsSeriesIsBetweenTheSameTwoEndSquares) {
  Session s = position(with_spare({{"e2", "0O"}, {"e8", "1J"}}), 0, {{"repetition_rule", false}});
  for (const char* m : {"e2-e4", "e8-e9", "e4-e2", "e9-e8", "e2-e4", "e8-e9"}) s.play(m);
  const auto l = legal_set(s);
  EXPECT_FALSE(l.count("e4-e2"));
  EXPECT_TRUE(l.count("e4-e3"));  // between other squares: a new series
}

TEST(StrategoTwoSquareLimit, AttacksCountAmongThePlayersMoves) {
  // A Red Major attacks a Blue Sergeant on e5 and wins: that attack is the first move of e4/e5 shuttling.
  Session s = position(with_spare({{"e4", "0J"}, {"e5", "1T"}, {"h8", "1J"}}), 0, {{"repetition_rule", false}});
  for (const char* m : {"e4-e5", "h8-h9", "e5-e4", "h9-h8", "e4-e5", "h8-h9"}) s.play(m);
  EXPECT_FALSE(legal_set(s).count("e5-e4"));
}

TEST(StrategoRepetitionRule, AMoveMayNotMakeAPositionThatOccurredTwice) {
  // Red's Major and Blue's Major shuttle; the two-square limit is set high so only the repetition rule acts.
  Session s = position(with_spare({{"e4", "0J"}, {"e8", "1J"}}), 0, {{"two_square_limit", 10}});
  // Start position P0 (Red to move). After e4-e5 e8-e9 e5-e4 e9-e8: P0 again (second time).
  for (const char* m : {"e4-e5", "e8-e9", "e5-e4", "e9-e8"}) s.play(m);
  EXPECT_TRUE(legal_set(s).count("e4-e5"));  // the position after it has occurred once
  for (const char* m : {"e4-e5", "e8-e9", "e5-e4"}) s.play(m);
  // e9-e8 would make P0 for the third time.
  EXPECT_FALSE(legal_set(s).count("e9-e8"));
  EXPECT_NE(illegal_reason(s, "e9-e8").find("third time"), std::string::npos);
  EXPECT_TRUE(legal_set(s).count("e9-e10"));
}

TEST(StrategoRepetitionRule, TheOptionOffAllowsRepetition) {
  Session s = position(with_spare({{"e4", "0J"}, {"e8", "1J"}}), 0,
                       {{"two_square_limit", 10}, {"repetition_rule", false}});
  for (const char* m : {"e4-e5", "e8-e9", "e5-e4", "e9-e8", "e4-e5", "e8-e9", "e5-e4"}) s.play(m);
  EXPECT_TRUE(legal_set(s).count("e9-e8"));
}

TEST(StrategoRepetitionRule, ItNeverEmptiesTheMoveList) {
  // Blue's only piece that can move is a Sergeant on j10 boxed to j9/j10 by its own Bombs; every move it
  // has repeats, so all stay legal.
  json board = {{"a1", "0T"}, {"j10", "1T"}, {"i10", "1B"}, {"i9", "1B"}, {"j8", "1B"}, {"a9", "1F"}};
  Session s = position(board, 0, {{"two_square_limit", 10}});
  for (const char* m : {"a1-a2", "j10-j9", "a2-a1", "j9-j10", "a1-a2", "j10-j9", "a2-a1"}) s.play(m);
  EXPECT_EQ(s.legal(), (std::vector<std::string>{"j9-j10"}));
}

TEST(StrategoRepetitionRule, PositionsTellPiecesApartByTheirSetupSquares) {
  // Two Red Sergeants A (a1) and B (b1) trade places in eight moves while Blue's Sergeant shuttles j10-j9:
  // the board then reads as at the start, with A and B exchanged. Done twice, the board has read the same
  // three times, but by pieces the start position occurs only for the second time: the last move is legal.
  json board = {{"a1", "0T"}, {"b1", "0T"}, {"j10", "1T"}, {"j8", "1B"}, {"i9", "1B"}, {"i10", "1B"}};
  Session s = position(board, 0, {{"two_square_limit", 100}});
  const char* red[] = {"a1-a2", "b1-b2", "a2-a3", "b2-a2", "a2-a1", "a3-b3", "b3-b2", "b2-b1"};
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < 8; ++i) {
      s.play(red[i]);
      const std::string blue = i % 2 == 0 ? "j10-j9" : "j9-j10";
      ASSERT_TRUE(legal_set(s).count(blue)) << "round " << round << " move " << i;
      s.play(blue);
    }
  EXPECT_EQ(s.state().at("ply"), 32);
}

// --- Ends ------------------------------------------------------------------------------------------------------

TEST(StrategoEnd, APlayerWhoMustMoveAndHasNoLegalMoveLoses) {
  // Red's last movable piece attacks a Bomb and dies: Blue still has a Sergeant; Red has none to move.
  Session s = position({{"e4", "0T"}, {"e5", "1B"}, {"a1", "0F"}, {"j10", "1T"}}, 0);
  s.play("e4-e5");  // Blue moves, Red then has nothing
  s.play("j10-j9");
  EXPECT_EQ(s.state().at("result"), (json{{"winners", {1}}, {"reason", "no-moves"}}));
}

TEST(StrategoEnd, NoLegalMoveIsJudgedAtTheStartOfEveryTurnTheFirstIncluded) {
  // Red to move owns only a Bomb and the Flag: it loses before any move.
  Session s = position({{"a1", "0F"}, {"b1", "0B"}, {"j10", "1T"}}, 0);
  EXPECT_EQ(s.state().at("phase"), "over");
  EXPECT_EQ(s.state().at("result"), (json{{"winners", {1}}, {"reason", "no-moves"}}));
  // Movable but blocked also counts: a Red Sergeant walled in by its own Bombs and the board's corner.
  Session t = position({{"a1", "0T"}, {"a2", "0B"}, {"b1", "0B"}, {"j10", "1T"}}, 0);
  EXPECT_EQ(t.state().at("result"), (json{{"winners", {1}}, {"reason", "no-moves"}}));
}

TEST(StrategoEnd, TheTwoSquareLimitCanLeaveAPlayerWithoutMovesAndSoLose) {
  // A Red Sergeant on a1 boxed by Bombs a3/b1/b2... can only shuttle a1-a2.
  json board = {{"a1", "0T"}, {"b1", "0B"}, {"b2", "0B"}, {"a3", "0B"}, {"j10", "1T"}, {"j8", "1F"}};
  Session s = position(board, 0, {{"repetition_rule", false}});
  for (const char* m : {"a1-a2", "j10-j9", "a2-a1", "j9-j10", "a1-a2", "j10-j9"}) s.play(m);
  EXPECT_EQ(s.state().at("result"), (json{{"winners", {1}}, {"reason", "no-moves"}}));
}

TEST(StrategoEnd, WhenNeitherPlayerOwnsAMovablePieceTheGameIsDrawn) {
  // Red's Sergeant and Blue's Sergeant meet: both die; what remains are Bombs and Flags.
  Session s = position({{"e4", "0T"}, {"e5", "1T"}, {"a1", "0F"}, {"j10", "1F"}, {"a2", "0B"}}, 0);
  s.play("e4-e5");
  EXPECT_EQ(s.state().at("result"), (json{{"winners", json::array()}, {"reason", "no-moves"}}));
}

TEST(StrategoEnd, TheGameIsDrawnAfterMaxPlies) {
  Session s = position(with_spare({{"e4", "0J"}, {"e8", "1J"}}), 0, {{"max_plies", 3}});
  s.play("e4-e5");
  s.play("e8-e9");
  EXPECT_EQ(s.state().at("phase"), "play");
  s.play("e5-e6");
  EXPECT_EQ(s.state().at("result"), (json{{"winners", json::array()}, {"reason", "ply-limit"}}));
}

TEST(StrategoEnd, TheFlagComesBeforeThePlyLimit) {
  Session s = position(with_spare({{"e4", "0J"}, {"e5", "1F"}}), 0, {{"max_plies", 1}});
  s.play("e4-e5");
  EXPECT_EQ(s.state().at("result").at("reason"), "flag-captured");
}

TEST(StrategoEnd, ThePlyLimitComesBeforeTheNextPlayersMoves) {
  // Red's attack kills Blue's last movable piece on the last allowed ply: ply-limit, not no-moves.
  Session s = position({{"e4", "0J"}, {"e5", "1T"}, {"a1", "0T"}, {"j10", "1F"}}, 0, {{"max_plies", 1}});
  s.play("e4-e5");
  EXPECT_EQ(s.state().at("result").at("reason"), "ply-limit");
}

TEST(StrategoEnd, ResignationEndsTheGameAtOnce) {
  Session s = set_up();
  s.offer(1, "resign");
  EXPECT_EQ(s.state().at("result"), (json{{"winners", {0}}, {"reason", "resignation"}}));
  EXPECT_THROW(s.offer(1, "draw"), GameError);  // nothing after the end
}

TEST(StrategoEnd, OnceOverEveryObservationIsTheStateAndEveryEventIsWhole) {
  Session s = position(with_spare({{"e4", "0J"}, {"e5", "1F"}, {"h8", "1M"}}));
  s.play("e4-e5");
  for (Player v : {0, 1, kSpectator}) EXPECT_EQ(s.observation(v), s.state()) << v;
}

// What the server shows (the record) and how the AI searches follow hidden_information() as the game stands.
TEST(StrategoEnd, TheGameHidesInformationInSetupAndPlayAndNothingOnceOver) {
  Session s = Session::create("stratego", json::object());
  EXPECT_TRUE(s.game().hidden_information());  // setup
  s.setup(0, named(0, "corner-fortress"));
  s.setup(1, named(1, "cyclone-defense"));
  EXPECT_TRUE(s.game().hidden_information());  // play
  s.offer(0, "resign");
  EXPECT_FALSE(s.game().hidden_information());
  Session flag = position(with_spare({{"e4", "0J"}, {"e5", "1F"}, {"h8", "1M"}}));
  EXPECT_TRUE(flag.game().hidden_information());
  flag.play("e4-e5");
  EXPECT_FALSE(flag.game().hidden_information());  // ended by the rules
}

// --- A game that ends before play begins reveals no setup (shared rulings, common rules; docs/rulings.md C1) ---

// Every string in a JSON value that names an identity of player p's army ("0M", "0F", …).
void identities_of(const json& j, Player p, std::vector<std::string>& out) {
  if (j.is_string()) {
    const std::string v = j.get<std::string>();
    if (v.size() == 2 && v[0] == static_cast<char>('0' + p) && kind_of_letter(v[1]) >= 0) out.push_back(v);
  } else if (j.is_structured()) {
    for (const json& x : j) identities_of(x, p, out);
  }
}
std::vector<std::string> identities_of(const json& j, Player p) {
  std::vector<std::string> out;
  identities_of(j, p, out);
  return out;
}

// A placement as the board writes it ("a1" -> "0F").
json as_board(Player p, const json& placement) {
  json board = json::object();
  for (auto it = placement.begin(); it != placement.end(); ++it) board[it.key()] = std::to_string(p) + it->get<std::string>();
  return board;
}

// The checks of a finished game whose setups nobody may see but their owners: `placed` is each player's
// placement (null: none). Returns nothing; fails the test where a placement shows.
void expect_no_setup_revealed(const Session& s, const std::array<json, 2>& placed) {
  for (Player v : {0, 1, kSpectator}) {
    const json o = s.observation(v);
    EXPECT_EQ(o.at("phase"), "over") << v;
    EXPECT_EQ(o.at("result"), s.state().at("result")) << v;
    const bool own = v != kSpectator && !placed[static_cast<size_t>(v)].is_null();
    EXPECT_EQ(o.at("board"), own ? as_board(v, placed[static_cast<size_t>(v)]) : json::object()) << v;
    EXPECT_EQ(o.at("revealed"), json::array()) << v;
    EXPECT_EQ(o.at("moved"), json::array()) << v;
    const json events = s.events_for(v);
    for (Player p : {0, 1}) {
      EXPECT_TRUE(identities_of(events, p).empty()) << v << " sees " << events;
      if (p != v) {
        EXPECT_TRUE(identities_of(o, p).empty()) << v << " sees " << o;
      }
    }
    EXPECT_EQ(events.dump().find("placement"), std::string::npos) << v;
  }
  const json record = s.record();
  EXPECT_EQ(record.at("setups"), json::object());
  EXPECT_TRUE(record.at("start").is_null());
  for (const json& a : record.at("actions")) EXPECT_NE(a.at("type"), "setup") << a;
  EXPECT_EQ(record.dump().find("placement"), std::string::npos);
  // It still replays to the same end, and the replay is as closed as the game.
  Session replayed = Session::from_record(record);
  EXPECT_EQ(replayed.state().at("result"), s.state().at("result"));
  EXPECT_TRUE(replayed.ended_before_play());
  EXPECT_EQ(replayed.record(), record);
}

TEST(StrategoEndBeforePlay, AResignationBeforeTheOtherArmyIsInShowsEachSeatOnlyItsOwnPlacement) {
  Session s = Session::create("stratego", {});
  const json red = named(0, "blitzkrieg");
  s.setup(0, red);
  s.offer(1, "resign");  // Blue resigns without setting up: the way to harvest Red's setup, were it shown
  EXPECT_EQ(s.state().at("result"), (json{{"winners", {0}}, {"reason", "resignation"}}));
  EXPECT_TRUE(s.ended_before_play());
  expect_no_setup_revealed(s, {red, nullptr});
  // The engine's state stays the truth for a local driver.
  EXPECT_EQ(s.state().at("board"), as_board(0, red));
}

TEST(StrategoEndBeforePlay, APlayerWhoResignsAfterItsOwnSetupKeepsSeeingItAndNobodyElseDoes) {
  Session s = Session::create("stratego", {});
  const json red = named(0, "corner-fortress");
  s.setup(0, named(0, "blitzkrieg"));
  s.setup(0, red);  // replaced: the last setup is the one Red saw
  s.offer(0, "resign");
  EXPECT_EQ(s.state().at("result"), (json{{"winners", {1}}, {"reason", "resignation"}}));
  expect_no_setup_revealed(s, {red, nullptr});
}

TEST(StrategoEndBeforePlay, OnceBothArmiesAreInAResignationRevealsEverything) {
  Session s = Session::create("stratego", {});
  const json red = named(0, "blitzkrieg"), blue = named(1, "shoreline-bluff");
  s.setup(0, red);
  s.setup(1, blue);
  s.offer(1, "resign");
  EXPECT_FALSE(s.ended_before_play());
  for (Player v : {0, 1, kSpectator}) EXPECT_EQ(s.observation(v), s.state()) << v;
  EXPECT_EQ(s.observation(1).at("board").size(), 80u);
  EXPECT_EQ(s.record().at("setups"), (json{{"0", red}, {"1", blue}}));
}

TEST(StrategoEndBeforePlay, TheLastSetupLetsPlayBeginEvenWhenTheGameEndsAtOnce) {
  // Red walls its front in: Bombs and the Flag on the six front squares that open onto rank 5, and the four
  // behind the lakes are blocked anyway, so Red, to move first, has no move and loses when Blue is in.
  json red = named(0, "blitzkrieg");
  const std::vector<std::string> front = {"a4", "b4", "e4", "f4", "i4", "j4"};
  for (const std::string& sq : front) {
    if (red[sq] == "B" || red[sq] == "F") continue;
    for (auto it = red.begin(); it != red.end(); ++it)
      if ((*it == "B" || *it == "F") && std::find(front.begin(), front.end(), it.key()) == front.end()) {
        std::swap(red[sq], *it);
        break;
      }
  }
  Session s = Session::create("stratego", {});
  s.setup(0, red);
  s.setup(1, named(1, "blitzkrieg"));
  ASSERT_TRUE(s.over());
  EXPECT_EQ(s.state().at("result"), (json{{"winners", {1}}, {"reason", "no-moves"}}));
  EXPECT_FALSE(s.ended_before_play());
  for (Player v : {0, 1, kSpectator}) EXPECT_EQ(s.observation(v), s.state()) << v;
  EXPECT_EQ(s.record().at("setups").size(), 2u);
}

// --- Observations, events and state ---------------------------------------------------------------------------

TEST(StrategoObservation, EnemyPiecesAreUnknownAndOwnPiecesKnown) {
  Session s = set_up();
  const json o0 = s.observation(0), o1 = s.observation(1), spec = s.observation(kSpectator);
  for (auto it = o0.at("board").begin(); it != o0.at("board").end(); ++it) {
    const std::string v = *it;
    if (v[0] == '1') {
      EXPECT_EQ(v, "1?");
    } else {
      EXPECT_NE(v[1], '?');
    }
  }
  for (auto it = spec.at("board").begin(); it != spec.at("board").end(); ++it) EXPECT_EQ(it->get<std::string>()[1], '?');
  EXPECT_EQ(o1.at("board").at("a1"), "0?");
}

TEST(StrategoObservation, APlainMoveEventNamesNoIdentity) {
  Session s = set_up();
  auto events = s.play(s.legal().front());
  const json& e = last_event_of(events, "move");
  EXPECT_EQ(e.size(), 4u);  // type, player, from, to
  EXPECT_FALSE(e.contains("piece"));
}

TEST(StrategoState, StateRoundTripsThroughNew) {
  Session s = set_up("blitzkrieg", "shoreline-bluff", {{"memory_aid", true}});
  for (int i = 0; i < 40 && !s.over(); ++i) s.play(s.legal()[static_cast<size_t>(i * 7) % s.legal().size()]);
  const json state = s.state();
  Session t = Session::from_state("stratego", state);
  EXPECT_EQ(t.state(), state);
}

TEST(StrategoState, BadStatesAreRefused) {
  EXPECT_THROW(position({{"c5", "0M"}}), GameError);                   // a lake
  EXPECT_THROW(position({{"a1", "0X"}}), GameError);                   // no such kind
  EXPECT_THROW(position({{"a1", "2M"}}), GameError);                   // no such player
  EXPECT_THROW(position({{"a1", "0M"}, {"a2", "0M"}}), GameError);     // two Marshals
  EXPECT_THROW(position({{"a1", "0M"}}, 0, {{"colour", "red"}}), GameError);
  EXPECT_THROW(position({{"a1", "0M"}}, 0, {{"two_square_limit", 0}}), GameError);
  EXPECT_THROW(position({{"a1", "0B"}}, 0, {}, {{"moved", {"a1"}}}), GameError);
  EXPECT_THROW(Session::from_state("stratego", json{{"surprise", 1}}), GameError);
}

TEST(StrategoOptions, DefaultsAndUnknownKeys) {
  Session s = Session::create("stratego", {});
  EXPECT_EQ(s.state().at("options"), (json{{"memory_aid", false},
                                           {"two_square_limit", 3},
                                           {"repetition_rule", true},
                                           {"max_plies", 2000}}));
  EXPECT_THROW(Session::create("stratego", {{"fog", true}}), GameError);
  EXPECT_THROW(Session::create("stratego", {{"memory_aid", 1}}), GameError);
}

TEST(StrategoUndo, UndoRestoresEverythingAfterEveryKindOfMove) {
  Session s = set_up("blitzkrieg", "corner-fortress");
  auto g = s.game().clone();
  Rng rng(11);
  for (int ply = 0; ply < 300 && g->phase() == Phase::play; ++ply) {
    MoveList moves;
    g->legal_moves(moves);
    const json before = g->state_json();
    const uint64_t h = g->hash();
    for (Move m : moves) {
      g->apply(m);
      g->undo();
      ASSERT_EQ(g->hash(), h);
    }
    ASSERT_EQ(g->state_json(), before);
    g->apply(moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))]);
  }
}

}  // namespace
}  // namespace tabula::stratego
