#include "layers/matrix_transpose.h"

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "layers/kernel_test_util.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace layers {
namespace {

TEST(TransposeMatrix, MovesEveryElementAndNothingElse) {
  test::ScopedTestSeed seed;
  std::mt19937 engine(seed.value());
  for (const auto& [rows, cols] : std::vector<std::pair<int64_t, int64_t>>{
           {1, 1}, {3, 9}, {8, 8}, {17, 23}, {64, 3136}, {301, 300}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
    const int64_t from_pitch = cols + 2, to_pitch = rows + 3;
    const std::vector<float> from = RandomFloats(rows * from_pitch, &engine);
    std::vector<float> to(cols * to_pitch, -7.f);
    TransposeMatrix(rows, cols, from.data(), from_pitch, to.data(), to_pitch);
    for (int64_t c = 0; c < cols; ++c) {
      for (int64_t r = 0; r < to_pitch; ++r) {
        const float want = r < rows ? from[r * from_pitch + c] : -7.f;
        ASSERT_EQ(to[c * to_pitch + r], want) << "to(" << c << ", " << r << ")";
      }
    }
  }
}

}  // namespace
}  // namespace layers
}  // namespace umbra
