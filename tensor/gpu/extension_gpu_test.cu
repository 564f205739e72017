// GPU twins of the tensor/extension tests: the reductions to 1-D (through
// extension_gpu.h, from tensors and from expressions) and a set of chainers
// evaluated by the generic kernel, compared with the CPU on the same fresh
// random input.
#include "gtest/gtest.h"
#include "tensor/extension/extension.h"
#include "tensor/gpu/extension_gpu.h"
#include "tensor/gpu/gpu_test_util.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using namespace expr;  // NOLINT: the extension's functions
using gpu_test::GpuNear;
using gpu_test::ToGpu;

template <typename DType>
class ExtensionGpuTest : public gpu_test::GpuTest {
 protected:
  static double Tol() { return sizeof(DType) == 4 ? 1e-4 : 1e-12; }
};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(ExtensionGpuTest, RealTypes);

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

TYPED_TEST(ExtensionGpuTest, ChainersThroughTheGenericKernel) {
  typedef TypeParam D;
  const Shape<4> s = Shape4(3, 5, 9, 11);
  auto x = this->rng_.template Tensor<D>(s);
  auto bias = this->rng_.template Tensor<D>(Shape1(5));
  auto gx = ToGpu(x.view());
  auto gbias = ToGpu(bias.view());
  {
    TensorContainer<cpu, 4, D> want(s);
    TensorContainer<gpu, 4, D> got(s);
    want = x * D(2) + broadcast<1>(bias * D(3), s);
    got = gx * D(2) + broadcast<1>(gbias * D(3), s);
    EXPECT_TRUE(GpuNear(got.view(), want.view(), this->Tol()));
  }
  {
    TensorContainer<cpu, 3, D> want(Shape3(3, 9, 11));
    TensorContainer<gpu, 3, D> got(Shape3(3, 9, 11));
    want = reduce_with_axis<red::maximum, false>(x, 1);
    got = reduce_with_axis<red::maximum, false>(gx, 1);
    EXPECT_TRUE(GpuNear(got.view(), want.view(), 0.0));
    want = reduce_with_axis<red::sum, false>(x * x, 3);
    got = reduce_with_axis<red::sum, false>(gx * gx, 3);
    EXPECT_TRUE(GpuNear(got.view(), want.view(), this->Tol()));
  }
  {
    TensorContainer<cpu, 4, D> want(Shape4(3, 9, 5, 11));
    TensorContainer<gpu, 4, D> got(Shape4(3, 9, 5, 11));
    want = swapaxis<1, 2>(x);
    got = swapaxis<1, 2>(gx);
    EXPECT_TRUE(GpuNear(got.view(), want.view(), 0.0));
  }
  {
    auto pooled_shape = pool<red::maximum>(x, 3, 3, 2, 2).shape_;
    TensorContainer<cpu, 4, D> want(pooled_shape);
    TensorContainer<gpu, 4, D> got(pooled_shape);
    want = pool<red::maximum>(x, 3, 3, 2, 2);
    got = pool<red::maximum>(gx, 3, 3, 2, 2);
    EXPECT_TRUE(GpuNear(got.view(), want.view(), 0.0));
  }
  {
    auto col_shape = unpack_patch2col(x, 3, 3, 1, 1).shape_;
    TensorContainer<cpu, 2, D> want(col_shape);
    TensorContainer<gpu, 2, D> got(col_shape);
    want = unpack_patch2col(x, 3, 3, 1, 1);
    got = unpack_patch2col(gx, 3, 3, 1, 1);
    EXPECT_TRUE(GpuNear(got.view(), want.view(), 0.0));
  }
}

// Runs `make(x, y)` into host and device containers shaped like the
// expression and compares (x, y: 4-D operands of shape s).
template <typename DType, int dim, typename MakeFn>
void CheckChainer(gpu_test::Rng* rng, const Shape<4>& s, const MakeFn& make,
                  double tol, const char* what) {
  auto x = rng->Tensor<DType>(s);
  auto y = rng->Tensor<DType>(s);
  auto gx = ToGpu(x.view());
  auto gy = ToGpu(y.view(), true);
  auto cpu_exp = make(x.view(), y.view());
  auto gpu_exp = make(gx.view(), gy.view());
  TensorContainer<cpu, dim, DType> want(cpu_exp.shape_);
  TensorContainer<gpu, dim, DType> got(gpu_exp.shape_);
  want = cpu_exp;
  got = gpu_exp;
  EXPECT_TRUE(GpuNear(got.view(), want.view(), tol)) << what;
}

TYPED_TEST(ExtensionGpuTest, MoreChainers) {
  typedef TypeParam D;
  const Shape<4> s = Shape4(2, 6, 9, 10);
  const double tol = this->Tol();
  gpu_test::Rng* rng = &this->rng_;
  CheckChainer<D, 4>(
      rng, s, [](auto x, auto y) { return chpool<red::sum>(x, 3); }, tol,
      "chpool");
  CheckChainer<D, 4>(
      rng, s, [](auto x, auto y) { return concat<1>(x, y); }, 0, "concat");
  CheckChainer<D, 4>(
      rng, s, [](auto x, auto y) { return slice<2>(x, 2, 7); }, 0, "slice");
  CheckChainer<D, 4>(
      rng, s, [](auto x, auto y) { return pad(x, 1, 2); }, 0, "pad");
  CheckChainer<D, 4>(
      rng, s, [](auto x, auto y) { return crop(x, Shape2(5, 6)); }, 0, "crop");
  CheckChainer<D, 4>(
      rng, s, [](auto x, auto y) { return transpose(x, Shape4(3, 1, 0, 2)); },
      0, "transpose");
  CheckChainer<D, 4>(
      rng, s, [](auto x, auto y) { return flip(x, 2); }, 0, "flip");
  CheckChainer<D, 2>(
      rng, s, [](auto x, auto y) { return reshape(x, Shape2(12, 90)); }, 0,
      "reshape");
  CheckChainer<D, 4>(
      rng, s,
      [s](auto x, auto y) {
        return pack_col2patch(unpack_patch2col(x, 3, 3, 1, 1), s, 3, 3, 1, 1);
      },
      tol, "pack_col2patch(unpack_patch2col)");
}

TYPED_TEST(ExtensionGpuTest, OneHotAndTake) {
  typedef TypeParam D;
  const index_t n = 37, k = 11, dim = 13;
  TensorContainer<cpu, 1, D> label(Shape1(n));
  for (index_t i = 0; i < n; ++i) label[i] = D((i * 5) % k);
  auto table = this->rng_.template Tensor<D>(Shape2(k, dim));
  auto glabel = ToGpu(label.view());
  auto gtable = ToGpu(table.view());
  TensorContainer<cpu, 2, D> hot(Shape2(n, k));
  TensorContainer<gpu, 2, D> ghot(Shape2(n, k));
  hot = one_hot_encode(label, k) * D(2);
  ghot = one_hot_encode(glabel, k) * D(2);
  EXPECT_TRUE(GpuNear(ghot.view(), hot.view(), 0.0));
  TensorContainer<cpu, 2, D> rows(Shape2(n, dim));
  TensorContainer<gpu, 2, D> grows(Shape2(n, dim));
  rows = take(label, table);
  grows = take(glabel, gtable);
  EXPECT_TRUE(GpuNear(grows.view(), rows.view(), 0.0));
}

}  // namespace
}  // namespace umbra
