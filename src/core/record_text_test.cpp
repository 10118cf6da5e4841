// The text record (src/core/record_text.h, docs/records.md): seeded random games of every game and variant
// written as text and read back (record -> text -> record replays to the same game; text -> record -> text is
// byte-identical), the start held in full (setups, FACET's terrain), endings by agreement, resignation and
// adjudication, takebacks cut to the net line, malformed texts refused with a clear reason, mutated texts never
// crashing the reader, and a seat's view holding nothing the seat may not know.
#include "core/record_text.h"
#include "core/session.h"
#include "core/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tabula {
namespace {

using tabula::testing::kSanitized;

using Case = testing::GameCase;

std::vector<Case> cases() {
  std::vector<Case> out = testing::every_variant();
  out.push_back(Case{"stratego", "short_limits", json{{"two_square_limit", 2}, {"repetition_rule", false}, {"max_plies", 120}}});
  out.push_back(Case{"facet", "fog", json{{"modes", {"fog"}}}});
  out.push_back(Case{"facet", "decay", json{{"modes", {"decay"}}}});
  out.push_back(Case{"facet", "momentum", json{{"modes", {"momentum"}}}});
  out.push_back(Case{"facet", "random_layout", json{{"layout", "random"}, {"seed", 7}}});
  out.push_back(Case{"facet", "fog_decay_random_layout", json{{"modes", {"decay", "fog"}}, {"layout", "random"}, {"seed", 12345}}});
  out.push_back(Case{"truth", "4_players_short", json{{"players", 4}, {"max_plies", 40}}});
  return out;
}

RecordTags tags_for(int players, uint64_t seed) {
  RecordTags t;
  for (int p = 0; p < players; ++p) t.players.push_back(p % 2 ? "AI level " + std::to_string(p + 1) : "Ana \"the \\ quick\"");
  t.date = seed % 3 ? "2026.12.02" : "";
  t.takebacks = static_cast<int>(seed % 4 == 1);
  return t;
}

// A seeded random game: setups (a named arrangement or a random one), random legal moves, and now and then an
// offer of the game's (FACET's draw and its answers, Truth's stalemate agreement); it ends by the rules, by a
// resignation, by an adjudication, or stays on after max_actions.
Session random_game(const Case& c, uint64_t seed, size_t max_actions) {
  Rng rng(seed);
  Session s = Session::create(c.kind, c.options);
  const GameKind& k = game_kind(c.kind);
  while (s.game().phase() == Phase::setup) {
    for (Player p = 0; p < s.num_players(); ++p) {
      // A seat that changes its mind (not the last: its first setup would start the play).
      if (p + 1 < s.num_players() && rng.below(8) == 0) s.setup_arrangement(p, "random", rng.next());
      const bool named = !k.arrangements.empty() && rng.below(2) == 0;
      s.setup_arrangement(p, named ? k.arrangements[rng.below(k.arrangements.size())] : "random", rng.next());
    }
  }
  const uint64_t ending = rng.below(4);  // 0 resign, 1 adjudicate, else play on
  const size_t end_at = ending < 2 ? 1 + rng.below(max_actions) : max_actions;
  while (!s.over() && s.actions().size() < end_at) {
    if (rng.below(12) == 0) {
      // An offer, where the game has one that stands now; a refused one changes nothing.
      static const std::vector<std::string> offers = {"draw", "accept", "decline", "stalemate", "withdraw"};
      const Player p = static_cast<Player>(rng.below(static_cast<uint64_t>(s.num_players())));
      try {
        s.offer(p, offers[rng.below(offers.size())]);
      } catch (const GameError&) {
      }
      continue;
    }
    const std::vector<std::string> legal = s.legal();
    EXPECT_FALSE(legal.empty()) << "seed " << seed;
    if (legal.empty()) break;
    s.play(legal[rng.below(legal.size())]);
  }
  if (!s.over() && ending == 0) s.offer(static_cast<Player>(rng.below(static_cast<uint64_t>(s.num_players()))), "resign");
  if (!s.over() && ending == 1) {
    Result r;
    if (rng.below(2)) r.winners = {static_cast<Player>(rng.below(static_cast<uint64_t>(s.num_players())))};
    r.reason = "ply-limit";
    s.adjudicate(r);
  }
  return s;
}

// record -> text -> record: the record replays to the same game; text -> record -> text is the same text.
void expect_round_trip(const json& record, const RecordTags& tags, const std::string& context) {
  SCOPED_TRACE(context);
  const std::string text = record_text(record, tags);
  TextRecord back;
  try {
    back = parse_record_text(text);
  } catch (const GameError& e) {
    FAIL() << e.what() << "\n" << text;
  }
  const Session original = Session::from_record(record);
  const Session imported = Session::from_record(back.record);
  EXPECT_EQ(imported.state(), original.state()) << text;
  const Result* a = original.game().result();
  const Result* b = imported.game().result();
  ASSERT_EQ(a == nullptr, b == nullptr) << text;
  if (a) {
    EXPECT_EQ(*a, *b) << text;
  }
  EXPECT_EQ(record_text(back.record, back.tags), text);
  RecordTags expected = tags;
  expected.players.resize(static_cast<size_t>(original.num_players()));
  EXPECT_EQ(back.tags.players, expected.players);
  EXPECT_EQ(back.tags.date, tags.date);
}

class RecordTextRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(RecordTextRoundTrip, RandomGames) {
  const Case& c = GetParam();
  const int games = kSanitized ? 3 : 12;
  for (int i = 0; i < games; ++i) {
    const uint64_t seed = 0x5eed0000 + static_cast<uint64_t>(i) * 7919;
    Session s = random_game(c, seed, c.kind == "truth" ? 160 : 400);
    expect_round_trip(s.record(), tags_for(s.num_players(), seed),
                      c.kind + " " + c.label + ", seed " + std::to_string(seed));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryGame, RecordTextRoundTrip, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& p) { return p.param.kind + "_" + p.param.label; });

// ---- the start in full ---------------------------------------------------------------------------------------

std::string tag_value(const std::string& text, const std::string& name) {
  const std::string open = "[" + name + " \"";
  const size_t at = text.find(open);
  if (at == std::string::npos) return "<none>";
  const size_t from = at + open.size();
  return text.substr(from, text.find("\"]\n", from) - from);
}

TEST(RecordText, FacetRandomLayoutHoldsItsTerrain) {
  Session s = Session::create("facet", json{{"layout", "random"}, {"seed", 99}});
  const json terrain = s.state()["terrain"];
  s.play(s.legal().front());
  const std::string text = record_text(s.record());
  std::string pairs;
  for (auto it = terrain.begin(); it != terrain.end(); ++it) pairs += (pairs.empty() ? "" : " ") + it.key() + ":" + it->get<std::string>();
  EXPECT_EQ(tag_value(text, "Terrain"), pairs);
  EXPECT_EQ(Session::from_record(record_from_text(text)).state()["terrain"], s.state()["terrain"]);

  // Another implementation's random layout for the same seed: the tag's terrain is the truth.
  const json other = Session::create("facet", json{{"layout", "random"}, {"seed", 100}}).state()["terrain"];
  ASSERT_NE(other, terrain);
  std::string other_pairs;
  for (auto it = other.begin(); it != other.end(); ++it) other_pairs += (other_pairs.empty() ? "" : " ") + it.key() + ":" + it->get<std::string>();
  std::string foreign = record_text(Session::create("facet", json{{"layout", "random"}, {"seed", 99}}).record());
  const size_t at = foreign.find("[Terrain \"") + 10;
  foreign.replace(at, foreign.find('"', at) - at, other_pairs);
  const json imported = record_from_text(foreign);
  EXPECT_FALSE(imported["start"].is_null());
  EXPECT_EQ(Session::from_record(imported).state()["terrain"], other);
}

TEST(RecordText, ClassicFacetHasItsTerrainTooAndAGivenStartIsWrittenWhole) {
  Session s = Session::create("facet", json::object());
  EXPECT_NE(tag_value(record_text(s.record()), "Terrain"), "<none>");

  json state = s.state();
  state["board"].erase("a2");
  Session from = Session::from_state("facet", state);
  from.play(from.legal().back());
  const std::string text = record_text(from.record());
  EXPECT_EQ(tag_value(text, "Terrain"), "<none>");
  EXPECT_NE(tag_value(text, "Start"), "<none>");
  expect_round_trip(from.record(), {}, "facet from a state");
}

TEST(RecordText, StrategoAndTruthWriteEverySetup) {
  for (const auto& [kind, options] : std::vector<std::pair<std::string, json>>{
           {"stratego", json::object()}, {"truth", json{{"players", 2}}}, {"truth", json{{"players", 4}}}}) {
    Session s = Session::create(kind, options);
    for (Player p = 0; p < s.num_players(); ++p) s.setup_arrangement(p, "random", 40 + static_cast<uint64_t>(p));
    for (int i = 0; i < 3 * s.num_players() && !s.over(); ++i) s.play(s.legal().front());
    const std::string text = record_text(s.record());
    for (Player p = 0; p < s.num_players(); ++p) {
      const json placement = s.record()["setups"][std::to_string(p)];
      std::string pairs;
      for (auto it = placement.begin(); it != placement.end(); ++it)
        pairs += (pairs.empty() ? "" : " ") + it.key() + ":" + it->get<std::string>();
      EXPECT_EQ(tag_value(text, "Setup" + std::to_string(p)), pairs) << kind;
    }
    expect_round_trip(s.record(), {}, kind);
  }
}

TEST(RecordText, SetupsGivenInAnyOrderReplayTheSame) {
  for (const auto& [kind, options] : std::vector<std::pair<std::string, json>>{
           {"stratego", json::object()}, {"truth", json{{"players", 4}}}}) {
    Session s = Session::create(kind, options);
    for (Player p = s.num_players() - 1; p >= 0; --p) s.setup_arrangement(p, "random", 60 + static_cast<uint64_t>(p));
    for (int i = 0; i < 5 && !s.over(); ++i) s.play(s.legal().back());
    expect_round_trip(s.record(), {}, kind + " set up from the last seat");
  }
}

TEST(RecordText, AStartInTheSetupPhaseKeepsItsPlacements) {
  Session first = Session::create("stratego", json::object());
  first.setup_arrangement(0, "random", 3);
  Session s = Session::from_state("stratego", first.state());
  ASSERT_EQ(s.game().phase(), Phase::setup);
  s.setup_arrangement(1, "random", 4);
  for (int i = 0; i < 4 && !s.over(); ++i) s.play(s.legal().front());
  const std::string text = record_text(s.record());
  EXPECT_NE(tag_value(text, "Start"), "<none>");
  EXPECT_EQ(tag_value(text, "Setup0"), "<none>");
  EXPECT_NE(tag_value(text, "Setup1"), "<none>");
  expect_round_trip(s.record(), {}, "stratego from a state in setup");
}

// ---- the move text -------------------------------------------------------------------------------------------

std::string move_text(const std::string& text) { return text.substr(text.find("\n\n") + 2); }

// The move text on one line.
std::string flat(const std::string& text) {
  std::string out = move_text(text);
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

TEST(RecordText, TwoPlayersAreNumberedByRound) {
  Session s = Session::create("tigadi", json::object());
  for (const char* m : {"d1", "a4", "g1", "a1"}) s.play(m);
  const std::string text = record_text(s.record(), RecordTags{{"Ana", "AI level 3"}, "2026.12.02", 0, {}});
  EXPECT_EQ(text,
            "[Game \"tigadi\"]\n[Options \"{}\"]\n[Seat0 \"Ana\"]\n[Seat1 \"AI level 3\"]\n[Date \"2026.12.02\"]\n"
            "[Result \"*\"]\n\n1. d1 a4 2. g1 a1 *\n");
}

TEST(RecordText, TruthTurnsJoinTheirActionsAndFourPlayersHaveFourTurnsARound) {
  Session s = Session::create("truth", json{{"players", 4}});
  for (Player p = 0; p < 4; ++p) s.setup_arrangement(p, "suggested", 0);
  std::vector<std::string> turns;
  while (turns.size() < 9 && !s.over()) {
    std::string turn;
    const int ply = s.game().ply();
    while (s.game().ply() == ply && !s.over()) {
      const std::string m = s.legal().front();
      s.play(m);
      turn += (turn.empty() ? "" : ",") + m;
    }
    turns.push_back(turn);
  }
  ASSERT_EQ(turns.size(), 9u);
  std::string expected = "1.";
  for (size_t i = 0; i < turns.size(); ++i) expected += (i && i % 4 == 0 ? " " + std::to_string(i / 4 + 1) + ". " : " ") + turns[i];
  std::string moves = move_text(record_text(s.record()));
  std::replace(moves.begin(), moves.end(), '\n', ' ');
  EXPECT_EQ(moves, expected + " * ");
}

TEST(RecordText, LinesAreWrappedBeforeColumn80) {
  Session s = random_game(Case{"facet", "", json::object()}, 3, 200);
  const std::string text = record_text(s.record());
  size_t from = 0;
  while (from < text.size()) {
    const size_t end = text.find('\n', from);
    if (text[from] != '[') {
      EXPECT_LT(end - from, 80u) << text.substr(from, end - from);
    }
    from = end + 1;
  }
}

// ---- endings and offers --------------------------------------------------------------------------------------

TEST(RecordText, AgreementResignationAndAdjudicationAreComments) {
  {
    Session s = Session::create("facet", json::object());
    s.play(s.legal().front());
    s.offer(0, "draw");
    s.play(s.legal().front());  // declines it
    s.offer(0, "draw");
    s.offer(1, "decline");
    s.offer(1, "draw");
    s.offer(0, "accept");
    const std::string text = record_text(s.record());
    EXPECT_NE(flat(text).find("{0 offers draw}"), std::string::npos) << text;
    EXPECT_NE(flat(text).find("{1 declines} {1 offers draw} {0 accepts} draw "), std::string::npos) << text;
    EXPECT_EQ(tag_value(text, "Reason"), "agreement");
    expect_round_trip(s.record(), {}, "facet agreement");
  }
  {
    Session s = Session::create("truth", json{{"players", 4}});
    for (Player p = 0; p < 4; ++p) s.setup_arrangement(p, "suggested", 0);
    s.play(s.legal().front());
    s.offer(2, "stalemate");  // inside seat 0's turn
    s.play(s.legal().front());
    for (Player p : {0, 1, 3}) s.offer(p, "stalemate");
    for (int i = 0; i < 8 && !s.over(); ++i) s.play(s.legal().front());  // it takes effect at the round's end
    ASSERT_TRUE(s.over());
    const std::string text = record_text(s.record());
    EXPECT_NE(flat(text).find(", {2 offers stalemate} "), std::string::npos) << text;
    EXPECT_NE(flat(text).find("{0 offers stalemate} {1 offers stalemate} {3 offers stalemate} "), std::string::npos) << text;
    EXPECT_EQ(tag_value(text, "Reason"), "scored-stalemate");
    expect_round_trip(s.record(), {}, "truth stalemate agreement");
  }
  for (const GameKind& k : game_kinds()) {
    Session s = Session::create(k.name, k.variants.back().options);
    for (Player p = 0; p < s.num_players() && s.game().phase() == Phase::setup; ++p) s.setup_arrangement(p, "random", 5);
    s.play(s.legal().front());
    s.offer(1, "resign");
    const std::string text = record_text(s.record());
    EXPECT_NE(flat(text).find("{1 resigns}"), std::string::npos) << text;
    EXPECT_EQ(tag_value(text, "Reason"), "resignation");
    expect_round_trip(s.record(), {}, k.name + " resignation");

    Session a = Session::create(k.name, k.variants.back().options);
    a.adjudicate(Result{{0}, "ply-limit"});  // in Stratego's and Truth's setup phase: before play began
    EXPECT_EQ(move_text(record_text(a.record())), "{adjudicated 0 ply-limit} 0\n") << record_text(a.record());
    expect_round_trip(a.record(), {}, k.name + " adjudication");
  }
}

TEST(RecordText, AGameThatEndedInSetupShowsNoSetup) {
  Session s = Session::create("stratego", json::object());
  s.setup_arrangement(0, "random", 1);
  s.offer(1, "resign");
  const std::string text = record_text(s.record());
  EXPECT_EQ(tag_value(text, "Setup0"), "<none>");
  expect_round_trip(s.record(), {}, "stratego resigned in setup");
}

// ---- takebacks -----------------------------------------------------------------------------------------------

TEST(RecordText, NetLineAppliesEachTakeback) {
  auto move = [](const char* m) { return json{{"type", "move"}, {"move", m}}; };
  auto takeback = [](int to) { return json{{"type", "takeback"}, {"player", 0}, {"to", to}}; };
  const json log = {move("d1"), move("a4"), move("g1"), takeback(2), move("g4"), move("a1"), takeback(3), move("a7"),
                    takeback(0), move("d7"), takeback(1), move("g7")};
  int count = -1;
  const std::vector<json> net = net_actions(log, &count);
  EXPECT_EQ(count, 4);
  EXPECT_EQ(json(net), json({move("d7"), move("g7")}));

  int none = -1;
  EXPECT_EQ(json(net_actions(json{move("d1"), move("a4")}, &none)), json({move("d1"), move("a4")}));
  EXPECT_EQ(none, 0);
  EXPECT_THROW(net_actions(json{move("d1"), takeback(2)}), GameError);  // past the line's end
  EXPECT_THROW(net_actions(json{move("d1"), json{{"type", "takeback"}}}), GameError);
  EXPECT_THROW(net_actions(json::object()), GameError);

  // A record with takebacks is written as its net line, with their count.
  json record = Session::create("tigadi", json::object()).record();
  record["actions"] = {move("d1"), move("a4"), takeback(1), move("g1"), move("g7"), takeback(0), move("a1")};
  const std::string text = record_text(record, RecordTags{{}, "", 9, {}});
  EXPECT_EQ(tag_value(text, "Takebacks"), "2");
  EXPECT_EQ(move_text(text), "1. a1 *\n");
  const TextRecord back = parse_record_text(text);
  EXPECT_EQ(back.tags.takebacks, 2);
  EXPECT_EQ(back.record["moves"], json({"a1"}));
  EXPECT_EQ(record_text(back.record, back.tags), text);
  EXPECT_EQ(tag_value(record_text(back.record), "Takebacks"), "<none>");
}

// ---- malformed texts -----------------------------------------------------------------------------------------

std::string refusal(const std::string& text) {
  try {
    record_from_text(text);
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::bad_request) << text;
    return e.what();
  }
  ADD_FAILURE() << "accepted:\n" << text;
  return "";
}

TEST(RecordText, MalformedTextsAreRefusedWithTheirLineAndReason) {
  const std::string head = "[Game \"tigadi\"]\n[Options \"{}\"]\n[Result \"*\"]\n\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "begins with its tags"},
      {"1. d1 *\n", "begins with its tags"},
      {"[Game \"chess\"]\n[Result \"*\"]\n\n*\n", "line 1: [Game]: unknown game \"chess\""},
      {"[Result \"*\"]\n\n*\n", "[Game] is missing"},
      {"[Game \"tigadi\"]\n\n*\n", "[Result] is missing"},
      {"[Game \"tigadi\"]\n[Options \"{nope}\"]\n[Result \"*\"]\n\n*\n", "line 2: [Options] is not valid JSON"},
      {"[Game \"tigadi\"]\n[Options \"[1]\"]\n[Result \"*\"]\n\n*\n", "line 2: [Options] must be a JSON object"},
      {"[Game \"facet\"]\n[Options \"{\\\"layout\\\":\\\"hex\\\"}\"]\n[Result \"*\"]\n\n*\n", "line 2: [Options]: option \"layout\""},
      {"[Game \"tigadi\"]\n[Options \"" + std::string(40, '[') + "\"]\n[Result \"*\"]\n\n*\n", "nests deeper"},
      {"[Game \"tigadi\"]\n[Event \"x\"]\n[Result \"*\"]\n\n*\n", "line 2: unknown tag [Event]"},
      {"[Game \"tigadi\"]\n[Game \"tigadi\"]\n[Result \"*\"]\n\n*\n", "line 2: tag [Game] is given twice"},
      {"[Game tigadi]\n[Result \"*\"]\n\n*\n", "line 1: a tag's value is in double quotes"},
      {"[Game \"tigadi]\n[Result \"*\"]\n\n*\n", "line 1: the tag's value has no closing quote"},
      {"[Game \"ti\\gadi\"]\n[Result \"*\"]\n\n*\n", "line 1: in a tag's value a backslash escapes"},
      {"[Game \"tigadi\"] x\n[Result \"*\"]\n\n*\n", "line 1: nothing may follow a tag"},
      {"[Game \"tigadi\"]\n1. d1 *\n", "line 2: a blank line must part"},
      {"[Game \"tigadi\"]\n[Result \"1-0\"]\n\n1-0\n", "line 2: [Result]: a result is *, draw or the winners"},
      {"[Game \"tigadi\"]\n[Date \"yesterday\"]\n[Result \"*\"]\n\n*\n", "line 2: [Date]: a date is YYYY.MM.DD"},
      {"[Game \"tigadi\"]\n[Takebacks \"-1\"]\n[Result \"*\"]\n\n*\n", "line 2: [Takebacks]"},
      {"[Game \"tigadi\"]\n[Seat2 \"Bo\"]\n[Result \"*\"]\n\n*\n", "line 2: [Seat2]: this game has seats 0 to 1"},
      {"[Game \"tigadi\"]\n[Setup0 \"a1:G\"]\n[Result \"*\"]\n\n*\n", "line 2: [Setup0]: "},
      {"[Game \"tigadi\"]\n[Terrain \"a1:T\"]\n[Result \"*\"]\n\n*\n", "only FACET has a terrain tag"},
      {"[Game \"facet\"]\n[Terrain \"a1:X\"]\n[Result \"*\"]\n\n*\n", "line 2: [Terrain]: state.terrain"},
      {"[Game \"facet\"]\n[Terrain \"a1T\"]\n[Result \"*\"]\n\n*\n", "is not <square>:<letter>"},
      {"[Game \"stratego\"]\n[Setup0 \"a1:F a1:B\"]\n[Result \"*\"]\n\n*\n", "\"a1\" is given twice"},
      {"[Game \"stratego\"]\n[Setup0 \"a1:F\"]\n[Result \"*\"]\n\n*\n", "line 2: [Setup0]: "},
      {"[Game \"stratego\"]\n[Result \"*\"]\n\n1. a4-a5 *\n", "line 4: round 1: the move \"a4-a5\" is refused: no move is legal until every army"},
      {"[Game \"tigadi\"]\n[View \"0\"]\n[Result \"*\"]\n\n*\n", "line 2: a seat's view cannot be replayed"},
      {head + "1. d1 d1 *\n", "line 5: round 1: the move \"d1\" is refused: "},
      {head + "1. d1 a4\n2. zz *\n", "line 6: round 2: the move \"zz\" is refused: "},
      {head + "1. d1 a4\n", "the moves must end with the result"},
      {head + "1. d1 a4 draw\n", "line 5: the moves end with \"draw\" but [Result] says \"*\""},
      {head + "1. d1 * a4\n", "line 5: nothing may follow the result"},
      {head + "1. d1 {0 resigns\n*\n", "line 5: the comment has no closing }"},
      {head + "1. d1 {0 {resigns}} *\n", "comments do not nest"},
      {head + "1. d1 } *\n", "a } closes no comment"},
      {head + "1. d1 {a nice move} *\n", "unknown comment \"a nice move\""},
      {head + "1. d1 {0 resign} *\n", "unknown comment \"0 resign\""},
      {head + "1. d1 {7 resigns} *\n", "seat 7 does not play this game"},
      {head + "1. d1 {0 offers stalemate} *\n", "\"0 offers stalemate\" is refused: Tigadi has no \"stalemate\" offers"},
      {head + "1. d1 {adjudicated 0-1 ply-limit} *\n", "the adjudicated result \"0-1\""},
      {head + "1. d1 {adjudicated 0+5 ply-limit} *\n", "line 5: seat 5 does not play this game"},
      {"[Game \"tigadi\"]\n[Result \"0+2\"]\n[Reason \"x\"]\n\n0+2\n", "line 2: [Result]: seat 2 does not play this game"},
      {head + "1. d1 {0 resigns} a4 *\n", "line 5: round 1: the move \"a4\" is refused: the game is over"},
      {head + "1. d1 {0 resigns} *\n", "[Result]: the moves lead to 1 (resignation), not \"*\""},
      {"[Game \"tigadi\"]\n[Result \"1\"]\n\n1. d1 {0 resigns} 1\n", "the tag [Reason] is missing"},
      {"[Game \"tigadi\"]\n[Result \"1\"]\n[Reason \"regicide\"]\n\n1. d1 {0 resigns} 1\n", "the moves lead to 1 (resignation), not \"1\" (regicide)"},
      {"[Game \"tigadi\"]\n[Result \"*\"]\n[Reason \"regicide\"]\n\n1. d1 *\n", "a game still on has no reason"},
      {head + "1. d1,,a4 *\n", "an empty action in \"d1,,a4\""},
      {head + "9999999. d1 *\n", "the move number \"9999999.\" is too large"},
      {std::string(kMaxRecordTextBytes + 1, ' '), "at most 1048576 bytes"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string why = refusal(text);
    EXPECT_NE(why.find(expected), std::string::npos) << "text:\n" << text << "\nwhy: " << why << "\nexpected: " << expected;
  }
}

TEST(RecordText, AtMostAHundredThousandActionsAreReadBeforeAnyIsReplayed) {
  std::string text = "[Game \"tigadi\"]\n[Result \"*\"]\n\n";
  for (size_t i = 0; i < kMaxRecordActions; ++i) text += "x ";
  const std::string at_limit = refusal(text + "*\n");
  EXPECT_NE(at_limit.find("the move \"x\" is refused"), std::string::npos) << at_limit;  // 100,000: replayed
  const std::string over = refusal(text + "{0 resigns} *\n");
  EXPECT_NE(over.find("at most 100000 actions"), std::string::npos) << over;  // 100,001: refused unread
}

// ---- mutated texts -------------------------------------------------------------------------------------------

TEST(RecordText, MutatedTextsNeverCrashTheReader) {
  std::vector<std::string> texts;
  for (const Case& c : cases()) {
    Session s = random_game(c, 77, 60);
    texts.push_back(record_text(s.record(), tags_for(s.num_players(), 77)));
    if (s.hides_information()) texts.push_back(seat_record_text(s, 0));  // refused, and so are its mutants
  }
  {
    json state = Session::create("facet", json::object()).state();
    state["board"].erase("a2");
    Session from = Session::from_state("facet", state);
    for (int i = 0; i < 6; ++i) from.play(from.legal()[static_cast<size_t>(i) % from.legal().size()]);
    texts.push_back(record_text(from.record()));  // with [Start]
  }
  static const std::string alphabet = "[]{}\"\\ \n\t,.:+-*?0123456789abcdefghijqxyzGMA";
  Rng rng(2026);
  // TABULA_RECORD_FUZZ_ROUNDS=<n> runs longer, by hand.
  const char* env = std::getenv("TABULA_RECORD_FUZZ_ROUNDS");
  const int rounds = env ? std::atoi(env) : kSanitized ? 500 : 3000;
  int accepted = 0;
  for (int i = 0; i < rounds; ++i) {
    std::string t = texts[rng.below(texts.size())];
    const int edits = 1 + static_cast<int>(rng.below(4));
    for (int e = 0; e < edits && !t.empty(); ++e) {
      const size_t at = rng.below(t.size());
      switch (rng.below(6)) {
        case 0: t[at] = alphabet[rng.below(alphabet.size())]; break;
        case 1: t.erase(at, 1 + rng.below(8)); break;
        case 2: t.insert(at, 1, alphabet[rng.below(alphabet.size())]); break;
        case 3: t[at] = static_cast<char>(rng.below(256)); break;
        case 4: t.insert(at, t.substr(rng.below(t.size()), rng.below(40))); break;
        default: t.resize(at); break;
      }
    }
    try {
      const TextRecord r = parse_record_text(t);
      ++accepted;
      // What is accepted replays, and writes a text that reads back to the same record.
      const Session replayed = Session::from_record(r.record);
      EXPECT_EQ(parse_record_text(record_text(r.record, r.tags)).record, r.record) << t;
    } catch (const GameError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::bad_request) << t;
      EXPECT_GT(std::string(e.what()).size(), 10u);
    }
  }
  EXPECT_GT(accepted, 0);
}

// ---- a seat's view -------------------------------------------------------------------------------------------

std::vector<std::string> placement_pairs(const json& placement) {
  std::vector<std::string> out;
  for (auto it = placement.begin(); it != placement.end(); ++it) out.push_back(it.key() + ":" + it->get<std::string>());
  return out;
}

TEST(RecordText, ASeatSeesItsOwnStrategoSetupOnly) {
  Session s = Session::create("stratego", json::object());
  s.setup_arrangement(0, "random", 1);
  s.setup_arrangement(1, "random", 2);
  for (int i = 0; i < 30 && !s.over(); ++i) s.play(s.legal()[static_cast<size_t>(i * 7) % s.legal().size()]);
  ASSERT_TRUE(s.hides_information());
  const std::string full = record_text(s.record());
  for (Player seat : {0, 1}) {
    const std::string view = seat_record_text(s, seat, RecordTags{{"Ana", "Bo"}, "2026.12.02", 0, {}});
    const std::string own = "Setup" + std::to_string(seat), other = "Setup" + std::to_string(1 - seat);
    EXPECT_EQ(tag_value(view, own), tag_value(full, own));
    EXPECT_EQ(tag_value(view, other), "<none>");
    for (const std::string& pair : placement_pairs(s.record()["setups"][std::to_string(1 - seat)]))
      EXPECT_EQ(view.find(pair), std::string::npos) << pair;
    EXPECT_EQ(tag_value(view, "View"), std::to_string(seat));
    EXPECT_EQ(tag_value(view, "Result"), "*");
    EXPECT_EQ(move_text(view), move_text(full));  // Stratego's moves are public
    EXPECT_NE(refusal(view).find("a seat's view cannot be replayed"), std::string::npos);
    // The same from the record and the viewer in the tags.
    EXPECT_EQ(record_text(s.record(), RecordTags{{"Ana", "Bo"}, "2026.12.02", 0, seat}), view);
  }
  const std::string spectator = seat_record_text(s, kSpectator);
  EXPECT_EQ(tag_value(spectator, "View"), "spectator");
  EXPECT_EQ(tag_value(spectator, "Setup0"), "<none>");
  EXPECT_EQ(tag_value(spectator, "Setup1"), "<none>");
  EXPECT_EQ(move_text(spectator), move_text(full));
}

TEST(RecordText, ATruthSeatInSetupSeesNoOtherArmy) {
  Session s = Session::create("truth", json{{"players", 4}});
  s.setup_arrangement(0, "suggested", 0);
  s.setup_arrangement(2, "random", 9);
  ASSERT_TRUE(s.hides_information());
  for (Player seat = 0; seat < 4; ++seat) {
    const std::string view = seat_record_text(s, seat);
    for (Player p = 0; p < 4; ++p) {
      const bool mine = p == seat && (p == 0 || p == 2);
      EXPECT_EQ(tag_value(view, "Setup" + std::to_string(p)) != "<none>", mine) << view;
    }
    EXPECT_EQ(move_text(view), "*\n");
  }
  s.setup_arrangement(1, "random", 3);
  s.setup_arrangement(3, "random", 4);
  ASSERT_FALSE(s.hides_information());
  EXPECT_EQ(seat_record_text(s, 1), record_text(s.record()));  // every army is in: nothing is hidden
}

TEST(RecordText, UnderFogAnEnemyMoveIsWrittenAsTheSeatSawIt) {
  Session s = Session::create("facet", json{{"modes", {"fog"}}, {"layout", "random"}, {"seed", 5}});
  Rng rng(11);
  std::vector<std::pair<Player, std::string>> moves;  // mover and the move as played
  std::vector<std::vector<Event>> events;
  for (int i = 0; i < 80 && !s.over(); ++i) {
    const auto legal = s.legal();
    const Player mover = s.game().to_move();
    const std::string m = legal[rng.below(legal.size())];
    events.push_back(s.play(m));
    moves.emplace_back(mover, m);
  }
  ASSERT_TRUE(s.hides_information());
  int unseen = 0;
  for (Player seat : {0, 1}) {
    const std::string view = seat_record_text(s, seat);
    EXPECT_EQ(tag_value(view, "View"), std::to_string(seat));
    EXPECT_EQ(tag_value(view, "Terrain"), tag_value(record_text(s.record()), "Terrain"));  // seen from the start
    // The move text's actions, in order, with the numbers left out.
    std::vector<std::string> written;
    std::string body = move_text(view);
    std::replace(body.begin(), body.end(), '\n', ' ');
    for (size_t i = 0; i < body.size();) {
      const size_t e = std::min(body.find(' ', i), body.size());
      const std::string w = body.substr(i, e - i);
      if (!w.empty() && w.back() != '.' && w != "*") written.push_back(w);
      i = e + 1;
    }
    ASSERT_EQ(written.size(), moves.size()) << view;
    for (size_t i = 0; i < moves.size(); ++i) {
      const auto& [mover, played] = moves[i];
      if (mover == seat) {
        EXPECT_EQ(written[i], played);
        continue;
      }
      // What the seat's views of that ply show, and nothing else.
      std::string from = "?", to = "?";
      bool saw_move = false;
      for (const json& v : s.events_for(seat, events[i]))
        if (v["type"] == "move") {
          saw_move = true;
          from = v.value("from", std::string("?"));
          to = v.value("to", std::string("?"));
        }
      const std::string expected = !saw_move ? "?" : from + "-" + to;
      EXPECT_EQ(written[i], expected) << "move " << i << " (" << played << ")";
      if (written[i].find('?') != std::string::npos) ++unseen;
    }
    EXPECT_NE(refusal(view).find("a seat's view cannot be replayed"), std::string::npos);
  }
  EXPECT_GT(unseen, 0) << "a random fog game hides some enemy move";
  // Spectators see a move's Throne ends only.
  const std::string spectator = seat_record_text(s, kSpectator);
  EXPECT_EQ(tag_value(spectator, "View"), "spectator");
  EXPECT_NE(spectator.find(" ? "), std::string::npos) << spectator;
}

TEST(RecordText, AViewOfAGameThatHidesNothingIsTheWholeRecord) {
  Session s = Session::create("tigadi", json::object());
  s.play("d1");
  EXPECT_EQ(seat_record_text(s, 1, RecordTags{{"A", "B"}, "", 0, 1}), record_text(s.record(), RecordTags{{"A", "B"}, "", 0, {}}));
  EXPECT_THROW(seat_record_text(s, 2), GameError);
}

}  // namespace
}  // namespace tabula
