// The six movements (edition, "Move the six kinds"; rulings.md, "Movement details"): where one piece may
// go, by its kind and role, its blockers and its icon's range. No allocation: a destination is handed to a
// callback, which may stop the walk (the look-ahead only needs to know that one exists).
#pragma once

#include "games/truth/truth.h"

namespace tabula::truth::rules {

// Sentries: in a line from the icon, five coordinate steps; off those lines, four.
inline bool in_sentry_range(int icon_sq, int sq) { return distance(icon_sq, sq) <= (on_line(icon_sq, sq) ? 5 : 4); }
// Guardians: at most four coordinate steps from their icon (five counted squares).
inline bool in_guardian_range(int icon_sq, int sq) { return distance(icon_sq, sq) <= 4; }

// A square a piece may land on: on the board, empty, and open in this game (four players leave some closed).
inline bool empty_open(const Position& pos, int sq) {
  return sq != kNoSquare && pos.board[static_cast<size_t>(sq)] == kNoPiece && is_open(pos.players, sq);
}

// The squares the ordinary guardian `id` reaches when its icon stands on `icon`: one to four squares diagonally
// over any pieces, onto an empty open square within range of the icon. for_each_destination passes the icon's
// square; the AI's evaluation passes a square the icon may step to (its guardian's reach a turn later).
template <class F>
bool for_each_guardian_destination(const Position& pos, int id, int icon, F&& f) {
  const int from = pos.piece(id).square;
  for (int d = 0; d < kDiagonals; ++d)
    for (int k = 1; k <= 4; ++k) {
      const int sq = step(from, d, k);
      if (sq == kNoSquare) break;
      if (empty_open(pos, sq) && in_guardian_range(icon, sq) && f(sq)) return true;
    }
  return false;
}

// Calls f(to) for every destination of piece `id` as the board stands (not the turn's role rules: see
// may_act). Returns true when f stopped the walk by returning true.
template <class F>
bool for_each_destination(const Position& pos, int id, F&& f) {
  const Piece& pc = pos.piece(id);
  const int from = pc.square;
  if (pos.lantern_role(id)) {
    // Lanterns and lantern-guardians: any distance diagonally; doors, icons and door-role pieces stop the
    // slide, other pieces are crossed, and only an empty square is a destination.
    for (int d = 0; d < kDiagonals; ++d)
      for (int k = 1; k <= kRay; ++k) {
        const int sq = step(from, d, k);
        if (sq == kNoSquare) break;
        const uint8_t occ = pos.board[static_cast<size_t>(sq)];
        if (occ == kNoPiece) {
          if (is_open(pos.players, sq) && f(sq)) return true;
        } else if (pos.obstructs_slide(occ)) {
          break;
        }
      }
    return false;
  }
  switch (pc.kind) {
    case kDoor:
      for (int d = 0; d < kDiagonals; ++d) {
        const int sq = diagonal(from, d);
        if (empty_open(pos, sq) && f(sq)) return true;
      }
      return false;
    case kLinesman:
      // Exactly two squares in any of the eight directions, crossing the middle square; any sentry there
      // (own or enemy) blocks the leap.
      for (int d = 0; d < kDirections; ++d) {
        const int to = step(from, d, 2);
        if (to == kNoSquare) continue;
        const uint8_t mid = pos.board[static_cast<size_t>(step(from, d, 1))];
        if (mid != kNoPiece && pos.piece(mid).kind == kSentry) continue;
        if (empty_open(pos, to) && f(to)) return true;
      }
      return false;
    case kSentry: {
      const int icon = pos.icon_square(pc.owner);
      if (icon == kNoSquare) return false;
      const int fi = file_of(icon), ri = rank_of(icon);
      for (int dr = -5; dr <= 5; ++dr)
        for (int df = -5; df <= 5; ++df) {
          const int f2 = fi + df, r2 = ri + dr;
          if (!on_board(f2, r2)) continue;
          const int sq = square_of(f2, r2);
          if (sq == from || !in_sentry_range(icon, sq) || !empty_open(pos, sq)) continue;
          if (f(sq)) return true;
        }
      return false;
    }
    case kGuardian: {
      const int icon = pos.icon_square(pc.owner);
      return icon != kNoSquare && for_each_guardian_destination(pos, id, icon, f);
    }
    case kIcon: {
      // Two squares diagonally from its own territory, one from outside it, over any piece.
      const int len = in_territory(pos.players, pc.owner, from) ? 2 : 1;
      for (int d = 0; d < kDiagonals; ++d) {
        const int sq = step(from, d, len);
        if (empty_open(pos, sq) && f(sq)) return true;
      }
      return false;
    }
    default:
      return false;
  }
}

}  // namespace tabula::truth::rules
