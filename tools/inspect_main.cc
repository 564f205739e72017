// inspect: a checkpoint's contents, or one tensor as CSV.
#include <iostream>
#include <string>

#include "tools/checkpoint_report.h"
#include "tools/cli.h"
#include "train/net/checkpoint.h"

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
  if (!cli.Has("output")) {
    std::cout << TensorCsv(train::ReadCheckpoint(path), cli.Get("dump"));
    return 0;
  }
  // Created before the checkpoint is read: an existing file (the checkpoint
  // itself, say) or a missing directory is refused first.
  train::NewFile out(cli.Get("output"), "the CSV");
  out.Write(TensorCsv(train::ReadCheckpoint(path), cli.Get("dump")));
  out.Commit();
  std::cout << "wrote " << cli.Get("dump") << " to " << out.path() << "\n";
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
       {"output", "FILE",
        "write the CSV to FILE, a new file (default: stdout)"}});
  return umbra::tools::RunTool(argc, argv, &cli,
                               [&] { return umbra::tools::Inspect(cli); });
}
