// The catalogue of games. A new game adds its one entry here and its own folder; nothing else changes.
#include "core/game.h"
#include "games/facet/facet.h"
#include "games/stratego/stratego.h"
#include "games/tigadi/tigadi.h"
#include "games/truth/truth.h"

namespace tabula {

const std::vector<GameKind>& game_kinds() {
  static const std::vector<GameKind> kinds = {
      GameKind{
          "tigadi",
          "Tigadi",
          {2},
          json::object(),
          {1, 2, 3, 4, 5},
          [](const json& options) -> std::unique_ptr<Game> {
            tigadi::Tigadi::check_options(options);
            return std::make_unique<tigadi::Tigadi>();
          },
          [](const json& state) -> std::unique_ptr<Game> { return tigadi::Tigadi::from_state(state); },
          {},
          false,
          {{2, {}, json::object()}},
          /*ai_quiescence=*/true,
          // docs/strength-history.md (Tigadi, 2026-12-02): with the order hints, late move reductions reach deeper
          // at equal nodes and do not lose strength.
          /*ai_late_move_reductions=*/true,
          /*ai_late_move_pruning=*/false,
          /*ai_hidden_search=*/GameKind::HiddenSearch::determinized,
          // Levels 3 and 4 (docs/strength.md, the ladders): level 5's 2 s is millions of nodes here, and
          // tenfold steps did not separate the levels (200,000 nodes against 20,000 63.3%, 2 s against 200,000
          // 65.0%); twentyfold ones do.
          /*ai_level2_nodes=*/0,
          /*ai_level3_nodes=*/5'000,
          /*ai_level4_nodes=*/100'000,
          /*ai_best_reply=*/false,
      },
      GameKind{
          "stratego",
          "Stratego",
          {2},
          stratego::Options{}.to_json(),
          {1, 2, 3, 4, 5},
          [](const json& options) -> std::unique_ptr<Game> {
            return std::make_unique<stratego::Stratego>(stratego::Options::from_json(options));
          },
          [](const json& state) -> std::unique_ptr<Game> { return stratego::Stratego::from_state(state); },
          stratego::Stratego::named_arrangements(),
          true,
          {{2, stratego::Stratego::named_arrangements(), stratego::Options{}.to_json()}},
          /*ai_quiescence=*/true,
          /*ai_late_move_reductions=*/false,
          /*ai_late_move_pruning=*/false,
          /*ai_hidden_search=*/GameKind::HiddenSearch::determinized,
          // Level 3 scored 62.5% against level 2 at 2,000 nodes over 40 games (with the Flag's shield), 75% at 700;
          // level 2 at 700 still beats random play 40-0. Level 4 scored 62.5% against level 3 at 200,000 nodes over
          // 40 games, 80% at 400,000 (docs/strength.md, the ladders).
          /*ai_level2_nodes=*/700,
          /*ai_level3_nodes=*/20'000,
          /*ai_level4_nodes=*/400'000,
          /*ai_best_reply=*/false,
      },
      GameKind{
          "facet",
          "FACET",
          {2},
          facet::Options{}.to_json(),
          {1, 2, 3, 4, 5},
          [](const json& options) -> std::unique_ptr<Game> {
            return std::make_unique<facet::Facet>(facet::Options::from_json(options));
          },
          [](const json& state) -> std::unique_ptr<Game> { return facet::Facet::from_state(state); },
          {},
          true,  // under fog
          {{2, {}, facet::Options{}.to_json()}},
          /*ai_quiescence=*/true,
          /*ai_late_move_reductions=*/false,
          /*ai_late_move_pruning=*/false,
          // Under fog: information-set MCTS beat determinized voting against today's level 3 (docs/ai.md, Levels).
          /*ai_hidden_search=*/GameKind::HiddenSearch::ismcts,
          /*ai_level2_nodes=*/0,
          /*ai_level3_nodes=*/20'000,
          /*ai_level4_nodes=*/200'000,
          /*ai_best_reply=*/false,
      },
      GameKind{
          "truth",
          "The Game of Truth",
          {2, 4},
          truth::Options{}.to_json(),
          {1, 2, 3, 4, 5},
          [](const json& options) -> std::unique_ptr<Game> {
            return std::make_unique<truth::Truth>(truth::Options::from_json(options));
          },
          [](const json& state) -> std::unique_ptr<Game> { return truth::Truth::from_state(state); },
          truth::Truth::named_arrangements(),
          true,  // each army's setup, until every army is in
          {{2, truth::Truth::named_arrangements(), truth::Options{}.to_json()},
           {4, truth::Truth::named_arrangements(), truth::Options{4}.to_json()}},
          // Quiescence: Truth::is_capture reads the board (tactics::takes_piece), as cheap as a leaf.
          /*ai_quiescence=*/true,
          /*ai_late_move_reductions=*/true,
          /*ai_late_move_pruning=*/true,
          /*ai_hidden_search=*/GameKind::HiddenSearch::determinized,
          // Level 2's 2,000 nodes do not finish one turn (two actions) here, and level 3's 15,000 finish it and
          // little more: level 3 scored 60% against it. With 500, 86.7% over 60 games, and level 2 still 91.2%
          // against random play (docs/strength.md, Truth's level 2).
          /*ai_level2_nodes=*/500,
          /*ai_level3_nodes=*/15'000,
          /*ai_level4_nodes=*/80'000,
          /*ai_best_reply=*/true,
      },
  };
  return kinds;
}

}  // namespace tabula
