#include "core/rng.h"

#include <sys/random.h>

#include <stdexcept>

namespace tabula {

namespace {
uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void fill_secure(void* buf, size_t n) {
  auto* p = static_cast<unsigned char*>(buf);
  while (n > 0) {
    ssize_t got = getrandom(p, n, 0);
    if (got < 0) throw std::runtime_error("getrandom failed");
    p += got;
    n -= static_cast<size_t>(got);
  }
}
}  // namespace

void Rng::reseed(uint64_t seed) {
  for (auto& s : s_) s = splitmix64(seed);
}

uint64_t Rng::next() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

uint64_t Rng::below(uint64_t n) {
  const uint64_t limit = max() - max() % n;  // reject the uneven tail
  uint64_t x;
  do x = next();
  while (x >= limit);
  return x % n;
}

uint64_t secure_random_u64() {
  uint64_t x;
  fill_secure(&x, sizeof x);
  return x;
}

std::string secure_random_hex(int bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < bytes; ++i) {
    unsigned char b;
    fill_secure(&b, 1);
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

}  // namespace tabula
