// Setups a player can take instead of placing 40 pieces by hand: a seeded random one and named ones.
//
// The named setups follow the ideas of setups long taught in Stratego play (the old rule booklets' "Corner
// Fortress", "Cyclone Defense", "Shoreline Bluff" and "Blitzkrieg"): they are our arrangements of those
// ideas, not copies of any published diagram. Each is written from its owner's seat: the first row is the
// back rank, files from the owner's left, so Blue's is the same picture turned half a turn.
#include "games/stratego/setups.h"
#include "games/stratego/stratego.h"

#include <algorithm>
#include <utility>

namespace tabula::stratego {

namespace {

struct Named {
  const char* name;
  const char* rows[4];  // back rank first; letters of notation.md
};

constexpr Named kNamed[] = {
    // The Flag in a back corner behind a wall of Bombs and Miners; the strong pieces forward.
    {"corner-fortress", {"FBNTLPNTOO", "BNLOTBPOLN", "POJCSMJBCB", "OLGOBNPJOT"}},
    // The Flag mid-back, Bombs on three sides; Marshal and General in the centre with the Spy close by.
    {"cyclone-defense", {"NTOBFBLOTN", "PLNOBNJOPL", "OJCSBMGBCT", "TOLPJONPOB"}},
    // The bluff: the Flag on the front rank behind the left lake, where nobody looks for it, boxed in by
    // Bombs; the lake guards its front.
    {"shoreline-bluff", {"TNLNJOPNLT", "NOPBTOLBPO", "OJBMCSGBJO", "PTBFBOOLNC"}},
    // Attack: Marshal and General in the front rank with Scouts, the Flag back and bombed in.
    {"blitzkrieg", {"TNBFBLNOPT", "PLOBNJTBOL", "JOSCNLPONO", "MGOCBJTPOB"}},
};

template <class T>
void shuffle(std::vector<T>& v, Rng& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

// Random, but shaped like a player's: the Flag on the back rank with Bombs on each of its free sides;
// the other Bombs anywhere but the front rank; everything else shuffled over the remaining squares.
json random_arrangement(Player p, uint64_t seed) {
  Rng rng(seed);
  std::array<int, 40> kind;  // by row * 10 + column
  kind.fill(-1);
  const int flag_column = static_cast<int>(rng.below(kFiles));
  kind[static_cast<size_t>(flag_column)] = kFlag;
  int bombs = kArmy[kBomb];
  for (int c : {flag_column - 1, flag_column + 1, flag_column + 10})
    if ((c != flag_column - 1 || flag_column > 0) && (c != flag_column + 1 || flag_column < kFiles - 1)) {
      kind[static_cast<size_t>(c)] = kBomb;
      --bombs;
    }
  std::vector<int> free;
  for (int i = 0; i < 30; ++i)
    if (kind[static_cast<size_t>(i)] < 0) free.push_back(i);
  shuffle(free, rng);
  for (int i = 0; i < bombs; ++i) kind[static_cast<size_t>(free[static_cast<size_t>(i)])] = kBomb;
  std::vector<int> rest;
  for (int k = kSpy; k <= kMarshal; ++k)
    for (int n = 0; n < kArmy[static_cast<size_t>(k)]; ++n) rest.push_back(k);
  shuffle(rest, rng);
  size_t next = 0;
  json placement = json::object();
  for (int i = 0; i < 40; ++i) {
    if (kind[static_cast<size_t>(i)] < 0) kind[static_cast<size_t>(i)] = rest[next++];
    placement[square_name(home_square(p, i / 10, i % 10))] = std::string(1, kind_letter(kind[static_cast<size_t>(i)]));
  }
  return placement;
}


// ---------------------------------------------------------------------------------------------------------
// The distribution of strong setups. Each kind is placed in turn on a free square drawn with a weight by
// row (0 = back) and column; the weights say what strong setups share, the draw varies everything else.

bool lane_column(int c) { return c == 0 || c == 1 || c == 4 || c == 5 || c == 8 || c == 9; }
bool lake_column(int c) { return !lane_column(c); }

struct Placer {
  HomeSetup kinds;
  std::array<bool, kHomeSquares> taken{};
  Rng& rng;
  explicit Placer(Rng& r) : rng(r) { kinds.fill(kFlag); }

  void put(int i, int kind) {
    if (i < 0 || i >= kHomeSquares) return;  // draw() always finds a free square while kinds remain
    kinds[static_cast<size_t>(i)] = static_cast<uint8_t>(kind);
    taken[static_cast<size_t>(i)] = true;
  }
  // A free square drawn with weight(row, column); -1 when every free square weighs 0.
  template <class W>
  int draw(W&& weight) {
    std::array<int, kHomeSquares> w{};
    int total = 0;
    for (int i = 0; i < kHomeSquares; ++i)
      if (!taken[static_cast<size_t>(i)]) total += w[static_cast<size_t>(i)] = weight(i / kFiles, i % kFiles);
    if (total <= 0) return -1;
    int pick = static_cast<int>(rng.below(static_cast<uint64_t>(total)));
    for (int i = 0; i < kHomeSquares; ++i)
      if ((pick -= w[static_cast<size_t>(i)]) < 0) return i;
    return -1;
  }
  template <class W>
  void place(int kind, int count, W&& weight) {
    for (int n = 0; n < count; ++n) {
      int i = draw(weight);
      if (i < 0) i = draw([](int, int) { return 1; });
      put(i, kind);
    }
  }
  // Free home squares beside i (left, right, in front, behind).
  std::array<int, 4> beside(int i) const {
    const int r = i / kFiles, c = i % kFiles;
    std::array<int, 4> out{-1, -1, -1, -1};
    if (c > 0) out[0] = i - 1;
    if (c < kFiles - 1) out[1] = i + 1;
    if (r < 3) out[2] = i + kFiles;
    if (r > 0) out[3] = i - kFiles;
    for (int& j : out)
      if (j >= 0 && taken[static_cast<size_t>(j)]) j = -1;
    return out;
  }
};

}  // namespace

HomeSetup strong_setup(Rng& rng, int open_in_ten) {
  Placer s(rng);
  int bombs = kArmy[kBomb];
  // The Flag: the back rank nine times in ten, corners and the squares beside them a little more often.
  const int flag = s.draw([](int r, int c) {
    if (r == 0) return c == 0 || c == 9 ? 14 : c == 1 || c == 8 ? 12 : 9;
    return r == 1 ? 2 : 0;
  });
  s.put(flag, kFlag);
  // Its wall: each free side a Bomb, but for one side in `open_in_ten` tenths (the draw is made either way, so
  // the rest of the setup does not depend on it).
  for (int j : s.beside(flag))
    if (j >= 0 && bombs > 0 && s.rng.below(10) < static_cast<uint64_t>(10 - open_in_ten)) s.put(j, kBomb), --bombs;
  // Half the time a decoy on the back rows: one or two Bombs beside a square left for an ordinary piece.
  if (bombs >= 2 && s.rng.below(2) == 0) {
    const int decoy = s.draw([&](int r, int c) { return r <= 1 && std::abs(c - flag % kFiles) >= 3 ? 1 : 0; });
    if (decoy >= 0) {
      s.taken[static_cast<size_t>(decoy)] = true;  // kept for an ordinary piece
      int walls = 1 + static_cast<int>(s.rng.below(2));
      for (int j : s.beside(decoy))
        if (j >= 0 && walls > 0 && j / kFiles < 3) s.put(j, kBomb), --bombs, --walls;
      s.taken[static_cast<size_t>(decoy)] = false;
    }
  }
  // The other Bombs: the back rows, and the third row where they close a lane or stand before a lake.
  s.place(kBomb, bombs, [](int r, int c) { return r == 0 ? 4 : r == 1 ? 4 : r == 2 ? (lake_column(c) ? 5 : 3) : 1; });
  // The General and the Marshal forward, on different wings; the Spy beside the General.
  const int general = s.draw([](int r, int) { return r == 3 ? 3 : r == 2 ? 4 : r == 1 ? 1 : 0; });
  s.put(general, kGeneral);
  const bool general_left = general % kFiles < 5;
  s.place(kMarshal, 1, [&](int r, int c) {
    const int w = r == 3 ? 3 : r == 2 ? 4 : r == 1 ? 1 : 0;
    return (c < 5) != general_left ? 3 * w : w;
  });
  int spy = -1;
  if (s.rng.below(4) != 0) {
    const auto near = s.beside(general);
    int n = 0;
    for (int j : near) n += j >= 0 && j / kFiles < 3;  // not in the front rank
    if (n > 0) {
      int pick = static_cast<int>(s.rng.below(static_cast<uint64_t>(n)));
      for (int j : near)
        if (j >= 0 && j / kFiles < 3 && pick-- == 0) spy = j;
    }
  }
  if (spy >= 0) {
    s.put(spy, kSpy);
  } else {
    s.place(kSpy, 1, [](int r, int) { return r == 1 || r == 2 ? 1 : 0; });
  }
  s.place(kColonel, kArmy[kColonel], [](int r, int) { return r == 0 ? 0 : r == 1 ? 1 : 3; });
  s.place(kMajor, kArmy[kMajor], [](int r, int) { return r == 0 ? 1 : r == 1 ? 2 : 3; });
  s.place(kMiner, kArmy[kMiner], [](int r, int) { return r == 0 ? 4 : r == 1 ? 4 : r == 2 ? 2 : 1; });
  s.place(kScout, kArmy[kScout], [](int r, int c) { return r == 3 ? (lane_column(c) ? 7 : 5) : r == 2 ? 2 : 1; });
  s.place(kCaptain, kArmy[kCaptain], [](int r, int) { return r == 0 ? 1 : 2; });
  s.place(kLieutenant, kArmy[kLieutenant], [](int, int) { return 2; });
  s.place(kSergeant, kArmy[kSergeant], [](int r, int) { return r == 3 ? 1 : 2; });
  return s.kinds;
}

namespace {

json placement_of(Player p, const HomeSetup& kinds) {
  json placement = json::object();
  for (int i = 0; i < kHomeSquares; ++i)
    placement[square_name(home_square(p, i / kFiles, i % kFiles))] = std::string(1, kind_letter(kinds[static_cast<size_t>(i)]));
  return placement;
}

}  // namespace

json Stratego::ai_arrangement(Player p, uint64_t seed) const {
  if (p != 0 && p != 1) fail(ErrorKind::bad_request, "no such player");
  Rng rng(seed);
  return placement_of(p, strong_setup(rng));
}

const std::vector<std::string>& Stratego::named_arrangements() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Named& s : kNamed) n.emplace_back(s.name);
    return n;
  }();
  return names;
}

json Stratego::arrangement(Player p, std::string_view name, uint64_t seed) const {
  if (p != 0 && p != 1) fail(ErrorKind::bad_request, "no such player");
  if (name == "random") return random_arrangement(p, seed);
  if (name == "ai") return ai_arrangement(p, seed);  // what an AI seat sets up: not offered in the editor
  for (const Named& s : kNamed) {
    if (name != s.name) continue;
    json placement = json::object();
    for (int row = 0; row < 4; ++row)
      for (int column = 0; column < kFiles; ++column)
        placement[square_name(home_square(p, row, column))] = std::string(1, s.rows[row][column]);
    return placement;
  }
  std::string known = "random";
  for (const Named& s : kNamed) known += std::string(", ") + s.name;
  fail(ErrorKind::illegal, "unknown arrangement \"" + std::string(name) + "\": stratego has " + known);
}

}  // namespace tabula::stratego
