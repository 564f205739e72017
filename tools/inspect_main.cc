// inspect: a checkpoint's contents, or one tensor as CSV.
#include <fstream>
#include <iostream>
#include <string>

#include "tools/checkpoint_report.h"
#include "tools/cli.h"
#include "train/checkpoint.h"

namespace umbra {
namespace tools {
namespace {

int Inspect(const CommandLine& cli) {
  if (cli.positional().size() != 1) {
    throw UsageError("give exactly one CHECKPOINT file");
  }
  const std::string& path = cli.positional()[0];
  if (cli.Has("output") && !cli.Has("dump")) {
    throw UsageError("--output goes with --dump NAME");
  }
  if (!cli.Has("dump")) {
    std::cout << DescribeCheckpoint(path);
    return 0;
  }
  const std::string csv =
      TensorCsv(train::ReadCheckpoint(path), cli.Get("dump"));
  if (!cli.Has("output")) {
    std::cout << csv;
    return 0;
  }
  const std::string out_path = cli.Get("output");
  std::ofstream out(out_path, std::ios::binary);
  out << csv;
  if (!out) throw std::runtime_error("cannot write '" + out_path + "'");
  std::cout << "wrote " << cli.Get("dump") << " to " << out_path << "\n";
  return 0;
}

}  // namespace
}  // namespace tools
}  // namespace umbra

int main(int argc, char** argv) {
  umbra::tools::CommandLine cli(
      "inspect CHECKPOINT [--dump NAME [--output FILE.csv]]",
      "Prints a checkpoint's format version, checksum (verified), round, "
      "updater,\nconfig, metrics, and every tensor's name, shape, dtype, "
      "min, max, mean and L2\nnorm. With --dump, writes only tensor NAME as "
      "CSV (one row per index of its\nfirst dimension).\n"
      "Example: bazel run //tools:inspect -- "
      "models/fashion_mnist_mlp/0010.model --dump fc1.bias",
      {{"dump", "NAME", "write tensor NAME as CSV instead of the report"},
       {"output", "FILE", "write the CSV to FILE (default: stdout)"}});
  return umbra::tools::RunTool(argc, argv, &cli,
                               [&] { return umbra::tools::Inspect(cli); });
}
