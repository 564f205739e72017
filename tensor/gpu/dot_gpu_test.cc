// GPU twins of the dot tests: gemm in every transpose combination and
// saver, gemv, ger, batch_dot, strided views, aliasing and half storage, all
// through cuBLAS from host code and compared with the CPU (OpenBLAS).
#include <string>

#include "gtest/gtest.h"
#include "tensor/gpu/gpu_test_util.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using gpu_test::GpuNear;
using gpu_test::ToGpu;

template <typename DType>
class DotGpuTest : public gpu_test::GpuTest {
 protected:
  static double Tol() { return gpu_test::TolFor<DType>(2e-5, 1e-12); }

  // dst <SV> scale * dot(op(a), op(b)) on both devices.
  template <bool lt, bool rt>
  void CheckGemm(index_t m, index_t n, index_t k, bool pad) {
    const Shape<2> sa = lt ? Shape2(k, m) : Shape2(m, k);
    const Shape<2> sb = rt ? Shape2(n, k) : Shape2(k, n);
    auto a = rng_.template Tensor<DType>(sa);
    auto b = rng_.template Tensor<DType>(sb);
    auto c = rng_.template Tensor<DType>(Shape2(m, n));
    auto ga = ToGpu(a.view(), pad), gb = ToGpu(b.view(), pad);
    auto gc = ToGpu(c.view(), pad);
    Tensor<cpu, 2, DType> ca = a.view(), cb = b.view(), cc = c.view();
    Tensor<gpu, 2, DType> da = ga.view(), db = gb.view(), dc = gc.view();
    auto run = [](auto dst, auto x, auto y) {
      if constexpr (lt && rt) {
        dst = dot(x.T(), y.T());
        dst += DType(0.5) * dot(x.T(), y.T());
        dst -= dot(x.T(), y.T()) * DType(2);
      } else if constexpr (lt) {
        dst = dot(x.T(), y);
        dst += DType(0.5) * dot(x.T(), y);
        dst -= dot(x.T(), y) * DType(2);
      } else if constexpr (rt) {
        dst = dot(x, y.T());
        dst += DType(0.5) * dot(x, y.T());
        dst -= dot(x, y.T()) * DType(2);
      } else {
        dst = dot(x, y);
        dst += DType(0.5) * dot(x, y);
        dst -= dot(x, y) * DType(2);
      }
    };
    run(cc, ca, cb);
    run(dc, da, db);
    EXPECT_TRUE(GpuNear(dc, cc, Tol() * k))
        << "lt " << lt << " rt " << rt << " pad " << pad;
  }
};

TYPED_TEST_SUITE(DotGpuTest, gpu_test::RealTypes);

TYPED_TEST(DotGpuTest, GemmEveryTransposeAndSaver) {
  for (bool pad : {false, true}) {
    this->template CheckGemm<false, false>(33, 17, 45, pad);
    this->template CheckGemm<false, true>(33, 17, 45, pad);
    this->template CheckGemm<true, false>(33, 17, 45, pad);
    this->template CheckGemm<true, true>(33, 17, 45, pad);
    this->template CheckGemm<false, false>(1, 1, 1, pad);
    this->template CheckGemm<false, true>(128, 256, 64, pad);
  }
}

TYPED_TEST(DotGpuTest, GemvAndGer) {
  typedef TypeParam D;
  auto x = this->rng_.template Tensor<D>(Shape1(37));
  auto w = this->rng_.template Tensor<D>(Shape2(37, 19));
  auto wt = this->rng_.template Tensor<D>(Shape2(19, 37));
  auto gx = ToGpu(x.view());
  auto gw = ToGpu(w.view(), true), gwt = ToGpu(wt.view(), true);
  TensorContainer<cpu, 1, D> y(Shape1(19), D(1));
  TensorContainer<gpu, 1, D> gy(Shape1(19), D(1));
  y += dot(x.view(), w.view());
  gy += dot(gx.view(), gw.view());
  EXPECT_TRUE(GpuNear(gy.view(), y.view(), this->Tol() * 37));
  y = dot(x.view(), wt.view().T());
  gy = dot(gx.view(), gwt.view().T());
  EXPECT_TRUE(GpuNear(gy.view(), y.view(), this->Tol() * 37));

  auto v = this->rng_.template Tensor<D>(Shape1(19));
  auto gv = ToGpu(v.view());
  TensorContainer<cpu, 2, D> outer(Shape2(37, 19), D(2));
  TensorContainer<gpu, 2, D> gouter(Shape2(37, 19), D(2), true);
  outer = dot(x.view().T(), v.view());
  gouter = dot(gx.view().T(), gv.view());
  EXPECT_TRUE(GpuNear(gouter.view(), outer.view(), this->Tol()));
  outer -= D(3) * dot(x.view().T(), v.view());
  gouter -= D(3) * dot(gx.view().T(), gv.view());
  EXPECT_TRUE(GpuNear(gouter.view(), outer.view(), this->Tol()));
}

TYPED_TEST(DotGpuTest, BatchDotEveryTranspose) {
  typedef TypeParam D;
  auto a = this->rng_.template Tensor<D>(Shape3(6, 9, 13));
  auto b = this->rng_.template Tensor<D>(Shape3(6, 13, 9));
  auto ga = ToGpu(a.view()), gb = ToGpu(b.view());
  TensorContainer<cpu, 3, D> c(Shape3(6, 9, 9), D(0));
  TensorContainer<gpu, 3, D> gc(Shape3(6, 9, 9), D(0));
  c = batch_dot<false, false>(a.view(), b.view());
  gc = batch_dot<false, false>(ga.view(), gb.view());
  EXPECT_TRUE(GpuNear(gc.view(), c.view(), this->Tol() * 13));
  TensorContainer<cpu, 3, D> c2(Shape3(6, 13, 13), D(1));
  TensorContainer<gpu, 3, D> gc2(Shape3(6, 13, 13), D(1));
  c2 += batch_dot<true, true>(a.view(), b.view());
  gc2 += batch_dot<true, true>(ga.view(), gb.view());
  EXPECT_TRUE(GpuNear(gc2.view(), c2.view(), this->Tol() * 13));
  auto a2 = this->rng_.template Tensor<D>(Shape3(6, 9, 13));
  auto ga2 = ToGpu(a2.view());
  c = batch_dot<false, true>(a.view(), a2.view());
  gc = batch_dot<false, true>(ga.view(), ga2.view());
  EXPECT_TRUE(GpuNear(gc.view(), c.view(), this->Tol() * 13));
  c2 = batch_dot<true, false>(a.view(), a2.view());
  gc2 = batch_dot<true, false>(ga.view(), ga2.view());
  EXPECT_TRUE(GpuNear(gc2.view(), c2.view(), this->Tol() * 13));
}

TYPED_TEST(DotGpuTest, DestinationOverlappingAnOperand) {
  typedef TypeParam D;
  auto a = this->rng_.template Tensor<D>(Shape2(16, 16));
  auto b = this->rng_.template Tensor<D>(Shape2(16, 16));
  auto ga = ToGpu(a.view()), gb = ToGpu(b.view());
  a = dot(a.view(), b.view());
  ga = dot(ga.view(), gb.view());
  EXPECT_TRUE(GpuNear(ga.view(), a.view(), this->Tol() * 16));
}

class DotGpuMiscTest : public gpu_test::GpuTest {};

TEST_F(DotGpuMiscTest, HalfStorageWithFloatCompute) {
  auto a = rng_.Tensor<float>(Shape2(64, 96), -1, 1);
  auto b = rng_.Tensor<float>(Shape2(80, 96), -1, 1);
  TensorContainer<cpu, 2, half_t> ha(a.shape_), hb(b.shape_);
  ha = expr::tcast<half_t>(a);
  hb = expr::tcast<half_t>(b);
  a = expr::tcast<float>(ha);  // the values the GPU sees
  b = expr::tcast<float>(hb);
  auto ga = ToGpu(ha.view()), gb = ToGpu(hb.view());
  TensorContainer<gpu, 2, half_t> gc(Shape2(64, 80));
  gc = dot(ga.view(), gb.view().T());
  TensorContainer<cpu, 2> c(Shape2(64, 80));
  c = dot(a.view(), b.view().T());
  // fp32 accumulation, one rounding to half at the end.
  EXPECT_TRUE(GpuNear(gc.view(), c.view(), 2e-3));
  TensorContainer<gpu, 3, half_t> g3(Shape3(2, 32, 40));
  Tensor<gpu, 3, half_t> ga3(ga.dptr_, Shape3(2, 32, 96), nullptr);
  Tensor<gpu, 3, half_t> gb3(gb.dptr_, Shape3(2, 40, 96), nullptr);
  g3 = batch_dot<false, true>(ga3, gb3);
  TensorContainer<cpu, 3> c3(Shape3(2, 32, 40));
  Tensor<cpu, 3> a3(a.dptr_, Shape3(2, 32, 96)), b3(b.dptr_, Shape3(2, 40, 96));
  c3 = batch_dot<false, true>(a3, b3);
  EXPECT_TRUE(GpuNear(g3.view(), c3.view(), 2e-3));
}

TEST_F(DotGpuMiscTest, ShapeErrorNamesAllShapes) {
  TensorContainer<gpu, 2> a(Shape2(3, 4), 1.0f), b(Shape2(5, 6), 1.0f),
      c(Shape2(3, 6));
  try {
    c = dot(a.view(), b.view());
    FAIL() << "no error";
  } catch (const TensorError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("(3,4)"), std::string::npos) << what;
    EXPECT_NE(what.find("(5,6)"), std::string::npos) << what;
    EXPECT_NE(what.find("(3,6)"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace umbra
