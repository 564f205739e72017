// Checkpoint files (checkpoint.proto): written to a temporary file in the
// target's directory and renamed into place, so a crash or a full disk never
// leaves a half-written model under the final name; read back with every
// check a user needs to trust them: magic, format version, checksum, size.
//
// Example:
//
//   Checkpoint checkpoint;
//   checkpoint.set_round(3);
//   WriteCheckpoint(CheckpointPath("models", 3), checkpoint);  // 0003.model
//   std::optional<std::string> newest = NewestCheckpoint("models");
//   Checkpoint back = ReadCheckpoint(*newest);  // throws CheckpointError
#ifndef UMBRA_TRAIN_CHECKPOINT_H_
#define UMBRA_TRAIN_CHECKPOINT_H_

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "train/checkpoint.pb.h"

namespace umbra {
namespace train {

inline constexpr uint32_t kCheckpointFormatVersion = 1;
inline constexpr absl::string_view kCheckpointMagic = "umbra-checkpoint";

// A checkpoint that cannot be written, read or used; the message names the
// file and what is wrong with it.
class CheckpointError : public std::runtime_error {
 public:
  explicit CheckpointError(const std::string& message)
      : std::runtime_error(message) {}
};

// FNV-1a, 64 bits.
uint64_t Fnv1a64(absl::string_view bytes);

// Serializes `checkpoint` into a CheckpointFile at `path`: written to
// "<path>.tmp-<pid>", flushed, then renamed over `path`. Creates no
// directories. Throws CheckpointError (the temporary file is removed).
void WriteCheckpoint(const std::string& path, const Checkpoint& checkpoint);

// Reads the checkpoint at `path`. Throws CheckpointError for a missing
// file, a file that is not a checkpoint, another format version, a
// truncated file or a checksum mismatch.
Checkpoint ReadCheckpoint(const std::string& path);

// Creates `dir` and its missing parents (mkdir -p). Throws CheckpointError.
void MakeDirectories(const std::string& dir);

// "<dir>/<round, 4 digits>.model", cxxnet's naming.
std::string CheckpointPath(const std::string& dir, int round);

// The checkpoint of the highest round in `dir` (files NNNN.model), or
// nullopt when there is none or no directory.
std::optional<std::string> NewestCheckpoint(const std::string& dir);

// A tensor of `count` floats for a checkpoint.
TensorProto MakeTensorProto(const std::string& name,
                            const std::vector<int64_t>& shape,
                            const float* values, size_t count);

// Copies `proto`'s values into `out` (`count` floats) after checking its
// dtype and size. `what` names the tensor in messages. Throws
// CheckpointError.
void ReadTensorProto(const TensorProto& proto, float* out, size_t count,
                     const std::string& what);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_CHECKPOINT_H_
