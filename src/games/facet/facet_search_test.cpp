// FACET's search hooks (docs/ai.md): captures generated without the quiet moves, MVV-LVA ordering hints, the
// null move and where it is allowed. Hand-made positions for the behaviour, seeded random games for the
// invariants (legal_captures is legal_moves filtered by is_capture; a null move and its undo leave the state and
// the hash exactly as they were).
#include "core/testing.h"
#include "games/facet/facet.h"
#include "games/facet/facet_testing.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace tabula::facet {
namespace {

using testing::hand_made_state;

constexpr int kScale = tabula::testing::kSanitized ? 8 : 1;

std::unique_ptr<Facet> position(json board, json terrain, int to_move = 0, json modes = json::array()) {
  return Facet::from_state(hand_made_state(std::move(board), std::move(terrain), to_move, json{{"modes", modes}}));
}

Move move_named(const Facet& g, const std::string& text) {
  const std::optional<Move> m = find_legal_move(g, text);
  EXPECT_TRUE(m.has_value()) << text << " is not legal here";
  return m.value_or(Move{});
}

std::vector<uint32_t> codes(const MoveList& l) {
  std::vector<uint32_t> out;
  for (Move m : l) out.push_back(m.code);
  return out;
}

TEST(FacetSearch, LegalCapturesListsOnlyTheCaptures) {
  // White's Tower stone on a1 can take on a5 (its file) and slide elsewhere; the Field stone on d4 can take
  // on e5 and step elsewhere.
  auto g = position({{"a1", "0A"}, {"d4", "0A"}, {"a5", "1A"}, {"e5", "1A"}}, {{"a1", "T"}});
  MoveList caps;
  g->legal_captures(caps);
  std::set<std::string> got;
  for (Move m : caps) got.insert(g->move_to_string(m));
  EXPECT_EQ(got, (std::set<std::string>{"a1-a5", "d4-e5"}));
}

TEST(FacetSearch, TakingTheMonarchIsTriedBeforeTakingAnAgent) {
  // The Throne stone on e5 may take Black's Monarch on e8 or an agent on a5 (on a Throne itself).
  auto g = position({{"e5", "0A"}, {"e8", "1M"}, {"a5", "1A"}, {"a1", "0A"}}, {{"e5", "C"}, {"a5", "C"}});
  EXPECT_GT(g->order_hint(move_named(*g, "e5-e8")), g->order_hint(move_named(*g, "e5-a5")));
  EXPECT_GT(g->order_hint(move_named(*g, "e5-a5")), 0);
}

TEST(FacetSearch, TakingAThroneStoneIsTriedBeforeTakingAFieldStone) {
  // The Tower stone on a3 reaches a7 (a Field stone) and h3 (a stone on a Throne).
  auto g = position({{"a3", "0A"}, {"a7", "1A"}, {"h3", "1A"}, {"b1", "0A"}}, {{"a3", "T"}, {"h3", "C"}});
  EXPECT_GT(g->order_hint(move_named(*g, "a3-h3")), g->order_hint(move_named(*g, "a3-a7")));
}

TEST(FacetSearch, TheLeastValuableStoneTakesFirst) {
  // Black's stone on d5 can be taken by White's Field stone on d4 or by its Throne stone on a8 (a slide that
  // leaves the Throne): the Field stone first. The Monarch on e4 could take it too: last of all.
  auto g = position({{"d4", "0A"}, {"e4", "0M"}, {"a8", "0A"}, {"d5", "1A"}}, {{"a8", "C"}});
  const int by_field = g->order_hint(move_named(*g, "d4-d5"));
  const int by_throne = g->order_hint(move_named(*g, "a8-d5"));
  const int by_monarch = g->order_hint(move_named(*g, "e4-d5"));
  EXPECT_GT(by_field, by_throne);
  EXPECT_GT(by_throne, by_monarch);
  EXPECT_GT(by_monarch, 0) << "d5 is not defended: the Monarch may take it";
}

TEST(FacetSearch, TheMonarchTakingADefendedStoneIsTriedAfterTheQuietMoves) {
  // Black's stone on d5 is defended by Black's Tower stone on d9 (down the file): the Monarch taking it is lost.
  auto g = position({{"e4", "0M"}, {"a1", "0A"}, {"d5", "1A"}, {"d9", "1A"}}, {{"d9", "T"}});
  EXPECT_LT(g->order_hint(move_named(*g, "e4-d5")), 0);
  EXPECT_EQ(g->order_hint(move_named(*g, "e4-e3")), 0) << "a quiet move";
}

TEST(FacetSearch, UnderFogASlideOntoAnUnseenStoneIsACaptureAndOrderedAsOne) {
  // White's Tower stone on a1 sees up to a3; Black's stone on a7 is out of sight. a1-a9 on White's view is a
  // plain slide that really stops on a7, taking it.
  auto g = position({{"a1", "0A"}, {"a7", "1A"}, {"i9", "1A"}, {"i1", "0A"}}, {{"a1", "T"}}, 0, json{"fog"});
  ASSERT_FALSE(g->sees(0, square_of(0, 7)));
  const Move m = move_named(*g, "a1-a9");
  EXPECT_TRUE(g->is_capture(m));
  EXPECT_GT(g->order_hint(m), 0);
  MoveList caps;
  g->legal_captures(caps);
  bool listed = false;
  for (Move c : caps) listed = listed || c == m;
  EXPECT_TRUE(listed);
}

TEST(FacetSearch, NoNullMoveWhenTheMonarchIsAttacked) {
  // Black's Tower stone on e7 looks down the open file at White's Monarch on e1.
  auto g = position({{"e1", "0M"}, {"a2", "0A"}, {"b2", "0A"}, {"c2", "0A"}, {"i2", "0A"}, {"e7", "1A"}}, {{"e7", "T"}});
  EXPECT_TRUE(g->attacked(square_of(4, 1), 1));
  EXPECT_FALSE(g->null_move_allowed());
  // Block the file: now a pass is a fair test.
  g = position({{"e1", "0M"}, {"a2", "0A"}, {"b2", "0A"}, {"c2", "0A"}, {"e2", "0A"}, {"e7", "1A"}}, {{"e7", "T"}});
  EXPECT_FALSE(g->attacked(square_of(4, 1), 1));
  EXPECT_TRUE(g->null_move_allowed());
}

TEST(FacetSearch, NoNullMoveWithFewAgentsWhereZugzwangMatters) {
  auto g = position({{"a2", "0A"}, {"b2", "0A"}, {"c2", "0A"}, {"a8", "1A"}}, json::object());
  EXPECT_FALSE(g->null_move_allowed()) << "three agents";
  g = position({{"a2", "0A"}, {"b2", "0A"}, {"c2", "0A"}, {"d2", "0A"}, {"a8", "1A"}}, json::object());
  EXPECT_TRUE(g->null_move_allowed()) << "four agents";
}

TEST(FacetSearch, NoNullMoveWhileACoronationCountRuns) {
  json st = hand_made_state({{"a2", "0A"}, {"b2", "0A"}, {"c2", "0A"}, {"d2", "0A"}, {"e5", "1A"}, {"a8", "1A"}},
                            {{"e5", "C"}}, 0, json{{"modes", json::array()}});
  st["coronation"] = {{"player", 1}, {"plies", 1}};
  auto g = Facet::from_state(st);
  EXPECT_FALSE(g->null_move_allowed());
}

TEST(FacetSearch, UnderMomentumANullMoveEndsTheTurnSoTheMoversBadgesExpire) {
  json st = hand_made_state({{"a2", "0A"}, {"b2", "0A"}, {"c2", "0A"}, {"d3", "0A"}, {"a8", "1A"}, {"b7", "1A"}},
                            json::object(), 0, json{{"modes", json{"momentum"}}});
  st["badges"] = {{"d3", "T"}, {"b7", "S"}};
  auto g = Facet::from_state(st);
  const uint64_t h = g->hash();
  const json before = g->state_json();
  ASSERT_TRUE(g->null_move_allowed());
  g->apply_null();
  EXPECT_EQ(g->to_move(), 1);
  EXPECT_EQ(g->badge_at(square_of(3, 3)), kField) << "White's badge expired with its turn";
  EXPECT_EQ(g->badge_at(square_of(1, 7)), kSpire) << "Black's badge is Black's to use";
  EXPECT_EQ(g->hash(), g->compute_hash());
  g->undo_null();
  EXPECT_EQ(g->state_json(), before);
  EXPECT_EQ(g->hash(), h);
}

const json kAllModeSets[] = {json::array(), json{"decay"}, json{"momentum"}, json{"fog"}, json{"decay", "fog"}};

// Random games in every mode: at every ply legal_captures is exactly legal_moves filtered by is_capture (same
// moves, same order); every capture has a positive or negative hint and every quiet move none; the Monarch is
// attacked (attacked) exactly when the rules say an enemy stone could take it (danger_for, without fog); and a
// null move, wherever allowed, changes only the side to move (and momentum badges), and its undo restores the
// state and the hash exactly.
TEST(FacetSearch, RandomGamesKeepTheHooksExact) {
  MoveList moves, caps, filtered;
  int positions = 0, captures = 0, nulls = 0, attacked_monarchs = 0;
  for (uint64_t seed = 1; seed <= 600 / kScale; ++seed) {
    Rng rng(seed);
    json options = {{"modes", kAllModeSets[seed % 5]}};
    if (seed % 2) options["layout"] = "random", options["seed"] = seed;
    Facet g(Options::from_json(options));
    while (g.phase() == Phase::play && g.ply() < 200) {
      g.legal_moves(moves);
      g.legal_captures(caps);
      filtered.clear();
      for (Move m : moves) {
        if (g.is_capture(m)) filtered.push(m);
        ASSERT_EQ(g.order_hint(m) != 0, g.is_capture(m)) << "seed " << seed << " ply " << g.ply() << " " << g.move_to_string(m);
      }
      ASSERT_EQ(codes(caps), codes(filtered)) << "seed " << seed << " ply " << g.ply();
      captures += caps.size();
      ++positions;
      if (!g.options().fog) {
        const json danger = g.danger_for(kSpectator);
        for (Player p : {0, 1}) {
          bool marked = false;
          for (const json& d : danger) marked = marked || d.at("player") == p;
          ASSERT_EQ(g.attacked(g.monarch_square(p), 1 - p), marked) << "seed " << seed << " ply " << g.ply();
          attacked_monarchs += marked;
        }
      }
      if (g.null_move_allowed()) {
        const json st = g.state_json();
        const uint64_t h = g.hash();
        const Player mover = g.to_move();
        g.apply_null();
        ++nulls;
        ASSERT_EQ(g.to_move(), 1 - mover) << "seed " << seed;
        ASSERT_NE(g.hash(), h) << "seed " << seed;
        ASSERT_EQ(g.hash(), g.compute_hash()) << "seed " << seed << " ply " << g.ply();
        // The opponent can move after the pass, and the search may go on below it.
        g.legal_moves(filtered);
        if (!filtered.empty()) {
          g.apply(filtered[static_cast<int>(rng.below(static_cast<uint64_t>(filtered.size())))]);
          g.undo();
        }
        g.undo_null();
        ASSERT_EQ(g.state_json(), st) << "seed " << seed << " ply " << g.ply();
        ASSERT_EQ(g.hash(), h) << "seed " << seed << " ply " << g.ply();
      }
      // Captures half the time, so the games reach the middlegame's exchanges and the ends.
      const MoveList& from = !caps.empty() && rng.below(2) == 0 ? caps : moves;
      g.apply(from[static_cast<int>(rng.below(static_cast<uint64_t>(from.size())))]);
    }
  }
  // The checks above must have met enough of each case to mean something (a sanitizer build plays kScale times
  // fewer games).
  EXPECT_GT(positions, 10'000 / kScale);
  EXPECT_GT(captures, 1'000 / kScale);
  EXPECT_GT(nulls, 1'000 / kScale);
  EXPECT_GT(attacked_monarchs, 100 / kScale);
}

}  // namespace
}  // namespace tabula::facet
