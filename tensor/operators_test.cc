// Every op:: operator against a reference in double, on sizes that are not a
// multiple of the packet width, through both the packet path (tensor
// operands) and the scalar path (a transposed operand), float and double.
#include <cmath>
#include <functional>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_util.h"

namespace umbra {
namespace {

using expr::F;

double Sigmoid(double a) { return 1.0 / (1.0 + std::exp(-a)); }

template <typename DType>
class OperatorsTest : public ::testing::Test {
 protected:
  // Checks dst = F<OP>(a) against ref, via packets and via the scalar plan.
  template <typename OP>
  void Unary(const std::function<double(double)>& ref, double lo, double hi) {
    test::Rng rng;
    SCOPED_TRACE(OpName<OP>::Get());
    auto a = rng.template Tensor<DType>(Shape2(7, 23), lo, hi);
    auto at = rng.template Tensor<DType>(Shape2(23, 7), lo, hi);
    TensorContainer<cpu, 2, DType> dst(Shape2(7, 23));
    dst = F<OP>(a);
    EXPECT_TRUE(test::AllNear(
        dst, [&](index_t y, index_t x) { return ref(double(a[y][x])); },
        Tol()));
    dst = F<OP>(at.T());
    EXPECT_TRUE(test::AllNear(
        dst, [&](index_t y, index_t x) { return ref(double(at[x][y])); },
        Tol()));
  }
  template <typename OP>
  void Binary(const std::function<double(double, double)>& ref, double lo,
              double hi, double blo, double bhi) {
    test::Rng rng;
    SCOPED_TRACE(OpName<OP>::Get());
    auto a = rng.template Tensor<DType>(Shape2(5, 29), lo, hi);
    auto b = rng.template Tensor<DType>(Shape2(5, 29), blo, bhi);
    auto bt = rng.template Tensor<DType>(Shape2(29, 5), blo, bhi);
    TensorContainer<cpu, 2, DType> dst(Shape2(5, 29));
    dst = F<OP>(a, b);
    EXPECT_TRUE(test::AllNear(
        dst,
        [&](index_t y, index_t x) {
          return ref(double(a[y][x]), double(b[y][x]));
        },
        Tol()));
    dst = F<OP>(a, bt.T());
    EXPECT_TRUE(test::AllNear(
        dst,
        [&](index_t y, index_t x) {
          return ref(double(a[y][x]), double(bt[x][y]));
        },
        Tol()));
    const DType s = DType(rng.Uniform(blo, bhi));
    dst = F<OP>(a, s);
    EXPECT_TRUE(test::AllNear(
        dst,
        [&](index_t y, index_t x) { return ref(double(a[y][x]), double(s)); },
        Tol()));
  }
  static double Tol() { return sizeof(DType) == 4 ? 2e-6 : 1e-14; }
};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(OperatorsTest, RealTypes);

TYPED_TEST(OperatorsTest, Unary) {
  this->template Unary<op::identity>([](double a) { return a; }, -3, 3);
  this->template Unary<op::negation>([](double a) { return -a; }, -3, 3);
  this->template Unary<op::exp>([](double a) { return std::exp(a); }, -5, 5);
  this->template Unary<op::log>([](double a) { return std::log(a); }, 0.01, 10);
  this->template Unary<op::sqrt>([](double a) { return std::sqrt(a); }, 0, 10);
  this->template Unary<op::rsqrt>([](double a) { return 1 / std::sqrt(a); },
                                  0.01, 10);
  this->template Unary<op::square>([](double a) { return a * a; }, -3, 3);
  this->template Unary<op::abs>([](double a) { return std::fabs(a); }, -3, 3);
  this->template Unary<op::sign>(
      [](double a) { return a > 0   ? 1.0
                            : a < 0 ? -1.0
                                    : 0.0; }, -3, 3);
  this->template Unary<op::relu>([](double a) { return a > 0 ? a : 0; }, -3, 3);
  this->template Unary<op::relu_grad>([](double a) { return a > 0 ? 1 : 0; },
                                      -3, 3);
  this->template Unary<op::sigmoid>(Sigmoid, -8, 8);
  this->template Unary<op::sigmoid_grad>([](double y) { return y * (1 - y); },
                                         0, 1);
  this->template Unary<op::tanh>([](double a) { return std::tanh(a); }, -4, 4);
  this->template Unary<op::tanh_grad>([](double y) { return 1 - y * y; }, -1,
                                      1);
  this->template Unary<op::softplus>(
      [](double a) { return std::log1p(std::exp(a)); }, -30, 30);
}

TYPED_TEST(OperatorsTest, Binary) {
  this->template Binary<op::plus>([](double a, double b) { return a + b; }, -3,
                                  3, -3, 3);
  this->template Binary<op::minus>([](double a, double b) { return a - b; }, -3,
                                   3, -3, 3);
  this->template Binary<op::mul>([](double a, double b) { return a * b; }, -3,
                                 3, -3, 3);
  this->template Binary<op::div>([](double a, double b) { return a / b; }, -3,
                                 3, 0.5, 3);
  this->template Binary<op::right>([](double a, double b) { return b; }, -3, 3,
                                   -3, 3);
  this->template Binary<op::pow>(
      [](double a, double b) { return std::pow(a, b); }, 0.1, 3, -2, 2);
  this->template Binary<op::maximum>(
      [](double a, double b) { return std::max(a, b); }, -3, 3, -3, 3);
  this->template Binary<op::minimum>(
      [](double a, double b) { return std::min(a, b); }, -3, 3, -3, 3);
  this->template Binary<op::clip>(
      [](double a, double b) { return a > b    ? b
                                      : a < -b ? -b
                                               : a; }, -3, 3,
      0.5, 2);
  this->template Binary<op::threshold>(
      [](double a, double b) { return a < b ? 1 : 0; }, 0, 1, 0, 1);
}

TEST(OperatorsMiscTest, SpecialValuesMatchScalarSemantics) {
  const float nan = std::nanf("");
  const float inf = std::numeric_limits<float>::infinity();
  float in[11] = {nan, -inf, inf, -0.0f, 0.0f, 1, -1, 2, -2, nan, 3};
  float out[11];
  Tensor<cpu, 1> a(in, Shape1(11)), o(out, Shape1(11));
  o = F<op::relu>(a);
  for (int i = 0; i < 11; ++i) EXPECT_EQ(out[i], op::relu::Map(in[i])) << i;
  o = F<op::clip>(a, 1.5f);
  for (int i = 0; i < 11; ++i) {
    const float want = op::clip::Map(in[i], 1.5f);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(out[i])) << i;
    } else {
      EXPECT_EQ(out[i], want) << i;
    }
  }
  o = F<op::maximum>(a, 0.5f);
  for (int i = 0; i < 11; ++i) {
    EXPECT_EQ(out[i], op::maximum::Map(in[i], 0.5f)) << i;
  }
  o = F<op::sign>(a);
  for (int i = 0; i < 11; ++i) EXPECT_EQ(out[i], op::sign::Map(in[i])) << i;
  // softplus: infinities and NaN as the scalar operator, through the packets
  // (the first 8) and the scalar tail.
  o = F<op::softplus>(a);
  for (int i = 0; i < 11; ++i) {
    const float want = op::softplus::Map(in[i]);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(out[i])) << i;
    } else if (std::isinf(want)) {
      EXPECT_EQ(out[i], want) << i;
    } else {
      EXPECT_NEAR(out[i], want, 4e-7f * std::fabs(want)) << i;
    }
  }
  // softplus does not overflow.
  float big[1] = {100.0f};
  Tensor<cpu, 1> bt(big, Shape1(1));
  bt = F<op::softplus>(bt);
  EXPECT_EQ(big[0], 100.0f);
}

TEST(OperatorsMiscTest, Reducers) {
  float s;
  red::sum::SetInitValue(s);
  EXPECT_EQ(s, 0.0f);
  red::sum::Reduce(s, 2.5f);
  red::sum::Reduce(s, 1.0f);
  EXPECT_EQ(s, 3.5f);
  EXPECT_EQ(red::sum::PartialGrad(3.5f, 1.0f), 1.0f);
  double m;
  red::maximum::SetInitValue(m);
  EXPECT_EQ(m, -std::numeric_limits<double>::infinity());
  red::maximum::Reduce(m, -5.0);
  red::maximum::Reduce(m, -7.0);
  EXPECT_EQ(m, -5.0);
  EXPECT_EQ(red::maximum::PartialGrad(-5.0, -5.0), 1.0);
  EXPECT_EQ(red::maximum::PartialGrad(-5.0, -7.0), 0.0);
  int32_t mi;
  red::minimum::SetInitValue(mi);
  EXPECT_EQ(mi, INT32_MAX);
  red::minimum::Reduce(mi, 4);
  red::minimum::Reduce(mi, 9);
  EXPECT_EQ(mi, 4);
  EXPECT_STREQ(OpName<op::plus>::Get(), "plus");
  struct Unnamed {};
  EXPECT_STREQ(OpName<Unnamed>::Get(), "user-defined op");
}

TEST(OperatorsMiscTest, IntegerTensors) {
  int32_t a[6] = {1, -2, 3, -4, 5, -6}, b[6] = {2, 2, 2, 2, 2, 2}, c[6];
  Tensor<cpu, 2, int32_t> ta(a, Shape2(2, 3)), tb(b, Shape2(2, 3)),
      tc(c, Shape2(2, 3));
  tc = ta * tb + 1;
  for (int i = 0; i < 6; ++i) EXPECT_EQ(c[i], a[i] * 2 + 1);
  tc = F<op::maximum>(ta, tb);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(c[i], std::max(a[i], 2));
  tc /= 2;
  for (int i = 0; i < 6; ++i) EXPECT_EQ(c[i], std::max(a[i], 2) / 2);
}

}  // namespace
}  // namespace umbra
