// Checks that TurboJPEG links: a smooth random-coloured RGB picture survives
// compress + decompress at quality 95 within a few levels per sample.
#include <turbojpeg.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace {

TEST(TurboJpegTest, RoundTripSmoothPicture) {
  std::mt19937 rng(std::random_device{}());
  const int width = 40 + rng() % 20, height = 30 + rng() % 20;
  const int base = rng() % 128;
  std::vector<unsigned char> rgb(width * height * 3);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      for (int c = 0; c < 3; ++c) rgb[(y * width + x) * 3 + c] = base + x + c;
    }
  }
  tjhandle compressor = tjInitCompress();
  ASSERT_NE(compressor, nullptr);
  unsigned char* jpeg = nullptr;
  unsigned long jpeg_size = 0;
  ASSERT_EQ(tjCompress2(compressor, rgb.data(), width, 0, height, TJPF_RGB,
                        &jpeg, &jpeg_size, TJSAMP_444, 95, 0),
            0)
      << tjGetErrorStr2(compressor);
  tjDestroy(compressor);

  tjhandle decompressor = tjInitDecompress();
  int got_width = 0, got_height = 0, subsampling = 0, colorspace = 0;
  ASSERT_EQ(tjDecompressHeader3(decompressor, jpeg, jpeg_size, &got_width,
                                &got_height, &subsampling, &colorspace),
            0);
  EXPECT_EQ(got_width, width);
  EXPECT_EQ(got_height, height);
  std::vector<unsigned char> decoded(rgb.size());
  ASSERT_EQ(tjDecompress2(decompressor, jpeg, jpeg_size, decoded.data(), width,
                          0, height, TJPF_RGB, 0),
            0);
  tjDestroy(decompressor);
  tjFree(jpeg);
  for (std::size_t i = 0; i < rgb.size(); ++i) {
    ASSERT_LE(std::abs(decoded[i] - rgb[i]), 4) << "sample " << i;
  }
}

}  // namespace
