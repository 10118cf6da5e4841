// What every registered game owes the engine, the server and the AI, checked the same way for each: seeded
// random games through Session and the Game interface, for every kind in game_kinds(), each of its variants
// (one per player count) and a few option sets worth covering. A game added to the catalogue is covered here
// from its first line, with no edit.
//
// At every step: undo restores state_json() and hash() for every legal move; clone() is equal; the state's JSON
// rebuilds the same state through the kind's from_state; every observation (each seat and the spectators) has
// notation.md's common fields, shows a spectator nothing a seat does not see, and in a setup phase shows a seat
// only its own army and a spectator none; legal_move_strings agrees with find_legal_move and Session::play,
// while strings that are not legal are refused with a reason and change nothing; phase, result and
// hidden_information() agree. At the end of a game its record (or its log) replays to the same game.
//
// A failure names its game's seed; TABULA_CONFORMANCE_SEED=<seed> runs only that game in each case.
#include "core/session.h"
#include "core/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tabula {
namespace {

using tabula::testing::kSanitized;

// Option sets worth covering besides each variant's defaults (a kind not named here plays its variants).
const std::map<std::string, std::vector<std::pair<std::string, json>>>& extra_option_sets() {
  static const std::map<std::string, std::vector<std::pair<std::string, json>>> extras = {
      {"stratego",
       {{"memory_aid", json{{"memory_aid", true}}},
        {"short_limits", json{{"two_square_limit", 2}, {"repetition_rule", false}, {"max_plies", 120}}}}},
      {"facet",
       {{"fog", json{{"modes", {"fog"}}}},
        {"decay", json{{"modes", {"decay"}}}},
        {"momentum", json{{"modes", {"momentum"}}}},
        {"fog_decay_random_layout", json{{"modes", {"decay", "fog"}}, {"layout", "random"}, {"seed", 7}}}}},
  };
  return extras;
}

using Case = testing::GameCase;

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const GameKind& k : game_kinds()) {
    for (const GameKind::Variant& v : k.variants)
      out.push_back(Case{k.name, std::to_string(v.players) + "_players", v.options});
    if (k.variants.empty()) out.push_back(Case{k.name, "default", k.options});  // the catalogue test fails it
    auto extra = extra_option_sets().find(k.name);
    if (extra != extra_option_sets().end())
      for (const auto& [label, options] : extra->second) out.push_back(Case{k.name, label, options});
  }
  return out;
}

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

// ---- the catalogue -----------------------------------------------------------------------------------------

TEST(Catalogue, EveryKindDescribesItsVariantsAsItsGamesAre) {
  for (const auto& [name, sets] : extra_option_sets()) {
    EXPECT_NO_THROW(game_kind(name)) << "the extra option sets name a game that is not registered: " << name;
    for (const auto& [label, options] : sets) {
      EXPECT_NO_THROW(Session::create(name, options)) << name << " " << label;
    }
  }
  for (const GameKind& k : game_kinds()) {
    SCOPED_TRACE(k.name);
    ASSERT_FALSE(k.variants.empty()) << "every kind lists one variant per player count";
    std::vector<int> counts;
    std::set<std::string> arrangements;
    for (const GameKind::Variant& v : k.variants) {
      SCOPED_TRACE(std::to_string(v.players) + " players");
      counts.push_back(v.players);
      arrangements.insert(v.arrangements.begin(), v.arrangements.end());
      // The variant's options make a game of that many seats, and they are its options with their defaults.
      auto g = k.create(v.options);
      EXPECT_EQ(g->num_players(), v.players);
      EXPECT_EQ(g->state_json().at("options"), v.options);
      const bool setup_phase = g->phase() == Phase::setup;
      if (!setup_phase) {
        EXPECT_TRUE(v.arrangements.empty()) << "named setups in a game without a setup phase";
      }
      for (Player p = 0; p < v.players; ++p) {
        std::vector<std::string> names = v.arrangements;
        if (setup_phase) names.push_back("random");
        for (const std::string& name : names) {
          // Each named setup is one a seat may submit, alone, in a fresh game.
          auto fresh = k.create(v.options);
          json placement;
          ASSERT_NO_THROW(placement = fresh->arrangement(p, name, 5)) << name << " for seat " << p;
          EXPECT_NO_THROW(fresh->setup(p, placement, nullptr)) << name << " for seat " << p;
        }
      }
    }
    EXPECT_EQ(counts, k.player_counts) << "variants follow player_counts";
    EXPECT_EQ(arrangements, std::set<std::string>(k.arrangements.begin(), k.arrangements.end()));
    // A game made without options is one of the variants, with the kind's options.
    auto plain = k.create(json::object());
    const GameKind::Variant* v = k.variant_for(plain->num_players());
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(plain->state_json().at("options"), k.options);
    EXPECT_EQ(k.options, v->options);
  }
}

// ---- one game ----------------------------------------------------------------------------------------------

// What a case learned over its games (for the checks that need several).
struct Seen {
  bool hidden = false;  // some position hid information
  int over = 0;         // games that ended
  int sealed = 0;       // games that ended before play began
  int plies = 0;
};

class Conformance : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    kind_ = &game_kind(GetParam().kind);
    const Session s = Session::create(GetParam().kind, GetParam().options);
    variant_ = kind_->variant_for(s.num_players());
    ASSERT_NE(variant_, nullptr) << "no variant for " << s.num_players() << " players";
  }

  void play_game(uint64_t seed);

  // What the checks of one position read, made once: the state, each viewer's observation (the seats', then
  // the spectators'), the legal moves.
  struct Now {
    json state;
    std::vector<json> views;
    std::vector<std::string> legal;
    const json& view(Player v) const { return views[v == kSpectator ? views.size() - 1 : static_cast<size_t>(v)]; }
  };

  // The checks, each on the session as it stands (refusals are tried on it and must leave it so).
  void check_position(Session& s);
  void check_observations(const Session& s, const Now& now);
  void check_setup_secrecy(const Session& s, const Now& now);
  void check_copies(const Session& s, const Now& now);
  void check_moves(Session& s, const Now& now);
  void check_refusals(Session& s, const Now& now);
  void check_world(const Session& s, const Now& now);
  void check_replay(const Session& s);
  // A refused action: GameError with a reason, and nothing changed (`state`: the session's, if known).
  void expect_refused(Session& s, const std::function<void(Session&)>& action, const std::string& what,
                      std::optional<ErrorKind> kind = std::nullopt, const json* state = nullptr);

  const GameKind* kind_ = nullptr;
  const GameKind::Variant* variant_ = nullptr;
  Rng rng_;
  Seen seen_;
  std::map<Player, json> placements_;  // the last placement each seat submitted
};

// The fields and facts every state and observation shares (notation.md).
// A square as notation.md names it: a file letter, then a rank of one or two digits without a leading zero.
bool is_square_name(std::string_view s) {
  if (s.size() < 2 || s.size() > 3 || s[0] < 'a' || s[0] > 'z' || s[1] < '1' || s[1] > '9') return false;
  return s.size() == 2 || (s[2] >= '0' && s[2] <= '9');
}

// A piece as a state's board holds it: the owner's digit, then a capital letter, or `?` when it is hidden.
bool is_piece_code(std::string_view s) {
  return s.size() == 2 && s[0] >= '0' && s[0] <= '9' && ((s[1] >= 'A' && s[1] <= 'Z') || s[1] == '?');
}

void expect_common_fields(const json& j, const Game& g, const std::string& who) {
  SCOPED_TRACE(who);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(json::parse(j.dump()), j) << "round trip through text";
  for (const char* field : {"game", "options", "phase", "to_move", "ply", "board", "result"})
    ASSERT_TRUE(j.contains(field)) << "missing " << field;
  EXPECT_EQ(j["game"], std::string(g.kind()));
  EXPECT_TRUE(j["options"].is_object());
  EXPECT_EQ(j["phase"], std::string(phase_name(g.phase())));
  EXPECT_EQ(j["to_move"], g.to_move());
  EXPECT_EQ(j["ply"], g.ply());
  ASSERT_TRUE(j["board"].is_object());
  for (auto it = j["board"].begin(); it != j["board"].end(); ++it) {
    EXPECT_TRUE(is_square_name(it.key())) << "board square " << it.key();
    EXPECT_TRUE(it->is_string() && is_piece_code(it->get<std::string>())) << "board piece " << *it;
    if (it->is_string()) {
      EXPECT_LT(it->get<std::string>()[0] - '0', g.num_players()) << *it;
    }
  }
  const Result* r = g.result();
  EXPECT_EQ(j["result"], r ? r->to_json() : json(nullptr));
  if (!j["result"].is_null()) {
    EXPECT_TRUE(j["result"]["winners"].is_array());
    EXPECT_TRUE(j["result"]["reason"].is_string() && !j["result"]["reason"].get<std::string>().empty());
  }
}

void Conformance::check_position(Session& s) {
  const Game& g = s.game();
  const Phase phase = g.phase();
  EXPECT_GE(g.to_move(), 0);
  EXPECT_LT(g.to_move(), g.num_players());
  EXPECT_EQ(g.num_players(), variant_->players);
  EXPECT_EQ(phase == Phase::over, g.result() != nullptr) << "a result exactly when over";
  if (phase == Phase::over) {
    EXPECT_FALSE(g.hidden_information()) << "nothing is hidden once the game is over";
  }
  // The common rules: no army's placement is shown to another until every army is in.
  if (phase == Phase::setup) {
    EXPECT_TRUE(g.hidden_information()) << "a setup phase hides the placements";
  }
  EXPECT_EQ(s.hides_information(), g.hidden_information());
  seen_.hidden = seen_.hidden || g.hidden_information();
  Now now{s.state(), {}, s.legal()};
  for (Player v = 0; v < g.num_players(); ++v) now.views.push_back(s.observation(v));
  now.views.push_back(s.observation(kSpectator));
  if (phase == Phase::play) {
    EXPECT_FALSE(now.legal.empty()) << "a game in play has a move for the player to move";
  } else {
    EXPECT_TRUE(now.legal.empty()) << "no move is legal in " << phase_name(phase);
  }
  expect_common_fields(now.state, g, "state");
  if (::testing::Test::HasFailure()) return;
  check_observations(s, now);
  check_setup_secrecy(s, now);
  check_copies(s, now);
  if (phase == Phase::play) {
    check_moves(s, now);
    check_world(s, now);
  }
}

void Conformance::check_observations(const Session& s, const Now& now) {
  const Game& g = s.game();
  const json& state = now.state;
  const std::vector<json> seats(now.views.begin(), now.views.end() - 1);
  const json& spectator = now.view(kSpectator);
  for (Player p = 0; p < g.num_players(); ++p) {
    if (s.ended_before_play()) {
      // The sealed views: what the seat saw in setup, with the end's common fields.
      EXPECT_EQ(seats[static_cast<size_t>(p)]["result"], g.result()->to_json());
      EXPECT_EQ(seats[static_cast<size_t>(p)]["phase"], "over");
    } else {
      expect_common_fields(seats[static_cast<size_t>(p)], g, "seat " + std::to_string(p));
    }
    // Nothing hidden (and so once over, unless it ended before play): every observation is the state.
    if (!g.hidden_information() && !s.ended_before_play()) {
      EXPECT_EQ(seats[static_cast<size_t>(p)], state) << "seat " << p << " while nothing is hidden";
    }
  }
  if (!s.ended_before_play()) expect_common_fields(spectator, g, "spectator");
  if (!g.hidden_information() && !s.ended_before_play()) {
    EXPECT_EQ(spectator, state) << "spectator, nothing hidden";
  }

  // A spectator never sees more than a seat: whatever it sees on the board, some seat sees the same.
  for (auto it = spectator["board"].begin(); it != spectator["board"].end(); ++it) {
    bool some_seat = false;
    for (const json& o : seats) some_seat = some_seat || o["board"].value(it.key(), json()) == *it;
    EXPECT_TRUE(some_seat) << "the spectators see " << *it << " on " << it.key() << ", which no seat sees";
  }

  // Once over (and not sealed) every event is shown whole to everyone.
  if (g.phase() == Phase::over && !s.ended_before_play()) {
    json whole = json::array();
    for (const Event& e : s.events()) whole.push_back(e.full);
    for (Player v = kSpectator; v < g.num_players(); ++v) {
      EXPECT_EQ(s.events_for(v), whole) << "viewer " << v;
    }
  }
}

// In a setup phase, and for good in a game that ended in it: a seat sees only its own army, spectators none, and
// no observation or event names a square of another seat's placement.
void Conformance::check_setup_secrecy(const Session& s, const Now& now) {
  const Game& g = s.game();
  if (g.phase() != Phase::setup && !s.ended_before_play()) return;
  for (Player v = kSpectator; v < g.num_players(); ++v) {
    const json& obs = now.view(v);
    for (auto it = obs["board"].begin(); it != obs["board"].end(); ++it)
      EXPECT_TRUE(v != kSpectator && it->is_string() && it->get<std::string>()[0] == '0' + v)
          << "viewer " << v << " sees " << *it << " on " << it.key() << " in setup";
    const std::string seen = obs.dump() + s.events_for(v).dump();
    for (const auto& [q, placement] : placements_) {
      if (q == v || !placement.is_object()) continue;
      for (auto it = placement.begin(); it != placement.end(); ++it) {
        const bool own = placements_.count(v) && placements_.at(v).is_object() && placements_.at(v).contains(it.key());
        if (!own) {
          EXPECT_EQ(seen.find(in_quotes(it.key())), std::string::npos)
              << "viewer " << v << " is told " << it.key() << " of seat " << q << "'s placement";
        }
      }
    }
  }
  if (s.ended_before_play()) {
    const json record = s.record();
    EXPECT_EQ(record["setups"], json::object());
    for (const json& a : record["actions"]) {
      EXPECT_NE(a["type"], "setup") << "a setup in the record of a sealed game";
    }
  }
}

// clone(), Session::clone() and the round trip of the state through the kind's from_state.
void Conformance::check_copies(const Session& s, const Now& now) {
  const Game& g = s.game();
  const json& state = now.state;
  const auto copy = g.clone();
  EXPECT_EQ(copy->state_json(), state) << "clone";
  EXPECT_EQ(copy->hash(), g.hash()) << "clone";
  EXPECT_EQ(legal_move_strings(*copy), now.legal) << "clone";
  if (!s.ended_before_play()) {  // else the Session shows sealed views, not the game's
    for (Player v = kSpectator; v < g.num_players(); ++v) {
      EXPECT_EQ(copy->observation_json(v), now.view(v)) << "clone, viewer " << v;
    }
  }
  if (s.ended_before_play()) return;  // a state in setup that is over: nothing to start from

  std::unique_ptr<Game> rebuilt;
  try {
    rebuilt = kind_->from_state(state);
  } catch (const GameError& e) {
    ADD_FAILURE() << "from_state refuses the game's own state: " << e.what() << "\n" << state.dump();
    return;
  }
  EXPECT_EQ(rebuilt->state_json(), state) << "the state rebuilt from its JSON";
  EXPECT_EQ(rebuilt->phase(), g.phase());
  EXPECT_EQ(rebuilt->to_move(), g.to_move());
  // A state holds no history (engine-protocol.md: a game from a state starts there; under fog each player has
  // seen it whole), so its legal moves are the game's when nothing is hidden, and those of the state's own
  // rebuilding always.
  const std::vector<std::string> rebuilt_legal = legal_move_strings(*rebuilt);
  if (!g.hidden_information()) {
    EXPECT_EQ(rebuilt_legal, now.legal) << "the state rebuilt from its JSON";
  }
  const auto again = kind_->from_state(rebuilt->state_json());
  EXPECT_EQ(again->state_json(), state);
  EXPECT_EQ(legal_move_strings(*again), rebuilt_legal);
  EXPECT_EQ(again->hash(), rebuilt->hash()) << "two games from the same state";
}

// Every legal move: found by its string, applied and undone to the same state, and accepted by Session::play.
void Conformance::check_moves(Session& s, const Now& now) {
  const Game& g = s.game();
  const std::vector<std::string>& legal = now.legal;
  EXPECT_TRUE(std::is_sorted(legal.begin(), legal.end()));
  EXPECT_EQ(std::adjacent_find(legal.begin(), legal.end()), legal.end()) << "two legal moves with one string";
  const json& state = now.state;
  const uint64_t hash = g.hash();
  auto work = g.clone();
  MoveList moves;
  g.legal_moves(moves);
  ASSERT_EQ(static_cast<size_t>(moves.size()), legal.size());
  // The full state is compared for a few moves a step, the hash for all of them.
  std::set<int> whole;
  for (int i = 0; i < 3; ++i) whole.insert(static_cast<int>(rng_.below(static_cast<uint64_t>(moves.size()))));
  for (int i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    const std::string text = g.move_to_string(m);
    std::optional<Move> found = find_legal_move(g, text);
    ASSERT_TRUE(found.has_value()) << text;
    EXPECT_EQ(*found, m) << text;
    EventLog events;
    work->apply(m, whole.count(i) ? &events : nullptr);
    if (whole.count(i)) {
      // Applied without events (as the search does) it makes the same position.
      auto quiet = g.clone();
      quiet->apply(m, nullptr);
      EXPECT_EQ(quiet->state_json(), work->state_json()) << text << " with and without events";
      EXPECT_EQ(quiet->hash(), work->hash()) << text << " with and without events";
      EXPECT_FALSE(events.empty()) << text << " tells nothing";
    }
    work->undo();
    EXPECT_EQ(work->hash(), hash) << "undo of " << text;
    if (whole.count(i)) {
      EXPECT_EQ(work->state_json(), state) << "undo of " << text;
    }
    if (::testing::Test::HasFailure()) return;
  }
  // Session::play takes any of them (one a step besides the move played).
  Session copy = s.clone();
  const std::string text = legal[static_cast<size_t>(rng_.below(legal.size()))];
  EXPECT_NO_THROW(copy.play_as(g.to_move(), text)) << text;
  EXPECT_EQ(copy.actions().size(), s.actions().size() + 1);
  check_refusals(s, now);
}

void Conformance::expect_refused(Session& s, const std::function<void(Session&)>& action, const std::string& what,
                                 std::optional<ErrorKind> kind, const json* known) {
  const json state = known ? *known : s.state();
  const uint64_t hash = s.game().hash();
  const size_t actions = s.actions().size(), events = s.event_count();
  try {
    action(s);
    ADD_FAILURE() << what << " was accepted";
  } catch (const GameError& e) {
    EXPECT_NE(std::string(e.what()), "") << what << " refused without a reason";
    if (kind) {
      EXPECT_EQ(e.kind(), *kind) << what << ": " << e.what();
    }
  }
  EXPECT_EQ(s.state(), state) << what << " changed the state";
  EXPECT_EQ(s.game().hash(), hash) << what << " changed the hash";
  EXPECT_EQ(s.actions().size(), actions) << what;
  EXPECT_EQ(s.event_count(), events) << what;
}

// Strings that are not legal, near the legal ones and not: each refused as illegal, with a reason.
void Conformance::check_refusals(Session& s, const Now& now) {
  const Game& g = s.game();
  const std::vector<std::string>& legal = now.legal;
  const std::set<std::string> is_legal(legal.begin(), legal.end());
  std::vector<std::string> squares;
  const json& board = now.state.at("board");
  for (auto it = board.begin(); it != board.end(); ++it) squares.push_back(it.key());
  std::vector<std::string> tries = {"", "pass", "zz", "a1-a1", "-", "a0", "pass pass", "\xff"};
  const std::string& some = legal[static_cast<size_t>(rng_.below(legal.size()))];
  std::string upper = some;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  tries.push_back(upper);
  tries.push_back(some + "x");
  tries.push_back(" " + some);
  if (auto dash = some.find('-'); dash != std::string::npos)
    tries.push_back(some.substr(dash + 1) + "-" + some.substr(0, dash));  // the move backwards
  for (int i = 0; i < 3 && !squares.empty(); ++i) {
    const std::string& a = squares[static_cast<size_t>(rng_.below(squares.size()))];
    const std::string& b = squares[static_cast<size_t>(rng_.below(squares.size()))];
    tries.push_back(a + "-" + b);
    tries.push_back(a);
  }
  // A few of them a step, each on the session itself: a refusal must leave it as it was.
  std::shuffle(tries.begin(), tries.end(), rng_);
  tries.resize(std::min<size_t>(tries.size(), 6));
  const json& state = now.state;
  for (const std::string& text : tries) {
    if (is_legal.count(text)) continue;
    EXPECT_NE(g.explain_illegal(text), "") << in_quotes(text);
    expect_refused(s, [&](Session& x) { x.play(text); }, "move " + in_quotes(text), ErrorKind::illegal, &state);
    if (::testing::Test::HasFailure()) return;
  }
  // The seats not to move are told it is not their turn, even for a move legal for the seat that is.
  for (Player other = 0; other < g.num_players(); ++other) {
    if (other != g.to_move()) {
      expect_refused(s, [&](Session& x) { x.play_as(other, some); }, "a move out of turn", ErrorKind::not_your_turn,
                     &state);
    }
  }
}

// The AI's door to the game: a world drawn for the player to move is the game itself when nothing is hidden,
// and otherwise agrees with everything the player sees.
void Conformance::check_world(const Session& s, const Now& now) {
  const Game& g = s.game();
  const Player me = g.to_move();
  Rng rng(rng_.next());
  const auto world = g.sample_world(me, rng);
  if (!g.hidden_information()) {
    EXPECT_EQ(world->state_json(), now.state) << "a world of a game that hides nothing is the game";
    return;
  }
  EXPECT_EQ(world->observation_json(me), now.view(me)) << "the world shows its seat what the game does";
  EXPECT_EQ(legal_move_strings(*world), now.legal) << "the world gives its seat the game's moves";
}

// The record of a finished game, or the log of one still on, rebuilds the same game.
void Conformance::check_replay(const Session& s) {
  json record = s.over() ? s.record() : json{{"game", std::string(s.kind())}, {"options", s.record()["options"]},
                                              {"start", nullptr}, {"actions", s.actions()}};
  Session again = Session::from_record(record);
  if (s.ended_before_play()) {
    // The public record holds no setup: it replays to the same end, before play, with no placement in it.
    EXPECT_TRUE(again.ended_before_play());
    EXPECT_EQ(again.state()["result"], s.state()["result"]);
    for (Player v = kSpectator; v < s.num_players(); ++v) {
      EXPECT_EQ(again.observation(v)["board"], json::object());
    }
    // (Who had set up is not in it either: the replay's `ready`, where a game has one, is empty.)
    return;
  }
  EXPECT_EQ(again.state(), s.state()) << "replayed from " << (s.over() ? "the record" : "the log");
  EXPECT_EQ(again.game().hash(), s.game().hash());
  for (Player v = kSpectator; v < s.num_players(); ++v) {
    EXPECT_EQ(again.observation(v), s.observation(v)) << "viewer " << v << " after the replay";
    EXPECT_EQ(again.events_for(v), s.events_for(v)) << "viewer " << v << " after the replay";
  }
  const Session copy = s.clone();
  EXPECT_EQ(copy.state(), s.state());
  EXPECT_EQ(copy.record(), s.record());
}

void Conformance::play_game(uint64_t seed) {
  rng_ = Rng(seed);
  placements_.clear();
  Session s = Session::create(GetParam().kind, GetParam().options);
  const int n = s.num_players();
  const int max_steps = kSanitized ? 60 : 40 + static_cast<int>(rng_.below(160));
  // One game in four with a setup phase ends in it (a resignation), before any army is in or after some.
  const bool resign_in_setup = rng_.below(4) == 0;
  const int resign_after = static_cast<int>(rng_.below(static_cast<uint64_t>(n)));
  check_position(s);
  for (int step = 0; step < max_steps && !s.over() && !::testing::Test::HasFailure(); ++step) {
    SCOPED_TRACE("step " + std::to_string(step) + " (" + std::to_string(s.actions().size()) + " actions)");
    const bool hidden_before = s.hides_information();
    const size_t first_event = s.event_count();
    const Player mover = s.game().to_move();
    if (s.game().phase() == Phase::setup) {
      // A refused setup changes nothing: no such seat, a placement of nothing.
      expect_refused(s, [&](Session& x) { x.setup(n, json::object()); }, "a setup for no seat", ErrorKind::bad_request);
      expect_refused(s, [&](Session& x) { x.setup(0, json("nonsense")); }, "a nonsense placement");
      expect_refused(s, [&](Session& x) { x.play("pass"); }, "a move in setup", ErrorKind::conflict);
      // A seat sets up (or sets up again, which every seat may until the last army is in), or one resigns.
      std::vector<Player> waiting;
      for (Player p = 0; p < n; ++p)
        if (!placements_.count(p)) waiting.push_back(p);
      const uint64_t roll = rng_.below(100);
      if (resign_in_setup && static_cast<int>(placements_.size()) == resign_after) {
        s.offer(static_cast<Player>(rng_.below(static_cast<uint64_t>(n))), "resign");
      } else {
        const Player p = roll < 10 && !placements_.empty() ? placements_.begin()->first
                                                           : waiting[static_cast<size_t>(rng_.below(waiting.size()))];
        const std::vector<std::string>& named = variant_->arrangements;
        const std::string name = !named.empty() && rng_.below(4) == 0 ? named[static_cast<size_t>(rng_.below(named.size()))]
                                                                      : std::string("random");
        json placement = s.game().arrangement(p, name, rng_.next());
        s.setup(p, placement);
        placements_[p] = placement;
      }
    } else {
      const std::vector<std::string> legal = s.legal();
      const uint64_t roll = rng_.below(100);
      if (roll < 2) {
        // A draw offer, where the game has them, answered at once; a refused one changes nothing.
        try {
          s.offer(mover, "draw");
          if (s.game().offer_stands("draw", (mover + 1) % n))
            s.offer((mover + 1) % n, rng_.below(2) ? "accept" : "decline");
        } catch (const GameError&) {
        }
      } else {
        s.play_as(mover, legal[static_cast<size_t>(rng_.below(legal.size()))]);
        ++seen_.plies;
      }
    }
    // Events made while nothing was hidden, before and after, are shown whole to everyone.
    if (!hidden_before && !s.hides_information()) {
      for (size_t i = first_event; i < s.event_count(); ++i) {
        for (Player v = kSpectator; v < n; ++v) {
          EXPECT_EQ(s.events()[i].view_for(v, n), s.events()[i].full) << "viewer " << v << " of a public event";
        }
      }
    }
    check_position(s);
  }
  if (::testing::Test::HasFailure()) return;
  if (!s.over()) {
    // The end: a resignation, an adjudication, or none (the log replays a game still on).
    const uint64_t roll = rng_.below(3);
    if (roll == 0) s.offer(static_cast<Player>(rng_.below(static_cast<uint64_t>(n))), "resign");
    if (roll == 1) s.adjudicate(Result{{}, "ply-limit"});
    if (s.over()) check_position(s);
  }
  if (s.over()) {
    ++seen_.over;
    expect_refused(s, [&](Session& x) { x.offer(0, "resign"); }, "a resignation after the end", ErrorKind::conflict);
  }
  if (s.ended_before_play()) ++seen_.sealed;
  check_replay(s);
}

TEST_P(Conformance, RandomGames) {
  const int games = kSanitized ? 6 : 30;
  const uint64_t base = 0x7ab01a00 + std::hash<std::string>{}(GetParam().kind + "/" + GetParam().label) % 100000;
  std::vector<uint64_t> seeds;
  if (const char* only = std::getenv("TABULA_CONFORMANCE_SEED")) {
    seeds.push_back(std::strtoull(only, nullptr, 10));
  } else {
    for (int i = 0; i < games; ++i) seeds.push_back(base + static_cast<uint64_t>(i));
  }
  for (uint64_t seed : seeds) {
    SCOPED_TRACE(GetParam().kind + " " + GetParam().options.dump() + " seed " + std::to_string(seed) +
                 " (TABULA_CONFORMANCE_SEED=" + std::to_string(seed) + " runs this game alone)");
    play_game(seed);
    if (HasFailure()) return;
  }
  // What only several games show: a kind that hid something says it can.
  if (seen_.hidden) {
    EXPECT_TRUE(kind_->can_hide_information) << "a " << kind_->name << " position hid information";
  }
  RecordProperty("plies", seen_.plies);
  RecordProperty("over", seen_.over);
  RecordProperty("sealed", seen_.sealed);
  std::printf("%s %s: %zu games, %d plies, %d over, %d ended in setup\n", GetParam().kind.c_str(),
              GetParam().label.c_str(), seeds.size(), seen_.plies, seen_.over, seen_.sealed);
}

INSTANTIATE_TEST_SUITE_P(EveryGame, Conformance, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& param) {
                           return param.param.kind + "_" + param.param.label;
                         });

}  // namespace
}  // namespace tabula
