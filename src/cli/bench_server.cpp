// `tabula bench`'s server part: what acknowledging a move costs at the start of a game and deep into a
// long one, through the real GameService and SQLite store (each move durably committed, a spectator
// subscribed), so that a cost that grows with the game's length shows. FACET has no ply limit: two
// people can shuffle stones back and forth for ever, which is exactly the abuse this measures.
#include "cli/bench.h"

#include "core/session.h"
#include "server/game_service.h"
#include "server/storage.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <unistd.h>

namespace tabula {

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

std::string reverse_of(const std::string& move) {
  const size_t dash = move.find('-');
  if (dash == std::string::npos || move.find('-', dash + 1) != std::string::npos) return {};
  return move.substr(dash + 1) + "-" + move.substr(0, dash);
}

bool is_legal(const Session& s, const std::string& move) {
  const auto legal = s.legal();
  return std::find(legal.begin(), legal.end(), move) != legal.end();
}

// Four plies that bring the start position back: a White move, a Black move, and both undone.
std::vector<std::string> shuffle_cycle(const Session& start) {
  for (const std::string& w : start.legal()) {
    const std::string w_back = reverse_of(w);
    if (w_back.empty()) continue;
    Session after_w = start.clone();
    after_w.play(w);
    for (const std::string& b : after_w.legal()) {
      const std::string b_back = reverse_of(b);
      if (b_back.empty()) continue;
      Session s = after_w.clone();
      s.play(b);
      if (!is_legal(s, w_back)) continue;
      s.play(w_back);
      if (!is_legal(s, b_back)) continue;
      s.play(b_back);
      if (s.game().hash() == start.game().hash() && !s.over()) return {w, b, w_back, b_back};
    }
  }
  return {};
}

double median_ms(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace

int bench_acknowledgement(int plies, std::ostream& out, json* report) {
  using namespace tabula::server;
  std::string tmpl = (fs::temp_directory_path() / "tabula-bench-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    out << "cannot make a temporary folder\n";
    return 2;
  }
  const fs::path dir = tmpl;
  int status = 0;
  try {
    Storage storage((dir / "bench.db").string());
    GameService svc(storage, [](AiWorkers::Lane, AiWorkers::Job, AiWorkers::Done) {});
    json created = svc.create(json{{"game", "facet"},
                                   {"seats", json::array({json{{"type", "human"}}, json{{"type", "human"}}})}});
    const std::string id = created.at("id");
    const std::string tokens[2] = {created.at("tokens").at("0"), created.at("tokens").at("1")};
    size_t pushed_bytes = 0;
    svc.subscribe(id, kSpectator, [&](const std::string& m) { pushed_bytes += m.size(); });

    const std::vector<std::string> cycle = shuffle_cycle(Session::create("facet", json::object()));
    if (cycle.empty()) throw std::runtime_error("no shuffle found in FACET's opening");
    const int window = std::min(200, std::max(plies / 10, 1));
    std::vector<double> early, late;
    for (int ply = 0; ply < plies + window; ++ply) {
      const auto t0 = Clock::now();
      svc.move(id, tokens[ply % 2], json{{"move", cycle[static_cast<size_t>(ply % 4)]}});
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      if (ply < window) early.push_back(ms);
      if (ply >= plies) late.push_back(ms);
    }
    const double at_start = median_ms(early), at_depth = median_ms(late);
    // A whole game's view (GET /api/games/{id}, a new WebSocket): it carries every event, so it grows.
    std::vector<double> views;
    size_t view_bytes = 0;
    for (int i = 0; i < 5; ++i) {
      const auto t0 = Clock::now();
      view_bytes = svc.get_text(id, tokens[0]).size();
      views.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    const double view_ms = median_ms(views);
    // What an AI seat's search starts from: a copy of the game, taken on the I/O thread.
    auto clone_ms = [&](int n) {
      Session s = Session::create("facet", json::object());
      for (int ply = 0; ply < n; ++ply) s.play(cycle[static_cast<size_t>(ply % 4)]);
      std::vector<double> times;
      for (int i = 0; i < 21; ++i) {
        const auto t0 = Clock::now();
        auto copy = s.game().clone();
        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      }
      return median_ms(times);
    };
    const double clone_start = clone_ms(0), clone_depth = clone_ms(plies);
    char line[200];
    std::snprintf(line, sizeof line,
                  "server   a move acknowledged (stored, a spectator told): %.2f ms at ply 0, %.2f ms at ply %d "
                  "(medians of %d moves)\n",
                  at_start, at_depth, plies, window);
    out << line;
    std::snprintf(line, sizeof line, "server   the whole game's view at ply %d (GET, serialised): %.2f ms, %zu bytes\n",
                  plies + window, view_ms, view_bytes);
    out << line;
    std::snprintf(line, sizeof line, "server   an AI search's copy of the game: %.3f ms at ply 0, %.3f ms at ply %d\n",
                  clone_start, clone_depth, plies);
    out << line;
    if (report)
      report->push_back(json{{"server", "acknowledgement"},
                             {"game", "facet"},
                             {"plies", plies},
                             {"window", window},
                             {"ms_at_start", at_start},
                             {"ms_at_depth", at_depth},
                             {"pushed_bytes", pushed_bytes},
                             {"view_ms_at_depth", view_ms},
                             {"view_bytes_at_depth", view_bytes},
                             {"clone_ms_at_start", clone_start},
                             {"clone_ms_at_depth", clone_depth}});
  } catch (const std::exception& e) {
    out << "server bench failed: " << e.what() << "\n";
    status = 2;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  return status;
}

}  // namespace tabula
