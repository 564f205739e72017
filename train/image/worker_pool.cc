#include "train/image/worker_pool.h"

#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace umbra {
namespace train {

WorkerPool::WorkerPool(int size) {
  for (int worker = 1; worker < size; ++worker) {
    threads_.emplace_back([this, worker] { ThreadLoop(worker); });
  }
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void WorkerPool::Run(int count, const std::function<void(int, int)>& task) {
  std::unique_lock<std::mutex> lock(mutex_);
  task_ = &task;
  count_ = count;
  next_ = 0;
  finished_ = 0;
  error_task_ = -1;
  error_ = nullptr;
  ++generation_;
  lock.unlock();
  work_ready_.notify_all();
  Work(0);
  lock.lock();
  work_done_.wait(lock, [this] { return finished_ == count_; });
  task_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

void WorkerPool::Work(int worker) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (next_ < count_) {
    const int index = next_++;
    const std::function<void(int, int)>& task = *task_;
    lock.unlock();
    std::exception_ptr error;
    try {
      task(index, worker);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error && (error_task_ < 0 || index < error_task_)) {
      error_task_ = index;
      error_ = error;
    }
    if (++finished_ == count_) work_done_.notify_one();
  }
}

void WorkerPool::ThreadLoop(int worker) {
  unsigned seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    work_ready_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    lock.unlock();
    Work(worker);
    lock.lock();
  }
}

}  // namespace train
}  // namespace umbra
