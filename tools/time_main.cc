// time: per-layer forward/backward timing of a config's net on random
// input, like `caffe time`.
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tensor/tensor.h"
#include "tools/cli.h"
#include "tools/config_net.h"
#include "tools/cpu_info.h"
#include "tools/cpu_peak.h"
#include "tools/cuda_info.h"
#include "tools/layer_timing.h"
#include "train/device.h"
#include "train/net_setup.h"

namespace umbra {
namespace tools {
namespace {

struct TimeOptions {
  std::string config_path;
  int iterations = 0;
  int warmup = 0;
};

// Builds `checked`'s net on device xpu, described as `device`, times it and
// prints the timing; with the CPU's `peak`, each layer's share of it.
template <typename xpu>
void PrintTiming(const TimeOptions& options, const std::string& device,
                 const train::CheckedConfig& checked,
                 const CpuPeak* peak = nullptr) {
  const train::NetWithoutDataOn<xpu> built =
      train::BuildNetWithoutDataOn<xpu>(checked);
  std::cout << "config: " << options.config_path << "\n"
            << "device: " << device << "; input "
            << train::ShapeText(built.net->input_shape()) << "\n\n"
            << FormatNetTiming(
                   TimeNet(built.net.get(), options.iterations, options.warmup),
                   peak);
}

int Time(const CommandLine& cli) {
  const std::vector<std::string>& args = cli.positional();
  if (args.empty()) throw UsageError("give a CONFIG file");
  TimeOptions options;
  options.config_path = args[0];
  options.iterations = cli.GetInt("iterations", 10, 1);
  options.warmup = cli.GetInt("warmup", 1, 0);
  const std::vector<std::string> overrides(args.begin() + 1, args.end());
  // Sets up the device `dev` names. A gpu in a build without CUDA is the
  // trainer's error, which says to rebuild with --config=cuda, so the net
  // below is always on the device `dev` names.
  const train::CheckedConfig checked = CheckConfigFile(args[0], overrides);
#ifdef UMBRA_USE_CUDA
  const train::DeviceChoice device = train::ParseDevice(checked.param.dev);
  if (device.kind == train::DeviceChoice::kGpu) {
    const std::string name = GpuName(device.ordinal);
    PrintTiming<gpu>(options,
                     absl::StrCat("gpu:", device.ordinal,
                                  name.empty() ? "" : " (" + name + ")"),
                     checked);
    return 0;
  }
#endif
  // The ceilings first, on an idle pool.
  const CpuPeak peak = MeasureCpuPeak();
  std::cout << DescribeCpu() << FormatCpuPeak(peak);
  PrintTiming<cpu>(
      options,
      absl::StrCat(checked.param.dev, " (", GetNumThreads(), " threads)"),
      checked, &peak);
  return 0;
}

}  // namespace
}  // namespace tools
}  // namespace umbra

int main(int argc, char** argv) {
  umbra::tools::CommandLine cli(
      "time CONFIG [key=value ...] [--iterations=N] [--warmup=N]",
      "Runs forward and backward passes of a config's net on random input "
      "on the\ndevice the config names, and prints every layer's median "
      "forward and backward\ntime and the totals (like `caffe time`). The "
      "config must set batch_size and\ninput_shape. Build with -c opt for "
      "meaningful numbers, and with --config=cuda\nfor dev = gpu (the "
      "device is synchronised around every measurement).\n"
      "On the CPU it measures the FMA peak and the copy bandwidth first and "
      "gives each\nlayer's share of them: GFLOP/s of the peak for conv and "
      "fullc, GB/s of the\ncopy bandwidth for the layers whose time is "
      "their memory traffic.\n"
      "Example: bazel run -c opt //tools:time -- "
      "train/configs/fashion_mnist_lenet.conf --iterations=20",
      {{"iterations", "N", "timed passes (default 10)"},
       {"warmup", "N", "untimed passes first (default 1)"}});
  return umbra::tools::RunTool(argc, argv, &cli,
                               [&] { return umbra::tools::Time(cli); });
}
