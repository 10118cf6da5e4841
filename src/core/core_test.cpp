// Game-independent pieces: the RNG, results, event views, sessions and records.
#include "core/session.h"

#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <set>

namespace tabula {
namespace {

TEST(Rng, SameSeedSameSequenceAndBelowStaysInRange) {
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    uint64_t x = a.next();
    EXPECT_EQ(x, b.next());
    differs = differs || x != c.next();
  }
  EXPECT_TRUE(differs);
  std::set<uint64_t> seen;
  for (int i = 0; i < 10000; ++i) {
    uint64_t v = a.below(7);
    EXPECT_LT(v, 7u);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 7u);
  double u = a.unit();
  EXPECT_GE(u, 0.0);
  EXPECT_LT(u, 1.0);
}

TEST(Rng, SecureTokensAre128BitsAndDistinct) {
  std::string t = secure_random_hex(16);
  EXPECT_EQ(t.size(), 32u);
  EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(t, secure_random_hex(16));
}

TEST(Result, JsonRoundTripAndValidation) {
  Result r{{1}, "reduced-to-two"};
  EXPECT_EQ(Result::from_json(r.to_json()), r);
  EXPECT_THROW(Result::from_json(json{{"winners", "x"}, {"reason", "a"}}), GameError);
  EXPECT_THROW(Result::from_json(json{{"winners", {9}}, {"reason", "a"}}), GameError);
  EXPECT_THROW(Result::from_json(json{{"winners", json::array()}}), GameError);
}

TEST(Event, ViewsFallBackToTheTruthWhenNotRedacted) {
  Event plain{json{{"type", "move"}}, {}};
  EXPECT_EQ(plain.view_for(0, 2), plain.full);
  EXPECT_EQ(plain.view_for(kSpectator, 2), plain.full);
  Event hidden{json{{"type", "move"}, {"from", "a1"}}, {json{{"type", "move"}, {"from", "a1"}}, nullptr, json{{"type", "move"}}}};
  EXPECT_EQ(hidden.view_for(0, 2)["from"], "a1");
  EXPECT_TRUE(hidden.view_for(1, 2).is_null());
  EXPECT_FALSE(hidden.view_for(kSpectator, 2).contains("from"));
}

TEST(Catalogue, KnowsTigadiAndRefusesUnknownGames) {
  EXPECT_EQ(game_kind("tigadi").title, "Tigadi");
  try {
    game_kind("chess");
    FAIL();
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::not_found);
  }
}

TEST(Session, PlayAsChecksTheTurnAndARefusedMoveChangesNothing) {
  Session s = Session::create("tigadi", json::object());
  try {
    s.play_as(1, "d1");
    FAIL();
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::not_your_turn);
  }
  EXPECT_THROW(s.play_as(0, "zz"), GameError);
  EXPECT_EQ(s.actions().size(), 0u);
  EXPECT_EQ(s.event_count(), 0u);
  s.play_as(0, "d1");
  EXPECT_EQ(s.actions().size(), 1u);
  EXPECT_EQ(s.events_for(kSpectator).size(), 1u);
}

TEST(Session, OffersOutsideTheProtocolsVocabularyAreMalformedAndOthersAreTheGamesToRefuse) {
  Session s = Session::create("tigadi", json::object());
  auto kind_of = [&](const char* what) {
    try {
      s.offer(0, what);
    } catch (const GameError& e) {
      return e.kind();
    }
    return ErrorKind::not_found;  // accepted: not expected here
  };
  EXPECT_EQ(kind_of("teleport"), ErrorKind::bad_request);
  EXPECT_EQ(kind_of("stalemate"), ErrorKind::conflict);  // a real offer (Truth's), but Tigadi has none
  EXPECT_EQ(s.actions().size(), 0u);
}

TEST(Session, AdjudicationEndsTheGameAndIsRecorded) {
  Session s = Session::create("tigadi", json::object());
  s.play("d1");
  s.adjudicate(Result{{}, "ply-limit"});
  EXPECT_TRUE(s.over());
  EXPECT_EQ(s.state()["result"]["reason"], "ply-limit");
  EXPECT_THROW(s.adjudicate(Result{{}, "ply-limit"}), GameError);
  Session r = Session::from_record(s.record());
  EXPECT_EQ(r.state(), s.state());
}

TEST(Session, RecordsFromAGivenStartReplay) {
  Session s = Session::from_state("tigadi", json{{"board", {{"a1", "0G"}, {"c4", "1G"}}}, {"in_hand", {5, 5}}});
  s.play("d1");
  Session r = Session::from_record(s.record());
  EXPECT_EQ(r.state(), s.state());
  EXPECT_THROW(Session::from_record(json{{"game", "tigadi"}, {"actions", {{{"type", "teleport"}}}}}), GameError);
  EXPECT_THROW(Session::from_record(json::array()), GameError);
}

// --- A game ended before play began reveals no setup (shared rulings, common rules; docs/rulings.md C1) ---

// The smallest game with a setup phase, standing for any game the Session does not know: each player places
// a secret word; the setup event names it for its owner only; once both are in, one move ("go") ends the game
// with the mover winning. Once over, its own observation is the state, as the common rules say, so whatever
// hides the setups of a game ended in setup must come from the Session.
class Secrets final : public Game {
 public:
  std::unique_ptr<Game> clone() const override { return std::make_unique<Secrets>(*this); }
  std::string_view kind() const override { return "secrets"; }
  int num_players() const override { return 2; }
  bool hidden_information() const override { return true; }
  Phase phase() const override { return phase_; }
  Player to_move() const override { return 0; }
  int ply() const override { return ply_; }
  const Result* result() const override { return result_ ? &*result_ : nullptr; }
  void legal_moves(MoveList& out) const override {
    out.clear();
    if (phase_ == Phase::play) out.push(Move{0});
  }
  void apply(Move, EventLog* events) override {
    ++ply_;
    end_with(Result{{0}, "no-moves"}, events);
  }
  void undo() override {}
  std::string move_to_string(Move) const override { return "go"; }
  void setup(Player p, const json& placement, EventLog* events) override {
    if (phase_ != Phase::setup) fail(ErrorKind::conflict, "set up already");
    secrets_[static_cast<size_t>(p)] = placement.get<std::string>();
    if (events) {
      const json whole{{"type", "setup"}, {"player", p}, {"secret", placement}};
      const json bare{{"type", "setup"}, {"player", p}};
      events->push_back(Event{whole, {p == 0 ? whole : bare, p == 1 ? whole : bare, bare}});
    }
    if (!secrets_[0].empty() && !secrets_[1].empty()) phase_ = Phase::play;
  }
  void end_with(const Result& r, EventLog* events) override {
    result_ = r;
    phase_ = Phase::over;
    if (events) events->push_back(over_event(r));
  }
  json state_json() const override { return observation_json(-2); }
  json observation_json(Player viewer) const override {
    json board = json::object();
    for (Player p = 0; p < 2; ++p)
      if (!secrets_[static_cast<size_t>(p)].empty() && (viewer == p || viewer == -2 || phase_ == Phase::over))
        board[std::to_string(p)] = secrets_[static_cast<size_t>(p)];
    return common_state_json(*this, json::object(), board);
  }
  int evaluate() const override { return 0; }
  uint64_t hash() const override { return 0; }

 private:
  Phase phase_ = Phase::setup;
  int ply_ = 0;
  std::array<std::string, 2> secrets_;
  std::optional<Result> result_;
};

// Everything `viewer` is sent about the game, as text.
std::string seen_by(const Session& s, Player viewer) { return s.observation(viewer).dump() + s.events_for(viewer).dump(); }

TEST(SessionEndBeforePlay, AResignationDuringSetupRevealsNoSetupInAnyGame) {
  Session s = Session::adopt(std::make_unique<Secrets>());
  s.setup(0, "north-star");
  const json seat0_in_setup = s.observation(0);
  s.offer(1, "resign");
  ASSERT_TRUE(s.over());
  EXPECT_TRUE(s.ended_before_play());

  // Each seat keeps what it saw in setup, with the result; the spectators see no placement.
  json want0 = seat0_in_setup;
  want0["phase"] = "over";
  want0["result"] = json{{"winners", {0}}, {"reason", "resignation"}};
  EXPECT_EQ(s.observation(0), want0);
  EXPECT_EQ(s.observation(1).at("board"), json::object());
  EXPECT_EQ(s.observation(kSpectator).at("board"), json::object());
  EXPECT_EQ(s.observation(1).at("result"), want0.at("result"));
  // Events stay as each viewer saw them: the owner's setup event names its secret, nobody else's does.
  EXPECT_NE(s.events_for(0).dump().find("north-star"), std::string::npos);
  EXPECT_EQ(seen_by(s, 1).find("north-star"), std::string::npos);
  EXPECT_EQ(seen_by(s, kSpectator).find("north-star"), std::string::npos);
  // The other door to the events (the server's pushes of new events) keeps them as seen too.
  EXPECT_EQ(s.events_for(1, s.events()).dump().find("north-star"), std::string::npos);

  // The public record holds no setup, yet says how the game ended; the truth stays for a local driver.
  const json record = s.record();
  EXPECT_EQ(record.dump().find("north-star"), std::string::npos);
  EXPECT_EQ(record.at("setups"), json::object());
  EXPECT_EQ(record.at("actions"), json::array({json{{"type", "offer"}, {"player", 1}, {"what", "resign"}}}));
  EXPECT_EQ(record.at("result"), want0.at("result"));
  EXPECT_NE(s.state().dump().find("north-star"), std::string::npos);
  EXPECT_EQ(s.actions().size(), 2u);  // the stored log keeps the setup, for a restart's replay
}

TEST(SessionEndBeforePlay, AnAdjudicationDuringSetupRevealsNoSetupEither) {
  Session s = Session::adopt(std::make_unique<Secrets>());
  s.setup(1, "south-wind");
  s.adjudicate(Result{{}, "ply-limit"});
  EXPECT_TRUE(s.ended_before_play());
  EXPECT_EQ(s.observation(1).at("board"), (json{{"1", "south-wind"}}));
  EXPECT_EQ(seen_by(s, 0).find("south-wind"), std::string::npos);
  EXPECT_EQ(seen_by(s, kSpectator).find("south-wind"), std::string::npos);
  EXPECT_EQ(s.record().dump().find("south-wind"), std::string::npos);
}

TEST(SessionEndBeforePlay, OnceEveryArmyIsInPlayHasBegunAndTheEndRevealsEverything) {
  Session s = Session::adopt(std::make_unique<Secrets>());
  s.setup(0, "north-star");
  s.setup(1, "south-wind");
  s.offer(1, "resign");
  EXPECT_FALSE(s.ended_before_play());
  for (Player v : {0, 1, kSpectator}) {
    EXPECT_EQ(s.observation(v), s.state()) << v;
    EXPECT_NE(seen_by(s, v).find("north-star"), std::string::npos) << v;
    EXPECT_NE(seen_by(s, v).find("south-wind"), std::string::npos) << v;
  }
  EXPECT_EQ(s.record().at("setups"), (json{{"0", "north-star"}, {"1", "south-wind"}}));
}

TEST(SessionEndBeforePlay, AGameCopiedAfterTheEndKeepsItsSetupsHidden) {
  Session s = Session::adopt(std::make_unique<Secrets>());
  s.setup(0, "north-star");
  s.offer(0, "resign");
  Session c = s.clone();
  EXPECT_TRUE(c.ended_before_play());
  EXPECT_EQ(c.observation(1), s.observation(1));
  EXPECT_EQ(seen_by(c, 1).find("north-star"), std::string::npos);
}

TEST(Session, ARecordHoldsItsStartInFullARandomLayoutsTerrainNotOnlyItsSeed) {
  Session a = Session::create("facet", json{{"layout", "random"}, {"seed", 11}});
  a.play(a.legal().front());
  const json record = a.record();
  EXPECT_EQ(record["initial"]["terrain"], Session::create("facet", json{{"layout", "random"}, {"seed", 11}}).state()["terrain"]);
  EXPECT_NE(record["initial"]["terrain"], Session::create("facet", json{{"layout", "random"}, {"seed", 12}}).state()["terrain"]);
  // A reader without our generator replays from `initial` and the moves to the same game.
  Session b = Session::from_state("facet", record["initial"]);
  for (const json& m : record["moves"]) b.play(m.get<std::string>());
  EXPECT_EQ(b.state()["board"], a.state()["board"]);
  EXPECT_EQ(b.state()["terrain"], a.state()["terrain"]);
}

}  // namespace
}  // namespace tabula
