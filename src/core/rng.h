// Seeded, reproducible randomness for games and the AI (xoshiro256** seeded by splitmix64), and a
// cryptographic source for secrets and hidden-information seeds.
#pragma once

#include <cstdint>
#include <string>

namespace tabula {

// One step of splitmix64 (it seeds Rng). constexpr, so games make their Zobrist keys at compile time by
// drawing them in order from a seed of their own.
constexpr uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { reseed(seed); }
  void reseed(uint64_t seed);
  uint64_t next();
  // Uniform in [0, n), n > 0, without modulo bias.
  uint64_t below(uint64_t n);
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // UniformRandomBitGenerator, so std::shuffle can use it.
  using result_type = uint64_t;
  static constexpr uint64_t min() { return 0; }
  static constexpr uint64_t max() { return ~uint64_t{0}; }
  uint64_t operator()() { return next(); }

 private:
  uint64_t s_[4];
};

// Bytes from the kernel's CSPRNG (getrandom). Used for tokens, game ids and secret seeds.
uint64_t secure_random_u64();
// 32 lowercase hex digits per 128 bits.
std::string secure_random_hex(int bytes);

}  // namespace tabula
