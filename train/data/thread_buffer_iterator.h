// ThreadBufferIterator (`iter = threadbuffer`): reads the batches of the
// iterator it wraps on a background thread, up to buffer_size ahead, so
// loading and augmentation overlap training.
//
// It yields exactly the batches the wrapped iterator would, in the same
// order, with the same BeforeFirst() semantics: the producer thread starts
// at the first Next() of a pass and is stopped (and joined) by BeforeFirst()
// and by the destructor, so the wrapped iterator never runs ahead into a
// pass the consumer has not started. An exception thrown by the wrapped
// iterator on the producer thread is re-thrown, unchanged, by the Next()
// that reaches it (after the batches read before it); the pass then ends.
//
// Example:
//
//   ThreadBufferParam param;
//   param.Init({{"buffer_size", "4"}});
//   ThreadBufferIterator it(std::move(mnist_iterator), param);
//   it.BeforeFirst();
//   while (it.Next()) Train(it.Value());
//
// Only one thread may call the iterator's methods.
#ifndef UMBRA_TRAIN_DATA_THREAD_BUFFER_ITERATOR_H_
#define UMBRA_TRAIN_DATA_THREAD_BUFFER_ITERATOR_H_

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "param/param.h"
#include "train/data/data_batch.h"

namespace umbra {
namespace train {

struct ThreadBufferParam : public Parameter<ThreadBufferParam> {
  int buffer_size;

  UMBRA_DECLARE_PARAMETER(ThreadBufferParam) {
    UMBRA_DECLARE_FIELD(buffer_size)
        .set_default(2)
        .set_range(1, 1024)
        .describe("Batches read ahead by the background thread.");
  }
};

class ThreadBufferIterator : public DataIterator {
 public:
  ThreadBufferIterator(std::unique_ptr<DataIterator> base,
                       const ThreadBufferParam& param);
  ThreadBufferIterator(const ThreadBufferIterator&) = delete;
  ThreadBufferIterator& operator=(const ThreadBufferIterator&) = delete;
  // Stops and joins the producer thread.
  ~ThreadBufferIterator() override;

  void BeforeFirst() override;
  bool Next() override;
  // Skips the pass in the wrapped iterator, with no background thread.
  void SkipPass() override;
  const DataBatch& Value() const override;
  Shape<4> data_shape() const override { return base_->data_shape(); }
  index_t label_width() const override { return base_->label_width(); }
  std::vector<Shape<4>> extra_data_shapes() const override {
    return base_->extra_data_shapes();
  }
  std::int64_t bad_instances() const override { return base_->bad_instances(); }

 private:
  void Produce();
  // Stops the producer and returns every batch to the free list.
  void Stop();

  std::unique_ptr<DataIterator> base_;
  std::mutex mutex_;
  std::condition_variable changed_;
  // Guarded by mutex_ while the producer runs.
  std::deque<std::unique_ptr<DataBatch>> ready_;
  std::vector<std::unique_ptr<DataBatch>> free_;
  bool stop_requested_ = false;
  bool producer_done_ = false;
  std::exception_ptr error_;
  // Consumer side only.
  std::unique_ptr<DataBatch> current_;
  std::thread producer_;
  bool pass_finished_ = false;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_THREAD_BUFFER_ITERATOR_H_
