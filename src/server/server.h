// `tabula serve`: the browser UI and the HTTP/WebSocket API of shared/spec/server-api.md on one port.
#pragma once

#include "server/admission.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace tabula::server {

struct Options {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string db_path;   // empty: default_db_path()
  std::string web_root;  // the folder of the browser UI
  int ai_threads = 1;    // worker threads for AI seats (never the I/O thread)
  int ai_ms = 0;         // 0: each level's default budget; otherwise the AI's thinking time per move
  uint64_t ai_nodes = 0; // 0: as above; otherwise the AI's node budget per search (over ai_ms)
  uint64_t test_seed = 0;  // 0: secret seeds; otherwise replayable ones, for tests only (GameService::Config)
  std::size_t max_body = 64 * 1024;
  Limits limits;         // per address and in total: admission.h, docs/server.md
};

// $XDG_DATA_HOME/tabula/tabula.db, else ~/.local/share/tabula/tabula.db (folders are created).
std::string default_db_path();

// Runs until SIGINT/SIGTERM; returns the process exit status (non-zero with a clear message on stderr
// when the database cannot be opened, e.g. a corrupt file, or the port is taken).
int run(const Options& options);

}  // namespace tabula::server
