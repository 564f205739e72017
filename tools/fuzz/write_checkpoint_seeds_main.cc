// Writes the checkpoint fuzzer's seed corpus: DIR/checkpoint, a checkpoint
// of the fuzzer's model as the trainer writes one, and DIR/payload, its
// payload alone (what the fuzzer frames with a valid checksum).
//
//   bazel run //tools/fuzz:write_checkpoint_seeds --
//   $PWD/tools/fuzz/testdata/checkpoint
#include <iostream>
#include <memory>
#include <string>

#include "tools/fuzz/checkpoint_fuzz_model.h"
#include "train/data/file_bytes.h"
#include "train/net/checkpoint.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_checkpoint_seeds DIR\n";
    return 2;
  }
  const std::string dir = argv[1];
  try {
    const std::unique_ptr<umbra::train::Model> model =
        umbra::tools::MakeCheckpointFuzzModel();
    umbra::train::Checkpoint checkpoint;
    checkpoint.set_round(1);
    model->SaveTo(&checkpoint);
    umbra::train::WriteCheckpoint(dir + "/checkpoint", checkpoint);
    umbra::train::WriteFileBytes(dir + "/payload",
                                 checkpoint.SerializeAsString());
  } catch (const std::exception& e) {
    std::cerr << "write_checkpoint_seeds: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
