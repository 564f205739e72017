// Image: a decoded picture in memory, 8 bits per sample, rows top to bottom,
// samples interleaved (height, width, channels) - what the decoders produce
// and the augmenter reads. channels is 1 (grey), 3 (RGB) or 4 (RGBA).
//
// Example:
//
//   Image image;
//   image.Resize(/*height=*/2, /*width=*/3, /*channels=*/3);
//   image.at(1, 2, 0) = 255;  // red of the bottom-right pixel
//
// Resize keeps the buffer's capacity, so an Image reused for many pictures
// stops allocating once it has held the largest.
#ifndef UMBRA_TRAIN_IMAGE_IMAGE_H_
#define UMBRA_TRAIN_IMAGE_IMAGE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace umbra {
namespace train {

struct Image {
  int height = 0;
  int width = 0;
  int channels = 0;
  // height * width * channels samples, (y * width + x) * channels + c.
  std::vector<std::uint8_t> pixels;

  void Resize(int new_height, int new_width, int new_channels) {
    height = new_height;
    width = new_width;
    channels = new_channels;
    pixels.resize(static_cast<std::size_t>(height) * width * channels);
  }
  std::uint8_t& at(int y, int x, int c) {
    return pixels[(static_cast<std::size_t>(y) * width + x) * channels + c];
  }
  std::uint8_t at(int y, int x, int c) const {
    return pixels[(static_cast<std::size_t>(y) * width + x) * channels + c];
  }
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_IMAGE_H_
