// ShiftedConv's loops on AVX2 vectors of 8 floats (the build's baseline,
// x86-64-v3): 4 output channels by up to 3 vectors, 12 of the 16 registers.
#include <immintrin.h>

#include "layers/shifted_conv_kernel.h"

namespace umbra {
namespace layers {
namespace {

struct Avx2 {
  using V = __m256;
  static constexpr int kLanes = 8;
  static V Zero() { return _mm256_setzero_ps(); }
  static V Load(const float* p) { return _mm256_loadu_ps(p); }
  static V Broadcast(const float* p) { return _mm256_broadcast_ss(p); }
  static V Fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static void StoreUnaligned(float* p, V v) { _mm256_storeu_ps(p, v); }
  // Stores the first n < kLanes floats of v.
  static void StoreFirst(float* p, V v, int64_t n) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    _mm256_maskstore_ps(p, _mm256_cmpgt_epi32(_mm256_set1_epi32(int(n)), lanes),
                        v);
  }
};

}  // namespace

void ShiftedConvAvx2(const ShiftedConvShape& s, const float* packed,
                     const float* padded, float* workspace, float* out) {
  shifted_conv_internal::Compute<Avx2, 4>(s, packed, padded, workspace, out);
}

}  // namespace layers
}  // namespace umbra
