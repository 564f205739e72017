// Single-thread time of the stride-1 conv kernel's passes on one image
// (layers/shifted_conv.h), in each order, with the GFLOP/s of each (two per
// multiply-add of the kept outputs; the positions a pass drops are not
// counted):
//   bazel run -c opt //layers:shifted_conv_bench
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "layers/kernel_test_util.h"
#include "layers/shifted_conv.h"

namespace umbra {
namespace layers {
namespace {

// A convolution of channels planes of size x size into out_channels, by a
// kernel x kernel kernel with `pad` zeros on every side, stride 1.
struct Case {
  int64_t channels, out_channels, size, kernel, pad;
};

ShiftedConvShape ShapeOf(const Case& c) {
  const int64_t out = c.size + 2 * c.pad - c.kernel + 1;
  return ShiftedConvShape{c.channels,
                          c.out_channels,
                          c.kernel,
                          c.kernel,
                          1,
                          1,
                          c.size + 2 * c.pad,
                          ShiftedConvRowPitch(c.size, c.pad, out),
                          out};
}

// The pair offsets the kernels take for s.
std::vector<int64_t> PairOffsets(const ShiftedConvShape& s) {
  std::vector<int64_t> offsets(ShiftedConvPairs(s));
  ShiftedConvPairOffsets(s, offsets.data());
  return offsets;
}

void SetFlops(benchmark::State& state, const Case& c) {
  const ShiftedConvShape s = ShapeOf(c);
  const double flops = 2.0 * c.channels * c.out_channels * c.kernel * c.kernel *
                       ShiftedConvOutHeight(s) * s.out_width;
  state.counters["GFLOP/s"] = benchmark::Counter(
      flops * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}

// LeNet's conv2, its input gradient (as a forward convolution of the same
// sizes), LeNet's conv1, the ResNet's stride-1 convs of each stage and
// the bn_cnn's second.
const Case kLeNetConv2{32, 64, 14, 5, 2};
const Case kLeNetConv2Adjoint{64, 32, 14, 5, 2};
const Case kLeNetConv1{1, 32, 28, 5, 2};
const Case kResNetStage1{16, 16, 28, 3, 1};
const Case kResNetStage2{32, 32, 14, 3, 1};
const Case kBnCnnConv1b{32, 32, 28, 3, 1};
const Case kResNetStage3{64, 64, 7, 3, 1};

void BM_Forward(benchmark::State& state, Case c, ShiftedConvOrder order) {
  const ShiftedConvShape s = ShapeOf(c);
  std::vector<float> padded = RandomFloats(ShiftedConvInputSize(s));
  std::vector<float> weights =
      RandomFloats(c.out_channels * c.channels * c.kernel * c.kernel);
  std::vector<float> packed(ShiftedConvPackedSize(s, order));
  PackShiftedConvWeights(s, order, ShiftedConvWeights::kForward, weights.data(),
                         packed.data());
  std::vector<float> scratch(ShiftedConvScratchSize(s, order));
  std::vector<float> out(c.out_channels * ShiftedConvOutHeight(s) *
                         s.out_width);
  const std::vector<int64_t> offsets = PairOffsets(s);
  for (auto _ : state) {
    ShiftedConv(s, order, offsets.data(), packed.data(), padded.data(),
                scratch.data(), out.data());
    benchmark::DoNotOptimize(out.data());
  }
  SetFlops(state, c);
}
BENCHMARK_CAPTURE(BM_Forward, lenet_conv2_positions, kLeNetConv2,
                  ShiftedConvOrder::kPositions);
BENCHMARK_CAPTURE(BM_Forward, lenet_conv2_channels, kLeNetConv2,
                  ShiftedConvOrder::kChannels);
BENCHMARK_CAPTURE(BM_Forward, lenet_conv2_adjoint_positions, kLeNetConv2Adjoint,
                  ShiftedConvOrder::kPositions);
BENCHMARK_CAPTURE(BM_Forward, lenet_conv2_adjoint_channels, kLeNetConv2Adjoint,
                  ShiftedConvOrder::kChannels);
BENCHMARK_CAPTURE(BM_Forward, lenet_conv1_positions, kLeNetConv1,
                  ShiftedConvOrder::kPositions);
BENCHMARK_CAPTURE(BM_Forward, lenet_conv1_channels, kLeNetConv1,
                  ShiftedConvOrder::kChannels);
BENCHMARK_CAPTURE(BM_Forward, resnet_stage1_positions, kResNetStage1,
                  ShiftedConvOrder::kPositions);
BENCHMARK_CAPTURE(BM_Forward, resnet_stage1_channels, kResNetStage1,
                  ShiftedConvOrder::kChannels);
BENCHMARK_CAPTURE(BM_Forward, resnet_stage2_positions, kResNetStage2,
                  ShiftedConvOrder::kPositions);
BENCHMARK_CAPTURE(BM_Forward, resnet_stage2_channels, kResNetStage2,
                  ShiftedConvOrder::kChannels);
BENCHMARK_CAPTURE(BM_Forward, bn_cnn_conv1b_positions, kBnCnnConv1b,
                  ShiftedConvOrder::kPositions);
BENCHMARK_CAPTURE(BM_Forward, bn_cnn_conv1b_channels, kBnCnnConv1b,
                  ShiftedConvOrder::kChannels);
BENCHMARK_CAPTURE(BM_Forward, resnet_stage3_positions, kResNetStage3,
                  ShiftedConvOrder::kPositions);
BENCHMARK_CAPTURE(BM_Forward, resnet_stage3_channels, kResNetStage3,
                  ShiftedConvOrder::kChannels);

void BM_WeightGradientTransposed(benchmark::State& state) {
  const Case c = kLeNetConv2;
  const ShiftedConvShape s = ShapeOf(c);
  std::vector<float> padded = RandomFloats(ShiftedConvInputSize(s));
  std::vector<float> transposed =
      RandomFloats(ShiftedConvTransposedGradientSize(s));
  std::vector<float> grad(c.channels * c.kernel * c.kernel *
                          ShiftedConvChannelPitch(s));
  const std::vector<int64_t> offsets = PairOffsets(s);
  for (auto _ : state) {
    ShiftedConvWeightGradientTransposed(s, offsets.data(), padded.data(),
                                        transposed.data(), grad.data());
    benchmark::DoNotOptimize(grad.data());
  }
  SetFlops(state, c);
}
BENCHMARK(BM_WeightGradientTransposed);

}  // namespace
}  // namespace layers
}  // namespace umbra
