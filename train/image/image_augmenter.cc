#include "train/image/image_augmenter.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "train/data/data_error.h"
#include "train/image/image.h"

namespace umbra {
namespace train {

struct ImageAugmenter::Plan {
  // False: the fast path copies `window` of the image. True: every output
  // pixel is sampled through `inverse`.
  bool warp = false;
  int canvas_height = 0;
  int canvas_width = 0;
  // The window, in the canvas (the image itself when the warp is the
  // identity): its top-left pixel and size.
  struct Window {
    int y = 0;
    int x = 0;
    int height = 0;
    int width = 0;
  } window;
  // Source (x, y) = [inverse[0] inverse[1]; inverse[3] inverse[4]] (x', y')
  // + (inverse[2], inverse[5]) for canvas coordinates (x', y').
  double inverse[6] = {1, 0, 0, 0, 1, 0};
  bool mirror = false;
  float contrast = 1.0f;
  float illumination = 0.0f;
};

namespace {

// cos and sin of `degrees`, exact at multiples of 90.
void CosSin(int degrees, double* cosine, double* sine) {
  int turn = degrees % 360;
  if (turn < 0) turn += 360;
  switch (turn) {
    case 0:
      *cosine = 1.0, *sine = 0.0;
      return;
    case 90:
      *cosine = 0.0, *sine = 1.0;
      return;
    case 180:
      *cosine = -1.0, *sine = 0.0;
      return;
    case 270:
      *cosine = 0.0, *sine = -1.0;
      return;
    default: {
      constexpr double kPi = 3.14159265358979323846;
      const double radians = degrees / 180.0 * kPi;
      *cosine = std::cos(radians);
      *sine = std::sin(radians);
    }
  }
}

std::string SizeText(int height, int width) {
  return absl::StrFormat("%dx%d", height, width);
}

// The output pixels of one channel and the mean subtracted from them.
struct ChannelOut {
  float* out;                      // height x width
  const float* mean;               // row y at mean + y * mean_row_stride
  std::ptrdiff_t mean_row_stride;  // width, or 0 for a per-channel mean
  float gain;                      // contrast * multiplier
  float offset;                    // illumination * multiplier
};

// Row y of every channel: where it goes, its mean, gain and offset.
template <int C>
struct OutputRow {
  OutputRow(const ChannelOut* channels, int y, int width) {
    for (int c = 0; c < C; ++c) {
      out[c] = channels[c].out + std::ptrdiff_t{y} * width;
      mean[c] = channels[c].mean + y * channels[c].mean_row_stride;
      gain[c] = channels[c].gain;
      offset[c] = channels[c].offset;
    }
  }
  // Writes pixel x from its C sample values.
  void Store(int x, const float* value) const {
#pragma GCC unroll 4
    for (int c = 0; c < C; ++c) {
      out[c][x] = (value[c] - mean[c][x]) * gain[c] + offset[c];
    }
  }

  float* out[C];
  const float* mean[C];
  float gain[C];
  float offset[C];
};

// The fast path's pixels x .. width - 1 of one output row from a source row
// (`row` points at the window's first pixel), mirrored when kMirror.
template <int C, bool kMirror>
void CopyPixels(const std::uint8_t* row, int x, int width,
                const OutputRow<C>& out) {
  for (; x < width; ++x) {
    const std::uint8_t* pixel = row + C * (kMirror ? width - 1 - x : x);
    float value[C];
    for (int c = 0; c < C; ++c) value[c] = pixel[c];
    out.Store(x, value);
  }
}

#if defined(__AVX2__)
// Byte shuffles that gather channel c of 8 RGB pixels - 24 bytes, `low`
// holding bytes 0..15 and `high` bytes 16..23 - into bytes 0..7, the pixels
// in reverse order when `reverse`; -128 clears a byte.
struct RgbShuffles {
  std::int8_t low[3][16];
  std::int8_t high[3][16];
};

constexpr RgbShuffles MakeRgbShuffles(bool reverse) {
  RgbShuffles masks{};
  for (int c = 0; c < 3; ++c) {
    for (int j = 0; j < 16; ++j) masks.low[c][j] = masks.high[c][j] = -128;
    for (int j = 0; j < 8; ++j) {
      const int byte = 3 * (reverse ? 7 - j : j) + c;
      if (byte < 16) {
        masks.low[c][j] = static_cast<std::int8_t>(byte);
      } else {
        masks.high[c][j] = static_cast<std::int8_t>(byte - 16);
      }
    }
  }
  return masks;
}

constexpr RgbShuffles kRgbForward = MakeRgbShuffles(false);
constexpr RgbShuffles kRgbReverse = MakeRgbShuffles(true);
alignas(16) constexpr std::int8_t kReverse8[16] = {
    7, 6, 5, 4, 3, 2, 1, 0, -128, -128, -128, -128, -128, -128, -128, -128};

// (bytes 0..7 as floats - mean) * gain + offset, stored at out.
inline void StoreEight(__m128i bytes, const float* mean, __m256 gain,
                       __m256 offset, float* out) {
  const __m256 value = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes));
  _mm256_storeu_ps(
      out, _mm256_add_ps(
               _mm256_mul_ps(_mm256_sub_ps(value, _mm256_loadu_ps(mean)), gain),
               offset));
}

// One output row of the fast path, 8 pixels at a time.
template <int C, bool kMirror>
void CopyRow(const std::uint8_t* row, int width, const OutputRow<C>& out) {
  static_assert(C == 1 || C == 3, "The fast path copies 1 or 3 channels.");
  __m256 gain[C], offset[C];
  for (int c = 0; c < C; ++c) {
    gain[c] = _mm256_set1_ps(out.gain[c]);
    offset[c] = _mm256_set1_ps(out.offset[c]);
  }
  int x = 0;
  for (; x + 8 <= width; x += 8) {
    // The 8 source pixels of output pixels x .. x + 7.
    const std::uint8_t* block = row + C * (kMirror ? width - 8 - x : x);
    if constexpr (C == 1) {
      __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(block));
      if (kMirror) {
        bytes = _mm_shuffle_epi8(
            bytes, _mm_load_si128(reinterpret_cast<const __m128i*>(kReverse8)));
      }
      StoreEight(bytes, out.mean[0] + x, gain[0], offset[0], out.out[0] + x);
    } else {
      const RgbShuffles& masks = kMirror ? kRgbReverse : kRgbForward;
      const __m128i low =
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(block));
      const __m128i high =
          _mm_loadl_epi64(reinterpret_cast<const __m128i*>(block + 16));
      for (int c = 0; c < 3; ++c) {
        const __m128i bytes = _mm_or_si128(
            _mm_shuffle_epi8(
                low, _mm_loadu_si128(
                         reinterpret_cast<const __m128i*>(masks.low[c]))),
            _mm_shuffle_epi8(
                high, _mm_loadu_si128(
                          reinterpret_cast<const __m128i*>(masks.high[c]))));
        StoreEight(bytes, out.mean[c] + x, gain[c], offset[c], out.out[c] + x);
      }
    }
  }
  CopyPixels<C, kMirror>(row, x, width, out);
}
#else
template <int C, bool kMirror>
void CopyRow(const std::uint8_t* row, int width, const OutputRow<C>& out) {
  CopyPixels<C, kMirror>(row, 0, width, out);
}
#endif  // __AVX2__

// The fast path: the height x width window at (y0, x0) of the image.
template <int C, bool kMirror>
void CopyWindow(const Image& source, int y0, int x0, int height, int width,
                const ChannelOut* channels) {
  const std::size_t stride = static_cast<std::size_t>(source.width) * C;
  const std::uint8_t* first =
      source.pixels.data() + y0 * stride + static_cast<std::size_t>(x0) * C;
  for (int y = 0; y < height; ++y) {
    CopyRow<C, kMirror>(first + y * stride, width,
                        OutputRow<C>(channels, y, width));
  }
}

// The source image as the warp sampler reads it.
struct SourceView {
  const std::uint8_t* pixels;
  int rows;
  int cols;
  std::ptrdiff_t stride;  // cols * channels
};

// Bilinear sample of `source` at (sx, sy) with pixel centres at whole
// coordinates; a neighbour outside the image reads `fill` (OpenCV's
// INTER_LINEAR with BORDER_CONSTANT).
template <int C>
inline void Sample(SourceView source, float sx, float sy, float fill,
                   float* value) {
  // Also false for nan.
  if (!(sx > -1.0f && sx < source.cols && sy > -1.0f && sy < source.rows)) {
    for (int c = 0; c < C; ++c) value[c] = fill;
    return;
  }
  const float floor_x = std::floor(sx), floor_y = std::floor(sy);
  const int x0 = static_cast<int>(floor_x), y0 = static_cast<int>(floor_y);
  const float ax = sx - floor_x, ay = sy - floor_y;
  float v00[C], v01[C], v10[C], v11[C];
  if (x0 >= 0 && y0 >= 0 && x0 + 1 < source.cols && y0 + 1 < source.rows) {
    const std::uint8_t* p = source.pixels + y0 * source.stride + x0 * C;
#pragma GCC unroll 4
    for (int c = 0; c < C; ++c) {
      v00[c] = p[c];
      v01[c] = p[C + c];
      v10[c] = p[source.stride + c];
      v11[c] = p[source.stride + C + c];
    }
  } else {
    const auto tap = [&](int y, int x, float* v) {
      if (x >= 0 && y >= 0 && x < source.cols && y < source.rows) {
        const std::uint8_t* p = source.pixels + y * source.stride + x * C;
        for (int c = 0; c < C; ++c) v[c] = p[c];
      } else {
        for (int c = 0; c < C; ++c) v[c] = fill;
      }
    };
    tap(y0, x0, v00);
    tap(y0, x0 + 1, v01);
    tap(y0 + 1, x0, v10);
    tap(y0 + 1, x0 + 1, v11);
  }
#pragma GCC unroll 4
  for (int c = 0; c < C; ++c) {
    const float top = v00[c] + ax * (v01[c] - v00[c]);
    const float bottom = v10[c] + ax * (v11[c] - v10[c]);
    value[c] = top + ay * (bottom - top);
  }
}

// The warp path: output pixel (x, y) samples the source at
// inverse * (column_map[x], row_map[y], 1).
template <int C>
void WarpWindow(const Image& image, const double* inverse,
                const float* column_map, const float* row_map, int height,
                int width, float fill, const ChannelOut* channels) {
  const SourceView source{image.pixels.data(), image.height, image.width,
                          std::ptrdiff_t{image.width} * C};
  const float i00 = static_cast<float>(inverse[0]);
  const float i01 = static_cast<float>(inverse[1]);
  const float i02 = static_cast<float>(inverse[2]);
  const float i10 = static_cast<float>(inverse[3]);
  const float i11 = static_cast<float>(inverse[4]);
  const float i12 = static_cast<float>(inverse[5]);
  for (int y = 0; y < height; ++y) {
    const float cy = row_map[y];
    const float base_x = i01 * cy + i02, base_y = i11 * cy + i12;
    const OutputRow<C> out(channels, y, width);
    for (int x = 0; x < width; ++x) {
      const float cx = column_map[x];
      float value[C];
      Sample<C>(source, i00 * cx + base_x, i10 * cx + base_y, fill, value);
      out.Store(x, value);
    }
  }
}

// Canvas coordinates of the `size` output positions of a window starting at
// `start` with `window_size` pixels: cv::resize's pixel-centre mapping,
// clamped into the window; start + i when the sizes are equal. Reversed when
// `mirror`.
void FillMap(int start, int window_size, int size, bool mirror, float* map) {
  const double step = static_cast<double>(window_size) / size;
  const double last = start + window_size - 1;
  for (int i = 0; i < size; ++i) {
    const double position = start + (i + 0.5) * step - 0.5;
    map[mirror ? size - 1 - i : i] =
        static_cast<float>(std::min(last, std::max<double>(start, position)));
  }
}

}  // namespace

ImageAugmenter::ImageAugmenter(const AugmentIteratorParam& iterator_param,
                               const ImageAugmentParam& param, int channels,
                               int height, int width)
    : param_(param),
      rand_crop_(iterator_param.rand_crop),
      rand_mirror_(iterator_param.rand_mirror),
      mirror_(iterator_param.mirror),
      channels_(channels),
      height_(height),
      width_(width),
      crop_size_mode_(param.min_crop_size != -1 || param.max_crop_size != -1) {
  if (channels != 1 && channels != 3) {
    throw DataError(
        absl::StrFormat("key 'input_shape': the image augmenter makes 1 "
                        "(grey) or 3 (RGB) channels, got %d",
                        channels),
        "input_shape");
  }
  if (height < 1 || width < 1) {
    throw DataError(
        absl::StrFormat("key 'input_shape': height and width must be at "
                        "least 1, got %s",
                        SizeText(height, width)),
        "input_shape");
  }
  const bool has_rgb_means =
      param.mean_r != 0.0f || param.mean_g != 0.0f || param.mean_b != 0.0f;
  const std::vector<float>& mean_value = iterator_param.mean_value;
  if (!mean_value.empty() && has_rgb_means) {
    throw DataError(
        "key 'mean_r': mean_value and mean_r/mean_g/mean_b both set; give "
        "the means one way",
        "mean_r");
  }
  has_mean_values_ = !mean_value.empty() || has_rgb_means;
  std::vector<float> means(channels);
  if (mean_value.size() == 1) {
    means.assign(channels, mean_value[0]);
  } else if (static_cast<int>(mean_value.size()) == channels) {
    means = mean_value;
  } else if (!mean_value.empty()) {
    throw DataError(
        absl::StrFormat("key 'mean_value': %d values (%s) for %d channels; "
                        "give one value or one per channel",
                        mean_value.size(), absl::StrJoin(mean_value, ","),
                        channels),
        "mean_value");
  } else {
    const float rgb_means[3] = {param.mean_r, param.mean_g, param.mean_b};
    means.assign(rgb_means, rgb_means + channels);
  }
  const float stds[3] = {param.std_r, param.std_g, param.std_b};
  for (int c = 0; c < 3; ++c) {
    multiplier_[c] = iterator_param.scale / iterator_param.divideby / stds[c];
  }
  mean_rows_.resize(static_cast<std::size_t>(channels) * width);
  for (int c = 0; c < channels; ++c) {
    std::fill_n(mean_rows_.begin() + static_cast<std::size_t>(c) * width, width,
                means[c]);
  }
  if (param.min_random_scale > param.max_random_scale) {
    throw DataError(
        absl::StrFormat("key 'min_random_scale': %g is above "
                        "max_random_scale %g",
                        param.min_random_scale, param.max_random_scale),
        "min_random_scale");
  }
  if (param.min_img_size > param.max_img_size) {
    throw DataError(
        absl::StrFormat("key 'min_img_size': %g is above max_img_size %g",
                        param.min_img_size, param.max_img_size),
        "min_img_size");
  }
  if (crop_size_mode_ && (param.min_crop_size < 1 || param.max_crop_size < 1 ||
                          param.max_crop_size < param.min_crop_size)) {
    throw DataError(
        absl::StrFormat("key 'max_crop_size': the random-size crop needs "
                        "1 <= min_crop_size <= max_crop_size, got "
                        "min_crop_size = %d, max_crop_size = %d (-1 and -1 "
                        "turn it off)",
                        param.min_crop_size, param.max_crop_size),
        "max_crop_size");
  }
  column_map_.resize(width);
  row_map_.resize(height);
}

ImageAugmenter::Plan ImageAugmenter::MakePlan(const Image& source,
                                              std::mt19937* rng) const {
  const ImageAugmentParam& p = param_;
  const int rows = source.height, cols = source.width;
  Plan plan;

  // The warp's parameters (cxxnet image_augmenter-inl.hpp Process(cv::Mat)).
  double shear = 0.0, scale = 1.0, ratio = 1.0;
  int angle = 0;
  if (rng != nullptr) {
    if (p.max_shear_ratio > 0.0f) {
      shear = (2.0 * RandomUnit(*rng) - 1.0) * p.max_shear_ratio;
    }
    if (!p.rotate_list.empty()) {
      angle = p.rotate_list[RandomIndex(
          *rng, static_cast<std::uint32_t>(p.rotate_list.size()))];
    } else if (p.rotate > 0) {
      angle = p.rotate;
    } else if (p.max_rotate_angle > 0) {
      angle = static_cast<int>(RandomIndex(*rng, 2 * p.max_rotate_angle + 1)) -
              p.max_rotate_angle;
    }
    scale = p.min_random_scale;
    if (p.min_random_scale < p.max_random_scale) {
      scale += RandomUnit(*rng) * (p.max_random_scale - p.min_random_scale);
    }
    if (p.max_aspect_ratio > 0.0f) {
      ratio = 1.0 + (2.0 * RandomUnit(*rng) - 1.0) * p.max_aspect_ratio;
    }
  } else if (p.rotate > 0) {
    angle = p.rotate;
  }
  double cosine, sine;
  CosSin(angle, &cosine, &sine);
  const double hs = 2.0 * scale / (1.0 + ratio);
  const double ws = ratio * hs;
  const double canvas_width = std::max<double>(
      p.min_img_size, std::min<double>(p.max_img_size, scale * cols));
  const double canvas_height = std::max<double>(
      p.min_img_size, std::min<double>(p.max_img_size, scale * rows));
  double m[6];
  m[0] = hs * cosine - shear * sine * ws;
  m[1] = hs * sine + shear * cosine * ws;
  m[3] = -sine * ws;
  m[4] = cosine * ws;
  m[2] = (canvas_width - (m[0] * cols + m[1] * rows)) / 2.0;
  m[5] = (canvas_height - (m[3] * cols + m[4] * rows)) / 2.0;
  plan.canvas_width = static_cast<int>(canvas_width);
  plan.canvas_height = static_cast<int>(canvas_height);
  const bool identity = m[0] == 1.0 && m[1] == 0.0 && m[2] == 0.0 &&
                        m[3] == 0.0 && m[4] == 1.0 && m[5] == 0.0 &&
                        plan.canvas_width == cols && plan.canvas_height == rows;

  // The window.
  Plan::Window& window = plan.window;
  window.height = height_;
  window.width = width_;
  const bool random_size = rng != nullptr && crop_size_mode_;
  if (random_size) {
    window.height = window.width =
        p.min_crop_size +
        static_cast<int>(RandomIndex(
            *rng,
            static_cast<std::uint32_t>(p.max_crop_size - p.min_crop_size + 1)));
  }
  // The largest window this image could get.
  const int needed_height = random_size ? p.max_crop_size : height_;
  const int needed_width = random_size ? p.max_crop_size : width_;
  if (plan.canvas_height < needed_height || plan.canvas_width < needed_width) {
    const char* key = random_size ? "max_crop_size" : "input_shape";
    throw DataError(
        absl::StrFormat(
            "image of %s pixels (height x width)%s is smaller than the %s; "
            "cxxnet refuses such images too: make every image at least that "
            "large (e.g. resize them when packing) or lower %s",
            SizeText(rows, cols),
            identity ? ""
                     : absl::StrFormat(
                           ", warped to a %s canvas,",
                           SizeText(plan.canvas_height, plan.canvas_width)),
            random_size
                ? absl::StrFormat("max_crop_size %d window", p.max_crop_size)
                : absl::StrFormat("%s crop of input_shape %d,%d,%d",
                                  SizeText(height_, width_), channels_, height_,
                                  width_),
            key),
        key);
  }
  const int range_y = plan.canvas_height - window.height;
  const int range_x = plan.canvas_width - window.width;
  if (p.crop_y_start >= 0) {
    if (p.crop_y_start > range_y) {
      throw DataError(
          absl::StrFormat("key 'crop_y_start': a window of height %d from "
                          "row %d leaves the image of height %d (largest "
                          "start %d)",
                          window.height, p.crop_y_start, plan.canvas_height,
                          range_y),
          "crop_y_start");
    }
    window.y = p.crop_y_start;
  } else if (rng != nullptr && rand_crop_) {
    window.y = static_cast<int>(RandomIndex(*rng, range_y + 1));
  } else {
    window.y = range_y / 2;
  }
  if (p.crop_x_start >= 0) {
    if (p.crop_x_start > range_x) {
      throw DataError(
          absl::StrFormat("key 'crop_x_start': a window of width %d from "
                          "column %d leaves the image of width %d (largest "
                          "start %d)",
                          window.width, p.crop_x_start, plan.canvas_width,
                          range_x),
          "crop_x_start");
    }
    window.x = p.crop_x_start;
  } else if (rng != nullptr && rand_crop_) {
    window.x = static_cast<int>(RandomIndex(*rng, range_x + 1));
  } else {
    window.x = range_x / 2;
  }

  // cxxnet iter_augment_proc-inl.hpp SetData: contrast, illumination, mirror.
  if (rng != nullptr) {
    if (p.max_random_contrast > 0.0f) {
      plan.contrast =
          1.0f + (2.0f * RandomUnit(*rng) - 1.0f) * p.max_random_contrast;
    }
    if (p.max_random_illumination > 0.0f) {
      plan.illumination =
          (2.0f * RandomUnit(*rng) - 1.0f) * p.max_random_illumination;
    }
    plan.mirror = rand_mirror_ && RandomUnit(*rng) < 0.5f;
  }
  plan.mirror = plan.mirror || mirror_;

  plan.warp = force_warp_ || !identity || window.height != height_ ||
              window.width != width_;
  if (plan.warp) {
    // det = hs * ws > 0: scale and ratio are positive.
    const double det = m[0] * m[4] - m[1] * m[3];
    double* inverse = plan.inverse;
    inverse[0] = m[4] / det;
    inverse[1] = -m[1] / det;
    inverse[3] = -m[3] / det;
    inverse[4] = m[0] / det;
    inverse[2] = -(inverse[0] * m[2] + inverse[1] * m[5]);
    inverse[5] = -(inverse[3] * m[2] + inverse[4] * m[5]);
  }
  return plan;
}

void ImageAugmenter::CheckSource(const Image& source,
                                 const float* mean_image) const {
  if (source.channels != channels_) {
    throw DataError(
        absl::StrFormat("image has %d channel(s) but input_shape asks for %d; "
                        "decode it with %d channels (the decoder converts)",
                        source.channels, channels_, channels_),
        "input_shape");
  }
  if (source.height < 1 || source.width < 1 ||
      source.pixels.size() != static_cast<std::size_t>(source.height) *
                                  source.width * source.channels) {
    throw DataError(absl::StrFormat(
        "image of %s pixels (height x width) x %d channels holds %d samples",
        SizeText(source.height, source.width), source.channels,
        source.pixels.size()));
  }
  if (mean_image != nullptr && has_mean_values_) {
    throw DataError(
        "key 'mean_value': a mean image and mean_value or mean_r/mean_g/"
        "mean_b both given; subtract one of them",
        "mean_value");
  }
}

void ImageAugmenter::Process(const Image& source, std::mt19937& rng,
                             const float* mean_image, float* out) {
  CheckSource(source, mean_image);
  Render(source, MakePlan(source, &rng), mean_image, out);
}

void ImageAugmenter::ProcessCenter(const Image& source, const float* mean_image,
                                   float* out) {
  CheckSource(source, mean_image);
  Render(source, MakePlan(source, nullptr), mean_image, out);
}

void ImageAugmenter::Render(const Image& source, const Plan& plan,
                            const float* mean_image, float* out) {
  const std::size_t plane = static_cast<std::size_t>(height_) * width_;
  ChannelOut channels[3];
  for (int c = 0; c < channels_; ++c) {
    channels[c].out = out + c * plane;
    if (mean_image != nullptr) {
      channels[c].mean = mean_image + c * plane;
      channels[c].mean_row_stride = width_;
    } else {
      channels[c].mean =
          mean_rows_.data() + static_cast<std::size_t>(c) * width_;
      channels[c].mean_row_stride = 0;
    }
    channels[c].gain = plan.contrast * multiplier_[c];
    channels[c].offset = plan.illumination * multiplier_[c];
  }
  if (!plan.warp) {
    const int y0 = plan.window.y, x0 = plan.window.x;
    if (channels_ == 1) {
      plan.mirror
          ? CopyWindow<1, true>(source, y0, x0, height_, width_, channels)
          : CopyWindow<1, false>(source, y0, x0, height_, width_, channels);
    } else {
      plan.mirror
          ? CopyWindow<3, true>(source, y0, x0, height_, width_, channels)
          : CopyWindow<3, false>(source, y0, x0, height_, width_, channels);
    }
    return;
  }
  FillMap(plan.window.x, plan.window.width, width_, plan.mirror,
          column_map_.data());
  FillMap(plan.window.y, plan.window.height, height_, /*mirror=*/false,
          row_map_.data());
  const float fill = static_cast<float>(param_.fill_value);
  if (channels_ == 1) {
    WarpWindow<1>(source, plan.inverse, column_map_.data(), row_map_.data(),
                  height_, width_, fill, channels);
  } else {
    WarpWindow<3>(source, plan.inverse, column_map_.data(), row_map_.data(),
                  height_, width_, fill, channels);
  }
}

}  // namespace train
}  // namespace umbra
