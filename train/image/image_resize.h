// Resizing decoded pictures, for //tools:im2rec's --resize: bilinear
// interpolation with pixel centres aligned, the geometry of OpenCV's
// cv::resize(INTER_LINEAR) that MXNet's im2rec uses.
//
// Example:
//
//   const ResizedSize size = ShorterSideTo(image.height, image.width, 256);
//   ResizeImage(image, size.height, size.width, &resized);
#ifndef UMBRA_TRAIN_IMAGE_IMAGE_RESIZE_H_
#define UMBRA_TRAIN_IMAGE_IMAGE_RESIZE_H_

#include "train/image/image.h"

namespace umbra {
namespace train {

struct ResizedSize {
  int height;
  int width;
};

// height x width scaled so that the shorter side is `shorter` (the other
// rounded to the nearest pixel, at least 1).
ResizedSize ShorterSideTo(int height, int width, int shorter);

// `target` = `source` resized to height x width (>= 1 each), same channels:
// out(y, x) samples the source at ((y + 0.5) H / height - 0.5,
// (x + 0.5) W / width - 0.5), clamped to the picture, bilinearly, rounded
// to the nearest integer. A picture of the same size is copied unchanged.
void ResizeImage(const Image& source, int height, int width, Image* target);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_IMAGE_RESIZE_H_
