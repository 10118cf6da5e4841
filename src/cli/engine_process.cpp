#include "cli/engine_process.h"

#include <csignal>
#include <fcntl.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace tabula {

EngineProcess::EngineProcess(const std::string& command) : command_(command) {
  // Close-on-exec from the start: a program started later (by another thread, or after this one) must not
  // inherit this one's ends of the pipes. If it did, closing this program's input would not end it (another
  // process still holds a writer) and the waitpid of the destructor would wait for ever: the arena hung so
  // with two threads, each waiting for its program while the other's held its pipe open.
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error("pipe: cannot start " + command);
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    throw std::runtime_error("pipe: cannot start " + command);
  }
  pid_ = fork();
  if (pid_ < 0) {
    for (const int fd : {in[0], in[1], out[0], out[1]}) close(fd);
    throw std::runtime_error("fork: cannot start " + command);
  }
  if (pid_ == 0) {
    // dup2 gives the copies on 0 and 1 no close-on-exec; the originals close at exec.
    const auto onto = [](int from, int to) {
      if (from == to) fcntl(to, F_SETFD, 0);  // already there: only the flag to clear
      else dup2(from, to);
    };
    onto(in[0], STDIN_FILENO);
    onto(out[1], STDOUT_FILENO);
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
