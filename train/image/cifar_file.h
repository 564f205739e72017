// The binary files of CIFAR-10 and CIFAR-100 (data_batch_1.bin ...
// test_batch.bin; train.bin, test.bin) read into a MemoryDataset.
//
// Each file is a sequence of fixed-size records, no header. A CIFAR-10
// record is 1 label byte (0-9) then 3072 pixel bytes; a CIFAR-100 record is
// a coarse label byte (0-19), a fine label byte (0-99), then 3072 pixel
// bytes. The pixels are the red plane, the green plane, then the blue plane,
// each 32 x 32 row-major: the (channel, height, width) layout of an
// instance, copied as they are.
//
// Example:
//
//   std::unique_ptr<MemoryDataset> set = LoadCifar(
//       {"data_batch_1.bin", "data_batch_2.bin"}, CifarFormat::kCifar10);
//   set->instance_shape();  // (3, 32, 32)
//   set->size();            // 20000
//
// Pixels are floats 0..255, not scaled (the iterator's divideby/scale keys
// do that); labels are the label bytes as floats. Errors are DataError
// naming the file: a missing file, a size that is not a whole number of
// records, a label out of range (most likely a file of the other format).
#ifndef UMBRA_TRAIN_IMAGE_CIFAR_FILE_H_
#define UMBRA_TRAIN_IMAGE_CIFAR_FILE_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "train/data/dataset.h"

namespace umbra {
namespace train {

// The pixel bytes of one image: 3 channels of 32 x 32.
inline constexpr std::size_t kCifarImageBytes = 3 * 32 * 32;

// Which files, and for CIFAR-100 which labels each instance gets. The values
// are fixed (a config enum may map to them).
enum class CifarFormat {
  kCifar10 = 0,         // 1 label: the class, 0-9
  kCifar100Fine = 1,    // 1 label: the fine class, 0-99
  kCifar100Coarse = 2,  // 1 label: the coarse class (superclass), 0-19
  kCifar100Both = 3,    // 2 labels, in file order: coarse, then fine
};

// The number of labels each instance gets in `format` (1 or 2).
int CifarLabelWidth(CifarFormat format);

// The bytes of one record in `format`'s files (3073 or 3074).
std::size_t CifarRecordBytes(CifarFormat format);

// The records of all `paths`, in order, as one data set of shape
// (3, 32, 32) with CifarLabelWidth(format) labels. The files may be
// gzip-compressed. Throws DataError naming the file (see above), and for an
// empty list of paths or files that hold no records.
std::unique_ptr<MemoryDataset> LoadCifar(const std::vector<std::string>& paths,
                                         CifarFormat format);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_CIFAR_FILE_H_
