// Random games of The Game of Truth, checked at every action: the look-ahead's shortcut against playing
// every first action out, undo, the hash, the state round trip through `new`, the turn's structure, the
// credit of every loss, and the board's bookkeeping. Seeds are printed on failure.
#include "core/session.h"
#include "core/testing.h"
#include "games/truth/truth.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace tabula::truth {
namespace {

constexpr int kScale = tabula::testing::kSanitized ? 10 : 1;

std::set<uint32_t> codes(const MoveList& l) {
  std::set<uint32_t> out;
  for (Move m : l) out.insert(m.code);
  return out;
}

// The board's bookkeeping, recomputed from the pieces.
void expect_consistent(const Position& p, const std::string& where) {
  Position copy = p;
  rules::recount(copy);
  ASSERT_EQ(copy.hash, p.hash) << where;
  ASSERT_EQ(copy.count, p.count) << where;
  ASSERT_EQ(copy.icon, p.icon) << where;
  ASSERT_EQ(copy.board, p.board) << where;
  for (int id = 0; id < kMaxPieces; ++id)
    if (p.piece(id).alive()) {
      ASSERT_TRUE(is_open(p.players, p.piece(id).square)) << where;
      ASSERT_EQ(p.piece(id).owner, id / kArmySize) << where;
    }
}

uint64_t perft_exact(Truth& g, int depth) {
  if (depth == 0) return 1;
  if (g.phase() == Phase::over) return 0;
  MoveList moves;
  rules::legal_actions_exact(g.position(), moves);
  if (depth == 1) return static_cast<uint64_t>(moves.size());
  uint64_t n = 0;
  for (Move m : moves) {
    g.apply(m);
    n += perft_exact(g, depth - 1);
    g.undo();
  }
  return n;
}

TEST(TruthPlayout, TheLookAheadShortcutAgreesWithPlayingEveryFirstActionOut) {
  Session s = Session::create("truth", json{{"players", 2}});
  s.setup_arrangement(0, "suggested", 0);
  s.setup_arrangement(1, "suggested", 0);
  Truth g = static_cast<const Truth&>(s.game());
  EXPECT_EQ(perft_exact(g, 3), perft(g, 3));
}

struct Tally {
  int games = 0, actions = 0, passes = 0, captures = 0, transforms = 0, sieges = 0;
  std::map<std::string, int> reasons, causes;
};

// A random endgame: each army an icon and a few other pieces anywhere on the open squares, sometimes
// without doors and lanterns (so that the transformation comes), to move at a random action.
json random_endgame(Rng& rng, int players) {
  json board = json::object();
  std::vector<int> open;
  for (int sq = 0; sq < kSquares; ++sq)
    if (is_open(players, sq)) open.push_back(sq);
  std::shuffle(open.begin(), open.end(), rng);
  size_t next = 0;
  const bool no_light = rng.below(3) == 0;
  for (int p = 0; p < players; ++p) {
    board[square_name(open[next++])] = std::to_string(p) + "I";
    std::array<int, kKinds> left = kArmy;
    left[kIcon] = 0;
    if (no_light) left[kDoor] = left[kLantern] = 0;
    const int n = 2 + static_cast<int>(rng.below(12));
    for (int i = 0; i < n; ++i) {
      const int k = static_cast<int>(rng.below(kIcon));
      if (left[static_cast<size_t>(k)] == 0) continue;
      --left[static_cast<size_t>(k)];
      board[square_name(open[next++])] = std::to_string(p) + kind_letter(k);
    }
  }
  return json{{"game", "truth"}, {"options", {{"players", players}, {"max_plies", 150}}}, {"phase", "play"},
              {"to_move", rng.below(static_cast<uint64_t>(players))}, {"board", board}};
}

void play_random_game(uint64_t seed, Tally& tally, bool endgame, int players = 2) {
  SCOPED_TRACE("seed " + std::to_string(seed) + (endgame ? " (endgame)" : "") + ", " + std::to_string(players) +
               " players");
  Rng rng(seed);
  Session s = endgame ? Session::from_state("truth", random_endgame(rng, players))
                      : Session::create("truth", json{{"players", players}, {"max_plies", 150}});
  // Mostly random arrangements (many contacts at the start), some suggested.
  for (int p = 0; p < players && !endgame; ++p) {
    if (rng.below(4) == 0) s.setup_arrangement(p, "suggested", 0);
    else s.setup_arrangement(p, "random", rng.next());
  }
  std::vector<int> credited(static_cast<size_t>(players), 0);
  for (const Event& e : s.events())
    if (e.full["type"] == "capture" && !e.full["by"].is_null()) credited[e.full["by"].get<size_t>()] += e.full["points"].get<int>();
  int step = 0;
  std::string first_piece;
  bool first_door = false;
  while (!s.over()) {
    const Truth& t = static_cast<const Truth&>(s.game());
    const Position& p = t.position();
    const std::string where = "seed " + std::to_string(seed) + " step " + std::to_string(step);
    expect_consistent(p, where);
    MoveList fast, exact;
    rules::legal_actions(p, fast);
    if (step % 5 == 0 || endgame) {
      rules::legal_actions_exact(p, exact);
      ASSERT_EQ(codes(fast), codes(exact)) << where;
    }
    ASSERT_FALSE(fast.empty()) << where;
    // Undo restores everything.
    if (step % 13 == 0) {
      Truth probe = t;
      const uint64_t h = probe.hash();
      const json before = probe.state_json();
      for (Move m : fast) {
        probe.apply(m);
        probe.undo();
      }
      ASSERT_EQ(probe.hash(), h) << where;
      ASSERT_EQ(probe.state_json(), before) << where;
      // The state round trip through `new`: same state, same legal actions.
      auto loaded = Truth::from_state(before);
      ASSERT_EQ(loaded->state_json(), before) << where;
      MoveList again;
      loaded->legal_moves(again);
      ASSERT_EQ(codes(again), codes(fast)) << where;
    }
    const Move m = fast[static_cast<int>(rng.below(static_cast<uint64_t>(fast.size())))];
    const std::string text = t.move_to_string(m);
    const int action = p.action;
    const uint8_t mover = TruthMove::is_pass(m) ? kNoPiece : p.board[static_cast<size_t>(TruthMove::from(m))];
    const bool door = mover != kNoPiece && p.door_role(mover);
    const int me = p.to_move;
    const int ply = p.ply;
    const auto events = s.play(text);
    ++tally.actions;
    if (text == "pass") ++tally.passes;
    // The turn: two distinct pieces, at least one acting as a door.
    if (action == 0 && mover != kNoPiece && !s.over()) {
      first_piece = text.substr(0, text.find('-'));
      first_door = door;
      const Position& q = static_cast<const Truth&>(s.game()).position();
      ASSERT_EQ(q.to_move, me) << where;
      ASSERT_EQ(q.action, 1) << where;
      ASSERT_EQ(q.door_action_done, door) << where;
    }
    if (action == 1 && mover != kNoPiece) {
      ASSERT_TRUE(first_door || door) << where << " " << text;
    }
    if (!s.over() && (action == 1 || text == "pass")) {
      const Position& q = static_cast<const Truth&>(s.game()).position();
      ASSERT_EQ(q.ply, ply + 1) << where;
      ASSERT_EQ(q.action, 0) << where;
      ASSERT_EQ(q.to_move, (me + 1) % players) << where;  // Ivory, Jade, then Ember and Indigo
    }
    for (const Event& e : events) {
      const std::string type = e.full["type"];
      if (type == "capture") {
        ++tally.captures;
        ++tally.causes[e.full["cause"]];
        if (!e.full["by"].is_null()) {
          ASSERT_NE(e.full["by"].get<int>(), e.full["piece"].get<std::string>()[0] - '0') << where;
          credited[e.full["by"].get<size_t>()] += e.full["points"].get<int>();
        }
      }
      if (type == "transform") ++tally.transforms;
      if (type == "pass") {
        ASSERT_EQ(e.full["blocked"], action == 0) << where;
      }
      if (type == "siege" && e.full["count"] == 1) ++tally.sieges;
    }
    const json st = s.state();
    ASSERT_EQ(st["scores"], json(credited)) << where;
    ++step;
  }
  const json st = s.state();
  ASSERT_EQ(st["action"], 0);
  ASSERT_EQ(st["acted"], json::array());
  ASSERT_EQ(st["door_action_done"], false);
  // An icon's loss ends the game with every army whose icon stands sharing the victory; none standing, a draw.
  const std::string reason = st["result"]["reason"];
  if (reason == "icon-destroyed" || reason == "all-icons-destroyed") {
    json standing = json::array();
    for (int q = 0; q < players; ++q)
      if (static_cast<const Truth&>(s.game()).position().icon_stands(q)) standing.push_back(q);
    ASSERT_EQ(st["result"]["winners"], standing);
    ASSERT_EQ(reason == "all-icons-destroyed", standing.empty());
    ASSERT_LT(static_cast<int>(standing.size()), players);
  }
  ++tally.reasons[st["result"]["reason"]];
  ++tally.games;
  // The record replays to the same end.
  Session again = Session::from_record(s.record());
  ASSERT_EQ(again.state(), s.state());
}

void report(const Tally& tally) {
  std::string reasons, causes;
  for (const auto& [r, n] : tally.reasons) reasons += " " + r + "=" + std::to_string(n);
  for (const auto& [c, n] : tally.causes) causes += " " + c + "=" + std::to_string(n);
  std::printf("%d games, %d actions, %d passes, %d captures (%s), %d transformations, %d siege counts; ends:%s\n",
              tally.games, tally.actions, tally.passes, tally.captures, causes.c_str(), tally.transforms, tally.sieges,
              reasons.c_str());
}

// Whole games from random and suggested arrangements (a 150-turn cap keeps them short).
TEST(TruthPlayout, RandomGamesFromTheSetupKeepEveryInvariant) {
  Tally tally;
  const int games = 1000 / kScale;
  for (int i = 0; i < games; ++i) {
    play_random_game(0x7275740000ULL + static_cast<uint64_t>(i), tally, false);
    if (HasFatalFailure()) return;
  }
  report(tally);
  EXPECT_EQ(tally.games, games);
}

// Random endgames: few pieces, transformations, lantern-guardians and interception, rings, blocked turns.
TEST(TruthPlayout, RandomEndgamesKeepEveryInvariant) {
  Tally tally;
  const int games = 2000 / kScale;
  for (int i = 0; i < games; ++i) {
    play_random_game(0x656e640000ULL + static_cast<uint64_t>(i), tally, true);
    if (HasFatalFailure()) return;
  }
  report(tally);
  EXPECT_EQ(tally.games, games);
  // The endgames reach what whole random games rarely do.
  EXPECT_GT(tally.transforms, 0);
  EXPECT_GT(tally.passes, 0);
  EXPECT_GT(tally.causes["interception"] + tally.causes["siege"], 0);
}

}  // namespace
}  // namespace tabula::truth

namespace tabula::truth {
namespace {

// Four players: whole games from random and suggested arrangements in the quadrants, at least 500.
TEST(TruthPlayout, RandomFourPlayerGamesFromTheSetupKeepEveryInvariant) {
  Tally tally;
  const int games = 500 / kScale;
  for (int i = 0; i < games; ++i) {
    play_random_game(0x34700000ULL + static_cast<uint64_t>(i), tally, false, 4);
    if (HasFatalFailure()) return;
  }
  report(tally);
  EXPECT_EQ(tally.games, games);
  EXPECT_GT(tally.reasons["icon-destroyed"], 0);
}

// Four-player endgames: transformations army by army, mixed rings and enclosures, four-pass cycles.
TEST(TruthPlayout, RandomFourPlayerEndgamesKeepEveryInvariant) {
  Tally tally;
  const int games = 1000 / kScale;
  for (int i = 0; i < games; ++i) {
    play_random_game(0x34650000ULL + static_cast<uint64_t>(i), tally, true, 4);
    if (HasFatalFailure()) return;
  }
  report(tally);
  EXPECT_EQ(tally.games, games);
  EXPECT_GT(tally.transforms, 0);
  EXPECT_GT(tally.passes, 0);
}

// perft from the four suggested arrangements, recorded (the protocol's perft gives the same numbers), and the
// look-ahead's shortcut against playing every first action out.
TEST(TruthPlayout, FourPlayerPerftFromTheSuggestedArrangements) {
  Session s = Session::create("truth", json{{"players", 4}});
  for (int p = 0; p < 4; ++p) s.setup_arrangement(p, "suggested", 0);
  Truth g = static_cast<const Truth&>(s.game());
  EXPECT_EQ(perft(g, 1), 154u);
  EXPECT_EQ(perft(g, 2), 8916u);
  EXPECT_EQ(perft_exact(g, 2), perft(g, 2));
  if (!tabula::testing::kSanitized) {
    EXPECT_EQ(perft(g, 3), 1373058u);
  }
}

}  // namespace
}  // namespace tabula::truth
