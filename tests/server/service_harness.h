// The game service under test (tests only): a service over a temporary database with real AI worker threads
// whose completions run on the test's thread, and the small helpers the service's tests share.
#pragma once

#include "server/ai_workers.h"
#include "server/game_service.h"
#include "server/storage.h"

#include <gtest/gtest.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace tabula::server::test_support {

namespace fs = std::filesystem;
using tabula::json;

// A service over a temporary database, with real AI worker threads whose completions are queued here
// and run on the test's thread (as the server runs them on its I/O thread).
class Harness {
 public:
  explicit Harness(GameService::Config config = quick_config()) : config_(config) {
    std::string tmpl = (fs::temp_directory_path() / "tabula-service-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
    open();
  }
  ~Harness() {
    close();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  static GameService::Config quick_config() {
    GameService::Config c;
    c.ai_ms = 20;
    return c;
  }

  void open() {
    storage_ = std::make_unique<Storage>(db().string());
    workers_ = std::make_unique<AiWorkers>(1, [this](std::function<void()> fn) {
      std::lock_guard lock(mutex_);
      posted_.push_back(std::move(fn));
    });
    service_ = std::make_unique<GameService>(
        *storage_,
        [this](AiWorkers::Lane lane, AiWorkers::Job job, AiWorkers::Done done) {
          workers_->submit(lane, std::move(job), std::move(done));
        },
        config_);
  }
  // Like stopping the server: nothing in flight survives, only what was stored.
  void close() {
    if (workers_) workers_->stop();
    {
      std::lock_guard lock(mutex_);
      posted_.clear();
    }
    service_.reset();
    workers_.reset();
    storage_.reset();
  }
  void restart() {
    close();
    open();
  }

  // Runs AI completions until `done` holds (or 20 s pass).
  bool pump_until(const std::function<bool()>& done) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      if (done()) return true;
      std::deque<std::function<void()>> batch;
      {
        std::lock_guard lock(mutex_);
        batch.swap(posted_);
      }
      for (auto& fn : batch) fn();
      if (batch.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return done();
  }

  GameService& svc() { return *service_; }
  fs::path db() const { return dir_ / "tabula.db"; }

 private:
  GameService::Config config_;
  fs::path dir_;
  std::mutex mutex_;
  std::deque<std::function<void()>> posted_;
  std::unique_ptr<Storage> storage_;
  std::unique_ptr<AiWorkers> workers_;
  std::unique_ptr<GameService> service_;
};

// The HTTP status a call ends with (200 when it succeeds).
inline int status(const std::function<void()>& f) {
  try {
    f();
    return 200;
  } catch (const GameError& e) {
    return http_status(e.kind());
  }
}

inline json two_humans() {
  return json::parse(R"({"game":"tigadi","seats":[{"type":"human","name":"Ana"},{"type":"human","name":"Bo"}]})");
}

inline json mv(const std::string& m) { return json{{"move", m}}; }

inline GameService::Token tok(const json& created, int seat) { return created["tokens"][std::to_string(seat)].get<std::string>(); }

}  // namespace tabula::server::test_support
