// Cheap static tests over a Truth position for the AI (evaluation.cpp, quiescence): which squares beside an
// icon an enemy lantern can reach in one slide, whether the player to move can burn an icon with its next
// action, and whether an action takes an enemy piece. Nothing here plays a move or allocates; everything
// reads the board as it stands (rules.cpp stays the referee).
#pragma once

#include "games/truth/truth.h"

namespace tabula::truth::tactics {

constexpr bool diagonally_adjacent(int a, int b) {
  const int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
  return (df == 1 || df == -1) && (dr == 1 || dr == -1);
}

// The lantern-role pieces of the armies in `attackers` (bit per player) that can end a slide on the empty
// square `sq` (each diagonal walked out from sq until a door, icon or door-role piece; other pieces are
// crossed). `skip` is a piece id left out (the piece that already acted this turn). Returns how many, and
// the first one found in `first` (kNoPiece when none).
int lanterns_reaching(const Position& pos, int sq, uint8_t attackers, uint8_t skip, uint8_t& first);

// The enemy icons the player to move can burn with its next action (bit per owner): a lantern-role piece
// that may act now reaches an empty square beside the icon (a lantern-guardian not onto a square touching a
// defender, where it would be intercepted).
uint8_t burnable_icons(const Position& pos);
inline bool burn_available(const Position& pos) { return burnable_icons(pos) != 0; }
// The enemy icons the player to move, with both actions of its turn left, burns with a door action that opens
// a lantern's line and the lantern's slide (bit per owner): the first obstruction on the diagonal from an empty
// square beside the icon is one of the mover's doors, which can step off that diagonal, and behind it is one of
// its lanterns. Nothing the enemy does comes between the two actions.
uint8_t burnable_in_two(const Position& pos);

// Whether the action (legal here, not a pass) takes an enemy piece, by the cheap tests that find what an
// action can take: a linesman crossing an enemy lantern, a sentry leaping over an enemy piece other than an
// icon, a guardian landing beside an enemy door, lantern, linesman or sentry, an icon stepping beside an
// enemy ordinary guardian, a lantern landing beside an enemy icon (a burn), a lantern-guardian touching an
// enemy defender, and fourfold enclosures the mover completes. Losses of the mover's own pieces are not
// takes. Interceptions on a lantern-guardian's route are not looked for (they cost the attacker as much).
bool takes_piece(const Position& pos, Move m);
// The most valuable enemy piece the action takes by the same tests, at its score value (a door 100 … a
// lantern-guardian 4,000; an icon burnt 100,000), or 0: the search tries the richest takes first.
int take_value(const Position& pos, Move m);

// What the sentry `id` takes with its best leap: the enemy pieces but icons on the lattice points it crosses, at
// their score values, less the sentry itself where an enemy guardian touches the landing square (jumped or
// not, it kills the sentry); 0 when no leap gains anything. For the evaluation's threats (the sentry may not be free to act now).
int sentry_take(const Position& pos, int id);
// The most any one of `owner`'s sentries takes so (the enemy pieces near its icon read once for all of them).
int best_sentry_take(const Position& pos, int owner);

}  // namespace tabula::truth::tactics
