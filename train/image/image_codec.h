// Decoding and encoding of JPEG (libjpeg-turbo's TurboJPEG) and PNG (libpng)
// pictures to and from Image, the formats of the image iterators and of
// //tools:im2rec.
//
// Example:
//
//   ImageDecoder decoder;              // one per thread
//   Image image;                       // reused: no allocation once grown
//   decoder.Decode(file_bytes, /*channels=*/3, /*min_height=*/224,
//                  /*min_width=*/224, &image);
//   std::string png = EncodePng(image);
//   std::string jpeg = EncodeJpeg(image, /*quality=*/95);
//
// Channels: the picture is converted to the channels asked for - grey is
// copied into R, G and B; colour becomes grey by Pillow's ITU-R 601-2 luma
// (R * 19595 + G * 38470 + B * 7471 + 0x8000) >> 16 (JPEG: the decoder's own
// luma plane); an alpha channel is dropped (not composited), and added as
// 255 when 4 channels are asked for.
//
// Errors: a picture that is neither JPEG nor PNG, truncated or corrupt
// (including what libjpeg-turbo reports only as a warning, such as a
// premature end of data), or too large, throws DataError with the codec's
// reason; the caller adds which file or record it was. Never a partly
// decoded picture.
#ifndef UMBRA_TRAIN_IMAGE_IMAGE_CODEC_H_
#define UMBRA_TRAIN_IMAGE_IMAGE_CODEC_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "train/image/image.h"

namespace umbra {
namespace train {

enum class ImageFormat { kUnknown, kJpeg, kPng };

// The format of an encoded picture, from its signature (first bytes).
ImageFormat DetectImageFormat(absl::string_view bytes);

// The largest width or height, and the most pixels, a decoder accepts (a
// header claiming more is refused before any allocation): 134 megapixels,
// at most 512 MiB decoded.
constexpr int kMaxImageSide = 1 << 15;
constexpr std::int64_t kMaxImagePixels = std::int64_t{1} << 27;

class ImageDecoder {
 public:
  ImageDecoder();
  ~ImageDecoder();
  ImageDecoder(const ImageDecoder&) = delete;
  ImageDecoder& operator=(const ImageDecoder&) = delete;

  // Decodes `bytes` (JPEG or PNG) into `image` with `channels` (1, 3 or 4)
  // channels. A JPEG is decoded at the smallest of libjpeg-turbo's scales
  // (1/8, 1/4, 3/8, ... 1) that keeps it at least min_height high and
  // min_width wide (0: full size); other formats are always full size.
  void Decode(absl::string_view bytes, int channels, int min_height,
              int min_width, Image* image);

 private:
  void DecodeJpeg(absl::string_view bytes, int channels, int min_height,
                  int min_width, Image* image);
  void DecodePng(absl::string_view bytes, int channels, Image* image);

  void* jpeg_handle_;  // tjhandle, made on first use
  Image native_;       // a PNG in its own channels, before conversion
};

// `image` (1, 3 or 4 channels; alpha dropped for JPEG) as a baseline JPEG of
// `quality` 1..100, 4:4:4 above quality 90, else 4:2:0.
std::string EncodeJpeg(const Image& image, int quality);
// `image` (1, 2, 3 or 4 channels) as an 8-bit PNG.
std::string EncodePng(const Image& image);

// Converts `source` (1 to 4 channels: grey, grey+alpha, RGB, RGBA) into
// `target` with `channels` (1, 3 or 4) channels as described above.
void ConvertChannels(const Image& source, int channels, Image* target);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_IMAGE_CODEC_H_
