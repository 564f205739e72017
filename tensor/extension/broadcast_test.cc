// broadcast, broadcast_scalar, broadcast_with_axis, broadcast_keepdim and
// repmat against naive loops, alone and nested in element-wise expressions.
#include "gtest/gtest.h"
#include "tensor/extension/extension.h"
#include "tensor/extension/reference.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using ext_test::Idx;

template <typename DType>
class BroadcastTest : public ::testing::Test {};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(BroadcastTest, RealTypes);

TYPED_TEST(BroadcastTest, OneDimToEveryAxisOfFourD) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const Shape<4> shape =
      Shape4(rng.Int(1, 4), rng.Int(1, 5), rng.Int(1, 6), rng.Int(1, 7));
  TensorContainer<cpu, 4, DType> out(shape);
  for (int axis = 0; axis < 4; ++axis) {
    auto v = rng.Tensor<DType>(Shape1(shape[axis]));
    switch (axis) {
      case 0:
        out = expr::broadcast<0>(v, shape);
        break;
      case 1:
        out = expr::broadcast<1>(v, shape);
        break;
      case 2:
        out = expr::broadcast<2>(v, shape);
        break;
      case 3:
        out = expr::broadcast<3>(v, shape);
        break;
    }
    EXPECT_TRUE(ext_test::AllNear(
        out, [&](const Idx& i) { return double(v[i[axis]]); }, 0))
        << "axis " << axis;
  }
}

TYPED_TEST(BroadcastTest, BiasAddNestedInExpression) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const Shape<4> shape = Shape4(3, 5, 7, 9);
  auto x = rng.Tensor<DType>(shape);
  auto bias = rng.Tensor<DType>(Shape1(5));
  TensorContainer<cpu, 4, DType> out(shape);
  out = x * DType(2) + broadcast<1>(bias * DType(3), shape);
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) {
        return 2 * ext_test::At(x.view(), i) + 3 * double(bias[i[1]]);
      },
      ext_test::Tol<DType>()));
}

// Rows split between threads mid-row: each thread's packet plan finds the
// value of every row it starts in, and the result is one thread's.
TYPED_TEST(BroadcastTest, SplitOverThreadsAsOneThread) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const Shape<3> shape = Shape3(rng.Int(5, 9), rng.Int(3, 17), rng.Int(9, 40));
  auto x = rng.Tensor<DType>(shape);
  auto scale = rng.Tensor<DType>(Shape1(shape[1]));
  auto shift = rng.Tensor<DType>(Shape1(shape[2]));
  TensorContainer<cpu, 3, DType> one(shape), many(shape);
  const index_t threshold = GetParallelThreshold();
  SetParallelThreshold(1);
  SetNumThreads(1);
  one = x * broadcast<1>(scale, shape) + broadcast<2>(shift, shape);
  SetNumThreads(3);
  many = x * broadcast<1>(scale, shape) + broadcast<2>(shift, shape);
  SetNumThreads(0);
  SetParallelThreshold(threshold);
  EXPECT_TRUE(ext_test::AllNear(
      many,
      [&](const Idx& i) {
        return ext_test::At(x.view(), i) * double(scale[i[1]]) +
               double(shift[i[2]]);
      },
      ext_test::Tol<DType>()));
  EXPECT_TRUE(ext_test::AllNear(
      many, [&](const Idx& i) { return ext_test::At(one.view(), i); }, 0));
}

TYPED_TEST(BroadcastTest, ScalarAndRepmat) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  auto one = rng.Tensor<DType>(Shape1(1));
  TensorContainer<cpu, 3, DType> out3(Shape3(2, 3, 5));
  out3 = broadcast_scalar(one, out3.shape_);
  EXPECT_TRUE(ext_test::AllNear(
      out3, [&](const Idx&) { return double(one[0]); }, 0));
  auto v = rng.Tensor<DType>(Shape1(11));
  TensorContainer<cpu, 2, DType> out2(Shape2(7, 11));
  out2 = repmat(v, 7);
  EXPECT_TRUE(ext_test::AllNear(
      out2, [&](const Idx& i) { return double(v[i[1]]); }, 0));
}

TYPED_TEST(BroadcastTest, WithAxisInsertsEveryPosition) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  auto src =
      rng.Tensor<DType>(Shape3(rng.Int(1, 4), rng.Int(1, 5), rng.Int(1, 6)));
  const index_t size = rng.Int(1, 4);
  for (int axis = -1; axis < 3; ++axis) {
    auto e = broadcast_with_axis(src, axis, size);
    Shape<4> want;
    for (int k = 0, s = 0; k < 4; ++k) {
      want[k] = (k == axis + 1) ? size : src.shape_[s++];
    }
    ASSERT_EQ(e.shape_, want) << "axis " << axis;
    TensorContainer<cpu, 4, DType> out(want);
    out = e;
    EXPECT_TRUE(ext_test::AllNear(
        out,
        [&](const Idx& i) {
          Idx s;
          for (int k = 0; k < 4; ++k) {
            if (k != axis + 1) s.push_back(i[k]);
          }
          return ext_test::At(src.view(), s);
        },
        0))
        << "axis " << axis;
  }
}

TYPED_TEST(BroadcastTest, KeepDimStretchesSizeOneAxis) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  for (int axis = 0; axis < 3; ++axis) {
    Shape<3> sshape = Shape3(rng.Int(1, 4), rng.Int(1, 5), rng.Int(1, 6));
    sshape[axis] = 1;
    auto src = rng.Tensor<DType>(sshape);
    const index_t size = rng.Int(1, 5);
    Shape<3> want = sshape;
    want[axis] = size;
    TensorContainer<cpu, 3, DType> out(want);
    out = broadcast_keepdim(src, axis, size);
    EXPECT_TRUE(ext_test::AllNear(
        out,
        [&](const Idx& i) {
          Idx s = i;
          s[axis] = 0;
          return ext_test::At(src.view(), s);
        },
        0))
        << "axis " << axis;
  }
}

TEST(BroadcastErrorTest, ShapeErrorsNameTheOperationAndShapes) {
  TensorContainer<cpu, 1> v(Shape1(4), 0.0f);
  TensorContainer<cpu, 2> m(Shape2(3, 4), 0.0f);
  EXPECT_TRUE(
      ext_test::ThrowsTensorError([&] { broadcast<1>(v, Shape3(2, 3, 4)); },
                                  {"broadcast<1>", "(4,)", "(2,3,4)"}));
  EXPECT_TRUE(
      ext_test::ThrowsTensorError([&] { broadcast_scalar(v, Shape2(2, 2)); },
                                  {"broadcast_scalar", "(4,)"}));
  EXPECT_TRUE(
      ext_test::ThrowsTensorError([&] { broadcast_with_axis(m, 2, 3); },
                                  {"broadcast_with_axis", "axis 2", "(3,4)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { broadcast_keepdim(m, 0, 3); },
                                          {"broadcast_keepdim", "(3,4)"}));
  TensorContainer<cpu, 2> out(Shape2(5, 4));
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { out.view() = repmat(v, 3); },
                                          {"(5,4)", "(3,4)"}));
}

}  // namespace
}  // namespace umbra
