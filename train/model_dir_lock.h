// ModelDirLock: a training run's exclusive hold on its model_dir, for the
// run's whole life, so that two runs never write one directory at once (one
// run's checkpoints silently replacing the other's, metrics.csv listing
// rounds 1,1,2,2).
//
// The lock is flock() on the file `.umbra-lock` in the directory: the
// kernel releases it when the process ends, however it ends (kill -9
// included), so a dead run never leaves a stale lock. The holder writes its
// pid, host and start time into the file for the refusal to name.
//
// Example:
//
//   ModelDirLock lock("models/lenet");   // throws ModelDirBusy if held
//   for (const std::string& name : RemoveStaleTemporaries("models/lenet"))
//     std::cout << "removed " << name << "\n";
//   ... train, save ...
//   // ~ModelDirLock releases it
#ifndef UMBRA_TRAIN_MODEL_DIR_LOCK_H_
#define UMBRA_TRAIN_MODEL_DIR_LOCK_H_

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

class ModelDirLock {
 public:
  // The name of the lock file inside the directory.
  static constexpr char kFileName[] = ".umbra-lock";

  // Takes the lock of `dir`, an existing directory. Throws ModelDirBusy
  // when another process holds it, std::runtime_error "cannot write
  // model_dir 'dir': Read-only file system" (...) when the lock file cannot
  // be created or written - which also finds a directory this run could not
  // save into, before anything is trained.
  explicit ModelDirLock(const std::string& dir);
  ~ModelDirLock();
  ModelDirLock(const ModelDirLock&) = delete;
  ModelDirLock& operator=(const ModelDirLock&) = delete;

 private:
  int fd_;
};

// Removes from `dir` the temporary files that interrupted runs left
// (NAME.tmp-PID: half-written checkpoints and metrics.csv rewrites), and
// returns their names in sorted order. Only to be called while holding the
// directory's lock: no live run is writing them then.
std::vector<std::string> RemoveStaleTemporaries(const std::string& dir);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_MODEL_DIR_LOCK_H_
