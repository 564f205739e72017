#include "train/image/image_codec.h"

#include <png.h>
#include <turbojpeg.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "train/data/data_error.h"
#include "train/image/image.h"

namespace umbra {
namespace train {
namespace {

const unsigned char* Bytes(absl::string_view bytes) {
  return reinterpret_cast<const unsigned char*>(bytes.data());
}

void CheckChannels(int channels) {
  if (channels != 1 && channels != 3 && channels != 4) {
    throw DataError(absl::StrFormat(
        "images have 1 (grey), 3 (RGB) or 4 (RGBA) channels, not %d",
        channels));
  }
}

void CheckSize(const char* format, std::int64_t height, std::int64_t width) {
  if (height < 1 || width < 1 || height > kMaxImageSide ||
      width > kMaxImageSide || height * width > kMaxImagePixels) {
    throw DataError(absl::StrFormat(
        "%s header gives %dx%d pixels (width x height); at most %d on a "
        "side and %d in all",
        format, width, height, kMaxImageSide, kMaxImagePixels));
  }
}

int TurboPixelFormat(int channels) {
  return channels == 1 ? TJPF_GRAY : channels == 3 ? TJPF_RGB : TJPF_RGBA;
}

// The smallest libjpeg-turbo scale that keeps `height` x `width` at least
// min_height x min_width; 1/1 when none is smaller.
tjscalingfactor ChooseScale(int height, int width, int min_height,
                            int min_width) {
  int count = 0;
  const tjscalingfactor* factors = tjGetScalingFactors(&count);
  tjscalingfactor best = {1, 1};
  if (min_height <= 0 && min_width <= 0) return best;
  for (int i = 0; i < count; ++i) {
    const tjscalingfactor f = factors[i];
    const bool shrinks = f.num * best.denom < best.num * f.denom;
    if (shrinks && TJSCALED(height, f) >= min_height &&
        TJSCALED(width, f) >= min_width) {
      best = f;
    }
  }
  return best;
}

// Pillow's ITU-R 601-2 luma, in integers.
std::uint8_t Luma(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  return static_cast<std::uint8_t>(
      (r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16);
}

}  // namespace

ImageFormat DetectImageFormat(absl::string_view bytes) {
  if (bytes.size() >= 3 && Bytes(bytes)[0] == 0xFF && Bytes(bytes)[1] == 0xD8 &&
      Bytes(bytes)[2] == 0xFF) {
    return ImageFormat::kJpeg;
  }
  if (bytes.size() >= 8 && png_sig_cmp(Bytes(bytes), 0, 8) == 0) {
    return ImageFormat::kPng;
  }
  return ImageFormat::kUnknown;
}

ImageDecoder::ImageDecoder() : jpeg_handle_(nullptr) {}

ImageDecoder::~ImageDecoder() {
  if (jpeg_handle_ != nullptr) tjDestroy(jpeg_handle_);
}

void ImageDecoder::Decode(absl::string_view bytes, int channels, int min_height,
                          int min_width, Image* image) {
  CheckChannels(channels);
  switch (DetectImageFormat(bytes)) {
    case ImageFormat::kJpeg:
      return DecodeJpeg(bytes, channels, min_height, min_width, image);
    case ImageFormat::kPng:
      return DecodePng(bytes, channels, image);
    case ImageFormat::kUnknown:
      break;
  }
  throw DataError(absl::StrFormat(
      "not a JPEG or PNG picture (%d bytes%s)", bytes.size(),
      bytes.empty() ? ""
                    : absl::StrFormat(", starting %s",
                                      absl::CHexEscape(bytes.substr(0, 8)))));
}

void ImageDecoder::DecodeJpeg(absl::string_view bytes, int channels,
                              int min_height, int min_width, Image* image) {
  if (jpeg_handle_ == nullptr) jpeg_handle_ = tjInitDecompress();
  if (jpeg_handle_ == nullptr) {
    throw DataError(std::string("cannot start libjpeg-turbo: ") +
                    tjGetErrorStr2(nullptr));
  }
  int width = 0, height = 0, subsampling = 0, colorspace = 0;
  if (tjDecompressHeader3(jpeg_handle_, Bytes(bytes), bytes.size(), &width,
                          &height, &subsampling, &colorspace) != 0) {
    throw DataError(std::string("corrupt JPEG header: ") +
                    tjGetErrorStr2(jpeg_handle_));
  }
  CheckSize("JPEG", height, width);
  const tjscalingfactor scale =
      ChooseScale(height, width, min_height, min_width);
  image->Resize(TJSCALED(height, scale), TJSCALED(width, scale), channels);
  // Stop on warnings too: libjpeg-turbo only warns about truncated data and
  // would fill the rest of the picture with grey.
  if (tjDecompress2(jpeg_handle_, Bytes(bytes), bytes.size(),
                    image->pixels.data(), image->width, 0, image->height,
                    TurboPixelFormat(channels), TJFLAG_STOPONWARNING) != 0) {
    throw DataError(std::string("corrupt or truncated JPEG: ") +
                    tjGetErrorStr2(jpeg_handle_));
  }
}

void ImageDecoder::DecodePng(absl::string_view bytes, int channels,
                             Image* image) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  // Frees libpng's state on every way out (a second free does nothing).
  const std::unique_ptr<png_image, void (*)(png_image*)> release(
      &png, [](png_image* opened) { png_image_free(opened); });
  if (!png_image_begin_read_from_memory(&png, bytes.data(), bytes.size())) {
    throw DataError(std::string("corrupt PNG header: ") + png.message);
  }
  CheckSize("PNG", png.height, png.width);
  // 8 bits per sample in the picture's own channels (palettes expanded).
  png.format &= PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA;
  const int native_channels = PNG_IMAGE_SAMPLE_CHANNELS(png.format);
  Image* target = native_channels == channels ? image : &native_;
  target->Resize(png.height, png.width, native_channels);
  if (!png_image_finish_read(&png, nullptr, target->pixels.data(), 0,
                             nullptr)) {
    throw DataError(std::string("corrupt or truncated PNG: ") + png.message);
  }
  if (target != image) ConvertChannels(native_, channels, image);
}

std::string EncodeJpeg(const Image& image, int quality) {
  CheckChannels(image.channels);
  tjhandle handle = tjInitCompress();
  if (handle == nullptr) {
    throw DataError(std::string("cannot start libjpeg-turbo: ") +
                    tjGetErrorStr2(nullptr));
  }
  const int subsampling = image.channels == 1 ? TJSAMP_GRAY
                          : quality > 90      ? TJSAMP_444
                                              : TJSAMP_420;
  unsigned char* jpeg = nullptr;
  unsigned long size = 0;
  const int failed =
      tjCompress2(handle, image.pixels.data(), image.width, 0, image.height,
                  TurboPixelFormat(image.channels), &jpeg, &size, subsampling,
                  std::clamp(quality, 1, 100), 0);
  const std::string reason = failed ? tjGetErrorStr2(handle) : "";
  tjDestroy(handle);
  std::string encoded;
  if (!failed) encoded.assign(reinterpret_cast<const char*>(jpeg), size);
  tjFree(jpeg);
  if (failed) throw DataError("cannot encode JPEG: " + reason);
  return encoded;
}

std::string EncodePng(const Image& image) {
  static constexpr png_uint_32 kFormats[] = {PNG_FORMAT_GRAY, PNG_FORMAT_GA,
                                             PNG_FORMAT_RGB, PNG_FORMAT_RGBA};
  if (image.channels < 1 || image.channels > 4) CheckChannels(image.channels);
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = image.width;
  png.height = image.height;
  png.format = kFormats[image.channels - 1];
  png_alloc_size_t size = 0;
  std::string encoded;
  // The first call measures, the second writes.
  for (int pass = 0; pass < 2; ++pass) {
    if (!png_image_write_to_memory(&png, pass ? &encoded[0] : nullptr, &size, 0,
                                   image.pixels.data(), 0, nullptr)) {
      throw DataError(std::string("cannot encode PNG: ") + png.message);
    }
    encoded.resize(size);
  }
  return encoded;
}

void ConvertChannels(const Image& source, int channels, Image* target) {
  CheckChannels(channels);
  target->Resize(source.height, source.width, channels);
  const int from = source.channels;
  const bool colour = from >= 3;
  const bool alpha = from == 2 || from == 4;
  const std::uint8_t* in = source.pixels.data();
  std::uint8_t* out = target->pixels.data();
  const std::size_t pixels =
      static_cast<std::size_t>(source.height) * source.width;
  for (std::size_t i = 0; i < pixels; ++i, in += from, out += channels) {
    const std::uint8_t r = in[0];
    const std::uint8_t g = colour ? in[1] : r;
    const std::uint8_t b = colour ? in[2] : r;
    if (channels == 1) {
      out[0] = colour ? Luma(r, g, b) : r;
      continue;
    }
    out[0] = r;
    out[1] = g;
    out[2] = b;
    if (channels == 4) out[3] = alpha ? in[from - 1] : 255;
  }
}

}  // namespace train
}  // namespace umbra
