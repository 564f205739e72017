// The OpenBLAS loader: the kernels it picks (the user's OPENBLAS_CORETYPE, or
// the one for this CPU), an environment left as the user gave it, products
// that compute, and one OpenBLAS thread unless the user asked for more
// (dot splits products over umbra's pool instead). BUILD runs
// this file with several environments.
#include "tensor/blas_library.h"

#include <strings.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace {

// The environment as the test started, before anything loaded OpenBLAS.
const char* const kUserCoreType = std::getenv("OPENBLAS_CORETYPE");
const char* const kUserThreads = std::getenv("OPENBLAS_NUM_THREADS");

TEST(BlasLibraryTest, PicksTheUserCoreTypeOrTheOneForThisCpu) {
  const std::string core = blas::CoreName();
  if (kUserCoreType != nullptr) {
    EXPECT_EQ(strcasecmp(core.c_str(), kUserCoreType), 0)
        << "OPENBLAS_CORETYPE=" << kUserCoreType << " but OpenBLAS runs "
        << core;
    ASSERT_NE(std::getenv("OPENBLAS_CORETYPE"), nullptr);
    EXPECT_STREQ(std::getenv("OPENBLAS_CORETYPE"), kUserCoreType);
  } else {
    const char* preferred = blas::PreferredCoreType();
    if (*preferred != '\0') {
      EXPECT_EQ(core, preferred) << "loaded from " << blas::LibraryPath();
    }
    EXPECT_EQ(std::getenv("OPENBLAS_CORETYPE"), nullptr)
        << "the loader must restore the environment";
  }
  EXPECT_NE(core, "Prescott") << "OpenBLAS fell back to generic kernels";
}

TEST(BlasLibraryTest, SgemmAndDgemmMatchNaiveProducts) {
  const test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const int m = 37, n = 53, k = 29;
  std::vector<double> a(m * k), b(k * n), c(m * n, 0.0);
  for (double& x : a) x = uniform(rng);
  for (double& x : b) x = uniform(rng);
  std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end()),
      cf(m * n, 0.0f);
  const blas::CblasFunctions& cblas = blas::Cblas();
  cblas.dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a.data(),
              k, b.data(), n, 0.0, c.data(), n);
  cblas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
              af.data(), k, bf.data(), n, 0.0f, cf.data(), n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double expected = 0.0;
      for (int p = 0; p < k; ++p) expected += a[i * k + p] * b[p * n + j];
      ASSERT_NEAR(c[i * n + j], expected, 1e-12)
          << "dgemm at " << i << ", " << j;
      ASSERT_NEAR(cf[i * n + j], expected, 1e-4)
          << "sgemm at " << i << ", " << j;
    }
  }
}

TEST(BlasLibraryTest, RunsOneThreadUnlessTheUserSetsMore) {
  for (int n : {1, 2, 3}) {
    SetNumThreads(n);
    if (kUserThreads != nullptr) {
      EXPECT_EQ(blas::NumThreads(), std::atoi(kUserThreads))
          << "OPENBLAS_NUM_THREADS must win";
      EXPECT_STREQ(std::getenv("OPENBLAS_NUM_THREADS"), kUserThreads);
    } else {
      EXPECT_EQ(blas::NumThreads(), 1) << "with SetNumThreads(" << n << ")";
      EXPECT_EQ(std::getenv("OPENBLAS_NUM_THREADS"), nullptr)
          << "the loader must restore the environment";
    }
  }
  SetNumThreads(0);
}

TEST(BlasLibraryTest, LibraryPathNamesOpenBlas) {
  EXPECT_NE(blas::LibraryPath().find("libopenblas"), std::string::npos)
      << blas::LibraryPath();
}

}  // namespace
}  // namespace umbra
