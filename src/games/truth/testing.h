// Helpers shared by the Game of Truth's rule tests (two players in truth_rules_test.cpp, four in
// truth_four_test.cpp): reading a Session's board, legal actions and events, and checking the end.
#pragma once

#include "core/session.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace tabula::truth_testing {

using Caps = std::multiset<std::string>;
using Set = std::set<std::string>;

// Destinations of the legal actions starting on `from`.
inline Set dests(const Session& s, const std::string& from) {
  Set out;
  for (const std::string& m : s.legal()) {
    const auto dash = m.find('-');
    if (dash != std::string::npos && m.substr(0, dash) == from) out.insert(m.substr(dash + 1));
  }
  return out;
}
inline json board(const Session& s) { return s.state().at("board"); }
inline std::string piece_at(const Session& s, const std::string& sq) {
  const json b = board(s);
  return b.contains(sq) ? b.at(sq).get<std::string>() : std::string("--");
}
// A capture event as "square piece by<player|-> points cause".
inline std::string cap(const json& e) {
  const std::string by = e.at("by").is_null() ? "-" : std::to_string(e.at("by").get<int>());
  return e.at("square").get<std::string>() + " " + e.at("piece").get<std::string>() + " by" + by + " " +
         std::to_string(e.at("points").get<int>()) + " " + e.at("cause").get<std::string>();
}
inline Caps captures(const std::vector<Event>& events) {
  Caps out;
  for (const Event& e : events)
    if (e.full.at("type") == "capture") out.insert(cap(e.full));
  return out;
}
inline std::vector<json> of_type(const std::vector<Event>& events, const std::string& type) {
  std::vector<json> out;
  for (const Event& e : events)
    if (e.full.at("type") == type) out.push_back(e.full);
  return out;
}
inline std::vector<Event> turn(Session& s, const std::string& a, const std::string& b) {
  std::vector<Event> out = s.play(a);
  std::vector<Event> more = s.play(b);
  out.insert(out.end(), more.begin(), more.end());
  return out;
}

// The end-of-game fields (rulings: "When the game ends: action is 0, acted is [] and door_action_done is
// false").
inline void expect_over(const Session& s, const json& winners, const std::string& reason) {
  const json st = s.state();
  EXPECT_EQ(st.at("phase"), "over");
  ASSERT_FALSE(st.at("result").is_null());
  EXPECT_EQ(st.at("result").at("winners"), winners);
  EXPECT_EQ(st.at("result").at("reason"), reason);
  EXPECT_EQ(st.at("action"), 0);
  EXPECT_EQ(st.at("acted"), json::array());
  EXPECT_EQ(st.at("door_action_done"), false);
  EXPECT_TRUE(s.legal().empty());
}
inline void expect_on(const Session& s) {
  EXPECT_EQ(s.state().at("phase"), "play");
  EXPECT_TRUE(s.state().at("result").is_null());
}

}  // namespace tabula::truth_testing
