// pad and crop (centred and at an offset) against naive loops; crop undoes
// pad.
#include "gtest/gtest.h"
#include "tensor/extension/extension.h"
#include "tensor/extension/reference.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using ext_test::Idx;

template <typename DType>
class CropPadTest : public ::testing::Test {};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(CropPadTest, RealTypes);

TYPED_TEST(CropPadTest, PadThenCropRoundTrips) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  for (int trial = 0; trial < 10; ++trial) {
    const Shape<4> shape =
        Shape4(rng.Int(1, 3), rng.Int(1, 3), rng.Int(1, 7), rng.Int(1, 8));
    auto src = rng.Tensor<DType>(shape);
    const index_t py = rng.Int(0, 3), px = rng.Int(0, 3);
    auto e = pad(src, py, px);
    ASSERT_EQ(e.shape_,
              Shape4(shape[0], shape[1], shape[2] + 2 * py, shape[3] + 2 * px));
    TensorContainer<cpu, 4, DType> padded(e.shape_);
    padded = e;
    ASSERT_TRUE(ext_test::AllNear(
        padded,
        [&](const Idx& i) {
          const index_t y = i[2] - py, x = i[3] - px;
          if (y < 0 || y >= shape[2] || x < 0 || x >= shape[3]) return 0.0;
          return ext_test::At(src.view(), {i[0], i[1], y, x});
        },
        0));
    TensorContainer<cpu, 4, DType> back(shape);
    back = crop(padded, Shape2(shape[2], shape[3]));
    ASSERT_TRUE(ext_test::AllNear(
        back, [&](const Idx& i) { return ext_test::At(src.view(), i); }, 0));
  }
}

TYPED_TEST(CropPadTest, CropAtOffsetAndCentred) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  auto src = rng.Tensor<DType>(Shape3(3, 9, 8));
  const index_t h = rng.Int(1, 9), w = rng.Int(1, 8);
  const index_t y0 = rng.Int(0, 9 - h), x0 = rng.Int(0, 8 - w);
  TensorContainer<cpu, 3, DType> out(Shape3(3, h, w));
  out = crop(src, Shape2(h, w), y0, x0);
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) {
        return ext_test::At(src.view(), {i[0], i[1] + y0, i[2] + x0});
      },
      0));
  out = crop(src, Shape2(h, w));
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) {
        return ext_test::At(src.view(),
                            {i[0], i[1] + (9 - h) / 2, i[2] + (8 - w) / 2});
      },
      0));
  // Two-dimensional sources are single images.
  TensorContainer<cpu, 2, DType> m(Shape2(4, 5)), mp(Shape2(6, 9));
  rng.Fill(m.view());
  mp = pad(m, 1, 2);
  EXPECT_EQ(mp[1][2], m[0][0]);
  EXPECT_EQ(mp[0][0], DType(0));
}

TEST(CropPadErrorTest, ShapeErrors) {
  TensorContainer<cpu, 3> t(Shape3(2, 4, 5), 0.0f);
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { crop(t, Shape2(5, 5)); },
                                          {"crop", "(5,5)", "(2,4,5)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { crop(t, Shape2(2, 2), 3, 0); },
                                          {"crop", "(2,2)", "(3, 0)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { pad(t, -1, 0); },
                                          {"pad", "(-1, 0)", "(2,4,5)"}));
}

}  // namespace
}  // namespace umbra
