// device_info: the CUDA libraries and GPUs, and the CPU umbra will use.
#include <iostream>

#include "tools/cli.h"
#include "tools/cpu_info.h"
#include "tools/cuda_info.h"

int main(int argc, char** argv) {
  umbra::tools::CommandLine cli(
      "device_info",
      "Prints the CUDA runtime, driver, cuBLAS, cuDNN and NCCL versions and "
      "the GPUs\nvisible (in a build with --config=cuda), and the CPU "
      "features and thread count\numbra will use.\n"
      "Example: bazel run --config=cuda //tools:device_info",
      {});
  return umbra::tools::RunTool(argc, argv, &cli, [&] {
    if (!cli.positional().empty()) {
      throw umbra::tools::UsageError("device_info takes no arguments");
    }
    std::cout << umbra::tools::DescribeCuda() << umbra::tools::DescribeCpu();
    return 0;
  });
}
