// ModelDirLock: a training run's exclusive hold on its model_dir, for the
// run's whole life, so that two runs never write one directory at once (one
// run's checkpoints silently replacing the other's, metrics.csv listing
// rounds 1,1,2,2).
//
// The lock is flock() on the file `.umbra-lock` in the directory: the
// kernel releases it when the process ends, however it ends (kill -9
// included), so a dead run never leaves a stale lock. The holder writes its
// pid, host and start time into the file for the refusal to name, whether
// it saves checkpoints, and when it releases the lock, that it ended: the
// next holder reads from it whether the run before was killed before its
// first checkpoint (its metrics.csv rows are then of rounds that the next
// run trains again), or ended by itself (ReadLastRun).
//
// Example:
//
//   if (ReadLastRun("models/lenet").Killed()) ...  // it never ended
//   ModelDirLock lock("models/lenet", /*saves_checkpoints=*/true);
//   // throws ModelDirBusy if held
//   for (const std::string& name : RemoveStaleTemporaries("models/lenet"))
//     std::cout << "removed " << name << "\n";
//   ... train, save ...
//   // ~ModelDirLock releases it
#ifndef UMBRA_TRAIN_MODEL_DIR_LOCK_H_
#define UMBRA_TRAIN_MODEL_DIR_LOCK_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace umbra {
namespace train {

// Another live process holds the lock. what(): "model_dir 'models' is in
// use by another run (pid 1234 on host a, started 2026-11-26 12:00:03
// UTC): ...".
class ModelDirBusy : public std::runtime_error {
 public:
  explicit ModelDirBusy(const std::string& message)
      : std::runtime_error(message) {}
};

// What the lock file says of the run that held the directory last.
struct LastRun {
  // "pid 1234 on host a, started 2026-11-26 12:00:03 UTC"; empty when no
  // run held the directory.
  std::string holder;
  // It said it saves checkpoints (save_model > 0).
  bool saves_checkpoints = false;
  // It released the directory itself: it ended, well or with an error,
  // rather than being killed.
  bool ended = false;

  // A run held the directory and never released it: it was killed.
  bool Killed() const { return !holder.empty() && !ended; }
};

class ModelDirLock {
 public:
  // The name of the lock file inside the directory.
  static constexpr char kFileName[] = ".umbra-lock";

  // Takes the lock of `dir`, an existing directory, for a run that saves
  // checkpoints or not. Throws ModelDirBusy when another process holds it,
  // std::runtime_error "cannot write model_dir 'dir': Read-only file
  // system" (...) when the lock file cannot be created or written - which
  // also finds a directory this run could not save into, before anything
  // is trained.
  ModelDirLock(const std::string& dir, bool saves_checkpoints);
  // Records that this run ended, and releases the lock.
  ~ModelDirLock();
  ModelDirLock(const ModelDirLock&) = delete;
  ModelDirLock& operator=(const ModelDirLock&) = delete;

 private:
  int fd_;
};

// The record in `dir`'s lock file, read without taking the lock (a live
// holder looks killed; taking the lock then refuses). Empty when there is
// no record.
LastRun ReadLastRun(const std::string& dir);

// Removes from `dir` the temporary files that interrupted runs left
// (NAME.tmp-PID: half-written checkpoints and metrics.csv rewrites), and
// returns their names in sorted order. Only to be called while holding the
// directory's lock: no live run is writing them then.
std::vector<std::string> RemoveStaleTemporaries(const std::string& dir);

// A warning when the file system of `dir` has less space free for this
// user than one checkpoint of `checkpoint_bytes` needs ("model_dir 'm' has
// 12.0 MiB free, less than one checkpoint (40.0 MiB): ..."); empty when
// there is room, or when the file system does not say.
std::string FreeSpaceWarning(const std::string& dir,
                             std::uint64_t checkpoint_bytes);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_MODEL_DIR_LOCK_H_
