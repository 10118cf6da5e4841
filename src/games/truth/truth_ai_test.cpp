// The AI playing The Game of Truth: on hand-built positions with a node budget (deterministic), it takes a
// free burn of the enemy icon, does not leave its own icon to a one-action burn, and answers a stalemate
// agreement from its evaluation; the cheap tactical tests the evaluation relies on agree with the rules on
// random games; and level 3 beats random play in a short fixed-seed match. The 100-game matches are in
// docs/strength-history.md.
#include "ai/ai.h"
#include "ai/match.h"
#include "core/session.h"
#include "core/testing.h"
#include "games/truth/tactics.h"
#include "games/truth/truth.h"

#include <gtest/gtest.h>

namespace tabula::truth {
namespace {

constexpr int kScale = tabula::testing::kSanitized ? 10 : 1;

ai::Limits budget(int nodes, uint64_t seed = 1) {
  ai::Limits l;
  l.level = 3;
  l.nodes = nodes;
  l.seed = seed;
  return l;
}

Session position(json board, json extra = json::object()) {
  json state = {{"game", "truth"}, {"phase", "play"}, {"board", std::move(board)}};
  for (auto it = extra.begin(); it != extra.end(); ++it) state[it.key()] = *it;
  return Session::from_state("truth", state);
}

const Position& pos_of(const Session& s) { return static_cast<const Truth&>(s.game()).position(); }

// Ivory's lantern on c10 sees h15, beside Jade's icon on i16, down an open diagonal: one action burns it.
// Ivory's linesman on k8 could instead jump Jade's lantern on l9, and its guardian take material; the burn
// ends the game.
TEST(TruthAI, TakesAFreeBurnOfTheEnemyIcon) {
  Session s = position({{"i2", "0I"},  {"h3", "0G"},  {"c10", "0L"}, {"k8", "0N"}, {"b3", "0D"}, {"d3", "0D"},
                        {"p7", "0D"},  {"i16", "1I"}, {"j17", "1G"}, {"l9", "1L"}, {"n13", "1D"}, {"b15", "1D"},
                        {"o16", "1D"}, {"g4", "1D"}});
  const ai::Choice c = ai::choose_move(s.game(), budget(3000));
  EXPECT_EQ(c.move, "c10-h15") << c.info.dump();
  s.play(c.move);
  ASSERT_TRUE(s.over());
  EXPECT_EQ(s.game().result()->winners, std::vector<Player>{0});
  EXPECT_EQ(s.game().result()->reason, "icon-destroyed");
}

// Jade's lantern on n9 looks down k6-l7-m8 at j5, beside Ivory's icon on i4: unless Ivory's turn closes
// that diagonal, moves the icon or removes the lantern, Jade burns the icon with its next action. Ivory's
// guardian on e8 could instead take Jade's sentry on e6 (worth 5) from f7.
TEST(TruthAI, DoesNotLeaveItsIconToAOneActionBurn) {
  Session s = position({{"i4", "0I"},  {"h5", "0G"},  {"b3", "0D"},  {"d3", "0D"},  {"n3", "0D"},  {"f5", "0D"},
                        {"e8", "0G"},  {"i16", "1I"}, {"h15", "1G"}, {"j15", "1G"}, {"n9", "1L"}, {"e6", "1S"},
                        {"n13", "1D"}, {"b15", "1D"}, {"o16", "1D"}, {"f13", "1D"}});
  ASSERT_EQ(pos_of(s).to_move, 0);
  for (int action = 0; action < 2 && !s.over() && pos_of(s).to_move == 0; ++action) {
    const ai::Choice c = ai::choose_move(s.game(), budget(20'000));
    s.play(c.move);
  }
  ASSERT_FALSE(s.over());
  ASSERT_EQ(pos_of(s).to_move, 1);
  for (const std::string& reply : s.legal()) {
    Session after = s.clone();
    after.play(reply);
    EXPECT_FALSE(after.over() && after.game().result()->winners == std::vector<Player>{1})
        << "Jade burns with " << reply << "\n"
        << s.state().dump();
  }
}

// Jade agrees to the scored stalemate; Ivory answers from its evaluation. Quiet positions, no lantern near
// an icon: behind on points (and material) it accepts, well ahead it declines.
TEST(TruthAI, AnswersAStalemateAgreementFromItsEvaluation) {
  const json board = {{"i2", "0I"},  {"h3", "0G"},  {"j3", "0G"},  {"b3", "0D"},  {"d3", "0D"},  {"f3", "0D"},
                      {"n3", "0D"},  {"c6", "0N"},  {"i16", "1I"}, {"h17", "1G"}, {"j17", "1G"}, {"b15", "1D"},
                      {"d15", "1D"}, {"f15", "1D"}, {"n15", "1D"}, {"c12", "1N"}};
  auto answer = [&](json scores, json extra_board, int to_move) {
    json b = board;
    for (auto it = extra_board.begin(); it != extra_board.end(); ++it) b[it.key()] = *it;
    Session s = position(b, {{"scores", scores}, {"stalemate_agreed", {1}}, {"to_move", to_move}});
    EXPECT_TRUE(s.game().offer_stands("stalemate", 0));
    return ai::accepts_offer(s.game(), 0, "stalemate", budget(5'000));
  };
  // Level: the same pieces mirrored, no points.
  EXPECT_TRUE(answer({0, 0}, json::object(), 0));
  EXPECT_TRUE(answer({0, 0}, json::object(), 1));
  // Worse: Jade has won 25 points and has an extra linesman.
  EXPECT_TRUE(answer({0, 25}, {{"m12", "1N"}}, 0));
  EXPECT_TRUE(answer({0, 25}, {{"m12", "1N"}}, 1));
  // Clearly ahead: Ivory has won 45 points and has an extra sentry.
  EXPECT_FALSE(answer({45, 0}, {{"m6", "0S"}}, 0));
  EXPECT_FALSE(answer({45, 0}, {{"m6", "0S"}}, 1));
}

// The cheap tests against the rules, on random games: an action flagged as taking an enemy piece takes one,
// and every action that takes one is flagged (but a lantern-guardian's, whose route can be intercepted);
// burn_available says exactly whether some legal action burns an enemy icon.
TEST(TruthAI, TheCheapTacticalTestsAgreeWithPlayingTheActionsOut) {
  int flagged = 0, burns = 0;
  for (int game = 0; game < 60 / kScale; ++game) {
    Rng rng(0x5441435449ULL + static_cast<uint64_t>(game));
    Session s = Session::create("truth", json{{"players", 2}, {"max_plies", 300}});
    for (int p = 0; p < 2; ++p) s.setup_arrangement(p, game % 3 == 0 ? "suggested" : "random", rng.next());
    for (int step = 0; !s.over() && step < 600; ++step) {
      const Position& p = pos_of(s);
      const std::string where = "game " + std::to_string(game) + " step " + std::to_string(step);
      MoveList moves;
      rules::legal_actions(p, moves);
      bool burn = false;
      for (Move m : moves) {
        if (TruthMove::is_pass(m)) continue;
        Position next = p;
        int before = 0, after = 0;
        for (int k = 0; k < kKinds; ++k) before += p.count[1 - p.to_move][k];
        rules::play(next, m, nullptr);
        for (int k = 0; k < kKinds; ++k) after += next.count[1 - p.to_move][k];
        const bool takes = after < before;
        const uint8_t mover = p.board[static_cast<size_t>(TruthMove::from(m))];
        const bool quick = tactics::takes_piece(p, m);
        if (quick) {
          EXPECT_TRUE(takes) << where << " " << s.game().move_to_string(m);
        }
        if (takes && !p.lantern_guardian(mover)) {
          EXPECT_TRUE(quick) << where << " " << s.game().move_to_string(m);
        }
        flagged += quick;
        const bool burned = next.phase == Phase::over && !next.icon_stands(1 - p.to_move) && next.icon_stands(p.to_move);
        if (burned && p.lantern_role(mover)) burn = true;
      }
      if (p.action == 0 || p.door_action_done) EXPECT_EQ(tactics::burn_available(p), burn) << where;
      else EXPECT_FALSE(tactics::burn_available(p)) << where;
      burns += burn;
      if (HasFailure()) return;
      s.play(s.game().move_to_string(moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))]));
    }
  }
  std::printf("%d actions flagged as takes, %d positions with a burn on offer\n", flagged, burns);
  EXPECT_GT(flagged, 0);
  EXPECT_GT(burns, 0);
}

// Level 3 with a node budget against random play, from random arrangements: every game won.
TEST(TruthAI, LevelThreeBeatsRandomInAFixedSeedMatch) {
  const int games = tabula::testing::kSanitized ? 1 : 2;
  ai::MatchConfig config;
  config.game = "truth";
  config.games = games;
  config.seed = 2026;
  config.max_plies = 1000;
  config.a = ai::default_limits(3);
  config.a.ms.reset();
  config.a.nodes = 5'000;
  config.b = ai::default_limits(1);
  const ai::MatchResult r = ai::play_match(config);
  EXPECT_EQ(r.a_wins, games) << r.draws << " draws, " << r.b_wins << " losses";
}

}  // namespace
}  // namespace tabula::truth
