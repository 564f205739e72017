// ImageAugmenter: cxxnet's image augmenter without OpenCV. It turns one
// decoded Image (uint8, rows x cols x channels) into one float instance
// (channels x height x width, the output shape) on the decode thread that
// owns it. It follows cxxnet's src/io/image_augmenter-inl.hpp (the warp and
// the crop) and src/io/iter_augment_proc-inl.hpp (mirror, mean, contrast,
// illumination, scale), with MXNet's mean_r/g/b and std_r/g/b.
//
// Example:
//
//   AugmentIteratorParam iterator_param;
//   iterator_param.Init({{"rand_crop", "1"}, {"rand_mirror", "1"},
//                        {"divideby", "255"}});
//   ImageAugmentParam param;
//   param.Init({{"max_rotate_angle", "10"}, {"mean_r", "123.7"},
//               {"mean_g", "116.3"}, {"mean_b", "103.5"}});
//   ImageAugmenter augmenter(iterator_param, param, /*channels=*/3,
//                            /*height=*/224, /*width=*/224);  // one per thread
//   std::mt19937 rng(seed);
//   augmenter.Process(image, rng, /*mean_image=*/nullptr, out);  // training
//   augmenter.ProcessCenter(image, /*mean_image=*/nullptr, out);  // testing
//
// Channels: the augmenter does not convert. The image must have as many
// channels as the output, 1 (grey) or 3 (RGB); decode with that count
// (ImageDecoder::Decode converts grey, RGB and RGBA). A mismatch throws
// DataError.
//
// Steps for an image of `rows` x `cols` pixels, with angle t (degrees),
// shear s, scale k and aspect ratio r drawn as described below:
//
//  1. Warp (cxxnet image_augmenter-inl.hpp, Process(cv::Mat)). With
//       hs = 2 k / (1 + r),  ws = r hs         (hs scales x, ws scales y)
//       M  = [hs cos t - s ws sin t,  hs sin t + s ws cos t,  tx]
//            [-ws sin t,              ws cos t,               ty]
//       W' = clamp(k cols, min_img_size, max_img_size)
//       H' = clamp(k rows, min_img_size, max_img_size)
//       tx = (W' - (M00 cols + M01 rows)) / 2
//       ty = (H' - (M10 cols + M11 rows)) / 2
//     the image is drawn into a canvas of trunc(W') x trunc(H') pixels:
//     canvas(x, y) = source at M^-1 (x - tx, y - ty), sampled bilinearly
//     with pixel centres at whole coordinates (cv::warpAffine's INTER_LINEAR);
//     a neighbour outside the source reads fill_value in every channel
//     (BORDER_CONSTANT). As in cxxnet the centre is (W'/2, H'/2) in corner
//     coordinates, half a pixel off the pixel-centre one: a 90 degree
//     rotation of an n x n image gives canvas(x, y) = source column n - y,
//     row x, its top row all fill_value, and scale 2 blends the canvas's last
//     row and column half with fill_value. Multiples of 90 degrees use exact
//     sines and cosines.
//  2. Window: a height x width window of the canvas, or with min_crop_size /
//     max_crop_size a square window of side c. Its top-left corner is
//     (crop_y_start, crop_x_start) where those are set, else drawn uniformly
//     over every position inside the canvas (rand_crop), else the centre
//     ((H - h) / 2, (W - w) / 2, rounded down). A canvas smaller than the
//     window (max_crop_size for the square one) throws DataError.
//  3. Resize (min/max_crop_size only): the c x c window is resized to
//     height x width bilinearly, pixel centres aligned
//     (x_window = (x + 0.5) c / width - 0.5, clamped into the window), as
//     cv::resize does.
//  4. Mirror (rand_mirror): out column x reads column width - 1 - x.
//  5. Normalise, per output channel c (0, 1, 2 = R, G, B; grey is 0):
//       out = (v - mean) * contrast * multiplier + illumination * multiplier
//       multiplier = scale / divideby / std_c
//     where mean is mean_image[c][y][x] when Process is given one (indexed by
//     output position, after the mirror, like cxxnet's output-shaped mean
//     image), else mean_value (one value, or one per channel), else
//     mean_r / mean_g / mean_b (0 by default).
// Steps 1 and 3 never build the canvas: every output pixel maps through the
// mirror, the resize and M^-1 straight to source coordinates and is sampled
// once. When the warp is the identity (no rotation, shear, scale or aspect
// change, the canvas is the image) and there is no resize, a fast path copies
// the window from the uint8 pixels into the float output in one pass.
//
// Random draws, from the caller's std::mt19937, in this order, each only
// when its key is on: RandomUnit(u) = (rng() >> 8) / 2^24 in [0, 1);
// RandomIndex(n) = (rng() * n) >> 32 in [0, n).
//   shear        max_shear_ratio > 0: s = (2u - 1) max_shear_ratio
//   angle        rotate_list given: t = rotate_list[RandomIndex(size)];
//                else rotate > 0: t = rotate (no draw);
//                else max_rotate_angle > 0:
//                  t = RandomIndex(2 max_rotate_angle + 1) - max_rotate_angle
//   scale        min_random_scale < max_random_scale:
//                  k = min + u (max - min); else k = min_random_scale
//   aspect       max_aspect_ratio > 0: r = 1 + (2u - 1) max_aspect_ratio
//   crop size    min/max_crop_size: c = min + RandomIndex(max - min + 1)
//   window row   rand_crop, crop_y_start unset: RandomIndex(H - h + 1)
//   window col   rand_crop, crop_x_start unset: RandomIndex(W - w + 1)
//   contrast     max_random_contrast > 0: 1 + (2u - 1) max_random_contrast
//   illumination max_random_illumination > 0:
//                  (2u - 1) max_random_illumination
//   mirror       rand_mirror: mirrored when u < 0.5
//
// Differences from cxxnet:
//   - An image smaller than the window (after the warp) throws DataError
//     naming both sizes, where cxxnet aborts on a failed check; neither
//     resizes it.
//   - Sampling is in float and the result is not rounded to uint8 between
//     the warp and the normalisation (OpenCV rounds, and interpolates with
//     1/32 pixel weights), and the warp and the resize of step 3 are one
//     sampling, not two.
//   - max_rotate_angle draws from [-max, max] and rotate_list from every
//     entry (cxxnet: [-max, max - 1], never the last entry), as MXNet does.
//   - Heights and widths are not swapped for non-square shapes (cxxnet's
//     augmenter crops input_shape's height as a width).
//   - max_random_contrast and max_random_illumination apply with or without
//     a mean (cxxnet ignores them without one).
//   - `mirror = 1` mirrors every picture, as cxxnet's, also without a mean
//     (cxxnet applied it only in its mean branches). image_mean (a mean
//     image file) is the caller's: Process takes the mean image.
#ifndef UMBRA_TRAIN_IMAGE_IMAGE_AUGMENTER_H_
#define UMBRA_TRAIN_IMAGE_IMAGE_AUGMENTER_H_

#include <cstdint>
#include <random>
#include <vector>

#include "param/param.h"
#include "train/data/instance_transform.h"
#include "train/image/image.h"

namespace umbra {
namespace train {

// The augmenter's keys that AugmentIteratorParam (input_shape, rand_crop,
// rand_mirror, divideby, scale, mean_value) does not have.
struct ImageAugmentParam : public Parameter<ImageAugmentParam> {
  int max_rotate_angle;
  int rotate;
  std::vector<int> rotate_list;
  float max_shear_ratio;
  float min_random_scale;
  float max_random_scale;
  float max_aspect_ratio;
  float min_img_size;
  float max_img_size;
  int fill_value;
  int min_crop_size;
  int max_crop_size;
  int crop_y_start;
  int crop_x_start;
  float mean_r;
  float mean_g;
  float mean_b;
  float std_r;
  float std_g;
  float std_b;
  float max_random_contrast;
  float max_random_illumination;

  UMBRA_DECLARE_PARAMETER(ImageAugmentParam) {
    UMBRA_DECLARE_FIELD(max_rotate_angle)
        .set_default(0)
        .set_range(0, 180)
        .describe(
            "Rotate by a whole number of degrees drawn uniformly from "
            "[-max_rotate_angle, max_rotate_angle], 0 to 180; 0 turns random "
            "rotation off.");
    UMBRA_DECLARE_FIELD(rotate).set_default(-1).set_range(-1, 360).describe(
        "Rotate every image by this many degrees, 0 to 360, instead of a "
        "random angle; -1 or 0 turns it off.");
    UMBRA_DECLARE_FIELD(rotate_list)
        .set_default(std::vector<int>{})
        .describe(
            "Rotate by an angle in degrees drawn uniformly from this list "
            "(e.g. 0,90,180,270), overriding rotate and max_rotate_angle; "
            "empty turns it off.");
    UMBRA_DECLARE_FIELD(max_shear_ratio)
        .set_default(0.0f)
        .set_lower_bound(0.0f)
        .describe(
            "Shear by a factor drawn uniformly from [-max_shear_ratio, "
            "max_shear_ratio] (x moves by factor * y after the rotation); 0 "
            "turns shearing off.");
    UMBRA_DECLARE_FIELD(min_random_scale)
        .set_default(1.0f)
        .set_lower_bound(0.0f, param::kExclusive)
        .set_upper_bound(16.0f)
        .describe(
            "Smallest factor, above 0 and at most 16, by which the image is "
            "scaled; the factor is drawn uniformly from [min_random_scale, "
            "max_random_scale] and 1 keeps the size.");
    UMBRA_DECLARE_FIELD(max_random_scale)
        .set_default(1.0f)
        .set_lower_bound(0.0f, param::kExclusive)
        .set_upper_bound(16.0f)
        .describe(
            "Largest factor, at least min_random_scale and at most 16, by "
            "which the image is scaled.");
    UMBRA_DECLARE_FIELD(max_aspect_ratio)
        .set_default(0.0f)
        .set_lower_bound(0.0f)
        .set_upper_bound(1.0f, param::kExclusive)
        .describe(
            "Make the vertical scale r times the horizontal one, r drawn "
            "uniformly from [1 - max_aspect_ratio, 1 + max_aspect_ratio] "
            "(their mean stays the drawn scale), 0 to below 1; 0 turns it "
            "off.");
    UMBRA_DECLARE_FIELD(min_img_size)
        .set_default(0.0f)
        .set_range(0.0f, 65536.0f)
        .describe(
            "Smallest height and width, in pixels, of the canvas the warp "
            "draws into; a smaller scaled image is centred in it on "
            "fill_value.");
    UMBRA_DECLARE_FIELD(max_img_size)
        .set_default(1e10f)
        .set_lower_bound(1.0f)
        .describe(
            "Largest height and width, in pixels, of the canvas the warp "
            "draws into; a larger scaled image is cut to it around its "
            "centre.");
    UMBRA_DECLARE_FIELD(fill_value)
        .set_default(255)
        .set_range(0, 255)
        .describe(
            "Pixel value, 0 to 255 in every channel, that the warp draws "
            "where the rotated or scaled image does not reach.");
    UMBRA_DECLARE_FIELD(min_crop_size)
        .set_default(-1)
        .set_lower_bound(-1)
        .describe(
            "Smallest side, in pixels, of a square window cropped from the "
            "image and resized to input_shape, the side drawn uniformly from "
            "[min_crop_size, max_crop_size]; -1 (with max_crop_size -1) "
            "crops input_shape's size without resizing.");
    UMBRA_DECLARE_FIELD(max_crop_size)
        .set_default(-1)
        .set_lower_bound(-1)
        .describe(
            "Largest side, in pixels, of the square window of min_crop_size; "
            "-1 together with min_crop_size -1 turns the random-size crop "
            "off.");
    UMBRA_DECLARE_FIELD(crop_y_start)
        .set_default(-1)
        .set_lower_bound(-1)
        .describe(
            "Top row, in pixels, of the crop window instead of a random or "
            "centred one; -1 turns it off.");
    UMBRA_DECLARE_FIELD(crop_x_start)
        .set_default(-1)
        .set_lower_bound(-1)
        .describe(
            "Left column, in pixels, of the crop window instead of a random "
            "or centred one; -1 turns it off.");
    UMBRA_DECLARE_FIELD(mean_r).set_default(0.0f).describe(
        "Value, in pixel units (0 to 255), subtracted from the red or grey "
        "channel; not together with mean_value.");
    UMBRA_DECLARE_FIELD(mean_g).set_default(0.0f).describe(
        "Value, in pixel units (0 to 255), subtracted from the green "
        "channel; not together with mean_value.");
    UMBRA_DECLARE_FIELD(mean_b).set_default(0.0f).describe(
        "Value, in pixel units (0 to 255), subtracted from the blue channel; "
        "not together with mean_value.");
    UMBRA_DECLARE_FIELD(std_r)
        .set_default(1.0f)
        .set_lower_bound(0.0f, param::kExclusive)
        .describe(
            "Divisor, above 0, of the red or grey channel after the mean is "
            "subtracted (applied together with scale and divideby).");
    UMBRA_DECLARE_FIELD(std_g)
        .set_default(1.0f)
        .set_lower_bound(0.0f, param::kExclusive)
        .describe(
            "Divisor, above 0, of the green channel after the mean is "
            "subtracted (applied together with scale and divideby).");
    UMBRA_DECLARE_FIELD(std_b)
        .set_default(1.0f)
        .set_lower_bound(0.0f, param::kExclusive)
        .describe(
            "Divisor, above 0, of the blue channel after the mean is "
            "subtracted (applied together with scale and divideby).");
    UMBRA_DECLARE_FIELD(max_random_contrast)
        .set_default(0.0f)
        .set_range(0.0f, 1.0f)
        .describe(
            "Multiply the mean-subtracted values by a factor drawn uniformly "
            "from [1 - max_random_contrast, 1 + max_random_contrast], 0 to "
            "1; 0 turns it off.");
    UMBRA_DECLARE_FIELD(max_random_illumination)
        .set_default(0.0f)
        .set_lower_bound(0.0f)
        .describe(
            "Add a value, in pixel units, drawn uniformly from "
            "[-max_random_illumination, max_random_illumination] to the "
            "mean-subtracted values; 0 turns it off.");
  }
};

// A uniform float in [0, 1) from the top 24 bits of one rng() call; the same
// numbers with every standard library.
inline float RandomUnit(std::mt19937& rng) {
  return static_cast<float>(rng() >> 8) * (1.0f / 16777216.0f);
}

// A uniform integer in [0, n) from one rng() call (n >= 1): (rng() * n) >> 32.
inline std::uint32_t RandomIndex(std::mt19937& rng, std::uint32_t n) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(rng()) * n) >>
                                    32);
}

class ImageAugmenter {
 public:
  // The output is channels x height x width; channels is 1 or 3. The
  // iterator's input_shape is not read: the caller passes the resolved
  // shape. Throws DataError (with the key) for a channel count other than 1
  // or 3, a mean_value that is neither one value nor one per channel,
  // mean_value together with mean_r/g/b, min_random_scale above
  // max_random_scale, min_img_size above max_img_size, or only one of
  // min_crop_size / max_crop_size set or max_crop_size < min_crop_size.
  ImageAugmenter(const AugmentIteratorParam& iterator_param,
                 const ImageAugmentParam& param, int channels, int height,
                 int width);

  int channels() const { return channels_; }
  int height() const { return height_; }
  int width() const { return width_; }

  // Writes the augmented `source` into `out` (channels x height x width
  // floats), drawing from `rng` as the file comment lists. `mean_image` is
  // nullptr or channels x height x width floats subtracted instead of the
  // per-channel means. Throws DataError when `source` has another channel
  // count than the output, holds the wrong number of pixels, or is smaller
  // than the crop window after the warp; when the crop_y_start/crop_x_start
  // window leaves the image; or when a mean image is given although
  // mean_value or mean_r/g/b is set. Allocates nothing.
  void Process(const Image& source, std::mt19937& rng, const float* mean_image,
               float* out);

  // The evaluation transform: Process with every random choice replaced by
  // its neutral value and nothing drawn - no shear, scale 1, aspect 1, angle
  // `rotate` when set (else 0; rotate_list and max_rotate_angle unused), no
  // random-size crop, the window at crop_y_start/crop_x_start or centred,
  // no mirror, contrast 1, illumination 0. min_img_size, max_img_size,
  // fill_value and the normalisation apply as in Process.
  void ProcessCenter(const Image& source, const float* mean_image, float* out);

  // Sends every image through the warp sampler even when the fast path
  // applies (tests compare the two).
  void set_force_warp_for_testing(bool force) { force_warp_ = force; }

 private:
  // What happens to one image: the fast path's window or the warp's map,
  // the mirror and the contrast and illumination.
  struct Plan;

  // The plan for `source`: drawn from `rng`, or the neutral one when `rng`
  // is null.
  Plan MakePlan(const Image& source, std::mt19937* rng) const;
  void Render(const Image& source, const Plan& plan, const float* mean_image,
              float* out);
  void CheckSource(const Image& source, const float* mean_image) const;

  ImageAugmentParam param_;
  bool rand_crop_;
  bool rand_mirror_;
  bool mirror_;
  int channels_;
  int height_;
  int width_;
  bool crop_size_mode_;   // min_crop_size / max_crop_size set
  bool has_mean_values_;  // mean_value or mean_r/g/b set
  float multiplier_[3];   // scale / divideby / std_c
  bool force_warp_ = false;
  // Per-channel mean broadcast along one output row (channels x width), read
  // as a mean image with row stride 0.
  std::vector<float> mean_rows_;
  // The warp path's canvas coordinate of each output column and row.
  std::vector<float> column_map_;
  std::vector<float> row_map_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_IMAGE_AUGMENTER_H_
