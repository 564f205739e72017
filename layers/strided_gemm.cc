// StridedGemm's split over the threads and its loops on AVX2 vectors of 8
// floats (the build's baseline, x86-64-v3); TransposeMatrix.
#include "layers/strided_gemm.h"

#include <algorithm>

#include "layers/float_vectors.h"
#include "layers/simd_avx2.h"
#include "layers/strided_gemm_kernel.h"
#include "tensor/threads.h"

namespace umbra {
namespace layers {
namespace {

// Products of fewer multiply-adds than this run on the calling thread:
// below it, waking the pool costs more than it saves (as tensor/dot.cc's).
constexpr double kMinSplitMultiplyAdds = double(1 << 21);

// Runs run(first item, end) on `items` (tiles of rows or columns): one
// part of them per pool thread, or with `split` false all on the calling
// thread.
template <typename Run>
void SplitOverThreads(int64_t items, bool split, const Run& run) {
  const int64_t parts = split ? std::min<int64_t>(GetNumThreads(), items) : 1;
  if (parts <= 1) return run(0, items);
  ParallelFor(int(parts), [&](int part) {
    run(items * part / parts, items * (part + 1) / parts);
  });
}

}  // namespace

void StridedGemmAvx2(const StridedProduct& product, int64_t row_begin,
                     int64_t row_end, int64_t col_begin, int64_t col_end) {
  strided_gemm_internal::Compute<Avx2, kStridedGemmRows,
                                 kStridedGemmColumnsAvx2 / Avx2::kLanes>(
      product, row_begin, row_end, col_begin, col_end);
}

void StridedGemm(const StridedProduct& p, SimdWidth simd) {
  const auto run =
      simd == SimdWidth::kAvx512 ? StridedGemmAvx512 : StridedGemmAvx2;
  const bool split = double(p.rows) * p.cols * p.depth >= kMinSplitMultiplyAdds;
  // Each part reads all of the operand the split does not cut (A for a
  // split of the columns, B for one of the rows): cut the longer side of
  // C, so that the shorter operand is the one read again.
  if (p.cols >= p.rows) {
    const int64_t tile = simd == SimdWidth::kAvx512 ? kStridedGemmColumnsAvx512
                                                    : kStridedGemmColumnsAvx2;
    SplitOverThreads(
        (p.cols + tile - 1) / tile, split, [&](int64_t begin, int64_t end) {
          run(p, 0, p.rows, begin * tile, std::min(p.cols, end * tile));
        });
  } else {
    const int64_t tile = kStridedGemmRows;
    SplitOverThreads(
        (p.rows + tile - 1) / tile, split, [&](int64_t begin, int64_t end) {
          run(p, begin * tile, std::min(p.rows, end * tile), 0, p.cols);
        });
  }
}

void TransposeMatrix(int64_t rows, int64_t cols, const float* from,
                     int64_t from_pitch, float* to, int64_t to_pitch) {
  // Blocks of 8 columns (8 rows of `to`, written from start to end), each
  // transposed 8 by 8 in registers.
  const auto transpose_columns = [&](int64_t block_begin, int64_t block_end) {
    for (int64_t c = block_begin * 8; c < std::min(cols, block_end * 8);
         c += 8) {
      const int64_t block_cols = std::min<int64_t>(8, cols - c);
      int64_t r = 0;
      if (block_cols == 8) {
        for (; r + 8 <= rows; r += 8) {
          TransposeBlock8(from + r * from_pitch + c, from_pitch,
                          to + c * to_pitch + r, to_pitch);
        }
      }
      for (int64_t j = c; j < c + block_cols; ++j) {
        for (int64_t i = r; i < rows; ++i) {
          to[j * to_pitch + i] = from[i * from_pitch + j];
        }
      }
      if (block_cols == 8) continue;
    }
  };
  SplitOverThreads((cols + 7) / 8,
                   double(rows) * cols >= double(GetParallelThreshold()),
                   transpose_columns);
}

}  // namespace layers
}  // namespace umbra
