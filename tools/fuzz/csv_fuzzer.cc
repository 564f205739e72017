// Fuzzes the CSV reader (LoadCsv), then reads every instance. The first
// byte picks the settings: bit 0 has_header, bits 1-2 label_width - 1,
// bit 3 an input_shape of (1, 2, 2); the rest is the file. A DataError is
// the answer to a bad file; anything else escaping is a finding.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/strings/string_view.h"
#include "tools/fuzz/fuzz_input_file.h"
#include "tools/fuzz/read_dataset.h"
#include "train/data/csv_file.h"
#include "train/data/data_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  static umbra::tools::FuzzInputFile file("csv");
  if (size == 0) return 0;
  const std::uint8_t settings = data[0];
  file.Set(data + 1, size - 1);
  const bool has_header = (settings & 1) != 0;
  const umbra::index_t label_width = 1 + ((settings >> 1) & 3);
  const std::vector<int> input_shape =
      (settings & 8) != 0 ? std::vector<int>{1, 2, 2} : std::vector<int>{};
  try {
    std::unique_ptr<umbra::train::MemoryDataset> set = umbra::train::LoadCsv(
        file.path(), has_header, label_width, input_shape);
    umbra::tools::ReadEveryInstance(set.get());
  } catch (const umbra::train::DataError&) {
  }
  return 0;
}
