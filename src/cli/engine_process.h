// Another program speaking the engine protocol (../shared/spec/engine-protocol.md) on its standard input and
// output, run as a child process: the arena's way to play an engine it does not link, such as an older build
// of Tabula or an outside engine behind an adapter.
#pragma once

#include "core/json.h"

#include <cstdio>
#include <string>
#include <sys/types.h>

namespace tabula {

class EngineProcess {
 public:
  // Starts `command` (run by /bin/sh, so it may carry arguments). Throws std::runtime_error when it cannot.
  explicit EngineProcess(const std::string& command);
  ~EngineProcess();  // closes its input (the protocol's end) and waits for it
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  // Sends one request and returns its response. Throws std::runtime_error when the program has gone, answers
  // what is not JSON, or answers ok:false (with its error).
  json request(const json& request);

 private:
  pid_t pid_ = -1;
  FILE* to_ = nullptr;    // the program's standard input
  FILE* from_ = nullptr;  // its standard output
  std::string command_;
};

}  // namespace tabula
