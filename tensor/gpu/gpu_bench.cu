// GPU benchmarks, timed with CUDA events on the default stream (manual
// time; 10 repetitions, aggregates only: read the medians):
//  - BM_UpdateRule: `w = -eta * (g + lambda * w)` on 256M floats through the
//    expression engine (one MapVecKernel), as achieved GB/s (it reads w and
//    g and writes w: 12 bytes per element, 3 GiB per step; the median step
//    of each repetition), next to memcpy_GB/s, the median of 11
//    device-to-device cudaMemcpy of the same
//    3 GiB of traffic (1.5 GiB read, 1.5 GiB written), and their ratio
//    vs_memcpy. Goal: vs_memcpy >= 0.80.
//  - BM_Memcpy: that cudaMemcpy alone, as GB/s of traffic.
//  - BM_Dot4096: `c = dot(a, b)` on 4096 x 4096 floats through the gpu
//    DotEngine, as TFLOP/s, and vs_cublas, a direct cublasSgemm's median
//    time over the dot's median. Goal: vs_cublas >= 0.95.
//  - BM_CublasSgemm4096: that cublasSgemm alone.
// tools/gpu_check.sh runs this binary and checks both goals on the medians.
// Run alone: gpu_bench [--benchmark_filter=Update].
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
// Bytes the update rule moves per step: w and g read, w written.
constexpr double kUpdateBytes = 12.0 * kUpdateElements;
// A copy of kCopyElements floats moves kUpdateBytes (read + write).
constexpr index_t kCopyElements = kUpdateElements * 3 / 2;
constexpr index_t kDotSize = 4096;
constexpr double kDotFlops = 2.0 * kDotSize * kDotSize * kDotSize;
constexpr int kRepetitions = 10;

// A pair of CUDA events that times work on the default stream.
class EventTimer {
 public:
  EventTimer() {
    UMBRA_CUDA_CHECK(cudaEventCreate(&start_), "gpu_bench timer");
    UMBRA_CUDA_CHECK(cudaEventCreate(&stop_), "gpu_bench timer");
  }
  // Destructors must not throw: a failure here has nothing left to report.
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  // Seconds the work fn enqueues takes on the device.
  double Seconds(const std::function<void()>& fn) {
    UMBRA_CUDA_CHECK(cudaEventRecord(start_, nullptr), "gpu_bench timer");
    fn();
    UMBRA_CUDA_CHECK(cudaEventRecord(stop_, nullptr), "gpu_bench timer");
    UMBRA_CUDA_CHECK(cudaEventSynchronize(stop_), "gpu_bench timer");
    float ms = 0;
    UMBRA_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_),
                     "gpu_bench timer");
    return ms / 1e3;
  }
  // The median of 11 timings of fn, after one untimed warm-up run.
  double MedianSeconds(const std::function<void()>& fn) {
    fn();
    std::vector<double> times(11);
    for (double& t : times) t = Seconds(fn);
    std::nth_element(times.begin(), times.begin() + times.size() / 2,
                     times.end());
    return times[times.size() / 2];
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// Runs fn once untimed (module loading, handles), then once per iteration
// of `state`, each timed; returns the median device seconds of one run, the
// statistic the baselines (MedianSeconds) use too.
double TimeIterations(benchmark::State& state, EventTimer* timer,
                      const std::function<void()>& fn) {
  fn();
  std::vector<double> times;
  for (auto _ : state) {
    times.push_back(timer->Seconds(fn));
    state.SetIterationTime(times.back());
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2,
                   times.end());
  return times[times.size() / 2];
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

// A device-to-device cudaMemcpy of kCopyElements floats: the bandwidth
// baseline.
class DeviceCopy {
 public:
  DeviceCopy()
      : src_(Shape1(kCopyElements), 0.5f), dst_(Shape1(kCopyElements)) {}
  void operator()() {
    UMBRA_CUDA_CHECK(
        cudaMemcpyAsync(dst_.dptr_, src_.dptr_, sizeof(float) * kCopyElements,
                        cudaMemcpyDeviceToDevice, nullptr),
        detail::StrCat("gpu_bench: device-to-device copy of ", src_.shape_));
  }

 private:
  TensorContainer<gpu, 1> src_, dst_;
};

void BM_UpdateRuleBody(benchmark::State& state) {
  EventTimer timer;
  double copy_seconds = 0;
  {
    DeviceCopy copy;  // freed before the update's buffers are allocated
    copy_seconds = timer.MedianSeconds([&] { copy(); });
  }
  TensorContainer<gpu, 1> w(Shape1(kUpdateElements), 1.0f),
      g(Shape1(kUpdateElements), 0.5f);
  const float eta = 0.1f, lambda = 1e-4f;
  const double seconds =
      TimeIterations(state, &timer, [&] { w = -eta * (g + lambda * w); });
  const double gbps = kUpdateBytes / seconds / 1e9;
  const double copy_gbps = kUpdateBytes / copy_seconds / 1e9;
  state.counters["GB/s"] = gbps;
  state.counters["memcpy_GB/s"] = copy_gbps;
  state.counters["vs_memcpy"] = gbps / copy_gbps;
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
  EventTimer timer;
  DeviceCopy copy;
  const double seconds = TimeIterations(state, &timer, [&] { copy(); });
  state.counters["GB/s"] = kUpdateBytes / seconds / 1e9;
}
void BM_Memcpy(benchmark::State& state) { Guarded(state, BM_MemcpyBody); }
BENCHMARK(BM_Memcpy)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(kRepetitions)
    ->ReportAggregatesOnly(true);

// The operands of the dot benchmarks: uniform 4096 x 4096 floats.
struct DotOperands {
  Random<gpu, float> rnd{1};
  TensorContainer<gpu, 2> a = rnd.uniform(Shape2(kDotSize, kDotSize));
  TensorContainer<gpu, 2> b = rnd.uniform(Shape2(kDotSize, kDotSize));
  TensorContainer<gpu, 2> c{Shape2(kDotSize, kDotSize)};

  // c = a * b with cuBLAS directly (row-major through the transpose
  // identity: c^T = b^T a^T in column-major).
  void DirectSgemm() {
    const float one = 1.0f, zero = 0.0f;
    const int n = static_cast<int>(kDotSize);
    UMBRA_CUDA_CHECK(
        cublasSgemm(DefaultStream()->blas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, n,
                    n, n, &one, b.dptr_, n, a.dptr_, n, &zero, c.dptr_, n),
        detail::StrCat("gpu_bench: cublasSgemm ", a.shape_, " x ", b.shape_));
  }
};

void BM_Dot4096Body(benchmark::State& state) {
  EventTimer timer;
  DotOperands op;
  const double direct_seconds = timer.MedianSeconds([&] { op.DirectSgemm(); });
  const double seconds = TimeIterations(
      state, &timer, [&] { op.c = dot(op.a.view(), op.b.view()); });
  state.counters["TFLOP/s"] = kDotFlops / seconds / 1e12;
  state.counters["vs_cublas"] = direct_seconds / seconds;
}
void BM_Dot4096(benchmark::State& state) { Guarded(state, BM_Dot4096Body); }
BENCHMARK(BM_Dot4096)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(kRepetitions)
    ->ReportAggregatesOnly(true);

void BM_CublasSgemm4096Body(benchmark::State& state) {
  EventTimer timer;
  DotOperands op;
  const double seconds =
      TimeIterations(state, &timer, [&] { op.DirectSgemm(); });
  state.counters["TFLOP/s"] = kDotFlops / seconds / 1e12;
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
