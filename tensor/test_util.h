// Helpers for every tensor test (core, tensor/extension, tensor/gpu): a
// seeded RNG whose seed is a TestSeed() (tensor/test_seed.h), printed on
// failure, owned random tensors and labels, element-wise comparison against
// a reference function or tensor, and TensorError expectations.
//
// Example:
//   umbra::test::Rng rng;  // failures print the seed
//   auto a = rng.Tensor<float>(umbra::Shape2(7, 13));
//   EXPECT_TRUE(umbra::test::AllNear(a.view(), ref, 1e-6));
#ifndef UMBRA_TENSOR_TEST_UTIL_H_
#define UMBRA_TENSOR_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace test {

// `count` distinct values in [0, 1) in random order, at least 1 / (2 count)
// apart: one uniform in the middle half of each of `count` equal cells. For
// finite-difference checks of a max, which a near tie would break.
template <typename Engine>
std::vector<double> DistinctUnitValues(index_t count, Engine* engine) {
  std::vector<index_t> cells(count);
  std::iota(cells.begin(), cells.end(), index_t(0));
  std::shuffle(cells.begin(), cells.end(), *engine);
  std::uniform_real_distribution<double> offset(0.25, 0.75);
  std::vector<double> values(count);
  for (index_t i = 0; i < count; ++i) {
    values[i] = (cells[i] + offset(*engine)) / count;
  }
  return values;
}

// A generator seeded with a ScopedTestSeed. Construct it at the top of a
// test: the seed is attached to every failure message of the test.
class Rng {
 public:
  Rng() : engine_(seed_.value()) {}
  unsigned seed() const { return seed_.value(); }
  double Uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(engine_);
  }
  // A uniform integer in [lo, hi].
  index_t Int(index_t lo, index_t hi) {
    return std::uniform_int_distribution<index_t>(lo, hi)(engine_);
  }
  // A container of the shape filled with uniform values in [lo, hi)
  // (rows padded to the alignment when `pad`).
  template <typename DType, int dim>
  TensorContainer<cpu, dim, DType> Tensor(const Shape<dim>& shape,
                                          double lo = -2.0, double hi = 2.0,
                                          bool pad = false) {
    TensorContainer<cpu, dim, DType> t(shape, pad);
    Fill(t.view(), lo, hi);
    return t;
  }
  // Fills a (possibly strided) tensor with uniform values in [lo, hi).
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
  // A container of the shape with distinct values in random order in
  // [lo, hi), at least (hi - lo) / (2 size) apart (DistinctUnitValues).
  template <typename DType, int dim>
  TensorContainer<cpu, dim, DType> DistinctTensor(const Shape<dim>& shape,
                                                  double lo = -2.0,
                                                  double hi = 2.0) {
    TensorContainer<cpu, dim, DType> t(shape);
    const std::vector<double> values =
        DistinctUnitValues(shape.Size(), &engine_);
    for (index_t i = 0; i < shape.Size(); ++i) {
      t.dptr_[i] = DType(lo + (hi - lo) * values[i]);
    }
    return t;
  }
  // A 1-D container of integer class indices in [0, n) stored as DType.
  template <typename DType>
  TensorContainer<cpu, 1, DType> Labels(index_t size, index_t n) {
    TensorContainer<cpu, 1, DType> t(Shape1(size));
    for (index_t i = 0; i < size; ++i) t[i] = DType(Int(0, n - 1));
    return t;
  }

 private:
  ScopedTestSeed seed_;
  std::mt19937 engine_;
};

// Element (y, x) of the 2-D view of t.
template <int dim, typename DType>
DType At(const umbra::Tensor<cpu, dim, DType>& t, index_t y, index_t x) {
  return t.FlatTo2D()[y][x];
}

// Checks |t - ref(y, x)| <= tol * max(1, |ref|) at every (y, x) of the 2-D
// view of t; reports the first mismatch.
template <int dim, typename DType>
::testing::AssertionResult AllNear(
    const umbra::Tensor<cpu, dim, DType>& t,
    const std::function<double(index_t, index_t)>& ref, double tol) {
  umbra::Tensor<cpu, 2, DType> t2 = t.FlatTo2D();
  for (index_t y = 0; y < t2.size(0); ++y) {
    for (index_t x = 0; x < t2.size(1); ++x) {
      const double want = ref(y, x);
      const double got = static_cast<double>(t2[y][x]);
      const double err = std::fabs(got - want);
      const bool both_nan = std::isnan(got) && std::isnan(want);
      if (!both_nan && !(err <= tol * std::max(1.0, std::fabs(want)))) {
        return ::testing::AssertionFailure()
               << "at (" << y << ", " << x << ") of " << t.shape_ << ": got "
               << got << ", want " << want;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// Checks |got - want| <= tol * max(1, |want|) element-wise for two tensors
// of the same shape (any element types); reports the first mismatch.
template <int dim, typename DType, typename WType>
::testing::AssertionResult AllNear(const umbra::Tensor<cpu, dim, DType>& got,
                                   const umbra::Tensor<cpu, dim, WType>& want,
                                   double tol) {
  if (got.shape_ != want.shape_) {
    return ::testing::AssertionFailure()
           << "shapes " << got.shape_ << " vs " << want.shape_;
  }
  const umbra::Tensor<cpu, 2, WType> w = want.FlatTo2D();
  return AllNear(
      got, [&](index_t y, index_t x) { return static_cast<double>(w[y][x]); },
      tol);
}

// Checks two tensors are bitwise equal.
template <int dim, typename DType>
::testing::AssertionResult BitwiseEqual(
    const umbra::Tensor<cpu, dim, DType>& a,
    const umbra::Tensor<cpu, dim, DType>& b) {
  if (a.shape_ != b.shape_) {
    return ::testing::AssertionFailure()
           << "shapes " << a.shape_ << " vs " << b.shape_;
  }
  umbra::Tensor<cpu, 2, DType> a2 = a.FlatTo2D(), b2 = b.FlatTo2D();
  for (index_t y = 0; y < a2.size(0); ++y) {
    if (std::memcmp(a2[y].dptr_, b2[y].dptr_, sizeof(DType) * a2.size(1)) !=
        0) {
      return ::testing::AssertionFailure() << "row " << y << " differs";
    }
  }
  return ::testing::AssertionSuccess();
}

// Runs fn with the given thread count, restoring the default afterwards.
inline void WithThreads(int n, const std::function<void()>& fn) {
  SetNumThreads(n);
  fn();
  SetNumThreads(0);
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

}  // namespace test
}  // namespace umbra

#endif  // UMBRA_TENSOR_TEST_UTIL_H_
