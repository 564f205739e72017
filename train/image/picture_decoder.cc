#include "train/image/picture_decoder.h"

#include "absl/strings/string_view.h"
#include "train/image/image.h"
#include "train/image/image_resize.h"

namespace umbra {
namespace train {

const Image& PictureDecoder::Decode(absl::string_view bytes, int channels,
                                    int shorter_side) {
  decoder_.Decode(bytes, channels, shorter_side, shorter_side, &decoded_);
  if (shorter_side <= 0) return decoded_;
  const ResizedSize size =
      ShorterSideTo(decoded_.height, decoded_.width, shorter_side);
  ResizeImage(decoded_, size.height, size.width, &resized_);
  return resized_;
}

}  // namespace train
}  // namespace umbra
