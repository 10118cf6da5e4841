// The AI's entry point, for any game: pick a move for the player to move, from that player's view only.
#pragma once

#include "ai/search.h"
#include "core/game.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tabula::ai {

struct Limits {
  int level = 3;                    // 1: a random legal move; 2 and up: search
  std::optional<int> ms;            // wall-clock budget
  std::optional<uint64_t> nodes;    // node budget: deterministic for a given seed (time is then not read)
  std::optional<int> depth;         // deepest iteration; default: the level's (2 at level 2, else no cap)
  uint64_t seed = 0;
  Clock clock;                      // where time is read (tests); empty: the steady clock
};

struct Choice {
  std::string move;  // a string of legal_move_strings(game)
  json info;         // level, depth, nodes, score, pv, ms, worlds: never sent to a client while the game is on
};

// The budget a level uses when the caller gives none, in any game: level 2 2,000 nodes, levels 3, 4 and 5
// 350 ms, 1 s and 2 s.
Limits default_limits(int level);
// The budget a level uses in a game of `kind` when the caller gives none (what the server, the engine protocol
// and choose_move use): default_limits(level), with levels 2, 3 and 4 on the node budgets the game's catalogue
// entry sets (GameKind::ai_level2_nodes, ai_level3_nodes, ai_level4_nodes).
Limits level_limits(std::string_view kind, int level);
inline constexpr int kMinLevel = 1;
inline constexpr int kMaxLevel = 5;

// How the lobby names and describes a level: what it searches and about how strong it is (docs/strength.md).
struct LevelInfo {
  int level = 1;
  std::string name;
  std::string description;
};
LevelInfo level_info(std::string_view kind, int level);

// What a seat's AI keeps from one move to the next of one game: its search table, so that a move's search
// starts from what the last one learnt (its ordering, its bounds). Used only where scores do not depend on
// whose view or which world is searched: two players, nothing hidden; elsewhere each move starts afresh.
// One Memory serves one game; forget() when another begins. Not shared between threads.
class Memory {
 public:
  Memory();
  ~Memory();
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;
  void forget();

 private:
  friend Choice choose_move(const Game&, const Limits&, const std::atomic<bool>*, Memory*);
  std::unique_ptr<Searcher> searcher_;
  size_t entries_ = 0;
  bool fresh_ = true;  // nothing learnt yet: the next search clears the table
};

// Chooses a move for game.to_move(). The search runs on worlds drawn by game.sample_world(player, …),
// never on hidden parts of the true state. `stop`, when set by another thread, ends the search early
// with the best move found so far. Precondition: the game is in play and has a legal move.
// With `memory` and a time budget, the search's table is kept from the last move (a node budget ignores it).
Choice choose_move(const Game& game, const Limits& limits, const std::atomic<bool>* stop = nullptr,
                   Memory* memory = nullptr);

// Whether the AI playing `player` accepts the standing offer `what` ("draw", "stalemate"), judged from
// its own view: it accepts only when its evaluation says it stands worse or level.
bool accepts_offer(const Game& game, Player player, std::string_view what, const Limits& limits);

}  // namespace tabula::ai
