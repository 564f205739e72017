// Packets: every architecture available on the target against scalar code;
// alignment helpers; PacketCheck / PacketAlignCheck; the packet path of the
// engine on sizes around the packet width.
#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_util.h"

namespace umbra {
namespace packet {
namespace {

template <typename DType, PacketArch Arch>
void CheckArch(test::Rng* rng) {
  typedef Packet<DType, Arch> P;
  const index_t n = P::kSize;
  std::vector<DType> a(n), b(n), out(n);
  for (index_t i = 0; i < n; ++i) {
    a[i] = DType(rng->Uniform(-3, 3));
    b[i] = DType(rng->Uniform(0.5, 3));
  }
  P pa = P::LoadUnAligned(a.data()), pb = P::LoadUnAligned(b.data());
  auto check = [&](const P& p, auto ref, const char* what) {
    p.StoreUnAligned(out.data());
    for (index_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[i], DType(ref(a[i], b[i]))) << what << " lane " << i;
    }
  };
  check(
      pa + pb, [](DType x, DType y) { return x + y; }, "+");
  check(
      pa - pb, [](DType x, DType y) { return x - y; }, "-");
  check(
      pa * pb, [](DType x, DType y) { return x * y; }, "*");
  check(
      pa / pb, [](DType x, DType y) { return x / y; }, "/");
  check(
      P::Fill(DType(2.5)), [](DType, DType) { return DType(2.5); }, "fill");
  check(
      PacketOp<op::maximum, DType, Arch>::Map(pa, pb),
      [](DType x, DType y) { return op::maximum::Map(x, y); }, "max");
  check(
      PacketOp<op::sqrt, DType, Arch>::Map(pb),
      [](DType, DType y) { return op::sqrt::Map(y); }, "sqrt");
  check(
      PacketOp<op::abs, DType, Arch>::Map(pa),
      [](DType x, DType) { return op::abs::Map(x); }, "abs");
  check(
      PacketOp<op::sign, DType, Arch>::Map(pa),
      [](DType x, DType) { return op::sign::Map(x); }, "sign");
  check(
      PacketOp<op::clip, DType, Arch>::Map(pa, pb),
      [](DType x, DType y) { return op::clip::Map(x, y); }, "clip");
  check(
      SelectLess(pa, P::Fill(DType(0)), pa * pb, pb),
      [](DType x, DType y) { return x < DType(0) ? DType(x * y) : y; },
      "select");
  double sum = 0;
  for (index_t i = 0; i < n; ++i) sum += a[i];
  EXPECT_NEAR(double(pa.Sum()), sum, 1e-5);
  // A streaming store to an aligned address, read after the fence.
  alignas(64) DType streamed[P::kSize];
  pa.StoreStreaming(streamed);
  StreamingFence();
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(streamed[i], a[i]) << "lane " << i;
}

// SelectLess on NaN, infinities and signed zeros: y unless a < b.
template <typename DType, PacketArch Arch>
void CheckSelectLess() {
  typedef Packet<DType, Arch> P;
  const DType inf = std::numeric_limits<DType>::infinity();
  const DType values[] = {std::numeric_limits<DType>::quiet_NaN(),
                          -inf,
                          inf,
                          DType(0),
                          DType(-0.0),
                          DType(1)};
  std::vector<DType> out(P::kSize);
  for (DType a : values) {
    for (DType b : values) {
      SelectLess(P::Fill(a), P::Fill(b), P::Fill(DType(-0.0)), P::Fill(inf))
          .StoreUnAligned(out.data());
      const DType want = a < b ? DType(-0.0) : inf;
      EXPECT_EQ(out[0], want) << a << " < " << b;
      EXPECT_EQ(std::signbit(out[0]), std::signbit(want)) << a << " < " << b;
    }
  }
}

TEST(PacketTest, SelectLessKeepsTheScalarComparison) {
  CheckSelectLess<float, kPlain>();
  CheckSelectLess<double, kPlain>();
#if defined(__SSE2__)
  CheckSelectLess<float, kSSE2>();
  CheckSelectLess<double, kSSE2>();
#endif
#if defined(__AVX2__) && defined(__FMA__)
  CheckSelectLess<float, kAVX2>();
  CheckSelectLess<double, kAVX2>();
#endif
}

TEST(PacketTest, ArchitecturesMatchScalarCode) {
  test::Rng rng;
  CheckArch<float, kPlain>(&rng);
  CheckArch<double, kPlain>(&rng);
#if defined(__SSE2__)
  CheckArch<float, kSSE2>(&rng);
  CheckArch<double, kSSE2>(&rng);
#endif
#if defined(__AVX2__) && defined(__FMA__)
  CheckArch<float, kAVX2>(&rng);
  CheckArch<double, kAVX2>(&rng);
  static_assert(UMBRA_DEFAULT_PACKET == kAVX2,
                "x86-64-v3 builds use AVX2 packets");
  static_assert(Packet<float, kAVX2>::kSize == 8, "");
#endif
}

#if defined(__AVX2__) && defined(__FMA__)
// Exp against std::exp: within 2 ulp where the result is normal, and the
// special values.
template <typename DType>
void CheckExp(test::Rng* rng, double lo, double hi, double ulp) {
  typedef Packet<DType, kAVX2> P;
  const index_t n = P::kSize;
  std::vector<DType> in(n), out(n);
  for (int rep = 0; rep < 20000; ++rep) {
    for (index_t i = 0; i < n; ++i) in[i] = DType(rng->Uniform(lo, hi));
    Exp(P::LoadUnAligned(in.data())).StoreUnAligned(out.data());
    for (index_t i = 0; i < n; ++i) {
      const DType want = std::exp(in[i]);
      ASSERT_LE(std::fabs(double(out[i]) - double(want)),
                2 * ulp * std::fabs(double(want)))
          << "exp(" << in[i] << ") = " << out[i] << ", want " << want;
    }
  }
  const DType inf = std::numeric_limits<DType>::infinity();
  const DType special[] = {DType(0),   DType(-0.0),
                           inf,        -inf,
                           DType(1e4), DType(-1e4),
                           DType(1),   std::numeric_limits<DType>::quiet_NaN()};
  for (DType v : special) {
    std::fill(in.begin(), in.end(), v);
    Exp(P::LoadUnAligned(in.data())).StoreUnAligned(out.data());
    const DType want = std::exp(v);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(out[0])) << v;
    } else if (std::isinf(want) || want == 0) {
      EXPECT_EQ(out[0], want) << v;
    } else {
      EXPECT_NEAR(double(out[0]), double(want), 2 * ulp * double(want)) << v;
    }
  }
}

TEST(PacketTest, Avx2TanhMatchesStdTanh) {
  test::Rng rng;
  typedef Packet<float, kAVX2> P;
  std::vector<float> in(8), out(8);
  for (double range : {0.7, 3.0, 12.0}) {
    for (int rep = 0; rep < 20000; ++rep) {
      for (int i = 0; i < 8; ++i) in[i] = float(rng.Uniform(-range, range));
      Tanh(P::LoadUnAligned(in.data())).StoreUnAligned(out.data());
      for (int i = 0; i < 8; ++i) {
        const double want = std::tanh(double(in[i]));
        ASSERT_LE(std::fabs(out[i] - want),
                  4 * std::numeric_limits<float>::epsilon() * std::fabs(want))
            << "tanh(" << in[i] << ") = " << out[i] << ", want " << want;
      }
    }
  }
  const float inf = std::numeric_limits<float>::infinity();
  for (float v : {0.0f, -0.0f, inf, -inf, 50.0f, -50.0f}) {
    std::fill(in.begin(), in.end(), v);
    Tanh(P::LoadUnAligned(in.data())).StoreUnAligned(out.data());
    EXPECT_EQ(out[0], std::tanh(v)) << v;
    EXPECT_EQ(std::signbit(out[0]), std::signbit(std::tanh(v))) << v;
  }
  std::fill(in.begin(), in.end(), std::nanf(""));
  Tanh(P::LoadUnAligned(in.data())).StoreUnAligned(out.data());
  EXPECT_TRUE(std::isnan(out[0]));
}

TEST(PacketTest, Avx2ExpMatchesStdExp) {
  test::Rng rng;
  const double f_ulp = std::numeric_limits<float>::epsilon();
  const double d_ulp = std::numeric_limits<double>::epsilon();
  CheckExp<float>(&rng, -87.0, 88.7, f_ulp);
  CheckExp<float>(&rng, -1.0, 1.0, f_ulp);
  CheckExp<double>(&rng, -708.0, 709.7, d_ulp);
  CheckExp<double>(&rng, -1.0, 1.0, d_ulp);
  // Subnormal results are scaled, not flushed.
  std::vector<float> in(8, -100.0f), out(8);
  Exp(Packet<float, kAVX2>::LoadUnAligned(in.data()))
      .StoreUnAligned(out.data());
  EXPECT_NEAR(out[0], std::exp(-100.0f), 2e-45);
  EXPECT_GT(out[0], 0.0f);
}
#endif

#if defined(__AVX2__) && defined(__FMA__)
// f(packet) against want(x) (in long double): within `ulp` units of
// roundoff relative to the result, over [lo, hi].
template <typename DType, typename PacketFn, typename RefFn>
void CheckRelative(test::Rng* rng, PacketFn f, RefFn want, double lo, double hi,
                   double ulp, const char* what) {
  typedef Packet<DType, kAVX2> P;
  const index_t n = P::kSize;
  std::vector<DType> in(n), out(n);
  const long double eps = std::numeric_limits<DType>::epsilon();
  for (int rep = 0; rep < 20000; ++rep) {
    for (index_t i = 0; i < n; ++i) in[i] = DType(rng->Uniform(lo, hi));
    f(P::LoadUnAligned(in.data())).StoreUnAligned(out.data());
    for (index_t i = 0; i < n; ++i) {
      const long double w = want((long double)in[i]);
      ASSERT_LE(std::fabs((long double)out[i] - w), ulp * eps * std::fabs(w))
          << what << "(" << in[i] << ") = " << out[i] << ", want " << double(w);
    }
  }
}

// Expm1 against std::expm1: within 2 ulp, small arguments included, and the
// special values exactly.
template <typename DType>
void CheckExpm1(test::Rng* rng, double big) {
  typedef Packet<DType, kAVX2> P;
  auto expm1 = [](P a) { return Expm1(a); };
  auto ref = [](long double x) { return std::expm1(x); };
  for (double range : {1e-6, 0.3, 1.0, 3.0, 20.0}) {
    CheckRelative<DType>(rng, expm1, ref, -range, range, 2, "expm1");
  }
  CheckRelative<DType>(rng, expm1, ref, -2 * big, big, 2, "expm1");
  const DType inf = std::numeric_limits<DType>::infinity();
  const DType special[] = {DType(0),
                           DType(-0.0),
                           inf,
                           -inf,
                           DType(-big - 5),
                           DType(2 * big),
                           DType(big * 100),
                           DType(-big * 100)};
  std::vector<DType> in(P::kSize), out(P::kSize);
  for (DType v : special) {
    std::fill(in.begin(), in.end(), v);
    Expm1(P::LoadUnAligned(in.data())).StoreUnAligned(out.data());
    const DType want = std::expm1(v);
    if (std::isinf(want) || want == 0 || want == -1) {
      EXPECT_EQ(out[0], want) << v;
      EXPECT_EQ(std::signbit(out[0]), std::signbit(want)) << v;
    } else {
      EXPECT_NEAR(double(out[0]), double(want),
                  2 * std::numeric_limits<DType>::epsilon() * std::fabs(want))
          << v;
    }
  }
  std::fill(in.begin(), in.end(), std::numeric_limits<DType>::quiet_NaN());
  Expm1(P::LoadUnAligned(in.data())).StoreUnAligned(out.data());
  EXPECT_TRUE(std::isnan(out[0]));
}

TEST(PacketTest, Avx2Expm1MatchesStdExpm1) {
  test::Rng rng;
  CheckExpm1<float>(&rng, 88.0);
  CheckExpm1<double>(&rng, 709.0);
}

// The softplus packet: within 4 ulp of log(1 + e^x) wherever that is a
// normal number, and the special values as the scalar operator gives them.
template <typename DType>
void CheckSoftplus(test::Rng* rng, double lo) {
  typedef Packet<DType, kAVX2> P;
  typedef PacketOp<op::softplus, DType, kAVX2> Softplus;
  auto softplus = [](P a) { return Softplus::Map(a); };
  auto ref = [](long double x) {
    return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  };
  for (double range : {1e-3, 1.0, 5.0, 40.0}) {
    CheckRelative<DType>(rng, softplus, ref, -range, range, 4, "softplus");
  }
  CheckRelative<DType>(rng, softplus, ref, lo, 1000, 4, "softplus");
  const DType inf = std::numeric_limits<DType>::infinity();
  std::vector<DType> in(P::kSize), out(P::kSize);
  for (DType v : {inf, -inf, DType(1e4), DType(-1e4), DType(100),
                  std::numeric_limits<DType>::quiet_NaN()}) {
    std::fill(in.begin(), in.end(), v);
    Softplus::Map(P::LoadUnAligned(in.data())).StoreUnAligned(out.data());
    const DType want = op::softplus::Map(v);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(out[0])) << v;
    } else {
      EXPECT_EQ(out[0], want) << v;
    }
  }
}

TEST(PacketTest, Avx2SoftplusMatchesLog1pExp) {
  test::Rng rng;
  CheckSoftplus<float>(&rng, -87.0);
  CheckSoftplus<double>(&rng, -708.0);
}
#endif

TEST(PacketTest, AlignmentHelpers) {
  EXPECT_EQ((UpperAlign<float, kAVX2>(17)), 24);
  EXPECT_EQ((LowerAlign<float, kAVX2>(17)), 16);
  EXPECT_EQ((LowerAlign<double, kSSE2>(5)), 4);
  EXPECT_TRUE(CheckAlign<kAVX2>(size_t(64)));
  EXPECT_FALSE(CheckAlign<kAVX2>(size_t(48)));
  EXPECT_TRUE(CheckAlign<kSSE2>(size_t(48)));
  size_t pitch = 0;
  void* p = AlignedMallocPitch(&pitch, 10 * sizeof(float), 3);
  EXPECT_EQ(pitch, 64u);
  EXPECT_TRUE(CheckAlign<kAVX2>(p));
  AlignedFree(p);
}

TEST(PacketTest, PacketCheckAndAlignCheck) {
  using expr::PacketCheck;
  typedef Tensor<cpu, 2, float> TF;
  typedef Tensor<cpu, 2, int32_t> TI;
  typedef expr::BinaryMapExp<op::plus, TF, TF, float, 1> Sum;
  typedef expr::UnaryMapExp<op::log, TF, float, 1> LogF;
  static_assert(PacketCheck<Sum, kAVX2>::kPass, "");
  static_assert(!PacketCheck<LogF, kAVX2>::kPass,
                "log has no packet version: scalar path");
  static_assert(!PacketCheck<TI, kAVX2>::kPass, "int tensors are scalar");
  static_assert(!PacketCheck<expr::TransposeExp<TF, float>, kAVX2>::kPass, "");
  TensorContainer<cpu, 2, float> a(Shape2(4, 16), 1.0f);
  EXPECT_TRUE((expr::PacketAlignCheck<2, Sum, kAVX2>::Check(a + a)));
  Tensor<cpu, 2, float> shifted(a.dptr_ + 1, Shape2(4, 15), 16, nullptr);
  EXPECT_FALSE((expr::PacketAlignCheck<2, Sum, kAVX2>::Check(shifted + a)));
}

TEST(PacketTest, EnginePacketPathAroundThePacketWidth) {
  test::Rng rng;
  for (index_t cols = 1; cols <= 35; ++cols) {
    auto a = rng.Tensor<float>(Shape2(3, cols));
    auto b = rng.Tensor<float>(Shape2(3, cols));
    // Unaligned destination and operands: offset by one element.
    std::vector<float> buf(3 * cols + 1, -9.0f);
    Tensor<cpu, 2, float> dst(buf.data() + 1, Shape2(3, cols));
    dst = F<op::maximum>(a, b) * 2.0f - F<op::relu>(b);
    for (index_t y = 0; y < 3; ++y) {
      for (index_t x = 0; x < cols; ++x) {
        const float want =
            op::maximum::Map(a[y][x], b[y][x]) * 2.0f - op::relu::Map(b[y][x]);
        ASSERT_EQ(dst[y][x], want) << cols << " " << y << " " << x;
      }
    }
    ASSERT_EQ(buf[0], -9.0f);
  }
}

}  // namespace
}  // namespace packet
}  // namespace umbra
