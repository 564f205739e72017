// The loops of ShiftedConv (layers/shifted_conv.h), written once over a
// SIMD type: included by shifted_conv_avx2.cc and shifted_conv_avx512.cc
// (compiled with -mavx512f), each of which instantiates them with its own
// vector type in an unnamed namespace. Include nothing here that has inline
// code: it would be compiled for AVX-512 too.
#ifndef UMBRA_LAYERS_SHIFTED_CONV_KERNEL_H_
#define UMBRA_LAYERS_SHIFTED_CONV_KERNEL_H_

#include <cstdint>

#include "layers/register_tiles.h"
#include "layers/shifted_conv.h"

namespace umbra {
namespace layers {

// Output channels per block of the packed weights: packed[block][c][tap][r]
// holds the weight of output channel block * kShiftedConvRows + r (0 past
// the last channel).
constexpr int64_t kShiftedConvRows = 8;
// The most positions a kernel computes at once, which the input's tail
// must cover.
constexpr int64_t kShiftedConvMaxRun = 64;

// The kPositions order's kernel, pair k reading the input at offsets[k]
// from a position (ShiftedConvPairOffsets).
void ShiftedConvAvx2(const ShiftedConvShape& s, const int64_t* offsets,
                     const float* packed, const float* padded, float* out);
void ShiftedConvAvx512(const ShiftedConvShape& s, const int64_t* offsets,
                       const float* packed, const float* padded, float* out);
// The kChannels order's kernel: out_t (output pixel oy * out_width + ox by
// ShiftedConvChannelPitch floats) = the convolution of `padded` by
// `packed` (pair k's row of ShiftedConvChannelPitch floats), pair k reading
// the input at offsets[k] from the output pixel's position.
void ShiftedConvChannelsAvx2(const ShiftedConvShape& s, const int64_t* offsets,
                             const float* packed, const float* padded,
                             float* out_t);
void ShiftedConvChannelsAvx512(const ShiftedConvShape& s,
                               const int64_t* offsets, const float* packed,
                               const float* padded, float* out_t);
// The weight gradients, pair k reading the input at offsets[k] from a
// position (as ShiftedConvChannels*).
void ShiftedConvWeightGradientAvx2(const ShiftedConvShape& s,
                                   const int64_t* offsets, const float* padded,
                                   const float* out_grad, float* weight_grad);
void ShiftedConvWeightGradientAvx512(const ShiftedConvShape& s,
                                     const int64_t* offsets,
                                     const float* padded, const float* out_grad,
                                     float* weight_grad);
void ShiftedConvWeightGradientTransposedAvx2(const ShiftedConvShape& s,
                                             const int64_t* offsets,
                                             const float* padded,
                                             const float* transposed,
                                             float* weight_grad_t);
void ShiftedConvWeightGradientTransposedAvx512(const ShiftedConvShape& s,
                                               const int64_t* offsets,
                                               const float* padded,
                                               const float* transposed,
                                               float* weight_grad_t);

namespace shifted_conv_internal {

using register_tiles::AddOuterProduct;
using register_tiles::Smaller;
using register_tiles::WithCount;
using register_tiles::ZeroAll;

// acc[r][v] += packed weight r of one tap times the vector v of kVecs
// consecutive ones from x.
template <class Simd, int kRows, int kVecs>
inline __attribute__((always_inline)) void AddTap(
    const float* x, const float* packed,
    typename Simd::V (&acc)[kRows][kVecs]) {
  using V = typename Simd::V;
  V pixels[kVecs];
#pragma GCC unroll 4
  for (int v = 0; v < kVecs; ++v) pixels[v] = Simd::Load(x + v * Simd::kLanes);
#pragma GCC unroll 8
  for (int r = 0; r < kRows; ++r) {
    const V w = Simd::Broadcast(packed + r);
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v) {
      acc[r][v] = Simd::Fma(w, pixels[v], acc[r][v]);
    }
  }
}

// Where one run's kVecs vectors of positions go in an output plane: the
// lanes of vector v whose bit is set in keep[v] (positions within a row's
// out width, in the last row or before) to the plane's pixel offset[v] on,
// one after another: a plane holds its pixels in position order without
// the dropped positions, so a vector's kept lanes are consecutive pixels.
template <int kVecs>
struct RunStores {
  int64_t offset[kVecs];
  uint32_t keep[kVecs];
};

// The stores of the run of kVecs vectors of kLanes from position `first`
// (of `positions` in all).
template <int kVecs, int kLanes>
RunStores<kVecs> PlanRunStores(const ShiftedConvShape& s, int64_t first,
                               int64_t positions) {
  RunStores<kVecs> stores;
  for (int v = 0; v < kVecs; ++v) {
    const int64_t q = first + v * kLanes;
    int64_t x = q % s.row_pitch;
    stores.offset[v] = q / s.row_pitch * s.out_width + Smaller(x, s.out_width);
    uint32_t keep = 0;
    for (int lane = 0; lane < kLanes && q + lane < positions; ++lane, ++x) {
      if (x == s.row_pitch) x = 0;
      if (x < s.out_width) keep |= 1u << lane;
    }
    stores.keep[v] = keep;
  }
  return stores;
}

// A run of kRows output channels (packed rows row0 .. row0 + kRows) by
// kVecs vectors of consecutive positions starting at `in` (the position's
// pixel in plane 0): acc = the sum over the `pairs` pairs k, in wmat's row
// order, of the packed weights times the vectors at in + offsets[k]; row
// r's kept pixels stored in out + r * out_plane by `stores`, the first
// `stored_rows` rows only (the rest are past the last output channel).
template <class Simd, int kRows, int kVecs>
inline void ComputeRun(int64_t pairs, const int64_t* offsets,
                       const float* packed, const float* in,
                       const RunStores<kVecs>& stores, int64_t stored_rows,
                       float* out, int64_t out_plane) {
  using V = typename Simd::V;
  V acc[kRows][kVecs];
  ZeroAll<Simd>(acc);
  for (int64_t k = 0; k < pairs; ++k, packed += kShiftedConvRows) {
    AddTap<Simd>(in + offsets[k], packed, acc);
  }
#pragma GCC unroll 8
  for (int r = 0; r < kRows; ++r) {
    if (r == stored_rows) break;
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v) {
      Simd::StoreKept(out + r * out_plane + stores.offset[v], acc[r][v],
                      stores.keep[v]);
    }
  }
}

// Every run of `kVecs` vectors, output channels kRows at a time, straight
// into `out`.
template <class Simd, int kRows, int kVecs>
void ComputeAll(const ShiftedConvShape& s, const int64_t* offsets,
                const float* packed, const float* padded, float* out) {
  constexpr int64_t kRun = kVecs * Simd::kLanes;
  static_assert(kRun <= kShiftedConvMaxRun, "the input tail is too short");
  static_assert(kShiftedConvRows % kRows == 0, "rows split a packed block");
  const int64_t positions = ShiftedConvOutHeight(s) * s.row_pitch;
  const int64_t out_plane = ShiftedConvOutHeight(s) * s.out_width;
  const int64_t pairs = ShiftedConvPairs(s);
  const int64_t block_size = pairs * kShiftedConvRows;
  for (int64_t first = 0; first < positions; first += kRun) {
    const RunStores<kVecs> stores =
        PlanRunStores<kVecs, Simd::kLanes>(s, first, positions);
    for (int64_t m = 0; m < s.out_channels; m += kRows) {
      const int64_t block = m / kShiftedConvRows;
      const float* rows =
          packed + block * block_size + (m - block * kShiftedConvRows);
      ComputeRun<Simd, kRows, kVecs>(pairs, offsets, rows, padded + first,
                                     stores, s.out_channels - m,
                                     out + m * out_plane, out_plane);
    }
  }
}

// The run length, in vectors of kLanes: of 2 and 3 vectors, the one that
// computes the fewer positions for the planes' positions (ties: 3); 1 only
// for planes of one vector. A run of one vector has too few accumulators
// to cover the FMA's latency and loads a broadcast per FMA: on LeNet's
// conv2 it was 1.3x slower per position than runs of two.
template <class Simd>
int BestVectorsPerRun(const ShiftedConvShape& s) {
  constexpr int64_t kLanes = Simd::kLanes;
  const int64_t positions = ShiftedConvOutHeight(s) * s.row_pitch;
  if (positions <= kLanes) return 1;
  const auto computed = [&](int64_t vectors) {
    const int64_t run = vectors * kLanes;
    return (positions + run - 1) / run * run;
  };
  return computed(2) < computed(3) ? 2 : 3;
}

template <class Simd, int kRows>
void Compute(const ShiftedConvShape& s, const int64_t* offsets,
             const float* packed, const float* padded, float* out) {
  WithCount<3>(BestVectorsPerRun<Simd>(s), [&](auto vectors) {
    ComputeAll<Simd, kRows, decltype(vectors)::value>(s, offsets, packed,
                                                      padded, out);
  });
}

// kP output pixels (at positions q[p] of the planes) by kMv vectors of
// output channels: the sum over `pairs` pairs k of the pixel at q[p] +
// offsets[k] times the vectors of packed row k, stored in the pixels'
// rows of out_t (`pitch` floats apart), the first `count` pixels only.
template <class Simd, int kP, int kMv>
inline void ChannelsBlock(int64_t pairs, const int64_t* offsets,
                          const float* packed, int64_t pitch,
                          const float* padded, const int64_t (&q)[kP],
                          int count, float* out_t) {
  using V = typename Simd::V;
  V acc[kP][kMv];
  ZeroAll<Simd>(acc);
  const float* x[kP];
#pragma GCC unroll 16
  for (int p = 0; p < kP; ++p) x[p] = padded + q[p];
#pragma GCC unroll 2
  for (int64_t k = 0; k < pairs; ++k, packed += pitch) {
    AddOuterProduct<Simd>(x, offsets[k], packed, acc);
  }
#pragma GCC unroll 16
  for (int p = 0; p < kP; ++p) {
    if (p == count) break;
#pragma GCC unroll 4
    for (int v = 0; v < kMv; ++v) {
      Simd::StoreUnaligned(out_t + p * pitch + v * Simd::kLanes, acc[p][v]);
    }
  }
}

// The pixels per block of kChannels for a plane of `pixels`: kMost, or
// kMost - 1 where that computes fewer pixels in all (a plane's last block
// repeats its last pixel to fill its kMost): on the ResNet's 7x7 planes 5
// computes 50 pixels where 6 computes 54.
template <int kMost>
int BestPixelsPerBlock(int64_t pixels) {
  const auto computed = [&](int64_t per_block) {
    return (pixels + per_block - 1) / per_block * per_block;
  };
  return kMost > 1 && computed(kMost - 1) < computed(kMost) ? kMost - 1 : kMost;
}

// The kChannels order: output channels kMaxMv vectors at a time (fewer in
// the last group), each group by up to kAccumulators / (its vectors) output
// pixels at a time (BestPixelsPerBlock), at most 8: their input pointers
// stay in registers (with 12, LeNet's conv2 input gradient was 1.03x
// slower).
template <class Simd, int kAccumulators, int kMaxMv>
void ComputeChannels(const ShiftedConvShape& s, const int64_t* offsets,
                     const float* packed, const float* padded, float* out_t) {
  const int64_t pitch = ShiftedConvChannelPitch(s);
  const int64_t vectors = pitch / Simd::kLanes;
  const int64_t out_w = ShiftedConvOutWidth(s);
  const int64_t pixels = ShiftedConvOutHeight(s) * out_w;
  const int64_t pairs = ShiftedConvPairs(s);
  for (int64_t v0 = 0; v0 < vectors; v0 += kMaxMv) {
    WithCount<kMaxMv>(Smaller(kMaxMv, vectors - v0), [&](auto group) {
      constexpr int kMv = decltype(group)::value;
      constexpr int kMostP = kAccumulators / kMv < 8 ? kAccumulators / kMv : 8;
      const auto blocks = [&](auto per_block) {
        constexpr int kP = decltype(per_block)::value;
        for (int64_t p0 = 0; p0 < pixels; p0 += kP) {
          // Past the last pixel, the last one again (computed, not stored).
          int64_t q[kP];
          for (int p = 0; p < kP; ++p) {
            const int64_t pixel = Smaller(p0 + p, pixels - 1);
            q[p] = pixel / out_w * s.row_pitch + pixel % out_w;
          }
          ChannelsBlock<Simd, kP, kMv>(pairs, offsets,
                                       packed + v0 * Simd::kLanes, pitch,
                                       padded, q, int(Smaller(kP, pixels - p0)),
                                       out_t + p0 * pitch + v0 * Simd::kLanes);
        }
      };
      if (BestPixelsPerBlock<kMostP>(pixels) == kMostP) {
        blocks(register_tiles::Count<kMostP>());
      } else {
        blocks(register_tiles::Count<kMostP - 1>());
      }
    });
  }
}

// The weight gradient of kM output channels from m0 by kK (channel, tap)
// pairs from k0 (the flat index of wmat's row): the sums over positions of
// out_grad's row times the input plane at the pair's shift, each a vector
// of partial sums until the end.
template <class Simd, int kM, int kK>
void WeightGradientBlock(const ShiftedConvShape& s, const int64_t* offsets,
                         const float* padded, const float* out_grad, int64_t m0,
                         int64_t k0, float* weight_grad) {
  using V = typename Simd::V;
  constexpr int64_t kLanes = Simd::kLanes;
  const int64_t taps = s.kernel_y * s.kernel_x;
  const int64_t pitch = ShiftedConvGradientPitch(s);
  const float* x[kK];
#pragma GCC unroll 8
  for (int t = 0; t < kK; ++t) x[t] = padded + offsets[k0 + t];
  const float* g = out_grad + m0 * pitch;
  V acc[kM][kK];
  ZeroAll<Simd>(acc);
  const int64_t positions = ShiftedConvOutHeight(s) * s.row_pitch;
  for (int64_t p = 0; p < positions; p += kLanes) {
    V grads[kM];
#pragma GCC unroll 8
    for (int r = 0; r < kM; ++r) grads[r] = Simd::Load(g + r * pitch + p);
#pragma GCC unroll 8
    for (int t = 0; t < kK; ++t) {
      const V pixels = Simd::Load(x[t] + p);
#pragma GCC unroll 8
      for (int r = 0; r < kM; ++r) {
        acc[r][t] = Simd::Fma(grads[r], pixels, acc[r][t]);
      }
    }
  }
  const int64_t row = s.channels * taps;
#pragma GCC unroll 8
  for (int r = 0; r < kM; ++r) {
#pragma GCC unroll 8
    for (int t = 0; t < kK; ++t) {
      weight_grad[(m0 + r) * row + k0 + t] += Simd::Sum(acc[r][t]);
    }
  }
}

// weight_grad += the weight gradient, in blocks of kM output channels by
// kK pairs.
template <class Simd, int kM, int kK>
void WeightGradient(const ShiftedConvShape& s, const int64_t* offsets,
                    const float* padded, const float* out_grad,
                    float* weight_grad) {
  const int64_t pairs = ShiftedConvPairs(s);
  for (int64_t m0 = 0; m0 < s.out_channels; m0 += kM) {
    WithCount<kM>(Smaller(kM, s.out_channels - m0), [&](auto rows) {
      for (int64_t k0 = 0; k0 < pairs; k0 += kK) {
        WithCount<kK>(Smaller(kK, pairs - k0), [&](auto cols) {
          WeightGradientBlock<Simd, decltype(rows)::value,
                              decltype(cols)::value>(
              s, offsets, padded, out_grad, m0, k0, weight_grad);
        });
      }
    });
  }
}

// The transposed weight gradient of kK (channel, tap) pairs from k0 by kMv
// vectors of output channels from vector v0: over every position, the
// pair's input pixel times the position's output gradients.
template <class Simd, int kK, int kMv>
void TransposedBlock(const ShiftedConvShape& s, const int64_t* offsets,
                     const float* padded, const float* transposed, int64_t k0,
                     int64_t v0, float* weight_grad_t) {
  using V = typename Simd::V;
  constexpr int64_t kLanes = Simd::kLanes;
  const int64_t pitch = ShiftedConvChannelPitch(s);
  const float* x[kK];
#pragma GCC unroll 24
  for (int t = 0; t < kK; ++t) x[t] = padded + offsets[k0 + t];
  V acc[kK][kMv];
#pragma GCC unroll 24
  for (int t = 0; t < kK; ++t) {
#pragma GCC unroll 4
    for (int v = 0; v < kMv; ++v) {
      acc[t][v] =
          Simd::Load(weight_grad_t + (k0 + t) * pitch + (v0 + v) * kLanes);
    }
  }
  // The kept positions only: past each row's end the gradient is 0.
  const int64_t out_h = ShiftedConvOutHeight(s), out_w = ShiftedConvOutWidth(s);
  for (int64_t row = 0; row < out_h * s.row_pitch; row += s.row_pitch) {
    const float* g = transposed + row * pitch + v0 * kLanes;
    for (int64_t q = row; q < row + out_w; ++q, g += pitch) {
      AddOuterProduct<Simd>(x, q, g, acc);
    }
  }
#pragma GCC unroll 24
  for (int t = 0; t < kK; ++t) {
#pragma GCC unroll 4
    for (int v = 0; v < kMv; ++v) {
      Simd::StoreUnaligned(weight_grad_t + (k0 + t) * pitch + (v0 + v) * kLanes,
                           acc[t][v]);
    }
  }
}

// weight_grad_t += the transposed weight gradient, in blocks of up to kMv
// vectors of output channels by kAccumulators / (the block's vectors)
// pairs.
template <class Simd, int kAccumulators, int kMv>
void WeightGradientTransposed(const ShiftedConvShape& s, const int64_t* offsets,
                              const float* padded, const float* transposed,
                              float* weight_grad_t) {
  const int64_t vectors = ShiftedConvChannelPitch(s) / Simd::kLanes;
  const int64_t pairs = ShiftedConvPairs(s);
  for (int64_t v0 = 0; v0 < vectors; v0 += kMv) {
    WithCount<kMv>(Smaller(kMv, vectors - v0), [&](auto vecs) {
      constexpr int kVecs = decltype(vecs)::value;
      constexpr int kK = kAccumulators / kVecs;
      for (int64_t k0 = 0; k0 < pairs; k0 += kK) {
        WithCount<kK>(Smaller(kK, pairs - k0), [&](auto cols) {
          TransposedBlock<Simd, decltype(cols)::value, kVecs>(
              s, offsets, padded, transposed, k0, v0, weight_grad_t);
        });
      }
    });
  }
}

}  // namespace shifted_conv_internal
}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_SHIFTED_CONV_KERNEL_H_
