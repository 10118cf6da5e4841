// The AI playing The Game of Truth: on hand-built positions with a node budget (deterministic), it takes a
// free burn of the enemy icon, does not leave its own icon to a one-action burn, and answers a stalemate
// agreement from its evaluation; the cheap tactical tests the evaluation relies on agree with the rules on
// random games; and level 3 beats random play in a short fixed-seed match. The 100-game matches are in
// docs/strength-history.md.
#include "ai/ai.h"
#include "ai/match.h"
#include "ai/search.h"
#include "core/session.h"
#include "core/testing.h"
#include "games/truth/moves.h"
#include "games/truth/tactics.h"
#include "games/truth/truth.h"

#include <gtest/gtest.h>

#include <optional>

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

// The search tries takes first, the richest first: in the position above (without Jade's door on g4, which
// Ivory's guardian takes whatever Ivory plays first), burning Jade's icon (c10-h15) before the linesman's jump
// over a lantern (k8-m10, worth a lantern), and that before every action that takes nothing.
TEST(TruthAI, ABurnIsTriedBeforeAnyOtherTakeAndATakeBeforeAQuietAction) {
  Session s = position({{"i2", "0I"},  {"h3", "0G"},  {"c10", "0L"}, {"k8", "0N"}, {"b3", "0D"}, {"d3", "0D"},
                        {"p7", "0D"},  {"i16", "1I"}, {"j17", "1G"}, {"l9", "1L"}, {"n13", "1D"}, {"b15", "1D"},
                        {"o16", "1D"}});
  auto hint = [&](const std::string& text) {
    const std::optional<Move> m = find_legal_move(s.game(), text);
    EXPECT_TRUE(m) << text;
    return m ? s.game().order_hint(*m) : -1;
  };
  EXPECT_EQ(hint("c10-h15"), 100'000);  // the icon
  EXPECT_EQ(hint("k8-m10"), 100);       // a lantern
  EXPECT_EQ(hint("b3-a4"), 0);
  // Every action's hint is positive exactly when the action takes something (is_capture), over the whole list.
  MoveList moves;
  s.game().legal_moves(moves);
  for (Move m : moves) EXPECT_EQ(s.game().order_hint(m) > 0, s.game().is_capture(m)) << s.game().move_to_string(m);
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
// burn_available says exactly whether some legal action burns an enemy icon; each icon burnable_in_two names
// burns in the turn's two actions; sentry_take is what the sentry's best leap gains.
TEST(TruthAI, TheCheapTacticalTestsAgreeWithPlayingTheActionsOut) {
  int flagged = 0, burns = 0, sentry_checks = 0, burns_in_two = 0;
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
        EXPECT_EQ(tactics::take_value(p, m) > 0, quick) << where << " " << s.game().move_to_string(m);  // the ordering's
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
      // sentry_take: no legal leap of a sentry that may act gains more (enemy pieces crossed, less the sentry
      // when it dies), and when every square it reaches is a legal action, the best one gains exactly that.
      {
        int best = 0;
        for (int id = p.to_move * kArmySize; id < (p.to_move + 1) * kArmySize; ++id)
          if (p.piece(id).alive() && p.piece(id).kind == kSentry) best = std::max(best, tactics::sentry_take(p, id));
        EXPECT_EQ(tactics::best_sentry_take(p, p.to_move), best) << where;
      }
      if (!p.is_transformed(0) && !p.is_transformed(1)) {
        for (int id = p.to_move * kArmySize; id < (p.to_move + 1) * kArmySize; ++id) {
          if (!p.piece(id).alive() || p.piece(id).kind != kSentry || !rules::may_act(p, id)) continue;
          int leaps = 0, reachable = 0, best = 0;
          rules::for_each_destination(p, id, [&](int) { ++reachable; return false; });
          for (Move m : moves) {
            if (TruthMove::is_pass(m) || TruthMove::from(m) != p.piece(id).square) continue;
            Position next = p;
            rules::play(next, m, nullptr);
            if (next.phase == Phase::over) continue;
            ++leaps;
            int net = next.piece(id).alive() ? 0 : -500;
            for (int e = (1 - p.to_move) * kArmySize; e < (2 - p.to_move) * kArmySize; ++e)
              if (p.piece(e).alive() && !next.piece(e).alive() && p.piece(e).kind != kIcon)
                net += p.piece(e).kind == kGuardian ? 2'000 : p.piece(e).kind >= kLinesman ? 500 : 100;
            EXPECT_LE(net, tactics::sentry_take(p, id)) << where << " " << s.game().move_to_string(m);
            best = std::max(best, net);
          }
          if (leaps == reachable) {
            EXPECT_EQ(best, tactics::sentry_take(p, id)) << where << " sentry " << id;
          }
          sentry_checks += leaps > 0;
        }
      }
      // burnable_in_two is sound: each icon it names burns by some door action and the next action (the first
      // 200 such positions: each costs every pair of actions).
      if (const uint8_t in_two = burns_in_two < 200 ? tactics::burnable_in_two(p) : 0) {
        uint8_t found = 0;
        for (Move first : moves) {
          if (TruthMove::is_pass(first)) continue;
          Position mid = p;
          rules::play(mid, first, nullptr);
          if (mid.phase != Phase::play || mid.to_move != p.to_move) continue;
          MoveList seconds;
          rules::legal_actions(mid, seconds);
          for (Move second : seconds) {
            if (TruthMove::is_pass(second)) continue;
            Position end = mid;
            rules::play(end, second, nullptr);
            for (int q = 0; q < 2; ++q)
              if (q != p.to_move && p.icon_stands(q) && !end.icon_stands(q)) found = static_cast<uint8_t>(found | (1u << q));
          }
        }
        EXPECT_EQ(found & in_two, in_two) << where;
        burns_in_two += 1;
      }
      if (p.action == 0 || p.door_action_done) EXPECT_EQ(tactics::burn_available(p), burn) << where;
      else EXPECT_FALSE(tactics::burn_available(p)) << where;
      burns += burn;
      if (HasFailure()) return;
      s.play(s.game().move_to_string(moves[static_cast<int>(rng.below(static_cast<uint64_t>(moves.size())))]));
    }
  }
  std::printf("%d actions flagged as takes, %d positions with a burn on offer, %d with a burn in two actions, %d "
              "sentries' leaps checked\n", flagged, burns, burns_in_two, sentry_checks);
  EXPECT_GT(flagged, 0);
  EXPECT_GT(sentry_checks, 0);
  EXPECT_GT(burns_in_two, 0);
  EXPECT_GT(burns, 0);
}

// A sentry's leap takes every enemy piece but an icon on the lattice points it crosses. Ivory's sentry on g6
// (its icon on i4) leaps to m6 over i6 and k6: Jade's linesman and door, 600. A Jade guardian on l5 touching
// m6 would kill it there: 600 less the sentry's 500. Nothing to cross: 0.
TEST(TruthAI, ASentryThreatensEveryEnemyPieceItsLeapWouldCross) {
  const json board = {{"i4", "0I"},  {"g6", "0S"},  {"b3", "0D"},  {"d3", "0D"},  {"i16", "1I"},
                      {"h15", "1G"}, {"i6", "1N"},  {"k6", "1D"},  {"b15", "1D"}, {"d15", "1D"}};
  const auto sentry_take = [](const Session& s, const std::string& sq) {
    const Position& p = pos_of(s);
    return tactics::sentry_take(p, p.at(parse_square(sq)));
  };
  EXPECT_EQ(sentry_take(position(board), "g6"), 600);
  json guarded = board;
  guarded["l5"] = "1G";
  EXPECT_EQ(sentry_take(position(guarded), "g6"), 100);
  json empty = board;
  empty.erase("i6");
  empty.erase("k6");
  EXPECT_EQ(sentry_take(position(empty), "g6"), 0);
}

// A burn in two actions: Ivory's lantern on c10 looks at h15, beside Jade's icon on i16, through one of its own
// doors on d11, which can step off the diagonal (to c12 or e10): the door action opens the line, the lantern
// burns. With the door unable to step off (c12 and e10 held) or a Jade door as the obstruction, nothing; with
// one action left (the door action made elsewhere), nothing either.
TEST(TruthAI, ADoorThatOpensItsOwnLanternsLineToTheIconIsABurnInTwoActions) {
  const json board = {{"i2", "0I"},  {"h3", "0G"},  {"c10", "0L"}, {"d11", "0D"}, {"b3", "0D"},
                      {"d3", "0D"},  {"i16", "1I"}, {"j17", "1G"}, {"n13", "1D"}, {"b15", "1D"}, {"o16", "1D"}};
  const auto in_two = [](const Session& s) { return tactics::burnable_in_two(pos_of(s)); };
  EXPECT_EQ(tactics::burnable_icons(pos_of(position(board))), 0);
  EXPECT_EQ(in_two(position(board)), 0b10);
  json held = board;
  held["c12"] = "1D";
  held["e10"] = "1D";
  EXPECT_EQ(in_two(position(held)), 0);
  json theirs = board;
  theirs["d11"] = "1D";
  EXPECT_EQ(in_two(position(theirs)), 0);
  Session later = position(board);
  later.play("b3-a4");
  EXPECT_EQ(in_two(later), 0);
  // The AI takes it: the door first, then the burn.
  Session s = position(board);
  s.play(ai::choose_move(s.game(), budget(2000)).move);
  s.play(ai::choose_move(s.game(), budget(2000)).move);
  ASSERT_TRUE(s.over());
  EXPECT_EQ(s.game().result()->winners, std::vector<Player>{0});
}

// How much more Ivory's evaluation is with `piece` on `near` than on `far`, the rest of `board` (and `extra`, as
// for position()) the same.
int ivory_gain(const json& board, const char* piece, const char* near, const char* far,
               const json& extra = json::object()) {
  json with_near = board, with_far = board;
  with_near[near] = piece;
  with_far[far] = piece;
  return position(with_near, extra).game().evaluate_for(0) - position(with_far, extra).game().evaluate_for(0);
}

// A linesman takes lanterns by jumping them, so the evaluation draws it towards the nearest enemy lantern:
// the same position with Ivory's linesman three steps from Jade's lantern on l13 (on k10) rather than seven
// (on e6, out of reach of anything) is worth 4 steps more to Ivory. Jade's guardian stands on g18, eight steps
// or more from both squares, so that its own pull towards Ivory's pieces is the same in both.
TEST(TruthAI, ALinesmanIsDrawnTowardsTheEnemyLanterns) {
  const json board = {{"i2", "0I"},  {"h3", "0G"},  {"b3", "0D"},  {"d3", "0D"},  {"i16", "1I"},
                      {"g18", "1G"}, {"l13", "1L"}, {"b15", "1D"}, {"d15", "1D"}};
  EXPECT_EQ(ivory_gain(board, "0N", "k10", "e6"), 4 * 8);
}

// A guardian destroys the enemy doors, lanterns, linesmen and sentries it touches but stays within four steps of
// its icon, so with two players the evaluation draws it towards the nearest of them (and with it the icon
// forward): Ivory's guardian on g6, five steps from Jade's door on f11, rather than on g4, seven from it (both
// out of reach of a take in one move and away from the icon's neighbours), is worth 2 steps more to Ivory.
TEST(TruthAI, AGuardianIsDrawnTowardsTheEnemyPiecesItDestroys) {
  const json board = {{"i2", "0I"},  {"b3", "0D"},  {"d3", "0D"},  {"i16", "1I"},
                      {"h17", "1G"}, {"f11", "1D"}, {"b15", "1D"}, {"d15", "1D"}};
  EXPECT_EQ(ivory_gain(board, "0G", "g6", "g4"), 2 * 10);
  // With four players the pull is off (an icon drawn forward meets three armies; docs/strength.md): the same two
  // squares, Ember's and Indigo's icons in their corners, are worth the same.
  json four = board;
  four["q1"] = "2I";
  four["a18"] = "3I";
  EXPECT_EQ(ivory_gain(four, "0G", "g6", "g4", {{"options", {{"players", 4}}}}), 0);
}

// An icon's step moves its guardians' tether, so a guardian reaches next turn what its range keeps it from now:
// for the player to move with its whole turn ahead (its icon may step in it, beside the door action), what the
// guardian takes after that step counts among its threats (half a linesman, 250). Ivory's guardian on i4, two
// steps from its icon on i2, touches nothing Jade has; Jade's linesman on m8 is touched from l7, five steps from
// the icon (out of the guardian's range) but three from k4, where the icon can step. With the linesman on m16
// instead, only the guardian's pull towards it differs (4 steps from i4, 40). With one action left, or with four
// players (where the pull is off too): nothing but the pull. Without this, the search saw a linesman one icon
// step from a guardian as safe, and lost it (docs/ai.md).
TEST(TruthAI, AGuardianThreatensWhatItReachesOnceItsIconHasStepped) {
  const json board = {{"i2", "0I"},  {"i4", "0G"},  {"b3", "0D"},  {"d3", "0D"},
                      {"i16", "1I"}, {"g18", "1G"}, {"b15", "1D"}, {"d15", "1D"}};
  EXPECT_EQ(ivory_gain(board, "1N", "m16", "m8"), -(4 * 10 + 500 * 50 / 100));
  EXPECT_EQ(ivory_gain(board, "1N", "m16", "m8", {{"action", 1}}), -(4 * 10));
  json four = board;
  four["q1"] = "2I";
  four["a18"] = "3I";
  EXPECT_EQ(ivory_gain(four, "1N", "m16", "m8", {{"options", {{"players", 4}}}}), 0);
}

// At the turn limit the game ends by score (the top score wins), so over the last 8 rounds the evaluation slides
// towards what decides it there: a living piece counts less and less, and the rivals are weighed by the
// strongest rather than by their average. Four players, a 100-turn limit (8 rounds are its last 32 turns): at
// turn 0 an extra Ivory door is worth its 100 and 60 points held by one rival weigh as 20 by each of three; at
// turn 84, halfway into the last rounds, the door is worth 50 and the lone rival's lead of 40 weighs 20 points.
TEST(TruthAI, TowardsTheTurnLimitPointsWonCountAndLivingPiecesFade) {
  const json corners = {{"a1", "0I"},  {"c1", "0D"},  {"e1", "0D"},  {"q18", "1I"}, {"o18", "1D"}, {"m18", "1D"},
                        {"q1", "2I"},  {"o1", "2D"},  {"m1", "2D"},  {"a18", "3I"}, {"c18", "3D"}, {"e18", "3D"}};
  const auto ivory = [&](int ply, json scores, bool extra_door) {
    json board = corners;
    if (extra_door) board["g1"] = "0D";
    const json state = {{"game", "truth"}, {"options", {{"players", 4}, {"max_plies", 100}}}, {"phase", "play"},
                        {"to_move", 0},    {"ply", ply},  {"board", board},  {"scores", std::move(scores)}};
    return Session::from_state("truth", state).game().evaluate_for(0);
  };
  const json even = {0, 20, 20, 20}, one_leads = {0, 60, 0, 0};
  const int door_early = ivory(0, even, true) - ivory(0, even, false);
  const int door_late = ivory(84, even, true) - ivory(84, even, false);
  EXPECT_EQ(door_early - door_late, 50);
  // Each rival's third is rounded on its own: equal within two hundredths of a door.
  EXPECT_NEAR(ivory(0, even, false), ivory(0, one_leads, false), 2);
  EXPECT_NEAR(ivory(84, even, false) - ivory(84, one_leads, false), 20 * 100, 2);
  // What Ivory has won itself counts whole, early and late.
  EXPECT_EQ(ivory(0, {10, 20, 20, 20}, false) - ivory(0, even, false), 10 * 100);
  EXPECT_EQ(ivory(84, {10, 20, 20, 20}, false) - ivory(84, even, false), 10 * 100);
}

// Best-reply search (GameKind::ai_best_reply) skips opponents' turns: with four players a turn not yet begun can
// be skipped (the next army is to move, the turn count and everything else as it was) and the skip undone
// exactly; within a turn, or with two players, never.
TEST(TruthAI, WithFourPlayersATurnNotBegunCanBeSkippedForTheSearchAndTheSkipUndone) {
  Session s = Session::create("truth", {{"players", 4}});
  for (Player p = 0; p < 4; ++p) s.setup_arrangement(p, "suggested", 0);
  std::unique_ptr<Game> g = s.game().clone();
  ASSERT_TRUE(g->turn_skippable());
  const json before = g->state_json();
  const uint64_t hash = g->hash();
  g->skip_turn();
  EXPECT_EQ(g->to_move(), 1);
  EXPECT_EQ(g->ply(), 0);
  EXPECT_NE(g->hash(), hash);
  json skipped = g->state_json();
  skipped["to_move"] = 0;
  EXPECT_EQ(skipped, before) << "only the player to move changed";
  g->undo_skip_turn();
  EXPECT_EQ(g->state_json(), before);
  EXPECT_EQ(g->hash(), hash);
  // Within a turn: not skippable.
  MoveList moves;
  g->legal_moves(moves);
  g->apply(moves[0]);
  EXPECT_FALSE(g->turn_skippable());
  // Two players: never.
  Session two = Session::create("truth", json::object());
  for (Player p = 0; p < 2; ++p) two.setup_arrangement(p, "suggested", 0);
  EXPECT_FALSE(two.game().turn_skippable());
}

// Late move pruning (GameKind::ai_late_move_pruning, on for Truth): near the horizon a node that need not be
// exact searches its takes, killers and first quiet actions only. A 4-action search from the suggested
// arrangements visits fewer nodes with it, and the pruned search still burns the icon it can burn and still
// finds the burn two actions deep (the door action first, then the burn).
TEST(TruthAI, LateMovePruningSearchesLessAndKeepsTheTactics) {
  const auto search = [](const Session& s, int depth, bool prune) {
    std::unique_ptr<Game> g = s.game().clone();
    ai::SearchParams params;
    params.max_depth = depth;
    params.late_move_reductions = true;
    params.late_move_pruning = prune;
    params.seed = 1;
    ai::Searcher searcher(size_t{1} << 16);
    const ai::SearchResult r = searcher.run(*g, params);
    return std::make_pair(r.nodes, g->move_to_string(r.best));
  };
  Session start = Session::create("truth", json::object());
  for (int p = 0; p < 2; ++p) start.setup_arrangement(p, "suggested", 0);
  const auto full = search(start, 4, false), pruned = search(start, 4, true);
  EXPECT_LT(pruned.first, full.first);
  std::printf("4 actions from the suggested arrangements: %llu nodes, %llu pruned\n",
              static_cast<unsigned long long>(full.first), static_cast<unsigned long long>(pruned.first));

  const json burn = {{"i2", "0I"},  {"h3", "0G"},  {"c10", "0L"}, {"k8", "0N"}, {"b3", "0D"},
                     {"d3", "0D"},  {"p7", "0D"},  {"i16", "1I"}, {"j17", "1G"}, {"l9", "1L"},
                     {"n13", "1D"}, {"b15", "1D"}, {"o16", "1D"}, {"g4", "1D"}};
  EXPECT_EQ(search(position(burn), 3, true).second, "c10-h15");
  // The lantern on c10 stands behind Ivory's own door on d11: the door action off the diagonal (to c12 or e10)
  // opens it, then the lantern burns.
  json behind = burn;
  behind["d11"] = "0D";
  const std::string first = search(position(behind), 4, true).second;
  EXPECT_TRUE(first == "d11-c12" || first == "d11-e10") << first;
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
