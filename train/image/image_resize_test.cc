// Resizing keeps a constant picture constant, copies a same-size picture,
// halves a picture by averaging each 2x2 block exactly, and samples a
// gradient where the pixel-centre geometry says.
#include "train/image/image_resize.h"

#include <cmath>
#include <cstdint>
#include <random>

#include "gtest/gtest.h"
#include "tensor/test_seed.h"
#include "train/image/image.h"

namespace umbra {
namespace train {
namespace {

TEST(ImageResizeTest, ShorterSideKeepsTheAspect) {
  EXPECT_EQ(ShorterSideTo(480, 640, 240).width, 320);
  EXPECT_EQ(ShorterSideTo(480, 640, 240).height, 240);
  EXPECT_EQ(ShorterSideTo(1000, 300, 30).height, 100);
  EXPECT_EQ(ShorterSideTo(1000, 300, 30).width, 30);
  EXPECT_EQ(ShorterSideTo(3, 1000, 1).width, 333);
}

TEST(ImageResizeTest, HalvingAveragesEachBlock) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  Image source, target;
  source.Resize(2 * (1 + rng() % 10), 2 * (1 + rng() % 10), 3);
  // Even values, so every 2x2 average lands on .0 or .5 and the rounding
  // is the only thing to allow for.
  for (std::uint8_t& sample : source.pixels) sample = 2 * (rng() % 128);
  ResizeImage(source, source.height / 2, source.width / 2, &target);
  for (int y = 0; y < target.height; ++y) {
    for (int x = 0; x < target.width; ++x) {
      for (int c = 0; c < 3; ++c) {
        const double mean =
            (source.at(2 * y, 2 * x, c) + source.at(2 * y, 2 * x + 1, c) +
             source.at(2 * y + 1, 2 * x, c) +
             source.at(2 * y + 1, 2 * x + 1, c)) /
            4.0;
        ASSERT_NEAR(target.at(y, x, c), mean, 0.5) << y << "," << x;
      }
    }
  }
}

TEST(ImageResizeTest, UpscalingAGradientSamplesAtPixelCentres) {
  Image source, target;
  source.Resize(1, 4, 1);
  for (int x = 0; x < 4; ++x) source.at(0, x, 0) = 40 * x;  // 0 40 80 120
  ResizeImage(source, 1, 8, &target);
  // x' = (x + 0.5) / 2 - 0.5, clamped: -0.25 0.25 0.75 ... 3.25
  const int expected[8] = {0, 10, 30, 50, 70, 90, 110, 120};
  for (int x = 0; x < 8; ++x) EXPECT_EQ(target.at(0, x, 0), expected[x]) << x;
}

TEST(ImageResizeTest, SameSizeIsACopy) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  Image source, target;
  source.Resize(5, 7, 1);
  for (std::uint8_t& sample : source.pixels) sample = rng() & 0xFF;
  ResizeImage(source, 5, 7, &target);
  EXPECT_EQ(target.pixels, source.pixels);
}

}  // namespace
}  // namespace train
}  // namespace umbra
