// Random games checked at every ply against an independent reference: a second, deliberately plain FACET
// written from the rule text with strings and maps (no bit tricks, no shared code beyond square names and
// the layouts), plus invariants on undo, hashing and the state's round trip. And perft from the classic
// layout for the modes none, decay and momentum.
#include "games/facet/facet.h"

#include "core/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace tabula::facet {
namespace {

// Sanitizer builds run the same checks on fewer games (core/testing.h).
constexpr int kScale = tabula::testing::kSanitized ? 8 : 1;

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
  int to_move() const { return to_move_; }
  // The position as a state JSON of the fields the fog reference reads.
  json state() const {
    json b = json::object();
    for (const auto& [sq, pc] : board_) b[sq] = pc;
    return json{{"board", b}, {"terrain", terrain_json()}, {"badges", badges_json()}, {"to_move", to_move_},
                {"coronation", coronation_json()}, {"options", {{"modes", json::array()}}}};
  }
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

// The full-information mode combinations, and with fog every combination the options allow.
const json kModeSets[] = {json::array(), json{"decay"}, json{"momentum"}};
const json kAllModeSets[] = {json::array(), json{"decay"}, json{"momentum"}, json{"fog"}, json{"decay", "fog"}};

// --- Fog, the plain way -----------------------------------------------------------------------------------
// Sight, memory and views per the Fog ruling, in strings and sets, from the true state after each ply.

struct FogReference {
  std::set<std::string> sight[2];
  std::map<std::string, std::string> seen[2];  // square -> enemy stone last seen there
  std::map<std::string, char> terrain[2];      // square -> tile last seen

  static char tile_in(const json& st, const std::string& sq) {
    return st.at("terrain").contains(sq) ? st.at("terrain").at(sq).get<std::string>()[0] : 'F';
  }
  static std::set<std::string> sight_of(const json& st, int p) {
    std::set<std::string> out;
    for (auto it = st.at("board").begin(); it != st.at("board").end(); ++it) {
      const std::string pc = *it;
      if (pc[0] != '0' + p) continue;
      const int radius = pc[1] == 'M' ? 3 : 2, f0 = it.key()[0] - 'a', r0 = it.key()[1] - '0';
      for (int f = f0 - radius; f <= f0 + radius; ++f)
        for (int r = r0 - radius; r <= r0 + radius; ++r)
          if (f >= 0 && f < 9 && r >= 1 && r <= 9) out.insert(Reference::name(f, r));
    }
    for (auto it = st.at("terrain").begin(); it != st.at("terrain").end(); ++it)
      if (*it == "C") out.insert(it.key());
    return out;
  }
  void look(const json& st, int p, const std::set<std::string>& squares) {
    sight[p] = squares;
    for (const std::string& sq : squares) {
      const std::string pc = st.at("board").value(sq, "");
      if (!pc.empty() && pc[0] != '0' + p) seen[p][sq] = pc;
      else seen[p].erase(sq);
      terrain[p][sq] = tile_in(st, sq);
    }
  }
  explicit FogReference(const json& st) {
    std::set<std::string> all;
    for (int f = 0; f < 9; ++f)
      for (int r = 1; r <= 9; ++r) all.insert(Reference::name(f, r));
    for (int p = 0; p < 2; ++p) {
      look(st, p, all);
      sight[p] = sight_of(st, p);
    }
  }
  // Where a move chosen on the view really stops on the true board `st` (before the ply).
  static std::string stop(const json& st, const std::string& from, const std::string& to) {
    const char t = tile_in(st, from);
    if (st.at("board").at(from).get<std::string>()[1] == 'M' || t == 'F' || t == 'G') return to;
    const int df = (to[0] > from[0]) - (to[0] < from[0]), dr = (to[1] > from[1]) - (to[1] < from[1]);
    for (std::string sq = Reference::name(from[0] - 'a' + df, from[1] - '0' + dr); sq != to;
         sq = Reference::name(sq[0] - 'a' + df, sq[1] - '0' + dr))
      if (st.at("board").contains(sq)) return sq;
    return to;
  }
  void after_ply(const json& st, int mover, const std::string& from, const std::string& to, bool took) {
    const int victim = 1 - mover;
    const std::set<std::string> before = sight[victim];
    look(st, mover, sight_of(st, mover));
    terrain[mover][from] = tile_in(st, from);
    std::set<std::string> s = sight_of(st, victim);
    if (took) {
      s.insert(to);
      if (before.count(from)) s.insert(from);
    }
    look(st, victim, s);
  }
  // The observation's fog fields for p, and p's view board as a state the plain Reference can move on.
  json board(const json& st, int p) const {
    json b = json::object();
    for (auto it = st.at("board").begin(); it != st.at("board").end(); ++it)
      if (it->get<std::string>()[0] == '0' + p || sight[p].count(it.key())) b[it.key()] = *it;
    return b;
  }
  json visible(int p) const { return json(std::vector<std::string>(sight[p].begin(), sight[p].end())); }
  json ghosts(int p) const {
    json g = json::object();
    for (const auto& [sq, pc] : seen[p])
      if (!sight[p].count(sq)) g[sq] = pc;
    return g;
  }
  json terrain_json(int p) const {
    json t = json::object();
    for (const auto& [sq, c] : terrain[p])
      if (c != 'F') t[sq] = std::string(1, c);
    return t;
  }
};

// perft under fog, the plain way: moves on the mover's view, played where they really stop.
uint64_t reference_fog_perft(const Reference& truth, const FogReference& fog, int depth) {
  if (depth == 0) return 1;
  const json st = truth.state();
  const int me = truth.to_move();
  json view = st;
  view["board"] = fog.board(st, me);
  uint64_t n = 0;
  for (const std::string& m : Reference(view).legal()) {
    if (depth == 1) {
      ++n;
      continue;
    }
    const std::string from = m.substr(0, 2), to = FogReference::stop(st, from, m.substr(3, 2));
    Reference next = truth;
    if (!next.play(from + "-" + to).empty()) continue;
    FogReference seen = fog;
    seen.after_ply(next.state(), me, from, to, st.at("board").contains(to));
    n += reference_fog_perft(next, seen, depth - 1);
  }
  return n;
}

// A seeded random fog game checked at every ply against the plain Reference (truth) and FogReference (sight
// and memory): the engine's legal moves are the plain moves on the mover's view; each player's observation
// (board, visible, ghosts, terrain) is the reference's; no observation holds an enemy stone outside `visible`;
// the opponent's view of a move shows `from`/`to` exactly as the ruling says; where the stone really stopped
// (bumps) agrees; the truth after the ply agrees; undo is exact and the hash matches a fresh count.
void play_checked_fog_game(uint64_t seed, const json& options, int max_plies, std::map<std::string, int>& reasons,
                           int& bumps) {
  Rng rng(seed);
  Facet g(Options::from_json(options));
  Reference ref(g.state_json());
  FogReference fog(g.state_json());
  MoveList moves;
  int plies = 0;
  std::string ref_end;
  while (g.phase() == Phase::play && plies < max_plies) {
    const json st = g.state_json();
    const int me = g.to_move();
    for (int p = 0; p < 2; ++p) {
      const json obs = g.observation_json(p);
      ASSERT_EQ(obs.at("board"), fog.board(st, p)) << "seed " << seed << " ply " << plies << " player " << p;
      ASSERT_EQ(obs.at("visible"), fog.visible(p)) << "seed " << seed << " ply " << plies << " player " << p;
      ASSERT_EQ(obs.at("ghosts"), fog.ghosts(p)) << "seed " << seed << " ply " << plies << " player " << p;
      ASSERT_EQ(obs.at("terrain"), fog.terrain_json(p)) << "seed " << seed << " ply " << plies << " player " << p;
    }
    json view = st;
    view["board"] = fog.board(st, me);
    const auto view_legal = legal_move_strings(g);
    ASSERT_EQ(view_legal, Reference(view).legal()) << "seed " << seed << " ply " << plies;
    // Ruling F13: the view has a move exactly when the true board does.
    ASSERT_EQ(view_legal.empty(), ref.legal().empty()) << "seed " << seed << " ply " << plies;
    g.legal_moves(moves);
    const Move m = choose(g, moves, rng, static_cast<int>(seed % 5 % 3));
    const std::string move = g.move_to_string(m);
    const std::string from = move.substr(0, 2), to = FogReference::stop(st, from, move.substr(3, 2));
    if (plies % 5 == 0) {
      const uint64_t h = g.hash();
      const json o0 = g.observation_json(0), o1 = g.observation_json(1);
      g.apply(m);
      g.undo();
      ASSERT_EQ(g.state_json(), st);
      ASSERT_EQ(g.hash(), h);
      ASSERT_EQ(g.observation_json(0), o0);
      ASSERT_EQ(g.observation_json(1), o1);
    }
    const bool took = st.at("board").contains(to);
    EventLog events;
    g.apply(m, &events);
    ref_end = ref.play(from + "-" + to);
    ++plies;
    const json after = g.state_json();
    fog.after_ply(after, me, from, to, took);
    if (to != move.substr(3, 2)) ++bumps;
    ASSERT_EQ(g.hash(), g.compute_hash()) << "seed " << seed << " ply " << plies;
    ASSERT_EQ(events[0].full.at("to"), to) << "seed " << seed << " ply " << plies;
    ASSERT_EQ(after.at("board").size(), ref.board().size());
    for (const auto& [sq, pc] : ref.board()) ASSERT_EQ(after.at("board").at(sq), pc) << "seed " << seed;
    ASSERT_EQ(after.at("terrain"), ref.terrain_json()) << "seed " << seed << " ply " << plies;
    ASSERT_EQ(g.phase() == Phase::over, !ref_end.empty()) << "seed " << seed << " ply " << plies;
    if (g.phase() == Phase::play) {
      const json& theirs = events[0].view_for(1 - me, 2);
      if (theirs.is_null()) {
        ASSERT_FALSE(fog.sight[1 - me].count(to));
      } else {
        ASSERT_EQ(theirs.contains("to"), fog.sight[1 - me].count(to) > 0) << "seed " << seed << " ply " << plies;
        ASSERT_FALSE(theirs.contains("bump"));
      }
      for (int p = 0; p < 2; ++p) {  // nothing of the enemy outside sight
        const json obs = g.observation_json(p);
        for (auto it = obs.at("board").begin(); it != obs.at("board").end(); ++it)
          if (it->get<std::string>()[0] != '0' + p) {
            ASSERT_TRUE(fog.sight[p].count(it.key()));
          }
      }
    }
  }
  if (g.phase() == Phase::over) {
    ASSERT_EQ(g.result()->reason, ref_end);
    ++reasons[ref_end];
  }
}

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
  // Under the sanitizers decay stops at 4 too (its depth 5 alone takes 15 s there).
  const int max_depth[3] = {4, kScale == 1 ? 5 : 4, 4};
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

// perft under fog counts the moves `legal` lists, on each mover's view (rulings.md): the engine's counts,
// confirmed by the plain references to depth 3 on every run.
TEST(FacetPerft, FromTheClassicLayoutUnderFogOnEachMoversView) {
  const json modes[2] = {json{"fog"}, json{"decay", "fog"}};
  const uint64_t expected[2][6] = {
      {1, 40, 1594, 73938, 3415168, 171619414},
      {1, 40, 1594, 73938, 3415168, 171442326},
  };
  for (int i = 0; i < 2; ++i) {
    Facet g(Options::from_json({{"modes", modes[i]}}));
    const Reference truth(g.state_json());
    const FogReference fog(g.state_json());
    for (int depth = 0; depth <= (kScale == 1 ? 4 : 3); ++depth) {
      EXPECT_EQ(perft(g, depth), expected[i][depth]) << modes[i].dump() << " depth " << depth;
      if (depth <= (kScale == 1 ? 3 : 2)) {  // the plain reference is slow under the sanitizers
        EXPECT_EQ(reference_fog_perft(truth, fog, depth), expected[i][depth]) << "reference, depth " << depth;
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

TEST(FacetPlayout, RandomFogGamesAgreeWithTheReferenceAtEveryPly) {
  std::map<std::string, int> reasons;
  int bumps = 0;
  for (uint64_t seed = 1; seed <= 80 / kScale; ++seed) {
    json options = {{"modes", seed % 2 ? json{"fog"} : json{"decay", "fog"}}};
    if (seed % 3 == 0) options["layout"] = "random", options["seed"] = seed;
    play_checked_fog_game(seed, options, 300, reasons, bumps);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(reasons["regicide"], 0);
  EXPECT_GT(bumps, 0) << "no slide ever met a hidden enemy: the bump rule went unchecked";
  std::printf("  bumps: %d\n", bumps);
  for (auto& [r, n] : reasons) std::printf("  %s: %d\n", r.c_str(), n);
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
    json options = {{"modes", kAllModeSets[game % 5]}};
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
