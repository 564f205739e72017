#include "layers/shifted_conv.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "layers/shifted_conv_kernel.h"

namespace umbra {
namespace layers {

int64_t ShiftedConvOutHeight(const ShiftedConvShape& s) {
  return s.padded_height - s.dilate_y * (s.kernel_y - 1) / s.stride_y;
}

int64_t ShiftedConvPlanes(const ShiftedConvShape& s) {
  return s.channels * s.stride_y * s.stride_x;
}

int64_t ShiftedConvTapOffset(const ShiftedConvShape& s, int64_t c, int64_t i,
                             int64_t j) {
  const int64_t y = i * s.dilate_y, x = j * s.dilate_x;
  const int64_t phase = y % s.stride_y * s.stride_x + x % s.stride_x;
  return (phase * s.channels + c) * s.padded_height * s.row_pitch +
         y / s.stride_y * s.row_pitch + x / s.stride_x;
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

int64_t ShiftedConvPackedSize(const ShiftedConvShape& s) {
  const int64_t blocks =
      (s.out_channels + kShiftedConvRows - 1) / kShiftedConvRows;
  return blocks * kShiftedConvRows * s.channels * s.kernel_y * s.kernel_x;
}

int64_t ShiftedConvWorkspaceSize(const ShiftedConvShape& s) {
  const int64_t rows = (s.out_channels + kShiftedConvRows - 1) /
                       kShiftedConvRows * kShiftedConvRows;
  // Each row's positions rounded up to a run, and the last row's read of a
  // whole vector past its end.
  const int64_t positions = ShiftedConvOutHeight(s) * s.row_pitch;
  return rows * (positions + kShiftedConvMaxRun) + kShiftedConvMaxRun;
}

namespace {

// Where the kernel takes tap i of a side of `kernel` taps at `stride`: the
// taps of phase 0 (i % stride), then those of phase 1, and so on, each
// phase's in order (i itself at stride 1).
int64_t PhaseRank(int64_t i, int64_t kernel, int64_t stride) {
  int64_t rank = i / stride;
  for (int64_t phase = 0; phase < i % stride; ++phase) {
    rank += (kernel - phase + stride - 1) / stride;
  }
  return rank;
}

}  // namespace

void PackShiftedConvWeights(const ShiftedConvShape& s, ShiftedConvWeights which,
                            const float* weights, float* packed) {
  const int64_t taps = s.kernel_y * s.kernel_x;
  const int64_t rows = ShiftedConvPackedSize(s) / (s.channels * taps);
  std::vector<int64_t> order(taps);  // of each tap of wmat's
  for (int64_t t = 0; t < taps; ++t) {
    order[t] = PhaseRank(t / s.kernel_x, s.kernel_y, s.stride_y) * s.kernel_x +
               PhaseRank(t % s.kernel_x, s.kernel_x, s.stride_x);
  }
  for (int64_t m = 0; m < rows; ++m) {
    const int64_t block = m / kShiftedConvRows, r = m % kShiftedConvRows;
    for (int64_t c = 0; c < s.channels; ++c) {
      for (int64_t t = 0; t < taps; ++t) {
        float w = 0;
        if (m < s.out_channels) {
          w = which == ShiftedConvWeights::kForward
                  ? weights[(m * s.channels + c) * taps + t]
                  : weights[(c * s.out_channels + m) * taps + taps - 1 - t];
        }
        packed[((block * s.channels + c) * taps + order[t]) * kShiftedConvRows +
               r] = w;
      }
    }
  }
}

namespace {

typedef float Floats8 __attribute__((vector_size(32)));

// d[0, n) = s[0, n), inline: image rows are short (7 to a few dozen floats),
// and a memcpy call per row cost more than the copy. Rows of 8 or more in
// blocks of 8, the last block ending at the row's end (over part of the one
// before).
inline void CopyRow(const float* s, int64_t n, float* d) {
  if (n < 8) {
    for (int64_t i = 0; i < n; ++i) d[i] = s[i];
    return;
  }
  auto copy_block = [&](int64_t i) {
    Floats8 v;
    std::memcpy(&v, s + i, sizeof(v));
    std::memcpy(d + i, &v, sizeof(v));
  };
  for (int64_t i = 0; i + 8 < n; i += 8) copy_block(i);
  copy_block(n - 8);
}

}  // namespace

namespace {

// Calls fn(y, x0, v0, count, phase_row) for every row y of an image of
// (height, width) padded by (pad_y, pad_x) that lies within the phase planes
// of s's stride and every column phase that its pixels fall in: pixels x0,
// x0 + stride_x, ... (count of them) are at columns v0, v0 + 1, ... of
// phase_row, the phase row's offset from the channel's first plane. The
// divisions are per column phase and per image, not per row: rows are
// short.
template <typename Fn>
void ForEachPhaseRow(const ShiftedConvShape& s, int64_t height, int64_t width,
                     int64_t pad_y, int64_t pad_x, const Fn& fn) {
  const int64_t plane = s.padded_height * s.row_pitch;
  for (int64_t px = 0; px < s.stride_x; ++px) {
    const int64_t x0 = ((px - pad_x) % s.stride_x + s.stride_x) % s.stride_x;
    const int64_t v0 = (x0 + pad_x) / s.stride_x;
    const int64_t count =
        std::min((width - x0 + s.stride_x - 1) / s.stride_x, s.row_pitch - v0);
    if (count <= 0) continue;
    int64_t u = pad_y / s.stride_y, py = pad_y % s.stride_y;
    for (int64_t y = 0; y < height && u < s.padded_height; ++y) {
      const int64_t phase = py * s.stride_x + px;
      fn(y, x0, v0, count, phase * s.channels * plane + u * s.row_pitch);
      if (++py == s.stride_y) py = 0, ++u;
    }
  }
}

}  // namespace

void PadPlanes(const ShiftedConvShape& s, const float* planes, int64_t height,
               int64_t width, int64_t pad_y, int64_t pad_x, float* padded) {
  const int64_t plane = s.padded_height * s.row_pitch;
  if (s.stride_y == 1 && s.stride_x == 1) {
    for (int64_t c = 0; c < s.channels; ++c) {
      for (int64_t y = 0; y < height; ++y) {
        CopyRow(planes + (c * height + y) * width, width,
                padded + c * plane + (y + pad_y) * s.row_pitch + pad_x);
      }
    }
    return;
  }
  for (int64_t c = 0; c < s.channels; ++c) {
    const float* image = planes + c * height * width;
    float* phases = padded + c * plane;
    ForEachPhaseRow(s, height, width, pad_y, pad_x,
                    [&](int64_t y, int64_t x0, int64_t v0, int64_t count,
                        int64_t phase_row) {
                      const float* from = image + y * width + x0;
                      float* to = phases + phase_row + v0;
                      for (int64_t n = 0; n < count; ++n) {
                        to[n] = from[n * s.stride_x];
                      }
                    });
  }
}

void UnpadPlanes(const ShiftedConvShape& s, const float* padded, int64_t height,
                 int64_t width, int64_t pad_y, int64_t pad_x, float* planes) {
  const int64_t plane = s.padded_height * s.row_pitch;
  std::fill(planes, planes + s.channels * height * width, 0.f);
  for (int64_t c = 0; c < s.channels; ++c) {
    const float* phases = padded + c * plane;
    float* image = planes + c * height * width;
    ForEachPhaseRow(s, height, width, pad_y, pad_x,
                    [&](int64_t y, int64_t x0, int64_t v0, int64_t count,
                        int64_t phase_row) {
                      const float* from = phases + phase_row + v0;
                      float* to = image + y * width + x0;
                      for (int64_t n = 0; n < count; ++n) {
                        to[n * s.stride_x] = from[n];
                      }
                    });
  }
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
  for (int64_t m = 0; m < s.out_channels; ++m) {
    for (int64_t y = 0; y < out_h; ++y) {
      const float* from = out_grad + (m * out_h + y) * out_w;
      float* to = transposed + y * s.row_pitch * pitch + m;
      for (int64_t x = 0; x < out_w; ++x) to[x * pitch] = from[x];
    }
  }
}

SimdWidth WidestSimd() {
  static const SimdWidth widest =
      __builtin_cpu_supports("avx512f") ? SimdWidth::kAvx512 : SimdWidth::kAvx2;
  return widest;
}

void ShiftedConv(const ShiftedConvShape& s, const float* packed,
                 const float* padded, float* workspace, float* out,
                 SimdWidth simd) {
  if (simd == SimdWidth::kAvx512) {
    ShiftedConvAvx512(s, packed, padded, workspace, out);
  } else {
    ShiftedConvAvx2(s, packed, padded, workspace, out);
  }
}

void ShiftedConvWeightGradient(const ShiftedConvShape& s, const float* padded,
                               const float* spread, float* weight_grad,
                               SimdWidth simd) {
  if (simd == SimdWidth::kAvx512) {
    ShiftedConvWeightGradientAvx512(s, padded, spread, weight_grad);
  } else {
    ShiftedConvWeightGradientAvx2(s, padded, spread, weight_grad);
  }
}

void ShiftedConvWeightGradientTransposed(const ShiftedConvShape& s,
                                         const float* padded,
                                         const float* transposed,
                                         float* weight_grad_t, SimdWidth simd) {
  if (simd == SimdWidth::kAvx512) {
    ShiftedConvWeightGradientTransposedAvx512(s, padded, transposed,
                                              weight_grad_t);
  } else {
    ShiftedConvWeightGradientTransposedAvx2(s, padded, transposed,
                                            weight_grad_t);
  }
}

}  // namespace layers
}  // namespace umbra
