// Fuzzes umbra's binary data format reader (OpenBinaryDataset, versions 1
// and 2), then reads every instance and its extra inputs. A DataError is
// the answer to a bad file; anything else escaping is a finding.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "tools/fuzz/fuzz_input_file.h"
#include "tools/fuzz/read_dataset.h"
#include "train/data/binary_format.h"
#include "train/data/data_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  static umbra::tools::FuzzInputFile file("binary");
  file.Set(data, size);
  try {
    std::unique_ptr<umbra::train::Dataset> set =
        umbra::train::OpenBinaryDataset(file.path());
    umbra::tools::ReadEveryInstance(set.get());
  } catch (const umbra::train::DataError&) {
  }
  return 0;
}
