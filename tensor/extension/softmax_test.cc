// Softmax / SoftmaxGrad on 2-D and 3-D tensors against a double reference,
// including energies that overflow a naive exp, strided tensors, in-place
// use, ignore_label and label errors.
#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/extension/extension.h"
#include "tensor/extension/reference.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using ext_test::Idx;

template <typename DType>
class SoftmaxTest : public ::testing::Test {};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(SoftmaxTest, RealTypes);

// Softmax over a vector in double (shifted by the maximum).
std::vector<double> RefSoftmax(const std::vector<double>& v) {
  double mx = v[0];
  for (double x : v) mx = std::max(mx, x);
  double sum = 0;
  std::vector<double> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) sum += out[i] = std::exp(v[i] - mx);
  for (double& x : out) x /= sum;
  return out;
}

TYPED_TEST(SoftmaxTest, TwoDimRowsIncludingHugeEnergies) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const index_t n = rng.Int(1, 40), k = rng.Int(1, 33);
  // Row-padded tensors, energies up to +-1000 (exp overflows float and
  // double without the shift).
  TensorContainer<cpu, 2, DType> energy(Shape2(n, k), true),
      prob(energy.shape_);
  rng.Fill(energy.view(), -1000, 1000);
  Softmax(prob.view(), energy.view());
  EXPECT_TRUE(ext_test::AllNear(
      prob,
      [&](const Idx& i) {
        std::vector<double> row(k);
        for (index_t x = 0; x < k; ++x) row[x] = double(energy[i[0]][x]);
        return RefSoftmax(row)[i[1]];
      },
      sizeof(DType) == 4 ? 1e-5 : 1e-12));
  // In place.
  TensorContainer<cpu, 2, DType> copy(energy.shape_);
  copy = energy;
  Softmax(copy.view(), copy.view());
  EXPECT_TRUE(ext_test::AllNear(
      copy, [&](const Idx& i) { return double(prob[i[0]][i[1]]); }, 0));
}

TYPED_TEST(SoftmaxTest, ThreeDimAlongChannels) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const index_t n = rng.Int(1, 4), k = rng.Int(1, 9), w = rng.Int(1, 11);
  auto energy = rng.Tensor<DType>(Shape3(n, k, w), -50, 50);
  TensorContainer<cpu, 3, DType> prob(energy.shape_);
  Softmax(prob.view(), energy.view());
  EXPECT_TRUE(ext_test::AllNear(
      prob,
      [&](const Idx& i) {
        std::vector<double> v(k);
        for (index_t c = 0; c < k; ++c) {
          v[c] = ext_test::At(energy.view(), {i[0], c, i[2]});
        }
        return RefSoftmax(v)[i[1]];
      },
      sizeof(DType) == 4 ? 1e-5 : 1e-12));
}

TYPED_TEST(SoftmaxTest, LargeThreadedMatchesSerial) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  auto energy = rng.Tensor<DType>(Shape2(700, 101));
  TensorContainer<cpu, 2, DType> a(energy.shape_), b(energy.shape_);
  SetNumThreads(1);
  Softmax(a.view(), energy.view());
  SetNumThreads(0);
  Softmax(b.view(), energy.view());
  EXPECT_TRUE(ext_test::AllNear(
      b, [&](const Idx& i) { return double(a[i[0]][i[1]]); }, 0));
}

TYPED_TEST(SoftmaxTest, GradTwoAndThreeDimWithIgnoreLabel) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const index_t n = rng.Int(2, 20), k = rng.Int(1, 9), w = rng.Int(1, 6);
  auto prob = rng.Tensor<DType>(Shape2(n, k), 0, 1);
  auto label = rng.Labels<DType>(n, k);
  TensorContainer<cpu, 2, DType> grad(prob.shape_);
  SoftmaxGrad(grad.view(), prob.view(), label.view());
  EXPECT_TRUE(ext_test::AllNear(
      grad,
      [&](const Idx& i) {
        return double(prob[i[0]][i[1]]) -
               (index_t(label[i[0]]) == i[1] ? 1.0 : 0.0);
      },
      ext_test::Tol<DType>()));
  label[1] = DType(-1);
  SoftmaxGrad(grad.view(), prob.view(), label.view(), DType(-1));
  for (index_t x = 0; x < k; ++x) EXPECT_EQ(grad[1][x], DType(0));
  EXPECT_EQ(grad[0][index_t(label[0])], DType(prob[0][index_t(label[0])] - 1));

  auto prob3 = rng.Tensor<DType>(Shape3(n, k, w), 0, 1);
  TensorContainer<cpu, 2, DType> label3(Shape2(n, w));
  for (index_t b = 0; b < n; ++b) {
    for (index_t x = 0; x < w; ++x) label3[b][x] = DType(rng.Int(0, k - 1));
  }
  label3[0][0] = DType(255);
  TensorContainer<cpu, 3, DType> grad3(prob3.shape_);
  SoftmaxGrad(grad3.view(), prob3.view(), label3.view(), DType(255));
  EXPECT_TRUE(ext_test::AllNear(
      grad3,
      [&](const Idx& i) {
        const index_t l = index_t(label3[i[0]][i[2]]);
        if (l == 255) return 0.0;
        return ext_test::At(prob3.view(), i) - (l == i[1] ? 1.0 : 0.0);
      },
      ext_test::Tol<DType>()));
}

// In double only: at a step of 1e-6, float's rounding would swamp the
// differences.
TEST(SoftmaxGradTest, OfCrossEntropyMatchesFiniteDifferencesInDouble) {
  ext_test::Rng rng;
  const index_t n = 3, k = 5;
  auto energy = rng.Tensor<double>(Shape2(n, k));
  auto label = rng.Labels<double>(n, k);
  TensorContainer<cpu, 2, double> prob(energy.shape_), grad(energy.shape_);
  Softmax(prob.view(), energy.view());
  SoftmaxGrad(grad.view(), prob.view(), label.view());
  auto loss = [&]() {
    Softmax(prob.view(), energy.view());
    double s = 0;
    for (index_t y = 0; y < n; ++y) s -= std::log(prob[y][index_t(label[y])]);
    return s;
  };
  const double eps = 1e-6;
  for (index_t y = 0; y < n; ++y) {
    for (index_t x = 0; x < k; ++x) {
      const double old = energy[y][x];
      energy[y][x] = old + eps;
      const double up = loss();
      energy[y][x] = old - eps;
      const double down = loss();
      energy[y][x] = old;
      EXPECT_NEAR(grad[y][x], (up - down) / (2 * eps), 1e-6);
    }
  }
}

TEST(SoftmaxErrorTest, ShapeAndLabelErrors) {
  TensorContainer<cpu, 2> a(Shape2(3, 4), 0.0f), b(Shape2(3, 5), 0.0f);
  TensorContainer<cpu, 1> label(Shape1(3), 0.0f), short_label(Shape1(2), 0.0f);
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { Softmax(a.view(), b.view()); },
                                          {"Softmax", "(3,4)", "(3,5)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { SoftmaxGrad(a.view(), a.view(), short_label.view()); },
      {"SoftmaxGrad", "(2,)", "(3,4)"}));
  label[2] = 4.0f;
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { SoftmaxGrad(a.view(), a.view(), label.view()); },
      {"SoftmaxGrad", "label 4", "[0, 4)"}));
  TensorContainer<cpu, 3> p3(Shape3(2, 3, 4), 0.0f);
  TensorContainer<cpu, 2> l3(Shape2(2, 3), 0.0f);
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { SoftmaxGrad(p3.view(), p3.view(), l3.view()); },
      {"SoftmaxGrad", "(2,3)", "(2,4)", "(2,3,4)"}));
}

}  // namespace
}  // namespace umbra
