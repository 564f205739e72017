// Random<cpu>: reproducible for a seed, right moments, bernoulli masks, and
// independent draws within one expression.
#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_seed.h"
#include "tensor/test_util.h"

namespace umbra {
namespace {

template <typename DType>
void Moments(const Tensor<cpu, 2, DType>& t, double* mean, double* var) {
  double s = 0, s2 = 0;
  const index_t n = t.shape_.Size();
  for (index_t y = 0; y < t.size(0); ++y) {
    for (index_t x = 0; x < t.size(1); ++x) {
      s += t[y][x];
      s2 += double(t[y][x]) * t[y][x];
    }
  }
  *mean = s / n;
  *var = s2 / n - *mean * *mean;
}

// A data-parallel rank draws its rows of a batch-wide mask by skipping the
// other rows' draws: what follows SkipUniform(n) is what a sample of n + k
// elements holds after its first n, in both precisions.
template <typename DType>
void ExpectSkipMatchesDrawing() {
  const test::ScopedTestSeed test_seed;
  const int seed = static_cast<int>(test_seed.value());
  std::mt19937 sizes(test_seed.value());
  const index_t skipped = 1 + sizes() % 500, kept = 1 + sizes() % 300;
  Random<cpu, DType> whole(seed), skipping(seed);
  TensorContainer<cpu, 1, DType> all(Shape1(skipped + kept + 7));
  TensorContainer<cpu, 1, DType> part(Shape1(kept)), after(Shape1(7));
  whole.SampleUniform(&all, DType(-2), DType(2));
  skipping.SkipUniform(skipped);
  skipping.SampleUniform(&part, DType(-2), DType(2));
  skipping.SampleUniform(&after, DType(-2), DType(2));
  for (index_t i = 0; i < kept; ++i) {
    ASSERT_EQ(part[i], all[skipped + i]) << i << " of " << kept;
  }
  for (index_t i = 0; i < 7; ++i) ASSERT_EQ(after[i], all[skipped + kept + i]);
}

TEST(RandomTest, SkipUniformMovesPastTheDraws) {
  ExpectSkipMatchesDrawing<float>();
  ExpectSkipMatchesDrawing<double>();
}

// SampleUniformAt: a part filled at its offset holds what the whole holds
// there, at 1 and 2 threads (the whole is large enough to be split); the
// draws are uniform in [a, b); each call takes two draws of the generator
// whatever its size, so what follows is what follows any other call.
template <typename DType>
void ExpectCounterDrawsMatchTheWhole() {
  const test::ScopedTestSeed test_seed;
  const int seed = static_cast<int>(test_seed.value());
  std::mt19937 sizes(test_seed.value());
  const index_t rows = 40 + sizes() % 40, cols = 1000 + sizes() % 500;
  const index_t first_row = sizes() % rows;
  const index_t part_rows = 1 + sizes() % (rows - first_row);
  TensorContainer<cpu, 2, DType> whole(Shape2(rows, cols));
  TensorContainer<cpu, 2, DType> part(Shape2(part_rows, cols));
  TensorContainer<cpu, 1, DType> after_whole(Shape1(5)), after_part(Shape1(5));
  for (const int threads : {1, 2}) {
    SetNumThreads(threads);
    Random<cpu, DType> for_whole(seed), for_part(seed);
    for_whole.SampleUniformAt(&whole, 0, DType(-2), DType(2));
    for_part.SampleUniformAt(&part, uint64_t(first_row) * cols, DType(-2),
                             DType(2));
    for (index_t y = 0; y < part_rows; ++y) {
      for (index_t x = 0; x < cols; ++x) {
        ASSERT_EQ(part[y][x], whole[first_row + y][x])
            << threads << " threads, row " << y << " col " << x;
      }
    }
    for_whole.SampleUniform(&after_whole);
    for_part.SampleUniform(&after_part);
    EXPECT_TRUE(test::BitwiseEqual(after_whole.view(), after_part.view()));
  }
  SetNumThreads(0);
  double mean, var;
  Moments(whole.view(), &mean, &var);
  // Bounds of about 7 standard deviations of the moments of 40000 or more
  // draws of U(-2, 2) (variance 16 / 12).
  EXPECT_NEAR(mean, 0.0, 0.04);
  EXPECT_NEAR(var, 16.0 / 12, 0.04);
  // Each tenth of the interval holds a tenth of the draws, within about 7
  // standard deviations.
  std::vector<index_t> tenths(10, 0);
  for (index_t y = 0; y < rows; ++y) {
    for (index_t x = 0; x < cols; ++x) {
      ASSERT_TRUE(whole[y][x] >= DType(-2) && whole[y][x] < DType(2));
      ++tenths[static_cast<int>((double(whole[y][x]) + 2) * 2.5)];
    }
  }
  const double n = double(rows * cols);
  for (const index_t count : tenths) {
    EXPECT_NEAR(count, n / 10, 7 * std::sqrt(n * 0.09));
  }
}

TEST(RandomTest, CounterDrawsOfAPartMatchTheWhole) {
  ExpectCounterDrawsMatchTheWhole<float>();
  ExpectCounterDrawsMatchTheWhole<double>();
}

TEST(RandomTest, SeedReproducesAndMomentsAreRight) {
  const test::ScopedTestSeed test_seed;
  const int seed = static_cast<int>(test_seed.value());
  Random<cpu, float> r1(seed), r2(seed);
  TensorContainer<cpu, 2, float> a(Shape2(300, 301)), b(Shape2(300, 301));
  r1.SampleUniform(&a, -1.0f, 3.0f);
  r2.SampleUniform(&b, -1.0f, 3.0f);
  EXPECT_TRUE(test::BitwiseEqual(a.view(), b.view()));
  double mean, var;
  Moments(a.view(), &mean, &var);
  // Bounds of about 7 standard deviations of the 90300 draws' moments.
  EXPECT_NEAR(mean, 1.0, 0.03);
  EXPECT_NEAR(var, 16.0 / 12, 0.03);
  for (index_t y = 0; y < 300; ++y) {
    for (index_t x = 0; x < 301; ++x) {
      ASSERT_TRUE(a[y][x] >= -1.0f && a[y][x] < 3.0f);
    }
  }
  r1.SampleGaussian(&a, 2.0f, 0.5f);
  Moments(a.view(), &mean, &var);
  EXPECT_NEAR(mean, 2.0, 0.01);
  EXPECT_NEAR(var, 0.25, 0.01);
  r1.Seed(seed);
  r1.SampleUniform(&a, -1.0f, 3.0f);
  EXPECT_TRUE(test::BitwiseEqual(a.view(), b.view()));
  Random<cpu, double> rd(seed);
  TensorContainer<cpu, 2, double> d(Shape2(200, 200));
  rd.SampleGaussian(&d);
  Moments(d.view(), &mean, &var);
  EXPECT_NEAR(mean, 0.0, 0.035);
  EXPECT_NEAR(var, 1.0, 0.05);
}

TEST(RandomTest, BernoulliAndIndependentDrawsInOneExpression) {
  const test::ScopedTestSeed test_seed;
  const int seed = static_cast<int>(test_seed.value());
  Random<cpu, float> rnd(seed);
  const Shape<2> s = Shape2(200, 250);
  TensorContainer<cpu, 2, float> mask(s);
  mask = rnd.bernoulli(s, 0.3f);
  double mean, var;
  Moments(mask.view(), &mean, &var);
  EXPECT_NEAR(mean, 0.3, 0.015);
  for (index_t y = 0; y < 200; ++y) {
    for (index_t x = 0; x < 250; ++x) {
      ASSERT_TRUE(mask[y][x] == 0.0f || mask[y][x] == 1.0f);
    }
  }
  // Two draws in one expression: if they shared a buffer the difference
  // would be all zeros; independent N(0,1) draws differ with variance 2.
  TensorContainer<cpu, 2, float> diff(s);
  diff = rnd.gaussian(s) - rnd.gaussian(s);
  Moments(diff.view(), &mean, &var);
  EXPECT_NEAR(var, 2.0, 0.1);
  diff = rnd.uniform(s) + rnd.uniform(s);
  Moments(diff.view(), &mean, &var);
  EXPECT_NEAR(mean, 1.0, 0.02);
  EXPECT_NEAR(var, 2.0 / 12, 0.01);
}

}  // namespace
}  // namespace umbra
