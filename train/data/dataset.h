// Dataset: random access to the instances of a data source (an IDX pair, a
// CSV file, a binary tensor file), each a (channel, height, width) tensor of
// floats with `label_width` float labels. The batch iterator reads instances
// through it in order or shuffled; MemoryDataset holds them all in memory.
//
// Example:
//
//   MemoryDataset set(Shape3(1, 28, 28), /*label_width=*/1, /*size=*/2);
//   set.data()[0] = ...;                  // row i: channel*height*width
//   set.labels()[0][0] = 7.0f;
//   TensorContainer<cpu, 1, float> x(Shape1(784)), y(Shape1(1));
//   set.Read(0, x, y);
//
// Contracts: instance_shape(), label_width(), extra_shapes() and size() do
// not change; Read of an index in [0, size()) fills `data`
// (instance_shape().Size() floats) and `label` (label_width() floats), or
// throws DataError (e.g. an I/O error). A source with extra inputs (cxxnet's
// extra data, fed to the net's nodes in_1, in_2, ...) lists their shapes in
// extra_shapes() and fills them in ReadExtras. Read and ReadExtras are
// called from one thread at a time.
//
// An AugmentingDataset crops, mirrors and normalises its instances itself
// (images of any size, decoded on many threads): the batch iterator hands it
// a whole batch of reads at once, each with its own seed, and applies no
// InstanceTransform of its own.
#ifndef UMBRA_TRAIN_DATA_DATASET_H_
#define UMBRA_TRAIN_DATA_DATASET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace umbra {
namespace train {

class Dataset {
 public:
  virtual ~Dataset() = default;

  virtual index_t size() const = 0;
  virtual Shape<3> instance_shape() const = 0;
  virtual index_t label_width() const = 0;
  // Copies instance `index` into `data` and `label` (contiguous views of the
  // right sizes).
  virtual void Read(index_t index, Tensor<cpu, 1, float> data,
                    Tensor<cpu, 1, float> label) = 0;
  // The shapes (channel, height, width) of the extra inputs each instance
  // carries, in order; none unless the source stores them.
  virtual std::vector<Shape<3>> extra_shapes() const { return {}; }
  // Copies the extra inputs of instance `index` into `extras`, one
  // contiguous view per extra_shapes() entry. Only called when there are
  // extra inputs.
  virtual void ReadExtras(index_t index,
                          const std::vector<Tensor<cpu, 1, float>>& extras) {}
  // Instances found unreadable and replaced so far; may be called while
  // another thread reads.
  virtual std::int64_t bad_instances() const { return 0; }
  // What the data is, for messages: e.g. "mnist 'train-images.gz'".
  virtual std::string Describe() const = 0;
};

// One instance for AugmentingDataset::ReadBatch: which, into which row, and
// the seed of its random choices (crop, mirror, ...).
struct InstanceRead {
  index_t index;
  index_t row;
  std::uint64_t seed;
};

class AugmentingDataset : public Dataset {
 public:
  // Reads each request's instance, augmented, into its row of `data` (rows
  // of instance_shape().Size() floats) and `labels`, drawing its random
  // choices from a generator seeded with its seed alone, so that the batch
  // is the same however the reads are shared between threads. Read gives
  // an instance as evaluation sees it (no random choice).
  virtual void ReadBatch(const std::vector<InstanceRead>& reads,
                         Tensor<cpu, 2, float> data,
                         Tensor<cpu, 2, float> labels) = 0;
};

// Every instance in memory: data() is (size, channel*height*width), labels()
// is (size, label_width).
class MemoryDataset : public Dataset {
 public:
  MemoryDataset(const Shape<3>& instance_shape, index_t label_width,
                index_t size, std::string description = "memory");

  index_t size() const override { return data_.size(0); }
  Shape<3> instance_shape() const override { return instance_shape_; }
  index_t label_width() const override { return labels_.size(1); }
  void Read(index_t index, Tensor<cpu, 1, float> data,
            Tensor<cpu, 1, float> label) override;
  std::string Describe() const override { return description_; }

  Tensor<cpu, 2, float> data() { return data_; }
  Tensor<cpu, 2, float> labels() { return labels_; }

 private:
  Shape<3> instance_shape_;
  TensorContainer<cpu, 2, float> data_;
  TensorContainer<cpu, 2, float> labels_;
  std::string description_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_DATASET_H_
