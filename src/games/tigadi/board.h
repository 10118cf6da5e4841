// The Tigadi board: 24 points on three nested squares, 20 lines of three (12 square sides, 4 mid spokes,
// 4 corner diagonals) and 40 adjacencies along the drawn lines. Sets of points are 24-bit masks.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace tabula::tigadi {

using Mask = uint32_t;
inline constexpr int kPoints = 24;
inline constexpr int kLines = 20;
inline constexpr Mask kAllPoints = (Mask{1} << kPoints) - 1;

constexpr Mask bit(int point) { return Mask{1} << point; }

// Points are numbered ring by ring, outer (0-7), middle (8-15), inner (16-23), each ring in the order
// a1 d1 g1 g4 g7 d7 a7 a4 of notation.md: even positions are corners, odd ones side midpoints. So
// neighbours on a ring are consecutive numbers, and a spoke joins i, 8+i and 16+i.
struct Geometry {
  std::array<Mask, kLines> lines{};
  std::array<Mask, kPoints> neighbours{};
  std::array<std::array<Mask, 3>, kPoints> lines_through{};  // corners lie on 3 lines, midpoints on 2
  std::array<uint8_t, kPoints> line_count{};
  std::array<uint32_t, kPoints> line_ids{};  // bit l set when lines[l] passes through the point
};

constexpr Geometry make_geometry() {
  Geometry g;
  int n = 0;
  for (int ring = 0; ring < 3; ++ring)
    for (int side = 0; side < 4; ++side) {
      int a = ring * 8 + 2 * side, b = ring * 8 + 2 * side + 1, c = ring * 8 + (2 * side + 2) % 8;
      g.lines[static_cast<size_t>(n++)] = bit(a) | bit(b) | bit(c);
    }
  for (int i = 0; i < 8; ++i) g.lines[static_cast<size_t>(n++)] = bit(i) | bit(8 + i) | bit(16 + i);
  for (int ring = 0; ring < 3; ++ring)
    for (int i = 0; i < 8; ++i) {
      int a = ring * 8 + i, b = ring * 8 + (i + 1) % 8;
      g.neighbours[static_cast<size_t>(a)] |= bit(b);
      g.neighbours[static_cast<size_t>(b)] |= bit(a);
    }
  for (int i = 0; i < 8; ++i)
    for (int ring = 0; ring < 2; ++ring) {
      int a = ring * 8 + i, b = (ring + 1) * 8 + i;
      g.neighbours[static_cast<size_t>(a)] |= bit(b);
      g.neighbours[static_cast<size_t>(b)] |= bit(a);
    }
  for (int l = 0; l < kLines; ++l)
    for (int p = 0; p < kPoints; ++p)
      if (g.lines[static_cast<size_t>(l)] & bit(p)) g.line_ids[static_cast<size_t>(p)] |= uint32_t{1} << l;
  for (int l = 0; l < kLines; ++l)
    for (int p = 0; p < kPoints; ++p)
      if (g.lines[static_cast<size_t>(l)] & bit(p))
        g.lines_through[static_cast<size_t>(p)][g.line_count[static_cast<size_t>(p)]++] =
            g.lines[static_cast<size_t>(l)];
  return g;
}

inline constexpr Geometry kGeometry = make_geometry();

inline constexpr std::array<std::string_view, kPoints> kPointNames = {
    "a1", "d1", "g1", "g4", "g7", "d7", "a7", "a4",  // outer
    "b2", "d2", "f2", "f4", "f6", "d6", "b6", "b4",  // middle
    "c3", "d3", "e3", "e4", "e5", "d5", "c5", "c4",  // inner
};

// The point's index, or -1 when the text names no point.
int parse_point(std::string_view text);
inline std::string_view point_name(int point) { return kPointNames[static_cast<size_t>(point)]; }

// Whether `owner` (a side's mask, after its move to `point`) holds a whole line through `point`.
constexpr bool completes_line(Mask owner, int point) {
  const auto& through = kGeometry.lines_through[static_cast<size_t>(point)];
  for (int i = 0; i < kGeometry.line_count[static_cast<size_t>(point)]; ++i)
    if ((owner & through[static_cast<size_t>(i)]) == through[static_cast<size_t>(i)]) return true;
  return false;
}

// Points of `owner` standing on a line all of `owner`'s: the gotis an enemy tigadi may not take.
constexpr Mask protected_points(Mask owner) {
  Mask p = 0;
  for (Mask line : kGeometry.lines)
    if ((owner & line) == line) p |= line;
  return p;
}

// The gotis of `owner` that may be taken: the unprotected ones, or all of them when every one is
// protected (the protection lapses).
constexpr Mask capturable_points(Mask owner) {
  Mask free = owner & ~protected_points(owner);
  return free ? free : owner;
}

}  // namespace tabula::tigadi
