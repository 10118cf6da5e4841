// Retrograde analysis of Tigadi's moving phase (endgame.h).
//
// A table T(s, o) holds the positions where the side to move has s gotis and the other o, one byte each:
// 0 a draw (or not yet known while solving), an odd n a win in n plies, an even n a loss in n plies, 255 an
// entry no class of positions uses (see index). A move that closes no line stays within the pair T(s, o),
// T(o, s); a capture leads to T(o - 1, s), solved before, or ends the game when o is 3.
//
// Solving a pair goes by passes d = 1, 2, 3...: every entry whose value is d is final by then (no shorter
// value can reach it any more), and its predecessors (the positions one unmove away: the other side slid a
// goti back, or passed when it had no slide) are updated: a predecessor of a loss in d is a win in d + 1
// unless it already wins sooner; a predecessor of a win has one class fewer among its unresolved children.
// That count (the usual retrograde counter) starts as the number of distinct classes its moves within the pair
// lead to, and is taken down once per (predecessor class, child class): the unmoves of one child can reach a
// class twice, and two moves of one position can reach one class, both only through a symmetry, so each side
// counts classes, not moves (counting moves would not balance: from a position a mirror fixes, two mirrored
// slides reach one child class, whose representative has a single unmove back). At zero every move leads to a
// final win of the other side: a loss, one ply longer than its longest child (the position is then checked
// whole, once, for that length). Wins through a capture
// into a smaller table are known at the start and wait for their pass. What no pass reaches is a draw: neither
// side can force the end, and endless play is drawn by repetition (docs/rulings.md T7).
//
// This gives the same bytes as the solver before it, which checked a predecessor whole each time one of its
// children turned out a win (4 v 5 took 410 s, 5 v 5 did not finish in 8 minutes; now 10 s and 17 s).
#include "games/tigadi/endgame.h"

#include "core/error.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <istream>
#include <mutex>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace tabula::tigadi {

namespace {

int lowest(Mask m) { return __builtin_ctz(m); }

struct Binomials {
  uint64_t c[kPoints + 1][kPoints + 1] = {};
  constexpr Binomials() {
    for (int n = 0; n <= kPoints; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
    }
  }
};
constexpr Binomials kBinom;
uint64_t binom(int n, int k) { return k < 0 || k > n ? 0 : kBinom.c[n][k]; }

// The index's arithmetic goes a byte at a time through tables (the solver computes an index for every move and
// unmove of every position, and the bit loops were half its time): a byte's point count, its share of a rank,
// and its points squeezed together.
struct ByteTables {
  uint8_t count[256] = {};
  // rank_share[k][v][before]: what the points of byte k (value v) add to a colex rank when `before` points of
  // the set lie below the byte. The sets ranked hold at most kMaxTableGotis points.
  uint64_t rank_share[3][256][kMaxTableGotis + 1] = {};
  // squeeze[keep][v]: the bits of v at the points of `keep`, packed low (a byte's parallel bit extract).
  uint8_t squeeze[256][256] = {};
  constexpr ByteTables() {
    for (int v = 0; v < 256; ++v) {
      for (int j = 0; j < 8; ++j) count[v] += (v >> j) & 1;
      for (int k = 0; k < 3; ++k)
        for (int before = 0; before <= kMaxTableGotis; ++before) {
          uint64_t r = 0;
          int i = before;
          for (int j = 0; j < 8; ++j)
            if (v & (1 << j)) r += kBinom.c[8 * k + j][++i];
          rank_share[k][v][before] = r;
        }
    }
    for (int keep = 0; keep < 256; ++keep)
      for (int v = 0; v < 256; ++v) {
        int out = 0, at = 0;
        for (int j = 0; j < 8; ++j)
          if (keep & (1 << j)) out |= ((v >> j) & 1) << at++;
        squeeze[keep][v] = static_cast<uint8_t>(out);
      }
  }
};
constexpr ByteTables kBytes;

// The rank of a set of points (at most kMaxTableGotis of them) among the sets of its size, in colexicographic
// order (= numeric order): the sum over its i-th lowest point p of binom(p, i).
uint64_t rank_of(Mask m) {
  const unsigned b0 = m & 255, b1 = (m >> 8) & 255, b2 = (m >> 16) & 255;
  const unsigned below1 = kBytes.count[b0], below2 = below1 + kBytes.count[b1];
  return kBytes.rank_share[0][b0][0] + kBytes.rank_share[1][b1][below1] + kBytes.rank_share[2][b2][below2];
}
Mask unrank(uint64_t r, int k) {
  Mask m = 0;
  int p = kPoints - 1;
  for (int i = k; i >= 1; --i) {
    while (binom(p, i) > r) --p;
    r -= binom(p, i);
    m |= bit(p);
    --p;
  }
  return m;
}
// `e` with the points of `o` (disjoint from it) squeezed out, and back.
Mask compress(Mask e, Mask o) {
  const Mask keep = ~o & kAllPoints;
  const unsigned k0 = keep & 255, k1 = (keep >> 8) & 255, k2 = keep >> 16;
  const unsigned at1 = kBytes.count[k0], at2 = at1 + kBytes.count[k1];
  return Mask{kBytes.squeeze[k0][e & 255]} | Mask{kBytes.squeeze[k1][(e >> 8) & 255]} << at1 |
         Mask{kBytes.squeeze[k2][(e >> 16) & 255]} << at2;
}
Mask expand(Mask x, Mask o) {
  for (Mask rest = o; rest; rest &= rest - 1) {
    const Mask b = rest & -rest;
    x = (x & (b - 1)) | ((x & ~(b - 1)) << 1);
  }
  return x;
}

std::array<std::array<uint8_t, kPoints>, kSymmetries> make_maps() {
  std::array<std::array<uint8_t, kPoints>, kSymmetries> maps{};
  for (int g = 0; g < kSymmetries; ++g) {
    const int turns = g & 3, mirror = (g >> 2) & 1, swap = (g >> 3) & 1;
    for (int p = 0; p < kPoints; ++p) {
      int ring = p / 8, i = p % 8;
      if (mirror) i = (8 - i) % 8;
      i = (i + 2 * turns) % 8;
      if (swap) ring = 2 - ring;
      maps[static_cast<size_t>(g)][static_cast<size_t>(p)] = static_cast<uint8_t>(ring * 8 + i);
    }
  }
  return maps;
}

struct ByteMaps {
  Mask t[kSymmetries][3][256];
};
const ByteMaps& byte_maps() {
  static const ByteMaps maps = [] {
    ByteMaps b{};
    const auto& m = symmetry_maps();
    for (int g = 0; g < kSymmetries; ++g)
      for (int k = 0; k < 3; ++k)
        for (int v = 0; v < 256; ++v) {
          Mask out = 0;
          for (int j = 0; j < 8; ++j)
            if (v & (1 << j)) out |= bit(m[static_cast<size_t>(g)][static_cast<size_t>(8 * k + j)]);
          b.t[g][k][v] = out;
        }
    return b;
  }();
  return maps;
}

// For the side to move's gotis of one count: each set's class (its representative is the least image under
// the 16 symmetries) and the symmetries that map the set onto its representative.
struct OwnIndex {
  std::vector<uint32_t> cls;     // by rank_of(set)
  std::vector<uint16_t> to_rep;  // by rank_of(set): bit g when transform(g, set) is the representative
  std::vector<Mask> reps;        // by class
};
const OwnIndex& own_index(int s) {
  static std::once_flag once[kMaxTableGotis + 1];
  static OwnIndex idx[kMaxTableGotis + 1];
  std::call_once(once[s], [s] {
    OwnIndex& x = idx[s];
    const size_t n = binom(kPoints, s);
    x.cls.resize(n);
    x.to_rep.resize(n);
    Mask m = (Mask{1} << s) - 1;
    for (size_t r = 0; r < n; ++r) {
      Mask least = m;
      for (int g = 1; g < kSymmetries; ++g) least = std::min(least, transform(g, m));
      uint16_t gs = 0;
      for (int g = 0; g < kSymmetries; ++g)
        if (transform(g, m) == least) gs |= static_cast<uint16_t>(1u << g);
      x.to_rep[r] = gs;
      if (least == m) {
        x.cls[r] = static_cast<uint32_t>(x.reps.size());
        x.reps.push_back(m);
      } else {
        x.cls[r] = x.cls[rank_of(least)];  // the representative is smaller, so already met
      }
      // The next set of the same size in numeric order (Gosper).
      const Mask c = m & -m, next = m + c;
      m = (((next ^ m) >> 2) / c) | next;
    }
  });
  return idx[s];
}

// The class's entry (EndgameTables::index), given the index of the own gotis' count and the entries a class
// has (`per`): the own gotis go to their representative; of the symmetries that do so (more than one when the
// representative is symmetric), the one giving the enemy gotis the least rank decides, so every position of a
// class reaches the same entry and the others stay unused.
size_t class_index(const OwnIndex& x, uint64_t per, Mask own, Mask enemy) {
  const uint64_t r = rank_of(own);
  const uint32_t c = x.cls[r];
  const Mask rep = x.reps[c];
  uint64_t best = UINT64_MAX;
  for (uint32_t gs = x.to_rep[r]; gs; gs &= gs - 1)
    best = std::min(best, rank_of(compress(transform(__builtin_ctz(gs), enemy), rep)));
  return c * per + best;
}

constexpr uint8_t kUnused = 255;
constexpr int kMaxValue = 253;
// The most slides a side has: every goti of the most a table holds, on a point with four neighbours.
constexpr int kMaxMoves = 4 * kMaxTableGotis;
// An unresolved count that never reaches zero (Solver::unresolved); above any count, which is at most kMaxMoves.
constexpr uint8_t kCannotLose = 255;
static_assert(kMaxMoves < kCannotLose);

std::atomic<const EndgameTables*> g_tables{nullptr};
std::shared_ptr<const EndgameTables> g_tables_owner;
std::mutex g_tables_mutex;

}  // namespace

const std::array<std::array<uint8_t, kPoints>, kSymmetries>& symmetry_maps() {
  static const auto maps = make_maps();
  return maps;
}

Mask transform(int g, Mask m) {
  const ByteMaps& b = byte_maps();
  return b.t[g][0][m & 255] | b.t[g][1][(m >> 8) & 255] | b.t[g][2][(m >> 16) & 255];
}

size_t EndgameTables::table_size(int s, int o) const {
  return own_index(s).reps.size() * binom(kPoints - s, o);
}

size_t EndgameTables::index(Mask own, Mask enemy) const {
  const int s = __builtin_popcount(own);
  return class_index(own_index(s), binom(kPoints - s, __builtin_popcount(enemy)), own, enemy);
}

std::optional<EndgameTables::Value> EndgameTables::probe(Mask own, Mask enemy) const {
  const int s = __builtin_popcount(own), o = __builtin_popcount(enemy);
  if (s < kMinTableGotis || o < kMinTableGotis || s > max_ || o > max_) return std::nullopt;
  const uint8_t v = data_[static_cast<size_t>(s)][static_cast<size_t>(o)][index(own, enemy)];
  if (v == 0) return Value{0, 0};
  return Value{v % 2 ? +1 : -1, v};
}

size_t EndgameTables::entries() const {
  size_t n = 0;
  for (const auto& row : data_)
    for (const auto& t : row) n += t.size();
  return n;
}

int EndgameTables::longest_win() const {
  int longest = 0;
  for (const auto& row : data_)
    for (const auto& t : row)
      for (uint8_t v : t)
        if (v != kUnused && v % 2 == 1) longest = std::max(longest, static_cast<int>(v));
  return longest;
}

struct EndgameTables::Solver {
  EndgameTables& t;
  // The own-set index of each count, looked up once: the hot loops pass the counts they know rather than count
  // bits (a library call on the baseline x86-64 this builds for) and pass call_once.
  std::array<const OwnIndex*, kMaxTableGotis + 1> owns{};
  // For the pair being solved, per entry of each table: how many of the classes its moves within the pair lead
  // to (quiet slides, or the pass) are not yet known to be a win for the side to move there; kCannotLose when a
  // capture into a drawn smaller table keeps the position from ever losing.
  std::array<std::vector<uint8_t>, 2> unresolved;

  Solver(EndgameTables& tables, int max_gotis) : t(tables) {
    for (int s = kMinTableGotis; s <= max_gotis; ++s) owns[static_cast<size_t>(s)] = &own_index(s);
  }

  // The entry of a position whose side to move has s gotis and the other o.
  size_t index(int s, int o, Mask own, Mask enemy) const {
    return class_index(*owns[static_cast<size_t>(s)], binom(kPoints - s, o), own, enemy);
  }
  uint8_t& at(int s, int o, Mask own, Mask enemy) {
    return t.data_[static_cast<size_t>(s)][static_cast<size_t>(o)][index(s, o, own, enemy)];
  }

  // Whether a symmetry other than the identity maps the set (of s gotis) onto itself: then two different boards
  // can share a class while this set stays put.
  bool symmetric(int s, Mask set) const {
    const uint16_t gs = owns[static_cast<size_t>(s)]->to_rep[rank_of(set)];
    return (gs & (gs - 1)) != 0;
  }

  struct Start {
    uint8_t value = 0;       // as `initial` was: known at the start, or 0
    uint8_t unresolved = 0;  // the count above, when value is 0
  };

  // The value a position starts with: a win in 1 when it closes a line against three gotis; a win through a
  // capture into a smaller table (to be confirmed at its pass, or bettered); a loss when every move is a
  // capture into a smaller table that loses; else unknown (0), with the number of distinct classes its quiet
  // slides (or its pass) lead to.
  Start start(int s, int o, Mask own, Mask enemy) {
    const Mask empty = kAllPoints & ~(own | enemy);
    const Mask capturable = capturable_points(enemy);
    int best_win = 0, longest_loss = 0, quiet = 0;
    bool moved = false, drawn = false;
    for (Mask f = own; f; f &= f - 1) {
      const int from = lowest(f);
      for (Mask e = kGeometry.neighbours[static_cast<size_t>(from)] & empty; e; e &= e - 1) {
        moved = true;
        const int to = lowest(e);
        const Mask after = own ^ bit(from) ^ bit(to);
        if (!completes_line(after, to)) {
          ++quiet;
          continue;
        }
        if (o == kMinTableGotis) return {1, 0};
        for (Mask c = capturable; c; c &= c - 1) {
          const uint8_t v = at(o - 1, s, enemy & ~(c & -c), after);
          if (v == 0) drawn = true;
          else if (v % 2 == 0) best_win = best_win ? std::min(best_win, v + 1) : v + 1;
          else longest_loss = std::max(longest_loss, static_cast<int>(v));
        }
      }
    }
    if (best_win) return {static_cast<uint8_t>(best_win), 0};
    if (!moved) return {0, 1};  // its one move is the pass, which stays in the pair
    if (drawn) return {0, kCannotLose};
    if (quiet == 0) return {static_cast<uint8_t>(longest_loss + 1), 0};
    // Two different slides reach one class only through a symmetry that fixes the side moving there (`enemy`)
    // and carries one result onto the other; without one, every slide is a class of its own.
    if (!symmetric(o, enemy)) return {0, static_cast<uint8_t>(quiet)};
    std::array<size_t, kMaxMoves> classes;
    int distinct = 0;
    for (Mask f = own; f; f &= f - 1) {
      const int from = lowest(f);
      for (Mask e = kGeometry.neighbours[static_cast<size_t>(from)] & empty; e; e &= e - 1) {
        const int to = lowest(e);
        const Mask after = own ^ bit(from) ^ bit(to);
        if (completes_line(after, to)) continue;
        const size_t child = index(o, s, enemy, after);
        if (std::find(classes.begin(), classes.begin() + distinct, child) == classes.begin() + distinct)
          classes[static_cast<size_t>(distinct++)] = child;
      }
    }
    return {0, static_cast<uint8_t>(distinct)};
  }

  // Whether every move of this position leads to a final win of the other side (final: d or less within the
  // pair, anything in a smaller table); then its loss, one ply longer than the longest; else 0. Called once a
  // position's count of unresolved classes reaches zero, for its value (and as a check of the count).
  uint8_t loss_if_lost(int s, int o, Mask own, Mask enemy, int d) {
    const Mask empty = kAllPoints & ~(own | enemy);
    const Mask capturable = capturable_points(enemy);
    int longest = 0;
    bool moved = false;
    for (Mask f = own; f; f &= f - 1) {
      const int from = lowest(f);
      for (Mask e = kGeometry.neighbours[static_cast<size_t>(from)] & empty; e; e &= e - 1) {
        moved = true;
        const int to = lowest(e);
        const Mask after = own ^ bit(from) ^ bit(to);
        if (completes_line(after, to)) {
          if (o == kMinTableGotis) return 0;
          for (Mask c = capturable; c; c &= c - 1) {
            const uint8_t v = at(o - 1, s, enemy & ~(c & -c), after);
            if (v % 2 == 0) return 0;
            longest = std::max(longest, static_cast<int>(v));
          }
        } else {
          const uint8_t v = at(o, s, enemy, after);
          if (v % 2 == 0 || v > d) return 0;
          longest = std::max(longest, static_cast<int>(v));
        }
      }
    }
    if (!moved) {
      const uint8_t v = at(o, s, enemy, own);
      if (v % 2 == 0 || v > d) return 0;
      longest = v;
    }
    return static_cast<uint8_t>(longest + 1);
  }

  // Solves T(a, b) and T(b, a) together.
  void solve_pair(int a, int b) {
    const int sides[2][2] = {{a, b}, {b, a}};
    const int tables = a == b ? 1 : 2;
    int highest = 0;
    auto note = [&](int v) {
      if (v > kMaxValue) throw std::length_error("Tigadi endgame: a distance beyond the format's 253 plies");
      highest = std::max(highest, v);
    };
    for (int k = 0; k < tables; ++k) {
      const int s = sides[k][0], o = sides[k][1];
      auto& data = t.data_[static_cast<size_t>(s)][static_cast<size_t>(o)];
      data.assign(t.table_size(s, o), kUnused);
      unresolved[static_cast<size_t>(k)].assign(data.size(), 0);
    }
    for (int k = 0; k < tables; ++k) {
      const int s = sides[k][0], o = sides[k][1];
      auto& data = t.data_[static_cast<size_t>(s)][static_cast<size_t>(o)];
      auto& count = unresolved[static_cast<size_t>(k)];
      const OwnIndex& x = own_index(s);
      const uint64_t per = binom(kPoints - s, o);
      for (size_t c = 0; c < x.reps.size(); ++c) {
        const Mask rep = x.reps[c];
        const bool rep_symmetric = symmetric(s, rep);
        Mask m = (Mask{1} << o) - 1;
        for (uint64_t r = 0; r < per; ++r) {
          const Mask enemy = expand(m, rep);
          const size_t i = c * per + r;
          // Only a symmetric representative leaves entries unused (its class's other enemy sets rank lower).
          if (!rep_symmetric || index(s, o, rep, enemy) == i) {
            const Start st = start(s, o, rep, enemy);
            data[i] = st.value;
            count[i] = st.unresolved;
            note(data[i]);
          }
          const Mask low = m & -m, next = m + low;
          m = (((next ^ m) >> 2) / low) | next;
        }
      }
    }
    // A predecessor found by an unmove: its entry in the other table of the pair, and its board (the side that
    // moved there; the other side is the child's side to move).
    struct Predecessor {
      size_t index;
      Mask mover;
    };
    std::array<Predecessor, kMaxMoves + 1> preds;
    for (int d = 1; d <= highest; ++d) {
      for (int k = 0; k < tables; ++k) {
        const int s = sides[k][0], o = sides[k][1];
        const size_t pk = tables == 2 ? static_cast<size_t>(1 - k) : 0;  // the predecessors' table
        auto& data = t.data_[static_cast<size_t>(s)][static_cast<size_t>(o)];
        auto& pred_data = t.data_[static_cast<size_t>(o)][static_cast<size_t>(s)];
        auto& pred_count = unresolved[pk];
        const OwnIndex& x = own_index(s);
        const uint64_t per = binom(kPoints - s, o);
        const uint8_t* const first = data.data();
        const uint8_t* const last = first + data.size();
        // The entries of value d, found by memchr: most passes touch few of them.
        for (const uint8_t* p = first;
             (p = static_cast<const uint8_t*>(std::memchr(p, d, static_cast<size_t>(last - p)))) != nullptr; ++p) {
          const size_t i = static_cast<size_t>(p - first);
          const Mask own = x.reps[i / per], enemy = expand(unrank(i % per, o), own);
          const Mask empty = kAllPoints & ~(own | enemy);
          // The other side moved last: every goti of it not closing a line where it stands may have come from
          // an empty neighbour; or it passed, having no slide.
          int n = 0;
          bool can_slide = false;
          for (Mask g = enemy; g; g &= g - 1) {
            const int to = lowest(g);
            const Mask from_points = kGeometry.neighbours[static_cast<size_t>(to)] & empty;
            if (from_points) can_slide = true;
            if (completes_line(enemy, to)) continue;
            for (Mask f = from_points; f; f &= f - 1) {
              const Mask mover = enemy ^ bit(to) ^ bit(lowest(f));
              preds[static_cast<size_t>(n++)] = {index(o, s, mover, own), mover};
            }
          }
          if (!can_slide) preds[static_cast<size_t>(n++)] = {index(o, s, enemy, own), enemy};
          if (d % 2 == 0) {
            // A loss here: each predecessor wins in d + 1 unless it already wins sooner.
            for (int j = 0; j < n; ++j) {
              uint8_t& v = pred_data[preds[static_cast<size_t>(j)].index];
              if (v == 0 || (v % 2 == 1 && v != kUnused && v > d + 1)) {
                v = static_cast<uint8_t>(d + 1);
                note(v);
              }
            }
            continue;
          }
          // A win here: one class fewer unresolved for each predecessor class, once however many of its moves
          // lead here. Two unmoves reach one class only through a symmetry fixing `own`, the representative.
          if (symmetric(s, own)) {
            int distinct = 0;
            for (int j = 0; j < n; ++j) {
              bool seen = false;
              for (int q = 0; q < distinct && !seen; ++q)
                seen = preds[static_cast<size_t>(q)].index == preds[static_cast<size_t>(j)].index;
              if (!seen) preds[static_cast<size_t>(distinct++)] = preds[static_cast<size_t>(j)];
            }
            n = distinct;
          }
          for (int j = 0; j < n; ++j) {
            const Predecessor& pr = preds[static_cast<size_t>(j)];
            uint8_t& v = pred_data[pr.index];
            uint8_t& left = pred_count[pr.index];
            if (v != 0 || left == kCannotLose) continue;
            if (left == 0) throw std::logic_error("Tigadi endgame: a position's unresolved count went below zero");
            if (--left > 0) continue;
            v = loss_if_lost(o, s, pr.mover, own, d);
            if (v == 0) throw std::logic_error("Tigadi endgame: every class resolved, yet the position is no loss");
            note(v);
          }
        }
      }
    }
    for (auto& c : unresolved) std::vector<uint8_t>().swap(c);
  }
};

EndgameTables EndgameTables::build(int max_gotis, const std::function<void(const std::string&)>& log) {
  if (max_gotis < kMinTableGotis || max_gotis > kMaxTableGotis)
    fail(ErrorKind::bad_request, "Tigadi endgame tables hold 3 to 7 gotis a side");
  EndgameTables t;
  t.max_ = max_gotis;
  Solver solver(t, max_gotis);
  for (int total = 2 * kMinTableGotis; total <= 2 * max_gotis; ++total)
    for (int a = kMinTableGotis; a <= max_gotis; ++a) {
      const int b = total - a;
      if (b < a || b > max_gotis) continue;
      const auto start = std::chrono::steady_clock::now();
      solver.solve_pair(a, b);
      if (log) {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        size_t n = t.table_size(a, b) + (a == b ? 0 : t.table_size(b, a));
        std::ostringstream line;
        line << a << " v " << b << (a == b ? "" : " and " + std::to_string(b) + " v " + std::to_string(a)) << ": "
             << n << " entries, " << s << " s";
        log(line.str());
      }
    }
  return t;
}

void EndgameTables::write(std::ostream& out) const {
  out << "tabula tigadi endgame 1 " << max_ << "\n";
  for (int s = kMinTableGotis; s <= max_; ++s)
    for (int o = kMinTableGotis; o <= max_; ++o) {
      const auto& d = data_[static_cast<size_t>(s)][static_cast<size_t>(o)];
      out.write(reinterpret_cast<const char*>(d.data()), static_cast<std::streamsize>(d.size()));
    }
}

EndgameTables EndgameTables::read(std::istream& in) {
  std::string magic, game, what;
  int version = 0, max_gotis = 0;
  in >> magic >> game >> what >> version >> max_gotis;
  if (!in || magic != "tabula" || game != "tigadi" || what != "endgame" || version != 1 ||
      max_gotis < kMinTableGotis || max_gotis > kMaxTableGotis || in.get() != '\n')
    fail(ErrorKind::bad_request, "not a Tigadi endgame table file (version 1)");
  EndgameTables t;
  t.max_ = max_gotis;
  for (int s = kMinTableGotis; s <= max_gotis; ++s)
    for (int o = kMinTableGotis; o <= max_gotis; ++o) {
      auto& d = t.data_[static_cast<size_t>(s)][static_cast<size_t>(o)];
      d.resize(t.table_size(s, o));
      in.read(reinterpret_cast<char*>(d.data()), static_cast<std::streamsize>(d.size()));
      if (in.gcount() != static_cast<std::streamsize>(d.size()))
        fail(ErrorKind::bad_request, "Tigadi endgame table file cut short");
    }
  if (in.peek() != std::char_traits<char>::eof()) fail(ErrorKind::bad_request, "Tigadi endgame table file too long");
  return t;
}

void set_endgame_tables(std::shared_ptr<const EndgameTables> tables) {
  std::lock_guard<std::mutex> lock(g_tables_mutex);
  g_tables.store(tables.get(), std::memory_order_release);
  g_tables_owner = std::move(tables);
}

const EndgameTables* endgame_tables() { return g_tables.load(std::memory_order_acquire); }

}  // namespace tabula::tigadi
