// StridedGemm's split over the threads and its loops on AVX2 vectors of 8
// floats (the build's baseline, x86-64-v3).
#include "layers/strided_gemm.h"

#include <algorithm>

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

}  // namespace layers
}  // namespace umbra
