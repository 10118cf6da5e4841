// Around the board (server/game_assist.cpp, docs/server.md): take-backs against the AI and between people,
// the AI's hint, the rematch, the analysis of a finished game, text records and their import, danger marks.
// Everything through the real service, its store and its AI worker threads.
#include "service_harness.h"

#include "core/record_text.h"
#include "core/session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using tabula::json;
using tabula::Session;
using namespace tabula::server;
using test_support::Harness;
using test_support::mv;
using test_support::status;
using test_support::tok;
using test_support::two_humans;

json against_ai(const std::string& game = "tigadi", int level = 2) {
  return json{{"game", game}, {"seats", {{{"type", "human"}, {"name", "Ana"}}, {{"type", "ai"}, {"level", level}}}}};
}

json what(const std::string& w) { return json{{"what", w}}; }

std::string id_of(const json& created) { return created["id"].get<std::string>(); }

json board(Harness& h, const std::string& id) { return h.svc().get(id, std::nullopt)["observation"]["board"]; }

// Plays `move` for seat 0 of a game against the AI and waits for the AI's reply.
void play_and_wait(Harness& h, const json& created, const std::string& move) {
  const std::string id = id_of(created);
  h.svc().move(id, tok(created, 0), mv(move));
  ASSERT_TRUE(h.pump_until([&] { return h.svc().get(id, std::nullopt)["observation"]["to_move"] == 0; }));
}

// ---- take-backs ----------------------------------------------------------------------------------------

TEST(GameAssist, AgainstTheAIATakebackUndoesYourTurnAndTheAIsReplyAndSurvivesARestart) {
  Harness h;
  const json g = h.svc().create(against_ai());
  const std::string id = id_of(g);
  play_and_wait(h, g, "d1");
  const json after_first = board(h, id);
  play_and_wait(h, g, h.svc().get(id, tok(g, 0))["legal"][0].get<std::string>());
  ASSERT_EQ(board(h, id).size(), 4u);
  json view = h.svc().get(id, tok(g, 0));
  EXPECT_EQ(view["assist"]["takeback"], true);
  EXPECT_EQ(view["assist"]["takeback_request"], false);  // no person to ask

  json answer = h.svc().takeback(id, tok(g, 0), what("request"));
  EXPECT_EQ(answer["takebacks"], 1);
  EXPECT_EQ(board(h, id), after_first);  // g1 and the AI's reply are gone
  view = h.svc().get(id, tok(g, 0));
  EXPECT_EQ(view["takebacks"], 1);
  EXPECT_EQ(view["observation"]["to_move"], 0);
  EXPECT_EQ(view["events"].back()["type"], "takeback");
  EXPECT_EQ(view["events"].back()["moves"], 2);
  // As often as you like, back to the start.
  h.svc().takeback(id, tok(g, 0), what("request"));
  EXPECT_EQ(board(h, id), json::object());
  EXPECT_EQ(status([&] { h.svc().takeback(id, tok(g, 0), what("request")); }), 409);  // nothing left

  // The log is stored: a restart replays the take-backs to the same game.
  h.svc().move(id, tok(g, 0), mv("g7"));
  ASSERT_TRUE(h.pump_until([&] { return h.svc().get(id, std::nullopt)["observation"]["to_move"] == 0; }));
  const json before = h.svc().get(id, tok(g, 0));
  h.restart();
  const json after = h.svc().get(id, tok(g, 0));
  EXPECT_EQ(after["observation"], before["observation"]);
  EXPECT_EQ(after["events"], before["events"]);
  EXPECT_EQ(after["takebacks"], 2);
}

TEST(GameAssist, BetweenPeopleATakebackIsRequestedAndTakenBackOnceTheOtherAccepts) {
  Harness h;
  const json g = h.svc().create(two_humans());
  const std::string id = id_of(g);
  h.svc().move(id, tok(g, 0), mv("d1"));
  h.svc().move(id, tok(g, 1), mv("a4"));
  EXPECT_EQ(h.svc().get(id, tok(g, 0))["assist"]["takeback"], false);  // not at will: there is a person
  EXPECT_EQ(h.svc().get(id, tok(g, 0))["assist"]["takeback_request"], true);
  EXPECT_EQ(status([&] { h.svc().takeback(id, tok(g, 1), what("accept")); }), 409);  // nothing asked

  json answer = h.svc().takeback(id, tok(g, 0), what("request"));
  EXPECT_EQ(answer["takeback_request"], (json{{"seat", 0}, {"accepted", json::array()}}));
  for (const auto& t : {tok(g, 1), tok(g, 0)})  // both seats see it standing (spectators too)
    EXPECT_EQ(h.svc().get(id, t)["takeback_request"]["seat"], 0);
  EXPECT_EQ(h.svc().get(id, std::nullopt)["takeback_request"]["seat"], 0);
  EXPECT_EQ(status([&] { h.svc().takeback(id, tok(g, 0), what("accept")); }), 409);  // one's own request
  EXPECT_EQ(status([&] { h.svc().takeback(id, tok(g, 0), what("request")); }), 409);  // already stands
  EXPECT_EQ(board(h, id).size(), 2u);

  h.svc().takeback(id, tok(g, 1), what("accept"));
  EXPECT_EQ(board(h, id), json::object());  // Bone's d1 and Seed's reply
  EXPECT_TRUE(h.svc().get(id, std::nullopt)["takeback_request"].is_null());
  EXPECT_EQ(h.svc().record(id)["takebacks"], 1);
}

TEST(GameAssist, ATakebackRequestIsDeclinedOrOvertakenByAMove) {
  Harness h;
  const json g = h.svc().create(two_humans());
  const std::string id = id_of(g);
  h.svc().move(id, tok(g, 0), mv("d1"));
  h.svc().takeback(id, tok(g, 0), what("request"));
  h.svc().takeback(id, tok(g, 1), what("decline"));
  EXPECT_TRUE(h.svc().get(id, std::nullopt)["takeback_request"].is_null());
  EXPECT_EQ(board(h, id).size(), 1u);

  h.svc().takeback(id, tok(g, 0), what("request"));
  h.svc().move(id, tok(g, 1), mv("a4"));  // Seed plays instead of answering
  EXPECT_TRUE(h.svc().get(id, std::nullopt)["takeback_request"].is_null());
  EXPECT_EQ(status([&] { h.svc().takeback(id, tok(g, 1), what("accept")); }), 409);
  EXPECT_EQ(board(h, id).size(), 2u);
  EXPECT_EQ(status([&] { h.svc().takeback(id, tok(g, 1), what("undo")); }), 400);
  EXPECT_EQ(status([&] { h.svc().takeback(id, std::nullopt, what("request")); }), 401);
}

TEST(GameAssist, BetweenPeopleNoTakebackInAGameThatHidesSomethingButAgainstTheAIThereIs) {
  Harness h;
  const json g = h.svc().create(
      json{{"game", "stratego"}, {"seats", {{{"type", "human"}}, {{"type", "human"}}}}});
  const std::string id = id_of(g);
  h.svc().setup(id, tok(g, 0), json{{"arrangement", "random"}});
  h.svc().setup(id, tok(g, 1), json{{"arrangement", "random"}});
  const std::string first = h.svc().get(id, tok(g, 0))["legal"][0];
  h.svc().move(id, tok(g, 0), mv(first));
  EXPECT_EQ(h.svc().get(id, tok(g, 0))["assist"]["takeback_request"], false);
  EXPECT_EQ(status([&] { h.svc().takeback(id, tok(g, 0), what("request")); }), 409);

  const json ai = h.svc().create(against_ai("stratego"));
  const std::string aid = id_of(ai);
  h.svc().setup(aid, tok(ai, 0), json{{"arrangement", "random"}});
  const std::string m = h.svc().get(aid, tok(ai, 0))["legal"][0];
  h.svc().move(aid, tok(ai, 0), mv(m));
  ASSERT_TRUE(h.pump_until([&] { return h.svc().get(aid, std::nullopt)["observation"]["to_move"] == 0; }));
  h.svc().takeback(aid, tok(ai, 0), what("request"));
  EXPECT_EQ(h.svc().get(aid, std::nullopt)["observation"]["ply"], 0);
}

// ---- hints ---------------------------------------------------------------------------------------------

TEST(GameAssist, AHintIsTheAIsMoveForYourSeatShownToThatSeatOnlyInGamesAgainstTheAI) {
  Harness h;
  const json g = h.svc().create(against_ai("truth"));
  const std::string id = id_of(g);
  h.svc().setup(id, tok(g, 0), json{{"arrangement", "suggested"}});
  ASSERT_TRUE(h.pump_until([&] { return h.svc().get(id, std::nullopt)["observation"]["phase"] == "play"; }));
  EXPECT_EQ(h.svc().get(id, tok(g, 0))["assist"]["hint"], true);
  json answer = h.svc().hint(id, tok(g, 0), json::object());
  EXPECT_EQ(answer["hint"], (json{{"move", nullptr}, {"pending", true}}));
  ASSERT_TRUE(h.pump_until([&] { return !h.svc().get(id, tok(g, 0))["hint"]["move"].is_null(); }));
  const json view = h.svc().get(id, tok(g, 0));
  const std::string hint = view["hint"]["move"];
  EXPECT_NE(std::find(view["legal"].begin(), view["legal"].end(), hint), view["legal"].end()) << hint;
  EXPECT_TRUE(h.svc().get(id, std::nullopt)["hint"].is_null());  // a spectator sees no hint
  // Asked again for the same position: the same hint at once.
  EXPECT_EQ(h.svc().hint(id, tok(g, 0), json::object())["hint"]["move"], hint);
  // Once a move is made the hint is gone.
  h.svc().move(id, tok(g, 0), mv(hint));
  EXPECT_TRUE(h.svc().get(id, tok(g, 0))["hint"].is_null());

  const json people = h.svc().create(two_humans());
  EXPECT_EQ(h.svc().get(id_of(people), tok(people, 0))["assist"]["hint"], false);
  EXPECT_EQ(status([&] { h.svc().hint(id_of(people), tok(people, 0), json::object()); }), 409);
  EXPECT_EQ(status([&] { h.svc().hint(id_of(people), tok(people, 1), json::object()); }), 409);
}

// ---- rematch -------------------------------------------------------------------------------------------

TEST(GameAssist, ARematchTurnsTheSeatsAndEveryoneKeepsTheirToken) {
  Harness h;
  const json g = h.svc().create(two_humans());
  const std::string id = id_of(g);
  EXPECT_EQ(status([&] { h.svc().rematch(id, tok(g, 0), json::object()); }), 409);  // the game is on
  h.svc().move(id, tok(g, 0), mv("d1"));
  h.svc().offer(id, tok(g, 1), json{{"what", "resign"}});
  EXPECT_EQ(h.svc().get(id, tok(g, 1))["assist"]["rematch"], true);
  json r = h.svc().rematch(id, tok(g, 0), json::object());
  EXPECT_EQ(r["rematch"], (json{{"asked", {0}}, {"id", nullptr}}));
  EXPECT_EQ(h.svc().get(id, tok(g, 0))["assist"]["rematch"], false);  // asked already
  r = h.svc().rematch(id, tok(g, 1), json::object());
  ASSERT_TRUE(r["rematch"]["id"].is_string());
  const std::string next = r["rematch"]["id"];
  EXPECT_EQ(h.svc().get(id, std::nullopt)["rematch"]["id"], next);
  // Sides swapped: Bo is Bone now, Ana Seed; their old tokens act for their new seats.
  const json seats = h.svc().get(next, std::nullopt)["seats"];
  EXPECT_EQ(seats[0]["name"], "Bo");
  EXPECT_EQ(seats[1]["name"], "Ana");
  EXPECT_EQ(h.svc().get(next, tok(g, 1))["you"], 0);
  EXPECT_EQ(h.svc().get(next, tok(g, 0))["you"], 1);
  h.svc().move(next, tok(g, 1), mv("g7"));
  EXPECT_EQ(status([&] { h.svc().move(next, tok(g, 1), mv("a1")); }), 409);  // Seed's turn: Ana's
}

TEST(GameAssist, AgainstTheAIOneRequestMakesTheRematchAndTheAIKeepsItsLevel) {
  Harness h;
  const json g = h.svc().create(against_ai("tigadi", 2));
  const std::string id = id_of(g);
  h.svc().offer(id, tok(g, 0), json{{"what", "resign"}});
  const std::string next = h.svc().rematch(id, tok(g, 0), json::object())["rematch"]["id"];
  const json seats = h.svc().get(next, std::nullopt)["seats"];
  EXPECT_EQ(seats[0]["type"], "ai");
  EXPECT_EQ(seats[0]["level"], 2);
  EXPECT_EQ(seats[1]["name"], "Ana");
  // The AI moves first now.
  ASSERT_TRUE(h.pump_until([&] { return h.svc().get(next, std::nullopt)["observation"]["ply"] == 1; }));
  EXPECT_EQ(h.svc().get(next, tok(g, 0))["you"], 1);
}

// ---- analysis ------------------------------------------------------------------------------------------

TEST(GameAssist, AFinishedGameIsAnalysedPositionByPosition) {
  Harness h;
  const json g = h.svc().create(two_humans());
  const std::string id = id_of(g);
  EXPECT_EQ(status([&] { h.svc().start_analysis(id); }), 409);  // still on
  {  // Over before a move: nothing to analyse, and the page is told so.
    const json early = h.svc().create(two_humans());
    h.svc().offer(id_of(early), tok(early, 0), json{{"what", "resign"}});
    EXPECT_EQ(h.svc().get(id_of(early), std::nullopt)["assist"]["analysis"], false);
    EXPECT_EQ(status([&] { h.svc().start_analysis(id_of(early)); }), 409);
  }
  const std::vector<std::string> moves = {"d1", "a4", "g1", "a7", "g4"};
  for (size_t i = 0; i < moves.size(); ++i) h.svc().move(id, tok(g, static_cast<int>(i % 2)), mv(moves[i]));
  h.svc().offer(id, tok(g, 1), json{{"what", "resign"}});
  EXPECT_EQ(h.svc().get(id, std::nullopt)["assist"]["analysis"], true);
  json a = h.svc().start_analysis(id);
  EXPECT_EQ(a["total"], moves.size());
  ASSERT_TRUE(h.pump_until([&] { return h.svc().analysis(id)["status"] == "done"; }));
  a = h.svc().analysis(id);
  ASSERT_EQ(a["positions"].size(), moves.size());
  Session replay = Session::create("tigadi", json::object());
  for (size_t i = 0; i < moves.size(); ++i) {
    const json& p = a["positions"][i];
    EXPECT_EQ(p["index"], i);
    EXPECT_EQ(p["mover"], static_cast<int>(i % 2));
    EXPECT_EQ(p["played"], moves[i]);
    const auto legal = replay.legal();
    EXPECT_NE(std::find(legal.begin(), legal.end(), p["best"].get<std::string>()), legal.end()) << p;
    EXPECT_TRUE(p["score"].is_number_integer());
    if (i + 1 < moves.size()) {  // two players: the next position's score says what the move left
      ASSERT_TRUE(p["loss"].is_number_integer()) << p;
      EXPECT_EQ(p["loss"], std::max(0, p["score"].get<int>() + a["positions"][i + 1]["score"].get<int>()));
    }
    replay.play(moves[i]);
  }
  // Asked again: the same analysis, not a second one.
  EXPECT_EQ(h.svc().start_analysis(id), a);
  EXPECT_EQ(h.svc().get(id, std::nullopt)["analysis"], (json{{"status", "done"}, {"done", 5}, {"total", 5}}));
}

// ---- records -------------------------------------------------------------------------------------------

TEST(GameAssist, TheTextRecordIsTheCallersViewWhileTheGameHidesSomething) {
  Harness h;
  const json g = h.svc().create(
      json{{"game", "stratego"}, {"seats", {{{"type", "human"}, {"name", "Ana"}}, {{"type", "human"}, {"name", "Bo"}}}}});
  const std::string id = id_of(g);
  h.svc().setup(id, tok(g, 0), json{{"arrangement", "random"}});
  h.svc().setup(id, tok(g, 1), json{{"arrangement", "random"}});
  const std::string red = h.svc().record_text(id, tok(g, 0));
  const std::string spectator = h.svc().record_text(id, std::nullopt);
  EXPECT_NE(red.find("[View \"0\"]"), std::string::npos) << red;
  EXPECT_NE(red.find("[Setup0 "), std::string::npos) << red;
  EXPECT_EQ(red.find("[Setup1 "), std::string::npos) << red;
  EXPECT_NE(red.find("[Seat0 \"Ana\"]"), std::string::npos) << red;
  EXPECT_EQ(spectator.find("[Setup"), std::string::npos) << spectator;
  h.svc().offer(id, tok(g, 1), json{{"what", "resign"}});
  const std::string whole = h.svc().record_text(id, std::nullopt);
  EXPECT_NE(whole.find("[Setup1 "), std::string::npos) << whole;
  EXPECT_EQ(whole.find("[View"), std::string::npos) << whole;
}

TEST(GameAssist, AnImportedRecordIsAGameOfItsOwnToReplayAndAnalyse) {
  Harness h;
  const json g = h.svc().create(two_humans());
  const std::string id = id_of(g);
  for (const char* m : {"d1", "a4", "g1"}) h.svc().move(id, tok(g, h.svc().get(id, std::nullopt)["observation"]["to_move"].get<int>()), mv(m));
  h.svc().offer(id, tok(g, 0), json{{"what", "resign"}});
  const std::string text = h.svc().record_text(id, std::nullopt);

  const json imported = h.svc().import_record(json{{"text", text}});
  const std::string copy = imported["id"];
  EXPECT_NE(copy, id);
  EXPECT_EQ(imported["status"], "over");
  EXPECT_EQ(h.svc().get(copy, std::nullopt)["observation"], h.svc().get(id, std::nullopt)["observation"]);
  EXPECT_EQ(h.svc().get(copy, std::nullopt)["seats"][0]["name"], "Ana");
  EXPECT_EQ(h.svc().record(copy)["moves"], h.svc().record(id)["moves"]);
  h.svc().start_analysis(copy);
  ASSERT_TRUE(h.pump_until([&] { return h.svc().analysis(copy)["status"] == "done"; }));
  // Nobody holds a token for it: nobody plays on. A text that does not replay is refused, naming its line.
  h.restart();
  EXPECT_EQ(h.svc().get(copy, std::nullopt)["status"], "over");
  EXPECT_EQ(status([&] { h.svc().import_record(json{{"text", "[Game \"tigadi\"]\n\n1. d1 d1 *\n"}}); }), 400);
  EXPECT_EQ(status([&] { h.svc().import_record(json{{"text", 5}}); }), 400);
  EXPECT_EQ(status([&] { h.svc().import_record(json::array()); }), 400);
}

// ---- danger marks --------------------------------------------------------------------------------------

TEST(GameAssist, EveryViewCarriesTheDangerMarksOfItsViewer) {
  Harness h;
  const json g = h.svc().create(two_humans());
  const std::string id = id_of(g);
  h.svc().move(id, tok(g, 0), mv("a1"));
  h.svc().move(id, tok(g, 1), mv("a7"));
  h.svc().move(id, tok(g, 0), mv("d1"));  // a1-d1-g1 open, Bone's hand can fill g1
  const json marks = h.svc().get(id, tok(g, 1))["danger"];
  ASSERT_EQ(marks.size(), 1u) << marks;
  EXPECT_EQ(marks[0]["square"], "g1");
  EXPECT_EQ(marks[0]["why"], "line-open");
  EXPECT_EQ(h.svc().get(id, std::nullopt)["danger"], marks);
}

}  // namespace
