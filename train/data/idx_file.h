// The IDX files of MNIST (and Fashion-MNIST): images and labels read into a
// MemoryDataset, plain or gzip-compressed.
//
// The format (big-endian): bytes 0-1 are zero, byte 2 is the element type
// (0x08: unsigned byte, the only one accepted), byte 3 the number of
// dimensions; then one 32-bit size per dimension, then the elements. Image
// files have 3 dimensions (count, rows, columns), label files 1 (count).
//
// Example:
//
//   std::unique_ptr<MemoryDataset> set = LoadMnist(
//       "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
//       /*input_flat=*/false);
//   set->instance_shape();  // (1, 28, 28); (1, 1, 784) with input_flat
//
// Pixels are divided by 256 as cxxnet did (values in [0, 255/256]); labels
// are the label bytes as floats. Errors are DataError with the key
// (path_img or path_label) and path: a missing file, a bad magic number, a
// header whose sizes do not match the file's length (truncated, trailing
// bytes, or absurdly large: nothing is allocated from the header alone), and
// image and label counts that differ.
#ifndef UMBRA_TRAIN_DATA_IDX_FILE_H_
#define UMBRA_TRAIN_DATA_IDX_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "train/data/dataset.h"

namespace umbra {
namespace train {

// The magic numbers of the two kinds of file.
inline constexpr std::uint32_t kIdxImageMagic = 0x00000803;
inline constexpr std::uint32_t kIdxLabelMagic = 0x00000801;

// The sizes and elements of one IDX file's bytes.
struct IdxArray {
  std::vector<std::uint32_t> dims;
  // The elements (the product of dims bytes) inside the parsed buffer.
  absl::string_view elements;
};

// Parses `bytes` (the content of `path`, named in messages) as an IDX file
// of unsigned bytes with `expected_magic`. Throws DataError.
IdxArray ParseIdx(absl::string_view bytes, std::uint32_t expected_magic,
                  const std::string& path);

// The bytes of the IDX file at `path` (plain or gzip), read no further than
// its header says it holds (and a byte more): an endless stream or a file
// with a lying header never fills memory. Throws DataError (see
// file_bytes.h); ParseIdx checks what was read.
std::string ReadIdxBytes(const std::string& path, std::uint32_t expected_magic);

// Images and labels of the two files as one data set. Throws DataError with
// key "path_img" or "path_label".
std::unique_ptr<MemoryDataset> LoadMnist(const std::string& path_img,
                                         const std::string& path_label,
                                         bool input_flat);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_IDX_FILE_H_
