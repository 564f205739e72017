// Fuzzes the IDX (MNIST) reader: an image file and a label file, plain or
// gzip, read and checked against each other (LoadMnist), then every
// instance read. The input is the image file's length (4 bytes, little
// endian), the image file, then the label file. A DataError is the answer to
// a bad file; anything else escaping is a finding.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "absl/strings/string_view.h"
#include "tools/fuzz/fuzz_input_file.h"
#include "tools/fuzz/read_dataset.h"
#include "train/data/data_error.h"
#include "train/data/idx_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  static umbra::tools::FuzzInputFile images("images");
  static umbra::tools::FuzzInputFile labels("labels");
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  std::uint32_t image_bytes = 0;
  std::memcpy(&image_bytes, input.data(), std::min<std::size_t>(4, size));
  const absl::string_view rest = input.substr(std::min<std::size_t>(4, size));
  images.Set(rest.substr(0, image_bytes));
  labels.Set(rest.substr(std::min<std::size_t>(image_bytes, rest.size())));
  try {
    std::unique_ptr<umbra::train::MemoryDataset> set = umbra::train::LoadMnist(
        images.path(), labels.path(), /*input_flat=*/image_bytes % 2 == 1);
    umbra::tools::ReadEveryInstance(set.get());
  } catch (const umbra::train::DataError&) {
  }
  return 0;
}
