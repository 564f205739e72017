// Fuzzes the checkpoint reader and what every task does with what it reads:
// ReadCheckpoint (magic, version, checksum, size), the non-finite check, and
// loading the weights, the layer states and the updater's state into a
// model (exactly, and by name as finetune does). Each input is tried twice:
// as a whole file, and as the payload of a well-framed file (a valid magic,
// version and checksum around it), so the mutations reach the loaders
// behind the checksum. A CheckpointError is the answer to a bad checkpoint;
// anything else escaping is a finding.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "tools/fuzz/checkpoint_fuzz_model.h"
#include "tools/fuzz/fuzz_input_file.h"
#include "train/model.h"
#include "train/net/checkpoint.h"

namespace {

using umbra::train::Checkpoint;
using umbra::train::CheckpointError;

void ReadAndLoad(const std::string& path, umbra::train::Model* model) {
  try {
    const Checkpoint checkpoint = umbra::train::ReadCheckpoint(path);
    if (!umbra::train::FirstNonFiniteTensor(checkpoint).empty()) return;
    model->LoadWeightsByName(checkpoint, path);
    model->LoadWeights(checkpoint, path);
    model->LoadUpdater(checkpoint, path);
  } catch (const CheckpointError&) {
  }
}

// `payload` in a checkpoint file with a valid magic, version and checksum.
std::string FramedFile(absl::string_view payload) {
  umbra::train::CheckpointFile file;
  file.set_magic(std::string(umbra::train::kCheckpointMagic));
  file.set_format_version(umbra::train::kCheckpointFormatVersion);
  file.set_payload(std::string(payload));
  file.set_checksum(umbra::train::Fnv1a64(payload));
  return file.SerializeAsString();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  static const std::unique_ptr<umbra::train::Model> model =
      umbra::tools::MakeCheckpointFuzzModel();
  static umbra::tools::FuzzInputFile file("checkpoint");
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  file.Set(input);
  ReadAndLoad(file.path(), model.get());
  file.Set(FramedFile(input));
  ReadAndLoad(file.path(), model.get());
  return 0;
}
