// Checks that the Eigen headers are found and compute: a fused array expression
// on random data against a plain loop.
#include <Eigen/Core>
#include <random>

#include "gtest/gtest.h"

namespace {

TEST(EigenTest, ArrayExpressionMatchesLoop) {
  std::mt19937 rng(std::random_device{}());
  const int size = 1000 + rng() % 100;
  Eigen::ArrayXf weights = Eigen::ArrayXf::Random(size);
  Eigen::ArrayXf grads = Eigen::ArrayXf::Random(size);
  const float eta = 0.1f, lambda = 0.01f;

  Eigen::ArrayXf updated = -eta * (grads + lambda * weights);
  for (int i = 0; i < size; ++i) {
    ASSERT_FLOAT_EQ(updated[i], -eta * (grads[i] + lambda * weights[i]));
  }
}

}  // namespace
