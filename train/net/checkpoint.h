// Checkpoint files (checkpoint.proto): written to a temporary file in the
// target's directory and renamed into place, so a crash or a full disk never
// leaves a half-written model under the final name; read back with every
// check a user needs to trust them: magic, format version, checksum, size.
// Also NewFile, how the trainer and tools write any other output (pred, a
// tensor's CSV): never over an existing file.
//
// Example:
//
//   Checkpoint checkpoint;
//   checkpoint.set_round(3);
//   WriteCheckpoint(CheckpointPath("models", 3), checkpoint);  // 0003.model
//   std::optional<std::string> newest = NewestCheckpoint("models");
//   Checkpoint back = ReadCheckpoint(*newest);  // throws CheckpointError
//
//   NewFile out("pred.txt", "predictions");  // throws if pred.txt exists
//   out.Write("1\n");
//   out.Commit();  // pred.txt appears, complete
#ifndef UMBRA_TRAIN_NET_CHECKPOINT_H_
#define UMBRA_TRAIN_NET_CHECKPOINT_H_

#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "train/net/checkpoint.pb.h"

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

// An output file that cannot be created or written; the message names it
// and says why.
class FileWriteError : public std::runtime_error {
 public:
  explicit FileWriteError(const std::string& message)
      : std::runtime_error(message) {}
};

// An output file that exists already: umbra never overwrites a file.
class FileExistsError : public FileWriteError {
 public:
  using FileWriteError::FileWriteError;
};

// Moves `from` to `to` unless something is at `to` (renameat2 with
// RENAME_NOREPLACE, or link + unlink where the file system lacks it).
// Returns 0, or the errno (EEXIST when `to` exists).
int RenameNoReplace(const std::string& from, const std::string& to);

// A new file at `path`, never one that replaces a file. The bytes go to a
// temporary file beside it ("<path>.tmp-<pid>", created exclusively), and
// Commit() moves it to `path` only if nothing is there (renameat2 with
// RENAME_NOREPLACE, or link + unlink where the file system lacks it), so a
// reader never sees a partial file and a file that appeared at `path` in the
// meantime is kept. Destroying a NewFile before Commit() removes the
// temporary file. `what` names the contents in messages ("predictions":
// "cannot write predictions to 'p.txt': No such file or directory").
class NewFile {
 public:
  // Throws FileExistsError when something is at `path`, FileWriteError when
  // the temporary file cannot be created (the message names `path` and the
  // reason, e.g. a missing directory).
  NewFile(const std::string& path, const std::string& what);
  ~NewFile();
  // Throws FileExistsError when something is at `path`: what the
  // constructor checks first, for callers that want to refuse early.
  static void RefuseExisting(const std::string& path);
  NewFile(const NewFile&) = delete;
  NewFile& operator=(const NewFile&) = delete;

  // Appends `bytes`; a failure is reported by Commit().
  void Write(absl::string_view bytes);
  // Flushes and closes the file and moves it to `path`; call it once.
  // Throws FileWriteError when a write failed (the temporary file is
  // removed); FileExistsError when a file appeared at `path`, or
  // FileWriteError when the file system can move it there only by
  // replacing (no RENAME_NOREPLACE, no hard links): then the complete
  // temporary file is kept and the message names it.
  void Commit();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }

 private:
  std::string path_;
  std::string what_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  int write_errno_ = 0;
  // Commit() ran: the temporary file is moved, removed or kept on purpose.
  bool done_ = false;
};

// FNV-1a, 64 bits.
uint64_t Fnv1a64(absl::string_view bytes);

// Writes `bytes` to `path` through "<path>.tmp-<pid>", flushed to disk, then
// renamed over `path`: a reader sees the old file or the new one, never a
// part. For files umbra owns and replaces (NewFile never replaces). Throws
// FileWriteError naming `what` (the temporary file is removed).
void ReplaceFile(const std::string& path, absl::string_view bytes,
                 const std::string& what);

// Serializes `checkpoint` into a CheckpointFile at `path` with ReplaceFile.
// Creates no directories. Throws CheckpointError.
void WriteCheckpoint(const std::string& path, const Checkpoint& checkpoint);

// Reads the checkpoint at `path`. Throws CheckpointError for a missing
// file, a directory, a file that is not a checkpoint, another format version, a
// truncated file or a checksum mismatch.
Checkpoint ReadCheckpoint(const std::string& path);

// The name of the first tensor of `checkpoint` (weights, layer states,
// updater state, in that order) holding a NaN or an infinity; "" when every
// value is finite.
std::string FirstNonFiniteTensor(const Checkpoint& checkpoint);

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

#endif  // UMBRA_TRAIN_NET_CHECKPOINT_H_
