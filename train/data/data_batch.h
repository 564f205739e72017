// DataBatch and DataIterator: what every data iterator yields and how it is
// driven (cxxnet's DataBatch and IIterator<DataBatch>).
//
// A batch holds `batch_size` instances: data in (batch, channel, height,
// width) layout, labels as (batch, label_width), and for a source with
// extra inputs (cxxnet's extra data) one more (batch, channel, height,
// width) tensor per extra input. When the data runs out in
// the middle of a batch, the last `num_batch_padd` rows are padding: zeros
// (index kPaddingIndex), or with round_batch the first instances of the next
// pass. Trainers skip padded rows when they compute metrics.
//
// Example:
//
//   std::unique_ptr<DataIterator> it = CreateIteratorChain(config, chain);
//   it->BeforeFirst();
//   while (it->Next()) {
//     const DataBatch& batch = it->Value();
//     index_t real = batch.batch_size - batch.num_batch_padd;
//     ...  // batch.data[i], batch.label[i][0], batch.inst_index[i]
//   }
//
// Contracts of DataIterator:
//   - A new iterator stands before its first batch; BeforeFirst() starts a
//     new pass (it may reshuffle).
//   - Next() moves to the next batch and returns false at the end of a pass;
//     Value() is then valid until the next Next() or BeforeFirst().
//   - Value() before a successful Next() throws DataError.
//   - Every batch of an iterator has the shape data_shape(), label_width()
//     columns of labels, and extra inputs of extra_data_shapes().
//   - Errors are DataError (or ParamError for settings); none is a crash.
#ifndef UMBRA_TRAIN_DATA_DATA_BATCH_H_
#define UMBRA_TRAIN_DATA_DATA_BATCH_H_

#include <cstdint>
#include <vector>

#include "tensor/tensor.h"

namespace umbra {
namespace train {

// inst_index of a padding row that holds no instance.
inline constexpr index_t kPaddingIndex = -1;

struct DataBatch {
  // (batch_size, channel, height, width).
  TensorContainer<cpu, 4, float> data;
  // (batch_size, label_width).
  TensorContainer<cpu, 2, float> label;
  // One (batch_size, channel, height, width) tensor per extra input, fed to
  // the net's nodes in_1, in_2, ...; empty for most sources.
  std::vector<TensorContainer<cpu, 4, float>> extra_data;
  // Index of each row's instance in its data set (plus index_offset), or
  // kPaddingIndex.
  std::vector<index_t> inst_index;
  // Rows in the batch, always data.size(0).
  index_t batch_size = 0;
  // The last num_batch_padd rows are padding, not new instances.
  index_t num_batch_padd = 0;

  // Resizes every member for `shape` (batch, channel, height, width),
  // `label_width` and extra inputs of `extra_shapes` (channel, height,
  // width); the contents are unspecified afterwards.
  void Resize(const Shape<4>& shape, index_t label_width,
              const std::vector<Shape<3>>& extra_shapes = {});
  // Makes this an equal copy of `other`, reusing the allocations.
  void CopyFrom(const DataBatch& other);
};

class DataIterator {
 public:
  virtual ~DataIterator() = default;

  // Starts a new pass over the data.
  virtual void BeforeFirst() = 0;
  // Moves to the next batch; false at the end of the pass.
  virtual bool Next() = 0;
  // Goes through a whole pass without producing it: afterwards the
  // iterator, its order and its generators are as after BeforeFirst() and
  // Next() until false. What a resumed run does for the passes it skips;
  // iterators that can skip without reading their data override it.
  virtual void SkipPass() {
    BeforeFirst();
    while (Next()) {
    }
  }
  // The current batch. Throws DataError before a Next() that returned true.
  virtual const DataBatch& Value() const = 0;
  // The shape of every batch's data: (batch, channel, height, width).
  virtual Shape<4> data_shape() const = 0;
  // The number of label columns.
  virtual index_t label_width() const = 0;
  // The shapes (batch, channel, height, width) of the batches' extra
  // inputs, in order; empty when the data has none.
  virtual std::vector<Shape<4>> extra_data_shapes() const = 0;
  // Instances found unreadable and replaced so far (skip_bad_images); may
  // be called from another thread than the one reading.
  virtual std::int64_t bad_instances() const { return 0; }
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_DATA_BATCH_H_
