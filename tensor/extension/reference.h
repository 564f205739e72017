// Test helpers for tensor/extension: a seeded RNG (seed from
// std::random_device, printed with every failure), owned random tensors,
// multi-index access to contiguous tensors and comparison with a naive
// reference computed in double.
//
// (//tensor:test_util is private to the tensor package, so the extension
// tests carry this small equivalent.)
//
// Example:
//   ext_test::Rng rng;
//   auto a = rng.Tensor<float>(Shape3(2, 3, 5));
//   EXPECT_TRUE(ext_test::AllNear(out, [&](const Idx& i) { ... }, 1e-5));
#ifndef UMBRA_TENSOR_EXTENSION_REFERENCE_H_
#define UMBRA_TENSOR_EXTENSION_REFERENCE_H_

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/tensor.h"

namespace umbra {
namespace ext_test {

// A multi-index (up to 5 dimensions).
typedef std::vector<index_t> Idx;

// A fresh generator; its seed is attached to every failure of the test.
class Rng {
 public:
  Rng()
      : seed_(std::random_device{}()),
        engine_(seed_),
        trace_(__FILE__, __LINE__, "random seed " + std::to_string(seed_)) {}
  double Uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(engine_);
  }
  index_t Int(index_t lo, index_t hi) {
    return std::uniform_int_distribution<index_t>(lo, hi)(engine_);
  }
  // A container of the shape filled with uniform values in [lo, hi).
  template <typename DType, int dim>
  TensorContainer<cpu, dim, DType> Tensor(const Shape<dim>& shape,
                                          double lo = -2.0, double hi = 2.0) {
    TensorContainer<cpu, dim, DType> t(shape);
    Fill(t.view(), lo, hi);
    return t;
  }
  template <typename DType, int dim>
  void Fill(umbra::Tensor<cpu, dim, DType> t, double lo = -2.0,
            double hi = 2.0) {
    umbra::Tensor<cpu, 2, DType> t2 = t.FlatTo2D();
    for (index_t y = 0; y < t2.size(0); ++y) {
      for (index_t x = 0; x < t2.size(1); ++x) {
        t2[y][x] = DType(Uniform(lo, hi));
      }
    }
  }
  // A 1-D container of integer class indices in [0, n) stored as DType.
  template <typename DType>
  TensorContainer<cpu, 1, DType> Labels(index_t size, index_t n) {
    TensorContainer<cpu, 1, DType> t(Shape1(size));
    for (index_t i = 0; i < size; ++i) t[i] = DType(Int(0, n - 1));
    return t;
  }

 private:
  unsigned seed_;
  std::mt19937 engine_;
  ::testing::ScopedTrace trace_;
};

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

// Expects `fn` to throw TensorError whose message contains every word.
inline ::testing::AssertionResult ThrowsTensorError(
    const std::function<void()>& fn, const std::vector<std::string>& words) {
  try {
    fn();
  } catch (const TensorError& e) {
    const std::string what = e.what();
    for (const std::string& w : words) {
      if (what.find(w) == std::string::npos) {
        return ::testing::AssertionFailure()
               << "message \"" << what << "\" lacks \"" << w << "\"";
      }
    }
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "no TensorError thrown";
}

}  // namespace ext_test
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_REFERENCE_H_
