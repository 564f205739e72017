// concat and slice as sources and as assignable destinations, on every
// dimension, nested, against naive index arithmetic.
#include "gtest/gtest.h"
#include "tensor/extension/extension.h"
#include "tensor/extension/reference.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using ext_test::Idx;

template <typename DType>
class ConcatSliceTest : public ::testing::Test {};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(ConcatSliceTest, RealTypes);

// Runs check.template operator()<d>() for d = 0..3.
template <typename Fn>
void ForEachDim(const Fn& fn) {
  fn(std::integral_constant<int, 0>());
  fn(std::integral_constant<int, 1>());
  fn(std::integral_constant<int, 2>());
  fn(std::integral_constant<int, 3>());
}

TYPED_TEST(ConcatSliceTest, ConcatReadAndWriteEveryDim) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  ForEachDim([&](auto dim_constant) {
    constexpr int d = decltype(dim_constant)::value;
    SCOPED_TRACE(d);
    Shape<4> sa =
        Shape4(rng.Int(1, 3), rng.Int(1, 4), rng.Int(1, 5), rng.Int(1, 6));
    Shape<4> sb = sa;
    sb[d] = rng.Int(1, 4);
    auto a = rng.Tensor<DType>(sa);
    auto b = rng.Tensor<DType>(sb);
    Shape<4> sc = sa;
    sc[d] += sb[d];
    auto pick = [&](const Idx& i) {
      if (i[d] < sa[d]) return ext_test::At(a.view(), i);
      Idx j = i;
      j[d] -= sa[d];
      return ext_test::At(b.view(), j);
    };
    TensorContainer<cpu, 4, DType> c(sc);
    c = concat<d>(a, b) * DType(3);
    ASSERT_TRUE(ext_test::AllNear(
        c, [&](const Idx& i) { return 3 * pick(i); }, ext_test::Tol<DType>()));
    // As a destination: split c back into two fresh tensors.
    TensorContainer<cpu, 4, DType> a2(sa, DType(0)), b2(sb, DType(0));
    concat<d>(a2, b2) = c;
    ASSERT_TRUE(ext_test::AllNear(
        a2, [&](const Idx& i) { return 3 * ext_test::At(a.view(), i); },
        ext_test::Tol<DType>()));
    ASSERT_TRUE(ext_test::AllNear(
        b2, [&](const Idx& i) { return 3 * ext_test::At(b.view(), i); },
        ext_test::Tol<DType>()));
    concat<d>(a2, b2) -= c;
    ASSERT_TRUE(ext_test::AllNear(
        a2, [](const Idx&) { return 0.0; }, 0));
    ASSERT_TRUE(ext_test::AllNear(
        b2, [](const Idx&) { return 0.0; }, 0));
  });
}

TYPED_TEST(ConcatSliceTest, NestedConcatOfThree) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  auto a = rng.Tensor<DType>(Shape3(2, 1, 5));
  auto b = rng.Tensor<DType>(Shape3(2, 2, 5));
  auto c = rng.Tensor<DType>(Shape3(2, 3, 5));
  TensorContainer<cpu, 3, DType> out(Shape3(2, 6, 5));
  out = concat<1>(concat<1>(a, b), c);
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) {
        if (i[1] < 1) return ext_test::At(a.view(), i);
        if (i[1] < 3) return ext_test::At(b.view(), {i[0], i[1] - 1, i[2]});
        return ext_test::At(c.view(), {i[0], i[1] - 3, i[2]});
      },
      0));
  TensorContainer<cpu, 3, DType> a2(a.shape_), b2(b.shape_), c2(c.shape_);
  concat<1>(a2, concat<1>(b2, c2)) = out;
  EXPECT_TRUE(ext_test::AllNear(
      c2, [&](const Idx& i) { return ext_test::At(c.view(), i); }, 0));
}

TYPED_TEST(ConcatSliceTest, SliceReadAndWriteEveryDim) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  ForEachDim([&](auto dim_constant) {
    constexpr int d = decltype(dim_constant)::value;
    SCOPED_TRACE(d);
    const Shape<4> shape =
        Shape4(rng.Int(1, 3), rng.Int(1, 4), rng.Int(1, 5), rng.Int(1, 6));
    auto src = rng.Tensor<DType>(shape);
    const index_t begin = rng.Int(0, shape[d] - 1);
    const index_t end = rng.Int(begin + 1, shape[d]);
    Shape<4> ss = shape;
    ss[d] = end - begin;
    TensorContainer<cpu, 4, DType> out(ss);
    out = slice<d>(src, begin, end);
    ASSERT_TRUE(ext_test::AllNear(
        out,
        [&](const Idx& i) {
          Idx j = i;
          j[d] += begin;
          return ext_test::At(src.view(), j);
        },
        0));
    // As a destination: only the slice changes.
    TensorContainer<cpu, 4, DType> dst(shape);
    dst = src;
    auto add = rng.Tensor<DType>(ss);
    slice<d>(dst, begin, end) += add * DType(2);
    ASSERT_TRUE(ext_test::AllNear(
        dst,
        [&](const Idx& i) {
          double v = ext_test::At(src.view(), i);
          if (i[d] >= begin && i[d] < end) {
            Idx j = i;
            j[d] -= begin;
            v += 2 * ext_test::At(add.view(), j);
          }
          return v;
        },
        ext_test::Tol<DType>()));
    slice<d>(dst, begin, end) = DType(7);
    ASSERT_TRUE(ext_test::AllNear(
        dst,
        [&](const Idx& i) {
          if (i[d] >= begin && i[d] < end) return 7.0;
          return ext_test::At(src.view(), i);
        },
        ext_test::Tol<DType>()));
  });
}

TYPED_TEST(ConcatSliceTest, SliceOfSliceAndSliceToSlice) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  auto src = rng.Tensor<DType>(Shape3(4, 9, 7));
  TensorContainer<cpu, 3, DType> out(Shape3(4, 2, 3));
  out = slice<2>(slice<1>(src, 3, 5), 1, 4);
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) {
        return ext_test::At(src.view(), {i[0], i[1] + 3, i[2] + 1});
      },
      0));
  // Copy channels 0..1 onto channels 6..7 through two slices.
  TensorContainer<cpu, 3, DType> dst(src.shape_);
  dst = src;
  slice<1>(dst, 6, 8) = slice<1>(src, 0, 2);
  EXPECT_TRUE(ext_test::AllNear(
      dst,
      [&](const Idx& i) {
        if (i[1] >= 6 && i[1] < 8) {
          return ext_test::At(src.view(), {i[0], i[1] - 6, i[2]});
        }
        return ext_test::At(src.view(), i);
      },
      0));
}

TEST(ConcatSliceErrorTest, ShapeErrors) {
  TensorContainer<cpu, 3> a(Shape3(2, 3, 4), 0.0f), b(Shape3(2, 5, 3), 0.0f);
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { concat<1>(a, b); },
                                          {"concat<1>", "(2,3,4)", "(2,5,3)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { slice<1>(a, 2, 4); },
                                          {"slice<1>", "[2, 4)", "(2,3,4)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { slice<2>(a, 0, 2) = b; },
                                          {"(2,3,2)", "(2,5,3)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { concat<2>(a, a) = b; },
                                          {"(2,3,8)", "(2,5,3)"}));
}

}  // namespace
}  // namespace umbra
