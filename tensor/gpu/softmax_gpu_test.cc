// The gpu Softmax and SoftmaxGrad (reduce_gpu.h) against the CPU ones of
// tensor/extension/softmax.h: 2-D and 3-D, with and without an ignored
// label, in place and out of place, padded rows, on fresh random inputs;
// shape errors, and how an invalid label is reported.
// Host code (g++): these are entry points compiled once in reduce.cu.
#include <cstdio>
#include <cstdlib>

#include "gtest/gtest.h"
#include "tensor/gpu/gpu_test_util.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using gpu_test::GpuNear;
using gpu_test::Rng;
using gpu_test::ToGpu;
using test::ThrowsTensorError;

template <typename DType>
class SoftmaxGpuTest : public gpu_test::GpuTest {
 protected:
  static double Tol() { return gpu_test::TolFor<DType>(1e-5, 1e-13); }
};
TYPED_TEST_SUITE(SoftmaxGpuTest, gpu_test::RealTypes);

// Softmax of fresh energies of shape s on both devices: out of place from
// padded rows into unpadded ones, and in place.
template <typename DType, int dim>
void CheckSoftmax(Rng* rng, const Shape<dim>& s, double tol) {
  SCOPED_TRACE(::testing::Message() << "shape " << s);
  auto energy = rng->Tensor<DType>(s, -20, 20);
  TensorContainer<cpu, dim, DType> want(s);
  Softmax(want.view(), energy.view());
  auto genergy = ToGpu(energy.view(), /*pad=*/true);
  TensorContainer<gpu, dim, DType> got(s);
  Softmax(got.view(), genergy.view());
  EXPECT_TRUE(GpuNear(got.view(), want.view(), tol));
  Softmax(genergy.view(), genergy.view());
  EXPECT_TRUE(GpuNear(genergy.view(), want.view(), tol));
}

TYPED_TEST(SoftmaxGpuTest, TwoDimensionalWideNarrowAndSingleClass) {
  for (const Shape<2>& s :
       {Shape2(33, 517), Shape2(1000, 10), Shape2(3, 5000), Shape2(7, 1)}) {
    CheckSoftmax<TypeParam>(&this->rng_, s, this->Tol());
  }
}

TYPED_TEST(SoftmaxGpuTest, ThreeDimensionalOverTheMiddleAxis) {
  for (const Shape<3>& s : {Shape3(4, 21, 37), Shape3(2, 1000, 3),
                            Shape3(3, 5, 1), Shape3(1, 2, 4099)}) {
    CheckSoftmax<TypeParam>(&this->rng_, s, this->Tol());
  }
}

// Labels for probabilities of shape s, (N,) or (N, X): class indices in
// [0, K), and, when `ignored` is given, about one in four equal to it.
template <typename DType, int dim>
TensorContainer<cpu, dim - 1, DType> RandomLabels(Rng* rng, const Shape<dim>& s,
                                                  const DType* ignored) {
  Shape<dim - 1> ls;
  ls[0] = s[0];
  if constexpr (dim == 3) ls[1] = s[2];
  TensorContainer<cpu, dim - 1, DType> label(ls);
  Tensor<cpu, 2, DType> flat = label.view().FlatTo2D();
  for (index_t y = 0; y < flat.size(0); ++y) {
    for (index_t x = 0; x < flat.size(1); ++x) {
      flat[y][x] = ignored != nullptr && rng->Int(0, 3) == 0
                       ? *ignored
                       : DType(rng->Int(0, s[1] - 1));
    }
  }
  return label;
}

// SoftmaxGrad on both devices, with ignore_label when it is given. The
// result is src or src - 1 elementwise, so it must match exactly.
template <typename DType, int dim>
void CheckSoftmaxGrad(Rng* rng, const Shape<dim>& s, const DType* ignored) {
  SCOPED_TRACE(::testing::Message()
               << "shape " << s << (ignored ? " with" : " without")
               << " an ignored label");
  auto prob = rng->Tensor<DType>(s, 0, 1);
  auto label = RandomLabels(rng, s, ignored);
  auto gprob = ToGpu(prob.view(), /*pad=*/true);
  auto glabel = ToGpu(label.view(), /*pad=*/true);
  TensorContainer<cpu, dim, DType> want(s);
  TensorContainer<gpu, dim, DType> got(s);
  if (ignored != nullptr) {
    SoftmaxGrad(want.view(), prob.view(), label.view(), *ignored);
    SoftmaxGrad(got.view(), gprob.view(), glabel.view(), *ignored);
  } else {
    SoftmaxGrad(want.view(), prob.view(), label.view());
    SoftmaxGrad(got.view(), gprob.view(), glabel.view());
  }
  EXPECT_TRUE(GpuNear(got.view(), want.view(), 0.0));
  // In place, as a loss layer does with its output.
  if (ignored != nullptr) {
    SoftmaxGrad(gprob.view(), gprob.view(), glabel.view(), *ignored);
  } else {
    SoftmaxGrad(gprob.view(), gprob.view(), glabel.view());
  }
  EXPECT_TRUE(GpuNear(gprob.view(), want.view(), 0.0));
}

TYPED_TEST(SoftmaxGpuTest, GradientTwoDimensional) {
  const TypeParam ignored(-1);
  for (const Shape<2>& s : {Shape2(65, 1000), Shape2(300, 7)}) {
    CheckSoftmaxGrad<TypeParam>(&this->rng_, s, nullptr);
    CheckSoftmaxGrad<TypeParam>(&this->rng_, s, &ignored);
  }
}

TYPED_TEST(SoftmaxGpuTest, GradientThreeDimensional) {
  const TypeParam ignored(255);
  for (const Shape<3>& s : {Shape3(4, 21, 37), Shape3(2, 300, 5)}) {
    CheckSoftmaxGrad<TypeParam>(&this->rng_, s, nullptr);
    CheckSoftmaxGrad<TypeParam>(&this->rng_, s, &ignored);
  }
}

TYPED_TEST(SoftmaxGpuTest, ShapeErrorsNameTheShapes) {
  typedef TypeParam D;
  TensorContainer<gpu, 2, D> a(Shape2(3, 4)), b(Shape2(3, 5));
  TensorContainer<gpu, 1, D> short_label(Shape1(2));
  TensorContainer<gpu, 3, D> p3(Shape3(2, 3, 4));
  TensorContainer<gpu, 2, D> l3(Shape2(2, 3));
  EXPECT_TRUE(ThrowsTensorError([&] { Softmax(a.view(), b.view()); },
                                {"Softmax", "(3,4)", "(3,5)"}));
  EXPECT_TRUE(ThrowsTensorError(
      [&] { SoftmaxGrad(a.view(), a.view(), short_label.view()); },
      {"SoftmaxGrad", "(2,)", "(3,4)"}));
  EXPECT_TRUE(ThrowsTensorError(
      [&] { SoftmaxGrad(p3.view(), p3.view(), l3.view(), D(255)); },
      {"SoftmaxGrad", "(2,3)", "(2,3,4)"}));
}

// A label that is not a class index trips the kernel's device-side
// assertion, and the next checked call throws GpuError. Runs in a child
// process (re-executed, so that it has its own CUDA context, which is
// unusable afterwards); exits 1 with the GpuError message on stderr.
void GradientWithAnInvalidLabel() {
  TensorContainer<cpu, 1, float> label(Shape1(4), 1.0f);
  label[2] = 3.0f;  // the classes are [0, 3)
  auto glabel = ToGpu(label.view());
  TensorContainer<gpu, 2, float> prob(Shape2(4, 3), 0.25f);
  try {
    SoftmaxGrad(prob.view(), prob.view(), glabel.view());
    DefaultStream()->Wait();
  } catch (const GpuError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::exit(1);
  }
  std::exit(0);
}

class SoftmaxGpuDeathTest : public gpu_test::GpuTest {};

TEST_F(SoftmaxGpuDeathTest, InvalidLabelIsReportedByTheNextCheckedCall) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(GradientWithAnInvalidLabel(), ::testing::ExitedWithCode(1),
              "device-side assert");
}

}  // namespace
}  // namespace umbra
