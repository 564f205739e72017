#include "train/image/image_augmenter.h"

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "param/param.h"
#include "tensor/test_seed.h"
#include "train/data/data_error.h"
#include "train/data/instance_transform.h"
#include "train/image/image.h"

namespace umbra {
namespace train {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

AugmentIteratorParam IteratorParam(const ParamKwargs& kwargs) {
  AugmentIteratorParam param;
  param.Init(kwargs);
  return param;
}

ImageAugmentParam AugmentParam(const ParamKwargs& kwargs) {
  ImageAugmentParam param;
  param.Init(kwargs);
  return param;
}

Image RandomImage(int height, int width, int channels, std::mt19937* rng) {
  Image image;
  image.Resize(height, width, channels);
  for (std::uint8_t& v : image.pixels) v = static_cast<std::uint8_t>((*rng)());
  return image;
}

std::vector<float> RandomFloats(std::size_t count, std::mt19937* rng) {
  std::vector<float> values(count);
  for (float& v : values) v = RandomUnit(*rng) * 255.0f;
  return values;
}

// An output buffer of `augmenter`'s shape.
std::vector<float> OutputOf(const ImageAugmenter& augmenter) {
  return std::vector<float>(static_cast<std::size_t>(augmenter.channels()) *
                            augmenter.height() * augmenter.width());
}

float At(const std::vector<float>& out, const ImageAugmenter& augmenter, int c,
         int y, int x) {
  return out[(static_cast<std::size_t>(c) * augmenter.height() + y) *
                 augmenter.width() +
             x];
}

// Whether `out` is the window of `image` at (y0, x0), mirrored or not, with
// (v - mean[c]) * multiplier[c] applied.
bool IsWindow(const Image& image, const std::vector<float>& out,
              const ImageAugmenter& augmenter, int y0, int x0, bool mirror,
              const std::vector<float>& mean,
              const std::vector<float>& multiplier) {
  const int w = augmenter.width();
  for (int c = 0; c < augmenter.channels(); ++c) {
    for (int y = 0; y < augmenter.height(); ++y) {
      for (int x = 0; x < w; ++x) {
        const float v = image.at(y0 + y, x0 + (mirror ? w - 1 - x : x), c);
        if (At(out, augmenter, c, y, x) != (v - mean[c]) * multiplier[c]) {
          return false;
        }
      }
    }
  }
  return true;
}

std::string DataErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const DataError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no DataError thrown";
  return "";
}

TEST(ImageAugmenterTest, NoAugmentationIsTheCentreCropMinusMeanTimesScale) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  const Image image = RandomImage(37, 41, 3, &rng);
  const AugmentIteratorParam iterator =
      IteratorParam({{"scale", "0.5"}, {"divideby", "2"}});
  const ImageAugmentParam param = AugmentParam({{"mean_r", "120.5"},
                                                {"mean_g", "110"},
                                                {"mean_b", "99"},
                                                {"std_r", "58"},
                                                {"std_g", "57"},
                                                {"std_b", "3"}});
  ImageAugmenter augmenter(iterator, param, 3, 24, 30);
  std::vector<float> out = OutputOf(augmenter);
  const std::vector<float> mean = {120.5f, 110.0f, 99.0f};
  const std::vector<float> multiplier = {
      0.5f / 2.0f / 58.0f, 0.5f / 2.0f / 57.0f, 0.5f / 2.0f / 3.0f};
  augmenter.Process(image, rng, nullptr, out.data());
  EXPECT_TRUE(IsWindow(image, out, augmenter, (37 - 24) / 2, (41 - 30) / 2,
                       false, mean, multiplier));
  std::fill(out.begin(), out.end(), 0.0f);
  augmenter.ProcessCenter(image, nullptr, out.data());
  EXPECT_TRUE(IsWindow(image, out, augmenter, 6, 5, false, mean, multiplier));
}

// cxxnet's mirror = 1: every picture mirrored, random draws or not.
TEST(ImageAugmenterTest, MirrorMirrorsEveryPicture) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  const Image image = RandomImage(9, 11, 3, &rng);
  ImageAugmenter augmenter(IteratorParam({{"mirror", "1"}}), AugmentParam({}),
                           3, 9, 11);
  std::vector<float> out = OutputOf(augmenter);
  const std::vector<float> zero(3, 0.0f), one(3, 1.0f);
  for (int trial = 0; trial < 20; ++trial) {
    augmenter.Process(image, rng, nullptr, out.data());
    ASSERT_TRUE(IsWindow(image, out, augmenter, 0, 0, true, zero, one));
  }
  augmenter.ProcessCenter(image, nullptr, out.data());
  EXPECT_TRUE(IsWindow(image, out, augmenter, 0, 0, true, zero, one));
}

TEST(ImageAugmenterTest, GreyWithMeanValueAndMeanImage) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  const Image image = RandomImage(9, 8, 1, &rng);
  {
    ImageAugmenter augmenter(
        IteratorParam({{"mean_value", "100"}, {"divideby", "255"}}),
        AugmentParam({}), 1, 5, 5);
    std::vector<float> out = OutputOf(augmenter);
    augmenter.ProcessCenter(image, nullptr, out.data());
    EXPECT_TRUE(IsWindow(image, out, augmenter, 2, 1, false, {100.0f},
                         {1.0f / 255.0f}));
  }
  // A mean image is indexed by output position, after the mirror.
  ImageAugmenter augmenter(IteratorParam({{"rand_mirror", "1"}}),
                           AugmentParam({}), 1, 9, 8);
  const std::vector<float> mean_image = RandomFloats(9 * 8, &rng);
  std::vector<float> out = OutputOf(augmenter);
  const auto is_picture_minus_mean = [&](bool mirror) {
    for (int y = 0; y < 9; ++y) {
      for (int x = 0; x < 8; ++x) {
        const float v = image.at(y, mirror ? 7 - x : x, 0);
        if (At(out, augmenter, 0, y, x) != v - mean_image[y * 8 + x]) {
          return false;
        }
      }
    }
    return true;
  };
  std::set<bool> mirrors;
  for (int i = 0; i < 64; ++i) {
    augmenter.Process(image, rng, mean_image.data(), out.data());
    // Decided by the whole picture: a single pixel may equal its mirror image.
    const bool plain = is_picture_minus_mean(false);
    const bool mirrored = is_picture_minus_mean(true);
    ASSERT_TRUE(plain || mirrored) << "output " << i;
    if (plain != mirrored) mirrors.insert(mirrored);
  }
  EXPECT_EQ(mirrors.size(), 2u);
}

// Pixel (y, x) of a test image whose red channel names its position.
Image PositionImage(int height, int width, std::mt19937* rng) {
  Image image = RandomImage(height, width, 3, rng);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) image.at(y, x, 0) = y * 16 + x;
  }
  return image;
}

TEST(ImageAugmenterTest, RandomCropCoversEveryPositionAndMirrorsExactly) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  const Image image = PositionImage(10, 12, &rng);
  ImageAugmenter augmenter(
      IteratorParam({{"rand_crop", "1"}, {"rand_mirror", "1"}}),
      AugmentParam({}), 3, 4, 5);
  std::vector<float> out = OutputOf(augmenter);
  std::set<std::tuple<int, int, bool>> seen;
  int mirrored = 0;
  for (int i = 0; i < 3000; ++i) {
    augmenter.Process(image, rng, nullptr, out.data());
    // The red value of the window's top-left pixel names it; mirrored, that
    // pixel is the last of the first output row.
    bool found = false;
    for (const bool mirror : {false, true}) {
      const int code =
          static_cast<int>(At(out, augmenter, 0, 0, mirror ? 4 : 0));
      const int y0 = code / 16, x0 = code % 16;
      if (y0 + 4 > 10 || x0 + 5 > 12) continue;
      if (IsWindow(image, out, augmenter, y0, x0, mirror, {0, 0, 0},
                   {1, 1, 1})) {
        seen.insert({y0, x0, mirror});
        mirrored += mirror;
        found = true;
        break;
      }
    }
    ASSERT_TRUE(found) << "output " << i << " is no window of the image";
  }
  EXPECT_EQ(seen.size(), 7u * 8u * 2u);
  // Probability 1/2: 1500 +- 7 standard deviations (27.4).
  EXPECT_GT(mirrored, 1308);
  EXPECT_LT(mirrored, 1692);
}

// Rotations by multiples of 90 degrees of an n x n image, by hand from
// cxxnet's matrix (the centre is (n/2, n/2) in corner coordinates, so one
// row or column is left to fill_value):
//    90: out(y, x) = source(row x, column n - y)
//   180: out(y, x) = source(row n - y, column n - x)
//   270: out(y, x) = source(row n - x, column y)
TEST(ImageAugmenterTest, RotationsByMultiplesOf90MapPixelsAsComputed) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  const int n = 8;
  const Image image = RandomImage(n, n, 3, &rng);
  const float fill = 7.0f;
  const auto source = [&](int row, int column, int c) {
    return row >= 0 && row < n && column >= 0 && column < n
               ? static_cast<float>(image.at(row, column, c))
               : fill;
  };
  for (const std::string key : {"rotate", "rotate_list"}) {
    for (const int angle : {90, 180, 270}) {
      SCOPED_TRACE(key + " = " + std::to_string(angle));
      ImageAugmenter augmenter(
          IteratorParam({}),
          AugmentParam({{key, std::to_string(angle)}, {"fill_value", "7"}}), 3,
          n, n);
      std::vector<float> out = OutputOf(augmenter);
      augmenter.Process(image, rng, nullptr, out.data());
      for (int c = 0; c < 3; ++c) {
        for (int y = 0; y < n; ++y) {
          for (int x = 0; x < n; ++x) {
            const float expected = angle == 90    ? source(x, n - y, c)
                                   : angle == 180 ? source(n - y, n - x, c)
                                                  : source(n - x, y, c);
            ASSERT_EQ(At(out, augmenter, c, y, x), expected)
                << "channel " << c << " at " << y << "," << x;
          }
        }
      }
      if (key == "rotate") {
        // A fixed angle is no random choice: ProcessCenter rotates too.
        std::vector<float> centre = OutputOf(augmenter);
        augmenter.ProcessCenter(image, nullptr, centre.data());
        EXPECT_EQ(centre, out);
      }
    }
  }
}

TEST(ImageAugmenterTest, ScaleTwoOfAConstantImageStaysConstant) {
  Image image;
  image.Resize(16, 16, 3);
  std::fill(image.pixels.begin(), image.pixels.end(), 100);
  const ImageAugmentParam param =
      AugmentParam({{"min_random_scale", "2"}, {"max_random_scale", "2"}});
  // The canvas is 32 x 32 and canvas (x, y) reads source (x / 2, y / 2): the
  // centred 20 x 20 crop lies inside the image.
  ImageAugmenter augmenter(IteratorParam({}), param, 3, 20, 20);
  std::vector<float> out = OutputOf(augmenter);
  std::mt19937 rng(1);
  augmenter.Process(image, rng, nullptr, out.data());
  for (float v : out) ASSERT_EQ(v, 100.0f);
  // The whole canvas: its last row and column read source 15.5, half
  // fill_value (cxxnet centres in corner coordinates).
  ImageAugmenter whole(IteratorParam({}), param, 3, 32, 32);
  std::vector<float> canvas = OutputOf(whole);
  whole.Process(image, rng, nullptr, canvas.data());
  for (int y = 0; y < 32; ++y) {
    for (int x = 0; x < 32; ++x) {
      const float expected = y == 31 && x == 31   ? (100.0f + 255.0f * 3) / 4
                             : y == 31 || x == 31 ? (100.0f + 255.0f) / 2
                                                  : 100.0f;
      ASSERT_EQ(At(canvas, whole, 1, y, x), expected) << y << "," << x;
    }
  }
  // The canvas is 32 x 32: a larger crop does not fit.
  ImageAugmenter too_large(
      IteratorParam({}),
      AugmentParam({{"min_random_scale", "2"}, {"max_random_scale", "2"}}), 3,
      33, 20);
  EXPECT_THAT(
      DataErrorOf([&] { too_large.Process(image, rng, nullptr, out.data()); }),
      AllOf(HasSubstr("16x16"), HasSubstr("32x32 canvas"),
            HasSubstr("33x20 crop")));
}

TEST(ImageAugmenterTest, FillValueWhereTheWarpLeavesTheSource) {
  // Scale 1/2 of a 16 x 16 image into a 16 x 16 canvas (min_img_size): the
  // image covers canvas columns and rows 4 .. 11 (source = 2 (canvas - 4)).
  Image image;
  image.Resize(16, 16, 3);
  std::fill(image.pixels.begin(), image.pixels.end(), 100);
  ImageAugmenter augmenter(IteratorParam({}),
                           AugmentParam({{"min_random_scale", "0.5"},
                                         {"max_random_scale", "0.5"},
                                         {"min_img_size", "16"},
                                         {"fill_value", "3"}}),
                           3, 16, 16);
  std::vector<float> out = OutputOf(augmenter);
  std::mt19937 rng(1);
  augmenter.Process(image, rng, nullptr, out.data());
  for (int c = 0; c < 3; ++c) {
    for (int y = 0; y < 16; ++y) {
      for (int x = 0; x < 16; ++x) {
        const bool inside = y >= 4 && y <= 11 && x >= 4 && x <= 11;
        ASSERT_EQ(At(out, augmenter, c, y, x), inside ? 100.0f : 3.0f)
            << "at " << y << "," << x;
      }
    }
  }
}

TEST(ImageAugmenterTest, RandomSizeCropIsResizedWithAlignedPixelCentres) {
  // A ramp (value 4 * column) is linear, so bilinear resizing is exact: the
  // 8 x 8 window at (2, 6) resized to 4 x 4 reads window column 2x + 0.5.
  Image image;
  image.Resize(12, 20, 1);
  for (int y = 0; y < 12; ++y) {
    for (int x = 0; x < 20; ++x) image.at(y, x, 0) = 4 * x;
  }
  ImageAugmenter augmenter(IteratorParam({}),
                           AugmentParam({{"min_crop_size", "8"},
                                         {"max_crop_size", "8"},
                                         {"crop_y_start", "2"},
                                         {"crop_x_start", "6"}}),
                           1, 4, 4);
  std::vector<float> out = OutputOf(augmenter);
  std::mt19937 rng(1);
  augmenter.Process(image, rng, nullptr, out.data());
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      EXPECT_FLOAT_EQ(At(out, augmenter, 0, y, x), 4.0f * (6 + 2 * x + 0.5f));
    }
  }
  // The window must fit: crop_x_start 13 + 8 > 20.
  ImageAugmenter outside(IteratorParam({}),
                         AugmentParam({{"min_crop_size", "8"},
                                       {"max_crop_size", "8"},
                                       {"crop_x_start", "13"}}),
                         1, 4, 4);
  EXPECT_THAT(
      DataErrorOf([&] { outside.Process(image, rng, nullptr, out.data()); }),
      AllOf(HasSubstr("crop_x_start"), HasSubstr("largest start 12")));
}

TEST(ImageAugmenterTest, SameSeedSameOutputOtherSeedOtherOutput) {
  test::ScopedTestSeed seed;
  std::mt19937 image_rng(seed.value());
  const Image image = RandomImage(40, 36, 3, &image_rng);
  const AugmentIteratorParam iterator =
      IteratorParam({{"rand_crop", "1"}, {"rand_mirror", "1"}});
  const ImageAugmentParam param =
      AugmentParam({{"max_rotate_angle", "30"},
                    {"max_shear_ratio", "0.2"},
                    {"min_random_scale", "0.9"},
                    {"max_random_scale", "1.2"},
                    {"max_aspect_ratio", "0.2"},
                    {"max_random_contrast", "0.3"},
                    {"max_random_illumination", "10"}});
  ImageAugmenter first(iterator, param, 3, 28, 28);
  ImageAugmenter second(iterator, param, 3, 28, 28);
  std::vector<float> a = OutputOf(first), b = OutputOf(first);
  std::mt19937 rng_a(seed.value()), rng_b(seed.value()),
      rng_c(seed.value() + 1);
  for (int i = 0; i < 5; ++i) {
    first.Process(image, rng_a, nullptr, a.data());
    second.Process(image, rng_b, nullptr, b.data());
    EXPECT_EQ(a, b) << "image " << i;
    second.Process(image, rng_c, nullptr, b.data());
    EXPECT_NE(a, b) << "image " << i;
  }
}

TEST(ImageAugmenterTest, ContrastAndIlluminationStayInTheirRanges) {
  // Two pixel values, 0 and 100, minus mean 50: out = (v - 50) * contrast +
  // illumination for one contrast and illumination per image.
  Image image;
  image.Resize(2, 2, 1);
  image.pixels = {0, 100, 100, 0};
  ImageAugmenter augmenter(IteratorParam({{"mean_value", "50"}}),
                           AugmentParam({{"max_random_contrast", "0.5"},
                                         {"max_random_illumination", "20"}}),
                           1, 2, 2);
  std::vector<float> out = OutputOf(augmenter);
  std::mt19937 rng(5);
  float lowest_contrast = 2, highest_contrast = 0;
  for (int i = 0; i < 200; ++i) {
    augmenter.Process(image, rng, nullptr, out.data());
    ASSERT_EQ(out[0], out[3]);
    ASSERT_EQ(out[1], out[2]);
    const float contrast = (out[1] - out[0]) / 100.0f;
    const float illumination = (out[1] + out[0]) / 2.0f;
    ASSERT_GE(contrast, 0.5f - 1e-5f);
    ASSERT_LE(contrast, 1.5f + 1e-5f);
    ASSERT_GE(illumination, -20.0f - 1e-3f);
    ASSERT_LE(illumination, 20.0f + 1e-3f);
    lowest_contrast = std::min(lowest_contrast, contrast);
    highest_contrast = std::max(highest_contrast, contrast);
  }
  EXPECT_LT(lowest_contrast, 0.7f);
  EXPECT_GT(highest_contrast, 1.3f);
}

// The warp sampler with the identity map reads whole pixels with weights 1
// and 0, so it must give exactly what the fast path gives.
TEST(ImageAugmenterTest, FastPathAndWarpPathAgree) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  for (const int channels : {1, 3}) {
    SCOPED_TRACE("channels " + std::to_string(channels));
    const Image image = RandomImage(30, 27, channels, &rng);
    const AugmentIteratorParam iterator = IteratorParam(
        {{"rand_crop", "1"}, {"rand_mirror", "1"}, {"divideby", "255"}});
    ImageAugmenter fast(iterator, AugmentParam({}), channels, 24, 20);
    ImageAugmenter warp(iterator, AugmentParam({}), channels, 24, 20);
    warp.set_force_warp_for_testing(true);
    const std::vector<float> mean_image =
        RandomFloats(static_cast<std::size_t>(channels) * 24 * 20, &rng);
    std::vector<float> a = OutputOf(fast), b = OutputOf(warp);
    for (int i = 0; i < 20; ++i) {
      const unsigned draw_seed = rng();
      std::mt19937 rng_a(draw_seed), rng_b(draw_seed);
      const float* mean = i % 2 == 0 ? nullptr : mean_image.data();
      fast.Process(image, rng_a, mean, a.data());
      warp.Process(image, rng_b, mean, b.data());
      ASSERT_EQ(a, b) << "image " << i;
    }
  }
}

TEST(ImageAugmenterTest, RefusesWhatDoesNotFit) {
  std::mt19937 rng(1);
  ImageAugmenter augmenter(IteratorParam({}), AugmentParam({}), 3, 24, 24);
  std::vector<float> out = OutputOf(augmenter);
  Image small = RandomImage(20, 30, 3, &rng);
  EXPECT_THAT(
      DataErrorOf([&] { augmenter.Process(small, rng, nullptr, out.data()); }),
      AllOf(HasSubstr("20x30"), HasSubstr("24x24 crop")));
  Image grey = RandomImage(30, 30, 1, &rng);
  EXPECT_THAT(
      DataErrorOf([&] { augmenter.Process(grey, rng, nullptr, out.data()); }),
      AllOf(HasSubstr("1 channel"), HasSubstr("asks for 3")));
  Image rgba = RandomImage(30, 30, 4, &rng);
  EXPECT_THAT(
      DataErrorOf([&] { augmenter.ProcessCenter(rgba, nullptr, out.data()); }),
      HasSubstr("4 channel"));

  EXPECT_THAT(DataErrorOf([] {
                ImageAugmenter(IteratorParam({}), AugmentParam({}), 4, 8, 8);
              }),
              HasSubstr("got 4"));
  EXPECT_THAT(DataErrorOf([] {
                ImageAugmenter(IteratorParam({{"mean_value", "1,2,3"}}),
                               AugmentParam({{"mean_g", "5"}}), 3, 8, 8);
              }),
              HasSubstr("mean_value and mean_r"));
  EXPECT_THAT(DataErrorOf([] {
                ImageAugmenter(IteratorParam({{"mean_value", "1,2"}}),
                               AugmentParam({}), 3, 8, 8);
              }),
              HasSubstr("2 values (1,2) for 3 channels"));
  EXPECT_THAT(DataErrorOf([] {
                ImageAugmenter(IteratorParam({}),
                               AugmentParam({{"min_random_scale", "1.5"}}), 3,
                               8, 8);
              }),
              HasSubstr("above max_random_scale 1"));
  EXPECT_THAT(DataErrorOf([] {
                ImageAugmenter(IteratorParam({}),
                               AugmentParam({{"min_crop_size", "8"}}), 3, 8, 8);
              }),
              HasSubstr("min_crop_size = 8, max_crop_size = -1"));
  ImageAugmenter with_means(IteratorParam({}), AugmentParam({{"mean_r", "1"}}),
                            3, 24, 24);
  const std::vector<float> mean_image(3 * 24 * 24);
  Image image = RandomImage(24, 24, 3, &rng);
  EXPECT_THAT(DataErrorOf([&] {
                with_means.Process(image, rng, mean_image.data(), out.data());
              }),
              HasSubstr("a mean image and mean_value or mean_r"));
}

TEST(ImageAugmenterTest, ParamRefusesOutOfRangeValues) {
  EXPECT_THROW(AugmentParam({{"max_aspect_ratio", "1"}}), ParamError);
  EXPECT_THROW(AugmentParam({{"rotate", "-2"}}), ParamError);
  EXPECT_THROW(AugmentParam({{"fill_value", "256"}}), ParamError);
  EXPECT_THROW(AugmentParam({{"std_r", "0"}}), ParamError);
  EXPECT_THROW(AugmentParam({{"min_random_scale", "0"}}), ParamError);
}

}  // namespace
}  // namespace train
}  // namespace umbra
