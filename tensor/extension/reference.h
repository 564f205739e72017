// Test helpers specific to tensor/extension: multi-index access to
// (row-strided) tensors and comparison with a naive reference written over
// multi-indices, computed in double. The seeded RNG, labels and TensorError
// expectations come from tensor/test_util.h.
//
// Example:
//   ext_test::Rng rng;
//   auto a = rng.Tensor<float>(Shape3(2, 3, 5));
//   EXPECT_TRUE(ext_test::AllNear(out, [&](const Idx& i) { ... }, 1e-5));
#ifndef UMBRA_TENSOR_EXTENSION_REFERENCE_H_
#define UMBRA_TENSOR_EXTENSION_REFERENCE_H_

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_util.h"

namespace umbra {
namespace ext_test {

// A multi-index (up to 5 dimensions).
typedef std::vector<index_t> Idx;

using test::Rng;
using test::ThrowsTensorError;

// Multi-index of flat position `flat` in `shape`.
template <int dim>
Idx Unravel(const Shape<dim>& shape, index_t flat) {
  Idx idx(dim);
  for (int k = dim - 1; k >= 0; --k) {
    idx[k] = flat % shape[k];
    flat /= shape[k];
  }
  return idx;
}

// Element at a multi-index of a (possibly row-strided) tensor.
template <int dim, typename DType>
double At(const umbra::Tensor<cpu, dim, DType>& t, const Idx& idx) {
  index_t row = 0;
  for (int k = 0; k < dim - 1; ++k) row = row * t.shape_[k] + idx[k];
  return static_cast<double>(t.dptr_[row * t.stride_ + idx[dim - 1]]);
}

// Checks |t[i] - ref(i)| <= tol * max(1, |ref(i)|) at every multi-index i
// of t; reports the first mismatch.
template <int dim, typename DType>
::testing::AssertionResult AllNear(const umbra::Tensor<cpu, dim, DType>& t,
                                   const std::function<double(const Idx&)>& ref,
                                   double tol) {
  const index_t size = t.shape_.Size();
  for (index_t f = 0; f < size; ++f) {
    const Idx idx = Unravel(t.shape_, f);
    const double want = ref(idx);
    const double got = At(t, idx);
    if (!(std::fabs(got - want) <= tol * std::max(1.0, std::fabs(want)))) {
      std::string where;
      for (index_t v : idx)
        where += (where.empty() ? "" : ",") + std::to_string(v);
      return ::testing::AssertionFailure()
             << "at (" << where << ") of " << t.shape_ << ": got " << got
             << ", want " << want;
    }
  }
  return ::testing::AssertionSuccess();
}

// Tolerance for a DType result of a short computation.
template <typename DType>
constexpr double Tol() {
  return sizeof(DType) == 4 ? 1e-5 : 1e-12;
}

}  // namespace ext_test
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_REFERENCE_H_
