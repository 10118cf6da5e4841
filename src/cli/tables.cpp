// `tabula tables`: builds Tigadi's endgame tables (src/games/tigadi/endgame.h) into a file, and the loading of
// that file when the AI starts (docs/ai.md: where the tables are looked for).
#include "cli/commands.h"
#include "core/error.h"
#include "games/tigadi/endgame.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace tabula {

namespace {
constexpr const char* kTigadiFile = "tigadi.tbl";
}

std::string default_tables_dir() {
  if (const char* env = std::getenv("TABULA_TABLES"); env && *env) return env;
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "tables";
  return (exe.parent_path() / "tables").string();
}

int tables_command(const TablesArgs& args) {
  if (args.game != "tigadi") {
    std::fprintf(stderr, "tabula tables: only tigadi has endgame tables\n");
    return 2;
  }
  const std::string dir = args.out.empty() ? default_tables_dir() : args.out;
  try {
    const auto t0 = std::chrono::steady_clock::now();
    const tigadi::EndgameTables t = tigadi::EndgameTables::build(
        args.max_gotis, [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); });
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::filesystem::create_directories(dir);
    const auto path = std::filesystem::path(dir) / kTigadiFile;
    const auto tmp = std::filesystem::path(dir) / (std::string(kTigadiFile) + ".part");
    {
      std::ofstream out(tmp, std::ios::binary);
      t.write(out);
      if (!out) throw std::runtime_error("cannot write " + tmp.string());
    }
    std::filesystem::rename(tmp, path);
    std::printf("%s: tigadi 3 to %d gotis a side, %zu entries, longest win %d plies, built in %.1f s\n",
                path.c_str(), args.max_gotis, t.entries(), t.longest_win(), secs);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tabula tables: %s\n", e.what());
    return 1;
  }
}

void load_endgame_tables() {
  const auto path = std::filesystem::path(default_tables_dir()) / kTigadiFile;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return;
  try {
    std::ifstream in(path, std::ios::binary);
    tigadi::set_endgame_tables(std::make_shared<const tigadi::EndgameTables>(tigadi::EndgameTables::read(in)));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tabula: %s: %s (the AI plays without endgame tables)\n", path.c_str(), e.what());
  }
}

}  // namespace tabula
