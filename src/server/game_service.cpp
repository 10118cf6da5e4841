#include "server/game_service.h"

#include "core/rng.h"
#include "server/names.h"
#include "server/sha256.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <utility>

namespace tabula::server {

int http_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::bad_request: return 400;
    case ErrorKind::unauthorized: return 401;
    case ErrorKind::not_found: return 404;
    case ErrorKind::not_your_turn: return 409;
    case ErrorKind::conflict: return 409;
    case ErrorKind::illegal: return 422;
  }
  return 400;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  // The loop's length and branches depend on the lengths only, never on the bytes.
  unsigned diff = a.size() == b.size() ? 0u : 1u;
  const size_t n = std::max(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned>(x ^ y);
  }
  return diff == 0;
}

namespace {

constexpr size_t kListLimit = 100;

}  // namespace

std::string now_iso8601() {
  using namespace std::chrono;
  auto now = system_clock::now();
  std::time_t t = system_clock::to_time_t(now);
  auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms));
  return out;
}

void log_line(const std::string& text) { std::fprintf(stderr, "%s\n", text.c_str()); }

std::string serialise(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

void check_seat_count(const GameKind& kind, int players, int seats) {
  // The options decide the number of players (Truth's `players`; every other game has one count).
  const GameKind::Variant* variant = kind.variant_for(players);
  if (!variant) fail(ErrorKind::bad_request, kind.title + " is not played by " + std::to_string(players) + " players");
  if (seats == players) return;
  std::string why = kind.title + (kind.variants.size() > 1 ? " with these options" : "") + " is for " +
                    std::to_string(players) + " players, so it needs " + std::to_string(players) + " seats, not " +
                    std::to_string(seats);
  // Name the options that would make a game for the seats given, where the kind has such a variant.
  if (const GameKind::Variant* wanted = kind.variant_for(seats)) {
    json differ = json::object();
    for (auto it = wanted->options.begin(); it != wanted->options.end(); ++it)
      if (variant->options.value(it.key(), json()) != it.value()) differ[it.key()] = it.value();
    if (!differ.empty()) why += " (for " + std::to_string(seats) + " players the options need " + serialise(differ) + ")";
  }
  fail(ErrorKind::bad_request, why);
}

namespace {

// A player's display name: optional; see validate_display_name for what a name may hold.
std::optional<std::string> name_field(const json& object) {
  const json* v = find_field(object, "name");
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_string()) fail(ErrorKind::bad_request, "field \"name\" must be a string");
  return validate_display_name(v->get<std::string>());
}

bool has_setup(const Session& s, Player p) {
  for (const json& a : s.actions())
    if (a.value("type", "") == "setup" && a.value("player", -1) == p) return true;
  return false;
}

}  // namespace

GameService::GameService(Storage& storage, AiScheduler scheduler, Config config)
    : storage_(storage), scheduler_(std::move(scheduler)), config_(config) {
  for (StoredGame& sg : storage_.load_all()) {
    try {
      Session s = sg.start.is_null() ? Session::create(sg.kind, sg.options) : Session::from_state(sg.kind, sg.start);
      for (const json& a : sg.actions) s.apply_action(a);
      if (!sg.seats.is_array() || static_cast<int>(sg.seats.size()) != s.num_players())
        throw std::runtime_error("its seats do not match the game");
      std::vector<Seat> seats;
      for (const json& js : sg.seats) {
        Seat seat;
        seat.type = js.at("type").get<std::string>();
        if (js.contains("name") && js["name"].is_string()) seat.name = js["name"].get<std::string>();
        if (js.contains("level") && js["level"].is_number_integer()) seat.level = js["level"].get<int>();
        if (js.contains("handed_from") && js["handed_from"].is_string()) seat.handed_from = js["handed_from"].get<std::string>();
        seat.imported = js.value("imported", false);
        seats.push_back(std::move(seat));
      }
      for (const auto& [i, token_hash] : sg.token_hashes)
        if (i >= 0 && i < static_cast<int>(seats.size())) seats[static_cast<size_t>(i)].token_hash = token_hash;
      for (const Seat& seat : seats)
        if ((seat.type == "human" || seat.handed_from == "human") && seat.token_hash.empty() && !seat.imported)
          throw std::runtime_error("a human seat has no token");
      json public_options = s.observation(kSpectator).value("options", json::object());
      Live live{sg.id, sg.created_at, next_order_++, std::move(seats), sg.creator_hash, std::move(s),
                std::move(public_options), {}, std::nullopt, std::nullopt, std::nullopt, {},
            std::nullopt, std::nullopt, {}, {}, nullptr};
      games_.emplace(sg.id, std::move(live));
    } catch (const std::exception& e) {
      log_line("storage: game " + sg.id + " (" + sg.kind + ") could not be restored and is skipped: " + e.what());
    }
  }
  for (auto& [id, g] : games_) advance(g);
}

// ---- lookups ---------------------------------------------------------------------------------------

GameService::Live& GameService::find(std::string_view id) {
  auto it = games_.find(id);
  if (it == games_.end()) fail(ErrorKind::not_found, "no such game");
  return it->second;
}

const GameService::Live& GameService::find(std::string_view id) const {
  auto it = games_.find(id);
  if (it == games_.end()) fail(ErrorKind::not_found, "no such game");
  return it->second;
}

Player GameService::seat_of(const Live& g, const Token& token) const {
  if (!token) return kSpectator;
  // Seats keep only their tokens' digests (see Storage's tokens table for why a plain SHA-256 will do).
  const std::string presented = sha256_hex(*token);
  Player found = kSpectator;
  for (size_t i = 0; i < g.seats.size(); ++i) {
    const Seat& s = g.seats[i];
    // Every seat is compared, so the time taken does not tell which one (or how much) matched.
    bool match = constant_time_equal(presented, s.token_hash) && !s.token_hash.empty();
    if (match) found = static_cast<Player>(i);
  }
  if (found == kSpectator) fail(ErrorKind::unauthorized, "this token is not valid for this game");
  return found;
}

Player GameService::require_seat(const Live& g, const Token& token) const {
  if (!token) fail(ErrorKind::unauthorized, "this needs a seat's token (Authorization: Bearer <token>)");
  return seat_of(g, token);
}

bool GameService::ai_pending(std::string_view id) const {
  const Live& g = find(id);
  return g.ai_move_version.has_value() || g.ai_offer_version.has_value();
}

// ---- views -----------------------------------------------------------------------------------------

std::string GameService::status_of(const Live& g) {
  if (g.session.over()) return "over";
  for (const Seat& s : g.seats)
    if (s.type == "open") return "open";
  return "playing";
}

json GameService::seats_json(const Live& g) {
  json out = json::array();
  for (size_t i = 0; i < g.seats.size(); ++i) {
    const Seat& s = g.seats[i];
    out.push_back(json{{"seat", i},
                       {"type", s.type},
                       {"name", s.name ? json(*s.name) : json(nullptr)},
                       {"level", s.level ? json(*s.level) : json(nullptr)},
                       {"handed", !s.handed_from.empty()}});
  }
  return out;
}

json GameService::stored_seats(const std::vector<Seat>& seats) {
  json out = json::array();
  for (const Seat& s : seats) {
    json js{{"type", s.type}, {"name", s.name ? json(*s.name) : json(nullptr)},
            {"level", s.level ? json(*s.level) : json(nullptr)}};
    if (!s.handed_from.empty()) js["handed_from"] = s.handed_from;
    if (s.imported) js["imported"] = true;
    out.push_back(std::move(js));
  }
  return out;
}

json GameService::legal_for(const Live& g, Player viewer) const {
  const Game& game = g.session.game();
  if (viewer == kSpectator || game.phase() != Phase::play || game.to_move() != viewer || status_of(g) != "playing")
    return json::array();
  return json(g.session.legal());
}

json GameService::update_message(const Live& g, Player viewer, const json& events) const {
  json out{{"type", "update"},
           {"observation", g.session.observation(viewer)},
           {"legal", legal_for(g, viewer)},
           {"events", events},
           {"seats", seats_json(g)},
           {"status", status_of(g)},
           {"hidden", g.session.hides_information()}};
  out.update(assist_json(g, viewer));
  return out;
}

json GameService::summary(const Live& g) const {
  const Result* r = g.session.game().result();
  return json{{"id", g.id},
              {"game", std::string(g.session.kind())},
              {"options", g.public_options},
              {"seats", seats_json(g)},
              {"status", status_of(g)},
              {"created", g.created_at},
              {"result", r ? r->to_json() : json(nullptr)}};
}

json GameService::action_answer(const Live& g, Player seat, const std::vector<Event>& events) const {
  return json{{"events", g.session.events_for(seat, events)},
              {"observation", g.session.observation(seat)},
              {"legal", legal_for(g, seat)}};
}

// ---- endpoints -------------------------------------------------------------------------------------

json GameService::kinds() const {
  json out = json::array();
  for (const GameKind& k : game_kinds()) {
    // Named setups placed for each seat of a game made with `options`, so a setup editor can show them before
    // anything is submitted: for the kind's own options and for each variant's (four-player Truth's are not
    // the two's).
    auto placed = [&k](const json& options, const std::vector<std::string>& names) {
      json placements = json::object();
      try {
        auto game = k.create(options);
        for (const std::string& name : names)
          for (Player p = 0; p < game->num_players(); ++p)
            placements[name][std::to_string(p)] = game->arrangement(p, name, 0);
      } catch (const std::exception&) {
      }
      return placements;
    };
    const json arrangements = placed(k.options, k.arrangements);
    json variants = json::array();
    for (const GameKind::Variant& v : k.variants)
      variants.push_back(json{{"players", v.players}, {"arrangements", v.arrangements},
                              {"placements", placed(v.options, v.arrangements)}, {"options", v.options}});
    json levels = json::array();
    json level_info = json::array();
    for (int l : k.ai_levels)
      if (l >= ai::kMinLevel && l <= ai::kMaxLevel) {
        levels.push_back(l);
        const ai::LevelInfo info = ai::level_info(k.name, l);
        level_info.push_back(json{{"level", l}, {"name", info.name}, {"description", info.description}});
      }
    out.push_back(json{{"name", k.name},
                       {"title", k.title},
                       {"player_counts", k.player_counts},
                       {"options", k.options},
                       {"ai_levels", levels},
                       {"levels", level_info},
                       {"hidden_information", k.can_hide_information},
                       {"arrangements", arrangements},
                       {"variants", variants}});
  }
  return out;
}

json GameService::list(const std::map<std::string, std::string>& query) const {
  std::optional<std::string> status;
  if (auto it = query.find("status"); it != query.end()) {
    if (it->second != "open" && it->second != "playing" && it->second != "over")
      fail(ErrorKind::bad_request, "status must be open, playing or over");
    status = it->second;
  }
  std::vector<const Live*> found;
  if (auto it = query.find("ids"); it != query.end()) {
    std::string_view rest = it->second;
    size_t count = 0;
    while (!rest.empty()) {
      size_t comma = rest.find(',');
      std::string_view id = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      if (id.empty()) continue;
      if (++count > kListLimit) fail(ErrorKind::bad_request, "at most 100 ids");
      auto g = games_.find(id);
      if (g != games_.end() && std::find(found.begin(), found.end(), &g->second) == found.end())
        found.push_back(&g->second);
    }
  } else {
    for (const auto& [id, g] : games_) found.push_back(&g);
  }
  std::sort(found.begin(), found.end(), [](const Live* a, const Live* b) { return a->order > b->order; });
  json out = json::array();
  for (const Live* g : found) {
    if (status && status_of(*g) != *status) continue;
    out.push_back(summary(*g));
    if (out.size() >= kListLimit) break;
  }
  return out;
}

json GameService::create(const json& body) {
  if (!body.is_object()) fail(ErrorKind::bad_request, "expected a JSON object");
  std::string kind_name = string_field(body, "game");
  const GameKind* kind = nullptr;
  for (const GameKind& k : game_kinds())
    if (k.name == kind_name) kind = &k;
  if (!kind) fail(ErrorKind::bad_request, "unknown game \"" + kind_name.substr(0, 40) + "\"");

  json options = json::object();
  if (const json* o = find_field(body, "options"); o && !o->is_null()) {
    if (!o->is_object()) fail(ErrorKind::bad_request, "field \"options\" must be an object");
    options = *o;
  }
  Session session = Session::create(kind->name, options);  // the game validates its options

  const json* seats_in = find_field(body, "seats");
  if (!seats_in || !seats_in->is_array()) fail(ErrorKind::bad_request, "field \"seats\" must be a list");
  check_seat_count(*kind, session.num_players(), static_cast<int>(seats_in->size()));

  std::vector<Seat> seats;
  json tokens = json::object();
  for (size_t i = 0; i < seats_in->size(); ++i) {
    const json& js = (*seats_in)[i];
    if (!js.is_object()) fail(ErrorKind::bad_request, "each seat must be an object");
    Seat seat;
    seat.type = string_field(js, "type");
    seat.name = name_field(js);
    const json* level = find_field(js, "level");
    if (seat.type == "ai") {
      int lv = 3;
      if (level && !level->is_null())
        lv = static_cast<int>(int_field(js, "level", ai::kMinLevel, ai::kMaxLevel));
      if (!kind->ai_levels.empty() &&
          std::find(kind->ai_levels.begin(), kind->ai_levels.end(), lv) == kind->ai_levels.end())
        fail(ErrorKind::bad_request, "this game has no AI level " + std::to_string(lv));
      seat.level = lv;
      if (!seat.name) seat.name = "AI level " + std::to_string(lv);
    } else if (seat.type == "human" || seat.type == "open") {
      if (level && !level->is_null()) fail(ErrorKind::bad_request, "only an AI seat has a level");
      if (seat.type == "open") seat.name.reset();
      if (seat.type == "human") {
        const std::string token = secure_random_hex(16);
        seat.token_hash = sha256_hex(token);
        tokens[std::to_string(i)] = token;  // the only place the token is told, and then forgotten
      }
    } else {
      fail(ErrorKind::bad_request, "a seat's type is human, ai or open");
    }
    seats.push_back(std::move(seat));
  }

  const std::string creator = secure_random_hex(16);  // told in the answer only, like the seats' tokens
  Live& g = register_game(std::move(session), std::move(seats), sha256_hex(creator));
  return json{{"id", g.id}, {"tokens", tokens}, {"creator", creator}, {"seats", seats_json(g)}};
}

GameService::Live& GameService::register_game(Session session, std::vector<Seat> seats, std::string creator_hash) {
  std::string id;
  do id = secure_random_hex(8);
  while (games_.count(id));

  json record = session.record();
  StoredGame sg;
  sg.id = id;
  sg.kind = std::string(session.kind());
  sg.options = record.value("options", json::object());
  sg.start = record.value("start", json(nullptr));
  sg.created_at = now_iso8601();
  sg.seats = stored_seats(seats);
  sg.creator_hash = std::move(creator_hash);
  for (size_t i = 0; i < seats.size(); ++i)
    if (!seats[i].token_hash.empty()) sg.token_hashes.emplace_back(static_cast<int>(i), seats[i].token_hash);
  for (const json& a : session.actions()) sg.actions.push_back(a);

  json public_options = session.observation(kSpectator).value("options", json::object());
  Live live{id, sg.created_at, next_order_, std::move(seats), sg.creator_hash, std::move(session),
            std::move(public_options), {}, std::nullopt, std::nullopt, std::nullopt, {},
            std::nullopt, std::nullopt, {}, {}, nullptr};
  sg.status = status_of(live);
  storage_.insert_game(sg);  // StorageError: nothing was created
  ++next_order_;
  Live& g = games_.emplace(id, std::move(live)).first->second;
  log_line("game " + id + " created (" + sg.kind + ")");
  advance(g);
  return g;
}

json GameService::game_view(const Live& g, Player viewer) const {
  json observation = g.session.observation(viewer);
  const Result* r = g.session.game().result();
  json out{{"id", g.id},
           {"game", std::string(g.session.kind())},
           {"options", observation.value("options", g.public_options)},
           {"seats", seats_json(g)},
           {"observation", observation},
           {"legal", legal_for(g, viewer)},
           {"you", viewer == kSpectator ? json(nullptr) : json(viewer)},
           {"status", status_of(g)},
           {"result", r ? r->to_json() : json(nullptr)},
           {"created", g.created_at},
           {"hidden", g.session.hides_information()}};
  out.update(assist_json(g, viewer));
  return out;
}

json GameService::get(std::string_view id, const Token& token) const {
  const Live& g = find(id);
  Player viewer = seat_of(g, token);
  json out = game_view(g, viewer);
  out["events"] = g.session.events_for(viewer);
  return out;
}

std::string GameService::get_text(std::string_view id, const Token& token) const {
  const Live& g = find(id);
  Player viewer = seat_of(g, token);
  return with_events(game_view(g, viewer), events_text(g, viewer));
}

std::string GameService::with_events(const json& doc, const std::string& events) {
  // The order of an object's members means nothing in JSON, so the array goes first.
  std::string rest = serialise(doc);
  return "{\"events\":" + events + (rest.size() > 2 ? "," : "") + rest.substr(1);
}

const std::string& GameService::events_text(const Live& g, Player viewer) const {
  Live::EventsText& cache = g.events_text[viewer];
  const size_t count = g.session.event_count();
  // A game that ended shows its events anew (unredacted, or sealed views for an end before play). A refused
  // store never leaves events of its action here: the write follows the change before any view is built.
  if (cache.over != g.session.over() || cache.count > count || cache.version != g.session.events_version())
    cache = Live::EventsText{0, g.session.over(), g.session.events_version(), "[]"};
  if (cache.count < count) {
    json more = g.session.events_for(viewer, cache.count);
    cache.text.pop_back();  // the closing bracket
    for (const json& e : more) {
      if (cache.text.size() > 1) cache.text += ',';
      cache.text += serialise(e);
    }
    cache.text += ']';
    cache.count = count;
  }
  return cache.text;
}

json GameService::join(std::string_view id, const json& body) {
  Live& g = find(id);
  if (!body.is_object()) fail(ErrorKind::bad_request, "expected a JSON object");
  const int n = static_cast<int>(g.seats.size());
  int seat = static_cast<int>(int_field(body, "seat", 0, n - 1));
  std::optional<std::string> name = name_field(body);
  if (g.session.over()) fail(ErrorKind::conflict, "the game is over");
  if (g.seats[static_cast<size_t>(seat)].type != "open")
    fail(ErrorKind::conflict, "seat " + std::to_string(seat) + " is taken");

  std::vector<Seat> seats = g.seats;
  Seat& s = seats[static_cast<size_t>(seat)];
  s.type = "human";
  s.name = name;
  const std::string token = secure_random_hex(16);  // told in the answer only, then forgotten
  s.token_hash = sha256_hex(token);
  std::swap(g.seats, seats);  // the new seats, for the stored JSON and status
  try {
    storage_.join_seat(g.id, stored_seats(g.seats), seat, g.seats[static_cast<size_t>(seat)].token_hash, status_of(g));
  } catch (...) {
    std::swap(g.seats, seats);  // back as it was
    throw;
  }
  notify(g, {});
  advance(g);
  return json{{"token", token}, {"seat", seat}};
}

GameService::SeatAction GameService::seat_action(std::string_view id, const Token& token, const json& body) {
  Live& g = find(id);
  Player seat = require_seat(g, token);
  if (!body.is_object()) fail(ErrorKind::bad_request, "expected a JSON object");
  if (!g.seats[static_cast<size_t>(seat)].handed_from.empty())
    fail(ErrorKind::conflict, "the AI plays this seat now: the game's creator handed it over (and may give it back)");
  return {g, seat};
}

json GameService::hand_seat(std::string_view id, const Token& token, std::string_view seat_text, const json& body) {
  Live& g = find(id);
  if (!token) fail(ErrorKind::unauthorized, "handing a seat over needs the creator's token (Authorization: Bearer <token>)");
  // The digest is compared in constant time, like a seat's; games made before creators existed have none.
  if (g.creator_hash.empty() || !constant_time_equal(sha256_hex(*token), g.creator_hash))
    fail(ErrorKind::unauthorized, "only the game's creator may hand a seat over");
  if (!body.is_object()) fail(ErrorKind::bad_request, "expected a JSON object");
  const int n = static_cast<int>(g.seats.size());
  int seat = -1;
  if (!seat_text.empty() && seat_text.size() <= 2 &&
      std::all_of(seat_text.begin(), seat_text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    seat = std::stoi(std::string(seat_text));
  if (seat < 0 || seat >= n) fail(ErrorKind::bad_request, "this game's seats are 0 to " + std::to_string(n - 1));
  if (g.session.over()) fail(ErrorKind::conflict, "the game is over");
  const std::string type = string_field(body, "type");

  std::vector<Seat> seats = g.seats;
  Seat& s = seats[static_cast<size_t>(seat)];
  if (type == "ai") {
    if (s.type == "ai" && s.handed_from.empty())
      fail(ErrorKind::conflict, "seat " + std::to_string(seat) + " is the AI's since the game was made");
    int level = 3;
    if (const json* lv = find_field(body, "level"); lv && !lv->is_null())
      level = static_cast<int>(int_field(body, "level", ai::kMinLevel, ai::kMaxLevel));
    const auto& levels = game_kind(g.session.kind()).ai_levels;
    if (!levels.empty() && std::find(levels.begin(), levels.end(), level) == levels.end())
      fail(ErrorKind::bad_request, "this game has no AI level " + std::to_string(level));
    if (s.handed_from.empty()) s.handed_from = s.type;
    s.type = "ai";
    s.level = level;
    if (s.handed_from == "open") s.name = "AI level " + std::to_string(level);
  } else if (type == "human") {
    if (s.handed_from.empty()) fail(ErrorKind::conflict, "seat " + std::to_string(seat) + " is not handed to the AI");
    s.type = s.handed_from;
    s.handed_from.clear();
    s.level.reset();
    if (s.type == "open") s.name.reset();
  } else {
    fail(ErrorKind::bad_request, "a seat is handed to \"ai\" (with a level) or back to \"human\"");
  }
  std::swap(g.seats, seats);  // the new seats, for the stored JSON and the status
  try {
    storage_.set_seats(g.id, stored_seats(g.seats), status_of(g));
  } catch (...) {
    std::swap(g.seats, seats);  // back as it was
    throw;
  }
  log_line("game " + g.id + ": seat " + std::to_string(seat) + (type == "ai" ? " handed to the AI" : " given back"));
  // A search for a seat given back is dropped when it returns (its seat is no longer the AI's).
  if (type == "human") g.ai_move_version.reset();
  notify(g, {});
  // An offer standing for the seat now gets the AI's answer, as if it had just been made.
  if (type == "ai" && status_of(g) == "playing")
    for (const char* what : {"draw", "stalemate"})
      if (g.session.game().offer_stands(what, seat)) schedule_ai_offer_answers(g, kSpectator, what);
  advance(g);
  return json{{"seats", seats_json(g)}};
}

// The game's own rules (through Session) refuse what its phase does not allow, a finished game included.
json GameService::move(std::string_view id, const Token& token, const json& body) {
  auto [g, seat] = seat_action(id, token, body);
  std::string mv = string_field(body, "move");
  if (status_of(g) == "open") fail(ErrorKind::conflict, "the game is waiting for players to join");
  std::vector<Event> events = commit(g, [&](Session& s) { return s.play_as(seat, mv); });
  json answer = action_answer(g, seat, events);
  advance(g);
  return answer;
}

json GameService::setup(std::string_view id, const Token& token, const json& body) {
  auto [g, seat] = seat_action(id, token, body);
  std::vector<Event> events;
  if (const json* p = find_field(body, "placement")) {
    events = commit(g, [&](Session& s) { return s.setup(seat, *p); });
  } else if (find_field(body, "arrangement")) {
    std::string name = string_field(body, "arrangement");
    // A random arrangement's seed is drawn here, from the cryptographic source (seed_for; a test server's
    // --test-seed aside), and stays secret: only the placement it produced is logged, and the log is shown
    // only once the game is over.
    uint64_t seed = name == "random" ? seed_for(g, seat, SeedUse::random_arrangement) : 0;
    events = commit(g, [&](Session& s) { return s.setup_arrangement(seat, name, seed); });
  } else {
    fail(ErrorKind::bad_request, "a setup needs \"placement\" or \"arrangement\"");
  }
  json answer = action_answer(g, seat, events);
  advance(g);
  return answer;
}

json GameService::offer(std::string_view id, const Token& token, const json& body) {
  auto [g, seat] = seat_action(id, token, body);
  std::string what = string_field(body, "what");
  std::vector<Event> events = commit(g, [&](Session& s) { return s.offer(seat, what); });
  json answer = action_answer(g, seat, events);
  if ((what == "draw" || what == "stalemate") && status_of(g) == "playing")
    schedule_ai_offer_answers(g, seat, what);
  advance(g);
  return answer;
}

json GameService::record(std::string_view id) const {
  const Live& g = find(id);
  // The position as it stands decides, not the kind: a Truth game's record is public from the start of play.
  if (g.session.hides_information())
    fail(ErrorKind::conflict, "the record is not shown while the game hides information from a player");
  json r = g.session.record();
  r["id"] = g.id;
  r["seats"] = seats_json(g);
  r["created"] = g.created_at;
  return r;
}

Player GameService::authenticate(std::string_view id, const Token& token) const {
  return seat_of(find(id), token);
}

uint64_t GameService::subscribe(std::string_view id, Player viewer, Push push) {
  Live& g = find(id);
  uint64_t sid = next_subscription_++;
  json first = update_message(g, viewer, json::array());
  first.erase("events");
  push(with_events(first, events_text(g, viewer)));
  g.subscribers.emplace(sid, std::make_pair(viewer, std::move(push)));
  return sid;
}

void GameService::unsubscribe(std::string_view id, uint64_t subscription) {
  auto it = games_.find(id);
  if (it != games_.end()) it->second.subscribers.erase(subscription);
}

// ---- changes ---------------------------------------------------------------------------------------

std::vector<Event> GameService::commit(Live& g, const std::function<std::vector<Event>(Session&)>& change) {
  // Nothing here depends on the game's length: the session is changed in place and only the new actions
  // are written (a copy of the session, to restore it, would cost a replay of the whole game per move).
  const size_t first = g.session.actions().size();
  std::vector<Event> events = change(g.session);  // GameError: the session is unchanged
  const auto& actions = g.session.actions();
  std::vector<json> added(actions.begin() + static_cast<std::ptrdiff_t>(first), actions.end());
  try {
    storage_.append_actions(g.id, first, added, status_of(g));
  } catch (...) {
    g.session.rollback_to(first);  // not acknowledged, so not played
    throw;
  }
  notify(g, events);
  return events;
}

void GameService::notify(Live& g, const std::vector<Event>& events) {
  // One message per kind of viewer, not per subscriber: a hundred spectators cost one observation.
  std::map<Player, std::string> messages;
  // A copy: a push may end its own subscription.
  auto subscribers = g.subscribers;
  for (auto& [sid, sub] : subscribers) {
    const Player viewer = sub.first;
    try {
      auto it = messages.find(viewer);
      if (it == messages.end()) {
        // After a take-back the events before it are the shortened line's: the update carries them all, and
        // says so (`reset`), so that a viewer replaces its list instead of adding to it.
        const bool reset = std::any_of(events.begin(), events.end(),
                                       [](const Event& e) { return e.full.value("type", "") == "takeback"; });
        json message = update_message(g, viewer, reset ? json::array() : g.session.events_for(viewer, events));
        if (reset) {
          message.erase("events");
          message["reset"] = true;
          it = messages.emplace(viewer, with_events(message, events_text(g, viewer))).first;
        } else {
          it = messages.emplace(viewer, serialise(message)).first;
        }
      }
      sub.second(it->second);
    } catch (const std::exception& e) {
      log_line("push failed: " + std::string(e.what()));
    }
  }
}

uint64_t GameService::seed_for(const Live& g, Player seat, SeedUse use) const {
  // Secret and fresh: the AI's randomness is not reproducible by a client.
  if (config_.test_seed == 0) return secure_random_u64();
  // One key per choice: the use in the top byte, the seat in the next, the action count in the low 48 bits;
  // splitmix64 is a bijection, so distinct keys give distinct seeds.
  uint64_t state = config_.test_seed ^ (static_cast<uint64_t>(use) << 56) ^ (static_cast<uint64_t>(seat + 1) << 48) ^
                   static_cast<uint64_t>(g.session.actions().size());
  return splitmix64(state);
}

ai::Limits GameService::limits_for(const Live& g, int level, Player seat, SeedUse use) const {
  ai::Limits limits = ai::level_limits(g.session.game().kind(), level);
  limits.level = level;
  if (config_.ai_nodes > 0) {
    limits.nodes = config_.ai_nodes;
    limits.ms.reset();
  } else if (config_.ai_ms > 0) {
    limits.ms = config_.ai_ms;
    limits.nodes.reset();
  }
  limits.seed = seed_for(g, seat, use);
  return limits;
}

// A seat handed to the AI still counts as a person's: the creator may give it back, so the game is neither
// adjudicated as AI-only nor moved to the background lane.
bool GameService::has_human(const Live& g) {
  return std::any_of(g.seats.begin(), g.seats.end(), [](const Seat& s) { return s.type != "ai" || !s.handed_from.empty(); });
}

void GameService::advance(Live& g) {
  try {
    if (status_of(g) != "playing") return;
    ai_setups(g);
    if (g.session.over()) return;
    if (!has_human(g) && g.session.game().ply() >= config_.ply_limit) {
      commit(g, [](Session& s) { return s.adjudicate(Result{{}, "ply-limit"}); });
      log_line("game " + g.id + " adjudicated a draw (ply-limit)");
      return;
    }
    schedule_ai_move(g);
  } catch (const std::exception& e) {
    log_line("game " + g.id + ": the AI could not act: " + e.what());
  }
}

void GameService::ai_setups(Live& g) {
  for (size_t i = 0; i < g.seats.size(); ++i) {
    if (g.session.game().phase() != Phase::setup) return;
    const Player p = static_cast<Player>(i);
    if (g.seats[i].type != "ai" || has_setup(g.session, p)) continue;
    json placement;
    placement = g.session.game().ai_arrangement(p, seed_for(g, p, SeedUse::ai_arrangement));
    commit(g, [&](Session& s) { return s.setup(p, placement); });
  }
}

void GameService::schedule_ai_move(Live& g) {
  const Game& game = g.session.game();
  if (game.phase() != Phase::play) return;
  const Player p = game.to_move();
  if (p < 0 || p >= static_cast<Player>(g.seats.size())) return;
  const Seat& seat = g.seats[static_cast<size_t>(p)];
  if (seat.type != "ai") return;
  const size_t version = g.session.actions().size();
  if (g.ai_move_version == version) return;  // already thinking about this position
  g.ai_move_version = version;
  std::shared_ptr<const Game> snapshot(game.clone());
  ai::Limits limits = limits_for(g, seat.level.value_or(3), p, SeedUse::ai_move);
  std::string id = g.id;
  std::shared_ptr<AiMemory> memory = ai_memory(g.id, p);
  // A game with a person in it is served first; AI-only games wait and yield (ai_workers.h).
  const auto lane = has_human(g) ? AiWorkers::Lane::interactive : AiWorkers::Lane::background;
  scheduler_(
      lane,
      [snapshot, limits, memory](const std::atomic<bool>& stop) {
        std::unique_lock<std::mutex> mine(memory->in_use, std::try_to_lock);
        return ai::choose_move(*snapshot, limits, &stop, mine.owns_lock() ? &memory->memory : nullptr);
      },
      [this, id, version, p](ai::Choice choice) {
        auto it = games_.find(id);
        if (it == games_.end()) return;
        Live& live = it->second;
        if (live.ai_move_version != version) return;  // a newer search is on its way
        live.ai_move_version.reset();
        const Game& now = live.session.game();
        if (live.session.actions().size() != version || now.phase() != Phase::play || now.to_move() != p) return;
        if (live.seats[static_cast<size_t>(p)].type != "ai") return;  // given back to its person meanwhile
        std::vector<std::string> legal = live.session.legal();
        std::string mv = choice.move;
        if (std::find(legal.begin(), legal.end(), mv) == legal.end()) {
          log_line("game " + id + ": the AI gave no legal move; it plays the first legal one");
          if (legal.empty()) return;
          mv = legal.front();
        }
        try {
          commit(live, [&](Session& s) { return s.play_as(p, mv); });
        } catch (const std::exception& e) {
          log_line("game " + id + ": the AI's move was not stored: " + e.what());
          return;
        }
        advance(live);
      });
}

std::shared_ptr<GameService::AiMemory> GameService::ai_memory(const std::string& game, Player seat) {
  const std::string key = game + "/" + std::to_string(seat);
  auto it = std::find_if(ai_memories_.begin(), ai_memories_.end(), [&](const auto& e) { return e.first == key; });
  if (it != ai_memories_.end()) {
    ai_memories_.splice(ai_memories_.begin(), ai_memories_, it);
  } else {
    ai_memories_.emplace_front(key, std::make_shared<AiMemory>());
    while (ai_memories_.size() > std::max<size_t>(config_.ai_memories, 1)) ai_memories_.pop_back();
  }
  return ai_memories_.front().second;
}

void GameService::schedule_ai_offer_answers(Live& g, Player offerer, const std::string& what) {
  std::vector<std::pair<Player, int>> answerers;  // seat, level
  for (size_t i = 0; i < g.seats.size(); ++i)
    if (g.seats[i].type == "ai" && static_cast<Player>(i) != offerer &&
        g.session.game().offer_stands(what, static_cast<Player>(i)))
      answerers.emplace_back(static_cast<Player>(i), g.seats[i].level.value_or(3));
  if (answerers.empty()) return;
  if (g.ai_offer_version) {
    // An answer is being computed for an earlier offer; it will be dropped as overtaken and this one
    // asked when it returns. Offers sent faster than answers cost the workers nothing more.
    g.ai_offer_waiting = std::make_pair(offerer, what);
    return;
  }
  const size_t version = g.session.actions().size();
  g.ai_offer_version = version;
  std::shared_ptr<const Game> snapshot(g.session.game().clone());
  std::vector<ai::Limits> limits;
  for (const auto& a : answerers) limits.push_back(limits_for(g, a.second, a.first, SeedUse::offer_answer));
  std::string id = g.id;
  scheduler_(
      AiWorkers::Lane::offer,
      [snapshot, answerers, limits, what](const std::atomic<bool>&) {
        ai::Choice c;
        c.info = json::array();
        for (size_t i = 0; i < answerers.size(); ++i)
          c.info.push_back(json{{"seat", answerers[i].first},
                                {"accept", ai::accepts_offer(*snapshot, answerers[i].first, what, limits[i])}});
        return c;
      },
      [this, id, version, what](ai::Choice choice) {
        auto it = games_.find(id);
        if (it == games_.end()) return;
        Live& live = it->second;
        if (live.ai_offer_version == version) live.ai_offer_version.reset();
        // Anything that happened since (a move, another offer) has overtaken the offer being answered.
        if (live.session.actions().size() != version || live.session.over() || !choice.info.is_array()) {
          if (auto waiting = std::exchange(live.ai_offer_waiting, std::nullopt); waiting && !live.session.over()) {
            bool stands = false;  // for some AI seat to answer
            for (size_t i = 0; i < live.seats.size(); ++i)
              stands |= live.seats[i].type == "ai" &&
                        live.session.game().offer_stands(waiting->second, static_cast<Player>(i));
            if (stands) schedule_ai_offer_answers(live, waiting->first, waiting->second);
          }
          advance(live);
          return;
        }
        live.ai_offer_waiting.reset();
        for (const json& a : choice.info) {
          const Player seat = a.value("seat", -1);
          const bool accept = a.value("accept", false);
          std::string answer = what == "draw" ? (accept ? "accept" : "decline") : (accept ? what : "");
          if (answer.empty() || live.session.over()) continue;
          try {
            commit(live, [&](Session& s) { return s.offer(seat, answer); });
          } catch (const std::exception& e) {
            log_line("game " + id + ": the AI's answer to an offer was refused: " + e.what());
          }
        }
        advance(live);
      });
}

}  // namespace tabula::server
