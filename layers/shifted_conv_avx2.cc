// ShiftedConv's loops on AVX2 vectors of 8 floats (the build's baseline,
// x86-64-v3): 4 output channels by up to 3 vectors of positions, or up to 2
// vectors of output channels by 6 to 8 pixels, 12 of the 16 registers.
#include <immintrin.h>

#include "layers/shifted_conv_kernel.h"

namespace umbra {
namespace layers {
namespace {

// For each 8-bit mask, the lanes whose bit is set, in order, then zeros.
struct KeptLanes {
  int32_t order[256][8];
  constexpr KeptLanes() : order() {
    for (int keep = 0; keep < 256; ++keep) {
      int kept = 0;
      for (int lane = 0; lane < 8; ++lane) {
        if (keep >> lane & 1) order[keep][kept++] = lane;
      }
    }
  }
};
constexpr KeptLanes kKeptLanes;

struct Avx2 {
  using V = __m256;
  static constexpr int kLanes = 8;
  static V Zero() { return _mm256_setzero_ps(); }
  static V Load(const float* p) { return _mm256_loadu_ps(p); }
  static V Broadcast(const float* p) { return _mm256_broadcast_ss(p); }
  static V Fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static void StoreUnaligned(float* p, V v) { _mm256_storeu_ps(p, v); }
  static float Sum(V v) {
    const __m128 four =
        _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 two = _mm_add_ps(four, _mm_movehl_ps(four, four));
    return _mm_cvtss_f32(_mm_add_ss(two, _mm_movehdup_ps(two)));
  }
  // Stores the lanes of v whose bit is set in `keep` at p on, one after
  // another: moved to the front by a permutation from a table, then stored
  // under a mask of the first lanes.
  static void StoreKept(float* p, V v, uint32_t keep) {
    if (keep == 0xff) return _mm256_storeu_ps(p, v);
    const __m256i order = _mm256_loadu_si256(
        reinterpret_cast<const __m256i*>(kKeptLanes.order[keep]));
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i first =
        _mm256_cmpgt_epi32(_mm256_set1_epi32(__builtin_popcount(keep)), lanes);
    _mm256_maskstore_ps(p, first, _mm256_permutevar8x32_ps(v, order));
  }
};

}  // namespace

void ShiftedConvAvx2(const ShiftedConvShape& s, const float* packed,
                     const float* padded, float* out) {
  shifted_conv_internal::Compute<Avx2, 4>(s, packed, padded, out);
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
  shifted_conv_internal::WeightGradient<Avx2, 3, 4>(s, offsets, padded,
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
