// dot() against a direct cblas_sgemm call on square float matrices, with
// GFLOP/s counters. The direct call goes through blas::Cblas() too, so both
// run the kernels umbra loads (blas::CoreName(), printed in the context).
//
//   bazel run -c opt //tensor:dot_bench -- --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include "benchmark/benchmark.h"
#include "tensor/blas_library.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

void SetFlops(benchmark::State& state, index_t n) {
  state.counters["FLOPS"] = benchmark::Counter(
      2.0 * double(n) * double(n) * double(n) * double(state.iterations()),
      benchmark::Counter::kIsRate);
}

// Names the kernels in the benchmark context ("openblas_core: Cooperlake").
const bool kCoreNameInContext = [] {
  benchmark::AddCustomContext("openblas_core", blas::CoreName());
  benchmark::AddCustomContext("openblas_library", blas::LibraryPath());
  return true;
}();

void BM_DotEngine(benchmark::State& state) {
  const index_t n = state.range(0);
  TensorContainer<cpu, 2, float> a(Shape2(n, n), 0.5f), b(Shape2(n, n), 0.25f),
      c(Shape2(n, n), 0.0f);
  for (auto _ : state) {
    c = expr::dot(a.view(), b.view());
    benchmark::ClobberMemory();
  }
  SetFlops(state, n);
}

void BM_DotCblas(benchmark::State& state) {
  const int n = int(state.range(0));
  TensorContainer<cpu, 2, float> a(Shape2(n, n), 0.5f), b(Shape2(n, n), 0.25f),
      c(Shape2(n, n), 0.0f);
  for (auto _ : state) {
    blas::Cblas().sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n,
                        1.0f, a.dptr_, n, b.dptr_, n, 0.0f, c.dptr_, n);
    benchmark::ClobberMemory();
  }
  SetFlops(state, n);
}

BENCHMARK(BM_DotEngine)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->UseRealTime();
BENCHMARK(BM_DotCblas)->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->UseRealTime();

}  // namespace
}  // namespace umbra
