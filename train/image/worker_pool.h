// WorkerPool: a fixed set of threads that share out the tasks of one Run at
// a time - the image iterators' decode threads. The thread that calls Run
// works too, so a pool of 1 runs everything on the caller and starts no
// thread.
//
// Example:
//
//   WorkerPool pool(4);                  // the caller + 3 threads
//   std::vector<Scratch> scratch(pool.size());
//   pool.Run(batch_size, [&](int task, int worker) {
//     Decode(task, &scratch[worker]);    // worker: whose buffers to use
//   });
//
// Tasks are claimed in increasing order; no two tasks run with the same
// worker at once. When tasks throw, Run waits for the others and rethrows
// the exception of the lowest task index, so the error a user sees does not
// depend on timing.
#ifndef UMBRA_TRAIN_IMAGE_WORKER_POOL_H_
#define UMBRA_TRAIN_IMAGE_WORKER_POOL_H_

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace umbra {
namespace train {

class WorkerPool {
 public:
  // `size` >= 1 workers, the caller of Run among them.
  explicit WorkerPool(int size);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return static_cast<int>(threads_.size()) + 1; }

  // Runs task(i, worker) for every i in [0, count) and returns when all
  // are done. Not to be called from two threads at once.
  void Run(int count, const std::function<void(int, int)>& task);

 private:
  // Claims and runs tasks of the current Run as `worker` until none is left.
  void Work(int worker);
  void ThreadLoop(int worker);

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  // Guarded by mutex_:
  const std::function<void(int, int)>* task_ = nullptr;
  int count_ = 0;
  int next_ = 0;
  int finished_ = 0;
  unsigned generation_ = 0;
  bool stopping_ = false;
  int error_task_ = -1;
  std::exception_ptr error_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_WORKER_POOL_H_
