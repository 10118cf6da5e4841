// Matches between AI levels, for `tabula selfplay`, strength tests and docs/strength.md.
#pragma once

#include "ai/ai.h"

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
  std::vector<Player> last_winners;  // the winners of the game just played (for progress reports)
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

}  // namespace tabula::ai
