#include "layers/shifted_conv.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/kernel_test_util.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace layers {
namespace {

// A convolution of unpadded images: the sizes, padding, dilation, stride
// (with dilation 1).
struct Case {
  int64_t channels, out_channels, height, width;
  int64_t kernel_y, kernel_x, pad_y, pad_x, dilate_y, dilate_x;
  int64_t stride = 1;
  int64_t OutHeight() const {
    return (height + 2 * pad_y - dilate_y * (kernel_y - 1) - 1) / stride + 1;
  }
  int64_t OutWidth() const {
    return (width + 2 * pad_x - dilate_x * (kernel_x - 1) - 1) / stride + 1;
  }
  // The forward convolution's shape with rows of the narrowest pitch plus
  // `extra_pitch` (with a stride, on phase planes).
  ShiftedConvShape Forward(int64_t extra_pitch) const {
    if (stride > 1) {
      return {channels,
              out_channels,
              kernel_y,
              kernel_x,
              1,
              1,
              OutHeight() + (kernel_y - 1) / stride,
              OutWidth() + (kernel_x - 1) / stride + extra_pitch,
              OutWidth(),
              stride,
              stride};
    }
    return {channels,
            out_channels,
            kernel_y,
            kernel_x,
            dilate_y,
            dilate_x,
            height + 2 * pad_y,
            ShiftedConvRowPitch(width, pad_x, OutWidth()) + extra_pitch,
            OutWidth()};
  }
  // The input gradient's convolution: the output gradient padded by
  // dilate (kernel - 1) - pad on each side.
  ShiftedConvShape Adjoint(int64_t extra_pitch) const {
    return {out_channels,
            channels,
            kernel_y,
            kernel_x,
            dilate_y,
            dilate_x,
            OutHeight() + 2 * AdjointPadY(),
            ShiftedConvRowPitch(OutWidth(), AdjointPadX(), width) + extra_pitch,
            width};
  }
  int64_t Weights() const {
    return out_channels * channels * kernel_y * kernel_x;
  }
  std::string Describe() const {
    return "channels " + std::to_string(channels) + " -> " +
           std::to_string(out_channels) + ", " + std::to_string(height) + "x" +
           std::to_string(width) + ", kernel " + std::to_string(kernel_y) +
           "x" + std::to_string(kernel_x) + ", stride " +
           std::to_string(stride);
  }
  int64_t AdjointPadY() const { return dilate_y * (kernel_y - 1) - pad_y; }
  int64_t AdjointPadX() const { return dilate_x * (kernel_x - 1) - pad_x; }
};

// The pair offsets the kernels take for s.
std::vector<int64_t> PairOffsets(const ShiftedConvShape& s) {
  std::vector<int64_t> offsets(ShiftedConvPairs(s));
  ShiftedConvPairOffsets(s, offsets.data());
  return offsets;
}

// Rows of the narrowest pitch, and wider ones (more zeros between rows).
const int64_t kExtraPitches[] = {0, 3};

// out[m][oy][ox] = sum of w[m][c][i][j] in[c][oy - pad_y + i dilate_y]
// [ox - pad_x + j dilate_x] over the pixels inside the image, in double:
// the definition, loop by loop.
std::vector<double> ReferenceForward(const Case& k,
                                     const std::vector<float>& in,
                                     const std::vector<float>& w) {
  std::vector<double> out(k.out_channels * k.OutHeight() * k.OutWidth(), 0.0);
  for (int64_t m = 0; m < k.out_channels; ++m)
    for (int64_t oy = 0; oy < k.OutHeight(); ++oy)
      for (int64_t ox = 0; ox < k.OutWidth(); ++ox) {
        double sum = 0;
        for (int64_t c = 0; c < k.channels; ++c)
          for (int64_t i = 0; i < k.kernel_y; ++i)
            for (int64_t j = 0; j < k.kernel_x; ++j) {
              const int64_t y = oy * k.stride - k.pad_y + i * k.dilate_y;
              const int64_t x = ox * k.stride - k.pad_x + j * k.dilate_x;
              if (y < 0 || y >= k.height || x < 0 || x >= k.width) continue;
              sum +=
                  double(
                      w[((m * k.channels + c) * k.kernel_y + i) * k.kernel_x +
                        j]) *
                  in[(c * k.height + y) * k.width + x];
            }
        out[(m * k.OutHeight() + oy) * k.OutWidth() + ox] = sum;
      }
  return out;
}

// d(sum of out_grad * out)/d(in) for the same convolution: every output's
// gradient scattered back to the pixels it read.
std::vector<double> ReferenceInputGradient(const Case& k,
                                           const std::vector<float>& out_grad,
                                           const std::vector<float>& w) {
  std::vector<double> in_grad(k.channels * k.height * k.width, 0.0);
  for (int64_t m = 0; m < k.out_channels; ++m)
    for (int64_t oy = 0; oy < k.OutHeight(); ++oy)
      for (int64_t ox = 0; ox < k.OutWidth(); ++ox)
        for (int64_t c = 0; c < k.channels; ++c)
          for (int64_t i = 0; i < k.kernel_y; ++i)
            for (int64_t j = 0; j < k.kernel_x; ++j) {
              const int64_t y = oy * k.stride - k.pad_y + i * k.dilate_y;
              const int64_t x = ox * k.stride - k.pad_x + j * k.dilate_x;
              if (y < 0 || y >= k.height || x < 0 || x >= k.width) continue;
              in_grad[(c * k.height + y) * k.width + x] +=
                  double(
                      w[((m * k.channels + c) * k.kernel_y + i) * k.kernel_x +
                        j]) *
                  out_grad[(m * k.OutHeight() + oy) * k.OutWidth() + ox];
            }
  return in_grad;
}

// d(sum of out_grad * out)/d(w): every output's gradient times the pixels
// it read, summed over the outputs.
std::vector<double> ReferenceWeightGradient(
    const Case& k, const std::vector<float>& in,
    const std::vector<float>& out_grad) {
  std::vector<double> w_grad(
      k.out_channels * k.channels * k.kernel_y * k.kernel_x, 0.0);
  for (int64_t m = 0; m < k.out_channels; ++m)
    for (int64_t oy = 0; oy < k.OutHeight(); ++oy)
      for (int64_t ox = 0; ox < k.OutWidth(); ++ox)
        for (int64_t c = 0; c < k.channels; ++c)
          for (int64_t i = 0; i < k.kernel_y; ++i)
            for (int64_t j = 0; j < k.kernel_x; ++j) {
              const int64_t y = oy * k.stride - k.pad_y + i * k.dilate_y;
              const int64_t x = ox * k.stride - k.pad_x + j * k.dilate_x;
              if (y < 0 || y >= k.height || x < 0 || x >= k.width) continue;
              w_grad[((m * k.channels + c) * k.kernel_y + i) * k.kernel_x +
                     j] +=
                  double(
                      out_grad[(m * k.OutHeight() + oy) * k.OutWidth() + ox]) *
                  in[(c * k.height + y) * k.width + x];
            }
  return w_grad;
}

// Runs ShiftedConv on unpadded `planes` of (height, width), padded by
// (pad_y, pad_x), as the conv layer does: a padded buffer zeroed once,
// filled with garbage in its tail past the last row's right padding to show
// that no kept result reads it. The output lies between two guard bands
// that must come back untouched.
std::vector<float> RunShifted(const ShiftedConvShape& s, ShiftedConvOrder order,
                              ShiftedConvWeights which,
                              const std::vector<float>& weights,
                              const std::vector<float>& planes, int64_t height,
                              int64_t width, int64_t pad_y, int64_t pad_x,
                              SimdWidth simd) {
  std::vector<float> padded(ShiftedConvInputSize(s), 0.f);
  const int64_t planes_end =
      ShiftedConvPlanes(s) * s.padded_height * s.row_pitch + pad_x;
  for (int64_t i = planes_end; i < int64_t(padded.size()); ++i) {
    padded[i] = 1e30f;
  }
  PadPlanes(s, planes.data(), height, width, pad_y, pad_x, padded.data());
  std::vector<float> packed(ShiftedConvPackedSize(s, order));
  PackShiftedConvWeights(s, order, which, weights.data(), packed.data());
  // The scratch may hold anything.
  std::vector<float> scratch(ShiftedConvScratchSize(s, order), 1e30f);
  const int64_t out_size =
      s.out_channels * ShiftedConvOutHeight(s) * ShiftedConvOutWidth(s);
  constexpr int64_t kGuard = 64;
  constexpr float kGuardValue = -7.f;
  std::vector<float> guarded(kGuard + out_size + kGuard, kGuardValue);
  ShiftedConv(s, order, PairOffsets(s).data(), packed.data(), padded.data(),
              scratch.data(), guarded.data() + kGuard, simd);
  for (int64_t i = 0; i < kGuard; ++i) {
    EXPECT_EQ(guarded[i], kGuardValue) << "written before the output";
    EXPECT_EQ(guarded[kGuard + out_size + i], kGuardValue)
        << "written after the output";
  }
  return std::vector<float>(guarded.begin() + kGuard,
                            guarded.begin() + kGuard + out_size);
}

void ExpectNear(const std::vector<float>& got, const std::vector<double>& want,
                double tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], tolerance) << "element " << i;
  }
}

const ShiftedConvOrder kOrders[] = {ShiftedConvOrder::kPositions,
                                    ShiftedConvOrder::kChannels};

std::string Describe(ShiftedConvOrder order, SimdWidth simd) {
  return std::string(order == ShiftedConvOrder::kChannels ? "channels"
                                                          : "positions") +
         " along " + (simd == SimdWidth::kAvx512 ? "AVX-512" : "AVX2") +
         " vectors";
}

// Shapes that reach every branch: channel counts below, at and past the
// kernels' 4 and 8 channel blocks and their groups of 2 and 4 vectors of
// channels (80: 4 + 1 AVX-512 vectors); planes shorter and longer than one
// run of positions; pixel counts that 8 does not divide; rows narrower than a
// vector; dilation; asymmetric kernels and padding; padding 0 and padding up to
// dilate (kernel - 1).
const Case kCases[] = {
    {16, 16, 28, 28, 3, 3, 1, 1, 1, 1},  // ResNet stage 1
    {32, 64, 14, 14, 5, 5, 2, 2, 1, 1},  // LeNet's conv2
    {1, 32, 28, 28, 5, 5, 2, 2, 1, 1},   // LeNet's conv1
    {64, 64, 7, 7, 3, 3, 1, 1, 1, 1},    // ResNet stage 3
    {8, 80, 6, 7, 3, 3, 1, 1, 1, 1},
    {3, 5, 9, 11, 3, 2, 0, 1, 1, 1},
    {2, 13, 6, 5, 2, 3, 1, 0, 2, 1},
    {5, 3, 10, 4, 3, 3, 2, 2, 1, 2},
    {7, 9, 1, 40, 1, 3, 0, 1, 1, 1},
    {4, 1, 3, 3, 3, 3, 2, 2, 1, 1},
    // Strided, on phase planes: the ResNet's 3x3 stride-2 conv; odd sizes
    // with a last row and column that no output reads; kernel = stride.
    {16, 32, 28, 28, 3, 3, 1, 1, 1, 1, 2},
    {5, 9, 13, 12, 5, 3, 2, 0, 1, 1, 2},
    {3, 4, 17, 16, 3, 3, 1, 0, 1, 1, 3},
};

// Both orders sum each output's products in wmat's row order, one fused
// multiply-add at a time from 0: the same bits, so that a plan may take
// either by its speed alone (MeasuredShiftedConvOrder).
TEST(ShiftedConvTest, ForwardMatchesTheDefinitionAndBothOrdersAgreeInBits) {
  test::ScopedTestSeed seed;
  std::mt19937 engine(seed.value());
  for (const Case& k : kCases) {
    SCOPED_TRACE(k.Describe());
    const std::vector<float> in =
        RandomFloats(k.channels * k.height * k.width, &engine);
    const std::vector<float> w = RandomFloats(k.Weights(), &engine);
    const std::vector<double> want = ReferenceForward(k, in, w);
    for (int64_t extra_pitch : kExtraPitches) {
      for (SimdWidth simd : SimdWidthsOfThisCpu()) {
        std::vector<std::vector<float>> outputs;
        for (ShiftedConvOrder order : kOrders) {
          SCOPED_TRACE(Describe(order, simd));
          outputs.push_back(RunShifted(
              k.Forward(extra_pitch), order, ShiftedConvWeights::kForward, w,
              in, k.height, k.width, k.pad_y, k.pad_x, simd));
          ExpectNear(outputs.back(), want,
                     1e-4 * k.channels * k.kernel_y * k.kernel_x);
        }
        EXPECT_EQ(outputs[0], outputs[1]) << "the orders' bits differ";
      }
    }
  }
}

TEST(ShiftedConvTest, AdjointIsTheInputGradient) {
  test::ScopedTestSeed seed;
  std::mt19937 engine(seed.value());
  for (const Case& k : kCases) {
    if (k.stride > 1) continue;  // ShiftedConvPlan's, on the phase planes
    SCOPED_TRACE(k.Describe());
    const std::vector<float> out_grad =
        RandomFloats(k.out_channels * k.OutHeight() * k.OutWidth(), &engine);
    const std::vector<float> w = RandomFloats(k.Weights(), &engine);
    const std::vector<double> want = ReferenceInputGradient(k, out_grad, w);
    for (int64_t extra_pitch : kExtraPitches) {
      const ShiftedConvShape adjoint = k.Adjoint(extra_pitch);
      ASSERT_EQ(ShiftedConvOutHeight(adjoint), k.height);
      for (ShiftedConvOrder order : kOrders) {
        for (SimdWidth simd : SimdWidthsOfThisCpu()) {
          SCOPED_TRACE(Describe(order, simd));
          ExpectNear(RunShifted(adjoint, order, ShiftedConvWeights::kAdjoint, w,
                                out_grad, k.OutHeight(), k.OutWidth(),
                                k.AdjointPadY(), k.AdjointPadX(), simd),
                     want, 1e-4 * k.out_channels * k.kernel_y * k.kernel_x);
        }
      }
    }
  }
}

TEST(ShiftedConvTest, WeightGradientAddsTheDefinition) {
  test::ScopedTestSeed seed;
  std::mt19937 engine(seed.value());
  for (const Case& k : kCases) {
    SCOPED_TRACE(k.Describe());
    const std::vector<float> in =
        RandomFloats(k.channels * k.height * k.width, &engine);
    const std::vector<float> out_grad =
        RandomFloats(k.out_channels * k.OutHeight() * k.OutWidth(), &engine);
    const std::vector<float> before = RandomFloats(k.Weights(), &engine);
    std::vector<double> want = ReferenceWeightGradient(k, in, out_grad);
    for (size_t i = 0; i < want.size(); ++i) want[i] += before[i];
    for (int64_t extra_pitch : kExtraPitches) {
      const ShiftedConvShape s = k.Forward(extra_pitch);
      std::vector<float> padded(ShiftedConvInputSize(s), 0.f);
      PadPlanes(s, in.data(), k.height, k.width, k.pad_y, k.pad_x,
                padded.data());
      std::vector<float> spread(ShiftedConvGradientSize(s), 0.f);
      SpreadOutputGradient(s, out_grad.data(), spread.data());
      for (SimdWidth simd : SimdWidthsOfThisCpu()) {
        std::vector<float> w_grad = before;
        ShiftedConvWeightGradient(s, PairOffsets(s).data(), padded.data(),
                                  spread.data(), w_grad.data(), simd);
        ExpectNear(w_grad, want, 1e-4 * k.OutHeight() * k.OutWidth());
      }
    }
  }
}

TEST(ShiftedConvTest, TransposedWeightGradientAddsTheDefinition) {
  test::ScopedTestSeed seed;
  std::mt19937 engine(seed.value());
  for (const Case& k : kCases) {
    SCOPED_TRACE(k.Describe());
    const std::vector<float> in =
        RandomFloats(k.channels * k.height * k.width, &engine);
    const std::vector<float> out_grad =
        RandomFloats(k.out_channels * k.OutHeight() * k.OutWidth(), &engine);
    const int64_t pairs = k.channels * k.kernel_y * k.kernel_x;
    const std::vector<double> gradient =
        ReferenceWeightGradient(k, in, out_grad);
    for (int64_t extra_pitch : kExtraPitches) {
      const ShiftedConvShape s = k.Forward(extra_pitch);
      const int64_t pitch = ShiftedConvChannelPitch(s);
      const std::vector<float> before = RandomFloats(pairs * pitch, &engine);
      std::vector<double> want(before.begin(), before.end());
      for (int64_t m = 0; m < k.out_channels; ++m) {
        for (int64_t p = 0; p < pairs; ++p) {
          want[p * pitch + m] += gradient[m * pairs + p];
        }
      }
      std::vector<float> padded(ShiftedConvInputSize(s), 0.f);
      PadPlanes(s, in.data(), k.height, k.width, k.pad_y, k.pad_x,
                padded.data());
      std::vector<float> transposed(ShiftedConvTransposedGradientSize(s), 0.f);
      TransposeOutputGradient(s, out_grad.data(), transposed.data());
      for (SimdWidth simd : SimdWidthsOfThisCpu()) {
        std::vector<float> w_grad_t = before;
        ShiftedConvWeightGradientTransposed(s, PairOffsets(s).data(),
                                            padded.data(), transposed.data(),
                                            w_grad_t.data(), simd);
        ExpectNear(w_grad_t, want, 1e-4 * k.OutHeight() * k.OutWidth());
      }
    }
  }
}

}  // namespace
}  // namespace layers
}  // namespace umbra
