// The three matrix products of a fully connected layer on all threads:
// StridedGemm (layers/strided_gemm.h) against OpenBLAS as the layer called
// it before (tensor/dot.h's blas::Gemm, split over the threads), for
// LeNet's fc1 (3136 -> 512) and the MLP's fc1 (784 -> 256) and fc2 (256 ->
// 128) at several batch sizes. The forward pass through StridedGemm counts
// the transposes it needs (its input's and its output's). GFLOP/s: two per
// multiply-add.
//   bazel run -c opt //layers:strided_gemm_bench -- \
//       --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "layers/kernel_test_util.h"
#include "layers/matrix_transpose.h"
#include "layers/strided_gemm.h"
#include "tensor/dot.h"
#include "tensor/threads.h"

namespace umbra {
namespace layers {
namespace {

// A layer of `width` inputs and `nhidden` outputs on a batch.
struct Layer {
  int64_t batch, width, nhidden;
  std::vector<float> in = RandomFloats(batch * width);
  std::vector<float> wmat = RandomFloats(nhidden * width);
  std::vector<float> out_grad = RandomFloats(batch * nhidden);
  std::vector<float> out = std::vector<float>(batch * nhidden);
  std::vector<float> in_grad = std::vector<float>(batch * width);
  std::vector<float> wmat_grad = std::vector<float>(nhidden * width);
  std::vector<float> in_t = std::vector<float>(width * batch);
  std::vector<float> out_t = std::vector<float>(nhidden * batch);
};

enum Pass { kForward, kInputGradient, kWeightGradient };

// Args: pass, batch, width, nhidden, strided (1) or OpenBLAS (0).
void BM_Fullc(benchmark::State& state) {
  const Pass pass = Pass(state.range(0));
  Layer l{state.range(1), state.range(2), state.range(3)};
  const bool strided = state.range(4);
  const int64_t b = l.batch, w = l.width, h = l.nhidden;
  for (auto _ : state) {
    switch (pass) {
      case kForward:  // out = in wmat^T
        if (strided) {
          TransposeMatrix(b, w, l.in.data(), w, l.in_t.data(), b);
          StridedGemm({h, b, w, l.wmat.data(), w, 1, l.in_t.data(), b,
                       l.out_t.data(), b, false});
          TransposeMatrix(h, b, l.out_t.data(), b, l.out.data(), h);
        } else {
          blas::Gemm(false, true, b, h, w, 1.f, l.in.data(), w, l.wmat.data(),
                     w, 0.f, l.out.data(), h);
        }
        break;
      case kInputGradient:  // in_grad = out_grad wmat
        if (strided) {
          StridedGemm({b, w, h, l.out_grad.data(), h, 1, l.wmat.data(), w,
                       l.in_grad.data(), w, false});
        } else {
          blas::Gemm(false, false, b, w, h, 1.f, l.out_grad.data(), h,
                     l.wmat.data(), w, 0.f, l.in_grad.data(), w);
        }
        break;
      case kWeightGradient:  // wmat_grad += out_grad^T in
        if (strided) {
          StridedGemm({h, w, b, l.out_grad.data(), 1, h, l.in.data(), w,
                       l.wmat_grad.data(), w, true});
        } else {
          blas::Gemm(true, false, h, w, b, 1.f, l.out_grad.data(), h,
                     l.in.data(), w, 1.f, l.wmat_grad.data(), w);
        }
        break;
    }
    benchmark::ClobberMemory();
  }
  state.counters["GFLOP/s"] = benchmark::Counter(
      2e-9 * b * w * h, benchmark::Counter::kIsIterationInvariantRate);
}

void FullcCases(benchmark::internal::Benchmark* bench) {
  bench->ArgNames({"pass", "batch", "width", "nhidden", "strided"});
  for (int pass : {kForward, kInputGradient, kWeightGradient}) {
    for (auto [width, nhidden] :
         {std::pair{3136, 512}, std::pair{784, 256}, std::pair{256, 128}}) {
      for (int batch : {16, 64, 128, 256}) {
        for (int strided : {0, 1}) {
          bench->Args({pass, batch, width, nhidden, strided});
        }
      }
    }
  }
}
BENCHMARK(BM_Fullc)->Apply(FullcCases)->UseRealTime();

}  // namespace
}  // namespace layers
}  // namespace umbra

BENCHMARK_MAIN();
