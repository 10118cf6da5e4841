// The Game of Truth's notation (shared/spec/notation.md): squares, action strings, options, the state and
// the observations (each army's setup hidden until every army is in), `new` from a given state, and the
// reasons an action is refused.
#include "games/truth/moves.h"
#include "games/truth/tactics.h"
#include "games/truth/truth.h"

#include <algorithm>

namespace tabula::truth {

std::string_view kind_name(int k) {
  static constexpr std::string_view names[kKinds] = {"door", "lantern", "linesman", "sentry", "guardian", "icon"};
  return names[static_cast<size_t>(k)];
}

std::string_view player_name(int p) {
  static constexpr std::string_view names[kMaxPlayers] = {"Ivory", "Jade", "Ember", "Indigo"};
  return p >= 0 && p < kMaxPlayers ? names[static_cast<size_t>(p)] : "nobody";
}

int parse_square(std::string_view s) {
  if (s.size() < 2 || s.size() > 3 || s[0] < 'a' || s[0] > 'q') return kNoSquare;
  int rank = 0;
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return kNoSquare;
    rank = rank * 10 + (s[i] - '0');
  }
  if (s[1] == '0' || rank < 1 || rank > kRanks) return kNoSquare;
  return square_of(s[0] - 'a', rank);
}

std::string square_name(int sq) {
  return std::string(1, static_cast<char>('a' + file_of(sq))) + std::to_string(rank_of(sq));
}

Options Options::from_json(const json& options) {
  Options o;
  if (options.is_null()) return o;
  if (!options.is_object()) fail(ErrorKind::bad_request, "options must be an object");
  for (auto it = options.begin(); it != options.end(); ++it) {
    if (it.key() == "players") {
      o.players = static_cast<int>(int_field(options, "players", 2, 4));
      if (o.players == 3) fail(ErrorKind::bad_request, "option \"players\" must be 2 or 4");
    } else if (it.key() == "max_plies") {
      o.max_plies = static_cast<int>(int_field(options, "max_plies", 1, 1'000'000));
    } else {
      fail(ErrorKind::bad_request, "unknown option \"" + it.key() + "\": truth's options are players, max_plies");
    }
  }
  return o;
}

json Options::to_json() const { return json{{"players", players}, {"max_plies", max_plies}}; }

std::string Truth::move_to_string(Move m) const {
  if (TruthMove::is_pass(m)) return "pass";
  return square_name(TruthMove::from(m)) + "-" + square_name(TruthMove::to(m));
}

std::string Truth::explain_illegal(std::string_view text) const {
  const Position& p = pos_;
  if (p.phase == Phase::setup) return "no action is legal until every army is set up";
  if (p.phase == Phase::over) return "the game is over";
  if (text == "pass")
    return p.action == 0 ? "pass is legal only when no complete turn (a door action and another action) exists"
                         : "pass ends a turn only when no second action exists; one does";
  const size_t dash = text.find('-');
  const int from = dash == std::string_view::npos ? kNoSquare : parse_square(text.substr(0, dash));
  const int to = dash == std::string_view::npos ? kNoSquare : parse_square(text.substr(dash + 1));
  if (from == kNoSquare || to == kNoSquare)
    return "\"" + std::string(text) + "\" is not a Truth action: write <square>-<square>, e.g. e4-f5, or pass";
  const std::string f = square_name(from), t = square_name(to);
  const int id = p.at(from);
  if (id < 0) return "there is no piece on " + f;
  const Piece& pc = p.piece(id);
  if (pc.owner != p.to_move) return "the piece on " + f + " is " + std::string(player_name(pc.owner)) + "'s";
  if (id == p.acted) return "this piece made this turn's first action: the second must move another piece";
  if (!rules::may_act(p, id)) return "the door action is still owed: move a door (or a door-role piece)";
  if (!is_open(p.players, to)) return t + " is a black square: never a destination";
  if (p.at(to) >= 0) return t + " is occupied: no move lands on an occupied square";
  bool reaches = false;
  rules::for_each_destination(p, id, [&](int sq) { return reaches = sq == to; });
  if (reaches) return "after this action no legal second action would remain: a first action needs one";
  const std::string_view kind = kind_name(pc.kind);
  if (p.lantern_role(id))
    return std::string(pc.kind == kGuardian ? "a lantern-guardian" : "a lantern") +
           " moves diagonally, as far as doors, icons and door-role pieces leave it";
  switch (pc.kind) {
    case kDoor: return "a door moves exactly one square diagonally";
    case kLinesman: return "a linesman moves exactly two squares in a line, and may not cross a sentry";
    case kSentry: return "a sentry lands within its icon's range: five steps on the icon's lines, four off them";
    case kGuardian: return "a guardian moves one to four squares diagonally and lands at most four steps from its icon";
    case kIcon: return "an icon moves exactly two squares diagonally from its own territory, one from outside it";
    default: return "\"" + std::string(text) + "\" is not a legal " + std::string(kind) + " move";
  }
}

namespace {

json players_of(uint8_t mask, int players) {
  json out = json::array();
  for (int p = 0; p < players; ++p)
    if ((mask >> p) & 1) out.push_back(p);
  return out;
}

uint8_t mask_of(const json& list, int players, std::string_view field) {
  if (!list.is_array()) fail(ErrorKind::bad_request, "\"" + std::string(field) + "\" must be a list of players");
  uint8_t mask = 0;
  for (const json& v : list) {
    if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() >= players)
      fail(ErrorKind::bad_request, "\"" + std::string(field) + "\" must list player numbers");
    mask |= static_cast<uint8_t>(1u << v.get<int>());
  }
  return mask;
}

}  // namespace

// viewer: a player, kSpectator, or kWholeTruth (-2) for the state. During setup a seat sees its own army
// only and spectators none; from the start of play nothing is hidden.
json Truth::danger_for(Player) const {
  json marks = json::array();
  const Position& p = pos_;
  if (p.phase != Phase::play) return marks;
  std::array<json, kMaxPlayers> burners;
  for (int q = 0; q < p.players; ++q) {
    // Army q at the start of its next turn: a lantern may act first (before the door action).
    Position turn = p;
    turn.to_move = static_cast<uint8_t>(q);
    turn.action = 0;
    turn.acted = kNoPiece;
    turn.door_action_done = false;
    const uint8_t burnable = tactics::burnable_icons(turn);
    for (int owner = 0; owner < p.players; ++owner)
      if (burnable & (1u << owner)) burners[static_cast<size_t>(owner)].push_back(q);
  }
  for (int owner = 0; owner < p.players; ++owner) {
    if (!p.icon_stands(owner)) continue;
    const std::string square = square_name(p.icon_square(owner));
    if (!burners[static_cast<size_t>(owner)].is_null())
      marks.push_back(json{{"square", square}, {"player", owner}, {"why", "icon-burnable"},
                           {"by", burners[static_cast<size_t>(owner)]}});
    if (p.sieges[static_cast<size_t>(owner)].active)
      marks.push_back(json{{"square", square}, {"player", owner}, {"why", "icon-sieged"},
                           {"count", p.sieges[static_cast<size_t>(owner)].count}});
  }
  return marks;
}

json Truth::observation_json(Player viewer) const {
  const Position& p = pos_;
  json board = json::object();
  for (int id = 0; id < kMaxPieces; ++id) {
    const Piece& pc = p.piece(id);
    if (!pc.alive()) continue;
    if (p.phase == Phase::setup && viewer != -2 && viewer != pc.owner) continue;
    board[square_name(pc.square)] = std::to_string(pc.owner) + kind_letter(pc.kind);
  }
  json s = common_state_json(*this, options_.to_json(), std::move(board));
  json scores = json::array();
  for (int q = 0; q < p.players; ++q) scores.push_back(p.scores[static_cast<size_t>(q)]);
  s["scores"] = std::move(scores);
  s["transformed"] = players_of(p.transformed, p.players);
  json sieges = json::object();
  for (int q = 0; q < p.players; ++q)
    if (p.sieges[static_cast<size_t>(q)].active && p.icon_stands(q))
      sieges[square_name(p.icon_square(q))] = p.sieges[static_cast<size_t>(q)].count;
  s["sieges"] = std::move(sieges);
  s["action"] = p.action;
  json acted = json::array();
  if (p.acted != kNoPiece && p.piece(p.acted).alive()) acted.push_back(square_name(p.piece(p.acted).square));
  s["acted"] = std::move(acted);
  s["door_action_done"] = p.door_action_done;
  s["blocked_turns"] = p.blocked_turns;
  s["stalemate_agreed"] = players_of(p.agreed, p.players);
  s["ready"] = players_of(p.ready, p.players);
  return s;
}

json Truth::state_json() const { return observation_json(-2); }

// A state per notation.md (rulings.md: taken as it is; nothing is resolved or transformed on loading).
std::unique_ptr<Truth> Truth::from_state(const json& state) {
  if (!state.is_object()) fail(ErrorKind::bad_request, "a state must be an object");
  require_known_fields(state,
                       {"game", "options", "phase", "to_move", "ply", "board", "result", "scores", "transformed", "sieges",
                        "action", "acted", "door_action_done", "blocked_turns", "stalemate_agreed", "ready"},
                       "truth state");
  if (const json* g = find_field(state, "game"); g && *g != "truth") fail(ErrorKind::bad_request, "state.game must be \"truth\"");
  const json* opts = find_field(state, "options");
  auto game = std::make_unique<Truth>(Options::from_json(opts ? *opts : json(nullptr)));
  Position& p = game->pos_;
  const int players = p.players;

  // The board: pieces get ids in square order within their army.
  std::array<int, kMaxPlayers> next{};
  const json* board = find_field(state, "board");
  if (board && !board->is_null()) {
    if (!board->is_object()) fail(ErrorKind::bad_request, "state.board must map squares to pieces");
    std::vector<std::pair<int, std::string>> entries;
    for (auto it = board->begin(); it != board->end(); ++it) {
      const int sq = parse_square(it.key());
      if (sq == kNoSquare) fail(ErrorKind::bad_request, "\"" + it.key() + "\" is not a square of the board");
      if (!is_open(players, sq)) fail(ErrorKind::bad_request, it.key() + " is a black square: no piece stands there");
      if (!it->is_string()) fail(ErrorKind::bad_request, "the piece on " + it.key() + " must be a string like \"0D\"");
      entries.emplace_back(sq, it->get<std::string>());
    }
    std::sort(entries.begin(), entries.end());
    for (const auto& [sq, text] : entries) {
      const int owner = text.size() == 2 ? text[0] - '0' : -1;
      const int k = text.size() == 2 ? kind_of_letter(text[1]) : -1;
      if (owner < 0 || owner >= players || k < 0)
        fail(ErrorKind::bad_request, "the piece on " + square_name(sq) + " must be a player digit and one of D L N S G I");
      int& n = next[static_cast<size_t>(owner)];
      if (n >= kArmySize) fail(ErrorKind::bad_request, "an army has at most 41 pieces");
      p.pieces[static_cast<size_t>(owner * kArmySize + n++)] =
          Piece{static_cast<int16_t>(sq), static_cast<uint8_t>(owner), static_cast<uint8_t>(k)};
    }
  }
  rules::recount(p);
  for (int q = 0; q < players; ++q)
    for (int k = 0; k < kKinds; ++k)
      if (p.count[q][k] > kArmy[static_cast<size_t>(k)])
        fail(ErrorKind::bad_request, std::string(player_name(q)) + " has more than " + std::to_string(kArmy[static_cast<size_t>(k)]) +
                                         " " + (k == kLinesman ? std::string("linesmen") : std::string(kind_name(k)) + "s"));

  const json* phase = find_field(state, "phase");
  std::string ph = phase ? (phase->is_string() ? phase->get<std::string>() : "?") : (board && !board->empty() ? "play" : "setup");
  if (ph == "setup") p.phase = Phase::setup;
  else if (ph == "play") p.phase = Phase::play;
  else if (ph == "over") p.phase = Phase::over;
  else fail(ErrorKind::bad_request, "state.phase must be setup, play or over");

  if (find_field(state, "to_move")) p.to_move = static_cast<uint8_t>(int_field(state, "to_move", 0, players - 1));
  if (find_field(state, "ply")) p.ply = static_cast<int32_t>(int_field(state, "ply", 0, 1'000'000));
  if (find_field(state, "action")) p.action = static_cast<uint8_t>(int_field(state, "action", 0, 1));
  if (find_field(state, "blocked_turns"))
    p.blocked_turns = static_cast<int32_t>(int_field(state, "blocked_turns", 0, 1'000'000));
  if (const json* v = find_field(state, "door_action_done"); v && !v->is_null()) {
    if (!v->is_boolean()) fail(ErrorKind::bad_request, "state.door_action_done must be true or false");
    p.door_action_done = v->get<bool>();
  }
  if (const json* v = find_field(state, "scores"); v && !v->is_null()) {
    if (!v->is_array() || static_cast<int>(v->size()) != players)
      fail(ErrorKind::bad_request, "state.scores must list one score per player");
    for (int q = 0; q < players; ++q) {
      const json& x = (*v)[static_cast<size_t>(q)];
      if (!x.is_number_integer() || x.get<long long>() < 0 || x.get<long long>() > 100'000)
        fail(ErrorKind::bad_request, "state.scores must be whole numbers from 0");
      p.scores[static_cast<size_t>(q)] = x.get<int>();
    }
  }
  if (const json* v = find_field(state, "transformed"); v && !v->is_null()) p.transformed = mask_of(*v, players, "transformed");
  if (const json* v = find_field(state, "stalemate_agreed"); v && !v->is_null()) p.agreed = mask_of(*v, players, "stalemate_agreed");
  int acted_sq = kNoSquare;
  if (const json* v = find_field(state, "acted"); v && !v->is_null()) {
    if (!v->is_array() || v->size() > 1 || (v->size() == 1 && !(*v)[0].is_string()))
      fail(ErrorKind::bad_request, "state.acted must be [] or [square]");
    if (v->size() == 1) {
      acted_sq = parse_square((*v)[0].get<std::string>());
      if (acted_sq == kNoSquare || p.at(acted_sq) < 0 || p.piece(p.at(acted_sq)).owner != p.to_move)
        fail(ErrorKind::bad_request, "state.acted must name a square holding a piece of the player to move");
    }
  }

  if (p.phase == Phase::setup) {
    if (p.ply != 0 || p.to_move != 0 || p.action != 0 || acted_sq != kNoSquare)
      fail(ErrorKind::bad_request, "a state in setup has to_move 0, ply 0 and no action taken");
    for (int q = 0; q < players; ++q) {
      int n = 0;
      for (int k = 0; k < kKinds; ++k) n += p.count[q][k];
      if (n == 0) continue;
      if (n != kArmySize) fail(ErrorKind::bad_request, "in setup an army is either not placed or placed whole (41 pieces)");
      for (int id = q * kArmySize; id < (q + 1) * kArmySize; ++id)
        if (!setup_square(players, q, p.piece(id).square))
          fail(ErrorKind::bad_request, std::string(player_name(q)) + "'s setup must stand in its own territory");
      p.ready |= static_cast<uint8_t>(1u << q);
    }
    if (const json* v = find_field(state, "ready"); v && !v->is_null() && mask_of(*v, players, "ready") != p.ready)
      fail(ErrorKind::bad_request, "state.ready must list exactly the armies placed");
    if (p.ready == (1u << players) - 1) fail(ErrorKind::bad_request, "every army is placed: that state is in play");
    if (const json* r = find_field(state, "result"); r && !r->is_null())
      fail(ErrorKind::bad_request, "a game in setup has no result");
    return game;
  }

  p.ready = static_cast<uint8_t>((1u << players) - 1);
  if (p.phase == Phase::play) {
    for (int q = 0; q < players; ++q)
      if (!p.icon_stands(q)) fail(ErrorKind::bad_request, std::string(player_name(q)) + " has no icon: that game is over");
    if (p.ply >= p.max_plies) fail(ErrorKind::bad_request, "ply has reached max_plies: that game is over");
    if (const json* r = find_field(state, "result"); r && !r->is_null())
      fail(ErrorKind::bad_request, "a game in play has no result");
  } else {
    const json* r = find_field(state, "result");
    if (!r || r->is_null()) fail(ErrorKind::bad_request, "a game that is over has a result");
    game->forced_ = Result::from_json(*r);
    for (int w : game->forced_.winners)
      if (w >= players) fail(ErrorKind::bad_request, "result.winners must list players of this game");
    p.end = EndReason::forced;
  }
  if (p.action == 0 && (acted_sq != kNoSquare || p.door_action_done))
    fail(ErrorKind::bad_request, "acted and door_action_done describe a first action: action must be 1");
  if (acted_sq != kNoSquare) {
    p.acted = static_cast<uint8_t>(p.at(acted_sq));
    if (p.door_role(p.acted) && !p.door_action_done)
      fail(ErrorKind::bad_request, "the piece in acted is a door: door_action_done must be true");
  }

  // Sieges: every ring on the board, with the listed count (0 if not listed).
  const json* sieges = find_field(state, "sieges");
  if (sieges && !sieges->is_null() && !sieges->is_object())
    fail(ErrorKind::bad_request, "state.sieges must map icon squares to counts");
  for (int q = 0; q < players; ++q) {
    const int icon_sq = p.icon_square(q);
    if (icon_sq == kNoSquare) continue;
    std::array<uint8_t, 4> ring{};
    bool holds = true;
    for (int d = 0; d < kDiagonals && holds; ++d) {
      const int sq = diagonal(icon_sq, d);
      const int id = sq == kNoSquare ? -1 : p.at(sq);
      holds = id >= 0 && p.piece(id).owner != q && p.door_role(id);
      ring[static_cast<size_t>(d)] = static_cast<uint8_t>(id);
    }
    if (!holds) continue;
    int count = 0;
    if (sieges && sieges->is_object() && sieges->contains(square_name(icon_sq)))
      count = static_cast<int>(int_field(*sieges, square_name(icon_sq), 0, 1));
    const bool moved_this_turn = p.acted != kNoPiece && p.acted == p.icon[static_cast<size_t>(q)];
    p.sieges[static_cast<size_t>(q)] =
        Siege{true, static_cast<uint8_t>(count), ring, moved_this_turn ? p.ply : p.ply - 1, static_cast<int16_t>(icon_sq)};
  }
  if (sieges && sieges->is_object())
    for (auto it = sieges->begin(); it != sieges->end(); ++it) {
      const int sq = parse_square(it.key());
      const int id = sq == kNoSquare ? -1 : p.at(sq);
      if (id < 0 || p.piece(id).kind != kIcon || !p.sieges[p.piece(id).owner].active)
        fail(ErrorKind::bad_request, "state.sieges: " + it.key() + " is not an icon ringed by four hostile door-role pieces");
    }
  p.unread = p.phase == Phase::play;
  return game;
}

}  // namespace tabula::truth
