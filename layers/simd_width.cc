#include "layers/simd_width.h"

namespace umbra {
namespace layers {

SimdWidth WidestSimd() {
  static const SimdWidth widest =
      __builtin_cpu_supports("avx512f") ? SimdWidth::kAvx512 : SimdWidth::kAvx2;
  return widest;
}

}  // namespace layers
}  // namespace umbra
