// Stratego's rules: setups, move generation, battles, the two-square limit, the repetition house rule and
// the ends of the game. Notation and JSON are in notation.cpp, setups' arrangements in arrangements.cpp.
#include "games/stratego/stratego.h"

#include <algorithm>
#include <cstdlib>

namespace tabula::stratego {

namespace {

// Zobrist keys, made at compile time: a piece id on a square, a piece id's kind, the side to move.
struct Keys {
  std::array<std::array<uint64_t, kSquares>, kMaxPieces> at{};
  std::array<std::array<uint64_t, kKinds>, kMaxPieces> kind{};
  uint64_t blue_to_move = 0;
};
constexpr Keys make_keys() {
  Keys k;
  uint64_t s = 0x5354524154454730ULL;
  for (auto& row : k.at)
    for (auto& v : row) v = splitmix64(s);
  for (auto& row : k.kind)
    for (auto& v : row) v = splitmix64(s);
  k.blue_to_move = splitmix64(s);
  return k;
}
constexpr Keys kKeys = make_keys();

uint64_t at_key(int id, int sq) { return kKeys.at[static_cast<size_t>(id)][static_cast<size_t>(sq)]; }
uint64_t kind_key(int id, int kind) { return kKeys.kind[static_cast<size_t>(id)][static_cast<size_t>(kind)]; }

}  // namespace

Stratego::Stratego(const Options& options) : options_(options) {
  board_.fill(kEmpty);
  undo_.reserve(256);
}

void Stratego::add_piece(Player p, int kind, int sq, bool alive) {
  const int id = p * kArmySize + count_[static_cast<size_t>(p)]++;
  Piece& pc = pieces_[static_cast<size_t>(id)];
  pc = Piece{static_cast<uint8_t>(kind), static_cast<uint8_t>(sq), alive, false, false};
  if (alive) {
    board_[static_cast<size_t>(sq)] = static_cast<uint8_t>(id);
    position_hash_ ^= at_key(id, sq);
    identity_hash_ ^= kind_key(id, kind);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Setup

void Stratego::setup(Player p, const json& placement, EventLog* events) {
  if (phase_ != Phase::setup) fail(ErrorKind::conflict, "both armies are set up: setups can no longer change");
  if (!placement.is_object())
    fail(ErrorKind::bad_request, "a placement maps squares to kinds, e.g. {\"a1\":\"F\",…}");
  const char* side = p == 0 ? "Red sets up on ranks 1 to 4" : "Blue sets up on ranks 7 to 10";
  std::array<int, kKinds> counts{};
  std::array<int, kSquares> kind_at;
  kind_at.fill(-1);
  for (auto it = placement.begin(); it != placement.end(); ++it) {
    const int sq = parse_square(it.key());
    if (sq == kNoSquare) fail(ErrorKind::illegal, "\"" + it.key() + "\" is not a square of the board");
    if (!in_home(p, sq)) fail(ErrorKind::illegal, std::string(side) + ", not on " + it.key());
    const std::string letter = it->is_string() ? it->get<std::string>() : std::string();
    const int k = letter.size() == 1 ? kind_of_letter(letter[0]) : -1;
    if (k < 0)
      fail(ErrorKind::illegal, "the piece on " + it.key() +
                                   " must be one of the letters M G C J P L T N O S B F (no player digit)");
    kind_at[static_cast<size_t>(sq)] = k;
    ++counts[static_cast<size_t>(k)];
  }
  for (int k = 0; k < kKinds; ++k)
    if (counts[static_cast<size_t>(k)] != kArmy[static_cast<size_t>(k)])
      fail(ErrorKind::illegal, "a setup has " + std::to_string(kArmy[static_cast<size_t>(k)]) + " " +
                                   std::string(kind_name(k)) + (kArmy[static_cast<size_t>(k)] > 1 ? "s" : "") +
                                   ", this one " + std::to_string(counts[static_cast<size_t>(k)]));
  // 40 pieces of the right kinds on distinct home squares: every home square is filled.

  if (ready_[static_cast<size_t>(p)]) {  // a replaced setup: take the old army off
    for (int i = 0; i < count_[static_cast<size_t>(p)]; ++i) {
      const int id = p * kArmySize + i;
      const Piece& pc = pieces_[static_cast<size_t>(id)];
      board_[pc.square] = kEmpty;
      position_hash_ ^= at_key(id, pc.square);
      identity_hash_ ^= kind_key(id, pc.kind);
    }
    count_[static_cast<size_t>(p)] = 0;
  }
  for (int sq = 0; sq < kSquares; ++sq)
    if (kind_at[static_cast<size_t>(sq)] >= 0) add_piece(p, kind_at[static_cast<size_t>(sq)], sq, true);
  ready_[static_cast<size_t>(p)] = true;
  if (events) events->push_back(Event{json{{"type", "setup"}, {"player", p}}, {}});
  if (ready_[0] && ready_[1]) {
    begin_play();
    if (events && end_ != End::none) events->push_back(over_event(*result()));
  }
}

void Stratego::begin_play() {
  phase_ = Phase::play;
  history_.clear();
  seen_.fill(0);
  irreversible_ = 0;
  push_history();
  judge_turn_start();
}

// ---------------------------------------------------------------------------------------------------------
// Moves

template <class F>
bool Stratego::for_each_move_of(int id, F& f) const {
  const Piece& pc = pieces_[static_cast<size_t>(id)];
  if (!pc.alive || !is_movable(pc.kind)) return false;
  const Player p = owner(id);
  const Shuttle& sh = shuttle_[static_cast<size_t>(p)];
  const bool shuttling = sh.count >= options_.two_square_limit && sh.piece == id;
  const int from = pc.square;
  for (int d = 0; d < kDirections; ++d) {
    int to = kGeometry.neighbours[static_cast<size_t>(from)][static_cast<size_t>(d)];
    while (to != kNoSquare) {
      const uint8_t there = board_[static_cast<size_t>(to)];
      if (there != kEmpty && owner(there) == p) break;
      const bool attack = there != kEmpty;
      // The two-square limit: the run's next move between the same two squares is one too many.
      const bool over_limit = shuttling && std::min(from, to) == sh.a && std::max(from, to) == sh.b;
      if (!over_limit && f(from, to, attack)) return true;
      if (attack || pc.kind != kScout) break;
      to = kGeometry.neighbours[static_cast<size_t>(to)][static_cast<size_t>(d)];
    }
  }
  return false;
}

template <class F>
bool Stratego::for_each_move(Player p, F&& f) const {
  const int first = p * kArmySize, last = first + count_[static_cast<size_t>(p)];
  for (int id = first; id < last; ++id)
    if (for_each_move_of(id, f)) return true;
  return false;
}

// Asked after every move (judge_turn_start), and nearly always yes: the piece that had a move the last time
// usually still has one, so it is tried first, before the army in order (whose first pieces, the back rows, are
// mostly Bombs, the Flag and pieces walled in behind them).
bool Stratego::has_legal_move(Player p) {
  auto any = [](int, int, bool) { return true; };
  uint8_t& hint = mover_hint_[static_cast<size_t>(p)];
  if (hint != kEmpty && for_each_move_of(hint, any)) return true;
  return for_each_move(p, [&](int from, int, bool) {
    hint = board_[static_cast<size_t>(from)];
    return true;
  });
}

bool Stratego::owns_movable_piece(Player p) const {
  const int first = p * kArmySize, last = first + count_[static_cast<size_t>(p)];
  for (int id = first; id < last; ++id)
    if (pieces_[static_cast<size_t>(id)].alive && is_movable(pieces_[static_cast<size_t>(id)].kind)) return true;
  return false;
}

int Stratego::occurrences(uint64_t h) const {
  if (seen_[h & ((size_t{1} << kSeenBits) - 1)] < 1) return 0;
  int n = 0;
  for (size_t i = irreversible_; i < history_.size(); ++i) n += history_[i] == h;
  return n;
}

bool Stratego::repeats(int id, int from, int to) const {
  const uint64_t h = position_hash_ ^ at_key(id, from) ^ at_key(id, to) ^ kKeys.blue_to_move;
  if (seen_[h & ((size_t{1} << kSeenBits) - 1)] < 2) return false;
  return occurrences(h) >= 2;
}

void Stratego::legal_moves(MoveList& out) const {
  out.clear();
  if (phase_ != Phase::play) return;
  for_each_move(to_move_, [&](int from, int to, bool attack) {
    out.push(StrategoMove::make(from, to, attack));
    return false;
  });
  if (!options_.repetition_rule) return;
  // The repetition house rule removes the moves that would make a position for the third time, unless
  // it would remove them all (rulings.md: it never empties the move list). A battle always makes a new
  // position, so only plain moves are checked.
  int kept = 0;
  for (int i = 0; i < out.size(); ++i) {
    const Move m = out[i];
    const int from = StrategoMove::from(m);
    if (StrategoMove::attack(m) || !repeats(board_[static_cast<size_t>(from)], from, StrategoMove::to(m))) ++kept;
  }
  if (kept == 0 || kept == out.size()) return;
  int w = 0;
  for (int i = 0; i < out.size(); ++i) {
    const Move m = out[i];
    const int from = StrategoMove::from(m);
    if (StrategoMove::attack(m) || !repeats(board_[static_cast<size_t>(from)], from, StrategoMove::to(m)))
      out[w++] = m;
  }
  out.truncate(w);
}

void Stratego::recompute_identity_hash() {
  identity_hash_ = 0;
  for (int id = 0; id < kMaxPieces; ++id)
    if (pieces_[static_cast<size_t>(id)].alive) identity_hash_ ^= kind_key(id, pieces_[static_cast<size_t>(id)].kind);
}

void Stratego::set_to_move(Player p) {
  if (p != to_move_) position_hash_ ^= kKeys.blue_to_move;
  to_move_ = static_cast<uint8_t>(p);
}

void Stratego::push_history() {
  history_.push_back(position_hash_);
  ++seen_[position_hash_ & ((size_t{1} << kSeenBits) - 1)];
}

void Stratego::pop_history() {
  --seen_[history_.back() & ((size_t{1} << kSeenBits) - 1)];
  history_.pop_back();
}

void Stratego::apply(Move m, EventLog* events) {
  const int from = StrategoMove::from(m), to = StrategoMove::to(m);
  const Player me = to_move_;
  const uint8_t a = board_[static_cast<size_t>(from)];
  const uint8_t d = board_[static_cast<size_t>(to)];
  Piece& attacker = pieces_[a];
  undo_.push_back(Undo{m, a, d, attacker, d == kEmpty ? Piece{} : pieces_[d], shuttle_[static_cast<size_t>(me)],
                       position_hash_, identity_hash_, irreversible_, end_, winner_, draw_offer_});

  // The two-square limit's run: the same piece between the same two squares again, or a new run.
  Shuttle& sh = shuttle_[static_cast<size_t>(me)];
  const uint8_t lo = static_cast<uint8_t>(std::min(from, to)), hi = static_cast<uint8_t>(std::max(from, to));
  if (sh.piece == a && sh.a == lo && sh.b == hi) {
    ++sh.count;
  } else {
    sh = Shuttle{a, lo, hi, 1};
  }

  attacker.moved = true;
  bool battle_fought = false;
  if (d == kEmpty) {
    board_[static_cast<size_t>(from)] = kEmpty;
    board_[static_cast<size_t>(to)] = a;
    attacker.square = static_cast<uint8_t>(to);
    position_hash_ ^= at_key(a, from) ^ at_key(a, to);
    // A move of more than one square can only be a Scout's, and shows it.
    const int distance = std::abs(file_of(from) - file_of(to)) + std::abs(rank_of(from) - rank_of(to));
    if (distance > 1) attacker.revealed = true;
    if (events)
      events->push_back(Event{json{{"type", "move"}, {"player", me}, {"from", square_name(from)},
                                   {"to", square_name(to)}}, {}});
  } else {
    battle_fought = true;
    Piece& defender = pieces_[d];
    const Outcome o = battle(attacker.kind, defender.kind);
    if (events)
      events->push_back(Event{json{{"type", "battle"},
                                   {"player", me},
                                   {"from", square_name(from)},
                                   {"to", square_name(to)},
                                   {"attacker", std::to_string(me) + kind_letter(attacker.kind)},
                                   {"defender", std::to_string(1 - me) + kind_letter(defender.kind)},
                                   {"outcome", outcome_name(o)}},
                              {}});
    if (defender.kind == kFlag) {
      end_ = End::flag;
      winner_ = static_cast<uint8_t>(me);
    }
    board_[static_cast<size_t>(from)] = kEmpty;
    position_hash_ ^= at_key(a, from);
    if (o == Outcome::attacker_won) {
      defender.alive = false;
      position_hash_ ^= at_key(d, to);
      identity_hash_ ^= kind_key(d, defender.kind);
      board_[static_cast<size_t>(to)] = a;
      attacker.square = static_cast<uint8_t>(to);
      attacker.revealed = true;
      position_hash_ ^= at_key(a, to);
    } else if (o == Outcome::attacker_lost) {
      attacker.alive = false;
      identity_hash_ ^= kind_key(a, attacker.kind);
      defender.revealed = true;
    } else {
      attacker.alive = false;
      defender.alive = false;
      identity_hash_ ^= kind_key(a, attacker.kind) ^ kind_key(d, defender.kind);
      position_hash_ ^= at_key(d, to);
      board_[static_cast<size_t>(to)] = kEmpty;
    }
  }

  draw_offer_.on_move(me, events);
  ++ply_;
  to_move_ = static_cast<uint8_t>(1 - me);
  position_hash_ ^= kKeys.blue_to_move;
  // Earlier positions held the pieces a battle removed, so they cannot occur again.
  if (battle_fought) irreversible_ = static_cast<uint32_t>(history_.size());
  push_history();

  // rulings.md: after a move, the Flag, then the ply limit, then the next player's moves.
  if (end_ == End::none) {
    if (ply_ >= options_.max_plies) {
      end_ = End::ply_limit;
    } else {
      judge_turn_start();
    }
  }
  if (end_ != End::none) phase_ = Phase::over;
  if (events && end_ != End::none)
    events->push_back(over_event(*result()));
}

void Stratego::judge_turn_start() {
  if (has_legal_move(to_move_)) return;
  if (!owns_movable_piece(0) && !owns_movable_piece(1)) {
    end_ = End::both_immobile;
  } else {
    end_ = End::no_moves;
    winner_ = static_cast<uint8_t>(1 - to_move_);
  }
  phase_ = Phase::over;
}

void Stratego::undo() {
  const Undo u = undo_.back();
  undo_.pop_back();
  const int from = StrategoMove::from(u.move), to = StrategoMove::to(u.move);
  pop_history();
  --ply_;
  to_move_ = static_cast<uint8_t>(1 - to_move_);
  pieces_[u.attacker] = u.attacker_before;
  board_[static_cast<size_t>(from)] = u.attacker;
  if (u.defender != kEmpty) {
    pieces_[u.defender] = u.defender_before;
    board_[static_cast<size_t>(to)] = u.defender;
  } else {
    board_[static_cast<size_t>(to)] = kEmpty;
  }
  shuttle_[static_cast<size_t>(to_move_)] = u.shuttle;
  position_hash_ = u.position_hash;
  identity_hash_ = u.identity_hash;
  irreversible_ = u.irreversible;
  end_ = u.end;
  winner_ = u.winner;
  draw_offer_ = u.draw_offer;
  phase_ = Phase::play;
}

void Stratego::offer(Player p, std::string_view what, EventLog* events) {
  if (phase_ == Phase::over) fail(ErrorKind::conflict, "the game is over");
  if (phase_ == Phase::setup) fail(ErrorKind::conflict, "a draw may be offered once play has begun");
  if (draw_offer_.handle(p, what, "Stratego", events)) end_with(Result{{}, "agreement"}, events);
}

bool Stratego::offer_stands(std::string_view what, Player player) const {
  return what == "draw" && phase_ == Phase::play && draw_offer_.stands_for(player);
}

void Stratego::end_with(const Result& r, EventLog* events) {
  draw_offer_.clear();
  forced_ = r;
  end_ = End::forced;
  phase_ = Phase::over;
  undo_.clear();  // not undoable
  if (events) events->push_back(over_event(r));
}

const Result* Stratego::result() const {
  switch (end_) {
    case End::none: return nullptr;
    case End::forced: return &forced_;
    case End::flag: result_cache_ = Result{{winner_}, "flag-captured"}; break;
    case End::no_moves: result_cache_ = Result{{winner_}, "no-moves"}; break;
    case End::both_immobile: result_cache_ = Result{{}, "no-moves"}; break;
    case End::ply_limit: result_cache_ = Result{{}, "ply-limit"}; break;
  }
  return &result_cache_;
}

}  // namespace tabula::stratego
