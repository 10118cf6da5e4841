// The text record (docs/records.md): writing it from a record by replaying the record's net line through a
// Session (who moved, where turns end), and reading it back by replaying what it says through a Session, which
// checks every setup and move by the rules as a live game would.
#include "core/record_text.h"

#include "core/session.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace tabula {

namespace {

// ---- small pieces shared by the writer and the reader ------------------------------------------------------

constexpr std::string_view kUnknownDate = "????.??.??";
constexpr size_t kLineWidth = 79;  // move text is wrapped before this column, as PGN recommends
constexpr int kMaxJsonDepth = 32;  // tag values holding JSON nest no deeper than this

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::bad_request, message); }

// A PGN tag value: backslash and quote escaped; control characters (a tag is one line) become spaces.
std::string escape_value(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '"') out += '\\';
    out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
  }
  return out;
}

std::string tag_line(std::string_view name, std::string_view value) {
  return "[" + std::string(name) + " \"" + escape_value(value) + "\"]\n";
}

// A piece of the input shown in a message: quoted, cut short, with anything unprintable as '?'.
std::string shown(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    out += (c < 0x20 || c >= 0x7f) ? '?' : static_cast<char>(c);
  }
  return out + (s.size() > 40 ? "…\"" : "\"");
}

bool is_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '.' || s[7] != '.') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (!std::isdigit(static_cast<unsigned char>(s[i])) && s[i] != '?') return false;
  return true;
}

// The result token: `*` while the game is on, `draw` when nobody won, else the winners' seats joined by `+`.
std::string result_token(const Result* r) {
  if (!r) return "*";
  if (r->winners.empty()) return "draw";
  std::string out;
  for (Player p : r->winners) out += (out.empty() ? "" : "+") + std::to_string(p);
  return out;
}

// Parses a result token that is not `*`: `draw` or ascending seats joined by `+`. nullopt when malformed.
std::optional<std::vector<Player>> parse_winners(std::string_view s) {
  std::vector<Player> winners;
  if (s == "draw") return winners;
  size_t i = 0;
  while (true) {
    if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
    const Player p = s[i++] - '0';
    if (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;  // one digit a seat
    if (!winners.empty() && p <= winners.back()) return std::nullopt;
    winners.push_back(p);
    if (i == s.size()) return winners;
    if (s[i++] != '+') return std::nullopt;
  }
}

bool is_result_word(std::string_view s) {
  if (s == "*" || s == "draw") return true;
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '+'; });
}

// `a1:F b1:B …` for a map of squares to single words; compact JSON for anything else.
std::string pairs_text(const json& map) {
  bool simple = map.is_object() && !map.empty();
  auto plain = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
  };
  if (simple)
    for (auto it = map.begin(); it != map.end(); ++it)
      if (!plain(it.key()) || !it->is_string() || !plain(it->get_ref<const std::string&>())) simple = false;
  if (!simple) return map.dump();
  std::string out;
  for (auto it = map.begin(); it != map.end(); ++it)
    out += (out.empty() ? "" : " ") + it.key() + ":" + it->get<std::string>();
  return out;
}

json parse_json_value(std::string_view s, const std::string& where) {
  // Refused before it is parsed: nothing downstream needs more, and it bounds every recursive walk of what a
  // text holds.
  if (nesting_depth(s) > kMaxJsonDepth) bad(where + " nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  json j = json::parse(s.begin(), s.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) bad(where + " is not valid JSON");
  return j;
}

// `a1:F b1:B …` (or a JSON object) back into an object of squares to words.
json parse_pairs(std::string_view s, const std::string& where) {
  if (!s.empty() && s.front() == '{') {
    json j = parse_json_value(s, where);
    if (!j.is_object()) bad(where + " must be an object");
    return j;
  }
  json out = json::object();
  size_t i = 0;
  while (i <= s.size()) {
    const size_t end = std::min(s.find(' ', i), s.size());
    const std::string_view pair = s.substr(i, end - i);
    const size_t colon = pair.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == pair.size())
      bad(where + ": " + shown(pair) + " is not <square>:<letter>");
    const std::string key(pair.substr(0, colon));
    if (out.contains(key)) bad(where + ": " + shown(key) + " is given twice");
    out[key] = std::string(pair.substr(colon + 1));
    i = end + 1;
  }
  return out;
}

// ---- replaying a log ---------------------------------------------------------------------------------------

Session start_of(const json& record) {
  if (!record.is_object()) bad("a record must be an object");
  const std::string game = string_field(record, "game");
  const json* start = find_field(record, "start");
  if (start && !start->is_null()) return Session::from_state(game, *start);
  const json* options = find_field(record, "options");
  return Session::create(game, options ? *options : json::object());
}

// Session::apply_action, returning the events (the Session's own keeps them to itself).
std::vector<Event> apply_logged(Session& s, const json& a) {
  if (!a.is_object()) bad("an action must be an object");
  const std::string type = string_field(a, "type");
  if (type == "move") return s.play(string_field(a, "move"));
  if (type == "setup") {
    const json* placement = find_field(a, "placement");
    if (!placement) bad("a setup action needs a placement");
    return s.setup(static_cast<Player>(int_field(a, "player", 0, 3)), *placement);
  }
  if (type == "offer") return s.offer(static_cast<Player>(int_field(a, "player", 0, 3)), string_field(a, "what"));
  if (type == "adjudicate") {
    const json* result = find_field(a, "result");
    if (!result) bad("an adjudication needs a result");
    return s.adjudicate(Result::from_json(*result));
  }
  bad("unknown action type " + shown(type));
}

// The log a record replays: its actions' net line, or, for a record of moves only, those moves.
std::vector<json> logged_actions(const json& record, int* takebacks) {
  if (const json* actions = find_field(record, "actions")) return net_actions(*actions, takebacks);
  std::vector<json> out;
  if (const json* moves = find_field(record, "moves")) {
    if (!moves->is_array()) bad("record.moves must be a list");
    for (const json& m : *moves) {
      if (!m.is_string()) bad("record.moves must list move strings");
      out.push_back(json{{"type", "move"}, {"move", m}});
    }
  }
  return out;
}

// The words of an offer in a comment, and back.
std::string offer_comment(Player p, const std::string& what) {
  const std::string who = std::to_string(p) + " ";
  if (what == "draw" || what == "stalemate") return who + "offers " + what;
  if (what == "accept" || what == "decline" || what == "resign") return who + what + "s";
  if (what == "withdraw") return who + "withdraws";
  bad("unknown offer " + shown(what));
}

std::string adjudication_comment(const json& result) {
  const Result r = Result::from_json(result);
  const bool word = !r.reason.empty() && std::all_of(r.reason.begin(), r.reason.end(), [](char c) {
    return std::isgraph(static_cast<unsigned char>(c)) && c != '{' && c != '}';
  });
  if (!word) bad("an adjudication's reason must be one word, e.g. ply-limit");
  return "adjudicated " + result_token(&r) + " " + r.reason;
}

// The move text being written: turns numbered by round, a turn's actions joined by commas.
class MoveText {
 public:
  void move(Player mover, const std::string& text, bool turn_ends) {
    if (open_.empty()) {
      if (!continues_) {
        // A round begins with the first turn and whenever the seats wrap around.
        if (round_ == 0 || mover <= last_mover_) tokens_.push_back(std::to_string(++round_) + ".");
        last_mover_ = mover;
      }
      open_ = text;
    } else {
      open_ += "," + text;
    }
    continues_ = false;
    if (turn_ends) close();
  }
  // A comment between turns, or inside one: then the turn's text so far ends with a comma and goes on after.
  void comment(const std::string& text) {
    if (!open_.empty()) {
      tokens_.push_back(open_ + ",");
      open_.clear();
      continues_ = true;
    }
    tokens_.push_back("{" + text + "}");
  }
  std::string finish(const std::string& result) {
    close();
    tokens_.push_back(result);
    std::string out, line;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      // A move number stays on the line of the turn it numbers.
      std::string t = tokens_[i];
      if (t.back() == '.' && i + 1 < tokens_.size()) t += " " + tokens_[++i];
      if (!line.empty() && line.size() + 1 + t.size() > kLineWidth) {
        out += line + "\n";
        line.clear();
      }
      line += (line.empty() ? "" : " ") + t;
    }
    return out + line + "\n";
  }

 private:
  void close() {
    if (!open_.empty()) tokens_.push_back(open_);
    open_.clear();
  }
  std::vector<std::string> tokens_;
  std::string open_;
  bool continues_ = false;
  int round_ = 0;
  Player last_mover_ = kSpectator;
};

std::string header(const Session& s, const RecordTags& tags, const Result* result, int takebacks) {
  std::string out = tag_line("Game", s.kind());
  out += tag_line("Options", s.state().value("options", json::object()).dump());
  for (Player p = 0; p < s.num_players(); ++p) {
    const size_t i = static_cast<size_t>(p);
    const std::string name = i < tags.players.size() && !tags.players[i].empty() ? tags.players[i] : "?";
    out += tag_line("Seat" + std::to_string(p), name);
  }
  out += tag_line("Date", is_date(tags.date) ? tags.date : std::string(kUnknownDate));
  out += tag_line("Result", result_token(result));
  if (result) out += tag_line("Reason", result->reason);
  if (takebacks > 0) out += tag_line("Takebacks", std::to_string(takebacks));
  return out;
}

}  // namespace

// ---- takebacks ---------------------------------------------------------------------------------------------

std::vector<json> net_actions(const json& actions, int* takebacks) {
  if (!actions.is_array()) bad("record.actions must be a list");
  std::vector<json> line;
  int count = 0;
  for (const json& a : actions) {
    if (a.is_object() && a.value("type", json()) == "takeback") {
      const long long to = int_field(a, "to", 0, static_cast<long long>(line.size()));
      line.resize(static_cast<size_t>(to));
      ++count;
    } else {
      line.push_back(a);
    }
  }
  if (takebacks) *takebacks = count;
  return line;
}

// ---- writing -----------------------------------------------------------------------------------------------

namespace {

// How a viewer saw another's move: whole when every event of it was shown to it whole, else the `move` event it
// saw with `?` for a square it did not see, or `?` when it saw no move at all.
std::string seen_move(const Session& s, Player viewer, const std::vector<Event>& events, const std::string& move) {
  const json views = s.events_for(viewer, events);
  bool whole = views.size() == events.size();
  for (size_t i = 0; whole && i < events.size(); ++i) whole = views[i] == events[i].full;
  if (whole) return move;
  for (const json& v : views)
    if (v.is_object() && v.value("type", std::string()) == "move")
      return v.value("from", std::string("?")) + "-" + v.value("to", std::string("?"));
  return "?";
}

// One replay of the record's net line writes the whole text and, when tags.view names a viewer, that viewer's
// text beside it: which of the two is wanted is known only at the end (whether the game hides anything now).
std::string write_record(const json& record, const RecordTags& tags) {
  Session s = start_of(record);
  const std::optional<Player> view = tags.view;
  if (view && *view != kSpectator && (*view < 0 || *view >= s.num_players())) bad("no such seat");
  int takebacks = 0;
  const std::vector<json> actions = logged_actions(record, &takebacks);
  if (takebacks == 0) takebacks = std::max(0, tags.takebacks);

  // The start: a given state whole, or FACET's terrain; for the viewer, as its observation shows them.
  std::string start_tags, seen_start_tags;
  if (const json* start = find_field(record, "start"); start && !start->is_null()) {
    start_tags = tag_line("Start", s.state().dump());
    if (view) seen_start_tags = tag_line("Start", s.observation(*view).dump());
  } else if (s.kind() == "facet") {
    start_tags = tag_line("Terrain", pairs_text(s.state().value("terrain", json::object())));
    if (view) seen_start_tags = tag_line("Terrain", pairs_text(s.observation(*view).value("terrain", json::object())));
  }

  std::map<Player, json> setups;  // each seat's placement as play began: the last it gave
  MoveText text, seen_text;
  for (const json& a : actions) {
    const std::string type = a.is_object() ? a.value("type", std::string()) : std::string();
    const Player mover = s.game().to_move();
    const int ply = s.game().ply();
    const std::vector<Event> events = apply_logged(s, a);
    if (type == "move") {
      const std::string move = a.at("move").get<std::string>();
      const bool turn_ends = s.over() || s.game().ply() != ply || s.game().to_move() != mover;
      text.move(mover, move, turn_ends);
      if (view) seen_text.move(mover, mover == *view ? move : seen_move(s, *view, events, move), turn_ends);
      continue;
    }
    std::string comment;
    if (type == "setup") setups[static_cast<Player>(a.at("player").get<int>())] = a.at("placement");
    else if (type == "offer") comment = offer_comment(a.at("player").get<int>(), a.at("what").get<std::string>());
    else if (type == "adjudicate") comment = adjudication_comment(a.at("result"));
    if (comment.empty()) continue;
    text.comment(comment);
    seen_text.comment(comment);  // offers and endings are public
  }

  if (view && s.hides_information()) {
    // Only what the viewer may know: its own setup, the start and the moves as it saw them, no result.
    if (auto own = setups.find(*view); own != setups.end())
      seen_start_tags += tag_line("Setup" + std::to_string(*view), pairs_text(own->second));
    seen_start_tags += tag_line("View", *view == kSpectator ? "spectator" : std::to_string(*view));
    return header(s, tags, nullptr, takebacks) + seen_start_tags + "\n" + seen_text.finish("*");
  }
  for (const auto& [p, placement] : setups) start_tags += tag_line("Setup" + std::to_string(p), pairs_text(placement));
  const Result* result = s.game().result();
  return header(s, tags, result, takebacks) + start_tags + "\n" + text.finish(result_token(result));
}

}  // namespace

std::string record_text(const json& record, const RecordTags& tags) {
  try {
    return write_record(record, tags);
  } catch (const GameError& e) {
    if (e.kind() == ErrorKind::bad_request) throw;
    bad(std::string("the record does not replay: ") + e.what());
  } catch (const json::exception& e) {
    bad(std::string("the record is malformed: ") + e.what());
  }
}

std::string seat_record_text(const Session& session, Player seat, const RecordTags& tags) {
  RecordTags t = tags;
  t.view = seat;
  return record_text(session.record(), t);
}

// ---- reading -----------------------------------------------------------------------------------------------

namespace {

struct Tag {
  std::string value;
  int line = 0;
};

// One header line `[Name "value"]`, or nullopt when the line is not a tag (an error names it).
std::optional<std::pair<std::string, std::string>> parse_tag(std::string_view line, std::string& why) {
  size_t i = 1;  // after '['
  std::string name;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_')) name += line[i++];
  if (name.empty()) return why = "a tag is [Name \"value\"]", std::nullopt;
  if (i >= line.size() || line[i] != ' ') return why = "a tag's name and value are parted by one space", std::nullopt;
  ++i;
  if (i >= line.size() || line[i] != '"') return why = "a tag's value is in double quotes", std::nullopt;
  ++i;
  std::string value;
  while (true) {
    if (i >= line.size()) return why = "the tag's value has no closing quote", std::nullopt;
    const char c = line[i++];
    if (c == '"') break;
    if (c == '\\') {
      if (i >= line.size() || (line[i] != '\\' && line[i] != '"'))
        return why = "in a tag's value a backslash escapes only a backslash or a quote", std::nullopt;
      value += line[i++];
    } else {
      value += c;
    }
  }
  if (i >= line.size() || line[i] != ']') return why = "the tag does not end with ]", std::nullopt;
  for (++i; i < line.size(); ++i)
    if (line[i] != ' ' && line[i] != '\t') return why = "nothing may follow a tag on its line", std::nullopt;
  return std::make_pair(name, value);
}

// A seat tag's number: `Seat2` with prefix "Seat" -> 2; -1 when the name is not one.
int seat_of(const std::string& name, std::string_view prefix) {
  if (name.size() != prefix.size() + 1 || name.compare(0, prefix.size(), prefix) != 0) return -1;
  const char c = name.back();
  return std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : -1;
}

std::string at_line(int line) { return "line " + std::to_string(line) + ": "; }

TextRecord parse(std::string_view text) {
  if (text.size() > kMaxRecordTextBytes)
    bad("a text record is at most " + std::to_string(kMaxRecordTextBytes) + " bytes; this one is " + std::to_string(text.size()));
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a byte-order mark

  // Lines, without their ends (\n or \r\n).
  std::vector<std::string_view> lines;
  for (size_t i = 0; i <= text.size();) {
    size_t end = text.find('\n', i);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(i, end - i);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back(l);
    i = end + 1;
  }
  auto blank = [](std::string_view l) { return l.find_first_not_of(" \t") == std::string_view::npos; };

  // The header: the lines from the first that begins with '[' up to the first blank one.
  size_t n = 0;
  while (n < lines.size() && blank(lines[n])) ++n;
  std::map<std::string, Tag> tags;
  for (; n < lines.size() && !blank(lines[n]); ++n) {
    const std::string_view l = lines[n];
    const int line = static_cast<int>(n) + 1;
    if (l.front() != '[') {
      if (tags.empty()) bad("a text record begins with its tags, e.g. [Game \"tigadi\"]");
      bad(at_line(line) + "a blank line must part the tags from the moves");
    }
    std::string why;
    auto tag = parse_tag(l, why);
    if (!tag) bad(at_line(line) + why);
    static const std::set<std::string> known = {"Game", "Options", "Date", "Result", "Reason", "Takebacks",
                                                "Start", "Terrain", "View"};
    if (!known.count(tag->first) && seat_of(tag->first, "Seat") < 0 && seat_of(tag->first, "Setup") < 0)
      bad(at_line(line) + "unknown tag [" + tag->first + "]");
    if (tags.count(tag->first)) bad(at_line(line) + "tag [" + tag->first + "] is given twice");
    tags[tag->first] = Tag{tag->second, line};
  }
  if (tags.empty()) bad("a text record begins with its tags, e.g. [Game \"tigadi\"]");
  const size_t moves_from = n;

  auto tag = [&](const std::string& name) -> const Tag* {
    auto it = tags.find(name);
    return it == tags.end() ? nullptr : &it->second;
  };
  auto where = [&](const std::string& name) { return at_line(tag(name)->line) + "[" + name + "]"; };

  if (const Tag* v = tag("View"))
    bad(at_line(v->line) + "a seat's view cannot be replayed: it leaves out what the seat did not see (import the "
                           "whole record of the game instead)");
  const Tag* game = tag("Game");
  if (!game) bad("the tag [Game] is missing");
  const Tag* result = tag("Result");
  if (!result) bad("the tag [Result] is missing");

  if (result->value != "*" && !parse_winners(result->value))
    bad(where("Result") + ": a result is *, draw or the winners' seats like 0 or 0+2, not " + shown(result->value));

  // The game and its start.
  json record = json::object();
  record["game"] = game->value;
  {
    bool found = false;
    std::string names;
    for (const GameKind& k : game_kinds()) {
      found = found || k.name == game->value;
      names += (names.empty() ? "" : ", ") + k.name;
    }
    if (!found) bad(where("Game") + ": unknown game " + shown(game->value) + "; the games are " + names);
  }
  record["options"] = json::object();
  if (const Tag* o = tag("Options")) {
    record["options"] = parse_json_value(o->value, where("Options"));
    if (!record["options"].is_object()) bad(where("Options") + " must be a JSON object");
  }
  record["start"] = nullptr;
  if (const Tag* st = tag("Start")) record["start"] = parse_json_value(st->value, where("Start"));

  auto replay_error = [](const std::string& at, const GameError& e) { bad(at + ": " + e.what()); };
  std::optional<Session> session;
  try {
    session.emplace(start_of(record));
  } catch (const GameError& e) {
    replay_error(tag("Start") ? where("Start") : tag("Options") ? where("Options") : where("Game"), e);
  }
  if (const Tag* t = tag("Terrain")) {
    if (session->kind() != "facet") bad(where("Terrain") + ": only FACET has a terrain tag");
    if (tag("Start")) bad(where("Terrain") + ": a record with [Start] holds its terrain there");
    json terrain = parse_pairs(t->value == "" ? std::string_view("{}") : std::string_view(t->value), where("Terrain"));
    json state = session->state();
    if (state.value("terrain", json::object()) != terrain) {
      // Not the terrain the options make here (another implementation's random layout): the tag's terrain is
      // the truth, and the game starts from the options' starting state on it.
      state["terrain"] = std::move(terrain);
      try {
        session.emplace(Session::from_state("facet", state));
      } catch (const GameError& e) {
        replay_error(where("Terrain"), e);
      }
    }
  }

  Session& s = *session;
  const int players = s.num_players();
  TextRecord out;
  out.tags.players.assign(static_cast<size_t>(players), "");
  for (const auto& [name, t] : tags) {
    const int seat = std::max(seat_of(name, "Seat"), seat_of(name, "Setup"));
    if (seat >= players)
      bad(at_line(t.line) + "[" + name + "]: this game has seats 0 to " + std::to_string(players - 1));
    if (seat_of(name, "Seat") >= 0) out.tags.players[static_cast<size_t>(seat)] = t.value == "?" ? "" : t.value;
  }
  if (const Tag* d = tag("Date")) {
    if (!is_date(d->value)) bad(where("Date") + ": a date is YYYY.MM.DD, with ? for what is unknown");
    out.tags.date = d->value == kUnknownDate ? "" : d->value;
  }
  if (const Tag* k = tag("Takebacks")) {
    const std::string& v = k->value;
    if (v.empty() || v.size() > 6 || !std::all_of(v.begin(), v.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      bad(where("Takebacks") + ": the number of takebacks is a whole number, e.g. \"2\"");
    out.tags.takebacks = std::stoi(v);
  }

  // The setups, seat by seat.
  for (Player p = 0; p < players; ++p) {
    const std::string name = "Setup" + std::to_string(p);
    const Tag* t = tag(name);
    if (!t) continue;
    json placement = parse_pairs(t->value, where(name));
    try {
      s.setup(p, placement);
    } catch (const GameError& e) {
      replay_error(where(name), e);
    }
  }

  // The move text, read whole before anything of it is replayed (the action limit holds first): move numbers,
  // turns of actions joined by commas, comments, and last the result.
  struct Token {
    enum Kind { number, comment, action } kind;
    std::string text;
    int line;
  };
  std::vector<Token> tokens;
  std::optional<std::string> final_token;
  int final_line = 0;
  size_t count = 0;  // actions
  auto count_action = [&](int line) {
    if (++count > kMaxRecordActions)
      bad(at_line(line) + "a text record holds at most " + std::to_string(kMaxRecordActions) + " actions");
  };
  for (size_t li = moves_from; li < lines.size(); ++li) {
    const std::string_view l = lines[li];
    const int line = static_cast<int>(li) + 1;
    size_t i = 0;
    while (i < l.size()) {
      const char c = l[i];
      if (c == ' ' || c == '\t') {
        ++i;
        continue;
      }
      if (final_token) bad(at_line(line) + "nothing may follow the result " + shown(*final_token));
      if (c == '{') {
        // A comment, on one line.
        const size_t close = l.find('}', i);
        if (close == std::string_view::npos) bad(at_line(line) + "the comment has no closing } on its line");
        const std::string_view body = l.substr(i + 1, close - i - 1);
        if (body.find('{') != std::string_view::npos) bad(at_line(line) + "comments do not nest");
        count_action(line);
        tokens.push_back(Token{Token::comment, std::string(body), line});
        i = close + 1;
        continue;
      }
      size_t end = i;
      while (end < l.size() && l[end] != ' ' && l[end] != '\t' && l[end] != '{') ++end;
      const std::string_view word = l.substr(i, end - i);
      i = end;
      if (word.find('}') != std::string_view::npos) bad(at_line(line) + "a } closes no comment: " + shown(word));
      const size_t digits = word.find_first_not_of("0123456789");
      if (digits > 0 && digits != std::string_view::npos && word.find_first_not_of('.', digits) == std::string_view::npos) {
        // A move number: `12.`.
        if (digits > 6) bad(at_line(line) + "the move number " + shown(word) + " is too large");
        tokens.push_back(Token{Token::number, std::string(word.substr(0, digits)), line});
        continue;
      }
      if (is_result_word(word)) {
        final_token = std::string(word);
        final_line = line;
        continue;
      }
      // A turn: actions joined by commas, ending with a comma when a comment cuts the turn.
      for (size_t from = 0; from < word.size();) {
        const size_t comma = std::min(word.find(',', from), word.size());
        const std::string_view move = word.substr(from, comma - from);
        if (move.empty()) bad(at_line(line) + "an empty action in " + shown(word));
        count_action(line);
        tokens.push_back(Token{Token::action, std::string(move), line});
        from = comma + 1;
      }
    }
  }
  if (!final_token) bad("the moves must end with the result (*, draw, or the winners' seats like 0 or 0+2)");
  if (*final_token != result->value)
    bad(at_line(final_line) + "the moves end with " + shown(*final_token) + " but [Result] says " + shown(result->value));

  // `{P offers draw}`, `{P accepts}`, `{P declines}`, `{P offers stalemate}`, `{P withdraws}`, `{P resigns}`,
  // `{adjudicated R reason}`.
  int round = 0;
  auto comment_action = [&](const std::string& c, int line) {
    std::vector<std::string> words;
    for (size_t i = 0; i < c.size();) {
      const size_t e = std::min(c.find(' ', i), c.size());
      if (e > i) words.emplace_back(c.substr(i, e - i));
      i = e + 1;
    }
    const std::string hint =
        "a comment is an action: {0 offers draw}, {1 accepts}, {1 declines}, {0 offers stalemate}, {0 withdraws}, "
        "{0 resigns} or {adjudicated 0 ply-limit}";
    if (words.size() == 3 && words[0] == "adjudicated") {
      auto winners = parse_winners(words[1]);
      if (!winners) bad(at_line(line) + "the adjudicated result " + shown(words[1]) + " is not draw or seats like 0 or 0+2");
      if (!winners->empty() && winners->back() >= players)
        bad(at_line(line) + "seat " + std::to_string(winners->back()) + " does not play this game");
      try {
        s.adjudicate(Result{*winners, words[2]});
      } catch (const GameError& e) {
        bad(at_line(line) + "round " + std::to_string(round) + ": the adjudication is refused: " + e.what());
      }
      return;
    }
    static const std::map<std::string, std::string> verbs = {
        {"offers draw", "draw"}, {"accepts", "accept"}, {"declines", "decline"},
        {"offers stalemate", "stalemate"}, {"withdraws", "withdraw"}, {"resigns", "resign"}};
    if (words.size() < 2 || words.size() > 3 || words[0].size() != 1 || !std::isdigit(static_cast<unsigned char>(words[0][0])))
      bad(at_line(line) + "unknown comment " + shown(c) + ": " + hint);
    auto it = verbs.find(words[1] + (words.size() == 3 ? " " + words[2] : ""));
    if (it == verbs.end()) bad(at_line(line) + "unknown comment " + shown(c) + ": " + hint);
    const Player p = words[0][0] - '0';
    if (p >= players) bad(at_line(line) + "seat " + words[0] + " does not play this game");
    try {
      s.offer(p, it->second);
    } catch (const GameError& e) {
      bad(at_line(line) + "round " + std::to_string(round) + ": " + shown(c) + " is refused: " + e.what());
    }
  };
  for (const Token& t : tokens) {
    if (t.kind == Token::number) {
      round = std::stoi(t.text);
    } else if (t.kind == Token::comment) {
      comment_action(t.text, t.line);
    } else {
      try {
        s.play(t.text);
      } catch (const GameError& e) {
        bad(at_line(t.line) + "round " + std::to_string(round) + ": the move " + shown(t.text) + " is refused: " + e.what());
      }
    }
  }

  // The result: the tags and where the moves lead must agree.
  const Result* reached = s.game().result();
  if (result->value == "*") {
    if (tag("Reason")) bad(where("Reason") + ": a game still on has no reason");
  } else {
    if (!tag("Reason")) bad("the tag [Reason] is missing: a finished game says why it ended");
  }
  if (auto winners = parse_winners(result->value); winners && !winners->empty() && winners->back() >= players)
    bad(where("Result") + ": seat " + std::to_string(winners->back()) + " does not play this game");
  if (result_token(reached) != result->value || (reached && reached->reason != tag("Reason")->value)) {
    const std::string got = reached ? result_token(reached) + " (" + reached->reason + ")" : "* (the game is still on)";
    bad(where("Result") + ": the moves lead to " + got + ", not " + shown(result->value) +
        (tag("Reason") ? " (" + tag("Reason")->value + ")" : ""));
  }

  out.record = s.record();
  return out;
}

}  // namespace

TextRecord parse_record_text(std::string_view text) {
  try {
    return parse(text);
  } catch (const GameError& e) {
    if (e.kind() == ErrorKind::bad_request) throw;
    bad(e.what());
  } catch (const std::exception& e) {
    bad(std::string("the text record cannot be read: ") + e.what());
  }
}

json record_from_text(std::string_view text) { return parse_record_text(text).record; }

}  // namespace tabula
