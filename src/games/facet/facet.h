// FACET (shared/rules/facet.txt, shared/spec/rulings.md FACET): stones move by the tile they stand on,
// the Monarch steps; regicide, elimination, coronation, stalemate and draw offers end the game. Modes:
// terrain decay, momentum and fog of war (with or without decay).
//
// Files: board.h geometry, facet.cpp rules, fog.cpp what each player sees and remembers under fog (and the
// AI's worlds drawn from it), notation.cpp strings/options/JSON, layout.cpp the layouts, evaluation.cpp the
// AI's evaluation.
#pragma once

#include "core/draw_offer.h"
#include "core/game.h"
#include "games/facet/board.h"

#include <array>
#include <vector>

namespace tabula::facet {

struct Options {
  bool random_layout = false;  // "layout": "classic" | "random"
  uint64_t seed = 0;           // the random layout's seed
  bool decay = false;
  bool momentum = false;
  bool fog = false;

  // GameError(bad_request) on unknown keys or modes, bad values, and momentum with decay or fog.
  static Options from_json(const json& options);
  json to_json() const;
};

// A stone on a square: 0 empty, else 1 + 2 * owner + (Monarch ? 1 : 0).
inline constexpr uint8_t kEmpty = 0;
constexpr uint8_t stone(int owner, bool monarch) { return static_cast<uint8_t>(1 + 2 * owner + (monarch ? 1 : 0)); }
constexpr int owner_of(uint8_t s) { return (s - 1) >> 1; }
constexpr bool is_monarch(uint8_t s) { return ((s - 1) & 1) != 0; }

// Moves pack the two squares and whether the destination holds an enemy stone.
struct FacetMove {
  static Move make(int from, int to, bool capture) {
    return Move{static_cast<uint32_t>(from) | static_cast<uint32_t>(to) << 7 | (capture ? 1u << 14 : 0u)};
  }
  static int from(Move m) { return static_cast<int>(m.code & 127); }
  static int to(Move m) { return static_cast<int>((m.code >> 7) & 127); }
  static bool capture(Move m) { return (m.code >> 14) & 1; }
};

using Terrain = std::array<uint8_t, kSquares>;
using Stones = std::array<uint8_t, kSquares>;

// The layouts (layout.cpp): the classic one as rulings.md draws it, and the seeded random one.
Terrain classic_layout();
Terrain random_layout(uint64_t seed);
// The 36 starting stones: White on ranks 1–2, Black on ranks 8–9, Monarchs on e1 and e9.
std::array<uint8_t, kSquares> starting_stones();

struct Coronation {
  int8_t player = -1;  // -1: nobody holds every Throne
  uint8_t plies = 0;   // 1 after the ply that takes the last Throne, 2 after the reply (3 ends the game)
  friend bool operator==(const Coronation&, const Coronation&) = default;
};

class Facet final : public Game {
 public:
  explicit Facet(const Options& options = {});

  std::unique_ptr<Game> clone() const override { return std::make_unique<Facet>(*this); }
  std::string_view kind() const override { return "facet"; }
  int num_players() const override { return 2; }
  // Under fog, while the game is on; once it is over everyone sees everything.
  bool hidden_information() const override { return options_.fog && phase_ != Phase::over; }

  Phase phase() const override { return phase_; }
  Player to_move() const override { return to_move_; }
  int ply() const override { return ply_; }
  const Result* result() const override;

  void legal_moves(MoveList& out) const override;
  void apply(Move m, EventLog* events = nullptr) override;
  void undo() override;
  std::string move_to_string(Move m) const override;
  // Under fog a move chosen on the mover's view may take a stone it could not see (a blind slide onto the
  // enemy Monarch): what counts for the search is what the move really takes on this board.
  bool is_capture(Move m) const override {
    if (!options_.fog) return FacetMove::capture(m);
    return board_[static_cast<size_t>(stopped_square(FacetMove::from(m), FacetMove::to(m)))] != kEmpty;
  }
  std::string explain_illegal(std::string_view text) const override;
  // The search's hooks (docs/ai.md, FACET's search hooks). The captures among the legal moves, generated
  // without the quiet ones, in legal_moves' order (under fog: the moves of the mover's view that really take
  // a stone on this board, as is_capture says).
  void legal_captures(MoveList& out) const override;
  // MVV-LVA: taking the Monarch first; then agents by the tile they stand on (a Throne stone first), each
  // taken by the least valuable stone first (a Field stone before a Throne stone, the Monarch last). A capture
  // by the Monarch of a stone the enemy defends is negative (it loses the game). Quiet moves 0.
  int order_hint(Move m) const override;
  // A pass as a test of strength (null-move pruning) is allowed only while the game is on, the mover's
  // Monarch is not attacked, the mover has at least kNullMoveMinAgents agents (zugzwang) and no coronation
  // count runs (a pass would change what the count means). Under momentum the pass ends the mover's turn, so
  // its badges expire as after a move.
  static constexpr int kNullMoveMinAgents = 4;
  bool null_move_allowed() const override;
  void apply_null() override;
  void undo_null() override;
  // Whether a stone of `by` could take on `sq` if `by` were to move now, on this board (under fog the true one:
  // a slide stops on the first stone in its path whether the slider sees it or not), with `vacated` (if any)
  // counted empty.
  bool attacked(int sq, Player by, int vacated = kNoSquare) const;
  int monarch_square(Player p) const;  // kNoSquare when p has none on the board

  // "draw" (offer), "accept", "decline" (rulings.md: one offer at a time).
  void offer(Player p, std::string_view what, EventLog* events) override;
  bool offer_stands(std::string_view what, Player player) const override;
  void end_with(const Result& r, EventLog* events) override;

  json state_json() const override;
  json observation_json(Player viewer) const override;
  // A Monarch an enemy stone could take if that enemy moved now ("monarch-attacked", "by": the stones'
  // squares), on the board as the viewer knows it: under fog a seat's own stones and the enemy's in sight
  // (spectators of a fog game see no marks).
  json danger_for(Player viewer) const override;
  int evaluate() const override;
  // Under fog the side to move's moves depend on its sight, which a capture can widen for one ply, so the
  // sight is part of the position.
  uint64_t hash() const override { return options_.fog ? hash_ ^ sight_key() : hash_; }
  // Under fog: the enemy's unseen stones dealt over squares the viewer cannot see, from its memory (ghosts)
  // and the number of stones it knows the enemy has; the viewer's own memory kept. Else a copy.
  std::unique_ptr<Game> sample_world(Player viewer, Rng& rng) const override;

  // A game from notation.md's state; fields left out take their initial values.
  static std::unique_ptr<Facet> from_state(const json& state);

  // Read access for tests and the evaluation.
  const Options& options() const { return options_; }
  uint8_t stone_at(int sq) const { return board_[static_cast<size_t>(sq)]; }
  int tile_at(int sq) const { return terrain_[static_cast<size_t>(sq)]; }
  int badge_at(int sq) const { return badge_[static_cast<size_t>(sq)]; }  // kField: none
  const Coronation& coronation() const { return coronation_; }
  int draw_offer() const { return draw_offer_.by(); }  // -1: none
  int agents(Player p) const { return agents_[static_cast<size_t>(p)]; }
  uint64_t compute_hash() const;  // from scratch; equals hash() (tests)
  // Fog: whether p sees sq now (own stones, sight radii, Thrones, squares of a loss this ply).
  bool sees(Player p, int sq) const { return contains(fog_[static_cast<size_t>(p)].sight, sq); }

 private:
  enum class End : uint8_t { none, regicide, elimination, coronation, stalemate, agreement, forced };
  struct Undo {
    Move move;
    uint8_t stopped;  // where the stone really stopped (differs from the move's square after a bump)
    uint8_t captured;
    uint8_t from_tile;
    std::array<uint8_t, kSquares> badges;  // momentum only (else unused)
    Coronation coronation;
    DrawOffer draw_offer;
    End end;
    uint8_t winner;
    uint64_t hash;
  };

  // What one player has seen under fog.
  struct FogView {
    SquareSet sight = 0;  // squares in sight at the end of the last ply
    Stones seen{};        // the enemy stone last seen on each square (kEmpty: none)
    Terrain terrain{};    // each square's tile as last seen
    // For the AI's worlds only (never shown): the ply each square was last in sight, and where an enemy stone
    // was seen leaving a square for one out of sight (the stone, the ply it left and the tile it left, as seen
    // before the move: under decay the square shows the decayed tile after it; kEmpty: none).
    std::array<uint16_t, kSquares> seen_ply{};
    Stones departed{};
    std::array<uint16_t, kSquares> departed_ply{};
    Terrain departed_tile{};
  };

  // Calls f(to, capture) for every destination of the stone on `from` on `board` (the true board, or a
  // player's view of it under fog); stops when f returns true.
  template <class F>
  bool for_each_target(const Stones& board, int from, F&& f) const;
  template <class Keep>
  void generate_moves(MoveList& out, Keep&& keep) const;  // legal_moves and legal_captures
  template <class F>
  bool for_each_tile_target(const Stones& board, int from, int tile, F&& f) const;
  bool has_legal_move(Player p) const;
  // The board as p may know it: own stones, and enemy stones only where p sees (fog); else the board.
  const Stones& board_for(Player p, Stones& scratch) const;
  // fog.cpp
  SquareSet sight_of(Player p) const;  // from the stones as they stand
  void look(Player p, SquareSet sight);  // sees `sight` now: memory of stones and terrain updated
  void start_fog();                      // every player has just seen the whole board
  int stopped_square(int from, int to) const;  // a slide stops on the first (hidden) enemy in its path
  // After a ply by `mover` from `from` to `to` (taking a stone or not): both players look (rulings.md).
  void see_after_ply(Player mover, int from, int to, bool took);
  // Gives each event from `first` on its per-viewer views; `before` is the opponent's sight before the ply.
  void conceal(EventLog& events, size_t first, Player mover, int from, int to, SquareSet before) const;
  uint64_t sight_key() const;
  uint64_t core_hash() const;  // without the fog sight
  json fog_observation(Player viewer) const;
  void judge_after_ply(Player mover, bool took_monarch, bool took_agent);
  void set_badge(int sq, int tile);
  void place_stone(int sq, uint8_t s);
  void set_tile(int sq, int tile);

  Options options_;
  std::array<uint8_t, kSquares> board_{};
  Terrain terrain_{};
  std::array<uint8_t, kSquares> badge_{};
  std::array<uint8_t, 2> agents_{};
  std::vector<int> thrones_;
  Phase phase_ = Phase::play;
  uint8_t to_move_ = 0;
  int ply_ = 0;
  Coronation coronation_;
  DrawOffer draw_offer_;
  End end_ = End::none;
  uint8_t winner_ = 0;
  Result forced_;
  mutable Result result_cache_;
  uint64_t hash_ = 0;
  std::vector<Undo> undo_;
  // Fog only.
  std::array<FogView, 2> fog_{};
  std::vector<std::array<FogView, 2>> fog_undo_;
  Terrain start_terrain_{};  // what spectators see of the terrain
};

}  // namespace tabula::facet
