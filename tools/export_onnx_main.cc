// export_onnx: the trainer's `task = export` as a tool: the model a config
// describes, with the weights of model_in (or of model_dir's newest
// checkpoint), written as an ONNX file (train/onnx).
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "tools/cli.h"
#include "train/config/config.h"
#include "train/trainer.h"

namespace umbra {
namespace tools {
namespace {

int Export(const CommandLine& cli) {
  const std::vector<std::string>& args = cli.positional();
  if (args.empty()) throw UsageError("give a CONFIG file");
  train::TrainerInputs inputs;
  inputs.overrides.assign(args.begin() + 1, args.end());
  // Last, so that it wins over a task the config or the overrides set.
  inputs.overrides.push_back("task=export");
  inputs.config = train::LoadTrainConfig(args[0], inputs.overrides);
  train::Trainer trainer(std::move(inputs), std::cout);
  trainer.Run();
  return 0;
}

}  // namespace
}  // namespace tools
}  // namespace umbra

int main(int argc, char** argv) {
  umbra::tools::CommandLine cli(
      "export_onnx CONFIG [key=value ...]",
      "Writes the model of a trainer config as an ONNX file (opset 13, a "
      "free batch\ndimension): its net with the weights of model_in, or of "
      "the newest checkpoint\nin model_dir, to onnx_path. The same as the "
      "trainer's task = export.\n"
      "Example: bazel run //tools:export_onnx -- "
      "train/configs/fashion_mnist_mlp.conf\n"
      "  model_in=models/fashion_mnist_mlp/0010.model onnx_path=mlp.onnx",
      {});
  return umbra::tools::RunTool(argc, argv, &cli,
                               [&] { return umbra::tools::Export(cli); });
}
