// FACET's notation (shared/spec/notation.md): squares, move strings, options, the state and observations,
// a state read back (from_state), and the reasons a written move is refused.
#include "games/facet/facet.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace tabula::facet {

int parse_square(std::string_view s) {
  if (s.size() != 2 || s[0] < 'a' || s[0] > 'i' || s[1] < '1' || s[1] > '9') return kNoSquare;
  return square_of(s[0] - 'a', s[1] - '0');
}

std::string square_name(int sq) {
  return std::string{static_cast<char>('a' + file_of(sq)), static_cast<char>('0' + rank_of(sq))};
}

std::string_view tile_name(int t) {
  static constexpr std::string_view names[kTiles] = {"Field", "Tower", "Spire", "Gate", "Throne"};
  return names[static_cast<size_t>(t)];
}

Options Options::from_json(const json& options) {
  Options o;
  if (options.is_null()) return o;
  if (!options.is_object()) fail(ErrorKind::bad_request, "options must be an object");
  for (auto it = options.begin(); it != options.end(); ++it) {
    const std::string& k = it.key();
    if (k == "layout") {
      if (!it->is_string() || (*it != "classic" && *it != "random"))
        fail(ErrorKind::bad_request, "option \"layout\" must be \"classic\" or \"random\"");
      o.random_layout = *it == "random";
    } else if (k == "seed") {
      if (!it->is_number_integer() || (it->is_number_integer() && !it->is_number_unsigned() && it->get<long long>() < 0))
        fail(ErrorKind::bad_request, "option \"seed\" must be a non-negative integer");
      o.seed = it->get<uint64_t>();
    } else if (k == "modes") {
      if (!it->is_array()) fail(ErrorKind::bad_request, "option \"modes\" must be a list of decay, fog, momentum");
      for (const json& m : *it) {
        const std::string name = m.is_string() ? m.get<std::string>() : std::string();
        bool* flag = name == "decay" ? &o.decay : name == "momentum" ? &o.momentum : name == "fog" ? &o.fog : nullptr;
        if (!flag) fail(ErrorKind::bad_request, "unknown mode " + m.dump() + ": FACET's modes are decay, fog, momentum");
        if (*flag) fail(ErrorKind::bad_request, "mode \"" + name + "\" is listed twice");
        *flag = true;
      }
    } else {
      fail(ErrorKind::bad_request, "unknown option \"" + k + "\": FACET's options are layout, seed, modes");
    }
  }
  if (o.momentum && o.decay) fail(ErrorKind::bad_request, "momentum cannot be combined with decay");
  if (o.momentum && o.fog) fail(ErrorKind::bad_request, "momentum cannot be combined with fog");
  return o;
}

json Options::to_json() const {
  json modes = json::array();  // sorted by byte value
  if (decay) modes.push_back("decay");
  if (fog) modes.push_back("fog");
  if (momentum) modes.push_back("momentum");
  return json{{"layout", random_layout ? "random" : "classic"}, {"seed", seed}, {"modes", modes}};
}

std::string Facet::move_to_string(Move m) const {
  return square_name(FacetMove::from(m)) + "-" + square_name(FacetMove::to(m));
}

namespace {

std::string_view grant(int tile) {
  switch (tile) {
    case kField: return "steps one square in any direction";
    case kTower: return "slides along its file or rank";
    case kSpire: return "slides diagonally";
    case kGate: return "leaps like a knight (two squares one way, one across)";
    default: return "slides any distance in any of the eight directions";
  }
}

// Whether `tile`'s move reaches `to` from `from` on an empty board.
bool reaches(int tile, int from, int to) {
  const int df = std::abs(file_of(to) - file_of(from)), dr = std::abs(rank_of(to) - rank_of(from));
  const bool straight = df == 0 || dr == 0, diagonal = df == dr;
  switch (tile) {
    case kField: return std::max(df, dr) == 1;
    case kGate: return (df == 1 && dr == 2) || (df == 2 && dr == 1);
    case kTower: return straight;
    case kSpire: return diagonal;
    default: return straight || diagonal;
  }
}

}  // namespace

std::string Facet::explain_illegal(std::string_view text) const {
  const size_t dash = text.find('-');
  const int from = dash == std::string_view::npos ? kNoSquare : parse_square(text.substr(0, dash));
  const int to = dash == std::string_view::npos ? kNoSquare : parse_square(text.substr(dash + 1));
  if (from == kNoSquare || to == kNoSquare)
    return "\"" + std::string(text) + "\" is not a FACET move: write <square>-<square>, e.g. e2-e3";
  if (phase_ == Phase::over) return "the game is over";
  // Under fog the reasons are given on the mover's view, so a refusal says nothing of what it cannot see.
  Stones scratch;
  const Stones& board = board_for(to_move_, scratch);
  auto stone_at = [&](int sq) { return board[static_cast<size_t>(sq)]; };
  const std::string f = square_name(from), t = square_name(to);
  const uint8_t s = stone_at(from);
  if (s == kEmpty) return "there is no stone on " + f;
  if (owner_of(s) != to_move_) return "the stone on " + f + " is not yours";
  if (from == to) return "a move must leave its square";
  if (stone_at(to) != kEmpty && owner_of(stone_at(to)) == to_move_)
    return t + " holds one of your own stones: you may not land on it";
  if (is_monarch(s)) return "the Monarch steps one square in any direction, whatever tile it stands on";
  const int tile = tile_at(from), badge = badge_at(from);
  for (int granted : {tile, badge}) {
    if (granted == kField && granted != tile) continue;
    if (!reaches(granted, from, to) || granted == kField || granted == kGate) continue;
    // A slide that reaches on an empty board: something stands in the way.
    const int sf = (file_of(to) > file_of(from)) - (file_of(to) < file_of(from));
    const int sr = (rank_of(to) > rank_of(from)) - (rank_of(to) < rank_of(from));
    for (int sq = square_of(file_of(from) + sf, rank_of(from) + sr); sq != to;
         sq = square_of(file_of(sq) + sf, rank_of(sq) + sr))
      if (stone_at(sq) != kEmpty)
        return "the slide is blocked at " + square_name(sq) + ": sliders stop on or before the first stone in their path";
  }
  std::string why = "a stone on a " + std::string(tile_name(tile)) + " " + std::string(grant(tile));
  if (badge != kField)
    why += ", and its " + std::string(tile_name(badge)) + " badge adds: " + std::string(grant(badge));
  return why + "; " + t + " is out of its reach";
}

json Facet::state_json() const {
  json board = json::object(), terrain = json::object(), badges = json::object();
  for (int sq = 0; sq < kSquares; ++sq) {
    const uint8_t s = stone_at(sq);
    if (s != kEmpty) board[square_name(sq)] = std::to_string(owner_of(s)) + (is_monarch(s) ? "M" : "A");
    if (tile_at(sq) != kField) terrain[square_name(sq)] = std::string(1, tile_letter(tile_at(sq)));
    if (badge_at(sq) != kField) badges[square_name(sq)] = std::string(1, tile_letter(badge_at(sq)));
  }
  json state = common_state_json(*this, options_.to_json(), std::move(board));
  state["terrain"] = std::move(terrain);
  state["badges"] = std::move(badges);
  state["coronation"] = coronation_.player < 0 ? json(nullptr)
                                               : json{{"player", coronation_.player}, {"plies", coronation_.plies}};
  state["draw_offer"] = phase_ == Phase::play ? draw_offer_.to_json() : json(nullptr);
  return state;
}

// Without fog nothing is hidden: every viewer sees the state; under fog, once the game is over, neither.
json Facet::observation_json(Player viewer) const {
  if (!options_.fog || phase_ == Phase::over) return state_json();
  return fog_observation(viewer);
}

std::unique_ptr<Facet> Facet::from_state(const json& state) {
  if (!state.is_object()) fail(ErrorKind::bad_request, "state must be an object");
  require_known_fields(state, {"game", "options", "phase", "to_move", "ply", "board", "result", "terrain", "badges",
                               "coronation", "draw_offer"},
                       "state field");
  if (const json* g = find_field(state, "game"); g && *g != "facet") fail(ErrorKind::bad_request, "state.game must be \"facet\"");
  const json* o = find_field(state, "options");
  auto g = std::make_unique<Facet>(Options::from_json(o ? *o : json(nullptr)));

  auto square_map = [&](const char* field, auto&& each) {
    const json* m = find_field(state, field);
    if (!m) return false;
    if (!m->is_object()) fail(ErrorKind::bad_request, std::string("state.") + field + " must map squares to letters");
    for (auto it = m->begin(); it != m->end(); ++it) {
      const int sq = parse_square(it.key());
      if (sq == kNoSquare) fail(ErrorKind::bad_request, std::string("state.") + field + ": \"" + it.key() + "\" is not a square");
      each(sq, it->is_string() ? it->get<std::string>() : std::string());
    }
    return true;
  };

  if (find_field(state, "terrain")) {
    g->terrain_.fill(kField);
    square_map("terrain", [&](int sq, const std::string& v) {
      const int t = v.size() == 1 ? tile_of_letter(v[0]) : -1;
      if (t < 0) fail(ErrorKind::bad_request, "state.terrain: a tile is one of the letters F T S G C");
      g->terrain_[static_cast<size_t>(sq)] = static_cast<uint8_t>(t);
    });
  }
  if (find_field(state, "board")) {
    g->board_.fill(kEmpty);
    square_map("board", [&](int sq, const std::string& v) {
      if (v.size() != 2 || (v[0] != '0' && v[0] != '1') || (v[1] != 'M' && v[1] != 'A'))
        fail(ErrorKind::bad_request, "state.board: a stone is a player digit and M or A, e.g. \"0A\"");
      g->board_[static_cast<size_t>(sq)] = stone(v[0] - '0', v[1] == 'M');
    });
  }
  // A finished game's state may lack the Monarch its regicide took; a game on has both.
  const json* given_phase = find_field(state, "phase");
  const bool over = given_phase && *given_phase == "over";
  g->agents_ = {0, 0};
  std::array<int, 2> monarchs{};
  std::array<int, 2> agents{};
  for (int sq = 0; sq < kSquares; ++sq) {
    const uint8_t s = g->board_[static_cast<size_t>(sq)];
    if (s == kEmpty) continue;
    ++(is_monarch(s) ? monarchs : agents)[static_cast<size_t>(owner_of(s))];
  }
  for (size_t p = 0; p < 2; ++p) {
    const std::string who = p ? "Black" : "White";
    if (monarchs[p] > 1 || (monarchs[p] == 0 && !over))
      fail(ErrorKind::bad_request, "state.board: " + who + " must have exactly one Monarch" +
                                       (monarchs[p] == 0 ? " while the game is on" : ""));
    if (agents[p] > 17) fail(ErrorKind::bad_request, "state.board: " + who + " has more than 17 agents");
    g->agents_[p] = static_cast<uint8_t>(agents[p]);
  }
  g->thrones_.clear();
  for (int sq = 0; sq < kSquares; ++sq)
    if (g->terrain_[static_cast<size_t>(sq)] == kThrone) g->thrones_.push_back(sq);

  square_map("badges", [&](int sq, const std::string& v) {
    if (!g->options_.momentum) fail(ErrorKind::bad_request, "state.badges: badges exist only in momentum games");
    const int t = v.size() == 1 ? tile_of_letter(v[0]) : -1;
    if (t <= kField) fail(ErrorKind::bad_request, "state.badges: a badge is one of the letters T S G C");
    const uint8_t s = g->board_[static_cast<size_t>(sq)];
    if (s == kEmpty || is_monarch(s)) fail(ErrorKind::bad_request, "state.badges: a badge belongs to an agent, not to " + square_name(sq));
    g->badge_[static_cast<size_t>(sq)] = static_cast<uint8_t>(t);
  });
  if (find_field(state, "ply")) g->ply_ = static_cast<int>(int_field(state, "ply", 0, 1'000'000'000));
  if (find_field(state, "to_move")) g->to_move_ = static_cast<uint8_t>(int_field(state, "to_move", 0, 1));
  g->draw_offer_ = DrawOffer::from_state(state);
  if (const json* c = find_field(state, "coronation"); c && !c->is_null()) {
    if (!c->is_object()) fail(ErrorKind::bad_request, "state.coronation must be {\"player\": p, \"plies\": n} or null");
    const int p = static_cast<int>(int_field(*c, "player", 0, 1));
    const int n = static_cast<int>(int_field(*c, "plies", 1, 3));
    // The count is consistent with the board: p holds every Throne, and the side to move fits the count.
    bool holds = !g->thrones_.empty();
    for (int sq : g->thrones_) {
      const uint8_t s = g->board_[static_cast<size_t>(sq)];
      holds = holds && s != kEmpty && owner_of(s) == p;
    }
    if (!holds) fail(ErrorKind::bad_request, "state.coronation: that player does not hold every Throne");
    if (n < 3 && (n == 1) != (g->to_move_ == 1 - p))
      fail(ErrorKind::bad_request, "state.coronation: a count of 1 has the opponent to move, 2 the holder");
    g->coronation_ = Coronation{static_cast<int8_t>(p), static_cast<uint8_t>(n)};
  }

  std::string phase = "play";
  if (const json* ph = find_field(state, "phase")) {
    if (!ph->is_string() || (*ph != "play" && *ph != "over"))
      fail(ErrorKind::bad_request, "state.phase must be play or over (FACET has no setup)");
    phase = ph->get<std::string>();
  }
  std::optional<Result> given;
  if (const json* r = find_field(state, "result"); r && !r->is_null()) given = Result::from_json(*r);
  if ((phase == "over") != given.has_value())
    fail(ErrorKind::bad_request, "state.phase is \"over\" exactly when state.result is set");
  if (!given && g->coronation_.plies == 3)
    fail(ErrorKind::bad_request, "state.coronation: a count of 3 has ended the game");
  // Under fog both players have just seen the whole given position, as at the start of a game, and
  // spectators see its terrain as the starting layout (ruling F9).
  g->start_terrain_ = g->terrain_;
  if (g->options_.fog) g->start_fog();
  g->hash_ = g->core_hash();
  if (given) {
    g->end_with(*given, nullptr);
    return g;
  }
  // A given position whose side to move has no legal move is a stalemate at once (ruling F7).
  if (!g->has_legal_move(g->to_move_)) {
    g->end_ = End::stalemate;
    g->phase_ = Phase::over;
  }
  return g;
}

}  // namespace tabula::facet
