// DeviceSum: the sum of the elements of a gpu expression, reduced on the
// device in double (as the CPU losses sum in double) and copied to the host
// as one number. The gpu loss layers compute the loss Loss() returns with
// it, so that a training step reads back only that number. Include it from
// .cu files only: the expression is compiled into the reduction kernel.
//
// Example:
//   DeviceSum sum;
//   const double loss = sum(F<op::abs>(in - label), in.stream_);
#ifndef UMBRA_LAYERS_GPU_DEVICE_SUM_H_
#define UMBRA_LAYERS_GPU_DEVICE_SUM_H_

#include "tensor/extension/extension.h"
#include "tensor/gpu/extension_gpu.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

class DeviceSum {
 public:
  // The sum of the elements of `e`, evaluated on `stream` (null: the
  // default stream); returns once the host has it.
  template <typename E, typename DType, int etype>
  double operator()(const expr::Exp<E, DType, etype>& e, Stream<gpu>* stream) {
    constexpr int dim = expr::ExpInfo<E>::kDim;
    const index_t size = expr::ShapeCheck<dim, E>::Check(e.self()).Size();
    sum_.Resize(Shape1(1));
    sum_.set_stream(stream);
    // Every element in one row: keeping dimension 0 reduces them all.
    sum_ =
        sumall_except_dim<0>(reshape(tcast<double>(e.self()), Shape2(1, size)));
    double host = 0;
    Copy(Tensor<cpu, 1, double>(&host, Shape1(1)), sum_.view(), stream);
    if (stream != nullptr) stream->Wait();
    return host;
  }

 private:
  TensorContainer<gpu, 1, double> sum_{false};
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_GPU_DEVICE_SUM_H_
