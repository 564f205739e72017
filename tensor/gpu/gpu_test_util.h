// Helpers for the GPU tests: a fixture that requires a CUDA device, a seeded
// RNG whose seed is printed on failure, host<->device copies of whole
// tensors, and element-wise comparison of a GPU result with the CPU's.
//
// Example:
//   TEST_F(GpuTest, Relu) {
//     auto a = rng_.Tensor<2, float>(Shape2(7, 13));
//     auto da = ToGpu(a.view());
//     ...
//     EXPECT_TRUE(AllNear(ToCpu(dd.view()).view(), want.view(), 1e-6));
//   }
#ifndef UMBRA_TENSOR_GPU_GPU_TEST_UTIL_H_
#define UMBRA_TENSOR_GPU_GPU_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "tensor/gpu/tensor_gpu.h"
#include "tensor/tensor.h"

namespace umbra {
namespace gpu_test {

// A fresh generator seeded from std::random_device; the seed is attached to
// every failure of the test that owns it.
class Rng {
 public:
  Rng()
      : seed_(std::random_device{}()),
        engine_(seed_),
        trace_(__FILE__, __LINE__, "random seed " + std::to_string(seed_)) {}
  double Uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(engine_);
  }
  // A host container filled with uniform values in [lo, hi).
  template <int dim, typename DType>
  TensorContainer<cpu, dim, DType> Tensor(const Shape<dim>& shape,
                                          double lo = -2.0, double hi = 2.0) {
    TensorContainer<cpu, dim, DType> t(shape);
    umbra::Tensor<cpu, 2, DType> t2 = t.FlatTo2D();
    for (index_t y = 0; y < t2.size(0); ++y) {
      for (index_t x = 0; x < t2.size(1); ++x) {
        t2[y][x] = DType(Uniform(lo, hi));
      }
    }
    return t;
  }

 private:
  unsigned seed_;
  std::mt19937 engine_;
  ::testing::ScopedTrace trace_;
};

// Fails the test up front when there is no GPU.
class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(GpuDeviceCount(), 0)
        << "this test is tagged gpu and needs a CUDA device";
  }
  Rng rng_;
};

// A device copy of a host tensor (optionally with padded rows).
template <int dim, typename DType>
TensorContainer<gpu, dim, DType> ToGpu(const Tensor<cpu, dim, DType>& host,
                                       bool pad = false) {
  TensorContainer<gpu, dim, DType> out(host.shape_, pad);
  Copy(out.view(), host);
  return out;
}

// A host copy of a device tensor (synchronous).
template <int dim, typename DType>
TensorContainer<cpu, dim, DType> ToCpu(const Tensor<gpu, dim, DType>& dev) {
  TensorContainer<cpu, dim, DType> out(dev.shape_);
  Copy(out.view(), dev);
  return out;
}

// Checks |got - want| <= tol * max(1, |want|) everywhere; reports the first
// mismatch with its position.
template <int dim, typename DType, typename WType>
::testing::AssertionResult AllNear(const Tensor<cpu, dim, DType>& got,
                                   const Tensor<cpu, dim, WType>& want,
                                   double tol) {
  if (got.shape_ != want.shape_) {
    return ::testing::AssertionFailure()
           << "shapes " << got.shape_ << " vs " << want.shape_;
  }
  const Tensor<cpu, 2, DType> g = got.FlatTo2D();
  const Tensor<cpu, 2, WType> w = want.FlatTo2D();
  for (index_t y = 0; y < g.size(0); ++y) {
    for (index_t x = 0; x < g.size(1); ++x) {
      const double a = static_cast<double>(g[y][x]);
      const double b = static_cast<double>(w[y][x]);
      if (std::isnan(a) && std::isnan(b)) continue;
      if (!(std::fabs(a - b) <= tol * std::max(1.0, std::fabs(b)))) {
        return ::testing::AssertionFailure()
               << "at (" << y << ", " << x << ") of " << got.shape_ << ": gpu "
               << a << ", cpu " << b;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// The GPU tensor, copied to the host, against a host reference.
template <int dim, typename DType, typename WType>
::testing::AssertionResult GpuNear(const Tensor<gpu, dim, DType>& got,
                                   const Tensor<cpu, dim, WType>& want,
                                   double tol) {
  TensorContainer<cpu, dim, DType> host = ToCpu(got);
  return AllNear(host.view(), want, tol);
}

}  // namespace gpu_test
}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_GPU_TEST_UTIL_H_
