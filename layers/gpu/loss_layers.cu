// The gpu l2_loss, lp_loss and multi_logistic: the loss layers of
// layers/loss_layers.h with LossMath<gpu>, their arithmetic on the
// expression engine. Like the cpu's, the element terms are computed and
// summed in double; the sum is reduced on the device and only that number
// is copied to the host.
#include "layers/gpu/device_sum.h"
#include "layers/layer_registry.h"
#include "layers/loss_layers.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

template <typename DType>
class LossMath<gpu, DType> {
 public:
  // The sum of |in - label|^p.
  double LpSum(Tensor<gpu, 2, DType> in, Tensor<gpu, 2, DType> label,
               double p) {
    return sum_(F<::umbra::op::pow>(F<::umbra::op::abs>(tcast<double>(in) -
                                                        tcast<double>(label)),
                                    scalar(p)),
                in.stream_);
  }
  // grad = p |pred - label|^(p - 1) sign(pred - label).
  void LpGradient(Tensor<gpu, 2, DType> pred, Tensor<gpu, 2, DType> label,
                  double p, Tensor<gpu, 2, DType> grad) {
    grad = tcast<DType>(
        scalar(p) *
        F<::umbra::op::pow>(
            F<::umbra::op::abs>(tcast<double>(pred) - tcast<double>(label)),
            scalar(p - 1)) *
        F<::umbra::op::sign>(tcast<double>(pred) - tcast<double>(label)));
  }
  // The sum of softplus(in) - label * in.
  double LogisticSum(Tensor<gpu, 2, DType> in, Tensor<gpu, 2, DType> label) {
    return sum_(F<::umbra::op::softplus>(tcast<double>(in)) -
                    tcast<double>(label) * tcast<double>(in),
                in.stream_);
  }

 private:
  DeviceSum sum_;
};

// Each creator instantiates its class, float and double, here.
UMBRA_REGISTER_LAYER_DEVICE(gpu, "l2_loss", L2LossLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "lp_loss", LpLossLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "multi_logistic", MultiLogisticLayer);

}  // namespace layers
}  // namespace umbra
