// Stratego (shared/rules/stratego-gameplay.txt, shared/spec/rulings.md): blind setups on the home ranks,
// one-square moves and the Scout's long moves, battles with hidden identities, the two-square limit, the
// repetition house rule, loss with no legal move, the draw when neither side can move, the ply limit.
//
// Every piece has an id fixed by its setup square (Red's 0–39 in square order, Blue's 40–79); positions
// for the repetition rule are told apart by ids, never by identities, because ids are public.
#pragma once

#include "core/draw_offer.h"
#include "core/game.h"
#include "games/stratego/board.h"

#include <array>
#include <memory>
#include <vector>

namespace tabula::stratego {

inline constexpr int kMaxPieces = 2 * kArmySize;
inline constexpr uint8_t kEmpty = 0xFF;

struct Options {
  bool memory_aid = false;      // the seats' boards keep revealed identities and marks
  int two_square_limit = 3;     // consecutive back-and-forth moves allowed
  bool repetition_rule = true;  // a move may not make a position for the third time
  int max_plies = 2000;         // digital safeguard: a draw after this many plies

  static Options from_json(const json& options);  // GameError(bad_request) on unknown keys or bad values
  json to_json() const;
};

// Moves pack the two squares and whether the destination holds an enemy piece (an attack).
struct StrategoMove {
  static Move make(int from, int to, bool attack) {
    return Move{static_cast<uint32_t>(from) | static_cast<uint32_t>(to) << 7 | (attack ? 1u << 14 : 0u)};
  }
  static int from(Move m) { return static_cast<int>(m.code & 127); }
  static int to(Move m) { return static_cast<int>((m.code >> 7) & 127); }
  static bool attack(Move m) { return (m.code >> 14) & 1; }
};

struct Piece {
  uint8_t kind = kFlag;
  uint8_t square = 0;
  bool alive = false;
  bool moved = false;     // public: it has moved (so it is neither a Bomb nor the Flag)
  bool revealed = false;  // public: its identity was shown in a battle, or it made a Scout's long move
};

// A player's current run of moves of one piece back and forth between two squares (the two-square limit).
struct Shuttle {
  uint8_t piece = kEmpty;
  uint8_t a = 0, b = 0;  // the two squares, a < b
  uint8_t count = 0;     // consecutive moves of that piece between them, this one included
};

class Stratego final : public Game {
 public:
  static constexpr Player kWholeTruth = -2;  // observation_json(kWholeTruth) is the state

  explicit Stratego(const Options& options = {});

  std::unique_ptr<Game> clone() const override { return std::make_unique<Stratego>(*this); }
  std::string_view kind() const override { return "stratego"; }
  int num_players() const override { return 2; }
  // Identities stay hidden while the game is on (setups, then the pieces not yet revealed); once it is over,
  // nothing is.
  bool hidden_information() const override { return phase_ != Phase::over; }

  Phase phase() const override { return phase_; }
  Player to_move() const override { return to_move_; }
  int ply() const override { return ply_; }
  const Result* result() const override;

  void legal_moves(MoveList& out) const override;
  void apply(Move m, EventLog* events = nullptr) override;
  void undo() override;
  std::string move_to_string(Move m) const override;
  bool is_capture(Move m) const override { return StrategoMove::attack(m); }  // every attack removes a piece
  std::string explain_illegal(std::string_view text) const override;

  void setup(Player p, const json& placement, EventLog* events) override;
  // "random" (seeded) or one of named_arrangements(), for player p's home ranks.
  json arrangement(Player p, std::string_view name, uint64_t seed) const override;
  // An AI seat's setup: drawn (seeded) from the distribution of strong setups (setups.h). Also "ai" above.
  json ai_arrangement(Player p, uint64_t seed) const override;
  // "draw", "accept", "decline" (shared rulings: draw by agreement in every two-player game).
  void offer(Player p, std::string_view what, EventLog* events) override;
  bool offer_stands(std::string_view what, Player player) const override;
  void end_with(const Result& r, EventLog* events) override;

  json state_json() const override;
  json observation_json(Player viewer) const override;
  int evaluate() const override;
  // evaluate(), less a penalty for `who` for each position repeated since the search's root and for its
  // piece's back-and-forth run, and in a sampled world, for the seat that drew it, the risk of its attacks on
  // unknown pieces (evaluation.cpp).
  int evaluate_for(Player who) const override;
  uint64_t hash() const override { return position_hash_ ^ identity_hash_; }
  // A world consistent with the public history and the viewer's own army (belief.cpp).
  std::unique_ptr<Game> sample_world(Player viewer, Rng& rng) const override;
  std::unique_ptr<WorldSampler> world_sampler(Player viewer, bool chained) const override;
  // The lead that wins about 73 games in 100 when the AI adds up its worlds' chances (evaluation.cpp).
  int world_score_scale() const override;

  // belief.cpp: weight(piece id, kind) of each enemy piece nobody has seen being that kind, for `viewer`,
  // from the public history and the prior of strong setups (0 for pieces that are known or not the enemy's).
  using Beliefs = std::array<std::array<double, kKinds>, kMaxPieces>;
  Beliefs beliefs(Player viewer) const;
  // The kinds of p's army that nobody has seen: the army as it began less the lost and the shown.
  std::array<int, kKinds> unseen_pool(Player p) const;
  // In a sampled world: each enemy piece's chance of being each kind as far as the seat that sampled it can
  // tell (the belief's weights scaled to the unseen pool, belief.cpp); null elsewhere.
  using Marginals = std::array<std::array<float, kKinds>, kMaxPieces>;
  const Marginals* marginals() const { return marginals_.get(); }

  static std::unique_ptr<Stratego> from_state(const json& state);
  static const std::vector<std::string>& named_arrangements();

  // Read access for tests, the evaluation and the belief.
  const Options& options() const { return options_; }
  int piece_at(int sq) const { return board_[static_cast<size_t>(sq)] == kEmpty ? -1 : board_[static_cast<size_t>(sq)]; }
  const Piece& piece(int id) const { return pieces_[static_cast<size_t>(id)]; }
  int pieces_of(Player p) const { return count_[static_cast<size_t>(p)]; }  // ids p*40 … p*40+n-1
  static constexpr Player owner(int id) { return id / kArmySize; }
  bool ready(Player p) const { return ready_[static_cast<size_t>(p)]; }
  bool owns_movable_piece(Player p) const;
  const Shuttle& shuttle(Player p) const { return shuttle_[static_cast<size_t>(p)]; }
  // In a world drawn for a seat: what the evaluation charges that seat for the Bombs beside its Flag that no
  // guard stands beside while an enemy piece that may be a Miner is near, and for the sides of its Flag with no
  // Bomb on them that the nearest enemy piece could pass (evaluation.cpp).
  int flag_shield_charge() const;

 private:
  class Sampler;  // belief.cpp
  enum class End : uint8_t { none, flag, no_moves, both_immobile, ply_limit, forced };
  struct Undo {
    Move move;
    uint8_t attacker, defender;  // defender kEmpty for a plain move
    Piece attacker_before, defender_before;
    Shuttle shuttle;
    uint64_t position_hash, identity_hash;
    uint32_t irreversible;
    End end;
    uint8_t winner;
    DrawOffer draw_offer;
  };

  // Calls f(from, to, attack) for every move of `p` the two-square limit allows; stops when f returns true.
  // Returns whether it was stopped.
  template <class F>
  bool for_each_move(Player p, F&& f) const;
  template <class F>
  bool for_each_move_of(int id, F& f) const;  // one piece's moves (none when it is lost or cannot move)
  bool has_legal_move(Player p);
  bool repeats(int id, int from, int to) const;  // the repetition house rule forbids this plain move
  int occurrences(uint64_t h) const;             // of a position since the last battle
  void add_piece(Player p, int kind, int sq, bool alive);
  void begin_play();
  void judge_turn_start();  // the no-moves end, for the player to move
  int attack_risk() const;  // evaluation.cpp
  int flag_shield_charge(int flag, int enemy_miners) const;  // evaluation.cpp
  void weigh_behaviour(Player viewer, Beliefs& w) const;  // belief.cpp
  void push_history();
  void recompute_identity_hash();
  void set_to_move(Player p);  // keeps the position hash's side-to-move key in step
  void pop_history();

  Options options_;
  std::array<uint8_t, kSquares> board_;
  std::array<Piece, kMaxPieces> pieces_{};
  std::array<uint8_t, 2> count_{};
  std::array<bool, 2> ready_{};
  Phase phase_ = Phase::setup;
  uint8_t to_move_ = 0;
  int ply_ = 0;
  std::array<Shuttle, 2> shuttle_{};
  uint64_t position_hash_ = 0;  // where each piece (by id) stands, and the side to move
  uint64_t identity_hash_ = 0;  // what each living piece is (for the AI's table inside one sampled world)
  End end_ = End::none;
  uint8_t winner_ = 0;
  DrawOffer draw_offer_;
  Result forced_;
  mutable Result result_cache_;

  // Position hashes since play began. Positions before the last battle cannot recur (a piece is gone for
  // good), so only history_[irreversible_ …] is ever searched; seen_ counts hashes by their low bits, a
  // quick proof that a position has not occurred twice.
  std::vector<uint64_t> history_;
  uint32_t irreversible_ = 0;
  uint32_t search_root_ = 0;  // history_'s size when sample_world made this world (where its search starts)
  static constexpr int kSeenBits = 14;
  std::array<uint16_t, size_t{1} << kSeenBits> seen_{};
  std::vector<Undo> undo_;
  // A sampled world's: the seat it was drawn for and what that seat may believe of each enemy piece.
  std::shared_ptr<const Marginals> marginals_;
  uint8_t believer_ = kEmpty;
  std::array<uint8_t, 2> mover_hint_{kEmpty, kEmpty};  // has_legal_move's first try: a cache, not state
};

}  // namespace tabula::stratego
