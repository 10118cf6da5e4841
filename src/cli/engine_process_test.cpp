// The arena's child programs (EngineProcess): each holds only its own pipes, so each ends when its input
// closes, in whatever order the programs are closed.
#include "cli/engine_process.h"

#include <gtest/gtest.h>

#include <memory>

namespace tabula {
namespace {

// A program that answers every line with the number of file descriptors it had when it started. The shell counts
// its own by a glob, with no child: `$(ls /proc/$$/fd | wc -l)` listed the shell's descriptors from a child
// while the shell could still hold the write end of that substitution's pipe, one more now and then (seen once in
// make test: 8 against 7).
constexpr const char* kCountsItsDescriptors =
    R"(n=0; for fd in /proc/$$/fd/*; do n=$((n+1)); done; while read -r line; do echo "{\"ok\":true,\"fds\":$n}"; done)";

// The second program started must not hold the first's pipes: it then has exactly as many descriptors as the
// first. With pipes that stay open across exec it had two more (the first's input writer and output reader),
// and closing the first program's input no longer ended it: the arena's destructor waited for ever.
TEST(EngineProcess, AProgramHoldsNoOtherProgramsPipesAndEndsWhenItsInputCloses) {
  auto first = std::make_unique<EngineProcess>(kCountsItsDescriptors);
  auto second = std::make_unique<EngineProcess>(kCountsItsDescriptors);
  const int first_fds = first->request({{"cmd", "hello"}}).at("fds").get<int>();
  const int second_fds = second->request({{"cmd", "hello"}}).at("fds").get<int>();
  ASSERT_EQ(second_fds, first_fds) << "the second program inherited the first's pipes";
  // Closed in the order they started (the order that hung): each ends, and is waited for, while the other runs.
  first.reset();
  EXPECT_EQ(second->request({{"cmd", "still there"}}).at("fds").get<int>(), second_fds);
  second.reset();
}

TEST(EngineProcess, AProgramThatIsNotThereIsAnErrorNotAHang) {
  EngineProcess gone("exit 3");
  EXPECT_THROW(gone.request({{"cmd", "hello"}}), std::runtime_error);
}

}  // namespace
}  // namespace tabula
