// ShiftedConv's loops on AVX-512 vectors of 16 floats: 8 output channels by
// up to 3 vectors of positions, or up to 4 vectors of output channels by 6 to
// 8 pixels, 24 of the 32 registers. Compiled with -mavx512f and called only
// where the CPU has it (WidestSimd).
#include "layers/shifted_conv_kernel.h"
#include "layers/simd_avx512.h"

namespace umbra {
namespace layers {

void ShiftedConvAvx512(const ShiftedConvShape& s, const int64_t* offsets,
                       const float* packed, const float* padded, float* out) {
  shifted_conv_internal::Compute<Avx512, 8>(s, offsets, packed, padded, out);
}

void ShiftedConvChannelsAvx512(const ShiftedConvShape& s,
                               const int64_t* offsets, const float* packed,
                               const float* padded, float* out_t) {
  shifted_conv_internal::ComputeChannels<Avx512, 24, 4>(s, offsets, packed,
                                                        padded, out_t);
}

void ShiftedConvWeightGradientAvx512(const ShiftedConvShape& s,
                                     const int64_t* offsets,
                                     const float* padded, const float* out_grad,
                                     float* weight_grad) {
  shifted_conv_internal::WeightGradient<Avx512, 4, 6>(s, offsets, padded,
                                                      out_grad, weight_grad);
}

void ShiftedConvWeightGradientTransposedAvx512(const ShiftedConvShape& s,
                                               const int64_t* offsets,
                                               const float* padded,
                                               const float* transposed,
                                               float* weight_grad_t) {
  shifted_conv_internal::WeightGradientTransposed<Avx512, 24, 4>(
      s, offsets, padded, transposed, weight_grad_t);
}

}  // namespace layers
}  // namespace umbra
