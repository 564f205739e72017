// sumall_except_dim, sum_rows, reduce_except_dim, reduce_with_axis (argmax
// included) and reduce_keepdim against naive loops in double.
#include <algorithm>
#include <limits>

#include "gtest/gtest.h"
#include "tensor/extension/extension.h"
#include "tensor/extension/reference.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using ext_test::Idx;

template <typename DType>
class ReduceTest : public ::testing::Test {};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(ReduceTest, RealTypes);

// Reference: reduce src (4-D) over every axis but `keep` with sum (or max).
template <typename DType>
double RefExceptDim(const Tensor<cpu, 4, DType>& src, int keep, index_t i,
                    bool max) {
  double acc = max ? -std::numeric_limits<double>::infinity() : 0.0;
  for (index_t f = 0; f < src.shape_.Size(); ++f) {
    const Idx idx = ext_test::Unravel(src.shape_, f);
    if (idx[keep] != i) continue;
    const double v = ext_test::At(src, idx);
    acc = max ? std::max(acc, v) : acc + v;
  }
  return acc;
}

TYPED_TEST(ReduceTest, SumAllExceptEveryDimWithScaleAndSavers) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const Shape<4> shape =
      Shape4(rng.Int(1, 5), rng.Int(1, 6), rng.Int(1, 7), rng.Int(1, 9));
  auto a = rng.Tensor<DType>(shape);
  auto b = rng.Tensor<DType>(shape);
  for (int keep = 0; keep < 4; ++keep) {
    TensorContainer<cpu, 1, DType> out(Shape1(shape[keep]));
    auto init = rng.Tensor<DType>(out.shape_);
    out = init;
    switch (keep) {
      case 0:
        out += sumall_except_dim<0>(a * b) * DType(0.5);
        break;
      case 1:
        out += sumall_except_dim<1>(a * b) * DType(0.5);
        break;
      case 2:
        out += sumall_except_dim<2>(a * b) * DType(0.5);
        break;
      case 3:
        out += sumall_except_dim<3>(a * b) * DType(0.5);
        break;
    }
    TensorContainer<cpu, 4, DType> ab(shape);
    ab = a * b;
    EXPECT_TRUE(ext_test::AllNear(
        out,
        [&](const Idx& i) {
          return double(init[i[0]]) +
                 0.5 * RefExceptDim(ab.view(), keep, i[0], false);
        },
        sizeof(DType) == 4 ? 1e-4 : 1e-11))
        << "keep " << keep;
  }
}

TYPED_TEST(ReduceTest, SumRowsAndMaxExceptDimLargeThreaded) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  // Large enough for the multi-threaded path.
  auto m = rng.Tensor<DType>(Shape2(701, 131));
  TensorContainer<cpu, 1, DType> out(Shape1(131));
  out = sum_rows(m);
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) {
        double s = 0;
        for (index_t y = 0; y < 701; ++y) s += double(m[y][i[0]]);
        return s;
      },
      sizeof(DType) == 4 ? 1e-4 : 1e-11));
  auto t = rng.Tensor<DType>(Shape4(9, 13, 23, 37));
  TensorContainer<cpu, 1, DType> mx(Shape1(13));
  mx = reduce_except_dim<red::maximum, 1>(t);
  EXPECT_TRUE(ext_test::AllNear(
      mx, [&](const Idx& i) { return RefExceptDim(t.view(), 1, i[0], true); },
      0));
  out -= reduce_except_dim<red::minimum, 1>(m);
  // Threaded results equal one-thread results bit for bit.
  TensorContainer<cpu, 1, DType> one(Shape1(13));
  SetNumThreads(1);
  one = reduce_except_dim<red::sum, 1>(t);
  SetNumThreads(0);
  mx = reduce_except_dim<red::sum, 1>(t);
  for (index_t i = 0; i < 13; ++i) EXPECT_EQ(one[i], mx[i]) << i;
  // Rows of 37: four packet accumulators, a packet and a scalar tail.
  EXPECT_TRUE(ext_test::AllNear(
      mx, [&](const Idx& i) { return RefExceptDim(t.view(), 1, i[0], false); },
      sizeof(DType) == 4 ? 1e-3 : 1e-10));
}

TYPED_TEST(ReduceTest, WithAxisSumMaxArgmaxEveryAxis) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const Shape<3> shape = Shape3(rng.Int(1, 5), rng.Int(1, 6), rng.Int(1, 7));
  auto src = rng.Tensor<DType>(shape);
  for (int axis = 0; axis < 3; ++axis) {
    Shape<2> dshape;
    for (int k = 0, d = 0; k < 3; ++k) {
      if (k != axis) dshape[d++] = shape[k];
    }
    auto full = [&](const Idx& i, index_t k) {
      Idx s;
      for (int d = 0, j = 0; d < 3; ++d) s.push_back(d == axis ? k : i[j++]);
      return ext_test::At(src.view(), s);
    };
    TensorContainer<cpu, 2, DType> sum(dshape), mx(dshape), arg(dshape);
    sum = reduce_with_axis<red::sum, false>(src, axis);
    mx = reduce_with_axis<red::maximum, false>(src, axis) * DType(2);
    arg = reduce_with_axis<red::maximum, true>(src, axis);
    EXPECT_TRUE(ext_test::AllNear(
        sum,
        [&](const Idx& i) {
          double s = 0;
          for (index_t k = 0; k < shape[axis]; ++k) s += full(i, k);
          return s;
        },
        ext_test::Tol<DType>()));
    EXPECT_TRUE(ext_test::AllNear(
        mx,
        [&](const Idx& i) {
          double m = full(i, 0);
          for (index_t k = 1; k < shape[axis]; ++k) m = std::max(m, full(i, k));
          return 2 * m;
        },
        0));
    EXPECT_TRUE(ext_test::AllNear(
        arg,
        [&](const Idx& i) {
          index_t best = 0;
          for (index_t k = 1; k < shape[axis]; ++k) {
            if (full(i, k) > full(i, best)) best = k;
          }
          return double(best);
        },
        0))
        << "axis " << axis;
  }
}

TEST(ReduceArgTest, ArgmaxTakesFirstOfTies) {
  TensorContainer<cpu, 2> m(Shape2(2, 4));
  const float vals[8] = {1, 3, 3, 0, -1, -1, -1, -1};
  for (int i = 0; i < 8; ++i) m[i / 4][i % 4] = vals[i];
  TensorContainer<cpu, 1> arg(Shape1(2));
  arg = reduce_with_axis<red::maximum, true>(m, 1);
  EXPECT_EQ(arg[0], 1.0f);
  EXPECT_EQ(arg[1], 0.0f);
  arg = reduce_with_axis<red::minimum, true>(m, 1);
  EXPECT_EQ(arg[0], 3.0f);
}

TYPED_TEST(ReduceTest, KeepDimThenBroadcastSubtractsRowMax) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const Shape<3> shape = Shape3(rng.Int(1, 4), rng.Int(1, 9), rng.Int(1, 5));
  auto src = rng.Tensor<DType>(shape);
  auto kept = reduce_keepdim<red::maximum, false>(src, 1);
  ASSERT_EQ(kept.shape_, Shape3(shape[0], 1, shape[2]));
  TensorContainer<cpu, 3, DType> out(shape);
  out = src - broadcast_keepdim(kept, 1, shape[1]);
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) {
        double m = -1e300;
        for (index_t k = 0; k < shape[1]; ++k) {
          m = std::max(m, ext_test::At(src.view(), {i[0], k, i[2]}));
        }
        return ext_test::At(src.view(), i) - m;
      },
      ext_test::Tol<DType>()));
}

TEST(ReduceErrorTest, ShapeErrors) {
  TensorContainer<cpu, 3> t(Shape3(2, 3, 4), 1.0f);
  TensorContainer<cpu, 1> out(Shape1(5));
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { out.view() = sumall_except_dim<1>(t); },
      {"reduce_except_dim<1>", "sum", "(5,)", "(2,3,4)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { reduce_with_axis<red::sum, false>(t, 3); },
      {"reduce_with_axis", "axis 3", "(2,3,4)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { reduce_keepdim<red::sum, false>(t, -1); }, {"reduce_with_axis"}));
}

}  // namespace
}  // namespace umbra
