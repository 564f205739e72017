// Helpers specific to the GPU tests: a fixture that requires a CUDA device,
// the element types of typed tests and their tolerances,
// host<->device copies of whole tensors, element-wise comparison of a GPU
// result with a host reference, and (in .cu files) SameOnGpu, which runs one
// expression on both devices. The seeded RNG and the host comparison come
// from tensor/test_util.h.
//
// Example:
//   TEST_F(GpuTest, Relu) {
//     auto a = rng_.Tensor<float>(Shape2(7, 13));
//     auto da = ToGpu(a.view());
//     ...
//     EXPECT_TRUE(AllNear(ToCpu(dd.view()).view(), want.view(), 1e-6));
//   }
#ifndef UMBRA_TENSOR_GPU_GPU_TEST_UTIL_H_
#define UMBRA_TENSOR_GPU_GPU_TEST_UTIL_H_

#include <tuple>
#include <type_traits>

#include "gtest/gtest.h"
#include "tensor/gpu/tensor_gpu.h"
#include "tensor/tensor.h"
#include "tensor/test_util.h"

namespace umbra {
namespace gpu_test {

using test::AllNear;
using test::Rng;

// The element types of the typed GPU tests: TYPED_TEST_SUITE(Suite, RealTypes).
typedef ::testing::Types<float, double> RealTypes;

// A typed test's tolerance: `for_float` for float, `for_double` for double.
template <typename DType>
constexpr double TolFor(double for_float, double for_double) {
  static_assert(
      std::is_same<DType, float>::value || std::is_same<DType, double>::value,
      "TolFor: the typed GPU tests run over float and double");
  return std::is_same<DType, float>::value ? for_float : for_double;
}

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

// The GPU tensor, copied to the host, against a host reference.
template <int dim, typename DType, typename WType>
::testing::AssertionResult GpuNear(const Tensor<gpu, dim, DType>& got,
                                   const Tensor<cpu, dim, WType>& want,
                                   double tol) {
  TensorContainer<cpu, dim, DType> host = ToCpu(got);
  return AllNear(host.view(), want, tol);
}

// The shape and the element type of a dim-D expression (a chainer, a map,
// a range, ...).
template <int dim, typename E, typename DType, int etype>
Shape<dim> ShapeOf(const expr::Exp<E, DType, etype>& e) {
  return expr::ShapeCheck<dim, E>::Check(e.self());
}
template <typename E, typename DType, int etype>
DType DTypeOf(const expr::Exp<E, DType, etype>&);

// Evaluates the dim-D expression make(inputs...) from the host tensors
// `inputs` (containers) and from device copies of them (rows padded, so the
// kernel sees strides), each into a fresh container of the expression's
// shape, and compares the results: |gpu - cpu| <= tol * max(1, |cpu|).
// Only in .cu files: the expression is compiled into a kernel where this
// is instantiated.
//
// Example:
//   EXPECT_TRUE(SameOnGpu<4>(
//       0, [](auto x) { return pool<red::maximum>(x, 3, 3, 2, 2); }, x));
template <int dim, typename MakeFn, typename... Inputs>
::testing::AssertionResult SameOnGpu(double tol, const MakeFn& make,
                                     const Inputs&... inputs) {
  const auto host_exp = make(inputs.view()...);
  typedef decltype(DTypeOf(host_exp)) DType;
  TensorContainer<cpu, dim, DType> want(ShapeOf<dim>(host_exp));
  want = host_exp;
  std::tuple<decltype(ToGpu(inputs.view()))...> device(
      ToGpu(inputs.view(), /*pad=*/true)...);
  TensorContainer<gpu, dim, DType> got(want.shape_);
  std::apply([&](const auto&... d) { got = make(d.view()...); }, device);
  return GpuNear(got.view(), want.view(), tol);
}

}  // namespace gpu_test
}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_GPU_TEST_UTIL_H_
