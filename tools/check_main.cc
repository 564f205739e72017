// check: reads a config and refuses it as the trainer would before reading
// any data (every key and value, the blocks the task reads, that their
// files open, that pred's output file is new), builds its net without data
// or training (on the cpu whatever dev says: shapes and memory are the same
// on either device), and prints the layers, their output shapes and
// parameter counts, and a memory estimate.
#include <iostream>
#include <string>
#include <vector>

#include "tools/cli.h"
#include "tools/config_net.h"
#include "tools/net_memory.h"
#include "train/device.h"

namespace umbra {
namespace tools {
namespace {

// `dev`; for a gpu, also that the net was built on the cpu.
std::string DeviceText(const std::string& dev) {
  if (train::ParseDevice(dev).kind == train::DeviceChoice::kCpu) return dev;
  return dev +
         " (the net is built on the cpu: shapes and memory are the same "
         "on either device)";
}

int Check(const CommandLine& cli) {
  const std::vector<std::string>& args = cli.positional();
  if (args.empty()) throw UsageError("give a CONFIG file");
  const std::vector<std::string> overrides(args.begin() + 1, args.end());
  const train::CheckedConfig checked = CheckConfigFile(args[0], overrides);
  ConfigNet built = train::BuildNetWithoutDataOn<cpu>(checked);
  // What else the trainer refuses before reading data: the task's blocks
  // and their files.
  train::CheckTaskData(checked);
  for (const train::ConfigNotice& notice : built.notices) {
    std::cout << notice.ToString() << "\n";
  }
  std::cout << "config: " << args[0] << "\n"
            << "device: " << DeviceText(built.param.dev)
            << "; updater: " << built.param.updater << "\n\n"
            << built.net->Summary() << "\n"
            << FormatNetMemory(
                   EstimateNetMemory(built.net.get(), built.updater.get()),
                   built.net->input_shape()[0])
            << "\nOK: the config is valid and its net builds.\n";
  return 0;
}

}  // namespace
}  // namespace tools
}  // namespace umbra

int main(int argc, char** argv) {
  umbra::tools::CommandLine cli(
      "check CONFIG [key=value ...]",
      "Checks a trainer config as the trainer would before reading data (the "
      "task's\nblocks, that their files open), builds its net without "
      "data or\ntraining, and prints every layer with its output shape and "
      "parameter count, the\ntotal, and an estimate of the memory for "
      "weights, gradients, updater state and\nactivations at the configured "
      "batch size. Exits 1 with the trainer's error when\nthe config is "
      "wrong. The config must set batch_size and input_shape.\n"
      "The net is built on the cpu whatever dev says: shapes, parameter "
      "counts and\nmemory are the same on either device (dev = gpu is still "
      "checked: it needs a\n--config=cuda build and the GPU).\n"
      "Example: bazel run //tools:check -- "
      "train/configs/fashion_mnist_mlp.conf batch_size=128",
      {});
  return umbra::tools::RunTool(argc, argv, &cli,
                               [&] { return umbra::tools::Check(cli); });
}
