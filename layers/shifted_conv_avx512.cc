// ShiftedConv's loops on AVX-512 vectors of 16 floats: 8 output channels by
// up to 3 vectors of positions, or up to 4 vectors of output channels by 6 to
// 8 pixels, 24 of the 32 registers. Compiled with -mavx512f and called only
// where the CPU has it (WidestSimd).
#include <immintrin.h>

#include "layers/shifted_conv_kernel.h"

namespace umbra {
namespace layers {
namespace {

struct Avx512 {
  using V = __m512;
  static constexpr int kLanes = 16;
  static V Zero() { return _mm512_setzero_ps(); }
  static V Load(const float* p) { return _mm512_loadu_ps(p); }
  static V Broadcast(const float* p) { return _mm512_set1_ps(*p); }
  static V Fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static void StoreUnaligned(float* p, V v) { _mm512_storeu_ps(p, v); }
  static float Sum(V v) { return _mm512_reduce_add_ps(v); }
  // Stores the lanes of v whose bit is set in `keep` at p on, one after
  // another (compressed in a register: the compressing store to memory is
  // microcoded on AMD's Zen 4).
  static void StoreKept(float* p, V v, uint32_t keep) {
    if (keep == 0xffff) return _mm512_storeu_ps(p, v);
    _mm512_mask_storeu_ps(p, __mmask16((1u << __builtin_popcount(keep)) - 1),
                          _mm512_maskz_compress_ps(__mmask16(keep), v));
  }
};

}  // namespace

void ShiftedConvAvx512(const ShiftedConvShape& s, const float* packed,
                       const float* padded, float* out) {
  shifted_conv_internal::Compute<Avx512, 8>(s, packed, padded, out);
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
