#include "server/admission.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace tabula::server {

namespace {

// Idle entries are dropped at most this often, so a flood of addresses costs memory only for a while.
constexpr auto kPruneEvery = std::chrono::seconds(10);
constexpr auto kHour = std::chrono::hours(1);

void decrement(std::unordered_map<std::string, std::size_t>& counts, const std::string& key) {
  auto it = counts.find(key);
  if (it == counts.end()) return;
  if (--it->second == 0) counts.erase(it);
}

std::size_t count_of(const std::unordered_map<std::string, std::size_t>& counts, const std::string& key) {
  auto it = counts.find(key);
  return it == counts.end() ? 0 : it->second;
}

}  // namespace

std::string address_key(std::string_view address) {
  std::string text(address);
  in6_addr a6{};
  if (inet_pton(AF_INET6, text.c_str(), &a6) != 1) return text;  // IPv4 (or anything else) as given
  static constexpr std::array<unsigned char, 12> kMapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(a6.s6_addr, kMapped.data(), kMapped.size()) == 0) {
    char v4[INET_ADDRSTRLEN];
    if (inet_ntop(AF_INET, a6.s6_addr + 12, v4, sizeof v4)) return v4;
  }
  std::memset(a6.s6_addr + 8, 0, 8);
  char v6[INET6_ADDRSTRLEN];
  if (!inet_ntop(AF_INET6, &a6, v6, sizeof v6)) return text;
  return std::string(v6) + "/64";
}

Admission::Verdict Admission::open_connection(const std::string& address) {
  if (total_connections_ >= limits_.max_connections) return Verdict::total;
  std::size_t& n = connections_[address];
  if (n >= limits_.max_connections_per_ip) {
    if (n == 0) connections_.erase(address);
    return Verdict::per_address;
  }
  ++n;
  ++total_connections_;
  return Verdict::ok;
}

void Admission::close_connection(const std::string& address) {
  if (connections_.count(address) == 0) return;
  decrement(connections_, address);
  --total_connections_;
}

Admission::Verdict Admission::open_websocket(const std::string& address) {
  if (count_of(websockets_, address) >= limits_.max_ws_per_ip) return Verdict::per_address;
  ++websockets_[address];
  return Verdict::ok;
}

void Admission::close_websocket(const std::string& address) { decrement(websockets_, address); }

bool Admission::open_spectator(const std::string& game) {
  if (count_of(spectators_, game) >= limits_.max_spectators_per_game) return false;
  ++spectators_[game];
  return true;
}

void Admission::close_spectator(const std::string& game) { decrement(spectators_, game); }

bool Admission::take_request(const std::string& address, Clock::time_point now) {
  if (limits_.rate <= 0) return true;
  prune(now);
  auto [it, fresh] = buckets_.try_emplace(address, Bucket{limits_.burst, now});
  Bucket& b = it->second;
  if (!fresh) {
    const double elapsed = std::chrono::duration<double>(now - b.at).count();
    b.tokens = std::min(limits_.burst, b.tokens + std::max(elapsed, 0.0) * limits_.rate);
    b.at = now;
  }
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

bool Admission::may_create_game(const std::string& address, Clock::time_point now) {
  if (limits_.games_per_hour == 0) return true;
  prune(now);
  auto it = created_.find(address);
  if (it == created_.end()) return true;
  auto& times = it->second;
  while (!times.empty() && now - times.front() >= kHour) times.pop_front();
  return times.size() < limits_.games_per_hour;
}

void Admission::created_game(const std::string& address, Clock::time_point now) {
  if (limits_.games_per_hour == 0) return;
  created_[address].push_back(now);
}

void Admission::prune(Clock::time_point now) {
  if (now - last_prune_ < kPruneEvery) return;
  last_prune_ = now;
  // A bucket that would be full again says nothing more than a missing one.
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    const double elapsed = std::chrono::duration<double>(now - it->second.at).count();
    if (limits_.rate > 0 && it->second.tokens + elapsed * limits_.rate >= limits_.burst)
      it = buckets_.erase(it);
    else
      ++it;
  }
  for (auto it = created_.begin(); it != created_.end();) {
    if (it->second.empty() || now - it->second.back() >= kHour)
      it = created_.erase(it);
    else
      ++it;
  }
}

}  // namespace tabula::server
