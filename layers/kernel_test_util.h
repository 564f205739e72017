// What the tests and benchmarks of the CPU kernels (layers/shifted_conv.h,
// layers/strided_gemm.h) share: random inputs and the SIMD widths to run.
#ifndef UMBRA_LAYERS_KERNEL_TEST_UTIL_H_
#define UMBRA_LAYERS_KERNEL_TEST_UTIL_H_

#include <cstdint>
#include <random>
#include <vector>

#include "layers/simd_width.h"

namespace umbra {
namespace layers {

// n floats uniform in [-1, 1) from `engine`.
inline std::vector<float> RandomFloats(int64_t n, std::mt19937* engine) {
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(*engine);
  return v;
}
// The same, from a fixed seed: the same numbers in every run (benchmarks).
inline std::vector<float> RandomFloats(int64_t n) {
  std::mt19937 engine(1);
  return RandomFloats(n, &engine);
}

// Every SimdWidth this CPU runs: AVX2, and AVX-512 where it has it.
inline std::vector<SimdWidth> SimdWidthsOfThisCpu() {
  if (WidestSimd() == SimdWidth::kAvx512) {
    return {SimdWidth::kAvx2, SimdWidth::kAvx512};
  }
  return {SimdWidth::kAvx2};
}

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_KERNEL_TEST_UTIL_H_
