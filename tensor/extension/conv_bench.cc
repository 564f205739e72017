// Forward convolution of a LeNet-sized layer (batch 64, 1 -> 32 channels,
// 28x28 input, 5x5 kernel, stride 1, pad 2, so a 28x28 output) three ways:
// unpack_patch2col + dot per image, unpack_patch2col + one dot for the whole
// batch (then swapaxis to NCHW), and a direct naive loop. Each benchmark
// first checks its result against the naive one.
//
//   bazel run -c opt //tensor/extension:conv_bench --
//     --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// (one command line)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "benchmark/benchmark.h"
#include "tensor/extension/extension.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

constexpr index_t kBatch = 64, kInChannels = 1, kOutChannels = 32;
constexpr index_t kSize = 28, kKernel = 5, kPad = 2;
constexpr index_t kOut = kSize + 2 * kPad - kKernel + 1;  // 28
constexpr index_t kPatch = kInChannels * kKernel * kKernel;

struct Layer {
  TensorContainer<cpu, 4> data{Shape4(kBatch, kInChannels, kSize, kSize)};
  TensorContainer<cpu, 2> weight{Shape2(kOutChannels, kPatch)};
  TensorContainer<cpu, 4> out{Shape4(kBatch, kOutChannels, kOut, kOut)};
  Layer() {
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (index_t i = 0; i < data.shape_.Size(); ++i) data.dptr_[i] = u(rng);
    for (index_t i = 0; i < weight.shape_.Size(); ++i) {
      weight.dptr_[i] = u(rng);
    }
  }
};

void ConvNaive(const Layer& l, Tensor<cpu, 4> out) {
  for (index_t n = 0; n < kBatch; ++n) {
    for (index_t k = 0; k < kOutChannels; ++k) {
      for (index_t oy = 0; oy < kOut; ++oy) {
        for (index_t ox = 0; ox < kOut; ++ox) {
          float sum = 0.0f;
          for (index_t c = 0; c < kInChannels; ++c) {
            for (index_t a = 0; a < kKernel; ++a) {
              const index_t y = oy + a - kPad;
              if (y < 0 || y >= kSize) continue;
              for (index_t b = 0; b < kKernel; ++b) {
                const index_t x = ox + b - kPad;
                if (x < 0 || x >= kSize) continue;
                sum += l.weight[k][(c * kKernel + a) * kKernel + b] *
                       l.data[n][c][y][x];
              }
            }
          }
          out[n][k][oy][ox] = sum;
        }
      }
    }
  }
}

// One image at a time: col is (25, 784), out[n] viewed as (32, 784).
void ConvIm2colPerImage(const Layer& l, TensorContainer<cpu, 2>* col,
                        Tensor<cpu, 4> out) {
  for (index_t n = 0; n < kBatch; ++n) {
    *col = unpack_patch2col(pad(l.data[n], kPad), kKernel, kKernel, 1, 1);
    Tensor<cpu, 2> out_mat(out[n].dptr_, Shape2(kOutChannels, kOut * kOut));
    out_mat = dot(l.weight, *col);
  }
}

// The whole batch at once: col is (25, 64 * 784), one gemm into a
// (32, 64 * 784) temporary, then swapaxis to (64, 32, 784).
void ConvIm2colBatched(const Layer& l, TensorContainer<cpu, 2>* col,
                       TensorContainer<cpu, 2>* tmp, Tensor<cpu, 4> out) {
  *col = unpack_patch2col(pad(l.data, kPad), kKernel, kKernel, 1, 1);
  *tmp = dot(l.weight, *col);
  Tensor<cpu, 3> out3(out.dptr_, Shape3(kBatch, kOutChannels, kOut * kOut));
  out3 =
      swapaxis<1, 0>(reshape(*tmp, Shape3(kOutChannels, kBatch, kOut * kOut)));
}

void CheckAgainstNaive(const Layer& l, const Tensor<cpu, 4>& got,
                       const char* what) {
  TensorContainer<cpu, 4> want(got.shape_);
  ConvNaive(l, want);
  for (index_t i = 0; i < got.shape_.Size(); ++i) {
    if (std::fabs(got.dptr_[i] - want.dptr_[i]) > 1e-4f) {
      std::fprintf(stderr, "%s differs from the naive loop at %ld: %g vs %g\n",
                   what, static_cast<long>(i), got.dptr_[i], want.dptr_[i]);
      std::abort();
    }
  }
}

void BM_ConvNaive(benchmark::State& state) {
  Layer l;
  for (auto _ : state) {
    ConvNaive(l, l.out);
    benchmark::DoNotOptimize(l.out.dptr_);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_ConvNaive)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ConvIm2colPerImage(benchmark::State& state) {
  Layer l;
  TensorContainer<cpu, 2> col(Shape2(kPatch, kOut * kOut));
  ConvIm2colPerImage(l, &col, l.out);
  CheckAgainstNaive(l, l.out, "unpack_patch2col + dot per image");
  for (auto _ : state) {
    ConvIm2colPerImage(l, &col, l.out);
    benchmark::DoNotOptimize(l.out.dptr_);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_ConvIm2colPerImage)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ConvIm2colBatched(benchmark::State& state) {
  Layer l;
  TensorContainer<cpu, 2> col(Shape2(kPatch, kBatch * kOut * kOut));
  TensorContainer<cpu, 2> tmp(Shape2(kOutChannels, kBatch * kOut * kOut));
  ConvIm2colBatched(l, &col, &tmp, l.out);
  CheckAgainstNaive(l, l.out, "unpack_patch2col + dot batched");
  for (auto _ : state) {
    ConvIm2colBatched(l, &col, &tmp, l.out);
    benchmark::DoNotOptimize(l.out.dptr_);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_ConvIm2colBatched)->Unit(benchmark::kMillisecond)->UseRealTime();

// The patch unpacking of the batched variant alone.
void BM_UnpackPatch2colBatched(benchmark::State& state) {
  Layer l;
  TensorContainer<cpu, 2> col(Shape2(kPatch, kBatch * kOut * kOut));
  for (auto _ : state) {
    col = unpack_patch2col(pad(l.data, kPad), kKernel, kKernel, 1, 1);
    benchmark::DoNotOptimize(col.dptr_);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_UnpackPatch2colBatched)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace umbra
