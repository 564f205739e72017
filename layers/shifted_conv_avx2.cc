// ShiftedConv's loops on AVX2 vectors of 8 floats (the build's baseline,
// x86-64-v3): 4 output channels by up to 3 vectors of positions, or up to 2
// vectors of output channels by 5 to 8 pixels, up to 12 of the 16 registers.
#include "layers/shifted_conv_kernel.h"
#include "layers/simd_avx2.h"

namespace umbra {
namespace layers {

void ShiftedConvAvx2(const ShiftedConvShape& s, const int64_t* offsets,
                     const float* packed, const float* padded, float* out) {
  shifted_conv_internal::Compute<Avx2, 4>(s, offsets, packed, padded, out);
}

void ShiftedConvChannelsAvx2(const ShiftedConvShape& s, const int64_t* offsets,
                             const float* packed, const float* padded,
                             float* out_t) {
  shifted_conv_internal::ComputeChannels<Avx2, 12, 2>(s, offsets, packed,
                                                      padded, out_t);
}

void ShiftedConvWeightGradientAvx2(const ShiftedConvShape& s,
                                   const int64_t* offsets, const float* padded,
                                   const float* out_grad, float* weight_grad) {
  // 4 output channels by 3 pairs: channel counts are mostly multiples of 4
  // and 3x3 kernels' pair counts of 3 (3 by 4 left a block of one channel
  // on the ResNet's 16: its 28x28 convs' backward 1.03x slower).
  shifted_conv_internal::WeightGradient<Avx2, 4, 3>(s, offsets, padded,
                                                    out_grad, weight_grad);
}

void ShiftedConvWeightGradientTransposedAvx2(const ShiftedConvShape& s,
                                             const int64_t* offsets,
                                             const float* padded,
                                             const float* transposed,
                                             float* weight_grad_t) {
  shifted_conv_internal::WeightGradientTransposed<Avx2, 12, 2>(
      s, offsets, padded, transposed, weight_grad_t);
}

}  // namespace layers
}  // namespace umbra
