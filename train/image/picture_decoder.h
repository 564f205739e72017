// PictureDecoder: an ImageDecoder and the buffers of decoding one encoded
// picture and resizing it, reused from picture to picture - what each decode
// thread of the image iterators and of //tools:im2rec owns.
//
// Example:
//
//   PictureDecoder decoder;
//   const Image& picture = decoder.Decode(jpeg_bytes, /*channels=*/3,
//                                         /*shorter_side=*/256);
#ifndef UMBRA_TRAIN_IMAGE_PICTURE_DECODER_H_
#define UMBRA_TRAIN_IMAGE_PICTURE_DECODER_H_

#include "absl/strings/string_view.h"
#include "train/image/image.h"
#include "train/image/image_codec.h"

namespace umbra {
namespace train {

class PictureDecoder {
 public:
  // `bytes` (JPEG or PNG) decoded to `channels` channels and, when
  // shorter_side > 0, resized so that its shorter side has that many pixels
  // (a much larger JPEG decoded at a smaller scale first). The picture
  // lives in this decoder until the next call. Throws DataError as
  // ImageDecoder::Decode.
  const Image& Decode(absl::string_view bytes, int channels, int shorter_side);

 private:
  ImageDecoder decoder_;
  Image decoded_;
  Image resized_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_PICTURE_DECODER_H_
