// The trainer binary: `bazel run //train -- my.conf [key=value ...]`.
//
// Reads the config (paths in it are relative to the caller's directory,
// BUILD_WORKING_DIRECTORY under `bazel run`), applies the overrides, runs
// the config's task and exits 0; on any bad input it prints the message and
// exits 1.
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "train/config/config.h"
#include "train/trainer.h"
#include "train/trainer_param.h"

namespace {

constexpr char kUsage[] =
    "usage: train CONFIG [key=value ...]\n"
    "  Trains (or predicts with, or evaluates) the net CONFIG describes, in\n"
    "  cxxnet's config format; key=value arguments override the file.\n"
    "  Example: bazel run -c opt //train -- "
    "train/configs/fashion_mnist_mlp.conf num_round=2\n";

int Main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" ||
      std::string(argv[1]) == "-h") {
    if (argc < 2) {
      std::cerr << kUsage;
      return 1;
    }
    std::cout << kUsage << "\nThe trainer's own keys:\n"
              << umbra::train::TrainerParam::Doc();
    return 0;
  }
  if (const char* dir = std::getenv("BUILD_WORKING_DIRECTORY")) {
    if (chdir(dir) != 0) {
      std::cerr << "error: cannot change to the caller's directory '" << dir
                << "'\n";
      return 1;
    }
  }
  umbra::train::TrainerInputs inputs;
  const std::string path = argv[1];
  inputs.overrides.assign(argv + 2, argv + argc);
  inputs.config = umbra::train::LoadTrainConfig(path, inputs.overrides);
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  inputs.config_text = text.str();
  umbra::train::Trainer trainer(std::move(inputs), std::cout);
  trainer.Run();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of memory (try a smaller batch_size)\n";
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
  }
  return 1;
}
