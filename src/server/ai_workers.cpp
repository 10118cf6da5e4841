#include "server/ai_workers.h"

#include <cstdio>
#include <exception>

namespace tabula::server {

AiWorkers::AiWorkers(int threads, Post post) : post_(std::move(post)) {
  if (threads < 1) threads = 1;
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { loop(); });
}

AiWorkers::~AiWorkers() { stop(); }

void AiWorkers::submit(Job job, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    queue_.emplace_back(std::move(job), std::move(done));
  }
  cv_.notify_one();
}

void AiWorkers::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    queue_.clear();
  }
  stop_.store(true);
  cv_.notify_all();
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

std::size_t AiWorkers::busy() const {
  std::lock_guard lock(mutex_);
  return queue_.size() + running_;
}

void AiWorkers::loop() {
  for (;;) {
    std::pair<Job, Done> item;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      item = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    ai::Choice choice;
    try {
      choice = item.first(stop_);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ai: a search failed: %s\n", e.what());
      choice = ai::Choice{};  // an empty move: the completion knows the search gave nothing
    }
    {
      std::lock_guard lock(mutex_);
      --running_;
      if (stopping_) return;
    }
    // Posting happens outside the lock; stop() joins this thread before the poster goes away.
    post_([done = std::move(item.second), c = std::move(choice)]() mutable { done(std::move(c)); });
  }
}

}  // namespace tabula::server
