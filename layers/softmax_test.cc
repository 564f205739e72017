// softmax's forward output and loss against a naive implementation written
// directly from the definition, in float and double, in and out of place.
#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "layers/layer.h"
#include "layers/standalone_layer.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace layers {
namespace {

template <typename DType>
class SoftmaxTest : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SoftmaxTest, Precisions);

TYPED_TEST(SoftmaxTest, MatchesNaive) {
  using DType = TypeParam;
  const test::ScopedTestSeed seed;
  std::mt19937 engine(seed.value());
  for (bool in_place : {false, true}) {
    for (double range : {1.0, 30.0, 1000.0}) {
      const index_t batch = 5, width = 7;
      StandaloneLayer<cpu, DType> softmax(
          "softmax", {}, {Shape4(batch, 1, 1, width)}, 1, in_place);
      Tensor<cpu, 2, DType> label = softmax.AddLabel("label", Shape2(batch, 1));
      Tensor<cpu, 2, DType> x = AsMatrix(softmax.in(0).data);
      std::vector<std::vector<double>> input(batch, std::vector<double>(width));
      for (index_t i = 0; i < batch; ++i) {
        label[i][0] = DType(i % width);
        for (index_t k = 0; k < width; ++k) {
          x[i][k] = DType(
              std::uniform_real_distribution<double>(-range, range)(engine));
          input[i][k] = x[i][k];
        }
      }
      softmax.layer().Forward(false);
      Tensor<cpu, 2, DType> p = AsMatrix(softmax.out(0).data);
      double loss = 0;
      for (index_t i = 0; i < batch; ++i) {
        // Naive: exp of each element over the sum of exps, with long double
        // and the row maximum subtracted only to avoid overflow.
        long double top = input[i][0];
        for (double v : input[i]) top = v > top ? v : top;
        long double sum = 0;
        for (double v : input[i]) sum += std::exp((long double)v - top);
        for (index_t k = 0; k < width; ++k) {
          const double expect =
              double(std::exp((long double)input[i][k] - top) / sum);
          EXPECT_NEAR(p[i][k], expect, sizeof(DType) == 4 ? 2e-6 : 1e-14)
              << "row " << i << " col " << k << " range " << range;
        }
        // -log p[label], p[label] = exp(x_label - top) / sum.
        loss -= double((long double)input[i][i % width] - top - std::log(sum));
      }
      const double mean = loss / batch;
      EXPECT_NEAR(softmax.layer().Loss(), mean,
                  (sizeof(DType) == 4 ? 1e-4 : 1e-10) * std::max(1.0, mean));
    }
  }
}

TYPED_TEST(SoftmaxTest, GradientIsProbabilityMinusOneHot) {
  using DType = TypeParam;
  StandaloneLayer<cpu, DType> softmax("softmax", {{"grad_scale", "3"}},
                                      {Shape4(2, 1, 1, 3)});
  Tensor<cpu, 2, DType> label = softmax.AddLabel("label", Shape2(2, 1));
  label[0][0] = 2;
  label[1][0] = 0;
  softmax.in(0).data = DType(0);  // uniform probabilities 1/3
  softmax.layer().Forward(true);
  softmax.layer().Backprop(true);
  Tensor<cpu, 2, DType> g = AsMatrix(softmax.in(0).grad);
  const double scale = 3.0 / 2.0;
  EXPECT_NEAR(g[0][0], scale / 3, 1e-6);
  EXPECT_NEAR(g[0][2], scale * (1.0 / 3 - 1), 1e-6);
  EXPECT_NEAR(g[1][0], scale * (1.0 / 3 - 1), 1e-6);
  EXPECT_NEAR(softmax.layer().Loss(), std::log(3.0), 1e-6);
}

}  // namespace
}  // namespace layers
}  // namespace umbra
