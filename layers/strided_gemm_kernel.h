// The loops of StridedGemm (layers/strided_gemm.h), written once over a SIMD
// type: included by strided_gemm.cc and strided_gemm_avx512.cc (compiled
// with -mavx512f), each of which instantiates them with its own vector
// type. Include nothing here that has inline code: it would be compiled for
// AVX-512 too.
#ifndef UMBRA_LAYERS_STRIDED_GEMM_KERNEL_H_
#define UMBRA_LAYERS_STRIDED_GEMM_KERNEL_H_

#include <cstdint>

#include "layers/register_tiles.h"
#include "layers/strided_gemm.h"

namespace umbra {
namespace layers {

// The rows of C a tile holds, and its columns: 2 vectors of AVX2, 4 of
// AVX-512 (12 and 24 accumulators, of 16 and 32 registers).
constexpr int64_t kStridedGemmRows = 6;
constexpr int64_t kStridedGemmColumnsAvx2 = 16;
constexpr int64_t kStridedGemmColumnsAvx512 = 64;

// C's rows [row_begin, row_end) by columns [col_begin, col_end) of
// `product`, on the calling thread.
void StridedGemmAvx2(const StridedProduct& product, int64_t row_begin,
                     int64_t row_end, int64_t col_begin, int64_t col_end);
void StridedGemmAvx512(const StridedProduct& product, int64_t row_begin,
                       int64_t row_end, int64_t col_begin, int64_t col_end);

namespace strided_gemm_internal {

using register_tiles::AddOuterProduct;
using register_tiles::Smaller;
using register_tiles::WithCount;
using register_tiles::ZeroAll;

// k per block: a block of B's rows across a panel of columns stays in the
// core's L2 cache while every tile of rows passes over it.
constexpr int64_t kDepthBlock = 512;
// The bytes of B a panel of columns spans per block of k.
constexpr int64_t kPanelBytes = 192 << 10;
// The most bytes of B one tile reads for its rows to be taken column tile
// by column tile (Compute).
constexpr int64_t kL1TileBytes = 32 << 10;

// C's tile of kRows rows from row0 by kMv vectors from col0 (the last
// holding last_lanes columns) += the sum over k in [k0, k1) of A's column
// k times B's row k; with `load` false, = instead of +=. Meanwhile the
// cache lines of the tile of C at `next` (the next one the caller computes,
// as many rows and columns, or null) are fetched, so that its loads and
// stores do not wait for memory (LeNet's fc1 products 3-4% faster).
template <class Simd, int kRows, int kMv, bool kPartialLast>
void Tile(const StridedProduct& p, int64_t row0, int64_t col0, int64_t k0,
          int64_t k1, bool load, int last_lanes, const float* next) {
  using V = typename Simd::V;
  constexpr int kLanes = Simd::kLanes;
  V acc[kRows][kMv];
  float* c = p.c + row0 * p.ldc + col0;
  if (next != nullptr) {
    constexpr int kLineFloats = 16;
    for (int r = 0; r < kRows; ++r) {
      for (int j = 0; j < kMv * kLanes; j += kLineFloats) {
        __builtin_prefetch(next + r * p.ldc + j, 1);
      }
    }
  }
  if (load) {
#pragma GCC unroll 8
    for (int r = 0; r < kRows; ++r) {
#pragma GCC unroll 4
      for (int v = 0; v < kMv; ++v) {
        const float* from = c + r * p.ldc + v * kLanes;
        acc[r][v] = kPartialLast && v == kMv - 1
                        ? Simd::LoadFirst(from, last_lanes)
                        : Simd::Load(from);
      }
    }
  } else {
    ZeroAll<Simd>(acc);
  }
  const float* a[kRows];
  for (int r = 0; r < kRows; ++r) a[r] = p.a + (row0 + r) * p.a_row_stride;
  const float* b = p.b + col0;
  for (int64_t k = k0; k < k1; ++k) {
    AddOuterProduct<Simd, kRows, kMv, kPartialLast>(
        a, k * p.a_col_stride, b + k * p.ldb, acc, last_lanes);
  }
#pragma GCC unroll 8
  for (int r = 0; r < kRows; ++r) {
#pragma GCC unroll 4
    for (int v = 0; v < kMv; ++v) {
      float* to = c + r * p.ldc + v * kLanes;
      if (kPartialLast && v == kMv - 1) {
        Simd::StoreFirst(to, acc[r][v], last_lanes);
      } else {
        Simd::StoreUnaligned(to, acc[r][v]);
      }
    }
  }
}

// C's rows [row_begin, row_end) by columns [col_begin, col_end): panels of
// columns whose block of B stays in L2; in each, blocks of k; in each, the
// tiles of kRows rows by kMv vectors (fewer at the edges). Where a tile's
// block of B fits in L1 (a short k: a weight gradient's batch), column by
// column, so that it stays there while the rows pass over it; else row by
// row, so that the tile's rows of A stay in L1 across the panel.
template <class Simd, int kRows, int kMv>
void Compute(const StridedProduct& p, int64_t row_begin, int64_t row_end,
             int64_t col_begin, int64_t col_end) {
  constexpr int64_t kLanes = Simd::kLanes;
  constexpr int64_t kTileColumns = kMv * kLanes;
  if (p.depth == 0) {
    if (p.accumulate) return;
    for (int64_t r = row_begin; r < row_end; ++r) {
      for (int64_t j = col_begin; j < col_end; ++j) p.c[r * p.ldc + j] = 0.f;
    }
    return;
  }
  const int64_t depth_block = Smaller(kDepthBlock, p.depth);
  const int64_t panel_tiles = kPanelBytes / (depth_block * 4 * kTileColumns);
  const int64_t panel = kTileColumns * (panel_tiles > 1 ? panel_tiles : 1);
  const bool columns_outer = depth_block * 4 * kTileColumns <= kL1TileBytes;
  const auto c_at = [&](int64_t row0, int64_t col0) {
    return p.c + row0 * p.ldc + col0;
  };
  for (int64_t panel0 = col_begin; panel0 < col_end; panel0 += panel) {
    const int64_t panel_end = Smaller(col_end, panel0 + panel);
    for (int64_t k0 = 0; k0 < p.depth; k0 += depth_block) {
      const int64_t k1 = Smaller(p.depth, k0 + depth_block);
      const bool load = p.accumulate || k0 > 0;
      // The tile at (row0, col0), fetching `next` meanwhile.
      const auto tile = [&](int64_t row0, int64_t col0, const float* next) {
        const int64_t columns = Smaller(kTileColumns, panel_end - col0);
        const int64_t vectors = (columns + kLanes - 1) / kLanes;
        const int last_lanes = int(columns - (vectors - 1) * kLanes);
        WithCount<kRows>(Smaller(kRows, row_end - row0), [&](auto rows) {
          WithCount<kMv>(vectors, [&](auto vecs) {
            if (last_lanes == kLanes) {
              Tile<Simd, rows.value, vecs.value, false>(p, row0, col0, k0, k1,
                                                        load, kLanes, next);
            } else {
              Tile<Simd, rows.value, vecs.value, true>(p, row0, col0, k0, k1,
                                                       load, last_lanes, next);
            }
          });
        });
      };
      if (columns_outer) {
        for (int64_t col0 = panel0; col0 < panel_end; col0 += kTileColumns) {
          for (int64_t row0 = row_begin; row0 < row_end; row0 += kRows) {
            tile(row0, col0,
                 row0 + kRows < row_end ? c_at(row0 + kRows, col0)
                 : col0 + kTileColumns < panel_end
                     ? c_at(row_begin, col0 + kTileColumns)
                     : nullptr);
          }
        }
      } else {
        for (int64_t row0 = row_begin; row0 < row_end; row0 += kRows) {
          for (int64_t col0 = panel0; col0 < panel_end; col0 += kTileColumns) {
            tile(row0, col0,
                 col0 + kTileColumns < panel_end
                     ? c_at(row0, col0 + kTileColumns)
                 : row0 + kRows < row_end ? c_at(row0 + kRows, panel0)
                                          : nullptr);
          }
        }
      }
    }
  }
}

}  // namespace strided_gemm_internal
}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_STRIDED_GEMM_KERNEL_H_
