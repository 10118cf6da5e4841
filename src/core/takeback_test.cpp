// Session::take_back: a player's last turn and every move after it are taken back; the log keeps them and a
// replay of the log rebuilds the same game. Who may take back (against the AI at will, between people by
// agreement) is the server's rule and is tested there (tests/server/game_service_test.cpp).
#include "core/session.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tabula {
namespace {

Session tigadi_after(const std::vector<std::string>& moves) {
  Session s = Session::create("tigadi", json::object());
  for (const std::string& m : moves) s.play(m);
  return s;
}

// The same game had only `moves` been played.
json state_after(const std::vector<std::string>& moves) { return tigadi_after(moves).state(); }

TEST(Takeback, TakesBackTheRequestersLastTurnAndTheReplyAfterIt) {
  Session s = tigadi_after({"d1", "a4", "g1", "a7"});
  auto events = s.take_back(0);  // Bone takes back g1 and Seed's reply a7
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].full, (json{{"type", "takeback"}, {"player", 0}, {"moves", 2}}));
  EXPECT_EQ(s.state(), state_after({"d1", "a4"}));
  EXPECT_EQ(s.game().to_move(), 0);
  EXPECT_EQ(s.takebacks(), 1);
  // The events are the shortened line's, then the take-back.
  json types = json::array();
  for (const json& e : s.events_for(0)) types.push_back(e["type"]);
  EXPECT_EQ(types, json::array({"place", "place", "takeback"}));
}

TEST(Takeback, BeforeAnyReplyOnlyTheRequestersOwnTurnIsTakenBack) {
  Session s = tigadi_after({"d1", "a4", "g1"});
  s.take_back(0);
  EXPECT_EQ(s.state(), state_after({"d1", "a4"}));
  s.take_back(1);  // Seed may take back its own last turn as well
  EXPECT_EQ(s.state(), state_after({"d1"}));
  EXPECT_EQ(s.game().to_move(), 1);
}

TEST(Takeback, AsOftenAsYouLikeBackToTheFirstMove) {
  Session s = tigadi_after({"d1", "a4", "g1", "a7"});
  s.take_back(0);
  s.take_back(0);
  EXPECT_EQ(s.state(), state_after({}));
  EXPECT_EQ(s.takebacks(), 2);
  try {
    s.take_back(0);
    ADD_FAILURE() << "a take-back with nothing to take back";
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::conflict);
  }
  // The game goes on from there.
  s.play("g7");
  EXPECT_EQ(s.state(), state_after({"g7"}));
}

TEST(Takeback, AWholeTurnOfTwoActionsIsTakenBack) {
  Session s = Session::create("truth", json::object());
  s.setup_arrangement(0, "suggested", 0);
  s.setup_arrangement(1, "suggested", 0);
  const json start = s.state();
  std::vector<std::string> played;
  // Ivory's two actions, then Jade's two: Ivory takes back all four.
  while (s.game().ply() < 2 && !s.over()) {
    played.push_back(s.legal().front());
    s.play(played.back());
  }
  ASSERT_FALSE(s.over());
  ASSERT_GE(played.size(), 4u);
  s.take_back(0);
  EXPECT_EQ(s.state(), start);
  EXPECT_EQ(s.events_for(0).back()["moves"], played.size());
  // Jade's first action of a turn, then Jade takes back: the half-made turn goes.
  Session t = Session::create("truth", json::object());
  t.setup_arrangement(0, "suggested", 0);
  t.setup_arrangement(1, "suggested", 0);
  while (t.game().to_move() == 0) t.play(t.legal().front());
  const json jade_turn = t.state();
  t.play(t.legal().front());
  t.take_back(1);
  EXPECT_EQ(t.state(), jade_turn);
}

TEST(Takeback, TheLogKeepsEveryActionAndReplaysToTheSameGame) {
  Session s = tigadi_after({"d1", "a4", "g1", "a7"});
  s.offer(1, "draw");
  s.take_back(0);
  s.play("d7");
  const json record = s.record();
  EXPECT_EQ(record["moves"], json::array({"d1", "a4", "d7"}));  // the line of play
  EXPECT_EQ(record["takebacks"], 1);
  EXPECT_EQ(record["actions"].size(), 7u);  // four moves, the offer, the take-back, d7
  EXPECT_EQ(record["actions"][5], (json{{"type", "takeback"}, {"player", 0}, {"to", 2}}));
  Session r = Session::from_record(record);
  EXPECT_EQ(r.state(), s.state());
  EXPECT_EQ(r.record(), record);
  EXPECT_EQ(r.events_for(1), s.events_for(1));
  // The server's restart path: every logged action applied in turn.
  Session q = Session::create("tigadi", json::object());
  for (const json& a : s.actions()) q.apply_action(a);
  EXPECT_EQ(q.state(), s.state());
}

TEST(Takeback, HiddenInformationStaysAsEachViewerSawIt) {
  // A fog game: each seat's view of the shortened line is what it saw when those moves were made.
  Session s = Session::create("facet", json{{"modes", {"fog"}}});
  std::vector<std::string> moves;
  for (int i = 0; i < 6; ++i) {
    moves.push_back(s.legal().front());
    s.play(moves.back());
  }
  s.take_back(0);
  Session fresh = Session::create("facet", json{{"modes", {"fog"}}});
  for (int i = 0; i < 4; ++i) fresh.play(moves[static_cast<size_t>(i)]);
  for (Player v : {0, 1, kSpectator}) {
    EXPECT_EQ(s.observation(v), fresh.observation(v)) << v;
    json seen = s.events_for(v);
    seen.erase(seen.size() - 1);  // the take-back
    EXPECT_EQ(seen, fresh.events_for(v)) << v;
  }
}

TEST(Takeback, RefusedOutsidePlayAndForgedLogEntriesAreRefused) {
  Session setup = Session::create("stratego", json::object());
  EXPECT_THROW(setup.take_back(0), GameError);  // setup phase
  Session over = tigadi_after({"d1"});
  over.offer(1, "resign");
  EXPECT_THROW(over.take_back(0), GameError);
  Session s = tigadi_after({"d1", "a4"});
  EXPECT_THROW(s.take_back(2), GameError);
  EXPECT_THROW(s.apply_action(json{{"type", "takeback"}, {"player", 0}, {"to", 5}}), GameError);
  EXPECT_THROW(s.apply_action(json{{"type", "takeback"}, {"player", 0}, {"to", 2}}), GameError);  // nothing
  EXPECT_THROW(s.apply_action(json{{"type", "takeback"}, {"player", 0}}), GameError);
  EXPECT_EQ(s.state(), state_after({"d1", "a4"}));
  EXPECT_EQ(s.actions().size(), 2u);
  // Back into a setup phase: refused, the position stays in play.
  Session t = Session::create("stratego", json::object());
  t.setup_arrangement(0, "random", 1);
  t.setup_arrangement(1, "random", 2);
  t.play(t.legal().front());
  EXPECT_THROW(t.apply_action(json{{"type", "takeback"}, {"player", 0}, {"to", 1}}), GameError);
  EXPECT_EQ(t.game().ply(), 1);
}

}  // namespace
}  // namespace tabula
