// Matches between AI configurations, for `tabula selfplay`, `tabula arena`, strength tests and
// docs/strength.md. The referee holds the true game; each side is asked for a move only on its turn and
// chooses it from its seat's view.
#pragma once

#include "ai/ai.h"

#include <cmath>

#include <functional>
#include <vector>
#include <string>

namespace tabula::ai {

struct MatchConfig {
  std::string game = "tigadi";
  json options = json::object();
  // Two players: a plays seat 0 in even games, seat 1 in odd ones (colours alternate), b the other. More
  // players: a plays one seat, seat g % players in game g (every seat in turn), and b every other seat.
  Limits a;
  Limits b;
  int games = 100;
  int first_game = 0;  // the match's games first_game … first_game + games - 1: game g is the same in any part
  uint64_t seed = 1;
  int max_plies = 1000;  // adjudicated a draw after this many plies (a match setting, not a rule)
  // Games with a setup phase: "random" arrangements drawn from the game's seed, or every army in the named
  // arrangement (Truth's "suggested"; the games then differ by the sides' move seeds only).
  std::string setup = "random";
  // Paired games: games 2k and 2k+1 start from the same setups (the same arrangements for the same seats), so
  // each pair plays one start with the colours both ways and the start's luck cancels. Off: every game draws
  // its own (selfplay's games as they have always been).
  bool paired = false;
  // An opening: this many random legal moves (from the game's seed, the pair's when paired) played before the
  // sides take over, told to both as moves. Where the sides' own first moves would make every start alike
  // (Tigadi from the empty board, where the first player then wins), it gives each pair a start of its own.
  int opening_plies = 0;
  // When set, play_game writes the game's text record (docs/records.md) to this file, its seats named by
  // record_names (a's name in a's seats): arena games can be read and replayed afterwards.
  std::string record_to;
  std::string a_name = "a", b_name = "b";
};

// One side of a match: chooses the moves of the seats it holds. An AI level in this process, or another
// program speaking the engine protocol (tabula arena).
class Mover {
 public:
  virtual ~Mover() = default;
  // A game begins: its kind, options and each seat's placement (empty when the game has no setup phase).
  virtual void start(const std::string& game, const json& options, const std::vector<json>& placements) {
    (void)game, (void)options, (void)placements;
  }
  // A move was played (by either side), as a legal_move_strings string.
  virtual void moved(const std::string& move) { (void)move; }
  // The move for the player to move in `game`, with `seed` for this move's random choices. Throws (GameError
  // or std::runtime_error) when the side cannot answer: it then loses the game.
  virtual Choice choose(const Game& game, uint64_t seed) = 0;
};

// An AI level in this process, keeping its search table from move to move of a game (ai::Memory) as the
// engine protocol does between its `new` commands, so that a program and this process play alike.
class LevelMover : public Mover {
 public:
  explicit LevelMover(Limits limits) : limits_(std::move(limits)) {}
  void start(const std::string&, const json&, const std::vector<json>&) override { memory_.forget(); }
  Choice choose(const Game& game, uint64_t seed) override {
    Limits l = limits_;
    l.seed = seed;
    return choose_move(game, l, nullptr, &memory_);
  }

 private:
  Limits limits_;
  Memory memory_;
};

struct MatchResult {
  // Games: a won (alone or sharing the victory), nobody won, a lost and some b seat won.
  int a_wins = 0, draws = 0, b_wins = 0;
  // Seat by seat, every winner of a shared victory counted as winning: the seats each side held and won.
  // With two players these are the games and the wins; with four, a holds one seat a game and b three, so
  // the two win rates compare one a seat with one b seat.
  int a_seats = 0, a_seat_wins = 0, b_seats = 0, b_seat_wins = 0;
  // Bookkeeping for reports: plies played, games cut at max_plies, and each side's search effort.
  long long plies = 0;
  int adjudicated = 0;
  int setups_redrawn = 0;  // random setups drawn again because they decided the game before any move
  long long a_moves = 0, b_moves = 0;
  uint64_t a_nodes = 0, b_nodes = 0;
  long long a_ms = 0, b_ms = 0;
  int forfeits_a = 0, forfeits_b = 0;  // games lost because a side could not answer (a program that failed)
  std::vector<Player> last_winners;  // the winners of the game just played (for progress reports)
  // How the game just played ended, for progress reports: its reason, a's seats and, where the game keeps
  // scores, each seat's ("ply-limit; a in seat 2; scores 12 30 5 8").
  std::string last_end;
  void add(const MatchResult& other);  // sums two parts of a match (last_winners: other's)
  int games() const { return a_wins + draws + b_wins; }
  double a_score() const;  // (wins + draws/2) / games
  // 95% confidence interval of a's score (Wilson score interval).
  std::pair<double, double> a_score_interval() const;
  double a_win_rate() const { return a_seats ? static_cast<double>(a_seat_wins) / a_seats : 0.0; }
  double b_win_rate() const { return b_seats ? static_cast<double>(b_seat_wins) / b_seats : 0.0; }
  // 95% Wilson interval of a proportion p over n trials.
  static std::pair<double, double> interval(double p, int n);
};

// Plays the match; `progress`, when given, is called after each game with the result so far.
MatchResult play_match(const MatchConfig& config,
                       const std::function<void(int game, const MatchResult&)>& progress = {});

// Plays game g of the match between a and b (config's a and b limits are not read) and returns it as a
// match of one game. Game g is the same game whoever plays it and in whatever order: its randomness comes
// from config.seed and g alone.
MatchResult play_game(const MatchConfig& config, int g, Mover& a, Mover& b);

// The Elo difference a score implies (a's rating less b's, a draw half a win), with the 95% Wilson interval
// of the score mapped the same way. A score of 0 or 1 has an infinite difference and a finite interval end.
struct EloDifference {
  double elo = 0, low = 0, high = 0;
};
EloDifference elo_difference(int wins, int draws, int losses);
double elo_from_score(double score);  // -400 log10(1/score - 1); ±infinity at 0 and 1

}  // namespace tabula::ai
