// The AI's entry point, for any game: pick a move for the player to move, from that player's view only.
#pragma once

#include "ai/search.h"
#include "core/game.h"

#include <atomic>
#include <cstdint>
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

// The budget a level uses when the caller gives none (the server uses these).
Limits default_limits(int level);
inline constexpr int kMinLevel = 1;
inline constexpr int kMaxLevel = 5;

// How the lobby names and describes a level: what it searches and about how strong it is (docs/strength.md).
struct LevelInfo {
  int level = 1;
  std::string name;
  std::string description;
};
LevelInfo level_info(int level);

// Chooses a move for game.to_move(). The search runs on worlds drawn by game.sample_world(player, …),
// never on hidden parts of the true state. `stop`, when set by another thread, ends the search early
// with the best move found so far. Precondition: the game is in play and has a legal move.
Choice choose_move(const Game& game, const Limits& limits, const std::atomic<bool>* stop = nullptr);

// Whether the AI playing `player` accepts the standing offer `what` ("draw", "stalemate"), judged from
// its own view: it accepts only when its evaluation says it stands worse or level.
bool accepts_offer(const Game& game, Player player, std::string_view what, const Limits& limits);

}  // namespace tabula::ai
