#include "layers/matrix_transpose.h"

#include "layers/float_vectors.h"

namespace umbra {
namespace layers {
namespace {

// to[c * to_stride + r] = from[r * from_stride + c] for r, c < 8: an 8 by
// 8 block transposed in registers.
inline __attribute__((always_inline)) void TransposeBlock8(const float* from,
                                                           int64_t from_stride,
                                                           float* to,
                                                           int64_t to_stride) {
  Floats8 rows[8];
#pragma GCC unroll 8
  for (int r = 0; r < 8; ++r) {
    rows[r] = LoadFloats<Floats8>(from + r * from_stride);
  }
  TransposeLanes(rows);
#pragma GCC unroll 8
  for (int c = 0; c < 8; ++c) StoreFloats(to + c * to_stride, rows[c]);
}

}  // namespace

void TransposeMatrix(int64_t rows, int64_t cols, const float* from,
                     int64_t from_pitch, float* to, int64_t to_pitch) {
  if (rows < 8 || cols < 8) {
    for (int64_t c = 0; c < cols; ++c) {
      for (int64_t r = 0; r < rows; ++r) {
        to[c * to_pitch + r] = from[r * from_pitch + c];
      }
    }
    return;
  }
  // Blocks of 8 columns (8 rows of `to`, written from start to end); the
  // last block of each side over part of the one before, so that no element
  // is moved one by one.
  ForEachBlock<8>(cols, [&](int64_t c) {
    ForEachBlock<8>(rows, [&](int64_t r) {
      TransposeBlock8(from + r * from_pitch + c, from_pitch,
                      to + c * to_pitch + r, to_pitch);
    });
  });
}

}  // namespace layers
}  // namespace umbra
