// Every expression type and saver against a naive reference loop: scalars,
// + - * / in all operand combinations, F<op> (unary, binary, ternary),
// tcast, transpose, unary minus, strided views, aliasing, float and double.
#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_util.h"

namespace umbra {
namespace {

using expr::F;

struct fma3 {
  UMBRA_XINLINE static double Map(double a, double b, double c) {
    return a * b + c;
  }
  UMBRA_XINLINE static float Map(float a, float b, float c) {
    return a * b + c;
  }
};

template <typename DType>
class ExpressionTest : public ::testing::Test {};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(ExpressionTest, RealTypes);

TYPED_TEST(ExpressionTest, SaversWithScalarsAndExpressions) {
  typedef TypeParam D;
  test::Rng rng;
  // 37 is not a multiple of any packet width.
  const Shape<2> s = Shape2(5, 37);
  auto a = rng.Tensor<D>(s), b = rng.Tensor<D>(s, 0.5, 2.0);
  TensorContainer<cpu, 2, D> dst(s), orig(s);
  auto A = [&](index_t y, index_t x) { return double(test::At(a, y, x)); };
  auto B = [&](index_t y, index_t x) { return double(test::At(b, y, x)); };
  auto O = [&](index_t y, index_t x) { return double(test::At(orig, y, x)); };
  const double tol = sizeof(D) == 4 ? 1e-6 : 1e-14;

  dst = D(1.5);
  EXPECT_TRUE(test::AllNear(
      dst, [](index_t, index_t) { return 1.5; }, 0));
  rng.Fill(orig.view());
  Copy(dst.view(), orig.view());
  dst += D(2);
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return O(y, x) + 2; }, tol));
  Copy(dst.view(), orig.view());
  dst -= D(2);
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return O(y, x) - 2; }, tol));
  Copy(dst.view(), orig.view());
  dst *= D(3);
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return O(y, x) * 3; }, tol));
  Copy(dst.view(), orig.view());
  dst /= D(4);
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return O(y, x) / 4; }, tol));

  Copy(dst.view(), orig.view());
  dst += a * b;
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return O(y, x) + A(y, x) * B(y, x); },
      4 * tol));
  Copy(dst.view(), orig.view());
  dst -= a;
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return O(y, x) - A(y, x); }, tol));
  Copy(dst.view(), orig.view());
  dst *= b;
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return O(y, x) * B(y, x); }, tol));
  Copy(dst.view(), orig.view());
  dst /= b;
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return O(y, x) / B(y, x); }, tol));
}

TYPED_TEST(ExpressionTest, ArithmeticInAllOperandCombinations) {
  typedef TypeParam D;
  test::Rng rng;
  const Shape<3> s = Shape3(3, 4, 19);
  auto a = rng.Tensor<D>(s), b = rng.Tensor<D>(s, 0.5, 2.0);
  TensorContainer<cpu, 3, D> dst(s);
  auto A = [&](index_t y, index_t x) { return double(test::At(a, y, x)); };
  auto B = [&](index_t y, index_t x) { return double(test::At(b, y, x)); };
  const double tol = sizeof(D) == 4 ? 1e-5 : 1e-13;

  dst = a + b;
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return A(y, x) + B(y, x); }, tol));
  dst = a - b;
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return A(y, x) - B(y, x); }, tol));
  dst = a * b;
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return A(y, x) * B(y, x); }, tol));
  dst = a / b;
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return A(y, x) / B(y, x); }, tol));
  dst = a * D(2) + D(1);
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return A(y, x) * 2 + 1; }, tol));
  dst = D(3) - a / D(2);
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return 3 - A(y, x) / 2; }, tol));
  dst = D(1) / b;
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return 1 / B(y, x); }, tol));
  dst = 2 * a - 0.5 * b;  // int and double scalars convert to DType
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return 2 * A(y, x) - 0.5 * B(y, x); },
      tol));
  dst = -a;
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return -A(y, x); }, 0));
  dst = -(a + b) * expr::scalar<D>(3);
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return -(A(y, x) + B(y, x)) * 3; },
      tol));
  dst = F<op::identity>(a);
  EXPECT_TRUE(test::AllNear(dst, A, 0));
  dst = F<op::maximum>(a, D(0.25));
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return std::max(A(y, x), 0.25); }, tol));
  dst = F<op::minimum>(D(0.25), a);
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return std::min(A(y, x), 0.25); }, tol));
  dst = F<fma3>(a, b, a);
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return A(y, x) * B(y, x) + A(y, x); },
      tol));
  dst = F<fma3>(a, expr::scalar<D>(2), b);
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return A(y, x) * 2 + B(y, x); }, tol));
  // A stored expression stays valid: operands are held by value.
  auto e = a * D(2) + D(1);
  dst = e;
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return A(y, x) * 2 + 1; }, tol));
}

TYPED_TEST(ExpressionTest, StridedAndSlicedViews) {
  typedef TypeParam D;
  test::Rng rng;
  // Padded rows: stride 16 (float) or 8 (double) times ceil.
  auto a = rng.Tensor<D>(Shape2(9, 13), -2, 2, /*pad=*/true);
  auto b = rng.Tensor<D>(Shape2(20, 13));
  ASSERT_FALSE(a.CheckContiguous());
  TensorContainer<cpu, 2, D> big(Shape2(12, 29), D(-7));
  // Destination: a 9x13 window inside a 12x29 tensor.
  Tensor<cpu, 2, D> window(big.dptr_ + 2 * 29 + 5, Shape2(9, 13), 29, nullptr);
  Tensor<cpu, 2, D> bs = b.Slice(4, 13);
  window = a * bs + D(1);
  EXPECT_TRUE(test::AllNear(
      window,
      [&](index_t y, index_t x) {
        return double(a[y][x]) * double(bs[y][x]) + 1;
      },
      1e-6));
  // Everything outside the window is untouched.
  for (index_t y = 0; y < 12; ++y) {
    for (index_t x = 0; x < 29; ++x) {
      const bool inside = y >= 2 && y < 11 && x >= 5 && x < 18;
      if (!inside) {
        ASSERT_EQ(big[y][x], D(-7)) << y << "," << x;
      }
    }
  }
}

TYPED_TEST(ExpressionTest, AliasingDestination) {
  typedef TypeParam D;
  test::Rng rng;
  const Shape<2> s = Shape2(7, 33);
  auto w = rng.Tensor<D>(s), g = rng.Tensor<D>(s);
  TensorContainer<cpu, 2, D> w0(w);
  w = w * D(0.9) + g;
  EXPECT_TRUE(test::AllNear(
      w,
      [&](index_t y, index_t x) {
        return double(w0[y][x]) * 0.9 + double(g[y][x]);
      },
      1e-6));
  Copy(w.view(), w0.view());
  w += w * w;
  EXPECT_TRUE(test::AllNear(
      w,
      [&](index_t y, index_t x) {
        const double v = w0[y][x];
        return v + v * v;
      },
      1e-5));
}

TEST(ExpressionMiscTest, TypecastAndTranspose) {
  test::Rng rng;
  auto a = rng.Tensor<float>(Shape2(6, 11), -50, 50);
  TensorContainer<cpu, 2, int32_t> i(Shape2(6, 11));
  i = expr::tcast<int32_t>(a);
  EXPECT_TRUE(test::AllNear(
      i, [&](index_t y, index_t x) { return double(int32_t(a[y][x])); }, 0));
  TensorContainer<cpu, 2, double> d(Shape2(6, 11));
  d = expr::tcast<double>(a) * 2.0;
  EXPECT_TRUE(test::AllNear(
      d, [&](index_t y, index_t x) { return double(a[y][x]) * 2; }, 0));
  TensorContainer<cpu, 2, float> t(Shape2(11, 6));
  t = a.T();
  EXPECT_TRUE(test::AllNear(
      t, [&](index_t y, index_t x) { return double(a[x][y]); }, 0));
  t = a.T() * 2.0f + F<op::square>(a.T());
  EXPECT_TRUE(test::AllNear(
      t,
      [&](index_t y, index_t x) {
        const double v = a[x][y];
        return v * 2 + v * v;
      },
      1e-5));
  // Half tensors compute in float and round per operator.
  TensorContainer<cpu, 2, half_t> ha(Shape2(6, 11)), hb(Shape2(6, 11));
  ha = expr::tcast<half_t>(a * 0.01f);
  hb = ha * ha + ha - half_t(0.5f);
  hb += F<op::relu>(ha);
  EXPECT_TRUE(test::AllNear(
      hb,
      [&](index_t y, index_t x) {
        const float v = float(ha[y][x]);
        float r = float(half_t(float(half_t(v * v)) + v));
        r = float(half_t(r - 0.5f));
        return double(float(half_t(r + (v > 0 ? v : 0.0f))));
      },
      0));
  // Half storage round trip through tcast.
  TensorContainer<cpu, 2, half_t> h(Shape2(6, 11));
  h = expr::tcast<half_t>(a);
  TensorContainer<cpu, 2, float> back(Shape2(6, 11));
  back = expr::tcast<float>(h);
  EXPECT_TRUE(test::AllNear(
      back, [&](index_t y, index_t x) { return double(a[y][x]); }, 1.0 / 1024));
}

// Arithmetic on half_t tensors with tensors and float scalars compiles and
// computes in float, rounding each result to half (as mshadow's half_t).
TEST(ExpressionMiscTest, HalfArithmeticMatchesFloatReference) {
  test::Rng rng;
  const Shape<2> shape = Shape2(rng.Int(1, 9), rng.Int(1, 40));
  auto a = rng.Tensor<half_t>(shape, -4.0, 4.0);
  auto b = rng.Tensor<half_t>(shape, 0.5, 4.0);
  TensorContainer<cpu, 2, half_t> c(shape);
  // Half precision: 11 significant bits, one rounding per operator.
  const double tol = 4.0 / 2048;
  const auto fa = [&](index_t y, index_t x) { return float(a[y][x]); };
  const auto fb = [&](index_t y, index_t x) { return float(b[y][x]); };

  c = a + b;
  EXPECT_TRUE(test::AllNear(
      c, [&](index_t y, index_t x) { return double(fa(y, x) + fb(y, x)); },
      tol));
  c = a * 2.0f;
  EXPECT_TRUE(test::AllNear(
      c, [&](index_t y, index_t x) { return double(fa(y, x) * 2.0f); }, tol));
  c = 3.0f * a - b / 2.0f;
  EXPECT_TRUE(test::AllNear(
      c,
      [&](index_t y, index_t x) {
        return double(3.0f * fa(y, x) - fb(y, x) / 2.0f);
      },
      tol));
  c = F<op::sqrt>(b) * a + 1.5f;
  c *= 0.5f;
  c += a;
  EXPECT_TRUE(test::AllNear(
      c,
      [&](index_t y, index_t x) {
        return double((std::sqrt(fb(y, x)) * fa(y, x) + 1.5f) * 0.5f +
                      fa(y, x));
      },
      tol));
}

TEST(ExpressionMiscTest, ShapeMismatchesThrowWithBothShapes) {
  TensorContainer<cpu, 2> a(Shape2(3, 4), 1.0f), b(Shape2(4, 3), 1.0f);
  TensorContainer<cpu, 2> c(Shape2(3, 4));
  try {
    c = a + b;
    FAIL() << "no exception";
  } catch (const TensorError& e) {
    EXPECT_STREQ(e.what(), "BinaryMapExp plus: shapes differ: (3,4) vs (4,3)");
  }
  try {
    c = F<op::maximum>(a, b);
    FAIL() << "no exception";
  } catch (const TensorError& e) {
    EXPECT_STREQ(e.what(),
                 "BinaryMapExp maximum: shapes differ: (3,4) vs (4,3)");
  }
  Tensor<cpu, 2> view = c;
  try {
    view = b * 2.0f;
    FAIL() << "no exception";
  } catch (const TensorError& e) {
    EXPECT_STREQ(e.what(),
                 "Assignment =: shapes differ: destination (3,4) vs "
                 "expression (4,3)");
  }
  EXPECT_THROW(view += b, TensorError);
  EXPECT_THROW(view = a.T(), TensorError);
}

}  // namespace
}  // namespace umbra
