// The move geometry's templates (Facet::for_each_tile_target, Facet::for_each_target), for the files that
// walk a stone's destinations: the rules (facet.cpp), the fog worlds (fog.cpp), the evaluation.
#pragma once

#include "games/facet/facet.h"

namespace tabula::facet {

// The destinations a tile grants the stone on `from`: steps and leaps skip own stones, slides stop before
// an own stone and on an enemy one (sliders are blocked by any stone; the Gate leaps over everything).
template <class F>
inline bool Facet::for_each_tile_target(const Stones& board, int from, int tile, F&& f) const {
  const size_t s = static_cast<size_t>(from);
  const int me = owner_of(board[s]);
  auto visit = [&](int to) -> int {  // 0 empty (go on), 1 enemy (stop after), 2 own (stop before), 3 stopped
    const uint8_t there = board[static_cast<size_t>(to)];
    if (there != kEmpty && owner_of(there) == me) return 2;
    if (f(to, there != kEmpty)) return 3;
    return there != kEmpty ? 1 : 0;
  };
  switch (tile) {
    case kField:
      for (int i = 0; i < kGeometry.king_count[s]; ++i)
        if (visit(kGeometry.king[s][static_cast<size_t>(i)]) == 3) return true;
      return false;
    case kGate:
      for (int i = 0; i < kGeometry.knight_count[s]; ++i)
        if (visit(kGeometry.knight[s][static_cast<size_t>(i)]) == 3) return true;
      return false;
    default: {
      const int first = tile == kSpire ? 4 : 0, last = tile == kTower ? 4 : 8;
      for (int d = first; d < last; ++d) {
        const auto& ray = kGeometry.rays[s][static_cast<size_t>(d)];
        for (int i = 0; i < kGeometry.ray_len[s][static_cast<size_t>(d)]; ++i) {
          const int v = visit(ray[static_cast<size_t>(i)]);
          if (v == 3) return true;
          if (v != 0) break;
        }
      }
      return false;
    }
  }
}

template <class F>
inline bool Facet::for_each_target(const Stones& board, int from, F&& f) const {
  const uint8_t s = board[static_cast<size_t>(from)];
  if (is_monarch(s)) return for_each_tile_target(board, from, kField, f);  // the Monarch ignores terrain
  const int tile = terrain_[static_cast<size_t>(from)];
  const int badge = badge_[static_cast<size_t>(from)];
  if (badge == kField || badge == tile) return for_each_tile_target(board, from, tile, f);
  // Momentum: the union of the tile's move and the badge's, each destination once.
  uint64_t seen[2] = {0, 0};
  auto mark = [&](int to) {
    const uint64_t bit = uint64_t{1} << (to & 63);
    uint64_t& w = seen[to >> 6];
    const bool fresh = (w & bit) == 0;
    w |= bit;
    return fresh;
  };
  if (for_each_tile_target(board, from, tile, [&](int to, bool capture) { return mark(to) && f(to, capture); })) return true;
  return for_each_tile_target(board, from, badge, [&](int to, bool capture) { return mark(to) && f(to, capture); });
}

}  // namespace tabula::facet
