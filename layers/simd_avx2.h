// Avx2: the vector operations the CPU kernels of layers/ are written over
// (layers/register_tiles.h), on AVX2 vectors of 8 floats. For translation
// units built for the baseline ISA (x86-64-v3) only. Its AVX-512 twin, with
// the same members, is layers/simd_avx512.h.
//
// In an unnamed namespace, as the kernels' templates that take it: each
// translation unit has its own copies, so that no inline function compiled
// for one ISA is shared with the units of another.
#ifndef UMBRA_LAYERS_SIMD_AVX2_H_
#define UMBRA_LAYERS_SIMD_AVX2_H_

#include <immintrin.h>

#include <cstdint>

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
  // The first n lanes (0 < n <= kLanes) from p, the others 0; stores them
  // only. Nothing past them is read or written.
  static V LoadFirst(const float* p, int n) {
    return _mm256_maskload_ps(p, FirstLanes(n));
  }
  static void StoreFirst(float* p, V v, int n) {
    _mm256_maskstore_ps(p, FirstLanes(n), v);
  }
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
    StoreFirst(p, _mm256_permutevar8x32_ps(v, order), __builtin_popcount(keep));
  }

 private:
  // The mask of lanes [0, n).
  static __m256i FirstLanes(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
};

}  // namespace
}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_SIMD_AVX2_H_
