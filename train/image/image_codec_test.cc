// The decoders read back what the encoders wrote: PNG exactly, JPEG within
// a few levels; channels convert as documented; JPEG downscaling picks the
// smallest scale that still covers the target; damaged bytes are refused.
#include "train/image/image_codec.h"

#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/test_seed.h"
#include "train/data/data_error.h"
#include "train/image/image.h"

namespace umbra {
namespace train {
namespace {

using ::testing::HasSubstr;

Image RandomImage(std::mt19937& rng, int height, int width, int channels) {
  Image image;
  image.Resize(height, width, channels);
  for (std::uint8_t& sample : image.pixels) sample = rng() & 0xFF;
  return image;
}

// A gentle gradient, which JPEG keeps within a few levels.
Image SmoothImage(int height, int width, int channels, int base) {
  Image image;
  image.Resize(height, width, channels);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      for (int c = 0; c < channels; ++c) {
        image.at(y, x, c) = (base + (x + y) / 4 + 20 * c) & 0xFF;
      }
    }
  }
  return image;
}

TEST(ImageCodecTest, PngRoundTripIsExactForEveryChannelCount) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  ImageDecoder decoder;
  for (int channels : {1, 3, 4}) {
    const Image original =
        RandomImage(rng, 5 + rng() % 40, 5 + rng() % 40, channels);
    const std::string png = EncodePng(original);
    EXPECT_EQ(DetectImageFormat(png), ImageFormat::kPng);
    Image decoded;
    decoder.Decode(png, channels, 0, 0, &decoded);
    EXPECT_EQ(decoded.height, original.height);
    EXPECT_EQ(decoded.width, original.width);
    EXPECT_EQ(decoded.channels, channels);
    EXPECT_EQ(decoded.pixels, original.pixels) << channels << " channels";
  }
}

TEST(ImageCodecTest, JpegRoundTripIsClose) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  ImageDecoder decoder;
  for (int channels : {1, 3}) {
    const Image original =
        SmoothImage(16 + rng() % 50, 16 + rng() % 50, channels, rng() % 100);
    const std::string jpeg = EncodeJpeg(original, 95);
    EXPECT_EQ(DetectImageFormat(jpeg), ImageFormat::kJpeg);
    Image decoded;
    decoder.Decode(jpeg, channels, 0, 0, &decoded);
    ASSERT_EQ(decoded.pixels.size(), original.pixels.size());
    for (std::size_t i = 0; i < original.pixels.size(); ++i) {
      ASSERT_NEAR(decoded.pixels[i], original.pixels[i], 4) << "sample " << i;
    }
  }
}

TEST(ImageCodecTest, GreyBecomesRgbByCopyAndRgbaGetsOpaqueAlpha) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  const Image grey = RandomImage(rng, 7, 9, 1);
  ImageDecoder decoder;
  Image rgba;
  decoder.Decode(EncodePng(grey), 4, 0, 0, &rgba);
  for (int y = 0; y < grey.height; ++y) {
    for (int x = 0; x < grey.width; ++x) {
      for (int c = 0; c < 3; ++c) ASSERT_EQ(rgba.at(y, x, c), grey.at(y, x, 0));
      ASSERT_EQ(rgba.at(y, x, 3), 255);
    }
  }
}

TEST(ImageCodecTest, ColourBecomesGreyByLumaAndAlphaIsDropped) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  const Image rgba = RandomImage(rng, 6, 8, 4);
  ImageDecoder decoder;
  Image grey, rgb;
  decoder.Decode(EncodePng(rgba), 1, 0, 0, &grey);
  decoder.Decode(EncodePng(rgba), 3, 0, 0, &rgb);
  for (int y = 0; y < rgba.height; ++y) {
    for (int x = 0; x < rgba.width; ++x) {
      const double luma = 0.299 * rgba.at(y, x, 0) + 0.587 * rgba.at(y, x, 1) +
                          0.114 * rgba.at(y, x, 2);
      ASSERT_NEAR(grey.at(y, x, 0), luma, 0.51);
      for (int c = 0; c < 3; ++c) ASSERT_EQ(rgb.at(y, x, c), rgba.at(y, x, c));
    }
  }
}

TEST(ImageCodecTest, JpegDownscalesToTheSmallestScaleCoveringTheTarget) {
  ImageDecoder decoder;
  const std::string jpeg = EncodeJpeg(SmoothImage(256, 320, 3, 10), 90);
  Image image;
  decoder.Decode(jpeg, 3, 0, 0, &image);
  EXPECT_EQ(image.height, 256);
  EXPECT_EQ(image.width, 320);
  decoder.Decode(jpeg, 3, 100, 100, &image);  // 1/2; 3/8 would give 96 rows
  EXPECT_EQ(image.height, 128);
  EXPECT_EQ(image.width, 160);
  decoder.Decode(jpeg, 3, 20, 40, &image);  // 1/8: 32 x 40
  EXPECT_EQ(image.height, 32);
  EXPECT_EQ(image.width, 40);
  decoder.Decode(jpeg, 3, 300, 10, &image);  // no scale is larger than 1
  EXPECT_EQ(image.height, 256);
}

TEST(ImageCodecTest, TruncatedPicturesAreRefusedNotHalfDecoded) {
  test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  ImageDecoder decoder;
  Image image;
  const std::string jpeg = EncodeJpeg(RandomImage(rng, 64, 64, 3), 90);
  const std::string png = EncodePng(RandomImage(rng, 64, 64, 3));
  const std::size_t cut = 100 + rng() % 1000;
  EXPECT_THAT([&] { decoder.Decode(jpeg.substr(0, cut), 3, 0, 0, &image); },
              ::testing::ThrowsMessage<DataError>(HasSubstr("JPEG")));
  EXPECT_THAT([&] { decoder.Decode(png.substr(0, cut), 3, 0, 0, &image); },
              ::testing::ThrowsMessage<DataError>(HasSubstr("PNG")));
}

// A header claiming a huge picture is refused before anything is
// allocated: here a PNG whose IHDR says 30000 x 30000 (900 megapixels).
TEST(ImageCodecTest, AHugeClaimedSizeIsRefused) {
  std::string png = EncodePng(SmoothImage(4, 4, 1, 0));
  // IHDR's width and height, big-endian, at bytes 16..23; the chunk's CRC
  // then no longer matches, which libpng would also refuse, so fix it.
  for (int i : {16, 20}) {
    png[i] = 0;
    png[i + 1] = 0;
    png[i + 2] = static_cast<char>(30000 >> 8);
    png[i + 3] = static_cast<char>(30000 & 0xFF);
  }
  const std::uint32_t crc = static_cast<std::uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(png.data() + 12), 17));
  for (int b = 0; b < 4; ++b)
    png[29 + b] = static_cast<char>(crc >> (24 - 8 * b));
  ImageDecoder decoder;
  Image image;
  EXPECT_THAT([&] { decoder.Decode(png, 1, 0, 0, &image); },
              ::testing::ThrowsMessage<DataError>(
                  HasSubstr("PNG header gives 30000x30000 pixels")));
}

TEST(ImageCodecTest, OtherBytesAreNotAPicture) {
  ImageDecoder decoder;
  Image image;
  EXPECT_THAT([&] { decoder.Decode("GIF89a....", 3, 0, 0, &image); },
              ::testing::ThrowsMessage<DataError>(
                  HasSubstr("not a JPEG or PNG picture (10 bytes, starting "
                            "GIF89a..")));
  EXPECT_THAT([&] { decoder.Decode("", 3, 0, 0, &image); },
              ::testing::ThrowsMessage<DataError>(HasSubstr("(0 bytes)")));
  EXPECT_THAT(
      [&] {
        decoder.Decode(EncodePng(SmoothImage(4, 4, 3, 0)), 2, 0, 0, &image);
      },
      ::testing::ThrowsMessage<DataError>(HasSubstr("not 2")));
}

}  // namespace
}  // namespace train
}  // namespace umbra
