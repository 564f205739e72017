// CommunicatorRankSum<xpu>: the layers' RankSum (layers/batch_split.h) over
// the ranks of a Communicator: batch_norm's sync_bn sums its statistics
// with it. On the gpu the vector goes through host memory.
//
// Example:
//
//   CommunicatorRankSum<cpu> sum(ranks);
//   NetSplit<cpu> split{rows, &sum};   // for the net's layers
#ifndef UMBRA_TRAIN_DIST_RANK_SUM_H_
#define UMBRA_TRAIN_DIST_RANK_SUM_H_

#include <type_traits>

#include "layers/batch_split.h"
#include "tensor/tensor.h"
#include "train/dist/communicator.h"

namespace umbra {
namespace dist {

template <typename xpu>
class CommunicatorRankSum : public layers::RankSum<xpu, float> {
 public:
  // `ranks` must outlive this.
  explicit CommunicatorRankSum(Communicator& ranks) : ranks_(ranks) {}

  void SumInPlace(Tensor<xpu, 1, float> values) override {
    if constexpr (std::is_same<xpu, cpu>::value) {
      ranks_.SumInPlace(values.dptr_, values.shape_.Size());
    } else {
      host_.Resize(values.shape_);
      Copy(host_.view(), values);
      ranks_.SumInPlace(host_.dptr_, host_.shape_.Size());
      Copy(values, host_.view());
    }
  }

 private:
  Communicator& ranks_;
  TensorContainer<cpu, 1, float> host_{false};
};

}  // namespace dist
}  // namespace umbra

#endif  // UMBRA_TRAIN_DIST_RANK_SUM_H_
