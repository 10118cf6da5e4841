// Random games checked at every ply against an independent reference: a second, deliberately plain FACET
// written from the rule text with strings and maps (no bit tricks, no shared code beyond square names and
// the layouts), plus invariants on undo, hashing and the state's round trip. And perft from the classic
// layout for the modes none, decay and momentum.
#include "games/facet/facet.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace tabula::facet {
namespace {

// Sanitizer builds run the same checks on fewer games.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kScale = 8;
#else
constexpr int kScale = 1;
#endif

// --- The reference ----------------------------------------------------------------------------------------

class Reference {
 public:
  // From a state JSON (notation.md): board, terrain, badges, options, to_move, coronation.
  explicit Reference(const json& st) {
    for (auto it = st.at("board").begin(); it != st.at("board").end(); ++it) board_[it.key()] = *it;
    for (auto it = st.at("terrain").begin(); it != st.at("terrain").end(); ++it)
      terrain_[it.key()] = it->get<std::string>()[0];
    for (auto it = st.at("badges").begin(); it != st.at("badges").end(); ++it)
      badges_[it.key()] = it->get<std::string>()[0];
    for (const json& m : st.at("options").at("modes")) {
      decay_ = decay_ || m == "decay";
      momentum_ = momentum_ || m == "momentum";
    }
    to_move_ = st.at("to_move");
    if (!st.at("coronation").is_null()) {
      holder_ = st.at("coronation").at("player");
      count_ = st.at("coronation").at("plies");
    }
  }

  static std::string name(int f, int r) { return std::string{static_cast<char>('a' + f), static_cast<char>('0' + r)}; }
  char tile(const std::string& sq) const {
    auto it = terrain_.find(sq);
    return it == terrain_.end() ? 'F' : it->second;
  }

  // Destinations of the stone on sq by one move kind: 'K' king step, 'N' knight, 'R' rook, 'B' bishop, 'Q'.
  void targets(const std::string& sq, char kind, std::set<std::string>& out) const {
    const int f0 = sq[0] - 'a', r0 = sq[1] - '0';
    const char me = board_.at(sq)[0];
    auto add = [&](int f, int r) {  // returns whether a slide goes on past this square
      if (f < 0 || f > 8 || r < 1 || r > 9) return false;
      const std::string to = name(f, r);
      auto it = board_.find(to);
      if (it == board_.end()) {
        out.insert(to);
        return true;
      }
      if (it->second[0] != me) out.insert(to);
      return false;
    };
    if (kind == 'K') {
      for (int df = -1; df <= 1; ++df)
        for (int dr = -1; dr <= 1; ++dr)
          if (df || dr) add(f0 + df, r0 + dr);
    } else if (kind == 'N') {
      for (int df : {-2, -1, 1, 2})
        for (int dr : {-2, -1, 1, 2})
          if (std::abs(df) != std::abs(dr)) add(f0 + df, r0 + dr);
    } else {
      for (int df = -1; df <= 1; ++df)
        for (int dr = -1; dr <= 1; ++dr) {
          if (!df && !dr) continue;
          const bool diagonal = df && dr;
          if ((kind == 'R' && diagonal) || (kind == 'B' && !diagonal)) continue;
          for (int n = 1; add(f0 + n * df, r0 + n * dr); ++n) {
          }
        }
    }
  }
  static char move_of_tile(char t) {
    switch (t) {
      case 'T': return 'R';
      case 'S': return 'B';
      case 'G': return 'N';
      case 'C': return 'Q';
      default: return 'K';
    }
  }

  std::vector<std::string> legal() const {
    std::vector<std::string> out;
    for (const auto& [sq, pc] : board_) {
      if (pc[0] != '0' + to_move_) continue;
      std::set<std::string> to;
      if (pc[1] == 'M') {
        targets(sq, 'K', to);  // the Monarch ignores terrain
      } else {
        targets(sq, move_of_tile(tile(sq)), to);
        auto b = badges_.find(sq);
        if (b != badges_.end()) targets(sq, move_of_tile(b->second), to);
      }
      for (const std::string& t : to) out.push_back(sq + "-" + t);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // Plays a move; returns the result's reason if the game ended ("" otherwise).
  std::string play(const std::string& move) {
    const std::string from = move.substr(0, 2), to = move.substr(3, 2);
    const std::string pc = board_.at(from);
    const int me = to_move_;
    std::string taken;
    if (board_.count(to)) taken = board_.at(to);
    badges_.erase(to);
    board_.erase(from);
    board_[to] = pc;
    const char left = tile(from);
    if (momentum_) {
      // Every badge of the mover expires now; the stone gains the left tile's unless it is a Monarch or Field.
      std::map<std::string, char> kept;
      for (const auto& [sq, b] : badges_)
        if (board_.count(sq) && board_.at(sq)[0] != '0' + me) kept[sq] = b;
      badges_ = kept;
      if (pc[1] != 'M' && left != 'F') badges_[to] = left;
    }
    if (decay_) {
      if (left == 'T') terrain_[from] = 'S';
      if (left == 'S') terrain_[from] = 'G';
      if (left == 'G') terrain_.erase(from);
    }
    to_move_ = 1 - me;
    if (taken.size() && taken[1] == 'M') return "regicide";
    if (taken.size() && taken[1] == 'A') {
      int left_agents = 0;
      for (const auto& [sq, p] : board_) left_agents += p[0] != '0' + me && p[1] == 'A';
      if (left_agents == 0) return "elimination";
    }
    // Coronation: all Thrones held by one player at the end of three plies, the first and last its own.
    std::set<char> owners;
    int thrones = 0;
    for (const auto& [sq, t] : terrain_) {
      if (t != 'C') continue;
      ++thrones;
      owners.insert(board_.count(sq) ? board_.at(sq)[0] : '-');
    }
    const int holder = thrones && owners.size() == 1 && *owners.begin() != '-' ? *owners.begin() - '0' : -1;
    if (holder == me) {
      count_ = holder_ == me && count_ == 2 ? 3 : 1;
      holder_ = me;
    } else if (holder >= 0 && holder_ == holder && count_ == 1) {
      count_ = 2;
    } else {
      holder_ = -1;
      count_ = 0;
    }
    if (count_ == 3) return "coronation";
    if (legal().empty()) return "stalemate";
    return "";
  }

  const std::map<std::string, std::string>& board() const { return board_; }
  json terrain_json() const {
    json t = json::object();
    for (const auto& [sq, c] : terrain_)
      if (c != 'F') t[sq] = std::string(1, c);
    return t;
  }
  json badges_json() const {
    json b = json::object();
    for (const auto& [sq, c] : badges_) b[sq] = std::string(1, c);
    return b;
  }
  json coronation_json() const {
    return holder_ < 0 ? json(nullptr) : json{{"player", holder_}, {"plies", count_}};
  }

 private:
  std::map<std::string, std::string> board_;
  std::map<std::string, char> terrain_, badges_;
  bool decay_ = false, momentum_ = false;
  int to_move_ = 0;
  int holder_ = -1, count_ = 0;
};

uint64_t reference_perft(const Reference& r, int depth) {
  if (depth == 0) return 1;
  uint64_t n = 0;
  for (const std::string& m : r.legal()) {
    if (depth == 1) {
      ++n;
      continue;
    }
    Reference next = r;
    if (next.play(m).empty()) n += reference_perft(next, depth - 1);
  }
  return n;
}

// A random move, with a taste chosen per game so that every end is reached: 0 uniform; 1 captures first
// half of the time; 2 White goes for the Thrones (moves onto a Throne first, then moves that keep the
// Thrones held) against a uniform Black, so coronations happen.
Move choose(const Facet& g, const MoveList& moves, Rng& rng, int taste) {
  Move m = moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))];
  if (taste == 1 && rng.below(2) == 0)
    for (Move c : moves)
      if (g.is_capture(c)) return c;
  if (taste == 2 && g.to_move() == 0) {
    std::vector<Move> onto, keep;
    for (Move c : moves) {
      if (g.tile_at(FacetMove::to(c)) == kThrone) onto.push_back(c);
      if (g.tile_at(FacetMove::from(c)) != kThrone) keep.push_back(c);
    }
    if (!onto.empty()) return onto[rng.below(onto.size())];
    if (!keep.empty()) return keep[rng.below(keep.size())];
  }
  return m;
}

// Every mode combination the options allow (fog is refused for now).
const json kModeSets[] = {json::array(), json{"decay"}, json{"momentum"}};

// --- The tests ------------------------------------------------------------------------------------------

// perft from the classic layout: the engine's counts, confirmed on every run by the reference to depth 3.
// The reference was also run once to depth 4 for all three (about 10 s, too slow for every run) and agreed.
TEST(FacetPerft, FromTheClassicLayoutForModesNoneDecayAndMomentum) {
  const uint64_t expected[3][6] = {
      {1, 40, 1592, 73172, 3348666, 166334146},
      {1, 40, 1592, 73172, 3348666, 166162946},
      {1, 40, 1592, 77414, 3744108, 196337434},
  };
  // Decay first changes a count at depth 5 (a tile left on ply 1 or 3 is stood on and used on ply 5), so
  // decay runs to depth 5; none and momentum stop at 4 to keep the suite fast (their depth-5 counts above
  // were computed by this engine once and are not checked on every run).
  const int max_depth[3] = {4, 5, 4};
  for (int i = 0; i < 3; ++i) {
    Facet g(Options::from_json({{"modes", kModeSets[i]}}));
    Reference ref(g.state_json());
    for (int depth = 0; depth <= max_depth[i]; ++depth) {
      EXPECT_EQ(perft(g, depth), expected[i][depth]) << kModeSets[i].dump() << " depth " << depth;
      if (depth <= 3) {
        EXPECT_EQ(reference_perft(ref, depth), expected[i][depth]) << "reference " << kModeSets[i].dump() << " depth " << depth;
      }
    }
  }
}

// A seeded random game checked at every ply: the engine's legal moves equal the reference's, the board,
// terrain, badges and coronation agree after the move, the end and its reason agree; the hash is what a
// fresh count gives; on a sample of plies undo restores the state and hash exactly and the state reads back.
void play_checked_game(uint64_t seed, const json& options, int max_plies, int* plies_out, std::map<std::string, int>& reasons) {
  Rng rng(seed);
  Facet g(Options::from_json(options));
  Reference ref(g.state_json());
  MoveList moves;
  int plies = 0;
  std::string ref_end;
  while (g.phase() == Phase::play && plies < max_plies) {
    const auto legal = legal_move_strings(g);
    ASSERT_EQ(legal, ref.legal()) << "seed " << seed << " ply " << plies;
    g.legal_moves(moves);
    const Move m = choose(g, moves, rng, static_cast<int>(seed % 5 % 3));
    const std::string move = g.move_to_string(m);
    if (plies % 7 == 0) {
      const json st = g.state_json();
      const uint64_t h = g.hash();
      g.apply(m);
      g.undo();
      ASSERT_EQ(g.state_json(), st) << "seed " << seed << " ply " << plies;
      ASSERT_EQ(g.hash(), h);
      auto back = Facet::from_state(st);
      ASSERT_EQ(back->state_json(), st);
      ASSERT_EQ(back->hash(), h);
      ASSERT_EQ(legal_move_strings(*back), legal);
      for (Player v : {0, 1, kSpectator}) ASSERT_EQ(g.observation_json(v), st);
    }
    EventLog events;
    g.apply(m, &events);
    ref_end = ref.play(move);
    ++plies;
    ASSERT_EQ(g.hash(), g.compute_hash()) << "seed " << seed << " ply " << plies;
    const json st = g.state_json();
    const json& board = st.at("board");
    ASSERT_EQ(board.size(), ref.board().size()) << "seed " << seed << " ply " << plies;
    for (const auto& [sq, pc] : ref.board()) ASSERT_EQ(board.at(sq), pc) << "seed " << seed;
    ASSERT_EQ(st.at("terrain"), ref.terrain_json()) << "seed " << seed << " ply " << plies;
    ASSERT_EQ(st.at("badges"), ref.badges_json()) << "seed " << seed << " ply " << plies;
    ASSERT_EQ(st.at("coronation"), ref.coronation_json()) << "seed " << seed << " ply " << plies;
    ASSERT_EQ(g.phase() == Phase::over, !ref_end.empty()) << "seed " << seed << " ply " << plies;
    ASSERT_EQ(g.is_capture(m), events.size() >= 2 && events[1].full.at("type") == "capture");
  }
  if (g.phase() == Phase::over) {
    ASSERT_EQ(g.result()->reason, ref_end);
    ++reasons[ref_end];
  }
  *plies_out = plies;
}

TEST(FacetPlayout, RandomGamesAgreeWithTheReferenceAtEveryPly) {
  std::map<std::string, int> reasons;
  int games = 0, total = 0;
  for (uint64_t seed = 1; seed <= 240 / kScale; ++seed) {
    json options = {{"modes", kModeSets[seed % 3]}};
    if (seed % 2) options["layout"] = "random", options["seed"] = seed;
    int plies = 0;
    play_checked_game(seed, options, 300, &plies, reasons);
    if (HasFatalFailure()) return;
    ++games;
    total += plies;
  }
  EXPECT_EQ(games, 240 / kScale);
  EXPECT_GT(total, 240 / kScale * 30);
  EXPECT_GT(reasons["regicide"], 0);
  EXPECT_GT(reasons["coronation"], 0);
}

// Thousands of whole games, engine only, over every allowed mode combination and both layouts: every game
// ends by a rule (no move limit in the rules) or reaches the test's cap, a player in play always has a move,
// undo is exact on a sample of plies, and the ends reached include regicide, elimination and coronation.
TEST(FacetPlayout, ThousandsOfRandomGamesEndByTheRules) {
  std::map<std::string, int> reasons;
  Rng rng(2026);
  MoveList moves;
  int capped = 0;
  const int games = 3000 / kScale;
  for (int game = 0; game < games; ++game) {
    json options = {{"modes", kModeSets[game % 3]}};
    if (game % 2) options["layout"] = "random", options["seed"] = rng.next() >> 1;
    Facet g(Options::from_json(options));
    while (g.phase() == Phase::play && g.ply() < 1000) {
      g.legal_moves(moves);
      ASSERT_FALSE(moves.empty()) << "a player in play always has a move (else the game is over)";
      const Move m = choose(g, moves, rng, game % 5 % 3);
      if (g.ply() % 53 == 0) {
        const uint64_t h = g.hash();
        const json st = g.state_json();
        g.apply(m);
        g.undo();
        ASSERT_EQ(g.hash(), h);
        ASSERT_EQ(g.state_json(), st);
      }
      g.apply(m);
    }
    if (g.phase() == Phase::play) {
      ++capped;
      continue;
    }
    ++reasons[g.result()->reason];
  }
  EXPECT_GT(reasons["regicide"], 0);
  EXPECT_GT(reasons["elimination"], 0);
  EXPECT_GT(reasons["coronation"], 0);
  int total = capped;
  for (auto& [r, n] : reasons) total += n;
  EXPECT_EQ(total, games);
  for (auto& [r, n] : reasons) std::printf("  %s: %d\n", r.c_str(), n);
  std::printf("  capped at 1000 plies: %d\n", capped);
}

}  // namespace
}  // namespace tabula::facet
