// The AI's evaluation of a Truth position, for the player to move, in hundredths of a door. It runs at every
// leaf of the search: one pass over the pieces and a few short walks along diagonals, no allocation.
//
// Each army is scored on its own and the other armies' scores are subtracted (averaged over them with four
// players). An army's score:
// - material: the points it has already won, and its living pieces at their score values (a door or lantern
//   100, a linesman or sentry 500, a guardian 2,000, a lantern-guardian 4,000; the icon nothing, since its
//   loss ends the game);
// - icon safety: empty squares beside its icon that an enemy lantern reaches in one slide (a burn next
//   action), every empty square beside it (an opening), its own pieces beside it (they fill the squares a
//   lantern would need; a guardian there is a defender), hostile door-role pieces beside it (a ring), a
//   standing siege and its count;
// - attack: its lanterns' distance to the enemy icon, its linesmen's to the nearest enemy lantern, its ordinary
//   guardians' to the nearest enemy piece their contact destroys (a guardian is tethered to its icon, so this
//   is what brings the icon forward: without it both icons withdrew to the back edge, where they have two
//   neighbours to cover, and the guardians never reached anything; with two players only);
// - threats: the most its guardians can take with one move (enemy doors, lanterns, linesmen and sentries
//   beside a square they reach), its linesmen by jumping an enemy lantern or its sentries by one leap (the
//   enemy pieces on the lattice points crossed), worth more to the player to move; with two players and its
//   whole turn ahead, also what a guardian takes a turn later once its icon steps in this one (the tether
//   moves with the icon);
//   its doors with three of four hostile lanterns around (and lanterns with three hostile doors);
// - mobility: door-role pieces with a move (without one, no turn can be completed).
// Towards the turn limit (`max_plies`), where the game ends by score, the living pieces count less and less
// and the rivals are weighed more and more by the one with the top score: in the last kLimitRounds rounds
// the evaluation slides to what decides the game there (points won, and the best rival's).
// When the player to move can burn an enemy icon with its next action, or with its turn's two (a door action
// that opens a lantern's line, then the lantern), the position is as good as won.
#include "games/truth/moves.h"
#include "games/truth/tactics.h"
#include "games/truth/truth.h"

#include <algorithm>
#include <limits>

namespace tabula::truth {

namespace {

using tactics::lanterns_reaching;

constexpr std::array<int, kKinds> kMaterial = {100, 100, 500, 500, 2'000, 0};  // the score values, in hundredths
constexpr int kLanternGuardianMaterial = 4'000;
constexpr int kPoint = 100;         // a point already won
constexpr int kBurnNow = 30'000;    // the player to move burns an icon with its next action
constexpr int kBurnInTwo = 25'000;  // … with its turn's two actions: a door opens a lantern's line
// Icon safety.
constexpr int kThreatToMove = 300;  // an empty square beside the icon an enemy lantern reaches, owner to move
constexpr int kThreatLastAction = 6'000;  // the same when the owner has one action left to answer it
constexpr int kThreatsLastAction = 6'000; // each further square then: one action seldom closes two
constexpr int kThreatWaiting = 150; // the same with the enemy to move but unable to slide a lantern now
constexpr int kOpening = 12;        // an empty square beside the icon
constexpr int kShield = 15;         // an own piece beside the icon
constexpr int kDefender = 40;       // an own guardian beside the icon
constexpr int kRingPiece = 60;      // a hostile door-role piece beside the icon
constexpr int kRingOfThree = 200;
constexpr int kSiege = 800;         // a ring closed
constexpr int kSiegeCount = 1'500;  // per count (two destroy the icon)
// Attack and threats.
constexpr int kLanternNear = 6;     // per step closer than 12 to the enemy icon
constexpr int kPreyReach = 8;       // linesmen and guardians are drawn to prey closer than this many steps
constexpr int kLinesmanNear = 8;    // per step closer than kPreyReach to the nearest enemy lantern-role piece
// Per step of an ordinary guardian closer than kPreyReach to its nearest prey, with two players only: with four,
// an icon drawn forward meets three armies, and the four-player games against the first cut went from 15 of 16
// won to 10.
constexpr int kGuardianNear = 10;
constexpr int kGuardianStrikeReach = 5;  // king steps: a guardian's move (four diagonal steps) and its contact
constexpr int kThreatShareToMove = 50;  // percent of the best take that counts for the player to move
constexpr int kThreatShareWaiting = 15;
constexpr int kEnclosureRisk = 40;  // a door-role piece with three of four hostile lanterns around, or the reverse
// The turn limit: over its last kLimitRounds rounds (a round is a turn of every player) the material's weight
// goes down to nothing and the rivals' from their average to the strongest.
constexpr int kLimitRounds = 8;
// Mobility.
constexpr int kMobileDoor = 12;     // per door-role piece with a move, up to kMobileDoorsCounted
constexpr int kMobileDoorsCounted = 8;
constexpr int kNoDoorMove = 1'500;

int value_of(const Position& pos, int id) {
  const Piece& pc = pos.piece(id);
  return pos.lantern_guardian(id) ? kLanternGuardianMaterial : kMaterial[pc.kind];
}

bool hostile(const Position& pos, int id, int q) { return pos.piece(id).owner != q; }

// What guardian `id` takes by landing on `to`: the enemy doors, lanterns, linesmen and sentries beside it, or -1
// when an ordinary guardian would land beside an enemy icon (where it dies).
int contact_take(const Position& pos, int id, int to) {
  const int q = pos.piece(id).owner;
  int gain = 0;
  for (int d = 0; d < kDiagonals; ++d) {
    const int sq = diagonal(to, d);
    if (sq == kNoSquare) continue;
    const uint8_t y = pos.board[static_cast<size_t>(sq)];
    if (y == kNoPiece || y == id || !hostile(pos, y, q)) continue;
    const Piece& py = pos.piece(y);
    if (py.kind == kIcon && !pos.lantern_guardian(id)) return -1;
    if (py.kind <= kSentry) gain += value_of(pos, y);
  }
  return gain;
}

// What one move of guardian `id` can take: the most contact_take gives over the squares it reaches.
int guardian_take(const Position& pos, int id) {
  int best = 0;
  rules::for_each_destination(pos, id, [&](int to) {
    best = std::max(best, contact_take(pos, id, to));
    return false;
  });
  return best;
}

// What the ordinary guardian `id` can take once its icon has stepped: the tether moves with the icon, so
// squares out of range now come within it. A turn is one door and one other piece, so the icon steps in one
// turn (beside its door action) and the guardian strikes in the next; the enemy has one turn between, which
// seldom saves every piece in the wider reach. Without this a player who finished its turn saw its pieces as
// safe from a guardian one icon step away (the search's horizon is the end of its turn, and past it only
// captures are searched), and lost them; a search one action deep that played its captures first beat level 3
// so. The icon does not step beside an enemy lantern-role piece (it would burn).
int guardian_take_after_icon_step(const Position& pos, int id) {
  const Piece& pc = pos.piece(id);
  const uint8_t icon = pos.icon[static_cast<size_t>(pc.owner)];
  if (icon == kNoPiece) return 0;
  int best = 0;
  rules::for_each_destination(pos, icon, [&](int stand) {
    for (int d = 0; d < kDiagonals; ++d) {
      const int sq = diagonal(stand, d);
      if (sq == kNoSquare) continue;
      const uint8_t y = pos.board[static_cast<size_t>(sq)];
      if (y != kNoPiece && hostile(pos, y, pc.owner) && pos.lantern_role(y)) return false;
    }
    rules::for_each_guardian_destination(pos, id, stand, [&](int to) {
      if (to != stand) best = std::max(best, contact_take(pos, id, to));  // the icon stands there now
      return false;
    });
    return false;
  });
  return best;
}

// What a linesman can take by jumping: the most valuable enemy lantern-role piece beside it with an empty
// square behind.
int linesman_take(const Position& pos, int id) {
  const Piece& pc = pos.piece(id);
  int best = 0;
  for (int d = 0; d < kDirections; ++d) {
    const int mid = step(pc.square, d, 1), to = step(pc.square, d, 2);
    if (to == kNoSquare || pos.board[static_cast<size_t>(to)] != kNoPiece || !is_open(pos.players, to)) continue;
    const uint8_t y = pos.board[static_cast<size_t>(mid)];
    if (y != kNoPiece && hostile(pos, y, pc.owner) && pos.lantern_role(y)) best = std::max(best, value_of(pos, y));
  }
  return best;
}

// How far (in king steps, at most `cap`) the nearest enemy piece `is_prey` accepts is from piece `id`: a
// linesman's prey is an enemy lantern-role piece, which it takes by jumping over it; an ordinary guardian's a
// door, lantern, linesman or sentry, which its contact destroys.
template <typename IsPrey>
int nearest_prey(const Position& pos, int id, int cap, IsPrey is_prey) {
  const Piece& pc = pos.piece(id);
  int nearest = cap;
  for (int e = 0; e < pos.players; ++e) {
    if (e == pc.owner) continue;
    for (int y = e * kArmySize; y < (e + 1) * kArmySize; ++y) {
      const Piece& py = pos.piece(y);
      if (py.alive() && is_prey(y)) nearest = std::min(nearest, distance(pc.square, py.square));
    }
  }
  return nearest;
}

// Whether the door-role or lantern-role piece `id` has three of its four neighbours held by hostile pieces of
// the role that encloses it (a fourth would take it).
bool enclosure_risk(const Position& pos, int id) {
  const Piece& pc = pos.piece(id);
  const bool door = pos.door_role(id);
  int around = 0;
  for (int d = 0; d < kDiagonals; ++d) {
    const int sq = diagonal(pc.square, d);
    if (sq == kNoSquare) return false;  // on the edge: never enclosed
    const uint8_t y = pos.board[static_cast<size_t>(sq)];
    if (y != kNoPiece && hostile(pos, y, pc.owner) && (door ? pos.lantern_role(y) : pos.door_role(y))) ++around;
  }
  return around == 3;
}

// `to_move`: q is the player to move; it then has 2 - pos.action actions left in its turn. The living pieces
// count `material_per_mille` thousandths of their values (less near the turn limit).
int side_value(const Position& pos, int q, bool to_move, int material_per_mille) {
  const uint8_t hostile_armies = static_cast<uint8_t>(((1u << pos.players) - 1) & ~(1u << q));
  int v = pos.scores[static_cast<size_t>(q)] * kPoint;

  // The enemy icons, for the lanterns' approach (each lantern counts its nearest).
  std::array<int, kMaxPlayers> targets{};
  int n_targets = 0;
  for (int e = 0; e < pos.players; ++e)
    if (e != q && pos.icon_stands(e)) targets[static_cast<size_t>(n_targets++)] = pos.icon_square(e);

  int mobile_doors = 0, door_roles = 0, take = 0, material = 0;
  for (int id = q * kArmySize; id < (q + 1) * kArmySize; ++id) {
    const Piece& pc = pos.piece(id);
    if (!pc.alive()) continue;
    material += value_of(pos, id);
    if (pos.door_role(id)) {
      ++door_roles;
      for (int d = 0; d < kDiagonals; ++d) {
        const int sq = diagonal(pc.square, d);
        if (sq != kNoSquare && pos.board[static_cast<size_t>(sq)] == kNoPiece) {
          ++mobile_doors;
          break;
        }
      }
    }
    if ((pos.door_role(id) || pos.lantern_role(id)) && enclosure_risk(pos, id)) v -= kEnclosureRisk;
    if (pos.lantern_role(id) && n_targets > 0) {
      int nearest = 12;
      for (int t = 0; t < n_targets; ++t) nearest = std::min(nearest, distance(pc.square, targets[static_cast<size_t>(t)]));
      v += (12 - nearest) * kLanternNear;
    }
    if (pc.kind == kGuardian) {
      take = std::max(take, guardian_take(pos, id));
      if (pos.players == 2 && !pos.lantern_guardian(id)) {
        const auto contact_destroys = [&](int y) { return pos.piece(y).kind <= kSentry; };
        const int nearest = nearest_prey(pos, id, kPreyReach, contact_destroys);
        v += (kPreyReach - nearest) * kGuardianNear;
        // With its whole turn ahead, its icon may step in it (prey within four diagonal steps and one
        // contact step of the guardian, at most, for the guardian's move in the turn after).
        if (to_move && pos.action == 0 && nearest <= kGuardianStrikeReach)
          take = std::max(take, guardian_take_after_icon_step(pos, id));
      }
    } else if (pc.kind == kLinesman) {
      take = std::max(take, linesman_take(pos, id));
      const auto jumpable = [&](int y) { return pos.lantern_role(y); };
      v += (kPreyReach - nearest_prey(pos, id, kPreyReach, jumpable)) * kLinesmanNear;
    }
  }
  v += material_per_mille == 1000 ? material : material * material_per_mille / 1000;
  take = std::max(take, tactics::best_sentry_take(pos, q));
  v += std::min(mobile_doors, kMobileDoorsCounted) * kMobileDoor;
  if (mobile_doors == 0 && door_roles > 0) v -= kNoDoorMove;
  v += take * (to_move ? kThreatShareToMove : kThreatShareWaiting) / 100;

  const int icon = pos.icon_square(q);
  if (icon == kNoSquare) return v;
  int ring = 0, threatened = 0;
  for (int d = 0; d < kDiagonals; ++d) {
    const int sq = diagonal(icon, d);
    if (sq == kNoSquare) continue;  // the edge: nothing burns or rings from there
    const uint8_t y = pos.board[static_cast<size_t>(sq)];
    if (y != kNoPiece) {
      if (!hostile(pos, y, q)) v += pos.defender(y) ? kDefender : kShield;
      else if (pos.door_role(y)) ++ring;
      continue;
    }
    v -= kOpening;
    uint8_t first;
    if (lanterns_reaching(pos, sq, hostile_armies, kNoPiece, first) > 0) ++threatened;
  }
  if (!to_move) v -= threatened * kThreatWaiting;
  else if (pos.action == 0) v -= threatened * kThreatToMove;
  else if (threatened > 0) v -= kThreatLastAction + (threatened - 1) * kThreatsLastAction;
  v -= ring * kRingPiece + (ring == 3 ? kRingOfThree : 0);
  const Siege& s = pos.sieges[static_cast<size_t>(q)];
  if (s.active) v -= kSiege + s.count * kSiegeCount;
  return v;
}

}  // namespace

int Truth::evaluate() const { return evaluate_for(pos_.to_move); }

// For `who`: its army's score less the others' (their average with four players; towards the turn limit, more
// and more the strongest's). A burn the player to move
// can make with its next action decides the game: it is won for the mover; for anyone else it is lost when
// it is their icon that burns and, with four players, won (shared) when it is another's, since the mover
// wins too by burning it.
int Truth::evaluate_for(Player who) const {
  const Position& p = pos_;
  // How far into the last rounds before the turn limit: 1000 before them, 0 at the limit.
  const int limit_span = kLimitRounds * p.players;
  const int turns_left = std::max(0, p.max_plies - p.ply);
  const int early = turns_left >= limit_span ? 1000 : turns_left * 1000 / limit_span;
  // Each rival's share divided on its own (not their sum): before the last rounds the value is exactly what it
  // was before the turn limit counted, to the hundredth, so the search's choices there are unchanged.
  int own = 0, rivals = 0, strongest = std::numeric_limits<int>::min();
  for (int q = 0; q < p.players; ++q) {
    const int v = side_value(p, q, q == p.to_move, early);
    if (q == who) {
      own = v;
    } else {
      rivals += v / (p.players - 1);
      strongest = std::max(strongest, v);
    }
  }
  int total = own - (early == 1000 ? rivals : (rivals * early + strongest * (1000 - early)) / 1000);
  if (const uint8_t burnable = tactics::burnable_icons(p)) {
    if (who == p.to_move) total += kBurnNow;
    else total += (burnable >> who) & 1 ? -kBurnNow : kBurnNow;
  } else if (const uint8_t in_two = tactics::burnable_in_two(p)) {
    if (who == p.to_move) total += kBurnInTwo;
    else total += (in_two >> who) & 1 ? -kBurnInTwo : kBurnInTwo;
  }
  return total;
}

}  // namespace tabula::truth
