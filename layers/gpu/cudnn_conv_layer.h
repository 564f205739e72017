// conv on the gpu: cuDNN's convolution with the parameters, output shape and
// weights of ConvolutionBase, so that it computes what ConvolutionLayer
// computes on the CPU (cross-correlation, groups, dilation, wmat as
// (nchannel, C / ngroup, kh, kw), bias per output channel).
//
// OnSetup sets the descriptors for the bound batch and takes the algorithms
// from cudnn::FindConvolutionAlgorithms (measured once per shape); every
// call uses the stream's shared cuDNN workspace. temp_col_max has no effect.
//
// Example:
//   auto conv = CreateLayer<gpu, float>("conv", "conv1",
//                                       {{"nchannel", "32"},
//                                        {"kernel_size", "5"}});
#ifndef UMBRA_LAYERS_GPU_CUDNN_CONV_LAYER_H_
#define UMBRA_LAYERS_GPU_CUDNN_CONV_LAYER_H_

#include <string>
#include <type_traits>

#include "layers/conv_layer.h"
#include "layers/cudnn/cudnn.h"
#include "layers/layer.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

template <typename xpu, typename DType>
class CudnnConvolutionLayer : public ConvolutionBase<xpu, DType> {
  static_assert(std::is_same<xpu, gpu>::value,
                "CudnnConvolutionLayer runs on the gpu; the cpu has "
                "ConvolutionLayer");

 public:
  void Forward(bool is_train) override {
    const DType one = 1, zero = 0;
    Stream<gpu>* stream = this->context().stream;
    cudnnHandle_t handle = cudnn::Handle(stream);
    const Tensor<xpu, 4, DType> out = this->out(0).data;
    UMBRA_CUDNN_CHECK(
        cudnnConvolutionForward(
            handle, &one, x_desc_.get(), this->in(0).data.dptr_, w_desc_.get(),
            this->weight(this->wmat_).dptr_, conv_desc_.get(), algos_.forward,
            cudnn::Workspace(stream, algos_.forward_bytes),
            algos_.forward_bytes, &zero, y_desc_.get(), out.dptr_),
        Problem());
    if (this->param_.no_bias) return;
    UMBRA_CUDNN_CHECK(cudnnAddTensor(handle, &one, b_desc_.get(),
                                     this->weight(this->bias_).dptr_, &one,
                                     y_desc_.get(), out.dptr_),
                      Problem());
  }

  // Adds to the weight gradients (beta = 1), writes the input gradient.
  void Backprop(bool prop_grad) override {
    const DType one = 1, zero = 0;
    Stream<gpu>* stream = this->context().stream;
    cudnnHandle_t handle = cudnn::Handle(stream);
    const DType* out_grad = this->out(0).grad.dptr_;
    if (!this->param_.no_bias) {
      UMBRA_CUDNN_CHECK(cudnnConvolutionBackwardBias(
                            handle, &one, y_desc_.get(), out_grad, &one,
                            b_desc_.get(), this->gradient(this->bias_).dptr_),
                        Problem());
    }
    UMBRA_CUDNN_CHECK(
        cudnnConvolutionBackwardFilter(
            handle, &one, x_desc_.get(), this->in(0).data.dptr_, y_desc_.get(),
            out_grad, conv_desc_.get(), algos_.backward_filter,
            cudnn::Workspace(stream, algos_.backward_filter_bytes),
            algos_.backward_filter_bytes, &one, w_desc_.get(),
            this->gradient(this->wmat_).dptr_),
        Problem());
    if (!prop_grad) return;
    UMBRA_CUDNN_CHECK(
        cudnnConvolutionBackwardData(
            handle, &one, w_desc_.get(), this->weight(this->wmat_).dptr_,
            y_desc_.get(), out_grad, conv_desc_.get(), algos_.backward_data,
            cudnn::Workspace(stream, algos_.backward_data_bytes),
            algos_.backward_data_bytes, &zero, x_desc_.get(),
            this->in(0).grad.dptr_),
        Problem());
  }

 protected:
  void OnSetup() override {
    const cudnnDataType_t type = cudnn::TypeOf<DType>();
    const ConvGeometry& g = this->geom_;
    const index_t nchannel = this->param_.nchannel;
    x_desc_.Set(type, this->in_shapes()[0]);
    y_desc_.Set(type, this->out_shapes()[0]);
    w_desc_.Set(type, Shape4(nchannel, g.channels / this->ngroup(), g.kernel_y,
                             g.kernel_x));
    b_desc_.Set(type, Shape4(1, nchannel, 1, 1));
    conv_desc_.Set(type, Shape2(g.pad_y, g.pad_x),
                   Shape2(g.stride_y, g.stride_x),
                   Shape2(g.dilate_y, g.dilate_x), this->ngroup());
    algos_ =
        cudnn::FindConvolutionAlgorithms(cudnn::Handle(this->context().stream),
                                         x_desc_, w_desc_, conv_desc_, y_desc_);
  }

 private:
  // For errors: the layer and its cuDNN problem.
  std::string Problem() const {
    return LayerLabel(this->name(), this->type()) + ": x " + x_desc_.str() +
           ", w " + w_desc_.str() + ", " + conv_desc_.str() + ", y " +
           y_desc_.str();
  }

  cudnn::TensorDescriptor x_desc_;
  cudnn::TensorDescriptor y_desc_;
  cudnn::TensorDescriptor b_desc_;
  cudnn::FilterDescriptor w_desc_;
  cudnn::ConvolutionDescriptor conv_desc_;
  cudnn::ConvolutionAlgorithms algos_;
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_GPU_CUDNN_CONV_LAYER_H_
