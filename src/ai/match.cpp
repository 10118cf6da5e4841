#include "ai/match.h"

#include "core/session.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace tabula::ai {

namespace {
constexpr int kSetupAttempts = 100;
}  // namespace

double MatchResult::a_score() const {
  if (games() == 0) return 0.5;
  return (a_wins + 0.5 * draws) / games();
}

// Wilson score interval at 95%, treating a draw as half a win: unlike the normal approximation it stays
// inside [0, 1] and is sensible at scores near 0% or 100%, which is where level matches end up.
std::pair<double, double> MatchResult::a_score_interval() const { return interval(a_score(), games()); }

std::pair<double, double> MatchResult::interval(double p, int games) {
  const double n = games;
  if (n == 0) return {0.0, 1.0};
  const double z = 1.96;
  const double denom = 1 + z * z / n;
  const double centre = (p + z * z / (2 * n)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

MatchResult play_match(const MatchConfig& config, const std::function<void(int game, const MatchResult&)>& progress) {
  MatchResult total;
  for (int g = config.first_game; g < config.first_game + config.games; ++g) {
    std::optional<Session> made;
    made.emplace(Session::create(config.game, config.options));
    const int players = made->num_players();
    // Two players: a takes the even seat in even games and the odd one in odd games, so both sides play each
    // colour. More: a takes one seat, each in turn, and b the others.
    auto is_a = [&](Player p) { return players == 2 ? (p % 2 == 0) == (g % 2 == 0) : p == g % players; };

    // Every game's randomness comes from config.seed + g, so a game can be replayed on its own.
    Rng game_rng(config.seed + static_cast<uint64_t>(g));
    Rng a_rng(game_rng.next() ^ config.a.seed);
    Rng b_rng(game_rng.next() ^ config.b.seed);

    // Setups: random arrangements that decide the game before any move (Truth: an icon beside an enemy
    // lantern across the middle when the armies are revealed) test no play, so they are drawn again, up to
    // a bound; a named arrangement is used as it is.
    if (made->game().phase() == Phase::setup)
      for (int attempt = 0; attempt < kSetupAttempts; ++attempt) {
        if (attempt > 0) made.emplace(Session::create(config.game, config.options));
        for (Player p = 0; p < players; ++p) {
          const uint64_t setup_seed = game_rng.next();  // drawn either way, so move seeds do not depend on it
          made->setup(p, made->game().arrangement(p, config.setup, setup_seed));
        }
        if (!made->over() || config.setup != "random") break;
        ++total.setups_redrawn;
      }
    Session& s = *made;

    int plies = 0;
    while (!s.over()) {
      if (plies >= config.max_plies) {
        s.adjudicate(Result{{}, "ply-limit"});
        ++total.adjudicated;
        break;
      }
      const Player p = s.game().to_move();
      const bool a_moves = is_a(p);
      Limits limits = a_moves ? config.a : config.b;
      limits.seed = (a_moves ? a_rng : b_rng).next();
      const Choice c = choose_move(s.game(), limits);
      (a_moves ? total.a_moves : total.b_moves) += 1;
      (a_moves ? total.a_nodes : total.b_nodes) += c.info.value("nodes", uint64_t{0});
      (a_moves ? total.a_ms : total.b_ms) += c.info.value("ms", 0);
      s.play(c.move);
      ++plies;
    }
    total.plies += plies;

    // A shared victory is a win for every winner; with two players both cannot win, so a game is a's win,
    // b's win or a draw as before.
    const Result& r = *s.game().result();
    const bool a_won = std::any_of(r.winners.begin(), r.winners.end(), is_a);
    const bool b_won = std::any_of(r.winners.begin(), r.winners.end(), [&](Player p) { return !is_a(p); });
    if (a_won)
      ++total.a_wins;
    else if (b_won)
      ++total.b_wins;
    else
      ++total.draws;
    total.last_winners = r.winners;
    for (Player p = 0; p < players; ++p) {
      const bool won = std::find(r.winners.begin(), r.winners.end(), p) != r.winners.end();
      if (is_a(p)) {
        ++total.a_seats;
        total.a_seat_wins += won;
      } else {
        ++total.b_seats;
        total.b_seat_wins += won;
      }
    }
    if (progress) progress(g, total);
  }
  return total;
}

}  // namespace tabula::ai
