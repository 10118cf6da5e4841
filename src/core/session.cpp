#include "core/session.h"

#include <algorithm>
#include <iterator>

namespace tabula {

Session::Session(std::unique_ptr<Game> game, json options, json start)
    : game_(std::move(game)), options_(std::move(options)), start_(std::move(start)) {}

Session Session::create(std::string_view game, const json& options) {
  const GameKind& k = game_kind(game);
  json opts = options.is_null() ? json::object() : options;
  auto g = k.create(opts);
  json effective = g->state_json().value("options", json::object());
  return Session(std::move(g), effective, nullptr);
}

Session Session::from_state(std::string_view game, const json& state) {
  const GameKind& k = game_kind(game);
  auto g = k.from_state(state);
  json effective = g->state_json().value("options", json::object());
  json start = g->state_json();
  return Session(std::move(g), effective, start);
}

Session Session::adopt(std::unique_ptr<Game> game) {
  json effective = game->state_json().value("options", json::object());
  return Session(std::move(game), effective, nullptr);
}

Session Session::from_record(const json& record) {
  if (!record.is_object()) fail(ErrorKind::bad_request, "a record must be an object");
  std::string game = string_field(record, "game");
  const json* start = find_field(record, "start");
  Session s = (start && !start->is_null()) ? from_state(game, *start)
                                           : create(game, record.value("options", json::object()));
  const json* actions = find_field(record, "actions");
  if (actions) {
    if (!actions->is_array()) fail(ErrorKind::bad_request, "record.actions must be a list");
    for (const json& a : *actions) s.apply_action(a);
  } else if (const json* moves = find_field(record, "moves")) {
    if (!moves->is_array()) fail(ErrorKind::bad_request, "record.moves must be a list");
    for (const json& m : *moves) {
      if (!m.is_string()) fail(ErrorKind::bad_request, "record.moves must list move strings");
      s.play(m.get<std::string>());
    }
  }
  return s;
}

Session Session::clone() const {
  Session s(game_->clone(), options_, start_);
  s.actions_ = actions_;
  s.events_ = events_;
  s.sealed_ = sealed_;
  s.line_ = line_;
  s.takebacks_ = takebacks_;
  return s;
}

std::vector<Event> Session::commit(json action, EventLog&& events) {
  actions_.push_back(std::move(action));
  line_.push_back(LineEntry{actions_.size() - 1, kSpectator, 0, false});
  for (const Event& e : events) events_.push_back(e);
  return std::move(events);
}

std::vector<Event> Session::play(std::string_view move) {
  if (game_->phase() == Phase::over) fail(ErrorKind::conflict, "the game is over");
  if (game_->phase() == Phase::setup)
    fail(ErrorKind::conflict, "no move is legal until every army is set up");
  std::optional<Move> m = find_legal_move(*game_, move);
  if (!m) fail(ErrorKind::illegal, game_->explain_illegal(move));
  EventLog events;
  const Player mover = game_->to_move();
  const int ply = game_->ply();
  game_->apply(*m, &events);
  auto out = commit(json{{"type", "move"}, {"move", std::string(move)}}, std::move(events));
  line_.back() = LineEntry{actions_.size() - 1, mover, ply, true};
  return out;
}

std::vector<Event> Session::play_as(Player player, std::string_view move) {
  if (game_->phase() == Phase::over) fail(ErrorKind::conflict, "the game is over");
  if (game_->phase() == Phase::play && game_->to_move() != player)
    fail(ErrorKind::not_your_turn, "it is not your turn");
  return play(move);
}

std::vector<Event> Session::setup(Player player, const json& placement) {
  if (player < 0 || player >= num_players()) fail(ErrorKind::bad_request, "no such player");
  if (game_->phase() == Phase::over) fail(ErrorKind::conflict, "the game is over");
  EventLog events;
  game_->setup(player, placement, &events);
  return commit(json{{"type", "setup"}, {"player", player}, {"placement", placement}}, std::move(events));
}

std::vector<Event> Session::setup_arrangement(Player player, std::string_view name, uint64_t seed) {
  if (player < 0 || player >= num_players()) fail(ErrorKind::bad_request, "no such player");
  if (game_->phase() == Phase::over) fail(ErrorKind::conflict, "the game is over");
  return setup(player, game_->arrangement(player, name, seed));
}

// "Play began" is the game-independent part of the rule that a game ended before play begins reveals no
// setup (shared rulings, common rules; docs/rulings.md C1). No game needs to know it: a game in its setup
// phase already shows each viewer only what it may see then, so the Session keeps those views when an
// action other than a setup ends the game there, and shows them instead of the game's (which, once over,
// would be the state). A setup never seals: the last one lets play begin (every army shown together), even
// when the rules then decide the game at once.
std::vector<json> Session::setup_views() const {
  std::vector<json> views;
  if (game_->phase() != Phase::setup) return views;
  for (Player p = 0; p < num_players(); ++p) views.push_back(game_->observation_json(p));
  views.push_back(game_->observation_json(kSpectator));
  return views;
}

void Session::seal_if_ended(std::vector<json> views) {
  if (views.empty() || !over()) return;
  // What each viewer saw in setup, plus what the end changed of the fields every game has.
  const Result* r = game_->result();
  for (json& v : views) {
    v["phase"] = phase_name(game_->phase());
    v["to_move"] = game_->to_move();
    v["ply"] = game_->ply();
    v["result"] = r ? r->to_json() : json(nullptr);
  }
  sealed_ = std::move(views);
}

std::vector<Event> Session::offer(Player player, std::string_view what) {
  // The protocol's whole vocabulary of offers; which of them a game has is the game's to say (409).
  static constexpr std::string_view kOffers[] = {"draw", "accept", "decline", "stalemate", "withdraw", "resign"};
  if (std::find(std::begin(kOffers), std::end(kOffers), what) == std::end(kOffers))
    fail(ErrorKind::bad_request, "an offer is one of draw, accept, decline, stalemate, withdraw, resign");
  if (player < 0 || player >= num_players()) fail(ErrorKind::bad_request, "no such player");
  if (game_->phase() == Phase::over) fail(ErrorKind::conflict, "the game is over");
  std::vector<json> views = setup_views();
  EventLog events;
  if (what == "resign") {
    Result r;
    for (Player p = 0; p < num_players(); ++p)
      if (p != player) r.winners.push_back(p);
    r.reason = "resignation";
    events.push_back(Event{json{{"type", "resign"}, {"player", player}}, {}});
    game_->end_with(r, &events);
  } else {
    game_->offer(player, what, &events);  // an accepted offer may end the game too
  }
  seal_if_ended(std::move(views));
  return commit(json{{"type", "offer"}, {"player", player}, {"what", std::string(what)}}, std::move(events));
}

std::vector<Event> Session::adjudicate(const Result& result) {
  if (game_->phase() == Phase::over) fail(ErrorKind::conflict, "the game is over");
  std::vector<json> views = setup_views();
  EventLog events;
  game_->end_with(result, &events);
  seal_if_ended(std::move(views));
  return commit(json{{"type", "adjudicate"}, {"result", result.to_json()}}, std::move(events));
}

void Session::apply_action(const json& action) {
  std::string type = string_field(action, "type");
  if (type == "move") {
    play(string_field(action, "move"));
  } else if (type == "setup") {
    setup(static_cast<Player>(int_field(action, "player", 0, 3)), action.at("placement"));
  } else if (type == "offer") {
    offer(static_cast<Player>(int_field(action, "player", 0, 3)), string_field(action, "what"));
  } else if (type == "adjudicate") {
    adjudicate(Result::from_json(action.at("result")));
  } else if (type == "takeback") {
    const Player p = static_cast<Player>(int_field(action, "player", 0, 3));
    if (game_->phase() != Phase::play) fail(ErrorKind::conflict, "a take-back is made during play");
    const long long n = int_field(action, "to", 0, static_cast<long long>(line_.size()));
    if (static_cast<size_t>(n) == line_.size()) fail(ErrorKind::bad_request, "a take-back takes back something");
    cut_line(p, static_cast<size_t>(n));
  } else {
    fail(ErrorKind::bad_request, "unknown action type \"" + type + "\"");
  }
}

bool Session::can_take_back(Player player) const {
  if (game_->phase() != Phase::play) return false;
  return std::any_of(line_.rbegin(), line_.rend(), [player](const LineEntry& e) { return e.move && e.mover == player; });
}

bool Session::has_moves() const {
  return std::any_of(line_.begin(), line_.end(), [](const LineEntry& e) { return e.move; });
}

std::vector<Event> Session::take_back(Player player) {
  if (player < 0 || player >= num_players()) fail(ErrorKind::bad_request, "no such player");
  if (game_->phase() != Phase::play) fail(ErrorKind::conflict, "a take-back is made during play");
  // The player's last move, then back to the first action of that turn.
  size_t n = line_.size();
  while (n > 0 && !(line_[n - 1].move && line_[n - 1].mover == player)) --n;
  if (n == 0) fail(ErrorKind::conflict, "you have no move to take back");
  --n;
  const LineEntry last = line_[n];
  while (n > 0 && line_[n - 1].move && line_[n - 1].mover == player && line_[n - 1].ply == last.ply) --n;
  return cut_line(player, n);
}

// The line is rebuilt by replaying its first n actions from the start: a take-back is rare and a replay is
// exact, where undoing through the games would need every game's undo to reach across offers and setups.
std::vector<Event> Session::cut_line(Player player, size_t n) {
  Session fresh = start_.is_null() ? create(kind(), options_) : from_state(kind(), start_);
  for (size_t i = 0; i < n; ++i) fresh.apply_action(actions_[line_[i].action]);
  if (fresh.game_->phase() != Phase::play) fail(ErrorKind::bad_request, "a take-back goes back to a position in play");
  int moves = 0;
  for (size_t i = n; i < line_.size(); ++i) moves += line_[i].move ? 1 : 0;
  // The fresh line's entries index its own log; in ours they are the same actions at their places here.
  for (size_t i = 0; i < n; ++i) fresh.line_[i].action = line_[i].action;
  game_ = std::move(fresh.game_);
  events_ = std::move(fresh.events_);
  line_.resize(n);
  sealed_.clear();
  ++takebacks_;
  EventLog events{Event{json{{"type", "takeback"}, {"player", player}, {"moves", moves}}, {}}};
  actions_.push_back(json{{"type", "takeback"}, {"player", player}, {"to", n}});
  for (const Event& e : events) events_.push_back(e);
  return events;
}

void Session::rollback_to(size_t n) {
  if (n >= actions_.size()) return;
  Session fresh = start_.is_null() ? create(kind(), options_) : from_state(kind(), start_);
  for (size_t i = 0; i < n; ++i) fresh.apply_action(actions_[i]);
  *this = std::move(fresh);
}

json Session::observation(Player viewer) const {
  if (sealed_.empty()) return game_->observation_json(viewer);
  // Anything but a player is a spectator here: a sealed game has no door to the truth.
  const bool player = viewer >= 0 && viewer < num_players();
  return sealed_[static_cast<size_t>(player ? viewer : num_players())];
}

// Once the game is over every event is shown unredacted to everyone (rulings.md), unless it ended before
// play began: then each viewer keeps the views it had.
json Session::events_for(Player viewer, size_t from) const {
  const bool whole = over() && sealed_.empty();
  json out = json::array();
  for (size_t i = from; i < events_.size(); ++i) {
    const json& v = whole ? events_[i].full : events_[i].view_for(viewer, num_players());
    if (!v.is_null()) out.push_back(v);
  }
  return out;
}

json Session::events_for(Player viewer, const std::vector<Event>& events) const {
  const bool whole = over() && sealed_.empty();
  json out = json::array();
  for (const Event& e : events) {
    const json& v = whole ? e.full : e.view_for(viewer, num_players());
    if (!v.is_null()) out.push_back(v);
  }
  return out;
}

// The record is public once the game is over, so for a game that ended before play began it leaves out
// what nobody may ever see: the setup actions (hence `setups` is {}) and a start given in setup phase (it may
// hold placements; the options rebuild the empty setup phase). What remains (the offers, an adjudication)
// replays to the same result: an end in setup depends on no placement. The complete log stays in actions()
// for the server's storage and restart, and the engine's `state` stays the whole truth for a local driver:
// neither reaches a viewer.
json Session::record() const {
  const bool sealed = ended_before_play();
  json moves = json::array();
  json setups = json::object();  // each player's placement as it stood when play began (the last one given)
  json actions = json::array();
  for (const json& a : actions_) {
    if (sealed && a.at("type") == "setup") continue;
    actions.push_back(a);
  }
  for (const LineEntry& e : line_) {
    const json& a = actions_[e.action];
    if (a.at("type") == "move") moves.push_back(a.at("move"));
    if (a.at("type") == "setup" && !sealed) setups[std::to_string(a.at("player").get<int>())] = a.at("placement");
  }
  const Result* r = game_->result();
  // The start in full, whatever made it (a FACET random layout's terrain, not only its seed): another
  // implementation replays the record from it without our random generator.
  json initial = sealed ? json(nullptr) : start_;
  if (initial.is_null()) {
    try {
      initial = create(kind(), options_).state();
    } catch (const GameError&) {  // an adopted game outside the catalogue: nothing to rebuild it from
    }
  }
  return json{{"game", std::string(kind())},
              {"options", options_},
              {"start", sealed ? json(nullptr) : start_},
              {"initial", std::move(initial)},
              {"actions", actions},
              {"setups", setups},
              {"moves", moves},
              {"result", r ? r->to_json() : json(nullptr)},
              {"takebacks", takebacks_}};
}

}  // namespace tabula
