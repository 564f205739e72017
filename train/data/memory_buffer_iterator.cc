#include "train/data/memory_buffer_iterator.h"

#include <utility>

#include "train/data/data_error.h"

namespace umbra {
namespace train {

MemoryBufferIterator::MemoryBufferIterator(std::unique_ptr<DataIterator> base,
                                           const MemoryBufferParam& param)
    : base_(std::move(base)) {
  base_->BeforeFirst();
  while (batches_.size() < static_cast<std::size_t>(param.max_nbatch) &&
         base_->Next()) {
    batches_.push_back(base_->Value());
  }
}

void MemoryBufferIterator::BeforeFirst() {
  next_ = 0;
  has_value_ = false;
}

bool MemoryBufferIterator::Next() {
  has_value_ = next_ < batches_.size();
  if (has_value_) ++next_;
  return has_value_;
}

const DataBatch& MemoryBufferIterator::Value() const {
  if (!has_value_) {
    throw DataError(
        "data iterator: Value() called without a batch: call Next() first "
        "and only use Value() while it returned true");
  }
  return batches_[next_ - 1];
}

}  // namespace train
}  // namespace umbra
