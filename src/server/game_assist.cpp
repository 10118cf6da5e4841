// What players expect around the board, for every game alike (docs/server.md "Around the board"): take-backs
// (against the AI at will, between people by agreement), the AI's hint, the rematch and the analysis of a
// finished game. None of it is a rule: the games know nothing of it, the Session only how to take back.
#include "server/game_service.h"

#include "core/record_text.h"
#include "core/rng.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace tabula::server {

namespace {

// The analysis searches every position of a game on a node budget: the same game analysed twice reads the
// same, and a long Truth game (a few hundred actions at ~0.1 s each) is done in under a minute on one core.
constexpr uint64_t kAnalysisNodes = 20'000;
constexpr int kAnalysisLevel = 3;
// Scores beyond this are wins found by the search; the analysis reads them as this much, so that a won
// position does not dwarf every other loss in the list and the plot.
constexpr int kAnalysisCap = 10'000;

int capped(int score) { return std::clamp(score, -kAnalysisCap, kAnalysisCap); }

}  // namespace

bool GameService::alone_with_ai(const Live& g, Player seat) {
  for (size_t i = 0; i < g.seats.size(); ++i)
    if (static_cast<Player>(i) != seat && (g.seats[i].type != "ai" || !g.seats[i].handed_from.empty())) return false;
  return true;
}

// A request is overtaken by anything played after it (a move, an offer, another take-back).
const GameService::Live::TakebackRequest* GameService::standing_request(const Live& g) {
  if (!g.takeback_request || g.takeback_request->version != g.session.actions().size() ||
      g.session.game().phase() != Phase::play)
    return nullptr;
  return &*g.takeback_request;
}

json GameService::assist_json(const Live& g, Player viewer) const {
  const Game& game = g.session.game();
  const bool seat = viewer >= 0 && viewer < static_cast<Player>(g.seats.size());
  // A seat the creator handed to the AI: its person watches and may not act (hand_seat).
  const bool acting = seat && g.seats[static_cast<size_t>(viewer)].handed_from.empty() &&
                      g.seats[static_cast<size_t>(viewer)].type == "human";
  const bool playing = game.phase() == Phase::play && status_of(g) == "playing";
  const size_t version = g.session.actions().size();

  json request = nullptr;
  if (const Live::TakebackRequest* r = standing_request(g))
    request = json{{"seat", r->seat}, {"accepted", r->accepted}};
  json hint = nullptr;
  if (seat && g.hint && g.hint->seat == viewer && g.hint->version == version)
    hint = json{{"move", g.hint->move.empty() ? json(nullptr) : json(g.hint->move)}, {"pending", g.hint->move.empty()}};
  json rematch = nullptr;
  if (g.session.over() && (!g.rematch_asked.empty() || !g.rematch_id.empty()))
    rematch = json{{"asked", g.rematch_asked}, {"id", g.rematch_id.empty() ? json(nullptr) : json(g.rematch_id)}};
  json analysis = nullptr;
  if (g.analysis)
    analysis = json{{"status", g.analysis->results.size() < g.analysis->positions.size() ? "running" : "done"},
                    {"done", g.analysis->results.size()},
                    {"total", g.analysis->positions.size()}};

  const bool alone = seat && alone_with_ai(g, viewer);
  const bool can_take_back = acting && playing && g.session.can_take_back(viewer);
  const bool asked_rematch = std::find(g.rematch_asked.begin(), g.rematch_asked.end(), viewer) != g.rematch_asked.end();
  json can{{"takeback", can_take_back && alone},
           {"takeback_request", can_take_back && !alone && !g.session.hides_information() && request.is_null()},
           {"hint", acting && playing && alone && game.to_move() == viewer},
           {"rematch", acting && g.session.over() && g.rematch_id.empty() && !asked_rematch},
           {"analysis", g.session.over() && g.session.has_moves()}};
  return json{{"takebacks", g.session.takebacks()},
              {"takeback_request", request},
              {"hint", hint},
              {"rematch", rematch},
              {"analysis", analysis},
              {"danger", playing ? game.danger_for(seat ? viewer : kSpectator) : json::array()},
              {"assist", can}};
}

// ---- take-backs ----------------------------------------------------------------------------------------

void GameService::take_back(Live& g, Player seat) {
  g.takeback_request.reset();
  g.hint.reset();
  g.ai_move_version.reset();  // a search under way is for a position that is gone: dropped when it returns
  commit(g, [&](Session& s) { return s.take_back(seat); });
  log_line("game " + g.id + ": seat " + std::to_string(seat) + " took back (" +
           std::to_string(g.session.takebacks()) + " so far)");
}

json GameService::takeback(std::string_view id, const Token& token, const json& body) {
  auto [g, seat] = seat_action(id, token, body);
  const std::string what = string_field(body, "what");
  if (what != "request" && what != "accept" && what != "decline")
    fail(ErrorKind::bad_request, "a take-back is \"request\", \"accept\" or \"decline\"");
  if (g.session.game().phase() != Phase::play || status_of(g) != "playing")
    fail(ErrorKind::conflict, "take-backs are made during play");

  if (what == "request") {
    if (!g.session.can_take_back(seat)) fail(ErrorKind::conflict, "you have no move to take back");
    if (alone_with_ai(g, seat)) {
      take_back(g, seat);
      advance(g);
      return json{{"takebacks", g.session.takebacks()}, {"takeback_request", nullptr}};
    }
    // Between people a take-back would undo what the other saw; with something hidden it would also let the
    // asker learn and forget. Only games that hide nothing have it (Tigadi, FACET without fog, Truth in play).
    if (g.session.hides_information())
      fail(ErrorKind::conflict, "between people a take-back is asked for only in a game that hides nothing");
    if (standing_request(g)) fail(ErrorKind::conflict, "a take-back request already stands");
    g.takeback_request = Live::TakebackRequest{seat, g.session.actions().size(), {}};
    notify(g, {});
    return json{{"takebacks", g.session.takebacks()}, {"takeback_request", {{"seat", seat}, {"accepted", json::array()}}}};
  }

  const Live::TakebackRequest* r = standing_request(g);
  if (!r || r->seat == seat) fail(ErrorKind::conflict, "no take-back request of another player stands");
  if (what == "decline") {
    g.takeback_request.reset();
    notify(g, {});
    return json{{"takebacks", g.session.takebacks()}, {"takeback_request", nullptr}};
  }
  Live::TakebackRequest& req = *g.takeback_request;
  if (std::find(req.accepted.begin(), req.accepted.end(), seat) == req.accepted.end()) {
    req.accepted.push_back(seat);
    std::sort(req.accepted.begin(), req.accepted.end());
  }
  // Every other person must agree (AI seats have no say: they replay from wherever the game goes back to).
  bool all = true;
  for (size_t i = 0; i < g.seats.size(); ++i) {
    const Player p = static_cast<Player>(i);
    const bool person = g.seats[i].type != "ai" || !g.seats[i].handed_from.empty();
    if (p != req.seat && person && std::find(req.accepted.begin(), req.accepted.end(), p) == req.accepted.end())
      all = false;
  }
  if (!all) {
    notify(g, {});
    return json{{"takebacks", g.session.takebacks()}, {"takeback_request", {{"seat", req.seat}, {"accepted", req.accepted}}}};
  }
  take_back(g, req.seat);
  advance(g);
  return json{{"takebacks", g.session.takebacks()}, {"takeback_request", nullptr}};
}

// ---- hints ---------------------------------------------------------------------------------------------

json GameService::hint(std::string_view id, const Token& token, const json& body) {
  auto [g, seat] = seat_action(id, token, body);
  const Game& game = g.session.game();
  if (!alone_with_ai(g, seat))
    fail(ErrorKind::conflict, "hints are given only in a game where every other seat is the AI's");
  if (game.phase() != Phase::play || status_of(g) != "playing") fail(ErrorKind::conflict, "hints are given during play");
  if (game.to_move() != seat) fail(ErrorKind::not_your_turn, "it is not your turn");
  const size_t version = g.session.actions().size();
  if (g.hint && g.hint->seat == seat && g.hint->version == version)
    return json{{"hint", {{"move", g.hint->move.empty() ? json(nullptr) : json(g.hint->move)},
                          {"pending", g.hint->move.empty()}}}};

  // The strongest of the game's AI levels, and never below level 3: a hint should be worth asking for.
  int level = 3;
  for (const Seat& s : g.seats)
    if (s.type == "ai" && s.level) level = std::max(level, *s.level);
  g.hint = Live::Hint{seat, version, ""};
  // A copy of the game as it stands: choose_move searches only worlds drawn from the seat's own view
  // (sample_world), so a hint in Stratego or under fog never reads what the seat does not know.
  std::shared_ptr<const Game> snapshot(game.clone());
  const ai::Limits limits = limits_for(g, level, seat, SeedUse::hint);
  const std::string gid = g.id;
  scheduler_(
      AiWorkers::Lane::interactive,
      [snapshot, limits](const std::atomic<bool>& stop) { return ai::choose_move(*snapshot, limits, &stop); },
      [this, gid, version, seat](ai::Choice choice) {
        auto it = games_.find(gid);
        if (it == games_.end()) return;
        Live& live = it->second;
        if (!live.hint || live.hint->seat != seat || live.hint->version != version) return;  // overtaken
        if (live.session.actions().size() != version) return;
        live.hint->move = choice.move;  // the move only: the search's info (score, worlds) stays here
        notify(live, {});
      });
  return json{{"hint", {{"move", nullptr}, {"pending", true}}}};
}

// ---- rematch -------------------------------------------------------------------------------------------

json GameService::rematch(std::string_view id, const Token& token, const json& body) {
  Live& g = find(id);
  const Player seat = require_seat(g, token);
  if (!body.is_object()) fail(ErrorKind::bad_request, "expected a JSON object");
  if (!g.session.over()) fail(ErrorKind::conflict, "a rematch is offered once the game is over");
  if (g.rematch_id.empty()) {
    if (std::find(g.rematch_asked.begin(), g.rematch_asked.end(), seat) == g.rematch_asked.end()) {
      g.rematch_asked.push_back(seat);
      std::sort(g.rematch_asked.begin(), g.rematch_asked.end());
    }
    bool all = true;
    for (size_t i = 0; i < g.seats.size(); ++i) {
      const bool person = g.seats[i].type == "human" || !g.seats[i].handed_from.empty();
      if (person && std::find(g.rematch_asked.begin(), g.rematch_asked.end(), static_cast<Player>(i)) ==
                        g.rematch_asked.end())
        all = false;
    }
    if (all) {
      // The seats turned by one: two players swap sides; with four, each moves one place in the turn order.
      // A person keeps their token (its digest moves with them), so the page that played the game plays the
      // rematch; a seat handed to the AI is the person's again; an AI keeps its level.
      const size_t n = g.seats.size();
      std::vector<Seat> seats(n);
      for (size_t i = 0; i < n; ++i) {
        Seat s = g.seats[(i + 1) % n];
        if (!s.handed_from.empty()) {
          s.type = s.handed_from;
          s.handed_from.clear();
          s.level.reset();
          if (s.type == "open") s.name.reset();
        }
        seats[i] = std::move(s);
      }
      Session session = Session::create(g.session.kind(), g.session.record().value("options", json::object()));
      Live& next = register_game(std::move(session), std::move(seats), g.creator_hash);
      g.rematch_id = next.id;
      log_line("game " + g.id + ": rematch " + next.id);
    }
    notify(g, {});
  }
  return json{{"rematch", {{"asked", g.rematch_asked}, {"id", g.rematch_id.empty() ? json(nullptr) : json(g.rematch_id)}}}};
}

// ---- analysis ------------------------------------------------------------------------------------------

json GameService::start_analysis(std::string_view id) {
  Live& g = find(id);
  if (!g.session.over()) fail(ErrorKind::conflict, "a game is analysed once it is over");
  if (!g.session.has_moves()) fail(ErrorKind::conflict, "no move was played in this game: nothing to analyse");
  if (!g.analysis) {
    auto a = std::make_shared<Live::Analysis>();
    // The line of play from its start: the setups as play began, then the moves (offers move nothing).
    const json record = g.session.record();
    const json& start = record["start"];
    Session line = start.is_null() ? Session::create(g.session.kind(), record.value("options", json::object()))
                                   : Session::from_state(g.session.kind(), start);
    for (auto it = record["setups"].begin(); it != record["setups"].end(); ++it)
      line.setup(std::stoi(it.key()), *it);
    for (const json& m : record["moves"]) {
      if (line.game().phase() != Phase::play) break;
      a->positions.push_back(std::shared_ptr<const Game>(line.game().clone()));
      a->played.push_back(m.get<std::string>());
      line.play(m.get<std::string>());
    }
    g.analysis = a;
    log_line("game " + g.id + ": analysis of " + std::to_string(a->positions.size()) + " positions");
    schedule_analysis_step(g);
    notify(g, {});
  }
  return analysis(id);
}

void GameService::schedule_analysis_step(Live& g) {
  std::shared_ptr<Live::Analysis> a = g.analysis;
  if (!a || a->running || a->results.size() >= a->positions.size()) return;
  const size_t i = a->results.size();
  std::shared_ptr<const Game> position = a->positions[i];
  ai::Limits limits;
  limits.level = kAnalysisLevel;
  limits.nodes = kAnalysisNodes;
  limits.seed = i + 1;  // the game is over: nothing to keep secret, and the same analysis every time
  a->running = true;
  const std::string gid = g.id;
  // One position a job: moves of games being played are served between them.
  scheduler_(
      AiWorkers::Lane::interactive,
      [position, limits](const std::atomic<bool>& stop) { return ai::choose_move(*position, limits, &stop); },
      [this, gid, a, i, position](ai::Choice choice) {
        auto it = games_.find(gid);
        if (it == games_.end() || it->second.analysis != a) return;
        a->running = false;
        const Player mover = position->to_move();
        const int score = capped(choice.info.value("score", 0));
        a->results.push_back(json{{"index", i},
                                  {"mover", mover},
                                  {"played", a->played[i]},
                                  {"best", choice.move},
                                  {"score", score},
                                  {"loss", nullptr}});
        // The previous move's loss: what its mover stood before it, less what they stand after it. After it
        // the next mover's score says so directly when it is the same player (Truth's second action), or
        // negated with two players; with four, the paranoid score of another player does not say it.
        if (i > 0) {
          json& prev = a->results[i - 1];
          const Player prev_mover = prev["mover"].get<Player>();
          std::optional<int> after;
          if (prev_mover == mover) after = score;
          else if (position->num_players() == 2) after = -score;
          if (after) prev["loss"] = std::max(0, prev["score"].get<int>() - *after);
        }
        schedule_analysis_step(it->second);
        notify(it->second, {});
      });
}

json GameService::analysis(std::string_view id) const {
  const Live& g = find(id);
  if (!g.analysis) return json{{"status", "none"}, {"done", 0}, {"total", 0}, {"positions", json::array()}};
  const Live::Analysis& a = *g.analysis;
  return json{{"status", a.results.size() < a.positions.size() ? "running" : "done"},
              {"done", a.results.size()},
              {"total", a.positions.size()},
              {"positions", a.results}};
}

// ---- records -------------------------------------------------------------------------------------------

std::string GameService::record_text(std::string_view id, const Token& token) const {
  const Live& g = find(id);
  const Player viewer = seat_of(g, token);
  RecordTags tags;
  for (const Seat& s : g.seats) tags.players.push_back(s.name.value_or(""));
  // created_at is ISO 8601 ("2026-12-02T…"); PGN writes dates "2026.12.02".
  if (g.created_at.size() >= 10) {
    tags.date = g.created_at.substr(0, 10);
    std::replace(tags.date.begin(), tags.date.end(), '-', '.');
  }
  tags.takebacks = g.session.takebacks();
  return seat_record_text(g.session, viewer, tags);
}

json GameService::import_record(const json& body) {
  if (!body.is_object()) fail(ErrorKind::bad_request, "expected a JSON object");
  const std::string text = string_field(body, "text");
  TextRecord parsed = parse_record_text(text);
  Session session = Session::from_record(parsed.record);
  std::vector<Seat> seats(static_cast<size_t>(session.num_players()));
  for (size_t i = 0; i < seats.size(); ++i) {
    seats[i].type = "human";  // with no token: the game is there to be watched, replayed and analysed
    seats[i].imported = true;
    if (i < parsed.tags.players.size() && !parsed.tags.players[i].empty() && parsed.tags.players[i] != "?")
      seats[i].name = parsed.tags.players[i];
  }
  Live& g = register_game(std::move(session), std::move(seats), "");
  log_line("game " + g.id + " imported from a record");
  return json{{"id", g.id}, {"status", status_of(g)}};
}

}  // namespace tabula::server
