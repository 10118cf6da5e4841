// FACET's rules: move generation by tile (and badge), captures, decay, momentum, the ends of the game and
// draw offers. Notation and JSON are in notation.cpp, the layouts in layout.cpp.
#include "games/facet/facet.h"
#include "games/facet/targets.h"

namespace tabula::facet {

namespace {

// Zobrist keys, made at compile time: a stone on a square, a tile on a square, a badge on a square, the
// side to move, the coronation count.
struct Keys {
  std::array<std::array<uint64_t, 5>, kSquares> stone{};
  std::array<std::array<uint64_t, kTiles>, kSquares> tile{};
  std::array<std::array<uint64_t, kTiles>, kSquares> badge{};
  std::array<std::array<uint64_t, 4>, 2> coronation{};
  uint64_t black_to_move = 0;
};
constexpr Keys make_keys() {
  Keys k;
  uint64_t s = 0x4641434554303031ULL;
  for (auto& row : k.stone)
    for (auto& v : row) v = splitmix64(s);
  for (auto& row : k.tile)
    for (auto& v : row) v = splitmix64(s);
  for (auto& row : k.badge)
    for (auto& v : row) v = splitmix64(s);
  for (auto& row : k.coronation)
    for (auto& v : row) v = splitmix64(s);
  k.black_to_move = splitmix64(s);
  return k;
}
constexpr Keys kKeys = make_keys();

uint64_t stone_key(int sq, uint8_t s) { return s == kEmpty ? 0 : kKeys.stone[static_cast<size_t>(sq)][s]; }
uint64_t tile_key(int sq, int t) { return t == kField ? 0 : kKeys.tile[static_cast<size_t>(sq)][static_cast<size_t>(t)]; }
uint64_t badge_key(int sq, int t) { return t == kField ? 0 : kKeys.badge[static_cast<size_t>(sq)][static_cast<size_t>(t)]; }
uint64_t coronation_key(const Coronation& c) {
  return c.player < 0 ? 0 : kKeys.coronation[static_cast<size_t>(c.player)][c.plies & 3];
}

}  // namespace

Facet::Facet(const Options& options) : options_(options) {
  terrain_ = options_.random_layout ? random_layout(options_.seed) : classic_layout();
  start_terrain_ = terrain_;
  board_ = starting_stones();
  for (int sq = 0; sq < kSquares; ++sq) {
    if (terrain_[static_cast<size_t>(sq)] == kThrone) thrones_.push_back(sq);
    const uint8_t s = board_[static_cast<size_t>(sq)];
    if (s != kEmpty && !is_monarch(s)) ++agents_[static_cast<size_t>(owner_of(s))];
  }
  if (options_.fog) start_fog();
  hash_ = core_hash();
  undo_.reserve(256);
}

uint64_t Facet::compute_hash() const { return options_.fog ? core_hash() ^ sight_key() : core_hash(); }

uint64_t Facet::core_hash() const {
  uint64_t h = 0;
  for (int sq = 0; sq < kSquares; ++sq) {
    h ^= stone_key(sq, board_[static_cast<size_t>(sq)]);
    h ^= tile_key(sq, terrain_[static_cast<size_t>(sq)]);
    h ^= badge_key(sq, badge_[static_cast<size_t>(sq)]);
  }
  h ^= coronation_key(coronation_);
  if (to_move_ == 1) h ^= kKeys.black_to_move;
  return h;
}

void Facet::place_stone(int sq, uint8_t s) {
  hash_ ^= stone_key(sq, board_[static_cast<size_t>(sq)]) ^ stone_key(sq, s);
  board_[static_cast<size_t>(sq)] = s;
}

void Facet::set_tile(int sq, int tile) {
  hash_ ^= tile_key(sq, terrain_[static_cast<size_t>(sq)]) ^ tile_key(sq, tile);
  terrain_[static_cast<size_t>(sq)] = static_cast<uint8_t>(tile);
}

void Facet::set_badge(int sq, int tile) {
  hash_ ^= badge_key(sq, badge_[static_cast<size_t>(sq)]) ^ badge_key(sq, tile);
  badge_[static_cast<size_t>(sq)] = static_cast<uint8_t>(tile);
}

// ---------------------------------------------------------------------------------------------------------
// Moves

// Under fog a player moves on the board as it sees it: unseen squares (ghosts too) count as empty.
const Stones& Facet::board_for(Player p, Stones& scratch) const {
  if (!options_.fog) return board_;
  const SquareSet sight = fog_[static_cast<size_t>(p)].sight;
  for (int sq = 0; sq < kSquares; ++sq) {
    const uint8_t s = board_[static_cast<size_t>(sq)];
    scratch[static_cast<size_t>(sq)] = s != kEmpty && (owner_of(s) == p || contains(sight, sq)) ? s : kEmpty;
  }
  return scratch;
}

json Facet::danger_for(Player viewer) const {
  json marks = json::array();
  if (phase_ != Phase::play) return marks;
  if (options_.fog && viewer != 0 && viewer != 1) return marks;
  Stones scratch{};
  const Stones& board = options_.fog ? board_for(viewer, scratch) : board_;
  for (int m = 0; m < kSquares; ++m) {
    const uint8_t s = board[static_cast<size_t>(m)];
    if (s == kEmpty || !is_monarch(s)) continue;
    json by = json::array();
    for (int sq = 0; sq < kSquares; ++sq) {
      const uint8_t e = board[static_cast<size_t>(sq)];
      if (e == kEmpty || owner_of(e) == owner_of(s)) continue;
      for_each_target(board, sq, [&](int to, bool capture) {
        if (to == m && capture) by.push_back(square_name(sq));
        return to == m;
      });
    }
    if (!by.empty())
      marks.push_back(json{{"square", square_name(m)}, {"player", owner_of(s)}, {"why", "monarch-attacked"}, {"by", by}});
  }
  return marks;
}

// Judged on the true board even under fog: the view has a move exactly when the board does (ruling F13: an
// unseen stone turns a capture into a plain move, or a cut slide into a longer one), and this runs every ply.
bool Facet::has_legal_move(Player p) const {
  for (int sq = 0; sq < kSquares; ++sq) {
    const uint8_t s = board_[static_cast<size_t>(sq)];
    if (s == kEmpty || owner_of(s) != p) continue;
    if (for_each_target(board_, sq, [](int, bool) { return true; })) return true;
  }
  return false;
}

// The moves of the player to move on its own board (the view under fog) that `keep(from, to, capture)` keeps,
// in square order.
template <class Keep>
void Facet::generate_moves(MoveList& out, Keep&& keep) const {
  out.clear();
  if (phase_ != Phase::play) return;
  Stones scratch;
  const Stones& board = board_for(to_move_, scratch);
  for (int sq = 0; sq < kSquares; ++sq) {
    const uint8_t s = board[static_cast<size_t>(sq)];
    if (s == kEmpty || owner_of(s) != to_move_) continue;
    for_each_target(board, sq, [&](int to, bool capture) {
      if (keep(sq, to, capture)) out.push(FacetMove::make(sq, to, capture));
      return false;
    });
  }
}

void Facet::legal_moves(MoveList& out) const {
  generate_moves(out, [](int, int, bool) { return true; });
}

// ---------------------------------------------------------------------------------------------------------
// The search's hooks (docs/ai.md)

void Facet::legal_captures(MoveList& out) const {
  generate_moves(out, [&](int from, int to, bool capture) {
    // Under fog a move of the view may take a stone the mover cannot see (is_capture).
    return options_.fog ? board_[static_cast<size_t>(stopped_square(from, to))] != kEmpty : capture;
  });
}

namespace {
// How much a stone's tile is worth keeping for ordering: Field 0, Gate 1, Spire 2, Tower 3, Throne 4.
constexpr int kTileRank[kTiles] = {0, 3, 2, 1, 4};  // F T S G C
}  // namespace

int Facet::order_hint(Move m) const {
  const int from = FacetMove::from(m);
  const int to = options_.fog ? stopped_square(from, FacetMove::to(m)) : FacetMove::to(m);
  const uint8_t victim = board_[static_cast<size_t>(to)];
  if (victim == kEmpty) return 0;
  if (is_monarch(victim)) return 1 << 20;  // the game
  const uint8_t attacker = board_[static_cast<size_t>(from)];
  // The most valuable victim first: a stone on a Throne, then by its tile's move.
  const int victim_value = 64 * (1 + kTileRank[terrain_[static_cast<size_t>(to)]]);
  if (is_monarch(attacker)) {
    // The Monarch taking a defended stone is taken back: the game is lost.
    if (attacked(to, 1 - owner_of(attacker), from)) return -victim_value;
    return victim_value + 1;
  }
  // The least valuable attacker first: the one leaving the poorest tile.
  return victim_value + 16 - kTileRank[terrain_[static_cast<size_t>(from)]];
}

int Facet::monarch_square(Player p) const {
  const uint8_t m = stone(p, true);
  for (int sq = 0; sq < kSquares; ++sq)
    if (board_[static_cast<size_t>(sq)] == m) return sq;
  return kNoSquare;
}

bool Facet::attacked(int sq, Player by, int vacated) const {
  const size_t s = static_cast<size_t>(sq);
  auto stone_of_by = [&](int at) -> uint8_t {
    if (at == vacated) return kEmpty;
    const uint8_t x = board_[static_cast<size_t>(at)];
    return x != kEmpty && owner_of(x) == by ? x : kEmpty;
  };
  // Whether the agent on `at` moves as `tile` does, by its tile or its momentum badge.
  auto grants = [&](int at, int tile) {
    return terrain_[static_cast<size_t>(at)] == tile || (tile != kField && badge_[static_cast<size_t>(at)] == tile);
  };
  for (int i = 0; i < kGeometry.king_count[s]; ++i) {
    const int at = kGeometry.king[s][static_cast<size_t>(i)];
    const uint8_t x = stone_of_by(at);
    if (x != kEmpty && (is_monarch(x) || grants(at, kField))) return true;
  }
  for (int i = 0; i < kGeometry.knight_count[s]; ++i) {
    const int at = kGeometry.knight[s][static_cast<size_t>(i)];
    const uint8_t x = stone_of_by(at);
    if (x != kEmpty && !is_monarch(x) && grants(at, kGate)) return true;
  }
  for (int d = 0; d < kDirections; ++d) {
    const auto& ray = kGeometry.rays[s][static_cast<size_t>(d)];
    const int slider = d < 4 ? kTower : kSpire;
    for (int i = 0; i < kGeometry.ray_len[s][static_cast<size_t>(d)]; ++i) {
      const int at = ray[static_cast<size_t>(i)];
      if (at == vacated || board_[static_cast<size_t>(at)] == kEmpty) continue;
      const uint8_t x = stone_of_by(at);
      if (x != kEmpty && !is_monarch(x) && (grants(at, slider) || grants(at, kThrone))) return true;
      break;  // the first stone on the ray blocks it
    }
  }
  return false;
}

bool Facet::null_move_allowed() const {
  if (phase_ != Phase::play || coronation_.player >= 0) return false;
  if (agents_[to_move_] < kNullMoveMinAgents) return false;
  const int m = monarch_square(to_move_);
  return m != kNoSquare && !attacked(m, 1 - to_move_);
}

namespace {
constexpr uint32_t kNullMoveCode = 0xFFFFFFFFu;  // never a move's code (those use 15 bits)
}  // namespace

void Facet::apply_null() {
  undo_.push_back(Undo{Move{kNullMoveCode}, 0, kEmpty, 0, badge_, coronation_, draw_offer_, end_, winner_, hash_});
  if (options_.momentum)  // the mover's badges expire at the end of its turn, a pass too
    for (int sq = 0; sq < kSquares; ++sq)
      if (badge_[static_cast<size_t>(sq)] != kField && owner_of(board_[static_cast<size_t>(sq)]) == to_move_) set_badge(sq, kField);
  ++ply_;
  to_move_ = static_cast<uint8_t>(1 - to_move_);
  hash_ ^= kKeys.black_to_move;
}

void Facet::undo_null() {
  const Undo& u = undo_.back();
  badge_ = u.badges;
  hash_ = u.hash;
  --ply_;
  to_move_ = static_cast<uint8_t>(1 - to_move_);
  undo_.pop_back();
}

void Facet::apply(Move m, EventLog* events) {
  const int from = FacetMove::from(m);
  // Under fog the move was chosen on the mover's view; a slide stops on a hidden enemy in its path (bump).
  const int to = options_.fog ? stopped_square(from, FacetMove::to(m)) : FacetMove::to(m);
  const Player me = to_move_, them = 1 - me;
  const uint8_t s = board_[static_cast<size_t>(from)];
  const uint8_t taken = board_[static_cast<size_t>(to)];
  const int left = terrain_[static_cast<size_t>(from)];
  undo_.push_back(Undo{m, static_cast<uint8_t>(to), taken, static_cast<uint8_t>(left), badge_, coronation_, draw_offer_,
                       end_, winner_, hash_});
  if (options_.fog) fog_undo_.push_back(fog_);
  const size_t first_event = events ? events->size() : 0;

  if (events) {
    json move{{"type", "move"}, {"player", me}, {"from", square_name(from)}, {"to", square_name(to)}};
    if (to != FacetMove::to(m)) move["bump"] = true;
    events->push_back(Event{std::move(move), {}});
    if (taken != kEmpty)
      events->push_back(Event{json{{"type", "capture"},
                                   {"square", square_name(to)},
                                   {"piece", std::to_string(them) + (is_monarch(taken) ? "M" : "A")},
                                   {"by", me},
                                   {"points", 0}},
                              {}});
  }
  if (taken != kEmpty) {
    set_badge(to, kField);  // a captured stone's badge goes with it
    if (!is_monarch(taken)) --agents_[static_cast<size_t>(them)];
  }
  place_stone(to, s);
  place_stone(from, kEmpty);

  if (options_.momentum) {
    // The mover's badges expire at the end of its turn; the stone that left a non-Field tile gains one.
    set_badge(from, kField);
    for (int sq = 0; sq < kSquares; ++sq)
      if (badge_[static_cast<size_t>(sq)] != kField && owner_of(board_[static_cast<size_t>(sq)]) == me) set_badge(sq, kField);
    if (!is_monarch(s) && left != kField) set_badge(to, left);
  }
  if (options_.decay && decayed(left) != left) {
    set_tile(from, decayed(left));  // leaving spends the tile; a capture is not leaving
    if (events)
      events->push_back(Event{json{{"type", "decay"},
                                   {"square", square_name(from)},
                                   {"from", std::string(1, tile_letter(left))},
                                   {"to", std::string(1, tile_letter(decayed(left)))}},
                              {}});
  }
  draw_offer_.on_move(me, events);

  ++ply_;
  to_move_ = static_cast<uint8_t>(them);
  hash_ ^= kKeys.black_to_move;
  if (options_.fog) {
    const SquareSet before = fog_[static_cast<size_t>(them)].sight;
    see_after_ply(me, from, to, taken != kEmpty);
    if (events) conceal(*events, first_event, me, from, to, before);
  }
  judge_after_ply(me, taken != kEmpty && is_monarch(taken), taken != kEmpty && !is_monarch(taken));
  if (end_ != End::none) {
    phase_ = Phase::over;
    if (events) events->push_back(over_event(*result()));
  }
}

// rulings.md: after a ply, regicide, elimination, coronation, stalemate, in that order.
void Facet::judge_after_ply(Player mover, bool took_monarch, bool took_agent) {
  if (took_monarch) {
    end_ = End::regicide;
    winner_ = static_cast<uint8_t>(mover);
    return;
  }
  if (took_agent && agents_[static_cast<size_t>(1 - mover)] == 0) {
    end_ = End::elimination;
    winner_ = static_cast<uint8_t>(mover);
    return;
  }
  // Who holds every Throne (nobody when there are none, or they are split or one is empty).
  int holder = thrones_.empty() ? -1 : -2;
  for (int sq : thrones_) {
    const uint8_t s = board_[static_cast<size_t>(sq)];
    const int o = s == kEmpty ? -1 : owner_of(s);
    if (o < 0 || (holder != -2 && holder != o)) {
      holder = -1;
      break;
    }
    holder = o;
  }
  Coronation next;
  if (holder == mover) {
    next = Coronation{static_cast<int8_t>(mover),
                      static_cast<uint8_t>(coronation_.player == mover && coronation_.plies == 2 ? 3 : 1)};
  } else if (holder >= 0 && coronation_.player == holder && coronation_.plies == 1) {
    next = Coronation{static_cast<int8_t>(holder), 2};
  }
  hash_ ^= coronation_key(coronation_) ^ coronation_key(next);
  coronation_ = next;
  if (coronation_.plies == 3) {
    end_ = End::coronation;
    winner_ = static_cast<uint8_t>(mover);
    return;
  }
  if (!has_legal_move(to_move_)) end_ = End::stalemate;
}

void Facet::undo() {
  const Undo u = undo_.back();
  undo_.pop_back();
  const int from = FacetMove::from(u.move), to = u.stopped;
  if (options_.fog) {
    fog_ = fog_undo_.back();
    fog_undo_.pop_back();
  }
  --ply_;
  to_move_ = static_cast<uint8_t>(1 - to_move_);
  board_[static_cast<size_t>(from)] = board_[static_cast<size_t>(to)];
  board_[static_cast<size_t>(to)] = u.captured;
  if (u.captured != kEmpty && !is_monarch(u.captured)) ++agents_[static_cast<size_t>(owner_of(u.captured))];
  terrain_[static_cast<size_t>(from)] = u.from_tile;
  badge_ = u.badges;
  coronation_ = u.coronation;
  draw_offer_ = u.draw_offer;
  end_ = u.end;
  winner_ = u.winner;
  hash_ = u.hash;
  phase_ = Phase::play;
}

// ---------------------------------------------------------------------------------------------------------
// Offers and forced ends

void Facet::offer(Player p, std::string_view what, EventLog* events) {
  if (phase_ != Phase::play) fail(ErrorKind::conflict, "the game is over");
  if (draw_offer_.handle(p, what, "FACET", events)) {
    end_ = End::agreement;
    phase_ = Phase::over;
    undo_.clear();  // not undoable
    fog_undo_.clear();
    if (events) events->push_back(over_event(*result()));
  }
}

bool Facet::offer_stands(std::string_view what, Player player) const {
  return what == "draw" && phase_ == Phase::play && draw_offer_.stands_for(player);
}

void Facet::end_with(const Result& r, EventLog* events) {
  forced_ = r;
  end_ = End::forced;
  phase_ = Phase::over;
  draw_offer_.clear();
  undo_.clear();  // not undoable
  fog_undo_.clear();
  if (events) events->push_back(over_event(r));
}

const Result* Facet::result() const {
  switch (end_) {
    case End::none: return nullptr;
    case End::forced: return &forced_;
    case End::regicide: result_cache_ = Result{{winner_}, "regicide"}; break;
    case End::elimination: result_cache_ = Result{{winner_}, "elimination"}; break;
    case End::coronation: result_cache_ = Result{{winner_}, "coronation"}; break;
    case End::stalemate: result_cache_ = Result{{}, "stalemate"}; break;
    case End::agreement: result_cache_ = Result{{}, "agreement"}; break;
  }
  return &result_cache_;
}

}  // namespace tabula::facet
