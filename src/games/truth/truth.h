// The Game of Truth (shared/rules/truth-browser-edition.txt, the manuscript, shared/spec/rulings.md): blind
// setups revealed together, turns of a door action and one other action, the six movements, jump attacks,
// contacts, enclosures, burning, interception, sieges, the endgame transformation, and the ends by icon loss
// and by score, for two players or four.
//
// A position is one plain struct (`Position`, about 1 KB): the board of piece ids, the pieces, the turn, the
// sieges, the scores and the Zobrist hash. The rules are free functions over it (rules.cpp), so the first
// action's look-ahead can play an action on a stack copy without touching the game; `apply` keeps a stack of
// copies for `undo`.
#pragma once

#include "core/game.h"
#include "games/truth/board.h"

#include <array>
#include <vector>

namespace tabula::truth {

inline constexpr uint8_t kNoPiece = 0xFF;

struct Options {
  int players = 2;         // 2 (the checkered board, halves) or 4 (every square open, corner quadrants)
  int max_plies = 2000;    // digital safeguard: the game ends by score after this many turns
  static Options from_json(const json& options);  // GameError(bad_request) on unknown keys or bad values
  json to_json() const;
};

// An action packs its two squares; `pass` is its own code.
struct TruthMove {
  static constexpr uint32_t kPass = 0xFFFFFFFFu;
  static Move make(int from, int to) { return Move{static_cast<uint32_t>(from) | static_cast<uint32_t>(to) << 9}; }
  static Move pass() { return Move{kPass}; }
  static bool is_pass(Move m) { return m.code == kPass; }
  static int from(Move m) { return static_cast<int>(m.code & 511); }
  static int to(Move m) { return static_cast<int>((m.code >> 9) & 511); }
};

struct Piece {
  int16_t square = kNoSquare;  // kNoSquare: not on the board (lost, or never placed)
  uint8_t owner = 0;
  uint8_t kind = kDoor;
  bool alive() const { return square != kNoSquare; }
};

// A ring of four hostile door-role pieces around an icon (rulings.md, "Siege").
struct Siege {
  bool active = false;
  uint8_t count = 0;
  std::array<uint8_t, 4> ring{};  // the piece ids on the icon's four diagonal neighbours
  int32_t closed_ply = 0;         // the turn (ply) in which the ring closed: it counts only at a later turn's end
  int16_t square = kNoSquare;     // the icon's square when the ring closed (named when it is lifted)
};

enum class EndReason : uint8_t {
  none, icon_destroyed, all_icons_destroyed, blocked_cycle, stalemate, scored_stalemate, ply_limit, forced
};

struct Position {
  uint8_t players = 2;
  Phase phase = Phase::setup;
  uint8_t to_move = 0;
  uint8_t action = 0;           // actions already taken this turn (0 or 1)
  uint8_t acted = kNoPiece;     // the piece moved by this turn's first action
  bool door_action_done = false;
  uint8_t transformed = 0;      // bit p: army p is transformed
  uint8_t ready = 0;            // bit p: army p's setup is in
  uint8_t agreed = 0;           // bit p: player p agrees to the scored stalemate
  uint8_t winners = 0;          // bit p, once over
  EndReason end = EndReason::none;
  bool unread = false;          // loaded from a state: the next reading covers the whole board
  int32_t blocked_turns = 0;
  int32_t ply = 0;              // turns played (a pass is a turn)
  int32_t max_plies = 2000;
  std::array<int32_t, kMaxPlayers> scores{};
  std::array<Siege, kMaxPlayers> sieges{};        // by the ringed icon's owner
  std::array<uint8_t, kMaxPlayers> icon{kNoPiece, kNoPiece, kNoPiece, kNoPiece};
  std::array<std::array<uint8_t, kKinds>, kMaxPlayers> count{};  // living pieces by owner and kind
  std::array<Piece, kMaxPieces> pieces{};        // player p's are ids p*41 … p*41+40
  std::array<uint8_t, kSquares> board{};         // piece id or kNoPiece
  uint64_t hash = 0;                             // the pieces on their squares (Zobrist)

  Position() { board.fill(kNoPiece); }
  const Piece& piece(int id) const { return pieces[static_cast<size_t>(id)]; }
  int at(int sq) const { return board[static_cast<size_t>(sq)] == kNoPiece ? -1 : board[static_cast<size_t>(sq)]; }
  bool is_transformed(int p) const { return (transformed >> p) & 1; }
  // Roles (edition, "When the light and doors are gone"): a transformed army's linesmen and sentries act as
  // doors, its guardians as lanterns.
  bool door_role(int id) const {
    const Piece& pc = piece(id);
    return pc.kind == kDoor || ((pc.kind == kLinesman || pc.kind == kSentry) && is_transformed(pc.owner));
  }
  bool lantern_role(int id) const {
    const Piece& pc = piece(id);
    return pc.kind == kLantern || (pc.kind == kGuardian && is_transformed(pc.owner));
  }
  bool lantern_guardian(int id) const { return piece(id).kind == kGuardian && is_transformed(piece(id).owner); }
  // What stops a lantern's slide: doors, icons and door-role pieces of every army.
  bool obstructs_slide(int id) const { return door_role(id) || piece(id).kind == kIcon; }
  // A guardian diagonally adjacent to its own icon (rulings.md, "Interception").
  bool defender(int id) const;
  int icon_square(int p) const { return icon[static_cast<size_t>(p)] == kNoPiece ? kNoSquare : piece(icon[static_cast<size_t>(p)]).square; }
  bool icon_stands(int p) const { return icon_square(p) != kNoSquare; }
  bool over() const { return phase == Phase::over; }
};

// The rules (rules.cpp), over a Position.
namespace rules {
// Every legal action of the player to move (the look-ahead included), and `pass` when the rules list it.
void legal_actions(const Position& pos, MoveList& out);
// The same list, every first action checked by playing it on a copy (no witness shortcut): for tests.
void legal_actions_exact(const Position& pos, MoveList& out);
// Plays a legal action or pass, with its effects and, after a turn's last action, the turn's end.
void play(Position& pos, Move m, EventLog* events);
// Every army is in: play begins, and every contact and enclosure that holds is resolved.
void begin_play(Position& pos, EventLog* events);
// Whether `p`'s piece `id` may move now (the turn's role rules, not its geometry).
bool may_act(const Position& pos, int id);
// The end by score: winners are the players with the highest score (none when everyone has it).
void end_by_score(Position& pos, EndReason why, EventLog* events);
Result result_of(const Position& pos);
// The Zobrist key of a piece on a square.
uint64_t piece_key(int owner, int kind, int sq);
uint64_t full_hash(const Position& pos);  // the turn's fields included (Truth::hash)
void recount(Position& pos);               // counts, icons, and the board hash, from pieces
}  // namespace rules

class Truth final : public Game {
 public:
  explicit Truth(const Options& options = {});

  std::unique_ptr<Game> clone() const override { return std::make_unique<Truth>(*this); }
  std::string_view kind() const override { return "truth"; }
  int num_players() const override { return pos_.players; }
  // Truth hides each army's setup until every army is in; then nothing.
  bool hidden_information() const override { return pos_.phase == Phase::setup; }

  Phase phase() const override { return pos_.phase; }
  Player to_move() const override { return pos_.to_move; }
  int ply() const override { return pos_.ply; }
  const Result* result() const override;

  void legal_moves(MoveList& out) const override { rules::legal_actions(pos_, out); }
  void apply(Move m, EventLog* events = nullptr) override;
  void undo() override;
  std::string move_to_string(Move m) const override;
  bool is_capture(Move m) const override;
  // Takes first, the richest first (a burn before all): tactics::take_value.
  int order_hint(Move m) const override;
  std::string explain_illegal(std::string_view text) const override;

  void setup(Player p, const json& placement, EventLog* events) override;
  json arrangement(Player p, std::string_view name, uint64_t seed) const override;
  // An AI seat sets up with the suggested arrangement, or with two players its mirror image across file i
  // (from the seed): random arrangements may lose pieces at the start.
  json ai_arrangement(Player p, uint64_t seed) const override;
  void offer(Player p, std::string_view what, EventLog* events) override;
  bool offer_stands(std::string_view what, Player player) const override;
  void end_with(const Result& r, EventLog* events) override;

  json state_json() const override;
  json observation_json(Player viewer) const override;
  // Icons an enemy could burn with the first action of its next turn ("icon-burnable", with "by": those
  // armies) and icons whose siege is counting ("icon-sieged", with "count"). Nothing is hidden in play.
  json danger_for(Player viewer) const override;
  int evaluate() const override;
  int evaluate_for(Player who) const override;
  int moves_per_turn() const override { return 2; }
  uint64_t hash() const override { return rules::full_hash(pos_); }
  // Best-reply search with four players: a turn not yet begun may be skipped (the next army is to move; the
  // turn count, sieges and agreements stay as they are).
  bool turn_skippable() const override { return pos_.players > 2 && pos_.phase == Phase::play && pos_.action == 0; }
  void skip_turn() override;
  void undo_skip_turn() override { undo(); }

  static std::unique_ptr<Truth> from_state(const json& state);
  static const std::vector<std::string>& named_arrangements();

  const Position& position() const { return pos_; }
  const Options& options() const { return options_; }

 private:
  Options options_;
  Position pos_;
  Result forced_;
  mutable Result result_cache_;
  std::vector<Position> undo_;
};

// The suggested arrangement of player p (arrangements.cpp): a placement {square: letter}.
json suggested_arrangement(int players, int p);
json random_arrangement(int players, int p, uint64_t seed);
// The squares of p's setup: open squares of its territory.
bool setup_square(int players, int p, int sq);
// Four players: the square x files from the board's outer edge and y ranks from the back of army p's
// quadrant (x 0..7, y 0..8; y 8 is its front on the middle rank).
int quadrant_square(int p, int x, int y);
// Where army p sets up, in words ("ranks 1 to 9", "its quadrant, files a to h and ranks 1 to 9").
std::string territory_words(int players, int p);

}  // namespace tabula::truth
