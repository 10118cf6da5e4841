#include "ai/match.h"

#include "core/record_text.h"
#include "core/session.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <stdexcept>

namespace tabula::ai {

namespace {
constexpr int kSetupAttempts = 100;

// Writes the game's text record, its seats named after the sides (docs/records.md); false when the file could
// not be written (the game still counts; the report says so).
template <typename IsA>
bool write_record(const Session& s, const MatchConfig& config, IsA is_a) {
  RecordTags tags;
  for (Player p = 0; p < s.game().num_players(); ++p) tags.players.push_back(is_a(p) ? config.a_name : config.b_name);
  std::ofstream out(config.record_to);
  out << record_text(s.record(), tags);
  return static_cast<bool>(out.flush());
}
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

void MatchResult::add(const MatchResult& o) {
  a_wins += o.a_wins;
  draws += o.draws;
  b_wins += o.b_wins;
  a_seats += o.a_seats;
  a_seat_wins += o.a_seat_wins;
  b_seats += o.b_seats;
  b_seat_wins += o.b_seat_wins;
  plies += o.plies;
  adjudicated += o.adjudicated;
  setups_redrawn += o.setups_redrawn;
  a_moves += o.a_moves;
  b_moves += o.b_moves;
  a_nodes += o.a_nodes;
  b_nodes += o.b_nodes;
  a_ms += o.a_ms;
  b_ms += o.b_ms;
  forfeits_a += o.forfeits_a;
  forfeits_b += o.forfeits_b;
  last_winners = o.last_winners;
  last_end = o.last_end;
}

double elo_from_score(double score) {
  if (score <= 0) return -INFINITY;
  if (score >= 1) return INFINITY;
  return -400.0 * std::log10(1.0 / score - 1.0);
}

EloDifference elo_difference(int wins, int draws, int losses) {
  const int n = wins + draws + losses;
  const double score = n ? (wins + 0.5 * draws) / n : 0.5;
  const auto [low, high] = MatchResult::interval(score, n);
  // Wilson's bounds reach 0 and 1 only up to rounding: an end at a certain score is infinite.
  return {elo_from_score(score), elo_from_score(low < 1e-9 ? 0.0 : low), elo_from_score(high > 1 - 1e-9 ? 1.0 : high)};
}

MatchResult play_game(const MatchConfig& config, int g, Mover& a, Mover& b) {
  MatchResult total;
  std::optional<Session> made;
  made.emplace(Session::create(config.game, config.options));
  const int players = made->num_players();
  // Two players: a takes the even seat in even games and the odd one in odd games, so both sides play each
  // colour. More: a takes one seat, each in turn, and b the others.
  auto is_a = [&](Player p) { return players == 2 ? (p % 2 == 0) == (g % 2 == 0) : p == g % players; };

  // Every game's randomness comes from config.seed + g, so a game can be replayed on its own; a paired game's
  // setups come from its pair's first game.
  Rng game_rng(config.seed + static_cast<uint64_t>(g));
  Rng a_rng(game_rng.next() ^ config.a.seed);
  Rng b_rng(game_rng.next() ^ config.b.seed);
  // A paired game takes its setups and its seats' move seeds from its pair's first game: seat p's moves get the
  // same seeds in both games whichever side holds it, so two equal sides play the same game twice, mirrored.
  Rng pair_rng(config.seed + static_cast<uint64_t>(g & ~1));
  std::vector<Rng> seat_rngs;
  if (config.paired)
    for (Player p = 0; p < players; ++p) seat_rngs.emplace_back(pair_rng.next());
  Rng& setups_from = config.paired ? pair_rng : game_rng;

  // Setups: random arrangements that decide the game before any move (Truth: an icon beside an enemy
  // lantern across the middle when the armies are revealed) test no play, so they are drawn again, up to
  // a bound; a named arrangement is used as it is. "ai": each army as an AI seat would set it up.
  std::vector<json> placements;
  if (made->game().phase() == Phase::setup)
    for (int attempt = 0; attempt < kSetupAttempts; ++attempt) {
      if (attempt > 0) made.emplace(Session::create(config.game, config.options));
      placements.clear();
      for (Player p = 0; p < players; ++p) {
        const uint64_t setup_seed = setups_from.next();  // drawn either way, so move seeds do not depend on it
        placements.push_back(config.setup == "ai" ? made->game().ai_arrangement(p, setup_seed)
                                                  : made->game().arrangement(p, config.setup, setup_seed));
        made->setup(p, placements.back());
      }
      if (!made->over() || (config.setup != "random" && config.setup != "ai")) break;
      ++total.setups_redrawn;
    }
  Session& s = *made;
  a.start(config.game, config.options, placements);
  b.start(config.game, config.options, placements);

  int plies = 0;
  Rng opening_rng((config.seed + static_cast<uint64_t>(config.paired ? g & ~1 : g)) ^ 0x6f70656e696e6773ULL);
  for (; plies < config.opening_plies && !s.over(); ++plies) {
    const std::vector<std::string> legal = s.legal();
    const std::string& move = legal[opening_rng.below(legal.size())];
    s.play(move);
    a.moved(move);
    b.moved(move);
  }
  while (!s.over()) {
    if (plies >= config.max_plies) {
      s.adjudicate(Result{{}, "ply-limit"});
      ++total.adjudicated;
      break;
    }
    const Player p = s.game().to_move();
    const bool a_moves = is_a(p);
    // 63 bits: the engine protocol takes a seed up to 2^63 - 1, and a program must get the seed we would use.
    const uint64_t seed = (config.paired ? seat_rngs[static_cast<size_t>(p)] : a_moves ? a_rng : b_rng).next() >> 1;
    std::optional<Choice> c;
    try {
      c = (a_moves ? a : b).choose(s.game(), seed);
      if (!find_legal_move(s.game(), c->move)) throw std::runtime_error("illegal move " + c->move);
    } catch (const std::exception&) {
      // A side that cannot answer loses: every seat of the other side wins.
      std::vector<Player> winners;
      for (Player q = 0; q < players; ++q)
        if (is_a(q) != a_moves) winners.push_back(q);
      s.adjudicate(Result{winners, "resignation"});  // as if it resigned
      ++(a_moves ? total.forfeits_a : total.forfeits_b);
      break;
    }
    (a_moves ? total.a_moves : total.b_moves) += 1;
    (a_moves ? total.a_nodes : total.b_nodes) += c->info.value("nodes", uint64_t{0});
    (a_moves ? total.a_ms : total.b_ms) += c->info.value("ms", 0);
    s.play(c->move);
    a.moved(c->move);
    b.moved(c->move);
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
  total.last_end = r.reason + "; a in seat";
  for (Player p = 0; p < players; ++p)
    if (is_a(p)) total.last_end += " " + std::to_string(p);
  if (const json state = s.game().state_json(); state.contains("scores") && state["scores"].is_array()) {
    total.last_end += "; scores";
    for (const json& score : state["scores"]) total.last_end += " " + score.dump();
  }
  if (!config.record_to.empty() && !write_record(s, config, is_a)) total.last_end += "; record not written";
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
  return total;
}

MatchResult play_match(const MatchConfig& config, const std::function<void(int game, const MatchResult&)>& progress) {
  MatchResult total;
  LevelMover a(config.a), b(config.b);
  for (int g = config.first_game; g < config.first_game + config.games; ++g) {
    total.add(play_game(config, g, a, b));
    if (progress) progress(g, total);
  }
  return total;
}

}  // namespace tabula::ai
