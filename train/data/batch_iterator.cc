#include "train/data/batch_iterator.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <new>
#include <numeric>
#include <utility>

#include "absl/strings/str_format.h"
#include "param/param.h"
#include "tensor/tensor.h"
#include "train/data/data_error.h"

namespace umbra {
namespace train {

UMBRA_REGISTER_PARAMETER(BatchIteratorParam);

namespace {

// The shuffle and the augmentation draw from separate generators, so turning
// augmentation on does not change the order.
constexpr unsigned kAugmentSeedOffset = 0x9e3779b9u;

// The seed of instance `count` of an AugmentingDataset's walk: SplitMix64's
// finaliser over (seed, count), so neighbouring instances get unrelated
// streams.
std::uint64_t InstanceSeed(int seed, std::uint64_t count) {
  std::uint64_t z = (static_cast<std::uint64_t>(seed) << 40) ^ count;
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

BatchIterator::BatchIterator(std::unique_ptr<Dataset> dataset,
                             const BatchIteratorParam& batch,
                             const AugmentIteratorParam& augment,
                             BatchPart part)
    : dataset_(std::move(dataset)),
      augmenting_(dynamic_cast<AugmentingDataset*>(dataset_.get())),
      param_(batch),
      first_row_(batch.batch_size / part.count * part.index),
      transform_(augment, dataset_->instance_shape(),
                 static_cast<unsigned>(batch.seed) + kAugmentSeedOffset),
      shuffle_rng_(static_cast<unsigned>(batch.seed)),
      instance_(dataset_->instance_shape()) {
  if (dataset_->label_width() != batch.label_width) {
    throw DataError(
        absl::StrFormat("key 'label_width': %d, but %s has %d label%s per "
                        "instance",
                        batch.label_width, dataset_->Describe(),
                        dataset_->label_width(),
                        dataset_->label_width() == 1 ? "" : "s"),
        "label_width");
  }
  if (batch.round_batch && dataset_->size() < batch.batch_size) {
    throw DataError(
        absl::StrFormat("key 'batch_size': round_batch needs at least "
                        "batch_size = %d instances, %s has %d",
                        batch.batch_size, dataset_->Describe(),
                        dataset_->size()),
        "batch_size");
  }
  if (batch.batch_size % part.count != 0) {
    throw DataError(
        absl::StrFormat("key 'batch_size': %d is the global batch, split "
                        "over %d ranks, and %d does not divide it; use a "
                        "multiple of %d",
                        batch.batch_size, part.count, part.count, part.count),
        "batch_size");
  }
  const index_t rows = batch.batch_size / part.count;
  order_.resize(dataset_->size());
  std::iota(order_.begin(), order_.end(), index_t{0});
  if (param_.shuffle) std::shuffle(order_.begin(), order_.end(), shuffle_rng_);
  const Shape<3> out = transform_.output_shape();
  try {
    batch_.Resize(Shape4(rows, out[0], out[1], out[2]), dataset_->label_width(),
                  dataset_->extra_shapes());
  } catch (const std::bad_alloc&) {
    throw DataError(
        absl::StrFormat("key 'batch_size': out of memory for a batch of %d "
                        "instances of %d floats each (%.3g GB); reduce "
                        "batch_size",
                        batch.batch_size, out.Size(),
                        4e-9 * batch.batch_size * out.Size()),
        "batch_size");
  }
  // Every part would say the same: the first says it.
  if (!param_.silent && part.index == 0) {
    const Shape<3> in = dataset_->instance_shape();
    std::cerr << absl::StrFormat(
        "data: %s: %d instances, batch %d,%d,%d,%d%s%s, shuffle=%d, "
        "round_batch=%d\n",
        dataset_->Describe(), dataset_->size(), batch.batch_size, out[0],
        out[1], out[2],
        in == out || augmenting_ != nullptr
            ? ""
            : absl::StrFormat(
                  " (instances of %d,%d,%d cropped %s)", in[0], in[1], in[2],
                  augment.rand_crop ? "at random" : "at the centre"),
        part.count == 1 ? ""
                        : absl::StrFormat(" (%d rows on each of %d ranks)",
                                          rows, part.count),
        param_.shuffle, param_.round_batch);
  }
}

Shape<4> BatchIterator::data_shape() const { return batch_.data.shape_; }

std::vector<Shape<4>> BatchIterator::extra_data_shapes() const {
  std::vector<Shape<4>> shapes;
  for (const auto& extra : batch_.extra_data) shapes.push_back(extra.shape_);
  return shapes;
}

void BatchIterator::Restart() {
  if (param_.shuffle && order_used_) {
    std::shuffle(order_.begin(), order_.end(), shuffle_rng_);
  }
  order_used_ = false;
  position_ = 0;
  first_batch_read_ = false;
}

void BatchIterator::BeforeFirst() {
  has_value_ = false;
  if (wrapped_) {
    // The pass already started inside the last batch.
    wrapped_ = false;
    return;
  }
  Restart();
}

void BatchIterator::FillRow(index_t row, std::uint64_t seed) {
  const index_t index = order_[position_++];
  order_used_ = true;
  if (augmenting_ != nullptr) {
    pending_reads_.push_back({index, row, seed});
  } else {
    dataset_->Read(index, instance_.FlatTo1D(), batch_.label[row]);
    transform_.Apply(instance_, batch_.data[row]);
  }
  if (!batch_.extra_data.empty()) {
    extra_rows_.clear();
    for (auto& extra : batch_.extra_data) {
      extra_rows_.push_back(extra[row].FlatTo1D());
    }
    dataset_->ReadExtras(index, extra_rows_);
  }
  batch_.inst_index[row] = index + param_.index_offset;
}

void BatchIterator::TakeRow(index_t global_row, bool read) {
  const index_t row = global_row - first_row_;
  const std::uint64_t seed = InstanceSeed(param_.seed, instances_walked_++);
  if (read && row >= 0 && row < batch_.batch_size) return FillRow(row, seed);
  ++position_;
  order_used_ = true;
  transform_.Skip();
}

bool BatchIterator::Step(bool show) {
  has_value_ = false;
  pending_reads_.clear();  // left over if the last ReadBatch threw
  if (wrapped_) return false;
  // With test_skipread the batch shown is the pass's first, kept as read.
  const bool read = show && !(param_.test_skipread && first_batch_read_);
  first_batch_read_ = first_batch_read_ || read;
  const index_t size = param_.batch_size;
  index_t row = 0;
  while (row < size && position_ < order_.size()) TakeRow(row++, read);
  if (row == 0) return false;
  // This part's rows past the end of the pass are padding.
  const index_t rows = batch_.batch_size;
  batch_.num_batch_padd = rows - std::clamp(row - first_row_, index_t{0}, rows);
  if (row < size) {
    if (param_.round_batch) {
      Restart();
      while (row < size) TakeRow(row++, read);
      wrapped_ = true;
    } else if (read) {
      for (index_t local = rows - batch_.num_batch_padd; local < rows;
           ++local) {
        batch_.data[local] = 0.0f;
        batch_.label[local] = 0.0f;
        for (auto& extra : batch_.extra_data) extra[local] = 0.0f;
        batch_.inst_index[local] = kPaddingIndex;
      }
    }
  }
  if (!pending_reads_.empty()) {
    // One row per instance.
    const Tensor<cpu, 2, float> rows(
        batch_.data.dptr_,
        Shape2(batch_.batch_size, transform_.output_shape().Size()));
    augmenting_->ReadBatch(pending_reads_, rows, batch_.label);
  }
  has_value_ = show;
  return true;
}

bool BatchIterator::Next() { return Step(/*show=*/true); }

void BatchIterator::SkipPass() {
  BeforeFirst();
  while (Step(/*show=*/false)) {
  }
}

const DataBatch& BatchIterator::Value() const {
  if (!has_value_) {
    throw DataError(
        "data iterator: Value() called without a batch: call Next() first "
        "and only use Value() while it returned true");
  }
  return batch_;
}

}  // namespace train
}  // namespace umbra
