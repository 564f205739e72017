// Every task runs once, on a worker no other task holds at the time; the
// error of the lowest failing task is the one rethrown; a pool of one runs
// on the caller.
#include "train/image/worker_pool.h"

#include <atomic>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace train {
namespace {

TEST(WorkerPoolTest, EveryTaskRunsOnceOnAWorkerItHoldsAlone) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  for (int size : {1, 2, 3, 5}) {
    WorkerPool pool(size);
    ASSERT_EQ(pool.size(), size);
    for (int run = 0; run < 20; ++run) {
      const int count = rng() % 50;
      std::vector<std::atomic<int>> runs(count);
      std::vector<std::atomic<int>> busy(size);
      std::atomic<bool> shared_worker{false};
      pool.Run(count, [&](int task, int worker) {
        ASSERT_GE(worker, 0);
        ASSERT_LT(worker, size);
        if (busy[worker].fetch_add(1) != 0) shared_worker = true;
        std::this_thread::yield();
        busy[worker].fetch_sub(1);
        runs[task].fetch_add(1);
      });
      EXPECT_FALSE(shared_worker);
      for (int task = 0; task < count; ++task) {
        ASSERT_EQ(runs[task].load(), 1) << "task " << task;
      }
    }
  }
}

TEST(WorkerPoolTest, RethrowsTheLowestFailingTask) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  WorkerPool pool(3);
  const int count = 10 + rng() % 30;
  const int first_bad = rng() % count;
  std::atomic<int> ran{0};
  EXPECT_THAT(
      [&] {
        pool.Run(count, [&](int task, int) {
          ++ran;
          if (task >= first_bad && task % 2 == first_bad % 2) {
            throw std::runtime_error("task " + std::to_string(task));
          }
        });
      },
      ::testing::ThrowsMessage<std::runtime_error>("task " +
                                                   std::to_string(first_bad)));
  EXPECT_EQ(ran.load(), count);
  // The pool is usable after an error.
  ran = 0;
  pool.Run(7, [&](int, int) { ++ran; });
  EXPECT_EQ(ran.load(), 7);
}

TEST(WorkerPoolTest, APoolOfOneRunsOnTheCaller) {
  WorkerPool pool(1);
  const std::thread::id caller = std::this_thread::get_id();
  pool.Run(5, [&](int, int worker) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    EXPECT_EQ(worker, 0);
  });
}

}  // namespace
}  // namespace train
}  // namespace umbra
