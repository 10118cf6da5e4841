// `tabula engine`: shared/spec/engine-protocol.md, JSON lines on standard input and output.
#pragma once

#include "ai/ai.h"
#include "core/session.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace tabula {

class EngineProtocol {
 public:
  // Longest request line read; a longer one is answered with an error and skipped.
  static constexpr size_t kMaxLine = 1 << 20;
  // Deepest JSON nesting accepted (a deeper document would only exhaust the parser's stack).
  static constexpr int kMaxDepth = 64;
  static constexpr int kMaxPerftDepth = 8;
  // Most positions one perft request may expand (generate the moves of; perft(d) expands every position fewer
  // than d plies deep): the depth alone does not bound the work, since the Game of Truth's perft(5) would take
  // hours where Tigadi's perft(6) takes a second (docs/rulings.md P2).
  static constexpr uint64_t kMaxPerftExpansions = 10'000'000;

  EngineProtocol() = default;
  // Tests give perft a smaller budget, to see the refusal without the minutes it takes at the real one.
  explicit EngineProtocol(uint64_t perft_expansions) : perft_expansions_(perft_expansions) {}

  // Answers one request line. Never throws; a refused request changes nothing.
  std::string handle_line(std::string_view line);
  bool quit_requested() const { return quit_; }
  static std::string too_long_response();

 private:
  json dispatch(const json& request);
  Session& session();

  std::optional<Session> session_;
  ai::Memory memory_;  // the AI's table between `ai` requests on a time budget; forgotten by `new`
  bool quit_ = false;
  uint64_t perft_expansions_ = kMaxPerftExpansions;
};

// Reads requests until end of input or quit; returns the process status (0).
int run_engine(std::istream& in, std::ostream& out);

}  // namespace tabula
