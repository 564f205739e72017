// The settings of the built-in source iterators; the types themselves are
// registered in registered_iterators.cc.
//
//   iter = mnist      MNIST IDX files (plain or gzip)     MnistIteratorParam
//   iter = csv        one instance per CSV row            CsvIteratorParam
//   iter = binary     umbra's binary tensor format        BinaryIteratorParam
//
// Each also takes BatchIteratorParam and AugmentIteratorParam keys.
//
// Example (a config block):
//
//   data = train
//   iter = mnist
//     path_img = "train-images-idx3-ubyte.gz"
//     path_label = "train-labels-idx1-ubyte.gz"
//     input_flat = 0
//     shuffle = 1
//   iter = threadbuffer
//   iter = end
#ifndef UMBRA_TRAIN_DATA_SOURCE_ITERATORS_H_
#define UMBRA_TRAIN_DATA_SOURCE_ITERATORS_H_

#include <string>

#include "param/param.h"

namespace umbra {
namespace train {

struct MnistIteratorParam : public Parameter<MnistIteratorParam> {
  std::string path_img;
  std::string path_label;
  bool input_flat;

  UMBRA_DECLARE_PARAMETER(MnistIteratorParam) {
    UMBRA_DECLARE_FIELD(path_img).describe(
        "IDX image file (idx3-ubyte), plain or gzip.");
    UMBRA_DECLARE_FIELD(path_label)
        .describe("IDX label file (idx1-ubyte), plain or gzip.");
    UMBRA_DECLARE_FIELD(input_flat)
        .set_default(true)
        .describe(
            "Deliver each image as 1,1,rows*columns (1) or 1,rows,columns "
            "(0).");
  }
};

struct CsvIteratorParam : public Parameter<CsvIteratorParam> {
  std::string filename;
  bool has_header;

  UMBRA_DECLARE_PARAMETER(CsvIteratorParam) {
    UMBRA_DECLARE_FIELD(filename).describe(
        "CSV file: label_width label columns, then the data columns.");
    UMBRA_DECLARE_FIELD(has_header)
        .set_default(false)
        .describe("Skip the first non-blank line.");
  }
};

struct BinaryIteratorParam : public Parameter<BinaryIteratorParam> {
  std::string path_data;

  UMBRA_DECLARE_PARAMETER(BinaryIteratorParam) {
    UMBRA_DECLARE_FIELD(path_data).describe(
        "File in umbra's binary data format (train/data/binary_format.h).");
  }
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_SOURCE_ITERATORS_H_
