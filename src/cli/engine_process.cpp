#include "cli/engine_process.h"

#include <csignal>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace tabula {

EngineProcess::EngineProcess(const std::string& command) : command_(command) {
  int in[2], out[2];
  if (pipe(in) != 0) throw std::runtime_error("pipe: cannot start " + command);
  if (pipe(out) != 0) {
    close(in[0]);
    close(in[1]);
    throw std::runtime_error("pipe: cannot start " + command);
  }
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork: cannot start " + command);
  if (pid_ == 0) {
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  to_ = fdopen(in[1], "w");
  from_ = fdopen(out[0], "r");
  // A program that dies must not kill the arena with SIGPIPE: the write fails and request() says so.
  std::signal(SIGPIPE, SIG_IGN);
}

EngineProcess::~EngineProcess() {
  if (to_) std::fclose(to_);
  if (from_) std::fclose(from_);
  if (pid_ > 0) {
    int status = 0;
    waitpid(pid_, &status, 0);
  }
}

json EngineProcess::request(const json& request) {
  const std::string line = request.dump() + "\n";
  if (std::fputs(line.c_str(), to_) < 0 || std::fflush(to_) != 0)
    throw std::runtime_error(command_ + ": the program has gone");
  std::string answer;
  char buf[65536];
  for (;;) {
    if (!std::fgets(buf, sizeof buf, from_)) throw std::runtime_error(command_ + ": the program has gone");
    answer += buf;
    if (!answer.empty() && answer.back() == '\n') break;
  }
  json response = json::parse(answer, nullptr, false);
  if (response.is_discarded() || !response.is_object()) throw std::runtime_error(command_ + ": answered what is not JSON");
  if (!response.value("ok", false))
    throw std::runtime_error(command_ + ": " + response.value("error", std::string("refused ")) + " (to " + request.dump() + ")");
  return response;
}

}  // namespace tabula
