#include "tensor/threads.h"

#include <sched.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace umbra {
namespace {

int HardwareThreads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

// Whether the current thread is executing a pool task.
thread_local bool in_task = false;

// A persistent pool of num_threads - 1 workers; the caller is the last one.
//
// A job's tasks are cut into one contiguous range per thread (the caller
// has the first, worker w the (w + 1)-th): each thread runs its own range
// first, then helps with what is left of the others'. So while the threads
// keep up, a job of n tasks runs task i on the same core every time, and
// the passes that split the same data the same way (a conv's images in the
// forward pass, the relu and pooling after it, the backward pass) find
// their part in that core's cache: LeNet's step took 2-3% less than with
// tasks handed out in order. A thread that is late (descheduled) holds no
// one back: the others take its tasks.
class ThreadPool {
 public:
  ThreadPool() { Start(HardwareThreads()); }
  ~ThreadPool() { Stop(); }

  void SetNumThreads(int n) {
    std::lock_guard<std::mutex> run_lock(run_mu_);
    Stop();
    Start(n <= 0 ? HardwareThreads() : n);
  }
  int num_threads() const { return num_threads_; }

  void Run(int num_tasks, const std::function<void(int)>& task) {
    std::unique_lock<std::mutex> run_lock(run_mu_, std::try_to_lock);
    if (num_tasks <= 1 || workers_.empty() || in_task ||
        !run_lock.owns_lock()) {
      for (int i = 0; i < num_tasks; ++i) task(i);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      task_ = &task;
      num_tasks_ = num_tasks;
      for (int range = 0; range < num_threads_; ++range) {
        next_[range].store(RangeBegin(range));
      }
      pending_ = num_tasks;
      error_ = nullptr;
      ++generation_;
    }
    work_cv_.notify_all();
    DoTasks(0);
    // Also wait for every worker that joined this job to leave it, so that no
    // straggler can claim a task index of the next job.
    auto job_done = [this] { return pending_ == 0 && active_ == 0; };
    SpinUntil(job_done);
    std::unique_lock<std::mutex> lock(mu_);
    done_cv_.wait(lock, job_done);
    task_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void Start(int n) {
    num_threads_ = n;
    stop_ = false;
    next_ = std::make_unique<std::atomic<int>[]>(n);
    // The jobs a worker joins are those posted after this point: a worker
    // that read the generation once running could take the first job for
    // one it had seen.
    const uint64_t seen = generation_;
    for (int i = 1; i < n; ++i) {
      workers_.emplace_back([this, i, seen] { WorkerLoop(i, seen); });
    }
  }
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    work_cv_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
  }
  void WorkerLoop(int range, uint64_t seen) {
    while (true) {
      SpinUntil([&] { return generation_ != seen; });
      {
        std::unique_lock<std::mutex> lock(mu_);
        work_cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        // Join only a job that is still open; a finished one may already be
        // followed by the next job's setup.
        if (pending_ == 0) continue;
        ++active_;
      }
      DoTasks(range);
      std::lock_guard<std::mutex> lock(mu_);
      if (--active_ == 0) done_cv_.notify_all();
    }
  }
  // Polls `ready` for up to kSpinTime before the caller blocks on a
  // condition variable: a training step runs many short parallel loops back
  // to back, and waking a sleeping thread costs tens of microseconds, more
  // than many of those loops take. Between polls the thread yields, so that
  // a runnable thread on its core (a data prefetcher, say) is not kept
  // waiting; after kSpinTime an idle pool sleeps.
  template <typename Ready>
  static void SpinUntil(const Ready& ready) {
    constexpr auto kSpinTime = std::chrono::microseconds(200);
    const auto deadline = std::chrono::steady_clock::now() + kSpinTime;
    while (!ready()) {
      sched_yield();
      if (std::chrono::steady_clock::now() > deadline) return;
    }
  }

  // The first task of thread `range`'s range of the current job.
  int RangeBegin(int range) const {
    return static_cast<int>(int64_t{num_tasks_} * range / num_threads_);
  }

  // Claims and runs the tasks of range `own`, then those left in the others,
  // until none are left.
  void DoTasks(int own) {
    int done = 0;
    for (int step = 0; step < num_threads_; ++step) {
      const int range = (own + step) % num_threads_;
      const int end = RangeBegin(range + 1);
      while (true) {
        const int i = next_[range].fetch_add(1);
        if (i >= end) break;
        in_task = true;
        try {
          (*task_)(i);
        } catch (...) {
          std::lock_guard<std::mutex> lock(mu_);
          if (!error_) error_ = std::current_exception();
        }
        in_task = false;
        ++done;
      }
    }
    if (done == 0) return;
    std::lock_guard<std::mutex> lock(mu_);
    pending_ -= done;
    if (pending_ == 0) done_cv_.notify_all();
  }

  std::mutex run_mu_;  // one Run at a time
  std::mutex mu_;      // guards the job fields below
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::vector<std::thread> workers_;
  int num_threads_ = 1;
  bool stop_ = false;
  // Atomic so that spinning threads can poll them without mu_; written
  // under mu_, so that condition-variable waits see every change.
  std::atomic<uint64_t> generation_{0};
  const std::function<void(int)>* task_ = nullptr;
  int num_tasks_ = 0;
  // Per range: the next task to claim (claimed once it reaches the range's
  // end).
  std::unique_ptr<std::atomic<int>[]> next_;
  std::atomic<int> pending_{0};
  std::atomic<int> active_{0};  // workers inside DoTasks for the current job
  std::exception_ptr error_;
};

ThreadPool& Pool() {
  static ThreadPool* pool = new ThreadPool();  // never destroyed: workers
  return *pool;                                // may outlive static dtors
}

std::atomic<index_t> parallel_threshold{index_t{1} << 16};

}  // namespace

void SetNumThreads(int n) { Pool().SetNumThreads(n); }
int GetNumThreads() { return Pool().num_threads(); }
void SetParallelThreshold(index_t num_elements) {
  parallel_threshold.store(num_elements < 1 ? 1 : num_elements);
}
index_t GetParallelThreshold() { return parallel_threshold.load(); }
void ParallelFor(int num_tasks, const std::function<void(int)>& task) {
  Pool().Run(num_tasks, task);
}

}  // namespace umbra
