// Who may come in: the server's limits per client address and in total (connections, WebSockets,
// requests per second, games created per hour). No I/O and no Boost: the HTTP layer asks before it
// spends anything on a client and reports when a connection or WebSocket ends; tests drive it with
// their own clock. Single-threaded, like everything on the I/O thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tabula::server {

// Every limit, its default, and what a client sees when it is hit: docs/server.md, "Limits".
struct Limits {
  std::size_t max_connections = 1000;      // open connections in total (HTTP and WebSocket)
  std::size_t max_connections_per_ip = 64;
  int request_timeout_s = 10;              // a whole request (header and body), and an idle keep-alive
  std::size_t max_ws_per_ip = 16;
  std::size_t max_spectators_per_game = 64;  // WebSockets without a seat's token, on one game
  double rate = 50;                        // requests (and WebSocket messages) per second per address; 0: none
  double burst = 100;                      // the bucket: how many may come at once
  std::size_t games_per_hour = 60;         // games created per address in any hour; 0: no limit
  std::size_t max_header = 8 * 1024;       // bytes of request line and header fields
};

// A client's address as limits count it: an IPv4 address as is (an IPv4-mapped IPv6 address too), an
// IPv6 address by its /64 prefix, since one host commonly holds a whole /64.
std::string address_key(std::string_view address);

class Admission {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Verdict { ok, per_address, total };

  explicit Admission(const Limits& limits) : limits_(limits) {}
  const Limits& limits() const { return limits_; }

  // A new connection; counted when the verdict is ok, and then close_connection must follow.
  Verdict open_connection(const std::string& address);
  void close_connection(const std::string& address);
  std::size_t connections() const { return total_connections_; }

  // A WebSocket on an open connection, before the upgrade; counted when ok (never `total`).
  Verdict open_websocket(const std::string& address);
  void close_websocket(const std::string& address);
  // A WebSocket that authenticated as a spectator of `game`: false when the game has as many as it takes.
  // Seats are never counted: a crowd of spectators must not lock the players out of their own game.
  bool open_spectator(const std::string& game);
  void close_spectator(const std::string& game);

  // One request or WebSocket message from `address`: false when its bucket is empty.
  bool take_request(const std::string& address, Clock::time_point now);

  // Whether `address` may create a game now, and that it did.
  bool may_create_game(const std::string& address, Clock::time_point now);
  void created_game(const std::string& address, Clock::time_point now);

  // Entries kept for idle addresses (buckets, creation times): bounded by pruning.
  std::size_t tracked_addresses() const { return buckets_.size() + created_.size(); }

 private:
  struct Bucket {
    double tokens = 0;
    Clock::time_point at;
  };
  void prune(Clock::time_point now);

  Limits limits_;
  std::size_t total_connections_ = 0;
  std::unordered_map<std::string, std::size_t> connections_;
  std::unordered_map<std::string, std::size_t> websockets_;       // by address
  std::unordered_map<std::string, std::size_t> spectators_;      // by game
  std::unordered_map<std::string, Bucket> buckets_;
  std::unordered_map<std::string, std::deque<Clock::time_point>> created_;
  Clock::time_point last_prune_{};
};

}  // namespace tabula::server
