// The SGD update w = -eta * (g + lambda * w) on 16M floats: the expression
// engine (1 thread and all threads) against a hand-written loop and Eigen,
// plus a STREAM-style triad a = b + s * c for the machine's bandwidth. Every
// case moves 12 bytes per element (two reads, one write), reported as
// bytes_per_second. The hand loops carry `#pragma omp simd` (built with
// -fopenmp-simd) so that they are vectorised at -c opt's -O2 like the engine.
//
//   bazel run -c opt //tensor:update_bench -- --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <Eigen/Core>
#include <algorithm>

#include "benchmark/benchmark.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

const index_t kLarge = index_t{1} << 24;  // 16M floats, 64 MB per array
const float kEta = 0.1f, kLambda = 1e-4f;

struct Arrays {
  explicit Arrays(index_t n) : w(Shape1(n), 0.5f), g(Shape1(n), 0.25f) {}
  TensorContainer<cpu, 1, float> w, g;
};

void SetBytes(benchmark::State& state, index_t n) {
  state.SetBytesProcessed(int64_t(state.iterations()) * n * 3 *
                          int64_t(sizeof(float)));
}

// Arg 0: elements, Arg 1: threads (0 = all cores).
void BM_UpdateEngine(benchmark::State& state) {
  const index_t n = state.range(0);
  SetNumThreads(int(state.range(1)));
  Arrays a(n);
  Tensor<cpu, 1, float> w = a.w, g = a.g;
  for (auto _ : state) {
    w = -kEta * (g + kLambda * w);
    benchmark::ClobberMemory();
  }
  state.counters["threads"] = GetNumThreads();
  SetNumThreads(0);
  SetBytes(state, n);
}

void BM_UpdateHandLoop(benchmark::State& state) {
  const index_t n = state.range(0);
  Arrays a(n);
  float* __restrict w = a.w.dptr_;
  const float* __restrict g = a.g.dptr_;
  for (auto _ : state) {
    // Vectorised by the compiler (omp simd), as a tuned hand loop would be.
#pragma omp simd
    for (index_t i = 0; i < n; ++i) w[i] = -kEta * (g[i] + kLambda * w[i]);
    benchmark::ClobberMemory();
  }
  SetBytes(state, n);
}

void BM_UpdateEigen(benchmark::State& state) {
  const index_t n = state.range(0);
  Arrays a(n);
  Eigen::Map<Eigen::ArrayXf> w(a.w.dptr_, n);
  Eigen::Map<const Eigen::ArrayXf> g(a.g.dptr_, n);
  for (auto _ : state) {
    w = -kEta * (g + kLambda * w);
    benchmark::ClobberMemory();
  }
  SetBytes(state, n);
}

// Runs kernel(begin, end) over [0, n) once per iteration, split across Arg 1
// threads (0 = all cores) with the same thread pool the engine uses.
template <typename Kernel>
void RunSplit(benchmark::State& state, index_t n, const Kernel& kernel) {
  SetNumThreads(int(state.range(1)));
  const int threads = GetNumThreads();
  for (auto _ : state) {
    ParallelFor(threads, [&](int t) {
      const index_t begin = n / threads * t;
      const index_t end = t + 1 == threads ? n : n / threads * (t + 1);
      kernel(begin, end);
    });
    benchmark::ClobberMemory();
  }
  state.counters["threads"] = threads;
  SetNumThreads(0);
  SetBytes(state, n);
}

// STREAM triad a = b + s * c; Arg 1: threads (0 = all cores).
void BM_Triad(benchmark::State& state) {
  const index_t n = state.range(0);
  TensorContainer<cpu, 1, float> ta(Shape1(n), 0.0f), tb(Shape1(n), 1.0f),
      tc(Shape1(n), 2.0f);
  float* const a = ta.dptr_;
  const float* const b = tb.dptr_;
  const float* const c = tc.dptr_;
  const float s = 3.0f;
  RunSplit(state, n, [=](index_t begin, index_t end) {
#pragma omp simd
    for (index_t i = begin; i < end; ++i) a[i] = b[i] + s * c[i];
  });
}

// The triad on two arrays (a = a + s * c): the same 128 MB footprint as the
// update, for machines whose last-level cache holds two arrays but not three.
void BM_TriadTwoArrays(benchmark::State& state) {
  const index_t n = state.range(0);
  TensorContainer<cpu, 1, float> ta(Shape1(n), 0.0f), tc(Shape1(n), 2.0f);
  float* const a = ta.dptr_;
  const float* const c = tc.dptr_;
  const float s = 1e-4f;
  RunSplit(state, n, [=](index_t begin, index_t end) {
#pragma omp simd
    for (index_t i = begin; i < end; ++i) a[i] = a[i] + s * c[i];
  });
}

BENCHMARK(BM_UpdateHandLoop)->Arg(kLarge)->UseRealTime();
BENCHMARK(BM_UpdateEigen)->Arg(kLarge)->UseRealTime();
BENCHMARK(BM_UpdateEngine)
    ->Args({kLarge, 1})
    ->Args({kLarge, 0})
    ->Args({4096, 1})
    ->Args({4096, 0})
    ->UseRealTime();
BENCHMARK(BM_Triad)->Args({kLarge, 1})->Args({kLarge, 0})->UseRealTime();
BENCHMARK(BM_TriadTwoArrays)
    ->Args({kLarge, 1})
    ->Args({kLarge, 0})
    ->UseRealTime();

}  // namespace
}  // namespace umbra
