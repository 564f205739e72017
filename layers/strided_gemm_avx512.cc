// StridedGemm's loops on AVX-512 vectors of 16 floats. Compiled with
// -mavx512f and called only where the CPU has it (WidestSimd).
#include "layers/simd_avx512.h"
#include "layers/strided_gemm_kernel.h"

namespace umbra {
namespace layers {

void StridedGemmAvx512(const StridedProduct& product, int64_t row_begin,
                       int64_t row_end, int64_t col_begin, int64_t col_end) {
  strided_gemm_internal::Compute<Avx512, kStridedGemmRows,
                                 kStridedGemmColumnsAvx512 / Avx512::kLanes>(
      product, row_begin, row_end, col_begin, col_end);
}

}  // namespace layers
}  // namespace umbra
