// The threads that run AI work away from the server's I/O thread, in three lanes:
//   offer       answers to draw and stalemate offers: short (a bounded node budget), on a thread of their
//               own, so an answer never waits behind a search;
//   interactive move searches for games with a person in them;
//   background  move searches for AI-only games. They run only when no interactive search waits, and a
//               running one yields (its stop flag is raised; it plays the best move found so far, or goes
//               back to the queue if it found none) when an interactive search arrives and every move
//               thread is busy.
// A job computes an ai::Choice; its result is handed to `post`, which the HTTP layer wraps in asio::post so
// that the completion runs back on the I/O thread (the game service is not thread-safe). The service keeps
// at most one job per game and lane in flight, so a queue grows with the number of games, not of requests.
#pragma once

#include "ai/ai.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tabula::server {

class AiWorkers {
 public:
  enum class Lane { offer, interactive, background };
  // Runs on a worker thread; `stop` becomes true at shutdown or when the job must yield (pass it to
  // ai::choose_move, which then answers with the best move found so far).
  using Job = std::function<ai::Choice(const std::atomic<bool>& stop)>;
  // Runs wherever `post` sends it (the I/O thread).
  using Done = std::function<void(ai::Choice)>;
  using Post = std::function<void(std::function<void()>)>;

  // `threads` move threads (at least 1) and one offer thread.
  AiWorkers(int threads, Post post);
  ~AiWorkers();
  AiWorkers(const AiWorkers&) = delete;
  AiWorkers& operator=(const AiWorkers&) = delete;

  void submit(Lane lane, Job job, Done done);
  // Stops running searches, drops queued jobs and joins the threads; nothing is posted afterwards.
  // Idempotent.
  void stop();
  // Jobs queued or running, in every lane.
  std::size_t busy() const;
  // Background searches that were asked to yield, since the start (for tests and logs).
  std::size_t yields() const;

 private:
  struct Item {
    Job job;
    Done done;
  };
  struct Slot {  // one per move thread
    std::atomic<bool> stop{false};
    bool busy = false;
    bool background = false;
    bool yielded = false;
  };
  void move_loop(Slot& slot);
  void offer_loop();
  void yield_one_background();  // with mutex_ held

  Post post_;
  mutable std::mutex mutex_;
  std::condition_variable move_cv_;
  std::condition_variable offer_cv_;
  std::deque<Item> interactive_;
  std::deque<Item> background_;
  std::deque<Item> offers_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::size_t offers_running_ = 0;
  std::size_t yields_ = 0;
  bool stopping_ = false;
  std::atomic<bool> offer_stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace tabula::server
