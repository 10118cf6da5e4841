#include "core/game.h"

#include <algorithm>

namespace tabula {

std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::setup: return "setup";
    case Phase::play: return "play";
    case Phase::over: return "over";
  }
  return "play";
}

Result Result::from_json(const json& j) {
  if (!j.is_object()) fail(ErrorKind::bad_request, "result must be an object");
  Result r;
  const json* w = find_field(j, "winners");
  if (!w || !w->is_array()) fail(ErrorKind::bad_request, "result.winners must be a list");
  for (const json& p : *w) {
    if (!p.is_number_integer() || p.get<long long>() < 0 || p.get<long long>() > 3)
      fail(ErrorKind::bad_request, "result.winners must list player numbers");
    r.winners.push_back(p.get<int>());
  }
  std::sort(r.winners.begin(), r.winners.end());
  r.reason = string_field(j, "reason");
  return r;
}

const json& Event::view_for(Player viewer, int num_players) const {
  if (views.empty()) return full;
  size_t i = viewer == kSpectator ? static_cast<size_t>(num_players) : static_cast<size_t>(viewer);
  return i < views.size() ? views[i] : views.back();
}

Event over_event(const Result& r) { return Event{json{{"type", "over"}, {"result", r.to_json()}}, {}}; }

std::string Game::explain_illegal(std::string_view text) const {
  return "\"" + std::string(text) + "\" is not a legal move now";
}

void Game::setup(Player, const json&, EventLog*) {
  fail(ErrorKind::conflict, std::string(kind()) + " has no setup phase");
}

json Game::arrangement(Player, std::string_view, uint64_t) const {
  fail(ErrorKind::conflict, std::string(kind()) + " has no setup phase");
}

void Game::offer(Player, std::string_view what, EventLog*) {
  fail(ErrorKind::conflict, std::string(kind()) + " has no \"" + std::string(what) + "\" offers");
}

bool Game::offer_stands(std::string_view, Player) const { return false; }

std::unique_ptr<Game> Game::sample_world(Player, Rng&) const { return clone(); }

namespace {
class EachWorldAnew final : public Game::WorldSampler {
 public:
  EachWorldAnew(const Game& game, Player viewer) : game_(game), viewer_(viewer) {}
  std::unique_ptr<Game> sample(Rng& rng) override { return game_.sample_world(viewer_, rng); }

 private:
  const Game& game_;
  Player viewer_;
};
}  // namespace

std::unique_ptr<Game::WorldSampler> Game::world_sampler(Player viewer, bool) const {
  return std::make_unique<EachWorldAnew>(*this, viewer);
}

void Game::legal_captures(MoveList& out) const {
  legal_moves(out);
  int kept = 0;
  for (int i = 0; i < out.size(); ++i)
    if (is_capture(out[i])) out[kept++] = out[i];
  out.truncate(kept);
}

json common_state_json(const Game& g, json options, json board) {
  const Result* r = g.result();
  return json{{"game", std::string(g.kind())},
              {"options", std::move(options)},
              {"phase", phase_name(g.phase())},
              {"to_move", g.to_move()},
              {"ply", g.ply()},
              {"board", std::move(board)},
              {"result", r ? r->to_json() : json(nullptr)}};
}

const GameKind::Variant* GameKind::variant_for(int players) const {
  for (const Variant& v : variants)
    if (v.players == players) return &v;
  return nullptr;
}

const GameKind& game_kind(std::string_view name) {
  for (const GameKind& k : game_kinds())
    if (k.name == name) return k;
  fail(ErrorKind::not_found, "unknown game \"" + std::string(name) + "\"");
}

std::vector<std::string> legal_move_strings(const Game& g) {
  MoveList moves;
  g.legal_moves(moves);
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(moves.size()));
  for (Move m : moves) out.push_back(g.move_to_string(m));
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<Move> find_legal_move(const Game& g, std::string_view text) {
  MoveList moves;
  g.legal_moves(moves);
  for (Move m : moves)
    if (g.move_to_string(m) == text) return m;
  return std::nullopt;
}

namespace {

// perft with a budget of expansions; false once it is spent (the count is then meaningless).
bool count_sequences(Game& g, int depth, uint64_t& budget, uint64_t& count) {
  if (depth <= 0) {
    ++count;
    return true;
  }
  if (g.phase() == Phase::over) return true;
  if (budget == 0) return false;
  --budget;
  MoveList moves;
  g.legal_moves(moves);
  if (depth == 1) {
    count += static_cast<uint64_t>(moves.size());
    return true;
  }
  for (Move m : moves) {
    g.apply(m);
    const bool done = count_sequences(g, depth - 1, budget, count);
    g.undo();
    if (!done) return false;
  }
  return true;
}

}  // namespace

std::optional<uint64_t> perft_within(Game& g, int depth, uint64_t max_expansions) {
  uint64_t count = 0;
  if (!count_sequences(g, depth, max_expansions, count)) return std::nullopt;
  return count;
}

uint64_t perft(Game& g, int depth) { return *perft_within(g, depth, UINT64_MAX); }

}  // namespace tabula
