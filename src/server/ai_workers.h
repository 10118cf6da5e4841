// A small pool of threads that run AI searches away from the server's I/O thread. A job computes an
// ai::Choice; its result is handed to `post`, which the HTTP layer wraps in asio::post so that the
// completion runs back on the I/O thread (the game service is not thread-safe).
#pragma once

#include "ai/ai.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tabula::server {

class AiWorkers {
 public:
  // Runs on a worker thread; `stop` becomes true at shutdown (pass it to ai::choose_move).
  using Job = std::function<ai::Choice(const std::atomic<bool>& stop)>;
  // Runs wherever `post` sends it (the I/O thread).
  using Done = std::function<void(ai::Choice)>;
  using Post = std::function<void(std::function<void()>)>;

  AiWorkers(int threads, Post post);
  ~AiWorkers();
  AiWorkers(const AiWorkers&) = delete;
  AiWorkers& operator=(const AiWorkers&) = delete;

  void submit(Job job, Done done);
  // Stops running searches, drops queued jobs and joins the threads; nothing is posted afterwards.
  // Idempotent.
  void stop();
  // Jobs queued or running.
  std::size_t busy() const;

 private:
  void loop();

  Post post_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::pair<Job, Done>> queue_;
  std::size_t running_ = 0;
  bool stopping_ = false;
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace tabula::server
