// Game-independent alpha-beta search over the Game interface: negamax with principal variation search,
// iterative deepening a whole turn at a time (Game::moves_per_turn), a transposition table, killer and
// history move ordering, quiescence search over captures at the horizon, and node/time/stop limits.
//
// It is a paranoid search (Sturtevant and Korf, 2000): the player to move at the root is one side, every
// other player the other, and the other side is assumed to play together against it. Every position is
// scored for the root player (Game::evaluate_for) and a value is negated whenever the side to move changes,
// so the search is negamax over two sides. With two players that is exactly minimax; with four (the Game of
// Truth) it lets alpha-beta prune as it does with two, where max-n could hardly prune at all, at the price
// of fearing coalitions that seldom form. A move after which the same side is to move again (a Truth turn
// of two actions) keeps the sign. A finished game is a win for the root player when it is among the
// winners, alone or sharing the victory. With best reply on (SearchParams::best_reply), only one opponent
// plays between two of the searcher's turns: the paranoid scores, without the paranoid tree's fear of all.
#pragma once

#include "core/game.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <cmath>
#include <vector>

namespace tabula::ai {

// Scores are in hundredths of a piece from the point of view of the player to move. A won game is
// kWin minus the number of plies to the end, so a faster win scores higher and a slower loss less badly.
inline constexpr int kWin = 1'000'000;
inline constexpr int kInfinity = kWin + 1;
inline constexpr int kMaxPly = 64;             // deepest line searched (iterations and PV included)
// A win is scored kWin less its distance in plies; an endgame table (Game::solved) can know wins far beyond
// the search's horizon, so win scores span this many plies.
inline constexpr int kMaxWinDistance = 4096;
inline constexpr int kWinThreshold = kWin - kMaxWinDistance - 1;  // scores above this are forced wins
// A score read as a chance of winning, 1 / (1 + e^(-score / scale)), and back: how information-set MCTS turns
// a leaf into a reward and the vote of sampled worlds adds them up (Game::world_score_scale); `info.score`
// reports either in the evaluation's units again.
inline double win_chance(double score, double scale) { return 1.0 / (1.0 + std::exp(-score / scale)); }
inline int score_of_chance(double chance, double scale) {
  return static_cast<int>(std::lround(scale * std::log(chance / (1 - chance))));
}
// Quiescence: past the horizon only captures (Game::is_capture) are searched, at most this many plies,
// so the search always ends even where captures answer captures.
inline constexpr int kMaxQuiescencePlies = 4;
bool is_win_score(int score);
bool is_loss_score(int score);

// Where the search reads the time: the steady clock, or a test's clock that advances as the test decides, so
// that how a time budget is kept can be tested without depending on the machine's speed.
using Clock = std::function<std::chrono::steady_clock::time_point()>;

struct SearchParams {
  int max_depth = kMaxPly - 1;
  std::optional<uint64_t> nodes;  // when set, time is never read: the search is deterministic
  std::optional<int> ms;          // wall clock: the search stops at it (see run)
  Clock clock;                    // empty: std::chrono::steady_clock
  const std::atomic<bool>* stop = nullptr;
  // Search every root move with a full window, so each gets its exact score (needed to add scores up
  // across sampled worlds). Otherwise only moves as good as the best get exact scores.
  bool exact_root_scores = false;
  uint64_t seed = 0;  // shuffles the root moves, so equal moves are met in varying order
  // Extend the search over captures at the horizon. Off: the horizon's evaluate() is final (tests use
  // this to show what quiescence changes).
  bool quiescence = true;
  // Late move reductions (GameKind::ai_late_move_reductions): late quiet moves are searched a ply shallower
  // first and again at full depth only when they look better than the best so far.
  bool late_move_reductions = false;
  // Late move pruning (GameKind::ai_late_move_pruning): at a node that need not be exact, within 3 plies of the
  // horizon, the quiet moves after the first few (kLateMoveWidth by depth) are not searched.
  bool late_move_pruning = false;
  // Null-move pruning where the game allows it (Game::null_move_allowed): two players only.
  bool null_move = true;
  // Best-reply search (GameKind::ai_best_reply; more than two players, where the game can skip a turn): between
  // two of the searcher's turns exactly one opponent plays, whichever replies worst for the searcher, and every
  // other opponent's turn is skipped (Game::skip_turn). Schadd and Winands, "Best Reply Search for Multiplayer
  // Games" (2011): deeper than the paranoid search on the same nodes, and without its fear that every opponent
  // plays against the searcher at once. A line through a skip is not a line of moves: the principal variation
  // stops at the first skip.
  bool best_reply = false;
  // Keep the table from the searcher's last run (the same game a move later): its entries still hold, and they
  // order the first iterations. Only for two players without hidden information, whose scores do not depend on
  // the root player or the sampled world (ai::Memory decides). Killers are cleared and history halved.
  bool keep_table = false;
};

struct RootScore {
  Move move;
  int score = -kInfinity;
  bool exact = false;  // false: score is only an upper bound (the move is worse than the best)
  std::vector<Move> pv;  // starts with move; filled when exact
};

struct SearchResult {
  Move best;
  int score = 0;
  int depth = 0;           // last completed iteration (0: none completed; best is then a guess)
  uint64_t nodes = 0;
  std::vector<Move> pv;    // from the root, best first
  // Every root move, scored at `depth`; when an unfinished deeper iteration refuted the best move, the moves
  // it reached first, with their deeper scores, and the rest marked inexact.
  std::vector<RootScore> root;
  // A limit or the stop flag ended the search before max_depth (also when, adding scores across worlds, the
  // time left would not have finished the next iteration, so none was started).
  bool stopped = false;
  int64_t ms = 0;
  // The root moves whose exact score equals the best score (at least one when depth > 0).
  std::vector<Move> equal_best() const;
};

class Searcher {
 public:
  // tt_entries is rounded down to a power of two; the table is allocated here, once, and cleared
  // at the start of every run.
  explicit Searcher(size_t tt_entries);
  ~Searcher();
  Searcher(const Searcher&) = delete;
  Searcher& operator=(const Searcher&) = delete;

  // Searches `game` (in play, with at least one legal move) and leaves it as it was.
  SearchResult run(Game& game, const SearchParams& params);

 private:
  struct TTEntry;
  struct Frame;
  enum Bound : uint8_t { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };
  uint16_t generation_ = 0;  // the run an entry was stored in: older entries give way first
  uint16_t valid_from_ = 0;  // the table holds only entries stored since this generation (clear)

  int negamax(int depth, int alpha, int beta, int ply, bool null_allowed = true);
  static void extend_pv(Frame& f, Move m, const Frame& child);
  static Move select_next(Frame& f, int i, int n);
  int quiesce(int depth, int alpha, int beta, int ply);
  int child_value(Player mover, int depth, int alpha, int beta, int ply);
  // Best-reply search: whether the player to move is an opponent at the start of its turn, and the value (for
  // that opponent's side) of skipping its turn; `quiescent` continues past the horizon.
  bool at_opponent_turn_start() const;
  int skip_value(int depth, int alpha, int beta, int ply, bool quiescent);
  // Whether the move about to be played by `mover` is an opponent's reply (the round's one) or the searcher's.
  void note_mover(Player mover) { replied_ = mover != root_; }
  // The static value of the current position for the side to move.
  int evaluate_here() const;
  bool same_side(Player a, Player b) const { return (a == root_) == (b == root_); }
  void order_moves(Frame& f, Move tt_move, bool has_tt_move, Player me, int ply);
  bool out_of_budget();
  std::chrono::steady_clock::time_point clock_now() const {
    return *clock_ ? (*clock_)() : std::chrono::steady_clock::now();
  }
  void clear(bool keep_table);

  TTEntry* probe(uint64_t key);
  void store(uint64_t key, int depth, int score, Bound bound, Move move, int ply);

  static constexpr int kHistorySize = 1 << 14;
  static constexpr int kHistoryPlayers = 4;
  static int history_index(Move m);

  std::unique_ptr<TTEntry[]> tt_;
  size_t tt_mask_ = 0;
  std::unique_ptr<Frame[]> frames_;  // one per ply, so move lists and PVs need no allocation
  std::unique_ptr<int[]> history_;   // [player][history_index]
  std::array<std::array<Move, 2>, kMaxPly> killers_{};
  std::array<std::array<bool, 2>, kMaxPly> has_killer_{};

  Game* game_ = nullptr;
  const SearchParams* params_ = nullptr;
  Player root_ = 0;  // the searching player: one side; everyone else is the other
  // Best-reply search: an opponent has played since the searcher's last turn, so the other opponents' turns
  // until the searcher's are skipped. Part of a node's table key at opponents' nodes.
  bool replied_ = false;
  uint64_t nodes_ = 0;
  bool aborted_ = false;
  const Clock* clock_ = nullptr;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace tabula::ai
