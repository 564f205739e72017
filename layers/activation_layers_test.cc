// softplus and prelu against naive loops written here, in float and double:
// on rows whose length is not a multiple of the packet width (so that both
// the packet path and the scalar tail run), with special values, on images
// and matrices, and on nodes large enough to run on several threads.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/activation_ops.h"
#include "layers/standalone_layer.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {
namespace {

template <int dim, typename DType>
void FillUniform(Tensor<cpu, dim, DType> t, std::mt19937* engine, double lo,
                 double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  for (index_t i = 0; i < t.shape_.Size(); ++i) {
    t.dptr_[i] = DType(dist(*engine));
  }
}

// The special values, written over the first elements of `t` and again
// from element `at` (0 when negative).
template <typename DType>
void PutSpecialValues(Tensor<cpu, 4, DType> t, index_t at) {
  at = std::max<index_t>(at, 0);
  const DType inf = std::numeric_limits<DType>::infinity();
  const DType nan = std::numeric_limits<DType>::quiet_NaN();
  const DType special[] = {DType(0),   DType(-0.0), inf,         -inf,
                           nan,        DType(100),  DType(-100), DType(1e-30),
                           DType(-20), DType(20)};
  const index_t n = sizeof(special) / sizeof(special[0]);
  for (index_t i = 0; i < n && i < t.shape_.Size(); ++i) {
    t.dptr_[i] = special[i];
    if (at + i < t.shape_.Size()) t.dptr_[at + i] = special[i];
  }
}

// got == want, NaN equal to NaN, and (when `sign_of_zero`) +0 != -0.
template <typename DType>
bool SameValue(DType got, DType want, bool sign_of_zero) {
  if (std::isnan(want)) return std::isnan(got);
  if (sign_of_zero && want == 0 && std::signbit(got) != std::signbit(want)) {
    return false;
  }
  return got == want;
}

// |got - want| <= tol |want| (relative: tiny values too, down to the
// smallest normal number), with equal infinities and NaNs.
template <typename DType>
::testing::AssertionResult RelativelyNear(DType got, long double want,
                                          double tol) {
  if (std::isnan(want) && std::isnan(got)) return ::testing::AssertionSuccess();
  if (std::isinf(want) && got == want) return ::testing::AssertionSuccess();
  const long double err = std::fabs((long double)got - want);
  const long double scale =
      std::max<long double>(std::fabs(want), std::numeric_limits<DType>::min());
  if (err <= tol * scale) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "got " << got << ", want " << (double)want << " (relative error "
         << (double)(err / std::fabs(want)) << ")";
}

template <typename DType>
class ActivationLayersTest : public ::testing::Test {
 protected:
  // A few ulp: the packet paths are within a few ulp of std::exp/log1p.
  static double Tol() {
    return 16 * double(std::numeric_limits<DType>::epsilon());
  }
};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(ActivationLayersTest, RealTypes);

long double NaiveSoftplus(long double x) {
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}
long double NaiveSigmoid(long double x) { return 1 / (1 + std::exp(-x)); }

TYPED_TEST(ActivationLayersTest, SoftplusMatchesNaive) {
  typedef TypeParam DType;
  std::mt19937 engine(3);
  for (const Shape<4>& shape :
       {Shape4(3, 1, 1, 37), Shape4(2, 3, 5, 7), Shape4(64, 1, 1, 1100)}) {
    for (bool in_place : {false, true}) {
      const std::string what = "shape " + std::to_string(shape[0]) + "x" +
                               std::to_string(shape[3]) +
                               (in_place ? " in place" : "");
      StandaloneLayer<cpu, DType> net("softplus", {}, {shape}, 1, in_place);
      FillUniform(net.in(0).data, &engine, -60, 60);
      // In a packet and in the scalar tail of the first row.
      PutSpecialValues(net.in(0).data, shape[3] - 10);
      std::vector<DType> x(net.in(0).data.dptr_,
                           net.in(0).data.dptr_ + shape.Size());
      net.layer().Forward(true);
      const Tensor<cpu, 4, DType> y = net.out(0).data;
      for (index_t i = 0; i < shape.Size(); ++i) {
        const long double want = NaiveSoftplus(x[i]);
        if (std::isinf(x[i]) || std::isnan(x[i]) || x[i] == DType(100)) {
          ASSERT_TRUE(SameValue(y.dptr_[i], DType(want), false))
              << what << ": softplus(" << x[i] << ") = " << y.dptr_[i];
        } else {
          ASSERT_TRUE(RelativelyNear(y.dptr_[i], want, TestFixture::Tol()))
              << what << ": softplus(" << x[i] << ")";
        }
      }
      FillUniform(net.out(0).grad, &engine, -2, 2);
      std::vector<DType> g(net.out(0).grad.dptr_,
                           net.out(0).grad.dptr_ + shape.Size());
      net.layer().Backprop(true);
      const Tensor<cpu, 4, DType> in_grad = net.in(0).grad;
      for (index_t i = 0; i < shape.Size(); ++i) {
        // The gradient is sigmoid(x), computed from the rounded output.
        const long double want = NaiveSigmoid(x[i]) * g[i];
        if (std::isnan(x[i]) ||
            x[i] == -std::numeric_limits<DType>::infinity()) {
          ASSERT_TRUE(SameValue(in_grad.dptr_[i], DType(want), false))
              << what << ": gradient at " << x[i] << " = " << in_grad.dptr_[i];
        } else {
          ASSERT_TRUE(
              RelativelyNear(in_grad.dptr_[i], want, 2 * TestFixture::Tol()))
              << what << ": gradient at " << x[i];
        }
      }
    }
  }
}

// The element-wise parts of prelu are bit for bit the scalar operators; the
// slope gradient is the sum over batch and space of min(x, 0) * out_grad,
// added to what the gradient held.
template <typename DType>
void CheckPRelu(const Shape<4>& shape, bool with_special_values,
                std::mt19937* engine) {
  const bool matrix = shape[1] == 1 && shape[2] == 1;
  const index_t channels = matrix ? shape[3] : shape[1];
  const index_t inner = shape.Size() / (shape[0] * channels);
  const std::string what =
      "shape (" + std::to_string(shape[0]) + ", " + std::to_string(shape[1]) +
      ", " + std::to_string(shape[2]) + ", " + std::to_string(shape[3]) + ")";
  StandaloneLayer<cpu, DType> net("prelu", {{"init_slope", "0.25"}}, {shape});
  const WeightRef<cpu, DType> slope = net.layer().Weights()[0];
  ASSERT_EQ(slope.data.size(0), channels) << what;
  FillUniform(slope.data, engine, -1.5, 1.5);
  FillUniform(net.in(0).data, engine, -1, 1);
  if (with_special_values) {
    PutSpecialValues(net.in(0).data, shape.Size() - 10);
  }
  FillUniform(net.out(0).grad, engine, -1, 1);
  FillUniform(slope.grad, engine, -1, 1);
  const std::vector<DType> grad_before(slope.grad.dptr_,
                                       slope.grad.dptr_ + channels);
  net.layer().Forward(true);
  net.layer().Backprop(true);

  const DType* x = net.in(0).data.dptr_;
  const DType* g = net.out(0).grad.dptr_;
  std::vector<long double> sum(channels, 0.0L), abs_sum(channels, 0.0L);
  for (index_t i = 0; i < shape.Size(); ++i) {
    const index_t c = (i / inner) % channels;
    const DType a = slope.data[c];
    ASSERT_TRUE(
        SameValue(net.out(0).data.dptr_[i], op::prelu::Map(x[i], a), true))
        << what << ": prelu(" << x[i] << ", " << a << ") at " << i << " = "
        << net.out(0).data.dptr_[i];
    const DType want_grad = DType(op::prelu_grad::Map(x[i], a) * g[i]);
    ASSERT_TRUE(SameValue(net.in(0).grad.dptr_[i], want_grad, true))
        << what << ": input gradient at " << i;
    const long double term = (long double)op::negative_part::Map(x[i]) * g[i];
    sum[c] += term;
    abs_sum[c] += std::fabs(term);
  }
  // Rounding: a few ulp of the largest partial sum.
  auto tol = [&](index_t c, double before) {
    return 8 * double(std::numeric_limits<DType>::epsilon()) *
           (std::fabs(before) + double(abs_sum[c]));
  };
  for (index_t c = 0; c < channels; ++c) {
    const long double want = grad_before[c] + sum[c];
    if (with_special_values) {
      // The specials make some channels' sums inf or NaN.
      if (!std::isfinite(want)) {
        EXPECT_EQ(std::isnan(slope.grad[c]), std::isnan(want)) << what << c;
        continue;
      }
    }
    EXPECT_NEAR(double(slope.grad[c]), double(want), tol(c, grad_before[c]))
        << what << ": slope gradient of channel " << c;
  }

  // Without the input gradient: the slope gradient alone.
  const std::vector<DType> in_grad(net.in(0).grad.dptr_,
                                   net.in(0).grad.dptr_ + shape.Size());
  const std::vector<DType> accumulated(slope.grad.dptr_,
                                       slope.grad.dptr_ + channels);
  net.layer().Backprop(false);
  EXPECT_EQ(std::memcmp(in_grad.data(), net.in(0).grad.dptr_,
                        in_grad.size() * sizeof(DType)),
            0)
      << what << ": Backprop(false) wrote the input gradient";
  for (index_t c = 0; c < channels; ++c) {
    if (!std::isfinite(accumulated[c])) continue;
    EXPECT_NEAR(double(slope.grad[c]), double(accumulated[c] + sum[c]),
                tol(c, accumulated[c]))
        << what << ": second slope gradient of channel " << c;
  }
}

TYPED_TEST(ActivationLayersTest, PReluMatchesNaive) {
  std::mt19937 engine(5);
  for (const Shape<4>& shape : {
           Shape4(3, 4, 5, 7),     // rows of 35: packets and a tail
           Shape4(2, 3, 1, 2),     // rows shorter than a packet
           Shape4(4, 19, 1, 1),    // 1x1 images: one element per channel
           Shape4(5, 1, 1, 37),    // a matrix: the slope along the rows
           Shape4(3, 1, 1, 3),     // a matrix narrower than a packet
           Shape4(8, 20, 24, 24),  // large enough for several threads
           Shape4(40, 1, 1, 2000),
       }) {
    for (bool special : {false, true}) {
      CheckPRelu<TypeParam>(shape, special, &engine);
    }
  }
}

// prelu's random (cxxnet's): while training, each negative input is scaled
// by its own slope a * U(1 - r, 1 + r) clipped to [0, 1]; at test time by a.
TYPED_TEST(ActivationLayersTest,
           PReluRandomDrawsASlopePerElementWhileTraining) {
  typedef TypeParam DType;
  const Shape<4> shape = Shape4(4, 3, 5, 5);
  StandaloneLayer<cpu, DType> net(
      "prelu", {{"init_slope", "0.8"}, {"random", "0.5"}}, {shape});
  net.in(0).data = DType(-1);
  net.layer().Forward(true);
  std::set<DType> slopes;
  int clipped = 0;
  for (index_t i = 0; i < shape.Size(); ++i) {
    const DType slope = -net.out(0).data.dptr_[i];
    ASSERT_GE(slope, DType(0.8 * 0.5) * DType(1 - 1e-6)) << i;
    ASSERT_LE(slope, DType(1)) << i;
    clipped += slope == DType(1);
    slopes.insert(slope);
  }
  // 0.8 * U(0.5, 1.5) is above 1 a third of the time: 100 of 300 expected.
  EXPECT_GT(clipped, 50);
  EXPECT_LT(clipped, 150);
  EXPECT_GT(slopes.size(), 150u);
  net.layer().Forward(false);
  for (index_t i = 0; i < shape.Size(); ++i) {
    ASSERT_EQ(net.out(0).data.dptr_[i], -DType(0.8f)) << i;
  }
}

// The same results, bit for bit, on one thread and on all.
TYPED_TEST(ActivationLayersTest, PReluAndSoftplusDoNotDependOnThreads) {
  typedef TypeParam DType;
  for (const char* type : {"prelu", "softplus"}) {
    for (const Shape<4>& shape :
         {Shape4(8, 20, 24, 24), Shape4(40, 1, 1, 2000)}) {
      std::vector<std::vector<DType>> results;
      for (int threads : {1, 0}) {
        SetNumThreads(threads);
        std::mt19937 engine(9);
        StandaloneLayer<cpu, DType> net(type, {}, {shape});
        FillUniform(net.in(0).data, &engine, -3, 3);
        FillUniform(net.out(0).grad, &engine, -1, 1);
        net.layer().Forward(true);
        net.layer().Backprop(true);
        std::vector<DType> all(net.out(0).data.dptr_,
                               net.out(0).data.dptr_ + shape.Size());
        all.insert(all.end(), net.in(0).grad.dptr_,
                   net.in(0).grad.dptr_ + shape.Size());
        for (const WeightRef<cpu, DType>& w : net.layer().Weights()) {
          all.insert(all.end(), w.grad.dptr_, w.grad.dptr_ + w.grad.size(0));
        }
        results.push_back(all);
      }
      SetNumThreads(0);
      ASSERT_EQ(results[0].size(), results[1].size());
      EXPECT_EQ(std::memcmp(results[0].data(), results[1].data(),
                            results[0].size() * sizeof(DType)),
                0)
          << type;
    }
  }
}

}  // namespace
}  // namespace layers
}  // namespace umbra
