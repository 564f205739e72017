// The device a config asks for (`dev = cpu`, `dev = gpu`, `dev = gpu:2`)
// and its set-up: the CPU thread count, or the message that says how to get
// a GPU build.
//
// Example:
//
//   DeviceChoice device = ParseDevice("gpu:1");  // kind kGpu, ordinal 1
//   SetUpDevice(device, /*nthread=*/4);          // throws DeviceError
//   SetUpDevice(ParseDevice("gpu"), 0, {/*rank=*/1, /*size=*/4});  // GPU 1
#ifndef UMBRA_TRAIN_DEVICE_H_
#define UMBRA_TRAIN_DEVICE_H_

#include <stdexcept>
#include <string>

#include "absl/strings/string_view.h"

namespace umbra {
namespace train {

// A device that cannot be used, with what to do instead.
class DeviceError : public std::runtime_error {
 public:
  explicit DeviceError(const std::string& message)
      : std::runtime_error(message) {}
};

struct DeviceChoice {
  enum Kind { kCpu, kGpu };
  Kind kind = kCpu;
  // The GPU's ordinal (gpu:N); 0 for the cpu and plain `gpu`.
  int ordinal = 0;

  // "cpu" or "gpu", whatever the ordinal.
  const char* name() const { return kind == kCpu ? "cpu" : "gpu"; }
};

// Reads `cpu`, `gpu` or `gpu:N`. Throws DeviceError for anything else.
DeviceChoice ParseDevice(absl::string_view text);

// This process's place among the data-parallel ranks on its machine
// (train/dist): the ranks share its cores and GPUs.
struct LocalRanks {
  int rank = 0;
  int size = 1;
};

// Whether this binary was built with --config=cuda.
bool BuiltWithCuda();

// Prepares the device: the cpu's thread count (`nthread`, 0: the cores
// divided among the `local` ranks, at least one each) and flush-to-zero for
// denormal floats on this thread; for a gpu, also, in a --config=cuda
// build, selects it and starts the tensor engine on it (a DeviceError with
// CUDA's message when it cannot: no such device, no driver). With several
// local ranks, plain `gpu` is GPU local.rank (one GPU per rank) and `gpu:N`
// a DeviceError (every rank would share GPU N). A gpu in a build without
// CUDA is a DeviceError that says to rebuild with `bazel run --config=cuda
// //train -- ...`.
void SetUpDevice(DeviceChoice device, int nthread, LocalRanks local = {});

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DEVICE_H_
