// FACET's fog of war (shared/spec/rulings.md FACET, Fog): what each player sees at the end of every ply, what
// it remembers (terrain as last seen, ghosts of enemy stones where it last saw them), how a move chosen on
// that view is resolved on the true board (bumps), each viewer's share of the events, the observation, and
// the worlds the AI searches, drawn from a player's memory alone.
//
// Hidden information is a security boundary: everything a player receives under fog is made here from
// fog_[player] and the squares it sees, never from the rest of the board.
#include "games/facet/facet.h"
#include "games/facet/targets.h"

#include <algorithm>
#include <cmath>

namespace tabula::facet {

SquareSet Facet::sight_of(Player p) const {
  SquareSet sight = 0;
  for (int sq = 0; sq < kSquares; ++sq) {
    const uint8_t s = board_[static_cast<size_t>(sq)];
    if (s != kEmpty && owner_of(s) == p)
      sight |= is_monarch(s) ? kSight.monarch[static_cast<size_t>(sq)] : kSight.agent[static_cast<size_t>(sq)];
  }
  for (int sq : thrones_) sight |= square_bit(sq);  // Thrones and their occupants are always seen
  return sight;
}

namespace {
int lowest_square(SquareSet set) {
  const auto lo = static_cast<uint64_t>(set);
  return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(static_cast<uint64_t>(set >> 64));
}
}  // namespace

void Facet::look(Player p, SquareSet sight) {
  FogView& v = fog_[static_cast<size_t>(p)];
  v.sight = sight;
  for (SquareSet rest = sight & ((SquareSet{1} << kSquares) - 1); rest != 0; rest &= rest - 1) {
    const int sq = lowest_square(rest);
    const uint8_t s = board_[static_cast<size_t>(sq)];
    v.seen[static_cast<size_t>(sq)] = s != kEmpty && owner_of(s) != p ? s : kEmpty;
    v.terrain[static_cast<size_t>(sq)] = terrain_[static_cast<size_t>(sq)];
    v.seen_ply[static_cast<size_t>(sq)] = static_cast<uint16_t>(ply_);
  }
}

void Facet::start_fog() {
  fog_undo_.clear();
  for (Player p = 0; p < 2; ++p) {
    look(p, ~SquareSet{0});  // the whole board is seen at the start: stones out of sight begin as ghosts
    fog_[static_cast<size_t>(p)].sight = sight_of(p);
  }
}

int Facet::stopped_square(int from, int to) const {
  const uint8_t s = board_[static_cast<size_t>(from)];
  const int tile = terrain_[static_cast<size_t>(from)];
  // Steps and Gate leaps land where they aim (capturing whatever is there); only slides can be cut short.
  if (is_monarch(s) || tile == kField || tile == kGate || chebyshev(from, to) <= 1) return to;
  const int sf = (file_of(to) > file_of(from)) - (file_of(to) < file_of(from));
  const int sr = (rank_of(to) > rank_of(from)) - (rank_of(to) < rank_of(from));
  const int step = sf + kFiles * sr;
  // The view the move was chosen on had every own stone and every seen enemy, so a stone in the path is an
  // enemy the mover could not see.
  for (int sq = from + step; sq != to; sq += step)
    if (board_[static_cast<size_t>(sq)] != kEmpty) return sq;
  return to;
}

void Facet::see_after_ply(Player mover, int from, int to, bool took) {
  const Player victim = 1 - mover;
  const SquareSet victim_before = fog_[static_cast<size_t>(victim)].sight;
  look(mover, sight_of(mover));
  // The mover knows the tile it left decayed, wherever its stone now stands.
  fog_[static_cast<size_t>(mover)].terrain[static_cast<size_t>(from)] = terrain_[static_cast<size_t>(from)];
  SquareSet sight = sight_of(victim);
  if (took) {
    // A player sees where it lost a stone, and where the taker came from if it saw that square before.
    sight |= square_bit(to);
    if (contains(victim_before, from)) sight |= square_bit(from);
  }
  // The victim saw a stone leave `from` and not arrive anywhere it sees: the stone is out of sight, one move
  // from `from` (its move event showed `from` alone).
  FogView& v = fog_[static_cast<size_t>(victim)];
  if (contains(victim_before, from) && !contains(sight, to)) {
    v.departed[static_cast<size_t>(from)] = board_[static_cast<size_t>(to)];
    v.departed_ply[static_cast<size_t>(from)] = static_cast<uint16_t>(ply_);
    v.departed_tile[static_cast<size_t>(from)] = v.terrain[static_cast<size_t>(from)];  // not yet looked again
  }
  look(victim, sight);
}

void Facet::conceal(EventLog& events, size_t first, Player mover, int from, int to, SquareSet before) const {
  const Player other = 1 - mover;
  const bool throne_from = start_terrain_[static_cast<size_t>(from)] == kThrone;
  const bool throne_to = start_terrain_[static_cast<size_t>(to)] == kThrone;
  for (size_t i = first; i < events.size(); ++i) {
    Event& e = events[i];
    const std::string type = e.full.at("type");
    json mine = e.full, theirs = nullptr, spectators = nullptr;
    if (type == "move") {
      // The other player: `from` if it saw that square before the ply, `to` if it sees it after.
      json seen{{"type", "move"}, {"player", mover}};
      if (contains(before, from)) seen["from"] = square_name(from);
      if (sees(other, to)) seen["to"] = square_name(to);
      if (seen.size() > 2) theirs = std::move(seen);
      // Spectators see the Thrones only.
      json public_part{{"type", "move"}, {"player", mover}};
      if (throne_from) public_part["from"] = square_name(from);
      if (throne_to) public_part["to"] = square_name(to);
      if (public_part.size() > 2) spectators = std::move(public_part);
    } else if (type == "capture") {
      theirs = e.full;  // the victim sees where it lost a stone
      if (throne_to) spectators = e.full;
    } else if (type == "decay") {
      if (sees(other, from)) theirs = e.full;  // Thrones never decay: spectators never see one
    } else {
      continue;  // offers and the end are public
    }
    e.views.assign(3, json(nullptr));
    e.views[static_cast<size_t>(mover)] = std::move(mine);
    e.views[static_cast<size_t>(other)] = std::move(theirs);
    e.views[2] = std::move(spectators);
  }
}

uint64_t Facet::sight_key() const {
  const SquareSet s = fog_[to_move_].sight;
  uint64_t x = static_cast<uint64_t>(s) * 0x9E3779B97F4A7C15ULL ^ (static_cast<uint64_t>(s >> 64) + 0x632BE59BD9B4E019ULL);
  x ^= x >> 31;
  x *= 0xC2B2AE3D27D4EB4FULL;
  return x ^ (x >> 29);
}

json Facet::fog_observation(Player viewer) const {
  json board = json::object(), terrain = json::object(), ghosts = json::object();
  std::vector<std::string> visible;
  auto stone_name = [](uint8_t s) { return std::to_string(owner_of(s)) + (is_monarch(s) ? "M" : "A"); };
  if (viewer == kSpectator) {
    // Spectators: the starting layout, the Thrones and their occupants (rulings.md).
    for (int sq = 0; sq < kSquares; ++sq)
      if (start_terrain_[static_cast<size_t>(sq)] != kField)
        terrain[square_name(sq)] = std::string(1, tile_letter(start_terrain_[static_cast<size_t>(sq)]));
    for (int sq : thrones_) {
      visible.push_back(square_name(sq));
      if (board_[static_cast<size_t>(sq)] != kEmpty) board[square_name(sq)] = stone_name(board_[static_cast<size_t>(sq)]);
    }
  } else {
    const FogView& v = fog_[static_cast<size_t>(viewer)];
    for (int sq = 0; sq < kSquares; ++sq) {
      const size_t i = static_cast<size_t>(sq);
      if (v.terrain[i] != kField) terrain[square_name(sq)] = std::string(1, tile_letter(v.terrain[i]));
      if (contains(v.sight, sq)) {
        visible.push_back(square_name(sq));
        if (board_[i] != kEmpty) board[square_name(sq)] = stone_name(board_[i]);
      } else if (v.seen[i] != kEmpty) {
        ghosts[square_name(sq)] = stone_name(v.seen[i]);
      }
    }
  }
  std::sort(visible.begin(), visible.end());
  json obs = common_state_json(*this, options_.to_json(), std::move(board));
  obs["terrain"] = std::move(terrain);
  obs["badges"] = json::object();  // momentum is never combined with fog
  obs["coronation"] = coronation_.player < 0 ? json(nullptr) : json{{"player", coronation_.player}, {"plies", coronation_.plies}};
  obs["draw_offer"] = phase_ == Phase::play ? draw_offer_.to_json() : json(nullptr);
  obs["visible"] = visible;
  obs["ghosts"] = std::move(ghosts);
  return obs;
}

// ---------------------------------------------------------------------------------------------------------
// The AI's worlds under fog

namespace {

// A square picked from `pool` with weight `weight(sq)`, or kNoSquare when every weight is 0.
template <class W>
int pick(const std::vector<int>& pool, Rng& rng, W&& weight) {
  uint64_t total = 0;
  for (int sq : pool) total += weight(sq);
  if (total == 0) return kNoSquare;
  uint64_t r = rng.below(total);
  for (int sq : pool) {
    const uint64_t w = weight(sq);
    if (r < w) return sq;
    r -= w;
  }
  return kNoSquare;
}

}  // namespace

namespace {
// A departure older than this many plies says little of where the stone is now.
constexpr int kDepartureMemory = 6;
// A square out of sight this many plies or more counts as unknown as one never seen.
constexpr int kSeenEmptyPlies = 8;
}  // namespace

std::unique_ptr<Game> Facet::sample_world(Player viewer, Rng& rng) const {
  if (!options_.fog || phase_ != Phase::play || viewer == kSpectator) return clone();
  const size_t me = static_cast<size_t>(viewer);
  const Player enemy = 1 - viewer;
  const FogView& view = fog_[me];

  auto world = std::make_unique<Facet>(*this);
  // Nothing of the truth beyond the viewer's sight survives: the history (which holds taken stones and the
  // other player's memory) goes, and every unseen enemy stone is lifted off and dealt again.
  world->undo_.clear();
  world->fog_undo_.clear();
  world->terrain_ = view.terrain;  // unseen terrain as last seen (a ghost's square is mended below)
  // What the viewer knows of the enemy's numbers: it saw every capture it made, so the agents left are known;
  // the Monarch is on the board while the game is on.
  int agents_hidden = agents_[static_cast<size_t>(enemy)];
  bool monarch_hidden = true;
  std::vector<int> unseen;
  for (int sq = 0; sq < kSquares; ++sq) {
    const size_t i = static_cast<size_t>(sq);
    if (contains(view.sight, sq)) {
      const uint8_t s = board_[i];
      if (s != kEmpty && owner_of(s) == enemy) {
        if (is_monarch(s)) monarch_hidden = false;
        else --agents_hidden;
      }
      continue;
    }
    // Out of sight there are no own stones (they are always seen); enemy stones go.
    world->board_[i] = kEmpty;
    world->badge_[i] = kField;
    unseen.push_back(sq);
  }

  // Deal the hidden stones: a ghost's stone is most likely still there or close by; the rest lean towards
  // the enemy's home ranks, where a stone not seen since the start most likely is.
  const int home_rank = enemy == 0 ? 1 : kRanks;
  auto free_near = [&](int centre, int radius) {
    return [&, centre, radius](int sq) -> uint64_t {
      return world->board_[static_cast<size_t>(sq)] == kEmpty && chebyshev(sq, centre) <= radius ? 1 : 0;
    };
  };
  auto free_homeward = [&](int sq) -> uint64_t {
    if (world->board_[static_cast<size_t>(sq)] != kEmpty) return 0;
    const int d = std::abs(rank_of(sq) - home_rank);
    // A square seen empty k plies ago holds a stone only if one came since: less likely the more recent.
    const int since = std::min(ply_ - view.seen_ply[static_cast<size_t>(sq)], kSeenEmptyPlies);
    return (static_cast<uint64_t>(1) << (d < 8 ? 8 - d : 0)) * static_cast<uint64_t>(1 + since);
  };
  // Whether a ghost's stone is still on its square: the enemy has moved about (plies since the square was in
  // sight) / 2 times since, one stone a move; taken as spread evenly over its stones, this one stayed with chance
  // (1 - 1/stones)^moves. Early on a ghost is almost surely home, late a stone long unseen has likely gone.
  const double enemy_stones = agents_[static_cast<size_t>(enemy)] + 1.0;
  auto stayed = [&](int ghost) {
    const int moves = (ply_ - view.seen_ply[static_cast<size_t>(ghost)] + 1) / 2;
    const double chance = std::pow(1.0 - 1.0 / enemy_stones, moves);
    return rng.below(1 << 16) < static_cast<uint64_t>(chance * (1 << 16));
  };
  auto place = [&](int ghost, uint8_t s) {
    int sq = kNoSquare;
    if (ghost != kNoSquare) {
      sq = stayed(ghost) && world->board_[static_cast<size_t>(ghost)] == kEmpty ? ghost
                                                                                : pick(unseen, rng, free_near(ghost, 2));
    }
    if (sq == kNoSquare) sq = pick(unseen, rng, free_homeward);
    if (sq == kNoSquare) return false;  // no unseen square left (cannot happen with 81 squares and 36 stones)
    world->board_[static_cast<size_t>(sq)] = s;
    return true;
  };
  std::vector<int> agent_ghosts;
  int monarch_ghost = kNoSquare;
  for (int sq : unseen) {
    const uint8_t g = view.seen[static_cast<size_t>(sq)];
    if (g == kEmpty) continue;
    if (is_monarch(g)) monarch_ghost = sq;
    else agent_ghosts.push_back(sq);
  }
  // Stones seen leaving a square for one out of sight, lately: each is on an unseen square its tile there
  // reached (as the viewer remembers the tile), most likely; the newest first.
  std::vector<int> departures;
  for (int sq = 0; sq < kSquares; ++sq) {
    const size_t i = static_cast<size_t>(sq);
    if (view.departed[i] != kEmpty && ply_ - view.departed_ply[i] <= kDepartureMemory) departures.push_back(sq);
  }
  std::sort(departures.begin(), departures.end(), [&](int a, int b) {
    return view.departed_ply[static_cast<size_t>(a)] > view.departed_ply[static_cast<size_t>(b)];
  });
  auto place_departed = [&](int from, uint8_t s) {
    // Where the tile on `from` leads on the world's board as dealt so far (an own stone blocks a slide).
    Stones reach{};
    const uint8_t was = world->board_[static_cast<size_t>(from)];
    world->board_[static_cast<size_t>(from)] = s;
    const int tile = is_monarch(s) ? static_cast<int>(kField) : view.departed_tile[static_cast<size_t>(from)];
    world->for_each_tile_target(world->board_, from, tile, [&](int to, bool) {
      reach[static_cast<size_t>(to)] = 1;
      return false;
    });
    world->board_[static_cast<size_t>(from)] = was;
    int sq = pick(unseen, rng, [&](int t) -> uint64_t {
      return reach[static_cast<size_t>(t)] && world->board_[static_cast<size_t>(t)] == kEmpty ? 1 : 0;
    });
    if (sq == kNoSquare) sq = pick(unseen, rng, free_near(from, 3));
    if (sq == kNoSquare) return place(kNoSquare, s);
    world->board_[static_cast<size_t>(sq)] = s;
    return true;
  };
  for (size_t i = agent_ghosts.size(); i > 1; --i) std::swap(agent_ghosts[i - 1], agent_ghosts[rng.below(i)]);
  if (monarch_hidden) {
    if (monarch_ghost == kNoSquare) {
      for (int sq : departures)
        if (is_monarch(view.departed[static_cast<size_t>(sq)])) {
          place_departed(sq, stone(enemy, true));
          monarch_hidden = false;
          break;
        }
    }
    if (monarch_hidden) place(monarch_ghost, stone(enemy, true));
  }
  // A departure is fresher news than a ghost (which may be stale: its stone may have left unseen), so first.
  for (int sq : departures) {
    if (agents_hidden == 0) break;
    if (!is_monarch(view.departed[static_cast<size_t>(sq)]) && place_departed(sq, stone(enemy, false))) --agents_hidden;
  }
  for (int ghost : agent_ghosts) {
    if (agents_hidden == 0) break;
    if (place(ghost, stone(enemy, false))) --agents_hidden;
  }
  while (agents_hidden > 0 && place(kNoSquare, stone(enemy, false))) --agents_hidden;
  // Under decay a stone spends the tile it leaves: where this world has a ghost's stone gone from its square, the
  // tile there has lost a tier since the seat last saw it (one at least; more if others passed, which nothing
  // shows). Without this the world kept a Tower that the stone seen on it must have spent to be elsewhere.
  if (options_.decay)
    for (int sq : unseen) {
      const size_t i = static_cast<size_t>(sq);
      if (view.seen[i] != kEmpty && world->board_[i] != view.seen[i])
        world->terrain_[i] = static_cast<uint8_t>(decayed(world->terrain_[i]));
    }

  // The world's enemy has just seen its whole board; the viewer keeps its own memory exactly.
  world->look(enemy, ~SquareSet{0});
  world->fog_[static_cast<size_t>(enemy)].sight = world->sight_of(enemy);
  world->fog_[me] = view;
  world->hash_ = world->core_hash();
  return world;
}

}  // namespace tabula::facet
