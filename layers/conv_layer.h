// conv (`nchannel`, `kernel_size` / `kernel_height` / `kernel_width`,
// `stride`, `pad` / `pad_y` / `pad_x`, `dilate`, `ngroup`, `no_bias`,
// `temp_col_max`): 2-D convolution of (batch, C, H, W) images into
// (batch, nchannel, OH, OW), OH = (H + 2 pad_y - (dilate (kh - 1) + 1)) /
// stride + 1 (likewise OW), with wmat of shape (nchannel, C / ngroup, kh, kw)
// and bias of shape (nchannel). With ngroup = g, input channels and output
// channels are split into g groups and output group i sees input group i.
//
// On the CPU it runs image by image, one image per thread at a time. A
// float conv with stride 1 (and at least 16 products per output) runs on a
// direct kernel that reads the zero-padded image at each tap's shift
// (layers/shifted_conv_plan.h): the forward pass, the weight gradient and
// the input gradient (padding at most dilate * (kernel - 1)); so does a
// strided one (no dilation, one group, kernel at least the stride) on the
// image's phase planes. When the padded images of the whole batch fit in
// temp_col_max * 2^18 elements (cxxnet's unit: 1 MiB of float; default
// 64), a training Forward keeps them for the weight gradient, which then
// pads nothing again. Every other pass runs as
// im2col + one matrix product per group (in float the forward's and the
// input gradient's on StridedGemm, which packs nothing: OpenBLAS's packing
// weighed on products this small, and the one-channel stems of the ResNet
// and bn_cnn run their forward 1.15-1.26x faster): the patch matrices of
// the images in flight take at most temp_col_max * 2^18 elements together,
// but at least one image (temp_col_max = 0: one image at a time). They are
// allocated once in Setup and reused by every Forward and Backprop; when
// the whole batch's fit in temp_col_max, a training Forward keeps every
// image's for Backprop, which then skips its im2col. An in-place relu after
// it (Layer::FuseRelu) joins each image's bias pass, and its gradient the
// pass that sums the image's bias gradient. On the gpu it runs on cuDNN
// (layers/gpu), which ignores temp_col_max.
//
// Example (config, LeNet's first layer):
//   layer[data->conv1] = conv:conv1
//     nchannel = 32
//     kernel_size = 5
//     pad = 2
//     random_type = xavier
#ifndef UMBRA_LAYERS_CONV_LAYER_H_
#define UMBRA_LAYERS_CONV_LAYER_H_

#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "layers/channel_ops.h"
#include "layers/layer.h"
#include "layers/shifted_conv_plan.h"
#include "layers/spatial_ops.h"
#include "layers/strided_gemm.h"
#include "layers/weight_param.h"
#include "layers/window_keys.h"
#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct ConvolutionParam : public Parameter<ConvolutionParam> {
  int nchannel;
  std::optional<int> kernel_size;
  std::optional<int> kernel_height;
  std::optional<int> kernel_width;
  int stride;
  std::optional<int> pad;
  std::optional<int> pad_y;
  std::optional<int> pad_x;
  int dilate;
  int ngroup;
  bool no_bias;
  int temp_col_max;
  UMBRA_DECLARE_PARAMETER(ConvolutionParam) {
    UMBRA_DECLARE_FIELD(nchannel).set_lower_bound(1).describe(
        "Number of output channels.");
    UMBRA_DECLARE_WINDOW_FIELDS("Kernel", "Zero padding", "");
    UMBRA_DECLARE_FIELD(dilate).set_default(1).set_lower_bound(1).describe(
        "Spacing between kernel taps, both axes (1: a dense kernel).");
    UMBRA_DECLARE_FIELD(ngroup).set_default(1).set_lower_bound(1).describe(
        "Number of groups; input channels and nchannel must be multiples.");
    UMBRA_DECLARE_FIELD(no_bias).set_default(false).describe(
        "Leave out the bias term.");
    UMBRA_DECLARE_FIELD(temp_col_max)
        .set_default(64)
        .set_lower_bound(0)
        .describe(
            "Temporary memory for the patch matrices of the images computed "
            "at once (one per thread), in units of 2^18 elements (1 MiB of "
            "float), as cxxnet; 0, or less than one image's patch matrix: "
            "one image at a time. When the whole batch's fit, training keeps "
            "them from the forward pass for the backward pass. Default 64 "
            "(64 MiB of float). On the CPU, the passes of a float conv that "
            "its direct kernel computes need none; its padded images count "
            "instead, kept from the forward pass for the weight gradient "
            "when the whole batch's fit.");
    UMBRA_DECLARE_ALIAS(nchannel, num_channel);
    UMBRA_DECLARE_ALIAS(ngroup, num_group);
  }
};

// The unit of temp_col_max, in elements (cxxnet's `atoi(val) << 18`).
constexpr int kTempColUnitShift = 18;

// How many images the CPU conv computes at once: one per thread, at most the
// batch, and as many patch matrices of `patch_elements` each as fit in
// temp_col_max << kTempColUnitShift elements; at least one.
// Example: ConvParallelImages(1, 100000, 64, 2) == 2 (1 MiB of float holds
// two patch matrices of 100k elements; two threads).
index_t ConvParallelImages(int temp_col_max, index_t patch_elements,
                           index_t batch, int threads);

// What every implementation of conv shares: the parameters, the output
// shape, the geometry and the weights (wmat as (nchannel, C / ngroup, kh,
// kw), bias as (nchannel)). ConvolutionLayer computes with im2col and
// matrix products; the gpu type (layers/gpu) with cuDNN.
template <typename xpu, typename DType>
class ConvolutionBase : public Layer<xpu, DType> {
 public:
  // The settings, for the ONNX exporter (train/onnx).
  const ConvolutionParam& param() const { return param_; }
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "2-D convolution with stride, padding, dilation and groups (on the "
        "CPU a direct kernel where it applies, strided ones on the image's "
        "phase planes, else im2col + matrix product). On the CPU it also "
        "computes an in-place relu that follows it (the net skips that relu "
        "layer).";
    info.params = {ConvolutionParam::Manager(), WeightParam::Manager()};
    info.weight_tags = {"wmat", "bias"};
    return info;
  }

  // The patch walk InferShapes settled on (for tests and tools).
  const ConvGeometry& geometry() const { return geom_; }
  double ForwardMultiplyAdds() const override {
    return double(this->in_shapes()[0][0]) * geom_.OutPixels() *
           param_.nchannel * patch_per_group();
  }

 protected:
  void SetParams(const ParamKwargs& kwargs) override {
    param_.InitAllowUnknown(kwargs);
    ResolveWindowKeys(&param_, "ConvolutionParam");
    if (param_.nchannel % param_.ngroup != 0) {
      throw ParamError("ConvolutionParam: key 'nchannel' (" +
                           std::to_string(param_.nchannel) +
                           ") must be a multiple of 'ngroup' (" +
                           std::to_string(param_.ngroup) + ")",
                       "ConvolutionParam", "nchannel");
    }
  }

  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    const Shape<4>& s = in_shapes[0];
    ConvGeometry g;
    g.channels = s[1];
    g.height = s[2];
    g.width = s[3];
    g.kernel_y = *param_.kernel_height;
    g.kernel_x = *param_.kernel_width;
    g.stride_y = g.stride_x = param_.stride;
    g.pad_y = *param_.pad_y;
    g.pad_x = *param_.pad_x;
    g.dilate_y = g.dilate_x = param_.dilate;
    if (g.channels % param_.ngroup != 0) {
      std::ostringstream os;
      os << "input channels (" << g.channels << ") divisible by 'ngroup' ("
         << param_.ngroup << ")";
      this->FailShapes(in_shapes, os.str());
    }
    const index_t span_y = g.dilate_y * (g.kernel_y - 1) + 1;
    const index_t span_x = g.dilate_x * (g.kernel_x - 1) + 1;
    if (g.height + 2 * g.pad_y < span_y || g.width + 2 * g.pad_x < span_x) {
      std::ostringstream os;
      os << "a padded input (height + 2 pad_y, width + 2 pad_x) = ("
         << g.height + 2 * g.pad_y << ", " << g.width + 2 * g.pad_x
         << ") at least as large as the kernel ('kernel_size' " << g.kernel_y
         << "x" << g.kernel_x << ", 'dilate' " << g.dilate_y << ": spans "
         << span_y << "x" << span_x << ")";
      this->FailShapes(in_shapes, os.str());
    }
    g.out_height = (g.height + 2 * g.pad_y - span_y) / g.stride_y + 1;
    g.out_width = (g.width + 2 * g.pad_x - span_x) / g.stride_x + 1;
    geom_ = g;
    const index_t nchannel = param_.nchannel;
    const index_t taps = g.kernel_y * g.kernel_x;
    wmat_ = this->DeclareWeight(
        "wmat", TShape{nchannel, g.channels / ngroup(), g.kernel_y, g.kernel_x},
        WeightFill::kRandom,
        ConvolutionFans(g.channels, nchannel, ngroup(), taps));
    if (!param_.no_bias) {
      bias_ = this->DeclareWeight("bias", TShape{nchannel}, WeightFill::kBias);
    }
    return {Shape4(s[0], nchannel, g.out_height, g.out_width)};
  }

  index_t ngroup() const { return param_.ngroup; }
  index_t out_per_group() const { return param_.nchannel / param_.ngroup; }
  index_t patch_per_group() const { return geom_.PatchSize() / ngroup(); }
  // wmat as (nchannel, C / ngroup * kh * kw).
  Tensor<xpu, 2, DType> Wmat() const {
    return Reshape(this->weight(wmat_),
                   Shape2(param_.nchannel, patch_per_group()));
  }

  ConvolutionParam param_;
  ConvGeometry geom_;
  size_t wmat_ = 0;
  size_t bias_ = 0;
};

// conv on the CPU, image by image: the patch matrix of one image (im2col),
// then one matrix product per group straight into the image's output, in
// its node layout. The pool's threads take one image each at a time, each
// with a patch matrix of its own (small enough to stay in the core's cache)
// and, for Backprop, weight gradients of its own that are summed at the end
// in a fixed order (so results depend on the number of tasks, not on timing).
template <typename xpu, typename DType>
class ConvolutionLayer : public ConvolutionBase<xpu, DType> {
 public:
  void Forward(bool is_train) override {
    const Tensor<xpu, 4, DType> in = this->in(0).data;
    const Tensor<xpu, 4, DType> out = this->out(0).data;
    const bool has_bias = !this->param_.no_bias;
    const bool shifted = shifted_.forward();
    if (shifted) PackShifted(&ShiftedConvPlan::PackForwardWeights);
    const index_t batch = in.size(0);
    cols_hold_batch_ =
        is_train && !shifted && BatchFits(cols_.size(1) * cols_.size(2));
    if (cols_hold_batch_ && cols_.size(0) < batch) {
      cols_.Resize(Shape3(batch, cols_.size(1), cols_.size(2)));
    }
    padded_hold_batch_ =
        is_train && shifted && BatchFits(shifted_.PaddedImageSize());
    if (padded_hold_batch_ && shifted_.kept_images() < batch) {
      shifted_.KeepPaddedImages(batch);
    }
    ForEachImage([&](index_t task, index_t n) {
      Tensor<xpu, 2, DType> image_out = Pixels(out[n]);
      if (shifted) {
        RunShifted(&ShiftedConvPlan::Forward, task, in[n].dptr_,
                   image_out.dptr_, KeptImage(n));
      } else {
        Tensor<xpu, 2, DType> col = ColOf(task, n);
        Im2Col(this->geom_, in.Slice(n, n + 1), col);
        for (index_t g = 0; g < this->ngroup(); ++g) {
          Multiply(GroupRows(this->Wmat(), g, this->out_per_group()),
                   /*transpose_lhs=*/false,
                   GroupRows(col, g, this->patch_per_group()),
                   GroupRows(image_out, g, this->out_per_group()));
        }
      }
      // The bias and the fused relu in one pass over the image, while it is
      // in the core's cache.
      if (has_bias && relu_) {
        image_out = F<::umbra::op::relu>(
            image_out +
            broadcast<0>(this->weight(this->bias_), image_out.shape_));
      } else if (has_bias) {
        image_out += broadcast<0>(this->weight(this->bias_), image_out.shape_);
      } else if (relu_) {
        image_out = F<::umbra::op::relu>(image_out);
      }
    });
  }

  void Backprop(bool prop_grad) override {
    const Tensor<xpu, 4, DType> in = this->in(0).data;
    const Tensor<xpu, 4, DType> out_grad = this->out(0).grad;
    const bool has_bias = !this->param_.no_bias;
    const bool shifted_weights = shifted_.forward();
    const bool shifted_input = prop_grad && shifted_.input_gradient();
    if (shifted_input) PackShifted(&ShiftedConvPlan::PackAdjointWeights);
    wmat_grads_ = DType(0);
    bias_grads_ = DType(0);
    ForEachImage([&](index_t task, index_t n) {
      Tensor<xpu, 2, DType> wmat_grad = wmat_grads_[task];
      Tensor<xpu, 2, DType> image_grad = Pixels(out_grad[n]);
      // The fused relu's gradient first, as the relu layer computes it, and
      // the bias gradient in the same pass.
      if (relu_ || has_bias) {
        ReluGradientAndRowSums(Pixels(this->out(0).data[n]), image_grad, relu_,
                               has_bias ? bias_grads_[task].dptr_ : nullptr);
      }
      if (shifted_weights) {
        RunShifted(&ShiftedConvPlan::WeightGradient, task, in[n].dptr_,
                   image_grad.dptr_, wmat_grad.dptr_, KeptImage(n));
      } else {
        const Tensor<xpu, 2, DType> col = ColOf(task, n);
        if (!cols_hold_batch_) Im2Col(this->geom_, in.Slice(n, n + 1), col);
        for (index_t g = 0; g < this->ngroup(); ++g) {
          GroupRows(wmat_grad, g, this->out_per_group()) +=
              dot(GroupRows(image_grad, g, this->out_per_group()),
                  GroupRows(col, g, this->patch_per_group()).T());
        }
      }
      if (!prop_grad) return;
      if (shifted_input) {
        RunShifted(&ShiftedConvPlan::InputGradient, task, image_grad.dptr_,
                   this->in(0).grad[n].dptr_);
        return;
      }
      const Tensor<xpu, 2, DType> col = ColOf(task, n);
      for (index_t g = 0; g < this->ngroup(); ++g) {
        Multiply(GroupRows(this->Wmat(), g, this->out_per_group()),
                 /*transpose_lhs=*/true,
                 GroupRows(image_grad, g, this->out_per_group()),
                 GroupRows(col, g, this->patch_per_group()));
      }
      Col2Im(this->geom_, col, this->in(0).grad.Slice(n, n + 1));
    });
    cols_hold_batch_ = false;  // the input gradients were computed in them
    padded_hold_batch_ = false;
    Tensor<xpu, 2, DType> wmat_grad =
        Reshape(this->gradient(this->wmat_), this->Wmat().shape_);
    for (index_t task = 0; task < tasks_; ++task) {
      if (shifted_weights) {
        RunShifted(&ShiftedConvPlan::AddWeightGradient, task,
                   wmat_grads_[task].dptr_);
      }
      wmat_grad += wmat_grads_[task];
      if (has_bias) this->gradient(this->bias_) += bias_grads_[task];
    }
  }

  // Images computed at once (one per task), each with its own patch matrix.
  index_t parallel_images() const { return tasks_; }
  // The relu joins the bias pass of each image (Forward) and its gradient
  // the image's first use of the output gradient (Backprop).
  bool FuseRelu() override {
    relu_ = true;
    return true;
  }

 protected:
  void OnSetup() override {
    const ConvGeometry& geom = this->geom_;
    tasks_ = ConvParallelImages(this->param_.temp_col_max,
                                geom.OutPixels() * geom.PatchSize(),
                                this->in_shapes()[0][0], GetNumThreads());
    if constexpr (std::is_same<DType, float>::value) {
      shifted_ =
          ShiftedConvPlan(geom, this->ngroup(), this->param_.nchannel, tasks_);
    }
    // Patch matrices unless the stride-1 kernel computes every pass.
    const index_t patch_images = shifted_.input_gradient() ? 0 : tasks_;
    cols_.Resize(Shape3(patch_images, geom.PatchSize(), geom.OutPixels()));
    cols_hold_batch_ = false;
    wmat_grads_.Resize(
        Shape3(tasks_, this->Wmat().size(0), this->Wmat().size(1)));
    bias_grads_.Resize(Shape2(tasks_, this->param_.nchannel));
  }

 private:
  // Calls fn(task, n) for every image n of the batch, task in [0, tasks_):
  // task t takes images [batch * t / tasks_, batch * (t + 1) / tasks_), on
  // the thread pool (whose nested products run on the task's thread).
  template <typename Fn>
  void ForEachImage(const Fn& fn) {
    const index_t batch = this->in(0).data.size(0);
    ParallelFor(int(tasks_), [&](int task) {
      for (index_t n = batch * task / tasks_; n < batch * (task + 1) / tasks_;
           ++n) {
        fn(index_t(task), n);
      }
    });
  }
  // Packs wmat into shifted_ by `pack` (float only: double never plans the
  // stride-1 kernel).
  void PackShifted(void (ShiftedConvPlan::*pack)(const float*)) {
    if constexpr (std::is_same<DType, float>::value) {
      (shifted_.*pack)(this->weight(this->wmat_).dptr_);
    }
  }
  // Runs one of shifted_'s passes for one image in task `task`.
  template <typename Pass, typename... Args>
  void RunShifted(Pass pass, index_t task, Args... args) {
    if constexpr (std::is_same<DType, float>::value) {
      (shifted_.*pass)(task, args...);
    }
  }
  // Whether `elements` per image of the whole batch fit in temp_col_max.
  bool BatchFits(index_t elements) const {
    const index_t budget = index_t(this->param_.temp_col_max)
                           << kTempColUnitShift;
    return this->in(0).data.size(0) * elements <= budget;
  }
  // Where shifted_ pads image n: its own kept planes while
  // padded_hold_batch_, else the task's (-1).
  index_t KeptImage(index_t n) const { return padded_hold_batch_ ? n : -1; }
  // The patch matrix of image n, computed by task `task`: its own while
  // cols_hold_batch_, else the task's.
  Tensor<xpu, 2, DType> ColOf(index_t task, index_t n) {
    return cols_hold_batch_ ? cols_[n] : cols_[task];
  }
  // product = lhs rhs, or lhs^T rhs: one image's product, in its task.
  static void Multiply(const Tensor<xpu, 2, DType>& lhs, bool transpose_lhs,
                       const Tensor<xpu, 2, DType>& rhs,
                       Tensor<xpu, 2, DType> product) {
    if constexpr (std::is_same<DType, float>::value) {
      StridedGemm({product.size(0), product.size(1), rhs.size(0), lhs.dptr_,
                   transpose_lhs ? 1 : lhs.stride_,
                   transpose_lhs ? lhs.stride_ : 1, rhs.dptr_, rhs.stride_,
                   product.dptr_, product.stride_, /*accumulate=*/false});
    } else if (transpose_lhs) {
      product = dot(lhs.T(), rhs);
    } else {
      product = dot(lhs, rhs);
    }
  }
  // Rows [g * rows, (g + 1) * rows) of a matrix.
  static Tensor<xpu, 2, DType> GroupRows(const Tensor<xpu, 2, DType>& m,
                                         index_t g, index_t rows) {
    return m.Slice(g * rows, (g + 1) * rows);
  }
  // One image of a node as (channels, pixels).
  static Tensor<xpu, 2, DType> Pixels(const Tensor<xpu, 3, DType>& t) {
    return Reshape(t, Shape2(t.size(0), t.size(1) * t.size(2)));
  }

  index_t tasks_ = 1;
  // The stride-1 kernel's passes (float only).
  ShiftedConvPlan shifted_;
  // Whether cols_[n] holds image n's patch matrix from the last Forward (a
  // training one whose batch's fit in temp_col_max), for Backprop.
  bool cols_hold_batch_ = false;
  // Whether shifted_ keeps image n's padded planes from the last Forward (a
  // training one whose batch fits in temp_col_max), for Backprop.
  bool padded_hold_batch_ = false;
  // Whether it computes the in-place relu after it (FuseRelu).
  bool relu_ = false;
  TensorContainer<xpu, 3, DType> cols_{false};
  TensorContainer<xpu, 3, DType> wmat_grads_{false};
  TensorContainer<xpu, 2, DType> bias_grads_{false};
};

extern template class ConvolutionLayer<cpu, float>;
extern template class ConvolutionLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_CONV_LAYER_H_
