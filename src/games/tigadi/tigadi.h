// Tigadi (shared/rules/tigadi.txt, shared/spec/rulings.md): placing with immediate capture, sliding along
// drawn lines, one capture per turn written into the move, protection and its lapse, the running tigadi,
// pass when blocked, the win at two gotis, threefold repetition and the 100-turn draw.
#pragma once

#include "core/draw_offer.h"
#include "core/game.h"
#include "games/tigadi/board.h"

#include <vector>

namespace tabula::tigadi {

inline constexpr int kGotis = 9;
inline constexpr int kQuietPliesDraw = 100;
inline constexpr int kRepetitionsDraw = 3;

// Moves pack into 16 bits: destination (or placed point), origin (kNone for a placement), captured point
// (kNone when nothing is taken), and a pass flag.
struct TigadiMove {
  static constexpr int kNone = 31;
  static constexpr uint32_t kPass = 1u << 15;
  static Move place(int to, int capture = kNone) { return Move{pack(kNone, to, capture)}; }
  static Move slide(int from, int to, int capture = kNone) { return Move{pack(from, to, capture)}; }
  static Move pass() { return Move{kPass}; }
  static bool is_pass(Move m) { return m.code & kPass; }
  static int to(Move m) { return static_cast<int>(m.code & 31); }
  static int from(Move m) { return static_cast<int>((m.code >> 5) & 31); }
  static int capture(Move m) { return static_cast<int>((m.code >> 10) & 31); }
  static constexpr uint32_t pack(int from, int to, int capture) {
    return static_cast<uint32_t>(to) | static_cast<uint32_t>(from) << 5 | static_cast<uint32_t>(capture) << 10;
  }
};

// Everything a position is. Copied whole onto the undo stack (20 bytes).
struct Position {
  Mask board[2] = {0, 0};
  uint8_t in_hand[2] = {kGotis, kGotis};
  uint8_t to_move = 0;
  uint8_t outcome = kOn;  // kOn, or who won / a draw, with its reason
  DrawOffer draw_offer;   // not part of the position's identity (key, hash): it never changes a move
  uint16_t quiet_plies = 0;
  int32_t ply = 0;

  enum : uint8_t { kOn, kBoneWins, kSeedWins, kDrawRepetition, kDrawQuiet };

  bool placing() const { return in_hand[0] + in_hand[1] > 0; }
  int total(int side) const { return __builtin_popcount(board[side]) + in_hand[side]; }
  // The repetition key: the board and the side to move (hands are empty once placing is over). Exact.
  uint64_t key() const { return uint64_t{board[0]} | uint64_t{board[1]} << 24 | uint64_t{to_move} << 48; }
};

// The evaluation's board terms, kept up to date by apply (evaluation.cpp) so that evaluate() never scans the
// 20 lines: each side's count of gotis on every line, bit-sliced (line l holds count lo_l + 2 hi_l, so a goti
// placed or lifted is one carry or borrow over the lines through its point), and each side's mobility (pairs of
// its goti and an empty neighbour).
struct Terms {
  uint32_t lo[2] = {0, 0};
  uint32_t hi[2] = {0, 0};
  int16_t mobility[2] = {0, 0};
  // Lines all `side`'s, and lines with two of its gotis and the third point empty.
  int closed(int side) const { return __builtin_popcount(lo[side] & hi[side]); }
  int threats(int side) const {
    return __builtin_popcount(hi[side] & ~lo[side] & ~(lo[1 - side] | hi[1 - side]));
  }
  friend bool operator==(const Terms&, const Terms&) = default;
};
// The terms of a board computed from nothing, and their update when the points in `changed` change from
// `before` to `after` (only the lines and neighbours of those points are touched).
Terms terms_of(const Mask board[2]);
void update_terms(Terms& t, const Mask before[2], const Mask after[2], Mask changed);

class Tigadi final : public Game {
 public:
  Tigadi();
  // A game from a given position (rulings.md: the position is the start of its history).
  explicit Tigadi(const Position& start);

  std::unique_ptr<Game> clone() const override { return std::make_unique<Tigadi>(*this); }
  std::string_view kind() const override { return "tigadi"; }
  int num_players() const override { return 2; }

  Phase phase() const override { return over() ? Phase::over : Phase::play; }
  Player to_move() const override { return pos_.to_move; }
  int ply() const override { return pos_.ply; }
  const Result* result() const override;

  void legal_moves(MoveList& out) const override;
  void apply(Move m, EventLog* events = nullptr) override;
  void undo() override;
  std::string move_to_string(Move m) const override;
  // A placement or slide that completes a line and so takes a goti (never a pass).
  bool is_capture(Move m) const override {
    return !TigadiMove::is_pass(m) && TigadiMove::capture(m) != TigadiMove::kNone;
  }
  // Generated directly: the placements and slides that close a line while the enemy has a goti on the board.
  void legal_captures(MoveList& out) const override;
  // Captures first (the more enemy threats and closed lines the taken goti breaks, the higher), then moves onto
  // the empty point of an enemy threat (a block); a slide that leaves such a point, opening the enemy line,
  // comes after the quiet moves.
  int order_hint(Move m) const override;
  // The endgame tables' value (endgame.h) for a moving-phase position they hold, when it is exact here: a win
  // or loss no further than the 100-turn rule allows from this position's count.
  std::optional<Solved> solved() const override;
  std::string explain_illegal(std::string_view text) const override;
  // "draw", "accept", "decline" (rulings.md: draw by agreement in every two-player game).
  void offer(Player p, std::string_view what, EventLog* events) override;
  bool offer_stands(std::string_view what, Player player) const override;
  void end_with(const Result& r, EventLog* events) override;

  json state_json() const override;
  json observation_json(Player) const override { return state_json(); }  // nothing is hidden
  // Open lines: two gotis of a side on a line whose third point is empty and which that side can fill on
  // its next turn (from its hand while placing, else by a goti beside it off the line); "player" is the side
  // that would lose a goti, "by" the side that would close it.
  json danger_for(Player viewer) const override;
  int evaluate() const override;
  uint64_t hash() const override;

  const Position& position() const { return pos_; }
  const Terms& terms() const { return terms_; }
  bool over() const { return pos_.outcome != Position::kOn || forced_; }

  // Parses notation.md's state JSON (GameError(bad_request) with the reason when it is not a valid state).
  static std::unique_ptr<Tigadi> from_state(const json& state);
  static void check_options(const json& options);

 private:
  struct Undo {
    Position pos;
    Terms terms;
    uint32_t history_size;
  };
  void record_position_after_placing(bool placing_just_ended);

  Position pos_;
  Terms terms_;
  // Repetition keys of every position since placing ended (the first counted one included).
  std::vector<uint64_t> history_;
  std::vector<Undo> undo_;
  // A result imposed from outside the rules (resignation, adjudication); ends the game for good.
  bool forced_ = false;
  Result forced_result_;
  mutable Result result_cache_;
};

}  // namespace tabula::tigadi
