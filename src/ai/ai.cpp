#include "ai/ai.h"

#include "ai/ismcts.h"
#include "ai/search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <unordered_map>

namespace tabula::ai {

namespace {

// What a level searches with besides its budget. Hidden-information games are searched on sampled worlds, each
// with an equal share of the budget: `worlds` of them, or up to `max_worlds` when the budget gives each world at
// least kWorldNodes nodes (kWorldMs on a clock).
struct LevelPlan {
  int max_depth;
  size_t tt_entries;  // 16 bytes each
  int worlds;
  int max_worlds;
  // The worlds share one depth, and what that depth leaves of the budget buys more worlds at it (kMaxWidenedWorlds).
  bool widen = false;
};

// A world's share below which more worlds stop paying. Stratego's level 5 on 5.2 M nodes (its 2 s) against
// level 4: 24 worlds of 217,000 nodes won 20 of 30 games (66.7%; 6-0-4 over ten starts where 8 worlds of 650,000
// went 4-0-6), while its stand-in (114,000 nodes) scored less with 16 worlds than with 8 (docs/strength.md).
// 2,000 ms over 24 worlds is 83 ms a world.
constexpr uint64_t kWorldNodes = 200'000;
constexpr int kWorldMs = 80;

LevelPlan level_plan(int level) {
  switch (level) {
    case 2: return {2, size_t{1} << 14, 4, 4};
    case 3: return {kMaxPly - 1, size_t{1} << 18, 8, 8};
    case 4: return {kMaxPly - 1, size_t{1} << 20, 12, 12};
    // Eight worlds, each deeper, not sixteen, on a small budget: Stratego's level-5 stand-in (114,000 nodes)
    // against today's level 3 scored 78.5% with eight where sixteen scored 75.2%, over the same 400 games, more on
    // both seeds (docs/strength.md); at level 3's budget four and sixteen scored less than eight. On level 5's own
    // budget, up to 24.
    default: return {kMaxPly - 1, size_t{1} << 20, 8, 24, /*widen=*/true};
  }
}

// Widening (level 5): a world's search deepens until its share of the budget runs out, and the iteration that
// does not finish is thrown away (scores added across worlds must all come from finished iterations). On
// Stratego's 5.2 M nodes a world of 217,000 finishes depth 4 on a fraction of it and throws the rest away in
// depth 5. So the first world whose budget stopped it sets the depth every later world searches to, and what the
// worlds leave at that depth is spent on more of them, up to this many: more worlds at the same depth make the
// vote a closer estimate of each move's worth over the seat's beliefs, and cost no depth.
constexpr int kMaxWidenedWorlds = 128;

// How many worlds a search of this budget samples: the plan's, or more while each keeps its share.
int worlds_for(const LevelPlan& plan, const Limits& limits) {
  if (plan.max_worlds <= plan.worlds) return plan.worlds;
  const uint64_t affordable = limits.nodes ? *limits.nodes / kWorldNodes
                              : limits.ms  ? static_cast<uint64_t>(std::max(*limits.ms, 0) / kWorldMs)
                                           : 0;
  return static_cast<int>(std::clamp<uint64_t>(affordable, static_cast<uint64_t>(plan.worlds),
                                               static_cast<uint64_t>(plan.max_worlds)));
}

// The game's catalogue entry says whether quiescence is worth its cost there and whether late move reductions
// suit its ordering (a game made outside the registry, as in tests, gets quiescence and no reductions).
void search_features_for(const Game& game, SearchParams& params) {
  params.quiescence = true;
  params.late_move_reductions = false;
  params.late_move_pruning = false;
  params.best_reply = false;
  for (const GameKind& k : game_kinds())
    if (k.name == game.kind()) {
      params.quiescence = k.ai_quiescence;
      params.late_move_reductions = k.ai_late_move_reductions;
      params.late_move_pruning = k.ai_late_move_pruning;
      params.best_reply = k.ai_best_reply;
    }
}

// How the game's catalogue entry says positions with hidden information are searched (a game made outside the
// registry, as in tests, is searched by determinization).
GameKind::HiddenSearch hidden_search_for(const Game& game) {
  for (const GameKind& k : game_kinds())
    if (k.name == game.kind()) return k.ai_hidden_search;
  return GameKind::HiddenSearch::determinized;
}

std::chrono::steady_clock::time_point now(const Clock& clock) {
  return clock ? clock() : std::chrono::steady_clock::now();
}

// A single move, or the standing-offer question, needs only a rough score: a small fixed budget.
constexpr uint64_t kSingleMoveNodes = 1'000;
constexpr uint64_t kOfferNodes = 20'000;
constexpr int kOfferWorlds = 4;

// Adding up worlds: each world's score counts as a chance of winning (Game::world_score_scale), in millionths,
// so a move's total is its expected result over the worlds: a forced win counts 1 (less its distance, so the
// faster win is preferred), a loss 0 (more its distance), and every other score lies between the slowest
// win and the slowest loss. Counted as amounts of material instead, a win that a few worlds dealt outvoted
// what the move lost in all the others, whether the seat stood ahead or behind (docs/ai.md).
constexpr long long kVoteUnit = 1'000'000;

int vote_value(int score, int scale) {
  if (is_win_score(score)) return static_cast<int>(kVoteUnit) - std::min(kWin - score, kMaxWinDistance);
  if (is_loss_score(score)) return std::min(kWin + score, kMaxWinDistance);
  const double chance = win_chance(score, scale);
  return std::clamp(static_cast<int>(std::lround(static_cast<double>(kVoteUnit) * chance)), kMaxWinDistance + 1,
                    static_cast<int>(kVoteUnit) - kMaxWinDistance - 1);
}

// A move's average vote in evaluate()'s units again (what `info.score` reports). Never a forced win's score: an
// average near 1 may hold a world that does not win (a move every world wins reports about 13.8 × the scale).
int score_of_vote(long long total, int worlds, int scale) {
  const double unit = static_cast<double>(kVoteUnit);
  const double mean = static_cast<double>(total) / std::max(worlds, 1);
  return score_of_chance(std::clamp(mean, 1.0, unit - 1) / unit, scale);
}

// A level's defaults in this game for whatever the caller left unset.
Limits effective_limits(const Game& game, const Limits& given) {
  Limits l = given;
  l.level = std::clamp(l.level, kMinLevel, kMaxLevel);
  if (!l.ms && !l.nodes) {
    Limits d = level_limits(game.kind(), l.level);
    l.ms = d.ms;
    l.nodes = d.nodes;
  }
  if (l.nodes) l.ms.reset();  // a node budget means a reproducible search: the clock is not read
  return l;
}

json pv_strings(Game& g, const std::vector<Move>& pv) {
  json out = json::array();
  int applied = 0;
  for (Move m : pv) {
    if (g.phase() != Phase::play) break;
    out.push_back(g.move_to_string(m));
    g.apply(m);
    ++applied;
  }
  for (int i = 0; i < applied; ++i) g.undo();
  return out;
}

int elapsed_ms(const Clock& clock, std::chrono::steady_clock::time_point since) {
  return static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(now(clock) - since).count());
}

}  // namespace

Limits default_limits(int level) {
  Limits l;
  l.level = std::clamp(level, kMinLevel, kMaxLevel);
  switch (l.level) {
    case 1: break;                       // random: no budget
    case 2: l.nodes = 2'000; break;      // depth 2 at most (level_plan), and few nodes
    // 350 ms: what the Game of Truth's level 3 was measured with against level 2 (75,000 nodes, about 340 ms
    // an action on the 2-core test machine; docs/strength-history.md), under the half second an action may take.
    case 3: l.ms = 350; break;
    case 4: l.ms = 1'000; break;
    default: l.ms = 2'000; break;  // the strongest level answers within 2 s on one core
  }
  return l;
}

Limits level_limits(std::string_view kind, int level) {
  Limits l = default_limits(level);
  for (const GameKind& k : game_kinds()) {
    if (k.name != kind) continue;
    const uint64_t nodes = l.level == 2   ? k.ai_level2_nodes
                           : l.level == 3 ? k.ai_level3_nodes
                           : l.level == 4 ? k.ai_level4_nodes
                                          : 0;
    if (nodes) {
      l.nodes = nodes;
      l.ms.reset();
    }
  }
  return l;
}

namespace {

// "20,000 positions" or "about 0.35 s": what a level's default budget is in a game, for the lobby.
std::string budget_words(std::string_view kind, int level) {
  const Limits l = level_limits(kind, level);
  if (l.nodes) {
    std::string digits = std::to_string(*l.nodes), out;
    for (size_t i = 0; i < digits.size(); ++i) {
      if (i && (digits.size() - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return out + " positions";
  }
  const int ms = l.ms.value_or(0);
  char buf[32];
  std::snprintf(buf, sizeof buf, ms % 1000 ? "about %.2g s" : "about %.0f s", ms / 1000.0);
  return buf;
}

}  // namespace

LevelInfo level_info(std::string_view kind, int level) {
  // The strength sentences summarise docs/strength.md's measurements; keep them in step with it.
  switch (std::clamp(level, kMinLevel, kMaxLevel)) {
    case 1:
      return {1, "Beginner", "Plays a random legal move. For learning the rules."};
    case 2:
      return {2, "Casual", "Looks up to two moves ahead (" + budget_words(kind, 2) + " a move). Takes what is "
                           "left hanging; a casual player beats it with a little care."};
    case 3:
      return {3, "Club", "Searches " + budget_words(kind, 3) + " a move, with captures followed to the end: "
                         "a clear step above level 2."};
    case 4:
      return {4, "Strong", "Searches " + budget_words(kind, 4) + " a move: deeper than level 3, a challenge for a "
                           "practised player."};
    default:
      return {5, "Expert", "Searches " + budget_words(kind, 5) + " a move: the strongest level."};
  }
}

Memory::Memory() = default;
Memory::~Memory() = default;
void Memory::forget() { fresh_ = true; }

Choice choose_move(const Game& game, const Limits& given, const std::atomic<bool>* stop, Memory* memory) {
  const Limits limits = effective_limits(game, given);
  const auto start = now(limits.clock);
  Rng rng(limits.seed);

  MoveList legal;
  game.legal_moves(legal);
  if (game.phase() != Phase::play || legal.empty()) fail(ErrorKind::conflict, "there is no move to choose");

  Choice choice;
  if (limits.level == 1) {
    const Move m = legal[static_cast<int>(rng.below(static_cast<uint64_t>(legal.size())))];
    choice.move = game.move_to_string(m);
    choice.info = json{{"level", 1}, {"depth", 0},  {"nodes", 0},         {"score", 0},
                       {"pv", json::array({choice.move})}, {"ms", elapsed_ms(limits.clock, start)}, {"worlds", 0}};
    return choice;
  }

  const LevelPlan plan = level_plan(limits.level);
  const Player me = game.to_move();
  // Information-set MCTS where the game's entry asks for it, from level 3 up (level 2's two-ply determinized search
  // is what makes it casual). It takes the level's budget whole; `depth` does not apply to it.
  if (game.hidden_information() && limits.level >= 3 && legal.size() > 1 &&
      hidden_search_for(game) == GameKind::HiddenSearch::ismcts) {
    IsmctsParams ip;
    ip.nodes = limits.nodes;
    ip.ms = limits.ms;
    ip.clock = limits.clock;
    ip.stop = stop;
    ip.seed = rng.next();
    SearchParams features;
    search_features_for(game, features);
    ip.quiescence = features.quiescence;
    const IsmctsResult r = ismcts_search(game, ip);
    choice.move = r.best;
    // The reported score is the chosen move's win probability in evaluation units (the inverse of the squash).
    double p = r.root.empty() ? 0.5 : r.root.front().value;
    p = std::clamp(p, 1e-4, 1 - 1e-4);
    const int score = score_of_chance(p, ip.eval_scale);
    choice.info = json{{"level", limits.level}, {"depth", r.depth}, {"nodes", r.nodes}, {"score", score},
                       {"pv", json::array({choice.move})}, {"ms", elapsed_ms(limits.clock, start)},
                       {"worlds", r.iterations}};
    return choice;
  }
  int worlds = game.hidden_information() ? worlds_for(plan, limits) : 1;
  SearchParams params;
  params.max_depth = limits.depth.value_or(plan.max_depth);
  search_features_for(game, params);
  params.clock = limits.clock;
  params.stop = stop;
  params.nodes = limits.nodes;
  params.ms = limits.ms;
  if (legal.size() == 1) {
    // Nothing to choose; search a little only to report a score.
    worlds = 1;
    params.nodes = std::min<uint64_t>(limits.nodes.value_or(kSingleMoveNodes), kSingleMoveNodes);
    params.ms.reset();
  }
  if (worlds > 1) {
    params.exact_root_scores = true;  // scores are added up across worlds
    if (params.nodes) params.nodes = std::max<uint64_t>(*params.nodes / static_cast<uint64_t>(worlds), 1);
  }

  // The true game's moves, by their strings: a world's move codes need not match the true game's.
  std::unordered_map<std::string, int> index;
  std::vector<std::string> names;
  for (Move m : legal) {
    index.emplace(game.move_to_string(m), static_cast<int>(names.size()));
    names.push_back(game.move_to_string(m));
  }
  std::vector<long long> votes(names.size(), 0);

  // The table is kept across moves only where a position's score is the same whoever searches it and in
  // whichever world (two players, one world: nothing hidden), and only on a time budget: a node budget promises
  // the same choice for the same seed, request by request (engine-protocol.md), which a kept table would break.
  std::optional<Searcher> own;
  Searcher* searcher_ptr = nullptr;
  if (memory && !limits.nodes && worlds == 1 && !game.hidden_information() && game.num_players() == 2) {
    if (!memory->searcher_ || memory->entries_ != plan.tt_entries) {
      memory->searcher_ = std::make_unique<Searcher>(plan.tt_entries);
      memory->entries_ = plan.tt_entries;
      memory->fresh_ = true;
    }
    params.keep_table = !memory->fresh_;
    memory->fresh_ = false;
    searcher_ptr = memory->searcher_.get();
  } else {
    searcher_ptr = &own.emplace(plan.tt_entries);
  }
  Searcher& searcher = *searcher_ptr;
  uint64_t nodes = 0;
  int min_depth = kMaxPly;
  int searched = 0;
  std::vector<int> best_in_world;             // single world: the moves equal to the best
  std::vector<std::vector<Move>> pv_of(names.size());  // from the first world that scored the move exactly
  std::unique_ptr<Game> pv_world;             // the world those PVs belong to, when there is one world
  int single_score = 0;
  int voted = 0;   // worlds that finished an iteration and so scored the moves
  int guess = -1;  // the first unfinished world's guess
  const std::unique_ptr<Game::WorldSampler> sampler = game.world_sampler(me, /*chained=*/false);
  // Widening (kMaxWidenedWorlds): the worlds share what is left of the budget as it is spent, every world after
  // the first one its budget stopped searches to that one's depth, and past the plan's worlds more are searched
  // while what is left pays for one at that depth (what the worlds at it cost on average; a quarter more on a
  // clock).
  const bool widen = plan.widen && worlds > 1;
  const int most_worlds = widen ? std::max(worlds, kMaxWidenedWorlds) : worlds;
  const int deepest = params.max_depth;
  std::optional<int> common_depth;
  // What the worlds that finished the common depth cost, in the budget's unit (nodes, or ms on a clock).
  uint64_t common_cost = 0;
  int common_worlds = 0;
  for (int w = 0; w < most_worlds; ++w) {
    if (w > 0 && stop && stop->load(std::memory_order_relaxed)) break;
    if (widen) {
      const uint64_t spent = limits.nodes ? nodes : static_cast<uint64_t>(elapsed_ms(limits.clock, start));
      const uint64_t budget = limits.nodes ? *limits.nodes : static_cast<uint64_t>(limits.ms.value_or(0));
      const uint64_t left = budget > spent ? budget - spent : 0;
      if (w >= worlds) {  // an extra world: only while what is left pays for one at the common depth
        if (common_worlds == 0) break;
        const uint64_t average = common_cost / static_cast<uint64_t>(common_worlds);
        if (left < (limits.nodes ? average : average * 5 / 4 + 1)) break;
      }
      if (limits.nodes) params.nodes = std::max<uint64_t>(left / static_cast<uint64_t>(std::max(worlds - w, 1)), 1);
      params.max_depth = common_depth.value_or(deepest);
    }
    std::unique_ptr<Game> world = sampler->sample(rng);
    params.seed = rng.next();
    // A time budget is shared out as it is spent: each world gets an equal part of what is left, so time a
    // world did not use goes to the ones after it (an extra world, what is left).
    if (limits.ms && worlds > 1)
      params.ms = std::max((*limits.ms - elapsed_ms(limits.clock, start)) / std::max(worlds - w, 1), 1);
    SearchResult r = searcher.run(*world, params);
    nodes += r.nodes;
    if (widen) {
      if (!common_depth) {
        if (r.stopped && r.depth > 0) common_depth = r.depth;
      } else if (r.depth >= *common_depth) {
        common_cost += limits.nodes ? r.nodes : static_cast<uint64_t>(r.ms);
        ++common_worlds;
      } else if (w >= worlds && r.stopped) {
        break;  // an extra world the budget ran out on: its shallower scores stay out of the vote
      }
    }
    ++searched;
    min_depth = std::min(min_depth, r.depth);

    if (worlds > 1 && r.root.empty()) {
      // No iteration finished in this world: it has scored no move, so it votes for none (and against none);
      // its guess is kept in case no world finishes one.
      if (guess < 0) {
        auto it = index.find(world->move_to_string(r.best));
        if (it != index.end()) guess = it->second;
      }
      continue;
    }
    ++voted;
    // A move the world does not allow gets no score from it: it counts as lost there (adds nothing).
    for (const RootScore& rs : r.root) {
      auto it = index.find(world->move_to_string(rs.move));
      if (it == index.end()) continue;  // legal in this world only: not ours to play
      votes[static_cast<size_t>(it->second)] += vote_value(rs.score, game.world_score_scale());
    }

    if (worlds == 1) {
      single_score = r.score;
      std::vector<Move> equal = r.equal_best();
      if (equal.empty()) equal.push_back(r.best);  // no finished iteration: the search's guess
      for (Move m : equal) {
        auto it = index.find(world->move_to_string(m));
        if (it != index.end()) best_in_world.push_back(it->second);
      }
      for (const RootScore& rs : r.root) {
        auto it = index.find(world->move_to_string(rs.move));
        if (it != index.end() && rs.exact) pv_of[static_cast<size_t>(it->second)] = rs.pv;
      }
      if (r.root.empty()) {
        auto it = index.find(world->move_to_string(r.best));
        if (it != index.end()) pv_of[static_cast<size_t>(it->second)] = r.pv;
      }
      pv_world = std::move(world);
    }
  }
  if (min_depth == kMaxPly) min_depth = 0;

  // The candidates: the best-scored moves; the seeded generator picks among equals so games vary.
  std::vector<int> candidates;
  if (worlds == 1) {
    candidates = best_in_world;
  } else if (voted == 0) {
    if (guess >= 0) candidates.push_back(guess);
  } else {
    const long long top = *std::max_element(votes.begin(), votes.end());
    for (size_t i = 0; i < votes.size(); ++i)
      if (votes[i] == top) candidates.push_back(static_cast<int>(i));
  }
  if (candidates.empty()) candidates.push_back(0);  // searched nothing usable: still answer legally
  const int chosen = candidates[rng.below(candidates.size())];
  choice.move = names[static_cast<size_t>(chosen)];

  json pv = json::array({choice.move});
  if (pv_world && !pv_of[static_cast<size_t>(chosen)].empty()) pv = pv_strings(*pv_world, pv_of[static_cast<size_t>(chosen)]);
  const int score = worlds == 1 ? single_score
                                : score_of_vote(votes[static_cast<size_t>(chosen)], voted, game.world_score_scale());
  choice.info = json{{"level", limits.level}, {"depth", min_depth}, {"nodes", nodes},  {"score", score},
                     {"pv", pv},              {"ms", elapsed_ms(limits.clock, start)}, {"worlds", searched}};
  return choice;
}

bool accepts_offer(const Game& game, Player player, std::string_view what, const Limits& given) {
  (void)what;  // draws and Truth's stalemate are judged alike: accept unless standing better
  if (game.phase() != Phase::play) return false;
  MoveList legal;
  game.legal_moves(legal);
  if (legal.empty()) return false;

  const Limits limits = effective_limits(game, given);
  Rng rng(limits.seed ^ 0x6f666665722d6169ULL);  // not the move search's sequence
  const int worlds = game.hidden_information() ? kOfferWorlds : 1;
  SearchParams params;
  params.max_depth = limits.depth.value_or(level_plan(limits.level).max_depth);
  search_features_for(game, params);
  params.nodes = std::max<uint64_t>(limits.nodes.value_or(kOfferNodes) / static_cast<uint64_t>(worlds), 1);
  Searcher searcher(size_t{1} << 16);
  long long total = 0;
  const std::unique_ptr<Game::WorldSampler> sampler = game.world_sampler(player, /*chained=*/false);
  for (int w = 0; w < worlds; ++w) {
    std::unique_ptr<Game> world = sampler->sample(rng);
    params.seed = rng.next();
    // The search scores for the player to move; the offer may be answered on another player's turn. With two
    // players the other's score is its negation; with more, the search (paranoid, rooted at the player to
    // move) says nothing of a third player's prospects, so that player's static evaluation answers.
    int for_player;
    if (world->to_move() == player || world->num_players() == 2) {
      const SearchResult r = searcher.run(*world, params);
      for_player = world->to_move() == player ? r.score : -r.score;
    } else {
      for_player = world->evaluate_for(player);
    }
    total += vote_value(for_player, game.world_score_scale());
  }
  return total <= worlds * kVoteUnit / 2;  // not better than even
}

}  // namespace tabula::ai
