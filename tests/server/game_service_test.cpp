// The API's logic without HTTP: games, seats and tokens, every error status, subscribers, AI seats,
// persistence across a restart, and rollback when the store fails.
#include "server/ai_workers.h"
#include "server/game_service.h"
#include "server/sha256.h"
#include "server/storage.h"
#include "service_harness.h"
#include "sqlite_exec.h"

#include "core/session.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <regex>
#include <thread>
#include <tuple>

namespace fs = std::filesystem;
using tabula::ErrorKind;
using tabula::GameError;
using tabula::json;
using tabula::Session;
using namespace tabula::server;

namespace {


using tabula::server::test_support::Harness;
using tabula::server::test_support::mv;
using tabula::server::test_support::status;
using tabula::server::test_support::tok;
using tabula::server::test_support::two_humans;
using tabula::server::test_support::file_bytes;
using tabula::server::test_support::kVersion1Schema;
using tabula::server::test_support::sqlite_exec;
using tabula::server::test_support::sqlite_query;

// Whether `text` is anywhere in the database file or its side files, as bytes on disk.
bool on_disk(const fs::path& db, const std::string& text) {
  for (const char* suffix : {"", "-wal", "-shm"})
    if (file_bytes(db.string() + suffix).find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(GameService, StatusMappingAndConstantTimeCompare) {
  EXPECT_EQ(http_status(ErrorKind::bad_request), 400);
  EXPECT_EQ(http_status(ErrorKind::unauthorized), 401);
  EXPECT_EQ(http_status(ErrorKind::not_found), 404);
  EXPECT_EQ(http_status(ErrorKind::not_your_turn), 409);
  EXPECT_EQ(http_status(ErrorKind::conflict), 409);
  EXPECT_EQ(http_status(ErrorKind::illegal), 422);
  EXPECT_TRUE(constant_time_equal("abc", "abc"));
  EXPECT_FALSE(constant_time_equal("abc", "abd"));
  EXPECT_FALSE(constant_time_equal("abc", "abcd"));
  EXPECT_FALSE(constant_time_equal("", "a"));
  EXPECT_TRUE(constant_time_equal("", ""));
}

TEST(GameService, KindsDescribeEveryRegisteredGame) {
  Harness h;
  json kinds = h.svc().kinds();
  ASSERT_TRUE(kinds.is_array());
  ASSERT_EQ(kinds.size(), tabula::game_kinds().size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    const tabula::GameKind& k = tabula::game_kinds()[i];
    EXPECT_EQ(kinds[i]["name"], k.name);
    EXPECT_EQ(kinds[i]["title"], k.title);
    EXPECT_EQ(kinds[i]["player_counts"], json(k.player_counts));
    EXPECT_EQ(kinds[i]["options"], k.options);
    EXPECT_EQ(kinds[i]["ai_levels"], json(k.ai_levels));
    // Every level named and described for the lobby, in the order of ai_levels.
    ASSERT_EQ(kinds[i]["levels"].size(), k.ai_levels.size());
    for (size_t l = 0; l < k.ai_levels.size(); ++l) {
      EXPECT_EQ(kinds[i]["levels"][l]["level"], k.ai_levels[l]);
      EXPECT_FALSE(kinds[i]["levels"][l]["name"].get<std::string>().empty());
      EXPECT_GT(kinds[i]["levels"][l]["description"].get<std::string>().size(), 20u);
    }
    // Whether the kind can hide information at all (a game says whether it does now: `hidden`).
    EXPECT_EQ(kinds[i]["hidden_information"], k.can_hide_information);
    ASSERT_EQ(kinds[i]["variants"].size(), k.variants.size());
    for (size_t v = 0; v < k.variants.size(); ++v) {
      EXPECT_EQ(kinds[i]["variants"][v]["players"], k.variants[v].players);
      EXPECT_EQ(kinds[i]["variants"][v]["arrangements"], json(k.variants[v].arrangements));
      EXPECT_EQ(kinds[i]["variants"][v]["options"], k.variants[v].options);
      // Each named setup placed for every seat of that many players.
      for (const std::string& name : k.variants[v].arrangements)
        EXPECT_EQ(kinds[i]["variants"][v]["placements"][name].size(), static_cast<size_t>(k.variants[v].players)) << name;
    }
  }
  auto kind = [&](const std::string& name) {
    for (const json& k : kinds)
      if (k["name"] == name) return k;
    return json();
  };
  EXPECT_EQ(kind("tigadi")["hidden_information"], false);
  EXPECT_EQ(kind("stratego")["hidden_information"], true);
  EXPECT_EQ(kind("facet")["hidden_information"], true);  // with fog
  EXPECT_EQ(kind("facet")["variants"], json::parse(R"([{"players":2,"arrangements":[],"placements":{},
                                                         "options":{"layout":"classic","seed":0,"modes":[]}}])"));
}

// A kind with two player counts, decided by an option (as Truth's `players`), to check the seat count against.
tabula::GameKind two_counts() {
  tabula::GameKind k;
  k.name = "duo";
  k.title = "Duo";
  k.player_counts = {2, 4};
  k.variants = {{2, {"suggested"}, json{{"players", 2}, {"max_plies", 2000}}},
                {4, {"suggested"}, json{{"players", 4}, {"max_plies", 2000}}}};
  return k;
}

std::string seat_count_error(const tabula::GameKind& k, int players, int seats) {
  try {
    check_seat_count(k, players, seats);
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::bad_request);
    return e.what();
  }
  return "";
}

TEST(GameService, TheSeatsMustBeAsManyAsThePlayersTheOptionsMake) {
  const tabula::GameKind k = two_counts();
  EXPECT_EQ(seat_count_error(k, 2, 2), "");
  EXPECT_EQ(seat_count_error(k, 4, 4), "");
  EXPECT_EQ(seat_count_error(k, 2, 4),
            R"(Duo with these options is for 2 players, so it needs 2 seats, not 4 (for 4 players the options need {"players":4}))");
  EXPECT_EQ(seat_count_error(k, 4, 2),
            R"(Duo with these options is for 4 players, so it needs 4 seats, not 2 (for 2 players the options need {"players":2}))");
  EXPECT_EQ(seat_count_error(k, 2, 3), "Duo with these options is for 2 players, so it needs 2 seats, not 3");
  EXPECT_EQ(seat_count_error(k, 3, 3), "Duo is not played by 3 players");

  // Through create, for every registered kind: one seat per player of each variant, and no other number.
  Harness h;
  for (const tabula::GameKind& kind : tabula::game_kinds()) {
    for (const tabula::GameKind::Variant& v : kind.variants) {
      SCOPED_TRACE(kind.name + " for " + std::to_string(v.players));
      json seats = json::array();
      for (int i = 0; i < v.players; ++i) seats.push_back(json{{"type", "human"}});
      EXPECT_EQ(status([&] { h.svc().create(json{{"game", kind.name}, {"options", v.options}, {"seats", seats}}); }), 200);
      seats.push_back(json{{"type", "human"}});
      try {
        h.svc().create(json{{"game", kind.name}, {"options", v.options}, {"seats", seats}});
        ADD_FAILURE() << "one seat too many was accepted";
      } catch (const GameError& e) {
        EXPECT_EQ(e.kind(), ErrorKind::bad_request);
        EXPECT_NE(std::string(e.what()).find("needs " + std::to_string(v.players) + " seats"), std::string::npos)
            << e.what();
      }
    }
  }
  EXPECT_EQ(seat_count_error(tabula::game_kind("tigadi"), 2, 3), "Tigadi is for 2 players, so it needs 2 seats, not 3");
}

// `hidden` (GET and the WebSocket) and the record follow the position as it stands, for every registered kind
// and variant (and FACET under fog): the record is refused exactly while something is hidden, and once served
// it replays to the game. A kind that hides its setups only until play begins (Truth) serves it from then on.
TEST(GameService, HiddenAndTheRecordFollowThePositionAsItStands) {
  Harness h;
  std::vector<std::pair<std::string, json>> cases;
  for (const tabula::GameKind& k : tabula::game_kinds())
    for (const tabula::GameKind::Variant& v : k.variants) cases.emplace_back(k.name, v.options);
  cases.emplace_back("facet", json{{"modes", {"fog"}}});
  int hidden_seen = 0, public_seen = 0;
  for (const auto& [name, options] : cases) {
    SCOPED_TRACE(name + " " + options.dump());
    Session local = Session::create(name, options);  // the same game, played alongside
    json seats = json::array();
    for (int i = 0; i < local.num_players(); ++i) seats.push_back(json{{"type", "human"}});
    const json created = h.svc().create(json{{"game", name}, {"options", options}, {"seats", seats}});
    const std::string id = created["id"];
    std::vector<json> pushes;
    h.svc().subscribe(id, tabula::kSpectator, [&](const std::string& m) { pushes.push_back(json::parse(m)); });
    auto check = [&](const std::string& when) {
      SCOPED_TRACE(when);
      const bool hidden = local.hides_information();
      (hidden ? hidden_seen : public_seen)++;
      for (int v = tabula::kSpectator; v < local.num_players(); ++v)
        EXPECT_EQ(h.svc().get(id, v == tabula::kSpectator ? GameService::Token() : tok(created, v))["hidden"], hidden);
      ASSERT_FALSE(pushes.empty());
      EXPECT_EQ(pushes.back()["hidden"], hidden);
      if (hidden) {
        EXPECT_EQ(status([&] { h.svc().record(id); }), 409);
      } else {
        const json record = h.svc().record(id);
        EXPECT_EQ(Session::from_record(record).state(), local.state());
      }
    };
    check("at the start");
    tabula::Rng rng(7);
    for (int p = 0; p < local.num_players() && local.game().phase() == tabula::Phase::setup; ++p) {
      const json placement = local.game().arrangement(p, "random", rng.next());
      h.svc().setup(id, tok(created, p), json{{"placement", placement}});
      local.setup(p, placement);
      check("after the setup of seat " + std::to_string(p));
    }
    for (int ply = 0; ply < 4 && local.game().phase() == tabula::Phase::play; ++ply) {
      const std::string m = local.legal().front();
      const tabula::Player p = local.game().to_move();
      h.svc().move(id, tok(created, p), mv(m));
      local.play_as(p, m);
      check("after " + m);
    }
    h.svc().offer(id, tok(created, 0), json{{"what", "resign"}});
    local.offer(0, "resign");
    check("once over");
    EXPECT_EQ(h.svc().get(id, std::nullopt)["hidden"], false);
  }
  EXPECT_GT(hidden_seen, 0);
  EXPECT_GT(public_seen, 0);
}

TEST(GameService, CreateAndPlayWithTwoHumans) {
  Harness h;
  json created = h.svc().create(two_humans());
  const std::string id = created["id"];
  ASSERT_EQ(created["tokens"].size(), 2u);
  for (const char* s : {"0", "1"}) {
    std::string t = created["tokens"][s];
    EXPECT_EQ(t.size(), 32u);  // 128 bits
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos);
  }
  EXPECT_NE(tok(created, 0), tok(created, 1));

  Session reference = Session::create("tigadi", json::object());
  json spectator = h.svc().get(id, std::nullopt);
  EXPECT_EQ(spectator["id"], id);
  EXPECT_EQ(spectator["game"], "tigadi");
  EXPECT_EQ(spectator["status"], "playing");
  EXPECT_TRUE(spectator["you"].is_null());
  EXPECT_EQ(spectator["legal"], json::array());
  EXPECT_EQ(spectator["observation"], reference.observation(tabula::kSpectator));
  EXPECT_TRUE(spectator["result"].is_null());
  EXPECT_EQ(spectator["seats"][0], json::parse(R"({"seat":0,"type":"human","name":"Ana","level":null,"handed":false})"));

  json bone = h.svc().get(id, tok(created, 0));
  EXPECT_EQ(bone["you"], 0);
  EXPECT_EQ(bone["legal"], json(reference.legal()));
  EXPECT_EQ(h.svc().get(id, tok(created, 1))["legal"], json::array());  // not Seed's turn

  json answer = h.svc().move(id, tok(created, 0), mv("d1"));
  auto expected_events = reference.play("d1");
  EXPECT_EQ(answer["events"], reference.events_for(0, expected_events));
  EXPECT_FALSE(answer["events"].empty());
  EXPECT_EQ(answer["observation"], reference.observation(0));
  EXPECT_EQ(answer["observation"]["board"]["d1"], "0G");

  EXPECT_EQ(status([&] { h.svc().move(id, tok(created, 0), mv("d7")); }), 409);  // Bone again
  EXPECT_EQ(status([&] { h.svc().move(id, tok(created, 1), mv("d1")); }), 422);  // occupied
  json seed = h.svc().move(id, tok(created, 1), mv("d7"));
  reference.play("d7");
  EXPECT_EQ(seed["observation"], reference.observation(1));

  json full = h.svc().get(id, std::nullopt);
  EXPECT_EQ(full["events"], reference.events_for(tabula::kSpectator));
  EXPECT_EQ(full["observation"], reference.observation(tabula::kSpectator));

  // Tigadi has no hidden information: its record is public while the game is on.
  json record = h.svc().record(id);
  EXPECT_EQ(record["moves"], json::parse(R"(["d1","d7"])"));
  EXPECT_EQ(Session::from_record(record).state(), reference.state());
}

TEST(GameService, ErrorPaths) {
  Harness h;
  json created = h.svc().create(two_humans());
  const std::string id = created["id"];
  json other = h.svc().create(two_humans());

  EXPECT_EQ(status([&] { h.svc().get("nope", std::nullopt); }), 404);
  EXPECT_EQ(status([&] { h.svc().move("nope", tok(created, 0), mv("d1")); }), 404);
  EXPECT_EQ(status([&] { h.svc().record("nope"); }), 404);
  EXPECT_EQ(status([&] { h.svc().join("nope", json{{"seat", 0}}); }), 404);

  // 401: no token, a forged one of the right shape, another game's, a get with a bad token.
  EXPECT_EQ(status([&] { h.svc().move(id, std::nullopt, mv("d1")); }), 401);
  EXPECT_EQ(status([&] { h.svc().move(id, std::string(32, 'a'), mv("d1")); }), 401);
  EXPECT_EQ(status([&] { h.svc().move(id, tok(other, 0), mv("d1")); }), 401);
  EXPECT_EQ(status([&] { h.svc().move(id, std::string(), mv("d1")); }), 401);
  EXPECT_EQ(status([&] { h.svc().get(id, std::string("forged")); }), 401);
  EXPECT_EQ(status([&] { h.svc().offer(id, std::nullopt, json{{"what", "resign"}}); }), 401);
  EXPECT_EQ(status([&] { h.svc().authenticate(id, std::string(32, '0')); }), 401);
  EXPECT_EQ(h.svc().authenticate(id, std::nullopt), tabula::kSpectator);
  EXPECT_EQ(h.svc().authenticate(id, tok(created, 1)), 1);

  // 400: malformed bodies.
  EXPECT_EQ(status([&] { h.svc().move(id, tok(created, 0), json::array()); }), 400);
  EXPECT_EQ(status([&] { h.svc().move(id, tok(created, 0), json::object()); }), 400);
  EXPECT_EQ(status([&] { h.svc().move(id, tok(created, 0), json{{"move", 5}}); }), 400);
  EXPECT_EQ(status([&] { h.svc().offer(id, tok(created, 0), json{{"what", "surrender"}}); }), 400);
  EXPECT_EQ(status([&] { h.svc().setup(id, tok(created, 0), json::object()); }), 400);
  EXPECT_EQ(status([&] { h.svc().join(id, json{{"seat", 7}}); }), 400);
  EXPECT_EQ(status([&] { h.svc().list({{"status", "bogus"}}); }), 400);

  auto create_status = [&](const char* body) { return status([&] { h.svc().create(json::parse(body)); }); };
  EXPECT_EQ(create_status(R"([])"), 400);
  EXPECT_EQ(create_status(R"({"seats":[{"type":"human"},{"type":"human"}]})"), 400);
  EXPECT_EQ(create_status(R"({"game":"chess","seats":[{"type":"human"},{"type":"human"}]})"), 400);
  EXPECT_EQ(create_status(R"({"game":"tigadi","seats":[{"type":"human"}]})"), 400);
  EXPECT_EQ(create_status(R"({"game":"tigadi","seats":[{"type":"human"},{"type":"human"},{"type":"human"}]})"), 400);
  EXPECT_EQ(create_status(R"({"game":"tigadi","seats":[{"type":"human"},{"type":"robot"}]})"), 400);
  EXPECT_EQ(create_status(R"({"game":"tigadi","seats":[{"type":"human"},{"type":"ai","level":0}]})"), 400);
  EXPECT_EQ(create_status(R"({"game":"tigadi","seats":[{"type":"human"},{"type":"ai","level":6}]})"), 400);
  EXPECT_EQ(create_status(R"({"game":"tigadi","seats":[{"type":"human","level":2},{"type":"human"}]})"), 400);
  EXPECT_EQ(create_status(R"({"game":"tigadi","seats":[{"type":"human","name":7},{"type":"human"}]})"), 400);
  EXPECT_EQ(create_status(R"({"game":"tigadi","options":5,"seats":[{"type":"human"},{"type":"human"}]})"), 400);
  EXPECT_EQ(create_status(R"({"game":"tigadi","seats":"two"})"), 400);

  // 409: a taken seat; an offer the game does not have; anything after the end.
  EXPECT_EQ(status([&] { h.svc().join(id, json{{"seat", 1}, {"name", "Eve"}}); }), 409);
  EXPECT_EQ(status([&] { h.svc().offer(id, tok(created, 0), json{{"what", "stalemate"}}); }), 409);
  EXPECT_EQ(status([&] { h.svc().setup(id, tok(created, 0), json{{"arrangement", "random"}}); }), 409);
  h.svc().move(id, tok(created, 0), mv("d1"));
  json resigned = h.svc().offer(id, tok(created, 1), json{{"what", "resign"}});
  EXPECT_EQ(resigned["observation"]["result"], json::parse(R"({"winners":[0],"reason":"resignation"})"));
  EXPECT_EQ(h.svc().get(id, std::nullopt)["status"], "over");
  EXPECT_EQ(status([&] { h.svc().move(id, tok(created, 1), mv("d7")); }), 409);
  EXPECT_EQ(status([&] { h.svc().move(id, tok(created, 0), mv("d7")); }), 409);
  EXPECT_EQ(status([&] { h.svc().offer(id, tok(created, 0), json{{"what", "resign"}}); }), 409);
  EXPECT_EQ(status([&] { h.svc().join(id, json{{"seat", 1}}); }), 409);
}

// validate_display_name has its own tests; here: create and join use it, and a refused name changes nothing.
TEST(GameService, NamesAreCheckedOnCreateAndJoin) {
  Harness h;
  auto error_of = [](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const GameError& e) {
      return std::to_string(http_status(e.kind())) + " " + e.what();
    }
    return "accepted";
  };
  json spoof = two_humans();
  spoof["seats"][0]["name"] = "Ana\u202Egpj.exe";
  EXPECT_EQ(error_of([&] { h.svc().create(spoof); }),
            "400 a name may not contain invisible or direction-changing characters (U+202E)");
  EXPECT_EQ(h.svc().game_count(), 0u);

  json created =
      h.svc().create(json::parse(R"({"game":"tigadi","seats":[{"type":"human","name":"  李小龍 😀 "},{"type":"open"}]})"));
  EXPECT_EQ(created["seats"][0]["name"], "李小龍 😀");
  const std::string id = created["id"];
  EXPECT_EQ(error_of([&] { h.svc().join(id, json{{"seat", 1}, {"name", std::string(41, 'x')}}); }),
            "400 a name is at most 40 characters");
  EXPECT_EQ(error_of([&] { h.svc().join(id, json{{"seat", 1}, {"name", "Bo\u00A0"}}); }),
            "400 a name may not contain blank characters other than the plain space (U+00A0)");
  EXPECT_EQ(h.svc().get(id, std::nullopt)["seats"][1]["type"], "open");
  json joined = h.svc().join(id, json{{"seat", 1}, {"name", "   "}});  // blank: no name
  EXPECT_TRUE(h.svc().get(id, std::nullopt)["seats"][1]["name"].is_null());
  EXPECT_EQ(joined["seat"], 1);
}

TEST(GameService, OpenSeatJoinAndLists) {
  Harness h;
  json created = h.svc().create(json::parse(R"({"game":"tigadi","seats":[{"type":"human","name":"Ana"},{"type":"open"}]})"));
  const std::string id = created["id"];
  EXPECT_EQ(created["tokens"].size(), 1u);
  EXPECT_EQ(h.svc().get(id, std::nullopt)["status"], "open");
  EXPECT_EQ(h.svc().get(id, tok(created, 0))["legal"], json::array());  // nobody moves until the seat is taken
  EXPECT_EQ(status([&] { h.svc().move(id, tok(created, 0), mv("d1")); }), 409);

  json closed = h.svc().create(two_humans());
  json open_list = h.svc().list({{"status", "open"}});
  ASSERT_EQ(open_list.size(), 1u);
  EXPECT_EQ(open_list[0]["id"], id);
  EXPECT_EQ(open_list[0]["seats"][1]["type"], "open");
  EXPECT_TRUE(open_list[0].contains("created"));

  json joined = h.svc().join(id, json{{"seat", 1}, {"name", "Bo"}});
  std::string token = joined["token"];
  EXPECT_EQ(token.size(), 32u);
  EXPECT_EQ(joined["seat"], 1);
  EXPECT_EQ(status([&] { h.svc().join(id, json{{"seat", 1}, {"name", "Eve"}}); }), 409);
  json game = h.svc().get(id, token);
  EXPECT_EQ(game["you"], 1);
  EXPECT_EQ(game["status"], "playing");
  EXPECT_EQ(game["seats"][1], json::parse(R"({"seat":1,"type":"human","name":"Bo","level":null,"handed":false})"));
  EXPECT_TRUE(h.svc().list({{"status", "open"}}).empty());

  h.svc().move(id, tok(created, 0), mv("d1"));
  h.svc().move(id, token, mv("d7"));

  // All games newest first; by ids; tokens never appear in a list or a game.
  json all = h.svc().list({});
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]["id"], closed["id"]);
  EXPECT_EQ(all[1]["id"], id);
  json some = h.svc().list({{"ids", id + ",unknown," + id}});
  ASSERT_EQ(some.size(), 1u);
  EXPECT_EQ(some[0]["id"], id);
  EXPECT_EQ(h.svc().list({{"ids", ""}}).size(), 0u);
  std::string everything = all.dump() + h.svc().get(id, std::nullopt).dump() + h.svc().get(id, token).dump() +
                           h.svc().record(id).dump();
  for (const std::string& t : {tok(created, 0).value(), token, tok(closed, 0).value(), tok(closed, 1).value()})
    EXPECT_EQ(everything.find(t), std::string::npos);
}

TEST(GameService, SubscribersGetTheirOwnViewAndOnlyNewEvents) {
  Harness h;
  json created = h.svc().create(two_humans());
  const std::string id = created["id"];
  h.svc().move(id, tok(created, 0), mv("d1"));

  std::vector<json> spectator, seed;
  uint64_t s1 = h.svc().subscribe(id, tabula::kSpectator, [&](const std::string& m) { spectator.push_back(json::parse(m)); });
  h.svc().subscribe(id, 1, [&](const std::string& m) { seed.push_back(json::parse(m)); });
  ASSERT_EQ(spectator.size(), 1u);
  EXPECT_EQ(spectator[0]["type"], "update");
  EXPECT_EQ(spectator[0]["events"], h.svc().get(id, std::nullopt)["events"]);  // all of them at first
  EXPECT_EQ(seed[0]["legal"], h.svc().get(id, tok(created, 1))["legal"]);
  EXPECT_FALSE(seed[0]["legal"].empty());
  EXPECT_EQ(spectator[0]["legal"], json::array());

  json answer = h.svc().move(id, tok(created, 1), mv("d7"));
  ASSERT_EQ(spectator.size(), 2u);
  ASSERT_EQ(seed.size(), 2u);
  EXPECT_EQ(seed[1]["events"], answer["events"]);  // only the new ones
  EXPECT_EQ(spectator[1]["observation"], h.svc().get(id, std::nullopt)["observation"]);
  EXPECT_EQ(seed[1]["legal"], json::array());  // Bone to move now
  EXPECT_EQ(spectator[1]["status"], "playing");

  h.svc().unsubscribe(id, s1);
  h.svc().move(id, tok(created, 0), mv("g1"));
  EXPECT_EQ(spectator.size(), 2u);
  EXPECT_EQ(seed.size(), 3u);
  EXPECT_EQ(seed[2]["legal"], h.svc().get(id, tok(created, 1))["legal"]);
}

// The ruling that a game ended before play began reveals no setup (docs/rulings.md C1), through every door
// the service has: GET, the record, the answers to actions and the WebSocket pushes, for each seat and a
// spectator, before and after a restart (which rebuilds the game from its stored actions, setups included).
TEST(GameService, AGameResignedDuringSetupShowsTheVictimsSetupToNobodyElse) {
  Harness h;
  const json kinds = h.svc().kinds();
  json red;
  for (const json& k : kinds)
    if (k["name"] == "stratego") red = k["arrangements"]["blitzkrieg"]["0"];
  ASSERT_EQ(red.size(), 40u);
  json red_board = json::object();
  for (auto it = red.begin(); it != red.end(); ++it) red_board[it.key()] = "0" + it->get<std::string>();

  json created = h.svc().create(json::parse(R"({"game":"stratego","seats":[{"type":"human"},{"type":"open"}]})"));
  const std::string id = created["id"];
  h.svc().setup(id, tok(created, 0), json{{"placement", red}});
  std::vector<json> victim_pushes, attacker_pushes, spectator_pushes;
  h.svc().subscribe(id, 0, [&](const std::string& m) { victim_pushes.push_back(json::parse(m)); });
  h.svc().subscribe(id, tabula::kSpectator, [&](const std::string& m) { spectator_pushes.push_back(json::parse(m)); });
  const GameService::Token attacker = h.svc().join(id, json{{"seat", 1}})["token"].get<std::string>();
  h.svc().subscribe(id, 1, [&](const std::string& m) { attacker_pushes.push_back(json::parse(m)); });
  json answer = h.svc().offer(id, attacker, json{{"what", "resign"}});
  EXPECT_EQ(answer["observation"]["result"], json::parse(R"({"winners":[0],"reason":"resignation"})"));
  ASSERT_EQ(attacker_pushes.back()["status"], "over");
  ASSERT_EQ(spectator_pushes.back()["status"], "over");

  // Red's identities as the board writes them, and the bare kind letters a placement or record uses.
  const std::regex identity(R"("0[MGCJPLTNOSBF]")"), letter(R"("[MGCJPLTNOSBF]")");
  auto expect_blind = [&](const json& bytes, const std::string& who) {
    const std::string text = bytes.dump();
    EXPECT_FALSE(std::regex_search(text, identity)) << who << ": " << text.substr(0, 400);
    EXPECT_FALSE(std::regex_search(text, letter)) << who << ": " << text.substr(0, 400);
    EXPECT_EQ(text.find("placement"), std::string::npos) << who;
  };
  auto check = [&](const std::string& when) {
    json late_spectator, late_attacker, late_victim;
    h.svc().subscribe(id, tabula::kSpectator, [&](const std::string& m) { late_spectator = json::parse(m); });
    h.svc().subscribe(id, 1, [&](const std::string& m) { late_attacker = json::parse(m); });
    h.svc().subscribe(id, 0, [&](const std::string& m) { late_victim = json::parse(m); });
    const json spectator = h.svc().get(id, std::nullopt), seat1 = h.svc().get(id, attacker);
    const json seat0 = h.svc().get(id, tok(created, 0)), record = h.svc().record(id);
    for (const json& g : {spectator, seat1, late_spectator, late_attacker}) {
      EXPECT_EQ(g["observation"]["phase"], "over") << when;
      EXPECT_EQ(g["observation"]["board"], json::object()) << when;
      expect_blind(g, when);
    }
    expect_blind(record, when + " record");
    EXPECT_EQ(record["setups"], json::object()) << when;
    EXPECT_EQ(record["actions"], json::parse(R"([{"type":"offer","player":1,"what":"resign"}])")) << when;
    EXPECT_EQ(record["result"], json::parse(R"({"winners":[0],"reason":"resignation"})")) << when;
    // The victim still sees its own army, as in setup.
    EXPECT_EQ(seat0["observation"]["board"], red_board) << when;
    EXPECT_EQ(late_victim["observation"], seat0["observation"]) << when;
    return std::make_tuple(spectator, seat1, seat0);
  };
  for (const json& m : attacker_pushes) expect_blind(m, "attacker push");
  for (const json& m : spectator_pushes) expect_blind(m, "spectator push");
  expect_blind(answer, "the resignation's answer");
  EXPECT_EQ(victim_pushes.back()["observation"]["board"], red_board);
  const auto before = check("before the restart");

  h.restart();
  EXPECT_EQ(check("after the restart"), before);
}

TEST(GameService, AnAiSeatAnswersAHumanMove) {
  Harness h;
  json created = h.svc().create(json::parse(R"({"game":"tigadi","seats":[{"type":"human"},{"type":"ai","level":1}]})"));
  const std::string id = created["id"];
  EXPECT_EQ(created["seats"][1]["level"], 1);
  EXPECT_EQ(created["tokens"].size(), 1u);
  std::vector<json> pushes;
  h.svc().subscribe(id, 0, [&](const std::string& m) { pushes.push_back(json::parse(m)); });
  h.svc().move(id, tok(created, 0), mv("d1"));
  ASSERT_TRUE(h.pump_until([&] { return h.svc().get(id, std::nullopt)["observation"]["ply"] == 2; }));
  json game = h.svc().get(id, tok(created, 0));
  EXPECT_EQ(game["legal"].size(), 22u);  // two points taken
  EXPECT_EQ(game["observation"]["to_move"], 0);
  ASSERT_EQ(pushes.size(), 3u);  // the first update, the human's move, the AI's reply
  EXPECT_FALSE(pushes[2]["events"].empty());
  EXPECT_EQ(pushes[2]["legal"], game["legal"]);
  EXPECT_EQ(pushes[2].dump().find("\"info\""), std::string::npos);  // the AI's thinking stays inside
}

TEST(GameService, AnAiThatMovesFirstStartsAtOnce) {
  Harness h;
  json created = h.svc().create(json::parse(R"({"game":"tigadi","seats":[{"type":"ai","level":2},{"type":"human"}]})"));
  const std::string id = created["id"];
  ASSERT_TRUE(h.pump_until([&] { return h.svc().get(id, std::nullopt)["observation"]["ply"] == 1; }));
  EXPECT_FALSE(h.svc().get(id, tok(created, 1))["legal"].empty());
  EXPECT_EQ(status([&] { h.svc().move(id, tok(created, 1), mv("pass")); }), 422);
}

TEST(GameService, AiAgainstAiIsDrawnAtThePlyLimit) {
  EXPECT_EQ(GameService::Config{}.ply_limit, 1000);
  GameService::Config config = Harness::quick_config();
  config.ai_ms = 5;
  config.ply_limit = 12;
  Harness h(config);
  json created = h.svc().create(json::parse(R"({"game":"tigadi","seats":[{"type":"ai","level":1},{"type":"ai","level":1}]})"));
  const std::string id = created["id"];
  EXPECT_TRUE(created["tokens"].empty());
  ASSERT_TRUE(h.pump_until([&] { return h.svc().get(id, std::nullopt)["status"] == "over"; }));
  json game = h.svc().get(id, std::nullopt);
  // A game this short can also end by a win; with two random players over 12 placements it does not.
  EXPECT_EQ(game["result"], json::parse(R"({"winners":[],"reason":"ply-limit"})"));
  EXPECT_EQ(game["observation"]["ply"], 12);
  EXPECT_FALSE(h.svc().ai_pending(id));
}

// With Config::test_seed the server's random choices (the AI seats' arrangements and moves) are derived from it,
// the action count and the seat, so a test's AI-only Stratego game replays setup and move for move on a fresh
// server; another seed plays another game. On a node budget: time is not read.
TEST(GameService, WithATestSeedAGameOfAiSeatsReplaysMoveForMove) {
  auto play = [](uint64_t seed) {
    GameService::Config config = Harness::quick_config();
    config.ai_nodes = 400;
    config.test_seed = seed;
    config.ply_limit = 24;
    Harness h(config);
    json created = h.svc().create(
        json::parse(R"({"game":"stratego","seats":[{"type":"ai","level":2},{"type":"ai","level":1}]})"));
    const std::string id = created["id"];
    EXPECT_TRUE(h.pump_until([&] { return h.svc().get(id, std::nullopt)["status"] == "over"; }));
    return h.svc().record(id);
  };
  const json a = play(7);
  ASSERT_EQ(a["moves"].size(), 24u);
  EXPECT_EQ(play(7)["actions"], a["actions"]);  // the setups, the moves and the adjudication (not the id or the date)
  const json b = play(8);
  EXPECT_NE(b["moves"], a["moves"]);
  EXPECT_NE(b["setups"], a["setups"]);
}

TEST(GameService, GamesAndTokensSurviveARestart) {
  Harness h;
  json created = h.svc().create(json::parse(R"({"game":"tigadi","seats":[{"type":"human","name":"Ana"},{"type":"open"}]})"));
  const std::string id = created["id"];
  std::string bo = h.svc().join(id, json{{"seat", 1}, {"name", "Bo"}})["token"];
  json finished = h.svc().create(two_humans());
  h.svc().offer(finished["id"].get<std::string>(), tok(finished, 0), json{{"what", "resign"}});
  for (const char* m : {"d1", "d7", "g1"}) {
    const bool bone = h.svc().get(id, std::nullopt)["observation"]["to_move"] == 0;
    h.svc().move(id, bone ? tok(created, 0) : GameService::Token(bo), mv(m));
  }
  json before_bone = h.svc().get(id, tok(created, 0));
  json before_seed = h.svc().get(id, bo);
  json before_list = h.svc().list({});

  h.restart();
  EXPECT_EQ(h.svc().game_count(), 2u);
  EXPECT_EQ(h.svc().get(id, tok(created, 0)), before_bone);
  EXPECT_EQ(h.svc().get(id, bo), before_seed);
  EXPECT_EQ(h.svc().list({}), before_list);
  EXPECT_EQ(h.svc().get(finished["id"].get<std::string>(), std::nullopt)["status"], "over");
  EXPECT_EQ(status([&] { h.svc().move(id, tok(created, 0), mv("a1")); }), 409);  // Seed's turn
  EXPECT_EQ(status([&] { h.svc().move(id, std::string(32, 'f'), mv("a1")); }), 401);
  h.svc().move(id, bo, mv("a1"));
  EXPECT_EQ(h.svc().get(id, std::nullopt)["observation"]["ply"], 4);

  h.restart();
  EXPECT_EQ(h.svc().get(id, std::nullopt)["observation"]["ply"], 4);
  EXPECT_EQ(h.svc().record(id)["moves"], json::parse(R"(["d1","d7","g1","a1"])"));
}

TEST(GameService, TokensAreKeptAsDigestsOnly) {
  Harness h;
  json created = h.svc().create(json::parse(R"({"game":"tigadi","seats":[{"type":"human"},{"type":"open"}]})"));
  const std::string id = created["id"];
  const std::string ana = tok(created, 0).value();
  const std::string bo = h.svc().join(id, json{{"seat", 1}})["token"];
  const std::string creator = created["creator"];
  // The creator's digest is kept under seat -1 (Storage::kCreatorSeat), the seats' under their numbers.
  EXPECT_EQ(sqlite_query(h.db(), "SELECT group_concat(token_hash, ' ') FROM (SELECT token_hash FROM tokens "
                                 "WHERE game_id = '" + id + "' ORDER BY seat)"),
            sha256_hex(creator) + " " + sha256_hex(ana) + " " + sha256_hex(bo));
  EXPECT_FALSE(on_disk(h.db(), ana));
  EXPECT_FALSE(on_disk(h.db(), bo));
  EXPECT_FALSE(on_disk(h.db(), creator));
  EXPECT_TRUE(on_disk(h.db(), sha256_hex(ana)));  // and on_disk does find what is there
  // The digest is what is kept, not a key: presenting it is a wrong token.
  EXPECT_EQ(status([&] { h.svc().get(id, sha256_hex(ana)); }), 401);
  EXPECT_EQ(h.svc().get(id, bo)["you"], 1);
}

// A database written by the last version-1 Tabula, as a server killed mid-game leaves it: one game's
// tokens checkpointed into the file, another's still in the -wal.
TEST(GameService, AVersion1DatabaseIsMigratedAndItsTokensStillWork) {
  Harness h;
  h.close();
  fs::remove(h.db());
  const std::string ana = "0123456789abcdef0123456789abcdef", bo = "fedcba9876543210fedcba9876543210";
  const std::string cy = "00112233445566778899aabbccddeeff";
  {
    sqlite3* v1 = nullptr;
    ASSERT_EQ(sqlite3_open(h.db().c_str(), &v1), SQLITE_OK);
    sqlite3_db_config(v1, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);  // like a SIGKILL: the -wal stays
    auto exec = [&](const std::string& sql) {
      ASSERT_EQ(sqlite3_exec(v1, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(v1);
    };
    const std::string seats =
        R"([{"type":"human","name":"Ana","level":null},{"type":"human","name":"Bo","level":null}])";
    exec("PRAGMA journal_mode=WAL");
    exec(std::string("BEGIN;") + kVersion1Schema + "PRAGMA user_version = 1; COMMIT;");
    exec("INSERT INTO games VALUES ('g1', 'tigadi', '{}', '" + seats +
         "', NULL, '2025-01-01T00:00:00.000Z', 'playing')");
    exec("INSERT INTO tokens VALUES ('g1', 0, '" + ana + "'), ('g1', 1, '" + bo + "')");
    exec(R"(INSERT INTO actions VALUES ('g1', 0, '{"move":"d1","type":"move"}'))");
    exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const std::string open_seat =
        R"([{"type":"human","name":"Cy","level":null},{"type":"open","name":null,"level":null}])";
    exec("INSERT INTO games VALUES ('g2', 'tigadi', '{}', '" + open_seat +
         "', NULL, '2025-01-02T00:00:00.000Z', 'open')");
    exec("INSERT INTO tokens VALUES ('g2', 0, '" + cy + "')");
    sqlite3_close(v1);
  }
  ASSERT_NE(file_bytes(h.db()).find(ana), std::string::npos);  // the clear tokens are there to be scrubbed
  ASSERT_NE(file_bytes(h.db().string() + "-wal").find(cy), std::string::npos);

  h.open();
  EXPECT_EQ(sqlite_query(h.db(), "PRAGMA user_version"), "2");
  EXPECT_EQ(sqlite_query(h.db(), "PRAGMA application_id"), std::to_string(Storage::kApplicationId));
  EXPECT_EQ(sqlite_query(h.db(), "SELECT group_concat(name) FROM pragma_table_info('tokens')"),
            "game_id,seat,token_hash");
  EXPECT_EQ(sqlite_query(h.db(), "SELECT group_concat(token_hash, ' ') FROM (SELECT token_hash FROM tokens "
                                 "ORDER BY game_id, seat)"),
            sha256_hex(ana) + " " + sha256_hex(bo) + " " + sha256_hex(cy));
  EXPECT_EQ(sqlite_query(h.db(), "SELECT count(*) FROM sqlite_master WHERE name LIKE 'tokens%'"), "1");
  for (const std::string& token : {ana, bo, cy}) EXPECT_FALSE(on_disk(h.db(), token)) << token;

  // The tokens the players hold act as before.
  EXPECT_EQ(h.svc().get("g1", ana)["you"], 0);
  EXPECT_EQ(h.svc().game_count(), 2u);
  EXPECT_EQ(h.svc().get("g2", cy)["you"], 0);
  EXPECT_EQ(status([&] { h.svc().get("g1", cy); }), 401);
  EXPECT_EQ(h.svc().move("g1", bo, mv("d7"))["observation"]["ply"], 2);
  h.restart();  // a version-2 database now: opened as it is
  EXPECT_EQ(h.svc().move("g1", ana, mv("g1"))["observation"]["ply"], 3);
  for (const std::string& token : {ana, bo, cy}) EXPECT_FALSE(on_disk(h.db(), token)) << token;
}

TEST(GameService, AnAiGameResumesAfterARestart) {
  Harness h;
  json created = h.svc().create(json::parse(R"({"game":"tigadi","seats":[{"type":"human"},{"type":"ai","level":1}]})"));
  const std::string id = created["id"];
  h.svc().move(id, tok(created, 0), mv("d1"));
  h.restart();  // the AI's reply was not made yet: the restarted service thinks again
  ASSERT_TRUE(h.pump_until([&] { return h.svc().get(id, std::nullopt)["observation"]["ply"] == 2; }));
  EXPECT_FALSE(h.svc().get(id, tok(created, 0))["legal"].empty());
}

TEST(GameService, AStoreFailureRollsTheGameBack) {
  Harness h;
  json created = h.svc().create(two_humans());
  const std::string id = created["id"];
  h.svc().move(id, tok(created, 0), mv("d1"));
  json before = h.svc().get(id, tok(created, 1));
  std::vector<json> pushes;
  h.svc().subscribe(id, tabula::kSpectator, [&](const std::string& m) { pushes.push_back(json::parse(m)); });

  // Another writer has taken the next row: the store refuses the move.
  sqlite_exec(h.db(), "INSERT INTO actions (game_id, seq, action) VALUES ('" + id + "', 1, '{}')");
  EXPECT_THROW(h.svc().move(id, tok(created, 1), mv("d7")), StorageError);
  EXPECT_EQ(h.svc().get(id, tok(created, 1)), before);  // not played
  EXPECT_EQ(pushes.size(), 1u);                          // and nobody was told it was

  sqlite_exec(h.db(), "DELETE FROM actions WHERE game_id = '" + id + "' AND seq = 1");
  json answer = h.svc().move(id, tok(created, 1), mv("d7"));
  EXPECT_EQ(answer["observation"]["ply"], 2);
  EXPECT_EQ(pushes.size(), 2u);
  h.restart();
  EXPECT_EQ(h.svc().record(id)["moves"], json::parse(R"(["d1","d7"])"));
}

TEST(GameService, AStoreFailureLeavesAnOpenSeatOpen) {
  Harness h;
  json created = h.svc().create(json::parse(R"({"game":"tigadi","seats":[{"type":"human"},{"type":"open"}]})"));
  const std::string id = created["id"];
  sqlite_exec(h.db(), "INSERT INTO tokens (game_id, seat, token_hash) VALUES ('" + id + "', 1, '" +
                         sha256_hex("planted") + "')");
  EXPECT_THROW(h.svc().join(id, json{{"seat", 1}, {"name", "Bo"}}), StorageError);
  json game = h.svc().get(id, std::nullopt);
  EXPECT_EQ(game["status"], "open");
  EXPECT_EQ(game["seats"][1]["type"], "open");
  EXPECT_EQ(status([&] { h.svc().get(id, std::string("planted")); }), 401);  // never loaded: not a seat's
  sqlite_exec(h.db(), "DELETE FROM tokens WHERE game_id = '" + id + "' AND seat = 1");
  std::string token = h.svc().join(id, json{{"seat", 1}, {"name", "Bo"}})["token"];
  h.restart();
  EXPECT_EQ(h.svc().get(id, token)["you"], 1);
  EXPECT_EQ(h.svc().get(id, std::nullopt)["status"], "playing");
}

TEST(GameService, ACorruptDatabaseIsRefused) {
  std::string tmpl = (fs::temp_directory_path() / "tabula-corrupt-XXXXXX").string();
  fs::path dir = mkdtemp(tmpl.data());
  fs::path db = dir / "tabula.db";
  std::string garbage(8192, '\0');
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>((i * 31 + 7) % 251);
  { std::ofstream(db, std::ios::binary) << garbage; }
  EXPECT_THROW(Storage s(db.string()), StorageError);
  std::ifstream in(db, std::ios::binary);
  std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(after, garbage);
  fs::remove_all(dir);
}

namespace {

// A scheduler that keeps the AI's work instead of running it, so a test sees what was asked, in which
// lane, and decides when (and with what) each job completes.
struct HeldJobs {
  struct Held {
    AiWorkers::Lane lane;
    AiWorkers::Job job;
    AiWorkers::Done done;
  };
  std::vector<Held> jobs;
  GameService::AiScheduler scheduler() {
    return [this](AiWorkers::Lane lane, AiWorkers::Job job, AiWorkers::Done done) {
      jobs.push_back({lane, std::move(job), std::move(done)});
    };
  }
  // Runs job i for real on this thread and completes it.
  void complete(size_t i) {
    std::atomic<bool> stop{false};
    Held h = std::move(jobs.at(i));
    jobs.erase(jobs.begin() + static_cast<std::ptrdiff_t>(i));
    h.done(h.job(stop));
  }
};

}  // namespace

TEST(GameService, AiOnlyGamesSearchInTheBackgroundAndGamesWithAPersonInteractively) {
  tabula::server::test_support::TempDir dir;
  Storage storage((dir / "t.db").string());
  HeldJobs held;
  GameService svc(storage, held.scheduler(), Harness::quick_config());
  svc.create(json::parse(R"({"game":"tigadi","seats":[{"type":"ai","level":3},{"type":"ai","level":3}]})"));
  svc.create(json::parse(R"({"game":"tigadi","seats":[{"type":"ai","level":3},{"type":"human"}]})"));
  ASSERT_EQ(held.jobs.size(), 2u);
  EXPECT_EQ(held.jobs[0].lane, AiWorkers::Lane::background);
  EXPECT_EQ(held.jobs[1].lane, AiWorkers::Lane::interactive);
}

// Each AI seat keeps its search table between its moves, but only the most recently moved seats do (a
// level-5 table is 16 MB): three games whose AI moves first, with room for two, keep two.
TEST(GameService, TheAiSeatsKeepTheirSearchTablesWithinABound) {
  EXPECT_EQ(GameService::Config{}.ai_memories, 8u);
  tabula::server::test_support::TempDir dir;
  Storage storage((dir / "t.db").string());
  HeldJobs held;
  GameService::Config config = Harness::quick_config();
  config.ai_memories = 2;
  GameService svc(storage, held.scheduler(), config);
  svc.create(json::parse(R"({"game":"tigadi","seats":[{"type":"ai","level":3},{"type":"human"}]})"));
  EXPECT_EQ(svc.ai_memories_kept(), 1u);
  svc.create(json::parse(R"({"game":"tigadi","seats":[{"type":"ai","level":3},{"type":"human"}]})"));
  svc.create(json::parse(R"({"game":"tigadi","seats":[{"type":"ai","level":3},{"type":"human"}]})"));
  ASSERT_EQ(held.jobs.size(), 3u);
  EXPECT_EQ(svc.ai_memories_kept(), 2u);
  // The first game's memory was dropped from the pool; its search still holds it and completes.
  held.complete(0);
  EXPECT_EQ(svc.ai_memories_kept(), 2u);
}

TEST(GameService, OffersToTheAiKeepAtMostOneAnswerInFlight) {
  tabula::server::test_support::TempDir dir;
  Storage storage((dir / "t.db").string());
  HeldJobs held;
  GameService svc(storage, held.scheduler(), Harness::quick_config());
  // FACET has draw offers; the human (White) moves first, so no search is pending.
  json created = svc.create(json::parse(R"({"game":"facet","seats":[{"type":"human"},{"type":"ai","level":3}]})"));
  const std::string id = created["id"];
  const auto token = tok(created, 0);
  ASSERT_TRUE(held.jobs.empty());
  svc.offer(id, token, json{{"what", "draw"}});
  ASSERT_EQ(held.jobs.size(), 1u);
  EXPECT_EQ(held.jobs[0].lane, AiWorkers::Lane::offer);
  // While that answer is computed, the human moves, the AI replies (which declines the offer) and the
  // human offers again: the second offer gets no job of its own while the first is in flight.
  svc.move(id, token, mv(svc.get(id, token)["legal"][0].get<std::string>()));
  ASSERT_EQ(held.jobs.size(), 2u);
  EXPECT_EQ(held.jobs[1].lane, AiWorkers::Lane::interactive);
  held.complete(1);
  ASSERT_EQ(svc.get(id, token)["observation"]["ply"], 2);
  svc.offer(id, token, json{{"what", "draw"}});
  ASSERT_EQ(held.jobs.size(), 1u) << "one answer in flight per game, however fast offers come";
  // The first answer is to an offer that was overtaken: dropped, and the offer that stands is asked.
  held.complete(0);
  ASSERT_EQ(held.jobs.size(), 1u);
  EXPECT_EQ(held.jobs[0].lane, AiWorkers::Lane::offer);
  EXPECT_FALSE(svc.get(id, token)["observation"]["draw_offer"].is_null()) << "not answered by a stale job";
  held.complete(0);
  EXPECT_TRUE(held.jobs.empty());
  json game = svc.get(id, token);
  EXPECT_TRUE(game["observation"]["draw_offer"].is_null()) << "answered: accepted or declined";
}

TEST(GameService, TheSerialisedViewOfAGameIsItsViewForEverySeatAndAsItGrows) {
  Harness h;
  json created = h.svc().create(two_humans());
  const std::string id = created["id"];
  const std::vector<GameService::Token> viewers = {std::nullopt, tok(created, 0), tok(created, 1)};
  const char* moves[] = {"d1", "d7", "a4", "g4", "f6", "b2"};  // no line closed
  for (const char* m : moves) {
    for (const auto& v : viewers) ASSERT_EQ(json::parse(h.svc().get_text(id, v)), h.svc().get(id, v)) << m;
    const int seat = h.svc().get(id, std::nullopt)["observation"]["to_move"];
    h.svc().move(id, tok(created, seat), mv(m));
  }
  // A failed store takes the action back: the kept text must lose its events too.
  sqlite_exec(h.db(), "INSERT INTO actions (game_id, seq, action) VALUES ('" + id + "', 6, '{}')");
  EXPECT_THROW(h.svc().move(id, tok(created, 0), mv("c3")), StorageError);
  for (const auto& v : viewers) EXPECT_EQ(json::parse(h.svc().get_text(id, v)), h.svc().get(id, v));
  sqlite_exec(h.db(), "DELETE FROM actions WHERE game_id = '" + id + "' AND seq = 6");
  // The end shows everything anew.
  h.svc().offer(id, tok(created, 1), json{{"what", "resign"}});
  for (const auto& v : viewers) EXPECT_EQ(json::parse(h.svc().get_text(id, v)), h.svc().get(id, v));
  // A new subscriber's first update carries the same events.
  std::vector<json> first;
  h.svc().subscribe(id, 0, [&](const std::string& m) { first.push_back(json::parse(m)); });
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0]["events"], h.svc().get(id, tok(created, 0))["events"]);
  EXPECT_EQ(first[0]["type"], "update");
}

// ---- seats handed to the AI by the game's creator, and back (issue 11) -----------------------------------

TEST(GameService, TheCreatorHandsAPersonsSeatToTheAiAndBack) {
  Harness h;
  json created = h.svc().create(two_humans());
  const std::string id = created["id"];
  const std::string creator = created["creator"];
  EXPECT_EQ(created["seats"][1]["handed"], false);
  h.svc().move(id, tok(created, 0), mv("d1"));
  // Bo has gone: the creator hands his seat to the AI, which answers at once.
  json seats = h.svc().hand_seat(id, creator, "1", json{{"type", "ai"}, {"level", 1}})["seats"];
  EXPECT_EQ(seats[1], json::parse(R"({"seat":1,"type":"ai","name":"Bo","level":1,"handed":true})"));
  ASSERT_TRUE(h.pump_until([&] { return h.svc().get(id, std::nullopt)["observation"]["ply"] == 2; }));
  // Bo's token still shows his seat, but cannot act for it while the AI plays it.
  EXPECT_EQ(h.svc().get(id, tok(created, 1))["you"], 1);
  EXPECT_EQ(status([&] { h.svc().offer(id, tok(created, 1), json{{"what", "resign"}}); }), 409);
  // Handed seats survive a restart.
  h.restart();
  EXPECT_EQ(h.svc().get(id, std::nullopt)["seats"][1]["handed"], true);
  // Given back: Bo's own token acts again, and the AI no longer does.
  seats = h.svc().hand_seat(id, creator, "1", json{{"type", "human"}})["seats"];
  EXPECT_EQ(seats[1], json::parse(R"({"seat":1,"type":"human","name":"Bo","level":null,"handed":false})"));
  h.svc().move(id, tok(created, 0), mv(h.svc().get(id, tok(created, 0))["legal"][0].get<std::string>()));
  EXPECT_EQ(h.svc().get(id, std::nullopt)["observation"]["to_move"], 1);
  EXPECT_FALSE(h.svc().ai_pending(id));
  const std::string bo_move = h.svc().get(id, tok(created, 1))["legal"][0];
  h.svc().move(id, tok(created, 1), mv(bo_move));
  EXPECT_EQ(h.svc().get(id, std::nullopt)["observation"]["ply"], 4);
}

TEST(GameService, OnlyTheCreatorHandsSeatsAndARefusalChangesNothing) {
  Harness h;
  json created = h.svc().create(json::parse(R"({"game":"tigadi","seats":[{"type":"human","name":"Ana"},{"type":"ai","level":1}]})"));
  const std::string id = created["id"];
  const std::string creator = created["creator"];
  const json before = h.svc().get(id, std::nullopt);
  const json to_ai = json{{"type", "ai"}, {"level", 2}};
  EXPECT_EQ(status([&] { h.svc().hand_seat(id, std::nullopt, "0", to_ai); }), 401);
  EXPECT_EQ(status([&] { h.svc().hand_seat(id, tok(created, 0), "0", to_ai); }), 401);  // a seat's token
  EXPECT_EQ(status([&] { h.svc().hand_seat(id, sha256_hex(creator), "0", to_ai); }), 401);  // its digest
  EXPECT_EQ(status([&] { h.svc().hand_seat("nope", creator, "0", to_ai); }), 404);
  for (const char* seat : {"2", "-1", "", "01x", "999"})
    EXPECT_EQ(status([&] { h.svc().hand_seat(id, creator, seat, to_ai); }), 400) << seat;
  EXPECT_EQ(status([&] { h.svc().hand_seat(id, creator, "1", to_ai); }), 409);  // the AI's from the start
  EXPECT_EQ(status([&] { h.svc().hand_seat(id, creator, "0", json{{"type", "human"}}); }), 409);  // not handed
  EXPECT_EQ(status([&] { h.svc().hand_seat(id, creator, "0", json{{"type", "open"}}); }), 400);
  EXPECT_EQ(status([&] { h.svc().hand_seat(id, creator, "0", json{{"type", "ai"}, {"level", 9}}); }), 400);
  EXPECT_EQ(status([&] { h.svc().hand_seat(id, creator, "0", json::array()); }), 400);
  EXPECT_EQ(h.svc().get(id, std::nullopt), before);
  h.svc().offer(id, tok(created, 0), json{{"what", "resign"}});
  EXPECT_EQ(status([&] { h.svc().hand_seat(id, creator, "0", to_ai); }), 409);  // over
  // The creator's token is nobody's seat: it neither views a seat nor acts for one.
  EXPECT_EQ(status([&] { h.svc().get(id, creator); }), 401);
}

TEST(GameService, AnOpenSeatHandedToTheAiStartsTheGameAndComesBackOpen) {
  Harness h;
  json created = h.svc().create(json::parse(R"({"game":"tigadi","seats":[{"type":"human","name":"Ana"},{"type":"open"}]})"));
  const std::string id = created["id"];
  const std::string creator = created["creator"];
  EXPECT_EQ(status([&] { h.svc().move(id, tok(created, 0), mv("d1")); }), 409);  // waiting for a player
  json seats = h.svc().hand_seat(id, creator, "1", json{{"type", "ai"}, {"level", 1}})["seats"];
  EXPECT_EQ(seats[1]["name"], "AI level 1");
  EXPECT_EQ(h.svc().get(id, std::nullopt)["status"], "playing");
  h.svc().move(id, tok(created, 0), mv("d1"));
  ASSERT_TRUE(h.pump_until([&] { return h.svc().get(id, std::nullopt)["observation"]["ply"] == 2; }));
  seats = h.svc().hand_seat(id, creator, "1", json{{"type", "human"}})["seats"];
  EXPECT_EQ(seats[1], json::parse(R"({"seat":1,"type":"open","name":null,"level":null,"handed":false})"));
  EXPECT_EQ(h.svc().get(id, std::nullopt)["status"], "open");
  const std::string bo = h.svc().join(id, json{{"seat", 1}, {"name", "Bo"}})["token"];
  EXPECT_EQ(h.svc().get(id, bo)["you"], 1);
  EXPECT_EQ(h.svc().get(id, std::nullopt)["status"], "playing");
}

// Four players: a seat handed over during the setup phase gets the AI's setup, and the game goes round.
TEST(GameService, AFourPlayerTruthSeatHandedToTheAiInSetupSetsUpAndPlays) {
  Harness h;
  json created = h.svc().create(json::parse(
      R"({"game":"truth","options":{"players":4},"seats":[{"type":"human","name":"Ana"},{"type":"human","name":"Bo"},)"
      R"({"type":"ai","level":1},{"type":"ai","level":1}]})"));
  const std::string id = created["id"];
  EXPECT_EQ(created["tokens"].size(), 2u);
  h.svc().setup(id, tok(created, 0), json{{"arrangement", "suggested"}});
  EXPECT_EQ(h.svc().get(id, std::nullopt)["observation"]["ready"], json::parse("[0,2,3]"));
  h.svc().hand_seat(id, created["creator"].get<std::string>(), "1", json{{"type", "ai"}, {"level", 1}});
  json game = h.svc().get(id, tok(created, 0));
  EXPECT_EQ(game["observation"]["phase"], "play");
  // Ivory's two actions; then Jade (the handed seat), Ember and Indigo play theirs and it is Ivory's turn again.
  for (int action = 0; action < 2; ++action)
    h.svc().move(id, tok(created, 0), mv(h.svc().get(id, tok(created, 0))["legal"][0].get<std::string>()));
  ASSERT_TRUE(h.pump_until([&] {
    const json o = h.svc().get(id, std::nullopt)["observation"];
    return o["phase"] != "play" || (o["ply"] == 4 && o["to_move"] == 0);
  }));
}
