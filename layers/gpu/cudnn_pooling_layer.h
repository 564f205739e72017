// max_pooling, avg_pooling and sum_pooling on the gpu, with the parameters
// and the (ceil mode) output shape of PoolingBase, computing what
// PoolingLayer computes on the CPU.
//
// cuDNN runs where it can express the CPU semantics:
//   - Only when cxxnet's ceil-mode output size equals cuDNN's floor-mode one
//     (the last window does not hang over the edge: always for 2x2 stride 2
//     on even sizes); otherwise pool()/unpool() of the expression engine run.
//   - avg_pooling is CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING (every
//     window then lies in the padded input, so it divides by kh * kw);
//     sum_pooling is the same scaled by kh * kw through cuDNN's alpha.
//   - max_pooling's backward always runs unpool(): the CPU layer gives the
//     window's gradient to every element equal to the maximum, cuDNN to one.
//
// Example:
//   auto pool = CreateLayer<gpu, float>("max_pooling", "pool1",
//                                       {{"kernel_size", "2"},
//                                        {"stride", "2"}});
#ifndef UMBRA_LAYERS_GPU_CUDNN_POOLING_LAYER_H_
#define UMBRA_LAYERS_GPU_CUDNN_POOLING_LAYER_H_

#include <string>
#include <type_traits>

#include "layers/cudnn/cudnn.h"
#include "layers/gpu/cudnn_layer.h"
#include "layers/pooling_layers.h"
#include "tensor/extension/extension.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

template <typename xpu, typename DType, typename Pooling>
class CudnnPoolingLayer
    : public CudnnLayer<xpu, DType, PoolingBase<xpu, DType, Pooling>> {
  static constexpr bool kMax = Pooling::kKind == PoolKind::kMax;
  using Reducer = std::conditional_t<kMax, red::maximum, red::sum>;

 public:
  void Forward(bool is_train) override {
    const Tensor<xpu, 4, DType> in = this->in(0).data;
    Tensor<xpu, 4, DType> out = this->out(0).data;
    if (!cudnn_fits_) {
      const PoolWindow& w = this->window_;
      out = pool<Reducer>(in, w.kernel_y, w.kernel_x, w.stride_y, w.stride_x,
                          w.pad_y, w.pad_x) *
            scalar(WindowScale<DType>(Pooling::kKind, this->window_));
      return;
    }
    const DType alpha = CudnnScale();
    UMBRA_CUDNN_CHECK(
        cudnnPoolingForward(this->Handle(), pool_desc_.get(), &alpha,
                            x_desc_.get(), in.dptr_, &cudnn::kZero<DType>,
                            y_desc_.get(), out.dptr_),
        this->Problem());
  }

  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    const Tensor<xpu, 4, DType> in = this->in(0).data;
    const Tensor<xpu, 4, DType> out = this->out(0).data;
    const Tensor<xpu, 4, DType> out_grad = this->out(0).grad;
    Tensor<xpu, 4, DType> in_grad = this->in(0).grad;
    if (kMax || !cudnn_fits_) {
      const PoolWindow& w = this->window_;
      in_grad = unpool<Reducer>(in, out, out_grad, w.kernel_y, w.kernel_x,
                                w.stride_y, w.stride_x, w.pad_y, w.pad_x) *
                scalar(WindowScale<DType>(Pooling::kKind, this->window_));
      return;
    }
    const DType alpha = CudnnScale();
    UMBRA_CUDNN_CHECK(
        cudnnPoolingBackward(
            this->Handle(), pool_desc_.get(), &alpha, y_desc_.get(), out.dptr_,
            y_desc_.get(), out_grad.dptr_, x_desc_.get(), in.dptr_,
            &cudnn::kZero<DType>, x_desc_.get(), in_grad.dptr_),
        this->Problem());
  }

 protected:
  void OnSetup() override {
    const PoolWindow& w = this->window_;
    const Shape<4>& in = this->in_shapes()[0];
    const Shape<4>& out = this->out_shapes()[0];
    cudnn_fits_ =
        FloorPooledSize(in[2], w.kernel_y, w.stride_y, w.pad_y) == out[2] &&
        FloorPooledSize(in[3], w.kernel_x, w.stride_x, w.pad_x) == out[3];
    if (!cudnn_fits_) return;
    const cudnnDataType_t type = cudnn::TypeOf<DType>();
    x_desc_.Set(type, in);
    y_desc_.Set(type, out);
    pool_desc_.Set(
        kMax ? CUDNN_POOLING_MAX : CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING,
        Shape2(w.kernel_y, w.kernel_x), Shape2(w.pad_y, w.pad_x),
        Shape2(w.stride_y, w.stride_x));
  }
  std::string Descriptors() const override {
    return "x " + x_desc_.str() + ", y " + y_desc_.str() + ", " +
           pool_desc_.str();
  }

 private:
  DType Area() const {
    return DType(this->window_.kernel_y * this->window_.kernel_x);
  }
  // The factor on cuDNN's max or average: area for sum_pooling, else 1.
  DType CudnnScale() const {
    return Pooling::kKind == PoolKind::kSum ? Area() : DType(1);
  }
  // Whether cuDNN computes the CPU layer's output size (see the top).
  bool cudnn_fits_ = false;
  cudnn::TensorDescriptor x_desc_;
  cudnn::TensorDescriptor y_desc_;
  cudnn::PoolingDescriptor pool_desc_;
};

template <typename xpu, typename DType>
using CudnnMaxPoolingLayer = CudnnPoolingLayer<xpu, DType, MaxPooling>;
template <typename xpu, typename DType>
using CudnnAvgPoolingLayer = CudnnPoolingLayer<xpu, DType, AvgPooling>;
template <typename xpu, typename DType>
using CudnnSumPoolingLayer = CudnnPoolingLayer<xpu, DType, SumPooling>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_GPU_CUDNN_POOLING_LAYER_H_
