#include "core/draw_offer.h"

#include <string>

namespace tabula {

bool DrawOffer::handle(Player p, std::string_view what, std::string_view title, EventLog* events) {
  if (p != 0 && p != 1) fail(ErrorKind::bad_request, "no such player");
  auto event = [&] {
    if (events) events->push_back(Event{json{{"type", "offer"}, {"player", p}, {"what", std::string(what)}}, {}});
  };
  if (what == "draw") {
    if (by_ == p) fail(ErrorKind::conflict, "your draw offer already stands");
    if (by_ == 1 - p) fail(ErrorKind::conflict, "your opponent's draw offer stands: accept or decline it");
    by_ = static_cast<int8_t>(p);
    event();
    return false;
  }
  if (what == "accept" || what == "decline") {
    if (!stands_for(p)) fail(ErrorKind::conflict, "there is no draw offer of your opponent to " + std::string(what));
    event();
    by_ = -1;
    return what == "accept";
  }
  fail(ErrorKind::conflict,
       std::string(title) + " has no \"" + std::string(what) + "\" offers: draw, accept, decline or resign");
}

DrawOffer DrawOffer::from_state(const json& state) {
  DrawOffer d;
  if (!state.is_object()) return d;
  auto it = state.find("draw_offer");
  if (it == state.end() || it->is_null()) return d;
  if (!it->is_number_integer() || (*it != 0 && *it != 1))
    fail(ErrorKind::bad_request, "state.draw_offer must be 0, 1 or null");
  d.by_ = static_cast<int8_t>(it->get<int>());
  return d;
}

}  // namespace tabula
