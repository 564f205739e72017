// CPU kernels of spatial_ops.h, instantiated for float and double.
#include "layers/spatial_ops.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "layers/float_vectors.h"
#include "layers/matrix_transpose.h"
#include "layers/parallel_ranges.h"
#include "tensor/threads.h"

namespace umbra {
namespace layers {
namespace {

// Work (elements touched) below which a kernel stays on the calling thread.
constexpr index_t kMinParallelWork = index_t(1) << 15;

// ParallelRanges over `count` items of `work_per_item` elements each.
template <typename Fn>
void ForRanges(index_t count, index_t work_per_item, const Fn& fn) {
  ParallelRanges(count, count * work_per_item, kMinParallelWork, fn);
}

// The outputs o in [lo, hi) of a row whose input index o * stride + offset
// lies in [0, size), clipped to [0, count).
void ValidRange(index_t offset, index_t stride, index_t size, index_t count,
                index_t* lo, index_t* hi) {
  *lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  *hi = size - offset <= 0 ? 0 : (size - offset + stride - 1) / stride;
  *lo = std::min(*lo, count);
  *hi = std::max(*lo, std::min(*hi, count));
}

// Elements per block of the row loops below.
constexpr index_t kBlock = 8;

// std::max(a, b) lane by lane: b where a < b, else a (so a NaN or a tie of
// signed zeros gives what std::max gives).
template <typename V>
inline V MaxLanes(V a, V b) {
  return a < b ? b : a;
}

// The stride-2 rows below in blocks of V's lanes from output o, while the
// input pixel after a block's last lies in the row too (output o + lanes
// exists): a block reads and writes the pixels between its outputs, so it
// must not cross the row's end. Returns the first output left.
template <typename V>
index_t CopyEvenBlocks(const float* s, index_t o, index_t n, float* d) {
  constexpr index_t kLanes = sizeof(V) / sizeof(float);
  for (; o + kLanes < n; o += kLanes) {
    StoreFloats(d + o, EvenLanes(LoadFloats<V>(s + 2 * o),
                                 LoadFloats<V>(s + 2 * o + kLanes)));
  }
  return o;
}
// Adds 0 to the pixels between the outputs, which leaves them as they
// were (but for -0, which becomes +0).
template <typename V>
index_t AddEvenBlocks(const float* d, index_t o, index_t n, float* s) {
  constexpr index_t kLanes = sizeof(V) / sizeof(float);
  for (; o + kLanes < n; o += kLanes) {
    V low, high;  // d's lanes at the even lanes, zeros between
    InterleaveLanes(LoadFloats<V>(d + o), V{}, &low, &high);
    StoreFloats(s + 2 * o, LoadFloats<V>(s + 2 * o) + low);
    StoreFloats(s + 2 * o + kLanes, LoadFloats<V>(s + 2 * o + kLanes) + high);
  }
  return o;
}

// The first output that CopyRow and AddRow below leave to their scalar
// loop: 0, or past the blocks of a float row of stride 2.
template <typename DType>
inline index_t CopyBlocks(const DType* s, index_t stride, index_t n, DType* d) {
  if constexpr (std::is_same<DType, float>::value) {
    if (stride == 2) {
      return CopyEvenBlocks<Floats4>(s, CopyEvenBlocks<Floats8>(s, 0, n, d), n,
                                     d);
    }
  }
  return 0;
}
template <typename DType>
inline index_t AddBlocks(const DType* d, index_t stride, index_t n, DType* s) {
  if constexpr (std::is_same<DType, float>::value) {
    if (stride == 2) {
      return AddEvenBlocks<Floats4>(d, AddEvenBlocks<Floats8>(d, 0, n, s), n,
                                    s);
    }
  }
  return 0;
}

// d[o] = s[o * stride] for o in [0, n); restrict-qualified so that the
// stride-1 case vectorises.
template <typename DType>
inline void CopyRow(const DType* __restrict s, index_t stride, index_t n,
                    DType* __restrict d) {
  if (stride == 1) {
    index_t o = 0;
    // Fixed-size blocks vectorise at -O2 too; rows are often short (8).
    for (; o + kBlock <= n; o += kBlock) {
      for (index_t k = 0; k < kBlock; ++k) d[o + k] = s[o + k];
    }
    for (; o < n; ++o) d[o] = s[o];
  } else {
    for (index_t o = CopyBlocks(s, stride, n, d); o < n; ++o) {
      d[o] = s[o * stride];
    }
  }
}
// s[o * stride] += d[o] for o in [0, n).
template <typename DType>
inline void AddRow(const DType* __restrict d, index_t stride, index_t n,
                   DType* __restrict s) {
  if (stride == 1) {
    index_t o = 0;
    for (; o + kBlock <= n; o += kBlock) {
      for (index_t k = 0; k < kBlock; ++k) s[o + k] += d[o + k];
    }
    for (; o < n; ++o) s[o] += d[o];
  } else {
    for (index_t o = AddBlocks(d, stride, n, s); o < n; ++o) {
      s[o * stride] += d[o];
    }
  }
}

// Whether the patch rows of a tap are one shifted copy of the image plane:
// with unit strides and as many output columns as input columns ("same"
// convolutions), output row oy + 1 reads the input row after oy's.
inline bool TapIsShiftedPlane(const ConvGeometry& g) {
  return g.stride_y == 1 && g.stride_x == 1 && g.out_width == g.width;
}

// The patch row of tap (i, j) (out_height * out_width elements) from image
// plane `img` when TapIsShiftedPlane(g): one block copy of the valid part,
// zeros around it, and zeros over the columns of the rows in between that
// the block copy took from the neighbouring input row. Short image rows
// (often 8 to 32 elements) would otherwise cost a copy call each.
template <typename DType>
void CopyShiftedPlane(const ConvGeometry& g, index_t i, index_t j,
                      const DType* img, DType* row) {
  const index_t oh = g.out_height, ow = g.out_width;
  const index_t y_offset = i * g.dilate_y - g.pad_y;
  const index_t x_offset = j * g.dilate_x - g.pad_x;
  index_t lo, hi, oy0, oy1;
  ValidRange(x_offset, 1, g.width, ow, &lo, &hi);
  ValidRange(y_offset, 1, g.height, oh, &oy0, &oy1);
  if (lo == hi || oy0 == oy1) {
    std::fill(row, row + oh * ow, DType(0));
    return;
  }
  // Output element p reads input element p + shift; [first, last) is the
  // span from the first valid output element to the last.
  const index_t shift = y_offset * g.width + x_offset;
  const index_t first = oy0 * ow + lo, last = (oy1 - 1) * ow + hi;
  std::fill(row, row + first, DType(0));
  std::memcpy(row + first, img + first + shift, sizeof(DType) * (last - first));
  std::fill(row + last, row + oh * ow, DType(0));
  for (index_t oy = oy0; oy < oy1; ++oy) {
    DType* r = row + oy * ow;
    for (index_t ox = 0; ox < lo; ++ox) r[ox] = DType(0);
    for (index_t ox = hi; ox < ow; ++ox) r[ox] = DType(0);
  }
}

// The adjoint of CopyShiftedPlane: adds the patch row of tap (i, j) into
// image plane `img` when TapIsShiftedPlane(g), as one long shifted add. The
// row's entries that fall outside the image (the padding: the columns a
// block copy would take from a neighbouring input row) are first set to
// zero, so that the add leaves those pixels as they were.
template <typename DType>
void AddShiftedPlane(const ConvGeometry& g, index_t i, index_t j, DType* row,
                     DType* img) {
  const index_t ow = g.out_width;
  const index_t y_offset = i * g.dilate_y - g.pad_y;
  const index_t x_offset = j * g.dilate_x - g.pad_x;
  index_t lo, hi, oy0, oy1;
  ValidRange(x_offset, 1, g.width, ow, &lo, &hi);
  ValidRange(y_offset, 1, g.height, g.out_height, &oy0, &oy1);
  if (lo == hi || oy0 == oy1) return;
  for (index_t oy = oy0; oy < oy1; ++oy) {
    DType* r = row + oy * ow;
    for (index_t ox = 0; ox < lo; ++ox) r[ox] = DType(0);
    for (index_t ox = hi; ox < ow; ++ox) r[ox] = DType(0);
  }
  const index_t shift = y_offset * g.width + x_offset;
  const index_t first = oy0 * ow + lo, last = (oy1 - 1) * ow + hi;
  AddRow(row + first, 1, last - first, img + first + shift);
}

// Copies (kAdd false) image plane `img` into the rows of its channel in the
// patch matrix, or adds (kAdd true) those rows back into the plane.
template <bool kAdd, typename DType>
void WalkPlane(const ConvGeometry& g, index_t c, DType* img, DType* col,
               index_t ld) {
  const index_t oh = g.out_height, ow = g.out_width;
  const bool shifted_plane = TapIsShiftedPlane(g);
  for (index_t i = 0; i < g.kernel_y; ++i) {
    for (index_t j = 0; j < g.kernel_x; ++j) {
      DType* rows = col + ((c * g.kernel_y + i) * g.kernel_x + j) * ld;
      if (shifted_plane) {
        if (kAdd) {
          AddShiftedPlane(g, i, j, rows, img);
        } else {
          CopyShiftedPlane(g, i, j, img, rows);
        }
        continue;
      }
      const index_t x0 = j * g.dilate_x - g.pad_x;
      index_t lo, hi;
      ValidRange(x0, g.stride_x, g.width, ow, &lo, &hi);
      for (index_t oy = 0; oy < oh; ++oy) {
        DType* d = rows + oy * ow;
        const index_t y = oy * g.stride_y - g.pad_y + i * g.dilate_y;
        if (y < 0 || y >= g.height) {
          if (!kAdd) std::fill(d, d + ow, DType(0));
          continue;
        }
        // Input pixel of output lo: row y, column lo * stride_x + x0 >= 0.
        DType* s = img + y * g.width + lo * g.stride_x + x0;
        if (kAdd) {
          AddRow(d + lo, g.stride_x, hi - lo, s);
        } else {
          for (index_t ox = 0; ox < lo; ++ox) d[ox] = DType(0);
          CopyRow(s, g.stride_x, hi - lo, d + lo);
          for (index_t ox = hi; ox < ow; ++ox) d[ox] = DType(0);
        }
      }
    }
  }
}

}  // namespace

template <typename DType>
void Im2Col(const ConvGeometry& g, Tensor<cpu, 4, DType> images,
            Tensor<cpu, 2, DType> col) {
  const index_t num = images.size(0), plane = g.height * g.width;
  const index_t ld = col.stride_;
  ForRanges(num * g.channels, g.kernel_y * g.kernel_x * g.OutPixels(),
            [&](index_t begin, index_t end) {
              for (index_t p = begin; p < end; ++p) {
                const index_t n = p / g.channels, c = p % g.channels;
                WalkPlane<false>(g, c, images.dptr_ + p * plane,
                                 col.dptr_ + n * g.OutPixels(), ld);
              }
            });
}

template <typename DType>
void Col2Im(const ConvGeometry& g, Tensor<cpu, 2, DType> col,
            Tensor<cpu, 4, DType> images) {
  const index_t num = images.size(0), plane = g.height * g.width;
  const index_t ld = col.stride_;
  ForRanges(num * g.channels, g.kernel_y * g.kernel_x * g.OutPixels(),
            [&](index_t begin, index_t end) {
              for (index_t p = begin; p < end; ++p) {
                const index_t n = p / g.channels, c = p % g.channels;
                DType* img = images.dptr_ + p * plane;
                std::fill(img, img + plane, DType(0));
                WalkPlane<true>(g, c, img, col.dptr_ + n * g.OutPixels(), ld);
              }
            });
}

index_t PooledSize(index_t size, index_t kernel, index_t stride, index_t pad) {
  const index_t padded = size + 2 * pad;
  index_t out = std::min(padded - kernel + stride - 1, padded - 1) / stride + 1;
  if (pad > 0 && (out - 1) * stride >= size + pad) --out;
  return out;
}

namespace {

// The window of output (oy, ox) clipped to the image: rows [y0, y1),
// columns [x0, x1).
struct Clipped {
  index_t y0, y1, x0, x1;
};
inline Clipped ClipWindow(const PoolWindow& w, index_t height, index_t width,
                          index_t oy, index_t ox) {
  const index_t ys = oy * w.stride_y - w.pad_y;
  const index_t xs = ox * w.stride_x - w.pad_x;
  return {std::max<index_t>(ys, 0), std::min(ys + w.kernel_y, height),
          std::max<index_t>(xs, 0), std::min(xs + w.kernel_x, width)};
}

// Whether the windows are 2x2 with stride 2 and no padding and tile the
// plane exactly (even height and width): the common case, with its own
// loops in which every input element belongs to exactly one window.
inline bool IsExact2x2(const PoolWindow& w, index_t height, index_t width) {
  return w.kernel_y == 2 && w.kernel_x == 2 && w.stride_y == 2 &&
         w.stride_x == 2 && w.pad_y == 0 && w.pad_x == 0 && height % 2 == 0 &&
         width % 2 == 0;
}

// Outputs [o, ow) of one output row of exact 2x2 windows over input rows r0
// and r1, in blocks of V's lanes while a whole block fits: the scalar loop's
// operations in its order, so its results. Returns the first output left.
template <typename V>
index_t Pool2x2ForwardBlocks(PoolKind kind, float scale, const float* r0,
                             const float* r1, index_t o, index_t ow, float* d) {
  constexpr index_t kLanes = sizeof(V) / sizeof(float);
  for (; o + kLanes <= ow; o += kLanes) {
    const V a0 = LoadFloats<V>(r0 + 2 * o),
            a1 = LoadFloats<V>(r0 + 2 * o + kLanes);
    const V b0 = LoadFloats<V>(r1 + 2 * o),
            b1 = LoadFloats<V>(r1 + 2 * o + kLanes);
    const V top_left = EvenLanes(a0, a1), top_right = OddLanes(a0, a1);
    const V bottom_left = EvenLanes(b0, b1), bottom_right = OddLanes(b0, b1);
    if (kind == PoolKind::kMax) {
      StoreFloats(d + o, MaxLanes(MaxLanes(top_left, top_right),
                                  MaxLanes(bottom_left, bottom_right)));
    } else {
      StoreFloats(d + o,
                  (top_left + top_right + bottom_left + bottom_right) * scale);
    }
  }
  return o;
}

// Inputs [0, 2 lanes) of input row s in the gradient of exact 2x2 max
// windows, given their windows' maxima and output gradients each twice
// (InterleaveLanes of a vector with itself): the gradient where the input
// equals its window's maximum, else 0, as the scalar loop.
template <typename V>
inline void StoreMaxGradientBlock(const float* s, V m_low, V m_high, V g_low,
                                  V g_high, float* d) {
  constexpr index_t kLanes = sizeof(V) / sizeof(float);
  const V zero = {};
  StoreFloats(d, LoadFloats<V>(s) == m_low ? g_low : zero);
  StoreFloats(d + kLanes, LoadFloats<V>(s + kLanes) == m_high ? g_high : zero);
}

// The input gradients of outputs [o, ow) of one output row of exact 2x2
// windows (input rows s0, s1 into gradient rows d0, d1), in blocks of V's
// lanes as Pool2x2ForwardBlocks. Returns the first output left.
template <typename V>
index_t Pool2x2BackwardBlocks(PoolKind kind, float scale, const float* s0,
                              const float* s1, const float* m, const float* g,
                              index_t o, index_t ow, float* d0, float* d1) {
  constexpr index_t kLanes = sizeof(V) / sizeof(float);
  for (; o + kLanes <= ow; o += kLanes) {
    V g_low, g_high;
    if (kind == PoolKind::kMax) {
      V m_low, m_high;
      const V maxima = LoadFloats<V>(m + o), grads = LoadFloats<V>(g + o);
      InterleaveLanes(maxima, maxima, &m_low, &m_high);
      InterleaveLanes(grads, grads, &g_low, &g_high);
      StoreMaxGradientBlock(s0 + 2 * o, m_low, m_high, g_low, g_high,
                            d0 + 2 * o);
      StoreMaxGradientBlock(s1 + 2 * o, m_low, m_high, g_low, g_high,
                            d1 + 2 * o);
    } else {
      const V scaled = LoadFloats<V>(g + o) * scale;
      InterleaveLanes(scaled, scaled, &g_low, &g_high);
      for (float* d : {d0 + 2 * o, d1 + 2 * o}) {
        StoreFloats(d, g_low);
        StoreFloats(d + kLanes, g_high);
      }
    }
  }
  return o;
}

// The first output of a row that Pool2x2Forward and Pool2x2Backward leave to
// their scalar loops: 0, or past the blocks of a float row.
template <typename DType>
inline index_t Pool2x2ForwardPackets(PoolKind kind, DType scale,
                                     const DType* r0, const DType* r1,
                                     index_t ow, DType* d) {
  if constexpr (std::is_same<DType, float>::value) {
    return Pool2x2ForwardBlocks<Floats4>(
        kind, scale, r0, r1,
        Pool2x2ForwardBlocks<Floats8>(kind, scale, r0, r1, 0, ow, d), ow, d);
  }
  return 0;
}
template <typename DType>
inline index_t Pool2x2BackwardPackets(PoolKind kind, DType scale,
                                      const DType* s0, const DType* s1,
                                      const DType* m, const DType* g,
                                      index_t ow, DType* d0, DType* d1) {
  if constexpr (std::is_same<DType, float>::value) {
    return Pool2x2BackwardBlocks<Floats4>(
        kind, scale, s0, s1, m, g,
        Pool2x2BackwardBlocks<Floats8>(kind, scale, s0, s1, m, g, 0, ow, d0,
                                       d1),
        ow, d0, d1);
  }
  return 0;
}

template <typename DType>
void Pool2x2Forward(PoolKind kind, const DType* __restrict src, index_t height,
                    index_t width, DType* __restrict dst) {
  const index_t ow = width / 2;
  const DType scale = kind == PoolKind::kAvg ? DType(0.25) : DType(1);
  for (index_t oy = 0; oy < height / 2; ++oy) {
    const DType* r0 = src + 2 * oy * width;
    const DType* r1 = r0 + width;
    DType* d = dst + oy * ow;
    index_t ox = Pool2x2ForwardPackets(kind, scale, r0, r1, ow, d);
    if (kind == PoolKind::kMax) {
      for (; ox < ow; ++ox) {
        const DType a = std::max(r0[2 * ox], r0[2 * ox + 1]);
        const DType b = std::max(r1[2 * ox], r1[2 * ox + 1]);
        d[ox] = std::max(a, b);
      }
    } else {
      for (; ox < ow; ++ox) {
        d[ox] =
            (r0[2 * ox] + r0[2 * ox + 1] + r1[2 * ox] + r1[2 * ox + 1]) * scale;
      }
    }
  }
}

template <typename DType>
void Pool2x2Backward(PoolKind kind, const DType* __restrict src,
                     const DType* __restrict pooled,
                     const DType* __restrict grad, index_t height,
                     index_t width, DType* __restrict dst) {
  const index_t ow = width / 2;
  const DType scale = kind == PoolKind::kAvg ? DType(0.25) : DType(1);
  for (index_t oy = 0; oy < height / 2; ++oy) {
    const DType* s0 = src + 2 * oy * width;
    const DType* s1 = s0 + width;
    const DType* m = pooled + oy * ow;
    const DType* g = grad + oy * ow;
    DType* d0 = dst + 2 * oy * width;
    DType* d1 = d0 + width;
    index_t ox = Pool2x2BackwardPackets(kind, scale, s0, s1, m, g, ow, d0, d1);
    if (kind == PoolKind::kMax) {
      for (; ox < ow; ++ox) {
        const DType mx = m[ox], gx = g[ox];
        d0[2 * ox] = s0[2 * ox] == mx ? gx : DType(0);
        d0[2 * ox + 1] = s0[2 * ox + 1] == mx ? gx : DType(0);
        d1[2 * ox] = s1[2 * ox] == mx ? gx : DType(0);
        d1[2 * ox + 1] = s1[2 * ox + 1] == mx ? gx : DType(0);
      }
    } else {
      for (; ox < ow; ++ox) {
        const DType gx = g[ox] * scale;
        d0[2 * ox] = d0[2 * ox + 1] = d1[2 * ox] = d1[2 * ox + 1] = gx;
      }
    }
  }
}

// Windows other than exact 2x2 over float planes, 8 planes at a time in
// vectors of the 8 planes' same element: each plane is transposed into the
// lanes (`interleaved` holds those copies), the scalar window loop runs on
// whole vectors, in its order (so with its results), and the result is
// transposed back. The scalar loops are mostly their own overhead: on
// cxxnet's MNIST_CONV (3 x 3 windows of stride 2 over 100 x 32 planes of
// 14 x 14) they took 0.25-0.38 ms forward and 1.4-1.8 ms backward, these
// 0.16-0.19 and 0.29-0.33 ms (//tools:time, 2 threads).

// Pooling of 8 planes (consecutive, h x wd in, oh x ow out).
void PoolForward8Planes(PoolKind kind, float scale, const PoolWindow& w,
                        const float* src, index_t h, index_t wd, index_t oh,
                        index_t ow, std::vector<float>* interleaved,
                        float* dst) {
  constexpr index_t kPlanes = 8;
  const index_t in_size = h * wd, out_size = oh * ow;
  interleaved->resize(kPlanes * (in_size + out_size));
  float* src_t = interleaved->data();
  float* dst_t = src_t + kPlanes * in_size;
  TransposeMatrix(kPlanes, in_size, src, in_size, src_t, kPlanes);
  const Floats8 lowest = Floats8{} + std::numeric_limits<float>::lowest();
  for (index_t oy = 0; oy < oh; ++oy) {
    for (index_t ox = 0; ox < ow; ++ox) {
      const Clipped c = ClipWindow(w, h, wd, oy, ox);
      Floats8 r = kind == PoolKind::kMax ? lowest : Floats8{};
      for (index_t y = c.y0; y < c.y1; ++y) {
        for (index_t x = c.x0; x < c.x1; ++x) {
          const Floats8 v = LoadFloats<Floats8>(src_t + (y * wd + x) * kPlanes);
          // std::max(r, v) lane by lane, or the sum.
          r = kind == PoolKind::kMax ? (r < v ? v : r) : r + v;
        }
      }
      if (kind != PoolKind::kMax) r *= scale;
      StoreFloats(dst_t + (oy * ow + ox) * kPlanes, r);
    }
  }
  TransposeMatrix(out_size, kPlanes, dst_t, kPlanes, dst, out_size);
}

// The input gradients of 8 planes (as PoolForward8Planes's).
void PoolBackward8Planes(PoolKind kind, float scale, const PoolWindow& w,
                         const float* src, const float* pooled,
                         const float* grad, index_t h, index_t wd, index_t oh,
                         index_t ow, std::vector<float>* interleaved,
                         float* dst) {
  constexpr index_t kPlanes = 8;
  const index_t in_size = h * wd, out_size = oh * ow;
  interleaved->resize(kPlanes * (2 * in_size + 2 * out_size));
  float* src_t = interleaved->data();
  float* dst_t = src_t + kPlanes * in_size;
  float* pooled_t = dst_t + kPlanes * in_size;
  float* grad_t = pooled_t + kPlanes * out_size;
  TransposeMatrix(kPlanes, in_size, src, in_size, src_t, kPlanes);
  TransposeMatrix(kPlanes, out_size, pooled, out_size, pooled_t, kPlanes);
  TransposeMatrix(kPlanes, out_size, grad, out_size, grad_t, kPlanes);
  std::fill(dst_t, dst_t + kPlanes * in_size, 0.0f);
  const Floats8 zero = {};
  for (index_t oy = 0; oy < oh; ++oy) {
    for (index_t ox = 0; ox < ow; ++ox) {
      const Clipped c = ClipWindow(w, h, wd, oy, ox);
      const index_t o = (oy * ow + ox) * kPlanes;
      const Floats8 g = LoadFloats<Floats8>(grad_t + o);
      const Floats8 m = LoadFloats<Floats8>(pooled_t + o);
      const Floats8 gs = g * scale;
      for (index_t y = c.y0; y < c.y1; ++y) {
        for (index_t x = c.x0; x < c.x1; ++x) {
          const index_t i = (y * wd + x) * kPlanes;
          const Floats8 add =
              kind == PoolKind::kMax
                  ? (LoadFloats<Floats8>(src_t + i) == m ? g : zero)
                  : gs;
          StoreFloats(dst_t + i, LoadFloats<Floats8>(dst_t + i) + add);
        }
      }
    }
  }
  TransposeMatrix(in_size, kPlanes, dst_t, kPlanes, dst, in_size);
}

}  // namespace

template <typename DType>
void PoolForward(PoolKind kind, const PoolWindow& w, Tensor<cpu, 4, DType> in,
                 Tensor<cpu, 4, DType> out) {
  const index_t h = in.size(2), wd = in.size(3);
  const index_t oh = out.size(2), ow = out.size(3);
  const DType scale = WindowScale<DType>(kind, w);
  const bool exact_2x2 = IsExact2x2(w, h, wd);
  ForRanges(in.size(0) * in.size(1), h * wd, [&](index_t begin, index_t end) {
    index_t p = begin;
    if constexpr (std::is_same<DType, float>::value) {
      std::vector<float> interleaved;
      for (; !exact_2x2 && p + 8 <= end; p += 8) {
        PoolForward8Planes(kind, scale, w, in.dptr_ + p * h * wd, h, wd, oh, ow,
                           &interleaved, out.dptr_ + p * oh * ow);
      }
    }
    for (; p < end; ++p) {
      const DType* src = in.dptr_ + p * h * wd;
      DType* dst = out.dptr_ + p * oh * ow;
      if (exact_2x2) {
        Pool2x2Forward(kind, src, h, wd, dst);
        continue;
      }
      for (index_t oy = 0; oy < oh; ++oy) {
        for (index_t ox = 0; ox < ow; ++ox) {
          const Clipped c = ClipWindow(w, h, wd, oy, ox);
          DType r;
          if (kind == PoolKind::kMax) {
            r = std::numeric_limits<DType>::lowest();
            for (index_t y = c.y0; y < c.y1; ++y) {
              for (index_t x = c.x0; x < c.x1; ++x) {
                r = std::max(r, src[y * wd + x]);
              }
            }
          } else {
            r = DType(0);
            for (index_t y = c.y0; y < c.y1; ++y) {
              for (index_t x = c.x0; x < c.x1; ++x) r += src[y * wd + x];
            }
            r *= scale;
          }
          dst[oy * ow + ox] = r;
        }
      }
    }
  });
}

template <typename DType>
void PoolBackward(PoolKind kind, const PoolWindow& w, Tensor<cpu, 4, DType> in,
                  Tensor<cpu, 4, DType> out, Tensor<cpu, 4, DType> out_grad,
                  Tensor<cpu, 4, DType> in_grad) {
  const index_t h = in.size(2), wd = in.size(3);
  const index_t oh = out.size(2), ow = out.size(3);
  const DType scale = WindowScale<DType>(kind, w);
  const bool exact_2x2 = IsExact2x2(w, h, wd);
  ForRanges(in.size(0) * in.size(1), h * wd, [&](index_t begin, index_t end) {
    index_t p = begin;
    if constexpr (std::is_same<DType, float>::value) {
      std::vector<float> interleaved;
      for (; !exact_2x2 && p + 8 <= end; p += 8) {
        PoolBackward8Planes(kind, scale, w, in.dptr_ + p * h * wd,
                            out.dptr_ + p * oh * ow,
                            out_grad.dptr_ + p * oh * ow, h, wd, oh, ow,
                            &interleaved, in_grad.dptr_ + p * h * wd);
      }
    }
    for (; p < end; ++p) {
      const DType* src = in.dptr_ + p * h * wd;
      const DType* pooled = out.dptr_ + p * oh * ow;
      const DType* grad = out_grad.dptr_ + p * oh * ow;
      DType* dst = in_grad.dptr_ + p * h * wd;
      if (exact_2x2) {
        Pool2x2Backward(kind, src, pooled, grad, h, wd, dst);
        continue;
      }
      std::fill(dst, dst + h * wd, DType(0));
      for (index_t oy = 0; oy < oh; ++oy) {
        for (index_t ox = 0; ox < ow; ++ox) {
          const Clipped c = ClipWindow(w, h, wd, oy, ox);
          const DType g = grad[oy * ow + ox];
          if (kind == PoolKind::kMax) {
            const DType m = pooled[oy * ow + ox];
            for (index_t y = c.y0; y < c.y1; ++y) {
              for (index_t x = c.x0; x < c.x1; ++x) {
                if (src[y * wd + x] == m) dst[y * wd + x] += g;
              }
            }
          } else {
            const DType gs = g * scale;
            for (index_t y = c.y0; y < c.y1; ++y) {
              for (index_t x = c.x0; x < c.x1; ++x) dst[y * wd + x] += gs;
            }
          }
        }
      }
    }
  });
}

#define UMBRA_SPATIAL_OPS_INSTANTIATE(DType)                              \
  template void Im2Col<DType>(const ConvGeometry&, Tensor<cpu, 4, DType>, \
                              Tensor<cpu, 2, DType>);                     \
  template void Col2Im<DType>(const ConvGeometry&, Tensor<cpu, 2, DType>, \
                              Tensor<cpu, 4, DType>);                     \
  template void PoolForward<DType>(PoolKind, const PoolWindow&,           \
                                   Tensor<cpu, 4, DType>,                 \
                                   Tensor<cpu, 4, DType>);                \
  template void PoolBackward<DType>(                                      \
      PoolKind, const PoolWindow&, Tensor<cpu, 4, DType>,                 \
      Tensor<cpu, 4, DType>, Tensor<cpu, 4, DType>, Tensor<cpu, 4, DType>)

UMBRA_SPATIAL_OPS_INSTANTIATE(float);
UMBRA_SPATIAL_OPS_INSTANTIATE(double);

#undef UMBRA_SPATIAL_OPS_INSTANTIATE

}  // namespace layers
}  // namespace umbra
