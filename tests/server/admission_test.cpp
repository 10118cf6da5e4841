// The server's limits as counted, on a clock the test moves: connections and WebSockets per address and
// in total, the request bucket, games per hour, and the addresses limits count by.
#include "server/admission.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

using namespace tabula::server;
using namespace std::chrono_literals;
using Verdict = Admission::Verdict;

namespace {

Limits small_limits() {
  Limits l;
  l.max_connections = 5;
  l.max_connections_per_ip = 3;
  l.max_ws_per_ip = 2;
  l.max_spectators_per_game = 3;
  l.rate = 10;
  l.burst = 4;
  l.games_per_hour = 2;
  return l;
}

const Admission::Clock::time_point t0 = Admission::Clock::time_point{} + 1000h;

}  // namespace

TEST(Admission, ConnectionsPerAddressAreCountedAndReleased) {
  Admission a(small_limits());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(a.open_connection("10.0.0.1"), Verdict::ok);
  EXPECT_EQ(a.open_connection("10.0.0.1"), Verdict::per_address);
  EXPECT_EQ(a.open_connection("10.0.0.2"), Verdict::ok) << "another address is not held back";
  a.close_connection("10.0.0.1");
  EXPECT_EQ(a.open_connection("10.0.0.1"), Verdict::ok) << "a closed connection frees its place";
  EXPECT_EQ(a.connections(), 4u);
}

TEST(Admission, TheTotalLimitHoldsAcrossAddresses) {
  Admission a(small_limits());
  for (int i = 0; i < 5; ++i) EXPECT_EQ(a.open_connection("10.0.1." + std::to_string(i)), Verdict::ok);
  EXPECT_EQ(a.open_connection("10.0.1.99"), Verdict::total);
  a.close_connection("10.0.1.3");
  EXPECT_EQ(a.open_connection("10.0.1.99"), Verdict::ok);
  a.close_connection("10.9.9.9");  // never counted: changes nothing
  EXPECT_EQ(a.connections(), 5u);
}

TEST(Admission, WebSocketsPerAddressAndSpectatorsPerGame) {
  Admission a(small_limits());
  EXPECT_EQ(a.open_websocket("10.0.0.1"), Verdict::ok);
  EXPECT_EQ(a.open_websocket("10.0.0.1"), Verdict::ok);
  EXPECT_EQ(a.open_websocket("10.0.0.1"), Verdict::per_address);
  EXPECT_EQ(a.open_websocket("10.0.0.2"), Verdict::ok) << "another address is not held back";
  a.close_websocket("10.0.0.1");
  EXPECT_EQ(a.open_websocket("10.0.0.1"), Verdict::ok);

  for (int i = 0; i < 3; ++i) EXPECT_TRUE(a.open_spectator("g1")) << i;
  EXPECT_FALSE(a.open_spectator("g1")) << "the game has as many spectators as it takes";
  EXPECT_TRUE(a.open_spectator("g2")) << "another game is not full";
  a.close_spectator("g1");
  EXPECT_TRUE(a.open_spectator("g1"));
  a.close_spectator("g9");  // never counted: changes nothing
  EXPECT_FALSE(a.open_spectator("g1"));
}

TEST(Admission, TheRequestBucketEmptiesAndRefills) {
  Admission a(small_limits());
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(a.take_request("10.0.0.1", t0)) << i;
  EXPECT_FALSE(a.take_request("10.0.0.1", t0)) << "a burst of 4 is all";
  EXPECT_TRUE(a.take_request("10.0.0.2", t0)) << "another address has its own bucket";
  EXPECT_FALSE(a.take_request("10.0.0.1", t0 + 50ms)) << "half a token after 50 ms at 10/s";
  EXPECT_TRUE(a.take_request("10.0.0.1", t0 + 100ms));
  EXPECT_FALSE(a.take_request("10.0.0.1", t0 + 100ms));
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(a.take_request("10.0.0.1", t0 + 1h)) << "full again, never above the burst";
  EXPECT_FALSE(a.take_request("10.0.0.1", t0 + 1h));
}

TEST(Admission, ARateOfZeroLimitsNothing) {
  Limits l = small_limits();
  l.rate = 0;
  l.games_per_hour = 0;
  Admission a(l);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(a.take_request("10.0.0.1", t0));
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(a.may_create_game("10.0.0.1", t0));
    a.created_game("10.0.0.1", t0);
  }
  EXPECT_EQ(a.tracked_addresses(), 0u);
}

TEST(Admission, GamesPerAddressInAnyHour) {
  Admission a(small_limits());
  EXPECT_TRUE(a.may_create_game("10.0.0.1", t0));
  a.created_game("10.0.0.1", t0);
  a.created_game("10.0.0.1", t0 + 10min);
  EXPECT_FALSE(a.may_create_game("10.0.0.1", t0 + 30min));
  EXPECT_TRUE(a.may_create_game("10.0.0.2", t0 + 30min));
  EXPECT_TRUE(a.may_create_game("10.0.0.1", t0 + 60min)) << "the first one is an hour old";
  a.created_game("10.0.0.1", t0 + 60min);
  EXPECT_FALSE(a.may_create_game("10.0.0.1", t0 + 65min));
}

TEST(Admission, IdleAddressesAreForgotten) {
  Admission a(small_limits());
  for (int i = 0; i < 500; ++i) {
    a.take_request("10.1." + std::to_string(i / 250) + "." + std::to_string(i % 250), t0);
    a.created_game("10.2." + std::to_string(i / 250) + "." + std::to_string(i % 250), t0);
  }
  EXPECT_EQ(a.tracked_addresses(), 1000u);
  a.take_request("10.3.0.1", t0 + 2h);  // a refilled bucket and an hour-old creation say nothing
  EXPECT_EQ(a.tracked_addresses(), 1u);
}

TEST(Admission, AddressesCountByHostForIpv4AndBySlash64ForIpv6) {
  EXPECT_EQ(address_key("127.0.0.2"), "127.0.0.2");
  EXPECT_EQ(address_key("::ffff:10.1.2.3"), "10.1.2.3") << "IPv4-mapped";
  EXPECT_EQ(address_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
  EXPECT_EQ(address_key("2001:db8:1:2::1"), address_key("2001:db8:1:2:ffff::9"));
  EXPECT_NE(address_key("2001:db8:1:2::1"), address_key("2001:db8:1:3::1"));
  EXPECT_EQ(address_key("::1"), "::/64");
}
