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

#include "layers/conv_layer.h"
#include "layers/cudnn/cudnn.h"
#include "layers/gpu/cudnn_layer.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

template <typename xpu, typename DType>
class CudnnConvolutionLayer
    : public CudnnLayer<xpu, DType, ConvolutionBase<xpu, DType>> {
 public:
  void Forward(bool is_train) override {
    const Tensor<xpu, 4, DType> out = this->out(0).data;
    UMBRA_CUDNN_CHECK(
        cudnnConvolutionForward(
            this->Handle(), &cudnn::kOne<DType>, x_desc_.get(),
            this->in(0).data.dptr_, w_desc_.get(),
            this->weight(this->wmat_).dptr_, conv_desc_.get(), algos_.forward,
            this->Workspace(algos_.forward_bytes), algos_.forward_bytes,
            &cudnn::kZero<DType>, y_desc_.get(), out.dptr_),
        this->Problem());
    if (this->param_.no_bias) return;
    UMBRA_CUDNN_CHECK(
        cudnnAddTensor(this->Handle(), &cudnn::kOne<DType>, b_desc_.get(),
                       this->weight(this->bias_).dptr_, &cudnn::kOne<DType>,
                       y_desc_.get(), out.dptr_),
        this->Problem());
  }

  // Adds to the weight gradients (beta = 1), writes the input gradient.
  void Backprop(bool prop_grad) override {
    const DType* out_grad = this->out(0).grad.dptr_;
    if (!this->param_.no_bias) {
      UMBRA_CUDNN_CHECK(cudnnConvolutionBackwardBias(
                            this->Handle(), &cudnn::kOne<DType>, y_desc_.get(),
                            out_grad, &cudnn::kOne<DType>, b_desc_.get(),
                            this->gradient(this->bias_).dptr_),
                        this->Problem());
    }
    UMBRA_CUDNN_CHECK(cudnnConvolutionBackwardFilter(
                          this->Handle(), &cudnn::kOne<DType>, x_desc_.get(),
                          this->in(0).data.dptr_, y_desc_.get(), out_grad,
                          conv_desc_.get(), algos_.backward_filter,
                          this->Workspace(algos_.backward_filter_bytes),
                          algos_.backward_filter_bytes, &cudnn::kOne<DType>,
                          w_desc_.get(), this->gradient(this->wmat_).dptr_),
                      this->Problem());
    if (!prop_grad) return;
    UMBRA_CUDNN_CHECK(cudnnConvolutionBackwardData(
                          this->Handle(), &cudnn::kOne<DType>, w_desc_.get(),
                          this->weight(this->wmat_).dptr_, y_desc_.get(),
                          out_grad, conv_desc_.get(), algos_.backward_data,
                          this->Workspace(algos_.backward_data_bytes),
                          algos_.backward_data_bytes, &cudnn::kZero<DType>,
                          x_desc_.get(), this->in(0).grad.dptr_),
                      this->Problem());
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
    algos_ = cudnn::FindConvolutionAlgorithms(this->Handle(), x_desc_, w_desc_,
                                              conv_desc_, y_desc_);
  }
  std::string Descriptors() const override {
    return "x " + x_desc_.str() + ", w " + w_desc_.str() + ", " +
           conv_desc_.str() + ", y " + y_desc_.str();
  }

 private:
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
