// GPU benchmarks (medians of 10 repetitions, timed with CUDA events):
//  - BM_UpdateRule: `w = -eta * (g + lambda * w)` on 256M floats through
//    the expression engine (MapVecKernel), as achieved GB/s (reads w and g,
//    writes w: 12 bytes per element), and `vs_memcpy`, its bandwidth over a
//    device-to-device cudaMemcpy of one 1 GiB buffer (reads + writes: 8
//    bytes per element). Goal: vs_memcpy >= 0.80.
//  - BM_Memcpy: that cudaMemcpy alone.
//  - BM_Dot4096: `c = dot(a, b)` on 4096 x 4096 floats through the gpu
//    DotEngine, and `vs_cublas`, a direct cublasSgemm's time over it.
//    Goal: vs_cublas >= 0.95.
//  - BM_CublasSgemm4096: that cublasSgemm alone.
// Run: gpu_bench (or through tools/gpu_check.sh).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <vector>

#include "benchmark/benchmark.h"
#include "tensor/gpu/check.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

constexpr index_t kUpdateElements = index_t(256) << 20;
constexpr index_t kDotSize = 4096;
constexpr int kRepetitions = 10;

// Times fn on the default stream with CUDA events; milliseconds.
double TimeMs(const std::function<void()>& fn) {
  cudaEvent_t start, stop;
  UMBRA_CUDA_CHECK(cudaEventCreate(&start), "bench");
  UMBRA_CUDA_CHECK(cudaEventCreate(&stop), "bench");
  UMBRA_CUDA_CHECK(cudaEventRecord(start, nullptr), "bench");
  fn();
  UMBRA_CUDA_CHECK(cudaEventRecord(stop, nullptr), "bench");
  UMBRA_CUDA_CHECK(cudaEventSynchronize(stop), "bench");
  float ms = 0;
  UMBRA_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop), "bench");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

// Runs body, turning a missing GPU or a GpuError into a benchmark error
// (reported as "ERROR OCCURRED", which tools/gpu_check.sh counts as failed).
void Guarded(benchmark::State& state,
             const std::function<void(benchmark::State&)>& body) {
  if (GpuDeviceCount() == 0) {
    state.SkipWithError("no CUDA device: run this benchmark on a GPU");
    return;
  }
  try {
    body(state);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// Median of `runs` timings of fn (after one warm-up run).
double MedianMs(const std::function<void()>& fn, int runs = 11) {
  fn();
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) times.push_back(TimeMs(fn));
  std::nth_element(times.begin(), times.begin() + runs / 2, times.end());
  return times[runs / 2];
}

void BM_UpdateRuleBody(benchmark::State& state) {
  TensorContainer<gpu, 1> w(Shape1(kUpdateElements), 1.0f),
      g(Shape1(kUpdateElements), 0.5f), copy(Shape1(kUpdateElements));
  const float eta = 0.1f, lambda = 1e-4f;
  const double bytes = 12.0 * kUpdateElements;
  const double copy_ms = MedianMs([&] {
    UMBRA_CUDA_CHECK(
        cudaMemcpyAsync(copy.dptr_, g.dptr_, sizeof(float) * kUpdateElements,
                        cudaMemcpyDeviceToDevice, nullptr),
        "bench memcpy");
  });
  const double copy_gbps = 8.0 * kUpdateElements / (copy_ms * 1e6);
  double ms = 0;
  for (auto _ : state) {
    ms = TimeMs([&] { w = -eta * (g + lambda * w); });
    state.SetIterationTime(ms / 1e3);
  }
  state.counters["GB/s"] = benchmark::Counter(bytes * state.iterations(),
                                              benchmark::Counter::kIsRate);
  state.counters["memcpy_GB/s"] = copy_gbps;
  state.counters["vs_memcpy"] = bytes / (ms * 1e6) / copy_gbps;
}
void BM_UpdateRule(benchmark::State& state) {
  Guarded(state, BM_UpdateRuleBody);
}
BENCHMARK(BM_UpdateRule)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(kRepetitions)
    ->ReportAggregatesOnly(true);

void BM_MemcpyBody(benchmark::State& state) {
  TensorContainer<gpu, 1> src(Shape1(kUpdateElements), 0.5f),
      dst(Shape1(kUpdateElements));
  for (auto _ : state) {
    state.SetIterationTime(
        TimeMs([&] {
          UMBRA_CUDA_CHECK(cudaMemcpyAsync(dst.dptr_, src.dptr_,
                                           sizeof(float) * kUpdateElements,
                                           cudaMemcpyDeviceToDevice, nullptr),
                           "bench memcpy");
        }) /
        1e3);
  }
  state.counters["GB/s"] = benchmark::Counter(
      8.0 * kUpdateElements * state.iterations(), benchmark::Counter::kIsRate);
}
void BM_Memcpy(benchmark::State& state) { Guarded(state, BM_MemcpyBody); }
BENCHMARK(BM_Memcpy)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(kRepetitions)
    ->ReportAggregatesOnly(true);

// c = a * b with cuBLAS directly (row-major through the transpose identity).
void DirectSgemm(const Tensor<gpu, 2>& a, const Tensor<gpu, 2>& b,
                 Tensor<gpu, 2> c) {
  const float one = 1.0f, zero = 0.0f;
  const int n = static_cast<int>(kDotSize);
  UMBRA_CUDA_CHECK(
      cublasSgemm(DefaultStream()->blas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, n,
                  n, n, &one, b.dptr_, n, a.dptr_, n, &zero, c.dptr_, n),
      "bench sgemm");
}

void BM_Dot4096Body(benchmark::State& state) {
  Random<gpu, float> rnd(1);
  TensorContainer<gpu, 2> a = rnd.uniform(Shape2(kDotSize, kDotSize));
  TensorContainer<gpu, 2> b = rnd.uniform(Shape2(kDotSize, kDotSize));
  TensorContainer<gpu, 2> c(Shape2(kDotSize, kDotSize));
  const double direct_ms = MedianMs([&] { DirectSgemm(a, b, c); });
  double ms = 0;
  for (auto _ : state) {
    ms = TimeMs([&] { c = dot(a.view(), b.view()); });
    state.SetIterationTime(ms / 1e3);
  }
  const double flops = 2.0 * kDotSize * kDotSize * kDotSize;
  state.counters["TFLOP/s"] = benchmark::Counter(
      flops * state.iterations() / 1e12, benchmark::Counter::kIsRate);
  state.counters["vs_cublas"] = direct_ms / ms;
}
void BM_Dot4096(benchmark::State& state) { Guarded(state, BM_Dot4096Body); }
BENCHMARK(BM_Dot4096)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(kRepetitions)
    ->ReportAggregatesOnly(true);

void BM_CublasSgemm4096Body(benchmark::State& state) {
  Random<gpu, float> rnd(1);
  TensorContainer<gpu, 2> a = rnd.uniform(Shape2(kDotSize, kDotSize));
  TensorContainer<gpu, 2> b = rnd.uniform(Shape2(kDotSize, kDotSize));
  TensorContainer<gpu, 2> c(Shape2(kDotSize, kDotSize));
  for (auto _ : state) {
    state.SetIterationTime(TimeMs([&] { DirectSgemm(a, b, c); }) / 1e3);
  }
  const double flops = 2.0 * kDotSize * kDotSize * kDotSize;
  state.counters["TFLOP/s"] = benchmark::Counter(
      flops * state.iterations() / 1e12, benchmark::Counter::kIsRate);
}
void BM_CublasSgemm4096(benchmark::State& state) {
  Guarded(state, BM_CublasSgemm4096Body);
}
BENCHMARK(BM_CublasSgemm4096)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(kRepetitions)
    ->ReportAggregatesOnly(true);

}  // namespace
}  // namespace umbra
