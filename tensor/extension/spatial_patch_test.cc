// unpack_patch2col and pack_col2patch (with pad() and crop()) against naive
// gather / scatter loops over random kernel, stride, pad and dilation, and
// a whole convolution through dot against a direct loop.
#include <vector>

#include "gtest/gtest.h"
#include "tensor/extension/extension.h"
#include "tensor/extension/reference.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using ext_test::Idx;

struct Conv {
  index_t ky, kx, sy, sx, py, px, dy, dx;
  index_t n, c, h, w, oh, ow;
};

Conv RandomConv(ext_test::Rng* rng) {
  Conv p;
  p.ky = rng->Int(1, 4);
  p.kx = rng->Int(1, 4);
  p.sy = rng->Int(1, 3);
  p.sx = rng->Int(1, 3);
  p.py = rng->Int(0, 2);
  p.px = rng->Int(0, 2);
  p.dy = rng->Int(1, 2);
  p.dx = rng->Int(1, 2);
  p.n = rng->Int(1, 3);
  p.c = rng->Int(1, 3);
  p.h = rng->Int(p.dy * (p.ky - 1) + 1, 11);
  p.w = rng->Int(p.dx * (p.kx - 1) + 1, 11);
  p.oh = (p.h + 2 * p.py - p.dy * (p.ky - 1) - 1) / p.sy + 1;
  p.ow = (p.w + 2 * p.px - p.dx * (p.kx - 1) - 1) / p.sx + 1;
  return p;
}

std::string Describe(const Conv& p) {
  std::ostringstream os;
  os << "kernel " << p.ky << "x" << p.kx << " stride " << p.sy << "x" << p.sx
     << " pad " << p.py << "x" << p.px << " dilation " << p.dy << "x" << p.dx
     << " image " << p.n << "x" << p.c << "x" << p.h << "x" << p.w;
  return os.str();
}

// The image pixel that patch-matrix entry (row, col) reads, or false when
// it falls in the padding.
bool PixelOf(const Conv& p, index_t row, index_t col, Idx* pix) {
  const index_t j = row % p.kx, i = row / p.kx % p.ky, c = row / p.kx / p.ky;
  const index_t ox = col % p.ow, oy = col / p.ow % p.oh, n = col / p.ow / p.oh;
  const index_t y = oy * p.sy + i * p.dy - p.py;
  const index_t x = ox * p.sx + j * p.dx - p.px;
  *pix = {n, c, y, x};
  return y >= 0 && y < p.h && x >= 0 && x < p.w;
}

template <typename DType>
class SpatialPatchTest : public ::testing::Test {};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(SpatialPatchTest, RealTypes);

TYPED_TEST(SpatialPatchTest, UnpackAndPackMatchGatherAndScatter) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  for (int trial = 0; trial < 20; ++trial) {
    const Conv p = RandomConv(&rng);
    SCOPED_TRACE(Describe(p));
    auto img = rng.Tensor<DType>(Shape4(p.n, p.c, p.h, p.w));
    TensorContainer<cpu, 2, DType> col(
        Shape2(p.c * p.ky * p.kx, p.n * p.oh * p.ow));
    col = unpack_patch2col(pad(img, p.py, p.px), p.ky, p.kx, p.sy, p.sx, p.dy,
                           p.dx);
    ASSERT_TRUE(ext_test::AllNear(
        col,
        [&](const Idx& i) {
          Idx pix;
          return PixelOf(p, i[0], i[1], &pix) ? ext_test::At(img.view(), pix)
                                              : 0.0;
        },
        0));
    // The adjoint: scatter-add a random patch matrix back to the image.
    auto gcol = rng.Tensor<DType>(col.shape_);
    std::vector<double> want(img.shape_.Size(), 0.0);
    for (index_t r = 0; r < gcol.size(0); ++r) {
      for (index_t c = 0; c < gcol.size(1); ++c) {
        Idx pix;
        if (PixelOf(p, r, c, &pix)) {
          want[((pix[0] * p.c + pix[1]) * p.h + pix[2]) * p.w + pix[3]] +=
              double(gcol[r][c]);
        }
      }
    }
    const Shape<4> padded = Shape4(p.n, p.c, p.h + 2 * p.py, p.w + 2 * p.px);
    TensorContainer<cpu, 4, DType> gimg(img.shape_);
    gimg =
        crop(pack_col2patch(gcol, padded, p.ky, p.kx, p.sy, p.sx, p.dy, p.dx),
             Shape2(p.h, p.w), p.py, p.px);
    ASSERT_TRUE(ext_test::AllNear(
        gimg,
        [&](const Idx& i) {
          return want[((i[0] * p.c + i[1]) * p.h + i[2]) * p.w + i[3]];
        },
        ext_test::Tol<DType>() * 10));
  }
}

TYPED_TEST(SpatialPatchTest, ThreeDimImageIsOneBatch) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  auto img = rng.Tensor<DType>(Shape3(2, 7, 6));
  TensorContainer<cpu, 2, DType> a(Shape2(2 * 9, 5 * 4)), b(a.shape_);
  a = unpack_patch2col(img, 3, 3, 1, 1);
  b = unpack_patch2col(reshape(img, Shape4(1, 2, 7, 6)), 3, 3, 1, 1);
  EXPECT_TRUE(ext_test::AllNear(
      a, [&](const Idx& i) { return ext_test::At(b.view(), i); }, 0));
}

TYPED_TEST(SpatialPatchTest, ConvolutionThroughDotMatchesDirectLoop) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const Conv p = RandomConv(&rng);
  SCOPED_TRACE(Describe(p));
  const index_t k = rng.Int(1, 5);
  auto img = rng.Tensor<DType>(Shape4(p.n, p.c, p.h, p.w));
  auto weight = rng.Tensor<DType>(Shape2(k, p.c * p.ky * p.kx));
  TensorContainer<cpu, 2, DType> col(
      Shape2(p.c * p.ky * p.kx, p.n * p.oh * p.ow));
  col = unpack_patch2col(pad(img, p.py, p.px), p.ky, p.kx, p.sy, p.sx, p.dy,
                         p.dx);
  TensorContainer<cpu, 2, DType> out(Shape2(k, p.n * p.oh * p.ow));
  out = dot(weight, col);
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) {
        const index_t ox = i[1] % p.ow, oy = i[1] / p.ow % p.oh;
        const index_t n = i[1] / p.ow / p.oh;
        double s = 0;
        for (index_t c = 0; c < p.c; ++c) {
          for (index_t a = 0; a < p.ky; ++a) {
            for (index_t b = 0; b < p.kx; ++b) {
              const index_t y = oy * p.sy + a * p.dy - p.py;
              const index_t x = ox * p.sx + b * p.dx - p.px;
              if (y < 0 || y >= p.h || x < 0 || x >= p.w) continue;
              s += double(weight[i[0]][(c * p.ky + a) * p.kx + b]) *
                   ext_test::At(img.view(), {n, c, y, x});
            }
          }
        }
        return s;
      },
      sizeof(DType) == 4 ? 1e-4 : 1e-11));
}

TEST(SpatialPatchErrorTest, ShapeErrors) {
  TensorContainer<cpu, 4> img(Shape4(1, 2, 4, 4), 0.0f);
  EXPECT_TRUE(
      ext_test::ThrowsTensorError([&] { unpack_patch2col(img, 5, 3, 1, 1); },
                                  {"unpack_patch2col", "(1,2,4,4)"}));
  EXPECT_TRUE(
      ext_test::ThrowsTensorError([&] { unpack_patch2col(img, 3, 3, 0, 1); },
                                  {"unpack_patch2col", "stride (0, 1)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { unpack_patch2col(img, 2, 2, 1, 1, 4, 1); },
      {"unpack_patch2col", "dilated"}));
  TensorContainer<cpu, 2> col(Shape2(18, 5), 0.0f);
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { pack_col2patch(col, img.shape_, 3, 3, 1, 1); },
      {"pack_col2patch", "(18,5)", "(1,2,4,4)", "(18,4)"}));
}

}  // namespace
}  // namespace umbra
