#include "train/device.h"

#include <xmmintrin.h>

#include <algorithm>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tensor/tensor.h"
#include "tensor/threads.h"

namespace umbra {
namespace train {

DeviceChoice ParseDevice(absl::string_view text) {
  DeviceChoice device;
  if (text == "cpu") return device;
  if (text == "gpu") {
    device.kind = DeviceChoice::kGpu;
    return device;
  }
  int ordinal = 0;
  if (absl::StartsWith(text, "gpu:") &&
      absl::SimpleAtoi(text.substr(4), &ordinal) && ordinal >= 0) {
    device.kind = DeviceChoice::kGpu;
    device.ordinal = ordinal;
    return device;
  }
  throw DeviceError(
      absl::StrCat("dev = ", text, ": expected cpu, gpu or gpu:N (N >= 0)"));
}

bool BuiltWithCuda() {
#ifdef UMBRA_USE_CUDA
  return true;
#else
  return false;
#endif
}

void SetUpDevice(DeviceChoice device, int nthread, LocalRanks local) {
  if (device.kind == DeviceChoice::kGpu && local.size > 1) {
    if (device.ordinal != 0) {
      throw DeviceError(absl::StrCat(
          "dev = gpu:", device.ordinal, " with ", local.size,
          " ranks on this machine: every rank would use GPU ", device.ordinal,
          "; write dev = gpu (local rank r uses GPU r)"));
    }
    device.ordinal = local.rank;
  }
  if (device.kind == DeviceChoice::kGpu) {
#ifdef UMBRA_USE_CUDA
    try {
      InitTensorEngine<gpu>(device.ordinal);
    } catch (const TensorError& e) {
      throw DeviceError(absl::StrCat("dev = gpu:", device.ordinal,
                                     ": cannot start the GPU: ", e.what()));
    }
#else
    throw DeviceError(
        "dev = gpu: this trainer was built without CUDA; rebuild and run "
        "it with `bazel run -c opt --config=cuda //train -- CONFIG "
        "[key=value ...]`, or set dev = cpu");
#endif
  }
  // The host threads also serve a gpu run (data, metrics).
  if (nthread == 0 && local.size > 1) {
    nthread = std::max(
        1, static_cast<int>(std::thread::hardware_concurrency()) / local.size);
  }
  // Flush denormal results and inputs to zero (FTZ and DAZ): optimiser
  // state such as Adam's second moment decays into denormals, which the
  // CPU handles many times slower, and training slows down round by round.
  // Set before the pool starts: its threads inherit it.
  _mm_setcsr(_mm_getcsr() | 0x8040);
  SetNumThreads(nthread);
}

}  // namespace train
}  // namespace umbra
