// Packets: every architecture available on the target against scalar code;
// alignment helpers; PacketCheck / PacketAlignCheck; the packet path of the
// engine on sizes around the packet width.
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
  double sum = 0;
  for (index_t i = 0; i < n; ++i) sum += a[i];
  EXPECT_NEAR(double(pa.Sum()), sum, 1e-5);
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
  typedef expr::UnaryMapExp<op::exp, TF, float, 1> ExpF;
  static_assert(PacketCheck<Sum, kAVX2>::kPass, "");
  static_assert(!PacketCheck<ExpF, kAVX2>::kPass,
                "exp has no packet version: scalar path");
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
    auto a = rng.Tensor<2, float>(Shape2(3, cols));
    auto b = rng.Tensor<2, float>(Shape2(3, cols));
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
