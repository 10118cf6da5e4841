// Draw by agreement, as every two-player game has it (shared rulings, common rules; FACET's rules describe
// it): either player may offer during play; the offer stands until the other player accepts or declines it,
// or makes a move (which declines it); the offering player's own move does not withdraw it; one offer at a
// time. Tigadi, Stratego and FACET each keep one DrawOffer in the part of their state their undo restores.
#pragma once

#include "core/game.h"

#include <cstdint>
#include <string_view>

namespace tabula {

class DrawOffer {
 public:
  // What an "offer" of `what` does now ("draw", "accept" or "decline"): records it and its event, or throws
  // GameError (conflict) naming why not, changing nothing. Returns true when the offer was accepted: the
  // caller then ends the game by agreement. `title` names the game in the error for an unknown offer.
  bool handle(Player p, std::string_view what, std::string_view title, EventLog* events);
  // A move by `mover`: it declines the other player's standing offer (with its event).
  void on_move(Player mover, EventLog* events) {
    if (by_ == 1 - mover) {
      by_ = -1;
      if (events) events->push_back(Event{json{{"type", "offer"}, {"player", mover}, {"what", "decline"}}, {}});
    }
  }
  // Whether `answerer` may accept or decline an offer now.
  bool stands_for(Player answerer) const { return by_ >= 0 && by_ == 1 - answerer; }
  int by() const { return by_; }  // -1: none
  void clear() { by_ = -1; }

  // notation.md's `draw_offer` field: the offering player or null; read from a given state (bad_request when
  // it is neither 0, 1 nor null or absent).
  json to_json() const { return by_ < 0 ? json(nullptr) : json(by_); }
  static DrawOffer from_state(const json& state);

  friend bool operator==(DrawOffer, DrawOffer) = default;

 private:
  int8_t by_ = -1;
};

}  // namespace tabula
