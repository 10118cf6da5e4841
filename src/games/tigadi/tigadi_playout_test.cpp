// Random playouts over thousands of games, checking invariants, and a differential test against a
// reference move generator written straight from notation.md's list of lines (strings and sets, no
// bitboards), so the engine's geometry and capture logic are checked by an independent implementation.
#include "core/session.h"
#include "games/tigadi/tigadi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace tabula::tigadi {
namespace {

// ---- The reference: slow and obvious -----------------------------------------------------------------

const std::vector<std::vector<std::string>>& reference_lines() {
  static const std::vector<std::vector<std::string>> lines = {
      {"a1", "d1", "g1"}, {"g1", "g4", "g7"}, {"g7", "d7", "a7"}, {"a7", "a4", "a1"}, {"b2", "d2", "f2"},
      {"f2", "f4", "f6"}, {"f6", "d6", "b6"}, {"b6", "b4", "b2"}, {"c3", "d3", "e3"}, {"e3", "e4", "e5"},
      {"e5", "d5", "c5"}, {"c5", "c4", "c3"}, {"d1", "d2", "d3"}, {"g4", "f4", "e4"}, {"d7", "d6", "d5"},
      {"a4", "b4", "c4"}, {"a1", "b2", "c3"}, {"g1", "f2", "e3"}, {"g7", "f6", "e5"}, {"a7", "b6", "c5"}};
  return lines;
}

struct RefPosition {
  std::map<std::string, int> board;  // point -> owner
  int hand[2];
  int to_move;
};

RefPosition ref_from(const json& st) {
  RefPosition p;
  for (auto it = st["board"].begin(); it != st["board"].end(); ++it)
    p.board[it.key()] = it.value().get<std::string>()[0] - '0';
  p.hand[0] = st["in_hand"][0];
  p.hand[1] = st["in_hand"][1];
  p.to_move = st["to_move"];
  return p;
}

std::set<std::string> all_points() {
  std::set<std::string> s;
  for (auto& l : reference_lines()) s.insert(l.begin(), l.end());
  return s;
}

bool ref_adjacent(const std::string& a, const std::string& b) {
  for (auto& l : reference_lines())
    for (int i = 0; i < 2; ++i)
      if ((l[static_cast<size_t>(i)] == a && l[static_cast<size_t>(i) + 1] == b) ||
          (l[static_cast<size_t>(i)] == b && l[static_cast<size_t>(i) + 1] == a))
        return true;
  return false;
}

bool ref_owns_line(const std::map<std::string, int>& board, const std::vector<std::string>& line, int who) {
  for (auto& pt : line) {
    auto it = board.find(pt);
    if (it == board.end() || it->second != who) return false;
  }
  return true;
}

std::vector<std::string> ref_legal(const RefPosition& p) {
  const int me = p.to_move, opp = 1 - me;
  std::vector<std::string> enemy, capturable;
  for (auto& [pt, who] : p.board)
    if (who == opp) enemy.push_back(pt);
  for (auto& e : enemy) {
    bool protected_ = false;
    for (auto& l : reference_lines())
      if (std::find(l.begin(), l.end(), e) != l.end() && ref_owns_line(p.board, l, opp)) protected_ = true;
    if (!protected_) capturable.push_back(e);
  }
  if (capturable.empty()) capturable = enemy;

  std::vector<std::string> out;
  auto add = [&](const std::string& written, const std::string& to, const std::map<std::string, int>& after) {
    bool closes = false;
    for (auto& l : reference_lines())
      if (std::find(l.begin(), l.end(), to) != l.end() && ref_owns_line(after, l, me)) closes = true;
    if (closes && !enemy.empty())
      for (auto& c : capturable) out.push_back(written + "x" + c);
    else
      out.push_back(written);
  };
  const bool placing = p.hand[0] + p.hand[1] > 0;
  if (placing) {
    if (p.hand[me] == 0) return {"pass"};
    for (auto& pt : all_points())
      if (!p.board.count(pt)) {
        auto after = p.board;
        after[pt] = me;
        add(pt, pt, after);
      }
  } else {
    for (auto& [from, who] : p.board) {
      if (who != me) continue;
      for (auto& to : all_points())
        if (!p.board.count(to) && ref_adjacent(from, to)) {
          auto after = p.board;
          after.erase(from);
          after[to] = me;
          add(from + "-" + to, to, after);
        }
    }
    if (out.empty()) out.push_back("pass");
  }
  std::sort(out.begin(), out.end());
  return out;
}

// ---- Playouts ---------------------------------------------------------------------------------------

TEST(TigadiPlayouts, TenThousandRandomGamesKeepEveryInvariant) {
  Rng rng(20261130);
  int decided = 0, drawn_repetition = 0, drawn_quiet = 0;
  const int kGames = 10000;
  MoveList moves;
  for (int game = 0; game < kGames; ++game) {
    Tigadi g;
    // The expensive checks (reference generator, JSON round trip) run on every ply of the first games
    // and on a sample afterwards; the counting invariants run on every ply of every game.
    const bool thorough = game < 300;
    while (g.phase() == Phase::play) {
      ASSERT_LT(g.ply(), 2000) << "a game that does not end";
      const Position before = g.position();
      g.legal_moves(moves);
      ASSERT_FALSE(moves.empty());
      if (TigadiMove::is_pass(moves[0])) {
        ASSERT_EQ(moves.size(), 1);
      }
      if (thorough || rng.below(100) == 0) {
        const json st = g.state_json();
        const std::vector<std::string> legal = legal_move_strings(g);
        ASSERT_EQ(std::adjacent_find(legal.begin(), legal.end()), legal.end()) << "duplicate legal moves";
        ASSERT_EQ(legal, ref_legal(ref_from(st))) << st.dump();
        // The state JSON round trip keeps the legal moves (and the state) identical.
        Session copy = Session::from_state("tigadi", st);
        ASSERT_EQ(copy.legal(), legal);
        ASSERT_EQ(copy.state(), st);
      }
      const Move move = moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))];
      g.apply(move);
      const Position& after = g.position();
      const int mover = before.to_move, other = 1 - mover;
      ASSERT_EQ(after.board[0] & after.board[1], 0u);
      for (int side = 0; side < 2; ++side) {
        ASSERT_LE(after.in_hand[side], before.in_hand[side]);
        ASSERT_LE(after.total(side), kGotis);
      }
      ASSERT_EQ(after.ply, before.ply + 1);
      ASSERT_EQ(after.to_move, other);
      // The mover keeps every goti; the other loses exactly one when the move names a capture.
      ASSERT_EQ(after.total(mover), before.total(mover));
      const bool captures = !TigadiMove::is_pass(move) && TigadiMove::capture(move) != TigadiMove::kNone;
      ASSERT_EQ(before.total(other) - after.total(other), captures ? 1 : 0);
      ASSERT_LE(after.quiet_plies, kQuietPliesDraw);
      if (before.placing()) {
        ASSERT_EQ(after.quiet_plies, 0);
      } else {
        ASSERT_EQ(after.quiet_plies, captures ? 0 : before.quiet_plies + 1);
      }
    }
    g.legal_moves(moves);
    ASSERT_TRUE(moves.empty());
    const Result& r = *g.result();
    if (r.reason == "reduced-to-two") {
      ++decided;
      ASSERT_EQ(r.winners.size(), 1u);
      ASSERT_LE(g.position().total(1 - r.winners[0]), 2);
      ASSERT_GT(g.position().total(r.winners[0]), 2);
    } else if (r.reason == "repetition") {
      ++drawn_repetition;
      ASSERT_TRUE(r.winners.empty());
    } else {
      ASSERT_EQ(r.reason, "no-capture-100");
      ASSERT_EQ(g.position().quiet_plies, kQuietPliesDraw);
      ++drawn_quiet;
    }
  }
  EXPECT_EQ(decided + drawn_repetition + drawn_quiet, kGames);
  // Random play reaches every kind of ending; if one never happened the rules would be suspect.
  EXPECT_GT(decided, 0);
  EXPECT_GT(drawn_repetition, 0);
  EXPECT_GT(drawn_quiet, 0);
}

TEST(TigadiPlayouts, RecordsOfRandomGamesReplayToTheSameEnd) {
  Rng rng(5);
  for (int game = 0; game < 100; ++game) {
    Session s = Session::create("tigadi", json::object());
    while (!s.over()) {
      auto legal = s.legal();
      s.play(legal[static_cast<size_t>(rng.below(legal.size()))]);
    }
    ASSERT_EQ(Session::from_record(s.record()).state(), s.state());
  }
}

TEST(TigadiPlayouts, UndoRestoresThePositionExactly) {
  Rng rng(7);
  for (int game = 0; game < 300; ++game) {
    Tigadi g;
    MoveList moves;
    std::vector<json> states{g.state_json()};
    std::vector<uint64_t> hashes{g.hash()};
    while (g.phase() == Phase::play) {
      g.legal_moves(moves);
      g.apply(moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))]);
      states.push_back(g.state_json());
      hashes.push_back(g.hash());
    }
    while (states.size() > 1) {
      states.pop_back();
      hashes.pop_back();
      g.undo();
      ASSERT_EQ(g.state_json(), states.back());
      ASSERT_EQ(g.hash(), hashes.back());
    }
  }
}

uint64_t ref_perft(const RefPosition& p, int depth) {
  if (depth == 0) return 1;
  uint64_t n = 0;
  for (const std::string& m : ref_legal(p)) {
    if (depth == 1) {
      ++n;
      continue;
    }
    RefPosition q = p;
    bool captured = false;
    if (m != "pass") {
      std::string body = m, cap;
      if (auto x = m.find('x'); x != std::string::npos) {
        body = m.substr(0, x);
        cap = m.substr(x + 1);
      }
      if (auto dash = body.find('-'); dash != std::string::npos) {
        q.board.erase(body.substr(0, dash));
        q.board[body.substr(dash + 1)] = p.to_move;
      } else {
        q.board[body] = p.to_move;
        --q.hand[p.to_move];
      }
      if (!cap.empty()) {
        q.board.erase(cap);
        captured = true;
      }
    }
    q.to_move = 1 - p.to_move;
    int left = q.hand[q.to_move];
    for (auto& [pt, who] : q.board) left += who == q.to_move;
    if (captured && left <= 2) continue;  // the game ended: the sequence counts nothing
    n += ref_perft(q, depth - 1);
  }
  return n;
}

TEST(TigadiPerft, AgreesWithTheReferenceFromPositionsMidGame) {
  Rng rng(99);
  for (int trial = 0; trial < 12; ++trial) {
    Session s = Session::create("tigadi", json::object());
    const int plies = 10 + static_cast<int>(rng.below(30));
    for (int i = 0; i < plies && !s.over(); ++i) {
      auto legal = s.legal();
      s.play(legal[static_cast<size_t>(rng.below(legal.size()))]);
    }
    if (s.over() || s.state()["quiet_plies"].get<int>() > 90) continue;
    auto g = s.game().clone();
    const int depth = 3;
    EXPECT_EQ(perft(*g, depth), ref_perft(ref_from(s.state()), depth)) << s.state().dump();
  }
}

TEST(TigadiPerft, AgreesWithTheReferenceFromTheStartToDepthFour) {
  Tigadi g;
  EXPECT_EQ(perft(g, 4), ref_perft(ref_from(g.state_json()), 4));
}

}  // namespace
}  // namespace tabula::tigadi
