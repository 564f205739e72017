// fullc (`nhidden`, `no_bias`): the fully connected layer,
//   out = in * wmat^T + bias,
// with wmat of shape (nhidden, input width) and bias of shape (nhidden).
// Input and output are matrices (batch, 1, 1, n); put a flatten layer
// before it for image nodes.
//
// Example (config):
//   layer[flat->fc1] = fullc:fc1
//     nhidden = 500
//     random_type = xavier
//     bias:wd = 0
#ifndef UMBRA_LAYERS_FULLC_LAYER_H_
#define UMBRA_LAYERS_FULLC_LAYER_H_

#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "layers/channel_ops.h"
#include "layers/layer.h"
#include "layers/matrix_transpose.h"
#include "layers/parallel_ranges.h"
#include "layers/strided_gemm.h"
#include "layers/weight_param.h"
#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct FullcParam : public Parameter<FullcParam> {
  int nhidden;
  bool no_bias;
  UMBRA_DECLARE_PARAMETER(FullcParam) {
    UMBRA_DECLARE_FIELD(nhidden).set_lower_bound(1).describe(
        "Number of output units.");
    UMBRA_DECLARE_FIELD(no_bias).set_default(false).describe(
        "Leave out the bias term.");
    UMBRA_DECLARE_ALIAS(nhidden, num_hidden);
  }
};

template <typename xpu, typename DType>
class FullConnectLayer : public Layer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "Fully connected: out = in * wmat^T + bias, on matrix nodes.";
    info.params = {FullcParam::Manager(), WeightParam::Manager()};
    info.weight_tags = {"wmat", "bias"};
    return info;
  }
  void Forward(bool is_train) override {
    Tensor<xpu, 2, DType> in = AsMatrix(this->in(0).data);
    Tensor<xpu, 2, DType> out = AsMatrix(this->out(0).data);
    if constexpr (kCpu) {
      if constexpr (kCpuFloat) {
        if (strided_forward_) return StridedForward(in, out);
      }
      // Each thread's block of the product gets its bias and relu while it
      // is in that core's cache.
      const Tensor<xpu, 2, DType> wmat = Wmat();
      blas::Gemm(false, true, in.size(0), param_.nhidden, in.size(1), DType(1),
                 in.dptr_, in.stride_, wmat.dptr_, wmat.stride_, DType(0),
                 out.dptr_, out.stride_, [&](const blas::MatrixBlock& block) {
                   FinishOutput(out, block);
                 });
    } else if (param_.no_bias) {
      out = dot(in, Wmat().T());
    } else {
      // The bias rows first, then the product added to them (beta = 1): a
      // pass that writes out, where a product with a ones column would read
      // and write it.
      out = repmat(this->weight(bias_), out.size(0));
      out += dot(in, Wmat().T());
    }
  }
  void Backprop(bool prop_grad) override {
    Tensor<xpu, 2, DType> in = AsMatrix(this->in(0).data);
    Tensor<xpu, 2, DType> out_grad = AsMatrix(this->out(0).grad);
    if constexpr (kCpu) {
      // The fused relu's gradient and the bias gradient in one pass.
      if (relu_ || !param_.no_bias) {
        Tensor<xpu, 2, DType> out = AsMatrix(this->out(0).data);
        DType* bias_grad =
            param_.no_bias ? nullptr : this->gradient(bias_).dptr_;
        ParallelRanges(out.size(1), out.shape_.Size(), GetParallelThreshold(),
                       [&](index_t c0, index_t c1) {
                         ReluGradientAndColumnSums(out, out_grad, relu_,
                                                   bias_grad, c0, c1);
                       });
      }
    } else if (!param_.no_bias) {
      Tensor<xpu, 1, DType> bias_grad = this->gradient(bias_);
      bias_grad += dot(ones_, out_grad);
    }
    Tensor<xpu, 2, DType> wmat_grad =
        Reshape(this->gradient(wmat_), Wmat().shape_);
    wmat_grad += dot(out_grad.T(), in);
    if (!prop_grad) return;
    Tensor<xpu, 2, DType> in_grad = AsMatrix(this->in(0).grad);
    if constexpr (kCpuFloat) {
      if (strided_input_gradient_) {
        const Tensor<xpu, 2, DType> wmat = Wmat();
        return StridedGemm({in_grad.size(0), in_grad.size(1), param_.nhidden,
                            out_grad.dptr_, out_grad.stride_, 1, wmat.dptr_,
                            wmat.stride_, in_grad.dptr_, in_grad.stride_,
                            /*accumulate=*/false});
      }
    }
    in_grad = dot(out_grad, Wmat());
  }
  // On the CPU the relu joins the pass that adds the bias to each block of
  // the product (Forward), and its gradient the pass that sums the bias
  // gradient (Backprop).
  bool FuseRelu() override {
    relu_ = kCpu;
    return relu_;
  }
  double ForwardMultiplyAdds() const override {
    const Shape<4>& in = this->in_shapes()[0];
    return double(in[0]) * in[3] * param_.nhidden;
  }

 protected:
  void SetParams(const ParamKwargs& kwargs) override {
    param_.InitAllowUnknown(kwargs);
  }
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    const Shape<4>& s = in_shapes[0];
    if (!IsMatrix(s)) {
      this->FailShapes(in_shapes,
                       "a matrix input (batch,1,1,n); put a flatten layer "
                       "before it");
    }
    const index_t width = s[3], nhidden = param_.nhidden;
    wmat_ =
        this->DeclareWeight("wmat", TShape{nhidden, width}, WeightFill::kRandom,
                            FullyConnectedFans(width, nhidden));
    if (!param_.no_bias) {
      bias_ = this->DeclareWeight("bias", TShape{nhidden}, WeightFill::kBias);
    }
    return {Shape4(s[0], 1, 1, nhidden)};
  }
  void OnSetup() override {
    const index_t batch = this->in_shapes()[0][0];
    const index_t width = this->in_shapes()[0][3];
    if constexpr (!kCpu) ones_.Resize(Shape1(batch), DType(1));
    if constexpr (kCpuFloat) {
      strided_input_gradient_ = batch <= kMaxStridedBatch;
      strided_forward_ =
          batch * (width + param_.nhidden) * kMinStridedWeightShare <=
          width * param_.nhidden;
      if (strided_forward_) {
        in_t_.Resize(Shape2(width, batch));
        out_t_.Resize(Shape2(param_.nhidden, batch));
      }
    }
  }

 private:
  // On the CPU in float, the forward pass and the input gradient can run on
  // StridedGemm (layers/strided_gemm.h), which packs nothing, where it is
  // faster than OpenBLAS (//layers:strided_gemm_bench, 2-core Zen 5,
  // batches of 16 to 256, layers 3136-512, 784-256 and 256-128). The input
  // gradient, in_grad = out_grad wmat, was 1.03x to 1.9x faster at every
  // one of them; it is taken up to the batches measured. The forward pass
  // needs its input and output transposed (out^T = wmat in^T): 1.2x to
  // 1.5x faster where the weights outnumber the input and output by 6 or
  // more (LeNet's fc1 at batch 64: 1.3x), as slow or slower where they
  // outnumber them by 3 or less (0.6x for 256-128 at batch 128). The weight
  // gradient stays on OpenBLAS: it was 0.8x to 1.2x.
  static constexpr bool kCpu = std::is_same<xpu, cpu>::value;
  static constexpr bool kCpuFloat = kCpu && std::is_same<DType, float>::value;
  static constexpr index_t kMaxStridedBatch = 256;
  static constexpr index_t kMinStridedWeightShare = 6;

  // out = in wmat^T + bias as out^T = wmat in^T, transposed (+ bias); for
  // kCpuFloat only (the explicit instantiations compile every member).
  void StridedForward(Tensor<xpu, 2, DType> in, Tensor<xpu, 2, DType> out) {
    if constexpr (kCpuFloat) {
      const index_t batch = in.size(0), width = in.size(1);
      TransposeMatrix(batch, width, in.dptr_, in.stride_, in_t_.dptr_,
                      in_t_.stride_);
      const Tensor<xpu, 2, DType> wmat = Wmat();
      StridedGemm({param_.nhidden, batch, width, wmat.dptr_, wmat.stride_, 1,
                   in_t_.dptr_, in_t_.stride_, out_t_.dptr_, out_t_.stride_,
                   /*accumulate=*/false});
      TransposeMatrix(param_.nhidden, batch, out_t_.dptr_, out_t_.stride_,
                      out.dptr_, out.stride_);
      FinishOutput(out, {0, batch, 0, param_.nhidden});
    }
  }

  // The bias and the fused relu on a block of the output, on the CPU.
  void FinishOutput(Tensor<xpu, 2, DType> out, const blas::MatrixBlock& block) {
    if constexpr (kCpu) {
      if (param_.no_bias && !relu_) return;
      const DType* bias = param_.no_bias
                              ? nullptr
                              : this->weight(bias_).dptr_ + block.col_begin;
      AddColumnBiasAndRelu(
          Tensor<xpu, 2, DType>(
              out.dptr_ + block.row_begin * out.stride_ + block.col_begin,
              Shape2(block.row_end - block.row_begin,
                     block.col_end - block.col_begin),
              out.stride_, nullptr),
          bias, relu_);
    }
  }

  Tensor<xpu, 2, DType> Wmat() const {
    return Reshape(this->weight(wmat_),
                   Shape2(param_.nhidden, this->in_shapes()[0][3]));
  }

  FullcParam param_;
  size_t wmat_ = 0;
  size_t bias_ = 0;
  // batch ones, off the CPU: the bias gradient is summed through BLAS (as
  // Caffe does).
  TensorContainer<xpu, 1, DType> ones_{false};
  // Whether it computes the in-place relu after it (FuseRelu).
  bool relu_ = false;
  bool strided_forward_ = false, strided_input_gradient_ = false;
  // StridedForward's in^T (width, batch) and out^T (nhidden, batch).
  TensorContainer<xpu, 2, DType> in_t_{false}, out_t_{false};
};

extern template class FullConnectLayer<cpu, float>;
extern template class FullConnectLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_FULLC_LAYER_H_
