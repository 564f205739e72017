// Checks that OpenBLAS's cblas links and computes: sgemm on random matrices of
// odd sizes, with a transposed operand, against a naive product in double;
// and that OPENBLAS_CORETYPE, when the test sets it, picks the kernels.
#include <cblas.h>
#include <strings.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace {

TEST(OpenBlasTest, SgemmMatchesNaiveProduct) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  const int m = 37, n = 53, k = 29;
  std::vector<float> a(m * k), b_transposed(n * k), c(m * n, 0.0f);
  for (float& x : a) x = uniform(rng);
  for (float& x : b_transposed) x = uniform(rng);

  // C = A * B where B is stored transposed (n x k, row-major).
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, a.data(),
              k, b_transposed.data(), k, 0.0f, c.data(), n);

  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double expected = 0.0;
      for (int p = 0; p < k; ++p)
        expected += double(a[i * k + p]) * b_transposed[j * k + p];
      ASSERT_NEAR(c[i * n + j], expected, 1e-4)
          << "at (" << i << ", " << j << ")";
    }
  }
}

// umbra's loader (tensor/blas_library.cc) relies on OpenBLAS reading
// OPENBLAS_CORETYPE when it loads; openblas_coretype_test sets it.
TEST(OpenBlasTest, CoreTypeFromEnvironmentPicksTheKernels) {
  const char* core_type = std::getenv("OPENBLAS_CORETYPE");
  const char* core_name = openblas_get_corename();
  ASSERT_NE(core_name, nullptr);
  if (core_type == nullptr) {
    GTEST_SKIP() << "OPENBLAS_CORETYPE is unset; OpenBLAS chose " << core_name;
  }
  EXPECT_EQ(strcasecmp(core_name, core_type), 0)
      << "OPENBLAS_CORETYPE=" << core_type << " but OpenBLAS runs "
      << core_name;
}

}  // namespace
