// Checks that libpng links: random grey samples survive a write + read
// through libpng's simplified API exactly (PNG is lossless).
#include <png.h>

#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace {

TEST(LibPngTest, RoundTripRandomGreyPicture) {
  std::mt19937 rng(std::random_device{}());
  const int width = 10 + rng() % 30, height = 10 + rng() % 30;
  std::vector<png_byte> grey(width * height);
  for (png_byte& sample : grey) sample = static_cast<png_byte>(rng());

  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_GRAY;
  png_alloc_size_t size = 0;
  ASSERT_TRUE(png_image_write_to_memory(&image, nullptr, &size, 0, grey.data(),
                                        0, nullptr));
  std::vector<png_byte> png(size);
  ASSERT_TRUE(png_image_write_to_memory(&image, png.data(), &size, 0,
                                        grey.data(), 0, nullptr))
      << image.message;

  png_image read{};
  read.version = PNG_IMAGE_VERSION;
  ASSERT_TRUE(png_image_begin_read_from_memory(&read, png.data(), size));
  EXPECT_EQ(read.width, static_cast<png_uint_32>(width));
  EXPECT_EQ(read.height, static_cast<png_uint_32>(height));
  read.format = PNG_FORMAT_GRAY;
  std::vector<png_byte> decoded(PNG_IMAGE_SIZE(read));
  ASSERT_TRUE(
      png_image_finish_read(&read, nullptr, decoded.data(), 0, nullptr));
  EXPECT_EQ(decoded, grey);
}

}  // namespace
