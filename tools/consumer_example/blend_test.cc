// Checks the example library against a plain loop on fresh random data.
#include "blend.h"

#include <random>
#include <stdexcept>

#include "gtest/gtest.h"

namespace consumer {
namespace {

TEST(BlendTest, MatchesLoop) {
  // A fresh seed each run, printed with any failure so that it can be
  // replayed.
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE(testing::Message() << "random seed " << seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-10.0f, 10.0f);
  std::vector<float> x(1000 + rng() % 100), y(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = uniform(rng), y[i] = uniform(rng);
  const float alpha = uniform(rng);

  const std::vector<float> blended = Blend(alpha, x, y);
  ASSERT_EQ(blended.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(blended[i], alpha * x[i] + (1.0f - alpha) * y[i], 1e-4f);
  }
}

TEST(BlendTest, SizeMismatchThrows) {
  EXPECT_THROW(Blend(0.5f, {1, 2, 3}, {1, 2}), std::exception);
}

}  // namespace
}  // namespace consumer
