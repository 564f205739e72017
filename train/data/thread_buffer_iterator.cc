#include "train/data/thread_buffer_iterator.h"

#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "param/param.h"
#include "train/data/data_error.h"

namespace umbra {
namespace train {

UMBRA_REGISTER_PARAMETER(ThreadBufferParam);

ThreadBufferIterator::ThreadBufferIterator(std::unique_ptr<DataIterator> base,
                                           const ThreadBufferParam& param)
    : base_(std::move(base)) {
  for (int i = 0; i < param.buffer_size; ++i) {
    free_.push_back(std::make_unique<DataBatch>());
  }
}

ThreadBufferIterator::~ThreadBufferIterator() { Stop(); }

void ThreadBufferIterator::Produce() {
  while (true) {
    std::unique_ptr<DataBatch> slot;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return stop_requested_ || !free_.empty(); });
      if (stop_requested_) break;
      slot = std::move(free_.back());
      free_.pop_back();
    }
    bool more = false;
    try {
      more = base_->Next();
      if (more) slot->CopyFrom(base_->Value());
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = std::current_exception();
      free_.push_back(std::move(slot));
      break;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (!more) {
      free_.push_back(std::move(slot));
      break;
    }
    ready_.push_back(std::move(slot));
    changed_.notify_all();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  producer_done_ = true;
  changed_.notify_all();
}

void ThreadBufferIterator::Stop() {
  if (producer_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_requested_ = true;
      changed_.notify_all();
    }
    producer_.join();
  }
  stop_requested_ = false;
  producer_done_ = false;
  error_ = nullptr;
  while (!ready_.empty()) {
    free_.push_back(std::move(ready_.front()));
    ready_.pop_front();
  }
  if (current_ != nullptr) free_.push_back(std::move(current_));
}

void ThreadBufferIterator::BeforeFirst() {
  Stop();
  pass_finished_ = false;
  base_->BeforeFirst();
}

void ThreadBufferIterator::SkipPass() {
  Stop();
  base_->SkipPass();
  pass_finished_ = true;
}

bool ThreadBufferIterator::Next() {
  if (pass_finished_) return false;
  if (!producer_.joinable()) {
    producer_ = std::thread([this] { Produce(); });
  }
  std::unique_lock<std::mutex> lock(mutex_);
  if (current_ != nullptr) {
    free_.push_back(std::move(current_));
    changed_.notify_all();
  }
  changed_.wait(lock, [&] { return !ready_.empty() || producer_done_; });
  if (!ready_.empty()) {
    current_ = std::move(ready_.front());
    ready_.pop_front();
    changed_.notify_all();
    return true;
  }
  pass_finished_ = true;
  if (error_ != nullptr) {
    std::exception_ptr error = error_;
    error_ = nullptr;
    std::rethrow_exception(error);
  }
  return false;
}

const DataBatch& ThreadBufferIterator::Value() const {
  if (current_ == nullptr) {
    throw DataError(
        "data iterator: Value() called without a batch: call Next() first "
        "and only use Value() while it returned true");
  }
  return *current_;
}

}  // namespace train
}  // namespace umbra
