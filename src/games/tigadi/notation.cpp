// Tigadi's notation (shared/spec/notation.md): move strings, the state JSON, and the reasons a written
// move is refused.
#include "games/tigadi/tigadi.h"

#include <optional>

namespace tabula::tigadi {

namespace {

struct WrittenMove {
  bool pass = false;
  int from = TigadiMove::kNone, to = TigadiMove::kNone, capture = TigadiMove::kNone;
};

// Reads `<pt>`, `<pt>-<pt>`, either with `x<pt>`, or `pass`; nullopt when it is not of these forms.
std::optional<WrittenMove> read_move(std::string_view s) {
  WrittenMove w;
  if (s == "pass") {
    w.pass = true;
    return w;
  }
  auto take_point = [&](int& into) {
    size_t n = s.size() >= 2 ? 2 : s.size();
    into = parse_point(s.substr(0, n));
    if (into < 0) return false;
    s.remove_prefix(n);
    return true;
  };
  if (!take_point(w.to)) return std::nullopt;
  if (!s.empty() && s[0] == '-') {
    s.remove_prefix(1);
    w.from = w.to;
    if (!take_point(w.to)) return std::nullopt;
  }
  if (!s.empty() && s[0] == 'x') {
    s.remove_prefix(1);
    if (!take_point(w.capture)) return std::nullopt;
  }
  if (!s.empty()) return std::nullopt;
  return w;
}

std::string q(std::string_view s) { return "\"" + std::string(s) + "\""; }

}  // namespace

std::string Tigadi::move_to_string(Move m) const {
  if (TigadiMove::is_pass(m)) return "pass";
  std::string s;
  if (TigadiMove::from(m) != TigadiMove::kNone) {
    s += point_name(TigadiMove::from(m));
    s += '-';
  }
  s += point_name(TigadiMove::to(m));
  if (TigadiMove::capture(m) != TigadiMove::kNone) {
    s += 'x';
    s += point_name(TigadiMove::capture(m));
  }
  return s;
}

std::string Tigadi::explain_illegal(std::string_view text) const {
  auto w = read_move(text);
  if (!w)
    return q(text) + " is not a Tigadi move: write a placement as d1, a slide as d1-d2, add xa4 to name "
                     "the goti a tigadi takes, or pass";
  if (over()) return "the game is over";
  const int me = pos_.to_move, opp = 1 - me;
  const Mask own = pos_.board[me], enemy = pos_.board[opp];
  MoveList legal;
  legal_moves(legal);
  const bool must_pass = legal.size() == 1 && TigadiMove::is_pass(legal[0]);
  if (w->pass) return pos_.placing() ? "you still have gotis to place: passing is not allowed"
                                     : "movement is compulsory: you may pass only when no goti can move";
  if (must_pass)
    return pos_.placing() ? "your hand is empty: you pass until your opponent has placed every goti"
                          : "none of your gotis can move: you must pass";
  if (pos_.placing() && w->from != TigadiMove::kNone)
    return "nothing moves while gotis remain in hand: place one on an empty point";
  if (!pos_.placing() && w->from == TigadiMove::kNone)
    return "every goti is placed: slide one of yours to a neighbouring empty point (e.g. d1-d2)";
  Mask after = own | bit(w->to);
  if (w->from != TigadiMove::kNone) {
    if (!(own & bit(w->from))) return "you have no goti on " + std::string(point_name(w->from));
    if (!(kGeometry.neighbours[static_cast<size_t>(w->from)] & bit(w->to)))
      return std::string(point_name(w->from)) + " and " + std::string(point_name(w->to)) +
             " are not neighbours on a drawn line: a goti slides one point and never jumps";
    after = own ^ bit(w->from) ^ bit(w->to);
  }
  if ((own | enemy) & bit(w->to)) return std::string(point_name(w->to)) + " is occupied";
  const bool closes = completes_line(after, w->to);
  if (closes && enemy && w->capture == TigadiMove::kNone)
    return "this move completes a tigadi: add the enemy goti it takes, e.g. " + std::string(text) + "x" +
           std::string(point_name(__builtin_ctz(capturable_points(enemy))));
  if (w->capture != TigadiMove::kNone) {
    if (!closes) return "this move completes no tigadi, so it takes nothing";
    if (!(enemy & bit(w->capture))) return "there is no enemy goti on " + std::string(point_name(w->capture));
    if (!(capturable_points(enemy) & bit(w->capture)))
      return std::string(point_name(w->capture)) +
             " stands in a tigadi of your opponent and is protected while an unprotected goti remains";
  }
  return q(text) + " is not a legal move now";
}

json Tigadi::state_json() const {
  json board = json::object();
  for (int side = 0; side < 2; ++side)
    for (Mask b = pos_.board[side]; b; b &= b - 1)
      board[std::string(point_name(__builtin_ctz(b)))] = std::to_string(side) + "G";
  json state = common_state_json(*this, json::object(), std::move(board));
  state["in_hand"] = {pos_.in_hand[0], pos_.in_hand[1]};
  state["quiet_plies"] = pos_.quiet_plies;
  state["draw_offer"] = over() ? json(nullptr) : pos_.draw_offer.to_json();
  return state;
}

json Tigadi::danger_for(Player) const {
  json marks = json::array();
  if (over()) return marks;
  const Mask empty = kAllPoints & ~(pos_.board[0] | pos_.board[1]);
  for (int side = 0; side < 2; ++side) {
    const Mask own = pos_.board[side];
    for (Mask line : kGeometry.lines) {
      const Mask held = line & own;
      if (__builtin_popcount(held) != 2 || !(line & empty)) continue;
      const int point = __builtin_ctz(line & empty);
      const bool reachable = pos_.in_hand[side] > 0 ||
                             (kGeometry.neighbours[static_cast<size_t>(point)] & own & ~line) != 0;
      if (!reachable) continue;
      json points = json::array();
      for (Mask b = line; b; b &= b - 1) points.push_back(std::string(point_name(__builtin_ctz(b))));
      std::sort(points.begin(), points.end());
      marks.push_back(json{{"square", std::string(point_name(point))}, {"player", 1 - side}, {"why", "line-open"},
                           {"by", side}, {"line", points}});
    }
  }
  return marks;
}

void Tigadi::check_options(const json& options) {
  if (options.is_null()) return;
  if (!options.is_object()) fail(ErrorKind::bad_request, "options must be an object");
  for (auto it = options.begin(); it != options.end(); ++it)
    fail(ErrorKind::bad_request, "unknown option \"" + it.key() + "\": tigadi has no options");
}

std::unique_ptr<Tigadi> Tigadi::from_state(const json& state) {
  if (!state.is_object()) fail(ErrorKind::bad_request, "state must be an object");
  require_known_fields(state, {"game", "options", "phase", "to_move", "ply", "board", "result", "in_hand", "quiet_plies", "draw_offer"},
                       "state field");
  if (const json* g = find_field(state, "game"); g && *g != "tigadi")
    fail(ErrorKind::bad_request, "state.game must be \"tigadi\"");
  if (const json* o = find_field(state, "options")) check_options(*o);

  Position pos;
  if (find_field(state, "to_move")) pos.to_move = static_cast<uint8_t>(int_field(state, "to_move", 0, 1));
  if (find_field(state, "ply")) pos.ply = static_cast<int32_t>(int_field(state, "ply", 0, 1'000'000'000));
  if (find_field(state, "quiet_plies"))
    pos.quiet_plies = static_cast<uint16_t>(int_field(state, "quiet_plies", 0, kQuietPliesDraw - 1));
  if (const json* b = find_field(state, "board")) {
    if (!b->is_object()) fail(ErrorKind::bad_request, "state.board must map points to pieces");
    for (auto it = b->begin(); it != b->end(); ++it) {
      int p = parse_point(it.key());
      if (p < 0) fail(ErrorKind::bad_request, "state.board: \"" + it.key() + "\" is not a Tigadi point");
      if (*it == "0G") pos.board[0] |= bit(p);
      else if (*it == "1G") pos.board[1] |= bit(p);
      else fail(ErrorKind::bad_request, "state.board: a Tigadi piece is \"0G\" or \"1G\"");
    }
  }
  if (const json* h = find_field(state, "in_hand")) {
    if (!h->is_array() || h->size() != 2 || !(*h)[0].is_number_integer() || !(*h)[1].is_number_integer())
      fail(ErrorKind::bad_request, "state.in_hand must be [bone, seed]");
    for (size_t side = 0; side < 2; ++side) {
      long long n = (*h)[side].get<long long>();
      if (n < 0 || n > kGotis) fail(ErrorKind::bad_request, "state.in_hand: a hand holds 0 to 9 gotis");
      pos.in_hand[side] = static_cast<uint8_t>(n);
    }
  } else if (pos.board[0] | pos.board[1]) {
    // Shared rulings: a hand is never guessed. "Nine less those on the board" would silently send a position
    // of the moving phase, whose captured gotis are gone, back to placing.
    fail(ErrorKind::bad_request,
         "state.in_hand is required when gotis are on the board: say how many each side still holds, "
         "e.g. [0, 0] once placing is over");
  }
  for (int side = 0; side < 2; ++side)
    if (pos.total(side) > kGotis)
      fail(ErrorKind::bad_request, std::string(side ? "Seed" : "Bone") +
                                       " has more than nine gotis on the board and in hand together");

  std::optional<Result> given;
  if (const json* r = find_field(state, "result"); r && !r->is_null()) given = Result::from_json(*r);
  if (const json* ph = find_field(state, "phase")) {
    if (*ph != "play" && *ph != "over") fail(ErrorKind::bad_request, "state.phase of tigadi is play or over");
    if ((*ph == "over") != given.has_value())
      fail(ErrorKind::bad_request, "state.phase is \"over\" exactly when state.result is set");
  }
  if (!given) {
    // docs/rulings.md: a game at two gotis is already decided, so it cannot be handed over as in play.
    for (int side = 0; side < 2; ++side)
      if (pos.total(side) <= 2)
        fail(ErrorKind::bad_request, std::string(side ? "Seed" : "Bone") +
                                         " has two gotis or fewer: that game is already over");
  }
  pos.draw_offer = DrawOffer::from_state(state);
  if (given && pos.draw_offer.by() >= 0) fail(ErrorKind::bad_request, "state.draw_offer: a game that is over has no offer");
  auto g = std::make_unique<Tigadi>(pos);
  if (given) g->end_with(*given, nullptr);
  return g;
}

}  // namespace tabula::tigadi
