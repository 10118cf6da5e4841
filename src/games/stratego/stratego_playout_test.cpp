// Random games checked at every ply against an independent reference: a second, deliberately plain Stratego
// move generator written from the rule text with strings and maps (no bit tricks, no shared code beyond the
// square names), plus invariants on material, observations and undo. And perft from a fixed pair of setups.
#include "core/session.h"
#include "games/stratego/stratego.h"

#include "core/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace tabula::stratego {
namespace {

// Sanitizer builds run the same checks on fewer games (they exist to catch memory errors, not to repeat
// Sanitizer builds run the same checks on fewer games (core/testing.h).
constexpr int kScale = tabula::testing::kSanitized ? 4 : 1;

// --- The reference -------------------------------------------------------------------------------------------

int rank_value(char kind) {  // M 10 … S 1; Bombs and the Flag do not fight by rank
  const std::string order = "SONTLPJCGM";
  const size_t i = order.find(kind);
  return i == std::string::npos ? 0 : static_cast<int>(i) + 1;
}

struct RefPiece {
  int id;
  char kind;
  int owner;
};

class Reference {
 public:
  Reference(const json& red, const json& blue, const json& options) : options_(options) {
    int id = 0;
    for (const json* placement : {&red, &blue}) {
      // Ids in square order, as the engine's (it does not matter which, only that they follow pieces).
      std::vector<int> squares;
      for (auto it = placement->begin(); it != placement->end(); ++it) squares.push_back(parse_square(it.key()));
      std::sort(squares.begin(), squares.end());
      for (int sq : squares)
        board_[sq] = RefPiece{id++, placement->at(square_name(sq)).get<std::string>()[0], placement == &red ? 0 : 1};
    }
    ++history_[key()];
  }

  std::vector<std::string> legal() const {
    std::vector<std::string> out;
    std::vector<std::pair<std::string, bool>> candidates;  // move, repeats
    const std::vector<int> here = key();
    for (const auto& [from, pc] : board_) {
      if (pc.owner != to_move_ || pc.kind == 'B' || pc.kind == 'F') continue;
      const int steps[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
      for (const auto& st : steps) {
        int f = file_of(from), r = rank_of(from);
        for (int n = 1;; ++n) {
          f += st[0];
          r += st[1];
          if (f < 0 || f > 9 || r < 1 || r > 10) break;
          const int to = square_of(f, r);
          if (is_lake(to)) break;
          auto there = board_.find(to);
          if (there != board_.end() && there->second.owner == to_move_) break;
          const bool attack = there != board_.end();
          if (!over_limit(pc.id, from, to)) {
            bool rep = false;
            if (!attack && options_.value("repetition_rule", true)) {
              std::vector<int> k = here;
              k[static_cast<size_t>(pc.id)] = to;
              k.back() = 1 - to_move_;
              auto seen = history_.find(k);
              rep = seen != history_.end() && seen->second >= 2;
            }
            candidates.emplace_back(square_name(from) + "-" + square_name(to), rep);
          }
          if (attack || pc.kind != 'O') break;
        }
      }
    }
    const bool all_repeat = std::all_of(candidates.begin(), candidates.end(), [](auto& c) { return c.second; });
    for (auto& [m, rep] : candidates)
      if (!rep || all_repeat) out.push_back(m);
    std::sort(out.begin(), out.end());
    return out;
  }

  // Plays a move and returns the result's reason if the game ended ("" otherwise).
  std::string play(const std::string& move) {
    const size_t dash = move.find('-');
    const int from = parse_square(move.substr(0, dash)), to = parse_square(move.substr(dash + 1));
    const RefPiece pc = board_.at(from);
    auto& [sp, sa, sb, sc] = shuttle_[to_move_];
    const int lo = std::min(from, to), hi = std::max(from, to);
    if (sp == pc.id && sa == lo && sb == hi) {
      ++sc;
    } else {
      sp = pc.id, sa = lo, sb = hi, sc = 1;
    }
    std::string end;
    board_.erase(from);
    auto there = board_.find(to);
    if (there == board_.end()) {
      board_[to] = pc;
    } else {
      const RefPiece def = there->second;
      history_.clear();  // the position changed for good
      if (def.kind == 'F') {
        board_[to] = pc;
        end = "flag-captured";
      } else if (def.kind == 'B') {
        if (pc.kind == 'N') board_[to] = pc;
      } else if (pc.kind == 'S' && def.kind == 'M') {
        board_[to] = pc;
      } else if (rank_value(pc.kind) > rank_value(def.kind)) {
        board_[to] = pc;
      } else if (rank_value(pc.kind) == rank_value(def.kind)) {
        board_.erase(to);
      }
    }
    to_move_ = 1 - to_move_;
    ++ply_;
    ++history_[key()];
    if (!end.empty()) return end;
    if (ply_ >= options_.value("max_plies", 2000)) return "ply-limit";
    if (legal().empty()) return "no-moves";
    return "";
  }

  bool movable(int owner) const {
    for (const auto& [sq, pc] : board_)
      if (pc.owner == owner && pc.kind != 'B' && pc.kind != 'F') return true;
    return false;
  }
  int to_move() const { return to_move_; }
  const std::map<int, RefPiece>& board() const { return board_; }

 private:
  bool over_limit(int id, int from, int to) const {
    const auto& [sp, sa, sb, sc] = shuttle_[to_move_];
    return sp == id && sa == std::min(from, to) && sb == std::max(from, to) &&
           sc >= options_.value("two_square_limit", 3);
  }
  // A position: the square of every piece by id (-1 once it is gone), then the side to move.
  std::vector<int> key() const {
    std::vector<int> k(81, -1);
    for (const auto& [sq, pc] : board_) k[static_cast<size_t>(pc.id)] = sq;
    k.back() = to_move_;
    return k;
  }

  json options_;
  std::map<int, RefPiece> board_;
  int to_move_ = 0, ply_ = 0;
  std::tuple<int, int, int, int> shuttle_[2] = {{-1, 0, 0, 0}, {-1, 0, 0, 0}};
  std::map<std::vector<int>, int> history_;  // positions since the last battle, with their counts
};

uint64_t reference_perft(Reference& r, int depth) {
  if (depth == 0) return 1;
  uint64_t n = 0;
  for (const std::string& m : r.legal()) {
    Reference next = r;
    const std::string end = next.play(m);
    if (depth == 1) {
      ++n;
    } else if (end.empty()) {
      n += reference_perft(next, depth - 1);
    }
  }
  return n;
}

// --- The tests ------------------------------------------------------------------------------------------------

json placement(Player p, const std::string& name, uint64_t seed = 0) { return Stratego().arrangement(p, name, seed); }

// perft from Red "blitzkrieg" against Blue "shoreline-bluff": counted by the engine and by the reference.
TEST(StrategoPerft, FromAFixedPairOfSetups) {
  Session s = Session::create("stratego", {});
  s.setup(0, placement(0, "blitzkrieg"));
  s.setup(1, placement(1, "shoreline-bluff"));
  auto g = s.game().clone();
  const uint64_t expected[] = {1, 6, 42, 370, 3732, 37765, 430451};
  Reference ref(placement(0, "blitzkrieg"), placement(1, "shoreline-bluff"), json::object());
  for (int depth = 0; depth <= 6; ++depth) {
    EXPECT_EQ(perft(*g, depth), expected[depth]) << "depth " << depth;
    if (depth <= 5) {
      EXPECT_EQ(reference_perft(ref, depth), expected[depth]) << "reference, depth " << depth;
    }
  }
}

// A seeded random game: at every ply the engine's legal moves equal the reference's, the battle events agree
// with the reference's board, the material adds up, no observation names an enemy identity, and the end and
// its reason agree.
void play_checked_game(uint64_t seed, const json& options, int* plies_out) {
  Rng rng(seed);
  const auto& names = Stratego::named_arrangements();
  auto pick = [&](Player p) {
    const uint64_t k = rng.below(names.size() + 1);
    return k == names.size() ? placement(p, "random", rng.next()) : placement(p, names[k]);
  };
  const json red = pick(0), blue = pick(1);
  Session s = Session::create("stratego", options);
  s.setup(0, red);
  s.setup(1, blue);
  Reference ref(red, blue, s.state().at("options"));
  std::string ref_end;
  int plies = 0;
  while (!s.over()) {
    const auto legal = s.legal();
    ASSERT_EQ(legal, ref.legal()) << "seed " << seed << " ply " << plies;
    const std::string move = legal[rng.below(legal.size())];
    auto events = s.play(move);
    ref_end = ref.play(move);
    ++plies;
    // The engine's board is the reference's.
    const json st = s.state();
    const json& board = st.at("board");
    ASSERT_EQ(board.size(), ref.board().size()) << "seed " << seed << " ply " << plies;
    for (const auto& [sq, pc] : ref.board())
      ASSERT_EQ(board.at(square_name(sq)), std::to_string(pc.owner) + pc.kind) << "seed " << seed;
    // Material: on the board plus captured is the whole army.
    for (Player p : {0, 1}) {
      size_t on_board = 0;
      for (auto it = board.begin(); it != board.end(); ++it) on_board += it->get<std::string>()[0] == '0' + p;
      ASSERT_EQ(on_board + st.at("captured").at(std::to_string(p)).size(), 40u);
    }
    // Observations while the game is on: no enemy identity, no marks without the memory aid.
    if (!s.over() && plies % 5 == 0) {
      for (Player v : {0, 1, kSpectator}) {
        const json o = s.observation(v);
        for (auto it = o.at("board").begin(); it != o.at("board").end(); ++it) {
          const std::string piece = *it;
          const bool own = v != kSpectator && piece[0] == '0' + v;
          if (own) {
            ASSERT_NE(piece[1], '?');
          } else if (!options.value("memory_aid", false)) {
            ASSERT_EQ(piece[1], '?') << "viewer " << v << " sees " << piece;
          }
        }
      }
    }
    for (const Event& e : events) {
      if (e.full.at("type") == "move") {
        ASSERT_EQ(e.full.size(), 4u);  // type, player, from, to: no identity
      }
    }
  }
  const json result = s.state().at("result");
  ASSERT_EQ(result.at("reason"), ref_end == "no-moves" && !ref.movable(0) && !ref.movable(1) ? "no-moves" : ref_end);
  if (ref_end == "no-moves") {
    if (!ref.movable(0) && !ref.movable(1)) {
      EXPECT_TRUE(result.at("winners").empty());
    } else {
      EXPECT_EQ(result.at("winners"), json::array({1 - ref.to_move()}));
    }
  }
  *plies_out = plies;
}

TEST(StrategoPlayout, RandomGamesAgreeWithTheReferenceAtEveryPly) {
  // Short ply limits keep the reference affordable; the options vary so every rule is exercised.
  const json variants[] = {
      {{"max_plies", 400}},
      {{"max_plies", 400}, {"repetition_rule", false}, {"two_square_limit", 1}},
      {{"max_plies", 400}, {"memory_aid", true}, {"two_square_limit", 5}},
  };
  int games = 0, total = 0;
  for (uint64_t seed = 1; seed <= 90 / kScale; ++seed) {
    int plies = 0;
    const json& options = variants[seed % 3];
    play_checked_game(seed, options, &plies);
    if (HasFatalFailure()) return;
    ++games;
    total += plies;
  }
  EXPECT_EQ(games, 90 / kScale);
  EXPECT_GT(total, 90 / kScale * 50);
}

// Thousands of whole games, engine only, to the real end (or the default 2000-ply limit): invariants hold,
// every end reason is reached, undo is exact on a sample of plies.
TEST(StrategoPlayout, ThousandsOfRandomGamesEndProperly) {
  std::map<std::string, int> reasons;
  Rng rng(2026);
  MoveList moves;
  for (int game = 0; game < 2000 / kScale; ++game) {
    Stratego g;
    g.setup(0, g.arrangement(0, "random", rng.next()), nullptr);
    g.setup(1, g.arrangement(1, "random", rng.next()), nullptr);
    while (g.phase() == Phase::play) {
      g.legal_moves(moves);
      ASSERT_FALSE(moves.empty()) << "a player in play always has a move (else the game is over)";
      const Move m = moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))];
      if (g.ply() % 97 == 0) {
        const uint64_t h = g.hash();
        const json st = g.state_json();
        g.apply(m);
        g.undo();
        ASSERT_EQ(g.hash(), h);
        ASSERT_EQ(g.state_json(), st);
      }
      g.apply(m);
    }
    ASSERT_NE(g.result(), nullptr);
    ++reasons[g.result()->reason];
  }
  EXPECT_GT(reasons["flag-captured"], 0);
  EXPECT_GT(reasons["no-moves"], 0);
  int total = 0;
  for (auto& [r, n] : reasons) total += n;
  EXPECT_EQ(total, 2000 / kScale);
}

}  // namespace
}  // namespace tabula::stratego
