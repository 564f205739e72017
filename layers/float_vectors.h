// Vectors of 8 and 4 floats (GCC's vector extensions) and the lane shuffles
// that the layers' row loops use where the compiler leaves a loop scalar:
// the stride-2 rows of pooling, im2col and the stride-2 phase planes of
// convolutions. Built for the project's baseline ISA (x86-64-v3): include
// it only from translation units compiled for it.
//
// Example (the even and odd pixels of 16):
//   const Floats8 a = LoadFloats<Floats8>(row);
//   const Floats8 b = LoadFloats<Floats8>(row + 8);
//   StoreFloats(even, EvenLanes(a, b));
//   StoreFloats(odd, OddLanes(a, b));
#ifndef UMBRA_LAYERS_FLOAT_VECTORS_H_
#define UMBRA_LAYERS_FLOAT_VECTORS_H_

#include <cstdint>
#include <cstring>

namespace umbra {
namespace layers {

typedef float Floats8 __attribute__((vector_size(32)));
typedef float Floats4 __attribute__((vector_size(16)));

// V's lanes from p on, unaligned.
template <typename V>
inline V LoadFloats(const float* p) {
  V v;
  std::memcpy(&v, p, sizeof(V));
  return v;
}
template <typename V>
inline void StoreFloats(float* p, V v) {
  std::memcpy(p, &v, sizeof(V));
}

// The even lanes of a then b.
inline Floats8 EvenLanes(Floats8 a, Floats8 b) {
  return __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
}
inline Floats4 EvenLanes(Floats4 a, Floats4 b) {
  return __builtin_shufflevector(a, b, 0, 2, 4, 6);
}
// The odd lanes of a then b.
inline Floats8 OddLanes(Floats8 a, Floats8 b) {
  return __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
}
inline Floats4 OddLanes(Floats4 a, Floats4 b) {
  return __builtin_shufflevector(a, b, 1, 3, 5, 7);
}
// The lanes of a and b alternately (a0, b0, a1, b1, ...): the first half in
// *low, the second in *high.
inline void InterleaveLanes(Floats8 a, Floats8 b, Floats8* low, Floats8* high) {
  *low = __builtin_shufflevector(a, b, 0, 8, 1, 9, 2, 10, 3, 11);
  *high = __builtin_shufflevector(a, b, 4, 12, 5, 13, 6, 14, 7, 15);
}
inline void InterleaveLanes(Floats4 a, Floats4 b, Floats4* low, Floats4* high) {
  *low = __builtin_shufflevector(a, b, 0, 4, 1, 5);
  *high = __builtin_shufflevector(a, b, 2, 6, 3, 7);
}

// Transposes the 8 x 8 matrix of rows[r] lane c: rows[c] lane r after.
// Every loop unrolled, so that the rows stay in registers (at -O2 GCC kept
// them in memory: a transpose took 3x as long).
inline __attribute__((always_inline)) void TransposeLanes(Floats8 (&rows)[8]) {
  Floats8 pairs[8], quads[8];
#pragma GCC unroll 4
  for (int r = 0; r < 8; r += 2) {
    pairs[r] =
        __builtin_shufflevector(rows[r], rows[r + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    pairs[r + 1] = __builtin_shufflevector(rows[r], rows[r + 1], 2, 10, 3, 11,
                                           6, 14, 7, 15);
  }
#pragma GCC unroll 2
  for (int r = 0; r < 8; r += 4) {
#pragma GCC unroll 2
    for (int h = 0; h < 2; ++h) {
      quads[r + 2 * h] = __builtin_shufflevector(pairs[r + h], pairs[r + h + 2],
                                                 0, 1, 8, 9, 4, 5, 12, 13);
      quads[r + 2 * h + 1] = __builtin_shufflevector(
          pairs[r + h], pairs[r + h + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    }
  }
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    rows[c] = __builtin_shufflevector(quads[c], quads[c + 4], 0, 1, 2, 3, 8, 9,
                                      10, 11);
    rows[c + 4] = __builtin_shufflevector(quads[c], quads[c + 4], 4, 5, 6, 7,
                                          12, 13, 14, 15);
  }
}

// Calls block(i) for blocks of kLanes covering [0, n), n >= kLanes, the last
// one ending at n (over part of the one before).
template <int kLanes, typename Block>
inline void ForEachBlock(int64_t n, const Block& block) {
  for (int64_t i = 0; i + kLanes < n; i += kLanes) block(i);
  block(n - kLanes);
}

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_FLOAT_VECTORS_H_
