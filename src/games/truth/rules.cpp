// The Game of Truth's rules over a Position: the turn's structure and its look-ahead, the effects of an
// action (jumps, interception, contacts, enclosures, all read together before removal), sieges, the end of
// a turn (siege counts, blocked turns, transformation, the ends by score) and the hash.
#include "games/truth/moves.h"
#include "games/truth/truth.h"

#include <algorithm>
#include <numeric>

namespace tabula::truth {

bool Position::defender(int id) const {
  const Piece& pc = piece(id);
  if (pc.kind != kGuardian) return false;
  const int icon_sq = icon_square(pc.owner);
  if (icon_sq == kNoSquare) return false;
  const int df = file_of(icon_sq) - file_of(pc.square), dr = rank_of(icon_sq) - rank_of(pc.square);
  return (df == 1 || df == -1) && (dr == 1 || dr == -1);
}

namespace rules {

namespace {

// ---------------------------------------------------------------------------------------------------------
// Zobrist keys, drawn in order from a fixed seed.

struct Keys {
  std::array<uint64_t, size_t{kMaxPlayers} * kKinds * kSquares> piece{};
  std::array<uint64_t, kMaxPlayers> to_move{}, transformed{}, agreed{};
  std::array<uint64_t, kSquares> acted{};
  std::array<std::array<uint64_t, 3>, kMaxPlayers> siege{};
  std::array<uint64_t, 8> blocked{};
  uint64_t second_action = 0, door_done = 0;
};
const Keys& keys() {
  static const Keys k = [] {
    Keys out;
    uint64_t s = 0x7275746854727574ULL;  // "truthTrut"
    for (auto& v : out.piece) v = splitmix64(s);
    for (auto& v : out.to_move) v = splitmix64(s);
    for (auto& v : out.transformed) v = splitmix64(s);
    for (auto& v : out.agreed) v = splitmix64(s);
    for (auto& v : out.acted) v = splitmix64(s);
    for (auto& a : out.siege)
      for (auto& v : a) v = splitmix64(s);
    for (auto& v : out.blocked) v = splitmix64(s);
    out.second_action = splitmix64(s);
    out.door_done = splitmix64(s);
    return out;
  }();
  return k;
}

bool diagonally_adjacent(int a, int b) {
  const int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
  return (df == 1 || df == -1) && (dr == 1 || dr == -1);
}

// ---------------------------------------------------------------------------------------------------------
// Losses: every victim of one reading, with the armies that caused it, removed together.

enum Cause : uint8_t { kCrossing = 1, kContact, kBurn, kEnclosure, kSiege, kInterception };
const char* cause_name(uint8_t c) {
  switch (c) {
    case kCrossing: return "crossing";
    case kContact: return "contact";
    case kBurn: return "burn";
    case kEnclosure: return "enclosure";
    case kSiege: return "siege";
    default: return "interception";
  }
}

struct Losses {
  std::array<uint8_t, kMaxPieces> causes{};  // bit a: army a caused it
  std::array<uint8_t, kMaxPieces> why{};     // the first cause found (0: not a victim)
  std::array<int16_t, kMaxPieces> where{};   // where it dies (an intercepted attacker: on its route)
  std::array<uint8_t, kMaxPieces> list{};
  int n = 0;
  void add(const Position& pos, int id, int by, uint8_t cause, int square = kNoSquare) {
    const size_t i = static_cast<size_t>(id);
    if (why[i] == 0) {
      why[i] = cause;
      where[i] = static_cast<int16_t>(square == kNoSquare ? pos.piece(id).square : square);
      list[static_cast<size_t>(n++)] = static_cast<uint8_t>(id);
    }
    if (by >= 0) causes[i] |= static_cast<uint8_t>(1u << by);
  }
  bool has(int id) const { return why[static_cast<size_t>(id)] != 0; }
};

// Contacts and enclosures that hold for the piece `id` (rulings.md, "Contacts"; edition, "Enclosures and
// exchanges"), on the board as it stands, `absent` left out (an intercepted attacker has no other effect).
void read_piece(const Position& pos, int id, int absent, Losses& losses) {
  const Piece& x = pos.piece(id);
  const int me = x.owner;
  int lanterns_around = 0, doors_around = 0, neighbours = 0;
  uint8_t lantern_owners = 0, door_owners = 0;
  const bool is_defender = pos.defender(id);
  const bool is_lantern_guardian = pos.lantern_guardian(id);
  for (int d = 0; d < kDiagonals; ++d) {
    const int sq = diagonal(x.square, d);
    if (sq == kNoSquare) continue;
    ++neighbours;
    const uint8_t y = pos.board[static_cast<size_t>(sq)];
    if (y == kNoPiece || y == absent) continue;
    const Piece& py = pos.piece(y);
    if (py.owner == me) continue;
    const int them = py.owner;
    // Guardians, ordinary or lantern-guardians, destroy adjacent enemy doors, lanterns, linesmen, sentries.
    if (py.kind == kGuardian && x.kind <= kSentry) losses.add(pos, id, them, kContact);
    // Icons destroy adjacent enemy ordinary guardians only.
    if (py.kind == kIcon && x.kind == kGuardian && !pos.is_transformed(me)) losses.add(pos, id, them, kContact);
    // Lanterns and lantern-guardians burn an adjacent enemy icon.
    if (x.kind == kIcon && pos.lantern_role(y)) losses.add(pos, id, them, kBurn);
    // A defender and an enemy lantern-guardian that touch destroy each other.
    if (is_defender && pos.lantern_guardian(y)) losses.add(pos, id, them, kContact);
    if (is_lantern_guardian && pos.defender(y)) losses.add(pos, id, them, kContact);
    if (pos.lantern_role(y)) {
      ++lanterns_around;
      lantern_owners |= static_cast<uint8_t>(1u << them);
    }
    if (pos.door_role(y)) {
      ++doors_around;
      door_owners |= static_cast<uint8_t>(1u << them);
    }
  }
  // Fourfold enclosures: a piece on the edge (fewer than four neighbours) cannot be enclosed.
  if (neighbours == kDiagonals) {
    if (pos.door_role(id) && lanterns_around == kDiagonals)
      for (int a = 0; a < kMaxPlayers; ++a)
        if ((lantern_owners >> a) & 1) losses.add(pos, id, a, kEnclosure);
    if (pos.lantern_role(id) && doors_around == kDiagonals)
      for (int a = 0; a < kMaxPlayers; ++a)
        if ((door_owners >> a) & 1) losses.add(pos, id, a, kEnclosure);
  }
}

// Reads the board: around `center` (every square within two steps, where an action can have made a new
// contact or enclosure), or the whole board when center is kNoSquare.
void read_board(const Position& pos, int center, int absent, Losses& losses) {
  if (center == kNoSquare || pos.unread) {
    for (int id = 0; id < kMaxPieces; ++id)
      if (pos.piece(id).alive() && id != absent) read_piece(pos, id, absent, losses);
    return;
  }
  const int fc = file_of(center), rc = rank_of(center);
  for (int r = rc - 2; r <= rc + 2; ++r)
    for (int f = fc - 2; f <= fc + 2; ++f) {
      if (!on_board(f, r)) continue;
      const uint8_t id = pos.board[static_cast<size_t>(square_of(f, r))];
      if (id != kNoPiece && id != absent) read_piece(pos, id, absent, losses);
    }
}

int value_of(const Position& pos, int id) {
  const Piece& pc = pos.piece(id);
  return pc.kind == kGuardian && pos.is_transformed(pc.owner) ? kLanternGuardianValue : kValue[pc.kind];
}

void take_off(Position& pos, int id) {
  Piece& pc = pos.pieces[static_cast<size_t>(id)];
  pos.board[static_cast<size_t>(pc.square)] = kNoPiece;
  pos.hash ^= piece_key(pc.owner, pc.kind, pc.square);
  --pos.count[pc.owner][pc.kind];
  pc.square = kNoSquare;
}

void put_on(Position& pos, int id, int sq) {
  Piece& pc = pos.pieces[static_cast<size_t>(id)];
  pc.square = static_cast<int16_t>(sq);
  pos.board[static_cast<size_t>(sq)] = static_cast<uint8_t>(id);
  pos.hash ^= piece_key(pc.owner, pc.kind, sq);
}

Event event(json full) { return Event{std::move(full), {}}; }

void finish(Position& pos, EndReason why, uint8_t winners, EventLog* events) {
  pos.phase = Phase::over;
  pos.end = why;
  pos.winners = winners;
  pos.action = 0;
  pos.acted = kNoPiece;
  pos.door_action_done = false;
  if (events) events->push_back(over_event(result_of(pos)));
}

// Rings (rulings.md, "Siege"): after every action, transformation and the start of play, each icon's four
// diagonal neighbours are looked at; a new ring starts a siege at 0, a broken one ends it.
void update_rings(Position& pos, EventLog* events) {
  for (int p = 0; p < pos.players; ++p) {
    Siege& s = pos.sieges[static_cast<size_t>(p)];
    const int icon_sq = pos.icon_square(p);
    std::array<uint8_t, 4> ring{};
    bool holds = icon_sq != kNoSquare;
    for (int d = 0; d < kDiagonals && holds; ++d) {
      const int sq = diagonal(icon_sq, d);
      const uint8_t id = sq == kNoSquare ? kNoPiece : pos.board[static_cast<size_t>(sq)];
      holds = id != kNoPiece && pos.piece(id).owner != p && pos.door_role(id);
      ring[static_cast<size_t>(d)] = id;
    }
    if (holds) {
      if (s.active && s.ring == ring && s.square == icon_sq) continue;
      s = Siege{true, 0, ring, pos.ply, static_cast<int16_t>(icon_sq)};
      if (events)
        events->push_back(event(json{{"type", "siege"}, {"icon", square_name(icon_sq)}, {"player", p}, {"count", 0}}));
    } else if (s.active) {
      // Named by the square the ring stood around (the icon may have stepped out of it).
      if (events && icon_sq != kNoSquare)
        events->push_back(event(json{{"type", "siege-lifted"}, {"icon", square_name(s.square)}, {"player", p}}));
      s = Siege{};
    }
  }
}

// Removes every victim at once, credits each loss (the lowest-numbered causing army other than the
// victim's own, or nobody), and ends the game when an icon fell. Returns whether the game ended.
bool remove_losses(Position& pos, Losses& losses, EventLog* events) {
  if (losses.n == 0) return false;
  // Events in square order, so a reading reads the same whatever order its causes were found in.
  std::sort(losses.list.begin(), losses.list.begin() + losses.n, [&](uint8_t a, uint8_t b) {
    return losses.where[a] < losses.where[b] || (losses.where[a] == losses.where[b] && a < b);
  });
  bool icon_lost = false;
  for (int i = 0; i < losses.n; ++i) {
    const int id = losses.list[static_cast<size_t>(i)];
    const Piece pc = pos.piece(id);
    const uint8_t others = static_cast<uint8_t>(losses.causes[static_cast<size_t>(id)] & ~(1u << pc.owner));
    const int by = others ? std::countr_zero(others) : -1;
    const int points = by >= 0 ? value_of(pos, id) : 0;
    if (by >= 0) pos.scores[static_cast<size_t>(by)] += points;
    if (events)
      events->push_back(event(json{{"type", "capture"},
                                   {"square", square_name(losses.where[static_cast<size_t>(id)])},
                                   {"piece", std::to_string(pc.owner) + kind_letter(pc.kind)},
                                   {"by", by >= 0 ? json(by) : json(nullptr)},
                                   {"points", points},
                                   {"cause", cause_name(losses.why[static_cast<size_t>(id)])}}));
    if (pc.kind == kIcon) icon_lost = true;
    take_off(pos, id);
  }
  if (!icon_lost) return false;
  update_rings(pos, nullptr);  // the final board's rings
  uint8_t standing = 0;
  for (int p = 0; p < pos.players; ++p)
    if (pos.icon_stands(p)) standing |= static_cast<uint8_t>(1u << p);
  finish(pos, standing ? EndReason::icon_destroyed : EndReason::all_icons_destroyed, standing, events);
  return true;
}

// Whether the door rule lets `id` act as this turn's remaining action.
bool role_allows(const Position& pos, int id) {
  return pos.action == 0 || pos.door_action_done || pos.door_role(id);
}

bool has_any_action(const Position& pos) {
  const int me = pos.to_move;
  for (int id = me * kArmySize; id < (me + 1) * kArmySize; ++id) {
    if (!pos.piece(id).alive() || id == pos.acted || !role_allows(pos, id)) continue;
    if (for_each_destination(pos, id, [](int) { return true; })) return true;
  }
  return false;
}

// The squares of a sentry's leap that it crosses: the lattice points strictly between from and to on the
// straight segment. Returns how many were written.
int lattice_points(int from, int to, std::array<int, kRay>& out) {
  const int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
  const int g = std::gcd(df < 0 ? -df : df, dr < 0 ? -dr : dr);
  int n = 0;
  for (int k = 1; k < g; ++k)
    out[static_cast<size_t>(n++)] = square_of(file_of(from) + k * df / g, rank_of(from) + k * dr / g);
  return n;
}

int direction_of(int from, int to) {
  const int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
  for (int d = 0; d < kDirections; ++d)
    if ((df > 0) - (df < 0) == kDf[static_cast<size_t>(d)] && (dr > 0) - (dr < 0) == kDr[static_cast<size_t>(d)]) return d;
  return 0;
}

// One action of piece `id` to `to`, with all its effects. Returns whether the game ended.
bool act(Position& pos, int id, int to, EventLog* events) {
  const Piece mover = pos.piece(id);
  const int me = mover.owner, from = mover.square;
  const bool lantern_guardian = pos.lantern_guardian(id);
  pos.board[static_cast<size_t>(from)] = kNoPiece;
  pos.hash ^= piece_key(me, mover.kind, from);
  put_on(pos, id, to);
  if (events)
    events->push_back(event(json{{"type", "move"},
                                 {"player", me},
                                 {"from", square_name(from)},
                                 {"to", square_name(to)},
                                 {"piece", std::to_string(me) + kind_letter(mover.kind)},
                                 {"action", pos.action}}));
  Losses losses;
  int absent = kNoPiece;
  if (mover.kind == kLinesman) {
    // A linesman destroys an enemy lantern (or lantern-guardian) it crosses; any icon it crosses destroys it.
    const uint8_t mid = pos.board[static_cast<size_t>(step(from, direction_of(from, to), 1))];
    if (mid != kNoPiece) {
      const Piece& pm = pos.piece(mid);
      if (pm.kind == kIcon) losses.add(pos, id, pm.owner, kCrossing);
      else if (pm.owner != me && pos.lantern_role(mid)) losses.add(pos, mid, me, kCrossing);
    }
  } else if (mover.kind == kSentry) {
    // A sentry destroys every enemy piece but an icon on the lattice points it crosses, and dies with a
    // jumped guardian diagonally adjacent to its landing square.
    std::array<int, kRay> points{};
    const int n = lattice_points(from, to, points);
    for (int i = 0; i < n; ++i) {
      const uint8_t j = pos.board[static_cast<size_t>(points[static_cast<size_t>(i)])];
      if (j == kNoPiece || pos.piece(j).owner == me || pos.piece(j).kind == kIcon) continue;
      losses.add(pos, j, me, kCrossing);
      if (pos.piece(j).kind == kGuardian && diagonally_adjacent(pos.piece(j).square, to))
        losses.add(pos, id, pos.piece(j).owner, kCrossing);
    }
  } else if (lantern_guardian) {
    // Interception (rulings.md): at each square the attacker enters, an enemy defender on it or touching
    // it stops it there: both die, and the attacker has no other effect.
    const int d = direction_of(from, to);
    for (int k = 1;; ++k) {
      const int q = step(from, d, k);
      int met = 0;
      for (int e = -1; e < kDiagonals; ++e) {
        const int sq = e < 0 ? q : diagonal(q, e);
        if (sq == kNoSquare) continue;
        const uint8_t def = pos.board[static_cast<size_t>(sq)];
        if (def == kNoPiece || def == id || pos.piece(def).owner == me || !pos.defender(def)) continue;
        losses.add(pos, def, me, kInterception);
        losses.causes[id] |= static_cast<uint8_t>(1u << pos.piece(def).owner);
        ++met;
      }
      if (met) {
        losses.add(pos, id, -1, kInterception, q);
        absent = id;
        break;
      }
      if (q == to) break;
    }
  }
  read_board(pos, pos.unread ? kNoSquare : to, absent, losses);
  pos.unread = false;
  const bool ended = remove_losses(pos, losses, events);
  if (!ended) update_rings(pos, events);
  return ended;
}

bool any_ring(const Position& pos) {
  for (int p = 0; p < pos.players; ++p)
    if (pos.sieges[static_cast<size_t>(p)].active) return true;
  return false;
}

// Automatic stalemate (rulings.md): no lantern and no guardian on the board, and every standing icon faces
// fewer than four doors, linesmen and sentries of other armies.
bool automatic_stalemate(const Position& pos) {
  for (int p = 0; p < pos.players; ++p)
    if (pos.count[p][kLantern] || pos.count[p][kGuardian]) return false;
  for (int p = 0; p < pos.players; ++p) {
    if (!pos.icon_stands(p)) continue;
    int facing = 0;
    for (int q = 0; q < pos.players; ++q)
      if (q != p) facing += pos.count[q][kDoor] + pos.count[q][kLinesman] + pos.count[q][kSentry];
    if (facing >= 4) return false;
  }
  return true;
}

bool everyone_agrees(const Position& pos) {
  for (int p = 0; p < pos.players; ++p)
    if (pos.icon_stands(p) && !((pos.agreed >> p) & 1)) return false;
  return true;
}

// The end of a turn (rulings.md, "End of a turn, in order").
void end_turn(Position& pos, bool blocked_pass, EventLog* events) {
  const int me = pos.to_move;
  // 1. The ending player's siege count.
  Siege& s = pos.sieges[static_cast<size_t>(me)];
  if (s.active && s.closed_ply < pos.ply) {
    ++s.count;
    const int icon_sq = pos.icon_square(me);
    if (events)
      events->push_back(event(json{{"type", "siege"}, {"icon", square_name(icon_sq)}, {"player", me}, {"count", s.count}}));
    if (s.count >= 2) {
      Losses losses;
      for (uint8_t id : s.ring) losses.add(pos, pos.icon[static_cast<size_t>(me)], pos.piece(id).owner, kSiege);
      s = Siege{};
      remove_losses(pos, losses, events);
      return;
    }
  }
  // 2. Blocked turns.
  pos.blocked_turns = blocked_pass ? pos.blocked_turns + 1 : 0;
  // 3. The transformation: two players, when both armies have lost every door and lantern; four players,
  // each army that has lost its own.
  uint8_t newly = 0;
  if (pos.players == 2) {
    bool gone = true;
    for (int p = 0; p < 2; ++p) gone = gone && pos.count[p][kDoor] == 0 && pos.count[p][kLantern] == 0;
    if (gone) newly = static_cast<uint8_t>(3u & ~pos.transformed);
  } else {
    for (int p = 0; p < pos.players; ++p)
      if (pos.count[p][kDoor] == 0 && pos.count[p][kLantern] == 0 && !pos.is_transformed(p))
        newly |= static_cast<uint8_t>(1u << p);
  }
  if (newly) {
    pos.transformed |= newly;
    pos.blocked_turns = 0;
    if (events)
      for (int p = 0; p < pos.players; ++p)
        if ((newly >> p) & 1) events->push_back(event(json{{"type", "transform"}, {"player", p}}));
    Losses losses;
    read_board(pos, kNoSquare, kNoPiece, losses);
    if (remove_losses(pos, losses, events)) return;
    update_rings(pos, events);
  }
  // 4. The next player.
  pos.to_move = static_cast<uint8_t>((me + 1) % pos.players);
  ++pos.ply;
  pos.action = 0;
  pos.acted = kNoPiece;
  pos.door_action_done = false;
  // 5. The ends by score.
  const bool round_end = pos.to_move == 0;
  if (pos.blocked_turns >= pos.players && !any_ring(pos)) end_by_score(pos, EndReason::blocked_cycle, events);
  else if (round_end && automatic_stalemate(pos)) end_by_score(pos, EndReason::stalemate, events);
  else if (round_end && everyone_agrees(pos)) end_by_score(pos, EndReason::scored_stalemate, events);
  else if (pos.ply >= pos.max_plies) end_by_score(pos, EndReason::ply_limit, events);
}

// ---------------------------------------------------------------------------------------------------------
// The first action's look-ahead.
//
// A first action is legal when a legal second action remains after it. Playing it on a copy and looking for
// a second action is exact; it is also what most of the time is not needed: a "witness" — another piece
// whose own move cannot be touched by the first action — proves that a second action remains. An action
// changes the board only near its destination (contacts and enclosures within two steps), on the squares
// it jumps, and, when it is an icon's step, the ranges of its army's sentries and guardians; it occupies one
// square. So a door, sentry, guardian or icon (whose moves need only an empty destination, and, for sentries
// and guardians, their icon in place) more than two steps from the destination, not jumped, with a
// destination other than the one taken, keeps that move. Lanterns and linesmen (whose paths can be closed)
// are never witnesses. When no witness qualifies, or the action could end the game, the exact test decides.
// The playout test checks this against the exact test on every first action of thousands of games.

struct Witness {
  uint8_t id;
  bool door_role;
  bool tethered;       // a sentry or an ordinary guardian: its range moves with its icon
  int16_t square;
  int16_t to[2];       // up to two destinations (kNoSquare when fewer)
};

int witnesses(const Position& pos, std::array<Witness, kArmySize>& out) {
  const int me = pos.to_move;
  int n = 0;
  for (int id = me * kArmySize; id < (me + 1) * kArmySize; ++id) {
    const Piece& pc = pos.piece(id);
    if (!pc.alive() || pos.lantern_role(id) || pc.kind == kLinesman) continue;
    Witness w{static_cast<uint8_t>(id), pos.door_role(id), pc.kind == kSentry || pc.kind == kGuardian, pc.square,
              {kNoSquare, kNoSquare}};
    int found = 0;
    for_each_destination(pos, id, [&](int sq) {
      w.to[found++] = static_cast<int16_t>(sq);
      return found == 2;
    });
    if (found) out[static_cast<size_t>(n++)] = w;
  }
  return n;
}

// Whether the first action (piece id to `to`) could end the game: only a burn can end it within an
// action (the mover a lantern-role piece arriving next to an enemy icon, or an icon arriving next to an
// enemy lantern-role piece).
bool could_end_game(const Position& pos, int id, int to) {
  const Piece& pc = pos.piece(id);
  const bool lantern = pos.lantern_role(id);
  if (!lantern && pc.kind != kIcon) return false;
  for (int d = 0; d < kDiagonals; ++d) {
    const int sq = diagonal(to, d);
    if (sq == kNoSquare) continue;
    const uint8_t y = pos.board[static_cast<size_t>(sq)];
    if (y == kNoPiece || y == id || pos.piece(y).owner == pc.owner) continue;
    if (lantern && pos.piece(y).kind == kIcon) return true;
    if (pc.kind == kIcon && pos.lantern_role(y)) return true;
  }
  return false;
}

bool witnessed(const Position& pos, int id, int to, const std::array<Witness, kArmySize>& ws, int n) {
  const Piece& pc = pos.piece(id);
  const bool need_door = !pos.door_role(id);
  std::array<int, kRay> jumped{};
  int njumped = 0;
  if (pc.kind == kSentry) njumped = lattice_points(pc.square, to, jumped);
  else if (pc.kind == kLinesman) jumped[static_cast<size_t>(njumped++)] = step(pc.square, direction_of(pc.square, to), 1);
  for (int i = 0; i < n; ++i) {
    const Witness& w = ws[static_cast<size_t>(i)];
    if (w.id == id || (need_door && !w.door_role) || (w.tethered && pc.kind == kIcon)) continue;
    if (distance(w.square, to) <= 2) continue;
    if (std::find(jumped.begin(), jumped.begin() + njumped, w.square) != jumped.begin() + njumped) continue;
    if (w.to[0] != to || (w.to[1] != kNoSquare && w.to[1] != to)) return true;
  }
  return false;
}

// The exact test: plays the action on a copy. Sets `complete` when a second action follows it.
bool first_action_ok(const Position& pos, int id, int to, bool& complete) {
  Position next = pos;
  const bool door = pos.door_role(id);
  if (act(next, id, to, nullptr)) return true;  // it ended the game (an icon fell): listed, not complete
  next.action = 1;
  next.acted = static_cast<uint8_t>(id);  // alive or not, it has acted
  next.door_action_done = door;
  complete = has_any_action(next);
  return complete;
}

}  // namespace

uint64_t piece_key(int owner, int kind, int sq) {
  return keys().piece[(static_cast<size_t>(owner) * kKinds + static_cast<size_t>(kind)) * kSquares + static_cast<size_t>(sq)];
}

uint64_t full_hash(const Position& pos) {
  const Keys& k = keys();
  uint64_t h = pos.hash ^ k.to_move[pos.to_move];
  if (pos.action) h ^= k.second_action;
  if (pos.door_action_done) h ^= k.door_done;
  if (pos.acted != kNoPiece && pos.piece(pos.acted).alive()) h ^= k.acted[static_cast<size_t>(pos.piece(pos.acted).square)];
  for (int p = 0; p < pos.players; ++p) {
    if (pos.is_transformed(p)) h ^= k.transformed[static_cast<size_t>(p)];
    if ((pos.agreed >> p) & 1) h ^= k.agreed[static_cast<size_t>(p)];
    const Siege& s = pos.sieges[static_cast<size_t>(p)];
    if (s.active) h ^= k.siege[static_cast<size_t>(p)][std::min<size_t>(s.count, 2)];
  }
  h ^= k.blocked[static_cast<size_t>(std::min(pos.blocked_turns, 7))];
  return h;
}

void recount(Position& pos) {
  pos.count = {};
  pos.icon.fill(kNoPiece);
  pos.hash = 0;
  pos.board.fill(kNoPiece);
  for (int id = 0; id < kMaxPieces; ++id) {
    const Piece& pc = pos.piece(id);
    if (!pc.alive()) continue;
    pos.board[static_cast<size_t>(pc.square)] = static_cast<uint8_t>(id);
    ++pos.count[pc.owner][pc.kind];
    if (pc.kind == kIcon) pos.icon[pc.owner] = static_cast<uint8_t>(id);
    pos.hash ^= piece_key(pc.owner, pc.kind, pc.square);
  }
}

bool may_act(const Position& pos, int id) {
  const Piece& pc = pos.piece(id);
  return pos.phase == Phase::play && pc.alive() && pc.owner == pos.to_move && id != pos.acted && role_allows(pos, id);
}

void legal_actions(const Position& pos, MoveList& out) {
  out.clear();
  if (pos.phase != Phase::play) return;
  const int me = pos.to_move;
  const int first = me * kArmySize, last = (me + 1) * kArmySize;
  if (pos.action == 1) {
    // The second action: any other piece (a door-role one if the door action is still owed), no look-ahead.
    for (int id = first; id < last; ++id) {
      if (!may_act(pos, id)) continue;
      for_each_destination(pos, id, [&](int to) {
        out.push(TruthMove::make(pos.piece(id).square, to));
        return false;
      });
    }
    if (out.empty()) out.push(TruthMove::pass());
    return;
  }
  std::array<Witness, kArmySize> ws;
  const int nw = pos.unread ? 0 : witnesses(pos, ws);
  bool complete = false;
  for (int id = first; id < last; ++id) {
    if (!pos.piece(id).alive()) continue;
    for_each_destination(pos, id, [&](int to) {
      bool ok;
      if (!pos.unread && !could_end_game(pos, id, to) && witnessed(pos, id, to, ws, nw)) {
        ok = complete = true;
      } else {
        bool c = false;
        ok = first_action_ok(pos, id, to, c);
        complete = complete || c;
      }
      if (ok) out.push(TruthMove::make(pos.piece(id).square, to));
      return false;
    });
  }
  if (!complete) out.push(TruthMove::pass());
}

void legal_actions_exact(const Position& pos, MoveList& out) {
  if (pos.phase != Phase::play || pos.action == 1) {
    legal_actions(pos, out);
    return;
  }
  out.clear();
  const int me = pos.to_move;
  bool complete = false;
  for (int id = me * kArmySize; id < (me + 1) * kArmySize; ++id) {
    if (!pos.piece(id).alive()) continue;
    for_each_destination(pos, id, [&](int to) {
      bool c = false;
      if (first_action_ok(pos, id, to, c)) out.push(TruthMove::make(pos.piece(id).square, to));
      complete = complete || c;
      return false;
    });
  }
  if (!complete) out.push(TruthMove::pass());
}

void play(Position& pos, Move m, EventLog* events) {
  const int me = pos.to_move;
  if (TruthMove::is_pass(m)) {
    const bool blocked = pos.action == 0;
    if (events) events->push_back(event(json{{"type", "pass"}, {"player", me}, {"blocked", blocked}}));
    if (pos.unread) {
      // A state given to `new` is resolved by its next action or turn end.
      Losses losses;
      read_board(pos, kNoSquare, kNoPiece, losses);
      pos.unread = false;
      if (remove_losses(pos, losses, events)) return;
      update_rings(pos, events);
    }
    end_turn(pos, blocked, events);
    return;
  }
  const int id = pos.board[static_cast<size_t>(TruthMove::from(m))];
  const bool door = pos.door_role(id);
  if (act(pos, id, TruthMove::to(m), events)) return;
  if (pos.action == 0) {
    pos.action = 1;
    pos.acted = static_cast<uint8_t>(id);
    pos.door_action_done = door;
    return;
  }
  pos.door_action_done = pos.door_action_done || door;
  end_turn(pos, false, events);
}

void begin_play(Position& pos, EventLog* events) {
  pos.phase = Phase::play;
  pos.to_move = 0;
  pos.ply = 0;
  if (events) events->push_back(event(json{{"type", "start"}}));
  Losses losses;
  read_board(pos, kNoSquare, kNoPiece, losses);
  if (remove_losses(pos, losses, events)) return;
  update_rings(pos, events);
}

void end_by_score(Position& pos, EndReason why, EventLog* events) {
  int best = std::numeric_limits<int>::min();
  for (int p = 0; p < pos.players; ++p) best = std::max(best, pos.scores[static_cast<size_t>(p)]);
  uint8_t winners = 0;
  int n = 0;
  for (int p = 0; p < pos.players; ++p)
    if (pos.scores[static_cast<size_t>(p)] == best) {
      winners |= static_cast<uint8_t>(1u << p);
      ++n;
    }
  if (n == pos.players) winners = 0;  // everyone has it: a draw
  // The turn has already moved on: to_move and ply stay on the next turn (rulings.md).
  finish(pos, why, winners, events);
}

Result result_of(const Position& pos) {
  Result r;
  for (int p = 0; p < pos.players; ++p)
    if ((pos.winners >> p) & 1) r.winners.push_back(p);
  switch (pos.end) {
    case EndReason::icon_destroyed: r.reason = "icon-destroyed"; break;
    case EndReason::all_icons_destroyed: r.reason = "all-icons-destroyed"; break;
    case EndReason::blocked_cycle: r.reason = "blocked-cycle"; break;
    case EndReason::stalemate: r.reason = "stalemate"; break;
    case EndReason::scored_stalemate: r.reason = "scored-stalemate"; break;
    case EndReason::ply_limit: r.reason = "ply-limit"; break;
    default: break;
  }
  return r;
}

}  // namespace rules

}  // namespace tabula::truth
