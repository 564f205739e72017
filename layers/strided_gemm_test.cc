#include "layers/strided_gemm.h"

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/kernel_test_util.h"
#include "tensor/test_seed.h"
#include "tensor/threads.h"

namespace umbra {
namespace layers {
namespace {

// A product's sizes, A read transposed or not, the pitches' slack.
struct Case {
  int64_t rows, cols, depth;
  bool a_transposed;
  int64_t slack;  // extra floats per row of A's storage, B and C
  bool accumulate;
};

std::string Describe(const Case& c, SimdWidth simd) {
  return std::to_string(c.rows) + "x" + std::to_string(c.cols) + " by depth " +
         std::to_string(c.depth) + (c.a_transposed ? ", A transposed" : "") +
         (c.accumulate ? ", accumulating" : "") + ", slack " +
         std::to_string(c.slack) +
         (simd == SimdWidth::kAvx512 ? ", AVX-512" : ", AVX2");
}

// C from StridedGemm against sums in double over the same A, B and C,
// every element within a bound of its rounding error; the C's pitch slack
// is never written.
void ExpectProductMatches(const Case& c, SimdWidth simd, std::mt19937* engine) {
  SCOPED_TRACE(Describe(c, simd));
  // A stored as rows x depth, or depth x rows when read transposed.
  const int64_t a_pitch = (c.a_transposed ? c.rows : c.depth) + c.slack;
  const int64_t ldb = c.cols + c.slack, ldc = c.cols + c.slack;
  const std::vector<float> a =
      RandomFloats((c.a_transposed ? c.depth : c.rows) * a_pitch + 1, engine);
  const std::vector<float> b = RandomFloats(c.depth * ldb + 1, engine);
  const std::vector<float> c_before = RandomFloats(c.rows * ldc + 1, engine);
  std::vector<float> out = c_before;
  const int64_t a_row = c.a_transposed ? 1 : a_pitch;
  const int64_t a_col = c.a_transposed ? a_pitch : 1;
  StridedGemm({c.rows, c.cols, c.depth, a.data(), a_row, a_col, b.data(), ldb,
               out.data(), ldc, c.accumulate},
              simd);
  for (int64_t r = 0; r < c.rows; ++r) {
    for (int64_t j = 0; j < ldc; ++j) {
      const int64_t at = r * ldc + j;
      if (j >= c.cols) {
        ASSERT_EQ(out[at], c_before[at])
            << "slack written at " << r << "," << j;
        continue;
      }
      double want = c.accumulate ? c_before[at] : 0.0, magnitude = 0.0;
      for (int64_t k = 0; k < c.depth; ++k) {
        const double term = double(a[r * a_row + k * a_col]) * b[k * ldb + j];
        want += term;
        magnitude += std::fabs(term);
      }
      const double bound =
          1e-6 * (magnitude + std::fabs(want)) + 1e-7 * c.depth;
      ASSERT_NEAR(out[at], want, bound) << "C(" << r << ", " << j << ")";
    }
  }
}

TEST(StridedGemm, MatchesDoubleSumsOnEveryEdge) {
  test::ScopedTestSeed seed;
  std::mt19937 engine(seed.value());
  // Rows around the 6-row tile, columns around 8, 16 and 64-float tiles,
  // depths around the 512 block; the LeNet and MLP layers' shapes.
  const std::vector<Case> cases = {
      {1, 1, 1, false, 0, false},     {5, 7, 3, false, 1, false},
      {6, 16, 9, true, 0, true},      {7, 17, 33, false, 3, true},
      {13, 64, 40, true, 2, false},   {12, 65, 513, false, 0, false},
      {25, 100, 1030, true, 1, true}, {64, 784, 7, false, 0, false},
      {10, 64, 128, false, 0, false}, {128, 256, 64, true, 0, true},
      {64, 200, 512, false, 5, true}, {3, 130, 0, false, 0, false},
      {4, 20, 0, true, 1, true},
  };
  for (const Case& c : cases) {
    for (SimdWidth simd : SimdWidthsOfThisCpu()) {
      ExpectProductMatches(c, simd, &engine);
      if (HasFatalFailure()) return;
    }
  }
}

// The same bits from 1 thread and from all: the split cuts C, never k.
TEST(StridedGemm, ThreadCountChangesNoBit) {
  test::ScopedTestSeed seed;
  std::mt19937 engine(seed.value());
  for (const Case& c : {Case{64, 3136, 512, false, 0, false},
                        Case{512, 3136, 64, true, 0, true},
                        Case{512, 64, 3136, false, 0, false}}) {
    SCOPED_TRACE(Describe(c, WidestSimd()));
    const int64_t a_size = c.rows * c.depth;
    const std::vector<float> a = RandomFloats(a_size, &engine);
    const std::vector<float> b = RandomFloats(c.depth * c.cols, &engine);
    const std::vector<float> c_before = RandomFloats(c.rows * c.cols, &engine);
    const int64_t a_row = c.a_transposed ? 1 : c.depth;
    const int64_t a_col = c.a_transposed ? c.rows : 1;
    std::vector<float> serial = c_before, parallel = c_before;
    SetNumThreads(1);
    StridedGemm({c.rows, c.cols, c.depth, a.data(), a_row, a_col, b.data(),
                 c.cols, serial.data(), c.cols, c.accumulate});
    SetNumThreads(2);
    StridedGemm({c.rows, c.cols, c.depth, a.data(), a_row, a_col, b.data(),
                 c.cols, parallel.data(), c.cols, c.accumulate});
    SetNumThreads(0);
    EXPECT_EQ(0, std::memcmp(serial.data(), parallel.data(),
                             serial.size() * sizeof(float)));
  }
}

}  // namespace
}  // namespace layers
}  // namespace umbra
