// Draw by agreement, one rule sentence a test, for every two-player game (shared rulings, common rules:
// "either player may offer during play; the offer stands until accepted, declined, or the other player
// moves"; FACET's rules add that the offering player's own move does not withdraw it and that there is one
// offer at a time). Tigadi, Stratego and FACET share the rule's code (core/draw_offer.h), but each game keeps
// the offer in its own state and undo, so each is tested here on a position of its own.
#include "ai/ai.h"
#include "core/session.h"

#include <gtest/gtest.h>

#include <string>

namespace tabula {
namespace {

// A game in play, player 0 to move, with moves for both sides.
Session in_play(const std::string& game) {
  if (game == "tigadi")  // the moving phase: both hands empty
    return Session::from_state("tigadi", json{{"board", {{"a1", "0G"}, {"d1", "0G"}, {"b2", "0G"},
                                                         {"a7", "1G"}, {"d7", "1G"}, {"f6", "1G"}}},
                                              {"in_hand", {0, 0}}});
  Session s = Session::create(game, json::object());
  if (game == "stratego") {
    s.setup_arrangement(0, "random", 1);
    s.setup_arrangement(1, "random", 2);
  }
  return s;
}

std::string first_legal(const Session& s) { return s.legal().front(); }

ErrorKind error_of(Session& s, Player p, const char* what) {
  try {
    s.offer(p, what);
  } catch (const GameError& e) {
    return e.kind();
  }
  ADD_FAILURE() << what << " by " << p << " was accepted";
  return ErrorKind::bad_request;
}

class DrawByAgreement : public ::testing::TestWithParam<std::string> {};

TEST_P(DrawByAgreement, EitherPlayerMayOfferDuringPlayAndAnAcceptedOfferDrawsTheGame) {
  Session s = in_play(GetParam());
  auto e = s.offer(1, "draw");  // not bound to the turn: player 0 is to move
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].full, (json{{"type", "offer"}, {"player", 1}, {"what", "draw"}}));
  EXPECT_EQ(s.state()["draw_offer"], 1);
  EXPECT_TRUE(s.game().offer_stands("draw", 0));
  EXPECT_FALSE(s.game().offer_stands("draw", 1));
  e = s.offer(0, "accept");
  EXPECT_TRUE(s.over());
  EXPECT_EQ(s.state()["result"], (json{{"winners", json::array()}, {"reason", "agreement"}}));
  EXPECT_EQ(e.back().full["type"], "over");
  EXPECT_TRUE(s.state()["draw_offer"].is_null()) << "a finished game shows no offer";
  EXPECT_EQ(error_of(s, 1, "draw"), ErrorKind::conflict);
}

TEST_P(DrawByAgreement, ADeclinedOfferNoLongerStands) {
  Session s = in_play(GetParam());
  s.offer(0, "draw");
  s.offer(1, "decline");
  EXPECT_TRUE(s.state()["draw_offer"].is_null());
  EXPECT_FALSE(s.game().offer_stands("draw", 1));
  EXPECT_EQ(error_of(s, 1, "accept"), ErrorKind::conflict);
  EXPECT_FALSE(s.over());
}

TEST_P(DrawByAgreement, AMoveByTheOtherPlayerDeclinesTheOffer) {
  Session s = in_play(GetParam());
  s.offer(1, "draw");
  auto e = s.play(first_legal(s));  // player 0 moves instead of answering
  EXPECT_EQ(e.back().full, (json{{"type", "offer"}, {"player", 0}, {"what", "decline"}}));
  EXPECT_TRUE(s.state()["draw_offer"].is_null());
  EXPECT_EQ(error_of(s, 0, "accept"), ErrorKind::conflict);
}

TEST_P(DrawByAgreement, TheOfferingPlayersOwnMoveDoesNotWithdrawIt) {
  Session s = in_play(GetParam());
  s.offer(0, "draw");
  s.play(first_legal(s));
  EXPECT_EQ(s.state()["draw_offer"], 0);
  s.offer(1, "accept");
  EXPECT_EQ(s.state()["result"]["reason"], "agreement");
}

TEST_P(DrawByAgreement, OneOfferAtATime) {
  Session s = in_play(GetParam());
  s.offer(0, "draw");
  EXPECT_EQ(error_of(s, 0, "draw"), ErrorKind::conflict);  // already stands
  EXPECT_EQ(error_of(s, 1, "draw"), ErrorKind::conflict);  // answer it instead
  EXPECT_EQ(error_of(s, 0, "accept"), ErrorKind::conflict);  // one's own offer
  EXPECT_EQ(error_of(s, 0, "stalemate"), ErrorKind::conflict);  // Truth's offer, not this game's
  EXPECT_EQ(s.state()["draw_offer"], 0);
}

TEST_P(DrawByAgreement, TheStateAndEveryObservationCarryTheOfferAndAGivenStateMayHoldIt) {
  Session s = in_play(GetParam());
  s.offer(0, "draw");
  for (Player v : {0, 1, kSpectator}) EXPECT_EQ(s.observation(v)["draw_offer"], 0) << v;
  Session given = Session::from_state(GetParam(), s.state());
  EXPECT_EQ(given.state()["draw_offer"], 0);
  given.offer(1, "accept");
  EXPECT_EQ(given.state()["result"]["reason"], "agreement");
  json bad = s.state();
  bad["draw_offer"] = 2;
  EXPECT_THROW(Session::from_state(GetParam(), bad), GameError);
}

TEST_P(DrawByAgreement, UndoRestoresTheOfferAMoveDeclined) {
  Session s = in_play(GetParam());
  s.offer(1, "draw");
  std::unique_ptr<Game> g = s.game().clone();
  const json before = g->state_json();
  auto m = find_legal_move(*g, first_legal(s));
  ASSERT_TRUE(m);
  g->apply(*m);
  EXPECT_TRUE(g->state_json()["draw_offer"].is_null());
  g->undo();
  EXPECT_EQ(g->state_json(), before);
}

// A position where player 0 is far ahead, player 1 to move.
Session lopsided(const std::string& game) {
  if (game == "tigadi")
    return Session::from_state("tigadi", json{{"board", {{"a1", "0G"}, {"d1", "0G"}, {"b2", "0G"}, {"f2", "0G"},
                                                         {"e4", "0G"}, {"c5", "0G"}, {"a7", "1G"}, {"g7", "1G"},
                                                         {"f6", "1G"}}},
                                              {"in_hand", {0, 0}}, {"to_move", 1}});
  if (game == "stratego")
    return Session::from_state("stratego", json{{"board", {{"a1", "0F"}, {"b1", "0M"}, {"a2", "0G"}, {"d1", "0C"},
                                                           {"e1", "0C"}, {"f1", "0J"}, {"j10", "1F"}, {"j9", "1O"}}},
                                                {"to_move", 1},
                                                // Red's army fought its way here: Blue knows what it faces.
                                                {"revealed", {"a2", "b1", "d1", "e1", "f1"}},
                                                {"captured", {{"0", json::array()},
                                                              {"1", {"M", "G", "C", "C", "J", "J", "J"}}}}});
  return Session::from_state("facet", json{{"board", {{"e1", "0M"}, {"a2", "0A"}, {"b2", "0A"}, {"c2", "0A"},
                                                      {"d2", "0A"}, {"f2", "0A"}, {"g2", "0A"}, {"e9", "1M"},
                                                      {"a9", "1A"}}},
                                           {"to_move", 1}});
}

TEST_P(DrawByAgreement, TheAIAnswersAStandingOfferFromItsEvaluation) {
  ai::Limits limits;
  limits.level = 2;
  limits.nodes = 2000;
  Session behind = lopsided(GetParam());
  behind.offer(0, "draw");
  EXPECT_TRUE(ai::accepts_offer(behind.game(), 1, "draw", limits)) << "far behind, it takes the draw";
  Session ahead = lopsided(GetParam());
  ahead.offer(1, "draw");
  EXPECT_FALSE(ai::accepts_offer(ahead.game(), 0, "draw", limits)) << "far ahead, it plays on";
}

INSTANTIATE_TEST_SUITE_P(EveryTwoPlayerGame, DrawByAgreement, ::testing::Values("tigadi", "stratego", "facet"),
                         [](const auto& param_info) { return param_info.param; });

TEST(DrawByAgreementStratego, NoDrawIsOfferedDuringSetup) {
  Session s = Session::create("stratego", json::object());
  s.setup_arrangement(0, "random", 1);
  EXPECT_EQ(error_of(s, 1, "draw"), ErrorKind::conflict);
  EXPECT_TRUE(s.state()["draw_offer"].is_null());
}

}  // namespace
}  // namespace tabula
