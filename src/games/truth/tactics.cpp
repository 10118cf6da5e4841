// Cheap static tests for the AI (tactics.h).
#include "games/truth/tactics.h"

#include "games/truth/moves.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace tabula::truth::tactics {

namespace {

bool hostile(const Position& pos, int id, int owner) { return pos.piece(id).owner != owner; }

// Whether `y` (an enemy of the mover) would be enclosed once the mover stands on `to` (having left `from`).
bool encloses(const Position& pos, int y, int mover, int from, int to) {
  const Piece& py = pos.piece(y);
  const bool door = pos.door_role(y), lantern = pos.lantern_role(y);
  if (!(door && pos.lantern_role(mover)) && !(lantern && pos.door_role(mover))) return false;
  for (int d = 0; d < kDiagonals; ++d) {
    const int sq = diagonal(py.square, d);
    if (sq == kNoSquare) return false;  // a piece on the edge cannot be enclosed
    if (sq == to) continue;             // the mover: hostile, of the needed role
    if (sq == from) return false;       // left empty by the move
    const uint8_t z = pos.board[static_cast<size_t>(sq)];
    if (z == kNoPiece || !hostile(pos, z, py.owner)) return false;
    if (door ? !pos.lantern_role(z) : !pos.door_role(z)) return false;
  }
  return true;
}

}  // namespace

int lanterns_reaching(const Position& pos, int sq, uint8_t attackers, uint8_t skip, uint8_t& first) {
  first = kNoPiece;
  int n = 0;
  for (int d = 0; d < kDiagonals; ++d)
    for (int k = 1; k <= kRay; ++k) {
      const int s = step(sq, d, k);
      if (s == kNoSquare) break;
      const uint8_t y = pos.board[static_cast<size_t>(s)];
      if (y == kNoPiece) continue;
      if (pos.obstructs_slide(y)) break;
      if (y != skip && ((attackers >> pos.piece(y).owner) & 1) && pos.lantern_role(y)) {
        if (first == kNoPiece) first = y;
        ++n;
      }
    }
  return n;
}

uint8_t burnable_icons(const Position& pos) {
  if (pos.phase != Phase::play) return 0;
  const int me = pos.to_move;
  // A lantern is no door: as the second action it may move only once the door action is made.
  if (pos.action == 1 && !pos.door_action_done) return 0;
  if (pos.count[me][kLantern] == 0 && !(pos.is_transformed(me) && pos.count[me][kGuardian] > 0)) return 0;
  const uint8_t mine = static_cast<uint8_t>(1u << me);
  uint8_t out = 0;
  for (int q = 0; q < pos.players; ++q) {
    if (q == me) continue;
    const int icon = pos.icon_square(q);
    if (icon == kNoSquare) continue;
    const uint8_t bit = static_cast<uint8_t>(1u << q);
    for (int d = 0; d < kDiagonals && !(out & bit); ++d) {
      const int sq = diagonal(icon, d);
      if (sq == kNoSquare || pos.board[static_cast<size_t>(sq)] != kNoPiece) continue;
      uint8_t first;
      const uint8_t skip = pos.action == 1 ? pos.acted : kNoPiece;
      if (lanterns_reaching(pos, sq, mine, skip, first) == 0) continue;
      if (!pos.lantern_guardian(first)) {
        out |= bit;
        continue;
      }
      // A lantern-guardian landing beside a defender (of any army but the mover's) is intercepted there:
      // look for an ordinary lantern or a square no defender touches.
      bool defended = false;
      for (int e = 0; e < kDiagonals && !defended; ++e) {
        const int t = diagonal(sq, e);
        if (t == kNoSquare) continue;
        const uint8_t z = pos.board[static_cast<size_t>(t)];
        defended = z != kNoPiece && pos.piece(z).owner != me && pos.defender(z);
      }
      if (!defended) {
        out |= bit;
        continue;
      }
      for (int e = 0; e < kDiagonals && !(out & bit); ++e)
        for (int k = 1; k <= kRay; ++k) {
          const int s = step(sq, e, k);
          if (s == kNoSquare) break;
          const uint8_t y = pos.board[static_cast<size_t>(s)];
          if (y == kNoPiece) continue;
          if (pos.obstructs_slide(y)) break;
          if (y != skip && pos.piece(y).owner == me && pos.piece(y).kind == kLantern) {
            out |= bit;
            break;
          }
        }
    }
  }
  return out;
}

uint8_t burnable_in_two(const Position& pos) {
  if (pos.phase != Phase::play || pos.action != 0) return 0;
  const int me = pos.to_move;
  if (pos.count[static_cast<size_t>(me)][kLantern] == 0 || pos.count[static_cast<size_t>(me)][kDoor] == 0) return 0;
  uint8_t out = 0;
  for (int q = 0; q < pos.players; ++q) {
    if (q == me) continue;
    const int icon = pos.icon_square(q);
    if (icon == kNoSquare) continue;
    for (int d = 0; d < kDiagonals && !((out >> q) & 1); ++d) {
      const int sq = diagonal(icon, d);
      if (sq == kNoSquare || pos.board[static_cast<size_t>(sq)] != kNoPiece) continue;
      // Out from the square beside the icon along each diagonal: the first obstruction must be one of the
      // mover's doors with a step off that diagonal, and behind it (other pieces are crossed) its lantern.
      for (int e = 0; e < kDiagonals && !((out >> q) & 1); ++e) {
        uint8_t door = kNoPiece;
        for (int k = 1; k <= kRay; ++k) {
          const int s2 = step(sq, e, k);
          if (s2 == kNoSquare) break;
          const uint8_t y = pos.board[static_cast<size_t>(s2)];
          if (y == kNoPiece) continue;
          const Piece& py = pos.piece(y);
          if (door == kNoPiece) {
            if (!pos.obstructs_slide(y)) {
              if (py.owner == me && py.kind == kLantern) break;  // a burn in one action: burnable_icons
              continue;
            }
            if (py.owner != me || py.kind != kDoor) break;
            bool steps_off = false;
            for (int f = 0; f < kDiagonals && !steps_off; ++f) {
              if (f == e || f == kDiagonals - 1 - e) continue;  // along the line: still on it
              const int t = diagonal(s2, f);
              steps_off = t != kNoSquare && pos.board[static_cast<size_t>(t)] == kNoPiece && is_open(pos.players, t);
            }
            if (!steps_off) break;
            door = y;
            continue;
          }
          if (pos.obstructs_slide(y)) break;
          if (py.owner == me && py.kind == kLantern) {
            out = static_cast<uint8_t>(out | (1u << q));
            break;
          }
        }
      }
    }
  }
  return out;
}

namespace {

// Calls f(square) for each lattice point a sentry's leap from `from` to `to` crosses (strictly between them on
// the segment, as rules.cpp's lattice_points), until f returns true; returns whether it did.
template <class F>
bool for_each_crossed(int from, int to, F&& f) {
  const int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
  const int g = std::gcd(df < 0 ? -df : df, dr < 0 ? -dr : dr);
  for (int k = 1; k < g; ++k)
    if (f(square_of(file_of(from) + k * df / g, rank_of(from) + k * dr / g))) return true;
  return false;
}

// The enemy pieces the action (legal here, not a pass) takes by the cheap tests of takes_piece, each passed to
// `found(victim id)` until it returns true. The icon burnt by a lantern is a victim like the others. Returns
// whether some call returned true.
template <class Found>
bool scan_takes(const Position& pos, Move m, Found&& found) {
  const int from = TruthMove::from(m), to = TruthMove::to(m);
  const uint8_t id = pos.board[static_cast<size_t>(from)];
  if (id == kNoPiece) return false;
  const Piece& pc = pos.piece(id);
  const int me = pc.owner;
  // Jumps.
  if (pc.kind == kLinesman) {
    const int df = (file_of(to) - file_of(from)) / 2, dr = (rank_of(to) - rank_of(from)) / 2;
    const uint8_t mid = pos.board[static_cast<size_t>(square_of(file_of(from) + df, rank_of(from) + dr))];
    if (mid != kNoPiece && hostile(pos, mid, me) && pos.lantern_role(mid) && found(mid)) return true;
  } else if (pc.kind == kSentry) {
    if (for_each_crossed(from, to, [&](int sq) {
          const uint8_t j = pos.board[static_cast<size_t>(sq)];
          return j != kNoPiece && hostile(pos, j, me) && pos.piece(j).kind != kIcon && found(j);
        }))
      return true;
  }
  // Contacts and enclosures at the destination.
  const bool guardian = pc.kind == kGuardian;
  const bool lantern = pos.lantern_role(id);
  const bool lantern_guardian = pos.lantern_guardian(id);
  const int own_icon = pos.icon_square(me);
  const bool defender_there = guardian && !lantern_guardian && own_icon != kNoSquare && diagonally_adjacent(own_icon, to);
  for (int d = 0; d < kDiagonals; ++d) {
    const int sq = diagonal(to, d);
    if (sq == kNoSquare) continue;
    const uint8_t y = pos.board[static_cast<size_t>(sq)];
    if (y == kNoPiece || y == id || !hostile(pos, y, me)) continue;
    const Piece& py = pos.piece(y);
    const bool taken = (guardian && py.kind <= kSentry) ||
                       (pc.kind == kIcon && py.kind == kGuardian && !pos.is_transformed(py.owner)) ||
                       (lantern && py.kind == kIcon) || (lantern_guardian && pos.defender(y)) ||
                       (defender_there && pos.lantern_guardian(y)) || encloses(pos, y, id, from, to);
    if (taken && found(y)) return true;
  }
  return false;
}

// What taking a piece is worth for move ordering (score values, as the evaluation counts material): an icon
// burnt ends the game, so it comes before everything.
int victim_value(const Position& pos, int id) {
  constexpr std::array<int, kKinds> kValue = {100, 100, 500, 500, 2'000, 100'000};
  return pos.lantern_guardian(id) ? 4'000 : kValue[pos.piece(id).kind];
}

// The most valuable enemy piece the action takes when played out on a copy: for a loaded state, read whole by
// its next action (once, at the root), where the cheap tests do not apply.
int take_value_when_played(const Position& pos, Move m) {
  Position next = pos;
  rules::play(next, m, nullptr);
  int best = 0;
  for (int id = 0; id < pos.players * kArmySize; ++id)
    if (pos.piece(id).owner != pos.to_move && pos.piece(id).alive() && !next.piece(id).alive())
      best = std::max(best, victim_value(pos, id));
  return best;
}

}  // namespace

bool takes_piece(const Position& pos, Move m) {
  if (TruthMove::is_pass(m)) return false;
  if (pos.unread) return take_value_when_played(pos, m) > 0;
  return scan_takes(pos, m, [](int) { return true; });
}

int take_value(const Position& pos, Move m) {
  if (TruthMove::is_pass(m)) return 0;
  if (pos.unread) return take_value_when_played(pos, m);
  int best = 0;
  scan_takes(pos, m, [&](int victim) {
    best = std::max(best, victim_value(pos, victim));
    return false;
  });
  return best;
}

namespace {

// The enemy pieces (but icons) a leap of `owner`'s sentries could cross: a crossed piece lies between the
// sentry and a square within its icon's range, so inside the box spanning the range and the sentries' squares.
// Read from the enemy pieces rather than the sentries' destinations, which was half of a Truth search's time.
struct Targets {
  std::array<uint8_t, kMaxPieces> ids{};
  int n = 0;
};

Targets sentry_targets(const Position& pos, int owner, int icon) {
  int f_lo = file_of(icon) - 5, f_hi = file_of(icon) + 5, r_lo = rank_of(icon) - 5, r_hi = rank_of(icon) + 5;
  for (int id = owner * kArmySize; id < (owner + 1) * kArmySize; ++id) {
    const Piece& pc = pos.piece(id);
    if (!pc.alive() || pc.kind != kSentry) continue;
    f_lo = std::min(f_lo, file_of(pc.square)), f_hi = std::max(f_hi, file_of(pc.square));
    r_lo = std::min(r_lo, rank_of(pc.square)), r_hi = std::max(r_hi, rank_of(pc.square));
  }
  Targets t;
  for (int y = 0; y < pos.players * kArmySize; ++y) {
    const Piece& py = pos.piece(y);
    if (!py.alive() || py.owner == owner || py.kind == kIcon) continue;
    const int f = file_of(py.square), r = rank_of(py.square);
    if (f >= f_lo && f <= f_hi && r >= r_lo && r <= r_hi) t.ids[static_cast<size_t>(t.n++)] = static_cast<uint8_t>(y);
  }
  return t;
}

// sentry_take over the targets: for each, the landing squares beyond it on the ray from the sentry through it,
// with every enemy piece crossed on the way.
int sentry_take_of(const Position& pos, int id, int icon, const Targets& targets) {
  const Piece& pc = pos.piece(id);
  const int me = pc.owner;
  const int ff = file_of(pc.square), fr = rank_of(pc.square);
  const int own_value = victim_value(pos, id);
  int best = 0;
  for (int t = 0; t < targets.n; ++t) {
    const int target = pos.piece(targets.ids[static_cast<size_t>(t)]).square;
    const int df = file_of(target) - ff, dr = rank_of(target) - fr;
    const int g = std::gcd(df < 0 ? -df : df, dr < 0 ? -dr : dr);
    const int uf = df / g, ur = dr / g;  // the ray's step between lattice points
    int gain = 0;
    for (int k = 1;; ++k) {
      const int tf = ff + k * uf, tr = fr + k * ur;
      if (!on_board(tf, tr)) break;
      const int to = square_of(tf, tr);
      const uint8_t occ = pos.board[static_cast<size_t>(to)];
      if (k > g && gain > 0 && occ == kNoPiece && is_open(pos.players, to) && rules::in_sentry_range(icon, to)) {
        int net = gain;
        // An enemy guardian touching the landing square kills the sentry: jumped, by the leap's rule, or
        // not, by contact.
        for (int d = 0; d < kDiagonals; ++d) {
          const int sq = diagonal(to, d);
          const uint8_t z = sq == kNoSquare ? kNoPiece : pos.board[static_cast<size_t>(sq)];
          if (z != kNoPiece && hostile(pos, z, me) && pos.piece(z).kind == kGuardian) {
            net -= own_value;
            break;
          }
        }
        best = std::max(best, net);
      }
      if (occ != kNoPiece && hostile(pos, occ, me) && pos.piece(occ).kind != kIcon) gain += victim_value(pos, occ);
    }
  }
  return best;
}

}  // namespace

int sentry_take(const Position& pos, int id) {
  const int icon = pos.icon_square(pos.piece(id).owner);
  if (icon == kNoSquare) return 0;
  return sentry_take_of(pos, id, icon, sentry_targets(pos, pos.piece(id).owner, icon));
}

int best_sentry_take(const Position& pos, int owner) {
  if (pos.count[static_cast<size_t>(owner)][kSentry] == 0) return 0;
  const int icon = pos.icon_square(owner);
  if (icon == kNoSquare) return 0;
  const Targets targets = sentry_targets(pos, owner, icon);
  if (targets.n == 0) return 0;
  int best = 0;
  for (int id = owner * kArmySize; id < (owner + 1) * kArmySize; ++id)
    if (pos.piece(id).alive() && pos.piece(id).kind == kSentry) best = std::max(best, sentry_take_of(pos, id, icon, targets));
  return best;
}

}  // namespace tabula::truth::tactics
