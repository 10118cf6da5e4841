// Setups a player can take instead of placing 40 pieces by hand: a seeded random one and named ones.
//
// The named setups follow the ideas of setups long taught in Stratego play (the old rule booklets' "Corner
// Fortress", "Cyclone Defense", "Shoreline Bluff" and "Blitzkrieg"): they are our arrangements of those
// ideas, not copies of any published diagram. Each is written from its owner's seat: the first row is the
// back rank, files from the owner's left, so Blue's is the same picture turned half a turn.
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

// The board square of a player's row (0 = back rank) and column (0 = the player's left).
int home_square(Player p, int row, int column) {
  return p == 0 ? square_of(column, 1 + row) : square_of(kFiles - 1 - column, kRanks - row);
}

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

}  // namespace

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
