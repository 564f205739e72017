// The mean image file of the image iterators (`mean_img`, cxxnet's
// `image_mean`): one float per value of input_shape (channels, then rows,
// then columns), subtracted from every instance.
//
// Two formats are read, told apart by their content:
//   - umbra's binary data format (binary_format.h) with one float32 record,
//     its label the number of pictures averaged: what umbra writes;
//   - cxxnet's: mshadow's SaveBinary of a 3-dimensional float tensor, its
//     shape as three uint32 (mshadow's index_t of cxxnet's time) or three
//     int64 (mshadow built with 64-bit sizes), then the floats.
//
// Example:
//
//   WriteMeanImage("mean.bin", Shape3(3, 224, 224), mean.data(), 50000);
//   std::vector<float> mean = ReadMeanImage("mean.bin", Shape3(3, 224, 224));
#ifndef UMBRA_TRAIN_IMAGE_MEAN_IMAGE_FILE_H_
#define UMBRA_TRAIN_IMAGE_MEAN_IMAGE_FILE_H_

#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace umbra {
namespace train {

// The mean image in the file at `path`, which must hold `shape`'s values.
// Throws DataError naming the file: missing or unreadable, in neither
// format, or of another shape (saying to delete it to make it again).
std::vector<float> ReadMeanImage(const std::string& path, Shape<3> shape);

// Writes the mean of `count` pictures, `shape.Size()` floats at `mean`, in
// umbra's format (atomically: a temporary file renamed). Creates the
// file's folder when it does not exist. Throws DataError naming the file.
void WriteMeanImage(const std::string& path, Shape<3> shape, const float* mean,
                    index_t count);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_MEAN_IMAGE_FILE_H_
