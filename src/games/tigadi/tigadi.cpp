#include "games/tigadi/tigadi.h"

#include "games/tigadi/endgame.h"

namespace tabula::tigadi {

namespace {
int lowest(Mask m) { return __builtin_ctz(m); }
}  // namespace

// Reserved so that search and perft, which push and pop these, do not allocate in the tree.
Tigadi::Tigadi() {
  undo_.reserve(256);
  history_.reserve(256);
}

Tigadi::Tigadi(const Position& start) : pos_(start), terms_(terms_of(start.board)) {
  undo_.reserve(256);
  history_.reserve(256);
  // rulings.md: a given position after placing counts as the first occurrence for repetition.
  if (!pos_.placing()) history_.push_back(pos_.key());
}

const Result* Tigadi::result() const {
  if (forced_) return &forced_result_;
  // The cache keeps its capacity, so a search reaching end positions does not allocate here.
  result_cache_.winners.clear();
  switch (pos_.outcome) {
    case Position::kOn: return nullptr;
    case Position::kBoneWins: result_cache_.winners.push_back(0); result_cache_.reason = "reduced-to-two"; break;
    case Position::kSeedWins: result_cache_.winners.push_back(1); result_cache_.reason = "reduced-to-two"; break;
    case Position::kDrawRepetition: result_cache_.reason = "repetition"; break;
    case Position::kDrawQuiet: result_cache_.reason = "no-capture-100"; break;
  }
  return &result_cache_;
}

void Tigadi::legal_moves(MoveList& out) const {
  out.clear();
  if (over()) return;
  const int me = pos_.to_move, opp = 1 - me;
  const Mask own = pos_.board[me], enemy = pos_.board[opp];
  const Mask empty = kAllPoints & ~(own | enemy);
  // The capture choice does not depend on the mover's move: it only reads the enemy's lines.
  const Mask capturable = capturable_points(enemy);

  auto emit = [&](int from, int to, Mask after) {
    if (enemy && completes_line(after, to)) {
      for (Mask c = capturable; c; c &= c - 1) out.push(Move{TigadiMove::pack(from, to, lowest(c))});
    } else {
      out.push(Move{TigadiMove::pack(from, to, TigadiMove::kNone)});
    }
  };

  if (pos_.placing()) {
    // Placing goes on while either hand holds gotis; a player with an empty hand passes meanwhile.
    if (pos_.in_hand[me] == 0) {
      out.push(TigadiMove::pass());
      return;
    }
    for (Mask e = empty; e; e &= e - 1) {
      int to = lowest(e);
      emit(TigadiMove::kNone, to, own | bit(to));
    }
    return;
  }
  for (Mask o = own; o; o &= o - 1) {
    int from = lowest(o);
    for (Mask t = kGeometry.neighbours[static_cast<size_t>(from)] & empty; t; t &= t - 1) {
      int to = lowest(t);
      emit(from, to, own ^ bit(from) ^ bit(to));
    }
  }
  // Movement is compulsory; only a player with no slide at all passes.
  if (out.empty()) out.push(TigadiMove::pass());
}

void Tigadi::legal_captures(MoveList& out) const {
  out.clear();
  if (over()) return;
  const int me = pos_.to_move, opp = 1 - me;
  const Mask own = pos_.board[me], enemy = pos_.board[opp];
  // A line closed while the enemy has no goti on the board takes nothing: not a capture.
  if (!enemy) return;
  const Mask empty = kAllPoints & ~(own | enemy);
  // The points that would close a line: the empty third point of a line holding two own gotis.
  Mask closing = 0;
  for (Mask line : kGeometry.lines)
    if (__builtin_popcount(own & line) == 2 && (line & empty)) closing |= line & empty;
  if (!closing) return;
  const Mask capturable = capturable_points(enemy);
  auto emit = [&](int from, int to) {
    for (Mask c = capturable; c; c &= c - 1) out.push(Move{TigadiMove::pack(from, to, lowest(c))});
  };
  if (pos_.placing()) {
    if (pos_.in_hand[me] == 0) return;
    for (Mask e = closing; e; e &= e - 1) emit(TigadiMove::kNone, lowest(e));
    return;
  }
  for (Mask e = closing; e; e &= e - 1) {
    const int to = lowest(e);
    // A slide closes a line through `to` only if it does not come from that line.
    for (Mask f = kGeometry.neighbours[static_cast<size_t>(to)] & own; f; f &= f - 1) {
      const int from = lowest(f);
      if (completes_line(own ^ bit(from) ^ bit(to), to)) emit(from, to);
    }
  }
}

int Tigadi::order_hint(Move m) const {
  if (TigadiMove::is_pass(m)) return 0;
  const int me = pos_.to_move, opp = 1 - me;
  const int to = TigadiMove::to(m), from = TigadiMove::from(m), cap = TigadiMove::capture(m);
  const Mask own = pos_.board[me], enemy = pos_.board[opp];
  if (cap != TigadiMove::kNone) {
    // A capture, by what the taken goti does for the enemy: each enemy threat (two enemy gotis and the third
    // point empty) and each closed enemy line it stands on is broken by taking it.
    const Mask empty = kAllPoints & ~(own | enemy);
    int value = 0;
    for (uint32_t ls = kGeometry.line_ids[static_cast<size_t>(cap)]; ls; ls &= ls - 1) {
      const Mask line = kGeometry.lines[static_cast<size_t>(__builtin_ctz(ls))];
      const int n = __builtin_popcount(enemy & line);
      if (n == 3) value += 2;
      else if (n == 2 && (line & empty)) value += 3;
    }
    return 1000 + 10 * value;
  }
  // A move onto the empty third point of enemy lines holding two enemy gotis blocks them (it may also close a
  // line of one's own, but that would be a capture, above, unless the enemy has nothing on the board).
  int blocked = 0;
  for (uint32_t ls = kGeometry.line_ids[static_cast<size_t>(to)]; ls; ls &= ls - 1) {
    const Mask line = kGeometry.lines[static_cast<size_t>(__builtin_ctz(ls))];
    if (__builtin_popcount(enemy & line) == 2) ++blocked;
  }
  if (completes_line(own | bit(to), to) && from == TigadiMove::kNone) blocked += 2;  // a line closed, nothing taken
  if (blocked) return 100 * blocked;
  // A slide off the third point of a line holding two enemy gotis opens that line for the enemy.
  if (from != TigadiMove::kNone)
    for (uint32_t ls = kGeometry.line_ids[static_cast<size_t>(from)]; ls; ls &= ls - 1) {
      const Mask line = kGeometry.lines[static_cast<size_t>(__builtin_ctz(ls))];
      if (__builtin_popcount(enemy & line) == 2) return -1;
    }
  return 0;
}

std::optional<Game::Solved> Tigadi::solved() const {
  if (pos_.placing() || over()) return std::nullopt;
  const EndgameTables* tables = endgame_tables();
  if (!tables) return std::nullopt;
  const int me = pos_.to_move;
  const std::optional<EndgameTables::Value> v = tables->probe(pos_.board[me], pos_.board[1 - me]);
  if (!v) return std::nullopt;
  // rulings.md T7: a win the 100-turn rule could cut short is not known to be one here. Every ply of a
  // table's line, but its last, may be quiet; the count restarts at each capture and no table line is longer.
  if (v->outcome != 0 && pos_.quiet_plies + v->plies > kQuietPliesDraw) return std::nullopt;
  return Solved{v->outcome, v->plies};
}

void Tigadi::apply(Move m, EventLog* events) {
  undo_.push_back(Undo{pos_, terms_, static_cast<uint32_t>(history_.size())});
  const int me = pos_.to_move, opp = 1 - me;
  const bool was_placing = pos_.placing();
  bool captured = false;

  if (TigadiMove::is_pass(m)) {
    if (events) events->push_back(Event{json{{"type", "pass"}, {"player", me}}, {}});
  } else {
    const int to = TigadiMove::to(m), from = TigadiMove::from(m), cap = TigadiMove::capture(m);
    if (from == TigadiMove::kNone) {
      pos_.board[me] |= bit(to);
      --pos_.in_hand[me];
      if (events)
        events->push_back(Event{json{{"type", "place"}, {"player", me}, {"to", point_name(to)}}, {}});
    } else {
      pos_.board[me] ^= bit(from) | bit(to);
      if (events)
        events->push_back(Event{
            json{{"type", "move"}, {"player", me}, {"from", point_name(from)}, {"to", point_name(to)}}, {}});
    }
    const Mask before[2] = {undo_.back().pos.board[0], undo_.back().pos.board[1]};
    Mask changed = bit(to) | (from == TigadiMove::kNone ? 0 : bit(from));
    if (cap != TigadiMove::kNone) {
      pos_.board[opp] &= ~bit(cap);
      changed |= bit(cap);
      captured = true;
      if (events)
        events->push_back(Event{json{{"type", "capture"},
                                     {"square", point_name(cap)},
                                     {"piece", std::to_string(opp) + "G"},
                                     {"by", me},
                                     {"points", 0}},
                                {}});
    }
    update_terms(terms_, before, pos_.board, changed);
  }
  pos_.draw_offer.on_move(me, events);
  ++pos_.ply;
  pos_.to_move = static_cast<uint8_t>(opp);

  // Both counters start when placing ends: the position right after the last placement is the first one
  // counted for repetition, with no quiet ply yet.
  if (!pos_.placing()) pos_.quiet_plies = was_placing || captured ? 0 : static_cast<uint16_t>(pos_.quiet_plies + 1);

  // After a ply: first the win, then repetition, then the 100-turn draw (rulings.md).
  if (captured && pos_.total(opp) <= 2) {
    pos_.outcome = me == 0 ? Position::kBoneWins : Position::kSeedWins;
  } else if (!pos_.placing()) {
    const uint64_t key = pos_.key();
    history_.push_back(key);
    // A capture makes every earlier position unreachable, so only the last quiet_plies can repeat;
    // the side to move alternates every ply, so only every second one can match.
    int seen = 0;
    const size_t n = history_.size();
    for (size_t back = 0; back <= pos_.quiet_plies && back < n; back += 2)
      if (history_[n - 1 - back] == key) ++seen;
    if (seen >= kRepetitionsDraw)
      pos_.outcome = Position::kDrawRepetition;
    else if (pos_.quiet_plies >= kQuietPliesDraw)
      pos_.outcome = Position::kDrawQuiet;
  }
  if (events && pos_.outcome != Position::kOn)
    events->push_back(over_event(*result()));
}

void Tigadi::undo() {
  const Undo& u = undo_.back();
  pos_ = u.pos;
  terms_ = u.terms;
  history_.resize(u.history_size);
  undo_.pop_back();
}

void Tigadi::offer(Player p, std::string_view what, EventLog* events) {
  if (over()) fail(ErrorKind::conflict, "the game is over");
  if (pos_.draw_offer.handle(p, what, "Tigadi", events)) end_with(Result{{}, "agreement"}, events);
}

bool Tigadi::offer_stands(std::string_view what, Player player) const {
  return what == "draw" && !over() && pos_.draw_offer.stands_for(player);
}

void Tigadi::end_with(const Result& r, EventLog* events) {
  pos_.draw_offer.clear();
  forced_ = true;
  forced_result_ = r;
  undo_.clear();  // an imposed end is not a move: nothing before it can be undone
  if (events) events->push_back(over_event(r));
}

uint64_t Tigadi::hash() const {
  // The whole position fits in 57 bits; a bijective mix spreads it for hash tables, so hashes are unique.
  uint64_t x = pos_.key() | uint64_t{pos_.in_hand[0]} << 52 | uint64_t{pos_.in_hand[1]} << 56;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace tabula::tigadi
