// The engine protocol (shared/spec/engine-protocol.md) driven line by line, as a script or another program
// would: every command, every kind of bad input, and a randomized barrage of malformed lines.
#include "cli/engine_protocol.h"
#include "games/truth/truth.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace tabula {
namespace {

json ask(EngineProtocol& e, const std::string& line) {
  std::string out = e.handle_line(line);
  EXPECT_EQ(out.find('\n'), std::string::npos) << "a response is one line";
  json j = json::parse(out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << out;
  EXPECT_TRUE(j.contains("ok")) << out;
  return j;
}

json ask(EngineProtocol& e, const char* line) { return ask(e, std::string(line)); }
json ask(EngineProtocol& e, const json& request) { return ask(e, request.dump()); }

TEST(EngineProtocol, NewLegalPlayStateObserve) {
  EngineProtocol e;
  json r = ask(e, json{{"cmd", "new"}, {"game", "tigadi"}, {"options", json::object()}});
  ASSERT_TRUE(r["ok"]);
  EXPECT_EQ(r["state"]["in_hand"], json::array({9, 9}));
  r = ask(e, json{{"cmd", "legal"}});
  EXPECT_EQ(r["moves"].size(), 24u);
  EXPECT_EQ(r["moves"][0], "a1");
  r = ask(e, json{{"cmd", "play"}, {"move", "d1"}});
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["events"], json::array({json{{"type", "place"}, {"player", 0}, {"to", "d1"}}}));
  EXPECT_EQ(r["state"]["board"], (json{{"d1", "0G"}}));
  r = ask(e, json{{"cmd", "state"}});
  EXPECT_EQ(r["state"]["to_move"], 1);
  r = ask(e, json{{"cmd", "observe"}, {"player", 1}});
  EXPECT_EQ(r["observation"], ask(e, json{{"cmd", "state"}})["state"]);
  EXPECT_EQ(r["events"].size(), 1u);
}

TEST(EngineProtocol, NewFromAGivenState) {
  EngineProtocol e;
  json state = {{"board", {{"d1", "0G"}, {"g1", "0G"}, {"a4", "0G"}, {"c4", "1G"}, {"b6", "1G"}, {"f6", "1G"}}},
                {"in_hand", {0, 0}}};
  json r = ask(e, json{{"cmd", "new"}, {"game", "tigadi"}, {"state", state}});
  ASSERT_TRUE(r["ok"]) << r;
  r = ask(e, json{{"cmd", "play"}, {"move", "a4-a1xc4"}});
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["result"], (json{{"winners", {0}}, {"reason", "reduced-to-two"}}));
  EXPECT_EQ(r["events"].back()["type"], "over");
}

TEST(EngineProtocol, IdIsCopiedIntoTheResponse) {
  EngineProtocol e;
  EXPECT_EQ(ask(e, R"({"cmd":"new","game":"tigadi","id":7})")["id"], 7);
  EXPECT_EQ(ask(e, R"({"cmd":"legal","id":"abc"})")["id"], "abc");
  EXPECT_EQ(ask(e, R"({"cmd":"nope","id":{"k":[1]}})")["id"], (json{{"k", {1}}}));
}

TEST(EngineProtocol, AFailedRequestChangesNothing) {
  EngineProtocol e;
  ask(e, R"({"cmd":"new","game":"tigadi"})");
  ask(e, R"({"cmd":"play","move":"d1"})");
  const json before = ask(e, R"({"cmd":"state"})")["state"];
  for (const char* bad : {R"({"cmd":"play","move":"d1"})", R"({"cmd":"play","move":"zz9"})",
                          R"({"cmd":"play","move":5})", R"({"cmd":"play"})", R"({"cmd":"offer","player":0,"what":"accept"})",
                          R"({"cmd":"offer","player":7,"what":"resign"})", R"({"cmd":"setup","player":0,"placement":{}})",
                          R"({"cmd":"setup","player":0,"arrangement":"random","seed":3})",
                          R"({"cmd":"new","game":"chess"})", R"({"cmd":"new","game":"tigadi","options":{"x":1}})",
                          R"({"cmd":"new","game":"tigadi","state":{"in_hand":[10,0]}})",
                          R"({"cmd":"new","game":"tigadi","state":{"board":{"a1":"0G","a7":"1G"}}})",
                          R"({"cmd":"perft","depth":99})", R"({"cmd":"perft","depth":-1})",
                          R"({"cmd":"ai","level":9})", R"({"cmd":"ai","level":2,"ms":5,"nodes":5})",
                          R"({"cmd":"ai","level":3,"player":1,"answer":"draw"})", R"({"cmd":"observe","player":"x"})"}) {
    json r = ask(e, bad);
    EXPECT_FALSE(r["ok"]) << bad;
    EXPECT_TRUE(r["error"].is_string()) << bad;
    EXPECT_FALSE(r["error"].get<std::string>().empty());
  }
  EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"], before);
}

TEST(EngineProtocol, IllegalMovesNameTheReason) {
  EngineProtocol e;
  ask(e, R"({"cmd":"new","game":"tigadi"})");
  ask(e, R"({"cmd":"play","move":"d1"})");
  json r = ask(e, R"({"cmd":"play","move":"d1"})");
  EXPECT_EQ(r["error"], "d1 is occupied");
  r = ask(e, R"({"cmd":"play","move":"a4-a1"})");
  EXPECT_NE(r["error"].get<std::string>().find("nothing moves"), std::string::npos);
}

TEST(EngineProtocol, MalformedInputIsAnsweredNotFatal) {
  EngineProtocol e;
  for (const char* bad : {"", "not json at all", "{", "[]", "42", "null", R"({"cmd":5})", R"({"cmd":"legal"})",
                          R"({"cmd":"new","game":"tigadi"})" "x", "\xff\xfe", R"({"cmd":"new","game":"tigadi")"}) {
    json r = ask(e, std::string(bad));
    EXPECT_FALSE(r["ok"]) << bad;
  }
  EXPECT_FALSE(ask(e, std::string(2'000'000, '[')).at("ok"));
  EXPECT_FALSE(ask(e, std::string(100'000, '[') + std::string(100'000, ']')).at("ok"));
  EXPECT_FALSE(ask(e, "{\"cmd\":\"" + std::string(500'000, 'a') + "\"}").at("ok"));
  EXPECT_TRUE(ask(e, R"({"cmd":"new","game":"tigadi"})").at("ok"));
}

TEST(EngineProtocol, ResignEndsTheGame) {
  EngineProtocol e;
  ask(e, R"({"cmd":"new","game":"tigadi"})");
  json r = ask(e, R"({"cmd":"offer","player":0,"what":"resign"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["result"], (json{{"winners", {1}}, {"reason", "resignation"}}));
  EXPECT_FALSE(ask(e, R"({"cmd":"play","move":"d1"})")["ok"]);
  EXPECT_EQ(ask(e, R"({"cmd":"legal"})")["moves"], json::array());
}

TEST(EngineProtocol, PerftCountsSequences) {
  EngineProtocol e;
  ask(e, R"({"cmd":"new","game":"tigadi"})");
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":3})")["nodes"], 12144);
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":0})")["nodes"], 1);
  // perft leaves the game as it was
  EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"]["ply"], 0);
}

// P2: the work of one perft request is bounded by the positions it expands, not only by its depth.
TEST(EngineProtocol, PerftRefusesARequestPastItsBudgetAndChangesNothing) {
  // Tigadi from the start: perft(d) generates moves in every position fewer than d plies deep, so perft(3)
  // expands 1 + 24 + 552 = 577 positions and perft(4) 12,721.
  EngineProtocol e(/*perft_expansions=*/1'000);
  ask(e, R"({"cmd":"new","game":"tigadi"})");
  const json before = ask(e, R"({"cmd":"state"})");
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":3})")["nodes"], 12144);
  json r = ask(e, R"({"cmd":"perft","depth":4})");
  EXPECT_FALSE(r["ok"]) << r;
  EXPECT_NE(r["error"].get<std::string>().find("ask for a smaller depth"), std::string::npos) << r;
  EXPECT_EQ(ask(e, R"({"cmd":"state"})"), before);
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":3})")["nodes"], 12144);
  // The real budget lets Tigadi's perft(6) through: it expands 1 + 24 + ... + 5,150,880 = 5,418,625 positions.
  EXPECT_GE(EngineProtocol::kMaxPerftExpansions, 5'418'625u);
}

TEST(EngineProtocol, AiAnswersALegalMoveDeterministicallyWithANodeBudget) {
  EngineProtocol e;
  ask(e, R"({"cmd":"new","game":"tigadi"})");
  for (const char* m : {"a1", "c4", "d1"}) ask(e, json{{"cmd", "play"}, {"move", m}});
  json legal = ask(e, R"({"cmd":"legal"})")["moves"];
  for (int level = 1; level <= 3; ++level) {
    json req = {{"cmd", "ai"}, {"level", level}, {"nodes", 2000}, {"seed", 5}};
    json a = ask(e, req), b = ask(e, req);
    ASSERT_TRUE(a["ok"]) << a;
    EXPECT_EQ(a["move"], b["move"]);
    EXPECT_NE(std::find(legal.begin(), legal.end(), a["move"]), legal.end()) << a["move"];
  }
  // Seed must block g1 (or take a Bone goti): a1-d1-g1 is one placement from closing.
  json a = ask(e, R"({"cmd":"ai","level":3,"nodes":20000,"seed":1})");
  EXPECT_EQ(a["move"], "g1");
  EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"]["ply"], 3);
}

// --- Stratego: every command, with hidden identities ---------------------------------------------------

TEST(EngineProtocolStratego, EveryCommandFromSetupToTheEnd) {
  EngineProtocol e;
  json r = ask(e, R"({"cmd":"new","game":"stratego","options":{"max_plies":500}})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["phase"], "setup");
  EXPECT_EQ(r["state"]["options"]["max_plies"], 500);
  EXPECT_EQ(ask(e, R"({"cmd":"legal"})")["moves"], json::array());
  EXPECT_FALSE(ask(e, R"({"cmd":"play","move":"a4-a5"})")["ok"]);

  r = ask(e, R"({"cmd":"setup","player":0,"arrangement":"blitzkrieg"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["events"], json::array({json{{"type", "setup"}, {"player", 0}}}));
  // Blue sees nothing of Red's placement.
  EXPECT_EQ(ask(e, R"({"cmd":"observe","player":1})")["observation"]["board"], json::object());
  r = ask(e, R"({"cmd":"setup","player":1,"arrangement":"random","seed":7})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["phase"], "play");
  EXPECT_EQ(r["state"]["board"].size(), 80u);

  EXPECT_EQ(ask(e, R"({"cmd":"legal"})")["moves"],
            json::array({"a4-a5", "b4-b5", "f4-f5", "i4-i5", "i4-i6", "i4-i7"}));
  const uint64_t perft2 = ask(e, R"({"cmd":"perft","depth":2})")["nodes"];
  EXPECT_GT(perft2, 6u);

  // An AI move for Red, deterministic with a node budget and a seed; it is one of the legal moves.
  json a = ask(e, R"({"cmd":"ai","level":3,"nodes":5000,"seed":3})");
  ASSERT_TRUE(a["ok"]) << a;
  EXPECT_EQ(a["move"], ask(e, R"({"cmd":"ai","level":3,"nodes":5000,"seed":3})")["move"]);

  r = ask(e, R"({"cmd":"play","move":"i4-i7"})");  // a long Scout attack on Blue's front rank
  ASSERT_TRUE(r["ok"]) << r;
  ASSERT_EQ(r["events"][0]["type"], "battle");
  EXPECT_EQ(r["events"][0]["attacker"], "0O");
  // Blue's view: its own army known, Red's unknown; the battle it saw shows both pieces.
  json o = ask(e, R"({"cmd":"observe","player":1})");
  for (auto it = o["observation"]["board"].begin(); it != o["observation"]["board"].end(); ++it)
    if (it->get<std::string>()[0] == '0') {
      EXPECT_EQ(*it, "0?") << it.key();
    }
  EXPECT_EQ(o["events"].back()["type"], "battle");
  EXPECT_EQ(o["events"].back()["attacker"], "0O");

  // A draw offer (shared rulings: every two-player game), the AI's answer for the other seat, a decline;
  // nothing to answer for the seat that offered; resignation ends it.
  r = ask(e, R"({"cmd":"offer","player":0,"what":"draw"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["draw_offer"], 0);
  EXPECT_TRUE(ask(e, R"({"cmd":"ai","level":2,"nodes":500,"player":1,"answer":"draw"})")["accept"].is_boolean());
  EXPECT_FALSE(ask(e, R"({"cmd":"ai","level":3,"player":0,"answer":"draw"})")["ok"]);
  EXPECT_TRUE(ask(e, R"({"cmd":"offer","player":1,"what":"decline"})")["ok"]);
  r = ask(e, R"({"cmd":"offer","player":1,"what":"resign"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["result"], (json{{"winners", {0}}, {"reason", "resignation"}}));
  // Once over, Blue's observation is the whole state.
  EXPECT_EQ(ask(e, R"({"cmd":"observe","player":1})")["observation"], ask(e, R"({"cmd":"state"})")["state"]);
}

TEST(EngineProtocolStratego, RefusedSetupsChangeNothing) {
  EngineProtocol e;
  EXPECT_FALSE(ask(e, R"({"cmd":"new","game":"stratego","options":{"fog":true}})")["ok"]);
  ask(e, R"({"cmd":"new","game":"stratego"})");
  const json before = ask(e, R"({"cmd":"state"})")["state"];
  for (const char* bad : {R"({"cmd":"setup","player":0,"placement":{"a1":"F"}})",
                          R"({"cmd":"setup","player":0,"arrangement":"suggested"})",
                          R"({"cmd":"setup","player":2,"arrangement":"random"})",
                          R"({"cmd":"setup","player":0,"placement":"F"})",
                          R"({"cmd":"setup","player":1,"arrangement":"no-such"})"}) {
    json r = ask(e, bad);
    EXPECT_FALSE(r["ok"]) << bad;
    EXPECT_FALSE(r["error"].get<std::string>().empty());
    EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"], before) << bad;
  }
  ask(e, R"({"cmd":"setup","player":0,"arrangement":"random","seed":1})");
  ask(e, R"({"cmd":"setup","player":1,"arrangement":"random","seed":2})");
  const json in_play = ask(e, R"({"cmd":"state"})")["state"];
  EXPECT_FALSE(ask(e, R"({"cmd":"setup","player":0,"arrangement":"blitzkrieg"})")["ok"]);
  EXPECT_FALSE(ask(e, R"({"cmd":"play","move":"a1-a2"})")["ok"]);
  EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"], in_play);
}

TEST(EngineProtocolStratego, NewFromAStateStartsItsHistoryThere) {
  EngineProtocol e;
  json state = {{"board", {{"e4", "0J"}, {"e5", "1F"}, {"a1", "0T"}, {"j10", "1T"}}}, {"to_move", 0}};
  json r = ask(e, json{{"cmd", "new"}, {"game", "stratego"}, {"state", state}});
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["phase"], "play");
  r = ask(e, R"({"cmd":"play","move":"e4-e5"})");
  EXPECT_EQ(r["state"]["result"], (json{{"winners", {0}}, {"reason", "flag-captured"}}));
}

// A game that ends before play begins reveals no setup (docs/rulings.md C1): `observe` shows each player only
// its own placement and the spectators none, with the result; `state` stays the whole truth, as the engine is
// the local driver's referee.
TEST(EngineProtocolStratego, AResignationDuringSetupIsObservedWithoutTheOtherSetup) {
  auto red_pieces = [](const json& board) {
    size_t n = 0;
    for (auto it = board.begin(); it != board.end(); ++it) n += it->get<std::string>()[0] == '0';
    return n;
  };
  for (const bool from_a_state : {false, true}) {
    EngineProtocol e;
    ask(e, R"({"cmd":"new","game":"stratego"})");
    ask(e, R"({"cmd":"setup","player":0,"arrangement":"blitzkrieg"})");
    if (from_a_state) {  // the same setup phase given as a state: Red is in, Blue is not
      const json state = ask(e, R"({"cmd":"state"})")["state"];
      ASSERT_TRUE(ask(e, json{{"cmd", "new"}, {"game", "stratego"}, {"state", state}})["ok"]);
    }
    json r = ask(e, R"({"cmd":"offer","player":1,"what":"resign"})");
    ASSERT_TRUE(r["ok"]) << r;
    EXPECT_EQ(red_pieces(r["state"]["board"]), 40u);
    const json red = ask(e, R"({"cmd":"observe","player":0})");
    EXPECT_EQ(red["observation"]["phase"], "over");
    EXPECT_EQ(red_pieces(red["observation"]["board"]), 40u);
    EXPECT_EQ(red["observation"]["board"], ask(e, R"({"cmd":"state"})")["state"]["board"]);
    for (const char* line : {R"({"cmd":"observe","player":1})", R"({"cmd":"observe"})"}) {
      const json o = ask(e, line);
      EXPECT_EQ(o["observation"]["board"], json::object()) << line;
      EXPECT_EQ(o["observation"]["result"], (json{{"winners", {0}}, {"reason", "resignation"}})) << line;
      const std::string events = o["events"].dump();
      for (const char* kind : {"\"0F\"", "\"0B\"", "\"0M\"", "placement"}) EXPECT_EQ(events.find(kind), std::string::npos) << line;
    }
  }
}

TEST(EngineProtocolFacet, EveryCommandInAMomentumGame) {
  EngineProtocol e;
  EXPECT_FALSE(ask(e, R"({"cmd":"new","game":"facet","options":{"modes":["momentum","decay"]}})")["ok"]);
  EXPECT_FALSE(ask(e, R"({"cmd":"new","game":"facet","options":{"modes":["momentum","fog"]}})")["ok"]);
  EXPECT_FALSE(ask(e, R"({"cmd":"new","game":"facet","options":{"tempo":1}})")["ok"]);
  json r = ask(e, R"({"cmd":"new","game":"facet","options":{"modes":["momentum"]}})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["options"], (json{{"layout", "classic"}, {"seed", 0}, {"modes", {"momentum"}}}));
  EXPECT_EQ(ask(e, R"({"cmd":"legal"})")["moves"].size(), 40u);
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":3})")["nodes"], 77414);
  EXPECT_FALSE(ask(e, R"({"cmd":"setup","player":0,"arrangement":"random"})")["ok"]);  // FACET has no setup

  // White's Spire stone on d2 slides to the Throne g5 and keeps the Spire's move as a badge.
  r = ask(e, R"({"cmd":"play","move":"d2-g5"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["events"], json::array({json{{"type", "move"}, {"player", 0}, {"from", "d2"}, {"to", "g5"}}}));
  EXPECT_EQ(r["state"]["badges"], (json{{"g5", "S"}}));
  // No hidden information: each player's observation is the state.
  EXPECT_EQ(ask(e, R"({"cmd":"observe","player":1})")["observation"], ask(e, R"({"cmd":"state"})")["state"]);
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":1})")["nodes"], ask(e, R"({"cmd":"legal"})")["moves"].size());

  json a = ask(e, R"({"cmd":"ai","level":3,"nodes":4000,"seed":5})");
  ASSERT_TRUE(a["ok"]) << a;
  EXPECT_EQ(a["move"], ask(e, R"({"cmd":"ai","level":3,"nodes":4000,"seed":5})")["move"]);

  // Draw offers: offer, the AI's answer, decline; offer again, accept.
  EXPECT_FALSE(ask(e, R"({"cmd":"ai","level":3,"player":0,"answer":"draw"})")["ok"]);  // no offer stands
  r = ask(e, R"({"cmd":"offer","player":1,"what":"draw"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["events"], json::array({json{{"type", "offer"}, {"player", 1}, {"what", "draw"}}}));
  EXPECT_EQ(r["state"]["draw_offer"], 1);
  EXPECT_FALSE(ask(e, R"({"cmd":"offer","player":0,"what":"draw"})")["ok"]);  // one offer at a time
  a = ask(e, R"({"cmd":"ai","level":3,"player":0,"answer":"draw","nodes":4000})");
  ASSERT_TRUE(a["ok"]) << a;
  EXPECT_TRUE(a["accept"].is_boolean());
  ASSERT_TRUE(ask(e, R"({"cmd":"offer","player":0,"what":"decline"})")["ok"]);
  EXPECT_TRUE(ask(e, R"({"cmd":"state"})")["state"]["draw_offer"].is_null());
  ASSERT_TRUE(ask(e, R"({"cmd":"offer","player":1,"what":"draw"})")["ok"]);
  r = ask(e, R"({"cmd":"offer","player":0,"what":"accept"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["result"], (json{{"winners", json::array()}, {"reason", "agreement"}}));
}

TEST(EngineProtocolFacet, UnderFogLegalPlayAndPerftWorkOnTheMoversView) {
  EngineProtocol e;
  json r = ask(e, R"({"cmd":"new","game":"facet","options":{"modes":["fog"]}})");
  ASSERT_TRUE(r["ok"]) << r;
  json o = ask(e, R"({"cmd":"observe","player":0})")["observation"];
  EXPECT_EQ(o["ghosts"].size(), 18u);  // Black's army, seen at the start, out of sight now
  EXPECT_EQ(o["board"].size(), 18u);
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":4})")["nodes"], 3415168);

  // A Tower stone on a1 slides for a9; Black's stone hidden on a6 stops it (a bump).
  json state = {{"board", {{"a1", "0A"}, {"e1", "0M"}, {"a6", "1A"}, {"h8", "1A"}, {"e9", "1M"}}},
                {"terrain", {{"a1", "T"}}},
                {"options", {{"modes", {"fog"}}}}};
  r = ask(e, json{{"cmd", "new"}, {"game", "facet"}, {"state", state}});
  ASSERT_TRUE(r["ok"]) << r;
  const json legal = ask(e, R"({"cmd":"legal"})")["moves"];
  EXPECT_NE(std::find(legal.begin(), legal.end(), "a1-a9"), legal.end());  // unseen squares count as empty
  r = ask(e, R"({"cmd":"play","move":"a1-a9"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["events"][0], (json{{"type", "move"}, {"player", 0}, {"from", "a1"}, {"to", "a6"}, {"bump", true}}));
  EXPECT_EQ(r["events"][1]["type"], "capture");
  EXPECT_EQ(r["state"]["board"]["a6"], "0A");
  // Black's view: it sees the capture on a6, not where the stone came from, and no bump.
  o = ask(e, R"({"cmd":"observe","player":1})");
  EXPECT_EQ(o["events"][0], (json{{"type", "move"}, {"player", 0}, {"to", "a6"}}));
  EXPECT_EQ(o["events"][1]["square"], "a6");
  EXPECT_FALSE(o["observation"]["board"].contains("e1"));
  // Ghosts: what Black saw when the game began and has not seen since, a1's stone though it has left.
  EXPECT_EQ(o["observation"]["ghosts"], (json{{"a1", "0A"}, {"e1", "0M"}}));
  // Black resigns: the game is over and Black's observation is the whole state, without fog fields.
  r = ask(e, R"({"cmd":"offer","player":1,"what":"resign"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["result"], (json{{"winners", {0}}, {"reason", "resignation"}}));
  o = ask(e, R"({"cmd":"observe","player":1})");
  EXPECT_EQ(o["observation"], ask(e, R"({"cmd":"state"})")["state"]);
  EXPECT_FALSE(o["observation"].contains("visible"));
  EXPECT_EQ(o["events"][0]["from"], "a1");  // every event whole once the game is over
}

TEST(EngineProtocolFacet, TheAiAcceptsADrawOnlyWhenItStandsWorseOrLevel) {
  // White: the Monarch and one agent; Black: the Monarch and ten agents.
  json board = {{"e1", "0M"}, {"a1", "0A"}, {"e9", "1M"}};
  for (const char* sq : {"a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "i8", "a9"}) board[sq] = "1A";
  for (const char* offerer : {"0", "1"}) {
    EngineProtocol e;
    ASSERT_TRUE(ask(e, json{{"cmd", "new"}, {"game", "facet"}, {"state", {{"board", board}}}})["ok"]);
    ASSERT_TRUE(ask(e, json{{"cmd", "offer"}, {"player", std::stoi(offerer)}, {"what", "draw"}})["ok"]);
    const int answerer = 1 - std::stoi(offerer);
    const json a = ask(e, json{{"cmd", "ai"}, {"level", 3}, {"player", answerer}, {"answer", "draw"}, {"nodes", 20000}});
    ASSERT_TRUE(a["ok"]) << a;
    // Black (far ahead) declines White's offer; White (far behind) accepts Black's.
    EXPECT_EQ(a["accept"], answerer == 0) << "answering player " << answerer;
  }
}

// --- The Game of Truth: setups, two-action turns, the stalemate agreement ------------------------------

json truth_suggested(int player) { return truth::suggested_arrangement(2, player); }

size_t pieces_of(const json& board, char player) {
  size_t n = 0;
  for (auto it = board.begin(); it != board.end(); ++it) n += it->get<std::string>()[0] == player;
  return n;
}

// A Truth game in play from both suggested arrangements.
void truth_suggested_start(EngineProtocol& e) {
  ASSERT_TRUE(ask(e, R"({"cmd":"new","game":"truth"})")["ok"]);
  ASSERT_TRUE(ask(e, R"({"cmd":"setup","player":0,"arrangement":"suggested"})")["ok"]);
  ASSERT_TRUE(ask(e, R"({"cmd":"setup","player":1,"arrangement":"suggested"})")["ok"]);
}

TEST(EngineProtocolTruth, SetupsAreHiddenPerSeatUntilEveryArmyIsIn) {
  EngineProtocol e;
  json r = ask(e, R"({"cmd":"new","game":"truth"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["phase"], "setup");
  EXPECT_EQ(r["state"]["options"], (json{{"players", 2}, {"max_plies", 2000}}));
  EXPECT_EQ(r["state"]["ready"], json::array());
  EXPECT_EQ(ask(e, R"({"cmd":"legal"})")["moves"], json::array());
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":1})")["nodes"], 0);

  // Ivory's suggested arrangement: one setup event, no squares in it.
  r = ask(e, R"({"cmd":"setup","player":0,"arrangement":"suggested"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["events"], json::array({json{{"type", "setup"}, {"player", 0}}}));
  EXPECT_EQ(r["state"]["phase"], "setup");
  EXPECT_EQ(r["state"]["ready"], json::array({0}));
  EXPECT_EQ(pieces_of(r["state"]["board"], '0'), 41u);
  // Each seat sees its own army only; the spectators see none.
  json o = ask(e, R"({"cmd":"observe","player":0})");
  EXPECT_EQ(o["observation"]["board"], r["state"]["board"]);
  EXPECT_EQ(ask(e, R"({"cmd":"observe","player":1})")["observation"]["board"], json::object());
  EXPECT_EQ(ask(e, R"({"cmd":"observe"})")["observation"]["board"], json::object());
  EXPECT_EQ(ask(e, R"({"cmd":"observe","player":1})")["events"], json::array({json{{"type", "setup"}, {"player", 0}}}));

  // Ivory replaces it with a random arrangement: the same seed gives the same army.
  r = ask(e, R"({"cmd":"setup","player":0,"arrangement":"random","seed":5})");
  ASSERT_TRUE(r["ok"]) << r;
  const json random5 = r["state"]["board"];
  EXPECT_EQ(pieces_of(random5, '0'), 41u);
  EXPECT_NE(random5, o["observation"]["board"]);
  {
    EngineProtocol again;
    ask(again, R"({"cmd":"new","game":"truth"})");
    EXPECT_EQ(ask(again, R"({"cmd":"setup","player":0,"arrangement":"random","seed":5})")["state"]["board"], random5);
    EXPECT_NE(ask(again, R"({"cmd":"setup","player":0,"arrangement":"random","seed":6})")["state"]["board"], random5);
  }
  EXPECT_EQ(ask(e, R"({"cmd":"observe","player":1})")["observation"]["board"], json::object());

  // Jade's placement, given square by square: play begins, both armies revealed together.
  r = ask(e, json{{"cmd", "setup"}, {"player", 1}, {"placement", truth_suggested(1)}});
  ASSERT_TRUE(r["ok"]) << r;
  ASSERT_GE(r["events"].size(), 2u);
  EXPECT_EQ(r["events"][0], (json{{"type", "setup"}, {"player", 1}}));
  EXPECT_EQ(r["events"][1], (json{{"type", "start"}}));
  for (size_t i = 2; i < r["events"].size(); ++i) EXPECT_EQ(r["events"][i]["type"], "capture") << r["events"][i];
  EXPECT_EQ(r["state"]["phase"], "play");
  EXPECT_EQ(r["state"]["ready"], json::array({0, 1}));
  // From now on nothing is hidden: every observation is the state, every event whole.
  const json state = ask(e, R"({"cmd":"state"})")["state"];
  for (const char* line : {R"({"cmd":"observe","player":0})", R"({"cmd":"observe","player":1})", R"({"cmd":"observe"})"}) {
    o = ask(e, line);
    EXPECT_EQ(o["observation"], state) << line;
    EXPECT_EQ(o["events"].size(), 4u + (r["events"].size() - 2)) << line;  // three setups, start, captures
  }
}

TEST(EngineProtocolTruth, LegalPlayStatePerftAndEventsOfATurn) {
  EngineProtocol e;
  truth_suggested_start(e);
  json legal = ask(e, R"({"cmd":"legal"})")["moves"];
  EXPECT_EQ(legal.size(), 126u);
  EXPECT_EQ(std::count(legal.begin(), legal.end(), "pass"), 0);
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":1})")["nodes"], 126);
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":2})")["nodes"], 3246);
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":3})")["nodes"], 396400);

  // The first action: a door. Ivory is still to move, for its second action.
  json r = ask(e, R"({"cmd":"play","move":"b9-a10"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["events"], json::array({json{{"type", "move"}, {"player", 0}, {"from", "b9"}, {"to", "a10"}, {"piece", "0D"}, {"action", 0}}}));
  EXPECT_EQ(r["state"]["to_move"], 0);
  EXPECT_EQ(r["state"]["ply"], 0);
  EXPECT_EQ(r["state"]["action"], 1);
  EXPECT_EQ(r["state"]["acted"], json::array({"a10"}));
  EXPECT_EQ(r["state"]["door_action_done"], true);
  legal = ask(e, R"({"cmd":"legal"})")["moves"];
  for (const auto& m : legal) EXPECT_NE(m.get<std::string>().rfind("a10-", 0), 0u) << "the door acted already: " << m;
  EXPECT_NE(std::find(legal.begin(), legal.end(), "h7-k4"), legal.end());
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":1})")["nodes"], legal.size());

  // The second action, a lantern: the turn ends and Jade is to move.
  r = ask(e, R"({"cmd":"play","move":"h7-k4"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["events"], json::array({json{{"type", "move"}, {"player", 0}, {"from", "h7"}, {"to", "k4"}, {"piece", "0L"}, {"action", 1}}}));
  EXPECT_EQ(r["state"]["to_move"], 1);
  EXPECT_EQ(r["state"]["ply"], 1);
  EXPECT_EQ(r["state"]["action"], 0);
  EXPECT_EQ(r["state"]["acted"], json::array());
  EXPECT_EQ(r["state"], ask(e, R"({"cmd":"state"})")["state"]);
  EXPECT_EQ(ask(e, R"({"cmd":"observe","player":0})")["observation"], r["state"]);
  EXPECT_EQ(ask(e, R"({"cmd":"observe","player":1})")["events"].back()["to"], "k4");

  // Events of a capture and the end: a lantern burns Jade's icon (a position given to `new`).
  const json burn = {{"phase", "play"},
                     {"board", {{"i2", "0I"}, {"c10", "0L"}, {"b3", "0D"}, {"i16", "1I"}, {"n13", "1D"}, {"b15", "1D"}}}};
  ASSERT_TRUE(ask(e, json{{"cmd", "new"}, {"game", "truth"}, {"state", burn}})["ok"]);
  r = ask(e, R"({"cmd":"play","move":"c10-h15"})");
  ASSERT_TRUE(r["ok"]) << r;
  ASSERT_EQ(r["events"].size(), 3u);
  EXPECT_EQ(r["events"][1], (json{{"type", "capture"}, {"square", "i16"}, {"piece", "1I"}, {"by", 0}, {"points", 100}, {"cause", "burn"}}));
  EXPECT_EQ(r["events"][2], (json{{"type", "over"}, {"result", {{"winners", {0}}, {"reason", "icon-destroyed"}}}}));
  EXPECT_EQ(r["state"]["scores"], json::array({100, 0}));
  EXPECT_EQ(ask(e, R"({"cmd":"legal"})")["moves"], json::array());
}

TEST(EngineProtocolTruth, TheStalemateAgreementItsWithdrawalTheAisAnswerAndResignation) {
  EngineProtocol e;
  truth_suggested_start(e);
  EXPECT_FALSE(ask(e, R"({"cmd":"ai","level":3,"player":1,"answer":"stalemate"})")["ok"]);  // nothing to answer
  json r = ask(e, R"({"cmd":"offer","player":0,"what":"stalemate"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["events"], json::array({json{{"type", "offer"}, {"player", 0}, {"what", "stalemate"}}}));
  EXPECT_EQ(r["state"]["stalemate_agreed"], json::array({0}));
  const json agreed = r["state"];
  // Refusals change nothing: agreeing twice, answering one's own agreement, another game's offers.
  for (const char* bad : {R"({"cmd":"offer","player":0,"what":"stalemate"})", R"({"cmd":"offer","player":1,"what":"withdraw"})",
                          R"({"cmd":"offer","player":1,"what":"draw"})", R"({"cmd":"offer","player":1,"what":"accept"})",
                          R"({"cmd":"ai","level":3,"player":0,"answer":"stalemate","nodes":1000})",
                          R"({"cmd":"ai","level":3,"player":1,"answer":"draw","nodes":1000})"}) {
    EXPECT_FALSE(ask(e, bad)["ok"]) << bad;
    EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"], agreed) << bad;
  }
  // The AI answers for Jade from its evaluation (deterministic with a node budget; which way it answers on
  // hand-built positions is tested in truth_ai_test.cpp).
  const json a = ask(e, R"({"cmd":"ai","level":3,"player":1,"answer":"stalemate","nodes":3000})");
  ASSERT_TRUE(a["ok"]) << a;
  EXPECT_TRUE(a["accept"].is_boolean());
  EXPECT_EQ(ask(e, R"({"cmd":"ai","level":3,"player":1,"answer":"stalemate","nodes":3000})")["accept"], a["accept"]);
  EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"], agreed);  // answering is not agreeing

  r = ask(e, R"({"cmd":"offer","player":0,"what":"withdraw"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["events"], json::array({json{{"type", "offer"}, {"player", 0}, {"what", "withdraw"}}}));
  EXPECT_EQ(r["state"]["stalemate_agreed"], json::array());
  EXPECT_FALSE(ask(e, R"({"cmd":"offer","player":0,"what":"withdraw"})")["ok"]);

  // Both agree: the stalemate takes effect at the end of the round (after Jade's turn), scored 0-0: a draw.
  ASSERT_TRUE(ask(e, R"({"cmd":"offer","player":1,"what":"stalemate"})")["ok"]);
  ASSERT_TRUE(ask(e, R"({"cmd":"offer","player":0,"what":"stalemate"})")["ok"]);
  EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"]["phase"], "play");
  for (int action = 0; action < 4; ++action) {
    const json legal = ask(e, R"({"cmd":"legal"})")["moves"];
    ASSERT_FALSE(legal.empty());
    r = ask(e, json{{"cmd", "play"}, {"move", legal[0]}});
    ASSERT_TRUE(r["ok"]) << r;
    if (action < 3) {
      EXPECT_EQ(r["state"]["phase"], "play") << action;
    }
  }
  EXPECT_EQ(r["state"]["result"], (json{{"winners", json::array()}, {"reason", "scored-stalemate"}}));
  EXPECT_EQ(r["events"].back(), (json{{"type", "over"}, {"result", {{"winners", json::array()}, {"reason", "scored-stalemate"}}}}));

  // Resignation in play, and during setup (which reveals no setup).
  truth_suggested_start(e);
  r = ask(e, R"({"cmd":"offer","player":1,"what":"resign"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["result"], (json{{"winners", {0}}, {"reason", "resignation"}}));
  EXPECT_FALSE(ask(e, R"({"cmd":"offer","player":0,"what":"stalemate"})")["ok"]);
  ask(e, R"({"cmd":"new","game":"truth"})");
  ask(e, R"({"cmd":"setup","player":0,"arrangement":"suggested"})");
  r = ask(e, R"({"cmd":"offer","player":1,"what":"resign"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["result"], (json{{"winners", {0}}, {"reason", "resignation"}}));
  EXPECT_EQ(ask(e, R"({"cmd":"observe","player":1})")["observation"]["board"], json::object());
  EXPECT_EQ(ask(e, R"({"cmd":"observe"})")["observation"]["board"], json::object());
}

TEST(EngineProtocolTruth, TheAiPlaysBothActionsOfATurnDeterministicallyWithANodeBudget) {
  EngineProtocol e;
  truth_suggested_start(e);
  for (int action = 0; action < 2; ++action) {
    const json legal = ask(e, R"({"cmd":"legal"})")["moves"];
    for (int level = 1; level <= 3; ++level) {
      const json req = {{"cmd", "ai"}, {"level", level}, {"nodes", 3000}, {"seed", 4}};
      const json a = ask(e, req), b = ask(e, req);
      ASSERT_TRUE(a["ok"]) << a;
      EXPECT_EQ(a["move"], b["move"]) << level;
      EXPECT_NE(std::find(legal.begin(), legal.end(), a["move"]), legal.end()) << a["move"];
      EXPECT_EQ(a["info"]["level"], level);
      EXPECT_EQ(a["info"]["worlds"], level == 1 ? 0 : 1);  // nothing is hidden once play begins
      EXPECT_LE(a["info"]["nodes"].get<uint64_t>(), 3000u);
    }
    const json a = ask(e, R"({"cmd":"ai","level":3,"nodes":3000,"seed":4})");
    ASSERT_TRUE(ask(e, json{{"cmd", "play"}, {"move", a["move"]}})["ok"]);
  }
  EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"]["to_move"], 1);
}

// Four players through every command: new, setup (arrangements and a placement), observe (each seat its own
// army during setup, then everything), legal, perft, play, state, ai (a move and an answer), offer, quit.
TEST(EngineProtocolTruth, FourPlayersThroughEveryCommand) {
  EngineProtocol e;
  json r = ask(e, R"({"cmd":"new","game":"truth","options":{"players":4}})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["options"], (json{{"players", 4}, {"max_plies", 2000}}));
  EXPECT_EQ(r["state"]["scores"], json::parse("[0,0,0,0]"));
  ASSERT_TRUE(ask(e, R"({"cmd":"setup","player":0,"arrangement":"random","seed":9})")["ok"]);
  ASSERT_TRUE(ask(e, R"({"cmd":"setup","player":0,"arrangement":"suggested"})")["ok"]);  // replaces it
  ASSERT_TRUE(ask(e, json{{"cmd", "setup"}, {"player", 1}, {"placement", truth::suggested_arrangement(4, 1)}})["ok"]);
  ASSERT_TRUE(ask(e, R"({"cmd":"setup","player":2,"arrangement":"suggested"})")["ok"]);
  for (int viewer = 0; viewer < 4; ++viewer) {
    const json board = ask(e, json{{"cmd", "observe"}, {"player", viewer}})["observation"]["board"];
    EXPECT_EQ(board.size(), viewer < 3 ? 41u : 0u) << viewer;
    EXPECT_EQ(pieces_of(board, static_cast<char>('0' + viewer)), board.size()) << viewer;
  }
  EXPECT_EQ(ask(e, R"({"cmd":"observe"})")["observation"]["board"], json::object());
  EXPECT_FALSE(ask(e, R"({"cmd":"setup","player":4,"arrangement":"suggested"})")["ok"]);
  r = ask(e, R"({"cmd":"setup","player":3,"arrangement":"suggested"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["events"].back(), (json{{"type", "start"}}));
  EXPECT_EQ(r["state"]["board"].size(), 164u);
  EXPECT_EQ(ask(e, R"({"cmd":"observe","player":2})")["observation"], r["state"]);

  EXPECT_EQ(ask(e, R"({"cmd":"legal"})")["moves"].size(), 154u);
  EXPECT_EQ(ask(e, R"({"cmd":"perft","depth":2})")["nodes"], 8916);
  // Ivory's turn by the AI, both actions; then Jade is to move.
  for (int action = 0; action < 2; ++action) {
    const json req = {{"cmd", "ai"}, {"level", 3}, {"nodes", 3000}, {"seed", 5}};
    const json a = ask(e, req), b = ask(e, req);
    ASSERT_TRUE(a["ok"]) << a;
    EXPECT_EQ(a["move"], b["move"]);
    ASSERT_TRUE(ask(e, json{{"cmd", "play"}, {"move", a["move"]}})["ok"]);
  }
  EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"]["to_move"], 1);
  // Three players agree to the scored stalemate; the AI answers for the fourth, on Jade's turn.
  for (int p : {0, 1, 2}) ASSERT_TRUE(ask(e, json{{"cmd", "offer"}, {"player", p}, {"what", "stalemate"}})["ok"]);
  r = ask(e, R"({"cmd":"ai","level":3,"player":3,"answer":"stalemate","nodes":2000})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_TRUE(r["accept"].is_boolean());
  EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"]["stalemate_agreed"], json::parse("[0,1,2]"));
  // Ember resigns: the other three share the victory.
  r = ask(e, R"({"cmd":"offer","player":2,"what":"resign"})");
  ASSERT_TRUE(r["ok"]) << r;
  EXPECT_EQ(r["state"]["result"], (json{{"winners", {0, 1, 3}}, {"reason", "resignation"}}));
  EXPECT_EQ(ask(e, R"({"cmd":"quit"})")["ok"], true);
}

TEST(EngineProtocolTruth, RefusalsChangeNothing) {
  EngineProtocol e;
  EXPECT_FALSE(ask(e, R"({"cmd":"new","game":"truth","options":{"players":3}})")["ok"]);
  EXPECT_FALSE(ask(e, R"({"cmd":"new","game":"truth","options":{"players":5}})")["ok"]);
  EXPECT_FALSE(ask(e, R"({"cmd":"new","game":"truth","options":{"fog":true}})")["ok"]);
  ASSERT_TRUE(ask(e, R"({"cmd":"new","game":"truth"})")["ok"]);
  ASSERT_TRUE(ask(e, R"({"cmd":"setup","player":0,"arrangement":"suggested"})")["ok"]);
  json short_army = truth_suggested(1);
  short_army.erase(short_army.begin());
  json doubled = truth_suggested(1);
  doubled["b17"] = "I";
  const json in_setup = ask(e, R"({"cmd":"state"})")["state"];
  const std::vector<json> setup_refusals = {
      json{{"cmd", "setup"}, {"player", 2}, {"arrangement", "suggested"}},
      json{{"cmd", "setup"}, {"player", 1}, {"placement", short_army}},
      json{{"cmd", "setup"}, {"player", 1}, {"placement", doubled}},
      json{{"cmd", "setup"}, {"player", 1}, {"placement", truth_suggested(0)}},  // Ivory's squares
      json{{"cmd", "setup"}, {"player", 1}, {"placement", {{"a1", "D"}}}},      // a black square
      json{{"cmd", "setup"}, {"player", 1}, {"placement", "D"}},
      json{{"cmd", "setup"}, {"player", 1}, {"arrangement", "no-such"}},
      json{{"cmd", "setup"}, {"player", 1}},
      json{{"cmd", "play"}, {"move", "b9-a10"}},
      json{{"cmd", "ai"}, {"level", 3}, {"nodes", 100}},
      json{{"cmd", "offer"}, {"player", 0}, {"what", "stalemate"}},
      json{{"cmd", "ai"}, {"level", 3}, {"player", 1}, {"answer", "stalemate"}}};
  for (const json& bad : setup_refusals) {
    const json r = ask(e, bad);
    EXPECT_FALSE(r["ok"]) << bad;
    EXPECT_FALSE(r["error"].get<std::string>().empty()) << bad;
    EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"], in_setup) << bad;
  }
  ASSERT_TRUE(ask(e, R"({"cmd":"setup","player":1,"arrangement":"suggested"})")["ok"]);
  ASSERT_TRUE(ask(e, R"({"cmd":"play","move":"h7-k4"})")["ok"]);  // a lantern first: the door action is owed
  const json in_play = ask(e, R"({"cmd":"state"})")["state"];
  for (const char* bad : {R"({"cmd":"setup","player":0,"arrangement":"suggested"})", R"({"cmd":"play","move":"i6-d9"})",
                          R"({"cmd":"play","move":"k4-l5"})", R"({"cmd":"play","move":"b9-b10"})",
                          R"({"cmd":"play","move":"a1-b2"})", R"({"cmd":"play","move":"c10-d9"})",
                          R"({"cmd":"play","move":"pass"})", R"({"cmd":"play","move":"b9-a10-b11"})",
                          R"({"cmd":"play","move":"z9-a10"})", R"({"cmd":"perft","depth":9})",
                          R"({"cmd":"offer","player":2,"what":"stalemate"})", R"({"cmd":"offer","player":0,"what":"draw"})",
                          R"({"cmd":"ai","level":3,"player":1,"answer":"stalemate"})"}) {
    const json r = ask(e, bad);
    EXPECT_FALSE(r["ok"]) << bad;
    EXPECT_FALSE(r["error"].get<std::string>().empty()) << bad;
    EXPECT_EQ(ask(e, R"({"cmd":"state"})")["state"], in_play) << bad;
  }
  EXPECT_TRUE(ask(e, R"({"cmd":"play","move":"b9-a10"})")["ok"]);  // the door action completes the turn
}

TEST(EngineProtocol, QuitAndEndOfInputEndTheProcessCleanly) {
  std::istringstream in("{\"cmd\":\"new\",\"game\":\"tigadi\"}\n\nnot json\n{\"cmd\":\"quit\"}\n{\"cmd\":\"legal\"}\n");
  std::ostringstream out;
  EXPECT_EQ(run_engine(in, out), 0);
  std::istringstream lines(out.str());
  std::string line;
  std::vector<json> answers;
  while (std::getline(lines, line)) answers.push_back(json::parse(line));
  ASSERT_EQ(answers.size(), 4u);  // nothing after quit
  EXPECT_TRUE(answers[0]["ok"]);
  EXPECT_FALSE(answers[1]["ok"]);  // the blank line gets an answer too
  EXPECT_FALSE(answers[2]["ok"]);
  EXPECT_TRUE(answers[3]["ok"]);

  std::istringstream last("{\"cmd\":\"new\",\"game\":\"tigadi\"}\n{\"cmd\":\"legal\"}");  // no final newline
  std::ostringstream out2;
  EXPECT_EQ(run_engine(last, out2), 0);
  EXPECT_NE(out2.str().find("\"moves\""), std::string::npos);

  std::istringstream huge(std::string(3'000'000, 'x') + "\n{\"cmd\":\"new\",\"game\":\"tigadi\"}\n");
  std::ostringstream out3;
  EXPECT_EQ(run_engine(huge, out3), 0);
  EXPECT_NE(out3.str().find("too long"), std::string::npos);
  EXPECT_NE(out3.str().find("\"ok\":true"), std::string::npos);
}

// Random lines made of protocol fragments and noise. Whatever comes in, the engine answers one JSON line
// with "ok", and a refused request leaves the game as it was.
TEST(EngineProtocol, RandomizedMalformedLinesNeverCrashOrChangeTheGame) {
  const std::vector<std::string> fragments = {
      "{", "}", "[", "]", ",", ":", "\"cmd\"", "\"new\"", "\"game\"", "\"tigadi\"", "\"play\"", "\"move\"",
      "\"d1\"", "\"a1-a4\"", "\"legal\"", "\"perft\"", "\"depth\"", "2", "-1", "1e999", "null", "true",
      "\"state\"", "\"board\"", "\"in_hand\"", "\"offer\"", "\"what\"", "\"resign\"", "\"player\"", "\"ai\"",
      "\"level\"", "\"nodes\"", "\"observe\"", "\"setup\"", "\"\\u0000\"", "\"\xc3\x28\"", " ", "\"id\""};
  Rng rng(424242);
  EngineProtocol e;
  ask(e, R"({"cmd":"new","game":"tigadi"})");
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string line;
    const int parts = 1 + static_cast<int>(rng.below(14));
    for (int k = 0; k < parts; ++k) {
      if (rng.below(8) == 0) line += static_cast<char>(rng.below(256));
      else line += fragments[static_cast<size_t>(rng.below(fragments.size()))];
    }
    const json before = json::parse(e.handle_line(R"({"cmd":"state"})"))["state"];
    json r = ask(e, line);
    if (r["ok"] == true) {
      ++accepted;
    } else {
      ASSERT_EQ(json::parse(e.handle_line(R"({"cmd":"state"})"))["state"], before) << line;
    }
    // Keep a game going so moves have something to act on.
    if (json::parse(e.handle_line(R"({"cmd":"state"})"))["state"].is_null()) ask(e, R"({"cmd":"new","game":"tigadi"})");
  }
  RecordProperty("accepted", accepted);
}

}  // namespace
}  // namespace tabula
