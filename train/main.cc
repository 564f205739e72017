// The trainer binary: `bazel run //train -- my.conf [key=value ...]`.
//
// Reads the config (paths in it are relative to the caller's directory,
// BUILD_WORKING_DIRECTORY under `bazel run`), applies the overrides, runs
// the config's task and exits 0; on any bad input it prints the message and
// exits 1. With dist = mpi (`mpirun -np N .../train my.conf dist=mpi`) it
// is one rank of a data-parallel run: a rank that fails prints its error,
// prefixed with its rank, and ends every rank of the job.
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "train/config/config.h"
#include "train/dist/communicator.h"
#include "train/net_setup.h"
#include "train/trainer.h"
#include "train/trainer_param.h"

namespace {

constexpr char kUsage[] =
    "usage: train CONFIG [key=value ...]\n"
    "  Trains (or predicts with, or evaluates) the net CONFIG describes, in\n"
    "  cxxnet's config format; key=value arguments override the file.\n"
    "  Example: bazel run -c opt //train -- "
    "train/configs/fashion_mnist_mlp.conf num_round=2\n";

// The ranks of this process's job, as the config's `dist` asks: a
// ConfigError at `dist` when they cannot be had.
std::unique_ptr<umbra::dist::Communicator> Connect(
    const umbra::train::TrainConfig& config) {
  const bool mpi =
      umbra::train::ReadTrainerParam(config).dist == umbra::train::kDistMpi;
  try {
    return umbra::dist::ConnectRanks(mpi);
  } catch (const umbra::dist::DistError& e) {
    throw umbra::train::GlobalError(config, "dist", e.what());
  }
}

// The ranks once connected, for main's error handling.
std::unique_ptr<umbra::dist::Communicator> ranks;

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
  ranks = Connect(inputs.config);
  umbra::train::Trainer trainer(std::move(inputs), std::cout, ranks.get());
  trainer.Run();
  return 0;
}

// Prints `message` as this rank's error and ends the job: the other ranks
// may be waiting for this one in a collective.
[[noreturn]] void Fail(const std::string& message) {
  const bool several = ranks != nullptr && ranks->size() > 1;
  std::cerr << "error: "
            << (several ? "rank " + std::to_string(ranks->rank()) + ": " : "")
            << message << std::endl;
  if (several) ranks->Abort(1);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const int status = Main(argc, argv);
    ranks.reset();  // MPI_Finalize while everything else still stands
    return status;
  } catch (const std::bad_alloc&) {
    Fail("out of memory (try a smaller batch_size)");
  } catch (const std::exception& e) {
    Fail(e.what());
  }
}
