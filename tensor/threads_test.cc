// The thread pool and multi-threaded evaluation: every task runs once, each
// thread starts with its own range of tasks, exceptions propagate, nesting
// is serial, and expression results are bitwise identical for 1 and many
// threads on awkward shapes.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_util.h"

namespace umbra {
namespace {

using expr::F;

TEST(ThreadsTest, ParallelForRunsEveryTaskOnce) {
  for (int n : {1, 2, 3, 8}) {
    SetNumThreads(n);
    EXPECT_EQ(GetNumThreads(), n);
    for (int tasks : {0, 1, 5, 64}) {
      std::vector<std::atomic<int>> hits(tasks);
      for (auto& h : hits) h = 0;
      for (int rep = 0; rep < 20; ++rep) {
        ParallelFor(tasks, [&](int i) { hits[i]++; });
      }
      for (int i = 0; i < tasks; ++i) ASSERT_EQ(hits[i].load(), 20) << n;
    }
  }
  SetNumThreads(0);
  EXPECT_GE(GetNumThreads(), 1);
}

// Each thread starts with its own contiguous range of a job's tasks: of 4
// tasks on 2 threads, the caller's are 0 and 1, the worker's 2 and 3. Task 0
// holds the caller until the worker has started a task, which is then the
// first of the worker's range (a pool that handed out tasks in order would
// give it task 1).
TEST(ThreadsTest, EachThreadStartsWithItsOwnRange) {
  SetNumThreads(2);
  const std::thread::id caller = std::this_thread::get_id();
  std::mutex mu;
  std::condition_variable started;
  int first_on_worker = -1;
  std::vector<std::thread::id> ran_on(4);
  ParallelFor(4, [&](int i) {
    std::unique_lock<std::mutex> lock(mu);
    ran_on[i] = std::this_thread::get_id();
    if (ran_on[i] != caller && first_on_worker < 0) {
      first_on_worker = i;
      started.notify_all();
    }
    if (i == 0) {
      // Bounded, so that a broken pool fails the test instead of hanging it.
      started.wait_for(lock, std::chrono::seconds(30),
                       [&] { return first_on_worker >= 0; });
    }
  });
  SetNumThreads(0);
  EXPECT_EQ(ran_on[0], caller);
  EXPECT_EQ(first_on_worker, 2);
}

TEST(ThreadsTest, ExceptionsPropagateAndNestingIsSerial) {
  SetNumThreads(4);
  EXPECT_THROW(ParallelFor(8,
                           [](int i) {
                             if (i == 5) throw std::runtime_error("boom");
                           }),
               std::runtime_error);
  std::atomic<int> inner{0};
  ParallelFor(4, [&](int) { ParallelFor(3, [&](int) { inner++; }); });
  EXPECT_EQ(inner.load(), 12);
  SetNumThreads(0);
}

// Evaluates the same expressions with 1 and n threads; results must match
// bit for bit.
template <typename DType>
void CheckBitwise(const Shape<2>& s, bool strided) {
  test::Rng rng;
  SCOPED_TRACE(::testing::Message() << "shape " << s << " strided " << strided);
  auto a = rng.Tensor<DType>(s, -3, 3, strided);
  auto b = rng.Tensor<DType>(s, 0.5, 3, strided);
  TensorContainer<cpu, 2, DType> one(s, strided), many(s, strided);
  auto run = [&](TensorContainer<cpu, 2, DType>& out) {
    out = a * b + DType(0.5);
    out += F<op::exp>(a) / b;
    out -= F<op::sigmoid>(a * b) + F<op::softplus>(a);
    out *= F<op::relu>(a) + DType(1);
    out = out + F<op::sqrt>(b) * F<op::tanh>(a);
  };
  SetNumThreads(1);
  run(one);
  SetNumThreads(3);
  run(many);
  SetNumThreads(0);
  EXPECT_TRUE(test::BitwiseEqual(one.view(), many.view()));
  // And the result is right (spot check against a reference).
  for (index_t y = 0; y < s[0]; y += 97) {
    for (index_t x = 0; x < s[1]; x += 7) {
      const double av = a[y][x], bv = b[y][x];
      double r = av * bv + 0.5;
      r += std::exp(av) / bv;
      r -= 1 / (1 + std::exp(-av * bv)) + std::log1p(std::exp(av));
      r *= (av > 0 ? av : 0) + 1;
      r = r + std::sqrt(bv) * std::tanh(av);
      ASSERT_NEAR(double(one[y][x]), r, 1e-3 * std::max(1.0, std::fabs(r)));
    }
  }
}

TEST(ThreadsTest, MultiThreadedResultsAreBitwiseIdentical) {
  // Above the default threshold of 1 << 16 elements; odd row lengths put
  // split points in the middle of rows.
  CheckBitwise<float>(Shape2(521, 131), false);
  CheckBitwise<float>(Shape2(1, 70001), false);
  CheckBitwise<double>(Shape2(263, 257), true);
  SetParallelThreshold(1);  // force splitting on tiny tensors too
  CheckBitwise<float>(Shape2(7, 3), false);
  CheckBitwise<double>(Shape2(3, 17), true);
  SetParallelThreshold(1 << 16);
  EXPECT_EQ(GetParallelThreshold(), 1 << 16);
}

TEST(ThreadsTest, ScalarPathSplitsToo) {
  test::Rng rng;
  auto a = rng.Tensor<float>(Shape2(300, 301));
  TensorContainer<cpu, 2, float> one(Shape2(301, 300)), many(Shape2(301, 300));
  SetNumThreads(1);
  one = a.T() * 2.0f;
  SetNumThreads(4);
  many = a.T() * 2.0f;
  SetNumThreads(0);
  EXPECT_TRUE(test::BitwiseEqual(one.view(), many.view()));
  EXPECT_TRUE(test::AllNear(
      many, [&](index_t y, index_t x) { return 2.0 * a[x][y]; }, 0));
}

}  // namespace
}  // namespace umbra
