// libFuzzer target for the engine protocol: each input is split into lines and fed to one engine, as a
// client would send them. The protocol promises that no input crashes, hangs or corrupts it; ASan and
// UBSan watch every line. Build and run: `make fuzz` (clang's libFuzzer).
#include "cli/engine_protocol.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tabula::EngineProtocol engine;
  // Start every input from a game in progress so moves, perft and ai have something to act on.
  engine.handle_line(R"({"cmd":"new","game":"tigadi"})");
  std::string_view input(reinterpret_cast<const char*>(data), size);
  while (!input.empty() && !engine.quit_requested()) {
    size_t end = input.find('\n');
    std::string_view line = input.substr(0, end);
    // Keep each run fast: no deep perft or long AI searches from fuzzed numbers.
    if (line.find("perft") == std::string_view::npos && line.find("\"ai\"") == std::string_view::npos)
      engine.handle_line(line);
    if (end == std::string_view::npos) break;
    input.remove_prefix(end + 1);
  }
  return 0;
}
