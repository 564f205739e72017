// cuda_info.h for builds without --config=cuda.
#include "tools/cuda_info.h"

namespace umbra {
namespace tools {

bool BuiltWithCudaSupport() { return false; }

std::string DescribeCuda() {
  return "CUDA: this binary was built without CUDA, so it cannot see GPUs.\n"
         "  Rebuild with the GPU backend: bazel run --config=cuda "
         "//tools:device_info\n";
}

std::string GpuName(int ordinal) { return ""; }

}  // namespace tools
}  // namespace umbra
