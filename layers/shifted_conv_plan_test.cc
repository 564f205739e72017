// ShiftedConvPlan's passes (groups, per-task buffers, both weight gradient
// forms) against loop-by-loop double references of a conv's definition.
#include "layers/shifted_conv_plan.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace layers {
namespace {

struct Case {
  index_t channels, nchannel, ngroup, height, width;
  index_t kernel_y, kernel_x, stride_y, stride_x, pad_y, pad_x, dilate;
  ConvGeometry Geometry() const {
    ConvGeometry g;
    g.channels = channels;
    g.height = height;
    g.width = width;
    g.kernel_y = kernel_y;
    g.kernel_x = kernel_x;
    g.stride_y = stride_y;
    g.stride_x = stride_x;
    g.pad_y = pad_y;
    g.pad_x = pad_x;
    g.dilate_y = g.dilate_x = dilate;
    g.out_height =
        (height + 2 * pad_y - dilate * (kernel_y - 1) - 1) / stride_y + 1;
    g.out_width =
        (width + 2 * pad_x - dilate * (kernel_x - 1) - 1) / stride_x + 1;
    return g;
  }
  std::string Describe() const {
    return std::to_string(channels) + " -> " + std::to_string(nchannel) +
           " in " + std::to_string(ngroup) + " groups, " +
           std::to_string(height) + "x" + std::to_string(width) + ", kernel " +
           std::to_string(kernel_y) + "x" + std::to_string(kernel_x) +
           ", stride " + std::to_string(stride_y) + "x" +
           std::to_string(stride_x) + ", pad " + std::to_string(pad_y) + "x" +
           std::to_string(pad_x) + ", dilate " + std::to_string(dilate);
  }
};

// Calls fn(c, y, x, w) for every product of output pixel (m, oy, ox):
// weight index w of wmat times input pixel (c, y, x), inside the image.
template <typename Fn>
void ForEachProduct(const Case& k, index_t m, index_t oy, index_t ox,
                    const Fn& fn) {
  const index_t in = k.channels / k.ngroup, out = k.nchannel / k.ngroup;
  const index_t group = m / out;
  for (index_t c = 0; c < in; ++c) {
    for (index_t i = 0; i < k.kernel_y; ++i) {
      for (index_t j = 0; j < k.kernel_x; ++j) {
        const index_t y = oy * k.stride_y - k.pad_y + i * k.dilate;
        const index_t x = ox * k.stride_x - k.pad_x + j * k.dilate;
        if (y < 0 || y >= k.height || x < 0 || x >= k.width) continue;
        fn(group * in + c, y, x,
           ((m * in + c) * k.kernel_y + i) * k.kernel_x + j);
      }
    }
  }
}

std::vector<float> Random(size_t n, std::mt19937* rng) {
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(*rng);
  return v;
}

// |got - want| within 1e-5 of the sum of the terms' magnitudes (float's
// rounding of a sum that long), for every element.
void ExpectClose(const std::vector<float>& got, const std::vector<double>& want,
                 const std::vector<double>& magnitude,
                 const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int failures = 0;
  for (size_t i = 0; i < got.size() && failures < 5; ++i) {
    if (!(std::fabs(got[i] - want[i]) <= 1e-5 * (magnitude[i] + 1))) {
      ADD_FAILURE() << what << ": element " << i << " is " << got[i]
                    << ", expected " << want[i];
      ++failures;
    }
  }
}

const Case kCases[] = {
    // ResNet's first stage: the weight gradient as sums over positions.
    {16, 16, 1, 28, 28, 3, 3, 1, 1, 1, 1, 1},
    // LeNet's conv1: one channel, kMinPatch products per output or more.
    {1, 32, 1, 28, 28, 5, 5, 1, 1, 2, 2, 1},
    // Small planes (the transposed weight gradient): groups, dilation,
    // unequal kernel sides and padding, no padding.
    {8, 6, 2, 9, 10, 3, 3, 1, 1, 1, 1, 1},
    {16, 9, 1, 6, 7, 3, 3, 1, 1, 2, 2, 2},
    {4, 5, 1, 11, 13, 5, 3, 1, 1, 2, 1, 1},
    {12, 10, 1, 10, 9, 3, 3, 1, 1, 0, 0, 1},
    // Strided, on the phase planes: the ResNet's 3x3 stride-2 conv; large
    // planes (the weight gradient as sums over positions); unequal strides
    // and kernel sides, padding on one side only; a last row and column
    // that no output reads (their gradient is 0); stride 3 = kernel.
    {16, 32, 1, 28, 28, 3, 3, 2, 2, 1, 1, 1},
    {8, 12, 1, 64, 63, 3, 3, 2, 2, 1, 1, 1},
    {8, 6, 1, 13, 11, 5, 3, 2, 3, 2, 0, 1},
    {16, 8, 1, 16, 16, 3, 3, 2, 2, 0, 0, 1},
    {12, 9, 1, 14, 17, 3, 3, 3, 3, 1, 2, 1},
};

TEST(ShiftedConvPlanTest, PassesMatchTheDefinition) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  for (const Case& k : kCases) {
    SCOPED_TRACE(k.Describe());
    const ConvGeometry g = k.Geometry();
    ShiftedConvPlan plan(g, k.ngroup, k.nchannel, /*tasks=*/2);
    ASSERT_TRUE(plan.forward());
    ASSERT_TRUE(plan.input_gradient());
    const index_t in_size = k.channels * k.height * k.width;
    const index_t out_size = k.nchannel * g.OutPixels();
    const index_t weights = g.PatchSize() / k.ngroup * k.nchannel;
    const std::vector<float> wmat = Random(weights, &rng);
    // Two images in task 1: the weight gradient adds up both.
    const std::vector<float> images = Random(2 * in_size, &rng);
    const std::vector<float> out_grads = Random(2 * out_size, &rng);
    std::vector<float> wmat_grad = Random(weights, &rng);
    const std::vector<float> initial_wmat_grad = wmat_grad;

    std::vector<double> want_out(2 * out_size), out_magnitude(2 * out_size);
    std::vector<double> want_in_grad(2 * in_size), in_magnitude(2 * in_size);
    std::vector<double> want_wmat_grad(wmat_grad.begin(), wmat_grad.end());
    std::vector<double> wmat_magnitude(weights);
    for (index_t n = 0; n < 2; ++n) {
      for (index_t m = 0; m < k.nchannel; ++m) {
        for (index_t oy = 0; oy < g.out_height; ++oy) {
          for (index_t ox = 0; ox < g.out_width; ++ox) {
            const index_t o =
                n * out_size + (m * g.out_height + oy) * g.out_width + ox;
            ForEachProduct(
                k, m, oy, ox, [&](index_t c, index_t y, index_t x, index_t w) {
                  const index_t i =
                      n * in_size + (c * k.height + y) * k.width + x;
                  want_out[o] += double(wmat[w]) * images[i];
                  out_magnitude[o] += std::fabs(double(wmat[w]) * images[i]);
                  want_in_grad[i] += double(wmat[w]) * out_grads[o];
                  in_magnitude[i] += std::fabs(double(wmat[w]) * out_grads[o]);
                  want_wmat_grad[w] += double(out_grads[o]) * images[i];
                  wmat_magnitude[w] +=
                      std::fabs(double(out_grads[o]) * images[i]);
                });
          }
        }
      }
    }

    plan.PackForwardWeights(wmat.data());
    plan.PackAdjointWeights(wmat.data());
    // Garbage where the passes write: every element must be overwritten.
    std::vector<float> out(2 * out_size, 1e30f), in_grad(2 * in_size, 1e30f);
    for (index_t n = 0; n < 2; ++n) {
      plan.Forward(1, images.data() + n * in_size, out.data() + n * out_size);
      plan.InputGradient(1, out_grads.data() + n * out_size,
                         in_grad.data() + n * in_size);
      plan.WeightGradient(1, images.data() + n * in_size,
                          out_grads.data() + n * out_size, wmat_grad.data());
    }
    plan.AddWeightGradient(1, wmat_grad.data());
    ExpectClose(out, want_out, out_magnitude, "forward");
    ExpectClose(in_grad, want_in_grad, in_magnitude, "input gradient");
    ExpectClose(wmat_grad, want_wmat_grad, wmat_magnitude, "weight gradient");

    // As a training batch that keeps its padded images: both forward passes
    // first, then both weight gradients, which read the kept planes (their
    // `image` is null).
    plan.KeepPaddedImages(2);
    std::vector<float> kept_out(2 * out_size, 1e30f);
    std::vector<float> kept_wmat_grad = Random(weights, &rng);
    std::vector<double> want_kept(kept_wmat_grad.begin(), kept_wmat_grad.end());
    for (index_t w = 0; w < weights; ++w) {
      want_kept[w] += want_wmat_grad[w] - double(initial_wmat_grad[w]);
    }
    for (index_t n = 0; n < 2; ++n) {
      plan.Forward(n, images.data() + n * in_size,
                   kept_out.data() + n * out_size, n);
    }
    for (index_t n = 0; n < 2; ++n) {
      plan.WeightGradient(n, nullptr, out_grads.data() + n * out_size,
                          kept_wmat_grad.data(), n);
      plan.AddWeightGradient(n, kept_wmat_grad.data());
    }
    ExpectClose(kept_out, want_out, out_magnitude, "forward, kept images");
    ExpectClose(kept_wmat_grad, want_kept, wmat_magnitude,
                "weight gradient from the kept images");
  }
}

TEST(ShiftedConvPlanTest, WhatStaysOnIm2col) {
  // A stride larger than the kernel (1x1 stride 2, a ResNet projection), or
  // with dilation or groups; fewer than kMinPatch products per output;
  // padding past the kernel's span (the forward pass only).
  const Case projection{32, 64, 1, 14, 14, 1, 1, 2, 2, 0, 0, 1};
  EXPECT_FALSE(ShiftedConvPlan(projection.Geometry(), 1, 64, 1).forward());
  const Case dilated{16, 32, 1, 28, 28, 3, 3, 2, 2, 2, 2, 2};
  EXPECT_FALSE(ShiftedConvPlan(dilated.Geometry(), 1, 32, 1).forward());
  const Case grouped{64, 64, 2, 28, 28, 3, 3, 2, 2, 1, 1, 1};
  EXPECT_FALSE(ShiftedConvPlan(grouped.Geometry(), 2, 64, 1).forward());
  const Case small_patch{1, 32, 1, 28, 28, 3, 3, 1, 1, 1, 1, 1};
  EXPECT_FALSE(ShiftedConvPlan(small_patch.Geometry(), 1, 32, 1).forward());
  const Case wide_pad{8, 8, 1, 6, 6, 2, 2, 1, 1, 2, 2, 1};
  const ShiftedConvPlan plan(wide_pad.Geometry(), 1, 8, 1);
  EXPECT_TRUE(plan.forward());
  EXPECT_FALSE(plan.input_gradient());
}

}  // namespace
}  // namespace layers
}  // namespace umbra
