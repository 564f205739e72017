#include "layers/shifted_conv.h"

#include <algorithm>
#include <vector>

#include "layers/float_vectors.h"
#include "layers/matrix_transpose.h"
#include "layers/shifted_conv_kernel.h"

namespace umbra {
namespace layers {

int64_t ShiftedConvOutHeight(const ShiftedConvShape& s) {
  return s.padded_height - s.dilate_y * (s.kernel_y - 1) / s.stride_y;
}

int64_t ShiftedConvPlanes(const ShiftedConvShape& s) {
  return s.channels * s.stride_y * s.stride_x;
}

int64_t ShiftedConvOutWidth(const ShiftedConvShape& s) { return s.out_width; }

int64_t ShiftedConvRowPitch(int64_t width, int64_t pad_x, int64_t out_width) {
  return std::max(width + pad_x, out_width);
}

int64_t ShiftedConvInputSize(const ShiftedConvShape& s) {
  // A kept output reads up to pad_x <= row_pitch floats past the last
  // plane; the last run starts before the last output row's end and reads
  // up to kShiftedConvMaxRun positions on, each up to the last tap's shift.
  return ShiftedConvPlanes(s) * s.padded_height * s.row_pitch + s.row_pitch +
         kShiftedConvMaxRun + s.dilate_x * (s.kernel_x - 1) / s.stride_x;
}

int64_t ShiftedConvPackedSize(const ShiftedConvShape& s,
                              ShiftedConvOrder order) {
  const int64_t pairs = ShiftedConvPairs(s);
  if (order == ShiftedConvOrder::kChannels) {
    return pairs * ShiftedConvChannelPitch(s);
  }
  const int64_t blocks =
      (s.out_channels + kShiftedConvRows - 1) / kShiftedConvRows;
  return blocks * kShiftedConvRows * pairs;
}

int64_t ShiftedConvScratchSize(const ShiftedConvShape& s,
                               ShiftedConvOrder order) {
  if (order == ShiftedConvOrder::kPositions) return 0;
  return ShiftedConvOutHeight(s) * s.out_width * ShiftedConvChannelPitch(s);
}

namespace {

// The weight of output channel m, input channel c and tap t (row-major
// kernel_y by kernel_x) of the convolution `which` packs.
float WeightOf(const ShiftedConvShape& s, ShiftedConvWeights which,
               const float* weights, int64_t m, int64_t c, int64_t t) {
  const int64_t taps = s.kernel_y * s.kernel_x;
  return which == ShiftedConvWeights::kForward
             ? weights[(m * s.channels + c) * taps + t]
             : weights[(c * s.out_channels + m) * taps + taps - 1 - t];
}

}  // namespace

void PackShiftedConvWeights(const ShiftedConvShape& s, ShiftedConvOrder order,
                            ShiftedConvWeights which, const float* weights,
                            float* packed) {
  const int64_t taps = s.kernel_y * s.kernel_x;
  if (order == ShiftedConvOrder::kChannels) {
    // Pair (c, t)'s row: every output channel's weight, then zeros.
    const int64_t pitch = ShiftedConvChannelPitch(s);
    std::fill(packed, packed + ShiftedConvPackedSize(s, order), 0.f);
    for (int64_t m = 0; m < s.out_channels; ++m) {
      for (int64_t c = 0; c < s.channels; ++c) {
        for (int64_t t = 0; t < taps; ++t) {
          packed[(c * taps + t) * pitch + m] =
              WeightOf(s, which, weights, m, c, t);
        }
      }
    }
    return;
  }
  const int64_t rows = ShiftedConvPackedSize(s, order) / (s.channels * taps);
  for (int64_t m = 0; m < rows; ++m) {
    const int64_t block = m / kShiftedConvRows, r = m % kShiftedConvRows;
    for (int64_t c = 0; c < s.channels; ++c) {
      for (int64_t t = 0; t < taps; ++t) {
        const float w =
            m < s.out_channels ? WeightOf(s, which, weights, m, c, t) : 0.f;
        packed[((block * s.channels + c) * taps + t) * kShiftedConvRows + r] =
            w;
      }
    }
  }
}

namespace {

// d[0, n) = s[0, n), inline: image rows are short (7 to a few dozen floats),
// and a memcpy call per row cost more than the copy. Rows of 8 or more in
// blocks of 8.
inline void CopyRow(const float* s, int64_t n, float* d) {
  if (n < 8) {
    for (int64_t i = 0; i < n; ++i) d[i] = s[i];
    return;
  }
  ForEachBlock<8>(
      n, [&](int64_t i) { StoreFloats(d + i, LoadFloats<Floats8>(s + i)); });
}

// Where an image row's pixels of one column phase lie in its phase row:
// pixels x0, x0 + stride_x, ... (count of them) at columns v0, v0 + 1, ...
struct PhaseColumns {
  int64_t x0, v0, count;
};

// The column phases of s's stride across of rows of `width` pixels padded by
// pad_x: the phase rows' pitch cuts off the pixels that no output reads.
std::vector<PhaseColumns> ColumnPhases(const ShiftedConvShape& s, int64_t width,
                                       int64_t pad_x) {
  std::vector<PhaseColumns> phases(s.stride_x);
  for (int64_t px = 0; px < s.stride_x; ++px) {
    PhaseColumns& p = phases[px];
    p.x0 = ((px - pad_x) % s.stride_x + s.stride_x) % s.stride_x;
    p.v0 = (p.x0 + pad_x) / s.stride_x;
    p.count = std::max<int64_t>(
        0, std::min((width - p.x0 + s.stride_x - 1) / s.stride_x,
                    s.row_pitch - p.v0));
  }
  return phases;
}

// Calls fn(y, row) for every row y of an image of `height` rows padded by
// pad_y that lies within s's phase planes, `row` being the offset of its row
// in column phase 0 from its channel's first plane (column phase px's row
// is px * channels planes on).
template <typename Fn>
void ForEachPhaseRow(const ShiftedConvShape& s, int64_t height, int64_t pad_y,
                     const Fn& fn) {
  const int64_t phase_step = s.channels * s.padded_height * s.row_pitch;
  int64_t u = pad_y / s.stride_y, py = pad_y % s.stride_y;
  for (int64_t y = 0; y < height && u < s.padded_height; ++y) {
    fn(y, py * s.stride_x * phase_step + u * s.row_pitch);
    if (++py == s.stride_y) py = 0, ++u;
  }
}

// Calls block(k, V()) for blocks of k in [0, n) of V = Floats8 where n >= 8,
// else Floats4 where n >= 4, else scalar(k) for each k.
template <typename Block, typename Scalar>
inline void ForEachPairBlock(int64_t n, const Block& block,
                             const Scalar& scalar) {
  if (n >= 8) {
    ForEachBlock<8>(n, [&](int64_t k) { block(k, Floats8()); });
  } else if (n >= 4) {
    ForEachBlock<4>(n, [&](int64_t k) { block(k, Floats4()); });
  } else {
    for (int64_t k = 0; k < n; ++k) scalar(k);
  }
}

// even[k] = row[2k], odd[k] = row[2k + 1] for k < n.
inline void SplitPairs(const float* row, int64_t n, float* even, float* odd) {
  ForEachPairBlock(
      n,
      [&](int64_t k, auto v) {
        using V = decltype(v);
        const V a = LoadFloats<V>(row + 2 * k);
        const V b = LoadFloats<V>(row + 2 * k + sizeof(V) / sizeof(float));
        StoreFloats(even + k, EvenLanes(a, b));
        StoreFloats(odd + k, OddLanes(a, b));
      },
      [&](int64_t k) { even[k] = row[2 * k], odd[k] = row[2 * k + 1]; });
}

// row[2k] = even[k], row[2k + 1] = odd[k] for k < n.
inline void MergePairs(const float* even, const float* odd, int64_t n,
                       float* row) {
  ForEachPairBlock(
      n,
      [&](int64_t k, auto v) {
        using V = decltype(v);
        V low, high;
        InterleaveLanes(LoadFloats<V>(even + k), LoadFloats<V>(odd + k), &low,
                        &high);
        StoreFloats(row + 2 * k, low);
        StoreFloats(row + 2 * k + sizeof(V) / sizeof(float), high);
      },
      [&](int64_t k) { row[2 * k] = even[k], row[2 * k + 1] = odd[k]; });
}

// Calls pairs(image_row, first, second, n) for the first n pixel pairs of
// every image row within the phase planes (with stride 2 across: pixels 2k
// lie in one column phase's row, `first` on, pixels 2k + 1 in the other's,
// `second` on), then gather(pixels, phase_row, count) for each column
// phase's pixels past them: `count` pixels stride_x apart from `pixels` at
// phase_row[0, count). `planes` are s.channels images of height x width
// and `padded` their phase planes, either of them const; `columns` are
// ColumnPhases(s, width, pad_x).
template <typename ImageFloat, typename PhaseFloat, typename Pairs,
          typename Gather>
void ForEachPhaseRun(const ShiftedConvShape& s,
                     const std::vector<PhaseColumns>& columns,
                     ImageFloat* planes, int64_t height, int64_t width,
                     int64_t pad_y, PhaseFloat* padded, const Pairs& pairs,
                     const Gather& gather) {
  const int64_t plane = s.padded_height * s.row_pitch;
  const int64_t phase_step = s.channels * plane;
  int64_t first = 0, second = 0, n_pairs = 0;
  if (s.stride_x == 2) {
    first = columns[0].x0 == 0 ? 0 : 1;  // the column phase of pixel 0
    second = 1 - first;
    n_pairs = std::min(columns[first].count, columns[second].count);
  }
  for (int64_t c = 0; c < s.channels; ++c) {
    ImageFloat* image = planes + c * height * width;
    PhaseFloat* phases = padded + c * plane;
    auto at = [&](int64_t row, int64_t px) {
      return phases + row + px * phase_step + columns[px].v0;
    };
    ForEachPhaseRow(s, height, pad_y, [&](int64_t y, int64_t row) {
      ImageFloat* pixels = image + y * width;
      if (n_pairs > 0) pairs(pixels, at(row, first), at(row, second), n_pairs);
      for (int64_t px = 0; px < s.stride_x; ++px) {
        const PhaseColumns& p = columns[px];
        if (p.count > n_pairs) {
          gather(pixels + p.x0 + n_pairs * s.stride_x, at(row, px) + n_pairs,
                 p.count - n_pairs);
        }
      }
    });
  }
}

}  // namespace

void PadPlanes(const ShiftedConvShape& s, const float* planes, int64_t height,
               int64_t width, int64_t pad_y, int64_t pad_x, float* padded) {
  if (s.stride_y == 1 && s.stride_x == 1) {
    const int64_t plane = s.padded_height * s.row_pitch;
    for (int64_t c = 0; c < s.channels; ++c) {
      for (int64_t y = 0; y < height; ++y) {
        CopyRow(planes + (c * height + y) * width, width,
                padded + c * plane + (y + pad_y) * s.row_pitch + pad_x);
      }
    }
    return;
  }
  ForEachPhaseRun(
      s, ColumnPhases(s, width, pad_x), planes, height, width, pad_y, padded,
      [](const float* pixels, float* first, float* second, int64_t n) {
        SplitPairs(pixels, n, first, second);
      },
      [&](const float* pixels, float* to, int64_t count) {
        for (int64_t k = 0; k < count; ++k) to[k] = pixels[k * s.stride_x];
      });
}

void UnpadPlanes(const ShiftedConvShape& s, const float* padded, int64_t height,
                 int64_t width, int64_t pad_y, int64_t pad_x, float* planes) {
  const std::vector<PhaseColumns> columns = ColumnPhases(s, width, pad_x);
  // Zeros first for the pixels past the phase planes, if any.
  int64_t stored_columns = 0;
  for (const PhaseColumns& p : columns) stored_columns += p.count;
  const bool stored_rows = (height - 1 + pad_y) / s.stride_y < s.padded_height;
  if (stored_columns < width || !stored_rows) {
    std::fill(planes, planes + s.channels * height * width, 0.f);
  }
  ForEachPhaseRun(
      s, columns, planes, height, width, pad_y, padded,
      [](float* pixels, const float* first, const float* second, int64_t n) {
        MergePairs(first, second, n, pixels);
      },
      [&](float* pixels, const float* from, int64_t count) {
        for (int64_t k = 0; k < count; ++k) pixels[k * s.stride_x] = from[k];
      });
}

int64_t ShiftedConvGradientPitch(const ShiftedConvShape& s) {
  const int64_t positions = ShiftedConvOutHeight(s) * s.row_pitch;
  return (positions + kShiftedConvMaxRun - 1) / kShiftedConvMaxRun *
         kShiftedConvMaxRun;
}

int64_t ShiftedConvGradientSize(const ShiftedConvShape& s) {
  return s.out_channels * ShiftedConvGradientPitch(s);
}

void SpreadOutputGradient(const ShiftedConvShape& s, const float* out_grad,
                          float* spread) {
  const int64_t out_h = ShiftedConvOutHeight(s), out_w = ShiftedConvOutWidth(s);
  const int64_t pitch = ShiftedConvGradientPitch(s);
  for (int64_t m = 0; m < s.out_channels; ++m) {
    for (int64_t y = 0; y < out_h; ++y) {
      CopyRow(out_grad + (m * out_h + y) * out_w, out_w,
              spread + m * pitch + y * s.row_pitch);
    }
  }
}

int64_t ShiftedConvChannelPitch(const ShiftedConvShape& s) {
  constexpr int64_t kWidest = 16;  // floats in an AVX-512 vector
  return (s.out_channels + kWidest - 1) / kWidest * kWidest;
}

int64_t ShiftedConvTransposedGradientSize(const ShiftedConvShape& s) {
  return ShiftedConvOutHeight(s) * s.row_pitch * ShiftedConvChannelPitch(s);
}

void TransposeOutputGradient(const ShiftedConvShape& s, const float* out_grad,
                             float* transposed) {
  const int64_t out_h = ShiftedConvOutHeight(s), out_w = ShiftedConvOutWidth(s);
  const int64_t pitch = ShiftedConvChannelPitch(s);
  const int64_t plane = out_h * out_w;
  // Row y of every channel (channel m at m * plane) to pixel x's rows (x *
  // pitch).
  for (int64_t y = 0; y < out_h; ++y) {
    TransposeMatrix(s.out_channels, out_w, out_grad + y * out_w, plane,
                    transposed + y * s.row_pitch * pitch, pitch);
  }
}

int64_t ShiftedConvPairs(const ShiftedConvShape& s) {
  return s.channels * s.kernel_y * s.kernel_x;
}

void ShiftedConvPairOffsets(const ShiftedConvShape& s, int64_t* offsets) {
  const int64_t plane = s.padded_height * s.row_pitch;
  const int64_t phase_step = s.channels * plane;
  std::vector<int64_t> rows(s.kernel_y), columns(s.kernel_x);
  for (int64_t i = 0; i < s.kernel_y; ++i) {
    const int64_t y = i * s.dilate_y;
    rows[i] =
        y % s.stride_y * s.stride_x * phase_step + y / s.stride_y * s.row_pitch;
  }
  for (int64_t j = 0; j < s.kernel_x; ++j) {
    const int64_t x = j * s.dilate_x;
    columns[j] = x % s.stride_x * phase_step + x / s.stride_x;
  }
  for (int64_t c = 0; c < s.channels; ++c) {
    for (int64_t row : rows) {
      for (int64_t column : columns) *offsets++ = c * plane + row + column;
    }
  }
}

void ShiftedConv(const ShiftedConvShape& s, ShiftedConvOrder order,
                 const int64_t* offsets, const float* packed,
                 const float* padded, float* scratch, float* out,
                 SimdWidth simd) {
  const bool avx512 = simd == SimdWidth::kAvx512;
  if (order == ShiftedConvOrder::kPositions) {
    return avx512 ? ShiftedConvAvx512(s, offsets, packed, padded, out)
                  : ShiftedConvAvx2(s, offsets, packed, padded, out);
  }
  if (avx512) {
    ShiftedConvChannelsAvx512(s, offsets, packed, padded, scratch);
  } else {
    ShiftedConvChannelsAvx2(s, offsets, packed, padded, scratch);
  }
  // out (out_channels, pixels) = the transpose of scratch's pixel rows.
  const int64_t pixels = ShiftedConvOutHeight(s) * s.out_width;
  TransposeMatrix(pixels, s.out_channels, scratch, ShiftedConvChannelPitch(s),
                  out, pixels);
}

void ShiftedConvWeightGradient(const ShiftedConvShape& s,
                               const int64_t* offsets, const float* padded,
                               const float* spread, float* weight_grad,
                               SimdWidth simd) {
  if (simd == SimdWidth::kAvx512) {
    ShiftedConvWeightGradientAvx512(s, offsets, padded, spread, weight_grad);
  } else {
    ShiftedConvWeightGradientAvx2(s, offsets, padded, spread, weight_grad);
  }
}

void ShiftedConvWeightGradientTransposed(const ShiftedConvShape& s,
                                         const int64_t* offsets,
                                         const float* padded,
                                         const float* transposed,
                                         float* weight_grad_t, SimdWidth simd) {
  if (simd == SimdWidth::kAvx512) {
    ShiftedConvWeightGradientTransposedAvx512(s, offsets, padded, transposed,
                                              weight_grad_t);
  } else {
    ShiftedConvWeightGradientTransposedAvx2(s, offsets, padded, transposed,
                                            weight_grad_t);
  }
}

}  // namespace layers
}  // namespace umbra
