#include "server/ai_workers.h"

#include <cstdio>
#include <exception>

namespace tabula::server {

namespace {

ai::Choice run_job(const AiWorkers::Job& job, const std::atomic<bool>& stop) {
  try {
    return job(stop);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ai: a search failed: %s\n", e.what());
    return ai::Choice{};  // an empty move: the completion knows the search gave nothing
  }
}

// A search that was stopped before it finished its first iteration has nothing worth playing.
bool found_something(const ai::Choice& c) {
  return !c.move.empty() && c.info.is_object() && c.info.value("depth", 0) >= 1;
}

}  // namespace

AiWorkers::AiWorkers(int threads, Post post) : post_(std::move(post)) {
  if (threads < 1) threads = 1;
  for (int i = 0; i < threads; ++i) slots_.push_back(std::make_unique<Slot>());
  for (auto& slot : slots_) threads_.emplace_back([this, s = slot.get()] { move_loop(*s); });
  threads_.emplace_back([this] { offer_loop(); });
}

AiWorkers::~AiWorkers() { stop(); }

void AiWorkers::submit(Lane lane, Job job, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    Item item{std::move(job), std::move(done)};
    switch (lane) {
      case Lane::offer: offers_.push_back(std::move(item)); break;
      case Lane::interactive:
        interactive_.push_back(std::move(item));
        yield_one_background();
        break;
      case Lane::background: background_.push_back(std::move(item)); break;
    }
  }
  if (lane == Lane::offer)
    offer_cv_.notify_one();
  else
    move_cv_.notify_one();
}

void AiWorkers::yield_one_background() {
  // A free thread will take the interactive job; otherwise one background search makes room.
  for (const auto& s : slots_)
    if (!s->busy) return;
  for (const auto& s : slots_) {
    if (s->background && !s->yielded) {
      s->yielded = true;
      s->stop.store(true);
      ++yields_;
      return;
    }
  }
}

void AiWorkers::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    interactive_.clear();
    background_.clear();
    offers_.clear();
    for (auto& s : slots_) s->stop.store(true);
    offer_stop_.store(true);
  }
  move_cv_.notify_all();
  offer_cv_.notify_all();
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

std::size_t AiWorkers::busy() const {
  std::lock_guard lock(mutex_);
  std::size_t running = offers_running_;
  for (const auto& s : slots_) running += s->busy ? 1 : 0;
  return interactive_.size() + background_.size() + offers_.size() + running;
}

std::size_t AiWorkers::yields() const {
  std::lock_guard lock(mutex_);
  return yields_;
}

void AiWorkers::move_loop(Slot& slot) {
  for (;;) {
    Item item;
    {
      std::unique_lock lock(mutex_);
      move_cv_.wait(lock, [this] { return stopping_ || !interactive_.empty() || !background_.empty(); });
      if (stopping_) return;
      std::deque<Item>& from = interactive_.empty() ? background_ : interactive_;
      slot.background = &from == &background_;
      item = std::move(from.front());
      from.pop_front();
      slot.busy = true;
      slot.yielded = false;
      slot.stop.store(false);
    }
    ai::Choice choice = run_job(item.job, slot.stop);
    {
      std::lock_guard lock(mutex_);
      slot.busy = false;
      if (stopping_) return;
      if (slot.yielded && !found_something(choice)) {
        // It gave way before it had anything to play: it waits for its turn again, first in line.
        background_.push_front(std::move(item));
        continue;
      }
    }
    // Posting happens outside the lock; stop() joins this thread before the poster goes away.
    post_([done = std::move(item.done), c = std::move(choice)]() mutable { done(std::move(c)); });
  }
}

void AiWorkers::offer_loop() {
  for (;;) {
    Item item;
    {
      std::unique_lock lock(mutex_);
      offer_cv_.wait(lock, [this] { return stopping_ || !offers_.empty(); });
      if (stopping_) return;
      item = std::move(offers_.front());
      offers_.pop_front();
      ++offers_running_;
    }
    ai::Choice choice = run_job(item.job, offer_stop_);
    {
      std::lock_guard lock(mutex_);
      --offers_running_;
      if (stopping_) return;
    }
    post_([done = std::move(item.done), c = std::move(choice)]() mutable { done(std::move(c)); });
  }
}

}  // namespace tabula::server
