// `tabula arena`: matches between AI configurations (levels of this build, other programs speaking the engine
// protocol) on every core, and the tables docs/strength.md is made of.
//
// A configuration is NAME=SPEC, SPEC a comma-separated list: level=N (1-5), nodes=N or ms=N (the level's own
// budget otherwise), depth=N, and cmd=COMMAND for another program (a Tabula binary, to which " engine" is
// added, or a whole command line). The referee (this process) holds the true game; a program is told the
// setups and every move, and asked {"cmd":"ai",…} on its seat's turn, which answers from that seat's view.
#include "ai/match.h"
#include "cli/commands.h"
#include "cli/engine_process.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace tabula {

namespace {

struct Contestant {
  std::string name;
  std::string spec;     // as given
  ai::Limits limits;    // level and budget (for a program: what its `ai` request asks)
  std::string command;  // empty: this build, in this process
};

uint64_t number(const std::string& key, const std::string& value, uint64_t low, uint64_t high) {
  size_t used = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || value.empty() || n < low || n > high)
    throw std::invalid_argument(key + " must be a whole number from " + std::to_string(low) + " to " + std::to_string(high));
  return n;
}

Contestant parse_contestant(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw std::invalid_argument("a contestant is NAME=SPEC: " + text);
  Contestant c;
  c.name = text.substr(0, eq);
  c.spec = text.substr(eq + 1);
  // A level's own budget is left unset: choose_move (or the program) takes the level's budget in the game played.
  c.limits.level = 3;
  bool level_given = false;
  std::optional<uint64_t> nodes;
  std::optional<int> ms;
  std::stringstream parts(c.spec);
  std::string part;
  while (std::getline(parts, part, ',')) {
    const size_t e = part.find('=');
    if (e == std::string::npos) throw std::invalid_argument("expected key=value in " + text + ": " + part);
    const std::string key = part.substr(0, e), value = part.substr(e + 1);
    if (key == "level") {
      c.limits.level = static_cast<int>(number(key, value, ai::kMinLevel, ai::kMaxLevel));
      level_given = true;
    } else if (key == "nodes") {
      nodes = number(key, value, 1, 1'000'000'000);
    } else if (key == "ms") {
      ms = static_cast<int>(number(key, value, 1, 600'000));
    } else if (key == "depth") {
      c.limits.depth = static_cast<int>(number(key, value, 1, 60));
    } else if (key == "cmd") {
      c.command = value.find(' ') == std::string::npos ? value + " engine" : value;
    } else {
      throw std::invalid_argument("unknown key " + key + " in " + text + " (level, nodes, ms, depth, cmd)");
    }
  }
  if (!level_given) throw std::invalid_argument("a contestant needs level=N: " + text);
  if (nodes && ms) throw std::invalid_argument("give nodes or ms, not both: " + text);
  if (nodes) {
    c.limits.nodes = nodes;
    c.limits.ms.reset();
  }
  if (ms) {
    c.limits.ms = ms;
    c.limits.nodes.reset();
  }
  if (c.command.empty() && c.limits.depth && c.limits.level == 1) c.limits.depth.reset();
  return c;
}

// A program speaking the engine protocol, kept in step with the referee's game.
class ProgramMover : public ai::Mover {
 public:
  explicit ProgramMover(const Contestant& c) : contestant_(c) {}

  void start(const std::string& game, const json& options, const std::vector<json>& placements) override {
    pending_.clear();
    if (!process_) process_ = std::make_unique<EngineProcess>(contestant_.command);
    try {
      process_->request(json{{"cmd", "new"}, {"game", game}, {"options", options}});
      for (size_t p = 0; p < placements.size(); ++p)
        process_->request(json{{"cmd", "setup"}, {"player", p}, {"placement", placements[p]}});
      broken_.clear();
    } catch (const std::exception& e) {
      broken_ = e.what();
      process_.reset();  // started afresh at the next game
    }
  }
  void moved(const std::string& move) override { pending_.push_back(move); }
  ai::Choice choose(const Game&, uint64_t seed) override {
    if (!broken_.empty() || !process_) throw std::runtime_error(broken_.empty() ? "no program" : broken_);
    try {
      for (const std::string& m : pending_) process_->request(json{{"cmd", "play"}, {"move", m}});
      pending_.clear();
      json request{{"cmd", "ai"}, {"level", contestant_.limits.level}, {"seed", seed}};
      if (contestant_.limits.nodes) request["nodes"] = *contestant_.limits.nodes;
      if (contestant_.limits.ms) request["ms"] = *contestant_.limits.ms;
      const json answer = process_->request(request);
      return ai::Choice{answer.at("move").get<std::string>(), answer.value("info", json::object())};
    } catch (const std::exception& e) {
      broken_ = e.what();
      process_.reset();
      throw;
    }
  }

 private:
  Contestant contestant_;
  std::unique_ptr<EngineProcess> process_;
  std::vector<std::string> pending_;
  std::string broken_;
};

std::unique_ptr<ai::Mover> mover_for(const Contestant& c) {
  if (c.command.empty()) return std::make_unique<ai::LevelMover>(c.limits);
  return std::make_unique<ProgramMover>(c);
}

std::string percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * x);
  return buf;
}

std::string elo_text(double e) {
  if (std::isinf(e)) return e > 0 ? "+∞" : "−∞";
  if (std::fabs(e) < 0.5) return "0";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f", e);
  return buf;
}

std::string with_commas(double x) {
  const long long n = std::llround(x);
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (n < 0 ? "-" : "") + out;
}

struct Pairing {
  size_t a, b;  // indices into the contestants; a is the row's subject ("a's score")
};

std::vector<Pairing> schedule(const std::string& kind, size_t n) {
  std::vector<Pairing> out;
  if (kind == "round-robin") {
    for (size_t i = 0; i < n; ++i)
      for (size_t j = i + 1; j < n; ++j) out.push_back({j, i});
  } else if (kind == "gauntlet") {
    for (size_t j = 1; j < n; ++j) out.push_back({0, j});
  } else if (kind == "ladder") {
    for (size_t i = 1; i < n; ++i) out.push_back({i, i - 1});
  } else {
    throw std::invalid_argument("schedule is round-robin, gauntlet or ladder, not " + kind);
  }
  if (out.empty()) throw std::invalid_argument("an arena needs at least two contestants");
  return out;
}

struct Section {
  std::string heading, text, game, schedule_kind = "round-robin", setup = "random";
  json options = json::object();
  std::vector<Contestant> contestants;
  int games = 100, max_plies = 1000, opening_plies = 0;
  uint64_t seed = 1;
};

// A contestant's name as part of a file name: letters, digits, '-' and '.' kept, anything else '_'.
std::string file_part(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
  return out;
}

// Plays every pairing's games on `threads` threads and returns each pairing's result. With `records` (a
// directory), each game's text record goes to records/s<section>-<a>-vs-<b>-g<game>.txt.
std::vector<ai::MatchResult> play_section(const Section& sec, int section, int threads, bool quiet,
                                          const std::string& records) {
  const std::vector<Pairing> pairs = schedule(sec.schedule_kind, sec.contestants.size());
  struct Task {
    size_t pair;
    int game;
  };
  std::vector<Task> tasks;
  for (size_t p = 0; p < pairs.size(); ++p)
    for (int g = 0; g < sec.games; ++g) tasks.push_back({p, g});
  std::vector<ai::MatchResult> per_task(tasks.size());
  std::atomic<size_t> next{0};
  std::mutex report;
  std::vector<ai::MatchResult> so_far(pairs.size());
  const auto start = std::chrono::steady_clock::now();

  auto worker = [&] {
    // Each thread its own movers: a program plays one game at a time.
    std::vector<std::unique_ptr<ai::Mover>> movers;
    for (const Contestant& c : sec.contestants) movers.push_back(mover_for(c));
    for (;;) {
      const size_t t = next.fetch_add(1);
      if (t >= tasks.size()) break;
      const Pairing& pr = pairs[tasks[t].pair];
      ai::MatchConfig config;
      config.game = sec.game;
      config.options = sec.options;
      config.seed = sec.seed;
      config.max_plies = sec.max_plies;
      config.setup = sec.setup;
      config.opening_plies = sec.opening_plies;
      config.paired = true;
      if (!records.empty()) {
        config.a_name = sec.contestants[pr.a].name;
        config.b_name = sec.contestants[pr.b].name;
        config.record_to = records + "/s" + std::to_string(section) + "-" + file_part(config.a_name) + "-vs-" +
                           file_part(config.b_name) + "-g" + std::to_string(tasks[t].game + 1) + ".txt";
      }
      per_task[t] = ai::play_game(config, tasks[t].game, *movers[pr.a], *movers[pr.b]);
      std::lock_guard<std::mutex> lock(report);
      ai::MatchResult& total = so_far[tasks[t].pair];
      total.add(per_task[t]);
      if (!quiet) {
        const ai::MatchResult& r = per_task[t];
        const char* outcome = r.a_wins ? "won by" : r.b_wins ? "lost by" : "drawn by";
        std::fprintf(stderr, "%s vs %s, game %d: %s %s in %lld plies (%s)%s; %d-%d-%d so far; %.0f s\n",
                     sec.contestants[pr.a].name.c_str(), sec.contestants[pr.b].name.c_str(), tasks[t].game + 1, outcome,
                     sec.contestants[pr.a].name.c_str(), r.plies, r.last_end.c_str(),
                     r.forfeits_a + r.forfeits_b ? " (a side failed)" : "",
                     total.a_wins, total.draws, total.b_wins,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        std::fflush(stderr);
      }
    }
  };
  std::vector<std::thread> pool;
  for (int i = 0; i < std::max(threads, 1); ++i) pool.emplace_back(worker);
  for (std::thread& th : pool) th.join();

  // Summed in game order, so the result does not depend on which thread played what.
  std::vector<ai::MatchResult> out(pairs.size());
  for (size_t t = 0; t < tasks.size(); ++t) out[tasks[t].pair].add(per_task[t]);
  return out;
}

std::string section_table(const Section& sec, const std::vector<ai::MatchResult>& results) {
  const std::vector<Pairing> pairs = schedule(sec.schedule_kind, sec.contestants.size());
  std::ostringstream md;
  md << "| a | b | games | a–draws–b | a's score | 95% interval | Elo (a − b) | 95% interval | plies a game | "
        "a: nodes, ms a move | b: nodes, ms a move |\n";
  md << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (size_t p = 0; p < pairs.size(); ++p) {
    const ai::MatchResult& r = results[p];
    const auto [lo, hi] = r.a_score_interval();
    const ai::EloDifference e = ai::elo_difference(r.a_wins, r.draws, r.b_wins);
    auto per_move = [](double total, long long moves) { return moves ? total / static_cast<double>(moves) : 0.0; };
    char effort_a[96], effort_b[96];
    std::snprintf(effort_a, sizeof effort_a, "%s, %.1f", with_commas(per_move(static_cast<double>(r.a_nodes), r.a_moves)).c_str(),
                  per_move(static_cast<double>(r.a_ms), r.a_moves));
    std::snprintf(effort_b, sizeof effort_b, "%s, %.1f", with_commas(per_move(static_cast<double>(r.b_nodes), r.b_moves)).c_str(),
                  per_move(static_cast<double>(r.b_ms), r.b_moves));
    char plies[32];
    std::snprintf(plies, sizeof plies, "%.1f", per_move(static_cast<double>(r.plies), r.games()));
    md << "| " << sec.contestants[pairs[p].a].name << " | " << sec.contestants[pairs[p].b].name << " | " << r.games()
       << " | " << r.a_wins << "–" << r.draws << "–" << r.b_wins << " | " << percent(r.a_score()) << " | " << percent(lo)
       << "–" << percent(hi) << " | " << elo_text(e.elo) << " | " << elo_text(e.low) << " to " << elo_text(e.high) << " | "
       << plies << " | " << effort_a << " | " << effort_b << " |\n";
  }
  int adjudicated = 0, redrawn = 0, forfeits = 0;
  for (const ai::MatchResult& r : results) {
    adjudicated += r.adjudicated;
    redrawn += r.setups_redrawn;
    forfeits += r.forfeits_a + r.forfeits_b;
  }
  md << "\n" << adjudicated << " games adjudicated a draw at " << sec.max_plies << " plies; " << redrawn
     << " setups redrawn; " << forfeits << " games lost by a program that failed.\n";
  return md.str();
}

std::string contestants_text(const Section& sec) {
  std::string out;
  for (const Contestant& c : sec.contestants) out += "`" + c.name + "=" + c.spec + "`, ";
  if (!out.empty()) out.resize(out.size() - 2);
  return out;
}

// `text` as one word of a POSIX shell: in single quotes, each single quote inside written '\'' (a name such as
// "today's level 3" would otherwise end the quotes and break the command the document prints).
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string section_command(const Section& sec, int threads) {
  std::string cmd = "tabula arena --game " + sec.game;
  if (!sec.options.empty()) cmd += " --options " + shell_quoted(sec.options.dump());
  for (const Contestant& c : sec.contestants) cmd += " --engine " + shell_quoted(c.name + "=" + c.spec);
  cmd += " --schedule " + sec.schedule_kind + " --games " + std::to_string(sec.games) + " --seed " +
         std::to_string(sec.seed) + " --max-plies " + std::to_string(sec.max_plies) + " --setup " + sec.setup +
         (sec.opening_plies ? " --opening-plies " + std::to_string(sec.opening_plies) : std::string()) +
         " --threads " + std::to_string(threads);
  return cmd;
}

Section section_from_json(const json& j, const ArenaArgs& defaults) {
  Section sec;
  sec.heading = j.value("heading", std::string());
  sec.text = j.value("text", std::string());
  sec.game = j.at("game").get<std::string>();
  sec.options = j.value("options", json::object());
  sec.schedule_kind = j.value("schedule", std::string("round-robin"));
  sec.setup = j.value("setup", std::string("ai"));
  sec.games = static_cast<int>(std::lround(j.value("games", 100) * defaults.scale));
  sec.games = std::max(2, sec.games + (sec.games % 2));  // whole pairs
  sec.seed = j.value("seed", uint64_t{1});
  sec.max_plies = j.value("max_plies", 1000);
  sec.opening_plies = j.value("opening_plies", 0);
  for (const json& e : j.at("engines")) sec.contestants.push_back(parse_contestant(e.get<std::string>()));
  return sec;
}

std::string today() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

}  // namespace

int arena_command(const ArenaArgs& args) {
  try {
    std::vector<Section> sections;
    json doc;
    if (!args.config.empty()) {
      std::ifstream in(args.config);
      if (!in) throw std::invalid_argument("cannot read " + args.config);
      doc = json::parse(in, nullptr, false);
      if (doc.is_discarded() || !doc.is_object()) throw std::invalid_argument(args.config + " is not a JSON object");
      for (const json& s : doc.at("sections")) sections.push_back(section_from_json(s, args));
    } else {
      Section sec;
      sec.game = args.game;
      sec.options = args.options.is_null() ? json::object() : args.options;
      sec.schedule_kind = args.schedule;
      sec.setup = args.setup;
      sec.games = args.games;
      sec.seed = args.seed;
      sec.max_plies = args.max_plies;
      sec.opening_plies = args.opening_plies;
      for (const std::string& e : args.engines) sec.contestants.push_back(parse_contestant(e));
      if (sec.games < 1 || sec.max_plies < 1) throw std::invalid_argument("--games and --max-plies must be at least 1");
      sections.push_back(sec);
    }
    for (const Section& sec : sections) {
      game_kind(sec.game);  // an unknown game is refused before anything is played
      schedule(sec.schedule_kind, sec.contestants.size());
    }

    std::ostringstream out;
    if (!args.config.empty()) {
      out << doc.value("preamble", std::string());
      out << "\n\nGenerated on " << today() << " (UTC)" << (args.commit.empty() ? "" : " from commit `" + args.commit + "`")
          << " by `" << args.invocation << "`" << (args.machine.empty() ? "" : " on " + args.machine) << ".\n";
    }
    if (!args.records.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(args.records, ec);
      if (ec || !std::filesystem::is_directory(args.records))
        throw std::invalid_argument("--records: cannot make the directory " + args.records);
    }
    for (size_t k = 0; k < sections.size(); ++k) {
      const Section& sec = sections[k];
      const int section_number = static_cast<int>(k) + 1;
      if (!args.quiet)
        std::fprintf(stderr, "%s: %s, %s, %d games a pairing, seed %llu, setups %s, %d threads\n", sec.game.c_str(),
                     contestants_text(sec).c_str(), sec.schedule_kind.c_str(), sec.games,
                     static_cast<unsigned long long>(sec.seed), sec.setup.c_str(), args.threads);
      const auto t0 = std::chrono::steady_clock::now();
      const std::vector<ai::MatchResult> results = play_section(sec, section_number, args.threads, args.quiet, args.records);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (!sec.heading.empty()) out << "\n## " << sec.heading << "\n\n";
      if (!sec.text.empty()) out << sec.text << "\n\n";
      out << "```\n$ " << section_command(sec, args.threads) << "\n```\n\n";
      out << section_table(sec, results);
      char took[64];
      std::snprintf(took, sizeof took, "%.0f s", seconds);
      out << "Played in " << took << " on " << args.threads << " threads.\n";
    }
    if (!args.config.empty()) out << doc.value("postscript", std::string());
    if (args.out.empty()) {
      std::fputs(out.str().c_str(), stdout);
    } else {
      std::ofstream file(args.out);
      file << out.str();
      if (!file) throw std::runtime_error("cannot write " + args.out);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arena: %s\n", e.what());
    return 1;
  }
}

}  // namespace tabula
