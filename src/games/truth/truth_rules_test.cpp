// The Game of Truth: one test per sentence of the rule texts, written from the texts alone (not from the
// engine): shared/rules/truth-browser-edition.txt (the authority: "Prepare the board" … "Score and stalemate"
// and its "Rulings used by this edition"), shared/spec/rulings.md ("The Game of Truth", every bullet), and
// the project's contract truth-contract.md for event and field names. Each test builds its position by hand
// as a notation.md state, plays it through the real Session, and asserts the exact outcome.
//
// Geometry used throughout (2-player board): a square (file index f, a = 0; rank r) is white when
// (f + 18 - r) is even, i.e. when f and r have the same parity: b1, a2, c2, e4, f5, i8, i10, h9, h11 … are
// white; a1, i9, h10, e5 … are black. Diagonal steps keep the colour, so every diagonal neighbour of a
// white square is white and every orthogonal neighbour is black (empty for ever).
//
// Readings of sentences the texts leave open are written next to the test that relies on them ("Reading:").
#include "core/session.h"
#include "core/testing.h"
#include "games/truth/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tabula {
namespace {

using Pieces = std::vector<std::pair<std::string, std::string>>;
using namespace tabula::truth_testing;

// --- Squares -----------------------------------------------------------------------------------------------

int file_of(const std::string& sq) { return sq[0] - 'a'; }
int rank_of(const std::string& sq) { return std::stoi(sq.substr(1)); }
std::string square(int f, int r) { return std::string(1, static_cast<char>('a' + f)) + std::to_string(r); }
bool on_board(int f, int r) { return f >= 0 && f < 17 && r >= 1 && r <= 18; }
bool white(int f, int r) { return (f + 18 - r) % 2 == 0; }
bool white(const std::string& sq) { return white(file_of(sq), rank_of(sq)); }

// --- Positions ---------------------------------------------------------------------------------------------

// Squares the default pieces use; tests keep their own pieces away from them and their neighbours.
//   Ivory: icon q2 (when the test gives none), spare doors o2 and q4.
//   Jade:  icon a18 (when the test gives none), spare doors c18 and a16.
// The spare doors give each side a door action and a second piece, so a tested first action stays legal
// (a first action is listed only when a legal second action remains) and both sides can finish turns:
// Ivory o2-n3, q4-p5 (then n3-m4, p5-o6); Jade c18-d17, a16-b15 (then d17-e16, b15-c14).
json make_state(const Pieces& pieces, const json& extra, bool defaults) {
  json board = json::object();
  for (const auto& [sq, pc] : pieces) board[sq] = pc;
  if (defaults) {
    auto has = [&](const std::string& pc) {
      return std::any_of(pieces.begin(), pieces.end(), [&](const auto& p) { return p.second == pc; });
    };
    auto put = [&](const char* sq, const char* pc) {
      if (!board.contains(sq)) board[sq] = pc;
    };
    if (!has("0I")) put("q2", "0I");
    if (!has("1I")) put("a18", "1I");
    put("o2", "0D");
    put("q4", "0D");
    put("c18", "1D");
    put("a16", "1D");
  }
  json state = {{"game", "truth"}, {"options", {{"players", 2}}}, {"phase", "play"}, {"to_move", 0},
                {"ply", 0},        {"board", board}};
  for (auto it = extra.begin(); it != extra.end(); ++it) state[it.key()] = *it;
  return state;
}

// A position in play with the default icons and spare doors added; Ivory to move at ply 0 unless `extra`
// says otherwise (any state field: to_move, ply, scores, transformed, sieges, action, acted, …).
Session at(const Pieces& pieces, const json& extra = json::object()) {
  return Session::from_state("truth", make_state(pieces, extra, true));
}
// Exactly the given pieces.
Session bare(const Pieces& pieces, const json& extra = json::object()) {
  return Session::from_state("truth", make_state(pieces, extra, false));
}

json transformed() { return json{{"transformed", json::array({0, 1})}}; }
json with(json a, const json& b) {
  for (auto it = b.begin(); it != b.end(); ++it) a[it.key()] = *it;
  return a;
}

// --- Reading the game --------------------------------------------------------------------------------------

// Squares the legal actions start from.
Set origins(const Session& s) {
  Set out;
  for (const std::string& m : s.legal())
    if (m.find('-') != std::string::npos) out.insert(m.substr(0, m.find('-')));
  return out;
}
Set legal(const Session& s) {
  auto v = s.legal();
  return {v.begin(), v.end()};
}
bool empty_at(const Session& s, const std::string& sq) { return !board(s).contains(sq); }

std::vector<std::string> types(const std::vector<Event>& events) {
  std::vector<std::string> out;
  for (const Event& e : events) out.push_back(e.full.at("type").get<std::string>());
  return out;
}
int index_of(const std::vector<std::string>& v, const std::string& t) {
  auto it = std::find(v.begin(), v.end(), t);
  return it == v.end() ? -1 : static_cast<int>(it - v.begin());
}

// Plays `move`, expecting it refused as illegal with a message, and the game unchanged.
void expect_refused(Session& s, const std::string& move) {
  const json before = s.state();
  try {
    s.play(move);
    ADD_FAILURE() << move << " was accepted";
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::illegal) << move << ": " << e.what();
    EXPECT_FALSE(std::string(e.what()).empty()) << move;
  }
  EXPECT_EQ(s.state(), before) << move;
}

void expect_bad_state(const json& state, const std::string& why) {
  EXPECT_THROW(Session::from_state("truth", state), GameError) << why;
}

// Sentry reach (edition, "Sentry"): empty white squares at most four coordinate steps from the icon, or five
// on a horizontal, vertical or diagonal line from it.
Set sentry_reach(const Session& s, const std::string& icon) {
  const json b = board(s);
  Set out;
  for (int f = 0; f < 17; ++f)
    for (int r = 1; r <= 18; ++r) {
      if (!white(f, r)) continue;
      const std::string sq = square(f, r);
      if (b.contains(sq)) continue;
      const int dx = std::abs(f - file_of(icon)), dy = std::abs(r - rank_of(icon));
      const int d = std::max(dx, dy);
      const bool line = dx == 0 || dy == 0 || dx == dy;
      if (d <= 4 || (d == 5 && line)) out.insert(sq);
    }
  return out;
}

// The squares on the four diagonal rays from `from`, up to the edge, stopping before any square in `stop`.
Set diagonal_rays(const std::string& from, const Set& stop) {
  Set out;
  for (int dx : {-1, 1})
    for (int dy : {-1, 1})
      for (int f = file_of(from) + dx, r = rank_of(from) + dy; on_board(f, r); f += dx, r += dy) {
        if (stop.count(square(f, r))) break;
        out.insert(square(f, r));
      }
  return out;
}

// --- Setup helpers -----------------------------------------------------------------------------------------

const std::map<char, int> kArmy = {{'D', 20}, {'L', 10}, {'N', 5}, {'S', 3}, {'G', 2}, {'I', 1}};
const std::map<char, int> kValue = {{'D', 1}, {'L', 1}, {'N', 5}, {'S', 5}, {'G', 20}, {'I', 100}};

bool in_territory(Player p, const std::string& sq) {
  return p == 0 ? rank_of(sq) <= 9 : rank_of(sq) >= 10;
}

// A complete legal placement for p: `fixed` first, the rest of the army on p's back ranks (Ivory from rank
// 1 up, Jade from rank 18 down), far from the other army.
json army(Player p, const std::vector<std::pair<std::string, char>>& fixed = {}) {
  std::map<char, int> left = kArmy;
  json pl = json::object();
  for (const auto& [sq, k] : fixed) {
    pl[sq] = std::string(1, k);
    --left[k];
  }
  std::string kinds;
  for (char k : std::string("IGSNLD"))
    for (int i = 0; i < left[k]; ++i) kinds += k;
  size_t next = 0;
  for (int step = 0; step < 9 && next < kinds.size(); ++step) {
    const int r = p == 0 ? 1 + step : 18 - step;
    for (int f = 0; f < 17 && next < kinds.size(); ++f) {
      const std::string sq = square(f, r);
      if (!white(f, r) || pl.contains(sq)) continue;
      pl[sq] = std::string(1, kinds[next++]);
    }
  }
  return pl;
}

void expect_valid_army(Player p, const json& placement, const std::string& what) {
  ASSERT_TRUE(placement.is_object()) << what;
  std::map<char, int> counts;
  for (auto it = placement.begin(); it != placement.end(); ++it) {
    EXPECT_TRUE(white(it.key())) << what << ": " << it.key() << " is black";
    EXPECT_TRUE(in_territory(p, it.key())) << what << ": " << it.key() << " is outside the territory";
    ++counts[it->get<std::string>().at(0)];
  }
  EXPECT_EQ(counts, kArmy) << what;
}

// ============================================================================================================
// Prepare the board
// ============================================================================================================

// "The board is 17 squares wide and 18 squares long."
TEST(TruthBoard, IsSeventeenSquaresWideAndEighteenLong) {
  // A lantern on a2 sees b1 and the long diagonal b3 … q18: file q (17th) and rank 18 are the last ones.
  Session s = bare({{"a2", "0L"}, {"o2", "0D"}, {"q2", "0I"}, {"c18", "1D"}, {"a18", "1I"}});
  EXPECT_EQ(dests(s, "a2"), (Set{"b1", "b3", "c4", "d5", "e6", "f7", "g8", "h9", "i10", "j11", "k12", "l13",
                                 "m14", "n15", "o16", "p17", "q18"}));
  for (const char* off : {"r2", "a19", "a0", "q20", "aa1"}) {
    Pieces p = {{off, "0D"}};
    expect_bad_state(make_state(p, json::object(), true), std::string("a piece on ") + off);
  }
}

// "In two-player play, alternating squares are black and forbidden; the upper-left square is white."
TEST(TruthBoard, SquaresAlternateAndTheUpperLeftSquareIsWhite) {
  EXPECT_NO_THROW(bare({{"a18", "1I"}, {"b1", "0I"}}));  // a18 upper-left, b1: white
  for (const char* black : {"a17", "b18", "a1", "b2", "i9", "h10", "e5"}) {
    Pieces p = {{black, "0D"}};
    expect_bad_state(make_state(p, json::object(), true), std::string("a piece on black ") + black);
  }
}

// "Each army owns nine rows." (rulings: Ivory ranks 1–9, Jade ranks 10–18; file i included)
TEST(TruthBoard, EachArmyOwnsNineRows) {
  Session s = Session::create("truth", {{"players", 2}});
  EXPECT_THROW(s.setup(0, army(0, {{"b11", 'D'}})), GameError);  // an Ivory door on rank 11
  EXPECT_THROW(s.setup(1, army(1, {{"h9", 'D'}})), GameError);   // a Jade door on rank 9
  EXPECT_NO_THROW(s.setup(0, army(0, {{"h9", 'D'}})));     // rank 9 is Ivory's
  EXPECT_NO_THROW(s.setup(1, army(1, {{"i10", 'D'}})));    // rank 10 is Jade's
}

// Rulings (territory): "2-player, your nine ranks, file i included". The icon's step shows the territory:
// two squares from its own territory, one from outside.
TEST(TruthTerritory, IvorysTerritoryIsRanksOneToNineFileIIncluded) {
  Session on_i = at({{"i8", "0I"}});
  EXPECT_EQ(dests(on_i, "i8"), (Set{"g6", "k6", "g10", "k10"}));
  Session rank9 = at({{"h9", "0I"}});
  EXPECT_EQ(dests(rank9, "h9"), (Set{"f7", "j7", "f11", "j11"}));
  Session rank10 = at({{"i10", "0I"}});
  EXPECT_EQ(dests(rank10, "i10"), (Set{"h9", "j9", "h11", "j11"}));
}

TEST(TruthTerritory, JadesTerritoryIsRanksTenToEighteen) {
  Session rank10 = at({{"i10", "1I"}}, {{"to_move", 1}, {"ply", 1}});
  EXPECT_EQ(dests(rank10, "i10"), (Set{"g8", "k8", "g12", "k12"}));
  Session rank9 = at({{"h9", "1I"}}, {{"to_move", 1}, {"ply", 1}});
  EXPECT_EQ(dests(rank9, "h9"), (Set{"g8", "i8", "g10", "i10"}));
}

// ============================================================================================================
// Setup
// ============================================================================================================

// "Each player arranges 20 doors, 10 lanterns, 5 linesmen, 3 sentries, 2 guardians and 1 icon: 41 pieces."
TEST(TruthSetup, EachArmyIsTwentyDoorsTenLanternsFiveLinesmenThreeSentriesTwoGuardiansAndAnIcon) {
  Session s = Session::create("truth", {{"players", 2}});
  for (Player p : {0, 1}) {
    const json suggested = s.game().arrangement(p, "suggested", 0);
    EXPECT_EQ(suggested.size(), 41u);
    expect_valid_army(p, suggested, "suggested");
  }
  s.setup_arrangement(0, "suggested", 0);
  s.setup_arrangement(1, "suggested", 0);
  std::map<std::string, int> counts;
  const json b = board(s);
  for (auto& [sq, pc] : b.items()) ++counts[pc.get<std::string>()];
  for (Player p : {0, 1})
    for (auto [k, n] : kArmy) EXPECT_EQ(counts[std::to_string(p) + k], n) << p << k;
}

TEST(TruthSetup, PlacementsWithWrongCountsAreRefused) {
  Session s = Session::create("truth", {{"players", 2}});
  json extra_door = army(0);
  extra_door["b9"] = "D";  // 42 pieces
  json missing = army(0);
  missing.erase(std::string(missing.begin().key()));  // 40 pieces
  json swapped = army(0);                // 21 doors, 9 lanterns
  for (auto it = swapped.begin(); it != swapped.end(); ++it)
    if (*it == "L") {
      *it = "D";
      break;
    }
  json two_icons = army(0);
  for (auto it = two_icons.begin(); it != two_icons.end(); ++it)
    if (*it == "G") {
      *it = "I";
      break;
    }
  for (const json& bad : {extra_door, missing, swapped, two_icons, json::object(), json::array()}) {
    EXPECT_THROW(s.setup(0, bad), GameError) << bad.dump();
  }
  EXPECT_EQ(s.state().at("phase"), "setup");
  EXPECT_TRUE(board(s).empty());
}

TEST(TruthSetup, PlacementsOnBlackSquaresOrInAnotherTerritoryOrBadlyWrittenAreRefused) {
  Session s = Session::create("truth", {{"players", 2}});
  json on_black = army(0);
  const std::string first = on_black.begin().key();
  const json kind = on_black[first];
  on_black.erase(first);
  on_black["a9"] = kind;  // a9: black
  EXPECT_THROW(s.setup(0, on_black), GameError);
  EXPECT_THROW(s.setup(0, army(1)), GameError);  // Jade's ranks
  EXPECT_THROW(s.setup(1, army(0)), GameError);  // Ivory's ranks
  json digit = army(0);
  digit["b1"] = "0" + digit["b1"].get<std::string>();
  EXPECT_THROW(s.setup(0, digit), GameError);
  json letter = army(0);
  letter["b1"] = "X";
  EXPECT_THROW(s.setup(0, letter), GameError);
  json off = army(0);
  off.erase("b1");
  off["r1"] = "D";
  EXPECT_THROW(s.setup(0, off), GameError);
  EXPECT_THROW(s.setup(2, army(0)), GameError);  // no such player in a 2-player game
  EXPECT_TRUE(board(s).empty());
  EXPECT_EQ(s.state().at("phase"), "setup");
}

// "Use the suggested arrangement or select and reposition pieces before pressing Begin game."
TEST(TruthSetup, TheSuggestedArrangementOrAFreePlacementMayBeUsed) {
  Session s = Session::create("truth", {{"players", 2}});
  s.setup_arrangement(0, "suggested", 0);
  s.setup(1, army(1));
  expect_on(s);
  EXPECT_EQ(board(s).size(), 82u);
  EXPECT_EQ(board(s).at("a18"), "1I");  // army() puts Jade's icon on a18 first
}

// "Free placement is available only in this clearly marked setup phase; movement restrictions apply once
// play begins." Rulings (common): "to_move is 0 and no move is legal until every army is placed".
TEST(TruthSetup, FreePlacementOnlyInTheSetupPhase) {
  Session s = Session::create("truth", {{"players", 2}});
  EXPECT_EQ(s.state().at("phase"), "setup");
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_TRUE(s.legal().empty());
  EXPECT_THROW(s.play("b1-c2"), GameError);
  s.setup(0, army(0));
  EXPECT_TRUE(s.legal().empty());
  s.setup(1, army(1));
  EXPECT_EQ(s.state().at("phase"), "play");
  try {
    s.setup(0, army(0));
    ADD_FAILURE() << "a setup was accepted in play";
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::conflict) << e.what();
  }
}

// "Any opposing pieces already in diagonal contact are resolved when play starts." Rulings: "then all
// contacts and enclosures that already hold are resolved at once, as after an action, before Ivory's
// first turn." Contract: a `start` event, then the captures.
TEST(TruthSetup, ContactsThatHoldWhenPlayStartsAreResolvedBeforeIvoryActs) {
  Session s = Session::create("truth", {{"players", 2}});
  s.setup(0, army(0, {{"f9", 'G'}, {"h9", 'D'}, {"j9", 'D'}}));
  std::vector<Event> ev = s.setup(1, army(1, {{"e10", 'D'}, {"g10", 'D'}, {"i10", 'G'}}));
  // Ivory's guardian f9 touches Jade's doors e10 and g10; Jade's guardian i10 touches Ivory's h9 and j9.
  EXPECT_EQ(captures(ev), (Caps{"e10 1D by0 1 contact", "g10 1D by0 1 contact", "h9 0D by1 1 contact",
                                "j9 0D by1 1 contact"}));
  const auto t = types(ev);
  ASSERT_GE(index_of(t, "start"), 0);
  EXPECT_LT(index_of(t, "start"), index_of(t, "capture"));
  const json st = s.state();
  EXPECT_EQ(st.at("scores"), json::array({2, 2}));
  EXPECT_EQ(st.at("phase"), "play");
  EXPECT_EQ(st.at("to_move"), 0);
  EXPECT_EQ(st.at("ply"), 0);
  EXPECT_EQ(st.at("action"), 0);
  EXPECT_EQ(board(s).size(), 78u);
  EXPECT_EQ(piece_at(s, "f9"), "0G");
  EXPECT_EQ(piece_at(s, "i10"), "1G");
}

// The start-of-play resolution is "as after an action": an icon burned there ends the game at once.
TEST(TruthSetup, AnIconBurnedWhenPlayStartsEndsTheGameBeforeIvoryActs) {
  Session s = Session::create("truth", {{"players", 2}});
  s.setup(0, army(0, {{"l9", 'L'}}));
  std::vector<Event> ev = s.setup(1, army(1, {{"m10", 'I'}}));
  EXPECT_EQ(captures(ev), (Caps{"m10 1I by0 100 burn"}));
  expect_over(s, json::array({0}), "icon-destroyed");
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_EQ(s.state().at("ply"), 0);
}

// "Swapping friendly pieces is allowed during setup." Rulings (common): "a player may replace its setup
// until the last army is in".
TEST(TruthSetup, SwappingFriendlyPiecesIsAllowedDuringSetup) {
  Session s = Session::create("truth", {{"players", 2}});
  json first = army(0);
  s.setup(0, first);
  json swapped = first;
  std::swap(swapped["b1"], swapped["d1"]);  // army(): b1 the icon, d1 a guardian
  ASSERT_NE(swapped["b1"], first["b1"]);
  s.setup(0, swapped);
  s.setup(1, army(1));
  EXPECT_EQ(piece_at(s, "b1"), "0" + first["d1"].get<std::string>());
  EXPECT_EQ(piece_at(s, "d1"), "0" + first["b1"].get<std::string>());
}

// Rulings: "Setups are made without seeing the others', then revealed together".
TEST(TruthSetup, SetupsAreBlindThenRevealedTogether) {
  Session s = Session::create("truth", {{"players", 2}});
  s.setup_arrangement(0, "suggested", 0);
  EXPECT_EQ(s.observation(0).at("board").size(), 41u);
  EXPECT_TRUE(s.observation(1).at("board").empty());
  EXPECT_TRUE(s.observation(kSpectator).at("board").empty());
  for (const json& e : s.events_for(1)) {
    EXPECT_FALSE(e.contains("placement")) << e.dump();
    EXPECT_FALSE(e.contains("board")) << e.dump();
  }
  s.setup_arrangement(1, "suggested", 0);
  EXPECT_EQ(s.observation(1).at("board"), board(s));
  EXPECT_EQ(s.observation(0).at("board"), board(s));
  EXPECT_EQ(s.observation(kSpectator).at("board").size(), 82u);
  // Contract: "Once play begins, every observation equals the state (nothing hidden)."
  EXPECT_EQ(s.observation(0), s.state());
  EXPECT_EQ(s.observation(kSpectator), s.state());
}

// Rulings: the suggested arrangement "must be legal and must not lose material or an icon at the start
// against the suggested arrangements of the others."
TEST(TruthSetup, SuggestedArrangementsLoseNothingAgainstEachOther) {
  Session s = Session::create("truth", {{"players", 2}});
  s.setup_arrangement(0, "suggested", 0);
  std::vector<Event> ev = s.setup_arrangement(1, "suggested", 0);
  EXPECT_TRUE(captures(ev).empty());
  expect_on(s);
  EXPECT_EQ(board(s).size(), 82u);
  EXPECT_EQ(s.state().at("scores"), json::array({0, 0}));
  EXPECT_EQ(s.state().at("sieges"), json::object());
  EXPECT_FALSE(s.legal().empty());
  EXPECT_EQ(legal(s).count("pass"), 0u);
}

// Engine protocol: "random" with a seed is "a random legal one"; rulings (common): seeds make a game
// reproducible.
TEST(TruthSetup, RandomArrangementIsLegalAndSeeded) {
  Session s = Session::create("truth", {{"players", 2}});
  for (Player p : {0, 1})
    for (uint64_t seed : {1u, 2u, 77u}) {
      const json a = s.game().arrangement(p, "random", seed);
      expect_valid_army(p, a, "random " + std::to_string(seed));
      EXPECT_EQ(a, s.game().arrangement(p, "random", seed));
    }
  EXPECT_NE(s.game().arrangement(0, "random", 1), s.game().arrangement(0, "random", 2));
  Session a = Session::create("truth", {{"players", 2}});
  Session b = Session::create("truth", {{"players", 2}});
  for (Session* x : {&a, &b}) {
    x->setup_arrangement(0, "random", 5);
    x->setup_arrangement(1, "random", 6);
  }
  EXPECT_EQ(a.state(), b.state());
  EXPECT_NE(a.state().at("phase"), "setup");
}

// "Ivory begins." (after the setups, Ivory's pieces are the ones that move)
TEST(TruthTurn, IvoryBegins) {
  Session s = Session::create("truth", {{"players", 2}});
  s.setup_arrangement(1, "suggested", 0);  // Jade may set up first; Ivory still begins
  s.setup_arrangement(0, "suggested", 0);
  EXPECT_EQ(s.state().at("to_move"), 0);
  const json b = board(s);
  for (const std::string& from : origins(s)) EXPECT_EQ(b.at(from).get<std::string>()[0], '0') << from;
  // Rulings (players): Ivory south, ranks 1-9; Jade north, ranks 10-18.
  for (auto& [sq, pc] : b.items()) EXPECT_EQ(pc.get<std::string>()[0] == '0', rank_of(sq) <= 9) << sq;
}

// Rulings (common): "A player may resign during setup; the game ends at once and reveals no setup."
TEST(TruthSetup, ResigningDuringSetupEndsTheGameAndRevealsNoSetup) {
  Session s = Session::create("truth", {{"players", 2}});
  s.setup_arrangement(0, "suggested", 0);
  s.offer(0, "resign");
  EXPECT_EQ(s.state().at("phase"), "over");
  EXPECT_EQ(s.state().at("result").at("winners"), json::array({1}));
  EXPECT_EQ(s.state().at("result").at("reason"), "resignation");
  EXPECT_TRUE(s.observation(1).at("board").empty());
  EXPECT_TRUE(s.observation(kSpectator).at("board").empty());
}

// ============================================================================================================
// Take a turn
// ============================================================================================================

// "Turns then pass to Jade" + contract: `to_move` stays between the two actions, `action` 0/1, `ply`
// counts turns; "A turn ends automatically after those actions."
TEST(TruthTurn, TurnsPassToJadeAndEndAutomaticallyAfterTwoActions) {
  Session s = at({{"e4", "0D"}, {"h7", "0L"}});
  std::vector<Event> ev = s.play("e4-f5");
  ASSERT_EQ(of_type(ev, "move").size(), 1u);
  EXPECT_EQ(of_type(ev, "move")[0],
            (json{{"type", "move"}, {"player", 0}, {"from", "e4"}, {"to", "f5"}, {"piece", "0D"}, {"action", 0}}));
  json st = s.state();
  EXPECT_EQ(st.at("to_move"), 0);
  EXPECT_EQ(st.at("ply"), 0);
  EXPECT_EQ(st.at("action"), 1);
  EXPECT_EQ(st.at("acted"), json::array({"f5"}));
  EXPECT_EQ(st.at("door_action_done"), true);
  ev = s.play("h7-i8");
  EXPECT_EQ(of_type(ev, "move")[0].at("action"), 1);
  st = s.state();
  EXPECT_EQ(st.at("to_move"), 1);
  EXPECT_EQ(st.at("ply"), 1);
  EXPECT_EQ(st.at("action"), 0);
  EXPECT_EQ(st.at("acted"), json::array());
  EXPECT_EQ(st.at("door_action_done"), false);
  turn(s, "c18-d17", "a16-b15");
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_EQ(s.state().at("ply"), 2);
}

// "Move one door and one other piece, in either order"
TEST(TruthTurn, OneDoorAndOneOtherPieceInEitherOrder) {
  Session s = at({{"e4", "0D"}, {"h7", "0L"}});
  s.play("h7-i8");  // the other piece first
  EXPECT_EQ(s.state().at("door_action_done"), false);
  EXPECT_EQ(s.state().at("action"), 1);
  EXPECT_EQ(origins(s), (Set{"e4", "o2", "q4"}));  // only doors may act second
  expect_refused(s, "i8-j9");
  s.play("e4-f5");
  EXPECT_EQ(s.state().at("to_move"), 1);
}

// "the other piece may also be a door."
TEST(TruthTurn, TheOtherPieceMayAlsoBeADoor) {
  Session s = at({{"e4", "0D"}});
  s.play("e4-f5");
  EXPECT_TRUE(dests(s, "o2").count("n3"));
  s.play("o2-n3");
  EXPECT_EQ(s.state().at("to_move"), 1);
  EXPECT_EQ(piece_at(s, "n3"), "0D");
}

// "Use two distinct pieces."
TEST(TruthTurn, UseTwoDistinctPieces) {
  Session s = at({{"e4", "0D"}});
  s.play("e4-f5");
  EXPECT_TRUE(dests(s, "f5").empty());
  expect_refused(s, "f5-g6");
}

// Rulings used by this edition: "Two actions must use different pieces." — also when the first piece was
// not the door: a lantern that moved first may not move again even though it is not the door.
TEST(TruthTurn, TwoActionsMustUseDifferentPieces) {
  Session s = bare({{"q2", "0I"}, {"e4", "0N"}, {"h7", "0G"}, {"a18", "1I"}, {"a16", "1N"}}, transformed());
  s.play("e4-g6");  // a door-role linesman: the door action; the second may be any other piece
  EXPECT_EQ(s.state().at("door_action_done"), true);
  EXPECT_TRUE(dests(s, "g6").empty());
  EXPECT_FALSE(dests(s, "h7").empty());
  expect_refused(s, "g6-i8");
}

// "A first action is legal only if a legal second action remains"
TEST(TruthTurn, AFirstActionIsLegalOnlyIfALegalSecondActionRemains) {
  // Ivory: icon q2 (its only step, o4, is taken), lantern a2, door c2. Jade's door b1 closes a2's other
  // diagonal. c2-b3 would leave neither the lantern (b1, b3 closed) nor the icon a move: not listed.
  Session s = bare({{"q2", "0I"}, {"a2", "0L"}, {"c2", "0D"}, {"o4", "1D"}, {"b1", "1D"}, {"a18", "1I"},
                    {"c18", "1D"}});
  Set expected = {"c2-d1", "c2-d3"};
  for (const char* d : {"b3", "c4", "d5", "e6", "f7", "g8", "h9", "i10", "j11", "k12", "l13", "m14", "n15", "o16",
                        "p17", "q18"})
    expected.insert(std::string("a2-") + d);
  EXPECT_EQ(legal(s), expected);
  expect_refused(s, "c2-b3");
}

// The second action is judged on the board after the first action's effects: here the guardian's only
// listed move is the one whose contact frees Ivory's boxed-in door b1 (b3 touches Jade's doors a2 and c2).
TEST(TruthTurn, TheRemainingSecondActionIsJudgedAfterTheFirstActionsEffects) {
  Session s = bare({{"c6", "0I"}, {"e6", "0G"}, {"b1", "0D"}, {"a2", "1D"}, {"c2", "1D"}, {"a18", "1I"}});
  EXPECT_EQ(legal(s), (Set{"e6-b3"}));
  std::vector<Event> ev = s.play("e6-b3");
  EXPECT_EQ(captures(ev), (Caps{"a2 1D by0 1 contact", "c2 1D by0 1 contact"}));
  EXPECT_EQ(dests(s, "b1"), (Set{"a2", "c2"}));
}

// "…unless that first action ends the game by destroying an icon." — listed even where other complete turns
// exist and this one leaves no second action: the lantern a4-c2 burns Jade's icon d3 and takes the only
// square Ivory's door b1 could step to.
TEST(TruthTurn, AGameEndingFirstActionIsListedEvenWhereItLeavesNoSecond) {
  Session s = bare({{"q2", "0I"}, {"b1", "0D"}, {"a4", "0L"}, {"a2", "1D"}, {"d3", "1I"}});
  const Set l = legal(s);
  EXPECT_TRUE(l.count("a4-c2"));
  EXPECT_TRUE(l.count("b1-c2"));
  EXPECT_FALSE(l.count("pass"));
  std::vector<Event> ev = s.play("a4-c2");
  EXPECT_EQ(captures(ev), (Caps{"d3 1I by0 100 burn"}));
  expect_over(s, json::array({0}), "icon-destroyed");
}

// "…unless that first action ends the game by destroying an icon." Rulings: "`pass` is listed exactly
// when no complete two-action turn exists, beside any such game-ending first action."
TEST(TruthTurn, AFirstActionThatDestroysAnIconNeedsNoSecondAction) {
  Session s = bare({{"q2", "0I"}, {"e4", "0L"}, {"j7", "1I"}, {"c18", "1D"}});  // Ivory has no door
  EXPECT_EQ(legal(s), (Set{"pass", "e4-i8"}));
  std::vector<Event> ev = s.play("e4-i8");
  EXPECT_EQ(captures(ev), (Caps{"j7 1I by0 100 burn"}));
  expect_over(s, json::array({0}), "icon-destroyed");
  EXPECT_EQ(s.state().at("scores"), json::array({100, 0}));
}

// Rulings: "A first action is listed when … it destroys an icon (any icon: it ends the game)."
TEST(TruthTurn, AFirstActionThatLosesTheMoversOwnIconAlsoEndsTheGameAndIsListed) {
  // Ivory's only door b1 is boxed in by Jade's doors a2 and c2: no complete turn. Ivory's icon may still
  // step to k10, beside Jade's lantern l11, which ends the game.
  Session s = bare({{"i8", "0I"}, {"b1", "0D"}, {"a2", "1D"}, {"c2", "1D"}, {"l11", "1L"}, {"a18", "1I"}});
  EXPECT_EQ(legal(s), (Set{"pass", "i8-k10"}));
  std::vector<Event> ev = s.play("i8-k10");
  EXPECT_EQ(captures(ev), (Caps{"k10 0I by1 100 burn"}));
  expect_over(s, json::array({1}), "icon-destroyed");
}

// Rulings: "Any legal pair of actions is a complete turn, even one that loses the mover's own icon."
TEST(TruthTurn, APairThatLosesTheMoversOwnIconIsACompleteTurn) {
  Session s = at({{"e4", "0I"}, {"h7", "1L"}});
  s.play("o2-n3");
  EXPECT_TRUE(dests(s, "e4").count("g6"));
  std::vector<Event> ev = s.play("e4-g6");
  EXPECT_EQ(captures(ev), (Caps{"g6 0I by1 100 burn"}));
  expect_over(s, json::array({1}), "icon-destroyed");
}

// "The required door action is never silently waived."
TEST(TruthTurn, TheRequiredDoorActionIsNeverWaived) {
  // Ivory has a lantern and a linesman but no door: no first action is listed, only the blocked pass.
  Session s = bare({{"q2", "0I"}, {"e4", "0L"}, {"h7", "0N"}, {"a18", "1I"}, {"c18", "1D"}});
  EXPECT_EQ(legal(s), (Set{"pass"}));
  expect_refused(s, "e4-f5");
  expect_refused(s, "h7-j9");
}

// Rulings used by this edition: "A player unable to complete the required pair skips the turn, rather than
// taking an extra unrestricted action."
TEST(TruthTurn, APlayerUnableToCompleteThePairSkipsTheTurn) {
  // Ivory's door could move, but no second piece could follow (the icon's step o4 is taken).
  Session s = bare({{"q2", "0I"}, {"e4", "0D"}, {"o4", "1D"}, {"a18", "1I"}, {"c18", "1D"}});
  EXPECT_EQ(legal(s), (Set{"pass"}));
  expect_refused(s, "e4-f5");
  std::vector<Event> ev = s.play("pass");
  EXPECT_EQ(of_type(ev, "pass").at(0), (json{{"type", "pass"}, {"player", 0}, {"blocked", true}}));
  EXPECT_EQ(piece_at(s, "e4"), "0D");
  EXPECT_EQ(s.state().at("to_move"), 1);
  EXPECT_EQ(s.state().at("ply"), 1);
  EXPECT_EQ(s.state().at("blocked_turns"), 1);
}

// "If no complete two-piece turn exists, use Pass blocked turn" — and pass is not listed otherwise.
TEST(TruthTurn, PassIsListedOnlyWhenNoCompleteTurnExists) {
  Session s = at({{"e4", "0D"}});
  EXPECT_EQ(legal(s).count("pass"), 0u);
  expect_refused(s, "pass");
}

// Rulings: "If the player to move has made its first action and no second action exists, `pass` ends the
// turn; it is not a blocked turn, and it resets `blocked_turns` to 0."
TEST(TruthTurn, APassAfterAFirstActionIsNotABlockedTurn) {
  Session s = bare({{"q2", "0I"}, {"e4", "0L"}, {"b1", "0D"}, {"o4", "1D"}, {"a2", "1D"}, {"c2", "1D"}, {"a18", "1I"}},
                   {{"action", 1}, {"acted", json::array({"e4"})}, {"door_action_done", false}, {"blocked_turns", 1}});
  EXPECT_EQ(legal(s), (Set{"pass"}));
  std::vector<Event> ev = s.play("pass");
  EXPECT_EQ(of_type(ev, "pass").at(0), (json{{"type", "pass"}, {"player", 0}, {"blocked", false}}));
  EXPECT_EQ(s.state().at("blocked_turns"), 0);
  EXPECT_EQ(s.state().at("to_move"), 1);
  EXPECT_EQ(s.state().at("ply"), 1);
  EXPECT_EQ(s.state().at("action"), 0);
}

// Rulings: "The door requirement is judged by the role of the piece when it moves (a door that dies in its
// own action still was the door action)." and "Stepping into a fatal contact is legal."
TEST(TruthTurn, ADoorThatDiesInItsOwnActionStillWasTheDoorAction) {
  Session s = at({{"e4", "0D"}, {"g6", "1G"}, {"k2", "0L"}});
  std::vector<Event> ev = s.play("e4-f5");
  EXPECT_EQ(captures(ev), (Caps{"f5 0D by1 1 contact"}));
  const json st = s.state();
  EXPECT_EQ(st.at("action"), 1);
  EXPECT_EQ(st.at("acted"), json::array());  // the moved piece no longer stands
  EXPECT_EQ(st.at("door_action_done"), true);
  EXPECT_TRUE(dests(s, "k2").count("l3"));  // any other piece may act second
  s.play("k2-l3");
  EXPECT_EQ(s.state().at("to_move"), 1);
}

// The same for a door-role piece: a transformed linesman that dies crossing an icon made the door action.
TEST(TruthTurn, ADoorRoleLinesmanThatDiesInItsActionStillMadeTheDoorAction) {
  Session s = bare({{"q2", "0I"}, {"h7", "0N"}, {"i8", "1I"}, {"a16", "1N"}}, transformed());
  std::vector<Event> ev = s.play("h7-j9");
  EXPECT_EQ(captures(ev), (Caps{"j9 0N by1 5 crossing"}));
  EXPECT_EQ(s.state().at("door_action_done"), true);
  EXPECT_EQ(s.state().at("acted"), json::array());
  EXPECT_EQ(dests(s, "q2"), (Set{"o4"}));  // the icon may make the second action
}

TEST(TruthTurn, SteppingIntoAFatalContactIsLegal) {
  Session s = at({{"e4", "0D"}, {"g6", "1G"}});
  EXPECT_EQ(dests(s, "e4"), (Set{"d3", "f3", "d5", "f5"}));  // f5 touches Jade's guardian
}

// Rulings: "Each action is written and played separately" — a turn is two `play` calls, and `acted` names
// the piece that moved.
TEST(TruthTurn, EachActionIsWrittenAndPlayedSeparately) {
  Session s = at({{"e4", "0D"}, {"h7", "0L"}});
  EXPECT_TRUE(legal(s).count("e4-f5"));
  EXPECT_THROW(s.play("e4-f5 h7-i8"), GameError);
  s.play("h7-i8");
  EXPECT_EQ(s.state().at("acted"), json::array({"i8"}));
}

// Rulings: "The second action needs no look-ahead; icon ranges are measured from where the icon stands at
// that moment."
TEST(TruthTurn, IconRangesAreMeasuredFromWhereTheIconStandsAtThatMoment) {
  // Transformed armies: the sentry is a door-role piece, so it can act after the icon moved.
  Session s = bare({{"e4", "0I"}, {"c2", "0S"}, {"a18", "1I"}, {"a16", "1N"}}, transformed());
  EXPECT_EQ(dests(s, "c2"), sentry_reach(s, "e4"));
  s.play("e4-g6");
  EXPECT_EQ(dests(s, "c2"), sentry_reach(s, "g6"));
  EXPECT_TRUE(dests(s, "c2").count("k10"));   // 4 from g6, 6 from e4
  EXPECT_FALSE(dests(s, "c2").count("a2"));   // 4 from e4, 6 from g6
}

// "No move lands on an occupied square."
TEST(TruthMove, NoMoveLandsOnAnOccupiedSquare) {
  Session s = at({{"e4", "0D"}, {"f5", "0L"}, {"d5", "1D"}});
  EXPECT_EQ(dests(s, "e4"), (Set{"d3", "f3"}));
  expect_refused(s, "e4-d5");
  expect_refused(s, "e4-f5");
}

// "There is no replacement capture: pieces are destroyed by crossing, diagonal contact or enclosure."
TEST(TruthMove, ThereIsNoReplacementCapture) {
  Session s = at({{"e4", "0L"}, {"h7", "1L"}, {"g8", "0N"}, {"g10", "1D"}});
  EXPECT_FALSE(dests(s, "e4").count("h7"));
  expect_refused(s, "e4-h7");
  EXPECT_FALSE(dests(s, "g8").count("g10"));
  expect_refused(s, "g8-g10");
}

// "Black squares are never legal destinations."
TEST(TruthMove, BlackSquaresAreNeverLegalDestinations) {
  Session s = Session::create("truth", {{"players", 2}});
  s.setup_arrangement(0, "suggested", 0);
  s.setup_arrangement(1, "suggested", 0);
  for (int i = 0; i < 2; ++i) {
    ASSERT_FALSE(s.legal().empty());
    for (const std::string& m : s.legal()) {
      if (m != "pass") {
        EXPECT_TRUE(white(m.substr(m.find('-') + 1))) << m;
      }
    }
    s.play(s.legal().front());
  }
  Session e = at({{"e4", "0D"}, {"h7", "0N"}});
  expect_refused(e, "e4-e5");
  expect_refused(e, "h7-h8");
  expect_refused(e, "h7-i7");
}

// ============================================================================================================
// Move the six kinds
// ============================================================================================================

// Door: "Move exactly one square diagonally."
TEST(TruthDoor, MovesExactlyOneSquareDiagonally) {
  Session s = at({{"e4", "0D"}});
  EXPECT_EQ(dests(s, "e4"), (Set{"d3", "f3", "d5", "f5"}));
  expect_refused(s, "e4-g6");
  expect_refused(s, "e4-e6");
  expect_refused(s, "e4-c4");
}

// Lantern: "Move any distance diagonally."
TEST(TruthLantern, MovesAnyDistanceDiagonally) {
  Session s = at({{"g8", "0L"}});
  const Set expected = {"h9", "i10", "j11", "k12", "l13", "m14", "n15", "o16", "p17", "q18",  // NE
                        "f9", "e10", "d11", "c12", "b13", "a14",                             // NW
                        "h7", "i6", "j5", "k4", "l3", "m2", "n1",                            // SE
                        "f7", "e6", "d5", "c4", "b3", "a2"};                                 // SW
  EXPECT_EQ(dests(s, "g8"), expected);
  s.play("g8-q18");
  EXPECT_EQ(piece_at(s, "q18"), "0L");
}

// Lantern: "Doors, icons and transformed door-role pieces block the path."
TEST(TruthLantern, DoorsAndIconsOfEitherArmyBlockThePath) {
  // own door g6 (NE), Jade door c6 (NW), Jade icon c2 (SW), own icon g2 (SE)
  Session s = at({{"e4", "0L"}, {"g6", "0D"}, {"c6", "1D"}, {"c2", "1I"}, {"g2", "0I"}});
  EXPECT_EQ(dests(s, "e4"), (Set{"f5", "d5", "d3", "f3"}));
  expect_refused(s, "e4-h7");
}

// Rulings (movement): lanterns are blocked "by the linesmen and sentries of every transformed army". In a
// 2-player game both armies transform only when every lantern is gone, so the obstruction is shown on a
// lantern-guardian (see TruthLanternGuardian); here: untransformed linesmen and sentries never block.
TEST(TruthLantern, UntransformedLinesmenAndSentriesDoNotBlock) {
  Session s = at({{"e4", "0L"}, {"f5", "0N"}, {"g6", "1S"}, {"d5", "1N"}, {"c6", "0S"}});
  const Set d = dests(s, "e4");
  EXPECT_TRUE(d.count("h7"));
  EXPECT_TRUE(d.count("q16"));
  EXPECT_TRUE(d.count("b7"));
  EXPECT_FALSE(d.count("f5"));
  EXPECT_FALSE(d.count("c6"));
}

// Lantern: "Other pieces may be crossed, but the destination must be empty."
TEST(TruthLantern, OtherPiecesMayBeCrossedButTheDestinationMustBeEmpty) {
  Session s = at({{"e4", "0L"}, {"f5", "0N"}, {"g6", "1N"}, {"h7", "0L"}, {"i8", "1L"}, {"c6", "1G"}, {"d3", "0G"}});
  EXPECT_EQ(dests(s, "e4"), (Set{"j9", "k10", "l11", "m12", "n13", "o14", "p15", "q16",  // over f5 g6 h7 i8
                                 "d5", "b7", "a8",                                        // over c6
                                 "c2", "b1",                                              // over d3
                                 "f3", "g2", "h1"}));
  expect_refused(s, "e4-i8");
}

// Rulings used by this edition: "Lanterns do not stop at pieces other than their named obstructions."
// Crossing takes nothing either.
TEST(TruthLantern, LanternsDoNotStopAtPiecesOtherThanTheirNamedObstructions) {
  Session s = at({{"e4", "0L"}, {"f5", "1L"}, {"g6", "1N"}, {"h7", "1S"}});
  std::vector<Event> ev = s.play("e4-j9");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "j9"), "0L");
  EXPECT_EQ(piece_at(s, "f5"), "1L");
  EXPECT_EQ(piece_at(s, "g6"), "1N");
  EXPECT_EQ(piece_at(s, "h7"), "1S");
}

// Rulings: contacts are collected "on the board as it stands after the move": a lantern that slides past the
// squares touching an enemy guardian (f5 and h7 touch g6) and ends away from it is unharmed.
TEST(TruthLantern, PassingBesideAnEnemyGuardianIsHarmless) {
  Session s = at({{"e4", "0L"}, {"g6", "1G"}});
  std::vector<Event> ev = s.play("e4-j9");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "j9"), "0L");
}

// Linesman: "Move exactly two squares horizontally, vertically or diagonally, crossing the middle square."
TEST(TruthLinesman, MovesExactlyTwoSquaresInEightDirections) {
  Session s = at({{"h7", "0N"}});
  EXPECT_EQ(dests(s, "h7"), (Set{"f7", "j7", "h5", "h9", "f5", "j5", "f9", "j9"}));
  expect_refused(s, "h7-i8");
  expect_refused(s, "h7-k10");
}

TEST(TruthLinesman, CrossesTheMiddleSquareOfADiagonalLeap) {
  Session s = at({{"h7", "0N"}, {"i8", "0D"}, {"g6", "1D"}});
  EXPECT_EQ(dests(s, "h7"), (Set{"f7", "j7", "h5", "h9", "f5", "j5", "f9", "j9"}));
  std::vector<Event> ev = s.play("h7-j9");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "i8"), "0D");
  EXPECT_EQ(piece_at(s, "j9"), "0N");
}

// Linesman: "Any sentry blocks this leap." Rulings used by this edition: "The stronger prohibition on
// jumping any sentry takes precedence over rule 8's enemy-only wording."
TEST(TruthLinesman, AnySentryOwnOrEnemyBlocksTheLeap) {
  Session s = at({{"h7", "0N"}, {"i8", "0S"}, {"g6", "1S"}});
  EXPECT_EQ(dests(s, "h7"), (Set{"f7", "j7", "h5", "h9", "j5", "f9"}));
  expect_refused(s, "h7-j9");
  expect_refused(s, "h7-f5");
}

// Linesman: "An enemy lantern crossed is destroyed."
TEST(TruthLinesman, AnEnemyLanternCrossedIsDestroyed) {
  Session s = at({{"h7", "0N"}, {"i8", "1L"}});
  std::vector<Event> ev = s.play("h7-j9");
  EXPECT_EQ(captures(ev), (Caps{"i8 1L by0 1 crossing"}));
  EXPECT_TRUE(empty_at(s, "i8"));
  EXPECT_EQ(piece_at(s, "j9"), "0N");
  EXPECT_EQ(s.state().at("scores"), json::array({1, 0}));
}

// Linesman: "A linesman that crosses an icon is itself destroyed; the icon survives." Rulings used by this
// edition: "Rule 14's 'it is destroyed' … refers to the linesman".
TEST(TruthLinesman, ALinesmanThatCrossesAnIconIsDestroyedAndTheIconSurvives) {
  Session s = at({{"h7", "0N"}, {"i8", "1I"}});
  EXPECT_TRUE(dests(s, "h7").count("j9"));  // legal
  std::vector<Event> ev = s.play("h7-j9");
  EXPECT_EQ(captures(ev), (Caps{"j9 0N by1 5 crossing"}));
  EXPECT_EQ(piece_at(s, "i8"), "1I");
  EXPECT_TRUE(empty_at(s, "j9"));
  EXPECT_TRUE(empty_at(s, "h7"));
  expect_on(s);
  EXPECT_EQ(s.state().at("scores"), json::array({0, 5}));
  EXPECT_EQ(s.state().at("acted"), json::array());
  EXPECT_EQ(s.state().at("door_action_done"), false);
  EXPECT_EQ(origins(s), (Set{"o2", "q4"}));  // the door action is still due
}

// Rulings used by this edition: "Jump attacks target enemies, except that any icon destroys a crossing
// linesman." Rulings: "(no credit for an own loss)".
TEST(TruthLinesman, AnOwnIconAlsoDestroysACrossingLinesmanWithoutCredit) {
  Session s = at({{"h7", "0N"}, {"i8", "0I"}});
  std::vector<Event> ev = s.play("h7-j9");
  EXPECT_EQ(captures(ev), (Caps{"j9 0N by- 0 crossing"}));
  EXPECT_EQ(piece_at(s, "i8"), "0I");
  EXPECT_EQ(s.state().at("scores"), json::array({0, 0}));
  expect_on(s);
}

TEST(TruthLinesman, JumpAttacksSpareOwnLanterns) {
  Session s = at({{"h7", "0N"}, {"i8", "0L"}});
  std::vector<Event> ev = s.play("h7-j9");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "i8"), "0L");
}

// Manuscript 14 ("only destroy lanterns"): a crossed door, linesman or guardian is not harmed by the
// crossing itself.
TEST(TruthLinesman, OnlyLanternsAreDestroyedByTheCrossing) {
  Session s = at({{"h7", "0N"}, {"i8", "1D"}});
  std::vector<Event> ev = s.play("h7-j9");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "i8"), "1D");
}

// Sentry: "Leap to an empty square within the icon's range."
TEST(TruthSentry, LeapsToAnyEmptySquareWithinTheIconsRange) {
  Session s = at({{"i8", "0I"}, {"i6", "0S"}, {"k10", "1D"}});
  const Set d = dests(s, "i6");
  EXPECT_EQ(d, sentry_reach(s, "i8"));
  EXPECT_FALSE(d.count("k10"));  // occupied
  EXPECT_FALSE(d.count("i8"));
  EXPECT_TRUE(d.count("e4"));    // a long leap in any direction
}

// Sentry: "In a horizontal, vertical or diagonal line from the icon, reach five coordinate steps (six
// squares including the icon)."
TEST(TruthSentry, OnALineFromTheIconReachesFiveSteps) {
  Session s = at({{"i8", "0I"}, {"i6", "0S"}});
  const Set d = dests(s, "i6");
  for (const char* sq : {"d3", "n3", "d13", "n13"}) EXPECT_TRUE(d.count(sq)) << sq;  // diagonal, 5 steps
  for (const char* sq : {"c2", "o14", "o2"}) EXPECT_FALSE(d.count(sq)) << sq;       // diagonal, 6 steps
}

// Sentry: "Off those lines, reach four coordinate steps."
TEST(TruthSentry, OffTheLinesReachesFourSteps) {
  Session s = at({{"i8", "0I"}, {"i6", "0S"}});
  const Set d = dests(s, "i6");
  for (const char* sq : {"m10", "m6", "e10", "e12", "g4", "m12", "e4"}) EXPECT_TRUE(d.count(sq)) << sq;
  for (const char* sq : {"n9", "n11", "d9", "d5", "f3", "h13", "l13"}) EXPECT_FALSE(d.count(sq)) << sq;  // 5 off-line
}

// Sentry: "Any enemy piece on an intermediate lattice point of the leap is destroyed except an icon."
TEST(TruthSentry, EnemyPiecesOnIntermediateLatticePointsAreDestroyedExceptAnIcon) {
  // e6 → i10 crosses the lattice points f7, g8, h9.
  Session s = at({{"i8", "0I"}, {"e6", "0S"}, {"f7", "1D"}, {"g8", "1I"}, {"h9", "1N"}});
  std::vector<Event> ev = s.play("e6-i10");
  EXPECT_EQ(captures(ev), (Caps{"f7 1D by0 1 crossing", "h9 1N by0 5 crossing"}));
  EXPECT_EQ(piece_at(s, "g8"), "1I");
  EXPECT_EQ(piece_at(s, "i10"), "0S");
  EXPECT_EQ(s.state().at("scores"), json::array({6, 0}));
  expect_on(s);
}

// Sentry: "If a jumped guardian is diagonally adjacent to the landing square, the sentry dies with it."
// Edition (score): "Captures credit the opposing owner …, including an icon or guardian causing a jumper's
// destruction." Contract: cause `crossing` for "a sentry dying with a jumped guardian".
TEST(TruthSentry, AJumpedGuardianNextToTheLandingSquareTakesTheSentryWithIt) {
  Session s = at({{"c6", "0I"}, {"c2", "0S"}, {"f5", "1G"}});
  std::vector<Event> ev = s.play("c2-g6");  // over d3, e4, f5; g6 touches f5
  EXPECT_EQ(captures(ev), (Caps{"f5 1G by0 20 crossing", "g6 0S by1 5 crossing"}));
  EXPECT_TRUE(empty_at(s, "g6"));
  EXPECT_TRUE(empty_at(s, "f5"));
  EXPECT_EQ(s.state().at("scores"), json::array({20, 5}));
}

TEST(TruthSentry, AJumpedGuardianAwayFromTheLandingSquareDiesAlone) {
  Session s = at({{"c6", "0I"}, {"c2", "0S"}, {"e4", "1G"}});
  std::vector<Event> ev = s.play("c2-g6");  // over d3, e4, f5; g6 does not touch e4
  EXPECT_EQ(captures(ev), (Caps{"e4 1G by0 20 crossing"}));
  EXPECT_EQ(piece_at(s, "g6"), "0S");
}

// Rulings: "A sentry's jumped guardian is an enemy guardian; jumped own pieces are unharmed".
TEST(TruthSentry, JumpedOwnPiecesAreUnharmed) {
  Session s = at({{"c6", "0I"}, {"c2", "0S"}, {"d3", "0D"}, {"e4", "0L"}, {"f5", "0G"}});
  std::vector<Event> ev = s.play("c2-g6");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "f5"), "0G");
  EXPECT_EQ(piece_at(s, "e4"), "0L");
  EXPECT_EQ(piece_at(s, "d3"), "0D");
  EXPECT_EQ(piece_at(s, "g6"), "0S");
}

// Rulings used by this edition: "A sentry may leap in any direction; it captures only occupied lattice
// points exactly on the straight segment, not squares merely brushed by that segment."
TEST(TruthSentry, CapturesOnlyLatticePointsExactlyOnTheSegment) {
  // e4 → i6: the segment's only lattice point is g5 (black, empty); it passes through f5 and h5.
  Session s = at({{"i8", "0I"}, {"e4", "0S"}, {"f5", "1D"}, {"h5", "1D"}});
  EXPECT_TRUE(dests(s, "e4").count("i6"));
  std::vector<Event> ev = s.play("e4-i6");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "f5"), "1D");
  EXPECT_EQ(piece_at(s, "h5"), "1D");
  // A (6,2) leap has one lattice point in the middle: f5 → l7 takes i6 only.
  Session t = at({{"i8", "0I"}, {"f5", "0S"}, {"i6", "1D"}, {"h5", "1D"}, {"j7", "1D"}});
  ev = t.play("f5-l7");
  EXPECT_EQ(captures(ev), (Caps{"i6 1D by0 1 crossing"}));
}

// Rulings used by this edition: "A leap with no intermediate lattice point captures nothing."
TEST(TruthSentry, ALeapWithNoIntermediateLatticePointCapturesNothing) {
  // e4 → h5 (3,1) has no lattice point between its ends; its segment slips between f5 and g4.
  Session s = at({{"i8", "0I"}, {"e4", "0S"}, {"f5", "1D"}, {"g4", "1D"}});
  std::vector<Event> ev = s.play("e4-h5");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "f5"), "1D");
  EXPECT_EQ(piece_at(s, "g4"), "1D");
  EXPECT_EQ(piece_at(s, "h5"), "0S");
}

// Rulings used by this edition: "A stranded guardian or sentry can move only if its destination returns
// it to the allowed range."
TEST(TruthSentry, AStrandedSentryMayLeapOnlyBackIntoRange) {
  Session s = at({{"m8", "0I"}, {"c2", "0S"}});
  const Set d = dests(s, "c2");
  EXPECT_EQ(d, sentry_reach(s, "m8"));
  EXPECT_FALSE(d.count("d3"));
  EXPECT_FALSE(d.count("e4"));
}

// Guardian: "Move one to four squares diagonally, passing over intervening pieces, landing at most four
// coordinate steps from its icon (five counted squares including the icon)."
TEST(TruthGuardian, MovesOneToFourSquaresDiagonallyPassingOverPieces) {
  // e4 is four steps from its icon i8 in both directions; f5 holds an own door; the fifth step j9 (beyond
  // the icon) is too far however close it is to the icon.
  Session s = at({{"i8", "0I"}, {"e4", "0G"}, {"f5", "0D"}});
  EXPECT_EQ(dests(s, "e4"), (Set{"g6", "h7"}));
  expect_refused(s, "e4-j9");
  expect_refused(s, "e4-f5");
}

TEST(TruthGuardian, LandsAtMostFourCoordinateStepsFromItsIcon) {
  Session s = at({{"i8", "0I"}, {"i4", "0G"}});
  EXPECT_EQ(dests(s, "i4"), (Set{"j5", "k6", "l7", "m8", "h5", "g6", "f7", "e8"}));
}

// Rulings used by this edition: "Range uses the larger of horizontal and vertical displacement; 'counted
// squares' includes the icon."
TEST(TruthGuardian, RangeIsTheLargerOfTheHorizontalAndVerticalDisplacement) {
  Session s = at({{"i8", "0I"}, {"g4", "0G"}});
  // e6 is (4,2) from i8: in range (the larger displacement is 4); d7 is (5,1): out.
  EXPECT_EQ(dests(s, "g4"), (Set{"h5", "i6", "j7", "k8", "f5", "e6"}));
}

// Rulings used by this edition: "A stranded guardian or sentry can move only if its destination returns
// it to the allowed range." Manuscript 12: a stranded one that cannot return "cannot be moved".
TEST(TruthGuardian, AStrandedGuardianMovesOnlyBackIntoRange) {
  Session s = at({{"m8", "0I"}, {"e4", "0G"}, {"b1", "0G"}});
  EXPECT_EQ(dests(s, "e4"), (Set{"i8"}));
  EXPECT_TRUE(dests(s, "b1").empty());
}

// Guardian: "A guardian destroys diagonally adjacent enemy doors, lanterns, linesmen and sentries,
// regardless of which piece moved."
TEST(TruthGuardian, DestroysAdjacentEnemyDoorsLanternsLinesmenAndSentries) {
  Session s = at({{"c6", "0I"}, {"c2", "0G"}, {"e4", "1D"}, {"g4", "1L"}, {"e6", "1N"}, {"g6", "1S"}});
  std::vector<Event> ev = s.play("c2-f5");
  EXPECT_EQ(captures(ev), (Caps{"e4 1D by0 1 contact", "g4 1L by0 1 contact", "e6 1N by0 5 contact",
                                "g6 1S by0 5 contact"}));
  EXPECT_EQ(piece_at(s, "f5"), "0G");
  EXPECT_EQ(s.state().at("scores"), json::array({12, 0}));
}

TEST(TruthGuardian, DestroysRegardlessOfWhichPieceMoved) {
  Session s = at({{"g4", "0G"}, {"e6", "1D"}}, {{"to_move", 1}, {"ply", 1}});
  std::vector<Event> ev = s.play("e6-f5");  // Jade's door walks into Ivory's guardian
  EXPECT_EQ(captures(ev), (Caps{"f5 1D by0 1 contact"}));
  EXPECT_EQ(s.state().at("scores"), json::array({1, 0}));
  EXPECT_EQ(s.state().at("door_action_done"), true);
}

// Rulings used by this edition: "Ordinary guardians and icons may pass over occupied squares, but must land
// on an empty square; crossing a piece does not itself capture it."
TEST(TruthGuardian, CrossingAPieceDoesNotCaptureIt) {
  // a2-e6 crosses Jade's door c4, which touches neither a2 nor e6.
  Session s = at({{"c6", "0I"}, {"a2", "0G"}, {"c4", "1D"}});
  std::vector<Event> ev = s.play("a2-e6");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "c4"), "1D");
  EXPECT_EQ(piece_at(s, "e6"), "0G");
}

// Guardian: "Ordinary guardians do not destroy each other."
TEST(TruthGuardian, OrdinaryGuardiansDoNotDestroyEachOther) {
  Session s = at({{"c6", "0I"}, {"c2", "0G"}, {"f5", "1G"}});
  std::vector<Event> ev = s.play("c2-e4");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "e4"), "0G");
  EXPECT_EQ(piece_at(s, "f5"), "1G");
}

// Guardian: "Contact with an enemy icon destroys the ordinary guardian."
TEST(TruthGuardian, ContactWithAnEnemyIconDestroysTheOrdinaryGuardian) {
  Session s = at({{"c6", "0I"}, {"c2", "0G"}, {"f5", "1I"}});
  std::vector<Event> ev = s.play("c2-e4");
  EXPECT_EQ(captures(ev), (Caps{"e4 0G by1 20 contact"}));
  EXPECT_EQ(piece_at(s, "f5"), "1I");
  expect_on(s);
  // …also when the icon moves into the contact.
  Session t = at({{"f7", "0G"}, {"i10", "1I"}}, {{"to_move", 1}, {"ply", 1}});
  ev = t.play("i10-g8");
  EXPECT_EQ(captures(ev), (Caps{"f7 0G by1 20 contact"}));
}

// Icon: "Move exactly two squares diagonally when starting in your territory, or exactly one when starting
// outside it." Rulings: "The icon's step length is judged on its starting square".
TEST(TruthIcon, MovesTwoSquaresFromItsTerritoryAndOneFromOutside) {
  Session in = at({{"e4", "0I"}});
  EXPECT_EQ(dests(in, "e4"), (Set{"c2", "g2", "c6", "g6"}));
  Session edge = at({{"h9", "0I"}});  // rank 9 into rank 11: judged where it starts
  EXPECT_EQ(dests(edge, "h9"), (Set{"f7", "j7", "f11", "j11"}));
  Session out = at({{"e12", "0I"}});
  EXPECT_EQ(dests(out, "e12"), (Set{"d11", "f11", "d13", "f13"}));
  Session back = at({{"f11", "0I"}});  // outside, stepping one square back home
  EXPECT_EQ(dests(back, "f11"), (Set{"e10", "g10", "e12", "g12"}));
  EXPECT_FALSE(dests(back, "f11").count("h9"));
}

// Icon: "It may pass over intervening pieces."
TEST(TruthIcon, MayPassOverInterveningPieces) {
  Session s = at({{"e4", "0I"}, {"d3", "0D"}, {"f3", "1D"}, {"d5", "0L"}, {"f5", "1N"}});
  EXPECT_EQ(dests(s, "e4"), (Set{"c2", "g2", "c6", "g6"}));
  std::vector<Event> ev = s.play("e4-g6");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "f5"), "1N");
}

// Icon: "Icons destroy only ordinary enemy guardians, by diagonal contact."
TEST(TruthIcon, IconsDestroyOnlyOrdinaryEnemyGuardiansByContact) {
  Session s = at({{"e4", "0I"}, {"h7", "1G"}, {"f7", "1D"}, {"h5", "1N"}, {"f5", "1S"}});
  std::vector<Event> ev = s.play("e4-g6");
  EXPECT_EQ(captures(ev), (Caps{"h7 1G by0 20 contact"}));
  for (const char* sq : {"f7", "h5", "f5"}) EXPECT_FALSE(empty_at(s, sq)) << sq;
}

// ============================================================================================================
// Destroy an icon
// ============================================================================================================

// "A lantern burns an enemy icon by ending diagonally adjacent to it, or when the icon moves into that
// contact."
TEST(TruthBurn, ALanternEndingNextToAnEnemyIconBurnsIt) {
  Session s = at({{"e4", "0L"}, {"i8", "1I"}});
  std::vector<Event> ev = s.play("e4-h7");
  EXPECT_EQ(captures(ev), (Caps{"i8 1I by0 100 burn"}));
  expect_over(s, json::array({0}), "icon-destroyed");
  EXPECT_EQ(s.state().at("scores"), json::array({100, 0}));
  const auto over = of_type(ev, "over");
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].at("result"), (json{{"winners", json::array({0})}, {"reason", "icon-destroyed"}}));
}

TEST(TruthBurn, AnIconMovingIntoLanternContactIsBurned) {
  // Jade's icon jumps i12-g10, beside Ivory's lantern f9.
  Session t = at({{"i12", "1I"}, {"f9", "0L"}}, {{"to_move", 1}, {"ply", 1}});
  t.play("c18-d17");
  std::vector<Event> ev = t.play("i12-g10");
  EXPECT_EQ(captures(ev), (Caps{"g10 1I by0 100 burn"}));
  expect_over(t, json::array({0}), "icon-destroyed");
  EXPECT_EQ(t.state().at("to_move"), 1);
  EXPECT_EQ(t.state().at("ply"), 1);
}

TEST(TruthBurn, AnOwnLanternDoesNotBurnTheIcon) {
  Session s = at({{"e4", "0L"}, {"i8", "0I"}});
  std::vector<Event> ev = s.play("e4-h7");
  EXPECT_TRUE(captures(ev).empty());
  expect_on(s);
}

// "Alternatively, place hostile doors on all four diagonal neighbors of an icon." Rulings: "The count
// starts at 0 when a ring closes".
TEST(TruthSiege, FourHostileDoorsOnTheDiagonalNeighboursRingTheIcon) {
  Session s = at({{"i12", "1I"}, {"h11", "0D"}, {"j11", "0D"}, {"h13", "0D"}, {"k14", "0D"}});
  EXPECT_EQ(s.state().at("sieges"), json::object());
  std::vector<Event> ev = s.play("k14-j13");
  const auto sieges = of_type(ev, "siege");
  ASSERT_EQ(sieges.size(), 1u);
  EXPECT_EQ(sieges[0].at("icon"), "i12");
  EXPECT_EQ(sieges[0].at("count"), 0);
  EXPECT_EQ(s.state().at("sieges"), (json{{"i12", 0}}));
  EXPECT_TRUE(captures(ev).empty());
  s.play("o2-n3");
  EXPECT_EQ(s.state().at("sieges"), (json{{"i12", 0}}));  // the attacker's turn end does not count
}

TEST(TruthSiege, OwnDoorsOrThreeHostileDoorsMakeNoRing) {
  Session s = at({{"i12", "1I"}, {"h11", "0D"}, {"j11", "0D"}, {"h13", "1D"}, {"k14", "0D"}});
  s.play("k14-j13");
  EXPECT_EQ(s.state().at("sieges"), json::object());
}

// "The same four doors must remain continuously in place through the ends of two turns taken by that
// icon's owner." + "At the end of the second defending turn, the icon is destroyed." Rulings used by this
// edition: "'Two consecutive turns' means two completed defending turns with the same ring intact."
TEST(TruthSiege, TheIconFallsAtTheEndOfTheSecondDefendingTurn) {
  Session s = at({{"i12", "1I"}, {"h11", "0D"}, {"j11", "0D"}, {"h13", "0D"}, {"k14", "0D"}});
  turn(s, "k14-j13", "o2-n3");
  EXPECT_EQ(s.state().at("sieges"), (json{{"i12", 0}}));
  std::vector<Event> ev = turn(s, "c18-d17", "a16-b15");  // Jade's first defending turn
  ASSERT_EQ(of_type(ev, "siege").size(), 1u);
  EXPECT_EQ(of_type(ev, "siege")[0].at("count"), 1);
  EXPECT_EQ(s.state().at("sieges"), (json{{"i12", 1}}));
  turn(s, "n3-m4", "q4-p5");
  EXPECT_EQ(s.state().at("sieges"), (json{{"i12", 1}}));
  s.play("d17-e16");
  expect_on(s);
  ev = s.play("b15-c14");  // the end of Jade's second defending turn
  EXPECT_EQ(captures(ev), (Caps{"i12 1I by0 100 siege"}));
  expect_over(s, json::array({0}), "icon-destroyed");
  EXPECT_EQ(s.state().at("scores"), json::array({100, 0}));
  // Rulings: after an icon loss in a siege count, to_move and ply stay as they were.
  EXPECT_EQ(s.state().at("to_move"), 1);
  EXPECT_EQ(s.state().at("ply"), 3);
  // Reading: the ring around a destroyed icon is no longer a ring ("sieges lists the rings still standing
  // on the final board"; sieges is "for every ringed icon").
  EXPECT_EQ(s.state().at("sieges"), json::object());
}

// Rulings: "at the end of each turn of the icon's owner … in which the same four pieces stood in place from
// the turn's start …; Any change resets it."
TEST(TruthSiege, ReplacingARingDoorResetsTheCount) {
  Session s = at({{"i12", "1I"}, {"h11", "0D"}, {"j11", "0D"}, {"h13", "0D"}, {"j13", "0D"}, {"i14", "0D"}},
                 {{"sieges", {{"i12", 1}}}});
  std::vector<Event> ev = s.play("h13-g14");
  EXPECT_EQ(of_type(ev, "siege-lifted").size(), 1u);
  EXPECT_EQ(s.state().at("sieges"), json::object());
  ev = s.play("i14-h13");
  ASSERT_EQ(of_type(ev, "siege").size(), 1u);
  EXPECT_EQ(of_type(ev, "siege")[0].at("count"), 0);
  EXPECT_EQ(s.state().at("sieges"), (json{{"i12", 0}}));
  turn(s, "c18-d17", "a16-b15");
  expect_on(s);
  EXPECT_EQ(s.state().at("sieges"), (json{{"i12", 1}}));
}

// "Moving the icon or breaking the ring resets the siege."
TEST(TruthSiege, MovingTheIconResetsTheSiege) {
  Session s = at({{"i12", "1I"}, {"h11", "0D"}, {"j11", "0D"}, {"h13", "0D"}, {"j13", "0D"}},
                 {{"to_move", 1}, {"ply", 1}, {"sieges", {{"i12", 1}}}});
  EXPECT_TRUE(dests(s, "i12").count("g14"));  // it jumps out over its ring
  std::vector<Event> ev = s.play("i12-g14");
  ASSERT_EQ(of_type(ev, "siege-lifted").size(), 1u);
  // Reading (contract, not rules): which square the event names once the icon has moved is open; the ring
  // stood around i12 (the key `sieges` had), the icon now stands on g14. Either is accepted here.
  const json lifted = of_type(ev, "siege-lifted")[0].at("icon");
  EXPECT_TRUE(lifted == "i12" || lifted == "g14") << lifted;
  EXPECT_EQ(s.state().at("sieges"), json::object());
  s.play("c18-d17");
  EXPECT_EQ(s.state().at("sieges"), json::object());
  expect_on(s);
}

TEST(TruthSiege, BreakingTheRingResetsTheSiege) {
  Session s = at({{"i12", "1I"}, {"h11", "0D"}, {"j11", "0D"}, {"h13", "0D"}, {"j13", "0D"}, {"e12", "1G"}},
                 {{"to_move", 1}, {"ply", 1}, {"sieges", {{"i12", 1}}}});
  std::vector<Event> ev = s.play("e12-g10");
  EXPECT_EQ(captures(ev), (Caps{"h11 0D by1 1 contact"}));
  EXPECT_EQ(of_type(ev, "siege-lifted").size(), 1u);
  EXPECT_EQ(s.state().at("sieges"), json::object());
  s.play("c18-d17");
  EXPECT_EQ(s.state().at("sieges"), json::object());
}

// "If no complete two-piece turn exists, use Pass blocked turn; siege clocks … still advance." Rulings: "at
// the end of each turn of the icon's owner (a pass counts)".
TEST(TruthSiege, APassCountsAsADefendingTurn) {
  Session s = bare({{"i12", "1I"}, {"h11", "0D"}, {"j11", "0D"}, {"h13", "0D"}, {"j13", "0D"}, {"q2", "0I"}},
                   {{"to_move", 1}, {"ply", 1}, {"sieges", {{"i12", 1}}}});
  EXPECT_EQ(legal(s), (Set{"pass"}));
  std::vector<Event> ev = s.play("pass");
  EXPECT_EQ(of_type(ev, "pass").at(0), (json{{"type", "pass"}, {"player", 1}, {"blocked", true}}));
  EXPECT_EQ(captures(ev), (Caps{"i12 1I by0 100 siege"}));
  expect_over(s, json::array({0}), "icon-destroyed");
  EXPECT_EQ(s.state().at("to_move"), 1);
  EXPECT_EQ(s.state().at("ply"), 1);
}

// Rulings: "it counts at its owner's turn end, except a ring around the mover's icon when that icon is the
// piece in `acted`" — and in play, an icon that steps into a ring does not count that turn.
TEST(TruthSiege, AnIconThatSteppedIntoARingThisTurnDoesNotCountIt) {
  Session s = at({{"c4", "0I"}, {"d5", "1D"}, {"f5", "1D"}, {"d7", "1D"}, {"f7", "1D"}});
  std::vector<Event> ev = s.play("c4-e6");
  ASSERT_EQ(of_type(ev, "siege").size(), 1u);
  EXPECT_EQ(of_type(ev, "siege")[0].at("count"), 0);
  ev = s.play("o2-n3");
  EXPECT_TRUE(of_type(ev, "siege").empty());
  EXPECT_EQ(s.state().at("sieges"), (json{{"e6", 0}}));
  turn(s, "c18-d17", "a16-b15");
  EXPECT_EQ(s.state().at("sieges"), (json{{"e6", 0}}));
  turn(s, "n3-m4", "q4-p5");
  EXPECT_EQ(s.state().at("sieges"), (json{{"e6", 1}}));
}

TEST(TruthSiege, ALoadedRingAroundTheActedIconDoesNotCountThisTurn) {
  Session s = at({{"e6", "0I"}, {"d5", "1D"}, {"f5", "1D"}, {"d7", "1D"}, {"f7", "1D"}},
                 {{"action", 1}, {"acted", json::array({"e6"})}, {"door_action_done", false}});
  EXPECT_EQ(s.state().at("sieges"), (json{{"e6", 0}}));
  s.play("o2-n3");
  EXPECT_EQ(s.state().at("sieges"), (json{{"e6", 0}}));
  turn(s, "c18-d17", "a16-b15");
  turn(s, "n3-m4", "q4-p5");
  EXPECT_EQ(s.state().at("sieges"), (json{{"e6", 1}}));
}

// Rulings (end of a turn, in order): "the ending player's siege counts" — only the rings around the ending
// player's icon count; and "`sieges` lists the rings still standing on the final board".
TEST(TruthSiege, OnlyTheEndingPlayersRingCounts) {
  Session s = at({{"e6", "0I"}, {"d5", "1D"}, {"f5", "1D"}, {"d7", "1D"}, {"f7", "1D"}, {"i12", "1I"}, {"h11", "0D"},
                  {"j11", "0D"}, {"h13", "0D"}, {"j13", "0D"}},
                 {{"sieges", {{"e6", 1}, {"i12", 1}}}});
  std::vector<Event> ev = turn(s, "o2-n3", "q4-p5");
  EXPECT_EQ(captures(ev), (Caps{"e6 0I by1 100 siege"}));
  expect_over(s, json::array({1}), "icon-destroyed");
  EXPECT_EQ(s.state().at("sieges"), (json{{"i12", 1}}));
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_EQ(s.state().at("ply"), 0);
}

// Rulings: "Every ring on its board is a siege with the listed count (0 if not listed)".
TEST(TruthSiege, EveryRingOnALoadedBoardIsASiegeWithTheListedCount) {
  const Pieces ring = {{"i12", "1I"}, {"h11", "0D"}, {"j11", "0D"}, {"h13", "0D"}, {"j13", "0D"}};
  EXPECT_EQ(at(ring).state().at("sieges"), (json{{"i12", 0}}));
  EXPECT_EQ(at(ring, {{"sieges", {{"i12", 1}}}}).state().at("sieges"), (json{{"i12", 1}}));
  Session s = at(ring, {{"to_move", 1}, {"ply", 1}, {"sieges", {{"i12", 1}}}});
  std::vector<Event> ev = turn(s, "c18-d17", "a16-b15");
  EXPECT_EQ(captures(ev), (Caps{"i12 1I by0 100 siege"}));
}

// Rulings: "After the endgame transformation, door-role linesmen and sentries count as doors for rings too."
TEST(TruthSiege, DoorRoleLinesmenAndSentriesRingAnIconAfterTheTransformation) {
  const Pieces p = {{"q2", "0I"}, {"h11", "0N"}, {"j11", "0S"}, {"h13", "0N"}, {"l13", "0N"},
                    {"i12", "1I"}, {"a16", "1N"}};
  Session s = bare(p, transformed());
  std::vector<Event> ev = s.play("l13-j13");
  ASSERT_EQ(of_type(ev, "siege").size(), 1u);
  EXPECT_EQ(s.state().at("sieges"), (json{{"i12", 0}}));
  // Untransformed, the same linesmen are no ring.
  Pieces q = p;
  q.push_back({"o2", "0D"});
  q.push_back({"c18", "1D"});
  Session t = bare(q);
  t.play("l13-j13");
  EXPECT_EQ(t.state().at("sieges"), json::object());
}

// ============================================================================================================
// The end of the game
// ============================================================================================================

// "The first icon destruction ends the game."
TEST(TruthEnd, TheFirstIconDestructionEndsTheGame) {
  Session s = at({{"e4", "0L"}, {"i8", "1I"}});
  s.play("e4-h7");
  expect_over(s, json::array({0}), "icon-destroyed");
  try {
    s.play("o2-n3");
    ADD_FAILURE() << "a move after the end was accepted";
  } catch (const GameError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::conflict);
  }
}

// "If simultaneous effects destroy every icon, the result is a draw."
TEST(TruthEnd, SimultaneousDestructionOfEveryIconIsADraw) {
  // Jade's lantern p3 already touches Ivory's icon q2 (a loaded board is not resolved); Ivory's lantern
  // burns Jade's icon, and the reading after the action takes both.
  Session s = at({{"p3", "1L"}, {"e6", "0L"}, {"i12", "1I"}});
  std::vector<Event> ev = s.play("e6-j11");
  EXPECT_EQ(captures(ev), (Caps{"i12 1I by0 100 burn", "q2 0I by1 100 burn"}));
  expect_over(s, json::array(), "all-icons-destroyed");
  EXPECT_EQ(s.state().at("scores"), json::array({100, 100}));
}

// Rulings: "When the game ends: action is 0, acted is [] and door_action_done is false. After an icon loss
// (in an action or in a siege count) or a resignation, to_move and ply stay as they were".
TEST(TruthEnd, AnIconLossInTheSecondActionResetsTheActionFields) {
  Session s = at({{"e4", "0L"}, {"i8", "1I"}}, {{"ply", 6}});
  s.play("o2-n3");
  s.play("e4-h7");
  expect_over(s, json::array({0}), "icon-destroyed");
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_EQ(s.state().at("ply"), 6);
}

TEST(TruthEnd, AResignationKeepsToMoveAndPlyAndResetsTheActionFields) {
  Session s = at({{"e4", "0L"}}, {{"ply", 4}});
  s.play("o2-n3");
  s.offer(0, "resign");
  expect_over(s, json::array({1}), "resignation");
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_EQ(s.state().at("ply"), 4);
}

// ============================================================================================================
// Enclosures and exchanges
// ============================================================================================================

// "Four hostile lanterns on a door's diagonal neighbors destroy the door immediately."
TEST(TruthEnclosure, FourHostileLanternsAroundADoorDestroyIt) {
  Session s = at({{"e6", "1D"}, {"d5", "0L"}, {"f5", "0L"}, {"d7", "0L"}, {"h9", "0L"}});
  std::vector<Event> ev = s.play("h9-f7");
  EXPECT_EQ(captures(ev), (Caps{"e6 1D by0 1 enclosure"}));
  EXPECT_TRUE(empty_at(s, "e6"));
  for (const char* sq : {"d5", "f5", "d7", "f7"}) EXPECT_EQ(piece_at(s, sq), "0L") << sq;
}

// "Four hostile doors surrounding a lantern destroy it immediately."
TEST(TruthEnclosure, FourHostileDoorsAroundALanternDestroyIt) {
  Session s = at({{"e6", "1L"}, {"d5", "0D"}, {"f5", "0D"}, {"d7", "0D"}, {"g8", "0D"}});
  std::vector<Event> ev = s.play("g8-f7");
  EXPECT_EQ(captures(ev), (Caps{"e6 1L by0 1 enclosure"}));
  EXPECT_EQ(s.state().at("scores"), json::array({1, 0}));
}

// Rulings: "Enclosures need four pieces of other armies".
TEST(TruthEnclosure, AnOwnPieceInTheFourBreaksTheEnclosure) {
  Session s = at({{"e6", "1D"}, {"d5", "0L"}, {"f5", "0L"}, {"d7", "1L"}, {"h9", "0L"}});
  std::vector<Event> ev = s.play("h9-f7");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "e6"), "1D");
}

// Rulings: "a piece on the edge cannot be enclosed."
TEST(TruthEnclosure, APieceOnTheEdgeCannotBeEnclosed) {
  Session s = at({{"a8", "1D"}, {"b7", "0L"}, {"e12", "0L"}});
  std::vector<Event> ev = s.play("e12-b9");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "a8"), "1D");
}

// "All completed enclosures and contact effects are read together before any involved pieces are removed."
// Rulings: "every contact and enclosure that holds anywhere on the board are collected on the board as it
// stands after the move, then all victims go at once." Manuscript 21: a lantern and a door each surrounded
// by four of the other kind both go.
TEST(TruthEnclosure, AllEnclosuresAndContactsAreReadTogether) {
  // Jade's door e6 is enclosed by Ivory's lanterns d5 f5 d7 f7; Ivory's lantern f7 by Jade's doors e6 g6
  // e8 g8. Loaded unresolved; any action reads both.
  Session s = at({{"e6", "1D"}, {"d5", "0L"}, {"f5", "0L"}, {"d7", "0L"}, {"f7", "0L"}, {"g6", "1D"}, {"e8", "1D"},
                  {"g8", "1D"}});
  std::vector<Event> ev = s.play("o2-n3");
  EXPECT_EQ(captures(ev), (Caps{"e6 1D by0 1 enclosure", "f7 0L by1 1 enclosure"}));
  EXPECT_EQ(s.state().at("scores"), json::array({1, 1}));
}

// "Thus a piece can complete a capture and be destroyed in the same action."
TEST(TruthEnclosure, APieceCanCompleteACaptureAndBeDestroyedInTheSameAction) {
  // Ivory's door e8-f7 completes the enclosure of Jade's lantern e6 and lands beside Jade's guardian g8.
  Session s = at({{"e6", "1L"}, {"d5", "0D"}, {"f5", "0D"}, {"d7", "0D"}, {"e8", "0D"}, {"g8", "1G"}});
  std::vector<Event> ev = s.play("e8-f7");
  EXPECT_EQ(captures(ev), (Caps{"e6 1L by0 1 enclosure", "f7 0D by1 1 contact"}));
  EXPECT_EQ(s.state().at("scores"), json::array({1, 1}));
  // A linesman crossing a lantern and landing beside a guardian: the same.
  Session t = at({{"h7", "0N"}, {"i8", "1L"}, {"k10", "1G"}});
  ev = t.play("h7-j9");
  EXPECT_EQ(captures(ev), (Caps{"i8 1L by0 1 crossing", "j9 0N by1 5 contact"}));
}

// ============================================================================================================
// When the light and doors are gone
// ============================================================================================================

// "In two-player play, both armies must have lost all their original doors and lanterns."
TEST(TruthTransform, BothArmiesMustHaveLostAllTheirDoorsAndLanterns) {
  Session s = bare({{"q2", "0I"}, {"o2", "0D"}, {"e4", "0L"}, {"a18", "1I"}, {"a16", "1N"}});
  std::vector<Event> ev = turn(s, "o2-n3", "e4-f5");
  EXPECT_TRUE(of_type(ev, "transform").empty());
  EXPECT_EQ(s.state().at("transformed"), json::array());
  EXPECT_EQ(legal(s), (Set{"pass"}));  // Jade's linesman is no door yet
}

// "The transformation activates at the end of the turn, so it applies only after that loss has occurred in
// a previous turn." Rulings: "Nothing a loss changes (roles, obstruction, values) takes effect within the
// turn in which it happened."
TEST(TruthTransform, ActivatesAtTheEndOfTheTurnOfTheLastLoss) {
  Session s = bare({{"j3", "0I"}, {"e4", "0D"}, {"l5", "0G"}, {"a18", "1I"}, {"g6", "1G"}, {"a16", "1N"}});
  std::vector<Event> ev = s.play("e4-f5");  // Ivory's last door dies beside Jade's guardian
  EXPECT_EQ(captures(ev), (Caps{"f5 0D by1 1 contact"}));
  EXPECT_TRUE(of_type(ev, "transform").empty());
  EXPECT_EQ(s.state().at("transformed"), json::array());
  // Still an ordinary guardian within the turn: tethered, at most four squares.
  EXPECT_EQ(dests(s, "l5"), (Set{"m6", "n7", "k6", "j7", "m4", "n3", "k4", "i2", "h1"}));
  ev = s.play("l5-n7");
  const auto tr = of_type(ev, "transform");
  ASSERT_EQ(tr.size(), 2u);
  EXPECT_EQ(tr[0], (json{{"type", "transform"}, {"player", 0}}));
  EXPECT_EQ(tr[1], (json{{"type", "transform"}, {"player", 1}}));
  EXPECT_EQ(s.state().at("transformed"), json::array({0, 1}));
  EXPECT_EQ(s.state().at("to_move"), 1);
  // Jade's guardian now slides as a lantern, untethered.
  EXPECT_TRUE(dests(s, "g6").count("q16"));
  EXPECT_TRUE(dests(s, "g6").count("a12"));
}

TEST(TruthTransform, AGuardianTakenInTheTurnOfTheLastLossIsStillOrdinary) {
  // Ivory's last door dies; then Ivory's icon steps beside Jade's guardian, still ordinary: the icon
  // destroys it (20 points). Were it a lantern-guardian already, it would burn the icon instead.
  Session s = bare({{"j3", "0I"}, {"e4", "0D"}, {"a18", "1I"}, {"g6", "1G"}, {"a16", "1N"}});
  s.play("e4-f5");
  std::vector<Event> ev = s.play("j3-h5");
  EXPECT_EQ(captures(ev), (Caps{"g6 1G by0 20 contact"}));
  EXPECT_EQ(piece_at(s, "h5"), "0I");
  expect_on(s);
  EXPECT_EQ(s.state().at("scores"), json::array({20, 1}));
  EXPECT_EQ(s.state().at("transformed"), json::array({0, 1}));
}

// Rulings: "transformations (checked at every turn end, passes too; whatever the new roles complete is
// resolved at once)"; edition: "Endgame activation resets that blocked-cycle count."
TEST(TruthTransform, IsCheckedAtEveryTurnEndPassesTooAndResolvesWhatTheNewRolesComplete) {
  Session s = bare({{"q2", "0I"}, {"h11", "0N"}, {"j11", "0N"}, {"h13", "0N"}, {"j13", "0S"}, {"i12", "1I"},
                    {"a16", "1N"}});
  EXPECT_EQ(s.state().at("transformed"), json::array());  // nothing transforms on loading
  EXPECT_EQ(legal(s), (Set{"pass"}));
  std::vector<Event> ev = s.play("pass");
  const auto t = types(ev);
  ASSERT_GE(index_of(t, "transform"), 0);
  EXPECT_LT(index_of(t, "pass"), index_of(t, "transform"));
  EXPECT_EQ(of_type(ev, "transform").size(), 2u);
  ASSERT_EQ(of_type(ev, "siege").size(), 1u);  // the door-role linesmen now ring Jade's icon
  EXPECT_EQ(of_type(ev, "siege")[0].at("count"), 0);
  const json st = s.state();
  EXPECT_EQ(st.at("transformed"), json::array({0, 1}));
  EXPECT_EQ(st.at("sieges"), (json{{"i12", 0}}));
  EXPECT_EQ(st.at("blocked_turns"), 0);
  EXPECT_EQ(st.at("to_move"), 1);
  EXPECT_EQ(st.at("ply"), 1);
  EXPECT_FALSE(dests(s, "a16").empty());  // Jade's linesman makes the door action now
}

// Rulings: "After any action, the start-of-play resolution or a transformation, every defender that touches
// an enemy lantern-guardian is destroyed with it". Ivory's guardian g10 stood beside Jade's defender h11 as
// two ordinary guardians; the transformation at the turn end makes g10 an attacker.
TEST(TruthTransform, ADefenderTouchingANewLanternGuardianDiesAtTheTransformation) {
  Session s = bare({{"q2", "0I"}, {"e4", "0D"}, {"g10", "0G"}, {"i12", "1I"}, {"h11", "1G"}, {"g6", "1G"},
                    {"a16", "1N"}});
  std::vector<Event> ev = s.play("e4-f5");  // Ivory's last door dies beside g6
  EXPECT_EQ(captures(ev), (Caps{"f5 0D by1 1 contact"}));
  ev = s.play("q2-o4");
  EXPECT_EQ(of_type(ev, "transform").size(), 2u);
  EXPECT_EQ(captures(ev), (Caps{"g10 0G by1 40 contact", "h11 1G by0 40 contact"}));
  EXPECT_EQ(s.state().at("scores"), json::array({40, 41}));
  EXPECT_EQ(piece_at(s, "i12"), "1I");
  expect_on(s);
}

// "Linesmen and sentries gain door properties for enclosure, obstruction and the required door action,
// while retaining their ordinary movement and jump interactions."
TEST(TruthTransform, LinesmenAndSentriesMakeTheRequiredDoorAction) {
  Session s = bare({{"q2", "0I"}, {"e4", "0N"}, {"h7", "0G"}, {"a18", "1I"}, {"a16", "1N"}}, transformed());
  EXPECT_FALSE(legal(s).count("pass"));
  s.play("h7-i8");
  EXPECT_EQ(s.state().at("door_action_done"), false);
  EXPECT_EQ(origins(s), (Set{"e4"}));
  s.play("e4-g6");
  EXPECT_EQ(s.state().at("to_move"), 1);
}

TEST(TruthTransform, LinesmenAndSentriesKeepTheirMovementAndJumps) {
  // The linesman still leaps two squares (and a sentry, here its own door-role sentry f5, still blocks
  // it); the sentries still leap within their icon's range.
  Session s = bare({{"i8", "0I"}, {"e4", "0N"}, {"f5", "0S"}, {"c10", "0S"}, {"a18", "1I"}, {"a16", "1N"}},
                   transformed());
  EXPECT_EQ(dests(s, "e4"), (Set{"c4", "g4", "e2", "e6", "c2", "g2", "c6"}));
  EXPECT_EQ(dests(s, "c10"), sentry_reach(s, "i8"));
  EXPECT_EQ(dests(s, "f5"), sentry_reach(s, "i8"));
}

// "Guardians gain lantern movement with unlimited diagonal range and no icon tether, while retaining their
// contact attacks."
TEST(TruthLanternGuardian, SlidesWithUnlimitedDiagonalRangeAndNoTether) {
  Session s = bare({{"q2", "0I"}, {"g8", "0G"}, {"o4", "0N"}, {"a18", "1I"}, {"a16", "1N"}}, transformed());
  EXPECT_EQ(dests(s, "g8"), diagonal_rays("g8", {}));
}

TEST(TruthLanternGuardian, KeepsItsContactAttacks) {
  Session s = bare({{"q2", "0I"}, {"g8", "0G"}, {"o4", "0N"}, {"a18", "1I"}, {"a16", "1N"}, {"d13", "1N"}},
                   transformed());
  std::vector<Event> ev = s.play("g8-c12");
  EXPECT_EQ(captures(ev), (Caps{"d13 1N by0 5 contact"}));
}

// "These lantern-guardians can burn enemy icons."
TEST(TruthLanternGuardian, BurnsEnemyIcons) {
  Session s = bare({{"q2", "0I"}, {"g8", "0G"}, {"o4", "0N"}, {"k14", "1I"}, {"a16", "1N"}}, transformed());
  std::vector<Event> ev = s.play("g8-l13");
  EXPECT_EQ(captures(ev), (Caps{"k14 1I by0 100 burn"}));
  expect_over(s, json::array({0}), "icon-destroyed");
  // …and an icon stepping beside one is burned too.
  Session t = bare({{"q2", "0I"}, {"f9", "0G"}, {"o4", "0N"}, {"i12", "1I"}, {"a16", "1N"}},
                   with(transformed(), {{"to_move", 1}, {"ply", 1}}));
  ev = t.play("i12-g10");
  EXPECT_EQ(captures(ev), (Caps{"g10 1I by0 100 burn"}));
  EXPECT_EQ(piece_at(t, "f9"), "0G");  // icons destroy only ordinary guardians
}

// "Transformed linesmen and sentries obstruct their passage and are destroyed by their diagonal contact."
// Rulings: lanterns and lantern-guardians are blocked by doors and icons of every army and by the linesmen
// and sentries of every transformed army.
TEST(TruthLanternGuardian, DoorRoleLinesmenAndSentriesObstructItAndOthersAreCrossed) {
  Session s = bare({{"q2", "0I"}, {"g8", "0G"}, {"i10", "0N"}, {"o4", "0N"}, {"a18", "1I"}, {"e10", "1S"},
                    {"h7", "1G"}, {"a16", "1N"}},
                   transformed());
  EXPECT_EQ(dests(s, "g8"), (Set{"h9", "f9", "i6", "j5", "k4", "l3", "m2", "n1", "f7", "e6", "d5", "c4", "b3",
                                 "a2"}));
  std::vector<Event> ev = s.play("g8-f9");  // lands beside the sentry e10
  EXPECT_EQ(captures(ev), (Caps{"e10 1S by0 5 contact"}));
}

// Rulings used by this edition: "Transformed guardians count as lanterns for linesman attacks and fourfold
// enclosures." Edition: "A transformed guardian is worth 40."
TEST(TruthLanternGuardian, ALinesmanCrossingItDestroysItForFortyPoints) {
  Session s = bare({{"q2", "0I"}, {"h7", "0N"}, {"a18", "1I"}, {"i8", "1G"}, {"a16", "1N"}}, transformed());
  std::vector<Event> ev = s.play("h7-j9");
  // The linesman lands beside the guardian it crossed: read together, both go.
  EXPECT_EQ(captures(ev), (Caps{"i8 1G by0 40 crossing", "j9 0N by1 5 contact"}));
  EXPECT_EQ(s.state().at("scores"), json::array({40, 5}));
}

TEST(TruthLanternGuardian, FourDoorRolePiecesEncloseIt) {
  // Reading: the four door-role enclosers touch the lantern-guardian, which destroys them by contact; all
  // is read together, so the guardian (enclosure, 40) and the four (contact) all go.
  Session s = bare({{"i8", "0I"}, {"d5", "0N"}, {"f5", "0S"}, {"d7", "0N"}, {"f9", "0S"}, {"a18", "1I"},
                    {"e6", "1G"}, {"a16", "1N"}},
                   transformed());
  std::vector<Event> ev = s.play("f9-f7");
  EXPECT_EQ(captures(ev), (Caps{"e6 1G by0 40 enclosure", "d5 0N by1 5 contact", "f5 0S by1 5 contact",
                                "d7 0N by1 5 contact", "f7 0S by1 5 contact"}));
}

// Rulings: "guardians never destroy guardians by contact" — lantern-guardians included.
TEST(TruthLanternGuardian, GuardiansNeverDestroyGuardiansByContact) {
  Session s = bare({{"q2", "0I"}, {"g8", "0G"}, {"o4", "0N"}, {"a18", "1I"}, {"d13", "1G"}, {"a16", "1N"}},
                   transformed());
  std::vector<Event> ev = s.play("g8-c12");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "d13"), "1G");
}

// ============================================================================================================
// Interception
// ============================================================================================================

// Jade: icon i12 with its defender h11; Ivory: an attacking lantern-guardian, icon q2, a linesman o4 for the
// door action. Both armies transformed.
Pieces guarded(Pieces extra) {
  Pieces p = {{"q2", "0I"}, {"o4", "0N"}, {"i12", "1I"}, {"h11", "1G"}, {"a16", "1N"}};
  p.insert(p.end(), extra.begin(), extra.end());
  return p;
}

// "A guardian diagonally adjoining its own icon can intercept an enemy lantern-guardian. If the attacker
// touches that defender or attempts to cross it, both guardians are destroyed before the icon can be burned
// by that attacker." Rulings: "each loss is credited to the other piece's owner".
TEST(TruthInterception, AnAttackerTouchingADefenderDiesWithIt) {
  Session s = bare(guarded({{"c6", "0G"}}), transformed());
  std::vector<Event> ev = s.play("c6-g10");
  EXPECT_EQ(captures(ev), (Caps{"g10 0G by1 40 interception", "h11 1G by0 40 interception"}));
  EXPECT_TRUE(empty_at(s, "g10"));
  EXPECT_TRUE(empty_at(s, "h11"));
  EXPECT_EQ(piece_at(s, "i12"), "1I");
  EXPECT_EQ(s.state().at("scores"), json::array({40, 40}));
  expect_on(s);
}

TEST(TruthInterception, AnAttackerCrossingADefenderDiesWithIt) {
  // The attacker i10 (loaded beside h11) slides over h11 towards f13.
  Session s = bare(guarded({{"i10", "0G"}}), transformed());
  EXPECT_TRUE(dests(s, "i10").count("f13"));
  std::vector<Event> ev = s.play("i10-f13");
  Caps c = captures(ev);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c.count("h11 1G by0 40 interception"), 1u);
  EXPECT_TRUE(std::any_of(c.begin(), c.end(),
                          [](const std::string& x) { return x.find(" 0G by1 40 interception") != std::string::npos; }));
  EXPECT_TRUE(empty_at(s, "f13"));
  EXPECT_TRUE(empty_at(s, "g12"));
  EXPECT_EQ(piece_at(s, "i12"), "1I");
  expect_on(s);
}

// "Interception is checked at every diagonal step along the attacking guardian's route, including contact
// beside a defender; it cannot slide past that contact to burn the icon." Rulings: "An intercepted slide is
// written and played to its full destination; the attacker dies at the first square entered where
// interception happens" and "the attacker has no other effect".
TEST(TruthInterception, CheckedAtEveryStepTheAttackerCannotSlidePastToBurn) {
  // f7-j11 passes i10, which touches the defender h11; j11 would touch the icon i12 and Jade's linesman k10.
  Session s = bare(guarded({{"f7", "0G"}, {"k10", "1N"}}), transformed());
  std::vector<Event> ev = s.play("f7-j11");
  const auto moves = of_type(ev, "move");
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].at("to"), "j11");
  EXPECT_EQ(captures(ev), (Caps{"i10 0G by1 40 interception", "h11 1G by0 40 interception"}));
  EXPECT_EQ(piece_at(s, "i12"), "1I");
  EXPECT_EQ(piece_at(s, "k10"), "1N");
  for (const char* sq : {"f7", "i10", "j11"}) EXPECT_TRUE(empty_at(s, sq)) << sq;
  expect_on(s);
}

// Rulings: "Interception never removes a destination: a lantern-guardian's legal actions are all its
// lantern moves."
TEST(TruthInterception, InterceptionNeverRemovesADestination) {
  Session s = bare(guarded({{"f7", "0G"}}), transformed());
  EXPECT_EQ(dests(s, "f7"), diagonal_rays("f7", {}));
}

// Rulings: "every enemy defender on or touching that square dies with it."
TEST(TruthInterception, EveryDefenderTouchingTheSquareDiesWithTheAttacker) {
  Session s = bare(guarded({{"f7", "0G"}, {"j11", "1G"}}), transformed());
  std::vector<Event> ev = s.play("f7-i10");
  EXPECT_EQ(captures(ev), (Caps{"i10 0G by1 40 interception", "h11 1G by0 40 interception",
                                "j11 1G by0 40 interception"}));
  EXPECT_EQ(s.state().at("scores"), json::array({80, 40}));
}

// "Other simultaneous attackers still resolve their own contacts."
TEST(TruthInterception, OtherSimultaneousAttackersStillResolveTheirContacts) {
  // Ivory's second lantern-guardian j13 already touches Jade's icon (a loaded board is not resolved); the
  // intercepted attacker does not save the icon from it.
  Session s = bare(guarded({{"f7", "0G"}, {"j13", "0G"}}), transformed());
  std::vector<Event> ev = s.play("f7-j11");
  EXPECT_EQ(captures(ev), (Caps{"i10 0G by1 40 interception", "h11 1G by0 40 interception",
                                "i12 1I by0 100 burn"}));
  expect_over(s, json::array({0}), "icon-destroyed");
}

// Rulings: "A defender and an attacker that come to touch after any action also destroy each other; each
// loss is credited to the other piece's owner." and "After any action … every defender that touches an
// enemy lantern-guardian is destroyed with it, whatever moved (an icon's step that turns an adjacent
// guardian into a defender included)."
TEST(TruthInterception, AnIconStepThatMakesADefenderTouchingAnAttackerDestroysBoth) {
  Session s = bare({{"q2", "0I"}, {"g10", "0G"}, {"o4", "0N"}, {"k14", "1I"}, {"h11", "1G"}, {"a16", "1N"}},
                   with(transformed(), {{"to_move", 1}, {"ply", 1}}));
  std::vector<Event> ev = s.play("k14-i12");
  EXPECT_EQ(captures(ev), (Caps{"g10 0G by1 40 contact", "h11 1G by0 40 contact"}));
  EXPECT_EQ(piece_at(s, "i12"), "1I");
  expect_on(s);
}

// Rulings: "Unlike an interception on a route, this does not cancel other effects of the same reading."
TEST(TruthInterception, ATouchAfterAnActionDoesNotCancelOtherEffects) {
  // Jade's icon jumps k14-i12 over Ivory's lantern-guardian j13, making h11 a defender that touches g10;
  // j13 now touches the icon and burns it.
  Session s = bare({{"q2", "0I"}, {"g10", "0G"}, {"j13", "0G"}, {"o4", "0N"}, {"k14", "1I"}, {"h11", "1G"},
                    {"a16", "1N"}},
                   with(transformed(), {{"to_move", 1}, {"ply", 1}}));
  std::vector<Event> ev = s.play("k14-i12");
  EXPECT_EQ(captures(ev), (Caps{"g10 0G by1 40 contact", "h11 1G by0 40 contact", "i12 1I by0 100 burn"}));
  expect_over(s, json::array({0}), "icon-destroyed");
}

// Rulings: "a defender is any guardian diagonally adjacent to its own icon; an attacker is an enemy
// lantern-guardian" — an army's own defender does not stop its own lantern-guardian.
TEST(TruthInterception, OwnDefendersDoNotIntercept) {
  // Ivory's g12-c8 passes e10, beside Ivory's own defender f9 (next to Ivory's icon e8).
  Session s = bare({{"e8", "0I"}, {"f9", "0G"}, {"g12", "0G"}, {"o4", "0N"}, {"a18", "1I"}, {"a16", "1N"}},
                   transformed());
  std::vector<Event> ev = s.play("g12-c8");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "c8"), "0G");
  EXPECT_EQ(piece_at(s, "f9"), "0G");
}

// Rulings: "Defenders do not destroy ordinary guardians."
TEST(TruthInterception, DefendersDoNotDestroyOrdinaryGuardians) {
  Session s = at({{"e8", "0I"}, {"e12", "0G"}, {"i12", "1I"}, {"h11", "1G"}});
  std::vector<Event> ev = s.play("e12-g10");
  EXPECT_TRUE(captures(ev).empty());
  EXPECT_EQ(piece_at(s, "g10"), "0G");
  EXPECT_EQ(piece_at(s, "h11"), "1G");
}

// ============================================================================================================
// Score
// ============================================================================================================

// "Doors and lanterns are worth 1 point each; linesmen and sentries 5; guardians 20; icons 100."
TEST(TruthScore, DoorsAndLanternsOneLinesmenAndSentriesFiveGuardiansTwentyIconsHundred) {
  // One sentry leap b1-i8 crosses d3 (guardian), e4 (door), f5 (lantern), g6 (linesman), h7 (sentry).
  Session s = at({{"m8", "0I"}, {"b1", "0S"}, {"d3", "1G"}, {"e4", "1D"}, {"f5", "1L"}, {"g6", "1N"}, {"h7", "1S"}});
  std::vector<Event> ev = s.play("b1-i8");
  EXPECT_EQ(captures(ev), (Caps{"d3 1G by0 20 crossing", "e4 1D by0 1 crossing", "f5 1L by0 1 crossing",
                                "g6 1N by0 5 crossing", "h7 1S by0 5 crossing"}));
  EXPECT_EQ(s.state().at("scores"), json::array({32, 0}));
  Session t = at({{"e4", "0L"}, {"i8", "1I"}}, {{"scores", json::array({7, 3})}});
  t.play("e4-h7");
  EXPECT_EQ(t.state().at("scores"), json::array({107, 3}));
}

// "A transformed guardian is worth 40." Rulings: "A guardian is worth 40 if its army is transformed when it
// is removed."
TEST(TruthScore, ATransformedGuardianIsWorthForty) {
  // A sentry's leap d3-h7 crosses Jade's lantern-guardian f5 and lands away from it.
  Session s = bare({{"i8", "0I"}, {"d3", "0S"}, {"a18", "1I"}, {"f5", "1G"}, {"a16", "1N"}}, transformed());
  std::vector<Event> ev = s.play("d3-h7");
  EXPECT_EQ(captures(ev), (Caps{"f5 1G by0 40 crossing"}));
  EXPECT_EQ(s.state().at("scores"), json::array({40, 0}));
}

// "The original army totals 210 points."
TEST(TruthScore, TheOriginalArmyTotals210Points) {
  int total = 0;
  for (auto [k, n] : kArmy) total += n * kValue.at(k);
  EXPECT_EQ(total, 210);
  Session s = Session::create("truth", {{"players", 2}});
  for (Player p : {0, 1}) {
    int sum = 0;
    const json a = s.game().arrangement(p, "suggested", 0);
    for (auto& [sq, k] : a.items()) sum += kValue.at(k.get<std::string>()[0]);
    EXPECT_EQ(sum, 210);
  }
}

// "Captures credit the opposing owner who caused the loss, including an icon or guardian causing a jumper's
// destruction." Rulings: "Credit for a loss goes to the owner of the attacking piece(s), whoever moved".
TEST(TruthCredit, TheOpposingOwnerWhoCausedTheLossIsCreditedWhoeverMoved) {
  Session s = at({{"e4", "0D"}, {"g6", "1G"}});
  std::vector<Event> ev = s.play("e4-f5");  // Ivory moved; Jade's guardian caused the loss
  EXPECT_EQ(captures(ev), (Caps{"f5 0D by1 1 contact"}));
  EXPECT_EQ(s.state().at("scores"), json::array({0, 1}));
}

TEST(TruthCredit, AnIconOrGuardianCausingAJumpersDestructionIsCredited) {
  Session s = at({{"h7", "0N"}, {"i8", "1I"}});
  EXPECT_EQ(captures(s.play("h7-j9")), (Caps{"j9 0N by1 5 crossing"}));
  Session t = at({{"c6", "0I"}, {"c2", "0S"}, {"f5", "1G"}});
  EXPECT_EQ(captures(t.play("c2-g6")), (Caps{"f5 1G by0 20 crossing", "g6 0S by1 5 crossing"}));
}

// Rulings used by this edition: "No player receives points for their own loss."
TEST(TruthCredit, NoPlayerReceivesPointsForTheirOwnLoss) {
  Session s = at({{"h7", "0N"}, {"i8", "0I"}}, {{"scores", json::array({3, 4})}});
  EXPECT_EQ(captures(s.play("h7-j9")), (Caps{"j9 0N by- 0 crossing"}));
  EXPECT_EQ(s.state().at("scores"), json::array({3, 4}));
}

// Rulings: "Scores are part of the public state and shown all game long."
TEST(TruthScore, ScoresArePublicAllGameLong) {
  Session s = at({{"e4", "0L"}}, {{"scores", json::array({12, 30})}});
  EXPECT_EQ(s.state().at("scores"), json::array({12, 30}));
  EXPECT_EQ(s.observation(1).at("scores"), json::array({12, 30}));
  EXPECT_EQ(s.observation(kSpectator).at("scores"), json::array({12, 30}));
}

// ============================================================================================================
// Stalemate and the ends by score
// ============================================================================================================

// "If every player has no complete legal turn for a full cycle, the engine ends the game by score" Rulings:
// "a blocked cycle (as many consecutive passes as there are players …)"; after an end by score to_move and
// ply "have already moved on to the next turn".
TEST(TruthBlocked, AFullCycleOfBlockedTurnsEndsTheGameByScore) {
  // Neither side has a door; Ivory's lantern cannot reach b17, the only square beside Jade's icon.
  Session s = bare({{"q2", "0I"}, {"e4", "0L"}, {"a18", "1I"}, {"b17", "1N"}}, {{"scores", json::array({0, 5})}});
  EXPECT_EQ(legal(s), (Set{"pass"}));
  s.play("pass");
  expect_on(s);
  EXPECT_EQ(s.state().at("blocked_turns"), 1);
  EXPECT_EQ(s.state().at("to_move"), 1);
  EXPECT_EQ(legal(s), (Set{"pass"}));
  std::vector<Event> ev = s.play("pass");
  expect_over(s, json::array({1}), "blocked-cycle");
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_EQ(s.state().at("ply"), 2);
  EXPECT_EQ(of_type(ev, "over").size(), 1u);
}

// "…unless an active siege still needs to resolve." Rulings: "passes while an icon is ringed still count,
// but the game ends only at a turn end with no ring standing".
TEST(TruthBlocked, ABlockedCycleWaitsForAStandingRing) {
  // Jade's icon b17 is ringed by Ivory's doors a16 c16 a18 c18, which Jade's linesmen b15 d15 d17 box in.
  Session s = bare({{"q2", "0I"}, {"a16", "0D"}, {"c16", "0D"}, {"a18", "0D"}, {"c18", "0D"}, {"b17", "1I"},
                    {"b15", "1N"}, {"d15", "1N"}, {"d17", "1N"}},
                   {{"sieges", {{"b17", 0}}}});
  EXPECT_EQ(legal(s), (Set{"pass"}));
  s.play("pass");
  EXPECT_EQ(legal(s), (Set{"pass"}));
  s.play("pass");  // a full blocked cycle, but the ring stands
  expect_on(s);
  EXPECT_EQ(s.state().at("sieges"), (json{{"b17", 1}}));
  EXPECT_EQ(s.state().at("blocked_turns"), 2);
  s.play("pass");
  std::vector<Event> ev = s.play("pass");
  EXPECT_EQ(captures(ev), (Caps{"b17 1I by0 100 siege"}));
  expect_over(s, json::array({0}), "icon-destroyed");
  EXPECT_EQ(s.state().at("to_move"), 1);
  EXPECT_EQ(s.state().at("ply"), 3);
}

// Rulings: "a non-pass turn or a transformation resets the count".
TEST(TruthBlocked, ACompleteTurnResetsTheBlockedCount) {
  Session s = at({{"e4", "0D"}, {"e14", "1L"}, {"e6", "0L"}}, {{"blocked_turns", 1}});
  turn(s, "e4-f5", "o2-n3");
  EXPECT_EQ(s.state().at("blocked_turns"), 0);
}

// "If all lanterns and guardians are gone and no opposing set of four present or future door-role pieces
// remains, no icon can be destroyed: the engine finishes the current round, then settles its final scores
// under rule 23." Rulings: "automatic stalemate, checked at the end of each round".
TEST(TruthStalemate, AutomaticStalemateAtTheEndOfTheRound) {
  Session s = bare({{"q2", "0I"}, {"o2", "0D"}, {"q4", "0D"}, {"k2", "0D"}, {"a18", "1I"}, {"c18", "1D"},
                    {"a16", "1D"}},
                   {{"scores", json::array({3, 1})}});
  turn(s, "o2-n3", "q4-p5");
  expect_on(s);  // the round is not over yet
  std::vector<Event> ev = turn(s, "c18-d17", "a16-b15");
  expect_over(s, json::array({0}), "stalemate");
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_EQ(s.state().at("ply"), 2);
}

TEST(TruthStalemate, FourOpposingDoorRolePiecesKeepTheGameGoing) {
  // Ivory keeps four door-role pieces (three doors and a linesman) against Jade's icon.
  Session s = bare({{"q2", "0I"}, {"o2", "0D"}, {"q4", "0D"}, {"k2", "0D"}, {"g2", "0N"}, {"a18", "1I"},
                    {"c18", "1D"}, {"a16", "1D"}});
  turn(s, "o2-n3", "q4-p5");
  turn(s, "c18-d17", "a16-b15");
  expect_on(s);
}

TEST(TruthStalemate, AGuardianOnTheBoardKeepsTheGameGoing) {
  Session s = bare({{"q2", "0I"}, {"o2", "0D"}, {"q4", "0D"}, {"a18", "1I"}, {"c18", "1D"}, {"a16", "1D"},
                    {"c16", "1G"}});
  turn(s, "o2-n3", "q4-p5");
  turn(s, "c18-d17", "a16-b15");
  expect_on(s);
}

// Rulings: "the players with the highest score share the win; when every player has it, the game is a
// draw, `winners: []`".
TEST(TruthStalemate, EqualTopScoresShareTheResult) {
  Session s = bare({{"q2", "0I"}, {"o2", "0D"}, {"q4", "0D"}, {"a18", "1I"}, {"c18", "1D"}, {"a16", "1D"}},
                   {{"scores", json::array({4, 4})}});
  turn(s, "o2-n3", "q4-p5");
  turn(s, "c18-d17", "a16-b15");
  expect_over(s, json::array(), "stalemate");
}

// "The engine does not claim to solve every possible future position." — a lantern on the board keeps the
// game going even where no icon could ever be reached.
TEST(TruthStalemate, TheEngineDoesNotDeclareAStalemateWhileALanternStands) {
  Session s = bare({{"q2", "0I"}, {"o2", "0D"}, {"q4", "0D"}, {"a18", "1I"}, {"c18", "1D"}, {"a16", "1D"},
                    {"k2", "0L"}});
  turn(s, "o2-n3", "q4-p5");
  turn(s, "c18-d17", "a16-b15");
  expect_on(s);
}

// "Strategic stalemate … requires agreement at the table: use Agree to scored stalemate" + "The agreed
// stalemate takes effect at the end of the current round; those final captured-point totals decide the
// result; equal top scores share it." Rulings: "agreement needs every player whose icon stands … the
// stalemate takes effect at the first round end at which every such player agrees."
Pieces lively() { return {{"e4", "0L"}, {"e14", "1L"}}; }

TEST(TruthStalemate, AnAgreedStalemateTakesEffectAtTheEndOfTheRound) {
  Session s = at(lively(), {{"scores", json::array({2, 5})}});
  std::vector<Event> ev = s.offer(0, "stalemate");
  ASSERT_EQ(of_type(ev, "offer").size(), 1u);
  EXPECT_EQ(of_type(ev, "offer")[0].at("what"), "stalemate");
  EXPECT_EQ(s.state().at("stalemate_agreed"), json::array({0}));
  s.offer(1, "stalemate");  // not bound to the turn
  EXPECT_EQ(s.state().at("stalemate_agreed"), json::array({0, 1}));
  expect_on(s);
  turn(s, "o2-n3", "q4-p5");
  expect_on(s);
  turn(s, "c18-d17", "a16-b15");
  expect_over(s, json::array({1}), "scored-stalemate");
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_EQ(s.state().at("ply"), 2);
}

TEST(TruthStalemate, AnAgreedStalemateWithEqualScoresIsShared) {
  Session s = at(lively(), {{"scores", json::array({3, 3})}, {"to_move", 1}, {"ply", 1}});
  s.offer(1, "stalemate");
  s.offer(0, "stalemate");
  turn(s, "c18-d17", "a16-b15");  // Jade's turn ends the round
  expect_over(s, json::array(), "scored-stalemate");
}

// Rulings: "An agreement lasts until withdrawn".
TEST(TruthStalemate, AnAgreementLastsUntilWithdrawn) {
  Session s = at(lively(), {{"scores", json::array({1, 0})}});
  s.offer(0, "stalemate");
  turn(s, "o2-n3", "q4-p5");
  turn(s, "c18-d17", "a16-b15");
  expect_on(s);
  EXPECT_EQ(s.state().at("stalemate_agreed"), json::array({0}));
  turn(s, "n3-m4", "p5-o6");
  s.offer(1, "stalemate");  // agreed in the next round, during Jade's turn
  turn(s, "d17-e16", "b15-c14");
  expect_over(s, json::array({0}), "scored-stalemate");
}

TEST(TruthStalemate, AnAgreementNeedsBothPlayersAndMayBeWithdrawn) {
  Session s = at(lively());
  s.offer(0, "stalemate");
  turn(s, "o2-n3", "q4-p5");
  turn(s, "c18-d17", "a16-b15");
  expect_on(s);  // Jade never agreed
  s.offer(1, "stalemate");
  std::vector<Event> ev = s.offer(0, "withdraw");
  EXPECT_EQ(of_type(ev, "offer").at(0).at("what"), "withdraw");
  EXPECT_EQ(s.state().at("stalemate_agreed"), json::array({1}));
  turn(s, "n3-m4", "p5-o6");
  turn(s, "d17-e16", "b15-c14");
  expect_on(s);
}

// Rulings: "as a digital safeguard, the option `max_plies` (default 2000 turns, reason `ply-limit`)" and
// "The ply limit is checked at every turn end after `ply` increases and ends the game when `ply` ≥
// `max_plies`, whatever rings stand." Also "`sieges` lists the rings still standing on the final board."
TEST(TruthPlyLimit, ThePlyLimitEndsTheGameWhateverRingsStand) {
  Session s = at({{"i12", "1I"}, {"h11", "0D"}, {"j11", "0D"}, {"h13", "0D"}, {"j13", "0D"}},
                 {{"options", {{"players", 2}, {"max_plies", 4}}}, {"ply", 2}});
  EXPECT_EQ(s.state().at("options").at("max_plies"), 4);
  turn(s, "o2-n3", "q4-p5");
  expect_on(s);
  turn(s, "c18-d17", "a16-b15");
  expect_over(s, json::array(), "ply-limit");
  EXPECT_EQ(s.state().at("ply"), 4);
  EXPECT_EQ(s.state().at("to_move"), 0);
  EXPECT_EQ(s.state().at("sieges"), (json{{"i12", 1}}));
}

// Rulings: "An icon loss ends the game at once" (before the ends by score), and after an icon loss in a
// siege count "to_move and ply stay as they were".
TEST(TruthPlyLimit, AnIconLostInTheLastSiegeCountWinsOverThePlyLimit) {
  Session s = at({{"i12", "1I"}, {"h11", "0D"}, {"j11", "0D"}, {"h13", "0D"}, {"j13", "0D"}},
                 {{"options", {{"players", 2}, {"max_plies", 4}}}, {"to_move", 1}, {"ply", 3}, {"sieges", {{"i12", 1}}}});
  turn(s, "c18-d17", "a16-b15");
  expect_over(s, json::array({0}), "icon-destroyed");
  EXPECT_EQ(s.state().at("ply"), 3);
  EXPECT_EQ(s.state().at("to_move"), 1);
}

TEST(TruthPlyLimit, IsCheckedAtEveryTurnEnd) {
  Session s = at(lively(), {{"options", {{"players", 2}, {"max_plies", 3}}}, {"ply", 2}, {"scores", json::array({1, 0})}});
  turn(s, "o2-n3", "q4-p5");
  expect_over(s, json::array({0}), "ply-limit");
  EXPECT_EQ(s.state().at("ply"), 3);
  EXPECT_EQ(s.state().at("to_move"), 1);
}

// Rulings: "An icon loss ends the game at once; otherwise the reason order is `blocked-cycle`, `stalemate`
// (automatic), `scored-stalemate` (agreed), `ply-limit`."
TEST(TruthEnd, EndsByScoreFollowTheRulingsOrder) {
  // Only the icons (already transformed, so no transformation resets the count): two blocked passes
  // complete a cycle at the round end where the automatic stalemate holds too.
  Session a = bare({{"q2", "0I"}, {"a18", "1I"}}, transformed());
  a.play("pass");
  a.play("pass");
  expect_over(a, json::array(), "blocked-cycle");
  // Automatic and agreed stalemate at the same round end.
  Session b = bare({{"q2", "0I"}, {"o2", "0D"}, {"q4", "0D"}, {"a18", "1I"}, {"c18", "1D"}, {"a16", "1D"}},
                   {{"scores", json::array({0, 2})}});
  b.offer(0, "stalemate");
  b.offer(1, "stalemate");
  turn(b, "o2-n3", "q4-p5");
  turn(b, "c18-d17", "a16-b15");
  expect_over(b, json::array({1}), "stalemate");
  // Agreed stalemate and the ply limit at the same round end.
  Session c = at(lively(), {{"options", {{"players", 2}, {"max_plies", 2}}}});
  c.offer(0, "stalemate");
  c.offer(1, "stalemate");
  turn(c, "o2-n3", "q4-p5");
  turn(c, "c18-d17", "a16-b15");
  expect_over(c, json::array(), "scored-stalemate");
}

// Contract: the agreement is made "by a seat whose icon stands, in play".
TEST(TruthStalemate, NoAgreementBeforePlayBegins) {
  Session s = Session::create("truth", {{"players", 2}});
  EXPECT_THROW(s.offer(0, "stalemate"), GameError);
  EXPECT_EQ(s.state().at("stalemate_agreed"), json::array());
}

// Rulings: "Players: 2-player … 4-player …"; any other count is refused with a clear error.
TEST(TruthOptions, TwoOrFourPlayersAndNoOtherCount) {
  EXPECT_EQ(Session::create("truth", {{"players", 4}}).num_players(), 4);
  EXPECT_EQ(Session::create("truth", {{"players", 2}}).num_players(), 2);
  for (int n : {0, 1, 3, 5}) {
    try {
      Session::create("truth", {{"players", n}});
      ADD_FAILURE() << "a " << n << "-player game was created";
    } catch (const GameError& e) {
      EXPECT_NE(std::string(e.what()).find("players"), std::string::npos) << e.what();
    }
  }
}

TEST(TruthPlyLimit, DefaultsTo2000) {
  EXPECT_EQ(Session::create("truth", {{"players", 2}}).state().at("options").at("max_plies"), 2000);
}

// ============================================================================================================
// Rulings used by this edition: touch
// ============================================================================================================

// "'Touch' means an adjoining diagonal square."
TEST(TruthContact, TouchMeansAnAdjoiningDiagonalSquare) {
  // The guardian lands on g6: e6 (two files away), g8 (two ranks away) and i8 (two diagonal steps) are not
  // touched; f7 is.
  Session s = at({{"c6", "0I"}, {"e4", "0G"}, {"e6", "1D"}, {"g8", "1D"}, {"i8", "1D"}, {"f7", "1D"}});
  std::vector<Event> ev = s.play("e4-g6");
  EXPECT_EQ(captures(ev), (Caps{"f7 1D by0 1 contact"}));
}

// ============================================================================================================
// Loading states
// ============================================================================================================

// Rulings: "A state given to `new` is taken as it is: nothing is resolved or transformed on loading (the
// next action or turn end does that)." Engine protocol: "fields left out take their initial values".
TEST(TruthState, NothingIsResolvedOnLoadingTheNextActionDoesIt) {
  Session s = at({{"e4", "0G"}, {"f5", "1D"}});
  EXPECT_EQ(piece_at(s, "f5"), "1D");
  EXPECT_EQ(s.state().at("scores"), json::array({0, 0}));
  std::vector<Event> ev = s.play("o2-n3");
  EXPECT_EQ(captures(ev), (Caps{"f5 1D by0 1 contact"}));
}

TEST(TruthState, FieldsLeftOutTakeTheirInitialValues) {
  Session s = Session::from_state("truth", json{{"board", {{"q2", "0I"}, {"a18", "1I"}, {"o2", "0D"}, {"q4", "0D"}}},
                                                {"phase", "play"}});
  const json st = s.state();
  EXPECT_EQ(st.at("game"), "truth");
  EXPECT_EQ(st.at("options"), (json{{"players", 2}, {"max_plies", 2000}}));
  EXPECT_EQ(st.at("to_move"), 0);
  EXPECT_EQ(st.at("ply"), 0);
  EXPECT_TRUE(st.at("result").is_null());
  EXPECT_EQ(st.at("scores"), json::array({0, 0}));
  EXPECT_EQ(st.at("transformed"), json::array());
  EXPECT_EQ(st.at("sieges"), json::object());
  EXPECT_EQ(st.at("action"), 0);
  EXPECT_EQ(st.at("acted"), json::array());
  EXPECT_EQ(st.at("door_action_done"), false);
  EXPECT_EQ(st.at("blocked_turns"), 0);
  EXPECT_EQ(st.at("stalemate_agreed"), json::array());
}

TEST(TruthState, BadStatesAreRefused) {
  const Pieces ok = {{"e4", "0L"}};
  auto with_field = [&](const char* key, const json& v) { return with(make_state(ok, json::object(), true), {{key, v}}); };
  EXPECT_NO_THROW(Session::from_state("truth", make_state(ok, json::object(), true)));
  expect_bad_state(with_field("game", "stratego"), "another game");
  expect_bad_state(with_field("options", {{"players", 3}}), "three players");
  expect_bad_state(with_field("options", {{"players", 2}, {"colour", "red"}}), "unknown option");
  expect_bad_state(with_field("to_move", 2), "to_move 2 in a 2-player game");
  expect_bad_state(with_field("action", 2), "action 2");
  expect_bad_state(with_field("phase", "dancing"), "unknown phase");
  expect_bad_state(with_field("board", {{"e4", "0X"}}), "unknown kind");
  expect_bad_state(with_field("board", {{"e4", "2D"}}), "player 2");
  expect_bad_state(with_field("board", {{"e4", "D"}}), "no player digit");
  expect_bad_state(with_field("board", {{"e5", "0D"}}), "black square");
  expect_bad_state(with_field("board", json::array()), "board not an object");
  expect_bad_state(json::array(), "state not an object");
  expect_bad_state(with_field("scores", "many"), "scores not a list");
}

// Reading: an army never has more pieces of a kind than the 41 it starts with (20 doors …), so a state with
// 21 Ivory doors or two Ivory icons is not a Truth position.
TEST(TruthState, MorePiecesOfAKindThanAnArmyHasIsRefused) {
  Pieces doors;
  for (int f = 0; f < 17 && doors.size() < 21; ++f)
    for (int r = 1; r <= 5 && doors.size() < 21; ++r)
      if (white(f, r) && square(f, r) != "q2") doors.push_back({square(f, r), "0D"});
  ASSERT_EQ(doors.size(), 21u);
  expect_bad_state(make_state(doors, json::object(), true), "21 doors");
  expect_bad_state(make_state({{"e4", "0I"}, {"g4", "0I"}}, json::object(), true), "two icons");
}

TEST(TruthOptions, UnknownOptionsAndPlayerCountsAreRefused) {
  EXPECT_THROW(Session::create("truth", {{"players", 3}}), GameError);
  EXPECT_THROW(Session::create("truth", {{"players", 2}, {"speed", 1}}), GameError);
  EXPECT_NO_THROW(Session::create("truth", {{"players", 2}}));
}

// ============================================================================================================
// Danger marks (Game::danger_for): not a rule, what the board points out to a player
// ============================================================================================================


json marks_of(const Session& s, const std::string& why) {
  json out = json::array();
  for (const json& m : s.game().danger_for(0))
    if (m.at("why") == why) out.push_back(m);
  return out;
}

TEST(TruthDanger, AnIconAnEnemyLanternCanBurnOnItsNextTurnIsMarked) {
  // Ivory's lantern e4 can end on h7, beside Jade's icon i8, with its first action.
  Session s = at({{"e4", "0L"}, {"i8", "1I"}});
  EXPECT_EQ(marks_of(s, "icon-burnable"),
            json::array({json{{"square", "i8"}, {"player", 1}, {"why", "icon-burnable"}, {"by", {0}}}}));
  // The same whoever is to move: Jade sees the threat on its own turn too.
  Session t = at({{"e4", "0L"}, {"i8", "1I"}}, {{"to_move", 1}, {"ply", 1}});
  EXPECT_EQ(marks_of(t, "icon-burnable").size(), 1u);
  // An own lantern threatens nothing.
  Session u = at({{"e4", "0L"}, {"i8", "0I"}});
  EXPECT_EQ(marks_of(u, "icon-burnable"), json::array());
}

TEST(TruthDanger, AnIconWhoseSiegeIsCountingIsMarkedWithTheCount) {
  Session s = at({{"i12", "1I"}, {"h11", "0D"}, {"j11", "0D"}, {"h13", "0D"}, {"k14", "0D"}});
  EXPECT_EQ(marks_of(s, "icon-sieged"), json::array());
  s.play("k14-j13");
  EXPECT_EQ(marks_of(s, "icon-sieged"),
            json::array({json{{"square", "i12"}, {"player", 1}, {"why", "icon-sieged"}, {"count", 0}}}));
}


}  // namespace
}  // namespace tabula
