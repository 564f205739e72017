// GPU twins of the expression tests: every expression form, operator and
// saver evaluated on the GPU (MapPlanKernel and MapVecKernel) and compared
// with the CPU engine on the same fresh random input. Compiled by nvcc: the
// expressions here instantiate their kernels in this file.
#include <cstdint>

#include "gtest/gtest.h"
#include "tensor/gpu/gpu_test_util.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using expr::F;
using gpu_test::GpuNear;
using gpu_test::ToCpu;
using gpu_test::ToGpu;

// a * b + c, as a user-defined ternary operator.
struct fma3 {
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a, DType b, DType c) {
    return a * b + c;
  }
};

template <typename DType>
class ExpressionGpuTest : public gpu_test::GpuTest {
 protected:
  // Runs fn(dst, a, b, c) on host tensors and on device copies of them
  // (padded rows when pad) and compares the destinations.
  template <int dim, typename Fn>
  void Check(const Shape<dim>& shape, const Fn& fn, double tol,
             bool pad = false, double lo = 0.5, double hi = 2.0) {
    auto a = rng_.template Tensor<DType>(shape, lo, hi);
    auto b = rng_.template Tensor<DType>(shape, lo, hi);
    auto c = rng_.template Tensor<DType>(shape, lo, hi);
    auto want = rng_.template Tensor<DType>(shape, lo, hi);
    auto got = ToGpu(want.view(), pad);
    auto ga = ToGpu(a.view(), pad), gb = ToGpu(b.view(), pad),
         gc = ToGpu(c.view(), pad);
    fn(want.view(), a.view(), b.view(), c.view());
    fn(got.view(), ga.view(), gb.view(), gc.view());
    EXPECT_TRUE(GpuNear(got.view(), want.view(), tol)) << "shape " << shape;
  }
  static double Tol() { return gpu_test::TolFor<DType>(2e-6, 1e-13); }
};

TYPED_TEST_SUITE(ExpressionGpuTest, gpu_test::RealTypes);

TYPED_TEST(ExpressionGpuTest, ArithmeticInAllOperandCombinations) {
  typedef TypeParam D;
  const double tol = this->Tol();
  for (bool pad : {false, true}) {
    const Shape<2> s = Shape2(37, 129);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d = a + b; }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d = a - b; }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d = a * b; }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d = a / b; }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d = a * D(2) + D(1); }, tol,
        pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d = D(3) - a / D(2); }, tol,
        pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d = 2 * a - 0.5 * b; }, tol,
        pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d = -(a + b) * c; }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d = F<fma3>(a, b, c); }, tol,
        pad);
    this->Check(
        s,
        [](auto d, auto a, auto b, auto c) {
          d = F<fma3>(a, expr::scalar<D>(2), b);
        },
        tol, pad);
    this->Check(
        s,
        [](auto d, auto a, auto b, auto c) {
          d = F<op::maximum>(a, D(1)) + F<op::minimum>(D(1), b);
        },
        tol, pad);
  }
}

TYPED_TEST(ExpressionGpuTest, EveryOperator) {
  typedef TypeParam D;
  // Transcendentals differ between CUDA's and the host's libm by a few ulp.
  const double tol = sizeof(D) == 4 ? 2e-6 : 1e-14;
  const Shape<2> s = Shape2(19, 67);
#define UMBRA_CHECK_UNARY(OP) \
  this->Check(                \
      s, [](auto d, auto a, auto b, auto c) { d = F<OP>(a - D(1)); }, tol)
  UMBRA_CHECK_UNARY(op::identity);
  UMBRA_CHECK_UNARY(op::negation);
  UMBRA_CHECK_UNARY(op::exp);
  UMBRA_CHECK_UNARY(op::square);
  UMBRA_CHECK_UNARY(op::abs);
  UMBRA_CHECK_UNARY(op::sign);
  UMBRA_CHECK_UNARY(op::relu);
  UMBRA_CHECK_UNARY(op::relu_grad);
  UMBRA_CHECK_UNARY(op::sigmoid);
  UMBRA_CHECK_UNARY(op::sigmoid_grad);
  UMBRA_CHECK_UNARY(op::tanh);
  UMBRA_CHECK_UNARY(op::tanh_grad);
  UMBRA_CHECK_UNARY(op::softplus);
#undef UMBRA_CHECK_UNARY
  // Positive inputs for log and roots.
  this->Check(
      s, [](auto d, auto a, auto b, auto c) { d = F<op::log>(a); }, tol);
  this->Check(
      s, [](auto d, auto a, auto b, auto c) { d = F<op::sqrt>(a); }, tol);
  this->Check(
      s, [](auto d, auto a, auto b, auto c) { d = F<op::rsqrt>(a); }, tol);
  this->Check(
      s, [](auto d, auto a, auto b, auto c) { d = F<op::pow>(a, b); }, tol);
  this->Check(
      s, [](auto d, auto a, auto b, auto c) { d = F<op::clip>(a, D(1.2)); },
      tol);
  this->Check(
      s, [](auto d, auto a, auto b, auto c) { d = F<op::threshold>(a, b); },
      tol);
}

TYPED_TEST(ExpressionGpuTest, EverySaver) {
  typedef TypeParam D;
  const double tol = this->Tol();
  for (bool pad : {false, true}) {
    const Shape<3> s = Shape3(3, 17, 33);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d = a * b; }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d += a * b; }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d -= a * b; }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d *= a + b; }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d /= a + b; }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d = D(1.5); }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d += D(1.5); }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d -= D(1.5); }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d *= D(1.5); }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d /= D(1.5); }, tol, pad);
    this->Check(
        s, [](auto d, auto a, auto b, auto c) { d += a; }, tol, pad);
  }
}

TYPED_TEST(ExpressionGpuTest, EveryRankAndAwkwardSizes) {
  const double tol = this->Tol();
  auto update = [](auto d, auto a, auto b, auto c) {
    d = -0.1 * (a + 1e-4 * d) + F<op::relu>(b - c);
  };
  this->Check(Shape1(1), update, tol);
  this->Check(Shape1(7), update, tol);
  this->Check(Shape1((1 << 20) + 3), update, tol);
  this->Check(Shape2(1, 1), update, tol);
  this->Check(Shape2(1000, 1), update, tol);
  this->Check(Shape2(1, 1000), update, tol);
  this->Check(Shape2(300, 300), update, tol, true);
  this->Check(Shape3(2, 3, 5), update, tol);
  this->Check(Shape4(2, 3, 5, 7), update, tol, true);
  this->Check(Shape5(2, 3, 1, 5, 9), update, tol);
}

TYPED_TEST(ExpressionGpuTest, StridedSlicedAndUnalignedViews) {
  typedef TypeParam D;
  auto a = this->rng_.template Tensor<D>(Shape2(40, 70));
  auto b = this->rng_.template Tensor<D>(Shape2(40, 70));
  auto ga = ToGpu(a.view(), true), gb = ToGpu(b.view());
  // Columns 3..53 of every row: strided on both sides.
  TensorContainer<cpu, 2, D> want(Shape2(40, 50));
  TensorContainer<gpu, 2, D> got(Shape2(40, 50), D(0), true);
  Tensor<cpu, 2, D> wa(a.dptr_ + 3, Shape2(40, 50), a.stride_, nullptr);
  Tensor<cpu, 2, D> wb(b.dptr_ + 3, Shape2(40, 50), b.stride_, nullptr);
  Tensor<gpu, 2, D> va(ga.dptr_ + 3, Shape2(40, 50), ga.stride_, nullptr);
  Tensor<gpu, 2, D> vb(gb.dptr_ + 3, Shape2(40, 50), gb.stride_, nullptr);
  want = wa * D(2) + wb;
  got = va * D(2) + vb;
  EXPECT_TRUE(GpuNear(got.view(), want.view(), this->Tol()));
  // Contiguous but one element off the 16-byte boundary: scalar path.
  Tensor<cpu, 1, D> fa(a.dptr_ + 1, Shape1(1001));
  TensorContainer<gpu, 1, D> flat_src(Shape1(1002));
  Copy(flat_src.view(), Tensor<cpu, 1, D>(a.dptr_, Shape1(1002)));
  Tensor<gpu, 1, D> unaligned(flat_src.dptr_ + 1, Shape1(1001));
  TensorContainer<gpu, 1, D> out(Shape1(1001));
  TensorContainer<cpu, 1, D> out_want(Shape1(1001));
  out = unaligned * D(3) - D(1);
  out_want = fa * D(3) - D(1);
  EXPECT_TRUE(GpuNear(out.view(), out_want.view(), this->Tol()));
  // Row slices.
  TensorContainer<gpu, 2, D> rows(Shape2(10, 70), D(0));
  TensorContainer<cpu, 2, D> rows_want(Shape2(10, 70), D(0));
  rows = ga.Slice(5, 15) + gb.Slice(20, 30);
  rows_want = a.Slice(5, 15) + b.Slice(20, 30);
  EXPECT_TRUE(GpuNear(rows.view(), rows_want.view(), this->Tol()));
}

TYPED_TEST(ExpressionGpuTest, TransposeAndTypecast) {
  typedef TypeParam D;
  auto a = this->rng_.template Tensor<D>(Shape2(33, 65));
  auto b = this->rng_.template Tensor<D>(Shape2(65, 33));
  auto ga = ToGpu(a.view()), gb = ToGpu(b.view());
  TensorContainer<cpu, 2, D> want(Shape2(65, 33));
  TensorContainer<gpu, 2, D> got(Shape2(65, 33));
  want = a.T() * D(2) + b;
  got = ga.T() * D(2) + gb;
  EXPECT_TRUE(GpuNear(got.view(), want.view(), this->Tol()));

  TensorContainer<cpu, 2, int32_t> iwant(Shape2(33, 65));
  TensorContainer<gpu, 2, int32_t> igot(Shape2(33, 65));
  iwant = expr::tcast<int32_t>(a * D(10));
  igot = expr::tcast<int32_t>(ga * D(10));
  EXPECT_TRUE(GpuNear(igot.view(), iwant.view(), 0.0));
}

TYPED_TEST(ExpressionGpuTest, AliasingDestinationAndStreams) {
  typedef TypeParam D;
  auto a = this->rng_.template Tensor<D>(Shape2(64, 48));
  auto ga = ToGpu(a.view());
  Stream<gpu>* stream = NewStream<gpu>();
  ga.set_stream(stream);
  a = a * a + D(1);
  ga = ga * ga + D(1);  // reads and writes the same element only
  stream->Wait();
  EXPECT_TRUE(GpuNear(ga.view(), a.view(), this->Tol()));
  ga.set_stream(nullptr);
  DeleteStream(stream);
}

class ExpressionGpuMiscTest : public gpu_test::GpuTest {};

TEST_F(ExpressionGpuMiscTest, HalfStorageWithFloatArithmetic) {
  // Half storage, float arithmetic through tcast: load half, compute in
  // float, store half (one rounding for the whole expression).
  auto a = rng_.Tensor<float>(Shape2(31, 77), -1, 1);
  auto b = rng_.Tensor<float>(Shape2(31, 77), -1, 1);
  TensorContainer<cpu, 2, half_t> ha(a.shape_), hb(b.shape_);
  ha = expr::tcast<half_t>(a);
  hb = expr::tcast<half_t>(b);
  auto ga = ToGpu(ha.view()), gb = ToGpu(hb.view());
  TensorContainer<gpu, 2, half_t> got(a.shape_);
  TensorContainer<cpu, 2, half_t> want(a.shape_);
  got = expr::tcast<half_t>(expr::tcast<float>(ga) * 2.0f +
                            expr::tcast<float>(gb));
  want = expr::tcast<half_t>(expr::tcast<float>(ha) * 2.0f +
                             expr::tcast<float>(hb));
  EXPECT_TRUE(GpuNear(got.view(), want.view(), 0.0));
}

TEST_F(ExpressionGpuMiscTest, HalfArithmetic) {
  // Half expressions compute in float and round to half per operator, on the
  // GPU as on the CPU.
  auto ha = rng_.Tensor<half_t>(Shape2(31, 77), -1, 1);
  auto hb = rng_.Tensor<half_t>(Shape2(31, 77), -1, 1);
  auto ga = ToGpu(ha.view()), gb = ToGpu(hb.view());
  TensorContainer<gpu, 2, half_t> got(ha.shape_);
  TensorContainer<cpu, 2, half_t> want(ha.shape_);
  got = ga * 2.0f + gb;
  want = ha * 2.0f + hb;
  EXPECT_TRUE(GpuNear(got.view(), want.view(), 1.0 / 1024));
}

TEST_F(ExpressionGpuMiscTest, IntegerTypes) {
  TensorContainer<cpu, 2, int32_t> a(Shape2(9, 1025)), b(Shape2(9, 1025));
  for (index_t i = 0; i < a.shape_.Size(); ++i) {
    a.dptr_[i] = int32_t(i % 97) - 40;
    b.dptr_[i] = int32_t(i % 13) + 1;
  }
  auto ga = ToGpu(a.view()), gb = ToGpu(b.view());
  TensorContainer<gpu, 2, int32_t> got(a.shape_);
  TensorContainer<cpu, 2, int32_t> want(a.shape_);
  got = ga / gb + ga * 3;
  want = a / b + a * 3;
  EXPECT_TRUE(GpuNear(got.view(), want.view(), 0.0));
  TensorContainer<gpu, 1, uint8_t> bytes(Shape1(1000), uint8_t(7));
  bytes += uint8_t(5);
  TensorContainer<cpu, 1, uint8_t> bytes_want(Shape1(1000), uint8_t(12));
  EXPECT_TRUE(GpuNear(bytes.view(), bytes_want.view(), 0.0));
}

TEST_F(ExpressionGpuMiscTest, ShapeMismatchThrowsBeforeLaunch) {
  TensorContainer<gpu, 2> a(Shape2(3, 4), 1.0f), b(Shape2(4, 3), 1.0f);
  try {
    a = a + b;
    FAIL() << "no error";
  } catch (const TensorError& e) {
    EXPECT_NE(std::string(e.what()).find("(3,4)"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("(4,3)"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace umbra
