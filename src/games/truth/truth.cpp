// The Game of Truth as a Game: setups, actions with undo, offers (the scored-stalemate agreement), ends.
// The rules themselves are in rules.cpp, the notation and JSON in notation.cpp.
#include "games/truth/truth.h"
#include "games/truth/tactics.h"

#include "games/truth/moves.h"

namespace tabula::truth {

std::string territory_words(int players, int p) {
  if (players == 2) return p == 0 ? "its own territory (ranks 1 to 9)" : "its own territory (ranks 10 to 18)";
  const bool west = p == 0 || p == 3, south = p == 0 || p == 2;
  return std::string("its own quadrant (files ") + (west ? "a to h" : "j to q") + ", ranks " +
         (south ? "1 to 9" : "10 to 18") + ")";
}

namespace {
std::string kind_plural(int k) { return k == kLinesman ? "linesmen" : std::string(kind_name(k)) + "s"; }
}  // namespace

Truth::Truth(const Options& options) : options_(options) {
  pos_.players = static_cast<uint8_t>(options.players);
  pos_.max_plies = options.max_plies;
  undo_.reserve(64);  // the search's depth: apply never allocates within it
}

const Result* Truth::result() const {
  if (pos_.phase != Phase::over) return nullptr;
  if (pos_.end == EndReason::forced) return &forced_;
  result_cache_ = rules::result_of(pos_);
  return &result_cache_;
}

void Truth::apply(Move m, EventLog* events) {
  undo_.push_back(pos_);
  rules::play(pos_, m, events);
}

void Truth::undo() {
  pos_ = undo_.back();
  undo_.pop_back();
}

void Truth::skip_turn() {
  undo_.push_back(pos_);
  pos_.to_move = static_cast<uint8_t>((pos_.to_move + 1) % pos_.players);
  pos_.acted = kNoPiece;
  pos_.door_action_done = false;
}

// Whether the action takes an enemy piece, read from the board without playing it (tactics.h): quiescence
// asks this of every action at every horizon node, where playing each on a copy made searches crawl.
bool Truth::is_capture(Move m) const {
  if (TruthMove::is_pass(m)) return false;
  return tactics::takes_piece(pos_, m);
}

int Truth::order_hint(Move m) const { return tactics::take_value(pos_, m); }

void Truth::setup(Player p, const json& placement, EventLog* events) {
  if (pos_.phase != Phase::setup) fail(ErrorKind::conflict, "every army is set up: setups can no longer change");
  if (p < 0 || p >= pos_.players) fail(ErrorKind::bad_request, "no such player");
  if (!placement.is_object())
    fail(ErrorKind::bad_request, "a placement maps squares to kinds, e.g. {\"b1\":\"D\",…}");
  std::array<int, kKinds> counts{};
  std::array<int, kSquares> kind_at;
  kind_at.fill(-1);
  for (auto it = placement.begin(); it != placement.end(); ++it) {
    const int sq = parse_square(it.key());
    if (sq == kNoSquare) fail(ErrorKind::illegal, "\"" + it.key() + "\" is not a square of the board");
    if (!is_open(pos_.players, sq)) fail(ErrorKind::illegal, it.key() + " is a black square: no piece stands there");
    if (!setup_square(pos_.players, p, sq))
      fail(ErrorKind::illegal, std::string(player_name(p)) + " sets up in " + territory_words(pos_.players, p) +
                                   ", not on " + it.key());
    const std::string letter = it->is_string() ? it->get<std::string>() : std::string();
    const int k = letter.size() == 1 ? kind_of_letter(letter[0]) : -1;
    if (k < 0) fail(ErrorKind::illegal, "the piece on " + it.key() + " must be one of the letters D L N S G I (no player digit)");
    kind_at[static_cast<size_t>(sq)] = k;
    ++counts[static_cast<size_t>(k)];
  }
  for (int k = 0; k < kKinds; ++k)
    if (counts[static_cast<size_t>(k)] != kArmy[static_cast<size_t>(k)])
      fail(ErrorKind::illegal, "an army has " + std::to_string(kArmy[static_cast<size_t>(k)]) + " " +
                                   (kArmy[static_cast<size_t>(k)] > 1 ? kind_plural(k) : std::string(kind_name(k))) +
                                   ", this one " + std::to_string(counts[static_cast<size_t>(k)]));
  // A replaced setup takes the old army off first; ids are given in square order.
  for (int id = p * kArmySize; id < (p + 1) * kArmySize; ++id) pos_.pieces[static_cast<size_t>(id)] = Piece{};
  int id = p * kArmySize;
  for (int sq = 0; sq < kSquares; ++sq)
    if (kind_at[static_cast<size_t>(sq)] >= 0)
      pos_.pieces[static_cast<size_t>(id++)] =
          Piece{static_cast<int16_t>(sq), static_cast<uint8_t>(p), static_cast<uint8_t>(kind_at[static_cast<size_t>(sq)])};
  rules::recount(pos_);
  pos_.ready |= static_cast<uint8_t>(1u << p);
  undo_.clear();
  if (events) events->push_back(Event{json{{"type", "setup"}, {"player", p}}, {}});
  if (pos_.ready == (1u << pos_.players) - 1) rules::begin_play(pos_, events);
}

json Truth::arrangement(Player p, std::string_view name, uint64_t seed) const {
  if (p < 0 || p >= pos_.players) fail(ErrorKind::bad_request, "no such player");
  if (name == "suggested") return suggested_arrangement(pos_.players, p);
  if (name == "random") return random_arrangement(pos_.players, p, seed);
  fail(ErrorKind::bad_request, "unknown arrangement \"" + std::string(name) + "\": suggested or random");
}

json Truth::ai_arrangement(Player p, uint64_t seed) const {
  const json suggested = arrangement(p, "suggested", 0);
  // Four players: the suggested arrangement as it is. Its mirror image within the quadrant would turn the
  // guardians and lanterns toward file i, where a guardian of the next quadrant takes them on its first move.
  if (seed % 2 == 0 || pos_.players == 4) return suggested;
  // The mirror image across file i keeps every square's colour (file f and 16 - f have the same parity).
  json mirrored = json::object();
  for (auto it = suggested.begin(); it != suggested.end(); ++it) {
    const int sq = parse_square(it.key());
    mirrored[square_name(square_of(kFiles - 1 - file_of(sq), rank_of(sq)))] = *it;
  }
  return mirrored;
}

const std::vector<std::string>& Truth::named_arrangements() {
  static const std::vector<std::string> names = {"suggested"};
  return names;
}

void Truth::offer(Player p, std::string_view what, EventLog* events) {
  if (what != "stalemate" && what != "withdraw")
    fail(ErrorKind::conflict, "The Game of Truth has no \"" + std::string(what) +
                                  "\" offers: stalemate (agree to the scored stalemate), withdraw, or resign");
  if (pos_.phase != Phase::play) fail(ErrorKind::conflict, "the scored stalemate can be agreed only during play");
  if (!pos_.icon_stands(p)) fail(ErrorKind::conflict, "only a player whose icon stands takes part in the agreement");
  const uint8_t bit = static_cast<uint8_t>(1u << p);
  if (what == "stalemate") {
    if (pos_.agreed & bit) fail(ErrorKind::conflict, "you already agree to the scored stalemate");
    pos_.agreed |= bit;
  } else {
    if (!(pos_.agreed & bit)) fail(ErrorKind::conflict, "you have not agreed to the scored stalemate");
    pos_.agreed &= static_cast<uint8_t>(~bit);
  }
  undo_.clear();
  if (events) events->push_back(Event{json{{"type", "offer"}, {"player", p}, {"what", std::string(what)}}, {}});
}

// A stalemate agreement stands for `player` to answer when another player agrees and it does not.
bool Truth::offer_stands(std::string_view what, Player player) const {
  if (what != "stalemate" || pos_.phase != Phase::play || player < 0 || player >= pos_.players) return false;
  const uint8_t bit = static_cast<uint8_t>(1u << player);
  return (pos_.agreed & ~bit) != 0 && !(pos_.agreed & bit) && pos_.icon_stands(player);
}

void Truth::end_with(const Result& r, EventLog* events) {
  forced_ = r;
  pos_.phase = Phase::over;
  pos_.end = EndReason::forced;
  pos_.action = 0;
  pos_.acted = kNoPiece;
  pos_.door_action_done = false;
  undo_.clear();
  if (events) events->push_back(over_event(r));
}

}  // namespace tabula::truth
