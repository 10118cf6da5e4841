// The AI through the Game interface: a tiny fake game for the search's own behaviour (mate distances,
// ties, the stop flag, double moves, sampled worlds, offers), and Tigadi positions built by hand for
// play that matters (captures, not walking into a line, reproducibility, strength against random).
#include "ai/ai.h"
#include "ai/match.h"
#include "ai/search.h"
#include "core/record_text.h"
#include "core/session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <set>

namespace tabula::ai {
namespace {

// ---------------------------------------------------------------------------------------------------
// A game given as an explicit tree. Node 0 is the root; a move is the index of a child.

struct TreeNode {
  Player to_move = 0;
  int eval = 0;  // for to_move, as Game::evaluate() promises
  std::optional<Result> result;
  std::vector<int> children;
  bool capture = false;  // the move into this node takes a piece (Game::is_capture)
  bool hidden = false;   // the position here hides information (besides a game hidden throughout)
};

class TreeGame : public Game {
 public:
  explicit TreeGame(std::vector<TreeNode> nodes, bool hidden = false, int moves_per_turn = 1)
      : nodes_(std::make_shared<std::vector<TreeNode>>(std::move(nodes))), hidden_(hidden),
        moves_per_turn_(moves_per_turn) {}

  std::unique_ptr<Game> clone() const override { return std::make_unique<TreeGame>(*this); }
  std::string_view kind() const override { return "tree"; }
  int num_players() const override { return 2; }
  bool hidden_information() const override { return hidden_ || node().hidden; }
  Phase phase() const override { return node().result ? Phase::over : Phase::play; }
  Player to_move() const override { return node().to_move; }
  int ply() const override { return static_cast<int>(path_.size()) - 1; }
  const Result* result() const override { return node().result ? &*node().result : nullptr; }
  void legal_moves(MoveList& out) const override {
    out.clear();
    if (node().result) return;
    for (size_t i = 0; i < node().children.size(); ++i) out.push(Move{static_cast<uint32_t>(i)});
  }
  void apply(Move m, EventLog*) override { path_.push_back(node().children.at(m.code)); }
  void undo() override { path_.pop_back(); }
  std::string move_to_string(Move m) const override { return "m" + std::to_string(m.code); }
  bool is_capture(Move m) const override {
    return (*nodes_)[static_cast<size_t>(node().children.at(m.code))].capture;
  }
  void end_with(const Result&, EventLog*) override { fail(ErrorKind::conflict, "not in a tree"); }
  json state_json() const override { return json{{"node", path_.back()}}; }
  json observation_json(Player) const override { return state_json(); }
  int evaluate() const override { return node().eval; }
  int moves_per_turn() const override { return moves_per_turn_; }
  uint64_t hash() const override { return 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(path_.back() + 1); }
  std::unique_ptr<Game> sample_world(Player, Rng&) const override {
    ++*worlds_sampled_;
    return clone();
  }
  int worlds_sampled() const { return *worlds_sampled_; }

 private:
  const TreeNode& node() const { return (*nodes_)[static_cast<size_t>(path_.back())]; }
  std::shared_ptr<std::vector<TreeNode>> nodes_;
  std::vector<int> path_{0};
  bool hidden_ = false;
  int moves_per_turn_ = 1;
  std::shared_ptr<int> worlds_sampled_ = std::make_shared<int>(0);
};

Result win_for(Player p) { return Result{{p}, "test"}; }

Limits nodes_limits(int level, uint64_t nodes, uint64_t seed) {
  Limits l;
  l.level = level;
  l.nodes = nodes;
  l.seed = seed;
  return l;
}

TEST(Search, PrefersTheFasterWin) {
  // m0: the win comes two plies later (0 moves, 1 moves, 0 moves and wins); m1: 0 wins at once.
  std::vector<TreeNode> t(6);
  t[0] = {0, 0, {}, {1, 5}};
  t[1] = {1, 0, {}, {2}};
  t[2] = {0, 0, {}, {3}};
  t[3] = {1, 0, win_for(0), {}};
  t[5] = {1, 0, win_for(0), {}};
  TreeGame g(t);
  Searcher s(1 << 10);
  SearchParams p;
  p.max_depth = 6;
  SearchResult r = s.run(g, p);
  EXPECT_EQ(r.best, Move{1});
  EXPECT_EQ(r.score, kWin - 1);
  EXPECT_TRUE(is_win_score(r.score));
  // m0 is a win too, but later.
  auto m0 = std::find_if(r.root.begin(), r.root.end(), [](const RootScore& x) { return x.move == Move{0}; });
  ASSERT_NE(m0, r.root.end());
  EXPECT_LT(m0->score, r.score);
  EXPECT_EQ(g.ply(), 0);  // left as it was
}

TEST(Search, AvoidsAMoveThatLosesNextPly) {
  // m0 looks good statically (+50 for 0) but lets 1 win at once; m1 is quiet (-10).
  std::vector<TreeNode> t(6);
  t[0] = {0, 0, {}, {1, 4}};
  t[1] = {1, -50, {}, {2, 3}};
  t[2] = {0, 0, win_for(1), {}};
  t[3] = {0, 50, {}, {}};
  t[4] = {1, 10, {}, {5}};
  t[5] = {0, -10, {}, {}};
  TreeGame g(t);
  Searcher s(1 << 10);
  SearchParams p;
  p.max_depth = 1;
  EXPECT_EQ(s.run(g, p).best, Move{0});  // one ply deep it walks into it
  p.max_depth = 2;
  SearchResult r = s.run(g, p);
  EXPECT_EQ(r.best, Move{1});
  EXPECT_EQ(r.score, -10);
  EXPECT_EQ(r.pv.size(), 2u);
}

// Two moves for player 0, each answered by two of player 1's, whose leaves are worth a1 … b2 to player 0;
// without the second reply (`second_reply` false) the root has only the first move.
std::vector<TreeNode> two_by_two(int a1, int a2, int b1, int b2, bool second_reply = true) {
  std::vector<TreeNode> t(7);
  t[0] = {0, 0, {}, second_reply ? std::vector<int>{1, 2} : std::vector<int>{1}};
  t[1] = {1, 0, {}, {3, 4}};
  t[2] = {1, 0, {}, {5, 6}};
  t[3] = {0, a1, {}, {}};
  t[4] = {0, a2, {}, {}};
  t[5] = {0, b1, {}, {}};
  t[6] = {0, b2, {}, {}};
  return t;
}

TEST(Search, ARunDoesNotReadTheTableOfTheRunBefore) {
  // Two trees of one shape, so their positions have the same keys, with other leaves: the table is not zeroed
  // between runs (a new run only stops counting older entries). The first run leaves its second reply a lower
  // bound for player 1 (-10, deeper than the second run needs); a second run that read it would cut that reply
  // off against its own first (12) and keep move 0, where the reply is worth 30 to player 0 in this tree.
  TreeGame first(two_by_two(40, 30, 10, 20)), second(two_by_two(12, 15, 40, 30));
  SearchParams p;
  p.max_depth = 3;  // the first run's entries for the two replies are deeper than the second run needs
  Searcher reused(1 << 10);
  const SearchResult before = reused.run(first, p);
  EXPECT_EQ(before.best, Move{0});
  EXPECT_EQ(before.score, 30);
  p.max_depth = 2;
  const SearchResult again = reused.run(second, p);
  Searcher fresh(1 << 10);
  const SearchResult expected = fresh.run(second, p);
  EXPECT_EQ(expected.best, Move{1});
  EXPECT_EQ(expected.score, 30);
  EXPECT_EQ(again.best, expected.best);
  EXPECT_EQ(again.score, expected.score);
  EXPECT_EQ(again.nodes, expected.nodes);
}

TEST(Search, ATableEntryDoesNotCountAgainWhenTheRunCountWrapsAround) {
  // The same two trees; between them, 65,535 runs on a tree that never reaches the second reply, so the first
  // run's entry for it stays in the table while the run count (16 bits) wraps around to where it was stored.
  TreeGame first(two_by_two(40, 30, 10, 20)), second(two_by_two(12, 15, 40, 30));
  TreeGame filler(two_by_two(1, 2, 0, 0, /*second_reply=*/false));
  SearchParams p;
  p.max_depth = 3;
  Searcher reused(1 << 10);
  reused.run(first, p);
  p.max_depth = 2;
  for (int run = 0; run < 65'535; ++run) reused.run(filler, p);
  const SearchResult again = reused.run(second, p);
  EXPECT_EQ(again.best, Move{1});
  EXPECT_EQ(again.score, 30);
}

TEST(Search, LosesAsLateAsPossible) {
  // Both moves lose; m1 loses later, so it scores higher.
  std::vector<TreeNode> t(6);
  t[0] = {0, 0, {}, {1, 2}};
  t[1] = {1, 0, win_for(1), {}};  // 0 moved into a loss at once (a silly rule, but a legal tree)
  t[2] = {1, 0, {}, {3}};
  t[3] = {0, 0, {}, {4}};
  t[4] = {1, 0, win_for(1), {}};
  TreeGame g(t);
  Searcher s(1 << 10);
  SearchParams p;
  SearchResult r = s.run(g, p);
  EXPECT_EQ(r.best, Move{1});
  EXPECT_EQ(r.score, -(kWin - 3));
}

TEST(Search, SameSideMovingTwiceKeepsTheSign) {
  // Like a Truth turn of two actions: after m0, player 0 moves again and can then win; m1 is +5.
  std::vector<TreeNode> t(5);
  t[0] = {0, 0, {}, {1, 3}};
  t[1] = {0, 0, {}, {2, 4}};
  t[2] = {1, 0, win_for(0), {}};
  t[3] = {1, -5, {}, {}};
  t[4] = {1, 100, {}, {}};
  TreeGame g(t);
  Searcher s(1 << 10);
  SearchParams p;
  p.max_depth = 3;
  SearchResult r = s.run(g, p);
  EXPECT_EQ(r.best, Move{0});
  EXPECT_EQ(r.score, kWin - 2);
}

// Two-move turns, as in the Game of Truth: player 0 plays A (node 1) or B (node 2) and a second move, then
// player 1 two moves. After A's turn 0 is 10 up, after B's even; in the middle of 1's turn B looks 200 up
// for 0, but 1's second move leaves A's line 50 up and B's 100 down.
std::vector<TreeNode> two_move_turns_tree() {
  std::vector<TreeNode> t(9);
  t[0] = {0, 0, {}, {1, 2}};
  t[1] = {0, 0, {}, {3}};   // 0's second move after A
  t[2] = {0, 0, {}, {4}};   // ... after B
  t[3] = {1, -10, {}, {5}}; // 1 to move after A's turn: 0 is 10 up
  t[4] = {1, 0, {}, {6}};
  t[5] = {1, 200, {}, {7}}; // 1 half way through its turn after A
  t[6] = {1, -200, {}, {8}};
  t[7] = {0, 50, {}, {}};   // 0 to move again
  t[8] = {0, -100, {}, {}};
  return t;
}

TEST(Search, TwoMoveTurnsAreSearchedWholeTurnsDeep) {
  Searcher s(1 << 10);
  SearchParams p;
  // Three plies would end inside 1's turn and choose B for its half-made position: the search stops at two.
  p.max_depth = 3;
  TreeGame g(two_move_turns_tree(), false, /*moves_per_turn=*/2);
  SearchResult r = s.run(g, p);
  EXPECT_EQ(r.depth, 2);
  EXPECT_EQ(r.best, Move{0});
  EXPECT_EQ(r.score, 10);
  p.max_depth = 4;
  r = s.run(g, p);
  EXPECT_EQ(r.depth, 4);
  EXPECT_EQ(r.best, Move{0});
  EXPECT_EQ(r.score, 50);
  // The same tree taken as one-move turns is searched ply by ply, and the third ply misleads.
  TreeGame single(two_move_turns_tree());
  p.max_depth = 3;
  r = s.run(single, p);
  EXPECT_EQ(r.depth, 3);
  EXPECT_EQ(r.best, Move{1});
}

// Depth 1 prefers A (0 is 30 up), then B (20), then C (10). One ply deeper A loses 100 and B is 15 up;
// C's answers are many, so a small node budget ends the second iteration inside C.
TEST(Search, AnUnfinishedIterationThatRefutesTheBestMoveIsUsed) {
  std::vector<TreeNode> t(7);
  t[0] = {0, 0, {}, {1, 2, 3}};
  t[1] = {1, -30, {}, {4}};
  t[2] = {1, -20, {}, {5}};
  t[3] = {1, -10, {}, std::vector<int>(20, 6)};
  t[4] = {0, -100, {}, {}};
  t[5] = {0, 15, {}, {}};
  t[6] = {0, 50, {}, {}};
  TreeGame g(t);
  Searcher s(1 << 10);
  SearchParams p;
  p.max_depth = 2;
  p.nodes = 12;  // depth 1: 3 moves; depth 2: A and its answer, B and its answer, C and a few of its answers
  SearchResult r = s.run(g, p);
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.depth, 1);
  EXPECT_EQ(r.best, Move{1});
  EXPECT_EQ(r.score, 15);
  EXPECT_EQ(r.equal_best(), std::vector<Move>{Move{1}});
  // Where the deeper iteration only confirms the best move, the finished one's answer stands.
  t[4].eval = 40;
  TreeGame confirmed(t);
  r = s.run(confirmed, p);
  EXPECT_EQ(r.depth, 1);
  EXPECT_EQ(r.best, Move{0});
  EXPECT_EQ(r.score, 30);
}

// A capture that loses to a recapture: m0 takes (0 is up 100 for a moment) but 1 takes back more (0 ends
// 50 down); m1 is quiet (+10 for 0). From m1's position 1 has a quiet move that would be very good for 1,
// but past the horizon only captures are searched, so it is never looked at.
std::vector<TreeNode> recapture_tree() {
  std::vector<TreeNode> t(6);
  t[0] = {0, 0, {}, {1, 2}};
  t[1] = {1, -100, {}, {3, 4}, /*capture=*/true};
  t[2] = {1, -10, {}, {5}};
  t[3] = {0, -50, {}, {}, /*capture=*/true};  // 1's recapture
  t[4] = {0, 100, {}, {}};                      // 1's quiet move after m0
  t[5] = {0, -500, {}, {}};                     // 1's quiet move after m1: beyond the horizon
  return t;
}

TEST(Search, QuiescenceSeesTheRecaptureAtDepthOne) {
  TreeGame g(recapture_tree());
  Searcher s(1 << 10);
  SearchParams p;
  p.max_depth = 1;
  p.quiescence = false;  // the horizon's evaluation is final: the capture looks like a piece won
  SearchResult blind = s.run(g, p);
  EXPECT_EQ(blind.best, Move{0});
  EXPECT_EQ(blind.score, 100);

  p.quiescence = true;
  SearchResult r = s.run(g, p);
  EXPECT_EQ(r.depth, 1);
  EXPECT_EQ(r.best, Move{1});
  EXPECT_EQ(r.score, 10);  // 1's quiet move to t[5] is not a capture, so it was not searched
  auto m0 = std::find_if(r.root.begin(), r.root.end(), [](const RootScore& x) { return x.move == Move{0}; });
  ASSERT_NE(m0, r.root.end());
  EXPECT_LE(m0->score, -50);  // the recapture was seen (an upper bound: m0 is worse than the best)
  EXPECT_EQ(g.ply(), 0);
}

TEST(Search, QuiescenceReportsTheCaptureLineAndStandsPatWhenTakingIsWorse) {
  // 0 to move at the horizon's edge: after the quiet m0, 1 may take (t[2]) but standing pat is better
  // for 1 there, since the capture walks into a recapture; so m0 keeps its static value.
  std::vector<TreeNode> t(4);
  t[0] = {0, 0, {}, {1}};
  t[1] = {1, -20, {}, {2}};
  t[2] = {0, -80, {}, {3}, /*capture=*/true};
  t[3] = {1, -120, {}, {}, /*capture=*/true};  // 0 takes back: 0 is now up 120
  TreeGame g(t);
  Searcher s(1 << 10);
  SearchParams p;
  p.max_depth = 1;
  SearchResult r = s.run(g, p);
  EXPECT_EQ(r.score, 20);  // 1 stands pat on -20 rather than take into -120
  EXPECT_EQ(r.pv, std::vector<Move>{Move{0}});
}

std::vector<TreeNode> equal_moves_tree(int n) {
  std::vector<TreeNode> t(static_cast<size_t>(n) + 1);
  for (int i = 1; i <= n; ++i) {
    t[0].children.push_back(i);
    t[static_cast<size_t>(i)] = {1, -7, {}, {}};
  }
  return t;
}

// Late move pruning, on a 4-ply search. Ivory's m0 leads to A, where Jade answers a0 (level for Ivory) or a1,
// after which Ivory's only move reaches X, 1 ply from the horizon, where Jade has ten moves: x0 … x8 lose Ivory
// nothing much (`others_result`, `others_eval` for Ivory) and the tenth, x9, wins Jade 50. m1 costs Ivory 5.
// At first sight (shallower iterations) B and X look good for Ivory, so a0 is A's first move and a1 is
// searched with a null window: B and X are not PV nodes.
std::vector<TreeNode> late_defence_tree(std::optional<Result> others_result, int others_eval) {
  std::vector<TreeNode> t(16);
  t[0] = {0, 0, {}, {1, 2}};
  t[1] = {1, 0, {}, {3, 4}};    // A
  t[2] = {1, 5, {}, {}};        // m1: −5 for Ivory
  t[3] = {0, 0, {}, {}};        // a0: level
  t[4] = {0, 100, {}, {5}};     // B
  t[5] = {1, -100, {}, {}};     // X
  for (int i = 0; i < 9; ++i) {
    t[static_cast<size_t>(6 + i)] = {0, others_eval, others_result, {}};
    t[5].children.push_back(6 + i);
  }
  t[15] = {0, -50, {}, {}};     // x9: Jade wins 50
  t[5].children.push_back(15);
  return t;
}

SearchResult search_late_defence(std::vector<TreeNode> t, bool prune) {
  TreeGame g(std::move(t));
  Searcher s(1 << 10);
  SearchParams p;
  p.max_depth = 4;
  p.late_move_pruning = prune;
  return s.run(g, p);
}

// Near the horizon a non-PV node searches its first quiet moves only. Full search: Jade's x9 makes a1 the
// answer to m0 (−50), so Ivory plays m1 (−5). Pruned: x9 is never looked at, X reads as its best of the first
// eight (+10 for Ivory), a1 fails low and m0 looks level (0): the price of the depth pruning buys elsewhere.
TEST(Search, LateMovePruningSkipsTheLateQuietMovesOfANonPvNode) {
  const SearchResult full = search_late_defence(late_defence_tree(std::nullopt, 10), false);
  EXPECT_EQ(full.best, Move{1});
  EXPECT_EQ(full.score, -5);
  const SearchResult pruned = search_late_defence(late_defence_tree(std::nullopt, 10), true);
  EXPECT_EQ(pruned.best, Move{0});
  EXPECT_EQ(pruned.score, 0);
  EXPECT_LT(pruned.nodes, full.nodes);
}

// But not while every move searched there loses: the late quiet move may be the one defence. With x0 … x8
// losing Jade the game, X searches on to x9, and m1 is played as without pruning.
TEST(Search, LateMovePruningGoesOnWhileEveryMoveSearchedLoses) {
  const SearchResult pruned = search_late_defence(late_defence_tree(win_for(0), 0), true);
  EXPECT_EQ(pruned.best, Move{1});
  EXPECT_EQ(pruned.score, -5);
}

TEST(Search, ReportsEveryEqualBestMove) {
  TreeGame g(equal_moves_tree(6));
  Searcher s(1 << 10);
  SearchResult r = s.run(g, SearchParams{});
  EXPECT_EQ(r.score, 7);
  EXPECT_EQ(r.equal_best().size(), 6u);
}

TEST(ChooseMove, BreaksTiesWithTheSeed) {
  TreeGame g(equal_moves_tree(6));
  std::set<std::string> chosen;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    const std::string m = choose_move(g, nodes_limits(3, 1000, seed)).move;
    EXPECT_EQ(m, choose_move(g, nodes_limits(3, 1000, seed)).move) << "seed " << seed;
    chosen.insert(m);
  }
  EXPECT_GE(chosen.size(), 4u);
}

// Nim with 1 to 3 taken a turn (or up to `most`); taking the last wins. The side to move loses exactly when
// n % 4 == 0.
class Nim : public Game {
 public:
  explicit Nim(int n, int most = 3) : n_(n), most_(most) {}
  std::unique_ptr<Game> clone() const override { return std::make_unique<Nim>(*this); }
  std::string_view kind() const override { return "nim"; }
  int num_players() const override { return 2; }
  Phase phase() const override { return n_ == 0 ? Phase::over : Phase::play; }
  Player to_move() const override { return static_cast<Player>(taken_.size() % 2 + first_) % 2; }
  int ply() const override { return static_cast<int>(taken_.size()); }
  const Result* result() const override {
    if (n_ != 0) return nullptr;
    result_ = Result{{1 - to_move()}, "last-taken"};
    return &result_;
  }
  void legal_moves(MoveList& out) const override {
    out.clear();
    for (int k = 1; k <= std::min(most_, n_); ++k) out.push(Move{static_cast<uint32_t>(k)});
  }
  void apply(Move m, EventLog*) override {
    n_ -= static_cast<int>(m.code);
    taken_.push_back(static_cast<int>(m.code));
  }
  void undo() override {
    n_ += taken_.back();
    taken_.pop_back();
  }
  std::string move_to_string(Move m) const override { return "take" + std::to_string(m.code); }
  void end_with(const Result&, EventLog*) override {}
  json state_json() const override { return json{{"n", n_}}; }
  json observation_json(Player) const override { return state_json(); }
  int evaluate() const override { return 0; }
  uint64_t hash() const override { return static_cast<uint64_t>(n_) * 2 + static_cast<uint64_t>(to_move()); }

 private:
  int n_;
  int most_;
  int first_ = 0;
  std::vector<int> taken_;
  mutable Result result_;
};

// Nim where every move counts as a capture and standing pat is never better than taking on at once:
// quiescence must still end, kMaxQuiescencePlies past the horizon.
class CapturingNim : public Nim {
 public:
  using Nim::Nim;
  std::unique_ptr<Game> clone() const override { return std::make_unique<CapturingNim>(*this); }
  bool is_capture(Move) const override { return true; }
  int evaluate() const override { return -1; }
  void apply(Move m, EventLog* events) override {
    Nim::apply(m, events);
    deepest = std::max(deepest, ply());
  }
  int deepest = 0;  // the most plies from the root any searched line reached
};

TEST(Search, QuiescenceDepthIsCapped) {
  CapturingNim g(1000);
  Searcher s(1 << 12);
  SearchParams p;
  p.max_depth = 1;
  SearchResult r = s.run(g, p);
  EXPECT_EQ(r.depth, 1);
  EXPECT_FALSE(r.stopped);
  EXPECT_EQ(g.deepest, 1 + kMaxQuiescencePlies);  // the root move, then captures up to the cap
  uint64_t tree = 0, width = 1;
  for (int d = 0; d <= kMaxQuiescencePlies; ++d) tree += (width *= 3);
  EXPECT_LE(r.nodes, tree);
  EXPECT_EQ(g.ply(), 0);

  g.deepest = 0;
  p.quiescence = false;
  s.run(g, p);
  EXPECT_EQ(g.deepest, 1);  // without quiescence the horizon is the end
}

TEST(Search, SolvesNimWithTheTable) {
  for (int n : {5, 6, 7, 21, 30}) {
    Nim g(n);
    Searcher s(1 << 12);
    SearchParams p;
    p.nodes = 2'000'000;
    SearchResult r = s.run(g, p);
    EXPECT_EQ(r.best.code, static_cast<uint32_t>(n % 4)) << n;
    EXPECT_TRUE(is_win_score(r.score)) << n;
    EXPECT_FALSE(r.stopped) << n;  // proven before any limit
  }
  Nim lost(20);
  Searcher s(1 << 12);
  SearchParams p;
  p.max_depth = 30;
  EXPECT_TRUE(is_loss_score(s.run(lost, p).score));
}

TEST(Search, StopFlagEndsTheSearchWithALegalMove) {
  Nim g(1000);  // never proven within the depth: the search would run to max depth
  std::atomic<bool> stop{true};
  Searcher s(1 << 12);
  SearchParams p;
  p.ms = 60'000;
  p.stop = &stop;
  SearchResult r = s.run(g, p);
  EXPECT_TRUE(r.stopped);
  EXPECT_LE(r.nodes, 2048u);
  EXPECT_GE(r.best.code, 1u);
  EXPECT_LE(r.best.code, 3u);
  EXPECT_EQ(g.ply(), 0);

  Limits l;
  l.level = 5;
  l.ms = 60'000;
  Choice c = choose_move(g, l, &stop);
  EXPECT_TRUE(c.move == "take1" || c.move == "take2" || c.move == "take3");
}

TEST(Search, NodeBudgetIsRespected) {
  Nim g(1000);
  Searcher s(1 << 12);
  SearchParams p;
  p.nodes = 500;
  SearchResult r = s.run(g, p);
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.nodes, 500u);
  p.nodes = 1;
  r = s.run(g, p);
  EXPECT_GE(r.best.code, 1u);
  EXPECT_LE(r.best.code, 3u);
}

TEST(Search, TimeBudgetIsRespected) {
  // Tigadi from the start to depth 63 would take longer than any test may run: that the search returns at
  // all, short of its depth limit, shows the clock ended it. (No speed is asserted: ctest's timeout guards
  // a hang.)
  auto g = Session::create("tigadi", json::object()).game().clone();
  Searcher s(1 << 12);
  SearchParams p;
  p.ms = 50;
  p.max_depth = kMaxPly - 1;
  SearchResult r = s.run(*g, p);
  EXPECT_LT(r.depth, kMaxPly - 1);
  EXPECT_GT(r.depth, 0);
}

TEST(ChooseMove, InfoHasTheDocumentedFields) {
  Nim g(21);
  Choice c = choose_move(g, nodes_limits(3, 50'000, 1));
  EXPECT_EQ(c.move, "take1");
  for (const char* k : {"level", "depth", "nodes", "score", "pv", "ms", "worlds"}) EXPECT_TRUE(c.info.contains(k)) << k;
  EXPECT_EQ(c.info["worlds"], 1);
  EXPECT_EQ(c.info["pv"][0], "take1");
  EXPECT_GE(c.info["depth"].get<int>(), 1);
}

TEST(ChooseMove, HiddenInformationSearchesSampledWorlds) {
  TreeGame g(equal_moves_tree(3), /*hidden=*/true);
  Choice c = choose_move(g, nodes_limits(3, 3000, 5));
  EXPECT_EQ(c.info["worlds"], 8);
  EXPECT_EQ(g.worlds_sampled(), 8);

  std::vector<TreeNode> t(3);  // with several worlds the clear best still wins the vote
  t[0] = {0, 0, {}, {1, 2}};
  t[1] = {1, 30, {}, {}};
  t[2] = {1, -30, {}, {}};
  TreeGame h(t, true);
  EXPECT_EQ(choose_move(h, nodes_limits(4, 3000, 5)).move, "m1");
}

// A hidden game whose sampled worlds are given trees, dealt in turn (world i is worlds[i mod n]).
class DealtWorlds : public TreeGame {
 public:
  DealtWorlds(std::vector<TreeNode> seen, std::vector<std::vector<TreeNode>> worlds)
      : TreeGame(std::move(seen), /*hidden=*/true), worlds_(std::move(worlds)) {}
  std::unique_ptr<Game> clone() const override { return std::make_unique<DealtWorlds>(*this); }
  std::unique_ptr<Game> sample_world(Player, Rng&) const override {
    return std::make_unique<TreeGame>(worlds_[static_cast<size_t>((*dealt_)++) % worlds_.size()]);
  }

 private:
  std::vector<std::vector<TreeNode>> worlds_;
  std::shared_ptr<int> dealt_ = std::make_shared<int>(0);
};

// Player 0 chooses between m0, which leaves it `standing` in every world, and m1, a gamble that wins outright in
// the worlds that deal the win (2 of the level's 8) and leaves the game even in the others.
DealtWorlds safe_or_gamble(int standing) {
  auto world = [standing](bool win_dealt) {
    std::vector<TreeNode> t(3);
    t[0] = {0, 0, {}, {1, 2}};
    t[1] = {1, -standing, {}, {}};  // eval for player 1, the side to move there
    t[2] = win_dealt ? TreeNode{1, 0, win_for(0), {}} : TreeNode{1, 0, {}, {}};
    return t;
  };
  std::vector<std::vector<TreeNode>> worlds;
  for (int w = 0; w < 8; ++w) worlds.push_back(world(w == 2 || w == 5));
  return DealtWorlds(world(false), worlds);
}

// The vote adds up chances of winning (Game::world_score_scale, 200 by default): a win that 2 worlds of 8 deal
// is worth what it adds to the chances the other six leave. Ahead by the scale (73 in 100 in every world), the
// gamble's 2 wins and 6 even games (5.0) are worth less than the safe move's 8 × 0.73; behind by as much
// (8 × 0.27), more. Counted as amounts, two worlds' wins outvoted the lead in both.
TEST(ChooseMove, AWinSomeWorldsDealIsAGambleTakenWhenBehindAndDeclinedWhenAhead) {
  const Choice ahead = choose_move(safe_or_gamble(200), nodes_limits(3, 3000, 5));
  EXPECT_EQ(ahead.move, "m0");
  EXPECT_EQ(ahead.info["worlds"], 8);
  EXPECT_NEAR(ahead.info["score"].get<int>(), 200, 1);  // the average vote in evaluate()'s units again
  const Choice behind = choose_move(safe_or_gamble(-200), nodes_limits(3, 3000, 5));
  EXPECT_EQ(behind.move, "m1");
  EXPECT_NEAR(behind.info["score"].get<int>(), 102, 1);  // 5 chances in 8: 200 × ln(5 / 3)
}

// Several worlds report an average chance, never a forced win's score: an average near 1 may hold a world that
// does not win.
TEST(ChooseMove, AMoveEveryWorldWinsReportsAHighScoreButNoForcedWin) {
  std::vector<TreeNode> t(3);  // two moves, or nothing is searched
  t[0] = {0, 0, {}, {1, 2}};
  t[1] = {1, 0, {}, {}};
  t[2] = {1, 0, win_for(0), {}};
  const Choice c = choose_move(DealtWorlds(t, {t}), nodes_limits(3, 3000, 5));
  EXPECT_EQ(c.move, "m1");
  EXPECT_EQ(c.info["worlds"], 8);
  EXPECT_GT(c.info["score"].get<int>(), 200 * 13);  // 200 × ln(999,999)
  EXPECT_FALSE(is_win_score(c.info["score"].get<int>()));
}

// Level 5 samples more worlds when its budget gives each at least 200,000 nodes (80 ms on a clock), up to 24:
// eight on a small budget (where eight scored more than sixteen), 24 on its own 2 s; other levels keep theirs.
TEST(ChooseMove, LevelFiveSamplesMoreWorldsOnlyWhenEachKeepsItsShare) {
  std::vector<TreeNode> t(3);  // two moves, or nothing is searched
  t[0] = {0, 0, {}, {1, 2}, false, /*hidden=*/true};
  t[1] = {1, 0, {}, {}};
  t[2] = {1, 10, {}, {}};
  const TreeGame g(t);
  EXPECT_EQ(choose_move(g, nodes_limits(5, 114'000, 5)).info["worlds"], 8);
  EXPECT_EQ(choose_move(g, nodes_limits(5, 2'000'000, 5)).info["worlds"], 10);
  EXPECT_EQ(choose_move(g, nodes_limits(5, 5'200'000, 5)).info["worlds"], 24);
  EXPECT_EQ(choose_move(g, nodes_limits(5, 50'000'000, 5)).info["worlds"], 24);
  EXPECT_EQ(choose_move(g, nodes_limits(4, 5'200'000, 5)).info["worlds"], 12);
  EXPECT_EQ(choose_move(g, nodes_limits(3, 5'200'000, 5)).info["worlds"], 8);
  Limits timed;
  timed.level = 5;
  timed.seed = 5;
  timed.ms = 2000;  // the tree is searched to the end at once: no world waits for the clock
  EXPECT_EQ(choose_move(g, timed).info["worlds"], 24);
  timed.ms = 400;
  EXPECT_EQ(choose_move(g, timed).info["worlds"], 8);
}

// Nim whose worlds are sampled: each world is the game itself, so every world's search costs the same and
// never ends in a proof (a thousand counters); or, from world `costly_from` on, a wider Nim (up to 6 a turn),
// whose search of the same depth costs far more.
class SampledNim : public Nim {
 public:
  explicit SampledNim(int n, int costly_from = std::numeric_limits<int>::max())
      : Nim(n), n_(n), costly_from_(costly_from) {}
  std::unique_ptr<Game> clone() const override { return std::make_unique<SampledNim>(*this); }
  bool hidden_information() const override { return true; }
  std::unique_ptr<Game> sample_world(Player, Rng&) const override {
    return std::make_unique<Nim>(n_, (*dealt_)++ < costly_from_ ? 3 : 6);
  }

 private:
  int n_;
  int costly_from_;
  std::shared_ptr<int> dealt_ = std::make_shared<int>(0);
};

// The depth a search of one Nim world reaches on these nodes (stopped by them, not by a proof).
int depth_one_world_reaches(uint64_t nodes) {
  Nim world(1000);
  Searcher searcher(size_t{1} << 20);
  SearchParams one;
  one.nodes = nodes;
  one.exact_root_scores = true;
  const SearchResult alone = searcher.run(world, one);
  EXPECT_TRUE(alone.stopped);
  return alone.depth;
}

// Level 5 widens: the first world its share of the budget stops sets the depth, the worlds after it search to
// that depth and no deeper, and what they leave buys more worlds at it. On 8,000 nodes level 5 plans eight
// worlds of 1,000; each finishes the depth one world reaches on 1,000 and costs less than that, so more than
// eight are searched, all at that depth, within the budget. Level 4 does not widen: twelve worlds.
TEST(ChooseMove, LevelFiveSpendsWhatItsWorldsLeaveAtTheirDepthOnMoreWorlds) {
  const SampledNim g(1000);
  const int depth = depth_one_world_reaches(1000);
  for (uint64_t seed : {5, 6}) {
    const Choice c = choose_move(g, nodes_limits(5, 8000, seed));
    EXPECT_GT(c.info["worlds"].get<int>(), 8) << "seed " << seed << ": " << c.info;
    EXPECT_EQ(c.info["depth"].get<int>(), depth) << "seed " << seed << ": " << c.info;
    EXPECT_LE(c.info["nodes"].get<uint64_t>(), 8000u) << "seed " << seed << ": " << c.info;
  }
  EXPECT_EQ(choose_move(g, nodes_limits(4, 8000, 5)).info["worlds"], 12);
}

// An extra world the budget runs out on before the common depth is left out of the vote: its shallower scores
// would mix depths. Here the ninth world dealt (the first extra one) is a wider Nim that the nodes left cannot
// search to the eight worlds' depth, so level 5 stops at eight worlds, all at that depth.
TEST(ChooseMove, AnExtraWorldTheBudgetRunsOutOnIsLeftOutOfTheVote) {
  const int depth = depth_one_world_reaches(1000);
  const Choice c = choose_move(SampledNim(1000, /*costly_from=*/8), nodes_limits(5, 8000, 5));
  EXPECT_EQ(c.info["worlds"].get<int>(), 8) << c.info;
  EXPECT_EQ(c.info["depth"].get<int>(), depth) << c.info;
  EXPECT_LE(c.info["nodes"].get<uint64_t>(), 8000u) << c.info;
}

// Whether to search sampled worlds is the position's to say as it stands (Truth hides its armies in setup and
// nothing in play), not the game's once and for all.
TEST(ChooseMove, SampledWorldsFollowThePositionAsItStands) {
  std::vector<TreeNode> t(5);
  t[0] = {0, 0, {}, {1, 2}, false, /*hidden=*/true};
  t[1] = {1, 0, {}, {3, 4}};
  t[2] = {1, 0, {}, {3, 4}};
  t[3] = {0, 10, {}, {}};
  t[4] = {0, -10, {}, {}};
  TreeGame g(t);
  EXPECT_EQ(choose_move(g, nodes_limits(3, 3000, 5)).info["worlds"], 8);
  g.apply(Move{0}, nullptr);
  ASSERT_FALSE(g.hidden_information());
  const int before = g.worlds_sampled();
  EXPECT_EQ(choose_move(g, nodes_limits(3, 3000, 5)).info["worlds"], 1);
  EXPECT_EQ(g.worlds_sampled(), before + 1);
}

TEST(AcceptsOffer, AcceptsOnlyWhenNotBetter) {
  // Player 0 to move; every line ends in an evaluation the tree fixes.
  auto tree = [](int eval_for_1) {
    std::vector<TreeNode> t(2);
    t[0] = {0, -eval_for_1, {}, {1}};
    t[1] = {1, eval_for_1, {}, {}};
    return TreeGame(t);
  };
  Limits l = nodes_limits(3, 1000, 0);
  EXPECT_TRUE(accepts_offer(tree(300), 0, "draw", l));    // 0 stands worse: a draw is welcome
  EXPECT_FALSE(accepts_offer(tree(-300), 0, "draw", l));  // 0 stands better: play on
  EXPECT_FALSE(accepts_offer(tree(300), 1, "draw", l));   // judged for the seat asked, not the mover
  EXPECT_TRUE(accepts_offer(tree(0), 0, "draw", l));      // level: accept
}

TEST(Match, WilsonInterval) {
  MatchResult r;
  r.a_wins = 196;
  r.draws = 3;
  r.b_wins = 1;
  EXPECT_NEAR(r.a_score(), 0.9875, 1e-9);
  auto [lo, hi] = r.a_score_interval();
  EXPECT_NEAR(lo, 0.9605, 0.001);
  EXPECT_NEAR(hi, 0.9961, 0.001);
  MatchResult none;
  EXPECT_EQ(none.a_score_interval(), (std::pair<double, double>{0.0, 1.0}));
}

TEST(Match, EloDifferenceOfAScore) {
  // 75% is +191 Elo (400 log10 3), an even score 0, and the interval is the Wilson interval mapped alike.
  const EloDifference three_to_one = elo_difference(60, 0, 20);
  EXPECT_NEAR(three_to_one.elo, 190.85, 0.01);
  EXPECT_NEAR(three_to_one.low, elo_from_score(MatchResult::interval(0.75, 80).first), 1e-9);
  EXPECT_NEAR(three_to_one.high, elo_from_score(MatchResult::interval(0.75, 80).second), 1e-9);
  EXPECT_LT(three_to_one.low, three_to_one.elo);
  EXPECT_GT(three_to_one.high, three_to_one.elo);
  EXPECT_EQ(elo_difference(10, 20, 10).elo, 0.0);
  EXPECT_EQ(elo_difference(0, 40, 0).elo, 0.0);  // draws are half a win each
  // A clean sweep: an infinite difference, a finite lower end.
  const EloDifference sweep = elo_difference(30, 0, 0);
  EXPECT_TRUE(std::isinf(sweep.elo) && sweep.elo > 0);
  EXPECT_TRUE(std::isinf(sweep.high));
  EXPECT_TRUE(std::isfinite(sweep.low) && sweep.low > 0);
  EXPECT_LT(elo_difference(0, 0, 30).elo, 0);
}

TEST(Match, PairedGamesBetweenEqualSidesAreOneGameMirrored) {
  // Paired: games 2k and 2k+1 share their start and each seat's move seeds, so equal sides play the same game
  // twice with the colours swapped, and score exactly half.
  MatchConfig config;
  config.game = "tigadi";
  config.paired = true;
  config.seed = 5;
  Limits limits = default_limits(3);
  limits.nodes = 1500;
  limits.ms.reset();
  LevelMover a(limits), b(limits);
  for (int pair = 0; pair < 3; ++pair) {
    const MatchResult first = play_game(config, 2 * pair, a, b);
    const MatchResult second = play_game(config, 2 * pair + 1, a, b);
    EXPECT_EQ(first.plies, second.plies) << "pair " << pair;
    EXPECT_EQ(first.last_winners, second.last_winners) << "pair " << pair;  // the same seat wins both
    EXPECT_EQ(first.a_wins, second.b_wins) << "pair " << pair;
    EXPECT_EQ(first.a_nodes, second.b_nodes) << "pair " << pair;
  }
  // With an opening, each pair starts from its own random moves, the same in both of its games: the pairs
  // differ from each other, and equal sides still play each pair's game twice, mirrored.
  config.opening_plies = 4;
  std::set<long long> lengths;
  for (int pair = 0; pair < 3; ++pair) {
    const MatchResult first = play_game(config, 2 * pair, a, b);
    const MatchResult second = play_game(config, 2 * pair + 1, a, b);
    EXPECT_EQ(first.plies, second.plies) << "opening, pair " << pair;
    EXPECT_EQ(first.a_wins, second.b_wins) << "opening, pair " << pair;
    EXPECT_EQ(first.a_moves + first.b_moves + 4, first.plies) << "the opening's moves are no side's";
    lengths.insert(first.plies * 1000 + static_cast<long long>(first.a_nodes % 1000));
  }
  EXPECT_GT(lengths.size(), 1u) << "every pair played the same game";
  config.opening_plies = 0;
  // Unpaired, the second game of a pair draws its own seeds (the match of selfplay).
  config.paired = false;
  const MatchResult g0 = play_game(config, 0, a, b), g1 = play_game(config, 1, a, b);
  EXPECT_FALSE(g0.plies == g1.plies && g0.a_nodes == g1.b_nodes);
}

// ---------------------------------------------------------------------------------------------------
// Tigadi.

Session tigadi(const json& board, int to_move, json in_hand = json::array({0, 0})) {
  return Session::from_state("tigadi", json{{"board", board}, {"to_move", to_move}, {"in_hand", in_hand}});
}

bool has_capture(const Session& s) {
  for (const std::string& m : s.legal())
    if (m.find('x') != std::string::npos) return true;
  return false;
}

TEST(TigadiAI, TakesTheWinningCapture) {
  // Bone closes a1-d1-g1 with g4-g1 and takes Seed's third goti: Seed is down to two and loses.
  Session s = tigadi({{"a1", "0G"}, {"d1", "0G"}, {"g4", "0G"}, {"e4", "0G"},
                      {"d6", "1G"}, {"f4", "1G"}, {"b4", "1G"}},
                     0);
  for (int level : {2, 3, 4}) {
    for (uint64_t seed : {1, 2, 3}) {
      Choice c = choose_move(s.game(), nodes_limits(level, 20'000, seed));
      EXPECT_EQ(c.move.substr(0, 6), "g4-g1x") << "level " << level << ": " << c.move;
      Session after = s.clone();
      after.play(c.move);
      ASSERT_TRUE(after.over());
      EXPECT_EQ(after.game().result()->winners, std::vector<Player>{0});
      EXPECT_EQ(c.info["score"], kWin - 1);
    }
  }
}

TEST(TigadiAI, DoesNotOpenALineForTheOpponent) {
  // Bone's g7 blocks Seed's a7-d7-g7; if it leaves, Seed slides f6-g7 and captures.
  Session s = tigadi({{"g7", "0G"}, {"a1", "0G"}, {"d1", "0G"}, {"b2", "0G"},
                      {"a7", "1G"}, {"d7", "1G"}, {"f6", "1G"}, {"c4", "1G"}},
                     0);
  ASSERT_FALSE(has_capture(s));
  // The test means something: some Bone move does hand Seed a capture.
  bool some_move_loses = false;
  for (const std::string& m : s.legal()) {
    Session t = s.clone();
    t.play(m);
    some_move_loses = some_move_loses || has_capture(t);
  }
  ASSERT_TRUE(some_move_loses);

  for (uint64_t seed = 0; seed < 8; ++seed) {
    Limits l = nodes_limits(3, 50'000, seed);
    l.depth = 2;
    Choice c = choose_move(s.game(), l);
    Session after = s.clone();
    after.play(c.move);
    EXPECT_FALSE(has_capture(after)) << "seed " << seed << " played " << c.move;
    EXPECT_EQ(c.info["depth"], 2);
  }
}

TEST(TigadiAI, QuiescenceSeesTheOpponentsCaptureOnePlyDeep) {
  // The position of DoesNotOpenALineForTheOpponent, searched one ply deep: with quiescence Seed's
  // capture after a careless Bone move is searched, so Bone keeps g7 and its score is not a piece down.
  Session s = tigadi({{"g7", "0G"}, {"a1", "0G"}, {"d1", "0G"}, {"b2", "0G"},
                      {"a7", "1G"}, {"d7", "1G"}, {"f6", "1G"}, {"c4", "1G"}},
                     0);
  std::unique_ptr<Game> g = s.game().clone();
  Searcher searcher(1 << 12);
  SearchParams p;
  p.max_depth = 1;
  p.exact_root_scores = true;
  const SearchResult r = searcher.run(*g, p);
  EXPECT_EQ(r.depth, 1);
  Session after = s.clone();
  after.play(g->move_to_string(r.best));
  EXPECT_FALSE(has_capture(after)) << g->move_to_string(r.best);
  for (const RootScore& rs : r.root) {
    Session t = s.clone();
    t.play(g->move_to_string(rs.move));
    // A move that hands Seed a capture is scored about a goti below the best (measured: g7-g4 -104, best
    // 60). Without quiescence the horizon sees only Seed's threat: g7-g4 scores 2, within 60 of the best.
    if (has_capture(t)) {
      EXPECT_LE(rs.score, r.score - 100) << g->move_to_string(rs.move);
    }
  }
}

TEST(TigadiAI, OfferJudgementFollowsTheMaterial) {
  // Tigadi has no draw offers, but the judgement is game-independent: Bone is far ahead here.
  Session s = tigadi({{"a1", "0G"}, {"d1", "0G"}, {"g4", "0G"}, {"e4", "0G"}, {"b2", "0G"}, {"d2", "0G"},
                      {"d6", "1G"}, {"f4", "1G"}, {"b4", "1G"}, {"c5", "1G"}},
                     1);
  const Limits l = nodes_limits(3, 5'000, 0);
  EXPECT_FALSE(accepts_offer(s.game(), 0, "draw", l));
  EXPECT_TRUE(accepts_offer(s.game(), 1, "draw", l));
}

TEST(TigadiAI, SameSeedAndNodeBudgetGiveTheSameMove) {
  Session s = Session::create("tigadi", json::object());
  for (const char* m : {"d1", "d7", "g4", "a4", "b2"}) s.play(m);
  for (uint64_t seed : {1, 7, 42}) {
    Choice a = choose_move(s.game(), nodes_limits(4, 30'000, seed));
    Choice b = choose_move(s.game(), nodes_limits(4, 30'000, seed));
    EXPECT_EQ(a.move, b.move);
    EXPECT_EQ(a.info["nodes"], b.info["nodes"]);
    EXPECT_EQ(a.info["score"], b.info["score"]);
    EXPECT_EQ(a.info["pv"], b.info["pv"]);
  }
}

TEST(TigadiAI, LevelOneIsRandomAndLegal) {
  Session s = Session::create("tigadi", json::object());
  const std::vector<std::string> legal = s.legal();
  std::set<std::string> chosen;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    Limits l;
    l.level = 1;
    l.seed = seed;
    const std::string m = choose_move(s.game(), l).move;
    EXPECT_TRUE(std::find(legal.begin(), legal.end(), m) != legal.end()) << m;
    chosen.insert(m);
  }
  EXPECT_GE(chosen.size(), 15u);  // 24 points, 50 draws
}

TEST(TigadiAI, TinyBudgetStillGivesALegalMove) {
  Session s = Session::create("tigadi", json::object());
  for (const char* m : {"d1", "d7", "g4"}) s.play(m);
  for (uint64_t nodes : {1, 2, 10}) {
    Choice c = choose_move(s.game(), nodes_limits(5, nodes, 3));
    const std::vector<std::string> legal = s.legal();
    EXPECT_TRUE(std::find(legal.begin(), legal.end(), c.move) != legal.end()) << c.move;
  }
}

TEST(TigadiAI, DefaultLevelsAnswerWithinTheirBudget) {
  Session s = Session::create("tigadi", json::object());
  Limits l = default_limits(3);
  ASSERT_TRUE(l.ms);
  Choice c = choose_move(s.game(), l);
  // From the opening no search completes its depth limit: returning at all shows the time budget ended it.
  // (No speed is asserted; ctest's timeout guards a hang.)
  EXPECT_LT(c.info["depth"].get<int>(), kMaxPly - 1);
  Choice two = choose_move(s.game(), default_limits(2));
  EXPECT_LE(two.info["depth"].get<int>(), 2);
}

TEST(TigadiAI, LevelThreeBeatsRandom) {
  MatchConfig config;
  config.game = "tigadi";
  config.a = nodes_limits(3, 5'000, 0);
  config.b = nodes_limits(1, 1, 0);
  config.games = 20;
  config.seed = 11;
  MatchResult r = play_match(config);
  EXPECT_EQ(r.games(), 20);
  EXPECT_GE(r.a_score(), 0.9) << r.a_wins << "-" << r.draws << "-" << r.b_wins;
  // Reproducible: node budgets and the match seed fix every game.
  MatchResult again = play_match(config);
  EXPECT_EQ(again.a_wins, r.a_wins);
  EXPECT_EQ(again.plies, r.plies);
}

// ---- more than two players: the paranoid search and matches of one seat against the rest ---------------

// A tree of four players whose nodes hold every player's score (Game::evaluate_for).
struct ScoredNode {
  Player to_move = 0;
  std::array<int, 4> score{};  // per player
  std::optional<Result> result;
  std::vector<int> children;
};

class FourPlayerTree : public Game {
 public:
  explicit FourPlayerTree(std::vector<ScoredNode> nodes) : nodes_(std::move(nodes)) {}
  std::unique_ptr<Game> clone() const override { return std::make_unique<FourPlayerTree>(*this); }
  std::string_view kind() const override { return "four-player tree"; }
  int num_players() const override { return 4; }
  Phase phase() const override { return node().result ? Phase::over : Phase::play; }
  Player to_move() const override { return node().to_move; }
  int ply() const override { return static_cast<int>(path_.size()) - 1; }
  const Result* result() const override { return node().result ? &*node().result : nullptr; }
  void legal_moves(MoveList& out) const override {
    out.clear();
    for (size_t i = 0; i < node().children.size() && !node().result; ++i) out.push(Move{static_cast<uint32_t>(i)});
  }
  void apply(Move m, EventLog*) override { path_.push_back(node().children.at(m.code)); }
  void undo() override { path_.pop_back(); }
  std::string move_to_string(Move m) const override { return "m" + std::to_string(m.code); }
  void end_with(const Result&, EventLog*) override { fail(ErrorKind::conflict, "not in a tree"); }
  json state_json() const override { return json{{"node", path_.back()}}; }
  json observation_json(Player) const override { return state_json(); }
  int evaluate() const override { return evaluate_for(to_move()); }
  int evaluate_for(Player who) const override { return node().score[static_cast<size_t>(who)]; }
  uint64_t hash() const override { return 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(path_.back() + 1); }

 private:
  const ScoredNode& node() const { return nodes_[static_cast<size_t>(path_.back())]; }
  std::vector<ScoredNode> nodes_;
  std::vector<int> path_{0};
};

// Paranoid: every other player is assumed to play against the root player. m0 lets Jade (1) choose between a
// leaf good for both Jade and the root and one bad for both; m1 lets Ember (2) choose between two leaves good
// for the root. Max-n would expect Jade to take the leaf good for itself (+50 for the root) and play m0; the
// paranoid search expects the worst (-30) and plays m1, worth +10 at worst.
TEST(Search, WithMorePlayersEveryOtherPlayerIsAssumedToPlayAgainstTheSearcher) {
  std::vector<ScoredNode> t(7);
  t[0] = {0, {}, {}, {1, 2}};
  t[1] = {1, {}, {}, {3, 4}};
  t[2] = {2, {}, {}, {5, 6}};
  t[3] = {3, {50, 100, 0, 0}, {}, {}};
  t[4] = {3, {-30, -100, 0, 0}, {}, {}};
  t[5] = {3, {10, 0, 0, 0}, {}, {}};
  t[6] = {3, {20, 0, 0, 0}, {}, {}};
  FourPlayerTree g(t);
  Searcher s(1 << 10);
  SearchParams p;
  p.max_depth = 2;
  const SearchResult r = s.run(g, p);
  EXPECT_EQ(r.best, Move{1});
  EXPECT_EQ(r.score, 10);
}

// One round of a raid: Ivory (0) advances or holds; then Jade, Ember and Onyx (1-3) each hit or rest. An
// advance is worth 10 to Ivory less 8 for every hit; holding is worth 0 whatever they do. Every opponent's
// turn may be skipped (Game::turn_skippable), which best-reply search uses.
class Raid : public Game {
 public:
  std::unique_ptr<Game> clone() const override { return std::make_unique<Raid>(*this); }
  std::string_view kind() const override { return "raid"; }
  int num_players() const override { return 4; }
  Phase phase() const override { return Phase::play; }
  Player to_move() const override { return state_.to_move; }
  int ply() const override { return static_cast<int>(undo_.size()); }
  const Result* result() const override { return nullptr; }
  void legal_moves(MoveList& out) const override {
    out.clear();
    if (state_.round_over) return;  // the round is over: nothing to play, the search evaluates
    out.push(Move{0});
    out.push(Move{1});
  }
  void apply(Move m, EventLog*) override {
    undo_.push_back(state_);
    if (state_.to_move == 0) state_.advanced = m.code == 0;
    else state_.hits += m.code == 0;
    next();
  }
  void undo() override {
    state_ = undo_.back();
    undo_.pop_back();
  }
  bool turn_skippable() const override { return state_.to_move != 0 && !state_.round_over; }
  void skip_turn() override {
    undo_.push_back(state_);
    ++skips_;
    next();
  }
  void undo_skip_turn() override { undo(); }
  std::string move_to_string(Move m) const override { return std::to_string(m.code); }
  void end_with(const Result&, EventLog*) override { fail(ErrorKind::conflict, "a raid does not end"); }
  json state_json() const override { return json{{"hits", state_.hits}}; }
  json observation_json(Player) const override { return state_json(); }
  int evaluate() const override { return evaluate_for(to_move()); }
  int evaluate_for(Player who) const override {
    const int ivory = state_.advanced ? 10 - 8 * state_.hits : 0;
    return who == 0 ? ivory : -ivory;
  }
  uint64_t hash() const override {
    return (static_cast<uint64_t>(state_.to_move) | static_cast<uint64_t>(state_.hits) << 4 |
            static_cast<uint64_t>(state_.advanced) << 8 | static_cast<uint64_t>(state_.round_over) << 9) *
           0x9E3779B97F4A7C15ULL;
  }
  int skips() const { return skips_; }

 private:
  struct State {
    Player to_move = 0;
    int hits = 0;
    bool advanced = false;
    bool round_over = false;
  };
  void next() {
    state_.to_move = (state_.to_move + 1) % 4;
    if (state_.to_move == 0) state_.round_over = true;
  }
  State state_;
  std::vector<State> undo_;
  int skips_ = 0;
};

// Paranoid search fears all three opponents hitting (10 - 24) and holds; best-reply search lets one opponent
// reply between two of Ivory's turns, whichever replies worst for it (10 - 8 = 2), and advances. The skips it
// searched are counted; the paranoid search made none.
TEST(Search, BestReplyLetsOneOpponentReplyWhereTheParanoidSearchFearsThemAll) {
  SearchParams p;
  p.max_depth = 4;
  Searcher s(1 << 10);
  Raid paranoid;
  SearchResult r = s.run(paranoid, p);
  EXPECT_EQ(r.best, Move{1});
  EXPECT_EQ(r.score, 0);
  EXPECT_EQ(paranoid.skips(), 0);

  p.best_reply = true;
  Raid best_reply;
  r = s.run(best_reply, p);
  EXPECT_EQ(r.best, Move{0});
  EXPECT_EQ(r.score, 2);
  EXPECT_GT(best_reply.skips(), 0);
  // The principal variation stops where a turn is skipped: Ivory's advance, then Jade's hit (Jade replies, its
  // successors skip) or nothing more.
  ASSERT_FALSE(r.pv.empty());
  EXPECT_EQ(r.pv[0], Move{0});
  EXPECT_LE(r.pv.size(), 2u);
}

// A shared victory is a win for each of its winners: Ivory (0) ends the game at once with Ember (2) beside it
// among the winners rather than take a large lead; Jade (1), to move in the same position, counts it a loss.
TEST(Search, ASharedVictoryIsAWinForEveryWinnerAndALossForTheOthers) {
  std::vector<ScoredNode> t(3);
  t[0] = {0, {}, {}, {1, 2}};
  t[1] = {1, {}, Result{{0, 2, 3}, "icon-destroyed"}, {}};
  t[2] = {1, {5'000, -5'000, 0, 0}, {}, {}};
  FourPlayerTree g(t);
  Searcher s(1 << 10);
  SearchParams p;
  p.max_depth = 2;
  SearchResult r = s.run(g, p);
  EXPECT_EQ(r.best, Move{0});
  EXPECT_EQ(r.score, kWin - 1);
  t[0].to_move = 1;
  t[2].score = {-5'000, 5'000, 0, 0};
  FourPlayerTree h(t);
  r = s.run(h, p);
  EXPECT_EQ(r.best, Move{1});
  EXPECT_EQ(r.score, 5'000);
}

// Matches of four seats: a plays one seat (each in turn), b the other three; every winner of a shared victory
// is counted. Random players and a short ply limit (it ends by score, often shared) make quick games.
TEST(Match, AGameWrittenAsItsTextRecordReplaysToTheSameGame) {
  // The arena's --records: each game's text record names the sides' seats, holds the setups (the record is
  // the referee's, hiding nothing) and replays to the game that was played, its adjudication included.
  MatchConfig config;
  config.game = "stratego";
  config.setup = "ai";
  config.paired = true;
  config.seed = 11;
  config.max_plies = 40;
  config.a_name = "new side";
  config.b_name = "old";
  const std::string path = ::testing::TempDir() + "match_record_test.txt";
  config.record_to = path;
  Limits limits = default_limits(2);
  limits.nodes = 300;
  limits.ms.reset();
  LevelMover a(limits), b(limits);
  for (int g = 0; g < 2; ++g) {
    std::remove(path.c_str());
    const MatchResult played = play_game(config, g, a, b);
    std::ifstream in(path);
    ASSERT_TRUE(in) << "game " << g << ": no record written";
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const TextRecord read = parse_record_text(text);
    ASSERT_EQ(read.tags.players.size(), 2u);
    EXPECT_EQ(read.tags.players[static_cast<size_t>(g % 2)], "new side") << "game " << g << ": a's seat";
    EXPECT_EQ(read.tags.players[static_cast<size_t>(1 - g % 2)], "old") << "game " << g;
    const Session replayed = Session::from_record(read.record);
    ASSERT_TRUE(replayed.over()) << "game " << g;
    EXPECT_EQ(replayed.game().result()->reason, "ply-limit") << "game " << g;
    EXPECT_EQ(static_cast<long long>(replayed.record()["moves"].size()), played.plies) << "game " << g;
  }
  // A file that cannot be written: the game is still played and counted, and its report says so.
  config.record_to = ::testing::TempDir() + "no such directory/record.txt";
  const MatchResult unwritten = play_game(config, 0, a, b);
  EXPECT_EQ(unwritten.games(), 1);
  EXPECT_NE(unwritten.last_end.find("record not written"), std::string::npos) << unwritten.last_end;
}

TEST(Match, FourSeatsCountEveryWinnerOfASharedVictory) {
  MatchConfig config;
  config.game = "truth";
  config.options = json{{"players", 4}, {"max_plies", 40}};
  config.a = nodes_limits(1, 1, 0);
  config.b = nodes_limits(1, 1, 0);
  config.games = 8;
  config.seed = 3;
  config.setup = "random";  // contacts at the start and random play make uneven scores, often tied at the top
  int shared = 0;
  MatchResult last;
  const MatchResult r = play_match(config, [&](int g, const MatchResult& now) {
    const int a_won = now.a_seat_wins - last.a_seat_wins, b_won = now.b_seat_wins - last.b_seat_wins;
    EXPECT_EQ(now.a_seats - last.a_seats, 1) << g;
    EXPECT_EQ(now.b_seats - last.b_seats, 3) << g;
    EXPECT_EQ(now.a_wins - last.a_wins, a_won) << g;  // a's game whenever its seat is among the winners
    EXPECT_EQ(now.b_wins - last.b_wins, a_won == 0 && b_won > 0 ? 1 : 0) << g;
    EXPECT_EQ(now.draws - last.draws, a_won + b_won == 0 ? 1 : 0) << g;
    EXPECT_LE(a_won + b_won, 3) << g;
    shared += a_won + b_won > 1;
    // The report says how it ended, a's seat (every seat in turn) and the scores that decided it.
    const size_t seat = now.last_end.find("; a in seat " + std::to_string(g % 4) + "; scores ");
    EXPECT_TRUE(seat != std::string::npos && seat > 0) << now.last_end;
    last = now;
  });
  EXPECT_EQ(r.games(), 8);
  EXPECT_GT(shared, 0) << "no shared victory in these games: the test would not see one counted";
}

}  // namespace
}  // namespace tabula::ai
