// The AI lanes: a game with a person waiting is served before AI-only games, a running AI-only search
// yields to it, and offer answers never wait behind searches. Jobs here are stand-ins that block until
// the test (or their stop flag) releases them, so every ordering is decided by events, not by a clock.
#include "server/ai_workers.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

using namespace tabula;
using namespace tabula::server;
using Lane = AiWorkers::Lane;

namespace {

// What ran, in order, and a gate that holds jobs until opened.
class Script {
 public:
  void started(const std::string& name) {
    std::lock_guard lock(m_);
    started_.push_back(name);
    cv_.notify_all();
  }
  void finished(const std::string& name) {
    std::lock_guard lock(m_);
    finished_.push_back(name);
    cv_.notify_all();
  }
  void open_gate() {
    std::lock_guard lock(m_);
    open_ = true;
    cv_.notify_all();
  }
  // Blocks until the gate opens or `stop` is raised; true when stopped.
  bool hold(const std::atomic<bool>& stop) {
    std::unique_lock lock(m_);
    while (!open_ && !stop.load()) cv_.wait_for(lock, std::chrono::milliseconds(1));
    return stop.load();
  }
  // Waits (bounded) until `n` jobs have finished.
  bool wait_finished(size_t n) {
    std::unique_lock lock(m_);
    return cv_.wait_for(lock, std::chrono::seconds(20), [&] { return finished_.size() >= n; });
  }
  bool wait_started(const std::string& name) {
    std::unique_lock lock(m_);
    return cv_.wait_for(lock, std::chrono::seconds(20), [&] {
      for (const auto& s : started_)
        if (s == name) return true;
      return false;
    });
  }
  std::vector<std::string> finished() {
    std::lock_guard lock(m_);
    return finished_;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool open_ = false;
  std::vector<std::string> started_, finished_;
};

// A job that plays `move` at depth 1 once released, or reports a stop: with a move (it had searched a
// ply) when `searched` is true, with nothing otherwise.
AiWorkers::Job job(Script& s, std::string name, bool searched = true) {
  return [&s, name, searched](const std::atomic<bool>& stop) {
    s.started(name);
    const bool stopped = s.hold(stop);
    ai::Choice c;
    if (!stopped || searched) {
      c.move = name;
      c.info = json{{"depth", 1}, {"stopped", stopped}};
    }
    return c;
  };
}

AiWorkers::Done done(Script& s) {
  return [&s](ai::Choice c) { s.finished(c.move + (c.info.value("stopped", false) ? " (yielded)" : "")); };
}

// Runs completions on the worker's thread: enough for these tests, which read only the order.
AiWorkers::Post inline_post() {
  return [](std::function<void()> fn) { fn(); };
}

}  // namespace

TEST(AiWorkers, AnInteractiveSearchMakesARunningBackgroundSearchYield) {
  Script s;
  AiWorkers w(1, inline_post());
  w.submit(Lane::background, job(s, "bg1"), done(s));
  ASSERT_TRUE(s.wait_started("bg1"));
  w.submit(Lane::background, job(s, "bg2"), done(s));
  w.submit(Lane::interactive, job(s, "human"), done(s));
  ASSERT_TRUE(s.wait_started("human"));
  s.open_gate();
  ASSERT_TRUE(s.wait_finished(3));
  EXPECT_EQ(s.finished(), (std::vector<std::string>{"bg1 (yielded)", "human", "bg2"}));
  EXPECT_EQ(w.yields(), 1u);
}

TEST(AiWorkers, ABackgroundSearchThatFoundNothingGoesBackToTheQueue) {
  Script s;
  AiWorkers w(1, inline_post());
  w.submit(Lane::background, job(s, "bg", /*searched=*/false), done(s));
  ASSERT_TRUE(s.wait_started("bg"));
  w.submit(Lane::interactive, job(s, "human"), done(s));
  ASSERT_TRUE(s.wait_started("human"));
  s.open_gate();
  ASSERT_TRUE(s.wait_finished(2));
  EXPECT_EQ(s.finished(), (std::vector<std::string>{"human", "bg"})) << "bg ran again, whole, after the human";
}

TEST(AiWorkers, InteractiveSearchesGoBeforeQueuedBackgroundOnes) {
  Script s;
  AiWorkers w(1, inline_post());
  w.submit(Lane::interactive, job(s, "h1"), done(s));
  ASSERT_TRUE(s.wait_started("h1"));
  w.submit(Lane::background, job(s, "bg"), done(s));
  w.submit(Lane::interactive, job(s, "h2"), done(s));
  s.open_gate();
  ASSERT_TRUE(s.wait_finished(3));
  EXPECT_EQ(s.finished(), (std::vector<std::string>{"h1", "h2", "bg"})) << "no interactive search yields";
  EXPECT_EQ(w.yields(), 0u);
}

TEST(AiWorkers, OfferAnswersDoNotWaitBehindSearches) {
  Script s;
  AiWorkers w(1, inline_post());
  w.submit(Lane::interactive, job(s, "search"), done(s));
  ASSERT_TRUE(s.wait_started("search"));
  w.submit(Lane::offer, [](const std::atomic<bool>&) { return ai::Choice{"answer", json::object()}; }, done(s));
  ASSERT_TRUE(s.wait_finished(1));
  EXPECT_EQ(s.finished().front(), "answer") << "answered while the search still runs";
  s.open_gate();
  ASSERT_TRUE(s.wait_finished(2));
}

TEST(AiWorkers, StopEndsRunningSearchesAndDropsQueuedOnes) {
  Script s;
  AiWorkers w(1, inline_post());
  w.submit(Lane::interactive, job(s, "running"), done(s));
  ASSERT_TRUE(s.wait_started("running"));
  w.submit(Lane::background, job(s, "queued"), done(s));
  EXPECT_EQ(w.busy(), 2u);
  w.stop();
  EXPECT_TRUE(s.finished().empty()) << "nothing is posted after stop";
  w.submit(Lane::interactive, job(s, "late"), done(s));
  EXPECT_EQ(w.busy(), 0u);
}
