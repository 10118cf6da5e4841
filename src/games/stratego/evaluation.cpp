// Stratego's evaluation for the AI's search. The search runs on sampled worlds (belief.cpp), where every
// identity is dealt, so this reads the world's pieces as they are there.
//
// Material, with values that depend on the board: the Spy is worth much while the enemy Marshal lives,
// Miners more when few remain and enemy Bombs stand. Then the race to the Flag: how close a player's
// nearest movable piece is to the enemy Flag, against how close the enemy is to its own. In a world the
// Flag sits where that world dealt it, so across worlds this pulls the army towards where Flags are likely.
//
// What a world cannot say, since in it every identity is dealt: what the enemy does not know. A piece not
// yet shown is worth a little more than its rank (the enemy must guess; the Marshal most), so a battle that
// shows a high piece to take a low one costs something, and probing with a low piece gains; and a Marshal
// standing beside enemy pieces that could be the Spy (unshown while the Spy lives) risks its value times the
// chance that one of them is. And what the search is too shallow to see coming: a lone Miner walking up to
// the seat's walled-in Flag, met by a guard beside each of its Bombs, or any piece walking to a side of the
// Flag left open, met by a guard that stops it (flag_shield_charge).
#include "games/stratego/stratego.h"

#include <algorithm>
#include <array>

namespace tabula::stratego {

namespace {

constexpr int kBaseValue[kKinds] = {
    0,    // Flag: its loss ends the game
    60,   // Spy (raised below while the enemy Marshal lives)
    20,   // Scout
    45,   // Miner (raised below when scarce)
    25,   // Sergeant
    40,   // Lieutenant
    60,   // Captain
    100,  // Major
    150,  // Colonel
    250,  // General
    400,  // Marshal
    20,   // Bomb
};

// What being unseen adds to a piece.
constexpr int kHiddenValue[kKinds] = {0, 20, 2, 5, 2, 3, 5, 10, 15, 30, 50, 10};

// The side whose strongest piece outranks every enemy piece can take whatever it finds (but the Spy and Bombs):
// the Marshal is worth more than its rank while it has no equal.
constexpr int kTopPiece = 150;

constexpr int kRaceWeight = 8;       // per square between the nearest movable piece and the enemy Flag
constexpr int kMinerRaceWeight = 4;  // per square between the nearest Miner and the enemy Flag

// Progress: each position the searched line repeats (one seen since the last battle), and each move of the
// searching player's current back-and-forth run past the first, counts against the player the search plays
// for: with nothing to gain elsewhere it tries something new rather than shuffle a piece back and forth.
constexpr int kRepeatPenalty = 25;

// Attacks on unknown pieces by pieces from the Colonel up carry a risk (attack_risk): what the attacker is
// worth with what comes with it (concealment, the Marshal's dominance).
constexpr int kRiskyAttacker = kColonel;
constexpr int kRiskValue[kKinds] = {0, 0, 0, 0, 0, 0, 0, 0, 165, 280, 600, 0};

// The seat's Flag's shield (flag_shield_charge): each Bomb beside the seat's Flag with no piece of the seat beside
// it that beats a Miner is charged this much while an enemy piece that may be a Miner stands within
// kShieldRange steps of the Flag, twice as much within kShieldNear.
constexpr int kShieldCharge = 80;
constexpr int kShieldRange = 6;
constexpr int kShieldNear = 4;
// An open side of the Flag (no Bomb of the seat on it: taken, or never there) is charged this much times the
// chance that the nearest enemy piece that may move, within kShieldRange, passes the seat's pieces on and beside
// that side; twice as much within kShieldNear. Tried at 80 and 160 (docs/strength.md, "the Flag's open side").
constexpr int kOpenSideCharge = 160;

// The lead that wins about 73 games in 100 when the AI adds up its worlds as chances of winning
// (Game::world_score_scale): a General and its concealment (280) in an even game leave the side that lost it
// about 28 chances in 100, the Marshal with its dominance (600) about 12. A world that dealt the Flag within
// reach adds what a win adds to the chances the other worlds leave: 0.21 when the seat stands 400 ahead, 0.5
// in an even game. Counted as a fixed amount (1,500, about two and a half Marshals) a win a
// sample of eight worlds dealt twice outvoted six worlds' lost General or Marshal whatever the seat's standing
// (docs/strength.md, "the vote counts chances").
constexpr int kWorldScoreScale = 300;
// Scores beyond a lead of 700 grow an eighth as fast: a large lead's worlds weigh less in the sum (measured
// with it; no world's choice changes, since minimax commutes with a rising function of its leaves).
constexpr int kSoftKnee = 700;
int soften(int v) {
  if (v > kSoftKnee) return kSoftKnee + (v - kSoftKnee) / 8;
  if (v < -kSoftKnee) return -kSoftKnee + (v + kSoftKnee) / 8;
  return v;
}

// Manhattan distances between squares, read from a table: evaluate() measures up to eighty of them at every leaf.
struct Distances {
  std::array<std::array<uint8_t, kSquares>, kSquares> d{};
};
constexpr Distances make_distances() {
  Distances t;
  for (int a = 0; a < kSquares; ++a)
    for (int b = 0; b < kSquares; ++b) {
      const int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
      const int d = (df < 0 ? -df : df) + (dr < 0 ? -dr : dr);
      t.d[static_cast<size_t>(a)][static_cast<size_t>(b)] = static_cast<uint8_t>(d);
    }
  return t;
}
constexpr Distances kDistances = make_distances();
int distance(int a, int b) { return kDistances.d[static_cast<size_t>(a)][static_cast<size_t>(b)]; }

// What one pass over an army's living pieces finds (evaluate() reads each piece once: it runs at every leaf).
struct ArmyScan {
  int counts[kKinds] = {};
  int flag = kNoSquare;
  int marshal = kNoSquare;
  int hidden_spy = kNoSquare;  // the Spy, while nobody has seen it
  int hidden = 0;              // what being unseen adds (kHiddenValue)
  int unseen_weight = 0;       // the pieces nobody has seen, one that moved counting two (the Spy's suspects)
  int movable = 0;             // how many movable pieces: their squares in movable_at, the Miners marked in miner
  uint8_t movable_at[kArmySize];
  bool miner[kArmySize];
};

}  // namespace

int Stratego::evaluate() const {
  ArmyScan army[2];
  for (Player p = 0; p < 2; ++p) {
    ArmyScan& a = army[p];
    for (int i = 0; i < count_[static_cast<size_t>(p)]; ++i) {
      const Piece& pc = pieces_[static_cast<size_t>(p * kArmySize + i)];
      if (!pc.alive) continue;
      ++a.counts[pc.kind];
      if (pc.kind == kFlag) a.flag = pc.square;
      if (pc.kind == kMarshal) a.marshal = pc.square;
      if (!pc.revealed) {
        a.hidden += kHiddenValue[pc.kind];
        a.unseen_weight += pc.moved ? 2 : 1;  // a piece that never moved is often a Bomb
        if (pc.kind == kSpy) a.hidden_spy = pc.square;
      }
      if (is_movable(pc.kind)) {
        a.movable_at[a.movable] = pc.square;
        a.miner[a.movable] = pc.kind == kMiner;
        ++a.movable;
      }
    }
  }
  int material[2] = {0, 0};
  for (Player p = 0; p < 2; ++p) {
    const int e = 1 - p;
    for (int k = 0; k < kKinds; ++k) {
      int v = kBaseValue[k];
      if (k == kSpy && army[e].counts[kMarshal] > 0) v = 150;
      // Not monotonic (three Miners 135, two 200): both monotonic counts tried scored lower against today's
      // level 3 over the same 200 games (docs/strength.md, "the lone walker"), so the count stays as measured.
      if (k == kMiner && army[e].counts[kBomb] > 0 && army[p].counts[kMiner] <= 2) v = 100;
      material[p] += v * army[p].counts[k];
    }
  }
  // The race: each side's nearest movable piece to the other's Flag (0 when there is no Flag to reach).
  // A Flag is usually walled in by Bombs, so the nearest Miner counts as well as the nearest piece.
  int reach[2] = {0, 0};
  for (Player p = 0; p < 2; ++p) {
    const int target = army[1 - p].flag;
    if (target == kNoSquare) continue;
    constexpr int kFar = 2 * kFiles + 2 * kRanks;
    const auto& to_target = kDistances.d[static_cast<size_t>(target)];
    int any = kFar, miner = kFar;
    for (int i = 0; i < army[p].movable; ++i) {
      const int d = to_target[army[p].movable_at[i]];
      any = std::min(any, d);
      if (army[p].miner[i]) miner = std::min(miner, d);
    }
    reach[p] = kRaceWeight * any + kMinerRaceWeight * miner;
  }
  // Concealment, and the Spy's threat to each Marshal.
  int spy_risk[2] = {0, 0};
  for (Player p = 0; p < 2; ++p) {
    const int e = 1 - p;
    const int marshal = army[p].marshal, spy = army[e].hidden_spy, suspects = army[e].unseen_weight;
    if (marshal == kNoSquare || spy == kNoSquare) continue;
    if (marginals_ && p == believer_) {
      // The seat's own Marshal: the chance, as the seat believes, that a piece beside it is the Spy.
      double chance = 0;
      for (int d = 0; d < kDirections; ++d) {
        const int sq = kGeometry.neighbours[static_cast<size_t>(marshal)][static_cast<size_t>(d)];
        if (sq == kNoSquare || board_[static_cast<size_t>(sq)] == kEmpty) continue;
        const int id = board_[static_cast<size_t>(sq)];
        if (owner(id) == e && !pieces_[static_cast<size_t>(id)].revealed) chance += (*marginals_)[static_cast<size_t>(id)][kSpy];
      }
      spy_risk[p] = static_cast<int>(kBaseValue[kMarshal] * std::min(chance, 1.0) / (p == to_move_ ? 2 : 1));
      continue;
    }
    int near = 0;
    for (int d = 0; d < kDirections; ++d) {
      const int sq = kGeometry.neighbours[static_cast<size_t>(marshal)][static_cast<size_t>(d)];
      if (sq == kNoSquare || board_[static_cast<size_t>(sq)] == kEmpty) continue;
      const Piece& pc = pieces_[board_[static_cast<size_t>(sq)]];
      if (owner(board_[static_cast<size_t>(sq)]) == e && !pc.revealed) near += pc.moved ? 2 : 1;
    }
    // Full risk when the enemy moves next; half when the Marshal's side can still step away.
    spy_risk[p] = kBaseValue[kMarshal] * near / suspects / (p == to_move_ ? 2 : 1);
  }
  int top[2] = {0, 0};
  for (Player p = 0; p < 2; ++p)
    for (int k = kMarshal; k > kSpy; --k)
      if (army[p].counts[k] > 0) {
        top[p] = k;
        break;
      }
  const int me = to_move_, them = 1 - me;
  const int dominance = top[me] > top[them] ? kTopPiece : top[them] > top[me] ? -kTopPiece : 0;
  // The seat's Flag's shield, in a world drawn for a seat (flag_shield_charge).
  int shield[2] = {0, 0};
  if (marginals_) shield[believer_] = flag_shield_charge(army[believer_].flag, army[1 - believer_].counts[kMiner]);
  return soften(dominance + material[me] - material[them] + (reach[them] - reach[me]) +
                (army[me].hidden - army[them].hidden) - (spy_risk[me] - spy_risk[them]) - (shield[me] - shield[them]));
}

int Stratego::world_score_scale() const { return kWorldScoreScale; }

int Stratego::evaluate_for(Player who) const {
  int v = who == to_move_ ? evaluate() : -evaluate();
  // Positions the line from the search's root repeated (each counted once), and `who`'s piece going back
  // and forth now (its two-square run).
  for (size_t i = search_root_; i < history_.size(); ++i)
    if (seen_[history_[i] & ((size_t{1} << kSeenBits) - 1)] >= 2 && occurrences(history_[i]) >= 2) v -= kRepeatPenalty;
  const Shuttle& sh = shuttle_[static_cast<size_t>(who)];
  if (sh.count >= 2) v -= kRepeatPenalty * (sh.count - 1);
  if (marginals_ && who == believer_) v -= attack_risk();
  return v;
}

// How a Flag walled in by Bombs is lost (docs/strength.md, "the lone walker"): a single enemy piece, unknown
// until it takes a Bomb, walks up, takes a Bomb beside the Flag and takes the Flag on its next move. Once it
// has taken the Bomb it is known to be a Miner and stands beside the Flag, and the seat has one move to take
// it: only a piece already standing beside that Bomb can. So each Bomb beside the seat's Flag wants a piece
// that beats a Miner (a Sergeant or higher) beside it, before the walker comes, four of its moves before the
// end, where a search of a few plies cannot see why. Charged only while an enemy piece that may be a Miner
// (one not shown to be anything else) stands near the Flag and the enemy has a Miner, so the defenders are
// free to fight elsewhere the rest of the game. The seat's own army is the truth in every world, and what
// the enemy's pieces may be is public (which moved, which were shown, how many Miners live), so the worlds
// charge alike: the vote is not split by where a world dealt the Miners. (An unmoved enemy piece within range
// counts where the world dealt it a movable kind; only the enemy's front rank is ever that close while unmoved,
// straight ahead of a Flag on the back rank, or nearer one on the second.)
int Stratego::flag_shield_charge() const {
  if (!marginals_) return 0;  // the true game, or a world nobody drew for a seat
  const Player p = believer_, e = 1 - p;
  int flag = kNoSquare, enemy_miners = 0;
  for (int i = 0; i < count_[static_cast<size_t>(p)]; ++i) {
    const Piece& pc = pieces_[static_cast<size_t>(p * kArmySize + i)];
    if (pc.alive && pc.kind == kFlag) flag = pc.square;
  }
  for (int i = 0; i < count_[static_cast<size_t>(e)]; ++i) {
    const Piece& pc = pieces_[static_cast<size_t>(e * kArmySize + i)];
    enemy_miners += pc.alive && pc.kind == kMiner;
  }
  return flag_shield_charge(flag, enemy_miners);
}

// The same, given what evaluate() has counted already: the seat's Flag's square and the enemy's living Miners.
//
// A side of the Flag with no Bomb of the seat on it (its Bomb taken, or a setup that left it open) is the
// same danger from any enemy piece, not only a Miner: the walker steps onto that side and takes the Flag on
// its next move. What stops it is a piece of the seat on that side that it cannot take, or one beside the
// side that takes it (or falls with it) there. Which pieces stop it depends on what the walker is: the seat's
// belief (the marginals every world of this search shares) says, or the walker's shown rank. So the charge is
// the chance the walker passes, the same in every world. (The nearest piece that may move is the walker; an
// unmoved one within range passes only as far as the belief makes it movable, and stands for a farther walker
// behind it; only enemy pieces on their front rank can be that close while unmoved.)
int Stratego::flag_shield_charge(int flag, int enemy_miners) const {
  const Player p = believer_, e = 1 - p;
  if (flag == kNoSquare) return 0;
  // The sides first: at most leaves every side is a Bomb, guarded or with no enemy Miner left, and then the enemy's
  // army need not be read.
  int open_bombs = 0;
  std::array<int, kDirections> open_sides{};
  int sides = 0;
  for (int d = 0; d < kDirections; ++d) {
    const int side = kGeometry.neighbours[static_cast<size_t>(flag)][static_cast<size_t>(d)];
    if (side == kNoSquare) continue;
    const int id = board_[static_cast<size_t>(side)];
    if (id == kEmpty || owner(id) != p || pieces_[static_cast<size_t>(id)].kind != kBomb) {
      open_sides[static_cast<size_t>(sides++)] = side;
      continue;
    }
    if (enemy_miners == 0) continue;
    bool guarded = false;
    for (int d2 = 0; d2 < kDirections && !guarded; ++d2) {
      const int sq = kGeometry.neighbours[static_cast<size_t>(side)][static_cast<size_t>(d2)];
      if (sq == kNoSquare || board_[static_cast<size_t>(sq)] == kEmpty) continue;
      const int g = board_[static_cast<size_t>(sq)];
      const int kind = pieces_[static_cast<size_t>(g)].kind;
      guarded = owner(g) == p && is_movable(kind) && battle(kind, kMiner) == Outcome::attacker_won;
    }
    open_bombs += !guarded;
  }
  if (open_bombs == 0 && sides == 0) return 0;
  // The nearest enemy piece that may be a Miner (for the Bombs), and the nearest that may move at all.
  int miner_at = kShieldRange + 1, walker_at = kShieldRange + 1, walker = -1;
  for (int i = 0; i < count_[static_cast<size_t>(e)]; ++i) {
    const int id = e * kArmySize + i;
    const Piece& pc = pieces_[static_cast<size_t>(id)];
    if (!pc.alive) continue;
    const int dist = distance(pc.square, flag);
    if (dist > kShieldRange) continue;
    if (is_movable(pc.kind) && (!pc.revealed || pc.kind == kMiner)) miner_at = std::min(miner_at, dist);
    if ((!pc.revealed || is_movable(pc.kind)) && dist < walker_at) walker_at = dist, walker = id;
  }
  int charge = 0;
  if (open_bombs > 0 && enemy_miners > 0 && miner_at <= kShieldRange)
    charge += kShieldCharge * open_bombs * (miner_at <= kShieldNear ? 2 : 1);
  if (sides == 0 || walker < 0) return charge;
  const Piece& w = pieces_[static_cast<size_t>(walker)];
  double pass = 0;  // summed over the open sides
  for (int s = 0; s < sides; ++s) {
    const int side = open_sides[static_cast<size_t>(s)];
    // The seat's pieces the walker meets: the one on the side (it must take it), those beside (they attack it).
    std::array<int, kDirections> beside{};
    int n = 0, on_side = -1;
    const int held = board_[static_cast<size_t>(side)];
    if (held != kEmpty && owner(held) == p) on_side = pieces_[static_cast<size_t>(held)].kind;
    for (int d = 0; d < kDirections; ++d) {
      const int sq = kGeometry.neighbours[static_cast<size_t>(side)][static_cast<size_t>(d)];
      if (sq == kNoSquare || sq == flag || board_[static_cast<size_t>(sq)] == kEmpty) continue;
      const int g = board_[static_cast<size_t>(sq)];
      const int kind = pieces_[static_cast<size_t>(g)].kind;
      if (owner(g) == p && is_movable(kind)) beside[static_cast<size_t>(n++)] = kind;
    }
    for (int k = 0; k < kKinds; ++k) {
      if (!is_movable(k)) continue;
      const double chance =
          w.revealed ? (k == w.kind ? 1.0 : 0.0) : (*marginals_)[static_cast<size_t>(walker)][static_cast<size_t>(k)];
      if (chance <= 0) continue;
      bool stopped = on_side >= 0 && battle(k, on_side) != Outcome::attacker_won;
      for (int g = 0; g < n && !stopped; ++g)
        stopped = battle(beside[static_cast<size_t>(g)], k) != Outcome::attacker_lost;
      if (!stopped) pass += chance;
    }
  }
  return charge + static_cast<int>(kOpenSideCharge * pass * (walker_at <= kShieldNear ? 2 : 1));
}

// The searched line's attacks by the believer's high pieces on enemy pieces nobody had seen, each won here
// because this world dealt a piece it beats: each charged the attacker's value times the chance, as far as
// the seat can tell (sample_world's marginals), that the piece is one it loses to (a Bomb, a stronger piece;
// an equal takes as much as it gives). A world knows what every piece is, so without this the Marshal would
// take every unmoved piece the world calls harmless and leave the Bombs it calls Bombs, and every world would vote for the
// Marshal's raid into the enemy's back rows; with it, an unknown is attacked by a high piece only when the
// gain outweighs the risk, and low pieces, whose loss costs little, go first.
int Stratego::attack_risk() const {
  double risk = 0;
  for (const Undo& u : undo_) {
    if (u.defender == kEmpty || owner(u.attacker) != believer_ || u.defender_before.revealed) continue;
    const int attacker = u.attacker_before.kind;
    if (attacker < kRiskyAttacker || attacker > kMarshal) continue;
    if (battle(attacker, u.defender_before.kind) != Outcome::attacker_won) continue;  // the loss is counted already
    const auto& m = (*marginals_)[u.defender];
    double lose = 0;
    for (int k = 0; k < kKinds; ++k)
      if (battle(attacker, k) == Outcome::attacker_lost) lose += m[static_cast<size_t>(k)];
    risk += lose * kRiskValue[attacker];
  }
  return static_cast<int>(risk);
}

}  // namespace tabula::stratego
