// Avx512: the vector operations the CPU kernels of layers/ are written over
// (layers/register_tiles.h), on AVX-512 vectors of 16 floats. For
// translation units compiled with -mavx512f only, whose code runs where
// WidestSimd() (layers/simd_width.h) is kAvx512. Its AVX2 twin, with the
// same members, is layers/simd_avx2.h.
//
// In an unnamed namespace, as the kernels' templates that take it: each
// translation unit has its own copies, so that no inline function compiled
// for one ISA is shared with the units of another.
#ifndef UMBRA_LAYERS_SIMD_AVX512_H_
#define UMBRA_LAYERS_SIMD_AVX512_H_

#include <immintrin.h>

#include <cstdint>

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
  // The first n lanes (0 < n <= kLanes) from p, the others 0; stores them
  // only. Nothing past them is read or written.
  static V LoadFirst(const float* p, int n) {
    return _mm512_maskz_loadu_ps(FirstLanes(n), p);
  }
  static void StoreFirst(float* p, V v, int n) {
    _mm512_mask_storeu_ps(p, FirstLanes(n), v);
  }
  static float Sum(V v) { return _mm512_reduce_add_ps(v); }
  // Stores the lanes of v whose bit is set in `keep` at p on, one after
  // another (compressed in a register: the compressing store to memory is
  // microcoded on AMD's Zen 4).
  static void StoreKept(float* p, V v, uint32_t keep) {
    if (keep == 0xffff) return _mm512_storeu_ps(p, v);
    StoreFirst(p, _mm512_maskz_compress_ps(__mmask16(keep), v),
               __builtin_popcount(keep));
  }

 private:
  static __mmask16 FirstLanes(int n) { return __mmask16((1u << n) - 1); }
};

}  // namespace
}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_SIMD_AVX512_H_
