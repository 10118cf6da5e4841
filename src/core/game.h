// The interface every game implements. The engine protocol, the AI, the server and the records reach a
// game only through this file, so a new game plugs in by implementing it and registering a GameKind.
#pragma once

#include "core/error.h"
#include "core/json.h"
#include "core/rng.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tabula {

using Player = int;
inline constexpr Player kSpectator = -1;

enum class Phase : uint8_t { setup, play, over };
std::string_view phase_name(Phase p);

struct Result {
  std::vector<Player> winners;  // ascending; empty for a draw
  std::string reason;           // notation.md's list of reasons
  json to_json() const { return json{{"winners", winners}, {"reason", reason}}; }
  static Result from_json(const json& j);  // GameError(bad_request) on a bad shape
  friend bool operator==(const Result&, const Result&) = default;
};

// A move in its game's own compact encoding; only the game that produced it can read it.
struct Move {
  uint32_t code = 0;
  friend bool operator==(Move, Move) = default;
};

// Fixed-capacity move list: move generation never allocates. The capacity covers the largest
// branching factor of any game (a Truth army's action list).
class MoveList {
 public:
  static constexpr int kCapacity = 2048;
  void clear() { size_ = 0; }
  void truncate(int n) { size_ = n < size_ ? n : size_; }  // keeps the first n moves
  void push(Move m) { moves_[static_cast<size_t>(size_++)] = m; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](int i) const { return moves_[static_cast<size_t>(i)]; }
  Move& operator[](int i) { return moves_[static_cast<size_t>(i)]; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }
  Move* begin() { return moves_.data(); }
  Move* end() { return moves_.data() + size_; }

 private:
  std::array<Move, kCapacity> moves_;
  int size_ = 0;
};

// Something that happened, as notation/docs/events.md describe it. `full` is the truth. `views`, when
// not empty, holds one entry per player and a last one for spectators: an object is what that viewer
// sees, null means the viewer does not see the event at all. Views are made when the event happens,
// because what a viewer could see then (fog) is not recoverable later.
struct Event {
  json full;
  std::vector<json> views;
  const json& view_for(Player viewer, int num_players) const;  // null json: hidden from viewer
};
using EventLog = std::vector<Event>;
// The `over` event every game ends with: {"type":"over","result":…}, the same for every viewer.
Event over_event(const Result& r);

class Game {
 public:
  virtual ~Game() = default;
  virtual std::unique_ptr<Game> clone() const = 0;

  // What it is.
  virtual std::string_view kind() const = 0;
  virtual int num_players() const = 0;
  // Whether the position as it stands hides anything from some viewer: whether some seat's or the
  // spectators' observation, or view of an event, leaves out or conceals part of the truth. It answers for
  // this position, not for the kind of game, and may change as the game goes on: Stratego hides while the
  // game is on, FACET while it is on under fog, Truth only during its setup phase (once every army is in,
  // nothing is hidden). It is false once the game is over, and while it is false every viewer's observation
  // equals the state and every event is shown whole. Everything follows it as it stands: the server shows a
  // game's record only while it is false and tells viewers (`hidden`) when it is true, so that the browser's
  // hot seat hands the device over; the AI draws worlds with sample_world only while it is true.
  virtual bool hidden_information() const { return false; }

  // Where it stands.
  virtual Phase phase() const = 0;
  virtual Player to_move() const = 0;
  virtual int ply() const = 0;
  virtual const Result* result() const = 0;  // null while the game is on

  // Moves. legal_moves never allocates; apply takes a move legal_moves produced and can be undone.
  // `events`, when given, receives the full-truth events of the move (null in search and perft).
  virtual void legal_moves(MoveList& out) const = 0;
  virtual void apply(Move m, EventLog* events = nullptr) = 0;
  virtual void undo() = 0;
  virtual std::string move_to_string(Move m) const = 0;
  // Whether a move legal_moves produced here is a capture: a move that takes a piece. The AI
  // extends its search over these at the horizon (quiescence), so a capture sequence is not cut off
  // half-way. Default: no move is a capture, and the search stops at its horizon as before.
  virtual bool is_capture(Move) const { return false; }
  // The captures among the legal moves, for quiescence. Default: legal_moves filtered by is_capture; a game
  // whose captures can be generated directly overrides it (quiescence then never lists the quiet moves).
  virtual void legal_captures(MoveList& out) const;
  // How promising a legal move looks before any search, for the AI's move ordering: 0 for a quiet move; a
  // positive hint (a capture, by what it takes against what takes it; a line closed or blocked) is tried
  // before the killers and the quiet moves, the highest first; a negative one (a capture likely to lose the
  // piece) after every quiet move. Default: every move quiet, ordered by the search's killers and history.
  virtual int order_hint(Move) const { return 0; }
  // A position whose result is known exactly, as from an endgame table: the outcome for the player to move
  // (+1 a win, 0 a draw, -1 a loss) and the plies to the end with best play (the winner hurrying, the loser
  // delaying). The search takes it instead of searching on. Default: nothing is known.
  struct Solved {
    int outcome = 0;
    int plies = 0;
  };
  virtual std::optional<Solved> solved() const { return std::nullopt; }
  // Null-move pruning: whether letting the player to move pass is a sound test of the position's strength
  // here (not where passing could be the best move, nor where the mover is in danger), and the pass itself,
  // which switches the player to move and the hash and is undone by undo_null. Default: never.
  virtual bool null_move_allowed() const { return false; }
  virtual void apply_null() {}
  virtual void undo_null() {}
  // Best-reply search (more than two players, GameKind::ai_best_reply): whether the player to move is at the
  // start of its turn, where the search may skip that turn, and the skip: the next player is to move, nothing
  // played, undone by undo_skip_turn. A device of the search (only one opponent replies to each of the
  // searcher's turns), never a move of the game. Default: never.
  virtual bool turn_skippable() const { return false; }
  virtual void skip_turn() {}
  virtual void undo_skip_turn() {}
  // Why `text` is not a legal move here, in words a player understands.
  virtual std::string explain_illegal(std::string_view text) const;

  // Setup phases (Stratego, Truth). Default: this game has none. During a setup phase observation_json must
  // show each player only its own placement and spectators none: those are also the views a game keeps for
  // good when it ends before play begins, which the Session holds for every game (docs/rulings.md C1).
  virtual void setup(Player p, const json& placement, EventLog* events);
  virtual json arrangement(Player p, std::string_view name, uint64_t seed) const;  // a placement
  // The placement an AI seat sets up with. Default: the seeded random arrangement (Stratego's is shaped like
  // a player's); a game whose random arrangement is only a quick start overrides it.
  virtual json ai_arrangement(Player p, uint64_t seed) const { return arrangement(p, "random", seed); }

  // Offers other than resignation (draw, stalemate, accept, decline, withdraw). Default: none exist.
  virtual void offer(Player p, std::string_view what, EventLog* events);
  // Whether an offer `what` ("draw", "stalemate") stands that `player` may answer. Default: never.
  virtual bool offer_stands(std::string_view what, Player player) const;
  // Ends the game now (resignation, adjudication). Not undoable.
  virtual void end_with(const Result& r, EventLog* events) = 0;

  // Dangers a player would want pointed out, judged from `viewer`'s observation only (a spectator's when
  // kSpectator): a list of {"square", "player" (whose piece or line is in danger), "why", and what else the
  // kind of danger needs}. FACET: a Monarch an enemy stone could take ("monarch-attacked"); Truth: an icon that
  // can be burned or whose siege is counting ("icon-burnable", "icon-sieged"); Tigadi: an open line a player
  // could close on their next turn ("line-open", with "line"). Default: none. Never part of the rules.
  virtual json danger_for(Player viewer) const {
    (void)viewer;
    return json::array();
  }

  // JSON per notation.md. observation_json(kSpectator) is the spectators' view.
  virtual json state_json() const = 0;
  virtual json observation_json(Player viewer) const = 0;

  // For the AI. evaluate() scores the position for the player to move (positive is good for them), in
  // hundredths of a goti/pawn. It reads the whole board, so in a game with hidden information it is only
  // ever called on a world from sample_world (the AI's search runs on nothing else). hash() identifies the
  // position.
  virtual int evaluate() const = 0;
  // The same score for player `who`, whoever is to move. The default serves two players with opposed
  // interests (what is good for one is as bad for the other); a game of more players overrides it (the
  // search of more than two players is paranoid: it scores every position for the searching player).
  virtual int evaluate_for(Player who) const { return who == to_move() ? evaluate() : -evaluate(); }
  virtual uint64_t hash() const = 0;
  // How many moves one player makes in a turn (the Game of Truth: two actions). The search deepens a whole
  // turn at a time, so its horizon never falls between a player's moves, where the position is half made.
  virtual int moves_per_turn() const { return 1; }
  // A complete game consistent with everything `viewer` has observed, drawn with rng. The AI searches
  // these worlds, never the true state. Games without hidden information return a copy of themselves.
  virtual std::unique_ptr<Game> sample_world(Player viewer, Rng& rng) const;
  // Many worlds for one viewer from this position, with what the draws share worked out once: a search that
  // draws a world an iteration (ISMCTS) must not read the whole history again for each. Independent draws
  // are sample_world's (the same worlds for the same rng); `chained` draws may each walk on from the one
  // before (a Markov chain over the same distribution: cheaper, and successive worlds alike), for a search
  // that draws thousands. The sampler reads this game, which must outlive it and not change meanwhile. The
  // default calls sample_world.
  class WorldSampler {
   public:
    virtual ~WorldSampler() = default;
    virtual std::unique_ptr<Game> sample(Rng& rng) = 0;
  };
  virtual std::unique_ptr<WorldSampler> world_sampler(Player viewer, bool chained) const;
  // How a score becomes a chance of winning when the AI adds up its sampled worlds: a score s counts as
  // 1 / (1 + e^(-s / scale)), a forced win as 1 and a loss as 0, so a win that a few worlds deal counts for
  // what it adds to the chances the other worlds leave, much when behind and little when ahead (Stratego: a
  // world that dealt the Flag within reach must not send the Marshal into probable Bombs). In evaluate()'s
  // units: the lead at which the side ahead wins about 73 games in 100.
  virtual int world_score_scale() const { return 200; }
};

// A game's entry in the catalogue: how to make one and how to describe it to the lobby.
struct GameKind {
  // One way to seat it: a number of players and what a game for that many takes. `options` (option name ->
  // default value) are the options of a game for `players`, and they make a game of exactly that many seats
  // (Truth's `players` option decides it); `arrangements` are the named setups arrangement() makes for every
  // seat of such a game, besides "random".
  struct Variant {
    int players = 2;
    std::vector<std::string> arrangements;
    json options;
  };

  std::string name;      // "tigadi"
  std::string title;     // "Tigadi"
  std::vector<int> player_counts;
  json options;          // option name -> default value, for a game made without options
  std::vector<int> ai_levels;
  std::function<std::unique_ptr<Game>(const json& options)> create;
  std::function<std::unique_ptr<Game>(const json& state)> from_state;
  // Named setups its arrangement() makes besides "random" (shown by the lobby's setup editors).
  std::vector<std::string> arrangements = {};
  // Whether a game of this kind can hide information, under some options or in some phase (Stratego; FACET
  // with fog; Truth in its setup phase). Whether a game hides something now is its hidden_information().
  bool can_hide_information = false;
  // One entry per player count, in the order of player_counts.
  std::vector<Variant> variants = {};

  // Whether the AI extends its search over Game::is_capture at the horizon (quiescence). A game whose
  // is_capture is costly and whose evaluation reads threats itself may leave it off (docs/ai.md).
  bool ai_quiescence = true;
  // Whether the AI reduces the depth of late quiet moves (late move reductions): sound only where the move
  // ordering puts the good moves first (order_hint, killers, history), so a game turns it on once measured.
  bool ai_late_move_reductions = false;
  // Whether the AI searches only the first quiet moves of a node near the horizon (late move pruning, a
  // progressive widening: more of them the more depth remains). For games with many quiet moves a node,
  // where the ordering is good enough that the late ones rarely matter; a game turns it on once measured.
  bool ai_late_move_pruning = false;
  // How the AI searches a position with hidden information (Game::hidden_information): by determinization
  // (alpha-beta on each of a level's sampled worlds, the moves' scores added up) or by information-set MCTS
  // (one tree over a fresh world an iteration, src/ai/ismcts.h). docs/ai.md, Levels, says what each game uses.
  enum class HiddenSearch : uint8_t { determinized, ismcts };
  HiddenSearch ai_hidden_search = HiddenSearch::determinized;
  // Levels 2, 3 and 4's budgets in nodes a move when a request names no budget (0: ai::default_limits', that
  // is 2,000 nodes for level 2 and a time for levels 3 and 4). Level 5 searches 2 s in every game, and 2 s is
  // far deeper in some games than in others, so the steps below it are the game's own, set from the arena's
  // ladders so that each level wins at least 65% against the one below (docs/strength.md). Nodes rather than
  // time: a level is as strong on any machine, and a ladder played on node budgets replays exactly.
  uint64_t ai_level2_nodes = 0;
  uint64_t ai_level3_nodes = 0;
  uint64_t ai_level4_nodes = 0;
  // With more than two players, whether the AI searches by best reply (Schadd and Winands 2011) instead of the
  // plain paranoid search: between two of the searcher's turns only one opponent moves, the one whose reply is
  // worst for the searcher, and the others' turns are skipped (Game::turn_skippable). The searcher's next turn
  // comes after 2 turns instead of 4, and it no longer fears three opponents all playing against it.
  bool ai_best_reply = false;

  // The variant for `players`, or null when this kind is not played by that many.
  const Variant* variant_for(int players) const;
};

// The fields every game's state and observation have (notation.md: game, options, phase, to_move, ply,
// board, result), read from `g` as it stands; each game adds its own fields to the object returned.
json common_state_json(const Game& g, json options, json board);

// Every registered game (src/games/registry.cpp), and one by name (GameError(not_found) if unknown).
const std::vector<GameKind>& game_kinds();
const GameKind& game_kind(std::string_view name);

// Legal moves as sorted strings, and a move's lookup by its string.
std::vector<std::string> legal_move_strings(const Game& g);
std::optional<Move> find_legal_move(const Game& g, std::string_view text);

// Number of legal move sequences of exactly `depth` plies (a sequence cut short by the end counts 0).
uint64_t perft(Game& g, int depth);
// The same, giving up (nullopt) rather than expand more than `max_expansions` positions: perft(d) generates
// the moves of every position fewer than d plies deep. A request from outside is bounded by this.
std::optional<uint64_t> perft_within(Game& g, int depth, uint64_t max_expansions);

}  // namespace tabula
