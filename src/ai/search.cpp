#include "ai/search.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace tabula::ai {

namespace {

// Time and the stop flag are read once per this many nodes: reading the clock every node costs more
// than a Tigadi node itself, and 1024 nodes take well under a millisecond.
constexpr uint64_t kCheckEvery = 1024;

// Ordering scores: the TT move; then the moves the game hints at (captures, lines closed), by their hint; then
// the two killers; then quiet moves by history (kept below kKillerScore[1]); last the moves hinted against.
constexpr int kTTMoveScore = 1 << 30;
constexpr int kHintScore = 1 << 29;
constexpr int kMaxHint = (1 << 28) - 1;
constexpr int kKillerScore[2] = {(1 << 27) + 1, 1 << 27};
constexpr int kHistoryMax = 1 << 24;  // history is halved when an entry reaches this
constexpr int kBadHintScore = -(1 << 26);
// Moves late move reductions may reduce: quiet ones (not the table's, not hinted, not killers) and those hinted
// against, which the game ranks worst.
bool is_reducible_order(int order) { return order < kKillerScore[1]; }

// Best-reply search: xored into the table key at an opponent's node once an opponent has replied this round (the
// same position is worth something else when this opponent may still reply than when it must skip).
constexpr uint64_t kRepliedKey = 0x9b1e5c3a7d2f4e61ULL;

// Late move pruning: how many moves a node searches before it drops the quiet ones left, by remaining depth
// (the hinted moves, the table's and the killers come first and are always searched).
constexpr std::array<int, 4> kLateMoveWidth = {0, 8, 14, 24};

// The value of a finished game for the searching player `root`, `ply` plies from the root: a win when it is
// among the winners (alone or shared), a loss when it is not, nothing for a draw.
int result_value(const Result& r, Player root, int ply, int num_players) {
  if (r.winners.empty() || static_cast<int>(r.winners.size()) >= num_players) return 0;
  const bool won = std::find(r.winners.begin(), r.winners.end(), root) != r.winners.end();
  return won ? kWin - ply : -(kWin - ply);
}

// Win scores count plies from the root; the table stores them counted from the node so that an entry
// is right wherever in the tree the position is met again.
int to_tt(int score, int ply) {
  if (is_win_score(score)) return score + ply;
  if (is_loss_score(score)) return score - ply;
  return score;
}
int from_tt(int score, int ply) {
  if (is_win_score(score)) return score - ply;
  if (is_loss_score(score)) return score + ply;
  return score;
}

}  // namespace

bool is_win_score(int score) { return score > kWinThreshold && score <= kWin; }
bool is_loss_score(int score) { return score < -kWinThreshold && score >= -kWin; }

struct Searcher::TTEntry {
  uint32_t check;  // the key's upper half; the lower bits chose the slot
  uint32_t move;
  int32_t score;
  int8_t depth;
  uint8_t bound;  // Bound; kNone marks an empty slot
  uint16_t generation;
};

struct Searcher::Frame {
  MoveList moves;
  std::array<int, MoveList::kCapacity> order;
  std::array<Move, kMaxPly> pv;
  int pv_len = 0;
};

// A selection sort's step: the best-ordered of moves i … n-1 is brought to i and returned. Most moves are never
// reached after a cutoff, so sorting them all would be waste.
Move Searcher::select_next(Frame& f, int i, int n) {
  int pick = i;
  for (int j = i + 1; j < n; ++j)
    if (f.order[static_cast<size_t>(j)] > f.order[static_cast<size_t>(pick)]) pick = j;
  std::swap(f.moves[i], f.moves[pick]);
  std::swap(f.order[static_cast<size_t>(i)], f.order[static_cast<size_t>(pick)]);
  return f.moves[i];
}

// The line through `m` is the new best: m followed by the child's line.
void Searcher::extend_pv(Frame& f, Move m, const Frame& child) {
  f.pv[0] = m;
  std::copy_n(child.pv.begin(), child.pv_len, f.pv.begin() + 1);
  f.pv_len = child.pv_len + 1;
}

std::vector<Move> SearchResult::equal_best() const {
  std::vector<Move> out;
  if (depth == 0) return out;
  for (const RootScore& r : root)
    if (r.exact && r.score == score) out.push_back(r.move);
  return out;
}

Searcher::Searcher(size_t tt_entries) {
  size_t n = 1;
  while (n * 2 <= std::max<size_t>(tt_entries, 1)) n *= 2;
  tt_ = std::make_unique<TTEntry[]>(n);
  tt_mask_ = n - 1;
  frames_ = std::make_unique<Frame[]>(kMaxPly);
  history_ = std::make_unique<int[]>(static_cast<size_t>(kHistoryPlayers * kHistorySize));
}

Searcher::~Searcher() = default;

void Searcher::clear(bool keep_table) {
  // The table holds the entries stored since valid_from_ (probe): a fresh table is a new window, not 16 MB of
  // zeros (17 M instructions, about 6% of a level-4 Stratego world's search of 33,000 nodes, and Stratego
  // searches a world per run). When the generation wraps, an old entry's generation could fall inside the window
  // again, so the table is zeroed then, once in 65,536 runs (a kept table is lost with it).
  if (++generation_ == 0) {
    std::memset(static_cast<void*>(tt_.get()), 0, (tt_mask_ + 1) * sizeof(TTEntry));
    generation_ = 1;
    valid_from_ = 1;
  }
  if (keep_table) {
    for (int k = 0; k < kHistoryPlayers * kHistorySize; ++k) history_[static_cast<size_t>(k)] /= 2;
  } else {
    valid_from_ = generation_;
    std::fill_n(history_.get(), kHistoryPlayers * kHistorySize, 0);
  }
  for (auto& k : has_killer_) k = {false, false};
}

int Searcher::history_index(Move m) {
  // Move codes are opaque and may use any bits: mix them before taking the table's bits.
  static_assert(kHistorySize == 1 << 14);
  return static_cast<int>((m.code * 0x9E3779B1u) >> (32 - 14));
}

Searcher::TTEntry* Searcher::probe(uint64_t key) {
  TTEntry* e = &tt_[key & tt_mask_];
  if (e->bound != kNone && e->generation >= valid_from_ && e->check == static_cast<uint32_t>(key >> 32)) return e;
  return nullptr;
}

void Searcher::store(uint64_t key, int depth, int score, Bound bound, Move move, int ply) {
  TTEntry* e = &tt_[key & tt_mask_];
  const auto check = static_cast<uint32_t>(key >> 32);
  // Keep a deeper result for the same position from this run unless the new one is exact; other positions and
  // older runs' entries give way.
  if (e->bound != kNone && e->check == check && e->generation == generation_ && depth < e->depth && bound != kExact)
    return;
  e->check = check;
  e->move = move.code;
  e->score = to_tt(score, ply);
  e->depth = static_cast<int8_t>(depth);
  e->bound = bound;
  e->generation = generation_;
}

int Searcher::evaluate_here() const {
  const int v = game_->evaluate_for(root_);
  return game_->to_move() == root_ ? v : -v;
}

bool Searcher::out_of_budget() {
  if (aborted_) return true;
  if (params_->nodes && nodes_ >= *params_->nodes) return true;
  if (nodes_ % kCheckEvery != 0) return false;
  if (params_->stop && params_->stop->load(std::memory_order_relaxed)) return true;
  // A node budget makes the search reproducible, so the clock is not read then.
  if (!params_->nodes && params_->ms && clock_now() >= deadline_) return true;
  return false;
}

void Searcher::order_moves(Frame& f, Move tt_move, bool has_tt_move, Player me, int ply) {
  const int* hist = history_.get() + (me & (kHistoryPlayers - 1)) * kHistorySize;
  const auto& killers = killers_[static_cast<size_t>(ply)];
  const auto& has_killer = has_killer_[static_cast<size_t>(ply)];
  for (int i = 0; i < f.moves.size(); ++i) {
    const Move m = f.moves[i];
    const int hint = game_->order_hint(m);
    int s;
    if (has_tt_move && m == tt_move) s = kTTMoveScore;
    else if (hint > 0) s = kHintScore + std::min(hint, kMaxHint);
    else if (has_killer[0] && m == killers[0]) s = kKillerScore[0];
    else if (has_killer[1] && m == killers[1]) s = kKillerScore[1];
    else s = hist[history_index(m)] + (hint < 0 ? kBadHintScore : 0);
    f.order[static_cast<size_t>(i)] = s;
  }
}

// The value, for `mover`'s side, of the position just reached by mover's move.
int Searcher::child_value(Player mover, int depth, int alpha, int beta, int ply) {
  frames_[ply].pv_len = 0;
  if (out_of_budget()) {
    aborted_ = true;
    return 0;
  }
  if (game_->phase() == Phase::over) {
    const int v = result_value(*game_->result(), root_, ply, game_->num_players());
    return same_side(mover, root_) ? v : -v;
  }
  if (same_side(game_->to_move(), mover)) return negamax(depth, alpha, beta, ply);
  return -negamax(depth, -beta, -alpha, ply);
}

bool Searcher::at_opponent_turn_start() const {
  return params_->best_reply && game_->num_players() > 2 && game_->to_move() != root_ && game_->turn_skippable();
}

// The value for the side to move (an opponent) of skipping its turn: the next player moves in the same position,
// at the same depth (a skip is not a ply of play). Counted as a node, so a budget always ends the search.
int Searcher::skip_value(int depth, int alpha, int beta, int ply, bool quiescent) {
  const Player me = game_->to_move();
  game_->skip_turn();
  ++nodes_;
  int score = 0;
  if (out_of_budget()) {
    aborted_ = true;
  } else if (same_side(game_->to_move(), me)) {
    score = quiescent ? quiesce(depth, alpha, beta, ply + 1) : negamax(depth, alpha, beta, ply + 1);
  } else {
    score = quiescent ? -quiesce(depth, -beta, -alpha, ply + 1) : -negamax(depth, -beta, -alpha, ply + 1);
  }
  game_->undo_skip_turn();
  return aborted_ ? 0 : score;
}

// The value of the current position (in play) for the side to move, within (alpha, beta).
int Searcher::negamax(int depth, int alpha, int beta, int ply, bool null_allowed) {
  Frame& f = frames_[ply];
  f.pv_len = 0;
  if (ply >= kMaxPly - 1) return evaluate_here();
  // A position an endgame table knows needs no search: its value is exact at any depth.
  if (const std::optional<Game::Solved> solved = game_->solved()) {
    if (solved->outcome == 0) return 0;
    const int distance = std::min(ply + solved->plies, kMaxWinDistance);
    return solved->outcome > 0 ? kWin - distance : -(kWin - distance);
  }
  // Best-reply search: once an opponent has replied this round, the others' turns are skipped.
  const bool opponent_turn_start = at_opponent_turn_start();
  if (opponent_turn_start && replied_) return skip_value(depth, alpha, beta, ply, depth <= 0);
  if (depth <= 0) return quiesce(depth, alpha, beta, ply);

  // No line from here ends sooner than a win on the next ply, nor later than the root's horizon.
  alpha = std::max(alpha, -kWin + ply);
  beta = std::min(beta, kWin - ply - 1);
  if (alpha >= beta) return alpha;

  const bool pv_node = beta - alpha > 1;
  const uint64_t key = game_->hash() ^ (params_->best_reply && replied_ && game_->to_move() != root_ ? kRepliedKey : 0);
  Move tt_move{};
  bool has_tt_move = false;
  if (const TTEntry* e = probe(key)) {
    tt_move = Move{e->move};
    has_tt_move = true;
    if (e->depth >= depth) {
      const int s = from_tt(e->score, ply);
      // Exact hits are not taken at PV nodes, so the principal variation is not cut short.
      if (e->bound == kExact && !pv_node) return s;
      if (e->bound == kLower && s >= beta) return s;
      if (e->bound == kUpper && s <= alpha) return s;
    }
  }

  // Null-move pruning: when the side to move, allowed to pass, still holds a score of beta or more against a
  // shallower search, a real move will too (short of zugzwang, which the game rules out by allowing it).
  if (params_->null_move && null_allowed && !pv_node && depth >= 3 && game_->num_players() == 2 &&
      !is_win_score(beta) && !is_loss_score(beta) && game_->null_move_allowed() && evaluate_here() >= beta) {
    const int reduction = depth >= 7 ? 3 : 2;
    game_->apply_null();
    ++nodes_;
    int score = 0;
    if (out_of_budget()) aborted_ = true;
    else score = -negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1, false);
    game_->undo_null();
    if (aborted_) return 0;
    if (score >= beta) return is_win_score(score) ? beta : score;
  }

  game_->legal_moves(f.moves);
  // Games list a pass when a player is stuck, so this is only a guard.
  if (f.moves.empty()) return evaluate_here();
  const Player me = game_->to_move();
  order_moves(f, tt_move, has_tt_move, me, ply);

  const int alpha_orig = alpha;
  int best = -kInfinity;
  Move best_move = f.moves[0];
  const int n = f.moves.size();
  const bool replied_before = replied_;
  bool cut = false;
  for (int i = 0; i < n; ++i) {
    const Move m = select_next(f, i, n);
    // Late move pruning: moves come in their order, so once a late one is quiet, so are all after it. Not
    // while every move searched loses: a quiet move may be the only defence.
    if (params_->late_move_pruning && !pv_node && depth < static_cast<int>(kLateMoveWidth.size()) &&
        i >= kLateMoveWidth[static_cast<size_t>(depth)] && is_reducible_order(f.order[static_cast<size_t>(i)]) &&
        !is_loss_score(best))
      break;
    note_mover(me);
    game_->apply(m);
    ++nodes_;
    int score;
    if (i == 0) {
      score = child_value(me, depth - 1, alpha, beta, ply + 1);
    } else {
      // Late move reductions: a late quiet move, which the ordering judged unpromising, is first searched
      // shallower; only if it then beats alpha is it searched at full depth.
      int reduction = 0;
      if (params_->late_move_reductions && depth >= 3 && i >= 3 && is_reducible_order(f.order[static_cast<size_t>(i)]))
        reduction = (depth >= 5 && i >= 8) ? 2 : 1;
      // Principal variation search: prove the move is no better with a null window, re-search if it is.
      score = child_value(me, depth - 1 - reduction, alpha, alpha + 1, ply + 1);
      if (reduction > 0 && score > alpha && !aborted_) score = child_value(me, depth - 1, alpha, alpha + 1, ply + 1);
      if (score > alpha && score < beta && !aborted_) score = child_value(me, depth - 1, alpha, beta, ply + 1);
    }
    game_->undo();
    replied_ = replied_before;
    if (aborted_) return 0;

    if (score > best) {
      best = score;
      best_move = m;
      if (score > alpha) {
        alpha = score;
        extend_pv(f, m, frames_[ply + 1]);
        if (alpha >= beta) {
          cut = true;
          auto& killers = killers_[static_cast<size_t>(ply)];
          auto& has_killer = has_killer_[static_cast<size_t>(ply)];
          // Killers and history are for quiet moves: the game's hints already order the others.
          const bool quiet = game_->order_hint(m) == 0;
          if (quiet && !(has_tt_move && m == tt_move) && !(has_killer[0] && killers[0] == m)) {
            killers[1] = killers[0];
            has_killer[1] = has_killer[0];
            killers[0] = m;
            has_killer[0] = true;
          }
          if (quiet) {
            int* hist = history_.get() + (me & (kHistoryPlayers - 1)) * kHistorySize;
            int& h = hist[history_index(m)];
            h += depth * depth;
            if (h >= kHistoryMax)
              for (int k = 0; k < kHistoryPlayers * kHistorySize; ++k) history_[static_cast<size_t>(k)] /= 2;
          }
          break;
        }
      }
    }
  }

  // Best-reply search: this opponent may leave the reply to a later one (not to the last before the searcher's
  // turn, which must reply if nobody has). Tried after its own moves, with a null window first as a late move.
  if (opponent_turn_start && !cut) {
    game_->skip_turn();
    const bool later_opponent = game_->to_move() != root_;
    game_->undo_skip_turn();
    if (later_opponent) {
      int score = skip_value(depth, alpha, alpha + 1, ply, false);
      if (score > alpha && score < beta && !aborted_) score = skip_value(depth, alpha, beta, ply, false);
      if (aborted_) return 0;
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          f.pv_len = 0;  // the line goes through the skip: no moves to show
        }
      }
    }
  }

  const Bound bound = best >= beta ? kLower : best > alpha_orig ? kExact : kUpper;
  store(key, depth, best, bound, best_move, ply);
  return best;
}

// Past the horizon (depth 0, -1, ...): the value of the current position for the player to move when
// only captures are searched. The player to move may "stand pat" on evaluate(), since a quiet move is
// assumed to be at least as good as doing nothing, or take; so a capture that loses to a recapture is
// seen as such, and so is a capture the horizon would otherwise cut off. Captures are searched
// kMaxQuiescencePlies deep at most; no table; the captures are tried in the order of the game's hints (the
// most valuable victim first, where the game says so).
int Searcher::quiesce(int depth, int alpha, int beta, int ply) {
  Frame& f = frames_[ply];
  f.pv_len = 0;
  // Best-reply search: past the horizon too, only the round's one opponent moves.
  if (replied_ && at_opponent_turn_start() && ply < kMaxPly - 2) return skip_value(depth, alpha, beta, ply, true);
  const int stand_pat = evaluate_here();
  if (!params_->quiescence || depth <= -kMaxQuiescencePlies || ply >= kMaxPly - 1) return stand_pat;
  if (stand_pat >= beta) return stand_pat;
  alpha = std::max(alpha, stand_pat);
  int best = stand_pat;

  game_->legal_captures(f.moves);
  const Player me = game_->to_move();
  const int n = f.moves.size();
  for (int i = 0; i < n; ++i) f.order[static_cast<size_t>(i)] = game_->order_hint(f.moves[i]);
  const bool replied_before = replied_;
  for (int i = 0; i < n; ++i) {
    const Move m = select_next(f, i, n);
    note_mover(me);
    game_->apply(m);
    ++nodes_;
    const int score = child_value(me, depth - 1, alpha, beta, ply + 1);
    game_->undo();
    replied_ = replied_before;
    if (aborted_) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        extend_pv(f, m, frames_[ply + 1]);
        if (alpha >= beta) break;
      }
    }
  }
  return best;
}

SearchResult Searcher::run(Game& game, const SearchParams& params) {
  clock_ = &params.clock;
  start_ = clock_now();
  deadline_ = start_ + std::chrono::milliseconds(params.ms.value_or(0));
  clear(params.keep_table);
  game_ = &game;
  params_ = &params;
  root_ = game.to_move();
  nodes_ = 0;
  aborted_ = false;

  SearchResult result;
  std::vector<RootScore> root;
  {
    MoveList moves;
    game.legal_moves(moves);
    if (moves.empty()) fail(ErrorKind::conflict, "no legal move to search");
    root.resize(static_cast<size_t>(moves.size()));
    for (int i = 0; i < moves.size(); ++i) {
      root[static_cast<size_t>(i)].move = moves[i];
      root[static_cast<size_t>(i)].pv.reserve(kMaxPly);
    }
  }
  // A seeded shuffle: the order decides which of equal moves the first iteration meets first.
  Rng rng(params.seed);
  std::shuffle(root.begin(), root.end(), rng);
  result.best = root[0].move;

  const Player me = game.to_move();
  const int max_depth = std::clamp(params.max_depth, 1, kMaxPly - 1);
  // Whole turns: a game of two-move turns is searched 2, 4, 6... plies deep (one ply deeper would end the
  // line after the opponent's first move, judged as if it had no second).
  const int step = std::clamp(game.moves_per_turn(), 1, max_depth);
  auto iteration_start = start_;
  std::chrono::steady_clock::duration last_iteration{0};
  bool budget_ended = false;  // no iteration started that the time left could not finish
  for (int depth = step; depth <= max_depth; depth += step) {
    int best = -kInfinity;
    int searched = 0;  // root moves scored at this depth, in the order tried
    for (RootScore& r : root) {
      // Moves after the first are searched against best-1, not best: a move that only equals the best
      // then gets its exact score, and equal moves can be told apart from worse ones.
      const int alpha = (params.exact_root_scores || best == -kInfinity) ? -kInfinity : best - 1;
      replied_ = false;
      game.apply(r.move);
      ++nodes_;
      const int score = child_value(me, depth - 1, alpha, kInfinity, 1);
      game.undo();
      if (aborted_) break;
      r.score = score;
      r.exact = score > alpha;
      r.pv.clear();
      if (r.exact) {
        r.pv.push_back(r.move);
        const Frame& child = frames_[1];
        r.pv.insert(r.pv.end(), child.pv.begin(), child.pv.begin() + child.pv_len);
      }
      best = std::max(best, score);
      ++searched;
    }
    if (aborted_) {
      // An unfinished iteration proves nothing about the moves it did not reach, but the moves it did reach
      // were searched deeper than before, the last iteration's best among them first: when one of them
      // scores better than that move does now, it is the better move (the deeper search refuted the old
      // best). Scores summed across worlds need every move at one depth, so they keep the last iteration.
      if (result.depth > 0 && searched > 0 && !params.exact_root_scores) {
        const auto done = root.begin() + searched;
        const auto it = std::max_element(root.begin(), done, [](const RootScore& a, const RootScore& b) {
          return a.score < b.score;
        });
        if (it != root.begin() && it->exact && it->score > root.front().score) {
          std::stable_sort(root.begin(), done, [](const RootScore& a, const RootScore& b) { return a.score > b.score; });
          for (auto r = done; r != root.end(); ++r) r->exact = false;  // a shallower depth's scores
          result.score = root.front().score;
          result.best = root.front().move;
          result.pv = root.front().pv;
          result.root = root;
        }
      }
      if (result.depth == 0) {
        const auto it = std::max_element(root.begin(), root.end(),
                                         [](const RootScore& a, const RootScore& b) { return a.score < b.score; });
        if (it->score > -kInfinity) {
          result.best = it->move;
          result.score = it->score;
          result.pv = it->pv;
        }
      }
      break;
    }
    std::stable_sort(root.begin(), root.end(), [](const RootScore& a, const RootScore& b) { return a.score > b.score; });
    result.depth = depth;
    result.score = best;
    result.best = root[0].move;
    result.pv = root[0].pv;
    result.root = root;

    // A forced result within the horizon is proven: a deeper search cannot change it.
    if ((is_win_score(best) || is_loss_score(best)) && kWin - std::abs(best) <= depth) break;
    if (!params.nodes && params.ms) {
      const auto now = clock_now();
      const auto this_iteration = now - iteration_start;
      iteration_start = now;
      // A single search keeps deepening until the deadline: an unfinished iteration still refutes a best move
      // it reached (above), and the root starts with the last best. Scores summed across worlds need every
      // root move at one depth, so there an iteration starts only if it will likely finish: it costs its
      // predecessor's time times the growth seen from the one before (at least 2, at most 8).
      if (params.exact_root_scores) {
        double growth = 4.0;
        if (last_iteration.count() > 0)
          growth = std::clamp(static_cast<double>(this_iteration.count()) / static_cast<double>(last_iteration.count()),
                              2.0, 8.0);
        last_iteration = this_iteration;
        const auto predicted = std::chrono::duration_cast<std::chrono::steady_clock::duration>(this_iteration * growth);
        if (now - start_ + predicted > std::chrono::milliseconds(*params.ms)) {
          budget_ended = true;  // the clock ended it as surely as an abort would have
          break;
        }
      }
    }
  }
  result.stopped = aborted_ || budget_ended;
  result.nodes = nodes_;
  result.ms = std::chrono::duration_cast<std::chrono::milliseconds>(clock_now() - start_).count();
  game_ = nullptr;
  params_ = nullptr;
  return result;
}

}  // namespace tabula::ai
