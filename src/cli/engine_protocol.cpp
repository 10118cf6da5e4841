#include "cli/engine_protocol.h"

#include "ai/ai.h"

#include <istream>
#include <ostream>

namespace tabula {

namespace {

json events_json(const std::vector<Event>& events) {
  json out = json::array();
  for (const Event& e : events) out.push_back(e.full);  // the engine is the referee: it sees everything
  return out;
}

json error_response(const std::string& message) { return json{{"ok", false}, {"error", message}}; }

Player player_field(const json& request, const Session& s) {
  return static_cast<Player>(int_field(request, "player", 0, s.num_players() - 1));
}

}  // namespace

Session& EngineProtocol::session() {
  if (!session_) fail(ErrorKind::conflict, "no game: send {\"cmd\":\"new\",\"game\":…} first");
  return *session_;
}

std::string EngineProtocol::handle_line(std::string_view line) {
  json response;
  json id;
  if (line.size() > kMaxLine) {
    return too_long_response();
  } else if (nesting_depth(line) > kMaxDepth) {
    response = error_response("request nested too deeply");
  } else {
    json request = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (request.is_discarded()) {
      response = error_response("malformed JSON");
    } else if (!request.is_object()) {
      response = error_response("a request must be a JSON object");
    } else {
      if (auto it = request.find("id"); it != request.end()) id = *it;
      try {
        response = dispatch(request);
        response["ok"] = true;
      } catch (const GameError& e) {
        response = error_response(e.what());
      } catch (const json::exception& e) {
        response = error_response(std::string("bad request: ") + e.what());
      } catch (const std::exception& e) {
        response = error_response(std::string("internal error: ") + e.what());
      }
    }
  }
  if (!id.is_null()) response["id"] = id;
  return response.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string EngineProtocol::too_long_response() {
  return error_response("request line too long (at most " + std::to_string(kMaxLine) + " bytes)").dump();
}

json EngineProtocol::dispatch(const json& request) {
  const std::string cmd = string_field(request, "cmd");

  if (cmd == "new") {
    const std::string game = string_field(request, "game");
    const json* state = find_field(request, "state");
    const json* options = find_field(request, "options");
    std::optional<Session> fresh;
    if (state && !state->is_null()) {
      if (options && !options->is_null()) {
        json merged = *state;
        merged["options"] = *options;
        fresh.emplace(Session::from_state(game, merged));
      } else {
        fresh.emplace(Session::from_state(game, *state));
      }
    } else {
      fresh.emplace(Session::create(game, options ? *options : json::object()));
    }
    session_ = std::move(fresh);
    memory_.forget();  // another game: what the AI learnt of the last one is no use
    return json{{"state", session_->state()}};
  }
  if (cmd == "quit") {
    quit_ = true;
    return json::object();
  }

  Session& s = session();
  if (cmd == "legal") return json{{"moves", s.legal()}};
  if (cmd == "state") return json{{"state", s.state()}};
  if (cmd == "play") {
    auto events = s.play(string_field(request, "move"));
    return json{{"events", events_json(events)}, {"state", s.state()}};
  }
  if (cmd == "observe") {
    const json* p = find_field(request, "player");
    Player viewer = (p && !p->is_null()) ? player_field(request, s) : kSpectator;
    return json{{"observation", s.observation(viewer)}, {"events", s.events_for(viewer)}};
  }
  if (cmd == "setup") {
    Player p = player_field(request, s);
    if (const json* placement = find_field(request, "placement")) {
      return json{{"events", events_json(s.setup(p, *placement))}, {"state", s.state()}};
    }
    const std::string name = string_field(request, "arrangement");
    uint64_t seed = 0;
    if (find_field(request, "seed")) seed = static_cast<uint64_t>(int_field(request, "seed", 0, INT64_MAX));
    return json{{"events", events_json(s.setup_arrangement(p, name, seed))}, {"state", s.state()}};
  }
  if (cmd == "offer") {
    Player p = player_field(request, s);
    auto events = s.offer(p, string_field(request, "what"));
    return json{{"events", events_json(events)}, {"state", s.state()}};
  }
  if (cmd == "perft") {
    int depth = static_cast<int>(int_field(request, "depth", 0, kMaxPerftDepth));
    auto g = s.game().clone();
    const std::optional<uint64_t> nodes = perft_within(*g, depth, perft_expansions_);
    if (!nodes)
      fail(ErrorKind::bad_request,
           "perft: more than " + std::to_string(perft_expansions_) + " positions to expand; ask for a smaller depth");
    return json{{"nodes", *nodes}};
  }
  if (cmd == "ai") {
    // A level's default budget in this game, unless the request names one: "nodes" makes the choice deterministic.
    ai::Limits limits = ai::level_limits(
        s.game().kind(), static_cast<int>(int_field(request, "level", ai::kMinLevel, ai::kMaxLevel)));
    if (find_field(request, "seed")) limits.seed = static_cast<uint64_t>(int_field(request, "seed", 0, INT64_MAX));
    const json* nodes = find_field(request, "nodes");
    const json* ms = find_field(request, "ms");
    if (nodes && ms) fail(ErrorKind::bad_request, "give \"ms\" or \"nodes\", not both");
    if (nodes) {
      limits.nodes = static_cast<uint64_t>(int_field(request, "nodes", 1, 1'000'000'000));
      limits.ms.reset();
    } else if (ms) {
      limits.ms = static_cast<int>(int_field(request, "ms", 1, 600'000));
      limits.nodes.reset();
    }

    if (const json* answer = find_field(request, "answer")) {
      if (!answer->is_string()) fail(ErrorKind::bad_request, "field \"answer\" must be a string");
      Player p = player_field(request, s);
      if (s.over()) fail(ErrorKind::conflict, "the game is over");
      if (!s.game().offer_stands(answer->get<std::string>(), p))
        fail(ErrorKind::conflict, "no " + answer->get<std::string>() + " offer stands for player " + std::to_string(p) + " to answer");
      return json{{"accept", ai::accepts_offer(s.game(), p, answer->get<std::string>(), limits)}};
    }
    if (s.over()) fail(ErrorKind::conflict, "the game is over");
    if (s.game().phase() != Phase::play) fail(ErrorKind::conflict, "no move is legal until every army is set up");
    ai::Choice c = ai::choose_move(s.game(), limits, nullptr, &memory_);
    return json{{"move", c.move}, {"info", c.info}};
  }
  fail(ErrorKind::bad_request, "unknown command \"" + cmd + "\"");
}

int run_engine(std::istream& in, std::ostream& out) {
  EngineProtocol engine;
  std::string line;
  bool too_long = false;
  char c;
  // Reads byte by byte so an endless line costs at most kMaxLine bytes of memory.
  while (in.get(c)) {
    if (c != '\n') {
      if (line.size() <= EngineProtocol::kMaxLine) line += c;
      else too_long = true;
      continue;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // Every line gets an answer, a blank one too, so a client never waits for a response that will not come.
    out << (too_long ? EngineProtocol::too_long_response() : engine.handle_line(line)) << '\n';
    out.flush();
    line.clear();
    too_long = false;
    if (engine.quit_requested()) return 0;
  }
  if (!line.empty() || too_long)
    out << (too_long ? EngineProtocol::too_long_response() : engine.handle_line(line)) << '\n';
  return 0;
}

}  // namespace tabula
