// time: per-layer forward/backward timing of a config's net on random
// input, like `caffe time`.
#include <iostream>
#include <string>
#include <vector>

#include "tensor/tensor.h"
#include "tools/cli.h"
#include "tools/config_net.h"
#include "tools/layer_timing.h"

namespace umbra {
namespace tools {
namespace {

int Time(const CommandLine& cli) {
  const std::vector<std::string>& args = cli.positional();
  if (args.empty()) throw UsageError("give a CONFIG file");
  const int iterations = cli.GetInt("iterations", 10, 1);
  const int warmup = cli.GetInt("warmup", 1, 0);
  const std::vector<std::string> overrides(args.begin() + 1, args.end());
  ConfigNet built = BuildConfigNet(args[0], overrides);
  std::cout << "config: " << args[0] << "\n"
            << "device: " << built.param.dev << " (" << GetNumThreads()
            << " threads); input " << train::ShapeText(built.net->input_shape())
            << "\n\n"
            << FormatNetTiming(TimeNet(built.net.get(), iterations, warmup));
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
      "meaningful numbers.\n"
      "Example: bazel run -c opt //tools:time -- "
      "train/configs/fashion_mnist_lenet.conf --iterations=20",
      {{"iterations", "N", "timed passes (default 10)"},
       {"warmup", "N", "untimed passes first (default 1)"}});
  return umbra::tools::RunTool(argc, argv, &cli,
                               [&] { return umbra::tools::Time(cli); });
}
