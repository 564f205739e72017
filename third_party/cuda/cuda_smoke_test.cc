// Runs the CUDA smoke check on a GPU: kernel, cuBLAS and cuDNN results against
// the CPU.
#include "third_party/cuda/cuda_smoke.h"

#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace umbra::cuda_smoke {
namespace {

class CudaSmokeTest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(DeviceCount(), 0)
        << "this test is tagged gpu and needs a CUDA device";
  }
  std::vector<float> RandomVector(size_t size) {
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> values(size);
    for (float& x : values) x = uniform(rng_);
    return values;
  }
  std::mt19937 rng_{std::random_device{}()};
};

TEST_F(CudaSmokeTest, SaxpyKernelMatchesCpu) {
  const std::vector<float> x = RandomVector(100003);
  std::vector<float> y = RandomVector(x.size());
  const std::vector<float> y_before = y;
  Saxpy(0.5f, x, &y);
  for (size_t i = 0; i < x.size(); ++i)
    ASSERT_FLOAT_EQ(y[i], 0.5f * x[i] + y_before[i]);
}

TEST_F(CudaSmokeTest, CublasSgemmMatchesCpu) {
  const int m = 33, n = 17, k = 45;
  const std::vector<float> a = RandomVector(m * k), b = RandomVector(k * n);
  const std::vector<float> c = Sgemm(m, n, k, a, b);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double expected = 0.0;
      for (int p = 0; p < k; ++p)
        expected += double(a[i * k + p]) * b[p * n + j];
      ASSERT_NEAR(c[i * n + j], expected, 1e-4);
    }
  }
}

TEST_F(CudaSmokeTest, CudnnHandleIsCreated) {
  EXPECT_GE(CudnnVersion(), 90000u);
}

}  // namespace
}  // namespace umbra::cuda_smoke
