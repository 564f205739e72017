// Random<gpu> (reproducibility, moments, strided destinations), the
// reductions of reduce_gpu.h (its softmax: softmax_gpu_test.cc) and the host
// entry points of ops_gpu.h, compared with CPU references on fresh random
// input.
#include <algorithm>
#include <limits>
#include <string>

#include "gtest/gtest.h"
#include "tensor/gpu/gpu_test_util.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using gpu_test::GpuNear;
using gpu_test::ToCpu;
using gpu_test::ToGpu;

template <typename DType>
class RandomGpuTest : public gpu_test::GpuTest {};
TYPED_TEST_SUITE(RandomGpuTest, gpu_test::RealTypes);

template <int dim, typename DType>
void Moments(const Tensor<cpu, dim, DType>& t, double* mean, double* var,
             double* lo, double* hi) {
  const Tensor<cpu, 2, DType> t2 = t.FlatTo2D();
  double sum = 0, sum2 = 0;
  *lo = std::numeric_limits<double>::infinity();
  *hi = -*lo;
  for (index_t y = 0; y < t2.size(0); ++y) {
    for (index_t x = 0; x < t2.size(1); ++x) {
      const double v = t2[y][x];
      sum += v;
      sum2 += v * v;
      *lo = std::min(*lo, v);
      *hi = std::max(*hi, v);
    }
  }
  const double n = double(t.shape_.Size());
  *mean = sum / n;
  *var = sum2 / n - *mean * *mean;
}

TYPED_TEST(RandomGpuTest, SameSeedSameNumbersAndSaneMoments) {
  typedef TypeParam D;
  const Shape<2> s = Shape2(301, 333);  // odd count: the even-length path
  Random<gpu, D> r1(7), r2(7), r3(8);
  TensorContainer<gpu, 2, D> a(s), b(s), c(s);
  r1.SampleGaussian(&a, D(1), D(2));
  r2.SampleGaussian(&b, D(1), D(2));
  r3.SampleGaussian(&c, D(1), D(2));
  auto ha = ToCpu(a.view()), hb = ToCpu(b.view()), hc = ToCpu(c.view());
  EXPECT_TRUE(gpu_test::AllNear(ha.view(), hb.view(), 0.0));
  EXPECT_FALSE(gpu_test::AllNear(ha.view(), hc.view(), 0.0));
  double mean, var, lo, hi;
  Moments(ha.view(), &mean, &var, &lo, &hi);
  EXPECT_NEAR(mean, 1.0, 0.02);
  EXPECT_NEAR(var, 4.0, 0.08);

  r1.Seed(7);
  TensorContainer<gpu, 2, D> again(s);
  r1.SampleGaussian(&again, D(1), D(2));
  EXPECT_TRUE(GpuNear(again.view(), ha.view(), 0.0));

  TensorContainer<gpu, 2, D> u(s, true);  // padded rows
  r1.SampleUniform(&u, D(-3), D(5));
  Moments(ToCpu(u.view()).view(), &mean, &var, &lo, &hi);
  EXPECT_NEAR(mean, 1.0, 0.05);
  EXPECT_NEAR(var, 64.0 / 12.0, 0.1);
  EXPECT_GE(lo, -3.0);
  EXPECT_LT(hi, 5.0);

  TensorContainer<gpu, 2, D> mask = r1.bernoulli(s, D(0.3));
  Moments(ToCpu(mask.view()).view(), &mean, &var, &lo, &hi);
  EXPECT_NEAR(mean, 0.3, 0.01);
  EXPECT_EQ(lo, 0.0);
  EXPECT_EQ(hi, 1.0);
}

TYPED_TEST(RandomGpuTest, OnAStream) {
  typedef TypeParam D;
  Stream<gpu>* stream = NewStream<gpu>(false);
  Random<gpu, D> rnd(3);
  rnd.set_stream(stream);
  TensorContainer<gpu, 1, D> t = rnd.uniform(Shape1(1001), D(0), D(1));
  stream->Wait();
  double mean, var, lo, hi;
  Moments(ToCpu(t.view()).view(), &mean, &var, &lo, &hi);
  EXPECT_NEAR(mean, 0.5, 0.05);
  rnd.set_stream(nullptr);
  t.set_stream(nullptr);
  DeleteStream(stream);
}

template <typename DType>
class ReduceGpuTest : public gpu_test::GpuTest {
 protected:
  static double Tol() { return gpu_test::TolFor<DType>(1e-5, 1e-12); }
};
TYPED_TEST_SUITE(ReduceGpuTest, gpu_test::RealTypes);

// CPU reference of ReduceExceptDim on a 4-D tensor.
template <typename Reducer, typename DType>
TensorContainer<cpu, 1, DType> KeepRef(const Tensor<cpu, 4, DType>& src,
                                       int keep, DType scale) {
  TensorContainer<cpu, 1, DType> out(Shape1(src.size(keep)));
  for (index_t k = 0; k < out.size(0); ++k) Reducer::SetInitValue(out[k]);
  for (index_t i = 0; i < src.size(0); ++i)
    for (index_t j = 0; j < src.size(1); ++j)
      for (index_t l = 0; l < src.size(2); ++l)
        for (index_t m = 0; m < src.size(3); ++m) {
          const index_t idx[4] = {i, j, l, m};
          Reducer::Reduce(out[idx[keep]], DType(src[i][j][l][m]));
        }
  for (index_t k = 0; k < out.size(0); ++k) out[k] = out[k] * scale;
  return out;
}

TYPED_TEST(ReduceGpuTest, ReduceExceptEveryDimension) {
  typedef TypeParam D;
  auto src = this->rng_.template Tensor<D>(Shape4(3, 70, 5, 33));
  auto gsrc = ToGpu(src.view(), true);
  const double tol = this->Tol() * 100;
  TensorContainer<gpu, 1, D> g0(Shape1(3)), g1(Shape1(70)), g2(Shape1(5)),
      g3(Shape1(33));
  ReduceExceptDim<sv::saveto, red::sum, 0>(g0.view(), gsrc.view(), D(0.5));
  ReduceExceptDim<sv::saveto, red::sum, 1>(g1.view(), gsrc.view(), D(1));
  ReduceExceptDim<sv::saveto, red::maximum, 2>(g2.view(), gsrc.view(), D(1));
  ReduceExceptDim<sv::saveto, red::minimum, 3>(g3.view(), gsrc.view(), D(1));
  EXPECT_TRUE(
      GpuNear(g0.view(), KeepRef<red::sum>(src.view(), 0, D(0.5)).view(), tol));
  EXPECT_TRUE(
      GpuNear(g1.view(), KeepRef<red::sum>(src.view(), 1, D(1)).view(), tol));
  EXPECT_TRUE(
      GpuNear(g2.view(), KeepRef<red::maximum>(src.view(), 2, D(1)).view(), 0));
  EXPECT_TRUE(
      GpuNear(g3.view(), KeepRef<red::minimum>(src.view(), 3, D(1)).view(), 0));
  // += and SumAllExceptDim.
  TensorContainer<cpu, 1, D> want = KeepRef<red::sum>(src.view(), 1, D(1));
  want *= D(2);
  SumAllExceptDim<1, sv::plusto>(g1.view(), gsrc.view());
  EXPECT_TRUE(GpuNear(g1.view(), want.view(), tol));
}

TYPED_TEST(ReduceGpuTest, SumRowsTallAndWide) {
  typedef TypeParam D;
  for (const Shape<2>& s : {Shape2(5000, 3), Shape2(3, 5000), Shape2(1, 1)}) {
    auto src = this->rng_.template Tensor<D>(s);
    auto gsrc = ToGpu(src.view());
    TensorContainer<gpu, 1, D> got(Shape1(s[1]));
    SumRows(got.view(), gsrc.view());
    TensorContainer<cpu, 1, D> want(Shape1(s[1]), D(0));
    for (index_t y = 0; y < s[0]; ++y)
      for (index_t x = 0; x < s[1]; ++x) want[x] += src[y][x];
    EXPECT_TRUE(GpuNear(got.view(), want.view(), this->Tol() * 100)) << s;
  }
}

TYPED_TEST(ReduceGpuTest, ReduceWithEveryAxis) {
  typedef TypeParam D;
  auto src = this->rng_.template Tensor<D>(Shape3(7, 300, 9));
  auto gsrc = ToGpu(src.view());
  TensorContainer<gpu, 2, D> a0(Shape2(300, 9)), a1(Shape2(7, 9)),
      a2(Shape2(7, 300));
  ReduceWithAxis<sv::saveto, red::sum, 0>(a0.view(), gsrc.view());
  ReduceWithAxis<sv::saveto, red::maximum, 1>(a1.view(), gsrc.view());
  ReduceWithAxis<sv::saveto, red::sum, 2>(a2.view(), gsrc.view());
  TensorContainer<cpu, 2, D> w0(Shape2(300, 9), D(0)), w1(Shape2(7, 9)),
      w2(Shape2(7, 300), D(0));
  for (index_t i = 0; i < 7; ++i)
    for (index_t x = 0; x < 9; ++x) red::maximum::SetInitValue(w1[i][x]);
  for (index_t i = 0; i < 7; ++i)
    for (index_t j = 0; j < 300; ++j)
      for (index_t k = 0; k < 9; ++k) {
        const D v = src[i][j][k];
        w0[j][k] += v;
        red::maximum::Reduce(w1[i][k], v);
        w2[i][j] += v;
      }
  EXPECT_TRUE(GpuNear(a0.view(), w0.view(), this->Tol() * 10));
  EXPECT_TRUE(GpuNear(a1.view(), w1.view(), 0));
  EXPECT_TRUE(GpuNear(a2.view(), w2.view(), this->Tol() * 10));
}

template <typename DType>
class OpsGpuTest : public gpu_test::GpuTest {};
TYPED_TEST_SUITE(OpsGpuTest, gpu_test::RealTypes);

TYPED_TEST(OpsGpuTest, HostEntryPointsMatchTheCpuEngine) {
  typedef TypeParam D;
  const double tol = sizeof(D) == 4 ? 2e-6 : 1e-14;
  const Shape<3> s = Shape3(4, 50, 31);
  auto a = this->rng_.template Tensor<D>(s, 0.5, 2);
  auto b = this->rng_.template Tensor<D>(s, 0.5, 2);
  auto ga = ToGpu(a.view()), gb = ToGpu(b.view(), true);
  TensorContainer<cpu, 3, D> want(s, D(1));
  TensorContainer<gpu, 3, D> got(s, D(1));
  gpu_ops::Unary<op::sigmoid>(got.view(), ga.view());
  want = expr::F<op::sigmoid>(a);
  EXPECT_TRUE(GpuNear(got.view(), want.view(), tol));
  gpu_ops::UnaryMul<op::tanh_grad, sv::plusto>(got.view(), ga.view(),
                                               gb.view());
  want += a * expr::F<op::tanh_grad>(b);
  EXPECT_TRUE(GpuNear(got.view(), want.view(), tol));
  gpu_ops::Binary<op::maximum>(got.view(), ga.view(), gb.view());
  want = expr::F<op::maximum>(a, b);
  EXPECT_TRUE(GpuNear(got.view(), want.view(), tol));
  gpu_ops::BinaryScalar<op::pow>(got.view(), ga.view(), D(1.5));
  want = expr::F<op::pow>(a, D(1.5));
  EXPECT_TRUE(GpuNear(got.view(), want.view(), tol));
  gpu_ops::Axpby(got.view(), D(2), ga.view(), D(-1));
  want = D(2) * a + D(-1) * want;
  EXPECT_TRUE(GpuNear(got.view(), want.view(), tol));
  gpu_ops::SgdUpdate(got.view(), gb.view(), D(0.1), D(1e-4));
  want -= D(0.1) * (b + D(1e-4) * want);
  EXPECT_TRUE(GpuNear(got.view(), want.view(), tol));
  TensorContainer<gpu, 3, D> m(s, D(0));
  TensorContainer<cpu, 3, D> mw(s, D(0));
  gpu_ops::MomentumUpdate(got.view(), m.view(), gb.view(), D(0.1), D(0.9),
                          D(1e-4));
  mw = D(0.9) * mw - D(0.1) * (b + D(1e-4) * want);
  want += mw;
  EXPECT_TRUE(GpuNear(got.view(), want.view(), tol));
  EXPECT_TRUE(GpuNear(m.view(), mw.view(), tol));
}

}  // namespace
}  // namespace umbra
