// FACET's fog of war, one test per sentence of the Fog ruling (shared/spec/rulings.md FACET) and of our own
// rulings F9–F11 (docs/rulings.md), each on a position built by hand and played through the real Session.
// The AI's fog worlds are tested at the end: they keep what the seat knows and nothing it does not.
#include "ai/ai.h"
#include "core/session.h"
#include "core/testing.h"
#include "games/facet/facet.h"
#include "games/facet/facet_testing.h"

#include <gtest/gtest.h>

#include <set>

namespace tabula::facet {
namespace {

using tabula::testing::illegal_reason;

const json kFog = {{"modes", {"fog"}}};
const json kDecayFog = {{"modes", {"decay", "fog"}}};

// A hand-made fog position (facet_testing.h), White to move unless told.
Session at(json board, json terrain = json::object(), int to_move = 0, const json& options = kFog) {
  return Session::from_state("facet", facet::testing::hand_made_state(std::move(board), std::move(terrain), to_move, options));
}

std::set<std::string> visible(const Session& s, Player p) {
  std::set<std::string> out;
  const json obs = s.observation(p);  // kept: a range over a temporary's member would dangle
  for (const json& sq : obs.at("visible")) out.insert(sq.get<std::string>());
  return out;
}
bool sees(const Session& s, Player p, const std::string& sq) { return visible(s, p).count(sq) > 0; }
json board_of(const Session& s, Player p) { return s.observation(p).at("board"); }
json ghosts_of(const Session& s, Player p) { return s.observation(p).at("ghosts"); }

std::set<std::string> targets(const Session& s, const std::string& from) {
  std::set<std::string> out;
  for (const std::string& m : s.legal())
    if (m.substr(0, 2) == from) out.insert(m.substr(3));
  return out;
}

const json* find_event(const json& events, const std::string& type) {
  for (const json& e : events)
    if (e.at("type") == type) return &e;
  return nullptr;
}

// --- Sight -------------------------------------------------------------------------------------------------

TEST(FacetFog, APlayerSeesWithinTwoOfEachAgentAndThreeOfItsMonarch) {
  // White: an agent on c3, the Monarch on e1. Black: c5 (2 from c3), c6 (3 from c3, 5 from e1), h4 (3 from
  // e1), i4 (4 from e1, 6 from c3).
  Session s = at({{"c3", "0A"}, {"c5", "1A"}, {"c6", "1A"}, {"h4", "1A"}, {"i4", "1A"}});
  EXPECT_TRUE(sees(s, 0, "c5"));
  EXPECT_TRUE(sees(s, 0, "a1") && sees(s, 0, "e5") && sees(s, 0, "a5"));  // the agent's square of 5×5
  EXPECT_FALSE(sees(s, 0, "c6"));
  EXPECT_FALSE(sees(s, 0, "f5"));  // 3 from c3, 4 from e1
  EXPECT_TRUE(sees(s, 0, "h4"));   // the Monarch's radius is 3
  EXPECT_FALSE(sees(s, 0, "i4"));
  const json board = board_of(s, 0);
  EXPECT_EQ(board.value("c5", ""), "1A");
  EXPECT_EQ(board.value("h4", ""), "1A");
  EXPECT_FALSE(board.contains("c6"));
  EXPECT_FALSE(board.contains("i4"));
  EXPECT_FALSE(board.contains("e9"));
}

TEST(FacetFog, OwnStonesAreAlwaysSeen) {
  Session s = at({{"a9", "0A"}, {"i9", "0A"}, {"a1", "1A"}});
  const json board = board_of(s, 0);
  for (const char* sq : {"a9", "i9", "e1"}) {
    EXPECT_EQ(board.value(sq, ""), std::string(sq == std::string("e1") ? "0M" : "0A"));
    EXPECT_TRUE(sees(s, 0, sq));
  }
}

TEST(FacetFog, EveryThroneSquareAndItsOccupantAreAlwaysSeen) {
  Session s = at({{"a1", "0A"}, {"g5", "1A"}}, {{"c5", "C"}, {"e5", "C"}, {"g5", "C"}});
  for (const char* sq : {"c5", "e5", "g5"}) EXPECT_TRUE(sees(s, 0, sq)) << sq;
  EXPECT_EQ(board_of(s, 0).value("g5", ""), "1A");
  EXPECT_FALSE(sees(s, 0, "h5"));
}

TEST(FacetFog, SightIsTakenAtTheEndOfEveryPly) {
  Session s = at({{"c3", "0A"}, {"c7", "1A"}});
  EXPECT_FALSE(sees(s, 0, "c7"));
  s.play("c3-c4");  // a Field step: now 3 ranks from c7
  EXPECT_FALSE(sees(s, 0, "c7"));
  s.play("e9-e8");
  s.play("c4-c5");
  EXPECT_TRUE(sees(s, 0, "c7"));
  EXPECT_EQ(board_of(s, 0).value("c7", ""), "1A");
  // And sight moves on: Black's agent steps away out of White's sight.
  s.play("c7-c8");
  EXPECT_FALSE(board_of(s, 0).contains("c8"));
}

TEST(FacetFog, APlayerSeesTheSquareWhereItLostAStoneAndTheTakersSquareIfItSawItBefore) {
  // White's lone agent on a5; a Black Gate stone on c6 (2 from a5, so White saw it) takes it.
  Session s = at({{"a5", "0A"}, {"i1", "0A"}, {"c6", "1A"}}, {{"c6", "G"}}, 1);
  EXPECT_TRUE(sees(s, 0, "c6"));
  s.play("c6-a5");
  EXPECT_TRUE(sees(s, 0, "a5"));  // where it lost the stone: it sees the taker there
  EXPECT_EQ(board_of(s, 0).value("a5", ""), "1A");
  EXPECT_TRUE(sees(s, 0, "c6"));  // where the taker came from: it saw that square before the ply
  EXPECT_FALSE(sees(s, 0, "b6"));  // nothing else of that region: its agent is gone
}

TEST(FacetFog, TheTakersSquareStaysUnseenIfItWasNotSeenBeforeThePly) {
  // A Black Tower stone on a9 slides down the file onto White's agent on a5; a9 is 4 from a5.
  Session s = at({{"a5", "0A"}, {"i1", "0A"}, {"a9", "1A"}}, {{"a9", "T"}}, 1);
  EXPECT_FALSE(sees(s, 0, "a9"));
  s.play("a9-a5");
  EXPECT_TRUE(sees(s, 0, "a5"));
  EXPECT_FALSE(sees(s, 0, "a9"));
}

TEST(FacetFog, TheWholeLayoutIsSeenAtTheStart) {
  Session s = Session::create("facet", kFog);
  Session open = Session::create("facet", json::object());
  for (Player p : {0, 1}) EXPECT_EQ(s.observation(p).at("terrain"), open.state().at("terrain"));
}

TEST(FacetFog, TerrainOutOfSightIsShownAsLastSeen) {
  // Decay with fog: Black's Tower stone on i9 slides to i6, out of White's sight; the Tower decays but
  // White still remembers a Tower there. Black, the mover, knows its tile decayed (ruling F10).
  Session s = at({{"a1", "0A"}, {"i9", "1A"}}, {{"i9", "T"}}, 1, kDecayFog);
  s.play("i9-i6");
  EXPECT_EQ(s.state().at("terrain").value("i9", ""), "S");
  EXPECT_EQ(s.observation(0).at("terrain").value("i9", ""), "T");
  EXPECT_EQ(s.observation(1).at("terrain").value("i9", ""), "S");
  EXPECT_FALSE(sees(s, 1, "i9"));  // i9 is 3 from i6: Black knows it without seeing it
}

TEST(FacetFog, DecayedTerrainIsSeenOnceTheSquareIsInSightAgain) {
  Session s = at({{"g5", "0A"}, {"i9", "1A"}}, {{"i9", "T"}}, 1, kDecayFog);
  s.play("i9-i6");  // i6 is 2 from g5: White sees the stone arrive, not the square it left
  EXPECT_EQ(board_of(s, 0).value("i6", ""), "1A");
  EXPECT_EQ(s.observation(0).at("terrain").value("i9", ""), "T");
  s.play("g5-g6");
  s.play("e9-e8");
  s.play("g6-g7");  // i9 is now 2 from g7
  EXPECT_TRUE(sees(s, 0, "i9"));
  EXPECT_EQ(s.observation(0).at("terrain").value("i9", ""), "S");
}

// --- Ghosts ------------------------------------------------------------------------------------------------

TEST(FacetFog, AtTheStartEnemyStonesOutOfSightBeginAsGhostsTheMonarchsToo) {
  Session s = Session::create("facet", kFog);
  const json ghosts = ghosts_of(s, 0);
  EXPECT_EQ(ghosts.size(), 18u);
  EXPECT_EQ(ghosts.value("e9", ""), "1M");
  EXPECT_EQ(ghosts.value("a8", ""), "1A");
  EXPECT_TRUE(board_of(s, 0).size() == 18u);  // its own 18 stones; no enemy is in sight
  EXPECT_EQ(ghosts_of(s, 1).value("e1", ""), "0M");
}

TEST(FacetFog, AGhostStaysWhereTheStoneWasLastSeenUntilThatSquareIsInSightAgain) {
  Session s = Session::create("facet", kFog);
  s.play("e2-d4");  // White's Gate stone leaps
  s.play("a8-a7");  // Black's stone leaves a8, out of White's sight: the ghost stays on a8
  EXPECT_EQ(ghosts_of(s, 0).value("a8", ""), "1A");
  EXPECT_FALSE(ghosts_of(s, 0).contains("a7"));  // never seen there
  EXPECT_FALSE(board_of(s, 0).contains("a7"));
  // A White Tower stone climbs the a-file until a8 is in sight: the ghost goes, the stone on a7 shows.
  // White's Gate stone leaps on to c6, from where a8 and a7 are in sight: the ghost goes, the stone shows.
  s.play("d4-c6");
  EXPECT_TRUE(sees(s, 0, "a8") && sees(s, 0, "a7"));
  EXPECT_FALSE(ghosts_of(s, 0).contains("a8"));
  EXPECT_FALSE(board_of(s, 0).contains("a8"));
  EXPECT_EQ(board_of(s, 0).value("a7", ""), "1A");
}

TEST(FacetFog, AnEnemyStoneSeenOnASquareThatLeavesSightBecomesAGhost) {
  // White's agent on c5 sees Black's on c7; it steps back, and c7 leaves its sight with the stone on it.
  Session s = at({{"c5", "0A"}, {"c7", "1A"}});
  EXPECT_EQ(board_of(s, 0).value("c7", ""), "1A");
  s.play("c5-c4");
  EXPECT_FALSE(sees(s, 0, "c7"));
  EXPECT_EQ(ghosts_of(s, 0).value("c7", ""), "1A");
  EXPECT_FALSE(board_of(s, 0).contains("c7"));
}

TEST(FacetFog, GhostSquaresCountAsEmptyForMoves) {
  // A White Tower stone on a3; Black's Tower stone on a8 was seen at the start (a ghost) and slips to a9.
  Session s = at({{"a3", "0A"}, {"a8", "1A"}}, {{"a3", "T"}, {"a8", "T"}}, 1);
  EXPECT_EQ(ghosts_of(s, 0).value("a8", ""), "1A");
  s.play("a8-a9");  // out of White's sight: the ghost stays on a8
  EXPECT_EQ(ghosts_of(s, 0).value("a8", ""), "1A");
  const std::set<std::string> to = targets(s, "a3");
  EXPECT_TRUE(to.count("a8") && to.count("a9"));  // the ghost square and beyond count as empty
}

// --- Moves on the player's view ----------------------------------------------------------------------------

TEST(FacetFog, UnseenSquaresCountAsEmptyInLegalPlayAndPerft) {
  // A White Tower stone on a1 sees up to a3; Black's stone hides on a6.
  Session s = at({{"a1", "0A"}, {"a6", "1A"}}, {{"a1", "T"}});
  const std::set<std::string> to = targets(s, "a1");
  for (const char* sq : {"a2", "a5", "a6", "a7", "a9"}) EXPECT_TRUE(to.count(sq)) << sq;
  // perft counts the same moves `legal` lists.
  const auto g = s.game().clone();
  EXPECT_EQ(perft(*g, 1), s.legal().size());
  // Without fog the slide stops on a6.
  Session open = at({{"a1", "0A"}, {"a6", "1A"}}, {{"a1", "T"}}, 0, json::object());
  EXPECT_FALSE(targets(open, "a1").count("a7"));
}

TEST(FacetFog, ASlideThatMeetsAHiddenEnemyStopsThereAndCapturesIt) {
  Session s = at({{"a1", "0A"}, {"a6", "1A"}, {"b8", "1A"}}, {{"a1", "T"}});
  const std::vector<Event> events = s.play("a1-a9");
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events[0].full, json({{"type", "move"}, {"player", 0}, {"from", "a1"}, {"to", "a6"}, {"bump", true}}));
  EXPECT_EQ(events[1].full.at("type"), "capture");
  EXPECT_EQ(events[1].full.at("square"), "a6");
  EXPECT_EQ(s.state().at("board").value("a6", ""), "0A");
  EXPECT_FALSE(s.state().at("board").contains("a9"));
  // The record keeps the move as submitted.
  EXPECT_EQ(s.record().at("moves"), json({"a1-a9"}));
}

TEST(FacetFog, ASlideThroughUnseenEmptySquaresGoesWhereItAims) {
  Session s = at({{"a1", "0A"}, {"b8", "1A"}}, {{"a1", "T"}});
  const std::vector<Event> events = s.play("a1-a9");
  EXPECT_EQ(events[0].full, json({{"type", "move"}, {"player", 0}, {"from", "a1"}, {"to", "a9"}}));
}

// "A Gate leap or a step onto a hidden enemy captures it": a stone's sight (2, the Monarch's 3) covers every
// square it can step or leap to, so such a target is never hidden; the leap or step lands and captures what
// stands there, seen or not (ruling F11).
TEST(FacetFog, AGateLeapOrAStepOntoAnEnemyCapturesItAndItsTargetsAreAlwaysInSight) {
  Session s = at({{"a2", "0A"}, {"b4", "1A"}, {"h8", "1A"}}, {{"a2", "G"}});
  for (const std::string& m : s.legal()) EXPECT_TRUE(sees(s, 0, m.substr(3))) << m;
  const std::vector<Event> events = s.play("a2-b4");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].full, json({{"type", "move"}, {"player", 0}, {"from", "a2"}, {"to", "b4"}}));
  EXPECT_EQ(events[1].full.at("type"), "capture");
}

TEST(FacetFog, TheBoardAsSeenDecidesRefusalsWithoutNamingUnseenStones) {
  Session s = at({{"a1", "0A"}, {"h8", "1A"}});
  // h8 holds a Black stone White cannot see: the refusal is the one an empty square gets.
  EXPECT_EQ(illegal_reason(s, "h8-h7"), "there is no stone on h8");
  EXPECT_EQ(illegal_reason(s, "g8-g7"), "there is no stone on g8");
  // Without fog the same move names the stone.
  Session open = at({{"a1", "0A"}, {"h8", "1A"}}, json::object(), 0, json::object());
  EXPECT_EQ(illegal_reason(open, "h8-h7"), "the stone on h8 is not yours");
}

// --- Events per viewer ------------------------------------------------------------------------------------

TEST(FacetFog, AnEnemyMoveShowsFromOnlyIfSeenBeforeAndToOnlyIfSeenAfter) {
  // Black's Tower stone on c9 slides to c6: White (agent on c4) did not see c9 but sees c6.
  Session s = at({{"c4", "0A"}, {"c9", "1A"}, {"h9", "1A"}}, {{"c9", "T"}, {"c6", "T"}, {"h9", "T"}}, 1);
  const json arriving = s.events_for(0, s.play("c9-c6"));
  EXPECT_EQ(arriving, json::array({json{{"type", "move"}, {"player", 1}, {"to", "c6"}}}));
  s.play("c4-b4");
  // Now the stone leaves c6 (seen before) for c8 (not seen after): only `from`.
  const json leaving = s.events_for(0, s.play("c6-c8"));
  EXPECT_EQ(leaving, json::array({json{{"type", "move"}, {"player", 1}, {"from", "c6"}}}));
  s.play("b4-a4");
  // A move White sees nothing of is left out.
  EXPECT_EQ(s.events_for(0, s.play("h9-h8")), json::array());
  // The mover sees its own move whole.
  EXPECT_EQ(s.events_for(1, s.play("a4-a3")).size(), 0u);  // White's move, out of Black's sight
}

TEST(FacetFog, BothPlayersSeeACaptureAndABumpIsTheMoversToKnow) {
  Session s = at({{"a1", "0A"}, {"a6", "1A"}, {"h8", "1A"}}, {{"a1", "T"}});
  const std::vector<Event> events = s.play("a1-a9");
  const json mine = s.events_for(0, events), theirs = s.events_for(1, events);
  EXPECT_EQ(mine[0].value("bump", false), true);
  ASSERT_NE(find_event(theirs, "capture"), nullptr);
  EXPECT_EQ(find_event(theirs, "capture")->at("square"), "a6");
  const json* move = find_event(theirs, "move");
  ASSERT_NE(move, nullptr);
  EXPECT_FALSE(move->contains("bump"));
  EXPECT_FALSE(move->contains("from"));  // a1 is 5 from a6: Black never saw it
  EXPECT_EQ(move->at("to"), "a6");
}

TEST(FacetFog, ADecayOutOfTheOtherPlayersSightIsNotShownToIt) {
  Session s = at({{"a1", "0A"}, {"i9", "1A"}}, {{"i9", "T"}}, 1, kDecayFog);
  const std::vector<Event> events = s.play("i9-i6");
  EXPECT_NE(find_event(s.events_for(1, events), "decay"), nullptr);
  EXPECT_EQ(find_event(s.events_for(0, events), "decay"), nullptr);
  EXPECT_EQ(find_event(s.events_for(kSpectator, events), "decay"), nullptr);
}

// --- Spectators and the end --------------------------------------------------------------------------------

TEST(FacetFog, SpectatorsSeeTheStartingLayoutTheThronesAndTheirOccupants) {
  Session s = Session::create("facet", kDecayFog);
  const json start_terrain = s.state().at("terrain");
  s.play("d2-g5");  // White's Spire stone to the Throne g5; d2 decays to a Gate
  const json obs = s.observation(kSpectator);
  EXPECT_EQ(obs.at("board"), json({{"g5", "0A"}}));
  EXPECT_EQ(obs.at("terrain"), start_terrain);
  EXPECT_EQ(obs.at("visible"), json({"c5", "e5", "g5"}));
  EXPECT_EQ(obs.at("ghosts"), json::object());
  // The move shows its Throne end only; moves away from the Thrones are left out.
  EXPECT_EQ(s.events_for(kSpectator), json::array({json{{"type", "move"}, {"player", 0}, {"to", "g5"}}}));
  s.play("a8-a7");
  EXPECT_EQ(s.events_for(kSpectator).size(), 1u);
}

TEST(FacetFog, OnceTheGameIsOverEveryoneSeesEverything) {
  Session s = at({{"a1", "0A"}, {"a6", "1M"}, {"h8", "1A"}}, {{"a1", "T"}});
  s.play("a1-a9");  // bumps into the hidden Monarch: regicide
  ASSERT_TRUE(s.over());
  EXPECT_EQ(s.game().result()->reason, "regicide");
  for (Player v : {0, 1, kSpectator}) {
    const json obs = s.observation(v);
    EXPECT_EQ(obs, s.state());
    EXPECT_FALSE(obs.contains("visible") || obs.contains("ghosts"));
    EXPECT_EQ(s.events_for(v), s.events_for(0));
  }
}

// What the server shows (the record) and how the AI searches follow hidden_information() as the game stands.
TEST(FacetFog, AFogGameHidesInformationUntilItIsOverAndAGameWithoutFogNever) {
  Session s = at({{"a1", "0A"}, {"a6", "1M"}, {"h8", "1A"}}, {{"a1", "T"}});
  EXPECT_TRUE(s.game().hidden_information());
  s.play("a1-a9");  // regicide
  ASSERT_TRUE(s.over());
  EXPECT_FALSE(s.game().hidden_information());
  Session resigned = Session::create("facet", kDecayFog);
  resigned.offer(1, "resign");
  EXPECT_FALSE(resigned.game().hidden_information());
  EXPECT_FALSE(Session::create("facet", {{"modes", {"decay"}}}).game().hidden_information());
}

TEST(FacetFog, VisibleAndGhostsAppearOnlyInFogGames) {
  Session s = Session::create("facet", {{"modes", {"decay"}}});
  for (Player v : {0, 1, kSpectator}) EXPECT_FALSE(s.observation(v).contains("visible"));
  Session f = Session::create("facet", kDecayFog);  // decay and fog together
  for (Player v : {0, 1, kSpectator}) EXPECT_TRUE(f.observation(v).contains("visible") && f.observation(v).contains("ghosts"));
}

TEST(FacetFog, AGivenStateIsSeenWholeByBothPlayersAsAtTheStart) {
  // Ruling F9: memory starts from the given position.
  Session s = at({{"a1", "0A"}, {"h8", "1A"}});
  EXPECT_EQ(ghosts_of(s, 0), json({{"e9", "1M"}, {"h8", "1A"}}));
  EXPECT_EQ(ghosts_of(s, 1), json({{"a1", "0A"}, {"e1", "0M"}}));
}

// --- The AI under fog --------------------------------------------------------------------------------------
// Level 3 on a node budget chooses the same move, with the same report but its time, in two games the seat
// cannot tell apart: nothing it may not know reached its search.
void expect_the_same_choice(const Session& a, const Session& b, uint64_t nodes, uint64_t seed) {
  ai::Limits limits;
  limits.level = 3;
  limits.nodes = nodes;
  limits.seed = seed;
  ai::Choice ca = ai::choose_move(a.game(), limits), cb = ai::choose_move(b.game(), limits);
  EXPECT_EQ(ca.move, cb.move) << "seed " << seed;
  ca.info.erase("ms");
  cb.info.erase("ms");
  EXPECT_EQ(ca.info, cb.info) << "seed " << seed;
  EXPECT_GT(ca.info.at("nodes").get<uint64_t>(), 1000u);
}


TEST(FacetFogAI, AWorldKeepsEverythingTheSeatSeesAndItsNumbers) {
  Session s = Session::create("facet", kFog);
  for (const char* m : {"e2-d4", "e8-d6", "d4-c6", "d8-e7"}) s.play(m);
  const json obs = s.observation(0);
  Rng rng(5);
  for (int i = 0; i < 50; ++i) {
    const auto world = s.game().sample_world(0, rng);
    const json w = world->state_json();
    std::set<std::string> vis;
    for (const json& sq : obs.at("visible")) vis.insert(sq.get<std::string>());
    int black = 0;
    for (auto it = w.at("board").begin(); it != w.at("board").end(); ++it) {
      if (it->get<std::string>()[0] == '1') ++black;
      if (vis.count(it.key())) {
        EXPECT_EQ(obs.at("board").value(it.key(), ""), *it) << it.key();
      }
    }
    for (auto it = obs.at("board").begin(); it != obs.at("board").end(); ++it) EXPECT_EQ(w.at("board").value(it.key(), ""), *it);
    EXPECT_EQ(black, 18);
    // The world gives the seat the same observation and moves as the true game.
    EXPECT_EQ(world->observation_json(0), obs);
    EXPECT_EQ(legal_move_strings(*world), s.legal());
  }
}

TEST(FacetFogAI, TwoTrueGamesWithTheSameObservationHistoryGetTheSameMove) {
  // Black's first moves differ but happen out of White's sight: White's observations and events are equal,
  // so the AI must choose alike and report alike (it would not if it read the true board).
  Session a = Session::create("facet", kFog), b = Session::create("facet", kFog);
  a.play("e2-d4");
  b.play("e2-d4");
  a.play("a8-a7");
  b.play("i8-h7");
  ASSERT_EQ(a.observation(0), b.observation(0));
  ASSERT_EQ(a.events_for(0), b.events_for(0));
  ASSERT_NE(a.state(), b.state());
  expect_the_same_choice(a, b, 30000, 11);
}

// White saw Black's Tower stone leave e7 (in sight of its stone on e5) for a square it does not see: in every
// world that stone stands on an unseen square a Tower on e7 reaches (a7, b7, h7, i7 or up the e-file, as far as
// the world's Black Monarch lets it), not back home.
// Under decay too, where e7 shows a Spire once the stone has left: the move was a Tower's.
TEST(FacetFogAI, AStoneSeenLeavingForTheUnseenIsDealtWhereItsTileCouldHaveTakenIt) {
  for (const json& options : {kFog, kDecayFog}) {
    Session s = at({{"e5", "0A"}, {"a1", "0A"}, {"i1", "0A"}, {"e7", "1A"}}, {{"e7", "T"}}, 1, options);
    s.play("e7-a7");
    ASSERT_FALSE(sees(s, 0, "a7"));
    const std::set<std::string> reach = {"a7", "b7", "h7", "i7", "e8", "e9"};
    Rng rng(3);
    for (int i = 0; i < 100; ++i) {
      const json w = s.game().sample_world(0, rng)->state_json();
      std::string agent;
      for (auto it = w.at("board").begin(); it != w.at("board").end(); ++it)
        if (*it == "1A") agent = it.key();
      EXPECT_EQ(reach.count(agent), 1u) << "world " << i << ": Black's agent dealt on " << agent;
      if (agent == "e9") {
        EXPECT_NE(w.at("board").value("e8", ""), "1M") << "the Monarch on e8 would block the file";
      }
    }
  }
}

// Black's agent on i9 (a Tower where `terrain` says so) and its Monarch on e9, out of White's sight from the start,
// so ghosts there; then each side moves twice, Black out of sight, and the ghosts stay where they were seen.
Session black_moved_twice_unseen(const json& options, json terrain = json::object()) {
  Session s = at({{"a1", "0A"}, {"e1", "0M"}, {"i9", "1A"}, {"e9", "1M"}}, std::move(terrain), 0, options);
  for (const char* m : {"a1-a2", "e9-e8", "a2-a1", "e8-e9"}) s.play(m);
  EXPECT_EQ(ghosts_of(s, 0).value("i9", ""), "1A");
  return s;
}

// A ghost's stone is still on its square with the chance that the enemy's moves since (one stone a move, spread
// evenly) all went to its other stones: at the start of a game nothing has moved and every world keeps it there;
// after Black's two moves with two stones, (1/2)^2 = 1 in 4 (the old dealing kept it 6 times in 10 whenever).
TEST(FacetFogAI, AGhostsStoneStaysOnItsSquareWithTheChanceThatTheEnemysMovesSinceWentElsewhere) {
  auto kept = [](const Session& s, uint64_t seed) {
    Rng rng(seed);
    int n = 0;
    for (int i = 0; i < 400; ++i) n += s.game().sample_world(0, rng)->state_json().at("board").value("i9", "") == "1A";
    return n;
  };
  EXPECT_EQ(kept(at({{"a1", "0A"}, {"e1", "0M"}, {"i9", "1A"}, {"e9", "1M"}}), 5), 400);
  const int n = kept(black_moved_twice_unseen(kFog), 5);
  EXPECT_GT(n, 60) << "seed 5";  // 100 expected; 240 with the old dealing
  EXPECT_LT(n, 140) << "seed 5";
}

// Under decay, a stone leaving a tile spends it: a world that deals the ghost's stone (seen on a Tower on i9 at the
// start, out of White's sight since, while Black has moved twice) anywhere but i9 has the Tower spent to a Spire
// there; a world that leaves it on i9 keeps the Tower. Without decay the Tower stays whatever the world deals.
// White's view is untouched.
TEST(FacetFogAI, UnderDecayAWorldThatMovesAGhostsStoneSpendsTheTileItWasSeenOn) {
  for (const json& options : {kFog, kDecayFog}) {
    const bool decay = options == kDecayFog;
    const Session s = black_moved_twice_unseen(options, {{"i9", "T"}});
    int stayed = 0, moved = 0;
    Rng rng(7);
    for (int i = 0; i < 200; ++i) {
      const auto world = s.game().sample_world(0, rng);
      const json w = world->state_json();
      const bool there = w.at("board").value("i9", "") == "1A";
      (there ? stayed : moved) += 1;
      const std::string tile = w.at("terrain").value("i9", "");
      EXPECT_EQ(tile, there || !decay ? "T" : "S") << (decay ? "decay and fog" : "fog") << ", world " << i;
      EXPECT_EQ(world->observation_json(0).at("terrain").value("i9", ""), "T");
    }
    EXPECT_GT(stayed, 0);  // both kinds of world are dealt, so both branches are checked
    EXPECT_GT(moved, 0);
  }
}

// The same, but Black's stone went to a7 in one game and to h7 in the other: White saw only that it left e7,
// so its memory, its worlds and its move are the same.
TEST(FacetFogAI, WhereAStoneWentOutOfSightDoesNotReachTheSeatsWorlds) {
  Session a = at({{"e5", "0A"}, {"a1", "0A"}, {"i1", "0A"}, {"e7", "1A"}, {"a9", "1A"}}, {{"e7", "T"}}, 1);
  Session b = a.clone();
  a.play("e7-a7");
  b.play("e7-h7");
  ASSERT_EQ(a.observation(0), b.observation(0));
  ASSERT_EQ(a.events_for(0), b.events_for(0));
  expect_the_same_choice(a, b, 20000, 4);
}

// --- Danger marks (Game::danger_for): not a rule, what the board points out to a player ------------------

json monarch_marks(const Session& s, Player viewer) { return s.game().danger_for(viewer); }

TEST(FacetDanger, AMonarchAnEnemyStoneCouldTakeIsMarkedForBothPlayers) {
  // White's agent d7 on a Field steps onto e8: Black's Monarch is in danger, whoever is to move.
  const json board = {{"e1", "0M"}, {"d7", "0A"}, {"e8", "1M"}, {"a9", "1A"}};
  Session s = at(board, json::object(), 0, json::object());
  const json mark = json::array({json{{"square", "e8"}, {"player", 1}, {"why", "monarch-attacked"}, {"by", {"d7"}}}});
  EXPECT_EQ(monarch_marks(s, 0), mark);
  EXPECT_EQ(monarch_marks(s, 1), mark);
  EXPECT_EQ(monarch_marks(s, kSpectator), mark);
  EXPECT_EQ(monarch_marks(at(board, json::object(), 1, json::object()), 1), mark);
  // Out of the agent's reach, nothing is marked.
  EXPECT_EQ(monarch_marks(at({{"e1", "0M"}, {"d6", "0A"}, {"e8", "1M"}, {"a9", "1A"}}, json::object(), 0, json::object()), 1),
            json::array());
}

TEST(FacetDanger, UnderFogOnlyWhatTheSeatSeesMarksItsMonarch) {
  // White's Tower e2 slides up the open e-file onto Black's Monarch e8; neither side sees the other's stone.
  const json terrain = {{"e2", "T"}};
  Session blind = at({{"a1", "0M"}, {"e2", "0A"}, {"e8", "1M"}, {"a9", "1A"}}, terrain, 0, kFog);
  EXPECT_EQ(monarch_marks(blind, 0), json::array());
  EXPECT_EQ(monarch_marks(blind, 1), json::array());
  EXPECT_EQ(monarch_marks(blind, kSpectator), json::array());  // spectators of a fog game see no stones
  EXPECT_EQ(monarch_marks(at({{"a1", "0M"}, {"e2", "0A"}, {"e8", "1M"}, {"a9", "1A"}}, terrain, 0, json::object()), 1)
                .size(),
            1u);
  // A Black agent d3 sees the Tower: Black's view marks its Monarch; White still does not see e8.
  Session seen = at({{"a1", "0M"}, {"e2", "0A"}, {"e8", "1M"}, {"d3", "1A"}}, terrain, 0, kFog);
  EXPECT_EQ(monarch_marks(seen, 1),
            json::array({json{{"square", "e8"}, {"player", 1}, {"why", "monarch-attacked"}, {"by", {"e2"}}}}));
  EXPECT_EQ(monarch_marks(seen, 0), json::array());
}

}  // namespace
}  // namespace tabula::facet
