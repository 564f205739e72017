// dot(), batch_dot() and VectorDot against naive products in double: every
// transpose combination, scale, = += -=, products split over threads,
// strided and sliced operands, aliasing destinations, shape errors, float and
// double.
#include <algorithm>
#include <atomic>
#include <tuple>
#include <utility>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_util.h"

namespace umbra {
namespace {

// Element (i, j) of op(t).
template <typename DType>
double OpAt(const Tensor<cpu, 2, DType>& t, bool trans, index_t i, index_t j) {
  return trans ? double(t[j][i]) : double(t[i][j]);
}

template <typename DType>
class DotTest : public ::testing::Test {
 protected:
  // Rounding error grows with the length k of the sums.
  static double Tol(index_t k = 1) {
    return (sizeof(DType) == 4 ? 1e-5 : 1e-12) * std::max(1.0, k / 32.0);
  }
  // dst <saver> scale * op(a) * op(b) for one transpose combination.
  template <bool lt, bool rt>
  void Check(test::Rng* rng, index_t m, index_t n, index_t k) {
    SCOPED_TRACE(::testing::Message() << "lt " << lt << " rt " << rt << " m "
                                      << m << " n " << n << " k " << k);
    auto a = rng->Tensor<DType>(lt ? Shape2(k, m) : Shape2(m, k), -1, 1,
                                /*pad=*/true);
    auto b = rng->Tensor<DType>(rt ? Shape2(n, k) : Shape2(k, n));
    TensorContainer<cpu, 2, DType> dst(Shape2(m, n));
    auto ref = [&](index_t i, index_t j) {
      double s = 0;
      for (index_t p = 0; p < k; ++p) {
        s += OpAt(a.view(), lt, i, p) * OpAt(b.view(), rt, p, j);
      }
      return s;
    };
    auto A = [&]() {
      if constexpr (lt)
        return a.T();
      else
        return a.view();  // NOLINT
    };
    auto B = [&]() {
      if constexpr (rt)
        return b.T();
      else
        return b.view();  // NOLINT
    };
    dst = expr::dot(A(), B());
    EXPECT_TRUE(test::AllNear(dst, ref, Tol(k)));
    dst += DType(2) * expr::dot(A(), B());
    EXPECT_TRUE(test::AllNear(
        dst, [&](index_t i, index_t j) { return 3 * ref(i, j); }, Tol(k)));
    dst -= expr::dot(A(), B()) * DType(0.5);
    EXPECT_TRUE(test::AllNear(
        dst, [&](index_t i, index_t j) { return 2.5 * ref(i, j); }, Tol(k)));
  }
};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(DotTest, RealTypes);

TYPED_TEST(DotTest, AllTransposeCombinations) {
  test::Rng rng;
  for (int rep = 0; rep < 3; ++rep) {
    const index_t m = rng.Int(1, 40), n = rng.Int(1, 40), k = rng.Int(1, 40);
    this->template Check<false, false>(&rng, m, n, k);
    this->template Check<true, false>(&rng, m, n, k);
    this->template Check<false, true>(&rng, m, n, k);
    this->template Check<true, true>(&rng, m, n, k);
  }
}

// Products large enough to be cut over the pool, cut along rows (m > n) and
// along columns (n > m), at 1, 2 and 3 threads.
TYPED_TEST(DotTest, ProductsSplitOverThreads) {
  test::Rng rng;
  for (int threads : {1, 2, 3}) {
    SetNumThreads(threads);
    for (const auto& [m, n] :
         {std::pair<index_t, index_t>{rng.Int(150, 190), rng.Int(90, 120)},
          {rng.Int(90, 120), rng.Int(150, 190)}}) {
      SCOPED_TRACE(::testing::Message() << threads << " threads");
      // m * n * k >= 150 * 90 * 160 > 2^21 multiply-adds: always split.
      const index_t k = rng.Int(160, 190);
      this->template Check<false, false>(&rng, m, n, k);
      this->template Check<true, false>(&rng, m, n, k);
      this->template Check<false, true>(&rng, m, n, k);
      this->template Check<true, true>(&rng, m, n, k);
    }
  }
  SetNumThreads(0);
}

// blas::Gemm with a finisher: the blocks it is called on tile C, each after
// its product (the finisher adds 1 to its block: every element of C ends
// one above the product), split over the pool or not.
TYPED_TEST(DotTest, GemmFinishesEveryBlockOfCOnceAfterItsProduct) {
  using DType = TypeParam;
  test::Rng rng;
  for (int threads : {1, 2, 3}) {
    SetNumThreads(threads);
    // Split along rows, along columns (as ProductsSplitOverThreads), and
    // too small to split.
    for (const auto& [m, n, k] :
         {std::tuple<index_t, index_t, index_t>{
              rng.Int(150, 190), rng.Int(90, 120), rng.Int(160, 190)},
          {rng.Int(90, 120), rng.Int(150, 190), rng.Int(160, 190)},
          {rng.Int(1, 20), rng.Int(1, 20), rng.Int(1, 20)}}) {
      SCOPED_TRACE(::testing::Message() << threads << " threads, m " << m
                                        << " n " << n << " k " << k);
      auto a = rng.Tensor<DType>(Shape2(m, k));
      auto b = rng.Tensor<DType>(Shape2(n, k));
      TensorContainer<cpu, 2, DType> c(Shape2(m, n));
      std::atomic<int> blocks{0};
      blas::Gemm(false, true, m, n, k, DType(1), a.view().dptr_, k,
                 b.view().dptr_, k, DType(0), c.dptr_, c.stride_,
                 [&](const blas::MatrixBlock& block) {
                   ++blocks;
                   for (index_t i = block.row_begin; i < block.row_end; ++i) {
                     for (index_t j = block.col_begin; j < block.col_end; ++j) {
                       c[i][j] += DType(1);
                     }
                   }
                 });
      EXPECT_GE(blocks.load(), 1);
      EXPECT_LE(blocks.load(), threads);
      EXPECT_TRUE(test::AllNear(
          c,
          [&](index_t i, index_t j) {
            double s = 1;
            for (index_t p = 0; p < k; ++p) {
              s += double(a.view()[i][p]) * double(b.view()[j][p]);
            }
            return s;
          },
          this->Tol(k)));
    }
  }
  SetNumThreads(0);
}

TYPED_TEST(DotTest, GemvGerAndVectorDot) {
  typedef TypeParam D;
  test::Rng rng;
  auto x = rng.Tensor<D>(Shape1(13));
  auto w = rng.Tensor<D>(Shape2(13, 9));
  auto wt = rng.Tensor<D>(Shape2(9, 13));
  TensorContainer<cpu, 1, D> y(Shape1(9));
  y = expr::dot(x, w);
  EXPECT_TRUE(test::AllNear(
      y,
      [&](index_t, index_t j) {
        double s = 0;
        for (index_t i = 0; i < 13; ++i) s += double(x[i]) * double(w[i][j]);
        return s;
      },
      this->Tol()));
  y += expr::dot(x, wt.T());
  auto z = rng.Tensor<D>(Shape1(9));
  TensorContainer<cpu, 2, D> outer(Shape2(13, 9), D(1));
  outer -= expr::dot(x.T(), z);
  EXPECT_TRUE(test::AllNear(
      outer,
      [&](index_t i, index_t j) { return 1 - double(x[i]) * double(z[j]); },
      this->Tol()));
  outer = expr::dot(x.T(), z);
  EXPECT_TRUE(test::AllNear(
      outer, [&](index_t i, index_t j) { return double(x[i]) * double(z[j]); },
      this->Tol()));
  TensorContainer<cpu, 1, D> s(Shape1(1));
  VectorDot(s.view(), x.view(), x.view());
  double want = 0;
  for (index_t i = 0; i < 13; ++i) want += double(x[i]) * double(x[i]);
  EXPECT_NEAR(double(s[0]), want, this->Tol() * 13);
}

TYPED_TEST(DotTest, BatchDot) {
  typedef TypeParam D;
  test::Rng rng;
  auto a = rng.Tensor<D>(Shape3(4, 5, 7));
  auto b = rng.Tensor<D>(Shape3(4, 7, 3));
  auto bt = rng.Tensor<D>(Shape3(4, 3, 7));
  TensorContainer<cpu, 3, D> c(Shape3(4, 5, 3));
  c = expr::batch_dot<false, false>(a, b);
  auto check = [&](const Tensor<cpu, 3, D>& rhs, bool rt, double scale) {
    for (index_t i = 0; i < 4; ++i) {
      EXPECT_TRUE(test::AllNear(
          c[i],
          [&](index_t r, index_t col) {
            double s = 0;
            for (index_t p = 0; p < 7; ++p) {
              s += double(a[i][r][p]) * OpAt(rhs[i], rt, p, col);
            }
            return scale * s;
          },
          this->Tol()))
          << "batch " << i;
    }
  };
  check(b, false, 1);
  c = expr::batch_dot<false, true>(a, bt) * D(2);
  check(bt, true, 2);
  c = expr::dot(a, b);  // 3-D dot is batch_dot<false, false>
  check(b, false, 1);
  TensorContainer<cpu, 3, D> wrong(Shape3(3, 5, 3));
  Tensor<cpu, 3, D> wv = wrong.view();
  EXPECT_THROW((wv = expr::batch_dot<false, false>(a, b)), TensorError);
}

TEST(DotMiscTest, StridedSlicedAndAliasedOperands) {
  test::Rng rng;
  auto big = rng.Tensor<float>(Shape2(20, 30));
  // Sub-blocks of a wider matrix: stride 30.
  Tensor<cpu, 2, float> a(big.dptr_ + 1, Shape2(6, 8), 30, nullptr);
  Tensor<cpu, 2, float> b(big.dptr_ + 10 * 30 + 12, Shape2(8, 5), 30, nullptr);
  TensorContainer<cpu, 2, float> out(Shape2(6, 5));
  out = expr::dot(a, b);
  EXPECT_TRUE(test::AllNear(
      out,
      [&](index_t i, index_t j) {
        double s = 0;
        for (index_t p = 0; p < 8; ++p) s += double(a[i][p]) * double(b[p][j]);
        return s;
      },
      1e-5));
  // dst is an operand: computed through a temporary.
  auto sq = rng.Tensor<float>(Shape2(9, 9));
  TensorContainer<cpu, 2, float> orig(sq);
  sq = expr::dot(sq.view(), sq.T());
  EXPECT_TRUE(test::AllNear(
      sq,
      [&](index_t i, index_t j) {
        double s = 0;
        for (index_t p = 0; p < 9; ++p) s += double(orig[i][p]) * orig[j][p];
        return s;
      },
      1e-5));
}

TEST(DotMiscTest, ShapeErrorsNameBothOperands) {
  TensorContainer<cpu, 2, float> a(Shape2(3, 4), 1.0f), b(Shape2(5, 6), 1.0f);
  TensorContainer<cpu, 2, float> c(Shape2(3, 6));
  try {
    c = expr::dot(a, b);
    FAIL() << "no exception";
  } catch (const TensorError& e) {
    EXPECT_STREQ(e.what(),
                 "dot: shapes do not match: lhs (3,4) x rhs (5,6) -> "
                 "destination (3,6)");
  }
  try {
    c = expr::dot(a, b.T());
    FAIL() << "no exception";
  } catch (const TensorError& e) {
    EXPECT_NE(std::string(e.what()).find("rhs (5,6).T()"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace umbra
