// `tabula engine`: shared/spec/engine-protocol.md, JSON lines on standard input and output.
#pragma once

#include "core/session.h"

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

  // Answers one request line. Never throws; a refused request changes nothing.
  std::string handle_line(std::string_view line);
  bool quit_requested() const { return quit_; }
  static std::string too_long_response();

 private:
  json dispatch(const json& request);
  Session& session();

  std::optional<Session> session_;
  bool quit_ = false;
};

// Reads requests until end of input or quit; returns the process status (0).
int run_engine(std::istream& in, std::ostream& out);

}  // namespace tabula
