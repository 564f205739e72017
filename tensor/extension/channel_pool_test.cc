// chpool / ch_unpool (centred and strided windows) against naive loops and
// finite differences, and an LRN forward built from them.
#include <algorithm>
#include <cmath>
#include <limits>

#include "gtest/gtest.h"
#include "tensor/extension/extension.h"
#include "tensor/extension/reference.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using ext_test::Idx;

// Naive channel pooling of output (n, k, y, x) of a 4-D source.
template <typename DType>
double RefChpool(const Tensor<cpu, 4, DType>& src, const Idx& o, index_t nsize,
                 index_t stride, index_t pad, bool max) {
  double acc = max ? -std::numeric_limits<double>::infinity() : 0.0;
  for (index_t j = 0; j < nsize; ++j) {
    const index_t c = o[1] * stride - pad + j;
    if (c < 0 || c >= src.size(1)) continue;
    const double v = ext_test::At(src, {o[0], c, o[2], o[3]});
    acc = max ? std::max(acc, v) : acc + v;
  }
  return acc;
}

template <typename DType>
class ChannelPoolTest : public ::testing::Test {};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(ChannelPoolTest, RealTypes);

TYPED_TEST(ChannelPoolTest, CentredAndStridedMatchNaive) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  for (int trial = 0; trial < 10; ++trial) {
    const index_t c = rng.Int(1, 9);
    auto x = rng.Tensor<DType>(
        Shape4(rng.Int(1, 3), c, rng.Int(1, 4), rng.Int(1, 5)));
    const index_t nsize = 2 * rng.Int(0, 3) + 1;
    TensorContainer<cpu, 4, DType> out(x.shape_);
    out = chpool<red::sum>(x, nsize);
    ASSERT_TRUE(ext_test::AllNear(
        out,
        [&](const Idx& o) {
          return RefChpool(x.view(), o, nsize, 1, nsize / 2, false);
        },
        ext_test::Tol<DType>() * 10));
    out = chpool<red::maximum>(x, nsize);
    ASSERT_TRUE(ext_test::AllNear(
        out,
        [&](const Idx& o) {
          return RefChpool(x.view(), o, nsize, 1, nsize / 2, true);
        },
        0));
    const index_t window = rng.Int(1, c), stride = rng.Int(1, 3);
    const index_t pad = rng.Int(0, window - 1);
    auto e = chpool<red::maximum>(x, window, stride, pad);
    ASSERT_EQ(e.shape_[1], (c + 2 * pad - window) / stride + 1);
    TensorContainer<cpu, 4, DType> strided(e.shape_);
    strided = e;
    ASSERT_TRUE(ext_test::AllNear(
        strided,
        [&](const Idx& o) {
          return RefChpool(x.view(), o, window, stride, pad, true);
        },
        0));
  }
}

template <typename Reducer>
void CheckChUnpool(ext_test::Rng* rng, index_t nsize, index_t stride,
                   index_t pad) {
  auto x = rng->DistinctTensor<double>(Shape4(2, rng->Int(nsize, 7), 2, 3));
  auto e = chpool<Reducer>(x, nsize, stride, pad);
  auto g = rng->Tensor<double>(e.shape_);
  TensorContainer<cpu, 4, double> y(e.shape_), gx(x.shape_);
  y = e;
  gx = ch_unpool<Reducer>(x, y, g, nsize, stride, pad);
  auto loss = [&]() {
    TensorContainer<cpu, 4, double> t(g.shape_);
    t = chpool<Reducer>(x, nsize, stride, pad) * g;
    double s = 0;
    for (index_t f = 0; f < t.shape_.Size(); ++f) s += t.dptr_[f];
    return s;
  };
  const double eps = 1e-6;
  for (index_t f = 0; f < x.shape_.Size(); ++f) {
    const double old = x.dptr_[f];
    x.dptr_[f] = old + eps;
    const double up = loss();
    x.dptr_[f] = old - eps;
    const double down = loss();
    x.dptr_[f] = old;
    ASSERT_NEAR(gx.dptr_[f], (up - down) / (2 * eps), 1e-6)
        << Reducer::kName << " window " << nsize << " stride " << stride
        << " pad " << pad << " at flat " << f;
  }
}

TEST(ChannelUnpoolTest, GradientsMatchFiniteDifferences) {
  ext_test::Rng rng;
  for (int trial = 0; trial < 6; ++trial) {
    const index_t nsize = rng.Int(1, 4);
    const index_t stride = rng.Int(1, 2), pad = rng.Int(0, nsize - 1);
    CheckChUnpool<red::sum>(&rng, nsize, stride, pad);
    CheckChUnpool<red::maximum>(&rng, nsize, stride, pad);
  }
  // The centred form.
  auto x = rng.Tensor<double>(Shape4(1, 6, 2, 2));
  auto g = rng.Tensor<double>(x.shape_);
  TensorContainer<cpu, 4, double> y(x.shape_), a(x.shape_), b(x.shape_);
  y = chpool<red::sum>(x, 5);
  a = ch_unpool<red::sum>(x, y, g, 5);
  b = ch_unpool<red::sum>(x, y, g, 5, 1, 2);
  EXPECT_TRUE(ext_test::AllNear(
      a, [&](const Idx& i) { return ext_test::At(b.view(), i); }, 0));
}

TEST(ChannelPoolLrnTest, LocalResponseNormalisation) {
  ext_test::Rng rng;
  auto x = rng.Tensor<float>(Shape4(2, 7, 3, 3));
  const float alpha = 1e-2f, beta = 0.75f, knorm = 2.0f;
  const index_t nsize = 5;
  TensorContainer<cpu, 4> norm(x.shape_), out(x.shape_);
  norm = chpool<red::sum>(F<op::square>(x), nsize) * (alpha / nsize) + knorm;
  out = x * F<op::pow>(norm, -beta);
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) {
        double s = 0;
        for (index_t c = i[1] - 2; c <= i[1] + 2; ++c) {
          if (c < 0 || c >= 7) continue;
          const double v = ext_test::At(x.view(), {i[0], c, i[2], i[3]});
          s += v * v;
        }
        return ext_test::At(x.view(), i) *
               std::pow(knorm + alpha / nsize * s, -beta);
      },
      1e-5));
}

TEST(ChannelPoolErrorTest, ShapeErrors) {
  TensorContainer<cpu, 4> x(Shape4(1, 3, 2, 2), 0.0f);
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { chpool<red::sum>(x, 4); },
                                          {"chpool", "odd", "4"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { chpool<red::sum>(x, 6, 1, 1); },
                                          {"chpool", "(1,3,2,2)"}));
  TensorContainer<cpu, 4> y(Shape4(1, 2, 2, 2), 0.0f);
  EXPECT_TRUE(
      ext_test::ThrowsTensorError([&] { ch_unpool<red::sum>(x, y, y, 3); },
                                  {"ch_unpool", "(1,2,2,2)", "(1,3,2,2)"}));
}

}  // namespace
}  // namespace umbra
