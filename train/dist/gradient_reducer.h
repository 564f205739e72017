// GradientReducer<xpu>: sums a net's weight gradients over the ranks of a
// data-parallel run during its backward pass, as PyTorch's DDP and Horovod
// do. Each rank's loss is its rows' share of the global batch's mean loss
// (layers/batch_split.h), so the sum is the gradient of the global batch.
// The weights go in buckets, in the order the backward pass finishes them
// (last layer first); a bucket's sum starts as soon as the layers that fill
// it are done, and runs while the backward pass goes on through the earlier
// layers. Finish() waits for the rest and leaves every gradient the sum of
// the ranks' gradients, the same on every rank.
//
// A weight of kPackBelowBytes or more is summed alone, in its gradient's
// own memory; smaller ones are packed into a buffer, up to `bucket_bytes`
// a bucket, so that one collective carries many (the copy costs less than
// a collective's latency only for small weights).
//
// Every rank must build the reducer from the same net and report the same
// layers in the same order, so that the buckets start in one order
// everywhere.
//
// Example:
//
//   GradientReducer<cpu> reducer(net.WeightsByLayer(), allreduce.get(),
//                                /*bucket_bytes=*/4 << 20, /*overlap=*/true);
//   net.Backprop([&](size_t layer) { reducer.LayerDone(layer); });
//   reducer.Finish();   // gradients summed: update the weights
#ifndef UMBRA_TRAIN_DIST_GRADIENT_REDUCER_H_
#define UMBRA_TRAIN_DIST_GRADIENT_REDUCER_H_

#include <chrono>
#include <cstddef>
#include <utility>
#include <vector>

#include "layers/layer.h"
#include "tensor/tensor.h"
#include "train/dist/communicator.h"

namespace umbra {
namespace dist {

template <typename xpu>
class GradientReducer {
 public:
  using Weight = layers::WeightRef<xpu, float>;

  static constexpr size_t kPackBelowBytes = 256 << 10;

  // `weights_by_layer[i]`: the weights whose gradients are complete once
  // layer i's backward pass is (those layer i owns). `allreduce` sums
  // buffers in xpu's memory and must outlive the reducer. Without `overlap`
  // every bucket starts in Finish().
  GradientReducer(const std::vector<std::vector<Weight>>& weights_by_layer,
                  AsyncAllreduce* allreduce, size_t bucket_bytes, bool overlap)
      : allreduce_(allreduce), overlap_(overlap) {
    Bucket packed;
    size_t packed_bytes = 0;
    for (size_t layer = weights_by_layer.size(); layer-- > 0;) {
      const std::vector<Weight>& weights = weights_by_layer[layer];
      for (auto weight = weights.rbegin(); weight != weights.rend(); ++weight) {
        const size_t bytes = weight->grad.shape_.Size() * sizeof(float);
        if (bytes >= kPackBelowBytes) {
          // Its own bucket, which starts with this layer: before the packed
          // one still filling, whose earliest layer comes later.
          AddBucket({{*weight}, layer});
          continue;
        }
        packed.weights.push_back(*weight);
        packed.last_layer = layer;
        packed_bytes += bytes;
        if (packed_bytes >= bucket_bytes) {
          AddBucket(std::move(packed));
          packed = Bucket();
          packed_bytes = 0;
        }
      }
    }
    if (!packed.weights.empty()) AddBucket(std::move(packed));
  }

  // Layer `layer` has finished its backward pass (layers come last first):
  // starts the buckets it completes and lets the started ones move on.
  void LayerDone(size_t layer) {
    if (!overlap_) return;
    while (next_ < buckets_.size() && buckets_[next_].last_layer >= layer) {
      Start(&buckets_[next_++]);
    }
    const auto begin = std::chrono::steady_clock::now();
    allreduce_->Progress();
    AddWait(begin);
  }

  // Starts what is left, waits for every sum and writes them into the
  // gradients.
  void Finish() {
    while (next_ < buckets_.size()) Start(&buckets_[next_++]);
    const auto begin = std::chrono::steady_clock::now();
    allreduce_->WaitAll();
    AddWait(begin);
    for (Bucket& bucket : buckets_) {
      if (bucket.buffer.shape_.Size() == 0) continue;
      index_t offset = 0;
      for (Weight& weight : bucket.weights) {
        const index_t size = weight.grad.shape_.Size();
        Copy(weight.grad, bucket.buffer.Slice(offset, offset + size));
        offset += size;
      }
    }
    next_ = 0;
  }

  // Seconds spent waiting for the sums (in LayerDone and Finish) since the
  // last call.
  double TakeWaitSeconds() {
    const double seconds = wait_seconds_;
    wait_seconds_ = 0;
    return seconds;
  }

  // The buckets, in the order they start: how many weights each holds.
  std::vector<size_t> BucketSizes() const {
    std::vector<size_t> sizes;
    for (const Bucket& bucket : buckets_) {
      sizes.push_back(bucket.weights.size());
    }
    return sizes;
  }

 private:
  struct Bucket {
    // In the order the backward pass completes them.
    std::vector<Weight> weights;
    // The earliest layer among the weights' (done last).
    size_t last_layer = 0;
    // Empty for a bucket of one weight, summed in place.
    TensorContainer<xpu, 1, float> buffer{false};
  };

  void AddBucket(Bucket bucket) {
    if (bucket.weights.size() > 1) {
      index_t size = 0;
      for (const Weight& weight : bucket.weights) {
        size += weight.grad.shape_.Size();
      }
      bucket.buffer.Resize(Shape1(size));
    }
    buckets_.push_back(std::move(bucket));
  }

  void Start(Bucket* bucket) {
    if (bucket->buffer.shape_.Size() == 0) {
      Tensor<xpu, 1, float> grad = bucket->weights.front().grad;
      allreduce_->Start(grad.dptr_, grad.shape_.Size());
      return;
    }
    index_t offset = 0;
    for (const Weight& weight : bucket->weights) {
      const index_t size = weight.grad.shape_.Size();
      Copy(bucket->buffer.Slice(offset, offset + size), weight.grad);
      offset += size;
    }
    allreduce_->Start(bucket->buffer.dptr_, bucket->buffer.shape_.Size());
  }

  void AddWait(std::chrono::steady_clock::time_point begin) {
    wait_seconds_ +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
            .count();
  }

  AsyncAllreduce* allreduce_;
  bool overlap_;
  std::vector<Bucket> buckets_;
  // The first bucket not started in this backward pass.
  size_t next_ = 0;
  double wait_seconds_ = 0;
};

}  // namespace dist
}  // namespace umbra

#endif  // UMBRA_TRAIN_DIST_GRADIENT_REDUCER_H_
