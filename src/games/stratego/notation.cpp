// Stratego's notation (shared/spec/notation.md): squares, move strings, options, the state and the
// observations (what each seat and the spectators may see), and the reasons a written move is refused.
#include "games/stratego/stratego.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace tabula::stratego {

int parse_square(std::string_view s) {
  if (s.size() < 2 || s.size() > 3 || s[0] < 'a' || s[0] > 'j') return kNoSquare;
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

std::string_view kind_name(int k) {
  static constexpr std::string_view names[kKinds] = {"Flag",       "Spy",     "Scout", "Miner",   "Sergeant", "Lieutenant",
                                                     "Captain",    "Major",   "Colonel", "General", "Marshal", "Bomb"};
  return names[static_cast<size_t>(k)];
}

std::string_view outcome_name(Outcome o) {
  switch (o) {
    case Outcome::attacker_won: return "attacker-won";
    case Outcome::attacker_lost: return "attacker-lost";
    case Outcome::both_lost: return "both-lost";
  }
  return "both-lost";
}

Options Options::from_json(const json& options) {
  Options o;
  if (options.is_null()) return o;
  if (!options.is_object()) fail(ErrorKind::bad_request, "options must be an object");
  for (auto it = options.begin(); it != options.end(); ++it) {
    const std::string& k = it.key();
    if (k == "memory_aid" || k == "repetition_rule") {
      if (!it->is_boolean()) fail(ErrorKind::bad_request, "option \"" + k + "\" must be true or false");
      (k == "memory_aid" ? o.memory_aid : o.repetition_rule) = it->get<bool>();
    } else if (k == "two_square_limit") {
      o.two_square_limit = static_cast<int>(int_field(options, "two_square_limit", 1, 100));
    } else if (k == "max_plies") {
      o.max_plies = static_cast<int>(int_field(options, "max_plies", 1, 1'000'000));
    } else {
      fail(ErrorKind::bad_request, "unknown option \"" + k +
                                       "\": stratego's options are memory_aid, two_square_limit, "
                                       "repetition_rule, max_plies");
    }
  }
  return o;
}

json Options::to_json() const {
  return json{{"memory_aid", memory_aid},
              {"two_square_limit", two_square_limit},
              {"repetition_rule", repetition_rule},
              {"max_plies", max_plies}};
}

std::string Stratego::move_to_string(Move m) const {
  return square_name(StrategoMove::from(m)) + "-" + square_name(StrategoMove::to(m));
}

// The words never name an enemy piece's identity: the answer goes to the seat that wrote the move.
std::string Stratego::explain_illegal(std::string_view text) const {
  const size_t dash = text.find('-');
  const int from = dash == std::string_view::npos ? kNoSquare : parse_square(text.substr(0, dash));
  const int to = dash == std::string_view::npos ? kNoSquare : parse_square(text.substr(dash + 1));
  if (from == kNoSquare || to == kNoSquare)
    return "\"" + std::string(text) + "\" is not a Stratego move: write <square>-<square>, e.g. b4-b5";
  if (phase_ == Phase::setup) return "no move is legal until both armies are set up";
  if (phase_ == Phase::over) return "the game is over";
  const std::string f = square_name(from), t = square_name(to);
  const int id = piece_at(from);
  if (id < 0) return "there is no piece on " + f;
  if (owner(id) != to_move_) return "the piece on " + f + " is not yours";
  const Piece& pc = piece(id);
  if (!is_movable(pc.kind)) return "a " + std::string(kind_name(pc.kind)) + " never moves";
  if (is_lake(to)) return t + " is a lake: no piece enters or crosses it";
  const int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
  if (df != 0 && dr != 0) return "pieces move only along files and ranks, never diagonally";
  if (df == 0 && dr == 0) return "a move must leave its square";
  const int distance = std::abs(df) + std::abs(dr);
  if (distance > 1 && pc.kind != kScout)
    return "a " + std::string(kind_name(pc.kind)) + " moves one square; only a Scout moves further";
  const int step = df != 0 ? (df > 0 ? 1 : -1) : (dr > 0 ? kFiles : -kFiles);
  for (int sq = from + step; sq != to; sq += step) {
    if (is_lake(sq)) return "a Scout may not cross a lake";
    if (piece_at(sq) >= 0) return "a Scout may not jump: " + square_name(sq) + " is in the way";
  }
  if (piece_at(to) >= 0 && owner(piece_at(to)) == to_move_) return t + " holds one of your own pieces";
  const Shuttle& sh = shuttle_[static_cast<size_t>(to_move_)];
  if (sh.piece == id && sh.a == std::min(from, to) && sh.b == std::max(from, to) && sh.count >= options_.two_square_limit)
    return "two-square limit: this piece has moved between " + f + " and " + t + " on " +
           std::to_string(sh.count) + " turns in a row; move it elsewhere or move another piece";
  return "this move would make a position for the third time (repetition rule): choose another move";
}

namespace {

json sorted(std::vector<std::string> squares) {
  std::sort(squares.begin(), squares.end());
  return json(squares);
}

}  // namespace

json Stratego::state_json() const { return observation_json(kWholeTruth); }

// viewer: a player, kSpectator, or kWholeTruth (state_json). Once over, every viewer sees the state; a game
// that ended before play began (a resignation during setup) is not shown through here but by the Session,
// which keeps the setup-phase views below for good (docs/rulings.md C1), as it does for any game.
json Stratego::observation_json(Player viewer) const {
  const bool truth = (viewer != 0 && viewer != 1 && viewer != kSpectator) || phase_ == Phase::over;
  const bool marks = truth || options_.memory_aid;
  json board = json::object();
  std::vector<std::string> revealed, moved;
  json captured = json::object({{"0", json::array()}, {"1", json::array()}});
  for (Player p = 0; p < 2; ++p) {
    std::vector<std::string> lost;
    for (int i = 0; i < count_[static_cast<size_t>(p)]; ++i) {
      const Piece& pc = pieces_[static_cast<size_t>(p * kArmySize + i)];
      if (!pc.alive) {
        lost.push_back(std::string(1, kind_letter(pc.kind)));  // lost in a battle: both saw it
        continue;
      }
      // During setup nobody sees another army's placement, spectators none at all.
      if (!truth && phase_ == Phase::setup && viewer != p) continue;
      const bool known = truth || viewer == p || (options_.memory_aid && pc.revealed);
      const std::string sq = square_name(pc.square);
      board[sq] = std::to_string(p) + (known ? kind_letter(pc.kind) : '?');
      if (marks && phase_ != Phase::setup) {
        if (pc.revealed) revealed.push_back(sq);
        if (pc.moved) moved.push_back(sq);
      }
    }
    std::sort(lost.begin(), lost.end());
    captured[std::to_string(p)] = lost;
  }
  json ready = json::array();
  for (Player p = 0; p < 2; ++p)
    if (ready_[static_cast<size_t>(p)]) ready.push_back(p);
  json state = common_state_json(*this, options_.to_json(), std::move(board));
  state["revealed"] = sorted(std::move(revealed));
  state["moved"] = sorted(std::move(moved));
  state["ready"] = std::move(ready);
  state["captured"] = std::move(captured);
  state["draw_offer"] = phase_ == Phase::play ? draw_offer_.to_json() : json(nullptr);
  return state;
}

namespace {

std::vector<int> square_list(const json& state, const char* field) {
  std::vector<int> out;
  const json* l = find_field(state, field);
  if (!l) return out;
  if (!l->is_array()) fail(ErrorKind::bad_request, std::string("state.") + field + " must be a list of squares");
  for (const json& s : *l) {
    const int sq = s.is_string() ? parse_square(s.get<std::string>()) : kNoSquare;
    if (sq == kNoSquare) fail(ErrorKind::bad_request, std::string("state.") + field + " must be a list of squares");
    out.push_back(sq);
  }
  return out;
}

}  // namespace

std::unique_ptr<Stratego> Stratego::from_state(const json& state) {
  if (!state.is_object()) fail(ErrorKind::bad_request, "state must be an object");
  require_known_fields(state, {"game", "options", "phase", "to_move", "ply", "board", "result", "revealed", "moved",
                               "ready", "captured", "draw_offer"},
                       "state field");
  if (const json* g = find_field(state, "game"); g && *g != "stratego")
    fail(ErrorKind::bad_request, "state.game must be \"stratego\"");
  const json* o = find_field(state, "options");
  auto g = std::make_unique<Stratego>(Options::from_json(o ? *o : json(nullptr)));

  // The pieces, by player and square (ids follow square order, as a setup's do).
  std::array<std::array<int, kSquares>, 2> kind_at;
  for (auto& k : kind_at) k.fill(-1);
  std::array<std::array<int, kKinds>, 2> counts{};
  bool any = false;
  if (const json* b = find_field(state, "board")) {
    if (!b->is_object()) fail(ErrorKind::bad_request, "state.board must map squares to pieces");
    for (auto it = b->begin(); it != b->end(); ++it) {
      const int sq = parse_square(it.key());
      if (sq == kNoSquare) fail(ErrorKind::bad_request, "state.board: \"" + it.key() + "\" is not a square");
      if (is_lake(sq)) fail(ErrorKind::bad_request, "state.board: " + it.key() + " is a lake");
      const std::string v = it->is_string() ? it->get<std::string>() : std::string();
      const int k = v.size() == 2 ? kind_of_letter(v[1]) : -1;
      if (k < 0 || (v[0] != '0' && v[0] != '1'))
        fail(ErrorKind::bad_request, "state.board: a piece is a player digit and a kind letter, e.g. \"0M\"");
      const size_t p = static_cast<size_t>(v[0] - '0');
      kind_at[p][static_cast<size_t>(sq)] = k;
      ++counts[p][static_cast<size_t>(k)];
      any = true;
    }
  }
  std::array<std::vector<int>, 2> lost;
  if (const json* c = find_field(state, "captured")) {
    if (!c->is_object()) fail(ErrorKind::bad_request, "state.captured must be {\"0\": [kinds], \"1\": [kinds]}");
    for (auto it = c->begin(); it != c->end(); ++it) {
      if (it.key() != "0" && it.key() != "1") fail(ErrorKind::bad_request, "state.captured is keyed by \"0\" and \"1\"");
      if (!it->is_array()) fail(ErrorKind::bad_request, "state.captured must list kind letters");
      const size_t p = static_cast<size_t>(it.key()[0] - '0');
      for (const json& l : *it) {
        const std::string v = l.is_string() ? l.get<std::string>() : std::string();
        const int k = v.size() == 1 ? kind_of_letter(v[0]) : -1;
        if (k < 0) fail(ErrorKind::bad_request, "state.captured must list kind letters");
        lost[p].push_back(k);
        ++counts[p][static_cast<size_t>(k)];
      }
    }
  }
  for (size_t p = 0; p < 2; ++p)
    for (int k = 0; k < kKinds; ++k)
      if (counts[p][static_cast<size_t>(k)] > kArmy[static_cast<size_t>(k)])
        fail(ErrorKind::bad_request, std::string(p ? "Blue" : "Red") + " has more than " +
                                         std::to_string(kArmy[static_cast<size_t>(k)]) + " " +
                                         std::string(kind_name(k)) + " on the board and captured together");

  std::string phase = any ? "play" : "setup";
  if (const json* ph = find_field(state, "phase")) {
    if (!ph->is_string() || (*ph != "setup" && *ph != "play" && *ph != "over"))
      fail(ErrorKind::bad_request, "state.phase must be setup, play or over");
    phase = ph->get<std::string>();
  }
  std::optional<Result> given;
  if (const json* r = find_field(state, "result"); r && !r->is_null()) given = Result::from_json(*r);
  if ((phase == "over") != given.has_value())
    fail(ErrorKind::bad_request, "state.phase is \"over\" exactly when state.result is set");
  const DrawOffer offer = DrawOffer::from_state(state);
  if (offer.by() >= 0 && phase != "play") fail(ErrorKind::bad_request, "state.draw_offer: a draw is offered only in play");

  if (phase == "setup") {
    // Each army is either not placed or a complete setup on its home ranks (placed through setup()).
    for (Player p = 0; p < 2; ++p) {
      json placement = json::object();
      for (int sq = 0; sq < kSquares; ++sq)
        if (const int k = kind_at[static_cast<size_t>(p)][static_cast<size_t>(sq)]; k >= 0)
          placement[square_name(sq)] = std::string(1, kind_letter(k));
      if (!lost[static_cast<size_t>(p)].empty()) fail(ErrorKind::bad_request, "nothing is captured during setup");
      if (!placement.empty()) g->setup(p, placement, nullptr);
    }
    if (g->phase_ != Phase::setup) fail(ErrorKind::bad_request, "both armies are placed: the phase is play");
    return g;
  }

  for (Player p = 0; p < 2; ++p) {
    for (int sq = 0; sq < kSquares; ++sq)
      if (const int k = kind_at[static_cast<size_t>(p)][static_cast<size_t>(sq)]; k >= 0) g->add_piece(p, k, sq, true);
    for (int k : lost[static_cast<size_t>(p)]) g->add_piece(p, k, 0, false);
    g->ready_[static_cast<size_t>(p)] = true;
  }
  for (int sq : square_list(state, "revealed")) {
    if (g->piece_at(sq) < 0) fail(ErrorKind::bad_request, "state.revealed: no piece on " + square_name(sq));
    g->pieces_[static_cast<size_t>(g->piece_at(sq))].revealed = true;
  }
  for (int sq : square_list(state, "moved")) {
    if (g->piece_at(sq) < 0) fail(ErrorKind::bad_request, "state.moved: no piece on " + square_name(sq));
    Piece& pc = g->pieces_[static_cast<size_t>(g->piece_at(sq))];
    if (!is_movable(pc.kind)) fail(ErrorKind::bad_request, "state.moved: a Bomb or the Flag never moves");
    pc.moved = true;
  }
  if (find_field(state, "ply")) g->ply_ = static_cast<int>(int_field(state, "ply", 0, 1'000'000'000));
  if (find_field(state, "to_move")) g->set_to_move(static_cast<Player>(int_field(state, "to_move", 0, 1)));
  if (given) {
    g->phase_ = Phase::play;
    g->end_with(*given, nullptr);
    return g;
  }
  // The given position is where play begins (engine-protocol.md): its history starts here.
  g->begin_play();
  if (g->phase_ == Phase::play) g->draw_offer_ = offer;
  return g;
}

}  // namespace tabula::stratego
