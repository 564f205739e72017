// umbra's binary tensor format for data sets too large for CSV: fixed-size
// records read with random access (so they can be shuffled without loading
// the file), and the writer that creates such files.
//
// Layout (every number little-endian):
//
//   offset  size  field
//        0     8  magic "UMBRADAT"
//        8     4  version, uint32: 1, or 2 for a file with extra inputs
//       12     4  dtype of the data, uint32: 1 = uint8, 2 = float32
//       16     4  channels, uint32 >= 1
//       20     4  height, uint32 >= 1
//       24     4  width, uint32 >= 1
//       28     4  label_width, uint32 >= 1
//       32     8  count, uint64: the number of records
//   version 2 only:
//       40     4  extra_count, uint32 >= 1: extra inputs per record
//       44  12*E  the shape of each extra input: channels, height, width,
//                 uint32 >= 1 each
//   then  count records, each: channels*height*width data elements of
//                 dtype (channel-major, then rows, then columns); then each
//                 extra input's elements as float32, in order; then
//                 label_width float32 labels
//
// Extra inputs are cxxnet's extra data: with `extra_data_num = N` the
// trainer feeds extra input k of each instance to the net's node in_k.
// They are float32 whatever the data's dtype, and never augmented.
//
// The file's size must be exactly header + count * record size; anything
// else (truncated, trailing bytes, a header claiming more than the file
// holds) is an error when the file is opened, before anything is
// allocated. uint8 data is delivered as floats 0..255 (scale it with
// divideby). A writer without extra inputs writes version 1.
//
// Example:
//
//   BinaryDatasetWriter writer("train.umbra", Shape3(3, 32, 32),
//                              /*label_width=*/1, BinaryDtype::kUint8,
//                              /*extra_shapes=*/{Shape3(1, 1, 4)});
//   writer.Append(image, {label}, {box});  // image: 3*32*32, box: 4 floats
//   writer.Finish();                 // written to train.umbra.tmp, renamed
//
//   std::unique_ptr<Dataset> set = OpenBinaryDataset("train.umbra");
#ifndef UMBRA_TRAIN_DATA_BINARY_FORMAT_H_
#define UMBRA_TRAIN_DATA_BINARY_FORMAT_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "tensor/tensor.h"
#include "train/data/dataset.h"

namespace umbra {
namespace train {

inline constexpr char kBinaryMagic[8] = {'U', 'M', 'B', 'R',
                                         'A', 'D', 'A', 'T'};
// The version of files without extra inputs, and of files with them.
inline constexpr std::uint32_t kBinaryVersion = 1;
inline constexpr std::uint32_t kBinaryVersionExtra = 2;
// The header of a version 1 file; version 2 adds 4 + 12 * extra_count.
inline constexpr std::size_t kBinaryHeaderSize = 40;

enum class BinaryDtype : std::uint32_t { kUint8 = 1, kFloat32 = 2 };

// Writes a binary data set to `path` + ".tmp" and renames it to `path` in
// Finish(), so a reader never sees a half-written file. Destroying an
// unfinished writer removes the temporary file.
class BinaryDatasetWriter {
 public:
  // Throws DataError when the temporary file cannot be created or a shape
  // is empty.
  BinaryDatasetWriter(std::string path, const Shape<3>& instance_shape,
                      index_t label_width, BinaryDtype dtype,
                      std::vector<Shape<3>> extra_shapes = {});
  BinaryDatasetWriter(const BinaryDatasetWriter&) = delete;
  BinaryDatasetWriter& operator=(const BinaryDatasetWriter&) = delete;
  ~BinaryDatasetWriter();

  // Appends one record: `data` has instance_shape.Size() elements (for
  // uint8, integers in 0..255), `label` label_width ones, `extras` one
  // tensor of extra_shapes[k].Size() elements per extra input. Throws
  // DataError.
  void Append(Tensor<cpu, 1, float> data, const std::vector<float>& label,
              const std::vector<Tensor<cpu, 1, float>>& extras = {});
  // Writes the count, closes and renames the file. Throws DataError.
  void Finish();

  index_t count() const { return count_; }

 private:
  void WriteBytes(const void* bytes, std::size_t size);

  std::string path_;
  std::string temp_path_;
  Shape<3> shape_;
  index_t label_width_;
  BinaryDtype dtype_;
  std::vector<Shape<3>> extra_shapes_;
  std::FILE* file_ = nullptr;
  index_t count_ = 0;
  std::vector<unsigned char> record_;
};

// Opens a binary data set and checks its header against its size. Throws
// DataError (without key) naming the path.
std::unique_ptr<Dataset> OpenBinaryDataset(const std::string& path);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_BINARY_FORMAT_H_
