// BatchIterator: the batches of a Dataset - its instances in order or
// shuffled, each put through an InstanceTransform, batch_size at a time.
// Every source iterator (mnist, csv, binary) is one of these.
//
// At the end of a pass a partial batch is returned with num_batch_padd set
// (cxxnet's rules):
//   - round_batch = 0: the missing rows are zeros, their inst_index is
//     kPaddingIndex;
//   - round_batch = 1: the missing rows are the first instances of the next
//     pass (reshuffled first when shuffle is on), and that next pass,
//     started by BeforeFirst(), continues after them, so every instance is
//     seen once per batch_size * passes rows.
// An AugmentingDataset reads each batch's instances in one ReadBatch call,
// instance k of the iterator's life (counting every pass, and the instances
// a data-parallel rank skips) seeded with a mix of `seed` and k, so its
// augmentation does not depend on threads or ranks.
// With shuffle = 1 the order is shuffled when the iterator is made and again
// at every BeforeFirst() that follows a Next(); the generator is seeded with
// `seed`, so the orders are reproducible.
//
// Example:
//
//   BatchIteratorParam batch;
//   batch.Init({{"batch_size", "100"}, {"shuffle", "1"}, {"seed", "3"}});
//   AugmentIteratorParam augment;
//   augment.Init({});
//   BatchIterator it(LoadMnist(img, label, true), batch, augment);
//   while (it.Next()) { const DataBatch& b = it.Value(); ... }
#ifndef UMBRA_TRAIN_DATA_BATCH_ITERATOR_H_
#define UMBRA_TRAIN_DATA_BATCH_ITERATOR_H_

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "param/param.h"
#include "tensor/tensor.h"
#include "train/data/data_batch.h"
#include "train/data/dataset.h"
#include "train/data/instance_transform.h"

namespace umbra {
namespace train {

struct BatchIteratorParam : public Parameter<BatchIteratorParam> {
  int batch_size;
  bool round_batch;
  bool shuffle;
  int seed;
  int label_width;
  int index_offset;
  bool test_skipread;
  bool silent;

  UMBRA_DECLARE_PARAMETER(BatchIteratorParam) {
    UMBRA_DECLARE_FIELD(batch_size)
        .set_lower_bound(1)
        .describe("Instances per batch.");
    UMBRA_DECLARE_FIELD(round_batch)
        .set_default(false)
        .describe(
            "Fill the last partial batch of a pass with the first instances "
            "of the next pass instead of zeros.");
    UMBRA_DECLARE_FIELD(shuffle).set_default(false).describe(
        "Visit the instances in a random order, new for every pass.");
    UMBRA_DECLARE_FIELD(seed).set_default(0).set_lower_bound(0).describe(
        "Seed of the shuffle and augmentation generators.");
    UMBRA_DECLARE_FIELD(label_width)
        .set_default(1)
        .set_lower_bound(1)
        .describe("Labels per instance (the first columns of a CSV row).");
    UMBRA_DECLARE_FIELD(index_offset)
        .set_default(0)
        .set_lower_bound(0)
        .describe("Added to every instance index in the batches.");
    UMBRA_DECLARE_FIELD(test_skipread)
        .set_default(false)
        .describe(
            "Read only the first batch of each pass and give it again for "
            "the pass's other batches: the speed of training without the "
            "data's (cxxnet's test_skipread).");
    UMBRA_DECLARE_FIELD(silent).set_default(false).describe(
        "Do not print the one-line summary of the data to stderr.");
  }
};

// One rank's share of every batch when batches are split over the `count`
// ranks of a data-parallel run: rows [index, index + 1) * batch_size / count
// of each batch of batch_size rows. Every rank walks the same order and
// draws the same augmentation (skipping the other rows'), so the ranks'
// rows together are exactly the batches of one process, whatever `count`.
struct BatchPart {
  int index = 0;
  int count = 1;
};

class BatchIterator : public DataIterator {
 public:
  // Throws DataError with the key when the settings do not fit the data
  // (label_width, input_shape, mean_value, round_batch with fewer instances
  // than batch_size, a batch_size that `part.count` does not divide).
  BatchIterator(std::unique_ptr<Dataset> dataset,
                const BatchIteratorParam& batch,
                const AugmentIteratorParam& augment, BatchPart part = {});

  void BeforeFirst() override;
  bool Next() override;
  // Walks the pass's order and draws its augmentation without reading or
  // transforming a single instance.
  void SkipPass() override;
  const DataBatch& Value() const override;
  Shape<4> data_shape() const override;
  index_t label_width() const override { return dataset_->label_width(); }
  // The dataset's extra inputs, never augmented; zeros in padding rows.
  std::vector<Shape<4>> extra_data_shapes() const override;
  std::int64_t bad_instances() const override {
    return dataset_->bad_instances();
  }

  const Dataset& dataset() const { return *dataset_; }

 private:
  // Puts the next instance of the order into row `row` of the batch (for an
  // AugmentingDataset: asks for it in pending_reads_, with `seed`).
  void FillRow(index_t row, std::uint64_t seed);
  // FillRow into this part's row for row `global_row` of the whole batch
  // when `read` and the row is this part's; else moves past the instance,
  // drawing its augmentation all the same.
  void TakeRow(index_t global_row, bool read);
  // Next() when `show`; else the same walk through the order with TakeRow
  // skipping, and no batch to show for it.
  bool Step(bool show);
  // Starts the order again, reshuffled when shuffle is on and it was used.
  void Restart();

  std::unique_ptr<Dataset> dataset_;
  // dataset_ when it augments its instances itself, else null.
  AugmentingDataset* augmenting_;
  BatchIteratorParam param_;
  // This part's rows of each batch: [first_row_, first_row_ + rows).
  index_t first_row_ = 0;
  InstanceTransform transform_;
  std::mt19937 shuffle_rng_;
  std::vector<index_t> order_;
  // Next position in order_.
  std::size_t position_ = 0;
  // Whether order_ was read from since it was last shuffled.
  bool order_used_ = false;
  // round_batch: the last batch took instances of the next pass.
  bool wrapped_ = false;
  // test_skipread: this pass's first batch is read; the rest repeat it.
  bool first_batch_read_ = false;
  bool has_value_ = false;
  // Instances walked through since the iterator was made (read or skipped).
  std::uint64_t instances_walked_ = 0;
  // The reads of the batch being filled, for an AugmentingDataset.
  std::vector<InstanceRead> pending_reads_;
  DataBatch batch_;
  TensorContainer<cpu, 3, float> instance_;
  // Views of one row of every extra input, for Dataset::ReadExtras.
  std::vector<Tensor<cpu, 1, float>> extra_rows_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_BATCH_ITERATOR_H_
