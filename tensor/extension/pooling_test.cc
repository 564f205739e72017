// pool / unpool (max, sum, avg; stride, pad, explicit output size) against
// naive loops, and unpool against finite differences of pool in double.
#include <algorithm>
#include <limits>

#include "gtest/gtest.h"
#include "tensor/extension/extension.h"
#include "tensor/extension/reference.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using ext_test::Idx;

struct Pool {
  index_t ky, kx, sy, sx, py, px;
  index_t n, c, h, w, oh, ow;
};

// Ceil-mode output size, counted window by window in padded coordinates:
// windows start every s while they start inside the padded input and the
// previous one did not reach its far end; a last window that starts in the
// far padding is dropped.
index_t OutSize(index_t size, index_t k, index_t s, index_t p) {
  const index_t padded = size + 2 * p;
  index_t out = 0;
  for (index_t start = 0; start < padded; start += s) {
    ++out;
    if (start + k >= padded) break;
  }
  if (p > 0 && (out - 1) * s >= size + p) --out;
  return out;
}

Pool RandomPool(ext_test::Rng* rng) {
  Pool p;
  p.ky = rng->Int(1, 4);
  p.kx = rng->Int(1, 4);
  p.sy = rng->Int(1, 3);
  p.sx = rng->Int(1, 3);
  p.py = rng->Int(0, p.ky - 1);
  p.px = rng->Int(0, p.kx - 1);
  p.n = rng->Int(1, 2);
  p.c = rng->Int(1, 3);
  p.h = rng->Int(std::max<index_t>(1, p.ky - 2 * p.py), 10);
  p.w = rng->Int(std::max<index_t>(1, p.kx - 2 * p.px), 10);
  p.oh = OutSize(p.h, p.ky, p.sy, p.py);
  p.ow = OutSize(p.w, p.kx, p.sx, p.px);
  return p;
}

std::string Describe(const Pool& p) {
  std::ostringstream os;
  os << "window " << p.ky << "x" << p.kx << " stride " << p.sy << "x" << p.sx
     << " pad " << p.py << "x" << p.px << " image " << p.n << "x" << p.c << "x"
     << p.h << "x" << p.w;
  return os.str();
}

// Naive pooling of output (n, c, oy, ox): max or sum over the window.
template <typename DType>
double RefPool(const Pool& p, const Tensor<cpu, 4, DType>& x, const Idx& o,
               bool max) {
  double acc = max ? -std::numeric_limits<double>::infinity() : 0.0;
  for (index_t a = 0; a < p.ky; ++a) {
    for (index_t b = 0; b < p.kx; ++b) {
      const index_t y = o[2] * p.sy - p.py + a, xx = o[3] * p.sx - p.px + b;
      if (y < 0 || y >= p.h || xx < 0 || xx >= p.w) continue;
      const double v = ext_test::At(x, {o[0], o[1], y, xx});
      acc = max ? std::max(acc, v) : acc + v;
    }
  }
  return acc;
}

template <typename DType>
class PoolingTest : public ::testing::Test {};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(PoolingTest, RealTypes);

TYPED_TEST(PoolingTest, MaxSumAvgMatchNaiveLoops) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  for (int trial = 0; trial < 20; ++trial) {
    const Pool p = RandomPool(&rng);
    SCOPED_TRACE(Describe(p));
    auto x = rng.Tensor<DType>(Shape4(p.n, p.c, p.h, p.w));
    auto e = pool<red::maximum>(x, p.ky, p.kx, p.sy, p.sx, p.py, p.px);
    ASSERT_EQ(e.shape_, Shape4(p.n, p.c, p.oh, p.ow));
    TensorContainer<cpu, 4, DType> out(e.shape_);
    out = e;
    ASSERT_TRUE(ext_test::AllNear(
        out, [&](const Idx& o) { return RefPool(p, x.view(), o, true); }, 0));
    out = pool<red::sum>(x, p.ky, p.kx, p.sy, p.sx, p.py, p.px);
    ASSERT_TRUE(ext_test::AllNear(
        out, [&](const Idx& o) { return RefPool(p, x.view(), o, false); },
        ext_test::Tol<DType>() * 10));
    const DType scale = DType(1.0 / (p.ky * p.kx));
    out = pool<red::sum>(x, p.ky, p.kx, p.sy, p.sx, p.py, p.px) * scale;
    ASSERT_TRUE(ext_test::AllNear(
        out,
        [&](const Idx& o) {
          return RefPool(p, x.view(), o, false) / (p.ky * p.kx);
        },
        ext_test::Tol<DType>() * 10));
  }
}

TYPED_TEST(PoolingTest, ExplicitOutputSizeAndThreeDimSource) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  auto x = rng.Tensor<DType>(Shape3(3, 9, 8));
  TensorContainer<cpu, 3, DType> full(Shape3(3, 4, 4)), part(Shape3(3, 3, 2));
  full = pool<red::maximum>(x, 3, 2, 2, 2);
  part = pool<red::maximum>(x, Shape2(3, 2), 3, 2, 2, 2);
  EXPECT_TRUE(ext_test::AllNear(
      part, [&](const Idx& i) { return ext_test::At(full.view(), i); }, 0));
}

// Checks unpool<Reducer> against central differences of
// L = sum(pool<Reducer>(x) * g) in double.
template <typename Reducer>
void CheckUnpoolNumerically(ext_test::Rng* rng, const Pool& p) {
  auto x = rng->DistinctTensor<double>(Shape4(p.n, p.c, p.h, p.w));
  auto g = rng->Tensor<double>(Shape4(p.n, p.c, p.oh, p.ow));
  TensorContainer<cpu, 4, double> y(g.shape_), gx(x.shape_);
  y = pool<Reducer>(x, p.ky, p.kx, p.sy, p.sx, p.py, p.px);
  gx = unpool<Reducer>(x, y, g, p.ky, p.kx, p.sy, p.sx, p.py, p.px);
  auto loss = [&]() {
    TensorContainer<cpu, 4, double> t(g.shape_);
    t = pool<Reducer>(x, p.ky, p.kx, p.sy, p.sx, p.py, p.px) * g;
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
    EXPECT_NEAR(gx.dptr_[f], (up - down) / (2 * eps), 1e-6)
        << Reducer::kName << " at flat " << f;
  }
}

TEST(UnpoolTest, GradientsMatchFiniteDifferences) {
  ext_test::Rng rng;
  for (int trial = 0; trial < 10; ++trial) {
    const Pool p = RandomPool(&rng);
    SCOPED_TRACE(Describe(p));
    CheckUnpoolNumerically<red::maximum>(&rng, p);
    CheckUnpoolNumerically<red::sum>(&rng, p);
  }
}

TYPED_TEST(PoolingTest, UnpoolMatchesNaiveScatter) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  for (int trial = 0; trial < 10; ++trial) {
    const Pool p = RandomPool(&rng);
    SCOPED_TRACE(Describe(p));
    auto x = rng.Tensor<DType>(Shape4(p.n, p.c, p.h, p.w));
    auto g = rng.Tensor<DType>(Shape4(p.n, p.c, p.oh, p.ow));
    TensorContainer<cpu, 4, DType> y(g.shape_), gx(x.shape_);
    y = pool<red::maximum>(x, p.ky, p.kx, p.sy, p.sx, p.py, p.px);
    gx = unpool<red::maximum>(x, y, g, p.ky, p.kx, p.sy, p.sx, p.py, p.px);
    std::vector<double> want(x.shape_.Size(), 0.0), avg(want);
    for (index_t f = 0; f < y.shape_.Size(); ++f) {
      const Idx o = ext_test::Unravel(y.shape_, f);
      for (index_t a = 0; a < p.ky; ++a) {
        for (index_t b = 0; b < p.kx; ++b) {
          const index_t yy = o[2] * p.sy - p.py + a;
          const index_t xx = o[3] * p.sx - p.px + b;
          if (yy < 0 || yy >= p.h || xx < 0 || xx >= p.w) continue;
          const index_t at = ((o[0] * p.c + o[1]) * p.h + yy) * p.w + xx;
          if (x.dptr_[at] == y.dptr_[f]) want[at] += double(g.dptr_[f]);
          avg[at] += double(g.dptr_[f]) / (p.ky * p.kx);
        }
      }
    }
    auto flat = [&](const Idx& i) {
      return ((i[0] * p.c + i[1]) * p.h + i[2]) * p.w + i[3];
    };
    ASSERT_TRUE(ext_test::AllNear(
        gx, [&](const Idx& i) { return want[flat(i)]; },
        ext_test::Tol<DType>() * 10));
    const DType scale = DType(1.0 / (p.ky * p.kx));
    gx = unpool<red::sum>(x, y, g, p.ky, p.kx, p.sy, p.sx, p.py, p.px) * scale;
    ASSERT_TRUE(ext_test::AllNear(
        gx, [&](const Idx& i) { return avg[flat(i)]; },
        ext_test::Tol<DType>() * 10));
  }
}

TEST(PoolingErrorTest, ShapeErrors) {
  TensorContainer<cpu, 4> x(Shape4(1, 2, 6, 6), 0.0f);
  TensorContainer<cpu, 4> y(Shape4(1, 2, 3, 3), 0.0f);
  TensorContainer<cpu, 4> bad(Shape4(1, 2, 2, 3), 0.0f);
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { pool<red::maximum>(x, 2, 2, 0, 2); }, {"pool", "(1,2,6,6)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { pool<red::maximum>(x, 2, 2, 2, 2, 2, 0); },
      {"pool", "pad (2, 0)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { pool<red::maximum>(x, Shape2(4, 3), 2, 2, 2, 2); },
      {"pool", "(4,3)", "(3,3)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { unpool<red::maximum>(x, y, bad, 2, 2, 2, 2); },
      {"unpool", "(1,2,2,3)", "(1,2,3,3)", "(1,2,6,6)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { bad.view() = pool<red::maximum>(x, 2, 2, 2, 2); },
      {"(1,2,2,3)", "(1,2,3,3)"}));
}

}  // namespace
}  // namespace umbra
