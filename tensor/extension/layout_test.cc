// reshape, transpose, swapaxis, mirror, flip and upsampling_nearest against
// naive index arithmetic, including strided (row-padded) sources.
#include <algorithm>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/extension/extension.h"
#include "tensor/extension/reference.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using ext_test::Idx;

template <typename DType>
class LayoutTest : public ::testing::Test {};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(LayoutTest, RealTypes);

Shape<4> RandomShape4(ext_test::Rng* rng) {
  return Shape4(rng->Int(1, 4), rng->Int(1, 5), rng->Int(1, 6), rng->Int(1, 7));
}

TYPED_TEST(LayoutTest, ReshapeKeepsRowMajorOrder) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const Shape<4> shape = RandomShape4(&rng);
  // A row-padded source: reshape must read through the plan, not memory.
  TensorContainer<cpu, 4, DType> src(shape, true);
  rng.Fill(src.view());
  auto flat = [&](index_t f) {
    return ext_test::At(src.view(), ext_test::Unravel(shape, f));
  };
  TensorContainer<cpu, 2, DType> out2(
      Shape2(shape[0] * shape[1], shape[2] * shape[3]));
  out2 = reshape(src, out2.shape_);
  EXPECT_TRUE(ext_test::AllNear(
      out2, [&](const Idx& i) { return flat(i[0] * out2.size(1) + i[1]); }, 0));
  TensorContainer<cpu, 3, DType> out3(
      Shape3(shape[0], shape[1] * shape[2], shape[3]));
  out3 = reshape(src * DType(2), out3.shape_) + DType(1);
  EXPECT_TRUE(ext_test::AllNear(
      out3,
      [&](const Idx& i) {
        return 2 * flat((i[0] * out3.size(1) + i[1]) * out3.size(2) + i[2]) + 1;
      },
      ext_test::Tol<DType>()));
  TensorContainer<cpu, 1, DType> out1(Shape1(shape.Size()));
  out1 = reshape(src, out1.shape_);
  EXPECT_TRUE(ext_test::AllNear(
      out1, [&](const Idx& i) { return flat(i[0]); }, 0));
}

TYPED_TEST(LayoutTest, TransposeEveryPermutationAndSwapAxis) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const Shape<4> shape = RandomShape4(&rng);
  auto src = rng.Tensor<DType>(shape);
  std::vector<index_t> perm = {0, 1, 2, 3};
  do {
    const Shape<4> axes = Shape4(perm[0], perm[1], perm[2], perm[3]);
    auto e = transpose(src, axes);
    TensorContainer<cpu, 4, DType> out(e.shape_);
    out = e;
    ASSERT_TRUE(ext_test::AllNear(
        out,
        [&](const Idx& i) {
          Idx s(4);
          for (int k = 0; k < 4; ++k) s[axes[k]] = i[k];
          return ext_test::At(src.view(), s);
        },
        0))
        << "axes " << axes;
  } while (std::next_permutation(perm.begin(), perm.end()));
  auto e = swapaxis<1, 3>(src);
  ASSERT_EQ(e.shape_, Shape4(shape[0], shape[3], shape[2], shape[1]));
  TensorContainer<cpu, 4, DType> out(e.shape_);
  out = e;
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) {
        return ext_test::At(src.view(), {i[0], i[3], i[2], i[1]});
      },
      0));
  TensorContainer<cpu, 2, DType> m(Shape2(5, 3)), mt(Shape2(3, 5));
  rng.Fill(m.view());
  mt = swapaxis<0, 1>(m);
  EXPECT_TRUE(ext_test::AllNear(
      mt, [&](const Idx& i) { return double(m[i[1]][i[0]]); }, 0));
}

TYPED_TEST(LayoutTest, MirrorAndFlipEveryAxis) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const Shape<4> shape = RandomShape4(&rng);
  auto src = rng.Tensor<DType>(shape);
  TensorContainer<cpu, 4, DType> out(shape);
  for (int axis = 0; axis < 4; ++axis) {
    out = flip(src, axis);
    ASSERT_TRUE(ext_test::AllNear(
        out,
        [&](const Idx& i) {
          Idx s = i;
          s[axis] = shape[axis] - 1 - i[axis];
          return ext_test::At(src.view(), s);
        },
        0))
        << "axis " << axis;
  }
  out = mirror(src);
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) {
        return ext_test::At(src.view(),
                            {i[0], i[1], i[2], shape[3] - 1 - i[3]});
      },
      0));
  EXPECT_TRUE(
      ext_test::ThrowsTensorError([&] { flip(src, 4); }, {"flip", "axis 4"}));
}

TYPED_TEST(LayoutTest, UpsamplingNearestAndItsSumPoolingGradient) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  auto src = rng.Tensor<DType>(Shape4(2, 3, rng.Int(1, 5), rng.Int(1, 6)));
  const index_t s = rng.Int(1, 3);
  auto e = upsampling_nearest(src, s);
  ASSERT_EQ(e.shape_, Shape4(2, 3, src.size(2) * s, src.size(3) * s));
  TensorContainer<cpu, 4, DType> up(e.shape_);
  up = e;
  EXPECT_TRUE(ext_test::AllNear(
      up,
      [&](const Idx& i) {
        return ext_test::At(src.view(), {i[0], i[1], i[2] / s, i[3] / s});
      },
      0));
  TensorContainer<cpu, 4, DType> back(src.shape_);
  back = pool<red::sum>(up, s, s, s, s);
  EXPECT_TRUE(ext_test::AllNear(
      back,
      [&](const Idx& i) { return double(s * s) * ext_test::At(src.view(), i); },
      ext_test::Tol<DType>() * 10));
}

TEST(LayoutErrorTest, ShapeErrors) {
  TensorContainer<cpu, 3> t(Shape3(2, 3, 4), 0.0f);
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { reshape(t, Shape2(5, 5)); },
                                          {"reshape", "(2,3,4)", "(5,5)"}));
  EXPECT_TRUE(
      ext_test::ThrowsTensorError([&] { transpose(t, Shape3(0, 0, 1)); },
                                  {"transpose", "(0,0,1)", "(2,3,4)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { upsampling_nearest(t, 0); },
                                          {"upsampling_nearest", "(2,3,4)"}));
  TensorContainer<cpu, 3> out(Shape3(4, 3, 2));
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { out.view() = swapaxis<0, 1>(t); }, {"(4,3,2)", "(3,2,4)"}));
}

}  // namespace
}  // namespace umbra
