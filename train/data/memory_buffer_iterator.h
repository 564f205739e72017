// MemoryBufferIterator (`iter = membuffer`, cxxnet's): keeps the first
// max_nbatch batches of the iterator it wraps, read once, and gives those
// same batches on every pass (a fixed subset held in memory: for
// overfitting a few batches, or timing the net without the data).
//
// Example:
//
//   MemoryBufferParam param;
//   param.Init({{"max_nbatch", "10"}});
//   MemoryBufferIterator it(std::move(csv_iterator), param);
//   it.BeforeFirst();
//   while (it.Next()) Train(it.Value());   // at most 10 batches, each pass
#ifndef UMBRA_TRAIN_DATA_MEMORY_BUFFER_ITERATOR_H_
#define UMBRA_TRAIN_DATA_MEMORY_BUFFER_ITERATOR_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "param/param.h"
#include "train/data/data_batch.h"

namespace umbra {
namespace train {

struct MemoryBufferParam : public Parameter<MemoryBufferParam> {
  int max_nbatch;
  UMBRA_DECLARE_PARAMETER(MemoryBufferParam) {
    UMBRA_DECLARE_FIELD(max_nbatch)
        .set_default(100)
        .set_lower_bound(1)
        .describe(
            "Batches of the first pass kept in memory and given on every "
            "pass (fewer when the pass has fewer).");
  }
};

class MemoryBufferIterator : public DataIterator {
 public:
  // Reads the batches at once (the wrapped iterator's first pass, up to
  // max_nbatch). Throws what the wrapped iterator throws.
  MemoryBufferIterator(std::unique_ptr<DataIterator> base,
                       const MemoryBufferParam& param);

  void BeforeFirst() override;
  bool Next() override;
  // Nothing to skip: every pass gives the same batches.
  void SkipPass() override { BeforeFirst(); }
  const DataBatch& Value() const override;
  Shape<4> data_shape() const override { return base_->data_shape(); }
  index_t label_width() const override { return base_->label_width(); }
  std::vector<Shape<4>> extra_data_shapes() const override {
    return base_->extra_data_shapes();
  }
  std::int64_t bad_instances() const override { return base_->bad_instances(); }

 private:
  std::unique_ptr<DataIterator> base_;
  std::vector<DataBatch> batches_;
  // The batch the next Next() gives.
  std::size_t next_ = 0;
  // Whether Value() holds a batch (the last Next() returned true).
  bool has_value_ = false;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_MEMORY_BUFFER_ITERATOR_H_
