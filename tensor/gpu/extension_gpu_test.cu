// GPU twins of the tensor/extension tests: the reductions to 1-D (through
// extension_gpu.h, from tensors and from expressions) and every chainer of
// tensor/extension, evaluated by the generic kernel (as sources and, for
// concat and slice, as destinations), compared with the CPU on the same
// fresh random inputs. Softmax and SoftmaxGrad: softmax_gpu_test.cc.
#include "gtest/gtest.h"
#include "tensor/extension/extension.h"
#include "tensor/gpu/extension_gpu.h"
#include "tensor/gpu/gpu_test_util.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using namespace expr;  // NOLINT: the extension's functions
using gpu_test::GpuNear;
using gpu_test::SameOnGpu;
using gpu_test::ToGpu;

template <typename DType>
class ExtensionGpuTest : public gpu_test::GpuTest {
 protected:
  static double Tol() { return gpu_test::TolFor<DType>(1e-4, 1e-12); }
};
TYPED_TEST_SUITE(ExtensionGpuTest, gpu_test::RealTypes);

TYPED_TEST(ExtensionGpuTest, SumAllExceptEveryDimOfAnExpression) {
  typedef TypeParam D;
  const Shape<4> s = Shape4(3, 5, 7, 33);
  auto a = this->rng_.template Tensor<D>(s);
  auto b = this->rng_.template Tensor<D>(s);
  auto ga = ToGpu(a.view()), gb = ToGpu(b.view(), true);
  for (int keep = 0; keep < 4; ++keep) {
    TensorContainer<cpu, 1, D> want(Shape1(s[keep]), D(1));
    TensorContainer<gpu, 1, D> got(Shape1(s[keep]), D(1));
    switch (keep) {
      case 0:
        want += sumall_except_dim<0>(a * b) * D(0.5);
        got += sumall_except_dim<0>(ga * gb) * D(0.5);
        break;
      case 1:
        want += sumall_except_dim<1>(a * b) * D(0.5);
        got += sumall_except_dim<1>(ga * gb) * D(0.5);
        break;
      case 2:
        want += sumall_except_dim<2>(a * b) * D(0.5);
        got += sumall_except_dim<2>(ga * gb) * D(0.5);
        break;
      case 3:
        want += sumall_except_dim<3>(a * b) * D(0.5);
        got += sumall_except_dim<3>(ga * gb) * D(0.5);
        break;
    }
    EXPECT_TRUE(GpuNear(got.view(), want.view(), this->Tol())) << keep;
  }
}

TYPED_TEST(ExtensionGpuTest, ReductionsOfTensors) {
  typedef TypeParam D;
  auto m = this->rng_.template Tensor<D>(Shape2(701, 131));
  auto gm = ToGpu(m.view(), true);
  TensorContainer<cpu, 1, D> want(Shape1(131));
  TensorContainer<gpu, 1, D> got(Shape1(131));
  want = sum_rows(m);
  got = sum_rows(gm);
  EXPECT_TRUE(GpuNear(got.view(), want.view(), this->Tol()));

  auto t = this->rng_.template Tensor<D>(Shape4(9, 13, 23, 37));
  auto gt = ToGpu(t.view());
  TensorContainer<cpu, 1, D> mx(Shape1(13));
  TensorContainer<gpu, 1, D> gmx(Shape1(13));
  mx = reduce_except_dim<red::maximum, 1>(t);
  gmx = reduce_except_dim<red::maximum, 1>(gt);
  EXPECT_TRUE(GpuNear(gmx.view(), mx.view(), 0.0));
  TensorContainer<cpu, 1, D> mn(Shape1(37));
  TensorContainer<gpu, 1, D> gmn(Shape1(37));
  mn = reduce_except_dim<red::minimum, 3>(t);
  gmn = reduce_except_dim<red::minimum, 3>(gt);
  EXPECT_TRUE(GpuNear(gmn.view(), mn.view(), 0.0));
}

// Broadcasts of 1-D, scalar and keepdim sources.
TYPED_TEST(ExtensionGpuTest, Broadcasts) {
  typedef TypeParam D;
  const double tol = this->Tol();
  const Shape<4> s = Shape4(3, 5, 9, 11);
  auto x = this->rng_.template Tensor<D>(s);
  auto bias = this->rng_.template Tensor<D>(Shape1(5));
  auto row = this->rng_.template Tensor<D>(Shape1(11));
  auto one = this->rng_.template Tensor<D>(Shape1(1));
  auto mat = this->rng_.template Tensor<D>(Shape2(7, 4));
  auto kept = this->rng_.template Tensor<D>(Shape3(7, 1, 4));
  EXPECT_TRUE(SameOnGpu<4>(
      tol, [s](auto x, auto b) { return x * D(2) + broadcast<1>(b * D(3), s); },
      x, bias));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [s](auto r) { return broadcast<3>(r, s); }, row));
  EXPECT_TRUE(SameOnGpu<2>(
      0, [](auto r) { return repmat(r, 6); }, row));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [s](auto o) { return broadcast_scalar(o, s); }, one));
  for (int axis = -1; axis < 2; ++axis) {
    EXPECT_TRUE(SameOnGpu<3>(
        0, [axis](auto m) { return broadcast_with_axis(m, axis, 5); }, mat))
        << "axis " << axis;
  }
  EXPECT_TRUE(SameOnGpu<3>(
      0, [](auto k) { return broadcast_keepdim(k, 1, 6); }, kept));
}

// reduce_with_axis and reduce_keepdim along every axis, with every reducer,
// as values and as indices (mask: argmax / argmin).
TYPED_TEST(ExtensionGpuTest, AxisReductionsAndTheirIndices) {
  typedef TypeParam D;
  const double tol = this->Tol();
  auto x = this->rng_.template Tensor<D>(Shape4(3, 5, 9, 11));
  for (int axis = 0; axis < 4; ++axis) {
    SCOPED_TRACE(::testing::Message() << "axis " << axis);
    EXPECT_TRUE(SameOnGpu<3>(
        tol,
        [axis](auto x) {
          return reduce_with_axis<red::sum, false>(x * x, axis);
        },
        x));
    EXPECT_TRUE(SameOnGpu<3>(
        0,
        [axis](auto x) {
          return reduce_with_axis<red::maximum, false>(x, axis);
        },
        x));
    EXPECT_TRUE(SameOnGpu<3>(
        0,
        [axis](auto x) {
          return reduce_with_axis<red::maximum, true>(x, axis);
        },
        x));
    EXPECT_TRUE(SameOnGpu<3>(
        0,
        [axis](auto x) {
          return reduce_with_axis<red::minimum, true>(x, axis);
        },
        x));
    EXPECT_TRUE(SameOnGpu<4>(
        0,
        [axis](auto x) { return reduce_keepdim<red::minimum, false>(x, axis); },
        x));
    EXPECT_TRUE(SameOnGpu<4>(
        0,
        [axis](auto x) { return reduce_keepdim<red::maximum, true>(x, axis); },
        x));
  }
  // The usual pairing: subtract the row maximum.
  auto m = this->rng_.template Tensor<D>(Shape2(17, 300));
  EXPECT_TRUE(SameOnGpu<2>(
      0,
      [](auto m) {
        return m - broadcast_keepdim(reduce_keepdim<red::maximum, false>(m, 1),
                                     1, m.size(1));
      },
      m));
}

// Chainers that move elements: no arithmetic, so the results are exact.
TYPED_TEST(ExtensionGpuTest, LayoutChainers) {
  typedef TypeParam D;
  const Shape<4> s = Shape4(2, 6, 9, 10);
  auto x = this->rng_.template Tensor<D>(s);
  auto y = this->rng_.template Tensor<D>(Shape4(2, 3, 9, 10));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return swapaxis<1, 2>(x); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return transpose(x, Shape4(3, 1, 0, 2)); }, x));
  EXPECT_TRUE(SameOnGpu<2>(
      0, [](auto x) { return reshape(x, Shape2(12, 90)); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return flip(x, 2); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return mirror(x); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x, auto y) { return concat<1>(x, y); }, x, y));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return concat<3>(x, x); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return slice<1>(x, 2, 5); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return slice<3>(x, 1, 8); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return pad(x, 1, 2); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return crop(x, Shape2(5, 6)); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return crop(x, Shape2(4, 3), 5, 7); }, x));
}

// concat and slice as destinations, with = and +=.
TYPED_TEST(ExtensionGpuTest, ConcatAndSliceAsDestinations) {
  typedef TypeParam D;
  const double tol = this->Tol();
  auto src = this->rng_.template Tensor<D>(Shape3(4, 7, 5));
  auto a = this->rng_.template Tensor<D>(Shape3(4, 3, 5));
  auto b = this->rng_.template Tensor<D>(Shape3(4, 4, 5));
  auto gsrc = ToGpu(src.view(), true);
  auto ga = ToGpu(a.view(), true), gb = ToGpu(b.view());
  concat<1>(a, b) = src * D(2);
  concat<1>(ga, gb) = gsrc * D(2);
  EXPECT_TRUE(GpuNear(ga.view(), a.view(), tol));
  EXPECT_TRUE(GpuNear(gb.view(), b.view(), tol));
  slice<2>(src, 3, 5) += slice<2>(src, 0, 2) * D(0.5);
  slice<2>(gsrc, 3, 5) += slice<2>(gsrc, 0, 2) * D(0.5);
  EXPECT_TRUE(GpuNear(gsrc.view(), src.view(), tol));
  slice<1>(src, 6, 7) = D(7);
  slice<1>(gsrc, 6, 7) = D(7);
  EXPECT_TRUE(GpuNear(gsrc.view(), src.view(), 0));
}

// pool, its gradient unpool, and upsampling (whose gradient is sum pooling).
TYPED_TEST(ExtensionGpuTest, PoolingUnpoolingAndUpsampling) {
  typedef TypeParam D;
  const double tol = this->Tol();
  auto x = this->rng_.template Tensor<D>(Shape4(2, 3, 11, 13));
  // pool(x, 3, 3, 2, 2) is (2, 3, 5, 6); with pad 1, (2, 3, 6, 7).
  auto g = this->rng_.template Tensor<D>(Shape4(2, 3, 5, 6));
  auto gpad = this->rng_.template Tensor<D>(Shape4(2, 3, 6, 7));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return pool<red::maximum>(x, 3, 3, 2, 2); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      tol, [](auto x) { return pool<red::sum>(x, 3, 3, 2, 2, 1, 1); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return pool<red::maximum>(x, Shape2(4, 5), 2, 3, 2, 2); },
      x));
  EXPECT_TRUE(SameOnGpu<4>(
      0,
      [](auto x, auto g) {
        return unpool<red::maximum>(x, pool<red::maximum>(x, 3, 3, 2, 2), g, 3,
                                    3, 2, 2);
      },
      x, g));
  EXPECT_TRUE(SameOnGpu<4>(
      tol,
      [](auto x, auto g) {
        return unpool<red::sum>(x, pool<red::sum>(x, 3, 3, 2, 2, 1, 1), g, 3, 3,
                                2, 2, 1, 1) *
               D(1.0 / 9);
      },
      x, gpad));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return upsampling_nearest(x, 2); }, x));
  auto up_grad = this->rng_.template Tensor<D>(Shape4(2, 3, 22, 26));
  EXPECT_TRUE(SameOnGpu<4>(
      tol, [](auto g) { return pool<red::sum>(g, 2, 2, 2, 2); }, up_grad));
}

// chpool and its gradient ch_unpool, centred and strided (LRN's pair).
TYPED_TEST(ExtensionGpuTest, ChannelPoolingAndItsGradient) {
  typedef TypeParam D;
  const double tol = this->Tol();
  auto x = this->rng_.template Tensor<D>(Shape4(2, 7, 5, 6));
  auto g = this->rng_.template Tensor<D>(x.shape_);
  // chpool(x, 3, 2, 1) has (7 + 2 - 3) / 2 + 1 = 4 channels.
  auto g_strided = this->rng_.template Tensor<D>(Shape4(2, 4, 5, 6));
  EXPECT_TRUE(SameOnGpu<4>(
      tol, [](auto x) { return chpool<red::sum>(x * x, 5); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      0, [](auto x) { return chpool<red::maximum>(x, 3, 2, 1); }, x));
  EXPECT_TRUE(SameOnGpu<4>(
      tol,
      [](auto x, auto g) {
        return ch_unpool<red::sum>(x, chpool<red::sum>(x, 5), g, 5);
      },
      x, g));
  EXPECT_TRUE(SameOnGpu<4>(
      0,
      [](auto x, auto g) {
        return ch_unpool<red::maximum>(x, chpool<red::maximum>(x, 3, 2, 1), g,
                                       3, 2, 1);
      },
      x, g_strided));
}

// im2col and col2im, with stride and dilation.
TYPED_TEST(ExtensionGpuTest, PatchesAndTheirAdjoint) {
  typedef TypeParam D;
  const double tol = this->Tol();
  const Shape<4> s = Shape4(2, 3, 9, 10);
  auto x = this->rng_.template Tensor<D>(s);
  EXPECT_TRUE(SameOnGpu<2>(
      0, [](auto x) { return unpack_patch2col(x, 3, 3, 1, 1); }, x));
  EXPECT_TRUE(SameOnGpu<2>(
      0, [](auto x) { return unpack_patch2col(pad(x, 1), 3, 2, 2, 1, 2, 1); },
      x));
  EXPECT_TRUE(SameOnGpu<4>(
      tol,
      [s](auto x) {
        return pack_col2patch(unpack_patch2col(x, 3, 3, 2, 1, 1, 2), s, 3, 3, 2,
                              1, 1, 2);
      },
      x));
}

// Chainers driven by indices stored as DType: one_hot_encode, take and its
// gradient, per-row choose and fill (indices partly out of range, which
// each clips or skips), and range.
TYPED_TEST(ExtensionGpuTest, IndexChainers) {
  typedef TypeParam D;
  const double tol = this->Tol();
  const index_t n = 37, k = 11, dim = 13;
  auto label = this->rng_.template Labels<D>(n, k);
  auto wide_label = this->rng_.template Labels<D>(n, k + 4);  // [0, k + 4)
  auto table = this->rng_.template Tensor<D>(Shape2(k, dim));
  auto grad = this->rng_.template Tensor<D>(Shape2(n, dim));
  auto mat = this->rng_.template Tensor<D>(Shape2(n, k));
  auto val = this->rng_.template Tensor<D>(Shape1(n));
  EXPECT_TRUE(SameOnGpu<2>(
      0, [](auto l) { return one_hot_encode(l, 11) * D(2); }, label));
  EXPECT_TRUE(SameOnGpu<2>(
      0, [](auto l, auto t) { return take(l - D(2), t); }, wide_label, table));
  EXPECT_TRUE(SameOnGpu<2>(
      tol, [](auto l, auto g) { return take_grad(l - D(2), g, 11); },
      wide_label, grad));
  EXPECT_TRUE(SameOnGpu<1>(
      0, [](auto m, auto l) { return mat_choose_row_element(m, l - D(2)); },
      mat, wide_label));
  EXPECT_TRUE(SameOnGpu<2>(
      0, [](auto m, auto v, auto l) { return mat_fill_row_element(m, v, l); },
      mat, val, wide_label));
  EXPECT_TRUE(SameOnGpu<1>(tol, [] { return range<D>(-3, 7.5, 0.5, 3); }));
  EXPECT_TRUE(SameOnGpu<1>(tol, [] { return range<D>(4, -5, -2); }));
  EXPECT_TRUE(SameOnGpu<2>(
      tol, [](auto m) { return m * broadcast<1>(range<D>(0, 11), m.shape_); },
      mat));
}

}  // namespace
}  // namespace umbra
