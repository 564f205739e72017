// StridedGemm: C = A B or C += A B in float on the CPU, for the matrix
// products of fully connected layers with batches of up to a few hundred.
//
// OpenBLAS copies ("packs") both operands of every product into blocks
// before it multiplies; with a batch of 64 that copy is a fifth of the
// product's time, and a product split over the threads packs the shared
// operand once per thread. StridedGemm packs nothing: it keeps a tile of C
// (6 rows by 64 columns on AVX-512, 6 by 16 on AVX2) in registers and adds
// to it, for each k, A's 6 elements broadcast times B's row k, in blocks of
// k and of columns sized for the core's caches.
//
// A (rows x depth) is read through two strides, element (r, k) at
// a[r * a_row_stride + k * a_col_stride], so that A or a transposed matrix
// is read in place (a fully connected layer's output gradient as the A of
// its weight gradient); B (depth x cols) and C (rows x cols) are row-major
// with row pitches ldb and ldc. The product is split over the pool's
// threads (tensor/threads.h) across the longer side of C, so that the
// operand every thread reads whole is the smaller. Each element of C is
// summed over k in order, the same for any thread count.
//
// Example (a fully connected layer's weight gradient, wmat_grad (nhidden x
// width) += out_grad^T in, out_grad being (batch x nhidden)):
//   StridedGemm({nhidden, width, batch, out_grad, 1, nhidden, in, width,
//                wmat_grad, width, /*accumulate=*/true});
#ifndef UMBRA_LAYERS_STRIDED_GEMM_H_
#define UMBRA_LAYERS_STRIDED_GEMM_H_

#include <cstdint>

#include "layers/simd_width.h"

namespace umbra {
namespace layers {

struct StridedProduct {
  int64_t rows, cols, depth;
  const float* a;
  int64_t a_row_stride, a_col_stride;
  const float* b;
  int64_t ldb;
  float* c;
  int64_t ldc;
  bool accumulate;  // C += A B; else C = A B (C's old values are not read)
};

// Computes `product` on the pool's threads. simd = kAvx512 only where
// WidestSimd() is.
void StridedGemm(const StridedProduct& product, SimdWidth simd = WidestSimd());

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_STRIDED_GEMM_H_
