// Building blocks of the CPU kernels of layers/ that keep a tile of
// accumulators in vector registers, written once over a SIMD type
// (layers/simd_avx2.h, layers/simd_avx512.h) and instantiated in each ISA's
// translation unit with its own type. Include nothing here that has inline
// code: it would be compiled for AVX-512 too.
//
// Example (a kRows x kVecs tile of C += A B, A's row r at a[r]):
//   typename Simd::V acc[kRows][kVecs];
//   ZeroAll<Simd>(acc);
//   for (int64_t k = 0; k < depth; ++k)
//     AddOuterProduct<Simd>(a, k, b + k * ldb, acc);
#ifndef UMBRA_LAYERS_REGISTER_TILES_H_
#define UMBRA_LAYERS_REGISTER_TILES_H_

#include <cstdint>

namespace umbra {
namespace layers {
namespace register_tiles {

// A count known at compile time, for WithCount's callback.
template <int kN>
struct Count {
  static constexpr int value = kN;
};

// Calls fn(Count<count>()) for 1 <= count <= kMax: runs a kernel compiled
// for the size of a loop's block, the last, shorter one included.
template <int kMax, class Fn>
void WithCount(int64_t count, const Fn& fn) {
  if constexpr (kMax > 0) {
    if (count == kMax) return fn(Count<kMax>());
    WithCount<kMax - 1>(count, fn);
  }
}

// The smaller of two sizes: in an unnamed namespace, so that each ISA's file
// has its own (as std::min it would be one inline function for both).
namespace {
int64_t Smaller(int64_t a, int64_t b) { return a < b ? a : b; }
}  // namespace

// acc = 0, every vector: a kernel's accumulators, kept in registers.
template <class Simd, int kRows, int kColumns>
inline __attribute__((always_inline)) void ZeroAll(
    typename Simd::V (&acc)[kRows][kColumns]) {
#pragma GCC unroll 24
  for (int r = 0; r < kRows; ++r) {
#pragma GCC unroll 8
    for (int c = 0; c < kColumns; ++c) acc[r][c] = Simd::Zero();
  }
}

// acc[p][v] += the float at x[p] + offset times vector v of the kMv
// consecutive ones at `vectors`: one broadcast per row, a load per column.
// With kPartialLast, the last vector holds only its first last_lanes floats
// (the others 0, none read past them).
template <class Simd, int kP, int kMv, bool kPartialLast = false>
inline __attribute__((always_inline)) void AddOuterProduct(
    const float* (&x)[kP], int64_t offset, const float* vectors,
    typename Simd::V (&acc)[kP][kMv], int last_lanes = Simd::kLanes) {
  using V = typename Simd::V;
  V columns[kMv];
#pragma GCC unroll 4
  for (int v = 0; v < kMv; ++v) {
    columns[v] = kPartialLast && v == kMv - 1
                     ? Simd::LoadFirst(vectors + v * Simd::kLanes, last_lanes)
                     : Simd::Load(vectors + v * Simd::kLanes);
  }
#pragma GCC unroll 24
  for (int p = 0; p < kP; ++p) {
    const V row = Simd::Broadcast(x[p] + offset);
#pragma GCC unroll 4
    for (int v = 0; v < kMv; ++v)
      acc[p][v] = Simd::Fma(row, columns[v], acc[p][v]);
  }
}

}  // namespace register_tiles
}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_REGISTER_TILES_H_
